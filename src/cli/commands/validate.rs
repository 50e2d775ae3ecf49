//! `fnhcl validate`: resources against CRD and XRD schemas, reported as `crossplane beta
//! validate` reports them, or as diagnostics pointing into the resources' files.

use crate::cli::Context;
use crate::cli::args::{DiagnosticFormat, ValidateArgs, ValidateOutput};
use crate::cli::exit::ExitStatus;
use crate::cli::inputs::{load_error, usage};
use fnhcl::diagnostics::{Code, Diagnostic, Severity};
use fnhcl::schema::sources::{self, SourcesError};
use fnhcl::schema::{Kind, Schemas, Segment, validate};
use fnhcl::source::FileId;
use fnhcl::source::loader;
use fnhcl::source::yaml::Node;
use serde_json::Value as Json;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

type Fallible<T> = Result<T, Box<Diagnostic>>;

/// One resource to validate, with where it was read.
struct Resource {
    value: Json,
    file: Option<FileId>,
    node: Option<Node>,
}

/// One resource in the `-o json|yaml` report (fields in crossplane's order).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    api_version: String,
    kind: String,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<String>,
    /// `valid`, `invalid` or `missingSchema`.
    status: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    errors: Vec<EntryError>,
}

/// One problem in the `-o json|yaml` report.
#[derive(serde::Serialize)]
struct EntryError {
    /// `schema`, `unknownField` or `cel`.
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "String::is_empty")]
    field: String,
    message: String,
}

/// The `-o json|yaml` totals.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Summary {
    total: usize,
    valid: usize,
    invalid: usize,
    missing_schemas: usize,
}

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
    let schemas = load_schemas(&schema_paths, cx)?;
    let resources = load_resources(&resource_arg, cx)?;
    let machine = matches!(
        format,
        DiagnosticFormat::Json | DiagnosticFormat::Github | DiagnosticFormat::Sarif
    );
    let mut lines = String::new();
    let mut findings = Vec::new();
    let mut entries = Vec::new();
    let (mut missing, mut failures) = (0usize, 0usize);
    for resource in &resources {
        let text = |p: &str| {
            resource
                .value
                .pointer(p)
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string()
        };
        let (api_version, kind) = (text("/apiVersion"), text("/kind"));
        let gvk = gvk_text(&api_version, &kind);
        let name = match resource.value.pointer("/metadata/name") {
            Some(Json::String(n)) => n.clone(),
            _ => text("/metadata/annotations/crossplane.io~1composition-resource-name"),
        };
        let mut entry = Entry {
            api_version: api_version.clone(),
            kind: kind.clone(),
            name: name.clone(),
            namespace: resource
                .value
                .pointer("/metadata/namespace")
                .and_then(Json::as_str)
                .map(str::to_string),
            status: "valid",
            errors: Vec::new(),
        };
        let Some(schema) = schemas.get(&api_version, &kind) else {
            missing += 1;
            lines.push_str(&format!("[!] could not find CRD/XRD for: {gvk}\n"));
            entry.status = "missingSchema";
            let mut d = Diagnostic::new(
                Code::V704,
                format!("no CRD or XRD for {gvk} (resource {name:?})"),
            )
            .with_help("give the CRD or XRD that defines the kind among the schemas");
            if args.error_on_missing_schemas {
                d = d.with_severity(Severity::Error);
            }
            findings.push(locate(d, resource, &[], cx));
            entries.push(entry);
            continue;
        };
        let report = validate(&resource.value, &schema.schema);
        let mut errors = Vec::new();
        for v in &report.violations {
            let (label, kind_name) = match v.kind {
                Kind::Schema => ("schema validation error", "schema"),
                Kind::UnknownField => ("schema validation error", "unknownField"),
                Kind::Cel => ("CEL validation error", "cel"),
            };
            lines.push_str(&format!("[x] {label} {gvk}, {name} : {}\n", v.message));
            errors.push(EntryError {
                kind: kind_name,
                field: fnhcl::schema::validate::path_text(&v.path),
                message: v.message.clone(),
            });
            let d = v.diagnostic(&format!("{kind} {name:?}"));
            findings.push(locate(d, resource, &v.path, cx));
        }
        if report.violations.is_empty() {
            if !args.skip_success_results {
                lines.push_str(&format!("[✓] {gvk}, {name} validated successfully\n"));
            }
            entries.push(entry);
        } else {
            failures += 1;
            entry.status = "invalid";
            entry.errors = errors;
            entries.push(entry);
        }
    }
    let total = resources.len();
    let success = total - failures - missing;
    lines.push_str(&format!(
        "Total {total} resources: {missing} missing schemas, {success} success cases, {failures} failure cases\n"
    ));
    if !machine {
        match args.output {
            ValidateOutput::Text => write_out(cx, &lines),
            ValidateOutput::Json | ValidateOutput::Yaml => {
                #[derive(serde::Serialize)]
                struct Document<'a> {
                    summary: Summary,
                    resources: Vec<&'a Entry>,
                }
                let document = Document {
                    summary: Summary {
                        total,
                        valid: success,
                        invalid: failures,
                        missing_schemas: missing,
                    },
                    resources: entries
                        .iter()
                        .filter(|e| !(args.skip_success_results && e.status == "valid"))
                        .collect(),
                };
                let text = if args.output == ValidateOutput::Json {
                    format!(
                        "{}\n",
                        serde_json::to_string_pretty(&document).unwrap_or_default()
                    )
                } else {
                    let value = serde_json::to_value(&document).unwrap_or(Json::Null);
                    fnhcl::source::yaml_emit::to_yaml(&value)
                };
                write_out(cx, &text)
            }
        }
    }
    let status = if failures > 0 {
        if !machine {
            cx.diagnostics.push(Diagnostic::new(
                Code::V701,
                format!("could not validate all resources: {failures} of {total} invalid"),
            ));
        }
        ExitStatus::Failure
    } else if args.error_on_missing_schemas && missing > 0 {
        if !machine {
            cx.diagnostics.push(
                Diagnostic::new(
                    Code::V704,
                    format!(
                        "could not validate all resources, schema(s) missing: {missing} of {total}"
                    ),
                )
                .with_help(
                    "give the CRDs or XRDs of those kinds, or leave out --error-on-missing-schemas",
                )
                .with_severity(Severity::Error),
            );
        }
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    };
    Ok((status, findings))
}

fn write_out(cx: &mut Context, text: &str) {
    let _ = cx.stdout.write_all(text.as_bytes());
}

/// `group/version, Kind=Kind` (`/v1, Kind=ConfigMap` for the core group), as Go prints a GVK.
fn gvk_text(api_version: &str, kind: &str) -> String {
    let (group, version) = match api_version.split_once('/') {
        Some((g, v)) => (g, v),
        None => ("", api_version),
    };
    format!("{group}/{version}, Kind={kind}")
}

/// Points `d` at the field `path` in the resource's file: the key of an unknown or wrong field,
/// the nearest enclosing object for a missing one.
fn locate(d: Diagnostic, resource: &Resource, path: &[Segment], cx: &Context) -> Diagnostic {
    let (Some(file), Some(root)) = (resource.file, &resource.node) else {
        return d;
    };
    let mut node = root;
    let mut key_node: Option<&Node> = None;
    for segment in path {
        let next = match segment {
            Segment::Key(k) => node.entry(k).map(|(key, value)| {
                key_node = Some(key);
                value
            }),
            Segment::Index(i) => {
                key_node = None;
                node.items().get(*i)
            }
        };
        match next {
            Some(n) => node = n,
            None => {
                key_node = None;
                break;
            }
        }
    }
    let span_of = key_node.unwrap_or(node).span.clone();
    let span = cx.map.get(file).span(span_of);
    d.with_primary(span, None)
}

fn sources_error(e: SourcesError) -> Box<Diagnostic> {
    let path = match &e {
        SourcesError::Io { path, .. } | SourcesError::Config { path, .. } => path.clone(),
    };
    Box::new(Diagnostic::new(Code::I001, e.to_string()).with_path(path))
}

pub(crate) fn load_schemas(args: &[String], cx: &mut Context) -> Fallible<Schemas> {
    let mut files: Vec<PathBuf> = Vec::new();
    if args.is_empty() {
        let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        match sources::discover(&here).map_err(sources_error)? {
            Some((_, found)) => files = found,
            None => {
                return Err(usage(
                    "no schemas: give CRD or XRD files or folders before the resources".into(),
                    "or put them in a `.crds/` folder (or name them in a `.crd-sources.yaml`) at or above this folder",
                ));
            }
        }
    }
    let mut stdin_docs = Vec::new();
    for arg in args {
        if arg == "-" {
            stdin_docs = read_stdin_docs(cx)?;
            continue;
        }
        files.extend(sources::from_argument(Path::new(arg)).map_err(sources_error)?);
    }
    let mut schemas = Schemas::new();
    for path in files {
        let file = path.display().to_string();
        for doc in loader::load_yaml_stream(&mut cx.map, &path).map_err(|e| load_error(e, cx))? {
            let json = serde_json::to_value(&doc.document.value).unwrap_or(Json::Null);
            add_schema(&mut schemas, &file, &json)?;
        }
    }
    for resource in stdin_docs {
        add_schema(&mut schemas, "(stdin)", &resource.value)?;
    }
    Ok(schemas)
}

fn add_schema(schemas: &mut Schemas, file: &str, doc: &Json) -> Fallible<()> {
    schemas.add_document(file, doc).map(|_| ()).map_err(|e| {
        Box::new(
            Diagnostic::new(Code::V705, e.to_string())
                .with_path(file.to_string())
                .with_help("a CRD (apiextensions.k8s.io/v1) or XRD (apiextensions.crossplane.io/v1 or v2) with a structural openAPIV3Schema"),
        )
    })
}

fn read_stdin_docs(cx: &mut Context) -> Fallible<Vec<Resource>> {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).map_err(|e| {
        Box::new(Diagnostic::new(
            Code::I001,
            format!("cannot read standard input: {e}"),
        ))
    })?;
    let parsed = fnhcl::source::yaml::read_stream(&text);
    let file = cx.map.add("(stdin)".to_string(), text);
    let docs = parsed.map_err(|error| load_error(loader::LoadError::Yaml { file, error }, cx))?;
    Ok(docs
        .into_iter()
        .map(|d| Resource {
            value: serde_json::to_value(&d.value).unwrap_or(Json::Null),
            file: Some(file),
            node: Some(d.root),
        })
        .collect())
}

fn load_resources(arg: &str, cx: &mut Context) -> Fallible<Vec<Resource>> {
    let mut docs: Vec<Resource> = Vec::new();
    for part in arg.split(',').filter(|p| !p.is_empty()) {
        if part == "-" {
            docs.extend(read_stdin_docs(cx)?);
            continue;
        }
        let path = Path::new(part);
        let files = if path.is_dir() {
            sources::yaml_files_below(path).map_err(sources_error)?
        } else {
            vec![path.to_path_buf()]
        };
        for file in files {
            for doc in
                loader::load_yaml_stream(&mut cx.map, &file).map_err(|e| load_error(e, cx))?
            {
                docs.push(Resource {
                    value: serde_json::to_value(&doc.document.value).unwrap_or(Json::Null),
                    file: Some(doc.file),
                    node: Some(doc.document.root),
                });
            }
        }
    }
    // A Composition's pipeline inputs are validated too, before it, as crossplane does.
    let mut out = Vec::with_capacity(docs.len());
    for doc in docs {
        if !doc.value.is_object() || doc.value.get("kind").and_then(Json::as_str).is_none() {
            let d = Diagnostic::new(
                Code::I002,
                "a document without `kind` cannot be validated (crossplane stops at it)",
            );
            return Err(Box::new(locate(d, &doc, &[], cx)));
        }
        let is_composition = doc.value.get("apiVersion").and_then(Json::as_str)
            == Some("apiextensions.crossplane.io/v1")
            && doc.value.get("kind").and_then(Json::as_str) == Some("Composition");
        if is_composition && let Some(Json::Array(steps)) = doc.value.pointer("/spec/pipeline") {
            for (i, step) in steps.iter().enumerate() {
                if let Some(input) = step.get("input") {
                    let node = doc.node.as_ref().and_then(|n| {
                        n.get("spec")?
                            .get("pipeline")?
                            .items()
                            .get(i)?
                            .get("input")
                            .cloned()
                    });
                    out.push(Resource {
                        value: input.clone(),
                        file: doc.file,
                        node,
                    });
                }
            }
        }
        out.push(doc);
    }
    Ok(out)
}
