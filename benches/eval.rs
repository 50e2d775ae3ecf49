//! Expression evaluation speed: thousands of locals-like expressions mixing templates, `for`
//! expressions and arithmetic, each evaluated in a scope that holds every earlier result.
//!
//! `cargo bench --bench eval` prints the median nanoseconds per expression. Under
//! `cargo test --benches` (no `--bench` argument) it evaluates everything once and checks that
//! no expression fails.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Duration;

mod timing;

use fnhcl::eval::functions::builtins;
use fnhcl::eval::scope::Scope;
use fnhcl::eval::{Value, expr};
use fnhcl::source::SourceMap;
use fnhcl::syntax::parse_expression;

/// How many expressions (locals) the workload has.
const COUNT: usize = 4000;
/// Measurement time.
const MEASURE: Duration = Duration::from_secs(3);

/// The i-th expression; it may refer to earlier ones by name (`n{k}` numbers, `s{k}` strings).
fn expression(i: usize) -> (String, String) {
    let prev = |k: usize| i.saturating_sub(k).max(1) / 4 * 4;
    match i % 4 {
        0 => (
            format!("n{i}"),
            format!("n{} * 3 + {i} / 7 - (n{} % 5)", prev(4), prev(8)),
        ),
        1 => (
            format!("s{i}"),
            format!(
                "\"item-${{n{}}}-%{{ if n{} > 10 }}big%{{ else }}small%{{ endif }}\"",
                prev(1),
                prev(5)
            ),
        ),
        2 => (
            format!("l{i}"),
            format!("[for x in [1, 2, 3, {i}] : x * n{} if x != 2]", prev(2)),
        ),
        _ => (
            format!("m{i}"),
            format!(
                "{{ for k, v in {{ a = s{}, b = \"x\" }} : k => \"${{v}}-${{k}}\" }}",
                prev(2) + 1
            ),
        ),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--test") || !args.iter().any(|a| a == "--bench");
    let mut map = SourceMap::new();
    let mut parsed = Vec::with_capacity(COUNT);
    for i in 0..COUNT {
        let (name, text) = expression(i);
        let file = map.add(format!("{name}.hcl"), format!("{text}\n"));
        let (expr, diagnostics) = parse_expression(map.get(file));
        if !diagnostics.is_empty() {
            eprintln!("expression {i} does not parse: {text}: {diagnostics:?}");
            return ExitCode::FAILURE;
        }
        parsed.push((name, file, expr));
    }
    let functions = builtins();
    let root = Scope::root(&functions);
    let run = || {
        let mut variables: BTreeMap<String, Value> = BTreeMap::new();
        variables.insert("n0".into(), Value::Number(fnhcl::eval::Num::from_i64(1)));
        variables.insert("s1".into(), Value::string("seed"));
        let mut failures = 0;
        for (name, file, expression) in &parsed {
            let scope = Scope {
                variables: std::mem::take(&mut variables),
                functions: None,
                parent: Some(&root),
                bound: Default::default(),
            };
            let (value, diagnostics) = expr::eval(expression, *file, &scope);
            failures += usize::from(!diagnostics.is_empty());
            variables = scope.variables;
            variables.insert(name.clone(), value);
        }
        failures
    };
    let failures = run();
    if failures > 0 {
        eprintln!("{failures} of {COUNT} expressions failed to evaluate");
        return ExitCode::FAILURE;
    }
    if quick {
        println!("eval: {COUNT} expressions evaluated once, all succeeded");
        return ExitCode::SUCCESS;
    }
    let (median, runs) = timing::median(MEASURE, run);
    println!(
        "eval: {COUNT} expressions, median {:.2} ms per run, {:.0} ns per expression ({} runs)",
        median.as_secs_f64() * 1e3,
        median.as_nanos() as f64 / COUNT as f64,
        runs
    );
    ExitCode::SUCCESS
}
