//! `L605`: undeclared-requirement — `req.extra_resources.X` with no requirement `X`.

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L605,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"`req.extra_resources.NAME` where the composition declares no `requirement NAME`: the value
is always null unless the Composition's pipeline step asks for it in its own `requirements`.

Bad:

```hcl
locals {
  vpc_id = req.extra_resources.vcp[0].status.atProvider.id
}
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
locals {
  vpc_id = req.extra_resources.vpc[0].status.atProvider.id
}
requirement vpc {
  select {
    apiVersion = "ec2.aws.upbound.io/v1beta1"
    kind       = "VPC"
    matchName  = "main"
  }
}
```
"#,
    run,
};

fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    let _ = (cx, code, out);
}
