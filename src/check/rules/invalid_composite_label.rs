//! `C501`: invalid-composite-label — a `composite` block labelled neither `status` nor `connection`.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::C501,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A `composite` block labelled neither `status` nor `connection`. function-hcl fails the whole
render when it reaches the block (`invalid composite label: X`), whatever the inputs.

Bad:

```hcl
composite state {
  body = { ready = true }
}
```

Good:

```hcl
composite status {
  body = { ready = true }
}
```
"#,
    run: super::found,
};
