//! Printing a comparison of two render streams: `diff`'s output (human, markdown or JSON) and
//! the diff a failed `test` case shows.

use crate::cli::Context;
use crate::cli::args::DiagnosticFormat;
use crate::cli::report;
use fnhcl::diff::{Change, DocumentDiff, Identity, StreamDiff};
use owo_colors::OwoColorize;
use serde_json::{Value as Json, json};
use std::io::{self, Write};

/// How to print a comparison.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// `--format`.
    pub format: DiagnosticFormat,
    /// Colour on stdout.
    pub color: bool,
    /// `--context`.
    pub context: usize,
}

/// Prints a comparison in `style.format` (human for any format but JSON and markdown).
pub fn write(
    diff: &StreamDiff,
    old_name: &str,
    new_name: &str,
    style: Style,
    cx: &mut Context,
) -> io::Result<()> {
    let out = &mut cx.stdout;
    match style.format {
        DiagnosticFormat::Json => {
            let text =
                serde_json::to_string_pretty(&as_json(diff, style.context)).unwrap_or_default();
            writeln!(out, "{text}")
        }
        DiagnosticFormat::Markdown => write_markdown(out, diff, style.context),
        _ => write_human(out, diff, old_name, new_name, style),
    }
}

fn changed(diff: &StreamDiff) -> impl Iterator<Item = &DocumentDiff> {
    diff.documents
        .iter()
        .filter(|d| d.change != Change::Unchanged)
}

/// Prints a comparison for people: each changed document's header and unified diff (coloured
/// with `style.color`), then the summary line.
pub fn write_human(
    out: &mut impl Write,
    diff: &StreamDiff,
    old_name: &str,
    new_name: &str,
    style: Style,
) -> io::Result<()> {
    for doc in changed(diff) {
        let word = format!("{:<8}", doc.change.word());
        let header = format!("{word} {}", doc.identity.title());
        let header = if !style.color {
            header
        } else {
            match doc.change {
                Change::Added => header.green().bold().to_string(),
                Change::Removed => header.red().bold().to_string(),
                _ => header.yellow().bold().to_string(),
            }
        };
        writeln!(out, "{header}")?;
        for line in doc.unified(style.context, old_name, new_name).lines() {
            writeln!(out, "{}", report::paint_diff_line(line, style.color))?;
        }
        writeln!(out)?;
    }
    writeln!(out, "{}", diff.summary().line())
}

fn write_markdown(out: &mut impl Write, diff: &StreamDiff, context: usize) -> io::Result<()> {
    let summary = diff.summary();
    if !summary.differs() {
        return writeln!(out, "**No differences** ({})", summary.line());
    }
    for doc in changed(diff) {
        writeln!(
            out,
            "### {}: `{}`\n",
            doc.change.word(),
            doc.identity.title().replace('`', "'")
        )?;
        // The unified diff without its file headers: the heading names the document.
        let body: String = doc
            .unified(context, "old", "new")
            .lines()
            .filter(|l| !l.starts_with("--- ") && !l.starts_with("+++ "))
            .map(|l| format!("{l}\n"))
            .collect();
        let fence = "`".repeat(longest_backtick_run(&body).max(2) + 1);
        writeln!(out, "{fence}diff\n{body}{fence}\n")?;
    }
    writeln!(out, "**{}**", summary.line())
}

fn longest_backtick_run(text: &str) -> usize {
    let (mut longest, mut run) = (0, 0);
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

fn as_json(diff: &StreamDiff, context: usize) -> Json {
    let summary = diff.summary();
    let documents: Vec<Json> = diff
        .documents
        .iter()
        .map(|doc| {
            let mut entry = json!({
                "change": doc.change.word(),
                "title": doc.identity.title(),
                "identity": identity_json(&doc.identity),
            });
            if doc.change != Change::Unchanged {
                entry["diff"] = Json::String(doc.unified(context, "old", "new"));
            }
            entry
        })
        .collect();
    json!({
        "documents": documents,
        "summary": {
            "changed": summary.changed,
            "added": summary.added,
            "removed": summary.removed,
            "unchanged": summary.unchanged,
            "differs": summary.differs(),
        },
    })
}

fn identity_json(identity: &Identity) -> Json {
    match identity {
        Identity::Composite {
            api_version,
            kind,
            name,
        } => json!({"type": "composite", "apiVersion": api_version, "kind": kind, "name": name}),
        Identity::Composed {
            api_version,
            kind,
            name,
            by_resource_name,
        } => {
            let key = if *by_resource_name {
                "compositionResourceName"
            } else {
                "name"
            };
            json!({"type": "composed", "apiVersion": api_version, "kind": kind, key: name})
        }
        Identity::Result { number, step } => {
            json!({"type": "result", "number": number, "step": step})
        }
        Identity::Context => json!({"type": "context"}),
    }
}
