//! A JSON value as CEL rules see it (apiserver `pkg/cel/common/valuesunstructured.go`):
//! typed by its schema node — `integer` as int, `number` as double, `date`/`date-time`
//! strings as timestamps, `duration` as durations, `byte` as bytes, int-or-string as either —
//! objects keyed by their escaped property names with null fields absent, and
//! `x-kubernetes-list-type: set`/`map` lists comparing without order.

use super::decl::{escape, has_type_and_object_meta, type_and_object_meta};
use super::node::{Additional, Node, Type as Kind};
use crate::cel::value::{Duration, Key, List, ListKind, Map, Timestamp, Value};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::sync::Arc;

/// `json` typed by `node`; `resource_root` for the root of a resource (and embedded
/// resources), whose `metadata` shows only `name` and `generateName`.
pub fn to_value(json: &Json, node: &Node, resource_root: bool) -> Value {
    if node.int_or_string {
        return match json {
            Json::String(s) => Value::String(s.as_str().into()),
            Json::Number(n) => n.as_i64().map_or_else(|| untyped(json), Value::Int),
            _ => untyped(json),
        };
    }
    match (node.kind, json) {
        (_, Json::Null) => Value::Null,
        (Some(Kind::Object), Json::Object(map)) => object(map, node, resource_root),
        (Some(Kind::Array), Json::Array(items)) => {
            let Some(item) = node.items.as_deref() else {
                return untyped(json);
            };
            let kind = match node.list_type.as_deref() {
                Some("set") => ListKind::Set,
                Some("map") => ListKind::Map(
                    node.list_map_keys
                        .iter()
                        .map(|k| escape(k).unwrap_or_else(|| k.clone()))
                        .collect(),
                ),
                _ => ListKind::Plain,
            };
            Value::List(Arc::new(List {
                items: items
                    .iter()
                    .map(|v| to_value(v, item, item.embedded_resource))
                    .collect(),
                kind,
            }))
        }
        (Some(Kind::String), Json::String(s)) => string(s, node.format.as_deref()),
        (Some(Kind::Number), Json::Number(n)) => Value::Double(n.as_f64().unwrap_or(f64::NAN)),
        (Some(Kind::Integer), Json::Number(n)) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => untyped(json),
        },
        (Some(Kind::Boolean), Json::Bool(b)) => Value::Bool(*b),
        _ => untyped(json),
    }
}

/// A string of a `format` CEL types (`date`, `date-time`, `duration`, `byte`); a value that
/// does not parse stays a string (the format check reports it).
fn string(s: &str, format: Option<&str>) -> Value {
    let parsed = match format {
        Some("date-time") => date_time(s).map(Value::Timestamp),
        Some("date") => date(s).map(Value::Timestamp),
        Some("duration") => {
            super::format::duration_nanos(s).map(|nanos| Value::Duration(Duration { nanos }))
        }
        Some("byte") => {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD
                .decode(s)
                .ok()
                .map(|b| Value::Bytes(b.into()))
        }
        _ => None,
    };
    parsed.unwrap_or_else(|| Value::String(s.into()))
}

/// strfmt's `ParseDateTime`: RFC 3339 with or without a fraction, the zone `Z`, `±hh:mm` or
/// `±hhmm`.
fn date_time(s: &str) -> Option<Timestamp> {
    let b = s.as_bytes();
    if b.len() < 20 || b[10] != b'T' && b[10] != b't' {
        return None;
    }
    let day = date(s.get(..10)?)?;
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let t = s.get(r)?;
        t.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| t.parse().ok())?
    };
    let (h, m, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if b[13] != b':' || b[16] != b':' || h > 23 || m > 59 || sec > 59 {
        return None;
    }
    let mut rest = &s[19..];
    let mut nanos: u32 = 0;
    if let Some(fraction) = rest.strip_prefix('.') {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 9 {
            return None;
        }
        let padded = format!("{:0<9}", &fraction[..digits]);
        nanos = padded.parse().ok()?;
        rest = &fraction[digits..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let zone = rest[1..].replace(':', "");
            if zone.len() != 4 || !zone.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let (zh, zm): (i64, i64) = (zone[..2].parse().ok()?, zone[2..].parse().ok()?);
            sign * (zh * 3600 + zm * 60)
        }
    };
    Some(
        Timestamp::new(day.secs + h * 3600 + m * 60 + sec - offset, nanos)
            .with_offset(offset as i32),
    )
}

/// `YYYY-MM-DD` at midnight UTC.
fn date(s: &str) -> Option<Timestamp> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let day = time::Date::parse(s, format).ok()?;
    Some(Timestamp::new(
        day.midnight().assume_utc().unix_timestamp(),
        0,
    ))
}

fn object(map: &serde_json::Map<String, Json>, node: &Node, resource_root: bool) -> Value {
    let mut entries = BTreeMap::new();
    let has_properties = !node.properties.is_empty() || node.embedded_resource || resource_root;
    if has_properties {
        let meta;
        let extra: Option<&BTreeMap<String, Node>> =
            if (resource_root || node.embedded_resource) && !has_type_and_object_meta(node) {
                meta = type_and_object_meta();
                Some(&meta)
            } else {
                None
            };
        for (key, value) in map {
            if value.is_null() {
                continue;
            }
            let schema = node
                .properties
                .get(key)
                .or_else(|| extra.and_then(|m| m.get(key)));
            let Some(schema) = schema else {
                continue;
            };
            let value = to_value(value, schema, schema.embedded_resource);
            let Some(name) = escape(key) else {
                // Invisible to rules (no CEL name), but part of the object's identity: its
                // equality, a list map's keys. No escaped name can take this key.
                entries.insert(Key::String(key.as_str().into()), value);
                continue;
            };
            if super::decl::is_reserved(key) {
                entries.insert(Key::String(key.as_str().into()), value.clone());
            }
            entries.insert(Key::String(name.into()), value);
        }
        if node.preserve_unknown_fields {
            // Fields the schema does not know are kept for equality, as the API server
            // compares the unstructured objects.
            for (key, value) in map {
                let known =
                    node.properties.contains_key(key) || extra.is_some_and(|m| m.contains_key(key));
                let key = Key::String(key.as_str().into());
                if !known && !value.is_null() && !entries.contains_key(&key) {
                    entries.insert(key, untyped(value));
                }
            }
        }
    } else if let Additional::Schema(values) = &node.additional {
        for (key, value) in map {
            entries.insert(
                Key::String(key.as_str().into()),
                to_value(value, values, values.embedded_resource),
            );
        }
    } else if node.preserve_unknown_fields {
        return untyped(&Json::Object(map.clone()));
    }
    Value::Map(Arc::new(Map {
        entries,
        object: None,
    }))
}

/// Item `i` of a converted list.
pub fn item(list: Option<&Value>, i: usize) -> Option<Value> {
    match list? {
        Value::List(l) => l.items.get(i).cloned(),
        _ => None,
    }
}

/// The property `key` of a converted object (found by its escaped name).
pub fn field(object: Option<&Value>, key: &str) -> Option<Value> {
    match object? {
        Value::Map(m) => m.entries.get(&Key::String(escape(key)?.into())).cloned(),
        _ => None,
    }
}

/// The entry `key` of a converted map (`additionalProperties`: keys as they are).
pub fn entry(map: Option<&Value>, key: &str) -> Option<Value> {
    match map? {
        Value::Map(m) => m.entries.get(&Key::String(key.into())).cloned(),
        _ => None,
    }
}

/// A value without a schema (preserved unknown fields): numbers as int when whole.
pub fn untyped(json: &Json) -> Value {
    match json {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Double(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => Value::String(s.as_str().into()),
        Json::Array(items) => Value::list(items.iter().map(untyped).collect()),
        Json::Object(map) => Value::map(
            map.iter()
                .map(|(k, v)| (Key::String(k.as_str().into()), untyped(v)))
                .collect(),
        ),
    }
}
