//! `R207`: invalid-each-reference — an `each` attribute other than `key` and `value`.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::R207,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"An `each` attribute other than `key` and `value` (`invalid each reference, must be one of
'key' or 'value'`).

Bad:

```hcl
resources subnets {
  for_each = ["a", "b"]
  template {
    body = { zone = each.val }
  }
}
```

Good:

```hcl
resources subnets {
  for_each = ["a", "b"]
  template {
    body = { zone = each.value }
  }
}
```
"#,
    run: super::found,
};
