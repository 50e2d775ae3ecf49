//! `C507`: invalid-context-key — a `context` key that is not a string.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::C507,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A `context` key that always fails to evaluate or is, whatever the inputs, not a string.
function-hcl fails the render (`unable to evaluate context key`, `context key was not a
string, got number`).

Bad:

```hcl
context {
  key   = 42
  value = "x"
}
```

Good:

```hcl
context {
  key   = "example.org/answer"
  value = 42
}
```
"#,
    run: super::found,
};
