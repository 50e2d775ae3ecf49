//! `kubernetes.net.ip` (apiserver `pkg/cel/library/ip.go`): `ip()`, `isIP()`,
//! `ip.isCanonical()`, `family()`, the address-class tests and `string()`, over Go's
//! `net/netip.Addr` (Go 1.25 parsing: no leading zeros in IPv4 fields, at most four hex
//! digits per IPv6 group). The library refuses zones and IPv4-mapped IPv6 addresses.

use super::{equal_no_such_overload, go_quote, opaque, opaque_arg, str_arg};
use crate::cel::env::Function;
use crate::cel::types::Type;
use crate::cel::value::{Error, Opaque, Value};
use std::sync::Arc;

/// The type's name.
pub const TYPE_NAME: &str = "net.IP";

/// An address as `netip.Addr` holds it: IPv4, or IPv6 with an optional zone.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Addr {
    /// An IPv4 address.
    V4([u8; 4]),
    /// An IPv6 address and its zone (empty for none).
    V6([u8; 16], Box<str>),
}

impl Addr {
    /// The 16-byte form (IPv4 as IPv4-mapped IPv6), as `netip` keeps it.
    pub fn as16(&self) -> [u8; 16] {
        match self {
            Addr::V4(b) => {
                let mut a = [0; 16];
                a[10] = 0xff;
                a[11] = 0xff;
                a[12..].copy_from_slice(b);
                a
            }
            Addr::V6(a, _) => *a,
        }
    }

    /// The number of bits: 32 or 128.
    pub fn bit_len(&self) -> u8 {
        match self {
            Addr::V4(_) => 32,
            Addr::V6(..) => 128,
        }
    }

    /// The zone, empty for none.
    pub fn zone(&self) -> &str {
        match self {
            Addr::V4(_) => "",
            Addr::V6(_, z) => z,
        }
    }

    /// `Is4In6`: an IPv6 address in `::ffff:0:0/96`.
    pub fn is_4in6(&self) -> bool {
        match self {
            Addr::V6(a, _) => a[..10].iter().all(|&b| b == 0) && a[10] == 0xff && a[11] == 0xff,
            Addr::V4(_) => false,
        }
    }

    /// `Unmap`: the IPv4 address inside an IPv4-mapped one.
    fn unmap(&self) -> Addr {
        if self.is_4in6() {
            let a = self.as16();
            Addr::V4([a[12], a[13], a[14], a[15]])
        } else {
            self.clone()
        }
    }

    /// `IsUnspecified`: `0.0.0.0` or `::` (without a zone).
    pub fn is_unspecified(&self) -> bool {
        match self {
            Addr::V4(b) => *b == [0; 4],
            Addr::V6(a, z) => *a == [0; 16] && z.is_empty(),
        }
    }

    /// `IsLoopback`.
    pub fn is_loopback(&self) -> bool {
        match self.unmap() {
            Addr::V4(b) => b[0] == 127,
            Addr::V6(a, _) => a[..15].iter().all(|&b| b == 0) && a[15] == 1,
        }
    }

    /// `IsMulticast`.
    pub fn is_multicast(&self) -> bool {
        match self.unmap() {
            Addr::V4(b) => b[0] & 0xf0 == 0xe0,
            Addr::V6(a, _) => a[0] == 0xff,
        }
    }

    /// `IsLinkLocalMulticast`.
    pub fn is_link_local_multicast(&self) -> bool {
        match self.unmap() {
            Addr::V4(b) => b[0] == 224 && b[1] == 0 && b[2] == 0,
            Addr::V6(a, _) => a[0] == 0xff && a[1] & 0x0f == 0x02,
        }
    }

    /// `IsLinkLocalUnicast`.
    pub fn is_link_local_unicast(&self) -> bool {
        match self.unmap() {
            Addr::V4(b) => b[0] == 169 && b[1] == 254,
            Addr::V6(a, _) => a[0] == 0xfe && a[1] & 0xc0 == 0x80,
        }
    }

    /// `IsGlobalUnicast`: not unspecified, broadcast, loopback, multicast or link-local.
    pub fn is_global_unicast(&self) -> bool {
        let ip = self.unmap();
        if let Addr::V4(b) = ip
            && (b == [0; 4] || b == [255; 4])
        {
            return false;
        }
        // `ip != IPv6Unspecified()` compares the zone too
        let v6_unspecified = matches!(&ip, Addr::V6(a, z) if *a == [0; 16] && z.is_empty());
        !v6_unspecified && !ip.is_loopback() && !ip.is_multicast() && !ip.is_link_local_unicast()
    }

    /// `String`: dotted decimal; RFC 5952 IPv6 (the longest run of two or more zero groups
    /// as `::`); `::ffff:a.b.c.d` for IPv4-mapped; `%zone` appended.
    pub fn to_go_string(&self) -> String {
        match self {
            Addr::V4(b) => format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3]),
            Addr::V6(a, zone) => {
                let mut out = if self.is_4in6() {
                    format!("::ffff:{}.{}.{}.{}", a[12], a[13], a[14], a[15])
                } else {
                    string6(a)
                };
                if !zone.is_empty() {
                    out.push('%');
                    out.push_str(zone);
                }
                out
            }
        }
    }
}

fn string6(a: &[u8; 16]) -> String {
    let group = |i: usize| u16::from_be_bytes([a[2 * i], a[2 * i + 1]]);
    let (mut zero_start, mut zero_end) = (8usize, 8usize);
    let mut best = 0;
    let mut i = 0;
    while i < 8 {
        let mut j = i;
        while j < 8 && group(j) == 0 {
            j += 1;
        }
        if j - i >= 2 && j - i > best {
            best = j - i;
            zero_start = i;
            zero_end = j;
        }
        i = j.max(i + 1);
    }
    let mut out = String::new();
    let mut i = 0;
    while i < 8 {
        if i == zero_start {
            out.push_str("::");
            i = zero_end;
            if i >= 8 {
                break;
            }
        } else if i > 0 {
            out.push(':');
        }
        out.push_str(&format!("{:x}", group(i)));
        i += 1;
    }
    out
}

/// A `netip.ParseAddr` failure: Go's message.
fn addr_error(input: &str, msg: &str, at: &str) -> String {
    if at.is_empty() {
        format!("ParseAddr({}): {msg}", go_quote(input))
    } else {
        format!(
            "ParseAddr({}): {msg} (at {})",
            go_quote(input),
            go_quote(at)
        )
    }
}

/// Go 1.25's `netip.ParseAddr`, with its error messages.
pub fn parse_addr(s: &str) -> Result<Addr, String> {
    for c in s.bytes() {
        match c {
            b'.' => return parse_v4_fields(s, s).map(Addr::V4),
            b':' => return parse_v6(s),
            b'%' => return Err(addr_error(s, "missing IPv6 address", "")),
            _ => {}
        }
    }
    Err(addr_error(s, "unable to parse IP", ""))
}

/// `parseIPv4Fields`: `part` (a tail of `input`, the text errors quote) as four fields.
fn parse_v4_fields(input: &str, part: &str) -> Result<[u8; 4], String> {
    let b = part.as_bytes();
    let mut fields = [0u8; 4];
    let (mut val, mut pos, mut digits) = (0u32, 0usize, 0);
    for (i, &c) in b.iter().enumerate() {
        if c.is_ascii_digit() {
            if digits == 1 && val == 0 {
                return Err(addr_error(
                    input,
                    "IPv4 field has octet with leading zero",
                    "",
                ));
            }
            val = val * 10 + u32::from(c - b'0');
            digits += 1;
            if val > 255 {
                return Err(addr_error(input, "IPv4 field has value >255", ""));
            }
        } else if c == b'.' {
            if i == 0 || i == b.len() - 1 || b[i - 1] == b'.' {
                return Err(addr_error(
                    input,
                    "IPv4 field must have at least one digit",
                    &part[i..],
                ));
            }
            if pos == 3 {
                return Err(addr_error(input, "IPv4 address too long", ""));
            }
            fields[pos] = val as u8;
            pos += 1;
            val = 0;
            digits = 0;
        } else {
            return Err(addr_error(input, "unexpected character", &part[i..]));
        }
    }
    if pos < 3 {
        return Err(addr_error(input, "IPv4 address too short", ""));
    }
    fields[3] = val as u8;
    Ok(fields)
}

/// `parseIPv6`.
fn parse_v6(input: &str) -> Result<Addr, String> {
    let (mut s, zone) = match input.find('%') {
        Some(i) => {
            let zone = &input[i + 1..];
            if zone.is_empty() {
                return Err(addr_error(input, "zone must be a non-empty string", ""));
            }
            (&input[..i], zone)
        }
        None => (input, ""),
    };
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.starts_with("::") {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Ok(Addr::V6(ip, zone.into()));
        }
    }
    let mut i = 0usize;
    while i < 16 {
        let b = s.as_bytes();
        let mut off = 0;
        let mut acc: u32 = 0;
        while off < b.len() {
            let Some(d) = (b[off] as char).to_digit(16) else {
                break;
            };
            acc = (acc << 4) + d;
            if off > 3 {
                return Err(addr_error(
                    input,
                    "each group must have 4 or less digits",
                    s,
                ));
            }
            if acc > 0xffff {
                return Err(addr_error(input, "IPv6 field has value >=2^16", s));
            }
            off += 1;
        }
        if off == 0 {
            return Err(addr_error(
                input,
                "each colon-separated field must have at least one digit",
                s,
            ));
        }
        if off < b.len() && b[off] == b'.' {
            if ellipsis.is_none() && i != 12 {
                return Err(addr_error(
                    input,
                    "embedded IPv4 address must replace the final 2 fields of the address",
                    s,
                ));
            }
            if i + 4 > 16 {
                return Err(addr_error(
                    input,
                    "too many hex fields to fit an embedded IPv4 at the end of the address",
                    s,
                ));
            }
            let v4 = parse_v4_fields(input, s)?;
            ip[i..i + 4].copy_from_slice(&v4);
            s = "";
            i += 4;
            break;
        }
        ip[i] = (acc >> 8) as u8;
        ip[i + 1] = acc as u8;
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if !s.starts_with(':') {
            return Err(addr_error(input, "unexpected character, want colon", s));
        } else if s.len() == 1 {
            return Err(addr_error(
                input,
                "colon must be followed by more characters",
                s,
            ));
        }
        s = &s[1..];
        if s.starts_with(':') {
            if ellipsis.is_some() {
                return Err(addr_error(input, "multiple :: in address", s));
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return Err(addr_error(input, "trailing garbage after address", s));
    }
    if i < 16 {
        let Some(e) = ellipsis else {
            return Err(addr_error(input, "address string too short", ""));
        };
        let n = 16 - i;
        ip.copy_within(e..i, e + n);
        ip[e..e + n].fill(0);
    } else if ellipsis.is_some() {
        return Err(addr_error(
            input,
            "the :: must expand to at least one field of zeros",
            "",
        ));
    }
    Ok(Addr::V6(ip, zone.into()))
}

/// The library's `parseIPAddr`: `netip.ParseAddr`, refusing zones and IPv4-mapped
/// addresses.
pub fn parse_ip(raw: &str) -> Result<Addr, String> {
    let addr = parse_addr(raw).map_err(|e| {
        format!(
            "IP Address {} parse error during conversion from string: {e}",
            go_quote(raw)
        )
    })?;
    if !addr.zone().is_empty() {
        return Err(format!(
            "IP address {} with zone value is not allowed",
            go_quote(raw)
        ));
    }
    if addr.is_4in6() {
        return Err(format!(
            "IPv4-mapped IPv6 address {} is not allowed",
            go_quote(raw)
        ));
    }
    Ok(addr)
}

/// A `net.IP` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ip(pub Addr);

impl Opaque for Ip {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    fn equals(&self, other: &dyn Opaque) -> bool {
        other
            .as_any()
            .downcast_ref::<Ip>()
            .is_some_and(|o| o == self)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn equal_error(&self, other: &Value) -> Option<Error> {
        match opaque::<Ip>(other) {
            Some(_) => None,
            None => equal_no_such_overload(),
        }
    }
}

/// `ip(s)` as the library does it: the value, or its error.
pub fn string_to_ip(s: &str) -> Result<Value, Error> {
    let addr = parse_ip(s).map_err(Error::new)?;
    Ok(Value::Opaque(Arc::new(Ip(addr))))
}

/// The library's functions.
pub fn functions() -> Vec<Function> {
    let ip = || Type::opaque(TYPE_NAME);
    let test = |name: &str, id: &str, f: fn(&Addr) -> bool| {
        Function::new(name).member(id, vec![ip()], Type::Bool, move |args| {
            Ok(Value::Bool(f(&opaque_arg::<Ip>(args, 0)?.0)))
        })
    };
    vec![
        Function::new("ip").global("string_to_ip", vec![Type::String], ip(), |args| {
            string_to_ip(str_arg(args, 0)?)
        }),
        Function::new("family").member("ip_family", vec![ip()], Type::Int, |args| {
            Ok(Value::Int(match opaque_arg::<Ip>(args, 0)?.0 {
                Addr::V4(_) => 4,
                Addr::V6(..) => 6,
            }))
        }),
        Function::new("ip.isCanonical").global(
            "ip_is_canonical",
            vec![Type::String],
            Type::Bool,
            |args| {
                let s = str_arg(args, 0)?;
                let addr = parse_ip(s).map_err(Error::new)?;
                Ok(Value::Bool(addr.to_go_string() == s))
            },
        ),
        test("isUnspecified", "ip_is_unspecified", Addr::is_unspecified),
        test("isLoopback", "ip_is_loopback", Addr::is_loopback),
        test(
            "isLinkLocalMulticast",
            "ip_is_link_local_multicast",
            Addr::is_link_local_multicast,
        ),
        test(
            "isLinkLocalUnicast",
            "ip_is_link_local_unicast",
            Addr::is_link_local_unicast,
        ),
        test(
            "isGlobalUnicast",
            "ip_is_global_unicast",
            Addr::is_global_unicast,
        ),
        Function::new("isIP").global("is_ip", vec![Type::String], Type::Bool, |args| {
            Ok(Value::Bool(parse_ip(str_arg(args, 0)?).is_ok()))
        }),
        Function::new("string").global("ip_to_string", vec![ip()], Type::String, |args| {
            Ok(Value::string(&opaque_arg::<Ip>(args, 0)?.0.to_go_string()))
        }),
    ]
}
