//! Go's string quoting (`strconv.Quote`, what `%q` prints), shared by every message that
//! quotes a value the way Go does, and its unsigned integer formatting (`strconv.FormatUint`).

/// Go's `strconv.FormatUint` for base 2 to 16: `v`'s digits, lower case, written at the end of
/// `buf` (no allocation; 64 bytes hold any base-2 `u64`).
#[inline]
pub fn format_uint(v: u64, base: u64, buf: &mut [u8; 64]) -> &str {
    let at = digits(v, base, buf);
    // Only ASCII digits were written.
    std::str::from_utf8(&buf[at..]).unwrap_or_default()
}

/// Appends [`format_uint`]'s digits to `out`.
#[inline]
pub fn push_uint(out: &mut String, v: u64, base: u64) {
    let mut buf = [0; 64];
    let at = digits(v, base, &mut buf);
    // Pushed one by one: a few digits, and no check that they are text.
    for &digit in &buf[at..] {
        out.push(char::from(digit));
    }
}

/// Writes `v`'s digits at the end of `buf` and returns where they start. Decimal, by far the
/// most common, divides by a constant (a multiplication) rather than by a variable.
#[inline]
fn digits(mut v: u64, base: u64, buf: &mut [u8; 64]) -> usize {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    debug_assert!((2..=16).contains(&base));
    let mut at = buf.len();
    if base == 10 {
        loop {
            at -= 1;
            buf[at] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                return at;
            }
        }
    }
    loop {
        at -= 1;
        buf[at] = DIGITS[(v % base) as usize];
        v /= base;
        if v == 0 {
            return at;
        }
    }
}

/// Go's `strconv.Quote` (`%q`). Go's `unicode.IsPrint` is approximated: controls, spaces
/// other than U+0020, common format characters, private-use code points and noncharacters are
/// escaped; unassigned code points are not recognised.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if is_print(c) => out.push(c),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.IsPrint`: letters, marks, numbers, punctuation, symbols (Unicode's general
/// categories L, M, N, P, S, by the `regex` crate's tables, which may be a Unicode version
/// ahead of Go's) and the ASCII space. Unassigned code points are not printable, as in Go.
pub fn is_print(c: char) -> bool {
    if c.is_ascii() {
        return (' '..='~').contains(&c);
    }
    static PRINT: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    let re = PRINT.get_or_init(|| regex::Regex::new(r"^[\p{L}\p{M}\p{N}\p{P}\p{S}]$").ok());
    match re {
        Some(re) => {
            let mut buf = [0u8; 4];
            re.is_match(c.encode_utf8(&mut buf))
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_written_in_every_base() {
        let values = [
            0,
            1,
            7,
            9,
            10,
            15,
            16,
            99,
            100,
            255,
            256,
            1 << 32,
            u64::MAX - 1,
            u64::MAX,
        ];
        for v in values {
            for (base, expected) in [
                (2, format!("{v:b}")),
                (8, format!("{v:o}")),
                (10, format!("{v}")),
                (16, format!("{v:x}")),
            ] {
                assert_eq!(
                    format_uint(v, base, &mut [0; 64]),
                    expected,
                    "{v} in {base}"
                );
                let mut out = String::from("<");
                push_uint(&mut out, v, base);
                assert_eq!(out, format!("<{expected}"), "{v} in {base}");
            }
        }
        // A base Rust has no formatter for: 255 in base 3 is 100110.
        assert_eq!(format_uint(255, 3, &mut [0; 64]), "100110");
    }
}
