//! `fnhcl test import` of Crossplane's pipeline inspector log: the JSON lines its reference
//! sidecar (crossplane/inspector-sidecar, `--format=json`) prints, one per function call, read
//! as untrusted text and turned into the files of a test case. Nothing here writes or prints.
//!
//! A line is `{"type":"REQUEST"|"RESPONSE","meta":{…},"payload":{…},"error":"…"}`: `meta` is
//! the `StepMeta` message in protobuf JSON (`stepName`, `stepIndex`, `iteration`,
//! `functionName`, `traceId`, `spanId`, `timestamp`, and `compositionMeta` or `operationMeta`;
//! zero numbers are left out), `payload` the `RunFunctionRequest` (or response) in protobuf JSON,
//! as Crossplane sent it with credentials, connection details and Secret data replaced by
//! `**REDACTED**`. Text before a line's first `{` (a `kubectl logs --timestamps` time, a
//! `--prefix`) is ignored, and so are lines that are not records (the sidecar's own logs).

use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::eval::proto::{Resource, RunFunctionRequest};
use crate::render::RESOURCE_NAME_ANNOTATION as RESOURCE_NAME;
use crate::source::yaml_emit::to_yaml;
use serde_json::{Map, Value as Json};

/// What Crossplane writes in place of a secret value.
const REDACTED: &str = "**REDACTED**";

/// Malformed lines reported one by one; past this, they are counted.
pub const MAX_REPORTED_LINES: usize = 10;

/// One recorded function call's request, as listed to the user.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// Its 1-based line in the log.
    pub line: usize,
    /// The pipeline step's name (empty when Crossplane did not record one).
    pub step: String,
    /// The Function's name.
    pub function: String,
    /// The step's 0-based index in the pipeline.
    pub step_index: i64,
    /// How many times the step had run before in this reconcile (for required resources).
    pub iteration: i64,
    /// The XR as `Kind namespace/name` (`Kind name` when cluster scoped); empty for an
    /// operation's call.
    pub xr: String,
    /// The XR's name and namespace, for `--xr`.
    pub xr_name: String,
    /// The XR's namespace.
    pub xr_namespace: String,
    /// The reconcile's trace id.
    pub trace: String,
    /// Its call's span id (the response has the same).
    pub span: String,
    /// The step is function-hcl's (its input or its Function's name says so).
    pub hcl: bool,
    /// The error its response recorded, if any.
    pub error: Option<String>,
}

/// How to choose the request to import (`--step`, `--xr`, `--index`).
#[derive(Clone, Debug, Default)]
pub struct Select {
    /// A step name (or a Function name, for logs without step names).
    pub step: Option<String>,
    /// An XR's `name` or `namespace/name`.
    pub xr: Option<String>,
    /// The Nth (1-based) of the requests left by the other filters.
    pub index: Option<usize>,
}

/// A parsed log: its requests in order, their payloads, and the lines that were not records.
#[derive(Debug, Default)]
pub struct Log {
    /// Every request recorded, in order.
    pub requests: Vec<Request>,
    payloads: Vec<Json>,
    /// Lines that looked like records but were not (1-based line, why), as warnings.
    pub malformed: Vec<Diagnostic>,
}

/// What the import chose and what it left out.
#[derive(Clone, Debug)]
pub struct Chosen {
    /// Every request of the log, in order.
    pub requests: Vec<Request>,
    /// The position of the imported one in `requests`.
    pub chosen: usize,
    /// What the case cannot hold (the desired state of earlier steps, redacted values).
    pub left_out: Vec<String>,
}

/// Whether `text` holds at least one pipeline inspector record (so it is read as one).
pub fn is_inspector_log(text: &str) -> bool {
    text.lines()
        .any(|line| record_json(line).is_some_and(|v| record_kind(&v).is_some()))
}

/// The JSON object a line holds, from its first `{`.
fn record_json(line: &str) -> Option<Json> {
    let start = line.find('{')?;
    serde_json::from_str(line[start..].trim_end()).ok()
}

/// `REQUEST` or `RESPONSE` when the value is an inspector record.
fn record_kind(value: &Json) -> Option<&str> {
    value.get("meta").filter(|m| m.is_object())?;
    value
        .get("type")
        .and_then(Json::as_str)
        .filter(|t| *t == "REQUEST" || *t == "RESPONSE")
}

/// Reads the records of an inspector log.
pub fn parse(text: &str) -> Log {
    let mut log = Log::default();
    // Responses carry the error of the request with the same span.
    let mut errors: Vec<(String, String)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let Some(start) = line.find('{') else {
            continue;
        };
        let value: Json = match serde_json::from_str(line[start..].trim_end()) {
            Ok(value) => value,
            Err(e) => {
                log.malformed
                    .push(malformed(number, &format!("not JSON: {e}")));
                continue;
            }
        };
        match record_kind(&value) {
            Some("REQUEST") => match request(number, &value) {
                Ok(request) => {
                    log.requests.push(request);
                    log.payloads
                        .push(value.get("payload").cloned().unwrap_or(Json::Null));
                }
                Err(why) => log.malformed.push(malformed(number, &why)),
            },
            Some(_) => {
                let error = value.get("error").and_then(Json::as_str).unwrap_or("");
                let span = text_at(&value, &["meta", "spanId"]);
                if !error.is_empty() && !span.is_empty() {
                    errors.push((span, error.to_string()));
                }
            }
            // Not a record: the sidecar's own log lines.
            None => {}
        }
    }
    for request in &mut log.requests {
        request.error = errors
            .iter()
            .find(|(span, _)| *span == request.span)
            .map(|(_, e)| e.clone());
    }
    log
}

fn malformed(line: usize, why: &str) -> Diagnostic {
    Diagnostic::new(Code::I018, format!("line {line}: {why}"))
        .with_severity(Severity::Warning)
        .with_help("the line is skipped; a pipeline inspector record is one JSON object a line")
}

/// The string at `path` in `value`, or empty.
fn text_at(value: &Json, path: &[&str]) -> String {
    path.iter()
        .try_fold(value, |v, key| v.get(key))
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_string()
}

/// The number at `path` (protobuf JSON writes int32 as a number, and reads it as text too).
fn number_at(value: &Json, path: &[&str]) -> i64 {
    match path.iter().try_fold(value, |v, key| v.get(key)) {
        Some(Json::Number(n)) => n.as_i64().unwrap_or_default(),
        Some(Json::String(s)) => s.parse().unwrap_or_default(),
        _ => 0,
    }
}

/// A request record's summary; the payload must be a request object.
fn request(line: usize, value: &Json) -> Result<Request, String> {
    let payload = value.get("payload").unwrap_or(&Json::Null);
    if !payload.is_object() {
        return Err("the REQUEST's payload is not a RunFunctionRequest object".into());
    }
    let meta = value.get("meta").unwrap_or(&Json::Null);
    let function = text_at(meta, &["functionName"]);
    let cm = |field: &str| text_at(meta, &["compositionMeta", field]);
    let (kind, name, namespace) = (
        cm("compositeResourceKind"),
        cm("compositeResourceName"),
        cm("compositeResourceNamespace"),
    );
    let xr = match (name.is_empty(), namespace.is_empty()) {
        (true, _) => String::new(),
        (false, true) => format!("{kind} {name}"),
        (false, false) => format!("{kind} {namespace}/{name}"),
    };
    let input = payload.get("input");
    let input_text = |field: &str| {
        input
            .and_then(|i| i.get(field))
            .and_then(Json::as_str)
            .unwrap_or_default()
    };
    let hcl = input_text("apiVersion").starts_with("hcl.fn.crossplane.io/")
        || input_text("kind") == "HclInput"
        || input.is_some_and(|i| i.get("hcl").is_some())
        || function.contains("function-hcl");
    Ok(Request {
        line,
        step: text_at(meta, &["stepName"]),
        function,
        step_index: number_at(meta, &["stepIndex"]),
        iteration: number_at(meta, &["iteration"]),
        xr,
        xr_name: name,
        xr_namespace: namespace,
        trace: text_at(meta, &["traceId"]),
        span: text_at(meta, &["spanId"]),
        hcl,
        error: None,
    })
}

impl Request {
    fn matches(&self, select: &Select) -> bool {
        let step_ok = select
            .step
            .as_deref()
            .is_none_or(|s| self.step == s || (self.step.is_empty() && self.function == s));
        let xr_ok = select.xr.as_deref().is_none_or(|x| {
            self.xr_name == x
                || (!self.xr_namespace.is_empty()
                    && format!("{}/{}", self.xr_namespace, self.xr_name) == x)
        });
        step_ok && xr_ok
    }

    /// One line about it: `step NAME (FUNCTION, index I, iteration N), XR KIND NS/NAME`.
    pub fn describe(&self) -> String {
        let step = if self.step.is_empty() {
            "a step".to_string()
        } else {
            format!("step `{}`", self.step)
        };
        let mut text = format!(
            "{step} ({}, index {}, iteration {})",
            self.function, self.step_index, self.iteration
        );
        if !self.xr.is_empty() {
            text.push_str(&format!(", XR {}", self.xr));
        }
        text
    }
}

/// Chooses a request of `log` as `select` says: the filters narrow the requests, `index` picks
/// one of those left, and without it the last function-hcl request is taken.
pub fn choose(log: &Log, select: &Select) -> Result<usize, Box<Diagnostic>> {
    let left: Vec<usize> = (0..log.requests.len())
        .filter(|&i| log.requests[i].matches(select))
        .collect();
    if log.requests.is_empty() {
        let mut d = Diagnostic::new(Code::I018, "the pipeline inspector log holds no REQUEST")
            .with_help("give the sidecar's output with --format=json, a JSON object a line");
        if !log.malformed.is_empty() {
            d = d.with_detail(format!("{} malformed lines", log.malformed.len()));
        }
        return Err(Box::new(d));
    }
    if left.is_empty() {
        let (code, what) = match (&select.step, &select.xr) {
            (Some(step), _) if !log.requests.iter().any(|r| r.matches(&only_step(step))) => {
                (Code::I007, format!("no request of step `{step}`"))
            }
            (_, Some(xr)) => (Code::I017, format!("no request for the XR `{xr}`")),
            _ => (Code::I017, "no request matches --step and --xr".to_string()),
        };
        return Err(Box::new(
            Diagnostic::new(code, format!("{what} in the pipeline inspector log"))
                .with_detail(listing(&log.requests))
                .with_help("choose one of the requests listed"),
        ));
    }
    let chosen = match select.index {
        Some(n) => {
            let Some(&i) = n.checked_sub(1).and_then(|k| left.get(k)) else {
                return Err(Box::new(
                    Diagnostic::new(
                        Code::I017,
                        format!(
                            "--index {n}: {} to choose from",
                            match left.len() {
                                1 => "there is 1 request".to_string(),
                                many => format!("there are {many} requests"),
                            }
                        ),
                    )
                    .with_help("--index counts the requests left by --step and --xr from 1"),
                ));
            };
            i
        }
        None => match left.iter().rev().find(|&&i| log.requests[i].hcl) {
            Some(&i) => i,
            None => {
                return Err(Box::new(
                    Diagnostic::new(
                        Code::I005,
                        "no request of a function-hcl step in the pipeline inspector log",
                    )
                    .with_detail(listing(&log.requests))
                    .with_help("choose a function-hcl step with --step NAME"),
                ));
            }
        },
    };
    if !log.requests[chosen].hcl {
        return Err(Box::new(
            Diagnostic::new(
                Code::I008,
                format!(
                    "request {} is not a function-hcl step's: {}",
                    chosen + 1,
                    log.requests[chosen].describe()
                ),
            )
            .with_help("a case renders a function-hcl composition; choose one of its steps"),
        ));
    }
    Ok(chosen)
}

fn only_step(step: &str) -> Select {
    Select {
        step: Some(step.to_string()),
        ..Select::default()
    }
}

/// The requests, one a line (at most 50, then a count), for an error's detail.
pub fn listing(requests: &[Request]) -> String {
    const SHOWN: usize = 50;
    let mut lines: Vec<String> = requests
        .iter()
        .take(SHOWN)
        .enumerate()
        .map(|(i, r)| format!("{:>4}  line {:<5} {}", i + 1, r.line, r.describe()))
        .collect();
    if requests.len() > SHOWN {
        lines.push(format!("      … and {} more", requests.len() - SHOWN));
    }
    format!("the log's requests:\n{}", lines.join("\n"))
}

/// A case's files: name and content, in order.
pub type CaseFiles = Vec<(String, String)>;

/// The case's files for request `chosen` of `log`, by name, in order, and what they leave
/// out.
pub fn case_files(log: &Log, chosen: usize) -> Result<(CaseFiles, Vec<String>), Box<Diagnostic>> {
    let line = log.requests[chosen].line;
    let request: RunFunctionRequest = serde_json::from_value(log.payloads[chosen].clone())
        .map_err(|e| {
            Box::new(
                Diagnostic::new(
                    Code::I018,
                    format!("line {line}: the payload is not a RunFunctionRequest: {e}"),
                )
                .with_help(
                    "the payload must be the request in protobuf JSON, as Crossplane emits it",
                ),
            )
        })?;
    let Some(xr) = request
        .observed
        .composite
        .as_ref()
        .and_then(|c| c.resource.clone())
        .filter(Json::is_object)
    else {
        return Err(Box::new(
            Diagnostic::new(
                Code::I018,
                format!("line {line}: the request has no observed composite resource"),
            )
            .with_help("an operation's request cannot be a composition test; choose an XR's"),
        ));
    };
    let mut files = vec![("xr.yaml".to_string(), to_yaml(&xr))];
    let observed = observed_stream(&request);
    if !observed.is_empty() {
        files.push(("observed.yaml".into(), observed));
    }
    let extra = extra_stream(&request);
    if !extra.is_empty() {
        files.push(("extra-resources.yaml".into(), extra));
    }
    if let Some(Json::Object(context)) = &request.context
        && !context.is_empty()
    {
        files.push((
            "context.yaml".into(),
            to_yaml(&Json::Object(context.clone())),
        ));
    }
    Ok((files, left_out(&request)))
}

/// The observed composed resources, each with the composition-resource-name annotation its
/// key gives (so `render -o` maps it back), in key order.
fn observed_stream(request: &RunFunctionRequest) -> String {
    let mut text = String::new();
    for (name, resource) in &request.observed.resources {
        let Some(Json::Object(mut object)) = resource.resource.clone() else {
            continue;
        };
        let metadata = object
            .entry("metadata")
            .or_insert_with(|| Json::Object(Map::new()));
        if let Json::Object(metadata) = metadata {
            let annotations = metadata
                .entry("annotations")
                .or_insert_with(|| Json::Object(Map::new()));
            if let Json::Object(annotations) = annotations {
                annotations
                    .entry(RESOURCE_NAME)
                    .or_insert_with(|| Json::String(name.clone()));
            }
        }
        text.push_str("---\n");
        text.push_str(&to_yaml(&Json::Object(object)));
    }
    text
}

/// The extra (and required) resources of every requirement, each once, in requirement order.
fn extra_stream(request: &RunFunctionRequest) -> String {
    let mut seen: Vec<&Json> = Vec::new();
    let groups = request
        .extra_resources
        .values()
        .chain(request.required_resources.values());
    for item in groups.flat_map(|g| &g.items) {
        if let Some(object) = item.resource.as_ref().filter(|o| o.is_object())
            && !seen.contains(&object)
        {
            seen.push(object);
        }
    }
    seen.iter()
        .map(|o| format!("---\n{}", to_yaml(o)))
        .collect()
}

/// What the recorded request held that a case cannot.
fn left_out(request: &RunFunctionRequest) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(desired) = &request.desired {
        let n = desired.resources.len();
        if n > 0 {
            let what = if n == 1 { "resource" } else { "resources" };
            notes.push(format!(
                "the desired state of earlier steps ({n} composed {what}) is not part of a case"
            ));
        }
    }
    let observed = request.observed.resources.values();
    let redacted = observed
        .chain(request.observed.composite.iter())
        .filter(|r| holds_redacted(r))
        .count();
    if redacted > 0 {
        let what = if redacted == 1 {
            "resource holds"
        } else {
            "resources hold"
        };
        notes.push(format!(
            "{redacted} observed {what} {REDACTED} values (Secret data); edit them if the composition reads them"
        ));
    }
    if request.credentials.is_some() {
        notes.push("the request's credentials are redacted and not written".into());
    }
    notes
}

fn holds_redacted(resource: &Resource) -> bool {
    fn walk(value: &Json) -> bool {
        match value {
            Json::String(s) => s == REDACTED,
            Json::Array(items) => items.iter().any(walk),
            Json::Object(map) => map.values().any(walk),
            Json::Null | Json::Bool(_) | Json::Number(_) => false,
        }
    }
    resource.resource.as_ref().is_some_and(walk)
}

#[cfg(test)]
mod tests;
