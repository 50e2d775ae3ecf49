//! One function call, as function-hcl's `RunFunction` (`internal/fn/fn.go`) handles it:
//! decode the step input strictly, take the program from its txtar `hcl` (or from files the
//! caller loaded), evaluate, and merge the result into the request's desired state and
//! context. Every failure becomes a response with one fatal result, never an error.

use super::program::{self, HclResponse};
use super::proto::{
    FunctionResult, ResponseMeta, RunFunctionRequest, RunFunctionResponse, State, struct_numbers,
};
use crate::diagnostics::Diagnostic;
use crate::source::{FileId, SourceMap, txtar};
use serde_json::Value as Json;

/// The fields of function-hcl's `HclInput`; any other key is an error.
const INPUT_FIELDS: [&str; 7] = [
    "apiVersion",
    "kind",
    "metadata",
    "source",
    "hcl",
    "debug",
    "debugNew",
];

/// What one call produced.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The response function-hcl would send.
    pub response: RunFunctionResponse,
    /// The evaluation's details when it ran to the end.
    pub evaluation: Option<HclResponse>,
    /// The diagnostics behind a fatal result (empty when the failure was not about the HCL).
    pub failure: Option<Vec<Diagnostic>>,
}

/// Runs the function for `request`. `files` (already in `map`, in bundle order) replace the
/// request's own `input.hcl` when given.
pub fn run(map: &mut SourceMap, request: &RunFunctionRequest, files: Option<&[FileId]>) -> Outcome {
    let ran = crate::eval::budget::within(|| run_inner(map, request, files));
    // The budget's end is one more reason the evaluation fails, reported as function-hcl
    // reports a failed expression.
    let ran = ran.unwrap_or_else(|exhausted| {
        let diagnostic = exhausted.diagnostic();
        let message = format!(
            "evaluate hcl: {}",
            program::diags_error(std::slice::from_ref(&diagnostic), map)
        );
        Err((message, vec![diagnostic]))
    });
    match ran {
        Ok(outcome) => outcome,
        Err((message, diagnostics)) => {
            let mut response = base_response(request);
            response.results.push(FunctionResult {
                severity: "SEVERITY_FATAL".into(),
                message,
                reason: None,
                target: Some("TARGET_COMPOSITE".into()),
            });
            Outcome {
                response,
                evaluation: None,
                failure: Some(diagnostics),
            }
        }
    }
}

type Fatal = (String, Vec<Diagnostic>);

fn run_inner(
    map: &mut SourceMap,
    request: &RunFunctionRequest,
    files: Option<&[FileId]>,
) -> Result<Outcome, Fatal> {
    let hcl = input_hcl(request.input.as_ref())
        .map_err(|e| (format!("unable to get input: {e}"), Vec::new()))?;
    let files: Vec<FileId> = match files {
        Some(files) => files.to_vec(),
        None => {
            if hcl.is_empty() {
                return Err(("input HCL was not specified".into(), Vec::new()));
            }
            let archive = txtar::parse(&hcl);
            if archive.files.is_empty() {
                return Err((
                    "no HCL input files found, are you using the txtar format?".into(),
                    Vec::new(),
                ));
            }
            archive
                .files
                .into_iter()
                .map(|f| map.add(f.name, f.data))
                .collect()
        }
    };
    let evaluation = program::evaluate(map, &files, request).map_err(|failure| {
        let diagnostics = failure.diagnostics();
        (
            format!("evaluate hcl: {}", failure.message(map)),
            diagnostics,
        )
    })?;
    let mut response = base_response(request);
    merge(&mut response, &evaluation.response);
    response.results.push(FunctionResult {
        severity: "SEVERITY_NORMAL".into(),
        message: "hcl module executed successfully".into(),
        reason: None,
        target: Some("TARGET_COMPOSITE".into()),
    });
    Ok(Outcome {
        response,
        evaluation: Some(evaluation),
        failure: None,
    })
}

/// function-sdk-go's `response.To(req, 60s)`: the tag, a TTL, and the request's desired state
/// and context unchanged.
fn base_response(request: &RunFunctionRequest) -> RunFunctionResponse {
    let desired = request.desired.clone().map(|mut state| {
        for resource in state
            .composite
            .iter_mut()
            .chain(state.resources.values_mut())
        {
            resource.resource = resource.resource.as_ref().map(struct_numbers);
        }
        state
    });
    RunFunctionResponse {
        meta: Some(ResponseMeta {
            tag: request
                .meta
                .as_ref()
                .map(|m| m.tag.clone())
                .unwrap_or_default(),
            ttl: "60s".into(),
        }),
        desired,
        context: request.context.as_ref().map(struct_numbers),
        ..RunFunctionResponse::default()
    }
}

/// function-hcl's `mergeResponse`: a desired composite from the HCL replaces the upstream one
/// wholesale; resources are merged by name; context keys of the HCL overwrite the request's
/// top-level keys; results, conditions and requirements are the HCL's.
fn merge(response: &mut RunFunctionResponse, hcl: &RunFunctionResponse) {
    let desired = response.desired.get_or_insert_with(State::default);
    if let Some(theirs) = &hcl.desired {
        if theirs.composite.is_some() {
            desired.composite = theirs.composite.clone();
        }
        for (name, resource) in &theirs.resources {
            desired.resources.insert(name.clone(), resource.clone());
        }
    }
    if let Some(Json::Object(theirs)) = &hcl.context {
        let mut context = match response.context.take() {
            Some(Json::Object(mine)) => mine,
            _ => serde_json::Map::new(),
        };
        for (key, value) in theirs {
            context.insert(key.clone(), value.clone());
        }
        response.context = Some(Json::Object(context));
    }
    response.results = hcl.results.clone();
    response.conditions = hcl.conditions.clone();
    response.requirements = hcl.requirements.clone();
}

/// The `hcl` of the step input, decoded as function-sdk-go's `request.GetInput` does: unknown
/// keys and wrong types are errors; no input at all is an empty program.
fn input_hcl(input: Option<&Json>) -> Result<String, String> {
    const PREFIX: &str = "cannot get function input *v1beta1.HclInput from *v1.RunFunctionRequest: cannot unmarshal JSON from *structpb.Struct into *v1beta1.HclInput";
    let object = match input {
        None | Some(Json::Null) => return Ok(String::new()),
        Some(Json::Object(object)) => object,
        Some(_) => return Err(format!("{PREFIX}: input is not an object")),
    };
    if let Some(unknown) = object.keys().find(|k| !INPUT_FIELDS.contains(&k.as_str())) {
        return Err(format!("{PREFIX}: unknown object member name {unknown:?}"));
    }
    for (key, value) in object {
        let ok = match key.as_str() {
            "debug" | "debugNew" => value.is_boolean() || value.is_null(),
            "metadata" => value.is_object() || value.is_null(),
            _ => value.is_string() || value.is_null(),
        };
        if !ok {
            return Err(format!(
                "{PREFIX}: cannot unmarshal {} into Go struct field HclInput.{key}",
                json_kind(value)
            ));
        }
    }
    Ok(object
        .get("hcl")
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_string())
}

fn json_kind(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "bool",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn request(value: Json) -> RunFunctionRequest {
        serde_json::from_value(value).unwrap()
    }

    fn fatal(outcome: &Outcome) -> &str {
        assert_eq!(outcome.response.results.len(), 1);
        assert_eq!(outcome.response.results[0].severity, "SEVERITY_FATAL");
        &outcome.response.results[0].message
    }

    #[test]
    fn input_is_decoded_strictly() {
        let mut map = SourceMap::new();
        let out = run(&mut map, &request(json!({"input": {"hlc": "x"}})), None);
        assert!(fatal(&out).starts_with("unable to get input: "));
        assert!(fatal(&out).ends_with("unknown object member name \"hlc\""));
        let out = run(&mut map, &request(json!({"input": {"hcl": ""}})), None);
        assert_eq!(fatal(&out), "input HCL was not specified");
        let out = run(
            &mut map,
            &request(json!({"input": {"hcl": "resource x {}\n"}})),
            None,
        );
        assert_eq!(
            fatal(&out),
            "no HCL input files found, are you using the txtar format?"
        );
    }

    #[test]
    fn a_run_merges_into_the_upstream_state() {
        let mut map = SourceMap::new();
        let hcl = "-- main.hcl --\nresource b {\n  body = { kind = \"B\" }\n}\ncontext {\n  key = \"k\"\n  value = 1\n}\n";
        let req = request(json!({
            "meta": {"tag": "t"},
            "input": {"hcl": hcl},
            "desired": {"resources": {"a": {"resource": {"kind": "A"}}}},
            "context": {"k": 0, "other": true}
        }));
        let out = run(&mut map, &req, None);
        let response = serde_json::to_value(&out.response).unwrap();
        assert_eq!(response["meta"], json!({"tag": "t", "ttl": "60s"}));
        assert_eq!(
            response["desired"]["resources"],
            json!({"a": {"resource": {"kind": "A"}}, "b": {"resource": {"kind": "B"}}})
        );
        assert_eq!(response["context"], json!({"k": 1, "other": true}));
        let last = out.response.results.last().unwrap();
        assert_eq!(last.message, "hcl module executed successfully");
    }
}
