//! The tokenizer of cel-go's grammar (`CEL.g4`'s lexer rules), with the ANTLR lexer's
//! behaviour on bad input: the longest match wins, a failed match falls back to the last
//! complete token, and otherwise `token recognition error at: 'TEXT'` is reported for the
//! text from the token's start through the offending character, which is skipped.

/// A token kind, in `CEL.g4`'s token order (the order ANTLR lists expected tokens in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Tok {
    Equals,
    NotEquals,
    In,
    Less,
    LessEquals,
    GreaterEquals,
    Greater,
    LogicalAnd,
    LogicalOr,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Dot,
    Comma,
    Minus,
    Exclam,
    Question,
    Colon,
    Plus,
    Star,
    Slash,
    Percent,
    True,
    False,
    Null,
    NumFloat,
    NumInt,
    NumUint,
    String,
    Bytes,
    Identifier,
    EscIdentifier,
    Eof,
}

impl Tok {
    /// How ANTLR names the token in `expecting` sets: the literal for fixed tokens, the rule
    /// name for the others.
    pub(crate) fn display(self) -> &'static str {
        match self {
            Tok::Equals => "'=='",
            Tok::NotEquals => "'!='",
            Tok::In => "'in'",
            Tok::Less => "'<'",
            Tok::LessEquals => "'<='",
            Tok::GreaterEquals => "'>='",
            Tok::Greater => "'>'",
            Tok::LogicalAnd => "'&&'",
            Tok::LogicalOr => "'||'",
            Tok::LBracket => "'['",
            Tok::RBracket => "']'",
            Tok::LBrace => "'{'",
            Tok::RBrace => "'}'",
            Tok::LParen => "'('",
            Tok::RParen => "')'",
            Tok::Dot => "'.'",
            Tok::Comma => "','",
            Tok::Minus => "'-'",
            Tok::Exclam => "'!'",
            Tok::Question => "'?'",
            Tok::Colon => "':'",
            Tok::Plus => "'+'",
            Tok::Star => "'*'",
            Tok::Slash => "'/'",
            Tok::Percent => "'%'",
            Tok::True => "'true'",
            Tok::False => "'false'",
            Tok::Null => "'null'",
            Tok::NumFloat => "NUM_FLOAT",
            Tok::NumInt => "NUM_INT",
            Tok::NumUint => "NUM_UINT",
            Tok::String => "STRING",
            Tok::Bytes => "BYTES",
            Tok::Identifier => "IDENTIFIER",
            Tok::EscIdentifier => "ESC_IDENTIFIER",
            Tok::Eof => "<EOF>",
        }
    }
}

/// One token: its kind and byte range in the text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Token {
    pub kind: Tok,
    pub start: usize,
    pub end: usize,
}

/// A lexer error: where, and cel-go's message.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LexError {
    pub offset: usize,
    /// Where the dropped text ends.
    pub end: usize,
    pub message: String,
}

/// Splits `text` into tokens (whitespace and comments dropped, an `Eof` token last) and the
/// recognition errors met on the way.
pub(crate) fn tokenize(text: &str) -> (Vec<Token>, Vec<LexError>) {
    let b = text.as_bytes();
    let mut tokens = Vec::new();
    let mut errors = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match scan(b, i) {
            Scan::Skip(end) => i = end,
            Scan::Token(kind, end) => {
                tokens.push(Token {
                    kind,
                    start: i,
                    end,
                });
                i = end;
            }
            Scan::Fail(at) => {
                // ANTLR shows the text from the token start through the character it could
                // not match (none at the end of input), then resumes after that character.
                let stop = if at < b.len() {
                    at + char_len(b[at])
                } else {
                    at
                };
                let shown = display_text(text.get(i..stop.min(text.len())).unwrap_or(""));
                errors.push(LexError {
                    offset: i,
                    end: stop.min(text.len()),
                    message: format!("Syntax error: token recognition error at: '{shown}'"),
                });
                i = stop.max(i + 1).min(b.len());
                while i < b.len() && !text.is_char_boundary(i) {
                    i += 1;
                }
            }
        }
    }
    tokens.push(Token {
        kind: Tok::Eof,
        start: b.len(),
        end: b.len(),
    });
    (tokens, errors)
}

/// ANTLR's error display of token text: control characters spelled out.
pub(crate) fn display_text(s: &str) -> String {
    s.replace('\n', "\\n")
        .replace('\r', "\\r")
        .replace('\t', "\\t")
}

fn char_len(first: u8) -> usize {
    match first {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

enum Scan {
    Skip(usize),
    Token(Tok, usize),
    /// No token matches; the offset of the character that failed (or the end of input).
    Fail(usize),
}

fn is_letter(c: u8) -> bool {
    c.is_ascii_alphabetic()
}

fn is_hex(c: u8) -> bool {
    c.is_ascii_hexdigit()
}

fn at(b: &[u8], i: usize) -> Option<u8> {
    b.get(i).copied()
}

fn scan(b: &[u8], i: usize) -> Scan {
    let c = b[i];
    let next = at(b, i + 1);
    let fixed = |kind, len| Scan::Token(kind, i + len);
    match c {
        b'\t' | b' ' | b'\r' | b'\n' | 0x0C => {
            let mut j = i + 1;
            while matches!(at(b, j), Some(b'\t' | b' ' | b'\r' | b'\n' | 0x0C)) {
                j += 1;
            }
            Scan::Skip(j)
        }
        b'/' if next == Some(b'/') => {
            let mut j = i + 2;
            while j < b.len() && b[j] != b'\n' {
                j += 1;
            }
            Scan::Skip(j)
        }
        b'=' => match next {
            Some(b'=') => fixed(Tok::Equals, 2),
            _ => Scan::Fail(i + 1),
        },
        b'!' => match next {
            Some(b'=') => fixed(Tok::NotEquals, 2),
            _ => fixed(Tok::Exclam, 1),
        },
        b'<' => match next {
            Some(b'=') => fixed(Tok::LessEquals, 2),
            _ => fixed(Tok::Less, 1),
        },
        b'>' => match next {
            Some(b'=') => fixed(Tok::GreaterEquals, 2),
            _ => fixed(Tok::Greater, 1),
        },
        b'&' => match next {
            Some(b'&') => fixed(Tok::LogicalAnd, 2),
            _ => Scan::Fail(i + 1),
        },
        b'|' => match next {
            Some(b'|') => fixed(Tok::LogicalOr, 2),
            _ => Scan::Fail(i + 1),
        },
        b'[' => fixed(Tok::LBracket, 1),
        b']' => fixed(Tok::RBracket, 1),
        b'{' => fixed(Tok::LBrace, 1),
        b'}' => fixed(Tok::RBrace, 1),
        b'(' => fixed(Tok::LParen, 1),
        b')' => fixed(Tok::RParen, 1),
        b',' => fixed(Tok::Comma, 1),
        b'-' => fixed(Tok::Minus, 1),
        b'?' => fixed(Tok::Question, 1),
        b':' => fixed(Tok::Colon, 1),
        b'+' => fixed(Tok::Plus, 1),
        b'*' => fixed(Tok::Star, 1),
        b'/' => fixed(Tok::Slash, 1),
        b'%' => fixed(Tok::Percent, 1),
        b'.' => match next {
            Some(d) if d.is_ascii_digit() => {
                let mut j = i + 1;
                while at(b, j).is_some_and(|d| d.is_ascii_digit()) {
                    j += 1;
                }
                Scan::Token(Tok::NumFloat, exponent(b, j).unwrap_or(j))
            }
            _ => fixed(Tok::Dot, 1),
        },
        b'0'..=b'9' => number(b, i),
        b'"' | b'\'' => match string(b, i, false) {
            Ok(end) => Scan::Token(Tok::String, end),
            Err(fail) => Scan::Fail(fail),
        },
        b'`' => {
            let mut j = i + 1;
            while at(b, j).is_some_and(|c| {
                c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b'/' | b' ')
            }) {
                j += 1;
            }
            if j > i + 1 && at(b, j) == Some(b'`') {
                Scan::Token(Tok::EscIdentifier, j + 1)
            } else {
                Scan::Fail(j)
            }
        }
        c if is_letter(c) || c == b'_' => word(b, i),
        _ => Scan::Fail(i),
    }
}

/// `[eE][+-]?DIGIT+` at `j`: the end of the exponent, if complete.
fn exponent(b: &[u8], j: usize) -> Option<usize> {
    if !matches!(at(b, j), Some(b'e' | b'E')) {
        return None;
    }
    let mut k = j + 1;
    if matches!(at(b, k), Some(b'+' | b'-')) {
        k += 1;
    }
    let digits = k;
    while at(b, k).is_some_and(|d| d.is_ascii_digit()) {
        k += 1;
    }
    (k > digits).then_some(k)
}

fn number(b: &[u8], i: usize) -> Scan {
    if b[i] == b'0' && at(b, i + 1) == Some(b'x') && at(b, i + 2).is_some_and(is_hex) {
        let mut j = i + 2;
        while at(b, j).is_some_and(is_hex) {
            j += 1;
        }
        if matches!(at(b, j), Some(b'u' | b'U')) {
            return Scan::Token(Tok::NumUint, j + 1);
        }
        return Scan::Token(Tok::NumInt, j);
    }
    let mut j = i;
    while at(b, j).is_some_and(|d| d.is_ascii_digit()) {
        j += 1;
    }
    if at(b, j) == Some(b'.') && at(b, j + 1).is_some_and(|d| d.is_ascii_digit()) {
        let mut k = j + 1;
        while at(b, k).is_some_and(|d| d.is_ascii_digit()) {
            k += 1;
        }
        return Scan::Token(Tok::NumFloat, exponent(b, k).unwrap_or(k));
    }
    if let Some(k) = exponent(b, j) {
        return Scan::Token(Tok::NumFloat, k);
    }
    if matches!(at(b, j), Some(b'u' | b'U')) {
        return Scan::Token(Tok::NumUint, j + 1);
    }
    Scan::Token(Tok::NumInt, j)
}

/// An identifier, a keyword, or a string or bytes literal with a prefix (`r`, `b`, `br`…).
fn word(b: &[u8], i: usize) -> Scan {
    let mut j = i;
    while at(b, j).is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_') {
        j += 1;
    }
    let ident = |j| {
        let kind = match &b[i..j] {
            b"in" => Tok::In,
            b"true" => Tok::True,
            b"false" => Tok::False,
            b"null" => Tok::Null,
            _ => Tok::Identifier,
        };
        Scan::Token(kind, j)
    };
    // A quote right after a one- or two-letter prefix starts a literal; if the literal
    // fails, the lexer falls back to the prefix as an identifier (its last full match).
    let quote_at = |k: usize| matches!(at(b, k), Some(b'"' | b'\''));
    let (bytes, raw, q) = match (b[i], at(b, i + 1)) {
        (b'r' | b'R', _) if quote_at(i + 1) => (false, true, i + 1),
        (b'b' | b'B', _) if quote_at(i + 1) => (true, false, i + 1),
        (b'b' | b'B', Some(b'r' | b'R')) if quote_at(i + 2) => (true, true, i + 2),
        _ => return ident(j),
    };
    match string(b, q, raw) {
        Ok(end) => Scan::Token(if bytes { Tok::Bytes } else { Tok::String }, end),
        Err(_) => ident(q),
    }
}

/// A quoted literal starting at the quote `b[i]`: the end offset, or the offset of the
/// character that cannot continue it.
fn string(b: &[u8], i: usize, raw: bool) -> Result<usize, usize> {
    let q = b[i];
    if at(b, i + 1) == Some(q) && at(b, i + 2) == Some(q) {
        // Triple-quoted; if it never closes, `""` alone was the last full match.
        let mut j = i + 3;
        loop {
            match at(b, j) {
                None => break,
                Some(c) if c == q && at(b, j + 1) == Some(q) && at(b, j + 2) == Some(q) => {
                    return Ok(j + 3);
                }
                Some(b'\\') if !raw => match escape(b, j) {
                    Ok(k) => j = k,
                    Err(k) => {
                        return Err(k);
                    }
                },
                Some(_) => j += 1,
            }
        }
        return Ok(i + 2);
    }
    let mut j = i + 1;
    loop {
        match at(b, j) {
            None | Some(b'\n' | b'\r') => return Err(j),
            Some(c) if c == q => return Ok(j + 1),
            Some(b'\\') if !raw => j = escape(b, j)?,
            Some(_) => j += 1,
        }
    }
}

/// An escape sequence at the backslash `b[j]`: its end, or the offending offset.
fn escape(b: &[u8], j: usize) -> Result<usize, usize> {
    let hex = |from: usize, n: usize| -> Result<usize, usize> {
        for k in from..from + n {
            if !at(b, k).is_some_and(is_hex) {
                return Err(k);
            }
        }
        Ok(from + n)
    };
    match at(b, j + 1) {
        Some(
            b'a' | b'b' | b'f' | b'n' | b'r' | b't' | b'v' | b'"' | b'\'' | b'\\' | b'?' | b'`',
        ) => Ok(j + 2),
        Some(b'x' | b'X') => hex(j + 2, 2),
        Some(b'u') => hex(j + 2, 4),
        Some(b'U') => hex(j + 2, 8),
        Some(b'0'..=b'3') => {
            for k in j + 2..j + 4 {
                if !matches!(at(b, k), Some(b'0'..=b'7')) {
                    return Err(k);
                }
            }
            Ok(j + 4)
        }
        _ => Err(j + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Tok> {
        tokenize(text).0.iter().map(|t| t.kind).collect()
    }

    #[test]
    fn numbers() {
        assert_eq!(kinds("1 1u 0x1F 0x1Fu 1.5 1e3 .5 1.5e-3"), {
            use Tok::*;
            vec![
                NumInt, NumUint, NumInt, NumUint, NumFloat, NumFloat, NumFloat, NumFloat, Eof,
            ]
        });
        // `1.` is not a float: an int and a dot; `1e` is an int and an identifier.
        assert_eq!(
            kinds("1.e"),
            vec![Tok::NumInt, Tok::Dot, Tok::Identifier, Tok::Eof]
        );
        assert_eq!(kinds("0x"), vec![Tok::NumInt, Tok::Identifier, Tok::Eof]);
    }

    #[test]
    fn strings_and_prefixes() {
        use Tok::*;
        assert_eq!(
            kinds(r#"'a' "b" r'\x' b'c' BR"d" """e"f""" '''g'''"#),
            vec![String, String, String, Bytes, Bytes, String, String, Eof]
        );
        assert_eq!(kinds("r"), vec![Identifier, Eof]);
        assert_eq!(
            kinds("in inx true null"),
            vec![In, Identifier, True, Null, Eof]
        );
    }

    #[test]
    fn recognition_errors() {
        let (toks, errs) = tokenize(r#""\xFh""#);
        assert_eq!(toks.len(), 1);
        assert_eq!(
            errs[0].message,
            r#"Syntax error: token recognition error at: '"\xFh'"#
        );
        assert_eq!(errs[1].offset, 5);
        let (_, errs) = tokenize("a | b");
        assert_eq!(
            errs[0].message,
            "Syntax error: token recognition error at: '| '"
        );
        let (_, errs) = tokenize("😁");
        assert_eq!(
            errs[0].message,
            "Syntax error: token recognition error at: '😁'"
        );
    }
}
