//! `B105`: missing-label — a block lacks a label.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::B105,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A block lacks a label its type needs: the name of a `resource` or `requirement`, the base
name of `resources`, `status` or `connection` after `composite`, a function or argument
name.

Bad:

```hcl
composite {
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
