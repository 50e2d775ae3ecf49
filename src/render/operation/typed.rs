//! The Operation as the CLI prints it: the status the reconciler keeps (conditions as
//! crossplane-runtime sets them, step outputs, applied references) and the Operation decoded
//! into its Go type, so that only its known fields, with Go's `omitempty`, are written.

use super::OperationOptions;
use crate::render::TRANSITION_TIME;
use crate::source::pointer::Pointer;
use serde_json::{Map, Value as Json, json};

/// The Operation's status as the reconciler keeps it (its typed fields only).
pub(super) struct Status {
    pub(super) conditions: Vec<Json>,
    pub(super) failures: i64,
    pub(super) pipeline: Vec<Json>,
    pub(super) applied: Vec<Json>,
    pub(super) generation: i64,
}

impl Status {
    pub(super) fn of(operation: &Json, generation: i64) -> Status {
        let list = |key: &str| {
            operation
                .at(&format!("/status/{key}"))
                .and_then(Json::as_array)
                .cloned()
                .unwrap_or_default()
        };
        Status {
            conditions: list("conditions").iter().map(typed_condition).collect(),
            failures: operation
                .at("/status/failures")
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
    pub(super) fn is_complete(&self) -> bool {
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
    pub(super) fn mark(&mut self, mut condition: Json) {
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
    pub(super) fn step_output(&mut self, step: &str, output: Json) {
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
    pub(super) fn applied_ref(&mut self, body: &Json) {
        let text = |p: &str| body.at(p).and_then(Json::as_str).unwrap_or("");
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

    pub(super) fn to_json(&self) -> Json {
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
pub(super) fn condition(kind: &str, status: &str, reason: &str, message: &str) -> Json {
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
pub(super) fn output_operation(
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
    let function = step.at("/functionRef/name").cloned().unwrap_or(json!(""));
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
