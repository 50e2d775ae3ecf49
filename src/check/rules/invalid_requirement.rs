//! `B109`: invalid-requirement — a requirement's select block is invalid.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::B109,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"A `requirement` whose `select` is wrong: none or several `select` blocks, both or neither of
`matchName` and `matchLabels`, or values of the wrong type (`apiVersion`, `kind` and
`matchName` must be strings, `matchLabels` an object of strings). Literal values are checked
as function-hcl's analyzer does; values that come from constant locals are checked too,
since the function rejects them when it evaluates the selector.

Bad:

```hcl
requirement vpc {
  select {
    apiVersion = "ec2.aws.upbound.io/v1beta1"
    kind       = "VPC"
    matchName  = ["main"]
  }
}
```

Good:

```hcl
requirement vpc {
  select {
    apiVersion = "ec2.aws.upbound.io/v1beta1"
    kind       = "VPC"
    matchName  = "main"
  }
}
```
"#,
    run: super::found,
};
