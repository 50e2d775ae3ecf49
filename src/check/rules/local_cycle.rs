//! `R204`: local-cycle — locals depend on each other in a cycle.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::R204,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"Locals that depend on each other in a cycle, including a local that refers to itself (`cycle
found: a → b → a`).

Bad:

```hcl
locals {
  a = b + 1
  b = a * 2
}
```

Good:

```hcl
locals {
  a = 1
  b = a * 2
}
```
"#,
    run: super::found,
};
