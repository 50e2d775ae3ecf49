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

use super::At;
use super::text::position_of;
use super::workspace::Composition;
use fnhcl::analysis::resolve::{Resolution, ScopeKind, Site, Target};
use fnhcl::check::config::Example;
use fnhcl::diagnostics::{Diagnostic, Severity};
use fnhcl::eval::expr::{VarRef, traverse_reference, unknown_references};
use fnhcl::eval::program::{self, Discard, Failure, HclResponse, Trace};
use fnhcl::eval::proto::{Resource, RunFunctionRequest, State};
use fnhcl::eval::scope::Scope;
use fnhcl::eval::{Value, json};
use fnhcl::source::{FileId, SourceMap, Span};
use fnhcl::syntax::ast::{Step, TextRange};
use fnhcl::syntax::model::{
    Child, Collection, FileExpr, Group, GroupBody, Program, Resource as Block,
};
use lsp_types::{
    CodeLens, Command, InlayHint, InlayHintLabel, InlayHintTooltip, MarkupContent, MarkupKind,
};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long one evaluation may take before the server gives up on it.
const EVALUATION_TIME: Duration = Duration::from_secs(2);
/// How many lines of a value a hover shows.
const MAX_VALUE_LINES: usize = 30;
/// How many lines of each member's value a hover shows.
const MAX_MEMBER_LINES: usize = 8;
/// How many members' values a hover shows.
const MAX_MEMBERS: usize = 4;
/// How long a hint's or lens's title may be.
const MAX_TITLE: usize = 90;

/// The composition evaluated for its example (what the workspace keeps per folder).
pub(super) struct Evaluation {
    /// The program, parsed from the texts evaluated.
    program: Program,
    /// Why nothing was evaluated: the example's files cannot be used, or the evaluation took
    /// too long.
    problem: Option<String>,
    /// What the last evaluation saw (`None`: it stopped before any block).
    trace: Option<Trace>,
    /// Why the render fails, when it does.
    failure: Option<Fatal>,
}

/// A failed render.
struct Fatal {
    /// The first error, `summary; detail`.
    short: String,
    /// function-hcl's whole message (`file:range: summary; detail`, and the others).
    full: String,
}

/// The evaluation of the request's composition for its folder's example; `None` without an
/// `[example]` (or when its `case` tests another composition).
fn evaluation(at: &At) -> Option<Arc<Evaluation>> {
    let settings = at.ws.settings(&at.comp.dir);
    let example = settings.config.example.as_ref()?;
    if !applies(example, &at.comp.dir) {
        return None;
    }
    let base = settings
        .config
        .path
        .as_deref()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let key = key(&at.comp, example);
    Some(
        at.ws
            .live(&at.comp.dir, key, || evaluate(&at.comp, example, &base)),
    )
}

/// Whether the example is for the composition of `dir`: a `case` is for the composition it
/// tests (as `fnhcl test` finds it); files given one by one are for every composition.
fn applies(example: &Example, dir: &Path) -> bool {
    let Some(case) = &example.case else {
        return true;
    };
    // A `source` may name a file of the composition: its folder is the composition.
    let tested = fnhcl::golden::source_of(case).ok().and_then(|source| {
        if source.is_dir() {
            Some(source)
        } else {
            source.parent().map(Path::to_path_buf)
        }
    });
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    };
    tested.is_some_and(|t| same(&t, dir))
}

/// The inputs an evaluation depends on: the composition's texts and the example files' sizes
/// and modification times.
fn key(comp: &Composition, example: &Example) -> u64 {
    let mut h = DefaultHasher::new();
    for f in &comp.files {
        f.name.hash(&mut h);
        comp.text(f.file).hash(&mut h);
    }
    let mut stamp = |path: &Path| {
        path.hash(&mut h);
        if let Ok(meta) = std::fs::metadata(path) {
            (meta.len(), meta.modified().ok(), meta.is_dir()).hash(&mut h);
            if meta.is_dir()
                && let Ok(entries) = std::fs::read_dir(path)
            {
                let mut inside: Vec<_> = entries
                    .flatten()
                    .filter_map(|e| Some((e.path(), e.metadata().ok()?)))
                    .map(|(p, m)| (p, m.len(), m.modified().ok()))
                    .collect();
                inside.sort();
                inside.hash(&mut h);
            }
        }
    };
    stamp(&example.xr);
    for path in [
        &example.observed,
        &example.extra_resources,
        &example.context,
    ]
    .into_iter()
    .flatten()
    {
        stamp(path);
    }
    h.finish()
}

/// The request the example describes, and the extra resources Crossplane would fetch from.
struct Inputs {
    request: RunFunctionRequest,
    extra: Vec<Json>,
}

/// Evaluates the composition for the example (`base`: the configuration's folder, for
/// messages).
fn evaluate(comp: &Composition, example: &Example, base: &Path) -> Evaluation {
    let mut out = Evaluation {
        program: comp.program().clone(),
        problem: None,
        trace: None,
        failure: None,
    };
    let inputs = match read_inputs(example, base) {
        Ok(inputs) => inputs,
        Err(problem) => {
            out.problem = Some(problem);
            return out;
        }
    };
    let files: Vec<FileId> = comp.files.iter().map(|f| f.file).collect();
    let mut map = (*comp.map).clone();
    let deadline = Instant::now() + EVALUATION_TIME;
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        fnhcl::eval::deadline::within(Some(deadline), || {
            fnhcl::eval::budget::within(|| settle(&mut map, &files, inputs))
        })
    }));
    let (result, trace) = match run {
        Ok(Ok(done)) => done,
        Ok(Err(_)) => {
            out.problem = Some(format!(
                "the evaluation took longer than {} s",
                EVALUATION_TIME.as_secs()
            ));
            return out;
        }
        Err(_) => {
            out.problem = Some("the evaluation stopped on an internal error".into());
            return out;
        }
    };
    out.trace = trace;
    if let Err(failure) = result {
        let short = match &failure {
            Failure::Diagnostics(diags) => diags
                .iter()
                .find(|d| d.severity == Severity::Error)
                .or(diags.first())
                .map(Diagnostic::message)
                .unwrap_or_default(),
            Failure::Message(text) => text.clone(),
        };
        out.failure = Some(Fatal {
            short,
            full: failure.message(&map),
        });
    }
    out
}

/// Evaluates until the composition's requirements settle, as `render` calls a step: each
/// round gets the extra resources the previous one asked for, and the context it returned.
fn settle(
    map: &mut SourceMap,
    files: &[FileId],
    inputs: Inputs,
) -> (Result<HclResponse, Failure>, Option<Trace>) {
    let mut request = inputs.request;
    let mut previous = None;
    let mut round = 0;
    loop {
        let (result, trace) = program::evaluate_traced(map, files, &request);
        round += 1;
        let Ok(evaluation) = &result else {
            return (result, trace);
        };
        let requirements = evaluation.response.requirements.clone();
        if requirements == previous || round > fnhcl::render::MAX_REQUIREMENTS_ITERATIONS {
            return (result, trace);
        }
        request.extra_resources = requirements
            .iter()
            .flat_map(|r| r.extra_resources.iter())
            .map(|(name, selector)| (name.clone(), fnhcl::render::fetch(selector, &inputs.extra)))
            .collect();
        if let Some(Json::Object(theirs)) = &evaluation.response.context {
            let mut context = match request.context.take() {
                Some(Json::Object(mine)) => mine,
                _ => serde_json::Map::new(),
            };
            for (key, value) in theirs {
                context.insert(key.clone(), value.clone());
            }
            request.context = Some(Json::Object(context));
        }
        previous = requirements;
    }
}

/// Reads the example's files into a request, as `fnhcl test` passes them to `render`.
fn read_inputs(example: &Example, base: &Path) -> Result<Inputs, String> {
    let shown = |path: &Path| {
        path.strip_prefix(base)
            .unwrap_or(path)
            .display()
            .to_string()
    };
    // In a case folder every file but xr.yaml is optional.
    let optional = |path: &Option<PathBuf>| -> Option<PathBuf> {
        let path = path.clone()?;
        (example.case.is_none() || path.exists()).then_some(path)
    };
    let xr = match documents(&example.xr, &shown)?.into_iter().next() {
        Some(doc) if doc.is_object() => fnhcl::eval::vars::into_float64(doc),
        _ => {
            return Err(format!(
                "the example XR `{}` holds no YAML object",
                shown(&example.xr)
            ));
        }
    };
    let mut resources = BTreeMap::new();
    if let Some(path) = optional(&example.observed) {
        for doc in objects(&path, &shown, "observed resources")? {
            let name = fnhcl::render::composition_resource_name(&doc).to_string();
            resources.insert(name, Resource::of(fnhcl::eval::vars::into_float64(doc)));
        }
    }
    let extra = match optional(&example.extra_resources) {
        Some(path) => objects(&path, &shown, "extra resources")?
            .into_iter()
            .map(fnhcl::eval::vars::into_float64)
            .collect(),
        None => Vec::new(),
    };
    let context = match optional(&example.context) {
        Some(path) => match documents(&path, &shown)?.into_iter().next() {
            None | Some(Json::Null) => serde_json::Map::new(),
            Some(Json::Object(map)) => map,
            Some(_) => {
                return Err(format!(
                    "the example context `{}` must be a mapping of context keys to values",
                    shown(&path)
                ));
            }
        },
        None => serde_json::Map::new(),
    };
    Ok(Inputs {
        request: RunFunctionRequest {
            observed: State {
                composite: Some(Resource::of(xr)),
                resources,
            },
            context: Some(Json::Object(context)),
            ..RunFunctionRequest::default()
        },
        extra,
    })
}

/// The documents of a YAML file (or a folder of them).
fn documents(path: &Path, shown: &dyn Fn(&Path) -> String) -> Result<Vec<Json>, String> {
    use fnhcl::source::loader::{LoadError, load_yaml_stream};
    let mut map = SourceMap::new();
    match load_yaml_stream(&mut map, path) {
        Ok(docs) => Ok(docs
            .into_iter()
            .map(|d| serde_json::to_value(&d.document.value).unwrap_or(Json::Null))
            .collect()),
        Err(LoadError::Yaml { file, error }) => {
            let line = map.get(file).line_col(error.offset).line;
            Err(format!(
                "`{}` is not valid YAML (line {line}): {}",
                shown(Path::new(map.get(file).name())),
                error.message
            ))
        }
        Err(LoadError::Io { source, .. }) => Err(format!(
            "cannot read `{}`: {}",
            shown(path),
            fnhcl::source::loader::io_text(&source)
        )),
        Err(e) => Err(format!("cannot read `{}`: {e}", shown(path))),
    }
}

/// The documents of a file of Kubernetes objects: each must be a mapping.
fn objects(path: &Path, shown: &dyn Fn(&Path) -> String, what: &str) -> Result<Vec<Json>, String> {
    let docs = documents(path, shown)?;
    if docs.iter().any(|d| !d.is_object()) {
        return Err(format!(
            "a document of the example's {what} `{}` is not a Kubernetes object",
            shown(path)
        ));
    }
    Ok(docs)
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
    fn origin(&self) -> &fnhcl::syntax::model::Origin {
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

/// LSP positions of byte offsets in one text (offsets looked up in their line only).
struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str) -> Lines<'t> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    fn position(&self, offset: usize) -> lsp_types::Position {
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts[line];
        let mut position = position_of(&self.text[start..], offset - start);
        position.line = line as u32;
        position
    }
}

/// One hint per resource block of the file in `range`.
pub(super) fn inlay_hints(at: &At, range: lsp_types::Range) -> Vec<lsp_types::InlayHint> {
    let lines = Lines::new(at.text());
    entries(at)
        .into_iter()
        .filter_map(|e| {
            let position = lines.position(e.end);
            if position < range.start || position > range.end {
                return None;
            }
            Some(InlayHint {
                position,
                label: InlayHintLabel::String(title(&e.outcome.title)),
                kind: None,
                text_edits: None,
                tooltip: tooltip(&e.outcome),
                padding_left: Some(true),
                padding_right: None,
                data: None,
            })
        })
        .collect()
}

fn tooltip(outcome: &Outcome) -> Option<InlayHintTooltip> {
    let long = outcome.title.chars().count() > MAX_TITLE || outcome.title.contains('\n');
    let mut parts = Vec::new();
    if long {
        parts.push(outcome.title.clone());
    }
    if !outcome.detail.is_empty() {
        parts.push(outcome.detail.clone());
    }
    (!parts.is_empty()).then(|| {
        InlayHintTooltip::MarkupContent(MarkupContent {
            kind: MarkupKind::Markdown,
            value: parts.join("\n\n"),
        })
    })
}

/// One lens per resource block of the file.
pub(super) fn code_lenses(at: &At) -> Vec<lsp_types::CodeLens> {
    let lines = Lines::new(at.text());
    entries(at)
        .into_iter()
        .map(|e| CodeLens {
            range: lsp_types::Range {
                start: lines.position(e.start),
                end: lines.position(e.end),
            },
            command: Some(Command {
                title: title(&e.outcome.title),
                command: String::new(),
                arguments: None,
            }),
            data: None,
        })
        .collect()
}

// --- Hover ---------------------------------------------------------------------------------

/// The value (or inferred type) of what is under the cursor, as Markdown.
pub(super) fn hover(at: &At) -> Option<String> {
    let live = evaluation(at)?;
    let program = &live.program;
    let resolution = Resolution::of(&program.top, &program.functions);
    let offset = at.offset as u32;
    let covers =
        |file: FileId, r: &TextRange| file == at.file && r.start <= offset && offset <= r.end;
    // A local's name where it is defined.
    if let Some((id, b)) = resolution
        .bindings
        .iter()
        .enumerate()
        .find(|(_, b)| covers(b.name_span.file, &(b.name_span.start..b.name_span.end)))
    {
        if in_function(&resolution, b.scope) {
            return None;
        }
        if let Some(nothing) = no_values(&live) {
            return Some(nothing);
        }
        let trace = live.trace.as_ref()?;
        let seen: Vec<(Option<String>, Result<Value, String>)> = trace
            .locals
            .iter()
            .filter(|l| l.name_span == b.name_span)
            .map(|l| (l.instance.clone(), Ok(l.value.clone())))
            .collect();
        let why = |instance: &Option<String>| why_local(&live, &resolution, id, instance, 0);
        return Some(show(b.name, &seen, &why));
    }
    // A reference: the part of the traversal up to the cursor.
    let u = resolution
        .uses
        .iter()
        .find(|u| covers(u.file, u.var.span))?;
    let var = &u.var;
    let steps = if covers(u.file, var.root_span) {
        0
    } else {
        var.steps
            .iter()
            .position(|s| covers(u.file, &step_span(s)))
            .map_or(var.steps.len(), |i| i + 1)
    };
    let end = match steps {
        0 => var.root_span.end,
        n => step_span(&var.steps[n - 1]).end,
    };
    let shown = &at.text()[var.root_span.start as usize..end as usize];
    let site = resolution
        .exprs
        .iter()
        .filter(|e| {
            e.expr.file == u.file && {
                let r = &e.expr.expr.span;
                r.start <= var.span.start && var.span.end <= r.end
            }
        })
        .min_by_key(|e| e.expr.expr.span.end - e.expr.expr.span.start)?;
    if in_function(&resolution, site.scope) || u.target == Target::Undefined {
        return None;
    }
    if let Some(nothing) = no_values(&live) {
        return Some(nothing);
    }
    let trace = live.trace.as_ref()?;
    let reference = VarRef {
        root: var.root,
        root_span: var.root_span,
        steps: &var.steps[..steps],
        span: var.span,
    };
    let walk = |variables: BTreeMap<String, Value>| -> Result<Value, String> {
        let scope = Scope {
            variables,
            ..Scope::default()
        };
        let (value, diags) = traverse_reference(&reference, u.file, &scope);
        match diags.iter().find(|d| d.severity == Severity::Error) {
            Some(error) => Err(error.message()),
            None => Ok(value),
        }
    };
    let span = expr_span(site.expr);
    let mut seen: Vec<(Option<String>, Result<Value, String>)> = trace
        .exprs
        .iter()
        .filter(|e| e.span == span && e.variables.contains_key(var.root))
        .map(|e| (e.instance.clone(), walk(e.variables.clone())))
        .collect();
    // An expression never evaluated: a local it reads may still have a value.
    if seen.is_empty()
        && let Target::Binding(id) = u.target
        && let Some(b) = resolution.bindings.get(id)
    {
        seen = trace
            .locals
            .iter()
            .filter(|l| l.name_span == b.name_span)
            .map(|l| {
                let mut variables = BTreeMap::new();
                variables.insert(var.root.to_string(), l.value.clone());
                (l.instance.clone(), walk(variables))
            })
            .collect();
    }
    if seen.is_empty() {
        return Some(
            "**Example value**: not evaluated for the example (its block did not run; see the block's hint)"
                .to_string(),
        );
    }
    let why = |instance: &Option<String>| match u.target {
        Target::Binding(id) => why_local(&live, &resolution, id, instance, 0),
        _ => None,
    };
    let mut text = show(shown, &seen, &why);
    if let Some(note) = unobserved(var, steps, &seen) {
        text.push_str(&note);
    }
    Some(text)
}

/// A step's range.
fn step_span(step: &Step) -> TextRange {
    match step {
        Step::Attr { span, .. } | Step::Index { span, .. } => span.clone(),
    }
}

/// Whether a scope is a user function's (evaluated per `invoke`, never traced).
fn in_function(resolution: &Resolution, scope: usize) -> bool {
    resolution.chain(scope).any(|s| {
        matches!(
            resolution.scopes[s].kind,
            ScopeKind::Function | ScopeKind::Constant
        )
    })
}

/// Why a hover has no value when nothing was evaluated.
fn no_values(live: &Evaluation) -> Option<String> {
    match (&live.problem, &live.trace, &live.failure) {
        (Some(problem), _, _) => Some(format!(
            "**Example value**: none, the example cannot be used: {problem}"
        )),
        (None, None, Some(fatal)) => Some(format!(
            "**Example value**: none, the composition was not evaluated: {}",
            fatal.short
        )),
        _ => None,
    }
}

/// Why `req.resource.NAME…` / `req.connection.NAME…` has no value: the resource is not
/// observed in the example.
fn unobserved(
    var: &VarRef,
    steps: usize,
    seen: &[(Option<String>, Result<Value, String>)],
) -> Option<String> {
    if var.root != "req" || !seen.iter().any(|(_, v)| v.is_err()) {
        return None;
    }
    let names: Vec<&str> = var.steps[..steps]
        .iter()
        .filter_map(fnhcl::analysis::references::step_name)
        .collect();
    match names.as_slice() {
        [collection @ ("resource" | "connection"), name, ..] => Some(format!(
            "\n\n`{name}` is not observed in the example (`req.{collection}` has no `{name}`): function-hcl defers the blocks that read it"
        )),
        [collection @ ("resources" | "connections"), name, ..] => Some(format!(
            "\n\nno member of `{name}` is observed in the example (`req.{collection}` has no `{name}`)"
        )),
        ["extra_resources", name, ..] => Some(format!(
            "\n\nthe example has no extra resources for the requirement `{name}`"
        )),
        _ => None,
    }
}

/// The values of one name or traversal, per evaluation, as Markdown.
fn show(
    shown: &str,
    seen: &[(Option<String>, Result<Value, String>)],
    why: &dyn Fn(&Option<String>) -> Option<String>,
) -> String {
    let one = |instance: &Option<String>, value: &Result<Value, String>, lines: usize| match value {
        Err(error) => format!("no value: {error}"),
        Ok(value) => {
            let mut out = fenced_hcl(value, lines);
            if !value.is_wholly_known() {
                let reason = why(instance)
                    .unwrap_or_else(|| "it depends on values that are not known yet".to_string());
                out.push_str(&format!("\nnot known yet: {reason}"));
            }
            out
        }
    };
    match seen {
        [] => format!("**Example value** of `{shown}`: not evaluated for the example"),
        [(instance, value)] => format!(
            "**Example value** of `{shown}`{}:\n{}",
            instance
                .as_ref()
                .map(|i| format!(" (`{i}`)"))
                .unwrap_or_default(),
            one(instance, value, MAX_VALUE_LINES)
        ),
        many if many.iter().all(|(_, v)| {
            same_result(v, &many[0].1) && v.as_ref().is_ok_and(Value::is_wholly_known)
        }) =>
        {
            format!(
                "**Example value** of `{shown}` (the same in its {} evaluations):\n{}",
                many.len(),
                one(&many[0].0, &many[0].1, MAX_VALUE_LINES)
            )
        }
        many => {
            let mut out = format!(
                "**Example values** of `{shown}` ({} evaluations):",
                many.len()
            );
            for (instance, value) in many.iter().take(MAX_MEMBERS) {
                let name = instance.as_deref().unwrap_or("?");
                out.push_str(&format!(
                    "\n\n`{name}`:\n{}",
                    one(instance, value, MAX_MEMBER_LINES)
                ));
            }
            if many.len() > MAX_MEMBERS {
                out.push_str(&format!("\n\n… and {} more", many.len() - MAX_MEMBERS));
            }
            out
        }
    }
}

/// Whether two results show the same.
fn same_result(a: &Result<Value, String>, b: &Result<Value, String>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => json::to_hcl(a) == json::to_hcl(b),
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

/// A value as HCL in a fenced block, cut after `lines` lines.
pub(super) fn fenced_hcl(value: &Value, lines: usize) -> String {
    let text = json::to_hcl(value);
    let total = text.lines().count();
    let mut kept: Vec<&str> = text.lines().take(lines).collect();
    if total > lines {
        kept.push("# …");
    }
    format!("```hcl\n{}\n```", kept.join("\n"))
}

/// Why a local is not (wholly) known in an evaluation: its own error, else the first local it
/// reads that is not known, and why.
fn why_local(
    live: &Evaluation,
    resolution: &Resolution,
    id: usize,
    instance: &Option<String>,
    depth: usize,
) -> Option<String> {
    let trace = live.trace.as_ref()?;
    let b = resolution.bindings.get(id)?;
    let all: Vec<&program::SeenLocal> = trace
        .locals
        .iter()
        .filter(|l| l.name_span == b.name_span)
        .collect();
    let local = *all
        .iter()
        .find(|l| l.instance == *instance)
        .or(all.first())?;
    if let Some(w) = local.warnings.first() {
        return Some(format!("`{}` fails: {}", b.name, w.message()));
    }
    let value = b.value?;
    let span = expr_span(value);
    let seen = trace
        .exprs
        .iter()
        .filter(|e| e.span == span)
        .find(|e| e.instance == local.instance)?;
    let scope = Scope {
        variables: seen.variables.clone(),
        ..Scope::default()
    };
    let unknown = unknown_references(&value.expr, &scope);
    if depth < 5 {
        for u in resolution.uses.iter().filter(|u| u.site == Site::Local(id)) {
            if let Target::Binding(other) = u.target
                && other != id
                && unknown
                    .iter()
                    .any(|t| t.split(['.', '[']).next() == Some(u.var.root))
                && let Some(why) = why_local(live, resolution, other, &local.instance, depth + 1)
            {
                return Some(why);
            }
        }
    }
    (!unknown.is_empty()).then(|| format!("`{}` reads {}", b.name, unknown.join(", ")))
}
