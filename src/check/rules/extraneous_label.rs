//! `B104`: extraneous-label — a block has more labels than it takes.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::B104,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A block has more labels than its type takes (`resource` takes one name, `group` and `locals`
none).

Bad:

```hcl
resource bucket main {
  body = {}
}
```

Good:

```hcl
resource bucket-main {
  body = {}
}
```
"#,
    run: super::found,
};
