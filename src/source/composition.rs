//! Finding the function-hcl step of a Crossplane Composition (a YAML document).
//!
//! A step is function-hcl's when its `input` has `kind: HclInput` or an `hcl` field — the two
//! marks of function-hcl's `HclInput`. Pure: the caller reads the file.

use super::yaml::{Document, Node, YamlError, read_first, read_stream};
use super::yaml_edit::{EditError, set_string};
use std::ops::Range;

/// A Composition and its pipeline steps.
#[derive(Debug, Clone)]
pub struct Composition {
    /// `metadata.name`.
    pub name: String,
    /// The steps of `spec.pipeline`, in order.
    pub steps: Vec<Step>,
    /// The parsed document.
    pub document: Document,
}

/// One pipeline step.
#[derive(Debug, Clone)]
pub struct Step {
    /// `step:`.
    pub name: String,
    /// `functionRef.name`, when given.
    pub function: Option<String>,
    /// Whether the step's input is function-hcl's.
    pub is_hcl: bool,
    /// The step's node in the document.
    pub node: Node,
}

impl Step {
    /// The `input` node of the step.
    pub fn input(&self) -> Option<&Node> {
        self.node.get("input")
    }

    /// The `input.hcl` node, when present.
    pub fn hcl(&self) -> Option<&Node> {
        self.input()?.get("hcl")
    }

    /// Byte range of the step's name (or of the whole step when it has none).
    pub fn name_span(&self) -> Range<usize> {
        self.node
            .get("step")
            .map_or(self.node.span.clone(), |n| n.span.clone())
    }
}

/// Why a Composition could not give us an HCL step.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CompositionError {
    /// The YAML itself is malformed.
    #[error("{}", .0.message)]
    Yaml(YamlError),
    /// The file holds no YAML document.
    #[error("the file holds no YAML document")]
    Empty,
    /// The document is some other kind of object.
    #[error("not a composition: {found}")]
    NotAComposition {
        /// `Kind/name` as crossplane prints it.
        found: String,
        /// Where the kind is written.
        span: Range<usize>,
    },
    /// No step has function-hcl's input.
    #[error("composition {name:?} has no function-hcl step")]
    NoHclStep {
        /// The Composition's name.
        name: String,
        /// Every step's name.
        steps: Vec<String>,
        /// The pipeline (or the document when it has none).
        span: Range<usize>,
    },
    /// Several function-hcl steps and no `--step`.
    #[error("composition {name:?} has {} function-hcl steps: {}", .steps.len(), quoted_list(.steps))]
    AmbiguousStep {
        /// The Composition's name.
        name: String,
        /// The names of the function-hcl steps.
        steps: Vec<String>,
        /// Their name spans.
        spans: Vec<Range<usize>>,
    },
    /// `--step` names no step.
    #[error("composition {name:?} has no step named {step:?}")]
    UnknownStep {
        /// The Composition's name.
        name: String,
        /// The requested step.
        step: String,
        /// Every step's name.
        steps: Vec<String>,
    },
    /// `--step` names a step that is not function-hcl's.
    #[error("step {step:?} is not a function-hcl step")]
    NotHclStep {
        /// The requested step.
        step: String,
        /// Its function, when named.
        function: Option<String>,
        /// The step's name.
        span: Range<usize>,
    },
}

/// `"a", "b" and "c"`-style list used in messages.
pub fn quoted_list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Composition {
    /// Reads a Composition from the text of a YAML file (its first document).
    pub fn parse(text: &str) -> Result<Composition, CompositionError> {
        let document = read_first(text)
            .map_err(CompositionError::Yaml)?
            .ok_or(CompositionError::Empty)?;
        let value = &document.value;
        let kind = value["kind"].as_str().unwrap_or("");
        let api_version = value["apiVersion"].as_str().unwrap_or("");
        let name = value["metadata"]["name"].as_str().unwrap_or("").to_string();
        if kind != "Composition" || api_version != "apiextensions.crossplane.io/v1" {
            let span = document
                .root
                .get("kind")
                .map_or(document.root.span.clone(), |n| n.span.clone());
            return Err(CompositionError::NotAComposition {
                found: format!("{kind}/{name}"),
                span,
            });
        }
        let steps = document
            .root
            .get("spec")
            .and_then(|spec| spec.get("pipeline"))
            .map(|pipeline| pipeline.items().iter().map(read_step).collect())
            .unwrap_or_default();
        Ok(Composition {
            name,
            steps,
            document,
        })
    }

    /// The function-hcl step: the one named by `step`, or the only one.
    pub fn hcl_step(&self, step: Option<&str>) -> Result<&Step, CompositionError> {
        if let Some(wanted) = step {
            let found = self
                .steps
                .iter()
                .find(|s| s.name == wanted)
                .ok_or_else(|| CompositionError::UnknownStep {
                    name: self.name.clone(),
                    step: wanted.to_string(),
                    steps: self.steps.iter().map(|s| s.name.clone()).collect(),
                })?;
            if !found.is_hcl {
                return Err(CompositionError::NotHclStep {
                    step: found.name.clone(),
                    function: found.function.clone(),
                    span: found.name_span(),
                });
            }
            return Ok(found);
        }
        let hcl: Vec<&Step> = self.steps.iter().filter(|s| s.is_hcl).collect();
        match hcl.as_slice() {
            [only] => Ok(only),
            [] => Err(CompositionError::NoHclStep {
                name: self.name.clone(),
                steps: self.steps.iter().map(|s| s.name.clone()).collect(),
                span: self.pipeline_span(),
            }),
            several => Err(CompositionError::AmbiguousStep {
                name: self.name.clone(),
                steps: several.iter().map(|s| s.name.clone()).collect(),
                spans: several.iter().map(|s| s.name_span()).collect(),
            }),
        }
    }

    fn pipeline_span(&self) -> Range<usize> {
        let root = &self.document.root;
        match root.get("spec").and_then(|s| s.entry("pipeline")) {
            Some((key, _)) => key.span.clone(),
            None => root
                .get("kind")
                .map_or(root.span.clone(), |n| n.span.clone()),
        }
    }
}

fn read_step(node: &Node) -> Step {
    let name = node
        .get("step")
        .and_then(Node::as_str)
        .unwrap_or("")
        .to_string();
    let function = node
        .get("functionRef")
        .and_then(|f| f.get("name"))
        .and_then(Node::as_str)
        .map(str::to_string);
    let is_hcl = node.get("input").is_some_and(|input| {
        input.get("hcl").is_some() || input.get("kind").and_then(Node::as_str) == Some("HclInput")
    });
    Step {
        name,
        function,
        is_hcl,
        node: node.clone(),
    }
}

/// Writes `bundle` into the `input.hcl` of the function-hcl step of the Composition in `yaml`
/// (the step named `step`, or the only one) by editing the text. Returns the new text and the
/// step's name. The edit is verified: the new text must hold exactly `bundle` there and be
/// equal to the old text everywhere else, or nothing is returned.
pub fn write_step_hcl(
    yaml: &str,
    step: Option<&str>,
    bundle: &str,
) -> Result<(String, String), WriteError> {
    let composition = Composition::parse(yaml)?;
    let chosen = composition.hcl_step(step)?;
    let input = chosen.input().ok_or_else(|| {
        WriteError::Edit(EditError::UnsupportedLayout {
            key: "hcl".into(),
            span: chosen.name_span(),
        })
    })?;
    let edited = set_string(yaml, input, "hcl", bundle)?;
    verify_edit(yaml, &edited, &chosen.name, bundle)?;
    Ok((edited, chosen.name.clone()))
}

/// Why [`write_step_hcl`] refused.
#[derive(Debug, Clone, thiserror::Error)]
pub enum WriteError {
    /// The Composition has no usable step.
    #[error(transparent)]
    Composition(#[from] CompositionError),
    /// The text edit could not be made or verified.
    #[error(transparent)]
    Edit(#[from] EditError),
}

fn verify_edit(old: &str, new: &str, step: &str, bundle: &str) -> Result<(), EditError> {
    let fail = |reason: String| EditError::Unverified {
        key: "hcl".into(),
        reason,
    };
    let reparsed = Composition::parse(new).map_err(|e| fail(e.to_string()))?;
    let written = reparsed
        .hcl_step(Some(step))
        .map_err(|e| fail(e.to_string()))?
        .hcl()
        .and_then(Node::as_str)
        .map(str::to_string);
    if written.as_deref() != Some(bundle) {
        return Err(fail("the new value does not read back as written".into()));
    }
    let without_hcl = |text: &str| -> Result<Vec<yaml_serde::Value>, EditError> {
        let mut docs: Vec<_> = read_stream(text)
            .map_err(|e| fail(e.message))?
            .into_iter()
            .map(|d| d.value)
            .collect();
        if let Some(steps) = docs
            .first_mut()
            .and_then(|d| d.get_mut("spec"))
            .and_then(|s| s.get_mut("pipeline"))
            .and_then(|p| p.as_sequence_mut())
        {
            for s in steps.iter_mut() {
                if s.get("step").and_then(|n| n.as_str()) == Some(step)
                    && let Some(input) = s.get_mut("input").and_then(|i| i.as_mapping_mut())
                {
                    input.remove("hcl");
                }
            }
        }
        Ok(docs)
    };
    if without_hcl(old)? != without_hcl(new)? {
        return Err(fail("other values would change".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_STEPS: &str = "apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: demo
spec:
  mode: Pipeline
  pipeline:
  - step: patch
    functionRef:
      name: function-patch-and-transform
  - step: hcl-a
    functionRef:
      name: fn-hcl
    input:
      kind: HclInput
  - step: hcl-b
    input:
      hcl: |
        -- main.hcl --
";

    #[test]
    fn several_hcl_steps_need_a_name() {
        let comp = Composition::parse(TWO_STEPS).unwrap();
        let err = comp.hcl_step(None).unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"composition "demo" has 2 function-hcl steps: "hcl-a", "hcl-b""#
        );
        assert_eq!(comp.hcl_step(Some("hcl-b")).unwrap().name, "hcl-b");
        assert!(matches!(
            comp.hcl_step(Some("patch")),
            Err(CompositionError::NotHclStep { .. })
        ));
        assert!(matches!(
            comp.hcl_step(Some("nope")),
            Err(CompositionError::UnknownStep { .. })
        ));
    }

    #[test]
    fn other_kinds_are_rejected_with_crossplanes_message() {
        let err = Composition::parse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
            .unwrap_err();
        assert_eq!(err.to_string(), "not a composition: ConfigMap/x");
    }
}
