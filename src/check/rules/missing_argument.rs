//! `B103`: missing-argument — a required argument is missing.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::B103,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A required argument is missing (hcl's `Missing required argument`): `body` of a resource,
template or composite block, `for_each` of a collection, `key`/`value` of a context block,
`apiVersion`/`kind` of a requirement's `select`.

Bad:

```hcl
resources subnets {
  template {
    body = {}
  }
}
```

Good:

```hcl
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
