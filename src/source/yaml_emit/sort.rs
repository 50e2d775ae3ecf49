//! go-yaml v2's mapping key order (`sorter.go` `keyList.Less`).

use regex::Regex;
use serde_json::{Map, Value};
use std::sync::LazyLock;

/// A map's entries in the order go-yaml's `keyList` sorts them.
pub(super) fn sorted_entries(map: &Map<String, Value>) -> Vec<(&str, &Value)> {
    let entries: Vec<(&str, &Value)> = map.iter().map(|(k, v)| (k.as_str(), v)).collect();
    merge_sort(entries)
}

/// A merge sort by [`go_key_less`]. Go sorts keys that come in random map order, so only a total
/// order gives a defined result, and for one every algorithm agrees; this one cannot panic even
/// if the comparison were inconsistent, which `slice::sort_by` does not promise.
pub(super) fn merge_sort<'a>(mut items: Vec<(&'a str, &'a Value)>) -> Vec<(&'a str, &'a Value)> {
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
pub(super) fn go_key_less(a: &str, b: &str) -> bool {
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
pub(super) fn digit_run_less(ar: &[char], br: &[char], i: usize) -> bool {
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
pub(super) fn digit_run(runes: &[char], start: usize, seed: i64) -> (i64, usize) {
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
pub(super) fn is_go_letter(c: char) -> bool {
    static LETTER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\p{L}$").expect("valid pattern"));
    c.is_ascii_alphabetic() || !c.is_ascii() && LETTER.is_match(c.encode_utf8(&mut [0; 4]))
}

/// Go's `unicode.IsDigit`: ASCII digits in Latin-1, category Nd above it.
pub(super) fn is_go_digit(c: char) -> bool {
    static DIGIT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\p{Nd}$").expect("valid pattern"));
    c.is_ascii_digit() || u32::from(c) > 0xff && DIGIT.is_match(c.encode_utf8(&mut [0; 4]))
}
