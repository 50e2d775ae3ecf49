//! function-patch-and-transform's `RunFunction` (fn.go) natively: a request in, the response
//! the function returns out, in the function's order and with its results' words.
//!
//! Objects are handled as the Go SDK holds them: the observed and desired objects and the
//! environment come from protobuf `Struct`s, so every number in them is a float64; a base
//! template is decoded from JSON, so its whole numbers are int64s (the field-path layer tells
//! the two apart by their text, see [`super::fieldpath::is_int64`]).

use super::connection::{self, Details};
use super::fieldpath;
use super::input::{self, ComposedTemplate, Resources};
use super::patches;
use super::ready;
use super::validate;
use crate::eval::proto::{
    FunctionResult, Resource, ResponseMeta, RunFunctionRequest, RunFunctionResponse, State,
    struct_numbers,
};
use crate::source::pointer::Pointer;
use base64::Engine;
use serde_json::{Map, Number, Value};
use std::collections::BTreeMap;

/// The context key of the Composition environment.
pub const ENVIRONMENT_KEY: &str = "apiextensions.crossplane.io/environment";
/// The `apiVersion` the function gives an environment that has none.
pub const ENVIRONMENT_API_VERSION: &str = "internal.crossplane.io/v1alpha1";
/// The `kind` the function gives an environment that has none.
pub const ENVIRONMENT_KIND: &str = "Environment";
/// The SDK's default response TTL (`response.DefaultTTL`, one minute).
const DEFAULT_TTL: &str = "60s";

/// Whether a step input is function-patch-and-transform's (`pt.fn.crossplane.io/v1beta1`
/// `Resources`).
pub fn is_pt_input(input: &Value) -> bool {
    input.get("apiVersion").and_then(Value::as_str) == Some("pt.fn.crossplane.io/v1beta1")
        && input.get("kind").and_then(Value::as_str) == Some("Resources")
}

/// The XR side of a run: the observed XR, and the desired XR, its connection details and the
/// environment, which the patches write to.
struct Composite {
    observed: Value,
    desired: Value,
    details: Details,
    env: Value,
}

/// A desired composed resource being built: its object and whether it is ready.
struct Desired {
    object: Value,
    ready: Option<String>,
}

/// Runs function-patch-and-transform on one request, as its `RunFunction` does. Failures are
/// fatal results in the response, never errors: the function always answers.
pub fn run(req: &RunFunctionRequest) -> RunFunctionResponse {
    // The SDK's `response.To`: the request's desired state and context carried over.
    let mut rsp = RunFunctionResponse {
        meta: Some(ResponseMeta {
            tag: req.meta.as_ref().map(|m| m.tag.clone()).unwrap_or_default(),
            ttl: DEFAULT_TTL.to_string(),
        }),
        desired: req.desired.clone(),
        context: req.context.clone(),
        ..RunFunctionResponse::default()
    };
    if let Err(message) = compose(req, &mut rsp) {
        rsp.results.push(result("SEVERITY_FATAL", message));
    }
    rsp
}

/// A result for the composite, as the SDK's `response.Fatal` and `response.Warning` make one.
fn result(severity: &str, message: String) -> FunctionResult {
    FunctionResult {
        severity: severity.to_string(),
        message,
        reason: None,
        target: Some("TARGET_COMPOSITE".to_string()),
    }
}

/// The body of `RunFunction`: `Err` is the fatal result's message; warnings are added to
/// `rsp` as they happen.
fn compose(req: &RunFunctionRequest, rsp: &mut RunFunctionResponse) -> Result<(), String> {
    // The input is a `Struct` too: its numbers are float64s, which the function reads back
    // from the JSON protojson writes (`3`, not `3.0`).
    let raw_input = req
        .input
        .as_ref()
        .map_or(Value::Object(Map::new()), struct_numbers);
    let input = input::decode(&raw_input).map_err(|e| format!("cannot get Function input: {e}"))?;
    validate::resources(&input).map_err(|e| format!("invalid Function input: {e}"))?;

    let oxr = struct_object(req.observed.composite.as_ref());
    let desired_state = req.desired.clone().unwrap_or_default();
    let mut dxr = struct_object(desired_state.composite.as_ref());
    let dxr_details = details_of(desired_state.composite.as_ref());
    // The function gives the desired XR the observed one's apiVersion and kind, so that its
    // patching code can convert it.
    set_field(&mut dxr, "apiVersion", text(&oxr, "apiVersion"));
    set_field(&mut dxr, "kind", text(&oxr, "kind"));

    let observed: BTreeMap<String, (Value, Details)> = req
        .observed
        .resources
        .iter()
        .map(|(name, r)| (name.clone(), (struct_object(Some(r)), details_of(Some(r)))))
        .collect();
    let mut desired: BTreeMap<String, Desired> = desired_state
        .resources
        .iter()
        .map(|(name, r)| {
            let object = struct_object(Some(r));
            (
                name.clone(),
                Desired {
                    object,
                    ready: r.ready.clone(),
                },
            )
        })
        .collect();

    let templates = patches::composed_templates(&input.patch_sets, &input.resources)
        .map_err(|e| format!("cannot resolve PatchSets: {e}"))?;

    let mut xr = Composite {
        observed: oxr,
        desired: dxr,
        details: dxr_details,
        env: environment(req),
    };
    if let Some(environment) = &input.environment {
        for (i, p) in environment.patches.iter().enumerate() {
            if let Err(e) =
                patches::apply_environment_patch(p, &mut xr.env, &xr.observed, &mut xr.desired)
            {
                if e.is_not_found()
                    && p.patch.from_field_path_policy() == input::FROM_POLICY_OPTIONAL
                {
                    continue;
                }
                return Err(format!(
                    "cannot apply the {} environment patch at index {i}: {e}",
                    quote(p.patch_type())
                ));
            }
        }
    }

    let mut skipped = 0;
    for t in &templates {
        let observed_one = observed.get(&t.name);
        let Some(built) = template(t, observed_one, &desired, &mut xr, rsp)? else {
            skipped += 1;
            continue;
        };
        desired.insert(t.name.clone(), built);
    }

    if !connection::supports_connection_details(&xr.observed) && !xr.details.is_empty() {
        let secret = connection_secret(&xr.observed, &xr.details, &input)
            .map_err(|e| format!("cannot compose connection secret: {e}"))?;
        if let Some(secret) = secret {
            let name = format!("{}-connection-secret", text(&xr.observed, "metadata/name"));
            desired.insert(
                name,
                Desired {
                    object: secret,
                    ready: Some("READY_TRUE".into()),
                },
            );
        }
    }

    let state = rsp.desired.get_or_insert_with(State::default);
    state.composite = Some(Resource {
        resource: Some(struct_numbers(&xr.desired)),
        connection_details: encode_details(&xr.details),
        ready: (skipped > 0).then(|| "READY_FALSE".to_string()),
    });
    for (name, d) in desired {
        let resource = Resource {
            resource: Some(struct_numbers(&d.object)),
            connection_details: BTreeMap::new(),
            ready: d.ready,
        };
        state.resources.insert(name, resource);
    }
    let context = rsp.context.get_or_insert_with(|| Value::Object(Map::new()));
    if !context.is_object() {
        *context = Value::Object(Map::new());
    }
    if let Some(map) = context.as_object_mut() {
        map.insert(ENVIRONMENT_KEY.to_string(), struct_numbers(&xr.env));
    }
    Ok(())
}

/// One resource template: its desired resource, or `None` when a `Required` patch source is
/// missing and the resource does not exist yet (Go skips it).
fn template(
    t: &ComposedTemplate,
    observed: Option<&(Value, Details)>,
    desired: &BTreeMap<String, Desired>,
    xr: &mut Composite,
    rsp: &mut RunFunctionResponse,
) -> Result<Option<Desired>, String> {
    let name = quote(&t.name);
    let mut dcd = Desired {
        object: Value::Object(Map::new()),
        ready: None,
    };
    match t.base.value() {
        None => {
            let Some(previous) = desired.get(&t.name) else {
                return Err(format!(
                    "composed resource {name} has no base template, and was not produced by a previous Function in the pipeline"
                ));
            };
            dcd.object = previous.object.clone();
        }
        Some(base) => {
            dcd.object = base_object(base).map_err(|e| {
                format!("cannot parse base template of composed resource {name}: {e}")
            })?;
        }
    }
    if let Some((ocd, data)) = observed {
        // Keep the template tied to the resource that exists: only its namespace and name.
        set_meta(
            &mut dcd.object,
            "namespace",
            text(ocd, "metadata/namespace"),
        );
        set_meta(&mut dcd.object, "name", text(ocd, "metadata/name"));
        match connection::extract(ocd, data, &t.connection_details) {
            Ok(conn) => xr.details.extend(conn),
            Err(e) => rsp.results.push(result(
                "SEVERITY_WARNING",
                format!("cannot extract composite resource connection details from composed resource {name}: {e}"),
            )),
        }
        match ready::is_ready(ocd, &t.readiness_checks) {
            Ok(true) => dcd.ready = Some("READY_TRUE".into()),
            Ok(false) => {}
            Err(e) => rsp.results.push(result(
                "SEVERITY_WARNING",
                format!("cannot check readiness of composed resource {name}: {e}"),
            )),
        }
    }
    let ocd = observed.map(|(o, _)| o);
    for (i, p) in t.patches.iter().enumerate() {
        let Err(e) = patches::apply_composed_patch(
            p,
            ocd,
            &mut dcd.object,
            &xr.observed,
            &mut xr.desired,
            &mut xr.env,
        ) else {
            continue;
        };
        let kind = quote(p.patch_type());
        if !e.is_not_found() {
            return Err(format!(
                "cannot render composed resource {name} {kind} patch at index {i}: {e}"
            ));
        }
        // A missing source: a Required one keeps a new resource out of the desired state;
        // otherwise (or when the resource exists) the patch is skipped.
        if p.patch.from_field_path_policy() == input::FROM_POLICY_REQUIRED {
            if patches::to_composed_resource(p) && observed.is_none() {
                rsp.results.push(result(
                    "SEVERITY_WARNING",
                    format!("not adding new composed resource {name} to desired state because {kind} patch at index {i} has 'policy.fromFieldPath: Required': {e}"),
                ));
                return Ok(None);
            }
            rsp.results.push(result(
                "SEVERITY_WARNING",
                format!("cannot render composed resource {name} {kind} patch at index {i}: ignoring 'policy.fromFieldPath: Required' because 'to' resource already exists: {e}"),
            ));
        }
    }
    Ok(Some(dcd))
}

/// The connection Secret of a v2 XR (`None` without details), its reference patched by
/// `writeConnectionSecretToRef`'s patches as connection.go applies them: a
/// `FromCompositeFieldPath` patch that fails is skipped when it is `Optional` (the default), a
/// `CombineFromComposite` one fails, any other type is unsupported.
pub fn connection_secret(
    oxr: &Value,
    details: &Details,
    input: &Resources,
) -> Result<Option<Value>, String> {
    let reference = input.write_connection_secret_to_ref.as_ref();
    let patches_of = reference.map(|r| r.patches.as_slice()).unwrap_or(&[]);
    let mut patch = |i: usize, target: &mut Value| -> Result<(), String> {
        let p = &patches_of[i];
        let kind = p.patch_type();
        match kind {
            input::PATCH_FROM_COMPOSITE_FIELD_PATH => {
                match patches::apply_from_field_path_patch(&p.patch, oxr, target) {
                    Ok(()) => Ok(()),
                    // Any failure of an Optional patch (the default) skips it.
                    Err(_) if p.patch.from_field_path_policy() == input::FROM_POLICY_OPTIONAL => {
                        Ok(())
                    }
                    Err(e) => Err(format!("cannot apply patch type {kind} at index {i}: {e}")),
                }
            }
            input::PATCH_COMBINE_FROM_COMPOSITE => {
                patches::apply_combine_from_variables_patch(&p.patch, oxr, target)
                    .map_err(|e| format!("cannot apply patch type {kind} at index {i}: {e}"))
            }
            other => Err(format!("unsupported patch type {other} at index {i}")),
        }
    };
    connection::compose_secret(oxr, details, reference, &mut patch)
}

/// The Composition environment from the request's context, with the function's default
/// apiVersion and kind when it has neither (its patching needs them).
fn environment(req: &RunFunctionRequest) -> Value {
    let from_context = req
        .context
        .as_ref()
        .and_then(|c| c.get(ENVIRONMENT_KEY))
        .filter(|v| v.is_object())
        .map(as_struct_map)
        .unwrap_or(Value::Object(Map::new()));
    let mut env = from_context;
    let api = text(&env, "apiVersion");
    // Go's `GroupVersionKind().Empty()`: an unparsable apiVersion counts as none.
    let parsed = api.matches('/').count() <= 1;
    let empty = text(&env, "kind").is_empty() && (api.is_empty() || !parsed);
    if empty {
        set_field(&mut env, "apiVersion", ENVIRONMENT_API_VERSION.to_string());
        set_field(&mut env, "kind", ENVIRONMENT_KIND.to_string());
    }
    env
}

/// A protobuf `Struct` as the Go SDK's `AsObject` hands it to the function: a map whose every
/// number is a float64; a missing object is an empty one.
fn struct_object(resource: Option<&Resource>) -> Value {
    resource
        .and_then(|r| r.resource.as_ref())
        .filter(|v| v.is_object())
        .map(as_struct_map)
        .unwrap_or(Value::Object(Map::new()))
}

/// Every number of a `Struct` as a float64 (`structpb.Struct.AsMap`): written with a
/// fraction, so the field-path layer does not take it for an int64.
fn as_struct_map(value: &Value) -> Value {
    match value {
        Value::Number(n) => n
            .to_string()
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map_or(Value::Null, Value::Number),
        Value::Array(items) => Value::Array(items.iter().map(as_struct_map).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), as_struct_map(v)))
                .collect(),
        ),
        Value::Null | Value::Bool(_) | Value::String(_) => value.clone(),
    }
}

/// A base template as `json.Unmarshal` into an unstructured object reads it: the JSON the
/// input's `Struct` was written as (float64s in Go's text), whole numbers read back as
/// int64s, and an error without a `kind`.
fn base_object(base: &Value) -> Result<Value, String> {
    let mut object = struct_numbers(base);
    fieldpath::normalize_numbers(&mut object);
    if !object.is_object() {
        return Err(format!(
            "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
            json_kind(&object)
        ));
    }
    if text(&object, "kind").is_empty() {
        let data = crate::eval::json::encode_json(&object, false);
        return Err(format!("Object 'Kind' is missing in '{data}'"));
    }
    Ok(object)
}

/// Go's `encoding/json` name for a JSON value's kind in an unmarshal error.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A resource's connection details as bytes (protobuf JSON holds them in base64).
fn details_of(resource: Option<&Resource>) -> Details {
    let engine = &base64::engine::general_purpose::STANDARD;
    resource
        .map(|r| {
            r.connection_details
                .iter()
                .map(|(k, v)| (k.clone(), engine.decode(v).unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default()
}

/// Connection details back into protobuf JSON's base64.
fn encode_details(details: &Details) -> BTreeMap<String, String> {
    let engine = &base64::engine::general_purpose::STANDARD;
    details
        .iter()
        .map(|(k, v)| (k.clone(), engine.encode(v)))
        .collect()
}

/// A string field by a `/`-separated path, empty when absent or not a string (Go's
/// unstructured getters).
fn text(object: &Value, path: &str) -> String {
    object
        .at(&format!("/{path}"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

/// Go's `SetAPIVersion` / `SetKind`: the field set, even to an empty string.
fn set_field(object: &mut Value, key: &str, value: String) {
    if let Some(map) = object.as_object_mut() {
        map.insert(key.to_string(), Value::String(value));
    }
}

/// Go's `SetName` / `SetNamespace`: an empty value removes the field.
fn set_meta(object: &mut Value, key: &str, value: String) {
    let Some(map) = object.as_object_mut() else {
        return;
    };
    if value.is_empty() {
        if let Some(Value::Object(meta)) = map.get_mut("metadata") {
            meta.remove(key);
        }
        return;
    }
    let meta = map
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if !meta.is_object() {
        *meta = Value::Object(Map::new());
    }
    if let Some(meta) = meta.as_object_mut() {
        meta.insert(key.to_string(), Value::String(value));
    }
}

/// Go's `%q` of a string.
fn quote(s: &str) -> String {
    crate::gostd::strconv::quote(s)
}
