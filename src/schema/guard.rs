//! Running the `cel` crate, which is not ours, so that nothing it does reaches the user as a
//! crash: its parser and interpreter recurse (a thread or a segment with a large stack) and it
//! has panics of its own (caught, with the panic hook silenced for that call only, so no
//! backtrace is printed: the caller reports the failure as a finding about the rule).

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

/// The stack a rule is parsed and evaluated on: the crate's recursion is bounded by the
/// limits of [`super::rule`] (250 levels of nesting); its interpreter's frames are large
/// (tens of kilobytes each in a debug build), so 250 levels need more than a main thread has.
pub(super) const STACK: usize = 128 * 1024 * 1024;

/// How much stack must be left for an evaluation to run where it is; below that it moves to a
/// segment of [`STACK`] bytes.
const RED_ZONE: usize = 48 * 1024 * 1024;

thread_local! {
    /// Whether a panic on this thread is caught and reported by [`quietly`].
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Installs, once, a panic hook that stays silent for the threads inside [`quietly`] and
/// hands every other panic to the hook that was there before (so the binary's and the test
/// harness's reports are unchanged).
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

/// Runs `work`, a panic inside it turned into `Err` with nothing printed.
pub(super) fn quietly<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    let was = QUIET.with(|q| q.replace(true));
    let result = catch_unwind(AssertUnwindSafe(work));
    QUIET.with(|q| q.set(was));
    result.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown failure".into())
    })
}

/// Runs `work` on a new thread with a [`STACK`]-byte stack, quietly: for the parser, whose
/// recursion (and the dropping of what it built) is deepest on the rules it then refuses.
pub(super) fn on_thread<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || quietly(work))
        .map_err(|e| format!("no thread for the CEL parser: {e}"))?
        .join()
        .unwrap_or_else(|_| Err("the CEL parser failed".into()))
}

/// Runs `work` quietly with at least [`RED_ZONE`] bytes of stack, moving to a new segment
/// when the current one is short: evaluations run once per value, too often for a thread each
/// (callers that evaluate many, as one object's validation, call [`roomy`] around them all).
pub(super) fn with_stack<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    roomy(|| quietly(work))
}

/// Runs `work` with at least [`RED_ZONE`] bytes of stack: the evaluations inside then run
/// where they are, on one segment.
pub(super) fn roomy<T>(work: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(RED_ZONE, STACK, work)
}
