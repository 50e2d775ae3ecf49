//! Positions and paths as LSP speaks them: `file://` URIs, UTF-16 columns.

use lsp_types::{Position, Range, TextDocumentContentChangeEvent, Uri};
use std::path::{Path, PathBuf};

/// A `file://` URI's path.
pub(super) fn path_of(uri: &Uri) -> Option<PathBuf> {
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
pub(super) fn uri_of(path: &Path) -> Option<Uri> {
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
pub(super) fn offset_of(text: &str, position: Position) -> usize {
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
pub(super) fn position_of(text: &str, offset: usize) -> Position {
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
pub(super) fn range_of(text: &str, start: usize, end: usize) -> Range {
    Range {
        start: position_of(text, start),
        end: position_of(text, end),
    }
}

/// Applies one change: a range replaced, or the whole text.
pub(super) fn apply(text: &mut String, change: TextDocumentContentChangeEvent) {
    match change.range {
        Some(range) => {
            let start = offset_of(text, range.start);
            let end = offset_of(text, range.end).max(start);
            text.replace_range(start..end, &change.text);
        }
        None => *text = change.text,
    }
}

/// The identifier (letters, digits, `_`, `-`, `:`) around `offset`, as a byte range.
pub(super) fn word_at(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '-' || c == ':';
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_ident(*c))
        .last()
        .map_or(offset, |(i, _)| i);
    let end = text[offset..]
        .char_indices()
        .find(|(_, c)| !is_ident(*c))
        .map_or(text.len(), |(i, _)| offset + i);
    (start, end)
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

    #[test]
    fn words_include_dashes_and_colons() {
        let text = "x = local.my-name + 1";
        let at = text.find("name").unwrap();
        let (s, e) = word_at(text, at);
        assert_eq!(&text[s..e], "my-name");
    }
}
