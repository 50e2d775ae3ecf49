//! `fnhcl convert --verify`: the original Composition (its P&T steps run natively) and the
//! converted one rendered with the same XR, observed resources, required resources and
//! context, and their outputs compared with [`crate::diff`].
//!
//! Compared: the XR (its status) and every composed resource. Not compared: `Result`s and
//! the `Context` (not rendered), and the conditions each function adds about itself to the
//! XR — function-hcl's `FullyResolved` and `HclDiagnostics` — which P&T does not write.

use crate::diagnostics::Diagnostic;
use crate::diff::{StreamDiff, diff_streams};
use crate::render::inputs::{self, Io, Request};
use crate::source::SourceMap;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

/// The conditions function-hcl adds to the XR about its own run, left out of the comparison.
pub const OWN_CONDITIONS: &[&str] = &["FullyResolved", "HclDiagnostics"];

/// `fnhcl render`'s default `--crossplane-version`.
pub const DEFAULT_CROSSPLANE_VERSION: &str = "2.5";

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
        context_data: Vec::new(),
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
