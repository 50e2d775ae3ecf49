//! YAML text for a JSON value, byte for byte as `crossplane render` prints each document.
//!
//! Crossplane writes every rendered object with `sigs.k8s.io/yaml.JSONToYAML`: go-yaml v2 (v2.4)
//! decodes the JSON into plain Go values and encodes them again with its port of libyaml's
//! emitter. Matching that output means matching three parts of go-yaml: the YAML 1.1 resolver
//! (which turns a JSON number into an int or a float, and decides whether a string must be quoted
//! to read back as a string), the order of map keys, and the emitter's scalar analysis, style
//! choice, folding at 80 columns and indentation.
//!
//! Only what such documents reach is here: block collections, flow style only for empty ones,
//! and no tags, anchors or folded (`>`) scalars, because the encoder never asks for them.

use serde_json::{Map, Value};

mod resolve;
mod scalar;
mod sort;
#[cfg(test)]
mod tests;

use resolve::*;
use scalar::*;
use sort::*;

/// go-yaml's indentation step; sigs.k8s.io/yaml never changes it.
const INDENT_STEP: usize = 2;
/// The block scalar indentation indicator libyaml writes: the digit of [`INDENT_STEP`].
const INDENT_HINT: &str = "2";
/// go-yaml v2.4 leaves the emitter's width at 0 unless `FutureLineWrap` was called (sigs.k8s.io/yaml
/// does not call it), and `yaml_emitter_emit_stream_start` turns any width of at most twice the
/// indent into 80.
const BEST_WIDTH: usize = 80;
/// `yaml_emitter_check_simple_key`: longer keys are written as `? key` / `: value`.
const MAX_SIMPLE_KEY_BYTES: usize = 128;

/// One YAML document (no leading `---`), ending in a newline, as sigs.k8s.io/yaml.JSONToYAML writes `json`.
pub fn to_yaml(json: &Value) -> String {
    let mut emitter = Emitter::default();
    emitter.node(json, Context::NODE);
    // The implicit document end only finishes the last line.
    emitter.write_indent();
    emitter.out
}

/// How the encoder asks for a scalar to be written, and what the emitter finally picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

/// Where a node sits; the emitter's `mapping_context` and `simple_key_context` flags.
#[derive(Debug, Clone, Copy)]
struct Context {
    mapping: bool,
    simple_key: bool,
}

impl Context {
    /// The root, or an item of a sequence.
    const NODE: Context = Context {
        mapping: false,
        simple_key: false,
    };
    /// A mapping value, or a key written after `? `.
    const MAPPING: Context = Context {
        mapping: true,
        simple_key: false,
    };
    /// A key written on the same line as its `:`.
    const SIMPLE_KEY: Context = Context {
        mapping: true,
        simple_key: true,
    };
}

/// The state of libyaml's emitter that decides spaces, line breaks and indentation.
#[derive(Debug)]
struct Emitter {
    out: String,
    /// Characters (not bytes) written since the last line break: the emitter counts that way.
    column: usize,
    /// `None` before the root node, where the emitter's indent is -1.
    indent: Option<usize>,
    /// The last thing written separates tokens, so the next one needs no space.
    whitespace: bool,
    /// Nothing but indentation and `-`, `?`, `:` indicators is on the current line.
    indention: bool,
}

impl Default for Emitter {
    fn default() -> Self {
        // yaml_emitter_emit_stream_start's starting state.
        Emitter {
            out: String::new(),
            column: 0,
            indent: None,
            whitespace: true,
            indention: true,
        }
    }
}

impl Emitter {
    fn node(&mut self, value: &Value, ctx: Context) {
        match value {
            Value::Null => self.scalar("null", Style::Plain, ctx),
            Value::Bool(b) => self.scalar(if *b { "true" } else { "false" }, Style::Plain, ctx),
            Value::Number(n) => self.number(&n.to_string(), ctx),
            Value::String(s) => self.scalar(s, string_style(s), ctx),
            Value::Array(items) => self.sequence(items, ctx),
            Value::Object(map) => self.mapping(map),
        }
    }

    /// The number as go-yaml decodes its JSON text and then encodes the Go value.
    fn number(&mut self, text: &str, ctx: Context) {
        match resolve(text) {
            Resolved::Int(v) => self.scalar(&v.to_string(), Style::Plain, ctx),
            Resolved::Float(f) => self.scalar(&format_float(f), Style::Plain, ctx),
            // A float that overflows float64 stays a Go string (`resolve` falls through to
            // !!str); the other kinds cannot come from JSON number text.
            Resolved::Str | Resolved::Other => self.scalar(text, string_style(text), ctx),
        }
    }

    /// yaml_emitter_emit_block_sequence_item; an empty sequence goes to flow style instead.
    fn sequence(&mut self, items: &[Value], ctx: Context) {
        if items.is_empty() {
            self.empty_flow("[", "]");
            return;
        }
        let saved = self.indent;
        // A sequence right after `key:` stays at the key's indentation.
        self.increase_indent(false, ctx.mapping && !self.indention);
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, Context::NODE);
        }
        self.indent = saved;
    }

    /// yaml_emitter_emit_block_mapping_key and _value, keys in go-yaml's order.
    fn mapping(&mut self, map: &Map<String, Value>) {
        if map.is_empty() {
            self.empty_flow("{", "}");
            return;
        }
        let saved = self.indent;
        self.increase_indent(false, false);
        for (key, value) in sorted_entries(map) {
            self.write_indent();
            if is_simple_key(key) {
                self.scalar(key, string_style(key), Context::SIMPLE_KEY);
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                self.scalar(key, string_style(key), Context::MAPPING);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.node(value, Context::MAPPING);
        }
        self.indent = saved;
    }

    /// `[]` or `{}`: the emitter switches to flow style when the end event follows at once.
    fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.write_indicator(close, false, false, false);
    }

    /// yaml_emitter_emit_scalar: pick the final style, then write one level deeper.
    fn scalar(&mut self, text: &str, requested: Style, ctx: Context) {
        let analysis = analyze(text);
        let style = select_style(requested, &analysis, ctx.simple_key, text.is_empty());
        let saved = self.indent;
        self.increase_indent(true, false);
        let chars: Vec<char> = text.chars().collect();
        // Keys are never folded: a break inside a simple key would end it.
        let allow_breaks = !ctx.simple_key;
        match style {
            Style::Plain => self.write_plain(&chars, allow_breaks),
            Style::SingleQuoted => self.write_single_quoted(&chars, allow_breaks),
            Style::DoubleQuoted => self.write_double_quoted(&chars, allow_breaks),
            Style::Literal => self.write_literal(&chars),
        }
        self.indent = saved;
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
    }

    /// yaml_emitter_write_plain_scalar.
    fn write_plain(&mut self, chars: &[char], allow_breaks: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        self.write_flow_text(chars, allow_breaks, false);
        self.whitespace = false;
        self.indention = false;
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
