//! `L614`: invalid-body-value — see [`crate::check::schema_body`].

use super::{Rule, RuleKind};
use crate::check::schema_body::{body_rule_explain, run};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L614,
    kind: RuleKind::Lint,
    enabled: true,
    explain: body_rule_explain!(
        "A literal value in a resource body that the resource's CRD refuses: the wrong type, a value outside its `enum`, a string that does not match its `pattern`, a number out of bounds. The message is the API server's; the apply would fail.",
        "forceDestroy = \"yes\"",
        "forceDestroy = true"
    ),
    run,
};
