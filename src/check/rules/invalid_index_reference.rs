//! `R205`: invalid-index-reference — `req`, `self` or `each` indexed with `[…]` where an attribute name is expected.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::R205,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"`req`, `self` or `each` indexed with a number or a non-identifier string where an attribute
name is expected (`req[0]`): function-hcl's analyzer rejects it (`invalid index
expression`). Use an attribute name; `req["resource"]` is read as `req.resource`.

Bad:

```hcl
locals {
  first = req[0]
}
```

Good:

```hcl
locals {
  composite = req.composite
}
```
"#,
    run: super::found,
};
