//! Reading YAML streams: values through `yaml_serde`, positions through `saphyr-parser`.
//!
//! `yaml_serde` gives the values (with YAML's tag resolution, anchors and merge keys) but no
//! positions; `saphyr-parser` gives an event stream with positions, from which we build a small
//! tree of [`Node`]s. The tree is used to point diagnostics at a step of a Composition and to
//! edit block scalars as text; the values are what every later layer works on.

use saphyr_parser::{Event, Parser, ScalarStyle};
use std::ops::Range;

/// One document of a stream: its value and, when positions could be read, its node tree.
#[derive(Debug, Clone)]
pub struct Document {
    /// The decoded value.
    pub value: yaml_serde::Value,
    /// The same document with byte ranges on every node.
    pub root: Node,
}

/// A YAML node with the byte range it covers in the source text.
#[derive(Debug, Clone)]
pub struct Node {
    /// What the node is.
    pub kind: NodeKind,
    /// Byte range in the source (for a block scalar: from its `|`/`>` indicator to its end).
    pub span: Range<usize>,
}

/// The shape of a [`Node`].
#[derive(Debug, Clone)]
pub enum NodeKind {
    /// A scalar with its (unresolved) text and style.
    Scalar {
        /// The scalar's value after YAML's folding and escapes.
        value: String,
        /// How it was written.
        style: Style,
    },
    /// A sequence.
    Sequence(Vec<Node>),
    /// A mapping, in source order.
    Mapping(Vec<(Node, Node)>),
    /// An alias (`*name`); not followed.
    Alias,
}

/// How a scalar was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Plain.
    Plain,
    /// `'single'`.
    SingleQuoted,
    /// `"double"`.
    DoubleQuoted,
    /// `|` block.
    Literal,
    /// `>` block.
    Folded,
}

/// A YAML syntax or decoding error at a byte offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    /// The parser's message.
    pub message: String,
    /// Byte offset of the problem.
    pub offset: usize,
}

impl Node {
    /// The value under `key` when this node is a mapping with a plain-text key `key`.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.kind {
            NodeKind::Mapping(entries) => entries
                .iter()
                .find(|(k, _)| k.as_str() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// The entry (key node, value node) under `key`.
    pub fn entry(&self, key: &str) -> Option<(&Node, &Node)> {
        match &self.kind {
            NodeKind::Mapping(entries) => entries
                .iter()
                .find(|(k, _)| k.as_str() == Some(key))
                .map(|(k, v)| (k, v)),
            _ => None,
        }
    }

    /// The items of a sequence node (empty for anything else).
    pub fn items(&self) -> &[Node] {
        match &self.kind {
            NodeKind::Sequence(items) => items,
            _ => &[],
        }
    }

    /// The scalar text of a scalar node.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Scalar { value, .. } => Some(value),
            _ => None,
        }
    }
}

/// Reads every non-empty document of a YAML stream.
///
/// Empty documents (nothing, or only comments, or an explicit `null`) are skipped, as
/// `crossplane render` skips empty chunks.
pub fn read_stream(text: &str) -> Result<Vec<Document>, YamlError> {
    let nodes = parse_nodes(text)?;
    let mut values = Vec::new();
    for doc in yaml_serde::Deserializer::from_str(text) {
        let value: yaml_serde::Value =
            serde::Deserialize::deserialize(doc).map_err(|e| serde_error(text, &e))?;
        values.push(value);
    }
    // yaml_serde reads an empty stream as one null document, saphyr as none.
    if nodes.is_empty() && values.iter().all(|v: &yaml_serde::Value| v.is_null()) {
        return Ok(Vec::new());
    }
    if nodes.len() != values.len() {
        return Err(YamlError {
            message: format!(
                "internal: {} documents with positions but {} values",
                nodes.len(),
                values.len()
            ),
            offset: 0,
        });
    }
    Ok(values
        .into_iter()
        .zip(nodes)
        .filter(|(value, _)| !value.is_null())
        .map(|(value, root)| Document { value, root })
        .collect())
}

/// Reads the first non-empty document, as `yaml.Unmarshal` of a whole file does for an XR or
/// a Composition. `Ok(None)` when there is none.
pub fn read_first(text: &str) -> Result<Option<Document>, YamlError> {
    Ok(read_stream(text)?.into_iter().next())
}

pub(crate) fn serde_error(text: &str, error: &yaml_serde::Error) -> YamlError {
    let offset = error
        .location()
        .map(|loc| offset_of_line_col(text, loc.line(), loc.column()))
        .unwrap_or(0);
    YamlError {
        message: strip_location_suffix(&error.to_string()),
        offset,
    }
}

/// yaml_serde appends " at line L column C" to its messages; we print positions ourselves.
fn strip_location_suffix(message: &str) -> String {
    match message.find(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// Byte offset of a 1-based line and 1-based character column.
pub(crate) fn offset_of_line_col(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = &text[line_start.min(text.len())..];
    line_start
        + rest
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(rest.len(), |(i, _)| i)
}

/// Converts saphyr's character indices to byte offsets.
struct CharIndex {
    offsets: Option<Vec<usize>>,
    len: usize,
}

impl CharIndex {
    fn new(text: &str) -> CharIndex {
        let offsets = (!text.is_ascii()).then(|| text.char_indices().map(|(i, _)| i).collect());
        CharIndex {
            offsets,
            len: text.len(),
        }
    }

    fn byte(&self, char_index: usize) -> usize {
        match &self.offsets {
            None => char_index.min(self.len),
            Some(offsets) => offsets.get(char_index).copied().unwrap_or(self.len),
        }
    }
}

/// Parses the stream into one node tree per document.
pub fn parse_nodes(text: &str) -> Result<Vec<Node>, YamlError> {
    let index = CharIndex::new(text);
    let mut builder = TreeBuilder {
        text,
        documents: Vec::new(),
        stack: Vec::new(),
    };
    let mut expansion = Expansion::default();
    for event in Parser::new_from_str(text) {
        let (event, span) = event.map_err(|e| YamlError {
            message: e.info().to_string(),
            offset: index.byte(e.marker().index()),
        })?;
        let range = index.byte(span.start.index())..index.byte(span.end.index());
        if !expansion.event(&event) {
            return Err(YamlError {
                message: format!(
                    "the stream's aliases expand to more than {MAX_ALIAS_EXPANSION} nodes \
                     (fnhcl's limit: each alias repeats its anchor's whole content)"
                ),
                offset: range.start,
            });
        }
        builder.event(event, range);
    }
    Ok(builder.documents)
}

/// How many nodes the aliases of one YAML stream may add when they are expanded. Every
/// alias repeats its anchor's whole content in the decoded value, so a few hundred bytes of
/// nested aliases ("billion laughs") or one big anchor aliased many times expand to billions
/// of nodes; real manifests stay far below (a merge key `<<: *defaults` adds a few).
pub const MAX_ALIAS_EXPANSION: u64 = 1_000_000;

/// Counts the nodes aliases add, from the expanded size of every anchor: fed every event of
/// a stream, it says when they pass [`MAX_ALIAS_EXPANSION`].
#[derive(Default)]
pub struct Expansion {
    /// The expanded size of each finished anchor, by saphyr's anchor id.
    anchors: std::collections::HashMap<usize, u64>,
    /// Open sequences and mappings: their anchor id and expanded size so far.
    open: Vec<(usize, u64)>,
    /// Nodes added by aliases so far.
    added: u64,
}

impl Expansion {
    /// Accounts for one event; `false` once the aliases add more than the limit.
    pub fn event(&mut self, event: &Event<'_>) -> bool {
        match event {
            Event::Scalar(_, _, anchor, _) => self.finish(*anchor, 1),
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                self.open.push((*anchor, 1));
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((anchor, size)) = self.open.pop() {
                    self.finish(anchor, size);
                }
            }
            Event::Alias(id) => {
                let size = self.anchors.get(id).copied().unwrap_or(1);
                self.added = self.added.saturating_add(size);
                self.finish(0, size);
            }
            _ => {}
        }
        self.added <= MAX_ALIAS_EXPANSION
    }

    /// A node of `size` expanded nodes is complete: it counts in its parent, and as its
    /// anchor's size.
    fn finish(&mut self, anchor: usize, size: u64) {
        if let Some((_, parent)) = self.open.last_mut() {
            *parent = parent.saturating_add(size);
        }
        if anchor != 0 {
            self.anchors.insert(anchor, size);
        }
    }
}

/// Builds nodes from events with an explicit stack, so deep nesting cannot overflow ours.
struct TreeBuilder<'t> {
    text: &'t str,
    documents: Vec<Node>,
    stack: Vec<Node>,
}

impl TreeBuilder<'_> {
    fn event(&mut self, event: Event<'_>, range: Range<usize>) {
        match event {
            Event::Scalar(value, style, _, _) => {
                let style = match style {
                    ScalarStyle::Plain => Style::Plain,
                    ScalarStyle::SingleQuoted => Style::SingleQuoted,
                    ScalarStyle::DoubleQuoted => Style::DoubleQuoted,
                    ScalarStyle::Literal => Style::Literal,
                    ScalarStyle::Folded => Style::Folded,
                };
                let value = value.into_owned();
                let mut span = range;
                if matches!(style, Style::Literal | Style::Folded) {
                    span.start = block_header_start(self.text, span.start);
                }
                self.push(Node {
                    kind: NodeKind::Scalar { value, style },
                    span,
                });
            }
            Event::Alias(_) => self.push(Node {
                kind: NodeKind::Alias,
                span: range,
            }),
            Event::SequenceStart(..) => self.stack.push(Node {
                kind: NodeKind::Sequence(Vec::new()),
                span: range,
            }),
            Event::MappingStart(..) => self.stack.push(Node {
                kind: NodeKind::Mapping(Vec::new()),
                span: range,
            }),
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(mut node) = self.stack.pop() {
                    node.span.end = range.end.max(node.span.start);
                    if let NodeKind::Mapping(entries) = &node.kind
                        && let Some((_, last)) = entries.last()
                    {
                        node.span.end = node.span.end.max(last.span.end);
                    }
                    self.push(node);
                }
            }
            Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart(_)
            | Event::DocumentEnd
            | Event::Nothing => {}
        }
    }

    /// Attaches a finished node to its parent, or ends a document.
    fn push(&mut self, node: Node) {
        let Some(parent) = self.stack.last_mut() else {
            self.documents.push(node);
            return;
        };
        match &mut parent.kind {
            NodeKind::Sequence(items) => items.push(node),
            NodeKind::Mapping(entries) => match entries.last_mut() {
                Some((_, value)) if is_placeholder(value) => *value = node,
                _ => entries.push((node, placeholder())),
            },
            NodeKind::Scalar { .. } | NodeKind::Alias => {}
        }
    }
}

/// saphyr starts a block scalar's span at its content; we start it at its `|`/`>` header,
/// the last such character on the nearest non-blank line before the content that is followed
/// only by indicators, spaces and a comment.
fn block_header_start(text: &str, content_start: usize) -> usize {
    let content_start = content_start.min(text.len());
    let before = text[..content_start].trim_end();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = &before[line_start..];
    let header = line.char_indices().find(|&(i, c)| {
        (c == '|' || c == '>') && {
            let rest = line[i + 1..]
                .trim_start_matches(|c: char| c.is_ascii_digit() || c == '+' || c == '-');
            let rest = rest.trim_start();
            rest.is_empty() || rest.starts_with('#')
        }
    });
    header.map_or(content_start, |(i, _)| line_start + i)
}

/// A mapping key waits for its value in a placeholder alias node with an impossible span.
fn placeholder() -> Node {
    Node {
        kind: NodeKind::Alias,
        span: usize::MAX..usize::MAX,
    }
}

fn is_placeholder(node: &Node) -> bool {
    matches!(node.kind, NodeKind::Alias) && node.span.start == usize::MAX
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alias_expansion_is_bounded_by_the_size_of_the_result() {
        let mut laughs = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (prev, name) in ["a", "b", "c", "d", "e", "f", "g", "h"]
            .iter()
            .zip("bcdefghi".chars())
        {
            laughs.push_str(&format!(
                "{name}: &{name} [{}]\n",
                vec![format!("*{prev}"); 9].join(", ")
            ));
        }
        let err = read_stream(&laughs).unwrap_err();
        assert!(
            err.message.contains("expand to more than 1000000 nodes"),
            "{err:?}"
        );
        // The first alias past the limit is pointed at: the aliases up to `f` add about
        // 672,000 nodes, the first `*f` in `g` another 597,871.
        assert!(
            laughs[err.offset..].starts_with("*f, *f"),
            "{}",
            &laughs[err.offset..]
        );
        // One wide anchor aliased many times: 3,000 × 3,000 nodes.
        let wide = format!(
            "base: &x [{}]\nuses:\n{}",
            vec!["1"; 3000].join(","),
            "- *x\n".repeat(3000)
        );
        assert!(read_stream(&wide).is_err());
        // Ordinary anchors, merge keys and an expansion just below the limit are read.
        let ok = format!(
            "base: &x [{}]\nuses:\n{}",
            vec!["1"; 1000].join(","),
            "- *x\n".repeat(990)
        );
        assert_eq!(read_stream(&ok).unwrap().len(), 1);
        let merged = read_stream("d: &d {a: 1}\ne:\n  <<: *d\n  b: 2\n").unwrap();
        assert_eq!(merged[0].value["d"]["a"], yaml_serde::Value::from(1));
    }

    #[test]
    fn empty_documents_are_skipped() {
        let docs = read_stream("---\n# only a comment\n---\na: 1\n---\n---\nb: 2\n").unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[1].value["b"].as_i64(), Some(2));
    }

    #[test]
    fn an_empty_stream_has_no_documents() {
        assert!(read_stream("").unwrap().is_empty());
        assert!(read_stream("# just a comment\n").unwrap().is_empty());
    }

    #[test]
    fn nodes_carry_byte_spans() {
        let text = "kind: Composition # é\nspec:\n  pipeline:\n  - step: a\n    input:\n      hcl: |\n        x\n";
        let docs = read_stream(text).unwrap();
        let root = &docs[0].root;
        let step = &root.get("spec").unwrap().get("pipeline").unwrap().items()[0];
        let name = step.get("step").unwrap();
        assert_eq!(&text[name.span.clone()], "a");
        let hcl = step.get("input").unwrap().get("hcl").unwrap();
        assert_eq!(hcl.as_str(), Some("x\n"));
        assert!(text[hcl.span.clone()].starts_with('|'));
    }

    #[test]
    fn syntax_errors_have_positions() {
        let text = "a: 1\nb: [1, 2\nc: 3\n";
        let err = read_stream(text).unwrap_err();
        assert!(err.offset > 4, "{err:?}");
    }

    #[test]
    fn serde_positions_convert_to_bytes() {
        assert_eq!(offset_of_line_col("ab\ncé\nx", 2, 2), 4);
        assert_eq!(offset_of_line_col("ab\ncé\nx", 3, 1), 7);
    }
}
