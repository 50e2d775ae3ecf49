//! Go's parsing of escapes and class items (`parseEscape`, `parsePerlClassEscape`,
//! `parseNamedClass`, `parseUnicodeClass`), producing items for the `regex` crate's classes.

use super::unicode_names::unicode_table;
use super::{
    ERR_INVALID_CHAR_RANGE, ERR_INVALID_ESCAPE, ERR_MISSING_BRACKET, ERR_TRAILING_BACKSLASH,
    SyntaxError, err, upto,
};

/// A class that matches nothing.
pub(super) const NOTHING: &str = r"[^\x{0}-\x{10FFFF}]";

/// A range for a class, without the surrogates Go's escapes can name (they match nothing).
pub(super) fn range_item(lo: u32, hi: u32) -> Option<String> {
    let (lo, hi) = if (0xD800..=0xDFFF).contains(&lo) {
        (0xE000, hi)
    } else {
        (lo, hi)
    };
    let hi = if (0xD800..=0xDFFF).contains(&hi) {
        0xD7FF
    } else {
        hi
    };
    if lo > hi {
        return None;
    }
    if lo < 0xD800 && hi > 0xDFFF {
        return Some(format!(r"\x{{{lo:X}}}-\x{{D7FF}}\x{{E000}}-\x{{{hi:X}}}"));
    }
    Some(format!(r"\x{{{lo:X}}}-\x{{{hi:X}}}"))
}

pub(super) fn ascii_ranges(ranges: &[(u8, u8)], negated: bool) -> String {
    let mut s = String::from(if negated { "[^" } else { "[" });
    for &(lo, hi) in ranges {
        s.push_str(&format!(r"\x{{{lo:X}}}-\x{{{hi:X}}}"));
    }
    s.push(']');
    s
}

/// Go's `parsePerlClassEscape`: `\d \D \s \S \w \W`, ASCII-only.
pub(super) fn parse_perl_class(t: &str) -> Option<(String, &str)> {
    let b = t.as_bytes();
    if b.len() < 2 || b[0] != b'\\' {
        return None;
    }
    let ranges: &[(u8, u8)] = match b[1].to_ascii_lowercase() {
        b'd' => &[(b'0', b'9')],
        b's' => &[(b'\t', b'\n'), (0x0c, b'\r'), (b' ', b' ')],
        b'w' => &[(b'0', b'9'), (b'A', b'Z'), (b'_', b'_'), (b'a', b'z')],
        _ => return None,
    };
    Some((ascii_ranges(ranges, b[1].is_ascii_uppercase()), &t[2..]))
}

/// Go's `parseNamedClass`: `[:alpha:]` and `[:^alpha:]` (ASCII).
pub(super) fn parse_named_class(t: &str) -> Result<Option<(String, &str)>, SyntaxError> {
    let Some(i) = t[2..].find(":]") else {
        return Ok(None);
    };
    let (name, rest) = t.split_at(i + 4);
    let (negated, bare) = match name[2..name.len() - 2].strip_prefix('^') {
        Some(bare) => (true, bare),
        None => (false, &name[2..name.len() - 2]),
    };
    let ranges: &[(u8, u8)] = match bare {
        "alnum" => &[(b'0', b'9'), (b'A', b'Z'), (b'a', b'z')],
        "alpha" => &[(b'A', b'Z'), (b'a', b'z')],
        "ascii" => &[(0, 0x7f)],
        "blank" => &[(b'\t', b'\t'), (b' ', b' ')],
        "cntrl" => &[(0, 0x1f), (0x7f, 0x7f)],
        "digit" => &[(b'0', b'9')],
        "graph" => &[(b'!', b'~')],
        "lower" => &[(b'a', b'z')],
        "print" => &[(b' ', b'~')],
        "punct" => &[(b'!', b'/'), (b':', b'@'), (b'[', b'`'), (b'{', b'~')],
        "space" => &[(b'\t', b'\r'), (b' ', b' ')],
        "upper" => &[(b'A', b'Z')],
        "word" => &[(b'0', b'9'), (b'A', b'Z'), (b'_', b'_'), (b'a', b'z')],
        "xdigit" => &[(b'0', b'9'), (b'A', b'F'), (b'a', b'f')],
        _ => return Err(err(ERR_INVALID_CHAR_RANGE, name)),
    };
    Ok(Some((ascii_ranges(ranges, negated), rest)))
}

/// Go's `parseClassChar`.
pub(super) fn parse_class_char<'a>(
    t: &'a str,
    whole_class: &str,
) -> Result<(u32, &'a str), SyntaxError> {
    match t.chars().next() {
        None => Err(err(ERR_MISSING_BRACKET, whole_class)),
        Some('\\') => parse_escape(t),
        Some(c) => Ok((c as u32, &t[c.len_utf8()..])),
    }
}

/// Go's `parseEscape`: a single-character escape at the start of `s` (which starts with `\`).
pub(super) fn parse_escape(s: &str) -> Result<(u32, &str), SyntaxError> {
    let mut t = &s[1..];
    let Some(c) = t.chars().next() else {
        return Err(err(ERR_TRAILING_BACKSLASH, ""));
    };
    t = &t[c.len_utf8()..];
    let octal = |t: &str| {
        t.as_bytes()
            .first()
            .is_some_and(|b| (b'0'..=b'7').contains(b))
    };
    let hex = |c: char| c.to_digit(16);
    let invalid = |t: &str| Err(err(ERR_INVALID_ESCAPE, upto(s, t)));
    match c {
        '1'..='7' if !octal(t) => invalid(t),
        '0'..='7' => {
            let mut r = c as u32 - '0' as u32;
            for _ in 1..3 {
                if !octal(t) {
                    break;
                }
                r = r * 8 + u32::from(t.as_bytes()[0] - b'0');
                t = &t[1..];
            }
            Ok((r, t))
        }
        'x' => {
            let Some(c) = t.chars().next() else {
                return invalid(t);
            };
            t = &t[c.len_utf8()..];
            if c == '{' {
                let mut r: u32 = 0;
                let mut digits = 0;
                loop {
                    let Some(c) = t.chars().next() else {
                        return invalid(t);
                    };
                    t = &t[c.len_utf8()..];
                    if c == '}' {
                        break;
                    }
                    let Some(v) = hex(c) else {
                        return invalid(t);
                    };
                    r = r * 16 + v;
                    if r > 0x10FFFF {
                        return invalid(t);
                    }
                    digits += 1;
                }
                if digits == 0 {
                    return invalid(t);
                }
                return Ok((r, t));
            }
            let y = t.chars().next();
            if let Some(y) = y {
                t = &t[y.len_utf8()..];
            }
            match (hex(c), y.and_then(hex)) {
                (Some(x), Some(y)) => Ok((x * 16 + y, t)),
                _ => invalid(t),
            }
        }
        'a' => Ok((7, t)),
        'f' => Ok((12, t)),
        'n' => Ok((10, t)),
        'r' => Ok((13, t)),
        't' => Ok((9, t)),
        'v' => Ok((11, t)),
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok((c as u32, t)),
        _ => invalid(t),
    }
}

/// Go's `parseUnicodeClass`: `\pL`, `\p{Greek}`, `\P{^Lu}`, … (`t` starts with `\p` or `\P`),
/// as a class item for the `regex` crate.
pub(super) fn parse_unicode_class(s: &str) -> Result<(String, &str), SyntaxError> {
    let mut positive = s.as_bytes()[1] == b'p';
    let t = &s[2..];
    let (seq, mut name, rest) = match t.chars().next() {
        Some('{') => {
            let Some(end) = s.find('}') else {
                return Err(err(ERR_INVALID_CHAR_RANGE, s));
            };
            (&s[..=end], &s[3..end], &s[end + 1..])
        }
        Some(c) => {
            let rest = &t[c.len_utf8()..];
            let seq = upto(s, rest);
            (seq, &seq[2..], rest)
        }
        None => (s, "", t),
    };
    if let Some(bare) = name.strip_prefix('^') {
        positive = !positive;
        name = bare;
    }
    let Some((table, inverted)) = unicode_table(name) else {
        return Err(err(ERR_INVALID_CHAR_RANGE, seq));
    };
    if inverted {
        positive = !positive;
    }
    let p = if positive { 'p' } else { 'P' };
    Ok((format!(r"\{p}{{{table}}}"), rest))
}
