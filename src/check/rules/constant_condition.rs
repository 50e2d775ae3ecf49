//! `L607`: constant-condition — a condition that is the same whatever the inputs.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L607,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"A `condition` written as a constant expression (it reads no variable): the block is always
or never produced. A bare `true` or `false` (a deliberate switch) and a condition that reads a
constant local, such as a feature flag, are not reported.

Bad:

```hcl
resource debug {
  condition = 1 > 2
  body      = {}
}
```

Good:

```hcl
resource debug {
  condition = try(req.composite.spec.debug, false)
  body      = {}
}
```
"#,
    run: super::found,
};
