//! go-cty-yaml 1.1.0's `yamldecode`: one YAML document, its type from `ImpliedType` (scalars
//! resolved by their tags, mappings as objects, sequences as tuples, anchors and single
//! merge keys followed), its value from `Unmarshal` converted to that type.
//!
//! Events come from `saphyr-parser` (YAML 1.2) where go-cty-yaml uses libyaml (YAML 1.1);
//! the two agree on the event streams of ordinary documents. YAML 1.1 also breaks lines at
//! U+0085, U+2028 and U+2029: U+0085 (which libyaml reads as a newline) is turned into `\n`
//! before parsing, but a raw U+2028 or U+2029 stays content here, where libyaml would take
//! it as a line break it keeps in the text. Syntax errors carry saphyr's messages, not
//! libyaml's.

use super::go_quote;
use super::yaml_resolve::{self, MAP, Resolved, SEQ};
use crate::eval::convert;
use crate::eval::functions::FunctionError;
use crate::eval::types::Type;
use crate::eval::value::Value;
use saphyr_parser::{Event, Parser, ScalarStyle, Span, StrInput, Tag};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// `ImpliedType` for a known string, else dynamic.
pub(super) fn return_type(args: &[Value]) -> Result<Type, FunctionError> {
    match args.first() {
        Some(Value::String(src)) => Ok(Walker::new(&prepare(src), true).document()?.ty()),
        _ => Ok(Type::Dynamic),
    }
}

/// `Unmarshal`, converted to the implied type.
pub(super) fn decode(src: &str, ret: &Type) -> Result<Value, FunctionError> {
    let value = Walker::new(&prepare(src), false).document()?;
    convert::convert(&value, ret).map_err(|e| FunctionError::other(e.to_string()))
}

/// The text libyaml would see: go-cty-yaml reads an empty source as a single newline, and
/// libyaml reads NEL as a newline (CR NEL as two).
fn prepare(src: &str) -> Cow<'_, str> {
    if src.is_empty() {
        Cow::Borrowed("\n")
    } else if src.contains('\u{85}') {
        Cow::Owned(src.replace("\r\u{85}", "\n\n").replace('\u{85}', "\n"))
    } else {
        Cow::Borrowed(src)
    }
}

type Ev<'a> = (Event<'a>, Span);

struct Walker<'a> {
    text: &'a str,
    parser: Parser<'a, StrInput<'a>>,
    /// `ImpliedType` (untagged quoted and block scalars are strings without resolution)
    /// rather than `Unmarshal`.
    implied: bool,
    /// Anchors whose node is still being read, by saphyr's anchor id.
    pending: HashMap<usize, usize>,
    /// Finished anchors' values (their types, when `implied`).
    anchors: HashMap<usize, Value>,
    /// Sequences and mappings open around the current event.
    depth: usize,
    /// The nodes aliases add, bounded as in input loading: values share an anchor's
    /// storage, but writing them out (JSON, YAML, a resource body) repeats it.
    expansion: crate::source::yaml::Expansion,
}

fn err(message: impl Into<String>) -> FunctionError {
    FunctionError::other(message)
}

/// go-cty-yaml's `parseEventErrorWrap`: libyaml's line is 0-based, and go-cty-yaml prints it
/// as it is, leaving out a position on the first line.
fn at(span: &Span, message: impl Into<String>) -> FunctionError {
    let message = message.into();
    let line = span.start.line().saturating_sub(1);
    if line == 0 {
        return err(message);
    }
    err(format!(
        "on line {line}, column {}: {message}",
        span.start.col() + 1
    ))
}

fn tag_text(tag: &Option<Cow<'_, Tag>>) -> String {
    tag.as_ref()
        .map(|t| format!("{}{}", t.handle, t.suffix))
        .unwrap_or_default()
}

impl<'a> Walker<'a> {
    fn new(text: &'a str, implied: bool) -> Walker<'a> {
        Walker {
            text,
            parser: Parser::new_from_str(text),
            implied,
            pending: HashMap::new(),
            anchors: HashMap::new(),
            depth: 0,
            expansion: Default::default(),
        }
    }

    /// The anchor or alias name written at a span's start (`&name` or `*name`).
    fn name_at(&self, span: &Span) -> String {
        let start = self
            .text
            .char_indices()
            .nth(span.start.index())
            .map_or(self.text.len(), |(i, _)| i);
        self.text[start..]
            .chars()
            .skip(1)
            .take_while(|c| !c.is_whitespace() && !",[]{}".contains(*c))
            .collect()
    }

    fn next(&mut self) -> Result<Ev<'a>, FunctionError> {
        match self.parser.next_event() {
            Some(Ok(ev)) => {
                if !self.expansion.event(&ev.0) {
                    return Err(at(
                        &ev.1,
                        format!(
                            "aliases expand to more than {} nodes (fnhcl's limit: each alias \
                             repeats its anchor's whole content)",
                            crate::source::yaml::MAX_ALIAS_EXPANSION
                        ),
                    ));
                }
                Ok(ev)
            }
            Some(Err(e)) => {
                let span = Span::new(*e.marker(), *e.marker());
                if e.info() == "while parsing node, found unknown anchor" {
                    let name = self.name_at(&span);
                    return Err(at(
                        &span,
                        format!("reference to undefined anchor {}", go_quote(&name)),
                    ));
                }
                Err(at(&span, e.info().to_string()))
            }
            None => Err(err("unexpected end of YAML events")),
        }
    }

    fn document(&mut self) -> Result<Value, FunctionError> {
        let (ev, span) = self.next()?;
        if !matches!(ev, Event::StreamStart) {
            return Err(at(&span, "missing stream start token"));
        }
        let (ev, span) = self.next()?;
        if !matches!(ev, Event::DocumentStart(_)) {
            return Err(at(&span, "missing start of document"));
        }
        let first = self.next()?;
        let value = self.node(first)?;
        let (ev, span) = self.next()?;
        match ev {
            Event::DocumentStart(_) => return Err(at(&span, "only a single document is allowed")),
            Event::DocumentEnd => {}
            _ => return Err(at(&span, "unexpected extra content after value")),
        }
        let (ev, span) = self.next()?;
        if !matches!(ev, Event::StreamEnd) {
            return Err(at(&span, "unexpected extra content after value"));
        }
        Ok(value)
    }

    fn begin(&mut self, anchor: usize) {
        if anchor != 0 {
            *self.pending.entry(anchor).or_default() += 1;
        }
    }

    fn complete(&mut self, anchor: usize, value: &Value) {
        if anchor == 0 {
            return;
        }
        if let Some(n) = self.pending.get_mut(&anchor) {
            *n -= 1;
            if *n == 0 {
                self.pending.remove(&anchor);
            }
        }
        self.anchors.insert(anchor, value.clone());
    }

    fn node(&mut self, ev: Ev<'a>) -> Result<Value, FunctionError> {
        let opens = matches!(ev.0, Event::MappingStart(..) | Event::SequenceStart(..));
        if opens {
            if self.depth >= super::MAX_DECODE_DEPTH {
                return Err(at(&ev.1, super::too_deep()));
            }
            self.depth += 1;
        }
        let value = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.node_inner(ev));
        if opens {
            self.depth -= 1;
        }
        value
    }

    fn node_inner(&mut self, (ev, span): Ev<'a>) -> Result<Value, FunctionError> {
        match ev {
            Event::Scalar(text, style, anchor, tag) => {
                self.begin(anchor);
                let tag = tag_text(&tag);
                let implicit = tag.is_empty() && style == ScalarStyle::Plain || tag == "!";
                let value = if self.implied && tag.is_empty() && !implicit {
                    Value::string(&text)
                } else {
                    let quoted =
                        matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted);
                    match yaml_resolve::resolve(&tag, &text, quoted) {
                        Ok(Resolved::Value(v)) => v,
                        Ok(Resolved::Merge) => Value::string("<<"),
                        Err(message) => return Err(at(&span, message)),
                    }
                };
                self.complete(anchor, &value);
                Ok(value)
            }
            Event::Alias(id) => {
                if self.pending.contains_key(&id) {
                    let name = self.name_at(&span);
                    return Err(at(
                        &span,
                        format!(
                            "cannot refer to anchor {} from inside its own definition",
                            go_quote(&name)
                        ),
                    ));
                }
                match self.anchors.get(&id) {
                    Some(v) => Ok(v.clone()),
                    None => {
                        let name = self.name_at(&span);
                        Err(at(
                            &span,
                            format!("reference to undefined anchor {}", go_quote(&name)),
                        ))
                    }
                }
            }
            Event::MappingStart(anchor, tag) => {
                let tag = tag_text(&tag);
                if !tag.is_empty() && tag != MAP {
                    return Err(at(&span, format!("can't interpret mapping as {tag}")));
                }
                self.begin(anchor);
                let value = self.mapping()?;
                self.complete(anchor, &value);
                Ok(value)
            }
            Event::SequenceStart(anchor, tag) => {
                let tag = tag_text(&tag);
                if !tag.is_empty() && tag != SEQ {
                    return Err(at(&span, format!("can't interpret sequence as {tag}")));
                }
                self.begin(anchor);
                let mut items = Vec::new();
                loop {
                    let next = self.next()?;
                    if matches!(next.0, Event::SequenceEnd) {
                        break;
                    }
                    items.push(self.node(next)?);
                }
                let value = Value::Tuple(items.into());
                self.complete(anchor, &value);
                Ok(value)
            }
            Event::DocumentStart(_) => Err(at(&span, "only a single document is allowed")),
            Event::StreamEnd => Err(at(&span, "expecting value but found end of stream")),
            _ => Err(at(&span, "unexpected parser event")),
        }
    }

    fn mapping(&mut self) -> Result<Value, FunctionError> {
        let mut attrs = BTreeMap::new();
        loop {
            let (ev, span) = self.next()?;
            let (text, style, tag) = match ev {
                Event::MappingEnd => return Ok(Value::Object(attrs.into())),
                Event::Scalar(text, style, _, tag) => (text, style, tag),
                _ => return Err(at(&span, "only strings are allowed as mapping keys")),
            };
            let quoted = matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted);
            let key = match yaml_resolve::resolve(&tag_text(&tag), &text, quoted) {
                Err(message) => return Err(err(message)),
                Ok(Resolved::Merge) => {
                    let next = self.next()?;
                    let merged = self.node(next)?;
                    let (Value::Object(items) | Value::Map { items, .. }) = merged else {
                        return Err(at(
                            &span,
                            format!("cannot merge {} into mapping", merged.ty().friendly_name()),
                        ));
                    };
                    attrs.extend(items.iter().map(|(k, v)| (k.clone(), v.clone())));
                    continue;
                }
                Ok(Resolved::Value(key)) => key,
            };
            let key = match key {
                Value::String(s) => s.into_string(),
                Value::Bool(b) => b.to_string(),
                Value::Number(n) => n.to_string(),
                Value::Null(_) => return Err(at(&span, "mapping key cannot be null")),
                _ => return Err(at(&span, "only strings are allowed as mapping keys")),
            };
            let next = self.next()?;
            let value = self.node(next)?;
            attrs.insert(key, value);
        }
    }
}
