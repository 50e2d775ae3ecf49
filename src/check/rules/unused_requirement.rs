//! `L604`: unused-requirement — a requirement whose resources nothing reads.

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::check::analyzer::requirements;
use crate::diagnostics::{Code, Diagnostic};
use crate::source::Span;

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
    let (Some(program), Some(res)) = (cx.program, cx.resolution) else {
        return;
    };
    let (reads, whole) = res.extra_resource_reads();
    if whole {
        return;
    }
    for r in requirements(&program.top) {
        let name = r.name.value.as_str();
        if reads.iter().any(|(read, _)| *read == name) {
            continue;
        }
        out.push(
            Diagnostic::new(
                code,
                format!("the resources of requirement `{name}` are never read"),
            )
            .with_primary(Span::of(r.origin.file, &r.name.span), None)
            .with_help(format!(
                "read them with `req.extra_resources.{name}`, or remove the requirement"
            )),
        );
    }
}
