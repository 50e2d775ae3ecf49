//! Go's `regexp/syntax` parser (Go 1.25, the `Perl` flags `regexp.Compile` uses), rewritten to
//! validate a pattern with Go's error codes and offending text and to translate it into an
//! equivalent pattern for the `regex` crate.
//!
//! The translation is explicit where the two dialects differ: `\d \w \s \b \B` and the POSIX
//! classes are ASCII-only as in Go; every literal is written as `\x{…}` so characters that are
//! special to the `regex` crate only (`\<`, `[` inside a class, `&&`, `--`, `~~`) mean what
//! they mean in Go; flags are applied per node; all groups are emitted unnamed (Go allows
//! duplicate and digit-first names) with the names kept on the side.
//!
//! Below `eval` (HCL's `regex`, `regexall`, `replace`) and `schema` (OpenAPI `pattern`, CEL
//! `matches`, `find`, `findAll`): Go's `regexp` and the API server's RE2 share these semantics.

/// A syntax error: Go's `ErrorCode` text and the offending part of the pattern.
#[derive(Debug, PartialEq)]
pub struct SyntaxError {
    /// Go's `ErrorCode` text.
    pub code: &'static str,
    /// The offending part of the pattern.
    pub expr: String,
}

/// Go's `ErrLarge`: also what a pattern too big for the `regex` crate reports.
pub const ERR_LARGE: &str = "expression too large";
const ERR_INVALID_CHAR_RANGE: &str = "invalid character class range";
const ERR_INVALID_ESCAPE: &str = "invalid escape sequence";
const ERR_INVALID_NAMED_CAPTURE: &str = "invalid named capture";
const ERR_INVALID_PERL_OP: &str = "invalid or unsupported Perl syntax";
const ERR_INVALID_REPEAT_OP: &str = "invalid nested repetition operator";
const ERR_INVALID_REPEAT_SIZE: &str = "invalid repeat count";
const ERR_MISSING_BRACKET: &str = "missing closing ]";
const ERR_MISSING_PAREN: &str = "missing closing )";
const ERR_MISSING_REPEAT_ARGUMENT: &str = "missing argument to repetition operator";
const ERR_TRAILING_BACKSLASH: &str = "trailing backslash at end of expression";
const ERR_UNEXPECTED_PAREN: &str = "unexpected )";
const ERR_NESTING_DEPTH: &str = "expression nests too deeply";

fn err(code: &'static str, expr: &str) -> SyntaxError {
    SyntaxError {
        code,
        expr: expr.to_string(),
    }
}

/// The text of `before` up to where `after` starts (Go's `before[:len(before)-len(after)]`).
fn upto<'a>(before: &'a str, after: &str) -> &'a str {
    &before[..before.len() - after.len()]
}

/// A pattern translated for the `regex` crate, with Go's capture-group names (empty for
/// unnamed groups), in group order.
pub struct Translated {
    /// The pattern in the `regex` crate's syntax.
    pub pattern: String,
    /// Go's capture-group names, in group order.
    pub names: Vec<String>,
}

mod escapes;
mod unicode_names;

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

/// A pattern compiled with Go's semantics.
#[derive(Debug)]
pub struct Compiled {
    /// The translated pattern, compiled by the `regex` crate.
    pub regex: regex::Regex,
    /// Go's `SubexpNames()[1:]`: one per group, empty for unnamed groups.
    pub names: Vec<String>,
}

/// How many compiled patterns the cache keeps: rules and functions call with few distinct
/// patterns, so a full cache is simply emptied rather than tracked by use.
const CACHE_ENTRIES: usize = 256;

/// Go's `regexp.Compile`, cached by pattern so a pattern used once per list item (a CEL rule's
/// `matches`, an HCL `regex` in a `for`) is compiled once.
pub fn compile(pattern: &str) -> Result<Arc<Compiled>, SyntaxError> {
    static CACHE: LazyLock<Mutex<HashMap<String, Arc<Compiled>>>> = LazyLock::new(Default::default);
    if let Some(re) = CACHE.lock().ok().and_then(|c| c.get(pattern).cloned()) {
        return Ok(re);
    }
    let translated = translate(pattern)?;
    let regex = regex::RegexBuilder::new(&translated.pattern)
        .size_limit(256 << 20)
        .nest_limit(10_000)
        .build()
        .map_err(|_| err(ERR_LARGE, pattern))?;
    let compiled = Arc::new(Compiled {
        regex,
        names: translated.names,
    });
    if let Ok(mut cache) = CACHE.lock() {
        if cache.len() >= CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(pattern.to_string(), compiled.clone());
    }
    Ok(compiled)
}

use escapes::{
    NOTHING, parse_class_char, parse_escape, parse_named_class, parse_perl_class,
    parse_unicode_class, range_item,
};

const FOLD: u8 = 1;
const ONE_LINE: u8 = 2;
const DOT_NL: u8 = 4;
const NON_GREEDY: u8 = 8;
const MAX_REPEAT: i64 = 1000;
const MAX_HEIGHT: usize = 1000;

enum Node {
    /// Already in the `regex` crate's syntax: literals, classes, assertions.
    Atom(String),
    Group {
        capture: bool,
        alts: Vec<Vec<Node>>,
        height: usize,
    },
    Repeat {
        sub: Box<Node>,
        min: i64,
        max: i64,
        greedy: bool,
        counted: bool,
        height: usize,
    },
}

impl Node {
    fn height(&self) -> usize {
        match self {
            Node::Atom(_) => 1,
            Node::Group { height, .. } | Node::Repeat { height, .. } => *height,
        }
    }

    fn emit(&self, out: &mut String) {
        match self {
            Node::Atom(s) => out.push_str(s),
            Node::Group { capture, alts, .. } => {
                out.push_str(if *capture { "(" } else { "(?:" });
                emit_alts(alts, out);
                out.push(')');
            }
            Node::Repeat {
                sub,
                min,
                max,
                greedy,
                ..
            } => {
                out.push_str("(?:");
                sub.emit(out);
                out.push(')');
                match (min, max) {
                    (0, -1) => out.push('*'),
                    (1, -1) => out.push('+'),
                    (min, -1) => out.push_str(&format!("{{{min},}}")),
                    (min, max) if min == max => out.push_str(&format!("{{{min}}}")),
                    (min, max) => out.push_str(&format!("{{{min},{max}}}")),
                }
                if !greedy {
                    out.push('?');
                }
            }
        }
    }
}

fn emit_alts(alts: &[Vec<Node>], out: &mut String) {
    for (i, alt) in alts.iter().enumerate() {
        if i > 0 {
            out.push('|');
        }
        for node in alt {
            node.emit(out);
        }
    }
}

/// Go's `repeatIsValid`: nested counted repetitions may not multiply beyond `n` copies.
fn repeat_is_valid(node: &Node, mut n: i64) -> bool {
    match node {
        Node::Atom(_) => true,
        Node::Group { alts, .. } => alts.iter().flatten().all(|s| repeat_is_valid(s, n)),
        Node::Repeat {
            sub,
            min,
            max,
            counted,
            ..
        } => {
            if *counted {
                let mut m = *max;
                if m == 0 {
                    return true;
                }
                if m < 0 {
                    m = *min;
                }
                if m > n {
                    return false;
                }
                if m > 0 {
                    n /= m;
                }
            }
            repeat_is_valid(sub, n)
        }
    }
}

struct Frame {
    /// Flags to restore at the closing parenthesis.
    flags: u8,
    capture: bool,
    alts: Vec<Vec<Node>>,
}

struct Parser<'a> {
    whole: &'a str,
    flags: u8,
    stack: Vec<Frame>,
    names: Vec<String>,
}

/// Parses `pattern` as Go's `regexp.Compile` does and translates it.
pub fn translate(pattern: &str) -> Result<Translated, SyntaxError> {
    let mut p = Parser {
        whole: pattern,
        flags: ONE_LINE,
        stack: vec![Frame {
            flags: ONE_LINE,
            capture: false,
            alts: vec![Vec::new()],
        }],
        names: Vec::new(),
    };
    let mut t = pattern;
    let mut last_repeat: Option<&str> = None;
    while let Some(c) = t.chars().next() {
        let mut repeat = None;
        match c {
            '(' if t[1..].starts_with('?') => t = p.parse_perl_flags(t)?,
            '(' => {
                p.names.push(String::new());
                p.open(true, p.flags);
                t = &t[1..];
            }
            '|' => {
                p.top().alts.push(Vec::new());
                t = &t[1..];
            }
            ')' => {
                p.close()?;
                t = &t[1..];
            }
            '^' => {
                let s = if p.flags & ONE_LINE != 0 {
                    r"\A"
                } else {
                    "(?m:^)"
                };
                p.push(s.to_string());
                t = &t[1..];
            }
            '$' => {
                let s = if p.flags & ONE_LINE != 0 {
                    r"\z"
                } else {
                    "(?m:$)"
                };
                p.push(s.to_string());
                t = &t[1..];
            }
            '.' => {
                let s = if p.flags & DOT_NL != 0 {
                    "(?s:.)"
                } else {
                    r"[^\n]"
                };
                p.push(s.to_string());
                t = &t[1..];
            }
            '[' => t = p.parse_class(t)?,
            '*' | '+' | '?' => {
                let (min, max) = match c {
                    '*' => (0, -1),
                    '+' => (1, -1),
                    _ => (0, 1),
                };
                repeat = Some(t);
                t = p.repeat(min, max, false, t, &t[1..], last_repeat)?;
            }
            '{' => match parse_repeat(t) {
                None => {
                    p.literal('{' as u32);
                    t = &t[1..];
                }
                Some((min, max, after)) => {
                    if !(0..=MAX_REPEAT).contains(&min) || max > MAX_REPEAT || max >= 0 && min > max
                    {
                        return Err(err(ERR_INVALID_REPEAT_SIZE, upto(t, after)));
                    }
                    repeat = Some(t);
                    t = p.repeat(min, max, true, t, after, last_repeat)?;
                }
            },
            '\\' => t = p.parse_backslash(t)?,
            c => {
                p.literal(c as u32);
                t = &t[c.len_utf8()..];
            }
        }
        last_repeat = repeat;
    }
    if p.stack.len() != 1 {
        return Err(err(ERR_MISSING_PAREN, pattern));
    }
    let top = p.stack.pop().expect("top frame");
    let mut out = String::from("(?:");
    emit_alts(&top.alts, &mut out);
    out.push(')');
    Ok(Translated {
        pattern: out,
        names: p.names,
    })
}

impl<'a> Parser<'a> {
    fn top(&mut self) -> &mut Frame {
        self.stack.last_mut().expect("top frame")
    }

    fn alt(&mut self) -> &mut Vec<Node> {
        self.top().alts.last_mut().expect("an alternative")
    }

    fn push(&mut self, atom: String) {
        self.alt().push(Node::Atom(atom));
    }

    fn open(&mut self, capture: bool, flags: u8) {
        self.stack.push(Frame {
            flags,
            capture,
            alts: vec![Vec::new()],
        });
    }

    fn close(&mut self) -> Result<(), SyntaxError> {
        if self.stack.len() < 2 {
            return Err(err(ERR_UNEXPECTED_PAREN, self.whole));
        }
        let frame = self.stack.pop().expect("open frame");
        self.flags = frame.flags;
        let inner = frame
            .alts
            .iter()
            .flatten()
            .map(Node::height)
            .max()
            .unwrap_or(0);
        let extra =
            usize::from(frame.alts.len() > 1) + usize::from(frame.alts.iter().any(|a| a.len() > 1));
        let height = inner + extra + usize::from(frame.capture);
        if height > MAX_HEIGHT {
            return Err(err(ERR_NESTING_DEPTH, self.whole));
        }
        self.alt().push(Node::Group {
            capture: frame.capture,
            alts: frame.alts,
            height,
        });
        Ok(())
    }

    /// A literal character (a `u32`: Go's escapes can name surrogates, which match nothing).
    fn literal(&mut self, c: u32) {
        let atom = match char::from_u32(c) {
            Some(c) if c.is_ascii_alphanumeric() => c.to_string(),
            Some(_) => format!("\\x{{{c:X}}}"),
            None => NOTHING.to_string(),
        };
        let atom = if self.flags & FOLD != 0 {
            format!("(?i:{atom})")
        } else {
            atom
        };
        self.push(atom);
    }

    fn class(&mut self, negated: bool, items: &[String]) {
        let mut s = String::from(if negated { "[^" } else { "[" });
        if items.is_empty() {
            s.push_str(NOTHING);
        }
        for item in items {
            s.push_str(item);
        }
        s.push(']');
        if self.flags & FOLD != 0 {
            s = format!("(?i:{s})");
        }
        self.push(s);
    }

    /// Go's `parser.repeat`.
    fn repeat(
        &mut self,
        min: i64,
        max: i64,
        counted: bool,
        before: &'a str,
        after: &'a str,
        last_repeat: Option<&'a str>,
    ) -> Result<&'a str, SyntaxError> {
        let mut after = after;
        let mut flags = self.flags;
        if let Some(rest) = after.strip_prefix('?') {
            after = rest;
            flags ^= NON_GREEDY;
        }
        if let Some(last) = last_repeat {
            return Err(err(ERR_INVALID_REPEAT_OP, upto(last, after)));
        }
        let Some(sub) = self.alt().pop() else {
            return Err(err(ERR_MISSING_REPEAT_ARGUMENT, upto(before, after)));
        };
        let height = sub.height() + 1;
        let node = Node::Repeat {
            sub: Box::new(sub),
            min,
            max,
            greedy: flags & NON_GREEDY == 0,
            counted,
            height,
        };
        if counted && (min >= 2 || max >= 2) && !repeat_is_valid(&node, MAX_REPEAT) {
            return Err(err(ERR_INVALID_REPEAT_SIZE, upto(before, after)));
        }
        if height > MAX_HEIGHT {
            return Err(err(ERR_NESTING_DEPTH, self.whole));
        }
        self.alt().push(node);
        Ok(after)
    }

    /// Go's `parsePerlFlags`: named captures, flag changes and non-capturing groups.
    fn parse_perl_flags(&mut self, s: &'a str) -> Result<&'a str, SyntaxError> {
        let b = s.as_bytes();
        let starts_with_p = b.len() > 4 && b[2] == b'P' && b[3] == b'<';
        let starts_with_name = b.len() > 3 && b[2] == b'<';
        if starts_with_p || starts_with_name {
            let expr_start = if starts_with_p { 4 } else { 3 };
            let Some(end) = s.find('>') else {
                return Err(err(ERR_INVALID_NAMED_CAPTURE, s));
            };
            let capture = &s[..=end];
            let name = &s[expr_start..end];
            if name.is_empty() || !name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()) {
                return Err(err(ERR_INVALID_NAMED_CAPTURE, capture));
            }
            self.names.push(name.to_string());
            self.open(true, self.flags);
            return Ok(&s[end + 1..]);
        }
        let mut t = &s[2..];
        let mut flags = self.flags;
        let mut negated = false;
        let mut saw_flag = false;
        while let Some(c) = t.chars().next() {
            t = &t[c.len_utf8()..];
            match c {
                'i' | 'm' | 's' | 'U' => {
                    let bit = match c {
                        'i' => FOLD,
                        'm' => ONE_LINE,
                        's' => DOT_NL,
                        _ => NON_GREEDY,
                    };
                    // `m` clears OneLine; the others set their flag. Negation inverts.
                    let set = (c != 'm') != negated;
                    if set {
                        flags |= bit;
                    } else {
                        flags &= !bit;
                    }
                    saw_flag = true;
                }
                '-' => {
                    if negated {
                        break;
                    }
                    negated = true;
                    saw_flag = false;
                }
                ':' | ')' => {
                    if negated && !saw_flag {
                        break;
                    }
                    if c == ':' {
                        self.open(false, self.flags);
                    }
                    self.flags = flags;
                    return Ok(t);
                }
                _ => break,
            }
        }
        Err(err(ERR_INVALID_PERL_OP, upto(s, t)))
    }

    /// A backslash sequence outside a class.
    fn parse_backslash(&mut self, t: &'a str) -> Result<&'a str, SyntaxError> {
        match t.as_bytes().get(1) {
            Some(b'A') => {
                self.push(r"\A".to_string());
                return Ok(&t[2..]);
            }
            Some(b'b') => {
                self.push(r"(?-u:\b)".to_string());
                return Ok(&t[2..]);
            }
            Some(b'B') => {
                self.push(r"(?-u:\B)".to_string());
                return Ok(&t[2..]);
            }
            Some(b'C') => return Err(err(ERR_INVALID_ESCAPE, &t[..2])),
            Some(b'Q') => {
                let (lit, rest) = t[2..].split_once(r"\E").unwrap_or((&t[2..], ""));
                for c in lit.chars() {
                    self.literal(c as u32);
                }
                return Ok(rest);
            }
            Some(b'z') => {
                self.push(r"\z".to_string());
                return Ok(&t[2..]);
            }
            Some(b'p' | b'P') => {
                let (item, rest) = parse_unicode_class(t)?;
                self.class(false, &[item]);
                return Ok(rest);
            }
            _ => {}
        }
        if let Some((item, rest)) = parse_perl_class(t) {
            self.class(false, &[item]);
            return Ok(rest);
        }
        let (c, rest) = parse_escape(t)?;
        self.literal(c);
        Ok(rest)
    }

    /// Go's `parseClass`: `s` starts with `[`.
    fn parse_class(&mut self, s: &'a str) -> Result<&'a str, SyntaxError> {
        let mut t = &s[1..];
        let mut negated = false;
        if let Some(rest) = t.strip_prefix('^') {
            negated = true;
            t = rest;
        }
        let mut items = Vec::new();
        let mut first = true;
        while t.is_empty() || !t.starts_with(']') || first {
            first = false;
            if t.len() > 2
                && t.starts_with("[:")
                && let Some((item, rest)) = parse_named_class(t)?
            {
                items.push(item);
                t = rest;
                continue;
            }
            if t.starts_with(r"\p") || t.starts_with(r"\P") {
                let (item, rest) = parse_unicode_class(t)?;
                items.push(item);
                t = rest;
                continue;
            }
            if let Some((item, rest)) = parse_perl_class(t) {
                items.push(item);
                t = rest;
                continue;
            }
            let rng = t;
            let (lo, rest) = parse_class_char(t, s)?;
            t = rest;
            let mut hi = lo;
            if t.len() >= 2 && t.starts_with('-') && !t[1..].starts_with(']') {
                let (h, rest) = parse_class_char(&t[1..], s)?;
                t = rest;
                hi = h;
                if hi < lo {
                    return Err(err(ERR_INVALID_CHAR_RANGE, upto(rng, t)));
                }
            }
            if let Some(item) = range_item(lo, hi) {
                items.push(item);
            }
        }
        self.class(negated, &items);
        Ok(&t[1..])
    }
}

/// Go's `parseRepeat`: `{n}`, `{n,}` or `{n,m}` at the start of `s`; a count that is too big
/// is `-1`. `None` when `s` does not have that form (then `{` is a literal).
fn parse_repeat(s: &str) -> Option<(i64, i64, &str)> {
    let s = s.strip_prefix('{')?;
    let (min, s) = parse_int(s)?;
    let (max, s) = if let Some(s) = s.strip_prefix(',') {
        if s.starts_with('}') {
            (-1, s)
        } else {
            let (max, s) = parse_int(s)?;
            return s
                .strip_prefix('}')
                .map(|rest| (if max < 0 { -1 } else { min }, max, rest));
        }
    } else {
        (min, s)
    };
    s.strip_prefix('}').map(|rest| (min, max, rest))
}

/// Go's `parseInt`: decimal digits without a leading zero; `-1` from 10^8 on.
fn parse_int(s: &str) -> Option<(i64, &str)> {
    let b = s.as_bytes();
    if !b.first()?.is_ascii_digit() {
        return None;
    }
    if b.len() >= 2 && b[0] == b'0' && b[1].is_ascii_digit() {
        return None;
    }
    let len = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut n: i64 = 0;
    for &c in &b[..len] {
        if n >= 100_000_000 {
            n = -1;
            break;
        }
        n = n * 10 + i64::from(c - b'0');
    }
    Some((n, &s[len..]))
}
