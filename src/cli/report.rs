//! Printing diagnostics: miette's graphical report for people, or a machine format.

use super::args::DiagnosticFormat;
use fnhcl::diagnostics::{self, Diagnostic, Severity};
use fnhcl::source::{FileId, SourceMap};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan};
use std::fmt;
use std::io::{self, Write};

/// How to print diagnostics.
#[derive(Debug, Clone, Copy)]
pub struct ReportStyle {
    /// The format.
    pub format: DiagnosticFormat,
    /// Colour the human format.
    pub color: bool,
    /// Width of the human format.
    pub width: usize,
}

/// Writes `diagnostics` (sorted, each distinct one once) to `out` in the chosen format. In a
/// machine format an empty list is still written when `always` is set (a `check` with no
/// findings).
pub fn write(
    out: &mut dyn Write,
    diagnostics: &mut Vec<Diagnostic>,
    map: &SourceMap,
    style: ReportStyle,
    always: bool,
) -> io::Result<()> {
    diagnostics::dedupe(diagnostics);
    diagnostics::sort(diagnostics, map);
    if diagnostics.is_empty() && !always {
        return Ok(());
    }
    match style.format {
        DiagnosticFormat::Human | DiagnosticFormat::Markdown => {
            // A blank line between reports, as compilers separate theirs.
            for (i, d) in diagnostics.iter().enumerate() {
                if i > 0 {
                    out.write_all(b"\n")?;
                }
                out.write_all(human(d, map, style).as_bytes())?;
            }
            Ok(())
        }
        DiagnosticFormat::Json => {
            writeln!(out, "{}", diagnostics::json(diagnostics, map))
        }
        DiagnosticFormat::Github => out.write_all(diagnostics::github(diagnostics, map).as_bytes()),
        DiagnosticFormat::Crossplane => {
            out.write_all(diagnostics::crossplane(diagnostics).as_bytes())
        }
        DiagnosticFormat::Sarif => {
            let value = diagnostics::sarif(diagnostics, map, env!("CARGO_PKG_VERSION"));
            writeln!(out, "{}", pretty(&value))
        }
    }
}

fn pretty(value: &serde_json::Value) -> String {
    // Serialising a `Value` cannot fail: every key is a string.
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// miette's graphical rendering of one diagnostic.
pub fn human(diagnostic: &Diagnostic, map: &SourceMap, style: ReportStyle) -> String {
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false);
    let view = View::new(diagnostic, map);
    let mut out = String::new();
    if handler.render_report(&mut out, &view).is_err() {
        out = format!("{}: {}\n", code_and_name(diagnostic), diagnostic.message());
    }
    out
}

/// A diagnostic prepared for miette: labels grouped by file, other files as related reports.
#[derive(Debug)]
struct View {
    severity: Severity,
    message: String,
    help: Option<String>,
    source: Option<Window>,
    labels: Vec<LabeledSpan>,
    related: Vec<View>,
}

impl View {
    fn new(d: &Diagnostic, map: &SourceMap) -> View {
        // The header line names the rule, as compilers and linters do:
        // `× R203 undefined-variable: reference to non-existent variable`.
        let mut message = format!("{}: {}", code_and_name(d), d.summary);
        if let Some(detail) = &d.detail {
            message.push('\n');
            message.push_str(detail);
        }
        if d.primary.is_none()
            && let Some(path) = &d.path
            && !d.summary.contains(path.as_str())
        {
            message.push_str(&format!("\n(in {path})"));
        }
        let mut view = View {
            severity: d.severity,
            message,
            help: d.help.clone(),
            source: None,
            labels: Vec::new(),
            related: Vec::new(),
        };
        let Some(primary) = &d.primary else {
            return view;
        };
        let main_file = primary.span.file;
        if touches_long_line(map, primary.span) {
            let source = map.get(main_file);
            let (start, _) = source.span_positions(primary.span);
            view.message.push_str(&format!(
                "\n(at {}:{}:{}; the line is too long to show)",
                source.display_name(),
                start.line,
                start.column
            ));
            return view;
        }
        let same_file: Vec<fnhcl::source::Span> = std::iter::once(primary.span)
            .chain(d.labels.iter().map(|l| l.span))
            .filter(|s| s.file == main_file)
            .collect();
        view.source = Some(Window::around(map, main_file, &same_file));
        view.labels.push(labeled(primary, true));
        for label in &d.labels {
            if label.span.file == main_file {
                view.labels.push(labeled(label, false));
            } else {
                view.related.push(View {
                    severity: Severity::Info,
                    message: label.message.clone().unwrap_or_default(),
                    help: None,
                    source: Some(Window::around(map, label.span.file, &[label.span])),
                    labels: vec![labeled(label, false)],
                    related: Vec::new(),
                });
            }
        }
        view
    }
}

/// Lines longer than this are not drawn: a minified file would fill the terminal.
const MAX_SHOWN_LINE: usize = 500;

fn touches_long_line(map: &SourceMap, span: fnhcl::source::Span) -> bool {
    let bytes = map.get(span.file).text().as_bytes();
    let range = span.range();
    let (from, to) = (range.start.min(bytes.len()), range.end.min(bytes.len()));
    let start = bytes[..from]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let end = bytes[to..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| to + i);
    bytes[start..end]
        .split(|&b| b == b'\n')
        .any(|line| line.len() > MAX_SHOWN_LINE)
}

/// The part of a file a report draws: whole lines around the labelled spans (miette shows one
/// line of context). Copying only these keeps a report of many findings in a big file linear.
#[derive(Debug)]
struct Window {
    name: String,
    text: String,
    /// Where `text` starts in the file, in bytes.
    offset: usize,
    /// The 0-based line of the file `text` starts at.
    first_line: usize,
}

impl Window {
    /// Lines of context kept on each side of the spans.
    const MARGIN: usize = 3;

    fn around(map: &SourceMap, file: FileId, spans: &[fnhcl::source::Span]) -> Window {
        let source = map.get(file);
        let text = source.text();
        let lo = spans
            .iter()
            .map(|s| s.range().start)
            .min()
            .unwrap_or(0)
            .min(text.len());
        let hi = spans
            .iter()
            .map(|s| s.range().end)
            .max()
            .unwrap_or(0)
            .min(text.len());
        let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
        let mut start = line_start(lo);
        for _ in 0..Self::MARGIN {
            if start == 0 {
                break;
            }
            start = line_start(start - 1);
        }
        let first_line = source.line_col(start).line.saturating_sub(1);
        let mut end = hi;
        for _ in 0..=Self::MARGIN {
            match text[end..].find('\n') {
                Some(i) => end = end + i + 1,
                None => {
                    end = text.len();
                    break;
                }
            }
        }
        Window {
            name: source.display_name().to_string(),
            text: text[start..end].to_string(),
            offset: start,
            first_line,
        }
    }
}

impl miette::SourceCode for Window {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let local =
            miette::SourceSpan::new(span.offset().saturating_sub(self.offset).into(), span.len());
        let inner = self.text.read_span(&local, before, after)?;
        let outer = miette::SourceSpan::new(
            (inner.span().offset() + self.offset).into(),
            inner.span().len(),
        );
        Ok(Box::new(
            miette::MietteSpanContents::new_named(
                self.name.clone(),
                inner.data(),
                outer,
                inner.line() + self.first_line,
                inner.column(),
                // miette's `line_count` is the line the context ends on, counted from the start.
                inner.line_count() + self.first_line,
            )
            .with_language("hcl"),
        ))
    }
}

fn labeled(label: &diagnostics::Label, primary: bool) -> LabeledSpan {
    let range = label.span.range();
    let span: miette::SourceSpan = (range.start, range.end.saturating_sub(range.start)).into();
    if primary {
        LabeledSpan::new_primary_with_span(label.message.clone(), span)
    } else {
        LabeledSpan::new_with_span(label.message.clone(), span)
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for View {}

impl miette::Diagnostic for View {
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            return None;
        }
        Some(Box::new(self.labels.iter().cloned()))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|r| r as &dyn miette::Diagnostic),
        ))
    }
}

/// How a report names a diagnostic's rule: its code and kebab name.
fn code_and_name(d: &Diagnostic) -> String {
    format!("{} {}", d.code.as_str(), d.code.info().name)
}

/// One line of a unified diff, coloured when `color`: file headers bold, additions green,
/// removals red, hunk headers cyan (`fmt --diff`, `diff`, `test`).
pub fn paint_diff_line(line: &str, color: bool) -> String {
    use owo_colors::OwoColorize;
    if !color {
        line.to_string()
    } else if line.starts_with("+++") || line.starts_with("---") {
        line.bold().to_string()
    } else if line.starts_with('+') {
        line.green().to_string()
    } else if line.starts_with('-') {
        line.red().to_string()
    } else if line.starts_with("@@") {
        line.cyan().to_string()
    } else {
        line.to_string()
    }
}
