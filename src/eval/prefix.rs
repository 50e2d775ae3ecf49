//! cty's `ctystrings.SafeKnownPrefix`: how much of a known beginning a partly unknown string
//! may promise, used by templates and by `format` alike.

use std::collections::HashSet;
use std::sync::OnceLock;
use unicode_normalization::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;

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
