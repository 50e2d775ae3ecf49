//! `L609`: missing-api-version-or-kind — a body object literal without `apiVersion` or `kind`.

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::check::analyzer::object_key;
use crate::diagnostics::{Code, Diagnostic};
use crate::source::Span;
use crate::syntax::ast::ExprKind;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L609,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"A resource or template body written as an object literal without `apiVersion` or `kind`:
Crossplane cannot compose it.

Bad:

```hcl
resource bucket {
  body = {
    kind = "Bucket"
    spec = {}
  }
}
```

Good:

```hcl
resource bucket {
  body = {
    apiVersion = "s3.aws.upbound.io/v1beta1"
    kind       = "Bucket"
    spec       = {}
  }
}
```
"#,
    run,
};

fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    let Some(program) = cx.program else { return };
    let mut bodies = Vec::new();
    crate::check::schema_body::collect(&program.top, &mut bodies);
    for body in bodies {
        let ExprKind::Object(items) = &body.expr.kind else {
            continue;
        };
        // A computed key may be either: such a body is not judged.
        let Some(keys) = items
            .iter()
            .map(|item| object_key(cx.map, body.file, item))
            .collect::<Option<Vec<String>>>()
        else {
            continue;
        };
        let missing: Vec<&str> = ["apiVersion", "kind"]
            .into_iter()
            .filter(|k| !keys.iter().any(|have| have == k))
            .collect();
        if missing.is_empty() {
            continue;
        }
        let what = missing
            .iter()
            .map(|m| format!("`{m}`"))
            .collect::<Vec<_>>()
            .join(" or ");
        out.push(
            Diagnostic::new(code, format!("this resource body has no {what}"))
                .with_primary(Span::of(body.file, &body.expr.span), None)
                .with_help("Crossplane needs both to compose the resource"),
        );
    }
}
