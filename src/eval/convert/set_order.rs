//! cty's set_internals.go: set construction with cty's deduplication and iteration order,
//! and the set-hash text it orders by.

use super::go_quote;
use crate::eval::num::Num;
use crate::eval::types::Type;
use crate::eval::value::Value;
use std::cmp::Ordering;

/// A set value of `elem` holding `items` as `cty.SetVal` would: duplicates (by cty equality;
/// unknowns never equal anything) dropped, and elements in cty's iteration order — known values
/// first, then unknowns, then a null; strings by bytes, numbers numerically, `false` before
/// `true`; values of any other type by cty's set-hash text (the same bytes cty compares),
/// ties keeping first-seen order.
pub fn set_from(elem: Type, items: Vec<Value>) -> Value {
    let mut kept: Vec<(String, Value)> = Vec::with_capacity(items.len());
    for item in items {
        let hash = set_hash_text(&item);
        // cty only compares values in the same hash bucket.
        let duplicate = kept
            .iter()
            .any(|(h, k)| *h == hash && matches!(k.equals(&item), Value::Bool(true)));
        if !duplicate {
            kept.push((hash, item));
        }
    }
    let mut keyed: Vec<(SortKey, Value)> = kept
        .into_iter()
        .map(|(hash, v)| (sort_key(&elem, &v, hash), v))
        .collect();
    // Stable: ties (equal hash text, hence one cty bucket) keep insertion order, as in cty.
    keyed.sort_by(|a, b| a.0.compare(&b.0));
    Value::Set {
        elem,
        items: keyed.into_iter().map(|(_, v)| v).collect::<Vec<_>>().into(),
    }
}

/// Where a set element sorts (cty's `setRules.Less` as a key).
enum SortKey {
    Known(KnownKey),
    Unknown,
    Null,
}

enum KnownKey {
    Str(String),
    Bool(bool),
    Num(Num),
    Hash(String),
    /// A value not of the set's element type (not a valid cty set): after the others.
    Stray(String),
}

fn sort_key(elem: &Type, v: &Value, hash: String) -> SortKey {
    match v {
        Value::Null(_) => SortKey::Null,
        Value::Unknown(..) => SortKey::Unknown,
        _ => SortKey::Known(match (elem, v) {
            (Type::String, Value::String(s)) => KnownKey::Str(s.to_string()),
            (Type::Bool, Value::Bool(b)) => KnownKey::Bool(*b),
            (Type::Number, Value::Number(n)) => KnownKey::Num(n.clone()),
            (Type::String | Type::Bool | Type::Number, _) => KnownKey::Stray(hash),
            _ => KnownKey::Hash(hash),
        }),
    }
}

impl SortKey {
    fn rank(&self) -> u8 {
        match self {
            SortKey::Known(_) => 0,
            SortKey::Unknown => 1,
            SortKey::Null => 2,
        }
    }

    fn compare(&self, other: &SortKey) -> Ordering {
        match (self, other) {
            (SortKey::Known(a), SortKey::Known(b)) => a.compare(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl KnownKey {
    fn rank(&self) -> u8 {
        match self {
            KnownKey::Str(_) | KnownKey::Bool(_) | KnownKey::Num(_) | KnownKey::Hash(_) => 0,
            KnownKey::Stray(_) => 1,
        }
    }

    fn compare(&self, other: &KnownKey) -> Ordering {
        match (self, other) {
            (KnownKey::Str(a), KnownKey::Str(b)) => a.cmp(b),
            (KnownKey::Bool(a), KnownKey::Bool(b)) => a.cmp(b),
            (KnownKey::Num(a), KnownKey::Num(b)) => a.compare(b),
            (KnownKey::Hash(a), KnownKey::Hash(b)) | (KnownKey::Stray(a), KnownKey::Stray(b)) => {
                a.cmp(b)
            }
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

/// cty's `appendSetHashBytes`: the text cty hashes set elements by and orders non-primitive
/// set elements by.
pub(super) fn set_hash_text(v: &Value) -> String {
    let mut out = String::new();
    append_set_hash(v, &mut out);
    out
}

fn append_set_hash(v: &Value, out: &mut String) {
    match v {
        Value::Unknown(..) => out.push('?'),
        Value::Null(_) => out.push('~'),
        Value::Number(n) => out.push_str(&number_hash_text(n)),
        Value::Bool(b) => out.push(if *b { 'T' } else { 'F' }),
        Value::String(s) => out.push_str(&go_quote(s)),
        Value::Map { items, .. } => {
            out.push('{');
            for (k, item) in items.iter() {
                out.push_str(&go_quote(k));
                out.push(':');
                append_set_hash(item, out);
                out.push(';');
            }
            out.push('}');
        }
        Value::List { items, .. } | Value::Set { items, .. } => {
            out.push('[');
            for item in items.iter() {
                append_set_hash(item, out);
                out.push(';');
            }
            out.push(']');
        }
        // Object attribute names are not part of the text, only the values in name order.
        Value::Object(attrs) => {
            out.push('<');
            for item in attrs.values() {
                append_set_hash(item, out);
                out.push(';');
            }
            out.push('>');
        }
        Value::Tuple(items) => {
            out.push('<');
            for item in items.iter() {
                append_set_hash(item, out);
                out.push(';');
            }
            out.push('>');
        }
    }
}

/// Go's `big.Float.String()` (`Text('g', 10)`) for a number. Go rounds the exact binary value
/// to ten digits; we round its shortest decimal form, which differs only when that form has
/// more than ten digits and ends exactly on a rounding tie.
pub(super) fn number_hash_text(n: &Num) -> String {
    let mut out = String::new();
    if n.is_neg() {
        out.push('-');
    }
    if n.is_inf() {
        if !n.is_neg() {
            out.push('+');
        }
        out.push_str("Inf");
        return out;
    }
    // Go's `decimal`: value = 0.mant × 10^exp, mant without leading or trailing zeros.
    let (mut mant, mut exp) = if n.is_printable() {
        let text = n.to_string();
        let body = text.strip_prefix('-').unwrap_or(&text);
        let (int, frac) = body.split_once('.').unwrap_or((body, ""));
        let digits: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
        let lead = digits.iter().take_while(|&&d| d == b'0').count();
        (digits[lead..].to_vec(), int.len() as i64 - lead as i64)
    } else {
        // Too long to expand: its 17 leading digits are enough for ten.
        let text = n.scientific();
        let body = text.strip_prefix('-').unwrap_or(&text);
        let (digits, e) = body.split_once('e').unwrap_or((body, "0"));
        let mant: Vec<u8> = digits.bytes().filter(u8::is_ascii_digit).collect();
        (mant, e.parse::<i64>().unwrap_or(0) + 1)
    };
    trim_decimal(&mut mant, &mut exp);
    round_decimal(&mut mant, &mut exp, 10);

    let prec = 10usize;
    let len = mant.len();
    let mut eprec = prec as i64;
    if eprec > len as i64 && len as i64 >= exp {
        eprec = len as i64;
    }
    let x = exp - 1;
    if x < -4 || x >= eprec {
        // %e with prec.min(len) - 1 digits after the point.
        let digits_after = prec.min(len).saturating_sub(1);
        out.push(*mant.first().unwrap_or(&b'0') as char);
        if digits_after > 0 {
            out.push('.');
            for i in 1..=digits_after {
                out.push(*mant.get(i).unwrap_or(&b'0') as char);
            }
        }
        out.push('e');
        let e = if len > 0 { exp - 1 } else { 0 };
        out.push(if e < 0 { '-' } else { '+' });
        if e.abs() < 10 {
            out.push('0');
        }
        out.push_str(&e.abs().to_string());
        return out;
    }
    let p = if prec as i64 > exp {
        len as i64
    } else {
        prec as i64
    };
    let frac_digits = (p - exp).max(0);
    // %f
    if exp > 0 {
        let m = (len as i64).min(exp) as usize;
        out.extend(mant[..m].iter().map(|&d| d as char));
        for _ in m as i64..exp {
            out.push('0');
        }
    } else {
        out.push('0');
    }
    if frac_digits > 0 {
        out.push('.');
        for i in 0..frac_digits {
            let idx = exp + i;
            let d = if idx < 0 {
                b'0'
            } else {
                *mant.get(idx as usize).unwrap_or(&b'0')
            };
            out.push(d as char);
        }
    }
    out
}

fn trim_decimal(mant: &mut Vec<u8>, exp: &mut i64) {
    while mant.last() == Some(&b'0') {
        mant.pop();
    }
    if mant.is_empty() {
        *exp = 0;
    }
}

/// Go's `decimal.round`: to `n` digits, half to even on the digits.
fn round_decimal(mant: &mut Vec<u8>, exp: &mut i64, n: usize) {
    if n >= mant.len() {
        return;
    }
    let up = if mant[n] == b'5' && n + 1 == mant.len() {
        n > 0 && (mant[n - 1] - b'0') % 2 == 1
    } else {
        mant[n] >= b'5'
    };
    if up {
        let mut k = n;
        while k > 0 && mant[k - 1] >= b'9' {
            k -= 1;
        }
        if k == 0 {
            mant.truncate(1);
            mant[0] = b'1';
            *exp += 1;
        } else {
            mant[k - 1] += 1;
            mant.truncate(k);
        }
    } else {
        mant.truncate(n);
        trim_decimal(mant, exp);
    }
}
