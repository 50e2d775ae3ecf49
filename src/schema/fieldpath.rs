//! A rule's `fieldPath` read as the API server reads it (apiextensions-apiserver
//! `pkg/apiserver/schema/cel/validation.go` `ValidFieldPath`): a JSON path of field
//! accessors (`.name`) and quoted keys (`['name']`) that must name a property (or map entry)
//! the schema declares, written back in `field.Path` form to report a failed rule there.

use super::node::{Additional, Node};

/// One step of a valid path: the name, and whether it is a map key (`[k]`) rather than a
/// property (`.k`).
pub type Step = (String, bool);

/// The path's steps from `node`, or the API server's reason it is not valid.
pub fn resolve(path: &str, node: &Node) -> Result<Vec<Step>, String> {
    let tokens = tokens(path);
    let mut tokens = tokens.iter().map(String::as_str);
    let empty = Node::default();
    let mut node = node;
    let mut steps = Vec::new();
    while let Some(token) = tokens.next() {
        match token {
            "[" => {
                let token = tokens.next().ok_or("unexpected end of JSON path")?;
                if token.len() < 2 || !token.starts_with('\'') || !token.ends_with('\'') {
                    return Err(format!("expected single quoted string but got {token}"));
                }
                let name = unescape(&token[1..token.len() - 1])
                    .map_err(|e| format!("invalid string literal: {e}"))?;
                enter(&name, &mut node, &empty, &mut steps)?;
                match tokens.next() {
                    None => return Err("unexpected end of JSON path".into()),
                    Some("]") => {}
                    Some(other) => return Err(format!("expected ] but got {other}")),
                }
            }
            "." => {
                let token = tokens.next().ok_or("unexpected end of JSON path")?;
                enter(token, &mut node, &empty, &mut steps)?;
            }
            other => return Err(format!("expected [ or . but got: {other}")),
        }
    }
    Ok(steps)
}

/// Goes into `name`: a property when the node declares properties, else a map entry.
fn enter<'a>(
    name: &str,
    node: &mut &'a Node,
    empty: &'a Node,
    steps: &mut Vec<Step>,
) -> Result<(), String> {
    if !node.properties.is_empty() {
        steps.push((name.to_string(), false));
        *node = node
            .properties
            .get(name)
            .ok_or_else(|| "does not refer to a valid field".to_string())?;
        return Ok(());
    }
    match &node.additional {
        Additional::Schema(values) => *node = values,
        Additional::Bool(_) => *node = empty,
        Additional::Unset => return Err("does not refer to a valid field".into()),
    }
    steps.push((name.to_string(), true));
    Ok(())
}

/// The steps as `field.Path` prints them (`a.b[k]`).
pub fn text(steps: &[Step]) -> String {
    let mut out = String::new();
    for (name, key) in steps {
        if *key {
            out.push_str(&format!("[{name}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(name);
        }
    }
    out
}

/// The path cut as the API server's scanner cuts it: `.`, `[` and `]` alone, a quoted
/// string (to its first unescaped closing quote) whole, and the text between.
fn tokens(path: &str) -> Vec<String> {
    let bytes = path.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let data = &bytes[at..];
        let len = if data[0] == b'\'' {
            (1..data.len())
                .find(|&i| data[i] == b'\'' && data[i - 1] != b'\\')
                .map_or(data.len(), |i| i + 1)
        } else {
            match data.iter().position(|b| matches!(b, b'.' | b'[' | b']')) {
                Some(0) => 1,
                Some(i) => i,
                None => data.len(),
            }
        };
        out.push(String::from_utf8_lossy(&data[..len]).into_owned());
        at += len;
    }
    out
}

/// The backslash escapes of a quoted key.
fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = s.chars();
    let mut error = None;
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(d) = chars.next() else {
            out.push(c);
            break;
        };
        out.push(match d {
            'a' => '\u{7}',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\u{b}',
            '\'' => '\'',
            '\\' => '\\',
            other => {
                error.get_or_insert_with(|| format!("invalid escape char \\{other}"));
                continue;
            }
        });
    }
    match error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Node {
        Node::compile(&serde_json::json!({"type": "object", "properties": {
            "a": {"type": "object", "properties": {"bbb.c": {"type": "number"}, "foo's": {"type": "number"}}},
            "m": {"type": "object", "additionalProperties": {"type": "object", "properties": {"x": {"type": "number"}}}},
            "list": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "number"}}}},
        }}))
        .unwrap()
    }

    #[test]
    fn valid_paths_are_normalised() {
        let s = schema();
        let t = |p: &str| resolve(p, &s).map(|steps| text(&steps));
        assert_eq!(t(".a['bbb.c']").unwrap(), "a.bbb.c");
        assert_eq!(t(".m['k'].x").unwrap(), "m[k].x");
        assert_eq!(t(".m.k").unwrap(), "m[k]");
        assert_eq!(t(".a['foo\\'s']").unwrap(), "a.foo's");
        assert_eq!(t("").unwrap(), "");
    }

    #[test]
    fn invalid_paths_say_why() {
        let s = schema();
        let e = |p: &str| resolve(p, &s).unwrap_err();
        assert_eq!(e(".c"), "does not refer to a valid field");
        assert_eq!(e("a"), "expected [ or . but got: a");
        assert_eq!(e("."), "unexpected end of JSON path");
        assert_eq!(e(".list[0]"), "expected single quoted string but got 0");
        assert_eq!(e(".list['a']"), "does not refer to a valid field");
        assert_eq!(e(".a..b"), "does not refer to a valid field");
        assert_eq!(e(".a['bbb.c'"), "unexpected end of JSON path");
    }
}
