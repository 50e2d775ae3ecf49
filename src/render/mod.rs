//! L5: `crossplane render` (the classic dialect, Crossplane CLI v1.14–v2.2) with function-hcl
//! steps run natively: the pipeline with its requirements loop, then the post-processing
//! that turns the last desired state into the document stream `crossplane render -r -c`
//! prints.
//!
//! [`inputs`] reads the files a render request names; everything else here works on JSON
//! values and loaded bundles.

pub mod debug;
pub mod engine;
pub mod inputs;
pub mod names;
pub mod operation;
mod pipeline;
mod post;
pub mod schemas;
mod tag;
pub mod version;

pub use pipeline::{
    RESOURCE_NAME_ANNOTATION, RequirementsLimit, StepKind, composition_resource_name,
};

use crate::eval::proto::{
    ResourceSelector, RunFunctionRequest, RunFunctionResponse, SchemaSelector,
};
use std::borrow::Cow;
use std::time::Instant;

use crate::diagnostics::Diagnostic;
use crate::eval::program::Discard;
use crate::source::FileId;
use serde_json::{Map, Value as Json};

pub use crate::eval::proto::MAX_REQUIREMENTS_ITERATIONS;
use crate::source::pointer::Pointer;

/// The constant every condition's `lastTransitionTime` gets in render output.
pub const TRANSITION_TIME: &str = "2024-01-01T00:00:00Z";

/// One pipeline step.
#[derive(Clone, Debug)]
pub struct Step {
    /// `step:`.
    pub name: String,
    /// `functionRef.name`.
    pub function: String,
    /// What runs it.
    pub kind: StepKind,
    /// The step's `input` (sent in the request).
    pub input: Option<Json>,
    /// The step's `credentials` entries as written in the Composition.
    pub credentials: Vec<Json>,
    /// The step's bootstrap `requirements.requiredResources`, by requirement name: fetched
    /// before its first call.
    pub required_resources: Vec<(String, ResourceSelector)>,
    /// The step's bootstrap `requirements.requiredSchemas`, by requirement name: fetched
    /// before its first call.
    pub required_schemas: Vec<(String, SchemaSelector)>,
}

/// Calls functions that run elsewhere (a Function with crossplane render's Development
/// runtime): one `RunFunction` call at `target`, answered before `deadline`.
pub trait Remote {
    /// Makes the call.
    fn run(
        &mut self,
        target: &str,
        request: &RunFunctionRequest,
        deadline: Option<Instant>,
    ) -> Result<RunFunctionResponse, RemoteError>;
}

/// Why a call to a remote function failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemoteError {
    /// The deadline passed before the function answered.
    DeadlineExceeded,
    /// The function could not be reached, answered with an error, or its answer could not be
    /// read: the text crossplane prints after the step (`rpc error: code = … desc = …`).
    Failed(String),
}

/// A [`Remote`] for renders without remote steps: every call fails.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoRemote;

impl Remote for NoRemote {
    fn run(
        &mut self,
        target: &str,
        _: &RunFunctionRequest,
        _: Option<Instant>,
    ) -> Result<RunFunctionResponse, RemoteError> {
        Err(RemoteError::Failed(format!(
            "rpc error: code = Unavailable desc = no gRPC client to reach {target}"
        )))
    }
}

/// Everything a render needs.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// The composite resource.
    pub xr: Json,
    /// The Composition (for the pre-flight checks), when the source was one.
    pub composition: Option<Json>,
    /// The pipeline.
    pub steps: Vec<Step>,
    /// Observed composed resources.
    pub observed: Vec<Json>,
    /// Resources the requirements loop may fetch from.
    pub required: Vec<Json>,
    /// The initial context.
    pub context: Map<String, Json>,
    /// Secrets given with `--function-credentials`.
    pub secrets: Vec<Json>,
    /// The XRD given with `--xrd` (the engine dialect reads its schema kind from it).
    pub xrd: Option<Json>,
    /// The OpenAPI documents of `--required-schemas`, in file order: where the schemas
    /// functions ask for come from.
    pub schemas: Vec<schemas::OpenApiDocument>,
    /// When function-hcl steps must have finished (`--timeout`, crossplane's context
    /// deadline): evaluation stops at the next checkpoint after it.
    pub deadline: Option<std::time::Instant>,
    /// Record what function-hcl steps exercise ([`Rendered::coverage`]).
    pub coverage: bool,
}

/// What to print.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// `-r`: `Result` documents.
    pub include_function_results: bool,
    /// `-c`: the `Context` document.
    pub include_context: bool,
    /// `-x`: the input XR's `spec` and `metadata` in the output XR.
    pub include_full_xr: bool,
    /// The Crossplane version whose behaviour to follow (major, minor).
    pub crossplane_version: (u32, u32),
    /// In the engine dialect, the engine release whose patch-level behaviour to follow.
    pub engine_release: version::EngineRelease,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            include_function_results: false,
            include_context: false,
            include_full_xr: false,
            crossplane_version: (2, 2),
            engine_release: version::EngineRelease::NEWEST,
        }
    }
}

/// A finished render.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// The documents, in print order.
    pub documents: Vec<Json>,
    /// Blocks function-hcl left out (last call of each step), with the step's name.
    pub discards: Vec<(String, Discard)>,
    /// Where function-hcl steps wrote each composed resource's body, by resource name.
    pub origins: std::collections::BTreeMap<String, std::sync::Arc<crate::eval::program::Origin>>,
    /// What each function-hcl step exercised (its last call), in step order, when
    /// [`Inputs::coverage`] asked for it.
    pub coverage: Vec<crate::eval::coverage::RenderCoverage>,
}

/// Why a render failed.
#[derive(Clone, Debug)]
pub enum RenderError {
    /// A step returned a fatal result.
    Fatal {
        /// The step.
        step: String,
        /// The result's message.
        message: String,
        /// The diagnostics behind it (function-hcl steps).
        diagnostics: Vec<Diagnostic>,
        /// Whether the engine dialect reports it (through the CLI's wrapping).
        engine: bool,
    },
    /// The deadline passed while a step ran (or before it started).
    DeadlineExceeded {
        /// The step.
        step: String,
        /// The function's gRPC target, for a step run elsewhere.
        target: Option<String>,
    },
    /// A step run elsewhere failed: unreachable, a gRPC error, an unreadable answer.
    Remote {
        /// The step.
        step: String,
        /// The function.
        function: String,
        /// Its gRPC target.
        target: String,
        /// What failed (`rpc error: code = … desc = …`).
        message: String,
    },
    /// A step fnhcl cannot run: its function would run in Docker.
    Unrunnable {
        /// The step.
        step: String,
        /// The function.
        function: String,
        /// Its package, when the Functions file names it.
        package: Option<String>,
    },
    /// The engine (crossplane's reconciler, `crossplane internal render`) refused the render:
    /// the cause, which the CLI prints inside its Docker wrapping.
    Engine(String),
    /// Anything else, with crossplane's message.
    Failed(String),
}

impl RenderError {
    /// The line `crossplane render` prints on stderr for this failure, word for word
    /// (`crossplane: error: …`; for the engine dialect with its container wrapping), for
    /// scripts that match it.
    pub fn crossplane_line(&self) -> String {
        format!("crossplane: error: {self}")
    }

    /// The failure in words for people: crossplane's message without what only concerns
    /// its containers (fnhcl runs none).
    pub fn headline(&self) -> String {
        match self {
            RenderError::Fatal { step, message, .. } => format!(
                "cannot render composite resource: pipeline step {step:?} returned a fatal result: {message}"
            ),
            RenderError::Engine(cause) => format!("cannot render composite resource: {cause}"),
            other => other.to_string(),
        }
    }
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenderError::Fatal {
                step,
                message,
                engine: true,
                ..
            } => write!(
                f,
                "cannot render composite resource: crossplane internal render in Docker: pipeline returned fatal: crossplane: error: cannot render composite resource: cannot compose resources: pipeline step {step:?} returned a fatal result: {message}"
            ),
            RenderError::Fatal { step, message, .. } => write!(
                f,
                "cannot render composite resource: pipeline step {step:?} returned a fatal result: {message}"
            ),
            // What crossplane prints when its context deadline cancels the step's gRPC call.
            RenderError::DeadlineExceeded { step, .. } => write!(
                f,
                "cannot render composite resource: cannot run pipeline step {step:?}: rpc error: code = DeadlineExceeded desc = context deadline exceeded"
            ),
            RenderError::Remote { step, message, .. } => write!(
                f,
                "cannot render composite resource: cannot run pipeline step {step:?}: {message}"
            ),
            RenderError::Unrunnable {
                step,
                function,
                package,
            } => {
                let package = package
                    .as_deref()
                    .filter(|p| !p.is_empty())
                    .map(|p| format!(" (package {p})"))
                    .unwrap_or_default();
                write!(
                    f,
                    "cannot run pipeline step {step:?}: function {function:?}{package} would run in Docker (it is not function-hcl, and not annotated `{DEVELOPMENT_ANNOTATION}`), and fnhcl starts no containers"
                )
            }
            RenderError::Engine(cause) => write!(
                f,
                "cannot render composite resource: crossplane internal render in Docker returned error with output: crossplane: error: cannot render composite resource: {cause}\n: container exited with status 1"
            ),
            RenderError::Failed(message) => f.write_str(message),
        }
    }
}

/// An engine failure as the CLI reports it (the engine's stderr inside the CLI's message).
/// Here rather than in `engine`, since the pipeline words some failures for the engine too.
pub fn engine_failed(cause: &str) -> RenderError {
    RenderError::Engine(cause.to_string())
}

/// Renders: pre-flight checks, the pipeline, post-processing.
pub fn render(
    map: &mut crate::source::SourceMap,
    inputs: &Inputs,
    options: Options,
) -> Result<Rendered, RenderError> {
    render_with(map, inputs, options, &mut NoRemote, &mut |_| {})
}

/// The annotation that chooses how crossplane render runs a Function.
pub const RUNTIME_ANNOTATION: &str = "render.crossplane.io/runtime";
/// The annotation an observed composed resource may carry its connection details in (a JSON
/// object of strings, e.g. `{"password": "s3cr3t"}`): render passes them to the functions as
/// the resource's observed connection details and removes the annotation. A Kubernetes
/// object has no place for them; reconcile scenarios of `fnhcl test` write it.
pub const CONNECTION_ANNOTATION: &str = "render.fnhcl.dev/connection-details";
/// The annotation a Development-runtime Function's gRPC target is read from.
pub const TARGET_ANNOTATION: &str = "render.crossplane.io/runtime-development-target";
/// The target a Development-runtime Function has without [`TARGET_ANNOTATION`].
pub const DEFAULT_TARGET: &str = "localhost:9443";
/// `render.crossplane.io/runtime: Development`, for messages.
const DEVELOPMENT_ANNOTATION: &str = "render.crossplane.io/runtime: Development";

/// [`render`], handing `log` what function-hcl would write to its log: the debug dumps of its
/// requests and responses, when its input or the XR asks for them (see `debug`).
pub fn render_logged(
    map: &mut crate::source::SourceMap,
    inputs: &Inputs,
    options: Options,
    log: &mut dyn FnMut(String),
) -> Result<Rendered, RenderError> {
    render_with(map, inputs, options, &mut NoRemote, log)
}

/// [`render_logged`], calling steps that run elsewhere ([`StepKind::Remote`]) through
/// `remote`.
pub fn render_with(
    map: &mut crate::source::SourceMap,
    inputs: &Inputs,
    options: Options,
    remote: &mut dyn Remote,
    log: &mut dyn FnMut(String),
) -> Result<Rendered, RenderError> {
    render_inputs(map, Cow::Borrowed(inputs), options, remote, log)
}

/// [`render_with`], taking the inputs: the engine dialect works on its own view of them,
/// which then moves the observed resources rather than copying them.
pub fn render_owned(
    map: &mut crate::source::SourceMap,
    inputs: Inputs,
    options: Options,
    remote: &mut dyn Remote,
    log: &mut dyn FnMut(String),
) -> Result<Rendered, RenderError> {
    render_inputs(map, Cow::Owned(inputs), options, remote, log)
}

fn render_inputs(
    map: &mut crate::source::SourceMap,
    inputs: Cow<'_, Inputs>,
    options: Options,
    remote: &mut dyn Remote,
    log: &mut dyn FnMut(String),
) -> Result<Rendered, RenderError> {
    if let Some(composition) = &inputs.composition {
        pipeline::preflight(composition, &inputs.xr)?;
    }
    check_runnable(&inputs.steps)?;
    if engine::is_engine(options.crossplane_version) {
        let inputs = match engine::without_xr_copy(&inputs) {
            Some(filtered) => Cow::Owned(filtered),
            None => inputs,
        };
        // `-x` lays the output over the input XR as given, its own UID included.
        let uid = options
            .include_full_xr
            .then(|| inputs.xr.at("/metadata/uid").cloned())
            .flatten();
        let composition = inputs
            .composition
            .as_ref()
            .and_then(|c| c.at("/metadata/name"))
            .and_then(Json::as_str)
            .unwrap_or("composition")
            .to_string();
        // The engine release's view of the inputs (see `version`): identical from 2.3.4 on.
        let release = options.engine_release;
        let mut read = version::as_read(inputs.into_owned(), release);
        engine::check_xrd(&read)?;
        if release.keeps_uid_and_checks_observed() {
            engine::check_observed(&read)?;
        }
        // What the reconciler hands the functions: the XR as the engine holds it, and only
        // the observed resources it can find by name (and, before 2.3.4, owns).
        let mut xr = engine::observed_xr(&read, &composition);
        version::inject_namespaces(&mut xr, &read, release);
        // The observed resources move from `read` to `seen` (and back to `shown` below), so
        // they are not copied: they are the largest input.
        let mut observed = std::mem::take(&mut read.observed);
        observed.retain(|o| o.at("/metadata/name").and_then(Json::as_str).is_some());
        version::leave_out_unowned(&mut observed, &read, release);
        // The printed documents take only the identity of each observed resource; the
        // resources themselves go to the pipeline.
        let identities = engine::observed_identities(&observed);
        let state = pipeline::observed_state(&xr, observed);
        let seen = Inputs { xr, ..read.clone() };
        let run =
            pipeline::run_observing(map, &seen, state, true, remote, log).map_err(|e| match e {
                RenderError::Fatal {
                    step,
                    message,
                    diagnostics,
                    ..
                } => RenderError::Fatal {
                    step,
                    message,
                    diagnostics,
                    engine: true,
                },
                other => other,
            })?;
        let mut documents = engine::documents(&read, &identities, &run, options, &composition)?;
        if let Some(uid) = uid
            && let Some(Json::Object(metadata)) =
                documents.first_mut().and_then(|xr| xr.get_mut("metadata"))
        {
            metadata.insert("uid".into(), uid);
        }
        return Ok(Rendered {
            documents,
            discards: run.discards,
            origins: run.origins,
            coverage: run.coverage,
        });
    }
    let run = pipeline::run(map, &inputs, false, remote, log)?;
    let documents = post::documents(&inputs, &run, options)?;
    Ok(Rendered {
        documents,
        discards: run.discards,
        origins: run.origins,
        coverage: run.coverage,
    })
}

/// A step fnhcl cannot run fails the render before any step runs, as crossplane fails when
/// it cannot start a function's runtime.
fn check_runnable(steps: &[Step]) -> Result<(), RenderError> {
    for step in steps {
        if let StepKind::Other { package } = &step.kind {
            return Err(RenderError::Unrunnable {
                step: step.name.clone(),
                function: step.function.clone(),
                package: package.clone(),
            });
        }
    }
    Ok(())
}

/// The files of a function-hcl step.
pub fn hcl_files(step: &Step) -> Option<&[FileId]> {
    match &step.kind {
        StepKind::Hcl(files) => Some(files),
        StepKind::Remote { .. } | StepKind::PatchAndTransform { .. } | StepKind::Other { .. } => {
            None
        }
    }
}
