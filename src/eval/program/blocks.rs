//! `group`, `resource`, `resources` and `ready` (function-hcl's `resources.go`).

use super::Origin;
use super::gotext::{downgrade, has_errors};
use super::messages::{self, READY_VALUES};
use super::unknown::unknown_paths;
use super::{Diags, Evaluator, error_at, expr_span, plain_error, self_scope};
use crate::eval::coverage;
use crate::eval::expr::{traverse_reference, variables};
use crate::eval::json;
use crate::eval::num::Num;
use crate::eval::proto::struct_numbers;
use crate::eval::scope::Scope;
use crate::eval::value::Value;
use crate::eval::vars::{ANNOTATION_BASE_NAME, ANNOTATION_INDEX};
use crate::source::Span;
use crate::syntax::model::{
    Child, Collection, FileExpr, GroupBody, Locals, Ready, Resource, ResourceChild,
};
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;

/// The parts of a `resource` block or a collection's `template` that `addResource` uses.
struct Parts<'m> {
    locals: &'m Locals,
    condition: Option<&'m FileExpr>,
    body: &'m FileExpr,
    children: &'m [ResourceChild],
    /// The block's header, where a duplicate name is reported.
    header: Span,
}

impl Evaluator<'_> {
    /// `processGroup`: locals, condition, then every child block in source order.
    /// `at` is the `group` block's header (`None` at the top level).
    pub(super) fn group(&mut self, scope: &Scope, body: &GroupBody, at: Option<Span>) -> Diags {
        let (scope, mut diags) = match self.locals(scope, &body.locals) {
            Ok(ok) => ok,
            Err(diags) => return diags,
        };
        let (keep, ds) = self.condition(&scope, body.condition.as_ref(), "group", "");
        let failed = has_errors(&ds);
        diags.extend(ds);
        if failed {
            let mut d = plain_error(messages::GROUP_CONDITION.into());
            if let Some(cond) = &body.condition {
                d = d.with_expression(expr_span(cond));
            }
            diags.push(d);
            return diags;
        }
        if !keep {
            return Vec::new();
        }
        if let Some(at) = at {
            coverage::block(at);
        }
        for child in &body.children {
            crate::eval::deadline::checkpoint();
            let current = match child {
                Child::Group(group) => {
                    if has_errors(&group.body.problems) {
                        diags.extend(group.body.problems.iter().cloned());
                        return diags;
                    }
                    self.group(&scope, &group.body, Some(header_span(&group.origin)))
                }
                Child::Resource(resource) => self.resource(&scope, resource),
                Child::Resources(collection) => self.collection(&scope, collection),
                Child::Context(context) => self.context(&scope, context),
                Child::Composite(composite) => self.composite(&scope, composite),
                Child::Requirement(requirement) => self.requirement(&scope, requirement),
            };
            let failed = has_errors(&current);
            diags.extend(current);
            if failed {
                if let Some(trace) = &self.trace {
                    let mut trace = trace.borrow_mut();
                    trace.failed = trace.failed.or(Some(child_span(child)));
                }
                return diags;
            }
        }
        diags
    }

    fn resource(&mut self, scope: &Scope, resource: &Resource) -> Diags {
        if has_errors(&resource.problems) {
            return resource.problems.clone();
        }
        let parts = Parts {
            locals: &resource.locals,
            condition: resource.condition.as_ref(),
            body: &resource.body,
            children: &resource.children,
            header: header_span(&resource.origin),
        };
        let name = &resource.name.value;
        let before = self.desired.contains_key(name);
        let diags = self.add_resource(scope, name, &parts, None);
        if !before && self.desired.contains_key(name) {
            coverage::block(header_span(&resource.origin));
        }
        diags
    }

    /// `processResources`: one resource per `for_each` element, then the collection-level
    /// `composite` and `context` blocks.
    fn collection(&mut self, scope: &Scope, collection: &Collection) -> Diags {
        let base = &collection.name.value;
        if has_errors(&collection.problems) {
            return collection.problems.clone();
        }
        let template = match collection.templates.as_slice() {
            [] => {
                return vec![error_at(
                    messages::no_template(base),
                    header_span(&collection.origin),
                )];
            }
            [one] => one,
            [_, second, ..] => {
                return vec![error_at(
                    messages::multiple_templates(base),
                    header_span(&second.origin),
                )];
            }
        };
        if has_errors(&template.problems) {
            return template.problems.clone();
        }
        let scope = self_scope(
            scope,
            vec![
                ("basename", Value::string(base)),
                // function-hcl never fills these (see docs/compatibility.md).
                ("resources", Value::null()),
                ("connections", Value::null()),
            ],
        );
        let (scope, mut diags) = match self.locals(&scope, &collection.locals) {
            Ok(ok) => ok,
            Err(diags) => return diags,
        };
        let (keep, ds) = self.condition(&scope, collection.condition.as_ref(), "resources", base);
        let failed = has_errors(&ds);
        diags.extend(ds);
        if failed {
            let summary = messages::collection_condition(base);
            diags.push(error_at(summary, header_span(&collection.origin)));
            return diags;
        }
        if !keep {
            return diags;
        }
        let for_each = &collection.for_each;
        let (value, ds) = self.eval(for_each, &scope);
        let failed = has_errors(&ds);
        diags.extend(ds);
        if failed {
            diags.push(error_at(
                messages::for_each_failed(base),
                expr_span(for_each),
            ));
            return diags;
        }
        let Some(iterations) = iterations(&value) else {
            diags.push(error_at(messages::no_iterations(base), expr_span(for_each)));
            return diags;
        };
        let default_name = self.default_name.clone();
        let name_expr = collection.name_expr.as_ref().unwrap_or(&default_name);
        let parts = Parts {
            locals: &template.locals,
            condition: None,
            body: &template.body,
            children: &template.children,
            header: header_span(&collection.origin),
        };
        let before = self.desired.len();
        for (i, (key, value)) in iterations.into_iter().enumerate() {
            crate::eval::deadline::checkpoint();
            let mut each = BTreeMap::new();
            each.insert("key".to_string(), key);
            each.insert("value".to_string(), value);
            let mut variables = BTreeMap::new();
            variables.insert("each".to_string(), Value::Object(each.into()));
            let iteration = scope.child(variables);
            let (name, ds) = self.eval(name_expr, &iteration);
            let failed = has_errors(&ds);
            diags.extend(ds);
            if failed {
                diags.push(error_at(messages::name_failed(base), expr_span(name_expr)));
                return diags;
            }
            let name = match name {
                Value::String(s) => s,
                other => {
                    let summary = if matches!(other, Value::Unknown(..) | Value::Null(_))
                        && other.ty() == crate::eval::Type::String
                    {
                        format!(
                            "name produced from evaluating the name expression for collection {base} is null or not known"
                        )
                    } else {
                        messages::name_not_string(base)
                    };
                    diags.push(error_at(summary, expr_span(name_expr)));
                    return diags;
                }
            };
            let annotations = (base.as_str(), format!("s{i:06}"));
            let ds = self.add_resource(&iteration, &name, &parts, Some(annotations));
            let failed = has_errors(&ds);
            diags.extend(ds);
            if failed {
                return diags;
            }
        }
        if self.desired.len() > before {
            coverage::block(header_span(&collection.origin));
        }
        self.nested(&scope, None, &collection.children, diags)
    }

    /// `addResource`: the duplicate check, `self`, locals, condition, body, then the nested
    /// blocks. An incomplete body is discarded, or fatal when the resource is observed.
    fn add_resource(
        &mut self,
        scope: &Scope,
        name: &str,
        parts: &Parts,
        annotations: Option<(&str, String)>,
    ) -> Diags {
        if self.desired.contains_key(name) {
            return vec![
                plain_error(messages::duplicate_resource(name))
                    .with_expression(parts.header)
                    .with_help("every composed resource needs its own name: rename this block (or the collection's `name`)"),
            ];
        }
        let observed = self.existing.get(name).cloned().unwrap_or_else(Value::null);
        let connection = self
            .existing_connections
            .get(name)
            .cloned()
            .unwrap_or_else(Value::null);
        let scope = self_scope(
            scope,
            vec![
                ("name", Value::string(name)),
                ("resource", observed),
                ("connection", connection),
            ],
        );
        let (scope, mut diags) = match self.locals(&scope, parts.locals) {
            Ok(ok) => ok,
            Err(diags) => return diags,
        };
        let (keep, ds) = self.condition(&scope, parts.condition, "resource", name);
        let failed = has_errors(&ds);
        diags.extend(ds);
        if failed {
            let mut d = plain_error(messages::resource_condition(name));
            if let Some(cond) = parts.condition {
                d = d.with_expression(expr_span(cond));
            }
            diags.push(d);
            return diags;
        }
        if !keep {
            return Vec::new();
        }
        let body = parts.body;
        let (out, mut ds) = self.eval(body, &scope);
        if has_errors(&ds) || !out.is_wholly_known() {
            let mut context = self.messages(&ds);
            let mut unknown = Vec::new();
            for reference in variables(&body.expr) {
                let (value, more) = traverse_reference(&reference, body.file, &scope);
                ds.extend(more);
                let span = Span::of(body.file, reference.span);
                let source = self.map.get(body.file).slice(span).to_string();
                let paths = unknown_paths(&value);
                let none = paths.is_empty();
                unknown.extend(paths.into_iter().map(|p| format!("{source}{p}")));
                if none && !value.is_wholly_known() {
                    unknown.push(source);
                }
            }
            let unknown = unknown.join(", ");
            if self.existing.contains_key(name) {
                diags.extend(ds);
                diags.push(error_at(
                    format!(
                        "existing resource {name} could not be evaluated, abort (unknown values: {unknown})"
                    ),
                    expr_span(body),
                ));
                return diags;
            }
            context.push(format!("unknown values: {unknown}"));
            let unknown = self.unknowns(body, &scope, &ds);
            self.discard(
                "resource",
                "incomplete",
                name,
                expr_span(body),
                context,
                unknown,
            );
            if let Some(last) = self.discards.last_mut() {
                last.collection = annotations.map(|(base, _)| base.to_string());
            }
            diags.extend(downgrade(ds));
            return diags;
        }
        diags.extend(ds);
        let Some(object) = resource_object(&out, annotations) else {
            let mut error = error_at(messages::body_not_struct(name), expr_span(body));
            // function-hcl says no more; a number past fnhcl's printing limit (which
            // function-hcl does not have) gets its reason.
            if let Err(e) = json::to_json(&out)
                && e.to_string().contains("fnhcl's limit")
            {
                error = error.with_detail(e.to_string());
            }
            diags.push(error);
            return diags;
        };
        self.desired.insert(name.to_string(), object);
        let origin = self
            .origin_cache
            .entry((body.file, body.expr.span.start))
            .or_insert_with(|| std::sync::Arc::new(Origin::of(body)))
            .clone();
        self.origins.insert(name.to_string(), origin);
        self.nested(&scope, Some(name), parts.children, diags)
    }

    /// The `composite`, `ready` and `context` blocks of a resource (`resource` names it) or of
    /// a collection, in source order; the first error ends them.
    fn nested(
        &mut self,
        scope: &Scope,
        resource: Option<&str>,
        children: &[ResourceChild],
        mut diags: Diags,
    ) -> Diags {
        for child in children {
            let current = match (child, resource) {
                (ResourceChild::Composite(composite), _) => self.composite(scope, composite),
                (ResourceChild::Context(context), _) => self.context(scope, context),
                (ResourceChild::Ready(ready), Some(name)) => self.ready(scope, name, ready),
                // The schema allows no `ready` at the collection level.
                (ResourceChild::Ready(_), None) => Vec::new(),
            };
            let failed = has_errors(&current);
            diags.extend(current);
            if failed {
                return diags;
            }
        }
        diags
    }

    /// `processReady`: the last valid `ready` block of a resource wins.
    fn ready(&mut self, scope: &Scope, name: &str, ready: &Ready) -> Diags {
        let (scope, mut diags) = match self.enter(scope, &ready.problems, &ready.locals) {
            Ok(ok) => ok,
            Err(diags) => return diags,
        };
        let (value, ds) = self.eval(&ready.value, &scope);
        if has_errors(&ds) || !value.is_wholly_known() {
            // function-hcl describes the locals' diagnostics here, not the value's.
            let context = self.messages(&diags);
            let unknown = self.unknowns(&ready.value, &scope, &ds);
            self.discard(
                "resource-ready",
                "incomplete",
                name,
                expr_span(&ready.value),
                context,
                unknown,
            );
            diags.extend(downgrade(ds));
            return diags;
        }
        diags.extend(ds);
        let at = expr_span(&ready.value);
        let Value::String(text) = value else {
            diags.push(error_at(messages::ready_not_string(name), at));
            return diags;
        };
        let Some(valid) = READY_VALUES.iter().find(|v| **v == text) else {
            diags.push(error_at(messages::ready_invalid(name), at));
            return diags;
        };
        self.ready.insert(name.to_string(), valid);
        coverage::block(header_span(&ready.origin));
        diags
    }
}

/// The whole range of a child block.
fn child_span(child: &Child) -> Span {
    let origin = match child {
        Child::Group(group) => &group.origin,
        Child::Resource(resource) => &resource.origin,
        Child::Resources(collection) => &collection.origin,
        Child::Context(context) => &context.origin,
        Child::Composite(composite) => &composite.origin,
        Child::Requirement(requirement) => &requirement.origin,
    };
    Span::of(origin.file, &origin.span)
}

/// The header range of a block.
pub(crate) fn header_span(origin: &crate::syntax::model::Origin) -> Span {
    Span::of(origin.file, &origin.header)
}

/// function-hcl's `extractIterations`: (each.key, each.value) pairs; `None` for null,
/// unknown or non-iterable values. Object and map keys go in sorted order (Go's are random).
pub(crate) fn iterations(value: &Value) -> Option<Vec<(Value, Value)>> {
    if value.is_null() || !value.is_wholly_known() {
        return None;
    }
    match value {
        Value::List { items, .. } | Value::Tuple(items) => Some(
            items
                .iter()
                .enumerate()
                .map(|(i, v)| (Value::Number(Num::from_i64(i as i64)), v.clone()))
                .collect(),
        ),
        Value::Map { items, .. } | Value::Object(items) => Some(
            items
                .iter()
                .map(|(k, v)| (Value::string(k), v.clone()))
                .collect(),
        ),
        Value::Set { items, .. } => Some(items.iter().map(|v| (v.clone(), v.clone())).collect()),
        _ => None,
    }
}

/// The body as the JSON object of a protobuf `Struct`, with the collection annotations
/// injected into `metadata.annotations`; `None` when function-hcl fails to convert it (not
/// an object, infinity, a non-object `metadata` or `annotations` — or a null collection
/// member body, where Go panics).
fn resource_object(value: &Value, annotations: Option<(&str, String)>) -> Option<Json> {
    let json = struct_numbers(&json::to_json(value).ok()?);
    let Json::Object(mut object) = json else {
        return None;
    };
    if let Some((base, index)) = annotations {
        let metadata = object
            .entry("metadata")
            .or_insert_with(|| Json::Object(Map::new()));
        let notes = metadata
            .as_object_mut()?
            .entry("annotations")
            .or_insert_with(|| Json::Object(Map::new()))
            .as_object_mut()?;
        notes.insert(ANNOTATION_BASE_NAME.into(), Json::String(base.into()));
        notes.insert(ANNOTATION_INDEX.into(), Json::String(index));
    }
    Some(Json::Object(object))
}
