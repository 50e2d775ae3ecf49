//! The one "did you mean …?" mechanism, as hcl's `nameSuggestion` makes it: the first
//! candidate within Levenshtein distance 2. Every layer that looks a name up uses it — Go's
//! own messages (hcl's schema and template keywords, functions, variables), `check`'s help
//! lines (locals, `req` attributes, resources, collections, user function arguments, body
//! fields, requirements) and `.fnhcl.toml` rule names — so every suggestion agrees; it lives
//! here, below them all, and knows nothing of what the names are.

/// The first of `candidates` within edit distance 2 of `given`.
pub fn name_suggestion<'a>(given: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .copied()
        .find(|candidate| levenshtein(given, candidate) < 3)
}

/// Our own help line for a name that is not found: "did you mean `x`?" with the closest
/// candidate, `x` written as `shown` makes it (a traversal `req.resource.x`, say). The editor
/// offers the backticked text as a quick fix.
pub fn did_you_mean(
    given: &str,
    candidates: &[&str],
    shown: impl Fn(&str) -> String,
) -> Option<String> {
    name_suggestion(given, candidates).map(|s| format!("did you mean `{}`?", shown(s)))
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
