//! `patches.addFields` and `patches.removeFields`: setting and removing a field of the input
//! XR by its path, written as the design writes them (`spec.region`, `metadata.labels`), with
//! `[N]` for a list item and `[key]` for a key holding dots
//! (`metadata.annotations[example.com/a.b]`).

// A step of a field path is the assertions' `Step`: a map key or a list index.
use crate::golden::subset::Step as Part;
use serde_json::{Map, Value as Json};

/// The parts of a field path.
fn parse(path: &str) -> Result<Vec<Part>, String> {
    let bad = || format!("`{path}` is not a field path (write e.g. spec.parameters.region)");
    let mut parts = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(inner) = rest.strip_prefix('[') {
            let end = inner.find(']').ok_or_else(bad)?;
            let text = &inner[..end];
            let text = text.trim_matches('"');
            if text.is_empty() {
                return Err(bad());
            }
            parts.push(match text.parse::<usize>() {
                Ok(n) => Part::Index(n),
                Err(_) => Part::Key(text.to_string()),
            });
            rest = &inner[end + 1..];
            rest = rest.strip_prefix('.').unwrap_or(rest);
            continue;
        }
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        if end == 0 {
            return Err(bad());
        }
        parts.push(Part::Key(rest[..end].to_string()));
        rest = &rest[end..];
        rest = rest.strip_prefix('.').unwrap_or(rest);
    }
    if parts.is_empty() {
        return Err(bad());
    }
    Ok(parts)
}

/// Sets the field at `path` to the string `value`, making the maps on the way.
pub fn add(xr: &mut Json, path: &str, value: &str) -> Result<(), String> {
    let parts = parse(path)?;
    let mut at = xr;
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let next = match part {
            Part::Key(key) => {
                if at.is_null() {
                    *at = Json::Object(Map::new());
                }
                let Json::Object(map) = at else {
                    return Err(format!(
                        "addFields `{path}`: `{key}` is not inside a mapping"
                    ));
                };
                map.entry(key.clone()).or_insert(Json::Null)
            }
            Part::Index(index) => {
                let Some(item) = at.as_array_mut().and_then(|l| l.get_mut(*index)) else {
                    return Err(format!("addFields `{path}`: there is no item [{index}]"));
                };
                item
            }
        };
        if last {
            *next = Json::String(value.to_string());
            return Ok(());
        }
        at = next;
    }
    Ok(())
}

/// Removes the field at `path`; a field that is not there is left alone.
pub fn remove(xr: &mut Json, path: &str) -> Result<(), String> {
    let mut parts = parse(path)?;
    let Some(leaf) = parts.pop() else {
        return Ok(());
    };
    let mut at = xr;
    for part in &parts {
        let next = match part {
            Part::Key(key) => at.get_mut(key.as_str()),
            Part::Index(index) => at.get_mut(*index),
        };
        match next {
            Some(next) => at = next,
            None => return Ok(()),
        }
    }
    match (leaf, at) {
        (Part::Key(key), Json::Object(map)) => {
            map.remove(&key);
        }
        (Part::Index(index), Json::Array(list)) if index < list.len() => {
            list.remove(index);
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_set_and_remove_fields() {
        let mut xr = json!({"spec": {"a": 1, "l": [{"x": 1}]}, "metadata": {"name": "n"}});
        add(&mut xr, "spec.region", "eu").unwrap();
        add(&mut xr, "spec.l[0].y", "2").unwrap();
        add(&mut xr, "metadata.annotations[example.com/a.b]", "v").unwrap();
        assert_eq!(xr.pointer("/spec/region"), Some(&json!("eu")));
        assert_eq!(xr.pointer("/spec/l/0/y"), Some(&json!("2")));
        assert_eq!(
            xr.pointer("/metadata/annotations/example.com~1a.b"),
            Some(&json!("v"))
        );
        remove(&mut xr, "spec.a").unwrap();
        remove(&mut xr, "spec.missing.deeper").unwrap();
        assert_eq!(xr.pointer("/spec/a"), None);
        assert!(add(&mut xr, "spec.region.x", "v").is_err());
        assert!(add(&mut xr, "spec.l[3]", "v").is_err());
        assert!(parse("a..b").is_err());
        assert!(parse("").is_err());
    }
}
