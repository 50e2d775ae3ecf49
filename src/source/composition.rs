//! Finding the function-hcl step of a Crossplane Composition (a YAML document).
//!
//! A step runs function-hcl when its `input` is a mapping with an `hcl` text — what function-hcl
//! reads. A step that means to (its function is named function-hcl, its input says `HclInput`
//! or `hcl.fn.crossplane.io`, or holds a `-- main.hcl --` bundle) but cannot is reported with
//! what is wrong with its input, not as "no function-hcl step". Pure: the caller reads the file.

use super::yaml::{Document, Node, NodeKind, Style, YamlError, read_first, read_stream};
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
    /// Whether the step's input is function-hcl's: a mapping with an `hcl` text.
    pub is_hcl: bool,
    /// Whether the step means to run function-hcl (its function's name, its input's kind,
    /// group or `hcl` field, or a bundle in it say so), usable or not.
    pub intends_hcl: bool,
    /// The step's node in the document.
    pub node: Node,
}

/// What keeps a step's input from being function-hcl's `HclInput`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputProblem {
    /// The step has no `input`.
    Missing,
    /// The input is a scalar or a sequence (`"a string"`, `"a list"`), not a mapping.
    NotAMapping {
        /// What it is, with an article.
        found: &'static str,
        /// Whether the text holds a txtar bundle (`-- main.hcl --`): function-hcl's README
        /// and quickstart write the bundle as the input itself.
        holds_bundle: bool,
    },
    /// A mapping without an `hcl` field (or with an empty one).
    NoHcl {
        /// The input's `kind` when it is not `HclInput`.
        wrong_kind: Option<String>,
        /// Another key whose text holds a bundle (`script`, `HCL`, …).
        bundle_under: Option<String>,
        /// The field is there but empty.
        empty: bool,
    },
    /// `hcl` is a mapping or a list, not text.
    HclNotText {
        /// What it is, with an article.
        found: &'static str,
    },
}

impl InputProblem {
    /// The sentence after "step NAME cannot run function-hcl: ".
    pub fn describe(&self) -> String {
        match self {
            InputProblem::Missing => "it has no `input`".into(),
            InputProblem::NotAMapping { found, .. } => {
                format!("its `input` is {found}, not an HclInput object")
            }
            InputProblem::NoHcl { empty: true, .. } => "its `input.hcl` is empty".into(),
            InputProblem::NoHcl {
                wrong_kind: Some(kind),
                ..
            } => format!("its input (kind `{kind}`) has no `hcl` field"),
            InputProblem::NoHcl { .. } => "its input has no `hcl` field".into(),
            InputProblem::HclNotText { found } => format!("its `input.hcl` is {found}, not text"),
        }
    }

    /// The label on the span the problem points at.
    pub fn label(&self) -> String {
        match self {
            InputProblem::Missing => "no `input`".into(),
            InputProblem::NotAMapping { found, .. } | InputProblem::HclNotText { found } => {
                (*found).into()
            }
            InputProblem::NoHcl {
                bundle_under: Some(_),
                ..
            } => "should be `hcl`".into(),
            InputProblem::NoHcl { empty: true, .. } => "empty".into(),
            InputProblem::NoHcl { .. } => "no `hcl` in this input".into(),
        }
    }

    /// How to fix it.
    pub fn help(&self) -> String {
        const SHAPE: &str = "input:\n  apiVersion: hcl.fn.crossplane.io/v1beta1\n  kind: HclInput\n  hcl: |\n    -- main.hcl --\n    …";
        match self {
            InputProblem::NotAMapping {
                holds_bundle: true, ..
            } => format!(
                "a step's input must be an object (the Composition schema says `type: object`); \
                 function-hcl's README writes the bundle as the input itself, which Crossplane \
                 rejects. Move it under `hcl`:\n{SHAPE}"
            ),
            InputProblem::NoHcl {
                bundle_under: Some(key),
                ..
            } => format!(
                "function-hcl reads the program from `hcl`, not `{key}`; rename the field:\n{SHAPE}"
            ),
            InputProblem::NoHcl { empty: true, .. } => format!(
                "function-hcl fails with `input HCL was not specified`; put the bundle \
                 (`fnhcl package DIR --into COMPOSITION.yaml`) under `hcl`:\n{SHAPE}"
            ),
            _ => format!(
                "function-hcl reads an HclInput object with the txtar bundle as text under \
                 `hcl` (`fnhcl package DIR --into COMPOSITION.yaml` writes it):\n{SHAPE}"
            ),
        }
    }
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

    /// Why the input is not function-hcl's (`None` when it is).
    pub fn input_problem(&self) -> Option<InputProblem> {
        if self.is_hcl {
            return None;
        }
        let Some(input) = self.input() else {
            return Some(InputProblem::Missing);
        };
        let found = match &input.kind {
            NodeKind::Mapping(_) => None,
            NodeKind::Sequence(_) => Some("a list"),
            NodeKind::Scalar { .. } | NodeKind::Alias => Some(scalar_word(input)),
        };
        if let Some(found) = found {
            return Some(InputProblem::NotAMapping {
                found,
                holds_bundle: input.as_str().is_some_and(holds_bundle),
            });
        }
        match input.get("hcl") {
            Some(hcl) if !matches!(hcl.kind, NodeKind::Scalar { .. }) => {
                Some(InputProblem::HclNotText {
                    found: match hcl.kind {
                        NodeKind::Sequence(_) => "a list",
                        _ => "a mapping",
                    },
                })
            }
            hcl => {
                let kind = input.get("kind").and_then(Node::as_str).unwrap_or("");
                let bundle_under = match &input.kind {
                    NodeKind::Mapping(entries) => entries
                        .iter()
                        .find(|(_, v)| v.as_str().is_some_and(holds_bundle))
                        .and_then(|(k, _)| k.as_str())
                        .map(str::to_string),
                    _ => None,
                };
                Some(InputProblem::NoHcl {
                    wrong_kind: (kind != "HclInput").then(|| kind.to_string()),
                    bundle_under,
                    empty: hcl.is_some(),
                })
            }
        }
    }

    /// Byte range of the key a problem is about: `hcl`, the key holding the bundle, or
    /// `input` (or the step's name when it has no input).
    pub fn problem_span(&self, problem: &InputProblem) -> Range<usize> {
        let Some((key, input)) = self.node.entry("input") else {
            return self.name_span();
        };
        let inner = match problem {
            InputProblem::HclNotText { .. } | InputProblem::NoHcl { empty: true, .. } => {
                input.entry("hcl")
            }
            InputProblem::NoHcl {
                bundle_under: Some(k),
                ..
            } => input.entry(k),
            _ => None,
        };
        inner.map_or(key.span.clone(), |(k, _)| k.span.clone())
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
    /// `spec.pipeline` is not a list.
    #[error("composition {name:?}: spec.pipeline is {found}, not a list of steps")]
    BadPipeline {
        /// The Composition's name.
        name: String,
        /// What it is (`a number`, `a mapping`, …).
        found: &'static str,
        /// Where it is written.
        span: Range<usize>,
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
    /// A step means to run function-hcl but its input is not an `HclInput`.
    #[error("step {step:?} cannot run function-hcl: {}", .problem.describe())]
    InvalidInput {
        /// The step.
        step: String,
        /// What is wrong.
        problem: InputProblem,
        /// The step's input (or name).
        span: Range<usize>,
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
    /// Whether `text` may be a Composition, by its words alone: [`parse`](Self::parse)
    /// accepts only a first document of kind `Composition` and API version
    /// `apiextensions.crossplane.io/v1`, so a text without both words is none (and need not
    /// be parsed when looking for Compositions among a folder's YAML files).
    pub fn may_be(text: &str) -> bool {
        text.contains("Composition") && text.contains("apiextensions.crossplane.io/v1")
    }

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
        let pipeline = document
            .root
            .get("spec")
            .and_then(|spec| spec.get("pipeline"));
        // crossplane cannot decode a Composition whose pipeline is not a list (a null one is
        // no pipeline).
        if let Some(node) = pipeline {
            let found = match &node.kind {
                NodeKind::Sequence(_) => None,
                NodeKind::Mapping(_) => Some("a mapping"),
                NodeKind::Alias => Some("an alias"),
                NodeKind::Scalar { value, style } => match (value.as_str(), style) {
                    ("" | "~" | "null" | "Null" | "NULL", Style::Plain) => None,
                    _ => Some("a scalar"),
                },
            };
            if let Some(found) = found {
                return Err(CompositionError::BadPipeline {
                    name,
                    found,
                    span: node.span.clone(),
                });
            }
        }
        let steps = pipeline
            .map(|pipeline| pipeline.items().iter().map(read_step).collect())
            .unwrap_or_default();
        Ok(Composition {
            name,
            steps,
            document,
        })
    }

    /// Reads the pipeline of a Crossplane Operation (`ops.crossplane.io/v1alpha1`) from the
    /// text of a YAML file: an `Operation`'s `spec.pipeline`, or the pipeline of the
    /// `spec.operationTemplate` of a `CronOperation` or `WatchOperation`. Its steps are found
    /// as a Composition's are; `name` is the object's.
    pub fn parse_operation(text: &str) -> Result<Composition, CompositionError> {
        let document = read_first(text)
            .map_err(CompositionError::Yaml)?
            .ok_or(CompositionError::Empty)?;
        let value = &document.value;
        let kind = value["kind"].as_str().unwrap_or("");
        let name = value["metadata"]["name"].as_str().unwrap_or("").to_string();
        let spec = document.root.get("spec");
        let spec = match kind {
            "Operation" => spec,
            "CronOperation" | "WatchOperation" => spec
                .and_then(|s| s.get("operationTemplate"))
                .and_then(|t| t.get("spec")),
            _ => {
                let span = document
                    .root
                    .get("kind")
                    .map_or(document.root.span.clone(), |n| n.span.clone());
                return Err(CompositionError::NotAComposition {
                    found: format!("{kind}/{name}"),
                    span,
                });
            }
        };
        let steps = spec
            .and_then(|spec| spec.get("pipeline"))
            .filter(|p| matches!(p.kind, NodeKind::Sequence(_)))
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
                if found.intends_hcl
                    && let Some(error) = found.invalid_input()
                {
                    return Err(error);
                }
                return Err(CompositionError::NotHclStep {
                    step: found.name.clone(),
                    function: found.function.clone(),
                    span: found.name_span(),
                });
            }
            return Ok(found);
        }
        // Steps that mean to run function-hcl count, usable or not: a broken one is reported
        // with what is wrong with it rather than as no step at all.
        let hcl: Vec<&Step> = self
            .steps
            .iter()
            .filter(|s| s.is_hcl || s.intends_hcl)
            .collect();
        match hcl.as_slice() {
            [only] => match only.invalid_input() {
                Some(error) => Err(error),
                None => Ok(only),
            },
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

    /// The function-hcl step a bundle may be written into: the one [`Composition::hcl_step`]
    /// finds, or a skeleton's step whose input mapping has an empty `hcl` or none at all
    /// (what `fnhcl package --into` fills). Any other problem with the input stays an error.
    pub fn writable_step(&self, step: Option<&str>) -> Result<&Step, CompositionError> {
        let error = match self.hcl_step(step) {
            Ok(found) => return Ok(found),
            Err(error) => error,
        };
        if let CompositionError::InvalidInput {
            step: name,
            problem: InputProblem::NoHcl {
                bundle_under: None, ..
            },
            ..
        } = &error
            && let Some(found) = self.steps.iter().find(|s| &s.name == name && s.intends_hcl)
        {
            return Ok(found);
        }
        Err(error)
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
    let input = node.get("input");
    let is_hcl = input
        .and_then(|input| input.get("hcl"))
        .is_some_and(|hcl| matches!(hcl.kind, NodeKind::Scalar { .. }) && !is_null(hcl));
    let intends_hcl = function
        .as_deref()
        .is_some_and(|f| f.contains("function-hcl"))
        || input.is_some_and(|input| {
            input.get("hcl").is_some()
                || input.get("kind").and_then(Node::as_str) == Some("HclInput")
                || input
                    .get("apiVersion")
                    .and_then(Node::as_str)
                    .is_some_and(|v| v.starts_with("hcl.fn.crossplane.io/"))
                || input.as_str().is_some_and(holds_bundle)
        });
    Step {
        name,
        function,
        is_hcl,
        intends_hcl,
        node: node.clone(),
    }
}

impl Step {
    /// The error for a step whose input is not function-hcl's.
    pub fn invalid_input(&self) -> Option<CompositionError> {
        let problem = self.input_problem()?;
        Some(CompositionError::InvalidInput {
            step: self.name.clone(),
            span: self.problem_span(&problem),
            problem,
        })
    }
}

/// A scalar YAML reads as null (`hcl:`, `hcl: ~`), or the empty text.
fn is_null(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Scalar { value, style } => {
            value.is_empty()
                || (*style == Style::Plain
                    && matches!(value.as_str(), "~" | "null" | "Null" | "NULL"))
        }
        _ => false,
    }
}

/// "a string", "a number", … for a scalar, as YAML would type it.
fn scalar_word(node: &Node) -> &'static str {
    match &node.kind {
        NodeKind::Scalar {
            style: Style::Plain,
            value,
        } => {
            if is_null(node) {
                "null"
            } else if matches!(
                value.as_str(),
                "true" | "false" | "True" | "False" | "TRUE" | "FALSE"
            ) {
                "a boolean"
            } else if value.parse::<f64>().is_ok() {
                "a number"
            } else {
                "a string"
            }
        }
        NodeKind::Alias => "an alias",
        _ => "a string",
    }
}

/// Whether `text` holds a txtar bundle with an `.hcl` member (`-- main.hcl --`).
fn holds_bundle(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim();
        line.strip_prefix("-- ")
            .and_then(|l| l.strip_suffix(" --"))
            .is_some_and(|name| name.trim().ends_with(".hcl"))
    })
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
    let chosen = composition.writable_step(step)?;
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
    fn a_skeleton_step_is_writable_but_not_readable() {
        let skeleton = |hcl: &str| {
            format!(
                "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: s\nspec:\n  pipeline:\n  - step: hcl\n    input:\n      kind: HclInput\n{hcl}"
            )
        };
        for hcl in ["      hcl: \"\"\n", "      hcl:\n", ""] {
            let comp = Composition::parse(&skeleton(hcl)).unwrap();
            assert!(comp.hcl_step(None).is_err(), "{hcl:?}");
            assert_eq!(comp.writable_step(None).unwrap().name, "hcl", "{hcl:?}");
        }
        let mapping = Composition::parse(&skeleton("      hcl: {a: b}\n")).unwrap();
        assert!(mapping.writable_step(None).is_err());
    }

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

    fn one_step(input: &str) -> Composition {
        Composition::parse(&format!(
            "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: demo\nspec:\n  mode: Pipeline\n  pipeline:\n  - step: run\n    functionRef:\n      name: some-function\n{input}"
        ))
        .unwrap()
    }

    fn problem(input: &str) -> Option<InputProblem> {
        match one_step(input).hcl_step(None) {
            Ok(_) => None,
            Err(CompositionError::InvalidInput { problem, .. }) => Some(problem),
            Err(other) => panic!("unexpected error: {other}"),
        }
    }

    #[test]
    fn a_step_meant_for_function_hcl_says_what_is_wrong_with_its_input() {
        assert_eq!(
            problem("    input: |\n      -- main.hcl --\n      locals {}\n"),
            Some(InputProblem::NotAMapping {
                found: "a string",
                holds_bundle: true
            })
        );
        assert_eq!(
            problem("    input:\n      kind: HclInput\n"),
            Some(InputProblem::NoHcl {
                wrong_kind: None,
                bundle_under: None,
                empty: false
            })
        );
        assert_eq!(
            problem(
                "    input:\n      apiVersion: hcl.fn.crossplane.io/v1beta1\n      kind: Input\n      script: |\n        -- a.hcl --\n"
            ),
            Some(InputProblem::NoHcl {
                wrong_kind: Some("Input".into()),
                bundle_under: Some("script".into()),
                empty: false
            })
        );
        assert_eq!(
            problem("    input:\n      kind: HclInput\n      hcl: ~\n"),
            Some(InputProblem::NoHcl {
                wrong_kind: None,
                bundle_under: None,
                empty: true
            })
        );
        assert_eq!(
            problem("    input:\n      hcl:\n        main: x\n"),
            Some(InputProblem::HclNotText { found: "a mapping" })
        );
        // function-hcl does not read `kind`: an `hcl` text is enough.
        assert_eq!(
            problem("    input:\n      kind: Other\n      hcl: |\n        -- a.hcl --\n"),
            None
        );
        // A step that does not mean function-hcl stays "no function-hcl step".
        assert!(matches!(
            one_step("    input:\n      kind: Patches\n").hcl_step(None),
            Err(CompositionError::NoHclStep { .. })
        ));
    }

    #[test]
    fn the_function_name_says_function_hcl() {
        let comp = Composition::parse(&TWO_STEPS.replace("fn-hcl", "function-hcl").replace(
            "hcl-b\n    input:\n      hcl: |\n        -- main.hcl --\n",
            "hcl-b\n    functionRef:\n      name: function-hcl\n",
        ))
        .unwrap();
        assert!(matches!(
            comp.hcl_step(Some("hcl-b")),
            Err(CompositionError::InvalidInput {
                problem: InputProblem::Missing,
                ..
            })
        ));
    }

    #[test]
    fn other_kinds_are_rejected_with_crossplanes_message() {
        let err = Composition::parse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
            .unwrap_err();
        assert_eq!(err.to_string(), "not a composition: ConfigMap/x");
    }
}
