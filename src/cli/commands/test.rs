//! `fnhcl test`: golden tests of compositions.

use super::diff::{self, Style};
use super::render;
use crate::cli::Context;
use crate::cli::args::{DiagnosticFormat, TestArgs};
use crate::cli::exit::ExitStatus;
use crate::cli::fsutil;
use fnhcl::diagnostics::{Code, Diagnostic};
use fnhcl::diff::{IgnorePath, diff_streams};
use fnhcl::golden::source_of;
use fnhcl::source::yaml_emit::to_yaml;
use owo_colors::OwoColorize;
use rayon::prelude::*;
use serde_json::Value as Json;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod import;

/// One test case found.
struct Case {
    /// Its directory.
    dir: PathBuf,
    /// Its name in reports: the directory as found from the PATH given.
    id: String,
}

/// How a case ended.
enum Outcome {
    Passed,
    /// `--update` wrote its expected output.
    Updated,
    /// Failed: what to show.
    Failed(String),
}

/// Runs the command.
pub fn run(args: &TestArgs, color: bool, cx: &mut Context) -> io::Result<ExitStatus> {
    if let Some(crate::cli::args::TestCommand::Import(import_args)) = &args.command {
        return import::run(import_args, cx);
    }
    let mut cases = Vec::new();
    for path in &args.paths {
        if !path.is_dir() {
            return Ok(cx.fail(Diagnostic::new(
                Code::I001,
                format!("{} is not a directory", path.display()),
            )));
        }
        discover(path, args.update, &mut cases);
    }
    if let Some(filter) = &args.filter {
        cases.retain(|c| c.id.contains(filter.as_str()));
    }
    cases.sort_by(|a, b| a.id.cmp(&b.id));
    cases.dedup_by(|a, b| a.dir == b.dir);
    if cases.is_empty() {
        cx.diagnostics.push(
            Diagnostic::new(Code::I001, "no test cases found").with_help(
                "a test case is a folder with xr.yaml and expected.yaml or expected-error.txt",
            ),
        );
        return Ok(ExitStatus::Failure);
    }
    let style = Style {
        format: DiagnosticFormat::Human,
        color,
        context: args.context,
    };
    // --validate: the schemas are compiled once for every case.
    let schemas = if args.validate.is_empty() {
        None
    } else {
        match super::validate::load_schemas(&args.validate, cx) {
            Ok(schemas) => Some(schemas),
            Err(d) => return Ok(cx.fail(*d)),
        }
    };
    let results: Vec<(Outcome, Duration)> = cases
        .par_iter()
        .map(|case| {
            let started = Instant::now();
            let outcome = run_case(case, args.update, style, schemas.as_ref());
            (outcome, started.elapsed())
        })
        .collect();
    let (mut passed, mut failed, mut updated) = (0, 0, 0);
    for (case, (outcome, _)) in cases.iter().zip(&results) {
        match outcome {
            Outcome::Passed => {
                passed += 1;
                if cx.verbose {
                    writeln!(cx.stdout, "ok      {}", case.id)?;
                }
            }
            Outcome::Updated => {
                updated += 1;
                writeln!(cx.stdout, "updated {}", case.id)?;
            }
            Outcome::Failed(why) => {
                failed += 1;
                let head = format!("FAIL    {}", case.id);
                if color {
                    writeln!(cx.stdout, "{}", head.red().bold())?;
                } else {
                    writeln!(cx.stdout, "{head}")?;
                }
                write!(cx.stdout, "{why}")?;
                if !why.ends_with('\n') {
                    writeln!(cx.stdout)?;
                }
                writeln!(cx.stdout)?;
            }
        }
    }
    let mut summary = format!("{passed} passed, {failed} failed");
    if updated > 0 {
        summary.push_str(&format!(", {updated} updated"));
    }
    writeln!(cx.stdout, "{summary}")?;
    if let Some(junit) = &args.junit {
        let xml = junit_xml(&cases, &results);
        if let Err(e) = fsutil::write_atomic(junit, xml.as_bytes()) {
            return Ok(cx.fail(Diagnostic::new(
                Code::I001,
                format!("cannot write {}: {e}", junit.display()),
            )));
        }
    }
    Ok(if failed > 0 {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// Folders skipped while looking for cases.
fn skipped(name: &str) -> bool {
    name.starts_with('.') || name == "target" || name == "node_modules"
}

/// The cases below `root`: folders with `xr.yaml` and an expected file; with `update` also
/// folders with `xr.yaml` directly inside a `tests` folder.
fn discover(root: &Path, update: bool, cases: &mut Vec<Case>) {
    let walker = walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0 || !e.file_type().is_dir() || !skipped(&e.file_name().to_string_lossy())
        });
    for entry in walker.flatten() {
        if !entry.file_type().is_dir() {
            continue;
        }
        let dir = entry.path();
        if !dir.join("xr.yaml").is_file() {
            continue;
        }
        let has_expected =
            dir.join("expected.yaml").is_file() || dir.join("expected-error.txt").is_file();
        let new_case = update
            && dir
                .parent()
                .and_then(Path::file_name)
                .is_some_and(|n| n == "tests");
        if has_expected || new_case {
            let shown = dir.display().to_string();
            let id = shown.strip_prefix("./").unwrap_or(&shown).to_string();
            cases.push(Case {
                dir: dir.to_path_buf(),
                id,
            });
        }
    }
}

/// Lines of a case file (trimmed, blank lines and `#` comments dropped).
fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .map(|text| {
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The `render` arguments of a case.
fn render_args(dir: &Path) -> Result<Vec<String>, String> {
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
    if dir.join("context.yaml").exists() {
        let text = std::fs::read_to_string(dir.join("context.yaml"))
            .map_err(|e| format!("cannot read context.yaml: {e}"))?;
        let docs = fnhcl::source::yaml::read_stream(&text)
            .map_err(|e| format!("context.yaml: {}", e.message))?;
        if let Some(doc) = docs.first() {
            let value = serde_json::to_value(&doc.value).unwrap_or_default();
            let Json::Object(map) = value else {
                return Err("context.yaml must be a mapping".into());
            };
            for (key, value) in map {
                args.extend(["--context-values".into(), format!("{key}={value}")]);
            }
        }
    }
    args.extend(lines(&dir.join("args")));
    Ok(args)
}

fn run_case(
    case: &Case,
    update: bool,
    style: Style,
    schemas: Option<&fnhcl::schema::Schemas>,
) -> Outcome {
    match try_case(case, update, style, schemas) {
        Ok(outcome) => outcome,
        Err(why) => Outcome::Failed(why),
    }
}

fn try_case(
    case: &Case,
    update: bool,
    style: Style,
    schemas: Option<&fnhcl::schema::Schemas>,
) -> Result<Outcome, String> {
    let dir = &case.dir;
    let args = render::parse_args(&render_args(dir)?).map_err(|d| d.summary.clone())?;
    let mut ignore = Vec::new();
    for text in lines(&dir.join("ignore-paths")) {
        ignore.push(IgnorePath::parse(&text).map_err(|e| format!("ignore-paths: {e}"))?);
    }
    let mut cx = Context {
        map: fnhcl::source::SourceMap::new(),
        diagnostics: Vec::new(),
        stdout: io::BufWriter::new(io::stdout()),
        quiet: true,
        verbose: false,
    };
    let mut invalid = false;
    let rendered = match render::documents_validated(&args, schemas, &mut cx) {
        Ok((docs, true)) => Ok(docs),
        Ok((_, false)) => {
            invalid = true;
            Err(crate::cli::exit::ExitStatus::Failure)
        }
        Err(status) => Err(status),
    };
    let errors = || {
        cx.diagnostics
            .iter()
            .map(|d| {
                let mut text = d.summary.clone();
                for more in [&d.detail, &d.help].into_iter().flatten() {
                    text.push('\n');
                    text.push_str(more);
                }
                text
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let expected_error = dir.join("expected-error.txt");
    if expected_error.is_file() {
        let wanted = lines(&expected_error);
        if rendered.is_ok() {
            return Err("the render succeeded, but expected-error.txt says it must fail".into());
        }
        let got = errors();
        let missing: Vec<&String> = wanted
            .iter()
            .filter(|w| !got.contains(w.as_str()))
            .collect();
        if missing.is_empty() {
            return Ok(Outcome::Passed);
        }
        return Err(format!(
            "the render failed, but its errors lack:\n{}\nits errors:\n{got}\n",
            missing
                .iter()
                .map(|m| format!("  {m}"))
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    let actual = match rendered {
        Ok(docs) => docs,
        Err(_) if invalid => {
            return Err(format!(
                "the output breaks its schemas (--validate):\n{}\n",
                errors()
            ));
        }
        Err(_) => return Err(format!("the render failed:\n{}\n", errors())),
    };
    let actual_text: String = actual
        .iter()
        .map(|d| format!("---\n{}", to_yaml(d)))
        .collect();
    let expected_path = dir.join("expected.yaml");
    let expected_text = std::fs::read_to_string(&expected_path).ok();
    let expected: Option<Vec<Json>> = match &expected_text {
        None => None,
        Some(text) => match fnhcl::source::yaml::read_stream(text) {
            Ok(docs) => Some(
                docs.iter()
                    .map(|d| serde_json::to_value(&d.value).unwrap_or(Json::Null))
                    .collect(),
            ),
            // A broken golden is rewritten by --update, reported otherwise.
            Err(e) if !update => return Err(format!("expected.yaml: {}", e.message)),
            Err(_) => None,
        },
    };
    let comparison = expected
        .as_ref()
        .map(|expected| diff_streams(expected, &actual, &ignore));
    let differs = comparison.as_ref().is_none_or(|c| c.summary().differs());
    if update {
        // Only a case whose output really changed (ignored paths aside) is rewritten, so
        // the goldens do not churn.
        if !differs {
            return Ok(Outcome::Passed);
        }
        fsutil::write_atomic(&expected_path, actual_text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", expected_path.display()))?;
        return Ok(Outcome::Updated);
    }
    let Some(comparison) = comparison else {
        return Err("no expected.yaml (run with --update to write it)".into());
    };
    if !differs {
        return Ok(Outcome::Passed);
    }
    let mut shown = Vec::new();
    diff::write_human(&mut shown, &comparison, "expected.yaml", "rendered", style)
        .map_err(|e| e.to_string())?;
    Ok(Outcome::Failed(
        String::from_utf8_lossy(&shown).into_owned(),
    ))
}

fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot hold at all.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') => {}
            c => out.push(c),
        }
    }
    out
}

/// Strips terminal colour codes (the failure text may be coloured).
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

fn junit_xml(cases: &[Case], results: &[(Outcome, Duration)]) -> String {
    let failures = results
        .iter()
        .filter(|(o, _)| matches!(o, Outcome::Failed(_)))
        .count();
    let total: f64 = results.iter().map(|(_, d)| d.as_secs_f64()).sum();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str(&format!(
        "<testsuites tests=\"{}\" failures=\"{failures}\" time=\"{total:.3}\">\n  <testsuite name=\"fnhcl test\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\" time=\"{total:.3}\">\n",
        cases.len(),
        cases.len()
    ));
    for (case, (outcome, time)) in cases.iter().zip(results) {
        let name = xml_escape(&case.id);
        let time = time.as_secs_f64();
        match outcome {
            Outcome::Failed(why) => {
                let why = strip_ansi(why);
                let first = why.lines().next().unwrap_or("failed");
                xml.push_str(&format!(
                    "    <testcase classname=\"fnhcl\" name=\"{name}\" time=\"{time:.3}\">\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                    xml_escape(first),
                    xml_escape(&why)
                ));
            }
            _ => xml.push_str(&format!(
                "    <testcase classname=\"fnhcl\" name=\"{name}\" time=\"{time:.3}\"/>\n"
            )),
        }
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    xml
}
