//! HCL text for values the conversion writes: string literals, JSON values as HCL literals,
//! and field paths as traversals. Only text is produced here; the formatter lays it out.

use serde_json::Value as Json;

/// A P&T field path segment (crossplane-runtime's `fieldpath`): a field name or an index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    /// `.name` or `[name]`.
    Field(String),
    /// `[3]`.
    Index(usize),
    /// `[*]`: every element.
    Wildcard,
}

/// Parses a field path as crossplane-runtime's `fieldpath.Parse` reads it (`pt::fieldpath`):
/// `.`-separated names, `[N]` indexes, `[name]` bracketed names stripped of quotes, `*` the
/// wildcard. `None` when it is malformed or empty.
pub fn parse_path(path: &str) -> Option<Vec<Seg>> {
    let segments = crate::pt::fieldpath::parse(path).ok()?;
    let out: Vec<Seg> = segments
        .0
        .into_iter()
        .map(|s| match s {
            crate::pt::fieldpath::Segment::Field(f) if f == "*" => Seg::Wildcard,
            crate::pt::fieldpath::Segment::Field(f) => Seg::Field(f),
            crate::pt::fieldpath::Segment::Index(i) => {
                Seg::Index(usize::try_from(i).unwrap_or(usize::MAX))
            }
        })
        .collect();
    if out.is_empty() { None } else { Some(out) }
}

/// Whether `name` may be written bare after a `.` (HCL's identifiers, ASCII only here so
/// that the output reads the same in every tool).
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A quoted HCL string literal holding `text` exactly (template sequences escaped).
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An object key: bare when it is an identifier that is not one of HCL's keywords.
pub fn key(name: &str) -> String {
    if is_identifier(name) && !matches!(name, "null" | "true" | "false" | "for" | "if" | "in") {
        name.to_string()
    } else {
        quote(name)
    }
}

/// The traversal of `path` below the expression `root`: `root.a.b["c.d"][0]`.
pub fn traversal(root: &str, path: &[Seg]) -> String {
    let mut out = root.to_string();
    for seg in path {
        match seg {
            Seg::Field(f) if is_identifier(f) => {
                out.push('.');
                out.push_str(f);
            }
            Seg::Field(f) => {
                out.push('[');
                out.push_str(&quote(f));
                out.push(']');
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
            // Never asked for: wildcards are refused before a traversal is written.
            Seg::Wildcard => out.push_str("[*]"),
        }
    }
    out
}

/// A JSON value as an HCL literal (objects on several lines; the formatter aligns them).
pub fn literal(value: &Json) -> String {
    match value {
        Json::Null => "null".into(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.to_string(),
        Json::String(s) => quote(s),
        Json::Array(items) => {
            let parts: Vec<String> = items.iter().map(literal).collect();
            if parts.iter().any(|p| p.contains('\n')) {
                format!("[\n{},\n]", parts.join(",\n"))
            } else {
                format!("[{}]", parts.join(", "))
            }
        }
        Json::Object(fields) if fields.is_empty() => "{}".into(),
        Json::Object(fields) => {
            let lines: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{} = {}", key(k), literal(v)))
                .collect();
            format!("{{\n{}\n}}", lines.join("\n"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_parse_as_crossplane_runtime_reads_them() {
        assert_eq!(
            parse_path("metadata.labels[crossplane.io/claim-name]"),
            Some(vec![
                Seg::Field("metadata".into()),
                Seg::Field("labels".into()),
                Seg::Field("crossplane.io/claim-name".into()),
            ])
        );
        assert_eq!(
            parse_path("spec.items[0].name"),
            Some(vec![
                Seg::Field("spec".into()),
                Seg::Field("items".into()),
                Seg::Index(0),
                Seg::Field("name".into()),
            ])
        );
        assert_eq!(parse_path("a[*].b").map(|p| p.len()), Some(3));
        assert_eq!(
            parse_path("tags[\"Name\"]").map(|p| p[1].clone()),
            Some(Seg::Field("Name".into()))
        );
        assert_eq!(parse_path("a["), None);
        assert_eq!(parse_path(""), None);
    }

    #[test]
    fn traversals_and_literals() {
        let path = parse_path("metadata.labels[app.kubernetes.io/name]").unwrap();
        assert_eq!(
            traversal("xr", &path),
            "xr.metadata.labels[\"app.kubernetes.io/name\"]"
        );
        assert_eq!(quote("a${b}%{c}\"\\"), "\"a$${b}%%{c}\\\"\\\\\"");
        assert_eq!(key("true"), "\"true\"");
        assert_eq!(key("my-key"), "my-key");
    }
}
