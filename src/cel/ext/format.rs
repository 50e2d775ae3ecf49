//! `"…".format([args])` as cel-go's strings library before version 4 does it
//! (`ext/formatting.go`, locale `en_US`): clauses `%s %d %f %e %b %o %x %X`, `%%`, an
//! optional `.N` precision; `%f` and `%e` go through golang.org/x/text's `en_US` number
//! printer as the API server v0.35 builds it (x/text v0.31: digit grouping, `∞`, the
//! `2.718280×10⁰⁰` scientific form), `%s` renders lists and maps as CEL literals.

use super::gofmt::{
    duration_string, go_fixed, go_g, go_quote, timestamp_string, type_name, type_value_name,
};
use super::{MAX_STRING, too_big};
use crate::cel::value::{Key, Value};
use std::fmt::Write as _;

/// An error of the formatter, with cel-go's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// The message, as cel-go wraps it.
    pub message: String,
}

impl FormatError {
    fn new(message: impl Into<String>) -> FormatError {
        FormatError {
            message: message.into(),
        }
    }
}

/// A formatting clause, after its optional precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clause {
    /// `%s`
    String,
    /// `%d`
    Decimal,
    /// `%f` with its precision
    Fixed(Option<i64>),
    /// `%e` with its precision
    Scientific(Option<i64>),
    /// `%b`
    Binary,
    /// `%x` / `%X` (upper case)
    Hex(bool),
    /// `%o`
    Octal,
}

/// Formats `fmt` with `args` as cel-go's `string_format` overload.
pub fn format(fmt: &str, args: &[Value]) -> Result<String, crate::cel::value::Error> {
    format_with(fmt, args).map_err(|e| crate::cel::value::Error::new(e.message))
}

/// Parses the clause starting after a `%` (`rest` is non-empty): the bytes consumed and
/// the clause, or cel-go's parse error (already wrapped as `could not parse formatting
/// clause: …`).
fn parse_clause(rest: &[u8]) -> Result<(usize, Clause), FormatError> {
    let wrap = |m: String| FormatError::new(format!("could not parse formatting clause: {m}"));
    let mut i = 0;
    let mut precision = None;
    if rest.first() == Some(&b'.') {
        i = 1;
        let start = i;
        loop {
            match rest.get(i) {
                None => {
                    return Err(wrap(
                        "error while parsing precision: could not find end of precision specifier"
                            .into(),
                    ));
                }
                Some(c) if c.is_ascii_digit() => i += 1,
                Some(_) => break,
            }
        }
        let digits = std::str::from_utf8(&rest[start..i]).unwrap_or("");
        precision = Some(go_atoi(digits).map_err(|e| {
            wrap(format!(
                "error while parsing precision: error while converting precision to integer: {e}"
            ))
        })?);
    }
    let Some(&c) = rest.get(i) else {
        return Err(wrap("unexpected end of string".into()));
    };
    i += 1;
    let clause = match c {
        b's' => Clause::String,
        b'd' => Clause::Decimal,
        b'f' => Clause::Fixed(precision),
        b'e' => Clause::Scientific(precision),
        b'b' => Clause::Binary,
        b'x' => Clause::Hex(false),
        b'X' => Clause::Hex(true),
        b'o' => Clause::Octal,
        // cel-go prints the byte as a rune (Latin-1 for a non-ASCII lead byte)
        other => {
            return Err(wrap(format!(
                "unrecognized formatting clause \"{}\"",
                char::from(other)
            )));
        }
    };
    Ok((i, clause))
}

/// Go's `strconv.Atoi` of ASCII digits (no sign here), with its error wording.
fn go_atoi(digits: &str) -> Result<i64, String> {
    if digits.is_empty() {
        return Err("strconv.Atoi: parsing \"\": invalid syntax".into());
    }
    digits.parse::<i64>().map_err(|_| {
        format!(
            "strconv.Atoi: parsing {}: value out of range",
            go_quote(digits)
        )
    })
}

/// Walks `fmt` as cel-go's `parseFormatString`: `arg(i)` fetches argument `i` (or
/// fails), `size` is the argument count, `clause` renders one clause.
fn walk<A>(
    fmt: &str,
    size: usize,
    mut arg: impl FnMut(usize) -> Result<A, FormatError>,
    mut clause: impl FnMut(Clause, A, &mut String) -> Result<(), FormatError>,
) -> Result<String, FormatError> {
    let bytes = fmt.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    let mut arg_index = 0;
    let mut text_start = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            i += 1;
            continue;
        }
        out.push_str(&fmt[text_start..i]);
        if bytes.get(i + 1) == Some(&b'%') {
            out.push('%');
            i += 2;
            text_start = i;
            continue;
        }
        let a = arg(arg_index)?;
        if i + 1 >= bytes.len() {
            return Err(FormatError::new("unexpected end of string"));
        }
        if arg_index >= size {
            return Err(FormatError::new(format!("index {arg_index} out of range")));
        }
        let (n, c) = parse_clause(&bytes[i + 1..])?;
        clause(c, a, &mut out)?;
        if out.len() > MAX_STRING {
            return Err(FormatError::new(too_big().message));
        }
        i += 1 + n;
        text_start = i;
        arg_index += 1;
    }
    out.push_str(&fmt[text_start..]);
    Ok(out)
}

/// [`format()`] with the formatter's error type.
pub fn format_with(fmt: &str, args: &[Value]) -> Result<String, FormatError> {
    walk(
        fmt,
        args.len(),
        |i| {
            args.get(i)
                .ok_or_else(|| FormatError::new(format!("index {i} out of range")))
        },
        |c, v, out| {
            let s = format_clause(c, v)
                .map_err(|m| FormatError::new(format!("error during formatting: {m}")))?;
            out.push_str(&s);
            Ok(())
        },
    )
}

/// The message for a value a clause does not take (cel-go's `*FormatError` helpers).
pub fn clause_error(c: Clause, type_name: &str) -> String {
    match c {
        Clause::String => format!(
            "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given {type_name}"
        ),
        Clause::Decimal => {
            format!("decimal clause can only be used on integers, was given {type_name}")
        }
        Clause::Fixed(_) => {
            format!("fixed-point clause can only be used on doubles, was given {type_name}")
        }
        Clause::Scientific(_) => {
            format!("scientific clause can only be used on doubles, was given {type_name}")
        }
        Clause::Binary => {
            format!("only integers and bools can be formatted as binary, was given {type_name}")
        }
        Clause::Hex(_) => format!(
            "only integers, byte buffers, and strings can be formatted as hex, was given {type_name}"
        ),
        Clause::Octal => {
            format!("octal clause can only be used on integers, was given {type_name}")
        }
    }
}

/// One clause applied to one value: the text or the unwrapped message.
fn format_clause(c: Clause, v: &Value) -> Result<String, String> {
    let bad = || clause_error(c, &type_name(v));
    match c {
        Clause::String => format_string(v),
        Clause::Decimal => match v {
            Value::Int(i) => Ok(i.to_string()),
            Value::Uint(u) => Ok(u.to_string()),
            _ => Err(bad()),
        },
        Clause::Fixed(prec) => {
            let f = float_arg(v).ok_or_else(bad)?;
            Ok(locale_fixed(f, prec.unwrap_or(6)))
        }
        Clause::Scientific(prec) => {
            let f = float_arg(v).ok_or_else(bad)?;
            Ok(locale_scientific(f, prec.unwrap_or(6)))
        }
        Clause::Binary => match v {
            Value::Int(i) => Ok(signed_radix(*i, |u| format!("{u:b}"))),
            Value::Uint(u) => Ok(format!("{u:b}")),
            Value::Bool(b) => Ok(if *b { "1".into() } else { "0".into() }),
            _ => Err(bad()),
        },
        Clause::Hex(upper) => {
            let s = match v {
                Value::String(s) => hex_bytes(s.as_bytes()),
                Value::Bytes(b) => hex_bytes(b),
                Value::Int(i) => signed_radix(*i, |u| format!("{u:x}")),
                Value::Uint(u) => format!("{u:x}"),
                _ => return Err(bad()),
            };
            Ok(if upper { s.to_ascii_uppercase() } else { s })
        }
        Clause::Octal => match v {
            Value::Int(i) => Ok(signed_radix(*i, |u| format!("{u:o}"))),
            Value::Uint(u) => Ok(format!("{u:o}")),
            _ => Err(bad()),
        },
    }
}

/// A double, or the strings `NaN`, `Infinity`, `-Infinity` (which `%f` and `%e` take).
fn float_arg(v: &Value) -> Option<f64> {
    match v {
        Value::Double(d) => Some(*d),
        Value::String(s) => match &**s {
            "NaN" => Some(f64::NAN),
            "Infinity" => Some(f64::INFINITY),
            "-Infinity" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}

/// Go's `%b`/`%o`/`%x` of a signed integer: a minus sign, then the magnitude.
fn signed_radix(i: i64, f: impl Fn(u64) -> String) -> String {
    let s = f(i.unsigned_abs());
    if i < 0 { format!("-{s}") } else { s }
}

fn hex_bytes(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len() * 2);
    for x in b {
        let _ = write!(out, "{x:02x}");
    }
    out
}

/// `%s`: cel-go's `FormatString`.
fn format_string(v: &Value) -> Result<String, String> {
    match v {
        Value::List(_) => format_list(v),
        Value::Map(_) => format_map(v),
        Value::Null => Ok("null".into()),
        other => to_cel_string(other),
    }
}

/// cel-go's `string(v)` for the scalar types `%s` takes.
fn to_cel_string(v: &Value) -> Result<String, String> {
    match v {
        Value::Int(i) => Ok(i.to_string()),
        Value::Uint(u) => Ok(u.to_string()),
        Value::Double(d) => Ok(go_g(*d)),
        Value::Bool(b) => Ok(b.to_string()),
        Value::String(s) => Ok(s.to_string()),
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => Ok(s.to_string()),
            Err(_) => Err(format!(
                "could not convert argument {} to string",
                go_quote("invalid UTF-8 in bytes, cannot convert to string")
            )),
        },
        Value::Timestamp(ts) => Ok(timestamp_string(ts)),
        Value::Duration(d) => Ok(duration_string(d)),
        Value::Type(t) => Ok(type_value_name(t)),
        other => Err(clause_error(Clause::String, &type_name(other))),
    }
}

/// A value inside a list or map, rendered as a CEL literal (cel-go's `clauseForType`
/// then `quoteForCEL`).
fn format_element(v: &Value) -> Result<String, String> {
    match v {
        Value::Int(i) => Ok(i.to_string()),
        Value::Uint(u) => Ok(u.to_string()),
        Value::String(s) => Ok(go_quote(s)),
        Value::Bytes(_) => Ok(format!("b{}", go_quote(&to_cel_string(v)?))),
        Value::Bool(_) | Value::Type(_) => to_cel_string(v),
        Value::Null => Ok("null".into()),
        Value::Timestamp(ts) => Ok(format!("timestamp({})", go_quote(&timestamp_string(ts)))),
        Value::Duration(d) => Ok(format!("duration({})", go_quote(&duration_string(d)))),
        Value::List(_) => format_list(v),
        Value::Map(_) => format_map(v),
        Value::Double(d) => {
            let s = go_fixed(*d, 6);
            Ok(if d.is_finite() { s } else { go_quote(&s) })
        }
        other => Err(format!("no formatting function for {}", type_name(other))),
    }
}

fn format_list(v: &Value) -> Result<String, String> {
    let Value::List(l) = v else {
        return Err(clause_error(Clause::String, &type_name(v)));
    };
    let mut out = String::from("[");
    for (i, item) in l.items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&format_element(item)?);
        if out.len() > MAX_STRING {
            return Err(too_big().message);
        }
    }
    out.push(']');
    Ok(out)
}

fn format_map(v: &Value) -> Result<String, String> {
    let Value::Map(m) = v else {
        return Err(clause_error(Clause::String, &type_name(v)));
    };
    let mut pairs = Vec::with_capacity(m.entries.len());
    let mut total = 0usize;
    for (k, val) in &m.entries {
        let key = match k {
            Key::String(s) => go_quote(s),
            Key::Bool(b) => b.to_string(),
            Key::Int(i) => i.to_string(),
            Key::Uint(u) => u.to_string(),
        };
        let value = format_element(val)?;
        total = total.saturating_add(key.len() + value.len() + 3);
        if total > MAX_STRING {
            return Err(too_big().message);
        }
        pairs.push((key, value));
    }
    // cel-go sorts the rendered keys as strings (stably)
    pairs.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut out = String::from("{");
    for (i, (k, v)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{k}:{v}");
    }
    out.push('}');
    Ok(out)
}

/// Go's fmt parser's limit on a width or precision: it reads digits while the number so
/// far is at most 10^6, so anything past this is no number (`%!(NOVERB)`).
fn go_fmt_number_ok(n: i64) -> bool {
    n / 10 <= 1_000_000
}

/// `%.Nf` through x/text's `en_US` printer: exact rounding to `N` fraction digits (x/text
/// keeps `N` as an int16 for rounding and a uint8 for padding), digits grouped by
/// threes with `,`, `NaN`, `∞`, `-∞`.
pub fn locale_fixed(f: f64, prec: i64) -> String {
    if !go_fmt_number_ok(prec) {
        return "%!(NOVERB)".into();
    }
    if f.is_nan() {
        return "NaN".into();
    }
    let neg = f < 0.0;
    if f.is_infinite() {
        return if neg {
            "-\u{221e}".into()
        } else {
            "\u{221e}".into()
        };
    }
    let max_frac = prec as i16;
    let min_frac = prec as u8;
    let abs = f.abs();
    let digits = if max_frac >= 0 {
        format!("{:.*}", max_frac as usize, abs)
    } else {
        format!("{abs}")
    };
    let (int_part, frac_part) = digits.split_once('.').unwrap_or((&digits, ""));
    let frac = frac_part.trim_end_matches('0');
    let int_part = int_part.trim_start_matches('0');
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if int_part.is_empty() {
        out.push('0');
    } else {
        let n = int_part.len();
        for (i, c) in int_part.chars().enumerate() {
            out.push(c);
            let left = n - i - 1;
            if left > 0 && left % 3 == 0 {
                out.push(',');
            }
        }
    }
    let frac_len = frac.len().max(min_frac as usize);
    if frac_len > 0 {
        out.push('.');
        out.push_str(frac);
        for _ in frac.len()..frac_len {
            out.push('0');
        }
    }
    out
}

/// `%.Ne` through x/text's `en_US` printer. cel-go builds the verb `%Ne`, so `N` is a
/// width, not a precision: six fraction digits always, padded with spaces on the left to
/// `N` code points (x/text keeps the width as a uint16); the exponent is written `×10`
/// and at least two superscript digits (`2.718280×10⁰⁰`).
pub fn locale_scientific(f: f64, width: i64) -> String {
    if !go_fmt_number_ok(width) {
        return "%!(NOVERB)".into();
    }
    let body = if f.is_nan() {
        "NaN".to_string()
    } else if f.is_infinite() {
        if f < 0.0 {
            "-\u{221e}".into()
        } else {
            "\u{221e}".into()
        }
    } else {
        let s = format!("{:.6e}", f.abs());
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let mut out = String::new();
        if f < 0.0 {
            out.push('-');
        }
        out.push_str(mantissa);
        // x/text v0.31 (the API server's; golang/go#71428) writes no spaces around the
        // `×`; v0.22, which cel-go's own tests pin, wrote narrow no-break spaces
        out.push_str("\u{d7}10");
        if exp < 0 {
            out.push('\u{207b}');
        }
        let digits = format!("{:02}", exp.unsigned_abs());
        for d in digits.bytes() {
            out.push(SUPERSCRIPT_DIGITS[usize::from(d - b'0')]);
        }
        out
    };
    // a width of 0 is Go's zero-padding flag, not a width
    let width = usize::from(width as u16);
    let count = body.chars().count();
    if width > count {
        let mut padded = " ".repeat(width - count);
        padded.push_str(&body);
        padded
    } else {
        body
    }
}

const SUPERSCRIPT_DIGITS: [char; 10] = [
    '\u{2070}', '\u{b9}', '\u{b2}', '\u{b3}', '\u{2074}', '\u{2075}', '\u{2076}', '\u{2077}',
    '\u{2078}', '\u{2079}',
];
