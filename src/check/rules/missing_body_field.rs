//! `L615`: missing-body-field — see [`crate::check::schema_body`].

use super::{Rule, RuleKind};
use crate::check::schema_body::{body_rule_explain, run};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L615,
    kind: RuleKind::Lint,
    enabled: true,
    explain: body_rule_explain!(
        "A field the resource's CRD requires, missing from an object literal whose keys are all written literally (so nothing else can add it). The apply would fail with `Required value`.",
        "tags = {}",
        "region = \"us-east-1\""
    ),
    run,
};
