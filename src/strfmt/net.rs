//! The network formats as strfmt checks them: `ipv4` and `cidr` with k8s.io/utils' "sloppy"
//! parsers (Go 1.16's `net.ParseIP`, leading zeros read as decimal), `ipv6` with today's Go
//! `net.ParseIP`, `mac` with Go's `net.ParseMAC`, `uri` with Go's `url.ParseRequestURI`.

use std::net::{IpAddr, Ipv6Addr};

/// Go 1.16's `dtoi`: leading decimal digits, failing at 0xFFFFFF or with none.
fn dtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        n = n * 10 + u32::from(s[i] - b'0');
        if n >= 0xFF_FFFF {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// Go 1.16's `xtoi`: leading hex digits (any number of them), failing at 0xFFFFFF or with none.
fn xtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() {
        let Some(d) = (s[i] as char).to_digit(16) else {
            break;
        };
        n = n * 16 + d;
        if n >= 0xFF_FFFF {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// Go 1.16's `parseIPv4`: four decimal fields of at most 255, leading zeros allowed.
fn sloppy_ipv4(mut s: &[u8]) -> bool {
    for i in 0..4 {
        if s.is_empty() {
            return false;
        }
        if i > 0 {
            if s[0] != b'.' {
                return false;
            }
            s = &s[1..];
        }
        match dtoi(s) {
            Some((n, c)) if n <= 0xFF => s = &s[c..],
            _ => return false,
        }
    }
    s.is_empty()
}

/// Go 1.16's `parseIPv6`: hex groups, one `::`, an IPv4 tail (sloppy) in the last 32 bits.
fn sloppy_ipv6(mut s: &[u8]) -> bool {
    const LEN: usize = 16;
    let mut ellipsis = false;
    if s.starts_with(b"::") {
        ellipsis = true;
        s = &s[2..];
        if s.is_empty() {
            return true;
        }
    }
    let mut i = 0;
    while i < LEN {
        let Some((n, c)) = xtoi(s) else {
            return false;
        };
        if n > 0xFFFF {
            return false;
        }
        if c < s.len() && s[c] == b'.' {
            if (!ellipsis && i != LEN - 4) || i + 4 > LEN || !sloppy_ipv4(s) {
                return false;
            }
            s = &[];
            i += 4;
            break;
        }
        i += 2;
        s = &s[c..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' || s.len() == 1 {
            return false;
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis {
                return false;
            }
            ellipsis = true;
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return false;
    }
    // a full address must not also have `::`; a short one must
    if i < LEN { ellipsis } else { !ellipsis }
}

/// k8s.io/utils' `ParseIPSloppy`: IPv4 or IPv6 by whichever of `.` and `:` comes first.
pub(super) fn sloppy_ip(value: &str) -> bool {
    let s = value.as_bytes();
    match s.iter().find(|&&c| c == b'.' || c == b':') {
        Some(b'.') => sloppy_ipv4(s),
        Some(_) => sloppy_ipv6(s),
        None => false,
    }
}

/// k8s.io/utils' `ParseCIDRSloppy`: an address (IPv4 tried first), `/`, and a decimal prefix
/// length (leading zeros allowed) within the address's bits.
pub(super) fn sloppy_cidr(value: &str) -> bool {
    let Some((addr, mask)) = value.split_once('/') else {
        return false;
    };
    let bits = if sloppy_ipv4(addr.as_bytes()) {
        32
    } else if sloppy_ipv6(addr.as_bytes()) {
        128
    } else {
        return false;
    };
    matches!(dtoi(mask.as_bytes()), Some((n, i)) if i == mask.len() && n <= bits)
}

/// Go's `net.ParseIP` (Go 1.22 and later, through `netip`): no leading zeros in IPv4 fields, no
/// IPv6 zone. Rust's parsers have the same grammar.
pub(super) fn go_ip(value: &str) -> bool {
    value.parse::<IpAddr>().is_ok()
}

/// Go's `net.ParseMAC`: 6, 8 or 20 bytes as `xx:xx:…` or `xx-xx-…` (one separator throughout)
/// or `xxxx.xxxx.…`.
pub(super) fn mac(value: &str) -> bool {
    let s = value.as_bytes();
    if s.len() < 14 {
        return false;
    }
    let hex2 = |p: &[u8]| p.len() == 2 && p.iter().all(u8::is_ascii_hexdigit);
    let count_ok = |n: usize| n == 6 || n == 8 || n == 20;
    if s[2] == b':' || s[2] == b'-' {
        if (s.len() + 1) % 3 != 0 || !count_ok((s.len() + 1) / 3) {
            return false;
        }
        s.chunks(3)
            .all(|c| hex2(&c[..2]) && (c.len() == 2 || c[2] == s[2]))
    } else if s[4] == b'.' {
        if (s.len() + 1) % 5 != 0 || !count_ok(2 * (s.len() + 1) / 5) {
            return false;
        }
        s.chunks(5)
            .all(|c| hex2(&c[..2]) && hex2(&c[2..4]) && (c.len() == 4 || c[4] == b'.'))
    } else {
        false
    }
}

/// Go's `url.ParseRequestURI` (Go 1.25): no control bytes; `*`; or a scheme and anything, or a
/// path from `/`; an authority after `scheme://` with a valid host and port; `%` escapes
/// well formed.
pub(super) fn request_uri(value: &str) -> bool {
    if value.bytes().any(|b| b < 0x20 || b == 0x7f) || value.is_empty() {
        return false;
    }
    if value == "*" {
        return true;
    }
    let (scheme, rest) = match scheme(value) {
        Ok(split) => split,
        Err(()) => return false,
    };
    let rest = match rest.strip_suffix('?') {
        Some(r) if rest.matches('?').count() == 1 => r,
        _ => rest.split_once('?').map_or(rest, |(path, _)| path),
    };
    if !rest.starts_with('/') {
        // a scheme and an opaque rest; without a scheme, a request URI is a path
        return !scheme.is_empty();
    }
    let mut path = rest;
    if !scheme.is_empty()
        && let Some(after) = rest.strip_prefix("//")
    {
        let (authority, tail) = after.find('/').map_or((after, ""), |i| after.split_at(i));
        if !authority_ok(authority) {
            return false;
        }
        path = tail;
    }
    unescape_ok(path, Mode::Other)
}

/// Go's `getScheme`: letters, then letters, digits, `+ - .` up to a `:`. A leading `:` is an
/// error; anything else without a scheme leaves the whole text as the rest.
fn scheme(value: &str) -> Result<(&str, &str), ()> {
    for (i, c) in value.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err(()),
            b':' => return Ok((&value[..i], &value[i + 1..])),
            _ => return Ok(("", value)),
        }
    }
    Ok(("", value))
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Host,
    Zone,
    Other,
}

/// Go's `shouldEscape` for a host or zone byte (ASCII).
fn host_byte_ok(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"!$&'()*+,;=:[]<>\"-_.~".contains(&c)
}

/// Go's `unescape` as a check: every `%` starts two hex digits; in a host only bytes from 0x80
/// (and `%25`) may be escaped and the ASCII bytes are those a host allows.
fn unescape_ok(s: &str, mode: Mode) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if i + 2 >= b.len() || !b[i + 1].is_ascii_hexdigit() || !b[i + 2].is_ascii_hexdigit() {
                return false;
            }
            let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
            let escaped = &b[i..i + 3];
            if mode == Mode::Host && hex(b[i + 1]) < 8 && escaped != b"%25" {
                return false;
            }
            if mode == Mode::Zone {
                let v = hex(b[i + 1]) << 4 | hex(b[i + 2]);
                if escaped != b"%25" && v != b' ' && !(v < 0x80 && host_byte_ok(v)) {
                    return false;
                }
            }
            i += 3;
        } else {
            if mode != Mode::Other && b[i] < 0x80 && !host_byte_ok(b[i]) {
                return false;
            }
            i += 1;
        }
    }
    true
}

/// Go's `parseAuthority`: optional user information before the last `@`, then the host.
fn authority_ok(authority: &str) -> bool {
    let host = match authority.rfind('@') {
        Some(i) => {
            let user = &authority[..i];
            let user_ok = user
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(c));
            if !user_ok || !user.split(':').all(|part| unescape_ok(part, Mode::Other)) {
                return false;
            }
            &authority[i + 1..]
        }
        None => authority,
    };
    host_ok(host)
}

/// Go's `validOptionalPort`: empty, or `:` and digits.
fn port_ok(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|digits| digits.bytes().all(|c| c.is_ascii_digit()))
}

/// Go 1.25's `parseHost` (with the 1.25.2 rule for brackets): `[IPv6]` with an optional
/// `%25` zone and port, no `[` anywhere else; or a name whose last `:` starts a port.
fn host_ok(host: &str) -> bool {
    match host.rfind('[') {
        Some(0) => {}
        Some(_) => return false,
        None => {
            if let Some(colon) = host.rfind(':')
                && !port_ok(&host[colon..])
            {
                return false;
            }
            return unescape_ok(host, Mode::Host);
        }
    }
    let Some(close) = host.rfind(']') else {
        return false;
    };
    let port = &host[close + 1..];
    if !port_ok(port) || !unescape_ok(port, Mode::Host) {
        return false;
    }
    let name = &host[1..close];
    let escapes_ok = match name.find("%25") {
        Some(z) => unescape_ok(&name[..z], Mode::Host) && unescape_ok(&name[z..], Mode::Zone),
        None => unescape_ok(name, Mode::Host),
    };
    // only an IPv6 address (IPv4-mapped included, with a non-empty zone) may be bracketed
    let text = percent_decoded(name);
    let (address, zone) = match text.iter().position(|&b| b == b'%') {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (&text[..], None),
    };
    escapes_ok
        && zone.is_none_or(|z| !z.is_empty())
        && std::str::from_utf8(address).is_ok_and(|a| a.parse::<Ipv6Addr>().is_ok())
}

/// The bytes `%XX` escapes stand for (the escapes already checked).
fn percent_decoded(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(high), Some(low)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push((high * 16 + low) as u8);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}
