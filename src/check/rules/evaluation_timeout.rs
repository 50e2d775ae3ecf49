//! `T304`: evaluation-timeout — `check` stopped evaluating a composition at its time bound.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::T304,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"`check` (and the language server) evaluates each composition for at most 10 seconds, with
every input unknown. A composition still evaluating then is reported where the evaluation was,
and what follows it is not checked. Real compositions take well under a second; the usual
cause is work that grows with a product of sizes without building the values the budget
counts (`budget-exceeded`).

Bad:

```hcl
locals {
  rows = [for i in range(1024) : [for j in range(1024) : j if false]]
}
```

Good:

```hcl
locals {
  rows = [for i in range(1024) : i]
}
```
"#,
    run: super::found,
};
