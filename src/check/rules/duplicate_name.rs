//! `B107`: duplicate-name — a resource, collection or requirement name is used twice.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::B107,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"Two `resource` blocks, two `resources` blocks or two `requirement` blocks have the same
name, anywhere in the composition: in different files or groups, whatever their conditions
(a duplicate resource fails at run time even when one of the two is switched off by a
condition, depending on the order; function-hcl's analyzer rejects it always).

Bad:

```hcl
resource bucket {
  body = {}
}
group {
  condition = req.composite.spec.extra
  resource bucket {
    body = {}
  }
}
```

Good:

```hcl
resource bucket {
  body = {}
}
group {
  condition = req.composite.spec.extra
  resource extra-bucket {
    body = {}
  }
}
```
"#,
    run: super::found,
};
