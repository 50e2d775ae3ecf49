//! function-hcl's debug dumps (its `internal/debug` package): what the function logs to stderr
//! when its input has `debug: true`, or `debugNew: true` and the request observes no composed
//! resource yet, or the XR is annotated `hcl.fn.crossplane.io/debug: "true"`.
//!
//! Before each call, the request as a txtar archive (`xr.yaml`, `observed.yaml`, one
//! `context-KEY.json` per context key, `extra-resources.yaml`) between `## start request ##` and
//! `## end request ##`; after a call that did not fail, the response in render style
//! (`rendered.yaml`, `requirements.yaml`). Objects are cleaned of server noise as the function
//! cleans them. Where Go iterates a map (observed and desired resources, extra resources by
//! key) the dump is sorted by name.

use super::TRANSITION_TIME;
use crate::eval::json::encode_json;
use crate::eval::proto::{RunFunctionRequest, RunFunctionResponse, struct_numbers};
use crate::source::pointer::Pointer;
use crate::source::yaml_emit::to_yaml;
use serde_json::{Map, Value as Json, json};

/// The XR annotation that turns the dump on for one XR.
pub const DEBUG_ANNOTATION: &str = "hcl.fn.crossplane.io/debug";

/// The step name the function writes into its dumped results.
const STEP: &str = "run hcl composition";

/// Whether the function would dump this request (`input` is the step's input).
pub fn enabled(request: &RunFunctionRequest, input: Option<&Json>) -> bool {
    let annotated = request
        .observed
        .composite
        .as_ref()
        .and_then(|c| c.resource.as_ref())
        .and_then(|r| r.at("/metadata/annotations"))
        .and_then(|a| a.get(DEBUG_ANNOTATION))
        .and_then(Json::as_str)
        == Some("true");
    let flag = |name: &str| input.and_then(|i| i.get(name)) == Some(&Json::Bool(true));
    annotated || flag("debug") || (flag("debugNew") && request.observed.resources.is_empty())
}

/// The dump's text builder (the function's `bufWriter`).
struct Dump {
    kind: &'static str,
    buf: String,
    first_doc: bool,
}

impl Dump {
    fn new(kind: &'static str) -> Dump {
        Dump {
            kind,
            buf: format!("## start {kind} ##\n"),
            first_doc: true,
        }
    }

    fn comment(&mut self, text: &str) {
        self.buf.push_str("# ");
        self.buf.push_str(text);
        self.buf.push('\n');
    }

    fn file(&mut self, name: &str) {
        self.first_doc = true;
        self.buf.push_str(&format!("\n-- {name} --\n"));
    }

    fn json_file(&mut self, name: &str, value: &Json) {
        self.file(name);
        self.buf
            .push_str(&go_indent(&encode_json(&struct_numbers(value), true)));
        self.buf.push('\n');
    }

    fn yaml_doc(&mut self, value: &Json, leading_comment: &str) {
        if self.first_doc {
            self.first_doc = false;
        } else {
            self.buf.push_str("---\n");
        }
        if !leading_comment.is_empty() {
            self.comment(leading_comment);
        }
        self.buf.push_str(&to_yaml(&struct_numbers(value)));
    }

    /// The text as `log.Println` writes it.
    fn done(mut self) -> String {
        self.buf.push_str(&format!("\n## end {} ##\n\n", self.kind));
        self.buf.push('\n');
        self.buf
    }
}

/// An object without what the function strips before dumping it.
fn clean(object: &Json) -> Json {
    let mut object = object.clone();
    if let Some(metadata) = object.get_mut("metadata").and_then(Json::as_object_mut) {
        for key in [
            "managedFields",
            "creationTimestamp",
            "generation",
            "resourceVersion",
            "uid",
        ] {
            metadata.remove(key);
        }
        if let Some(annotations) = metadata
            .get_mut("annotations")
            .and_then(Json::as_object_mut)
        {
            annotations.remove("kubectl.kubernetes.io/last-applied-configuration");
        }
    }
    object
}

/// The request dump.
pub fn request(request: &RunFunctionRequest) -> String {
    let mut w = Dump::new("request");
    let empty = Json::Object(Map::new());
    let composite = request
        .observed
        .composite
        .as_ref()
        .and_then(|c| c.resource.as_ref())
        .unwrap_or(&empty);
    w.file("xr.yaml");
    w.yaml_doc(&clean(composite), "");
    w.file("observed.yaml");
    for (name, resource) in &request.observed.resources {
        let object = resource.resource.as_ref().unwrap_or(&empty);
        w.yaml_doc(&clean(object), &format!("crossplane name: {name}"));
    }
    if let Some(Json::Object(context)) = &request.context {
        // encoding/json and the map's keys: sorted.
        let mut keys: Vec<&String> = context.keys().collect();
        keys.sort();
        for key in keys {
            w.json_file(&format!("context-{}.json", clean_name(key)), &context[key]);
        }
    }
    if !request.extra_resources.is_empty() {
        w.file("extra-resources.yaml");
        for (name, resources) in &request.extra_resources {
            w.comment(&format!("key: {name}"));
            for item in &resources.items {
                w.yaml_doc(&clean(item.resource.as_ref().unwrap_or(&empty)), "");
            }
        }
    }
    w.done()
}

/// The function's `cleanName`: runs of characters outside `[a-zA-Z0-9_./-]` become one `_`,
/// then `/` becomes `--`.
fn clean_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let keep = c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-');
        let c = if keep { c } else { '_' };
        if c == '_' && out.ends_with('_') {
            continue;
        }
        out.push(c);
    }
    out.replace('/', "--")
}

/// Go's `json.Indent` with an empty prefix and two spaces, over compact JSON.
fn go_indent(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let mut depth = 0usize;
    let (mut in_string, mut escaped) = (false, false);
    let mut chars = compact.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                // An empty object or array stays `{}` / `[]`.
                if matches!(chars.peek(), Some('}' | ']')) {
                    out.extend(chars.next());
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            other => out.push(other),
        }
    }
    out
}

/// The response dump, or `None` where the function gives up on it (a composite `status`
/// that is not an object; labels or annotations that are not strings).
pub fn response(request: &RunFunctionRequest, response: &RunFunctionResponse) -> Option<String> {
    let mut w = Dump::new("response");
    let observed = request
        .observed
        .composite
        .as_ref()
        .and_then(|c| c.resource.clone())
        .unwrap_or(Json::Object(Map::new()));
    let text = |pointer: &str| {
        observed
            .at(pointer)
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string()
    };
    let (name, namespace) = (text("/metadata/name"), text("/metadata/namespace"));
    let desired = response.desired.as_ref();
    let mut xr = match desired
        .and_then(|d| d.composite.as_ref())
        .and_then(|c| c.resource.clone())
    {
        Some(Json::Object(map)) => map,
        _ => Map::new(),
    };
    xr.insert(
        "apiVersion".into(),
        observed.get("apiVersion").cloned().unwrap_or(Json::Null),
    );
    xr.insert(
        "kind".into(),
        observed.get("kind").cloned().unwrap_or(Json::Null),
    );
    let mut meta = Map::new();
    meta.insert("name".into(), Json::String(name.clone()));
    if !namespace.is_empty() {
        meta.insert("namespace".into(), Json::String(namespace.clone()));
    }
    xr.insert("metadata".into(), Json::Object(meta));
    let conditions = Json::Array(conditions(response));
    match xr.get_mut("status") {
        Some(Json::Object(status)) => {
            status.insert("conditions".into(), conditions);
        }
        Some(_) => return None,
        None => {
            xr.insert("status".into(), json!({ "conditions": conditions }));
        }
    }
    w.file("rendered.yaml");
    w.yaml_doc(&Json::Object(xr), "returned composite status");
    let mut owner = json!({
        "apiVersion": text("/apiVersion"),
        "kind": text("/kind"),
        "name": name,
        "blockOwnerDeletion": true,
        "controller": true,
        "uid": "",
    });
    if !namespace.is_empty() {
        owner["namespace"] = Json::String(namespace);
    }
    if let Some(desired) = desired {
        for (resource_name, resource) in &desired.resources {
            let mut object = match resource.resource.clone() {
                Some(Json::Object(map)) => map,
                _ => Map::new(),
            };
            let metadata = object
                .entry("metadata")
                .or_insert_with(|| Json::Object(Map::new()));
            let Json::Object(metadata) = metadata else {
                return None;
            };
            metadata.insert("generateName".into(), Json::String(format!("{name}-")));
            metadata.insert("ownerReferences".into(), json!([owner.clone()]));
            for (bag, key, value) in [
                (
                    "annotations",
                    "crossplane.io/composition-resource-name",
                    resource_name.as_str(),
                ),
                ("labels", "crossplane.io/composite", name.as_str()),
            ] {
                let entry = metadata
                    .entry(bag)
                    .or_insert_with(|| Json::Object(Map::new()));
                match entry {
                    Json::Object(map) if map.values().all(Json::is_string) => {
                        map.insert(key.into(), Json::String(value.into()));
                    }
                    Json::Null => *entry = json!({ key: value }),
                    _ => return None,
                }
            }
            w.yaml_doc(
                &Json::Object(object),
                &format!("desired object: {resource_name}"),
            );
        }
    }
    let fields = response.context.clone().unwrap_or(Json::Null);
    w.yaml_doc(
        &json!({
            "apiVersion": "render.crossplane.io/v1beta1",
            "kind": "Context",
            "metadata": {"name": "context"},
            "fields": fields,
        }),
        "context",
    );
    for (i, result) in response.results.iter().enumerate() {
        w.yaml_doc(
            &json!({
                "apiVersion": "render.crossplane.io/v1beta1",
                "kind": "Result",
                "metadata": {"name": format!("result-{i}")},
                "message": result.message,
                "severity": result.severity,
                "step": STEP,
            }),
            "result",
        );
    }
    if let Some(requirements) = &response.requirements
        && !requirements.extra_resources.is_empty()
    {
        w.file("requirements.yaml");
        let value = serde_json::to_value(requirements).unwrap_or(Json::Null);
        w.yaml_doc(&value, "");
    }
    Some(w.done())
}

/// The function's `renderConditions`: a Ready condition as crossplane sets it, then the
/// response's conditions.
fn conditions(response: &RunFunctionResponse) -> Vec<Json> {
    let mut out = vec![json!({
        "type": "Ready",
        "status": "True",
        "reason": "Available",
        "lastTransitionTime": TRANSITION_TIME,
    })];
    for c in &response.conditions {
        let status = match c.status.as_str() {
            "STATUS_CONDITION_TRUE" => "True",
            "STATUS_CONDITION_FALSE" => "False",
            "STATUS_CONDITION_UNKNOWN" => "Unknown",
            _ => "Unspecified",
        };
        out.push(json!({
            "type": c.kind,
            "status": status,
            "message": c.message,
            "reason": c.reason,
            "lastTransitionTime": TRANSITION_TIME,
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_indentation_follow_go() {
        assert_eq!(
            clean_name("apiextensions.crossplane.io/environment"),
            "apiextensions.crossplane.io--environment"
        );
        assert_eq!(clean_name("a b!!c"), "a_b_c");
        assert_eq!(
            go_indent(r#"{"a":[1,{}],"b":{"c":"x,y:{"},"d":[]}"#),
            "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": {\n    \"c\": \"x,y:{\"\n  },\n  \"d\": []\n}"
        );
    }
}

#[cfg(test)]
mod enabled_tests {
    use super::*;
    use crate::eval::proto::{Resource, State};

    fn request(annotated: bool, observed: usize) -> RunFunctionRequest {
        let mut xr =
            json!({"apiVersion": "example.org/v1", "kind": "XApp", "metadata": {"name": "a"}});
        if annotated {
            xr["metadata"]["annotations"] = json!({DEBUG_ANNOTATION: "true"});
        }
        let mut state = State {
            composite: Some(Resource::of(xr)),
            ..State::default()
        };
        for i in 0..observed {
            state
                .resources
                .insert(format!("r{i}"), Resource::of(json!({"kind": "ConfigMap"})));
        }
        RunFunctionRequest {
            observed: state,
            ..RunFunctionRequest::default()
        }
    }

    #[test]
    fn the_input_flags_and_the_annotation_turn_the_dump_on() {
        let debug = json!({"debug": true});
        let debug_new = json!({"debugNew": true});
        let off = json!({"debug": false, "debugNew": false});
        assert!(!enabled(&request(false, 0), None));
        assert!(!enabled(&request(false, 0), Some(&off)));
        assert!(enabled(&request(true, 3), None));
        assert!(enabled(&request(false, 3), Some(&debug)));
        // debugNew: only while no composed resource is observed yet.
        assert!(enabled(&request(false, 0), Some(&debug_new)));
        assert!(!enabled(&request(false, 1), Some(&debug_new)));
        // The annotation must say exactly "true"; a string flag is not the boolean.
        let mut yes = request(false, 0);
        if let Some(Json::Object(m)) = yes
            .observed
            .composite
            .as_mut()
            .and_then(|c| c.resource.as_mut())
        {
            m.insert(
                "metadata".into(),
                json!({"annotations": {DEBUG_ANNOTATION: "yes"}}),
            );
        }
        assert!(!enabled(&yes, None));
        assert!(!enabled(
            &request(false, 3),
            Some(&json!({"debug": "true"}))
        ));
    }
}
