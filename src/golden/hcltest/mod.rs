//! HCL-native tests (`*.fnhcltest.hcl`): each `run` block is one case. Its inputs are
//! evaluated, the composition rendered (again and again with `until = "converged"`, or from
//! the previous run's output with `continue = true`), then its `assert` conditions are
//! evaluated over the output, or its `expect_failures` matched against the render's errors.
//!
//! Runs of one file are independent cases (they run in parallel, `--filter` picks any): a run
//! that continues renders the runs it continues from again first.

mod asserts;
mod expect;
mod scope;

use super::case::{Failure, Outcome, Runner};
use super::confine::Confinement;
use super::discover::{Case, HclRun, source_of};
use super::scenario::{self, Converged, Observe, next_observed, next_xr, split};
use crate::diagnostics::{Diagnostic, Severity};
use crate::eval::functions::{FunctionTable, builtins};
use crate::eval::json::to_json;
use crate::eval::program::UserFunctions;
use crate::eval::scope::Scope;
use crate::eval::value::Value;
use crate::eval::vars::into_float64;
use crate::grpc::remote::GrpcRemote;
use crate::render::inputs::{self, Request};
use crate::render::{Inputs, Options, StepKind, render_with};
use crate::source::{FileId, SourceMap};
use crate::syntax::ParsedFile;
use crate::syntax::testfile::{self, Run};
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How many renders `until = "converged"` does without `max_steps`.
pub const DEFAULT_MAX_STEPS: usize = 10;
/// The most renders `max_steps` may ask for.
pub const MAX_STEPS_LIMIT: usize = 100;

/// Runs one `run` of a test file.
pub fn run_case(case: &Case, hcl: &HclRun, runner: Runner<'_>) -> Outcome {
    match try_run(case, hcl, runner) {
        Ok(()) => Outcome::Passed,
        Err(why) => Outcome::Failed(Failure::Message(why)),
    }
}

/// What one test file evaluates with.
struct Ctx<'a> {
    runner: Runner<'a>,
    /// The test file in the map.
    file: FileId,
    /// The folder of the test file.
    dir: &'a Path,
    root: &'a Path,
}

/// Where a scenario stands after a run: its inputs and what it rendered.
#[derive(Clone, Debug, Default)]
struct State {
    source: PathBuf,
    xr: Json,
    observed: Vec<Json>,
    extra: Vec<Json>,
    context: Map<String, Json>,
    /// The output (`None`: the run did not render).
    documents: Option<Vec<Json>>,
    /// The files of the composition's first function-hcl step, as the render loaded them.
    files: Option<Vec<FileId>>,
    /// How many renders the run did (`until = "converged"`: until the output repeated).
    renders: usize,
}

fn try_run(case: &Case, hcl: &HclRun, runner: Runner<'_>) -> Result<(), String> {
    let confine = Confinement {
        root: &case.root,
        allow: runner.allow_outside_paths,
    };
    let name = hcl
        .file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = confine
        .case_file(&case.dir, &name)?
        .ok_or_else(|| format!("{} is gone", hcl.file.display()))?;
    let mut map = SourceMap::new();
    let shown = case.id.split("::").next().unwrap_or_default().to_string();
    let file = map.add(shown, text);
    let parsed = crate::syntax::parse_file(map.get(file));
    let model = testfile::build(&ParsedFile {
        file,
        body: parsed.body,
    });
    let errors: Vec<String> = parsed
        .diagnostics
        .iter()
        .chain(&model.problems)
        .filter(|d| d.severity == Severity::Error)
        .map(|d| scope::text(&map, d))
        .collect();
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    let Some(index) = model.runs.iter().position(|r| r.name == hcl.run) else {
        return Err(if hcl.run.is_empty() {
            "the file has no `run` block".into()
        } else {
            format!("the file has no run {:?} any more", hcl.run)
        });
    };
    let mut start = index;
    while start > 0 && continues(&map, file, &model.runs[start])? {
        start -= 1;
    }
    if continues(&map, file, &model.runs[start])? {
        let first = &model.runs[start];
        let offset = first
            .attribute("continue")
            .map_or(first.span.start, |a| a.span.start);
        return Err(at(
            &map,
            file,
            offset,
            &format!(
                "run {:?} continues from the run before it, but it is the first run of the file",
                first.name
            ),
        ));
    }
    let cx = Ctx {
        runner,
        file,
        dir: &case.dir,
        root: &case.root,
    };
    let mut state: Option<State> = None;
    for run in &model.runs[start..index] {
        let (next, error) = render_run(&mut map, &cx, run, state.as_ref())?;
        if let Some(error) = error {
            return Err(format!(
                "run {:?}, which this run continues from, failed to render:\n{}",
                run.name,
                texts(&map, &error)
            ));
        }
        state = Some(next);
    }
    let run = &model.runs[index];
    let (last, error) = render_run(&mut map, &cx, run, state.as_ref())?;
    let files = match &last.files {
        Some(files) => files.clone(),
        None => hcl_files(&mut map, &cx, &last.source)?,
    };
    if !run.expect_failures.is_empty() {
        return expect::check(&map, file, run, error.as_deref(), &files);
    }
    if let Some(error) = error {
        return Err(format!("the render failed:\n{}", texts(&map, &error)));
    }
    // `user` owns what `invoke` calls: it lives until the asserts are done.
    let (_user, functions) = composition_functions(&map, &cx, &files)?;
    asserts::check(
        &map,
        file,
        run,
        &functions,
        last.documents.as_deref(),
        last.renders,
    )
}

/// Whether `continue = true`.
fn continues(map: &SourceMap, file: FileId, run: &Run) -> Result<bool, String> {
    let Some(attr) = run.attribute("continue") else {
        return Ok(false);
    };
    let table = builtins();
    let root = Scope::root(&table);
    match scope::evaluate(map, file, &attr.expr, &root)? {
        Value::Bool(b) => Ok(b),
        _ => Err(at(
            map,
            file,
            attr.expr.span.start,
            "`continue` must be true or false",
        )),
    }
}

/// `FILE:LINE:COL: message`.
fn at(map: &SourceMap, file: FileId, offset: u32, message: &str) -> String {
    let f = map.get(file);
    let lc = f.line_col(offset as usize);
    format!("{}:{}:{}: {message}", f.display_name(), lc.line, lc.column)
}

/// The diagnostics of a failed render as text, one per line.
fn texts(map: &SourceMap, diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(|d| scope::text(map, d))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The run's inputs, evaluated.
#[derive(Default)]
struct Given {
    source: Option<PathBuf>,
    xr: Option<Json>,
    observed: Option<Vec<Json>>,
    extra: Option<Vec<Json>>,
    context: Option<Map<String, Json>>,
    observe: Observe,
    until: bool,
    max_steps: usize,
}

/// Evaluates a run's input arguments with the built-ins and `file`.
fn given(map: &SourceMap, cx: &Ctx<'_>, run: &Run) -> Result<Given, String> {
    let table = scope::with_file(&builtins(), cx.dir, cx.root, cx.runner.allow_outside_paths);
    let root = Scope::root(&table);
    let mut given = Given {
        max_steps: DEFAULT_MAX_STEPS,
        ..Given::default()
    };
    let mut scenario_only = None;
    for attr in &run.attributes {
        let here = |message: &str| at(map, cx.file, attr.expr.span.start, message);
        if matches!(attr.name.as_str(), "expect_failures" | "continue") {
            continue;
        }
        let value = scope::evaluate(map, cx.file, &attr.expr, &root)?;
        let json = to_json(&value).map_err(|e| here(&format!("`{}`: {e}", attr.name)))?;
        let objects = |json: Json, what: &str| -> Result<Vec<Json>, String> {
            match json {
                Json::Array(items) if items.iter().all(Json::is_object) => {
                    Ok(items.into_iter().map(into_float64).collect())
                }
                _ => Err(here(&format!("`{what}` must be a list of objects"))),
            }
        };
        let names = |json: &Json, what: &str| -> Result<Vec<String>, String> {
            match json {
                Json::Array(items) if items.iter().all(Json::is_string) => Ok(items
                    .iter()
                    .filter_map(|i| i.as_str().map(str::to_string))
                    .collect()),
                _ => Err(here(&format!("`{what}` must be a list of resource names"))),
            }
        };
        match attr.name.as_str() {
            "composition" => {
                let Json::String(path) = json else {
                    return Err(here("`composition` must be a path (a string)"));
                };
                given.source = Some(cx.dir.join(path));
            }
            "xr" => {
                if !json.is_object() {
                    return Err(here("`xr` must be an object"));
                }
                given.xr = Some(into_float64(json));
            }
            "observed" => given.observed = Some(objects(json, "observed")?),
            "extra_resources" => given.extra = Some(objects(json, "extra_resources")?),
            "context" => {
                let Json::Object(map) = json else {
                    return Err(here("`context` must be an object"));
                };
                given.context = Some(map);
            }
            "status" => {
                let Json::Object(by_name) = json else {
                    return Err(here("`status` must be an object of resource names"));
                };
                given.observe.status = by_name.into_iter().collect();
                scenario_only = Some(attr);
            }
            "connection_details" => {
                let Json::Object(by_name) = json else {
                    return Err(here(
                        "`connection_details` must be an object of resource names",
                    ));
                };
                for (name, details) in by_name {
                    let Json::Object(details) = details else {
                        return Err(here(
                            "each resource's connection details are an object of strings",
                        ));
                    };
                    let mut out = BTreeMap::new();
                    for (k, v) in details {
                        let Json::String(v) = v else {
                            return Err(here(
                                "each resource's connection details are an object of strings",
                            ));
                        };
                        out.insert(k, v);
                    }
                    given.observe.connection.insert(name, out);
                }
                scenario_only = Some(attr);
            }
            "not_ready" => {
                given.observe.unready = names(&json, "not_ready")?.into_iter().collect();
                scenario_only = Some(attr);
            }
            "until" => {
                if json != Json::String("converged".into()) {
                    return Err(here("`until` takes one value: \"converged\""));
                }
                given.until = true;
            }
            "max_steps" => {
                let steps = json
                    .as_u64()
                    .filter(|n| (1..=MAX_STEPS_LIMIT as u64).contains(n))
                    .ok_or_else(|| {
                        here(&format!(
                            "`max_steps` must be a whole number from 1 to {MAX_STEPS_LIMIT}"
                        ))
                    })?;
                given.max_steps = steps as usize;
            }
            other => return Err(here(&format!("`{other}` is not a run argument"))),
        }
    }
    if let Some(attr) = scenario_only
        && !continues(map, cx.file, run)?
    {
        return Err(at(
            map,
            cx.file,
            attr.name_span.start,
            &format!(
                "`{}` describes what the previous run's resources look like when observed; it needs `continue = true`",
                attr.name
            ),
        ));
    }
    Ok(given)
}

/// Renders one run (or, with `until`, until its output stops changing): the state after it,
/// and the diagnostics of a render that failed.
fn render_run(
    map: &mut SourceMap,
    cx: &Ctx<'_>,
    run: &Run,
    previous: Option<&State>,
) -> Result<(State, Option<Vec<Diagnostic>>), String> {
    let given = given(map, cx, run)?;
    let source = match (&given.source, previous) {
        (Some(path), _) => path.clone(),
        (None, Some(prev)) => prev.source.clone(),
        (None, None) => source_of(cx.dir)?,
    };
    check_composition(cx, &source)?;
    let mut state = State {
        source,
        ..State::default()
    };
    match previous {
        Some(prev) => {
            let documents = prev.documents.as_deref().unwrap_or_default();
            let output = split(documents);
            state.xr = match &given.xr {
                Some(xr) => xr.clone(),
                None => next_xr(&prev.xr, &output),
            };
            state.observed = next_observed(&state.xr, &output, &prev.observed, &given.observe);
            if let Some(more) = &given.observed {
                for doc in more {
                    let name = scenario::resource_name(doc);
                    state
                        .observed
                        .retain(|o| name.is_none() || scenario::resource_name(o) != name);
                    state.observed.push(doc.clone());
                }
            }
            state.extra = given.extra.clone().unwrap_or_else(|| prev.extra.clone());
            state.context = given
                .context
                .clone()
                .unwrap_or_else(|| prev.context.clone());
        }
        None => {
            let Some(xr) = &given.xr else {
                // Nothing to render: the run tests user functions only.
                return Ok((state, None));
            };
            state.xr = xr.clone();
            state.observed = given.observed.clone().unwrap_or_default();
            state.extra = given.extra.clone().unwrap_or_default();
            state.context = given.context.clone().unwrap_or_default();
        }
    }
    let request = request(cx, &state.source)?;
    let mut stdin = std::io::empty();
    let (steps, composition) =
        inputs::pipeline_of(map, &request, &mut stdin).map_err(|d| scope::text(map, &d))?;
    state.files = Some(first_hcl_step(&steps));
    let (crossplane_version, engine_release) =
        inputs::parse_crossplane_version(&request.crossplane_version)
            .map_err(|d| d.summary.clone())?;
    let timeout = inputs::parse_duration(&request.timeout).map_err(|d| d.summary.clone())?;
    let schemas = match &request.required_schemas {
        Some(dir) => inputs::load_required_schemas(
            dir,
            crate::render::engine::is_engine(crossplane_version),
            map,
        )
        .map_err(|d| d.summary.clone())?,
        None => Vec::new(),
    };
    let options = Options {
        include_function_results: true,
        include_context: true,
        include_full_xr: false,
        crossplane_version,
        engine_release,
    };
    let render = |map: &mut SourceMap, xr: &Json, observed: &[Json]| {
        let inputs = Inputs {
            xr: xr.clone(),
            composition: composition.clone(),
            steps: steps.clone(),
            observed: observed.to_vec(),
            required: state.extra.clone(),
            context: state.context.clone(),
            secrets: Vec::new(),
            xrd: None,
            schemas: schemas.clone(),
            deadline: Instant::now().checked_add(timeout),
            coverage: cx.runner.coverage.is_some(),
        };
        let mut remote = GrpcRemote::new();
        match render_with(map, &inputs, options, &mut remote, &mut |_| {}) {
            Ok(rendered) => {
                if let Some(total) = cx.runner.coverage {
                    rendered.coverage.iter().for_each(|step| total.record(step));
                }
                if let Some(schemas) = cx.runner.schemas {
                    let mut problems = Vec::new();
                    if !inputs::validate_rendered(schemas, &inputs.xr, &rendered, &mut problems) {
                        return Err(problems);
                    }
                }
                Ok(rendered.documents)
            }
            Err(error) => Err(inputs::report(error, &request.timeout)),
        }
    };
    let (xr, observed) = (state.xr.clone(), state.observed.clone());
    if !given.until {
        return Ok(match render(map, &xr, &observed) {
            Ok(documents) => (
                State {
                    documents: Some(documents),
                    renders: 1,
                    ..state
                },
                None,
            ),
            Err(errors) => (state, Some(errors)),
        });
    }
    let outcome = scenario::converge(&xr, &observed, given.max_steps, |xr, observed| {
        render(map, xr, observed)
    });
    match outcome {
        Converged::After { documents, steps } => Ok((
            State {
                documents: Some(documents),
                renders: steps,
                ..state
            },
            None,
        )),
        Converged::Failed { step, error } => Err(format!(
            "render {step} of `until = \"converged\"` failed:\n{}",
            texts(map, &error)
        )),
        Converged::Never { before, last } => Err(format!(
            "{}\n{}",
            at(
                map,
                cx.file,
                run.span.start,
                &format!(
                    "run {:?} did not converge in {}; the last two differ:",
                    run.name,
                    crate::diagnostics::count(given.max_steps, "render", "renders")
                )
            ),
            diff_text(&before, &last, given.max_steps)
        )),
    }
}

/// The render flags a run uses: `fnhcl render`'s defaults (Crossplane version, timeout).
fn request(cx: &Ctx<'_>, source: &Path) -> Result<Request, String> {
    let args = [
        "xr.yaml".to_string(),
        source.display().to_string(),
        "-r".into(),
        "-c".into(),
    ];
    (cx.runner.parse)(&args).map_err(|d| d.summary.clone())
}

/// A composition named by a test file must be inside the tested tree, unless it is at or
/// above the test's folder (where it is found by default).
fn check_composition(cx: &Ctx<'_>, source: &Path) -> Result<(), String> {
    let confine = Confinement {
        root: cx.root,
        allow: cx.runner.allow_outside_paths,
    };
    let here = std::fs::canonicalize(cx.dir).unwrap_or_else(|_| cx.dir.to_path_buf());
    let there = std::fs::canonicalize(source).unwrap_or_else(|_| source.to_path_buf());
    if here.starts_with(&there) {
        return Ok(());
    }
    confine.check(source, "the composition")
}

/// The files of the composition's first function-hcl step (loaded into `map`).
fn hcl_files(map: &mut SourceMap, cx: &Ctx<'_>, source: &Path) -> Result<Vec<FileId>, String> {
    let request = request(cx, source)?;
    let (steps, _) = inputs::pipeline_of(map, &request, &mut std::io::empty())
        .map_err(|d| scope::text(map, &d))?;
    Ok(first_hcl_step(&steps))
}

/// The files of the first function-hcl step.
fn first_hcl_step(steps: &[crate::render::Step]) -> Vec<FileId> {
    steps
        .iter()
        .find_map(|s| match &s.kind {
            StepKind::Hcl(files) => Some(files.clone()),
            StepKind::Remote { .. }
            | StepKind::PatchAndTransform { .. }
            | StepKind::Other { .. } => None,
        })
        .unwrap_or_default()
}

/// The functions an `assert` may call: the built-ins, `file`, and `invoke` of the tested
/// composition's user functions (which `invoke` can call while the first value lives).
fn composition_functions(
    map: &SourceMap,
    cx: &Ctx<'_>,
    files: &[FileId],
) -> Result<(UserFunctions, FunctionTable), String> {
    let mut parsed = Vec::new();
    for &file in files {
        let result = crate::syntax::parse_file(map.get(file));
        if result.has_errors() {
            return Err(texts(map, &result.diagnostics));
        }
        parsed.push(ParsedFile {
            file,
            body: result.body,
        });
    }
    let program = crate::syntax::model::build_owned(parsed);
    let sources = crate::eval::program::function_sources(&program.functions, map);
    let user = UserFunctions::load(&program.functions, sources)
        .map_err(|diagnostics| texts(map, &diagnostics))?;
    let table = scope::with_file(user.table(), cx.dir, cx.root, cx.runner.allow_outside_paths);
    Ok((user, table))
}

/// The unified diff of the last two outputs of a loop that did not converge.
fn diff_text(before: &[Json], last: &[Json], steps: usize) -> String {
    let diff = crate::diff::diff_streams(before, last, &[]);
    let mut out = String::new();
    for doc in &diff.documents {
        let text = doc.unified(
            3,
            &format!("render {}", steps - 1),
            &format!("render {steps}"),
        );
        if text.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "{:<8} {}\n",
            doc.change.word(),
            doc.identity.title()
        ));
        out.push_str(&text);
    }
    out
}
