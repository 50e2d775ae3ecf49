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

use regex::Regex;
use serde_json::{Map, Value};
use std::sync::LazyLock;

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

/// The style encode.go's `stringv` asks for: a literal block for text with `\n`, plain when the
/// text would read back as a string, double quotes otherwise.
fn string_style(s: &str) -> Style {
    if s.contains('\n') {
        Style::Literal
    } else if matches!(resolve(s), Resolved::Str) && !is_base60_float(s) {
        Style::Plain
    } else {
        Style::DoubleQuoted
    }
}

/// yaml_emitter_check_simple_key for a string key.
fn is_simple_key(key: &str) -> bool {
    !analyze(key).multiline && key.len() <= MAX_SIMPLE_KEY_BYTES
}

/// yaml_emitter_select_scalar_style for a block context without tags (the encoder marks every
/// scalar implicit, and no scalar is ever inside a flow collection here).
fn select_style(requested: Style, a: &Analysis, simple_key: bool, empty: bool) -> Style {
    let mut style = requested;
    if simple_key && a.multiline {
        style = Style::DoubleQuoted;
    }
    if style == Style::Plain && (!a.block_plain_allowed || (empty && simple_key)) {
        style = Style::SingleQuoted;
    }
    if style == Style::SingleQuoted && !a.single_quoted_allowed {
        style = Style::DoubleQuoted;
    }
    if style == Style::Literal && (!a.block_allowed || simple_key) {
        style = Style::DoubleQuoted;
    }
    style
}

/// What yaml_emitter_analyze_scalar concludes about a scalar (the flow-context verdicts are
/// left out: scalars never appear in flow collections here).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Analysis {
    multiline: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

/// The facts yaml_emitter_analyze_scalar collects in its pass over the text.
#[derive(Debug, Default)]
struct Scan {
    block_indicators: bool,
    special_characters: bool,
    line_breaks: bool,
    leading_space: bool,
    leading_break: bool,
    trailing_space: bool,
    trailing_break: bool,
    break_space: bool,
    space_break: bool,
}

fn analyze(text: &str) -> Analysis {
    if text.is_empty() {
        return Analysis {
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let s = scan(text);
    let edges = s.leading_space || s.leading_break || s.trailing_space || s.trailing_break;
    let mixed = s.break_space || s.space_break || s.special_characters;
    Analysis {
        multiline: s.line_breaks,
        block_plain_allowed: !(edges || mixed || s.line_breaks || s.block_indicators),
        single_quoted_allowed: !mixed,
        block_allowed: !(s.trailing_space || s.space_break || s.special_characters),
    }
}

fn scan(text: &str) -> Scan {
    let mut s = Scan {
        block_indicators: text.starts_with("---") || text.starts_with("..."),
        ..Scan::default()
    };
    let mut preceded_by_blank = true;
    let (mut previous_space, mut previous_break) = (false, false);
    let mut chars = text.chars().peekable();
    let mut first = true;
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let last = next.is_none();
        let followed_by_blank = matches!(next, None | Some(' ' | '\t'));
        s.block_indicators |= is_block_indicator(c, first, preceded_by_blank, followed_by_blank);
        s.special_characters |= !is_printable(c);
        if c == ' ' {
            s.leading_space |= first;
            s.trailing_space |= last;
            s.break_space |= previous_break;
            (previous_space, previous_break) = (true, false);
        } else if is_break(c) {
            s.line_breaks = true;
            s.leading_break |= first;
            s.trailing_break |= last;
            s.space_break |= previous_space;
            (previous_space, previous_break) = (false, true);
        } else {
            (previous_space, previous_break) = (false, false);
        }
        preceded_by_blank = c == ' ' || c == '\t' || c == '\0' || is_break(c);
        first = false;
    }
    s
}

/// Whether `c` makes the text unusable as a plain scalar in block context.
fn is_block_indicator(
    c: char,
    first: bool,
    preceded_by_blank: bool,
    followed_by_blank: bool,
) -> bool {
    if first {
        match c {
            '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"' | '%'
            | '@' | '`' => true,
            '?' | ':' | '-' => followed_by_blank,
            _ => false,
        }
    } else {
        match c {
            ':' => followed_by_blank,
            '#' => preceded_by_blank,
            _ => false,
        }
    }
}

/// libyaml's `is_printable`, which it tests on UTF-8 bytes: in particular nothing outside the
/// Basic Multilingual Plane counts as printable, so emoji are escaped.
fn is_printable(c: char) -> bool {
    matches!(u32::from(c), 0x0a | 0x20..=0x7e | 0xa0..=0xd7ff | 0xe000..=0xfffd) && c != '\u{feff}'
}

/// libyaml's `is_break`: CR, LF, NEL, LS and PS.
fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// A map's entries in the order go-yaml's `keyList` sorts them.
fn sorted_entries(map: &Map<String, Value>) -> Vec<(&str, &Value)> {
    let entries: Vec<(&str, &Value)> = map.iter().map(|(k, v)| (k.as_str(), v)).collect();
    merge_sort(entries)
}

/// A merge sort by [`go_key_less`]. Go sorts keys that come in random map order, so only a total
/// order gives a defined result, and for one every algorithm agrees; this one cannot panic even
/// if the comparison were inconsistent, which `slice::sort_by` does not promise.
fn merge_sort<'a>(mut items: Vec<(&'a str, &'a Value)>) -> Vec<(&'a str, &'a Value)> {
    if items.len() < 2 {
        return items;
    }
    let right = merge_sort(items.split_off(items.len() / 2));
    let left = merge_sort(items);
    let mut merged = Vec::with_capacity(left.len() + right.len());
    let (mut left, mut right) = (left.into_iter().peekable(), right.into_iter().peekable());
    while let (Some(l), Some(r)) = (left.peek(), right.peek()) {
        let next = if go_key_less(r.0, l.0) {
            right.next()
        } else {
            left.next()
        };
        merged.extend(next);
    }
    merged.extend(left);
    merged.extend(right);
    merged
}

/// sorter.go's `keyList.Less` for two string keys: rune by rune, letters after other
/// characters, and runs of digits compared by value.
fn go_key_less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    for i in 0..ar.len().min(br.len()) {
        if ar[i] == br[i] {
            continue;
        }
        let (al, bl) = (is_go_letter(ar[i]), is_go_letter(br[i]));
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        return digit_run_less(&ar, &br, i);
    }
    ar.len() < br.len()
}

/// The numeric part of `keyList.Less`, from the first differing rune `i` (neither a letter).
fn digit_run_less(ar: &[char], br: &[char], i: usize) -> bool {
    // A zero continuing a number with a non-zero digit before it is not a leading zero.
    let mut seed = 0;
    if ar[i] == '0' || br[i] == '0' {
        let before = ar[..i].iter().rev().take_while(|&&c| is_go_digit(c));
        if before.into_iter().any(|&c| c != '0') {
            seed = 1;
        }
    }
    let (an, ai) = digit_run(ar, i, seed);
    let (bn, bi) = digit_run(br, i, seed);
    if an != bn {
        return an < bn;
    }
    if ai != bi {
        return ai < bi;
    }
    ar[i] < br[i]
}

/// The value of the digits from `start` (wrapping like Go's int64) and where they end.
fn digit_run(runes: &[char], start: usize, seed: i64) -> (i64, usize) {
    let mut n = seed;
    let mut end = start;
    while let Some(&c) = runes.get(end).filter(|&&c| is_go_digit(c)) {
        let digit = i64::from(u32::from(c)) - i64::from(u32::from('0'));
        n = n.wrapping_mul(10).wrapping_add(digit);
        end += 1;
    }
    (n, end)
}

/// Go's `unicode.IsLetter` (category L).
fn is_go_letter(c: char) -> bool {
    static LETTER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\p{L}$").expect("valid pattern"));
    c.is_ascii_alphabetic() || !c.is_ascii() && LETTER.is_match(c.encode_utf8(&mut [0; 4]))
}

/// Go's `unicode.IsDigit`: ASCII digits in Latin-1, category Nd above it.
fn is_go_digit(c: char) -> bool {
    static DIGIT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\p{Nd}$").expect("valid pattern"));
    c.is_ascii_digit() || u32::from(c) > 0xff && DIGIT.is_match(c.encode_utf8(&mut [0; 4]))
}

/// What go-yaml v2's resolver makes of an untagged plain scalar.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Resolved {
    Str,
    Int(i128),
    Float(f64),
    /// A null, a bool or a timestamp.
    Other,
}

/// resolve.go's `resolve("", s)`.
fn resolve(s: &str) -> Resolved {
    let hint = match s.as_bytes().first() {
        None => b'N',
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        // `<<` is in the table too, but its first byte has no hint, so it is never looked up.
        Some(_) => return Resolved::Str,
    };
    if let Some(known) = resolve_table(s) {
        return known;
    }
    match hint {
        b'.' => match parse_go_float(s) {
            Some(f) => Resolved::Float(f),
            None => Resolved::Str,
        },
        b'D' | b'S' => resolve_number(s),
        _ => Resolved::Str,
    }
}

/// The words resolve.go looks up before trying numbers.
fn resolve_table(s: &str) -> Option<Resolved> {
    let resolved = match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Resolved::Other
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Resolved::Other
        }
        "" | "~" | "null" | "Null" | "NULL" => Resolved::Other,
        ".nan" | ".NaN" | ".NAN" => Resolved::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Resolved::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Resolved::Float(f64::NEG_INFINITY),
        _ => return None,
    };
    Some(resolved)
}

/// resolve.go for text starting with a digit or sign: timestamp, then int (any base, `_`
/// removed), then uint, then a decimal float, then its `0b` special cases.
fn resolve_number(s: &str) -> Resolved {
    static YAML_FLOAT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$").expect("valid pattern")
    });
    if is_go_timestamp(s) {
        return Resolved::Other;
    }
    let plain = s.replace('_', "");
    let int = parse_go_int(&plain, 0).or_else(|| parse_go_uint(&plain, 0).map(i128::from));
    if let Some(v) = int {
        return Resolved::Int(v);
    }
    if YAML_FLOAT.is_match(&plain) {
        if let Some(f) = finite_float(&plain) {
            return Resolved::Float(f);
        }
    }
    let binary = if let Some(digits) = plain.strip_prefix("0b") {
        parse_go_int(digits, 2).or_else(|| parse_go_uint(digits, 2).map(i128::from))
    } else if let Some(digits) = plain.strip_prefix("-0b") {
        parse_go_int(&format!("-{digits}"), 2)
    } else {
        None
    };
    binary.map_or(Resolved::Str, Resolved::Int)
}

/// The float a syntactically valid decimal denotes, or `None` where Go's `ParseFloat` reports a
/// range error (the value rounds to an infinity; underflow to zero is not an error).
fn finite_float(decimal: &str) -> Option<f64> {
    decimal.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// Go's `strconv.ParseInt(s, base, 64)` (base 0: `0x`, `0o`, `0b` or a leading `0` pick it).
fn parse_go_int(s: &str, base: u32) -> Option<i128> {
    let (negative, digits) = match s.as_bytes().first()? {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    let magnitude = i128::from(parse_go_uint(digits, base)?);
    let limit = 1i128 << 63;
    match negative {
        true if magnitude <= limit => Some(-magnitude),
        false if magnitude < limit => Some(magnitude),
        _ => None,
    }
}

/// Go's `strconv.ParseUint(s, base, 64)` for text without underscores (resolve removes them).
fn parse_go_uint(s: &str, base: u32) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let (base, digits) = if base == 0 {
        split_base_prefix(s)
    } else {
        (base, s)
    };
    let mut n: u64 = 0;
    for b in digits.bytes() {
        let digit = match b {
            b'0'..=b'9' => u32::from(b - b'0'),
            b'a'..=b'z' | b'A'..=b'Z' => u32::from(b.to_ascii_lowercase() - b'a') + 10,
            _ => return None,
        };
        if digit >= base {
            return None;
        }
        n = n
            .checked_mul(u64::from(base))?
            .checked_add(u64::from(digit))?;
    }
    Some(n)
}

/// The base a Go integer literal's prefix selects, and the digits after it.
fn split_base_prefix(s: &str) -> (u32, &str) {
    let b = s.as_bytes();
    if b.first() != Some(&b'0') {
        return (10, s);
    }
    match b.get(1).map(u8::to_ascii_lowercase) {
        Some(b'b') if b.len() >= 3 => (2, &s[2..]),
        Some(b'o') if b.len() >= 3 => (8, &s[2..]),
        Some(b'x') if b.len() >= 3 => (16, &s[2..]),
        _ => (8, &s[1..]),
    }
}

/// Go's `strconv.ParseFloat(s, 64)` for decimal text (resolve only calls it on text that starts
/// with `.` or matched its decimal pattern): digits with at most one `.`, an optional exponent,
/// and `_` only between digits.
fn parse_go_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let (mut saw_dot, mut saw_digits) = (false, false);
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => saw_digits = true,
            b'.' if !saw_dot => saw_dot = true,
            b'_' => {}
            _ => break,
        }
        i += 1;
    }
    if !saw_digits {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1 + usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
        if !b.get(i).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        while b.get(i).is_some_and(|&c| c.is_ascii_digit() || c == b'_') {
            i += 1;
        }
    }
    if i != b.len() || (s.contains('_') && !underscores_ok(s)) {
        return None;
    }
    finite_float(&s.replace('_', ""))
}

/// Go's `underscoreOK` for a decimal number: every `_` sits between two digits.
fn underscores_ok(s: &str) -> bool {
    // `saw` is the class of the previous byte: b'^' start, b'0' digit, b'_', b'!' other.
    let mut saw = b'^';
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    for c in digits.bytes() {
        if c.is_ascii_digit() {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else if saw == b'_' {
            return false;
        } else {
            saw = b'!';
        }
    }
    saw != b'_'
}

/// encode.go's `isBase60Float`: YAML 1.1 sexagesimal numbers such as `1:20`, which go-yaml no
/// longer reads as numbers but still quotes.
fn is_base60_float(s: &str) -> bool {
    static BASE60: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$").expect("valid pattern")
    });
    BASE60.is_match(s)
}

/// resolve.go's `parseTimestamp`: four digits and `-`, then one of go-yaml's `time.Parse`
/// layouts `2006-1-2T15:4:5.999999999Z07:00` (also with `t`), `2006-1-2 15:4:5.999999999` or
/// `2006-1-2`, read the way Go's time package reads them.
fn is_go_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let year_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if year_digits != 4 || b.get(4) != Some(&b'-') {
        return false;
    }
    [Some(b'T'), Some(b't'), Some(b' '), None]
        .into_iter()
        .any(|separator| matches_timestamp(b, separator).is_some())
}

/// One layout: `separator` is `T`/`t` (time with zone), ` ` (time without zone) or none (date).
fn matches_timestamp(b: &[u8], separator: Option<u8>) -> Option<()> {
    let mut t = TimeText { rest: b };
    let year: u32 = std::str::from_utf8(&b[..4]).ok()?.parse().ok()?;
    t.rest = &b[4..];
    t.literal(b'-')?;
    let month = t.number(1..=12)?;
    t.literal(b'-')?;
    let day = t.number(0..=99)?;
    match separator {
        Some(b' ') => {
            t.spaces()?;
            t.clock()?;
        }
        Some(letter) => {
            t.literal(letter)?;
            t.clock()?;
            t.zone()?;
        }
        None => {}
    }
    (t.rest.is_empty() && day >= 1 && day <= days_in_month(month, year)).then_some(())
}

/// The unread rest of a timestamp, consumed the way Go's `time.Parse` consumes its value.
struct TimeText<'a> {
    rest: &'a [u8],
}

impl TimeText<'_> {
    fn literal(&mut self, c: u8) -> Option<()> {
        let rest = self.rest.strip_prefix(&[c])?;
        self.rest = rest;
        Some(())
    }

    /// A space in the layout: one or more spaces in the value.
    fn spaces(&mut self) -> Option<()> {
        if self.rest.first().is_some_and(|&c| c != b' ') {
            return None;
        }
        while let Some(rest) = self.rest.strip_prefix(b" ") {
            self.rest = rest;
        }
        Some(())
    }

    /// Go's `getnum(value, false)`: one or two digits, then the layout field's range check.
    fn number(&mut self, range: std::ops::RangeInclusive<u32>) -> Option<u32> {
        let digits = self
            .rest
            .iter()
            .take(2)
            .take_while(|c| c.is_ascii_digit())
            .count();
        if digits == 0 {
            return None;
        }
        let value = self.rest[..digits]
            .iter()
            .fold(0, |n, &c| n * 10 + u32::from(c - b'0'));
        self.rest = &self.rest[digits..];
        range.contains(&value).then_some(value)
    }

    /// `15:4:5.999999999`: the fraction is optional and takes every digit after `.` or `,`.
    fn clock(&mut self) -> Option<()> {
        self.number(0..=23)?;
        self.literal(b':')?;
        self.number(0..=59)?;
        self.literal(b':')?;
        self.number(0..=59)?;
        if let [b'.' | b',', d, ..] = self.rest {
            if d.is_ascii_digit() {
                let digits = self.rest[1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
                self.rest = &self.rest[1 + digits..];
            }
        }
        Some(())
    }

    /// `Z07:00`: `Z`, or a sign, two-digit hours up to 24, `:` and two-digit minutes up to 60.
    fn zone(&mut self) -> Option<()> {
        if self.literal(b'Z').is_some() {
            return Some(());
        }
        let [sign, h1, h2, b':', m1, m2, ..] = *self.rest else {
            return None;
        };
        let digits = [h1, h2, m1, m2];
        if !matches!(sign, b'+' | b'-') || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let hours = (h1 - b'0') * 10 + (h2 - b'0');
        let minutes = (m1 - b'0') * 10 + (m2 - b'0');
        self.rest = &self.rest[6..];
        (hours <= 24 && minutes <= 60).then_some(())
    }
}

/// Go's `daysIn`, with the Gregorian leap-year rule.
fn days_in_month(month: u32, year: u32) -> u32 {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 64)` with encode.go's `floatv` names for the
/// non-finite values: shortest digits, exponent form below 1e-4 or from 1e6 on, and an
/// exponent of at least two digits.
fn format_float(f: f64) -> String {
    if f.is_nan() {
        return ".nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.to_string();
    }
    // Rust's `{:e}` and `{}` both print the shortest digits that read back as `f`, as Go does.
    let scientific = format!("{f:e}");
    let Some((mantissa, exponent)) = scientific.split_once('e') else {
        return format!("{f}");
    };
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if (-4..6).contains(&exponent) {
        return format!("{f}");
    }
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn yaml(json_text: &str) -> String {
        let value: Value = serde_json::from_str(json_text).expect("test JSON parses");
        to_yaml(&value)
    }

    /// The document for `{"k": s}`.
    fn under_k(s: &str) -> String {
        to_yaml(&json!({ "k": s }))
    }

    const FOX: &str = "The quick brown fox jumps over the lazy dog";

    fn foxes() -> String {
        [FOX; 4].join(" ")
    }

    #[test]
    fn keys_sort_with_digit_runs_by_value_and_non_letters_first() {
        let got = yaml(r#"{"b":1,"a10":1,"a9":1,"B":1,"_x":1,"a":1,"10":1,"2":1,"1":1}"#);
        assert_eq!(
            got,
            "_x: 1\n\"1\": 1\n\"2\": 1\n\"10\": 1\nB: 1\na: 1\na9: 1\na10: 1\nb: 1\n"
        );
    }

    #[test]
    fn keys_sort_leading_zeros_after_the_same_number() {
        // keyList.Less: equal values, the shorter digit run first.
        assert_eq!(yaml(r#"{"x2":1,"x01":1,"x1":1}"#), "x1: 1\nx01: 1\nx2: 1\n");
    }

    #[test]
    fn keys_sort_non_letters_before_letters_unlike_byte_order() {
        // `{` is above `b` in byte order, but keyList.Less puts any non-letter first.
        assert_eq!(yaml(r#"{"ab":1,"a{":1,"a-":1}"#), "a-: 1\na{: 1\nab: 1\n");
        // Two letters compare as code points, so `é` comes after `z`.
        assert_eq!(yaml(r#"{"é":1,"z":1,"_":1}"#), "_: 1\nz: 1\né: 1\n");
    }

    #[test]
    fn nested_collections_and_empty_ones() {
        let got = yaml(
            r#"{"spec":{"items":[1,[2,3],{"b":[],"a":1},[],{}],"empty":[]},
                "metadata":{"name":"x","labels":{}}}"#,
        );
        let want = "\
metadata:
  labels: {}
  name: x
spec:
  empty: []
  items:
  - 1
  - - 2
    - 3
  - a: 1
    b: []
  - []
  - {}
";
        assert_eq!(got, want);
    }

    #[test]
    fn sequences_match_go_yaml_and_sigs_yaml_tests() {
        // From go-yaml v2's marshalTests and sigs.k8s.io/yaml's JSONToYAML tests.
        assert_eq!(yaml(r#"{"v":["A","B\nC"]}"#), "v:\n- A\n- |-\n  B\n  C\n");
        assert_eq!(
            yaml(r#"{"v":["A",1,{"B":[2,3]}]}"#),
            "v:\n- A\n- 1\n- B:\n  - 2\n  - 3\n"
        );
        assert_eq!(
            yaml(r#"[{"t":"a"},{"t":{"b":1,"c":2}}]"#),
            "- t: a\n- t:\n    b: 1\n    c: 2\n"
        );
        assert_eq!(yaml(r#"{"k":[[1,[2]]]}"#), "k:\n- - 1\n  - - 2\n");
    }

    #[test]
    fn root_scalars_and_empty_collections() {
        assert_eq!(yaml("null"), "null\n");
        assert_eq!(yaml("true"), "true\n");
        assert_eq!(yaml("123"), "123\n");
        assert_eq!(yaml(r#""abc""#), "abc\n");
        assert_eq!(yaml(r#""yes""#), "\"yes\"\n");
        assert_eq!(yaml("[]"), "[]\n");
        assert_eq!(yaml("{}"), "{}\n");
    }

    #[test]
    fn null_and_booleans() {
        assert_eq!(
            yaml(r#"{"a":null,"b":true,"c":false}"#),
            "a: null\nb: true\nc: false\n"
        );
    }

    #[test]
    fn strings_that_resolve_to_other_types_are_double_quoted() {
        let quoted = [
            "True",
            "true",
            "FALSE",
            "yes",
            "Yes",
            "YES",
            "y",
            "n",
            "N",
            "on",
            "Off",
            "No",
            "~",
            "null",
            "Null",
            "NULL",
            "",
            "123",
            "-5",
            "+5",
            "1.5",
            ".5",
            "1.",
            "1e3",
            "0x1F",
            "0o17",
            "017",
            "1_000",
            "1_",
            "0b101",
            ".inf",
            "-.Inf",
            "+.inf",
            ".nan",
            ".NaN",
            "99999999999999999999",
            "2024-01-01T00:00:00Z",
            "2024-01-01",
            "2024-1-2",
            "2024-01-01t10:00:00.5+02:00",
            "2024-1-2 3:04:05.5",
            "2024-02-29",
            // Octal digits fail as an int, but resolve then reads `08` as a decimal float.
            "08",
            // resolve.go's `0b` fallback hands `-1` to ParseInt, which accepts the sign.
            "0b-1",
            // encode.go's isBase60Float.
            "1:20",
            "-1:20:30.5",
        ];
        for s in quoted {
            assert_eq!(under_k(s), format!("k: \"{s}\"\n"), "{s:?}");
        }
    }

    #[test]
    fn near_misses_stay_plain() {
        let plain = [
            "yES",
            "nULL",
            "abc",
            "a#b",
            "a:b",
            "?x",
            ":x",
            "-x",
            "1.2.3",
            "1:61",
            ".Nan",
            "<<",
            "<foo>",
            "0xZZ",
            // Overflowing hex is neither int, uint nor decimal float: a string.
            "0x1FFFFFFFFFFFFFFFF",
            // ParseFloat reports a range error, so resolve falls through to a string.
            "1e400",
            ".5e999",
            // Go's time.Parse: no zone with `T`, an impossible day, a 13th month.
            "2024-01-01T00:00:00",
            "2024-02-30",
            "2023-02-29",
            "2024-13-01",
            "say \"hi\"",
            "it's",
            "a\\b",
            "héllo wörld",
            "a\u{a0}b",
            "\u{fffd}",
            "你好",
        ];
        for s in plain {
            assert_eq!(under_k(s), format!("k: {s}\n"), "{s:?}");
        }
    }

    #[test]
    fn indicators_and_edge_spaces_single_quote() {
        let single = [
            "Unready resources: a, b, and c",
            "- x",
            "-",
            "#x",
            "a #b",
            "key:",
            ": x",
            "? x",
            "*x",
            "&x",
            "!x",
            "%x",
            "@x",
            "`x",
            "|x",
            ">x",
            "[x",
            "]x",
            "{x",
            "}x",
            ",x",
            "\"x\"",
            "---",
            "--- x",
            "...",
            " lead",
            "trail ",
            "你好 #comment",
        ];
        for s in single {
            assert_eq!(under_k(s), format!("k: '{s}'\n"), "{s:?}");
        }
        assert_eq!(under_k("'x'"), "k: '''x'''\n");
        assert_eq!(under_k("it's: here"), "k: 'it''s: here'\n");
    }

    #[test]
    fn special_characters_are_escaped_in_double_quotes() {
        let cases = [
            ("a\tb", r#""a\tb""#),
            ("\u{0}", r#""\0""#),
            ("\u{1}", r#""\x01""#),
            ("\u{7f}", r#""\x7F""#),
            ("\u{1b}[0m", r#""\e[0m""#),
            ("a\rb", r#""a\rb""#),
            ("\u{85}", r#""\N""#),
            ("\u{9f}x", r#""\x9Fx""#),
            ("\u{ffff}", r#""\uFFFF""#),
            ("\t\\\"", r#""\t\\\"""#),
            // yamlprivateh.go's is_printable rejects every 4-byte UTF-8 sequence.
            ("😀 ok", r#""\U0001F600 ok""#),
            // is_bom looks at the start of the text for every character, so all are escaped.
            ("\u{feff}a b", r#""\uFEFF\x61\x20\x62""#),
        ];
        for (s, want) in cases {
            assert_eq!(under_k(s), format!("k: {want}\n"), "{s:?}");
        }
    }

    #[test]
    fn line_and_paragraph_separators_are_breaks_in_single_quotes() {
        // LS is printable but a break: plain is refused, single quotes take it, and
        // write_single_quoted indents the text after it.
        assert_eq!(under_k("a\u{2028}b"), "k: 'a\u{2028}  b'\n");
        assert_eq!(under_k("\u{2029}"), "k: '\u{2029}'\n");
    }

    #[test]
    fn multi_line_strings_are_literal_blocks() {
        assert_eq!(under_k("a\nb\n"), "k: |\n  a\n  b\n");
        assert_eq!(under_k("a\nb"), "k: |-\n  a\n  b\n");
        assert_eq!(yaml(r#"{"k":"a\n\n","z":1}"#), "k: |+\n  a\n\nz: 1\n");
        assert_eq!(under_k("  x\ny"), "k: |2-\n    x\n  y\n");
        assert_eq!(under_k("\nx"), "k: |2-\n\n  x\n");
        assert_eq!(under_k("\n"), "k: |2+\n\n");
        assert_eq!(under_k("a\n b"), "k: |-\n  a\n   b\n");
        assert_eq!(
            yaml(r#"{"a":{"b":"x\ny\n"}}"#),
            "a:\n  b: |\n    x\n    y\n"
        );
        assert_eq!(yaml(r#""a\nb""#), "|-\n  a\n  b\n");
        let long = format!("{}\nend", foxes());
        assert_eq!(under_k(&long), format!("k: |-\n  {}\n  end\n", foxes()));
    }

    #[test]
    fn multi_line_strings_that_cannot_be_blocks_are_double_quoted() {
        // A space before a break, a trailing space or a special character rules out `|`.
        assert_eq!(under_k("a \nb"), "k: \"a \\nb\"\n");
        assert_eq!(under_k("a\nb "), "k: \"a\\nb \"\n");
        assert_eq!(under_k("a\tb\nc"), "k: \"a\\tb\\nc\"\n");
    }

    #[test]
    fn multi_line_and_long_keys_are_complex_keys() {
        assert_eq!(yaml(r#"{"a\nb":1}"#), "? |-\n  a\n  b\n: 1\n");
        let key = "k".repeat(MAX_SIMPLE_KEY_BYTES);
        assert_eq!(to_yaml(&json!({ key.clone(): 1 })), format!("{key}: 1\n"));
        let key = "k".repeat(MAX_SIMPLE_KEY_BYTES + 1);
        assert_eq!(
            to_yaml(&json!({ key.clone(): [1] })),
            format!("? {key}\n: - 1\n")
        );
    }

    #[test]
    fn keys_are_never_folded() {
        let key = [FOX, FOX].join(" ");
        assert_eq!(to_yaml(&json!({ key.clone(): "v" })), format!("{key}: v\n"));
    }

    #[test]
    fn long_plain_strings_fold_after_column_80() {
        assert_eq!(
            under_k(&foxes()),
            "k: The quick brown fox jumps over the lazy dog The quick brown fox jumps over the\n  \
             lazy dog The quick brown fox jumps over the lazy dog The quick brown fox jumps over\n  \
             the lazy dog\n"
        );
        assert_eq!(
            to_yaml(&json!(foxes())),
            "The quick brown fox jumps over the lazy dog The quick brown fox jumps over the lazy\n  \
             dog The quick brown fox jumps over the lazy dog The quick brown fox jumps over the\n  \
             lazy dog\n"
        );
        assert_eq!(
            to_yaml(&json!({ "items": [foxes()] })),
            "items:\n- The quick brown fox jumps over the lazy dog The quick brown fox jumps over the lazy\n  \
             dog The quick brown fox jumps over the lazy dog The quick brown fox jumps over the\n  \
             lazy dog\n"
        );
        assert_eq!(
            to_yaml(&json!({ "a": { "b": { "c": foxes() } } })),
            "a:\n  b:\n    c: The quick brown fox jumps over the lazy dog The quick brown fox jumps over\n      \
             the lazy dog The quick brown fox jumps over the lazy dog The quick brown fox\n      \
             jumps over the lazy dog\n"
        );
    }

    #[test]
    fn folding_matches_sigs_yaml_and_go_yaml_tests() {
        assert_eq!(
            yaml(
                r#"{"t":"this is very long line with spaces and it must be longer than 80 so we will repeat that it must be longer that 80"}"#
            ),
            "t: this is very long line with spaces and it must be longer than 80 so we will repeat\n  \
             that it must be longer that 80\n"
        );
        let alphabet = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 1234567890 ";
        assert_eq!(
            to_yaml(&json!({ "a": alphabet.repeat(2) })),
            "a: 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 1234567890 abcdefghijklmnopqrstuvwxyz\n  \
             ABCDEFGHIJKLMNOPQRSTUVWXYZ 1234567890 '\n"
        );
    }

    #[test]
    fn long_single_quoted_strings_fold() {
        let names: Vec<String> = (0..20).map(|i| format!("bucket-{i}")).collect();
        let message = format!("Unready resources: {}", names.join(", "));
        assert_eq!(
            to_yaml(&json!({ "message": message })),
            "message: 'Unready resources: bucket-0, bucket-1, bucket-2, bucket-3, bucket-4, bucket-5,\n  \
             bucket-6, bucket-7, bucket-8, bucket-9, bucket-10, bucket-11, bucket-12, bucket-13,\n  \
             bucket-14, bucket-15, bucket-16, bucket-17, bucket-18, bucket-19'\n"
        );
    }

    #[test]
    fn long_double_quoted_strings_fold() {
        // write_double_quoted breaks at the first space once past column 80: here after `the`
        // at column 84, not after `over` at exactly 80.
        let text = format!("\t{FOX} {FOX}  tail end");
        assert_eq!(
            under_k(&text),
            "k: \"\\tThe quick brown fox jumps over the lazy dog The quick brown fox jumps over the\n  \
             lazy dog  tail end\"\n"
        );
    }

    #[test]
    fn double_quoted_fold_before_two_spaces_escapes_the_second() {
        // The fold eats one space; write_double_quoted puts `\` before the next so the
        // continuation line does not lose it to indentation.
        let text = format!("\t{}  y z", "x".repeat(80));
        assert_eq!(
            under_k(&text),
            format!("k: \"\\t{}\n  \\ y z\"\n", "x".repeat(80))
        );
    }

    #[test]
    fn numbers_keep_go_yaml_int_and_float_types() {
        // `j` overflows float64, so go-yaml keeps the text as a string (serde_json has already
        // written its exponent as `e+`). The key `n` is quoted: YAML 1.1 reads it as false.
        let got = yaml(
            r#"{"a":3,"b":3.5,"c":1e+21,"d":-0,"e":1e-07,"f":9223372036854775808,
                "g":18446744073709551616,"h":-9223372036854775809,"i":1.0,"j":1e+400,
                "k":100000,"l":1000000,"l2":1000000.0,"m":0.0001,"n":0.00001,"o":-0.0,"p":1E5,
                "q":9007199254740993,"r":1000000000000000000000000000000000000,
                "s":-9223372036854775808,"t":0.1}"#,
        );
        let want = "\
a: 3
b: 3.5
c: 1e+21
d: 0
e: 1e-07
f: 9223372036854775808
g: 1.8446744073709552e+19
h: -9.223372036854776e+18
i: 1
j: 1e+400
k: 100000
l: 1000000
l2: 1e+06
m: 0.0001
\"n\": 1e-05
o: -0
p: 100000
q: 9007199254740993
r: 1e+36
s: -9223372036854775808
t: 0.1
";
        assert_eq!(got, want);
    }

    #[test]
    fn number_like_keys_are_quoted() {
        // sigs.k8s.io/yaml's JSONToYAML tests.
        assert_eq!(yaml(r#"{"true":"a"}"#), "\"true\": a\n");
        assert_eq!(yaml(r#"{"1.2":"a"}"#), "\"1.2\": a\n");
        assert_eq!(yaml(r#"{"1e+36":"a"}"#), "\"1e+36\": a\n");
        assert_eq!(yaml(r#"{"":"a"}"#), "\"\": a\n");
    }

    #[test]
    fn floats_format_like_strconv_g() {
        for (f, want) in [
            (0.0, "0"),
            (-0.0, "-0"),
            (1e-4, "0.0001"),
            (1e-5, "1e-05"),
            (123456.0, "123456"),
            (1234567.0, "1.234567e+06"),
            (1e100, "1e+100"),
            (f64::INFINITY, ".inf"),
            (f64::NEG_INFINITY, "-.inf"),
            (f64::NAN, ".nan"),
        ] {
            assert_eq!(format_float(f), want, "{f}");
        }
    }

    #[test]
    fn deep_nesting_does_not_fail() {
        let json_text = format!("{}1{}", "[".repeat(100), "]".repeat(100));
        let got = yaml(&json_text);
        assert!(got.ends_with("- 1\n"), "{got}");
    }
}
