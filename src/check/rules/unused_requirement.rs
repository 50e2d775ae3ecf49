//! `L604`: unused-requirement — a requirement whose resources nothing reads.

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L604,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"A `requirement` whose resources nothing reads through `req.extra_resources.NAME`: Crossplane
fetches them on every reconcile for nothing, or the reading reference has a typo.

Bad:

```hcl
requirement vpc {
  select {
    apiVersion = "ec2.aws.upbound.io/v1beta1"
    kind       = "VPC"
    matchName  = "main"
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
locals {
  vpc_id = try(req.extra_resources.vpc[0].status.atProvider.id, null)
}
```
"#,
    run,
};

fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    let _ = (cx, code, out);
}
