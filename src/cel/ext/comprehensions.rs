//! The runtime helper of cel-go's `ext.TwoVarComprehensions` (`ext/comprehensions.go`):
//! `cel.@mapInsert`, which the `transformMap` and `transformMapEntry` macros' expansions
//! call to add entries to their accumulator. The macros themselves are the parser's.

use crate::cel::env::Function;
use crate::cel::types::Type;
use crate::cel::value::{Error, Map, Value, lookup};
use std::sync::Arc;

/// The library's functions.
pub fn functions() -> Vec<Function> {
    let k = Type::param("K");
    let v = Type::param("V");
    let map_kv = Type::map(k.clone(), v.clone());
    vec![
        Function::new("cel.@mapInsert")
            .global(
                "@mapInsert_map_key_value",
                vec![map_kv.clone(), k, v],
                map_kv.clone(),
                |a| match (a.first(), a.get(1), a.get(2)) {
                    (Some(Value::Map(m)), Some(key), Some(value)) => {
                        insert(m, std::slice::from_ref(&(key.clone(), value.clone())))
                    }
                    _ => Err(Error::no_such_overload()),
                },
            )
            .global(
                "@mapInsert_map_map",
                vec![map_kv.clone(), map_kv.clone()],
                map_kv,
                |a| match (a.first(), a.get(1)) {
                    (Some(Value::Map(m)), Some(Value::Map(u))) => {
                        let entries: Vec<(Value, Value)> = u
                            .entries
                            .iter()
                            .map(|(k, v)| (Value::from(k.clone()), v.clone()))
                            .collect();
                        insert(m, &entries)
                    }
                    _ => Err(Error::no_such_overload()),
                },
            ),
    ]
}

/// `m` with `entries` added; cel-go's error for a key `m` already has. Copies `m`: an
/// interpreter holding the accumulator alone should use [`insert_in_place`].
pub fn insert(m: &Arc<Map>, entries: &[(Value, Value)]) -> Result<Value, Error> {
    let mut out = m.clone();
    for (k, v) in entries {
        insert_in_place(&mut out, k.clone(), v.clone())?;
    }
    Ok(Value::Map(out))
}

/// Adds `key: value` to `m`, copying the map only if it is shared (`Arc::make_mut`): an
/// interpreter that owns a `transformMap` accumulator (cel-go keeps it mutable) inserts
/// in constant-amortised time instead of copying the map at every step. cel-go's errors:
/// `insert failed: key K already exists`, and for a key no map may have,
/// `unsupported key type: T`.
pub fn insert_in_place(m: &mut Arc<Map>, key: Value, value: Value) -> Result<(), Error> {
    let Some(k) = key.as_key() else {
        return Err(Error::new(format!(
            "unsupported key type: {}",
            super::gofmt::type_name(&key)
        )));
    };
    if lookup(&m.entries, &k).is_some() {
        return Err(Error::new(format!(
            "insert failed: key {} already exists",
            super::gofmt::go_v(&key)
        )));
    }
    let map = Arc::make_mut(m);
    // the result is a plain map, not an object of the accumulator's schema type
    map.object = None;
    map.entries.insert(k, value);
    Ok(())
}
