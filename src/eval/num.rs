//! `Num`: cty's number, a binary big float with a precision per value (512 bits for parsed
//! numbers), rounded half to even, with ±Inf — and Go's `big.Float` algorithms for parsing and
//! for printing the shortest decimal (`Text('f', -1)`), reproduced step by step.
//!
//! Go's `big.Float` takes the larger operand precision for a result; numbers parsed from source
//! or JSON have 512 bits, integers made by functions 64. We keep the precision with the value so
//! results print exactly as cty prints them.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;

mod text;

/// The precision cty parses numbers with.
pub const PREC: u32 = 512;

/// About how many decimal digits fnhcl writes a number with, at most (see
/// [`Num::is_printable`]): a hundred thousand, far beyond any real value. Go takes 2.5 s to
/// print `1e100000` and 77 s for `1e1000000`.
pub const MAX_PRINTED_DIGITS: u64 = 100_000;

/// [`MAX_PRINTED_DIGITS`] in bits of magnitude or of fraction.
const MAX_PRINTED_BITS: u64 = MAX_PRINTED_DIGITS * 3322 / 1000 + 600;

/// An operation that has no numeric result (Go's `big.ErrNaN`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NanError(pub &'static str);

impl fmt::Display for NanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A cty number.
#[derive(Clone, Debug)]
pub struct Num {
    neg: bool,
    kind: Kind,
    prec: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// `mant × 2^exp`; `mant` is odd, or zero for zero.
    Finite {
        mant: Mant,
        exp: i64,
    },
    Inf,
}

/// A finite number's mantissa: a machine word whenever it fits one (every literal up to
/// 2^64 and most results), a big integer only beyond. Building, copying and dropping a word
/// allocates nothing, as Go keeps a literal's value in the tree; each value holds the one
/// form its size calls for, so the derived equality compares like with like.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Mant {
    Word(u64),
    Big(BigUint),
}

impl Mant {
    fn from_big(big: BigUint) -> Mant {
        match big.to_u64() {
            Some(word) => Mant::Word(word),
            None => Mant::Big(big),
        }
    }

    fn is_zero(&self) -> bool {
        match self {
            Mant::Word(w) => *w == 0,
            Mant::Big(b) => b.is_zero(),
        }
    }

    fn bits(&self) -> u64 {
        match self {
            Mant::Word(w) => u64::from(u64::BITS - w.leading_zeros()),
            Mant::Big(b) => b.bits(),
        }
    }

    fn to_u64(&self) -> Option<u64> {
        match self {
            Mant::Word(w) => Some(*w),
            Mant::Big(b) => b.to_u64(),
        }
    }

    fn to_u128(&self) -> Option<u128> {
        match self {
            Mant::Word(w) => Some(u128::from(*w)),
            Mant::Big(b) => b.to_u128(),
        }
    }

    /// The mantissa as a big integer, for the arithmetic (built only for a word).
    fn big(&self) -> std::borrow::Cow<'_, BigUint> {
        match self {
            Mant::Word(w) => std::borrow::Cow::Owned(BigUint::from(*w)),
            Mant::Big(b) => std::borrow::Cow::Borrowed(b),
        }
    }
}

/// An exact, unrounded value: `(-1)^neg × mant × 2^exp`.
struct Raw {
    neg: bool,
    mant: BigUint,
    exp: i64,
}

impl Num {
    /// Zero at 512 bits.
    pub fn zero() -> Num {
        Num::signed_zero(false, PREC)
    }

    /// ±Inf.
    pub fn inf(neg: bool) -> Num {
        Num {
            neg,
            kind: Kind::Inf,
            prec: PREC,
        }
    }

    /// An integer at 64 bits, as `cty.NumberIntVal`.
    pub fn from_i64(v: i64) -> Num {
        Num::from_u64_exact(v < 0, v.unsigned_abs(), 64)
    }

    /// `(-1)^neg × v` at `prec` bits (at least 64, so nothing is rounded): [`Num::round`]'s
    /// result, normalised on the machine word before the big integer is built.
    fn from_u64_exact(neg: bool, v: u64, prec: u32) -> Num {
        debug_assert!(prec >= 64);
        let tz = if v == 0 { 0 } else { v.trailing_zeros() };
        Num {
            neg,
            kind: Kind::Finite {
                mant: Mant::Word(v >> tz),
                exp: i64::from(tz),
            },
            prec,
        }
    }

    /// A float at 53 bits, as `cty.NumberFloatVal` (NaN is not a number: `None`).
    pub fn from_f64(v: f64) -> Option<Num> {
        if v.is_nan() {
            return None;
        }
        if v.is_infinite() {
            return Some(Num::inf(v < 0.0));
        }
        let bits = v.to_bits();
        let neg = bits >> 63 == 1;
        let exp_bits = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1 << 52) - 1);
        let (mant, exp) = if exp_bits == 0 {
            (frac, -1074)
        } else {
            (frac | (1 << 52), exp_bits - 1075)
        };
        Some(Num::round(
            Raw {
                neg,
                mant: BigUint::from(mant),
                exp,
            },
            53,
        ))
    }

    /// The precision in bits.
    pub fn prec(&self) -> u32 {
        self.prec
    }

    /// Whether this is ±Inf.
    pub fn is_inf(&self) -> bool {
        self.kind == Kind::Inf
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        matches!(&self.kind, Kind::Finite { mant, .. } if mant.is_zero())
    }

    /// Whether the sign bit is set (also for -0).
    pub fn is_neg(&self) -> bool {
        self.neg
    }

    /// Whether the value is a whole number (infinities are not).
    pub fn is_int(&self) -> bool {
        match &self.kind {
            Kind::Finite { mant, exp } => mant.is_zero() || *exp >= 0,
            Kind::Inf => false,
        }
    }

    /// Rounds an exact value to `prec` bits, half to even (Go's `ToNearestEven`).
    fn round(raw: Raw, prec: u32) -> Num {
        Num::round_sticky(raw, prec, false)
    }

    /// As [`Num::round`], where `sticky` says nonzero bits were dropped below `mant`.
    fn round_sticky(raw: Raw, prec: u32, sticky: bool) -> Num {
        let Raw {
            neg,
            mut mant,
            mut exp,
        } = raw;
        if mant.is_zero() {
            return Num::signed_zero(neg, prec);
        }
        let bits = mant.bits();
        if bits > u64::from(prec) {
            let shift = bits - u64::from(prec);
            let rest = &mant & ((BigUint::one() << shift) - 1u32);
            mant >>= shift;
            exp += shift as i64;
            let half = BigUint::one() << (shift - 1);
            let up = match rest.cmp(&half) {
                Ordering::Greater => true,
                Ordering::Less => false,
                Ordering::Equal => sticky || mant.is_odd(),
            };
            if up {
                mant += 1u32;
                if mant.bits() > u64::from(prec) {
                    mant >>= 1;
                    exp += 1;
                }
            }
        }
        let tz = mant.trailing_zeros().unwrap_or(0);
        mant >>= tz;
        exp += tz as i64;
        // Go's exponent is an int32 (`x = 0.mant × 2^exp`): beyond it a result overflows to
        // ±Inf and underflows to ±0, as `big.Float.setExpAndRound` does.
        let go_exp = exp + mant.bits() as i64;
        if go_exp > i64::from(i32::MAX) {
            return Num {
                neg,
                kind: Kind::Inf,
                prec,
            };
        }
        if go_exp < i64::from(i32::MIN) {
            return Num::signed_zero(neg, prec);
        }
        Num {
            neg,
            kind: Kind::Finite {
                mant: Mant::from_big(mant),
                exp,
            },
            prec,
        }
    }

    /// Zero with a sign, at `prec` bits.
    fn signed_zero(neg: bool, prec: u32) -> Num {
        Num {
            neg,
            kind: Kind::Finite {
                mant: Mant::Word(0),
                exp: 0,
            },
            prec,
        }
    }

    /// Whether the number's exact decimal text is at most [`MAX_PRINTED_DIGITS`] long (about),
    /// so that fnhcl writes it. Go writes any number, taking minutes for a million digits and
    /// hours beyond; fnhcl refuses to turn larger ones into strings or JSON
    /// (docs/compatibility.md) and shows them in scientific notation elsewhere.
    pub fn is_printable(&self) -> bool {
        match &self.kind {
            Kind::Finite { mant, exp } => exp.unsigned_abs() + mant.bits() <= MAX_PRINTED_BITS,
            Kind::Inf => true,
        }
    }

    /// The number in scientific notation with up to 17 significant digits (`1.5e+1000000`),
    /// computed without the exact decimal expansion: what fnhcl shows of a number too long to
    /// print (see [`Num::is_printable`]).
    pub fn scientific(&self) -> String {
        let Kind::Finite { mant, exp } = &self.kind else {
            return self.to_string();
        };
        let sign = if self.neg { "-" } else { "" };
        if mant.is_zero() {
            return format!("{sign}0e+00");
        }
        let top = *exp + mant.bits() as i64;
        let e10 = ((top - 1) as f64 * std::f64::consts::LOG10_2).floor() as i64;
        // y = |x| / 10^e10 = |x| × 2^-e10 / 5^e10, a number near [1, 10).
        let scaled = Raw {
            neg: false,
            mant: mant.big().into_owned(),
            exp: *exp - e10,
        };
        let Some(p) = pow5(e10.unsigned_abs(), 128).raw() else {
            return format!("{sign}1e{e10:+}");
        };
        let y = if e10 >= 0 {
            quo_raw(scaled, p, 128)
        } else {
            mul_raw(scaled, p, 128)
        };
        let text = format!("{:e}", y.to_f64());
        let (digits, e) = text.split_once('e').unwrap_or((&text, "0"));
        let e = e.parse::<i64>().unwrap_or(0) + e10;
        format!(
            "{sign}{digits}e{}{:02}",
            if e < 0 { '-' } else { '+' },
            e.abs()
        )
    }

    fn raw(&self) -> Option<Raw> {
        match &self.kind {
            Kind::Finite { mant, exp } => Some(Raw {
                neg: self.neg,
                mant: mant.big().into_owned(),
                exp: *exp,
            }),
            Kind::Inf => None,
        }
    }

    /// Parses a decimal literal (`1`, `-2.5`, `1e400`, `.5` is not accepted) at 512 bits, as
    /// `cty.ParseNumberVal` (Go's `big.Float.Parse`, base 10) does.
    pub fn parse(text: &str) -> Option<Num> {
        let (neg, body) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        // Most literals are small integers: read them straight into the mantissa, with the
        // same rounding as below, instead of going through text and a big-integer parse.
        if !body.is_empty() && body.len() <= 19 {
            // Nineteen digits stay below 2^64: read in one pass, no overflow to check.
            let mut digits: u64 = 0;
            let all_digits = body.bytes().all(|b| {
                digits = digits * 10 + u64::from(b.wrapping_sub(b'0'));
                b.is_ascii_digit()
            });
            if all_digits {
                return Some(Num::from_u64_exact(neg, digits, PREC));
            }
        }
        if body == "Inf" || body == "inf" {
            return Some(Num::inf(neg));
        }
        let (mantissa, exponent) = match body.find(['e', 'E']) {
            Some(i) => (&body[..i], body[i + 1..].parse::<i64>().ok()?),
            None => (body, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if int.is_empty() && frac.is_empty()
            || !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit())
        {
            return None;
        }
        if exponent.unsigned_abs() > 1 << 31 {
            return None;
        }
        let digits: BigUint = format!("{int}{frac}").parse().ok()?;
        let exp10 = exponent - frac.len() as i64;
        let exact = Raw {
            neg,
            mant: digits,
            exp: exp10,
        };
        if exact.mant.is_zero() || exp10 == 0 {
            return Some(Num::round(Raw { exp: 0, ..exact }, PREC));
        }
        // Go splits 10^e into 2^e × 5^e, applies 2^e exactly and 5^e with a power computed at
        // 64 more bits, then rounds once.
        let pow5 = pow5(exp10.unsigned_abs(), PREC + 64);
        let scaled = Raw {
            neg,
            mant: exact.mant,
            exp: exp10,
        };
        let Some(p) = pow5.raw() else {
            // 5^e overflowed: a huge exponent is ±Inf, a tiny one ±0, as in Go.
            return Some(if exp10 > 0 {
                Num::inf(neg)
            } else {
                Num { neg, ..Num::zero() }
            });
        };
        Some(if exp10 > 0 {
            mul_raw(scaled, p, PREC)
        } else {
            quo_raw(scaled, p, PREC)
        })
    }

    fn result_prec(&self, other: &Num) -> u32 {
        self.prec.max(other.prec)
    }

    /// `self + other`.
    pub fn add(&self, other: &Num) -> Result<Num, NanError> {
        let prec = self.result_prec(other);
        match (self.raw(), other.raw()) {
            (None, None) if self.neg != other.neg => {
                Err(NanError("addition of infinities with opposite signs"))
            }
            (None, _) => Ok(Num {
                prec,
                ..self.clone()
            }),
            (_, None) => Ok(Num {
                prec,
                ..other.clone()
            }),
            (Some(a), Some(b)) => Ok(add_raw(a, b, prec)),
        }
    }

    /// `self - other`.
    pub fn sub(&self, other: &Num) -> Result<Num, NanError> {
        self.add(&other.neg())
            .map_err(|_| NanError("subtraction of infinities with equal signs"))
    }

    /// `-self`.
    pub fn neg(&self) -> Num {
        Num {
            neg: !self.neg,
            ..self.clone()
        }
    }

    /// `|self|`.
    pub fn abs(&self) -> Num {
        Num {
            neg: false,
            ..self.clone()
        }
    }

    /// `self × other`.
    pub fn mul(&self, other: &Num) -> Result<Num, NanError> {
        let prec = self.result_prec(other);
        let neg = self.neg != other.neg;
        match (self.raw(), other.raw()) {
            (Some(a), Some(b)) => Ok(mul_raw(a, b, prec)),
            _ if self.is_zero() || other.is_zero() => {
                Err(NanError("multiplication of zero with infinity"))
            }
            _ => Ok(Num {
                neg,
                kind: Kind::Inf,
                prec,
            }),
        }
    }

    /// `self ÷ other`.
    pub fn div(&self, other: &Num) -> Result<Num, NanError> {
        let prec = self.result_prec(other);
        let neg = self.neg != other.neg;
        match (self.raw(), other.raw()) {
            (None, None) => Err(NanError("division of infinity by infinity")),
            (None, Some(_)) => Ok(Num {
                neg,
                kind: Kind::Inf,
                prec,
            }),
            (Some(_), None) => Ok(Num::signed_zero(neg, prec)),
            (Some(a), Some(b)) if b.mant.is_zero() => {
                if a.mant.is_zero() {
                    Err(NanError("division of zero by zero"))
                } else {
                    Ok(Num {
                        neg,
                        kind: Kind::Inf,
                        prec,
                    })
                }
            }
            (Some(a), Some(b)) => Ok(quo_raw(a, b, prec)),
        }
    }

    /// Compares two numbers (-0 equals 0).
    pub fn compare(&self, other: &Num) -> Ordering {
        let sign = |n: &Num| {
            if n.is_zero() {
                0
            } else if n.neg {
                -1
            } else {
                1
            }
        };
        let (sa, sb) = (sign(self), sign(other));
        if sa != sb {
            return sa.cmp(&sb);
        }
        let magnitude = match (&self.kind, &other.kind) {
            (Kind::Inf, Kind::Inf) => Ordering::Equal,
            (Kind::Inf, _) => Ordering::Greater,
            (_, Kind::Inf) => Ordering::Less,
            (Kind::Finite { mant: ma, exp: ea }, Kind::Finite { mant: mb, exp: eb }) => {
                match (ma, mb) {
                    // Equal exponents (as for any two whole numbers below 2^64 that are
                    // both odd or both even at the same power) compare the words.
                    (Mant::Word(a), Mant::Word(b)) if ea == eb => a.cmp(b),
                    _ => {
                        let e = (*ea).min(*eb);
                        let a = &*ma.big() << (ea - e) as u64;
                        let b = &*mb.big() << (eb - e) as u64;
                        a.cmp(&b)
                    }
                }
            }
        };
        if sa < 0 {
            magnitude.reverse()
        } else {
            magnitude
        }
    }

    /// cty's number equality: whole numbers compare exactly, others by their shortest text.
    pub fn cty_equal(&self, other: &Num) -> bool {
        let sign = |n: &Num| {
            if n.is_zero() {
                0
            } else if n.neg {
                -1
            } else {
                1
            }
        };
        if sign(self) != sign(other) {
            return false;
        }
        if self.is_int() && other.is_int() {
            return self.compare(other) == Ordering::Equal;
        }
        self.to_string() == other.to_string()
    }

    /// The nearest `f64` (half to even), ±Inf beyond its range, as Go's `Float64()`.
    pub fn to_f64(&self) -> f64 {
        let sign = if self.neg { -1.0 } else { 1.0 };
        let Kind::Finite { mant, exp } = &self.kind else {
            return sign * f64::INFINITY;
        };
        if mant.is_zero() {
            return sign * 0.0;
        }
        // The value's top bit is 2^top; f64 keeps 53 bits, fewer below 2^-1022 (subnormal).
        let top = mant.bits() as i64 - 1 + exp;
        if top > 1023 {
            return sign * f64::INFINITY;
        }
        let keep = if top >= -1022 { 53 } else { top + 1075 };
        if keep <= 0 {
            // Below half the smallest subnormal: zero; above it: the smallest subnormal.
            let half_min = Num::round(
                Raw {
                    neg: false,
                    mant: BigUint::one(),
                    exp: -1075,
                },
                2,
            );
            let above = self.abs().compare(&half_min) == Ordering::Greater;
            return sign * if above { f64::from_bits(1) } else { 0.0 };
        }
        let rounded = Num::round(
            Raw {
                neg: false,
                mant: mant.big().into_owned(),
                exp: *exp,
            },
            keep as u32,
        );
        let Kind::Finite { mant, exp } = rounded.kind else {
            return sign * f64::INFINITY;
        };
        if mant.bits() as i64 - 1 + exp > 1023 {
            return sign * f64::INFINITY;
        }
        // mant has at most 53 bits, so it converts exactly; scale in steps that stay exact.
        let mut v = mant.to_u64().map_or(f64::INFINITY, |w| w as f64);
        let mut e = exp;
        while e != 0 {
            let step = e.clamp(-1000, 1000);
            v *= 2f64.powi(step as i32);
            e -= step;
        }
        sign * v
    }

    /// The value as an `i64` when it is a whole number in range.
    pub fn to_i64(&self) -> Option<i64> {
        let Kind::Finite { mant, exp } = &self.kind else {
            return None;
        };
        if mant.is_zero() {
            return Some(0);
        }
        if *exp < 0 {
            return None;
        }
        // A magnitude below 2^63 has a mantissa that fits a word and a shift that keeps it
        // there: no big integer is built.
        let word = mant.to_u64()?;
        if *exp >= 63 || i64::from(word.leading_zeros()) <= *exp {
            return None;
        }
        let magnitude = i64::try_from(word << *exp).ok()?;
        Some(if self.neg { -magnitude } else { magnitude })
    }

    /// Go's `SetPrec` (for `prec > 0`): rounds to `prec` bits, half to even, and keeps that
    /// precision for later operations and printing.
    pub fn set_prec(&self, prec: u32) -> Num {
        match self.raw() {
            Some(raw) => Num::round(raw, prec),
            None => Num {
                prec,
                ..self.clone()
            },
        }
    }

    /// Go's `MinPrec`: the fewest bits that represent the value exactly (0 for zero and ±Inf).
    pub fn min_prec(&self) -> u32 {
        match &self.kind {
            Kind::Finite { mant, .. } if !mant.is_zero() => mant.bits() as u32,
            _ => 0,
        }
    }

    /// Truncates toward zero (Go's `big.Float.Int`), for whole-number operations.
    pub fn trunc(&self) -> Num {
        match &self.kind {
            Kind::Finite { mant, exp } if *exp < 0 => {
                let whole = &*mant.big() >> (-*exp) as u64;
                Num::round(
                    Raw {
                        neg: self.neg,
                        mant: whole,
                        exp: 0,
                    },
                    self.prec,
                )
            }
            _ => self.clone(),
        }
    }
}

fn align(a: &Raw, b: &Raw) -> (BigUint, BigUint, i64) {
    let e = a.exp.min(b.exp);
    (
        &a.mant << (a.exp - e) as u64,
        &b.mant << (b.exp - e) as u64,
        e,
    )
}

fn add_raw(a: Raw, b: Raw, prec: u32) -> Num {
    let (ma, mb, exp) = align(&a, &b);
    let (neg, mant) = if a.neg == b.neg {
        (a.neg, ma + mb)
    } else if ma >= mb {
        (a.neg, ma - mb)
    } else {
        (b.neg, mb - ma)
    };
    // An exact zero from x - x is +0 under ToNearestEven, as in Go.
    let neg = if mant.is_zero() { a.neg && b.neg } else { neg };
    Num::round(Raw { neg, mant, exp }, prec)
}

fn mul_raw(a: Raw, b: Raw, prec: u32) -> Num {
    Num::round(
        Raw {
            neg: a.neg != b.neg,
            mant: a.mant * b.mant,
            exp: a.exp + b.exp,
        },
        prec,
    )
}

fn quo_raw(a: Raw, b: Raw, prec: u32) -> Num {
    let neg = a.neg != b.neg;
    if a.mant.is_zero() {
        return Num::signed_zero(neg, prec);
    }
    // Scale the dividend so the quotient has prec + 2 bits at least; the remainder is sticky.
    let shift = (u64::from(prec) + 2 + b.mant.bits()).saturating_sub(a.mant.bits());
    let (q, r) = (&a.mant << shift).div_rem(&b.mant);
    let raw = Raw {
        neg,
        mant: q,
        exp: a.exp - b.exp - shift as i64,
    };
    Num::round_sticky(raw, prec, !r.is_zero())
}

/// Go's `Float.pow5` at precision `prec`: exact up to 5^27, then square-and-multiply with the
/// factor kept at 64 more bits.
fn pow5(n: u64, prec: u32) -> Num {
    const M: u64 = 27;
    let exact = |k: u64| {
        Num::round(
            Raw {
                neg: false,
                mant: BigUint::from(5u32).pow(k as u32),
                exp: 0,
            },
            prec,
        )
    };
    if n <= M {
        return exact(n);
    }
    let mut z = exact(M);
    let mut f = Num::round(
        Raw {
            neg: false,
            mant: BigUint::from(5u32),
            exp: 0,
        },
        prec + 64,
    );
    let mut n = n - M;
    while n > 0 {
        if n & 1 != 0 {
            // Go multiplies on: once the factor overflows to +Inf, so does the product.
            let (Some(a), Some(b)) = (z.raw(), f.raw()) else {
                return Num::inf(false);
            };
            z = mul_raw(a, b, prec);
        }
        n >>= 1;
        if n == 0 {
            break;
        }
        let (Some(a), Some(b)) = (f.raw(), f.raw()) else {
            return Num::inf(false);
        };
        f = mul_raw(a, b, prec + 64);
    }
    z
}

/// Go's `big.decimal`: `0.mant × 10^exp`, digits without trailing zeros.
struct Decimal {
    mant: Vec<u8>,
    exp: i64,
}

impl Decimal {
    /// The exact decimal of `m × 2^shift`.
    fn new(m: &BigUint, shift: i64) -> Decimal {
        if m.is_zero() {
            return Decimal {
                mant: Vec::new(),
                exp: 0,
            };
        }
        let (n, scale) = if shift >= 0 {
            (m << shift as u64, 0i64)
        } else {
            (m * BigUint::from(5u32).pow((-shift) as u32), -shift)
        };
        let digits = n.to_str_radix(10).into_bytes();
        let exp = digits.len() as i64 - scale;
        let mut d = Decimal { mant: digits, exp };
        d.trim();
        d
    }

    fn trim(&mut self) {
        while self.mant.last() == Some(&b'0') {
            self.mant.pop();
        }
        if self.mant.is_empty() {
            self.exp = 0;
        }
    }

    fn at(&self, i: usize) -> u8 {
        self.mant.get(i).copied().unwrap_or(b'0')
    }

    fn round(&mut self, n: usize) {
        if n >= self.mant.len() {
            return;
        }
        let up = if self.mant[n] == b'5' && n + 1 == self.mant.len() {
            n > 0 && (self.mant[n - 1] - b'0') & 1 != 0
        } else {
            self.mant[n] >= b'5'
        };
        if up {
            self.round_up(n)
        } else {
            self.round_down(n)
        }
    }

    fn round_up(&mut self, mut n: usize) {
        if n >= self.mant.len() {
            return;
        }
        while n > 0 && self.mant[n - 1] >= b'9' {
            n -= 1;
        }
        if n == 0 {
            self.mant.truncate(1);
            self.mant[0] = b'1';
            self.exp += 1;
            return;
        }
        self.mant[n - 1] += 1;
        self.mant.truncate(n);
    }

    fn round_down(&mut self, n: usize) {
        if n >= self.mant.len() {
            return;
        }
        self.mant.truncate(n);
        self.trim();
    }
}

/// Go's `big.Float` `shortest`: the fewest digits that still round to `mant × 2^exp` at
/// `prec` bits.
fn shortest(d: &mut Decimal, mant: &BigUint, exp: i64, prec: u32) {
    if d.mant.is_empty() {
        return;
    }
    // Shift so the mantissa has prec + 1 bits: its last bit is half an ulp.
    let shift = i64::from(prec) + 1 - mant.bits() as i64;
    let (m, e) = if shift >= 0 {
        (mant << shift as u64, exp - shift)
    } else {
        (mant >> (-shift) as u64, exp - shift)
    };
    let lower = Decimal::new(&(&m - 1u32), e);
    let upper = Decimal::new(&(&m + 1u32), e);
    let inclusive = !m.bit(1);
    for i in 0..d.mant.len() {
        let m = d.mant[i];
        let l = lower.at(i);
        let u = upper.at(i);
        let ok_down = l != m || inclusive && i + 1 == lower.mant.len();
        let ok_up = m != u && (inclusive || m + 1 < u || i + 1 < upper.mant.len());
        match (ok_down, ok_up) {
            (true, true) => return d.round(i + 1),
            (true, false) => return d.round_down(i + 1),
            (false, true) => return d.round_up(i + 1),
            (false, false) => {}
        }
    }
}

impl fmt::Display for Num {
    /// Go's `big.Float.Text('f', -1)`: plain decimal, never an exponent.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Kind::Finite { mant, exp } = &self.kind else {
            return f.write_str(if self.neg { "-Inf" } else { "+Inf" });
        };
        if !self.is_printable() {
            return f.write_str(&self.scientific());
        }
        let mut out = String::new();
        if self.neg {
            out.push('-');
        }
        // A whole number below 2^prec prints as its exact digits: the fast path for the
        // integers that dominate real programs.
        if *exp >= 0 && mant.bits() + (*exp as u64) <= u64::from(self.prec.min(127)) {
            if let Some(m) = mant.to_u128() {
                out.push_str(&(m << *exp).to_string());
                return f.write_str(&out);
            }
        }
        let mant = mant.big();
        let mut d = Decimal::new(&mant, *exp);
        shortest(&mut d, &mant, *exp, self.prec);
        let frac = (d.mant.len() as i64 - d.exp).max(0);
        text::fmt_f(&mut out, frac, &d);
        f.write_str(&out)
    }
}

impl PartialEq for Num {
    fn eq(&self, other: &Num) -> bool {
        self.cty_equal(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_sized_numbers_are_built_as_rounding_builds_them() {
        let values = [
            0,
            1,
            2,
            3,
            6,
            1024,
            4095,
            1 << 40,
            (1 << 63) - 1,
            1 << 63,
            9_999_999_999_999_999_999,
            u64::MAX,
        ];
        for v in values {
            for neg in [false, true] {
                for prec in [64, PREC] {
                    let rounded = Num::round(
                        Raw {
                            neg,
                            mant: BigUint::from(v),
                            exp: 0,
                        },
                        prec,
                    );
                    assert_eq!(
                        Num::from_u64_exact(neg, v, prec),
                        rounded,
                        "{v} {neg} {prec}"
                    );
                }
            }
        }
    }

    fn n(s: &str) -> Num {
        Num::parse(s).unwrap()
    }

    #[test]
    fn to_i64_agrees_with_the_big_integer() {
        // Whole numbers at the edges of i64 (and of the word the fast path shifts in), and
        // values that are not whole or not finite.
        for text in [
            "0",
            "-0",
            "1",
            "-1",
            "6",
            "1024",
            "4611686018427387904",
            "9223372036854775807",
            "-9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "18446744073709551616",
            "1e30",
            "0.5",
            "-2.5",
            "1e-3",
            "Inf",
            "-Inf",
        ] {
            let num = n(text);
            let by_bigint = num.to_bigint().and_then(|b| b.to_i64());
            // Go's Int64 of -2^63 fits, but the magnitude does not: fnhcl keeps i64 results
            // to magnitudes that do (the callers negate them).
            let expected = by_bigint.filter(|v| *v != i64::MIN);
            assert_eq!(num.to_i64(), expected, "{text}");
        }
        // A mantissa wider than a word.
        let wide = n("340282366920938463463374607431768211457");
        assert_eq!(wide.to_i64(), None);
    }

    #[test]
    fn small_integers_parse_as_the_general_path_does() {
        // `1234e0` takes the general path (an exponent), `1234` the small-integer one: the
        // two must be the same number with the same precision and representation.
        for digits in [
            "0",
            "007",
            "1",
            "10",
            "1024",
            "4294967296",
            "9999999999999999999",
            "10000000000000000000",
        ] {
            for sign in ["", "-", "+"] {
                let short = format!("{sign}{digits}");
                let general = format!("{short}e0");
                assert_eq!(
                    format!("{:?}", n(&short)),
                    format!("{:?}", n(&general)),
                    "{short}"
                );
            }
        }
        assert!(Num::parse("").is_none());
        assert!(Num::parse("-").is_none());
        assert!(Num::parse("1_0").is_none());
    }

    #[test]
    fn prints_the_shortest_decimal() {
        assert_eq!(n("0.1").add(&n("0.2")).unwrap().to_string(), "0.3");
        assert_eq!(n("1e30").to_string(), "1000000000000000000000000000000");
        assert_eq!(n("1e400").to_string().len(), 401);
        assert_eq!(n("2.5").to_string(), "2.5");
        assert_eq!(n("-0.001").to_string(), "-0.001");
        assert_eq!(
            n("12345678901234567890").to_string(),
            "12345678901234567890"
        );
        assert_eq!(n("0").to_string(), "0");
        // The oracle's value of 1/3 (Go HCL + cty), 155 decimals.
        let third = format!("0.{}5", "3".repeat(154));
        assert_eq!(n("1").div(&n("3")).unwrap().to_string(), third);
        assert_eq!(n("0").mul(&n("-1")).unwrap().to_string(), "-0");
    }

    #[test]
    fn exponents_beyond_an_int32_overflow_and_underflow_as_in_go() {
        // The oracle (Go HCL + cty): `1e1000000000 + 1` is +Inf.
        assert!(n("1e1000000000").is_inf());
        assert!(n("1e1000000000").add(&n("1")).unwrap().is_inf());
        let big = n("1e600000000");
        assert!(!big.is_inf());
        assert!(big.mul(&big).unwrap().is_inf());
        assert!(big.neg().mul(&big).unwrap().is_neg());
        let tiny = n("1e-600000000");
        let product = tiny.mul(&tiny).unwrap();
        assert!(product.is_zero() && !product.is_neg());
        assert_eq!(n("-1e-700000000").to_string(), "-0");
    }

    #[test]
    fn numbers_too_long_to_print_show_in_scientific_notation() {
        assert!(n("1e100000").is_printable());
        assert_eq!(n("1e100000").to_string().len(), 100_001);
        let big = n("1e600000000");
        assert!(!big.is_printable());
        assert_eq!(big.to_string(), "1e+600000000");
        assert_eq!(n("-2.5e200000").to_string(), "-2.5e+200000");
        assert_eq!(n("3e-200000").scientific(), "3e-200000");
        assert_eq!(n("12345").scientific(), "1.2345e+04");
        assert!(!n("1e-200000").is_printable());
    }

    #[test]
    fn whole_numbers_print_exactly() {
        for text in [
            "0",
            "7",
            "1024",
            "18446744073709551616",
            "170141183460469231731687303715884105727",
        ] {
            assert_eq!(n(text).to_string(), text);
        }
        assert_eq!(n("-42").to_string(), "-42");
        assert_eq!(Num::from_i64(-3).to_string(), "-3");
    }

    #[test]
    fn infinities_and_nan() {
        assert_eq!(n("1").div(&n("0")).unwrap().to_string(), "+Inf");
        assert_eq!(n("-1").div(&n("0")).unwrap().to_string(), "-Inf");
        assert!(n("0").div(&n("0")).is_err());
        let inf = n("1").div(&n("0")).unwrap();
        assert!(inf.sub(&inf).is_err());
    }

    #[test]
    fn equality_is_ctys() {
        assert!(n("0.1").add(&n("0.2")).unwrap().cty_equal(&n("0.3")));
        assert!(
            n("1")
                .div(&n("3"))
                .unwrap()
                .mul(&n("3"))
                .unwrap()
                .cty_equal(&n("1"))
        );
        assert!(n("3").cty_equal(&n("3.0")));
        assert!(!n("3").cty_equal(&n("-3")));
    }

    #[test]
    fn precision_follows_the_operands() {
        let a = Num::from_i64(10);
        let b = Num::from_i64(3);
        assert_eq!(a.prec(), 64);
        // 10/3 rounded to 64 bits, printed shortest (checked with Python's fractions).
        assert_eq!(a.div(&b).unwrap().to_string(), "3.3333333333333333333");
        assert_eq!(a.div(&n("3")).unwrap().prec(), 512);
    }

    #[test]
    fn converts_to_f64() {
        for s in ["0.1", "1e300", "123.456", "-7", "1e-320", "0"] {
            assert_eq!(n(s).to_f64(), s.parse::<f64>().unwrap(), "{s}");
        }
        assert_eq!(Num::from_f64(0.1).unwrap().to_f64(), 0.1);
    }
}
