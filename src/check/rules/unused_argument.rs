//! `L603`: unused-argument — a user function argument its body never reads.

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L603,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"A user function argument that the function's body and locals never read. Callers must still
pass it when it has no default.

Bad:

```hcl
function greet {
  arg name {}
  arg unused {}
  body = "hello ${name}"
}
```

Good:

```hcl
function greet {
  arg name {}
  body = "hello ${name}"
}
```
"#,
    run,
};

fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    let _ = (cx, code, out);
}
