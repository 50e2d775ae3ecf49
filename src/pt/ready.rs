//! Whether an observed composed resource is ready, as function-patch-and-transform decides
//! (ready.go): its readiness checks in order, or its `Ready` condition when it has none.

use super::fieldpath;
use super::input::ReadinessCheck;
use super::validate;
use serde_json::Value;

/// A condition as crossplane-runtime reads it from `status.conditions`: the two fields the
/// checks compare.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Condition {
    status: String,
}

/// Go's `GetCondition`: the condition of type `kind` in `status.conditions`; `Unknown` when
/// there is none; an empty status when `status` is missing or does not decode into
/// crossplane's `ConditionedStatus` (Go returns the zero `Condition` then).
fn condition(object: &Value, kind: &str) -> Condition {
    let Some(status) = object.get("status") else {
        return Condition::default();
    };
    let Some(conditions) = conditioned(status) else {
        return Condition::default();
    };
    for c in conditions {
        if c.get("type").and_then(Value::as_str).unwrap_or("") == kind {
            let status = c.get("status").and_then(Value::as_str).unwrap_or("");
            return Condition {
                status: status.to_string(),
            };
        }
    }
    Condition {
        status: "Unknown".to_string(),
    }
}

/// `status` decoded as Go's `json.Unmarshal` into `ConditionedStatus` would: its conditions
/// (non-null ones), or `None` where Go reports a type error.
fn conditioned(status: &Value) -> Option<Vec<&serde_json::Map<String, Value>>> {
    let status = match status {
        Value::Null => return Some(Vec::new()),
        Value::Object(map) => map,
        Value::Bool(_) | Value::Number(_) | Value::String(_) | Value::Array(_) => return None,
    };
    let list = match status.get("conditions") {
        None | Some(Value::Null) => return Some(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(_) => return None,
    };
    let mut out = Vec::new();
    for item in list {
        match item {
            Value::Null => continue,
            Value::Object(c) => {
                if !condition_decodes(c) {
                    return None;
                }
                out.push(c);
            }
            Value::Bool(_) | Value::Number(_) | Value::String(_) | Value::Array(_) => {
                return None;
            }
        }
    }
    Some(out)
}

/// Whether one condition decodes into crossplane's `Condition`: its strings are strings, its
/// time an RFC 3339 time, its generation an integer.
fn condition_decodes(c: &serde_json::Map<String, Value>) -> bool {
    let string = |key: &str| matches!(c.get(key), None | Some(Value::Null | Value::String(_)));
    let time_ok = match c.get("lastTransitionTime") {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => {
            time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).is_ok()
        }
        Some(_) => false,
    };
    let generation_ok = match c.get("observedGeneration") {
        None | Some(Value::Null) => true,
        Some(Value::Number(n)) => n.as_i64().is_some() || n.to_string().parse::<i64>().is_ok(),
        Some(_) => false,
    };
    string("type")
        && string("status")
        && string("reason")
        && string("message")
        && time_ok
        && generation_ok
}

/// Go's `IsReady`: with no checks, whether the `Ready` condition is `True`; otherwise every
/// check must pass, and the first that cannot run fails the whole with
/// `cannot run readiness check at index N: …`.
pub fn is_ready(object: &Value, checks: &[ReadinessCheck]) -> Result<bool, String> {
    if checks.is_empty() {
        return Ok(condition(object, "Ready").status == "True");
    }
    for (i, check) in checks.iter().enumerate() {
        let ready = run_check(check, object)
            .map_err(|e| format!("cannot run readiness check at index {i}: {e}"))?;
        if !ready {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Go's `RunReadinessCheck`: a field that is not there is not ready; a field of the wrong
/// type, or a path that does not parse, is an error.
pub fn run_check(check: &ReadinessCheck, object: &Value) -> Result<bool, String> {
    validate::readiness_check(check).map_err(|e| format!("invalid: {e}"))?;
    let path = check.field_path.as_deref().unwrap_or("");
    // A missing field is "not ready yet"; any other failure is the check's error.
    fn found<T>(read: Result<T, fieldpath::Error>) -> Result<Option<T>, String> {
        match read {
            Ok(v) => Ok(Some(v)),
            Err(e) if e.is_not_found() => Ok(None),
            Err(e) => Err(e.message),
        }
    }
    Ok(match check.type_.as_str() {
        "None" => true,
        "NonEmpty" => found(fieldpath::get_value(object, path))?.is_some(),
        "MatchString" => {
            let want = check.match_string.as_deref().unwrap_or("");
            found(fieldpath::get_string(object, path))?.is_some_and(|v| v == want)
        }
        "MatchInteger" => {
            let want = check.match_integer.unwrap_or(0);
            found(fieldpath::get_integer(object, path))?.is_some_and(|v| v == want)
        }
        "MatchTrue" => found(fieldpath::get_bool(object, path))?.unwrap_or(false),
        "MatchFalse" => found(fieldpath::get_bool(object, path))?.is_some_and(|v| !v),
        // Go dereferences a missing matchCondition (validation lets it through) and panics;
        // here it is simply not ready.
        "MatchCondition" => match &check.match_condition {
            Some(m) => condition(object, &m.type_).status == m.status,
            None => false,
        },
        _ => false,
    })
}
