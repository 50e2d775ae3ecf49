//! `fnhcl convert`: patch-and-transform steps as function-hcl, and `--verify`. The conversion
//! and the comparison are the library's (`fnhcl::convert`); this prints and picks the exit
//! code.

use crate::cli::Context;
use crate::cli::args::ConvertArgs;
use crate::cli::exit::ExitStatus;
use crate::cli::inputs::{grpc_remote, stderr_log};
use fnhcl::convert::{self, verify};
use fnhcl::diagnostics::{Code, Diagnostic, count};
use fnhcl::diff::Change;
use fnhcl::render::inputs::Io;
use fnhcl::source::loader;
use std::io::Write;
use std::path::PathBuf;

/// Runs the command.
pub fn run(args: &ConvertArgs, cx: &mut Context) -> std::io::Result<ExitStatus> {
    let display = args.composition.display().to_string();
    let text = match loader::read_text(&args.composition) {
        Ok(text) => text,
        Err(e) => {
            return Ok(cx.fail(
                Diagnostic::new(Code::I001, format!("cannot read `{display}`: {e}"))
                    .with_path(display),
            ));
        }
    };
    let converted = match convert::convert(&display, &text) {
        Ok(converted) => converted,
        Err(d) => return Ok(cx.fail(*d)),
    };
    cx.diagnostics.extend(converted.diagnostics(&display));
    let todos: usize = converted.steps.iter().map(|s| s.todos.len()).sum();
    // `--verify` needs the files on disk; without `-o` they go to a temporary folder.
    let temporary = match (&args.out, &args.verify) {
        (None, Some(_)) => Some(tempfile::tempdir()?),
        _ => None,
    };
    let out: Option<PathBuf> = args
        .out
        .clone()
        .or_else(|| temporary.as_ref().map(|t| t.path().to_path_buf()));
    let Some(dir) = out else {
        cx.stdout.write_all(converted.composition.as_bytes())?;
        cx.note(&format!(
            "converted {} ({} left as TODO)",
            count(converted.steps.len(), "step", "steps"),
            todos
        ))?;
        return Ok(ExitStatus::Success);
    };
    let written = match convert::write(&converted, &dir) {
        Ok(written) => written,
        Err(d) => return Ok(cx.fail(*d)),
    };
    if args.out.is_some() {
        cx.note(&format!(
            "wrote {} into {} ({} left as TODO)",
            count(written.len(), "file", "files"),
            dir.display(),
            todos
        ))?;
    }
    let Some(xr) = &args.verify else {
        return Ok(ExitStatus::Success);
    };
    let given = verify::Inputs {
        xr: xr.clone(),
        functions: args.functions.clone(),
        observed_resources: args.observed_resources.clone(),
        required_resources: args.required_resources.clone(),
        context_files: args.context_files.clone(),
        context_values: args.context_values.clone(),
        context_data: Vec::new(),
        crossplane_version: args.crossplane_version.clone(),
    };
    let mut stdin = std::io::stdin();
    let mut log = stderr_log(cx.quiet);
    let mut io = Io {
        stdin: &mut stdin,
        remote: &grpc_remote,
        log: &mut log,
        quiet: true,
        show_discarded: false,
    };
    let verified = match verify::verify(
        &args.composition,
        &dir.join("composition.yaml"),
        &given,
        &mut cx.map,
        &mut io,
        &mut cx.diagnostics,
    ) {
        Ok(v) => v,
        Err(which) => {
            let which = match which {
                verify::Failed::Original => "the original",
                verify::Failed::Converted => "the converted",
            };
            cx.diagnostics.push(Diagnostic::new(
                Code::M803,
                format!("the render of {which} composition failed"),
            ));
            return Ok(ExitStatus::Failure);
        }
    };
    if verified.equal() {
        cx.note(&format!(
            "verified: the converted composition renders the same ({})",
            count(verified.converted.len(), "document", "documents")
        ))?;
        return Ok(ExitStatus::Success);
    }
    for d in &verified.diff.documents {
        if d.change != Change::Unchanged {
            writeln!(cx.stdout, "# {} ({})", d.identity.title(), d.change.word())?;
            cx.stdout
                .write_all(d.unified(3, "original", "converted").as_bytes())?;
        }
    }
    cx.diagnostics.push(
        Diagnostic::new(
            Code::M803,
            format!(
                "the converted composition renders differently: {}",
                verified.diff.summary().line()
            ),
        )
        .with_help("the differences are printed above; a TODO of the conversion may explain them"),
    );
    Ok(ExitStatus::Failure)
}
