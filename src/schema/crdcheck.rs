//! What the API server refuses in a schema's rules (and `pattern`s) when the CRD is created
//! (apiextensions `pkg/apis/apiextensions/validation/validation.go`, and
//! `defaulting/validation.go` for defaults), in its words. `crossplane beta validate` checks
//! no CRD: these are warnings at load, and validation still runs.

use super::cel::{Rule, STATIC_COST_LIMIT, STATIC_SCHEMA_COST_LIMIT};
use super::node::Node;

/// What the API server would refuse in a schema's rules when the CRD is created
/// (apiextensions `pkg/apis/apiextensions/validation/validation.go`): rules, messages,
/// reasons and field paths it does not accept; where none of those (nor a properties and
/// additionalProperties clash) is found at a node or below, its rules that do not compile,
/// transition rules on parts of the object that do not correlate, and rules whose estimated
/// cost, times how many values they may run on, is over the limit per rule or all together;
/// rules under `allOf`, `anyOf`, `oneOf` and `not`; defaults the rules refuse. Each finding
/// is `PATH: MESSAGE`, `PATH` from `openAPIV3Schema`, in the API server's words.
pub fn findings(root: &Node) -> Vec<String> {
    let mut cx = Findings::default();
    cx.node(root, "openAPIV3Schema", Some(1), None);
    let Findings {
        mut out,
        total,
        expensive,
    } = cx;
    if total > STATIC_SCHEMA_COST_LIMIT {
        for (path, _) in expensive {
            out.push(format!(
                "{path}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"
            ));
        }
        out.push(format!(
            "openAPIV3Schema: Forbidden: {}",
            cost_message(
                "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                total,
                STATIC_SCHEMA_COST_LIMIT
            )
        ));
    }
    out
}

/// The reasons a rule may give.
const REASONS: [&str; 4] = [
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];

#[derive(Default)]
struct Findings {
    out: Vec<String>,
    total: u64,
    expensive: Vec<(String, u64)>,
}

impl Findings {
    /// The findings of `node` at `path` and below; `cardinality`: how many values it may
    /// hold in one object (`None`: unbounded); `uncorrelatable`: the nearest ancestor whose
    /// old and new values cannot be paired (a list not of type map, a map of an unknown
    /// type). True when the node or one below has a schema error (its rules' CEL is then
    /// not checked, as the API server skips it).
    fn node(
        &mut self,
        node: &Node,
        path: &str,
        cardinality: Option<u64>,
        uncorrelatable: Option<&str>,
    ) -> bool {
        use super::node::{Additional, Type};
        let max_elements = match node.kind {
            Some(Type::Object) => match &node.additional {
                Additional::Schema(_) | Additional::Bool(true) => node.max_properties,
                _ => Some(1),
            },
            Some(Type::Array) => node.max_items,
            _ => Some(1),
        };
        let child = cardinality
            .zip(max_elements)
            .map(|(c, m)| c.saturating_mul(m));
        let mut errors = false;
        let map_correlates = node
            .map_type
            .as_deref()
            .is_none_or(|t| t == "granular" || t == "atomic");
        let in_properties = if map_correlates {
            uncorrelatable
        } else {
            Some(path)
        };
        for (key, property) in &node.properties {
            errors |= self.node(
                property,
                &format!("{path}.properties[{key}]"),
                child,
                in_properties,
            );
        }
        if let Additional::Schema(values) = &node.additional {
            errors |= self.node(
                values,
                &format!("{path}.additionalProperties"),
                child,
                uncorrelatable,
            );
        }
        if let Some(items) = &node.items {
            let within = if node.list_type.as_deref() == Some("map") {
                uncorrelatable
            } else {
                Some(path)
            };
            errors |= self.node(items, &format!("{path}.items"), child, within);
        }
        for (key, list) in [
            ("allOf", &node.all_of),
            ("anyOf", &node.any_of),
            ("oneOf", &node.one_of),
        ] {
            for (i, junct) in list.iter().enumerate() {
                self.junctor(junct, &format!("{path}.{key}[{i}]"));
            }
        }
        if let Some(not) = &node.not {
            self.junctor(not, &format!("{path}.not"));
        }
        if matches!(
            node.additional,
            Additional::Schema(_) | Additional::Bool(false)
        ) && !node.properties.is_empty()
        {
            self.out.push(format!(
                "{path}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"
            ));
            errors = true;
        }
        if let Some(pattern) = &node.pattern
            && let Err(error) = &pattern.regex
        {
            self.out.push(format!(
                "{path}.pattern: Invalid value: {}: must be a valid regular expression, but isn't: {error}",
                go_quote(&pattern.source)
            ));
            errors = true;
        }
        if let Some(map_type) = node
            .map_type
            .as_deref()
            .filter(|t| !matches!(*t, "atomic" | "granular"))
        {
            self.out.push(format!(
                "{path}.x-kubernetes-map-type: Unsupported value: {}: supported values: \"atomic\", \"granular\"",
                go_quote(map_type)
            ));
            errors = true;
        }
        for (i, rule) in node.rules.iter().enumerate() {
            errors |= self.rule_text(rule, node, &format!("{path}.x-kubernetes-validations[{i}]"));
        }
        if !errors {
            for (i, rule) in node.rules.iter().enumerate() {
                let at = format!("{path}.x-kubernetes-validations[{i}]");
                self.rule_cel(rule, &at, cardinality, uncorrelatable);
            }
            if let Some(default) = &node.default
                && has_rules(node)
            {
                self.out.extend(super::validate::default_findings(
                    default,
                    node,
                    &format!("{path}.default"),
                ));
            }
        }
        errors
    }

    /// The rules under a junctor, which structural schemas forbid.
    fn junctor(&mut self, node: &Node, path: &str) {
        if !node.rules.is_empty() {
            self.out.push(format!(
                "{path}.x-kubernetes-validations: Forbidden: must be empty to be structural"
            ));
        }
        for (key, property) in &node.properties {
            self.junctor(property, &format!("{path}.properties[{key}]"));
        }
        if let super::node::Additional::Schema(values) = &node.additional {
            self.junctor(values, &format!("{path}.additionalProperties"));
        }
        if let Some(items) = &node.items {
            self.junctor(items, &format!("{path}.items"));
        }
        for (key, list) in [
            ("allOf", &node.all_of),
            ("anyOf", &node.any_of),
            ("oneOf", &node.one_of),
        ] {
            for (i, junct) in list.iter().enumerate() {
                self.junctor(junct, &format!("{path}.{key}[{i}]"));
            }
        }
        if let Some(not) = &node.not {
            self.junctor(not, &format!("{path}.not"));
        }
    }

    /// The checks of a rule's text, message, reason and field path; true when one fails.
    fn rule_text(&mut self, rule: &Rule, node: &Node, at: &str) -> bool {
        let before = self.out.len();
        let trimmed_message = rule.message.as_deref().unwrap_or_default().trim();
        if rule.rule.trim().is_empty() {
            self.out
                .push(format!("{at}.rule: Required value: rule is not specified"));
        } else if rule.message.as_deref().is_some_and(|m| !m.is_empty())
            && trimmed_message.is_empty()
        {
            self.out.push(format!(
                "{at}.message: Invalid value: {}: must be non-empty if specified",
                go_quote(rule.message.as_deref().unwrap_or_default())
            ));
        } else if has_newlines(trimmed_message) {
            self.out.push(format!(
                "{at}.message: Invalid value: {}: must not contain line breaks",
                go_quote(rule.message.as_deref().unwrap_or_default())
            ));
        } else if has_newlines(rule.rule.trim()) && trimmed_message.is_empty() {
            self.out.push(format!(
                "{at}.message: Required value: message must be specified if rule contains line breaks"
            ));
        }
        if let Some(expression) = &rule.message_expression
            && !expression.is_empty()
            && expression.trim().is_empty()
        {
            self.out.push(format!(
                "{at}.messageExpression: Required value: messageExpression must be non-empty if specified"
            ));
        }
        if let Some(reason) = rule.reason.as_deref().filter(|r| !REASONS.contains(r)) {
            self.out.push(format!(
                "{at}.reason: Unsupported value: {}: supported values: {}",
                go_quote(reason),
                REASONS.map(go_quote).join(", ")
            ));
        }
        if let Some(field_path) = rule.field_path.as_deref().filter(|p| !p.is_empty()) {
            if field_path.trim().is_empty() {
                self.out.push(format!(
                    "{at}.fieldPath: Invalid value: {}: must be non-empty if specified",
                    go_quote(field_path)
                ));
            }
            if has_newlines(field_path) {
                self.out.push(format!(
                    "{at}.fieldPath: Invalid value: {}: must not contain line breaks",
                    go_quote(field_path)
                ));
            }
            if let Err(error) = super::fieldpath::resolve(field_path, node) {
                // The API server says only "must be a valid path"; the reason is added.
                self.out.push(format!(
                    "{at}.fieldPath: Invalid value: {}: must be a valid path: {error}",
                    go_quote(field_path)
                ));
            }
        }
        self.out.len() > before
    }

    /// The checks of a rule's compiled CEL: compile errors, costs, `oldSelf`.
    fn rule_cel(
        &mut self,
        rule: &Rule,
        at: &str,
        cardinality: Option<u64>,
        uncorrelatable: Option<&str>,
    ) {
        let cost = rule
            .max_cost
            .saturating_mul(cardinality.unwrap_or(rule.max_cardinality));
        if cost > STATIC_COST_LIMIT {
            self.out.push(format!(
                "{at}.rule: Forbidden: {}",
                cost_message("estimated rule cost", cost, STATIC_COST_LIMIT)
            ));
        }
        self.observe(format!("{at}.rule"), cost);
        if let Some(error) = rule.compile_error() {
            self.out.push(format!(
                "{at}.rule: Invalid value: {}: {error}",
                go_quote(&rule.rule)
            ));
        }
        match rule.message_compile_error() {
            Some(error) => self.out.push(format!(
                "{at}.messageExpression: Invalid value: {}: {error}",
                go_quote(rule.message_expression.as_deref().unwrap_or_default())
            )),
            None if rule.message_expression.is_some() => {
                if rule.message_max_cost > STATIC_COST_LIMIT {
                    self.out.push(format!(
                        "{at}.messageExpression: Forbidden: {}",
                        cost_message(
                            "estimated messageExpression cost",
                            rule.message_max_cost,
                            STATIC_COST_LIMIT
                        )
                    ));
                }
                self.observe(format!("{at}.messageExpression"), rule.message_max_cost);
            }
            None => {}
        }
        if rule.transition {
            if let Some(within) = uncorrelatable {
                self.out.push(format!(
                    "{at}.rule: Invalid value: {}: oldSelf cannot be used on the uncorrelatable portion of the schema within {within}",
                    go_quote(&rule.rule)
                ));
            }
        } else if let Some(given) = rule.optional_old_self_given {
            self.out.push(format!(
                "{at}.optionalOldSelf: Invalid value: {given}: may not be set if oldSelf is not used in rule"
            ));
        }
    }

    /// Adds a rule's cost to the total, keeping the four most expensive of those over 1 %
    /// of the schema limit (`TotalCost.ObserveExpressionCost`).
    fn observe(&mut self, path: String, cost: u64) {
        self.total = self.total.saturating_add(cost);
        if cost < STATIC_SCHEMA_COST_LIMIT / 100 {
            return;
        }
        self.expensive.push((path, cost));
        self.expensive.sort_by_key(|b| std::cmp::Reverse(b.1));
        self.expensive.truncate(4);
    }
}

/// Whether the node or one below it has rules.
fn has_rules(node: &Node) -> bool {
    !node.rules.is_empty()
        || node.properties.values().any(has_rules)
        || matches!(&node.additional, super::node::Additional::Schema(v) if has_rules(v))
        || node.items.as_deref().is_some_and(has_rules)
}

/// Whether text has a line break (`[\n\r]`).
fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

/// `getCostErrorMessage`.
fn cost_message(name: &str, cost: u64, limit: u64) -> String {
    crate::cel::cost::exceeds_budget_message(name, cost, limit)
}

/// Go's `%q` of a value the finding quotes, shortened to 100 characters (then `…`): a rule
/// can be 100,000 characters long.
fn go_quote(s: &str) -> String {
    match s.char_indices().nth(100) {
        Some((at, _)) => crate::gostd::strconv::quote(&format!("{}…", &s[..at])),
        None => crate::gostd::strconv::quote(s),
    }
}

#[cfg(test)]
mod tests {
    use super::findings;
    use crate::schema::node::Node;
    use serde_json::json;

    /// apiextensions v0.35 validation_test.go, "invalid regex pattern" shape.
    #[test]
    fn an_invalid_pattern_is_refused_once_with_go_s_error() {
        let node = Node::compile(&json!({
            "type": "object",
            "properties": {"spec": {"type": "object", "properties": {
                "x": {"type": "string", "pattern": "(abc"},
                "y": {"type": "string", "pattern": "^a+$"}
            }}}
        }))
        .unwrap();
        assert_eq!(
            findings(&node),
            vec![
                "openAPIV3Schema.properties[spec].properties[x].pattern: Invalid value: \"(abc\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(abc`"
                    .to_string()
            ]
        );
    }
}
