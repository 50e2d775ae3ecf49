//! `R201`: duplicate-local — a local is declared twice in one scope.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::R201,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A local is declared twice in one scope. All `locals` blocks of a body form one scope, at the
top level across every file of the composition.

Bad:

```hcl
locals {
  region = "eu-west-1"
}
locals {
  region = req.composite.spec.region
}
```

Good:

```hcl
locals {
  default_region = "eu-west-1"
  region         = try(req.composite.spec.region, default_region)
}
```
"#,
    run: super::found,
};
