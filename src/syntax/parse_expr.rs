//! Expression parsing, following hclsyntax's `parser.go`: precedence, traversals, splats,
//! calls, tuples, objects and `for` expressions, with Go's messages and recovery.

use super::ast::{
    BinaryOp, Expr, ExprKind, ForExpr, Literal, ObjectItem, Step, TextRange, UnaryOp, between,
};
use super::lex::{Token, TokenKind};
use super::parse::Parser;

/// hcl's `binaryOps` table, lowest precedence first.
const BINARY_LEVELS: &[&[(TokenKind, BinaryOp)]] = &[
    &[(TokenKind::Or, BinaryOp::Or)],
    &[(TokenKind::And, BinaryOp::And)],
    &[
        (TokenKind::EqualOp, BinaryOp::Equal),
        (TokenKind::NotEqual, BinaryOp::NotEqual),
    ],
    &[
        (TokenKind::GreaterThan, BinaryOp::GreaterThan),
        (TokenKind::GreaterThanEq, BinaryOp::GreaterThanOrEqual),
        (TokenKind::LessThan, BinaryOp::LessThan),
        (TokenKind::LessThanEq, BinaryOp::LessThanOrEqual),
    ],
    &[
        (TokenKind::Plus, BinaryOp::Add),
        (TokenKind::Minus, BinaryOp::Subtract),
    ],
    &[
        (TokenKind::Star, BinaryOp::Multiply),
        (TokenKind::Slash, BinaryOp::Divide),
        (TokenKind::Percent, BinaryOp::Modulo),
    ],
];

/// The level in [`BINARY_LEVELS`] of a binary operator token, `None` for any other token.
fn binary_level(kind: TokenKind) -> Option<usize> {
    use TokenKind as K;
    match kind {
        K::Or => Some(0),
        K::And => Some(1),
        K::EqualOp | K::NotEqual => Some(2),
        K::GreaterThan | K::GreaterThanEq | K::LessThan | K::LessThanEq => Some(3),
        K::Plus | K::Minus => Some(4),
        K::Star | K::Slash | K::Percent => Some(5),
        _ => None,
    }
}

fn expr(kind: ExprKind, span: TextRange) -> Expr {
    Expr { kind, span }
}

fn error_expr(span: TextRange) -> Expr {
    expr(ExprKind::Literal(Literal::Unknown), span)
}

impl Parser<'_> {
    fn keyword(&self, token: Token, word: &str) -> bool {
        token.kind == TokenKind::Ident && self.text(token) == word
    }

    /// hcl's `ParseExpression`, guarded against deep nesting.
    pub(super) fn parse_expression(&mut self) -> Expr {
        let at = self.peek().range32();
        if !self.enter(at.clone()) {
            self.leave();
            return expr(ExprKind::Error, at);
        }
        let result = super::parse::on_enough_stack(self.depth, || self.parse_ternary());
        self.leave();
        result
    }

    fn parse_ternary(&mut self) -> Expr {
        let start = self.peek().range32();
        let before = self.error_count();
        let condition = self.parse_binary(0);
        if self.recovery && self.error_count() > before {
            return condition;
        }
        if self.peek().kind != TokenKind::Question {
            return condition;
        }
        self.read();
        let before = self.error_count();
        let if_true = self.parse_expression();
        if self.recovery && self.error_count() > before {
            return condition;
        }
        let colon = self.peek();
        if colon.kind != TokenKind::Colon {
            self.error(
                "Missing false expression in conditional",
                "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
                colon.range32(),
            );
            return condition;
        }
        self.read();
        let before = self.error_count();
        let if_false = self.parse_expression();
        if self.recovery && self.error_count() > before {
            return condition;
        }
        let span = between(&start, &if_false.span);
        expr(
            ExprKind::Conditional {
                condition: Box::new(condition),
                if_true: Box::new(if_true),
                if_false: Box::new(if_false),
            },
            span,
        )
    }

    /// hcl's `parseBinaryOps` from `level` up: one call per precedence level in Go (each
    /// level parses its operands at the next level, then loops over its own operators). Here
    /// the descent to the operand is flattened: the operand is parsed first, then only the
    /// levels whose operator follows it run their loop, deepest first; a level whose operator
    /// does not follow would only peek and return, so skipping it gives the same tree, spans
    /// and diagnostics.
    fn parse_binary(&mut self, level: usize) -> Expr {
        // Every level's `before` in the recursive form: nothing happens before the operand.
        let before = self.error_count();
        let mut lhs = self.parse_with_traversals();
        // Levels from `done` up already ran their loop (or would have had nothing to do).
        let mut done = BINARY_LEVELS.len();
        loop {
            if self.recovery && self.error_count() > before {
                return lhs;
            }
            let Some(found) = binary_level(self.peek().kind) else {
                return lhs;
            };
            if found < level || found >= done {
                return lhs;
            }
            lhs = self.parse_binary_level(found, lhs);
            done = found;
        }
    }

    /// One precedence level's loop over its operators, `lhs` its first operand.
    fn parse_binary_level(&mut self, level: usize, first: Expr) -> Expr {
        self.binary_level_with(level, first, Self::parse_binary)
    }

    /// [`parse_binary_level`](Self::parse_binary_level), each right operand parsed by
    /// `operand` from the next level (the tests compare it with Go's recursion).
    fn binary_level_with(
        &mut self,
        level: usize,
        first: Expr,
        operand: impl Fn(&mut Self, usize) -> Expr,
    ) -> Expr {
        let ops = BINARY_LEVELS[level];
        let mut lhs = first;
        let mut pending: Option<(BinaryOp, Expr)> = None;
        // Each operator of a chain nests the expression one level deeper (`1+1+1` is
        // `(1+1)+1`): a chain counts against the nesting limit like brackets do.
        let mut entered = 0;
        loop {
            let next = self.peek();
            let Some(&(_, op)) = ops.iter().find(|(kind, _)| *kind == next.kind) else {
                break;
            };
            if !self.enter(next.range32()) {
                self.leave_levels(entered + 1);
                return expr(ExprKind::Error, between(&lhs.span, &next.range32()));
            }
            entered += 1;
            if let Some((prev_op, rhs)) = pending.take() {
                lhs = binary(prev_op, lhs, rhs);
            }
            self.read();
            let before = self.error_count();
            let rhs = operand(self, level + 1);
            if self.recovery && self.error_count() > before {
                self.leave_levels(entered);
                return lhs;
            }
            pending = Some((op, rhs));
        }
        self.leave_levels(entered);
        match pending {
            Some((op, rhs)) => binary(op, lhs, rhs),
            None => lhs,
        }
    }

    fn parse_with_traversals(&mut self) -> Expr {
        let term = self.parse_term();
        // Most terms have no step after them: no call (and no moving the term in and out).
        match self.peek().kind {
            TokenKind::Dot | TokenKind::OBrack => self.parse_traversals(term),
            _ => term,
        }
    }

    fn legacy_index_error(&mut self, token: Token, full_splat: bool) {
        let text = self.text(token);
        let (first, second) = text.split_once('.').unwrap_or((text, ""));
        let detail = if full_splat {
            format!(
                "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [{first}][{second}]."
            )
        } else {
            format!(
                "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [{first}][{second}]."
            )
        };
        self.error("Invalid legacy index syntax", &detail, token.range32());
    }

    /// `.name`, `.0`, `.*`, `[key]`, `[*]` after a term.
    fn parse_traversals(&mut self, from: Expr) -> Expr {
        let from_span = from.span.clone();
        let mut ret = from;
        // Splats and computed indexes wrap what they apply to: each counts against the
        // nesting limit (plain `.name` and `[0]` steps extend one flat traversal).
        let mut entered = 0;
        loop {
            let next = self.peek();
            if next.kind == TokenKind::OBrack {
                if !self.enter(next.range32()) {
                    self.leave_levels(entered + 1);
                    return expr(ExprKind::Error, between(&from_span, &next.range32()));
                }
                entered += 1;
            }
            match next.kind {
                TokenKind::Dot => {
                    let dot = self.read();
                    let attr = self.peek();
                    match attr.kind {
                        TokenKind::Ident => {
                            self.read();
                            let span = between(&dot.range32(), &attr.range32());
                            let name = self.text(attr).to_string();
                            ret = relative(
                                ret,
                                Step::Attr {
                                    name,
                                    span: span.clone(),
                                },
                                span,
                            );
                        }
                        TokenKind::NumberLit => {
                            self.read();
                            let span = between(&dot.range32(), &attr.range32());
                            let key = if self.text(attr).contains('.') {
                                self.legacy_index_error(attr, false);
                                Literal::Unknown
                            } else {
                                self.number_literal(attr)
                            };
                            ret = relative(
                                ret,
                                Step::Index {
                                    key,
                                    span: span.clone(),
                                },
                                span,
                            );
                        }
                        TokenKind::Star => {
                            let marker = self.read();
                            if !self.enter(marker.range32()) {
                                self.leave_levels(entered + 1);
                                return expr(
                                    ExprKind::Error,
                                    between(&from_span, &marker.range32()),
                                );
                            }
                            entered += 1;
                            ret = self.finish_attr_splat(ret, &from_span, dot, marker, attr);
                        }
                        _ => {
                            self.error(
                                "Invalid attribute name",
                                "An attribute name is required after a dot.",
                                attr.range32(),
                            );
                            ret = expr(ExprKind::Error, between(&from_span, &dot.range32()));
                            self.recovery = true;
                        }
                    }
                }
                TokenKind::OBrack => {
                    let open = self.read();
                    if self.peek().kind == TokenKind::Star {
                        self.read();
                        let mut close = self.read();
                        if close.kind != TokenKind::CBrack && !self.recovery {
                            // hcl's diagnostic points at its `close` variable, which the
                            // recovery then overwrites: the range reported is the recovered `]`.
                            close = self.recover(TokenKind::CBrack);
                            self.error(
                                "Missing close bracket on splat index",
                                "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").",
                                close.range32(),
                            );
                        }
                        let marker = between(&open.range32(), &close.range32());
                        let item = expr(ExprKind::SplatItem, marker.clone());
                        // Splats nest up to the nesting limit: their recursion grows the stack.
                        let each = super::parse::on_enough_stack(self.depth, || {
                            self.parse_traversals(item)
                        });
                        let span = between(&from_span, &each.span);
                        ret = expr(
                            ExprKind::Splat {
                                source: Box::new(ret),
                                each: Box::new(each),
                                marker,
                            },
                            span,
                        );
                    } else {
                        ret = self.finish_index(ret, &from_span, open);
                    }
                }
                _ => break,
            }
        }
        self.leave_levels(entered);
        ret
    }

    /// `.*` followed by `.attr`/`.0` steps (an attribute-only splat).
    fn finish_attr_splat(
        &mut self,
        source: Expr,
        from: &TextRange,
        dot: Token,
        marker: Token,
        attr_tok: Token,
    ) -> Expr {
        let mut steps = Vec::new();
        let first = self.peek().range32();
        let mut last = marker.range32();
        while self.peek().kind == TokenKind::Dot {
            let dot = self.read();
            let next = self.peek();
            if next.kind == TokenKind::NumberLit {
                self.read();
                let span = between(&dot.range32(), &next.range32());
                let key = if self.text(next).contains('.') {
                    // hcl reports this one at the `*` token.
                    self.legacy_index_error(
                        Token {
                            kind: attr_tok.kind,
                            ..next
                        },
                        true,
                    );
                    Literal::Unknown
                } else {
                    self.number_literal(next)
                };
                steps.push(Step::Index { key, span });
                last = next.range32();
                continue;
            }
            if next.kind != TokenKind::Ident {
                if !self.recovery {
                    if next.kind == TokenKind::Star {
                        self.error(
                            "Nested splat expression not allowed",
                            "A splat expression (*) cannot be used inside another attribute-only splat expression.",
                            next.range32(),
                        );
                    } else {
                        self.error(
                            "Invalid attribute name",
                            "An attribute name is required after a dot.",
                            attr_tok.range32(),
                        );
                    }
                }
                self.recovery = true;
                break;
            }
            self.read();
            steps.push(Step::Attr {
                name: self.text(next).to_string(),
                span: between(&dot.range32(), &next.range32()),
            });
            last = next.range32();
        }
        let marker_span = between(&dot.range32(), &marker.range32());
        let item = expr(ExprKind::SplatItem, marker_span.clone());
        let each = if steps.is_empty() {
            item
        } else {
            expr(
                ExprKind::RelativeTraversal {
                    source: Box::new(item),
                    steps,
                },
                between(&first, &last),
            )
        };
        expr(
            ExprKind::Splat {
                source: Box::new(source),
                each: Box::new(each),
                marker: marker_span,
            },
            between(from, &last),
        )
    }

    fn finish_index(&mut self, collection: Expr, from: &TextRange, open: Token) -> Expr {
        self.push_newlines(false);
        let before = self.error_count();
        let key = self.parse_expression();
        let close = if self.recovery && self.error_count() > before {
            self.recover(TokenKind::CBrack)
        } else {
            let close = self.read();
            if close.kind != TokenKind::CBrack && !self.recovery {
                // As for splats: hcl reports the `]` that recovery finds.
                let close = self.recover(TokenKind::CBrack);
                self.error(
                    "Missing close bracket on index",
                    "The index operator must end with a closing bracket (\"]\").",
                    close.range32(),
                );
                close
            } else {
                close
            }
        };
        self.pop_newlines();
        let bracket = between(&open.range32(), &close.range32());
        let literal_key = match &key.kind {
            ExprKind::Literal(lit) => Some(lit.clone()),
            _ => key
                .plain_string()
                .map(|(s, _)| Literal::String(s.to_string())),
        };
        match literal_key {
            Some(key) => relative(
                collection,
                Step::Index {
                    key,
                    span: bracket.clone(),
                },
                bracket,
            ),
            None => expr(
                ExprKind::Index {
                    collection: Box::new(collection),
                    key: Box::new(key),
                    bracket: bracket.clone(),
                },
                between(from, &bracket),
            ),
        }
    }

    pub(super) fn number_literal(&mut self, token: Token) -> Literal {
        let text = self.text(token);
        if valid_number(text) {
            Literal::Number(text.into())
        } else {
            self.error(
                "Invalid number literal",
                "Failed to recognize the value of this number literal.",
                token.range32(),
            );
            Literal::Unknown
        }
    }

    fn parse_term(&mut self) -> Expr {
        let start = self.peek();
        match start.kind {
            TokenKind::OParen => self.parse_parens(),
            TokenKind::NumberLit => {
                self.read();
                let lit = self.number_literal(start);
                expr(ExprKind::Literal(lit), start.range32())
            }
            TokenKind::Ident => {
                self.read();
                let next = self.peek().kind;
                if next == TokenKind::OParen || next == TokenKind::DoubleColon {
                    return self.finish_call(start);
                }
                let span = start.range32();
                match self.text(start) {
                    "true" => expr(ExprKind::Literal(Literal::Bool(true)), span),
                    "false" => expr(ExprKind::Literal(Literal::Bool(false)), span),
                    "null" => expr(ExprKind::Literal(Literal::Null), span),
                    name => expr(
                        ExprKind::Traversal {
                            root: name.into(),
                            root_span: span.clone(),
                            steps: Vec::new(),
                        },
                        span,
                    ),
                }
            }
            TokenKind::OQuote | TokenKind::OHeredoc => {
                let open = self.read();
                let close_kind = if open.kind == TokenKind::OQuote {
                    TokenKind::CQuote
                } else {
                    TokenKind::CHeredoc
                };
                if open.kind == TokenKind::OQuote
                    && let Some(text) = self.parse_plain_quoted()
                {
                    let span = between(&open.range32(), &self.prev_range());
                    return expr(ExprKind::QuotedLiteral(text), span);
                }
                let flush = open.kind == TokenKind::OHeredoc && self.text(open).starts_with("<<-");
                let (parts, passthru) = self.parse_template_inner(close_kind, flush);
                let span = between(&open.range32(), &self.prev_range());
                if passthru {
                    let inner = parts
                        .into_iter()
                        .next()
                        .unwrap_or_else(|| error_expr(span.clone()));
                    return expr(ExprKind::TemplateWrap(Box::new(inner)), span);
                }
                expr(ExprKind::Template(parts), span)
            }
            TokenKind::Minus | TokenKind::Bang => {
                self.read();
                if !self.enter(start.range32()) {
                    self.leave();
                    return expr(ExprKind::Error, start.range32());
                }
                let operand =
                    super::parse::on_enough_stack(self.depth, || self.parse_with_traversals());
                self.leave();
                let op = if start.kind == TokenKind::Minus {
                    UnaryOp::Negate
                } else {
                    UnaryOp::Not
                };
                let span = between(&start.range32(), &operand.span);
                expr(
                    ExprKind::Unary {
                        op,
                        operand: Box::new(operand),
                        symbol: start.range32(),
                    },
                    span,
                )
            }
            TokenKind::OBrack => self.parse_tuple(),
            TokenKind::OBrace => self.parse_object(),
            _ => {
                if !self.recovery {
                    if start.kind == TokenKind::Eof {
                        self.error(
                            "Missing expression",
                            "Expected the start of an expression, but found the end of the file.",
                            start.range32(),
                        );
                    } else {
                        self.error(
                            "Invalid expression",
                            "Expected the start of an expression, but found an invalid expression token.",
                            start.range32(),
                        );
                    }
                }
                self.recovery = true;
                error_expr(start.range32())
            }
        }
    }

    fn parse_parens(&mut self) -> Expr {
        let open = self.read();
        self.push_newlines(false);
        let before = self.error_count();
        let inner = self.parse_expression();
        if self.error_count() > before {
            self.recover(TokenKind::CParen);
            self.pop_newlines();
            return inner;
        }
        let close = self.peek();
        if close.kind != TokenKind::CParen {
            self.error(
                "Unbalanced parentheses",
                "Expected a closing parenthesis to terminate the expression.",
                close.range32(),
            );
            self.recovery = true;
        }
        let close = self.read();
        self.pop_newlines();
        let span = between(&open.range32(), &close.range32());
        expr(ExprKind::Parens(Box::new(inner)), span)
    }

    fn finish_call(&mut self, name: Token) -> Expr {
        let mut open = self.read();
        let mut full_name = self.text(name).to_string();
        let mut name_end = name.end;
        while open.kind == TokenKind::DoubleColon {
            let next = self.read();
            if next.kind != TokenKind::Ident {
                self.error(
                    "Missing function name",
                    "Function scope resolution symbol :: must be followed by a function name in this scope.",
                    next.range32(),
                );
                self.recover_over(TokenKind::OParen);
                return expr(ExprKind::Error, between(&name.range32(), &next.range32()));
            }
            full_name.push_str("::");
            full_name.push_str(self.text(next));
            name_end = next.end;
            open = self.read();
        }
        let name_span = name.start..name_end;
        if open.kind != TokenKind::OParen {
            self.error(
                "Missing open parenthesis",
                "Function selector must be followed by an open parenthesis to begin the function call.",
                open.range32(),
            );
            self.recover_over(TokenKind::OParen);
            return expr(ExprKind::Error, between(&name.range32(), &open.range32()));
        }
        let base = self.items.len();
        let mut expand_final = false;
        let mut close: Option<Token> = None;
        self.push_newlines(false);
        loop {
            if self.peek().kind == TokenKind::CParen {
                close = Some(self.read());
                break;
            }
            let before = self.error_count();
            let arg = self.parse_expression();
            self.items.push(arg);
            if self.recovery && self.error_count() > before {
                let recovered = self.recover(TokenKind::CParen);
                if recovered.kind == TokenKind::CParen {
                    close = Some(recovered);
                }
                break;
            }
            let sep = self.read();
            match sep.kind {
                TokenKind::CParen => {
                    close = Some(sep);
                    break;
                }
                TokenKind::Ellipsis => {
                    expand_final = true;
                    if self.peek().kind != TokenKind::CParen {
                        if !self.recovery {
                            self.error(
                                "Missing closing parenthesis",
                                "An expanded function argument (with ...) must be immediately followed by closing parentheses.",
                                sep.range32(),
                            );
                        }
                        close = Some(self.recover(TokenKind::CParen));
                    } else {
                        close = Some(self.read());
                    }
                    break;
                }
                TokenKind::Comma => {
                    if self.peek().kind == TokenKind::CParen {
                        close = Some(self.read());
                        break;
                    }
                }
                TokenKind::Eof => {
                    self.error(
                        "Unterminated function call",
                        "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.",
                        between(&name.range32(), &open.range32()),
                    );
                    close = Some(self.recover(TokenKind::CParen));
                    break;
                }
                _ => {
                    self.error(
                        "Missing argument separator",
                        "A comma is required to separate each function argument from the next.",
                        sep.range32(),
                    );
                    close = Some(self.recover(TokenKind::CParen));
                    break;
                }
            }
        }
        self.pop_newlines();
        // hcl leaves the close range empty when recovery ran off the end; use the open paren.
        let close_span = close.map_or(open.range32(), Token::range32);
        let span = between(&name_span, &close_span);
        let args = self.items.drain(base..).collect();
        expr(
            ExprKind::Call {
                name: full_name.into_boxed_str(),
                name_span,
                open_paren: open.range32(),
                args,
                expand_final,
            },
            span,
        )
    }

    fn parse_tuple(&mut self) -> Expr {
        let open = self.read();
        self.push_newlines(false);
        if self.keyword(self.peek(), "for") {
            let result = self.finish_for(open);
            self.pop_newlines();
            return result;
        }
        let base = self.items.len();
        let close;
        loop {
            if self.peek().kind == TokenKind::CBrack {
                close = self.read();
                break;
            }
            let before = self.error_count();
            let item = self.parse_expression();
            self.items.push(item);
            if self.recovery && self.error_count() > before {
                close = self.recover(TokenKind::CBrack);
                break;
            }
            let next = self.peek();
            if next.kind == TokenKind::CBrack {
                close = self.read();
                break;
            }
            if next.kind != TokenKind::Comma {
                if !self.recovery {
                    if next.kind == TokenKind::Eof {
                        self.error(
                            "Unterminated tuple constructor expression",
                            "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.",
                            open.range32(),
                        );
                    } else {
                        self.error(
                            "Missing item separator",
                            "Expected a comma to mark the beginning of the next item.",
                            next.range32(),
                        );
                    }
                }
                close = self.recover(TokenKind::CBrack);
                break;
            }
            self.read();
        }
        self.pop_newlines();
        let items = self.items.drain(base..).collect();
        expr(
            ExprKind::Tuple(items),
            between(&open.range32(), &close.range32()),
        )
    }

    fn parse_object(&mut self) -> Expr {
        let open = self.read();
        self.push_newlines(false);
        let is_for = self.keyword(self.peek(), "for");
        self.pop_newlines();
        if is_for {
            self.push_newlines(false);
            let result = self.finish_for(open);
            self.pop_newlines();
            return result;
        }
        self.push_newlines(true);
        let mut items = Vec::new();
        let close;
        loop {
            let next = self.peek();
            if next.kind == TokenKind::Newline {
                self.read();
                continue;
            }
            if next.kind == TokenKind::CBrace {
                close = self.read();
                break;
            }
            let force_non_literal = next.kind == TokenKind::OParen;
            let before = self.error_count();
            let key = self.parse_expression();
            if self.recovery && self.error_count() > before {
                close = self.recover(TokenKind::CBrace);
                break;
            }
            let next = self.peek();
            if next.kind != TokenKind::Equal && next.kind != TokenKind::Colon {
                if !self.recovery {
                    self.report_object_separator(next, &open);
                }
                close = self.recover(TokenKind::CBrace);
                break;
            }
            self.read();
            let before = self.error_count();
            let value = self.parse_expression();
            if self.recovery && self.error_count() > before {
                if value.kind == ExprKind::Error {
                    items.push(ObjectItem {
                        key,
                        force_non_literal,
                        value,
                    });
                }
                close = self.recover(TokenKind::CBrace);
                break;
            }
            items.push(ObjectItem {
                key,
                force_non_literal,
                value,
            });
            let next = self.peek();
            if next.kind == TokenKind::CBrace {
                close = self.read();
                break;
            }
            if next.kind != TokenKind::Comma && next.kind != TokenKind::Newline {
                if !self.recovery {
                    if next.kind == TokenKind::Eof {
                        self.error(
                            "Unterminated object constructor expression",
                            "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open.range32(),
                        );
                    } else {
                        self.error(
                            "Missing attribute separator",
                            "Expected a newline or comma to mark the beginning of the next attribute.",
                            next.range32(),
                        );
                    }
                }
                close = self.recover(TokenKind::CBrace);
                break;
            }
            self.read();
        }
        self.pop_newlines();
        items.shrink_to_fit();
        expr(
            ExprKind::Object(items),
            between(&open.range32(), &close.range32()),
        )
    }

    fn report_object_separator(&mut self, next: Token, open: &Token) {
        match next.kind {
            TokenKind::Newline | TokenKind::Comma => self.error(
                "Missing attribute value",
                "Expected an attribute value, introduced by an equals sign (\"=\").",
                next.range32(),
            ),
            TokenKind::Ident => self.error(
                "Missing key/value separator",
                "Expected an equals sign (\"=\") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.",
                next.range32(),
            ),
            TokenKind::Eof => self.error(
                "Unterminated object constructor expression",
                "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                open.range32(),
            ),
            _ => self.error(
                "Missing key/value separator",
                "Expected an equals sign (\"=\") to mark the beginning of the attribute value.",
                next.range32(),
            ),
        }
    }

    fn for_error(&mut self, detail: &str, open: &Token, close_kind: TokenKind) -> Expr {
        if !self.recovery {
            let at = self.peek().range32();
            self.error("Invalid 'for' expression", detail, at);
        }
        let close = self.recover(close_kind);
        error_expr(between(&open.range32(), &close.range32()))
    }

    fn finish_for(&mut self, open: Token) -> Expr {
        self.push_newlines(false);
        let result = self.finish_for_inner(open);
        self.pop_newlines();
        result
    }

    fn finish_for_inner(&mut self, open: Token) -> Expr {
        self.read(); // `for`
        let object = open.kind == TokenKind::OBrace;
        let close_kind = if object {
            TokenKind::CBrace
        } else {
            TokenKind::CBrack
        };
        if self.peek().kind != TokenKind::Ident {
            return self.for_error(
                "For expression requires variable name after 'for'.",
                &open,
                close_kind,
            );
        }
        let first = self.read();
        let mut value_var = self.text(first).to_string();
        let mut key_var = None;
        if self.peek().kind == TokenKind::Comma {
            self.read();
            if self.peek().kind != TokenKind::Ident {
                return self.for_error(
                    "For expression requires value variable name after comma.",
                    &open,
                    close_kind,
                );
            }
            key_var = Some(value_var);
            let second = self.read();
            value_var = self.text(second).to_string();
        }
        if !self.keyword(self.peek(), "in") {
            return self.for_error(
                "For expression requires the 'in' keyword after its name declarations.",
                &open,
                close_kind,
            );
        }
        self.read();
        let before = self.error_count();
        let collection = self.parse_expression();
        if self.recovery && self.error_count() > before {
            let close = self.recover(close_kind);
            return error_expr(between(&open.range32(), &close.range32()));
        }
        if self.peek().kind != TokenKind::Colon {
            return self.for_error(
                "For expression requires a colon after the collection expression.",
                &open,
                close_kind,
            );
        }
        self.read();
        let before = self.error_count();
        let mut value = self.parse_expression();
        let mut key = None;
        if self.peek().kind == TokenKind::FatArrow {
            self.read();
            key = Some(value);
            value = self.parse_expression();
        }
        if self.recovery && self.error_count() > before {
            let close = self.recover(close_kind);
            return error_expr(between(&open.range32(), &close.range32()));
        }
        let mut ellipsis = None;
        if self.peek().kind == TokenKind::Ellipsis {
            ellipsis = Some(self.read());
        }
        let mut condition = None;
        if self.keyword(self.peek(), "if") {
            self.read();
            let before = self.error_count();
            condition = Some(self.parse_expression());
            if self.recovery && self.error_count() > before {
                let close = self.recover(close_kind);
                return error_expr(between(&open.range32(), &close.range32()));
            }
        }
        let close = if self.peek().kind == close_kind {
            self.read()
        } else {
            if !self.recovery {
                let at = self.peek().range32();
                self.error(
                    "Invalid 'for' expression",
                    "Extra characters after the end of the 'for' expression.",
                    at,
                );
            }
            self.recover(close_kind)
        };
        if !object {
            if let Some(key) = &key {
                self.error(
                    "Invalid 'for' expression",
                    "Key expression is not valid when building a tuple.",
                    key.span.clone(),
                );
            }
            if let Some(ellipsis) = ellipsis {
                self.error(
                    "Invalid 'for' expression",
                    "Grouping ellipsis (...) cannot be used when building a tuple.",
                    ellipsis.range32(),
                );
            }
        } else if key.is_none() {
            self.error(
                "Invalid 'for' expression",
                "Key expression is required when building an object.",
                value.span.clone(),
            );
        }
        expr(
            ExprKind::For(Box::new(ForExpr {
                key_var,
                value_var,
                collection,
                key: key.map(Box::new),
                value,
                condition: condition.map(Box::new),
                group: ellipsis.is_some(),
                object,
            })),
            between(&open.range32(), &close.range32()),
        )
    }
}

fn binary(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
    let span = between(&lhs.span, &rhs.span);
    expr(
        ExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        span,
    )
}

/// hcl's `makeRelativeTraversal`: extend a traversal, or start a relative one.
fn relative(source: Expr, step: Step, step_span: TextRange) -> Expr {
    let span = between(&source.span, &step_span);
    match source.kind {
        ExprKind::Traversal {
            root,
            root_span,
            mut steps,
        } => {
            steps.push(step);
            expr(
                ExprKind::Traversal {
                    root,
                    root_span,
                    steps,
                },
                span,
            )
        }
        ExprKind::RelativeTraversal {
            source: inner,
            mut steps,
        } => {
            steps.push(step);
            expr(
                ExprKind::RelativeTraversal {
                    source: inner,
                    steps,
                },
                span,
            )
        }
        other => expr(
            ExprKind::RelativeTraversal {
                source: Box::new(Expr {
                    kind: other,
                    span: source.span,
                }),
                steps: vec![step],
            },
            span,
        ),
    }
}

/// Whether cty's `ParseNumberVal` accepts a number token: digits, an optional fraction and an
/// optional exponent.
pub fn valid_number(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > start
    };
    if !digits(&mut i) {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceMap;

    impl Parser<'_> {
        /// The recursive form [`Parser::parse_binary`] flattens: one call per level, as Go.
        fn parse_binary_recursive(&mut self, level: usize) -> Expr {
            if level >= BINARY_LEVELS.len() {
                return self.parse_with_traversals();
            }
            let before = self.error_count();
            let lhs = self.parse_binary_recursive(level + 1);
            if self.recovery && self.error_count() > before {
                return lhs;
            }
            self.binary_level_with(level, lhs, Self::parse_binary_recursive)
        }
    }

    /// The tree, diagnostics, next token and nesting depth after parsing `text`'s binary
    /// expression from level 0, flattened or recursive.
    fn parse_both(text: &str) -> [(Expr, Vec<String>, Token, usize, bool); 2] {
        let mut map = SourceMap::new();
        let id = map.add("t.hcl", text);
        [false, true].map(|recursive| {
            let mut parser = Parser::new(map.get(id));
            parser.push_newlines(false);
            let tree = if recursive {
                parser.parse_binary_recursive(0)
            } else {
                parser.parse_binary(0)
            };
            let diags = parser
                .diagnostics
                .iter()
                .map(|d| format!("{d:?}"))
                .collect();
            (tree, diags, parser.peek(), parser.depth, parser.recovery)
        })
    }

    #[test]
    fn binary_levels_match_the_table() {
        use TokenKind as K;
        for (level, ops) in BINARY_LEVELS.iter().enumerate() {
            for (kind, _) in *ops {
                assert_eq!(binary_level(*kind), Some(level), "{kind:?}");
            }
        }
        for kind in [
            K::OBrace,
            K::CBrace,
            K::OBrack,
            K::CBrack,
            K::OParen,
            K::CParen,
            K::OQuote,
            K::CQuote,
            K::OHeredoc,
            K::CHeredoc,
            K::Equal,
            K::Bang,
            K::Dot,
            K::Comma,
            K::DoubleColon,
            K::Ellipsis,
            K::FatArrow,
            K::Question,
            K::Colon,
            K::TemplateInterp,
            K::TemplateControl,
            K::TemplateSeqEnd,
            K::QuotedLit,
            K::StringLit,
            K::NumberLit,
            K::Ident,
            K::Comment,
            K::Newline,
            K::Eof,
            K::BitwiseAnd,
            K::BitwiseOr,
            K::BitwiseNot,
            K::BitwiseXor,
            K::Apostrophe,
            K::Backtick,
            K::Semicolon,
            K::Invalid,
            K::QuotedNewline,
        ] {
            assert_eq!(binary_level(kind), None, "{kind:?}");
        }
    }

    #[test]
    fn flattened_binary_parse_is_the_recursive_one() {
        let deep = format!("{}1{}", "(".repeat(600), " + 1".repeat(600));
        let long_chain = format!("1 + 2 * 3{}", " - 4 * 5 / 6 % 7".repeat(700));
        // Past the nesting limit: the chain itself counts one level per operator.
        let too_long = format!("1{}", " + 1".repeat(1100));
        for text in [
            "a",
            "1 + 2",
            "1 + 2 + 3 - 4",
            "1 * 2 + 3 * 4 - 5 / 6 % 7",
            "a || b && c == d < e + f * g - h / i",
            "a * b + c < d == e && f || g",
            "a || b || c && d && e",
            "!a == -b != c >= d <= e > f",
            "x.y[0] + f(1, 2) * [1, 2][0] - { a = 1 }.a",
            "(1 + 2) * 3 < 4 ? 5 : 6",
            "1 + 2 ) 3",
            "1 + ",
            "1 * * 2 + 3",
            "a == b + ",
            "a && || b",
            "1 + 2 * 3 == 4 && 5 < 6 || 7 % 8 > 9 + 10 - 11",
            &deep,
            &long_chain,
            &too_long,
        ] {
            let [flat, recursive] = parse_both(text);
            assert_eq!(flat, recursive, "{text:?}");
        }
    }
}
