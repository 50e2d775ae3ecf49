//! `fnhcl convert --verify`: the original Composition (its P&T steps run natively) and the
//! converted one rendered with the same XR, observed resources, required resources and
//! context, and their outputs compared with [`crate::diff`].
//!
//! Compared: the XR (its status) and every composed resource. Not compared: `Result`s and
//! the `Context` (not rendered), and the conditions each function adds about itself to the
//! XR — function-hcl's `FullyResolved` and `HclDiagnostics` — which P&T does not write.

use crate::diagnostics::Diagnostic;
use crate::diff::{StreamDiff, diff_streams};
use crate::eval::proto::RunFunctionRequest;
use crate::render::inputs::{self, Io, Request};
use crate::source::SourceMap;
use crate::source::pointer::Pointer;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

/// The conditions function-hcl adds to the XR about its own run, left out of the comparison.
pub const OWN_CONDITIONS: &[&str] = &["FullyResolved", "HclDiagnostics"];

pub use crate::render::version::DEFAULT_CROSSPLANE_VERSION;

/// The render inputs both compositions get.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// The XR.
    pub xr: PathBuf,
    /// The Functions file, when the pipeline has steps that are neither P&T nor function-hcl.
    pub functions: Option<PathBuf>,
    /// Observed composed resources.
    pub observed_resources: Option<PathBuf>,
    /// Required (extra) resources.
    pub required_resources: Vec<PathBuf>,
    /// `--context-files`.
    pub context_files: Vec<String>,
    /// `--context-values`.
    pub context_values: Vec<String>,
    /// Context entries given as values (the corpus' EnvironmentConfigs as the environment).
    pub context_data: Vec<(String, Json)>,
    /// `--crossplane-version` (`render`'s default when empty).
    pub crossplane_version: String,
}

/// The two renders and their comparison.
#[derive(Clone, Debug)]
pub struct Verified {
    /// The original's documents (as compared).
    pub original: Vec<Json>,
    /// The converted composition's documents (as compared).
    pub converted: Vec<Json>,
    /// The comparison.
    pub diff: StreamDiff,
}

impl Verified {
    /// No difference.
    pub fn equal(&self) -> bool {
        !self.diff.summary().differs()
    }
}

/// Which render failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failed {
    /// The original composition's.
    Original,
    /// The converted composition's.
    Converted,
}

/// A render request for `source` with `given`'s inputs and nothing extra printed.
pub fn request(source: &Path, given: &Inputs) -> Request {
    Request {
        xr: given.xr.clone(),
        source: source.display().to_string(),
        functions: given.functions.clone(),
        observed_resources: given.observed_resources.clone(),
        required_resources: given.required_resources.clone(),
        context_files: given.context_files.clone(),
        context_values: given.context_values.clone(),
        context_data: given.context_data.clone(),
        include_function_results: false,
        include_context: false,
        include_full_xr: false,
        function_annotations: Vec::new(),
        function_credentials: None,
        xrd: None,
        required_schemas: None,
        timeout: "1m".into(),
        hcl: None,
        step: None,
        crossplane_version: if given.crossplane_version.is_empty() {
            DEFAULT_CROSSPLANE_VERSION.into()
        } else {
            given.crossplane_version.clone()
        },
        validate: Vec::new(),
        coverage: false,
    }
}

/// Renders `original` and `converted` (Composition files) with `given` and compares them.
/// Every render diagnostic goes to `diagnostics`; `Err` names the render that failed.
pub fn verify(
    original: &Path,
    converted: &Path,
    given: &Inputs,
    map: &mut SourceMap,
    io: &mut Io<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Verified, Failed> {
    // A legacy `mode: Resources` Composition renders as the pipeline the migrator makes of it
    // (what Crossplane's own migration would run), written beside the converted one.
    let migrated = legacy_as_pipeline(original, converted);
    let original = migrated.as_deref().unwrap_or(original);
    let old = inputs::documents(map, &request(original, given), None, io, diagnostics)
        .map_err(|_| Failed::Original)?
        .documents;
    let new = inputs::documents(map, &request(converted, given), None, io, diagnostics)
        .map_err(|_| Failed::Converted)?
        .documents;
    let original: Vec<Json> = old.into_iter().map(comparable).collect();
    let converted: Vec<Json> = new.into_iter().map(comparable).collect();
    let diff = diff_streams(&original, &converted, &[]);
    Ok(Verified {
        original,
        converted,
        diff,
    })
}

/// The migrated pipeline of a legacy Composition, written as `original-pipeline.yaml` in the
/// converted Composition's folder; `None` when `original` is not a legacy Composition (or
/// cannot be read: its render then says why).
fn legacy_as_pipeline(original: &Path, converted: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(original).ok()?;
    let document = crate::source::yaml::read_first(&text).ok()??;
    let value = serde_json::to_value(&document.value).ok()?;
    if value.get("kind").and_then(Json::as_str) != Some("Composition")
        || !crate::pt::migrate::is_legacy(&value)
    {
        return None;
    }
    let pipeline = crate::pt::migrate::convert(&value, None).ok()?;
    let path = converted.with_file_name("original-pipeline.yaml");
    std::fs::write(&path, crate::source::yaml_emit::to_yaml(&pipeline)).ok()?;
    Some(path)
}

/// A rendered document without what a function says about its own run.
fn comparable(mut doc: Json) -> Json {
    if let Some(conditions) = doc
        .pointer_mut("/status/conditions")
        .and_then(Json::as_array_mut)
    {
        conditions.retain(|c| {
            !c.get("type")
                .and_then(Json::as_str)
                .is_some_and(|t| OWN_CONDITIONS.contains(&t))
        });
    }
    doc
}

/// How one function call of the converted program compared with P&T's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call {
    /// Same desired resources (with their readiness) and XR status and connection details.
    Equal,
    /// Not compared, and why (P&T fails the call: there is nothing to reproduce).
    Skipped(String),
    /// What differs.
    Different(String),
}

/// Runs the program converted from a P&T request's input on the same request (observed and
/// desired state, context) and compares its response with `expected`, the response P&T gave:
/// every desired composed resource with its readiness, and the desired XR's status and
/// connection details. A desired resource's `metadata.name` and `namespace` copied from the
/// observed resource by P&T are given to the program's too, as Crossplane does for a resource
/// whose desired state has none (`render` compares after Crossplane).
pub fn call(request: &Json, expected: &Json) -> Call {
    if let Some(fatal) = expected
        .get("results")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .find(|r| r.get("severity").and_then(Json::as_str) == Some("SEVERITY_FATAL"))
    {
        let message = fatal.get("message").and_then(Json::as_str).unwrap_or("");
        return Call::Skipped(format!("P&T fails the call: {message}"));
    }
    let input = request.get("input").cloned().unwrap_or(Json::Null);
    let step = super::convert_input("step", &input);
    let mut hcl = request.clone();
    hcl["input"] = serde_json::json!({
        "apiVersion": "hcl.fn.crossplane.io/v1beta1",
        "kind": "HclInput",
        "hcl": super::bundle_text(&step.program),
    });
    let parsed: RunFunctionRequest = match serde_json::from_value(hcl) {
        Ok(r) => r,
        Err(e) => return Call::Skipped(format!("the request does not decode: {e}")),
    };
    let mut map = SourceMap::default();
    let outcome = crate::eval::function::run(&mut map, &parsed, None);
    if let Some(fatal) = outcome
        .response
        .results
        .iter()
        .find(|r| r.severity == "SEVERITY_FATAL")
    {
        return Call::Different(format!("function-hcl fails: {}", fatal.message));
    }
    let ours = serde_json::to_value(&outcome.response.desired).unwrap_or(Json::Null);
    let theirs = expected.get("desired").cloned().unwrap_or(Json::Null);
    let mut problems = Vec::new();
    let empty = serde_json::Map::new();
    let resources = |state: &Json| {
        state
            .get("resources")
            .and_then(Json::as_object)
            .cloned()
            .unwrap_or_default()
    };
    let (our_resources, their_resources) = (resources(&ours), resources(&theirs));
    let observed = request
        .at("/observed/resources")
        .and_then(Json::as_object)
        .unwrap_or(&empty);
    let mut names: Vec<&String> = our_resources.keys().chain(their_resources.keys()).collect();
    names.sort();
    names.dedup();
    for name in names {
        let mut mine = our_resources.get(name).cloned().unwrap_or(Json::Null);
        if let Some(o) = observed.get(name).and_then(|o| o.at("/resource/metadata"))
            && let Some(object) = mine.get_mut("resource").and_then(Json::as_object_mut)
        {
            let meta = object
                .entry("metadata")
                .or_insert_with(|| Json::Object(Default::default()));
            for key in ["name", "namespace"] {
                if let (Some(v), Some(m)) = (o.get(key), meta.as_object_mut()) {
                    m.entry(key).or_insert(v.clone());
                }
            }
        }
        let theirs = their_resources.get(name).cloned().unwrap_or(Json::Null);
        if resource_view(&mine) != resource_view(&theirs) {
            problems.push(format!(
                "resource {name}: P&T {} / function-hcl {}",
                resource_view(&theirs),
                resource_view(&mine)
            ));
        }
    }
    let status = |state: &Json| {
        state
            .at("/composite/resource/status")
            .cloned()
            .unwrap_or(Json::Object(Default::default()))
    };
    if status(&ours) != status(&theirs) {
        problems.push(format!(
            "XR status: P&T {} / function-hcl {}",
            status(&theirs),
            status(&ours)
        ));
    }
    let connection = |state: &Json| {
        state
            .at("/composite/connectionDetails")
            .cloned()
            .unwrap_or(Json::Object(Default::default()))
    };
    if connection(&ours) != connection(&theirs) {
        problems.push(format!(
            "XR connection details: P&T {} / function-hcl {}",
            connection(&theirs),
            connection(&ours)
        ));
    }
    if problems.is_empty() {
        Call::Equal
    } else {
        Call::Different(problems.join("\n"))
    }
}

/// A desired resource as compared: its object, and its readiness (unspecified when absent).
fn resource_view(resource: &Json) -> Json {
    let ready = resource
        .get("ready")
        .and_then(Json::as_str)
        .unwrap_or("READY_UNSPECIFIED");
    serde_json::json!({
        "resource": resource.get("resource").cloned().unwrap_or(Json::Null),
        "ready": ready,
    })
}
