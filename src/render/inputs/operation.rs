//! The files of an Operation render (`fnhcl operation render`, as `crossplane operation
//! render` names them) read into the library's [`OperationInputs`], checked in the CLI's
//! order; and the render itself with its failures as diagnostics.

use super::files::{context_map, resource_docs, yaml_docs};
use super::steps::{self, Function};
use super::{Io, Stopped, parse_duration, report};
use crate::diagnostics::{Code, Diagnostic, load_error, usage};
use crate::eval::vars::into_float64;
use crate::render::operation::{
    self, OperationInputs, OperationOptions, add_context_steps, inject_watched, operation_of,
};
use crate::render::{Inputs, Step, StepKind};
use crate::source::SourceMap;
use crate::source::composition::Composition;
use crate::source::loader;
use crate::source::pointer::Pointer;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

type Fallible<T> = Result<T, Box<Diagnostic>>;

/// The arguments and flags of an Operation render, as plain values.
#[derive(Clone, Debug, Default)]
pub struct OperationRequest {
    /// The Operation, CronOperation or WatchOperation (a YAML file).
    pub operation: PathBuf,
    /// The Functions file or directory.
    pub functions: Option<PathBuf>,
    /// `--context-files`: `KEY=PATH`, `;`-separated or repeated.
    pub context_files: Vec<String>,
    /// `--context-values`: `KEY=VALUE`, `;`-separated or repeated.
    pub context_values: Vec<String>,
    /// `--function-credentials`.
    pub function_credentials: Option<PathBuf>,
    /// `-a KEY=VALUE`.
    pub function_annotations: Vec<String>,
    /// `-c`.
    pub include_context: bool,
    /// `-o`.
    pub include_full_operation: bool,
    /// `-r`.
    pub include_function_results: bool,
    /// `-e`: resources the pipeline's requirements may fetch.
    pub required_resources: Vec<PathBuf>,
    /// `--required-schemas`: a directory of OpenAPI documents.
    pub required_schemas: Option<PathBuf>,
    /// `-w`: the watched resource of a WatchOperation.
    pub watched_resource: Option<PathBuf>,
    /// `--timeout`, a Go duration.
    pub timeout: String,
}

/// Reads the request into the Operation and the pipeline's inputs, in the order the CLI
/// loads them (the first failure is the one reported); `warnings` gets what is read but not
/// used.
pub fn read_operation(
    map: &mut SourceMap,
    request: &OperationRequest,
    warnings: &mut Vec<Diagnostic>,
) -> Fallible<(OperationInputs, OperationOptions)> {
    let timeout = parse_duration(&request.timeout)?;
    let path = &request.operation;
    let shown = loader::display_path(path);
    let text = loader::read_text(path).map_err(|e| {
        wrapped(
            load_error(e, map),
            format!("cannot read operation file {shown:?}"),
        )
    })?;
    let document = yaml_docs(path, map)
        .map_err(|d| wrapped(d, format!("cannot unmarshal type metadata from {shown:?}")))?
        .into_iter()
        .next()
        .unwrap_or(Json::Null);
    if !document.is_object() {
        return Err(usage(
            format!("cannot unmarshal type metadata from {shown:?}: the file holds no YAML object"),
            "give a YAML file holding an Operation, CronOperation or WatchOperation",
        ));
    }
    let kind = document
        .get("kind")
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_string();
    let mut op = operation_of(&into_float64(document)).map_err(|message| {
        usage(
            message,
            "give an ops.crossplane.io/v1alpha1 Operation, CronOperation or WatchOperation",
        )
    })?;
    // The CLI decodes the Operation into its Go type: a pipeline that is not a list fails.
    if let Some(found) = op
        .at("/spec/pipeline")
        .filter(|p| !p.is_array() && !p.is_null())
    {
        return Err(usage(
            format!(
                "cannot unmarshal {kind} from {shown:?}: json: cannot unmarshal {} into Go struct field OperationSpec.spec.pipeline of type []v1alpha1.PipelineStep",
                go_json_kind(found)
            ),
            "write spec.pipeline as a list of steps (`- step: NAME`, `functionRef`, `input`)",
        ));
    }
    let mut required = Vec::new();
    for path in &request.required_resources {
        let docs = resource_docs(path, "required resources", map)
            .map_err(super::files::loading("required resources", path))?;
        required.extend(docs.into_iter().map(into_float64));
    }
    // Read as the engine's CLI reads them (operation render exists only there).
    let schemas = match &request.required_schemas {
        Some(dir) => super::load_required_schemas(dir, true, map)?,
        None => Vec::new(),
    };
    if let Some(path) = &request.watched_resource {
        let watched = resource_docs(path, "watched resources", map)
            .map_err(super::files::loading("watched resource", path))?;
        if watched.len() != 1 {
            return Err(usage(
                format!(
                    "--watched-resource must contain exactly one resource, got {}",
                    watched.len()
                ),
                "give --watched-resource a file holding the one resource the WatchOperation saw change",
            ));
        }
        let watched = into_float64(watched.into_iter().next().unwrap_or(Json::Null));
        inject_watched(&mut op, &watched);
        required.push(watched);
    }
    let overrides = steps::annotation_overrides(&request.function_annotations)?;
    let functions = match &request.functions {
        Some(path) => Some(
            // Worded as the CLI loads functions (`cannot load functions from …`) already.
            steps::functions(path, &overrides, map)?,
        ),
        None => None,
    };
    let secrets = match &request.function_credentials {
        Some(path) => resource_docs(path, "credentials", map)
            .map_err(super::files::loading("function credentials", path))?,
        None => Vec::new(),
    };
    let context = context_map(&request.context_files, &[], &request.context_values, map)?;
    let steps = pipeline(&op, &text, path, functions.as_ref(), &overrides, map)?;
    warnings.extend(unseen_requirements(&steps));
    let options = OperationOptions {
        include_function_results: request.include_function_results,
        include_context: request.include_context,
        include_full_operation: request.include_full_operation,
        seeded_context: !request.context_values.is_empty() || !request.context_files.is_empty(),
    };
    add_context_steps(&mut op, options);
    let inputs = Inputs {
        xr: Json::Null,
        steps,
        required,
        context,
        secrets,
        schemas,
        deadline: Instant::now().checked_add(timeout),
        ..Inputs::default()
    };
    Ok((
        OperationInputs {
            operation: op,
            inputs,
        },
        options,
    ))
}

/// What Go's JSON decoder calls a value of this kind.
fn go_json_kind(value: &Json) -> &'static str {
    match value {
        Json::Object(_) => "object",
        Json::Array(_) => "array",
        Json::String(_) => "string",
        Json::Number(_) => "number",
        Json::Bool(_) => "bool",
        Json::Null => "null",
    }
}

/// `diagnostic` with the CLI's context before its message.
fn wrapped(mut diagnostic: Box<Diagnostic>, context: String) -> Box<Diagnostic> {
    diagnostic.summary = format!("{context}: {}", diagnostic.summary);
    diagnostic
}

/// The steps of the Operation `op` (its file's `text` at `path`): function-hcl steps with
/// the bundle of their input, the others by their Function's runtime.
fn pipeline(
    op: &Json,
    text: &str,
    path: &Path,
    functions: Option<&BTreeMap<String, Function>>,
    overrides: &[(String, String)],
    map: &mut SourceMap,
) -> Fallible<Vec<Step>> {
    let shown = loader::display_path(path);
    let parsed = Composition::parse_operation(text)
        .map_err(|e| crate::diagnostics::composition_error(&shown, text, e, map))?;
    let raw_steps = op
        .at("/spec/pipeline")
        .and_then(Json::as_array)
        .cloned()
        .unwrap_or_default();
    let mut out = Vec::new();
    for (raw, step) in raw_steps.iter().zip(&parsed.steps) {
        let function = step.function.clone().unwrap_or_default();
        let declared = steps::declared_function(functions, &function)?;
        let package = declared.map(|f| f.package.clone());
        let by_package = package
            .as_deref()
            .is_some_and(|p| p.contains("function-hcl"));
        let input = raw.get("input").cloned();
        let kind = if step.is_hcl || step.intends_hcl || by_package {
            if let Some(error) = step.invalid_input() {
                return Err(crate::diagnostics::composition_error(
                    &shown, text, error, map,
                ));
            }
            check_debug(&step.name, input.as_ref())?;
            let bundle = loader::load_operation_step(map, &shown, text.to_string(), &step.name)
                .map_err(|e| load_error(e, map))?;
            StepKind::Hcl(bundle.files.iter().map(|f| f.file).collect())
        } else {
            let annotations = match declared {
                Some(f) => f.annotations.clone(),
                None => overrides.iter().cloned().collect(),
            };
            steps::runtime_of(&function, package, &annotations)?
        };
        let (required_resources, required_schemas) = steps::bootstrap_requirements(Some(raw));
        out.push(Step {
            name: step.name.clone(),
            function,
            kind,
            input,
            credentials: raw
                .get("credentials")
                .and_then(Json::as_array)
                .cloned()
                .unwrap_or_default(),
            required_resources,
            required_schemas,
        });
    }
    Ok(out)
}

/// A warning for each function-hcl step with bootstrap requirements: the reconciler sends
/// them in `required_resources` and `required_schemas`, which function-hcl v0.2.0 does not
/// read (its `req.extra_resources` holds only what its own `requirement` blocks asked for).
fn unseen_requirements(steps: &[Step]) -> Vec<Diagnostic> {
    steps
        .iter()
        .filter(|s| matches!(s.kind, StepKind::Hcl(_)))
        .filter(|s| !s.required_resources.is_empty() || !s.required_schemas.is_empty())
        .map(|s| {
            let names: Vec<String> = s
                .required_resources
                .iter()
                .map(|(name, _)| name.clone())
                .chain(s.required_schemas.iter().map(|(name, _)| name.clone()))
                .map(|n| format!("`{n}`"))
                .collect();
            Diagnostic::new(
                Code::I024,
                format!(
                    "step {:?} runs function-hcl, which cannot see its bootstrap requirements ({}): function-hcl v0.2.0 reads only `req.extra_resources`",
                    s.name,
                    names.join(", ")
                ),
            )
            .with_help("ask for the resource with a `requirement` block in the HCL; it arrives as `req.extra_resources.NAME` on the step's next call")
        })
        .collect()
}

/// function-hcl v0.2.0 dumps its response (input `debug`, or `debugNew` with no observed
/// resources, which an Operation never has) by reading the request's observed composite,
/// which an Operation's request does not have: the function crashes on it.
fn check_debug(step: &str, input: Option<&Json>) -> Fallible<()> {
    let flag = |name: &str| input.and_then(|i| i.get(name)) == Some(&Json::Bool(true));
    for name in ["debug", "debugNew"] {
        if flag(name) {
            return Err(Box::new(
                Diagnostic::new(
                    Code::I017,
                    format!(
                        "step {step:?} cannot run function-hcl in an Operation with `{name}: true`: function-hcl v0.2.0 crashes dumping its response (it reads the observed composite, which an Operation's request has not)"
                    ),
                )
                .with_help(format!("remove `{name}` from the step's input")),
            ));
        }
    }
    Ok(())
}

/// Reads the request and renders the Operation; every problem goes to `diagnostics`.
pub fn operation_documents(
    map: &mut SourceMap,
    request: &OperationRequest,
    io: &mut Io<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Vec<Json>, Stopped> {
    let mut warnings = Vec::new();
    let read = read_operation(map, request, &mut warnings);
    if !io.quiet {
        diagnostics.extend(warnings);
    }
    let (input, options) = match read {
        Ok(read) => read,
        Err(d) => {
            diagnostics.push(*d);
            return Err(Stopped::Input);
        }
    };
    let mut remote = (io.remote)();
    match operation::render(map, &input, options, remote.as_mut(), io.log) {
        Ok(rendered) => {
            if !io.quiet {
                diagnostics.extend(super::discard_warnings(&rendered, false));
            }
            Ok(rendered.documents)
        }
        Err(error) => {
            let fatal = matches!(error, crate::render::RenderError::Fatal { .. });
            let message = operation::failure_message(&error);
            let mut reported = report(error, &request.timeout);
            if let Some(first) = reported.first_mut() {
                // A fatal result's headline is the function's error at its source; other
                // failures read as the engine words them. Either way scripts get the CLI's line.
                if !fatal {
                    first.summary = message.clone();
                }
                first.upstream = Some(format!("crossplane: error: {message}"));
            }
            diagnostics.extend(reported);
            Err(Stopped::Render { fatal })
        }
    }
}
