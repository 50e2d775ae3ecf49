//! The size budget of one evaluation: how many bytes of strings templates and function calls
//! may build in total ([`MAX_BUILT_BYTES`]), how many collection elements and attributes it
//! may build and visit ([`MAX_BUILT_ELEMENTS`]), and the bound on one string
//! ([`MAX_STRING_BYTES`]). The budget bounds what a program keeps and the work it does, so
//! chains that double a string at each step (locals `a_i = "${a_(i-1)}${a_(i-1)}"`, whose
//! values all stay alive) and nested `for` expressions over `range(1024)` stop at a fixed
//! amount of memory and time instead of at the machine's end. cty has no budget:
//! docs/compatibility.md.
//!
//! Running out ends the whole evaluation at once, as the deadline does (`eval::deadline`): the
//! charge unwinds with an [`Exhausted`] payload straight back to [`within`] (or [`guard`]),
//! so no `try`, `can` or error-collecting loop in between reports it once per iteration. The
//! unwind uses [`std::panic::resume_unwind`], which runs no panic hook; code between a charge
//! and [`within`] that catches unwinds must hand the payload on ([`locate`] names the
//! expression on the way).

use crate::diagnostics::{Code, Diagnostic};
use crate::source::Span;
use std::any::Any;
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

/// The longest string a function call or a template may build: 128 MiB. Far beyond real
/// values (a 100 MB string still works), and it stops chains that grow strings geometrically
/// (`jsonencode(jsonencode(…))` doubles the escapes at each level; a template `"${a}${a}"`
/// applied thirty times makes a gigabyte). cty has no limit: docs/compatibility.md.
pub const MAX_STRING_BYTES: usize = 128 << 20;

/// The message for a string past [`MAX_STRING_BYTES`].
pub fn string_too_long(len: usize) -> String {
    format!(
        "the result would be a string of {len} bytes, more than fnhcl's limit of {MAX_STRING_BYTES} (128 MiB)"
    )
}

/// The bytes of strings one evaluation may build: 128 MiB, fifty times what a large real
/// composition builds, and enough for one 100 MB string.
pub const MAX_BUILT_BYTES: usize = 128 << 20;

/// The collection elements and object attributes one evaluation may build, plus the elements
/// its `for` expressions visit: 4 Mi (4,194,304). The largest inputs of `benches/scaling.sh`
/// (a 4,000-member collection, 64,000 locals) use under 200,000; what the budget lets a
/// program keep stays under a few hundred MB, and the work (three `for` nested over
/// `range(1024)`) under about a second and a half.
pub const MAX_BUILT_ELEMENTS: usize = 4 << 20;

/// What is left of the running evaluation's budget.
#[derive(Clone, Copy, Debug)]
struct Left {
    bytes: usize,
    elements: usize,
}

const FRESH: Left = Left {
    bytes: MAX_BUILT_BYTES,
    elements: MAX_BUILT_ELEMENTS,
};

thread_local! {
    /// What is left of the running evaluation's budget; `None` outside one (no budget).
    static LEFT: Cell<Option<Left>> = const { Cell::new(None) };
}

/// Which part of the budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spent {
    /// [`MAX_BUILT_BYTES`] of strings.
    Strings,
    /// [`MAX_BUILT_ELEMENTS`] elements.
    Elements,
}

/// The budget ran out: the unwind's payload, and what [`within`] returns then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exhausted {
    /// Which part.
    pub spent: Spent,
    /// The innermost expression being evaluated when it ran out, once known.
    pub span: Option<Span>,
}

impl Exhausted {
    /// The one diagnostic that reports it (`T303`).
    pub fn diagnostic(&self) -> Diagnostic {
        let (detail, help) = match self.spent {
            Spent::Strings => (
                format!(
                    "This evaluation has built more strings than fnhcl's budget of {MAX_BUILT_BYTES} bytes (128 MiB)."
                ),
                "build fewer or shorter strings: a template or function inside a `for` builds its string once per element",
            ),
            Spent::Elements => (
                format!(
                    "This evaluation has built more than fnhcl's budget of {MAX_BUILT_ELEMENTS} collection elements and attributes (`for` iterations included)."
                ),
                "build smaller collections: nested `for` expressions multiply their sizes",
            ),
        };
        let diagnostic = Diagnostic::new(Code::T303, "Evaluation budget exceeded")
            .with_detail(detail)
            .with_help(help);
        match self.span {
            Some(span) => diagnostic.with_primary(span, None),
            None => diagnostic,
        }
    }
}

/// Runs `work` as one evaluation with a fresh budget, then puts back the enclosing one
/// (however `work` ends); [`Exhausted`] when the budget ran out first.
pub fn within<T>(work: impl FnOnce() -> T) -> Result<T, Exhausted> {
    /// Puts the enclosing budget back however `work` ends.
    struct Restore(Option<Left>);
    impl Drop for Restore {
        fn drop(&mut self) {
            LEFT.set(self.0);
        }
    }
    let _restore = Restore(LEFT.replace(Some(FRESH)));
    guard(work)
}

/// Runs `work` under the running evaluation's budget, catching its end: a part of an
/// evaluation that can report the end itself (`check`'s probe, one expression at a time).
pub fn guard<T>(work: impl FnOnce() -> T) -> Result<T, Exhausted> {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(value) => Ok(value),
        Err(payload) => match payload.downcast::<Exhausted>() {
            Ok(exhausted) => Err(*exhausted),
            Err(other) => resume_unwind(other),
        },
    }
}

/// Counts `bytes` of built strings against the running evaluation's budget; when they do not
/// fit, the evaluation ends (an unwind to [`within`], naming `span`). Outside an evaluation,
/// nothing is counted.
#[inline]
pub fn strings(bytes: usize, span: Option<Span>) {
    if let Some(mut left) = LEFT.get() {
        if bytes > left.bytes {
            exhausted(Spent::Strings, span);
        }
        left.bytes -= bytes;
        LEFT.set(Some(left));
    }
}

/// Counts `count` built (or visited) elements against the running evaluation's budget; when
/// they do not fit, the evaluation ends (an unwind to [`within`], naming `span`). A counter
/// decrement: cheap enough for every collection built.
#[inline]
pub fn elements(count: usize, span: Option<Span>) {
    if let Some(mut left) = LEFT.get() {
        if count > left.elements {
            exhausted(Spent::Elements, span);
        }
        left.elements -= count;
        LEFT.set(Some(left));
    }
}

#[cold]
#[inline(never)]
fn exhausted(spent: Spent, span: Option<Span>) -> ! {
    // Nothing more fits: the catch in `within` or `guard` sees this once.
    LEFT.set(Some(Left {
        bytes: 0,
        elements: 0,
    }));
    resume_unwind(Box::new(Exhausted { spent, span }))
}

/// Whether an unwind's payload is the budget's: code that catches unwinds (a built-in
/// function's panic guard) must resume these.
pub fn is_exhausted(payload: &(dyn Any + Send)) -> bool {
    payload.is::<Exhausted>()
}

/// An unwind's payload with `span` as the expression where the budget ran out, unless an
/// inner expression was already named (or the payload is not the budget's).
pub fn locate(mut payload: Box<dyn Any + Send>, span: Span) -> Box<dyn Any + Send> {
    if let Some(exhausted) = payload.downcast_mut::<Exhausted>()
        && exhausted.span.is_none()
    {
        exhausted.span = Some(span);
    }
    payload
}

/// How many elements are left of the running evaluation's budget (`None` outside one): for
/// measuring what inputs use.
pub fn elements_left() -> Option<usize> {
    LEFT.get().map(|left| left.elements)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_evaluation_has_its_own_budget() {
        strings(usize::MAX, None);
        elements(usize::MAX, None);
        let done = within(|| {
            strings(MAX_BUILT_BYTES - 10, None);
            // A nested evaluation starts afresh and gives the outer one back its rest.
            assert!(within(|| strings(MAX_BUILT_BYTES, None)).is_ok());
            strings(10, None);
            elements(MAX_BUILT_ELEMENTS, None);
            assert_eq!(elements_left(), Some(0));
        });
        assert_eq!(done, Ok(()));
        assert_eq!(elements_left(), None);
    }

    #[test]
    fn running_out_ends_the_evaluation_once() {
        let mut charged = 0;
        let file = crate::source::SourceMap::new().add("t", String::new());
        let span = Span::new(file, 3..7);
        let ended = within(|| {
            // A loop that would report an error per iteration stops at the first charge
            // that does not fit.
            for _ in 0..1000 {
                elements(MAX_BUILT_ELEMENTS / 4, Some(span));
                charged += 1;
            }
        });
        assert_eq!(charged, 4);
        let ended = ended.expect_err("the budget ran out");
        assert_eq!(ended.spent, Spent::Elements);
        assert_eq!(ended.diagnostic().primary.map(|l| l.span), Some(span));
        assert_eq!(
            elements_left(),
            None,
            "the budget is gone once `within` returns"
        );
    }

    #[test]
    fn a_guard_keeps_the_budget_and_locate_names_the_innermost_expression() {
        let file = crate::source::SourceMap::new().add("t", String::new());
        let outer = Span::new(file, 0..10);
        let inner = Span::new(file, 2..4);
        let result = within(|| {
            let first = guard(|| {
                let caught = catch_unwind(|| strings(MAX_BUILT_BYTES + 1, None));
                let payload = caught.expect_err("unwound");
                assert!(is_exhausted(payload.as_ref()));
                resume_unwind(locate(locate(payload, inner), outer))
            });
            assert_eq!(first.map_err(|e| e.span), Err(Some(inner)));
            // Spent stays spent inside the same evaluation.
            assert_eq!(elements_left(), Some(0));
        });
        assert!(result.is_ok());
    }

    #[test]
    fn other_panics_pass_through() {
        let caught = catch_unwind(|| within(|| resume_unwind(Box::new("boom"))));
        let payload = caught.expect_err("the panic reached the caller");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"boom"));
        assert_eq!(elements_left(), None);
    }
}
