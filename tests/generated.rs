//! The generated files (`completions/`, `man/`, `docs/rules.md`, `docs/codes.md`) must match the clap definition
//! and the rule registry. Run with `UPDATE_GENERATED=1` to rewrite them.

#[allow(dead_code, missing_docs)]
#[path = "../src/cli/args.rs"]
mod args;

use clap_complete::Shell;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every generated file: (path relative to the crate, contents).
fn generated() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::PowerShell,
        Shell::Elvish,
    ] {
        let mut cmd = args::command();
        let mut out = Vec::new();
        clap_complete::generate(shell, &mut cmd, "fnhcl", &mut out);
        let name = clap_complete::Generator::file_name(&shell, "fnhcl");
        files.push((Path::new("completions").join(name), out));
    }
    let mut cmd = args::command();
    cmd.build();
    man_pages(&cmd, "fnhcl", &mut files);
    files.push((
        Path::new("docs").join("rules.md"),
        fnhcl::check::reference::markdown().into_bytes(),
    ));
    files.push((
        Path::new("docs").join("codes.md"),
        fnhcl::check::reference::codes_markdown().into_bytes(),
    ));
    files
}

fn man_pages(cmd: &clap::Command, name: &str, files: &mut Vec<(PathBuf, Vec<u8>)>) {
    // clap takes a `&'static str` name; leaking a few short strings in a test is harmless.
    let page = cmd
        .clone()
        .name(&*Box::leak(name.to_string().into_boxed_str()));
    let mut out = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut out)
        .expect("rendering a man page into memory cannot fail");
    files.push((Path::new("man").join(format!("{name}.1")), out));
    for sub in cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        man_pages(sub, &format!("{name}-{}", sub.get_name()), files);
    }
}

#[test]
fn generated_files_are_up_to_date() {
    let update = std::env::var_os("UPDATE_GENERATED").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for (relative, contents) in generated() {
        let path = root().join(&relative);
        if std::fs::read(&path).ok().as_deref() == Some(contents.as_slice()) {
            continue;
        }
        if update {
            std::fs::create_dir_all(path.parent().expect("generated files live in a folder"))
                .expect("create the folder");
            std::fs::write(&path, &contents).expect("write the generated file");
        } else {
            stale.push(relative.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files: {}; run `UPDATE_GENERATED=1 cargo test --test generated`",
        stale.join(", ")
    );
}

#[test]
fn the_clap_definition_is_consistent() {
    args::command().debug_assert();
}
