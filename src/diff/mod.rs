//! Comparing two render streams document by document (`fnhcl diff`, `fnhcl test`).
//!
//! Documents are matched by identity, whatever their order: the composite resource (the first
//! document that is not a `Result` or `Context`); composed resources by `apiVersion`, `kind`
//! and their `crossplane.io/composition-resource-name` annotation, else their namespace and
//! name; `Result` documents by position among the results; the `Context` document. Two
//! documents are equal when their values are, after the ignored paths are removed from both;
//! a changed one is shown as a unified diff of its YAML as `render` prints it.

mod gittree;
mod paths;
pub mod rev;
pub mod streams;

pub use paths::{IgnorePath, PathError};

use crate::render::composition_resource_name;
use crate::source::pointer::Pointer;
use crate::source::yaml_emit::to_yaml;
use serde_json::Value as Json;
use std::collections::HashMap;

/// What happened to one document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Only in the new stream.
    Added,
    /// Only in the old stream.
    Removed,
    /// In both, different.
    Changed,
    /// In both, equal.
    Unchanged,
}

impl Change {
    /// The lower-case word for it.
    pub fn word(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Changed => "changed",
            Change::Unchanged => "unchanged",
        }
    }
}

/// What a document is, for matching and for headers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Identity {
    /// The composite resource.
    Composite {
        /// `apiVersion`.
        api_version: String,
        /// `kind`.
        kind: String,
        /// `metadata.name`.
        name: String,
    },
    /// A composed resource.
    Composed {
        /// `apiVersion`.
        api_version: String,
        /// `kind`.
        kind: String,
        /// The composition resource name, else `namespace/name` or `name`.
        name: String,
        /// Which of the two `name` is.
        by_resource_name: bool,
    },
    /// The n-th `Result` (from 1).
    Result {
        /// Its position among the results.
        number: usize,
        /// Its `step`.
        step: String,
    },
    /// The `Context` document.
    Context,
}

impl Identity {
    /// A one-line description: `XR example.org/v1 XBucket my-xr`, `example.org/v1 Bucket
    /// bucket-a`, `Result 2 (step "run")`, `Context`.
    pub fn title(&self) -> String {
        match self {
            Identity::Composite {
                api_version,
                kind,
                name,
            } => format!("XR {api_version} {kind} {name}"),
            Identity::Composed {
                api_version,
                kind,
                name,
                ..
            } => format!("{api_version} {kind} {name}"),
            Identity::Result { number, step } => format!("Result {number} (step {step:?})"),
            Identity::Context => "Context".to_string(),
        }
    }

    /// The key documents are matched on (a `Result`'s step is not part of it: results match
    /// by position).
    fn key(&self) -> Identity {
        match self {
            Identity::Result { number, .. } => Identity::Result {
                number: *number,
                step: String::new(),
            },
            other => other.clone(),
        }
    }
}

/// One document of the comparison.
#[derive(Clone, Debug)]
pub struct DocumentDiff {
    /// What it is.
    pub identity: Identity,
    /// What happened to it.
    pub change: Change,
    /// Its YAML in the old stream (ignored paths removed); `None` when it is not there or
    /// is unchanged.
    pub old: Option<String>,
    /// Its YAML in the new stream (ignored paths removed); `None` when it is not there or
    /// is unchanged.
    pub new: Option<String>,
}

impl DocumentDiff {
    /// A unified diff from the old YAML to the new, with `context` lines around each change,
    /// headed `--- old_name` / `+++ new_name`. Empty for an unchanged document.
    pub fn unified(&self, context: usize, old_name: &str, new_name: &str) -> String {
        if self.change == Change::Unchanged {
            return String::new();
        }
        let old = self.old.as_deref().unwrap_or("");
        let new = self.new.as_deref().unwrap_or("");
        similar::TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(context)
            .header(old_name, new_name)
            .to_string()
    }
}

/// Counts of each kind of change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Documents only in the new stream.
    pub added: usize,
    /// Documents only in the old stream.
    pub removed: usize,
    /// Documents in both that differ.
    pub changed: usize,
    /// Documents in both that are equal.
    pub unchanged: usize,
}

impl Summary {
    /// Whether anything differs.
    pub fn differs(&self) -> bool {
        self.added + self.removed + self.changed > 0
    }

    /// `1 changed, 2 added, 0 removed, 5 unchanged`.
    pub fn line(&self) -> String {
        format!(
            "{} changed, {} added, {} removed, {} unchanged",
            self.changed, self.added, self.removed, self.unchanged
        )
    }
}

/// Two streams compared: the new stream's documents in its order (added or matched), then
/// the removed ones in the old stream's order.
#[derive(Clone, Debug, Default)]
pub struct StreamDiff {
    /// Every document.
    pub documents: Vec<DocumentDiff>,
}

impl StreamDiff {
    /// The counts.
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        for d in &self.documents {
            match d.change {
                Change::Added => s.added += 1,
                Change::Removed => s.removed += 1,
                Change::Changed => s.changed += 1,
                Change::Unchanged => s.unchanged += 1,
            }
        }
        s
    }
}

/// Compares two render streams.
pub fn diff_streams(old: &[Json], new: &[Json], ignore: &[IgnorePath]) -> StreamDiff {
    let old = identify(old, ignore);
    let new = identify(new, ignore);
    let mut by_key: HashMap<(Identity, usize), usize> = HashMap::with_capacity(old.len());
    for (i, doc) in old.iter().enumerate() {
        by_key.insert((doc.identity.key(), doc.occurrence), i);
    }
    let mut matched = vec![false; old.len()];
    let mut documents = Vec::with_capacity(new.len());
    for doc in &new {
        let found = by_key.get(&(doc.identity.key(), doc.occurrence)).copied();
        let Some(i) = found else {
            documents.push(DocumentDiff {
                identity: doc.identity.clone(),
                change: Change::Added,
                old: None,
                new: Some(to_yaml(&doc.value)),
            });
            continue;
        };
        matched[i] = true;
        let before = &old[i];
        // Only a changed document needs its YAML (for the diff).
        let (change, old_yaml, new_yaml) = if before.value == doc.value {
            (Change::Unchanged, None, None)
        } else {
            (
                Change::Changed,
                Some(to_yaml(&before.value)),
                Some(to_yaml(&doc.value)),
            )
        };
        documents.push(DocumentDiff {
            identity: doc.identity.clone(),
            change,
            old: old_yaml,
            new: new_yaml,
        });
    }
    for (doc, _) in old.iter().zip(&matched).filter(|(_, m)| !**m) {
        documents.push(DocumentDiff {
            identity: doc.identity.clone(),
            change: Change::Removed,
            old: Some(to_yaml(&doc.value)),
            new: None,
        });
    }
    StreamDiff { documents }
}

struct Identified {
    identity: Identity,
    /// How many earlier documents of the stream have the same key (duplicates match in order).
    occurrence: usize,
    value: Json,
}

fn identify(stream: &[Json], ignore: &[IgnorePath]) -> Vec<Identified> {
    let mut seen: HashMap<Identity, usize> = HashMap::new();
    let mut results = 0;
    let mut composite_seen = false;
    stream
        .iter()
        .map(|doc| {
            let text = |pointer: &str| {
                doc.at(pointer)
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string()
            };
            let api_version = text("/apiVersion");
            let kind = text("/kind");
            let render_api = api_version.starts_with("render.crossplane.io/");
            let identity = if render_api && kind == "Result" {
                results += 1;
                Identity::Result {
                    number: results,
                    step: text("/step"),
                }
            } else if render_api && kind == "Context" {
                Identity::Context
            } else if !composite_seen {
                composite_seen = true;
                Identity::Composite {
                    api_version,
                    kind,
                    name: text("/metadata/name"),
                }
            } else {
                let resource_name = composition_resource_name(doc);
                if resource_name.is_empty() {
                    let name = text("/metadata/name");
                    let namespace = text("/metadata/namespace");
                    Identity::Composed {
                        api_version,
                        kind,
                        name: if namespace.is_empty() {
                            name
                        } else {
                            format!("{namespace}/{name}")
                        },
                        by_resource_name: false,
                    }
                } else {
                    Identity::Composed {
                        api_version,
                        kind,
                        name: resource_name.to_string(),
                        by_resource_name: true,
                    }
                }
            };
            let count = seen.entry(identity.key()).or_insert(0);
            let occurrence = *count;
            *count += 1;
            let mut value = doc.clone();
            for path in ignore {
                path.remove_from(&mut value);
            }
            Identified {
                identity,
                occurrence,
                value,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
