//! L5: a render request — the XR, the composition, the Functions, observed and extra
//! resources, context, credentials and the XRD, named as `fnhcl render`'s flags name them —
//! read into the library's render [`Inputs`] and [`Options`]; and what follows a render that
//! is not printing ([`finish`]). Used by `render`, `diff --rev` and `test`; `eval` builds a
//! single function call's request from files with [`function_request`].

pub mod discarded;
mod files;
pub mod finish;
pub mod operation;
mod request;
mod schemas;
mod steps;
mod xrd;

pub use discarded::{Discarded, discarded, discarded_notes};
pub use files::{context_map, resource_docs, yaml_docs};
pub use finish::{
    Documents, Io, Stopped, discard_warnings, documents, documents_given, report, validate_rendered,
};
pub use operation::{OperationRequest, operation_documents, read_operation};
pub use request::{FunctionRequest, RequestFiles, function_request};
pub use schemas::load_required_schemas;
pub use xrd::xr_warnings;

use crate::diagnostics::{Code, Diagnostic, usage};
use crate::eval::vars::into_float64;
use crate::render::version::EngineRelease;
use crate::render::{Inputs, Options};
use crate::source::SourceMap;
use crate::source::pointer::Pointer;
use files::{first_doc, loading};
use serde_json::Value as Json;
use std::io::Read;
use std::path::PathBuf;
use std::time::{Duration, Instant};

type Fallible<T> = Result<T, Box<Diagnostic>>;

/// The flags of a render, as plain values (`fnhcl render`'s, without the ones that only
/// change how the command prints or exits).
#[derive(Clone, Debug)]
pub struct Request {
    /// The composite resource (XR), a YAML file.
    pub xr: PathBuf,
    /// A Composition, a composition directory, a `.hcl` file, a txtar bundle, or `-`.
    pub source: String,
    /// The Functions file or directory.
    pub functions: Option<PathBuf>,
    /// `-o`: observed composed resources.
    pub observed_resources: Option<PathBuf>,
    /// `-e`: resources the requirements loop may return.
    pub required_resources: Vec<PathBuf>,
    /// `--context-files`: `KEY=PATH`, `;`-separated or repeated.
    pub context_files: Vec<String>,
    /// `--context-values`: `KEY=VALUE`, `;`-separated or repeated.
    pub context_values: Vec<String>,
    /// Context entries given as values rather than flags (a golden case's `context.yaml`), so
    /// no `;` or `=` in them is read as flag syntax: set after `--context-files`, before
    /// `--context-values`.
    pub context_data: Vec<(String, Json)>,
    /// `-r`.
    pub include_function_results: bool,
    /// `-c`.
    pub include_context: bool,
    /// `-x`.
    pub include_full_xr: bool,
    /// `-a KEY=VALUE`: annotations set on every Function.
    pub function_annotations: Vec<String>,
    /// `--function-credentials`.
    pub function_credentials: Option<PathBuf>,
    /// `--xrd`.
    pub xrd: Option<PathBuf>,
    /// `-s`/`--required-schemas`: a folder of OpenAPI v3 JSON documents for functions that
    /// ask for schemas.
    pub required_schemas: Option<PathBuf>,
    /// `--timeout`, a Go duration.
    pub timeout: String,
    /// `--hcl`: the folder that replaces a function-hcl step's inline bundle.
    pub hcl: Option<PathBuf>,
    /// `--step`: the step `--hcl` replaces.
    pub step: Option<String>,
    /// `--crossplane-version`, `X.Y`.
    pub crossplane_version: String,
    /// `--validate`: CRD/XRD files or folders to validate the output against.
    pub validate: Vec<String>,
    /// Record what function-hcl steps exercise (`fnhcl test --lcov`): the render's
    /// `coverage`.
    pub coverage: bool,
}

/// Documents given as values instead of files (a CompositionTest's inline `raw` inputs, a
/// scenario's next XR and observed resources): each one set takes the place of what the
/// request's matching field names (the request's path is then not read).
#[derive(Clone, Debug, Default)]
pub struct Given {
    /// The XR, for [`Request::xr`].
    pub xr: Option<Json>,
    /// The XRD, for [`Request::xrd`] (its defaults are applied to the XR likewise).
    pub xrd: Option<Json>,
    /// The Function documents, for [`Request::functions`].
    pub functions: Option<Vec<Json>>,
    /// Observed composed resources, for [`Request::observed_resources`].
    pub observed: Option<Vec<Json>>,
    /// Extra resources, for [`Request::required_resources`].
    pub required: Option<Vec<Json>>,
}

/// The render a request describes: its inputs read (and checked as crossplane checks them)
/// and its output options. `stdin` is read when SOURCE is `-`.
pub fn read(
    map: &mut SourceMap,
    args: &Request,
    stdin: &mut dyn Read,
) -> Result<(Inputs, Options), Box<Diagnostic>> {
    read_given(map, args, &Given::default(), stdin)
}

/// [`read`], with the documents `given` in place of the files the request names for them.
pub fn read_given(
    map: &mut SourceMap,
    args: &Request,
    given: &Given,
    stdin: &mut dyn Read,
) -> Result<(Inputs, Options), Box<Diagnostic>> {
    let (crossplane_version, engine_release) = parse_crossplane_version(&args.crossplane_version)?;
    let timeout = parse_duration(&args.timeout)?;
    let mut xr = match &given.xr {
        Some(xr) => into_float64(xr.clone()),
        None => first_doc(&args.xr, map).map_err(loading("composite resource", &args.xr))?,
    };
    let xrd = match (&given.xrd, &args.xrd) {
        (Some(xrd), _) => Some(xrd.clone()),
        (None, Some(path)) => Some(first_doc(path, map).map_err(loading("XRD", path))?),
        (None, None) => None,
    };
    if let Some(xrd) = &xrd {
        check_xrd_version(&xr, xrd)?;
        apply_xrd_defaults(&mut xr, xrd);
    }
    let overrides = steps::annotation_overrides(&args.function_annotations)?;
    let functions = match (&given.functions, &args.functions) {
        (Some(docs), _) => Some(steps::functions_of(docs.clone(), &overrides)?),
        (None, Some(path)) => Some(steps::functions(path, &overrides, map)?),
        (None, None) => None,
    };
    let (steps, composition) = steps::pipeline(args, functions.as_ref(), &overrides, map, stdin)?;
    let required = match &given.required {
        Some(docs) => docs.iter().cloned().map(into_float64).collect(),
        None => {
            let mut required = Vec::new();
            for path in &args.required_resources {
                required.extend(
                    resource_docs(path, "extra resources", map)
                        .map_err(loading("required resources", path))?
                        .into_iter()
                        .map(into_float64),
                );
            }
            required
        }
    };
    let observed = match (&given.observed, &args.observed_resources) {
        (Some(docs), _) => docs.iter().cloned().map(into_float64).collect(),
        (None, Some(path)) => resource_docs(path, "observed resources", map)
            .map_err(loading("observed composed resources", path))?
            .into_iter()
            .map(into_float64)
            .collect(),
        (None, None) => Vec::new(),
    };
    let inputs = Inputs {
        xr,
        composition,
        steps,
        observed,
        required,
        context: context_map(
            &args.context_files,
            &args.context_data,
            &args.context_values,
            map,
        )?,
        secrets: match &args.function_credentials {
            Some(path) => {
                resource_docs(path, "credentials", map).map_err(loading("secrets", path))?
            }
            None => Vec::new(),
        },
        xrd,
        schemas: match &args.required_schemas {
            Some(dir) => load_required_schemas(
                dir,
                crate::render::engine::is_engine(crossplane_version),
                map,
            )?,
            None => Vec::new(),
        },
        // crossplane starts its deadline once the inputs are read. A timeout too far away to
        // be an Instant is no deadline at all.
        deadline: Instant::now().checked_add(timeout),
        coverage: args.coverage,
    };
    let options = Options {
        include_function_results: args.include_function_results,
        include_context: args.include_context,
        include_full_xr: args.include_full_xr,
        crossplane_version,
        engine_release,
    };
    Ok((inputs, options))
}

/// The pipeline of a request's source (`--hcl`, `--step`, `--functions` and `-a` applied)
/// and, for a Composition, its JSON: for callers that hold the XR and the other inputs as
/// values rather than files (HCL-native tests).
pub fn pipeline_of(
    map: &mut SourceMap,
    args: &Request,
    stdin: &mut dyn Read,
) -> Result<(Vec<crate::render::Step>, Option<Json>), Box<Diagnostic>> {
    let overrides = steps::annotation_overrides(&args.function_annotations)?;
    let functions = match &args.functions {
        Some(path) => Some(steps::functions(path, &overrides, map)?),
        None => None,
    };
    steps::pipeline(args, functions.as_ref(), &overrides, map, stdin)
}

/// One warning for each `crossplane render` flag given that only concerns containers
/// (`--crossplane-image`, `--crossplane-binary`, `--crossplane-docker-network`, `--cache-dir`,
/// `--max-concurrency`): accepted so that a script written for `crossplane render` runs
/// unchanged, and ignored, since fnhcl runs every function-hcl step itself.
pub fn container_flags(given: &[&str]) -> Vec<Diagnostic> {
    given
        .iter()
        .map(|flag| {
            Diagnostic::new(
                Code::I022,
                format!("`{flag}` is ignored: fnhcl runs no containers"),
            )
            .with_help("it is accepted so that scripts written for `crossplane render` run unchanged; other functions run through the Development runtime (`render.crossplane.io/runtime: Development`)")
        })
        .collect()
}

/// `X.Y` (or `X.Y.Z`, `X.Y.Z-pre`, with or without a `v`): the major and minor version.
pub fn parse_version(text: &str) -> Fallible<(u32, u32)> {
    parse_crossplane_version(text).map(|(version, _)| version)
}

/// `--crossplane-version`: the major and minor version (which dialect) and, for the engine
/// dialect, the engine release whose behaviour a patch version asks for.
pub fn parse_crossplane_version(text: &str) -> Fallible<((u32, u32), EngineRelease)> {
    let bad = || {
        usage(
            format!("`{text}` is not a Crossplane version"),
            "write --crossplane-version 1.20 or 2.2 (classic), or 2.5 or a patch release such as 2.3.3 (engine)",
        )
    };
    let trimmed = text.strip_prefix('v').unwrap_or(text);
    let (numbers, pre_release) = match trimmed.split_once('-') {
        Some((numbers, pre)) if !pre.is_empty() => (numbers, true),
        Some(_) => return Err(bad()),
        None => (trimmed, false),
    };
    let parts: Vec<u32> = numbers
        .split('.')
        .map(|p| {
            // Digits only: `u32::from_str` would take a `+`.
            (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
                .then(|| p.parse().ok())
                .flatten()
        })
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    let (major, minor, patch) = match parts[..] {
        [major, minor] if !pre_release => (major, minor, None),
        [major, minor, patch] => (major, minor, Some(patch)),
        _ => return Err(bad()),
    };
    let release = EngineRelease::of(major, minor, patch, pre_release);
    Ok(((major, minor), release))
}

/// Go-style durations: `1m`, `30s`, `1m30s`, `500ms`, `1h`.
pub fn parse_duration(text: &str) -> Fallible<Duration> {
    let bad = || {
        usage(
            format!("`{text}` is not a duration"),
            "write a duration such as 1m, 30s or 500ms",
        )
    };
    let mut total = Duration::ZERO;
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .ok_or_else(bad)?;
        let value: f64 = rest[..digits].parse().map_err(|_| bad())?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let seconds = match &rest[..unit_len] {
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            "ms" => 1e-3,
            "us" | "µs" => 1e-6,
            "ns" => 1e-9,
            _ => return Err(bad()),
        };
        // A duration beyond what a Duration holds is refused rather than a panic.
        total = Duration::try_from_secs_f64(value * seconds)
            .ok()
            .and_then(|d| total.checked_add(d))
            .ok_or_else(bad)?;
        rest = &rest[unit_len..];
    }
    if total.is_zero() {
        Err(bad())
    } else {
        Ok(total)
    }
}

/// crossplane refuses to render when the XRD has no version of the XR's apiVersion.
fn check_xrd_version(xr: &Json, xrd: &Json) -> Fallible<()> {
    let text = |v: &Json, p: &str| v.at(p).and_then(Json::as_str).unwrap_or("").to_string();
    let (api_version, group) = (text(xr, "/apiVersion"), text(xrd, "/spec/group"));
    let versions = xrd.at("/spec/versions").and_then(Json::as_array);
    let found = versions.into_iter().flatten().any(|v| {
        v.get("name")
            .and_then(Json::as_str)
            .map(|n| format!("{group}/{n}"))
            == Some(api_version.clone())
    });
    if found {
        return Ok(());
    }
    Err(Box::new(
        Diagnostic::new(
            crate::diagnostics::Code::V704,
            format!(
                "cannot default values for XR {:?}: the specified API version '{api_version}' does not exist in the XRD",
                text(xr, "/metadata/name")
            ),
        )
        .with_help("give the XRD that defines the XR's apiVersion to --xrd")
        .with_severity(crate::diagnostics::Severity::Error),
    ))
}

/// Applies the OpenAPI v3 `default`s of the XRD version matching the XR's apiVersion.
fn apply_xrd_defaults(xr: &mut Json, xrd: &Json) {
    let version = xr
        .get("apiVersion")
        .and_then(Json::as_str)
        .and_then(|a| a.rsplit('/').next())
        .unwrap_or("")
        .to_string();
    let schema = xrd
        .at("/spec/versions")
        .and_then(Json::as_array)
        .and_then(|vs| {
            vs.iter()
                .find(|v| v.get("name").and_then(Json::as_str) == Some(version.as_str()))
        })
        .and_then(|v| v.at("/schema/openAPIV3Schema"));
    if let Some(schema) = schema {
        default_into(xr, schema);
    }
}

fn default_into(value: &mut Json, schema: &Json) {
    match value {
        Json::Object(object) => {
            let Some(Json::Object(properties)) = schema.get("properties") else {
                return;
            };
            for (key, property) in properties {
                if !object.contains_key(key)
                    && let Some(default) = property.get("default")
                {
                    object.insert(key.clone(), default.clone());
                }
                if let Some(child) = object.get_mut(key) {
                    default_into(child, property);
                }
            }
        }
        Json::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for item in items {
                    default_into(item, item_schema);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_go_durations() {
        assert_eq!(parse_duration("1m30s").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        for bad in ["", "0s", "1", "1d", "s", "1e999h"] {
            assert!(parse_duration(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn versions_are_major_and_minor() {
        assert_eq!(parse_version("2.5").unwrap(), (2, 5));
        assert_eq!(parse_version("v1.20.3").unwrap(), (1, 20));
        for bad in [
            "2", "2.3.x", "2.3.4.5", "2.3-rc.0", "2.3.0-", "+2.3", "v", "",
        ] {
            assert!(parse_version(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn patch_versions_pick_the_engine_release() {
        let release = |text: &str| parse_crossplane_version(text).unwrap().1;
        assert_eq!(release("2.5"), EngineRelease::NEWEST);
        assert_eq!(release("v2.3.2"), EngineRelease::V2_3_2);
        assert_eq!(release("2.3.3"), EngineRelease::V2_3_3);
        assert_eq!(release("2.4.0-rc.0"), EngineRelease::V2_3_1);
        assert_eq!(
            parse_crossplane_version("2.3.0-rc.1").unwrap(),
            ((2, 3), EngineRelease::V2_3_1)
        );
    }
}
