//! `L611`: self-collection-null — `self.resources`/`self.connections`, which function-hcl never fills.

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};

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
    let _ = (cx, code, out);
}
