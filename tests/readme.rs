//! Every command shown in `README.md`, `examples/README.md` and the pages of `docs/` runs as
//! shown.
//!
//! The pages are found by listing `docs/` (sorted), so a new page is covered without code. The
//! ```` ```sh ```` blocks are read; each command (continuation lines joined) runs in `sh`, a
//! block's commands in order in one copy of the repository's `examples/`, with `fnhcl` first on
//! `PATH` and a fresh `HOME` and `TMPDIR` per block (a new user's machine). It must exit 0, and
//! the `# ` comment lines right after it (no blank line between) are its expected output,
//! stdout then stderr, line for line.
//!
//! Commands that build or benchmark fnhcl itself (`cargo …`, `python3 …`) are not run here:
//! `cargo test --locked` is this suite, and `tests/tools/fresh_clone.sh` runs the install and
//! the benchmarks on a fresh clone. They must be listed in [`DEVELOPMENT`], so a new one is
//! not silently skipped. `FNHCL_BIN` runs another binary (the installed one).
//!
//! The `hcl` blocks of `docs/terraform.md` are whole programs: each must `fnhcl check` with no
//! finding and be formatted.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Commands run by `tests/tools/fresh_clone.sh` (or, for the test command, by CI itself).
const DEVELOPMENT: &[&str] = &[
    "cargo install --locked --path .",
    "cargo test --locked",
    "cargo bench --bench parse",
    "cargo bench --bench parse -- --write-input /tmp/bench.hcl && python3 benches/go_parse.py /tmp/bench.hcl",
];

struct Shown {
    file: String,
    block: usize,
    line: usize,
    command: String,
    expected: Vec<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The documents whose commands run, relative to the root: the READMEs, then `docs/*.md`.
fn documents() -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    pages.sort();
    let mut all = vec!["README.md".to_string(), "examples/README.md".to_string()];
    all.extend(pages);
    all
}

/// The commands of a markdown file's `sh` blocks with their expected output.
fn commands(file: String) -> Vec<Shown> {
    let text = std::fs::read_to_string(root().join(&file)).expect("read the document");
    let mut out: Vec<Shown> = Vec::new();
    let mut in_block = false;
    let mut block = 0;
    let mut pending: Option<Shown> = None;
    let mut collecting = false;
    for (i, line) in text.lines().enumerate() {
        if !in_block {
            in_block = line.trim_end() == "```sh";
            block += usize::from(in_block);
            continue;
        }
        if line.starts_with("```") {
            in_block = false;
            out.extend(pending.take());
            collecting = false;
            continue;
        }
        if let Some(shown) = pending.as_mut().filter(|s| s.command.ends_with('\\')) {
            shown.command.pop();
            shown.command.push(' ');
            shown.command.push_str(line.trim());
            continue;
        }
        if line.trim().is_empty() {
            collecting = false;
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            if collecting && let Some(shown) = pending.as_mut() {
                shown
                    .expected
                    .push(comment.strip_prefix(' ').unwrap_or(comment).to_string());
            }
            continue;
        }
        out.extend(pending.take());
        pending = Some(Shown {
            file: file.clone(),
            block,
            line: i + 1,
            command: line.trim().to_string(),
            expected: Vec::new(),
        });
        collecting = true;
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk examples");
        let target = to.join(entry.path().strip_prefix(from).expect("below the root"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("create folder");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
}

#[test]
fn every_readme_command_runs_as_shown() {
    let binary = std::env::var_os("FNHCL_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_fnhcl")));
    let bin_dir = tempfile::tempdir().expect("temp dir");
    let link = bin_dir.path().join("fnhcl");
    std::fs::copy(&binary, &link).expect("copy the binary");
    let path = format!(
        "{}:{}",
        bin_dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );

    let shown: Vec<Shown> = documents().into_iter().flat_map(commands).collect();
    assert!(
        shown.iter().filter(|s| runs_fnhcl(&s.command)).count() >= 8,
        "the documents' commands were not found"
    );
    assert!(
        shown.iter().any(|s| s.file.starts_with("docs/")),
        "no command of docs/ was found"
    );
    let mut failures = Vec::new();
    let mut work: Option<((&str, usize), tempfile::TempDir)> = None;
    for s in &shown {
        if !runs_fnhcl(&s.command) && !s.command.starts_with("mkdir ") {
            if !DEVELOPMENT.contains(&s.command.as_str()) {
                failures.push(format!(
                    "{}:{}: `{}` is neither run here nor listed in DEVELOPMENT",
                    s.file, s.line, s.command
                ));
            }
            continue;
        }
        // Each block gets its own copy: `package --into` edits a Composition.
        if work
            .as_ref()
            .is_none_or(|(key, _)| *key != (s.file.as_str(), s.block))
        {
            let dir = tempfile::tempdir().expect("temp dir");
            copy_tree(&root().join("examples"), &dir.path().join("examples"));
            std::fs::create_dir_all(dir.path().join("home")).expect("home");
            std::fs::create_dir_all(dir.path().join("tmp")).expect("tmp");
            work = Some(((s.file.as_str(), s.block), dir));
        }
        let work = &work.as_ref().expect("just made").1;
        let home = work.path().join("home");
        let tmp = work.path().join("tmp");
        let out = Command::new("sh")
            .arg("-c")
            .arg(&s.command)
            .current_dir(work.path())
            .env("PATH", &path)
            .env("HOME", &home)
            .env("TMPDIR", &tmp)
            .env("NO_COLOR", "1")
            .env("COLUMNS", "100")
            .output()
            .expect("sh runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() {
            failures.push(format!(
                "{}:{}: `{}` exited {:?}\n{stdout}{stderr}",
                s.file,
                s.line,
                s.command,
                out.status.code()
            ));
            continue;
        }
        if !s.expected.is_empty() {
            let got: Vec<&str> = stdout.lines().chain(stderr.lines()).collect();
            if got != s.expected {
                failures.push(format!(
                    "{}:{}: `{}` printed\n{}\nwhere the document shows\n{}",
                    s.file,
                    s.line,
                    s.command,
                    got.join("\n"),
                    s.expected.join("\n")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Files the docs point at exist: markdown links to local files, and `NAME.md` mentions; a
/// link to a heading of a markdown file (`check.md#rules`, `#mixed-pipelines`) names one it has.
#[test]
fn documents_point_at_files_that_exist() {
    let mut missing = Vec::new();
    let mut docs: Vec<PathBuf> = vec![
        root().join("README.md"),
        root().join("examples/README.md"),
        root().join("tests/known-failures.txt"),
    ];
    docs.extend(
        std::fs::read_dir(root().join("docs"))
            .expect("docs/")
            .map(|e| e.expect("entry").path()),
    );
    let link = regex::Regex::new(r"\]\(([^)#:]+)(#[^)]*)?\)").expect("regex");
    let here = regex::Regex::new(r"\]\(#([^)]*)\)").expect("regex");
    let named = regex::Regex::new(r"\b([A-Z][A-Z_-]+\.md)\b").expect("regex");
    for doc in docs {
        let text = std::fs::read_to_string(&doc).expect("read doc");
        let dir = doc.parent().expect("in a folder");
        for cap in link.captures_iter(&text) {
            let target = &cap[1];
            let path = dir.join(target);
            if !path.exists() {
                missing.push(format!("{}: link to {target}", doc.display()));
                continue;
            }
            let anchor = cap.get(2).map(|m| &m.as_str()[1..]);
            if let Some(anchor) = anchor.filter(|_| target.ends_with(".md")) {
                let linked = std::fs::read_to_string(&path).expect("read linked doc");
                if !anchors(&linked).iter().any(|a| a == anchor) {
                    missing.push(format!("{}: link to {target}#{anchor}", doc.display()));
                }
            }
        }
        if doc.extension().is_some_and(|e| e == "md") {
            let own = anchors(&text);
            for cap in here.captures_iter(&text) {
                if !own.iter().any(|a| *a == cap[1]) {
                    missing.push(format!("{}: link to #{}", doc.display(), &cap[1]));
                }
            }
        }
        for cap in named.captures_iter(&text) {
            let name = &cap[1];
            if !root().join(name).exists() && !dir.join(name).exists() {
                missing.push(format!("{}: mentions {name}", doc.display()));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// The anchors GitHub gives a markdown text's headings (outside code blocks): lower case, only
/// letters, digits, `-` and `_` kept, spaces made `-`, and `-1`, `-2`… after repeats.
fn anchors(text: &str) -> Vec<String> {
    let mut bases: Vec<String> = Vec::new();
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let Some(title) = line.strip_prefix('#').filter(|_| !fenced) else {
            continue;
        };
        let Some(title) = title.trim_start_matches('#').strip_prefix(' ') else {
            continue;
        };
        let base: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let repeats = bases.iter().filter(|b| **b == base).count();
        out.push(match repeats {
            0 => base.clone(),
            n => format!("{base}-{n}"),
        });
        bases.push(base);
    }
    out
}

/// Whether a shown command runs fnhcl: `fnhcl …`, possibly after environment assignments
/// (`SOURCE_DATE_EPOCH=1 fnhcl …`), which `sh` applies.
fn runs_fnhcl(command: &str) -> bool {
    let mut rest = command;
    while let Some((word, after)) = rest.split_once(' ') {
        let is_assignment = word.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
        });
        if !is_assignment {
            break;
        }
        rest = after;
    }
    rest.starts_with("fnhcl ")
}

/// Every `hcl` block of docs/terraform.md (each a whole program) checks with no finding at
/// all and is formatted as `fnhcl fmt` formats it: the page's promise that its snippets run.
#[test]
fn the_terraform_page_snippets_check_clean() {
    let binary = std::env::var_os("FNHCL_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_fnhcl")));
    let text = std::fs::read_to_string(root().join("docs/terraform.md")).expect("the page");
    let mut snippets = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line) {
            (None, "```hcl") => current = Some(String::new()),
            (Some(_), "```") => snippets.extend(current.take()),
            (Some(snippet), _) => {
                snippet.push_str(line);
                snippet.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(snippets.len() >= 8, "the page's hcl blocks were not found");
    for (i, snippet) in snippets.iter().enumerate() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("main.hcl"), snippet).expect("write the snippet");
        for args in [&["check", "."][..], &["fmt", "--check", "main.hcl"][..]] {
            let out = Command::new(&binary)
                .args(args)
                .current_dir(dir.path())
                .env("NO_COLOR", "1")
                .output()
                .expect("run fnhcl");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success()
                    && (args[0] != "check" || stderr.contains("0 errors, 0 warnings")),
                "snippet {} of docs/terraform.md: `fnhcl {}`\n{snippet}\n{}{stderr}",
                i + 1,
                args.join(" "),
                String::from_utf8_lossy(&out.stdout)
            );
        }
    }
}
