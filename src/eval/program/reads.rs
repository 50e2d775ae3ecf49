//! Which input a failing expression read: the question behind most failed renders is "what
//! in my XR (or observed resources) does this expression not like?". The references inside
//! the failing expression are followed back to `req` — through locals that are plain
//! references (`xr = req.composite`) and through `self.resource` — and looked up in the
//! request, so the report can say "reads the XR's `spec.region`, which the XR does not have".
//!
//! This runs only when an evaluation fails, and adds labels: function-hcl's message, which
//! crossplane prints, is left as it is.

use crate::analysis::resolve::{RequestRead, Resolution, ScopeKind, Target, Use};
use crate::diagnostics::{Diagnostic, Label, Severity};
use crate::eval::value::Value;
use crate::source::Span;
use crate::syntax::model::Program;

/// At most this many references of one failing expression are described.
const MAX_LABELS: usize = 3;

/// Adds to the first error of `diags` a label at each reference of its expression that reads
/// an input, saying which input and whether it has the field.
pub(super) fn label_inputs(program: &Program, req: &Value, diags: &mut [Diagnostic]) {
    let Some(first) = diags.iter_mut().find(|d| d.severity == Severity::Error) else {
        return;
    };
    let Some(failing) = first.expression.or(first.primary.as_ref().map(|l| l.span)) else {
        return;
    };
    let resolution = Resolution::of(&program.top, &program.functions);
    let mut labels: Vec<Label> = Vec::new();
    for u in resolution.uses.iter().filter(|u| overlaps(u, failing)) {
        let span = Span::of(u.file, u.var.span);
        for read in resolution.request_reads(u) {
            let Some(path) = req_path(&resolution, &read) else {
                continue;
            };
            let Some(text) = describe(&path, req) else {
                continue;
            };
            if labels.iter().any(|l| l.span == span) {
                continue;
            }
            labels.push(Label::new(span, text));
        }
        if labels.len() >= MAX_LABELS {
            labels.truncate(MAX_LABELS);
            break;
        }
    }
    first.labels.extend(labels);
}

fn overlaps(u: &Use<'_>, span: Span) -> bool {
    u.file == span.file && u.var.span.start < span.end && span.start < u.var.span.end
        || u.file == span.file && u.var.span.start == span.start
}

/// The read as steps below `req` (`["composite", "spec", "region"]`); `self.resource…` becomes
/// `resource.NAME…` for the resource block it is in.
fn req_path(resolution: &Resolution<'_>, read: &RequestRead<'_, '_>) -> Option<Vec<String>> {
    match read.at.target {
        Target::Req => Some(read.path.clone()),
        Target::SelfObject => {
            let (key, rest) = read.path.split_first()?;
            let kind = match key.as_str() {
                "resource" | "connection" => ScopeKind::Resource,
                "resources" | "connections" => ScopeKind::Resources,
                _ => return None,
            };
            let label = resolution
                .chain(read.at.scope)
                .map(|id| &resolution.scopes[id])
                .find(|s| s.kind == kind)?
                .label?;
            let mut path = vec![key.clone(), label.to_string()];
            path.extend(rest.iter().cloned());
            Some(path)
        }
        _ => None,
    }
}

/// What the path reads, and whether the request has it.
fn describe(path: &[String], req: &Value) -> Option<String> {
    let (what, skip, lacks) = match path.first()?.as_str() {
        "composite" => ("the XR".to_string(), 1, "the XR does not have".to_string()),
        "composite_connection" => (
            "the XR's connection details".to_string(),
            1,
            "they do not have".to_string(),
        ),
        "context" => (
            "the context".to_string(),
            1,
            "the context does not have".to_string(),
        ),
        kind @ ("resource" | "connection" | "resources" | "extra_resources") => {
            let Some(name) = path.get(1) else {
                return Some(format!("reads `req.{kind}`"));
            };
            let (what, flag) = match kind {
                "resource" => (format!("observed resource `{name}`"), "-o"),
                "connection" => (format!("the connection details of `{name}`"), "-o"),
                "resources" => (format!("observed collection `{name}`"), "-o"),
                _ => (format!("required resources `{name}`"), "-e"),
            };
            if lookup(req, &path[..2]).is_none_or(Value::is_null) {
                return Some(format!(
                    "reads {what}, which is not among the inputs (give it with `{flag}`)"
                ));
            }
            (what, 2, "it does not have".to_string())
        }
        _ => return None,
    };
    let field = path[skip..].join(".");
    if field.is_empty() {
        return Some(format!("reads {what}"));
    }
    // The longest prefix the request has: the step after it is what is missing.
    for n in skip + 1..=path.len() {
        match lookup(req, &path[..n]) {
            Some(v) if v.is_null() && n < path.len() => {
                let at = path[skip..n].join(".");
                return Some(format!("reads {what}'s `{field}`, but `{at}` is null"));
            }
            Some(_) => {}
            None => {
                return Some(format!("reads {what}'s `{field}`, which {lacks}"));
            }
        }
    }
    match lookup(req, path).and_then(scalar) {
        Some(value) => Some(format!("reads {what}'s `{field}`, which is {value}")),
        None => Some(format!("reads {what}'s `{field}`")),
    }
}

/// A short value as HCL writes it, for the label: strings (up to 40 characters), numbers and
/// bools.
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if s.chars().count() <= 40 => Some(crate::gostd::strconv::quote(s)),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn lookup<'v>(value: &'v Value, path: &[String]) -> Option<&'v Value> {
    let mut at = value;
    for step in path {
        at = match at {
            Value::Object(items) | Value::Map { items, .. } => items.get(step.as_str())?,
            Value::Tuple(items) | Value::List { items, .. } => {
                items.get(step.parse::<usize>().ok()?)?
            }
            // An unknown value may have anything: say nothing is missing.
            Value::Unknown(..) => return Some(at),
            _ => return None,
        };
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::super::{Failure, evaluate};
    use crate::eval::proto::RunFunctionRequest;
    use crate::source::SourceMap;
    use serde_json::json;

    /// The labels the failing evaluation of `hcl` puts on its first error, as text.
    fn labels(hcl: &str, spec: serde_json::Value, observed: serde_json::Value) -> Vec<String> {
        let request: RunFunctionRequest = serde_json::from_value(json!({
            "observed": {
                "composite": {"resource": {"apiVersion": "x/v1", "kind": "X", "metadata": {"name": "x"}, "spec": spec}},
                "resources": observed,
            }
        }))
        .unwrap();
        let mut map = SourceMap::new();
        let file = map.add("main.hcl", hcl);
        let Err(Failure::Diagnostics(diags)) = evaluate(&mut map, &[file], &request) else {
            panic!("the evaluation must fail");
        };
        let first = diags
            .iter()
            .find(|d| d.severity == crate::diagnostics::Severity::Error);
        first
            .unwrap()
            .labels
            .iter()
            .map(|l| {
                let text = map.get(l.span.file).slice(l.span);
                format!("{text}: {}", l.message.as_deref().unwrap_or(""))
            })
            .collect()
    }

    #[test]
    fn an_xr_field_read_through_a_local_is_named_with_its_value() {
        let hcl = "locals {\n  xr = req.composite\n  on = xr\n}\nresource a {\n  condition = on.spec.enabled\n  body = {}\n}\n";
        assert_eq!(
            labels(hcl, json!({"enabled": "yes"}), json!({})),
            ["on.spec.enabled: reads the XR's `spec.enabled`, which is \"yes\""]
        );
    }

    #[test]
    fn a_missing_field_and_a_null_step_are_said() {
        let hcl = "resources a {\n  for_each = req.composite.spec.zones\n  template {\n    body = {}\n  }\n}\n";
        assert_eq!(
            labels(hcl, json!({}), json!({})),
            ["req.composite.spec.zones: reads the XR's `spec.zones`, which the XR does not have"]
        );
        let hcl = "resources a {\n  for_each = req.composite.spec.net.zones\n  template {\n    body = {}\n  }\n}\n";
        assert_eq!(
            labels(hcl, json!({"net": null}), json!({})),
            [
                "req.composite.spec.net.zones: reads the XR's `spec.net.zones`, but `spec.net` is null"
            ]
        );
    }

    #[test]
    fn observed_resources_are_named_with_the_flag_that_gives_them() {
        let hcl = "resource vpc {\n  condition = self.resource.spec.on\n  body = {}\n}\n";
        assert_eq!(
            labels(
                hcl,
                json!({}),
                json!({"vpc": {"resource": {"spec": {"on": "x"}}}})
            ),
            ["self.resource.spec.on: reads observed resource `vpc`'s `spec.on`, which is \"x\""]
        );
        let hcl = "resources b {\n  for_each = req.resource.vpc.spec.zones\n  template {\n    body = {}\n  }\n}\n";
        let got = labels(hcl, json!({}), json!({}));
        assert!(
            got.iter()
                .all(|l| l.contains("not among the inputs (give it with `-o`)")),
            "{got:?}"
        );
    }
}
