//! The recursive-descent parser for bodies, blocks and attributes, following hclsyntax's
//! `parser.go`: the same messages and ranges, the same recovery.
//!
//! hcl stops reporting after its first error (a `recovery` flag that is never cleared). We clear
//! it before each top-level item, so independent errors in separate top-level blocks are all
//! reported while cascades inside one block stay silent, as in Go.

use super::ast::{Attribute, Block, Body, Expr, ExprKind, Label, Literal, TextRange, between};
use super::invalid::InvalidTokens;
use super::lex::{Token, TokenKind, Tokens};
use crate::diagnostics::{Code, Diagnostic};
use crate::source::{FileId, SourceFile, Span};
use std::collections::HashMap;

/// Expressions nested deeper than this are a diagnostic, not a stack overflow.
pub const MAX_DEPTH: usize = 1000;

/// A parsed file: its body and every diagnostic (lexical first, then syntax).
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The top-level body (partial where there were errors).
    pub body: Body,
    /// Syntax diagnostics.
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == crate::diagnostics::Severity::Error)
    }
}

/// One parsed member of a program.
#[derive(Debug, Clone)]
pub struct ParsedFile {
    /// The member's source file.
    pub file: FileId,
    /// Its tree.
    pub body: Body,
}

/// Parses a configuration file.
pub fn parse_file(file: &SourceFile) -> Parsed {
    let mut parser = Parser::new(file);
    let body = parser.parse_body(TokenKind::Eof, true);
    let (diagnostics, _) = parser.finish();
    Parsed { body, diagnostics }
}

/// A top-level item of a file, as [`check_file`] hands it over.
#[derive(Clone, Copy, Debug)]
pub enum TopItem<'t> {
    /// An attribute.
    Attribute(&'t Attribute),
    /// A block, with everything inside it.
    Block(&'t Block),
}

/// What [`check_file`] found.
#[derive(Debug, Clone)]
pub struct Checked {
    /// Every diagnostic [`parse_file`] gives for the file.
    pub diagnostics: Vec<Diagnostic>,
    /// How many tokens the file has, its end included.
    pub tokens: usize,
}

impl Checked {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == crate::diagnostics::Severity::Error)
    }
}

/// Parses a file for its diagnostics ([`parse_file`]'s) without keeping its tree: each
/// top-level item is handed to `visit` as soon as it is parsed, then dropped (of a
/// top-level attribute only its name stays, for "Attribute redefined"). For a reader of
/// large files that needs one item at a time, such as the formatter.
pub fn check_file(file: &SourceFile, visit: &mut dyn FnMut(TopItem<'_>)) -> Checked {
    let mut parser = Parser::new(file);
    parser.parse_body_with(TokenKind::Eof, true, Some(visit));
    let (diagnostics, tokens) = parser.finish();
    Checked {
        diagnostics,
        tokens,
    }
}

/// Parses a standalone expression (the `eval` command's input).
pub fn parse_expression(file: &SourceFile) -> (Expr, Vec<Diagnostic>) {
    let mut parser = Parser::new(file);
    parser.push_newlines(false);
    let expr = parser.parse_expression();
    let next = parser.peek();
    if next.kind != TokenKind::Eof && !parser.recovery {
        parser.error(
            "Extra characters after expression",
            "An expression was successfully parsed, but extra characters were found after it.",
            next.range32(),
        );
    }
    parser.pop_newlines();
    let (diagnostics, _) = parser.finish();
    (expr, diagnostics)
}

/// Hands the item just added to `body` (beyond the first `attributes` attributes and
/// `blocks` blocks) to `visit`, then frees it: a block is removed, an attribute keeps only its
/// name and ranges (its value becomes `null`) because a later one may redefine it.
fn hand_over(
    body: &mut Body,
    attributes: usize,
    blocks: usize,
    visit: &mut dyn FnMut(TopItem<'_>),
) {
    if body.blocks.len() > blocks
        && let Some(block) = body.blocks.pop()
    {
        visit(TopItem::Block(&block));
    }
    if let Some(attribute) = body.attributes.get_mut(attributes) {
        visit(TopItem::Attribute(attribute));
        attribute.expr.kind = ExprKind::Literal(Literal::Null);
    }
}

impl Token {
    /// The range as the tree stores it.
    pub fn range32(self) -> TextRange {
        self.start..self.end
    }
}

/// The tokens ahead of the parser, scanned a batch at a time as it reads instead of into a
/// table of the whole file first (12 bytes per token: two to six times the text).
///
/// The window always ends with a token that is neither a comment nor a newline (the end at
/// the latest), so whichever tokens the newline mode skips, the next token is in it while
/// any of it is unread. Once all of it has been read, the next batch replaces it.
struct Ahead<'a> {
    lexer: Tokens<'a>,
    window: Vec<Token>,
    next: usize,
    /// The token the last read returned.
    last: Option<Token>,
    /// How many tokens were scanned.
    scanned: usize,
    invalid: InvalidTokens,
}

/// How many tokens [`Ahead`] scans at a time.
const BATCH: usize = 1024;

impl<'a> Ahead<'a> {
    fn new(file: &'a SourceFile) -> Ahead<'a> {
        let mut ahead = Ahead {
            lexer: super::lex::tokens(file.text()),
            window: Vec::with_capacity(BATCH + 16),
            next: 0,
            last: None,
            scanned: 0,
            invalid: InvalidTokens::default(),
        };
        ahead.refill(file);
        ahead
    }

    /// Replaces the (wholly read) window with the next batch, extended until it ends with a
    /// significant token.
    #[inline(never)]
    fn refill(&mut self, file: &SourceFile) {
        self.window.clear();
        self.next = 0;
        let mut want = BATCH;
        while self.lexer.scan_into(&mut self.window, want) {
            if self
                .window
                .last()
                .is_some_and(|t| !matches!(t.kind, TokenKind::Comment | TokenKind::Newline))
            {
                break;
            }
            want = 1;
        }
        for &token in &self.window {
            self.invalid.see(file, token);
        }
        self.scanned += self.window.len();
    }

    /// Scans the rest of the file (for its invalid tokens and count).
    fn drain(&mut self, file: &SourceFile) {
        for token in self.lexer.by_ref() {
            self.scanned += 1;
            self.invalid.see(file, token);
        }
    }
}

/// Parser state: hclsyntax's `peeker` plus its `recovery` flag.
pub(super) struct Parser<'a> {
    pub(super) file: &'a SourceFile,
    ahead: Ahead<'a>,
    newlines: Vec<bool>,
    /// The last of `newlines`, kept apart for the token peeks.
    include_newlines: bool,
    pub(super) recovery: bool,
    pub(super) diagnostics: Vec<Diagnostic>,
    pub(super) depth: usize,
    depth_reported: bool,
    /// An empty list with room, for the next template's parts.
    pub(super) spare_parts: Vec<super::template_part::Part>,
    /// The items of the argument lists and tuples being parsed, innermost last: each list is
    /// moved out at its end into a vector of exactly its size (growing each list from empty,
    /// then shrinking it, allocated twice).
    pub(super) items: Vec<Expr>,
    /// Where a plain quoted string is decoded before it is kept as a [`Text`] (inline when
    /// short): one buffer for all of them, so a short string allocates nothing.
    ///
    /// [`Text`]: crate::syntax::ast::Text
    pub(super) quoted_text: String,
}

impl<'a> Parser<'a> {
    pub(super) fn new(file: &'a SourceFile) -> Parser<'a> {
        Parser {
            file,
            ahead: Ahead::new(file),
            newlines: vec![true],
            include_newlines: true,
            recovery: false,
            diagnostics: Vec::new(),
            depth: 0,
            depth_reported: false,
            spare_parts: Vec::new(),
            items: Vec::new(),
            quoted_text: String::new(),
        }
    }

    pub(super) fn file_id(&self) -> FileId {
        self.file.id()
    }

    pub(super) fn text(&self, token: Token) -> &'a str {
        token.text(self.file.text())
    }

    /// The lexical diagnostics (of the whole file) followed by the parser's, and how many
    /// tokens the file has, its end included.
    pub(super) fn finish(mut self) -> (Vec<Diagnostic>, usize) {
        self.ahead.drain(self.file);
        let mut diagnostics = self.ahead.invalid.finish();
        diagnostics.append(&mut self.diagnostics);
        (diagnostics, self.ahead.scanned)
    }

    /// The next significant token and the window index after it. Comments are skipped;
    /// where newlines count, a line comment stands for the newline it ends with.
    #[inline]
    fn next_token(&self) -> (Token, usize) {
        let next = self.ahead.next;
        // Most tokens are neither comments nor newlines: they need no look at the mode.
        if let Some(&token) = self.ahead.window.get(next)
            && !matches!(token.kind, TokenKind::Comment | TokenKind::Newline)
        {
            return (token, next + 1);
        }
        self.next_token_skipping()
    }

    /// [`Parser::next_token`] past comments and newlines.
    #[inline(never)]
    fn next_token_skipping(&self) -> (Token, usize) {
        let Ahead { window, next, .. } = &self.ahead;
        let next = *next;
        let include_newlines = self.include_newlines;
        let bytes = self.file.text().as_bytes();
        for (i, &token) in window.iter().enumerate().skip(next) {
            match token.kind {
                TokenKind::Comment => {
                    if include_newlines
                        && token.end > token.start
                        && bytes[token.end as usize - 1] == b'\n'
                    {
                        let fake = Token {
                            kind: TokenKind::Newline,
                            ..token
                        };
                        return (fake, i + 1);
                    }
                    continue;
                }
                TokenKind::Newline if !include_newlines => continue,
                _ => return (token, i + 1),
            }
        }
        // The window ends with a significant token, the end at the latest, and reading the
        // end leaves it in the window: not reached (an end as if read from `next`).
        let end = self.file.text().len() as u32;
        let eof = Token {
            kind: TokenKind::Eof,
            start: end,
            end,
        };
        (eof, next + 1)
    }

    /// The tokens scanned and not yet read, as the window holds them (which tokens the
    /// next reads return, unless comments or newlines are among them).
    #[inline]
    pub(super) fn scanned_ahead(&self) -> &[Token] {
        self.ahead.window.get(self.ahead.next..).unwrap_or_default()
    }

    #[inline]
    pub(super) fn peek(&self) -> Token {
        self.next_token().0
    }

    #[inline]
    pub(super) fn read(&mut self) -> Token {
        let (token, next) = self.next_token();
        self.ahead.last = Some(token);
        // The end is read again and again, as a table's last entry would be.
        if token.kind == TokenKind::Eof {
            self.ahead.next = next - 1;
        } else {
            self.ahead.next = next;
            if next >= self.ahead.window.len() {
                self.ahead.refill(self.file);
            }
        }
        token
    }

    pub(super) fn prev_range(&self) -> TextRange {
        match self.ahead.last {
            Some(token) => token.range32(),
            None => self.peek().range32(),
        }
    }

    pub(super) fn push_newlines(&mut self, include: bool) {
        self.newlines.push(include);
        self.include_newlines = include;
    }

    pub(super) fn pop_newlines(&mut self) {
        if self.newlines.len() > 1 {
            self.newlines.pop();
            self.include_newlines = self.newlines.last().copied().unwrap_or(true);
        }
    }

    pub(super) fn span(&self, range: &TextRange) -> Span {
        Span::of(self.file_id(), range)
    }

    /// Records a syntax error with hcl's summary and detail.
    pub(super) fn error(&mut self, summary: &str, detail: &str, subject: TextRange) {
        let span = self.span(&subject);
        self.diagnostics.push(
            Diagnostic::new(Code::S001, summary)
                .with_detail(detail)
                .with_primary(span, None),
        );
    }

    /// Enters one level of nesting; false (and one diagnostic) past [`MAX_DEPTH`].
    #[inline]
    pub(super) fn enter(&mut self, at: TextRange) -> bool {
        self.depth += 1;
        if self.depth <= MAX_DEPTH {
            return true;
        }
        self.too_deep(at)
    }

    /// [`enter`](Self::enter) past [`MAX_DEPTH`], kept out of the parse functions' code.
    #[cold]
    fn too_deep(&mut self, at: TextRange) -> bool {
        if !self.depth_reported {
            self.depth_reported = true;
            let span = self.span(&at);
            self.diagnostics.push(
                Diagnostic::new(Code::S002, "Nesting too deep")
                    .with_detail(format!(
                        "Expressions and blocks may be nested at most {MAX_DEPTH} levels deep."
                    ))
                    .with_primary(span, None)
                    .with_help("split the expression, for example with locals"),
            );
        }
        self.recovery = true;
        false
    }

    pub(super) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Leaves `levels` levels entered one by one.
    pub(super) fn leave_levels(&mut self, levels: usize) {
        self.depth -= levels;
    }

    pub(super) fn error_count(&self) -> usize {
        self.diagnostics.len()
    }

    /// hcl's `recover`: skip to the token closing the current bracket.
    pub(super) fn recover(&mut self, end: TokenKind) -> Token {
        let start = opposite(end);
        self.recovery = true;
        let mut nest = 0usize;
        loop {
            let token = self.read();
            let mut kind = token.kind;
            if end == TokenKind::TemplateSeqEnd && kind == TokenKind::TemplateControl {
                kind = TokenKind::TemplateInterp;
            }
            if kind == TokenKind::Eof {
                return token;
            }
            if Some(kind) == start {
                nest += 1;
            } else if kind == end {
                if nest == 0 {
                    return token;
                }
                nest -= 1;
            }
        }
    }

    /// hcl's `recoverOver`: skip past the next `start`, then to its matching end.
    pub(super) fn recover_over(&mut self, start: TokenKind) {
        loop {
            let token = self.read();
            if token.kind == start || token.kind == TokenKind::Eof {
                break;
            }
        }
        if let Some(end) = opposite(start) {
            self.recover(end);
        }
    }

    /// hcl's `recoverAfterBodyItem`: skip to the end of the line, respecting brackets.
    pub(super) fn recover_after_body_item(&mut self) {
        use TokenKind as K;
        self.recovery = true;
        let mut open: Vec<K> = Vec::new();
        loop {
            let token = self.read();
            match token.kind {
                K::Newline if open.is_empty() => break,
                K::Eof => break,
                K::OBrace
                | K::OBrack
                | K::OParen
                | K::OQuote
                | K::OHeredoc
                | K::TemplateInterp
                | K::TemplateControl => open.push(token.kind),
                K::CBrace | K::CBrack | K::CParen | K::CQuote | K::CHeredoc => {
                    let opener = opposite(token.kind);
                    while open.last().is_some_and(|&o| Some(o) != opener) {
                        open.pop();
                    }
                    open.pop();
                }
                K::TemplateSeqEnd => {
                    while open
                        .last()
                        .is_some_and(|&o| o != K::TemplateInterp && o != K::TemplateControl)
                    {
                        open.pop();
                    }
                    open.pop();
                }
                _ => {}
            }
        }
    }

    /// hcl's `ParseBody`. `top` marks the file's top level, where each item starts with a
    /// fresh error report.
    pub(super) fn parse_body(&mut self, end: TokenKind, top: bool) -> Body {
        self.parse_body_with(end, top, None)
    }

    /// [`Parser::parse_body`]; with `visit`, each item of this body is handed to it and
    /// dropped instead of kept ([`check_file`]).
    fn parse_body_with(
        &mut self,
        end: TokenKind,
        top: bool,
        mut visit: Option<&mut dyn FnMut(TopItem<'_>)>,
    ) -> Body {
        let start_range = self.prev_range();
        let mut body = Body {
            attributes: Vec::new(),
            blocks: Vec::new(),
            span: start_range.clone(),
            end: start_range.clone(),
        };
        // Attribute names seen so far, for "Attribute redefined" without a quadratic scan.
        // Keyed by the source's own text: no copy of each name.
        let mut names: HashMap<&'a str, usize> = HashMap::new();
        let end_range;
        loop {
            let next = self.peek();
            if next.kind == end {
                end_range = next.range32();
                self.read();
                break;
            }
            match next.kind {
                TokenKind::Newline => {
                    self.read();
                }
                TokenKind::Ident => {
                    if top {
                        self.recovery = false;
                    }
                    let (attributes, blocks) = (body.attributes.len(), body.blocks.len());
                    self.parse_body_item(&mut body, &mut names);
                    if let Some(visit) = visit.as_deref_mut() {
                        hand_over(&mut body, attributes, blocks, visit);
                    }
                }
                _ => {
                    if top {
                        self.recovery = false;
                    }
                    let bad = self.read();
                    if !self.recovery {
                        self.report_bad_body_token(bad, end, &start_range);
                    }
                    if bad.kind == TokenKind::Eof {
                        end_range = self.prev_range();
                        break;
                    }
                    if top {
                        // Ours: resynchronise at the next line and keep going.
                        self.recover_after_body_item();
                        continue;
                    }
                    end_range = self.prev_range();
                    self.recover(end);
                    break;
                }
            }
        }
        body.span = between(&start_range, &end_range);
        body.end = end_range.end..end_range.end;
        // Trees of large files are kept whole: no spare capacity in them.
        body.attributes.shrink_to_fit();
        body.blocks.shrink_to_fit();
        body
    }

    fn report_bad_body_token(&mut self, bad: Token, end: TokenKind, start_range: &TextRange) {
        match bad.kind {
            TokenKind::OQuote => self.error(
                "Invalid argument name",
                "Argument names must not be quoted.",
                bad.range32(),
            ),
            TokenKind::Eof if end == TokenKind::CBrace => self.error(
                "Unclosed configuration block",
                "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                start_range.clone(),
            ),
            TokenKind::Eof => self.error(
                "Unclosed configuration body",
                "Found end of file before the end of this configuration body.",
                start_range.clone(),
            ),
            _ => self.error(
                "Argument or block definition required",
                "An argument or block definition is required here.",
                bad.range32(),
            ),
        }
    }

    fn parse_body_item(&mut self, body: &mut Body, names: &mut HashMap<&'a str, usize>) {
        let ident = self.read();
        let next = self.peek();
        match next.kind {
            TokenKind::Equal => {
                let attr = self.finish_attribute(ident, false);
                self.add_attribute(body, names, self.text(ident), attr);
            }
            TokenKind::OQuote | TokenKind::OBrace | TokenKind::Ident => {
                if let Some(block) = self.finish_block(ident) {
                    body.blocks.push(block);
                }
            }
            _ => {
                self.recover_after_body_item();
                self.error(
                    "Argument or block definition required",
                    "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                    ident.range32(),
                );
            }
        }
    }

    fn add_attribute(
        &mut self,
        body: &mut Body,
        names: &mut HashMap<&'a str, usize>,
        name: &'a str,
        attr: Attribute,
    ) {
        if let Some(&index) = names.get(name) {
            let existing_at = self.range_text(&body.attributes[index].name_span);
            self.error(
                "Attribute redefined",
                &format!(
                    "The argument {:?} was already set at {existing_at}. Each argument may be set only once.",
                    attr.name
                ),
                attr.name_span.clone(),
            );
            return;
        }
        names.insert(name, body.attributes.len());
        body.attributes.push(attr);
    }

    /// Go HCL's `Range.String()` for a range of this file.
    pub(super) fn range_text(&self, range: &TextRange) -> String {
        self.file.range_text(self.span(range))
    }

    fn finish_attribute(&mut self, ident: Token, single_line: bool) -> Attribute {
        let equals = self.read();
        let errors_before = self.error_count();
        let expr = self.parse_expression();
        let failed = self.error_count() > errors_before;
        let mut end_range;
        if self.recovery && failed {
            end_range = self.prev_range();
            self.recover_after_body_item();
        } else {
            end_range = self.prev_range();
            if !single_line {
                let end = self.peek();
                if end.kind != TokenKind::Newline && end.kind != TokenKind::Eof {
                    if !self.recovery {
                        let (summary, detail) = if end.kind == TokenKind::Comma {
                            (
                                "Unexpected comma after argument",
                                "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.",
                            )
                        } else {
                            (
                                "Missing newline after argument",
                                "An argument definition must end with a newline.",
                            )
                        };
                        self.error(summary, detail, end.range32());
                    }
                    end_range = self.prev_range();
                    self.recover_after_body_item();
                } else {
                    end_range = self.prev_range();
                    self.read();
                }
            }
        }
        Attribute {
            name: self.text(ident).to_string(),
            span: between(&ident.range32(), &end_range),
            name_span: ident.range32(),
            equals: equals.range32(),
            expr,
        }
    }

    fn finish_block(&mut self, ident: Token) -> Option<Block> {
        let kind = self.text(ident).to_string();
        let mut labels = Vec::new();
        let open_brace = loop {
            let token = self.peek();
            match token.kind {
                TokenKind::OBrace => break self.read(),
                TokenKind::OQuote => {
                    let (value, span) = self.parse_quoted_string_literal();
                    labels.push(Label {
                        value,
                        span,
                        quoted: true,
                    });
                }
                TokenKind::Ident => {
                    let token = self.read();
                    labels.push(Label {
                        value: self.text(token).to_string(),
                        span: token.range32(),
                        quoted: false,
                    });
                }
                _ => {
                    match token.kind {
                        TokenKind::Equal => self.error(
                            "Invalid block definition",
                            "The equals sign \"=\" indicates an argument definition, and must not be used when defining a block.",
                            token.range32(),
                        ),
                        TokenKind::Newline => self.error(
                            "Invalid block definition",
                            "A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header.",
                            token.range32(),
                        ),
                        _ if !self.recovery => self.error(
                            "Invalid block definition",
                            "Either a quoted string block label or an opening brace (\"{\") is expected here.",
                            token.range32(),
                        ),
                        _ => {}
                    }
                    self.recover_after_body_item();
                    let at = ident.range32();
                    return Some(Block {
                        kind,
                        kind_span: at.clone(),
                        labels,
                        body: Body {
                            attributes: Vec::new(),
                            blocks: Vec::new(),
                            span: at.clone(),
                            end: at.clone(),
                        },
                        open_brace: at.clone(),
                        close_brace: at,
                    });
                }
            }
        };
        if !self.enter(open_brace.range32()) {
            self.leave();
            self.recover(TokenKind::CBrace);
            self.recover_after_body_item();
            return None;
        }
        let body = match self.peek().kind {
            TokenKind::Newline | TokenKind::Eof | TokenKind::CBrace => {
                on_enough_stack(self.depth, || self.parse_body(TokenKind::CBrace, false))
            }
            _ => self.parse_single_line_body(open_brace),
        };
        self.leave();
        let close_brace = self.prev_range();
        let eol = self.peek();
        if eol.kind == TokenKind::Newline || eol.kind == TokenKind::Eof {
            self.read();
        } else {
            if !self.recovery {
                self.error(
                    "Missing newline after block definition",
                    "A block definition must end with a newline.",
                    eol.range32(),
                );
            }
            self.recover_after_body_item();
        }
        Some(Block {
            kind,
            kind_span: ident.range32(),
            labels,
            body,
            open_brace: open_brace.range32(),
            close_brace,
        })
    }

    /// `name { attr = value }` on one line.
    fn parse_single_line_body(&mut self, open_brace: Token) -> Body {
        let start = open_brace.range32();
        let mut body = Body {
            attributes: Vec::new(),
            blocks: Vec::new(),
            span: start.clone(),
            end: start.end..start.end,
        };
        let name = self.read();
        if name.kind != TokenKind::Ident {
            self.recover_after_body_item();
            self.error(
                "Argument or block definition required",
                "An argument or block definition is required here.",
                name.range32(),
            );
            return body;
        }
        let next = self.peek();
        match next.kind {
            TokenKind::Equal => {
                let attr = self.finish_attribute(name, true);
                body.span = attr.span.clone();
                body.end = attr.span.end..attr.span.end;
                body.attributes.push(attr);
            }
            TokenKind::OQuote | TokenKind::OBrace | TokenKind::Ident => {
                self.recover_after_body_item();
                let detail = format!(
                    "A single-line block definition can contain only a single argument. If you meant to define argument {:?}, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.",
                    self.text(name)
                );
                self.error(
                    "Argument definition required",
                    &detail,
                    between(&name.range32(), &next.range32()),
                );
                return body;
            }
            _ => {
                self.recover_after_body_item();
                self.error(
                    "Argument or block definition required",
                    "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                    name.range32(),
                );
                return body;
            }
        }
        let after = self.peek();
        match after.kind {
            TokenKind::CBrace => {
                self.read();
            }
            TokenKind::Comma => {
                self.error(
                    "Invalid single-argument block definition",
                    "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.",
                    after.range32(),
                );
                self.recover(TokenKind::CBrace);
            }
            TokenKind::Newline => {
                self.error(
                    "Invalid single-argument block definition",
                    "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.",
                    after.range32(),
                );
                self.recover(TokenKind::CBrace);
            }
            _ => {
                if !self.recovery {
                    if after.kind == TokenKind::Eof {
                        self.error(
                            "Unclosed configuration block",
                            "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open_brace.range32(),
                        );
                    } else {
                        self.error(
                            "Invalid single-argument block definition",
                            "A single-line block definition must end with a closing brace immediately after its single argument definition.",
                            after.range32(),
                        );
                    }
                }
                self.recover(TokenKind::CBrace);
            }
        }
        body
    }
}

/// The bracket that closes (or opens) `kind`.
pub(super) fn opposite(kind: TokenKind) -> Option<TokenKind> {
    use TokenKind as K;
    Some(match kind {
        K::OBrace => K::CBrace,
        K::OBrack => K::CBrack,
        K::OParen => K::CParen,
        K::OQuote => K::CQuote,
        K::OHeredoc => K::CHeredoc,
        K::CBrace => K::OBrace,
        K::CBrack => K::OBrack,
        K::CParen => K::OParen,
        K::CQuote => K::OQuote,
        K::CHeredoc => K::OHeredoc,
        K::TemplateControl | K::TemplateInterp => K::TemplateSeqEnd,
        K::TemplateSeqEnd => K::TemplateInterp,
        _ => return None,
    })
}

/// How many levels of nesting are parsed without asking how much stack is left: fewer than a
/// few hundred kilobytes even in a debug build, which any stack the parser runs on has. The
/// first question costs a read of `/proc/self/maps` on the main thread (how `stacker` finds
/// where the stack ends), a tenth of a small render's start-up, which most programs, a
/// dozen levels deep, never need.
const SHALLOW: usize = 16;

/// Runs `parse` at nesting `depth`: on a new stack segment when this one is nearly used up
/// (nesting is limited to [`MAX_DEPTH`], and each level takes some stack).
pub(super) fn on_enough_stack<R>(depth: usize, parse: impl FnOnce() -> R) -> R {
    if depth < SHALLOW {
        parse()
    } else {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, parse)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceMap;

    #[test]
    fn checking_a_file_finds_what_parsing_it_finds_and_hands_over_each_item() {
        for text in [
            "a = 1\nr x {\n  b = { c: 2 }\n}\n",
            // A redefinition at the top level, after the first value was freed: reported, and
            // not handed over (the tree does not keep it either).
            "a = [1, 2]\nb = 2\na = 3\n",
            // Errors in separate top-level blocks are all reported.
            "r x {\n  b = \n}\ns y {\n  = 1\n}\nc = (\n",
            "\"q\" = 1\nr {\n",
        ] {
            let mut map = SourceMap::new();
            let id = map.add("t.hcl", text);
            let parsed = parse_file(map.get(id));
            let mut items = Vec::new();
            let checked = check_file(map.get(id), &mut |item| {
                items.push(match item {
                    TopItem::Attribute(a) => (a.name.clone(), a.span.clone()),
                    TopItem::Block(b) => (b.kind.clone(), b.kind_span.clone()),
                });
            });
            assert_eq!(checked.diagnostics, parsed.diagnostics, "{text:?}");
            assert_eq!(checked.tokens, crate::syntax::lex::lex(text).len());
            let mut expected: Vec<_> = parsed
                .body
                .attributes
                .iter()
                .map(|a| (a.name.clone(), a.span.clone()))
                .chain(
                    parsed
                        .body
                        .blocks
                        .iter()
                        .map(|b| (b.kind.clone(), b.kind_span.clone())),
                )
                .collect();
            expected.sort_by_key(|(_, span)| span.start);
            assert_eq!(items, expected, "{text:?}");
        }
    }
}
