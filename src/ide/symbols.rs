//! Document symbols and folding ranges.

use super::At;
use super::cursor::line_of;
use super::types::{Fold, Symbol, SymbolKind, Token};
use crate::source::FileId;
use std::ops::Range;

/// The blocks, locals and user functions of one file, nested as written.
pub fn symbols(at: &At) -> Option<Vec<Symbol>> {
    use crate::syntax::model::Child;
    let file = at.file;
    let program = at.comp.program();
    let range = |r: &crate::syntax::ast::TextRange| r.start as usize..r.end as usize;
    fn make<'b>(
        child: &'b Child,
        range: &dyn Fn(&crate::syntax::ast::TextRange) -> Range<usize>,
    ) -> (
        String,
        SymbolKind,
        Range<usize>,
        Range<usize>,
        Option<&'b crate::syntax::model::GroupBody>,
    ) {
        match child {
            Child::Resource(r) => (
                format!("resource {}", r.name.value),
                SymbolKind::Object,
                range(&r.origin.span),
                range(&r.name.span),
                None,
            ),
            Child::Resources(c) => (
                format!("resources {}", c.name.value),
                SymbolKind::Array,
                range(&c.origin.span),
                range(&c.name.span),
                None,
            ),
            Child::Group(g) => (
                "group".into(),
                SymbolKind::Namespace,
                range(&g.origin.span),
                range(&g.origin.header),
                Some(&g.body),
            ),
            Child::Composite(c) => (
                format!("composite {}", c.object.value),
                SymbolKind::Struct,
                range(&c.origin.span),
                range(&c.origin.header),
                None,
            ),
            Child::Context(c) => (
                "context".into(),
                SymbolKind::Field,
                range(&c.origin.span),
                range(&c.origin.header),
                None,
            ),
            Child::Requirement(r) => (
                format!("requirement {}", r.name.value),
                SymbolKind::Interface,
                range(&r.origin.span),
                range(&r.name.span),
                None,
            ),
        }
    }
    fn walk(
        body: &crate::syntax::model::GroupBody,
        file: FileId,
        range: &dyn Fn(&crate::syntax::ast::TextRange) -> Range<usize>,
    ) -> Vec<Symbol> {
        body.children
            .iter()
            .filter(|child| child_file(child) == file)
            .map(|child| {
                let (name, kind, whole, selection, inner) = make(child, range);
                let children = inner.map(|b| walk(b, file, range));
                symbol(name, kind, whole, selection, children)
            })
            .collect()
    }
    fn child_file(child: &Child) -> FileId {
        match child {
            Child::Resource(r) => r.origin.file,
            Child::Resources(c) => c.origin.file,
            Child::Group(g) => g.origin.file,
            Child::Composite(c) => c.origin.file,
            Child::Context(c) => c.origin.file,
            Child::Requirement(r) => r.origin.file,
        }
    }
    let mut out: Vec<Symbol> = program
        .top
        .locals
        .items
        .iter()
        .filter(|local| local.value.file == file)
        .map(|local| {
            let name = range(&local.value.name_span);
            let whole = name.start..range(&local.value.expr.span).end;
            symbol(local.name.clone(), SymbolKind::Variable, whole, name, None)
        })
        .collect();
    out.extend(
        program
            .functions
            .iter()
            .filter(|f| f.origin.file == file)
            .map(|f| {
                symbol(
                    format!("function {}", f.name.value),
                    SymbolKind::Function,
                    range(&f.origin.span),
                    range(&f.name.span),
                    None,
                )
            }),
    );
    out.extend(walk(&program.top, file, &range));
    Some(out)
}

/// A symbol with its parts.
fn symbol(
    name: String,
    kind: SymbolKind,
    range: Range<usize>,
    selection: Range<usize>,
    children: Option<Vec<Symbol>>,
) -> Symbol {
    Symbol {
        name,
        kind,
        range,
        selection,
        children,
    }
}

/// Folding ranges: every block, every object, tuple, call or template that spans lines, and
/// runs of two or more comment lines. A range ends on the line before its closing brace so
/// that the brace stays visible.
pub fn folding(at: &At) -> Vec<Fold> {
    use crate::syntax::ast::{Body, Expr, ExprKind};
    let text = at.text();
    let line = |offset: u32| line_of(text, offset as usize);
    let mut out: Vec<Fold> = Vec::new();
    let mut push = |start: u32, end: u32, comment: bool| {
        if end > start {
            out.push(Fold {
                start_line: start,
                end_line: end,
                comment,
            });
        }
    };
    fn exprs(expr: &Expr, spans: &mut Vec<(u32, u32)>) {
        if matches!(
            expr.kind,
            ExprKind::Object(_)
                | ExprKind::Tuple(_)
                | ExprKind::Call { .. }
                | ExprKind::Template(_)
                | ExprKind::QuotedLiteral(_)
        ) {
            spans.push((expr.span.start, expr.span.end));
        }
        expr.for_each_child(|child| exprs(child, spans));
    }
    fn body(b: &Body, blocks: &mut Vec<(u32, u32)>, spans: &mut Vec<(u32, u32)>) {
        for attribute in &b.attributes {
            exprs(&attribute.expr, spans);
        }
        for block in &b.blocks {
            blocks.push((block.kind_span.start, block.close_brace.start));
            body(&block.body, blocks, spans);
        }
    }
    let parsed = at.comp.syntax(at.file);
    let mut blocks = Vec::new();
    let mut spans = Vec::new();
    body(parsed, &mut blocks, &mut spans);
    for (start, close) in blocks {
        push(line(start), line(close).saturating_sub(1), false);
    }
    for (start, end) in spans {
        // The closing bracket is the expression's last character.
        push(
            line(start),
            line(end.saturating_sub(1)).saturating_sub(1),
            false,
        );
    }
    let mut run: Option<(u32, u32)> = None;
    for (n, l) in text.lines().enumerate() {
        let n = n as u32;
        let t = l.trim_start();
        if t.starts_with('#') || t.starts_with("//") {
            run = Some(run.map_or((n, n), |(s, _)| (s, n)));
        } else if let Some((s, e)) = run.take() {
            push(s, e, true);
        }
    }
    if let Some((s, e)) = run {
        push(s, e, true);
    }
    out.sort_by_key(|r| (r.start_line, std::cmp::Reverse(r.end_line)));
    out.dedup_by(|a, b| a.start_line == b.start_line && a.end_line == b.end_line);
    out
}

/// The semantic token types, in the legend's order.
pub const TOKEN_TYPES: &[&str] = &[
    "keyword",   // block types
    "type",      // block labels
    "property",  // attribute names and object keys
    "variable",  // locals
    "parameter", // user-function arguments
    "namespace", // req, self, each
    "function",  // calls
];

/// The semantic token modifiers, in the legend's order.
pub const TOKEN_MODIFIERS: &[&str] = &["declaration", "defaultLibrary"];

/// Semantic tokens for one file: what a grammar cannot tell — block types and labels,
/// attribute names and object keys, locals and arguments where defined and read, `req`,
/// `self` and `each`, function calls (built-ins marked as the default library).
pub fn semantic_tokens(at: &At) -> Vec<Token> {
    use crate::analysis::resolve::{BindingKind, Resolution, Target};
    use crate::syntax::ast::{Body, Expr, ExprKind};
    let file = at.file;
    // (start, end, type, modifiers)
    let mut found: Vec<(u32, u32, u32, u32)> = Vec::new();
    fn expr(e: &Expr, out: &mut Vec<(u32, u32, u32, u32)>) {
        match &e.kind {
            ExprKind::Call {
                name, name_span, ..
            } => {
                let builtin = &**name == "invoke" || super::builtins().get(name).is_some();
                out.push((
                    name_span.start,
                    name_span.end,
                    6,
                    if builtin { 2 } else { 0 },
                ));
            }
            ExprKind::Object(items) => {
                for item in items {
                    if !item.force_non_literal
                        && let ExprKind::Traversal {
                            root_span, steps, ..
                        } = &item.key.kind
                        && steps.is_empty()
                    {
                        out.push((root_span.start, root_span.end, 2, 0));
                    }
                }
            }
            _ => {}
        }
        e.for_each_child(|child| expr(child, out));
    }
    fn body(b: &Body, in_locals: bool, out: &mut Vec<(u32, u32, u32, u32)>) {
        for attribute in &b.attributes {
            let (kind, modifiers) = if in_locals { (3, 1) } else { (2, 0) };
            out.push((
                attribute.name_span.start,
                attribute.name_span.end,
                kind,
                modifiers,
            ));
            expr(&attribute.expr, out);
        }
        for block in &b.blocks {
            out.push((block.kind_span.start, block.kind_span.end, 0, 0));
            for label in &block.labels {
                out.push((label.span.start, label.span.end, 1, 1));
            }
            body(&block.body, block.kind == "locals", out);
        }
    }
    body(at.comp.syntax(file), false, &mut found);
    let program = at.comp.program();
    let resolution = Resolution::of(&program.top, &program.functions);
    for u in &resolution.uses {
        if u.file != file {
            continue;
        }
        let kind = match u.target {
            Target::Binding(id) => match resolution.bindings[id].kind {
                BindingKind::Local => 3,
                BindingKind::Argument => 4,
            },
            Target::Req | Target::SelfObject | Target::Each => 5,
            Target::Undefined => continue,
        };
        found.push((u.var.root_span.start, u.var.root_span.end, kind, 0));
    }
    // An `arg NAME` label is a parameter's declaration.
    for b in &resolution.bindings {
        if b.kind == BindingKind::Argument && b.name_span.file == file {
            found.retain(|t| t.0 != b.name_span.start);
            found.push((b.name_span.start, b.name_span.end, 4, 1));
        }
    }
    found.sort_unstable();
    found.dedup_by_key(|t| t.0);
    found
        .into_iter()
        .map(|(start, end, kind, modifiers)| Token {
            start: start as usize,
            end: end as usize,
            kind,
            modifiers,
        })
        .collect()
}
