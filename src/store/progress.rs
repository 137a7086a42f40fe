//! How a run tells whoever watches it how far it is: an observer the runners call, never a
//! terminal bar. The command line plugs in a progress bar on stderr, Python a callback, a test
//! a counter; [`Silent`] hears nothing.

/// What a run says about its progress, in its unit (games, iterations). Every method has a
/// default that does nothing, so an observer implements only what it shows. Called from the
/// thread that folds results (never from the workers), in order.
pub trait Progress: Send + Sync {
    /// The run starts: `total` units planned, `done` of them already played (a resumed run).
    fn begin(&self, _total: u64, _done: u64) {}
    /// `n` more units played.
    fn advance(&self, _n: u64) {}
    /// `n` more units planned (a sweep's cell that samples on).
    fn extend(&self, _n: u64) {}
    /// The part now running, in words (a sweep's cell: `4 players, 9 tiles`).
    fn stage(&self, _what: &str) {}
    /// The run is over (finished or stopped): a bar clears itself.
    fn end(&self) {}
}

/// The observer that shows nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {}
