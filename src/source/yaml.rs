//! Reading YAML streams: positions through `saphyr-parser`, values from the same tree or,
//! for what needs YAML's full semantics, through `yaml_serde`.
//!
//! `saphyr-parser` gives an event stream with positions, from which we build a small tree of
//! [`Node`]s. The tree is used to point diagnostics at a step of a Composition and to edit
//! block scalars as text. The values are what every later layer works on: for a stream of
//! "plain" documents (no tags, anchors, aliases, merge keys, duplicate or non-scalar keys,
//! nor deep nesting) they are built from the tree, resolving plain scalars exactly as
//! `yaml_serde` resolves an untagged one; anything else is read again by `yaml_serde` (tag
//! resolution, anchors, and its errors), so the values are always `yaml_serde`'s.

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
    let parsed = parse_documents(text)?;
    match plain_values(&parsed) {
        Some(values) => Ok(pair(values, parsed.documents)),
        None => serde_stream(text, parsed.documents),
    }
}

/// The values of a stream whose every document is plain, built from the trees; `None` when
/// one needs `yaml_serde`.
fn plain_values(parsed: &Parsed) -> Option<Vec<yaml_serde::Value>> {
    if !parsed.plain.iter().all(|&plain| plain) {
        return None;
    }
    parsed.documents.iter().map(plain_value).collect()
}

/// Pairs values with their trees, leaving out empty (null) documents.
fn pair(values: Vec<yaml_serde::Value>, nodes: Vec<Node>) -> Vec<Document> {
    values
        .into_iter()
        .zip(nodes)
        .filter(|(value, _)| !value.is_null())
        .map(|(value, root)| Document { value, root })
        .collect()
}

/// Today's second reading: the values from `yaml_serde`, paired with the trees.
fn serde_stream(text: &str, nodes: Vec<Node>) -> Result<Vec<Document>, YamlError> {
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
    Ok(pair(values, nodes))
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
    Ok(parse_documents(text)?.documents)
}

/// A stream's node trees, and for each whether its events alone decide its value.
struct Parsed {
    documents: Vec<Node>,
    /// Per document: no tag, anchor or alias, and nesting well within `yaml_serde`'s limit.
    plain: Vec<bool>,
}

/// How deep sequences and mappings may nest in a document read from its tree. `yaml_serde`
/// refuses documents deeper than 128; deeper ones go to it for its error.
const PLAIN_MAX_DEPTH: usize = 100;

fn parse_documents(text: &str) -> Result<Parsed, YamlError> {
    let index = CharIndex::new(text);
    let mut builder = TreeBuilder {
        text,
        documents: Vec::new(),
        stack: Vec::new(),
        plain: Vec::new(),
        current_plain: true,
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
    Ok(Parsed {
        documents: builder.documents,
        plain: builder.plain,
    })
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
    /// Whether each finished document is plain (see [`Parsed::plain`]).
    plain: Vec<bool>,
    /// Whether the document being built is plain so far.
    current_plain: bool,
}

impl TreeBuilder<'_> {
    fn event(&mut self, event: Event<'_>, range: Range<usize>) {
        match &event {
            Event::Scalar(_, _, anchor, tag)
            | Event::SequenceStart(anchor, tag)
            | Event::MappingStart(anchor, tag)
                if *anchor != 0 || tag.is_some() || self.stack.len() >= PLAIN_MAX_DEPTH =>
            {
                self.current_plain = false;
            }
            Event::Alias(_) => self.current_plain = false,
            _ => {}
        }
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
            self.plain
                .push(std::mem::replace(&mut self.current_plain, true));
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

/// The value of a plain document's tree, as `yaml_serde` reads it; `None` where `yaml_serde`
/// must decide (non-scalar, duplicate or merge keys, integers only `u128`/`i128` hold).
fn plain_value(node: &Node) -> Option<yaml_serde::Value> {
    use yaml_serde::Value;
    Some(match &node.kind {
        NodeKind::Scalar { value, style } => match style {
            Style::Plain => resolve_plain(value)?,
            _ => Value::String(value.clone()),
        },
        NodeKind::Sequence(items) => {
            Value::Sequence(items.iter().map(plain_value).collect::<Option<_>>()?)
        }
        NodeKind::Mapping(entries) => {
            let mut mapping = yaml_serde::Mapping::with_capacity(entries.len());
            for (key, value) in entries {
                // A merge key is left to yaml_serde, whatever it makes of it.
                let NodeKind::Scalar { value: text, .. } = &key.kind else {
                    return None;
                };
                if text == "<<" {
                    return None;
                }
                match mapping.entry(plain_value(key)?) {
                    yaml_serde::mapping::Entry::Occupied(_) => return None,
                    yaml_serde::mapping::Entry::Vacant(entry) => {
                        entry.insert(plain_value(value)?);
                    }
                }
            }
            Value::Mapping(mapping)
        }
        NodeKind::Alias => return None,
    })
}

/// An untagged plain scalar's value, by `yaml_serde`'s rules (its `visit_untagged_scalar`):
/// null, bool, integer, float, else string. `None` for an integer that only `u128`/`i128`
/// hold, which `yaml_serde::Value` refuses with an error.
fn resolve_plain(v: &str) -> Option<yaml_serde::Value> {
    use yaml_serde::Value;
    if v.is_empty() || matches!(v, "null" | "Null" | "NULL" | "~") {
        return Some(Value::Null);
    }
    match v {
        "true" | "True" | "TRUE" => return Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Some(Value::Bool(false)),
        _ => {}
    }
    if let Some(int) = parse_unsigned_int(v, u64::from_str_radix) {
        return Some(Value::Number(int.into()));
    }
    if let Some(int) = parse_negative_int(v, i64::from_str_radix) {
        return Some(Value::Number(int.into()));
    }
    if parse_unsigned_int(v, u128::from_str_radix).is_some()
        || parse_negative_int(v, i128::from_str_radix).is_some()
    {
        return None;
    }
    if !digits_but_not_number(v)
        && let Some(float) = parse_f64(v)
    {
        return Some(Value::Number(float.into()));
    }
    Some(Value::String(v.to_string()))
}

/// `yaml_serde`'s `parse_unsigned_int`: an optional `+`, then `0x`/`0o`/`0b` digits or
/// decimal digits without a leading zero.
fn parse_unsigned_int<T>(
    scalar: &str,
    from_str_radix: fn(&str, u32) -> Result<T, std::num::ParseIntError>,
) -> Option<T> {
    let unpositive = scalar.strip_prefix('+').unwrap_or(scalar);
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = unpositive.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return None;
            }
            if let Ok(int) = from_str_radix(rest, radix) {
                return Some(int);
            }
        }
    }
    if unpositive.starts_with(['+', '-']) {
        return None;
    }
    if digits_but_not_number(scalar) {
        return None;
    }
    from_str_radix(unpositive, 10).ok()
}

/// `yaml_serde`'s `parse_negative_int`: `-0x`/`-0o`/`-0b` digits, or what the type's own
/// decimal parse accepts (a sign included) without a leading zero.
fn parse_negative_int<T>(
    scalar: &str,
    from_str_radix: fn(&str, u32) -> Result<T, std::num::ParseIntError>,
) -> Option<T> {
    for (prefix, radix) in [("-0x", 16), ("-0o", 8), ("-0b", 2)] {
        if let Some(rest) = scalar.strip_prefix(prefix) {
            let negative = format!("-{rest}");
            if let Ok(int) = from_str_radix(&negative, radix) {
                return Some(int);
            }
        }
    }
    if digits_but_not_number(scalar) {
        return None;
    }
    from_str_radix(scalar, 10).ok()
}

/// `yaml_serde`'s `parse_f64`: YAML's `.inf`/`.nan` spellings, else Rust's float parse when
/// it gives a finite number (so Rust's `inf`, `nan` and overflowing forms stay strings).
fn parse_f64(scalar: &str) -> Option<f64> {
    let unpositive = if let Some(unpositive) = scalar.strip_prefix('+') {
        if unpositive.starts_with(['+', '-']) {
            return None;
        }
        unpositive
    } else {
        scalar
    };
    if let ".inf" | ".Inf" | ".INF" = unpositive {
        return Some(f64::INFINITY);
    }
    if let "-.inf" | "-.Inf" | "-.INF" = scalar {
        return Some(f64::NEG_INFINITY);
    }
    if let ".nan" | ".NaN" | ".NAN" = scalar {
        return Some(f64::NAN.copysign(1.0));
    }
    match unpositive.parse::<f64>() {
        Ok(float) if float.is_finite() => Some(float),
        _ => None,
    }
}

/// Leading zeros followed by digits are a string in YAML 1.2 (`yaml_serde`'s rule).
fn digits_but_not_number(scalar: &str) -> bool {
    let scalar = scalar.strip_prefix(['-', '+']).unwrap_or(scalar);
    scalar.len() > 1 && scalar.starts_with('0') && scalar[1..].bytes().all(|b| b.is_ascii_digit())
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

    /// yaml_serde's values for every document of a stream, nulls included.
    fn serde_values(text: &str) -> Result<Vec<yaml_serde::Value>, String> {
        yaml_serde::Deserializer::from_str(text)
            .map(|doc| serde::Deserialize::deserialize(doc).map_err(|e| e.to_string()))
            .collect()
    }

    /// Checks the tree's values against yaml_serde's on one stream; whether the whole stream
    /// took the fast path, and how many documents were read from their trees.
    fn differential(name: &str, text: &str) -> (bool, usize) {
        let Ok(parsed) = parse_documents(text) else {
            return (false, 0);
        };
        let slow = serde_values(text);
        let fast = plain_values(&parsed);
        let Ok(slow) = slow else {
            // yaml_serde's error must be reported, so the stream must fall back.
            assert!(
                fast.is_none(),
                "{name}: yaml_serde fails but the tree was used"
            );
            return (false, 0);
        };
        let mut checked = 0;
        if slow.len() == parsed.documents.len() {
            for (i, root) in parsed.documents.iter().enumerate() {
                if parsed.plain[i]
                    && let Some(value) = plain_value(root)
                {
                    assert_eq!(value, slow[i], "{name}: document {i}");
                    checked += 1;
                }
            }
        }
        let Some(fast) = fast else {
            return (false, checked);
        };
        let fast = pair(fast, parsed.documents.clone());
        let slow = serde_stream(text, parsed.documents).unwrap();
        let values = |docs: &[Document]| docs.iter().map(|d| d.value.clone()).collect::<Vec<_>>();
        assert_eq!(values(&fast), values(&slow), "{name}");
        (true, checked)
    }

    fn yaml_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                yaml_files(&path, out);
            } else if path
                .extension()
                .is_some_and(|e| e == "yaml" || e == "yml" || e == "json" || e == "txtar")
            {
                out.push(path);
            }
        }
    }

    #[test]
    #[allow(clippy::print_stderr)] // the skipped corpora and the counts, for the record
    fn tree_values_equal_yaml_serde_values_on_every_yaml_file() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("tests/fixtures"), root.join("examples")];
        for shared in ["../shared/conformance", "../shared/pt-corpus"] {
            let dir = root.join(shared);
            if dir.is_dir() {
                dirs.push(dir);
            } else {
                eprintln!("notice: {} is absent, skipped", dir.display());
            }
        }
        let mut files = Vec::new();
        for dir in &dirs {
            yaml_files(dir, &mut files);
        }
        let (mut streams, mut fast_streams, mut documents) = (0, 0, 0);
        for file in &files {
            let Ok(text) = std::fs::read_to_string(file) else {
                continue;
            };
            let name = file.display().to_string();
            // JSON is YAML too; a txtar archive's YAML members are read as YAML.
            let members = if name.ends_with(".txtar") {
                crate::source::txtar::parse(&text)
                    .files
                    .into_iter()
                    .filter(|f| f.name.ends_with(".yaml") || f.name.ends_with(".yml"))
                    .map(|f| (format!("{name}:{}", f.name), f.data))
                    .collect()
            } else {
                vec![(name, text)]
            };
            for (name, text) in members {
                let (fast, checked) = differential(&name, &text);
                streams += 1;
                fast_streams += usize::from(fast);
                documents += checked;
            }
        }
        eprintln!(
            "{streams} YAML and JSON files, {fast_streams} read from the tree alone, \
             {documents} documents compared"
        );
        assert!(
            fast_streams > 100 && documents > 100,
            "{fast_streams} {documents}"
        );
    }

    #[test]
    fn plain_scalars_resolve_as_yaml_serde_resolves_them() {
        let scalars = [
            "",
            "~",
            "null",
            "Null",
            "NULL",
            "nULL",
            "'null'",
            "\"~\"",
            "true",
            "True",
            "TRUE",
            "tRUE",
            "false",
            "False",
            "FALSE",
            "yes",
            "no",
            "on",
            "off",
            "y",
            "n",
            "Y",
            "N",
            "'true'",
            "0",
            "-0",
            "+0",
            "00",
            "007",
            "-007",
            "+007",
            "08",
            "1",
            "+1",
            "-1",
            "++1",
            "+-1",
            "--1",
            "1_000",
            "1__0",
            "_1",
            "0x1F",
            "0X1F",
            "0x",
            "0x_1",
            "+0x1f",
            "-0x1f",
            "0x+1",
            "0x-1",
            "-0x-1",
            "0xFFFFFFFFFFFFFFFF",
            "0x10000000000000000",
            "0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
            "0x1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
            "-0x8000000000000000",
            "-0x8000000000000001",
            "0o17",
            "0o18",
            "-0o17",
            "+0o17",
            "0o",
            "017",
            "0b101",
            "0b102",
            "-0b1",
            "+0b1",
            "0b",
            "1e3",
            "1E3",
            "1e+3",
            "1e-3",
            "+1e3",
            "-1e3",
            "1.",
            ".5",
            "-.5",
            "+.5",
            "5.",
            "1.5e",
            "e3",
            "1_000.5",
            "1.5_0",
            "0.1",
            "00.1",
            "01.5",
            "-01.5",
            "0e0",
            "1e400",
            "-1e400",
            "1e-400",
            ".inf",
            ".Inf",
            ".INF",
            "+.inf",
            "-.inf",
            "-.Inf",
            "-.INF",
            "+-.inf",
            ".iNf",
            "inf",
            "-inf",
            "infinity",
            "Infinity",
            "+inf",
            ".nan",
            ".NaN",
            ".NAN",
            "+.nan",
            "-.nan",
            "nan",
            "NaN",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "340282366920938463463374607431768211455",
            "340282366920938463463374607431768211456",
            "-170141183460469231731687303715884105728",
            "-170141183460469231731687303715884105729",
            "123456789012345678901234567890123456789012345678901234567890",
            "1.2.3",
            "127.0.0.1",
            "10:20",
            "1:2:3",
            "0:0",
            "2001-01-01",
            "12:30:45",
            "0.",
            "-",
            "+",
            ".",
            "-.",
            "a b",
            "'1'",
            "\"1\"",
            "|\n  1\n",
            ">\n  true\n",
            "\"\"",
            "''",
            "<<x",
            "=",
            "=1",
        ];
        let mut fast = 0;
        for scalar in scalars {
            for text in [
                format!("k: {scalar}\n"),
                format!("- {scalar}\n"),
                format!("? {scalar}\n: v\n"),
            ] {
                fast += usize::from(differential(&format!("{text:?}"), &text).0);
            }
        }
        // Nearly all take the fast path; `fast` counts them so the comparison is not vacuous.
        assert!(fast > 3 * scalars.len() - 40, "{fast}");
        for text in [
            "k: 340282366920938463463374607431768211455\n",
            "k: -18446744073709551617\n",
        ] {
            assert!(
                plain_values(&parse_documents(text).unwrap()).is_none(),
                "{text}"
            );
        }
        assert_eq!(
            resolve_plain("0x10"),
            Some(yaml_serde::Value::Number(16u64.into()))
        );
        assert_eq!(
            resolve_plain("007"),
            Some(yaml_serde::Value::String("007".into()))
        );
    }

    #[test]
    fn what_needs_yaml_serde_falls_back() {
        let fallbacks = [
            "a: !!str 1\n",
            "a: !foo x\n",
            "a: !!map {b: 1}\n",
            "a: &x 1\nb: *x\n",
            "a: &x [1]\n",
            "d: &d {a: 1}\ne:\n  <<: *d\n",
            "e:\n  <<: {a: 1}\n  b: 2\n",
            "a: 1\na: 2\n",
            "1: a\n0x1: b\n",
            "? [1, 2]\n: v\n",
            "? {a: 1}\n: v\n",
            "~: a\nnull: b\n",
            "--- !!str\nx\n",
        ];
        for text in fallbacks {
            let parsed = parse_documents(text).unwrap();
            assert!(plain_values(&parsed).is_none(), "{text}");
            differential(text, text);
        }
        let deep = format!(
            "{}{}",
            "[".repeat(PLAIN_MAX_DEPTH + 1),
            "]".repeat(PLAIN_MAX_DEPTH + 1)
        );
        assert!(plain_values(&parse_documents(&deep).unwrap()).is_none());
        let too_deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(read_stream(&too_deep).is_err());
        let shallow = format!(
            "{}{}",
            "[".repeat(PLAIN_MAX_DEPTH),
            "]".repeat(PLAIN_MAX_DEPTH)
        );
        assert!(plain_values(&parse_documents(&shallow).unwrap()).is_some());
        // Several documents, empty ones among them, keep yaml_serde's order and skipping.
        let text = "a: 1\n---\n---\nnull\n---\n- x\n...\n---\nb: 'on'\n";
        assert!(differential(text, text).0);
        assert_eq!(read_stream(text).unwrap().len(), 3);
    }
}
