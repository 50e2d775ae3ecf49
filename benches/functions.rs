//! Micro-benchmarks of hot built-in functions: each call is evaluated as an expression
//! (argument conversion and the calling convention included) many times; prints nanoseconds per
//! call. Under `cargo test --benches` (no `--bench` argument) each is evaluated once and checked.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use fnhcl::eval::expr;
use fnhcl::eval::functions::builtins;
use fnhcl::eval::scope::Scope;
use fnhcl::source::SourceMap;
use fnhcl::syntax::parse_expression;

/// (name, expression) pairs.
const CASES: &[(&str, &str)] = &[
    (
        "format",
        r#"format("%s-%05d-%.2f-%v", "bucket", 42, 3.14159, true)"#,
    ),
    (
        "jsonencode",
        r#"jsonencode({ name = "a", tags = { env = "prod", team = "x" }, ports = [80, 443], ok = true })"#,
    ),
    (
        "merge",
        r#"merge({ a = 1, b = 2 }, { c = 3 }, { a = "x", d = [1, 2] })"#,
    ),
    ("regex", r#"regex("^([a-z]+)-(\\d+)$", "subnet-42")"#),
    ("cidrsubnet", r#"cidrsubnet("10.20.0.0/16", 8, 17)"#),
];

const MEASURE: Duration = Duration::from_millis(700);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--test") || !args.iter().any(|a| a == "--bench");
    let functions = builtins();
    let scope = Scope::root(&functions);
    let mut map = SourceMap::new();
    for (name, text) in CASES {
        let file = map.add(format!("{name}.hcl"), format!("{text}\n"));
        let (parsed, diagnostics) = parse_expression(map.get(file));
        let (_, eval_diagnostics) = expr::eval(&parsed, file, &scope);
        if !diagnostics.is_empty() || !eval_diagnostics.is_empty() {
            eprintln!("{name}: {text} fails: {diagnostics:?} {eval_diagnostics:?}");
            return ExitCode::FAILURE;
        }
        if quick {
            continue;
        }
        let mut calls = 0u64;
        let start = Instant::now();
        while start.elapsed() < MEASURE {
            for _ in 0..100 {
                black_box(expr::eval(black_box(&parsed), file, &scope));
            }
            calls += 100;
        }
        let ns = start.elapsed().as_nanos() as f64 / calls as f64;
        println!("{name:<12} {ns:>9.0} ns per call   {text}");
    }
    if quick {
        println!(
            "functions: {} benchmark expressions evaluate without errors",
            CASES.len()
        );
    }
    ExitCode::SUCCESS
}
