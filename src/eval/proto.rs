//! The function protocol's messages (`RunFunctionRequest`, `RunFunctionResponse`) in
//! protobuf-JSON form, as plain serde types: camelCase names, enums by name, bytes as base64,
//! `Struct`s as plain JSON, durations as `"60s"`. Reading ignores unknown fields; writing omits
//! what protojson omits (empty strings, maps and lists, zero enums, unset messages).
//!
//! Numbers inside `Struct`s are protobuf doubles: [`struct_numbers`] puts a JSON value through
//! float64 and writes each number as Go's `encoding/json` and protojson do.

use crate::source::pointer::Pointer;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// A resource with its connection details (`fnv1.Resource`).
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Resource {
    /// The Kubernetes object (a protobuf `Struct`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<Json>,
    /// Connection details: base64 text in protobuf JSON.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub connection_details: BTreeMap<String, String>,
    /// `READY_UNSPECIFIED`, `READY_TRUE`, `READY_FALSE`.
    #[serde(skip_serializing_if = "is_unspecified")]
    pub ready: Option<String>,
}

impl Resource {
    /// A resource holding just this object.
    pub fn of(object: Json) -> Resource {
        Resource {
            resource: Some(object),
            ..Resource::default()
        }
    }
}

fn is_unspecified(ready: &Option<String>) -> bool {
    ready.as_deref().is_none_or(|r| r == "READY_UNSPECIFIED")
}

/// Observed or desired state (`fnv1.State`).
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct State {
    /// The composite resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub composite: Option<Resource>,
    /// Composed resources by name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub resources: BTreeMap<String, Resource>,
}

/// A list of resources (`fnv1.Resources`).
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Resources {
    /// The items.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<Resource>,
}

/// `RequestMeta`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct RequestMeta {
    /// An opaque tag the response echoes.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub tag: String,
    /// What the caller supports (`CAPABILITY_REQUIRED_RESOURCES`, …).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub capabilities: Vec<String>,
}

/// An OpenAPI schema a function asked for (`fnv1.Schema`).
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Schema {
    /// The schema (a protobuf `Struct`); absent when none was found.
    #[serde(rename = "openapiV3", skip_serializing_if = "Option::is_none")]
    pub openapi_v3: Option<Json>,
}

/// `RunFunctionRequest`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct RunFunctionRequest {
    /// Request metadata.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// Observed state.
    pub observed: State,
    /// Desired state so far.
    pub desired: Option<State>,
    /// The step's input (function-hcl's `HclInput`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<Json>,
    /// The pipeline context (a protobuf `Struct`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<Json>,
    /// Extra resources by requirement name (the v1 field function-hcl reads).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub extra_resources: BTreeMap<String, Resources>,
    /// Credentials by name (passed through, never read by function-hcl).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credentials: Option<Json>,
    /// Required resources (newer field; function-hcl's SDK does not read it).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub required_resources: BTreeMap<String, Resources>,
    /// Required schemas by requirement name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub required_schemas: BTreeMap<String, Schema>,
}

/// `ResponseMeta`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct ResponseMeta {
    /// The request's tag.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub tag: String,
    /// How long the response may be cached (`"60s"`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub ttl: String,
}

/// `Result`: an event for the composite resource.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct FunctionResult {
    /// `SEVERITY_FATAL`, `SEVERITY_WARNING` or `SEVERITY_NORMAL`.
    pub severity: String,
    /// What happened.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// A machine-readable reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `TARGET_COMPOSITE`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

/// `Condition`: a status condition for the composite resource.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Condition {
    /// The condition type (`FullyResolved`).
    #[serde(rename = "type")]
    pub kind: String,
    /// `STATUS_CONDITION_TRUE` or `STATUS_CONDITION_FALSE`.
    pub status: String,
    /// A CamelCase reason.
    pub reason: String,
    /// A human-readable message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// `TARGET_COMPOSITE`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

/// `MatchLabels`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct MatchLabels {
    /// The labels.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
}

/// `ResourceSelector`: what a requirement asks Crossplane to fetch.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct ResourceSelector {
    /// API version.
    pub api_version: String,
    /// Kind.
    pub kind: String,
    /// One resource by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_name: Option<String>,
    /// Resources by labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_labels: Option<MatchLabels>,
    /// The namespace to look in (namespaced kinds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
}

/// How many times a step is called for its requirements to settle (crossplane's
/// `MaxRequirementsIterations`).
pub const MAX_REQUIREMENTS_ITERATIONS: usize = 5;

impl ResourceSelector {
    /// crossplane's classic `FilteringFetcher`: the supplied resources sorted by name, those of
    /// the selector's apiVersion and kind, then by name or by labels. The namespace is ignored.
    pub fn select(&self, supplied: &[Json]) -> Resources {
        let text =
            |o: &Json, path: &str| o.at(path).and_then(Json::as_str).unwrap_or("").to_string();
        let mut candidates: Vec<&Json> = supplied
            .iter()
            .filter(|o| text(o, "/apiVersion") == self.api_version && text(o, "/kind") == self.kind)
            .collect();
        candidates.sort_by_key(|o| text(o, "/metadata/name"));
        let matches: Vec<&Json> = if let Some(name) = &self.match_name {
            candidates
                .into_iter()
                .filter(|o| text(o, "/metadata/name") == *name)
                .take(1)
                .collect()
        } else {
            let labels = self
                .match_labels
                .as_ref()
                .map(|m| m.labels.clone())
                .unwrap_or_default();
            candidates
                .into_iter()
                .filter(|o| {
                    labels.iter().all(|(k, v)| {
                        o.at("/metadata/labels")
                            .and_then(|l| l.get(k))
                            .and_then(Json::as_str)
                            == Some(v.as_str())
                    })
                })
                .collect()
        };
        Resources {
            items: matches
                .into_iter()
                .map(|o| Resource::of(o.clone()))
                .collect(),
        }
    }
}

/// `SchemaSelector`: the schema of one kind.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct SchemaSelector {
    /// API version.
    pub api_version: String,
    /// Kind.
    pub kind: String,
}

/// `Requirements`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Requirements {
    /// Selectors by requirement name (the deprecated field function-hcl uses).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub extra_resources: BTreeMap<String, ResourceSelector>,
    /// Selectors by requirement name (the current field).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub resources: BTreeMap<String, ResourceSelector>,
    /// Schemas by requirement name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub schemas: BTreeMap<String, SchemaSelector>,
}

impl Requirements {
    /// What each `extraResources` requirement selects from `supplied`, by name.
    pub fn select_extra(&self, supplied: &[Json]) -> BTreeMap<String, Resources> {
        select_each(&self.extra_resources, supplied)
    }

    /// What each `resources` requirement selects from `supplied`, by name.
    pub fn select_required(&self, supplied: &[Json]) -> BTreeMap<String, Resources> {
        select_each(&self.resources, supplied)
    }
}

/// What each selector selects from `supplied` ([`ResourceSelector::select`]), by name.
fn select_each(
    selectors: &BTreeMap<String, ResourceSelector>,
    supplied: &[Json],
) -> BTreeMap<String, Resources> {
    selectors
        .iter()
        .map(|(name, selector)| (name.clone(), selector.select(supplied)))
        .collect()
}

/// `RunFunctionResponse`, fields in protobuf order.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct RunFunctionResponse {
    /// Response metadata.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResponseMeta>,
    /// The desired state after this step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired: Option<State>,
    /// Events.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<FunctionResult>,
    /// The pipeline context after this step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<Json>,
    /// Resources the step needs fetched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requirements: Option<Requirements>,
    /// Status conditions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// An operation's output (a protobuf `Struct`; compositions have none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Json>,
}

/// Every number of `json` as the float64 a protobuf `Struct` holds, written as Go writes
/// float64s (`3`, `0.1`, `1e+21`); a number beyond float64's range becomes `null`.
pub fn struct_numbers(json: &Json) -> Json {
    match json {
        Json::Number(n) => n
            .to_string()
            .parse::<f64>()
            .ok()
            .and_then(go_float_json)
            .unwrap_or(Json::Null),
        Json::Array(items) => Json::Array(items.iter().map(struct_numbers).collect()),
        Json::Object(map) => Json::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), struct_numbers(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A float64 as a JSON number written like Go's `encoding/json`: shortest digits, plain
/// notation between 1e-6 and 1e21, otherwise `1e+21` / `1e-7`. `None` for ±Inf and NaN.
pub fn go_float_json(f: f64) -> Option<Json> {
    if !f.is_finite() {
        return None;
    }
    let text = go_float_text(f);
    serde_json::from_str(&text).ok()
}

/// Go's `strconv.FormatFloat(f, 'f' or 'e', -1, 64)` as `encoding/json` chooses it.
pub fn go_float_text(f: f64) -> String {
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        // Rust writes `1e21` and `1.5e-7`; Go writes `1e+21` and `1.5e-07`, then
        // encoding/json trims `e-07` to `e-7`.
        let text = format!("{f:e}");
        let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
        let (sign, digits) = match exp.strip_prefix('-') {
            Some(d) => ("-", d),
            None => ("+", exp),
        };
        let digits = if sign == "+" && digits.len() < 2 {
            format!("0{digits}")
        } else {
            digits.to_string()
        };
        format!("{mantissa}e{sign}{digits}")
    } else if f == 0.0 {
        if f.is_sign_negative() { "-0" } else { "0" }.to_string()
    } else {
        format!("{f}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_are_written_as_go_writes_them() {
        for (f, want) in [
            (3.0, "3"),
            (0.1, "0.1"),
            (66.66666666666667, "66.66666666666667"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (-2.5e300, "-2.5e+300"),
            (0.0, "0"),
        ] {
            assert_eq!(go_float_text(f), want, "{f}");
        }
    }

    #[test]
    fn responses_omit_what_protojson_omits() {
        let response = RunFunctionResponse {
            meta: Some(ResponseMeta {
                tag: String::new(),
                ttl: "60s".into(),
            }),
            desired: Some(State::default()),
            results: vec![FunctionResult {
                severity: "SEVERITY_NORMAL".into(),
                message: "ok".into(),
                reason: None,
                target: Some("TARGET_COMPOSITE".into()),
            }],
            ..RunFunctionResponse::default()
        };
        assert_eq!(
            serde_json::to_string(&response).unwrap(),
            r#"{"meta":{"ttl":"60s"},"desired":{},"results":[{"severity":"SEVERITY_NORMAL","message":"ok","target":"TARGET_COMPOSITE"}]}"#
        );
        let ready = Resource {
            ready: Some("READY_UNSPECIFIED".into()),
            ..Resource::default()
        };
        assert_eq!(serde_json::to_string(&ready).unwrap(), "{}");
    }

    #[test]
    fn struct_numbers_pass_through_float64() {
        let json: Json = serde_json::from_str(r#"{"a":[3.0,1e400,0.30000000000000004]}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&struct_numbers(&json)).unwrap(),
            r#"{"a":[3,null,0.30000000000000004]}"#
        );
    }
}
