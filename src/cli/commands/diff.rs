//! `fnhcl diff`: two render streams compared document by document, or a render before and
//! after a change (`--rev`).

use crate::cli::Context;
use crate::cli::args::{DiagnosticFormat, DiffArgs};
use crate::cli::compare::{self, Style};
use crate::cli::exit::ExitStatus;
use crate::cli::inputs::{grpc_remote, parse_render_args, stderr_log, usage};
use fnhcl::diff::streams::{Streams, display_name, read_stream};
use fnhcl::diff::{IgnorePath, diff_streams, rev};
use fnhcl::render::inputs::Io;
use std::io;

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
    let mut stdin = io::stdin();
    let streams = match &args.rev {
        Some(revision) => {
            let request = match parse_render_args(&args.render_args) {
                Ok(parsed) => parsed,
                Err(d) => return Ok(cx.fail(*d)),
            };
            let mut log = stderr_log(cx.quiet);
            let mut io = Io {
                stdin: &mut stdin,
                remote: &grpc_remote,
                log: &mut log,
                quiet: cx.quiet,
                show_discarded: false,
            };
            rev::streams(revision, request, &mut cx.map, &mut io, &mut cx.diagnostics)
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
            match (
                read_stream(old, &mut cx.map, &mut stdin),
                read_stream(new, &mut cx.map, &mut stdin),
            ) {
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
    compare::write(&diff, &streams.old_name, &streams.new_name, style, cx)?;
    Ok(if diff.summary().differs() {
        ExitStatus::Differences
    } else {
        ExitStatus::Success
    })
}
