//! The function protocol's messages in protobuf form (`apiextensions.fn.proto.v1`, the same
//! messages as `v1beta1`), written from the protocol's field numbers (crossplane v2.2.4
//! `proto/fn/v1/run_function.proto`) with prost's derives: no `protoc`, no generated code.
//! Enums are kept as their `i32` wire values, as prost does; the sibling module `convert`
//! turns these messages into the protobuf-JSON types of [`crate::eval::proto`] and back.

use prost_types::{Duration, Struct};
use std::collections::BTreeMap;

/// `RunFunctionRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RunFunctionRequest {
    /// Field 1.
    #[prost(message, optional, tag = "1")]
    pub meta: Option<RequestMeta>,
    /// Field 2.
    #[prost(message, optional, tag = "2")]
    pub observed: Option<State>,
    /// Field 3.
    #[prost(message, optional, tag = "3")]
    pub desired: Option<State>,
    /// Field 4.
    #[prost(message, optional, tag = "4")]
    pub input: Option<Struct>,
    /// Field 5.
    #[prost(message, optional, tag = "5")]
    pub context: Option<Struct>,
    /// Field 6 (deprecated by `required_resources`, still sent).
    #[prost(btree_map = "string, message", tag = "6")]
    pub extra_resources: BTreeMap<String, Resources>,
    /// Field 7.
    #[prost(btree_map = "string, message", tag = "7")]
    pub credentials: BTreeMap<String, Credentials>,
    /// Field 8.
    #[prost(btree_map = "string, message", tag = "8")]
    pub required_resources: BTreeMap<String, Resources>,
    /// Field 9.
    #[prost(btree_map = "string, message", tag = "9")]
    pub required_schemas: BTreeMap<String, Schema>,
}

/// `Credentials`: a oneof with one member.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Credentials {
    /// `credential_data` (field 1).
    #[prost(oneof = "CredentialSource", tags = "1")]
    pub source: Option<CredentialSource>,
}

/// The `source` oneof of [`Credentials`].
#[derive(Clone, PartialEq, prost::Oneof)]
pub enum CredentialSource {
    /// Field 1.
    #[prost(message, tag = "1")]
    CredentialData(CredentialData),
}

/// `CredentialData`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CredentialData {
    /// Field 1.
    #[prost(btree_map = "string, bytes", tag = "1")]
    pub data: BTreeMap<String, Vec<u8>>,
}

/// `Resources`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Resources {
    /// Field 1.
    #[prost(message, repeated, tag = "1")]
    pub items: Vec<Resource>,
}

/// `Schema`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Schema {
    /// `openapi_v3` (field 1).
    #[prost(message, optional, tag = "1")]
    pub openapi_v3: Option<Struct>,
}

/// `RunFunctionResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RunFunctionResponse {
    /// Field 1.
    #[prost(message, optional, tag = "1")]
    pub meta: Option<ResponseMeta>,
    /// Field 2.
    #[prost(message, optional, tag = "2")]
    pub desired: Option<State>,
    /// Field 3.
    #[prost(message, repeated, tag = "3")]
    pub results: Vec<FunctionResult>,
    /// Field 4.
    #[prost(message, optional, tag = "4")]
    pub context: Option<Struct>,
    /// Field 5.
    #[prost(message, optional, tag = "5")]
    pub requirements: Option<Requirements>,
    /// Field 6.
    #[prost(message, repeated, tag = "6")]
    pub conditions: Vec<Condition>,
    /// Field 7 (operations only).
    #[prost(message, optional, tag = "7")]
    pub output: Option<Struct>,
}

/// `RequestMeta`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RequestMeta {
    /// Field 1.
    #[prost(string, tag = "1")]
    pub tag: String,
    /// Field 2: [`Capability`] values.
    #[prost(enumeration = "Capability", repeated, tag = "2")]
    pub capabilities: Vec<i32>,
}

/// `Capability`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum Capability {
    /// 0.
    Unspecified = 0,
    /// 1.
    Capabilities = 1,
    /// 2.
    RequiredResources = 2,
    /// 3.
    Credentials = 3,
    /// 4.
    Conditions = 4,
    /// 5.
    RequiredSchemas = 5,
}

/// `Requirements`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Requirements {
    /// Field 1 (deprecated by `resources`).
    #[prost(btree_map = "string, message", tag = "1")]
    pub extra_resources: BTreeMap<String, ResourceSelector>,
    /// Field 2.
    #[prost(btree_map = "string, message", tag = "2")]
    pub resources: BTreeMap<String, ResourceSelector>,
    /// Field 3.
    #[prost(btree_map = "string, message", tag = "3")]
    pub schemas: BTreeMap<String, SchemaSelector>,
}

/// `SchemaSelector`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SchemaSelector {
    /// Field 1.
    #[prost(string, tag = "1")]
    pub api_version: String,
    /// Field 2.
    #[prost(string, tag = "2")]
    pub kind: String,
}

/// `ResourceSelector`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ResourceSelector {
    /// Field 1.
    #[prost(string, tag = "1")]
    pub api_version: String,
    /// Field 2.
    #[prost(string, tag = "2")]
    pub kind: String,
    /// Fields 3 and 4.
    #[prost(oneof = "Match", tags = "3, 4")]
    pub r#match: Option<Match>,
    /// Field 5.
    #[prost(string, optional, tag = "5")]
    pub namespace: Option<String>,
}

/// The `match` oneof of [`ResourceSelector`].
#[derive(Clone, PartialEq, prost::Oneof)]
pub enum Match {
    /// `match_name` (field 3).
    #[prost(string, tag = "3")]
    MatchName(String),
    /// `match_labels` (field 4).
    #[prost(message, tag = "4")]
    MatchLabels(MatchLabels),
}

/// `MatchLabels`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MatchLabels {
    /// Field 1.
    #[prost(btree_map = "string, string", tag = "1")]
    pub labels: BTreeMap<String, String>,
}

/// `ResponseMeta`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ResponseMeta {
    /// Field 1.
    #[prost(string, tag = "1")]
    pub tag: String,
    /// Field 2.
    #[prost(message, optional, tag = "2")]
    pub ttl: Option<Duration>,
}

/// `State`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct State {
    /// Field 1.
    #[prost(message, optional, tag = "1")]
    pub composite: Option<Resource>,
    /// Field 2.
    #[prost(btree_map = "string, message", tag = "2")]
    pub resources: BTreeMap<String, Resource>,
}

/// `Resource`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Resource {
    /// Field 1.
    #[prost(message, optional, tag = "1")]
    pub resource: Option<Struct>,
    /// Field 2.
    #[prost(btree_map = "string, bytes", tag = "2")]
    pub connection_details: BTreeMap<String, Vec<u8>>,
    /// Field 3: a [`Ready`] value.
    #[prost(enumeration = "Ready", tag = "3")]
    pub ready: i32,
}

/// `Ready`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum Ready {
    /// 0.
    Unspecified = 0,
    /// 1.
    True = 1,
    /// 2.
    False = 2,
}

/// `Result` (named so as not to shadow Rust's).
#[derive(Clone, PartialEq, prost::Message)]
pub struct FunctionResult {
    /// Field 1: a [`Severity`] value.
    #[prost(enumeration = "Severity", tag = "1")]
    pub severity: i32,
    /// Field 2.
    #[prost(string, tag = "2")]
    pub message: String,
    /// Field 3.
    #[prost(string, optional, tag = "3")]
    pub reason: Option<String>,
    /// Field 4: a [`Target`] value.
    #[prost(enumeration = "Target", optional, tag = "4")]
    pub target: Option<i32>,
}

/// `Severity`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum Severity {
    /// 0.
    Unspecified = 0,
    /// 1.
    Fatal = 1,
    /// 2.
    Warning = 2,
    /// 3.
    Normal = 3,
}

/// `Target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum Target {
    /// 0.
    Unspecified = 0,
    /// 1.
    Composite = 1,
    /// 2.
    CompositeAndClaim = 2,
}

/// `Condition`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Condition {
    /// `type` (field 1).
    #[prost(string, tag = "1")]
    pub kind: String,
    /// Field 2: a [`Status`] value.
    #[prost(enumeration = "Status", tag = "2")]
    pub status: i32,
    /// Field 3.
    #[prost(string, tag = "3")]
    pub reason: String,
    /// Field 4.
    #[prost(string, optional, tag = "4")]
    pub message: Option<String>,
    /// Field 5: a [`Target`] value.
    #[prost(enumeration = "Target", optional, tag = "5")]
    pub target: Option<i32>,
}

/// `Status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum Status {
    /// 0.
    ConditionUnspecified = 0,
    /// 1.
    ConditionUnknown = 1,
    /// 2.
    ConditionTrue = 2,
    /// 3.
    ConditionFalse = 3,
}
