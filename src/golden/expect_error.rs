//! A case's expected failure: message fragments that must appear in the render's errors, and
//! source locations (`at main.hcl:12:5`) where one of its diagnostics must point. Read from
//! `expected-error.txt` (one per line) and from `assert.yaml`'s `expectError`.

use crate::diagnostics::{Diagnostic, Severity};
use crate::source::SourceMap;
use serde_json::Value as Json;
use std::fmt;

/// Where each diagnostic with a location points, resolved while the render's source map is
/// alive (`at main.hcl:12:5` is checked against these).
pub fn places(map: &SourceMap, diagnostics: &[Diagnostic]) -> Vec<Place> {
    diagnostics
        .iter()
        .filter_map(|d| d.primary.as_ref())
        .filter_map(|label| {
            let file = map.files().get(label.span.file.index())?;
            let at = file.line_col(label.span.start as usize);
            Some(Place {
                names: vec![file.name().to_string(), file.display_name().to_string()],
                line: at.line,
                column: at.column,
            })
        })
        .collect()
}

/// A failed render's errors as text: each summary with its detail, help and crossplane's own
/// line (warnings left out: a kind without a schema under `--validate` is not why a render
/// failed).
pub fn errors_text(diagnostics: &[Diagnostic]) -> String {
    joined(diagnostics, true)
}

/// A failed render's errors as a failing case shows them: [`errors_text`] without
/// crossplane's own lines, which repeat each error in the Docker wrapping of the CLI.
pub fn errors_shown(diagnostics: &[Diagnostic]) -> String {
    joined(diagnostics, false)
}

fn joined(diagnostics: &[Diagnostic], upstream: bool) -> String {
    diagnostics
        .iter()
        .filter(|d| d.severity != Severity::Warning)
        .map(|d| {
            let mut text = d.summary.clone();
            let upstream = if upstream { &d.upstream } else { &None };
            for more in [&d.detail, &d.help, upstream].into_iter().flatten() {
                text.push('\n');
                text.push_str(more);
            }
            text
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Why an `expectError` value is not one: the key at fault (when one is) and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadValue {
    /// The key of `expectError` the problem is in; `None` for the value as a whole.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

/// Where one diagnostic of a failed render points: its file's names (as loaded and as shown)
/// and the 1-based line and column its primary span starts at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The file as loaded, then as diagnostics print it.
    pub names: Vec<String>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters).
    pub column: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.names.last().map_or("?", String::as_str);
        write!(f, "{name}:{}:{}", self.line, self.column)
    }
}

/// An expected location: a path (or the end of one), a line and maybe a column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    /// The file: its whole path or the last components of it (`main.hcl`, `hcl/main.hcl`).
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, when given.
    pub column: Option<usize>,
}

impl At {
    /// Reads `PATH:LINE` or `PATH:LINE:COLUMN`; `None` when the text is not of that form.
    pub fn parse(text: &str) -> Option<At> {
        let text = text.trim();
        let number = |s: &str| s.parse::<usize>().ok().filter(|n| *n > 0);
        let (head, last) = text.rsplit_once(':')?;
        let last = number(last)?;
        let (path, line, column) = match head.rsplit_once(':') {
            Some((path, line)) if number(line).is_some() => (path, number(line)?, Some(last)),
            _ => (head, last, None),
        };
        let path = path.strip_prefix("./").unwrap_or(path);
        if path.is_empty() || path.contains(char::is_whitespace) {
            return None;
        }
        Some(At {
            path: path.to_string(),
            line,
            column,
        })
    }

    /// Whether a diagnostic's place is this location.
    pub fn met_by(&self, place: &Place) -> bool {
        let file = place.names.iter().any(|name| {
            let name = name.replace('\\', "/");
            name == self.path || name.ends_with(&format!("/{}", self.path))
        });
        file && place.line == self.line && self.column.is_none_or(|c| c == place.column)
    }
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.path, self.line)?;
        if let Some(column) = self.column {
            write!(f, ":{column}")?;
        }
        Ok(())
    }
}

/// What a failing render must show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExpectedError {
    /// Texts that must each appear in the errors.
    pub fragments: Vec<String>,
    /// Locations that must each be pointed at by a diagnostic.
    pub at: Vec<At>,
}

impl ExpectedError {
    /// `expected-error.txt`: one fragment a line, or `at PATH:LINE[:COLUMN]` for a location
    /// (a line starting `at ` that is not of that form is a fragment).
    pub fn from_lines(lines: &[String]) -> ExpectedError {
        let mut expected = ExpectedError::default();
        for line in lines {
            match line.strip_prefix("at ").and_then(At::parse) {
                Some(at) => expected.at.push(at),
                None => expected.fragments.push(line.clone()),
            }
        }
        expected
    }

    /// `expectError: {message: TEXT or [TEXT…], at: PATH:LINE[:COLUMN] or […]}` (in
    /// `assert.yaml` and in CompositionTest files).
    pub fn from_value(value: &Json) -> Result<ExpectedError, BadValue> {
        let bad = |key: Option<&str>, message: String| BadValue {
            key: key.map(str::to_string),
            message,
        };
        let Some(map) = value.as_object() else {
            return Err(bad(
                None,
                "`expectError` must be a mapping with `message` and/or `at`".into(),
            ));
        };
        if let Some(key) = map.keys().find(|k| *k != "message" && *k != "at") {
            return Err(bad(
                Some(key),
                format!("unknown field `{key}` in expectError (it has message and at)"),
            ));
        }
        let strings = |key: &str| -> Result<Vec<String>, BadValue> {
            let wrong = || {
                bad(
                    Some(key),
                    format!("`{key}` must be a string or a list of strings"),
                )
            };
            match map.get(key) {
                None => Ok(Vec::new()),
                Some(Json::String(s)) => Ok(vec![s.clone()]),
                Some(Json::Array(items)) => items
                    .iter()
                    .map(|i| i.as_str().map(str::to_string).ok_or_else(wrong))
                    .collect(),
                Some(_) => Err(wrong()),
            }
        };
        let mut expected = ExpectedError {
            fragments: strings("message")?,
            at: Vec::new(),
        };
        for text in strings("at")? {
            let at = At::parse(&text).ok_or_else(|| {
                bad(
                    Some("at"),
                    format!("`at` is PATH:LINE or PATH:LINE:COLUMN, not `{text}`"),
                )
            })?;
            expected.at.push(at);
        }
        if expected.fragments.is_empty() && expected.at.is_empty() {
            return Err(bad(
                None,
                "`expectError` needs a `message` or an `at`".into(),
            ));
        }
        Ok(expected)
    }

    /// Adds another file's expectations.
    pub fn extend(&mut self, other: ExpectedError) {
        self.fragments.extend(other.fragments);
        self.at.extend(other.at);
    }

    /// `Ok` when the failed render's errors (as text) and places meet every expectation; the
    /// report of what is missing otherwise.
    pub fn check(&self, errors: &str, places: &[Place]) -> Result<(), String> {
        let mut missing: Vec<String> = self
            .fragments
            .iter()
            .filter(|f| !errors.contains(f.as_str()))
            .map(|f| format!("  {f}"))
            .collect();
        missing.extend(
            self.at
                .iter()
                .filter(|at| !places.iter().any(|p| at.met_by(p)))
                .map(|at| format!("  an error at {at}")),
        );
        if missing.is_empty() {
            return Ok(());
        }
        let mut shown: Vec<String> = places.iter().map(ToString::to_string).collect();
        shown.sort();
        shown.dedup();
        let at = if shown.is_empty() {
            "no error has a source location".to_string()
        } else {
            format!("its errors are at: {}", shown.join(", "))
        };
        Err(format!(
            "the render failed, but its errors lack:\n{}\nits errors:\n{errors}\n{at}\n",
            missing.join("\n")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(name: &str, line: usize, column: usize) -> Place {
        Place {
            names: vec![name.into()],
            line,
            column,
        }
    }

    #[test]
    fn locations_parse_with_or_without_a_column() {
        let at = At::parse("main.hcl:12:5").unwrap();
        assert_eq!(
            (at.path.as_str(), at.line, at.column),
            ("main.hcl", 12, Some(5))
        );
        let at = At::parse("./hcl/main.hcl:3").unwrap();
        assert_eq!(
            (at.path.as_str(), at.line, at.column),
            ("hcl/main.hcl", 3, None)
        );
        for bad in [
            "main.hcl",
            "main.hcl:x",
            ":3",
            "main.hcl:0",
            "least one thing: 2",
        ] {
            assert_eq!(At::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_location_is_met_by_the_same_file_line_and_column() {
        let at = At::parse("main.hcl:2:32").unwrap();
        assert!(at.met_by(&place("main.hcl", 2, 32)));
        assert!(at.met_by(&place("/tmp/x/main.hcl", 2, 32)));
        assert!(!at.met_by(&place("/tmp/x/other-main.hcl", 2, 32)));
        assert!(!at.met_by(&place("main.hcl", 2, 31)));
        assert!(
            At::parse("main.hcl:2")
                .unwrap()
                .met_by(&place("main.hcl", 2, 9))
        );
    }

    #[test]
    fn lines_split_into_fragments_and_locations() {
        let lines =
            ["Unsupported attribute", "at main.hcl:2:32", "at least once"].map(String::from);
        let expected = ExpectedError::from_lines(&lines);
        assert_eq!(
            expected.fragments,
            ["Unsupported attribute", "at least once"]
        );
        assert_eq!(expected.at.len(), 1);
        let places = [place("main.hcl", 2, 32)];
        assert!(
            expected
                .check("Unsupported attribute, at least once", &places)
                .is_ok()
        );
        let why = expected
            .check(
                "Unsupported attribute, at least once",
                &[place("main.hcl", 9, 1)],
            )
            .unwrap_err();
        assert!(why.contains("  an error at main.hcl:2:32\n"), "{why}");
        assert!(why.contains("its errors are at: main.hcl:9:1"), "{why}");
    }
}
