//! Completion.

use super::At;
use lsp_types::{CompletionItem, CompletionItemKind, InsertTextFormat};

fn item(label: String, kind: CompletionItemKind, snippet: Option<String>) -> CompletionItem {
    CompletionItem {
        label,
        kind: Some(kind),
        insert_text_format: snippet.as_ref().map(|_| InsertTextFormat::SNIPPET),
        insert_text: snippet,
        ..CompletionItem::default()
    }
}

/// Completion at the cursor: inside a body with a schema, its fields; inside a block, the
/// attributes and blocks its schema allows; in an expression, the names in scope.
pub(super) fn complete(at: &At) -> Option<Vec<CompletionItem>> {
    if let Some(items) = super::body::complete(at) {
        return Some(items);
    }
    let text = at.text();
    let offset = at.offset;
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    if before.trim_end().ends_with("req.") || before.ends_with("req.") {
        return Some(
            [
                "composite",
                "composite_connection",
                "resource",
                "connection",
                "resources",
                "connections",
                "context",
                "extra_resources",
            ]
            .into_iter()
            .map(|m| item(m.into(), CompletionItemKind::FIELD, None))
            .collect(),
        );
    }
    if before.contains('=') || before.trim_start().starts_with('(') {
        let mut items: Vec<CompletionItem> = ["req", "self", "each"]
            .into_iter()
            .map(|v| item(v.into(), CompletionItemKind::VARIABLE, None))
            .collect();
        let program = at.comp.program();
        let resolution = fnhcl::analysis::resolve::Resolution::of(&program.top, &program.functions);
        let mut names: Vec<&str> = resolution.bindings.iter().map(|b| b.name).collect();
        names.sort_unstable();
        names.dedup();
        items.extend(
            names
                .into_iter()
                .map(|n| item(n.into(), CompletionItemKind::VARIABLE, None)),
        );
        let table = fnhcl::eval::functions::builtins();
        items.extend(table.names().map(|f| {
            item(
                f.into(),
                CompletionItemKind::FUNCTION,
                Some(format!("{f}($1)")),
            )
        }));
        return Some(items);
    }
    // The innermost block around the cursor: its body's schema.
    let parsed = fnhcl::syntax::parse_file(at.comp.map.get(at.file));
    let mut kind: Option<String> = None;
    let mut body = &parsed.body;
    while let Some(block) = body
        .blocks
        .iter()
        .find(|b| b.open_brace.end as usize <= offset && offset <= b.close_brace.start as usize)
    {
        kind = Some(block.kind.clone());
        body = &block.body;
    }
    let schema = match &kind {
        None => Some(&fnhcl::syntax::schema::TOP_LEVEL),
        Some(k) => fnhcl::syntax::schema::schema_for(k).flatten(),
    }?;
    let mut items: Vec<CompletionItem> = schema
        .attributes
        .iter()
        .map(|(name, _)| {
            item(
                (*name).into(),
                CompletionItemKind::PROPERTY,
                Some(format!("{name} = $0")),
            )
        })
        .collect();
    items.extend(schema.blocks.iter().map(|b| {
        let labels: String = b
            .labels
            .iter()
            .enumerate()
            .map(|(i, l)| format!(" ${{{}:{l}}}", i + 1))
            .collect();
        item(
            b.kind.into(),
            CompletionItemKind::KEYWORD,
            Some(format!("{}{labels} {{\n  $0\n}}", b.kind)),
        )
    }));
    Some(items)
}
