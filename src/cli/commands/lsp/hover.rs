//! Hover and signature help.

use super::At;
use super::text::{range_of, word_at};
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};

/// Hover at the cursor.
pub(super) fn hover(at: &At) -> Option<Hover> {
    if let Some(found) = super::body::hover(at) {
        return Some(found);
    }
    let text = at.text();
    let (start, end) = word_at(text, at.offset);
    let word = &text[start..end];
    let called = text[end..].trim_start().starts_with('(');
    let mut sections = Vec::new();
    if called {
        sections.extend(builtin(word));
    } else if let Some(places) = super::navigate::places(at) {
        let definition = places.spans.0;
        if let Some(span) = definition {
            let def_text = at.comp.text(span.file);
            let line_start = def_text[..span.start as usize]
                .rfind('\n')
                .map_or(0, |i| i + 1);
            let line = def_text[line_start..].lines().next().unwrap_or_default();
            sections.push(format!(
                "```hcl\n{}\n```\n{} reference(s)",
                line.trim(),
                places.uses.len()
            ));
        }
    }
    sections.extend(super::live::hover(at));
    if sections.is_empty() {
        return None;
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: sections.join("\n\n---\n\n"),
        }),
        range: Some(range_of(text, start, end)),
    })
}

/// A built-in function's signature and description.
fn builtin(name: &str) -> Option<String> {
    let table = fnhcl::eval::functions::builtins();
    let f = table.get(name)?;
    let mut params: Vec<String> = f
        .params
        .iter()
        .map(|p| format!("{} {}", p.name, p.ty.friendly_name()))
        .collect();
    if let Some(v) = &f.var_param {
        params.push(format!("{}... {}", v.name, v.ty.friendly_name()));
    }
    let doc = super::docs::function_doc(name).unwrap_or("A Terraform 1.5.7 built-in function.");
    Some(format!(
        "```hcl\n{}({})\n```\n{doc}",
        f.name,
        params.join(", ")
    ))
}

/// Signature help inside a call's parentheses.
pub(super) fn signature_help(_at: &At) -> Option<lsp_types::SignatureHelp> {
    None
}
