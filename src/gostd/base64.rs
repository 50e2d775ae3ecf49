//! Go's `base64.StdEncoding` decoder: standard alphabet, padding required, `\r` and `\n`
//! ignored anywhere, non-zero trailing bits accepted (the encoding is not `Strict`), and the
//! offset of the first offending byte on failure (`base64.CorruptInputError`).

const PAD: u8 = b'=';

fn value(c: u8) -> Option<u8> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    })
}

fn skip_newlines(src: &[u8], mut si: usize) -> usize {
    while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
        si += 1;
    }
    si
}

/// `StdEncoding.DecodeString`: the bytes, or the offset Go's `CorruptInputError` reports.
pub fn decode(input: impl AsRef<[u8]>) -> Result<Vec<u8>, usize> {
    let src = input.as_ref();
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut si = 0;
    while si < src.len() {
        // Go's decodeQuantum.
        let mut buf = [0u8; 4];
        let mut len = 4;
        let mut j = 0;
        let mut trailing: Option<usize> = None;
        while j < 4 {
            if si == src.len() {
                if j == 0 {
                    return Ok(out);
                }
                return Err(si - j);
            }
            let c = src[si];
            si += 1;
            if let Some(v) = value(c) {
                buf[j] = v;
                j += 1;
                continue;
            }
            if c == b'\n' || c == b'\r' {
                continue;
            }
            if c != PAD {
                return Err(si - 1);
            }
            match j {
                0 | 1 => return Err(si - 1),
                2 => {
                    si = skip_newlines(src, si);
                    if si == src.len() {
                        return Err(src.len());
                    }
                    if src[si] != PAD {
                        return Err(si - 1);
                    }
                    si += 1;
                }
                _ => {}
            }
            si = skip_newlines(src, si);
            if si < src.len() {
                trailing = Some(si);
            }
            len = j;
            break;
        }
        let v = u32::from(buf[0]) << 18
            | u32::from(buf[1]) << 12
            | u32::from(buf[2]) << 6
            | u32::from(buf[3]);
        let bytes = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
        out.extend_from_slice(&bytes[..len - 1]);
        if let Some(offset) = trailing {
            return Err(offset);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn decodes_as_go() {
        assert_eq!(decode("YWJj").unwrap(), b"abc");
        assert_eq!(decode("YQ==").unwrap(), b"a");
        assert_eq!(decode("YWI=").unwrap(), b"ab");
        assert_eq!(decode("YW\r\nJj\n").unwrap(), b"abc");
        assert_eq!(decode("").unwrap(), b"");
        // Non-zero trailing bits are accepted (StdEncoding is not Strict).
        assert_eq!(decode("YR==").unwrap(), b"a");
    }

    #[test]
    fn reports_go_offsets() {
        assert_eq!(decode("YQ"), Err(0));
        assert_eq!(decode("dfg"), Err(0));
        assert_eq!(decode("<invalid base64>"), Err(0));
        assert_eq!(decode("YW Jj"), Err(2));
        assert_eq!(decode("YQ="), Err(3));
        assert_eq!(decode("YQ==YQ=="), Err(4));
        assert_eq!(decode("Y==="), Err(1));
        assert_eq!(decode("_w=="), Err(0));
    }
}
