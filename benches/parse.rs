//! Lex and lex+parse throughput on a generated ~1 MB function-hcl program.
//!
//! `cargo bench --bench parse` runs it; `cargo bench --bench parse -- --write-input PATH` writes
//! the generated program to PATH instead (for `benches/go_parse.py`). With `--test`, or without
//! the `--bench` that `cargo bench` passes (as under `cargo test --benches`, which passes no
//! arguments), it checks the input, does one quick iteration of each and exits.

mod common;

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use fnhcl::source::SourceMap;
use fnhcl::syntax::lex::lex;
use fnhcl::syntax::parse_file;

/// Warm-up time per measurement.
const WARM_UP: Duration = Duration::from_millis(500);
/// Measurement time per measurement.
const MEASURE: Duration = Duration::from_secs(3);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--test") || !args.iter().any(|a| a == "--bench");
    let text = common::generate();

    if let Some(pos) = args.iter().position(|a| a == "--write-input") {
        let Some(path) = args.get(pos + 1) else {
            eprintln!("--write-input needs a PATH");
            return ExitCode::FAILURE;
        };
        if let Err(error) = std::fs::write(path, &text) {
            eprintln!("cannot write {path}: {error}");
            return ExitCode::FAILURE;
        }
        println!("wrote {} bytes to {path}", text.len());
        return ExitCode::SUCCESS;
    }

    let mut map = SourceMap::new();
    let id = map.add("bench.hcl", text.clone());
    let file = map.get(id);

    // The input must be valid: a benchmark of error recovery would measure something else.
    let parsed = parse_file(file);
    if !parsed.diagnostics.is_empty() {
        eprintln!(
            "the generated input has {} syntax diagnostics:",
            parsed.diagnostics.len()
        );
        for diagnostic in parsed.diagnostics.iter().take(10) {
            eprintln!("  {diagnostic:?}");
        }
        return ExitCode::FAILURE;
    }
    let tokens = lex(&text).len();

    if quick {
        black_box(lex(black_box(&text)));
        black_box(parse_file(black_box(file)));
        println!("parse bench: ok ({} bytes, {tokens} tokens)", text.len());
        return ExitCode::SUCCESS;
    }

    println!(
        "input: {} bytes ({:.3} MB), {tokens} tokens, {} top-level blocks, no syntax diagnostics",
        text.len(),
        text.len() as f64 / 1e6,
        parsed.body.blocks.len()
    );
    drop(parsed);

    report("lex", text.len(), || {
        black_box(lex(black_box(&text)));
    });
    report("lex+parse", text.len(), || {
        black_box(parse_file(black_box(file)));
    });
    ExitCode::SUCCESS
}

/// Warms up, runs `f` repeatedly for [`MEASURE`], and prints the median iteration time and the
/// throughput in decimal MB/s.
fn report(name: &str, bytes: usize, mut f: impl FnMut()) {
    let start = Instant::now();
    while start.elapsed() < WARM_UP {
        f();
    }
    let mut samples = Vec::new();
    let start = Instant::now();
    while start.elapsed() < MEASURE || samples.len() < 5 {
        let t = Instant::now();
        f();
        samples.push(t.elapsed());
    }
    samples.sort_unstable();
    let median = samples[samples.len() / 2];
    let mbps = bytes as f64 / 1e6 / median.as_secs_f64();
    println!(
        "{name:<10} median {:>8.3} ms/iter  {mbps:>8.1} MB/s  ({} iterations, min {:.3} ms, max {:.3} ms)",
        median.as_secs_f64() * 1e3,
        samples.len(),
        samples[0].as_secs_f64() * 1e3,
        samples[samples.len() - 1].as_secs_f64() * 1e3,
    );
}
