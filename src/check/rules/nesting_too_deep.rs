//! `S002`: nesting-too-deep — expressions or blocks are nested too deeply.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::S002,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"Expressions or blocks are nested more than 1,000 levels deep. Go HCL would exhaust its stack
on such input; fnhcl refuses it with this error instead. Generated input is the usual cause.

Bad:

```hcl
locals {
  x = [[[[[[ … 1,001 levels … ]]]]]]
}
```

Good:

```hcl
locals {
  x = flatten(local_parts)
}
```
"#,
    run: super::found,
};
