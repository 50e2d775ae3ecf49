//! `C506`: invalid-connection-value — a `composite connection` value that is not a string.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::C506,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A `composite connection` body with a value that is, whatever the inputs, not a string (a
number, a bool, an object): function-hcl fails the render (`connection key "K" was not a
string, got float64`). Connection values must be base64-encoded strings.

Bad:

```hcl
composite connection {
  body = { port = 5432 }
}
```

Good:

```hcl
composite connection {
  body = { port = base64encode("5432") }
}
```
"#,
    run: super::found,
};
