//! What expressions of a test file are evaluated with: the functions (the built-ins, `invoke`
//! of the tested composition's user functions, and `file` confined to the tested tree), the
//! variables a render's output gives an `assert`, and diagnostics as one line of text.

use crate::diagnostics::{Diagnostic, Severity};
use crate::eval::expr::Evaluator;
use crate::eval::functions::{Function, FunctionError, FunctionTable, Param};
use crate::eval::json::implied_value;
use crate::eval::scope::Scope;
use crate::eval::types::Type;
use crate::eval::value::Value;
use crate::golden::confine::Confinement;
use crate::golden::scenario::{Output, resource_name};
use crate::source::{FileId, SourceMap};
use crate::syntax::ast::Expr;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `table` with `file(path)`: the text of a file named relative to `dir`, which must be inside
/// `root` unless `allow` (`--allow-outside-paths`); read with the reader's size cap.
pub(super) fn with_file(
    table: &FunctionTable,
    dir: &Path,
    root: &Path,
    allow: bool,
) -> FunctionTable {
    let (dir, root): (PathBuf, PathBuf) = (dir.to_path_buf(), root.to_path_buf());
    let mut table = table.clone();
    table.insert(Function::new(
        "file",
        vec![Param::new("path", Type::String)],
        None,
        Type::String,
        move |args: &[Value], _: &Type| {
            let name = args[0].as_str().unwrap_or_default();
            let path = dir.join(name);
            let confine = Confinement { root: &root, allow };
            confine
                .check(&path, "file()")
                .map_err(FunctionError::other)?;
            crate::source::read::read_text(&path)
                .map(Value::string_owned)
                .map_err(|e| FunctionError::other(e.to_string()))
        },
    ));
    table
}

/// The variables an `assert` of a run sees: `xr`, `resource` (by composition resource name),
/// `results`, `context` and `documents` (the whole stream).
pub(super) fn output_variables(documents: &[Json], output: &Output) -> BTreeMap<String, Value> {
    let mut resources = serde_json::Map::new();
    for doc in &output.composed {
        if let Some(name) = resource_name(doc) {
            resources.insert(name.to_string(), doc.clone());
        }
    }
    let mut vars = BTreeMap::new();
    vars.insert("xr".into(), implied_value(&output.xr));
    vars.insert("resource".into(), implied_value(&Json::Object(resources)));
    vars.insert(
        "results".into(),
        implied_value(&Json::Array(output.results.clone())),
    );
    vars.insert(
        "context".into(),
        implied_value(
            &output
                .context
                .clone()
                .unwrap_or(Json::Object(Default::default())),
        ),
    );
    vars.insert(
        "documents".into(),
        implied_value(&Json::Array(documents.to_vec())),
    );
    vars
}

/// Evaluates `expr` of `file` in `scope` within the evaluation budget: the value, or the text
/// of what went wrong.
pub(super) fn evaluate(
    map: &SourceMap,
    file: FileId,
    expr: &Expr,
    scope: &Scope,
) -> Result<Value, String> {
    let evaluated =
        crate::eval::budget::within(|| Evaluator::new(file).with_sources(map).eval(expr, scope));
    let (value, diagnostics) = match evaluated {
        Ok(done) => done,
        Err(exhausted) => return Err(text(map, &exhausted.diagnostic())),
    };
    let errors: Vec<String> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| text(map, d))
        .collect();
    if errors.is_empty() {
        Ok(value)
    } else {
        Err(errors.join("\n"))
    }
}

/// A diagnostic as one block of text: `FILE:LINE:COL: summary; detail` (Go HCL's form), the
/// help on a line of its own.
pub(super) fn text(map: &SourceMap, d: &Diagnostic) -> String {
    let mut out = String::new();
    if let Some(span) = d.primary.as_ref().map(|l| l.span) {
        let file = map.get(span.file);
        let at = file.line_col(span.start as usize);
        out.push_str(&format!(
            "{}:{}:{}: ",
            file.display_name(),
            at.line,
            at.column
        ));
    } else if let Some(path) = &d.path {
        out.push_str(&format!("{path}: "));
    }
    out.push_str(&d.summary);
    if let Some(detail) = &d.detail {
        out.push_str("; ");
        out.push_str(detail);
    }
    if let Some(help) = &d.help {
        out.push_str("\n  help: ");
        out.push_str(help);
    }
    out
}
