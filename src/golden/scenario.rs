//! Reconcile scenarios: what Crossplane would observe after a render, so a test can render
//! again as the next reconcile does. The desired composed resources become the observed ones
//! (named as Crossplane names them, controlled by the XR, `Ready` and `Synced` unless the step
//! says otherwise, with the status fields the step gives), and the XR carries the status the
//! render wrote. [`converge`] repeats renders until the output stops changing.

use crate::render::names::child_name;
use crate::source::pointer::Pointer;
use serde_json::{Map, Value as Json, json};
use std::collections::{BTreeMap, BTreeSet};

/// The `lastTransitionTime` of the conditions a scenario writes (the render's fixed time, so
/// outputs stay comparable).
pub const TRANSITION_TIME: &str = "2024-01-01T00:00:00Z";

use crate::render::RESOURCE_NAME_ANNOTATION as RESOURCE_NAME;

/// What one step says about the composed resources Crossplane observes, by composition
/// resource name (a collection member's name, e.g. `subnet-0`).
#[derive(Clone, Debug, Default)]
pub struct Observe {
    /// Resources observed but not ready (`Ready` is `False`, reason `Creating`); every other
    /// observed resource is ready.
    pub unready: BTreeSet<String>,
    /// Resources not observed yet (as if their creation had not been seen).
    pub absent: BTreeSet<String>,
    /// Fields merged into a resource's `status` (maps merged key by key, the rest replaced),
    /// e.g. `bucket` → `{atProvider: {arn: …}}`.
    pub status: BTreeMap<String, Json>,
    /// Connection details of a resource (kept on the observed document as the annotation
    /// fnhcl's render reads them from, see [`CONNECTION_ANNOTATION`]).
    pub connection: BTreeMap<String, BTreeMap<String, String>>,
}

/// The annotation a scenario's observed document carries its connection details in (a JSON
/// object of strings); render strips it from the document before the function sees it.
pub use crate::render::CONNECTION_ANNOTATION;

/// A render's output stream split into its parts.
#[derive(Clone, Debug, Default)]
pub struct Output {
    /// The XR as rendered (the first document).
    pub xr: Json,
    /// The composed resources.
    pub composed: Vec<Json>,
    /// `Result` documents.
    pub results: Vec<Json>,
    /// The `Context` document's `fields`, when there is one.
    pub context: Option<Json>,
}

/// Whether a document is one of render's own (`Result`, `Context`).
fn render_kind(doc: &Json, kind: &str) -> bool {
    doc.get("apiVersion").and_then(Json::as_str) == Some("render.crossplane.io/v1beta1")
        && doc.get("kind").and_then(Json::as_str) == Some(kind)
}

/// Splits a render's documents: the XR first, then composed resources, `Result`s and the
/// `Context`.
pub fn split(documents: &[Json]) -> Output {
    let mut out = Output::default();
    let mut docs = documents.iter();
    if let Some(xr) = docs.next() {
        out.xr = xr.clone();
    }
    for doc in docs {
        if render_kind(doc, "Result") {
            out.results.push(doc.clone());
        } else if render_kind(doc, "Context") {
            out.context = Some(doc.get("fields").cloned().unwrap_or(Json::Null));
        } else {
            out.composed.push(doc.clone());
        }
    }
    out
}

/// The composition resource name of a composed document.
pub fn resource_name(doc: &Json) -> Option<&str> {
    doc.at("/metadata/annotations")
        .and_then(|a| a.get(RESOURCE_NAME))
        .and_then(Json::as_str)
}

/// Merges `patch` into `target`: maps key by key, anything else replaced.
pub fn merge(target: &mut Json, patch: &Json) {
    match (target, patch) {
        (Json::Object(target), Json::Object(patch)) => {
            for (key, value) in patch {
                match target.get_mut(key) {
                    Some(existing) => merge(existing, value),
                    None => {
                        target.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (target, patch) => *target = patch.clone(),
    }
}

/// A condition as Crossplane writes it.
fn condition(kind: &str, ready: bool, reason: &str) -> Json {
    json!({
        "type": kind,
        "status": if ready { "True" } else { "False" },
        "reason": reason,
        "lastTransitionTime": TRANSITION_TIME,
    })
}

/// Sets (replaces or adds) a condition of `status.conditions`, keeping the others in order.
fn set_condition(status: &mut Map<String, Json>, new: Json) {
    let kind = new.get("type").cloned();
    let conditions = status
        .entry("conditions")
        .or_insert_with(|| Json::Array(Vec::new()));
    if !conditions.is_array() {
        *conditions = Json::Array(Vec::new());
    }
    let Json::Array(list) = conditions else {
        return;
    };
    match list.iter_mut().find(|c| c.get("type") == kind.as_ref()) {
        Some(existing) => *existing = new,
        None => list.push(new),
    }
}

/// The XR's identity: (name, uid) for composed names and owner references.
fn xr_identity(xr: &Json) -> (String, String) {
    let field = |key: &str| {
        xr.at(&format!("/metadata/{key}"))
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let name = field("name");
    let mut uid = field("uid");
    if uid.is_empty() {
        let text = |key: &str| xr.get(key).and_then(Json::as_str).unwrap_or_default();
        uid = crate::render::names::xr_uid(
            text("apiVersion"),
            text("kind"),
            &field("namespace"),
            &name,
        );
    }
    (name, uid)
}

/// The XR of the next reconcile: the input XR with the status the render wrote.
pub fn next_xr(input: &Json, rendered: &Output) -> Json {
    let mut xr = input.clone();
    if let (Json::Object(xr), Some(status)) = (&mut xr, rendered.xr.get("status")) {
        xr.insert("status".into(), status.clone());
    }
    xr
}

/// The composed resources Crossplane observes after applying a render's desired ones:
/// each named (its own name, else the engine's child name of the XR), with the status it had
/// when `previous` observed it, the step's status fields and `Ready`/`Synced` conditions.
pub fn next_observed(xr: &Json, rendered: &Output, previous: &[Json], step: &Observe) -> Vec<Json> {
    let (xr_name, xr_uid) = xr_identity(xr);
    let mut out = Vec::new();
    for desired in &rendered.composed {
        let name = resource_name(desired).unwrap_or_default().to_string();
        if step.absent.contains(&name) {
            continue;
        }
        let mut doc = desired.clone();
        let Json::Object(fields) = &mut doc else {
            continue;
        };
        let metadata = fields
            .entry("metadata")
            .or_insert_with(|| Json::Object(Map::new()));
        if let Json::Object(metadata) = metadata {
            let has_name = metadata
                .get("name")
                .and_then(Json::as_str)
                .is_some_and(|n| !n.is_empty());
            if !has_name {
                metadata.insert("name".into(), child_name(&xr_name, &xr_uid, &name).into());
            }
            if let Some(details) = step.connection.get(&name) {
                let annotations = metadata
                    .entry("annotations")
                    .or_insert_with(|| Json::Object(Map::new()));
                if let Json::Object(annotations) = annotations {
                    let text = serde_json::to_string(details).unwrap_or_default();
                    annotations.insert(CONNECTION_ANNOTATION.into(), text.into());
                }
            }
        }
        let mut status = previous
            .iter()
            .find(|p| resource_name(p) == Some(name.as_str()))
            .and_then(|p| p.get("status"))
            .cloned()
            .unwrap_or_else(|| Json::Object(Map::new()));
        if let Some(patch) = step.status.get(&name) {
            merge(&mut status, patch);
        }
        if !status.is_object() {
            status = Json::Object(Map::new());
        }
        if let Json::Object(status) = &mut status {
            let ready = !step.unready.contains(&name);
            set_condition(
                status,
                condition("Ready", ready, if ready { "Available" } else { "Creating" }),
            );
            set_condition(status, condition("Synced", true, "ReconcileSuccess"));
        }
        fields.insert("status".into(), status);
        out.push(doc);
    }
    out
}

/// How a converge loop ended.
#[derive(Clone, Debug)]
pub enum Converged<E> {
    /// The output of step `steps` equals that of the step before it.
    After {
        /// Renders done (the last two equal).
        steps: usize,
        /// The last output.
        documents: Vec<Json>,
    },
    /// `max` renders and the output still changes: the last two outputs.
    Never {
        /// The output before the last.
        before: Vec<Json>,
        /// The last output.
        last: Vec<Json>,
    },
    /// A render failed at this step (1-based).
    Failed {
        /// The step.
        step: usize,
        /// Why.
        error: E,
    },
}

/// Renders until the output stops changing: `render(xr, observed)` is called with the XR
/// and observed resources of each reconcile, starting from `xr` and `observed`, feeding each
/// output back through [`next_xr`] and [`next_observed`] (every resource ready). At most
/// `max` renders.
pub fn converge<E>(
    xr: &Json,
    observed: &[Json],
    max: usize,
    mut render: impl FnMut(&Json, &[Json]) -> Result<Vec<Json>, E>,
) -> Converged<E> {
    let mut xr = xr.clone();
    let mut observed = observed.to_vec();
    let mut last: Option<Vec<Json>> = None;
    for step in 1..=max.max(1) {
        let documents = match render(&xr, &observed) {
            Ok(documents) => documents,
            Err(error) => return Converged::Failed { step, error },
        };
        if last.as_ref() == Some(&documents) {
            return Converged::After {
                steps: step,
                documents,
            };
        }
        let output = split(&documents);
        observed = next_observed(&xr, &output, &observed, &Observe::default());
        xr = next_xr(&xr, &output);
        if step == max.max(1) {
            return Converged::Never {
                before: last.unwrap_or_default(),
                last: documents,
            };
        }
        last = Some(documents);
    }
    unreachable!("the loop returns at its last step")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered() -> Output {
        split(&[
            json!({"apiVersion": "x/v1", "kind": "XR", "metadata": {"name": "a"},
                   "status": {"conditions": [{"type": "Ready", "status": "False"}]}}),
            json!({"apiVersion": "s3/v1", "kind": "Bucket",
                   "metadata": {"annotations": {RESOURCE_NAME: "bucket"}}, "spec": {}}),
            json!({"apiVersion": "render.crossplane.io/v1beta1", "kind": "Result", "message": "m"}),
            json!({"apiVersion": "render.crossplane.io/v1beta1", "kind": "Context", "fields": {"k": 1}}),
        ])
    }

    #[test]
    fn split_sorts_the_stream() {
        let out = rendered();
        assert_eq!(out.composed.len(), 1);
        assert_eq!(out.results.len(), 1);
        assert_eq!(out.context, Some(json!({"k": 1})));
    }

    #[test]
    fn desired_becomes_observed_ready_and_named() {
        let xr =
            json!({"apiVersion": "x/v1", "kind": "XR", "metadata": {"name": "a", "uid": "u-1"}});
        let mut step = Observe::default();
        step.status
            .insert("bucket".into(), json!({"atProvider": {"arn": "arn:1"}}));
        let observed = next_observed(&xr, &rendered(), &[], &step);
        assert_eq!(observed.len(), 1);
        let doc = &observed[0];
        assert_eq!(
            doc.at("/metadata/name"),
            Some(&json!(child_name("a", "u-1", "bucket")))
        );
        assert_eq!(doc.at("/status/atProvider/arn"), Some(&json!("arn:1")));
        assert_eq!(doc.at("/status/conditions/0/type"), Some(&json!("Ready")));
        assert_eq!(doc.at("/status/conditions/0/status"), Some(&json!("True")));
        assert_eq!(doc.at("/status/conditions/1/type"), Some(&json!("Synced")));
        // The status observed before is kept; the step's fields merge into it.
        let mut later = Observe::default();
        later.unready.insert("bucket".into());
        let again = next_observed(&xr, &rendered(), &observed, &later);
        assert_eq!(again[0].at("/status/atProvider/arn"), Some(&json!("arn:1")));
        assert_eq!(
            again[0].at("/status/conditions/0/status"),
            Some(&json!("False"))
        );
        let mut gone = Observe::default();
        gone.absent.insert("bucket".into());
        assert!(next_observed(&xr, &rendered(), &[], &gone).is_empty());
    }

    #[test]
    fn next_xr_takes_the_rendered_status() {
        let xr = json!({"apiVersion": "x/v1", "kind": "XR", "spec": {"a": 1}});
        let next = next_xr(&xr, &rendered());
        assert_eq!(next.at("/spec/a"), Some(&json!(1)));
        assert_eq!(
            next.at("/status/conditions/0/status"),
            Some(&json!("False"))
        );
    }

    #[test]
    fn converge_stops_when_output_repeats_or_at_max() {
        // Output depends on how many resources are observed: stable from the second render.
        let render = |_: &Json, observed: &[Json]| -> Result<Vec<Json>, ()> {
            let ready = !observed.is_empty();
            Ok(vec![
                json!({"kind": "XR", "metadata": {"name": "a"}, "status": {"ready": ready}}),
                json!({"kind": "B", "metadata": {"name": "b", "annotations": {RESOURCE_NAME: "b"}}}),
            ])
        };
        let xr = json!({"kind": "XR", "metadata": {"name": "a"}});
        match converge(&xr, &[], 5, render) {
            Converged::After { steps, .. } => assert_eq!(steps, 3),
            other => panic!("{other:?}"),
        }
        let mut n = 0;
        let counting = |_: &Json, _: &[Json]| -> Result<Vec<Json>, ()> {
            n += 1;
            Ok(vec![json!({"n": n})])
        };
        match converge(&xr, &[], 3, counting) {
            Converged::Never { before, last } => {
                assert_eq!(before, vec![json!({"n": 2})]);
                assert_eq!(last, vec![json!({"n": 3})]);
            }
            other => panic!("{other:?}"),
        }
    }
}
