//! `L605`: undeclared-requirement — `req.extra_resources.X` with no requirement `X`.

use super::{Rule, RuleKind};
use crate::analysis::resolve::Target;
use crate::check::Context;
use crate::check::analyzer::step_name;
use crate::diagnostics::{Code, Diagnostic};
use crate::source::Span;
use crate::syntax::model::{Child, GroupBody};

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
    let mut declared = Vec::new();
    requirements(&program.top, &mut declared);
    for u in &res.uses {
        if u.target != Target::Req
            || u.var.steps.first().and_then(step_name) != Some("extra_resources")
        {
            continue;
        }
        let Some(name) = u.var.steps.get(1).and_then(step_name) else {
            continue;
        };
        if declared.iter().any(|d| d == name) {
            continue;
        }
        let mut d = Diagnostic::new(
            code,
            format!(
                "no requirement `{name}` is declared: `req.extra_resources.{name}` is always null"
            ),
        )
        .with_primary(Span::of(u.file, u.var.span), None);
        d.help = Some(
            match crate::syntax::suggest::name_suggestion(
                name,
                &declared.iter().map(String::as_str).collect::<Vec<_>>(),
            ) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!(
                    "declare `requirement {name} {{ select {{ … }} }}`, unless the Composition's step requires it"
                ),
            },
        );
        out.push(d);
    }
}

fn requirements(body: &GroupBody, out: &mut Vec<String>) {
    for child in &body.children {
        match child {
            Child::Group(g) => requirements(&g.body, out),
            Child::Requirement(r) => out.push(r.name.value.clone()),
            _ => {}
        }
    }
}
