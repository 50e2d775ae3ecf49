//! The HCL native-syntax scanner: token kinds and boundaries as Go's `hclsyntax` scanner
//! (`scan_tokens.rl`, HCL v2.24) produces them.
//!
//! Tokens carry byte offsets into the scanned text. Only spaces and tabs (and a leading BOM) lie
//! between tokens, so the stream is lossless: the text is the tokens plus the gaps. The scanner
//! is a hand-written state machine with an explicit mode stack (Ragel's `fcall`/`fret`), so
//! nesting depth cannot overflow our stack.

/// What a token is. Names follow hclsyntax's `TokenType`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// `{`
    OBrace,
    /// `}`
    CBrace,
    /// `[`
    OBrack,
    /// `]`
    CBrack,
    /// `(`
    OParen,
    /// `)`
    CParen,
    /// `"` opening a quoted template.
    OQuote,
    /// `"` closing a quoted template.
    CQuote,
    /// `<<EOT` or `<<-EOT` and its newline.
    OHeredoc,
    /// The heredoc's closing marker line (without its newline).
    CHeredoc,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `%`
    Percent,
    /// `=`
    Equal,
    /// `==`
    EqualOp,
    /// `!=`
    NotEqual,
    /// `<`
    LessThan,
    /// `<=`
    LessThanEq,
    /// `>`
    GreaterThan,
    /// `>=`
    GreaterThanEq,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `!`
    Bang,
    /// `.`
    Dot,
    /// `,`
    Comma,
    /// `::`
    DoubleColon,
    /// `...`
    Ellipsis,
    /// `=>`
    FatArrow,
    /// `?`
    Question,
    /// `:`
    Colon,
    /// `${` or `${~`
    TemplateInterp,
    /// `%{` or `%{~`
    TemplateControl,
    /// `}` or `~}` closing a template sequence.
    TemplateSeqEnd,
    /// Literal text inside a quoted template (may hold escapes).
    QuotedLit,
    /// Literal text inside a heredoc (no escapes).
    StringLit,
    /// A number.
    NumberLit,
    /// An identifier (letters, digits, `_`, `-`).
    Ident,
    /// A comment; `#` and `//` comments include their newline.
    Comment,
    /// `\n` or `\r\n`.
    Newline,
    /// End of input (zero width).
    Eof,
    /// `&`
    BitwiseAnd,
    /// `|`
    BitwiseOr,
    /// `~`
    BitwiseNot,
    /// `^`
    BitwiseXor,
    /// `'`
    Apostrophe,
    /// `` ` ``
    Backtick,
    /// `;`
    Semicolon,
    /// A character the language does not use.
    Invalid,
    /// A newline inside a quoted template.
    QuotedNewline,
}

/// One token: its kind and byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// The kind.
    pub kind: TokenKind,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Token {
    /// The byte range.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The token's text.
    pub fn text(self, source: &str) -> &str {
        source.get(self.range()).unwrap_or("")
    }
}

/// Scanner modes, as Ragel's machines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Main,
    String,
    Heredoc,
}

struct Heredoc {
    marker: String,
    start_of_line: bool,
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tokens: Vec<Token>,
    modes: Vec<Mode>,
    braces: i64,
    ret_braces: Vec<i64>,
    heredocs: Vec<Heredoc>,
}

/// Scans a whole configuration file (hclsyntax's `scanNormal` mode). The last token is always
/// a zero-width [`TokenKind::Eof`].
pub fn lex(text: &str) -> Vec<Token> {
    let mut scanner = Scanner::new(text, text.len() / 4 + 1);
    while scanner.pos < scanner.bytes.len() {
        scanner.step();
    }
    scanner.push_eof();
    scanner.tokens
}

/// The tokens [`lex`] gives, one at a time: for a reader that looks at each token once, so
/// that no token table of the whole text is built.
pub fn tokens(text: &str) -> Tokens<'_> {
    Tokens {
        scanner: Scanner::new(text, 0),
        next: 0,
        done: false,
    }
}

/// The iterator of [`tokens`].
pub struct Tokens<'a> {
    /// Its `tokens` hold only what the last step scanned.
    scanner: Scanner<'a>,
    next: usize,
    done: bool,
}

impl Tokens<'_> {
    /// One scanning step onto the scanner's tokens, or the end once the text is used up.
    #[inline(always)]
    fn advance(&mut self) {
        if self.scanner.pos < self.scanner.bytes.len() {
            self.scanner.step();
        } else {
            self.scanner.push_eof();
            self.done = true;
        }
    }

    /// Appends the next tokens to `out`, at least `at_least` of them unless the text ends
    /// first (then its end is the last). `false` once everything has been handed over.
    pub(super) fn scan_into(&mut self, out: &mut Vec<Token>, at_least: usize) -> bool {
        if self.done && self.next >= self.scanner.tokens.len() {
            return false;
        }
        out.extend_from_slice(&self.scanner.tokens[self.next..]);
        self.next = 0;
        // The scanner pushes straight onto `out`.
        std::mem::swap(&mut self.scanner.tokens, out);
        let want = self.scanner.tokens.len() + at_least;
        while !self.done && self.scanner.tokens.len() < want {
            self.advance();
        }
        std::mem::swap(&mut self.scanner.tokens, out);
        self.scanner.tokens.clear();
        true
    }
}

impl Iterator for Tokens<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        loop {
            if let Some(&token) = self.scanner.tokens.get(self.next) {
                self.next += 1;
                return Some(token);
            }
            if self.done {
                return None;
            }
            self.scanner.tokens.clear();
            self.next = 0;
            self.advance();
        }
    }
}

fn is_digit(b: u8) -> bool {
    b.is_ascii_digit()
}

/// The ASCII bytes that continue an identifier: letters, digits, `_` and `-`.
const IDENT_CONTINUE: [bool; 128] = {
    let mut table = [false; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
        b += 1;
    }
    table
};

impl<'a> Scanner<'a> {
    /// A scanner at the start of `text` (after a byte-order mark), with room for `tokens`.
    fn new(text: &'a str, tokens: usize) -> Scanner<'a> {
        Scanner {
            text,
            bytes: text.as_bytes(),
            pos: if text.starts_with('\u{feff}') { 3 } else { 0 },
            tokens: Vec::with_capacity(tokens),
            modes: vec![Mode::Main],
            braces: 0,
            ret_braces: Vec::new(),
            heredocs: Vec::new(),
        }
    }
}

impl Scanner<'_> {
    /// Scans from `pos` in the current mode: zero or more tokens. Inlined, with the main and
    /// string modes, into `lex`'s loop: the tokens of a file are scanned without a call each.
    #[inline(always)]
    fn step(&mut self) {
        match self.modes.last().copied().unwrap_or(Mode::Main) {
            Mode::Main => self.main(),
            Mode::String => self.string(),
            Mode::Heredoc => self.heredoc(),
        }
    }

    fn push_eof(&mut self) {
        let end = self.text.len() as u32;
        self.tokens.push(Token {
            kind: TokenKind::Eof,
            start: end,
            end,
        });
    }

    fn emit(&mut self, kind: TokenKind, start: usize, end: usize) {
        self.tokens.push(Token {
            kind,
            start: start as u32,
            end: end as u32,
        });
        self.pos = end;
    }

    fn at(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn char_len(&self) -> usize {
        self.rest().chars().next().map_or(1, char::len_utf8)
    }

    #[inline(always)]
    fn main(&mut self) {
        // The spaces before a token are skipped in the same step as the token: a step per gap
        // cost as much as a step per token.
        let mut start = self.pos;
        while let Some(b' ' | b'\t') = self.bytes.get(start) {
            start += 1;
        }
        self.pos = start;
        let Some(b) = self.at(0) else { return };
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let end = self.ident_end(start);
                self.emit(TokenKind::Ident, start, end);
            }
            b'0'..=b'9' => {
                let end = self.number_end(start);
                self.emit(TokenKind::NumberLit, start, end);
            }
            b'#' => self.line_comment(start),
            b'/' if self.at(1) == Some(b'/') => self.line_comment(start),
            b'/' if self.at(1) == Some(b'*') => match self.text[start + 2..].find("*/") {
                Some(i) => self.emit(TokenKind::Comment, start, start + 2 + i + 2),
                // No terminator: Ragel backtracks to the one-character token.
                None => self.emit(TokenKind::Slash, start, start + 1),
            },
            b'\n' => self.emit(TokenKind::Newline, start, start + 1),
            b'\r' if self.at(1) == Some(b'\n') => self.emit(TokenKind::Newline, start, start + 2),
            b'{' => {
                self.braces += 1;
                self.emit(TokenKind::OBrace, start, start + 1);
            }
            b'}' => self.close_brace(start, 1, false),
            b'~' if self.at(1) == Some(b'}') => self.close_brace(start, 2, true),
            b'"' => {
                self.emit(TokenKind::OQuote, start, start + 1);
                self.modes.push(Mode::String);
            }
            b'<' if self.heredoc_start(start) => {}
            _ => {
                if let Some((kind, len)) = self.operator(b) {
                    self.emit(kind, start, start + len);
                } else if self.ident_start() {
                    let end = self.ident_end(start);
                    self.emit(TokenKind::Ident, start, end);
                } else {
                    let len = self.char_len();
                    self.emit(TokenKind::Invalid, start, start + len);
                }
            }
        }
    }

    fn operator(&self, b: u8) -> Option<(TokenKind, usize)> {
        use TokenKind as K;
        let next = self.at(1);
        let two = match (b, next) {
            (b'=', Some(b'=')) => Some(K::EqualOp),
            (b'!', Some(b'=')) => Some(K::NotEqual),
            (b'>', Some(b'=')) => Some(K::GreaterThanEq),
            (b'<', Some(b'=')) => Some(K::LessThanEq),
            (b'&', Some(b'&')) => Some(K::And),
            (b'|', Some(b'|')) => Some(K::Or),
            (b':', Some(b':')) => Some(K::DoubleColon),
            (b'=', Some(b'>')) => Some(K::FatArrow),
            _ => None,
        };
        if let Some(kind) = two {
            return Some((kind, 2));
        }
        if b == b'.' && next == Some(b'.') && self.at(2) == Some(b'.') {
            return Some((K::Ellipsis, 3));
        }
        let one = match b {
            b'[' => K::OBrack,
            b']' => K::CBrack,
            b'(' => K::OParen,
            b')' => K::CParen,
            b'.' => K::Dot,
            b',' => K::Comma,
            b'*' => K::Star,
            b'/' => K::Slash,
            b'%' => K::Percent,
            b'+' => K::Plus,
            b'-' => K::Minus,
            b'=' => K::Equal,
            b'<' => K::LessThan,
            b'>' => K::GreaterThan,
            b'!' => K::Bang,
            b'?' => K::Question,
            b':' => K::Colon,
            b'&' => K::BitwiseAnd,
            b'|' => K::BitwiseOr,
            b'~' => K::BitwiseNot,
            b'^' => K::BitwiseXor,
            b';' => K::Semicolon,
            b'`' => K::Backtick,
            b'\'' => K::Apostrophe,
            _ => return None,
        };
        Some((one, 1))
    }

    /// `NumberLit = digit ("" | (NLC - '.') | (NLC* (NLC - '.')))` with
    /// `NLC = digit | '.' | ('e'|'E') ('+'|'-')? digit`: the longest run of NLC units, cut back
    /// to its last unit that is not a dot.
    fn number_end(&self, start: usize) -> usize {
        let b = self.bytes;
        let mut i = start + 1;
        let mut end = i;
        loop {
            match b.get(i) {
                Some(c) if is_digit(*c) => {
                    i += 1;
                    end = i;
                }
                Some(b'.') => i += 1,
                Some(b'e' | b'E') => {
                    let mut j = i + 1;
                    if matches!(b.get(j), Some(b'+' | b'-')) {
                        j += 1;
                    }
                    if b.get(j).is_some_and(|c| is_digit(*c)) {
                        i = j + 1;
                        end = i;
                    } else {
                        break;
                    }
                }
                _ => break,
            }
        }
        end
    }

    fn ident_start(&self) -> bool {
        self.rest()
            .chars()
            .next()
            .is_some_and(|c| c == '_' || unicode_ident::is_xid_start(c))
    }

    /// The end of the identifier whose first character is at `start`.
    fn ident_end(&self, start: usize) -> usize {
        let b = self.bytes;
        let first = if b[start] < 0x80 {
            1
        } else {
            self.text[start..].chars().next().map_or(1, char::len_utf8)
        };
        // ASCII names byte by byte; the Unicode tables only from the first non-ASCII character
        // (XID_Continue's ASCII part is exactly letters, digits and `_`).
        let mut i = start + first;
        while let Some(&c) = b.get(i) {
            match IDENT_CONTINUE.get(usize::from(c)) {
                Some(true) => i += 1,
                Some(false) => return i,
                None => break,
            }
        }
        for (j, c) in self.text[i..].char_indices() {
            if !(c == '-' || unicode_ident::is_xid_continue(c)) {
                return i + j;
            }
        }
        self.text.len()
    }

    /// `#…` and `//…` comments run to and include the end of the line.
    fn line_comment(&mut self, start: usize) {
        let end = self.bytes[start..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(self.bytes.len(), |i| start + i + 1);
        self.emit(TokenKind::Comment, start, end);
    }

    fn close_brace(&mut self, start: usize, len: usize, eat_whitespace: bool) {
        if self.ret_braces.last() == Some(&self.braces) {
            self.emit(TokenKind::TemplateSeqEnd, start, start + len);
            self.braces -= 1;
            self.ret_braces.pop();
            self.modes.pop();
        } else {
            // `~}` outside a template sequence is still a sequence end, so the parser can
            // report the mismatch.
            let kind = if eat_whitespace {
                TokenKind::TemplateSeqEnd
            } else {
                TokenKind::CBrace
            };
            self.emit(kind, start, start + len);
            self.braces -= 1;
        }
    }

    /// `<<` `-`? Ident Newline opens a heredoc.
    fn heredoc_start(&mut self, start: usize) -> bool {
        let b = self.bytes;
        if b.get(start + 1) != Some(&b'<') {
            return false;
        }
        let mut i = start + 2;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        let ident_start = i;
        let Some(first) = self.text[i..].chars().next() else {
            return false;
        };
        if !(first == '_' || unicode_ident::is_xid_start(first)) {
            return false;
        }
        let saved = self.pos;
        self.pos = i;
        let ident_end = self.ident_end(i);
        self.pos = saved;
        let newline = match (b.get(ident_end), b.get(ident_end + 1)) {
            (Some(b'\n'), _) => 1,
            (Some(b'\r'), Some(b'\n')) => 2,
            _ => return false,
        };
        let marker = self.text[ident_start..ident_end].to_string();
        self.emit(TokenKind::OHeredoc, start, ident_end + newline);
        self.heredocs.push(Heredoc {
            marker,
            start_of_line: true,
        });
        self.modes.push(Mode::Heredoc);
        true
    }

    /// `${`, `${~`, `%{`, `%{~` at the current position.
    fn template_open(&mut self) -> bool {
        let start = self.pos;
        let kind = match (self.at(0), self.at(1)) {
            (Some(b'$'), Some(b'{')) => TokenKind::TemplateInterp,
            (Some(b'%'), Some(b'{')) => TokenKind::TemplateControl,
            _ => return false,
        };
        let len = if self.at(2) == Some(b'~') { 3 } else { 2 };
        self.emit(kind, start, start + len);
        self.braces += 1;
        self.ret_braces.push(self.braces);
        if let Some(doc) = self.heredocs.last_mut() {
            doc.start_of_line = false;
        }
        self.modes.push(Mode::Main);
        true
    }

    /// Length of `$` / `%` not starting a sequence: `$${`/`$${~` escapes, or the lone sign.
    fn escape_len(&self) -> usize {
        let sign = self.at(0);
        if self.at(1) == sign && self.at(2) == Some(b'{') {
            if self.at(3) == Some(b'~') { 4 } else { 3 }
        } else {
            1
        }
    }

    #[inline(always)]
    fn string(&mut self) {
        let start = self.pos;
        if self.template_open() {
            return;
        }
        match self.at(0) {
            Some(b'"') => {
                self.emit(TokenKind::CQuote, start, start + 1);
                self.modes.pop();
            }
            Some(b'$' | b'%') => {
                let len = self.escape_len();
                self.emit(TokenKind::QuotedLit, start, start + len);
            }
            Some(b'\n' | b'\r') => {
                let n = self.bytes[start..]
                    .iter()
                    .take_while(|&&c| c == b'\n' || c == b'\r')
                    .count();
                self.emit(TokenKind::QuotedNewline, start, start + n);
            }
            _ => {
                let end = self.quoted_literal_end(start);
                if end > start {
                    self.emit(TokenKind::QuotedLit, start, end);
                } else {
                    let len = self.char_len();
                    self.emit(TokenKind::Invalid, start, start + len);
                }
            }
        }
    }

    /// A run of plain characters and `\x` escapes, stopping at `$ % " \n \r` and at a backslash
    /// that has no character after it on the line.
    fn quoted_literal_end(&self, start: usize) -> usize {
        let b = self.bytes;
        let mut i = start;
        while let Some(&c) = b.get(i) {
            match c {
                b'$' | b'%' | b'"' | b'\n' | b'\r' => break,
                b'\\' => match self.text.get(i + 1..).and_then(|r| r.chars().next()) {
                    Some(next) if next != '\n' && next != '\r' => i += 1 + next.len_utf8(),
                    _ => break,
                },
                _ => i += 1,
            }
        }
        i
    }

    fn heredoc(&mut self) {
        let start = self.pos;
        if self.template_open() {
            return;
        }
        let b = self.bytes;
        // A literal runs to `$`, `%` or the end of the line; `$`/`%` not opening a sequence
        // are literals of their own.
        let mut end = if matches!(b.get(start), Some(b'$' | b'%')) {
            start + self.escape_len()
        } else {
            let mut i = start;
            while let Some(&c) = b.get(i) {
                if c == b'$'
                    || c == b'%'
                    || c == b'\n'
                    || (c == b'\r' && b.get(i + 1) == Some(&b'\n'))
                {
                    break;
                }
                i += 1;
            }
            i
        };
        let newline = match (b.get(end), b.get(end + 1)) {
            (Some(b'\n'), _) => 1,
            (Some(b'\r'), Some(b'\n')) => 2,
            _ => 0,
        };
        if newline == 0 {
            if let Some(doc) = self.heredocs.last_mut() {
                doc.start_of_line = false;
            }
            if end == start {
                // Nothing matched (cannot happen with valid UTF-8), but never loop forever.
                end = start + self.char_len();
            }
            self.emit(TokenKind::StringLit, start, end);
            return;
        }
        let line_end = end + newline;
        let is_marker = self.heredocs.last().is_some_and(|doc| {
            doc.start_of_line && self.text[start..line_end].trim() == doc.marker
        });
        if is_marker {
            self.emit(TokenKind::CHeredoc, start, end);
            self.emit(TokenKind::Newline, end, line_end);
            self.heredocs.pop();
            self.modes.pop();
            return;
        }
        if let Some(doc) = self.heredocs.last_mut() {
            doc.start_of_line = true;
        }
        self.emit(TokenKind::StringLit, start, line_end);
    }
}

#[cfg(test)]
mod tests {
    use super::TokenKind as K;
    use super::*;

    #[test]
    fn the_token_stream_is_the_token_table() {
        for text in [
            "",
            "\u{feff}a = 1",
            "a = \"x${b}%{ if c }y%{ endif }\"\nb = <<-EOT\n  ${x}\n  EOT\n# c\n",
            "a = \"unterminated\n/* open",
            "x = [for k, v in m : k => v...]\r\n",
        ] {
            assert_eq!(tokens(text).collect::<Vec<_>>(), lex(text), "{text:?}");
        }
    }

    /// The parser reads the stream; everything else the table: they must agree on every
    /// HCL text we have (the project's fixtures and examples, and the conformance cases
    /// when they are beside it).
    #[test]
    fn the_token_stream_is_the_token_table_on_every_fixture() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut seen = 0;
        for dir in ["tests", "examples", "../shared/conformance"] {
            for entry in walkdir::WalkDir::new(root.join(dir)).into_iter().flatten() {
                let path = entry.path();
                if !entry.file_type().is_file()
                    || !matches!(
                        path.extension().and_then(|e| e.to_str()),
                        Some("hcl" | "fnhcl")
                    )
                {
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(path) else {
                    continue;
                };
                assert_eq!(
                    tokens(&text).collect::<Vec<_>>(),
                    lex(&text),
                    "{}",
                    path.display()
                );
                seen += 1;
            }
        }
        assert!(seen > 100, "only {seen} HCL files found");
    }

    fn kinds(text: &str) -> Vec<(K, &str)> {
        lex(text)
            .into_iter()
            .map(|t| (t.kind, t.text(text)))
            .collect()
    }

    #[test]
    fn numbers_follow_the_ragel_pattern() {
        assert_eq!(kinds("1e400")[0], (K::NumberLit, "1e400"));
        assert_eq!(kinds("1.5")[0], (K::NumberLit, "1.5"));
        assert_eq!(kinds("1.")[..2], [(K::NumberLit, "1"), (K::Dot, ".")]);
        assert_eq!(kinds("1e+x")[..2], [(K::NumberLit, "1"), (K::Ident, "e")]);
        assert_eq!(kinds("a.0.b")[2], (K::NumberLit, "0"));
    }

    #[test]
    fn operators_take_the_longest_match() {
        let got: Vec<K> = lex("== != >= <= && || :: ... => = < > ! ?")
            .iter()
            .map(|t| t.kind)
            .collect();
        use K::*;
        assert_eq!(
            got,
            [
                EqualOp,
                NotEqual,
                GreaterThanEq,
                LessThanEq,
                And,
                Or,
                DoubleColon,
                Ellipsis,
                FatArrow,
                Equal,
                LessThan,
                GreaterThan,
                Bang,
                Question,
                Eof
            ]
        );
    }

    #[test]
    fn templates_nest_with_braces() {
        let text = r#"a = "x${ {b = "y"}.b }z$${w}%%{v}$" "#;
        let got: Vec<K> = lex(text).iter().map(|t| t.kind).collect();
        use K::*;
        assert_eq!(
            got,
            [
                Ident,
                Equal,
                OQuote,
                QuotedLit,
                TemplateInterp,
                OBrace,
                Ident,
                Equal,
                OQuote,
                QuotedLit,
                CQuote,
                CBrace,
                Dot,
                Ident,
                TemplateSeqEnd,
                QuotedLit,
                QuotedLit,
                QuotedLit,
                QuotedLit,
                QuotedLit,
                QuotedLit,
                CQuote,
                Eof
            ]
        );
    }

    #[test]
    fn heredocs_close_on_their_marker_line() {
        let text = "x = <<-EOT\n  a ${b}\n  EOT\ny = 1\n";
        let got: Vec<(K, &str)> = kinds(text);
        assert_eq!(got[2], (K::OHeredoc, "<<-EOT\n"));
        assert!(got.contains(&(K::CHeredoc, "  EOT")));
        assert_eq!(got.last().unwrap().0, K::Eof);
        assert!(got.contains(&(K::Ident, "y")));
    }

    #[test]
    fn identifiers_mix_ascii_and_unicode() {
        assert_eq!(
            kinds("aé-b_1 \t é x9-(_"),
            [
                (K::Ident, "aé-b_1"),
                (K::Ident, "é"),
                (K::Ident, "x9-"),
                (K::OParen, "("),
                (K::Ident, "_"),
                (K::Eof, "")
            ]
        );
        assert_eq!(kinds("a\u{2003}b")[1], (K::Invalid, "\u{2003}"));
        assert_eq!(kinds("x  ")[..2], [(K::Ident, "x"), (K::Eof, "")]);
    }

    #[test]
    fn comments_include_their_newline() {
        assert_eq!(kinds("# c\r\nx")[0], (K::Comment, "# c\r\n"));
        assert_eq!(kinds("/* a\n b */x")[0], (K::Comment, "/* a\n b */"));
        assert_eq!(kinds("/* open")[0], (K::Slash, "/"));
    }

    #[test]
    fn quoted_newlines_and_invalid_characters() {
        let got = kinds("\"a\nb\" ; “");
        assert_eq!(got[2], (K::QuotedNewline, "\n"));
        assert!(got.contains(&(K::Semicolon, ";")));
        assert!(got.contains(&(K::Invalid, "“")));
    }

    #[test]
    fn the_stream_is_lossless() {
        let text = "\u{feff}a = {\n\tb = \"${c}\" # x\n}\n";
        let tokens = lex(text);
        let mut rebuilt = String::from(&text[..tokens[0].start as usize]);
        for pair in tokens.windows(2) {
            rebuilt.push_str(pair[0].text(text));
            let gap = &text[pair[0].end as usize..pair[1].start as usize];
            assert!(gap.chars().all(|c| c == ' ' || c == '\t'), "gap {gap:?}");
            rebuilt.push_str(gap);
        }
        assert_eq!(rebuilt, text);
    }
}
