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

impl std::fmt::Display for Issues {
    /// cel-go's `Issues.String()` (`Errors.ToDisplayString`): each issue as
    /// `ERROR: <input>:LINE:COL: MESSAGE` with the line and a caret under the column,
    /// issues separated by newlines.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let info = SourceInfo {
            text: self.text.clone(),
            ..SourceInfo::default()
        };
        for (i, issue) in self.issues.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            match issue.offset {
                Some(offset) => {
                    let (line, col) = info.location(offset);
                    write!(f, "ERROR: <input>:{line}:{}: {}", col + 1, issue.message)?;
                    if let Some(text) = self.text.split('\n').nth(line - 1) {
                        write!(f, "\n | {text}\n | ")?;
                        for c in text.chars().take(col) {
                            // cel-go draws wide characters with a full-width dot
                            f.write_str(if c.len_utf8() > 1 { "\u{ff0e}" } else { "." })?;
                        }
                        f.write_str("^")?;
                    }
                }
                None => write!(f, "ERROR: <input>:-1:0: {}", issue.message)?,
            }
        }
        Ok(())
    }
}
