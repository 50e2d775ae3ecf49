//! `L606`: try-never-succeeds — a `try`/`can` argument that fails whatever the inputs.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L606,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"An argument of `try()` or `can()` that fails whatever the inputs, typically a misspelt
attribute of a value fnhcl knows (a constant local, `each` over a constant list). `try`
silently falls back to its next argument and `can` is always false, so the typo is hidden.

Bad:

```hcl
locals {
  sizes = { small = 1, large = 4 }
  count = try(sizes.medum, 1)
}
```

Good:

```hcl
locals {
  sizes = { small = 1, medium = 2, large = 4 }
  count = try(sizes.medium, 1)
}
```
"#,
    run: super::found,
};
