//! `L614`: invalid-body-value — see [`crate::check::schema_body`].

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L614,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"A literal value in a resource body that the resource's CRD refuses

It runs when CRDs or XRDs are configured: `check --schemas PATH`, `schemas = [...]` in
`.fnhcl.toml`, or function-hcl's `.crds/` folder (or `.crd-sources.yaml`) at or above the
composition. Only bodies written as object literals with literal `apiVersion` and `kind` are
judged, and only what holds whatever the inputs.

Bad:

```hcl
resource bucket {
  body = {
    apiVersion = "s3.aws.upbound.io/v1beta1"
    kind       = "Bucket"
    spec = {
      forProvider = {
         the wrong type, a value outside its `enum`, a string that does not match its `pattern`, a number out of bounds. The message is the API server's; the apply would fail.
      }
    }
  }
}
```

Good:

```hcl
resource bucket {
  body = {
    apiVersion = "s3.aws.upbound.io/v1beta1"
    kind       = "Bucket"
    spec = {
      forProvider = {
        forceDestroy = "yes":forceDestroy = true
      }
    }
  }
}
```
"#,
    run,
};

fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    out.extend(
        crate::check::schema_body::findings(cx)
            .into_iter()
            .filter(|d| d.code == code),
    );
}
