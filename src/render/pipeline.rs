//! The pipeline: pre-flight checks, one request per step (desired state and context passed
//! along), and the requirements loop with crossplane's fetching rules.

use super::schemas;
use super::{
    CONNECTION_ANNOTATION, Inputs, MAX_REQUIREMENTS_ITERATIONS, Remote, RemoteError, RenderError,
    Step,
};
use crate::eval::coverage::{self, RenderCoverage};
use crate::eval::program::Discard;
use crate::eval::proto::{
    FunctionResult, RequestMeta, Requirements, Resource, RunFunctionRequest, RunFunctionResponse,
    State,
};
use crate::eval::{deadline, function};
use crate::source::pointer::Pointer;
use crate::source::{FileId, SourceMap};
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;

/// The annotation that names an observed composed resource.
pub const RESOURCE_NAME_ANNOTATION: &str = "crossplane.io/composition-resource-name";

/// The name an observed composed resource has in the pipeline: its
/// `crossplane.io/composition-resource-name` annotation (empty without one, as crossplane keys
/// such a resource).
pub fn composition_resource_name(object: &Json) -> &str {
    object
        .at("/metadata/annotations")
        .and_then(|a| a.get(RESOURCE_NAME_ANNOTATION))
        .and_then(Json::as_str)
        .unwrap_or("")
}

/// How a step runs.
#[derive(Clone, Debug)]
pub enum StepKind {
    /// function-hcl, natively, with this bundle.
    Hcl(Vec<FileId>),
    /// A function already running elsewhere, called over gRPC at `target` (crossplane
    /// render's Development runtime).
    Remote {
        /// The gRPC target (`host:port`, `dns:///host:port`).
        target: String,
    },
    /// function-patch-and-transform, natively (`pt::function`): a step whose input is a
    /// `pt.fn.crossplane.io/v1beta1` `Resources`, or whose Function's package is the function.
    PatchAndTransform {
        /// Whether the step was made from a legacy `mode: Resources` Composition (as
        /// crossplane-migrator converts one).
        legacy: bool,
    },
    /// Any other function: crossplane render would run it in Docker; fnhcl cannot.
    Other {
        /// The function's package, when the Functions file names it.
        package: Option<String>,
    },
}

/// The requirements loop did not settle.
#[derive(Clone, Copy, Debug)]
pub struct RequirementsLimit;

/// The pipeline's outcome.
pub(super) struct Run {
    /// The desired state after the last step.
    pub desired: State,
    /// The context after the last step.
    pub context: Map<String, Json>,
    /// Whether the last step returned a context at all (the engine prints no `Context`
    /// document when it did not).
    pub context_returned: bool,
    /// Each step's results (its last call) with the step's name.
    pub results: Vec<(String, FunctionResult)>,
    /// Each step's conditions, in step order.
    pub conditions: Vec<crate::eval::proto::Condition>,
    /// Discarded blocks.
    pub discards: Vec<(String, Discard)>,
    /// Where function-hcl steps wrote each composed resource's body (the last step that
    /// produced it).
    pub origins: BTreeMap<String, std::sync::Arc<crate::eval::program::Origin>>,
    /// What each function-hcl step exercised (its last call), when the inputs ask for it.
    pub coverage: Vec<RenderCoverage>,
    /// The `output` of each step that returned one (operations), in step order.
    pub outputs: Vec<(String, Json)>,
}

/// crossplane's pre-flight checks of a Composition against the XR.
pub(super) fn preflight(composition: &Json, xr: &Json) -> Result<(), RenderError> {
    let name = composition
        .at("/metadata/name")
        .and_then(Json::as_str)
        .unwrap_or("");
    let field =
        |path: &str, of: &Json| of.at(path).and_then(Json::as_str).unwrap_or("").to_string();
    let (ref_kind, xr_kind) = (
        field("/spec/compositeTypeRef/kind", composition),
        field("/kind", xr),
    );
    if ref_kind != xr_kind {
        return Err(RenderError::Failed(format!(
            "composition's compositeTypeRef.kind ({ref_kind}) does not match XR's kind ({xr_kind})"
        )));
    }
    let (ref_api, xr_api) = (
        field("/spec/compositeTypeRef/apiVersion", composition),
        field("/apiVersion", xr),
    );
    if ref_api != xr_api {
        return Err(RenderError::Failed(format!(
            "composition's compositeTypeRef.apiVersion ({ref_api}) does not match XR's apiVersion ({xr_api})"
        )));
    }
    let selector = xr
        .at("/spec/crossplane/compositionSelector/matchLabels")
        .or_else(|| xr.at("/spec/compositionSelector/matchLabels"));
    if let Some(Json::Object(wanted)) = selector {
        for (label, want) in wanted {
            let want = want.as_str().unwrap_or("");
            match composition
                .at("/metadata/labels")
                .and_then(|l| l.get(label))
                .and_then(Json::as_str)
            {
                None => {
                    return Err(RenderError::Failed(format!(
                        "composition {name:?} is missing required label {label:?}"
                    )));
                }
                Some(got) if got != want => {
                    return Err(RenderError::Failed(format!(
                        "composition {name:?} has incorrect value for label {label:?}: want {want:?}, got {got:?}"
                    )));
                }
                Some(_) => {}
            }
        }
    }
    if field("/spec/mode", composition) != "Pipeline" {
        return Err(RenderError::Failed(format!(
            "render only supports Composition Function pipelines: Composition {name:?} must use spec.mode: Pipeline"
        )));
    }
    Ok(())
}

/// Runs every step in order; `engine`: as the engine dialect runs them (each request carries
/// the engine's `meta.tag`, which classic render does not send; the engine's error wording;
/// how requested schemas are found).
pub(super) fn run(
    map: &mut SourceMap,
    inputs: &Inputs,
    engine: bool,
    remote: &mut dyn Remote,
    log: &mut dyn FnMut(String),
) -> Result<Run, RenderError> {
    let observed = observed_state(&inputs.xr, inputs.observed.clone());
    run_observing(map, inputs, observed, engine, remote, log)
}

/// [`run`], every request observing `observed` ([`observed_state`]) rather than the inputs'
/// observed resources: a caller that has no further use for them hands them over instead of
/// keeping a copy.
pub(super) fn run_observing(
    map: &mut SourceMap,
    inputs: &Inputs,
    mut observed: State,
    engine: bool,
    remote: &mut dyn Remote,
    log: &mut dyn FnMut(String),
) -> Result<Run, RenderError> {
    let mut out = Run {
        desired: State::default(),
        context: inputs.context.clone(),
        results: Vec::new(),
        conditions: Vec::new(),
        discards: Vec::new(),
        origins: BTreeMap::new(),
        context_returned: true,
        coverage: Vec::new(),
        outputs: Vec::new(),
    };
    // Moved into each step's request and back out of it after the call: the observed
    // resources are the largest part of a request, and a copy per step would double them.
    // crossplane passes each response's desired state and context to the next step as they
    // are: a step after one that returned none gets none (the first gets empty ones).
    let mut desired_returned = true;
    for step in &inputs.steps {
        // crossplane's bootstrap requirements: fetched before the first call.
        let required_resources = step
            .required_resources
            .iter()
            .map(|(name, selector)| (name.clone(), selector.select(&inputs.required)))
            .collect();
        let mut required_schemas = BTreeMap::new();
        for (name, selector) in &step.required_schemas {
            let schema = schemas::fetch(&inputs.schemas, selector, engine).map_err(|e| {
                RenderError::Failed(format!(
                    "cannot render composite resource: cannot fetch bootstrap required schema for requirement {name:?}: {e}"
                ))
            })?;
            required_schemas.insert(name.clone(), schema);
        }
        let mut request = RunFunctionRequest {
            meta: None,
            observed: std::mem::take(&mut observed),
            desired: desired_returned.then(|| out.desired.clone()),
            input: step.input.clone(),
            context: out
                .context_returned
                .then(|| Json::Object(out.context.clone())),
            credentials: credentials(step, &inputs.secrets, engine)?,
            required_resources,
            required_schemas,
            ..RunFunctionRequest::default()
        };
        // The engine hashes the request before it sets `meta`, once per step: the calls of
        // the requirements loop keep the first call's tag.
        let tag = if engine {
            super::tag::of(&request)
        } else {
            String::new()
        };
        request.meta = Some(RequestMeta {
            tag,
            capabilities: CAPABILITIES.iter().map(|c| c.to_string()).collect(),
        });
        let outcome = call_until_settled(map, &mut request, inputs, step, engine, remote, log)?;
        observed = std::mem::take(&mut request.observed);
        let response = outcome.response;
        desired_returned = response.desired.is_some();
        out.desired = response.desired.unwrap_or_default();
        out.context_returned = response.context.is_some();
        out.context = match response.context {
            Some(Json::Object(context)) => context,
            _ => Map::new(),
        };
        out.results
            .extend(response.results.into_iter().map(|r| (step.name.clone(), r)));
        out.conditions.extend(response.conditions);
        if let Some(output) = response.output {
            out.outputs.push((step.name.clone(), output));
        }
        out.coverage.extend(outcome.coverage);
        if let Some(evaluation) = outcome.evaluation {
            out.origins.extend(evaluation.origins);
            out.discards.extend(
                evaluation
                    .discards
                    .into_iter()
                    .map(|d| (step.name.clone(), d)),
            );
        }
    }
    Ok(out)
}

/// The observed state every request carries: the XR (without connection details) and the
/// observed composed resources by their composition-resource-name annotation. Inputs without
/// an XR (an Operation's pipeline) observe nothing.
pub(super) fn observed_state(xr: &Json, observed: Vec<Json>) -> State {
    if xr.is_null() && observed.is_empty() {
        return State::default();
    }
    let resources = observed
        .into_iter()
        .map(|o| {
            (
                composition_resource_name(&o).to_string(),
                observed_resource(o),
            )
        })
        .collect();
    State {
        composite: Some(Resource::of(xr.clone())),
        resources,
    }
}

/// An observed composed resource as the function sees it: its connection details, which a
/// Kubernetes object cannot carry, are read from [`CONNECTION_ANNOTATION`] (a JSON object of
/// strings) and the annotation is removed. A value that is not such an object is left alone.
fn observed_resource(mut object: Json) -> Resource {
    use base64::Engine;
    let details = object
        .pointer_mut("/metadata/annotations")
        .and_then(Json::as_object_mut)
        .and_then(|annotations| {
            let text = annotations.get(CONNECTION_ANNOTATION)?.as_str()?;
            let parsed: BTreeMap<String, String> = serde_json::from_str(text).ok()?;
            annotations.remove(CONNECTION_ANNOTATION);
            Some(parsed)
        });
    let mut resource = Resource::of(object);
    if let Some(details) = details {
        resource.connection_details = details
            .into_iter()
            .map(|(k, v)| (k, base64::engine::general_purpose::STANDARD.encode(v)))
            .collect();
    }
    resource
}

/// What crossplane tells every function it supports (`xfn.SupportedCapabilities`).
const CAPABILITIES: [&str; 5] = [
    "CAPABILITY_CAPABILITIES",
    "CAPABILITY_REQUIRED_RESOURCES",
    "CAPABILITY_CREDENTIALS",
    "CAPABILITY_CONDITIONS",
    "CAPABILITY_REQUIRED_SCHEMAS",
];

/// One call of a step: function-hcl natively, anything else at its target.
struct Call {
    response: RunFunctionResponse,
    /// function-hcl's evaluation (native steps).
    evaluation: Option<crate::eval::program::HclResponse>,
    /// function-hcl's diagnostics behind a fatal result (native steps).
    failure: Option<Vec<crate::diagnostics::Diagnostic>>,
    /// What the call exercised (native steps, when the inputs ask for it).
    coverage: Option<RenderCoverage>,
}

fn call_once(
    map: &mut SourceMap,
    request: &RunFunctionRequest,
    inputs: &Inputs,
    step: &Step,
    remote: &mut dyn Remote,
    log: &mut dyn FnMut(String),
) -> Result<Call, RenderError> {
    match &step.kind {
        StepKind::Hcl(files) => {
            let files: &[FileId] = files;
            let dump = super::debug::enabled(request, step.input.as_ref());
            if dump {
                log(super::debug::request(request));
            }
            // Each call is one gRPC call in crossplane, made under the run's context deadline.
            let (outcome, recorded) = deadline::within(inputs.deadline, || {
                if inputs.coverage {
                    let (outcome, recorded) =
                        coverage::recording(|| function::run(map, request, Some(files)));
                    (outcome, Some(recorded))
                } else {
                    (function::run(map, request, Some(files)), None)
                }
            })
            .map_err(|_| RenderError::DeadlineExceeded {
                step: step.name.clone(),
                target: None,
            })?;
            let coverage = recorded.map(|r| RenderCoverage::of(r, map, files));
            // The function dumps its response only when it did not fail.
            if dump
                && outcome.failure.is_none()
                && let Some(text) = super::debug::response(request, &outcome.response)
            {
                log(text);
            }
            Ok(Call {
                response: outcome.response,
                evaluation: outcome.evaluation,
                failure: outcome.failure,
                coverage,
            })
        }
        StepKind::Remote { target } => {
            let response = remote
                .run(target, request, inputs.deadline)
                .map_err(|e| match e {
                    RemoteError::DeadlineExceeded => RenderError::DeadlineExceeded {
                        step: step.name.clone(),
                        target: Some(target.clone()),
                    },
                    RemoteError::Failed(message) => RenderError::Remote {
                        step: step.name.clone(),
                        function: step.function.clone(),
                        target: target.clone(),
                        message,
                    },
                })?;
            Ok(Call {
                response,
                evaluation: None,
                failure: None,
                coverage: None,
            })
        }
        StepKind::PatchAndTransform { .. } => {
            // Native like function-hcl, so the call is made under the run's deadline too.
            let response = deadline::within(inputs.deadline, || crate::pt::function::run(request))
                .map_err(|_| RenderError::DeadlineExceeded {
                    step: step.name.clone(),
                    target: None,
                })?;
            Ok(Call {
                response,
                evaluation: None,
                failure: None,
                coverage: None,
            })
        }
        StepKind::Other { package } => Err(RenderError::Unrunnable {
            step: step.name.clone(),
            function: step.function.clone(),
            package: package.clone(),
        }),
    }
}

/// Calls the step until its requirements settle (crossplane's `FetchingFunctionRunner`).
fn call_until_settled(
    map: &mut SourceMap,
    request: &mut RunFunctionRequest,
    inputs: &Inputs,
    step: &Step,
    engine: bool,
    remote: &mut dyn Remote,
    log: &mut dyn FnMut(String),
) -> Result<Call, RenderError> {
    let supplied = &inputs.required;
    let bootstrap_resources = request.required_resources.clone();
    let bootstrap_schemas = request.required_schemas.clone();
    let mut previous: Option<Requirements> = None;
    for _ in 0..=MAX_REQUIREMENTS_ITERATIONS {
        let outcome = call_once(map, request, inputs, step, remote, log)?;
        if let Some(fatal) = outcome
            .response
            .results
            .iter()
            .find(|r| r.severity == "SEVERITY_FATAL")
        {
            return Err(RenderError::Fatal {
                engine: false,
                step: step.name.clone(),
                message: fatal.message.clone(),
                diagnostics: outcome.failure.clone().unwrap_or_default(),
            });
        }
        let requirements = outcome.response.requirements.clone();
        if requirements == previous {
            return Ok(outcome);
        }
        // Rebuilt from scratch on every round, keeping the bootstrap entries.
        request.extra_resources = requirements
            .as_ref()
            .map(|r| r.select_extra(supplied))
            .unwrap_or_default();
        request.required_resources = bootstrap_resources.clone();
        if let Some(r) = &requirements {
            request
                .required_resources
                .extend(r.select_required(supplied));
        }
        // From `--required-schemas`: a kind no document has comes back as an empty schema,
        // as crossplane's fetchers answer it.
        request.required_schemas = bootstrap_schemas.clone();
        for (name, selector) in requirements.iter().flat_map(|r| r.schemas.iter()) {
            let schema = schemas::fetch(&inputs.schemas, selector, engine).map_err(|e| {
                RenderError::Failed(format!(
                    "cannot render composite resource: cannot run pipeline step {:?}: fetching schema for {name}: {e}",
                    step.name
                ))
            })?;
            request.required_schemas.insert(name.clone(), schema);
        }
        request.context = outcome.response.context.clone();
        previous = requirements;
    }
    Err(RenderError::Failed(format!(
        "cannot render composite resource: pipeline step {:?}: requirements didn't stabilize after the maximum number of iterations ({MAX_REQUIREMENTS_ITERATIONS})",
        step.name
    )))
}

/// The request's credentials: each `source: Secret` entry of the step that names a Secret,
/// from the Secrets given (only their `data`, never `stringData`). A Secret not given fails
/// the render in the dialect's words (`engine`: the reconciler's `Get` of it from its store).
fn credentials(step: &Step, secrets: &[Json], engine: bool) -> Result<Option<Json>, RenderError> {
    let mut out = BTreeMap::new();
    for entry in &step.credentials {
        if entry.get("source").and_then(Json::as_str) != Some("Secret") {
            continue;
        }
        let name = entry.get("name").and_then(Json::as_str).unwrap_or("");
        // crossplane skips an entry without a `secretRef`.
        let Some(reference) = entry.get("secretRef").filter(|r| !r.is_null()) else {
            continue;
        };
        let field = |key: &str| reference.get(key).and_then(Json::as_str).unwrap_or("");
        let (secret_name, namespace) = (field("name"), field("namespace"));
        let secret = secrets.iter().find(|s| {
            s.at("/metadata/name").and_then(Json::as_str) == Some(secret_name)
                && s.at("/metadata/namespace")
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    == namespace
        });
        let Some(secret) = secret else {
            return Err(if engine {
                super::engine_failed(&format!(
                    "reconcile failed: cannot compose resources: cannot get Composition pipeline step {:?} credential {name:?} from Secret: Secret {secret_name:?} not found",
                    step.name
                ))
            } else {
                RenderError::Failed(format!(
                    "cannot render composite resource: cannot get credentials from secret {secret_name:?}: secret {secret_name:?} not found"
                ))
            });
        };
        let data = secret
            .get("data")
            .cloned()
            .unwrap_or(Json::Object(Map::new()));
        out.insert(
            name.to_string(),
            serde_json::json!({"credentialData": {"data": data}}),
        );
    }
    Ok((!out.is_empty()).then(|| Json::Object(out.into_iter().collect())))
}
