//! libyaml's emitter as go-yaml ports it (`emitterc.go`), for the events a value becomes:
//! block collections (flow style only for empty ones), scalars in the style asked for or the
//! one libyaml falls back to, folding at 80 columns, `? ` keys and `|2+` hints. No tags,
//! anchors or folded (`>`) scalars: neither writer asks for them.
//!
//! Both of fnhcl's YAML writers use it: the output documents (`yaml_emit::to_yaml`, go-yaml
//! v2 as sigs.k8s.io/yaml calls it) and `yamlencode` (go-cty-yaml, whose emitter is a copy of
//! go-yaml v2's). They walk their own values and order keys their own way; what they ask of
//! the emitter differently is a [`Dialect`].

mod scalar;
#[cfg(test)]
mod tests;

use scalar::{analyze, is_break, is_printable, is_simple_key, select_style};

/// go-yaml's indentation step; neither writer changes it.
const INDENT_STEP: usize = 2;
/// The block scalar indentation indicator libyaml writes: the digit of [`INDENT_STEP`].
const INDENT_HINT: &str = "2";
/// go-yaml v2.4 leaves the emitter's width at 0 unless `FutureLineWrap` was called (neither
/// sigs.k8s.io/yaml nor go-cty-yaml calls it), and `yaml_emitter_emit_stream_start` turns any
/// width of at most twice the indent into 80.
const BEST_WIDTH: usize = 80;
/// `yaml_emitter_check_simple_key`: longer keys are written as `? key` / `: value`.
pub(super) const MAX_SIMPLE_KEY_BYTES: usize = 128;

/// A scalar's style: what a writer asks for, and what the emitter finally picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// No quotes.
    Plain,
    /// `'…'`.
    SingleQuoted,
    /// `"…"` with escapes.
    DoubleQuoted,
    /// `|` block.
    Literal,
}

/// What one writer asks of the emitter differently from the other.
#[derive(Debug, Clone, Copy)]
pub struct Dialect {
    /// The style a string (value or key) is asked for: go-yaml's `stringv` (plain when it
    /// reads back as a string) or go-cty-yaml's (always quoted or literal).
    pub string_style: fn(&str) -> Style,
    /// Whether a plain scalar at the root leaves the stream open-ended, so that `...` ends
    /// it: go-cty-yaml's emitter marks it; the output documents are never plain scalars.
    pub open_ended_root: bool,
}

/// Where a node sits: the emitter's `root_context`, `mapping_context` and
/// `simple_key_context` flags.
#[derive(Debug, Clone, Copy)]
pub struct Context {
    root: bool,
    mapping: bool,
    simple_key: bool,
}

impl Context {
    /// The document's root node.
    pub const ROOT: Context = Context {
        root: true,
        mapping: false,
        simple_key: false,
    };
    /// An item of a sequence.
    const ITEM: Context = Context {
        root: false,
        mapping: false,
        simple_key: false,
    };
    /// A mapping value, or a key written after `? `.
    const MAPPING: Context = Context {
        root: false,
        mapping: true,
        simple_key: false,
    };
    /// A key written on the same line as its `:`.
    const SIMPLE_KEY: Context = Context {
        root: false,
        mapping: true,
        simple_key: true,
    };
}

/// The state of libyaml's emitter that decides spaces, line breaks and indentation.
#[derive(Debug)]
pub struct Emitter {
    dialect: Dialect,
    out: String,
    /// The characters of the scalar being written (kept to be reused).
    chars: Vec<char>,
    /// Characters (not bytes) written since the last line break: the emitter counts that way.
    column: usize,
    /// `None` before the root node, where the emitter's indent is -1.
    indent: Option<usize>,
    /// The last thing written separates tokens, so the next one needs no space.
    whitespace: bool,
    /// Nothing but indentation and `-`, `?`, `:` indicators is on the current line.
    indention: bool,
    /// The document needs `...` to end (a plain root scalar, in dialects that mark it).
    open_ended: bool,
}

impl Emitter {
    /// An emitter at the start of a stream (`yaml_emitter_emit_stream_start`'s state).
    pub fn new(dialect: Dialect) -> Emitter {
        Emitter {
            dialect,
            out: String::new(),
            chars: Vec::new(),
            column: 0,
            indent: None,
            whitespace: true,
            indention: true,
            open_ended: false,
        }
    }

    /// Ends the document (implicitly: no `---` or `...` unless open-ended) and the stream;
    /// the text, ending in a newline.
    pub fn finish(mut self) -> String {
        self.write_indent();
        if self.open_ended {
            self.write_indicator("...", true, false, false);
            self.write_indent();
        }
        self.out
    }

    /// A string scalar, in the style the dialect asks for strings.
    pub fn string(&mut self, text: &str, ctx: Context) {
        let style = (self.dialect.string_style)(text);
        self.scalar(text, style, ctx);
    }

    /// yaml_emitter_emit_scalar: pick the final style, then write one level deeper.
    pub fn scalar(&mut self, text: &str, requested: Style, ctx: Context) {
        let analysis = analyze(text);
        let style = select_style(requested, &analysis, ctx.simple_key, text.is_empty());
        let saved = self.indent;
        self.increase_indent(true, false);
        // Keys are never folded: a break inside a simple key would end it.
        let allow_breaks = !ctx.simple_key;
        if style == Style::Plain
            && !text.contains([' ', '\r', '\n', '\u{85}', '\u{2028}', '\u{2029}'])
        {
            // Most scalars of a document: nothing to fold or break, so the text goes out as
            // it is, without the character-by-character loop.
            self.write_plain_word(text, ctx.root);
        } else {
            // One buffer for every scalar of the document rather than one per scalar.
            let mut chars = std::mem::take(&mut self.chars);
            chars.clear();
            chars.extend(text.chars());
            match style {
                Style::Plain => self.write_plain(&chars, allow_breaks, ctx.root),
                Style::SingleQuoted => self.write_single_quoted(&chars, allow_breaks),
                Style::DoubleQuoted => self.write_double_quoted(&chars, allow_breaks),
                Style::Literal => self.write_literal(&chars),
            }
            self.chars = chars;
        }
        self.indent = saved;
    }

    /// yaml_emitter_emit_block_sequence_item for each of `items`, which `item` writes; an
    /// empty sequence goes to flow style instead.
    pub fn sequence<T, E>(
        &mut self,
        items: impl IntoIterator<Item = T>,
        ctx: Context,
        mut item: impl FnMut(&mut Emitter, T, Context) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut items = items.into_iter().peekable();
        if items.peek().is_none() {
            self.empty_flow("[", "]");
            return Ok(());
        }
        let saved = self.indent;
        // A sequence right after `key:` stays at the key's indentation.
        self.increase_indent(false, ctx.mapping && !self.indention);
        for value in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            item(self, value, Context::ITEM)?;
        }
        self.indent = saved;
        Ok(())
    }

    /// yaml_emitter_emit_block_mapping_key and _value for `entries` in the order given, keys
    /// as strings of the dialect, values written by `value`; an empty mapping goes to flow
    /// style instead.
    pub fn mapping<'k, T, E>(
        &mut self,
        entries: impl IntoIterator<Item = (&'k str, T)>,
        mut value: impl FnMut(&mut Emitter, T, Context) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut entries = entries.into_iter().peekable();
        if entries.peek().is_none() {
            self.empty_flow("{", "}");
            return Ok(());
        }
        let saved = self.indent;
        self.increase_indent(false, false);
        for (key, item) in entries {
            self.write_indent();
            let style = (self.dialect.string_style)(key);
            if is_simple_key(key) {
                self.scalar(key, style, Context::SIMPLE_KEY);
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                self.scalar(key, style, Context::MAPPING);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            value(self, item, Context::MAPPING)?;
        }
        self.indent = saved;
        Ok(())
    }

    /// `[]` or `{}`: the emitter switches to flow style when the end event follows at once
    /// (the flow level and indent it enters are left again before anything else is written).
    fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.write_indicator(close, false, false, false);
    }

    /// yaml_emitter_increase_indent.
    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indent = match self.indent {
            None if flow => Some(INDENT_STEP),
            None => Some(0),
            Some(n) if indentless => Some(n),
            Some(n) => Some(n + INDENT_STEP),
        };
    }

    /// One character that is not a line break.
    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// A line break from the text: `\n` is written as the emitter's break, the others as themselves.
    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
        }
    }

    /// yaml_emitter_write_indent: start a new line unless only indentation is on this one.
    fn write_indent(&mut self) {
        let indent = self.indent.unwrap_or(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    /// yaml_emitter_write_indicator.
    fn write_indicator(
        &mut self,
        indicator: &str,
        need_space: bool,
        is_space: bool,
        keeps_indention: bool,
    ) {
        if need_space && !self.whitespace {
            self.put(' ');
        }
        for c in indicator.chars() {
            self.put(c);
        }
        self.whitespace = is_space;
        self.indention = self.indention && keeps_indention;
        self.open_ended = false;
    }

    /// yaml_emitter_write_plain_scalar.
    fn write_plain(&mut self, chars: &[char], allow_breaks: bool, root: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        self.write_flow_text(chars, allow_breaks, false);
        self.end_plain(root);
    }

    /// What writing a plain scalar leaves behind, however its text was written.
    fn end_plain(&mut self, root: bool) {
        self.whitespace = false;
        self.indention = false;
        if root && self.dialect.open_ended_root {
            self.open_ended = true;
        }
    }

    /// [`write_plain`](Self::write_plain) for a text without spaces or line breaks, which
    /// its loop would copy character by character.
    fn write_plain_word(&mut self, text: &str, root: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        self.out.push_str(text);
        self.column += text.chars().count();
        self.end_plain(root);
    }

    /// yaml_emitter_write_single_quoted_scalar.
    fn write_single_quoted(&mut self, chars: &[char], allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        self.write_flow_text(chars, allow_breaks, true);
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// The loop plain and single-quoted scalars share: fold at a lone space past the width,
    /// double line breaks (a single one would fold into a space), double `'` when quoted.
    fn write_flow_text(&mut self, chars: &[char], allow_breaks: bool, single_quoted: bool) {
        let (mut spaces, mut breaks) = (false, false);
        for (k, &c) in chars.iter().enumerate() {
            if c == ' ' {
                // Quoted text keeps a space at either end on the quote's line.
                let inner = !single_quoted || (k > 0 && k + 1 < chars.len());
                let lone = chars.get(k + 1) != Some(&' ');
                if allow_breaks && !spaces && self.column > BEST_WIDTH && inner && lone {
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
                if single_quoted && c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                (spaces, breaks) = (false, false);
            }
        }
    }

    /// yaml_emitter_write_double_quoted_scalar.
    fn write_double_quoted(&mut self, chars: &[char], allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        // libyaml's BOM test reads the start of the text whatever the position, so a text that
        // starts with a BOM has every character escaped.
        let bom = chars.first() == Some(&'\u{feff}');
        let mut spaces = false;
        for (k, &c) in chars.iter().enumerate() {
            if bom || !is_printable(c) || is_break(c) || c == '"' || c == '\\' {
                self.write_escape(c);
                spaces = false;
            } else if c == ' ' {
                let inner = k > 0 && k + 1 < chars.len();
                if allow_breaks && !spaces && self.column > BEST_WIDTH && inner {
                    self.write_indent();
                    // The fold eats the space; a following one must survive the line start.
                    if chars.get(k + 1) == Some(&' ') {
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

    /// The escape libyaml writes for `c` inside double quotes: a short form or uppercase hex.
    fn write_escape(&mut self, c: char) {
        self.put('\\');
        let short = match c {
            '\0' => Some('0'),
            '\u{7}' => Some('a'),
            '\u{8}' => Some('b'),
            '\t' => Some('t'),
            '\n' => Some('n'),
            '\u{b}' => Some('v'),
            '\u{c}' => Some('f'),
            '\r' => Some('r'),
            '\u{1b}' => Some('e'),
            '"' => Some('"'),
            '\\' => Some('\\'),
            '\u{85}' => Some('N'),
            '\u{a0}' => Some('_'),
            '\u{2028}' => Some('L'),
            '\u{2029}' => Some('P'),
            _ => None,
        };
        if let Some(letter) = short {
            self.put(letter);
            return;
        }
        let code = u32::from(c);
        let hex = match code {
            0..=0xff => format!("x{code:02X}"),
            0x100..=0xffff => format!("u{code:04X}"),
            _ => format!("U{code:08X}"),
        };
        hex.chars().for_each(|h| self.put(h));
    }

    /// yaml_emitter_write_literal_scalar.
    fn write_literal(&mut self, chars: &[char]) {
        self.write_indicator("|", true, false, false);
        self.write_block_hints(chars);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for &c in chars {
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

    /// yaml_emitter_write_block_scalar_hints: an indentation indicator when the first line
    /// starts with a space or is empty, then `-` (no final break), `+` (more than one) or nothing.
    /// libyaml marks a kept final break (`+`) as open-ended, but writing the indicator clears
    /// the mark again, so a literal never leaves the stream open-ended.
    fn write_block_hints(&mut self, chars: &[char]) {
        if chars.first().is_some_and(|&c| c == ' ' || is_break(c)) {
            self.write_indicator(INDENT_HINT, false, false, false);
        }
        let chomp = match chars {
            [] => Some("-"),
            [.., last] if !is_break(*last) => Some("-"),
            [_] => Some("+"),
            [.., prev, _] if is_break(*prev) => Some("+"),
            _ => None,
        };
        if let Some(chomp) = chomp {
            self.write_indicator(chomp, false, false, false);
        }
    }
}
