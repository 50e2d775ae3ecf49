//! `expect_failures`: the render must fail, its errors must contain each message fragment,
//! and the failure must be inside each composition block the list names (`resource.bucket`,
//! `local.region`, …), judged by the spans of the function's diagnostics.

use super::scope;
use crate::diagnostics::Diagnostic;
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::ast::{Block, Body, TextRange};
use crate::syntax::testfile::{Expected, Run};

/// Checks a run's `expect_failures` against the render's errors (`None`: it succeeded).
pub(super) fn check(
    map: &SourceMap,
    file: FileId,
    run: &Run,
    errors: Option<&[Diagnostic]>,
    composition: &[FileId],
) -> Result<(), String> {
    let source = map.get(file);
    let place = |range: &TextRange| {
        let lc = source.line_col(range.start as usize);
        format!("{}:{}:{}", source.display_name(), lc.line, lc.column)
    };
    let Some(errors) = errors else {
        let first = run
            .attribute("expect_failures")
            .map_or(run.span.clone(), |a| a.name_span.clone());
        return Err(format!(
            "{}: the render succeeded, but expect_failures says it must fail",
            place(&first)
        ));
    };
    let mut unmet = Vec::new();
    for expected in &run.expect_failures {
        match expected {
            Expected::Message { text, span } => {
                if !errors.iter().any(|d| mentions(d, text)) {
                    unmet.push(format!("{}: no error contains {text:?}", place(span)));
                }
            }
            Expected::Block { kind, name, span } => {
                let blocks = find_blocks(map, composition, kind, name);
                let shown = if name.is_empty() {
                    kind.clone()
                } else {
                    format!("{kind}.{name}")
                };
                if blocks.is_empty() {
                    unmet.push(format!("{}: the composition has no {shown}", place(span)));
                } else if !errors.iter().any(|d| inside(map, d, &blocks)) {
                    unmet.push(format!(
                        "{}: the render failed, but not in {shown}",
                        place(span)
                    ));
                }
            }
        }
    }
    if unmet.is_empty() {
        return Ok(());
    }
    let failed: Vec<String> = errors.iter().map(|d| scope::text(map, d)).collect();
    Err(format!(
        "{}\nthe render failed with:\n{}",
        unmet.join("\n"),
        failed
            .iter()
            .map(|l| format!("  {}", l.replace('\n', "\n  ")))
            .collect::<Vec<_>>()
            .join("\n")
    ))
}

/// Whether a diagnostic's text (summary, detail) contains `fragment`.
fn mentions(d: &Diagnostic, fragment: &str) -> bool {
    d.summary.contains(fragment) || d.detail.as_deref().is_some_and(|t| t.contains(fragment))
}

/// Whether a diagnostic points inside one of `blocks` (files compared by name: a composition
/// may be in the map more than once).
fn inside(map: &SourceMap, d: &Diagnostic, blocks: &[Span]) -> bool {
    let same = |a: FileId, b: FileId| a == b || map.get(a).name() == map.get(b).name();
    let spans = d.primary.iter().map(|l| l.span).chain(d.expression);
    spans.into_iter().any(|s| {
        blocks
            .iter()
            .any(|b| same(b.file, s.file) && b.start <= s.start && s.end <= b.end)
    })
}

/// The spans of the composition's blocks of `kind` named `name` (a `local` is its definition).
fn find_blocks(map: &SourceMap, files: &[FileId], kind: &str, name: &str) -> Vec<Span> {
    let mut out = Vec::new();
    for &file in files {
        let parsed = crate::syntax::parse_file(map.get(file));
        walk(&parsed.body, file, kind, name, &mut out);
    }
    out
}

fn walk(body: &Body, file: FileId, kind: &str, name: &str, out: &mut Vec<Span>) {
    for block in &body.blocks {
        if kind == "local" && block.kind == "locals" {
            out.extend(
                block
                    .body
                    .attributes
                    .iter()
                    .filter(|a| a.name == name)
                    .map(|a| Span::of(file, &a.span)),
            );
        } else if matches(block, kind, name) {
            out.push(Span::of(file, &block.span()));
        }
        walk(&block.body, file, kind, name, out);
    }
}

fn matches(block: &Block, kind: &str, name: &str) -> bool {
    block.kind == kind && (name.is_empty() || block.labels.first().is_some_and(|l| l.value == name))
}
