//! Formatting and code actions.

use super::At;
use super::workspace::Workspace;
use fnhcl::source::SourceMap;
use lsp_types::TextEdit;
use std::path::Path;

/// One edit replacing the whole document with its formatted text; none when it is formatted
/// already, `None` when it does not parse.
pub(super) fn format(ws: &Workspace, path: &Path) -> Option<Vec<TextEdit>> {
    let text = ws.text(path)?;
    let formatted = formatted(path, &text)?;
    if formatted == text {
        return Some(Vec::new());
    }
    Some(vec![super::whole_text_edit(&text, formatted)])
}

fn formatted(path: &Path, text: &str) -> Option<String> {
    let mut map = SourceMap::new();
    let file = map.add(path.display().to_string(), text.to_string());
    fnhcl::fmt::format_file(map.get(file), true).ok()
}

/// The code actions at a range.
pub(super) fn code_actions(
    _at: &At,
    _params: &lsp_types::CodeActionParams,
) -> Vec<lsp_types::CodeActionOrCommand> {
    Vec::new()
}
