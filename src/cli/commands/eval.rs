//! `fnhcl eval`: one expression, evaluated as function-hcl would, with `req` from files.

use crate::cli::Context;
use crate::cli::args::{DiagnosticFormat, EvalArgs};
use crate::cli::exit::ExitStatus;
use crate::cli::inputs::{context_map, resource_docs, usage, yaml_docs};
use fnhcl::diagnostics::{Code, Diagnostic, Severity, from_load_error};
use fnhcl::eval::functions::builtins;
use fnhcl::eval::program::Console;
use fnhcl::eval::proto::{Resource, Resources, RunFunctionRequest, State};
use fnhcl::eval::scope::Scope;
use fnhcl::eval::{Value, expr, json, vars};
use fnhcl::render::composition_resource_name;
use fnhcl::source::FileId;
use fnhcl::source::loader;
use fnhcl::syntax;
use fnhcl::syntax::ast::Expr;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// Runs the command.
pub fn run(
    args: &EvalArgs,
    format: DiagnosticFormat,
    cx: &mut Context,
) -> std::io::Result<ExitStatus> {
    let request = match build_request(args, cx) {
        Ok(request) => request,
        Err(d) => return Ok(cx.fail(*d)),
    };
    let console = match &args.hcl {
        Some(dir) => match load_program(dir, &request, cx) {
            Ok(console) => Some(console),
            Err(status) => return Ok(status),
        },
        None => None,
    };
    // A console reads whole lines: a heredoc may close on the last line.
    let mut source = args.expr.clone();
    if !source.ends_with('\n') {
        source.push('\n');
    }
    let file = cx.map.add("expression", source);
    let (parsed, mut diagnostics) = syntax::parse_expression(cx.map.get(file));
    if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        cx.diagnostics.append(&mut diagnostics);
        return Ok(ExitStatus::Failure);
    }
    if let Some(console) = &console {
        // What function-hcl's analyzer would say about the expression's `invoke` calls;
        // the expression is still evaluated, as function-hcl would at run time.
        let problems = console.check_invokes(&cx.map, &parsed, file);
        cx.diagnostics.extend(
            problems
                .into_iter()
                .map(|d| d.with_severity(Severity::Warning)),
        );
    }
    match &console {
        Some(console) => console
            .with_scope(|scope| show(args, format, cx, &parsed, file, scope, &console.warnings)),
        None => {
            let functions = builtins();
            let root = Scope::root(&functions);
            let mut variables = BTreeMap::new();
            variables.insert("req".to_string(), vars::build_req(&request));
            let scope = root.child(variables);
            show(args, format, cx, &parsed, file, &scope, &[])
        }
    }
}

/// Evaluates the parsed expression in `scope` and prints its value.
fn show(
    args: &EvalArgs,
    format: DiagnosticFormat,
    cx: &mut Context,
    parsed: &Expr,
    file: FileId,
    scope: &Scope,
    warnings: &[Diagnostic],
) -> std::io::Result<ExitStatus> {
    let (value, mut diagnostics) = fnhcl::eval::budget::within(|| {
        expr::Evaluator::new(file)
            .with_sources(&cx.map)
            .eval(parsed, scope)
    });
    let failed = diagnostics.iter().any(|d| d.severity == Severity::Error);
    cx.diagnostics.append(&mut diagnostics);
    if failed {
        return Ok(ExitStatus::Failure);
    }
    if !value.is_wholly_known() {
        cx.diagnostics.extend(warnings.iter().cloned());
        let unknown = expr::unknown_references(parsed, scope);
        let detail = if unknown.is_empty() {
            "The result depends on values that are not known yet.".to_string()
        } else {
            format!(
                "The result depends on values that are not known yet: {}.",
                unknown.join(", ")
            )
        };
        let span = cx.map.get(file).span(0..args.expr.len());
        cx.diagnostics.push(
            Diagnostic::new(Code::T302, "Value not known")
                .with_detail(detail)
                .with_primary(span, None)
                .with_help(
                    "function-hcl defers a block whose value is not known until the data exists",
                ),
        );
        return Ok(ExitStatus::Failure);
    }
    let text = if format == DiagnosticFormat::Json {
        match json::to_json(&infinities_as_text(&value)) {
            Ok(j) => serde_json::to_string_pretty(&j).unwrap_or_default(),
            Err(e) => {
                let span = cx.map.get(file).span(0..args.expr.len());
                return Ok(cx.fail(
                    Diagnostic::new(Code::T301, "Value cannot be written as JSON")
                        .with_detail(e.to_string())
                        .with_primary(span, None),
                ));
            }
        }
    } else {
        json::to_hcl(&value)
    };
    writeln!(cx.stdout, "{text}")?;
    Ok(ExitStatus::Success)
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

/// Loads the `--hcl` program's top level as function-hcl does before it processes blocks:
/// syntax, top-level schema, user functions, then the top-level locals evaluated against the
/// request. A failure is reported with function-hcl's own message first.
fn load_program(
    dir: &Path,
    request: &RunFunctionRequest,
    cx: &mut Context,
) -> Result<Console, ExitStatus> {
    let bundle = loader::load_directory(&mut cx.map, dir)
        .map_err(|e| cx.fail(from_load_error(&e, &cx.map)))?;
    let files: Vec<FileId> = bundle.files.iter().map(|f| f.file).collect();
    Console::load(&cx.map, &files, request).map_err(|failure| {
        cx.diagnostics.push(
            Diagnostic::new(Code::E401, "function-hcl cannot load this program")
                .with_detail(format!("evaluate hcl: {}", failure.message(&cx.map)))
                .with_path(loader::display_path(dir)),
        );
        cx.diagnostics.extend(failure.diagnostics());
        ExitStatus::Failure
    })
}

/// The request the files describe, as `crossplane render` would send it.
fn build_request(args: &EvalArgs, cx: &mut Context) -> Result<RunFunctionRequest, Box<Diagnostic>> {
    let mut request = RunFunctionRequest::default();
    if let Some(xr) = &args.xr {
        let xr = yaml_docs(xr, cx)?.into_iter().next().unwrap_or(Json::Null);
        request.observed = State {
            composite: Some(Resource::of(xr)),
            ..State::default()
        };
    }
    if let Some(path) = &args.observed_resources {
        for doc in resource_docs(path, "observed resources", cx)? {
            let name = composition_resource_name(&doc).to_string();
            request.observed.resources.insert(name, Resource::of(doc));
        }
    }
    for spec in &args.required_resources {
        let Some((name, path)) = spec.split_once('=') else {
            return Err(usage(
                format!("`{spec}` does not name a requirement"),
                "write -e NAME=PATH: the resources become req.extra_resources.NAME",
            ));
        };
        let items: Vec<Resource> = resource_docs(Path::new(path), "extra resources", cx)?
            .into_iter()
            .map(Resource::of)
            .collect();
        if items.is_empty() {
            cx.diagnostics.push(
                Diagnostic::new(
                    Code::I002,
                    format!("`{path}` holds no resources: req.extra_resources.{name} is null"),
                )
                .with_severity(fnhcl::diagnostics::Severity::Warning)
                .with_path(path.to_string())
                .with_help("function-hcl gives null for a requirement that matched nothing"),
            );
        }
        request
            .extra_resources
            .insert(name.to_string(), Resources { items });
    }
    let context = context_map(&args.context_files, &args.context_values, cx)?;
    if !context.is_empty() {
        request.context = Some(Json::Object(context));
    }
    Ok(request)
}
