//! The blocks that write to the response besides resources: `composite status|connection`
//! (`composite.go`), `context` (`context.go`) and `requirement` (`requirements.go`).

use super::blocks::header_span;
use super::gotext::{diags_error, downgrade, go_type_name, has_errors, not_an_object, std_base64};
use super::messages;
use super::{Diags, Evaluator, error_at, expr_span, plain_error, to_error_diag};
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::eval::coverage;
use crate::eval::json;
use crate::eval::proto::{MatchLabels, ResourceSelector, struct_numbers};
use crate::eval::scope::Scope;
use crate::eval::types::Type;
use crate::eval::value::Value;
use crate::gostd::strconv::quote;
use crate::source::{SourceMap, Span};
use crate::syntax::model::{Composite, ContextBlock, FileExpr, Requirement, Select};
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;

impl Evaluator<'_> {
    /// `processComposite`.
    pub(super) fn composite(&mut self, scope: &Scope, composite: &Composite) -> Diags {
        let (scope, mut diags) = match self.enter(scope, &composite.problems, &composite.locals) {
            Ok(ok) => ok,
            Err(diags) => return diags,
        };
        let before = self.statuses.len() + self.connections.len();
        match composite.object.value.as_str() {
            "status" => {
                let (object, ds) = self.object_body(&scope, &composite.body, "composite-status");
                diags.extend(ds);
                if let Some(object) = object {
                    self.statuses.push(object);
                    self.status_at.push(header_span(&composite.origin));
                }
            }
            "connection" => {
                diags.extend(self.connection(&scope, &composite.body));
                self.connection_at
                    .resize(self.connections.len(), header_span(&composite.origin));
            }
            other => diags.push(plain_error(messages::composite_label(other))),
        }
        if self.statuses.len() + self.connections.len() > before {
            coverage::block(header_span(&composite.origin));
        }
        diags
    }

    /// `attributesToValueMap`: the body as a JSON object; `None` when it was discarded, is
    /// null, or failed to convert.
    fn object_body(
        &mut self,
        scope: &Scope,
        body: &FileExpr,
        kind: &'static str,
    ) -> (Option<Map<String, Json>>, Diags) {
        let (value, diags) = self.eval(body, scope);
        let at = expr_span(body);
        if has_errors(&diags) || !value.is_wholly_known() {
            let context = self.messages(&diags);
            let unknown = self.unknowns(body, scope, &diags);
            self.discard(kind, "incomplete", "", at, context, unknown);
            self.discard_owner(scope);
            return (None, downgrade(diags));
        }
        let mut diags = diags;
        let json = match json::to_json(&value) {
            Ok(json) => struct_numbers(&json),
            Err(e) => {
                diags.push(error_at(format!("error marshaling cty value: {e}"), at));
                return (None, diags);
            }
        };
        if let Some(kind) = not_an_object(&json) {
            diags.push(error_at(messages::status_not_object(kind), at));
            return (None, diags);
        }
        match json {
            Json::Object(object) => (Some(object), Vec::new()),
            _ => (None, Vec::new()),
        }
    }

    /// `addConnectionDetails`: every value a base64 string; a value that does not decode
    /// drops the whole block with a `bad-secret` discard.
    fn connection(&mut self, scope: &Scope, body: &FileExpr) -> Diags {
        let (object, mut diags) = self.object_body(scope, body, "composite-connection");
        let Some(object) = object else {
            return diags;
        };
        let mut values = BTreeMap::new();
        let mut bad = false;
        for (key, value) in &object {
            let Json::String(text) = value else {
                diags.push(plain_error(messages::connection_not_string(
                    key,
                    go_type_name(value),
                )));
                continue;
            };
            match std_base64(text) {
                Some(bytes) => {
                    values.insert(key.clone(), bytes);
                }
                None => {
                    let message =
                        format!("connection secret key {} not in base64 format", quote(key));
                    self.discard(
                        "composite-connection",
                        "bad-secret",
                        key,
                        expr_span(body),
                        vec![message.clone()],
                        Vec::new(),
                    );
                    self.discard_owner(scope);
                    diags.push(
                        Diagnostic::new(Code::E402, message).with_severity(Severity::Warning),
                    );
                    bad = true;
                }
            }
        }
        if !bad && !has_errors(&diags) {
            self.connections.push(values);
        }
        diags
    }

    /// `processContext`.
    pub(super) fn context(&mut self, scope: &Scope, context: &ContextBlock) -> Diags {
        let (scope, mut diags) = match self.enter(scope, &context.problems, &context.locals) {
            Ok(ok) => ok,
            Err(diags) => return diags,
        };
        let key_at = expr_span(&context.key);
        let (key, ds) = self.eval(&context.key, &scope);
        if has_errors(&ds) {
            let detail = diags_error(&ds, self.map);
            diags.extend(ds);
            diags.push(error_at(messages::CONTEXT_KEY_FAILED.into(), key_at).with_detail(detail));
            return diags;
        }
        diags.extend(ds);
        if !key.is_wholly_known() {
            diags.push(error_at("context key is unknown".into(), key_at));
            return diags;
        }
        let key = match key {
            Value::String(s) => s,
            Value::Null(Type::String) => {
                diags.push(error_at("context key is null".into(), key_at));
                return diags;
            }
            other => {
                diags.push(error_at(
                    messages::context_key_not_string(&other.ty().friendly_name()),
                    key_at,
                ));
                return diags;
            }
        };
        let value_at = expr_span(&context.value);
        let (value, ds) = self.eval(&context.value, &scope);
        // function-hcl tests (and describes) the key's diagnostics here, not the value's.
        if has_errors(&diags) || !value.is_wholly_known() {
            let messages = self.messages(&diags);
            let unknown = self.unknowns(&context.value, &scope, &ds);
            self.discard("context", "incomplete", "", value_at, messages, unknown);
            self.discard_owner(&scope);
            diags.extend(downgrade(ds));
            return diags;
        }
        diags.extend(ds);
        match json::to_json(&value) {
            Ok(json) => {
                let mut entry = Map::new();
                entry.insert(key.into_string(), struct_numbers(&json));
                self.contexts.push(entry);
                self.context_at.push(header_span(&context.origin));
                coverage::block(header_span(&context.origin));
            }
            Err(e) => diags.push(
                error_at("cannot convert value to interface".into(), value_at)
                    .with_detail(e.to_string()),
            ),
        }
        diags
    }

    /// `processRequirement`.
    pub(super) fn requirement(&mut self, scope: &Scope, requirement: &Requirement) -> Diags {
        let name = requirement.name.value.as_str();
        let header = header_span(&requirement.origin);
        if self.requirements.contains_key(name) {
            return vec![to_error_diag(
                Code::E401,
                "multiple requirements with name".into(),
                name,
                header,
            )];
        }
        if has_errors(&requirement.problems) {
            return requirement.problems.clone();
        }
        let mut diags = match check_requirement_block(self.map, requirement) {
            Ok(diags) => diags,
            Err(diags) => return diags,
        };
        let Some(select) = requirement.selects.first() else {
            return diags;
        };
        let (scope, ds) = match self.locals(scope, &requirement.locals) {
            Ok(ok) => ok,
            Err(diags) => return diags,
        };
        diags.extend(ds);
        let (keep, ds) =
            self.condition(&scope, requirement.condition.as_ref(), "requirement", name);
        if has_errors(&ds) {
            return ds;
        }
        diags.extend(ds);
        if !keep {
            return diags;
        }
        match self.selector(name, &scope, select) {
            Ok((selector, ds)) => {
                diags.extend(ds);
                if let Some(selector) = selector {
                    self.requirements.insert(name.to_string(), selector);
                    coverage::block(header);
                }
                diags
            }
            Err(ds) => ds,
        }
    }

    /// A requirement whose selector is not known yet: discarded with what was unknown in
    /// `expr`; its diagnostics become warnings.
    fn defer_requirement(
        &mut self,
        name: &str,
        header: Span,
        expr: &FileExpr,
        scope: &Scope,
        diags: Diags,
    ) -> Diags {
        let unknown = self.unknowns(expr, scope, &diags);
        self.discard(
            "requirement",
            "incomplete",
            name,
            header,
            Vec::new(),
            unknown,
        );
        downgrade(diags)
    }

    /// `selectionToSelector`: `Ok(None)` (and an incomplete discard) when a value is not
    /// known yet; function-hcl would record an empty selector (see docs/compatibility.md).
    fn selector(
        &mut self,
        name: &str,
        scope: &Scope,
        select: &Select,
    ) -> Result<(Option<ResourceSelector>, Diags), Diags> {
        let header = header_span(&select.origin);
        let mut strings = Vec::new();
        for (expr, what) in string_fields(select) {
            let (value, diags) = self.eval(expr, scope);
            if !value.is_wholly_known() {
                return Ok((
                    None,
                    self.defer_requirement(name, header, expr, scope, diags),
                ));
            }
            match value {
                Value::String(s) => strings.push(s),
                _ => return Err(vec![not_a_string(name, what, expr)]),
            }
        }
        let mut selector = ResourceSelector {
            api_version: strings[0].to_string(),
            kind: strings[1].to_string(),
            ..ResourceSelector::default()
        };
        if let Some(match_name) = strings.get(2) {
            selector.match_name = Some(match_name.to_string());
            return Ok((Some(selector), Vec::new()));
        }
        let Some(labels_expr) = &select.match_labels else {
            return Ok((Some(selector), Vec::new()));
        };
        let (value, diags) = self.eval(labels_expr, scope);
        if !value.is_wholly_known() {
            let diags = self.defer_requirement(name, header, labels_expr, scope, diags);
            return Ok((None, diags));
        }
        let labels = check_labels(name, labels_expr, &value)?;
        selector.match_labels = Some(MatchLabels { labels });
        Ok((Some(selector), Vec::new()))
    }
}

/// `checkRequirementBlock`: exactly one `select` block, then [`static_selection`] on it. The
/// warnings, or the errors that reject the block.
pub(crate) fn check_requirement_block(
    map: &SourceMap,
    requirement: &Requirement,
) -> Result<Diags, Diags> {
    let name = requirement.name.value.as_str();
    match requirement.selects.as_slice() {
        [] => Err(vec![to_error_diag(
            Code::B109,
            "no select block in requirement".into(),
            name,
            header_span(&requirement.origin),
        )]),
        [one] => static_selection(map, name, one),
        [_, second, ..] => Err(vec![to_error_diag(
            Code::B109,
            "multiple select blocks in requirement".into(),
            name,
            header_span(&second.origin),
        )]),
    }
}

/// `selectBlockToSelection`: the select block's schema, matchName xor matchLabels, and the
/// types of whatever is a constant.
fn static_selection(map: &SourceMap, name: &str, select: &Select) -> Result<Diags, Diags> {
    if has_errors(&select.problems) {
        return Err(select.problems.clone());
    }
    let header = header_span(&select.origin);
    let summary = match (&select.match_name, &select.match_labels) {
        (Some(_), Some(_)) => Some("requirement selector has both matchName and matchLabels"),
        (None, None) => Some("requirement selector has neither matchName nor matchLabels"),
        _ => None,
    };
    if let Some(summary) = summary {
        return Err(vec![to_error_diag(
            Code::B109,
            summary.into(),
            name,
            header,
        )]);
    }
    // Only constants are known with an empty scope.
    let empty = Scope::default();
    let diags = selector_type_problems(name, select, |e| {
        super::eval_in(map, e.file, &e.expr, &empty).0
    });
    if has_errors(&diags) {
        return Err(diags);
    }
    Ok(diags)
}

/// The selector values that are known and of the wrong type: `apiVersion`, `kind` and
/// `matchName` must be strings, `matchLabels` an object (not a map) of strings. `value`
/// evaluates one of the selector's expressions.
pub(crate) fn selector_type_problems(
    name: &str,
    select: &Select,
    mut value: impl FnMut(&FileExpr) -> Value,
) -> Diags {
    let mut diags = Vec::new();
    for (expr, what) in string_fields(select) {
        let v = value(expr);
        if v.is_wholly_known() && v.ty() != Type::String {
            diags.push(not_a_string(name, what, expr));
        }
    }
    if let Some(labels_expr) = &select.match_labels {
        let v = value(labels_expr);
        if v.is_wholly_known() {
            match &v {
                Value::Object(items) => {
                    for (key, item) in items.iter() {
                        if item.ty() != Type::String {
                            diags.push(label_not_a_string(name, key, labels_expr));
                        }
                    }
                }
                Value::Null(Type::Object(_)) => {}
                _ => diags.push(labels_not_an_object(name, labels_expr)),
            }
        }
    }
    diags
}

/// The selector values that must be strings, with the names function-hcl's messages give them.
fn string_fields(select: &Select) -> Vec<(&FileExpr, &'static str)> {
    let mut fields = vec![(&select.api_version, "api version"), (&select.kind, "kind")];
    if let Some(match_name) = &select.match_name {
        fields.push((match_name, "matchName"));
    }
    fields
}

/// The dynamic check of `matchLabels`: an object (not a map) of strings.
fn check_labels(
    name: &str,
    expr: &FileExpr,
    value: &Value,
) -> Result<BTreeMap<String, String>, Diags> {
    let Value::Object(items) = value else {
        return Err(vec![labels_not_an_object(name, expr)]);
    };
    let mut labels = BTreeMap::new();
    for (key, v) in items.iter() {
        match v {
            Value::String(s) => {
                labels.insert(key.clone(), s.to_string());
            }
            _ => return Err(vec![label_not_a_string(name, key, expr)]),
        }
    }
    Ok(labels)
}

fn not_a_string(name: &str, what: &str, expr: &FileExpr) -> Diagnostic {
    to_error_diag(
        Code::B109,
        format!("{what} in requirement selector was not a string"),
        name,
        expr_span(expr),
    )
}

fn labels_not_an_object(name: &str, expr: &FileExpr) -> Diagnostic {
    to_error_diag(
        Code::B109,
        "matchLabels in requirement selector was not an object".into(),
        name,
        expr_span(expr),
    )
}

fn label_not_a_string(name: &str, key: &str, expr: &FileExpr) -> Diagnostic {
    to_error_diag(
        Code::B109,
        format!(
            "match label {} in requirement selector was not an string",
            quote(key)
        ),
        name,
        expr_span(expr),
    )
}
