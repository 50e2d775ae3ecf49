//! The evaluator's response (function-hcl's `toResponse` and `addDiagnosticsInfo`): desired
//! resources with readiness, the unified composite status and connection details, context,
//! requirements, one warning result per discarded block, and the `FullyResolved` and
//! `HclDiagnostics` conditions.

use super::gotext::{subject_text, unify};
use super::messages;
use super::{Discard, Evaluator, Failure};
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::eval::proto::{
    Condition, FunctionResult, Requirements, Resource, RunFunctionResponse, State,
};
use base64::Engine;
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;

/// At most this many discarded items are named in `FullyResolved`.
const MAX_DISCARDS_SHOWN: usize = 3;

const TARGET: &str = "TARGET_COMPOSITE";

/// What one evaluation produced.
#[derive(Clone, Debug)]
pub struct HclResponse {
    /// The evaluator's response (before function-hcl merges it with the request's state).
    pub response: RunFunctionResponse,
    /// Every discarded block, user-condition ones included, in processing order.
    pub discards: Vec<Discard>,
    /// The warnings of the run, de-duplicated and sorted as the `HclDiagnostics` condition
    /// lists them.
    pub warnings: Vec<Diagnostic>,
    /// Where each desired composed resource's body was written.
    pub origins: BTreeMap<String, std::sync::Arc<super::Origin>>,
}

impl Evaluator<'_> {
    /// Builds the response; the error is a unification failure, located at the block that
    /// disagrees with an earlier one.
    pub(super) fn into_response(self, diags: Vec<Diagnostic>) -> Result<HclResponse, Failure> {
        let mut resources: BTreeMap<String, Resource> = self
            .desired
            .into_iter()
            .map(|(name, body)| (name, Resource::of(body)))
            .collect();
        for (name, ready) in &self.ready {
            if let Some(resource) = resources.get_mut(name) {
                resource.ready = Some((*ready).to_string());
            }
        }
        let mut composite: Option<Resource> = None;
        if !self.statuses.is_empty() {
            let refs: Vec<&Map<String, Json>> = self.statuses.iter().collect();
            let status = unify(&refs).map_err(|e| {
                conflict(
                    messages::status_conflict(&e),
                    &e,
                    &refs,
                    &self.status_at,
                    "composite status",
                )
            })?;
            let mut object = Map::new();
            object.insert("status".into(), Json::Object(status));
            composite.get_or_insert_with(Resource::default).resource = Some(Json::Object(object));
        }
        if !self.connections.is_empty() {
            let mut details: BTreeMap<String, Vec<u8>> = BTreeMap::new();
            for (i, block) in self.connections.iter().enumerate() {
                for (key, value) in block {
                    match details.get(key) {
                        Some(existing) if existing != value => {
                            let first = self.connections.iter().position(|c| c.contains_key(key));
                            return Err(located(
                                messages::connection_conflict(key),
                                self.connection_at.get(i).copied(),
                                first.and_then(|j| self.connection_at.get(j).copied()),
                                &format!("`{key}`"),
                                "composite connection",
                            ));
                        }
                        Some(_) => {}
                        None => {
                            details.insert(key.clone(), value.clone());
                        }
                    }
                }
            }
            composite
                .get_or_insert_with(Resource::default)
                .connection_details = details
                .into_iter()
                .map(|(k, v)| (k, base64::engine::general_purpose::STANDARD.encode(v)))
                .collect();
        }
        let context = if self.contexts.is_empty() {
            None
        } else {
            let refs: Vec<&Map<String, Json>> = self.contexts.iter().collect();
            Some(Json::Object(unify(&refs).map_err(|e| {
                conflict(
                    messages::context_conflict(&e),
                    &e,
                    &refs,
                    &self.context_at,
                    "context",
                )
            })?))
        };
        let requirements = (!self.requirements.is_empty()).then(|| Requirements {
            extra_resources: self.requirements.clone(),
            ..Requirements::default()
        });
        let mut results = Vec::new();
        let mut named = Vec::new();
        for discard in self
            .discards
            .iter()
            .filter(|d| d.reason != "user-condition")
        {
            results.push(FunctionResult {
                severity: "SEVERITY_WARNING".into(),
                message: discard.message(),
                reason: Some(discard.reason.into()),
                target: Some(TARGET.into()),
            });
            if named.len() < MAX_DISCARDS_SHOWN {
                named.push(format!("{} {}", discard.kind, discard.name));
            }
        }
        let resolved = fully_resolved(&named, results.len());
        let warnings = unique_sorted(diags, self.map);
        let lines: Vec<String> = warnings
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .map(|d| format!("{}: {}", subject_text(d, self.map), d.summary))
            .collect();
        let (result, diagnostics) = diagnostics_info(&lines);
        results.push(result);
        Ok(HclResponse {
            response: RunFunctionResponse {
                desired: Some(State {
                    composite,
                    resources,
                }),
                results,
                context,
                requirements,
                conditions: vec![resolved, diagnostics],
                ..RunFunctionResponse::default()
            },
            discards: self.discards,
            warnings,
            origins: self.origins,
        })
    }
}

/// The `FullyResolved` condition.
fn fully_resolved(named: &[String], count: usize) -> Condition {
    let (status, reason, message) = if named.is_empty() {
        (
            "STATUS_CONDITION_TRUE",
            "AllItemsProcessed",
            "all items complete".to_string(),
        )
    } else {
        let mut message = named.join(", ");
        if count > MAX_DISCARDS_SHOWN {
            message.push_str(&format!(
                " and {} more items incomplete",
                count - MAX_DISCARDS_SHOWN
            ));
        } else {
            message.push_str(" incomplete");
        }
        ("STATUS_CONDITION_FALSE", "IncompleteItemsPresent", message)
    };
    Condition {
        kind: "FullyResolved".into(),
        status: status.into(),
        reason: reason.into(),
        message: Some(message),
        target: Some(TARGET.into()),
    }
}

/// The diagnostics summary result and the `HclDiagnostics` condition.
fn diagnostics_info(lines: &[String]) -> (FunctionResult, Condition) {
    let reason = Some("HclDiagnostics".to_string());
    let target = Some(TARGET.to_string());
    let (result, status, message) = if lines.is_empty() {
        (
            FunctionResult {
                severity: "SEVERITY_NORMAL".into(),
                message: "no warnings".into(),
                reason,
                target: target.clone(),
            },
            "STATUS_CONDITION_TRUE",
            "hcl.Diagnostics contains no warnings".to_string(),
        )
    } else {
        (
            FunctionResult {
                severity: "SEVERITY_WARNING".into(),
                message: format!("warnings: [{}]", lines.join("; ")),
                reason,
                target: target.clone(),
            },
            "STATUS_CONDITION_FALSE",
            format!(
                "hcl.Diagnostics contains {} warnings; {}",
                lines.len(),
                lines.join("; ")
            ),
        )
    };
    let condition = Condition {
        kind: "HclDiagnostics".into(),
        status: status.into(),
        reason: "Eval".into(),
        message: Some(message),
        target,
    };
    (result, condition)
}

/// Go's `keyFor` range: the subject, else the context.
fn key_range(d: &Diagnostic) -> Option<crate::source::Span> {
    d.primary.as_ref().map(|l| l.span).or(d.expression)
}

/// function-hcl's de-duplication by (severity, range, summary) and sort by severity, file
/// name and start byte; ties (Go's order is random there) keep the first-seen order.
fn unique_sorted(diags: Vec<Diagnostic>, map: &crate::source::SourceMap) -> Vec<Diagnostic> {
    let mut seen = std::collections::HashSet::new();
    let mut unique: Vec<Diagnostic> = diags
        .into_iter()
        .filter(|d| seen.insert((d.severity, key_range(d), d.summary.clone())))
        .collect();
    let key = |d: &Diagnostic| {
        let span = key_range(d);
        (
            std::cmp::Reverse(d.severity),
            span.map(|s| map.get(s.file).name().to_string())
                .unwrap_or_default(),
            span.map_or(0, |s| s.start),
        )
    };
    unique.sort_by_key(key);
    unique
}

/// A failed `unify` of what several blocks wrote, located: at the block whose object
/// conflicts with those before it, and the first earlier block that wrote the same key.
fn conflict(
    message: String,
    error: &str,
    objects: &[&Map<String, Json>],
    at: &[crate::source::Span],
    what: &str,
) -> Failure {
    let Some(i) = super::unify_failing(objects) else {
        return Failure::Message(message);
    };
    // unify's messages name the key as `for key a.b not equal` or `for key a.b: …`.
    let key = error
        .split_once("for key ")
        .map(|(_, rest)| {
            rest.strip_suffix(" not equal")
                .or_else(|| rest.split_once(':').map(|(k, _)| k))
                .unwrap_or(rest)
        })
        .unwrap_or("");
    let path: Vec<&str> = key.split('.').collect();
    let has = |o: &Map<String, Json>| {
        let mut at = o.get(path[0]);
        for step in &path[1..] {
            at = at.and_then(|v| v.get(step));
        }
        at.is_some()
    };
    let first = objects[..i].iter().position(|o| has(o));
    located(
        message,
        at.get(i).copied(),
        first.and_then(|j| at.get(j).copied()),
        &format!("`{key}`"),
        what,
    )
}

fn located(
    message: String,
    here: Option<crate::source::Span>,
    first: Option<crate::source::Span>,
    key: &str,
    what: &str,
) -> Failure {
    let Some(here) = here else {
        return Failure::Message(message);
    };
    let mut d = Diagnostic::new(Code::E401, message.clone())
        .with_primary(here, Some(format!("sets {key} differently")))
        .with_help(format!(
            "every `{what}` block that writes {key} must write the same value: keep one of them, or make their conditions exclusive"
        ));
    if let Some(first) = first {
        d = d.with_label(crate::diagnostics::Label::new(
            first,
            format!("{key} is first written here"),
        ));
    }
    Failure::Located {
        message,
        diagnostic: Box::new(d),
    }
}

#[cfg(test)]
mod conflict_tests {
    use super::super::{Failure, evaluate};
    use crate::eval::proto::RunFunctionRequest;
    use crate::source::SourceMap;

    /// function-hcl's message, and the lines the located diagnostic and its label point at.
    fn failure(hcl: &str) -> (String, usize, Option<usize>) {
        let mut map = SourceMap::new();
        let file = map.add("main.hcl", hcl);
        let Err(failure) = evaluate(&mut map, &[file], &RunFunctionRequest::default()) else {
            panic!("the evaluation must fail");
        };
        let message = failure.message(&map);
        let Failure::Located { diagnostic, .. } = failure else {
            panic!("not located: {message}");
        };
        let line = |span: crate::source::Span| map.get(file).line_col(span.start as usize).line;
        (
            message,
            line(diagnostic.primary.as_ref().unwrap().span),
            diagnostic.labels.first().map(|l| line(l.span)),
        )
    }

    #[test]
    fn disagreeing_blocks_keep_function_hcls_words_and_point_at_both() {
        let status = "composite status {\n  body = { a = { b = 1 } }\n}\ncomposite status {\n  body = { c = 1 }\n}\ncomposite status {\n  body = { a = { b = 2 } }\n}\n";
        assert_eq!(
            failure(status),
            (
                "unify composite status: values for key a.b not equal".to_string(),
                7,
                Some(1)
            )
        );
        let context = "context {\n  key   = \"k\"\n  value = 1\n}\ncontext {\n  key   = \"k\"\n  value = \"x\"\n}\n";
        assert_eq!(
            failure(context),
            (
                "unify context: type mismatch for key k:  string v/s float64".to_string(),
                5,
                Some(1)
            )
        );
        let connection = "composite connection {\n  body = { p = \"YQ==\" }\n}\ncomposite connection {\n  body = { p = \"Yg==\" }\n}\n";
        assert_eq!(
            failure(connection),
            (
                "unify composite connection: values for key p not equal".to_string(),
                4,
                Some(1)
            )
        );
    }
}
