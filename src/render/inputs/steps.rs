//! The pipeline a render request runs: the Functions file with its `-a` overrides and
//! runtimes, then one synthetic function-hcl step or the Composition's steps (`--hcl` and
//! `--step` replacing one), each with its bootstrap requirements.

use super::Request;
use super::files::{load, loading, yaml_docs};
use crate::diagnostics::{Diagnostic, composition_error, load_error, usage};
use crate::eval::proto::{ResourceSelector, SchemaSelector};
use crate::render::{DEFAULT_TARGET, RUNTIME_ANNOTATION, Step, StepKind, TARGET_ANNOTATION};
use crate::source::SourceMap;
use crate::source::composition::Composition;
use crate::source::loader;
use crate::source::pointer::Pointer;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

/// The step name function-hcl's docs give a one-step pipeline.
const SYNTHETIC_STEP: &str = "run hcl composition";

type Fallible<T> = Result<T, Box<Diagnostic>>;

/// A Function of the Functions file.
pub(super) struct Function {
    /// `spec.package`.
    pub(super) package: String,
    /// `metadata.annotations`, with the `-a` overrides applied.
    pub(super) annotations: BTreeMap<String, String>,
}

/// The `-a KEY=VALUE` overrides, checked as crossplane checks them.
pub(super) fn annotation_overrides(flags: &[String]) -> Fallible<Vec<(String, String)>> {
    flags
        .iter()
        .map(|flag| match flag.split_once('=') {
            Some((k, v)) => Ok((k.to_string(), v.to_string())),
            None => Err(usage(
                format!(
                    "cannot apply function annotation overrides: invalid function annotation format {flag:?}, expected key=value"
                ),
                "write -a KEY=VALUE, e.g. -a render.crossplane.io/runtime=Development",
            )),
        })
        .collect()
}

/// How a function that is not function-hcl runs, from its annotations: crossplane render's
/// runtimes (`Docker` by default, `Development` at a gRPC target).
pub(super) fn runtime_of(
    name: &str,
    package: Option<String>,
    annotations: &BTreeMap<String, String>,
) -> Fallible<StepKind> {
    match annotations
        .get(RUNTIME_ANNOTATION)
        .map(String::as_str)
        .unwrap_or("")
    {
        "Development" => Ok(StepKind::Remote {
            target: annotations
                .get(TARGET_ANNOTATION)
                .filter(|t| !t.is_empty())
                .cloned()
                .unwrap_or_else(|| DEFAULT_TARGET.to_string()),
        }),
        "" | "Docker" => Ok(StepKind::Other { package }),
        other => Err(usage(
            format!(
                "cannot start function runtimes: cannot get runtime for Function {name:?}: unsupported {:?} annotation value {other:?} (unknown runtime)",
                RUNTIME_ANNOTATION
            ),
            "the runtimes are Docker (the default; fnhcl cannot start containers) and Development (a function already running at a gRPC target)",
        )),
    }
}

/// `Function` name → package and annotations, from the Functions file (crossplane checks the
/// kinds, and every Function's runtime before the first step).
pub(super) fn functions(
    path: &Path,
    overrides: &[(String, String)],
    map: &mut SourceMap,
) -> Fallible<BTreeMap<String, Function>> {
    let load = loading("functions", path);
    let docs = yaml_docs(path, map).map_err(&load)?;
    check_function_kinds(&docs).map_err(&load)?;
    functions_of(docs, overrides)
}

/// crossplane's `LoadFunctions` check: every document is a `pkg.crossplane.io` Function
/// (`v1` or `v1beta1`).
fn check_function_kinds(docs: &[Json]) -> Fallible<()> {
    for doc in docs {
        let text = |p: &str| doc.at(p).and_then(Json::as_str).unwrap_or("").to_string();
        let api = text("/apiVersion");
        if text("/kind") != "Function"
            || !(api == "pkg.crossplane.io/v1" || api == "pkg.crossplane.io/v1beta1")
        {
            return Err(usage(
                format!(
                    "not a function: {}/{}",
                    text("/kind"),
                    text("/metadata/name")
                ),
                "the Functions file holds pkg.crossplane.io Function objects",
            ));
        }
    }
    Ok(())
}

/// [`functions`] of Function documents already read (a test's inline `functions`).
pub(super) fn functions_of(
    docs: Vec<Json>,
    overrides: &[(String, String)],
) -> Fallible<BTreeMap<String, Function>> {
    check_function_kinds(&docs)?;
    let mut out = BTreeMap::new();
    for doc in docs {
        let text = |p: &str| doc.at(p).and_then(Json::as_str).unwrap_or("").to_string();
        let mut annotations: BTreeMap<String, String> = doc
            .at("/metadata/annotations")
            .and_then(Json::as_object)
            .map(|a| {
                a.iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        annotations.extend(overrides.iter().cloned());
        let name = text("/metadata/name");
        runtime_of(&name, None, &annotations)?;
        out.insert(
            name,
            Function {
                package: text("/spec/package"),
                annotations,
            },
        );
    }
    Ok(out)
}

/// The steps to run and, for a Composition, its JSON for the pre-flight checks.
pub(super) fn pipeline(
    args: &Request,
    functions: Option<&BTreeMap<String, Function>>,
    overrides: &[(String, String)],
    map: &mut SourceMap,
    stdin: &mut dyn Read,
) -> Fallible<(Vec<Step>, Option<Json>)> {
    let path = Path::new(&args.source);
    let is_composition = path.is_file() && loader::is_manifest(path);
    if !is_composition {
        let dir = args
            .hcl
            .as_deref()
            .map(|p| p.to_string_lossy().into_owned());
        let source = dir.as_deref().unwrap_or(&args.source);
        let bundle = load(source, None, map, stdin)?;
        let step = Step {
            name: SYNTHETIC_STEP.into(),
            function: "function-hcl".into(),
            kind: StepKind::Hcl(bundle.files.iter().map(|f| f.file).collect()),
            input: Some(serde_json::json!({
                "apiVersion": "hcl.fn.crossplane.io/v1beta1",
                "kind": "HclInput",
            })),
            credentials: Vec::new(),
            required_resources: Vec::new(),
            required_schemas: Vec::new(),
        };
        return Ok((vec![step], None));
    }
    let in_composition = loading("Composition", path);
    let text = loader::read_text(path).map_err(|e| in_composition(load_error(e, map)))?;
    let composition = Composition::parse(&text)
        .map_err(|e| in_composition(composition_error(&args.source, &text, e, map)))?;
    let document = serde_json::to_value(&composition.document.value).unwrap_or(Json::Null);
    let replaced = match &args.hcl {
        Some(_) => Some(match composition.hcl_step(args.step.as_deref()) {
            Ok(step) => step.name.clone(),
            // The step is found but its input is unusable: say what is wrong with it.
            Err(error @ crate::source::composition::CompositionError::InvalidInput { .. }) => {
                return Err(composition_error(&args.source, &text, error, map));
            }
            Err(e) => return Err(usage(e.to_string(), "name the step with --step")),
        }),
        None => None,
    };
    // After `--hcl`'s check, which refuses a Composition without a function-hcl step.
    if crate::pt::migrate::is_legacy(&document) {
        return legacy_pipeline(&document);
    }
    let mut steps = Vec::new();
    for (i, step) in composition.steps.iter().enumerate() {
        let function = step.function.clone().unwrap_or_default();
        let declared = declared_function(functions, &function)?;
        let package = declared.map(|f| f.package.clone());
        let by_package = package
            .as_deref()
            .is_some_and(|p| p.contains("function-hcl"));
        let raw = document.at(&format!("/spec/pipeline/{i}"));
        let input = raw.and_then(|s| s.get("input")).cloned();
        let credentials = raw
            .and_then(|s| s.get("credentials"))
            .and_then(Json::as_array)
            .cloned()
            .unwrap_or_default();
        // A step that means to run function-hcl (by its package, its function's name or its
        // input) goes to the loader, which says what is wrong with an unusable input.
        if by_package
            && !step.intends_hcl
            && let Some(error) = step.invalid_input()
        {
            return Err(composition_error(&args.source, &text, error, map));
        }
        // function-patch-and-transform runs natively unless the Functions file points its
        // runtime at a running function (Development), to compare against the real one.
        let development = declared
            .and_then(|f| f.annotations.get(RUNTIME_ANNOTATION))
            .or_else(|| {
                overrides
                    .iter()
                    .rev()
                    .find(|(k, _)| k == RUNTIME_ANNOTATION)
                    .map(|(_, v)| v)
            })
            .is_some_and(|r| r == "Development");
        let patch_and_transform = input.as_ref().is_some_and(crate::pt::function::is_pt_input)
            || package
                .as_deref()
                .is_some_and(|p| p.contains("function-patch-and-transform"));
        let kind = if patch_and_transform && !development && !step.is_hcl {
            StepKind::PatchAndTransform { legacy: false }
        } else if step.is_hcl || step.intends_hcl || by_package {
            let bundle = match (&args.hcl, &replaced) {
                (Some(dir), Some(name)) if *name == step.name => {
                    load(&dir.to_string_lossy(), None, map, stdin)?
                }
                _ => load(&args.source, Some(&step.name), map, stdin)?,
            };
            StepKind::Hcl(bundle.files.iter().map(|f| f.file).collect())
        } else {
            // Without a Functions file, `-a` still applies to every function.
            let annotations = match declared {
                Some(f) => f.annotations.clone(),
                None => overrides.iter().cloned().collect(),
            };
            runtime_of(&function, package, &annotations)?
        };
        let (required_resources, required_schemas) = bootstrap_requirements(raw);
        steps.push(Step {
            name: step.name.clone(),
            function,
            kind,
            input,
            credentials,
            required_resources,
            required_schemas,
        });
    }
    Ok((steps, Some(document)))
}

/// The one step of a legacy `mode: Resources` Composition, converted as crossplane-migrator
/// converts it, and the converted Composition (which the pre-flight checks read).
fn legacy_pipeline(document: &Json) -> Fallible<(Vec<Step>, Option<Json>)> {
    use crate::pt::migrate;
    let converted = migrate::convert(document, None).map_err(|e| {
        usage(
            format!("cannot convert the legacy Composition: {e}"),
            "give a Composition with spec.resources or spec.pipeline",
        )
    })?;
    let input = converted.at("/spec/pipeline/0/input").cloned();
    let step = Step {
        name: migrate::STEP_NAME.into(),
        function: migrate::DEFAULT_FUNCTION_NAME.into(),
        kind: StepKind::PatchAndTransform { legacy: true },
        input,
        credentials: Vec::new(),
        required_resources: Vec::new(),
        required_schemas: Vec::new(),
    };
    Ok((vec![step], Some(converted)))
}

/// Selectors by requirement name.
type Named<T> = Vec<(String, T)>;

/// A step's `requirements`: its required resources as selectors (a `name` wins over
/// `matchLabels`, as crossplane converts them) and its required schemas' selectors.
pub(super) fn bootstrap_requirements(
    step: Option<&Json>,
) -> (Named<ResourceSelector>, Named<SchemaSelector>) {
    use crate::eval::proto::MatchLabels;
    let list = |key: &str| {
        step.and_then(|s| s.at(&format!("/requirements/{key}")))
            .and_then(Json::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let text = |o: &Json, key: &str| o.get(key).and_then(Json::as_str).map(str::to_string);
    let resources = list("requiredResources")
        .iter()
        .map(|r| {
            let labels: BTreeMap<String, String> = r
                .get("matchLabels")
                .and_then(Json::as_object)
                .map(|m| {
                    m.iter()
                        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                        .collect()
                })
                .unwrap_or_default();
            let match_name = text(r, "name");
            let selector = ResourceSelector {
                api_version: text(r, "apiVersion").unwrap_or_default(),
                kind: text(r, "kind").unwrap_or_default(),
                match_labels: (match_name.is_none() && !labels.is_empty())
                    .then_some(MatchLabels { labels }),
                match_name,
                namespace: text(r, "namespace"),
            };
            (text(r, "requirementName").unwrap_or_default(), selector)
        })
        .collect();
    let schemas = list("requiredSchemas")
        .iter()
        .map(|s| {
            let selector = SchemaSelector {
                api_version: text(s, "apiVersion").unwrap_or_default(),
                kind: text(s, "kind").unwrap_or_default(),
            };
            (text(s, "requirementName").unwrap_or_default(), selector)
        })
        .collect();
    (resources, schemas)
}

/// The Function a step names in the Functions file, when one was given (crossplane's words
/// when it is not there).
pub(super) fn declared_function<'f>(
    functions: Option<&'f BTreeMap<String, Function>>,
    function: &str,
) -> Result<Option<&'f Function>, Box<Diagnostic>> {
    match functions {
        Some(f) => f.get(function).map(Some).ok_or_else(|| {
            usage(
                format!("unknown Function {function:?} - does it exist in your Functions file?"),
                "list every function of the pipeline in the Functions file",
            )
        }),
        None => Ok(None),
    }
}
