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
mod discover;
pub mod expect_error;
pub mod import;
pub mod jmes;
mod junit;
pub mod keyexpr;
pub mod scenario;
pub mod subset;
pub mod xprin;

pub use case::{Failure, Outcome, ParseArgs, Runner, WriteFile, run_case};
pub use discover::{Case, discover, source_of};
pub use junit::junit_xml;

use rayon::prelude::*;
use std::time::{Duration, Instant};

/// Runs the cases, in parallel: each one's outcome and how long it took, in the cases' order.
pub fn run(cases: &[Case], runner: Runner<'_>) -> Vec<(Outcome, Duration)> {
    cases
        .par_iter()
        .map(|case| {
            let started = Instant::now();
            let outcome = run_case(case, runner);
            (outcome, started.elapsed())
        })
        .collect()
}
