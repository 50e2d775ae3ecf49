//! L9: `fnhcl convert`: a Composition's patch-and-transform steps as idiomatic function-hcl
//! with P&T's semantics, and (`verify`) the proof that both render the same. Reads and
//! writes files only where told; prints nothing.
//!
//! Each pipeline step whose input is a `pt.fn.crossplane.io` `Resources` becomes a
//! function-hcl step whose bundle holds one `main.hcl` ([`emit`]); everything P&T does that
//! the program cannot say exactly is a [`Todo`], written as a `# TODO(fnhcl convert): …`
//! comment where it applies and returned as an `M801` diagnostic.

mod emit;
pub mod hcl;
pub mod transform;
mod tree;
pub mod verify;

pub use emit::{ENVIRONMENT_KEY, Todo};

use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::source::SourceMap;
use crate::source::loader;
use crate::source::pointer::Pointer;
use serde_json::{Value as Json, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The name of the function the converted steps call.
pub const FUNCTION_HCL: &str = "function-hcl";

/// One converted step.
#[derive(Clone, Debug)]
pub struct Step {
    /// The step's name (`step:`).
    pub name: String,
    /// `main.hcl`, formatted.
    pub program: String,
    /// What the program leaves as a TODO.
    pub todos: Vec<Todo>,
    /// What `check` finds in the program (nothing, when the conversion went right).
    pub findings: Vec<Diagnostic>,
}

/// A converted Composition.
#[derive(Clone, Debug)]
pub struct Converted {
    /// The steps that were P&T steps, in pipeline order.
    pub steps: Vec<Step>,
    /// The new Composition (YAML): every P&T step replaced by a function-hcl step holding its
    /// bundle.
    pub composition: String,
    /// The `compositeTypeRef` (apiVersion, kind), for the program folders' `composition.yaml`.
    pub xr_type: Option<(String, String)>,
}

impl Converted {
    /// Every TODO as an `M801` warning, and `check`'s findings.
    pub fn diagnostics(&self, path: &str) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for step in &self.steps {
            for t in &step.todos {
                let at = match &t.resource {
                    Some(r) => format!("step `{}`, resource `{r}`", step.name),
                    None => format!("step `{}`", step.name),
                };
                out.push(
                    Diagnostic::new(Code::M801, format!("{at}: {}", t.what))
                        .with_path(path.to_string())
                        .with_help("a `# TODO(fnhcl convert)` comment marks the place in the program; complete it by hand, then run `fnhcl convert --verify`"),
                );
            }
            out.extend(step.findings.iter().cloned());
        }
        out
    }
}

/// Whether a pipeline step's input is patch-and-transform's.
pub fn is_pt_input(input: &Json) -> bool {
    input
        .get("apiVersion")
        .and_then(Json::as_str)
        .is_some_and(|v| v.starts_with("pt.fn.crossplane.io/"))
        && input.get("kind").and_then(Json::as_str) == Some("Resources")
}

/// Converts the Composition in `text` (`path` names it in diagnostics).
pub fn convert(path: &str, text: &str) -> Result<Converted, Box<Diagnostic>> {
    let document = crate::source::yaml::read_first(text)
        .map_err(|e| {
            Box::new(
                Diagnostic::new(
                    Code::I002,
                    format!("`{path}` is not valid YAML: {}", e.message),
                )
                .with_path(path.to_string()),
            )
        })?
        .map(|d| serde_json::to_value(&d.value).unwrap_or(Json::Null))
        .unwrap_or(Json::Null);
    if document.get("kind").and_then(Json::as_str) != Some("Composition") {
        return Err(Box::new(
            Diagnostic::new(Code::I004, format!("`{path}` is not a Composition"))
                .with_path(path.to_string())
                .with_help("give the Composition YAML whose patch-and-transform steps to convert"),
        ));
    }
    // A legacy `mode: Resources` Composition converts as the migrator's pipeline of it.
    let document = if crate::pt::migrate::is_legacy(&document) {
        crate::pt::migrate::convert(&document, None)
            .map_err(|e| Box::new(Diagnostic::new(Code::M802, e).with_path(path.to_string())))?
    } else {
        document
    };
    let mut composition = document.clone();
    let mut steps = Vec::new();
    if let Some(pipeline) = composition
        .pointer_mut("/spec/pipeline")
        .and_then(Json::as_array_mut)
    {
        for (i, step) in pipeline.iter_mut().enumerate() {
            let Some(input) = step.get("input").filter(|i| is_pt_input(i)) else {
                continue;
            };
            let name = step
                .get("step")
                .and_then(Json::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| format!("step-{i}"));
            let converted = convert_input(&name, input);
            *step = hcl_step(&name, &converted.program);
            steps.push(converted);
        }
    }
    if steps.is_empty() {
        return Err(Box::new(
            Diagnostic::new(
                Code::M802,
                format!("`{path}` has no patch-and-transform step"),
            )
            .with_path(path.to_string())
            .with_help("a step converts when its `input` has `apiVersion: pt.fn.crossplane.io/v1beta1` and `kind: Resources`; a Composition without `mode: Pipeline` converts through its `spec.resources`"),
        ));
    }
    let xr_type = document.at("/spec/compositeTypeRef").and_then(|r| {
        Some((
            r.get("apiVersion")?.as_str()?.to_string(),
            r.get("kind")?.as_str()?.to_string(),
        ))
    });
    Ok(Converted {
        steps,
        composition: with_newline(crate::source::yaml_emit::to_yaml(&composition)),
        xr_type,
    })
}

fn with_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// One P&T step input (named `name`) as a formatted, checked program.
pub fn convert_input(name: &str, input: &Json) -> Step {
    let mut program = emit::program(input);
    if let Err(e) = crate::pt::input::decode(input) {
        let what = format!("P&T fails this step's input: {e}");
        program.text = format!("# TODO(fnhcl convert): {what}\n\n{}", program.text);
        program.todos.insert(
            0,
            Todo {
                resource: None,
                what,
            },
        );
    }
    let text = with_newline(crate::fmt::format(&program.text));
    let findings = check(name, &text);
    Step {
        name: name.to_string(),
        program: text,
        todos: program.todos,
        findings,
    }
}

/// `check`'s findings (warnings and errors) in the program `main.hcl` of step `step`, each
/// placed by `STEP/main.hcl:LINE:COL` in its text (the program is not in the caller's source
/// map).
fn check(step: &str, text: &str) -> Vec<Diagnostic> {
    let mut map = SourceMap::default();
    let Ok(bundle) = loader::load_txtar(&mut map, "main.hcl", bundle_text(text)) else {
        return Vec::new();
    };
    let map = Arc::new(map);
    crate::check::check_bundle(&map, &bundle, &crate::check::Config::default())
        .into_iter()
        .filter(|d| d.severity != Severity::Info)
        .map(|mut d| {
            let place = d.primary.take().map(|label| {
                let at = map.get(label.span.file).line_col(label.span.start as usize);
                format!(":{}:{}", at.line, at.column)
            });
            d.labels.clear();
            d.expression = None;
            d.summary = format!(
                "{step}/main.hcl{}: {}",
                place.unwrap_or_default(),
                d.summary
            );
            d
        })
        .collect()
}

/// The txtar bundle of one program.
pub fn bundle_text(program: &str) -> String {
    crate::source::txtar::format("", [("main.hcl", program)])
}

/// A function-hcl step holding `program`.
fn hcl_step(name: &str, program: &str) -> Json {
    json!({
        "step": name,
        "functionRef": { "name": FUNCTION_HCL },
        "input": {
            "apiVersion": "hcl.fn.crossplane.io/v1beta1",
            "kind": "HclInput",
            "hcl": bundle_text(program),
        },
    })
}

/// The files [`write`] writes into a folder: the new Composition, and per step a folder with
/// `main.hcl` and the `composition.yaml` naming the XR type (for `check` and the editor).
pub fn files(converted: &Converted) -> Vec<(PathBuf, String)> {
    let mut out = vec![(
        PathBuf::from("composition.yaml"),
        converted.composition.clone(),
    )];
    for step in &converted.steps {
        let dir = PathBuf::from(&step.name);
        out.push((dir.join("main.hcl"), step.program.clone()));
        if let Some((api_version, kind)) = &converted.xr_type {
            out.push((
                dir.join(loader::CONFIG_FILE),
                format!("xrd:\n  apiVersion: {api_version}\n  kind: {kind}\n"),
            ));
        }
    }
    out
}

/// Writes [`files`] below `dir` (created when missing), each file atomically; returns the
/// paths written. The folders are named after the Composition's steps, which come from the
/// file: a step whose folder would be outside `dir` (an absolute name, `..`) or reached
/// through a symbolic link is refused before anything is written.
pub fn write(converted: &Converted, dir: &Path) -> Result<Vec<PathBuf>, Box<Diagnostic>> {
    let mut targets = Vec::new();
    for (relative, text) in files(converted) {
        let shown = relative.display().to_string();
        let refused = |why: String| {
            Box::new(
                Diagnostic::new(Code::I016, why)
                    .with_path(dir.display().to_string())
                    .with_help("rename the step to a plain name, or convert into a folder without symbolic links"),
            )
        };
        let Some(clean) = crate::package::safe_relative(&shown) else {
            return Err(refused(format!(
                "`{shown}` would be written outside `{}`",
                dir.display()
            )));
        };
        if let Some(link) = crate::package::link_below(dir, &clean) {
            return Err(refused(format!(
                "`{shown}` would be written through the symbolic link `{}`, which may lead outside `{}`",
                link.display(),
                dir.display()
            )));
        }
        targets.push((dir.join(clean), text));
    }
    let mut written = Vec::new();
    for (path, text) in targets {
        let io = |e: std::io::Error| {
            Box::new(
                Diagnostic::new(
                    Code::I001,
                    format!("cannot write `{}`: {e}", path.display()),
                )
                .with_path(path.display().to_string()),
            )
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        crate::source::write::write_atomic(&path, text.as_bytes()).map_err(io)?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::{Converted, Step, write};

    fn converted(step: &str) -> Converted {
        Converted {
            steps: vec![Step {
                name: step.into(),
                program: "locals {}\n".into(),
                todos: Vec::new(),
                findings: Vec::new(),
            }],
            composition: "kind: Composition\n".into(),
            xr_type: None,
        }
    }

    /// Step names come from the Composition: one that climbs out of the folder, or a folder
    /// that is a symbolic link, writes nothing at all.
    #[test]
    fn step_folders_stay_below_the_folder_named() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("out");
        for name in ["../escaped", "/tmp/absolute", "a/../../escaped"] {
            let refused = write(&converted(name), &out).unwrap_err();
            assert_eq!(refused.code.as_str(), "I016", "{name}");
            assert!(!out.exists(), "{name}: nothing is written");
            assert!(!root.path().join("escaped").exists());
        }
        std::fs::create_dir_all(&out).unwrap();
        let elsewhere = root.path().join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, out.join("linked")).unwrap();
        let refused = write(&converted("linked"), &out).unwrap_err();
        assert!(
            refused.summary.contains("symbolic link"),
            "{}",
            refused.summary
        );
        assert!(std::fs::read_dir(&elsewhere).unwrap().next().is_none());
        assert!(!out.join("composition.yaml").exists());
        let written = write(&converted("plain"), &out).unwrap();
        assert_eq!(
            written,
            [
                out.join("composition.yaml"),
                out.join("plain").join("main.hcl")
            ]
        );
    }
}
