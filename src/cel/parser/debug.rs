//! cel-go's `common/debug` printer: an expression as indented text, each node optionally
//! followed by an annotation (cel-go's "adorner"), as cel-go's parser tests print trees.

use crate::cel::ast::{Entry, Expr, ExprKind, Literal};

/// What an adorner is asked to annotate.
#[derive(Clone, Copy)]
pub enum Node<'a> {
    /// An expression.
    Expr(&'a Expr),
    /// A map entry or message field.
    Entry(&'a Entry),
}

/// The tree as cel-go's `debug.ToDebugString` prints it.
pub fn to_debug_string(e: &Expr) -> String {
    to_adorned_debug_string(e, &|_| String::new())
}

/// The tree with `adorn`'s annotation after every node (`debug.ToAdornedDebugString`).
pub fn to_adorned_debug_string(e: &Expr, adorn: &dyn Fn(Node) -> String) -> String {
    let mut w = Writer {
        out: String::new(),
        indent: 0,
        line_start: true,
        adorn,
    };
    w.expr(e);
    w.out
}

struct Writer<'a> {
    out: String,
    indent: usize,
    line_start: bool,
    adorn: &'a dyn Fn(Node) -> String,
}

impl Writer<'_> {
    fn append(&mut self, s: &str) {
        if self.line_start {
            self.line_start = false;
            for _ in 0..self.indent {
                self.out.push_str("  ");
            }
        }
        self.out.push_str(s);
    }

    fn newline(&mut self) {
        self.out.push('\n');
        self.line_start = true;
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Literal(l) => self.append(&format_literal(l)),
            ExprKind::Ident(name) => self.append(name),
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                self.expr(operand);
                self.append(".");
                self.append(field);
                if *test_only {
                    self.append("~test-only~");
                }
            }
            ExprKind::Call {
                target,
                function,
                args,
            } => {
                if let Some(t) = target {
                    self.expr(t);
                    self.append(".");
                }
                self.append(function);
                self.append("(");
                if !args.is_empty() {
                    self.indent += 1;
                    self.newline();
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            self.append(",");
                            self.newline();
                        }
                        self.expr(a);
                    }
                    self.indent -= 1;
                    self.newline();
                }
                self.append(")");
            }
            ExprKind::List { elements, .. } => {
                self.append("[");
                if !elements.is_empty() {
                    self.newline();
                    self.indent += 1;
                    for (i, a) in elements.iter().enumerate() {
                        if i > 0 {
                            self.append(",");
                            self.newline();
                        }
                        self.expr(a);
                    }
                    self.indent -= 1;
                    self.newline();
                }
                self.append("]");
            }
            ExprKind::Map { entries } => {
                self.append("{");
                self.entries(entries, false);
                self.append("}");
            }
            ExprKind::Struct { type_name, fields } => {
                self.append(type_name);
                self.append("{");
                self.entries(fields, true);
                self.append("}");
            }
            ExprKind::Comprehension(c) => {
                self.append("__comprehension__(");
                self.indent += 1;
                self.newline();
                self.append("// Variable");
                self.newline();
                self.append(&c.iter_var);
                self.append(",");
                self.newline();
                if let Some(v2) = &c.iter_var2 {
                    self.append(v2);
                    self.append(",");
                    self.newline();
                }
                self.append("// Target");
                self.newline();
                self.expr(&c.iter_range);
                self.append(",");
                self.newline();
                self.append("// Accumulator");
                self.newline();
                self.append(&c.accu_var);
                self.append(",");
                self.newline();
                for (label, part, last) in [
                    ("// Init", &c.accu_init, false),
                    ("// LoopCondition", &c.loop_cond, false),
                    ("// LoopStep", &c.loop_step, false),
                    ("// Result", &c.result, true),
                ] {
                    self.append(label);
                    self.newline();
                    self.expr(part);
                    if !last {
                        self.append(",");
                        self.newline();
                    }
                }
                self.append(")");
                self.indent -= 1;
            }
        }
        let a = (self.adorn)(Node::Expr(e));
        self.append(&a);
    }

    fn entries(&mut self, entries: &[Entry], is_struct: bool) {
        if entries.is_empty() {
            return;
        }
        self.newline();
        self.indent += 1;
        for (i, en) in entries.iter().enumerate() {
            if i > 0 {
                self.append(",");
                self.newline();
            }
            if en.optional {
                self.append("?");
            }
            match (&en.key.kind, is_struct) {
                (ExprKind::Literal(Literal::String(name)), true) => self.append(name),
                _ => self.expr(&en.key),
            }
            self.append(":");
            self.expr(&en.value);
            let a = (self.adorn)(Node::Entry(en));
            self.append(&a);
        }
        self.indent -= 1;
        self.newline();
    }
}

/// A literal as cel-go's debug printer shows it (Go's `%v` and `strconv.Quote`).
pub fn format_literal(l: &Literal) -> String {
    match l {
        Literal::Null => "null".to_string(),
        Literal::Bool(b) => b.to_string(),
        Literal::Int(i) => i.to_string(),
        Literal::Uint(u) => format!("{u}u"),
        Literal::Double(d) => format_double(*d),
        Literal::String(s) => go_quote(s.as_bytes()),
        Literal::Bytes(b) => format!("b{}", go_quote(b)),
    }
}

/// Go's `%v` of a float64: the shortest digits, in exponent form below 1e-4 or from 1e21.
pub fn format_double(d: f64) -> String {
    if d.is_nan() {
        return "NaN".to_string();
    }
    if d.is_infinite() {
        return if d > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    if d == 0.0 {
        return if d.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // `{:e}` gives the shortest round-trip digits as `D.DDDe±X`.
    let sci = format!("{d:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..21).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exp.unsigned_abs());
    }
    let s = d.to_string();
    s.strip_suffix(".0").map_or(s.clone(), str::to_string)
}

/// Go's `strconv.Quote` of bytes (invalid UTF-8 as `\x` escapes).
pub fn go_quote(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    let mut rest = bytes;
    while !rest.is_empty() {
        let (valid, bad) = match std::str::from_utf8(rest) {
            Ok(s) => (s, 0),
            Err(e) => {
                let (v, _) = rest.split_at(e.valid_up_to());
                (
                    std::str::from_utf8(v).unwrap_or(""),
                    e.error_len().unwrap_or(rest.len() - e.valid_up_to()),
                )
            }
        };
        for c in valid.chars() {
            match c {
                '\x07' => out.push_str("\\a"),
                '\x08' => out.push_str("\\b"),
                '\x0c' => out.push_str("\\f"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\x0b' => out.push_str("\\v"),
                '\\' => out.push_str("\\\\"),
                '"' => out.push_str("\\\""),
                c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                    out.push_str(&format!("\\x{:02x}", c as u32));
                }
                c if is_go_printable(c) => out.push(c),
                c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push_str(&format!("\\U{:08x}", c as u32)),
            }
        }
        let consumed = valid.len();
        for b in &rest[consumed..consumed + bad] {
            out.push_str(&format!("\\x{b:02x}"));
        }
        rest = &rest[consumed + bad..];
    }
    out.push('"');
    out
}

/// An approximation of Go's `unicode.IsPrint`: not a control, format, separator (other
/// than space) or private-use character.
fn is_go_printable(c: char) -> bool {
    let u = c as u32;
    !(c.is_control()
        || (0x80..0xa0).contains(&u)
        || u == 0xad
        || (0x2000..=0x200f).contains(&u)
        || (0x2028..=0x202f).contains(&u)
        || (0x205f..=0x206f).contains(&u)
        || u == 0x3000
        || u == 0xfeff
        || (0xe000..=0xf8ff).contains(&u)
        || (0xfff9..=0xfffb).contains(&u)
        || u >= 0xf0000)
}
