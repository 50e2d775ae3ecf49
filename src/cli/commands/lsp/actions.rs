//! Formatting and code actions: the fixes `check` knows.
//!
//! - "did you mean `x`?" hints (undefined names, unknown `req`/`self` attributes, unknown body
//!   fields, undeclared requirements): replace the name with the suggestion;
//! - `L601` unused local: remove its definition;
//! - a file `fmt` would change: format it (also offered as a source action).

use super::At;
use super::workspace::Workspace;
use fnhcl::analysis::resolve::Resolution;
use fnhcl::diagnostics::Code;
use fnhcl::source::SourceMap;
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, TextEdit, WorkspaceEdit,
};
use std::collections::HashMap;
use std::path::Path;

/// One edit replacing the whole document with its formatted text; none when it is formatted
/// already, `None` when it does not parse.
pub(super) fn format(ws: &Workspace, path: &Path) -> Option<Vec<TextEdit>> {
    format_text(path, &ws.text(path)?)
}

/// [`format`] for a file's text (`path` names it in fmt's source map).
fn format_text(path: &Path, text: &str) -> Option<Vec<TextEdit>> {
    let mut map = SourceMap::new();
    let file = map.add(path.display().to_string(), text.to_string());
    let formatted = fnhcl::fmt::format_file(map.get(file), true).ok()?;
    if formatted == text {
        return Some(Vec::new());
    }
    Some(vec![super::whole_text_edit(text, formatted)])
}

/// The suggestion of a "did you mean `x`?" hint.
fn suggestion(help: &str) -> Option<&str> {
    let rest = &help[help.find("did you mean `")? + "did you mean `".len()..];
    Some(&rest[..rest.find('`')?])
}

/// What replaces `written` (the diagnostic's text) for a suggestion: the suggested name in
/// place of the wrong one, quotes and the rest of a traversal kept.
fn replacement(written: &str, suggested: &str) -> Option<String> {
    let is_name = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    };
    if let Some(inner) = written.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        return is_name(inner).then(|| format!("\"{suggested}\""));
    }
    if is_name(written) {
        // `did you mean `req.composite`?` on a lone name replaces that name.
        return Some(suggested.rsplit('.').next()?.to_string());
    }
    // A traversal `root.wrong.more`: the first two names become the suggestion.
    let (root, _) = suggested.split_once('.')?;
    let rest = written.strip_prefix(root)?.strip_prefix('.')?;
    let end = rest.find(['.', '[']).unwrap_or(rest.len());
    Some(format!("{suggested}{}", &rest[end..]))
}

/// The code actions for a range of a file.
// `WorkspaceEdit::changes` is keyed by `Uri`, whose lazily parsed parts clippy sees as
// interior mutability; the key is never changed while in the map.
#[allow(clippy::mutable_key_type)]
pub(super) fn code_actions(at: &At, params: &CodeActionParams) -> Vec<CodeActionOrCommand> {
    let text = at.text();
    let uri = params.text_document.uri.clone();
    let from = super::text::offset_of(text, params.range.start);
    let to = super::text::offset_of(text, params.range.end);
    let settings = at.ws.settings(&at.comp.dir);
    let findings = at.comp.findings(&settings.config);
    let edit = |edits: Vec<TextEdit>| {
        let mut changes = HashMap::new();
        changes.insert(uri.clone(), edits);
        WorkspaceEdit {
            changes: Some(changes),
            ..WorkspaceEdit::default()
        }
    };
    let path = at.comp.path(at.file).unwrap_or(Path::new(""));
    let mut resolution = None;
    let mut out = Vec::new();
    let mut format_offered = false;
    for d in findings {
        let Some(primary) = &d.primary else { continue };
        let span = primary.span;
        if span.file != at.file || (span.end as usize) < from || (span.start as usize) > to {
            continue;
        }
        let diagnostic = super::lsp_diagnostic(d, text, span.start as usize, span.end as usize);
        let range = diagnostic.range;
        let action = |title: String, edits: Vec<TextEdit>, preferred: bool| {
            CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic.clone()]),
                edit: Some(edit(edits)),
                is_preferred: Some(preferred),
                ..CodeAction::default()
            })
        };
        if let Some(s) = d.help.as_deref().and_then(suggestion) {
            let written = &text[span.start as usize..span.end as usize];
            if let Some(new_text) = replacement(written, s) {
                out.push(action(
                    format!("Change to `{}`", new_text.trim_matches('"')),
                    vec![TextEdit { range, new_text }],
                    true,
                ));
            }
        }
        if d.code == Code::L601 {
            // The whole `name = value` line(s).
            let program = at.comp.program();
            let resolution =
                resolution.get_or_insert_with(|| Resolution::of(&program.top, &program.functions));
            if let Some(b) = resolution.bindings.iter().find(|b| b.name_span == span) {
                let start = text[..b.span.start as usize]
                    .rfind('\n')
                    .map_or(0, |i| i + 1);
                let end = text[b.span.end as usize..]
                    .find('\n')
                    .map_or(text.len(), |i| b.span.end as usize + i + 1);
                let only_spaces = text[start..b.span.start as usize].trim().is_empty()
                    && text[b.span.end as usize..end].trim().is_empty();
                let (start, end) = if only_spaces {
                    (start, end)
                } else {
                    (b.span.start as usize, b.span.end as usize)
                };
                out.push(action(
                    format!("Remove unused local `{}`", b.name),
                    vec![TextEdit {
                        range: super::range_of(text, start, end),
                        new_text: String::new(),
                    }],
                    false,
                ));
            }
        }
        if d.code == Code::L610 && !format_offered {
            format_offered = true;
            if let Some(edits) = format_text(path, text) {
                out.push(action("Format file".into(), edits, true));
            }
        }
    }
    if !format_offered
        && let Some(edits) = format_text(path, text)
        && !edits.is_empty()
    {
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: "Format file".into(),
            kind: Some(CodeActionKind::SOURCE),
            edit: Some(edit(edits)),
            ..CodeAction::default()
        }));
    }
    if let Some(only) = &params.context.only {
        out.retain(|a| match a {
            CodeActionOrCommand::CodeAction(a) => a
                .kind
                .as_ref()
                .is_some_and(|k| only.iter().any(|o| k.as_str().starts_with(o.as_str()))),
            CodeActionOrCommand::Command(_) => false,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_replace_the_wrong_name_only() {
        assert_eq!(suggestion("did you mean `region`?"), Some("region"));
        assert_eq!(
            suggestion("did you mean `forProvider`? The API server would drop `forProvder`"),
            Some("forProvider")
        );
        assert_eq!(replacement("regoin", "region").as_deref(), Some("region"));
        assert_eq!(
            replacement("\"forProvder\"", "forProvider").as_deref(),
            Some("\"forProvider\"")
        );
        assert_eq!(
            replacement("req.composit.spec.x", "req.composite").as_deref(),
            Some("req.composite.spec.x")
        );
        assert_eq!(
            replacement("self.nme", "self.name").as_deref(),
            Some("self.name")
        );
        assert_eq!(replacement("a + b", "c"), None);
    }
}
