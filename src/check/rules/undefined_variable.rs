//! `R203`: undefined-variable — a reference to a variable that does not exist.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::R203,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A reference to a variable that does not exist where it is used: a misspelt local, a local of
another block, `each` outside a collection's template, `req` inside a user function. In a
local it is fatal (`reference to non-existent variable`); in an attribute function-hcl's
analyzer rejects it (`invalid local variable reference`) and at run time the block could
never be produced. This is checked inside `try()` and `can()` too: a typo there would
otherwise be silently swallowed. The help suggests the closest name in scope, and answers
Terraform habits: `local.x` (locals have no prefix), `var.x` (the XR's fields are
`req.composite.spec.x`), `count.index`, and `each` outside a collection's members.

Bad:

```hcl
locals {
  region = "eu-west-1"
}
resource bucket {
  body = { spec = { forProvider = { region = regoin } } }
}
```

Good:

```hcl
locals {
  region = "eu-west-1"
}
resource bucket {
  body = { spec = { forProvider = { region = region } } }
}
```
"#,
    run: super::found,
};
