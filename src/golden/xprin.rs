//! Assertions in the spirit of xprin's (crossplane-contrib/xprin, `assertions.xprin`): Count,
//! Exists, NotExists, FieldType, FieldExists, FieldNotExists and FieldValue over the rendered
//! resources, each picked by a `Kind`, `Kind/name` or glob (`Kind/name-*`) pattern. Messages
//! use xprin's wording; where fnhcl differs (names, paths, operators) docs/compatibility.md
//! says so.
//!
//! Everything is bounded by the input: a glob is matched in time proportional to the pattern
//! times the name, a field path is walked once, regular expressions are RE2's (linear).

use super::scenario::resource_name;
use super::subset::{FieldPath, Step, scalars_equal, show};
use serde_json::Value as Json;
use std::fmt;

/// One assertion kind, as xprin spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// How many resources (matching a pattern) there are.
    Count,
    /// At least one resource matches the pattern.
    Exists,
    /// No resource matches the pattern.
    NotExists,
    /// A field's JSON type, in every matching resource.
    FieldType,
    /// A field is present, in every matching resource.
    FieldExists,
    /// A field is absent, in every matching resource.
    FieldNotExists,
    /// A field's value compared with an operator, in every matching resource.
    FieldValue,
}

impl Kind {
    /// The kind written as `type`, or `None`.
    pub fn parse(text: &str) -> Option<Kind> {
        Some(match text {
            "Count" => Kind::Count,
            "Exists" => Kind::Exists,
            "NotExists" => Kind::NotExists,
            "FieldType" => Kind::FieldType,
            "FieldExists" => Kind::FieldExists,
            "FieldNotExists" => Kind::FieldNotExists,
            "FieldValue" => Kind::FieldValue,
            _ => return None,
        })
    }

    /// Whether the kind reads a `field`.
    pub fn has_field(self) -> bool {
        matches!(
            self,
            Kind::FieldType | Kind::FieldExists | Kind::FieldNotExists | Kind::FieldValue
        )
    }
}

/// A comparison of `FieldValue`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    /// `==` or `is`: equal (numbers by value).
    Equal,
    /// `!=`: not equal.
    NotEqual,
    /// `<`, numbers only.
    Less,
    /// `<=`, numbers only.
    LessEqual,
    /// `>`, numbers only.
    Greater,
    /// `>=`, numbers only.
    GreaterEqual,
    /// `contains`: a substring of a string, an item of a list, a key of a map.
    Contains,
    /// `matches`: a string matches an RE2 regular expression (unanchored, as Go's).
    Matches,
}

/// The operators accepted, for the help line of a wrong one.
pub const OPERATORS: &str = "==, is, !=, <, <=, >, >=, contains, matches";

impl Operator {
    /// The operator written as `operator`, or `None`.
    pub fn parse(text: &str) -> Option<Operator> {
        Some(match text {
            "==" | "is" => Operator::Equal,
            "!=" => Operator::NotEqual,
            "<" => Operator::Less,
            "<=" => Operator::LessEqual,
            ">" => Operator::Greater,
            ">=" => Operator::GreaterEqual,
            "contains" => Operator::Contains,
            "matches" => Operator::Matches,
            _ => return None,
        })
    }

    /// Compares `actual` with `expected`; `Err` when the operator cannot apply to them.
    pub fn holds(self, actual: &Json, expected: &Json) -> Result<bool, String> {
        let numbers = || match (actual.as_f64(), expected.as_f64()) {
            (Some(a), Some(e)) => Ok((a, e)),
            _ => Err(format!(
                "cannot compare {} with {}: both must be numbers",
                show(actual),
                show(expected)
            )),
        };
        Ok(match self {
            Operator::Equal => scalars_equal(expected, actual),
            Operator::NotEqual => !scalars_equal(expected, actual),
            Operator::Less => numbers().map(|(a, e)| a < e)?,
            Operator::LessEqual => numbers().map(|(a, e)| a <= e)?,
            Operator::Greater => numbers().map(|(a, e)| a > e)?,
            Operator::GreaterEqual => numbers().map(|(a, e)| a >= e)?,
            Operator::Contains => match (actual, expected) {
                (Json::String(a), Json::String(e)) => a.contains(e.as_str()),
                (Json::Array(items), e) => items.iter().any(|item| scalars_equal(e, item)),
                (Json::Object(map), Json::String(e)) => map.contains_key(e),
                _ => {
                    return Err(format!(
                        "cannot tell whether {} contains {}",
                        show(actual),
                        show(expected)
                    ));
                }
            },
            Operator::Matches => {
                let (Json::String(a), Json::String(pattern)) = (actual, expected) else {
                    return Err(format!(
                        "cannot match {} against {}: both must be strings",
                        show(actual),
                        show(expected)
                    ));
                };
                let re = crate::re2::compile(pattern).map_err(|e| {
                    // Go's `regexp.Compile` wording.
                    format!("error parsing regexp: {}: `{}`", e.code, e.expr)
                })?;
                re.regex.is_match(a)
            }
        })
    }
}

/// A `resource` pattern: a kind glob and, optionally, a name glob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    kind: String,
    name: Option<String>,
}

impl Pattern {
    /// Reads `Kind` or `Kind/name` (each part may hold `*` and `?`).
    pub fn parse(text: &str) -> Result<Pattern, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("resource pattern cannot be empty".into());
        }
        let mut parts = text.split('/');
        let kind = parts.next().unwrap_or_default().to_string();
        let name = parts.next().map(str::to_string);
        if parts.next().is_some() || kind.is_empty() || name.as_deref() == Some("") {
            return Err(format!(
                "the resource pattern `{text}` must be in format 'Kind' or 'Kind/Name'"
            ));
        }
        Ok(Pattern { kind, name })
    }

    /// Whether a rendered document is picked: its kind matches, and its `metadata.name` or its
    /// composition resource name matches the name part.
    pub fn matches(&self, doc: &Json) -> bool {
        let kind = doc.get("kind").and_then(Json::as_str).unwrap_or_default();
        if !glob(&self.kind, kind) {
            return false;
        }
        let Some(name) = &self.name else {
            return true;
        };
        names(doc).iter().any(|candidate| glob(name, candidate))
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "{}/{name}", self.kind),
            None => f.write_str(&self.kind),
        }
    }
}

/// The names a document answers to: `metadata.name`, then its composition resource name.
fn names(doc: &Json) -> Vec<&str> {
    let metadata = doc.get("metadata");
    let name = metadata.and_then(|m| m.get("name")).and_then(Json::as_str);
    name.into_iter().chain(resource_name(doc)).collect()
}

/// A document as messages name it: `Kind/metadata.name`, with the composition resource name
/// when it has one (`Bucket/billing-data (resource bucket)`), or `Kind (resource bucket)`.
pub fn identify(doc: &Json) -> String {
    let kind = doc
        .get("kind")
        .and_then(Json::as_str)
        .unwrap_or("<no kind>");
    let metadata = doc.get("metadata");
    let name = metadata.and_then(|m| m.get("name")).and_then(Json::as_str);
    match (name, resource_name(doc)) {
        (Some(name), Some(resource)) if name != resource => {
            format!("{kind}/{name} (resource {resource})")
        }
        (Some(name), _) => format!("{kind}/{name}"),
        (None, Some(resource)) => format!("{kind} (resource {resource})"),
        (None, None) => kind.to_string(),
    }
}

/// Shell-style matching of `*` (any run of characters) and `?` (one character); everything
/// else literal. Greedy with one backtrack point, so time is at most pattern × text.
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(&c) if c == '?' || c == t[ti] => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Reads a field path: keys separated by dots, `[N]` list indexes, and `["a.b/c"]` for a key
/// holding dots (an annotation's, say).
pub fn parse_field(text: &str) -> Result<FieldPath, String> {
    let bad = |why: &str| format!("invalid field path `{text}`: {why}");
    let mut steps = Vec::new();
    let mut rest = text.trim();
    if rest.is_empty() {
        return Err(bad("it is empty"));
    }
    let mut expect_key = true;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']').ok_or_else(|| bad("a `[` is not closed"))?;
            let inner = after[..end].trim();
            let quoted = (inner.starts_with('"') && inner.ends_with('"'))
                || (inner.starts_with('\'') && inner.ends_with('\''));
            if quoted && inner.len() >= 2 {
                steps.push(Step::Key(inner[1..inner.len() - 1].to_string()));
            } else {
                let index = inner
                    .parse::<usize>()
                    .map_err(|_| bad("`[…]` holds an index or a quoted key"))?;
                steps.push(Step::Index(index));
            }
            rest = &after[end + 1..];
            expect_key = false;
            continue;
        }
        if let Some(after) = rest.strip_prefix('.') {
            if expect_key {
                return Err(bad("a key is empty"));
            }
            rest = after;
            expect_key = true;
            continue;
        }
        if !expect_key {
            return Err(bad("keys are separated by `.`"));
        }
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        steps.push(Step::Key(rest[..end].to_string()));
        rest = &rest[end..];
        expect_key = false;
    }
    if expect_key {
        return Err(bad("a key is empty"));
    }
    Ok(FieldPath(steps))
}

/// The value at a path: `None` when a step is missing (a key absent, an index past the end,
/// a step into a scalar). A key present with `null` is `Some(Null)`, as xprin counts it.
pub fn field<'a>(doc: &'a Json, path: &FieldPath) -> Option<&'a Json> {
    let mut at = doc;
    for step in &path.0 {
        at = match step {
            Step::Key(key) => at.as_object()?.get(key)?,
            Step::Index(index) => at.as_array()?.get(*index)?,
        };
    }
    Some(at)
}

/// A JSON value's type as xprin names it.
pub fn type_name(value: &Json) -> &'static str {
    crate::source::json_type(value)
}

/// The type names `FieldType` accepts.
pub const TYPES: [&str; 6] = ["string", "number", "boolean", "array", "object", "null"];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::RESOURCE_NAME_ANNOTATION as RESOURCE_NAME;
    use serde_json::json;

    #[test]
    fn globs_match_like_a_shell() {
        assert!(glob("group-*", "group-a"));
        assert!(glob("*", ""));
        assert!(glob("*-db", "my-db"));
        assert!(glob("a*b*c", "aXXbYYc"));
        assert!(glob("a?c", "abc"));
        assert!(!glob("a?c", "ac"));
        assert!(!glob("group-*", "legacy-group-a"));
        assert!(!glob("a*b", "a-c"));
        assert!(glob("ab", "ab") && !glob("ab", "abc"));
    }

    #[test]
    fn patterns_match_kind_and_either_name() {
        let doc = json!({"kind": "Bucket", "metadata": {"name": "billing-data",
            "annotations": {RESOURCE_NAME: "bucket"}}});
        for (pattern, hit) in [
            ("Bucket", true),
            ("Bucket/bucket", true),
            ("Bucket/billing-*", true),
            ("*/*", true),
            ("Bucket/other", false),
            ("Topic", false),
        ] {
            assert_eq!(
                Pattern::parse(pattern).unwrap().matches(&doc),
                hit,
                "{pattern}"
            );
        }
        assert!(Pattern::parse("Pod/name/extra").is_err());
        assert!(Pattern::parse(" ").is_err());
        assert!(Pattern::parse("Pod/").is_err());
        assert_eq!(identify(&doc), "Bucket/billing-data (resource bucket)");
    }

    #[test]
    fn field_paths_read_dots_indexes_and_quoted_keys() {
        let path = parse_field(r#"metadata.annotations["crossplane.io/x"].a[2]"#).unwrap();
        assert_eq!(
            path.to_string(),
            "metadata.annotations.crossplane.io/x.a[2]"
        );
        assert_eq!(path.0.len(), 5);
        for bad in ["", "a..b", "a.", ".a", "a[x]", "a[1", "a[0]b"] {
            assert!(parse_field(bad).is_err(), "{bad}");
        }
        let doc = json!({"a": {"b": null, "l": [1, 2]}});
        assert_eq!(field(&doc, &parse_field("a.b").unwrap()), Some(&Json::Null));
        assert_eq!(
            field(&doc, &parse_field("a.l[1]").unwrap()),
            Some(&json!(2))
        );
        assert_eq!(field(&doc, &parse_field("a.c").unwrap()), None);
        assert_eq!(field(&doc, &parse_field("a.l.x").unwrap()), None);
    }

    #[test]
    fn operators_compare_as_documented() {
        let holds = |op: &str, a: Json, e: Json| Operator::parse(op).unwrap().holds(&a, &e);
        assert_eq!(holds("==", json!(3), json!(3.0)), Ok(true));
        assert_eq!(holds("is", json!("3"), json!(3)), Ok(false));
        assert_eq!(holds("!=", json!("a"), json!("b")), Ok(true));
        assert_eq!(holds(">=", json!(3), json!(3)), Ok(true));
        assert_eq!(holds("<", json!(3), json!(2)), Ok(false));
        assert!(holds("<", json!("3"), json!(2)).is_err());
        assert_eq!(
            holds("contains", json!("eu-west-1"), json!("west")),
            Ok(true)
        );
        assert_eq!(holds("contains", json!([1, 2]), json!(2)), Ok(true));
        assert_eq!(holds("contains", json!({"k": 1}), json!("k")), Ok(true));
        assert_eq!(
            holds("matches", json!("eu-west-1"), json!("^eu-")),
            Ok(true)
        );
        assert!(holds("matches", json!("x"), json!("(")).is_err());
        assert!(Operator::parse("~=").is_none());
    }
}
