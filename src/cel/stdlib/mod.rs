//! cel-go v0.26's standard library (`common/stdlib/standard.go`): every function and overload
//! with cel-go's overload ids, signatures and semantics (checked arithmetic, cross-type numeric
//! comparisons, conversions, timestamps and durations), with cel-go's error messages.
//!
//! The logical operators, the ternary and `@not_strictly_false` are declared without an
//! implementation: the interpreter evaluates them itself (they are not strict).

#[cfg(test)]
mod tests;
pub mod time;

use super::env::Function;
use super::types::Type;
use super::value::{Duration, Error, Key, List, ListKind, Map, Timestamp, Value};
use std::cmp::Ordering;
use std::sync::Arc;

fn a() -> Type {
    Type::param("A")
}

fn b() -> Type {
    Type::param("B")
}

fn list_a() -> Type {
    Type::list(a())
}

fn map_ab() -> Type {
    Type::map(a(), b())
}

fn nso() -> Error {
    Error::no_such_overload()
}

/// cel-go's `type conversion error from 'FROM' to 'TO'`.
pub fn conversion_error(from: &Type, to: &Type) -> Error {
    Error::new(format!("type conversion error from '{from}' to '{to}'"))
}

/// An operator, its overload ids' prefix and the orderings it accepts.
type Relation = (&'static str, &'static str, fn(Ordering) -> bool);

/// An accessor's name, overload ids without and with a time zone, and what it reads.
type Accessor = (
    &'static str,
    &'static str,
    &'static str,
    fn(&time::Civil) -> i64,
);

/// The standard library's functions.
pub fn functions() -> Vec<Function> {
    use Type::{Bool, Bytes, Double, Duration as Dur, Int, String as Str, Timestamp as Ts, Uint};
    let mut fns = vec![
        // Non-strict operators, evaluated by the interpreter.
        Function::new("_?_:_").declared("conditional", false, vec![Bool, a(), a()], a()),
        Function::new("_&&_").declared("logical_and", false, vec![Bool, Bool], Bool),
        Function::new("_||_").declared("logical_or", false, vec![Bool, Bool], Bool),
        Function::new("@not_strictly_false").declared(
            "not_strictly_false",
            false,
            vec![Bool],
            Bool,
        ),
        Function::new("!_").global("logical_not", vec![Bool], Bool, |args| match args {
            [Value::Bool(b)] => Ok(Value::Bool(!b)),
            _ => Err(nso()),
        }),
        Function::new("_==_").global("equals", vec![a(), a()], Bool, |args| match args {
            [x, y] => equal(x, y).map(Value::Bool),
            _ => Err(nso()),
        }),
        Function::new("_!=_").global("not_equals", vec![a(), a()], Bool, |args| match args {
            [x, y] => equal(x, y).map(|b| Value::Bool(!b)),
            _ => Err(nso()),
        }),
        Function::new("_+_")
            .global("add_bytes", vec![Bytes, Bytes], Bytes, add)
            .global("add_double", vec![Double, Double], Double, add)
            .global("add_duration_duration", vec![Dur, Dur], Dur, add)
            .global("add_duration_timestamp", vec![Dur, Ts], Ts, add)
            .global("add_timestamp_duration", vec![Ts, Dur], Ts, add)
            .global("add_int64", vec![Int, Int], Int, add)
            .global("add_list", vec![list_a(), list_a()], list_a(), add)
            .global("add_string", vec![Str, Str], Str, add)
            .global("add_uint64", vec![Uint, Uint], Uint, add),
        Function::new("_/_")
            .global("divide_double", vec![Double, Double], Double, divide)
            .global("divide_int64", vec![Int, Int], Int, divide)
            .global("divide_uint64", vec![Uint, Uint], Uint, divide),
        Function::new("_%_")
            .global("modulo_int64", vec![Int, Int], Int, modulo)
            .global("modulo_uint64", vec![Uint, Uint], Uint, modulo),
        Function::new("_*_")
            .global("multiply_double", vec![Double, Double], Double, multiply)
            .global("multiply_int64", vec![Int, Int], Int, multiply)
            .global("multiply_uint64", vec![Uint, Uint], Uint, multiply),
        Function::new("-_")
            .global("negate_double", vec![Double], Double, negate)
            .global("negate_int64", vec![Int], Int, negate),
        Function::new("_-_")
            .global("subtract_double", vec![Double, Double], Double, subtract)
            .global("subtract_duration_duration", vec![Dur, Dur], Dur, subtract)
            .global("subtract_int64", vec![Int, Int], Int, subtract)
            .global("subtract_timestamp_duration", vec![Ts, Dur], Ts, subtract)
            .global("subtract_timestamp_timestamp", vec![Ts, Ts], Dur, subtract)
            .global("subtract_uint64", vec![Uint, Uint], Uint, subtract),
    ];
    // Relations: the same overload set for each operator, cross-type numeric ones included.
    let relations: [Relation; 4] = [
        ("_<_", "less", Ordering::is_lt),
        ("_<=_", "less_equals", Ordering::is_le),
        ("_>_", "greater", Ordering::is_gt),
        ("_>=_", "greater_equals", Ordering::is_ge),
    ];
    let pairs = [
        ("bool", Bool, Bool),
        ("int64", Int, Int),
        ("int64_double", Int, Double),
        ("int64_uint64", Int, Uint),
        ("uint64", Uint, Uint),
        ("uint64_double", Uint, Double),
        ("uint64_int64", Uint, Int),
        ("double", Double, Double),
        ("double_int64", Double, Int),
        ("double_uint64", Double, Uint),
        ("string", Str, Str),
        ("bytes", Bytes, Bytes),
        ("timestamp", Ts, Ts),
        ("duration", Dur, Dur),
    ];
    for (name, prefix, test) in relations {
        let mut f = Function::new(name);
        for (suffix, l, r) in &pairs {
            f = f.global(
                &format!("{prefix}_{suffix}"),
                vec![l.clone(), r.clone()],
                Bool,
                move |args| match args {
                    [x, y] => Ok(Value::Bool(test(compare(x, y)?))),
                    _ => Err(nso()),
                },
            );
        }
        fns.push(f);
    }
    fns.extend([
        Function::new("_[_]")
            .global("index_list", vec![list_a(), Int], a(), index)
            .global("index_map", vec![map_ab(), a()], b(), index),
        Function::new("@in")
            .global("in_list", vec![a(), list_a()], Bool, contains_value)
            .global("in_map", vec![a(), map_ab()], Bool, contains_value),
        Function::new("size")
            .global("size_bytes", vec![Bytes], Int, size)
            .member("bytes_size", vec![Bytes], Int, size)
            .global("size_list", vec![list_a()], Int, size)
            .member("list_size", vec![list_a()], Int, size)
            .global("size_map", vec![map_ab()], Int, size)
            .member("map_size", vec![map_ab()], Int, size)
            .global("size_string", vec![Str], Int, size)
            .member("string_size", vec![Str], Int, size),
        Function::new("type").global("type", vec![a()], Type::type_of(a()), |args| match args {
            [v] => Ok(Value::Type(v.type_of())),
            _ => Err(nso()),
        }),
        Function::new("bool")
            .global("bool_to_bool", vec![Bool], Bool, identity)
            .global("string_to_bool", vec![Str], Bool, convert(Bool)),
        Function::new("bytes")
            .global("bytes_to_bytes", vec![Bytes], Bytes, identity)
            .global("string_to_bytes", vec![Str], Bytes, convert(Bytes)),
        Function::new("double")
            .global("double_to_double", vec![Double], Double, identity)
            .global("int64_to_double", vec![Int], Double, convert(Double))
            .global("string_to_double", vec![Str], Double, convert(Double))
            .global("uint64_to_double", vec![Uint], Double, convert(Double)),
        Function::new("duration")
            .global("duration_to_duration", vec![Dur], Dur, identity)
            .global("int64_to_duration", vec![Int], Dur, convert(Dur))
            .global("string_to_duration", vec![Str], Dur, convert(Dur)),
        Function::new("dyn").global("to_dyn", vec![a()], Type::Dyn, identity),
        Function::new("int")
            .global("int64_to_int64", vec![Int], Int, identity)
            .global("double_to_int64", vec![Double], Int, convert(Int))
            .global("duration_to_int64", vec![Dur], Int, convert(Int))
            .global("string_to_int64", vec![Str], Int, convert(Int))
            .global("timestamp_to_int64", vec![Ts], Int, convert(Int))
            .global("uint64_to_int64", vec![Uint], Int, convert(Int)),
        Function::new("string")
            .global("string_to_string", vec![Str], Str, identity)
            .global("bool_to_string", vec![Bool], Str, convert(Str))
            .global("bytes_to_string", vec![Bytes], Str, convert(Str))
            .global("double_to_string", vec![Double], Str, convert(Str))
            .global("duration_to_string", vec![Dur], Str, convert(Str))
            .global("int64_to_string", vec![Int], Str, convert(Str))
            .global("timestamp_to_string", vec![Ts], Str, convert(Str))
            .global("uint64_to_string", vec![Uint], Str, convert(Str)),
        Function::new("timestamp")
            .global("timestamp_to_timestamp", vec![Ts], Ts, identity)
            .global("int64_to_timestamp", vec![Int], Ts, convert(Ts))
            .global("string_to_timestamp", vec![Str], Ts, convert(Ts)),
        Function::new("uint")
            .global("uint64_to_uint64", vec![Uint], Uint, identity)
            .global("double_to_uint64", vec![Double], Uint, convert(Uint))
            .global("int64_to_uint64", vec![Int], Uint, convert(Uint))
            .global("string_to_uint64", vec![Str], Uint, convert(Uint)),
        Function::new("contains").member(
            "contains_string",
            vec![Str, Str],
            Bool,
            |args| match args {
                [Value::String(s), Value::String(t)] => Ok(Value::Bool(s.contains(&**t))),
                _ => Err(nso()),
            },
        ),
        Function::new("endsWith").member(
            "ends_with_string",
            vec![Str, Str],
            Bool,
            |args| match args {
                [Value::String(s), Value::String(t)] => Ok(Value::Bool(s.ends_with(&**t))),
                _ => Err(nso()),
            },
        ),
        Function::new("startsWith").member("starts_with_string", vec![Str, Str], Bool, |args| {
            match args {
                [Value::String(s), Value::String(t)] => Ok(Value::Bool(s.starts_with(&**t))),
                _ => Err(nso()),
            }
        }),
        Function::new("matches")
            .global("matches", vec![Str, Str], Bool, matches)
            .member("matches_string", vec![Str, Str], Bool, matches),
    ]);
    // Timestamp accessors, with and without a time zone, and the duration ones.
    let accessors: [Accessor; 10] = [
        (
            "getFullYear",
            "timestamp_to_year",
            "timestamp_to_year_with_tz",
            |c| c.year,
        ),
        (
            "getMonth",
            "timestamp_to_month",
            "timestamp_to_month_with_tz",
            |c| c.month - 1,
        ),
        (
            "getDayOfYear",
            "timestamp_to_day_of_year",
            "timestamp_to_day_of_year_with_tz",
            |c| c.yday - 1,
        ),
        (
            "getDayOfMonth",
            "timestamp_to_day_of_month",
            "timestamp_to_day_of_month_with_tz",
            |c| c.day - 1,
        ),
        (
            "getDate",
            "timestamp_to_day_of_month_1_based",
            "timestamp_to_day_of_month_1_based_with_tz",
            |c| c.day,
        ),
        (
            "getDayOfWeek",
            "timestamp_to_day_of_week",
            "timestamp_to_day_of_week_with_tz",
            |c| c.weekday,
        ),
        (
            "getHours",
            "timestamp_to_hours",
            "timestamp_to_hours_with_tz",
            |c| c.hour,
        ),
        (
            "getMinutes",
            "timestamp_to_minutes",
            "timestamp_to_minutes_with_tz",
            |c| c.minute,
        ),
        (
            "getSeconds",
            "timestamp_to_seconds",
            "timestamp_to_seconds_tz",
            |c| c.second,
        ),
        (
            "getMilliseconds",
            "timestamp_to_milliseconds",
            "timestamp_to_milliseconds_with_tz",
            |c| c.nanos / 1_000_000,
        ),
    ];
    for (name, id, id_tz, get) in accessors {
        let mut f = Function::new(name)
            .member(id, vec![Ts], Int, move |args| match args {
                [Value::Timestamp(t)] => Ok(Value::Int(get(&time::civil(*t, 0)))),
                _ => Err(nso()),
            })
            .member(id_tz, vec![Ts, Str], Int, move |args| match args {
                [Value::Timestamp(t), Value::String(tz)] => {
                    let offset = time::zone_offset(*t, tz)?;
                    Ok(Value::Int(get(&time::civil(*t, offset))))
                }
                _ => Err(nso()),
            });
        let unit = match name {
            "getHours" => Some(("duration_to_hours", "hours")),
            "getMinutes" => Some(("duration_to_minutes", "minutes")),
            "getSeconds" => Some(("duration_to_seconds", "seconds")),
            "getMilliseconds" => Some(("duration_to_milliseconds", "millis")),
            _ => None,
        };
        if let Some((did, unit)) = unit {
            f = f.member(did, vec![Dur], Int, move |args| match args {
                [Value::Duration(d)] => Ok(Value::Int(time::duration_part(*d, unit))),
                _ => Err(nso()),
            });
        }
        fns.push(f);
    }
    fns
}

/// `==`: cel-go's equality, except that a library type on the left may refuse the right
/// operand with an error (Kubernetes' types do, [`super::value::Opaque::equal_error`]).
fn equal(x: &Value, y: &Value) -> Result<bool, Error> {
    if let Value::Opaque(o) = x
        && let Some(e) = o.equal_error(y)
    {
        return Err(e);
    }
    Ok(x.equals(y))
}

fn identity(args: &[Value]) -> Result<Value, Error> {
    args.first().cloned().ok_or_else(nso)
}

fn convert(to: Type) -> impl Fn(&[Value]) -> Result<Value, Error> + Send + Sync + 'static {
    move |args| match args {
        [v] => convert_to(v, &to),
        _ => Err(nso()),
    }
}

/// cel-go's `ConvertToType` for the standard conversions.
pub fn convert_to(v: &Value, to: &Type) -> Result<Value, Error> {
    let fail = || Err(conversion_error(&runtime_type(v), to));
    match (v, to) {
        (Value::Int(i), Type::Uint) => u64::try_from(*i)
            .map(Value::Uint)
            .map_err(|_| Error::new("unsigned integer overflow")),
        (Value::Int(i), Type::Double) => Ok(Value::Double(*i as f64)),
        (Value::Int(i), Type::String) => Ok(Value::String(i.to_string().into())),
        (Value::Int(i), Type::Timestamp) => {
            if !(time::MIN_UNIX..=time::MAX_UNIX).contains(i) {
                return Err(time::timestamp_overflow());
            }
            Ok(Value::Timestamp(Timestamp::new(*i, 0)))
        }
        (Value::Uint(u), Type::Int) => i64::try_from(*u)
            .map(Value::Int)
            .map_err(|_| time::int_overflow()),
        (Value::Uint(u), Type::Double) => Ok(Value::Double(*u as f64)),
        (Value::Uint(u), Type::String) => Ok(Value::String(u.to_string().into())),
        (Value::Double(d), Type::Int) => {
            if d.is_nan() || *d <= i64::MIN as f64 || *d >= i64::MAX as f64 {
                return Err(time::int_overflow());
            }
            Ok(Value::Int(*d as i64))
        }
        (Value::Double(d), Type::Uint) => {
            if d.is_nan() || *d < 0.0 || *d >= 18_446_744_073_709_551_616.0 {
                return Err(Error::new("unsigned integer overflow"));
            }
            Ok(Value::Uint(*d as u64))
        }
        (Value::Double(d), Type::String) => Ok(Value::String(format_double(*d).into())),
        (Value::Bool(b), Type::String) => Ok(Value::String(b.to_string().into())),
        (Value::Bytes(b), Type::String) => match std::str::from_utf8(b) {
            Ok(s) => Ok(Value::String(s.into())),
            Err(_) => Err(Error::new(
                "invalid UTF-8 in bytes, cannot convert to string",
            )),
        },
        (Value::Timestamp(t), Type::String) => Ok(Value::String(time::format_rfc3339(*t).into())),
        (Value::Timestamp(t), Type::Int) => Ok(Value::Int(t.secs)),
        (Value::Duration(d), Type::String) => Ok(Value::String(time::format_duration(*d).into())),
        (Value::Duration(d), Type::Int) => Ok(Value::Int(d.nanos)),
        (Value::String(s), Type::Int) => parse_int(s).map(Value::Int).map_or_else(fail, Ok),
        (Value::String(s), Type::Uint) => {
            // Go's ParseUint takes no sign
            if s.starts_with('+') {
                return fail();
            }
            s.parse::<u64>().map(Value::Uint).or_else(|_| fail())
        }
        (Value::String(s), Type::Double) => {
            parse_double(s).map(Value::Double).map_or_else(fail, Ok)
        }
        (Value::String(s), Type::Bool) => match &**s {
            "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(Value::Bool(true)),
            "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(Value::Bool(false)),
            _ => fail(),
        },
        (Value::String(s), Type::Bytes) => Ok(Value::Bytes(s.as_bytes().into())),
        (Value::String(s), Type::Duration) => match time::parse_duration(s) {
            Some(d) => Ok(Value::Duration(d)),
            None => fail(),
        },
        (Value::String(s), Type::Timestamp) => match time::parse_rfc3339(s) {
            Some(r) => r.map(Value::Timestamp),
            None => fail(),
        },
        (Value::Type(_), Type::Type(_)) => Ok(Value::Type(v.type_of())),
        _ if same_kind(v, to) => Ok(v.clone()),
        _ => fail(),
    }
}

fn same_kind(v: &Value, t: &Type) -> bool {
    matches!(
        (v, t),
        (Value::Bool(_), Type::Bool)
            | (Value::Int(_), Type::Int)
            | (Value::Uint(_), Type::Uint)
            | (Value::Double(_), Type::Double)
            | (Value::String(_), Type::String)
            | (Value::Bytes(_), Type::Bytes)
            | (Value::Timestamp(_), Type::Timestamp)
            | (Value::Duration(_), Type::Duration)
    )
}

/// The type cel-go names a value by in conversion errors (`list(dyn)`, `map(dyn, dyn)`).
pub fn runtime_type(v: &Value) -> Type {
    v.type_of()
}

/// The name cel-go's runtime gives a value's type (`TypeName()`): `int`, `list`, `map`,
/// `google.protobuf.Timestamp`, an object's or opaque type's name.
pub fn runtime_type_name(v: &Value) -> String {
    type_name(&v.type_of())
}

/// A type's runtime name, without parameters.
pub fn type_name(t: &Type) -> String {
    super::value::type_runtime_name(t).into_owned()
}

/// Go's `strconv.ParseInt(s, 10, 64)`.
fn parse_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Go's `strconv.ParseFloat(s, 64)` for decimal input (with `inf`, `infinity` and `nan` in
/// any case); out-of-range values are errors as in Go.
fn parse_double(s: &str) -> Option<f64> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let lower = body.to_ascii_lowercase();
    if lower == "nan" {
        // Go takes no sign before NaN
        return (body.len() == s.len()).then_some(f64::NAN);
    }
    if lower == "inf" || lower == "infinity" {
        return Some(if s.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    if lower.starts_with("0x") || body.contains('_') {
        return parse_hex_float(s);
    }
    let ok = body
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'));
    if !ok {
        return None;
    }
    let v: f64 = s.parse().ok()?;
    v.is_finite().then_some(v)
}

/// Go's hexadecimal floats (`0x1p-2`) and underscores after a base prefix: rare in rules;
/// accepted only in the simple `0x<hex>[.<hex>]p<exp>` form.
fn parse_hex_float(s: &str) -> Option<f64> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let body = body
        .strip_prefix("0x")
        .or_else(|| body.strip_prefix("0X"))?;
    let body = body.replace('_', "");
    let (mant, exp) = body.split_once(['p', 'P'])?;
    let exp: i32 = exp.parse().ok()?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut v = 0f64;
    for c in int.chars() {
        v = v * 16.0 + f64::from(c.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for c in frac.chars() {
        v += f64::from(c.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    let v = v * 2f64.powi(exp);
    v.is_finite().then_some(if neg { -v } else { v })
}

/// Go's `strconv.FormatFloat(d, 'g', -1, 64)`, how cel-go's `string(double)` formats.
pub fn format_double(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    if d == 0.0 {
        return if d.is_sign_negative() { "-0" } else { "0" }.into();
    }
    // Rust's `{:e}` gives the shortest round-tripping digits, as Go's shortest mode does
    let sci = format!("{:e}", d.abs());
    let Some((mant, exp)) = sci.split_once('e') else {
        return sci;
    };
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let exp: i64 = exp.parse().unwrap_or(0);
    let nd = digits.len() as i64;
    let dp = exp + 1;
    let mut out = String::new();
    if d < 0.0 {
        out.push('-');
    }
    // Go's %g in shortest mode: exponent form below 1e-4 and from 1e+06 on
    if !(-4..6).contains(&exp) {
        out.push_str(&digits[..1]);
        if nd > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", exp.abs()));
        return out;
    }
    if dp <= 0 {
        out.push_str("0.");
        for _ in 0..-dp {
            out.push('0');
        }
        out.push_str(&digits);
    } else if dp >= nd {
        out.push_str(&digits);
        for _ in 0..dp - nd {
            out.push('0');
        }
    } else {
        out.push_str(&digits[..dp as usize]);
        out.push('.');
        out.push_str(&digits[dp as usize..]);
    }
    out
}

fn add(args: &[Value]) -> Result<Value, Error> {
    use Value::*;
    match args {
        [Int(x), Int(y)] => x.checked_add(*y).map(Int).ok_or_else(time::int_overflow),
        [Uint(x), Uint(y)] => x
            .checked_add(*y)
            .map(Uint)
            .ok_or_else(|| Error::new("unsigned integer overflow")),
        [Double(x), Double(y)] => Ok(Double(x + y)),
        [String(x), String(y)] => {
            let mut s = std::string::String::with_capacity(x.len() + y.len());
            s.push_str(x);
            s.push_str(y);
            Ok(String(s.into()))
        }
        [Bytes(x), Bytes(y)] => Ok(Bytes([&x[..], &y[..]].concat().into())),
        [List(x), List(y)] => Ok(List(Arc::new(concat_lists(x, y)))),
        [Duration(x), Duration(y)] => x
            .nanos
            .checked_add(y.nanos)
            .map(|nanos| Duration(super::value::Duration { nanos }))
            .ok_or_else(time::int_overflow),
        [Timestamp(t), Duration(d)] | [Duration(d), Timestamp(t)] => {
            time::add(*t, *d).map(Timestamp)
        }
        _ => Err(nso()),
    }
}

/// `+` on lists, as the API server's lists do it: a `set` list on the left appends the
/// elements it lacks, a `map` list on the left replaces elements with the same keys and
/// appends the others, anything else concatenates.
pub fn concat_lists(x: &List, y: &List) -> List {
    match &x.kind {
        ListKind::Plain => {
            let mut items = Vec::with_capacity(x.items.len() + y.items.len());
            items.extend(x.items.iter().cloned());
            items.extend(y.items.iter().cloned());
            List {
                items,
                kind: ListKind::Plain,
            }
        }
        ListKind::Set => {
            let mut items = x.items.clone();
            for v in &y.items {
                if !items.iter().any(|w| strictly_equal(v, w)) {
                    items.push(v.clone());
                }
            }
            List {
                items,
                kind: ListKind::Set,
            }
        }
        ListKind::Map(keys) => {
            let mut items = x.items.clone();
            let original = items.len();
            for v in &y.items {
                // only `x`'s elements are replaced: new keys are appended even if repeated
                match items[..original]
                    .iter()
                    .position(|w| super::value::same_list_map_keys(keys, w, v))
                {
                    Some(i) => items[i] = v.clone(),
                    None => items.push(v.clone()),
                }
            }
            List {
                items,
                kind: x.kind.clone(),
            }
        }
    }
}

/// Go's `==` on the decoded JSON values the API server keeps in set and map lists: the same
/// kind and the same value (an integer never equals a float).
fn strictly_equal(a: &Value, b: &Value) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b) && a.equals(b)
}

fn subtract(args: &[Value]) -> Result<Value, Error> {
    use Value::*;
    match args {
        [Int(x), Int(y)] => x.checked_sub(*y).map(Int).ok_or_else(time::int_overflow),
        [Uint(x), Uint(y)] => x
            .checked_sub(*y)
            .map(Uint)
            .ok_or_else(|| Error::new("unsigned integer overflow")),
        [Double(x), Double(y)] => Ok(Double(x - y)),
        [Duration(x), Duration(y)] => x
            .nanos
            .checked_sub(y.nanos)
            .map(|nanos| Duration(super::value::Duration { nanos }))
            .ok_or_else(time::int_overflow),
        [Timestamp(t), Duration(d)] => time::sub(*t, *d).map(Timestamp),
        [Timestamp(a), Timestamp(b)] => time::diff(*a, *b).map(Duration),
        _ => Err(nso()),
    }
}

fn multiply(args: &[Value]) -> Result<Value, Error> {
    use Value::*;
    match args {
        [Int(x), Int(y)] => x.checked_mul(*y).map(Int).ok_or_else(time::int_overflow),
        [Uint(x), Uint(y)] => x
            .checked_mul(*y)
            .map(Uint)
            .ok_or_else(|| Error::new("unsigned integer overflow")),
        [Double(x), Double(y)] => Ok(Double(x * y)),
        _ => Err(nso()),
    }
}

fn divide(args: &[Value]) -> Result<Value, Error> {
    use Value::*;
    match args {
        [Int(_), Int(0)] | [Uint(_), Uint(0)] => Err(Error::new("division by zero")),
        [Int(x), Int(y)] => x.checked_div(*y).map(Int).ok_or_else(time::int_overflow),
        [Uint(x), Uint(y)] => Ok(Uint(x / y)),
        [Double(x), Double(y)] => Ok(Double(x / y)),
        _ => Err(nso()),
    }
}

fn modulo(args: &[Value]) -> Result<Value, Error> {
    use Value::*;
    match args {
        [Int(_), Int(0)] | [Uint(_), Uint(0)] => Err(Error::new("modulus by zero")),
        [Int(x), Int(y)] => x.checked_rem(*y).map(Int).ok_or_else(time::int_overflow),
        [Uint(x), Uint(y)] => Ok(Uint(x % y)),
        _ => Err(nso()),
    }
}

fn negate(args: &[Value]) -> Result<Value, Error> {
    match args {
        [Value::Int(x)] => x
            .checked_neg()
            .map(Value::Int)
            .ok_or_else(time::int_overflow),
        [Value::Double(x)] => Ok(Value::Double(-x)),
        [Value::Duration(d)] => d
            .nanos
            .checked_neg()
            .map(|nanos| Value::Duration(Duration { nanos }))
            .ok_or_else(time::int_overflow),
        _ => Err(nso()),
    }
}

/// cel-go's `Compare`: NaN cannot be ordered; other mismatches have no overload.
pub fn compare(x: &Value, y: &Value) -> Result<Ordering, Error> {
    if let Some(o) = x.compare(y) {
        return Ok(o);
    }
    let nan = |v: &Value| matches!(v, Value::Double(d) if d.is_nan());
    let numeric = |v: &Value| matches!(v, Value::Int(_) | Value::Uint(_) | Value::Double(_));
    if numeric(x) && numeric(y) && (nan(x) || nan(y)) {
        return Err(Error::new("NaN values cannot be ordered"));
    }
    Err(nso())
}

/// Finds a map entry by a key value, numbers matching across int, uint and double as in
/// cel-go's maps.
pub fn map_find<'m>(m: &'m Map, key: &Value) -> Option<&'m Value> {
    let k = match key {
        Value::Double(d) => {
            let d = *d;
            if d.fract() == 0.0 && d > i64::MIN as f64 && d < i64::MAX as f64 {
                Key::Int(d as i64)
            } else if d.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&d) {
                Key::Uint(d as u64)
            } else {
                return None;
            }
        }
        other => other.as_key()?,
    };
    super::value::lookup(&m.entries, &k)
}

/// Go's `%v` of a CEL value, as resolution errors show keys and indices.
pub fn display(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Double(d) => format_double(*d),
        Value::String(s) => s.to_string(),
        Value::Bytes(b) => format!("{b:?}"),
        Value::Timestamp(t) => time::format_rfc3339(*t),
        Value::Duration(d) => time::format_duration(*d),
        Value::Type(t) => t.to_string(),
        Value::List(l) => {
            let items: Vec<String> = l.items.iter().map(display).collect();
            format!("[{}]", items.join(" "))
        }
        Value::Map(m) => {
            let items: Vec<String> = m
                .entries
                .iter()
                .map(|(k, v)| format!("{}:{}", display(&Value::from(k.clone())), display(v)))
                .collect();
            format!("map[{}]", items.join(" "))
        }
        Value::Optional(None) => "optional.none()".into(),
        Value::Optional(Some(v)) => format!("optional.of({})", display(v)),
        Value::Opaque(o) => format!("{o:?}"),
    }
}

/// The list index a value denotes, cel-go's `IndexOrError`.
pub fn list_index(idx: &Value) -> Result<i64, Error> {
    match idx {
        Value::Int(i) => Ok(*i),
        Value::Uint(u) => i64::try_from(*u)
            .map_err(|_| Error::new(format!("unsupported index value {} in list", display(idx)))),
        Value::Double(d) => {
            let d = *d;
            if d.is_finite() && d > i64::MIN as f64 && d < i64::MAX as f64 && d.fract() == 0.0 {
                Ok(d as i64)
            } else {
                Err(Error::new(format!(
                    "unsupported index value {} in list",
                    display(idx)
                )))
            }
        }
        other => Err(Error::new(format!(
            "unsupported index type '{}' in list",
            other.type_of()
        ))),
    }
}

/// `container[index]` as cel-go resolves it: `index out of bounds: N`, `no such key: K`.
pub fn index(args: &[Value]) -> Result<Value, Error> {
    let [container, idx] = args else {
        return Err(nso());
    };
    match container {
        Value::List(l) => {
            let i = list_index(idx)?;
            usize::try_from(i)
                .ok()
                .and_then(|i| l.items.get(i))
                .cloned()
                .ok_or_else(|| Error::new(format!("index out of bounds: {}", display(idx))))
        }
        Value::Map(m) => map_find(m, idx)
            .cloned()
            .ok_or_else(|| Error::new(format!("no such key: {}", display(idx)))),
        _ => Err(Error::new(format!("no such key: {}", display(idx)))),
    }
}

fn contains_value(args: &[Value]) -> Result<Value, Error> {
    match args {
        [v, Value::List(l)] => Ok(Value::Bool(l.items.iter().any(|x| v.equals(x)))),
        [v, Value::Map(m)] => Ok(Value::Bool(map_find(m, v).is_some())),
        _ => Err(nso()),
    }
}

fn size(args: &[Value]) -> Result<Value, Error> {
    let n = match args {
        [Value::String(s)] => s.chars().count(),
        [Value::Bytes(b)] => b.len(),
        [Value::List(l)] => l.items.len(),
        [Value::Map(m)] => m.entries.len(),
        _ => return Err(nso()),
    };
    Ok(Value::Int(i64::try_from(n).unwrap_or(i64::MAX)))
}

fn matches(args: &[Value]) -> Result<Value, Error> {
    match args {
        [Value::String(s), Value::String(p)] => {
            let re = crate::re2::compile(p).map_err(|e| {
                Error::new(format!("error parsing regexp: {}: `{}`", e.code, e.expr))
            })?;
            Ok(Value::Bool(re.regex.is_match(s)))
        }
        _ => Err(nso()),
    }
}
