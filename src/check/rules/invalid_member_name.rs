//! `C510`: invalid-member-name — a collection's `name` expression that does not produce a string.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::C510,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A collection's `name` expression that always fails or never produces a string (for example
`name = each.key` over a list, whose keys are numbers). function-hcl fails the render.

Bad:

```hcl
resources subnets {
  for_each = ["a", "b"]
  name     = each.key
  template {
    body = {}
  }
}
```

Good:

```hcl
resources subnets {
  for_each = ["a", "b"]
  name     = "subnet-${each.key}"
  template {
    body = {}
  }
}
```
"#,
    run: super::found,
};
