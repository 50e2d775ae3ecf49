//! The machine-readable shapes of diagnostics: JSON, SARIF 2.1.0 and GitHub workflow commands.

use super::{CODES, Diagnostic, Severity, counts};
use crate::source::SourceMap;
use serde::Serialize;
use serde_json::{Value, json};

/// The output formats for diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// [`crossplane`].
    Crossplane,
    /// miette's graphical report, for people.
    Human,
    /// [`json`].
    Json,
    /// [`github`].
    Github,
    /// [`sarif`].
    Sarif,
}

/// Position fields of one diagnostic: file, line, column, endLine, endColumn (1-based).
struct Location {
    file: Option<String>,
    range: Option<(usize, usize, usize, usize)>,
}

fn locate(diagnostic: &Diagnostic, map: &SourceMap) -> Location {
    let file = diagnostic.file_name(map).map(str::to_string);
    let range = diagnostic.primary.as_ref().map(|label| {
        let (start, end) = map.get(label.span.file).span_positions(label.span);
        (start.line, start.column, end.line, end.column)
    });
    Location { file, range }
}

/// One entry of the JSON format, fields in their documented order.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonDiagnostic<'a> {
    code: &'static str,
    rule: &'static str,
    severity: &'static str,
    summary: &'a str,
    detail: Option<&'a str>,
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    end_line: Option<usize>,
    end_column: Option<usize>,
    help: Option<&'a str>,
    /// Present only when set: the upstream tool's exact line.
    #[serde(skip_serializing_if = "Option::is_none")]
    upstream: Option<&'a str>,
}

/// The JSON format: `{"diagnostics":[{"code","rule","severity","summary","detail","file","line",
/// "column","endLine","endColumn","help"}],"summary":{"errors":N,"warnings":N}}`; absent fields
/// are `null`, except `upstream` (the exact line `crossplane` prints, after `help`), which is
/// there only when the diagnostic has one.
pub fn json(diagnostics: &[Diagnostic], map: &SourceMap) -> String {
    // Plain structs of strings and numbers always serialise.
    serde_json::to_string_pretty(&json_document(diagnostics, map)).unwrap_or_default()
}

/// The [`json`] document's counts.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct JsonSummary {
    /// Errors.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
}

/// The [`json`] document, for a command whose own document extends it (its fields serialise
/// in this order).
#[derive(Debug, Serialize)]
pub struct JsonDocument<'a> {
    /// Each diagnostic.
    pub diagnostics: Vec<JsonDiagnostic<'a>>,
    /// The counts.
    pub summary: JsonSummary,
}

/// The [`json`] document, not yet written.
pub fn json_document<'a>(diagnostics: &'a [Diagnostic], map: &SourceMap) -> JsonDocument<'a> {
    let items = diagnostics
        .iter()
        .map(|d| {
            let loc = locate(d, map);
            let (line, column, end_line, end_column) = match loc.range {
                Some((a, b, c, e)) => (Some(a), Some(b), Some(c), Some(e)),
                None => (None, None, None, None),
            };
            JsonDiagnostic {
                code: d.code.as_str(),
                rule: d.code.info().name,
                severity: d.severity.as_str(),
                summary: &d.summary,
                detail: d.detail.as_deref(),
                file: loc.file,
                line,
                column,
                end_line,
                end_column,
                help: d.help.as_deref(),
                upstream: d.upstream.as_deref(),
            }
        })
        .collect();
    let (errors, warnings) = counts(diagnostics);
    JsonDocument {
        diagnostics: items,
        summary: JsonSummary { errors, warnings },
    }
}

/// The lines the Crossplane CLI would print on stderr: each error as `crossplane: error: …`,
/// word for word where the diagnostic carries the upstream line (a failed render); warnings
/// and notes are left out, as crossplane prints none. When some error carries an upstream
/// line only those are printed: the others explain it and crossplane has no words for them.
pub fn crossplane(diagnostics: &[Diagnostic]) -> String {
    let errors: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    let upstream: Vec<&str> = errors
        .iter()
        .filter_map(|d| d.upstream.as_deref())
        .collect();
    let mut out = String::new();
    if upstream.is_empty() {
        for d in errors {
            out.push_str("crossplane: error: ");
            out.push_str(&d.summary.replace('\n', " "));
            out.push('\n');
        }
    } else {
        for line in upstream {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// One GitHub Actions workflow command per diagnostic
/// (`::error file=…,line=…,col=…,endLine=…,endColumn=…,title=CODE name::message`), each ending in a
/// newline.
pub fn github(diagnostics: &[Diagnostic], map: &SourceMap) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let loc = locate(d, map);
        let mut props = Vec::new();
        if let Some(file) = &loc.file {
            props.push(format!("file={}", escape_property(file)));
        }
        if let Some((line, col, end_line, end_col)) = loc.range {
            props.push(format!("line={line}"));
            props.push(format!("col={col}"));
            props.push(format!("endLine={end_line}"));
            props.push(format!("endColumn={end_col}"));
        }
        props.push(format!(
            "title={}",
            escape_property(&format!("{} {}", d.code.as_str(), d.code.info().name))
        ));
        let mut message = d.message();
        if let Some(help) = &d.help {
            message.push_str("\nhelp: ");
            message.push_str(help);
        }
        out.push_str(&format!(
            "::{command} {}::{}\n",
            props.join(","),
            escape_data(&message)
        ));
    }
    out
}

/// Escapes a workflow command's message.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// A SARIF 2.1.0 log with one run, the rules used, and one result per diagnostic.
pub fn sarif(diagnostics: &[Diagnostic], map: &SourceMap, version: &str) -> Value {
    let mut used: Vec<_> = diagnostics.iter().map(|d| d.code).collect();
    used.sort();
    used.dedup();
    let rules: Vec<Value> = used
        .iter()
        .map(|code| {
            let info = code.info();
            json!({
                "id": info.id,
                "name": info.name,
                "shortDescription": { "text": info.description },
                "defaultConfiguration": { "level": level(info.severity) },
            })
        })
        .collect();
    let results: Vec<Value> = diagnostics
        .iter()
        .map(|d| {
            let loc = locate(d, map);
            let mut result = json!({
                "ruleId": d.code.as_str(),
                "ruleIndex": used.binary_search(&d.code).unwrap_or(0),
                "level": level(d.severity),
                "message": { "text": d.message() },
            });
            if let Some(file) = loc.file {
                let mut physical = json!({ "artifactLocation": { "uri": file } });
                if let Some((line, col, end_line, end_col)) = loc.range {
                    physical["region"] = json!({
                        "startLine": line,
                        "startColumn": col,
                        "endLine": end_line,
                        "endColumn": end_col,
                    });
                }
                result["locations"] = json!([{ "physicalLocation": physical }]);
            }
            result
        })
        .collect();
    debug_assert!(CODES.len() >= used.len());
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "fnhcl",
                "version": version,
                "informationUri": "https://github.com/crossplane-contrib/function-hcl",
                "rules": rules,
            }},
            "results": results,
        }],
    })
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_commands_escape_as_github_requires() {
        assert_eq!(escape_data("50% a\r\nb"), "50%25 a%0D%0Ab");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
