//! Built-in functions: the number family (cty v1.17's stdlib functions, as function-hcl
//! registers them): abs ceil floor log max min parseint pow signum.
//!
//! Also the conversions cty's `gocty.FromCtyValue` makes into Go numbers (`int`, `float64`,
//! `*big.Int`) with their messages, which the network functions use too.

mod gomath;

use super::{Function, FunctionError, FunctionTable, Param};
use crate::eval::num::Num;
use crate::eval::types::Type;
use crate::eval::value::Value;
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Zero};
use std::cmp::Ordering;

/// gocty's message for a number that is not a whole number in `int`'s range.
pub(super) const INT_RANGE: &str =
    "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

/// gocty's conversion to a Go `int` (64 bits).
pub(super) fn go_int(n: &Num) -> Result<i64, String> {
    if n.is_int() {
        if let Some(v) = n.to_i64() {
            return Ok(v);
        }
        // -2^63 fits an int64 although its magnitude does not.
        if n.compare(&Num::from_i64(i64::MIN)) == Ordering::Equal {
            return Ok(i64::MIN);
        }
    }
    Err(INT_RANGE.to_string())
}

/// gocty's conversion to a Go `float64`: rounded to nearest, but a finite number too large for
/// a float64 is an error rather than an infinity.
pub(super) fn go_float(n: &Num) -> Result<f64, String> {
    let f = n.to_f64();
    if f.is_infinite() && !n.is_inf() {
        let max = ((BigUint::one() << 53u32) - 1u32) << 971u32;
        return Err(format!(
            "value must be between -{max}.000000 and {max}.000000 inclusive"
        ));
    }
    Ok(f)
}

/// gocty's conversion to a Go `*big.Int`: exact, or "value must be a whole number".
pub(super) fn go_big_int(n: &Num) -> Result<BigInt, String> {
    n.to_bigint()
        .ok_or_else(|| "value must be a whole number".to_string())
}

/// `cty.NumberFloatVal`: a 53-bit number, or the panic Go's `SetFloat64` raises for NaN.
fn float_val(f: f64) -> Result<Value, FunctionError> {
    Num::from_f64(f).map(Value::Number).ok_or_else(|| {
        FunctionError::other("panic in function implementation: Float.SetFloat64(NaN)")
    })
}

fn num_arg(args: &[Value], i: usize) -> Result<&Num, FunctionError> {
    super::args::number(args, i)
}

/// Positive zero at the precision of `like` (Go's `SetInt(0)` has no sign).
fn unsigned_zero(n: Num) -> Num {
    if n.is_zero() { n.abs() } else { n }
}

/// Go's `big.Float.Int` followed by the ceil/floor adjustment and `SetInt` at the same
/// precision.
fn round_whole(n: &Num, up: bool) -> Result<Value, FunctionError> {
    if n.is_inf() {
        return Ok(Value::Number(n.clone()));
    }
    let truncated = n.trunc();
    let one = Num::from_i64(1);
    let adjusted = match (truncated.compare(n), up) {
        (Ordering::Less, true) => truncated.add(&one),
        (Ordering::Greater, false) => truncated.sub(&one),
        _ => Ok(truncated),
    }
    .map_err(|e| FunctionError::other(e.to_string()))?;
    Ok(Value::Number(unsigned_zero(adjusted.set_prec(n.prec()))))
}

fn number_param(name: &'static str) -> Param {
    Param::new(name, Type::Number)
}

/// Registers this family's functions.
pub(super) fn register(table: &mut FunctionTable) {
    table.insert(Function::new(
        "abs",
        vec![number_param("num").dynamic_ok()],
        None,
        Type::Number,
        |args, _| Ok(Value::Number(num_arg(args, 0)?.abs())),
    ));
    table.insert(Function::new(
        "ceil",
        vec![number_param("num")],
        None,
        Type::Number,
        |args, _| round_whole(num_arg(args, 0)?, true),
    ));
    table.insert(Function::new(
        "floor",
        vec![number_param("num")],
        None,
        Type::Number,
        |args, _| round_whole(num_arg(args, 0)?, false),
    ));
    table.insert(Function::new(
        "log",
        vec![number_param("num"), number_param("base")],
        None,
        Type::Number,
        |args, _| {
            let num = go_float(num_arg(args, 0)?).map_err(FunctionError::other)?;
            let base = go_float(num_arg(args, 1)?).map_err(FunctionError::other)?;
            float_val(gomath::log(num) / gomath::log(base))
        },
    ));
    table.insert(Function::new(
        "pow",
        vec![number_param("num"), number_param("power")],
        None,
        Type::Number,
        |args, _| {
            let num = go_float(num_arg(args, 0)?).map_err(FunctionError::other)?;
            let power = go_float(num_arg(args, 1)?).map_err(FunctionError::other)?;
            float_val(gomath::pow(num, power))
        },
    ));
    table.insert(Function::new(
        "signum",
        vec![number_param("num")],
        None,
        Type::Number,
        |args, _| {
            let n = go_int(num_arg(args, 0)?).map_err(FunctionError::other)?;
            Ok(Value::Number(Num::from_i64(n.signum())))
        },
    ));
    for (name, want_min) in [("min", true), ("max", false)] {
        table.insert(Function::new(
            name,
            Vec::new(),
            Some(number_param("numbers").dynamic_ok()),
            Type::Number,
            move |args, _| {
                if args.is_empty() {
                    return Err(FunctionError::other("must pass at least one number"));
                }
                let mut best = Num::inf(!want_min);
                for i in 0..args.len() {
                    let n = num_arg(args, i)?;
                    let better = if want_min {
                        Ordering::Less
                    } else {
                        Ordering::Greater
                    };
                    if n.compare(&best) == better {
                        best = n.clone();
                    }
                }
                Ok(Value::Number(best))
            },
        ));
    }
    table.insert(Function::with_type_fn(
        "parseint",
        vec![Param::new("number", Type::Dynamic), number_param("base")],
        None,
        |args| match args.first().map(Value::ty) {
            Some(Type::String) => Ok(Type::Number),
            other => Err(FunctionError::arg(
                0,
                format!(
                    "first argument must be a string, not {}",
                    other.unwrap_or(Type::Dynamic).friendly_name()
                ),
            )),
        },
        |args, _| parse_int(args),
    ));
}

fn parse_int(args: &[Value]) -> Result<Value, FunctionError> {
    let text = super::args::string(args, 0)?;
    let base = go_int(num_arg(args, 1)?).map_err(|e| FunctionError::arg(1, e))?;
    if !(2..=62).contains(&base) {
        return Err(FunctionError::arg(
            1,
            "base must be a whole number between 2 and 62 inclusive",
        ));
    }
    match big_int_from_str(text, base as u32) {
        Some(i) => Ok(Value::Number(Num::from_bigint(&i))),
        None => Err(FunctionError::arg(
            0,
            format!(
                "cannot parse {} as a base {base} integer",
                super::conversion::go_quote(text)
            ),
        )),
    }
}

/// Go's `big.Int.SetString(s, base)` for a base of 2 to 62: an optional sign, then digits
/// only (no prefix, no underscores); for bases above 36 upper-case letters are 36–61.
fn big_int_from_str(s: &str, base: u32) -> Option<BigInt> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return None;
    }
    let mut value = BigUint::zero();
    for c in digits.bytes() {
        let d = match c {
            b'0'..=b'9' => u32::from(c - b'0'),
            b'a'..=b'z' => u32::from(c - b'a') + 10,
            b'A'..=b'Z' if base <= 36 => u32::from(c - b'A') + 10,
            b'A'..=b'Z' => u32::from(c - b'A') + 36,
            _ => return None,
        };
        if d >= base {
            return None;
        }
        value = value * base + d;
    }
    Some(BigInt::from_biguint(
        if neg { Sign::Minus } else { Sign::Plus },
        value,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Num {
        Num::parse(s).unwrap()
    }

    #[test]
    fn parses_integers_like_go() {
        let p = |s, b| big_int_from_str(s, b).map(|i| i.to_string());
        assert_eq!(p("-00FF00", 16).as_deref(), Some("-65280"));
        assert_eq!(p("aA", 62).as_deref(), Some("656"));
        assert_eq!(p("Aa", 62).as_deref(), Some("2242"));
        assert_eq!(p("zz", 36).as_deref(), Some("1295"));
        assert_eq!(p("ZZ", 36).as_deref(), Some("1295"));
        assert_eq!(p("+5", 10).as_deref(), Some("5"));
        assert_eq!(p("-0", 10).as_deref(), Some("0"));
        for bad in ["", "-", "+", "0x10", " 1", "1_000", "1.2", "--1", "2"] {
            assert_eq!(p(bad, 2), None, "{bad:?}");
        }
    }

    #[test]
    fn big_integers_round_trip() {
        for text in [
            "0",
            "-1",
            "12345678901234567890",
            "-340282366920938463463374607431768211455",
            &format!("1{}", "0".repeat(300)),
        ] {
            let i: BigInt = text.parse().unwrap();
            let num = Num::from_bigint(&i);
            assert_eq!(num.to_bigint().unwrap(), i, "{text}");
        }
        assert_eq!(Num::from_bigint(&BigInt::from(255)).prec(), 64);
        assert_eq!(Num::from_bigint(&(BigInt::one() << 100u32)).prec(), 101);
        // 1e400 is a 512-bit float: its exact integer is not 10^400.
        let big = n("1e400").to_bigint().unwrap();
        assert_ne!(big.to_string(), format!("1{}", "0".repeat(400)));
        assert_eq!(big.to_string().len(), 401);
        assert_eq!(n("0.5").to_bigint(), None);
    }

    #[test]
    fn go_conversions() {
        assert_eq!(go_int(&n("-0.5")), Err(INT_RANGE.into()));
        assert_eq!(go_int(&n("9223372036854775808")), Err(INT_RANGE.into()));
        assert_eq!(go_int(&n("-9223372036854775808")), Ok(i64::MIN));
        let err = go_float(&n("1e400")).unwrap_err();
        assert!(err.starts_with("value must be between -17976931348623157081452742373"));
        assert!(err.ends_with("8.000000 inclusive"));
        assert_eq!(go_float(&Num::inf(true)), Ok(f64::NEG_INFINITY));
    }

    #[test]
    fn ceil_and_floor_keep_precision_and_drop_the_sign_of_zero() {
        let ceil = |s: &str| match round_whole(&n(s), true).unwrap() {
            Value::Number(x) => x.to_string(),
            _ => unreachable!(),
        };
        let floor = |s: &str| match round_whole(&n(s), false).unwrap() {
            Value::Number(x) => x.to_string(),
            _ => unreachable!(),
        };
        assert_eq!(ceil("-0.5"), "0");
        assert_eq!(ceil("5.1"), "6");
        assert_eq!(ceil("-5.1"), "-5");
        assert_eq!(floor("-0.5"), "-1");
        assert_eq!(floor("-0"), "0");
        assert_eq!(floor("12345678901234567890.5"), "12345678901234567890");
    }
}
