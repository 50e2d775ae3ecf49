//! A legacy `mode: Resources` Composition turned into a one-step pipeline whose step runs
//! function-patch-and-transform, as crossplane-migrator's `new-pipeline-composition` converts it.
//!
//! It works on JSON values, not on typed Compositions, so that `render` and `convert` can hand
//! it what they read and keep everything the migrator keeps. What the migrator does and we
//! do not: it stamps `metadata.creationTimestamp` with the clock (we leave it alone, so that a
//! render is reproducible), it re-encodes every field through Crossplane's Go types (we keep
//! the fields as written), and it panics on an unnamed resource whose base has no decoded
//! object (we name it from the base's `kind` as its tests expect).

use crate::source::pointer::Pointer;
use serde_json::{Map, Value};

/// The Function a converted step calls when no other name is given.
pub const DEFAULT_FUNCTION_NAME: &str = "function-patch-and-transform";
/// The name of the one step a converted Composition has.
pub const STEP_NAME: &str = "patch-and-transform";
/// The input's `apiVersion`.
pub const INPUT_API_VERSION: &str = "pt.fn.crossplane.io/v1beta1";
/// The input's `kind`.
pub const INPUT_KIND: &str = "Resources";
/// The migrator's error for a missing Composition.
pub const ERR_NIL_COMPOSITION: &str = "provided Composition is empty";

/// Whether a Composition is a legacy one, for `render`: `spec.mode: Resources`, or no mode,
/// `spec.resources` and no `spec.pipeline` (Crossplane v1's default mode). [`convert`]
/// itself, as the migrator, converts anything whose mode is not `Pipeline`.
pub fn is_legacy(composition: &Value) -> bool {
    match composition.at("/spec/mode").and_then(Value::as_str) {
        Some(mode) => mode == "Resources",
        None => {
            composition.at("/spec/resources").is_some()
                && composition.at("/spec/pipeline").is_none()
        }
    }
}

/// The Composition as a pipeline Composition: unchanged when it already is one, else a single
/// `patch-and-transform` step calling `function_name` (the default when `None` or empty) with
/// the patch sets, resources and environment patches as its input. Only a JSON `null` (the
/// migrator's nil Composition) fails.
pub fn convert(composition: &Value, function_name: Option<&str>) -> Result<Value, String> {
    if composition.is_null() {
        return Err(ERR_NIL_COMPOSITION.to_string());
    }
    if composition.at("/spec/mode").and_then(Value::as_str) == Some("Pipeline") {
        return Ok(composition.clone());
    }
    let empty = Map::new();
    let spec = composition
        .get("spec")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let mut out = Map::new();
    for key in ["apiVersion", "kind", "metadata"] {
        if let Some(value) = composition.get(key) {
            out.insert(key.to_string(), value.clone());
        }
    }
    let mut new_spec = Map::new();
    for key in [
        "compositeTypeRef",
        "writeConnectionSecretsToNamespace",
        "publishConnectionDetailsWithStoreConfigRef",
    ] {
        if let Some(value) = spec.get(key).filter(|v| !v.is_null()) {
            new_spec.insert(key.to_string(), value.clone());
        }
    }
    let mut input = Input::default();
    if let Some(environment) = spec.get("environment").and_then(Value::as_object) {
        // Environment sources, defaults and policy stay on the Composition; only the
        // patches move into the step.
        let mut kept = Map::new();
        for key in ["defaultData", "environmentConfigs", "policy"] {
            if let Some(value) = environment.get(key).filter(|v| !is_empty(v)) {
                kept.insert(key.to_string(), value.clone());
            }
        }
        new_spec.insert("environment".to_string(), Value::Object(kept));
        input.environment_patches = list(environment.get("patches"));
    }
    input.patch_sets = list(spec.get("patchSets"));
    input.resources = list(spec.get("resources"));
    new_spec.insert("mode".to_string(), Value::from("Pipeline"));
    let name = match function_name {
        Some(name) if !name.is_empty() => name,
        _ => DEFAULT_FUNCTION_NAME,
    };
    let mut function_ref = Map::new();
    function_ref.insert("name".to_string(), Value::from(name));
    let mut step = Map::new();
    step.insert("step".to_string(), Value::from(STEP_NAME));
    step.insert("functionRef".to_string(), Value::Object(function_ref));
    step.insert("input".to_string(), function_input(&input));
    new_spec.insert(
        "pipeline".to_string(),
        Value::Array(vec![Value::Object(step)]),
    );
    out.insert("spec".to_string(), Value::Object(new_spec));
    Ok(Value::Object(out))
}

/// What moves from a legacy Composition into the step's input.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Input {
    /// `spec.patchSets`.
    pub patch_sets: Vec<Value>,
    /// `spec.environment.patches`.
    pub environment_patches: Vec<Value>,
    /// `spec.resources`.
    pub resources: Vec<Value>,
}

/// The step's `pt.fn.crossplane.io/v1beta1` `Resources` input, with the fields the built-in
/// engine defaulted and the function requires filled in. `environment` is `null` without
/// environment patches, as the migrator writes it.
pub fn function_input(input: &Input) -> Value {
    let mut out = Map::new();
    out.insert("apiVersion".to_string(), Value::from(INPUT_API_VERSION));
    out.insert("kind".to_string(), Value::from(INPUT_KIND));
    let environment = if input.environment_patches.is_empty() {
        Value::Null
    } else {
        let patches = input.environment_patches.iter().map(patch).collect();
        let mut env = Map::new();
        env.insert("patches".to_string(), Value::Array(patches));
        Value::Object(env)
    };
    out.insert("environment".to_string(), environment);
    out.insert(
        "patchSets".to_string(),
        Value::Array(input.patch_sets.iter().map(patch_set).collect()),
    );
    out.insert(
        "resources".to_string(),
        Value::Array(
            input
                .resources
                .iter()
                .enumerate()
                .map(|(index, r)| resource(index, r))
                .collect(),
        ),
    );
    Value::Object(out)
}

/// A patch set with each patch's missing fields filled in.
pub fn patch_set(set: &Value) -> Value {
    let mut out = set.clone();
    if let Some(object) = out.as_object_mut() {
        let patches: Vec<Value> = list(object.get("patches")).iter().map(patch).collect();
        object.insert("patches".to_string(), Value::Array(patches));
    }
    out
}

/// A patch (of a resource, a patch set or the environment): `type` defaults to
/// `FromCompositeFieldPath` and each transform gets its missing types.
pub fn patch(patch: &Value) -> Value {
    let mut out = patch.clone();
    let Some(object) = out.as_object_mut() else {
        return out;
    };
    if str_of(object.get("type")).is_empty() {
        object.insert("type".to_string(), Value::from("FromCompositeFieldPath"));
    }
    let transforms = list(object.get("transforms"));
    if transforms.is_empty() {
        // Go's `omitempty` drops an empty list when the migrator writes the patch out.
        object.remove("transforms");
    } else {
        let filled = transforms.iter().map(transform).collect();
        object.insert("transforms".to_string(), Value::Array(filled));
    }
    out
}

/// A composed template: a missing or empty `name` becomes the base's lower-cased `kind`, a
/// dash and the template's index; patches and connection details get their missing fields.
/// Empty patch and connection-detail lists are dropped, as Go's `omitempty` drops them.
pub fn resource(index: usize, template: &Value) -> Value {
    let mut out = template.clone();
    let Some(object) = out.as_object_mut() else {
        return out;
    };
    if str_of(object.get("name")).is_empty() {
        let kind = str_of(object.get("base").and_then(|b| b.get("kind")));
        let name = format!("{kind}-{index}").to_lowercase();
        object.insert("name".to_string(), Value::from(name));
    }
    for (key, fill) in [
        (
            "connectionDetails",
            connection_detail as fn(&Value) -> Value,
        ),
        ("patches", patch),
    ] {
        let filled: Vec<Value> = list(object.get(key)).iter().map(fill).collect();
        if filled.is_empty() {
            object.remove(key);
        } else {
            object.insert(key.to_string(), Value::Array(filled));
        }
    }
    out
}

/// A transform whose `type` (and its math or string `type`) the built-in engine inferred:
/// `string` wins over `math` when both are set, and within each the last of the migrator's
/// checks wins (multiply over clampMax over clampMin; regexp over convert over fmt).
pub fn transform(transform: &Value) -> Value {
    let mut out = transform.clone();
    let Some(object) = out.as_object_mut() else {
        return out;
    };
    if str_of(object.get("type")).is_empty() {
        let inferred = if is_set(object.get("string")) {
            Some("string")
        } else if is_set(object.get("math")) {
            Some("math")
        } else {
            None
        };
        if let Some(kind) = inferred {
            object.insert("type".to_string(), Value::from(kind));
        }
    }
    let kind = str_of(object.get("type")).to_string();
    let (key, choices): (&str, &[(&str, &str)]) = match kind.as_str() {
        "math" => (
            "math",
            &[
                ("multiply", "Multiply"),
                ("clampMax", "ClampMax"),
                ("clampMin", "ClampMin"),
            ],
        ),
        "string" => (
            "string",
            &[
                ("regexp", "Regexp"),
                ("convert", "Convert"),
                ("fmt", "Format"),
            ],
        ),
        _ => return out,
    };
    // The migrator dereferences the nested object unchecked; a missing one is left for the
    // function's validation to report.
    if let Some(nested) = object.get_mut(key).and_then(Value::as_object_mut)
        && str_of(nested.get("type")).is_empty()
        && let Some((_, value)) = choices.iter().find(|(field, _)| is_set(nested.get(*field)))
    {
        nested.insert("type".to_string(), Value::from(*value));
    }
    out
}

/// A connection detail rebuilt from its name and sources: its `type` is inferred from which
/// source is set (an explicit `type` is not carried over, as in the migrator), and a
/// `FromConnectionSecretKey` detail without a name takes the key as its name.
pub fn connection_detail(detail: &Value) -> Value {
    let mut out = Map::new();
    for key in ["name", "value", "fromConnectionSecretKey", "fromFieldPath"] {
        if let Some(value) = detail.get(key).filter(|v| !v.is_null()) {
            out.insert(key.to_string(), value.clone());
        }
    }
    let kind = if out.contains_key("fromConnectionSecretKey") {
        Some("FromConnectionSecretKey")
    } else if out.contains_key("fromFieldPath") {
        Some("FromFieldPath")
    } else if out.contains_key("value") {
        Some("FromValue")
    } else {
        None
    };
    if let Some(kind) = kind {
        out.insert("type".to_string(), Value::from(kind));
    }
    if !out.contains_key("name")
        && kind == Some("FromConnectionSecretKey")
        && let Some(key) = out.get("fromConnectionSecretKey").cloned()
    {
        out.insert("name".to_string(), key);
    }
    Value::Object(out)
}

/// The elements of a list field, none when it is absent or not a list.
fn list(value: Option<&Value>) -> Vec<Value> {
    value.and_then(Value::as_array).cloned().unwrap_or_default()
}

/// A string field's text, empty when absent or not a string.
fn str_of(value: Option<&Value>) -> &str {
    value.and_then(Value::as_str).unwrap_or("")
}

/// Whether a Go pointer field would be non-nil: present and not `null`.
fn is_set(value: Option<&Value>) -> bool {
    value.is_some_and(|v| !v.is_null())
}

/// What Go's `omitempty` leaves out: `null`, and empty lists and maps.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        Value::Bool(_) | Value::Number(_) | Value::String(_) => false,
    }
}
