//! "Did you mean …?" suggestions, as hcl's `nameSuggestion` makes them: the first candidate
//! within Levenshtein distance 2.

/// The first of `candidates` within edit distance 2 of `given`.
pub fn name_suggestion<'a>(given: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .copied()
        .find(|candidate| levenshtein(given, candidate) < 3)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            let next = (row[j + 1] + 1).min(row[j] + 1).min(prev + cost);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(
            name_suggestion("endfro", &["if", "for", "endfor"]),
            Some("endfor")
        );
        assert_eq!(name_suggestion("xyzzy", &["if", "for"]), None);
        assert_eq!(levenshtein("kitten", "sitting"), 3);
    }
}
