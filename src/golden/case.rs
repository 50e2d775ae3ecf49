//! Running one case: its files made into `render` arguments, the render, and the comparison
//! with `expected.yaml` (or the errors `expected-error.txt` asks for); `--update` rewrites
//! `expected.yaml` when the output really changed.
//!
//! A case's files come from wherever the tests live, so they are read as untrusted: `args`
//! lines go through the caller's argument parser like any command line, `context.yaml` must
//! be a mapping, and nothing is written but the case's own `expected.yaml`.

use super::assertions::{self, AssertFile};
use super::confine::Confinement;
use super::discover::{Case, source_of};
use super::expect_error::{ExpectedError, Place, errors_text, places};
use crate::diagnostics::Diagnostic;
use crate::diff::{IgnorePath, StreamDiff, diff_streams};
use crate::grpc::remote::GrpcRemote;
use crate::render::Remote;
use crate::render::inputs::{self, Documents, Io, Request};
use crate::schema::Schemas;
use crate::source::SourceMap;
use crate::source::yaml_emit::to_yaml;
use serde_json::Value as Json;
use std::io;
use std::path::Path;

/// Parses a case's `render` arguments (as `fnhcl render` parses its command line).
pub type ParseArgs = dyn Fn(&[String]) -> Result<Request, Box<Diagnostic>> + Sync;

/// Replaces a file's content (atomically: readers see the old file or the new one).
pub type WriteFile = dyn Fn(&Path, &[u8]) -> io::Result<()> + Sync;

/// How to run cases.
#[derive(Clone, Copy)]
pub struct Runner<'a> {
    /// `--update`: write `expected.yaml` where the output changed.
    pub update: bool,
    /// `--validate`'s schemas, compiled once for every case.
    pub schemas: Option<&'a Schemas>,
    /// The parser of a case's `render` arguments.
    pub parse: &'a ParseArgs,
    /// Writes `expected.yaml`.
    pub write: &'a WriteFile,
    /// `--allow-outside-paths`: a case may name files outside the tested tree.
    pub allow_outside_paths: bool,
    /// `--lcov`, `--coverage-min`: where each render's coverage goes.
    pub coverage: Option<&'a super::Coverage>,
}

/// How a case ended.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The output is what was expected.
    Passed,
    /// `--update` wrote its expected output.
    Updated,
    /// Failed.
    Failed(Failure),
}

/// Why a case failed.
#[derive(Clone, Debug)]
pub enum Failure {
    /// What went wrong, to show as it is.
    Message(String),
    /// The output differs from `expected.yaml` (to show as a diff of `expected.yaml` and
    /// `rendered`).
    Differs(StreamDiff),
    /// A reconcile scenario whose output kept changing: what to say, then the diff of its
    /// last two renders.
    Unsettled {
        /// What went wrong, to show as it is (before the diff).
        message: String,
        /// The name of the render before the last (the diff's old side).
        before: String,
        /// The name of the last render (the diff's new side).
        after: String,
        /// The last two renders compared.
        diff: StreamDiff,
    },
}

/// A case's `context.yaml`, key by key.
type ContextData = Vec<(String, Json)>;

/// Lines of a case file's text (trimmed, blank lines and `#` comments dropped).
pub(super) fn lines(text: Option<&str>) -> Vec<String> {
    text.unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The `render` arguments of a case, and its `context.yaml` (passed as values, never through
/// flag syntax, so a `;` in a value or a `=` in a key stays what it is).
fn render_args(
    dir: &Path,
    confine: &Confinement<'_>,
) -> Result<(Vec<String>, ContextData), String> {
    let path = |name: &str| dir.join(name).display().to_string();
    let mut args = vec![
        path("xr.yaml"),
        source_of(dir)?.display().to_string(),
        "--include-function-results".into(),
        "--include-context".into(),
    ];
    if dir.join("observed.yaml").exists() {
        args.extend(["-o".into(), path("observed.yaml")]);
    }
    if dir.join("extra-resources.yaml").exists() {
        args.extend(["-e".into(), path("extra-resources.yaml")]);
    }
    let mut context = Vec::new();
    if let Some(text) = confine.case_file(dir, "context.yaml")? {
        let docs = crate::source::yaml::read_stream(&text)
            .map_err(|e| format!("context.yaml: {}", e.message))?;
        if let Some(doc) = docs.first() {
            let value = serde_json::to_value(&doc.value).unwrap_or_default();
            let Json::Object(map) = value else {
                return Err("context.yaml must be a mapping".into());
            };
            context.extend(map);
        }
    }
    args.extend(lines(confine.case_file(dir, "args")?.as_deref()));
    Ok((args, context))
}

/// Runs one case.
pub fn run_case(case: &Case, runner: Runner<'_>) -> Outcome {
    match try_case(case, runner) {
        Ok(outcome) => outcome,
        Err(why) => Outcome::Failed(Failure::Message(why)),
    }
}

/// A case's render: its documents when they pass `--validate`; its diagnostics either way.
struct Render {
    documents: Option<Vec<Json>>,
    /// The documents broke their schemas.
    invalid: bool,
    diagnostics: Vec<Diagnostic>,
    /// Where the diagnostics with a location point.
    places: Vec<Place>,
}

impl Render {
    /// The diagnostics as text: each summary with its detail and help.
    fn errors(&self) -> String {
        errors_text(&self.diagnostics)
    }

    /// The errors as a failing case shows them.
    fn shown(&self) -> String {
        super::expect_error::errors_shown(&self.diagnostics)
    }
}

/// Calls `f` with what a test's render needs from outside: `stdin`, the gRPC client for
/// steps that run elsewhere, no log (function-hcl's debug dumps are not a test's output), and
/// no warnings about discarded blocks.
pub(super) fn quiet_io<T>(stdin: &mut dyn io::Read, f: impl FnOnce(&mut Io<'_>) -> T) -> T {
    let remote = || Box::new(GrpcRemote::new()) as Box<dyn Remote>;
    f(&mut Io {
        stdin,
        remote: &remote,
        log: &mut |_| {},
        quiet: true,
        show_discarded: false,
    })
}

/// Renders a request as `fnhcl test` does: quietly (no debug dumps, no warnings about
/// discarded blocks), against `schemas` when given.
fn render(
    request: &Request,
    schemas: Option<&Schemas>,
    coverage: Option<&super::Coverage>,
) -> Render {
    let mut map = SourceMap::new();
    let mut diagnostics = Vec::new();
    let (documents, invalid) = match quiet_io(&mut io::stdin(), |io| {
        inputs::documents(&mut map, request, schemas, io, &mut diagnostics)
    }) {
        Ok(Documents {
            documents,
            valid: true,
            coverage: covered,
            ..
        }) => {
            if let Some(coverage) = coverage {
                covered.iter().for_each(|step| coverage.record(step));
            }
            (Some(documents), false)
        }
        Ok(Documents { valid: false, .. }) => (None, true),
        Err(_) => (None, false),
    };
    let places = places(&map, &diagnostics);
    Render {
        documents,
        invalid,
        diagnostics,
        places,
    }
}

fn try_case(case: &Case, runner: Runner<'_>) -> Result<Outcome, String> {
    let dir = &case.dir;
    let confine = Confinement {
        root: &case.root,
        allow: runner.allow_outside_paths,
    };
    let (args, context) = render_args(dir, &confine)?;
    let mut request = (runner.parse)(&args).map_err(|d| d.summary.clone())?;
    confine.request(&request, dir)?;
    request.context_data = context;
    request.coverage = runner.coverage.is_some();
    let mut ignore = Vec::new();
    for text in lines(confine.case_file(dir, "ignore-paths")?.as_deref()) {
        ignore.push(IgnorePath::parse(&text).map_err(|e| format!("ignore-paths: {e}"))?);
    }
    let expected_error = confine.case_file(dir, "expected-error.txt")?;
    let expected_text = confine.case_file(dir, "expected.yaml")?;
    let assert = match confine.case_file(dir, assertions::FILE)? {
        Some(text) => Some(AssertFile::parse(&text)?),
        None => None,
    };
    let rendered = render(&request, runner.schemas, runner.coverage);
    if let Some(outcome) = expected_failure(expected_error, assert.as_ref(), &rendered) {
        return outcome;
    }
    let actual = match rendered.documents {
        Some(docs) => docs,
        None if rendered.invalid => {
            return Err(format!(
                "the output breaks its schemas (--validate):\n{}\n",
                rendered.shown()
            ));
        }
        None => return Err(format!("the render failed:\n{}\n", rendered.shown())),
    };
    if let Some(assert) = &assert {
        let failures = assert.failures(&actual);
        if !failures.is_empty() {
            return Err(failures.join("\n") + "\n");
        }
        // An assert.yaml alone is the whole test: --update writes no golden beside it.
        if expected_text.is_none() {
            return Ok(Outcome::Passed);
        }
    }
    compare(dir, expected_text, &actual, &ignore, runner)
}

/// The outcome of a case that expects its render to fail (`expected-error.txt`, or
/// `expectError` in `assert.yaml`); `None` when it expects no failure.
fn expected_failure(
    expected_error: Option<String>,
    assert: Option<&AssertFile>,
    rendered: &Render,
) -> Option<Result<Outcome, String>> {
    let from_assert = assert.and_then(|a| a.expect_error.clone());
    let which = match (&expected_error, &from_assert) {
        (None, None) => return None,
        (Some(_), _) => "expected-error.txt",
        (None, Some(_)) => "assert.yaml's expectError",
    };
    let mut expected = expected_error
        .map(|text| ExpectedError::from_lines(&lines(Some(&text))))
        .unwrap_or_default();
    if let Some(more) = from_assert {
        expected.extend(more);
    }
    if assert.is_some_and(AssertFile::asserts_output) {
        return Some(Err(format!(
            "{which} says the render must fail, but assert.yaml also asserts on its output; a case tests one or the other"
        )));
    }
    if rendered.documents.is_some() {
        return Some(Err(format!(
            "the render succeeded, but {which} says it must fail"
        )));
    }
    Some(
        expected
            .check(&rendered.errors(), &rendered.places)
            .map(|()| Outcome::Passed),
    )
}

/// The rendered documents against `expected.yaml` (written by `--update`).
fn compare(
    dir: &Path,
    expected_text: Option<String>,
    actual: &[Json],
    ignore: &[IgnorePath],
    runner: Runner<'_>,
) -> Result<Outcome, String> {
    let actual_text: String = actual
        .iter()
        .map(|d| format!("---\n{}", to_yaml(d)))
        .collect();
    let expected_path = dir.join("expected.yaml");
    let expected: Option<Vec<Json>> = match &expected_text {
        None => None,
        Some(text) => match crate::source::yaml::read_stream(text) {
            Ok(docs) => Some(
                docs.iter()
                    .map(|d| serde_json::to_value(&d.value).unwrap_or(Json::Null))
                    .collect(),
            ),
            // A broken golden is rewritten by --update, reported otherwise.
            Err(e) if !runner.update => return Err(format!("expected.yaml: {}", e.message)),
            Err(_) => None,
        },
    };
    let comparison = expected
        .as_ref()
        .map(|expected| diff_streams(expected, actual, ignore));
    let differs = comparison.as_ref().is_none_or(|c| c.summary().differs());
    if runner.update {
        // Only a case whose output really changed (ignored paths aside) is rewritten, so
        // the goldens do not churn.
        if !differs {
            return Ok(Outcome::Passed);
        }
        (runner.write)(&expected_path, actual_text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", expected_path.display()))?;
        return Ok(Outcome::Updated);
    }
    let Some(comparison) = comparison else {
        return Err("no expected.yaml (run with --update to write it)".into());
    };
    if !differs {
        return Ok(Outcome::Passed);
    }
    Ok(Outcome::Failed(Failure::Differs(comparison)))
}
