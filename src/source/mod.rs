//! L0: source text, positions and everything that reads input (files, txtar, YAML), watches
//! it for changes, or writes users' files back safely.
//!
//! Spans are byte ranges into a [`SourceFile`] held by a [`SourceMap`]; lines and columns are
//! computed only when something is printed. Nothing here builds diagnostics or prints.

pub mod composition;

/// Text held inline up to 24 bytes, on the heap beyond (a `compact_str::CompactString`):
/// the strings of the syntax tree's literals and of evaluated values, most of them short, so
/// that building, copying and dropping one allocates nothing.
pub type Text = compact_str::CompactString;
pub mod loader;
pub mod pointer;
pub mod read;
pub mod tree;
pub mod txtar;
pub mod watch;
pub mod write;
pub mod yaml;
pub mod yaml_edit;
pub mod yaml_emit;

use std::ops::Range;
use unicode_segmentation::UnicodeSegmentation;

/// Identifies one file inside a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(u32);

impl FileId {
    /// The first file of a map (for empty programs that still need a file id).
    pub fn first() -> FileId {
        FileId(0)
    }

    /// The index of the file in its map.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The id of this file after its map was appended to another ([`SourceMap::append`]).
    pub fn moved(self, offset: FileOffset) -> FileId {
        FileId(self.0.saturating_add(offset.0))
    }
}

/// Where the files of an appended map start ([`SourceMap::append`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileOffset(u32);

/// A byte range in one source file. `end` is exclusive, as in Go HCL's `hcl.Range`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    /// The file the range belongs to.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span over `range` of `file`.
    pub fn new(file: FileId, range: Range<usize>) -> Span {
        Span {
            file,
            start: saturate(range.start),
            end: saturate(range.end),
        }
    }

    /// A span over a `u32` byte range of `file` (the syntax tree's ranges).
    pub fn of(file: FileId, range: &Range<u32>) -> Span {
        Span {
            file,
            start: range.start,
            end: range.end,
        }
    }

    /// The byte range as `usize`s.
    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A 1-based line and column. Columns count grapheme clusters, the way Go HCL's
/// `hcl.Pos.Column` does, so `é` written as `e` + combining accent is one column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    /// 1-based line.
    pub line: usize,
    /// 1-based column in characters.
    pub column: usize,
}

/// One file's text and the byte offsets at which its lines start.
#[derive(Debug, Clone)]
pub struct SourceFile {
    id: FileId,
    name: String,
    display: Option<String>,
    text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// The file's id in its map.
    pub fn id(&self) -> FileId {
        self.id
    }

    /// The name diagnostics print (a path as the user gave it, or a txtar member name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The path diagnostics print: the file as the user named it on disk, else [`Self::name`].
    pub fn display_name(&self) -> &str {
        self.display.as_deref().unwrap_or(&self.name)
    }

    /// The full text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The line and column of a byte offset (clamped to the text, moved back to a char boundary).
    pub fn line_col(&self, offset: usize) -> LineCol {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line_index = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let mut line_start = self.line_starts[line_index];
        // Go HCL starts counting after a byte-order mark, as its scanner skips it.
        if line_start == 0 && self.text.starts_with('\u{feff}') && offset >= 3 {
            line_start = 3;
        }
        let before = &self.text[line_start..offset];
        // Within a line (no `\n`), every ASCII character is one grapheme cluster: the count
        // is the length, found without segmenting (a long line with many diagnostics made
        // this quadratic).
        let column = if before.is_ascii() {
            before.len()
        } else {
            before.graphemes(true).count()
        } + 1;
        LineCol {
            line: line_index + 1,
            column,
        }
    }

    /// The start and end positions of a span in this file.
    pub fn span_positions(&self, span: Span) -> (LineCol, LineCol) {
        (
            self.line_col(span.start as usize),
            self.line_col(span.end as usize),
        )
    }

    /// Go HCL's `Range.String()` for a span of this file (see [`SourceMap::range_text`]).
    pub fn range_text(&self, span: Span) -> String {
        let (start, end) = self.span_positions(span);
        if start.line == end.line {
            format!(
                "{}:{},{}-{}",
                self.name, start.line, start.column, end.column
            )
        } else {
            format!(
                "{}:{},{}-{},{}",
                self.name, start.line, start.column, end.line, end.column
            )
        }
    }

    /// A span over `range` of this file.
    pub fn span(&self, range: Range<usize>) -> Span {
        Span::new(self.id, range)
    }

    /// The text a span covers.
    pub fn slice(&self, span: Span) -> &str {
        let range = span.range();
        self.text
            .get(range.start.min(self.text.len())..range.end.min(self.text.len()))
            .unwrap_or("")
    }
}

/// Owns every source file of one run, so spans can be resolved and printed later.
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let id = FileId(saturate(self.files.len()));
        let text = text.into();
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        self.files.push(SourceFile {
            id,
            name: name.into(),
            display: None,
            text,
            line_starts,
        });
        id
    }

    /// The file with this id.
    pub fn get(&self, id: FileId) -> &SourceFile {
        // Ids are only ever created by `add` on this map, so the index is in bounds.
        &self.files[id.index()]
    }

    /// Sets the path diagnostics print for a file (its name stays what Go HCL messages use).
    pub fn set_display_name(&mut self, id: FileId, display: impl Into<String>) {
        self.files[id.index()].display = Some(display.into());
    }

    /// Every file, in the order they were added.
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// Moves every file of `other` to the end of this map; a file of `other` is found here
    /// under [`FileId::moved`] with the returned offset.
    pub fn append(&mut self, other: SourceMap) -> FileOffset {
        let offset = FileOffset(saturate(self.files.len()));
        for mut file in other.files {
            file.id = file.id.moved(offset);
            self.files.push(file);
        }
        offset
    }

    /// Go HCL's `Range.String()` for a span: `main.hcl:20,32-39` on one line,
    /// `main.hcl:19,12-21,6` across lines. function-hcl embeds this text in its messages.
    pub fn range_text(&self, span: Span) -> String {
        self.get(span.file).range_text(span)
    }
}

/// A JSON value's type by the names JSON Schema, kube-openapi, JMESPath and xprin all use
/// (`null`, `boolean`, `number`, `string`, `array`, `object`).
pub fn json_type(value: &serde_json::Value) -> &'static str {
    use serde_json::Value as Json;
    match value {
        Json::Null => "null",
        Json::Bool(_) => "boolean",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_is_one_based_and_counts_characters() {
        let mut map = SourceMap::new();
        let id = map.add("main.hcl", "a = 1\nb = \"héllo\" x\n");
        let file = map.get(id);
        assert_eq!(file.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(file.line_col(6), LineCol { line: 2, column: 1 });
        // "x" sits after a two-byte 'é': byte 18, character column 13.
        let x = file.text().find(" x").unwrap() + 1;
        assert_eq!(
            file.line_col(x),
            LineCol {
                line: 2,
                column: 13
            }
        );
        // End of text: one past the last line.
        assert_eq!(file.line_col(99), LineCol { line: 3, column: 1 });
    }

    #[test]
    fn combining_marks_are_one_column() {
        let mut map = SourceMap::new();
        let id = map.add("f.hcl", "e\u{301}x");
        assert_eq!(map.get(id).line_col(3).column, 2);
    }

    #[test]
    fn a_byte_order_mark_takes_no_column() {
        let mut map = SourceMap::new();
        let id = map.add("f.hcl", "\u{feff}a = 1");
        assert_eq!(map.get(id).line_col(3).column, 1);
        assert_eq!(map.get(id).line_col(7).column, 5);
    }

    #[test]
    fn offsets_inside_a_character_move_back_to_its_start() {
        let mut map = SourceMap::new();
        let id = map.add("f.hcl", "é!");
        assert_eq!(map.get(id).line_col(1).column, 1);
    }

    #[test]
    fn range_text_matches_go_hcl() {
        let mut map = SourceMap::new();
        let text = "x\n".repeat(18) + &" ".repeat(11) + "abc\n" + "y\ny\n     z";
        let id = map.add("main.hcl", text.clone());
        let start = text.find("abc").unwrap();
        assert_eq!(
            map.range_text(Span::new(id, start..start + 3)),
            "main.hcl:19,12-15"
        );
        let end = text.find('z').unwrap();
        assert_eq!(
            map.range_text(Span::new(id, start..end)),
            "main.hcl:19,12-22,6"
        );
    }
}
