//! `L602`: unused-function — a user function that nothing invokes.

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};
use crate::eval::scope::Scope;
use crate::eval::value::Value;
use crate::source::Span;
use crate::syntax::ast::{Expr, ExprKind};
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
        invoked(cx, site.expr.file, &site.expr.expr, &mut called);
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

/// The names of the user functions `expr` invokes with a constant name.
fn invoked(cx: &Context, file: crate::source::FileId, expr: &Expr, out: &mut HashSet<String>) {
    if let ExprKind::Call { name, args, .. } = &expr.kind
        && name == "invoke"
        && let Some(first) = args.first()
    {
        let (value, _) = crate::eval::expr::Evaluator::new(file)
            .with_sources(cx.map)
            .eval(first, &Scope::default());
        if let Value::String(s) = value {
            out.insert(s);
        }
    }
    expr.for_each_child(|child| invoked(cx, file, child, out));
}
