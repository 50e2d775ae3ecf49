//! Templates (expression_template.go) and cty's `ctystrings.SafeKnownPrefix` for the prefix
//! of a partly unknown template.

use super::{Diags, Run, has_errors};
use crate::eval::convert;
use crate::eval::scope::Scope;
use crate::eval::types::Type;
use crate::eval::value::{Refinement, Value};
use crate::syntax::ast::Expr;
use std::collections::HashSet;
use std::sync::OnceLock;
use unicode_normalization::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;

impl Run<'_> {
    pub(super) fn template(&mut self, parts: &[Expr], scope: &Scope) -> (Value, Diags) {
        // The parts' texts, joined once at the end into a string of exactly their length
        // (growing one string part by part kept up to twice the result allocated).
        let mut pieces: Vec<String> = Vec::new();
        let mut total = 0usize;
        let mut diags = Vec::new();
        let mut is_known = true;
        for part in parts {
            let (val, part_diags) = self.eval(part, scope);
            diags.extend(part_diags);
            if val.is_null() {
                diags.push(self.diag_expr(
                    "Invalid template interpolation value",
                    "The expression result is null. Cannot include a null value in a string template.",
                    &part.span,
                ));
                continue;
            }
            if !val.is_known() {
                is_known = false;
                continue;
            }
            match convert::convert(&val, &Type::String) {
                Ok(s) => {
                    if is_known
                        && !has_errors(&diags)
                        && let Value::String(s) = s
                    {
                        let len = total + s.len();
                        if len > crate::eval::functions::MAX_STRING_BYTES {
                            diags.push(self.diag_expr(
                                "Template too long",
                                format!(
                                    "The template's {}.",
                                    crate::eval::functions::string_too_long(len)
                                ),
                                &part.span,
                            ));
                            continue;
                        }
                        if let Err(message) = crate::eval::budget::charge(s.len()) {
                            diags.push(self.diag_expr(
                                "Template too long",
                                format!("The template cannot be built: {message}."),
                                &part.span,
                            ));
                            continue;
                        }
                        total = len;
                        pieces.push(s);
                    }
                }
                Err(err) => diags.push(self.diag_expr(
                    "Invalid template interpolation value",
                    format!("Cannot include the given value in a string template: {err}."),
                    &part.span,
                )),
            }
        }
        let mut buf = String::with_capacity(total);
        for piece in pieces {
            buf.push_str(&piece);
        }
        if is_known {
            return (Value::string_owned(buf), diags);
        }
        let mut refinement = Refinement {
            not_null: true,
            string_prefix: None,
        };
        if !has_errors(&diags) && !buf.is_empty() {
            let prefix = safe_known_prefix(&buf, 128);
            if !prefix.is_empty() {
                refinement.string_prefix = Some(prefix);
            }
        }
        (Value::Unknown(Type::String, refinement), diags)
    }

    pub(super) fn template_join(
        &mut self,
        expr: &Expr,
        inner: &Expr,
        scope: &Scope,
    ) -> (Value, Diags) {
        let (tuple, mut diags) = self.eval(inner, scope);
        if tuple.ty() == Type::Dynamic || !tuple.is_known() || !matches!(tuple, Value::Tuple(_)) {
            return (Value::unknown(Type::String), diags);
        }
        let mut buf = String::new();
        for val in tuple.elements() {
            crate::eval::deadline::checkpoint();
            if val.is_null() {
                diags.push(self.diag(
                    "Invalid template interpolation value",
                    "An iteration result is null. Cannot include a null value in a string template.",
                    &expr.span,
                ));
                continue;
            }
            if val.ty() == Type::Dynamic {
                return (Value::unknown(Type::String), diags);
            }
            let s = match convert::convert(val, &Type::String) {
                Ok(s) => s,
                Err(err) => {
                    diags.push(self.diag(
                        "Invalid template interpolation value",
                        format!("Cannot include one of the interpolation results into the string template: {err}."),
                        &expr.span,
                    ));
                    continue;
                }
            };
            if !val.is_known() {
                return (Value::unknown(Type::String), diags);
            }
            if let Value::String(s) = &s {
                buf.push_str(s);
            }
        }
        (Value::string(buf), diags)
    }
}

/// The first `max` bytes of `s` trimmed as `SafeKnownPrefix` trims: never ending in a
/// character a following one could combine with, nor in a grapheme cluster that could grow.
pub(crate) fn safe_known_prefix(s: &str, max: usize) -> String {
    let normalized: String = s.nfc().collect();
    let mut cut = normalized.len().min(max);
    let truncated_mid_char = !normalized.is_char_boundary(cut);
    while !normalized.is_char_boundary(cut) {
        cut -= 1;
    }
    let prefix = &normalized[..cut];
    match nfc_last_boundary(prefix) {
        // Go's bytes end in a partial character here, so any boundary found is final.
        Some(b) if truncated_mid_char || b != prefix.len() => return prefix[..b].to_string(),
        _ => {}
    }
    let Some(last) = prefix.graphemes(true).next_back() else {
        return String::new();
    };
    let mut chars = last.chars();
    let single_delimiter = matches!(
        (chars.next(), chars.next()),
        (
            Some(
                '-' | '_'
                    | ':'
                    | ';'
                    | '/'
                    | '\\'
                    | ','
                    | '.'
                    | '('
                    | ')'
                    | '{'
                    | '}'
                    | '['
                    | ']'
                    | '|'
                    | '?'
                    | '!'
                    | '~'
                    | ' '
                    | '\t'
                    | '@'
                    | '#'
                    | '$'
                    | '%'
                    | '^'
                    | '&'
                    | '*'
                    | '+'
                    | '"'
                    | '\''
            ),
            None
        )
    );
    if single_delimiter {
        prefix.to_string()
    } else {
        prefix[..prefix.len() - last.len()].to_string()
    }
}

/// Go's `norm.NFC.LastBoundary` for valid UTF-8: the end when the last character cannot
/// interact with anything that follows, else the start of the last starter.
fn nfc_last_boundary(s: &str) -> Option<usize> {
    let (last_at, last) = s.char_indices().next_back()?;
    if nfc_inert(last) {
        return Some(s.len());
    }
    let mut non_starters = trailing_non_starters(last);
    if leading_non_starters(last) == 0 {
        return Some(last_at);
    }
    for (at, c) in s[..last_at].char_indices().rev() {
        non_starters += trailing_non_starters(c);
        if non_starters > 30 {
            return Some(at + c.len_utf8());
        }
        if leading_non_starters(c) == 0 {
            return Some(at);
        }
    }
    None
}

fn canonical_decomposition(c: char) -> Vec<char> {
    let mut out = Vec::new();
    unicode_normalization::char::decompose_canonical(c, |d| out.push(d));
    out
}

fn ccc(c: char) -> u8 {
    unicode_normalization::char::canonical_combining_class(c)
}

fn leading_non_starters(c: char) -> usize {
    canonical_decomposition(c)
        .iter()
        .take_while(|d| ccc(**d) != 0)
        .count()
}

fn trailing_non_starters(c: char) -> usize {
    canonical_decomposition(c)
        .iter()
        .rev()
        .take_while(|d| ccc(**d) != 0)
        .count()
}

/// Go's `Properties.isInert` for NFC: no decomposition, not combining with a previous or a
/// following character, combining class 0.
fn nfc_inert(c: char) -> bool {
    if c.is_ascii() {
        return !(c.is_ascii_alphabetic() || matches!(c, '<' | '=' | '>'));
    }
    ccc(c) == 0
        && canonical_decomposition(c) == [c]
        && unicode_normalization::is_nfc_quick(std::iter::once(c))
            == unicode_normalization::IsNormalized::Yes
        && !composes_forward().contains(&c)
}

/// Characters that start a canonical composition (the first of a primary composite's
/// one-level decomposition).
fn composes_forward() -> &'static HashSet<char> {
    static SET: OnceLock<HashSet<char>> = OnceLock::new();
    SET.get_or_init(|| {
        let mut set = HashSet::new();
        for u in 0..=0x10ffffu32 {
            let Some(c) = char::from_u32(u) else { continue };
            let full = canonical_decomposition(c);
            if full.len() < 2 {
                continue;
            }
            let recomposed: String = full.iter().copied().nfc().collect();
            if recomposed.chars().eq(std::iter::once(c)) {
                let head: String = full[..full.len() - 1].iter().copied().nfc().collect();
                let mut head = head.chars();
                if let (Some(first), None) = (head.next(), head.next()) {
                    set.insert(first);
                }
            }
        }
        set
    })
}
