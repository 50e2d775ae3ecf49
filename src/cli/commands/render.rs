//! `fnhcl render`: render the request the flags describe and print the stream.

use crate::cli::Context;
use crate::cli::args::{DiagnosticFormat, RenderArgs};
use crate::cli::exit::ExitStatus;
use crate::cli::inputs::{grpc_remote, stderr_log};
use fnhcl::render::inputs::discarded::{
    Discarded, composed_count, discarded_notes, headline, help, nothing_composed, place,
};
use fnhcl::render::inputs::{self, Documents, Io, Request, Stopped};
use fnhcl::source::SourceMap;
use std::io::{self, Write};

/// Runs the command.
pub fn run(
    args: &RenderArgs,
    format: DiagnosticFormat,
    cx: &mut Context,
) -> io::Result<ExitStatus> {
    if !cx.quiet {
        cx.diagnostics
            .extend(inputs::container_flags(&args.container_flags()));
    }
    let mut stdin = io::stdin();
    let mut log = stderr_log(cx.quiet);
    let mut io = Io {
        stdin: &mut stdin,
        remote: &grpc_remote,
        log: &mut log,
        quiet: cx.quiet,
        show_discarded: args.show_discarded,
    };
    let request = Request::from(args);
    let rendered = inputs::documents(&mut cx.map, &request, None, &mut io, &mut cx.diagnostics);
    let Documents {
        documents,
        valid,
        discarded,
        ..
    } = match rendered {
        Ok(rendered) => rendered,
        Err(Stopped::Input) => return Ok(ExitStatus::Error),
        Err(Stopped::Render { fatal }) => {
            return Ok(if fatal && args.detailed_exit_code {
                ExitStatus::Fatal
            } else {
                ExitStatus::Failure
            });
        }
    };
    for doc in &documents {
        write!(cx.stdout, "---\n{}", fnhcl::source::yaml_emit::to_yaml(doc))?;
    }
    if args.show_discarded {
        let composed = composed_count(&documents);
        match format {
            // Asked for, so printed even where crossplane's format prints only errors.
            DiagnosticFormat::Human | DiagnosticFormat::Markdown | DiagnosticFormat::Crossplane => {
                // After the documents: stdout first, when both are one terminal.
                cx.stdout.flush()?;
                let text = summary(&cx.map, &discarded, composed);
                io::stderr().lock().write_all(text.as_bytes())?;
            }
            DiagnosticFormat::Json | DiagnosticFormat::Github | DiagnosticFormat::Sarif => {
                let notes = discarded_notes(&cx.map, &discarded, composed);
                cx.diagnostics.extend(notes);
            }
        }
    }
    Ok(if valid {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

/// `--show-discarded` for people: per step, each discarded block with its members, where it
/// is, what was not known and where, and the inputs that would make it known.
fn summary(map: &SourceMap, entries: &[Discarded], composed: usize) -> String {
    if entries.is_empty() {
        return "discarded: no block was discarded\n".into();
    }
    let mut out = String::new();
    let mut step = None;
    for entry in entries {
        if step != Some(&entry.step) {
            out.push_str(&format!("discarded in step {:?}:\n", entry.step));
            step = Some(&entry.step);
        }
        out.push_str(&format!("  {}\n", headline(entry)));
        if !entry.members.is_empty() {
            let more = entry.count.saturating_sub(entry.members.len());
            let tail = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            out.push_str(&format!(
                "    members    {}{tail}\n",
                entry.members.join(", ")
            ));
        }
        if entry.owners.len() > 1 {
            out.push_str(&format!("    of         {}\n", entry.owners.join(", ")));
        }
        if let Some(span) = entry.span {
            out.push_str(&format!("    block      {}\n", place(map, span)));
        }
        let label = if entry.reason == "user-condition" {
            "condition "
        } else {
            "unknown   "
        };
        for u in &entry.unknown {
            let error = u
                .error
                .as_ref()
                .map(|e| format!(": {e}"))
                .unwrap_or_default();
            out.push_str(&format!(
                "    {label} {}  {}{error}\n",
                place(map, u.span),
                u.text
            ));
        }
        let mut reads: Vec<String> = Vec::new();
        for input in entry.unknown.iter().flat_map(|u| &u.inputs) {
            // A request value read right where it is unknown: the help line says it.
            if entry.unknown.iter().any(|u| u.span == input.span) {
                continue;
            }
            let line = format!(
                "    reads      {}  {}: {}\n",
                place(map, input.span),
                input.path,
                input.kind.describe()
            );
            if !reads.contains(&line) {
                reads.push(line);
            }
        }
        reads.iter().for_each(|line| out.push_str(line));
        if let Some(help) = help(entry) {
            out.push_str(&format!("    help       {help}\n"));
        }
    }
    if let Some(line) = nothing_composed(entries, composed) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// What `--watch` watches: the XR, the composition and every input file or folder named.
pub fn watch_paths(args: &RenderArgs) -> Vec<std::path::PathBuf> {
    use std::path::PathBuf;
    let mut paths = vec![args.xr.clone()];
    if args.source != "-" {
        paths.push(PathBuf::from(&args.source));
    }
    paths.extend(args.functions.iter().cloned());
    paths.extend(args.observed_resources.iter().cloned());
    paths.extend(args.required_resources.iter().cloned());
    paths.extend(args.function_credentials.iter().cloned());
    paths.extend(args.xrd.iter().cloned());
    paths.extend(args.hcl.iter().cloned());
    for entry in &args.context_files {
        for item in entry.split(';') {
            if let Some((_, file)) = item.split_once('=') {
                paths.push(PathBuf::from(file));
            }
        }
    }
    paths
}
