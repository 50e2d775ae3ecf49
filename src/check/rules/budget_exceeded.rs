//! `T303`: budget-exceeded — an evaluation that builds more values than fnhcl's budget.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::T303,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"An evaluation builds more than fnhcl's budget allows: 4,194,304 collection elements and
object attributes (every element a `for` expression visits counts too), or 128 MiB of strings.
function-hcl has no budget: three `for` expressions nested over `range(1024)` run for many
minutes or exhaust memory. fnhcl stops the evaluation once, at the expression where the budget
ran out, and `render`, `function run` and `function serve` fail the same way; `check` finds it
when the expression does not depend on the request.

Bad:

```hcl
locals {
  cells = [for i in range(1024) : [for j in range(1024) : [for k in range(1024) : k]]]
}
```

Good:

```hcl
locals {
  cells = [for i in range(16) : [for j in range(16) : i * 16 + j]]
}
```
"#,
    run: super::found,
};
