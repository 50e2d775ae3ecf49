//! Inline suppressions: `# fnhcl-ignore: name[, name]` (also after `//` or inside `/* */`)
//! on the line before a finding or at the end of its line, and `# fnhcl-ignore-file: name`
//! anywhere in a file. Rules are named by kebab name or code; text after a name is a reason.
//! Findings of rules function-hcl itself enforces cannot be suppressed: naming one, or a rule
//! that does not exist, is reported (`L612 invalid-suppression`).

use super::rules::{self, Rule};
use crate::diagnostics::{Code, Diagnostic};
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::ParsedFile;
use crate::syntax::lex::{TokenKind, lex};
use std::collections::HashMap;

/// The suppressions of one file.
#[derive(Default)]
struct Suppressions {
    /// Rules suppressed in the whole file.
    file: Vec<Code>,
    /// Rules suppressed on a line (1-based).
    lines: HashMap<usize, Vec<Code>>,
}

/// Drops suppressed findings from `found` and adds a finding for every malformed directive.
pub fn apply(map: &SourceMap, files: &[ParsedFile], found: &mut Vec<Diagnostic>) {
    let mut by_file: HashMap<FileId, Suppressions> = HashMap::new();
    let mut problems = Vec::new();
    for parsed in files {
        let s = scan(map, parsed.file, &mut problems);
        if !s.file.is_empty() || !s.lines.is_empty() {
            by_file.insert(parsed.file, s);
        }
    }
    // A malformed directive is a finding too, which a file-wide directive may silence.
    found.extend(problems);
    if !by_file.is_empty() {
        found.retain(|d| !suppressed(map, &by_file, d));
    }
}

fn suppressed(map: &SourceMap, by_file: &HashMap<FileId, Suppressions>, d: &Diagnostic) -> bool {
    let Some(label) = &d.primary else {
        return false;
    };
    let Some(s) = by_file.get(&label.span.file) else {
        return false;
    };
    if !rules::for_code(d.code).is_some_and(|r| r.kind.configurable()) {
        return false;
    }
    let line = map
        .get(label.span.file)
        .line_col(label.span.range().start)
        .line;
    s.file.contains(&d.code)
        || s.lines
            .get(&line)
            .is_some_and(|codes| codes.contains(&d.code))
}

fn scan(map: &SourceMap, file: FileId, problems: &mut Vec<Diagnostic>) -> Suppressions {
    let source = map.get(file);
    let text = source.text();
    let mut out = Suppressions::default();
    if !text.contains("fnhcl-ignore") {
        return out;
    }
    for token in lex(text).iter().filter(|t| t.kind == TokenKind::Comment) {
        let (start, end) = (token.start as usize, token.end as usize);
        let body = comment_body(&text[start..end]);
        let (whole_file, names) = if let Some(rest) = body.strip_prefix("fnhcl-ignore-file:") {
            (true, rest)
        } else if let Some(rest) = body.strip_prefix("fnhcl-ignore:") {
            (false, rest)
        } else {
            continue;
        };
        let at = Span::new(file, start..end.min(start + body_len(&text[start..end])));
        let codes = names_to_codes(names, at, problems);
        if whole_file {
            out.file.extend(codes);
            continue;
        }
        let line = source.line_col(start).line;
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let alone = text[line_start..start].trim().is_empty();
        let target = if alone { line + 1 } else { line };
        out.lines.entry(target).or_default().extend(codes);
    }
    out
}

/// The text of a comment without its markers and surrounding spaces.
fn comment_body(comment: &str) -> &str {
    let inner = if let Some(rest) = comment.strip_prefix("/*") {
        rest.strip_suffix("*/").unwrap_or(rest)
    } else if let Some(rest) = comment.strip_prefix("//") {
        rest
    } else {
        comment.strip_prefix('#').unwrap_or(comment)
    };
    inner.trim()
}

/// The comment's length without its line ending (for the finding's range).
fn body_len(comment: &str) -> usize {
    comment.trim_end_matches(['\r', '\n']).len()
}

fn names_to_codes(names: &str, at: Span, problems: &mut Vec<Diagnostic>) -> Vec<Code> {
    let mut codes = Vec::new();
    for part in names.split(',') {
        let Some(name) = part.split_whitespace().next() else {
            continue;
        };
        match rules::find(name) {
            Some(rule) if rule.kind.configurable() => codes.push(rule.code),
            Some(rule) => problems.push(cannot_suppress(rule, at)),
            None => problems.push(
                Diagnostic::new(
                    Code::L612,
                    format!("unknown rule `{name}` in a suppression"),
                )
                .with_primary(at, None)
                .with_help("`fnhcl check --list-rules` lists every rule by code and name"),
            ),
        }
    }
    if codes.is_empty() && names.split(',').all(|p| p.trim().is_empty()) {
        problems.push(
            Diagnostic::new(Code::L612, "a suppression that names no rule")
                .with_primary(at, None)
                .with_help("name the rules: `# fnhcl-ignore: unused-local`"),
        );
    }
    codes
}

fn cannot_suppress(rule: &Rule, at: Span) -> Diagnostic {
    Diagnostic::new(
        Code::L612,
        format!(
            "`{}` ({}) cannot be suppressed: function-hcl rejects what it finds",
            rule.name(),
            rule.id()
        ),
    )
    .with_primary(at, None)
    .with_help("fix the problem instead; the function would fail on it")
}
