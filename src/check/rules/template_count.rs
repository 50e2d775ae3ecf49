//! `C502`: template-count — a `resources` block without exactly one `template`.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::C502,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A `resources` block without a `template` block, or with several. function-hcl fails the
render when it reaches the collection (`no template block for resource collection X` /
`multiple template blocks for resource collection X`).

Bad:

```hcl
resources subnets {
  for_each = ["a", "b"]
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
