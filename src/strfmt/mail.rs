//! The `email` format: strfmt accepts what Go's `net/mail.ParseAddress` parses as one address —
//! `local@domain` (a quoted local part allowed, a `[IP]` domain), a display name before
//! `<local@domain>`, a comment after, or a group holding exactly one address. This follows
//! Go 1.25's parser step by step, as a check (nothing is decoded except to find errors).

/// Whether Go's `mail.ParseAddress(value)` succeeds.
pub(super) fn address(value: &str) -> bool {
    let mut p = Parser { s: value };
    let Some(count) = p.address(true) else {
        return false;
    };
    p.skip_cfws() && p.s.is_empty() && count == 1
}

struct Parser<'a> {
    s: &'a str,
}

/// RFC 5322 `atext` (with `.` when `dot`), multi-byte characters included (RFC 6532).
fn atext(c: char, dot: bool) -> bool {
    match c {
        '.' => dot,
        '(' | ')' | '<' | '>' | '[' | ']' | ':' | ';' | '@' | '\\' | ',' | '"' => false,
        _ => vchar(c),
    }
}

fn vchar(c: char) -> bool {
    ('!'..='~').contains(&c) || !c.is_ascii()
}

fn wsp(c: char) -> bool {
    c == ' ' || c == '\t'
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.s.chars().next()
    }

    fn consume(&mut self, c: char) -> bool {
        match self.s.strip_prefix(c) {
            Some(rest) => {
                self.s = rest;
                true
            }
            None => false,
        }
    }

    fn skip_space(&mut self) {
        self.s = self.s.trim_start_matches([' ', '\t']);
    }

    /// `parseAddress`: the number of addresses found, or `None` for an error.
    fn address(&mut self, handle_group: bool) -> Option<usize> {
        self.skip_space();
        if self.s.is_empty() {
            return None;
        }
        // an addr-spec first; if it fails, the text is read again as a name-addr
        let saved = self.s;
        if self.addr_spec() {
            self.skip_space();
            if self.peek() == Some('(') {
                self.display_name_comment()?;
            }
            return Some(1);
        }
        self.s = saved;
        if self.peek() != Some('<') {
            self.phrase()?;
        }
        self.skip_space();
        if handle_group && self.consume(':') {
            return self.group_list();
        }
        if !self.consume('<') {
            return None;
        }
        let inner = self.s;
        if !self.addr_spec() {
            self.s = inner;
            return None;
        }
        self.consume('>').then_some(1)
    }

    /// `consumeGroupList`: addresses separated by `,` up to `;` (no nested groups).
    fn group_list(&mut self) -> Option<usize> {
        self.skip_space();
        if self.consume(';') {
            return self.skip_cfws().then_some(0);
        }
        let mut count = 0;
        loop {
            self.skip_space();
            count += self.address(false)?;
            if !self.skip_cfws() {
                return None;
            }
            if self.consume(';') {
                return self.skip_cfws().then_some(count);
            }
            if !self.consume(',') {
                return None;
            }
        }
    }

    /// `consumeAddrSpec`: a dot-atom or quoted string, `@`, a dot-atom or domain literal.
    fn addr_spec(&mut self) -> bool {
        self.skip_space();
        if self.s.is_empty() {
            return false;
        }
        let local = if self.peek() == Some('"') {
            matches!(self.quoted_string(), Some(q) if !q)
        } else {
            self.atom(true, false)
        };
        if !local || !self.consume('@') {
            return false;
        }
        self.skip_space();
        match self.peek() {
            None => false,
            Some('[') => self.domain_literal(),
            Some(_) => self.atom(true, false),
        }
    }

    /// `consumePhrase`: one or more words (atoms, quoted strings, encoded words), comments
    /// allowed between them; an error after the first word ends the phrase.
    fn phrase(&mut self) -> Option<()> {
        let mut words = 0;
        loop {
            if words > 0 && !self.skip_cfws() {
                return None;
            }
            self.skip_space();
            if self.s.is_empty() {
                break;
            }
            let ok = if self.peek() == Some('"') {
                self.quoted_string().is_some()
            } else {
                let start = self.s;
                self.atom(true, true) && encoded_word_ok(&start[..start.len() - self.s.len()])
            };
            if !ok {
                break;
            }
            words += 1;
        }
        (words > 0).then_some(())
    }

    /// `consumeQuotedString`: `Some(true)` when it is empty, `None` when malformed.
    fn quoted_string(&mut self) -> Option<bool> {
        let mut chars = self.s.char_indices().skip(1);
        let mut escaped = false;
        let mut empty = true;
        loop {
            let (i, c) = chars.next()?;
            if escaped {
                if !vchar(c) && !wsp(c) {
                    return None;
                }
                escaped = false;
                empty = false;
            } else if c == '"' {
                self.s = &self.s[i + 1..];
                return Some(empty);
            } else if c == '\\' {
                escaped = true;
            } else if vchar(c) || wsp(c) {
                empty = false;
            } else {
                return None;
            }
        }
    }

    /// `consumeAtom`: atext characters; unless `permissive`, no leading, trailing or double dot.
    fn atom(&mut self, dot: bool, permissive: bool) -> bool {
        let len = self.s.find(|c| !atext(c, dot)).unwrap_or(self.s.len());
        if len == 0 {
            return false;
        }
        let atom = &self.s[..len];
        if !permissive && (atom.starts_with('.') || atom.ends_with('.') || atom.contains("..")) {
            return false;
        }
        self.s = &self.s[len..];
        true
    }

    /// `consumeDomainLiteral`: `[` dtext `]`, the text an IP address as `net.ParseIP` reads it.
    fn domain_literal(&mut self) -> bool {
        if !self.consume('[') {
            return false;
        }
        let Some(end) = self.s.find(']') else {
            return false;
        };
        let text = &self.s[..end];
        if !text.chars().all(|c| c != '[' && c != '\\' && vchar(c)) {
            return false;
        }
        self.s = &self.s[end + 1..];
        super::net::go_ip(text)
    }

    /// `consumeDisplayNameComment`: a comment whose encoded words must name known charsets.
    fn display_name_comment(&mut self) -> Option<()> {
        if !self.consume('(') {
            return None;
        }
        let comment = self.comment()?;
        comment
            .split([' ', '\t'])
            .all(encoded_word_ok)
            .then_some(())
    }

    /// `skipCFWS`: spaces and comments; false for an unclosed comment.
    fn skip_cfws(&mut self) -> bool {
        self.skip_space();
        while self.consume('(') {
            if self.comment().is_none() {
                return false;
            }
            self.skip_space();
        }
        true
    }

    /// `consumeComment` after its `(`: nested parentheses, `\` escapes; the text inside.
    fn comment(&mut self) -> Option<String> {
        let mut depth = 1;
        let mut text = String::new();
        let bytes = self.s.as_bytes();
        let mut i = 0;
        while i < bytes.len() && depth > 0 {
            if bytes[i] == b'\\' && bytes.len() - i > 1 {
                i += 1;
            } else if bytes[i] == b'(' {
                depth += 1;
            } else if bytes[i] == b')' {
                depth -= 1;
            }
            if depth > 0 {
                text.push(char::from(bytes[i]));
            }
            i += 1;
        }
        // Go slices by bytes; the text is only split at ASCII blanks, so a byte-wise copy
        // keeps every ASCII character where Go has it
        self.s = self.s.get(i..).unwrap_or("");
        (depth == 0).then_some(text)
    }
}

/// Go's `decodeRFC2047Word` fails only for a well-formed encoded word (`=?charset?B|Q?text?=`,
/// its text decoding) whose charset Go's `mime` package cannot convert; anything else is plain
/// text.
fn encoded_word_ok(word: &str) -> bool {
    let Some(inner) = word
        .strip_prefix("=?")
        .and_then(|w| w.strip_suffix("?="))
        .filter(|_| word.len() >= 8 && word.matches('?').count() == 4)
    else {
        return true;
    };
    let mut parts = inner.splitn(3, '?');
    let (Some(charset), Some(encoding), Some(text)) = (parts.next(), parts.next(), parts.next())
    else {
        return true;
    };
    if charset.is_empty() || encoding.len() != 1 {
        return true;
    }
    let decodes = match encoding {
        "B" | "b" => {
            use base64::Engine;
            let engine = base64::engine::GeneralPurpose::new(
                &base64::alphabet::STANDARD,
                base64::engine::GeneralPurposeConfig::new().with_decode_allow_trailing_bits(true),
            );
            engine.decode(text).is_ok()
        }
        "Q" | "q" => q_decodes(text),
        _ => false,
    };
    if !decodes {
        return true;
    }
    ["utf-8", "iso-8859-1", "us-ascii"]
        .iter()
        .any(|known| charset.eq_ignore_ascii_case(known))
}

/// Go's `mime` `qDecode` succeeds: `_`, `=XX` (hex), printable ASCII, CR, LF, tab.
fn q_decodes(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'=' => {
                if i + 2 >= b.len()
                    || !b[i + 1].is_ascii_hexdigit()
                    || !b[i + 2].is_ascii_hexdigit()
                {
                    return false;
                }
                i += 2;
            }
            b' '..=b'~' | b'\n' | b'\r' | b'\t' => {}
            _ => return false,
        }
        i += 1;
    }
    true
}
