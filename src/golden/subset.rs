//! Subset matching of documents, as chainsaw's `assert` (kyverno-json's assertion trees) does
//! it: an expected document matches an actual one when every field it gives matches — maps by
//! key (fields it leaves out are ignored), lists element by element with equal lengths,
//! scalars equal (numbers by value). Mismatches carry the field path and are worded as
//! chainsaw words them (`spec.region: Invalid value: "us-east-1": Expected value:
//! "eu-west-1"`), and [`node_at`] finds the assertion's own line for a path.
//!
//! Chainsaw's `(expression)` keys and values (JMESPath projections, `~` iteration, `->`
//! bindings) are not evaluated here: such a key is reported as unsupported rather than taken
//! as a field name.

use crate::source::yaml::{Node, NodeKind};
use serde_json::Value as Json;
use std::fmt;

/// One step of a field path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A map key.
    Key(String),
    /// A list index.
    Index(usize),
}

/// A field path, shown as Kubernetes' `field.Path` shows it: `spec.tags[0].key`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldPath(pub Vec<Step>);

impl FieldPath {
    fn child(&self, step: Step) -> FieldPath {
        let mut steps = self.0.clone();
        steps.push(step);
        FieldPath(steps)
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("<root>");
        }
        for (i, step) in self.0.iter().enumerate() {
            match step {
                Step::Key(key) if i == 0 => f.write_str(key)?,
                Step::Key(key) => write!(f, ".{key}")?,
                Step::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// What is wrong at a path.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// The expected field is absent (or null) in the actual document.
    NotFound,
    /// The actual value is not the expected one.
    Differs {
        /// The value expected.
        expected: Json,
        /// The value found.
        actual: Json,
    },
    /// A list of another length than expected.
    Length {
        /// The expected length.
        expected: usize,
        /// The list found.
        actual: Json,
    },
    /// The actual value is of another kind (a map or a list expected).
    Kind {
        /// `a map` or `a list`.
        expected: &'static str,
        /// The value found.
        actual: Json,
    },
    /// An empty map was expected (meaning "present"), and the field is null.
    Null,
    /// A chainsaw `(expression)` key or value, which fnhcl does not evaluate.
    Expression(String),
}

/// A mismatch: where, and what.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// The field.
    pub path: FieldPath,
    /// What is wrong with it.
    pub problem: Problem,
}

/// A value as Go's `%v`/`%q` would show it in chainsaw's messages: strings quoted, the rest
/// as compact JSON.
pub fn show(value: &Json) -> String {
    match value {
        Json::String(s) => crate::source::gostr::quote(s),
        other => other.to_string(),
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = &self.path;
        match &self.problem {
            Problem::NotFound => write!(
                f,
                "{path}: Required value: field not found in the input object"
            ),
            Problem::Differs { expected, actual } => write!(
                f,
                "{path}: Invalid value: {}: Expected value: {}",
                show(actual),
                show(expected)
            ),
            Problem::Length { expected, actual } => {
                let found = actual.as_array().map_or(0, Vec::len);
                write!(
                    f,
                    "{path}: Invalid value: {}: lengths of slices don't match (expected {expected} items, found {found})",
                    show(actual)
                )
            }
            Problem::Kind { expected, actual } => write!(
                f,
                "{path}: Invalid value: {}: expected {expected}",
                show(actual)
            ),
            Problem::Null => write!(
                f,
                "{path}: Invalid value: null: invalid value, must not be null"
            ),
            Problem::Expression(text) => write!(
                f,
                "{path}: unsupported: {text} is a chainsaw expression, which fnhcl does not evaluate"
            ),
        }
    }
}

/// Whether a key or value is written as a chainsaw expression: `(…)`, `~…(…)`, or with a
/// `->binding`.
fn is_expression(text: &str) -> bool {
    let t = text.trim();
    (t.starts_with('(') && t.ends_with(')'))
        || (t.starts_with('~') && t.contains('('))
        || (t.starts_with('(') && t.contains(")->"))
}

/// Scalars equal as chainsaw compares them: numbers by value (`1` matches `1.0`), the rest
/// exactly.
pub fn scalars_equal(expected: &Json, actual: &Json) -> bool {
    match (expected, actual) {
        (Json::Number(a), Json::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => a == b,
            _ => match (a.as_u64(), b.as_u64()) {
                (Some(a), Some(b)) => a == b,
                _ => a.as_f64() == b.as_f64(),
            },
        },
        _ => expected == actual,
    }
}

/// Every mismatch of `actual` against the subset `expected`, in the order of the expected
/// value's keys (sorted: a caller wanting the file's order sorts by [`node_at`]); empty when
/// it matches.
pub fn mismatches(expected: &Json, actual: &Json) -> Vec<Mismatch> {
    let mut out = Vec::new();
    walk(expected, Some(actual), &FieldPath::default(), &mut out);
    out
}

fn walk(expected: &Json, actual: Option<&Json>, path: &FieldPath, out: &mut Vec<Mismatch>) {
    let mut push = |problem| {
        out.push(Mismatch {
            path: path.clone(),
            problem,
        })
    };
    match expected {
        Json::Object(fields) => {
            let actual = actual.unwrap_or(&Json::Null);
            if fields.is_empty() {
                if actual.is_null() {
                    push(Problem::Null);
                }
                return;
            }
            let Json::Object(found) = actual else {
                push(Problem::Kind {
                    expected: "a map",
                    actual: actual.clone(),
                });
                return;
            };
            for (key, value) in fields {
                let at = path.child(Step::Key(key.clone()));
                if is_expression(key) {
                    out.push(Mismatch {
                        path: at,
                        problem: Problem::Expression(key.clone()),
                    });
                    continue;
                }
                match found.get(key) {
                    None | Some(Json::Null) => out.push(Mismatch {
                        path: at,
                        problem: Problem::NotFound,
                    }),
                    Some(actual) => walk(value, Some(actual), &at, out),
                }
            }
        }
        Json::Array(items) => {
            let actual = actual.unwrap_or(&Json::Null);
            let Json::Array(found) = actual else {
                push(Problem::Kind {
                    expected: "a list",
                    actual: actual.clone(),
                });
                return;
            };
            if found.len() != items.len() {
                push(Problem::Length {
                    expected: items.len(),
                    actual: actual.clone(),
                });
                return;
            }
            for (index, (item, actual)) in items.iter().zip(found).enumerate() {
                walk(item, Some(actual), &path.child(Step::Index(index)), out);
            }
        }
        Json::String(text) if is_expression(text) => push(Problem::Expression(text.clone())),
        scalar => {
            let actual = actual.unwrap_or(&Json::Null);
            if !scalars_equal(scalar, actual) {
                push(Problem::Differs {
                    expected: scalar.clone(),
                    actual: actual.clone(),
                });
            }
        }
    }
}

/// The documents an expected one is compared with: those of its `apiVersion` and `kind`, and
/// of its `metadata.name` and `metadata.namespace` when it gives them (as chainsaw looks the
/// resource up before comparing).
pub fn candidates<'a>(expected: &Json, documents: &'a [Json]) -> Vec<(usize, &'a Json)> {
    let field = |doc: &Json, path: &[&str]| -> Option<Json> {
        let mut at = doc;
        for key in path {
            at = at.get(key)?;
        }
        Some(at.clone())
    };
    let keys: [&[&str]; 4] = [
        &["apiVersion"],
        &["kind"],
        &["metadata", "name"],
        &["metadata", "namespace"],
    ];
    documents
        .iter()
        .enumerate()
        .filter(|(_, doc)| {
            keys.iter().all(|path| match field(expected, path) {
                None => true,
                Some(Json::String(s)) if is_expression(&s) => true,
                Some(wanted) => field(doc, path).as_ref() == Some(&wanted),
            })
        })
        .collect()
}

/// How an expected document fared against a stream.
#[derive(Clone, Debug, PartialEq)]
pub enum Found {
    /// It matches this document (the first that does).
    Matches(usize),
    /// No document has its kind (and name): nothing to compare with.
    NoCandidate,
    /// Candidates exist but none matches: each one's mismatches, the closest first.
    Differs(Vec<(usize, Vec<Mismatch>)>),
}

/// Looks an expected (subset) document up in a stream.
pub fn find(expected: &Json, documents: &[Json]) -> Found {
    let candidates = candidates(expected, documents);
    if candidates.is_empty() {
        return Found::NoCandidate;
    }
    let mut failed = Vec::new();
    for (index, doc) in candidates {
        let problems = mismatches(expected, doc);
        if problems.is_empty() {
            return Found::Matches(index);
        }
        failed.push((index, problems));
    }
    failed.sort_by_key(|(index, problems)| (problems.len(), *index));
    Found::Differs(failed)
}

/// The node of an assertion's source for a field path: the deepest node the path reaches
/// (the key's value node, or the list item), so a mismatch points at the line that asked for
/// the value.
pub fn node_at<'a>(root: &'a Node, path: &FieldPath) -> &'a Node {
    let mut at = root;
    for step in &path.0 {
        let next = match (&at.kind, step) {
            (NodeKind::Mapping(entries), Step::Key(key)) => entries
                .iter()
                .find(|(k, _)| k.as_str() == Some(key.as_str()))
                .map(|(_, v)| v),
            (NodeKind::Sequence(items), Step::Index(index)) => items.get(*index),
            _ => None,
        };
        match next {
            Some(node) => at = node,
            None => break,
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shown(expected: Json, actual: Json) -> Vec<String> {
        mismatches(&expected, &actual)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn maps_match_by_the_keys_given() {
        assert!(shown(json!({"a": 1}), json!({"a": 1, "b": 2})).is_empty());
        assert_eq!(
            shown(json!({"a": {"b": "x"}}), json!({"a": {"b": "y"}})),
            [r#"a.b: Invalid value: "y": Expected value: "x""#]
        );
        assert_eq!(
            shown(json!({"a": {"c": 1}}), json!({"a": {"b": "y"}})),
            ["a.c: Required value: field not found in the input object"]
        );
    }

    #[test]
    fn lists_match_element_wise_with_equal_lengths() {
        assert!(
            shown(
                json!({"l": [{"a": 1}, 2]}),
                json!({"l": [{"a": 1, "z": 0}, 2]})
            )
            .is_empty()
        );
        assert_eq!(
            shown(json!({"l": [1]}), json!({"l": [1, 2]})),
            ["l: Invalid value: [1,2]: lengths of slices don't match (expected 1 items, found 2)"]
        );
        assert_eq!(
            shown(json!({"l": [1, 3]}), json!({"l": [1, 2]})),
            ["l[1]: Invalid value: 2: Expected value: 3"]
        );
    }

    #[test]
    fn numbers_by_value_and_kinds_checked() {
        assert!(shown(json!({"n": 1}), json!({"n": 1.0})).is_empty());
        assert_eq!(
            shown(json!({"n": {"x": 1}}), json!({"n": "s"})),
            [r#"n: Invalid value: "s": expected a map"#]
        );
        assert_eq!(
            shown(json!({"n": {}}), json!({"n": null})),
            ["n: Required value: field not found in the input object"]
        );
        assert!(shown(json!({"n": {}}), json!({"n": {"x": 1}})).is_empty());
        assert_eq!(
            shown(json!({"(x[0])": 1}), json!({})),
            ["(x[0]): unsupported: (x[0]) is a chainsaw expression, which fnhcl does not evaluate"]
        );
    }

    #[test]
    fn find_looks_up_by_kind_and_name_then_compares() {
        let docs = [
            json!({"apiVersion": "v1", "kind": "A", "metadata": {"name": "one"}, "x": 1}),
            json!({"apiVersion": "v1", "kind": "A", "metadata": {"name": "two"}, "x": 2}),
        ];
        assert_eq!(
            find(&json!({"apiVersion": "v1", "kind": "A", "x": 2}), &docs),
            Found::Matches(1)
        );
        assert_eq!(
            find(&json!({"apiVersion": "v1", "kind": "B"}), &docs),
            Found::NoCandidate
        );
        let Found::Differs(failed) = find(
            &json!({"apiVersion": "v1", "kind": "A", "metadata": {"name": "one"}, "x": 2}),
            &docs,
        ) else {
            panic!("expected a difference")
        };
        assert_eq!(failed.len(), 1);
        assert_eq!(failed[0].0, 0);
    }

    #[test]
    fn node_at_finds_the_assertion_line() {
        let text = "kind: A\nspec:\n  region: x\n  tags:\n  - a\n  - b\n";
        let root = &crate::source::yaml::parse_nodes(text).unwrap()[0];
        let path = FieldPath(vec![
            Step::Key("spec".into()),
            Step::Key("tags".into()),
            Step::Index(1),
        ]);
        let node = node_at(root, &path);
        assert_eq!(&text[node.span.clone()], "b");
        let path = FieldPath(vec![Step::Key("spec".into()), Step::Key("region".into())]);
        assert_eq!(&text[node_at(root, &path).span.clone()], "x");
    }
}
