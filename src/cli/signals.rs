//! Stopping on a signal without losing work: SIGINT (Ctrl-C), SIGTERM (what a batch system sends
//! at its time limit or on pre-emption) and SIGHUP (a closed terminal) all ask the run to stop.
//!
//! The handlers only set flags; the run itself finishes its chunks in flight, saves, and exits
//! with the conventional code (128 + the signal number: 130, 143, 129). The first signal prints
//! one line and waits at most [`GRACE`] for the chunks in flight; then, or at once on a second
//! signal, they are cut short (played again on resume) and the search bots stop searching, so
//! the stop takes seconds whatever the bots. No signal ever ends the process in the middle of a
//! save.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::Duration;

/// How long the first signal waits for the chunks in flight before cutting them short.
const GRACE: Duration = Duration::from_secs(2);

/// The flags a run watches.
#[derive(Clone)]
pub(crate) struct Stop {
    /// Stop scheduling.
    pub(crate) stop: Arc<AtomicBool>,
    /// Cut the chunks in flight short.
    pub(crate) cut: Arc<AtomicBool>,
    /// The first signal received (0: none).
    signal: Arc<AtomicI32>,
}

impl Stop {
    /// Installs the handlers (once per process) and clears the flags.
    pub(crate) fn install() -> Stop {
        static FLAGS: std::sync::OnceLock<Stop> = std::sync::OnceLock::new();
        let s = FLAGS.get_or_init(|| {
            let s = Stop {
                stop: Arc::new(AtomicBool::new(false)),
                cut: Arc::new(AtomicBool::new(false)),
                signal: Arc::new(AtomicI32::new(0)),
            };
            s.listen();
            s
        });
        s.stop.store(false, Ordering::SeqCst);
        s.cut.store(false, Ordering::SeqCst);
        s.signal.store(0, Ordering::SeqCst);
        crate::strategies::abandon_searches(false);
        s.clone()
    }

    #[cfg(unix)]
    fn listen(&self) {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else { return };
        let me = self.clone();
        // signal-hook: the maintained way to turn signals into values a thread can read.
        let _ = std::thread::Builder::new().name("signals".into()).spawn(move || {
            for sig in signals.forever() {
                me.received(sig);
            }
        });
    }

    #[cfg(not(unix))]
    fn listen(&self) {
        let me = self.clone();
        let _ = ctrlc::set_handler(move || me.received(2));
    }

    fn received(&self, sig: i32) {
        if self.signal.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst).is_err() {
            self.cut_now();
        } else {
            // One line on stderr (a closed stderr is ignored).
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "mtrain: stopping: finishing the games in flight (at most {} s, then they are cut short and played again on resume); Ctrl-C again to stop now",
                GRACE.as_secs()
            );
            // The wait is bounded: a search bot's chunk can take minutes to finish.
            let me = self.clone();
            let _ = std::thread::Builder::new().name("stop-grace".into()).spawn(move || {
                std::thread::sleep(GRACE);
                if me.signal.load(Ordering::SeqCst) != 0 {
                    me.cut_now();
                }
            });
        }
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Cuts the chunks in flight short: the runner discards them, and the search bots stop
    /// searching so that the game under way ends at once.
    fn cut_now(&self) {
        self.cut.store(true, Ordering::SeqCst);
        crate::strategies::abandon_searches(true);
    }

    /// The exit code for the signal that stopped the run, if one did.
    pub(crate) fn exit_code(&self) -> Option<i32> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            s => Some(128 + s),
        }
    }
}
