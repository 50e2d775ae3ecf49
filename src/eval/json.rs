//! Values to and from JSON as go-cty's `cty/json` package does it (`ImpliedType` with
//! `Unmarshal`, and `Marshal(val, val.Type())`), Go's `encoding/json` string escaping for the
//! bytes `jsonencode` returns, and values printed as `terraform console` prints them.

use super::convert::PathStep;
use super::num::Num;
use super::types::Type;
use super::value::Value;
use serde_json::{Map, Number, Value as Json};
use std::collections::BTreeMap;
use std::fmt;

/// A value that cty cannot turn into JSON, or JSON cty cannot turn into a value (cty's
/// `PathError`: the message, and where it happened).
#[derive(Clone, Debug, PartialEq)]
pub struct JsonError {
    /// Where in the value the error happened (empty: the value itself).
    pub path: Vec<PathStep>,
    /// cty's message, e.g. `value is not known`.
    pub message: String,
}

impl JsonError {
    fn new(path: &[At], message: impl Into<String>) -> JsonError {
        JsonError {
            path: path.iter().map(|step| step.owned()).collect(),
            message: message.into(),
        }
    }
}

/// A step of the path to the part being converted, borrowed from the value or document: a
/// [`PathStep`] is built only for an error (building one per element allocated a number or
/// a name for every element of every document converted).
#[derive(Clone, Copy)]
enum At<'a> {
    Attr(&'a str),
    Index(usize),
    Key(&'a str),
    Element(&'a Value),
}

impl At<'_> {
    fn owned(self) -> PathStep {
        match self {
            At::Attr(name) => PathStep::GetAttr(name.to_string()),
            At::Index(i) => PathStep::index(i),
            At::Key(key) => PathStep::key(key),
            At::Element(value) => PathStep::Index(value.clone()),
        }
    }
}

impl fmt::Display for JsonError {
    /// The message alone, as a cty `PathError` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for JsonError {}

// ---------------------------------------------------------------------------------------------
// JSON → value

/// The value cty's `ctyjson.Unmarshal(buf, ctyjson.ImpliedType(buf))` produces: objects (never
/// maps) with NFC-normalised attribute names, tuples (never lists), numbers parsed from their
/// exact text at 512 bits, NFC strings, and `null` as a null of dynamic type.
///
/// A number whose text cty cannot parse (an exponent beyond Go's `big.Float` range) makes cty
/// fail; here it becomes the `f64` its text rounds to (±Inf or 0). Use [`try_implied_value`] to
/// get cty's error instead.
pub fn implied_value(json: &Json) -> Value {
    decode(json, &mut Vec::new(), true).unwrap_or_else(|_| Value::null())
}

/// [`implied_value`] of one part of a larger document, the error kept: a caller that decodes
/// the document's parts one at a time (not a copy of the whole) fails as the whole would.
pub fn implied_part(json: &Json) -> Result<Value, JsonError> {
    decode(json, &mut Vec::new(), true)
}

/// The attribute name an object key has in cty (NFC, as `cty.ObjectVal` normalises it).
pub fn attribute_name(key: &str) -> String {
    let Value::String(name) = Value::string(key) else {
        unreachable!("Value::string makes a string");
    };
    name.into_string()
}

/// As [`implied_value`], with cty's error (`a number is required`) for a number cty cannot
/// parse.
pub fn try_implied_value(json: &Json) -> Result<Value, JsonError> {
    decode(json, &mut Vec::new(), false)
}

fn decode<'a>(json: &'a Json, path: &mut Vec<At<'a>>, lenient: bool) -> Result<Value, JsonError> {
    Ok(match json {
        Json::Null => Value::Null(Type::Dynamic),
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => Value::Number(decode_number(n, path, lenient)?),
        Json::String(s) => Value::string(s),
        Json::Array(items) => {
            let mut values = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                path.push(At::Index(i));
                let value = decode(item, path, lenient);
                path.pop();
                values.push(value?);
            }
            Value::Tuple(values.into())
        }
        Json::Object(map) => {
            let mut attrs = BTreeMap::new();
            for (key, item) in map {
                path.push(At::Attr(key));
                let value = decode(item, path, lenient);
                path.pop();
                // cty.ObjectVal normalises attribute names; of two names that normalise alike
                // (Go picks one at random), the later one in key order wins here.
                attrs.insert(attribute_name(key), value?);
            }
            Value::Object(attrs.into())
        }
    })
}

fn decode_number(n: &Number, path: &[At], lenient: bool) -> Result<Num, JsonError> {
    let text = n.as_str();
    if let Some(num) = Num::parse(text) {
        return Ok(num);
    }
    if lenient {
        let approx = text.parse::<f64>().unwrap_or(0.0);
        if let Some(num) = Num::from_f64(approx) {
            return Ok(num);
        }
    }
    Err(JsonError::new(path, "a number is required"))
}

// ---------------------------------------------------------------------------------------------
// value → JSON

/// `ctyjson.Marshal(value, value.Type())` as a JSON value: numbers carry their exact decimal text
/// (Go's `Text('f', -1)`), lists, sets and tuples are arrays (sets in their stored order), maps
/// and objects are JSON objects, nulls are `null`.
///
/// Errors, with cty's messages: `value is not known` for an unknown anywhere, `cannot serialize
/// infinity as JSON` for ±Inf.
pub fn to_json(value: &Value) -> Result<Json, JsonError> {
    let mut tree = TreeSink::default();
    marshal(value, false, &mut Vec::new(), &mut tree)?;
    Ok(tree.finish())
}

/// The bytes `ctyjson.Marshal(value, value.Type())` returns — what `jsonencode` returns for a
/// wholly known, non-null value: compact, object keys sorted, strings escaped by Go's
/// `encoding/json` including its HTML escaping (`<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026`).
pub fn to_json_string(value: &Value) -> Result<String, JsonError> {
    to_json_string_with(value, true)
}

/// As [`to_json_string`], choosing whether `<`, `>` and `&` are escaped (Go's
/// `Encoder.SetEscapeHTML`).
pub fn to_json_string_with(value: &Value, html_escape: bool) -> Result<String, JsonError> {
    let mut text = TextSink {
        // Room for a short document: growing from nothing took four reallocations (and
        // copies) to reach a line of text.
        buf: String::with_capacity(64),
        len: 0,
        html_escape,
        last: 0,
    };
    marshal(value, false, &mut Vec::new(), &mut text)?;
    // Escaping can make the text six times as long as the value's strings, and a string past
    // fnhcl's limit is refused anyway (`jsonencode(jsonencode(…))` chains): past the limit the
    // sink only counts, so the message can give the whole length.
    if text.len > crate::eval::budget::MAX_STRING_BYTES {
        return Err(JsonError::new(
            &[],
            crate::eval::budget::string_too_long(text.len),
        ));
    }
    debug_assert_eq!(text.buf.len(), text.len, "the sink wrote what it counted");
    Ok(text.buf)
}

/// A JSON value as Go's `json.Marshal` writes the equivalent `any`: compact, object keys sorted,
/// numbers as their stored text, strings with Go's escaping (HTML escaping optional).
pub fn encode_json(json: &Json, html_escape: bool) -> String {
    let mut buf = String::new();
    write_json(json, &mut buf, html_escape);
    buf
}

fn write_json(json: &Json, buf: &mut String, html_escape: bool) {
    match json {
        Json::Null => buf.push_str("null"),
        Json::Bool(b) => buf.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => buf.push_str(n.as_str()),
        Json::String(s) => write_go_string(s, buf, html_escape),
        Json::Array(items) => {
            buf.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    buf.push(',');
                }
                write_json(item, buf, html_escape);
            }
            buf.push(']');
        }
        Json::Object(map) => {
            let mut entries: Vec<(&String, &Json)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            buf.push('{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    buf.push(',');
                }
                write_go_string(key, buf, html_escape);
                buf.push(':');
                write_json(item, buf, html_escape);
            }
            buf.push('}');
        }
    }
}

/// What [`marshal`] produces, in the order cty writes it (object members are not re-sorted,
/// so the `{"value":…,"type":…}` wrapper keeps cty's order). Every value is preceded by a
/// [`Sink::key`] inside an object.
trait Sink {
    fn null(&mut self);
    fn bool(&mut self, b: bool);
    fn number(&mut self, text: String);
    fn string(&mut self, s: &str);
    fn open_array(&mut self);
    fn close_array(&mut self);
    fn open_object(&mut self);
    fn key(&mut self, key: &str);
    fn close_object(&mut self);
}

/// The document as compact text with Go's escaping. `len` counts every byte; `buf` holds them
/// only while the count is within fnhcl's string limit.
struct TextSink {
    buf: String,
    len: usize,
    html_escape: bool,
    /// The last byte counted (0 before the first), whether or not it was written.
    last: u8,
}

impl TextSink {
    fn push(&mut self, text: &str) {
        self.len = self.len.saturating_add(text.len());
        if self.len <= crate::eval::budget::MAX_STRING_BYTES {
            self.buf.push_str(text);
        }
        self.last = text.as_bytes().last().copied().unwrap_or(self.last);
    }

    /// A comma before a value or key that follows another in its array or object.
    fn separate(&mut self) {
        if !matches!(self.last, 0 | b'[' | b'{' | b':') {
            self.push(",");
        }
    }
}

impl Sink for TextSink {
    fn null(&mut self) {
        self.separate();
        self.push("null");
    }

    fn bool(&mut self, b: bool) {
        self.separate();
        self.push(if b { "true" } else { "false" });
    }

    fn number(&mut self, text: String) {
        self.separate();
        self.push(&text);
    }

    fn string(&mut self, s: &str) {
        self.separate();
        // Escaping writes at most six bytes per byte: a string that could cross the limit is
        // counted before it is written.
        let room = crate::eval::budget::MAX_STRING_BYTES.saturating_sub(self.len);
        if s.len().saturating_mul(6).saturating_add(2) <= room {
            let before = self.buf.len();
            write_go_string(s, &mut self.buf, self.html_escape);
            self.len += self.buf.len() - before;
        } else {
            let len = go_string_len(s, self.html_escape);
            self.len = self.len.saturating_add(len);
            if self.len <= crate::eval::budget::MAX_STRING_BYTES {
                self.buf.reserve(len);
                write_go_string(s, &mut self.buf, self.html_escape);
            }
        }
        self.last = b'"';
    }

    fn open_array(&mut self) {
        self.separate();
        self.push("[");
    }

    fn close_array(&mut self) {
        self.push("]");
    }

    fn open_object(&mut self) {
        self.separate();
        self.push("{");
    }

    fn key(&mut self, key: &str) {
        self.string(key);
        self.push(":");
    }

    fn close_object(&mut self) {
        self.push("}");
    }
}

/// The document as a `serde_json` value.
#[derive(Default)]
struct TreeSink {
    /// The arrays and objects being filled, innermost last.
    open: Vec<Open>,
    /// The finished document.
    done: Option<Json>,
}

enum Open {
    Array(Vec<Json>),
    Object(Map<String, Json>, Option<String>),
}

impl TreeSink {
    fn put(&mut self, value: Json) {
        match self.open.last_mut() {
            Some(Open::Array(items)) => items.push(value),
            Some(Open::Object(members, key)) => {
                members.insert(key.take().unwrap_or_default(), value);
            }
            None => self.done = Some(value),
        }
    }

    fn close(&mut self) {
        let value = match self.open.pop() {
            Some(Open::Array(items)) => Json::Array(items),
            Some(Open::Object(members, _)) => Json::Object(members),
            None => return,
        };
        self.put(value);
    }

    fn finish(self) -> Json {
        self.done.unwrap_or(Json::Null)
    }
}

impl Sink for TreeSink {
    fn null(&mut self) {
        self.put(Json::Null);
    }

    fn bool(&mut self, b: bool) {
        self.put(Json::Bool(b));
    }

    fn number(&mut self, text: String) {
        let value = serde_json::from_str::<Number>(&text)
            .map(Json::Number)
            .unwrap_or(Json::Null);
        self.put(value);
    }

    fn string(&mut self, s: &str) {
        self.put(Json::String(s.to_string()));
    }

    fn open_array(&mut self) {
        self.open.push(Open::Array(Vec::new()));
    }

    fn close_array(&mut self) {
        self.close();
    }

    fn open_object(&mut self) {
        self.open.push(Open::Object(Map::new(), None));
    }

    fn key(&mut self, key: &str) {
        if let Some(Open::Object(_, pending)) = self.open.last_mut() {
            *pending = Some(key.to_string());
        }
    }

    fn close_object(&mut self) {
        self.close();
    }
}

/// cty's `marshal`. `dynamic` says the type expected here is `cty.DynamicPseudoType` (the element
/// type of a collection of dynamic type); everywhere else the expected type is the value's own.
fn marshal<'v>(
    value: &'v Value,
    dynamic: bool,
    path: &mut Vec<At<'v>>,
    sink: &mut dyn Sink,
) -> Result<(), JsonError> {
    // Values nest up to 1,000 levels, on whatever thread (a server's) marshals them.
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
        marshal_here(value, dynamic, path, sink)
    })
}

fn marshal_here<'v>(
    value: &'v Value,
    dynamic: bool,
    path: &mut Vec<At<'v>>,
    sink: &mut dyn Sink,
) -> Result<(), JsonError> {
    if !value.is_known() {
        return Err(JsonError::new(path, "value is not known"));
    }
    if dynamic && value.ty() != Type::Dynamic {
        return marshal_dynamic(value, path, sink);
    }
    match value {
        Value::Unknown(..) => unreachable!("handled above"),
        Value::Null(_) => sink.null(),
        Value::Bool(b) => sink.bool(*b),
        Value::Number(n) => {
            if n.is_inf() {
                return Err(JsonError::new(path, "cannot serialize infinity as JSON"));
            }
            if !n.is_printable() {
                return Err(JsonError::new(
                    path,
                    format!(
                        "cannot serialize number {} as JSON: it has more digits than fnhcl's \
                         limit of {}",
                        n.scientific(),
                        crate::eval::num::MAX_PRINTED_DIGITS
                    ),
                ));
            }
            sink.number(n.to_string());
        }
        Value::String(s) => sink.string(s),
        Value::List { elem, items } | Value::Set { elem, items } => {
            let is_set = matches!(value, Value::Set { .. });
            let dynamic = *elem == Type::Dynamic;
            sink.open_array();
            for (i, item) in items.iter().enumerate() {
                path.push(if is_set {
                    At::Element(item)
                } else {
                    At::Index(i)
                });
                let r = marshal(item, dynamic, path, sink);
                path.pop();
                r?;
            }
            sink.close_array();
        }
        Value::Tuple(items) => {
            sink.open_array();
            for (i, item) in items.iter().enumerate() {
                path.push(At::Index(i));
                let r = marshal(item, false, path, sink);
                path.pop();
                r?;
            }
            sink.close_array();
        }
        Value::Map { elem, items } => {
            let dynamic = *elem == Type::Dynamic;
            sink.open_object();
            for (key, item) in items.iter() {
                path.push(At::Key(key));
                sink.key(key);
                let r = marshal(item, dynamic, path, sink);
                path.pop();
                r?;
            }
            sink.close_object();
        }
        Value::Object(attrs) => {
            sink.open_object();
            for (name, item) in attrs.iter() {
                path.push(At::Attr(name));
                sink.key(name);
                let r = marshal(item, false, path, sink);
                path.pop();
                r?;
            }
            sink.close_object();
        }
    }
    Ok(())
}

/// cty's `marshalDynamic`: `{"value":…,"type":…}` so the type can be recovered.
fn marshal_dynamic<'v>(
    value: &'v Value,
    path: &mut Vec<At<'v>>,
    sink: &mut dyn Sink,
) -> Result<(), JsonError> {
    sink.open_object();
    sink.key("value");
    marshal(value, false, path, sink)
        .map_err(|e| JsonError::new(path, format!("failed to serialize value: {}", e.message)))?;
    sink.key("type");
    type_json(&value.ty(), sink);
    sink.close_object();
    Ok(())
}

/// cty's `MarshalType`.
fn type_json(ty: &Type, sink: &mut dyn Sink) {
    let pair = |sink: &mut dyn Sink, kind: &str, inner: &Type| {
        sink.open_array();
        sink.string(kind);
        type_json(inner, sink);
        sink.close_array();
    };
    match ty {
        Type::Dynamic => sink.string("dynamic"),
        Type::Bool => sink.string("bool"),
        Type::Number => sink.string("number"),
        Type::String => sink.string("string"),
        Type::List(e) => pair(sink, "list", e),
        Type::Map(e) => pair(sink, "map", e),
        Type::Set(e) => pair(sink, "set", e),
        Type::Tuple(items) => {
            sink.open_array();
            sink.string("tuple");
            sink.open_array();
            for item in items.iter() {
                type_json(item, sink);
            }
            sink.close_array();
            sink.close_array();
        }
        Type::Object(attrs) => {
            sink.open_array();
            sink.string("object");
            sink.open_object();
            for (k, t) in attrs.iter() {
                sink.key(k);
                type_json(t, sink);
            }
            sink.close_object();
            sink.close_array();
        }
    }
}

/// How Go's `encoding/json` escapes one character.
enum GoEscape {
    /// A two-character escape (`\n`, `\"`…).
    Short(&'static str),
    /// `\uXXXX`.
    Unicode(u32),
}

/// The escape Go writes for the character starting at byte `i`, and how many bytes of `s` it
/// stands for; `None` for a byte copied as it is. Every character Go escapes is ASCII, or
/// U+2028/U+2029 (E2 80 A8/A9 in UTF-8), so a continuation byte is never one.
/// A `const fn`: [`plain_bytes`] builds its byte tables from it, so the two cannot disagree.
#[inline(always)]
const fn go_escape(bytes: &[u8], i: usize, html_escape: bool) -> Option<(GoEscape, usize)> {
    let b = bytes[i];
    let short = match b {
        b'"' => "\\\"",
        b'\\' => "\\\\",
        0x08 => "\\b",
        0x0c => "\\f",
        b'\n' => "\\n",
        b'\r' => "\\r",
        b'\t' => "\\t",
        b'<' | b'>' | b'&' if html_escape => return Some((GoEscape::Unicode(b as u32), 1)),
        b if b < 0x20 => return Some((GoEscape::Unicode(b as u32), 1)),
        0xE2 if i + 2 < bytes.len()
            && bytes[i + 1] == 0x80
            && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9) =>
        {
            return Some((GoEscape::Unicode(0x2028 + (bytes[i + 2] - 0xA8) as u32), 3));
        }
        _ => return None,
    };
    Some((GoEscape::Short(short), 1))
}

/// For each byte, whether [`go_escape`] can only copy it, whatever follows it (0xE2, the
/// first byte of U+2028 and U+2029, is looked at in front of the rest of U+2028). A string is
/// scanned with one table look per byte.
const fn plain_bytes(html: bool) -> [bool; 256] {
    let mut table = [true; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = go_escape(&[b as u8, 0x80, 0xA8], 0, html).is_none();
        b += 1;
    }
    table
}

static PLAIN: [bool; 256] = plain_bytes(false);
static PLAIN_HTML: [bool; 256] = plain_bytes(true);

/// A string as Go's `encoding/json` writes it (Go 1.22 and later): `"` and `\` escaped, `\b`,
/// `\f`, `\n`, `\r`, `\t` by name, other control characters as `\u00XX`, U+2028 and U+2029
/// always escaped, and with `html_escape` also `<`, `>` and `&`.
fn write_go_string(s: &str, buf: &mut String, html_escape: bool) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    buf.reserve(s.len() + 2);
    buf.push('"');
    // The text between escapes is copied in runs.
    let bytes = s.as_bytes();
    let plain = if html_escape { &PLAIN_HTML } else { &PLAIN };
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        if plain[usize::from(bytes[i])] {
            i += 1;
            continue;
        }
        let Some((escape, width)) = go_escape(bytes, i, html_escape) else {
            i += 1;
            continue;
        };
        // A string of escapes (`jsonencode(jsonencode(…))`) has runs of nothing between.
        if run < i {
            buf.push_str(&s[run..i]);
        }
        match escape {
            GoEscape::Short(text) => {
                for c in text.chars() {
                    buf.push(c);
                }
            }
            GoEscape::Unicode(u) => push_u4(buf, u, HEX),
        }
        i += width;
        run = i;
    }
    buf.push_str(&s[run..]);
    buf.push('"');
}

/// The length of what [`write_go_string`] writes for `s`.
fn go_string_len(s: &str, html_escape: bool) -> usize {
    let bytes = s.as_bytes();
    let plain = if html_escape { &PLAIN_HTML } else { &PLAIN };
    let mut n = 2 + bytes.len();
    let mut i = 0;
    while i < bytes.len() {
        if plain[usize::from(bytes[i])] {
            i += 1;
            continue;
        }
        match go_escape(bytes, i, html_escape) {
            Some((GoEscape::Short(text), width)) => {
                n += text.len() - width;
                i += width;
            }
            Some((GoEscape::Unicode(_), width)) => {
                n += 6 - width;
                i += width;
            }
            None => i += 1,
        }
    }
    n
}

fn push_u4(buf: &mut String, u: u32, hex: &[u8; 16]) {
    buf.push_str("\\u");
    for shift in [12, 8, 4, 0] {
        buf.push(hex[((u >> shift) & 0xf) as usize] as char);
    }
}

// ---------------------------------------------------------------------------------------------
// value → console text

/// The value as `terraform console` shows it (Terraform's `repl.FormatValue`): `tolist(…)`,
/// `toset(…)` and `tomap(…)` around lists, sets and maps, bare `[…]` and `{…}` for tuples and
/// objects, one element per line with two spaces of indentation per level, every key quoted
/// (`"key" = value`), strings quoted as Go's `strconv.Quote` does or, when they contain a
/// newline, as a heredoc (`<<EOT`, `<<-EOT` when nested), numbers as their exact decimal text,
/// typed nulls as `tostring(null)`, `tolist(null) /* of string */`, `null /* object */` …,
/// `null` for an untyped null and `(known after apply)` for any unknown.
pub fn to_hcl(value: &Value) -> String {
    let mut out = String::new();
    format_value(value, 0, &mut out);
    out
}

fn format_value(value: &Value, indent: usize, out: &mut String) {
    match value {
        Value::Unknown(..) => out.push_str("(known after apply)"),
        Value::Null(ty) => out.push_str(&format_null(ty)),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => format_string(s, indent, out),
        Value::Object(attrs) => format_mapping(attrs, indent, out),
        Value::Tuple(items) => format_sequence(items, indent, out),
        Value::List { items, .. } => {
            out.push_str("tolist(");
            format_sequence(items, indent, out);
            out.push(')');
        }
        Value::Set { items, .. } => {
            out.push_str("toset(");
            format_sequence(items, indent, out);
            out.push(')');
        }
        Value::Map { items, .. } => {
            out.push_str("tomap(");
            format_mapping(items, indent, out);
            out.push(')');
        }
    }
}

fn format_null(ty: &Type) -> String {
    match ty {
        Type::Dynamic => "null".into(),
        Type::String => "tostring(null)".into(),
        Type::Number => "tonumber(null)".into(),
        Type::Bool => "tobool(null)".into(),
        Type::List(e) => format!("tolist(null) /* of {} */", e.friendly_name()),
        Type::Set(e) => format!("toset(null) /* of {} */", e.friendly_name()),
        Type::Map(e) => format!("tomap(null) /* of {} */", e.friendly_name()),
        other => format!("null /* {} */", other.friendly_name()),
    }
}

fn push_indent(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

fn format_mapping(items: &BTreeMap<String, Value>, indent: usize, out: &mut String) {
    out.push('{');
    for (key, item) in items {
        out.push('\n');
        push_indent(out, indent + 2);
        format_string(key, indent + 2, out);
        out.push_str(" = ");
        format_value(item, indent + 2, out);
    }
    if !items.is_empty() {
        out.push('\n');
        push_indent(out, indent);
    }
    out.push('}');
}

fn format_sequence(items: &[Value], indent: usize, out: &mut String) {
    out.push('[');
    for item in items {
        out.push('\n');
        push_indent(out, indent + 2);
        format_value(item, indent + 2, out);
        out.push(',');
    }
    if !items.is_empty() {
        out.push('\n');
        push_indent(out, indent);
    }
    out.push(']');
}

/// A string value: a heredoc when it has a newline, else Go's `strconv.Quote`.
fn format_string(s: &str, indent: usize, out: &mut String) {
    if !s.contains('\n') {
        go_quote(s, out);
        return;
    }
    let lines: Vec<&str> = s.split('\n').collect();
    let mut delimiter = String::from("EOT");
    while lines.iter().any(|line| line.trim() == delimiter) {
        delimiter.push('_');
    }
    out.push_str(if indent > 0 { "<<-" } else { "<<" });
    out.push_str(&delimiter);
    for line in &lines {
        out.push('\n');
        push_indent(out, indent);
        out.push_str(line);
    }
    out.push('\n');
    push_indent(out, indent);
    out.push_str(&delimiter);
}

/// Go's `strconv.Quote`.
fn go_quote(s: &str, out: &mut String) {
    out.push_str(&crate::gostd::strconv::quote(s));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::testing::{num, obj};
    use crate::eval::value::Refinement;

    fn parse(text: &str) -> Json {
        serde_json::from_str(text).unwrap()
    }

    /// Go's `encoding/json` string escaping one character at a time: the oracle for the
    /// run-copying [`write_go_string`] and for [`go_string_len`].
    fn go_string_by_char(s: &str, html_escape: bool) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '<' | '>' | '&' if html_escape => out.push_str(&format!("\\u{:04x}", c as u32)),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }

    #[test]
    fn strings_are_escaped_as_go_escapes_them_character_by_character() {
        let cases = [
            "",
            "plain",
            "<a href=\"x\">&\u{1}\u{8}\u{c}\n\r\t\\\u{2028}\u{7f}é</a>",
            "\u{2029}\u{2028}",
            "x\u{2027}\u{202a}\u{20ac}y",
            "\u{1F600}\u{0}\u{1f}\u{20}",
            "ends with a separator\u{2029}",
            "日本語 <tag> & \"quote\"",
        ];
        for case in cases {
            for html in [true, false] {
                let mut buf = String::new();
                write_go_string(case, &mut buf, html);
                assert_eq!(buf, go_string_by_char(case, html), "{case:?} html={html}");
                assert_eq!(go_string_len(case, html), buf.len(), "{case:?} html={html}");
            }
        }
        // Every character of the first planes and around U+2028, alone and between text: the
        // byte table lets through only what needs no escape.
        let chars = (0..0x3100u32)
            .chain(0xFFF0..0x10010)
            .filter_map(char::from_u32);
        for c in chars {
            for case in [c.to_string(), format!("a{c}\u{2028}b{c}")] {
                for html in [true, false] {
                    let mut buf = String::new();
                    write_go_string(&case, &mut buf, html);
                    assert_eq!(buf, go_string_by_char(&case, html), "{case:?} html={html}");
                    assert_eq!(
                        go_string_len(&case, html),
                        buf.len(),
                        "{case:?} html={html}"
                    );
                }
            }
        }
    }

    #[test]
    fn nested_documents_round_trip() {
        let text = r#"{"b":[1,"x",true,null,{"c":[],"d":{}}],"a":{"z":-2.5,"y":"é"}}"#;
        let value = implied_value(&parse(text));
        assert_eq!(
            value.ty().go_string(),
            "cty.Object(map[string]cty.Type{\"a\":cty.Object(map[string]cty.Type{\"y\":cty.String, \
             \"z\":cty.Number}), \"b\":cty.Tuple([]cty.Type{cty.Number, cty.String, cty.Bool, \
             cty.DynamicPseudoType, cty.Object(map[string]cty.Type{\"c\":cty.Tuple([]cty.Type{}), \
             \"d\":cty.Object(map[string]cty.Type{})})})})"
        );
        let back = to_json(&value).unwrap();
        assert_eq!(back, parse(text));
        assert_eq!(
            to_json_string(&value).unwrap(),
            r#"{"a":{"y":"é","z":-2.5},"b":[1,"x",true,null,{"c":[],"d":{}}]}"#
        );
        assert_eq!(
            encode_json(&parse(text), true),
            to_json_string(&value).unwrap()
        );
    }

    #[test]
    fn numbers_keep_their_exact_text() {
        let big = implied_value(&parse("1e400"));
        let text = to_json_string(&big).unwrap();
        assert_eq!(text, format!("1{}", "0".repeat(400)));
        assert_eq!(to_json(&big).unwrap().to_string(), text);
        for (input, output) in [
            ("0.1", "0.1"),
            ("1.50", "1.5"),
            ("-0", "-0"),
            ("12345678901234567890123", "12345678901234567890123"),
            ("1E+2", "100"),
            ("2.5e-3", "0.0025"),
        ] {
            let v = implied_value(&parse(input));
            assert!(matches!(v, Value::Number(_)));
            assert_eq!(to_json_string(&v).unwrap(), output, "{input}");
        }
        let precise = implied_value(&parse("0.1"));
        assert_eq!(precise.as_num().unwrap().prec(), 512);
    }

    #[test]
    fn strings_and_keys_are_nfc() {
        let v = implied_value(&parse("{\"e\\u0301\":\"e\\u0301\"}"));
        let Value::Object(attrs) = &v else {
            panic!("not an object: {v:?}")
        };
        assert_eq!(attrs.keys().collect::<Vec<_>>(), ["\u{e9}"]);
        assert_eq!(attrs["\u{e9}"].as_str(), Some("\u{e9}"));
    }

    #[test]
    fn nulls_are_dynamic() {
        let v = implied_value(&parse("null"));
        assert!(matches!(v, Value::Null(Type::Dynamic)));
        assert_eq!(to_json(&v).unwrap(), Json::Null);
        assert_eq!(to_json_string(&Value::Null(Type::String)).unwrap(), "null");
        let empty = implied_value(&parse("[]"));
        assert_eq!(empty.ty(), Type::Tuple(vec![].into()));
    }

    #[test]
    fn text_past_the_string_limit_is_counted_whole_and_refused() {
        // 25 MiB of `<` escape to 150 MiB: the message gives the whole length, counted
        // past the point where the text stops being written.
        let big = "<".repeat(25 << 20);
        let value = Value::Tuple(
            vec![
                Value::string("ab"),
                Value::Tuple(vec![Value::string(&big), Value::bool(true)].into()),
            ]
            .into(),
        );
        let err = to_json_string(&value).unwrap_err();
        let want = "[\"ab\",[".len() + (25 << 20) * 6 + 2 + ",true]]".len();
        assert_eq!(
            err.message,
            crate::eval::budget::string_too_long(want),
            "{}",
            err.message
        );
        // Without HTML escaping the same string fits.
        let text = to_json_string_with(&value, false).unwrap();
        assert_eq!(text.len(), want - (25 << 20) * 5);
        assert!(text.starts_with("[\"ab\",[\"<<") && text.ends_with("<\",true]]"));
    }

    #[test]
    fn unknowns_and_infinities_are_errors() {
        let v = obj(&[(
            "a",
            Value::Tuple(vec![num("1"), Value::unknown(Type::String)].into()),
        )]);
        let err = to_json(&v).unwrap_err();
        assert_eq!(err.to_string(), "value is not known");
        assert_eq!(
            err.path,
            [
                PathStep::GetAttr("a".into()),
                PathStep::Index(Value::Number(Num::from_i64(1)))
            ]
        );
        let refined = Value::Unknown(
            Type::String,
            Refinement {
                not_null: true,
                string_prefix: None,
            },
        );
        assert_eq!(
            to_json_string(&refined).unwrap_err().message,
            "value is not known"
        );
        let inf = Value::Number(num("1").as_num().unwrap().div(&Num::zero()).unwrap());
        let map = Value::Map {
            elem: Type::Number,
            items: [("k".to_string(), inf.clone())]
                .into_iter()
                .collect::<BTreeMap<_, _>>()
                .into(),
        };
        let err = to_json_string(&map).unwrap_err();
        assert_eq!(err.message, "cannot serialize infinity as JSON");
        assert_eq!(err.path, [PathStep::Index(Value::string("k"))]);
        let neg = Value::Number(inf.as_num().unwrap().neg());
        assert_eq!(
            to_json(&neg).unwrap_err().message,
            "cannot serialize infinity as JSON"
        );
    }

    #[test]
    fn unparseable_numbers() {
        let huge = parse("1e99999999999");
        assert_eq!(
            try_implied_value(&Json::Array(vec![huge.clone()]))
                .unwrap_err()
                .message,
            "a number is required"
        );
        assert!(implied_value(&huge).as_num().unwrap().is_inf());
    }

    #[test]
    fn strings_are_escaped_as_go_does() {
        let v = Value::string("<a href=\"x\">&\u{1}\u{8}\u{c}\n\r\t\\\u{2028}\u{7f}é</a>");
        assert_eq!(
            to_json_string(&v).unwrap(),
            r#""\u003ca href=\"x\"\u003e\u0026\u0001\b\f\n\r\t\\\u2028"#.to_string()
                + "\u{7f}é\\u003c/a\\u003e\""
        );
        assert_eq!(
            to_json_string_with(&v, false).unwrap(),
            r#""<a href=\"x\">&\u0001\b\f\n\r\t\\\u2028"#.to_string() + "\u{7f}é</a>\""
        );
        let key = obj(&[("<k>", Value::Bool(true))]);
        assert_eq!(to_json_string(&key).unwrap(), r#"{"\u003ck\u003e":true}"#);
    }

    #[test]
    fn collections_of_dynamic_type_carry_their_types() {
        let v = Value::List {
            elem: Type::Dynamic,
            items: vec![Value::Null(Type::String), Value::null()].into(),
        };
        assert_eq!(
            to_json_string(&v).unwrap(),
            r#"[{"value":null,"type":"string"},null]"#
        );
        let set = Value::Set {
            elem: Type::String,
            items: vec![Value::string("b"), Value::string("a")].into(),
        };
        assert_eq!(to_json_string(&set).unwrap(), r#"["b","a"]"#);
    }

    #[test]
    fn console_format() {
        let v = obj(&[
            ("name", Value::string("web ${x}")),
            (
                "tags",
                Value::Map {
                    elem: Type::String,
                    items: [("env".to_string(), Value::string("prod"))]
                        .into_iter()
                        .collect::<BTreeMap<_, _>>()
                        .into(),
                },
            ),
            (
                "ports",
                Value::List {
                    elem: Type::Number,
                    items: vec![num("80"), num("0.5")].into(),
                },
            ),
            (
                "set",
                Value::Set {
                    elem: Type::Bool,
                    items: vec![Value::Bool(false), Value::Bool(true)].into(),
                },
            ),
            ("t", Value::Tuple(vec![].into())),
            ("o", Value::empty_object()),
            ("u", Value::unknown(Type::String)),
            ("n", Value::null()),
            ("s", Value::Null(Type::String)),
            ("l", Value::Null(Type::list(Type::Number))),
            ("x", Value::Null(Type::empty_object())),
            ("text", Value::string("a\nEOT\nb")),
        ]);
        let expected = r#"{
  "l" = tolist(null) /* of number */
  "n" = null
  "name" = "web ${x}"
  "o" = {}
  "ports" = tolist([
    80,
    0.5,
  ])
  "s" = tostring(null)
  "set" = toset([
    false,
    true,
  ])
  "t" = []
  "tags" = tomap({
    "env" = "prod"
  })
  "text" = <<-EOT_
  a
  EOT
  b
  EOT_
  "u" = (known after apply)
  "x" = null /* object */
}"#;
        assert_eq!(to_hcl(&v), expected);
    }

    #[test]
    fn console_scalars() {
        assert_eq!(
            to_hcl(&Value::string("a\"b\\c\td\u{0}\u{a0}\u{1F600}")),
            "\"a\\\"b\\\\c\\td\\x00\\u00a0\u{1F600}\""
        );
        assert_eq!(to_hcl(&Value::string("x\ny")), "<<EOT\nx\ny\nEOT");
        assert_eq!(to_hcl(&num("1e3")), "1000");
        assert_eq!(to_hcl(&Value::Bool(true)), "true");
        assert_eq!(to_hcl(&Value::dynamic()), "(known after apply)");
        assert_eq!(
            to_hcl(&Value::Null(Type::map(Type::String))),
            "tomap(null) /* of string */"
        );
        assert_eq!(
            to_hcl(&Value::Tuple(
                vec![Value::Tuple(vec![num("1")].into())].into()
            )),
            "[\n  [\n    1,\n  ],\n]"
        );
        let inf = num("1").as_num().unwrap().div(&Num::zero()).unwrap();
        assert_eq!(to_hcl(&Value::Number(inf)), "+Inf");
    }
}
