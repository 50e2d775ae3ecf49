//! `fnhcl render`: read the XR, the source and the other inputs, render, print the stream.

use crate::cli::Context;
use crate::cli::args::RenderArgs;
use crate::cli::exit::ExitStatus;
use crate::cli::inputs::{
    composition_error, context_map, load_error, resource_docs, usage, yaml_docs,
};
use fnhcl::diagnostics::{Code, Diagnostic, Severity};
use fnhcl::eval::vars::into_float64;
use fnhcl::render::{self, Inputs, Options, RenderError, Step, StepKind};
use fnhcl::source::composition::Composition;
use fnhcl::source::loader::{self, Bundle, LoadOptions};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// The step name function-hcl's docs give a one-step pipeline.
const SYNTHETIC_STEP: &str = "run hcl composition";

type Fallible<T> = Result<T, Box<Diagnostic>>;

/// Runs the command.
pub fn run(args: &RenderArgs, cx: &mut Context) -> std::io::Result<ExitStatus> {
    let (documents, valid) = match documents_checked(args, cx) {
        Ok(checked) => checked,
        Err(status) => return Ok(status),
    };
    for doc in &documents {
        write!(cx.stdout, "---\n{}", fnhcl::source::yaml_emit::to_yaml(doc))?;
    }
    Ok(if valid {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

/// What `--watch` watches: the XR, the composition and every input file or folder named.
pub fn watch_paths(args: &RenderArgs) -> Vec<std::path::PathBuf> {
    use std::path::PathBuf;
    let mut paths = vec![args.xr.clone()];
    if args.source != "-" {
        paths.push(PathBuf::from(&args.source));
    }
    paths.extend(args.functions.iter().cloned());
    paths.extend(args.observed_resources.iter().cloned());
    paths.extend(args.required_resources.iter().cloned());
    paths.extend(args.function_credentials.iter().cloned());
    paths.extend(args.xrd.iter().cloned());
    paths.extend(args.hcl.iter().cloned());
    for entry in &args.context_files {
        for item in entry.split(';') {
            if let Some((_, file)) = item.split_once('=') {
                paths.push(PathBuf::from(file));
            }
        }
    }
    paths
}

/// `fnhcl render` arguments given as a list (`diff --rev -- …`), parsed as the command parses
/// them.
pub fn parse_args(list: &[String]) -> Result<RenderArgs, Box<Diagnostic>> {
    #[derive(clap::Parser)]
    #[command(name = "render", no_binary_name = true)]
    struct Render {
        #[command(flatten)]
        args: RenderArgs,
    }
    <Render as clap::Parser>::try_parse_from(list)
        .map(|r| r.args)
        .map_err(|e| {
            // clap's message up to its usage section, on one line.
            let text = e.to_string();
            let message = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(|l| l.trim().trim_start_matches("error: "))
                .collect::<Vec<_>>()
                .join(" ");
            usage(
                format!("the render arguments after `--`: {message}"),
                "give them as to `fnhcl render XR SOURCE [options]`",
            )
        })
}

/// Renders and returns the documents `render` prints (warnings about discarded blocks go to
/// the diagnostics); on failure the diagnostics are recorded and the exit status returned.
pub fn documents(args: &RenderArgs, cx: &mut Context) -> Result<Vec<Json>, ExitStatus> {
    documents_checked(args, cx).map(|(documents, _)| documents)
}

/// [`documents`], and whether they pass `--validate` (problems recorded as diagnostics).
pub fn documents_checked(
    args: &RenderArgs,
    cx: &mut Context,
) -> Result<(Vec<Json>, bool), ExitStatus> {
    documents_validated(args, None, cx)
}

/// [`documents_checked`] with the schemas already loaded (`fnhcl test` loads them once for
/// every case); `None` loads `--validate`'s, if any.
pub fn documents_validated(
    args: &RenderArgs,
    schemas: Option<&fnhcl::schema::Schemas>,
    cx: &mut Context,
) -> Result<(Vec<Json>, bool), ExitStatus> {
    let (inputs, options) = match read_inputs(args, cx) {
        Ok(read) => read,
        Err(d) => return Err(cx.fail(*d)),
    };
    // function-hcl's debug dumps go to stderr as it writes them, before any diagnostics.
    let quiet = cx.quiet;
    let mut log = |text: String| {
        if !quiet {
            let _ = std::io::stderr().write_all(text.as_bytes());
        }
    };
    let mut remote = fnhcl::grpc::remote::GrpcRemote::new();
    let rendered = match render::render_with(&mut cx.map, &inputs, options, &mut remote, &mut log) {
        Ok(rendered) => rendered,
        Err(error) => {
            let fatal = matches!(error, RenderError::Fatal { .. });
            let status = report(error, &args.timeout, cx);
            return Err(if fatal && args.detailed_exit_code {
                ExitStatus::Fatal
            } else {
                status
            });
        }
    };
    if !cx.quiet {
        for (step, discard) in rendered
            .discards
            .iter()
            .filter(|(_, d)| d.reason != "user-condition")
        {
            let mut d = Diagnostic::new(
                Code::E402,
                format!(
                    "step {step:?}: discarded {}{} ({})",
                    discard.kind,
                    if discard.name.is_empty() {
                        String::new()
                    } else {
                        format!(" {}", discard.name)
                    },
                    discard.reason
                ),
            )
            .with_severity(Severity::Warning);
            if let Some(span) = discard.span {
                d = d.with_primary(span, None);
            }
            if !discard.context.is_empty() {
                d = d.with_detail(discard.context.join("\n"));
            }
            cx.diagnostics.push(d);
        }
    }
    let valid = match (schemas, args.validate.is_empty()) {
        (Some(schemas), _) => validate_rendered(schemas, &inputs.xr, &rendered, cx),
        (None, true) => true,
        (None, false) => {
            let schemas = match super::validate::load_schemas(&args.validate, cx) {
                Ok(schemas) => schemas,
                Err(d) => return Err(cx.fail(*d)),
            };
            validate_rendered(&schemas, &inputs.xr, &rendered, cx)
        }
    };
    Ok((rendered.documents, valid))
}

/// `--validate`: the XR (with the input's `spec` when the output has none, as `-x` gives it)
/// and each composed resource against its schema; each problem an error at the HCL that wrote
/// the field. Documents of render's own kinds are skipped; a kind without a schema is a
/// warning. `true` when nothing is wrong.
fn validate_rendered(
    schemas: &fnhcl::schema::Schemas,
    input_xr: &Json,
    rendered: &render::Rendered,
    cx: &mut Context,
) -> bool {
    let mut valid = true;
    for (i, doc) in rendered.documents.iter().enumerate() {
        let text = |p: &str| {
            doc.pointer(p)
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string()
        };
        let (api_version, kind) = (text("/apiVersion"), text("/kind"));
        if api_version == "render.crossplane.io/v1beta1" {
            continue;
        }
        let is_xr = i == 0;
        let name = if is_xr {
            text("/metadata/name")
        } else {
            render::composition_resource_name(doc).to_string()
        };
        let what = if is_xr {
            format!("the XR {kind} {name:?}")
        } else {
            format!("resource {name:?} ({kind})")
        };
        let Some(entry) = schemas.get(&api_version, &kind) else {
            cx.diagnostics.push(
                Diagnostic::new(
                    Code::V704,
                    format!("{what}: no CRD or XRD for {api_version}, Kind={kind} among the --validate schemas"),
                )
                .with_severity(Severity::Warning),
            );
            continue;
        };
        // The XR as `-x` shows it: the input with the output laid over it (the printed XR has
        // no `spec` in the classic dialect, only `spec.crossplane` in the engine's).
        let value = if is_xr {
            let mut merged = input_xr.clone();
            render::engine::merge_override(&mut merged, doc);
            merged
        } else {
            doc.clone()
        };
        let report = fnhcl::schema::validate(&value, &entry.schema);
        let origin = (!is_xr).then(|| rendered.origins.get(&name)).flatten();
        for v in report.violations {
            valid = false;
            let mut d = v.diagnostic(&what);
            match origin {
                Some(origin) => d = d.with_primary(origin.locate(&v.path), None),
                None if is_xr => {
                    d = d.with_help(
                        "the XR's status comes from `composite status` blocks, its spec from the XR file",
                    );
                }
                None => {}
            }
            cx.diagnostics.push(d);
        }
    }
    valid
}

/// A failed render: crossplane's message, and for a fatal function-hcl result the
/// diagnostics behind it with their source.
fn report(error: RenderError, timeout: &str, cx: &mut Context) -> ExitStatus {
    let line = error.to_string();
    let mut d = Diagnostic::new(Code::E401, line);
    match &error {
        RenderError::DeadlineExceeded { target: None, .. } => {
            d = d.with_help(format!(
                "the step was still evaluating when --timeout {timeout} ran out; give it longer with --timeout"
            ));
        }
        RenderError::DeadlineExceeded {
            target: Some(target),
            ..
        } => {
            d = d.with_help(format!(
                "the function at {target} had not answered when --timeout {timeout} ran out; give it longer with --timeout"
            ));
        }
        RenderError::Remote {
            function, target, ..
        } => {
            d = d.with_help(format!(
                "function {function:?} runs outside fnhcl ({} annotation): is it running and listening on {target} in plaintext (--insecure)? Its target is set with the annotation {}",
                render::RUNTIME_ANNOTATION,
                render::TARGET_ANNOTATION,
            ));
        }
        RenderError::Unrunnable {
            function, package, ..
        } => {
            let image = package
                .as_deref()
                .filter(|p| !p.is_empty())
                .unwrap_or("IMAGE");
            d = d.with_help(format!(
                "start the function yourself (`docker run --rm -p 9443:9443 {image} --insecure`, or its own binary with --insecure) and annotate Function {function:?} with `{}: Development` (and `{}` when it does not listen on {}), or pass `-a {}=Development` to call every function that is not function-hcl that way",
                render::RUNTIME_ANNOTATION,
                render::TARGET_ANNOTATION,
                render::DEFAULT_TARGET,
                render::RUNTIME_ANNOTATION,
            ));
        }
        _ => {}
    }
    cx.diagnostics.push(d);
    if let RenderError::Fatal { diagnostics, .. } = error {
        cx.diagnostics.extend(fnhcl::diagnostics::fold_wrappers(
            diagnostics
                .into_iter()
                .filter(|d| d.primary.is_some())
                .collect(),
        ));
    }
    ExitStatus::Failure
}

fn read_inputs(args: &RenderArgs, cx: &mut Context) -> Fallible<(Inputs, Options)> {
    let crossplane_version = parse_version(&args.crossplane_version)?;
    let timeout = parse_duration(&args.timeout)?;
    let mut xr = first_doc(&args.xr, cx)?;
    let xrd = match &args.xrd {
        Some(path) => {
            let xrd = first_doc(path, cx)?;
            apply_xrd_defaults(&mut xr, &xrd);
            Some(xrd)
        }
        None => None,
    };
    let overrides = annotation_overrides(&args.function_annotations)?;
    let functions = match &args.functions {
        Some(path) => Some(functions(path, &overrides, cx)?),
        None => None,
    };
    let (steps, composition) = pipeline(args, functions.as_ref(), &overrides, cx)?;
    let mut required = Vec::new();
    for path in &args.required_resources {
        required.extend(
            resource_docs(path, "extra resources", cx)?
                .into_iter()
                .map(into_float64),
        );
    }
    let inputs = Inputs {
        xr,
        composition,
        steps,
        observed: match &args.observed_resources {
            Some(path) => resource_docs(path, "observed resources", cx)?
                .into_iter()
                .map(into_float64)
                .collect(),
            None => Vec::new(),
        },
        required,
        context: context_map(&args.context_files, &args.context_values, cx)?,
        secrets: match &args.function_credentials {
            Some(path) => resource_docs(path, "credentials", cx)?,
            None => Vec::new(),
        },
        xrd,
        // crossplane starts its deadline once the inputs are read. A timeout too far away to
        // be an Instant is no deadline at all.
        deadline: Instant::now().checked_add(timeout),
    };
    let options = Options {
        include_function_results: args.include_function_results,
        include_context: args.include_context,
        include_full_xr: args.include_full_xr,
        crossplane_version,
    };
    Ok((inputs, options))
}

/// The first YAML document of a file, through float64 as crossplane reads it.
fn first_doc(path: &Path, cx: &mut Context) -> Fallible<Json> {
    let docs = yaml_docs(path, cx)?;
    match docs.into_iter().next() {
        Some(doc) if doc.is_object() => Ok(into_float64(doc)),
        _ => Err(Box::new(
            Diagnostic::new(
                Code::I002,
                format!("`{}` holds no YAML object", loader::display_path(path)),
            )
            .with_path(loader::display_path(path)),
        )),
    }
}

/// A Function of the Functions file.
struct Function {
    /// `spec.package`.
    package: String,
    /// `metadata.annotations`, with the `-a` overrides applied.
    annotations: BTreeMap<String, String>,
}

/// The `-a KEY=VALUE` overrides, checked as crossplane checks them.
fn annotation_overrides(flags: &[String]) -> Fallible<Vec<(String, String)>> {
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
fn runtime_of(
    name: &str,
    package: Option<String>,
    annotations: &BTreeMap<String, String>,
) -> Fallible<StepKind> {
    match annotations
        .get(render::RUNTIME_ANNOTATION)
        .map(String::as_str)
        .unwrap_or("")
    {
        "Development" => Ok(StepKind::Remote {
            target: annotations
                .get(render::TARGET_ANNOTATION)
                .filter(|t| !t.is_empty())
                .cloned()
                .unwrap_or_else(|| render::DEFAULT_TARGET.to_string()),
        }),
        "" | "Docker" => Ok(StepKind::Other { package }),
        other => Err(usage(
            format!(
                "cannot start function runtimes: cannot get runtime for Function {name:?}: unsupported {:?} annotation value {other:?} (unknown runtime)",
                render::RUNTIME_ANNOTATION
            ),
            "the runtimes are Docker (the default; fnhcl cannot start containers) and Development (a function already running at a gRPC target)",
        )),
    }
}

/// `Function` name → package and annotations, from the Functions file (crossplane checks the
/// kinds, and every Function's runtime before the first step).
fn functions(
    path: &Path,
    overrides: &[(String, String)],
    cx: &mut Context,
) -> Fallible<BTreeMap<String, Function>> {
    let mut out = BTreeMap::new();
    for doc in yaml_docs(path, cx)? {
        let text = |p: &str| {
            doc.pointer(p)
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string()
        };
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
        let mut annotations: BTreeMap<String, String> = doc
            .pointer("/metadata/annotations")
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
fn pipeline(
    args: &RenderArgs,
    functions: Option<&BTreeMap<String, Function>>,
    overrides: &[(String, String)],
    cx: &mut Context,
) -> Fallible<(Vec<Step>, Option<Json>)> {
    let path = Path::new(&args.source);
    let is_composition = path.is_file() && loader::is_manifest(path);
    if !is_composition {
        let dir = args
            .hcl
            .as_deref()
            .map(|p| p.to_string_lossy().into_owned());
        let source = dir.as_deref().unwrap_or(&args.source);
        let bundle = load(source, None, cx)?;
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
    let text = loader::read_text(path).map_err(|e| load_error(e, cx))?;
    let composition =
        Composition::parse(&text).map_err(|e| composition_error(&args.source, &text, e, cx))?;
    let document = serde_json::to_value(&composition.document.value).unwrap_or(Json::Null);
    let replaced = match &args.hcl {
        Some(_) => Some(match composition.hcl_step(args.step.as_deref()) {
            Ok(step) => step.name.clone(),
            // The step is found but its input is unusable: say what is wrong with it.
            Err(error @ fnhcl::source::composition::CompositionError::InvalidInput { .. }) => {
                return Err(composition_error(&args.source, &text, error, cx));
            }
            Err(e) => return Err(usage(e.to_string(), "name the step with --step")),
        }),
        None => None,
    };
    let mut steps = Vec::new();
    for (i, step) in composition.steps.iter().enumerate() {
        let function = step.function.clone().unwrap_or_default();
        let declared = match functions {
            Some(f) => Some(f.get(&function).ok_or_else(|| {
                usage(
                    format!(
                        "unknown Function {function:?} - does it exist in your Functions file?"
                    ),
                    "list every function of the pipeline in the Functions file",
                )
            })?),
            None => None,
        };
        let package = declared.map(|f| f.package.clone());
        let by_package = package
            .as_deref()
            .is_some_and(|p| p.contains("function-hcl"));
        let raw = document.pointer(&format!("/spec/pipeline/{i}"));
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
            return Err(composition_error(&args.source, &text, error, cx));
        }
        let kind = if step.is_hcl || step.intends_hcl || by_package {
            let bundle = match (&args.hcl, &replaced) {
                (Some(dir), Some(name)) if *name == step.name => {
                    load(&dir.to_string_lossy(), None, cx)?
                }
                _ => load(&args.source, Some(&step.name), cx)?,
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

/// A step's `requirements`: its required resources as selectors (a `name` wins over
/// `matchLabels`, as crossplane converts them) and its required schemas' names.
fn bootstrap_requirements(
    step: Option<&Json>,
) -> (
    Vec<(String, fnhcl::eval::proto::ResourceSelector)>,
    Vec<String>,
) {
    use fnhcl::eval::proto::{MatchLabels, ResourceSelector};
    let list = |key: &str| {
        step.and_then(|s| s.pointer(&format!("/requirements/{key}")))
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
        .map(|s| text(s, "requirementName").unwrap_or_default())
        .collect();
    (resources, schemas)
}

fn load(source: &str, step: Option<&str>, cx: &mut Context) -> Fallible<Bundle> {
    let mut stdin = std::io::stdin();
    loader::load_arg(
        &mut cx.map,
        source,
        &mut stdin as &mut dyn std::io::Read,
        LoadOptions { step },
    )
    .map_err(|e| load_error(e, cx))
}

/// `X.Y` (or `X.Y.Z`, `vX.Y`).
fn parse_version(text: &str) -> Fallible<(u32, u32)> {
    let trimmed = text.trim_start_matches('v');
    let mut parts = trimmed.split('.').map(str::parse::<u32>);
    match (parts.next(), parts.next()) {
        (Some(Ok(major)), Some(Ok(minor))) => Ok((major, minor)),
        _ => Err(usage(
            format!("`{text}` is not a Crossplane version"),
            "write --crossplane-version 1.20 or 2.2",
        )),
    }
}

/// Go-style durations: `1m`, `30s`, `1m30s`, `500ms`, `1h`.
fn parse_duration(text: &str) -> Fallible<Duration> {
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

/// Applies the OpenAPI v3 `default`s of the XRD version matching the XR's apiVersion.
fn apply_xrd_defaults(xr: &mut Json, xrd: &Json) {
    let version = xr
        .get("apiVersion")
        .and_then(Json::as_str)
        .and_then(|a| a.rsplit('/').next())
        .unwrap_or("")
        .to_string();
    let schema = xrd
        .pointer("/spec/versions")
        .and_then(Json::as_array)
        .and_then(|vs| {
            vs.iter()
                .find(|v| v.get("name").and_then(Json::as_str) == Some(version.as_str()))
        })
        .and_then(|v| v.pointer("/schema/openAPIV3Schema"));
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
