//! `R206`: unknown-attribute — a `req.*` or `self.*` attribute that does not exist in that block.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::R206,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A `req.*` or `self.*` attribute that does not exist in that block (`no such attribute "X"`).
`req` has `composite`, `composite_connection`, `context`, `extra_resources`, `resource`,
`resources`, `connection` and `connections`. `self` has `name`, `resource` and `connection`
in a `resource` or `template`, and `basename`, `resources` and `connections` in `resources`;
it has nothing at the top level, in groups and in requirements.

Bad:

```hcl
resources subnets {
  for_each  = req.composite.spec.zones
  condition = self.name != ""
  template {
    body = {}
  }
}
```

Good:

```hcl
resources subnets {
  for_each  = req.composite.spec.zones
  condition = self.basename != ""
  template {
    body = {}
  }
}
```
"#,
    run: super::found,
};
