//! `L613`: unknown-body-field — see [`crate::check::schema_body`].

use super::{Rule, RuleKind};
use crate::check::schema_body::{body_rule_explain, run};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L613,
    kind: RuleKind::Lint,
    enabled: true,
    explain: body_rule_explain!(
        "A key written in a resource body that the resource's CRD does not have — most often a misspelt field. The API server drops it (it prunes unknown fields), so the setting silently never reaches the provider.",
        "regoin       = \"us-east-1\"",
        "region = \"us-east-1\""
    ),
    run,
};
