//! Go's `fmt.Sprintf` for JSON-like operands (what Kubernetes' unstructured data holds: nil,
//! bool, int64, float64, string, `[]interface{}`, `map[string]interface{}`), as
//! function-patch-and-transform's string Format transform and string combine use it.
//!
//! Verbs `%v %s %d %f %F %g %G %e %E %t %q %x %X %o %O %b %c %U %T %%`, flags `+ - # 0 space`,
//! width and precision (also `*`), Go's float formatting (strconv's shortest digits and exact
//! rounding), slices and maps as `%v` prints them (`[1 2]`, `map[a:1 b:2]`, keys sorted), and
//! Go's error output: `%!d(string=x)` for a bad verb, `%!s(MISSING)`, `%!(EXTRA int64=1)`,
//! `%!(NOVERB)`, `%!(BADWIDTH)`, `%!(BADPREC)`. Explicit argument indexes (`%[1]d`) are read
//! too. `%#v` (Go syntax) prints as `%v`.

use serde_json::Value;

use crate::gostd::strconv::quote;

/// A JSON number as Kubernetes' unstructured data holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GoNumber {
    /// An `int64`: written without fraction or exponent and in range.
    Int(i64),
    /// A `float64`: every other number.
    Float(f64),
}

/// Which Go type a JSON number is in unstructured data.
pub fn go_number(n: &serde_json::Number) -> GoNumber {
    let text = n.to_string();
    if !text.contains(['.', 'e', 'E'])
        && let Some(i) = n.as_i64()
    {
        return GoNumber::Int(i);
    }
    GoNumber::Float(n.as_f64().unwrap_or(f64::NAN))
}

/// Go's `%T` of a JSON-like value.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) => match go_number(n) {
            GoNumber::Int(_) => "int64",
            GoNumber::Float(_) => "float64",
        },
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// Go's `fmt.Sprint`-style `%v` of one value.
pub fn sprint_v(v: &Value) -> String {
    sprintf("%v", std::slice::from_ref(v))
}

#[derive(Default, Clone, Copy)]
struct Flags {
    plus: bool,
    minus: bool,
    sharp: bool,
    zero: bool,
    space: bool,
    width: Option<usize>,
    prec: Option<usize>,
}

/// Go's `fmt.Sprintf(format, args...)`.
pub fn sprintf(format: &str, args: &[Value]) -> String {
    let mut out = String::new();
    let mut arg_num = 0usize;
    let mut reordered = false;
    let chars: Vec<char> = format.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c != '%' {
            out.push(c);
            i += 1;
            continue;
        }
        i += 1;
        let mut f = Flags::default();
        // flags
        while i < chars.len() {
            match chars[i] {
                '+' => f.plus = true,
                '-' => {
                    f.minus = true;
                    f.zero = false;
                }
                '#' => f.sharp = true,
                '0' => f.zero = !f.minus,
                ' ' => f.space = true,
                _ => break,
            }
            i += 1;
        }
        // argument index, width
        let mut bad_index = false;
        parse_index(
            &chars,
            &mut i,
            &mut arg_num,
            &mut reordered,
            &mut bad_index,
            args.len(),
        );
        if i < chars.len() && chars[i] == '*' {
            i += 1;
            match args.get(arg_num).and_then(int_arg) {
                Some(w) => {
                    if w < 0 {
                        f.minus = true;
                        f.zero = false;
                    }
                    f.width = Some(w.unsigned_abs() as usize);
                }
                None => out.push_str("%!(BADWIDTH)"),
            }
            arg_num += 1;
            reordered = false;
        } else {
            let start = i;
            f.width = parse_num(&chars, &mut i);
            if reordered && f.width.is_some() && start < i {
                // Go: a width after an index like %[3]2d is a bad index.
                bad_index = true;
            }
        }
        // precision
        if i < chars.len() && chars[i] == '.' {
            i += 1;
            if reordered {
                bad_index = false;
            }
            parse_index(
                &chars,
                &mut i,
                &mut arg_num,
                &mut reordered,
                &mut bad_index,
                args.len(),
            );
            if i < chars.len() && chars[i] == '*' {
                i += 1;
                match args.get(arg_num).and_then(int_arg) {
                    Some(p) if p >= 0 => f.prec = Some(p as usize),
                    Some(_) => f.prec = None,
                    None => out.push_str("%!(BADPREC)"),
                }
                arg_num += 1;
                reordered = false;
            } else {
                f.prec = Some(parse_num(&chars, &mut i).unwrap_or(0));
            }
        }
        if !reordered {
            parse_index(
                &chars,
                &mut i,
                &mut arg_num,
                &mut reordered,
                &mut bad_index,
                args.len(),
            );
        }
        let Some(&verb) = chars.get(i) else {
            out.push_str("%!(NOVERB)");
            break;
        };
        i += 1;
        if verb == '%' {
            out.push('%');
            continue;
        }
        if bad_index {
            out.push_str(&format!("%!{verb}(BADINDEX)"));
            continue;
        }
        let Some(arg) = args.get(arg_num) else {
            out.push_str(&format!("%!{verb}(MISSING)"));
            continue;
        };
        arg_num += 1;
        if verb == 'w' {
            // Sprintf has no error to wrap: Go prints %!w(type=value).
            out.push_str(&bad_verb(verb, arg));
            continue;
        }
        out.push_str(&format_arg(arg, verb, f));
    }
    if !reordered && arg_num < args.len() {
        out.push_str("%!(EXTRA ");
        let extra: Vec<String> = args[arg_num..]
            .iter()
            .map(|a| {
                if a.is_null() {
                    "<nil>".to_string()
                } else {
                    format!("{}={}", type_name(a), sprint_v(a))
                }
            })
            .collect();
        out.push_str(&extra.join(", "));
        out.push(')');
    }
    out
}

fn parse_num(chars: &[char], i: &mut usize) -> Option<usize> {
    let start = *i;
    let mut n: usize = 0;
    while *i < chars.len() && chars[*i].is_ascii_digit() {
        n = n
            .saturating_mul(10)
            .saturating_add(chars[*i] as usize - '0' as usize);
        *i += 1;
        if n > 1_000_000 {
            return None;
        }
    }
    (*i > start).then_some(n)
}

/// Go's `argNumber`: an explicit `[n]` index, 1-based.
fn parse_index(
    chars: &[char],
    i: &mut usize,
    arg_num: &mut usize,
    reordered: &mut bool,
    bad: &mut bool,
    nargs: usize,
) {
    if *i >= chars.len() || chars[*i] != '[' {
        return;
    }
    *reordered = true;
    let Some(close) = chars[*i..].iter().position(|&c| c == ']') else {
        *bad = true;
        *i = chars.len();
        return;
    };
    let inner: String = chars[*i + 1..*i + close].iter().collect();
    *i += close + 1;
    match inner.parse::<usize>() {
        Ok(n) if n >= 1 && n <= nargs && inner.chars().all(|c| c.is_ascii_digit()) => {
            *arg_num = n - 1
        }
        _ => *bad = true,
    }
}

fn int_arg(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => match go_number(n) {
            GoNumber::Int(i) => Some(i),
            GoNumber::Float(_) => None,
        },
        _ => None,
    }
}

/// `%!verb(type=value)`.
fn bad_verb(verb: char, arg: &Value) -> String {
    if arg.is_null() {
        return format!("%!{verb}(<nil>)");
    }
    format!("%!{verb}({}={})", type_name(arg), sprint_v(arg))
}

fn format_arg(arg: &Value, verb: char, f: Flags) -> String {
    if verb == 'T' {
        return pad_as(type_name(arg), f, true, false);
    }
    match arg {
        Value::Null => match verb {
            'v' => pad_as("<nil>", f, true, false),
            _ => bad_verb(verb, arg),
        },
        Value::Bool(b) => match verb {
            't' | 'v' => pad_as(if *b { "true" } else { "false" }, f, true, false),
            _ => bad_verb(verb, arg),
        },
        Value::Number(n) => match go_number(n) {
            GoNumber::Int(i) => format_int(i, verb, f).unwrap_or_else(|| bad_verb(verb, arg)),
            GoNumber::Float(x) => format_float(x, verb, f).unwrap_or_else(|| bad_verb(verb, arg)),
        },
        Value::String(s) => format_string(s, verb, f).unwrap_or_else(|| bad_verb(verb, arg)),
        Value::Array(items) => {
            let parts: Vec<String> = items
                .iter()
                .map(|v| {
                    if v.is_null() {
                        "<nil>".into()
                    } else {
                        format_arg(v, verb, f)
                    }
                })
                .collect();
            format!("[{}]", parts.join(" "))
        }
        Value::Object(members) => {
            let mut keys: Vec<&String> = members.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .into_iter()
                .map(|k| {
                    let v = &members[k.as_str()];
                    let vs = if v.is_null() {
                        "<nil>".into()
                    } else {
                        format_arg(v, verb, f)
                    };
                    format!("{}:{vs}", format_arg(&Value::String(k.clone()), verb, f))
                })
                .collect();
            format!("map[{}]", parts.join(" "))
        }
    }
}

/// Pads to the width: spaces on the left (right with `-`); with the `0` flag, zeros on the
/// left (after the sign when `number`), except where `zeros` is false (Inf, NaN, an integer
/// with a precision).
fn pad(s: &str, f: Flags, zeros: bool) -> String {
    pad_as(s, f, zeros, zeros)
}

fn pad_as(s: &str, f: Flags, zeros: bool, number: bool) -> String {
    let Some(width) = f.width else {
        return s.to_string();
    };
    let n = s.chars().count();
    if n >= width {
        return s.to_string();
    }
    let fill = width - n;
    if f.minus {
        format!("{s}{}", " ".repeat(fill))
    } else if f.zero && zeros && !number {
        format!("{}{s}", "0".repeat(fill))
    } else if f.zero && zeros {
        let (sign, rest) = match s.chars().next() {
            Some(c @ ('+' | '-' | ' ')) => (c.to_string(), &s[1..]),
            _ => (String::new(), s),
        };
        format!("{sign}{}{rest}", "0".repeat(fill))
    } else {
        format!("{}{s}", " ".repeat(fill))
    }
}

fn format_int(i: i64, verb: char, f: Flags) -> Option<String> {
    let neg = i < 0;
    let u = i.unsigned_abs();
    let (mut digits, prefix) = match verb {
        'd' | 'v' => (u.to_string(), ""),
        'b' => (format!("{u:b}"), ""),
        'o' => (format!("{u:o}"), if f.sharp { "0" } else { "" }),
        'O' => (format!("{u:o}"), "0o"),
        'x' => (format!("{u:x}"), if f.sharp { "0x" } else { "" }),
        'X' => (format!("{u:X}"), if f.sharp { "0X" } else { "" }),
        'c' => {
            let c = char::from_u32(i as u32)
                .filter(|_| (0..=0x10FFFF).contains(&i))
                .unwrap_or('\u{FFFD}');
            return Some(pad(&c.to_string(), f, false));
        }
        'q' => {
            let c = char::from_u32(i as u32)
                .filter(|_| (0..=0x10FFFF).contains(&i))
                .unwrap_or('\u{FFFD}');
            return Some(pad(&quote_rune(c), f, false));
        }
        'U' => {
            let mut s = format!("U+{u:04X}");
            if f.sharp
                && let Some(c) = char::from_u32(i as u32)
                && crate::gostd::strconv::is_print(c)
            {
                s.push_str(&format!(" '{c}'"));
            }
            return Some(pad(&s, f, false));
        }
        _ => return None,
    };
    // Precision is the minimum number of digits (%.0d of zero prints nothing); without one,
    // the 0 flag asks for digits to the width, less the sign (a prefix comes on top, as Go's
    // fmtInteger does: %#08x is 0x000000ff).
    let sign = sign_of(neg, f);
    let min_digits = match (f.prec, f.width) {
        (Some(p), _) => {
            if p == 0 && u == 0 {
                digits.clear();
            }
            p
        }
        (None, Some(w)) if f.zero && !f.minus => w.saturating_sub(sign.len()),
        _ => 0,
    };
    if digits.len() < min_digits {
        digits = format!("{}{digits}", "0".repeat(min_digits - digits.len()));
    }
    // Go's %#o does not double a leading 0.
    let prefix = if verb == 'o' && digits.starts_with('0') {
        ""
    } else {
        prefix
    };
    Some(pad(&format!("{sign}{prefix}{digits}"), f, false))
}

fn sign_of(neg: bool, f: Flags) -> &'static str {
    if neg {
        "-"
    } else if f.plus {
        "+"
    } else if f.space {
        " "
    } else {
        ""
    }
}

fn quote_rune(c: char) -> String {
    match c {
        '\'' => "'\\''".into(),
        '"' => "'\"'".into(),
        _ => {
            let q = quote(&c.to_string());
            format!("'{}'", &q[1..q.len() - 1])
        }
    }
}

/// The shortest decimal digits of a finite `f >= 0` and its decimal point position
/// (`f = 0.d1d2… × 10^dp`); zero gives `("0", 1)`... as Go's `decimal` with `nd = 0`.
fn shortest(f: f64) -> (String, i32) {
    if f == 0.0 {
        return (String::new(), 0);
    }
    let s = format!("{f:e}");
    split_sci(&s)
}

/// `digits` significant digits of `f >= 0`, correctly rounded, trailing zeros trimmed.
fn rounded(f: f64, digits: usize) -> (String, i32) {
    if f == 0.0 {
        return (String::new(), 0);
    }
    let s = format!("{:.*e}", digits.saturating_sub(1), f);
    let (d, dp) = split_sci(&s);
    (d.trim_end_matches('0').to_string(), dp)
}

fn split_sci(s: &str) -> (String, i32) {
    let (mantissa, exp) = s.split_once('e').unwrap_or((s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let digits = digits.trim_end_matches('0').to_string();
    if digits.is_empty() {
        return (String::new(), 0);
    }
    (digits, exp + 1)
}

/// strconv's `%e` from digits: `prec` digits after the point (digits padded with zeros).
fn fmt_e(digits: &str, dp: i32, prec: usize, e: char) -> String {
    let d: Vec<char> = digits.chars().collect();
    let mut out = String::new();
    out.push(d.first().copied().unwrap_or('0'));
    if prec > 0 {
        out.push('.');
        for k in 1..=prec {
            out.push(d.get(k).copied().unwrap_or('0'));
        }
    }
    out.push(e);
    let exp = if d.is_empty() { 0 } else { dp - 1 };
    out.push(if exp < 0 { '-' } else { '+' });
    let a = exp.unsigned_abs();
    if a < 10 {
        out.push('0');
    }
    out.push_str(&a.to_string());
    out
}

/// strconv's `%f` from digits: `prec` digits after the point.
fn fmt_f(digits: &str, dp: i32, prec: usize) -> String {
    let d: Vec<char> = digits.chars().collect();
    let at = |k: i32| -> char {
        if k >= 0 {
            d.get(k as usize).copied().unwrap_or('0')
        } else {
            '0'
        }
    };
    let mut out = String::new();
    if dp > 0 {
        for k in 0..dp {
            out.push(at(k));
        }
    } else {
        out.push('0');
    }
    if prec > 0 {
        out.push('.');
        for k in 0..prec as i32 {
            out.push(at(dp + k));
        }
    }
    out
}

/// Go's `strconv.FormatFloat(f, fmt, prec, 64)` for `fmt` in `e E f g G` (`prec` None is
/// the shortest representation, Go's -1).
pub fn format_float_go(f: f64, fmt: char, prec: Option<usize>) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    let neg = f.is_sign_negative();
    let a = f.abs();
    let body = match fmt {
        'e' | 'E' => {
            let (digits, dp) = match prec {
                None => shortest(a),
                Some(p) => rounded(a, p + 1),
            };
            let p = prec.unwrap_or(digits.len().saturating_sub(1));
            fmt_e(&digits, dp, p, fmt)
        }
        'f' | 'F' => match prec {
            Some(p) => format!("{a:.p$}"),
            None => {
                let (digits, dp) = shortest(a);
                fmt_f(&digits, dp, (digits.len() as i32 - dp).max(0) as usize)
            }
        },
        _ => {
            let e = if fmt == 'G' { 'E' } else { 'e' };
            let (digits, dp, mut p, eprec) = match prec {
                None => {
                    let (d, dp) = shortest(a);
                    let n = d.len();
                    (d, dp, n, 6)
                }
                Some(p) => {
                    let p = p.max(1);
                    let (d, dp) = rounded(a, p);
                    let mut eprec = p;
                    if eprec > d.len() && d.len() as i32 >= dp {
                        eprec = d.len();
                    }
                    (d, dp, p, eprec)
                }
            };
            let nd = digits.len();
            let exp = if nd == 0 { 0 } else { dp - 1 };
            if exp < -4 || exp >= eprec as i32 {
                if p > nd {
                    p = nd;
                }
                fmt_e(&digits, dp, p.saturating_sub(1), e)
            } else {
                if p as i32 > dp {
                    p = nd;
                }
                fmt_f(&digits, dp, (p as i32 - dp).max(0) as usize)
            }
        }
    };
    if neg { format!("-{body}") } else { body }
}

fn format_float(x: f64, verb: char, f: Flags) -> Option<String> {
    let (fmt, prec) = match verb {
        'v' | 'g' => ('g', f.prec),
        'G' => ('G', f.prec),
        'e' | 'E' => (verb, Some(f.prec.unwrap_or(6))),
        'f' | 'F' => ('f', Some(f.prec.unwrap_or(6))),
        _ => return None,
    };
    let mut s = format_float_go(x, fmt, prec);
    if f.sharp && matches!(fmt, 'g' | 'G') && x.is_finite() && !s.contains('.') {
        // %#g keeps a decimal point.
        match s.find(['e', 'E']) {
            Some(at) => s.insert(at, '.'),
            None => s.push('.'),
        }
    }
    if !s.starts_with('-') {
        if f.plus {
            s.insert(0, '+');
        } else if f.space {
            s.insert(0, ' ');
        }
    }
    if x.is_infinite() && x > 0.0 && !f.plus {
        s = if f.space {
            " Inf".into()
        } else {
            "+Inf".into()
        };
    }
    Some(pad(&s, f, x.is_finite()))
}

fn format_string(s: &str, verb: char, f: Flags) -> Option<String> {
    let truncated: String = match f.prec {
        Some(p) => s.chars().take(p).collect(),
        None => s.to_string(),
    };
    let out = match verb {
        'v' | 's' => truncated,
        'q' => {
            if f.sharp
                && !truncated.contains('`')
                && truncated.chars().all(|c| c == '\t' || !c.is_control())
            {
                format!("`{truncated}`")
            } else if f.plus {
                ascii_quote(&truncated)
            } else {
                quote(&truncated)
            }
        }
        'x' | 'X' => {
            let bytes = truncated.as_bytes();
            let mut out = String::new();
            for (k, b) in bytes.iter().enumerate() {
                if k > 0 && f.space {
                    out.push(' ');
                }
                if f.sharp && (k == 0 || f.space) {
                    out.push_str(if verb == 'x' { "0x" } else { "0X" });
                }
                if verb == 'x' {
                    out.push_str(&format!("{b:02x}"));
                } else {
                    out.push_str(&format!("{b:02X}"));
                }
            }
            out
        }
        _ => return None,
    };
    Some(pad_as(&out, f, true, false))
}

/// `%+q`: `strconv.QuoteToASCII`.
fn ascii_quote(s: &str) -> String {
    let q = quote(s);
    let mut out = String::new();
    for c in q.chars() {
        if c.is_ascii() {
            out.push(c);
        } else if (c as u32) < 0x10000 {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push_str(&format!("\\U{:08x}", c as u32));
        }
    }
    out
}

#[cfg(test)]
mod tests;
