//! `fnhcl fmt`: format files in place (atomically, only when they change), list them
//! (`--check`), show a diff (`--diff`), or filter standard input. The formatting and the
//! writing are the library's (`fnhcl::fmt::files`); this prints and picks the exit code.

use crate::cli::Context;
use crate::cli::args::FmtArgs;
use crate::cli::exit::ExitStatus;
use crate::cli::fsutil;
use fnhcl::fmt::files::{self, Change, Formatted};
use std::io::{self, Write};
use std::path::Path;

/// What happened to the inputs.
#[derive(Default)]
struct Tally {
    changed: usize,
    /// A file did not parse or could not be formatted (exit 1).
    failed: bool,
    /// A file or folder could not be read or written (exit 2, as every I/O error).
    errored: bool,
}

/// Runs the command; `color` says whether diffs on stdout are coloured.
pub fn run(args: &FmtArgs, color: bool, cx: &mut Context) -> io::Result<ExitStatus> {
    let writes = !(args.check || args.diff);
    if writes {
        fsutil::clean_up_on_interrupt();
    }
    let mut tally = Tally::default();
    for arg in &args.paths {
        if arg == "-" {
            stdin_filter(args, cx, &mut tally)?;
            continue;
        }
        let path = Path::new(arg);
        if path.is_dir() {
            let (found, errors) = files::hcl_files(path, args.recursive, writes, &cx.map);
            tally.errored |= !errors.is_empty();
            cx.diagnostics.extend(errors);
            for file in found {
                file_at(&file, args, color, cx, &mut tally)?;
            }
        } else {
            file_at(path, args, color, cx, &mut tally)?;
        }
    }
    Ok(if tally.errored {
        ExitStatus::Error
    } else if tally.failed || (args.check && tally.changed > 0) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

fn stdin_filter(args: &FmtArgs, cx: &mut Context, tally: &mut Tally) -> io::Result<()> {
    let text = match fnhcl::diagnostics::read_stdin(&mut io::stdin()) {
        Ok(text) => text,
        Err(d) => {
            cx.diagnostics.push(*d);
            tally.errored = true;
            return Ok(());
        }
    };
    // The text moves into the map (the diagnostics' source): one copy of it, not two.
    let (out, diagnostics) = files::filter(&mut cx.map, text, args.normalize_literals);
    cx.diagnostics.extend(diagnostics);
    match out {
        Some(out) => {
            let text = cx.map.files().last().map_or("", |file| file.text());
            tally.changed += usize::from(out != text);
            if !args.check {
                cx.stdout.write_all(out.as_bytes())?;
            }
        }
        None => {
            // Nothing on stdout: a pipeline or an editor must not take the unformatted input
            // for the result; the exit status and the diagnostics on stderr say why.
            tally.failed = true;
        }
    }
    Ok(())
}

/// Formats one file (HCL, or a Composition's steps), then reports or writes it.
fn file_at(
    path: &Path,
    args: &FmtArgs,
    color: bool,
    cx: &mut Context,
    tally: &mut Tally,
) -> io::Result<()> {
    let Formatted {
        change,
        failed,
        errored,
        diagnostics,
    } = files::format_path(&mut cx.map, path, args.normalize_literals);
    cx.diagnostics.extend(diagnostics);
    tally.failed |= failed;
    tally.errored |= errored;
    match change {
        Some(change) if change.changed() => apply(path, &change, args, color, cx, tally),
        _ => Ok(()),
    }
}

/// Reports or writes one changed file.
fn apply(
    path: &Path,
    change: &Change,
    args: &FmtArgs,
    color: bool,
    cx: &mut Context,
    tally: &mut Tally,
) -> io::Result<()> {
    tally.changed += 1;
    if args.diff {
        for line in files::unified_diff(change).lines() {
            let painted = crate::cli::report::paint_diff_line(line, color);
            writeln!(cx.stdout, "{painted}")?;
        }
    }
    if args.check {
        writeln!(cx.stdout, "{}", change.name)?;
    }
    if args.check || args.diff {
        return Ok(());
    }
    if let Err(d) = files::save(path, change) {
        cx.diagnostics.push(*d);
        tally.errored = true;
    } else if !cx.quiet {
        writeln!(cx.stdout, "{}", change.name)?;
    }
    Ok(())
}
