//! txtar archives, parsed and printed exactly as Go's `golang.org/x/tools/txtar` does.
//!
//! function-hcl receives its program as one txtar string, so every quirk matters: text before
//! the first marker is a comment that is ignored, a marker is a whole line `-- NAME --` whose
//! name is trimmed and non-empty, a marker line ending in `\r\n` is not a marker, and the last
//! file gets a final newline when it lacks one. Pure: no I/O.

use std::ops::Range;

/// One member of an archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// The trimmed name from the marker line.
    pub name: String,
    /// The file's text (the last file always ends in `\n` unless it is empty).
    pub data: String,
    /// Byte range of the marker line (without its newline) in the parsed text.
    pub marker: Range<usize>,
    /// Byte offset in the parsed text where `data` starts.
    pub data_offset: usize,
}

/// A parsed archive.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Archive {
    /// Text before the first marker.
    pub comment: String,
    /// The members, in archive order (duplicates kept, as Go keeps them).
    pub files: Vec<File>,
}

const MARKER: &str = "-- ";
const MARKER_END: &str = " --";

/// Parses `text` the way Go's `txtar.Parse` does.
pub fn parse(text: &str) -> Archive {
    let mut archive = Archive::default();
    let (comment, mut next) = find_marker(text, 0);
    archive.comment = comment;
    while let Some(found) = next {
        let (data, after) = find_marker(text, found.after);
        archive.files.push(File {
            name: found.name,
            data,
            marker: found.marker,
            data_offset: found.after,
        });
        next = after;
    }
    archive
}

/// Prints an archive the way Go's `txtar.Format` does.
pub fn format<'a>(comment: &str, files: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut out = String::new();
    push_with_newline(&mut out, comment);
    for (name, data) in files {
        out.push_str("-- ");
        out.push_str(name);
        out.push_str(" --\n");
        push_with_newline(&mut out, data);
    }
    out
}

fn push_with_newline(out: &mut String, data: &str) {
    out.push_str(data);
    if !data.is_empty() && !data.ends_with('\n') {
        out.push('\n');
    }
}

struct Marker {
    name: String,
    marker: Range<usize>,
    after: usize,
}

/// Returns the text from `from` up to the next marker line, and that marker.
/// Without a further marker, the rest of the text gets a final newline (Go's `fixNL`).
fn find_marker(text: &str, from: usize) -> (String, Option<Marker>) {
    let mut line = from;
    loop {
        if let Some(marker) = marker_at(text, line) {
            return (text[from..line].to_string(), Some(marker));
        }
        match text[line..].find("\n-- ") {
            Some(j) => line += j + 1,
            None => {
                let mut rest = text[from..].to_string();
                if !rest.is_empty() && !rest.ends_with('\n') {
                    rest.push('\n');
                }
                return (rest, None);
            }
        }
    }
}

fn marker_at(text: &str, start: usize) -> Option<Marker> {
    let rest = &text[start..];
    if !rest.starts_with(MARKER) {
        return None;
    }
    let (line, after) = match rest.find('\n') {
        Some(i) => (&rest[..i], start + i + 1),
        None => (rest, text.len()),
    };
    if line.len() < MARKER.len() + MARKER_END.len() || !line.ends_with(MARKER_END) {
        return None;
    }
    let name = line[MARKER.len()..line.len() - MARKER_END.len()].trim();
    if name.is_empty() {
        return None;
    }
    Some(Marker {
        name: name.to_string(),
        marker: start..start + line.len(),
        after,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_offsets_point_into_the_text() {
        let text = "comment\n-- a.hcl --\nx = 1\n-- b.hcl --\ny = 2";
        let archive = parse(text);
        for file in &archive.files {
            assert!(text[file.data_offset..].starts_with(file.data.trim_end()));
            assert!(text[file.marker.clone()].contains(&file.name));
        }
        assert_eq!(archive.files[1].data, "y = 2\n");
    }

    #[test]
    fn format_then_parse_round_trips() {
        let text = format("", [("a.hcl", "x\n"), ("b.hcl", "")]);
        let archive = parse(&text);
        let names: Vec<_> = archive.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a.hcl", "b.hcl"]);
        assert_eq!(archive.files[0].data, "x\n");
        assert_eq!(archive.files[1].data, "");
    }
}
