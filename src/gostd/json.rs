//! Go's `encoding/json` syntax check (`checkValid`, what `json.Unmarshal` runs before
//! decoding), with its error texts: `unexpected end of JSON input`, `invalid character 'x'
//! looking for beginning of value`, `… after object key:value pair`, `… in numeric literal`…

/// Go's `quoteChar`: a byte of the input in single quotes (a byte ≥ 0x80 as its Latin-1
/// character, as Go converts the byte to a rune).
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".into(),
        b'"' => "'\"'".into(),
        _ => {
            let q = crate::gostd::strconv::quote(&char::from(c).to_string());
            format!("'{}'", &q[1..q.len() - 1])
        }
    }
}

struct Scanner<'a> {
    s: &'a [u8],
    i: usize,
}

const EOF: &str = "unexpected end of JSON input";

impl Scanner<'_> {
    fn bad(&self, context: &str) -> String {
        format!("invalid character {} {context}", quote_char(self.s[self.i]))
    }

    fn space(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\r' | b'\n') {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn value(&mut self) -> Result<(), String> {
        self.space();
        let Some(c) = self.peek() else {
            return Err(EOF.into());
        };
        match c {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => self.string(),
            b'-' | b'0'..=b'9' => self.number(),
            b't' => self.literal("true"),
            b'f' => self.literal("false"),
            b'n' => self.literal("null"),
            _ => Err(self.bad("looking for beginning of value")),
        }
    }

    fn object(&mut self) -> Result<(), String> {
        self.i += 1;
        self.space();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(());
        }
        loop {
            self.space();
            match self.peek() {
                None => return Err(EOF.into()),
                Some(b'"') => self.string()?,
                Some(_) => return Err(self.bad("looking for beginning of object key string")),
            }
            self.space();
            match self.peek() {
                None => return Err(EOF.into()),
                Some(b':') => self.i += 1,
                Some(_) => return Err(self.bad("after object key")),
            }
            self.value()?;
            self.space();
            match self.peek() {
                None => return Err(EOF.into()),
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(_) => return Err(self.bad("after object key:value pair")),
            }
        }
    }

    fn array(&mut self) -> Result<(), String> {
        self.i += 1;
        self.space();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(());
        }
        loop {
            self.value()?;
            self.space();
            match self.peek() {
                None => return Err(EOF.into()),
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(_) => return Err(self.bad("after array element")),
            }
        }
    }

    fn string(&mut self) -> Result<(), String> {
        self.i += 1;
        loop {
            let Some(c) = self.peek() else {
                return Err(EOF.into());
            };
            match c {
                b'"' => {
                    self.i += 1;
                    return Ok(());
                }
                b'\\' => {
                    self.i += 1;
                    let Some(e) = self.peek() else {
                        return Err(EOF.into());
                    };
                    match e {
                        b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => self.i += 1,
                        b'u' => {
                            self.i += 1;
                            for _ in 0..4 {
                                match self.peek() {
                                    None => return Err(EOF.into()),
                                    Some(h) if h.is_ascii_hexdigit() => self.i += 1,
                                    Some(_) => {
                                        return Err(self.bad("in \\u hexadecimal character escape"));
                                    }
                                }
                            }
                        }
                        _ => return Err(self.bad("in string escape code")),
                    }
                }
                c if c < 0x20 => return Err(self.bad("in string literal")),
                _ => self.i += 1,
            }
        }
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
    }

    fn number(&mut self) -> Result<(), String> {
        if self.peek() == Some(b'-') {
            self.i += 1;
            match self.peek() {
                None => return Err(EOF.into()),
                Some(b'0'..=b'9') => {}
                Some(_) => return Err(self.bad("in numeric literal")),
            }
        }
        if self.peek() == Some(b'0') {
            self.i += 1;
        } else {
            self.digits();
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            match self.peek() {
                None => return Err(EOF.into()),
                Some(b'0'..=b'9') => self.digits(),
                Some(_) => return Err(self.bad("after decimal point in numeric literal")),
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            match self.peek() {
                None => return Err(EOF.into()),
                Some(b'0'..=b'9') => self.digits(),
                Some(_) => return Err(self.bad("in exponent of numeric literal")),
            }
        }
        Ok(())
    }

    fn literal(&mut self, word: &str) -> Result<(), String> {
        // The first byte was matched by the caller.
        for want in word.bytes() {
            match self.peek() {
                None => return Err(EOF.into()),
                Some(c) if c == want => self.i += 1,
                Some(_) => {
                    return Err(self.bad(&format!(
                        "in literal {word} (expecting {})",
                        quote_char(want)
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Go's `checkValid`: `Ok` for one well-formed JSON value (surrounded by white space), else
/// Go's `SyntaxError` text.
pub fn check_valid(s: &[u8]) -> Result<(), String> {
    let mut sc = Scanner { s, i: 0 };
    sc.value()?;
    sc.space();
    if sc.i < s.len() {
        return Err(sc.bad("after top-level value"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_valid;

    #[test]
    fn go_syntax_errors() {
        let cases = [
            ("{\"a\":1}", Ok(())),
            (" [1, 2.5e-3, true, null, \"x\\u00e9\"] ", Ok(())),
            ("", Err("unexpected end of JSON input")),
            ("{\"a\":", Err("unexpected end of JSON input")),
            (
                "x",
                Err("invalid character 'x' looking for beginning of value"),
            ),
            (
                "{a:1}",
                Err("invalid character 'a' looking for beginning of object key string"),
            ),
            ("{\"a\" 1}", Err("invalid character '1' after object key")),
            (
                "{\"a\":1 \"b\"}",
                Err("invalid character '\"' after object key:value pair"),
            ),
            ("[1 2]", Err("invalid character '2' after array element")),
            ("1 2", Err("invalid character '2' after top-level value")),
            ("-x", Err("invalid character 'x' in numeric literal")),
            (
                "1.x",
                Err("invalid character 'x' after decimal point in numeric literal"),
            ),
            (
                "1ex",
                Err("invalid character 'x' in exponent of numeric literal"),
            ),
            ("tru", Err("unexpected end of JSON input")),
            (
                "trux",
                Err("invalid character 'x' in literal true (expecting 'e')"),
            ),
            (
                "\"a\\x\"",
                Err("invalid character 'x' in string escape code"),
            ),
            (
                "\"\\u12x4\"",
                Err("invalid character 'x' in \\u hexadecimal character escape"),
            ),
            ("\"a\nb\"", Err("invalid character '\\n' in string literal")),
            ("01", Err("invalid character '1' after top-level value")),
        ];
        for (input, want) in cases {
            assert_eq!(
                check_valid(input.as_bytes()),
                want.map_err(String::from),
                "{input:?}"
            );
        }
    }
}
