//! JMESPath's built-in functions on evaluated arguments (those taking an `&expression` —
//! `sort_by`, `max_by`, `min_by`, `map` — are the evaluator's), plus a few of chainsaw's
//! and kyverno's simple string helpers. Errors are worded as JMESPath's kinds: unknown
//! function, arity, type.

use super::value::{equal, from_f64, number, order, type_name};
use serde_json::{Map, Value as Json};
use std::cmp::Ordering;

/// Every function, sorted: the standard library, then the extras.
pub const NAMES: &[&str] = &[
    "abs",
    "avg",
    "ceil",
    "contains",
    "ends_with",
    "floor",
    "join",
    "keys",
    "length",
    "map",
    "max",
    "max_by",
    "merge",
    "min",
    "min_by",
    "not_null",
    "reverse",
    "sort",
    "sort_by",
    "starts_with",
    "sum",
    "to_array",
    "to_number",
    "to_string",
    "type",
    "values",
    // chainsaw's and kyverno's
    "concat",
    "equal_fold",
    "regex_match",
    "replace_all",
    "split",
    "to_lower",
    "to_upper",
    "trim",
    "trim_prefix",
    "trim_space",
];

/// `name() takes N arguments, got M`.
pub fn arity(name: &str, args: usize, min: usize, variadic: bool) -> Result<(), String> {
    let ok = if variadic { args >= min } else { args == min };
    if ok {
        return Ok(());
    }
    let plural = if min == 1 { "" } else { "s" };
    let least = if variadic { "at least " } else { "" };
    Err(format!(
        "invalid arity: {name}() takes {least}{min} argument{plural}, got {args}"
    ))
}

/// `name() expects …, got TYPE` for an argument.
pub fn bad_type(name: &str, position: usize, wanted: &str, got: &Json) -> String {
    format!(
        "invalid type: argument {} of {name}() must be {wanted}, got {}",
        position + 1,
        type_name(got)
    )
}

fn string<'a>(name: &str, args: &'a [Json], i: usize) -> Result<&'a str, String> {
    args[i]
        .as_str()
        .ok_or_else(|| bad_type(name, i, "a string", &args[i]))
}

fn array<'a>(name: &str, args: &'a [Json], i: usize) -> Result<&'a Vec<Json>, String> {
    args[i]
        .as_array()
        .ok_or_else(|| bad_type(name, i, "an array", &args[i]))
}

fn object<'a>(name: &str, args: &'a [Json], i: usize) -> Result<&'a Map<String, Json>, String> {
    args[i]
        .as_object()
        .ok_or_else(|| bad_type(name, i, "an object", &args[i]))
}

fn num(name: &str, args: &[Json], i: usize) -> Result<f64, String> {
    number(&args[i]).ok_or_else(|| bad_type(name, i, "a number", &args[i]))
}

fn numbers(name: &str, args: &[Json], i: usize) -> Result<Vec<f64>, String> {
    array(name, args, i)?
        .iter()
        .map(|item| number(item).ok_or_else(|| bad_type(name, i, "an array of numbers", &args[i])))
        .collect()
}

/// Whether a list holds only numbers or only strings (what `sort`, `max` and `min` order).
pub fn sortable(items: &[Json]) -> bool {
    items.iter().all(Json::is_number) || items.iter().all(Json::is_string)
}

/// Calls a function on evaluated arguments.
pub fn call(name: &str, args: &[Json]) -> Result<Json, String> {
    let fixed = |n| arity(name, args.len(), n, false);
    match name {
        "abs" => {
            fixed(1)?;
            Ok(from_f64(num(name, args, 0)?.abs()))
        }
        "avg" => {
            fixed(1)?;
            let items = numbers(name, args, 0)?;
            if items.is_empty() {
                return Ok(Json::Null);
            }
            Ok(from_f64(items.iter().sum::<f64>() / items.len() as f64))
        }
        "ceil" => {
            fixed(1)?;
            Ok(from_f64(num(name, args, 0)?.ceil()))
        }
        "floor" => {
            fixed(1)?;
            Ok(from_f64(num(name, args, 0)?.floor()))
        }
        "contains" => {
            fixed(2)?;
            Ok(Json::Bool(match &args[0] {
                Json::Array(items) => items.iter().any(|item| equal(item, &args[1])),
                Json::String(text) => {
                    let needle = string(name, args, 1)?;
                    text.contains(needle)
                }
                other => return Err(bad_type(name, 0, "an array or a string", other)),
            }))
        }
        "starts_with" => {
            fixed(2)?;
            Ok(Json::Bool(
                string(name, args, 0)?.starts_with(string(name, args, 1)?),
            ))
        }
        "ends_with" => {
            fixed(2)?;
            Ok(Json::Bool(
                string(name, args, 0)?.ends_with(string(name, args, 1)?),
            ))
        }
        "join" => {
            fixed(2)?;
            let glue = string(name, args, 0)?;
            let parts: Vec<&str> = array(name, args, 1)?
                .iter()
                .map(|item| {
                    item.as_str()
                        .ok_or_else(|| bad_type(name, 1, "an array of strings", &args[1]))
                })
                .collect::<Result<_, _>>()?;
            Ok(Json::String(parts.join(glue)))
        }
        "keys" => {
            fixed(1)?;
            let fields = object(name, args, 0)?;
            Ok(Json::Array(
                fields.keys().cloned().map(Json::String).collect(),
            ))
        }
        "values" => {
            fixed(1)?;
            Ok(Json::Array(
                object(name, args, 0)?.values().cloned().collect(),
            ))
        }
        "length" => {
            fixed(1)?;
            let n = match &args[0] {
                Json::String(s) => s.chars().count(),
                Json::Array(items) => items.len(),
                Json::Object(fields) => fields.len(),
                other => return Err(bad_type(name, 0, "a string, an array or an object", other)),
            };
            Ok(Json::from(n))
        }
        "max" | "min" => {
            fixed(1)?;
            let items = array(name, args, 0)?;
            if !sortable(items) {
                return Err(bad_type(
                    name,
                    0,
                    "an array of numbers or of strings",
                    &args[0],
                ));
            }
            let wanted = if name == "max" {
                Ordering::Greater
            } else {
                Ordering::Less
            };
            let mut best: Option<&Json> = None;
            for item in items {
                if best.is_none_or(|b| order(item, b) == Some(wanted)) {
                    best = Some(item);
                }
            }
            Ok(best.cloned().unwrap_or(Json::Null))
        }
        "merge" => {
            arity(name, args.len(), 1, true)?;
            let mut merged = Map::new();
            for i in 0..args.len() {
                for (key, value) in object(name, args, i)? {
                    merged.insert(key.clone(), value.clone());
                }
            }
            Ok(Json::Object(merged))
        }
        "not_null" => {
            arity(name, args.len(), 1, true)?;
            Ok(args
                .iter()
                .find(|a| !a.is_null())
                .cloned()
                .unwrap_or(Json::Null))
        }
        "reverse" => {
            fixed(1)?;
            match &args[0] {
                Json::String(s) => Ok(Json::String(s.chars().rev().collect())),
                Json::Array(items) => Ok(Json::Array(items.iter().rev().cloned().collect())),
                other => Err(bad_type(name, 0, "a string or an array", other)),
            }
        }
        "sort" => {
            fixed(1)?;
            let items = array(name, args, 0)?;
            if !sortable(items) {
                return Err(bad_type(
                    name,
                    0,
                    "an array of numbers or of strings",
                    &args[0],
                ));
            }
            let mut sorted = items.clone();
            sorted.sort_by(|a, b| order(a, b).unwrap_or(Ordering::Equal));
            Ok(Json::Array(sorted))
        }
        "sum" => {
            fixed(1)?;
            Ok(from_f64(numbers(name, args, 0)?.iter().sum()))
        }
        "to_array" => {
            fixed(1)?;
            Ok(match &args[0] {
                Json::Array(_) => args[0].clone(),
                other => Json::Array(vec![other.clone()]),
            })
        }
        "to_string" => {
            fixed(1)?;
            Ok(match &args[0] {
                Json::String(_) => args[0].clone(),
                other => Json::String(other.to_string()),
            })
        }
        "to_number" => {
            fixed(1)?;
            Ok(match &args[0] {
                Json::Number(_) => args[0].clone(),
                // Only JSON's number syntax: Rust's float parser also takes `inf` and `NaN`.
                Json::String(s) => match serde_json::from_str::<Json>(s) {
                    Ok(n @ Json::Number(_)) => n,
                    _ => Json::Null,
                },
                _ => Json::Null,
            })
        }
        "type" => {
            fixed(1)?;
            Ok(Json::String(type_name(&args[0]).into()))
        }
        "concat" => {
            fixed(2)?;
            Ok(Json::String(format!(
                "{}{}",
                string(name, args, 0)?,
                string(name, args, 1)?
            )))
        }
        "equal_fold" => {
            fixed(2)?;
            let (a, b) = (string(name, args, 0)?, string(name, args, 1)?);
            Ok(Json::Bool(a.to_lowercase() == b.to_lowercase()))
        }
        "regex_match" => {
            fixed(2)?;
            let pattern = string(name, args, 0)?;
            let text = match &args[1] {
                Json::String(s) => s.clone(),
                Json::Number(n) => n.to_string(),
                other => return Err(bad_type(name, 1, "a string or a number", other)),
            };
            let re = crate::re2::compile(pattern)
                .map_err(|e| format!("error parsing regexp: {}: `{}`", e.code, e.expr))?;
            Ok(Json::Bool(re.regex.is_match(&text)))
        }
        "replace_all" => {
            fixed(3)?;
            let (text, old, new) = (
                string(name, args, 0)?,
                string(name, args, 1)?,
                string(name, args, 2)?,
            );
            Ok(Json::String(text.replace(old, new)))
        }
        "split" => {
            fixed(2)?;
            let (text, sep) = (string(name, args, 0)?, string(name, args, 1)?);
            let parts: Vec<Json> = if sep.is_empty() {
                // Go's strings.Split with an empty separator: one part per character.
                text.chars().map(|c| Json::String(c.into())).collect()
            } else {
                text.split(sep).map(|p| Json::String(p.into())).collect()
            };
            Ok(Json::Array(parts))
        }
        "to_lower" => {
            fixed(1)?;
            Ok(Json::String(string(name, args, 0)?.to_lowercase()))
        }
        "to_upper" => {
            fixed(1)?;
            Ok(Json::String(string(name, args, 0)?.to_uppercase()))
        }
        "trim" => {
            fixed(2)?;
            let cut = string(name, args, 1)?;
            let trimmed = string(name, args, 0)?.trim_matches(|c| cut.contains(c));
            Ok(Json::String(trimmed.into()))
        }
        "trim_prefix" => {
            fixed(2)?;
            let (text, prefix) = (string(name, args, 0)?, string(name, args, 1)?);
            Ok(Json::String(
                text.strip_prefix(prefix).unwrap_or(text).into(),
            ))
        }
        "trim_space" => {
            fixed(1)?;
            Ok(Json::String(string(name, args, 0)?.trim().into()))
        }
        _ => Err(unknown(name)),
    }
}

/// `unknown function: NAME()`.
pub fn unknown(name: &str) -> String {
    format!("unknown function: {name}()")
}
