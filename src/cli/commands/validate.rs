//! `fnhcl validate`: resources against CRD and XRD schemas, reported as `crossplane beta
//! validate` reports them, or as diagnostics pointing into the resources' files.

use crate::cli::Context;
use crate::cli::args::{DiagnosticFormat, ValidateArgs, ValidateOutput};
use crate::cli::exit::ExitStatus;
use fnhcl::diagnostics::{Diagnostic, usage};
use fnhcl::schema::inputs::{load_resources, load_schemas};
use fnhcl::schema::report::{ReportOptions, report};
use std::io::{self, Write};

type Fallible<T> = Result<T, Box<Diagnostic>>;

/// Runs the command: the report on stdout (text, JSON or YAML), or the findings returned as
/// diagnostics for a machine `--format`.
pub fn run(
    args: &ValidateArgs,
    format: DiagnosticFormat,
    cx: &mut Context,
) -> io::Result<(ExitStatus, Vec<Diagnostic>)> {
    match validate_all(args, format, cx) {
        Ok(result) => Ok(result),
        Err(d) => {
            cx.diagnostics.push(*d);
            Ok((ExitStatus::Error, Vec::new()))
        }
    }
}

fn validate_all(
    args: &ValidateArgs,
    format: DiagnosticFormat,
    cx: &mut Context,
) -> Fallible<(ExitStatus, Vec<Diagnostic>)> {
    let (schema_args, resource_arg) = match args.paths.as_slice() {
        [resources] => (Vec::new(), resources.clone()),
        [schemas @ .., resources] => (schemas.to_vec(), resources.clone()),
        [] => {
            return Err(usage(
                "no resources to validate".into(),
                "write fnhcl validate SCHEMAS… RESOURCES",
            ));
        }
    };
    let schema_paths: Vec<String> = schema_args
        .iter()
        .flat_map(|a| a.split(',').map(str::to_string).collect::<Vec<_>>())
        .filter(|a| !a.is_empty())
        .collect();
    if schema_paths.iter().any(|p| p == "-") && resource_arg.split(',').any(|p| p == "-") {
        return Err(usage(
            "cannot use stdin for both extensions and resources".into(),
            "give the schemas as files or folders",
        ));
    }
    let mut stdin = io::stdin();
    let here = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let nothing_to_discover =
        schema_paths.is_empty() && matches!(fnhcl::schema::sources::discover(&here), Ok(None));
    let schemas = if nothing_to_discover {
        // No schemas given or found: the bundled Crossplane kinds still check Compositions,
        // XRDs and packages, so that needs no `.crds/`.
        fnhcl::schema::Schemas::with_bundled()
    } else {
        load_schemas(&mut cx.map, &schema_paths, &mut stdin)?
    };
    cx.diagnostics
        .extend(fnhcl::schema::inputs::schema_warnings(&schemas));
    let resources = load_resources(&mut cx.map, &resource_arg, &mut stdin)?;
    let options = ReportOptions {
        skip_success_results: args.skip_success_results,
        error_on_missing_schemas: args.error_on_missing_schemas,
    };
    let report = report(&resources, &schemas, &cx.map, options);
    // One document for `--format json` and `--output json|yaml`; GitHub and SARIF print the
    // findings as every command does; otherwise crossplane's lines.
    let document = match (format, args.output) {
        (DiagnosticFormat::Json, _) | (_, ValidateOutput::Json) => Some(ValidateOutput::Json),
        (DiagnosticFormat::Github | DiagnosticFormat::Sarif, _) => None,
        (_, ValidateOutput::Yaml) => Some(ValidateOutput::Yaml),
        (_, ValidateOutput::Text) => None,
    };
    let machine = matches!(
        format,
        DiagnosticFormat::Json | DiagnosticFormat::Github | DiagnosticFormat::Sarif
    );
    let mut findings = report.findings.clone();
    if let Some(kind) = document {
        fnhcl::diagnostics::dedupe(&mut findings);
        fnhcl::diagnostics::sort(&mut findings, &cx.map);
        let document = report.json_document(&findings, &cx.map, args.skip_success_results);
        let text = if kind == ValidateOutput::Json {
            format!(
                "{}\n",
                serde_json::to_string_pretty(&document).unwrap_or_default()
            )
        } else {
            let value = serde_json::to_value(&document).unwrap_or_default();
            fnhcl::source::yaml_emit::to_yaml(&value)
        };
        write_out(cx, &text);
        findings.clear();
    } else if !machine {
        write_out(cx, &report.lines);
    }
    let failed = report.failures > 0 || (args.error_on_missing_schemas && report.missing > 0);
    if !machine && let Some(d) = report.closing(args.error_on_missing_schemas) {
        cx.diagnostics.push(d);
    }
    let status = if failed {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    };
    Ok((status, findings))
}

fn write_out(cx: &mut Context, text: &str) {
    let _ = cx.stdout.write_all(text.as_bytes());
}
