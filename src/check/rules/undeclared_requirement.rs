//! `L605`: undeclared-requirement — `req.extra_resources.X` with no requirement `X`.

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::check::analyzer::requirements;
use crate::diagnostics::suggest::did_you_mean;
use crate::diagnostics::{Code, Diagnostic};
use crate::source::Span;

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
    let (Some(program), Some(res)) = (cx.program, cx.resolution) else {
        return;
    };
    let declared: Vec<&str> = requirements(&program.top)
        .iter()
        .map(|r| r.name.value.as_str())
        .collect();
    let (reads, _) = res.extra_resource_reads();
    for (name, u) in reads {
        if declared.contains(&name) {
            continue;
        }
        let help = match did_you_mean(name, &declared, str::to_string) {
            Some(help) => help,
            None => format!(
                "declare `requirement {name} {{ select {{ … }} }}`, unless the Composition's step requires it"
            ),
        };
        out.push(
            Diagnostic::new(
                code,
                format!("no requirement `{name}` is declared: `req.extra_resources.{name}` is always null"),
            )
            .with_primary(Span::of(u.file, u.var.span), None)
            .with_help(help),
        );
    }
}
