//! JMESPath text to a tree: a lexer and a top-down operator-precedence parser with the
//! binding powers of the JMESPath specification (pipe lowest, then `||`, `&&`, comparisons,
//! flatten, projections, `.`, `!`, `{`, `[`, `(`).

use serde_json::Value as Json;

/// The longest expression text read, in bytes.
pub const MAX_TEXT: usize = 4096;
/// How deeply an expression's tree may nest (`a.b.c` is three levels).
pub const MAX_DEPTH: usize = 128;

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// An arithmetic operator (JMESPath Community's JEP-16, which chainsaw's examples use:
/// ``to_string($index + `1`)``).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `//`: floor division.
    FloorDiv,
}

/// An expression's tree.
#[derive(Clone, Debug, PartialEq)]
pub enum Ast {
    /// `@`: the current value.
    Current,
    /// `$`: the value the whole expression started from.
    Root,
    /// `$name`: a binding.
    Variable(String),
    /// `name` or `"name"`: an object's field.
    Field(String),
    /// `left.right`, `left[0]`: the right side evaluated on the left's result.
    Sub(Box<Ast>, Box<Ast>),
    /// `[n]`, negative from the end.
    Index(i64),
    /// `[start:stop:step]`.
    Slice(Option<i64>, Option<i64>, Option<i64>),
    /// A list projection: the right side over each item of the left's list.
    Project(Box<Ast>, Box<Ast>),
    /// `left.*`: the right side over each value of the left's object.
    ValueProject(Box<Ast>, Box<Ast>),
    /// `left[?condition]`, then the right side over each item kept.
    Filter(Box<Ast>, Box<Ast>, Box<Ast>),
    /// `left[]`: one level of lists merged.
    Flatten(Box<Ast>),
    /// `left OP right`.
    Compare(Cmp, Box<Ast>, Box<Ast>),
    /// `left + right`, …
    Arith(Arith, Box<Ast>, Box<Ast>),
    /// `-expr`.
    Negate(Box<Ast>),
    /// `left || right`.
    Or(Box<Ast>, Box<Ast>),
    /// `left && right`.
    And(Box<Ast>, Box<Ast>),
    /// `!expr`.
    Not(Box<Ast>),
    /// `left | right`: the right side on the left's result, ending a projection.
    Pipe(Box<Ast>, Box<Ast>),
    /// `` `json` `` or `'raw text'`.
    Literal(Json),
    /// `[a, b]`.
    List(Vec<Ast>),
    /// `{k: a, …}`.
    Hash(Vec<(String, Ast)>),
    /// `name(args…)`.
    Call(String, Vec<Ast>),
    /// `&expr`: an expression handed to a function (`sort_by`, `map`, …).
    Ref(Box<Ast>),
}

impl Ast {
    /// How deeply the tree nests (iteratively, for a tree of any depth).
    fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(self, 1usize)];
        while let Some((node, depth)) = stack.pop() {
            deepest = deepest.max(depth);
            let d = depth + 1;
            match node {
                Ast::Sub(a, b)
                | Ast::Project(a, b)
                | Ast::ValueProject(a, b)
                | Ast::Compare(_, a, b)
                | Ast::Arith(_, a, b)
                | Ast::Or(a, b)
                | Ast::And(a, b)
                | Ast::Pipe(a, b) => stack.extend([(&**a, d), (&**b, d)]),
                Ast::Filter(a, b, c) => stack.extend([(&**a, d), (&**b, d), (&**c, d)]),
                Ast::Flatten(a) | Ast::Not(a) | Ast::Ref(a) | Ast::Negate(a) => stack.push((a, d)),
                Ast::List(items) | Ast::Call(_, items) => {
                    stack.extend(items.iter().map(|i| (i, d)))
                }
                Ast::Hash(fields) => stack.extend(fields.iter().map(|(_, i)| (i, d))),
                _ => {}
            }
        }
        deepest
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Dot,
    Star,
    Flatten,
    Filter,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Comma,
    Colon,
    Pipe,
    Or,
    And,
    Amp,
    Not,
    Compare(Cmp),
    Plus,
    Minus,
    Slash,
    Percent,
    SlashSlash,
    At,
    Root,
    Var(String),
    Ident(String),
    Quoted(String),
    Literal(Json),
    Number(i64),
    Eof,
}

impl Tok {
    /// The left binding power: how strongly the token binds what precedes it.
    fn power(&self) -> u8 {
        match self {
            Tok::Pipe => 1,
            Tok::Or => 2,
            Tok::And => 3,
            Tok::Compare(_) => 5,
            Tok::Plus | Tok::Minus => 6,
            Tok::Slash | Tok::Percent | Tok::SlashSlash => 7,
            Tok::Flatten => 9,
            Tok::Star => 20,
            Tok::Filter => 21,
            Tok::Dot => 40,
            Tok::Not => 45,
            Tok::LBrace => 50,
            Tok::LBracket => 55,
            Tok::LParen => 60,
            _ => 0,
        }
    }

    fn describe(&self) -> String {
        match self {
            Tok::Ident(name) => format!("identifier `{name}`"),
            Tok::Quoted(name) => format!("quoted identifier {name:?}"),
            Tok::Var(name) => format!("`${name}`"),
            Tok::Literal(value) => format!("literal `{value}`"),
            Tok::Number(n) => format!("number {n}"),
            Tok::Eof => "the end of the expression".into(),
            other => {
                let text = match other {
                    Tok::Dot => ".",
                    Tok::Star => "*",
                    Tok::Flatten => "[]",
                    Tok::Filter => "[?",
                    Tok::LBracket => "[",
                    Tok::RBracket => "]",
                    Tok::LBrace => "{",
                    Tok::RBrace => "}",
                    Tok::LParen => "(",
                    Tok::RParen => ")",
                    Tok::Comma => ",",
                    Tok::Colon => ":",
                    Tok::Pipe => "|",
                    Tok::Or => "||",
                    Tok::And => "&&",
                    Tok::Amp => "&",
                    Tok::Not => "!",
                    Tok::At => "@",
                    Tok::Plus => "+",
                    Tok::Minus => "-",
                    Tok::Slash => "/",
                    Tok::Percent => "%",
                    Tok::SlashSlash => "//",
                    Tok::Root => "$",
                    Tok::Compare(Cmp::Eq) => "==",
                    Tok::Compare(Cmp::Ne) => "!=",
                    Tok::Compare(Cmp::Lt) => "<",
                    Tok::Compare(Cmp::Le) => "<=",
                    Tok::Compare(Cmp::Gt) => ">",
                    Tok::Compare(Cmp::Ge) => ">=",
                    _ => "?",
                };
                format!("`{text}`")
            }
        }
    }
}

/// A syntax error: what, and at which character (0-based) of the expression.
fn error(at: usize, what: impl std::fmt::Display) -> String {
    format!("syntax error at column {}: {what}", at + 1)
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The tokens of a text, each with its character offset.
fn lex(text: &str) -> Result<Vec<(Tok, usize)>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    // The text up to a closing delimiter, a backslash escaping the next character.
    let until = |start: usize, close: char| -> Option<(String, usize)> {
        let mut j = start;
        let mut raw = String::new();
        while j < chars.len() {
            match chars[j] {
                '\\' if j + 1 < chars.len() => {
                    raw.push('\\');
                    raw.push(chars[j + 1]);
                    j += 2;
                }
                c if c == close => return Some((raw, j + 1)),
                c => {
                    raw.push(c);
                    j += 1;
                }
            }
        }
        None
    };
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        let next = chars.get(i + 1).copied();
        let (tok, len) = match c {
            ' ' | '\t' | '\n' | '\r' => {
                i += 1;
                continue;
            }
            '.' => (Tok::Dot, 1),
            '*' => (Tok::Star, 1),
            ']' => (Tok::RBracket, 1),
            '{' => (Tok::LBrace, 1),
            '}' => (Tok::RBrace, 1),
            '(' => (Tok::LParen, 1),
            ')' => (Tok::RParen, 1),
            ',' => (Tok::Comma, 1),
            ':' => (Tok::Colon, 1),
            '@' => (Tok::At, 1),
            '[' => match next {
                Some(']') => (Tok::Flatten, 2),
                Some('?') => (Tok::Filter, 2),
                _ => (Tok::LBracket, 1),
            },
            '|' if next == Some('|') => (Tok::Or, 2),
            '|' => (Tok::Pipe, 1),
            '&' if next == Some('&') => (Tok::And, 2),
            '&' => (Tok::Amp, 1),
            '!' if next == Some('=') => (Tok::Compare(Cmp::Ne), 2),
            '!' => (Tok::Not, 1),
            '=' if next == Some('=') => (Tok::Compare(Cmp::Eq), 2),
            '<' if next == Some('=') => (Tok::Compare(Cmp::Le), 2),
            '<' => (Tok::Compare(Cmp::Lt), 1),
            '>' if next == Some('=') => (Tok::Compare(Cmp::Ge), 2),
            '>' => (Tok::Compare(Cmp::Gt), 1),
            '$' => {
                let mut j = i + 1;
                if j < chars.len() && is_ident_start(chars[j]) {
                    while j < chars.len() && is_ident(chars[j]) {
                        j += 1;
                    }
                    let name: String = chars[i + 1..j].iter().collect();
                    (Tok::Var(name), j - i)
                } else {
                    (Tok::Root, 1)
                }
            }
            '\'' => {
                let (raw, end) = until(i + 1, '\'')
                    .ok_or_else(|| error(start, "unclosed raw string literal"))?;
                (Tok::Literal(Json::String(raw.replace("\\'", "'"))), end - i)
            }
            '`' => {
                let (raw, end) =
                    until(i + 1, '`').ok_or_else(|| error(start, "unclosed JSON literal"))?;
                let json = raw.replace("\\`", "`");
                let value: Json = serde_json::from_str(json.trim())
                    .map_err(|e| error(start, format!("invalid JSON literal `{json}`: {e}")))?;
                (Tok::Literal(value), end - i)
            }
            '"' => {
                let (raw, end) =
                    until(i + 1, '"').ok_or_else(|| error(start, "unclosed quoted identifier"))?;
                let name: String = serde_json::from_str(&format!("\"{raw}\""))
                    .map_err(|e| error(start, format!("invalid quoted identifier: {e}")))?;
                (Tok::Quoted(name), end - i)
            }
            '+' => (Tok::Plus, 1),
            '%' => (Tok::Percent, 1),
            '/' if next == Some('/') => (Tok::SlashSlash, 2),
            '/' => (Tok::Slash, 1),
            // A signed number only inside brackets (`[-1]`, `[::-1]`); elsewhere a minus.
            '-' if !(next.is_some_and(|c| c.is_ascii_digit())
                && matches!(out.last(), Some((Tok::LBracket | Tok::Colon, _)))) =>
            {
                (Tok::Minus, 1)
            }
            '-' | '0'..='9' => {
                let mut j = if c == '-' { i + 1 } else { i };
                let digits = j;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    j += 1;
                }
                if j == digits {
                    return Err(error(start, "`-` must be followed by a number"));
                }
                let text: String = chars[i..j].iter().collect();
                let n = text
                    .parse::<i64>()
                    .map_err(|_| error(start, format!("number {text} is too large")))?;
                (Tok::Number(n), j - i)
            }
            c if is_ident_start(c) => {
                let mut j = i;
                while j < chars.len() && is_ident(chars[j]) {
                    j += 1;
                }
                (Tok::Ident(chars[i..j].iter().collect()), j - i)
            }
            c => return Err(error(start, format!("unexpected character {c:?}"))),
        };
        out.push((tok, start));
        i += len;
    }
    out.push((Tok::Eof, chars.len()));
    Ok(out)
}

struct Parser {
    tokens: Vec<(Tok, usize)>,
    pos: usize,
    depth: usize,
}

/// Parses an expression.
pub fn parse(text: &str) -> Result<Ast, String> {
    if text.len() > MAX_TEXT {
        return Err(format!("the expression is longer than {MAX_TEXT} bytes"));
    }
    let mut parser = Parser {
        tokens: lex(text)?,
        pos: 0,
        depth: 0,
    };
    let ast = parser.expression(0)?;
    if parser.peek() != &Tok::Eof {
        let (tok, at) = parser.tokens[parser.pos].clone();
        return Err(error(at, format!("unexpected {}", tok.describe())));
    }
    if ast.depth() > MAX_DEPTH {
        return Err(format!("the expression nests more than {MAX_DEPTH} levels"));
    }
    Ok(ast)
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.tokens[self.pos].0
    }

    fn peek2(&self) -> &Tok {
        &self.tokens[(self.pos + 1).min(self.tokens.len() - 1)].0
    }

    fn at(&self) -> usize {
        self.tokens[self.pos].1
    }

    fn advance(&mut self) -> (Tok, usize) {
        let token = self.tokens[self.pos].clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        token
    }

    fn expect(&mut self, wanted: Tok) -> Result<(), String> {
        if self.peek() == &wanted {
            self.advance();
            return Ok(());
        }
        Err(error(
            self.at(),
            format!(
                "expected {}, found {}",
                wanted.describe(),
                self.peek().describe()
            ),
        ))
    }

    fn expression(&mut self, power: u8) -> Result<Ast, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("the expression nests more than {MAX_DEPTH} levels"));
        }
        let (tok, at) = self.advance();
        let mut left = self.prefix(tok, at)?;
        while power < self.peek().power() {
            let (tok, at) = self.advance();
            left = self.infix(tok, at, left)?;
        }
        self.depth -= 1;
        Ok(left)
    }

    fn prefix(&mut self, tok: Tok, at: usize) -> Result<Ast, String> {
        Ok(match tok {
            Tok::Literal(value) => Ast::Literal(value),
            Tok::Ident(name) => Ast::Field(name),
            Tok::Quoted(name) => {
                if self.peek() == &Tok::LParen {
                    return Err(error(at, "a quoted identifier cannot name a function"));
                }
                Ast::Field(name)
            }
            Tok::Star => {
                let right = self.projection_rhs(Tok::Star.power())?;
                Ast::ValueProject(Box::new(Ast::Current), Box::new(right))
            }
            Tok::Filter => self.filter(Ast::Current)?,
            Tok::LBrace => self.hash()?,
            Tok::LParen => {
                let inner = self.expression(0)?;
                self.expect(Tok::RParen)?;
                inner
            }
            Tok::Flatten => {
                let right = self.projection_rhs(Tok::Flatten.power())?;
                Ast::Project(
                    Box::new(Ast::Flatten(Box::new(Ast::Current))),
                    Box::new(right),
                )
            }
            Tok::Not => Ast::Not(Box::new(self.expression(Tok::Not.power())?)),
            Tok::LBracket => match (self.peek(), self.peek2()) {
                (Tok::Number(_) | Tok::Colon, _) => {
                    let index = self.index()?;
                    self.project_if_slice(Ast::Current, index)?
                }
                (Tok::Star, Tok::RBracket) => {
                    self.advance();
                    self.advance();
                    let right = self.projection_rhs(Tok::Star.power())?;
                    Ast::Project(Box::new(Ast::Current), Box::new(right))
                }
                _ => self.list()?,
            },
            Tok::At => Ast::Current,
            // Unary minus binds tighter than every binary arithmetic operator.
            Tok::Minus => Ast::Negate(Box::new(self.expression(8)?)),
            Tok::Plus => self.expression(8)?,
            Tok::Root => Ast::Root,
            Tok::Var(name) => Ast::Variable(name),
            Tok::Amp => Ast::Ref(Box::new(self.expression(0)?)),
            other => return Err(error(at, format!("unexpected {}", other.describe()))),
        })
    }

    fn infix(&mut self, tok: Tok, at: usize, left: Ast) -> Result<Ast, String> {
        let boxed = Box::new;
        Ok(match tok {
            Tok::Dot => {
                if self.peek() == &Tok::Star {
                    self.advance();
                    let right = self.projection_rhs(Tok::Dot.power())?;
                    Ast::ValueProject(boxed(left), boxed(right))
                } else {
                    let right = self.dot_rhs(Tok::Dot.power())?;
                    Ast::Sub(boxed(left), boxed(right))
                }
            }
            Tok::Pipe => Ast::Pipe(boxed(left), boxed(self.expression(Tok::Pipe.power())?)),
            Tok::Plus | Tok::Minus | Tok::Star | Tok::Slash | Tok::Percent | Tok::SlashSlash => {
                let (op, power) = match tok {
                    Tok::Plus => (Arith::Add, 6),
                    Tok::Minus => (Arith::Sub, 6),
                    Tok::Star => (Arith::Mul, 7),
                    Tok::Slash => (Arith::Div, 7),
                    Tok::Percent => (Arith::Rem, 7),
                    _ => (Arith::FloorDiv, 7),
                };
                Ast::Arith(op, boxed(left), boxed(self.expression(power)?))
            }
            Tok::Or => Ast::Or(boxed(left), boxed(self.expression(Tok::Or.power())?)),
            Tok::And => Ast::And(boxed(left), boxed(self.expression(Tok::And.power())?)),
            Tok::Compare(op) => {
                let right = self.expression(Tok::Compare(op).power())?;
                Ast::Compare(op, boxed(left), boxed(right))
            }
            Tok::LParen => {
                let Ast::Field(name) = left else {
                    return Err(error(at, "only a name can be called as a function"));
                };
                let mut args = Vec::new();
                while self.peek() != &Tok::RParen {
                    args.push(self.expression(0)?);
                    if self.peek() == &Tok::Comma {
                        self.advance();
                        if self.peek() == &Tok::RParen {
                            return Err(error(self.at(), "expected an argument after `,`"));
                        }
                    } else if self.peek() != &Tok::RParen {
                        return Err(error(
                            self.at(),
                            format!("expected `,` or `)`, found {}", self.peek().describe()),
                        ));
                    }
                }
                self.advance();
                Ast::Call(name, args)
            }
            Tok::Filter => self.filter(left)?,
            Tok::Flatten => {
                let right = self.projection_rhs(Tok::Flatten.power())?;
                Ast::Project(boxed(Ast::Flatten(boxed(left))), boxed(right))
            }
            Tok::LBracket => match self.peek() {
                Tok::Number(_) | Tok::Colon => {
                    let index = self.index()?;
                    self.project_if_slice(left, index)?
                }
                _ => {
                    self.expect(Tok::Star)?;
                    self.expect(Tok::RBracket)?;
                    let right = self.projection_rhs(Tok::Star.power())?;
                    Ast::Project(boxed(left), boxed(right))
                }
            },
            other => return Err(error(at, format!("unexpected {}", other.describe()))),
        })
    }

    /// After `[?` (the left side given): the condition, `]`, and what is projected.
    fn filter(&mut self, left: Ast) -> Result<Ast, String> {
        let condition = self.expression(0)?;
        self.expect(Tok::RBracket)?;
        let right = if self.peek() == &Tok::Flatten {
            Ast::Current
        } else {
            self.projection_rhs(Tok::Filter.power())?
        };
        Ok(Ast::Filter(
            Box::new(left),
            Box::new(right),
            Box::new(condition),
        ))
    }

    /// After `[` at a number or `:`: an index or a slice, through `]`.
    fn index(&mut self) -> Result<Ast, String> {
        if let (Tok::Number(n), Tok::RBracket) = (self.peek().clone(), self.peek2()) {
            self.advance();
            self.advance();
            return Ok(Ast::Index(n));
        }
        let mut parts = [None; 3];
        let mut part = 0;
        loop {
            match self.peek().clone() {
                Tok::RBracket => {
                    self.advance();
                    break;
                }
                Tok::Colon if part < 2 => {
                    part += 1;
                    self.advance();
                }
                Tok::Number(n) if parts[part].is_none() => {
                    parts[part] = Some(n);
                    self.advance();
                }
                other => {
                    return Err(error(
                        self.at(),
                        format!("unexpected {} in a slice", other.describe()),
                    ));
                }
            }
        }
        Ok(Ast::Slice(parts[0], parts[1], parts[2]))
    }

    fn project_if_slice(&mut self, left: Ast, index: Ast) -> Result<Ast, String> {
        let is_slice = matches!(index, Ast::Slice(..));
        let indexed = match left {
            Ast::Current => index,
            left => Ast::Sub(Box::new(left), Box::new(index)),
        };
        if !is_slice {
            return Ok(indexed);
        }
        let right = self.projection_rhs(Tok::Star.power())?;
        Ok(Ast::Project(Box::new(indexed), Box::new(right)))
    }

    /// What follows a `.`: a name, a call, `[multi, select]` or `{multi: select}`.
    fn dot_rhs(&mut self, power: u8) -> Result<Ast, String> {
        match self.peek() {
            Tok::Ident(_) | Tok::Quoted(_) | Tok::Star => self.expression(power),
            Tok::LBracket => {
                self.advance();
                self.list()
            }
            Tok::LBrace => {
                self.advance();
                self.hash()
            }
            other => Err(error(
                self.at(),
                format!(
                    "expected a name, `[` or `{{` after `.`, found {}",
                    other.describe()
                ),
            )),
        }
    }

    /// What a projection applies to each item: nothing (the item itself) when the next
    /// token binds loosely, else an index, filter or `.` chain.
    fn projection_rhs(&mut self, power: u8) -> Result<Ast, String> {
        match self.peek() {
            tok if tok.power() < 10 => Ok(Ast::Current),
            Tok::LBracket | Tok::Filter => self.expression(power),
            Tok::Dot => {
                self.advance();
                self.dot_rhs(power)
            }
            other => Err(error(
                self.at(),
                format!("unexpected {} after a projection", other.describe()),
            )),
        }
    }

    /// After `[`: `a, b, …]`.
    fn list(&mut self) -> Result<Ast, String> {
        let mut items = Vec::new();
        loop {
            items.push(self.expression(0)?);
            match self.advance() {
                (Tok::Comma, _) => continue,
                (Tok::RBracket, _) => break,
                (other, at) => {
                    return Err(error(
                        at,
                        format!("expected `,` or `]`, found {}", other.describe()),
                    ));
                }
            }
        }
        Ok(Ast::List(items))
    }

    /// After `{`: `key: a, …}`.
    fn hash(&mut self) -> Result<Ast, String> {
        let mut fields = Vec::new();
        loop {
            let key = match self.advance() {
                (Tok::Ident(name) | Tok::Quoted(name), _) => name,
                (other, at) => {
                    return Err(error(
                        at,
                        format!("expected a key, found {}", other.describe()),
                    ));
                }
            };
            self.expect(Tok::Colon)?;
            fields.push((key, self.expression(0)?));
            match self.advance() {
                (Tok::Comma, _) => continue,
                (Tok::RBrace, _) => break,
                (other, at) => {
                    return Err(error(
                        at,
                        format!("expected `,` or `}}`, found {}", other.describe()),
                    ));
                }
            }
        }
        Ok(Ast::Hash(fields))
    }
}
