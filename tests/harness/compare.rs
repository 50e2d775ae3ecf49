//! Value comparisons the conformance formats define: decimal numbers, JSON subsets, YAML
//! document streams matched by identity.

use serde_json::Value;

/// Reads a YAML stream into JSON values (empty documents skipped).
pub fn yaml_stream(text: &str) -> Result<Vec<Value>, String> {
    let mut docs = Vec::new();
    for doc in yaml_serde::Deserializer::from_str(text) {
        let value: yaml_serde::Value =
            serde::Deserialize::deserialize(doc).map_err(|e| format!("invalid YAML: {e}"))?;
        if value.is_null() {
            continue;
        }
        docs.push(serde_json::to_value(&value).map_err(|e| format!("YAML to JSON: {e}"))?);
    }
    Ok(docs)
}

/// A decimal number in canonical form: sign, significant digits, exponent of the last digit.
fn decimal(text: &str) -> Option<(bool, String, i64)> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty()
        || !(int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()))
    {
        return None;
    }
    let digits = format!("{int}{frac}");
    let mut exponent = exponent - frac.len() as i64;
    let trimmed = digits.trim_start_matches('0');
    let without_trailing = trimmed.trim_end_matches('0');
    exponent += (trimmed.len() - without_trailing.len()) as i64;
    if without_trailing.is_empty() {
        return Some((false, String::new(), 0));
    }
    Some((negative, without_trailing.to_string(), exponent))
}

/// Whether two JSON numbers are the same decimal value (`3` equals `3.0`).
pub fn numbers_equal(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    match (decimal(&a.to_string()), decimal(&b.to_string())) {
        (Some(x), Some(y)) => x == y,
        _ => a.to_string() == b.to_string(),
    }
}

/// Deep equality with decimal number comparison.
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => numbers_equal(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

/// `expected` is a subset of `actual`: every key given is present with an equal value (objects
/// recursively; arrays element by element with the same length). Returns the first mismatch.
pub fn subset(expected: &Value, actual: &Value, path: &str) -> Result<(), String> {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (key, value) in e {
                let here = format!("{path}/{key}");
                match a.get(key) {
                    Some(found) => subset(value, found, &here)?,
                    None => return Err(format!("{here}: missing")),
                }
            }
            Ok(())
        }
        (Value::Array(e), Value::Array(a)) if e.len() == a.len() => {
            for (i, (x, y)) in e.iter().zip(a).enumerate() {
                subset(x, y, &format!("{path}/{i}"))?;
            }
            Ok(())
        }
        _ if equal(expected, actual) => Ok(()),
        _ => Err(format!("{path}: expected {expected}, got {actual}")),
    }
}

/// Removes every `lastTransitionTime`, drops `metadata` of Result/Context documents, and sorts
/// `status.conditions` by type, so two render outputs compare as the conformance README says.
fn normalise(doc: &Value, drop_metadata: bool) -> Value {
    let mut doc = strip_transition_times(doc);
    if let Value::Object(map) = &mut doc {
        if drop_metadata {
            map.remove("metadata");
        }
        if let Some(Value::Array(conditions)) = map
            .get_mut("status")
            .and_then(|s| s.as_object_mut())
            .and_then(|s| s.get_mut("conditions"))
        {
            conditions.sort_by_key(|c| c.get("type").map(Value::to_string));
        }
    }
    doc
}

fn strip_transition_times(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != "lastTransitionTime")
                .map(|(k, v)| (k.clone(), strip_transition_times(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(strip_transition_times).collect()),
        other => other.clone(),
    }
}

fn kind(doc: &Value) -> &str {
    doc.get("kind").and_then(Value::as_str).unwrap_or("")
}

fn identity(doc: &Value) -> String {
    let s = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
    format!(
        "{} {} {}",
        s(doc.get("apiVersion")),
        kind(doc),
        s(doc
            .get("metadata")
            .and_then(|m| m.get("annotations"))
            .and_then(|a| a.get("crossplane.io/composition-resource-name")))
    )
}

fn is_render_meta(doc: &Value) -> bool {
    doc.get("apiVersion").and_then(Value::as_str) == Some("render.crossplane.io/v1beta1")
        && matches!(kind(doc), "Result" | "Context")
}

/// Compares two `render` output streams as the conformance README describes.
pub fn render_streams(expected: &[Value], actual: &[Value]) -> Result<(), String> {
    let (Some(exp_xr), Some(act_xr)) = (expected.first(), actual.first()) else {
        return Err(format!(
            "expected {} documents, got {}",
            expected.len(),
            actual.len()
        ));
    };
    let check = |what: &str, e: &Value, a: &Value, meta: bool| {
        let (e, a) = (normalise(e, meta), normalise(a, meta));
        if equal(&e, &a) {
            Ok(())
        } else {
            Err(format!(
                "{what} differs:\n--- expected\n{}\n--- actual\n{}",
                serde_json::to_string_pretty(&e).unwrap_or_default(),
                serde_json::to_string_pretty(&a).unwrap_or_default()
            ))
        }
    };
    check("the XR", exp_xr, act_xr, false)?;
    let composed = |docs: &[Value]| -> Vec<Value> {
        docs[1..]
            .iter()
            .filter(|d| !is_render_meta(d))
            .cloned()
            .collect()
    };
    let (exp_composed, mut act_composed) = (composed(expected), composed(actual));
    for e in &exp_composed {
        let id = identity(e);
        let Some(i) = act_composed.iter().position(|a| identity(a) == id) else {
            return Err(format!("missing composed resource `{id}`"));
        };
        let a = act_composed.remove(i);
        check(&format!("composed resource `{id}`"), e, &a, false)?;
    }
    if let Some(extra) = act_composed.first() {
        return Err(format!(
            "unexpected composed resource `{}`",
            identity(extra)
        ));
    }
    for wanted in ["Result", "Context"] {
        let pick = |docs: &[Value]| -> Vec<Value> {
            docs.iter()
                .filter(|d| is_render_meta(d) && kind(d) == wanted)
                .cloned()
                .collect()
        };
        let (e, a) = (pick(expected), pick(actual));
        if e.len() != a.len() {
            return Err(format!(
                "expected {} {wanted} documents, got {}",
                e.len(),
                a.len()
            ));
        }
        for (i, (x, y)) in e.iter().zip(&a).enumerate() {
            check(&format!("{wanted} document {}", i + 1), x, y, true)?;
        }
    }
    Ok(())
}

/// Whether a JSON pointer resolves in `value`.
pub fn pointer_exists(value: &Value, pointer: &str) -> bool {
    value.pointer(pointer).is_some()
}

/// Checks of the comparisons themselves, run as a trial of the harness.
pub fn self_check() -> Result<(), String> {
    let cases = [
        ("3", "3.0", true),
        ("30", "3e1", true),
        ("0.1", "0.2", false),
        ("-0", "0.0", true),
        ("1", "-1", false),
    ];
    for (a, b, same) in cases {
        if (decimal(a) == decimal(b)) != same {
            return Err(format!(
                "decimal({a}) vs decimal({b}) should be equal: {same}"
            ));
        }
    }
    let e: Value = serde_json::json!({"a": {"b": 1}});
    subset(
        &e,
        &serde_json::json!({"a": {"b": 1.0, "c": 2}, "d": 3}),
        "",
    )?;
    if subset(&e, &serde_json::json!({"a": {"c": 2}}), "").is_ok() {
        return Err("a missing key must fail the subset check".into());
    }
    Ok(())
}
