//! Compile-time issues (syntax and type errors) and their display as cel-go prints them:
//!
//! ```text
//! ERROR: <input>:1:6: undefined field 'foo'
//!  | self.foo == 1
//!  | .....^
//! ```

use super::ast::SourceInfo;

/// One compile-time issue.
#[derive(Clone, Debug, PartialEq)]
pub struct Issue {
    /// The byte offset in the expression's text it is reported at, when known.
    pub offset: Option<usize>,
    /// cel-go's message.
    pub message: String,
}

/// The issues of one expression, in the order cel-go reports them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Issues {
    /// The issues.
    pub issues: Vec<Issue>,
    /// The text, for display.
    pub text: std::sync::Arc<str>,
}

impl Issues {
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.issues.is_empty()
    }
}

/// cel-go keeps at most this many errors (`common.Errors`' `maxErrorsToReport`).
const MAX_ERRORS: usize = 100;

/// Lines longer than this (in bytes) are not shown under the message.
const MAX_SNIPPET: usize = 16384;

impl std::fmt::Display for Issues {
    /// cel-go's `Errors.ToDisplayString`: the first 100 issues sorted by location (stable;
    /// unlocated ones first), each as `ERROR: <input>:LINE:COL: MESSAGE` with the line
    /// (tabs shown as spaces) and a caret under the column (full-width dot and caret for
    /// multi-byte characters), then how many more were dropped.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let info = SourceInfo {
            text: self.text.clone(),
            ..SourceInfo::default()
        };
        let mut shown: Vec<(Option<(usize, usize)>, &Issue)> = self
            .issues
            .iter()
            .take(MAX_ERRORS)
            .map(|i| (i.offset.map(|o| info.location(o)), i))
            .collect();
        shown.sort_by_key(|(loc, _)| *loc);
        for (i, (loc, issue)) in shown.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            let Some((line, col)) = *loc else {
                write!(f, "ERROR: <input>:-1:0: {}", issue.message)?;
                continue;
            };
            write!(f, "ERROR: <input>:{line}:{}: {}", col + 1, issue.message)?;
            let Some(text) = self.text.split('\n').nth(line - 1) else {
                continue;
            };
            if text.len() > MAX_SNIPPET {
                continue;
            }
            write!(f, "\n | {}\n | ", text.replace('\t', " "))?;
            let mut chars = text.chars();
            for c in chars.by_ref().take(col) {
                f.write_str(if c.len_utf8() > 1 { "\u{ff0e}" } else { "." })?;
            }
            let wide = chars.next().is_some_and(|c| c.len_utf8() > 1);
            f.write_str(if wide { "\u{ff3e}" } else { "^" })?;
        }
        if self.issues.len() > MAX_ERRORS {
            write!(
                f,
                "\n{} more errors were truncated",
                self.issues.len() - MAX_ERRORS
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Issue, Issues};

    #[test]
    fn sorted_with_wide_carets() {
        let issues = Issues {
            issues: vec![
                Issue {
                    offset: Some(3),
                    message: "second".into(),
                },
                Issue {
                    offset: None,
                    message: "first".into(),
                },
                Issue {
                    offset: Some(0),
                    message: "wide".into(),
                },
            ],
            text: "é\tb".into(),
        };
        assert_eq!(
            issues.to_string(),
            "ERROR: <input>:-1:0: first\n\
             ERROR: <input>:1:1: wide\n | é b\n | \u{ff3e}\n\
             ERROR: <input>:1:3: second\n | é b\n | \u{ff0e}.^"
        );
    }
}
