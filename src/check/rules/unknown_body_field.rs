//! `L613`: unknown-body-field — see [`crate::check::schema_body`].

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L613,
    kind: RuleKind::Lint,
    enabled: true,
    explain: r#"A key written in a resource body that the resource's CRD does not have — most often a misspelt field. The API server drops it (it prunes unknown fields), so the setting silently never reaches the provider.

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
        regoin       = "us-east-1"
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
        region = "us-east-1"
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
