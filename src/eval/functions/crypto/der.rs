//! PKCS #1 and PKCS #8 private keys, with Go's `encoding/asn1` errors for malformed input.
//!
//! The `rsa` crate decodes well-formed keys. When it refuses one, the DER is walked here the
//! way Go's `asn1.Unmarshal` walks it into `x509`'s `pkcs1PrivateKey` struct, so the error is
//! the one Go reports (`data truncated`, `tags don't match (…)`, …), and keys Go accepts but
//! the crate does not (multi-prime keys) are built from the walked integers.

use super::{KeyError, RawKey, rsa_key};
use rsa::BigUint;
use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::pkcs8::DecodePrivateKey;

const TAG_INTEGER: usize = 2;
const TAG_OCTET_STRING: usize = 4;
const TAG_SEQUENCE: usize = 16;

/// Go's `tagAndLength`.
#[derive(Clone, Copy, Debug)]
struct Header {
    class: u8,
    tag: usize,
    length: usize,
    compound: bool,
}

fn syntax(msg: &str) -> KeyError {
    KeyError::Syntax(msg.into())
}

fn structure(msg: impl Into<String>) -> KeyError {
    KeyError::Structure(msg.into())
}

/// Go's `parseBase128Int` (high tag numbers).
fn base128(bytes: &[u8], mut offset: usize) -> Result<(usize, usize), KeyError> {
    let mut value: u64 = 0;
    let mut shifted = 0;
    while let Some(&b) = bytes.get(offset) {
        if shifted == 5 {
            return Err(structure("base 128 integer too large"));
        }
        if shifted == 0 && b == 0x80 {
            return Err(syntax("integer is not minimally encoded"));
        }
        value = (value << 7) | u64::from(b & 0x7f);
        offset += 1;
        shifted += 1;
        if b & 0x80 == 0 {
            if value > i32::MAX as u64 {
                return Err(structure("base 128 integer too large"));
            }
            return Ok((value as usize, offset));
        }
    }
    Err(syntax("truncated base 128 integer"))
}

/// Go's `parseTagAndLength` (called with at least one byte left).
fn header(bytes: &[u8], mut offset: usize) -> Result<(Header, usize), KeyError> {
    let first = bytes[offset];
    offset += 1;
    let mut tag = usize::from(first & 0x1f);
    if tag == 0x1f {
        (tag, offset) = base128(bytes, offset)?;
        if tag < 0x1f {
            return Err(syntax("non-minimal tag"));
        }
    }
    let Some(&b) = bytes.get(offset) else {
        return Err(syntax("truncated tag or length"));
    };
    offset += 1;
    let mut length = 0usize;
    if b & 0x80 == 0 {
        length = usize::from(b);
    } else {
        let count = usize::from(b & 0x7f);
        if count == 0 {
            return Err(syntax("indefinite length found (not DER)"));
        }
        for _ in 0..count {
            let Some(&b) = bytes.get(offset) else {
                return Err(syntax("truncated tag or length"));
            };
            offset += 1;
            if length >= 1 << 23 {
                return Err(structure("length too large"));
            }
            length = (length << 8) | usize::from(b);
            if length == 0 {
                return Err(structure("superfluous leading zeros in length"));
            }
        }
        if length < 0x80 {
            return Err(structure("non-minimal length"));
        }
    }
    let h = Header {
        class: first >> 6,
        tag,
        length,
        compound: first & 0x20 != 0,
    };
    Ok((h, offset))
}

/// What a struct field is, for Go's matching rules and its `tags don't match` message.
#[derive(Clone, Copy)]
enum Kind {
    /// A Go `int`.
    Int,
    /// A `*big.Int`.
    Big,
    /// A `[]byte` (OCTET STRING).
    Bytes,
    /// A nested struct or slice (SEQUENCE), with its Go type name.
    Seq(&'static str),
}

#[derive(Clone, Copy)]
struct Field {
    kind: Kind,
    optional: bool,
    omit_empty: bool,
}

const fn field(kind: Kind) -> Field {
    Field {
        kind,
        optional: false,
        omit_empty: false,
    }
}

const fn optional(kind: Kind) -> Field {
    Field {
        kind,
        optional: true,
        omit_empty: false,
    }
}

/// `x509.pkcs1PrivateKey`.
const PKCS1: [Field; 10] = [
    field(Kind::Int),
    field(Kind::Big),
    field(Kind::Int),
    field(Kind::Big),
    field(Kind::Big),
    field(Kind::Big),
    optional(Kind::Big),
    optional(Kind::Big),
    optional(Kind::Big),
    Field {
        kind: Kind::Seq(""),
        optional: true,
        omit_empty: true,
    },
];

/// `x509.pkcs8` (without the optional attributes).
const PKCS8: [Field; 3] = [
    field(Kind::Int),
    field(Kind::Seq("AlgorithmIdentifier")),
    field(Kind::Bytes),
];

/// `x509.ecPrivateKey` (its two optional explicitly tagged members are not checked).
const EC: [Field; 2] = [field(Kind::Int), field(Kind::Bytes)];

fn go_params(f: &Field) -> String {
    format!(
        "{{optional:{} explicit:false application:false private:false defaultValue:<nil> \
         tag:<nil> stringType:0 timeType:0 set:false omitEmpty:{}}}",
        f.optional, f.omit_empty
    )
}

/// Go's `checkInteger` and, for `int` fields, `parseInt64`'s size limit.
fn check_integer(bytes: &[u8], int: bool) -> Result<(), KeyError> {
    match bytes {
        [] => return Err(structure("empty integer")),
        [_] => {}
        [0, b, ..] if b & 0x80 == 0 => {
            return Err(structure("integer not minimally-encoded"));
        }
        [0xff, b, ..] if b & 0x80 != 0 => {
            return Err(structure("integer not minimally-encoded"));
        }
        _ => {}
    }
    if int && bytes.len() > 8 {
        return Err(structure("integer too large"));
    }
    Ok(())
}

/// A walked INTEGER: its sign and magnitude.
struct Integer {
    negative: bool,
    magnitude: BigUint,
}

fn integer(bytes: &[u8]) -> Integer {
    let negative = bytes.first().is_some_and(|b| b & 0x80 != 0);
    let magnitude = if negative {
        // Two's complement: invert, add one.
        let inverted: Vec<u8> = bytes.iter().map(|b| !b).collect();
        BigUint::from_bytes_be(&inverted) + 1u32
    } else {
        BigUint::from_bytes_be(bytes)
    };
    Integer {
        negative,
        magnitude,
    }
}

/// Go's `asn1.Unmarshal` of `der` into a struct with these fields: the integers found (`None`
/// for absent optional ones) and the bytes after the outer SEQUENCE.
fn walk<'a>(
    der: &'a [u8],
    fields: &[Field],
    type_name: &str,
) -> Result<(Vec<Option<Integer>>, &'a [u8]), KeyError> {
    if der.is_empty() {
        return Err(syntax("sequence truncated"));
    }
    let (h, offset) = header(der, 0)?;
    if h.class != 0 || h.tag != TAG_SEQUENCE || !h.compound {
        return Err(structure(format!(
            "tags don't match ({TAG_SEQUENCE} vs {}) {} {type_name} @{offset}",
            go_header(&h),
            go_params(&field(Kind::Seq(""))),
        )));
    }
    if der.len() - offset < h.length {
        return Err(syntax("data truncated"));
    }
    let inner = &der[offset..offset + h.length];
    let rest = &der[offset + h.length..];
    let mut values = Vec::with_capacity(fields.len());
    let mut offset = 0;
    for f in fields {
        if offset == inner.len() {
            if f.optional {
                values.push(None);
                continue;
            }
            return Err(syntax("sequence truncated"));
        }
        let (h, start) = header(inner, offset)?;
        let (want_tag, want_compound, name) = match f.kind {
            Kind::Int => (TAG_INTEGER, false, "int"),
            Kind::Big => (TAG_INTEGER, false, ""),
            Kind::Bytes => (TAG_OCTET_STRING, false, ""),
            Kind::Seq(name) => (TAG_SEQUENCE, true, name),
        };
        if h.class != 0 || h.tag != want_tag || h.compound != want_compound {
            if f.optional {
                values.push(None);
                continue;
            }
            return Err(structure(format!(
                "tags don't match ({want_tag} vs {}) {} {name} @{start}",
                go_header(&h),
                go_params(f)
            )));
        }
        if inner.len() - start < h.length {
            return Err(syntax("data truncated"));
        }
        let body = &inner[start..start + h.length];
        offset = start + h.length;
        match f.kind {
            Kind::Int | Kind::Big => {
                check_integer(body, matches!(f.kind, Kind::Int))?;
                values.push(Some(integer(body)));
            }
            Kind::Bytes | Kind::Seq(_) => values.push(None),
        }
    }
    Ok((values, rest))
}

fn go_header(h: &Header) -> String {
    format!(
        "{{class:{} tag:{} length:{} isCompound:{}}}",
        h.class, h.tag, h.length, h.compound
    )
}

/// `x509.ParsePKCS1PrivateKey` (Go 1.25).
pub(super) fn parse_pkcs1(der: &[u8]) -> Result<rsa::RsaPrivateKey, KeyError> {
    if let Ok(key) = rsa::RsaPrivateKey::from_pkcs1_der(der) {
        return Ok(key);
    }
    let (values, rest) = match walk(der, &PKCS1, "pkcs1PrivateKey") {
        Ok(walked) => walked,
        Err(err) => {
            if walk(der, &EC, "ecPrivateKey").is_ok_and(|(_, rest)| rest.is_empty()) {
                return Err(KeyError::Other(
                    "x509: failed to parse private key (use ParseECPrivateKey instead for this \
                     key format)"
                        .into(),
                ));
            }
            if walk(der, &PKCS8, "pkcs8").is_ok_and(|(_, rest)| rest.is_empty()) {
                return Err(KeyError::Other(
                    "x509: failed to parse private key (use ParsePKCS8PrivateKey instead for \
                     this key format)"
                        .into(),
                ));
            }
            return Err(err);
        }
    };
    if !rest.is_empty() {
        return Err(syntax("trailing data"));
    }
    let get = |i: usize| values.get(i).and_then(Option::as_ref);
    // Go reads the version into an int and accepts 0 and 1 (and, being signed, below 0).
    if get(0).is_some_and(|v| !v.negative && v.magnitude > BigUint::from(1u32)) {
        return Err(KeyError::Other(
            "x509: unsupported private key version".into(),
        ));
    }
    let positive =
        |i: usize| get(i).is_some_and(|v| !v.negative && v.magnitude != BigUint::default());
    let optional_ok = |i: usize| get(i).is_none() || positive(i);
    if !(positive(1) && positive(3) && positive(4) && positive(5))
        || !(optional_ok(6) && optional_ok(7) && optional_ok(8))
    {
        return Err(KeyError::Other(
            "x509: private key contains zero or negative value".into(),
        ));
    }
    let big = |i: usize| get(i).map(|v| v.magnitude.clone()).unwrap_or_default();
    rsa_key(big(1), big(2), big(3), vec![big(4), big(5)])
}

/// `x509.ParsePKCS8PrivateKey`: RSA keys decrypt; other algorithms are reported by type.
pub(super) fn parse_pkcs8(der: &[u8]) -> Result<RawKey, KeyError> {
    if let Ok(key) = rsa::RsaPrivateKey::from_pkcs8_der(der) {
        return Ok(RawKey::Rsa(Box::new(key)));
    }
    let info = match rsa::pkcs8::PrivateKeyInfo::try_from(der) {
        Ok(info) => info,
        Err(_) => {
            walk(der, &PKCS8, "pkcs8")?;
            return Err(KeyError::Other("x509: failed to parse private key".into()));
        }
    };
    match info.algorithm.oid.to_string().as_str() {
        "1.2.840.10045.2.1" => Ok(RawKey::Other("*ecdsa.PrivateKey")),
        "1.3.101.112" => Ok(RawKey::Other("ed25519.PrivateKey")),
        "1.3.101.110" => Ok(RawKey::Other("*ecdh.PrivateKey")),
        "1.2.840.113549.1.1.1" => Err(KeyError::Other(
            "x509: failed to parse RSA private key embedded in PKCS#8".into(),
        )),
        oid => Err(KeyError::Other(format!(
            "x509: PKCS#8 wrapping contained private key with unknown algorithm: {oid}"
        ))),
    }
}
