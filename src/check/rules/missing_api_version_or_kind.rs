//! `L609`: missing-api-version-or-kind — a body object literal without `apiVersion` or `kind`.

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L609,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"A resource or template body written as an object literal without `apiVersion` or `kind`:
Crossplane cannot compose it.

Bad:

```hcl
resource bucket {
  body = {
    kind = "Bucket"
    spec = {}
  }
}
```

Good:

```hcl
resource bucket {
  body = {
    apiVersion = "s3.aws.upbound.io/v1beta1"
    kind       = "Bucket"
    spec       = {}
  }
}
```
"#,
    run,
};

fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    let _ = (cx, code, out);
}
