//! Positions and paths as LSP speaks them: `file://` URIs, lines and UTF-16 columns, turned
//! into the byte offsets and paths `ide` works with and back.

use crate::diagnostics::{Diagnostic, Severity};
use crate::ide::types as ide;
use crate::ide::workspace::Composition;
use lsp_types::{Position, Range, TextDocumentContentChangeEvent, Uri};
use std::path::{Path, PathBuf};

/// A `file://` URI's path.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str().strip_prefix("file://")?;
    Some(PathBuf::from(percent_decode(text)))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&text[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `file://` URI of a path.
pub fn uri_of(path: &Path) -> Option<Uri> {
    let mut text = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            text.push(b as char);
        } else {
            text.push_str(&format!("%{b:02X}"));
        }
    }
    text.parse().ok()
}

/// The byte offset of an LSP position (UTF-16 columns) in `text`.
pub fn offset_of(text: &str, position: Position) -> usize {
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i == position.line as usize {
            let mut units = 0u32;
            for (at, c) in line.char_indices() {
                if units >= position.character || c == '\n' {
                    return offset + at;
                }
                units += c.len_utf16() as u32;
            }
            return offset + line.len();
        }
        offset += line.len();
    }
    text.len()
}

/// The LSP position (UTF-16 columns) of a byte offset.
pub fn position_of(text: &str, offset: usize) -> Position {
    let offset = offset.min(text.len());
    let mut end = offset;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() as u32;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let character = before[start..].chars().map(|c| c.len_utf16() as u32).sum();
    Position { line, character }
}

/// The LSP range of a byte range.
pub fn range_of(text: &str, start: usize, end: usize) -> Range {
    Range {
        start: position_of(text, start),
        end: position_of(text, end),
    }
}

/// Applies one change: a range replaced, or the whole text.
pub fn apply(text: &mut String, change: TextDocumentContentChangeEvent) {
    match change.range {
        Some(range) => {
            let start = offset_of(text, range.start);
            let end = offset_of(text, range.end).max(start);
            text.replace_range(start..end, &change.text);
        }
        None => *text = change.text,
    }
}

/// LSP positions of byte offsets in one text, each offset looked up in its line only: what
/// converts many offsets (a file's diagnostics, tokens, symbols, edits) is linear in the text
/// and their number, not their product.
pub struct LineIndex<'t> {
    text: &'t str,
    /// Each line's start.
    starts: Vec<usize>,
    /// Whether each line is ASCII (a column is then a byte count).
    ascii: Vec<bool>,
}

impl<'t> LineIndex<'t> {
    /// The index of `text`'s lines.
    pub fn new(text: &'t str) -> LineIndex<'t> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let ascii = (0..starts.len())
            .map(|i| {
                let end = starts.get(i + 1).copied().unwrap_or(text.len());
                text[starts[i]..end].is_ascii()
            })
            .collect();
        LineIndex {
            text,
            starts,
            ascii,
        }
    }

    /// The text indexed.
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// The position of a byte offset (past the end: the end).
    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts[line];
        if self.ascii[line] {
            return Position::new(line as u32, (offset - start) as u32);
        }
        let mut position = position_of(&self.text[start..], offset - start);
        position.line = line as u32;
        position
    }

    /// The range of a byte range.
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range {
            start: self.position(start),
            end: self.position(end),
        }
    }
}

/// Markdown as LSP's markup content.
fn markdown(value: String) -> lsp_types::MarkupContent {
    lsp_types::MarkupContent {
        kind: lsp_types::MarkupKind::Markdown,
        value,
    }
}

/// An edit of the indexed text.
pub fn text_edit(lines: &LineIndex, edit: ide::TextEdit) -> lsp_types::TextEdit {
    lsp_types::TextEdit {
        range: lines.range(edit.range.start, edit.range.end),
        new_text: edit.new_text,
    }
}

/// A completion item; `lines` index the file the cursor is in.
pub fn completion(lines: &LineIndex, item: ide::Completion) -> lsp_types::CompletionItem {
    use ide::CompletionKind as K;
    use lsp_types::CompletionItemKind;
    let kind = match item.kind {
        K::Function => CompletionItemKind::FUNCTION,
        K::Reference => CompletionItemKind::REFERENCE,
        K::Field => CompletionItemKind::FIELD,
        K::Module => CompletionItemKind::MODULE,
        K::Variable => CompletionItemKind::VARIABLE,
        K::Property => CompletionItemKind::PROPERTY,
        K::Keyword => CompletionItemKind::KEYWORD,
        K::EnumMember => CompletionItemKind::ENUM_MEMBER,
        K::Value => CompletionItemKind::VALUE,
    };
    lsp_types::CompletionItem {
        label: item.label,
        kind: Some(kind),
        detail: item.detail,
        documentation: item
            .documentation
            .map(|d| lsp_types::Documentation::MarkupContent(markdown(d))),
        sort_text: item.sort_text,
        filter_text: item.filter_text,
        insert_text: item.insert_text,
        insert_text_format: item.snippet.then_some(lsp_types::InsertTextFormat::SNIPPET),
        text_edit: item
            .edit
            .map(|e| lsp_types::CompletionTextEdit::Edit(text_edit(lines, e))),
        ..lsp_types::CompletionItem::default()
    }
}

/// Hover contents over their range.
pub fn hover(text: &str, info: ide::HoverInfo) -> lsp_types::Hover {
    lsp_types::Hover {
        contents: lsp_types::HoverContents::Markup(markdown(info.markdown)),
        range: Some(range_of(text, info.range.start, info.range.end)),
    }
}

/// Signature help with its one signature.
pub fn signature_help(help: ide::SignatureHelp) -> lsp_types::SignatureHelp {
    let active = Some(help.active as u32);
    lsp_types::SignatureHelp {
        signatures: vec![lsp_types::SignatureInformation {
            label: help.label,
            documentation: help
                .documentation
                .map(|d| lsp_types::Documentation::MarkupContent(markdown(d))),
            parameters: Some(
                help.parameters
                    .into_iter()
                    .map(|p| lsp_types::ParameterInformation {
                        label: lsp_types::ParameterLabel::Simple(p),
                        documentation: None,
                    })
                    .collect(),
            ),
            active_parameter: active,
        }],
        active_signature: Some(0),
        active_parameter: active,
    }
}

/// A document symbol and its children.
#[allow(deprecated)] // DocumentSymbol's `deprecated` field must be given.
pub fn symbol(lines: &LineIndex, symbol: ide::Symbol) -> lsp_types::DocumentSymbol {
    use ide::SymbolKind as K;
    use lsp_types::SymbolKind;
    let kind = match symbol.kind {
        K::Variable => SymbolKind::VARIABLE,
        K::Function => SymbolKind::FUNCTION,
        K::Object => SymbolKind::OBJECT,
        K::Array => SymbolKind::ARRAY,
        K::Namespace => SymbolKind::NAMESPACE,
        K::Struct => SymbolKind::STRUCT,
        K::Field => SymbolKind::FIELD,
        K::Interface => SymbolKind::INTERFACE,
    };
    lsp_types::DocumentSymbol {
        name: symbol.name,
        detail: None,
        kind,
        tags: None,
        deprecated: None,
        range: lines.range(symbol.range.start, symbol.range.end),
        selection_range: lines.range(symbol.selection.start, symbol.selection.end),
        children: symbol
            .children
            .map(|c| c.into_iter().map(|s| self::symbol(lines, s)).collect()),
    }
}

/// A folding range of whole lines.
pub fn fold(fold: ide::Fold) -> lsp_types::FoldingRange {
    lsp_types::FoldingRange {
        start_line: fold.start_line,
        start_character: None,
        end_line: fold.end_line,
        end_character: None,
        kind: fold.comment.then_some(lsp_types::FoldingRangeKind::Comment),
        collapsed_text: None,
    }
}

/// Semantic tokens, each relative to the one before (tokens that span lines are left out:
/// LSP's tokens are on one line).
pub fn semantic_tokens(text: &str, tokens: Vec<ide::Token>) -> lsp_types::SemanticTokens {
    let lines = LineIndex::new(text);
    let mut data = Vec::with_capacity(tokens.len());
    let mut previous = Position::default();
    for token in tokens {
        let from = lines.position(token.start);
        let to = lines.position(token.end);
        if to.line != from.line || to.character <= from.character {
            continue;
        }
        let delta_line = from.line - previous.line;
        let delta_start = if delta_line == 0 {
            from.character - previous.character
        } else {
            from.character
        };
        data.push(lsp_types::SemanticToken {
            delta_line,
            delta_start,
            length: to.character - from.character,
            token_type: token.kind,
            token_modifiers_bitset: token.modifiers,
        });
        previous = from;
    }
    lsp_types::SemanticTokens {
        result_id: None,
        data,
    }
}

/// The locations of byte ranges of the composition's files (each file indexed once).
pub fn locations<'p>(
    comp: &Composition,
    places: impl IntoIterator<Item = &'p ide::FileRange>,
) -> Vec<lsp_types::Location> {
    let mut indexes: Vec<(crate::source::FileId, LineIndex)> = Vec::new();
    let mut out = Vec::new();
    for place in places {
        let (Some(file), Some(uri)) = (comp.file_of(&place.path), uri_of(&place.path)) else {
            continue;
        };
        let lines = match indexes.iter().position(|(f, _)| *f == file) {
            Some(i) => &indexes[i].1,
            None => {
                indexes.push((file, LineIndex::new(comp.text(file))));
                &indexes[indexes.len() - 1].1
            }
        };
        out.push(lsp_types::Location {
            uri,
            range: lines.range(place.range.start, place.range.end),
        });
    }
    out
}

/// Edits to the composition's files.
// `WorkspaceEdit::changes` is keyed by `Uri`, whose lazily parsed parts clippy sees as
// interior mutability; the key is never changed while in the map.
#[allow(clippy::mutable_key_type)]
pub fn workspace_edit(comp: &Composition, change: ide::SourceChange) -> lsp_types::WorkspaceEdit {
    let mut changes = std::collections::HashMap::new();
    for (path, edits) in change {
        let (Some(file), Some(uri)) = (comp.file_of(&path), uri_of(&path)) else {
            continue;
        };
        let lines = LineIndex::new(comp.text(file));
        let edits: Vec<lsp_types::TextEdit> =
            edits.into_iter().map(|e| text_edit(&lines, e)).collect();
        changes.entry(uri).or_insert_with(Vec::new).extend(edits);
    }
    lsp_types::WorkspaceEdit {
        changes: Some(changes),
        ..lsp_types::WorkspaceEdit::default()
    }
}

/// A finding as an LSP diagnostic: its code, message, detail and hint.
pub fn diagnostic(
    d: &Diagnostic,
    lines: &LineIndex,
    start: usize,
    end: usize,
) -> lsp_types::Diagnostic {
    use lsp_types::{DiagnosticSeverity, NumberOrString};
    let mut message = d.summary.clone();
    if let Some(detail) = &d.detail {
        message.push('\n');
        message.push_str(detail);
    }
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    lsp_types::Diagnostic {
        range: lines.range(start, end),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            _ => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        source: Some("fnhcl".into()),
        message,
        ..lsp_types::Diagnostic::default()
    }
}

/// A code action editing the file at `uri` (whose text `lines` index).
// See [`workspace_edit`] for the key type.
#[allow(clippy::mutable_key_type)]
pub fn code_action(
    lines: &LineIndex,
    uri: &Uri,
    action: ide::Action,
) -> lsp_types::CodeActionOrCommand {
    let edits = action
        .edits
        .into_iter()
        .map(|e| text_edit(lines, e))
        .collect();
    let mut changes = std::collections::HashMap::new();
    changes.insert(uri.clone(), edits);
    let diagnostics = action.fixes.and_then(|d| {
        let primary = d.primary.as_ref()?;
        let (start, end) = (primary.span.start as usize, primary.span.end as usize);
        Some(vec![diagnostic(&d, lines, start, end)])
    });
    lsp_types::CodeActionOrCommand::CodeAction(lsp_types::CodeAction {
        title: action.title,
        kind: Some(match action.kind {
            ide::ActionKind::QuickFix => lsp_types::CodeActionKind::QUICKFIX,
            ide::ActionKind::Source => lsp_types::CodeActionKind::SOURCE,
        }),
        diagnostics,
        edit: Some(lsp_types::WorkspaceEdit {
            changes: Some(changes),
            ..lsp_types::WorkspaceEdit::default()
        }),
        is_preferred: action.preferred,
        ..lsp_types::CodeAction::default()
    })
}

/// The inlay hints of the notes that fall in `range`.
pub fn inlay_hints(
    text: &str,
    notes: Vec<ide::BlockNote>,
    range: Range,
) -> Vec<lsp_types::InlayHint> {
    let lines = LineIndex::new(text);
    notes
        .into_iter()
        .filter_map(|note| {
            let position = lines.position(note.end);
            if position < range.start || position > range.end {
                return None;
            }
            Some(lsp_types::InlayHint {
                position,
                label: lsp_types::InlayHintLabel::String(note.title),
                kind: None,
                text_edits: None,
                tooltip: note
                    .tooltip
                    .map(|t| lsp_types::InlayHintTooltip::MarkupContent(markdown(t))),
                padding_left: Some(true),
                padding_right: None,
                data: None,
            })
        })
        .collect()
}

/// A code lens per note, over its header line.
pub fn code_lenses(text: &str, notes: Vec<ide::BlockNote>) -> Vec<lsp_types::CodeLens> {
    let lines = LineIndex::new(text);
    notes
        .into_iter()
        .map(|note| lsp_types::CodeLens {
            range: Range {
                start: lines.position(note.start),
                end: lines.position(note.end),
            },
            command: Some(lsp_types::Command {
                title: note.title,
                command: String::new(),
                arguments: None,
            }),
            data: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "a\néé = 1\n𝄞x";
        assert_eq!(offset_of(text, Position::new(1, 2)), 2 + 4);
        assert_eq!(position_of(text, 2 + 4), Position::new(1, 2));
        // A character outside the BMP is two UTF-16 units.
        let x = text.find('x').unwrap();
        assert_eq!(position_of(text, x), Position::new(2, 2));
        assert_eq!(offset_of(text, Position::new(2, 2)), x);
        // Past the end of a line: its end.
        assert_eq!(offset_of(text, Position::new(0, 99)), 1);
    }

    /// The line index gives what scanning from the start gives, on ASCII lines (counted in
    /// bytes) and others (in UTF-16 units), inside characters and past the end.
    #[test]
    fn the_line_index_agrees_with_scanning() {
        let text = "ab\néé = 1\n\n𝄞x\r\nplain\nlast";
        let lines = LineIndex::new(text);
        for offset in 0..text.len() + 3 {
            assert_eq!(
                lines.position(offset),
                position_of(text, offset),
                "{offset}"
            );
        }
        assert_eq!(lines.range(3, text.len()), range_of(text, 3, text.len()));
        let empty = LineIndex::new("");
        assert_eq!(empty.position(5), Position::new(0, 0));
    }

    #[test]
    fn incremental_changes_apply_in_order() {
        let mut text = "locals {\n  a = 1\n}\n".to_string();
        apply(
            &mut text,
            TextDocumentContentChangeEvent {
                range: Some(Range::new(Position::new(1, 6), Position::new(1, 7))),
                range_length: None,
                text: "42".into(),
            },
        );
        assert_eq!(text, "locals {\n  a = 42\n}\n");
    }

    #[test]
    fn paths_round_trip_through_uris() {
        let path = Path::new("/tmp/a b/ü.hcl");
        let uri = uri_of(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BC.hcl");
        assert_eq!(path_of(&uri).unwrap(), path);
    }
}
