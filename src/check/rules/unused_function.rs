//! `L602`: unused-function — a user function that nothing invokes.

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L602,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"A user function that no `invoke` in the composition calls.

Bad:

```hcl
function double {
  arg x {}
  body = x * 2
}
```

Good:

```hcl
function double {
  arg x {}
  body = x * 2
}
locals {
  size = invoke("double", { x = 2 })
}
```
"#,
    run,
};

fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    let _ = (cx, code, out);
}
