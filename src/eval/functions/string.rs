//! Built-in functions: the string family (Terraform 1.5.7's, as function-hcl registers them):
//! cty's stdlib string functions (string.go, format.go, regexp.go) and function-hcl's own
//! `replace`, `startswith`, `endswith` and `strcontains`.
//!
//! "Characters" are grapheme clusters where cty counts them (`substr`, `strrev`, `format`
//! widths); case mappings are Go's simple (one rune to one rune) mappings.

use super::{Function, FunctionError, FunctionTable, Param, args};
use crate::eval::types::Type;
use crate::eval::value::{Refinement, Value};

mod format;
mod regexp;
mod segment;

use segment::graphemes;

#[cfg(test)]
mod tests;

/// Registers this family's functions.
pub(super) fn register(table: &mut FunctionTable) {
    table.insert(format::format());
    table.insert(format::formatlist());
    table.insert(regexp::regex());
    table.insert(regexp::regexall());
    let str_dyn = |name| Param::new(name, Type::String).dynamic_ok();
    table.insert(string_fn("upper", vec![str_dyn("str")], |a| {
        Ok(a[0].chars().map(upper_simple).collect())
    }));
    table.insert(string_fn("lower", vec![str_dyn("str")], |a| {
        Ok(a[0].chars().map(lower_simple).collect())
    }));
    table.insert(string_fn("strrev", vec![str_dyn("str")], |a| {
        Ok(graphemes(a[0]).into_iter().rev().collect())
    }));
    table.insert(string_fn("title", strs(&["str"]), |a| Ok(title(a[0]))));
    table.insert(string_fn("trimspace", strs(&["str"]), |a| {
        Ok(a[0].trim_matches(char::is_whitespace).to_string())
    }));
    table.insert(string_fn("chomp", strs(&["str"]), |a| {
        Ok(a[0].trim_end_matches(['\r', '\n']).to_string())
    }));
    table.insert(string_fn("trim", strs(&["str", "cutset"]), |a| {
        Ok(a[0].trim_matches(|c| a[1].contains(c)).to_string())
    }));
    table.insert(string_fn("trimprefix", strs(&["str", "prefix"]), |a| {
        Ok(a[0].strip_prefix(a[1]).unwrap_or(a[0]).to_string())
    }));
    table.insert(string_fn("trimsuffix", strs(&["str", "suffix"]), |a| {
        Ok(a[0].strip_suffix(a[1]).unwrap_or(a[0]).to_string())
    }));
    table.insert(string_fn(
        "replace",
        strs(&["str", "substr", "replace"]),
        |a| replace(a[0], a[1], a[2]),
    ));
    table.insert(bool_fn("startswith", &["str", "prefix"], |a, b| {
        a.starts_with(b)
    }));
    table.insert(bool_fn("endswith", &["str", "suffix"], |a, b| {
        a.ends_with(b)
    }));
    table.insert(bool_fn("strcontains", &["str", "substr"], |a, b| {
        a.contains(b)
    }));
    table.insert(indent());
    table.insert(join());
    table.insert(split());
    table.insert(substr());
}

/// String parameters named `names`.
fn strs(names: &[&'static str]) -> Vec<Param> {
    names.iter().map(|n| Param::new(n, Type::String)).collect()
}

/// A function of string parameters returning a string.
fn string_fn(
    name: &'static str,
    params: Vec<Param>,
    f: impl Fn(&[&str]) -> Result<String, FunctionError> + Send + Sync + 'static,
) -> Function {
    Function::new(name, params, None, Type::String, move |args, _| {
        let strings = (0..args.len())
            .map(|i| args::string(args, i))
            .collect::<Result<Vec<_>, _>>()?;
        f(&strings).map(Value::string_owned)
    })
}

/// A function of two string parameters returning a bool.
fn bool_fn(
    name: &'static str,
    names: &[&'static str],
    f: impl Fn(&str, &str) -> bool + Send + Sync + 'static,
) -> Function {
    Function::new(name, strs(names), None, Type::Bool, move |args, _| {
        Ok(Value::bool(f(
            args::string(args, 0)?,
            args::string(args, 1)?,
        )))
    })
}

/// An unknown string refined as not null (cty's `refineNonNull`).
fn unknown_string() -> Value {
    Value::Unknown(
        Type::String,
        Refinement {
            not_null: true,
            string_prefix: None,
        },
    )
}

/// Go's `unicode.ToUpper`: the simple mapping (one rune to one rune).
fn upper_simple(c: char) -> char {
    match c as u32 {
        // Greek with ypogegrammeni: the simple mapping is the titlecase letter.
        0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7 => {
            char::from_u32(c as u32 + 8).unwrap_or(c)
        }
        0x1FB3 => '\u{1FBC}',
        0x1FC3 => '\u{1FCC}',
        0x1FF3 => '\u{1FFC}',
        _ => go_case(c, c.to_uppercase()),
    }
}

/// Go's `unicode.ToLower`: the simple mapping.
fn lower_simple(c: char) -> char {
    match c {
        '\u{130}' => 'i',
        _ => go_case(c, c.to_lowercase()),
    }
}

/// Go's `unicode.ToTitle`: the simple titlecase mapping.
fn title_simple(c: char) -> char {
    match c as u32 {
        0x1C4..=0x1C6 => '\u{1C5}',
        0x1C7..=0x1C9 => '\u{1C8}',
        0x1CA..=0x1CC => '\u{1CB}',
        0x1F1..=0x1F3 => '\u{1F2}',
        // Georgian Mkhedruli letters are their own titlecase.
        0x10D0..=0x10FA | 0x10FD..=0x10FF => c,
        _ => upper_simple(c),
    }
}

/// A one-character mapping of `c` when Go has it: mappings to several characters and
/// mappings that involve letters assigned after Unicode 15.0 (Go 1.25's tables; Rust's are
/// newer) leave `c` unchanged.
fn go_case(c: char, mut mapped: impl Iterator<Item = char>) -> char {
    match (mapped.next(), mapped.next()) {
        (Some(m), None) if !after_unicode_15(c) && !after_unicode_15(m) => m,
        _ => c,
    }
}

/// Cased letters assigned after Unicode 15.0.
fn after_unicode_15(c: char) -> bool {
    matches!(
        c as u32,
        0x1C89
            | 0x1C8A
            | 0xA7CB..=0xA7CF
            | 0xA7D2
            | 0xA7D4
            | 0xA7DA..=0xA7DC
            | 0x10D50..=0x10D85
            | 0x16EA0..=0x16ED3
    )
}

/// Go's `strings.Title`: the first letter after each separator (ASCII other than letters,
/// digits and `_`; Unicode white space) in titlecase.
fn title(s: &str) -> String {
    let separator = |c: char| {
        if c.is_ascii() {
            !(c.is_ascii_alphanumeric() || c == '_')
        } else {
            c.is_whitespace()
        }
    };
    let mut prev = ' ';
    s.chars()
        .map(|c| {
            let out = if separator(prev) { title_simple(c) } else { c };
            prev = c;
            out
        })
        .collect()
}

/// function-hcl's `replace`: a regular expression when `substr` is wrapped in slashes.
fn replace(s: &str, substr: &str, with: &str) -> Result<String, FunctionError> {
    if substr.len() > 1 && substr.starts_with('/') && substr.ends_with('/') {
        let re = regexp::GoRegex::compile(&substr[1..substr.len() - 1]).map_err(|e| {
            FunctionError::other(format!("error parsing regexp: {}: `{}`", e.code, e.expr))
        })?;
        return Ok(re.replace_all(s, with));
    }
    Ok(s.replace(substr, with))
}

/// Go's `int` from a number, as `gocty.FromCtyValue` converts it (a plain error).
fn go_int(args: &[Value], i: usize) -> Result<i64, FunctionError> {
    let n = args::number(args, i)?;
    n.to_i64().filter(|_| n.is_int()).ok_or_else(|| {
        FunctionError::other(
            "value must be a whole number, between -9223372036854775808 and 9223372036854775807",
        )
    })
}

/// cty's `IndentFunc`.
fn indent() -> Function {
    let params = vec![
        Param::new("spaces", Type::Number),
        Param::new("str", Type::String),
    ];
    Function::new("indent", params, None, Type::String, |args, _| {
        let spaces = go_int(args, 0)?;
        let data = args::string(args, 1)?;
        let Ok(spaces) = usize::try_from(spaces) else {
            return Err(FunctionError::other(
                "panic in function implementation: strings: negative Repeat count",
            ));
        };
        let lines = data.matches('\n').count();
        if spaces.saturating_mul(lines) > 1 << 30 {
            return Err(FunctionError::other(
                "panic in function implementation: runtime error: out of memory",
            ));
        }
        let pad = format!("\n{}", " ".repeat(spaces));
        Ok(Value::string(data.replace('\n', &pad)))
    })
}

/// cty's `JoinFunc`.
fn join() -> Function {
    Function::new(
        "join",
        vec![Param::new("separator", Type::String)],
        Some(Param::new("lists", Type::list(Type::String))),
        Type::String,
        |args, _| {
            let sep = args::string(args, 0)?;
            let lists = &args[1..];
            if lists.is_empty() {
                return Err(FunctionError::other("at least one list is required"));
            }
            if lists.iter().any(|l| !l.is_wholly_known()) {
                return Ok(unknown_string());
            }
            let mut items = Vec::new();
            for (ai, list) in lists.iter().enumerate() {
                for (ei, val) in list.elements().iter().enumerate() {
                    match val {
                        Value::String(s) => items.push(s.as_str()),
                        _ if lists.len() > 1 => {
                            return Err(FunctionError::arg(
                                ai + 1,
                                format!(
                                    "element {ei} of list {} is null; cannot concatenate null values",
                                    ai + 1
                                ),
                            ));
                        }
                        _ => {
                            return Err(FunctionError::arg(
                                ai + 1,
                                format!("element {ei} is null; cannot concatenate null values"),
                            ));
                        }
                    }
                }
            }
            Ok(Value::string(items.join(sep)))
        },
    )
}

/// cty's `SplitFunc` (Go's `strings.Split`: an empty separator splits into runes).
fn split() -> Function {
    Function::new(
        "split",
        strs(&["separator", "str"]),
        None,
        Type::list(Type::String),
        |args, _| {
            let sep = args::string(args, 0)?;
            let s = args::string(args, 1)?;
            let items = if sep.is_empty() {
                s.chars()
                    .map(|c| Value::string(c.to_string()))
                    .collect::<Vec<_>>()
                    .into()
            } else {
                s.split(sep).map(Value::string).collect::<Vec<_>>().into()
            };
            Ok(Value::List {
                elem: Type::String,
                items,
            })
        },
    )
}

/// cty's `SubstrFunc`, step by step (offsets and lengths in grapheme clusters).
fn substr() -> Function {
    let params = vec![
        Param::new("str", Type::String).dynamic_ok(),
        Param::new("offset", Type::Number).dynamic_ok(),
        Param::new("length", Type::Number).dynamic_ok(),
    ];
    Function::new("substr", params, None, Type::String, |args, _| {
        let s = args::string(args, 0)?;
        let mut offset = go_int(args, 1)?;
        let length = go_int(args, 2)?;
        if offset < 0 {
            offset = offset.saturating_add(graphemes(s).len() as i64);
        } else if length == 0 {
            return Ok(Value::string(""));
        }
        let mut sub = s;
        if offset > 0 {
            let mut i = 0;
            let mut pos = 0;
            for g in graphemes(s) {
                i += g.len();
                pos += 1;
                if pos == offset {
                    break;
                }
                if i >= s.len() {
                    return Ok(Value::string(""));
                }
            }
            sub = &s[i..];
        }
        if length < 0 {
            return Ok(Value::string(sub));
        }
        let mut i = 0;
        let mut pos = 0;
        for g in graphemes(sub) {
            i += g.len();
            pos += 1;
            if pos == length {
                break;
            }
        }
        Ok(Value::string(&sub[..i]))
    })
}
