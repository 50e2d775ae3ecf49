//! One function call's request from files, as `crossplane render` would send it to a step:
//! `fnhcl eval` builds its `req` this way.

use super::files::{context_map, resource_docs, yaml_docs};
use crate::diagnostics::{Code, Diagnostic, Severity, usage};
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
    /// `NAME=PATH`: extra resources that become `req.extra_resources.NAME`.
    pub required: &'a [String],
    /// `--context-files` (`KEY=PATH`).
    pub context_files: &'a [String],
    /// `--context-values` (`KEY=VALUE`).
    pub context_values: &'a [String],
}

/// The request the files describe; warnings (a requirement that matched nothing) go to
/// `warnings` as they are found.
pub fn function_request(
    files: &RequestFiles,
    map: &mut SourceMap,
    warnings: &mut Vec<Diagnostic>,
) -> Result<RunFunctionRequest, Box<Diagnostic>> {
    let mut request = RunFunctionRequest::default();
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
        let Some((name, path)) = spec.split_once('=') else {
            return Err(usage(
                format!("`{spec}` does not name a requirement"),
                "write -e NAME=PATH: the resources become req.extra_resources.NAME",
            ));
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
    Ok(request)
}
