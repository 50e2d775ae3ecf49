//! `R208`: undeclared-resource — `req.resource(s)`/`req.connection(s)` naming no resource or collection of the composition.

use super::{Rule, RuleKind};
use crate::diagnostics::Code;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::R208,
    kind: RuleKind::Analyzer,
    enabled: true,
    explain: r#"`req.resource.NAME` or `req.connection.NAME` with no `resource NAME` block in the
composition, or `req.resources.BASE` or `req.connections.BASE` with no `resources BASE`
block. function-hcl's analyzer rejects the first two forms (`invalid resource name
reference`, `invalid resource collection name reference`); fnhcl checks connections the same
way. Reading a resource that another function of the pipeline composes is legitimate:
configure this rule down or suppress it on that line. The help suggests the other form when the
name is a block of the other kind (`req.resources.subnet` for a collection), else the closest
name.

Bad:

```hcl
resource bucket {
  body = {}
}
composite status {
  body = { arn = req.resource.bukcet.status.atProvider.arn }
}
```

Good:

```hcl
resource bucket {
  body = {}
}
composite status {
  body = { arn = req.resource.bucket.status.atProvider.arn }
}
```
"#,
    run: super::found,
};
