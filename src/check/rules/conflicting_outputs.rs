//! `C511`: conflicting-outputs — two blocks set one status, connection or context key to
//! different constants.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::C511,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"Two `composite status`, `composite connection` or `context` blocks that always run and
give one key different constant values (or values of different types). function-hcl merges the
outputs of every block and fails the render when they conflict (`unify composite status: values
for key ready not equal`, `unify composite status: type mismatch for key size:  string v/s
float64`, `unify context: …`). Blocks under a condition, inside a collection's template, or
nested in a resource whose body depends on the inputs are not compared: they may not both run.

Bad:

```hcl
composite status {
  body = { tier = "gold" }
}
composite status {
  body = { tier = "silver" }
}
```

Good:

```hcl
composite status {
  body = { tier = "gold" }
}
composite status {
  body = { region = "eu-west-1" }
}
```
"#,
    run: super::found,
};
