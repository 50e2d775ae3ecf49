//! `B102`: unsupported-block — a block type that is not allowed here.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::B102,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A block type that is not allowed where it is written (hcl's `Unsupported block type`): a
`template` outside `resources`, a `ready` at the top level, a misspelt block type. Terraform's
`variable`, `output`, `data`, `module`, `provider` and `lifecycle` blocks get a help line saying
what function-hcl writes instead.

Bad:

```hcl
resource bucket {
  body = {}
  readiness {
    value = "READY_TRUE"
  }
}
```

Good:

```hcl
resource bucket {
  body = {}
  ready {
    value = "READY_TRUE"
  }
}
```
"#,
    run: super::found,
};
