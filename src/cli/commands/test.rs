//! `fnhcl test`: golden tests of compositions, and `test import` of a debug dump; the library's
//! `golden` runs them, this prints the results.

use crate::cli::Context;
use crate::cli::args::{DiagnosticFormat, TestArgs, TestImportArgs};
use crate::cli::compare::{self, Style};
use crate::cli::exit::ExitStatus;
use crate::cli::inputs::parse_render_args;
use fnhcl::diagnostics::{Code, Diagnostic};
use fnhcl::golden::{self, Failure, Outcome, Runner, coverage};
use fnhcl::schema::inputs::load_schemas;
use fnhcl::source::write::{write_atomic, write_through};
use owo_colors::OwoColorize;
use std::io::{self, Write};

/// The last line of a failing comparison with `expected.yaml`.
const UPDATE_HINT: &str =
    "hint: if this change is intended, run `fnhcl test --update` to record it";

/// Runs the command.
pub fn run(args: &TestArgs, color: bool, cx: &mut Context) -> io::Result<ExitStatus> {
    if let Some(crate::cli::args::TestCommand::Import(import_args)) = &args.command {
        return import(import_args, cx);
    }
    let found = match golden::discover(&args.paths, args.update, args.filter.as_deref()) {
        Ok(found) => found,
        Err(d) => return Ok(cx.fail(*d)),
    };
    let (cases, new) = (found.cases, found.new);
    if cases.is_empty() && new.is_empty() {
        cx.diagnostics.push(
            Diagnostic::new(Code::I026, "no test cases found").with_help(
                "a test case is a folder with xr.yaml and expected.yaml, assert.yaml or expected-error.txt, a test of a CompositionTest YAML file, or a run block of a *.fnhcltest.hcl file; a folder with only xr.yaml inside a `tests` folder is a new case, which `fnhcl test --update` records",
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
        match load_schemas(&mut cx.map, &args.validate, &mut io::stdin()) {
            Ok(schemas) => {
                cx.diagnostics
                    .extend(fnhcl::schema::inputs::schema_warnings(&schemas));
                Some(schemas)
            }
            Err(d) => return Ok(cx.fail(*d)),
        }
    };
    // --lcov, --coverage-min: every render's coverage goes here; paths show relative to the
    // current directory, as LCOV readers look for them.
    let coverage = (args.lcov.is_some() || args.coverage_min.is_some())
        .then(|| golden::Coverage::new(std::env::current_dir().unwrap_or_default()));
    let runner = Runner {
        update: args.update,
        schemas: schemas.as_ref(),
        parse: &parse_render_args,
        write: &write_through,
        allow_outside_paths: args.allow_outside_paths,
        coverage: coverage.as_ref(),
    };
    let results = golden::run(&cases, runner);
    // What each failed case shows, coloured for the terminal (the JUnit report strips it).
    let mut shown = Vec::with_capacity(results.len());
    for (outcome, time) in &results {
        let why = match outcome {
            Outcome::Failed(Failure::Message(why)) => Some(why.clone()),
            Outcome::Failed(Failure::Differs(comparison)) => {
                let mut text = Vec::new();
                compare::write_human(&mut text, comparison, "expected.yaml", "rendered", style)?;
                writeln!(text, "{UPDATE_HINT}")?;
                Some(String::from_utf8_lossy(&text).into_owned())
            }
            Outcome::Failed(Failure::Unsettled {
                message,
                before,
                after,
                diff,
            }) => {
                let mut text = message.clone().into_bytes();
                compare::write_human(&mut text, diff, before, after, style)?;
                Some(String::from_utf8_lossy(&text).into_owned())
            }
            Outcome::Passed | Outcome::Updated => None,
        };
        shown.push((why, *time));
    }
    let (mut passed, mut failed, mut updated) = (0, 0, 0);
    for (case, ((outcome, _), (why, _))) in cases.iter().zip(results.iter().zip(&shown)) {
        match (outcome, why) {
            (Outcome::Passed, _) => {
                passed += 1;
                if cx.verbose {
                    writeln!(cx.stdout, "ok      {}", case.id)?;
                }
            }
            (Outcome::Updated, _) => {
                updated += 1;
                writeln!(cx.stdout, "updated {}", case.id)?;
            }
            (Outcome::Failed(_), why) => {
                failed += 1;
                let why = why.as_deref().unwrap_or_default();
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
    let below = match &coverage {
        Some(coverage) => report_coverage(args, coverage, cx)?,
        None => false,
    };
    // New cases are listed after the results, as they were not run.
    for case in &new {
        writeln!(cx.stdout, "new     {}", case.id)?;
    }
    let mut summary = format!("{passed} passed, {failed} failed");
    if updated > 0 {
        summary.push_str(&format!(", {updated} updated"));
    }
    if !new.is_empty() {
        summary.push_str(&format!(", {} new", new.len()));
    }
    writeln!(cx.stdout, "{summary}")?;
    if !new.is_empty() {
        cx.diagnostics.push(
            Diagnostic::new(
                Code::I026,
                format!(
                    "{} (no expected output yet)",
                    fnhcl::diagnostics::count(new.len(), "new case", "new cases")
                ),
            )
            .with_help("run `fnhcl test --update` to record them"),
        );
    }
    if let Some(junit) = &args.junit {
        let failures: Vec<(Option<&str>, _)> = shown
            .iter()
            .map(|(why, time)| (why.as_deref(), *time))
            .collect();
        let xml = golden::junit_xml(&cases, &failures);
        if let Err(e) = write_through(junit, xml.as_bytes()) {
            return Ok(cx.fail(Diagnostic::new(
                Code::I001,
                format!("cannot write {}: {e}", junit.display()),
            )));
        }
    }
    Ok(if failed > 0 || below || !new.is_empty() {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// Prints the coverage summary, writes `--lcov` and checks `--coverage-min`: whether the run
/// is below it (a diagnostic says by how much and which compositions).
fn report_coverage(
    args: &TestArgs,
    coverage: &golden::Coverage,
    cx: &mut Context,
) -> io::Result<bool> {
    let reports = coverage.report();
    for report in &reports {
        writeln!(
            cx.stdout,
            "coverage {}: {}",
            report.name,
            coverage::summary_line(report.totals)
        )?;
    }
    let all = coverage::sum(&reports);
    if reports.len() > 1 {
        writeln!(cx.stdout, "coverage total: {}", coverage::summary_line(all))?;
    }
    if let Some(path) = &args.lcov
        && let Err(e) = write_through(path, coverage::lcov::write(&reports).as_bytes())
    {
        cx.diagnostics.push(Diagnostic::new(
            Code::I001,
            format!("cannot write {}: {e}", path.display()),
        ));
        return Ok(true);
    }
    let Some(min) = args.coverage_min else {
        return Ok(false);
    };
    let total = all.total();
    if !total.below(min) {
        return Ok(false);
    }
    let lows: Vec<String> = reports
        .iter()
        .filter(|r| r.totals.total().below(min))
        .map(|r| format!("`{}` {}", r.name, coverage::percent_text(r.totals.total())))
        .collect();
    cx.diagnostics.push(
        Diagnostic::new(
            Code::I021,
            format!(
                "coverage {} is below --coverage-min {min}%",
                coverage::percent_text(total)
            ),
        )
        .with_detail(format!("below it: {}", lows.join(", ")))
        .with_help(
            "add cases that render the blocks, conditions and functions the LCOV shows at 0",
        ),
    );
    Ok(true)
}

/// `fnhcl test import`.
fn import(args: &TestImportArgs, cx: &mut Context) -> io::Result<ExitStatus> {
    let out = &args.out;
    let select = golden::inspector::Select {
        step: args.step.clone(),
        xr: args.xr.clone(),
        index: args.index,
    };
    let imported =
        golden::import::import(&args.dump, out, &select, &mut io::stdin(), &write_atomic);
    let imported = match imported {
        Ok(imported) => imported,
        Err(d) => return Ok(cx.fail(*d)),
    };
    cx.diagnostics.extend(imported.warnings.iter().cloned());
    writeln!(
        cx.stdout,
        "wrote {}: {}",
        out.display(),
        imported.names.join(", ")
    )?;
    if let Some(chosen) = &imported.inspector {
        inspector_notes(chosen, cx)?;
    }
    if imported.dumps > 1 {
        cx.note(&format!(
            "the input holds {} request dumps; imported the first",
            imported.dumps
        ))?;
    }
    cx.note(&format!(
        "record what the composition renders for it with `fnhcl test --update {}`",
        out.display()
    ))?;
    Ok(ExitStatus::Success)
}

/// What a pipeline inspector import chose, what else the log holds, and what the case lacks.
fn inspector_notes(chosen: &golden::inspector::Chosen, cx: &mut Context) -> io::Result<()> {
    let request = &chosen.requests[chosen.chosen];
    cx.note(&format!(
        "imported request {} of {} (line {}): {}",
        chosen.chosen + 1,
        chosen.requests.len(),
        request.line,
        request.describe()
    ))?;
    if let Some(error) = &request.error {
        cx.note(&format!("the recorded call failed: {error}"))?;
    }
    if chosen.requests.len() > 1 {
        cx.note(&golden::inspector::listing(&chosen.requests))?;
        cx.note("choose another with --step NAME, --xr NAME or --index N")?;
    }
    for note in &chosen.left_out {
        cx.note(note)?;
    }
    Ok(())
}
