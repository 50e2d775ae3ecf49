//! `fnhcl eval`'s work: one expression evaluated as function-hcl would, with `req` built from
//! a request and, optionally, a program whose user functions and top-level locals it can use.
//! Returns the value as text and the diagnostics; prints nothing.

use super::functions::builtins;
use super::program::Console;
use super::proto::{MAX_REQUIREMENTS_ITERATIONS, RunFunctionRequest};
use super::scope::Scope;
use super::{Value, expr, json, vars};
use crate::diagnostics::{Code, Diagnostic, Severity, from_load_error};
use crate::source::loader;
use crate::source::{FileId, SourceMap};
use crate::syntax;
use crate::syntax::ast::Expr;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::Path;

/// What to evaluate and how to write its value.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// The HCL expression.
    pub expr: &'a str,
    /// A composition directory whose top level is loaded first (`--hcl`).
    pub program: Option<&'a Path>,
    /// Write the value as JSON instead of HCL.
    pub json: bool,
    /// Resources the program's requirements select from, as the render's requirements loop
    /// fetches them (`-e PATH`): the program runs until its requirements settle first.
    pub pool: &'a [Json],
}

/// How an evaluation ended (the diagnostics say why it did not give a value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The value, written as HCL or JSON.
    Value(String),
    /// The expression or the program has errors, or the value is not known.
    Failed,
    /// An input could not be read, or the value cannot be written as asked.
    Error,
}

/// Evaluates `options.expr` with `req` from `request`; the program and the expression are
/// added to `map`. Diagnostics come in the order they were found.
pub fn expression(
    map: &mut SourceMap,
    options: &Options<'_>,
    request: &RunFunctionRequest,
) -> (Outcome, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    if options.program.is_none() && !options.pool.is_empty() {
        diagnostics.push(
            Diagnostic::new(
                Code::I017,
                "the resources of `-e PATH` are selected by a program's requirements, and there is no program",
            )
            .with_severity(Severity::Warning)
            .with_help(
                "give the composition with --hcl DIR, or write -e NAME=PATH to set req.extra_resources.NAME",
            ),
        );
    }
    let console = match options.program {
        Some(dir) => match load_program(map, dir, request, options.pool, &mut diagnostics) {
            Ok(console) => Some(console),
            Err(outcome) => return (outcome, diagnostics),
        },
        None => None,
    };
    // A console reads whole lines: a heredoc may close on the last line.
    let mut source = options.expr.to_string();
    if !source.ends_with('\n') {
        source.push('\n');
    }
    let file = map.add("expression", source);
    let (parsed, mut found) = syntax::parse_expression(map.get(file));
    if found.iter().any(|d| d.severity == Severity::Error) {
        diagnostics.append(&mut found);
        return (Outcome::Failed, diagnostics);
    }
    if let Some(console) = &console {
        // What function-hcl's analyzer would say about the expression's `invoke` calls;
        // the expression is still evaluated, as function-hcl would at run time.
        let problems = console.check_invokes(map, &parsed, file);
        diagnostics.extend(
            problems
                .into_iter()
                .map(|d| d.with_severity(Severity::Warning)),
        );
    }
    let expression = Parsed {
        expr: &parsed,
        file,
        length: options.expr.len(),
        json: options.json,
    };
    let outcome = match console {
        Some(console) => console
            .with_scope(|scope, warnings| expression.show(map, scope, warnings, &mut diagnostics)),
        None => {
            let functions = builtins();
            let root = Scope::root(&functions);
            let mut variables = BTreeMap::new();
            variables.insert("req".to_string(), vars::build_req(request));
            let scope = root.child(variables);
            expression.show(map, &scope, &[], &mut diagnostics)
        }
    };
    (outcome, diagnostics)
}

/// The parsed expression and how to write its value.
struct Parsed<'a> {
    expr: &'a Expr,
    file: FileId,
    /// The expression's length as given (without the added newline).
    length: usize,
    json: bool,
}

impl Parsed<'_> {
    /// Evaluates the expression in `scope` and writes its value; `warnings` (the program's)
    /// are reported when the value is not known, since they may be why.
    fn show(
        &self,
        map: &SourceMap,
        scope: &Scope,
        warnings: &[Diagnostic],
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Outcome {
        let evaluated = super::budget::within(|| {
            expr::Evaluator::new(self.file)
                .with_sources(map)
                .eval(self.expr, scope)
        });
        let (value, mut found) = match evaluated {
            Ok(done) => done,
            Err(exhausted) => {
                diagnostics.push(exhausted.diagnostic());
                return Outcome::Failed;
            }
        };
        let failed = found.iter().any(|d| d.severity == Severity::Error);
        diagnostics.append(&mut found);
        if failed {
            return Outcome::Failed;
        }
        let span = map.get(self.file).span(0..self.length);
        if !value.is_wholly_known() {
            diagnostics.extend(warnings.iter().cloned());
            let unknown = expr::unknown_references(self.expr, scope);
            let detail = if unknown.is_empty() {
                "The result depends on values that are not known yet.".to_string()
            } else {
                format!(
                    "The result depends on values that are not known yet: {}.",
                    unknown.join(", ")
                )
            };
            diagnostics.push(
                Diagnostic::new(Code::T302, "Value not known")
                    .with_detail(detail)
                    .with_primary(span, None)
                    .with_help(
                        "function-hcl defers a block whose value is not known until the data exists",
                    ),
            );
            return Outcome::Failed;
        }
        if !self.json {
            return Outcome::Value(json::to_hcl(&value));
        }
        match json::to_json(&infinities_as_text(&value)) {
            Ok(j) => Outcome::Value(serde_json::to_string_pretty(&j).unwrap_or_default()),
            Err(e) => {
                diagnostics.push(
                    Diagnostic::new(Code::T301, "Value cannot be written as JSON")
                        .with_detail(e.to_string())
                        .with_primary(span, None),
                );
                Outcome::Error
            }
        }
    }
}

/// JSON has no infinity; the console writes `+Inf` and `-Inf` as strings (cty's own JSON
/// encoder refuses them).
fn infinities_as_text(value: &Value) -> Value {
    match value {
        Value::Number(n) if n.is_inf() => Value::string(n.to_string()),
        Value::List { elem, items } => Value::List {
            elem: elem.clone(),
            items: items
                .iter()
                .map(infinities_as_text)
                .collect::<Vec<_>>()
                .into(),
        },
        Value::Set { elem, items } => Value::Set {
            elem: elem.clone(),
            items: items
                .iter()
                .map(infinities_as_text)
                .collect::<Vec<_>>()
                .into(),
        },
        Value::Map { elem, items } => Value::Map {
            elem: elem.clone(),
            items: items
                .iter()
                .map(|(k, v)| (k.clone(), infinities_as_text(v)))
                .collect::<BTreeMap<_, _>>()
                .into(),
        },
        Value::Tuple(items) => Value::Tuple(
            items
                .iter()
                .map(infinities_as_text)
                .collect::<Vec<_>>()
                .into(),
        ),
        Value::Object(items) => Value::Object(
            items
                .iter()
                .map(|(k, v)| (k.clone(), infinities_as_text(v)))
                .collect::<BTreeMap<_, _>>()
                .into(),
        ),
        other => other.clone(),
    }
}

/// Loads the program's top level as function-hcl does before it processes blocks: syntax,
/// top-level schema, user functions, then the top-level locals evaluated against the request.
/// A failure is reported with function-hcl's own message first.
fn load_program(
    map: &mut SourceMap,
    dir: &Path,
    request: &RunFunctionRequest,
    pool: &[Json],
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Console, Outcome> {
    let bundle = match loader::load_directory(map, dir) {
        Ok(bundle) => bundle,
        Err(e) => {
            diagnostics.push(from_load_error(&e, map));
            return Err(Outcome::Error);
        }
    };
    let files: Vec<FileId> = bundle.files.iter().map(|f| f.file).collect();
    let settled;
    let request = if pool.is_empty() {
        request
    } else {
        settled = settle(map, &files, request, pool, diagnostics);
        &settled
    };
    Console::load(map, &files, request).map_err(|failure| {
        diagnostics.push(
            Diagnostic::new(Code::E401, "function-hcl cannot load this program")
                .with_detail(format!("evaluate hcl: {}", failure.message(map)))
                .with_path(loader::display_path(dir)),
        );
        diagnostics.extend(failure.diagnostics());
        Outcome::Failed
    })
}

/// The request once the program's requirements have selected their resources from `pool`:
/// the program runs, its requirements are fetched from the pool, and again, until they no
/// longer change (at most crossplane's number of rounds). Resources given by name stay.
fn settle(
    map: &mut SourceMap,
    files: &[FileId],
    request: &RunFunctionRequest,
    pool: &[Json],
    diagnostics: &mut Vec<Diagnostic>,
) -> RunFunctionRequest {
    let named = request.extra_resources.clone();
    let mut settled = request.clone();
    let mut previous = None;
    for _ in 0..=MAX_REQUIREMENTS_ITERATIONS {
        let requirements = super::function::run(map, &settled, Some(files))
            .response
            .requirements;
        if requirements == previous {
            return settled;
        }
        let selected = requirements.as_ref();
        // A requirement given by name (`-e NAME=PATH`) keeps what was given.
        let mut extra = selected.map(|r| r.select_extra(pool)).unwrap_or_default();
        extra.extend(named.clone());
        settled.extra_resources = extra;
        settled.required_resources = selected
            .map(|r| r.select_required(pool))
            .unwrap_or_default();
        previous = requirements;
    }
    diagnostics.push(
        Diagnostic::new(
            Code::I017,
            format!(
                "the program's requirements did not settle after {MAX_REQUIREMENTS_ITERATIONS} rounds"
            ),
        )
        .with_severity(Severity::Warning)
        .with_help("each round's selectors depend on the resources the last round fetched"),
    );
    settled
}

#[cfg(test)]
mod tests {
    use super::{Options, Outcome, expression};
    use crate::eval::proto::RunFunctionRequest;
    use crate::source::SourceMap;

    fn eval(expr: &str, json: bool) -> (Outcome, Vec<String>) {
        let options = Options {
            expr,
            program: None,
            json,
            pool: &[],
        };
        let mut map = SourceMap::new();
        let (outcome, diagnostics) = expression(&mut map, &options, &RunFunctionRequest::default());
        let codes = diagnostics
            .iter()
            .map(|d| d.code.as_str().to_string())
            .collect();
        (outcome, codes)
    }

    #[test]
    fn a_value_is_written_as_hcl_or_json() {
        assert_eq!(eval("1 + 2", false).0, Outcome::Value("3".into()));
        assert_eq!(
            eval("[1, 1/0]", true).0,
            Outcome::Value("[\n  1,\n  \"+Inf\"\n]".into())
        );
    }

    #[test]
    fn errors_fail_with_their_diagnostics() {
        let (outcome, codes) = eval("1 +", false);
        assert_eq!(outcome, Outcome::Failed);
        assert!(!codes.is_empty());
        let (outcome, codes) = eval("upper(1, 2)", false);
        assert_eq!(outcome, Outcome::Failed);
        assert!(!codes.is_empty());
    }
}
