//! cel-go's `ext.Strings` at version 2 (`ext/strings.go`): `charAt`, `indexOf`,
//! `lastIndexOf`, `lowerAscii`, `upperAscii`, `replace`, `split`, `substring`, `trim`,
//! `join` (version 2's, which checks each element), `strings.quote` and `format` (the
//! version-1 formatter, see [`super::format`]). Positions count code points, as cel-go's
//! `[]rune` conversions do.

use super::{MAX_LIST, MAX_STRING, int_arg, list_arg, str_arg, too_big};
use crate::cel::env::Function;
use crate::cel::types::Type;
use crate::cel::value::{Error, Value};

/// The library's functions.
pub fn functions() -> Vec<Function> {
    use Type::{Int, String as Str};
    vec![
        Function::new("charAt").member("string_char_at_int", vec![Str, Int], Str, |a| {
            char_at(str_arg(a, 0)?, int_arg(a, 1)?).map(|s| Value::string(&s))
        }),
        Function::new("indexOf")
            .member("string_index_of_string", vec![Str, Str], Int, |a| {
                index_of(str_arg(a, 0)?, str_arg(a, 1)?, 0).map(Value::Int)
            })
            .member(
                "string_index_of_string_int",
                vec![Str, Str, Int],
                Int,
                |a| index_of(str_arg(a, 0)?, str_arg(a, 1)?, int_arg(a, 2)?).map(Value::Int),
            ),
        Function::new("lastIndexOf")
            .member("string_last_index_of_string", vec![Str, Str], Int, |a| {
                last_index_of(str_arg(a, 0)?, str_arg(a, 1)?).map(Value::Int)
            })
            .member(
                "string_last_index_of_string_int",
                vec![Str, Str, Int],
                Int,
                |a| {
                    last_index_of_offset(str_arg(a, 0)?, str_arg(a, 1)?, int_arg(a, 2)?)
                        .map(Value::Int)
                },
            ),
        Function::new("lowerAscii").member("string_lower_ascii", vec![Str], Str, |a| {
            Ok(Value::string(&str_arg(a, 0)?.to_ascii_lowercase()))
        }),
        Function::new("replace")
            .member(
                "string_replace_string_string",
                vec![Str, Str, Str],
                Str,
                |a| replace(str_arg(a, 0)?, str_arg(a, 1)?, str_arg(a, 2)?, -1),
            )
            .member(
                "string_replace_string_string_int",
                vec![Str, Str, Str, Int],
                Str,
                |a| {
                    replace(
                        str_arg(a, 0)?,
                        str_arg(a, 1)?,
                        str_arg(a, 2)?,
                        int_arg(a, 3)?,
                    )
                },
            ),
        Function::new("split")
            .member(
                "string_split_string",
                vec![Str, Str],
                Type::list(Str),
                |a| split(str_arg(a, 0)?, str_arg(a, 1)?, -1),
            )
            .member(
                "string_split_string_int",
                vec![Str, Str, Int],
                Type::list(Str),
                |a| split(str_arg(a, 0)?, str_arg(a, 1)?, int_arg(a, 2)?),
            ),
        Function::new("substring")
            .member("string_substring_int", vec![Str, Int], Str, |a| {
                substring(str_arg(a, 0)?, int_arg(a, 1)?).map(|s| Value::string(&s))
            })
            .member("string_substring_int_int", vec![Str, Int, Int], Str, |a| {
                substring_range(str_arg(a, 0)?, int_arg(a, 1)?, int_arg(a, 2)?)
                    .map(|s| Value::string(&s))
            }),
        Function::new("trim").member("string_trim", vec![Str], Str, |a| {
            // Go's strings.TrimSpace and Rust's trim agree: Unicode's White_Space
            Ok(Value::string(str_arg(a, 0)?.trim()))
        }),
        Function::new("upperAscii").member("string_upper_ascii", vec![Str], Str, |a| {
            Ok(Value::string(&str_arg(a, 0)?.to_ascii_uppercase()))
        }),
        Function::new("format").member(
            "string_format",
            vec![Str, Type::list(Type::Dyn)],
            Str,
            |a| {
                let list = list_arg(a, 1)?;
                super::format::format(str_arg(a, 0)?, &list.items).map(|s| Value::string(&s))
            },
        ),
        Function::new("strings.quote").global("strings_quote", vec![Str], Str, |a| {
            Ok(Value::string(&quote(str_arg(a, 0)?)))
        }),
        Function::new("join")
            .member("list_join", vec![Type::list(Str)], Str, |a| {
                join(&list_arg(a, 0)?.items, "")
            })
            .member("list_join_string", vec![Type::list(Str), Str], Str, |a| {
                join(&list_arg(a, 0)?.items, str_arg(a, 1)?)
            }),
    ]
}

fn out_of_range(i: i64) -> Error {
    Error::new(format!("index out of range: {i}"))
}

/// `s.charAt(i)`: the code point at `i`, `""` at the end, an error beyond.
pub fn char_at(s: &str, i: i64) -> Result<String, Error> {
    let len = s.chars().count();
    match usize::try_from(i) {
        Ok(u) if u < len => Ok(s.chars().nth(u).map(String::from).unwrap_or_default()),
        Ok(u) if u == len => Ok(String::new()),
        _ => Err(out_of_range(i)),
    }
}

// The searches below give cel-go's results (its loops compare code point slices) with
// the standard library's linear-time substring search: a valid UTF-8 needle only ever
// matches a valid UTF-8 haystack at code point boundaries.

/// `s.indexOf(sub, offset)`: the first code point index of `sub` at or after `offset`.
pub fn index_of(s: &str, sub: &str, offset: i64) -> Result<i64, Error> {
    if sub.is_empty() {
        return Ok(offset);
    }
    let Ok(off) = usize::try_from(offset) else {
        return Err(out_of_range(offset));
    };
    if off >= s.chars().count() {
        return Ok(-1);
    }
    let start = byte_offset(s, off);
    Ok(match s[start..].find(sub) {
        Some(b) => (off + s[start..start + b].chars().count()) as i64,
        None => -1,
    })
}

/// `s.lastIndexOf(sub)`: the last code point index of `sub`.
pub fn last_index_of(s: &str, sub: &str) -> Result<i64, Error> {
    let len = s.chars().count();
    if sub.is_empty() {
        return Ok(len as i64);
    }
    // cel-go compares the byte lengths here
    if s.len() < sub.len() {
        return Ok(-1);
    }
    last_index_of_offset(s, sub, len as i64 - 1)
}

/// `s.lastIndexOf(sub, offset)`: the last code point index of `sub` at or before `offset`.
pub fn last_index_of_offset(s: &str, sub: &str, offset: i64) -> Result<i64, Error> {
    if sub.is_empty() {
        return Ok(offset);
    }
    let Ok(off) = usize::try_from(offset) else {
        return Err(out_of_range(offset));
    };
    let len = s.chars().count();
    let sub_len = sub.chars().count();
    if off >= len || sub_len > len {
        return Ok(-1);
    }
    let off = off.min(len - sub_len);
    // a match starting at or before `off` ends within the first off + sub_len code points
    let end = byte_offset(s, off + sub_len);
    Ok(match s[..end].rfind(sub) {
        Some(b) => s[..b].chars().count() as i64,
        None => -1,
    })
}

/// `s.replace(old, new, n)`: Go's `strings.Replace` (`n < 0`: all).
pub fn replace(s: &str, old: &str, new: &str, n: i64) -> Result<Value, Error> {
    if n == 0 || old == new {
        return Ok(Value::string(s));
    }
    let found = if old.is_empty() {
        s.chars().count() + 1
    } else {
        s.matches(old).count()
    };
    let count = match usize::try_from(n) {
        Ok(n) => found.min(n),
        Err(_) => found,
    };
    let size = (s.len() - count * old.len()).checked_add(count.saturating_mul(new.len()));
    if size.is_none_or(|n| n > MAX_STRING) {
        return Err(too_big());
    }
    Ok(Value::string(&s.replacen(old, new, count)))
}

/// `s.split(sep, n)`: Go's `strings.SplitN` (`n < 0`: all; an empty `sep` splits into
/// code points).
pub fn split(s: &str, sep: &str, n: i64) -> Result<Value, Error> {
    if n == 0 {
        return Ok(Value::list(Vec::new()));
    }
    let limit = usize::try_from(n).ok();
    let pieces = if sep.is_empty() {
        s.chars().count()
    } else {
        s.matches(sep).count() + 1
    };
    if limit.map_or(pieces, |l| pieces.min(l)) > MAX_LIST {
        return Err(too_big());
    }
    let parts: Vec<Value> = if sep.is_empty() {
        // Go's explode: one string per code point, the last one taking the rest
        let mut parts = Vec::new();
        let mut rest = s;
        while let Some(c) = rest.chars().next() {
            if limit.is_some_and(|l| parts.len() + 1 == l) {
                break;
            }
            parts.push(Value::string(&rest[..c.len_utf8()]));
            rest = &rest[c.len_utf8()..];
        }
        if !rest.is_empty() {
            parts.push(Value::string(rest));
        }
        parts
    } else {
        match limit {
            Some(l) => s.splitn(l, sep).map(Value::string).collect(),
            None => s.split(sep).map(Value::string).collect(),
        }
    };
    Ok(Value::list(parts))
}

/// The byte offset of code point `i` (`i` at most the number of code points).
fn byte_offset(s: &str, i: usize) -> usize {
    s.char_indices().nth(i).map_or(s.len(), |(b, _)| b)
}

/// `s.substring(start)`.
pub fn substring(s: &str, start: i64) -> Result<String, Error> {
    let len = s.chars().count();
    match usize::try_from(start) {
        Ok(u) if u <= len => Ok(s[byte_offset(s, u)..].to_string()),
        _ => Err(out_of_range(start)),
    }
}

/// `s.substring(start, end)`.
pub fn substring_range(s: &str, start: i64, end: i64) -> Result<String, Error> {
    if start > end {
        return Err(Error::new(format!(
            "invalid substring range. start: {start}, end: {end}"
        )));
    }
    let len = s.chars().count();
    let check = |i: i64| match usize::try_from(i) {
        Ok(u) if u <= len => Ok(u),
        _ => Err(out_of_range(i)),
    };
    let (a, b) = (check(start)?, check(end)?);
    Ok(s[byte_offset(s, a)..byte_offset(s, b)].to_string())
}

/// `list.join(sep)`: version 2 checks each element is a string.
pub fn join(items: &[Value], sep: &str) -> Result<Value, Error> {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        match item {
            Value::String(s) => out.push_str(s),
            other => {
                return Err(Error::new(format!(
                    "join: invalid input: {}",
                    super::gofmt::go_v(other)
                )));
            }
        }
        if out.len() > MAX_STRING {
            return Err(too_big());
        }
    }
    Ok(Value::string(&out))
}

/// `strings.quote(s)`: double-quoted, CEL's escapes for `\a \b \f \n \r \t \v \\ "`,
/// everything else as is.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
