//! `C509`: duplicate-resource — two blocks produce the same composed resource name.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::C509,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"Two blocks that produce the same composed resource name: a collection member whose name
(computed from a constant `for_each`) is also a `resource` name or another collection's
member name. function-hcl fails the render (`duplicate resource "NAME"`).

Bad:

```hcl
resource subnets-0 {
  body = {}
}
resources subnets {
  for_each = ["a", "b"]
  template {
    body = {}
  }
}
```

Good:

```hcl
resource subnets-main {
  body = {}
}
resources subnets {
  for_each = ["a", "b"]
  template {
    body = {}
  }
}
```
"#,
    run: super::found,
};
