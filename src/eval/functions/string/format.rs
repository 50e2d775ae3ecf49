//! `format` and `formatlist` (cty's format.go and the ragel scanner of format_fsm.rl): verbs,
//! flags, widths, precisions and `%[n]` argument indexes, with cty's messages.

use super::{graphemes, unknown_string};
use crate::eval::convert;
use crate::eval::functions::{Function, FunctionError, Param, args};
use crate::eval::json;
use crate::eval::num::Num;
use crate::eval::prefix::safe_known_prefix;
use crate::eval::types::Type;
use crate::eval::value::{Refinement, Value};
use crate::gostd::strconv::{format_uint, push_uint};
use num_bigint::Sign;
use std::sync::LazyLock;

fn params() -> (Vec<Param>, Option<Param>) {
    (
        vec![Param::new("format", Type::String)],
        Some(Param::any("args")),
    )
}

/// cty's `FormatFunc`.
pub(super) fn format() -> Function {
    let (params, var) = params();
    Function::new("format", params, var, Type::String, |args, _| {
        let fmt = args::string(args, 0)?;
        if args[1..].iter().any(|a| !a.is_wholly_known()) {
            // Only the literal text before the first verb is certain.
            let mut refinement = Refinement {
                not_null: true,
                string_prefix: None,
            };
            if let Some(idx) = fmt.find('%').filter(|&i| i > 0) {
                let prefix = safe_known_prefix(&fmt[..idx], usize::MAX);
                if !prefix.is_empty() {
                    refinement.string_prefix = Some(prefix);
                }
            }
            return Ok(Value::Unknown(Type::String, refinement));
        }
        format_values(fmt, &args[1..]).map(Value::string_owned)
    })
}

/// cty's `FormatListFunc`.
pub(super) fn formatlist() -> Function {
    let (params, var) = params();
    Function::new(
        "formatlist",
        params,
        var,
        Type::list(Type::String),
        |args, ret| {
            let fmt = args::string(args, 0)?;
            let rest = &args[1..];
            if rest.is_empty() {
                let s = format_values(fmt, rest)?;
                return Ok(Value::List {
                    elem: Type::String,
                    items: vec![Value::string(s)].into(),
                });
            }
            let mut iter_len: Option<(usize, usize)> = None;
            let mut unknown = false;
            for (i, arg) in rest.iter().enumerate() {
                let ty = arg.ty();
                let sequence = matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_));
                if sequence && !arg.is_null() {
                    let len = match (arg, &ty) {
                        (Value::Unknown(..), Type::Tuple(items)) => items.len(),
                        (Value::Unknown(..), _) => {
                            unknown = true;
                            continue;
                        }
                        _ => arg.elements().len(),
                    };
                    match iter_len {
                        None => iter_len = Some((len, i)),
                        Some((want, chooser)) if want != len => {
                            return Err(FunctionError::arg(
                                i + 1,
                                format!(
                                    "argument {} has length {len}, which is inconsistent with argument {} of length {want}",
                                    i + 1,
                                    chooser + 1
                                ),
                            ));
                        }
                        _ => {}
                    }
                    if !arg.is_known() {
                        unknown = true;
                    }
                } else if matches!(arg, Value::Unknown(Type::Dynamic, _)) {
                    unknown = true;
                }
            }
            if unknown {
                return Ok(Value::Unknown(
                    ret.clone(),
                    Refinement {
                        not_null: true,
                        string_prefix: None,
                    },
                ));
            }
            let count = iter_len.map_or(1, |(len, _)| len);
            let mut items = Vec::with_capacity(count);
            'results: for n in 0..count {
                let mut fmt_args = Vec::with_capacity(rest.len());
                for arg in rest {
                    let sequence =
                        matches!(arg.ty(), Type::List(_) | Type::Set(_) | Type::Tuple(_));
                    let val = if sequence && !arg.is_null() {
                        arg.elements()[n].clone()
                    } else {
                        arg.clone()
                    };
                    if !val.is_wholly_known() {
                        items.push(unknown_string());
                        continue 'results;
                    }
                    fmt_args.push(val);
                }
                match format_values(fmt, &fmt_args) {
                    Ok(s) => items.push(Value::string_owned(s)),
                    Err(FunctionError::Arg { message, .. } | FunctionError::Other(message)) => {
                        return Err(FunctionError::other(format!(
                            "error on format iteration {n}: {message}"
                        )));
                    }
                }
            }
            Ok(Value::List {
                elem: Type::String,
                items: items.into(),
            })
        },
    )
}

/// One formatting sequence (cty's `formatVerb`).
#[derive(Default)]
struct Verb<'a> {
    raw: &'a str,
    offset: usize,
    arg_num: usize,
    mode: char,
    zero: bool,
    sharp: bool,
    plus: bool,
    minus: bool,
    space: bool,
    /// Negative: none given.
    prec: i64,
    /// Negative: none given.
    width: i64,
}

/// cty's `formatFSM`: the scanner for `fmt` applied to `args`.
fn format_values(fmt: &str, args: &[Value]) -> Result<String, FunctionError> {
    let bytes = fmt.as_bytes();
    // Room for the format and string arguments once each (a guess: enough for most calls).
    let strings: usize = args
        .iter()
        .map(|a| match a {
            Value::String(s) => s.len(),
            _ => 8,
        })
        .sum();
    let mut buf = String::with_capacity(fmt.len().saturating_add(strings));
    let mut next_arg = 1;
    let mut highest = 0;
    let mut p = 0;
    let eof =
        |p: usize| FunctionError::other(format!("invalid format string starting at offset {p}"));
    let bad_char = |p: usize| {
        let c = fmt[p..].chars().next().unwrap_or('\u{fffd}');
        FunctionError::other(format!(
            "unrecognized format character {} at offset {p}",
            go_quote_rune(c)
        ))
    };
    while p < bytes.len() {
        if bytes[p] != b'%' {
            let next = bytes[p..]
                .iter()
                .position(|&b| b == b'%')
                .map_or(bytes.len(), |i| p + i);
            buf.push_str(&fmt[p..next]);
            p = next;
            continue;
        }
        if bytes.get(p + 1) == Some(&b'%') {
            buf.push('%');
            p += 2;
            continue;
        }
        let start = p;
        let mut verb = Verb {
            arg_num: next_arg,
            prec: -1,
            width: -1,
            ..Verb::default()
        };
        p += 1;
        while let Some(&c) = bytes.get(p) {
            match c {
                b'0' => verb.zero = true,
                b'#' => verb.sharp = true,
                b'-' => verb.minus = true,
                b'+' => verb.plus = true,
                b' ' => verb.space = true,
                _ => break,
            }
            p += 1;
        }
        if let Some(b'1'..=b'9') = bytes.get(p) {
            verb.width = read_number(bytes, &mut p);
        }
        if bytes.get(p) == Some(&b'.') {
            p += 1;
            verb.prec = read_number(bytes, &mut p);
        }
        if bytes.get(p) == Some(&b'[') {
            p += 1;
            match bytes.get(p) {
                Some(b'1'..=b'9') => verb.arg_num = read_number(bytes, &mut p) as usize,
                Some(_) => return Err(bad_char(p)),
                None => return Err(eof(p)),
            }
            match bytes.get(p) {
                Some(b']') => p += 1,
                Some(_) => return Err(bad_char(p)),
                None => return Err(eof(p)),
            }
        }
        match bytes.get(p) {
            Some(c) if c.is_ascii_alphabetic() => {
                verb.mode = char::from(*c);
                p += 1;
                verb.raw = &fmt[start..p];
                verb.offset = start;
                highest = highest.max(verb.arg_num);
                format_append(&mut verb, &mut buf, args).map_err(FunctionError::other)?;
                next_arg = verb.arg_num + 1;
            }
            Some(_) => return Err(bad_char(p)),
            None => return Err(eof(p)),
        }
    }
    if highest < args.len() {
        let first_bad = highest + 1;
        let message = if highest == 0 {
            "too many arguments; no verbs in format string".to_string()
        } else {
            format!("too many arguments; only {highest} used by format string")
        };
        return Err(FunctionError::arg(first_bad, message));
    }
    Ok(buf)
}

/// Reads decimal digits at `*p` (saturating).
fn read_number(bytes: &[u8], p: &mut usize) -> i64 {
    let mut n: i64 = 0;
    while let Some(c @ b'0'..=b'9') = bytes.get(*p) {
        n = n.saturating_mul(10).saturating_add(i64::from(c - b'0'));
        *p += 1;
    }
    n
}

/// cty's `formatAppend`.
fn format_append(verb: &mut Verb, buf: &mut String, args: &[Value]) -> Result<(), String> {
    // The quoted verb only goes into error messages: built when one is, not for every verb.
    let raw = QuotedVerb(verb.raw);
    // Sizes are checked before anything is allocated: `%999999999d` would pad to 1 GB.
    let limit = crate::eval::functions::MAX_STRING_BYTES as i64;
    if verb.width > limit
        || verb.prec > limit
        || buf.len() as i64 + verb.width.max(verb.prec) > limit
    {
        return Err(format!(
            "invalid width or precision for {raw} at {}: {}",
            verb.offset,
            crate::eval::functions::string_too_long(
                buf.len()
                    .saturating_add(verb.width.max(verb.prec).max(0) as usize)
            )
        ));
    }
    let Some(arg) = verb.arg_num.checked_sub(1).and_then(|i| args.get(i)) else {
        return Err(format!(
            "not enough arguments for {raw} at {}: need index {} but have {} total",
            verb.offset,
            verb.arg_num,
            args.len()
        ));
    };
    if verb.mode != 'v' && arg.is_null() {
        return Err(format!(
            "unsupported value for {raw} at {}: null value cannot be formatted",
            verb.offset
        ));
    }
    let unsupported = |msg: &dyn std::fmt::Display| {
        format!("unsupported value for {raw} at {}: {msg}", verb.offset)
    };
    match verb.mode {
        'v' => {
            if !verb.sharp {
                match arg {
                    Value::String(s) => {
                        buf.push_str(&pad_width(verb, s.to_string()));
                        return Ok(());
                    }
                    Value::Number(n) if !n.is_printable() => {
                        return Err(unsupported(&too_long(n)));
                    }
                    Value::Number(n) => {
                        buf.push_str(&pad_width(verb, n.text('g', -1)));
                        return Ok(());
                    }
                    _ => {}
                }
            }
            let text = json::to_json_string(arg).map_err(|e| unsupported(&e))?;
            buf.push_str(&pad_width(verb, text));
        }
        't' => match convert::convert(arg, &Type::Bool).map_err(|e| unsupported(&e))? {
            Value::Bool(b) => buf.push_str(if b { "true" } else { "false" }),
            _ => return Err(unsupported(&"bool required")),
        },
        'b' | 'd' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G' => {
            // A number argument is used as it is (converting it to a number is the identity).
            let converted;
            let n = match arg {
                Value::Number(n) => n,
                _ => {
                    converted =
                        convert::convert(arg, &Type::Number).map_err(|e| unsupported(&e))?;
                    let Value::Number(n) = &converted else {
                        return Err(unsupported(&"number required"));
                    };
                    n
                }
            };
            if !n.is_printable() {
                return Err(unsupported(&too_long(n)));
            }
            if matches!(verb.mode, 'b' | 'd' | 'o' | 'x' | 'X') {
                let base: u32 = match verb.mode {
                    'b' => 2,
                    'o' => 8,
                    'x' | 'X' => 16,
                    _ => 10,
                };
                // A plain `%d` of a whole number that fits a machine word (most are): its
                // sign and digits, straight onto the text.
                let plain = !(verb.plus || verb.space || verb.sharp || verb.zero || verb.minus);
                if base == 10
                    && plain
                    && verb.prec < 0
                    && verb.width < 0
                    && let Some(v) = n.to_i64()
                {
                    if v < 0 {
                        buf.push('-');
                    }
                    push_uint(buf, v.unsigned_abs(), 10);
                    return Ok(());
                }
                // Whole numbers that fit a machine word skip the big integer.
                let mut word = [0u8; 64];
                let big;
                let (negative, digits) = match n.to_i64() {
                    Some(v) => (
                        v < 0,
                        format_uint(v.unsigned_abs(), u64::from(base), &mut word),
                    ),
                    None => {
                        let Some(int) = n.to_bigint() else {
                            return Err(unsupported(&"an integer is required"));
                        };
                        big = int.magnitude().to_str_radix(base);
                        (int.sign() == Sign::Minus, big.as_str())
                    }
                };
                push_integer(verb, negative, digits, buf);
            } else {
                buf.push_str(&format_float(verb, n));
            }
        }
        // A string argument with nothing to cut or pad is copied straight in.
        's' if verb.prec <= 0 && verb.width < 0 && matches!(arg, Value::String(_)) => {
            if let Value::String(s) = arg {
                buf.push_str(s);
            }
        }
        's' | 'q' => {
            let converted = convert::convert(arg, &Type::String).map_err(|e| unsupported(&e))?;
            let Value::String(s) = converted else {
                return Err(unsupported(&"string required"));
            };
            let mut s = s.into_string();
            if verb.prec > 0 {
                let keep: usize = graphemes(&s)
                    .into_iter()
                    .take(verb.prec as usize)
                    .map(str::len)
                    .sum();
                s.truncate(keep);
            }
            if verb.mode == 'q' {
                s = json::to_json_string(&Value::String(s.into())).map_err(|e| unsupported(&e))?;
            }
            buf.push_str(&pad_width(verb, s));
        }
        mode => {
            return Err(format!(
                "unsupported format verb {} in {raw} at offset {}",
                go_quote_rune(mode),
                verb.offset
            ));
        }
    }
    Ok(())
}

/// cty's `formatPadWidth`: pads to the width in grapheme clusters.
fn pad_width(verb: &Verb, s: String) -> String {
    if verb.width < 0 {
        return s;
    }
    let have = graphemes(&s).len() as i64;
    if have >= verb.width {
        return s;
    }
    let pad = if verb.zero { "0" } else { " " }.repeat((verb.width - have) as usize);
    if verb.minus { s + &pad } else { pad + &s }
}

/// Go's `big.Int.Format` for `%b %d %o %x %X` with the verb's flags, width and precision, of
/// the integer with this sign and magnitude digits (lower case, in the verb's base).
fn push_integer(verb: &Verb, negative: bool, digits: &str, out: &mut String) {
    let sign = if negative {
        "-"
    } else if verb.plus {
        "+"
    } else if verb.space {
        " "
    } else {
        ""
    };
    let prefix = match (verb.sharp, verb.mode) {
        (true, 'b') => "0b",
        (true, 'o') => "0",
        (true, 'x') => "0x",
        (true, 'X') => "0X",
        _ => "",
    };
    let mut zeros = 0;
    if verb.prec >= 0 {
        let prec = verb.prec as usize;
        if digits.len() < prec {
            zeros = prec - digits.len();
        } else if digits == "0" && prec == 0 {
            return;
        }
    }
    let (mut left, mut right) = (0, 0);
    let len = sign.len() + prefix.len() + zeros + digits.len();
    if verb.width >= 0 && (len as i64) < verb.width {
        let d = verb.width as usize - len;
        if verb.minus {
            right = d;
        } else if verb.zero && verb.prec < 0 {
            zeros = d;
        } else {
            left = d;
        }
    }
    let pad = |out: &mut String, c: char, n: usize| {
        if n > 0 {
            out.extend(std::iter::repeat_n(c, n));
        }
    };
    out.reserve(len + left + right);
    pad(out, ' ', left);
    out.push_str(sign);
    out.push_str(prefix);
    pad(out, '0', zeros);
    if verb.mode == 'X' {
        out.extend(digits.chars().map(|c| c.to_ascii_uppercase()));
    } else {
        out.push_str(digits);
    }
    pad(out, ' ', right);
}

/// Go's `big.Float.Format` for `%e %E %f %g %G` with the verb's flags, width and precision.
fn format_float(verb: &Verb, x: &Num) -> String {
    let prec = match (verb.prec, verb.mode) {
        (p, _) if p >= 0 => p,
        (_, 'g' | 'G') => -1,
        _ => 6,
    };
    let text = x.text(verb.mode, prec);
    let (sign, body) = match text.as_bytes().first() {
        Some(b'-') => ("-", &text[1..]),
        Some(b'+') => (if verb.space { " " } else { "+" }, &text[1..]),
        _ if verb.plus => ("+", &text[..]),
        _ if verb.space => (" ", &text[..]),
        _ => ("", &text[..]),
    };
    let used = (sign.len() + body.len()) as i64;
    let padding = if verb.width > used {
        (verb.width - used) as usize
    } else {
        0
    };
    if verb.zero && !x.is_inf() {
        format!("{sign}{}{body}", "0".repeat(padding))
    } else if verb.minus {
        format!("{sign}{body}{}", " ".repeat(padding))
    } else {
        format!("{}{sign}{body}", " ".repeat(padding))
    }
}

/// Go's `%q` of a verb's raw text (printable ASCII), written when displayed.
#[derive(Clone, Copy)]
struct QuotedVerb<'a>(&'a str);

impl std::fmt::Display for QuotedVerb<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\"{}\"", self.0)
    }
}

/// Go's `strconv.QuoteRune` (`%q` of a rune).
fn go_quote_rune(c: char) -> String {
    static PRINTABLE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$").expect("valid pattern")
    });
    let body = match c {
        '\'' => "\\'".to_string(),
        '\\' => "\\\\".to_string(),
        '\u{7}' => "\\a".to_string(),
        '\u{8}' => "\\b".to_string(),
        '\u{c}' => "\\f".to_string(),
        '\n' => "\\n".to_string(),
        '\r' => "\\r".to_string(),
        '\t' => "\\t".to_string(),
        '\u{b}' => "\\v".to_string(),
        c if PRINTABLE.is_match(c.encode_utf8(&mut [0; 4])) => c.to_string(),
        c if (c as u32) < 0x20 || c == '\u{7f}' => format!("\\x{:02x}", c as u32),
        c if (c as u32) < 0x10000 => format!("\\u{:04x}", c as u32),
        c => format!("\\U{:08x}", c as u32),
    };
    format!("'{body}'")
}

/// Why a number is not formatted (see `Num::is_printable`).
fn too_long(n: &crate::eval::num::Num) -> String {
    format!(
        "number {} has more digits than fnhcl's limit of {}",
        n.scientific(),
        crate::eval::num::MAX_PRINTED_DIGITS
    )
}
