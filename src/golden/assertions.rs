//! A case's `assert.yaml`: subset documents each rendered document set must hold (chainsaw's
//! `assert`), and `test.fnhcl.dev/v1alpha1` `Assertions` documents with documents that must
//! not exist (`absent`), xprin-style checks (`assertions`) and an expected failure
//! (`expectError`). Every failure names the assertion and points at its line in the file.
//!
//! The file comes from the tested tree, so it is read as untrusted: its size is capped by the
//! reader, every key is checked, and its chainsaw expressions are evaluated with bounded work
//! (see `subset` and `jmes`).

use super::expect_error::ExpectedError;
use super::subset::{self, Found};
use super::xprin::{self, Kind, OPERATORS, Operator, Pattern, TYPES, identify};
use crate::source::SourceMap;
use crate::source::yaml::Node;
use serde_json::Value as Json;

/// The `apiVersion` of fnhcl's assertion documents.
pub const API_VERSION: &str = "test.fnhcl.dev/v1alpha1";
/// Their `kind`.
pub const KIND: &str = "Assertions";
/// The file's name in a case.
pub const FILE: &str = "assert.yaml";

/// A subset document with where it is written.
#[derive(Debug)]
struct Subset {
    value: Json,
    node: Node,
}

/// One xprin-style check, validated.
#[derive(Debug)]
struct Check {
    kind: Kind,
    /// `Kind name` or `Kind`, for messages.
    label: String,
    pattern: Option<Pattern>,
    /// The field as written, and parsed.
    field: Option<(String, subset::FieldPath)>,
    /// The operator as written, and read.
    operator: Option<(String, Operator)>,
    value: Json,
    /// Where a failure points: the line that asked for what failed.
    at: usize,
}

/// A parsed `assert.yaml`.
#[derive(Debug)]
pub struct AssertFile {
    map: SourceMap,
    subsets: Vec<Subset>,
    absent: Vec<Subset>,
    checks: Vec<Check>,
    /// `expectError`: the render must fail so.
    pub expect_error: Option<ExpectedError>,
}

/// The node at a path of keys and indexes below `root`, if it is written there.
fn node_below<'a>(root: &'a Node, path: &[Result<&str, usize>]) -> Option<&'a Node> {
    let mut at = root;
    for step in path {
        at = match step {
            Ok(key) => at.get(key)?,
            Err(index) => at.items().get(*index)?,
        };
    }
    Some(at)
}

impl AssertFile {
    /// `assert.yaml:LINE:COLUMN` of a byte offset.
    fn pos(&self, offset: usize) -> String {
        let file = &self.map.files()[0];
        let at = file.line_col(offset);
        format!("{FILE}:{}:{}", at.line, at.column)
    }

    /// An error at a byte offset of the file.
    fn fail<T>(&self, offset: usize, why: String) -> Result<T, String> {
        Err(format!("{}: {why}", self.pos(offset)))
    }

    /// Whether anything asserts on the render's output (rather than on its failure).
    pub fn asserts_output(&self) -> bool {
        !(self.subsets.is_empty() && self.absent.is_empty() && self.checks.is_empty())
    }

    /// Reads the file's text.
    pub fn parse(text: &str) -> Result<AssertFile, String> {
        let mut map = SourceMap::new();
        map.add(FILE, text);
        let mut file = AssertFile {
            map,
            subsets: Vec::new(),
            absent: Vec::new(),
            checks: Vec::new(),
            expect_error: None,
        };
        let docs = crate::source::yaml::read_stream(text)
            .map_err(|e| format!("{}: {}", file.pos(e.offset), e.message))?;
        for doc in docs {
            let value = serde_json::to_value(&doc.value).unwrap_or(Json::Null);
            let at = doc.root.span.start;
            if !value.is_object() {
                return Err(format!(
                    "{}: an assertion document must be a mapping",
                    file.pos(at)
                ));
            }
            let is_ours = value.get("apiVersion").and_then(Json::as_str) == Some(API_VERSION)
                && value.get("kind").and_then(Json::as_str) == Some(KIND);
            if is_ours {
                file.read_assertions(&value, &doc.root)?;
            } else {
                file.subsets.push(file.subset(value, doc.root)?);
            }
        }
        Ok(file)
    }

    /// A subset document: it names a kind, so it is looked up as chainsaw looks it up.
    fn subset(&self, value: Json, node: Node) -> Result<Subset, String> {
        if !value.get("kind").is_some_and(Json::is_string) {
            return Err(format!(
                "{}: a subset document needs a `kind` (and its `apiVersion`)",
                self.pos(node.span.start)
            ));
        }
        Ok(Subset { value, node })
    }

    fn read_assertions(&mut self, value: &Json, root: &Node) -> Result<(), String> {
        let fields = value.as_object().into_iter().flatten();
        for (key, _) in fields {
            if ![
                "apiVersion",
                "kind",
                "metadata",
                "absent",
                "assertions",
                "expectError",
            ]
            .contains(&key.as_str())
            {
                let at = root
                    .entry(key)
                    .map_or(root.span.start, |(k, _)| k.span.start);
                return Err(format!(
                    "{}: unknown field `{key}` in an {KIND} document (it has absent, assertions and expectError)",
                    self.pos(at)
                ));
            }
        }
        let list = |key: &str| -> Result<Vec<Json>, String> {
            match value.get(key) {
                None | Some(Json::Null) => Ok(Vec::new()),
                Some(Json::Array(items)) => Ok(items.clone()),
                Some(_) => Err(format!(
                    "{}: `{key}` must be a list",
                    self.pos(root.get(key).map_or(root.span.start, |n| n.span.start))
                )),
            }
        };
        let (absent, checks) = (list("absent")?, list("assertions")?);
        for (i, item) in absent.into_iter().enumerate() {
            let node = node_below(root, &[Ok("absent"), Err(i)]).unwrap_or(root);
            if !item.is_object() {
                return Err(format!(
                    "{}: an `absent` item must be a mapping",
                    self.pos(node.span.start)
                ));
            }
            let subset = self.subset(item, node.clone())?;
            self.absent.push(subset);
        }
        for (i, item) in checks.into_iter().enumerate() {
            let node = node_below(root, &[Ok("assertions"), Err(i)]).unwrap_or(root);
            let check = self.check(&item, node)?;
            self.checks.push(check);
        }
        if let Some(expect) = value.get("expectError") {
            let node = root.get("expectError").unwrap_or(root);
            let expected = self.expect_error(expect, node)?;
            self.expect_error
                .get_or_insert_with(ExpectedError::default)
                .extend(expected);
        }
        Ok(())
    }

    /// One item of `assertions`, checked as xprin checks it before running it.
    fn check(&self, item: &Json, node: &Node) -> Result<Check, String> {
        let here = |key: &str| node.get(key).map_or(node.span.start, |n| n.span.start);
        let Some(map) = item.as_object() else {
            return self.fail(here(""), "an assertion must be a mapping".into());
        };
        for key in map.keys() {
            if !["name", "type", "resource", "field", "operator", "value"].contains(&key.as_str()) {
                let at = node
                    .entry(key)
                    .map_or(node.span.start, |(k, _)| k.span.start);
                return Err(format!(
                    "{}: unknown field `{key}` in an assertion (it has name, type, resource, field, operator and value)",
                    self.pos(at)
                ));
            }
        }
        let text = |key: &str| -> Result<Option<String>, String> {
            match map.get(key) {
                None => Ok(None),
                Some(Json::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(format!("{}: `{key}` must be a string", self.pos(here(key)))),
            }
        };
        let name = text("name")?;
        let Some(type_text) = text("type")? else {
            return self.fail(here(""), "an assertion needs a `type`".into());
        };
        let Some(kind) = Kind::parse(&type_text) else {
            return self.fail(here("type"),
                format!(
                    "unsupported assertion type: {type_text} (fnhcl has Count, Exists, NotExists, FieldType, FieldExists, FieldNotExists and FieldValue)"
                ),
            );
        };
        let label = match &name {
            Some(name) => format!("{type_text} `{name}`"),
            None => type_text.clone(),
        };
        let pattern = match text("resource")? {
            Some(p) => Some(Pattern::parse(&p).or_else(|why| self.fail(here("resource"), why))?),
            None if kind == Kind::Count => None,
            None => {
                return self.fail(
                    here(""),
                    format!("{label}: the assertion requires a `resource`"),
                );
            }
        };
        let field = match (text("field")?, kind.has_field()) {
            (Some(f), true) => {
                let path = xprin::parse_field(&f).or_else(|why| self.fail(here("field"), why))?;
                Some((f, path))
            }
            (None, true) => {
                return self.fail(
                    here(""),
                    format!("{label}: the assertion requires a `field`"),
                );
            }
            (Some(_), false) => {
                return self.fail(
                    here("field"),
                    format!("{label}: `field` applies to Field… assertions"),
                );
            }
            (None, false) => None,
        };
        let operator = match (text("operator")?, kind == Kind::FieldValue) {
            (Some(op), true) => match Operator::parse(&op) {
                Some(read) => Some((op, read)),
                None => {
                    return self.fail(
                        here("operator"),
                        format!("unsupported operator: {op} (fnhcl has {OPERATORS})"),
                    );
                }
            },
            (None, true) => {
                return self.fail(
                    here(""),
                    format!("{label}: the assertion requires an `operator`"),
                );
            }
            (Some(_), false) => {
                return self.fail(
                    here("operator"),
                    format!("{label}: `operator` applies to FieldValue"),
                );
            }
            (None, false) => None,
        };
        let value = map.get("value").cloned();
        let value = match kind {
            Kind::Count => match value.as_ref().and_then(Json::as_u64) {
                Some(_) => value.unwrap_or_default(),
                None => {
                    return self.fail(
                        here("value"),
                        format!("{label}: `value` must be a count (a whole number, 0 or more)"),
                    );
                }
            },
            Kind::FieldType => match value.as_ref().and_then(Json::as_str) {
                Some(t) if TYPES.contains(&t) => value.unwrap_or_default(),
                _ => {
                    return self.fail(
                        here("value"),
                        format!("{label}: `value` must be a type: {}", TYPES.join(", ")),
                    );
                }
            },
            Kind::FieldValue => match value {
                Some(value) => value,
                None => {
                    return self.fail(
                        here(""),
                        format!("{label}: the assertion requires a `value`"),
                    );
                }
            },
            Kind::Exists | Kind::NotExists | Kind::FieldExists | Kind::FieldNotExists => {
                if value.is_some() {
                    return self.fail(here("value"), format!("{label}: `value` does not apply"));
                }
                Json::Null
            }
        };
        let at = match kind {
            Kind::Count | Kind::FieldType | Kind::FieldValue => here("value"),
            Kind::Exists | Kind::NotExists => here("resource"),
            Kind::FieldExists | Kind::FieldNotExists => here("field"),
        };
        Ok(Check {
            kind,
            label,
            pattern,
            field,
            operator,
            value,
            at,
        })
    }

    /// `expectError`, its problems at their key's line.
    fn expect_error(&self, value: &Json, node: &Node) -> Result<ExpectedError, String> {
        ExpectedError::from_value(value).map_err(|bad| {
            let at = match &bad.key {
                Some(key) => node
                    .entry(key)
                    .map_or(node.span.start, |(k, _)| k.span.start),
                None => node.span.start,
            };
            format!("{}: {}", self.pos(at), bad.message)
        })
    }

    /// Every failure of the rendered documents against the file, one line each (a subset
    /// document's mismatches follow it, indented), in the file's order; empty when all hold.
    pub fn failures(&self, documents: &[Json]) -> Vec<String> {
        let mut out = Vec::new();
        for subset in &self.subsets {
            self.must_match(subset, documents, &mut out);
        }
        for subset in &self.absent {
            if let Found::Matches(index) = subset::find(&subset.value, documents) {
                out.push(format!(
                    "{}: {} must not exist, but {} matches it",
                    self.pos(subset.node.span.start),
                    identify(&subset.value),
                    identify(&documents[index])
                ));
            }
        }
        // The XR and the composed resources: not the render's results and context.
        let resources: Vec<&Json> = documents
            .iter()
            .filter(|d| {
                !d.get("apiVersion")
                    .and_then(Json::as_str)
                    .is_some_and(|v| v.starts_with("render.crossplane.io/"))
            })
            .collect();
        for check in &self.checks {
            for (on, why) in run_check(check, &resources) {
                let on = on
                    .map(|doc| format!(" on {}", identify(doc)))
                    .unwrap_or_default();
                out.push(format!(
                    "{}: {}{on}: {why}",
                    self.pos(check.at),
                    check.label
                ));
            }
        }
        out
    }

    fn must_match(&self, subset: &Subset, documents: &[Json], out: &mut Vec<String>) {
        let at = self.pos(subset.node.span.start);
        let label = identify(&subset.value);
        match subset::find(&subset.value, documents) {
            Found::Matches(_) => {}
            Found::NoCandidate => {
                let api = subset.value.get("apiVersion").and_then(Json::as_str);
                out.push(format!(
                    "{at}: {label}: actual resource not found: no rendered document has its {}",
                    if api.is_some() {
                        "apiVersion, kind and name"
                    } else {
                        "kind and name"
                    }
                ));
            }
            Found::Differs(failed) => {
                let Some((index, problems)) = failed.first() else {
                    return;
                };
                let closest = if failed.len() == 1 {
                    format!("the one candidate, {}", identify(&documents[*index]))
                } else {
                    format!(
                        "the closest of {} candidates, {}",
                        failed.len(),
                        identify(&documents[*index])
                    )
                };
                out.push(format!(
                    "{at}: {label}: no rendered document matches; {closest}:"
                ));
                // In the file's order (the values' maps are sorted by key).
                let mut lines: Vec<(usize, String)> = problems
                    .iter()
                    .map(|problem| {
                        let node = subset::node_at(&subset.node, &problem.path);
                        let start = node.span.start;
                        (start, format!("  {}: {problem}", self.pos(start)))
                    })
                    .collect();
                lines.sort_by_key(|(start, _)| *start);
                out.extend(lines.into_iter().map(|(_, line)| line));
            }
        }
    }
}

/// One check's failures over the resources, each with the resource it is about (for the
/// checks applied to every matching resource).
fn run_check<'a>(check: &Check, resources: &[&'a Json]) -> Vec<(Option<&'a Json>, String)> {
    let picked: Vec<&Json> = match &check.pattern {
        Some(p) => resources.iter().copied().filter(|d| p.matches(d)).collect(),
        None => resources.to_vec(),
    };
    let ids = || {
        picked
            .iter()
            .map(|d| identify(d))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let pattern = check
        .pattern
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default();
    match check.kind {
        Kind::Count => {
            let wanted = check.value.as_u64().unwrap_or_default();
            if picked.len() as u64 == wanted {
                return Vec::new();
            }
            let mut why = format!(
                "expected {}, got {}",
                crate::diagnostics::count(wanted as usize, "resource", "resources"),
                picked.len()
            );
            if check.pattern.is_some() && !picked.is_empty() {
                why.push_str(&format!(": {}", ids()));
            }
            vec![(None, why)]
        }
        Kind::Exists if picked.is_empty() => vec![(None, format!("resource {pattern} not found"))],
        Kind::NotExists if !picked.is_empty() => {
            vec![(
                None,
                format!("resources found (should not exist): {}", ids()),
            )]
        }
        Kind::Exists | Kind::NotExists => Vec::new(),
        _ if picked.is_empty() => vec![(
            None,
            format!("no rendered resource matched the given name {pattern}"),
        )],
        _ => picked
            .iter()
            .filter_map(|doc| field_check(check, doc).map(|why| (Some(*doc), why)))
            .collect(),
    }
}

/// A field check on one resource: why it fails, or `None`.
fn field_check(check: &Check, doc: &Json) -> Option<String> {
    let (text, path) = check.field.as_ref()?;
    let found = xprin::field(doc, path);
    match check.kind {
        Kind::FieldExists => found
            .is_none()
            .then(|| format!("field {text} does not exist")),
        Kind::FieldNotExists => found
            .is_some()
            .then(|| format!("field {text} exists (should not exist)")),
        Kind::FieldType => {
            let Some(found) = found else {
                return Some(format!("field {text} not found"));
            };
            let wanted = check.value.as_str().unwrap_or_default();
            let actual = xprin::type_name(found);
            (actual != wanted).then(|| format!("field {text} has type {actual}, expected {wanted}"))
        }
        Kind::FieldValue => {
            let Some(found) = found else {
                return Some(format!("field {text} not found"));
            };
            let (written, op) = check.operator.as_ref()?;
            match op.holds(found, &check.value) {
                Ok(true) => None,
                Ok(false) => Some(format!(
                    "field {text} is {}, expected {written} {}",
                    subset::show(found),
                    subset::show(&check.value)
                )),
                Err(why) => Some(format!("failed to compare field value: {why}")),
            }
        }
        Kind::Count | Kind::Exists | Kind::NotExists => None,
    }
}
