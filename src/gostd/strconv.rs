//! Go's string quoting (`strconv.Quote`, what `%q` prints), shared by every message that
//! quotes a value the way Go does, and its unsigned integer formatting (`strconv.FormatUint`).

/// Go's `strconv.FormatUint` for base 2 to 16: `v`'s digits, lower case, written at the end of
/// `buf` (no allocation; 64 bytes hold any base-2 `u64`).
#[inline]
pub fn format_uint(mut v: u64, base: u64, buf: &mut [u8; 64]) -> &str {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    debug_assert!((2..=16).contains(&base));
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = DIGITS[(v % base) as usize];
        v /= base;
        if v == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    std::str::from_utf8(&buf[at..]).unwrap_or_default()
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
