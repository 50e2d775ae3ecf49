//! Enough stack for CEL: rules from a repository are parsed to at most cel-go's 250 levels of
//! recursion, but a tree within that bound can still be a few thousand nodes deep, and the
//! checker, cost estimator and interpreter recurse over it. Work on rules runs on a stack
//! segment with room for that (grown only when the current one is short).

/// The stack a rule is checked and evaluated on.
pub(super) const STACK: usize = 64 * 1024 * 1024;

/// How much stack must be left for rule work to run where it is; below that it moves to a
/// segment of [`STACK`] bytes.
const RED_ZONE: usize = 16 * 1024 * 1024;

/// Runs `work` with at least [`RED_ZONE`] bytes of stack: the evaluations inside then run
/// where they are, on one segment.
pub(super) fn roomy<T>(work: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(RED_ZONE, STACK, work)
}
