//! The conformance suites (formats in ../shared/conformance/README.md): discovery of cases and
//! how each is run through the `fnhcl` binary and judged.

use super::compare;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One runnable case.
pub struct Case {
    /// `suite/name` (`functions/string.json#12` for one vector of a file).
    pub id: String,
    /// Runs the case; `Err` says why it failed.
    pub run: Box<dyn FnOnce() -> Result<(), String> + Send>,
}

/// What a run of the binary gave.
pub struct Output {
    /// Exit code (-1 when killed by a signal).
    pub code: i32,
    /// stdout.
    pub stdout: String,
    /// stderr.
    pub stderr: String,
}

impl Output {
    /// stdout and stderr, plus the decoded text of any JSON diagnostics report in them (a
    /// message with quotes is escaped inside JSON).
    fn both(&self) -> String {
        let mut text = format!("{}\n{}", self.stdout, self.stderr);
        for stream in [&self.stdout, &self.stderr] {
            let Ok(report) = serde_json::from_str::<Value>(stream) else {
                continue;
            };
            for d in report["diagnostics"].as_array().into_iter().flatten() {
                for key in ["summary", "detail"] {
                    if let Some(part) = d[key].as_str() {
                        text.push('\n');
                        text.push_str(part);
                    }
                }
            }
        }
        text
    }

    pub fn describe(&self) -> String {
        format!(
            "exit {}\n--- stdout\n{}\n--- stderr\n{}",
            self.code,
            truncate(&self.stdout),
            truncate(&self.stderr)
        )
    }
}

fn truncate(text: &str) -> &str {
    let mut end = text.len().min(4000);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Runs `fnhcl` with `args` in `dir`, feeding `stdin`.
pub fn fnhcl(dir: &Path, args: &[String], stdin: Option<&[u8]>) -> Result<Output, String> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fnhcl"));
    cmd.args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        // No wrapping: expected substrings are matched against the human report's lines.
        .env("COLUMNS", "10000")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| format!("cannot run fnhcl: {e}"))?;
    if let Some(input) = stdin {
        use std::io::Write;
        let mut pipe = child.stdin.take().ok_or("no stdin pipe")?;
        // A command that exits early closes the pipe; what it printed is judged below.
        let _ = pipe.write_all(input);
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("fnhcl did not finish: {e}"))?;
    Ok(Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn read_json(path: &Path) -> Result<Value, String> {
    serde_json::from_str(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))
}

fn substrings(path: &Path) -> Result<Vec<String>, String> {
    Ok(read(path)?
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect())
}

/// A failed render or evaluation exits 1; 2 would be a usage or I/O error, which proves nothing
/// about the case.
fn expect_substrings(out: &Output, wanted: &[String]) -> Result<(), String> {
    if out.code != 1 {
        return Err(format!(
            "expected a failed run (exit 1)\n{}",
            out.describe()
        ));
    }
    // `both` includes the decoded text of JSON diagnostics, where quotes are not escaped.
    let text = out.both();
    match wanted.iter().find(|w| !text.contains(w.as_str())) {
        Some(missing) => Err(format!("output lacks {missing:?}\n{}", out.describe())),
        None => Ok(()),
    }
}

/// Sorted sub-directories of `dir`.
pub fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

/// Sorted files (not directories) directly in `dir`.
pub fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn case(id: String, run: impl FnOnce() -> Result<(), String> + Send + 'static) -> Case {
    Case {
        id,
        run: Box::new(run),
    }
}

/// One case per sub-directory of `root` that holds `marker` (any, when empty), run by `run`.
pub fn dir_cases(
    root: &Path,
    prefix: &str,
    marker: &str,
    run: fn(&Path) -> Result<(), String>,
) -> Vec<Case> {
    subdirs(root)
        .into_iter()
        .filter(|d| marker.is_empty() || d.join(marker).exists())
        .map(|dir| case(format!("{prefix}{}", name_of(&dir)), move || run(&dir)))
        .collect()
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `render/`: whole-tool cases.
pub fn render(root: &Path, prefix: &str) -> Vec<Case> {
    dir_cases(root, prefix, "xr.yaml", run_render)
}

/// The newest Crossplane version of each dialect, for cases that run in both.
const CLASSIC: &str = "2.2";
const ENGINE: &str = "2.5";

/// Our own `render/` cases, each in both dialects: the classic one (`--crossplane-version
/// 2.2`) against `expected.yaml`, the engine one (2.5) against `expected.engine.yaml` (or
/// `expected-error.engine.txt`) where the dialects differ, else the same files.
pub fn render_both(root: &Path, prefix: &str) -> Vec<Case> {
    subdirs(root)
        .into_iter()
        .filter(|d| d.join("xr.yaml").exists())
        .flat_map(|dir| {
            let name = name_of(&dir);
            let engine_dir = dir.clone();
            [
                case(format!("{prefix}{name}"), move || {
                    run_render_as(&dir, Some(CLASSIC), "")
                }),
                case(format!("{prefix}{name}@engine"), move || {
                    run_render_as(&engine_dir, Some(ENGINE), ".engine")
                }),
            ]
        })
        .collect()
}

fn run_render(dir: &Path) -> Result<(), String> {
    run_render_as(dir, None, "")
}

/// One render case; `version` is added as `--crossplane-version` (unless the case's `args`
/// name one) and `suffix` picks `expected<suffix>.yaml` / `expected-error<suffix>.txt` when the
/// case has them.
fn run_render_as(dir: &Path, version: Option<&str>, suffix: &str) -> Result<(), String> {
    let pick = |base: &str, ext: &str| {
        let own = dir.join(format!("{base}{suffix}.{ext}"));
        if own.exists() {
            own
        } else {
            dir.join(format!("{base}.{ext}"))
        }
    };
    // Our own cases may name another SOURCE (a Composition) in a `source` file.
    let source = match std::fs::read_to_string(dir.join("source")) {
        Ok(text) => text.trim().to_string(),
        Err(_) => "hcl/".to_string(),
    };
    let mut args: Vec<String> = vec![
        "render".into(),
        "xr.yaml".into(),
        source,
        "--include-function-results".into(),
        "--include-context".into(),
    ];
    if dir.join("observed.yaml").exists() {
        args.extend(["-o".into(), "observed.yaml".into()]);
    }
    if dir.join("extra-resources.yaml").exists() {
        args.extend(["-e".into(), "extra-resources.yaml".into()]);
    }
    if dir.join("context.yaml").exists() {
        let context = compare::yaml_stream(&read(&dir.join("context.yaml"))?)?;
        if let Some(Value::Object(map)) = context.first() {
            for (key, value) in map {
                args.extend(["--context-values".into(), format!("{key}={value}")]);
            }
        }
    }
    if dir.join("args").exists() {
        args.extend(substrings(&dir.join("args"))?);
    }
    if let Some(version) = version
        && !args.iter().any(|a| a.starts_with("--crossplane-version"))
    {
        args.push(format!("--crossplane-version={version}"));
    }
    let out = fnhcl(dir, &args, None)?;
    let expected_error = pick("expected-error", "txt");
    if expected_error.exists() {
        return expect_substrings(&out, &substrings(&expected_error)?);
    }
    if out.code != 0 {
        return Err(format!("render failed\n{}", out.describe()));
    }
    let expected = compare::yaml_stream(&read(&pick("expected", "yaml"))?)?;
    let actual =
        compare::yaml_stream(&out.stdout).map_err(|e| format!("{e}\n{}", out.describe()))?;
    compare::render_streams(&expected, &actual)
}

/// `diff/` (our own): `old.yaml` and `new.yaml` compared with the flags in `args` (one per
/// line); stdout must be `expected.txt` exactly and the exit code the one in `exit` (3 when
/// absent: differences).
pub fn diff(root: &Path, prefix: &str) -> Vec<Case> {
    dir_cases(root, prefix, "new.yaml", run_diff)
}

fn run_diff(dir: &Path) -> Result<(), String> {
    let mut args: Vec<String> = vec!["diff".into(), "old.yaml".into(), "new.yaml".into()];
    if dir.join("args").exists() {
        args.extend(substrings(&dir.join("args"))?);
    }
    let out = fnhcl(dir, &args, None)?;
    let want_code: i32 = match std::fs::read_to_string(dir.join("exit")) {
        Ok(text) => text.trim().parse().map_err(|e| format!("exit: {e}"))?,
        Err(_) => 3,
    };
    if out.code != want_code {
        return Err(format!(
            "exit {} instead of {want_code}\n{}",
            out.code,
            out.describe()
        ));
    }
    let expected = read(&dir.join("expected.txt"))?;
    if out.stdout != expected {
        return Err(format!(
            "stdout differs from expected.txt\n--- expected\n{expected}--- actual\n{}",
            out.stdout
        ));
    }
    Ok(())
}

/// `eval/`: function request in, response out.
pub fn eval(root: &Path, prefix: &str) -> Vec<Case> {
    dir_cases(root, prefix, "request.json", run_eval)
}

fn run_eval(dir: &Path) -> Result<(), String> {
    let args = ["function", "run", "--request", "request.json", "."]
        .map(String::from)
        .to_vec();
    let out = fnhcl(dir, &args, None)?;
    let response: Value = serde_json::from_str(&out.stdout)
        .map_err(|e| format!("stdout is not a JSON response: {e}\n{}", out.describe()))?;
    if dir.join("expected-error.txt").exists() {
        let results = response
            .get("results")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let [result] = results.as_slice() else {
            return Err(format!(
                "expected exactly one result, got {}\n{}",
                results.len(),
                out.describe()
            ));
        };
        if result.get("severity").and_then(Value::as_str) != Some("SEVERITY_FATAL") {
            return Err(format!("the result is not fatal: {result}"));
        }
        let message = result.get("message").and_then(Value::as_str).unwrap_or("");
        for wanted in substrings(&dir.join("expected-error.txt"))? {
            if !message.contains(&wanted) {
                return Err(format!("the fatal message lacks {wanted:?}: {message}"));
            }
        }
    } else {
        compare::subset(&read_json(&dir.join("expected.json"))?, &response, "")?;
    }
    if dir.join("absent.json").exists() {
        let pointers = read_json(&dir.join("absent.json"))?;
        for pointer in pointers
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if compare::pointer_exists(&response, pointer) {
                return Err(format!("{pointer} must be absent from the response"));
            }
        }
    }
    Ok(())
}

/// `check/`: static analysis.
pub fn check(root: &Path, prefix: &str) -> Vec<Case> {
    dir_cases(root, prefix, "expected.json", run_check)
}

fn run_check(dir: &Path) -> Result<(), String> {
    let args = ["check", "--format", "json", "."]
        .map(String::from)
        .to_vec();
    let out = fnhcl(dir, &args, None)?;
    let expected = read_json(&dir.join("expected.json"))?;
    let expected = expected.as_array().cloned().unwrap_or_default();
    let report: Value = serde_json::from_str(&out.stdout)
        .map_err(|e| format!("stdout is not a JSON report: {e}\n{}", out.describe()))?;
    let reported = report
        .get("diagnostics")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if expected.is_empty() && out.code != 0 {
        return Err(format!(
            "the directory must check clean\n{}",
            out.describe()
        ));
    }
    let mut matched = vec![false; reported.len()];
    for want in &expected {
        let hit = reported
            .iter()
            .position(|got| diagnostic_matches(want, got));
        match hit {
            Some(i) => matched[i] = true,
            None => return Err(format!("not reported: {want}\n{}", out.describe())),
        }
    }
    // Own cases may pin every finding, warnings included (a rule that must not fire).
    let exact = dir.join("exact").is_file();
    for (got, used) in reported.iter().zip(matched) {
        if !used && (exact || got.get("severity").and_then(Value::as_str) == Some("error")) {
            return Err(format!("unexpected finding: {got}\n{}", out.describe()));
        }
    }
    Ok(())
}

fn diagnostic_matches(want: &Value, got: &Value) -> bool {
    let same = |key: &str| want.get(key).is_none_or(|w| got.get(key) == Some(w));
    let message = want.get("message").and_then(Value::as_str).unwrap_or("");
    let text = format!(
        "{}\n{}",
        got.get("summary").and_then(Value::as_str).unwrap_or(""),
        got.get("detail").and_then(Value::as_str).unwrap_or("")
    );
    // Own cases may pin the help line too: the text must be part of it.
    let help = want.get("help").and_then(Value::as_str).is_none_or(|w| {
        got.get("help")
            .and_then(Value::as_str)
            .is_some_and(|h| h.contains(w))
    });
    same("file")
        && same("line")
        && same("column")
        && same("severity")
        && same("code")
        && same("rule")
        && text.contains(message)
        && help
}

/// `functions/*.json` and `functions/invoke/*.json`: one case per vector.
pub fn functions(root: &Path, prefix: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for (dir, invoke) in [(root.to_path_buf(), false), (root.join("invoke"), true)] {
        let files = files_in(&dir)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "json"));
        for file in files {
            let Ok(Value::Array(vectors)) = read_json(&file) else {
                let id = format!("{prefix}{}", name_of(&file));
                let path = file.clone();
                cases.push(case(id, move || {
                    read_json(&path)
                        .map(|_| ())
                        .and(Err("not an array of vectors".into()))
                }));
                continue;
            };
            let sub = if invoke { "invoke/" } else { "" };
            for (i, vector) in vectors.into_iter().enumerate() {
                let id = format!("{prefix}{sub}{}#{}", name_of(&file), i + 1);
                cases.push(case(id, move || run_vector(&vector)));
            }
        }
    }
    cases
}

fn run_vector(vector: &Value) -> Result<(), String> {
    let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let expr = vector
        .get("expr")
        .and_then(Value::as_str)
        .unwrap_or("null")
        .to_string();
    let mut args = vec!["eval".to_string(), "--format".into(), "json".into()];
    if let Some(defs) = vector.get("defs").and_then(Value::as_str) {
        std::fs::write(temp.path().join("test.hcl"), defs).map_err(|e| e.to_string())?;
        args.extend(["--hcl".into(), ".".into()]);
    }
    args.push(expr);
    let out = fnhcl(temp.path(), &args, None)?;
    if let Some(error) = vector.get("error").and_then(Value::as_str) {
        return expect_substrings(&out, &[error.to_string()]);
    }
    if out.code != 0 {
        return Err(format!("eval failed\n{}", out.describe()));
    }
    let got: Value = serde_json::from_str(&out.stdout)
        .map_err(|e| format!("stdout is not JSON: {e}\n{}", out.describe()))?;
    let want = vector.get("want").cloned().unwrap_or(Value::Null);
    // A number outside f64 range is written as a decimal string in `want` (README).
    let number_text = matches!((&want, &got), (Value::String(w), Value::Number(g))
        if compare::numbers_equal(&serde_json::from_str(w).unwrap_or_else(|_| g.clone()), g)
            && serde_json::from_str::<serde_json::Number>(w).is_ok());
    if number_text || compare::equal(&want, &got) {
        Ok(())
    } else {
        Err(format!("want {want}\n got {got}"))
    }
}

/// `fmt/`: `<name>.in.hcl` → `<name>.out.hcl`, byte for byte, and stable, with plain
/// `hclwrite.Format` (`--normalize-literals=false`).
pub fn fmt(root: &Path, prefix: &str) -> Vec<Case> {
    fmt_pairs(root, prefix, false)
}

/// Our `fmt-normalize/` cases: the same pairs with function-hcl's default object-literal
/// rewrite.
pub fn fmt_normalized(root: &Path, prefix: &str) -> Vec<Case> {
    fmt_pairs(root, prefix, true)
}

fn fmt_pairs(root: &Path, prefix: &str, normalize: bool) -> Vec<Case> {
    files_in(root)
        .into_iter()
        .filter(|p| name_of(p).ends_with(".in.hcl"))
        .map(|input| {
            let name = name_of(&input).trim_end_matches(".in.hcl").to_string();
            let output = input.with_file_name(format!("{name}.out.hcl"));
            case(format!("{prefix}{name}"), move || {
                run_fmt_pair(&input, &output, normalize)
            })
        })
        .collect()
}

fn format_stdin(text: &[u8], normalize: bool) -> Result<Vec<u8>, String> {
    let mode = if normalize {
        "--normalize-literals=true"
    } else {
        "--normalize-literals=false"
    };
    let args = ["fmt", mode, "-"].map(String::from).to_vec();
    let dir = std::env::temp_dir();
    let out = fnhcl(&dir, &args, Some(text))?;
    if out.code != 0 {
        return Err(format!("fmt failed\n{}", out.describe()));
    }
    Ok(out.stdout.into_bytes())
}

fn run_fmt_pair(input: &Path, output: &Path, normalize: bool) -> Result<(), String> {
    let source = std::fs::read(input).map_err(|e| e.to_string())?;
    let want = std::fs::read(output).map_err(|e| e.to_string())?;
    let got = format_stdin(&source, normalize)?;
    if got != want {
        return Err(unified("expected", &want, "formatted", &got));
    }
    let again = format_stdin(&want, normalize)?;
    if again != want {
        return Err(unified("formatted once", &want, "formatted twice", &again));
    }
    Ok(())
}

fn unified(a_name: &str, a: &[u8], b_name: &str, b: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    similar::TextDiff::from_lines(&a, &b)
        .unified_diff()
        .header(a_name, b_name)
        .to_string()
}

/// `realworld/hcl/`: every file formats to its `.fmt`, idempotently; `realworld/fhcl/` cases
/// check clean.
pub fn realworld(root: &Path, prefix: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let files = files_in(&root.join("hcl")).into_iter().filter(|p| {
        let name = name_of(p);
        !name.ends_with(".fmt") && p.with_file_name(format!("{name}.fmt")).exists()
    });
    for file in files {
        let fmt = file.with_file_name(format!("{}.fmt", name_of(&file)));
        cases.push(case(format!("{prefix}hcl/{}", name_of(&file)), move || {
            run_fmt_pair(&file, &fmt, false)
        }));
    }
    for dir in subdirs(&root.join("fhcl")) {
        if !dir.join("hcl").is_dir() {
            continue;
        }
        cases.push(case(format!("{prefix}fhcl/{}", name_of(&dir)), move || {
            let args = ["check", "--format", "json", "hcl"]
                .map(String::from)
                .to_vec();
            let out = fnhcl(&dir, &args, None)?;
            if out.code == 0 {
                Ok(())
            } else {
                Err(out.describe())
            }
        }));
    }
    cases
}
