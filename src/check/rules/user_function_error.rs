//! `E403`: user-function-error — a user function definition or call is wrong.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::E403,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"An `invoke` call that can only fail: not exactly two arguments, a function name that is not
a constant string or names no user function, an argument object with a key the function does
not declare or without an argument that has no default, or arguments that are not an object.
function-hcl's analyzer checks the first three; the call fails at run time for the others,
so the block that holds it is never produced.

Bad:

```hcl
function greet {
  arg name {}
  body = "hello ${name}"
}
locals {
  message = invoke("greet", { nmae = "x" })
}
```

Good:

```hcl
function greet {
  arg name {}
  body = "hello ${name}"
}
locals {
  message = invoke("greet", { name = "x" })
}
```
"#,
    run: super::found,
};
