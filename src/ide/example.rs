//! An example's evaluation: with `[example]` in `.fnhcl.toml`, the composition is evaluated as
//! `render` evaluates a function-hcl step for the example's inputs — the requirements loop
//! included, extra resources matched against the composition's requirements. What it saw
//! ([`Trace`]) is what live values are read from ([`super::live`]).

use crate::check::config::Example;
use crate::diagnostics::{Diagnostic, Severity};
use crate::eval::program::{self, Failure, HclResponse, Trace};
use crate::eval::proto::{Resource, RunFunctionRequest, State};
use crate::source::loader::{BundleFile, io_text};
use crate::source::{FileId, SourceMap};
use crate::syntax::model::Program;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long one evaluation may take before the server gives up on it.
const EVALUATION_TIME: Duration = Duration::from_secs(2);

/// How large one example file may be. Example files are repository content the server reads
/// on its own: a link to `/dev/zero` or a huge file must not exhaust memory.
pub const MAX_EXAMPLE_FILE: u64 = 16 * 1024 * 1024;

/// The composition evaluated for its example (what the workspace keeps per folder).
pub struct Evaluation {
    /// The program, parsed from the texts evaluated.
    pub program: Program,
    /// Why nothing was evaluated: the example's files cannot be used, or the evaluation took
    /// too long.
    pub problem: Option<String>,
    /// What the last evaluation saw (`None`: it stopped before any block).
    pub trace: Option<Trace>,
    /// Why the render fails, when it does.
    pub failure: Option<Fatal>,
}

/// A failed render.
pub struct Fatal {
    /// The first error, `summary; detail`.
    pub short: String,
    /// function-hcl's whole message (`file:range: summary; detail`, and the others).
    pub full: String,
}

/// Whether the example is for the composition of `dir`: a `case` is for the composition it
/// tests (as `fnhcl test` finds it); files given one by one are for every composition.
pub fn applies(example: &Example, dir: &Path) -> bool {
    let Some(case) = &example.case else {
        return true;
    };
    // The case's `source` file is read to find the tested composition: only a regular file of
    // a sane size (a link to a device or a pipe would block the server).
    if let Ok(meta) = std::fs::metadata(case.join("source"))
        && (!meta.is_file() || meta.len() > MAX_EXAMPLE_FILE)
    {
        return false;
    }
    // A `source` may name a file of the composition: its folder is the composition.
    let tested = crate::golden::source_of(case).ok().and_then(|source| {
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
pub fn key(map: &SourceMap, files: &[BundleFile], example: &Example) -> u64 {
    let mut h = DefaultHasher::new();
    for f in files {
        f.name.hash(&mut h);
        map.get(f.file).text().hash(&mut h);
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
/// messages; example files must be inside it or inside the composition's folder `dir`).
pub fn evaluate(
    program: &Program,
    source: &SourceMap,
    bundle: &[BundleFile],
    example: &Example,
    base: &Path,
    dir: &Path,
) -> Evaluation {
    let mut out = Evaluation {
        program: program.clone(),
        problem: None,
        trace: None,
        failure: None,
    };
    let roots: Vec<PathBuf> = [base, dir]
        .into_iter()
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    let inputs = match read_inputs(example, base, &roots) {
        Ok(inputs) => inputs,
        Err(problem) => {
            out.problem = Some(problem);
            return out;
        }
    };
    let files: Vec<FileId> = bundle.iter().map(|f| f.file).collect();
    let mut map = source.clone();
    let deadline = Instant::now() + EVALUATION_TIME;
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        crate::eval::deadline::within(Some(deadline), || {
            crate::eval::budget::within(|| settle(&mut map, &files, inputs))
        })
    }));
    let (result, trace) = match run {
        Ok(Ok(Ok(done))) => done,
        Ok(Ok(Err(exhausted))) => {
            out.problem = Some(exhausted.diagnostic().message());
            return out;
        }
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
            Failure::Located { diagnostic, .. } => diagnostic.message(),
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
        if requirements == previous || round > crate::render::MAX_REQUIREMENTS_ITERATIONS {
            return (result, trace);
        }
        request.extra_resources = requirements
            .as_ref()
            .map(|r| r.select_extra(&inputs.extra))
            .unwrap_or_default();
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

/// Reads the example's files into a request, as `fnhcl test` passes them to `render`; only
/// regular files inside one of `roots` (canonical) are read.
fn read_inputs(example: &Example, base: &Path, roots: &[PathBuf]) -> Result<Inputs, String> {
    let shown = |path: &Path| {
        path.strip_prefix(base)
            .unwrap_or(path)
            .display()
            .to_string()
    };
    let documents = |path: &Path, shown: &dyn Fn(&Path) -> String| {
        usable(path, roots, shown)?;
        documents(path, shown)
    };
    let objects = |path: &Path, shown: &dyn Fn(&Path) -> String, what: &str| {
        usable(path, roots, shown)?;
        objects(path, shown, what)
    };
    // In a case folder every file but xr.yaml is optional.
    let optional = |path: &Option<PathBuf>| -> Option<PathBuf> {
        let path = path.clone()?;
        (example.case.is_none() || path.exists()).then_some(path)
    };
    let xr = match documents(&example.xr, &shown)?.into_iter().next() {
        Some(doc) if doc.is_object() => crate::eval::vars::into_float64(doc),
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
            let name = crate::render::composition_resource_name(&doc).to_string();
            resources.insert(name, Resource::of(crate::eval::vars::into_float64(doc)));
        }
    }
    let extra = match optional(&example.extra_resources) {
        Some(path) => objects(&path, &shown, "extra resources")?
            .into_iter()
            .map(crate::eval::vars::into_float64)
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

/// Refuses an example path that is not a regular file (or a folder of them) inside the
/// workspace, or is too large: the server would block on a pipe or a device (`/dev/stdin` is
/// its own JSON-RPC input), or read another project's files into hovers. A missing file is
/// left to the reader, which says so.
fn usable(path: &Path, roots: &[PathBuf], shown: &dyn Fn(&Path) -> String) -> Result<(), String> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    let mut files = Vec::new();
    if meta.is_dir() {
        check_inside(path, roots, shown)?;
        if let Ok(entries) = std::fs::read_dir(path) {
            files.extend(
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| crate::source::loader::is_yaml(p) && !p.is_dir()),
            );
        }
        files.sort();
    } else {
        files.push(path.to_path_buf());
    }
    for file in files {
        let meta = std::fs::metadata(&file)
            .map_err(|e| format!("cannot read `{}`: {}", shown(&file), io_text(&e)))?;
        if !meta.is_file() {
            return Err(format!("`{}` is not a regular file", shown(&file)));
        }
        check_inside(&file, roots, shown)?;
        if meta.len() > MAX_EXAMPLE_FILE {
            return Err(format!(
                "`{}` is larger than {} MiB, the limit for an example file",
                shown(&file),
                MAX_EXAMPLE_FILE >> 20
            ));
        }
    }
    Ok(())
}

/// Refuses a path that, links resolved, is outside every root.
fn check_inside(
    path: &Path,
    roots: &[PathBuf],
    shown: &dyn Fn(&Path) -> String,
) -> Result<(), String> {
    let real = path
        .canonicalize()
        .map_err(|e| format!("cannot read `{}`: {}", shown(path), io_text(&e)))?;
    if roots.iter().any(|root| real.starts_with(root)) {
        return Ok(());
    }
    Err(format!(
        "`{}` is outside the workspace (the folder of `.fnhcl.toml`)",
        shown(path)
    ))
}

/// The documents of a YAML file (or a folder of them).
fn documents(path: &Path, shown: &dyn Fn(&Path) -> String) -> Result<Vec<Json>, String> {
    use crate::source::loader::{LoadError, load_yaml_stream};
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
            crate::source::loader::io_text(&source)
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
