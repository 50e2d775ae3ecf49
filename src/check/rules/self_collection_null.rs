//! `L611`: self-collection-null — `self.resources`/`self.connections`, which function-hcl never fills.

use super::{Rule, RuleKind};
use crate::analysis::references::step_name;
use crate::analysis::resolve::{ScopeKind, Target};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};
use crate::source::Span;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L611,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"`self.resources` or `self.connections` in a `resources` block. function-hcl v0.2.0 never
fills them: they are always null, so reading a member fails. Use `req.resources.BASE` and
`req.connections.BASE` instead.

Bad:

```hcl
resources subnets {
  for_each = ["a", "b"]
  template {
    body = { observed = length(self.resources) }
  }
}
```

Good:

```hcl
resources subnets {
  for_each = ["a", "b"]
  template {
    body = { observed = length(try(req.resources.subnets, [])) }
  }
}
```
"#,
    run,
};

fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    let Some(res) = cx.resolution else { return };
    for u in &res.uses {
        if u.target != Target::SelfObject {
            continue;
        }
        let Some(attr) = u.var.steps.first().and_then(step_name) else {
            continue;
        };
        if !matches!(attr, "resources" | "connections") {
            continue;
        }
        let Some(collection) = res
            .chain(u.scope)
            .find(|&s| res.scopes[s].kind == ScopeKind::Resources)
        else {
            continue;
        };
        let base = res.scopes[collection].label.unwrap_or("BASE");
        out.push(
            Diagnostic::new(code, format!("`self.{attr}` is always null"))
                .with_primary(Span::of(u.file, u.var.span), None)
                .with_help(format!(
                    "function-hcl never fills it: use `req.{attr}.{base}`"
                )),
        );
    }
}
