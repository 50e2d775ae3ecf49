//! `C505`: invalid-for-each — a `for_each` that cannot be evaluated or iterated.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::C505,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A `for_each` that can never be iterated: it always fails to evaluate, or its value is a
string, number, bool or null whatever the inputs. function-hcl fails the render (`unable to
evaluate for_each for resource collection X` / `unable to extract iterations for resource
collection X`); an unknown `for_each` is fatal too, it is never deferred.

Bad:

```hcl
resources subnets {
  for_each = "a,b,c"
  template {
    body = {}
  }
}
```

Good:

```hcl
resources subnets {
  for_each = split(",", "a,b,c")
  template {
    body = {}
  }
}
```
"#,
    run: super::found,
};
