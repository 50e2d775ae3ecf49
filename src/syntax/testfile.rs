//! The block schema and typed model of an HCL-native test file (`*.fnhcltest.hcl`): `run`
//! blocks with their inputs, `assert` blocks and `expect_failures`. Shared by `check`, the
//! test runner (`golden`) and the editor (`ide`); nothing here evaluates.

use super::ParsedFile;
use super::ast::{Attribute, Block, Expr, ExprKind, Literal, Step, TextRange};
use super::schema::{BlockSchema, BodySchema, check_body};
use crate::diagnostics::{Code, Diagnostic};
use crate::source::Span;

/// How a test file's name ends; a `.hcl` file so named is never composition code.
pub use crate::source::loader::TEST_FILE_SUFFIX;

/// The top level of a test file.
pub static TEST_TOP: BodySchema = BodySchema {
    attributes: &[],
    blocks: &[BlockSchema {
        kind: "run",
        labels: &["name"],
    }],
};

/// The arguments a `run` block takes, in the order the docs list them.
pub const RUN_ARGUMENTS: &[(&str, bool)] = &[
    ("composition", false),
    ("xr", false),
    ("observed", false),
    ("extra_resources", false),
    ("context", false),
    ("expect_failures", false),
    ("continue", false),
    ("status", false),
    ("connection_details", false),
    ("not_ready", false),
    ("until", false),
    ("max_steps", false),
];

/// A `run` block's body.
pub static RUN: BodySchema = BodySchema {
    attributes: RUN_ARGUMENTS,
    blocks: &[BlockSchema {
        kind: "assert",
        labels: &[],
    }],
};

/// An `assert` block's body.
pub static ASSERT: BodySchema = BodySchema {
    attributes: &[("condition", true), ("error_message", false)],
    blocks: &[],
};

/// A parsed test file.
#[derive(Debug, Clone, PartialEq)]
pub struct TestFile {
    /// The `run` blocks, in source order.
    pub runs: Vec<Run>,
    /// Schema problems (unknown blocks and arguments, missing labels, duplicate names,
    /// malformed `expect_failures`); syntax errors are the parser's.
    pub problems: Vec<Diagnostic>,
}

/// One `run "NAME" { … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Its name (the label).
    pub name: String,
    /// The label's range.
    pub name_span: TextRange,
    /// The whole block.
    pub span: TextRange,
    /// Its arguments, in source order.
    pub attributes: Vec<Attribute>,
    /// Its `assert` blocks, in source order.
    pub asserts: Vec<Assert>,
    /// `expect_failures`, parsed (empty without it).
    pub expect_failures: Vec<Expected>,
}

impl Run {
    /// The argument `name`.
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }
}

/// One `assert { condition = …, error_message = … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Assert {
    /// The `assert` keyword (where a failure is reported).
    pub keyword: TextRange,
    /// `condition` (an error placeholder when it is missing: the schema reported it).
    pub condition: Expr,
    /// `error_message`.
    pub error_message: Option<Expr>,
}

/// One entry of `expect_failures`.
#[derive(Debug, Clone, PartialEq)]
pub enum Expected {
    /// A string: a fragment the render's errors must contain.
    Message {
        /// The text.
        text: String,
        /// Where it is written.
        span: TextRange,
    },
    /// `resource.NAME`, `resources.NAME`, `requirement.NAME`, `function.NAME`, `local.NAME`,
    /// `composite.status`, `context`: a composition block the failure must be inside.
    Block {
        /// The block type (`resource`, …, `local` for a local's definition).
        kind: String,
        /// Its name (empty for `context`).
        name: String,
        /// Where it is written.
        span: TextRange,
    },
}

/// The block kinds `expect_failures` may name, and whether they need a name.
pub const FAILURE_KINDS: &[(&str, bool)] = &[
    ("composite", true),
    ("context", false),
    ("function", true),
    ("local", true),
    ("requirement", true),
    ("resource", true),
    ("resources", true),
];

/// Builds the model of a parsed test file, with its schema problems.
pub fn build(file: &ParsedFile) -> TestFile {
    let mut problems = check_body(file.file, &file.body, &TEST_TOP);
    let mut runs: Vec<Run> = Vec::new();
    for block in file.body.blocks.iter().filter(|b| b.kind == "run") {
        let Some(label) = block.labels.first() else {
            continue;
        };
        if runs.iter().any(|r| r.name == label.value) {
            problems.push(
                Diagnostic::new(Code::B107, "run defined more than once")
                    .with_detail(label.value.clone())
                    .with_primary(Span::of(file.file, &label.span), None),
            );
            continue;
        }
        problems.extend(check_body(file.file, &block.body, &RUN));
        let run = run(
            block,
            label.value.clone(),
            label.span.clone(),
            file,
            &mut problems,
        );
        runs.push(run);
    }
    TestFile { runs, problems }
}

fn run(
    block: &Block,
    name: String,
    name_span: TextRange,
    file: &ParsedFile,
    problems: &mut Vec<Diagnostic>,
) -> Run {
    let mut asserts = Vec::new();
    for assert in block.body.blocks.iter().filter(|b| b.kind == "assert") {
        problems.extend(check_body(file.file, &assert.body, &ASSERT));
        let find = |name: &str| {
            assert
                .body
                .attributes
                .iter()
                .find(|a| a.name == name)
                .map(|a| a.expr.clone())
        };
        asserts.push(Assert {
            keyword: assert.kind_span.clone(),
            condition: find("condition").unwrap_or(Expr {
                kind: ExprKind::Error,
                span: assert.kind_span.clone(),
            }),
            error_message: find("error_message"),
        });
    }
    let attributes: Vec<Attribute> = block
        .body
        .attributes
        .iter()
        .filter(|a| RUN_ARGUMENTS.iter().any(|(n, _)| *n == a.name))
        .cloned()
        .collect();
    let expect_failures = attributes
        .iter()
        .find(|a| a.name == "expect_failures")
        .map(|a| expected(&a.expr, file, problems))
        .unwrap_or_default();
    Run {
        name,
        name_span,
        span: block.span(),
        attributes,
        asserts,
        expect_failures,
    }
}

/// `expect_failures = [ "fragment", resource.bucket, local.x ]`.
fn expected(expr: &Expr, file: &ParsedFile, problems: &mut Vec<Diagnostic>) -> Vec<Expected> {
    let mut bad = |span: &TextRange, what: &str| {
        problems.push(
            Diagnostic::new(Code::B101, "Invalid expect_failures entry")
                .with_detail(what.to_string())
                .with_primary(Span::of(file.file, span), None)
                .with_help(
                    "list message fragments (\"text\") and blocks (resource.NAME, local.NAME, …)",
                ),
        );
    };
    let ExprKind::Tuple(items) = &expr.kind else {
        bad(&expr.span, "expect_failures must be a list");
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items {
        if let Some(text) = literal_string(item) {
            out.push(Expected::Message {
                text,
                span: item.span.clone(),
            });
            continue;
        }
        let ExprKind::Traversal { root, steps, .. } = &item.kind else {
            bad(&item.span, "an entry is a string or a block reference");
            continue;
        };
        let Some(&(kind, named)) = FAILURE_KINDS.iter().find(|(k, _)| *k == &**root) else {
            let kinds: Vec<&str> = FAILURE_KINDS.iter().map(|(k, _)| *k).collect();
            bad(
                &item.span,
                &format!(
                    "`{root}` is not a block kind; use one of {}",
                    kinds.join(", ")
                ),
            );
            continue;
        };
        let name = steps.first().and_then(step_name);
        match (named, name, steps.len()) {
            (true, Some(name), 1) => out.push(Expected::Block {
                kind: kind.to_string(),
                name,
                span: item.span.clone(),
            }),
            (false, None, 0) => out.push(Expected::Block {
                kind: kind.to_string(),
                name: String::new(),
                span: item.span.clone(),
            }),
            _ if named => bad(&item.span, &format!("write {kind}.NAME")),
            _ => bad(&item.span, &format!("write {kind} alone")),
        }
    }
    out
}

/// The text of a string literal without interpolations.
pub fn literal_string(expr: &Expr) -> Option<String> {
    match &expr.kind {
        ExprKind::Literal(Literal::String(s)) => Some(s.clone()),
        ExprKind::QuotedLiteral(s) => Some(s.to_string()),
        ExprKind::Template(parts) => {
            let mut text = String::new();
            for part in parts {
                match &part.kind {
                    ExprKind::Literal(Literal::String(s)) => text.push_str(s),
                    _ => return None,
                }
            }
            Some(text)
        }
        _ => None,
    }
}

/// A traversal step's name: `.name` or `["name"]`.
fn step_name(step: &Step) -> Option<String> {
    match step {
        Step::Attr { name, .. } => Some(name.clone()),
        Step::Index {
            key: Literal::String(s),
            ..
        } => Some(s.clone()),
        Step::Index { .. } => None,
    }
}

/// Every `resource.NAME` (or `resource["NAME"]`) read in a run's arguments and conditions:
/// the name and the range of the name, for checking them against the composition.
pub fn resource_references(run: &Run) -> Vec<(String, TextRange)> {
    let mut found = Vec::new();
    let mut exprs: Vec<&Expr> = run
        .attributes
        .iter()
        .filter(|a| a.name != "expect_failures")
        .map(|a| &a.expr)
        .collect();
    for assert in &run.asserts {
        exprs.push(&assert.condition);
        exprs.extend(assert.error_message.as_ref());
    }
    for expr in exprs {
        collect_resources(expr, &mut found);
    }
    for entry in &run.expect_failures {
        if let Expected::Block { kind, name, span } = entry
            && (kind == "resource" || kind == "resources")
        {
            found.push((name.clone(), span.clone()));
        }
    }
    found
}

fn collect_resources(expr: &Expr, found: &mut Vec<(String, TextRange)>) {
    if let ExprKind::Traversal { root, steps, .. } = &expr.kind
        && &**root == "resource"
        && let Some(first) = steps.first()
        && let Some(name) = step_name(first)
    {
        let span = match first {
            Step::Attr { span, .. } | Step::Index { span, .. } => span.clone(),
        };
        found.push((name, span));
    }
    expr.for_each_child(|child| collect_resources(child, found));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceMap;

    fn model(text: &str) -> TestFile {
        let mut map = SourceMap::new();
        let id = map.add("t.fnhcltest.hcl", text);
        let parsed = crate::syntax::parse_file(map.get(id));
        assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
        build(&ParsedFile {
            file: id,
            body: parsed.body,
        })
    }

    #[test]
    fn runs_asserts_and_expected_failures() {
        let t = model(
            "run \"a\" {\n  xr = {}\n  expect_failures = [\"boom\", resource.bucket, local.x, context]\n  assert {\n    condition = resource.bucket.spec == 1\n  }\n}\n",
        );
        assert!(t.problems.is_empty(), "{:?}", t.problems);
        assert_eq!(t.runs.len(), 1);
        let run = &t.runs[0];
        assert_eq!(run.name, "a");
        assert_eq!(run.asserts.len(), 1);
        assert_eq!(run.expect_failures.len(), 4);
        assert!(
            matches!(&run.expect_failures[0], Expected::Message { text, .. } if text == "boom")
        );
        assert!(
            matches!(&run.expect_failures[2], Expected::Block { kind, name, .. } if kind == "local" && name == "x")
        );
        let refs: Vec<String> = resource_references(run)
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(refs, ["bucket", "bucket"]);
    }

    #[test]
    fn schema_problems_are_reported() {
        let t = model(
            "run \"a\" {\n  xrr = {}\n  assert {}\n  expect_failures = [nope.x, 1]\n}\nrun \"a\" {}\nrn \"b\" {}\n",
        );
        let texts: Vec<String> = t
            .problems
            .iter()
            .map(|d| format!("{}: {}", d.summary, d.detail.clone().unwrap_or_default()))
            .collect();
        assert!(
            texts.iter().any(|t| t.contains("Did you mean \"xr\"?")),
            "{texts:?}"
        );
        assert!(
            texts
                .iter()
                .any(|t| t.contains("\"condition\" is required")),
            "{texts:?}"
        );
        assert!(
            texts
                .iter()
                .any(|t| t.contains("`nope` is not a block kind")),
            "{texts:?}"
        );
        assert!(
            texts
                .iter()
                .any(|t| t.contains("string or a block reference")),
            "{texts:?}"
        );
        assert!(
            texts
                .iter()
                .any(|t| t.starts_with("run defined more than once")),
            "{texts:?}"
        );
        assert!(
            texts.iter().any(|t| t.contains("Did you mean \"run\"?")),
            "{texts:?}"
        );
    }
}
