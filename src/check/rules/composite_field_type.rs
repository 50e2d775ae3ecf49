//! `L617`: composite-field-type — see [`crate::check::composite`].

use super::{Rule, RuleKind};
use crate::check::composite::run;
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L617,
    kind: RuleKind::Lint,
    enabled: true,
    explain: "A `condition` that is an XR field whose XRD type is not boolean (`condition = xr.spec.enabled` with `enabled` a string), which function-hcl refuses (\"got type string, expected bool\"); or a condition comparing an XR field with `==` or `!=` to a literal of another type (`xr.spec.replicas == \"3\"` with `replicas` an integer), which HCL never finds equal, so the condition is always false (or always true).

It runs when the XR's schema is known, as for `unknown-composite-field` (L616): the XRD among the schemas `check` reads, the kind from a Composition's `compositeTypeRef`, the folder's example XRs or the only composite kind, at its `referenceable` version. Only XR fields read directly, or through locals that are plain aliases (`xr = req.composite`), are judged.

Bad:

```hcl
locals {
  xr = req.composite
}

resource bucket {
  condition = xr.spec.replicas == \"3\"
  body = {
    apiVersion = \"s3.aws.upbound.io/v1beta1\"
    kind       = \"Bucket\"
  }
}
```

Good:

```hcl
locals {
  xr = req.composite
}

resource bucket {
  condition = xr.spec.replicas == 3
  body = {
    apiVersion = \"s3.aws.upbound.io/v1beta1\"
    kind       = \"Bucket\"
  }
}
```
",
    run,
};
