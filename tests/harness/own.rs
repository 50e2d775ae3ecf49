//! Fixture kinds of our own that the shared suites do not cover: txtar parsing and `package`.

use super::suites::{Case, dir_cases, fnhcl};
use serde_json::Value;
use std::path::Path;

/// `txtar/<case>/input.txtar` parsed must equal `expected.json`:
/// `{"comment": "...", "files": [["name", "data"], ...], "formatted": "..."}` where
/// `formatted` (optional) is `txtar::format` of the parsed archive.
pub fn txtar(root: &Path) -> Vec<Case> {
    dir_cases(root, "own/txtar/", "input.txtar", run_txtar)
}

fn run_txtar(dir: &Path) -> Result<(), String> {
    let input = std::fs::read_to_string(dir.join("input.txtar")).map_err(|e| e.to_string())?;
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("expected.json")).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    let archive = fnhcl::source::txtar::parse(&input);
    let files: Vec<Value> = archive
        .files
        .iter()
        .map(|f| serde_json::json!([f.name, f.data]))
        .collect();
    let got = serde_json::json!({ "comment": archive.comment, "files": files });
    for key in ["comment", "files"] {
        if expected.get(key) != got.get(key) {
            return Err(format!(
                "{key}: expected {}, got {}",
                expected[key], got[key]
            ));
        }
    }
    if let Some(formatted) = expected.get("formatted").and_then(Value::as_str) {
        let again = format_archive(&archive);
        if again != formatted {
            return Err(format!("formatted: expected {formatted:?}, got {again:?}"));
        }
        // Formatting is a fixed point: parse and format again gives the same text.
        let third = format_archive(&fnhcl::source::txtar::parse(&again));
        if third != again {
            return Err("format(parse(format(x))) differs from format(x)".into());
        }
    }
    Ok(())
}

fn format_archive(archive: &fnhcl::source::txtar::Archive) -> String {
    let files = archive.files.iter();
    fnhcl::source::txtar::format(
        &archive.comment,
        files.map(|f| (f.name.as_str(), f.data.as_str())),
    )
}

/// `package/<case>/`: runs `fnhcl package` with the arguments in `args` (one per line;
/// default `in`) inside the case directory; stdout must equal `expected.txtar`, or the run
/// must fail with every line of `expected-error.txt` in its output and the exit code in `exit`
/// (default 2). A case with an `into.yaml` (a Composition for `--into`) runs in a copy of its
/// directory: with `expected-into.yaml` the run must succeed and leave `into.yaml` equal to it
/// (stdout is not compared); with `expected-error.txt` it must leave `into.yaml` untouched.
pub fn package(root: &Path) -> Vec<Case> {
    dir_cases(root, "own/package/", "", run_package)
}

fn run_package(dir: &Path) -> Result<(), String> {
    let mut args = vec!["package".to_string()];
    match std::fs::read_to_string(dir.join("args")) {
        Ok(text) => args.extend(text.lines().filter(|l| !l.is_empty()).map(str::to_string)),
        Err(_) => args.push("in".into()),
    }
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let into = dir.join("into.yaml").is_file();
    let run_in = if into {
        copy_tree(dir, scratch.path()).map_err(|e| e.to_string())?;
        scratch.path()
    } else {
        dir
    };
    let out = fnhcl(run_in, &args, None)?;
    if into {
        return check_into(dir, run_in, &out);
    }
    let describe = || {
        format!(
            "exit {}\n--- stdout\n{}\n--- stderr\n{}",
            out.code, out.stdout, out.stderr
        )
    };
    if let Ok(wanted) = std::fs::read_to_string(dir.join("expected-error.txt")) {
        let want_code: i32 = std::fs::read_to_string(dir.join("exit"))
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(2);
        if out.code != want_code {
            return Err(format!("expected exit {want_code}\n{}", describe()));
        }
        let text = format!("{}{}", out.stdout, out.stderr);
        for line in wanted.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if !text.contains(line) {
                return Err(format!("output lacks {line:?}\n{}", describe()));
            }
        }
        return Ok(());
    }
    let expected =
        std::fs::read_to_string(dir.join("expected.txtar")).map_err(|e| e.to_string())?;
    if out.code != 0 || out.stdout != expected {
        return Err(format!("expected stdout {expected:?}\n{}", describe()));
    }
    Ok(())
}

/// Judges a `package --into` case run in the copy `ran`: see [`package`].
fn check_into(dir: &Path, ran: &Path, out: &super::suites::Output) -> Result<(), String> {
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let written = read(&ran.join("into.yaml"))?;
    let describe = || {
        format!(
            "exit {}\n--- stdout\n{}\n--- stderr\n{}\n--- into.yaml\n{written}",
            out.code, out.stdout, out.stderr
        )
    };
    if let Ok(wanted) = read(&dir.join("expected-error.txt")) {
        let want_code: i32 = read(&dir.join("exit"))
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(2);
        let text = format!("{}{}", out.stdout, out.stderr);
        if out.code != want_code {
            return Err(format!("expected exit {want_code}\n{}", describe()));
        }
        if let Some(line) = wanted
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !text.contains(l))
        {
            return Err(format!("output lacks {line:?}\n{}", describe()));
        }
        if written != read(&dir.join("into.yaml"))? {
            return Err(format!("a refused --into changed the file\n{}", describe()));
        }
        return Ok(());
    }
    let expected = read(&dir.join("expected-into.yaml"))?;
    if out.code != 0 || written != expected {
        return Err(format!("expected into.yaml {expected:?}\n{}", describe()));
    }
    Ok(())
}

/// Copies the files below `from` into `to` (symbolic links are not followed).
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        let kind = entry.file_type()?;
        if kind.is_dir() {
            std::fs::create_dir_all(&target)?;
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// `syntax/<case>/`: `check --format json input.hcl` must report exactly the errors of
/// `expected.txt`, each `range: summary; detail` in Go HCL's `Diagnostic.Error()` form (the
/// lines were checked against Go HCL with tests/tools/syntax_oracle.py), and exit 1.
pub fn syntax(root: &Path) -> Vec<Case> {
    dir_cases(root, "own/syntax/", "input.hcl", run_syntax)
}

fn run_syntax(dir: &Path) -> Result<(), String> {
    let args: Vec<String> = ["-q", "check", "--format", "json", "input.hcl"]
        .map(String::from)
        .to_vec();
    let out = fnhcl(dir, &args, None)?;
    let report: Value =
        serde_json::from_str(&out.stdout).map_err(|e| format!("{e}: {}", out.stdout))?;
    let got: Vec<String> = report["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        // The lints have their own cases (`check/`); these pin function-hcl's errors.
        .filter(|d| d["severity"] == "error")
        .map(go_line)
        .collect();
    let expected = std::fs::read_to_string(dir.join("expected.txt")).map_err(|e| e.to_string())?;
    let got: String = got.iter().map(|line| format!("{line}\n")).collect();
    if got != expected {
        return Err(format!("expected:\n{expected}\ngot:\n{got}"));
    }
    let code = if expected.is_empty() { 0 } else { 1 };
    if out.code != code {
        return Err(format!("expected exit {code}, got {}", out.code));
    }
    Ok(())
}

/// A JSON diagnostic as Go HCL prints one: `file:L,C-C2: summary; detail`.
fn go_line(d: &Value) -> String {
    let n = |k: &str| d[k].as_u64().unwrap_or(0);
    let file = d["file"].as_str().unwrap_or("");
    let range = if n("line") == n("endLine") {
        format!("{file}:{},{}-{}", n("line"), n("column"), n("endColumn"))
    } else {
        format!(
            "{file}:{},{}-{},{}",
            n("line"),
            n("column"),
            n("endLine"),
            n("endColumn")
        )
    };
    match d["detail"].as_str() {
        Some(detail) => format!("{range}: {}; {detail}", d["summary"].as_str().unwrap_or("")),
        None => format!("{range}: {}", d["summary"].as_str().unwrap_or("")),
    }
}

/// Every `.hcl` file under `roots` lexes losslessly: tokens and the spaces between them give
/// the text back, and only spaces and tabs (and a leading BOM) lie between tokens.
/// Every HCL text below `roots` (`.hcl`, `.tf`, and the realworld `.fmt` outputs).
fn hcl_texts(roots: &[std::path::PathBuf]) -> Vec<(std::path::PathBuf, String)> {
    let mut out = Vec::new();
    for root in roots {
        for entry in walkdir::WalkDir::new(root)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
        {
            let path = entry.path();
            let name = path.to_string_lossy();
            let is_hcl = name.ends_with(".hcl") || name.ends_with(".tf") || name.ends_with(".fmt");
            if !entry.file_type().is_file() || !is_hcl {
                continue;
            }
            if let Ok(text) = std::fs::read_to_string(path) {
                out.push((path.to_path_buf(), text));
            }
        }
    }
    out
}

pub fn lossless(roots: Vec<std::path::PathBuf>) -> Case {
    Case {
        id: "own/syntax/lossless-round-trip".into(),
        run: Box::new(move || {
            let texts = hcl_texts(&roots);
            if texts.is_empty() {
                return Err("no .hcl files found".into());
            }
            for (path, text) in &texts {
                check_lossless(text).map_err(|e| format!("{}: {e}", path.display()))?;
            }
            Ok(())
        }),
    }
}

/// The formatter's invariants on every HCL text we have: idempotent, only spaces change
/// (plain mode), and the syntax tree is the same once positions are ignored (both modes, for
/// texts that parse).
pub fn fmt_invariants(roots: Vec<std::path::PathBuf>) -> Case {
    Case {
        id: "own/fmt/invariants".into(),
        run: Box::new(move || {
            for (path, text) in hcl_texts(&roots) {
                check_fmt(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            }
            Ok(())
        }),
    }
}

fn check_fmt(text: &str) -> Result<(), String> {
    let plain = fnhcl::fmt::format(text);
    if fnhcl::fmt::format(&plain) != plain {
        return Err("plain formatting is not idempotent".into());
    }
    if !fnhcl::fmt::same_tokens(text, &plain) {
        return Err("plain formatting changed a token".into());
    }
    let mut map = fnhcl::source::SourceMap::new();
    let id = map.add("in.hcl", text.to_string());
    let Ok(normalized) = fnhcl::fmt::format_file(map.get(id), true) else {
        return Ok(()); // does not parse: function-hcl leaves it alone, so do we
    };
    let again_id = map.add("out.hcl", normalized.clone());
    match fnhcl::fmt::format_file(map.get(again_id), true) {
        Ok(again) if again == normalized => {}
        _ => return Err("normalised formatting is not idempotent".into()),
    }
    let before = shape(&map, id);
    let after = shape(&map, again_id);
    if before != after {
        return Err("formatting changed the syntax tree".into());
    }
    Ok(())
}

/// The parsed tree without positions.
fn shape(map: &fnhcl::source::SourceMap, id: fnhcl::source::FileId) -> String {
    static RANGE: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"\d+\.\.\d+").expect("a valid pattern"));
    let parsed = fnhcl::syntax::parse_file(map.get(id));
    RANGE
        .replace_all(&format!("{:?}", parsed.body), "_")
        .into_owned()
}

fn check_lossless(text: &str) -> Result<(), String> {
    let tokens = fnhcl::syntax::lex::lex(text);
    let mut rebuilt = String::with_capacity(text.len());
    let mut at = 0usize;
    for token in &tokens {
        let gap = &text[at..token.start as usize];
        let allowed = |c: char| c == ' ' || c == '\t' || (at == 0 && c == '\u{feff}');
        if !gap.chars().all(allowed) {
            return Err(format!(
                "unexpected text {gap:?} between tokens at byte {at}"
            ));
        }
        rebuilt.push_str(gap);
        rebuilt.push_str(token.text(text));
        at = token.end as usize;
    }
    if rebuilt != text {
        return Err("tokens do not give the text back".into());
    }
    Ok(())
}

/// `num/*.json`: `[{"a", "op", "b", "want"}]` — `a op b` with our `Num` must print exactly
/// `want` (the oracle's Go big.Float text), or fail where `"error": true`.
pub fn num(root: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    for file in super::suites::files_in(root) {
        let name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let Ok(Value::Array(vectors)) =
            serde_json::from_str::<Value>(&std::fs::read_to_string(&file).unwrap_or_default())
        else {
            continue;
        };
        for (i, v) in vectors.into_iter().enumerate() {
            cases.push(Case {
                id: format!("own/num/{name}#{}", i + 1),
                run: Box::new(move || run_num(&v)),
            });
        }
    }
    cases
}

fn run_num(v: &Value) -> Result<(), String> {
    use fnhcl::eval::num::Num;
    let parse = |key: &str| {
        let text = v[key].as_str().unwrap_or("");
        match text.strip_prefix('-') {
            Some(rest) => Num::parse(rest).map(|n| n.neg()),
            None => Num::parse(text),
        }
        .ok_or(format!("cannot parse {text}"))
    };
    let (a, b) = (parse("a")?, parse("b")?);
    let result = match v["op"].as_str() {
        Some("+") => a.add(&b),
        Some("-") => a.sub(&b),
        Some("*") => a.mul(&b),
        Some("/") => a.div(&b),
        other => return Err(format!("unknown op {other:?}")),
    };
    match (result, v.get("want").and_then(Value::as_str)) {
        (Ok(n), Some(want)) if n.to_string() == want => Ok(()),
        (Ok(n), Some(want)) => Err(format!(
            "{} {} {}: want {want}, got {n}",
            v["a"], v["op"], v["b"]
        )),
        (Err(_), None) => Ok(()),
        (Ok(n), None) => Err(format!("expected an error, got {n}")),
        (Err(e), Some(_)) => Err(format!("unexpected error {e}")),
    }
}
