//! Grapheme clusters as cty counts them: textseg v15, Unicode 15.0's rules.
//!
//! `unicode-segmentation` follows a newer Unicode, whose rule GB9c (Unicode 15.1, extended
//! since) keeps a consonant, a virama and another consonant together; Unicode 15.0 breaks
//! before the second consonant. We undo that rule: under 15.0 a letter (`Lo`) only continues a
//! cluster after a prepended mark (GB9b), inside a Hangul syllable (GB6–8) or as one of the
//! two letters that are spacing marks (GB9a), so any other letter inside a cluster starts a
//! new one.

use regex::Regex;
use std::sync::LazyLock;
use unicode_segmentation::UnicodeSegmentation;

/// The grapheme clusters of `s`.
pub(super) fn graphemes(s: &str) -> Vec<&str> {
    if s.is_ascii() {
        return s.graphemes(true).collect();
    }
    let mut out = Vec::new();
    for cluster in s.graphemes(true) {
        let mut start = 0;
        let mut prev: Option<char> = None;
        for (at, c) in cluster.char_indices() {
            if let Some(p) = prev
                && !c.is_ascii()
                && !is_prepend(p)
                && !is_hangul(c)
                && !matches!(c, '\u{E33}' | '\u{EB3}')
                && is_other_letter(c)
            {
                out.push(&cluster[start..at]);
                start = at;
            }
            prev = Some(c);
        }
        out.push(&cluster[start..]);
    }
    out
}

/// Grapheme_Cluster_Break=Prepend (Unicode 15.0).
fn is_prepend(c: char) -> bool {
    matches!(
        c as u32,
        0x600..=0x605
            | 0x6DD
            | 0x70F
            | 0x890..=0x891
            | 0x8E2
            | 0xD4E
            | 0x110BD
            | 0x110CD
            | 0x111C2..=0x111C3
            | 0x1193F
            | 0x11941
            | 0x11A3A
            | 0x11A84..=0x11A89
            | 0x11D46
            | 0x11F02
    )
}

/// Hangul jamo and syllables (Grapheme_Cluster_Break L, V, T, LV, LVT).
fn is_hangul(c: char) -> bool {
    matches!(c as u32, 0x1100..=0x11FF | 0xA960..=0xA97F | 0xAC00..=0xD7A3 | 0xD7B0..=0xD7FF)
}

fn is_other_letter(c: char) -> bool {
    static LO: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\p{Lo}$").expect("valid pattern"));
    LO.is_match(c.encode_utf8(&mut [0; 4]))
}
