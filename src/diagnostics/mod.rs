//! L1: the one diagnostic type every layer returns, and the data shapes of its machine formats.
//!
//! Only the CLI renders diagnostics for people (with miette); the JSON, SARIF and GitHub
//! shapes are built here so they can be tested without a terminal. Nothing here prints.

mod code;
mod formats;
mod input;
mod load;
pub mod suggest;

pub use code::{CODES, Code, CodeInfo};
pub use formats::{
    Format, JsonDiagnostic, JsonDocument, JsonSummary, crossplane, github, json, json_document,
    sarif,
};
pub use input::{composition_error, from_read_error, load_error, read_stdin, usage};
pub use load::from_load_error;

use crate::source::{SourceMap, Span};
use serde::Serialize;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Informational.
    Info,
    /// Worth fixing; does not fail a run by default.
    Warning,
    /// The input is wrong.
    Error,
}

impl Severity {
    /// The lower-case word.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A span with an optional short message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What about it ("first defined here").
    pub message: Option<String>,
}

impl Label {
    /// A label with a message.
    pub fn new(span: Span, message: impl Into<String>) -> Label {
        Label {
            span,
            message: Some(message.into()),
        }
    }

    /// A label without a message.
    pub fn bare(span: Span) -> Label {
        Label {
            span,
            message: None,
        }
    }
}

/// One finding: code, severity, HCL-style summary and detail, where, and what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code.
    pub code: Code,
    /// Severity (the code's default unless overridden).
    pub severity: Severity,
    /// One short sentence (Go HCL's "summary" where there is one).
    pub summary: String,
    /// More text (Go HCL's "detail").
    pub detail: Option<String>,
    /// The main location.
    pub primary: Option<Label>,
    /// Other locations.
    pub labels: Vec<Label>,
    /// One line that says what to do.
    pub help: Option<String>,
    /// The file a span-less diagnostic is about (a path that could not be read, say).
    pub path: Option<String>,
    /// Go HCL's `Expression` range (or, for function-hcl's own diagnostics, its `Context`
    /// range): the source function-hcl quotes before the message when it reports a discarded
    /// block. Evaluation diagnostics carry the innermost expression that failed.
    pub expression: Option<Span>,
    /// The exact line the tool fnhcl stands in for prints for this problem (`crossplane:
    /// error: …` for a failed render), kept word for word for scripts that match it; the
    /// summary says it for people.
    pub upstream: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity.
    pub fn new(code: Code, summary: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.info().severity,
            summary: summary.into(),
            detail: None,
            primary: None,
            labels: Vec::new(),
            help: None,
            path: None,
            expression: None,
            upstream: None,
        }
    }

    /// Sets the upstream tool's exact words.
    pub fn with_upstream(mut self, line: impl Into<String>) -> Self {
        self.upstream = Some(line.into());
        self
    }

    /// Sets the detail.
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    /// Sets the primary location.
    pub fn with_primary(mut self, span: Span, message: Option<String>) -> Self {
        self.primary = Some(Label { span, message });
        self
    }

    /// Adds a secondary location.
    pub fn with_label(mut self, label: Label) -> Self {
        self.labels.push(label);
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Sets the path of a span-less diagnostic.
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Sets the expression range (Go HCL's `Diagnostic.Expression`).
    pub fn with_expression(mut self, span: Span) -> Self {
        self.expression = Some(span);
        self
    }

    /// Sets the severity.
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// The diagnostic with its spans moved along with their files' map
    /// ([`SourceMap::append`](crate::source::SourceMap::append)).
    pub fn moved(mut self, offset: crate::source::FileOffset) -> Self {
        let shift = |span: &mut Span| span.file = span.file.moved(offset);
        if let Some(label) = &mut self.primary {
            shift(&mut label.span);
        }
        for label in &mut self.labels {
            shift(&mut label.span);
        }
        if let Some(span) = &mut self.expression {
            shift(span);
        }
        self
    }

    /// The file name this diagnostic is about: its primary span's file, else its path.
    pub fn file_name<'a>(&'a self, map: &'a SourceMap) -> Option<&'a str> {
        match &self.primary {
            Some(label) => Some(map.get(label.span.file).display_name()),
            None => self.path.as_deref(),
        }
    }

    /// Summary and detail as one message ("summary: detail").
    pub fn message(&self) -> String {
        match &self.detail {
            Some(detail) => format!("{}; {}", self.summary, detail),
            None => self.summary.clone(),
        }
    }
}

/// Sorts diagnostics by file, position and code, for deterministic output.
pub fn sort(diagnostics: &mut [Diagnostic], map: &SourceMap) {
    diagnostics.sort_by(|a, b| {
        let key = |d: &Diagnostic| {
            (
                d.file_name(map).map(str::to_string),
                d.primary.as_ref().map(|l| (l.span.start, l.span.end)),
                d.code,
            )
        };
        key(a).cmp(&key(b))
    });
}

/// Drops every diagnostic identical to an earlier one — the same code, severity, place (span,
/// or path for one without a span) and message — keeping the first: two paths of a run
/// that find the same problem report it once.
pub fn dedupe(diagnostics: &mut Vec<Diagnostic>) {
    let mut seen = std::collections::HashSet::new();
    diagnostics.retain(|d| {
        seen.insert((
            d.code,
            d.severity,
            d.primary
                .as_ref()
                .map(|l| (l.span.file, l.span.start, l.span.end)),
            d.path.clone(),
            d.summary.clone(),
            d.detail.clone(),
        ))
    });
}

/// `n` and the noun that agrees with it, for our own messages: `count(1, "file", "files")` is
/// `1 file`, `count(0, "file", "files")` is `0 files`. (Messages reproduced from Go keep Go's
/// wording, agreeing or not.)
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Counts (errors, warnings).
pub fn counts(diagnostics: &[Diagnostic]) -> (usize, usize) {
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    (errors, warnings)
}

/// For people: folds function-hcl's wrapper diagnostics into their causes. function-hcl
/// reports a failed expression twice — HCL's own diagnostic (`Unknown variable`), then its own
/// over the whole expression (`unable to evaluate context key`, whose detail may repeat the
/// first) —
/// and both belong in the fatal result's message, which keeps them. Shown with their source,
/// they read as one finding: `unable to evaluate context key: Unknown variable`, with the
/// cause's detail and the wrapper's code.
pub fn fold_wrappers(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::with_capacity(diagnostics.len());
    for d in diagnostics {
        let within = |earlier: &Diagnostic| match (&earlier.primary, &d.primary) {
            (Some(cause), Some(wrapper)) => {
                cause.span.file == wrapper.span.file
                    && wrapper.span.start <= cause.span.start
                    && cause.span.end <= wrapper.span.end
            }
            _ => false,
        };
        let cause = out
            .iter_mut()
            .rev()
            .find(|earlier| earlier.severity == d.severity && within(earlier));
        match cause {
            Some(cause)
                if d.detail
                    .as_deref()
                    .is_none_or(|detail| detail.contains(&cause.summary)) =>
            {
                cause.summary = format!("{}: {}", d.summary, cause.summary);
                cause.code = d.code;
                if cause.help.is_none() {
                    cause.help = d.help;
                }
            }
            _ => out.push(d),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 32: "wrote 1 files".
    #[test]
    fn a_count_agrees_with_its_noun() {
        assert_eq!(count(0, "file", "files"), "0 files");
        assert_eq!(count(1, "file", "files"), "1 file");
        assert_eq!(count(2, "new case", "new cases"), "2 new cases");
    }

    /// Issue 31: the same warning reported along two paths is printed once; the same message
    /// at another place, or another code at the same place, is still printed.
    #[test]
    fn identical_diagnostics_are_kept_once() {
        let mut map = SourceMap::default();
        let file = map.add("main.hcl", "resource a {\n  body = x\n}\n");
        let at = |r: std::ops::Range<usize>| map.get(file).span(r);
        let warning = Diagnostic::new(Code::E402, "resource a is incomplete")
            .with_detail("x is unknown")
            .with_primary(at(22..23), None);
        let elsewhere = warning.clone().with_primary(at(13..17), None);
        let other_code = Diagnostic::new(Code::T301, "resource a is incomplete")
            .with_detail("x is unknown")
            .with_primary(at(22..23), None);
        let pathed = Diagnostic::new(Code::V705, "bad schema").with_path("crd.yaml");
        let mut all = vec![
            warning.clone(),
            elsewhere.clone(),
            warning.clone(),
            other_code.clone(),
            pathed.clone(),
            pathed.clone().with_path("other.yaml"),
            pathed.clone(),
        ];
        dedupe(&mut all);
        assert_eq!(
            all,
            vec![
                warning,
                elsewhere,
                other_code,
                pathed.clone(),
                pathed.with_path("other.yaml")
            ]
        );
    }

    #[test]
    fn a_wrapper_at_its_causes_span_is_folded_into_it() {
        let mut map = SourceMap::default();
        let file = map.add("main.hcl", "context {\n  key = nope\n}\n");
        let at = |r: std::ops::Range<usize>| map.get(file).span(r);
        let cause = Diagnostic::new(Code::T301, "Unknown variable")
            .with_detail("There is no variable named \"nope\".")
            .with_primary(at(18..22), None);
        let wrapper = Diagnostic::new(Code::E401, "unable to evaluate context key")
            .with_detail("main.hcl:2,9-13: Unknown variable; There is no variable named \"nope\".")
            .with_primary(at(18..22), None);
        let elsewhere = Diagnostic::new(Code::E401, "unable to evaluate context key")
            .with_primary(at(12..20), None);
        let folded = fold_wrappers(vec![cause, wrapper, elsewhere.clone()]);
        assert_eq!(folded.len(), 2);
        assert_eq!(
            folded[0].summary,
            "unable to evaluate context key: Unknown variable"
        );
        assert_eq!(folded[0].code, Code::E401);
        assert_eq!(
            folded[0].detail.as_deref(),
            Some("There is no variable named \"nope\".")
        );
        assert_eq!(folded[1], elsewhere);
    }

    #[test]
    fn a_wrapper_over_the_whole_expression_is_folded_into_the_cause_inside_it() {
        let mut map = SourceMap::default();
        let file = map.add("main.hcl", "for_each = req.composite.spec.zones\n");
        let at = |r: std::ops::Range<usize>| map.get(file).span(r);
        let cause =
            Diagnostic::new(Code::T301, "Unsupported attribute").with_primary(at(29..35), None);
        let wrapper = Diagnostic::new(
            Code::E401,
            "unable to evaluate for_each for resource collection cm",
        )
        .with_primary(at(11..35), None);
        let folded = fold_wrappers(vec![cause, wrapper]);
        assert_eq!(folded.len(), 1);
        assert_eq!(
            folded[0].summary,
            "unable to evaluate for_each for resource collection cm: Unsupported attribute"
        );
        assert_eq!(folded[0].primary.as_ref().map(|l| l.span), Some(at(29..35)));
    }

    #[test]
    fn unrelated_diagnostics_at_one_span_are_kept() {
        let mut map = SourceMap::default();
        let file = map.add("main.hcl", "x = a + b\n");
        let span = map.get(file).span(4..9);
        let first = Diagnostic::new(Code::T301, "one").with_primary(span, None);
        let second = Diagnostic::new(Code::T301, "two")
            .with_detail("something else")
            .with_primary(span, None);
        assert_eq!(fold_wrappers(vec![first, second]).len(), 2);
    }
}
