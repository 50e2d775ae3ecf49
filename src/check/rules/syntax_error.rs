//! `S001`: syntax-error — the HCL is not syntactically valid.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::S001,
    kind: RuleKind::Rejected,
    enabled: true,
    explain: r#"The file is not valid HCL native syntax. The message and range are Go HCL's (`hclsyntax`
v2.24), so they read as function-hcl reports them. function-hcl stops at the first file with
a syntax error; fnhcl reports the first error of every top-level block so one run shows
every independent mistake. Nothing else is checked in a composition with syntax errors.

Bad:

```hcl
resource bucket {
  body = {
    kind = "Bucket"
```

Good:

```hcl
resource bucket {
  body = {
    kind = "Bucket"
  }
}
```
"#,
    run: super::found,
};
