//! The value of a string or bytes literal's text (cel-go's `parser/unescape.go`): quotes
//! removed, newlines normalised, escapes decoded, with cel-go's error messages.

/// Decodes a literal's text (quotes included, the `b` prefix of bytes already removed, an
/// `r`/`R` raw prefix kept). Strings come back as UTF-8 bytes; bytes literals keep `\x` and
/// octal escapes as raw bytes.
pub(crate) fn unescape(text: &str, is_bytes: bool) -> Result<Vec<u8>, &'static str> {
    const BAD: &str = "unable to unescape string";
    let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut value = normalized.as_str();
    if value.len() < 2 {
        return Err(BAD);
    }
    let raw = value.starts_with(['r', 'R']);
    if raw {
        value = &value[1..];
    }
    let first = value.as_bytes()[0];
    if value.len() < 2
        || first != value.as_bytes()[value.len() - 1]
        || !matches!(first, b'"' | b'\'')
    {
        return Err(BAD);
    }
    let body = if value.len() >= 6 && (value.starts_with("'''") || value.starts_with("\"\"\"")) {
        let quotes = &value[..3];
        if !value.ends_with(quotes) {
            return Err(BAD);
        }
        &value[3..value.len() - 3]
    } else {
        &value[1..value.len() - 1]
    };
    if raw || !body.contains('\\') {
        return Ok(body.as_bytes().to_vec());
    }
    let s = body.as_bytes();
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'\\' {
            out.push(s[i]);
            i += 1;
            continue;
        }
        let Some(&c) = s.get(i + 1) else {
            return Err("unable to unescape string, found '\\' as last character");
        };
        i += 2;
        let simple = match c {
            b'a' => Some(0x07),
            b'b' => Some(0x08),
            b'f' => Some(0x0C),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(0x0B),
            b'\\' | b'\'' | b'"' | b'`' | b'?' => Some(c),
            _ => None,
        };
        if let Some(v) = simple {
            out.push(v);
            continue;
        }
        let code: u32 = match c {
            b'x' | b'X' | b'u' | b'U' => {
                let n = match c {
                    b'x' | b'X' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                if is_bytes && n > 2 {
                    return Err(BAD);
                }
                let digits = s.get(i..i + n).ok_or(BAD)?;
                let mut v: u32 = 0;
                for &d in digits {
                    let x = (d as char).to_digit(16).ok_or(BAD)?;
                    v = (v << 4) | x;
                }
                i += n;
                v
            }
            b'0'..=b'3' => {
                const OCTAL: &str = "unable to unescape octal sequence in string";
                let digits = s.get(i..i + 2).ok_or(OCTAL)?;
                let mut v = u32::from(c - b'0');
                for &d in digits {
                    if !(b'0'..=b'7').contains(&d) {
                        return Err(OCTAL);
                    }
                    v = v * 8 + u32::from(d - b'0');
                }
                i += 2;
                v
            }
            _ => return Err(BAD),
        };
        if is_bytes && code < 256 && matches!(c, b'x' | b'X' | b'0'..=b'3') {
            // Bytes keep `\xFF` and `\377` as the raw byte.
            out.push(code as u8);
        } else {
            let ch = char::from_u32(code).ok_or("invalid unicode code point")?;
            let mut buf = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    //! cel-go `parser/unescape_test.go` `TestUnescape`, as our own table: the input, whether
    //! it is bytes, and the expected value or (a part of) the error message.
    use super::unescape;

    const OK: &[(&str, bool, &[u8])] = &[
        (r"'hello'", false, b"hello"),
        (r"r'hello'", false, b"hello"),
        (r#""""#, false, b""),
        (r#""\\\"""#, false, br#"\""#),
        (r#""\\""#, false, br"\"),
        (r"'''x''x'''", false, b"x''x"),
        (r#""""x""x""""#, false, br#"x""x"#),
        (r#""\303\277""#, false, "Ã¿".as_bytes()),
        (r#""\377""#, false, "ÿ".as_bytes()),
        (r#""\u263A\u263A""#, false, "☺☺".as_bytes()),
        (
            r#""\a\b\f\n\r\t\v\'\"\\\? Legal escapes""#,
            false,
            b"\x07\x08\x0c\n\r\t\x0b'\"\\? Legal escapes",
        ),
        (r#""abc""#, true, b"abc"),
        (r#""ÿ""#, true, b"\xc3\xbf"),
        (r#""\303\277""#, true, b"\xc3\xbf"),
        (r#""\377""#, true, b"\xff"),
        (r#""\xff""#, true, b"\xff"),
        (r#""\xc3\xbf""#, true, b"\xc3\xbf"),
        (r#"'''"Kim\t"'''"#, true, b"\x22\x4b\x69\x6d\x09\x22"),
        // Not upstream: newline normalisation and a supplementary-plane escape.
        ("'''x\r\ny'''", false, b"x\ny"),
        (r"'\U0001F600'", false, "😀".as_bytes()),
    ];

    const ERR: &[(&str, bool, &str)] = &[
        (
            r#""\a\b\f\n\r\t\v\'\"\\\? Illegal escape \>""#,
            false,
            "unable to unescape string",
        ),
        (r#""\u00f""#, false, "unable to unescape string"),
        (r#""\u00fÿ""#, false, "unable to unescape string"),
        (r#""\u00ff""#, true, "unable to unescape string"),
        (r#""\U00ff""#, true, "unable to unescape string"),
        (r#""\26""#, false, "unable to unescape octal sequence"),
        (r#""\268""#, false, "unable to unescape octal sequence"),
        (r#""\267\""#, false, r"found '\' as last character"),
        (r"'", false, "unable to unescape string"),
        (r"*hello*", false, "unable to unescape string"),
        (r"r'''hello'", false, "unable to unescape string"),
        (r#"r"""hello""#, false, "unable to unescape string"),
        // Not upstream: surrogates and out-of-range code points.
        (r"'\uD800'", false, "invalid unicode code point"),
        (r"'\U00110000'", false, "invalid unicode code point"),
    ];

    #[test]
    fn unescape_table() {
        for (input, is_bytes, want) in OK {
            assert_eq!(unescape(input, *is_bytes).as_deref(), Ok(*want), "{input}");
        }
        for (input, is_bytes, want) in ERR {
            let err = unescape(input, *is_bytes).expect_err(input);
            assert!(err.contains(want), "{input}: {err}");
        }
    }
}
