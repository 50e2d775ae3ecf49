//! Formatting and code actions: the fixes `check` knows.
//!
//! - "did you mean `x`?" hints (undefined names, unknown `req`/`self` attributes, unknown body
//!   fields, undeclared requirements): replace the name with the suggestion;
//! - `L601` unused local: remove its definition;
//! - a file `fmt` would change: format it (also offered as a source action).

use super::At;
use super::types::{Action, ActionKind, TextEdit};
use super::workspace::Workspace;
use crate::analysis::resolve::Resolution;
use crate::diagnostics::Code;
use crate::source::SourceMap;
use std::path::Path;

/// One edit replacing the whole document with its formatted text; none when it is formatted
/// already, `None` when it does not parse.
pub fn format(ws: &Workspace, path: &Path) -> Option<Vec<TextEdit>> {
    format_text(path, &ws.text(path)?)
}

/// [`format`] for a file's text (`path` names it in fmt's source map).
fn format_text(path: &Path, text: &str) -> Option<Vec<TextEdit>> {
    let mut map = SourceMap::new();
    let file = map.add(path.display().to_string(), text.to_string());
    let formatted = crate::fmt::format_file(map.get(file), true).ok()?;
    if formatted == text {
        return Some(Vec::new());
    }
    Some(vec![TextEdit {
        range: 0..text.len(),
        new_text: formatted,
    }])
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
    // A traversal `root.wrong.more`: as many names as the suggestion has become it
    // (`req.composite`, `req.resources.subnet`), the rest is kept.
    let (root, names) = suggested.split_once('.')?;
    let mut rest = written.strip_prefix(root)?;
    for _ in names.split('.') {
        rest = rest.strip_prefix('.')?;
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        rest = &rest[end..];
    }
    Some(format!("{suggested}{rest}"))
}

/// The code actions for the byte range `from..to` of the file at the cursor: fixes of the
/// findings that touch it, and formatting. `only`: the kinds the client asked for (a kind
/// matches when its name starts with one of them).
pub fn code_actions(at: &At, from: usize, to: usize, only: Option<&[String]>) -> Vec<Action> {
    let text = at.text();
    let settings = at.ws.settings(&at.comp.dir);
    let findings = at.comp.findings(&settings.config);
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
        let range = span.start as usize..span.end as usize;
        let action = |title: String, edits: Vec<TextEdit>, preferred: bool| Action {
            title,
            kind: ActionKind::QuickFix,
            fixes: Some(d.clone()),
            preferred: Some(preferred),
            edits,
        };
        if let Some(s) = d.help.as_deref().and_then(suggestion) {
            let written = &text[range.clone()];
            if let Some(new_text) = replacement(written, s) {
                out.push(action(
                    format!("Change to `{}`", new_text.trim_matches('"')),
                    vec![TextEdit {
                        range: range.clone(),
                        new_text,
                    }],
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
                        range: start..end,
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
        out.push(Action {
            title: "Format file".into(),
            kind: ActionKind::Source,
            fixes: None,
            preferred: None,
            edits,
        });
    }
    if let Some(only) = only {
        out.retain(|a| only.iter().any(|o| a.kind.as_str().starts_with(o.as_str())));
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
        assert_eq!(
            replacement("req.resource.subnet.status", "req.resources.subnet").as_deref(),
            Some("req.resources.subnet.status")
        );
        assert_eq!(
            replacement("req.resource.vcp", "req.resource.vpc").as_deref(),
            Some("req.resource.vpc")
        );
        assert_eq!(replacement("req.resource", "req.resource.vpc"), None);
        assert_eq!(replacement("a + b", "c"), None);
    }

    /// `check`'s hints reach the editor as they are: the diagnostic's help, and a quick fix
    /// for a "did you mean".
    #[test]
    fn hints_reach_the_editor_with_their_fix() {
        let text = "resource vpc {\n  body = { a = req.resources.vpc.status }\n}\n";
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("main.hcl");
        std::fs::write(&path, text).expect("a writable temporary folder");
        let mut ws = Workspace::default();
        ws.documents.insert(path.clone(), text.to_string());
        let wrong = text.find("req.resources").expect("in the text");
        let at = At::new(&ws, &path, wrong).expect("the file is in a composition");
        let findings = at.comp.findings(&ws.settings(&at.comp.dir).config);
        let hint = findings.iter().find(|d| d.code == Code::R208);
        assert_eq!(
            hint.and_then(|d| d.help.as_deref()),
            Some("did you mean `req.resource.vpc`? `vpc` is a single `resource`"),
            "{findings:#?}"
        );
        let fixes = code_actions(&at, wrong, wrong, Some(&["quickfix".to_string()]));
        let edits: Vec<&str> = fixes
            .iter()
            .flat_map(|a| &a.edits)
            .map(|e| e.new_text.as_str())
            .collect();
        assert_eq!(edits, ["req.resource.vpc.status"], "{fixes:#?}");
    }
}
