//! `L618`: optional-composite-field — see [`crate::check::composite`].

use super::{Rule, RuleKind};
use crate::check::composite::run;
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L618,
    kind: RuleKind::Lint,
    enabled: false,
    explain: "A read of an XR `spec` field (through `req.composite` or a local aliasing it) that the XRD neither lists as `required` nor gives a `default`, nor the objects on the way to it, outside `try(…)` and `can(…)`. An XR that leaves the field out makes the read fail: the block (or the whole render) fails for that XR, often on its first render, with the cause far from the message.

Off by default, as guards it cannot see (a `condition = can(xr.spec.cidr)` on the block) make it report reads that are safe: turn it on in `.fnhcl.toml` (`optional-composite-field = \"warning\"`). It runs when the XR's schema is known, as for `unknown-composite-field` (L616).

Bad:

```hcl
locals {
  xr = req.composite
}

resource vpc {
  body = {
    apiVersion = \"ec2.aws.upbound.io/v1beta1\"
    kind       = \"VPC\"
    spec = {
      forProvider = {
        cidrBlock = xr.spec.cidr
      }
    }
  }
}
```

Good:

```hcl
locals {
  xr = req.composite
}

resource vpc {
  body = {
    apiVersion = \"ec2.aws.upbound.io/v1beta1\"
    kind       = \"VPC\"
    spec = {
      forProvider = {
        cidrBlock = try(xr.spec.cidr, \"10.0.0.0/16\")
      }
    }
  }
}
```
",
    run,
};
