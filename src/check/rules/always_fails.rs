//! `L608`: always-fails — an expression that fails whatever the inputs.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L608,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"An expression that fails to evaluate whatever the inputs: a sure type error (`"x" + 1`,
`length(5)`), a call with arguments that are always wrong, `invoke` past the recursion
limit, a missing attribute of a constant object. fnhcl evaluates the composition with every
input unknown, as cty does, and reports only errors that do not depend on them. At run time
the block that holds the expression is discarded as incomplete, or, for an observed
resource, the render fails.

Bad:

```hcl
locals {
  replicas = "three" * 2
}
```

Good:

```hcl
locals {
  replicas = 3 * 2
}
```
"#,
    run: super::found,
};
