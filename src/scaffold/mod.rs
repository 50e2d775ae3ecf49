//! L8: `fnhcl init` — a new composition folder that checks, renders and tests green at once:
//! `main.hcl` with a commented example, `.fnhcl.toml`, a Composition whose function-hcl step
//! holds the bundle (`package --into`), `tests/` with a golden case (its `expected.yaml`
//! written by the first render, as `test --update` would) and a CompositionTest, and
//! `.crds/README.md`; or, from an XRD, the same for its XR type. Existing files are never
//! overwritten unless forced, nothing is written through a symbolic link, and each file is
//! written atomically. Prints nothing.

pub mod templates;
pub mod xrd;

use crate::diagnostics::{Code, Diagnostic};
use crate::golden::{self, Outcome, ParseArgs, Runner};
use crate::source::{SourceMap, loader, write};
use std::path::{Path, PathBuf};

/// What to create.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// The project folder (created when missing).
    pub dir: &'a Path,
    /// Scaffold for this XRD's XR type.
    pub from_xrd: Option<&'a Path>,
    /// Overwrite existing files (never through a symbolic link).
    pub force: bool,
}

/// The files written, relative to the project folder, in writing order.
pub type Created = Vec<PathBuf>;

/// Creates the project; every problem found before writing (existing files, links), or the
/// one that stopped it.
pub fn init(
    map: &mut SourceMap,
    options: &Options<'_>,
    parse: &ParseArgs,
) -> Result<Created, Vec<Diagnostic>> {
    let xr = match options.from_xrd {
        None => xrd::Xr::example(),
        Some(path) => read_xrd(map, path).map_err(|d| vec![*d])?,
    };
    let files = templates::files(&xr, options.from_xrd.is_some());
    let expected = PathBuf::from(templates::CASE).join("expected.yaml");
    let mut targets: Vec<PathBuf> = files.iter().map(|(p, _)| PathBuf::from(p)).collect();
    targets.push(expected.clone());
    refuse(options.dir, &targets, options.force)?;
    for (relative, text) in &files {
        let path = options.dir.join(relative);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| write::write_atomic(&path, text.as_bytes()));
        written.map_err(|e| vec![write_error(&path, &e)])?;
    }
    let composition = options.dir.join(templates::COMPOSITION);
    let bundle = crate::package::load(map, options.dir).map_err(|d| vec![*d])?;
    let text = bundle.txtar(map);
    crate::package::into_composition(map, &composition, None, &text).map_err(|d| vec![*d])?;
    write_expected(options.dir, parse)?;
    targets.retain(|t| options.dir.join(t).is_file());
    Ok(targets)
}

fn read_xrd(map: &mut SourceMap, path: &Path) -> Result<xrd::Xr, Box<Diagnostic>> {
    let text = loader::read_text(path)
        .map_err(|e| Box::new(crate::diagnostics::from_load_error(&e, map)))?;
    xrd::Xr::from_xrd(&text).map_err(|why| {
        Box::new(
            Diagnostic::new(
                Code::I004,
                format!("`{}` is not an XRD: {why}", path.display()),
            )
            .with_path(path.display().to_string())
            .with_help(
                "pass a CompositeResourceDefinition (apiextensions.crossplane.io/v1) YAML file",
            ),
        )
    })
}

/// Every target that exists (unless `force`) or lies behind a symbolic link below `dir`.
fn refuse(dir: &Path, targets: &[PathBuf], force: bool) -> Result<(), Vec<Diagnostic>> {
    let mut problems = Vec::new();
    for relative in targets {
        let path = dir.join(relative);
        if let Some(link) = crate::package::link_below(dir, relative) {
            problems.push(
                Diagnostic::new(
                    Code::I016,
                    format!(
                        "`{}` would be written through the symbolic link `{}`",
                        path.display(),
                        link.display()
                    ),
                )
                .with_path(path.display().to_string())
                .with_help("init into a folder without symbolic links, or remove the link"),
            );
        } else if path.exists() && !force {
            problems.push(
                Diagnostic::new(Code::I015, format!("`{}` exists", path.display()))
                    .with_path(path.display().to_string())
                    .with_help("pass --force to overwrite it, or init another folder"),
            );
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Renders the first case and writes its `expected.yaml`, as `fnhcl test --update` does.
fn write_expected(dir: &Path, parse: &ParseArgs) -> Result<(), Vec<Diagnostic>> {
    let case_dir = dir.join(templates::CASE);
    let failed = |why: String| {
        vec![
            Diagnostic::new(
                Code::I001,
                format!("cannot render the first test case: {why}"),
            )
            .with_path(case_dir.display().to_string())
            .with_help("run `fnhcl test --update` in the folder to see why"),
        ]
    };
    let cases = golden::discover(std::slice::from_ref(&case_dir), true, None)
        .map_err(|d| failed(d.summary.clone()))?;
    let write = |path: &Path, data: &[u8]| write::write_atomic(path, data);
    let runner = Runner {
        update: true,
        schemas: None,
        parse,
        write: &write,
        allow_outside_paths: false,
        coverage: None,
    };
    for (outcome, _) in golden::run(&cases.cases, runner) {
        match outcome {
            Outcome::Passed | Outcome::Updated => {}
            Outcome::Failed(failure) => return Err(failed(format!("{failure:?}"))),
        }
    }
    Ok(())
}

fn write_error(path: &Path, error: &std::io::Error) -> Diagnostic {
    Diagnostic::new(
        Code::I001,
        format!(
            "cannot write `{}`: {}",
            path.display(),
            loader::io_text(error)
        ),
    )
    .with_path(path.display().to_string())
    .with_help("check that the folder is writable")
}
