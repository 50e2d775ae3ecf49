//! `R202`: shadowed-variable — a local has the name of a variable of an enclosing scope.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::R202,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A local has the name of a variable of an enclosing scope: `req`, `self` or `each` where they
exist, a local of an enclosing block, or an argument of the function. function-hcl forbids
shadowing (`attempt to shadow variable`).

Bad:

```hcl
locals {
  name = "app"
}
resource bucket {
  locals {
    name = "bucket"
  }
  body = { metadata = { name = name } }
}
```

Good:

```hcl
locals {
  name = "app"
}
resource bucket {
  locals {
    bucket_name = "${name}-bucket"
  }
  body = { metadata = { name = bucket_name } }
}
```
"#,
    run: super::found,
};
