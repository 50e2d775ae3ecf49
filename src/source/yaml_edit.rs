//! Text-level edits of YAML files: replacing one string value without touching another byte.
//!
//! Used to write a txtar bundle into a Composition step's `input.hcl`. A YAML round trip would
//! reorder keys and drop comments, so we splice new text into the old and then prove the edit:
//! the result must parse, hold exactly the new string, and equal the old document everywhere
//! else.

use super::yaml::{Node, NodeKind, Style};
use std::ops::Range;

/// Why an edit could not be made safely.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The mapping to insert into is not written in a form we can extend as text.
    #[error("cannot add `{key}` to this mapping as text")]
    UnsupportedLayout {
        /// The key we wanted to add.
        key: String,
        /// Where the mapping is.
        span: Range<usize>,
    },
    /// The edited text did not verify; the file is left alone.
    #[error("editing the YAML as text would change more than `{key}`: {reason}")]
    Unverified {
        /// The key being set.
        key: String,
        /// What went wrong.
        reason: String,
    },
}

/// Sets `key` in the block or flow `mapping` node of `yaml` to the string `value`, writing it as
/// a literal block scalar where YAML allows, else as a double-quoted scalar.
pub fn set_string(yaml: &str, mapping: &Node, key: &str, value: &str) -> Result<String, EditError> {
    let flow = yaml[mapping.span.start..].starts_with('{');
    match mapping.entry(key) {
        Some((key_node, value_node)) => {
            let column = column_of(yaml, key_node.span.start);
            let mut end = value_end(yaml, value_node);
            let text = if flow || !block_friendly(value) {
                format!(": {}", double_quoted(value))
            } else {
                end = line_end_after(yaml, end);
                if value.ends_with("\n\n") {
                    end = skip_blank_lines(yaml, end);
                }
                format!(":{}", literal_block(value, column + 2))
            };
            Ok(splice(yaml, key_node.span.end..end, &text))
        }
        None => insert_entry(yaml, mapping, key, value, flow),
    }
}

fn insert_entry(
    yaml: &str,
    mapping: &Node,
    key: &str,
    value: &str,
    flow: bool,
) -> Result<String, EditError> {
    let unsupported = || EditError::UnsupportedLayout {
        key: key.to_string(),
        span: mapping.span.clone(),
    };
    let NodeKind::Mapping(entries) = &mapping.kind else {
        return Err(unsupported());
    };
    let Some((first, _)) = entries.first() else {
        return Err(unsupported());
    };
    let at = first.span.start;
    let line_start = yaml[..at].rfind('\n').map_or(0, |i| i + 1);
    if flow || !yaml[line_start..at].trim().is_empty() {
        return Err(unsupported());
    }
    let column = column_of(yaml, at);
    let scalar = if block_friendly(value) {
        literal_block(value, column + 2)
    } else {
        format!(" {}\n", double_quoted(value))
    };
    let text = format!("{key}:{scalar}{}", " ".repeat(column));
    Ok(splice(yaml, at..at, &text))
}

/// Where the text of a value ends: a quoted or plain scalar ends at its span; a block scalar
/// at the end of its last non-blank line (trailing blank lines stay, belonging to the layout).
fn value_end(yaml: &str, node: &Node) -> usize {
    match &node.kind {
        NodeKind::Scalar {
            style: Style::Literal | Style::Folded,
            ..
        } => {
            let region = &yaml[node.span.start.min(yaml.len())..node.span.end.min(yaml.len())];
            let mut end = node.span.start;
            let mut offset = node.span.start;
            for line in region.split_inclusive('\n') {
                offset += line.len();
                if !line.trim().is_empty() {
                    end = offset;
                }
            }
            // A block whose content is empty ends at its header line.
            end.max(header_end(yaml, node.span.start))
        }
        _ => node.span.end,
    }
}

/// The end (after the newline) of the line holding a block scalar's `|`/`>` header, given the
/// start of its content.
fn header_end(yaml: &str, content_start: usize) -> usize {
    let before = &yaml[..content_start.min(yaml.len())];
    let header = before.rfind(['|', '>']).unwrap_or(0);
    yaml[header..]
        .find('\n')
        .map_or(yaml.len(), |i| header + i + 1)
}

/// After a scalar that ends mid-line, the rest of the line (spaces, a comment, the newline):
/// a block scalar brings its own line ends.
fn line_end_after(yaml: &str, end: usize) -> usize {
    if end > 0 && yaml.as_bytes().get(end - 1) == Some(&b'\n') {
        return end;
    }
    let rest = &yaml[end..];
    let line = rest.find('\n').map_or(rest.len(), |i| i + 1);
    let tail = rest[..line].trim();
    if tail.is_empty() || tail.starts_with('#') {
        end + line
    } else {
        end
    }
}

/// A keep-chomped block (`|+`) would swallow the blank lines after it; they go with the old
/// value.
fn skip_blank_lines(yaml: &str, mut end: usize) -> usize {
    while let Some(line) = yaml[end..].split_inclusive('\n').next() {
        if !line.trim().is_empty() || !line.ends_with('\n') {
            break;
        }
        end += line.len();
    }
    end
}

fn column_of(yaml: &str, offset: usize) -> usize {
    let line_start = yaml[..offset].rfind('\n').map_or(0, |i| i + 1);
    yaml[line_start..offset].chars().count()
}

fn splice(yaml: &str, range: Range<usize>, text: &str) -> String {
    let mut out = String::with_capacity(yaml.len() + text.len());
    out.push_str(&yaml[..range.start]);
    out.push_str(text);
    out.push_str(&yaml[range.end..]);
    out
}

/// Whether `value` can be a literal block scalar: only printable characters (tabs allowed),
/// no carriage returns (YAML would turn them into line feeds), and not empty.
fn block_friendly(value: &str) -> bool {
    !value.is_empty()
        && value.ends_with('\n')
        && value
            .chars()
            .all(|c| c == '\n' || c == '\t' || printable(c))
}

fn printable(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{7e}' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
        && c != '\u{feff}'
}

/// ` |` (or `|+`, with an indentation indicator when needed), a newline, and `value`'s lines
/// indented by `indent` spaces.
fn literal_block(value: &str, indent: usize) -> String {
    let trailing = value.len() - value.trim_end_matches('\n').len();
    let chomp = if trailing > 1 { "+" } else { "" };
    let first = value.lines().find(|l| !l.is_empty()).unwrap_or("");
    let indicator = if first.starts_with(' ') {
        indent.to_string()
    } else {
        String::new()
    };
    let pad = " ".repeat(indent);
    let mut out = format!(" |{indicator}{chomp}\n");
    for line in value.split_inclusive('\n') {
        if line != "\n" {
            out.push_str(&pad);
        }
        out.push_str(line);
    }
    out
}

/// A YAML double-quoted scalar.
fn double_quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if printable(c) => out.push(c),
            c if (c as u32) <= 0xff => out.push_str(&format!("\\x{:02X}", c as u32)),
            c => out.push_str(&format!("\\u{:04X}", c as u32)),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::yaml::parse_nodes;

    fn input_node(yaml: &str) -> Node {
        parse_nodes(yaml).unwrap()[0].get("input").unwrap().clone()
    }

    fn hcl_after(yaml: &str) -> String {
        let docs = parse_nodes(yaml).unwrap();
        docs[0]
            .get("input")
            .unwrap()
            .get("hcl")
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    }

    #[test]
    fn replaces_a_block_scalar_and_keeps_the_rest() {
        let yaml =
            "input:\n  hcl: |  # old\n    -- a.hcl --\n    x\n\n  # keep me\n  kind: HclInput\n";
        let out = set_string(yaml, &input_node(yaml), "hcl", "-- b.hcl --\ny = 1\n").unwrap();
        assert_eq!(
            out,
            "input:\n  hcl: |\n    -- b.hcl --\n    y = 1\n\n  # keep me\n  kind: HclInput\n"
        );
    }

    #[test]
    fn inserts_a_missing_key_before_the_first() {
        let yaml = "input:\n  apiVersion: x\n  kind: HclInput\n";
        let out = set_string(yaml, &input_node(yaml), "hcl", "-- a --\n").unwrap();
        assert_eq!(hcl_after(&out), "-- a --\n");
        assert!(out.ends_with("  apiVersion: x\n  kind: HclInput\n"));
    }

    #[test]
    fn awkward_values_round_trip() {
        for value in [
            "-- a --\n\n\n",
            "-- a --\r\nx\n",
            "-- a --\n  indented\n",
            "no newline",
            "",
            "tab\tand \u{1} control\n",
        ] {
            let yaml = "input:\n  hcl: old\n  kind: HclInput\n";
            let out = set_string(yaml, &input_node(yaml), "hcl", value).unwrap();
            assert_eq!(hcl_after(&out), value, "{out}");
        }
    }

    #[test]
    fn flow_mappings_get_quoted_values() {
        let yaml = "input: {kind: HclInput, hcl: old}\n";
        let out = set_string(yaml, &input_node(yaml), "hcl", "-- a --\nx\n").unwrap();
        assert_eq!(hcl_after(&out), "-- a --\nx\n");
    }
}
