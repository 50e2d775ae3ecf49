//! What parts of a program an evaluation exercised, for `fnhcl test --lcov`: the blocks that
//! were rendered, each `condition`'s outcome, each conditional expression's arm and each user
//! function called. Recording never changes what the evaluation does or returns, and it costs
//! one read of a thread-local flag per event when nothing records.
//!
//! The record is per thread, as the deadline and the budget are: an evaluation runs on the
//! thread that asked for it, so parallel renders (one per `fnhcl test` case) each fill their
//! own. [`recording`] turns it on around a piece of work; the evaluator reports events with
//! [`block`], [`condition`], [`arm`] and [`call`].

use crate::source::{FileId, SourceMap, Span};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};

thread_local! {
    /// Whether [`RECORD`] is being filled: the only thing an event reads when nothing records.
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static RECORD: RefCell<Recording> = RefCell::new(Recording::default());
}

/// How a `condition` turned out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `true`: the block was processed.
    True = 0,
    /// `false`: the block was left out (a `user-condition` discard).
    False = 1,
    /// Not known yet, or failed softly: the block was discarded as incomplete.
    Incomplete = 2,
}

/// The events of one piece of work, by where they happened (byte offsets in the map's files).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recording {
    /// Blocks rendered (the start of their header).
    pub blocks: BTreeSet<(FileId, u32)>,
    /// Each `condition` expression (by its start): how often it was true, false, incomplete.
    pub conditions: BTreeMap<(FileId, u32), [u64; 3]>,
    /// Each conditional expression (by the start of its condition): how often the true arm and
    /// the false arm were chosen.
    pub arms: BTreeMap<(FileId, u32), [u64; 2]>,
    /// How often each user function was called.
    pub calls: BTreeMap<String, u64>,
}

/// Runs `work` with recording on and returns what it recorded. Recording already under way
/// (an enclosing call) is set aside and resumed afterwards, also when `work` unwinds.
pub fn recording<T>(work: impl FnOnce() -> T) -> (T, Recording) {
    /// Puts the enclosing state back however `work` ends.
    struct Restore(Option<(bool, Recording)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some((active, record)) = self.0.take() {
                ACTIVE.set(active);
                RECORD.set(record);
            }
        }
    }
    let restore = Restore(Some((ACTIVE.get(), RECORD.take())));
    ACTIVE.set(true);
    let value = work();
    let recorded = RECORD.take();
    drop(restore);
    (value, recorded)
}

/// Whether an event would be recorded.
#[inline]
fn active() -> bool {
    ACTIVE.get()
}

/// A block (by its header) was rendered.
#[inline]
pub fn block(header: Span) {
    if active() {
        RECORD.with_borrow_mut(|r| r.blocks.insert((header.file, header.start)));
    }
}

/// A `condition` expression was evaluated to `outcome`.
#[inline]
pub fn condition(expr: Span, outcome: Outcome) {
    if active() {
        RECORD.with_borrow_mut(|r| {
            r.conditions.entry((expr.file, expr.start)).or_default()[outcome as usize] += 1;
        });
    }
}

/// A conditional expression whose condition starts at `at` chose its true arm (`true`) or its
/// false arm.
#[inline]
pub fn arm(file: FileId, at: u32, chose_true: bool) {
    if active() {
        RECORD.with_borrow_mut(|r| {
            r.arms.entry((file, at)).or_default()[usize::from(!chose_true)] += 1;
        });
    }
}

/// The user function `name` was called.
#[inline]
pub fn call(name: &str) {
    if active() {
        RECORD.with_borrow_mut(|r| match r.calls.get_mut(name) {
            Some(n) => *n += 1,
            None => {
                r.calls.insert(name.to_string(), 1);
            }
        });
    }
}

/// One file of a covered program: the name diagnostics print (the path as the user gave it)
/// and its text.
#[derive(Clone, Debug, PartialEq)]
pub struct CoveredFile {
    /// The path (or a txtar member's name).
    pub path: String,
    /// The text, from which the totals (what could have been covered) are computed.
    pub text: String,
}

/// One evaluation's coverage of one program, by file index and byte offset: what a render
/// hands on for each function-hcl call it keeps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RenderCoverage {
    /// The program's files, in bundle order.
    pub files: Vec<CoveredFile>,
    /// Blocks rendered: (file index, header start).
    pub blocks: BTreeSet<(usize, u32)>,
    /// `condition` outcomes: (file index, expression start) → true, false, incomplete.
    pub conditions: BTreeMap<(usize, u32), [u64; 3]>,
    /// Conditional expressions: (file index, condition start) → true arm, false arm.
    pub arms: BTreeMap<(usize, u32), [u64; 2]>,
    /// User function calls by name.
    pub calls: BTreeMap<String, u64>,
}

impl RenderCoverage {
    /// A recording made over the program `files` of `map`; events in other files (the
    /// evaluator's own pseudo-files) are left out.
    pub fn of(recording: Recording, map: &SourceMap, files: &[FileId]) -> RenderCoverage {
        let index = |file: FileId| files.iter().position(|f| *f == file);
        let rekey = |(file, at): (FileId, u32)| index(file).map(|i| (i, at));
        RenderCoverage {
            files: files
                .iter()
                .map(|&f| CoveredFile {
                    path: map.get(f).display_name().to_string(),
                    text: map.get(f).text().to_string(),
                })
                .collect(),
            blocks: recording.blocks.into_iter().filter_map(rekey).collect(),
            conditions: recording
                .conditions
                .into_iter()
                .filter_map(|(k, v)| rekey(k).map(|k| (k, v)))
                .collect(),
            arms: recording
                .arms
                .into_iter()
                .filter_map(|(k, v)| rekey(k).map(|k| (k, v)))
                .collect(),
            calls: recording.calls,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_recorded_outside_recording() {
        let file = FileId::first();
        block(Span::new(file, 0..1));
        let ((), inner) = recording(|| {
            block(Span::new(file, 3..4));
            call("f");
            call("f");
            arm(file, 7, false);
            condition(Span::new(file, 9..10), Outcome::Incomplete);
        });
        assert_eq!(inner.blocks.iter().collect::<Vec<_>>(), [&(file, 3)]);
        assert_eq!(inner.calls["f"], 2);
        assert_eq!(inner.arms[&(file, 7)], [0, 1]);
        assert_eq!(inner.conditions[&(file, 9)], [0, 0, 1]);
        assert!(!active());
        let ((), after) = recording(|| {});
        assert_eq!(after, Recording::default());
    }

    #[test]
    fn an_unwind_ends_recording() {
        let file = FileId::first();
        let unwound = std::panic::catch_unwind(|| {
            recording(|| {
                block(Span::new(file, 1..2));
                std::panic::resume_unwind(Box::new(()));
            })
        });
        assert!(unwound.is_err());
        assert!(!active());
        let ((), fresh) = recording(|| {});
        assert!(fresh.blocks.is_empty());
    }

    #[test]
    fn recording_changes_nothing_and_sees_what_ran() {
        use crate::eval::program::evaluate;
        use crate::eval::proto::RunFunctionRequest;
        let text = "function f {\n  arg x {}\n  body = x ? \"y\" : \"n\"\n}\n\
                    resource on {\n  condition = true\n  body = { v = invoke(\"f\", { x = true }) }\n}\n\
                    resource off {\n  condition = false\n  body = {}\n}\n\
                    resource later {\n  condition = req.composite.spec.missing\n  body = {}\n}\n\
                    group {\n  condition = false\n  resource inner {\n    body = {}\n  }\n}\n";
        let mut map = SourceMap::new();
        let file = map.add("main.hcl", text);
        let request: RunFunctionRequest = serde_json::from_value(serde_json::json!({
            "observed": {"composite": {"resource": {"spec": {}}}}
        }))
        .unwrap();
        let plain = evaluate(&mut map.clone(), &[file], &request).unwrap();
        let (recorded, seen) = recording(|| evaluate(&mut map, &[file], &request));
        let recorded = recorded.unwrap();
        assert_eq!(plain.response, recorded.response);
        assert_eq!(plain.discards, recorded.discards);
        let at = |needle: &str| (file, text.find(needle).unwrap() as u32);
        assert_eq!(seen.blocks.iter().collect::<Vec<_>>(), [&at("resource on")]);
        assert_eq!(seen.conditions[&at("true\n  body = { v")], [1, 0, 0]);
        assert_eq!(seen.conditions[&at("false\n  body = {}")], [0, 1, 0]);
        assert_eq!(seen.conditions[&at("req.composite")], [0, 0, 1]);
        assert_eq!(seen.conditions[&at("false\n  resource inner")], [0, 1, 0]);
        assert_eq!(seen.arms[&at("x ? ")], [1, 0]);
        assert_eq!(seen.calls["f"], 1);
    }
}
