//! `L603`: unused-argument — a user function argument its body never reads.

use super::{Rule, RuleKind};
use crate::analysis::resolve::BindingKind;
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L603,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"A user function argument that the function's body and locals never read. Callers must still
pass it when it has no default.

Bad:

```hcl
function greet {
  arg name {}
  arg unused {}
  body = "hello ${name}"
}
```

Good:

```hcl
function greet {
  arg name {}
  body = "hello ${name}"
}
```
"#,
    run,
};

fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    let Some(res) = cx.resolution else { return };
    for binding in res.unused(BindingKind::Argument) {
        let function = res.scopes[binding.scope].label.unwrap_or_default();
        out.push(
            Diagnostic::new(
                code,
                format!(
                    "argument `{}` of function `{function}` is never used",
                    binding.name
                ),
            )
            .with_primary(binding.name_span, None)
            .with_help("remove the argument, or use it in the body"),
        );
    }
}
