//! The house rules, read from the source: a library module imports only from layers below its
//! own ([`RANKS`]), sibling modules never import each other in a circle, and no command of the
//! binary imports another command. Imports are every `crate::`, `super::` and `self::` path in
//! code (comments, strings and test modules left out), `use` groups included.
//!
//! A new top-level module must be given a rank here; see docs/architecture.md.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The library's layers, lowest first: a module may import only from a lower rank.
const RANKS: &[(&str, u32)] = &[
    ("source", 0),
    ("re2", 0),
    ("gostd", 0),
    ("strfmt", 1),
    ("cel", 2),
    ("diagnostics", 1),
    ("syntax", 2),
    ("analysis", 3),
    ("schema", 3),
    ("eval", 4),
    ("fmt", 5),
    ("pt", 5),
    ("render", 6),
    ("check", 6),
    ("diff", 7),
    ("grpc", 7),
    ("golden", 8),
    ("package", 7),
    ("ide", 9),
    ("scaffold", 9),
    ("convert", 9),
    ("lsp", 10),
];

type Module = Vec<String>;

/// One source file: its module path and its code.
struct File {
    path: String,
    module: Module,
    code: String,
}

/// The module path of a file under `src/` (`eval/expr/mod.rs` is `eval::expr`).
fn module_of(relative: &Path) -> Module {
    let mut parts: Vec<String> = relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Whether a file is test code only.
fn is_test_file(relative: &Path) -> bool {
    relative
        .components()
        .any(|c| c.as_os_str() == "tests" || c.as_os_str() == "testing.rs")
        || relative.file_name().is_some_and(|n| n == "tests.rs")
}

/// `text` without comments, string and character literals (replaced by spaces), cut where its
/// test module starts (`#[cfg(test)]` then `mod`; test modules close a file by convention).
fn code_of(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(text.len(), |n| i + n);
            i = end;
        } else if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(text.len(), |n| i + n + 2);
            i = end;
            out.push(' ');
        } else if rest.starts_with("r#\"") || rest.starts_with("r\"") {
            let hashes = rest[1..].chars().take_while(|c| *c == '#').count();
            let close = format!("\"{}", "#".repeat(hashes));
            let body = 1 + hashes + 1;
            let end = rest[body..]
                .find(&close)
                .map_or(text.len(), |n| i + body + n + close.len());
            i = end;
            out.push_str("\"\"");
        } else if bytes[i] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            i = (j + 1).min(bytes.len());
            out.push_str("\"\"");
        } else if bytes[i] == b'\'' && char_literal_len(&text[i..]).is_some() {
            i += char_literal_len(&text[i..]).unwrap_or(1);
            out.push_str("' '");
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    let mut cut = out.len();
    let mut search = 0;
    while let Some(found) = out[search..].find("#[cfg(test)]") {
        let at = search + found;
        let after = out[at + "#[cfg(test)]".len()..].trim_start();
        if after.starts_with("mod ") || after.starts_with("pub mod ") {
            cut = at;
            break;
        }
        search = at + 1;
    }
    out.truncate(cut);
    out
}

/// The length of a character literal at the start of `text` (`'a'`, `'\n'`, `'{'`), `None`
/// for a lifetime.
fn char_literal_len(text: &str) -> Option<usize> {
    let mut chars = text.char_indices().skip(1);
    let (_, first) = chars.next()?;
    if first == '\\' {
        let close = text[2..].find('\'')?;
        return Some(2 + close + 1);
    }
    let (at, second) = chars.next()?;
    (second == '\'').then_some(at + 1)
}

/// Every path a piece of code names from `crate`, `super` or `self`, as segments from that
/// root word (`use crate::a::{b, c::d}` gives `crate::a::b` and `crate::a::c::d`).
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let tokens = tokenize(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let word = tokens[i].as_str();
        let starts = matches!(word, "crate" | "super" | "self")
            && tokens.get(i + 1).map(String::as_str) == Some("::")
            && (i == 0 || tokens[i - 1] != "::");
        if starts {
            i = tree(&tokens, i, Vec::new(), &mut out);
        } else {
            i += 1;
        }
    }
    out
}

/// Identifiers, `::` and single punctuation.
fn tokenize(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut end = at + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if d.is_alphanumeric() || d == '_' {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            out.push(code[at..end].to_string());
        } else if c == ':' && chars.peek().map(|p| p.1) == Some(':') {
            chars.next();
            out.push("::".into());
        } else if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    out
}

/// Reads one use-tree from `tokens[i]` with `prefix` before it; returns where it ends.
fn tree(
    tokens: &[String],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    loop {
        let Some(token) = tokens.get(i) else {
            out.push(prefix);
            return i;
        };
        if token == "{" {
            i += 1;
            loop {
                match tokens.get(i).map(String::as_str) {
                    None => return i,
                    Some("}") => return i + 1,
                    Some(",") => i += 1,
                    Some(_) => i = tree(tokens, i, prefix.clone(), out),
                }
            }
        }
        let is_word = token.chars().all(|c| c.is_alphanumeric() || c == '_');
        if !is_word {
            out.push(prefix);
            return i;
        }
        prefix.push(token.clone());
        i += 1;
        if tokens.get(i).map(String::as_str) == Some("::") {
            i += 1;
        } else {
            out.push(prefix);
            return i;
        }
    }
}

/// The module a path names from `from`: the longest known module it starts with.
fn resolve(from: &Module, path: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
    let mut base: Module = Vec::new();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => rest = &path[1..],
        Some("self") => {
            base = from.clone();
            rest = &path[1..];
        }
        Some("super") => {
            base = from.clone();
            while rest.first().map(String::as_str) == Some("super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    let full: Module = base.into_iter().chain(rest.iter().cloned()).collect();
    (1..=full.len())
        .rev()
        .map(|n| full[..n].to_vec())
        .find(|m| modules.contains(m))
}

/// Every import edge between modules, with a file that makes it.
fn edges(files: &[File]) -> BTreeMap<(Module, Module), String> {
    let modules: BTreeSet<Module> = files.iter().map(|f| f.module.clone()).collect();
    let mut out = BTreeMap::new();
    for file in files {
        for path in paths_in(&file.code) {
            if let Some(to) = resolve(&file.module, &path, &modules)
                && to != file.module
            {
                out.entry((file.module.clone(), to))
                    .or_insert_with(|| file.path.clone());
            }
        }
    }
    out
}

/// What breaks the rules in `files` (`library`: whether they are the library's, which have
/// ranks; the binary's commands may not import each other).
fn violations(files: &[File], library: bool) -> Vec<String> {
    let edges = edges(files);
    let mut problems = Vec::new();
    let rank = |m: &str| RANKS.iter().find(|(n, _)| *n == m).map(|(_, r)| *r);
    // Sibling graphs: parent -> (child -> children it imports).
    let mut siblings: BTreeMap<Module, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for ((from, to), file) in &edges {
        let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
        if common == from.len() || common == to.len() {
            continue; // an ancestor and its descendant
        }
        if library && common == 0 {
            match (rank(&from[0]), rank(&to[0])) {
                (Some(a), Some(b)) if b < a => {}
                (Some(_), Some(_)) => problems.push(format!(
                    "{file}: `{}` (layer {}) imports `{}` (layer {}), which is not below it",
                    from.join("::"),
                    rank(&from[0]).unwrap_or(0),
                    to.join("::"),
                    rank(&to[0]).unwrap_or(0),
                )),
                _ => problems.push(format!(
                    "{file}: `{}` or `{}` has no layer: give every top-level module a rank in tests/layers.rs",
                    from[0], to[0]
                )),
            }
        }
        if !library && from.starts_with(&["cli".into(), "commands".into()]) && common == 2 {
            problems.push(format!(
                "{file}: the command `{}` imports the command `{}`: move what they share into the library",
                from[2], to[2]
            ));
        }
        siblings
            .entry(from[..common].to_vec())
            .or_default()
            .entry(from[common].clone())
            .or_default()
            .insert(to[common].clone());
    }
    for (parent, graph) in &siblings {
        for circle in circles(graph) {
            let at = if parent.is_empty() {
                "the crate".to_string()
            } else {
                format!("`{}`", parent.join("::"))
            };
            problems.push(format!(
                "a circle of imports in {at}: {}",
                circle.join(" -> ")
            ));
        }
    }
    problems
}

/// The circles of a directed graph: each strongly connected set of two or more nodes, sorted.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = graph.keys().chain(graph.values().flatten()).collect();
    let reach = |start: &String| {
        let mut seen: BTreeSet<&String> = BTreeSet::new();
        let mut stack = vec![start];
        while let Some(n) = stack.pop() {
            for next in graph.get(n).into_iter().flatten() {
                if seen.insert(next) {
                    stack.push(next);
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&String, BTreeSet<&String>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for n in &nodes {
        let mut set: Vec<String> = nodes
            .iter()
            .filter(|m| reachable[*n].contains(*m) && reachable[*m].contains(*n))
            .map(|m| (*m).clone())
            .collect();
        set.sort();
        if set.len() > 1 && !out.contains(&set) {
            out.push(set);
        }
    }
    out
}

/// The source files under `dir` (relative paths from `src`), test files left out.
fn read_tree(src: &Path, dir: &Path, out: &mut Vec<File>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_tree(src, &path, out);
            continue;
        }
        let relative = path.strip_prefix(src).unwrap();
        if path.extension().is_none_or(|e| e != "rs") || is_test_file(relative) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        out.push(File {
            path: format!("src/{}", relative.display()),
            module: module_of(relative),
            code: code_of(&text),
        });
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_library_imports_only_downwards_and_in_no_circle() {
    let src = src();
    let mut files = Vec::new();
    read_tree(&src, &src, &mut files);
    files.retain(|f| f.module.first().is_none_or(|m| m != "cli") && f.path != "src/main.rs");
    assert!(files.len() > 100, "the library's files were not found");
    let problems = violations(&files, true);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_command_imports_another_and_the_binary_has_no_circle() {
    let src = src();
    let mut files = Vec::new();
    read_tree(&src, &src.join("cli"), &mut files);
    assert!(files.len() > 10, "the binary's files were not found");
    let problems = violations(&files, false);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_library_says_it_never_prints_or_exits() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    assert!(
        lib.contains("#![warn(clippy::print_stdout, clippy::print_stderr, clippy::exit)]"),
        "lib.rs must keep the lint that keeps printing and exiting out of the library"
    );
}

/// The checker itself finds what it must: an upward import, a circle through a `use` group
/// and `super`, a command importing a command; and it ignores comments, strings and tests.
#[test]
fn the_checker_finds_upward_imports_circles_and_commands_importing_commands() {
    let file = |path: &str, text: &str| File {
        path: path.to_string(),
        module: module_of(Path::new(path)),
        code: code_of(text),
    };
    let library = [
        file(
            "source/mod.rs",
            "//! [`crate::eval`] in a doc\nlet s = \"crate::eval::x\";\n",
        ),
        file("eval/mod.rs", "use crate::source::{self, Span};\n"),
        file("eval/a.rs", "use super::{b::Thing, c};\n"),
        file("eval/b.rs", "pub fn f() { super::a::g() }\n"),
        file(
            "eval/c.rs",
            "#[cfg(test)]\nmod tests { use super::super::a; }\n",
        ),
        file("syntax/mod.rs", "fn f() { crate::eval::run(); }\n"),
    ];
    let problems = violations(&library, true);
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(problems[0].starts_with("syntax/mod.rs: `syntax` (layer 2) imports `eval` (layer 4)"));
    assert_eq!(problems[1], "a circle of imports in `eval`: a -> b");
    let binary = [
        file("cli/commands/render.rs", "use crate::cli::Context;\n"),
        file("cli/commands/test.rs", "use super::render::documents;\n"),
        file("cli/mod.rs", "mod commands;\n"),
    ];
    let problems = violations(&binary, false);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].contains("the command `test` imports the command `render`"));
}
