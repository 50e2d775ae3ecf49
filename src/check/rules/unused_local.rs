//! `L601`: unused-local — a local that nothing reads.

use super::{Rule, RuleKind};
use crate::analysis::references::step_name;
use crate::analysis::resolve::{BindingKind, Target};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L601,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"A local that nothing reads: not the block's attributes, not another local, not a nested
block. It is dead code, or the reference meant to use it has a typo.

Bad:

```hcl
locals {
  region = "eu-west-1"
  zone   = "eu-west-1a"
}
resource bucket {
  body = { spec = { forProvider = { region = region } } }
}
```

Good:

```hcl
locals {
  region = "eu-west-1"
}
resource bucket {
  body = { spec = { forProvider = { region = region } } }
}
```
"#,
    run,
};

fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    let Some(res) = cx.resolution else { return };
    // A local read as Terraform's `local.NAME` is meant to be used: R203 there says to write
    // `NAME`, and calling the local unused too would point the newcomer the wrong way.
    let meant: Vec<_> = res
        .uses
        .iter()
        .filter(|u| u.var.root == "local" && u.target == Target::Undefined)
        .filter_map(
            |u| match res.lookup(u.scope, step_name(u.var.steps.first()?)?) {
                Target::Binding(b) => Some(res.bindings[b].name_span),
                _ => None,
            },
        )
        .collect();
    for binding in res.unused(BindingKind::Local) {
        if meant.contains(&binding.name_span) {
            continue;
        }
        out.push(
            Diagnostic::new(code, format!("local `{}` is never used", binding.name))
                .with_primary(binding.name_span, None)
                .with_help("remove it, or check the references that should read it for a typo"),
        );
    }
}
