//! The page's door into [`crate::handle`]: requests and answers as UTF-8 text in WebAssembly's
//! linear memory.
//!
//! Written by hand rather than with `wasm-bindgen`: the page makes one call with one string in
//! and one string out, and these three functions carry it without a generated JavaScript layer
//! or a second build tool (`wasm-bindgen-cli`, whose version must match the crate's exactly),
//! so `scripts/regen/build-web.sh` needs only `cargo` and the `wasm32-unknown-unknown` target.
//!
//! The worker: `mt_alloc(n)` for a buffer, the request's bytes written there, `mt_call(ptr, n)`
//! (which frees the request), then the answer read at `mt_answer_ptr()` for `mt_answer_len()`
//! bytes, valid until the next call.

use std::cell::RefCell;

thread_local! {
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` bytes for a request.
#[unsafe(no_mangle)]
pub extern "C" fn mt_alloc(len: usize) -> *mut u8 {
    let mut v = vec![0u8; len];
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// Answers the request of `len` bytes at `ptr` (a buffer from [`mt_alloc`] of that length, freed
/// here).
///
/// # Safety
/// `ptr` must come from `mt_alloc(len)` and not be used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mt_call(ptr: *mut u8, len: usize) {
    // SAFETY: the buffer was allocated by mt_alloc with exactly this length and capacity.
    let bytes = unsafe { Vec::from_raw_parts(ptr, len, len) };
    let answer = crate::handle(&String::from_utf8_lossy(&bytes));
    ANSWER.with(|a| *a.borrow_mut() = answer.into_bytes());
}

/// Where the last answer starts.
#[unsafe(no_mangle)]
pub extern "C" fn mt_answer_ptr() -> *const u8 {
    ANSWER.with(|a| a.borrow().as_ptr())
}

/// The last answer's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn mt_answer_len() -> usize {
    ANSWER.with(|a| a.borrow().len())
}
