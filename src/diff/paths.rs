//! Field paths to leave out of a comparison (`--ignore-paths`, crossplane-diff's syntax):
//! `metadata.labels`, `metadata.annotations[example.org/some-key]`, `spec.items[0].id`,
//! `status.conditions.lastTransitionTime`.
//!
//! Names are separated by dots; a `[...]` selector names a key literally (dots and slashes
//! included) or, on a list, an index (`[*]`: every element). A name reached on a list applies
//! to each of its elements, so a path through a list of objects ignores that field in all of
//! them.

use serde_json::Value as Json;
use std::fmt;

/// A parsed path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IgnorePath {
    text: String,
    steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// A dotted name.
    Name(String),
    /// A bracket selector.
    Key(String),
}

/// Why a path cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathError {
    /// The path as given.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a field path: {}", self.path, self.message)
    }
}

impl std::error::Error for PathError {}

impl IgnorePath {
    /// Reads a path.
    pub fn parse(text: &str) -> Result<IgnorePath, PathError> {
        let fail = |message: &str| PathError {
            path: text.to_string(),
            message: message.to_string(),
        };
        let mut steps = Vec::new();
        let mut name = String::new();
        // Whether a `.` may come next (after a name or a selector).
        let mut after_part = false;
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            match c {
                '.' => {
                    if !name.is_empty() {
                        steps.push(Step::Name(std::mem::take(&mut name)));
                    } else if !after_part {
                        return Err(fail("an empty name (two dots, or a dot at the start)"));
                    }
                    after_part = false;
                }
                '[' => {
                    if !name.is_empty() {
                        steps.push(Step::Name(std::mem::take(&mut name)));
                    } else if !after_part && !steps.is_empty() {
                        return Err(fail("a `[` right after a dot"));
                    }
                    let mut key = String::new();
                    let mut closed = false;
                    for k in chars.by_ref() {
                        if k == ']' {
                            closed = true;
                            break;
                        }
                        key.push(k);
                    }
                    if !closed {
                        return Err(fail("a `[` without its `]`"));
                    }
                    if key.is_empty() {
                        return Err(fail("an empty `[]`"));
                    }
                    steps.push(Step::Key(key));
                    after_part = true;
                }
                ']' => return Err(fail("a `]` without its `[`")),
                other => {
                    if after_part && name.is_empty() && matches!(steps.last(), Some(Step::Key(_))) {
                        return Err(fail("a name right after `]` (write `].name`)"));
                    }
                    name.push(other);
                }
            }
        }
        if !name.is_empty() {
            steps.push(Step::Name(name));
        } else if !after_part {
            return Err(fail(if steps.is_empty() {
                "it is empty"
            } else {
                "a dot at the end"
            }));
        }
        Ok(IgnorePath {
            text: text.to_string(),
            steps,
        })
    }

    /// The path as given.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Removes what the path names from `value` (nothing when it names nothing).
    pub fn remove_from(&self, value: &mut Json) {
        remove(value, &self.steps);
    }
}

fn remove(value: &mut Json, steps: &[Step]) {
    let Some((step, rest)) = steps.split_first() else {
        return;
    };
    match value {
        Json::Object(map) => {
            let key = match step {
                Step::Name(k) | Step::Key(k) => k,
            };
            if rest.is_empty() {
                map.remove(key.as_str());
            } else if let Some(child) = map.get_mut(key.as_str()) {
                remove(child, rest);
            }
        }
        Json::Array(items) => match step {
            // A name on a list applies to every element.
            Step::Name(_) => items.iter_mut().for_each(|item| remove(item, steps)),
            Step::Key(k) if k == "*" => {
                if rest.is_empty() {
                    items.clear();
                } else {
                    items.iter_mut().for_each(|item| remove(item, rest));
                }
            }
            Step::Key(k) => {
                let Ok(index) = k.parse::<usize>() else {
                    return;
                };
                if index >= items.len() {
                    return;
                }
                if rest.is_empty() {
                    items.remove(index);
                } else {
                    remove(&mut items[index], rest);
                }
            }
        },
        _ => {}
    }
}
