//! `render --xrd`: the XR checked against the schema Crossplane builds from the XRD, after
//! its defaults (crossplane#6809). crossplane v2.2.4's render only defaults the XR with the
//! XRD and renders whatever it holds, so each problem is a warning at the XR file's field
//! and the render goes on; the API server would refuse such an XR when it is created.

use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::schema::inputs::{Resource, locate};
use crate::schema::{Schemas, validate};
use crate::source::pointer::Pointer;
use crate::source::{SourceMap, loader};
use serde_json::Value as Json;
use std::path::Path;

/// A warning for each way `xr` (defaulted) breaks the XR schema of `xrd`. `xr_path` is the
/// XR file the warnings point into, when the XR was read from one.
pub fn xr_warnings(
    map: &SourceMap,
    xr: &Json,
    xrd: &Json,
    xr_path: Option<&Path>,
) -> Vec<Diagnostic> {
    let text = |v: &Json, p: &str| v.at(p).and_then(Json::as_str).unwrap_or("").to_string();
    let (api_version, kind) = (text(xr, "/apiVersion"), text(xr, "/kind"));
    let name = text(xr, "/metadata/name");
    let warn = |d: Diagnostic| d.with_severity(Severity::Warning);
    let mut schemas = Schemas::new();
    if let Err(e) = schemas.add_document("--xrd", xrd) {
        return vec![warn(
            Diagnostic::new(Code::V705, format!("the XR {kind} {name:?} is not validated: {e}"))
                .with_help("give an XRD (apiextensions.crossplane.io/v1 or v2) with a structural openAPIV3Schema"),
        )];
    }
    let Some(entry) = schemas.get(&api_version, &kind) else {
        let xrd_kind = text(xrd, "/spec/names/kind");
        return vec![warn(
            Diagnostic::new(
                Code::V704,
                format!("the XR {kind} {name:?} is not validated: the XRD defines {xrd_kind}, not {api_version}, Kind={kind}"),
            )
            .with_help("give the XRD of the XR's kind and version to --xrd"),
        )];
    };
    let resource = Resource {
        value: xr.clone(),
        file: None,
        node: None,
    };
    let resource = xr_path
        .and_then(|path| located(map, path, &resource))
        .unwrap_or(resource);
    validate(xr, &entry.schema)
        .violations
        .iter()
        .map(|v| {
            let d = warn(v.diagnostic(&format!("the XR {kind} {name:?}")));
            locate(d, &resource, &v.path, map)
        })
        .collect()
}

/// `resource` with the first document of the XR file (already read into `map`) as its node.
fn located(map: &SourceMap, path: &Path, resource: &Resource) -> Option<Resource> {
    let name = loader::display_path(path);
    let file = map
        .files()
        .iter()
        .rev()
        .find(|f| f.name() == name || Path::new(f.name()) == path)?;
    let docs = crate::source::yaml::read_stream(file.text()).ok()?;
    let root = docs.into_iter().next()?.root;
    Some(Resource {
        value: resource.value.clone(),
        file: Some(file.id()),
        node: Some(root),
    })
}
