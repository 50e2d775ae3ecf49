//! The grammar rules of `CEL.g4`, one function per rule, building the AST as cel-go's
//! visitor does (same node ids, same offsets) while parsing.
//!
//! cel-go has two depth limits and both are reproduced, since users hit them:
//! - while parsing, ANTLR's parse listener counts how deeply each grammar rule is nested
//!   (left-recursive rules such as `member` in `a.b.c` do not nest; parentheses, list
//!   elements, call arguments and right operands do) and stops past the limit with
//!   `expression recursion limit exceeded: N`;
//! - while building the tree, the visitor counts nested selects, calls with a receiver,
//!   indexes, binary operators and ternaries and stops with `max recursion depth exceeded`.
//!
//! Both stop parsing at once, which also bounds this parser's own recursion and the depth
//! of the trees it builds.

use super::lexer::{Tok, Token, display_text, tokenize};
use super::unescape::unescape;
use super::{MacroSet, Options};
use crate::cel::ast::{Ast, Entry, Expr, ExprKind, Id, Literal, SourceInfo};
use crate::cel::error::{Issue, Issues};
use std::collections::HashMap;
use std::sync::Arc;

/// Why a rule did not finish.
pub(super) enum Bail {
    /// Parsing stopped (a limit); the reason is in the parser's issues.
    Stop,
    /// A syntax error was thrown, as ANTLR throws a recognition exception: the innermost
    /// rule catches it, skips to a token that can follow, and returns a placeholder.
    Recover,
}

use Bail::{Recover, Stop};

/// A result that may bail out.
pub(super) type R<T> = Result<T, Bail>;

/// A built node and the visitor's depth count of its subtree.
pub(super) struct N {
    pub e: Expr,
    pub h: u32,
}

/// How far down the rule chain a syntax error is caught: decides what recovery may stop
/// at (what can follow that rule and the rules enclosing it, ANTLR's error recovery
/// set). `member` is caught at `Unary` (nothing follows a member inside `unary`);
/// `primary` and the list rules inside it at `Member` (a member can go on with `.`/`[`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Expr,
    CondOr,
    CondAnd,
    Relation,
    Calc,
    Unary,
    Member,
}

/// The rules whose nesting ANTLR's listener counts (every rule is counted; these are the
/// ones this parser enters).
#[derive(Clone, Copy)]
enum Rule {
    Expr,
    CondOr,
    CondAnd,
    Relation,
    Calc,
    Unary,
    Member,
    Primary,
    ExprList,
    ListInit,
    FieldInit,
    OptField,
    MapInit,
    EscapeIdent,
    OptExpr,
    Literal,
}

/// Past this many node ids the expression is refused: macros such as `optMap` copy their
/// target, so chains of them could otherwise grow the tree exponentially.
const MAX_IDS: Id = 300_000;

/// Tokens that can start an expression, as ANTLR lists them.
const EXPR_START: &[Tok] = &[
    Tok::LBracket,
    Tok::LBrace,
    Tok::LParen,
    Tok::Dot,
    Tok::Minus,
    Tok::Exclam,
    Tok::True,
    Tok::False,
    Tok::Null,
    Tok::NumFloat,
    Tok::NumInt,
    Tok::NumUint,
    Tok::String,
    Tok::Bytes,
    Tok::Identifier,
];

/// Tokens that can start a `primary` (a `-` only as a number's sign).
const PRIMARY_START: &[Tok] = &[
    Tok::LBracket,
    Tok::LBrace,
    Tok::LParen,
    Tok::Dot,
    Tok::Minus,
    Tok::True,
    Tok::False,
    Tok::Null,
    Tok::NumFloat,
    Tok::NumInt,
    Tok::NumUint,
    Tok::String,
    Tok::Bytes,
    Tok::Identifier,
];

/// Tokens that can follow a complete operand inside an expression.
const OPERATORS: &[Tok] = &[
    Tok::Equals,
    Tok::NotEquals,
    Tok::In,
    Tok::Less,
    Tok::LessEquals,
    Tok::GreaterEquals,
    Tok::Greater,
    Tok::LogicalAnd,
    Tok::LogicalOr,
    Tok::LBracket,
    Tok::Dot,
    Tok::Minus,
    Tok::Question,
    Tok::Plus,
    Tok::Star,
    Tok::Slash,
    Tok::Percent,
];

/// cel-go's reserved identifiers, refused as variables and function names.
const RESERVED: &[&str] = &[
    "as",
    "break",
    "const",
    "continue",
    "else",
    "false",
    "for",
    "function",
    "if",
    "import",
    "in",
    "let",
    "loop",
    "package",
    "namespace",
    "null",
    "return",
    "true",
    "var",
    "void",
    "while",
];

/// The parser's state.
pub(super) struct Parser<'a> {
    text: &'a str,
    toks: Vec<Token>,
    pos: usize,
    pub(super) opts: &'a Options,
    next_id: Id,
    pub(super) offsets: HashMap<Id, usize>,
    pub(super) macro_calls: HashMap<Id, Expr>,
    syntax: Vec<Issue>,
    semantic: Vec<Issue>,
    internal: Option<String>,
    depth: [u32; 16],
    /// What may follow an expression in each enclosing construct, innermost last: used to
    /// decide, as ANTLR does, whether a missing closing token can be assumed.
    follow: Vec<&'static [Tok]>,
    /// ANTLR's error recovery mode: set by a syntax error, cleared by a matched token;
    /// syntax errors are not reported while it is set.
    error_mode: bool,
    /// The token index of the last recovery (ANTLR skips a token when recovering twice
    /// at the same place).
    last_error_pos: Option<usize>,
    /// The places (rules) recoveries happened in (ANTLR's `lastErrorStates`).
    last_error_sites: Vec<u8>,
    recovery_attempts: usize,
    /// When each parser syntax error was reported, as the offset up to which the lexer
    /// had run (its errors up to there were reported first).
    reported_at: Vec<usize>,
    /// Byte ranges the lexer dropped as unrecognised.
    dropped: Vec<(usize, usize)>,
}

/// Parses `text` with `opts`.
pub(super) fn parse(text: &str, opts: &Options) -> Result<Ast, Issues> {
    let size = text.chars().count();
    if size > opts.size_limit {
        return Err(Issues {
            issues: vec![Issue {
                offset: None,
                message: format!(
                    "expression code point size exceeds limit: size: {size}, limit {}",
                    opts.size_limit
                ),
            }],
            text: text.into(),
        });
    }
    // Deeply nested input recurses once per nesting level until a depth limit stops it;
    // give such input a stack that is sure to hold the deepest allowed nesting.
    if nesting_estimate(text) > 16 {
        let owned = text.to_string();
        let opts = opts.clone();
        let worker = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || parse_here(&owned, &opts));
        if let Ok(Ok(result)) = worker.map(|handle| handle.join()) {
            return result;
        }
    }
    parse_here(text, opts)
}

/// An upper bound of how deeply `text` nests (brackets and `?`).
fn nesting_estimate(text: &str) -> usize {
    let mut depth = 0usize;
    let mut max = 0usize;
    let mut questions = 0usize;
    for b in text.bytes() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'?' => questions += 1,
            _ => {}
        }
    }
    max + questions
}

fn parse_here(text: &str, opts: &Options) -> Result<Ast, Issues> {
    let (toks, mut lex_errors) = tokenize(text);
    let mut p = Parser {
        text,
        toks,
        pos: 0,
        opts,
        next_id: 1,
        offsets: HashMap::new(),
        macro_calls: HashMap::new(),
        syntax: Vec::new(),
        semantic: Vec::new(),
        internal: None,
        depth: [0; 16],
        follow: vec![&[Tok::Eof]],
        error_mode: false,
        last_error_pos: None,
        last_error_sites: Vec::new(),
        recovery_attempts: 0,
        reported_at: Vec::new(),
        dropped: lex_errors.iter().map(|e| (e.offset, e.end)).collect(),
    };
    let result = p.start();
    if matches!(result, Err(Stop)) {
        // cel-go's lexer runs only as far as the parser looked: no further errors.
        let lexed_to = p.tok().end;
        lex_errors.retain(|e| e.offset < lexed_to);
    }
    // Lexer and parser errors in the order ANTLR reports them (the lexer runs ahead of
    // the parser by its lookahead), for the reporting limit.
    let mut timed: Vec<(usize, u8, Issue)> = lex_errors
        .into_iter()
        .map(|e| {
            let issue = Issue {
                offset: Some(e.offset),
                message: e.message,
            };
            (e.offset, 0, issue)
        })
        .collect();
    for (issue, at) in p.syntax.drain(..).zip(p.reported_at.drain(..)) {
        timed.push((at, 1, issue));
    }
    timed.sort_by_key(|(at, kind, _)| (*at, *kind));
    let mut syntax: Vec<Issue> = timed.into_iter().map(|(_, _, i)| i).collect();
    let mut truncated = false;
    if syntax.len() > opts.error_reporting_limit {
        truncated = true;
        syntax.truncate(opts.error_reporting_limit + 1);
        if let Some(last) = syntax.last_mut() {
            last.message = format!(
                "Syntax error: More than {} syntax errors",
                opts.error_reporting_limit
            );
        }
    }
    if truncated {
        // cel-go stops parsing there: the visitor never runs.
        p.semantic.clear();
    }
    let mut issues = Vec::new();
    match p.internal.take() {
        // A depth limit ends cel-go's parse before (listener) or while (visitor) the tree
        // is built, so the visitor's own errors are not reported with it.
        Some(message) => {
            issues.push(Issue {
                offset: None,
                message,
            });
            issues.append(&mut syntax);
        }
        None => {
            issues.append(&mut syntax);
            issues.append(&mut p.semantic);
        }
    }
    match result {
        Ok(n) if issues.is_empty() => Ok(Ast {
            expr: n.e,
            source: SourceInfo {
                text: text.into(),
                offsets: p.offsets,
                macro_calls: p.macro_calls,
            },
        }),
        _ => Err(Issues {
            issues,
            text: text.into(),
        }),
    }
}

fn contains(set: &[Tok], t: Tok) -> bool {
    set.contains(&t)
}

/// ANTLR's rendering of an expected-token set.
fn expecting(set: &[Tok]) -> String {
    let mut sorted = set.to_vec();
    sorted.sort();
    sorted.dedup();
    if let [one] = sorted.as_slice() {
        return one.display().to_string();
    }
    let names: Vec<&str> = sorted.iter().map(|t| t.display()).collect();
    format!("{{{}}}", names.join(", "))
}

fn with(base: &[Tok], extra: &[Tok]) -> Vec<Tok> {
    let mut v = base.to_vec();
    v.extend_from_slice(extra);
    v
}

impl<'a> Parser<'a> {
    // ---- tokens ----

    fn tok(&self) -> Token {
        self.toks.get(self.pos).copied().unwrap_or(Token {
            kind: Tok::Eof,
            start: self.text.len(),
            end: self.text.len(),
        })
    }

    fn peek(&self) -> Tok {
        self.tok().kind
    }

    fn peek_at(&self, k: usize) -> Tok {
        self.toks.get(self.pos + k).map_or(Tok::Eof, |t| t.kind)
    }

    /// Matches the token at hand (ending error recovery mode, as a match does in ANTLR).
    fn bump(&mut self) -> Token {
        self.error_mode = false;
        self.skip()
    }

    /// Consumes the token at hand without matching it (error recovery).
    fn skip(&mut self) -> Token {
        let t = self.tok();
        if t.kind != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    fn text_of(&self, t: Token) -> &'a str {
        self.text.get(t.start..t.end).unwrap_or("")
    }

    /// A token as ANTLR quotes it in messages.
    fn shown(&self, t: Token) -> String {
        if t.kind == Tok::Eof {
            "<EOF>".to_string()
        } else {
            display_text(self.text_of(t))
        }
    }

    // ---- errors ----

    /// Reports a syntax error unless in error recovery mode, and enters that mode.
    fn syntax_error(&mut self, offset: usize, message: String) {
        if self.error_mode {
            return;
        }
        self.error_mode = true;
        self.notify(offset, message);
    }

    /// Reports a syntax error whatever the mode.
    fn notify(&mut self, offset: usize, message: String) {
        let lookahead = self
            .toks
            .get(self.pos + 1)
            .map_or(self.text.len(), |t| t.end);
        self.reported_at.push(lookahead);
        self.syntax.push(Issue {
            offset: Some(offset),
            message: format!("Syntax error: {message}"),
        });
    }

    /// Counts a recovery; past cel-go's limit, reports it and stops.
    fn attempt(&mut self) -> R<()> {
        if self.recovery_attempts == self.opts.recovery_limit {
            self.recovery_attempts += 1;
            let at = self.tok().start;
            let limit = self.opts.recovery_limit;
            self.notify(
                at,
                format!("error recovery attempt limit exceeded: {limit}"),
            );
            return Err(Stop);
        }
        self.recovery_attempts += 1;
        Ok(())
    }

    /// ANTLR's `recover`: skip to a token that can follow the rule `level` (or any rule
    /// enclosing it).
    fn recover(&mut self, level: Level, rule: Rule) -> R<()> {
        let set = self.recovery_set(level);
        self.recover_to(&set, rule as u8)
    }

    /// ANTLR's `recover` with an explicit set of tokens to stop at; `site` stands for the
    /// parser state the error was met in.
    fn recover_to(&mut self, set: &[Tok], site: u8) -> R<()> {
        self.attempt()?;
        let mut consumed = 0;
        let mut consume = |p: &mut Self| -> R<()> {
            if consumed >= p.opts.lookahead_limit {
                let limit = p.opts.lookahead_limit;
                return Err(p.internal(format!(
                    "error recovery token lookahead limit exceeded: {limit}"
                )));
            }
            consumed += 1;
            p.skip();
            Ok(())
        };
        // Recovering again at the same token and place would loop: skip a token first.
        if self.last_error_pos == Some(self.pos)
            && self.last_error_sites.contains(&site)
            && self.peek() != Tok::Eof
        {
            consume(self)?;
        }
        self.last_error_pos = Some(self.pos);
        if !self.last_error_sites.contains(&site) {
            self.last_error_sites.push(site);
        }
        while self.peek() != Tok::Eof && !set.contains(&self.peek()) {
            consume(self)?;
        }
        Ok(())
    }

    /// The tokens that can follow the rule `level` or the rules around it.
    fn recovery_set(&self, level: Level) -> Vec<Tok> {
        use Tok::*;
        let mut set: Vec<Tok> = Vec::new();
        let relations = [
            Less,
            LessEquals,
            GreaterEquals,
            Greater,
            Equals,
            NotEquals,
            In,
        ];
        if level >= Level::CondOr {
            set.push(Question);
        }
        if level >= Level::CondAnd {
            set.push(LogicalOr);
        }
        if level >= Level::Relation {
            set.push(LogicalAnd);
            set.extend(relations);
        }
        if level >= Level::Calc {
            set.extend([Star, Slash, Percent, Plus, Minus]);
        }
        if level >= Level::Member {
            set.extend([Dot, LBracket]);
        }
        if self.follow.len() > 1 {
            // Inside brackets, the enclosing operand can be continued by any operator.
            set.extend_from_slice(OPERATORS);
        }
        for f in &self.follow {
            set.extend_from_slice(f);
        }
        set
    }

    /// Runs a rule: counts its nesting for the depth limit and catches a thrown syntax
    /// error, recovering as ANTLR does and returning a placeholder.
    fn rule(&mut self, rule: Rule, level: Level, body: impl FnOnce(&mut Self) -> R<N>) -> R<N> {
        self.enter(rule)?;
        let result = body(self);
        self.exit(rule);
        match result {
            Err(Recover) => {
                self.recover(level, rule)?;
                Ok(N {
                    e: placeholder(),
                    h: 0,
                })
            }
            other => other,
        }
    }

    /// Stops parsing with an error not tied to a location (the limits).
    fn internal(&mut self, message: String) -> Bail {
        if self.internal.is_none() {
            self.internal = Some(message);
        }
        Stop
    }

    /// cel-go's `reportError`: an error at `offset`, returning a placeholder node (which
    /// takes an id, as cel-go's does).
    pub(super) fn report(&mut self, offset: Option<usize>, message: String) -> R<Expr> {
        let id = match offset {
            Some(o) => self.new_id(o)?,
            None => self.bare_id()?,
        };
        self.semantic.push(Issue { offset, message });
        Ok(Expr {
            id,
            kind: ExprKind::Literal(Literal::Null),
        })
    }

    /// The token at hand is not `want`: ANTLR's single-token deletion, single-token
    /// insertion, or a mismatch that stops parsing.
    fn expect(&mut self, want: Tok) -> R<Token> {
        let t = self.tok();
        if t.kind == want {
            return Ok(self.bump());
        }
        self.attempt()?;
        if self.peek_at(1) == want {
            let shown = self.shown(t);
            self.syntax_error(
                t.start,
                format!("extraneous input '{shown}' expecting {}", want.display()),
            );
            self.skip();
            return Ok(self.bump());
        }
        let follows = match want {
            Tok::Colon => contains(EXPR_START, t.kind),
            Tok::RParen | Tok::RBracket | Tok::RBrace => {
                contains(OPERATORS, t.kind)
                    || self.follow.last().is_some_and(|f| contains(f, t.kind))
            }
            _ => false,
        };
        let shown = self.shown(t);
        if follows {
            self.syntax_error(t.start, format!("missing {} at '{shown}'", want.display()));
            return Ok(Token {
                kind: want,
                start: t.start,
                end: t.start,
            });
        }
        self.syntax_error(
            t.start,
            format!("mismatched input '{shown}' expecting {}", want.display()),
        );
        Err(Recover)
    }

    /// The token at hand cannot start what `set` lists: deleted if the next one can,
    /// otherwise a mismatch that stops parsing.
    fn sync(&mut self, set: &[Tok]) -> R<()> {
        let t = self.tok();
        if contains(set, t.kind) || self.error_mode {
            return Ok(());
        }
        let shown = self.shown(t);
        if contains(set, self.peek_at(1)) {
            self.syntax_error(
                t.start,
                format!("extraneous input '{shown}' expecting {}", expecting(set)),
            );
            self.skip();
            // The next token is known to fit: ANTLR counts it as matched.
            self.error_mode = false;
            return Ok(());
        }
        self.syntax_error(
            t.start,
            format!("mismatched input '{shown}' expecting {}", expecting(set)),
        );
        Err(Recover)
    }

    /// ANTLR's `no viable alternative` after `start`, at the token at hand.
    fn no_viable(&mut self, start: usize) -> Bail {
        self.no_viable_at(start, 0)
    }

    /// ANTLR's `no viable alternative` after `start`, at the token `ahead` tokens on.
    fn no_viable_at(&mut self, start: usize, ahead: usize) -> Bail {
        let t = self
            .toks
            .get(self.pos + ahead)
            .copied()
            .unwrap_or(self.tok());
        let end = if t.kind == Tok::Eof { t.start } else { t.end };
        // The tokens' text: characters the lexer dropped are not part of it.
        let mut raw = String::new();
        let mut i = start;
        for &(from, to) in &self.dropped {
            if to <= i || from >= end {
                continue;
            }
            raw.push_str(self.text.get(i..from.max(i)).unwrap_or(""));
            i = to;
        }
        raw.push_str(self.text.get(i.min(end)..end).unwrap_or(""));
        let input = display_text(&raw);
        // cel-go rewrites this one message for keywords used as field names.
        let mut message = format!("no viable alternative at input '{input}'");
        let mut chars = input.chars();
        if chars.next().is_some() && matches!(chars.as_str(), "true" | "false" | "null") {
            message = format!("mismatched input '{}' expecting IDENTIFIER", chars.as_str());
        }
        self.syntax_error(t.start, message);
        Recover
    }

    // ---- depth limits ----

    fn enter(&mut self, rule: Rule) -> R<()> {
        let d = &mut self.depth[rule as usize];
        *d += 1;
        if *d > self.opts.max_recursion_depth {
            let limit = self.opts.max_recursion_depth;
            return Err(self.internal(format!("expression recursion limit exceeded: {limit}")));
        }
        Ok(())
    }

    fn exit(&mut self, rule: Rule) {
        let d = &mut self.depth[rule as usize];
        *d = d.saturating_sub(1);
    }

    /// The visitor's depth count of a node it counts, over its deepest child.
    pub(super) fn counted(&mut self, h: u32) -> R<u32> {
        let h = h + 1;
        if h > self.opts.max_recursion_depth {
            return Err(self.internal("max recursion depth exceeded".to_string()));
        }
        Ok(h)
    }

    // ---- ids ----

    /// A fresh id located at `offset`.
    pub(super) fn new_id(&mut self, offset: usize) -> R<Id> {
        let id = self.bare_id()?;
        self.offsets.insert(id, offset);
        Ok(id)
    }

    fn bare_id(&mut self) -> R<Id> {
        if self.next_id > MAX_IDS {
            return Err(self.internal(format!(
                "expression too large: more than {MAX_IDS} nodes after macro expansion"
            )));
        }
        let id = self.next_id;
        self.next_id += 1;
        Ok(id)
    }

    /// cel-go's `deleteID`: forget a call's id once a macro replaced it.
    pub(super) fn delete_id(&mut self, id: Id) {
        self.offsets.remove(&id);
        if id == self.next_id - 1 {
            self.next_id -= 1;
        }
    }

    pub(super) fn accu_name(&self) -> &'static str {
        if self.opts.hidden_accumulator {
            "@result"
        } else {
            "__result__"
        }
    }

    // ---- rules ----

    fn start(&mut self) -> R<N> {
        let n = match self.expr() {
            Ok(n) => n,
            Err(Recover) => {
                self.recover(Level::Expr, Rule::Expr)?;
                N {
                    e: placeholder(),
                    h: 0,
                }
            }
            Err(Stop) => return Err(Stop),
        };
        let t = self.tok();
        if t.kind != Tok::Eof {
            self.attempt()?;
            let shown = self.shown(t);
            if self.peek_at(1) == Tok::Eof {
                self.syntax_error(
                    t.start,
                    format!("extraneous input '{shown}' expecting <EOF>"),
                );
            } else {
                self.syntax_error(
                    t.start,
                    format!("mismatched input '{shown}' expecting <EOF>"),
                );
                // The start rule recovers by skipping to the end.
                self.recover_to(&[Tok::Eof], u8::MAX)?;
            }
        }
        Ok(n)
    }

    /// `expr: conditionalOr ('?' conditionalOr ':' expr)?`
    fn expr(&mut self) -> R<N> {
        self.rule(Rule::Expr, Level::Expr, |p| {
            let cond = p.cond_or()?;
            if p.peek() != Tok::Question {
                return Ok(cond);
            }
            let q = p.bump();
            let op = p.new_id(q.start)?;
            p.follow.push(&[Tok::Colon]);
            let yes = p.cond_or();
            p.follow.pop();
            let yes = yes?;
            p.expect(Tok::Colon)?;
            let no = p.expr()?;
            let h = p.counted(cond.h.max(yes.h).max(no.h))?;
            let e = p.global_call_or_macro(op, "_?_:_", vec![cond.e, yes.e, no.e])?;
            Ok(N { e, h })
        })
    }

    fn cond_or(&mut self) -> R<N> {
        self.rule(Rule::CondOr, Level::CondOr, |p| {
            p.logic(Tok::LogicalOr, "_||_", Self::cond_and)
        })
    }

    fn cond_and(&mut self) -> R<N> {
        self.rule(Rule::CondAnd, Level::CondAnd, |p| {
            p.logic(Tok::LogicalAnd, "_&&_", |p| p.relation(0))
        })
    }

    /// A chain of `||` or `&&`, balanced (or variadic) as cel-go's logic manager builds it.
    fn logic(&mut self, op: Tok, function: &str, term: fn(&mut Self) -> R<N>) -> R<N> {
        let first = term(self)?;
        if self.peek() != op {
            return Ok(first);
        }
        let mut h = first.h;
        let mut terms = vec![Some(first.e)];
        let mut ops = Vec::new();
        while self.peek() == op {
            let t = self.bump();
            let next = term(self)?;
            // cel-go numbers the operator after the term that follows it.
            ops.push(self.new_id(t.start)?);
            h = h.max(next.h);
            terms.push(Some(next.e));
        }
        let e = if self.opts.variadic_logic {
            Expr {
                id: ops[0],
                kind: ExprKind::Call {
                    target: None,
                    function: function.to_string(),
                    args: terms.into_iter().flatten().collect(),
                },
            }
        } else {
            balanced(function, &mut terms, &ops, 0, ops.len() - 1)
        };
        Ok(N { e, h })
    }

    /// `relation: calc | relation op relation`, as ANTLR's precedence climbing runs it.
    fn relation(&mut self, prec: u8) -> R<N> {
        self.rule(Rule::Relation, Level::Relation, |p| {
            let mut lhs = p.calc(0)?;
            loop {
                let function = match p.peek() {
                    Tok::Less => "_<_",
                    Tok::LessEquals => "_<=_",
                    Tok::GreaterEquals => "_>=_",
                    Tok::Greater => "_>_",
                    Tok::Equals => "_==_",
                    Tok::NotEquals => "_!=_",
                    Tok::In => "@in",
                    _ => break,
                };
                if prec > 1 {
                    break;
                }
                let t = p.bump();
                let op = p.new_id(t.start)?;
                let rhs = p.relation(2)?;
                let h = p.counted(lhs.h.max(rhs.h))?;
                let e = p.global_call_or_macro(op, function, vec![lhs.e, rhs.e])?;
                lhs = N { e, h };
            }
            Ok(lhs)
        })
    }

    /// `calc: unary | calc ('*'|'/'|'%') calc | calc ('+'|'-') calc`.
    fn calc(&mut self, prec: u8) -> R<N> {
        self.rule(Rule::Calc, Level::Calc, |p| {
            let mut lhs = p.unary()?;
            loop {
                let (function, op_prec) = match p.peek() {
                    Tok::Star => ("_*_", 2),
                    Tok::Slash => ("_/_", 2),
                    Tok::Percent => ("_%_", 2),
                    Tok::Plus => ("_+_", 1),
                    Tok::Minus => ("_-_", 1),
                    _ => break,
                };
                if prec > op_prec {
                    break;
                }
                let t = p.bump();
                let op = p.new_id(t.start)?;
                let rhs = p.calc(op_prec + 1)?;
                let h = p.counted(lhs.h.max(rhs.h))?;
                let e = p.global_call_or_macro(op, function, vec![lhs.e, rhs.e])?;
                lhs = N { e, h };
            }
            Ok(lhs)
        })
    }

    /// `unary: member | '!'+ member | '-'+ member`; an even run of operators cancels out,
    /// and a single `-` before a number is the number's sign.
    fn unary(&mut self) -> R<N> {
        self.rule(Rule::Unary, Level::Unary, |p| {
            p.sync(EXPR_START)?;
            let t = p.tok();
            let signed_number =
                t.kind == Tok::Minus && matches!(p.peek_at(1), Tok::NumInt | Tok::NumFloat);
            if !matches!(t.kind, Tok::Exclam | Tok::Minus) || signed_number {
                return p.member();
            }
            let mut count = 0usize;
            let mut last = t;
            let mut last_pos = p.pos;
            while p.peek() == t.kind {
                last_pos = p.pos;
                last = p.bump();
                count += 1;
            }
            if t.kind == Tok::Minus && !p.starts_primary() && !p.error_mode {
                // ANTLR's prediction fails at the token after the last `-` (which could
                // have been a number's sign) and leaves that `-` unconsumed: the operator
                // loop above then takes it for a subtraction.
                let err = p.no_viable(last.start);
                p.pos = last_pos;
                return Err(err);
            }
            if count % 2 == 0 {
                return p.member();
            }
            let op = p.new_id(t.start)?;
            let operand = p.member()?;
            let function = if t.kind == Tok::Exclam { "!_" } else { "-_" };
            let e = p.global_call_or_macro(op, function, vec![operand.e])?;
            Ok(N { e, h: operand.h })
        })
    }

    /// `member: primary ('.' '?'? IDENT | '.' IDENT '(' args ')' | '[' '?'? expr ']')*`
    fn member(&mut self) -> R<N> {
        self.rule(Rule::Member, Level::Unary, |p| {
            let mut n = p.primary()?;
            loop {
                match p.peek() {
                    Tok::Dot => n = p.member_dot(n)?,
                    Tok::LBracket => n = p.index(n)?,
                    _ => return Ok(n),
                }
            }
        })
    }

    /// `operand[index]` or `operand[?index]` from the `[`.
    fn index(&mut self, n: N) -> R<N> {
        let open = self.bump();
        let optional = if self.peek() == Tok::Question {
            self.bump();
            true
        } else {
            false
        };
        let op = self.new_id(open.start)?;
        self.follow.push(&[Tok::RBracket]);
        let index = self.expr();
        self.follow.pop();
        let index = index?;
        self.expect(Tok::RBracket)?;
        let h = self.counted(n.h.max(index.h))?;
        let e = if optional && !self.opts.optional_syntax {
            self.report(Some(open.start), "unsupported syntax '[?'".to_string())?
        } else {
            let function = if optional { "_[?_]" } else { "_[_]" };
            self.global_call_or_macro(op, function, vec![n.e, index.e])?
        };
        Ok(N { e, h })
    }

    /// A `.` after an operand: a field selection, an optional one, or a method call.
    fn member_dot(&mut self, operand: N) -> R<N> {
        // ANTLR predicts the alternative before matching its `.`: on a bad token after it,
        // nothing is consumed.
        let dot = self.tok();
        let optional = self.peek_at(1) == Tok::Question;
        let name_at = if optional { 2 } else { 1 };
        if !matches!(self.peek_at(name_at), Tok::Identifier | Tok::EscIdentifier) {
            return Err(self.no_viable_at(dot.start, name_at));
        }
        self.bump();
        if optional {
            self.bump();
        } else if self.peek() == Tok::Identifier && self.peek_at(1) == Tok::LParen {
            let name_tok = self.bump();
            let name = self.text_of(name_tok);
            let open = self.bump();
            let op = self.new_id(open.start)?;
            let (args, h) = self.call_args(Level::Unary)?;
            let h = self.counted(operand.h.max(h))?;
            let e = self.receiver_call_or_macro(op, name, operand.e, args)?;
            return Ok(N { e, h });
        }
        let (field, field_tok) = self.escape_ident()?;
        let h = self.counted(operand.h)?;
        let e = if optional {
            if !self.opts.optional_syntax {
                self.report(Some(dot.start), "unsupported syntax '.?'".to_string())?
            } else {
                let lit_id = self.new_id(field_tok.start)?;
                let name = Expr {
                    id: lit_id,
                    kind: ExprKind::Literal(Literal::String(field.into())),
                };
                let id = self.new_id(dot.start)?;
                call(id, "_?._", None, vec![operand.e, name])
            }
        } else {
            let id = self.new_id(dot.start)?;
            Expr {
                id,
                kind: ExprKind::Select {
                    operand: Box::new(operand.e),
                    field,
                    test_only: false,
                },
            }
        };
        Ok(N { e, h })
    }

    /// `escapeIdent: IDENTIFIER | ESC_IDENTIFIER`, at an identifier token.
    fn escape_ident(&mut self) -> R<(String, Token)> {
        self.enter(Rule::EscapeIdent)?;
        let t = self.bump();
        let text = self.text_of(t);
        let name = if t.kind == Tok::EscIdentifier {
            if self.opts.ident_escape_syntax {
                text.get(1..text.len().saturating_sub(1))
                    .unwrap_or("")
                    .to_string()
            } else {
                self.report(Some(t.start), "unsupported syntax: '`'".to_string())?;
                String::new()
            }
        } else {
            text.to_string()
        };
        self.exit(Rule::EscapeIdent);
        Ok((name, t))
    }

    /// Runs the body of a list rule (`exprList`, `listInit`, `mapInitializerList`,
    /// `fieldInitializerList`) with `follow` as what may come after an element, catching
    /// a thrown error as that rule does; `level` is where the rule is used (`Member` in a
    /// `primary`, `Unary` for a method call's arguments).
    fn sub_rule(
        &mut self,
        rule: Rule,
        level: Level,
        follow: &'static [Tok],
        body: impl FnOnce(&mut Self) -> R<()>,
    ) -> R<()> {
        self.enter(rule)?;
        self.follow.push(follow);
        let result = body(self);
        let result = match result {
            Err(Recover) => self.recover(level, rule),
            other => other,
        };
        self.follow.pop();
        self.exit(rule);
        result
    }

    /// `'(' exprList? ')'` after the `(`: the arguments and their deepest depth count.
    fn call_args(&mut self, level: Level) -> R<(Vec<Expr>, u32)> {
        let mut args = Vec::new();
        let mut h = 0;
        if self.peek() != Tok::RParen {
            self.sync(&with(EXPR_START, &[Tok::RParen]))?;
        }
        if self.peek() != Tok::RParen {
            self.sub_rule(Rule::ExprList, level, &[Tok::Comma, Tok::RParen], |p| {
                loop {
                    let a = p.expr()?;
                    h = h.max(a.h);
                    args.push(a.e);
                    if p.peek() != Tok::Comma {
                        return Ok(());
                    }
                    p.bump();
                }
            })?;
        }
        self.expect(Tok::RParen)?;
        Ok((args, h))
    }

    /// `primary`: identifiers, global calls, parentheses, list, map and message literals,
    /// and literals.
    fn primary(&mut self) -> R<N> {
        self.rule(Rule::Primary, Level::Member, |p| {
            let t = p.tok();
            match t.kind {
                Tok::Identifier | Tok::Dot => p.name_or_message(),
                Tok::LParen => {
                    p.bump();
                    p.follow.push(&[Tok::RParen]);
                    let inner = p.expr();
                    p.follow.pop();
                    let inner = inner?;
                    p.expect(Tok::RParen)?;
                    Ok(inner)
                }
                Tok::LBracket => p.list(),
                Tok::LBrace => p.map(),
                Tok::Minus if matches!(p.peek_at(1), Tok::NumInt | Tok::NumFloat) => p.literal(),
                Tok::NumInt
                | Tok::NumUint
                | Tok::NumFloat
                | Tok::String
                | Tok::Bytes
                | Tok::True
                | Tok::False
                | Tok::Null => p.literal(),
                _ => {
                    if p.error_mode {
                        return Err(Recover);
                    }
                    let before = p.pos;
                    p.sync(PRIMARY_START)?;
                    if p.pos != before && p.starts_primary() {
                        // The bad token was dropped; what follows starts a primary.
                        p.primary()
                    } else {
                        Err(p.no_viable_at(p.tok().start, 1))
                    }
                }
            }
        })
    }

    /// Whether the token at hand can start a `primary`.
    fn starts_primary(&self) -> bool {
        match self.peek() {
            Tok::Minus => matches!(self.peek_at(1), Tok::NumInt | Tok::NumFloat),
            t => contains(PRIMARY_START, t),
        }
    }

    /// `.`? IDENT, IDENT `(` args `)`, or a message literal `a.b.C{…}`.
    fn name_or_message(&mut self) -> R<N> {
        let start = self.tok();
        let leading_dot = start.kind == Tok::Dot;
        let first = usize::from(leading_dot);
        if self.peek_at(first) != Tok::Identifier {
            return Err(self.no_viable_at(start.start, first));
        }
        // A message literal is a dotted name followed by `{`.
        let mut k = first + 1;
        while self.peek_at(k) == Tok::Dot && self.peek_at(k + 1) == Tok::Identifier {
            k += 2;
        }
        if self.peek_at(k) == Tok::LBrace {
            let mut name = String::new();
            if leading_dot {
                self.bump();
                name.push('.');
            }
            loop {
                let id = self.bump();
                name.push_str(self.text_of(id));
                if self.peek() != Tok::Dot {
                    break;
                }
                self.bump();
                name.push('.');
            }
            return self.message(name);
        }
        if leading_dot {
            self.bump();
        }
        let id_tok = self.bump();
        let id = self.text_of(id_tok);
        let name = if leading_dot {
            format!(".{id}")
        } else {
            id.to_string()
        };
        let reserved = RESERVED.contains(&id);
        if self.peek() == Tok::LParen {
            let open = self.bump();
            if reserved {
                // cel-go reports the name and skips the arguments.
                let mark = self.semantic.len();
                self.call_args(Level::Member)?;
                self.semantic.truncate(mark);
                let e = self.report(Some(start.start), format!("reserved identifier: {id}"))?;
                return Ok(N { e, h: 0 });
            }
            let op = self.new_id(open.start)?;
            let (args, h) = self.call_args(Level::Member)?;
            let e = self.global_call_or_macro(op, &name, args)?;
            return Ok(N { e, h });
        }
        if reserved {
            let e = self.report(Some(start.start), format!("reserved identifier: {id}"))?;
            return Ok(N { e, h: 0 });
        }
        let id = self.new_id(id_tok.start)?;
        Ok(N {
            e: Expr {
                id,
                kind: ExprKind::Ident(name),
            },
            h: 0,
        })
    }

    /// `Name{field: value, ?field: value}` from the `{`.
    fn message(&mut self, type_name: String) -> R<N> {
        let open = self.bump();
        let id = self.new_id(open.start)?;
        let field_start = &[
            Tok::RBrace,
            Tok::Comma,
            Tok::Question,
            Tok::Identifier,
            Tok::EscIdentifier,
        ];
        self.sync(field_start)?;
        let mut fields = Vec::new();
        let mut h = 0;
        if matches!(
            self.peek(),
            Tok::Question | Tok::Identifier | Tok::EscIdentifier
        ) {
            self.sub_rule(
                Rule::FieldInit,
                Level::Member,
                &[Tok::Comma, Tok::RBrace],
                |p| {
                    loop {
                        p.enter(Rule::OptField)?;
                        let q = p.tok();
                        let optional = q.kind == Tok::Question;
                        if optional {
                            p.bump();
                            if !p.opts.optional_syntax {
                                p.report(Some(q.start), "unsupported syntax '?'".to_string())?;
                            }
                        }
                        if !matches!(p.peek(), Tok::Identifier | Tok::EscIdentifier) {
                            p.sync(&[Tok::Identifier, Tok::EscIdentifier])?;
                        }
                        let (field, _) = p.escape_ident()?;
                        p.exit(Rule::OptField);
                        let colon = p.expect(Tok::Colon)?;
                        let entry_id = p.new_id(colon.start)?;
                        let value = p.expr()?;
                        h = h.max(value.h);
                        if !optional || p.opts.optional_syntax {
                            fields.push(Entry {
                                id: entry_id,
                                key: Expr {
                                    id: entry_id,
                                    kind: ExprKind::Literal(Literal::String(field.into())),
                                },
                                value: value.e,
                                optional,
                            });
                        }
                        if p.peek() == Tok::Comma && p.peek_at(1) != Tok::RBrace {
                            p.bump();
                            continue;
                        }
                        return Ok(());
                    }
                },
            )?;
        }
        self.close_aggregate(Tok::RBrace)?;
        Ok(N {
            e: Expr {
                id,
                kind: ExprKind::Struct { type_name, fields },
            },
            h,
        })
    }

    /// The optional trailing `,` and the closing bracket of a list, map or message.
    fn close_aggregate(&mut self, close: Tok) -> R<()> {
        self.sync(&[Tok::Comma, close])?;
        if self.peek() == Tok::Comma {
            self.bump();
        }
        self.expect(close)?;
        Ok(())
    }

    /// `[a, ?b]` from the `[`.
    fn list(&mut self) -> R<N> {
        let open = self.bump();
        let id = self.new_id(open.start)?;
        self.sync(&with(
            EXPR_START,
            &[Tok::RBracket, Tok::Comma, Tok::Question],
        ))?;
        let mut elements = Vec::new();
        let mut optional_indices = Vec::new();
        let mut h = 0;
        if !matches!(self.peek(), Tok::RBracket | Tok::Comma) {
            self.sub_rule(
                Rule::ListInit,
                Level::Member,
                &[Tok::Comma, Tok::RBracket],
                |p| {
                    loop {
                        p.enter(Rule::OptExpr)?;
                        let q = p.tok();
                        let optional = q.kind == Tok::Question;
                        if optional {
                            p.bump();
                        }
                        let e = p.expr()?;
                        p.exit(Rule::OptExpr);
                        h = h.max(e.h);
                        elements.push(e.e);
                        if optional {
                            if p.opts.optional_syntax {
                                optional_indices.push(elements.len() - 1);
                            } else {
                                p.report(Some(q.start), "unsupported syntax '?'".to_string())?;
                            }
                        }
                        if p.peek() == Tok::Comma && p.peek_at(1) != Tok::RBracket {
                            p.bump();
                            continue;
                        }
                        return Ok(());
                    }
                },
            )?;
        }
        self.close_aggregate(Tok::RBracket)?;
        Ok(N {
            e: Expr {
                id,
                kind: ExprKind::List {
                    elements,
                    optional_indices,
                },
            },
            h,
        })
    }

    /// `{k: v, ?k: v}` from the `{`.
    fn map(&mut self) -> R<N> {
        let open = self.bump();
        let id = self.new_id(open.start)?;
        self.sync(&with(EXPR_START, &[Tok::RBrace, Tok::Comma, Tok::Question]))?;
        let mut entries = Vec::new();
        let mut h = 0;
        if !matches!(self.peek(), Tok::RBrace | Tok::Comma) {
            self.sub_rule(
                Rule::MapInit,
                Level::Member,
                &[Tok::Comma, Tok::RBrace],
                |p| {
                    loop {
                        // cel-go numbers the entry (at its colon) before the key.
                        let entry_id = p.bare_id()?;
                        p.enter(Rule::OptExpr)?;
                        let q = p.tok();
                        let optional = q.kind == Tok::Question;
                        if optional {
                            p.bump();
                            if !p.opts.optional_syntax {
                                p.report(Some(q.start), "unsupported syntax '?'".to_string())?;
                            }
                        }
                        p.follow.push(&[Tok::Colon]);
                        let key = p.expr();
                        p.follow.pop();
                        let key = key?;
                        p.exit(Rule::OptExpr);
                        let colon = p.expect(Tok::Colon)?;
                        p.offsets.insert(entry_id, colon.start);
                        let value = p.expr()?;
                        h = h.max(key.h).max(value.h);
                        if !optional || p.opts.optional_syntax {
                            entries.push(Entry {
                                id: entry_id,
                                key: key.e,
                                value: value.e,
                                optional,
                            });
                        }
                        if p.peek() == Tok::Comma && p.peek_at(1) != Tok::RBrace {
                            p.bump();
                            continue;
                        }
                        return Ok(());
                    }
                },
            )?;
        }
        self.close_aggregate(Tok::RBrace)?;
        Ok(N {
            e: Expr {
                id,
                kind: ExprKind::Map { entries },
            },
            h,
        })
    }

    /// `literal`, including a leading `-` sign of an int or double.
    fn literal(&mut self) -> R<N> {
        self.enter(Rule::Literal)?;
        let first = self.bump();
        let (negative, t) = if first.kind == Tok::Minus {
            (true, self.bump())
        } else {
            (false, first)
        };
        let text = self.text_of(t);
        let at = first.start;
        let lit = match t.kind {
            Tok::NumInt => match parse_int(text, negative) {
                Some(v) => Ok(Literal::Int(v)),
                None => Err("invalid int literal"),
            },
            Tok::NumUint => {
                let digits = text.get(..text.len().saturating_sub(1)).unwrap_or("");
                let parsed = match digits.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16),
                    None => digits.parse::<u64>(),
                };
                parsed
                    .map(Literal::Uint)
                    .map_err(|_| "invalid uint literal")
            }
            Tok::NumFloat => {
                let signed = if negative {
                    format!("-{text}")
                } else {
                    text.to_string()
                };
                match signed.parse::<f64>() {
                    Ok(v) if v.is_finite() => Ok(Literal::Double(v)),
                    _ => Err("invalid double literal"),
                }
            }
            Tok::String => match unescape(text, false) {
                Ok(bytes) => Ok(Literal::String(
                    String::from_utf8_lossy(&bytes).into_owned().into(),
                )),
                Err(message) => Err(message),
            },
            Tok::Bytes => match unescape(text.get(1..).unwrap_or(""), true) {
                Ok(bytes) => Ok(Literal::Bytes(Arc::from(bytes))),
                Err(message) => Err(message),
            },
            Tok::True => Ok(Literal::Bool(true)),
            Tok::False => Ok(Literal::Bool(false)),
            Tok::Null => Ok(Literal::Null),
            // `primary` only calls this at a literal token or a `-` before a number.
            _ => return Err(self.no_viable(first.start)),
        };
        let e = match lit {
            Ok(lit) => {
                let id = self.new_id(at)?;
                Expr {
                    id,
                    kind: ExprKind::Literal(lit),
                }
            }
            Err(message) => self.report(Some(at), message.to_string())?,
        };
        self.exit(Rule::Literal);
        Ok(N { e, h: 0 })
    }

    // ---- calls and macros ----

    /// A global call, or the expansion of the macro it names.
    pub(super) fn global_call_or_macro(
        &mut self,
        op: Id,
        function: &str,
        args: Vec<Expr>,
    ) -> R<Expr> {
        if self.opts.macros == MacroSet::None || !self.opts.is_macro(function) {
            return Ok(call(op, function, None, args));
        }
        match self.expand_macro(op, function, None, args)? {
            Ok(e) => Ok(e),
            Err((_, args)) => Ok(call(op, function, None, args)),
        }
    }

    /// A receiver call, or the expansion of the macro it names.
    fn receiver_call_or_macro(
        &mut self,
        op: Id,
        function: &str,
        target: Expr,
        args: Vec<Expr>,
    ) -> R<Expr> {
        if self.opts.macros == MacroSet::None || !self.opts.is_macro(function) {
            return Ok(call(op, function, Some(target), args));
        }
        match self.expand_macro(op, function, Some(target), args)? {
            Ok(e) => Ok(e),
            Err((target, args)) => Ok(call(op, function, target, args)),
        }
    }
}

/// A node standing for a part that failed to parse (cel-go's unset expression).
fn placeholder() -> Expr {
    Expr {
        id: 0,
        kind: ExprKind::Literal(Literal::Null),
    }
}

/// A call node.
pub(super) fn call(id: Id, function: &str, target: Option<Expr>, args: Vec<Expr>) -> Expr {
    Expr {
        id,
        kind: ExprKind::Call {
            target: target.map(Box::new),
            function: function.to_string(),
            args,
        },
    }
}

/// cel-go's balanced tree of a commutative logical operator over `terms[lo..=hi+1]`.
fn balanced(function: &str, terms: &mut [Option<Expr>], ops: &[Id], lo: usize, hi: usize) -> Expr {
    let mid = (lo + hi).div_ceil(2);
    let left = if mid == lo {
        take(terms, mid)
    } else {
        balanced(function, terms, ops, lo, mid - 1)
    };
    let right = if mid == hi {
        take(terms, mid + 1)
    } else {
        balanced(function, terms, ops, mid + 1, hi)
    };
    call(ops[mid], function, None, vec![left, right])
}

fn take(terms: &mut [Option<Expr>], i: usize) -> Expr {
    terms.get_mut(i).and_then(Option::take).unwrap_or(Expr {
        id: 0,
        kind: ExprKind::Literal(Literal::Null),
    })
}

/// Go's `strconv.ParseInt` of a decimal or `0x` literal with an optional sign.
fn parse_int(text: &str, negative: bool) -> Option<i64> {
    let magnitude = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => text.parse::<u64>().ok()?,
    };
    if negative {
        if magnitude == 1 << 63 {
            Some(i64::MIN)
        } else {
            i64::try_from(magnitude).ok().map(|v| -v)
        }
    } else {
        i64::try_from(magnitude).ok()
    }
}
