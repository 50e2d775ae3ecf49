//! `C503`: invalid-ready-value — a `ready` value that is not one of the Ready enum names.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::C503,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A `ready` value that is, whatever the inputs, not one of `READY_UNSPECIFIED`, `READY_TRUE`,
`READY_FALSE`: a constant outside the enum or a value of another type. function-hcl fails
the render on it.

Bad:

```hcl
resource bucket {
  body = {}
  ready {
    value = "READY"
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
