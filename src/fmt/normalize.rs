//! function-hcl's `StandardizeObjectLiterals`: `key: value` inside object literals becomes
//! `key = value` (`function/internal/format`), decided per attribute with a context stack so
//! that the colons of `for` expressions and conditionals stay.
//!
//! Every attribute of every body is walked on its own: `{` pushes an object, `?` a
//! conditional, the identifier `for` a `for` expression; `}` must close an object; a `:`
//! directly inside an object becomes `=`, one inside a `for` or a conditional ends it. When
//! the walk finds something it cannot place, that attribute is left as it is — as
//! function-hcl does (including its blind spot: a `%{ for }` template directive pushes a `for`
//! that no colon ends).

use crate::syntax::ast::Body;
use crate::syntax::lex::{Token, TokenKind, lex, tokens};
use crate::syntax::parse::TopItem;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Object,
    For,
    Conditional,
}

/// The text with the object-literal colons of every attribute of `body` (the parse of
/// `text`) replaced by `=`. Only those bytes change.
pub fn normalize(text: &str, body: &Body) -> String {
    let mut ranges = Vec::new();
    attribute_ranges(body, &mut ranges);
    normalize_ranges(text, &mut ranges)
}

/// The ranges [`normalize`] rewrites inside one top-level item (what
/// [`crate::syntax::parse::check_file`] hands over), added to `out`.
pub(super) fn item_ranges(item: TopItem<'_>, out: &mut Vec<(u32, u32)>) {
    match item {
        TopItem::Block(block) => attribute_ranges(&block.body, out),
        TopItem::Attribute(attr) => out.push((attr.equals.end, attr.expr.span.end)),
    }
}

/// [`normalize`] given the byte ranges of the attributes' expressions instead of the tree
/// (sorted here).
pub(super) fn normalize_ranges(text: &str, ranges: &mut [(u32, u32)]) -> String {
    ranges.sort_unstable();
    let mut bytes = text.as_bytes().to_vec();
    let mut rewrite = |inside: &[Token]| {
        if let Some(colons) = object_colons(inside, text) {
            for colon in colons {
                bytes[colon] = b'=';
            }
        }
    };
    // Attributes' ranges are apart (at least a name and an `=` between two), so one pass of
    // the token stream finds each one's tokens in turn; should two ever touch, the token
    // table and a binary search per range give the same tokens.
    if ranges.windows(2).all(|w| w[0].1 < w[1].0) {
        let mut stream = tokens(text).peekable();
        let mut inside = Vec::new();
        for &(start, end) in ranges.iter() {
            while stream.next_if(|t| t.start < start).is_some() {}
            inside.clear();
            while let Some(t) = stream.next_if(|t| t.end <= end) {
                inside.push(t);
            }
            rewrite(&inside);
        }
    } else {
        let tokens = lex(text);
        for &(start, end) in ranges.iter() {
            // Tokens are in source order and do not overlap: an attribute's are one run,
            // found by binary search (a linear filter per attribute made large files
            // quadratic).
            let first = tokens.partition_point(|t| t.start < start);
            let count = tokens[first..].partition_point(|t| t.end <= end);
            rewrite(&tokens[first..first + count]);
        }
    }
    // Only ASCII `:` bytes were replaced by ASCII `=`, so the text is still UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
}

/// The byte range of every attribute's expression (after its `=`), blocks' bodies included.
fn attribute_ranges(body: &Body, out: &mut Vec<(u32, u32)>) {
    for block in &body.blocks {
        attribute_ranges(&block.body, out);
    }
    for attr in &body.attributes {
        out.push((attr.equals.end, attr.expr.span.end));
    }
}

/// The offsets of the colons to rewrite in one attribute, or `None` when function-hcl would
/// give up on it.
fn object_colons(tokens: &[Token], text: &str) -> Option<Vec<usize>> {
    let mut stack: Vec<Option<Context>> = vec![None];
    let mut colons = Vec::new();
    for t in tokens {
        match t.kind {
            TokenKind::OBrace => stack.push(Some(Context::Object)),
            TokenKind::Question => stack.push(Some(Context::Conditional)),
            TokenKind::Ident if t.text(text) == "for" => stack.push(Some(Context::For)),
            TokenKind::CBrace => {
                if stack.last().copied().flatten() != Some(Context::Object) {
                    return None;
                }
                stack.pop();
            }
            TokenKind::Colon => match stack.last().copied().flatten() {
                Some(Context::Object) => colons.push(t.start as usize),
                Some(Context::For | Context::Conditional) => {
                    stack.pop();
                }
                None => return None,
            },
            _ => {}
        }
    }
    Some(colons)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceMap;
    use crate::syntax::parse_file;

    fn norm(text: &str) -> String {
        let mut map = SourceMap::new();
        let id = map.add("t.hcl", text);
        let parsed = parse_file(map.get(id));
        assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
        normalize(text, &parsed.body)
    }

    #[test]
    fn object_colons_become_equals_but_others_stay() {
        assert_eq!(norm("a = { name: \"x\" }\n"), "a = { name= \"x\" }\n");
        assert_eq!(
            norm("a = { for k, v in m : k => { n: v } }\n"),
            "a = { for k, v in m : k => { n= v } }\n"
        );
        assert_eq!(norm("a = c ? { x: 1 } : {}\n"), "a = c ? { x= 1 } : {}\n");
        assert_eq!(norm("a = \"k: v\"\n"), "a = \"k: v\"\n");
        assert_eq!(
            norm("r x {\n  body = { kind: \"B\", m: { n: 1 } }\n}\n"),
            "r x {\n  body = { kind= \"B\", m= { n= 1 } }\n}\n"
        );
    }

    #[test]
    fn touching_ranges_rewrite_as_apart_ones() {
        let text = "a = { x: 1 }\nb = { y: { z: 2 } }\nc = \"k: v\"\n";
        let mut map = SourceMap::new();
        let id = map.add("t.hcl", text);
        let parsed = parse_file(map.get(id));
        let mut ranges = Vec::new();
        attribute_ranges(&parsed.body, &mut ranges);
        let apart = normalize_ranges(text, &mut ranges.clone());
        assert_eq!(apart, "a = { x= 1 }\nb = { y= { z= 2 } }\nc = \"k: v\"\n");
        // The same ranges plus one that touches another take the token table's way.
        ranges.push((ranges[0].1, ranges[0].1 + 1));
        assert_eq!(normalize_ranges(text, &mut ranges), apart);
    }

    #[test]
    fn a_template_for_directive_leaves_the_attribute_alone() {
        let text = "a = { x: \"%{ for i in l }${i}%{ endfor }\" }\n";
        assert_eq!(norm(text), text);
    }
}
