//! `fnhcl render`: render the request the flags describe and print the stream.

use crate::cli::Context;
use crate::cli::args::{DiagnosticFormat, RenderArgs};
use crate::cli::exit::ExitStatus;
use crate::cli::inputs::{grpc_remote, stderr_log};
use fnhcl::render::inputs::discarded::{composed_count, discarded_notes, summary};
use fnhcl::render::inputs::{self, Documents, Io, Request, Stopped};
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
    paths.extend(args.required_schemas.iter().cloned());
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
