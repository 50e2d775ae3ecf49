//! How Go prints what function-hcl reports: hcl's `Diagnostic.Error()` and
//! `Diagnostics.Error()`, Go's `%T` names of decoded JSON values, function-hcl's `unify` of
//! status and context objects, and `base64.StdEncoding`'s rules.

use crate::diagnostics::{Diagnostic, Severity};
use crate::source::SourceMap;
use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use serde_json::{Map, Value as Json};

/// hcl's `Diagnostic.Error()`: `<range>: <summary>; <detail>`, `<nil>` without a range and a
/// trailing `; ` without a detail.
pub fn diag_error(d: &Diagnostic, map: &SourceMap) -> String {
    format!(
        "{}: {}; {}",
        subject_text(d, map),
        d.summary,
        d.detail.as_deref().unwrap_or("")
    )
}

/// The subject range as Go prints a `*hcl.Range` (`<nil>` when there is none).
pub fn subject_text(d: &Diagnostic, map: &SourceMap) -> String {
    d.primary
        .as_ref()
        .map_or_else(|| "<nil>".to_string(), |l| map.range_text(l.span))
}

/// hcl's `Diagnostics.Error()`: the first diagnostic, and how many others there are.
pub fn diags_error(diags: &[Diagnostic], map: &SourceMap) -> String {
    match diags {
        [] => "no diagnostics".to_string(),
        [one] => diag_error(one, map),
        [first, rest @ ..] => format!(
            "{}, and {} other diagnostic(s)",
            diag_error(first, map),
            rest.len()
        ),
    }
}

/// Whether any diagnostic is an error (`Diagnostics.HasErrors`).
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(|d| d.severity == Severity::Error)
}

/// function-hcl's `DowngradeDiags`: errors become warnings.
pub fn downgrade(mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    for d in &mut diags {
        if d.severity == Severity::Error {
            d.severity = Severity::Warning;
        }
    }
    diags
}

/// Go's `%T` for a value `encoding/json` decoded into `any`.
pub fn go_type_name(value: &Json) -> &'static str {
    match value {
        Json::Null => "<nil>",
        Json::Bool(_) => "bool",
        Json::Number(_) => "float64",
        Json::String(_) => "string",
        Json::Array(_) => "[]interface {}",
        Json::Object(_) => "map[string]interface {}",
    }
}

/// The JSON kind `json.Unmarshal` names when the JSON is not an object but the target is a
/// `map[string]any` (`null` is not an error: it leaves the map nil).
pub fn not_an_object(value: &Json) -> Option<&'static str> {
    let what = match value {
        Json::Object(_) | Json::Null => return None,
        Json::Bool(_) => "bool",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
    };
    Some(what)
}

/// function-hcl's `unify`: objects merge recursively; other values under one key must have
/// the same Go type and be deeply equal. Keys are visited in sorted order (Go's are random).
pub fn unify(objects: &[&Map<String, Json>]) -> Result<Map<String, Json>, String> {
    let mut out = Map::new();
    for object in objects {
        merge_into(&mut out, object, "", false)?;
    }
    Ok(out)
}

/// Which of `objects` [`unify`] fails at: the index of the first object that conflicts with
/// those before it.
pub fn unify_failing(objects: &[&Map<String, Json>]) -> Option<usize> {
    let mut out = Map::new();
    objects
        .iter()
        .position(|object| merge_into(&mut out, object, "", false).is_err())
}

/// Merges `incoming` into `acc` in place. Go rebuilds each nested object from the pair
/// (incoming, existing) and so names the two types in alternating order at each level of
/// nesting (`flip`); the messages here follow it.
fn merge_into(
    acc: &mut Map<String, Json>,
    incoming: &Map<String, Json>,
    path: &str,
    flip: bool,
) -> Result<(), String> {
    for (key, value) in incoming {
        let Some(existing) = acc.get_mut(key) else {
            acc.insert(key.clone(), value.clone());
            continue;
        };
        let here = if path.is_empty() {
            key.clone()
        } else {
            format!("{path}.{key}")
        };
        let (new_type, old_type) = (go_type_name(value), go_type_name(existing));
        if new_type != old_type {
            let (first, second) = if flip {
                (old_type, new_type)
            } else {
                (new_type, old_type)
            };
            return Err(format!(
                "type mismatch for key {here}:  {first} v/s {second}"
            ));
        }
        match (existing, value) {
            (Json::Object(old), Json::Object(new)) => merge_into(old, new, &here, !flip)?,
            (old, new) if old != new => return Err(format!("values for key {here} not equal")),
            _ => {}
        }
    }
    Ok(())
}

/// Go's `base64.StdEncoding.DecodeString`: padding required, `\r` and `\n` ignored,
/// non-zero trailing bits accepted.
pub fn std_base64(text: &str) -> Option<Vec<u8>> {
    const ENGINE: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_allow_trailing_bits(true)
            .with_decode_padding_mode(DecodePaddingMode::RequireCanonical),
    );
    let cleaned: String = text.chars().filter(|c| *c != '\r' && *c != '\n').collect();
    ENGINE.decode(cleaned).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Json) -> Map<String, Json> {
        match v {
            Json::Object(m) => m,
            _ => unreachable!("test objects"),
        }
    }

    #[test]
    fn unify_merges_and_reports_conflicts_as_go_does() {
        let a = obj(json!({"x": {"y": 1}, "s": "a"}));
        let b = obj(json!({"x": {"z": 2}, "s": "a"}));
        assert_eq!(
            Json::Object(unify(&[&a, &b]).unwrap()),
            json!({"x": {"y": 1, "z": 2}, "s": "a"})
        );
        let c = obj(json!({"x": {"y": 2}}));
        assert_eq!(
            unify(&[&a, &c]).unwrap_err(),
            "values for key x.y not equal"
        );
        let d = obj(json!({"s": 1}));
        assert_eq!(
            unify(&[&a, &d]).unwrap_err(),
            "type mismatch for key s:  float64 v/s string"
        );
        // Below the top level Go passes the incoming object first.
        let e = obj(json!({"x": {"y": "t"}}));
        assert_eq!(
            unify(&[&a, &e]).unwrap_err(),
            "type mismatch for key x.y:  float64 v/s string"
        );
    }

    #[test]
    fn base64_follows_std_encoding() {
        assert_eq!(std_base64("").unwrap(), b"");
        assert_eq!(std_base64("YWJj").unwrap(), b"abc");
        assert_eq!(std_base64("YW\r\nJj").unwrap(), b"abc");
        assert_eq!(std_base64("YQ==").unwrap(), b"a");
        assert_eq!(
            std_base64("YR==").unwrap(),
            b"a",
            "trailing bits are accepted"
        );
        assert!(std_base64("YQ").is_none(), "padding is required");
        assert!(std_base64("https://example.com").is_none());
        assert!(std_base64("-_-_").is_none(), "the URL alphabet is not");
    }
}
