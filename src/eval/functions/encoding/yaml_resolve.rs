//! go-cty-yaml 1.1.0's `resolveScalar`: YAML tags (explicit or implied by the text) to cty
//! values — YAML 1.1 booleans (`yes`, `on`, `y`, …), YAML 1.2 integers (no `_`, `0o`/`0x`
//! prefixes), floats, `.inf`, timestamps as RFC 3339 strings, `!!binary` kept as base64.

use super::go_base64_decode;
use crate::eval::num::Num;
use crate::eval::value::Value;

/// `tag:yaml.org,2002:` tags.
pub(super) const STR: &str = "tag:yaml.org,2002:str";
const BOOL: &str = "tag:yaml.org,2002:bool";
const INT: &str = "tag:yaml.org,2002:int";
const FLOAT: &str = "tag:yaml.org,2002:float";
const NULL: &str = "tag:yaml.org,2002:null";
const TIMESTAMP: &str = "tag:yaml.org,2002:timestamp";
const BINARY: &str = "tag:yaml.org,2002:binary";
pub(super) const MAP: &str = "tag:yaml.org,2002:map";
pub(super) const SEQ: &str = "tag:yaml.org,2002:seq";

/// A resolved scalar: a value, or the merge key `<<`.
pub(super) enum Resolved {
    Value(Value),
    Merge,
}

/// Whether the scalar was written quoted (only quoting makes an implied tag a string).
pub(super) fn resolve(tag: &str, src: &str, quoted: bool) -> Result<Resolved, String> {
    if !matches!(
        tag,
        "" | STR | BOOL | INT | FLOAT | NULL | TIMESTAMP | BINARY
    ) {
        return Err(format!("unsupported tag {}", super::go_quote(tag)));
    }
    let hint = match src.as_bytes().first() {
        None => b'N',
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        Some(_) => 0,
    };
    let mut tag = tag;
    if hint != 0 && tag != STR && tag != BINARY {
        if quoted {
            return Ok(Resolved::Value(Value::string(src)));
        }
        if let Some(v) = resolve_map(src) {
            return Ok(Resolved::Value(v));
        }
        if tag.is_empty() && matches!(src, ".nan" | ".NaN" | ".NAN") {
            return Err("floating point NaN is not supported".into());
        }
        match hint {
            b'.' => {
                if let Some(n) = parse_number(src) {
                    return Ok(Resolved::Value(Value::Number(n)));
                }
            }
            b'D' | b'S' => {
                if (tag.is_empty() || tag == TIMESTAMP)
                    && let Some(t) = parse_timestamp(src)
                {
                    return Ok(Resolved::Value(Value::String(t.into())));
                }
                if is_yaml_int(src) {
                    tag = INT;
                } else if is_yaml_float(src) {
                    tag = FLOAT;
                }
            }
            _ => {}
        }
    }
    if tag.is_empty() && src == "<<" {
        return Ok(Resolved::Merge);
    }
    let cannot = |tag: &str| format!("cannot parse {} as {tag}", super::go_quote(src));
    Ok(Resolved::Value(match tag {
        STR | BINARY => {
            if tag == BINARY && go_base64_decode(src).is_err() {
                return Err(format!("{}: not valid base64", cannot(tag)));
            }
            Value::string(src)
        }
        BOOL => match resolve_map(src) {
            Some(v @ Value::Bool(_)) => v,
            _ => return Err(cannot(tag)),
        },
        INT | FLOAT => {
            let plain = src.replace('_', "");
            match parse_number(&plain).or_else(|| parse_go_int(&plain)) {
                Some(n) => Value::Number(n),
                None => return Err(cannot(tag)),
            }
        }
        TIMESTAMP => match parse_timestamp(src) {
            Some(t) => Value::String(t.into()),
            None => return Err(cannot(tag)),
        },
        NULL => Value::null(),
        _ => Value::string(src),
    }))
}

/// go-cty-yaml's `resolveMap`.
fn resolve_map(src: &str) -> Option<Value> {
    Some(match src {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Value::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Value::Bool(false)
        }
        "" | "~" | "null" | "Null" | "NULL" => Value::null(),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Value::Number(Num::inf(false)),
        "-.inf" | "-.Inf" | "-.INF" => Value::Number(Num::inf(true)),
        _ => return None,
    })
}

fn all(s: &str, f: impl Fn(u8) -> bool) -> bool {
    !s.is_empty() && s.bytes().all(f)
}

/// `\A([-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\z`.
fn is_yaml_int(s: &str) -> bool {
    if let Some(rest) = s.strip_prefix("0o") {
        return all(rest, |b| (b'0'..=b'7').contains(&b));
    }
    if let Some(rest) = s.strip_prefix("0x") {
        return all(rest, |b| b.is_ascii_hexdigit());
    }
    all(s.strip_prefix(['-', '+']).unwrap_or(s), |b| {
        b.is_ascii_digit()
    })
}

/// `\A[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\z`.
fn is_yaml_float(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let digits = |t: &str| all(t, |b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", frac)) => digits(frac),
        Some((int, frac)) => digits(int) && (frac.is_empty() || digits(frac)),
        None => digits(mantissa),
    };
    mantissa_ok && exponent.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e)))
}

/// `cty.ParseNumberVal`: Go's `big.ParseFloat(s, 10, 512, ToNearestEven)`, which also takes
/// a binary exponent (`1p3` is 8).
fn parse_number(s: &str) -> Option<Num> {
    let Some(i) = s.find(['p', 'P']) else {
        return Num::parse(s);
    };
    let (mantissa, exponent) = (&s[..i], &s[i + 1..]);
    if mantissa.contains(['e', 'E']) || matches!(mantissa, "Inf" | "inf" | "+Inf" | "-Inf") {
        return None;
    }
    let digits = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
    if !all(digits, |b| b.is_ascii_digit()) {
        return None;
    }
    let exp: i64 = exponent.parse().ok()?;
    if exp.unsigned_abs() > i32::MAX as u64 {
        return None;
    }
    let m = Num::parse(mantissa)?;
    // 2^|exp| by squaring: powers of two are exact at any precision.
    let mut scale = Num::from_i64(1);
    let mut base = Num::from_i64(2);
    let mut e = exp.unsigned_abs();
    while e > 0 {
        if e & 1 == 1 {
            scale = scale.mul(&base).ok()?;
        }
        base = base.mul(&base).ok()?;
        e >>= 1;
    }
    if exp >= 0 {
        m.mul(&scale)
    } else {
        m.div(&scale)
    }
    .ok()
}

/// `strconv.ParseInt(s, 0, 64)`, then `ParseUint`: a sign, `0x`/`0o`/`0b` or a leading `0`
/// (octal).
fn parse_go_int(s: &str) -> Option<Num> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty() || digits.starts_with(['+', '-']) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if neg {
        let v = 0i64.checked_sub_unsigned(magnitude)?;
        Some(Num::from_i64(v))
    } else if let Ok(v) = i64::try_from(magnitude) {
        Some(Num::from_i64(v))
    } else if s.starts_with('+') {
        // ParseUint takes no sign.
        None
    } else {
        Num::parse(&magnitude.to_string())
    }
}

/// go-cty-yaml's `parseTimestamp` (Go's `time.Parse` with its four layouts), formatted as
/// `time.RFC3339`.
fn parse_timestamp(s: &str) -> Option<String> {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return None;
    }
    [
        Layout::Time(b'T'),
        Layout::Time(b't'),
        Layout::Local,
        Layout::Date,
    ]
    .into_iter()
    .find_map(|layout| parse_layout(b, layout))
}

#[derive(Clone, Copy)]
enum Layout {
    /// `2006-1-2T15:4:5.999999999Z07:00` with this separator.
    Time(u8),
    /// `2006-1-2 15:4:5.999999999`.
    Local,
    /// `2006-1-2`.
    Date,
}

/// Go's `getnum(s, false)`: one or two digits.
fn getnum(s: &mut &[u8]) -> Option<u32> {
    let d = |i: usize| {
        s.get(i)
            .filter(|c| c.is_ascii_digit())
            .map(|c| u32::from(c - b'0'))
    };
    let first = d(0)?;
    match d(1) {
        Some(second) => {
            *s = &s[2..];
            Some(first * 10 + second)
        }
        None => {
            *s = &s[1..];
            Some(first)
        }
    }
}

fn literal(s: &mut &[u8], c: u8) -> Option<()> {
    let (&first, rest) = s.split_first()?;
    (first == c).then(|| *s = rest)
}

fn parse_layout(b: &[u8], layout: Layout) -> Option<String> {
    let year: u32 = std::str::from_utf8(&b[..4]).ok()?.parse().ok()?;
    let mut s = &b[4..];
    literal(&mut s, b'-')?;
    let month = getnum(&mut s)?;
    literal(&mut s, b'-')?;
    let day = getnum(&mut s)?;
    let (mut hour, mut minute, mut second, mut offset) = (0, 0, 0, 0i32);
    if !matches!(layout, Layout::Date) {
        literal(
            &mut s,
            if let Layout::Time(t) = layout {
                t
            } else {
                b' '
            },
        )?;
        hour = getnum(&mut s)?;
        literal(&mut s, b':')?;
        minute = getnum(&mut s)?;
        literal(&mut s, b':')?;
        second = getnum(&mut s)?;
        // `.999999999`: an optional fraction, dropped by RFC 3339 formatting.
        if s.len() >= 2 && matches!(s[0], b'.' | b',') && s[1].is_ascii_digit() {
            s = &s[1..];
            while s.first().is_some_and(u8::is_ascii_digit) {
                s = &s[1..];
            }
        }
        if let Layout::Time(_) = layout {
            if s.first() == Some(&b'Z') {
                s = &s[1..];
            } else {
                if s.len() < 6 || s[3] != b':' {
                    return None;
                }
                let two = |t: &[u8]| -> Option<i32> {
                    t.iter()
                        .all(u8::is_ascii_digit)
                        .then(|| i32::from(t[0] - b'0') * 10 + i32::from(t[1] - b'0'))
                };
                let (h, m) = (two(&s[1..3])?, two(&s[4..6])?);
                if h > 24 || m > 60 {
                    return None;
                }
                offset = (h * 60 + m) * 60;
                match s[0] {
                    b'+' => {}
                    b'-' => offset = -offset,
                    _ => return None,
                }
                s = &s[6..];
            }
        }
    }
    if !s.is_empty() || !(1..=12).contains(&month) || hour >= 24 || minute >= 60 || second >= 60 {
        return None;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if day < 1 || day > days {
        return None;
    }
    let zone = if offset == 0 {
        "Z".to_string()
    } else {
        let minutes = offset.abs() / 60;
        let sign = if offset < 0 { '-' } else { '+' };
        format!("{sign}{:02}:{:02}", minutes / 60, minutes % 60)
    };
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}{zone}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(tag: &str, src: &str) -> String {
        match resolve(tag, src, false) {
            Ok(Resolved::Value(v)) => crate::eval::json::to_hcl(&v),
            Ok(Resolved::Merge) => "<<merge>>".into(),
            Err(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn implied_tags() {
        assert_eq!(value("", "1_000"), "\"1_000\"");
        assert_eq!(value("", "0x10"), "16");
        assert_eq!(value("", "0o17"), "15");
        assert_eq!(value("", "010"), "10");
        assert_eq!(value("", "0b101"), "\"0b101\"");
        assert_eq!(value("", "+1"), "1");
        assert_eq!(value("", ".5p1"), "1");
        assert_eq!(value("", "1e3"), "1000");
        assert_eq!(value("", "yes"), "true");
        assert_eq!(value("", "Off"), "false");
        assert_eq!(value("", "~"), "null");
        assert_eq!(value("", "-.inf"), "-Inf");
        assert_eq!(
            value("", ".nan"),
            "error: floating point NaN is not supported"
        );
        assert_eq!(value("", "<<"), "<<merge>>");
        assert_eq!(value("", "2001-12-14"), "\"2001-12-14T00:00:00Z\"");
        assert_eq!(value("", "2001-02-30"), "\"2001-02-30\"");
        assert_eq!(
            value("", "2001-12-14t21:59:43.10-05:00"),
            "\"2001-12-14T21:59:43-05:00\""
        );
        assert_eq!(
            value("", "2001-12-14 21:59:43.10"),
            "\"2001-12-14T21:59:43Z\""
        );
        assert_eq!(
            value("", "2001-12-14T21:59:43+00:00"),
            "\"2001-12-14T21:59:43Z\""
        );
        assert!(matches!(
            resolve("", "true", true),
            Ok(Resolved::Value(Value::String(_)))
        ));
    }

    #[test]
    fn explicit_tags() {
        assert_eq!(value(INT, "0b101"), "5");
        assert_eq!(value(INT, "1_000"), "1000");
        assert_eq!(value(INT, "-0x10"), "-16");
        assert_eq!(value(INT, "18446744073709551615"), "18446744073709551615");
        assert_eq!(
            value(INT, "abc"),
            "error: cannot parse \"abc\" as tag:yaml.org,2002:int"
        );
        assert_eq!(value(STR, "1"), "\"1\"");
        assert_eq!(value(TIMESTAMP, "123"), "123");
        assert_eq!(
            value(BINARY, "a"),
            "error: cannot parse \"a\" as tag:yaml.org,2002:binary: not valid base64"
        );
        assert_eq!(value("!", "1"), "error: unsupported tag \"!\"");
        assert_eq!(value(NULL, "x"), "null");
        assert_eq!(
            value(BOOL, "abc"),
            "error: cannot parse \"abc\" as tag:yaml.org,2002:bool"
        );
        // An explicit tag still gives way to the integer and float patterns.
        assert_eq!(value(BOOL, "1"), "1");
    }
}
