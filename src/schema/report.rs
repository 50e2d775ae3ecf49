//! `crossplane beta validate`'s report over loaded resources: its text lines, its `-o json|yaml`
//! document, and each problem as a diagnostic pointing into the resource's file.

use super::Schemas;
use super::inputs::{Resource, locate};
use super::validate::{Kind, path_text, validate};
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::source::SourceMap;
use crate::source::pointer::Pointer;
use serde_json::Value as Json;

/// One resource in the `-o json|yaml` report (fields in crossplane's order).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// Its `apiVersion`.
    pub api_version: String,
    /// Its `kind`.
    pub kind: String,
    /// Its name (its composition resource name when it has none).
    pub name: String,
    /// Its namespace, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `valid`, `invalid` or `missingSchema`.
    pub status: &'static str,
    /// Its problems.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<EntryError>,
}

/// One problem in the `-o json|yaml` report.
#[derive(Clone, Debug, serde::Serialize)]
pub struct EntryError {
    /// `schema`, `unknownField` or `cel`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The field's path.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field: String,
    /// What is wrong.
    pub message: String,
}

/// The `-o json|yaml` totals.
#[derive(Clone, Copy, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Resources checked.
    pub total: usize,
    /// Resources without problems.
    pub valid: usize,
    /// Resources with problems.
    pub invalid: usize,
    /// Resources whose kind has no schema.
    pub missing_schemas: usize,
}

/// The `-o json|yaml` document.
#[derive(Debug, serde::Serialize)]
pub struct Document<'a> {
    /// The totals.
    pub summary: Summary,
    /// The resources reported.
    pub resources: Vec<&'a Entry>,
}

/// `validate`'s document: the diagnostics, the counts and totals, each resource.
#[derive(Debug, serde::Serialize)]
pub struct FullDocument<'a> {
    /// Each finding, as every command's `--format json` writes it.
    pub diagnostics: Vec<crate::diagnostics::JsonDiagnostic<'a>>,
    /// Errors and warnings, then the report's totals.
    pub summary: FullSummary,
    /// The resources reported.
    pub resources: Vec<&'a Entry>,
}

/// [`FullDocument`]'s summary: one object with both sets of counts.
#[derive(Debug, serde::Serialize)]
pub struct FullSummary {
    /// Errors and warnings.
    #[serde(flatten)]
    pub counts: crate::diagnostics::JsonSummary,
    /// The resources' totals.
    #[serde(flatten)]
    pub totals: Summary,
}

/// What validating the resources found.
#[derive(Clone, Debug)]
pub struct Report {
    /// crossplane's text report, one line per resource and problem, then the totals.
    pub lines: String,
    /// Each resource's entry.
    pub entries: Vec<Entry>,
    /// Each problem (and missing schema) as a diagnostic.
    pub findings: Vec<Diagnostic>,
    /// Resources checked.
    pub total: usize,
    /// Resources whose kind has no schema.
    pub missing: usize,
    /// Resources with problems.
    pub failures: usize,
    /// Some XR looks like `render` output and misses required fields of its `spec`
    /// ([`RENDERED_XR_HELP`]).
    pub rendered_xr_incomplete: bool,
}

/// How to report.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReportOptions {
    /// Leave out the lines (and entries) of valid resources.
    pub skip_success_results: bool,
    /// A missing schema is an error, not a warning.
    pub error_on_missing_schemas: bool,
}

/// `group/version, Kind=Kind` (`/v1, Kind=ConfigMap` for the core group), as Go prints a GVK.
pub fn gvk_text(api_version: &str, kind: &str) -> String {
    let (group, version) = match api_version.split_once('/') {
        Some((g, v)) => (g, v),
        None => ("", api_version),
    };
    format!("{group}/{version}, Kind={kind}")
}

/// Why a rendered XR misses its required fields, and what to do.
pub const RENDERED_XR_HELP: &str = "this XR looks like `render` output, which leaves the input's `spec` out: render with `-x` (`--include-full-xr`) to keep it, or validate while rendering with `render --validate`";

/// Whether an XR's `spec` holds nothing but what `render` writes there (the resource
/// references and the composition's fields): the input's own fields were left out.
fn spec_left_out_by_render(xr: &Json) -> bool {
    const RENDER_WRITES: [&str; 6] = [
        "crossplane",
        "resourceRefs",
        "compositionRef",
        "compositionRevisionRef",
        "compositionSelector",
        "compositionUpdatePolicy",
    ];
    match xr.get("spec") {
        None | Some(Json::Null) => true,
        Some(Json::Object(spec)) => spec.keys().all(|k| RENDER_WRITES.contains(&k.as_str())),
        Some(_) => false,
    }
}

/// Validates each resource against the schema of its kind.
pub fn report(
    resources: &[Resource],
    schemas: &Schemas,
    map: &SourceMap,
    options: ReportOptions,
) -> Report {
    let mut lines = String::new();
    let mut findings = Vec::new();
    let mut entries = Vec::new();
    let (mut missing, mut failures) = (0usize, 0usize);
    let mut rendered_xr_incomplete = false;
    for resource in resources {
        let text = |p: &str| {
            resource
                .value
                .at(p)
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string()
        };
        let (api_version, kind) = (text("/apiVersion"), text("/kind"));
        let gvk = gvk_text(&api_version, &kind);
        let name = match resource.value.at("/metadata/name") {
            Some(Json::String(n)) => n.clone(),
            _ => text("/metadata/annotations/crossplane.io~1composition-resource-name"),
        };
        let mut entry = Entry {
            api_version: api_version.clone(),
            kind: kind.clone(),
            name: name.clone(),
            namespace: resource
                .value
                .at("/metadata/namespace")
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
            if options.error_on_missing_schemas {
                d = d.with_severity(Severity::Error);
            }
            findings.push(locate(d, resource, &[], map));
            entries.push(entry);
            continue;
        };
        let report = validate(&resource.value, &schema.schema);
        let rendered = schema.origin == super::crd::Origin::Composite
            && spec_left_out_by_render(&resource.value);
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
                field: path_text(&v.path),
                message: v.message.clone(),
            });
            let mut d = v.diagnostic(&format!("{kind} {name:?}"));
            if rendered && v.message.ends_with("Required value") {
                rendered_xr_incomplete = true;
                d = d.with_help(RENDERED_XR_HELP);
            }
            findings.push(locate(d, resource, &v.path, map));
        }
        if report.violations.is_empty() {
            if !options.skip_success_results {
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
    Report {
        lines,
        entries,
        findings,
        total,
        missing,
        failures,
        rendered_xr_incomplete,
    }
}

impl Report {
    /// The `-o json|yaml` document: the totals and the entries (valid ones left out with
    /// `skip_success_results`).
    pub fn document(&self, skip_success_results: bool) -> Document<'_> {
        Document {
            summary: Summary {
                total: self.total,
                valid: self.total - self.failures - self.missing,
                invalid: self.failures,
                missing_schemas: self.missing,
            },
            resources: self
                .entries
                .iter()
                .filter(|e| !(skip_success_results && e.status == "valid"))
                .collect(),
        }
    }

    /// `validate`'s one JSON (and YAML) document: the diagnostics document every command's
    /// `--format json` prints (`diagnostics`, `summary.errors`, `summary.warnings`), with the
    /// report's totals added to `summary` and each resource's entry as `resources`.
    pub fn json_document<'a>(
        &'a self,
        diagnostics: &'a [Diagnostic],
        map: &SourceMap,
        skip_success_results: bool,
    ) -> FullDocument<'a> {
        let common = crate::diagnostics::json_document(diagnostics, map);
        let report = self.document(skip_success_results);
        FullDocument {
            diagnostics: common.diagnostics,
            summary: FullSummary {
                counts: common.summary,
                totals: report.summary,
            },
            resources: report.resources,
        }
    }

    /// The closing diagnostic of a run whose findings are not printed as diagnostics: some
    /// resources invalid, or (with `error_on_missing_schemas`) some schemas missing.
    pub fn closing(&self, error_on_missing_schemas: bool) -> Option<Diagnostic> {
        let (failures, total, missing) = (self.failures, self.total, self.missing);
        if failures > 0 {
            let mut d = Diagnostic::new(
                Code::V701,
                format!("could not validate all resources: {failures} of {total} invalid"),
            );
            if self.rendered_xr_incomplete {
                d = d.with_help(RENDERED_XR_HELP);
            }
            Some(d)
        } else if error_on_missing_schemas && missing > 0 {
            Some(
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
            )
        } else {
            None
        }
    }
}
