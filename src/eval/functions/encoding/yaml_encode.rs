//! go-cty-yaml 1.1.0's `yamlencode`: the value as libyaml events (strings double-quoted, or
//! literal block scalars when they contain a newline; numbers, bools and null plain; block
//! collections, `[]` and `{}` when empty), written by a port of the parts of go-yaml's
//! libyaml emitter (`emitterc.go`) those events reach — its style fallbacks, 80-column line
//! folding of quoted scalars, `? ` keys, `|2+` hints and the `...` after a plain root scalar.

use crate::eval::functions::FunctionError;
use crate::eval::value::Value;

const BEST_INDENT: i64 = 2;
const BEST_WIDTH: usize = 80;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

/// `yaml_emitter_analyze_scalar`'s verdicts (those for block context: no scalar is ever
/// written inside a flow collection here).
struct Analysis {
    multiline: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_printable(c: char) -> bool {
    matches!(c, '\n' | '\u{20}'..='\u{7e}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
        && c != '\u{feff}'
}

fn is_blank(c: Option<char>) -> bool {
    matches!(c, Some(' ' | '\t'))
}

fn analyze(value: &str) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let mut block_indicators = value.starts_with("---") || value.starts_with("...");
    let mut line_breaks = false;
    let mut special_characters = false;
    let mut leading_space = false;
    let mut leading_break = false;
    let mut trailing_space = false;
    let mut trailing_break = false;
    let mut break_space = false;
    let mut space_break = false;
    let mut previous_space = false;
    let mut previous_break = false;
    let mut preceded_by_whitespace = true;
    let chars: Vec<(usize, char)> = value.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let next = chars.get(k + 1).map(|&(_, c)| c);
        let followed_by_whitespace = next.is_none() || is_blank(next);
        let last = i + c.len_utf8() == value.len();
        block_indicators |= if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => true,
                '?' | ':' | '-' => followed_by_whitespace,
                _ => false,
            }
        } else {
            match c {
                ':' => followed_by_whitespace,
                '#' => preceded_by_whitespace,
                _ => false,
            }
        };
        if !is_printable(c) {
            special_characters = true;
        }
        if c == ' ' {
            leading_space |= i == 0;
            trailing_space |= last;
            break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            line_breaks = true;
            leading_break |= i == 0;
            trailing_break |= last;
            space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = matches!(c, ' ' | '\t' | '\0') || is_break(c);
    }
    let no_plain = leading_space
        || leading_break
        || trailing_space
        || trailing_break
        || break_space
        || space_break
        || special_characters
        || line_breaks
        || block_indicators;
    Analysis {
        multiline: line_breaks,
        block_plain_allowed: !no_plain,
        single_quoted_allowed: !(break_space || space_break || special_characters),
        block_allowed: !(trailing_space || space_break || special_characters),
    }
}

/// Where a node is emitted (`emit_node`'s context flags).
#[derive(Clone, Copy, Default)]
struct Context {
    root: bool,
    mapping: bool,
    simple_key: bool,
}

/// The emitter's state that the output depends on.
struct Emitter {
    out: String,
    column: usize,
    whitespace: bool,
    indention: bool,
    open_ended: bool,
    indent: i64,
    indents: Vec<i64>,
}

/// `yamlencode`'s result for a wholly known value.
pub(super) fn encode(value: &Value) -> Result<String, FunctionError> {
    let mut e = Emitter {
        out: String::new(),
        column: 0,
        whitespace: true,
        indention: true,
        open_ended: false,
        indent: -1,
        indents: Vec::new(),
    };
    e.node(
        value,
        Context {
            root: true,
            ..Context::default()
        },
    )?;
    // DOCUMENT-END (implicit), then STREAM-END.
    e.write_indent();
    if e.open_ended {
        e.write_indicator("...", true, false, false);
        e.write_indent();
    }
    Ok(e.out)
}

impl Emitter {
    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.put(c);
            self.column = 0;
        }
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        for c in indicator.chars() {
            self.put(c);
        }
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
        self.open_ended = false;
    }

    fn node(&mut self, value: &Value, ctx: Context) -> Result<(), FunctionError> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.node_inner(value, ctx))
    }

    fn node_inner(&mut self, value: &Value, ctx: Context) -> Result<(), FunctionError> {
        match value {
            Value::Null(_) => self.scalar("null", Style::Plain, ctx),
            Value::Bool(b) => self.scalar(if *b { "true" } else { "false" }, Style::Plain, ctx),
            Value::Number(n) => self.scalar(&n.to_string(), Style::Plain, ctx),
            Value::String(s) => {
                let style = if s.contains('\n') {
                    Style::Literal
                } else {
                    Style::DoubleQuoted
                };
                self.scalar(s, style, ctx);
            }
            Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
                if items.is_empty() {
                    self.empty_flow("[", "]");
                    return Ok(());
                }
                self.increase_indent(false, ctx.mapping && !self.indention);
                for item in items.iter() {
                    self.write_indent();
                    self.write_indicator("-", true, false, true);
                    self.node(item, Context::default())?;
                }
                self.pop_indent();
            }
            Value::Map { items, .. } | Value::Object(items) => {
                if items.is_empty() {
                    self.empty_flow("{", "}");
                    return Ok(());
                }
                self.increase_indent(false, false);
                let in_mapping = Context {
                    mapping: true,
                    ..Context::default()
                };
                for (key, item) in items.iter() {
                    self.write_indent();
                    let a = analyze(key);
                    if !a.multiline && key.len() <= 128 {
                        let key_ctx = Context {
                            simple_key: true,
                            ..in_mapping
                        };
                        self.scalar(key, Style::DoubleQuoted, key_ctx);
                        self.write_indicator(":", false, false, false);
                    } else {
                        self.write_indicator("?", true, false, true);
                        let style = if key.contains('\n') {
                            Style::Literal
                        } else {
                            Style::DoubleQuoted
                        };
                        self.scalar(key, style, in_mapping);
                        self.write_indent();
                        self.write_indicator(":", true, false, true);
                    }
                    self.node(item, in_mapping)?;
                }
                self.pop_indent();
            }
            Value::Unknown(..) => {
                return Err(FunctionError::other(
                    "cannot serialize unknown value as YAML",
                ));
            }
        }
        Ok(())
    }

    /// An empty collection, which the emitter always writes in flow style (the flow level
    /// and indent it enters are left again before anything else is written).
    fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.write_indicator(close, false, false, false);
    }

    /// `yaml_emitter_emit_scalar`: choose the style, then write.
    fn scalar(&mut self, value: &str, requested: Style, ctx: Context) {
        // `yaml_emitter_select_scalar_style`, outside flow collections: scalars are never
        // inside one, as only empty collections are written in flow style.
        let a = analyze(value);
        let mut style = requested;
        if ctx.simple_key && a.multiline {
            style = Style::DoubleQuoted;
        }
        if style == Style::Plain && (!a.block_plain_allowed || value.is_empty() && ctx.simple_key) {
            style = Style::SingleQuoted;
        }
        if style == Style::SingleQuoted && !a.single_quoted_allowed {
            style = Style::DoubleQuoted;
        }
        if style == Style::Literal && (!a.block_allowed || ctx.simple_key) {
            style = Style::DoubleQuoted;
        }
        self.increase_indent(true, false);
        let allow_breaks = !ctx.simple_key;
        match style {
            Style::Plain => self.write_plain(value, allow_breaks, ctx.root),
            Style::SingleQuoted => self.write_single_quoted(value, allow_breaks),
            Style::DoubleQuoted => self.write_double_quoted(value, allow_breaks),
            Style::Literal => self.write_literal(value),
        }
        self.pop_indent();
    }

    fn write_plain(&mut self, value: &str, allow_breaks: bool, root: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        let mut spaces = false;
        let mut breaks = false;
        let mut chars = value.chars().peekable();
        while let Some(c) = chars.next() {
            if c == ' ' {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && chars.peek() != Some(&' ')
                {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
        if root {
            self.open_ended = true;
        }
    }

    fn write_single_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        let mut spaces = false;
        let mut breaks = false;
        let last = value.len().saturating_sub(1);
        let mut chars = value.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c == ' ' {
                let next_space = chars.peek().map(|&(_, c)| c) == Some(' ');
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i < last
                    && !next_space
                {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_double_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        // libyaml's is_bom looks at the start of the string, not at the current character,
        // so a leading byte order mark has every character escaped.
        let bom = value.starts_with('\u{feff}');
        let last = value.len().saturating_sub(1);
        let mut spaces = false;
        let mut chars = value.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if !is_printable(c) || bom || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let u = c as u32;
                let named = match u {
                    0x00 => Some('0'),
                    0x07 => Some('a'),
                    0x08 => Some('b'),
                    0x09 => Some('t'),
                    0x0a => Some('n'),
                    0x0b => Some('v'),
                    0x0c => Some('f'),
                    0x0d => Some('r'),
                    0x1b => Some('e'),
                    0x22 => Some('"'),
                    0x5c => Some('\\'),
                    0x85 => Some('N'),
                    0xa0 => Some('_'),
                    0x2028 => Some('L'),
                    0x2029 => Some('P'),
                    _ => None,
                };
                match named {
                    Some(n) => self.put(n),
                    None => {
                        let (prefix, digits) = match u {
                            0..=0xff => ('x', 2),
                            0x100..=0xffff => ('u', 4),
                            _ => ('U', 8),
                        };
                        self.put(prefix);
                        for k in (0..digits).rev() {
                            let d = (u >> (4 * k)) & 0xf;
                            self.put(char::from_digit(d, 16).unwrap_or('0').to_ascii_uppercase());
                        }
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && i > 0 && i < last {
                    self.write_indent();
                    if chars.peek().map(|&(_, c)| c) == Some(' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_block_scalar_hints(&mut self, value: &str) {
        let first = value.chars().next();
        if first == Some(' ') || first.is_some_and(is_break) {
            let hint = char::from(b'0' + BEST_INDENT as u8).to_string();
            self.write_indicator(&hint, false, false, false);
        }
        self.open_ended = false;
        let mut rev = value.chars().rev();
        let chomp = match (rev.next(), rev.next()) {
            (None, _) => Some("-"),
            (Some(c), _) if !is_break(c) => Some("-"),
            (Some(_), None) => Some("+"),
            (Some(_), Some(p)) if is_break(p) => Some("+"),
            _ => None,
        };
        if let Some(chomp) = chomp {
            // libyaml marks a kept final break as open-ended, but writing the indicator
            // clears the mark again.
            self.open_ended = chomp == "+";
            self.write_indicator(chomp, false, false, false);
        }
    }

    fn write_literal(&mut self, value: &str) {
        self.write_indicator("|", true, false, false);
        self.write_block_scalar_hints(value);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for c in value.chars() {
            if is_break(c) {
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }
}
