//! `L616`: unknown-composite-field — see [`crate::check::composite`].

use super::{Rule, RuleKind};
use crate::check::composite::run;
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L616,
    kind: RuleKind::Lint,
    enabled: true,
    explain: "A read of the XR — `req.composite.…`, or a local that is a plain alias of it such as `xr = req.composite` — naming a field the XRD does not define: most often a misspelt field (`spec.regoin`), or a step into a string or number. The API server prunes what the XRD does not define, so the XR never holds it: the read fails the render, or a `try` silently falls back to its default.

It runs when the XRD is among the schemas `check` reads (`check --schemas PATH`, `schemas = [...]` in `.fnhcl.toml`, or function-hcl's `.crds/` folder or `.crd-sources.yaml` at or above the composition). The XR's kind and version are the Composition's `compositeTypeRef` when `check` reads a Composition YAML; otherwise the kind the folder's Composition YAML or example XRs (`xr.yaml`, `tests/*/xr.yaml`) name, or without any, the one composite kind the schemas define, at its `referenceable` version; when that is not certain the rule does not run. Only paths of attribute and literal-key steps are judged, and never below `x-kubernetes-preserve-unknown-fields`, `additionalProperties` or untyped fields. `metadata` is the object metadata every object has.

Bad:

```hcl
resource vpc {
  body = {
    apiVersion = \"ec2.aws.upbound.io/v1beta1\"
    kind       = \"VPC\"
    spec = {
      forProvider = {
        region = req.composite.spec.regoin
      }
    }
  }
}
```

Good:

```hcl
resource vpc {
  body = {
    apiVersion = \"ec2.aws.upbound.io/v1beta1\"
    kind       = \"VPC\"
    spec = {
      forProvider = {
        region = req.composite.spec.region
      }
    }
  }
}
```
",
    run,
};
