//! `L610`: unformatted — a file that `fnhcl fmt` would change.

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L610,
    kind: RuleKind::Lint,
    enabled: false,
    explain: r#"A file that `fnhcl fmt` would change (function-hcl's canonical formatting). Off by default:
turn it on in `.fnhcl.toml` (`unformatted = "warning"`) to make `check` cover formatting
too.

Bad:

```hcl
resource bucket {
body={kind="Bucket"}
}
```

Good:

```hcl
resource bucket {
  body = { kind = "Bucket" }
}
```
"#,
    run,
};

fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    let _ = (cx, code, out);
}
