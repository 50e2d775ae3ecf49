//! `C504`: non-bool-condition — a `condition` that is not a bool.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::C504,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A `condition` whose value is, whatever the inputs, not a bool (a string such as `"true"`, a
number, an object, null). function-hcl does not convert conditions: the render fails.

Bad:

```hcl
resource bucket {
  condition = "true"
  body      = {}
}
```

Good:

```hcl
resource bucket {
  condition = true
  body      = {}
}
```
"#,
    run: super::found,
};
