//! `kubernetes.quantity` (apiserver `pkg/cel/library/quantity.go`): `quantity()`,
//! `isQuantity()`, `sign`, `isInteger`, `asInteger`, `asApproximateFloat`, `add`, `sub`,
//! `compareTo`, `isGreaterThan`, `isLessThan`, over apimachinery's `resource.Quantity`.
//!
//! A quantity is held as apimachinery holds it, because the representation shows: an
//! `int64Amount` (value × 10^scale) when the text fits, otherwise an `inf.Dec` (unscaled ×
//! 10^-scale, big), and `isInteger` is false for every `inf.Dec`. Scales are 32-bit and wrap
//! as in Go. Where Go would build numbers with hundreds of millions of digits (a huge
//! exponent meeting a big mantissa) or parse a number of more than 100 000 digits, this
//! refuses with [`TOO_PRECISE`] instead of stalling.
//!
//! Go's pointer semantics are reproduced where a rule can see them (see [`QuantityValue`]):
//! a quantity bound with `cel.bind` or a comprehension variable and compared with a decimal
//! one reports `isInteger() == false` afterwards, as in the API server.

use super::{arg, opaque, opaque_arg, str_arg};
use crate::cel::env::Function;
use crate::cel::types::Type;
use crate::cel::value::{Error, Opaque, Value};
use num_bigint::{BigInt, Sign};
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;
use std::sync::{Arc, Mutex};

/// The type's name.
pub const TYPE_NAME: &str = "kubernetes.Quantity";

/// apimachinery's `ErrFormatWrong`.
pub const ERR_FORMAT_WRONG: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/// apimachinery's `ErrNumeric`.
pub const ERR_NUMERIC: &str = "unable to parse numeric part of quantity";
/// apimachinery's `ErrSuffix`.
pub const ERR_SUFFIX: &str = "unable to parse quantity's suffix";
/// Ours: a computation Go would carry out on numbers of unbounded size.
pub const TOO_PRECISE: &str = "quantity exceeds the supported precision";

/// The most decimal digits a rescaling may add (Go has no limit; it would take minutes).
const MAX_SHIFT: i64 = 100_000;

/// The most digits a quantity's number may have (Go has no limit).
const MAX_DIGITS: usize = 100_000;

/// A quantity's format (it only decides how the quantity prints).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `12e6`
    DecimalExponent,
    /// `12Mi`
    BinarySI,
    /// `12M`
    DecimalSI,
}

/// `inf.Dec`: `unscaled × 10^-scale`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dec {
    /// The unscaled value.
    pub unscaled: BigInt,
    /// The scale (digits after the point; negative for trailing zeros).
    pub scale: i32,
}

/// A quantity's amount.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Amount {
    /// `int64Amount`: `value × 10^scale`.
    Int {
        /// The value.
        value: i64,
        /// The decimal exponent.
        scale: i32,
    },
    /// `infDecAmount`.
    Dec(Dec),
}

/// `resource.Quantity`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quantity {
    /// The amount.
    pub amount: Amount,
    /// The format.
    pub format: Format,
}

fn pow10(n: i64) -> Result<BigInt, Error> {
    if n > MAX_SHIFT {
        return Err(Error::new(TOO_PRECISE));
    }
    let n = u32::try_from(n.max(0)).map_err(|_| Error::new(TOO_PRECISE))?;
    Ok(num_traits::pow(BigInt::from(10), n as usize))
}

fn digits(u: &BigInt) -> i64 {
    if u.is_zero() {
        1
    } else {
        i64::try_from(u.abs().to_string().len()).unwrap_or(i64::MAX)
    }
}

impl Dec {
    fn from_int(value: i64, scale: i32) -> Dec {
        Dec {
            unscaled: BigInt::from(value),
            // inf.Scale(-a.scale): a 32-bit negation
            scale: scale.wrapping_neg(),
        }
    }

    fn sign(&self) -> i32 {
        match self.unscaled.sign() {
            Sign::Minus => -1,
            Sign::NoSign => 0,
            Sign::Plus => 1,
        }
    }

    /// The unscaled value at a larger scale (exact).
    fn upscaled(&self, scale: i32) -> Result<BigInt, Error> {
        let shift = i64::from(scale) - i64::from(self.scale);
        Ok(&self.unscaled * pow10(shift)?)
    }

    /// `Cmp`, exactly, without building the huge numbers Go's rescaling would.
    fn compare(&self, o: &Dec) -> Ordering {
        let (a, b) = (self.sign(), o.sign());
        if a != b || a == 0 {
            return a.cmp(&b);
        }
        // same sign, both non-zero: compare the magnitudes' decimal exponents first
        let ea = digits(&self.unscaled) - i64::from(self.scale);
        let eb = digits(&o.unscaled) - i64::from(o.scale);
        let magnitude = if ea != eb {
            ea.cmp(&eb)
        } else {
            // the same exponent: the rescaling adds no more digits than the numbers have
            let scale = self.scale.max(o.scale);
            let up = |d: &Dec| {
                let shift = u32::try_from(i64::from(scale) - i64::from(d.scale)).unwrap_or(0);
                d.unscaled.abs() * num_traits::pow(BigInt::from(10), shift as usize)
            };
            up(self).cmp(&up(o))
        };
        if a < 0 {
            magnitude.reverse()
        } else {
            magnitude
        }
    }

    /// `Add` (`negate_other` for `Sub`): the result has the larger scale.
    fn add(&self, o: &Dec, negate_other: bool) -> Result<Dec, Error> {
        let scale = self.scale.max(o.scale);
        let x = self.upscaled(scale)?;
        let y = o.upscaled(scale)?;
        let unscaled = if negate_other { x - y } else { x + y };
        Ok(Dec { unscaled, scale })
    }

    /// `Round(x, 9, RoundUp)`: to nanos, away from zero.
    fn round_up_nanos(&self) -> Result<Dec, Error> {
        let shift = 9 - i64::from(self.scale);
        let unscaled = if shift >= 0 {
            &self.unscaled * pow10(shift)?
        } else if -shift > digits(&self.unscaled) {
            // all digits are dropped: a non-zero remainder rounds to ±1 nano
            BigInt::from(self.sign())
        } else {
            let d = pow10(-shift)?;
            let q = &self.unscaled / &d;
            let r = &self.unscaled % &d;
            match r.sign() {
                Sign::NoSign => q,
                Sign::Plus => q + 1,
                Sign::Minus => q - 1,
            }
        };
        Ok(Dec { unscaled, scale: 9 })
    }
}

/// Go's `strconv.ParseInt(s, 10, 64)` for digits (leading zeros allowed).
fn parse_i64(s: &str) -> Option<i64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `positiveScaleInt64`: `base × 10^scale` if it fits (a negative scale leaves it as is).
fn positive_scale(base: i64, scale: i32) -> Option<i64> {
    if base == 0 || scale <= 0 {
        // Go loops `scale` times multiplying zero; a negative scale makes no iterations
        return Some(base);
    }
    let mut v = base;
    for _ in 0..scale {
        v = v.checked_mul(10)?;
    }
    Some(v)
}

/// `divideByScaleInt64` (`Err` where Go divides by zero, a wrapped negative scale).
fn divide_by_scale(base: i64, scale: i32) -> Result<(i64, i64, bool), Error> {
    if scale == 0 {
        return Ok((base, 0, true));
    }
    if scale >= 18 {
        return Ok((0, base, false));
    }
    if scale < 0 {
        return Err(Error::new(
            "internal error: runtime error: integer divide by zero",
        ));
    }
    let d = 10i64.pow(scale as u32);
    Ok((base / d, base % d, true))
}

/// `int64Amount.Cmp`.
fn int_cmp(a: (i64, i32), b: (i64, i32)) -> Result<Ordering, Error> {
    let (mut av, ascale) = a;
    let (mut bv, bscale) = b;
    let as_dec = || Dec::from_int(a.0, a.1).compare(&Dec::from_int(b.0, b.1));
    match ascale.cmp(&bscale) {
        Ordering::Equal => {}
        Ordering::Greater => {
            let (result, remainder, exact) = divide_by_scale(bv, ascale.wrapping_sub(bscale))?;
            if !exact {
                return Ok(as_dec());
            }
            if result == av {
                return Ok(0.cmp(&remainder));
            }
            bv = result;
        }
        Ordering::Less => {
            let (result, remainder, exact) = divide_by_scale(av, bscale.wrapping_sub(ascale))?;
            if !exact {
                return Ok(as_dec());
            }
            if result == bv {
                return Ok(remainder.cmp(&0));
            }
            av = result;
        }
    }
    Ok(av.cmp(&bv))
}

/// `int64Amount.Add`: `None` when it does not fit (the amount is then unchanged).
fn int_add(a: (i64, i32), b: (i64, i32)) -> Option<(i64, i32)> {
    let (av, ascale) = a;
    let (bv, bscale) = b;
    if bv == 0 {
        return Some(a);
    }
    if av == 0 {
        return Some(b);
    }
    match ascale.cmp(&bscale) {
        Ordering::Equal => Some((av.checked_add(bv)?, ascale)),
        Ordering::Greater => {
            let c = positive_scale(av, ascale.wrapping_sub(bscale))?;
            Some((c.checked_add(bv)?, bscale))
        }
        Ordering::Less => {
            let c = positive_scale(bv, bscale.wrapping_sub(ascale))?;
            Some((av.checked_add(c)?, ascale))
        }
    }
}

impl Quantity {
    fn as_dec(&self) -> Dec {
        match &self.amount {
            Amount::Int { value, scale } => Dec::from_int(*value, *scale),
            Amount::Dec(d) => d.clone(),
        }
    }

    fn is_zero(&self) -> bool {
        self.sign() == 0
    }

    /// `Sign`.
    pub fn sign(&self) -> i32 {
        match &self.amount {
            Amount::Int { value, .. } => value.signum() as i32,
            Amount::Dec(d) => d.sign(),
        }
    }

    /// `Cmp`.
    pub fn compare(&self, o: &Quantity) -> Result<Ordering, Error> {
        match (&self.amount, &o.amount) {
            (
                Amount::Int {
                    value: a,
                    scale: sa,
                },
                Amount::Int {
                    value: b,
                    scale: sb,
                },
            ) => int_cmp((*a, *sa), (*b, *sb)),
            _ => Ok(self.as_dec().compare(&o.as_dec())),
        }
    }

    /// `AsInt64`: the integer value when the amount is an `int64Amount` that is one.
    pub fn as_int64(&self) -> Option<i64> {
        match self.amount {
            Amount::Int { value, scale } => match scale.cmp(&0) {
                Ordering::Equal => Some(value),
                Ordering::Less => None,
                Ordering::Greater => positive_scale(value, scale),
            },
            Amount::Dec(_) => None,
        }
    }

    /// `AsApproximateFloat64`.
    pub fn as_approximate_float64(&self) -> f64 {
        let (base, exponent) = match &self.amount {
            // big.Float with 53 bits then Float64: the correctly rounded conversion
            Amount::Dec(d) => (
                d.unscaled.to_string().parse::<f64>().unwrap_or(f64::NAN),
                -i64::from(d.scale),
            ),
            Amount::Int { value, scale } => (*value as f64, i64::from(*scale)),
        };
        if exponent == 0 {
            return base;
        }
        base * go_pow10(exponent)
    }

    /// `Add`.
    pub fn add(&self, y: &Quantity) -> Result<Quantity, Error> {
        let mut q = self.clone();
        if let (
            Amount::Int {
                value: a,
                scale: sa,
            },
            Amount::Int {
                value: b,
                scale: sb,
            },
        ) = (&self.amount, &y.amount)
        {
            if *a == 0 {
                q.format = y.format;
            }
            if let Some((value, scale)) = int_add((*a, *sa), (*b, *sb)) {
                q.amount = Amount::Int { value, scale };
                return Ok(q);
            }
        } else if self.is_zero() {
            q.format = y.format;
        }
        q.amount = Amount::Dec(self.as_dec().add(&y.as_dec(), false)?);
        Ok(q)
    }

    /// `Sub`.
    pub fn sub(&self, y: &Quantity) -> Result<Quantity, Error> {
        let mut q = self.clone();
        if self.is_zero() {
            q.format = y.format;
        }
        if let (Amount::Int { value: a, scale: sa }, Amount::Int { value: b, scale: sb }) =
            (&self.amount, &y.amount)
            // Go negates with wrapping: subtracting math.MinInt64 adds it
            && let Some((value, scale)) = int_add((*a, *sa), (b.wrapping_neg(), *sb))
        {
            q.amount = Amount::Int { value, scale };
            return Ok(q);
        }
        q.amount = Amount::Dec(self.as_dec().add(&y.as_dec(), true)?);
        Ok(q)
    }
}

/// Go's `math.Pow10`: a product (quotient) of two table values, as Go computes it.
fn go_pow10(n: i64) -> f64 {
    let lit = |e: i64| format!("1e{e}").parse::<f64>().unwrap_or(0.0);
    if (0..=308).contains(&n) {
        return lit(n / 32 * 32) * lit(n % 32);
    }
    if (-323..=0).contains(&n) {
        let m = -n;
        return lit(-(m / 32 * 32)) / lit(m % 32);
    }
    if n > 0 { f64::INFINITY } else { 0.0 }
}

/// The pieces `parseQuantityString` finds.
struct Pieces<'a> {
    positive: bool,
    value: &'a str,
    num: &'a str,
    denom: &'a str,
    suffix: &'a str,
}

/// apimachinery's `parseQuantityString`.
fn split(s: &str) -> Result<Pieces<'_>, Error> {
    let b = s.as_bytes();
    let end = b.len();
    let mut p = Pieces {
        positive: true,
        value: "",
        num: "",
        denom: "",
        suffix: "",
    };
    let mut pos = 0;
    if pos < end {
        match b[0] {
            b'-' => {
                p.positive = false;
                pos += 1;
            }
            b'+' => pos += 1,
            _ => {}
        }
    }
    // leading zeros
    loop {
        if pos >= end {
            p.num = "0";
            p.value = "0";
            return Ok(p);
        }
        if b[pos] != b'0' {
            break;
        }
        pos += 1;
    }
    let mut i = pos;
    loop {
        if i >= end {
            p.num = &s[pos..end];
            p.value = s;
            return Ok(p);
        }
        if !b[i].is_ascii_digit() {
            p.num = &s[pos..i];
            pos = i;
            break;
        }
        i += 1;
    }
    if p.num.is_empty() {
        p.num = "0";
    }
    if pos < end && b[pos] == b'.' {
        pos += 1;
        let mut i = pos;
        loop {
            if i >= end {
                p.denom = &s[pos..end];
                p.value = s;
                return Ok(p);
            }
            if !b[i].is_ascii_digit() {
                p.denom = &s[pos..i];
                pos = i;
                break;
            }
            i += 1;
        }
    }
    p.value = &s[..pos];
    let suffix_start = pos;
    let mut i = pos;
    loop {
        if i >= end {
            p.suffix = &s[suffix_start..];
            return Ok(p);
        }
        if !b"eEinumkKMGTP".contains(&b[i]) {
            pos = i;
            break;
        }
        i += 1;
    }
    if pos < end && matches!(b[pos], b'-' | b'+') {
        pos += 1;
    }
    for &c in &b[pos..] {
        if !c.is_ascii_digit() {
            return Err(Error::new(ERR_FORMAT_WRONG));
        }
    }
    p.suffix = &s[suffix_start..];
    Ok(p)
}

/// The suffixer's `interpret`: base, exponent, format.
fn interpret(suffix: &str) -> Option<(u32, i32, Format)> {
    let dec = |e| Some((10, e, Format::DecimalSI));
    let bin = |e| Some((2, e, Format::BinarySI));
    match suffix {
        "" => dec(0),
        "n" => dec(-9),
        "u" => dec(-6),
        "m" => dec(-3),
        "k" => dec(3),
        "M" => dec(6),
        "G" => dec(9),
        "T" => dec(12),
        "P" => dec(15),
        "E" => dec(18),
        "Ki" => bin(10),
        "Mi" => bin(20),
        "Gi" => bin(30),
        "Ti" => bin(40),
        "Pi" => bin(50),
        "Ei" => bin(60),
        _ => {
            let rest = suffix.strip_prefix(['e', 'E'])?;
            if rest.is_empty() {
                return None;
            }
            // strconv.ParseInt(…, 10, 64), then a truncating int32 conversion
            let digits = rest.strip_prefix(['+', '-']).unwrap_or(rest);
            if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let parsed: i64 = rest.parse().ok()?;
            Some((10, parsed as i32, Format::DecimalExponent))
        }
    }
}

/// inf's `Dec.SetString` on `[+-]?digits[.digits]`: at least one digit.
fn dec_from_str(value: &str) -> Option<Dec> {
    let (negative, rest) = match value.as_bytes().first() {
        Some(b'-') => (true, &value[1..]),
        Some(b'+') => (false, &value[1..]),
        _ => (false, value),
    };
    let (int, frac) = rest.split_once('.').unwrap_or((rest, ""));
    let digits = format!("{int}{frac}");
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut unscaled: BigInt = digits.parse().ok()?;
    if negative {
        unscaled = -unscaled;
    }
    let scale = i32::try_from(frac.len()).ok()?;
    Some(Dec { unscaled, scale })
}

/// apimachinery's `ParseQuantity`, with its errors.
pub fn parse(s: &str) -> Result<Quantity, Error> {
    if s.is_empty() {
        return Err(Error::new(ERR_FORMAT_WRONG));
    }
    if s == "0" {
        return Ok(Quantity {
            amount: Amount::Int { value: 0, scale: 0 },
            format: Format::DecimalSI,
        });
    }
    let p = split(s)?;
    let (base, exponent, mut format) = interpret(p.suffix).ok_or_else(|| Error::new(ERR_SUFFIX))?;
    let lengths = i32::try_from(p.num.len() + p.denom.len()).unwrap_or(i32::MAX);
    let denom_len = i32::try_from(p.denom.len()).unwrap_or(i32::MAX);
    let mut mantissa: i64 = 1;
    let (precision, mut scale) = match format {
        Format::DecimalExponent | Format::DecimalSI => (18i32.wrapping_sub(lengths), exponent),
        Format::BinarySI => {
            if exponent >= 0 && p.denom.is_empty() {
                mantissa <<= exponent;
                let num_len = i32::try_from(p.num.len()).unwrap_or(i32::MAX);
                (
                    15i32
                        .wrapping_sub(num_len)
                        .wrapping_sub(exponent * 3 / 10)
                        .wrapping_sub(1),
                    0,
                )
            } else {
                (-1, 0)
            }
        }
    };
    if precision >= 0 {
        scale = scale.wrapping_sub(denom_len);
        if scale >= -9 {
            let shifted = format!("{}{}", p.num, p.denom);
            let value = parse_i64(&shifted).ok_or_else(|| Error::new(ERR_NUMERIC))?;
            if let Some(mut result) = value.checked_mul(mantissa) {
                if !p.positive {
                    result = -result;
                }
                return Ok(Quantity {
                    amount: Amount::Int {
                        value: result,
                        scale,
                    },
                    format,
                });
            }
        }
    }
    if p.value.len() > MAX_DIGITS {
        // Go's big-number parse is quadratic; a megabyte of digits would stall evaluation
        return Err(Error::new(TOO_PRECISE));
    }
    let mut amount = dec_from_str(p.value).ok_or_else(|| Error::new(ERR_NUMERIC))?;
    if base == 10 {
        amount.scale = amount.scale.wrapping_sub(exponent);
    } else {
        amount.unscaled <<= u32::try_from(exponent).unwrap_or(0) as usize;
    }
    let negative = amount.sign() < 0;
    if negative {
        amount.unscaled = -amount.unscaled;
    }
    if !amount.unscaled.is_zero() {
        amount = amount.round_up_nanos()?;
    }
    let max = Dec {
        unscaled: BigInt::from(i64::MAX),
        scale: 0,
    };
    if format == Format::BinarySI && amount.compare(&max) == Ordering::Greater {
        amount = max;
    }
    let one = Dec {
        unscaled: BigInt::one(),
        scale: 0,
    };
    if format == Format::BinarySI && amount.compare(&one) == Ordering::Less && amount.sign() > 0 {
        format = Format::DecimalSI;
    }
    if negative {
        amount.unscaled = -amount.unscaled;
    }
    Ok(Quantity {
        amount: Amount::Dec(amount),
        format,
    })
}

/// The amount as Go's `Quantity` struct holds it: an `inf.Dec` behind a pointer, which a
/// copy of the struct shares.
#[derive(Clone, Debug)]
enum Cell {
    Int { value: i64, scale: i32 },
    Dec(Arc<Mutex<Dec>>),
}

/// Go's `Quantity` struct behind the library's pointer.
#[derive(Clone, Debug)]
struct State {
    amount: Cell,
    format: Format,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // a poisoned lock still holds a consistent value (every write is one assignment)
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl State {
    fn new(q: Quantity) -> State {
        State {
            amount: match q.amount {
                Amount::Int { value, scale } => Cell::Int { value, scale },
                Amount::Dec(d) => Cell::Dec(Arc::new(Mutex::new(d))),
            },
            format: q.format,
        }
    }

    fn snapshot(&self) -> Quantity {
        Quantity {
            amount: match &self.amount {
                Cell::Int { value, scale } => Amount::Int {
                    value: *value,
                    scale: *scale,
                },
                Cell::Dec(d) => Amount::Dec(lock(d).clone()),
            },
            format: self.format,
        }
    }
}

/// A `kubernetes.Quantity` value, with Go's pointer semantics where they show:
///
/// - `pointer` marks the results of `add` and `sub`, which the library returns as
///   `*Quantity`: its `Equal` refuses those on the right (`quantity('1') ==
///   quantity('0').add(1)` is `no such overload`);
/// - `isGreaterThan`, `isLessThan` and `compareTo` call `Cmp` on the receiver, which turns
///   an integer amount into an `inf.Dec` when either side is one (the receiver's
///   `isInteger()` is false afterwards);
/// - `add` and `sub` work on a copy of the receiver that shares its `inf.Dec`, which Go
///   then changes in place (the receiver takes the result's value).
#[derive(Debug)]
pub struct QuantityValue {
    state: Mutex<State>,
    /// Whether Go holds it as a pointer.
    pub pointer: bool,
}

impl QuantityValue {
    /// A value holding `q`.
    pub fn new(q: Quantity, pointer: bool) -> QuantityValue {
        QuantityValue {
            state: Mutex::new(State::new(q)),
            pointer,
        }
    }

    /// The quantity it holds now.
    pub fn quantity(&self) -> Quantity {
        lock(&self.state).snapshot()
    }

    /// Go's `q.Cmp(y)` on the receiver, converting it to `inf.Dec` as Go does.
    fn cmp_in_place(&self, y: &Quantity) -> Result<Ordering, Error> {
        let mut state = lock(&self.state);
        let x = state.snapshot();
        let ord = x.compare(y)?;
        let any_dec = matches!(x.amount, Amount::Dec(_)) || matches!(y.amount, Amount::Dec(_));
        if any_dec && let Cell::Int { value, scale } = state.amount {
            state.amount = Cell::Dec(Arc::new(Mutex::new(Dec::from_int(value, scale))));
        }
        Ok(ord)
    }

    /// `copy := *q; copy.Add(y)` (or `Sub`): the result, written through a shared `inf.Dec`.
    fn arith(&self, y: &Quantity, sub: bool) -> Result<Value, Error> {
        let copy = lock(&self.state).clone();
        let x = copy.snapshot();
        let result = if sub { x.sub(y)? } else { x.add(y)? };
        let amount = match (result.amount, copy.amount) {
            (Amount::Dec(d), Cell::Dec(shared)) => {
                *lock(&shared) = d;
                Cell::Dec(shared)
            }
            (Amount::Dec(d), Cell::Int { .. }) => Cell::Dec(Arc::new(Mutex::new(d))),
            (Amount::Int { value, scale }, _) => Cell::Int { value, scale },
        };
        let state = State {
            amount,
            format: result.format,
        };
        Ok(Value::Opaque(Arc::new(QuantityValue {
            state: Mutex::new(state),
            pointer: true,
        })))
    }
}

impl Opaque for QuantityValue {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    fn equals(&self, other: &dyn Opaque) -> bool {
        other
            .as_any()
            .downcast_ref::<QuantityValue>()
            .is_some_and(|o| self.quantity().compare(&o.quantity()) == Ok(Ordering::Equal))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn equal_error(&self, other: &Value) -> Option<Error> {
        match opaque::<QuantityValue>(other) {
            Some(o) if !o.pointer => self.quantity().compare(&o.quantity()).err(),
            _ => Some(Error::no_such_overload()),
        }
    }
}

fn value(q: Quantity, pointer: bool) -> Value {
    Value::Opaque(Arc::new(QuantityValue::new(q, pointer)))
}

fn q_arg(args: &[Value], i: usize) -> Result<&QuantityValue, Error> {
    opaque_arg::<QuantityValue>(args, i)
}

/// The right operand of `add` and `sub` (Go copies it): a quantity, or an int as
/// `NewQuantity(n, DecimalExponent)`.
fn operand(args: &[Value]) -> Result<Quantity, Error> {
    match arg(args, 1)? {
        Value::Int(n) => Ok(Quantity {
            amount: Amount::Int {
                value: *n,
                scale: 0,
            },
            format: Format::DecimalExponent,
        }),
        _ => Ok(q_arg(args, 1)?.quantity()),
    }
}

/// The library's functions.
pub fn functions() -> Vec<Function> {
    let q = || Type::opaque(TYPE_NAME);
    // the argument is copied first (Go dereferences it), then the receiver compared
    let cmp = |args: &[Value]| -> Result<Ordering, Error> {
        let y = q_arg(args, 1)?.quantity();
        q_arg(args, 0)?.cmp_in_place(&y)
    };
    vec![
        Function::new("quantity").global("string_to_quantity", vec![Type::String], q(), |args| {
            Ok(value(parse(str_arg(args, 0)?)?, false))
        }),
        Function::new("isQuantity").global(
            "is_quantity_string",
            vec![Type::String],
            Type::Bool,
            |args| Ok(Value::Bool(parse(str_arg(args, 0)?).is_ok())),
        ),
        Function::new("sign").global("quantity_sign", vec![q()], Type::Int, |args| {
            Ok(Value::Int(i64::from(q_arg(args, 0)?.quantity().sign())))
        }),
        Function::new("isGreaterThan").member(
            "quantity_is_greater_than",
            vec![q(), q()],
            Type::Bool,
            move |args| Ok(Value::Bool(cmp(args)? == Ordering::Greater)),
        ),
        Function::new("isLessThan").member(
            "quantity_is_less_than",
            vec![q(), q()],
            Type::Bool,
            move |args| Ok(Value::Bool(cmp(args)? == Ordering::Less)),
        ),
        Function::new("compareTo").member(
            "quantity_compare_to",
            vec![q(), q()],
            Type::Int,
            move |args| Ok(Value::Int(cmp(args)? as i64)),
        ),
        Function::new("asApproximateFloat").member(
            "quantity_get_float",
            vec![q()],
            Type::Double,
            |args| {
                Ok(Value::Double(
                    q_arg(args, 0)?.quantity().as_approximate_float64(),
                ))
            },
        ),
        Function::new("asInteger").member("quantity_get_int", vec![q()], Type::Int, |args| {
            q_arg(args, 0)?
                .quantity()
                .as_int64()
                .map(Value::Int)
                .ok_or_else(|| Error::new("cannot convert value to integer"))
        }),
        Function::new("isInteger").member("quantity_is_integer", vec![q()], Type::Bool, |args| {
            Ok(Value::Bool(q_arg(args, 0)?.quantity().as_int64().is_some()))
        }),
        Function::new("add")
            .member("quantity_add", vec![q(), q()], q(), |args| {
                q_arg(args, 0)?.arith(&operand(args)?, false)
            })
            .member("quantity_add_int", vec![q(), Type::Int], q(), |args| {
                q_arg(args, 0)?.arith(&operand(args)?, false)
            }),
        Function::new("sub")
            .member("quantity_sub", vec![q(), q()], q(), |args| {
                q_arg(args, 0)?.arith(&operand(args)?, true)
            })
            .member("quantity_sub_int", vec![q(), Type::Int], q(), |args| {
                q_arg(args, 0)?.arith(&operand(args)?, true)
            }),
    ]
}
