//! L5: `crossplane operation render` (CLI v2.5 with engine v2.3.4): an Operation's pipeline
//! run once as the Operation reconciler runs it, function-hcl steps natively and other steps
//! through [`Remote`], then the document stream the CLI prints: the Operation with its status,
//! the resources the pipeline applied, and with `-r`/`-c` the reconciler's events as `Result`
//! documents and the final context.
//!
//! A CronOperation or WatchOperation is first turned into the Operation it would create, as
//! the CLI's loader does ([`operation_of`], [`inject_watched`]). The reconciler's request
//! carries no observed state, an empty desired state, and the context; only the desired
//! resources of the last step are applied (a desired composite is ignored).

mod typed;

use super::engine::rewrite_condition_times;
use super::pipeline::{self, Run};
use super::post::RENDER_API;
use super::{Inputs, Remote, RenderError, Rendered};
use crate::source::pointer::Pointer;
use serde_json::{Map, Value as Json, json};
use typed::{Status, condition, output_operation};

/// The API version of Operations, CronOperations and WatchOperations.
pub const OPS_API: &str = "ops.crossplane.io/v1alpha1";

/// The requirement name the WatchOperation controller gives the watched resource.
pub const WATCHED_RESOURCE: &str = "ops.crossplane.io/watched-resource";

/// The Function name of the CLI's in-process context function: its steps seed the context
/// (`--context-values`/`--context-files`) and capture it (`-c`).
pub const CONTEXT_FUNCTION: &str = "crossplane-render-context";

/// The reconciler's default `spec.retryLimit`.
const DEFAULT_RETRY_LIMIT: i64 = 5;

/// What to print besides the Operation and the applied resources.
#[derive(Clone, Copy, Debug, Default)]
pub struct OperationOptions {
    /// `-r`: a `Result` document for each of the reconciler's events.
    pub include_function_results: bool,
    /// `-c`: the context after the last step as a `Context` document.
    pub include_context: bool,
    /// `-o`: the input Operation's `spec` in the output (the engine's copy already has it).
    pub include_full_operation: bool,
    /// Whether context was seeded (`--context-values`/`--context-files`): the CLI prepends its
    /// seeding step to the pipeline.
    pub seeded_context: bool,
}

/// An Operation render: the Operation (as the CLI sends it to the engine) and the pipeline's
/// inputs (its steps, required resources, secrets, context and deadline; no XR).
#[derive(Clone, Debug)]
pub struct OperationInputs {
    /// The Operation.
    pub operation: Json,
    /// The pipeline's inputs.
    pub inputs: Inputs,
}

/// The Operation a document describes, as the CLI's `LoadOperation` reads it: an Operation
/// as it is; a CronOperation's or WatchOperation's `spec.operationTemplate` (its metadata and
/// spec) under the parent's name. Anything else is the CLI's `not an operation type` error.
pub fn operation_of(document: &Json) -> Result<Json, String> {
    let text = |p: &str| document.at(p).and_then(Json::as_str).unwrap_or("");
    let (api_version, kind) = (text("/apiVersion"), text("/kind"));
    if api_version == OPS_API {
        match kind {
            "Operation" => return Ok(document.clone()),
            "CronOperation" | "WatchOperation" => {
                let template = document.at("/spec/operationTemplate");
                let mut metadata = template
                    .and_then(|t| t.get("metadata"))
                    .and_then(Json::as_object)
                    .cloned()
                    .unwrap_or_default();
                // The real controller generates a name; the CLI takes the parent's.
                metadata.insert("name".into(), json!(text("/metadata/name")));
                let spec = template
                    .and_then(|t| t.get("spec"))
                    .cloned()
                    .unwrap_or(Json::Object(Map::new()));
                return Ok(json!({
                    "apiVersion": api_version,
                    "kind": "Operation",
                    "metadata": metadata,
                    "spec": spec,
                }));
            }
            _ => {}
        }
    }
    Err(format!("not an operation type: {kind}/{api_version}"))
}

/// The WatchOperation controller's selector for the watched resource, added to every step's
/// `requirements.requiredResources` of `operation` (as the CLI does for `--watched-resource`).
pub fn inject_watched(operation: &mut Json, watched: &Json) {
    let text = |p: &str| watched.at(p).and_then(Json::as_str).unwrap_or("");
    let mut selector = json!({
        "requirementName": WATCHED_RESOURCE,
        "apiVersion": text("/apiVersion"),
        "kind": text("/kind"),
        "name": text("/metadata/name"),
    });
    if !text("/metadata/namespace").is_empty() {
        selector["namespace"] = json!(text("/metadata/namespace"));
    }
    let Some(Json::Array(steps)) = operation.pointer_mut("/spec/pipeline") else {
        return;
    };
    for step in steps.iter_mut().filter(|s| s.is_object()) {
        let requirements = step
            .as_object_mut()
            .map(|s| s.entry("requirements").or_insert(json!({})));
        let Some(requirements) = requirements.filter(|r| r.is_object()) else {
            continue;
        };
        let list = requirements
            .as_object_mut()
            .map(|r| r.entry("requiredResources").or_insert(json!([])));
        if let Some(Json::Array(list)) = list {
            list.push(selector.clone());
        } else if let Some(list) = list {
            *list = json!([selector.clone()]);
        }
    }
}

/// The CLI's context-function steps around the pipeline of the Operation it sends: a seeding
/// step first when context is given, a capturing step last with `-c`.
pub fn add_context_steps(operation: &mut Json, options: OperationOptions) {
    let step = |name: &str, mode: &str| json!({"step": name, "functionRef": {"name": CONTEXT_FUNCTION}, "input": {"mode": mode}});
    let Some(spec) = operation.get_mut("spec").and_then(Json::as_object_mut) else {
        return;
    };
    let pipeline = spec.entry("pipeline").or_insert(json!([]));
    if !pipeline.is_array() {
        *pipeline = json!([]);
    }
    let Json::Array(steps) = pipeline else {
        return;
    };
    if options.seeded_context {
        steps.insert(0, step("crossplane-render-inject-context", "Seed"));
    }
    if options.include_context {
        steps.push(step("crossplane-render-extract-context", "Capture"));
    }
}

/// Renders the Operation: one reconcile, then the documents `crossplane operation render`
/// prints (with what function-hcl steps left out). A failed step is an error (the CLI prints
/// no document then).
pub fn render(
    map: &mut crate::source::SourceMap,
    input: &OperationInputs,
    options: OperationOptions,
    remote: &mut dyn Remote,
    log: &mut dyn FnMut(String),
) -> Result<Rendered, RenderError> {
    let documents = |documents: Vec<Json>| Rendered {
        documents,
        discards: Vec::new(),
        origins: Default::default(),
        coverage: Vec::new(),
    };
    super::check_runnable(&input.inputs.steps)?;
    let mut operation = input.operation.clone();
    // The engine stores the Operation it is given with a resource version.
    if let Some(metadata) = object_at(&mut operation, "metadata") {
        metadata.insert("resourceVersion".into(), json!("999"));
    }
    let generation = operation
        .at("/metadata/generation")
        .and_then(Json::as_f64)
        .map_or(0, |g| g as i64);
    let mut status = Status::of(&operation, generation);
    if status.is_complete() {
        // The reconciler leaves a finished Operation alone: the engine returns nothing.
        return Ok(documents(Vec::new()));
    }
    let limit = operation
        .at("/spec/retryLimit")
        .and_then(Json::as_f64)
        .map_or(DEFAULT_RETRY_LIMIT, |l| l as i64);
    if status.failures >= limit {
        status.mark(condition("Synced", "True", "ReconcileSuccess", ""));
        status.mark(condition(
            "Succeeded",
            "False",
            "PipelineError",
            &format!("failure limit of {limit} reached"),
        ));
        return Ok(documents(vec![output_operation(
            operation,
            &input.operation,
            &status,
            options,
        )]));
    }
    status.mark(condition("Succeeded", "Unknown", "PipelineRunning", ""));
    status.mark(condition("ValidPipeline", "True", "ValidPipeline", ""));
    let run = pipeline::run(map, &input.inputs, true, remote, log)
        .map_err(|e| credentials_error(&input.inputs, e))?;
    for (step, output) in &run.outputs {
        status.step_output(step, output.clone());
    }
    let mut applied = Vec::new();
    for resource in run.desired.resources.values() {
        let body = resource
            .resource
            .clone()
            .unwrap_or(Json::Object(Map::new()));
        status.applied_ref(&body);
        applied.push(body);
    }
    status.mark(condition("Synced", "True", "ReconcileSuccess", ""));
    status.mark(condition("Succeeded", "True", "PipelineSuccess", ""));
    let mut out = vec![output_operation(
        operation,
        &input.operation,
        &status,
        options,
    )];
    for mut body in applied {
        rewrite_condition_times(&mut body);
        out.push(body);
    }
    if options.include_function_results {
        out.extend(events(&run));
    }
    if options.include_context && run.context_returned {
        out.push(json!({"apiVersion": RENDER_API, "kind": "Context", "fields": Json::Object(run.context.clone())}));
    }
    Ok(Rendered {
        documents: out,
        discards: run.discards,
        origins: run.origins,
        coverage: run.coverage,
    })
}

/// The message a failed Operation render ends with, as the engine words it (`cannot render
/// operation: …`; a failure other than a fatal result is a failed reconcile).
pub fn failure_message(error: &RenderError) -> String {
    let cause = match error {
        RenderError::Fatal { step, message, .. } => {
            return format!(
                "cannot render operation: pipeline step {step:?} returned a fatal result: {message}"
            );
        }
        RenderError::DeadlineExceeded { step, .. } => format!(
            "failed to invoke pipeline step {step:?}: rpc error: code = DeadlineExceeded desc = context deadline exceeded"
        ),
        RenderError::Remote { step, message, .. } => {
            format!("failed to invoke pipeline step {step:?}: {message}")
        }
        RenderError::Unrunnable { .. } => return error.to_string(),
        RenderError::Engine(cause) => cause.clone(),
        RenderError::Failed(message) => {
            let message = message
                .strip_prefix("cannot render composite resource: ")
                .unwrap_or(message);
            // The requirements loop fails inside the step's invocation.
            match message.strip_prefix("pipeline step ") {
                Some(rest) => format!("failed to invoke pipeline step {rest}"),
                None => message.to_string(),
            }
        }
    };
    format!("cannot render operation: reconcile failed: {cause}")
}

/// The reconciler's words for a credential whose Secret is missing: the pipeline stops at
/// the first step (in order) naming one, so that step and credential are the ones it names.
fn credentials_error(inputs: &Inputs, error: RenderError) -> RenderError {
    // The pipeline words a missing Secret as a composition's reconciler would.
    let missing = match &error {
        RenderError::Failed(message) => message.starts_with("cannot get credentials from secret"),
        RenderError::Engine(cause) => cause.contains("credential") && cause.contains("from Secret"),
        _ => false,
    };
    if !missing {
        return error;
    }
    let text = |v: &Json, p: &str| v.at(p).and_then(Json::as_str).unwrap_or("").to_string();
    for step in &inputs.steps {
        for credential in &step.credentials {
            if text(credential, "/source") != "Secret" {
                continue;
            }
            let (name, namespace) = (
                text(credential, "/secretRef/name"),
                text(credential, "/secretRef/namespace"),
            );
            let found = inputs.secrets.iter().any(|s| {
                text(s, "/metadata/name") == name && text(s, "/metadata/namespace") == namespace
            });
            if !found {
                return RenderError::Failed(format!(
                    "cannot get operation pipeline step {:?} credential {:?} from Secret: Secret {name:?} not found",
                    step.name,
                    text(credential, "/name"),
                ));
            }
        }
    }
    error
}

/// The reconciler's events for each step's results (the last call of each): normal and
/// warning results as `RunPipelineStep` events; a result of unknown severity as a warning.
fn events(run: &Run) -> Vec<Json> {
    let result = |severity: &str, message: String| json!({"apiVersion": RENDER_API, "kind": "Result", "message": message, "reason": "RunPipelineStep", "severity": severity});
    let mut out = Vec::new();
    for (step, r) in &run.results {
        match r.severity.as_str() {
            "SEVERITY_NORMAL" => out.push(result(
                "Normal",
                format!("Pipeline step {step:?}: {}", r.message),
            )),
            "SEVERITY_WARNING" => out.push(result(
                "Warning",
                format!("Pipeline step {step:?}: {}", r.message),
            )),
            "SEVERITY_FATAL" => {}
            _ => out.push(result(
                "Warning",
                format!(
                    "Pipeline step {step:?} returned a result of unknown severity (assuming warning): {}",
                    r.message
                ),
            )),
        }
    }
    out
}

fn object_at<'a>(value: &'a mut Json, key: &str) -> Option<&'a mut Map<String, Json>> {
    let object = value.as_object_mut()?;
    let entry = object
        .entry(key.to_string())
        .or_insert(Json::Object(Map::new()));
    if !entry.is_object() {
        *entry = Json::Object(Map::new());
    }
    entry.as_object_mut()
}

#[cfg(test)]
mod tests;
