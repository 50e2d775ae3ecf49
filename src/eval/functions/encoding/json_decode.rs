//! cty's `jsondecode`: `ctyjson.ImpliedType` then `ctyjson.Unmarshal`, which read the text
//! with Go's `json.Decoder.Token` — so the errors here are Go's (`EOF`, `unexpected EOF`,
//! `invalid character 'x' after object key`, …), a second top-level value is an error only
//! when it does not start with `]` or `}`, and a repeated object key keeps the last value
//! unless the two values' types differ (`duplicate "a" property in JSON object`).

use crate::eval::functions::FunctionError;
use crate::eval::num::Num;
use crate::eval::types::Type;
use crate::eval::value::Value;
use std::collections::BTreeMap;

/// The return type: `ImpliedType` for a known string; for an unknown one, what its known
/// prefix allows.
pub(super) fn return_type(args: &[Value]) -> Result<Type, FunctionError> {
    match args.first() {
        Some(Value::String(s)) => parse(s).map(|(v, _)| v.ty()),
        Some(Value::Unknown(_, refinement)) => {
            let prefix = refinement.string_prefix.as_deref().unwrap_or("").trim();
            Ok(match prefix.chars().next() {
                None | Some('{' | '[' | 'n') => Type::Dynamic,
                Some('"') => Type::String,
                Some('t' | 'f') => Type::Bool,
                Some('-' | '0'..='9' | '.') => Type::Number,
                Some(c) => {
                    return Err(FunctionError::arg(
                        0,
                        format!(
                            "a JSON document cannot begin with the character {}",
                            quote_rune(c)
                        ),
                    ));
                }
            })
        }
        _ => Ok(Type::Dynamic),
    }
}

/// The value.
pub(super) fn decode(s: &str) -> Result<Value, FunctionError> {
    let (value, number_error) = parse(s)?;
    if number_error {
        return Err(FunctionError::other("a number is required"));
    }
    Ok(value)
}

/// Go's `strconv.QuoteRune` for the characters that can reach it here.
fn quote_rune(c: char) -> String {
    let quoted = super::go_quote(&c.to_string());
    let inner = &quoted[1..quoted.len() - 1];
    match c {
        '\'' => "'\\''".into(),
        '"' => "'\"'".into(),
        _ => format!("'{inner}'"),
    }
}

/// Go's `quoteChar` for a byte of the input (a byte ≥ 0x80 shows as the Latin-1 character).
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".into(),
        b'"' => "'\"'".into(),
        _ => {
            let quoted = super::go_quote(&char::from(c).to_string());
            format!("'{}'", &quoted[1..quoted.len() - 1])
        }
    }
}

/// Where `json.Decoder.Token` is (its `tokenState`), which decides the error context.
#[derive(Clone, Copy, PartialEq)]
enum State {
    TopValue,
    ArrayStart,
    ArrayValue,
    ArrayComma,
    ObjectStart,
    ObjectKey,
    ObjectColon,
    ObjectValue,
    ObjectComma,
}

struct Decoder<'a> {
    src: &'a [u8],
    pos: usize,
    /// A number cty could not parse was seen (`Unmarshal` fails after `ImpliedType` passed).
    number_error: bool,
    /// Arrays and objects open around the current position.
    depth: usize,
}

fn err(message: impl Into<String>) -> FunctionError {
    FunctionError::other(message)
}

/// Parses the document: the value and whether `Unmarshal` would then fail on a number.
fn parse(s: &str) -> Result<(Value, bool), FunctionError> {
    let mut d = Decoder {
        src: s.as_bytes(),
        pos: 0,
        number_error: false,
        depth: 0,
    };
    let value = d.value(State::TopValue)?;
    // dec.More(): anything left that is not `]` or `}` is extraneous.
    if let Some(c) = d.peek()
        && c != b']'
        && c != b'}'
    {
        return Err(err("extraneous data after JSON object"));
    }
    Ok((value, d.number_error))
}

impl Decoder<'_> {
    /// `dec.peek()`: the next non-space byte (`None` at the end).
    fn peek(&mut self) -> Option<u8> {
        while let Some(&c) = self.src.get(self.pos) {
            if matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
                self.pos += 1;
            } else {
                return Some(c);
            }
        }
        None
    }

    /// `peek`, with Go's `EOF` error at the end.
    fn next(&mut self) -> Result<u8, FunctionError> {
        self.peek().ok_or_else(|| err("EOF"))
    }

    fn token_error(&self, c: u8, state: State) -> FunctionError {
        let context = match state {
            State::TopValue | State::ArrayStart | State::ArrayValue | State::ObjectValue => {
                " looking for beginning of value"
            }
            State::ArrayComma => " after array element",
            State::ObjectKey => " looking for beginning of object key string",
            State::ObjectColon => " after object key",
            State::ObjectComma => " after object key:value pair",
            State::ObjectStart => "",
        };
        err(format!("invalid character {}{context}", quote_char(c)))
    }

    /// A value where `state` allows one.
    fn value(&mut self, state: State) -> Result<Value, FunctionError> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.value_inner(state))
    }

    fn value_inner(&mut self, state: State) -> Result<Value, FunctionError> {
        let c = self.next()?;
        match c {
            b'[' | b'{' => {
                if self.depth >= super::MAX_DECODE_DEPTH {
                    return Err(err(super::too_deep()));
                }
                self.pos += 1;
                self.depth += 1;
                let value = if c == b'[' {
                    self.array()
                } else {
                    self.object()
                };
                self.depth -= 1;
                value
            }
            b']' | b'}' | b',' | b':' => Err(self.token_error(c, state)),
            _ => self.literal(),
        }
    }

    fn array(&mut self) -> Result<Value, FunctionError> {
        let mut items = Vec::new();
        let mut state = State::ArrayStart;
        loop {
            let c = self.next()?;
            match (c, state) {
                (b']', State::ArrayStart | State::ArrayComma) => {
                    self.pos += 1;
                    return Ok(Value::Tuple(items.into()));
                }
                (b',', State::ArrayComma) => {
                    self.pos += 1;
                    state = State::ArrayValue;
                }
                (_, State::ArrayComma) => return Err(self.token_error(c, state)),
                _ => {
                    items.push(self.value(state)?);
                    state = State::ArrayComma;
                }
            }
        }
    }

    fn object(&mut self) -> Result<Value, FunctionError> {
        let mut attrs: BTreeMap<String, Value> = BTreeMap::new();
        let mut types: BTreeMap<String, Type> = BTreeMap::new();
        let mut state = State::ObjectStart;
        loop {
            let c = self.next()?;
            match (c, state) {
                (b'}', State::ObjectStart | State::ObjectComma) => {
                    self.pos += 1;
                    return Ok(Value::Object(attrs.into()));
                }
                (b',', State::ObjectComma) => {
                    self.pos += 1;
                    state = State::ObjectKey;
                }
                (b'"', State::ObjectStart | State::ObjectKey) => {
                    let key = self.string()?;
                    let c = self.next()?;
                    if c != b':' {
                        return Err(self.token_error(c, State::ObjectColon));
                    }
                    self.pos += 1;
                    let value = self.value(State::ObjectValue)?;
                    let ty = value.ty();
                    if types.get(&key).is_some_and(|existing| *existing != ty) {
                        return Err(err(format!(
                            "duplicate {} property in JSON object",
                            super::go_quote(&key)
                        )));
                    }
                    types.insert(key.clone(), ty);
                    // cty.ObjectVal normalises attribute names.
                    let Value::String(name) = Value::string(&key) else {
                        unreachable!("Value::string makes a string");
                    };
                    attrs.insert(name.into_string(), value);
                    state = State::ObjectComma;
                }
                _ => return Err(self.token_error(c, state)),
            }
        }
    }

    /// A scanner error at byte `i`, or `unexpected EOF` past the end.
    fn scan_error(&self, i: usize, context: &str) -> FunctionError {
        match self.src.get(i) {
            Some(&c) => err(format!("invalid character {} {context}", quote_char(c))),
            None => err("unexpected EOF"),
        }
    }

    /// A string, number, `true`, `false` or `null` (Go's `Decode` of one value).
    fn literal(&mut self) -> Result<Value, FunctionError> {
        let start = self.pos;
        let c = self.src[start];
        match c {
            b'"' => self.string().map(Value::string_owned),
            b'-' | b'0'..=b'9' => self.number(),
            b't' => self.keyword("true", Value::Bool(true)),
            b'f' => self.keyword("false", Value::Bool(false)),
            b'n' => self.keyword("null", Value::null()),
            _ => Err(self.scan_error(start, "looking for beginning of value")),
        }
    }

    fn keyword(&mut self, word: &str, value: Value) -> Result<Value, FunctionError> {
        for (k, want) in word.bytes().enumerate().skip(1) {
            let i = self.pos + k;
            if self.src.get(i) != Some(&want) {
                return Err(self.scan_error(
                    i,
                    &format!("in literal {word} (expecting {})", quote_char(want)),
                ));
            }
        }
        self.pos += word.len();
        Ok(value)
    }

    fn number(&mut self) -> Result<Value, FunctionError> {
        let src = self.src;
        let start = self.pos;
        let mut i = start;
        let digit = |i: usize| src.get(i).is_some_and(u8::is_ascii_digit);
        if src[i] == b'-' {
            i += 1;
            if !digit(i) {
                return Err(self.scan_error(i, "in numeric literal"));
            }
        }
        if src[i] == b'0' {
            i += 1;
        } else {
            while digit(i) {
                i += 1;
            }
        }
        if src.get(i) == Some(&b'.') {
            i += 1;
            if !digit(i) {
                return Err(self.scan_error(i, "after decimal point in numeric literal"));
            }
            while digit(i) {
                i += 1;
            }
        }
        if matches!(src.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(src.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !digit(i) {
                return Err(self.scan_error(i, "in exponent of numeric literal"));
            }
            while digit(i) {
                i += 1;
            }
        }
        self.pos = i;
        let text = std::str::from_utf8(&src[start..i]).unwrap_or("");
        Ok(Value::Number(Num::parse(text).unwrap_or_else(|| {
            self.number_error = true;
            Num::zero()
        })))
    }

    /// A string literal at `self.pos` (the opening quote), unquoted as Go does.
    fn string(&mut self) -> Result<String, FunctionError> {
        let src = self.src;
        let mut i = self.pos + 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(&c) = src.get(i) else {
                return Err(err("unexpected EOF"));
            };
            match c {
                b'"' => break,
                b'\\' => {
                    i += 1;
                    let Some(&e) = src.get(i) else {
                        return Err(err("unexpected EOF"));
                    };
                    let simple = match e {
                        b'b' => Some(b'\x08'),
                        b'f' => Some(b'\x0c'),
                        b'n' => Some(b'\n'),
                        b'r' => Some(b'\r'),
                        b't' => Some(b'\t'),
                        b'\\' | b'/' | b'"' => Some(e),
                        b'u' => None,
                        _ => return Err(self.scan_error(i, "in string escape code")),
                    };
                    if let Some(b) = simple {
                        out.push(b);
                        i += 1;
                        continue;
                    }
                    let unit = self.hex4(i + 1)?;
                    i += 5;
                    let mut ch = char::from_u32(unit);
                    if (0xd800..0xe000).contains(&unit) {
                        ch = None;
                        if (0xd800..0xdc00).contains(&unit)
                            && src.get(i) == Some(&b'\\')
                            && src.get(i + 1) == Some(&b'u')
                        {
                            let low = self.hex4(i + 2)?;
                            if (0xdc00..0xe000).contains(&low) {
                                ch = char::from_u32(
                                    0x10000 + ((unit - 0xd800) << 10) + low - 0xdc00,
                                );
                                i += 6;
                            }
                        }
                    }
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(
                        ch.unwrap_or('\u{fffd}').encode_utf8(&mut buf).as_bytes(),
                    );
                }
                c if c < 0x20 => return Err(self.scan_error(i, "in string literal")),
                _ => {
                    out.push(c);
                    i += 1;
                }
            }
        }
        self.pos = i + 1;
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    /// Four hex digits of a `\u` escape starting at `i`.
    fn hex4(&self, i: usize) -> Result<u32, FunctionError> {
        let mut v = 0;
        for k in i..i + 4 {
            let Some(d) = self.src.get(k).and_then(|&c| char::from(c).to_digit(16)) else {
                return Err(self.scan_error(k, "in \\u hexadecimal character escape"));
            };
            v = v * 16 + d;
        }
        Ok(v)
    }
}
