//! Templates: quoted strings, heredocs (with `<<-` flush dedent), interpolations, `%{if}` and
//! `%{for}` directives and strip markers, following hclsyntax's `parser_template.go`; and the
//! decoding of literal text (escapes, `$${`, `%%{`).

use super::ast::{Expr, ExprKind, ForExpr, Literal, Text, TextRange, between};
use super::lex::{Token, TokenKind};
use super::parse::Parser;
use super::template_part::{Ctrl, Part};
use unicode_segmentation::UnicodeSegmentation;

fn expr_error(span: TextRange) -> Expr {
    Expr {
        kind: ExprKind::Error,
        span,
    }
}

fn literal(value: String, span: TextRange) -> Expr {
    Expr {
        kind: ExprKind::Literal(Literal::String(value)),
        span,
    }
}

impl Parser<'_> {
    /// After a `"`: the text of a string of literal tokens only (`"abc"`, `""`, `"%s-%d"`,
    /// `"$${x}"`; most strings), read without the template machinery, with the escape
    /// diagnostics the template parser would give; the string is an
    /// [`ExprKind::QuotedLiteral`]. `None`, with nothing read, for any other string (or one
    /// whose tokens are not all scanned yet).
    pub(super) fn parse_plain_quoted(&mut self) -> Option<Text> {
        let ahead = self.scanned_ahead();
        let literals = ahead
            .iter()
            .take_while(|t| t.kind == TokenKind::QuotedLit)
            .count();
        if ahead.get(literals)?.kind != TokenKind::CQuote {
            return None;
        }
        let length = match literals {
            0 => 0,
            _ => (ahead[literals - 1].end - ahead[0].start) as usize,
        };
        let mut value = std::mem::take(&mut self.quoted_text);
        value.clear();
        value.reserve(length);
        if literals > 0 {
            let first = self.read();
            let mut last = first;
            for _ in 1..literals {
                last = self.read();
            }
            // The tokens are decoded as one text: they were cut only at a `$` or `%` that
            // opens no sequence, or after a `$${`/`%%{` escape, where decoding does not look
            // across (the tests compare it with decoding token by token).
            let text = Token {
                kind: TokenKind::QuotedLit,
                start: first.start,
                end: last.end,
            };
            self.decode_literal_into(text, &mut value);
        }
        self.read();
        let text = Text::from(value.as_str());
        self.quoted_text = value;
        Some(text)
    }

    /// Parses template content up to `end`; returns the parts and whether the template is a
    /// single interpolation (hcl's pass-through `TemplateWrapExpr`).
    pub(super) fn parse_template_inner(
        &mut self,
        end: TokenKind,
        flush: bool,
    ) -> (Vec<Expr>, bool) {
        let mut parts = self.parse_template_parts(end, !flush);
        if flush {
            flush_heredoc(&mut parts);
        }
        meld_literals(&mut parts);
        let passthru = parts.len() == 2 && matches!(parts[0], Part::Interp { .. });
        let mut tp = TemplateParser {
            parts,
            pos: 0,
            parser: self,
            abandoned: false,
        };
        let exprs = tp.parse_root();
        let TemplateParser {
            mut parts, parser, ..
        } = tp;
        parts.clear();
        parser.spare_parts = parts;
        (exprs, passthru)
    }

    /// The template's parts up to `end`. With `join`, a literal token that follows a literal
    /// is decoded straight onto it (what [`meld_literals`] would do later) instead of into a
    /// string of its own; a heredoc to flush needs its lines apart, so it does not join.
    fn parse_template_parts(&mut self, end: TokenKind, join: bool) -> Vec<Part> {
        // The list of the last template parsed, emptied: one list serves a whole file (a
        // template nested in this one's interpolations starts a list of its own).
        let mut parts = std::mem::take(&mut self.spare_parts);
        let start_range = self.peek().range32();
        let mut ltrim_next = false;
        let mut next_can_trim_prev = false;
        // Where the last literal token's text begins in the last literal part: a `${~`
        // trims only that token's text, as it did before the literals were joined.
        let mut tail_from = 0;
        let end_range;
        loop {
            let next = self.read();
            if next.kind == end {
                end_range = next.range32();
                break;
            }
            let ltrim = std::mem::take(&mut ltrim_next);
            let can_trim_prev = std::mem::take(&mut next_can_trim_prev);
            match next.kind {
                TokenKind::StringLit | TokenKind::QuotedLit => {
                    // A literal after a literal continues it when joining; otherwise it
                    // starts a part of its own.
                    if !(join && matches!(parts.last(), Some(Part::Literal { .. }))) {
                        parts.push(Part::Literal {
                            value: String::with_capacity(next.range().len()),
                            span: next.range32(),
                        });
                    }
                    if let Some(Part::Literal { value, span }) = parts.last_mut() {
                        tail_from = value.len();
                        self.decode_literal_into(next, value);
                        if ltrim {
                            let tail = &value[tail_from..];
                            let cut =
                                tail.len() - tail.trim_start_matches(char::is_whitespace).len();
                            value.drain(tail_from..tail_from + cut);
                        }
                        span.end = next.end;
                    }
                    next_can_trim_prev = true;
                }
                TokenKind::TemplateInterp => {
                    trim_previous(&mut parts, can_trim_prev, self.text(next), tail_from);
                    self.push_newlines(false);
                    let expr = self.parse_expression();
                    let close = self.peek();
                    if close.kind != TokenKind::TemplateSeqEnd {
                        if !self.recovery {
                            self.report_unclosed_interp(close, end, &start_range);
                        }
                        self.recover(TokenKind::TemplateSeqEnd);
                    } else {
                        self.read();
                        ltrim_next = self.text(close).starts_with('~');
                    }
                    self.pop_newlines();
                    parts.push(Part::Interp {
                        expr,
                        span: between(&next.range32(), &close.range32()),
                    });
                }
                TokenKind::TemplateControl => {
                    trim_previous(&mut parts, can_trim_prev, self.text(next), tail_from);
                    self.push_newlines(false);
                    if let Some(part) = self.parse_directive(next, &start_range) {
                        parts.push(part);
                        let close = self.peek();
                        if close.kind != TokenKind::TemplateSeqEnd {
                            if !self.recovery {
                                let keyword = directive_keyword(&parts);
                                self.error(
                                    &format!("Extra characters in {keyword} marker"),
                                    "Expected a closing brace to end the sequence, but found extra characters.",
                                    close.range32(),
                                );
                            }
                            self.recover(TokenKind::TemplateSeqEnd);
                        } else {
                            self.read();
                            ltrim_next = self.text(close).starts_with('~');
                        }
                    }
                    self.pop_newlines();
                }
                _ => {
                    if !self.recovery {
                        self.error(
                            "Unterminated template string",
                            "No closing marker was found for the string.",
                            next.range32(),
                        );
                    }
                    let last = self.recover(end);
                    end_range = last.range32();
                    break;
                }
            }
        }
        if parts.is_empty() {
            parts.push(Part::Literal {
                value: String::new(),
                span: start_range.end..start_range.end,
            });
        }
        parts.push(Part::End { span: end_range });
        parts
    }

    fn report_unclosed_interp(&mut self, close: Token, end: TokenKind, start_range: &TextRange) {
        match close.kind {
            TokenKind::Eof => self.error(
                "Unclosed template interpolation sequence",
                "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.",
                start_range.clone(),
            ),
            TokenKind::Colon => self.error(
                "Extra characters after interpolation expression",
                "Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\".",
                close.range32(),
            ),
            TokenKind::CQuote | TokenKind::OQuote if end == TokenKind::CQuote => self.error(
                "Unclosed template interpolation sequence",
                "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.",
                start_range.clone(),
            ),
            _ => self.error(
                "Extra characters after interpolation expression",
                "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".",
                close.range32(),
            ),
        }
    }

    /// The part for a `%{ … }` directive, or `None` after an error (already recovered).
    fn parse_directive(&mut self, open: Token, _start: &TextRange) -> Option<Part> {
        let kw = self.peek();
        if kw.kind != TokenKind::Ident {
            if !self.recovery {
                self.error(
                    "Invalid template directive",
                    "A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence.",
                    kw.range32(),
                );
            }
            self.recover(TokenKind::TemplateSeqEnd);
            return None;
        }
        self.read();
        let span_to_next = |p: &Self| between(&open.range32(), &p.peek().range32());
        match self.text(kw) {
            "if" => {
                let condition = self.parse_expression();
                Some(Part::If {
                    condition,
                    span: span_to_next(self),
                })
            }
            "else" => Some(Part::EndCtrl {
                kind: Ctrl::Else,
                span: span_to_next(self),
            }),
            "endif" => Some(Part::EndCtrl {
                kind: Ctrl::EndIf,
                span: span_to_next(self),
            }),
            "endfor" => Some(Part::EndCtrl {
                kind: Ctrl::EndFor,
                span: span_to_next(self),
            }),
            "for" => self.parse_for_directive(open),
            given => {
                if !self.recovery {
                    let given = given.to_string();
                    let suggestion = crate::diagnostics::suggest::name_suggestion(
                        &given,
                        &["if", "for", "else", "endif", "endfor"],
                    )
                    .map(|s| format!(" Did you mean {s:?}?"))
                    .unwrap_or_default();
                    self.error(
                        "Invalid template control keyword",
                        &format!("{given:?} is not a valid template control keyword.{suggestion}"),
                        kw.range32(),
                    );
                }
                self.recover(TokenKind::TemplateSeqEnd);
                None
            }
        }
    }

    fn parse_for_directive(&mut self, open: Token) -> Option<Part> {
        let fail = |p: &mut Self, detail: &str| {
            if !p.recovery {
                let at = p.peek().range32();
                p.error("Invalid 'for' directive", detail, at);
            }
            p.recover(TokenKind::TemplateSeqEnd);
            None
        };
        if self.peek().kind != TokenKind::Ident {
            return fail(self, "For directive requires variable name after 'for'.");
        }
        let first = self.read();
        let mut value = self.text(first).to_string();
        let mut key = None;
        if self.peek().kind == TokenKind::Comma {
            self.read();
            if self.peek().kind != TokenKind::Ident {
                return fail(
                    self,
                    "For directive requires value variable name after comma.",
                );
            }
            key = Some(value);
            let second = self.read();
            value = self.text(second).to_string();
        }
        let next = self.peek();
        if !(next.kind == TokenKind::Ident && self.text(next) == "in") {
            return fail(self, "For directive requires 'in' keyword after names.");
        }
        self.read();
        let collection = self.parse_expression();
        let span = between(&open.range32(), &self.peek().range32());
        Some(Part::For {
            key,
            value,
            collection,
            span,
        })
    }

    /// hcl's `ParseStringLiteralToken`: the value of a literal token, appended to `out`, with
    /// escape errors.
    pub(super) fn decode_literal_into(&mut self, token: Token, out: &mut String) {
        let quoted = token.kind == TokenKind::QuotedLit;
        let text = self.text(token);
        let problems = decode_into(text, quoted, out);
        for (detail, range) in problems {
            let start = token.start + range.start as u32;
            let end = token.start + range.end as u32;
            self.error("Invalid escape sequence", &detail, start..end);
        }
    }

    /// A block label in quotes: `"name"` (hcl's `parseQuotedStringLiteral`).
    pub(super) fn parse_quoted_string_literal(&mut self) -> (String, TextRange) {
        let open = self.read();
        let mut value = String::new();
        let end_range;
        loop {
            let token = self.read();
            match token.kind {
                TokenKind::CQuote => {
                    end_range = token.range32();
                    break;
                }
                TokenKind::QuotedLit => self.decode_literal_into(token, &mut value),
                TokenKind::TemplateControl | TokenKind::TemplateInterp => {
                    let which = if token.kind == TokenKind::TemplateControl {
                        "%"
                    } else {
                        "$"
                    };
                    self.error(
                        "Invalid string literal",
                        &format!("Template sequences are not allowed in this string. To include a literal {which:?}, double it (as \"{which}{which}\") to escape it."),
                        token.range32(),
                    );
                    value.push_str(which);
                    value.push_str("{ ... }");
                    self.recover(TokenKind::TemplateSeqEnd);
                }
                TokenKind::Eof => {
                    self.error(
                        "Unterminated string literal",
                        "Unable to find the closing quote mark before the end of the file.",
                        token.range32(),
                    );
                    end_range = token.range32();
                    break;
                }
                _ => {
                    self.error(
                        "Invalid string literal",
                        "This item is not valid in a string literal.",
                        token.range32(),
                    );
                    self.recover(TokenKind::CQuote);
                    end_range = token.range32();
                    break;
                }
            }
        }
        (value, between(&open.range32(), &end_range))
    }
}

/// The keyword of the directive just pushed, for "Extra characters in X marker".
fn directive_keyword(parts: &[Part]) -> &'static str {
    match parts.last() {
        Some(Part::If { .. }) => "if",
        Some(Part::For { .. }) => "for",
        Some(Part::EndCtrl { kind, .. }) => kind.name(),
        _ => "",
    }
}

/// `${~` / `%{~`: trim trailing whitespace from the literal token before, whose text starts at
/// `tail_from` in the last part.
fn trim_previous(parts: &mut [Part], can_trim: bool, opener: &str, tail_from: usize) {
    if !(can_trim && opener.len() == 3 && opener.ends_with('~')) {
        return;
    }
    if let Some(Part::Literal { value, .. }) = parts.last_mut() {
        let trimmed = value[tail_from..]
            .trim_end_matches(char::is_whitespace)
            .len();
        value.truncate(tail_from + trimmed);
    }
}

/// hcl's `flushHeredocTemplateParts`: remove the smallest indentation of all lines.
fn flush_heredoc(parts: &mut [Part]) {
    let mut min = usize::MAX;
    let mut newline = true;
    let mut adjust = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if newline {
            newline = false;
            let mut spaces = 0;
            match part {
                Part::Literal { value, .. } => {
                    let trimmed = value.trim_start_matches(char::is_whitespace);
                    if trimmed.is_empty() && value.ends_with('\n') {
                        spaces = usize::MAX;
                    } else {
                        let space_bytes = value.len() - trimmed.len();
                        spaces = value[..space_bytes].graphemes(true).count();
                        adjust.push(i);
                    }
                }
                Part::End { .. } => break,
                _ => {}
            }
            min = min.min(spaces);
        }
        if let Part::Literal { value, .. } = part
            && value.ends_with('\n')
        {
            newline = true;
        }
    }
    if min == usize::MAX {
        return;
    }
    for i in adjust {
        if let Part::Literal { value, span } = &mut parts[i] {
            let cut: usize = value.graphemes(true).take(min).map(str::len).sum();
            value.drain(..cut);
            span.start += cut as u32;
        }
    }
}

fn meld_literals(parts: &mut Vec<Part>) {
    // One pass: each literal that follows a literal is appended to it and dropped (removing
    // them one by one moved the rest of the list each time, quadratic in a long heredoc's
    // lines).
    parts.dedup_by(|next, kept| match (next, kept) {
        (
            Part::Literal {
                value: tail,
                span: tail_span,
            },
            Part::Literal { value, span },
        ) => {
            value.push_str(tail);
            span.end = tail_span.end;
            true
        }
        _ => false,
    });
}

struct TemplateParser<'p, 'a> {
    parts: Vec<Part>,
    pos: usize,
    parser: &'p mut Parser<'a>,
    /// The directives nested too deep: the rest of the template was skipped, and the
    /// directives still open end without more diagnostics.
    abandoned: bool,
}

impl TemplateParser<'_, '_> {
    fn take(&mut self) -> Part {
        let part = std::mem::replace(&mut self.parts[self.pos], Part::End { span: 0..0 });
        if !matches!(part, Part::End { .. }) {
            self.pos += 1;
        } else {
            self.parts[self.pos] = Part::End {
                span: part_span(&part),
            };
        }
        part
    }

    fn peek_is_end(&self) -> Option<TextRange> {
        match &self.parts[self.pos] {
            Part::End { span } => Some(span.clone()),
            _ => None,
        }
    }

    fn peek_ctrl(&self) -> Option<(Ctrl, TextRange)> {
        match &self.parts[self.pos] {
            Part::EndCtrl { kind, span } => Some((*kind, span.clone())),
            _ => None,
        }
    }

    fn parse_root(&mut self) -> Vec<Expr> {
        // At most one expression per part before the end: most templates are one literal,
        // and a vector grown from empty would hold room for four.
        let mut exprs = Vec::with_capacity(self.parts.len().saturating_sub(self.pos + 1));
        while self.peek_is_end().is_none() {
            exprs.push(self.parse_part());
        }
        exprs.shrink_to_fit();
        exprs
    }

    fn parse_part(&mut self) -> Expr {
        match self.take() {
            Part::Literal { value, span } => literal(value, span),
            Part::Interp { expr, .. } => expr,
            Part::If { condition, span } => {
                if !self.enter_directive(&span) {
                    return expr_error(span);
                }
                let parsed = self.parse_if(condition, span);
                self.parser.leave();
                parsed
            }
            Part::For {
                key,
                value,
                collection,
                span,
            } => {
                if !self.enter_directive(&span) {
                    return expr_error(span);
                }
                let parsed = self.parse_for(key, value, collection, span);
                self.parser.leave();
                parsed
            }
            Part::End { span } => {
                self.parser.error(
                    "Unexpected end of template",
                    "The control directives within this template are unbalanced.",
                    span.clone(),
                );
                Expr {
                    kind: ExprKind::Literal(Literal::Unknown),
                    span,
                }
            }
            Part::EndCtrl { kind, span } => {
                self.parser.error(
                    &format!("Unexpected {} directive", kind.name()),
                    "The control directives within this template are unbalanced.",
                    span.clone(),
                );
                Expr {
                    kind: ExprKind::Literal(Literal::Unknown),
                    span,
                }
            }
        }
    }

    /// Counts a directive against the parser's nesting limit (directives nest like brackets).
    /// Past the limit, the rest of the template is skipped: one diagnostic, no cascade.
    fn enter_directive(&mut self, span: &TextRange) -> bool {
        if self.parser.enter(span.clone()) {
            return true;
        }
        self.parser.leave();
        while self.peek_is_end().is_none() {
            self.pos += 1;
        }
        self.abandoned = true;
        false
    }

    /// Reports a directive whose closing directive never came (the template ended at `end`)
    /// and stands an unknown in for it.
    fn unclosed_directive(
        &mut self,
        directive: &str,
        closer: &str,
        open: &TextRange,
        end: TextRange,
    ) -> Expr {
        if self.abandoned {
            return expr_error(end);
        }
        let at = self.parser.range_text(open);
        self.parser.error(
            "Unexpected end of template",
            &format!(
                "The {directive} directive at {at} is missing its corresponding {closer} directive."
            ),
            end.clone(),
        );
        Expr {
            kind: ExprKind::Literal(Literal::Unknown),
            span: end,
        }
    }

    fn parse_if(&mut self, condition: Expr, open: TextRange) -> Expr {
        let mut if_exprs = Vec::new();
        let mut else_exprs = Vec::new();
        let mut in_else = false;
        let endif;
        loop {
            if let Some(end) = self.peek_is_end() {
                return self.unclosed_directive("if", "endif", &open, end);
            }
            if let Some((kind, span)) = self.peek_ctrl() {
                self.take();
                match kind {
                    Ctrl::Else if !in_else => {
                        in_else = true;
                        continue;
                    }
                    Ctrl::EndIf => {
                        endif = span;
                        break;
                    }
                    Ctrl::Else => {
                        let at = self.parser.range_text(&open);
                        self.parser.error(
                            "Unexpected else directive",
                            &format!("Already in the else clause for the if started at {at}."),
                            span.clone(),
                        );
                    }
                    Ctrl::EndFor => {
                        let at = self.parser.range_text(&open);
                        self.parser.error(
                            "Unexpected endfor directive",
                            &format!("Expecting an endif directive for the if started at {at}."),
                            span.clone(),
                        );
                    }
                }
                return Expr {
                    kind: ExprKind::Literal(Literal::Unknown),
                    span,
                };
            }
            let part = self.parse_part();
            if in_else {
                else_exprs.push(part)
            } else {
                if_exprs.push(part)
            }
        }
        if if_exprs.is_empty() {
            if_exprs.push(literal(String::new(), open.end..open.end));
        }
        if else_exprs.is_empty() {
            else_exprs.push(literal(String::new(), endif.start..endif.start));
        }
        let join = |exprs: Vec<Expr>| {
            let span = between(&exprs[0].span, &exprs[exprs.len() - 1].span);
            Expr {
                kind: ExprKind::Template(exprs),
                span,
            }
        };
        Expr {
            span: between(&open, &endif),
            kind: ExprKind::Conditional {
                condition: Box::new(condition),
                if_true: Box::new(join(if_exprs)),
                if_false: Box::new(join(else_exprs)),
            },
        }
    }

    fn parse_for(
        &mut self,
        key: Option<String>,
        value: String,
        collection: Expr,
        open: TextRange,
    ) -> Expr {
        let mut content = Vec::new();
        let endfor;
        loop {
            if let Some(end) = self.peek_is_end() {
                return self.unclosed_directive("for", "endfor", &open, end);
            }
            if let Some((kind, span)) = self.peek_ctrl() {
                self.take();
                match kind {
                    Ctrl::EndFor => {
                        endfor = span;
                        break;
                    }
                    Ctrl::Else => self.parser.error(
                        "Unexpected else directive",
                        "An else clause is not expected for a for directive.",
                        span.clone(),
                    ),
                    Ctrl::EndIf => {
                        let at = self.parser.range_text(&open);
                        self.parser.error(
                            "Unexpected endif directive",
                            &format!("Expecting an endfor directive corresponding to the for directive at {at}."),
                            span.clone(),
                        );
                    }
                }
                return Expr {
                    kind: ExprKind::Literal(Literal::Unknown),
                    span,
                };
            }
            content.push(self.parse_part());
        }
        if content.is_empty() {
            content.push(literal(String::new(), open.end..open.end));
        }
        let content_span = between(&content[0].span, &content[content.len() - 1].span);
        let span = between(&open, &endfor);
        let for_expr = Expr {
            span: span.clone(),
            kind: ExprKind::For(Box::new(ForExpr {
                key_var: key,
                value_var: value,
                collection,
                key: None,
                value: Expr {
                    kind: ExprKind::Template(content),
                    span: content_span,
                },
                condition: None,
                group: false,
                object: false,
            })),
        };
        Expr {
            kind: ExprKind::TemplateJoin(Box::new(for_expr)),
            span,
        }
    }
}

fn part_span(part: &Part) -> TextRange {
    match part {
        Part::Literal { span, .. }
        | Part::Interp { span, .. }
        | Part::If { span, .. }
        | Part::For { span, .. }
        | Part::EndCtrl { span, .. }
        | Part::End { span } => span.clone(),
    }
}

/// Decodes a literal token: `quoted` literals take backslash escapes; both unescape `$${` and
/// `%%{`. Returns the value and (detail, byte range in the token) per invalid escape.
pub fn decode(text: &str, quoted: bool) -> (String, Vec<(String, std::ops::Range<usize>)>) {
    let mut out = String::with_capacity(text.len());
    let problems = decode_into(text, quoted, &mut out);
    (out, problems)
}

/// [`decode`] appending the value to `out`.
fn decode_into(
    text: &str,
    quoted: bool,
    out: &mut String,
) -> Vec<(String, std::ops::Range<usize>)> {
    // Most literals hold no escape and no `$${`/`%%{`: their value is their text.
    if !text
        .bytes()
        .any(|b| (quoted && b == b'\\') || b == b'$' || b == b'%')
    {
        out.push_str(text);
        return Vec::new();
    }
    decode_each(text, quoted, out)
}

/// [`decode`] of any literal: the text between escapes (and `$${`/`%%{`) is copied in runs.
fn decode_each(
    text: &str,
    quoted: bool,
    out: &mut String,
) -> Vec<(String, std::ops::Range<usize>)> {
    let mut problems = Vec::new();
    let bytes = text.as_bytes();
    // Every position a run ends at is an ASCII byte, or the end: a character boundary.
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if quoted && c == b'\\' {
            out.push_str(&text[run..i]);
            i = decode_escape(text, i, out, &mut problems);
            run = i;
            continue;
        }
        if (c == b'$' || c == b'%')
            && bytes.get(i + 1) == Some(&c)
            && bytes.get(i + 2) == Some(&b'{')
        {
            out.push_str(&text[run..i]);
            out.push(c as char);
            out.push('{');
            i += 3;
            run = i;
            continue;
        }
        i += 1;
    }
    out.push_str(&text[run..]);
    problems
}

fn decode_escape(
    text: &str,
    start: usize,
    out: &mut String,
    problems: &mut Vec<(String, std::ops::Range<usize>)>,
) -> usize {
    let Some(selector) = text[start + 1..].chars().next() else {
        problems.push((
            "Backslash must be followed by an escape sequence selector character.".into(),
            start..start + 1,
        ));
        out.push('\\');
        return start + 1;
    };
    let after = start + 1 + selector.len_utf8();
    let simple = match selector {
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        '"' => Some('"'),
        '\\' => Some('\\'),
        _ => None,
    };
    if let Some(ch) = simple {
        out.push(ch);
        return after;
    }
    if selector == 'u' || selector == 'U' {
        let want = if selector == 'u' { 4 } else { 8 };
        let hex: String = text[after..]
            .chars()
            .take(want)
            .take_while(char::is_ascii_hexdigit)
            .collect();
        let end = after + hex.len();
        if hex.len() != want {
            let detail = if selector == 'u' {
                "The \\u escape sequence must be followed by four hexadecimal digits."
            } else {
                "The \\U escape sequence must be followed by eight hexadecimal digits."
            };
            problems.push((detail.into(), start..end));
            out.push_str(&text[start..end]);
            return end;
        }
        let number = u32::from_str_radix(&hex, 16).unwrap_or(u32::MAX);
        match char::from_u32(number) {
            Some(ch) => out.push(ch),
            None => {
                problems.push((
                    format!("Cannot encode character U+{number:04x} in UTF-8."),
                    start..end,
                ));
                out.push_str(&text[start..end]);
            }
        }
        return end;
    }
    problems.push((
        format!(
            "The symbol {:?} is not a valid escape sequence selector.",
            selector.to_string()
        ),
        start..after,
    ));
    out.push(selector);
    after
}

#[cfg(test)]
mod tests {
    use super::*;

    /// hcl's decoding one character at a time: what the copying in runs must equal.
    fn decode_by_character(
        text: &str,
        quoted: bool,
    ) -> (String, Vec<(String, std::ops::Range<usize>)>) {
        let (mut out, mut problems) = (String::new(), Vec::new());
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < text.len() {
            let c = bytes[i];
            if quoted && c == b'\\' {
                i = decode_escape(text, i, &mut out, &mut problems);
            } else if (c == b'$' || c == b'%') && bytes[i + 1..].starts_with(&[c, b'{']) {
                out.push(c as char);
                out.push('{');
                i += 3;
            } else {
                let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
                out.push(ch);
                i += ch.len_utf8();
            }
        }
        (out, problems)
    }

    #[test]
    fn decoding_without_escapes_copies_the_text() {
        for text in [
            "",
            "plain text",
            "10.0.0.0/8 — ünïcode ✓",
            "a\\nb",
            "\\",
            "$${x}",
            "%%{x}",
            "$ and % alone",
            "$$ %% ${",
            "\\u00e9 \\q",
            "%s-%d-%s",
            "é$${x}ü%%{y}✓\\n\\é",
            "\\U0001F600 \\ud800 \\u12",
            "ends with $$",
            "%%",
        ] {
            for quoted in [false, true] {
                let mut runs = String::new();
                let problems = decode_each(text, quoted, &mut runs);
                let expected = decode_by_character(text, quoted);
                assert_eq!((runs, problems), expected, "{text:?} {quoted}");
                assert_eq!(decode(text, quoted), expected, "{text:?} {quoted}");
            }
        }
        assert_eq!(decode("a\\nb", true).0, "a\nb");
        assert_eq!(decode("a\\nb", false).0, "a\\nb");
    }

    /// A template's parts after [`meld_literals`], and the parser's diagnostics, as text.
    fn parts_of(text: &str, join: bool) -> (Vec<String>, Vec<String>) {
        use crate::source::SourceMap;
        let mut map = SourceMap::new();
        let id = map.add("t.hcl", text);
        let mut parser = Parser::new(map.get(id));
        let open = parser.read();
        let end = if open.kind == TokenKind::OQuote {
            TokenKind::CQuote
        } else {
            TokenKind::CHeredoc
        };
        let mut parts = parser.parse_template_parts(end, join);
        meld_literals(&mut parts);
        let parts = parts
            .iter()
            .map(|part| match part {
                Part::Literal { value, span } => format!("literal {value:?} {span:?}"),
                Part::Interp { expr, span } => format!("interp {expr:?} {span:?}"),
                other => format!("other {:?}", part_span(other)),
            })
            .collect();
        let diagnostics = parser
            .diagnostics
            .iter()
            .map(|d| format!("{d:?}"))
            .collect();
        (parts, diagnostics)
    }

    /// A quoted string parsed by [`Parser::parse_plain_quoted`] (when it takes it) and by
    /// the template machinery: the template's parts (for the first, the one literal part an
    /// [`ExprKind::QuotedLiteral`] stands for), diagnostics and next token, as text.
    fn quoted_both_ways(text: &str) -> (Option<String>, String) {
        use crate::source::SourceMap;
        let mut map = SourceMap::new();
        let id = map.add("t.hcl", text);
        let state = |parser: &Parser, exprs: &[Expr]| {
            format!(
                "{exprs:?} {:?} {:?} {:?}",
                parser.diagnostics,
                parser.peek(),
                parser.prev_range()
            )
        };
        let mut fast = Parser::new(map.get(id));
        let open = fast.read();
        let fast = fast.parse_plain_quoted().map(|value| {
            let quoted = Expr {
                kind: ExprKind::QuotedLiteral(value.clone()),
                span: between(&open.range32(), &fast.prev_range()),
            };
            state(
                &fast,
                &[literal(value.to_string(), quoted.quoted_text_span())],
            )
        });
        let mut slow = Parser::new(map.get(id));
        slow.read();
        let (exprs, passthru) = slow.parse_template_inner(TokenKind::CQuote, false);
        assert!(!passthru || fast.is_none(), "{text:?}");
        (fast, state(&slow, &exprs))
    }

    #[test]
    fn a_plain_quoted_string_is_what_the_template_parser_gives() {
        let mut taken = 0;
        for text in [
            "\"abc\"",
            "\"\"",
            "\"\" x",
            "\"abc\"\n",
            "\"a\\nb\\t\\\"c\\\\\" + 1",
            "\"bad \\q escape\"",
            "\"\\u00e9 \\U0001F600 \\uZZ\"",
            "\"%s-%d-%s\"",
            "\"a $${b} %%{c}\"",
            "\"$\"",
            "\"%\"",
            "\"100%\" x",
            "\"$${\"",
            "\"a\\q%s\\u12$b\"",
            "\"a%\nb\"",
            "\"\\u00e9%\\u00e8$\\U0001F600%\"",
            "\"$$$${x} %%%%{y} $$ %%\"",
            "\"\\$%\\%$\\q\"",
            "\"%\\u12%34\"",
            "\"a ${b} c\"",
            "\"${b}\"",
            "\"%{if a}x%{endif}\"",
            "\"unterminated",
            "\"line\nbreak\"",
            "\"\u{2019}curly\u{201d}\"",
            "\"",
        ] {
            let (fast, slow) = quoted_both_ways(text);
            if let Some(fast) = fast {
                taken += 1;
                assert_eq!(fast, slow, "{text:?}");
            }
        }
        // Not a test of nothing: most of the cases take the quick path.
        assert!(taken >= 8, "{taken}");
    }

    #[test]
    fn literals_joined_while_parsing_are_the_melded_literals() {
        for text in [
            "\"a %s-%d-%s b\"",
            "\"a $ ${~x} %%{y} $${z} \\n\\q ${x~} c %\"",
            "\"x ${~y}\"",
            "\"${a~}  b  %{~ if c ~}  d  %{~ endif}\"",
            "<<EOT\na \n  ${~x}\n  b\nEOT\n",
            "<<EOT\n  x\n${x~}  \n  $ %{~ if a}\n%{endif}\nEOT\n",
            "\"unterminated ${x",
            "\"\"",
        ] {
            assert_eq!(parts_of(text, true), parts_of(text, false), "{text:?}");
        }
        // The trim before `${~` takes only the last line's spaces, not the line before it.
        let (parts, _) = parts_of("<<EOT\na \n  ${~x}\nEOT\n", true);
        assert_eq!(parts[0], "literal \"a \\n\" 6..11");
    }
}
