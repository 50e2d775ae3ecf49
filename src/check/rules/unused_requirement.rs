//! `L604`: unused-requirement — a requirement whose resources nothing reads.

use super::{Rule, RuleKind};
use crate::analysis::resolve::Target;
use crate::check::Context;
use crate::check::analyzer::step_name;
use crate::diagnostics::{Code, Diagnostic};
use crate::source::Span;
use crate::syntax::model::Child;
use std::collections::HashSet;

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
    let Some(res) = cx.resolution else { return };
    let mut read = HashSet::new();
    for u in &res.uses {
        if u.target != Target::Req
            || u.var.steps.first().and_then(step_name) != Some("extra_resources")
        {
            continue;
        }
        match u.var.steps.get(1).and_then(step_name) {
            Some(name) => {
                read.insert(name);
            }
            // `req.extra_resources` read as a whole (or by a computed key): any could be used.
            None => return,
        }
    }
    let Some(program) = cx.program else { return };
    let mut stack: Vec<&crate::syntax::model::GroupBody> = vec![&program.top];
    while let Some(body) = stack.pop() {
        for child in &body.children {
            match child {
                Child::Group(g) => stack.push(&g.body),
                Child::Requirement(r) if !read.contains(r.name.value.as_str()) => out.push(
                    Diagnostic::new(
                        code,
                        format!(
                            "the resources of requirement `{}` are never read",
                            r.name.value
                        ),
                    )
                    .with_primary(Span::of(r.origin.file, &r.name.span), None)
                    .with_help(format!(
                        "read them with `req.extra_resources.{}`, or remove the requirement",
                        r.name.value
                    )),
                ),
                _ => {}
            }
        }
    }
}
