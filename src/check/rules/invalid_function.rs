//! `B108`: invalid-function — a user function definition is invalid.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::B108,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A user function definition that function-hcl refuses to load: a name or argument name that
is not an identifier, a description that is not a constant string, a default that is not a
constant, an argument or function defined twice, a body that refers to something other than
its arguments and locals. The function is rejected before any block runs.

Bad:

```hcl
function double {
  arg x {
    default = req.composite.spec.size
  }
  body = x * 2
}
```

Good:

```hcl
function double {
  arg x {
    default = 1
  }
  body = x * 2
}
```
"#,
    run: super::found,
};
