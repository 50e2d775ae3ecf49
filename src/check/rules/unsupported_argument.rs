//! `B101`: unsupported-argument — an argument the block does not take.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::B101,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A block has an argument its schema does not take (hcl's `Unsupported argument`, with a "Did
you mean" suggestion when a close name exists). function-hcl rejects the whole program. A
Terraform habit (`count`, `for_each` on a `resource`, `depends_on`, `provider`, a collection's
`body` outside its `template`) gets a help line saying what function-hcl writes instead.

Bad:

```hcl
resource bucket {
  bdy = { kind = "Bucket" }
}
```

Good:

```hcl
resource bucket {
  body = { kind = "Bucket" }
}
```
"#,
    run: super::found,
};
