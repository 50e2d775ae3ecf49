//! `B106`: block-in-attributes — a block where only arguments are allowed.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::B106,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A block inside a body that takes only arguments, such as `locals` (hcl's `Unexpected "x"
block; Blocks are not allowed here.`).

Bad:

```hcl
locals {
  labels {
    team = "core"
  }
}
```

Good:

```hcl
locals {
  labels = {
    team = "core"
  }
}
```
"#,
    run: super::found,
};
