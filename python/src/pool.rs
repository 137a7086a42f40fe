//! The thread pool `VecEnv` steps its games on, one per process: rayon's global pool lives in
//! threads a `fork` does not copy, so a child that used it would wait forever for them. The pool
//! here remembers the process that built it; a forked child builds a fresh one on first use.

use std::sync::{Arc, Mutex, PoisonError};

/// The pool and the process id it was built in.
static POOL: Mutex<Option<(u32, Arc<rayon::ThreadPool>)>> = Mutex::new(None);

/// This process's pool (as many threads as rayon's default: `RAYON_NUM_THREADS`, else the
/// cores), built on first use in each process.
pub(crate) fn get() -> Arc<rayon::ThreadPool> {
    let pid = std::process::id();
    let mut held = POOL.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((owner, pool)) = held.as_ref()
        && *owner == pid
    {
        return pool.clone();
    }
    if let Some(inherited) = held.take() {
        // A pool copied by fork: its threads stayed in the parent. Dropping it would signal
        // threads that do not exist here; it is left alone.
        std::mem::forget(inherited);
    }
    let pool = Arc::new(rayon::ThreadPoolBuilder::new().build().expect("a thread pool"));
    *held = Some((pid, pool.clone()));
    pool
}
