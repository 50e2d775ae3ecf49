//! JMESPath's view of JSON values: type names, truthiness, equality, ordering and numbers.

use serde_json::{Number, Value as Json};
use std::cmp::Ordering;

/// The JMESPath type of a value, as `type()` returns it and errors name it.
pub fn type_name(value: &Json) -> &'static str {
    crate::source::json_type(value)
}

/// JMESPath's truthiness: `null`, `false`, `""`, `[]` and `{}` are false, the rest true.
pub fn truthy(value: &Json) -> bool {
    match value {
        Json::Null => false,
        Json::Bool(b) => *b,
        Json::Number(_) => true,
        Json::String(s) => !s.is_empty(),
        Json::Array(items) => !items.is_empty(),
        Json::Object(fields) => !fields.is_empty(),
    }
}

/// A number as a float (numbers are kept as their text, so this parses it).
pub fn number(value: &Json) -> Option<f64> {
    match value {
        Json::Number(n) => n.as_f64(),
        _ => None,
    }
}

/// Numbers equal by value: exactly for integers, as floats otherwise.
fn numbers_equal(a: &Number, b: &Number) -> bool {
    if let (Some(a), Some(b)) = (a.as_i64(), b.as_i64()) {
        return a == b;
    }
    if let (Some(a), Some(b)) = (a.as_u64(), b.as_u64()) {
        return a == b;
    }
    a.as_f64() == b.as_f64()
}

/// Deep equality as JMESPath's `==`: numbers by value (`1 == 1.0`), objects regardless of
/// key order, lists element by element.
pub fn equal(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(a), Json::Number(b)) => numbers_equal(a, b),
        (Json::Array(a), Json::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| equal(a, b))
        }
        (Json::Object(a), Json::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(key, value)| b.get(key).is_some_and(|other| equal(value, other)))
        }
        _ => a == b,
    }
}

/// The order `sort`, `max` and `min` use: numbers with numbers, strings with strings (by
/// code point); `None` for any other pair.
pub fn order(a: &Json, b: &Json) -> Option<Ordering> {
    match (a, b) {
        (Json::Number(_), Json::Number(_)) => number(a)?.partial_cmp(&number(b)?),
        (Json::String(a), Json::String(b)) => Some(a.cmp(b)),
        _ => None,
    }
}

/// A computed number as JSON: a whole number within ±2⁵³ is written as an integer (`sum`
/// of integers is `6`, not `6.0`), NaN and infinities (which JSON cannot hold) as null.
pub fn from_f64(value: f64) -> Json {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if value.fract() == 0.0 && value.abs() <= EXACT {
        return Json::from(value as i64);
    }
    Number::from_f64(value).map_or(Json::Null, Json::Number)
}

/// How many nodes a value holds (itself, its items and fields, and a node per 64 bytes of
/// text), counted without recursion and stopping once past `limit`.
pub fn weight(value: &Json, limit: u64) -> u64 {
    let mut total = 0u64;
    let mut stack = vec![value];
    while let Some(at) = stack.pop() {
        total += 1;
        match at {
            Json::String(s) => total += s.len() as u64 / 64,
            Json::Array(items) => stack.extend(items),
            Json::Object(fields) => {
                total += fields.keys().map(|k| k.len() as u64 / 64).sum::<u64>();
                stack.extend(fields.values());
            }
            _ => {}
        }
        if total > limit {
            break;
        }
    }
    total
}
