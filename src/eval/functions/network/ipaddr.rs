//! Go's `net.IP` and `net.IPNet` as bytes held inline (4 or 16; none is Go's nil), with
//! Terraform's `ipaddr` parser: Go's pre-1.17 `net.ParseCIDR`, which accepts IPv4 octets
//! with leading zeros (`010.001.0.0/24`), read as decimal.

use crate::gostd::strconv::push_uint;

/// An IP address or mask (Go's `net.IP`, `net.IPMask`): 4 or 16 bytes, or empty for nil.
/// Held inline, not on the heap: a `cidrsubnet` call makes half a dozen.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Ip {
    len: u8,
    bytes: [u8; 16],
}

impl Ip {
    /// Go's nil.
    pub const fn nil() -> Ip {
        Ip {
            len: 0,
            bytes: [0; 16],
        }
    }

    /// `len` zero bytes (at most 16).
    pub fn zeroed(len: usize) -> Ip {
        debug_assert!(len <= 16);
        Ip {
            len: len.min(16) as u8,
            bytes: [0; 16],
        }
    }

    /// A copy of `bytes` (at most 16; addresses and masks are 4 or 16).
    pub fn from_slice(bytes: &[u8]) -> Ip {
        let mut ip = Ip::zeroed(bytes.len());
        let len = usize::from(ip.len);
        ip.bytes[..len].copy_from_slice(&bytes[..len]);
        ip
    }
}

impl std::ops::Deref for Ip {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

impl std::ops::DerefMut for Ip {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.bytes[..usize::from(self.len)]
    }
}

impl std::fmt::Debug for Ip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Go's `net.IPNet`: an address and a mask (empty for nil).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct IpNet {
    pub ip: Ip,
    pub mask: Ip,
}

const V4_IN_V6_PREFIX: [u8; 12] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];
const BIG: i64 = 0xFF_FFFF;

/// Decimal to integer: (value, bytes consumed, ok).
fn dtoi(s: &[u8]) -> (i64, usize, bool) {
    let mut n: i64 = 0;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        n = n * 10 + i64::from(s[i] - b'0');
        if n >= BIG {
            return (BIG, i, false);
        }
        i += 1;
    }
    if i == 0 {
        return (0, 0, false);
    }
    (n, i, true)
}

/// Hexadecimal to integer: (value, bytes consumed, ok).
fn xtoi(s: &[u8]) -> (i64, usize, bool) {
    let mut n: i64 = 0;
    let mut i = 0;
    while i < s.len() {
        let d = match s[i] {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'a'..=b'f' => c - b'a' + 10,
            c @ b'A'..=b'F' => c - b'A' + 10,
            _ => break,
        };
        n = n * 16 + i64::from(d);
        if n >= BIG {
            return (0, i, false);
        }
        i += 1;
    }
    if i == 0 {
        return (0, i, false);
    }
    (n, i, true)
}

/// `d.d.d.d` as a 16-byte IPv4-in-IPv6 address; leading zeros allowed.
fn parse_ipv4(mut s: &[u8]) -> Option<[u8; 16]> {
    let mut p = [0u8; 4];
    for (i, octet) in p.iter_mut().enumerate() {
        if s.is_empty() {
            return None;
        }
        if i > 0 {
            if s[0] != b'.' {
                return None;
            }
            s = &s[1..];
        }
        let (n, c, ok) = dtoi(s);
        if !ok || n > 0xFF {
            return None;
        }
        s = &s[c..];
        *octet = n as u8;
    }
    if !s.is_empty() {
        return None;
    }
    let mut ip = [0u8; 16];
    ip[..12].copy_from_slice(&V4_IN_V6_PREFIX);
    ip[12..].copy_from_slice(&p);
    Some(ip)
}

/// An RFC 4291 IPv6 literal, possibly with a trailing IPv4 part.
fn parse_ipv6(mut s: &[u8]) -> Option<[u8; 16]> {
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.len() >= 2 && s[0] == b':' && s[1] == b':' {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Some(ip);
        }
    }
    let mut i = 0;
    while i < 16 {
        let (n, c, ok) = xtoi(s);
        if !ok || n > 0xFFFF {
            return None;
        }
        if c < s.len() && s[c] == b'.' {
            if ellipsis.is_none() && i != 12 {
                return None;
            }
            if i + 4 > 16 {
                return None;
            }
            let ip4 = parse_ipv4(s)?;
            ip[i..i + 4].copy_from_slice(&ip4[12..]);
            s = &[];
            i += 4;
            break;
        }
        ip[i] = (n >> 8) as u8;
        ip[i + 1] = n as u8;
        i += 2;
        s = &s[c..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' || s.len() == 1 {
            return None;
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return None;
    }
    if i < 16 {
        let e = ellipsis?;
        let n = 16 - i;
        for j in (e..i).rev() {
            ip[j + n] = ip[j];
        }
        for b in &mut ip[e..e + n] {
            *b = 0;
        }
    } else if ellipsis.is_some() {
        return None;
    }
    Some(ip)
}

/// Terraform's `ipaddr.ParseCIDR`: the network (address masked) of `a.b.c.d/n` or
/// `ipv6/n`; the error is Go's `*net.ParseError` text.
pub(super) fn parse_cidr(s: &str) -> Result<IpNet, String> {
    let err = || format!("invalid CIDR address: {s}");
    let bytes = s.as_bytes();
    let slash = bytes.iter().position(|&b| b == b'/').ok_or_else(err)?;
    let (addr, mask) = (&bytes[..slash], &bytes[slash + 1..]);
    let (ip, iplen) = match parse_ipv4(addr) {
        Some(ip) => (ip, 4),
        None => (parse_ipv6(addr).ok_or_else(err)?, 16),
    };
    let (n, i, ok) = dtoi(mask);
    if !ok || i != mask.len() || n < 0 || n > 8 * iplen {
        return Err(err());
    }
    let m = cidr_mask(n, 8 * iplen);
    Ok(IpNet {
        ip: ip_mask(&ip, &m),
        mask: m,
    })
}

/// Go's `net.CIDRMask`: empty (nil) unless `bits` is 32 or 128 and `0 <= ones <= bits`.
pub(super) fn cidr_mask(ones: i64, bits: i64) -> Ip {
    if bits != 32 && bits != 128 || ones < 0 || ones > bits {
        return Ip::nil();
    }
    let mut m = Ip::zeroed((bits / 8) as usize);
    let mut n = ones;
    for b in m.iter_mut() {
        if n >= 8 {
            *b = 0xff;
            n -= 8;
            continue;
        }
        *b = !(0xffu8 >> n);
        n = 0;
    }
    m
}

/// Go's `IPMask.Size`: (leading ones, total bits), or (0, 0) for a non-canonical mask.
pub(super) fn mask_size(mask: &[u8]) -> (i64, i64) {
    let mut n = 0;
    for (i, &v) in mask.iter().enumerate() {
        if v == 0xff {
            n += 8;
            continue;
        }
        let mut v = v;
        while v & 0x80 != 0 {
            n += 1;
            v <<= 1;
        }
        if v != 0 || mask[i + 1..].iter().any(|&b| b != 0) {
            return (0, 0);
        }
        break;
    }
    (n, mask.len() as i64 * 8)
}

/// Go's `IP.To4`.
pub(super) fn to4(ip: &[u8]) -> Option<&[u8]> {
    match ip.len() {
        4 => Some(ip),
        16 if ip[..12] == V4_IN_V6_PREFIX => Some(&ip[12..]),
        _ => None,
    }
}

/// Go's `IP.Mask`: empty (nil) when the lengths do not fit.
pub(super) fn ip_mask(ip: &[u8], mask: &[u8]) -> Ip {
    let mut mask = mask;
    let mut ip = ip;
    if mask.len() == 16 && ip.len() == 4 && mask[..12].iter().all(|&b| b == 0) {
        mask = &mask[12..];
    }
    if mask.len() == 4 && ip.len() == 16 && ip[..12] == V4_IN_V6_PREFIX {
        ip = &ip[12..];
    }
    if ip.len() != mask.len() {
        return Ip::nil();
    }
    let mut out = Ip::zeroed(ip.len());
    for (o, (a, m)) in out.iter_mut().zip(ip.iter().zip(mask)) {
        *o = a & m;
    }
    out
}

/// Go's `IP.Equal`.
pub(super) fn ip_equal(a: &[u8], b: &[u8]) -> bool {
    match (a.len(), b.len()) {
        (x, y) if x == y => a == b,
        (4, 16) => b[..12] == V4_IN_V6_PREFIX && a == &b[12..],
        (16, 4) => a[..12] == V4_IN_V6_PREFIX && &a[12..] == b,
        _ => false,
    }
}

/// Go's `net.IPv4zero` (16 bytes).
pub(super) fn ipv4_zero() -> Ip {
    let mut ip = Ip::zeroed(16);
    ip[..12].copy_from_slice(&V4_IN_V6_PREFIX);
    ip
}

/// Go's `IP.String`: dotted decimal for IPv4 (and IPv4-mapped) addresses, RFC 5952 for
/// IPv6, `<nil>` for nil.
pub(super) fn ip_string(ip: &[u8]) -> String {
    let mut out = String::with_capacity(15);
    push_ip(&mut out, ip);
    out
}

/// Appends [`ip_string`]'s text.
fn push_ip(out: &mut String, ip: &[u8]) {
    if ip.is_empty() {
        out.push_str("<nil>");
        return;
    }
    if ip.len() != 4 && ip.len() != 16 {
        out.push('?');
        for b in ip {
            out.push_str(&format!("{b:02x}"));
        }
        return;
    }
    if let Some(p4) = to4(ip) {
        // At most "255.255.255.255": written into a buffer, then appended at once.
        let mut text = [0u8; 15];
        let mut len = 0;
        for (i, &b) in p4.iter().enumerate() {
            if i > 0 {
                text[len] = b'.';
                len += 1;
            }
            if b >= 100 {
                text[len] = b'0' + b / 100;
                len += 1;
            }
            if b >= 10 {
                text[len] = b'0' + b / 10 % 10;
                len += 1;
            }
            text[len] = b'0' + b % 10;
            len += 1;
        }
        out.push_str(std::str::from_utf8(&text[..len]).unwrap_or_default());
        return;
    }
    let groups: Vec<u16> = ip
        .chunks(2)
        .map(|c| u16::from(c[0]) << 8 | u16::from(c[1]))
        .collect();
    // The longest run of two or more zero groups (the first of equal runs) becomes "::".
    let (mut zero_start, mut zero_end) = (usize::MAX, usize::MAX);
    let mut best = 0;
    for i in 0..8 {
        let mut j = i;
        while j < 8 && groups[j] == 0 {
            j += 1;
        }
        if j - i >= 2 && j - i > best {
            best = j - i;
            zero_start = i;
            zero_end = j;
        }
    }
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
        out.push_str(&format!("{:x}", groups[i]));
        i += 1;
    }
}

/// Go's `networkNumberAndMask`: the address (4 bytes for IPv4) and a mask of the same length.
fn network_number_and_mask(n: &IpNet) -> Option<(&[u8], &[u8])> {
    let ip = match to4(&n.ip) {
        Some(v4) => v4,
        None if n.ip.len() == 16 => &n.ip[..],
        None => return None,
    };
    let m = match n.mask.len() {
        4 if ip.len() != 4 => return None,
        4 => &n.mask[..],
        16 if ip.len() == 4 => &n.mask[12..],
        16 => &n.mask[..],
        _ => return None,
    };
    Some((ip, m))
}

impl IpNet {
    /// Go's `IPNet.Contains`.
    pub fn contains(&self, ip: &[u8]) -> bool {
        let Some((nn, m)) = network_number_and_mask(self) else {
            return false;
        };
        let ip = to4(ip).unwrap_or(ip);
        if ip.len() != nn.len() {
            return false;
        }
        (0..ip.len()).all(|i| nn[i] & m[i] == ip[i] & m[i])
    }
}

impl IpNet {
    /// Go's `IPNet.String`: `address/length`, `address/mask` for a non-canonical mask, or
    /// `<nil>` (also what `Display` writes).
    pub fn go_string(&self) -> String {
        let Some((nn, m)) = network_number_and_mask(self) else {
            return "<nil>".into();
        };
        let (ones, _) = mask_size(m);
        let canonical = !(ones == 0 && m.iter().any(|&b| b != 0));
        let mut out = String::with_capacity(19);
        push_ip(&mut out, nn);
        out.push('/');
        if canonical {
            // A prefix length counts bits: never negative.
            push_uint(&mut out, ones.unsigned_abs(), 10);
        } else {
            for b in m {
                out.push_str(&format!("{b:02x}"));
            }
        }
        out
    }
}

impl std::fmt::Display for IpNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.go_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net(s: &str) -> String {
        parse_cidr(s).map_or_else(|e| e, |n| n.to_string())
    }

    #[test]
    fn parses_and_prints_cidrs() {
        assert_eq!(net("010.001.0.0/24"), "10.1.0.0/24");
        assert_eq!(net("192.168.1.5/24"), "192.168.1.0/24");
        assert_eq!(net("255.255.255.255/32"), "255.255.255.255/32");
        assert_eq!(net("0.0.0.0/0"), "0.0.0.0/0");
        assert_eq!(net("100.99.9.0/31"), "100.99.9.0/31");
        assert_eq!(net("1.2.3.4/024"), "1.2.3.0/24");
        assert_eq!(net("fe80::1/48"), "fe80::/48");
        assert_eq!(net("::ffff:192.168.0.0/112"), "192.168.0.0/16");
        assert_eq!(net("::/0"), "::/0");
        assert_eq!(net("1:2:3:4:5:6:1.2.3.4/128"), "1:2:3:4:5:6:102:304/128");
        assert_eq!(net("1::2:3:4:5:6:7/128"), "1:0:2:3:4:5:6:7/128");
        assert_eq!(net("FE80::A/128"), "fe80::a/128");
        for b in 0..=255u8 {
            let text = format!("{b}.{}.{b}.{b}/32", 255 - b);
            assert_eq!(net(&text), text);
        }
        for bad in [
            "not-a-cidr",
            "10.256.0.0/8",
            "10.0.0.0/33",
            "1::/129",
            "1.2.3.4/0x",
            "1.2.3.4/",
            "1.2.3/8",
            "1::2:3:4:5:6:7:8/64",
            "1:2::3::4/64",
            "::1.2.3.4.5/64",
            "1.2.3.4/-1",
        ] {
            assert_eq!(net(bad), format!("invalid CIDR address: {bad}"), "{bad}");
        }
    }

    #[test]
    fn ipv6_text_is_rfc5952() {
        let p = |s: &str| ip_string(&parse_ipv6(s.as_bytes()).unwrap());
        assert_eq!(p("fe80:0:0:0:3:0:0:0"), "fe80::3:0:0:0");
        assert_eq!(p("0:0:1:0:0:0:1:0"), "0:0:1::1:0");
        assert_eq!(p("1:0:1:0:1:0:1:0"), "1:0:1:0:1:0:1:0");
        assert_eq!(p("::1.2.3.4"), "::102:304");
        assert_eq!(p("::ffff:1.2.3.4"), "1.2.3.4");
        assert_eq!(
            p("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00"),
            "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00"
        );
    }

    #[test]
    fn masks() {
        assert_eq!(&cidr_mask(20, 32)[..], [255, 255, 240, 0]);
        assert!(cidr_mask(33, 32).is_empty());
        assert_eq!(mask_size(&[255, 255, 240, 0]), (20, 32));
        assert_eq!(mask_size(&[255, 0, 255, 0]), (0, 0));
        assert_eq!(mask_size(&[]), (0, 0));
    }
}
