//! `L602`: unused-function — a user function that nothing invokes.

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};
use crate::eval::program::{constant, invoke_calls};
use crate::eval::value::Value;
use crate::source::Span;
use crate::syntax::ast::ExprKind;
use std::collections::HashSet;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L602,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"A user function that no `invoke` in the composition calls.

Bad:

```hcl
function double {
  arg x {}
  body = x * 2
}
```

Good:

```hcl
function double {
  arg x {}
  body = x * 2
}
locals {
  size = invoke("double", { x = 2 })
}
```
"#,
    run,
};

fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    let (Some(program), Some(res)) = (cx.program, cx.resolution) else {
        return;
    };
    let mut called = HashSet::new();
    for site in &res.exprs {
        let mut calls = Vec::new();
        invoke_calls(&site.expr.expr, &mut calls);
        for call in calls {
            if let ExprKind::Call { args, .. } = &call.kind
                && let Some(first) = args.first()
                && let Value::String(name) = constant(cx.map, site.expr.file, first)
            {
                called.insert(name);
            }
        }
    }
    for f in &program.functions {
        if !called.contains(f.name.value.as_str()) {
            out.push(
                Diagnostic::new(
                    code,
                    format!("function `{}` is never invoked", f.name.value),
                )
                .with_primary(Span::of(f.origin.file, &f.name.span), None)
                .with_help("remove it, or call it with `invoke(\"name\", { … })`"),
            );
        }
    }
}
