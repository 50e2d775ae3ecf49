//! Live values: with an example XR configured in `.fnhcl.toml`, the composition is evaluated
//! for it; hover shows a local's or expression's value and each resource block gets an inlay
//! hint and a code lens saying whether it renders, is discarded (and why) or fails.
//!
//! `[example]` gives the inputs of a `fnhcl test` case (`case = "FOLDER"`, or `xr`,
//! `observed`, `extra-resources`, `context` one by one). The composition is evaluated as
//! `render` evaluates a function-hcl step — the requirements loop included, extra resources
//! matched against the composition's requirements — once per version of its files and of the
//! example's files (the workspace keeps the last evaluation of each folder). The evaluator's
//! trace ([`Trace`]) says what each expression read and what each local became, which
//! resources were produced and which blocks were discarded; a block's outcome and a hovered
//! value are read from it.

mod values;

pub use values::{fenced_hcl, hover};

use super::At;
use super::example::{self, Evaluation};
use super::types::BlockNote;
use crate::diagnostics::{Diagnostic, Severity};
use crate::eval::program::{Discard, Trace};
use crate::source::{SourceMap, Span};
use crate::syntax::model::{Child, Collection, FileExpr, Group, GroupBody, Resource as Block};
use std::path::Path;
use std::sync::Arc;

/// How many lines of a value a hover shows.
const MAX_VALUE_LINES: usize = 30;
/// How many lines of each member's value a hover shows.
const MAX_MEMBER_LINES: usize = 8;
/// How many members' values a hover shows.
const MAX_MEMBERS: usize = 4;
/// How long a hint's or lens's title may be.
const MAX_TITLE: usize = 90;

/// The evaluation of the request's composition for its folder's example; `None` without an
/// `[example]` (or when its `case` tests another composition).
fn evaluation(at: &At) -> Option<Arc<Evaluation>> {
    let settings = at.ws.settings(&at.comp.dir);
    let example = settings.config.example.as_ref()?;
    if !example::applies(example, &at.comp.dir) {
        return None;
    }
    let base = settings
        .config
        .path
        .as_deref()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let key = example::key(&at.comp.map, &at.comp.files, example);
    Some(at.ws.live(&at.comp.dir, key, || {
        example::evaluate(
            at.comp.program(),
            &at.comp.map,
            &at.comp.files,
            example,
            &base,
            &at.comp.dir,
        )
    }))
}

// --- Outcomes of resource blocks -----------------------------------------------------------

/// A `resource` block or a `resources` collection, with its enclosing groups.
struct Found<'p> {
    block: BlockRef<'p>,
    groups: Vec<&'p Group>,
}

#[derive(Clone, Copy)]
enum BlockRef<'p> {
    Resource(&'p Block),
    Collection(&'p Collection),
}

impl BlockRef<'_> {
    fn origin(&self) -> &crate::syntax::model::Origin {
        match self {
            BlockRef::Resource(r) => &r.origin,
            BlockRef::Collection(c) => &c.origin,
        }
    }

    fn span(&self) -> Span {
        let origin = self.origin();
        Span::of(origin.file, &origin.span)
    }
}

/// Every resource block and collection of a body, groups included, in source order.
fn blocks<'p>(body: &'p GroupBody, groups: &mut Vec<&'p Group>, out: &mut Vec<Found<'p>>) {
    for child in &body.children {
        let block = match child {
            Child::Resource(r) => BlockRef::Resource(r),
            Child::Resources(c) => BlockRef::Collection(c),
            Child::Group(g) => {
                groups.push(g);
                blocks(&g.body, groups, out);
                groups.pop();
                continue;
            }
            _ => continue,
        };
        out.push(Found {
            block,
            groups: groups.clone(),
        });
    }
}

/// What a hint or lens says, and its tooltip (Markdown).
struct Outcome {
    title: String,
    detail: String,
}

impl Outcome {
    fn new(title: impl Into<String>, detail: impl Into<String>) -> Outcome {
        Outcome {
            title: title.into(),
            detail: detail.into(),
        }
    }
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.file == inner.file && outer.start <= inner.start && inner.end <= outer.end
}

/// `name = value`'s whole range (where a condition's discard is).
fn attribute_span(e: &FileExpr) -> Span {
    Span::of(e.file, &(e.name_span.start..e.expr.span.end))
}

fn expr_span(e: &FileExpr) -> Span {
    Span::of(e.file, &e.expr.span)
}

/// A block's outcome for the example.
fn outcome(live: &Evaluation, found: &Found, map: &SourceMap) -> Outcome {
    let Some(trace) = &live.trace else {
        let why = live
            .failure
            .as_ref()
            .map(|f| f.short.clone())
            .unwrap_or_default();
        return Outcome::new(
            format!("not evaluated: {why}"),
            live.failure
                .as_ref()
                .map(|f| fenced(&f.full))
                .unwrap_or_default(),
        );
    };
    let span = found.block.span();
    if let (Some(failed), Some(fatal)) = (trace.failed, &live.failure)
        && contains(span, failed)
    {
        return Outcome::new(format!("fails: {}", fatal.short), fenced(&fatal.full));
    }
    for group in &found.groups {
        let Some(condition) = &group.body.condition else {
            continue;
        };
        let at = attribute_span(condition);
        if let Some(d) = trace
            .discards
            .iter()
            .find(|d| d.kind == "group" && d.span == Some(at))
        {
            return condition_outcome(d, "group condition", trace);
        }
    }
    let outcome = match found.block {
        BlockRef::Resource(r) => resource_outcome(r, trace),
        BlockRef::Collection(c) => collection_outcome(c, trace),
    };
    outcome.unwrap_or_else(|| not_evaluated(live, trace, map))
}

fn not_evaluated(live: &Evaluation, trace: &Trace, map: &SourceMap) -> Outcome {
    match (trace.failed, &live.failure) {
        (Some(failed), Some(fatal)) => {
            let file = map.get(failed.file);
            let line = file.line_col(failed.start as usize).line;
            Outcome::new(
                format!(
                    "not evaluated: the render stopped at {}:{line}",
                    file.name()
                ),
                fenced(&fatal.full),
            )
        }
        (None, Some(fatal)) => Outcome::new(
            format!("not evaluated: the render fails: {}", fatal.short),
            fenced(&fatal.full),
        ),
        _ => Outcome::new("not evaluated", ""),
    }
}

/// A discarded condition (`what`: "condition", "group condition").
fn condition_outcome(d: &Discard, what: &str, trace: &Trace) -> Outcome {
    if d.reason == "user-condition" {
        return Outcome::new(format!("discarded: {what} is false"), "");
    }
    let why = d
        .span
        .and_then(|at| warning_in(trace, at))
        .map(|w| format!(" ({})", w.message()))
        .unwrap_or_default();
    Outcome::new(
        format!("discarded: {what} is not known yet{why}"),
        fenced(&d.message()),
    )
}

/// The first downgraded error inside `at`.
fn warning_in(trace: &Trace, at: Span) -> Option<&Diagnostic> {
    trace.diagnostics.iter().find(|d| {
        d.severity == Severity::Warning && d.primary.as_ref().is_some_and(|p| contains(at, p.span))
    })
}

/// Why a body was discarded: what is not known yet, or (nothing unknown) its error.
fn body_reason(d: &Discard, trace: &Trace) -> (bool, String) {
    let unknown: Vec<&str> = d
        .context
        .last()
        .and_then(|l| l.strip_prefix("unknown values: "))
        .map(|l| l.split(", ").filter(|s| !s.is_empty()).collect())
        .unwrap_or_default();
    if unknown.is_empty() {
        let error = d
            .span
            .and_then(|at| warning_in(trace, at))
            .map(Diagnostic::message)
            .or_else(|| d.context.first().cloned())
            .unwrap_or_else(|| "the body cannot be evaluated".into());
        return (true, error);
    }
    let shown: Vec<String> = unknown.iter().take(2).map(|u| format!("`{u}`")).collect();
    let text = match unknown.len() {
        1 => format!("{} is not known yet", shown[0]),
        2 => format!("{} are not known yet", shown.join(", ")),
        n => format!("{} and {} more are not known yet", shown.join(", "), n - 2),
    };
    (false, text.replace('`', ""))
}

/// Why the locals among a discard's unknown values failed (for the tooltip).
fn unknown_locals(d: &Discard, trace: &Trace) -> String {
    let Some(list) = d
        .context
        .last()
        .and_then(|l| l.strip_prefix("unknown values: "))
    else {
        return String::new();
    };
    let mut out = Vec::new();
    for unknown in list.split(", ") {
        let root = unknown.split(['.', '[']).next().unwrap_or_default();
        if let Some(local) = trace
            .locals
            .iter()
            .find(|l| l.name == root && !l.warnings.is_empty())
            && !out
                .iter()
                .any(|o: &String| o.starts_with(&format!("- `{root}`")))
        {
            out.push(format!("- `{root}` fails: {}", local.warnings[0].message()));
        }
    }
    if out.is_empty() {
        return String::new();
    }
    format!("\n\n{}", out.join("\n"))
}

fn resource_outcome(r: &Block, trace: &Trace) -> Option<Outcome> {
    let name = &r.name.value;
    let body = expr_span(&r.body);
    if trace.desired.get(name) == Some(&body) {
        return Some(Outcome::new("renders", ""));
    }
    let span = Span::of(r.origin.file, &r.origin.span);
    let d = trace.discards.iter().find(|d| {
        d.kind == "resource" && d.name == *name && d.span.is_some_and(|s| contains(span, s))
    })?;
    if d.reason == "user-condition" || d.span != Some(body) {
        return Some(condition_outcome(d, "condition", trace));
    }
    let (fails, why) = body_reason(d, trace);
    let title = if fails {
        format!("fails: {why}")
    } else {
        format!("incomplete: {why}")
    };
    let detail = fenced(&d.message()) + &unknown_locals(d, trace);
    Some(Outcome::new(title, detail))
}

fn collection_outcome(c: &Collection, trace: &Trace) -> Option<Outcome> {
    let base = &c.name.value;
    if let Some(d) = trace
        .discards
        .iter()
        .find(|d| d.kind == "resources" && d.name == *base)
    {
        return Some(condition_outcome(d, "condition", trace));
    }
    let body = expr_span(&c.templates.first()?.body);
    let rendered: Vec<&String> = trace
        .desired
        .iter()
        .filter(|(_, s)| **s == body)
        .map(|(name, _)| name)
        .collect();
    let members: Vec<&Discard> = trace
        .discards
        .iter()
        .filter(|d| d.kind == "resource" && d.span == Some(body))
        .collect();
    if rendered.is_empty() && members.is_empty() {
        let evaluated = trace.exprs.iter().any(|e| e.span == expr_span(&c.for_each));
        return evaluated.then(|| Outcome::new("renders 0: for_each is empty", ""));
    }
    let mut lines: Vec<String> = rendered
        .iter()
        .map(|name| format!("- `{name}`: renders"))
        .collect();
    let (mut incomplete, mut failing) = (Vec::new(), Vec::new());
    for d in &members {
        let (fails, why) = body_reason(d, trace);
        let verb = if fails { "fails" } else { "incomplete" };
        lines.push(format!("- `{}`: {verb}: {why}", d.name));
        if fails {
            failing.push(why);
        } else {
            incomplete.push(why);
        }
    }
    let mut title = format!("renders {}", rendered.len());
    if let Some(first) = incomplete.first() {
        title.push_str(&format!(", {} incomplete: {first}", incomplete.len()));
    }
    if let Some(first) = failing.first() {
        title.push_str(&format!(", {} fail: {first}", failing.len()));
    }
    if lines.len() > 20 {
        let more = lines.len() - 20;
        lines.truncate(20);
        lines.push(format!("- … and {more} more"));
    }
    Some(Outcome::new(title, lines.join("\n")))
}

/// Text as a fenced block (for tooltips).
fn fenced(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    format!("```text\n{text}\n```")
}

/// A title cut to one line of [`MAX_TITLE`] characters.
fn title(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    if line.chars().count() <= MAX_TITLE && !text.contains('\n') {
        return line.to_string();
    }
    let cut: String = line.chars().take(MAX_TITLE - 1).collect();
    format!("{}…", cut.trim_end())
}

/// One hint or lens: where (the byte offsets of a header line's start and end) and what.
struct Entry {
    start: usize,
    end: usize,
    outcome: Outcome,
}

/// The start and end of the line holding `offset` (without trailing blanks).
fn line_around(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    (start, start + text[start..end].trim_end().len())
}

/// The hints and lenses of the request's file.
fn entries(at: &At) -> Vec<Entry> {
    let Some(live) = evaluation(at) else {
        return Vec::new();
    };
    let text = at.text();
    let mut found = Vec::new();
    blocks(&live.program.top, &mut Vec::new(), &mut found);
    found.retain(|f| f.block.origin().file == at.file);
    let header = |f: &Found| line_around(text, f.block.origin().header.start as usize);
    // Nothing evaluated: one entry, on the first block (or the first line).
    let nothing = match (&live.problem, &live.trace, &live.failure) {
        (Some(problem), _, _) => Some(Outcome::new(format!("no live values: {problem}"), "")),
        (None, None, Some(fatal)) => Some(Outcome::new(
            format!("not evaluated: {}", fatal.short),
            fenced(&fatal.full),
        )),
        _ => None,
    };
    if let Some(outcome) = nothing {
        let (start, end) = found.first().map_or_else(|| line_around(text, 0), header);
        return vec![Entry {
            start,
            end,
            outcome,
        }];
    }
    let mut out: Vec<Entry> = found
        .iter()
        .map(|f| {
            let (start, end) = header(f);
            Entry {
                start,
                end,
                outcome: outcome(&live, f, &at.comp.map),
            }
        })
        .collect();
    // A failure outside every resource block: on the block that failed (or the first line).
    if let Some(fatal) = &live.failure {
        let failed = live.trace.as_ref().and_then(|t| t.failed);
        let inside = |s: Span| found.iter().any(|f| contains(f.block.span(), s));
        let place = match failed {
            Some(s) if s.file == at.file && !inside(s) => Some(s.start as usize),
            // Otherwise every block of the file says why already.
            None if found.is_empty() && at.comp.files.first().map(|f| f.file) == Some(at.file) => {
                Some(0)
            }
            _ => None,
        };
        if let Some(offset) = place {
            let (start, end) = line_around(text, offset);
            out.push(Entry {
                start,
                end,
                outcome: Outcome::new(
                    format!("the render fails: {}", fatal.short),
                    fenced(&fatal.full),
                ),
            });
        }
    }
    out
}

/// The note on each resource block of the request's file (inlay hints and code lenses show
/// them).
pub fn block_notes(at: &At) -> Vec<BlockNote> {
    entries(at)
        .into_iter()
        .map(|e| BlockNote {
            start: e.start,
            end: e.end,
            title: title(&e.outcome.title),
            tooltip: tooltip(&e.outcome),
        })
        .collect()
}

fn tooltip(outcome: &Outcome) -> Option<String> {
    let long = outcome.title.chars().count() > MAX_TITLE || outcome.title.contains('\n');
    let mut parts = Vec::new();
    if long {
        parts.push(outcome.title.clone());
    }
    if !outcome.detail.is_empty() {
        parts.push(outcome.detail.clone());
    }
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}
