//! `fnhcl diff`: two render streams compared document by document, or a render before and
//! after a change (`--rev`).

use super::render;
use crate::cli::Context;
use crate::cli::args::{DiagnosticFormat, DiffArgs};
use crate::cli::exit::ExitStatus;
use crate::cli::inputs::{load_error, usage};
use crate::cli::report;
use fnhcl::diagnostics::{Code, Diagnostic};
use fnhcl::diff::{Change, DocumentDiff, Identity, IgnorePath, StreamDiff, diff_streams};
use fnhcl::source::loader::{self, LoadError};
use owo_colors::OwoColorize;
use serde_json::{Value as Json, json};
use std::io::{self, Read, Write};
use std::path::Path;

mod rev;

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

/// Runs the command.
pub fn run(args: &DiffArgs, style: Style, cx: &mut Context) -> io::Result<ExitStatus> {
    if matches!(
        style.format,
        DiagnosticFormat::Github | DiagnosticFormat::Sarif
    ) {
        return Ok(cx.fail(*usage(
            "diff prints `--format human`, `json` or `markdown`".into(),
            "choose one of those three",
        )));
    }
    let mut ignore = Vec::new();
    for text in &args.ignore_paths {
        match IgnorePath::parse(text) {
            Ok(path) => ignore.push(path),
            Err(e) => {
                return Ok(cx.fail(*usage(
                    e.to_string(),
                    "write names separated by dots, keys in brackets: metadata.annotations[example.org/key]",
                )));
            }
        }
    }
    let streams = match &args.rev {
        Some(rev) => {
            let render_args = match render::parse_args(&args.render_args) {
                Ok(parsed) => parsed,
                Err(d) => return Ok(cx.fail(*d)),
            };
            rev::streams(rev, render_args, cx)?
        }
        None => {
            let (old, new) = (
                args.old.as_deref().unwrap_or("-"),
                args.new.as_deref().unwrap_or("-"),
            );
            if old == "-" && new == "-" {
                return Ok(cx.fail(*usage(
                    "OLD and NEW cannot both be standard input".into(),
                    "give one of them as a file",
                )));
            }
            match (read_stream(old, cx), read_stream(new, cx)) {
                (Ok(a), Ok(b)) => Ok(Streams {
                    old: a,
                    new: b,
                    old_name: display_name(old),
                    new_name: display_name(new),
                }),
                (Err(d), _) | (_, Err(d)) => Err(d),
            }
        }
    };
    let streams = match streams {
        Ok(streams) => streams,
        Err(failure) => {
            // An input that cannot be read (or rendered) is exit 1, as crossplane-diff has it.
            if let Some(d) = failure {
                cx.diagnostics.push(*d);
            }
            return Ok(ExitStatus::Failure);
        }
    };
    let diff = diff_streams(&streams.old, &streams.new, &ignore);
    write(&diff, &streams.old_name, &streams.new_name, style, cx)?;
    Ok(if diff.summary().differs() {
        ExitStatus::Differences
    } else {
        ExitStatus::Success
    })
}

/// The two streams to compare and what to call them in diff headers.
pub(crate) struct Streams {
    old: Vec<Json>,
    new: Vec<Json>,
    old_name: String,
    new_name: String,
}

/// A failure to produce a stream: the diagnostic to print, if it was not printed already.
type Failure = Option<Box<Diagnostic>>;

fn display_name(arg: &str) -> String {
    if arg == "-" {
        "(stdin)".to_string()
    } else {
        arg.to_string()
    }
}

/// The documents of a YAML file (or a directory of them), or of standard input for `-`.
fn read_stream(arg: &str, cx: &mut Context) -> Result<Vec<Json>, Failure> {
    let docs = if arg == "-" {
        let mut text = String::new();
        if let Err(e) = io::stdin().read_to_string(&mut text) {
            return Err(Some(Box::new(Diagnostic::new(
                Code::I001,
                format!("cannot read standard input: {e}"),
            ))));
        }
        let parsed = fnhcl::source::yaml::read_stream(&text);
        let file = cx.map.add("(stdin)", text);
        parsed
            .map_err(|error| Some(load_error(LoadError::Yaml { file, error }, cx)))?
            .into_iter()
            .map(|d| d.value)
            .collect::<Vec<_>>()
    } else {
        loader::load_yaml_stream(&mut cx.map, Path::new(arg))
            .map_err(|e| Some(load_error(e, cx)))?
            .into_iter()
            .map(|d| d.document.value)
            .collect()
    };
    Ok(docs
        .iter()
        .map(|v| serde_json::to_value(v).unwrap_or(Json::Null))
        .collect())
}

fn write(
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

pub(crate) fn write_human(
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

/// Renders and returns the documents `render` would print (its diagnostics already
/// recorded on failure).
fn render_documents(
    args: &crate::cli::args::RenderArgs,
    cx: &mut Context,
) -> Result<Vec<Json>, Failure> {
    render::documents(args, cx).map_err(|_| None)
}
