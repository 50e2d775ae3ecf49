//! The body as written: a tolerant reading of the object constructor from the tokens (a
//! half-typed body makes the parser drop the items that lead to the cursor), and where the
//! cursor is in it.

use crate::schema::Segment;
use crate::syntax::ast::{Body, Expr};
use crate::syntax::lex::{Token, TokenKind, lex};
use std::ops::Range;

/// An object constructor.
#[derive(Debug)]
pub(super) struct Object {
    /// From the `{` to the end of the `}` (or where the reading stopped).
    pub(super) span: Range<usize>,
    /// Where the inside ends: the `}`'s start (or where the reading stopped).
    pub(super) inner_end: usize,
    pub(super) items: Vec<Item>,
}

/// `key = value`, or a key alone (being typed).
#[derive(Debug)]
pub(super) struct Item {
    /// A bare or quoted literal key; `None` when computed.
    pub(super) key: Option<String>,
    pub(super) key_span: Range<usize>,
    /// The `=` or `:`.
    pub(super) equals: Option<Range<usize>>,
    /// From after the `=` to the end of the value (to the next token when there is none).
    pub(super) value_region: Range<usize>,
    pub(super) value: Option<Value>,
}

#[derive(Debug)]
pub(super) struct Value {
    pub(super) span: Range<usize>,
    pub(super) kind: ValueKind,
}

#[derive(Debug)]
pub(super) enum ValueKind {
    Object(Object),
    Tuple(Vec<Value>, Range<usize>),
    /// A string without interpolations.
    String(String),
    Other,
}

impl Object {
    /// The literal string value of the literal key `key`.
    pub(super) fn literal(&self, key: &str) -> Option<&str> {
        self.items
            .iter()
            .find(|item| item.key.as_deref() == Some(key))
            .and_then(|item| match &item.value.as_ref()?.kind {
                ValueKind::String(s) => Some(s.as_str()),
                _ => None,
            })
    }
}

/// The `body` object of the `resource` or `template` around `offset`, read from the tokens.
pub(super) fn read_body(text: &str, top: &Body, offset: usize) -> Option<Object> {
    let expr = body_expr(top, offset, false)?;
    let start = expr.span.start as usize;
    if !text[start..].starts_with('{') {
        return None;
    }
    let tokens = lex(text);
    let first = tokens.iter().position(|t| t.start as usize == start)?;
    let mut reader = Reader {
        text,
        tokens: &tokens,
        at: first,
        end: expr.span.end as usize,
    };
    let object = reader.object();
    (object.span.start < offset && offset <= object.inner_end).then_some(object)
}

/// The `body` expression around `offset`: of a `resource` (through `group`s) or of a
/// `template` (in `resources`).
pub(super) fn body_expr(body: &Body, offset: usize, in_collection: bool) -> Option<&Expr> {
    for block in &body.blocks {
        let inside =
            block.open_brace.end as usize <= offset && offset <= block.close_brace.start as usize;
        if !inside {
            continue;
        }
        match (block.kind.as_str(), in_collection) {
            ("group", false) => return body_expr(&block.body, offset, false),
            ("resources", false) => return body_expr(&block.body, offset, true),
            ("resource", false) | ("template", true) => {
                let attr = block.body.attributes.iter().find(|a| a.name == "body")?;
                let span = &attr.expr.span;
                return (span.start as usize <= offset && offset <= span.end as usize)
                    .then_some(&attr.expr);
            }
            _ => return None,
        }
    }
    None
}

/// Reads objects, tuples and the extent of other expressions from the tokens, never failing:
/// a key without `=` is an item being typed, a missing `}` ends the object at `end`.
pub(super) struct Reader<'a> {
    pub(super) text: &'a str,
    pub(super) tokens: &'a [Token],
    pub(super) at: usize,
    /// Tokens from here on are not read.
    pub(super) end: usize,
}

impl Reader<'_> {
    pub(super) fn peek_token(&self) -> Option<Token> {
        self.tokens
            .get(self.at)
            .copied()
            .filter(|t| (t.start as usize) < self.end && t.kind != TokenKind::Eof)
    }

    pub(super) fn peek(&self) -> TokenKind {
        self.peek_token().map_or(TokenKind::Eof, |t| t.kind)
    }

    /// Where the next token starts (`end` at the end).
    pub(super) fn next_start(&self) -> usize {
        self.peek_token().map_or(self.end, |t| t.start as usize)
    }

    /// Where the last read token ends.
    pub(super) fn last_end(&self) -> usize {
        self.at
            .checked_sub(1)
            .and_then(|i| self.tokens.get(i))
            .map_or(self.end, |t| t.end as usize)
    }

    /// A comment that ends its line (`#`, `//`) separates items as a newline does.
    pub(super) fn at_line_end(&self) -> bool {
        match self.peek_token() {
            Some(t) if t.kind == TokenKind::Newline => true,
            Some(t) if t.kind == TokenKind::Comment => t.text(self.text).ends_with('\n'),
            _ => false,
        }
    }

    /// An object constructor, at its `{`.
    pub(super) fn object(&mut self) -> Object {
        let start = self.next_start();
        self.at += 1;
        let mut items = Vec::new();
        loop {
            match self.peek() {
                TokenKind::Newline | TokenKind::Comma | TokenKind::Comment => self.at += 1,
                TokenKind::CBrace => {
                    let close = self.peek_token().map_or(self.end, |t| t.start as usize);
                    self.at += 1;
                    return Object {
                        span: start..close + 1,
                        inner_end: close,
                        items,
                    };
                }
                TokenKind::Eof => {
                    return Object {
                        span: start..self.end,
                        inner_end: self.end,
                        items,
                    };
                }
                // A stray closer: skipped.
                TokenKind::CBrack | TokenKind::CParen | TokenKind::TemplateSeqEnd => self.at += 1,
                _ => items.push(self.item()),
            }
        }
    }

    /// `key = value`, `key: value`, or a key alone.
    pub(super) fn item(&mut self) -> Item {
        let first = self.at;
        let key_start = self.next_start();
        self.skip(|k| matches!(k, TokenKind::Equal | TokenKind::Colon));
        let key_end = self.last_end().max(key_start);
        let key = self.literal(first, self.at, true);
        let mut item = Item {
            key,
            key_span: key_start..key_end,
            equals: None,
            value_region: key_end..key_end,
            value: None,
        };
        if !matches!(self.peek(), TokenKind::Equal | TokenKind::Colon) {
            return item;
        }
        let equals = self.peek_token().map(|t| t.range()).unwrap_or_default();
        self.at += 1;
        item.value_region = equals.end..self.next_start();
        item.equals = Some(equals);
        let ends_item = matches!(
            self.peek(),
            TokenKind::Comma | TokenKind::CBrace | TokenKind::Eof
        ) || self.at_line_end();
        if !ends_item {
            let value = self.value();
            item.value_region.end = value.span.end;
            item.value = Some(value);
        }
        item
    }

    /// A value: an object or tuple constructor read inside, anything else skipped.
    pub(super) fn value(&mut self) -> Value {
        let first = self.at;
        let start = self.next_start();
        let is_for = |r: &Self| {
            r.tokens
                .get(r.at + 1)
                .is_some_and(|t| t.kind == TokenKind::Ident && t.text(r.text) == "for")
        };
        let kind = match self.peek() {
            TokenKind::OBrace if !is_for(self) => ValueKind::Object(self.object()),
            TokenKind::OBrack => {
                self.at += 1;
                let mut elements = Vec::new();
                let close = loop {
                    match self.peek() {
                        TokenKind::Newline | TokenKind::Comma | TokenKind::Comment => self.at += 1,
                        TokenKind::CBrack => {
                            let close = self.next_start();
                            self.at += 1;
                            break close;
                        }
                        TokenKind::Eof
                        | TokenKind::CBrace
                        | TokenKind::CParen
                        | TokenKind::TemplateSeqEnd => break self.next_start(),
                        _ => elements.push(self.value()),
                    }
                };
                let inner = start + 1..close.max(start + 1);
                ValueKind::Tuple(elements, inner)
            }
            _ => {
                self.skip(|_| false);
                ValueKind::String(String::new())
            }
        };
        // Whatever follows a constructor (`{…}.x`, `[…][0]`) makes another expression.
        let ends = |r: &Self| {
            matches!(
                r.peek(),
                TokenKind::Comma
                    | TokenKind::CBrace
                    | TokenKind::CBrack
                    | TokenKind::CParen
                    | TokenKind::Eof
            ) || r.at_line_end()
        };
        let kind = match kind {
            ValueKind::String(_) => match self.literal(first, self.at, false) {
                Some(s) => ValueKind::String(s),
                None => ValueKind::Other,
            },
            other if ends(self) => other,
            _ => {
                self.skip(|_| false);
                ValueKind::Other
            }
        };
        // An unterminated constructor reaches the end of what is read.
        let end = match &kind {
            ValueKind::Object(o) => o.span.end,
            ValueKind::Tuple(_, inner) => inner.end,
            _ => start,
        };
        Value {
            span: start..self.last_end().max(end),
            kind,
        }
    }

    /// Skips an expression: to a separator, a closer, or a token `stop` wants, outside any
    /// brackets, strings and interpolations.
    pub(super) fn skip(&mut self, stop: impl Fn(TokenKind) -> bool) {
        let mut depth = 0usize;
        loop {
            let kind = self.peek();
            if kind == TokenKind::Eof {
                return;
            }
            if depth == 0
                && (stop(kind)
                    || self.at_line_end()
                    || matches!(
                        kind,
                        TokenKind::Comma
                            | TokenKind::CBrace
                            | TokenKind::CBrack
                            | TokenKind::CParen
                            | TokenKind::TemplateSeqEnd
                    ))
            {
                return;
            }
            match kind {
                TokenKind::OBrace
                | TokenKind::OBrack
                | TokenKind::OParen
                | TokenKind::OQuote
                | TokenKind::OHeredoc
                | TokenKind::TemplateInterp
                | TokenKind::TemplateControl => depth += 1,
                TokenKind::CBrace
                | TokenKind::CBrack
                | TokenKind::CParen
                | TokenKind::CQuote
                | TokenKind::CHeredoc
                | TokenKind::TemplateSeqEnd => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.at += 1;
        }
    }

    /// The literal string of tokens `from..to`: a quoted string without interpolations, or
    /// (`bare`) one identifier.
    pub(super) fn literal(&self, from: usize, to: usize, bare: bool) -> Option<String> {
        let tokens = self.tokens.get(from..to)?;
        match tokens {
            [t] if bare && t.kind == TokenKind::Ident => Some(t.text(self.text).to_string()),
            [open, close] if open.kind == TokenKind::OQuote && close.kind == TokenKind::CQuote => {
                Some(String::new())
            }
            [open, lit, close]
                if open.kind == TokenKind::OQuote
                    && lit.kind == TokenKind::QuotedLit
                    && close.kind == TokenKind::CQuote =>
            {
                Some(crate::syntax::decode_literal(lit.text(self.text), true).0)
            }
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The cursor in the body.

/// Where the cursor is in the body.
#[derive(Debug)]
pub(super) struct Cursor<'o> {
    /// From the body root to the object the cursor is in (keys, and indexes in tuples); in a
    /// value, to the value.
    pub(super) path: Vec<Segment>,
    /// The innermost object around the cursor.
    pub(super) object: &'o Object,
    pub(super) place: Place,
}

#[derive(Debug, PartialEq)]
pub(super) enum Place {
    /// Where a key goes; `current`: the item whose key the cursor is on (being typed).
    Key { current: Option<usize> },
    /// In the value of the field at the end of the path (`span`: what is written there).
    Value { span: Range<usize> },
}

/// The cursor in an object (the cursor is inside its braces).
pub(super) fn locate<'o>(object: &'o Object, offset: usize) -> Option<Cursor<'o>> {
    let mut path = Vec::new();
    let mut object = object;
    'descend: loop {
        for (i, item) in object.items.iter().enumerate() {
            let in_value = item.equals.is_some()
                && item.value_region.start <= offset
                && offset <= item.value_region.end;
            if item.key_span.start <= offset && offset <= item.key_span.end && !in_value {
                return Some(Cursor {
                    path,
                    object,
                    place: Place::Key { current: Some(i) },
                });
            }
            if !in_value {
                continue;
            }
            let key = || item.key.clone().map(Segment::Key);
            let Some(value) = &item.value else {
                path.push(key()?);
                return Some(Cursor {
                    path,
                    object,
                    place: Place::Value {
                        span: offset..offset,
                    },
                });
            };
            match &value.kind {
                ValueKind::Object(inner)
                    if inner.span.start < offset && offset <= inner.inner_end =>
                {
                    path.push(key()?);
                    object = inner;
                    continue 'descend;
                }
                ValueKind::Tuple(elements, inner)
                    if inner.start <= offset && offset <= inner.end =>
                {
                    path.push(key()?);
                    let mut index = elements.iter().take_while(|e| e.span.end < offset).count();
                    let mut elements = elements;
                    // Nested tuples: down to the innermost element around the cursor.
                    loop {
                        path.push(Segment::Index(index));
                        match elements.get(index).map(|e| &e.kind) {
                            Some(ValueKind::Object(inner))
                                if inner.span.start < offset && offset <= inner.inner_end =>
                            {
                                object = inner;
                                continue 'descend;
                            }
                            Some(ValueKind::Tuple(inner_elements, inner))
                                if inner.start <= offset && offset <= inner.end =>
                            {
                                index = inner_elements
                                    .iter()
                                    .take_while(|e| e.span.end < offset)
                                    .count();
                                elements = inner_elements;
                            }
                            Some(_) if elements[index].span.start <= offset => {
                                let span = elements[index].span.clone();
                                return Some(Cursor {
                                    path,
                                    object,
                                    place: Place::Value { span },
                                });
                            }
                            _ => {
                                return Some(Cursor {
                                    path,
                                    object,
                                    place: Place::Value {
                                        span: offset..offset,
                                    },
                                });
                            }
                        }
                    }
                }
                ValueKind::Object(_) | ValueKind::Tuple(..) => return None,
                _ => {
                    path.push(key()?);
                    // Nothing written yet before the cursor: an empty span.
                    let span = if offset <= value.span.start {
                        offset..offset
                    } else {
                        value.span.clone()
                    };
                    return Some(Cursor {
                        path,
                        object,
                        place: Place::Value { span },
                    });
                }
            }
        }
        return Some(Cursor {
            path,
            object,
            place: Place::Key { current: None },
        });
    }
}
