//! The rule registry: one file per rule (code, kind, explanation with a bad and a good
//! example, `run`), listed here sorted by code. A rule's name and default severity come from
//! the code table, so a diagnostic's code always names its rule.
//!
//! Rules do not decide levels or suppressions; `check` applies those to what they report.

use super::Context;
use crate::diagnostics::{Code, Diagnostic, Severity};

mod always_fails;
mod block_in_attributes;
mod budget_exceeded;
mod composite_field_type;
mod conflicting_outputs;
mod constant_condition;
mod duplicate_local;
mod duplicate_name;
mod duplicate_resource;
mod evaluation_timeout;
mod extraneous_label;
mod invalid_body;
mod invalid_body_value;
mod invalid_composite_label;
mod invalid_connection_value;
mod invalid_context_key;
mod invalid_each_reference;
mod invalid_for_each;
mod invalid_function;
mod invalid_index_reference;
mod invalid_member_name;
mod invalid_ready_value;
mod invalid_requirement;
mod invalid_suppression;
mod local_cycle;
mod missing_api_version_or_kind;
mod missing_argument;
mod missing_body_field;
mod missing_label;
mod nesting_too_deep;
mod non_bool_condition;
mod optional_composite_field;
mod self_collection_null;
mod shadowed_variable;
mod syntax_error;
mod template_count;
mod try_never_succeeds;
mod undeclared_requirement;
mod undeclared_resource;
mod undefined_variable;
mod unformatted;
mod unknown_attribute;
mod unknown_body_field;
mod unknown_composite_field;
mod unsupported_argument;
mod unsupported_block;
mod unused_argument;
mod unused_function;
mod unused_local;
mod unused_requirement;
mod user_function_error;

/// Who rejects what a rule finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleKind {
    /// function-hcl itself rejects it (the render fails, or `fn-hcl-tools analyze` does):
    /// always an error, cannot be suppressed or configured.
    Rejected,
    /// function-hcl's analyzer rejects it but the function can run it (for example a resource
    /// another pipeline step composes): an error by default that may be configured.
    Analyzer,
    /// Beyond function-hcl: a likely mistake; a warning by default.
    Lint,
}

impl RuleKind {
    /// Whether a configuration or an inline comment may change what the rule reports.
    pub fn configurable(self) -> bool {
        self != RuleKind::Rejected
    }

    /// Its one-word name in `--list-rules` and docs/rules.md.
    pub fn short(self) -> &'static str {
        match self {
            RuleKind::Rejected => "rejects",
            RuleKind::Analyzer => "analyzer",
            RuleKind::Lint => "lint",
        }
    }

    /// How `--explain` describes it.
    pub fn describe(self) -> &'static str {
        match self {
            RuleKind::Rejected => "function-hcl rejects",
            RuleKind::Analyzer => "function-hcl's analyzer rejects",
            RuleKind::Lint => "lint",
        }
    }
}

/// One rule.
pub struct Rule {
    /// Its code (the name and default severity are the code table's).
    pub code: Code,
    /// Who rejects what it finds.
    pub kind: RuleKind,
    /// Whether it runs without being enabled in `.fnhcl.toml`.
    pub enabled: bool,
    /// What it finds and why it matters, with a bad and a good example (Markdown).
    pub explain: &'static str,
    /// Adds the rule's findings for one composition.
    pub run: fn(&Context, Code, &mut Vec<Diagnostic>),
}

impl Rule {
    /// The kebab-case name.
    pub fn name(&self) -> &'static str {
        self.code.info().name
    }

    /// The code's text (`L601`).
    pub fn id(&self) -> &'static str {
        self.code.info().id
    }

    /// The severity it reports with unless configured.
    pub fn severity(&self) -> Severity {
        self.code.info().severity
    }

    /// One line about what it finds.
    pub fn summary(&self) -> &'static str {
        self.code.info().description
    }
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rule({} {})", self.id(), self.name())
    }
}

/// Every rule, sorted by code.
pub static RULES: &[&Rule] = &[
    &syntax_error::RULE,
    &nesting_too_deep::RULE,
    &unsupported_argument::RULE,
    &unsupported_block::RULE,
    &missing_argument::RULE,
    &extraneous_label::RULE,
    &missing_label::RULE,
    &block_in_attributes::RULE,
    &duplicate_name::RULE,
    &invalid_function::RULE,
    &invalid_requirement::RULE,
    &duplicate_local::RULE,
    &shadowed_variable::RULE,
    &undefined_variable::RULE,
    &local_cycle::RULE,
    &user_function_error::RULE,
    &invalid_index_reference::RULE,
    &unknown_attribute::RULE,
    &invalid_each_reference::RULE,
    &undeclared_resource::RULE,
    &invalid_composite_label::RULE,
    &template_count::RULE,
    &invalid_ready_value::RULE,
    &non_bool_condition::RULE,
    &invalid_for_each::RULE,
    &invalid_connection_value::RULE,
    &invalid_context_key::RULE,
    &invalid_body::RULE,
    &duplicate_resource::RULE,
    &invalid_member_name::RULE,
    &conflicting_outputs::RULE,
    &unused_local::RULE,
    &unused_function::RULE,
    &unused_argument::RULE,
    &unused_requirement::RULE,
    &undeclared_requirement::RULE,
    &try_never_succeeds::RULE,
    &constant_condition::RULE,
    &always_fails::RULE,
    &missing_api_version_or_kind::RULE,
    &unformatted::RULE,
    &self_collection_null::RULE,
    &invalid_suppression::RULE,
    &unknown_body_field::RULE,
    &invalid_body_value::RULE,
    &missing_body_field::RULE,
    &unknown_composite_field::RULE,
    &composite_field_type::RULE,
    &optional_composite_field::RULE,
    &budget_exceeded::RULE,
    &evaluation_timeout::RULE,
];

/// The rule with this code (`L601`, any case) or name (`unused-local`).
pub fn find(key: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .copied()
        .find(|r| r.id().eq_ignore_ascii_case(key) || r.name() == key)
}

/// The rule that reports `code`, if a rule does.
pub fn for_code(code: Code) -> Option<&'static Rule> {
    RULES.iter().copied().find(|r| r.code == code)
}

/// `run` for rules whose findings a shared pass of `check` computes (parsing, the schema,
/// function loading, the analyzer, the probe evaluation): the findings with the rule's code.
fn found(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    out.extend(cx.found.iter().filter(|d| d.code == code).cloned());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_is_sorted_unique_and_explained() {
        for pair in RULES.windows(2) {
            assert!(
                pair[0].code < pair[1].code,
                "{:?} before {:?}",
                pair[0],
                pair[1]
            );
        }
        for rule in RULES {
            assert!(
                rule.explain.contains("```hcl"),
                "{} has no example",
                rule.id()
            );
            assert!(rule.explain.contains("Bad") && rule.explain.contains("Good"));
            assert_eq!(find(rule.name()).map(|r| r.code), Some(rule.code));
            assert_eq!(
                find(&rule.id().to_lowercase()).map(|r| r.code),
                Some(rule.code)
            );
            assert!(
                rule.kind != RuleKind::Lint || rule.severity() == Severity::Warning,
                "{} is a lint and must warn by default",
                rule.id()
            );
        }
    }
}
