//! Go's `big.Float.Text` for the formats `format` uses (`e`, `E`, `f`, `g`, `G`) and
//! `big.Float.Int` for whole numbers.

use super::{Decimal, Kind, Num, Raw, shortest};
use num_bigint::{BigInt, Sign};
use num_traits::Zero;

impl Num {
    /// Go's `big.Float.Text(format, prec)` for `format` one of `e`, `E`, `f`, `g`, `G`: a
    /// negative `prec` asks for the fewest digits that still identify the value at its
    /// precision. Infinities are `+Inf` and `-Inf`.
    pub fn text(&self, format: char, prec: i64) -> String {
        let mut out = String::new();
        if self.neg {
            out.push('-');
        }
        let Kind::Finite { mant, exp } = &self.kind else {
            if !self.neg {
                out.push('+');
            }
            out.push_str("Inf");
            return out;
        };
        if !self.is_printable() {
            // Bounded, approximate: callers that must be exact refuse such numbers first.
            return self.scientific();
        }
        let mant = mant.big();
        let mut d = Decimal::new(&mant, *exp);
        let mut prec = prec;
        let shortest_digits = prec < 0;
        let g = matches!(format, 'g' | 'G');
        if shortest_digits {
            shortest(&mut d, &mant, *exp, self.prec);
            let len = d.mant.len() as i64;
            prec = match format {
                'e' | 'E' => len - 1,
                'f' => (len - d.exp).max(0),
                _ => len,
            };
        } else {
            match format {
                'e' | 'E' => round_at(&mut d, 1 + prec),
                'f' => {
                    let n = d.exp + prec;
                    round_at(&mut d, n)
                }
                _ => {
                    if prec == 0 {
                        prec = 1;
                    }
                    round_at(&mut d, prec)
                }
            }
        }
        if !g {
            if format == 'f' {
                fmt_f(&mut out, prec, &d);
            } else {
                fmt_e(&mut out, format, prec, &d);
            }
            return out;
        }
        let len = d.mant.len() as i64;
        let mut eprec = prec;
        if eprec > len && len >= d.exp {
            eprec = len;
        }
        if shortest_digits {
            eprec = 6;
        }
        let exp10 = d.exp - 1;
        if exp10 < -4 || exp10 >= eprec {
            if prec > len {
                prec = len;
            }
            let e = if format == 'g' { 'e' } else { 'E' };
            fmt_e(&mut out, e, prec - 1, &d);
            return out;
        }
        if prec > d.exp {
            prec = len;
        }
        fmt_f(&mut out, (prec - d.exp).max(0), &d);
        out
    }

    /// Go's `new(big.Float).SetInt(i)`: the exact integer, with precision max(64, bit length).
    pub fn from_bigint(i: &BigInt) -> Num {
        let prec = i.bits().max(64) as u32;
        let raw = Raw {
            neg: i.sign() == Sign::Minus,
            mant: i.magnitude().clone(),
            exp: 0,
        };
        Num::round(raw, prec)
    }

    /// The value as an exact integer (Go's `big.Float.Int` when the accuracy is `Exact`):
    /// `None` for fractions and infinities.
    pub fn to_bigint(&self) -> Option<BigInt> {
        let Kind::Finite { mant, exp } = &self.kind else {
            return None;
        };
        if mant.is_zero() {
            return Some(BigInt::zero());
        }
        if *exp < 0 {
            return None;
        }
        let magnitude = &*mant.big() << (*exp as u64);
        let sign = if self.neg { Sign::Minus } else { Sign::Plus };
        Some(BigInt::from_biguint(sign, magnitude))
    }
}

/// Go's `decimal.round(n)`, which does nothing for `n < 0`.
fn round_at(d: &mut Decimal, n: i64) {
    if n >= 0 {
        d.round(n as usize);
    }
}

/// Go's `fmtE`: `d.ddddde±dd`.
fn fmt_e(out: &mut String, format: char, prec: i64, d: &Decimal) {
    out.push(d.mant.first().map_or('0', |&c| c as char));
    if prec > 0 {
        out.push('.');
        let m = (d.mant.len() as i64).min(prec + 1).max(1) as usize;
        for &c in d.mant.iter().take(m).skip(1) {
            out.push(c as char);
        }
        for _ in m as i64..=prec {
            out.push('0');
        }
    }
    out.push(format);
    let exp = if d.mant.is_empty() { 0 } else { d.exp - 1 };
    out.push(if exp < 0 { '-' } else { '+' });
    let exp = exp.unsigned_abs();
    if exp < 10 {
        out.push('0');
    }
    out.push_str(&exp.to_string());
}

/// Go's `fmtF`: `ddddd.ddddd`.
pub(super) fn fmt_f(out: &mut String, prec: i64, d: &Decimal) {
    if d.exp > 0 {
        let m = (d.mant.len() as i64).min(d.exp) as usize;
        for &c in &d.mant[..m] {
            out.push(c as char);
        }
        for _ in m as i64..d.exp {
            out.push('0');
        }
    } else {
        out.push('0');
    }
    if prec > 0 {
        out.push('.');
        for i in 0..prec {
            let idx = d.exp + i;
            out.push(if idx < 0 {
                '0'
            } else {
                d.at(idx as usize) as char
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Num {
        Num::parse(s).unwrap()
    }

    #[test]
    fn text_matches_go() {
        assert_eq!(n("3.14159").text('f', 2), "3.14");
        assert_eq!(n("1234.5").text('e', 6), "1.234500e+03");
        assert_eq!(n("0.000012345").text('g', -1), "1.2345e-05");
        assert_eq!(n("1234567").text('g', -1), "1.234567e+06");
        assert_eq!(n("123456").text('g', -1), "123456");
        assert_eq!(n("0.0001").text('g', -1), "0.0001");
        assert_eq!(n("0").text('e', 6), "0.000000e+00");
        assert_eq!(n("0").text('g', -1), "0");
        assert_eq!(n("0.125").text('f', 2), "0.12");
        assert_eq!(n("0.375").text('f', 2), "0.38");
        assert_eq!(n("0.006").text('f', 2), "0.01");
        assert_eq!(n("0.0001").text('f', 2), "0.00");
        assert_eq!(n("123").text('g', 0), "1e+02");
        assert_eq!(n("1e100").text('G', -1), "1E+100");
        assert_eq!(n("5").text('e', 0), "5e+00");
        assert_eq!(n("0.1").text('f', 20), "0.10000000000000000000");
        assert_eq!(n("-2.5").text('f', 0), "-2");
        assert_eq!(Num::inf(false).text('f', 6), "+Inf");
        assert_eq!(Num::inf(true).text('g', -1), "-Inf");
    }

    #[test]
    fn whole_numbers_convert_exactly() {
        assert_eq!(
            n("12345678901234567890").to_bigint().unwrap().to_string(),
            "12345678901234567890"
        );
        assert_eq!(n("-8").to_bigint().unwrap().to_string(), "-8");
        assert_eq!(
            n("1e30").to_bigint().unwrap().to_str_radix(16),
            "c9f2c9cd04674edea40000000"
        );
        assert!(n("1.5").to_bigint().is_none());
        assert!(Num::inf(false).to_bigint().is_none());
    }
}
