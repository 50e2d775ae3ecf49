//! One function call's request from files, as `crossplane render` would send it to a step:
//! `fnhcl eval` builds its `req` this way.

use super::files::{context_map, resource_docs, yaml_docs};
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::eval::proto::{Resource, Resources, RunFunctionRequest, State};
use crate::render::composition_resource_name;
use crate::source::SourceMap;
use serde_json::Value as Json;
use std::path::Path;

/// The files a request is made of.
#[derive(Clone, Copy, Debug, Default)]
pub struct RequestFiles<'a> {
    /// The XR (its first document).
    pub xr: Option<&'a Path>,
    /// The observed composed resources.
    pub observed: Option<&'a Path>,
    /// `-e`: `NAME=PATH` puts the resources at `req.extra_resources.NAME`; a bare `PATH`
    /// (as `render -e` takes it) adds them to the pool the program's requirements select from.
    pub required: &'a [String],
    /// `--context-files` (`KEY=PATH`).
    pub context_files: &'a [String],
    /// `--context-values` (`KEY=VALUE`).
    pub context_values: &'a [String],
}

/// A request built from files, and the resources its requirements may select from.
#[derive(Clone, Debug, Default)]
pub struct FunctionRequest {
    /// The request, with the `NAME=PATH` extra resources in place.
    pub request: RunFunctionRequest,
    /// The resources of the bare `-e PATH`s, for the requirements to select from (as
    /// `crossplane render -e` supplies them).
    pub pool: Vec<Json>,
}

/// Whether an `-e` value is `NAME=PATH` (a name, then `=`): an existing path as written is
/// always a path, even with an `=` in it.
fn named_requirement(spec: &str) -> Option<(&str, &str)> {
    if Path::new(spec).exists() {
        return None;
    }
    let (name, path) = spec.split_once('=')?;
    let mut chars = name.chars();
    let first = chars.next()?;
    let is_name = (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    is_name.then_some((name, path))
}

/// The request the files describe; warnings (a requirement that matched nothing) go to
/// `warnings` as they are found.
pub fn function_request(
    files: &RequestFiles,
    map: &mut SourceMap,
    warnings: &mut Vec<Diagnostic>,
) -> Result<FunctionRequest, Box<Diagnostic>> {
    let mut request = RunFunctionRequest::default();
    let mut pool = Vec::new();
    if let Some(xr) = files.xr {
        let xr = yaml_docs(xr, map)?.into_iter().next().unwrap_or(Json::Null);
        request.observed = State {
            composite: Some(Resource::of(xr)),
            ..State::default()
        };
    }
    if let Some(path) = files.observed {
        for doc in resource_docs(path, "observed resources", map)? {
            let name = composition_resource_name(&doc).to_string();
            request.observed.resources.insert(name, Resource::of(doc));
        }
    }
    for spec in files.required {
        let Some((name, path)) = named_requirement(spec) else {
            pool.extend(resource_docs(Path::new(spec), "required resources", map)?);
            continue;
        };
        let items: Vec<Resource> = resource_docs(Path::new(path), "extra resources", map)?
            .into_iter()
            .map(Resource::of)
            .collect();
        if items.is_empty() {
            warnings.push(
                Diagnostic::new(
                    Code::I002,
                    format!("`{path}` holds no resources: req.extra_resources.{name} is null"),
                )
                .with_severity(Severity::Warning)
                .with_path(path.to_string())
                .with_help("function-hcl gives null for a requirement that matched nothing"),
            );
        }
        request
            .extra_resources
            .insert(name.to_string(), Resources { items });
    }
    let context = context_map(files.context_files, &[], files.context_values, map)?;
    if !context.is_empty() {
        request.context = Some(Json::Object(context));
    }
    Ok(FunctionRequest { request, pool })
}
