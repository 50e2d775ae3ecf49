//! Structure-aware generation for the evaluator's fuzz targets.
//!
//! A fuzz input is either text (first byte even: the rest, as UTF-8) or a description of an
//! expression or program (first byte odd: the rest, read by `arbitrary`). The descriptions can
//! ask for long operator chains and deep nesting by a count, so that inputs like "20,000
//! operands" or "11,000 splats" are reached from a few bytes; the text they print is bounded by
//! [`MAX_TEXT`] so that one input never costs more than a fuzzing second.

pub mod lsp;
pub mod targets;

use arbitrary::{Arbitrary, Result, Unstructured};
use std::fmt::Write;

/// The longest text a description prints (bytes).
pub const MAX_TEXT: usize = 400_000;

/// The names of the built-in functions, in a fixed order.
pub fn function_names() -> Vec<String> {
    let table = fnhcl::eval::functions::builtins();
    let mut names: Vec<String> = table.names().map(str::to_string).collect();
    names.sort();
    names
}

/// A number literal.
#[derive(Arbitrary, Debug)]
pub enum Number {
    Small(u8),
    Int(i64),
    Float(f64),
    /// `MANTISSAeEXPONENT`: huge and tiny exponents.
    Exp(u16, i32),
}

/// A name: a variable, a local, an attribute or an object key.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Name {
    A,
    B,
    C,
    Each,
    Myself,
    Req,
    Key,
    Value,
    Spec,
    Items,
    Label,
    Count,
    Metadata,
    Composite,
    Resource,
    Connection,
    Weird,
}

impl Name {
    fn text(self) -> &'static str {
        match self {
            Name::A => "a",
            Name::B => "b",
            Name::C => "c",
            Name::Each => "each",
            Name::Myself => "self",
            Name::Req => "req",
            Name::Key => "k",
            Name::Value => "v",
            Name::Spec => "spec",
            Name::Items => "items",
            Name::Label => "name",
            Name::Count => "count",
            Name::Metadata => "metadata",
            Name::Composite => "composite",
            Name::Resource => "resource",
            Name::Connection => "connection",
            Name::Weird => "x-y_z",
        }
    }
}

/// A short string's content.
#[derive(Arbitrary, Debug)]
pub enum Text {
    Empty,
    Word(Name),
    Raw(String),
    /// Characters that need escapes or that templates treat specially.
    Tricky(u8),
    /// A long run of one character.
    Run(char, u16),
}

impl Text {
    fn write(&self, out: &mut String) {
        match self {
            Text::Empty => {}
            Text::Word(name) => out.push_str(name.text()),
            Text::Raw(s) => {
                for c in s.chars().take(64) {
                    match c {
                        '"' => out.push_str("\\\""),
                        '\\' => out.push_str("\\\\"),
                        '\n' => out.push_str("\\n"),
                        c if c.is_control() => {}
                        c => out.push(c),
                    }
                }
            }
            Text::Tricky(n) => out.push_str(
                [
                    "$${x}",
                    "%%{if}",
                    "\\u00e9",
                    "\\U0001F600",
                    "\\t\\r",
                    "é\u{301}",
                    "2006-01-02T15:04:05Z",
                    "10.0.0.0/8",
                    "^(a+)+$",
                    "%v %#v %5.2f %-10s %[2]d",
                    "{\\\"a\\\":[1,{\\\"b\\\":null}]}",
                    "a: &x [1, *x]",
                    "1e999999999",
                    "0x1p-1074",
                ][*n as usize % 14],
            ),
            Text::Run(c, n) => {
                let c = if *c == '"' || *c == '\\' || c.is_control() {
                    'x'
                } else {
                    *c
                };
                for _ in 0..(*n % 4096) {
                    out.push(c);
                }
            }
        }
    }
}

/// A binary operator.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinOp {
    fn text(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
        }
    }
}

/// How [`Expr::Nest`] wraps its inner expression, once per level.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Wrap {
    Tuple,
    Paren,
    Object,
    Neg,
    Not,
    Splat,
    FullSplat,
    AttrSplat,
    Index,
    Attr,
    Call(u8),
    TemplateIf,
    TemplateFor,
    Interpolation,
    Conditional,
    ForTuple,
    Try,
    Jsonencode,
}

/// The part of a template.
#[derive(Arbitrary, Debug)]
pub enum Part {
    Text(Text),
    Interp(Expr),
    If(Expr, Vec<Part>, Vec<Part>),
    For(Name, Expr, Vec<Part>),
}

/// An expression.
#[derive(Arbitrary, Debug)]
pub enum Expr {
    Number(Number),
    String(Text),
    Bool(bool),
    Null,
    Var(Name),
    Tuple(Vec<Expr>),
    Object(Vec<(Name, Expr)>),
    Template(Vec<Part>),
    Heredoc(bool, Vec<Part>),
    Unary(bool, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    Call(u8, Vec<Expr>, bool),
    Index(Box<Expr>, Box<Expr>),
    Attr(Box<Expr>, Name),
    Splat(Box<Expr>, bool, Option<Name>),
    For {
        object: bool,
        key: Option<Name>,
        value: Name,
        collection: Box<Expr>,
        result: Box<Expr>,
        key_result: Box<Expr>,
        condition: Option<Box<Expr>>,
        group: bool,
    },
    /// `operand OP operand OP …`, `count` operands.
    Chain(BinOp, u16, Box<Expr>),
    /// `inner` wrapped `count` times.
    Nest(Wrap, u16, Box<Expr>),
    /// `range(n)`-style large collections.
    Big(u8, u32),
}

/// Prints descriptions as HCL text, with a budget.
pub struct Printer<'n> {
    pub out: String,
    names: &'n [String],
}

impl<'n> Printer<'n> {
    pub fn new(names: &'n [String]) -> Self {
        Printer {
            out: String::new(),
            names,
        }
    }

    fn full(&self) -> bool {
        self.out.len() > MAX_TEXT
    }

    fn function(&self, n: u8) -> &str {
        &self.names[n as usize % self.names.len()]
    }

    pub fn number(&mut self, n: &Number) {
        match n {
            Number::Small(v) => write!(self.out, "{v}").unwrap(),
            Number::Int(v) => write!(self.out, "{}", v.unsigned_abs()).unwrap(),
            Number::Float(v) if v.is_finite() => write!(self.out, "{}", v.abs()).unwrap(),
            Number::Float(_) => self.out.push_str("1.5"),
            Number::Exp(m, e) => write!(self.out, "{m}e{e}").unwrap(),
        }
    }

    pub fn expr(&mut self, e: &Expr) {
        if self.full() {
            self.out.push('0');
            return;
        }
        match e {
            Expr::Number(n) => self.number(n),
            Expr::String(t) => {
                self.out.push('"');
                t.write(&mut self.out);
                self.out.push('"');
            }
            Expr::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Expr::Null => self.out.push_str("null"),
            Expr::Var(n) => self.out.push_str(n.text()),
            Expr::Tuple(items) => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.expr(item);
                }
                self.out.push(']');
            }
            Expr::Object(items) => {
                self.out.push_str("{\n");
                for (k, v) in items {
                    self.out.push_str(k.text());
                    self.out.push_str(" = ");
                    self.expr(v);
                    self.out.push('\n');
                }
                self.out.push('}');
            }
            Expr::Template(parts) => {
                self.out.push('"');
                self.parts(parts, false);
                self.out.push('"');
            }
            Expr::Heredoc(indent, parts) => {
                self.out
                    .push_str(if *indent { "<<-EOT\n" } else { "<<EOT\n" });
                self.parts(parts, true);
                self.out.push_str("\nEOT\n");
            }
            Expr::Unary(not, inner) => {
                self.out.push_str(if *not { "!" } else { "-" });
                self.expr(inner);
            }
            Expr::Binary(op, l, r) => {
                self.out.push('(');
                self.expr(l);
                write!(self.out, " {} ", op.text()).unwrap();
                self.expr(r);
                self.out.push(')');
            }
            Expr::Conditional(c, t, f) => {
                self.out.push('(');
                self.expr(c);
                self.out.push_str(" ? ");
                self.expr(t);
                self.out.push_str(" : ");
                self.expr(f);
                self.out.push(')');
            }
            Expr::Call(n, args, expand) => {
                let name = self.function(*n).to_string();
                self.out.push_str(&name);
                self.out.push('(');
                for (i, arg) in args.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.expr(arg);
                }
                if *expand && !args.is_empty() {
                    self.out.push_str("...");
                }
                self.out.push(')');
            }
            Expr::Index(c, k) => {
                self.expr(c);
                self.out.push('[');
                self.expr(k);
                self.out.push(']');
            }
            Expr::Attr(c, n) => {
                self.expr(c);
                self.out.push('.');
                self.out.push_str(n.text());
            }
            Expr::Splat(c, full, attr) => {
                self.expr(c);
                self.out.push_str(if *full { "[*]" } else { ".*" });
                if let Some(a) = attr {
                    self.out.push('.');
                    self.out.push_str(a.text());
                }
            }
            Expr::For {
                object,
                key,
                value,
                collection,
                result,
                key_result,
                condition,
                group,
            } => {
                self.out.push_str(if *object { "{for " } else { "[for " });
                if let Some(k) = key {
                    self.out.push_str(k.text());
                    self.out.push_str(", ");
                }
                self.out.push_str(value.text());
                self.out.push_str(" in ");
                self.expr(collection);
                self.out.push_str(" : ");
                if *object {
                    self.expr(key_result);
                    self.out.push_str(" => ");
                }
                self.expr(result);
                if *object && *group {
                    self.out.push_str("...");
                }
                if let Some(c) = condition {
                    self.out.push_str(" if ");
                    self.expr(c);
                }
                self.out.push(if *object { '}' } else { ']' });
            }
            Expr::Chain(op, count, operand) => {
                let start = self.out.len();
                self.expr(operand);
                let one = self.out[start..].to_string();
                for _ in 1..*count {
                    if self.full() {
                        break;
                    }
                    write!(self.out, " {} ", op.text()).unwrap();
                    self.out.push_str(&one);
                }
            }
            Expr::Nest(wrap, count, inner) => self.nest(*wrap, *count as usize, inner),
            Expr::Big(kind, n) => {
                let n = n % 2_000_000;
                match kind % 6 {
                    0 => write!(self.out, "range({n})").unwrap(),
                    1 => write!(self.out, "[for i in range({n}) : tostring(i)]").unwrap(),
                    2 => write!(self.out, "{{for i in range({n}) : tostring(i) => i}}").unwrap(),
                    3 => write!(self.out, "join(\",\", [for i in range({n}) : \"x\"])").unwrap(),
                    4 => write!(self.out, "format(\"%{n}d\", 1)").unwrap(),
                    _ => write!(self.out, "setproduct(range({n}), range({n}))").unwrap(),
                }
            }
        }
    }

    fn nest(&mut self, wrap: Wrap, count: usize, inner: &Expr) {
        let mut closers = String::new();
        for _ in 0..count {
            if self.full() {
                break;
            }
            match wrap {
                Wrap::Tuple => {
                    self.out.push('[');
                    closers.push(']');
                }
                Wrap::Paren => {
                    self.out.push('(');
                    closers.push(')');
                }
                Wrap::Object => {
                    self.out.push_str("{a = ");
                    closers.push('}');
                }
                Wrap::Neg => self.out.push('-'),
                Wrap::Not => self.out.push('!'),
                Wrap::Call(n) => {
                    let name = self.function(n).to_string();
                    self.out.push_str(&name);
                    self.out.push('(');
                    closers.push(')');
                }
                Wrap::TemplateIf => {
                    self.out.push_str("\"%{if true}");
                    closers.insert_str(0, "%{endif}\"");
                }
                Wrap::TemplateFor => {
                    self.out.push_str("\"%{for x in [1]}");
                    closers.insert_str(0, "%{endfor}\"");
                }
                Wrap::Interpolation => {
                    self.out.push_str("\"${");
                    closers.insert_str(0, "}\"");
                }
                Wrap::Conditional => self.out.push_str("true ? "),
                Wrap::ForTuple => self.out.push_str("[for x in [1] : "),
                Wrap::Try => {
                    self.out.push_str("try(");
                    closers.push(')');
                }
                Wrap::Jsonencode => {
                    self.out.push_str("jsonencode(");
                    closers.push(')');
                }
                Wrap::Splat | Wrap::FullSplat | Wrap::AttrSplat | Wrap::Index | Wrap::Attr => {
                    break;
                }
            }
        }
        // Closers were pushed innermost-last for brackets; write them in reverse.
        self.expr(inner);
        match wrap {
            Wrap::Splat | Wrap::FullSplat | Wrap::AttrSplat | Wrap::Index | Wrap::Attr => {
                let suffix = match wrap {
                    Wrap::Splat => "[*]",
                    Wrap::FullSplat => "[*].a",
                    Wrap::AttrSplat => ".*",
                    Wrap::Index => "[0]",
                    _ => ".a",
                };
                for _ in 0..count {
                    if self.full() {
                        break;
                    }
                    self.out.push_str(suffix);
                }
            }
            Wrap::ForTuple => {
                for _ in 0..count {
                    self.out.push(']');
                }
            }
            Wrap::Conditional => {
                for _ in 0..count {
                    self.out.push_str(" : 0");
                }
            }
            Wrap::TemplateIf | Wrap::TemplateFor | Wrap::Interpolation => {
                self.out.push_str(&closers)
            }
            _ => self.out.extend(closers.chars().rev()),
        }
    }

    fn parts(&mut self, parts: &[Part], heredoc: bool) {
        for part in parts {
            if self.full() {
                return;
            }
            match part {
                Part::Text(t) => {
                    let start = self.out.len();
                    t.write(&mut self.out);
                    if heredoc {
                        // A line holding only `EOT` would end the heredoc early.
                        let written = self.out[start..].replace("EOT", "E0T");
                        self.out.truncate(start);
                        self.out.push_str(&written);
                    }
                }
                Part::Interp(e) => {
                    self.out.push_str("${");
                    self.expr(e);
                    self.out.push('}');
                }
                Part::If(c, t, f) => {
                    self.out.push_str("%{if ");
                    self.expr(c);
                    self.out.push('}');
                    self.parts(t, heredoc);
                    if !f.is_empty() {
                        self.out.push_str("%{else}");
                        self.parts(f, heredoc);
                    }
                    self.out.push_str("%{endif}");
                }
                Part::For(n, c, body) => {
                    self.out.push_str("%{for ");
                    self.out.push_str(n.text());
                    self.out.push_str(" in ");
                    self.expr(c);
                    self.out.push('}');
                    self.parts(body, heredoc);
                    self.out.push_str("%{endfor}");
                }
            }
        }
    }
}

/// A block of a function-hcl program.
#[derive(Arbitrary, Debug)]
pub enum Block {
    Locals(Vec<(Name, Expr)>),
    Resource {
        name: Name,
        body: Expr,
        condition: Option<Expr>,
        locals: Vec<(Name, Expr)>,
        ready: Option<Expr>,
    },
    Resources {
        name: Name,
        for_each: Expr,
        body: Expr,
        name_expr: Option<Expr>,
    },
    Group(Vec<Block>),
    Status(Expr),
    Context(Expr, Expr),
    Function {
        name: Name,
        args: Vec<Name>,
        body: Expr,
    },
    Invoke(Name, Vec<(Name, Expr)>),
    Requirement {
        name: Name,
        api_version: Expr,
        kind: Expr,
        match_labels: Option<Expr>,
    },
    /// `count` copies of one resource block with numbered names.
    Many(u16, Expr),
    /// A local chain `a_i = [a_(i-1)]`, `count` long.
    LocalChain(u16),
}

/// A whole program.
#[derive(Arbitrary, Debug)]
pub struct Program {
    pub blocks: Vec<Block>,
}

impl Printer<'_> {
    fn attrs(&mut self, attrs: &[(Name, Expr)]) {
        for (name, value) in attrs {
            self.out.push_str(name.text());
            self.out.push_str(" = ");
            self.expr(value);
            self.out.push('\n');
        }
    }

    pub fn block(&mut self, block: &Block) {
        if self.full() {
            return;
        }
        match block {
            Block::Locals(attrs) => {
                self.out.push_str("locals {\n");
                self.attrs(attrs);
                self.out.push_str("}\n");
            }
            Block::Resource {
                name,
                body,
                condition,
                locals,
                ready,
            } => {
                writeln!(self.out, "resource {} {{", name.text()).unwrap();
                if !locals.is_empty() {
                    self.out.push_str("locals {\n");
                    self.attrs(locals);
                    self.out.push_str("}\n");
                }
                if let Some(c) = condition {
                    self.out.push_str("condition = ");
                    self.expr(c);
                    self.out.push('\n');
                }
                self.out.push_str("body = ");
                self.expr(body);
                self.out.push('\n');
                if let Some(r) = ready {
                    self.out.push_str("ready {\nvalue = ");
                    self.expr(r);
                    self.out.push_str("\n}\n");
                }
                self.out.push_str("}\n");
            }
            Block::Resources {
                name,
                for_each,
                body,
                name_expr,
            } => {
                writeln!(self.out, "resources {} {{", name.text()).unwrap();
                self.out.push_str("for_each = ");
                self.expr(for_each);
                self.out.push('\n');
                if let Some(n) = name_expr {
                    self.out.push_str("name = ");
                    self.expr(n);
                    self.out.push('\n');
                }
                self.out.push_str("template {\nbody = ");
                self.expr(body);
                self.out.push_str("\n}\n}\n");
            }
            Block::Group(blocks) => {
                self.out.push_str("group {\n");
                for b in blocks {
                    self.block(b);
                }
                self.out.push_str("}\n");
            }
            Block::Status(e) => {
                self.out.push_str("composite status {\nbody = ");
                self.expr(e);
                self.out.push_str("\n}\n");
            }
            Block::Context(k, v) => {
                self.out.push_str("context {\nkey = ");
                self.expr(k);
                self.out.push_str("\nvalue = ");
                self.expr(v);
                self.out.push_str("\n}\n");
            }
            Block::Function { name, args, body } => {
                writeln!(self.out, "function {} {{", name.text()).unwrap();
                for a in args {
                    writeln!(self.out, "arg {} {{}}", a.text()).unwrap();
                }
                self.out.push_str("body = ");
                self.expr(body);
                self.out.push_str("\n}\n");
            }
            Block::Invoke(name, args) => {
                self.out.push_str("locals {\nc = invoke(\"");
                self.out.push_str(name.text());
                self.out.push_str("\", {\n");
                self.attrs(args);
                self.out.push_str("})\n}\n");
            }
            Block::Requirement {
                name,
                api_version,
                kind,
                match_labels,
            } => {
                writeln!(self.out, "requirement {} {{\nselect {{", name.text()).unwrap();
                self.out.push_str("apiVersion = ");
                self.expr(api_version);
                self.out.push_str("\nkind = ");
                self.expr(kind);
                self.out.push('\n');
                if let Some(m) = match_labels {
                    self.out.push_str("matchLabels = ");
                    self.expr(m);
                    self.out.push('\n');
                }
                self.out.push_str("}\n}\n");
            }
            Block::Many(count, body) => {
                let start = self.out.len();
                self.out.push_str(" {\nbody = ");
                self.expr(body);
                self.out.push_str("\n}\n");
                let one = self.out[start..].to_string();
                self.out.truncate(start);
                for i in 0..*count {
                    if self.full() {
                        break;
                    }
                    write!(self.out, "resource r{i}").unwrap();
                    self.out.push_str(&one);
                }
            }
            Block::LocalChain(count) => {
                self.out.push_str("locals {\nl0 = 1\n");
                for i in 1..*count {
                    if self.full() {
                        break;
                    }
                    writeln!(self.out, "l{i} = [l{}]", i - 1).unwrap();
                }
                self.out.push_str("}\n");
            }
        }
    }

    pub fn program(&mut self, program: &Program) {
        for block in &program.blocks {
            self.block(block);
        }
    }
}

/// The text a fuzz input stands for: the input itself, or a printed description.
pub fn input_text(data: &[u8], names: &[String], program: bool) -> Option<String> {
    let (&mode, rest) = data.split_first()?;
    if mode % 2 == 0 {
        return std::str::from_utf8(rest).ok().map(str::to_string);
    }
    let mut u = Unstructured::new(rest);
    let mut printer = Printer::new(names);
    if program {
        let p: Program = read(&mut u)?;
        printer.program(&p);
    } else {
        let e: Expr = read(&mut u)?;
        printer.expr(&e);
    }
    Some(printer.out)
}

fn read<'a, T: Arbitrary<'a>>(u: &mut Unstructured<'a>) -> Option<T> {
    let r: Result<T> = T::arbitrary(u);
    r.ok()
}

/// A generated JSON-like value for the printing target.
#[derive(Arbitrary, Debug)]
pub enum GenValue {
    Null,
    Bool(bool),
    Number(Number),
    /// A number written as text: any digits, any exponent.
    NumberText(u8, u64, i64),
    String(Text),
    Array(Vec<GenValue>),
    Object(Vec<(Text, GenValue)>),
    /// `inner` inside `count` arrays.
    Deep(u16, Box<GenValue>),
    /// `count` copies of `inner` in one array.
    Wide(u16, Box<GenValue>),
}

impl GenValue {
    /// The value as JSON text (bounded by [`MAX_TEXT`]).
    pub fn to_json_text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        if out.len() > MAX_TEXT {
            out.push_str("null");
            return;
        }
        match self {
            GenValue::Null => out.push_str("null"),
            GenValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            GenValue::Number(n) => {
                let mut p = Printer::new(&[]);
                p.number(n);
                out.push_str(&p.out);
            }
            GenValue::NumberText(digits, mantissa, exponent) => {
                write!(out, "{mantissa}").unwrap();
                if digits % 3 == 1 {
                    write!(out, ".{}", "7".repeat(*digits as usize)).unwrap();
                }
                if digits % 2 == 0 {
                    write!(out, "e{exponent}").unwrap();
                }
            }
            GenValue::String(t) => {
                let mut s = String::new();
                t.write(&mut s);
                // Printer escapes for HCL; JSON needs its own.
                out.push_str(&serde_json::to_string(&s).unwrap());
            }
            GenValue::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            GenValue::Object(entries) => {
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    let mut key = String::new();
                    k.write(&mut key);
                    out.push_str(&serde_json::to_string(&key).unwrap());
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
            GenValue::Deep(count, inner) => {
                let count = (*count as usize).min(MAX_TEXT / 2);
                out.push_str(&"[".repeat(count));
                inner.write(out);
                out.push_str(&"]".repeat(count));
            }
            GenValue::Wide(count, inner) => {
                let start = out.len();
                inner.write(out);
                let one = out[start..].to_string();
                out.truncate(start);
                out.push('[');
                for i in 0..*count {
                    if out.len() > MAX_TEXT {
                        break;
                    }
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&one);
                }
                out.push(']');
            }
        }
    }
}

/// Prints a value every way fnhcl prints values: its HCL form, JSON and YAML output, and
/// through the functions that turn values into text.
pub fn print_value(value: &fnhcl::eval::Value) {
    use fnhcl::eval::json;
    std::hint::black_box(json::to_hcl(value).len());
    if let Ok(j) = json::to_json(value) {
        std::hint::black_box(fnhcl::source::yaml_emit::to_yaml(&j).len());
        std::hint::black_box(json::encode_json(&j, true).len());
    }
    let table = fnhcl::eval::functions::builtins();
    let root = fnhcl::eval::scope::Scope::root(&table);
    let mut variables = std::collections::BTreeMap::new();
    variables.insert("v".to_string(), value.clone());
    let scope = root.child(variables);
    let mut map = fnhcl::source::SourceMap::new();
    for text in [
        "jsonencode(v)",
        "yamlencode(v)",
        "tostring(v)",
        "format(\"%v|%#v|%d|%f|%.3e|%s|%q\", v, v, v, v, v, v, v)",
        "\"${v}\"",
        "[for x in flatten([v]) : tostring(x)]",
    ] {
        let id = map.add("print", format!("{text}\n"));
        let (parsed, _) = fnhcl::syntax::parse_expression(map.get(id));
        let (result, _) = fnhcl::eval::expr::Evaluator::new(id)
            .with_sources(&map)
            .eval(&parsed, &scope);
        std::hint::black_box(json::to_hcl(&result).len());
    }
}
