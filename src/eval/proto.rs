//! The function protocol's messages in protobuf-JSON form (`RunFunctionRequest` and the parts of
//! it function-hcl reads), as plain serde types. Unknown fields are ignored.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A resource with its connection details (`fnv1.Resource`).
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Resource {
    /// The Kubernetes object (a protobuf `Struct`).
    pub resource: Option<serde_json::Value>,
    /// Connection details: base64 text in protobuf JSON.
    pub connection_details: BTreeMap<String, String>,
    /// `READY_UNSPECIFIED`, `READY_TRUE`, `READY_FALSE`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready: Option<String>,
}

/// Observed or desired state (`fnv1.State`).
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct State {
    /// The composite resource.
    pub composite: Option<Resource>,
    /// Composed resources by name.
    pub resources: BTreeMap<String, Resource>,
}

/// A list of resources (`fnv1.Resources`).
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Resources {
    /// The items.
    pub items: Vec<Resource>,
}

/// `RunFunctionRequest`, the fields function-hcl uses.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct RunFunctionRequest {
    /// Observed state.
    pub observed: State,
    /// Desired state so far.
    pub desired: State,
    /// The step's input (function-hcl's `HclInput`).
    pub input: Option<serde_json::Value>,
    /// The pipeline context (a protobuf `Struct`).
    pub context: Option<serde_json::Value>,
    /// Extra resources by requirement name (the v1 field function-hcl reads).
    pub extra_resources: BTreeMap<String, Resources>,
    /// Required resources (newer field; function-hcl's SDK does not read it).
    pub required_resources: BTreeMap<String, Resources>,
}
