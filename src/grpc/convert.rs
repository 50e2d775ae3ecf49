//! Protobuf messages ([`super::pb`]) to and from the protobuf-JSON types of
//! [`crate::eval::proto`], following protojson: enums by name, `bytes` as base64, durations as
//! `"60s"`, `Struct`s as plain JSON whose numbers are doubles (written as Go writes them).

use super::pb;
use crate::eval::proto::{self, go_float_json};
use crate::source::pointer::Pointer;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use prost_types::value::Kind;
use prost_types::{ListValue, Struct, Value};
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// Why a JSON message cannot become a protobuf one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct ConvertError {
    /// The protobuf-JSON field.
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

fn error(field: &str, message: impl Into<String>) -> ConvertError {
    ConvertError {
        field: field.to_string(),
        message: message.into(),
    }
}

// ---------------------------------------------------------------------------------------------
// Struct

/// A JSON object as a `google.protobuf.Struct`; `None` for anything else.
pub fn to_struct(json: &Json) -> Option<Struct> {
    match json {
        Json::Object(map) => Some(Struct {
            fields: map.iter().map(|(k, v)| (k.clone(), to_value(v))).collect(),
        }),
        _ => None,
    }
}

/// How much stack a step of the value conversions may leave before it grows more: values nest
/// up to 1,000 levels (`grpc::codec::MAX_DEPTH`), on whatever thread converts them.
const RED_ZONE: usize = 64 * 1024;
const GROW_BY: usize = 1024 * 1024;

fn to_value(json: &Json) -> Value {
    stacker::maybe_grow(RED_ZONE, GROW_BY, || to_value_here(json))
}

fn to_value_here(json: &Json) -> Value {
    let kind = match json {
        Json::Null => Kind::NullValue(0),
        Json::Bool(b) => Kind::BoolValue(*b),
        Json::Number(n) => Kind::NumberValue(n.to_string().parse::<f64>().unwrap_or(f64::NAN)),
        Json::String(s) => Kind::StringValue(s.clone()),
        Json::Array(items) => Kind::ListValue(ListValue {
            values: items.iter().map(to_value).collect(),
        }),
        Json::Object(_) => Kind::StructValue(to_struct(json).unwrap_or_default()),
    };
    Value { kind: Some(kind) }
}

/// A `google.protobuf.Struct` as JSON, numbers written as protojson writes doubles.
pub fn from_struct(s: &Struct) -> Json {
    Json::Object(
        s.fields
            .iter()
            .map(|(k, v)| (k.clone(), from_value(v)))
            .collect(),
    )
}

fn from_value(value: &Value) -> Json {
    stacker::maybe_grow(RED_ZONE, GROW_BY, || from_value_here(value))
}

fn from_value_here(value: &Value) -> Json {
    match &value.kind {
        None | Some(Kind::NullValue(_)) => Json::Null,
        Some(Kind::BoolValue(b)) => Json::Bool(*b),
        // protojson writes non-finite doubles as strings.
        Some(Kind::NumberValue(f)) => go_float_json(*f).unwrap_or_else(|| {
            Json::String(
                if f.is_nan() {
                    "NaN"
                } else if *f > 0.0 {
                    "Infinity"
                } else {
                    "-Infinity"
                }
                .into(),
            )
        }),
        Some(Kind::StringValue(s)) => Json::String(s.clone()),
        Some(Kind::ListValue(list)) => Json::Array(list.values.iter().map(from_value).collect()),
        Some(Kind::StructValue(s)) => from_struct(s),
    }
}

fn struct_field(field: &str, json: &Option<Json>) -> Result<Option<Struct>, ConvertError> {
    match json {
        None => Ok(None),
        Some(json) => to_struct(json)
            .map(Some)
            .ok_or_else(|| error(field, "not a JSON object")),
    }
}

// ---------------------------------------------------------------------------------------------
// enums, bytes, durations

const READY: [&str; 3] = ["READY_UNSPECIFIED", "READY_TRUE", "READY_FALSE"];
const SEVERITY: [&str; 4] = [
    "SEVERITY_UNSPECIFIED",
    "SEVERITY_FATAL",
    "SEVERITY_WARNING",
    "SEVERITY_NORMAL",
];
const TARGET: [&str; 3] = [
    "TARGET_UNSPECIFIED",
    "TARGET_COMPOSITE",
    "TARGET_COMPOSITE_AND_CLAIM",
];
const CAPABILITY: [&str; 6] = [
    "CAPABILITY_UNSPECIFIED",
    "CAPABILITY_CAPABILITIES",
    "CAPABILITY_REQUIRED_RESOURCES",
    "CAPABILITY_CREDENTIALS",
    "CAPABILITY_CONDITIONS",
    "CAPABILITY_REQUIRED_SCHEMAS",
];
const STATUS: [&str; 4] = [
    "STATUS_CONDITION_UNSPECIFIED",
    "STATUS_CONDITION_UNKNOWN",
    "STATUS_CONDITION_TRUE",
    "STATUS_CONDITION_FALSE",
];

/// An enum's wire value from its protojson name (or its number, which protojson also reads).
fn enum_value(field: &str, names: &[&str], name: &str) -> Result<i32, ConvertError> {
    if let Some(i) = names.iter().position(|n| *n == name) {
        return Ok(i as i32);
    }
    name.parse::<i32>()
        .map_err(|_| error(field, format!("unknown enum value {name:?}")))
}

/// An enum's protojson name (the number for a value this version does not know, as protojson).
fn enum_name(names: &[&str], value: i32) -> String {
    usize::try_from(value)
        .ok()
        .and_then(|i| names.get(i))
        .map_or_else(|| value.to_string(), |n| (*n).to_string())
}

fn decode_bytes(
    field: &str,
    map: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, Vec<u8>>, ConvertError> {
    map.iter()
        .map(|(k, v)| {
            BASE64
                .decode(v)
                .map(|bytes| (k.clone(), bytes))
                .map_err(|e| error(&format!("{field}.{k}"), format!("not base64: {e}")))
        })
        .collect()
}

fn encode_bytes(map: &BTreeMap<String, Vec<u8>>) -> BTreeMap<String, String> {
    map.iter()
        .map(|(k, v)| (k.clone(), BASE64.encode(v)))
        .collect()
}

/// A protojson duration (`"60s"`, `"1.5s"`, `"-0.001s"`).
fn parse_duration(text: &str) -> Result<prost_types::Duration, ConvertError> {
    let bad = || error("meta.ttl", format!("not a duration: {text:?}"));
    let body = text.strip_suffix('s').ok_or_else(bad)?;
    let (neg, body) = match body.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, body),
    };
    let (whole, frac) = body.split_once('.').unwrap_or((body, ""));
    if whole.is_empty() || frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let seconds: i64 = whole.parse().map_err(|_| bad())?;
    let nanos: i32 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<9}").parse().map_err(|_| bad())?
    };
    Ok(if neg {
        prost_types::Duration {
            seconds: -seconds,
            nanos: -nanos,
        }
    } else {
        prost_types::Duration { seconds, nanos }
    })
}

/// A duration as protojson writes it: seconds, then 0, 3, 6 or 9 fractional digits.
fn format_duration(d: &prost_types::Duration) -> String {
    let neg = d.seconds < 0 || d.nanos < 0;
    let (seconds, nanos) = (d.seconds.unsigned_abs(), d.nanos.unsigned_abs());
    let sign = if neg { "-" } else { "" };
    if nanos == 0 {
        return format!("{sign}{seconds}s");
    }
    let frac = if nanos % 1_000_000 == 0 {
        format!("{:03}", nanos / 1_000_000)
    } else if nanos % 1_000 == 0 {
        format!("{:06}", nanos / 1_000)
    } else {
        format!("{nanos:09}")
    };
    format!("{sign}{seconds}.{frac}s")
}

// ---------------------------------------------------------------------------------------------
// messages

fn resource_to_pb(field: &str, r: &proto::Resource) -> Result<pb::Resource, ConvertError> {
    Ok(pb::Resource {
        resource: struct_field(&format!("{field}.resource"), &r.resource)?,
        connection_details: decode_bytes(
            &format!("{field}.connectionDetails"),
            &r.connection_details,
        )?,
        ready: match &r.ready {
            Some(name) => enum_value(&format!("{field}.ready"), &READY, name)?,
            None => 0,
        },
    })
}

fn resource_from_pb(r: &pb::Resource) -> proto::Resource {
    proto::Resource {
        resource: r.resource.as_ref().map(from_struct),
        connection_details: encode_bytes(&r.connection_details),
        ready: (r.ready != 0).then(|| enum_name(&READY, r.ready)),
    }
}

fn state_to_pb(field: &str, s: &proto::State) -> Result<pb::State, ConvertError> {
    Ok(pb::State {
        composite: s
            .composite
            .as_ref()
            .map(|c| resource_to_pb(&format!("{field}.composite"), c))
            .transpose()?,
        resources: s
            .resources
            .iter()
            .map(|(k, r)| {
                Ok((
                    k.clone(),
                    resource_to_pb(&format!("{field}.resources.{k}"), r)?,
                ))
            })
            .collect::<Result<_, ConvertError>>()?,
    })
}

fn state_from_pb(s: &pb::State) -> proto::State {
    proto::State {
        composite: s.composite.as_ref().map(resource_from_pb),
        resources: s
            .resources
            .iter()
            .map(|(k, r)| (k.clone(), resource_from_pb(r)))
            .collect(),
    }
}

fn resources_to_pb(
    field: &str,
    map: &BTreeMap<String, proto::Resources>,
) -> Result<BTreeMap<String, pb::Resources>, ConvertError> {
    map.iter()
        .map(|(k, rs)| {
            let items = rs
                .items
                .iter()
                .enumerate()
                .map(|(i, r)| resource_to_pb(&format!("{field}.{k}.items[{i}]"), r))
                .collect::<Result<_, _>>()?;
            Ok((k.clone(), pb::Resources { items }))
        })
        .collect()
}

fn resources_from_pb(map: &BTreeMap<String, pb::Resources>) -> BTreeMap<String, proto::Resources> {
    map.iter()
        .map(|(k, rs)| {
            (
                k.clone(),
                proto::Resources {
                    items: rs.items.iter().map(resource_from_pb).collect(),
                },
            )
        })
        .collect()
}

/// The credentials map in protojson form: `{name: {credentialData: {data: {key: base64}}}}`.
fn credentials_to_pb(
    json: &Option<Json>,
) -> Result<BTreeMap<String, pb::Credentials>, ConvertError> {
    let Some(json) = json else {
        return Ok(BTreeMap::new());
    };
    let Json::Object(map) = json else {
        return Err(error("credentials", "not a JSON object"));
    };
    map.iter()
        .map(|(name, credentials)| {
            let field = format!("credentials.{name}");
            let data = match credentials.at("/credentialData/data") {
                None | Some(Json::Null) => None,
                Some(Json::Object(data)) => {
                    let texts: BTreeMap<String, String> = data
                        .iter()
                        .map(|(k, v)| match v {
                            Json::String(s) => Ok((k.clone(), s.clone())),
                            _ => Err(error(
                                &format!("{field}.credentialData.data.{k}"),
                                "not a string",
                            )),
                        })
                        .collect::<Result<_, _>>()?;
                    Some(decode_bytes(
                        &format!("{field}.credentialData.data"),
                        &texts,
                    )?)
                }
                Some(_) => return Err(error(&field, "credentialData.data is not an object")),
            };
            let source = match (data, credentials.get("credentialData")) {
                (Some(data), _) => Some(pb::CredentialSource::CredentialData(pb::CredentialData {
                    data,
                })),
                (None, Some(_)) => Some(pb::CredentialSource::CredentialData(
                    pb::CredentialData::default(),
                )),
                (None, None) => None,
            };
            Ok((name.clone(), pb::Credentials { source }))
        })
        .collect()
}

fn credentials_from_pb(map: &BTreeMap<String, pb::Credentials>) -> Option<Json> {
    if map.is_empty() {
        return None;
    }
    let entries = map
        .iter()
        .map(|(name, c)| {
            let value = match &c.source {
                Some(pb::CredentialSource::CredentialData(d)) => {
                    let data: serde_json::Map<String, Json> = encode_bytes(&d.data)
                        .into_iter()
                        .map(|(k, v)| (k, Json::String(v)))
                        .collect();
                    let mut inner = serde_json::Map::new();
                    if !data.is_empty() {
                        inner.insert("data".into(), Json::Object(data));
                    }
                    serde_json::json!({ "credentialData": Json::Object(inner) })
                }
                None => Json::Object(serde_json::Map::new()),
            };
            (name.clone(), value)
        })
        .collect();
    Some(Json::Object(entries))
}

/// A request in protobuf form.
pub fn request_to_pb(
    r: &proto::RunFunctionRequest,
) -> Result<pb::RunFunctionRequest, ConvertError> {
    Ok(pb::RunFunctionRequest {
        meta: r
            .meta
            .as_ref()
            .map(|m| {
                Ok::<_, ConvertError>(pb::RequestMeta {
                    tag: m.tag.clone(),
                    capabilities: m
                        .capabilities
                        .iter()
                        .map(|c| enum_value("meta.capabilities", &CAPABILITY, c))
                        .collect::<Result<_, _>>()?,
                })
            })
            .transpose()?,
        observed: Some(state_to_pb("observed", &r.observed)?),
        desired: r
            .desired
            .as_ref()
            .map(|d| state_to_pb("desired", d))
            .transpose()?,
        input: struct_field("input", &r.input)?,
        context: struct_field("context", &r.context)?,
        extra_resources: resources_to_pb("extraResources", &r.extra_resources)?,
        credentials: credentials_to_pb(&r.credentials)?,
        required_resources: resources_to_pb("requiredResources", &r.required_resources)?,
        required_schemas: r
            .required_schemas
            .iter()
            .map(|(k, schema)| {
                Ok((
                    k.clone(),
                    pb::Schema {
                        openapi_v3: struct_field(
                            &format!("requiredSchemas.{k}.openapiV3"),
                            &schema.openapi_v3,
                        )?,
                    },
                ))
            })
            .collect::<Result<_, ConvertError>>()?,
    })
}

/// A request in protobuf-JSON form.
pub fn request_from_pb(r: &pb::RunFunctionRequest) -> proto::RunFunctionRequest {
    proto::RunFunctionRequest {
        meta: r.meta.as_ref().map(|m| proto::RequestMeta {
            tag: m.tag.clone(),
            capabilities: m
                .capabilities
                .iter()
                .map(|c| enum_name(&CAPABILITY, *c))
                .collect(),
        }),
        observed: r.observed.as_ref().map(state_from_pb).unwrap_or_default(),
        desired: r.desired.as_ref().map(state_from_pb),
        input: r.input.as_ref().map(from_struct),
        context: r.context.as_ref().map(from_struct),
        extra_resources: resources_from_pb(&r.extra_resources),
        credentials: credentials_from_pb(&r.credentials),
        required_resources: resources_from_pb(&r.required_resources),
        required_schemas: r
            .required_schemas
            .iter()
            .map(|(k, schema)| {
                (
                    k.clone(),
                    proto::Schema {
                        openapi_v3: schema.openapi_v3.as_ref().map(from_struct),
                    },
                )
            })
            .collect(),
    }
}

fn selector_to_pb(
    field: &str,
    s: &proto::ResourceSelector,
) -> Result<pb::ResourceSelector, ConvertError> {
    let r#match = match (&s.match_name, &s.match_labels) {
        (Some(name), None) => Some(pb::Match::MatchName(name.clone())),
        (None, Some(labels)) => Some(pb::Match::MatchLabels(pb::MatchLabels {
            labels: labels.labels.clone(),
        })),
        (None, None) => None,
        (Some(_), Some(_)) => return Err(error(field, "both matchName and matchLabels are set")),
    };
    Ok(pb::ResourceSelector {
        api_version: s.api_version.clone(),
        kind: s.kind.clone(),
        r#match,
        namespace: s.namespace.clone(),
    })
}

fn selector_from_pb(s: &pb::ResourceSelector) -> proto::ResourceSelector {
    let (match_name, match_labels) = match &s.r#match {
        Some(pb::Match::MatchName(name)) => (Some(name.clone()), None),
        Some(pb::Match::MatchLabels(l)) => (
            None,
            Some(proto::MatchLabels {
                labels: l.labels.clone(),
            }),
        ),
        None => (None, None),
    };
    proto::ResourceSelector {
        api_version: s.api_version.clone(),
        kind: s.kind.clone(),
        match_name,
        match_labels,
        namespace: s.namespace.clone(),
    }
}

/// A response in protobuf form.
pub fn response_to_pb(
    r: &proto::RunFunctionResponse,
) -> Result<pb::RunFunctionResponse, ConvertError> {
    Ok(pb::RunFunctionResponse {
        meta: r
            .meta
            .as_ref()
            .map(|m| {
                Ok::<_, ConvertError>(pb::ResponseMeta {
                    tag: m.tag.clone(),
                    ttl: if m.ttl.is_empty() {
                        None
                    } else {
                        Some(parse_duration(&m.ttl)?)
                    },
                })
            })
            .transpose()?,
        desired: r
            .desired
            .as_ref()
            .map(|d| state_to_pb("desired", d))
            .transpose()?,
        results: r
            .results
            .iter()
            .enumerate()
            .map(|(i, result)| {
                let field = format!("results[{i}]");
                Ok(pb::FunctionResult {
                    severity: enum_value(
                        &format!("{field}.severity"),
                        &SEVERITY,
                        &result.severity,
                    )?,
                    message: result.message.clone(),
                    reason: result.reason.clone(),
                    target: result
                        .target
                        .as_deref()
                        .map(|t| enum_value(&format!("{field}.target"), &TARGET, t))
                        .transpose()?,
                })
            })
            .collect::<Result<_, ConvertError>>()?,
        context: struct_field("context", &r.context)?,
        requirements: r
            .requirements
            .as_ref()
            .map(|req| {
                Ok::<_, ConvertError>(pb::Requirements {
                    extra_resources: selectors_to_pb(
                        "requirements.extraResources",
                        &req.extra_resources,
                    )?,
                    resources: selectors_to_pb("requirements.resources", &req.resources)?,
                    schemas: req
                        .schemas
                        .iter()
                        .map(|(k, s)| {
                            (
                                k.clone(),
                                pb::SchemaSelector {
                                    api_version: s.api_version.clone(),
                                    kind: s.kind.clone(),
                                },
                            )
                        })
                        .collect(),
                })
            })
            .transpose()?,
        conditions: r
            .conditions
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let field = format!("conditions[{i}]");
                Ok(pb::Condition {
                    kind: c.kind.clone(),
                    status: enum_value(&format!("{field}.status"), &STATUS, &c.status)?,
                    reason: c.reason.clone(),
                    message: c.message.clone(),
                    target: c
                        .target
                        .as_deref()
                        .map(|t| enum_value(&format!("{field}.target"), &TARGET, t))
                        .transpose()?,
                })
            })
            .collect::<Result<_, ConvertError>>()?,
        output: struct_field("output", &r.output)?,
    })
}

/// A response in protobuf-JSON form.
pub fn response_from_pb(r: &pb::RunFunctionResponse) -> proto::RunFunctionResponse {
    proto::RunFunctionResponse {
        meta: r.meta.as_ref().map(|m| proto::ResponseMeta {
            tag: m.tag.clone(),
            ttl: m.ttl.as_ref().map(format_duration).unwrap_or_default(),
        }),
        desired: r.desired.as_ref().map(state_from_pb),
        results: r
            .results
            .iter()
            .map(|result| proto::FunctionResult {
                severity: enum_name(&SEVERITY, result.severity),
                message: result.message.clone(),
                reason: result.reason.clone(),
                target: result.target.map(|t| enum_name(&TARGET, t)),
            })
            .collect(),
        context: r.context.as_ref().map(from_struct),
        requirements: r.requirements.as_ref().map(|req| proto::Requirements {
            extra_resources: selectors_from_pb(&req.extra_resources),
            resources: selectors_from_pb(&req.resources),
            schemas: req
                .schemas
                .iter()
                .map(|(k, s)| {
                    (
                        k.clone(),
                        proto::SchemaSelector {
                            api_version: s.api_version.clone(),
                            kind: s.kind.clone(),
                        },
                    )
                })
                .collect(),
        }),
        conditions: r
            .conditions
            .iter()
            .map(|c| proto::Condition {
                kind: c.kind.clone(),
                status: enum_name(&STATUS, c.status),
                reason: c.reason.clone(),
                message: c.message.clone(),
                target: c.target.map(|t| enum_name(&TARGET, t)),
            })
            .collect(),
        output: r.output.as_ref().map(from_struct),
    }
}

fn selectors_to_pb(
    field: &str,
    map: &BTreeMap<String, proto::ResourceSelector>,
) -> Result<BTreeMap<String, pb::ResourceSelector>, ConvertError> {
    map.iter()
        .map(|(k, s)| Ok((k.clone(), selector_to_pb(&format!("{field}.{k}"), s)?)))
        .collect()
}

fn selectors_from_pb(
    map: &BTreeMap<String, pb::ResourceSelector>,
) -> BTreeMap<String, proto::ResourceSelector> {
    map.iter()
        .map(|(k, s)| (k.clone(), selector_from_pb(s)))
        .collect()
}

#[cfg(test)]
mod tests;
