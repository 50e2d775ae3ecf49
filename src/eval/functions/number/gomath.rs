//! Go's `math.Log`, `math.Exp` and `math.Pow` as Go builds them for amd64, operation by
//! operation, so `log` and `pow` round exactly as function-hcl's do (the platform libm may
//! differ in the last bit).
//!
//! `Log` and `Exp` are Go's amd64 assembly routines (`log_amd64.s`, `exp_amd64.s`); `Exp`
//! takes its fused multiply-add path when the CPU has AVX2 and FMA, as Go decides at run time.
//! `Pow` is Go's portable `pow.go` as of Go 1.26 (repeated squaring on the `Frexp` mantissa;
//! the expression oracle is built with Go 1.26.3 and agrees bit for bit). Later Go sources add
//! a fast path for exponents that fit an int8, which rounds differently (`pow(1.1, 7)`).
//!
//! Constants are written exactly as in Go's sources (Go and Rust both round a decimal literal
//! correctly to the nearest f64), hence the allowances.

#![allow(clippy::excessive_precision, clippy::approx_constant)]

const SHIFT: u32 = 52;
const MASK: u64 = 0x7ff;
const BIAS: i64 = 1023;

/// Go's `math.Frexp`: `f = frac × 2^exp` with `frac` in [0.5, 1).
pub fn frexp(f: f64) -> (f64, i64) {
    if f == 0.0 || f.is_infinite() || f.is_nan() {
        return (f, 0);
    }
    let (f, mut exp) = normalize(f);
    let mut x = f.to_bits();
    exp += ((x >> SHIFT) & MASK) as i64 - BIAS + 1;
    x &= !(MASK << SHIFT);
    x |= ((-1 + BIAS) as u64) << SHIFT;
    (f64::from_bits(x), exp)
}

fn normalize(x: f64) -> (f64, i64) {
    const SMALLEST_NORMAL: f64 = 2.2250738585072014e-308;
    if x.abs() < SMALLEST_NORMAL {
        return (x * (1u64 << 52) as f64, -52);
    }
    (x, 0)
}

/// Go's `math.Ldexp`: `frac × 2^exp`.
pub fn ldexp(frac: f64, exp: i64) -> f64 {
    if frac == 0.0 || frac.is_infinite() || frac.is_nan() {
        return frac;
    }
    let (frac, e) = normalize(frac);
    let mut exp = exp + e;
    let mut x = frac.to_bits();
    exp += ((x >> SHIFT) & MASK) as i64 - BIAS;
    if exp < -1075 {
        return 0f64.copysign(frac);
    }
    if exp > 1023 {
        return if frac < 0.0 {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    let mut m = 1.0;
    if exp < -1022 {
        exp += 53;
        m = 1.0 / (1u64 << 53) as f64;
    }
    x &= !(MASK << SHIFT);
    x |= ((exp + BIAS) as u64) << SHIFT;
    m * f64::from_bits(x)
}

/// Go's `math.Modf`: integer and fractional parts, both with the sign of `f`.
fn modf(f: f64) -> (f64, f64) {
    let int = f.trunc();
    if f == 0.0 {
        return (f, f);
    }
    (int, f - int)
}

fn is_odd_int(x: f64) -> bool {
    let (xi, xf) = modf(x);
    // Go's float64 → int64 conversion of a huge value is implementation-defined; on amd64 it
    // yields the "integer indefinite" value, which is even.
    let i = if xi.abs() < 9.223372036854776e18 {
        xi as i64
    } else {
        i64::MIN
    };
    xf == 0.0 && i & 1 == 1
}

/// Go's amd64 `math.Log` (`log_amd64.s`): FreeBSD's algorithm, with the exponent taken
/// straight from the bits (so subnormal inputs are reduced as that routine does).
pub fn log(x: f64) -> f64 {
    const HSQRT2: f64 = 7.07106781186547524401e-01;
    const LN2_HI: f64 = 6.93147180369123816490e-01;
    const LN2_LO: f64 = 1.90821492927058770002e-10;
    const L1: f64 = 6.666666666666735130e-01;
    const L2: f64 = 3.999999999940941908e-01;
    const L3: f64 = 2.857142874366239149e-01;
    const L4: f64 = 2.222219843214978396e-01;
    const L5: f64 = 1.818357216161805012e-01;
    const L6: f64 = 1.531383769920937332e-01;
    const L7: f64 = 1.479819860511658591e-01;
    let bits = x.to_bits();
    if bits & !(1 << 63) == 0 {
        return f64::NEG_INFINITY;
    }
    if (bits as i64) < 0 {
        return f64::from_bits(0x7FF8000000000001);
    }
    if bits >= 0x7FF0000000000000 {
        return x;
    }
    let mut f1 = f64::from_bits((bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FE0_0000_0000_0000);
    let mut k = (((bits >> 52) & 0x7FF) as i64 - 0x3FE) as f64;
    // CMPSD "not less than": HSqrt2 < f1 is false.
    let scale = if HSQRT2 < f1 { 0.0 } else { 1.0 };
    k -= scale;
    f1 *= scale + 1.0;
    let f = f1 - 1.0;
    let s = f / (2.0 + f);
    let s2 = s * s;
    let s4 = s2 * s2;
    let t1 = s2 * ((((L7 * s4 + L5) * s4 + L3) * s4) + L1);
    let t2 = s4 * ((L6 * s4 + L4) * s4 + L2);
    let r = t1 + t2;
    let hfsq = 0.5 * f * f;
    let a = s * (hfsq + r);
    let b = k * LN2_LO;
    let c = (hfsq - (a + b)) - f;
    k * LN2_HI - c
}

/// Whether Go's amd64 `Exp` takes its FMA path (`useFMA = HasAVX2 && HasFMA`).
fn use_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        true
    }
}

/// Go's amd64 `math.Exp` (`exp_amd64.s`, after Shibata's SLEEF): no subnormal results.
pub fn exp(x: f64) -> f64 {
    exp_with(x, use_fma())
}

fn exp_with(x: f64, fma: bool) -> f64 {
    const LOG2E: f64 = 1.4426950408889634073599246810018920;
    const LN2U: f64 = 0.69314718055966295651160180568695068359375;
    const LN2L: f64 = 0.28235290563031577122588448175013436025525412068e-12;
    const OVERFLOW: f64 = 7.09782712893384e+02;
    const C: [f64; 7] = [
        2.4801587301587301587e-5,
        1.9841269841269841270e-4,
        1.3888888888888888889e-3,
        8.3333333333333333333e-3,
        4.1666666666666666667e-2,
        1.6666666666666666667e-1,
        0.5,
    ];
    let bits = x.to_bits();
    if bits & !(1 << 63) >= 0x7FF0000000000000 {
        return if x == f64::NEG_INFINITY { 0.0 } else { x };
    }
    if x > OVERFLOW {
        return f64::INFINITY;
    }
    // CVTSD2SL: round to nearest even; out of range gives the "integer indefinite".
    let t = LOG2E * x;
    let r = t.round_ties_even();
    let n: i32 = if (-2147483648.0..2147483648.0).contains(&r) {
        r as i32
    } else {
        i32::MIN
    };
    let k = f64::from(n);
    let mut y;
    if fma {
        y = (-k).mul_add(LN2U, x);
        y = (-k).mul_add(LN2L, y);
        y *= 0.0625;
        let mut p = C[0];
        for c in &C[1..] {
            p = p.mul_add(y, *c);
        }
        p = p.mul_add(y, 1.0);
        y *= p;
        for _ in 0..3 {
            y *= y + 2.0;
        }
        let t = y + 2.0;
        y = y.mul_add(t, 1.0);
    } else {
        y = x - LN2U * k;
        y -= LN2L * k;
        y *= 0.0625;
        let mut p = C[0];
        for c in &C[1..] {
            p = p * y + *c;
        }
        p = p * y + 1.0;
        y *= p;
        for _ in 0..4 {
            y *= y + 2.0;
        }
        y += 1.0;
    }
    let e = i64::from(n) + 0x3FF;
    if e <= 0 {
        return 0.0;
    }
    if e >= 0x7FF {
        return f64::INFINITY;
    }
    y * f64::from_bits((e as u64) << 52)
}

/// Go's `math.Pow` (the portable `pow.go`; amd64 has no assembly for it).
pub fn pow(x: f64, y: f64) -> f64 {
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if y == 1.0 {
        return x;
    }
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 {
        if y < 0.0 {
            return if x.is_sign_negative() && is_odd_int(y) {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
        }
        if y > 0.0 {
            return if x.is_sign_negative() && is_odd_int(y) {
                x
            } else {
                0.0
            };
        }
    }
    if y.is_infinite() {
        return if x == -1.0 {
            1.0
        } else if (x.abs() < 1.0) == (y > 0.0) {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if x.is_infinite() {
        if x < 0.0 {
            return pow(1.0 / x, -y);
        }
        if y < 0.0 {
            return 0.0;
        }
        if y > 0.0 {
            return f64::INFINITY;
        }
    }
    if y == 0.5 {
        return x.sqrt();
    }
    if y == -0.5 {
        return 1.0 / x.sqrt();
    }
    let (mut yi, mut yf) = modf(y.abs());
    if yf != 0.0 && x < 0.0 {
        return f64::NAN;
    }
    if yi >= 9.223372036854775808e18 {
        return if x == -1.0 {
            1.0
        } else if (x.abs() < 1.0) == (y > 0.0) {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let mut a1 = 1.0;
    let mut ae: i64 = 0;
    if yf != 0.0 {
        if yf > 0.5 {
            yf -= 1.0;
            yi += 1.0;
        }
        a1 = exp(yf * log(x));
    }
    let (mut x1, mut xe) = frexp(x);
    let mut i = yi as i64;
    while i != 0 {
        if !(-(1 << 12)..=(1 << 12)).contains(&xe) {
            ae += xe;
            break;
        }
        if i & 1 == 1 {
            a1 *= x1;
            ae += xe;
        }
        x1 *= x1;
        xe <<= 1;
        if x1 < 0.5 {
            x1 += x1;
            xe -= 1;
        }
        i >>= 1;
    }
    if y < 0.0 {
        a1 = 1.0 / a1;
        ae = -ae;
    }
    ldexp(a1, ae)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frexp_and_ldexp_round_trip() {
        assert_eq!(frexp(8.0), (0.5, 4));
        assert_eq!(frexp(1.1), (0.55, 1));
        let tiny = f64::from_bits(1);
        let (f, e) = frexp(tiny);
        assert_eq!(ldexp(f, e), tiny);
        assert_eq!(ldexp(1.0, 2000), f64::INFINITY);
        assert_eq!(ldexp(1.0, -2000), 0.0);
    }

    #[test]
    fn log_matches_go() {
        assert_eq!(log(1.0), 0.0);
        assert_eq!(log(0.0), f64::NEG_INFINITY);
        assert!(log(-1.0).is_nan());
        assert_eq!(log(50.0) / log(10.0), 1.6989700043360185);
        assert_eq!(log(8.0) / log(2.0), 3.0);
    }

    #[test]
    fn pow_matches_go() {
        assert_eq!(pow(2.0, 0.5), std::f64::consts::SQRT_2);
        assert_eq!(pow(1.1, 2.0), 1.2100000000000002);
        // Go multiplies Frexp mantissas by repeated squaring: (x·x²)·x⁴, not x⁴·x²·x.
        assert_eq!(pow(1.1, 7.0), 1.9487171000000012);
        assert_eq!(pow(0.0, -1.0), f64::INFINITY);
        assert_eq!(pow(2.0, 1024.0), f64::INFINITY);
        assert!(pow(-8.0, 1.0 / 3.0).is_nan());
        // The oracle's values (Go, amd64 with FMA).
        assert_eq!(pow(2.0, 0.3), 1.2311444133449163);
        assert_eq!(pow(10.0, 0.7), 5.011872336272722);
        assert_eq!(pow(3.3, 2.7), 25.118149308859717);
    }

    #[test]
    fn exp_paths() {
        assert_eq!(exp_with(0.0, false), 1.0);
        assert_eq!(exp_with(0.0, true), 1.0);
        assert_eq!(exp(f64::NEG_INFINITY), 0.0);
        assert_eq!(exp(1000.0), f64::INFINITY);
        assert_eq!(exp(-1000.0), 0.0);
    }
}
