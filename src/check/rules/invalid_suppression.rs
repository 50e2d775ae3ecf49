//! `L612`: invalid-suppression — an inline suppression comment that names no rule, or a rule
//! that cannot be suppressed.

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L612,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"A `# fnhcl-ignore:` or `# fnhcl-ignore-file:` comment that names a rule that does not
exist (a typo would leave the finding it meant to silence in place, or silence nothing), names
no rule at all, or names a rule whose findings function-hcl itself rejects: those cannot be
suppressed, because the function would fail on them.

Bad:

```hcl
locals {
  # fnhcl-ignore: unused-locals
  spare = 1
}
```

Good:

```hcl
locals {
  # fnhcl-ignore: unused-local -- kept for the next release
  spare = 1
}
```
"#,
    run,
};

/// Found while the suppressions are read (after the other rules ran), not here.
fn run(_: &Context, _: Code, _: &mut Vec<Diagnostic>) {}
