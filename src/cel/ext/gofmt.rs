//! Go's text renderings the extension libraries' outputs and messages depend on: `%g`
//! and `%.Nf` of floats, `strconv.Quote`, `%v` of CEL values, and cel-go's string
//! conversions of timestamps, durations, doubles and types.

use crate::cel::types::Type;
use crate::cel::value::{Duration, Key, Timestamp, Value};
use std::fmt::Write as _;

/// The shortest decimal digits of a finite, non-negative `f` and its decimal exponent
/// (`f = 0.d1d2… × 10^(exp)`, Go's `decimal.dp`); zero gives `("0", 1)`.
fn shortest_digits(f: f64) -> (String, i32) {
    // Rust's `{:e}` prints the shortest round-trip digits, as Go's strconv does
    let s = format!("{:e}", f);
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    (digits, exp + 1)
}

/// Go's `%g` (shortest) of a float, as `fmt.Sprintf("%g", f)` and `%v` print it:
/// `2.71`, `2e-09`, `1e+06`, `+Inf`, `-Inf`, `NaN`.
pub fn go_g(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    let neg = f.is_sign_negative();
    let (digits, dp) = shortest_digits(f.abs());
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    let exp = dp - 1;
    // strconv's %g with the shortest precision switches to %e below 1e-4 and from 1e6 on
    if !(-4..6).contains(&exp) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let _ = write!(out, "{:02}", exp.unsigned_abs());
        return out;
    }
    if dp <= 0 {
        out.push_str("0.");
        for _ in 0..(-dp) {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        let dp = dp as usize;
        if digits.len() <= dp {
            out.push_str(&digits);
            for _ in digits.len()..dp {
                out.push('0');
            }
        } else {
            out.push_str(&digits[..dp]);
            out.push('.');
            out.push_str(&digits[dp..]);
        }
    }
    out
}

/// Go's `fmt.Sprintf("%.Nf", f)`: exact decimal rounding, `+Inf`, `-Inf`, `NaN`.
pub fn go_fixed(f: f64, prec: usize) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    // Rust and Go both round the exact binary value half to even
    format!("{:.*}", prec, f)
}

/// Whether Go's `strconv.IsPrint` holds.
pub fn is_print(c: char) -> bool {
    crate::gostd::strconv::is_print(c)
}

/// Go's `strconv.Quote` (what `%q` prints for a string).
pub fn go_quote(s: &str) -> String {
    crate::gostd::strconv::quote(s)
}

/// cel-go's `string(timestamp)`: RFC 3339 with nanoseconds, trailing zeros trimmed, at the
/// timestamp's offset (`Z` for UTC).
pub fn timestamp_string(ts: &Timestamp) -> String {
    crate::cel::stdlib::time::format_rfc3339(*ts)
}

/// cel-go's `string(duration)`: the seconds as Go's shortest `%f` of a float, then `s`.
pub fn duration_string(d: &Duration) -> String {
    // Go's Duration.Seconds(): whole seconds plus the remaining nanoseconds / 1e9
    let secs = d.nanos / 1_000_000_000;
    let nanos = d.nanos % 1_000_000_000;
    let f = secs as f64 + nanos as f64 / 1e9;
    // Rust's Display of a float is the shortest round-trip digits in plain notation,
    // as Go's FormatFloat(f, 'f', -1, 64)
    format!("{f}s")
}

/// The runtime type's name as cel-go's `TypeName()` gives it (`int`, `list`, `map`,
/// `google.protobuf.Duration`, `optional_type`, `kubernetes.URL`).
pub fn type_name(v: &Value) -> String {
    match v {
        Value::List(_) => "list".into(),
        Value::Map(_) => "map".into(),
        Value::Optional(_) => crate::cel::types::OPTIONAL.into(),
        Value::Type(_) => "type".into(),
        Value::Opaque(o) => o.type_name().to_string(),
        other => other.type_of().to_string(),
    }
}

/// A type's name as a type value converts to a string (`string(type(1)) == "int"`).
pub fn type_value_name(t: &Type) -> String {
    match t {
        Type::List(_) => "list".into(),
        Type::Map(_, _) => "map".into(),
        Type::Type(_) => "type".into(),
        Type::Opaque(name, _) => name.to_string(),
        other => other.to_string(),
    }
}

fn go_v_key(k: &Key) -> String {
    go_v(&Value::from(k.clone()))
}

/// Go's `%v` of a CEL value, as cel-go's error messages print values.
pub fn go_v(v: &Value) -> String {
    match v {
        // cel-go's Null is a named int32 without a String method
        Value::Null => "0".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Double(d) => go_g(*d),
        Value::String(s) => s.to_string(),
        Value::Bytes(b) => {
            let parts: Vec<String> = b.iter().map(|x| x.to_string()).collect();
            format!("[{}]", parts.join(" "))
        }
        Value::Timestamp(ts) => {
            // Go's time.Time.String() in UTC
            let s = timestamp_string(ts);
            let s = s.trim_end_matches('Z').replacen('T', " ", 1);
            format!("{s} +0000 UTC")
        }
        Value::Duration(d) => go_duration_string(d.nanos),
        Value::List(l) => {
            let parts: Vec<String> = l.items.iter().map(go_v).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Map(m) => {
            let parts: Vec<String> = m
                .entries
                .iter()
                .map(|(k, v)| format!("{}: {}", go_v_key(k), go_v(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Type(t) => type_value_name(t),
        Value::Optional(None) => "optional.none()".into(),
        Value::Optional(Some(x)) => format!("optional({})", go_v(x)),
        Value::Opaque(o) => format!("{o:?}"),
    }
}

/// Go's `time.Duration.String()` (`1h2m3.5s`, `2ns`, `0s`).
pub fn go_duration_string(nanos: i64) -> String {
    if nanos == 0 {
        return "0s".into();
    }
    let neg = nanos < 0;
    let u = nanos.unsigned_abs();
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if u < 1_000_000_000 {
        // below a second: the largest unit that keeps a leading non-zero digit
        let (unit, div) = if u < 1_000 {
            ("ns", 1u64)
        } else if u < 1_000_000 {
            ("\u{b5}s", 1_000)
        } else {
            ("ms", 1_000_000)
        };
        out.push_str(&frac_string(u, div));
        out.push_str(unit);
        return out;
    }
    let secs = u / 1_000_000_000;
    let frac = u % 1_000_000_000;
    let h = secs / 3600;
    let m = (secs % 3600) / 60;
    let s = secs % 60;
    if h > 0 {
        let _ = write!(out, "{h}h");
    }
    if h > 0 || m > 0 {
        let _ = write!(out, "{m}m");
    }
    out.push_str(&frac_string(s * 1_000_000_000 + frac, 1_000_000_000));
    out.push('s');
    out
}

/// `v / div` with the fraction's trailing zeros trimmed.
fn frac_string(v: u64, div: u64) -> String {
    let whole = v / div;
    let rem = v % div;
    if rem == 0 {
        return whole.to_string();
    }
    let width = (div as f64).log10().round() as usize;
    let frac = format!("{:0width$}", rem, width = width);
    format!("{whole}.{}", frac.trim_end_matches('0'))
}
