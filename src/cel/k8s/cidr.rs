//! `kubernetes.net.cidr` (apiserver `pkg/cel/library/cidr.go`): `cidr()`, `isCIDR()`,
//! `containsIP`, `containsCIDR`, `ip()`, `masked()`, `prefixLength()`, `string()`, over Go's
//! `net/netip.Prefix`. The library refuses IPv4-mapped IPv6 prefixes.

use super::ip::{Addr, Ip, parse_addr, string_to_ip};
use super::{equal_no_such_overload, go_quote, opaque, opaque_arg, str_arg};
use crate::cel::env::Function;
use crate::cel::types::Type;
use crate::cel::value::{Error, Opaque, Value};
use std::sync::Arc;

/// The type's name.
pub const TYPE_NAME: &str = "net.CIDR";

/// A prefix as `netip.Prefix` holds it: the address as written (not masked) and the length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cidr {
    /// The address (no zone).
    pub addr: Addr,
    /// The prefix length, within the address's bit length.
    pub bits: u8,
}

impl Cidr {
    /// `Masked`: the address with the bits past the prefix cleared.
    pub fn masked(&self) -> Cidr {
        Cidr {
            addr: mask(&self.addr, self.bits),
            bits: self.bits,
        }
    }

    /// `Contains`: the same family and the same leading `bits` bits (zoned addresses never).
    pub fn contains(&self, ip: &Addr) -> bool {
        if !ip.zone().is_empty() || ip.bit_len() != self.addr.bit_len() {
            return false;
        }
        mask(ip, self.bits) == mask(&self.addr, self.bits)
    }

    /// `Overlaps`: the same family, and equal under the shorter of the two prefixes.
    pub fn overlaps(&self, o: &Cidr) -> bool {
        if self == o {
            return true;
        }
        if self.addr.bit_len() != o.addr.bit_len() {
            return false;
        }
        let min = self.bits.min(o.bits);
        min == 0 || mask(&self.addr, min) == mask(&o.addr, min)
    }

    /// `String`: `address/bits`.
    pub fn to_go_string(&self) -> String {
        format!("{}/{}", self.addr.to_go_string(), self.bits)
    }
}

/// The address with all but its first `bits` bits cleared.
fn mask(addr: &Addr, bits: u8) -> Addr {
    let clear = |bytes: &mut [u8]| {
        for (i, b) in bytes.iter_mut().enumerate() {
            let start = i * 8;
            let keep = usize::from(bits).saturating_sub(start).min(8);
            *b &= if keep == 0 { 0 } else { 0xffu8 << (8 - keep) };
        }
    };
    match addr {
        Addr::V4(b) => {
            let mut b = *b;
            clear(&mut b);
            Addr::V4(b)
        }
        Addr::V6(a, _) => {
            let mut a = *a;
            clear(&mut a);
            Addr::V6(a, "".into())
        }
    }
}

/// Go's `netip.ParsePrefix`, with its error messages.
pub fn parse_prefix(s: &str) -> Result<Cidr, String> {
    let fail = |msg: &str| format!("netip.ParsePrefix({}): {msg}", go_quote(s));
    let Some(slash) = s.rfind('/') else {
        return Err(fail("no '/'"));
    };
    let addr = parse_addr(&s[..slash]).map_err(|e| fail(&e))?;
    if !addr.zone().is_empty() {
        return Err(fail("IPv6 zones cannot be present in a prefix"));
    }
    let bits_str = &s[slash + 1..];
    let bad_bits = || fail(&format!("bad bits after slash: {}", go_quote(bits_str)));
    // Go refuses a sign or leading zero before `strconv.Atoi`
    let b = bits_str.as_bytes();
    if b.len() > 1 && !(b'1'..=b'9').contains(&b[0]) {
        return Err(bad_bits());
    }
    let bits: i64 = match atoi(bits_str) {
        Some(v) => v,
        None => return Err(bad_bits()),
    };
    if bits < 0 || bits > i64::from(addr.bit_len()) {
        return Err(fail("prefix length out of range"));
    }
    Ok(Cidr {
        addr,
        bits: bits as u8,
    })
}

/// Go's `strconv.Atoi`: an optional sign and decimal digits fitting 64 bits.
fn atoi(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse::<i64>().ok()
}

/// The library's `parseCIDR`: `netip.ParsePrefix`, refusing IPv4-mapped addresses. Its
/// message already says `network address parse error during conversion from string: `.
pub fn parse_cidr(raw: &str) -> Result<Cidr, String> {
    let prefix = parse_prefix(raw)
        .map_err(|e| format!("network address parse error during conversion from string: {e}"))?;
    if prefix.addr.is_4in6() {
        return Err(format!(
            "IPv4-mapped IPv6 address {} is not allowed",
            go_quote(raw)
        ));
    }
    Ok(prefix)
}

/// `cidr(s)`: the value, or the library's error (which prefixes the message once more).
fn string_to_cidr(s: &str) -> Result<Cidr, Error> {
    parse_cidr(s).map_err(|e| {
        Error::new(format!(
            "network address parse error during conversion from string: {e}"
        ))
    })
}

impl Opaque for Cidr {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    fn equals(&self, other: &dyn Opaque) -> bool {
        other
            .as_any()
            .downcast_ref::<Cidr>()
            .is_some_and(|o| o == self)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn equal_error(&self, other: &Value) -> Option<Error> {
        match opaque::<Cidr>(other) {
            Some(_) => None,
            None => equal_no_such_overload(),
        }
    }
}

fn contains_cidr(c: &Cidr, other: &Cidr) -> Value {
    Value::Bool(c.overlaps(other) && c.bits <= other.bits)
}

/// The library's functions.
pub fn functions() -> Vec<Function> {
    let cidr = || Type::opaque(TYPE_NAME);
    let ip = || Type::opaque(super::ip::TYPE_NAME);
    vec![
        Function::new("cidr").global("string_to_cidr", vec![Type::String], cidr(), |args| {
            let c = string_to_cidr(str_arg(args, 0)?)?;
            Ok(Value::Opaque(Arc::new(c)))
        }),
        Function::new("containsIP")
            .member(
                "cidr_contains_ip_string",
                vec![cidr(), Type::String],
                Type::Bool,
                |args| {
                    let c = opaque_arg::<Cidr>(args, 0)?;
                    // the library converts first and, for a string that is no IP, answers
                    // `no such overload` rather than the conversion's error
                    let ip =
                        string_to_ip(str_arg(args, 1)?).map_err(|_| Error::no_such_overload())?;
                    let ip = opaque::<Ip>(&ip).ok_or_else(Error::no_such_overload)?;
                    Ok(Value::Bool(c.contains(&ip.0)))
                },
            )
            .member(
                "cidr_contains_ip_ip",
                vec![cidr(), ip()],
                Type::Bool,
                |args| {
                    let c = opaque_arg::<Cidr>(args, 0)?;
                    let ip = opaque_arg::<Ip>(args, 1)?;
                    Ok(Value::Bool(c.contains(&ip.0)))
                },
            ),
        Function::new("containsCIDR")
            .member(
                "cidr_contains_cidr_string",
                vec![cidr(), Type::String],
                Type::Bool,
                |args| {
                    let c = opaque_arg::<Cidr>(args, 0)?;
                    let other = string_to_cidr(str_arg(args, 1)?)?;
                    Ok(contains_cidr(c, &other))
                },
            )
            .member(
                "cidr_contains_cidr",
                vec![cidr(), cidr()],
                Type::Bool,
                |args| {
                    let c = opaque_arg::<Cidr>(args, 0)?;
                    Ok(contains_cidr(c, opaque_arg::<Cidr>(args, 1)?))
                },
            ),
        Function::new("ip").member("cidr_ip", vec![cidr()], ip(), |args| {
            let c = opaque_arg::<Cidr>(args, 0)?;
            Ok(Value::Opaque(Arc::new(Ip(c.addr.clone()))))
        }),
        Function::new("prefixLength").member(
            "cidr_prefix_length",
            vec![cidr()],
            Type::Int,
            |args| Ok(Value::Int(i64::from(opaque_arg::<Cidr>(args, 0)?.bits))),
        ),
        Function::new("masked").member("cidr_masked", vec![cidr()], cidr(), |args| {
            Ok(Value::Opaque(Arc::new(
                opaque_arg::<Cidr>(args, 0)?.masked(),
            )))
        }),
        Function::new("isCIDR").global("is_cidr", vec![Type::String], Type::Bool, |args| {
            Ok(Value::Bool(parse_cidr(str_arg(args, 0)?).is_ok()))
        }),
        Function::new("string").global("cidr_to_string", vec![cidr()], Type::String, |args| {
            Ok(Value::string(&opaque_arg::<Cidr>(args, 0)?.to_go_string()))
        }),
    ]
}
