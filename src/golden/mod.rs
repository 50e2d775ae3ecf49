//! L7: golden tests of compositions (`fnhcl test`): cases found below folders, each rendered
//! from its files and compared with its `expected.yaml` and/or checked against its
//! `assert.yaml` (or the errors its `expected-error.txt` or `assert.yaml` names), `--update` writing what changed, the JUnit report, and
//! `test import` of a function-hcl debug dump. Cases run in parallel. Nothing here prints.
//!
//! A case's `args` are `render` flags: the caller parses them (see [`ParseArgs`]), as the
//! command line parser is not the library's.

pub mod assertions;
mod case;
mod confine;
pub mod coverage;
mod discover;
pub mod expect_error;
pub mod hcltest;
pub mod import;
pub mod inspector;
pub mod jmes;
mod junit;
pub mod keyexpr;
pub mod scenario;
pub mod standard;
pub mod subset;
pub mod xprin;

pub use case::{Failure, Outcome, ParseArgs, Runner, WriteFile, run_case};
pub use coverage::Coverage;
pub use discover::{Case, Found, HclRun, TestRef, source_of};
pub use junit::junit_xml;

use crate::diagnostics::Diagnostic;
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Runs the cases, in parallel: each one's outcome and how long it took, in the cases' order.
pub fn run(cases: &[Case], runner: Runner<'_>) -> Vec<(Outcome, Duration)> {
    cases
        .par_iter()
        .map(|case| {
            let started = Instant::now();
            let outcome = match (&case.hcl, &case.test) {
                (Some(hcl), _) => hcltest::run_case(case, hcl, runner),
                (None, Some(test)) => standard::run(case, test, runner),
                (None, None) => run_case(case, runner),
            };
            (outcome, started.elapsed())
        })
        .collect()
}

/// The cases below `paths` (each must be a folder), those whose name contains `filter`,
/// sorted by name, each once: case folders (see [`discover::discover`]) and the tests of
/// CompositionTest files ([`standard::discover`]); new case folders without expected output
/// are in [`Found::new`] unless `update` records them.
pub fn discover(
    paths: &[PathBuf],
    update: bool,
    filter: Option<&str>,
) -> Result<Found, Box<Diagnostic>> {
    let mut found = discover::discover(paths, update, filter)?;
    let cases = &mut found.cases;
    cases.extend(standard::discover(paths));
    if let Some(filter) = filter {
        cases.retain(|c| c.id.contains(filter));
    }
    cases.sort_by(|a, b| a.id.cmp(&b.id));
    cases.dedup_by(|a, b| a.dir == b.dir && a.test == b.test && a.hcl == b.hcl);
    Ok(found)
}
