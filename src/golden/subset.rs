//! Subset matching of documents, as chainsaw's `assert` (kyverno-json's assertion trees) does
//! it: an expected document matches an actual one when every field it gives matches — maps by
//! key (fields it leaves out are ignored), lists element by element with equal lengths,
//! scalars equal (numbers by value). Mismatches carry the field path and are worded as
//! chainsaw words them (`spec.region: Invalid value: "us-east-1": Expected value:
//! "eu-west-1"`), and [`node_at`] finds the assertion's own line for a path.
//!
//! Chainsaw's expression forms are evaluated as kyverno-json evaluates them (reading in
//! [`keyexpr`], JMESPath in [`jmes`]): a `(expr)` key projects the actual value, `~.(expr)`
//! and `~name.(expr)` iterate over the projection, `(expr)->name` binds `$name` for what the
//! key holds, and a `(expr)` value is evaluated on the actual value and compared with it.

use super::{jmes, keyexpr};
use crate::source::yaml::{Node, NodeKind};
use serde_json::Value as Json;
use std::borrow::Cow;
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
    /// A chainsaw `(expression)` key or value that could not be evaluated: why, in
    /// chainsaw's words (`Invalid value: "…": …` for one that does not parse, `Internal
    /// error: …` for one that fails).
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
        Json::String(s) => crate::gostd::strconv::quote(s),
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
            Problem::Expression(why) => write!(f, "{path}: {why}"),
        }
    }
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
/// it matches. Expressions of one comparison share one [`jmes::BUDGET`].
pub fn mismatches(expected: &Json, actual: &Json) -> Vec<Mismatch> {
    let mut walk = Walk {
        out: Vec::new(),
        budget: jmes::Budget::new(jmes::BUDGET),
    };
    walk.walk(expected, actual, &FieldPath::default(), &[]);
    walk.out
}

/// kyverno-json's `Match`, with which an expression's result is compared with the actual
/// value: maps by the keys the result has, lists element-wise with equal lengths, the rest
/// equal (numbers by value); values of different kinds do not match.
fn matches(expected: &Json, actual: &Json) -> bool {
    match (expected, actual) {
        (Json::Array(items), Json::Array(found)) => {
            items.len() == found.len() && items.iter().zip(found).all(|(e, a)| matches(e, a))
        }
        (Json::Object(fields), Json::Object(found)) => fields
            .iter()
            .all(|(key, e)| found.get(key).is_some_and(|a| matches(e, a))),
        (Json::Array(_) | Json::Object(_), _) => false,
        _ => scalars_equal(expected, actual),
    }
}

/// One comparison: the mismatches found and the work its expressions may still do.
struct Walk {
    out: Vec<Mismatch>,
    budget: jmes::Budget,
}

type Bindings = [(String, Json)];

impl Walk {
    fn push(&mut self, path: &FieldPath, problem: Problem) {
        self.out.push(Mismatch {
            path: path.clone(),
            problem,
        });
    }

    /// Evaluates an expression written as `text` (its statement `statement`, in language
    /// `compiler`) on `actual`; a problem is pushed at `path` when it cannot be.
    fn evaluate(
        &mut self,
        text: &str,
        statement: &str,
        compiler: &str,
        actual: &Json,
        path: &FieldPath,
        bindings: &Bindings,
    ) -> Option<Json> {
        if compiler != "jp" {
            let why = format!(
                "Invalid value: {}: fnhcl evaluates JMESPath expressions, not {compiler}",
                show(&Json::String(text.into()))
            );
            self.push(path, Problem::Expression(why));
            return None;
        }
        let expression = match jmes::compile(statement) {
            Ok(expression) => expression,
            Err(why) => {
                let why = format!(
                    "Invalid value: {}: {why}",
                    show(&Json::String(statement.into()))
                );
                self.push(path, Problem::Expression(why));
                return None;
            }
        };
        match expression.search(actual, bindings, &mut self.budget) {
            Ok(value) => Some(value),
            Err(why) => {
                self.push(path, Problem::Expression(format!("Internal error: {why}")));
                None
            }
        }
    }

    fn walk(&mut self, expected: &Json, actual: &Json, path: &FieldPath, bindings: &Bindings) {
        match expected {
            Json::Object(fields) => self.walk_map(fields, actual, path, bindings),
            Json::Array(items) => {
                let Json::Array(found) = actual else {
                    self.push(
                        path,
                        Problem::Kind {
                            expected: "a list",
                            actual: actual.clone(),
                        },
                    );
                    return;
                };
                if found.len() != items.len() {
                    self.push(
                        path,
                        Problem::Length {
                            expected: items.len(),
                            actual: actual.clone(),
                        },
                    );
                    return;
                }
                for (index, (item, actual)) in items.iter().zip(found).enumerate() {
                    self.walk(item, actual, &path.child(Step::Index(index)), bindings);
                }
            }
            Json::String(text) => {
                let read = keyexpr::parse(text);
                let refused = if read.foreach.is_some() {
                    Some("foreach")
                } else if read.binding.is_some() {
                    Some("binding")
                } else {
                    None
                };
                if let Some(what) = refused {
                    let why = format!(
                        "Invalid value: {}: {what} is not supported in scalar projections (escape a text as \\…\\)",
                        show(expected)
                    );
                    self.push(path, Problem::Expression(why));
                    return;
                }
                let wanted = match read.compiler {
                    None => Json::String(read.statement.into()),
                    Some(compiler) => {
                        match self.evaluate(text, read.statement, compiler, actual, path, bindings)
                        {
                            Some(value) => value,
                            None => return,
                        }
                    }
                };
                if !matches(&wanted, actual) {
                    self.push(
                        path,
                        Problem::Differs {
                            expected: wanted,
                            actual: actual.clone(),
                        },
                    );
                }
            }
            scalar => {
                if !scalars_equal(scalar, actual) {
                    self.push(
                        path,
                        Problem::Differs {
                            expected: scalar.clone(),
                            actual: actual.clone(),
                        },
                    );
                }
            }
        }
    }

    fn walk_map(
        &mut self,
        fields: &serde_json::Map<String, Json>,
        actual: &Json,
        path: &FieldPath,
        bindings: &Bindings,
    ) {
        if fields.is_empty() {
            if actual.is_null() {
                self.push(path, Problem::Null);
            }
            return;
        }
        // A plain key needs a map; the kind is reported once for all of them.
        let mut kind_reported = false;
        for (key, value) in fields {
            let at = path.child(Step::Key(key.clone()));
            let read = keyexpr::parse(key);
            let projected: Cow<'_, Json> = match read.compiler {
                Some(compiler) => {
                    match self.evaluate(key, read.statement, compiler, actual, &at, bindings) {
                        Some(value) => Cow::Owned(value),
                        None => continue,
                    }
                }
                None => match actual {
                    Json::Object(found) => match found.get(read.statement) {
                        None | Some(Json::Null) => {
                            self.push(&at, Problem::NotFound);
                            continue;
                        }
                        Some(value) => Cow::Borrowed(value),
                    },
                    Json::Null => {
                        self.push(&at, Problem::NotFound);
                        continue;
                    }
                    other => {
                        if !kind_reported {
                            kind_reported = true;
                            self.push(
                                path,
                                Problem::Kind {
                                    expected: "a map",
                                    actual: other.clone(),
                                },
                            );
                        }
                        continue;
                    }
                },
            };
            let mut scope: Cow<'_, Bindings> = Cow::Borrowed(bindings);
            if let Some(name) = read.binding {
                scope
                    .to_mut()
                    .push((name.to_string(), projected.clone().into_owned()));
            }
            let Some(name) = read.foreach else {
                self.walk(value, &projected, &at, &scope);
                continue;
            };
            // Each item (or each value of a map), `$name` its index (or key).
            let items: Vec<(Step, Json, &Json)> = match &*projected {
                Json::Array(items) => items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| (Step::Index(i), Json::from(i), item))
                    .collect(),
                Json::Object(found) => found
                    .iter()
                    .map(|(k, item)| (Step::Key(k.clone()), Json::String(k.clone()), item))
                    .collect(),
                other => {
                    self.push(
                        &at,
                        Problem::Kind {
                            expected: "a list or a map to iterate",
                            actual: other.clone(),
                        },
                    );
                    continue;
                }
            };
            for (step, bound, item) in items {
                let mut inner = scope.clone();
                if let Some(name) = name {
                    inner.to_mut().push((name.to_string(), bound));
                }
                self.walk(value, item, &at.child(step), &inner);
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
                Some(Json::String(s)) if keyexpr::parse(&s).is_special() => true,
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
    // A `~…` key iterates: the index or key it adds to paths is not in the assertion.
    let mut skip = false;
    for step in &path.0 {
        if std::mem::take(&mut skip) {
            continue;
        }
        if let Step::Key(key) = step {
            skip = keyexpr::parse(key).foreach.is_some();
        }
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

    /// kyverno/chainsaw, testdata/e2e/examples/array-assertion (its assertions.yaml over
    /// its resources.yaml): iteration with and without an index binding, nested.
    #[test]
    fn chainsaw_array_assertion_example() {
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "example"},
        "spec": {"containers": [
            {"name": "container-1", "image": "nginx-1", "env": [{"name": "ENV_1", "value": "value-1"}]},
            {"name": "container-2", "image": "nginx-2", "env": [{"name": "ENV_2", "value": "value-2"}]},
            {"name": "container-3", "image": "nginx-3", "env": [{"name": "ENV_3", "value": "value-3"}]}
        ]}});
        let assertion = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "example"},
        "spec": {
            "~.(containers[?name == 'container-1'])": {"image": "nginx-1"},
            "~index.(containers)": {"image": "(join('-', ['nginx', to_string($index + `1`)]))"},
            "~index2.(containers)": {"~.(env)": {
                "name": "(join('_', ['ENV', to_string($index2 + `1`)]))",
                "value": "(join('-', ['value', to_string($index2 + `1`)]))"
            }}
        }});
        assert!(shown(assertion.clone(), pod.clone()).is_empty());
        let mut wrong = pod;
        wrong["spec"]["containers"][1]["image"] = json!("nginx-9");
        assert_eq!(
            shown(assertion, wrong),
            [
                r#"spec.~index.(containers)[1].image: Invalid value: "nginx-9": Expected value: "nginx-2""#
            ]
        );
    }

    /// kyverno/chainsaw, testdata/e2e/examples/assertion-tree/assert.yaml: a binding used
    /// below it, inside an iteration.
    #[test]
    fn chainsaw_assertion_tree_example() {
        let assertion = json!({"spec": {"template": {"(spec)->specBinding": {"~.(containers)": {
            "($specBinding.securityContext != null || securityContext != null)": true
        }}}}});
        let deployment = |pod_context: Json, container: Json| {
            json!({"spec": {"template": {"spec": {
                "securityContext": pod_context,
                "containers": [{"name": "a", "securityContext": container}, {"name": "b"}]
            }}}})
        };
        assert!(
            shown(
                assertion.clone(),
                deployment(json!({"runAsNonRoot": true}), json!(null))
            )
            .is_empty()
        );
        assert_eq!(
            shown(
                assertion,
                deployment(json!(null), json!({"privileged": false}))
            ),
            [
                "spec.template.(spec)->specBinding.~.(containers)[1].($specBinding.securityContext != null || securityContext != null): Invalid value: false: Expected value: true"
            ]
        );
    }

    /// The forms the brief's Crossplane assertions use: a filter projecting a list, a
    /// function of a list, of a map's keys, and iteration over a map's values.
    #[test]
    fn projections_of_crossplane_resources() {
        let xr = json!({
            "metadata": {"annotations": {"crossplane.io/composition-resource-name": "bucket"}},
            "spec": {"forProvider": {"tags": {"a": "x1", "b": "x2"}}},
            "status": {"conditions": [
                {"type": "Synced", "status": "True"},
                {"type": "Ready", "status": "False", "reason": "Creating"}
            ]}
        });
        let assertion = json!({
            "status": {
                "(conditions[?type == 'Ready'])": [{"status": "True"}],
                "(length(conditions))": 3
            },
            "metadata": {
                "(contains(keys(annotations), 'crossplane.io/composition-resource-name'))": true
            },
            "spec": {"~.(forProvider.tags)": {"(starts_with(@, 'x'))": true}}
        });
        assert_eq!(
            shown(assertion, xr.clone()),
            [
                r#"status.(conditions[?type == 'Ready'])[0].status: Invalid value: "False": Expected value: "True""#,
                "status.(length(conditions)): Invalid value: 2: Expected value: 3",
            ]
        );
        // A value expression is evaluated on the actual value and compared with it.
        assert!(
            shown(
                json!({"status": {"conditions": "(length(@) == `2` && @)"}}),
                xr.clone()
            )
            .is_empty()
        );
        assert!(
            shown(
                json!({"spec": {"forProvider": {"tags": {"a": "(to_upper('x1') == 'X1' && @)"}}}}),
                xr.clone()
            )
            .is_empty()
        );
        // An escaped text is compared as written, without its backslashes.
        assert_eq!(
            shown(json!({"metadata": {"annotations": {r"\(x)\": 1}}}), xr),
            ["metadata.annotations.\\(x)\\: Required value: field not found in the input object"]
        );
    }

    /// kyverno/kyverno-json, pkg/core/assertion/assertion_test.go: `nil vs empty object`,
    /// `not nil vs empty object`, `bad scalar`.
    #[test]
    fn kyverno_json_assertion_cases() {
        assert_eq!(
            shown(json!({"foo": {}}), json!({"foo": null})),
            ["foo: Required value: field not found in the input object"]
        );
        assert!(shown(json!({"foo": {}}), json!({"foo": {"bar": 42}})).is_empty());
        assert_eq!(
            shown(
                json!({"foo": {"bar": "~.(`42`)"}}),
                json!({"foo": {"bar": 42}})
            ),
            [
                r#"foo.bar: Invalid value: "~.(`42`)": foreach is not supported in scalar projections (escape a text as \…\)"#
            ]
        );
    }

    #[test]
    fn expression_errors_are_mismatches_at_their_key() {
        let doc = json!({"a": [1, 2], "m": {"k": "v"}});
        assert_eq!(
            shown(json!({"(a[?x = 1])": 1}), doc.clone()),
            [
                r#"(a[?x = 1]): Invalid value: "a[?x = 1]": syntax error at column 6: unexpected character '='"#
            ]
        );
        assert_eq!(
            shown(json!({"(length(`1`))": 1}), doc.clone()),
            [
                "(length(`1`)): Internal error: invalid type: argument 1 of length() must be a string, an array or an object, got number"
            ]
        );
        assert_eq!(
            shown(json!({"(cel;object.a)": 1}), doc.clone()),
            [
                r#"(cel;object.a): Invalid value: "(cel;object.a)": fnhcl evaluates JMESPath expressions, not cel"#
            ]
        );
        assert_eq!(
            shown(json!({"~.(length(a))": {"x": 1}}), doc.clone()),
            ["~.(length(a)): Invalid value: 2: expected a list or a map to iterate"]
        );
        // Iterating a map binds the key; `(jp;…)` names JMESPath.
        assert!(
            shown(
                json!({"~key.(m)": {"(jp;$key == 'k' && @ == 'v')": true}}),
                doc.clone()
            )
            .is_empty()
        );
        // A plain key under a projection that is not a map.
        assert_eq!(
            shown(json!({"(a)": {"x": 1, "y": 2}}), doc),
            ["(a): Invalid value: [1,2]: expected a map"]
        );
    }

    #[test]
    fn node_at_skips_the_step_an_iteration_adds() {
        let text = "spec:\n  ~.(items):\n    name: x\n";
        let root = &crate::source::yaml::parse_nodes(text).unwrap()[0];
        let path = FieldPath(vec![
            Step::Key("spec".into()),
            Step::Key("~.(items)".into()),
            Step::Index(3),
            Step::Key("name".into()),
        ]);
        assert_eq!(&text[node_at(root, &path).span.clone()], "x");
    }

    #[test]
    fn find_treats_an_expression_name_as_any() {
        let docs = [json!({"apiVersion": "v1", "kind": "A", "metadata": {"name": "x-1"}})];
        let expected = json!({"apiVersion": "v1", "kind": "A",
            "metadata": {"name": "(starts_with(@, 'x-'))"}});
        // The name is compared by the expression: `true` against the actual name differs,
        // as chainsaw compares an expression's result with the actual value.
        assert!(matches!(find(&expected, &docs), Found::Differs(_)));
        let expected = json!({"apiVersion": "v1", "kind": "A",
            "metadata": {"(starts_with(name, 'x-'))": true}});
        assert_eq!(find(&expected, &docs), Found::Matches(0));
    }
}
