//! What a composition file could cover: its blocks, `condition`s, conditional expressions and
//! user functions, found in its syntax tree and keyed as the evaluator records them (the
//! start of a block's header, of a `condition` expression, of a conditional's condition).

use crate::source::{SourceFile, SourceMap};
use crate::syntax::ast::{Body, Expr, ExprKind};

/// The block types counted as rendered or not.
const BLOCKS: [&str; 7] = [
    "resource",
    "resources",
    "group",
    "composite",
    "context",
    "requirement",
    "ready",
];

/// The block types whose `condition` attribute decides whether they are processed.
const CONDITIONED: [&str; 4] = ["resource", "resources", "group", "requirement"];

/// One countable thing of a file: where it is (byte offset, 1-based line) and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The byte offset the evaluator records it by.
    pub at: u32,
    /// Its 1-based line.
    pub line: usize,
    /// What it is.
    pub kind: ItemKind,
}

/// The kinds of [`Item`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// A block: its type and labels (`resource bucket`, `composite status`, `group`).
    Block(String),
    /// The `condition` of a block (its type and labels).
    Condition(String),
    /// A conditional expression `c ? a : b`.
    Arms,
    /// A user function, by name.
    Function(String),
}

/// The items of a file's text, in source order; a file that does not parse has none (its
/// renders fail before anything is covered).
pub fn items(path: &str, text: &str) -> Vec<Item> {
    let mut map = SourceMap::new();
    let id = map.add(path, text);
    let file = map.get(id);
    let parsed = crate::syntax::parse_file(file);
    let mut out = Vec::new();
    walk_body(&parsed.body, None, file, &mut out);
    out.sort_by_key(|i| i.at);
    out
}

fn push(out: &mut Vec<Item>, file: &SourceFile, at: u32, kind: ItemKind) {
    let line = file.line_col(at as usize).line;
    out.push(Item { at, line, kind });
}

/// `parent`: the type of the block whose body this is, and its title.
fn walk_body(body: &Body, parent: Option<(&str, &str)>, file: &SourceFile, out: &mut Vec<Item>) {
    for attribute in &body.attributes {
        if attribute.name == "condition"
            && let Some((kind, title)) = parent
            && CONDITIONED.contains(&kind)
        {
            push(
                out,
                file,
                attribute.expr.span.start,
                ItemKind::Condition(title.to_string()),
            );
        }
        walk_expr(&attribute.expr, file, out);
    }
    for block in &body.blocks {
        let mut title = block.kind.clone();
        for label in &block.labels {
            title.push(' ');
            title.push_str(&label.value);
        }
        let at = block.kind_span.start;
        if BLOCKS.contains(&block.kind.as_str()) {
            push(out, file, at, ItemKind::Block(title.clone()));
        } else if block.kind == "function"
            && parent.is_none()
            && let Some(name) = block.labels.first()
        {
            push(out, file, at, ItemKind::Function(name.value.clone()));
        }
        walk_body(&block.body, Some((&block.kind, &title)), file, out);
    }
}

fn walk_expr(expr: &Expr, file: &SourceFile, out: &mut Vec<Item>) {
    if let ExprKind::Conditional { condition, .. } = &expr.kind {
        push(out, file, condition.span.start, ItemKind::Arms);
    }
    expr.for_each_child(|child| walk_expr(child, file, out));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_found_where_the_evaluator_records_it() {
        let text = "function f {\n  arg x {}\n  body = x ? 1 : 2\n}\n\
                    group {\n  condition = true\n  resource r {\n    body = {}\n    ready {\n      value = \"READY_TRUE\"\n    }\n  }\n}\n\
                    composite status {\n  body = { a = [for v in [1] : v > 0 ? \"y\" : \"n\"] }\n}\n";
        let got: Vec<(usize, ItemKind)> = items("main.hcl", text)
            .into_iter()
            .map(|i| (i.line, i.kind))
            .collect();
        assert_eq!(
            got,
            [
                (1, ItemKind::Function("f".into())),
                (3, ItemKind::Arms),
                (5, ItemKind::Block("group".into())),
                (6, ItemKind::Condition("group".into())),
                (7, ItemKind::Block("resource r".into())),
                (9, ItemKind::Block("ready".into())),
                (14, ItemKind::Block("composite status".into())),
                (15, ItemKind::Arms),
            ]
        );
    }

    #[test]
    fn a_file_that_does_not_parse_still_gives_what_it_can() {
        // The parser recovers; whatever it finds is counted, nothing panics.
        let _ = items("bad.hcl", "resource r {\n  body = \n");
    }
}
