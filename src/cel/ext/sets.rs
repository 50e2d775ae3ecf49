//! cel-go's `ext.Sets` (`ext/sets.go`): `sets.contains`, `sets.equivalent`,
//! `sets.intersects`, membership by CEL equality (`Value::equals`).

use super::{MAX_COMPARISONS, list_arg, too_big};
use crate::cel::env::Function;
use crate::cel::types::Type;
use crate::cel::value::{Error, List, Value};

/// The library's functions.
pub fn functions() -> Vec<Function> {
    let list_t = Type::list(Type::param("T"));
    let params = vec![list_t.clone(), list_t];
    vec![
        Function::new("sets.contains").global(
            "list_sets_contains_list",
            params.clone(),
            Type::Bool,
            |a| {
                let (x, y) = bounded(list_arg(a, 0)?, list_arg(a, 1)?)?;
                Ok(Value::Bool(contains(x, y)))
            },
        ),
        Function::new("sets.equivalent").global(
            "list_sets_equivalent_list",
            params.clone(),
            Type::Bool,
            |a| {
                let (x, y) = bounded(list_arg(a, 0)?, list_arg(a, 1)?)?;
                Ok(Value::Bool(contains(x, y) && contains(y, x)))
            },
        ),
        Function::new("sets.intersects").global(
            "list_sets_intersects_list",
            params,
            Type::Bool,
            |a| {
                let (x, y) = bounded(list_arg(a, 0)?, list_arg(a, 1)?)?;
                Ok(Value::Bool(intersects(x, y)))
            },
        ),
    ]
}

/// The two lists, unless comparing every pair would pass [`MAX_COMPARISONS`].
fn bounded<'a>(a: &'a List, b: &'a List) -> Result<(&'a List, &'a List), Error> {
    let pairs = (a.items.len() as u64).saturating_mul(b.items.len() as u64);
    if pairs > MAX_COMPARISONS {
        return Err(too_big());
    }
    Ok((a, b))
}

fn has(list: &List, v: &Value) -> bool {
    list.items.iter().any(|x| x.equals(v))
}

/// Whether every element of `sub` is in `list`.
pub fn contains(list: &List, sub: &List) -> bool {
    sub.items.iter().all(|v| has(list, v))
}

/// Whether some element of `a` is in `b`.
pub fn intersects(a: &List, b: &List) -> bool {
    a.items.iter().any(|v| has(b, v))
}
