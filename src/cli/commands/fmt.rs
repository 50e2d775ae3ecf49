//! `fnhcl fmt`: format files in place (atomically, only when they change), list them
//! (`--check`), show a diff (`--diff`), or filter standard input.

use crate::cli::Context;
use crate::cli::args::FmtArgs;
use crate::cli::exit::ExitStatus;
use crate::cli::fsutil;
use crate::cli::inputs::{composition_error, load_error};
use fnhcl::diagnostics::{Code, Diagnostic};
use fnhcl::fmt::{FormatError, format_file};
use fnhcl::source::composition::{Composition, write_step_hcl};
use fnhcl::source::loader::LoadError;
use fnhcl::source::{loader, txtar};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

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
    if !(args.check || args.diff) {
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
            for file in hcl_files(
                path,
                args.recursive,
                !(args.check || args.diff),
                cx,
                &mut tally,
            ) {
                hcl_file(&file, args, color, cx, &mut tally)?;
            }
        } else if loader::is_yaml(path) {
            composition(path, args, color, cx, &mut tally)?;
        } else {
            hcl_file(path, args, color, cx, &mut tally)?;
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

/// Version-control folders: never walked (`fn-hcl-tools fmt` walks every folder, these too,
/// but nobody keeps compositions inside `.git`).
const VCS_FOLDERS: &[&str] = &[".git", ".hg", ".svn", ".jj", ".bzr"];

/// The `.hcl` files below `dir`, sorted. Hidden folders are walked, as `fn-hcl-tools fmt`
/// walks them; version-control folders are skipped. A folder that cannot be read is an error
/// (a diagnostic), not a silent gap.
///
/// When `clean` (fmt is going to write), temporary files a killed fnhcl left in the folders
/// walked are removed.
fn hcl_files(
    dir: &Path,
    recursive: bool,
    clean: bool,
    cx: &mut Context,
    tally: &mut Tally,
) -> Vec<PathBuf> {
    let depth = if recursive { usize::MAX } else { 1 };
    let mut files = Vec::new();
    let walk = walkdir::WalkDir::new(dir)
        .max_depth(depth)
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0
                || !(e.file_type().is_dir() && VCS_FOLDERS.iter().any(|vcs| e.file_name() == *vcs))
        });
    for entry in walk {
        match entry {
            Ok(e) => {
                if clean && e.file_type().is_dir() {
                    fnhcl::source::write::remove_stale_temps(e.path());
                }
                if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "hcl") {
                    files.push(e.into_path());
                }
            }
            Err(e) => {
                let path = e.path().unwrap_or(dir).display().to_string();
                let source = e
                    .into_io_error()
                    .unwrap_or_else(|| io::Error::other("a symbolic link loop"));
                let d = load_error(
                    LoadError::Io {
                        action: "read directory",
                        path,
                        source,
                    },
                    cx,
                );
                cx.diagnostics.push(*d);
                tally.errored = true;
            }
        }
    }
    files.sort();
    files
}

/// Formats `text` read from `name`; `None` (and diagnostics) when it cannot be formatted.
fn formatted(name: &str, text: String, args: &FmtArgs, cx: &mut Context) -> Option<String> {
    let id = cx.map.add(name.to_string(), text);
    match format_file(cx.map.get(id), args.normalize_literals) {
        Ok(out) => Some(out),
        Err(FormatError::Syntax(diags)) => {
            cx.diagnostics.extend(diags);
            None
        }
        Err(FormatError::Unsafe) => {
            cx.diagnostics.push(
                Diagnostic::new(
                    Code::E401,
                    format!(
                        "`{name}` was not formatted: the result would change more than whitespace"
                    ),
                )
                .with_path(name.to_string())
                .with_help("please report this file: formatting must only move spaces"),
            );
            None
        }
    }
}

fn stdin_filter(args: &FmtArgs, cx: &mut Context, tally: &mut Tally) -> io::Result<()> {
    let mut text = String::new();
    if let Err(e) = io::stdin().read_to_string(&mut text) {
        cx.diagnostics.push(Diagnostic::new(
            Code::I001,
            format!("cannot read standard input: {e}"),
        ));
        tally.errored = true;
        return Ok(());
    }
    if !args.normalize_literals {
        return plain_filter(&text, args, cx, tally);
    }
    match formatted("-", text.clone(), args, cx) {
        Some(out) => {
            tally.changed += usize::from(out != text);
            if !args.check {
                cx.stdout.write_all(out.as_bytes())?;
            }
        }
        None => {
            // A filter must not swallow its input: it comes back unchanged.
            tally.failed = true;
            cx.stdout.write_all(text.as_bytes())?;
        }
    }
    Ok(())
}

/// `--normalize-literals=false -`: exactly Go's `hclwrite.Format`, which works on tokens and
/// so also formats text that does not parse (its syntax errors are shown as warnings).
fn plain_filter(text: &str, args: &FmtArgs, cx: &mut Context, tally: &mut Tally) -> io::Result<()> {
    let id = cx.map.add("-", text.to_string());
    let parsed = fnhcl::syntax::parse_file(cx.map.get(id));
    cx.diagnostics.extend(
        parsed
            .diagnostics
            .into_iter()
            .map(|d| d.with_severity(fnhcl::diagnostics::Severity::Warning)),
    );
    let out = fnhcl::fmt::format(text);
    if !fnhcl::fmt::same_tokens(text, &out) {
        tally.failed = true;
        cx.stdout.write_all(text.as_bytes())?;
        return Ok(());
    }
    tally.changed += usize::from(out != text);
    if !args.check {
        cx.stdout.write_all(out.as_bytes())?;
    }
    Ok(())
}

/// A file's text; `None` (and a diagnostic) when it cannot be read.
fn read(path: &Path, cx: &mut Context, tally: &mut Tally) -> Option<String> {
    match loader::read_text(path) {
        Ok(text) => Some(text),
        Err(e) => {
            let d = load_error(e, cx);
            cx.diagnostics.push(*d);
            tally.errored = true;
            None
        }
    }
}

fn hcl_file(
    path: &Path,
    args: &FmtArgs,
    color: bool,
    cx: &mut Context,
    tally: &mut Tally,
) -> io::Result<()> {
    let name = loader::display_path(path);
    let Some(text) = read(path, cx, tally) else {
        return Ok(());
    };
    let Some(out) = formatted(&name, text.clone(), args, cx) else {
        tally.failed = true;
        return Ok(());
    };
    apply(path, &name, &text, &out, args, color, cx, tally)
}

/// Reports or writes one changed file.
#[allow(clippy::too_many_arguments)]
fn apply(
    path: &Path,
    name: &str,
    before: &str,
    after: &str,
    args: &FmtArgs,
    color: bool,
    cx: &mut Context,
    tally: &mut Tally,
) -> io::Result<()> {
    if before == after {
        return Ok(());
    }
    tally.changed += 1;
    if args.diff {
        write_diff(cx, name, before, after, color)?;
    }
    if args.check {
        writeln!(cx.stdout, "{name}")?;
    }
    if args.check || args.diff {
        return Ok(());
    }
    if let Err(e) = fnhcl::source::write::replace_file(path, before.as_bytes(), after.as_bytes()) {
        cx.diagnostics.push(
            Diagnostic::new(Code::I001, format!("cannot write `{name}`: {e}"))
                .with_path(name.to_string())
                .with_help(e.help()),
        );
        tally.errored = true;
    } else if !cx.quiet {
        writeln!(cx.stdout, "{name}")?;
    }
    Ok(())
}

fn write_diff(
    cx: &mut Context,
    name: &str,
    before: &str,
    after: &str,
    color: bool,
) -> io::Result<()> {
    let diff = similar::TextDiff::from_lines(before, after);
    let text = diff
        .unified_diff()
        .context_radius(3)
        .header(name, &format!("{name} (formatted)"))
        .to_string();
    for line in text.lines() {
        writeln!(
            cx.stdout,
            "{}",
            crate::cli::report::paint_diff_line(line, color)
        )?;
    }
    Ok(())
}

/// Formats the files inside every function-hcl step of a Composition, editing only the
/// `hcl` values.
fn composition(
    path: &Path,
    args: &FmtArgs,
    color: bool,
    cx: &mut Context,
    tally: &mut Tally,
) -> io::Result<()> {
    let name = loader::display_path(path);
    let Some(text) = read(path, cx, tally) else {
        return Ok(());
    };
    let steps: Vec<String> = match Composition::parse(&text) {
        Ok(c) => {
            // A step meant for function-hcl whose input it cannot read is reported, not
            // silently skipped.
            for error in c
                .steps
                .iter()
                .filter(|s| s.intends_hcl)
                .filter_map(|s| s.invalid_input())
            {
                let d = composition_error(&name, &text, error, cx);
                cx.diagnostics.push(*d);
                tally.failed = true;
            }
            c.steps
                .iter()
                .filter(|s| s.is_hcl)
                .map(|s| s.name.clone())
                .collect()
        }
        Err(e) => {
            let d = composition_error(&name, &text, e, cx);
            cx.diagnostics.push(*d);
            tally.failed = true;
            return Ok(());
        }
    };
    let mut current = text.clone();
    for step in steps {
        let Some(bundle) = step_bundle(&current, &step) else {
            continue;
        };
        let archive = txtar::parse(&bundle);
        let mut files = Vec::new();
        let mut ok = true;
        for f in &archive.files {
            match formatted(
                &format!("{name}#{step}/{}", f.name),
                f.data.clone(),
                args,
                cx,
            ) {
                Some(out) => files.push((f.name.clone(), out)),
                None => ok = false,
            }
        }
        if !ok {
            tally.failed = true;
            continue;
        }
        let new_bundle = txtar::format(
            &archive.comment,
            files.iter().map(|(n, d)| (n.as_str(), d.as_str())),
        );
        if new_bundle == bundle {
            continue;
        }
        match write_step_hcl(&current, Some(&step), &new_bundle) {
            Ok((next, _)) => current = next,
            Err(e) => {
                cx.diagnostics.push(
                    Diagnostic::new(
                        Code::I014,
                        format!("cannot rewrite step {step:?} of `{name}`: {e}"),
                    )
                    .with_path(name.clone()),
                );
                tally.failed = true;
            }
        }
    }
    apply(path, &name, &text, &current, args, color, cx, tally)
}

/// The `input.hcl` text of the named step.
fn step_bundle(yaml: &str, step: &str) -> Option<String> {
    let composition = Composition::parse(yaml).ok()?;
    let chosen = composition.steps.iter().find(|s| s.name == step)?;
    chosen.hcl()?.as_str().map(str::to_string)
}
