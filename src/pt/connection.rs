//! The composite's connection details, as function-patch-and-transform gathers them
//! (connection.go): each template's details read from its observed composed resource, and
//! for a v2 XR (which has no connection secret of its own) the Secret the function composes
//! to hold them.

use super::fieldpath;
use super::input::{ConnectionDetail, WriteConnectionSecretToRef};
use super::validate;
use crate::source::pointer::Pointer;
use base64::Engine;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Connection details: name → bytes (Go's `managed.ConnectionDetails`).
pub type Details = BTreeMap<String, Vec<u8>>;

/// Go's `ExtractConnectionDetails`: the details the templates' `connectionDetails` name, from
/// the observed resource (`object`) and its own connection details (`data`). A key or field
/// that is not there yet is left out; an invalid detail fails with `invalid: …`.
pub fn extract(
    object: &Value,
    data: &Details,
    details: &[ConnectionDetail],
) -> Result<Details, String> {
    let mut out = Details::new();
    for cd in details {
        validate::connection_detail(cd).map_err(|e| format!("invalid: {e}"))?;
        match cd.type_.as_str() {
            "FromValue" => {
                let value = cd.value.as_deref().unwrap_or("");
                out.insert(cd.name.clone(), value.as_bytes().to_vec());
            }
            "FromConnectionSecretKey" => {
                let key = cd.from_connection_secret_key.as_deref().unwrap_or("");
                // A key not written yet may be written later: not an error.
                if let Some(value) = data.get(key) {
                    out.insert(cd.name.clone(), value.clone());
                }
            }
            _ => {
                let path = cd.from_field_path.as_deref().unwrap_or("");
                if let Some(bytes) = from_field_path(object, path) {
                    out.insert(cd.name.clone(), bytes);
                }
            }
        }
    }
    Ok(out)
}

/// Go's `fromFieldPath`: a string field's text, or any other value as JSON (`encoding/json`,
/// HTML-escaped, numbers as Go writes int64s and float64s); `None` when the path does not resolve.
fn from_field_path(object: &Value, path: &str) -> Option<Vec<u8>> {
    if let Ok(s) = fieldpath::get_string(object, path) {
        return Some(s.into_bytes());
    }
    let value = fieldpath::get_value(object, path).ok()?;
    // An observed object's numbers are float64s: Go writes 4.0 as `4`.
    Some(super::transforms::go_json_marshal(value).into_bytes())
}

/// Go's `supportsConnectionDetails`: a legacy XR (one without `spec.crossplane`) has its own
/// connection secret; a v2 XR does not.
pub fn supports_connection_details(xr: &Value) -> bool {
    fieldpath::get_value(xr, "spec.crossplane").is_err()
}

/// The Secret that holds a v2 XR's connection details (Go's `composeConnectionSecret`), or
/// `None` without details. `patch` applies one `writeConnectionSecretToRef` patch to the
/// reference object (`{"apiVersion","kind","name","namespace"}`) and is the patch engine's.
pub fn compose_secret(
    xr: &Value,
    details: &Details,
    reference: Option<&WriteConnectionSecretToRef>,
    patch: &mut dyn FnMut(usize, &mut Value) -> Result<(), String>,
) -> Result<Option<Value>, String> {
    if details.is_empty() {
        return Ok(None);
    }
    let (name, namespace) = secret_reference(xr, reference, patch)
        .map_err(|e| format!("cannot generate connection secret reference: {e}"))?;
    let mut metadata = Map::new();
    if !name.is_empty() {
        metadata.insert("name".into(), Value::String(name));
    }
    if !namespace.is_empty() {
        metadata.insert("namespace".into(), Value::String(namespace));
    }
    let data: Map<String, Value> = details
        .iter()
        .map(|(k, v)| {
            let text = base64::engine::general_purpose::STANDARD.encode(v);
            (k.clone(), Value::String(text))
        })
        .collect();
    let mut secret = json!({"apiVersion": "v1", "kind": "Secret"});
    if !metadata.is_empty() {
        secret["metadata"] = Value::Object(metadata);
    }
    secret["data"] = Value::Object(data);
    secret["type"] = Value::String("connection.crossplane.io/v1alpha1".into());
    Ok(Some(secret))
}

/// Go's `getConnectionSecretRef`: the XR's own `spec.writeConnectionSecretToRef` when it
/// decodes as a reference, else the input's name and namespace when either is set, else the
/// XR's name with `-connection` in its namespace; then the input's patches.
fn secret_reference(
    xr: &Value,
    input: Option<&WriteConnectionSecretToRef>,
    patch: &mut dyn FnMut(usize, &mut Value) -> Result<(), String>,
) -> Result<(String, String), String> {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or("").to_string();
    let (name, namespace) = match xr_reference(xr) {
        Some(pair) => pair,
        None => match input {
            Some(r) if !r.name.is_empty() || !r.namespace.is_empty() => {
                (r.name.clone(), r.namespace.clone())
            }
            _ => {
                let meta = xr.get("metadata").cloned().unwrap_or(Value::Null);
                (
                    format!("{}-connection", text(&meta, "name")),
                    text(&meta, "namespace"),
                )
            }
        },
    };
    let Some(input) = input.filter(|r| !r.patches.is_empty()) else {
        return Ok((name, namespace));
    };
    let mut reference = json!({
        "apiVersion": "v1",
        "kind": "SecretReference",
        "name": name,
        "namespace": namespace,
    });
    for i in 0..input.patches.len() {
        patch(i, &mut reference)
            .map_err(|e| format!("cannot apply connection secret patches: {e}"))?;
    }
    // Only string results replace the reference's fields, as in Go.
    let name = reference
        .get("name")
        .and_then(Value::as_str)
        .map_or(name, str::to_string);
    let namespace = reference
        .get("namespace")
        .and_then(Value::as_str)
        .map_or(namespace, str::to_string);
    Ok((name, namespace))
}

/// `spec.writeConnectionSecretToRef` as Go's `GetValueInto` a `SecretReference` decodes it:
/// an object whose `name` and `namespace` are strings (or absent); anything else is none.
fn xr_reference(xr: &Value) -> Option<(String, String)> {
    let r = match xr.at("/spec/writeConnectionSecretToRef")? {
        // JSON null decodes into an empty reference, which Go then uses.
        Value::Null => return Some((String::new(), String::new())),
        Value::Object(r) => r,
        Value::Bool(_) | Value::Number(_) | Value::String(_) | Value::Array(_) => return None,
    };
    let field = |key: &str| match r.get(key) {
        None | Some(Value::Null) => Some(String::new()),
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => None,
    };
    Some((field("name")?, field("namespace")?))
}
