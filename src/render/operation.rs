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

use super::engine::rewrite_condition_times;
use super::pipeline::{self, Run};
use super::post::RENDER_API;
use super::{Inputs, Remote, RenderError, Rendered, TRANSITION_TIME};
use serde_json::{Map, Value as Json, json};

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
    let text = |p: &str| document.pointer(p).and_then(Json::as_str).unwrap_or("");
    let (api_version, kind) = (text("/apiVersion"), text("/kind"));
    if api_version == OPS_API {
        match kind {
            "Operation" => return Ok(document.clone()),
            "CronOperation" | "WatchOperation" => {
                let template = document.pointer("/spec/operationTemplate");
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
    let text = |p: &str| watched.pointer(p).and_then(Json::as_str).unwrap_or("");
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
        .pointer("/metadata/generation")
        .and_then(Json::as_f64)
        .map_or(0, |g| g as i64);
    let mut status = Status::of(&operation, generation);
    if status.is_complete() {
        // The reconciler leaves a finished Operation alone: the engine returns nothing.
        return Ok(documents(Vec::new()));
    }
    let limit = operation
        .pointer("/spec/retryLimit")
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
    let run = pipeline::run(map, &input.inputs, remote, log)
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
    let RenderError::Failed(message) = &error else {
        return error;
    };
    if !message.starts_with("cannot get credentials from secret") {
        return error;
    }
    let text = |v: &Json, p: &str| {
        v.pointer(p)
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string()
    };
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

/// The Operation's status as the reconciler keeps it (its typed fields only).
struct Status {
    conditions: Vec<Json>,
    failures: i64,
    pipeline: Vec<Json>,
    applied: Vec<Json>,
    generation: i64,
}

impl Status {
    fn of(operation: &Json, generation: i64) -> Status {
        let list = |key: &str| {
            operation
                .pointer(&format!("/status/{key}"))
                .and_then(Json::as_array)
                .cloned()
                .unwrap_or_default()
        };
        Status {
            conditions: list("conditions").iter().map(typed_condition).collect(),
            failures: operation
                .pointer("/status/failures")
                .and_then(Json::as_f64)
                .map_or(0, |f| f as i64),
            pipeline: list("pipeline")
                .iter()
                .map(|p| keep(p, &["step", "output"], &["step"]))
                .collect(),
            applied: list("appliedResourceRefs")
                .iter()
                .map(|r| {
                    keep(
                        r,
                        &["apiVersion", "kind", "namespace", "name"],
                        &["apiVersion", "kind", "name"],
                    )
                })
                .collect(),
            generation,
        }
    }

    /// Succeeded `True` or `False` is terminal.
    fn is_complete(&self) -> bool {
        self.conditions.iter().any(|c| {
            c.get("type") == Some(&json!("Succeeded"))
                && matches!(
                    c.get("status").and_then(Json::as_str),
                    Some("True" | "False")
                )
        })
    }

    /// crossplane-runtime's `SetConditions`: a condition replaces the one of its type where
    /// it is (unless equal but for its time), or is appended; each carries the generation.
    fn mark(&mut self, mut condition: Json) {
        if self.generation != 0 {
            condition["observedGeneration"] = json!(self.generation);
        }
        let kind = condition.get("type").cloned();
        match self
            .conditions
            .iter_mut()
            .find(|c| c.get("type") == kind.as_ref())
        {
            Some(existing) => {
                let same = ["status", "reason", "message", "observedGeneration"]
                    .iter()
                    .all(|k| existing.get(k) == condition.get(k));
                if !same {
                    *existing = condition;
                }
            }
            None => self.conditions.push(condition),
        }
    }

    /// The reconciler's `AddPipelineStepOutput`.
    fn step_output(&mut self, step: &str, output: Json) {
        match self
            .pipeline
            .iter_mut()
            .find(|p| p.get("step").and_then(Json::as_str) == Some(step))
        {
            Some(existing) => existing["output"] = output,
            None => self.pipeline.push(json!({"step": step, "output": output})),
        }
    }

    /// The reconciler's `AddResourceRef`: once each, sorted by apiVersion, kind, namespace
    /// and name run together.
    fn applied_ref(&mut self, body: &Json) {
        let text = |p: &str| body.pointer(p).and_then(Json::as_str).unwrap_or("");
        let mut reference = json!({
            "apiVersion": text("/apiVersion"),
            "kind": text("/kind"),
            "name": text("/metadata/name"),
        });
        if !text("/metadata/namespace").is_empty() {
            reference["namespace"] = json!(text("/metadata/namespace"));
        }
        if self.applied.contains(&reference) {
            return;
        }
        self.applied.push(reference);
        let key = |r: &Json| {
            ["apiVersion", "kind", "namespace", "name"]
                .iter()
                .map(|k| r.get(*k).and_then(Json::as_str).unwrap_or(""))
                .collect::<String>()
        };
        self.applied.sort_by_key(key);
    }

    fn to_json(&self) -> Json {
        let mut out = Map::new();
        if !self.conditions.is_empty() {
            out.insert("conditions".into(), Json::Array(self.conditions.clone()));
        }
        if self.failures != 0 {
            out.insert("failures".into(), json!(self.failures));
        }
        if !self.pipeline.is_empty() {
            out.insert("pipeline".into(), Json::Array(self.pipeline.clone()));
        }
        if !self.applied.is_empty() {
            out.insert(
                "appliedResourceRefs".into(),
                Json::Array(self.applied.clone()),
            );
        }
        Json::Object(out)
    }
}

/// A condition as the reconciler sets it (the CLI's constant time).
fn condition(kind: &str, status: &str, reason: &str, message: &str) -> Json {
    let mut out = json!({"type": kind, "status": status, "lastTransitionTime": TRANSITION_TIME, "reason": reason});
    if !message.is_empty() {
        out["message"] = json!(message);
    }
    out
}

/// A condition of the input through the typed `Condition`.
fn typed_condition(c: &Json) -> Json {
    let text = |k: &str| c.get(k).and_then(Json::as_str).unwrap_or("");
    let mut out = condition(
        text("type"),
        text("status"),
        text("reason"),
        text("message"),
    );
    if let Some(g) = c.get("observedGeneration").and_then(Json::as_f64)
        && g != 0.0
    {
        out["observedGeneration"] = json!(g as i64);
    }
    out
}

/// The Operation the CLI prints: the engine's copy (with `-o`, the input's `spec`) decoded
/// into the typed Operation, so only its known fields remain.
fn output_operation(
    mut operation: Json,
    input: &Json,
    status: &Status,
    options: OperationOptions,
) -> Json {
    if options.include_full_operation
        && let Some(spec) = input.get("spec")
    {
        operation["spec"] = spec.clone();
    }
    let metadata = operation
        .get("metadata")
        .map(|m| keep(m, METADATA_FIELDS, &[]))
        .unwrap_or(Json::Object(Map::new()));
    let mut out = Map::new();
    for key in ["apiVersion", "kind"] {
        if let Some(v) = operation.get(key).filter(|v| !is_empty(v)) {
            out.insert(key.into(), v.clone());
        }
    }
    if metadata.as_object().is_some_and(|m| !m.is_empty()) {
        out.insert("metadata".into(), metadata);
    }
    out.insert(
        "spec".into(),
        typed_spec(operation.get("spec").unwrap_or(&Json::Null)),
    );
    out.insert("status".into(), status.to_json());
    Json::Object(out)
}

/// `ObjectMeta`'s fields.
const METADATA_FIELDS: &[&str] = &[
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
];

/// `OperationSpec` through its Go type: `mode` and `pipeline` always, `retryLimit` when set.
fn typed_spec(spec: &Json) -> Json {
    let mut out = Map::new();
    out.insert(
        "mode".into(),
        spec.get("mode").cloned().unwrap_or(json!("")),
    );
    let pipeline = match spec.get("pipeline") {
        Some(Json::Array(steps)) => Json::Array(steps.iter().map(typed_step).collect()),
        _ => Json::Null,
    };
    out.insert("pipeline".into(), pipeline);
    if let Some(limit) = spec.get("retryLimit").filter(|v| !v.is_null()) {
        out.insert("retryLimit".into(), limit.clone());
    }
    Json::Object(out)
}

/// A `PipelineStep` through its Go type.
fn typed_step(step: &Json) -> Json {
    let mut out = Map::new();
    out.insert(
        "step".into(),
        step.get("step").cloned().unwrap_or(json!("")),
    );
    let function = step
        .pointer("/functionRef/name")
        .cloned()
        .unwrap_or(json!(""));
    out.insert("functionRef".into(), json!({"name": function}));
    if let Some(input) = step.get("input").filter(|v| !v.is_null()) {
        out.insert("input".into(), input.clone());
    }
    if let Some(Json::Array(list)) = step.get("credentials")
        && !list.is_empty()
    {
        let credentials = list
            .iter()
            .map(|c| {
                let mut typed = keep(c, &["name", "source"], &["name", "source"]);
                if let Some(r) = c.get("secretRef").filter(|r| r.is_object()) {
                    typed["secretRef"] = keep(r, &["name", "namespace"], &["name", "namespace"]);
                }
                typed
            })
            .collect();
        out.insert("credentials".into(), Json::Array(credentials));
    }
    if let Some(requirements) = step.get("requirements").filter(|r| r.is_object()) {
        let mut typed = Map::new();
        let list = |key: &str, fields: &[&str], always: &[&str]| -> Option<Json> {
            match requirements.get(key) {
                Some(Json::Array(l)) if !l.is_empty() => Some(Json::Array(
                    l.iter().map(|s| keep(s, fields, always)).collect(),
                )),
                _ => None,
            }
        };
        if let Some(l) = list(
            "requiredResources",
            &[
                "requirementName",
                "apiVersion",
                "kind",
                "name",
                "matchLabels",
                "namespace",
            ],
            &["requirementName", "apiVersion", "kind"],
        ) {
            typed.insert("requiredResources".into(), l);
        }
        if let Some(l) = list(
            "requiredSchemas",
            &["requirementName", "apiVersion", "kind"],
            &["requirementName", "apiVersion", "kind"],
        ) {
            typed.insert("requiredSchemas".into(), l);
        }
        out.insert("requirements".into(), Json::Object(typed));
    }
    Json::Object(out)
}

/// The `fields` of `object` (those in `always` even when empty, the others only when set):
/// a Go struct's JSON with `omitempty`.
fn keep(object: &Json, fields: &[&str], always: &[&str]) -> Json {
    let mut out = Map::new();
    for field in fields {
        match object.get(*field) {
            Some(v) if !is_empty(v) => {
                out.insert((*field).into(), v.clone());
            }
            _ if always.contains(field) => {
                out.insert((*field).into(), json!(""));
            }
            _ => {}
        }
    }
    Json::Object(out)
}

/// What Go's `omitempty` leaves out.
fn is_empty(value: &Json) -> bool {
    match value {
        Json::Null => true,
        Json::String(s) => s.is_empty(),
        Json::Array(a) => a.is_empty(),
        Json::Object(o) => o.is_empty(),
        Json::Bool(b) => !b,
        Json::Number(n) => n.as_f64() == Some(0.0),
    }
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
