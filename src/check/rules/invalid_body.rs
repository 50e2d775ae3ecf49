//! `C508`: invalid-body — a resource or composite body that is not an object.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::C508,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A resource, template or `composite status` body that is, whatever the inputs, not an object:
a string, a list, a number or null. function-hcl fails the render (`unable to convert
resource body to struct: NAME`, `error unmarshaling cty value: …`).

Bad:

```hcl
resource bucket {
  body = [{ kind = "Bucket" }]
}
```

Good:

```hcl
resource bucket {
  body = { kind = "Bucket" }
}
```
"#,
    run: super::found,
};
