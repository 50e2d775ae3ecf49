//! `github.com/apparentlymart/go-cidr` v1.1.0 (what function-hcl vendors), with its quirks:
//! `HostBig` and `SubnetBig` look only at the low 64 bits of the number when checking its
//! range, and an address that outgrows its length is Go's index-out-of-range panic.

use super::ipaddr::{Ip, IpNet, cidr_mask, ip_equal, ip_mask, ipv4_zero, mask_size, to4};
use num_bigint::{BigInt, Sign};
use num_traits::{One, Zero};

/// The panic `intToIP` raises when the number has more bytes than the address.
pub(super) const INDEX_PANIC: &str =
    "panic in function implementation: runtime error: index out of range [-1]";

/// Go's `big.Int.Uint64`: the low 64 bits of the magnitude.
fn low64(n: &BigInt) -> u64 {
    n.magnitude().iter_u64_digits().next().unwrap_or(0)
}

/// A subnet number as go-cidr takes it (a `*big.Int`): a machine word for any whole number
/// from 0 to 2^63 (every real one, and no big integer built for it), else the big integer.
#[derive(Clone, Copy, Debug)]
pub(super) enum NetNum<'a> {
    Word(u64),
    Big(&'a BigInt),
}

impl NetNum<'_> {
    fn is_negative(&self) -> bool {
        matches!(self, NetNum::Big(n) if n.sign() == Sign::Minus)
    }

    fn is_zero(&self) -> bool {
        // Zero is the only number of no bits, as a word and as a big integer.
        self.bits() == 0
    }

    fn low64(&self) -> u64 {
        match self {
            NetNum::Word(w) => *w,
            NetNum::Big(n) => low64(n),
        }
    }

    fn bits(&self) -> u64 {
        match self {
            NetNum::Word(w) => u64::from(u64::BITS - w.leading_zeros()),
            NetNum::Big(n) => n.bits(),
        }
    }

    fn to_u128(self) -> Option<u128> {
        match self {
            NetNum::Word(w) => Some(u128::from(w)),
            NetNum::Big(n) => num_traits::ToPrimitive::to_u128(n),
        }
    }

    fn to_big(self) -> BigInt {
        match self {
            NetNum::Word(w) => BigInt::from(w),
            NetNum::Big(n) => n.clone(),
        }
    }
}

impl std::fmt::Display for NetNum<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetNum::Word(w) => write!(f, "{w}"),
            NetNum::Big(n) => write!(f, "{n}"),
        }
    }
}

/// The length in bits of an address, or the panic `ipToInt` raises for any other length.
fn address_bits(ip: &[u8]) -> Result<i64, String> {
    match ip.len() {
        4 => Ok(32),
        16 => Ok(128),
        n => Err(format!(
            "panic in function implementation: Unsupported address length {n}"
        )),
    }
}

fn ip_to_int(ip: &[u8]) -> Result<(BigInt, i64), String> {
    let bits = address_bits(ip)?;
    Ok((BigInt::from_bytes_be(Sign::Plus, ip), bits))
}

fn int_to_ip(n: &BigInt, bits: i64) -> Result<Ip, String> {
    let bytes = if n.is_zero() {
        Vec::new()
    } else {
        n.magnitude().to_bytes_be()
    };
    let len = (bits / 8) as usize;
    if bytes.len() > len {
        return Err(INDEX_PANIC.into());
    }
    let mut ret = Ip::zeroed(len);
    ret[len - bytes.len()..].copy_from_slice(&bytes);
    Ok(ret)
}

fn insert_num_into_ip(ip: &[u8], num: NetNum, prefix_len: i64) -> Result<Ip, String> {
    let total_bits = address_bits(ip)?;
    if num.is_zero() {
        return int_to_ip(&ip_to_int(ip)?.0, total_bits);
    }
    let shift = total_bits.wrapping_sub(prefix_len);
    // Go shifts by uint(shift); a shift past the address length can only overflow it.
    if !(0..=total_bits).contains(&shift) {
        return Err(INDEX_PANIC.into());
    }
    // The big integer only when 128 bits cannot hold the result.
    if let Some(ip) = insert_small(ip, num, shift as u32, total_bits) {
        return ip;
    }
    let (ip_int, _) = ip_to_int(ip)?;
    let shifted = num.to_big() << (shift as u64);
    int_to_ip(&(ip_int | shifted), total_bits)
}

/// [`insert_num_into_ip`] in 128-bit arithmetic, for a non-negative `num` that fits there once
/// shifted (every real subnet or host number): the same address or error without big
/// integers. `None` when the number is too large for it.
fn insert_small(ip: &[u8], num: NetNum, shift: u32, total_bits: i64) -> Option<Result<Ip, String>> {
    if num.is_negative() || num.bits() + u64::from(shift) > 128 {
        return None;
    }
    let num = num.to_u128()? << shift;
    let len = ip.len();
    let mut bytes = [0u8; 16];
    bytes[16 - len..].copy_from_slice(ip);
    let value = u128::from_be_bytes(bytes) | num;
    // `int_to_ip`: a value longer than the address is Go's index panic.
    if total_bits < 128 && value >> total_bits != 0 {
        return Some(Err(INDEX_PANIC.into()));
    }
    Some(Ok(Ip::from_slice(&value.to_be_bytes()[16 - len..])))
}

/// `cidr.HostBig`.
pub(super) fn host_big(base: &IpNet, num: &BigInt) -> Result<Ip, String> {
    let (parent_len, addr_len) = mask_size(&base.mask);
    let host_len = addr_len - parent_len;
    let max_host: BigInt = (BigInt::one() << host_len as u64) - 1;
    let mut num = num.clone();
    let mut num_u64 = BigInt::from(low64(&num) as i64);
    if num.sign() == Sign::Minus {
        num_u64 = -&num - 1;
        num = &max_host - &num_u64;
    }
    if num_u64 > max_host {
        return Err(format!(
            "prefix of {parent_len} does not accommodate a host numbered {num}"
        ));
    }
    let bitlength = if to4(&base.ip).is_some() { 32 } else { 128 };
    insert_num_into_ip(&base.ip, NetNum::Big(&num), bitlength)
}

/// `cidr.SubnetBig`. One deliberate difference from v1.1.0: a negative `num`, which v1.1.0
/// folds into the prefix bits (`cidrsubnet("10.0.0.0/8", 8, -1)` is `0.1.0.0/16`), is refused
/// with go-cidr v1.1.1's message, as the expression oracle (built with v1.1.1) and the
/// conformance vectors have it.
pub(super) fn subnet_big(base: &IpNet, new_bits: i64, num: NetNum) -> Result<IpNet, String> {
    let (parent_len, addr_len) = mask_size(&base.mask);
    let new_prefix_len = parent_len.wrapping_add(new_bits);
    if new_prefix_len > addr_len {
        return Err(format!(
            "insufficient address space to extend prefix of {parent_len} by {new_bits}"
        ));
    }
    // Go: uint64(1<<uint64(newBits)) - 1, where a shift of 64 or more (or a negative count
    // seen as unsigned) gives 0.
    let shift = new_bits as u64;
    let max_net_num = if shift < 64 { 1u64 << shift } else { 0 }.wrapping_sub(1);
    if num.is_negative() {
        return Err("subnet number must not be negative".into());
    }
    if num.low64() > max_net_num {
        return Err(format!(
            "prefix extension of {new_bits} does not accommodate a subnet numbered {num}"
        ));
    }
    Ok(IpNet {
        ip: insert_num_into_ip(&base.ip, num, new_prefix_len)?,
        mask: cidr_mask(new_prefix_len, addr_len),
    })
}

/// `cidr.AddressRange`: the first and last addresses.
fn address_range(network: &IpNet) -> Result<(Ip, Ip), String> {
    let first = network.ip;
    let (prefix_len, bits) = mask_size(&network.mask);
    if prefix_len == bits {
        return Ok((first, first));
    }
    let (first_int, bits) = ip_to_int(&first)?;
    let host_len = bits - prefix_len;
    if host_len < 0 {
        return Err(INDEX_PANIC.into());
    }
    let last: BigInt = ((BigInt::one() << host_len as u64) - 1) | first_int;
    Ok((first, int_to_ip(&last, bits)?))
}

/// `checkIPv4`: the 4-byte form of an IPv4 address.
fn check_ipv4(ip: &[u8]) -> Ip {
    Ip::from_slice(to4(ip).unwrap_or(ip))
}

fn inc(ip: &[u8]) -> Ip {
    let mut ip = check_ipv4(ip);
    for b in ip.iter_mut().rev() {
        *b = b.wrapping_add(1);
        if *b > 0 {
            break;
        }
    }
    ip
}

fn dec(ip: &[u8]) -> Ip {
    let mut ip = check_ipv4(ip);
    for b in ip.iter_mut().rev() {
        *b = b.wrapping_sub(1);
        if *b < 255 {
            break;
        }
    }
    ip
}

fn is_zero_address(ip: &[u8]) -> bool {
    ip_equal(ip, &ipv4_zero()) || ip_equal(ip, &[0u8; 16])
}

/// `cidr.PreviousSubnet` (the rollover flag is not needed).
pub(super) fn previous_subnet(network: &IpNet, prefix_len: i64) -> IpNet {
    let start = check_ipv4(&network.ip);
    let mask = cidr_mask(prefix_len, 8 * start.len() as i64);
    IpNet {
        ip: ip_mask(&dec(&start), &mask),
        mask,
    }
}

/// `cidr.NextSubnet`: the next subnet of a prefix length, and whether the address rolled over.
pub(super) fn next_subnet(network: &IpNet, prefix_len: i64) -> Result<(IpNet, bool), String> {
    let (_, current_last) = address_range(network)?;
    let mask = cidr_mask(prefix_len, 8 * current_last.len() as i64);
    let current = IpNet {
        ip: ip_mask(&current_last, &mask),
        mask,
    };
    let (_, last) = address_range(&current)?;
    let last = inc(&last);
    let rollover = is_zero_address(&last);
    Ok((
        IpNet {
            ip: ip_mask(&last, &mask),
            mask,
        },
        rollover,
    ))
}

#[cfg(test)]
mod tests {
    use super::super::ipaddr::{ip_string, parse_cidr};
    use super::*;

    fn host(prefix: &str, n: &str) -> Result<String, String> {
        host_big(&parse_cidr(prefix)?, &n.parse().unwrap()).map(|ip| ip_string(&ip))
    }

    fn subnet(prefix: &str, bits: i64, n: &str) -> Result<String, String> {
        let big: BigInt = n.parse().unwrap();
        let by_big =
            subnet_big(&parse_cidr(prefix)?, bits, NetNum::Big(&big)).map(|n| n.to_string());
        // A word takes the same path to the same subnet or error.
        if let Ok(word) = u64::try_from(&big) {
            let by_word =
                subnet_big(&parse_cidr(prefix)?, bits, NetNum::Word(word)).map(|n| n.to_string());
            assert_eq!(by_word, by_big, "{prefix} {bits} {n}");
        }
        by_big
    }

    #[test]
    fn small_numbers_insert_as_big_ones_do() {
        // The 128-bit path against the big-integer one it stands in for.
        let big = |ip: &[u8], num: &BigInt, prefix: i64| {
            let (ip_int, bits) = ip_to_int(ip)?;
            int_to_ip(&(ip_int | (num << (bits - prefix) as u64)), bits)
        };
        let v4 = parse_cidr("10.0.0.0/8").unwrap().ip;
        let v6 = parse_cidr("fd00::/8").unwrap().ip;
        for (ip, prefix) in [
            (&v4, 24),
            (&v4, 32),
            (&v4, 9),
            (&v4, 0),
            (&v6, 64),
            (&v6, 128),
            (&v6, 1),
        ] {
            for n in [
                "1",
                "3999",
                "65535",
                "4294967295",
                "4294967296",
                "18446744073709551616",
            ] {
                let num: BigInt = n.parse().unwrap();
                let bits = if ip.len() == 4 { 32 } else { 128 };
                let shift = (bits - prefix) as u32;
                let Some(fast) = insert_small(ip, NetNum::Big(&num), shift, bits) else {
                    continue;
                };
                assert_eq!(fast, big(ip, &num, prefix), "{n} into {ip:?}/{prefix}");
                if let Ok(word) = u64::try_from(&num) {
                    let by_word = insert_small(ip, NetNum::Word(word), shift, bits);
                    assert_eq!(by_word, Some(fast), "{n} as a word into {ip:?}/{prefix}");
                }
            }
        }
        assert!(insert_small(&v6, NetNum::Big(&BigInt::from(2)), 127, 128).is_none());
        assert!(insert_small(&v6, NetNum::Word(2), 127, 128).is_none());
        assert!(insert_small(&v4, NetNum::Big(&BigInt::from(-1)), 8, 32).is_none());
    }

    #[test]
    fn hosts() {
        assert_eq!(host("192.168.1.0/24", "-5"), Ok("192.168.1.251".into()));
        assert_eq!(
            host("::/0", "-1"),
            Ok("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff".into())
        );
        assert_eq!(
            host("fd00:fd12:3456:7890:00a2::/72", "34"),
            Ok("fd00:fd12:3456:7890::22".into())
        );
        // The message shows the number after go-cidr rewrote a negative one.
        assert_eq!(
            host("192.168.1.0/30", "-255"),
            Err("prefix of 30 does not accommodate a host numbered -251".into())
        );
        // v1.1.0 checks only the low 64 bits, read as an int64.
        assert_eq!(
            host("fe80::/65", "9223372036854775808"),
            Ok("fe80::8000:0:0:0".into())
        );
        assert_eq!(
            host("10.0.0.0/8", "18446744073709551616"),
            Err(INDEX_PANIC.into())
        );
        // An IPv4-mapped network counts host bits from the top of the 128-bit address.
        assert_eq!(
            host("::ffff:192.168.0.0/112", "5"),
            Ok("0:5::ffff:c0a8:0".into())
        );
    }

    #[test]
    fn subnets() {
        assert_eq!(subnet("fe80::/48", 16, "6"), Ok("fe80:0:0:6::/64".into()));
        assert_eq!(subnet("fe80::/48", 33, "6"), Ok("fe80::3:0:0:0/81".into()));
        assert_eq!(
            subnet("fd00:fd12:3456:7890::/56", 16, "162"),
            Ok("fd00:fd12:3456:7800:a200::/72".into())
        );
        assert_eq!(
            subnet("::ffff:192.168.0.0/112", 8, "6"),
            Ok("192.168.6.0/24".into())
        );
        assert_eq!(subnet("10.0.0.0/8", -1, "2"), Ok("14.0.0.0/7".into()));
        assert_eq!(subnet("10.0.0.0/8", -9, "0"), Ok("<nil>".into()));
        assert_eq!(
            subnet("fe80::/32", 64, "18446744073709551616"),
            Ok("fe80:1::/96".into())
        );
        assert_eq!(
            subnet("10.0.0.0/8", 8, "256"),
            Err("prefix extension of 8 does not accommodate a subnet numbered 256".into())
        );
        assert_eq!(
            subnet("10.0.0.0/8", 8, "-1"),
            Err("subnet number must not be negative".into())
        );
        assert_eq!(
            subnet("192.168.0.0/30", 4, "6"),
            Err("insufficient address space to extend prefix of 30 by 4".into())
        );
    }

    #[test]
    fn consecutive_subnets() {
        let base = parse_cidr("10.1.0.0/16").unwrap();
        let mut current = previous_subnet(&base, 20);
        let mut got = Vec::new();
        for len in [20, 20, 24, 20] {
            let (next, rollover) = next_subnet(&current, len).unwrap();
            assert!(!rollover && base.contains(&next.ip));
            current = next;
            got.push(current.to_string());
        }
        assert_eq!(
            got,
            [
                "10.1.0.0/20",
                "10.1.16.0/20",
                "10.1.32.0/24",
                "10.1.48.0/20"
            ]
        );
        let all = parse_cidr("0.0.0.0/0").unwrap();
        let (_, rollover) = next_subnet(&parse_cidr("255.0.0.0/8").unwrap(), 8).unwrap();
        assert!(rollover);
        assert!(previous_subnet(&all, 1).to_string() == "128.0.0.0/1");
    }
}
