//! L5: the canonical formatter — Go's `hclwrite.Format` on our lossless token stream, plus
//! function-hcl's optional rewrite of object-literal `:` to `=` ([`normalize`]).
//!
//! Formatting changes only the spaces before tokens: it never changes a token's text, never
//! adds or removes a line, and leaves heredoc bodies, comments and string text alone. Three
//! passes, as hclwrite's: indentation by bracket nesting per line, the spacing rules between
//! neighbouring tokens, then alignment of `=` and of trailing comments across consecutive
//! lines.

pub mod files;
mod normalize;

pub use normalize::normalize;

use crate::syntax::lex::{Token, TokenKind, tokens as lex_tokens};
use std::ops::Range;
use unicode_segmentation::UnicodeSegmentation;

/// A token and the spaces hclwrite writes before it (16 bytes: the formatter keeps one per
/// token of the file).
#[derive(Clone, Copy, Debug)]
struct Tok {
    token: Token,
    spaces: u32,
}

impl Tok {
    fn kind(&self) -> TokenKind {
        self.token.kind
    }
}

/// One line split into hclwrite's three cells (ranges of token indexes; `u32` as the
/// tokens' offsets, so a line takes 32 bytes).
#[derive(Clone, Debug, Default)]
struct Line {
    lead: Range<u32>,
    assign: Option<Range<u32>>,
    comment: Option<Range<u32>>,
}

/// A range of token indexes as a slice range.
fn cell(range: &Range<u32>) -> Range<usize> {
    range.start as usize..range.end as usize
}

/// A token index or a count of spaces as stored (token offsets are `u32`, so are these).
fn small(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Formats HCL source text as Go's `hclwrite.Format` does. Works on any input, valid or not.
pub fn format(text: &str) -> String {
    format_sized(text, text.len() / 4 + 1)
}

/// [`format`], with room for `capacity` tokens from the start (a table that grew by doubling
/// would hold up to twice the memory).
pub(crate) fn format_sized(text: &str, capacity: usize) -> String {
    let (mut toks, line_ends) = tokens(text, capacity);
    let lines = lines(&toks, text, line_ends);
    indent(&mut toks, &lines);
    space(&mut toks, &lines, text);
    align(&mut toks, &lines, text);
    drop(lines);
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for t in &toks {
        out.extend(std::iter::repeat_n(' ', t.spaces as usize));
        out.push_str(t.token.text(text));
    }
    out
}

/// hclwrite's `lexConfig`: every token with the number of bytes between it and the previous
/// one as its spaces; and how many tokens end a line (to size the table of lines).
fn tokens(text: &str, capacity: usize) -> (Vec<Tok>, usize) {
    let mut last = 0u32;
    let mut line_ends = 0;
    let mut toks = Vec::with_capacity(capacity);
    toks.extend(lex_tokens(text).map(|token| {
        let spaces = token.start.saturating_sub(last);
        last = token.end;
        let tok = Tok { token, spaces };
        line_ends += usize::from(ends_line(&tok, text));
        tok
    }));
    (toks, line_ends)
}

/// A newline token, or a `#`/`//` comment (which holds its newline).
fn ends_line(t: &Tok, text: &str) -> bool {
    match t.kind() {
        TokenKind::Newline => true,
        TokenKind::Comment => t.token.text(text).ends_with('\n'),
        _ => false,
    }
}

/// hclwrite's `tokenBracketChange`.
fn bracket_change(kind: TokenKind) -> i64 {
    match kind {
        TokenKind::OBrace
        | TokenKind::OBrack
        | TokenKind::OParen
        | TokenKind::TemplateControl
        | TokenKind::TemplateInterp => 1,
        TokenKind::CBrace | TokenKind::CBrack | TokenKind::CParen | TokenKind::TemplateSeqEnd => -1,
        _ => 0,
    }
}

/// hclwrite's `linesForFormat`: lines, each split into lead, assign and comment cells.
/// `line_ends` tokens end a line: one line each, and at most two more.
fn lines(toks: &[Tok], text: &str, line_ends: usize) -> Vec<Line> {
    let mut out = Vec::with_capacity(line_ends + 2);
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        if t.kind() == TokenKind::Eof {
            out.push(Line {
                lead: small(start)..small(i),
                ..Line::default()
            });
            start = toks.len();
            break;
        }
        if ends_line(t, text) {
            out.push(Line {
                lead: small(start)..small(i + 1),
                ..Line::default()
            });
            start = i + 1;
        }
    }
    if start < toks.len() {
        out.push(Line {
            lead: small(start)..small(toks.len()),
            ..Line::default()
        });
    }
    for line in &mut out {
        split_cells(line, toks);
    }
    out
}

fn split_cells(line: &mut Line, toks: &[Tok]) {
    let lead = cell(&line.lead);
    if lead.is_empty() {
        return;
    }
    if lead.len() > 1 && toks[lead.end - 1].kind() == TokenKind::Comment {
        line.comment = Some(small(lead.end - 1)..small(lead.end));
        line.lead = small(lead.start)..small(lead.end - 1);
    }
    let lead = cell(&line.lead);
    for i in lead.clone().skip(1) {
        if toks[i].kind() == TokenKind::Equal {
            let net: i64 = toks[i..lead.end]
                .iter()
                .map(|t| bracket_change(t.kind()))
                .sum();
            if net == 0 {
                line.assign = Some(small(i)..small(lead.end));
                line.lead = small(lead.start)..small(i);
            }
            break;
        }
    }
}

/// Pass 1: indentation by the net bracket count of each line.
fn indent(toks: &mut [Tok], lines: &[Line]) {
    let mut stack: Vec<i64> = Vec::new();
    for line in lines {
        if line.lead.is_empty() {
            continue;
        }
        let first = line.lead.start as usize;
        if toks[first].kind() == TokenKind::Newline {
            toks[first].spaces = 0;
            continue;
        }
        let mut net = 0;
        for t in &toks[cell(&line.lead)] {
            net += bracket_change(t.kind());
            if t.kind() == TokenKind::OHeredoc {
                break;
            }
        }
        if let Some(assign) = &line.assign {
            net += toks[cell(assign)]
                .iter()
                .map(|t| bracket_change(t.kind()))
                .sum::<i64>();
        }
        if net > 0 {
            toks[first].spaces = small(2 * stack.len());
            stack.push(net);
            continue;
        }
        let mut closed = -net;
        while closed > 0 {
            let Some(top) = stack.last_mut() else { break };
            if closed >= *top {
                closed -= *top;
                stack.pop();
            } else {
                *top -= closed;
                closed = 0;
            }
        }
        toks[first].spaces = small(2 * stack.len());
    }
}

/// Pass 2: the spaces between neighbouring tokens of a cell.
fn space(toks: &mut [Tok], lines: &[Line], text: &str) {
    for line in lines {
        space_cell(toks, cell(&line.lead), false, text);
        if let Some(assign) = &line.assign {
            space_cell(toks, cell(assign), true, text);
        }
    }
}

fn space_cell(toks: &mut [Tok], cell: Range<usize>, is_assign: bool, text: &str) {
    if cell.is_empty() {
        return;
    }
    if is_assign {
        toks[cell.start].spaces = 1;
    }
    for i in cell.start..cell.end - 1 {
        let before = (i > cell.start).then(|| toks[i - 1]);
        let space = space_after(&toks[i], before.as_ref(), &toks[i + 1], text);
        toks[i + 1].spaces = u32::from(space);
    }
}

/// hclwrite's `spaceAfterToken`: whether `after` gets a space, given the token `subject`
/// before it and the one before that (`None` at the start of a cell).
fn space_after(subject: &Tok, before: Option<&Tok>, after: &Tok, text: &str) -> bool {
    use TokenKind as K;
    let (s, a) = (subject.kind(), after.kind());
    match () {
        _ if a == K::Newline => false,
        _ if s == K::Ident && a == K::OParen => false,
        _ if (s == K::Ident && a == K::DoubleColon) || (s == K::DoubleColon && a == K::Ident) => {
            false
        }
        _ if s == K::Dot || a == K::Dot => false,
        _ if a == K::Comma || a == K::Ellipsis => false,
        _ if s == K::Comma => true,
        _ if matches!(s, K::QuotedLit | K::StringLit | K::OQuote | K::OHeredoc)
            || matches!(a, K::QuotedLit | K::StringLit | K::CQuote | K::CHeredoc) =>
        {
            false
        }
        _ if s == K::Ident
            && subject.token.text(text) == "in"
            && before.is_some_and(|b| b.kind() == K::Ident) =>
        {
            true
        }
        _ if a == K::OBrack && (s == K::Ident || s == K::NumberLit || bracket_change(s) < 0) => {
            false
        }
        _ if s == K::Bang => false,
        _ if s == K::Minus => minus_is_binary(before.map(Tok::kind)),
        _ if s == K::OBrace || a == K::CBrace => !(s == K::OBrace && a == K::CBrace),
        _ if matches!(s, K::TemplateInterp | K::TemplateControl) && a == K::OBrace => true,
        _ if s == K::CBrace && a == K::TemplateSeqEnd => true,
        _ if s == K::TemplateSeqEnd && matches!(a, K::TemplateInterp | K::TemplateControl) => false,
        _ if bracket_change(s) > 0 => false,
        _ if bracket_change(a) < 0 => false,
        _ => true,
    }
}

/// A minus is a negation (no space after it) unless what comes before could end an
/// expression.
fn minus_is_binary(before: Option<TokenKind>) -> bool {
    use TokenKind as K;
    !matches!(
        before,
        None | Some(
            K::OParen
                | K::OBrace
                | K::OBrack
                | K::Equal
                | K::Colon
                | K::Comma
                | K::Question
                | K::Plus
                | K::Star
                | K::Slash
                | K::Percent
                | K::Minus
                | K::EqualOp
                | K::NotEqual
                | K::GreaterThan
                | K::GreaterThanEq
                | K::LessThan
                | K::LessThanEq
                | K::And
                | K::Or
                | K::Bang
        )
    )
}

/// The width of a cell: spaces plus grapheme clusters of the tokens.
fn columns(toks: &[Tok], range: &Range<u32>, text: &str) -> usize {
    toks[cell(range)]
        .iter()
        .map(|t| t.spaces as usize + t.token.text(text).graphemes(true).count())
        .sum()
}

/// Pass 3: `=` aligned across consecutive assignment lines, then trailing comments across
/// consecutive commented lines.
fn align(toks: &mut [Tok], lines: &[Line], text: &str) {
    let assigns: Vec<Option<u32>> = lines
        .iter()
        .map(|l| l.assign.as_ref().map(|a| a.start))
        .collect();
    align_chains(toks, lines, &assigns, text, |toks, line, text| {
        columns(toks, &line.lead, text)
    });
    let comments: Vec<Option<u32>> = lines
        .iter()
        .map(|l| l.comment.as_ref().map(|c| c.start))
        .collect();
    align_chains(toks, lines, &comments, text, |toks, line, text| {
        columns(toks, &line.lead, text) + line.assign.as_ref().map_or(0, |a| columns(toks, a, text))
    });
}

/// For each run of consecutive lines that have a cell (`cells[i]` is its first token),
/// puts that token one space after the widest `width` of the run.
fn align_chains(
    toks: &mut [Tok],
    lines: &[Line],
    cells: &[Option<u32>],
    text: &str,
    width: impl Fn(&[Tok], &Line, &str) -> usize,
) {
    let mut i = 0;
    while i < lines.len() {
        if cells[i].is_none() {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && cells[i].is_some() {
            i += 1;
        }
        let widths: Vec<usize> = (start..i).map(|k| width(toks, &lines[k], text)).collect();
        let max = widths.iter().copied().max().unwrap_or(0);
        for (k, w) in (start..i).zip(widths) {
            if let Some(first) = cells[k] {
                toks[first as usize].spaces = small(max - w + 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacing_indentation_and_alignment_follow_hclwrite() {
        assert_eq!(format("x = [ 1,2 ,3 ]\n"), "x = [1, 2, 3]\n");
        assert_eq!(format("a={a=1}\n"), "a = { a = 1 }\n");
        assert_eq!(format("a = f (x)\n"), "a = f(x)\n");
        assert_eq!(format("a = b ==c&&!d||e\n"), "a = b == c && !d || e\n");
        assert_eq!(format("m = m*-1\n"), "m = m * -1\n");
        assert_eq!(format("kind: \"Bucket\"\n"), "kind : \"Bucket\"\n");
        assert_eq!(format("a = 1\nbungle = 2\n"), "a      = 1\nbungle = 2\n");
        assert_eq!(
            format("a = 1 # foo\nbungle = \"bonce\" # baz\n"),
            "a      = 1       # foo\nbungle = \"bonce\" # baz\n"
        );
        assert_eq!(
            format("b {\n\tc = 1\n  d {\ne = [\n1,\n]\n}\n}\n"),
            "b {\n  c = 1\n  d {\n    e = [\n      1,\n    ]\n  }\n}\n"
        );
        assert_eq!(format("  \n\na = 1   "), "\n\na = 1   ");
    }

    #[test]
    fn same_tokens_ignores_spaces_only() {
        assert!(same_tokens("a=[1,2]\n", "a = [1, 2]\n"));
        assert!(same_tokens("", ""));
        assert!(!same_tokens("a = 1\n", "a = 1\nb"));
        assert!(!same_tokens("a = 1\nb", "a = 1\n"));
        assert!(!same_tokens("a = 1\n", "a = 2\n"));
        assert!(!same_tokens("a = \"x y\"\n", "a = \"x  y\"\n"));
    }
}

/// Why a file was not formatted.
#[derive(Clone, Debug)]
pub enum FormatError {
    /// It has syntax errors (these diagnostics); it is left as it is.
    Syntax(Vec<crate::diagnostics::Diagnostic>),
    /// Formatting would have changed more than whitespace (a bug; the file is left alone).
    Unsafe,
}

/// Formats a file's text the way `fn-hcl-tools fmt` does: nothing when it does not parse,
/// else the optional object-literal rewrite, then [`format`]. The result is checked to
/// differ from the input only in spaces (and the rewritten colons).
pub fn format_file(
    file: &crate::source::SourceFile,
    normalize_literals: bool,
) -> Result<String, FormatError> {
    // The syntax check keeps no tree: of each top-level item only the attribute ranges the
    // rewrite needs, so the file's text and one token table are all that is held at a time.
    let mut ranges = Vec::new();
    let checked = crate::syntax::parse::check_file(file, &mut |item| {
        if normalize_literals {
            normalize::item_ranges(item, &mut ranges);
        }
    });
    if checked.has_errors() {
        return Err(FormatError::Syntax(checked.diagnostics));
    }
    let text = file.text();
    let source = if normalize_literals {
        std::borrow::Cow::Owned(normalize::normalize_ranges(text, &mut ranges))
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    drop(ranges);
    let out = format_sized(&source, checked.tokens);
    if same_tokens(&source, &out) {
        Ok(out)
    } else {
        Err(FormatError::Unsafe)
    }
}

/// Whether two texts have the same tokens (kinds and texts), whatever the spaces between.
pub fn same_tokens(a: &str, b: &str) -> bool {
    // Two token streams side by side: no table of either text's tokens.
    let (mut ta, mut tb) = (lex_tokens(a), lex_tokens(b));
    loop {
        match (ta.next(), tb.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x.kind == y.kind && x.text(a) == y.text(b) => {}
            _ => return false,
        }
    }
}
