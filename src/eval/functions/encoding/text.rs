//! Terraform's `textencodebase64` and `textdecodebase64`: text in an encoding named the way
//! `golang.org/x/text/encoding/ianaindex` (v0.33.0) names encodings — any IANA name or alias,
//! case-insensitive — and errors naming it by its canonical IANA name.
//!
//! Implemented as x/text implements them: UTF-8, UTF-16 (big-endian with a byte order mark),
//! UTF-16BE, UTF-16LE, US-ASCII and the 40 single-byte code pages (ISO 8859, Windows, IBM,
//! KOI8, Macintosh). The multi-byte East Asian encodings (Shift_JIS, EUC-JP, ISO-2022-JP,
//! EUC-KR, GBK, GB18030, HZ-GB-2312, Big5) are recognised but only their ASCII subset is
//! implemented here: other characters are an error that says so.

use super::text_names::{ALIASES, Cjk, Codec, ENCODINGS};
use super::{go_base64_decode, go_quote, text_tables as tables};
use crate::eval::functions::{Function, FunctionError, FunctionTable, Param, args};
use crate::eval::types::Type;
use crate::eval::value::Value;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use tables::Charmap;

/// Registers `textencodebase64` and `textdecodebase64`.
pub(super) fn register(table: &mut FunctionTable) {
    table.insert(Function::new(
        "textencodebase64",
        vec![
            Param::new("string", Type::String),
            Param::new("encoding", Type::String),
        ],
        None,
        Type::String,
        |args, _| {
            let (name, codec) = lookup(args::string(args, 1)?)?;
            let bytes = encode(codec, args::string(args, 0)?).map_err(|unimplemented| {
                FunctionError::arg(
                    0,
                    if unimplemented {
                        format!(
                            "the given string contains characters that fnhcl cannot represent in \
                             {name} (only its ASCII subset is implemented)"
                        )
                    } else {
                        format!(
                            "the given string contains characters that cannot be represented in \
                             {name}"
                        )
                    },
                )
            })?;
            Ok(Value::String(STANDARD.encode(bytes).into()))
        },
    ));
    table.insert(Function::new(
        "textdecodebase64",
        vec![
            Param::new("source", Type::String),
            Param::new("encoding", Type::String),
        ],
        None,
        Type::String,
        |args, _| {
            let (name, codec) = lookup(args::string(args, 1)?)?;
            let bytes = go_base64_decode(args::string(args, 0)?).map_err(|offset| {
                FunctionError::arg(
                    0,
                    format!("the given value is has an invalid base64 symbol at offset {offset}"),
                )
            })?;
            let text = decode(codec, &bytes)
                .filter(|text| !text.contains('\u{fffd}'))
                .ok_or_else(|| {
                    FunctionError::arg(
                        0,
                        format!(
                            "the given string contains symbols that are not defined for {name}"
                        ),
                    )
                })?;
            Ok(Value::string(text))
        },
    ));
}

/// `ianaindex.IANA.Encoding` then `IANA.Name`.
fn lookup(name: &str) -> Result<(&'static str, &'static Codec), FunctionError> {
    let key = name.trim().to_lowercase();
    ALIASES
        .binary_search_by(|(alias, _)| alias.cmp(&key.as_str()))
        .map(|i| {
            let (canonical, codec) = &ENCODINGS[usize::from(ALIASES[i].1)];
            (*canonical, codec)
        })
        .map_err(|_| {
            FunctionError::arg(
                1,
                format!(
                    "{} is not a supported IANA encoding name or alias in this Terraform version",
                    go_quote(name)
                ),
            )
        })
}

/// The text's bytes; `Err(true)` for a character only x/text's full implementation encodes,
/// `Err(false)` for one the encoding cannot represent.
fn encode(codec: &Codec, text: &str) -> Result<Vec<u8>, bool> {
    let mut out = Vec::with_capacity(text.len());
    match codec {
        Codec::Utf8 => out.extend_from_slice(text.as_bytes()),
        Codec::Utf16 { little, bom } => {
            let mut push = |unit: u16| {
                out.extend_from_slice(&if *little {
                    unit.to_le_bytes()
                } else {
                    unit.to_be_bytes()
                })
            };
            if *bom {
                push(0xfeff);
            }
            text.encode_utf16().for_each(push);
        }
        Codec::Ascii => {
            if !text.is_ascii() {
                return Err(false);
            }
            out.extend_from_slice(text.as_bytes());
        }
        Codec::Charmap(map) => {
            for c in text.chars() {
                let u = c as u32;
                let byte = match map {
                    Charmap::Ascii(_) if u < 0x80 => Some(u as u8),
                    Charmap::Ascii(high) => high
                        .iter()
                        .position(|&x| u32::from(x) == u && u != 0xfffd)
                        .map(|i| 0x80 + i as u8),
                    Charmap::Full(all) => all
                        .iter()
                        .position(|&x| u32::from(x) == u && u != 0xfffd)
                        .map(|i| i as u8),
                };
                out.push(byte.ok_or(false)?);
            }
        }
        Codec::AsciiOnly(cjk) => {
            for c in text.chars() {
                if !c.is_ascii() {
                    return Err(true);
                }
                if c == '~' && *cjk == Cjk::HzGb2312 {
                    out.push(b'~');
                }
                out.push(c as u8);
            }
        }
    }
    Ok(out)
}

/// The text (possibly with U+FFFD for undefined bytes, which the caller rejects), or `None`
/// when the bytes cannot be decoded.
fn decode(codec: &Codec, bytes: &[u8]) -> Option<String> {
    match codec {
        Codec::Utf8 => String::from_utf8(bytes.to_vec()).ok(),
        Codec::Utf16 { little, bom } => {
            let mut little = *little;
            let mut body = bytes;
            if *bom && !bytes.is_empty() {
                match bytes {
                    [0xfe, 0xff, rest @ ..] => body = rest,
                    [0xff, 0xfe, rest @ ..] => {
                        body = rest;
                        little = true;
                    }
                    [_] => return None,
                    _ => {}
                }
            }
            if body.len() % 2 != 0 {
                return None;
            }
            let units = body.chunks_exact(2).map(|p| {
                if little {
                    u16::from_le_bytes([p[0], p[1]])
                } else {
                    u16::from_be_bytes([p[0], p[1]])
                }
            });
            char::decode_utf16(units)
                .collect::<Result<String, _>>()
                .ok()
        }
        Codec::Ascii => bytes
            .is_ascii()
            .then(|| String::from_utf8_lossy(bytes).into_owned()),
        Codec::Charmap(map) => Some(
            bytes
                .iter()
                .map(|&b| {
                    let u = match map {
                        Charmap::Ascii(_) if b < 0x80 => u16::from(b),
                        Charmap::Ascii(high) => high[usize::from(b - 0x80)],
                        Charmap::Full(all) => all[usize::from(b)],
                    };
                    char::from_u32(u32::from(u)).unwrap_or('\u{fffd}')
                })
                .collect(),
        ),
        Codec::AsciiOnly(cjk) => {
            let mut out = String::with_capacity(bytes.len());
            let mut i = 0;
            while i < bytes.len() {
                let b = bytes[i];
                if !b.is_ascii() || b == 0x1b && *cjk == Cjk::Iso2022Jp {
                    return None;
                }
                if b == b'~' && *cjk == Cjk::HzGb2312 {
                    match bytes.get(i + 1) {
                        Some(b'~') => out.push('~'),
                        Some(b'\n') => {}
                        _ => return None,
                    }
                    i += 2;
                    continue;
                }
                out.push(char::from(b));
                i += 1;
            }
            Some(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(text: &str, name: &str) -> Result<String, bool> {
        let (_, codec) = lookup(name).map_err(|_| false)?;
        encode(codec, text).map(|b| STANDARD.encode(b))
    }

    fn dec(b64: &str, name: &str) -> Option<String> {
        let (_, codec) = lookup(name).ok()?;
        decode(codec, &STANDARD.decode(b64).ok()?).filter(|t| !t.contains('\u{fffd}'))
    }

    #[test]
    fn aliases_are_sorted_and_resolve() {
        assert!(ALIASES.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(lookup(" Latin1 ").unwrap().0, "ISO_8859-1:1987");
        assert_eq!(lookup("cp437").unwrap().0, "IBM437");
        assert_eq!(lookup("CP936").unwrap().0, "GBK");
        assert!(lookup("cp1252").is_err());
        assert!(lookup("UTF-32").is_err());
    }

    #[test]
    fn encodes_as_x_text() {
        assert_eq!(enc("é", "UTF-16"), Ok("/v8A6Q==".into()));
        assert_eq!(enc("", "UTF-16"), Ok("/v8=".into()));
        assert_eq!(enc("é", "utf-16le"), Ok("6QA=".into()));
        assert_eq!(enc("€", "windows-1252"), Ok("gA==".into()));
        assert_eq!(enc("\u{81}", "windows-1252"), Err(false));
        assert_eq!(enc("€", "latin1"), Err(false));
        assert_eq!(enc("A", "IBM037"), Ok("wQ==".into()));
        assert_eq!(enc("a~b", "HZ-GB-2312"), Ok("YX5+Yg==".into()));
        assert_eq!(enc("é", "GBK"), Err(true));
        assert_eq!(enc("é", "US-ASCII"), Err(false));
    }

    #[test]
    fn decodes_as_x_text() {
        assert_eq!(dec("//7pAA==", "UTF-16").as_deref(), Some("é"));
        assert_eq!(dec("/v8A6Q==", "UTF-16BE").as_deref(), Some("\u{feff}é"));
        assert_eq!(dec("6Q==", "UTF-16"), None);
        assert_eq!(dec("", "UTF-16").as_deref(), Some(""));
        assert_eq!(dec("gQ==", "windows-1250"), None);
        assert_eq!(dec("gA==", "ISO-8859-1").as_deref(), Some("\u{80}"));
        assert_eq!(dec("wQ==", "IBM037").as_deref(), Some("A"));
        assert_eq!(dec("77+9", "UTF-8"), None);
        assert_eq!(dec("gA==", "US-ASCII"), None);
        assert_eq!(dec("YX5+Yg==", "HZ-GB-2312").as_deref(), Some("a~b"));
    }
}
