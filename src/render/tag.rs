//! The `meta.tag` the engine dialect sends with every request (engine v2.3.4
//! `composite.Tag`): the SHA-256, in hex, of the request's deterministic protobuf encoding,
//! taken before `meta` is set. Classic render (v2.2.4) sends no tag.
//!
//! The encoding is written here rather than through the `grpc` layer's prost messages for two
//! reasons: `grpc` sits above `render`, and prost leaves out an empty map key or value where
//! protobuf-go's deterministic marshalling writes both. What this reproduces of Go's output:
//! fields in field-number order, map entries sorted by key (bytewise) with key and value
//! always written, messages that are set written even when empty, `Struct` numbers as doubles.

use crate::eval::proto::{Resource, Resources, RunFunctionRequest, Schema, State};
use crate::source::pointer::Pointer;
use serde_json::{Map, Value as Json};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The engine's tag of `request` (its `meta` left out, as it is unset when the engine hashes).
pub fn of(request: &RunFunctionRequest) -> String {
    let bytes = request_bytes(request);
    let digest = Sha256::digest(&bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Wire types.
const VARINT: u64 = 0;
const FIXED64: u64 = 1;
const LEN: u64 = 2;

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn key(out: &mut Vec<u8>, field: u64, wire: u64) {
    varint(out, (field << 3) | wire);
}

fn bytes_field(out: &mut Vec<u8>, field: u64, bytes: &[u8]) {
    key(out, field, LEN);
    varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// A map entry: key (field 1) and value (field 2), both always written.
fn map_entry(out: &mut Vec<u8>, field: u64, name: &str, value: &[u8]) {
    let mut entry = Vec::with_capacity(name.len() + value.len() + 8);
    bytes_field(&mut entry, 1, name.as_bytes());
    bytes_field(&mut entry, 2, value);
    bytes_field(out, field, &entry);
}

fn request_bytes(r: &RunFunctionRequest) -> Vec<u8> {
    let mut out = Vec::new();
    bytes_field(&mut out, 2, &state(&r.observed));
    if let Some(desired) = &r.desired {
        bytes_field(&mut out, 3, &state(desired));
    }
    if let Some(input) = &r.input {
        bytes_field(&mut out, 4, &structure(input));
    }
    if let Some(context) = &r.context {
        bytes_field(&mut out, 5, &structure(context));
    }
    resources_map(&mut out, 6, &r.extra_resources);
    if let Some(Json::Object(credentials)) = &r.credentials {
        for (name, c) in sorted(credentials) {
            map_entry(&mut out, 7, name, &credential(c));
        }
    }
    resources_map(&mut out, 8, &r.required_resources);
    for (name, schema) in &r.required_schemas {
        map_entry(&mut out, 9, name, &schema_bytes(schema));
    }
    out
}

fn sorted(map: &Map<String, Json>) -> Vec<(&String, &Json)> {
    let mut entries: Vec<(&String, &Json)> = map.iter().collect();
    entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    entries
}

fn resources_map(out: &mut Vec<u8>, field: u64, map: &BTreeMap<String, Resources>) {
    for (name, resources) in map {
        let mut items = Vec::new();
        for item in &resources.items {
            bytes_field(&mut items, 1, &resource(item));
        }
        map_entry(out, field, name, &items);
    }
}

fn state(s: &State) -> Vec<u8> {
    let mut out = Vec::new();
    if let Some(composite) = &s.composite {
        bytes_field(&mut out, 1, &resource(composite));
    }
    for (name, r) in &s.resources {
        map_entry(&mut out, 2, name, &resource(r));
    }
    out
}

/// Base64 text as the bytes it stands for (text that is not base64 as itself).
fn decoded(text: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .unwrap_or_else(|_| text.as_bytes().to_vec())
}

fn resource(r: &Resource) -> Vec<u8> {
    let mut out = Vec::new();
    if let Some(object) = &r.resource {
        bytes_field(&mut out, 1, &structure(object));
    }
    for (name, value) in &r.connection_details {
        map_entry(&mut out, 2, name, &decoded(value));
    }
    let ready = match r.ready.as_deref() {
        Some("READY_TRUE") => 1,
        Some("READY_FALSE") => 2,
        _ => 0,
    };
    if ready != 0 {
        key(&mut out, 3, VARINT);
        varint(&mut out, ready);
    }
    out
}

/// `Credentials { credential_data: CredentialData { data } }` from its protobuf JSON.
fn credential(c: &Json) -> Vec<u8> {
    let mut data = Vec::new();
    if let Some(Json::Object(values)) = c.at("/credentialData/data") {
        for (name, value) in sorted(values) {
            map_entry(&mut data, 1, name, &decoded(value.as_str().unwrap_or("")));
        }
    }
    let mut out = Vec::new();
    if c.get("credentialData").is_some() {
        bytes_field(&mut out, 1, &data);
    }
    out
}

fn schema_bytes(s: &Schema) -> Vec<u8> {
    let mut out = Vec::new();
    if let Some(schema) = &s.openapi_v3 {
        bytes_field(&mut out, 1, &structure(schema));
    }
    out
}

/// `google.protobuf.Struct` (a value that is not an object is an empty one, as it cannot be
/// in a request).
fn structure(value: &Json) -> Vec<u8> {
    let mut out = Vec::new();
    if let Json::Object(fields) = value {
        for (name, v) in sorted(fields) {
            map_entry(&mut out, 1, name, &value_bytes(v));
        }
    }
    out
}

/// `google.protobuf.Value`: its one member, written even when zero.
fn value_bytes(value: &Json) -> Vec<u8> {
    let mut out = Vec::new();
    match value {
        Json::Null => {
            key(&mut out, 1, VARINT);
            varint(&mut out, 0);
        }
        Json::Number(n) => {
            key(&mut out, 2, FIXED64);
            out.extend_from_slice(&n.as_f64().unwrap_or(0.0).to_bits().to_le_bytes());
        }
        Json::String(s) => bytes_field(&mut out, 3, s.as_bytes()),
        Json::Bool(b) => {
            key(&mut out, 4, VARINT);
            varint(&mut out, u64::from(*b));
        }
        Json::Object(_) => bytes_field(&mut out, 5, &structure(value)),
        Json::Array(items) => {
            let mut list = Vec::new();
            for item in items {
                bytes_field(&mut list, 1, &value_bytes(item));
            }
            bytes_field(&mut out, 6, &list);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// engine v2.3.4 `internal/xfn/utils_test.go` TestTag "NilRequest".
    #[test]
    fn the_tag_of_crossplanes_test_request() {
        let request = RunFunctionRequest {
            observed: State {
                composite: Some(Resource::of(
                    json!({"apiVersion": "example.org/v1", "kind": "Test"}),
                )),
                ..State::default()
            },
            ..RunFunctionRequest::default()
        };
        assert_eq!(
            of(&request),
            "60e065117e1992fb17c3c5ef2a50de370eeec23fbd380836d31ad388bbe4e082"
        );
    }

    #[test]
    fn values_are_encoded_as_protobuf_go_encodes_them() {
        let mut out = Vec::new();
        varint(&mut out, 300);
        assert_eq!(out, [0xac, 0x02]);
        // A map entry with an empty key and an empty value still writes both.
        let mut entry = Vec::new();
        map_entry(&mut entry, 1, "", b"");
        assert_eq!(entry, [0x0a, 0x04, 0x0a, 0x00, 0x12, 0x00]);
        assert_eq!(value_bytes(&Json::Null), [0x08, 0x00]);
        assert_eq!(value_bytes(&json!(false)), [0x20, 0x00]);
        assert_eq!(value_bytes(&json!(1)), [0x11, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f]);
        assert_eq!(value_bytes(&json!({})), [0x2a, 0x00]);
        assert_eq!(value_bytes(&json!([])), [0x32, 0x00]);
    }
}
