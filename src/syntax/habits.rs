//! Help lines for Terraform habits function-hcl's schema rejects (`count`, `for_each` on a
//! `resource`, `depends_on`, `provider`, `lifecycle`, `variable`, a collection's `body` outside
//! its `template`…): hcl's message stays exactly Go's, and the help says what function-hcl
//! writes instead. A newcomer from Terraform meets these first.

use super::ast::Body;

/// The block whose body holds the rejected name: its type and first label (`None` at the top
/// level of a file).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Owner<'a> {
    /// The block type (`resource`, `resources`, `template`…).
    pub kind: &'a str,
    /// Its first label, when it has one.
    pub label: Option<&'a str>,
}

const COUNT: &str = "function-hcl has no `count`: use `condition = …` to include a resource or not, or `resources NAME { for_each = … }` for several";
const DEPENDS_ON: &str = "function-hcl has no `depends_on`: a body that reads another resource (`req.resource.NAME`) is composed once that resource is observed, so the order comes from the references";
const PROVIDER: &str = "function-hcl has no `provider`: a composed resource's `apiVersion` and `kind` pick its provider, and `spec.providerConfigRef` in its body the configuration";
const LIFECYCLE: &str = "function-hcl has no `lifecycle` block: `spec.managementPolicies` and `spec.deletionPolicy` in the body say what Crossplane does to the external resource";

/// The help for an argument `name` the owner's schema does not take.
pub(crate) fn argument(owner: Option<Owner>, name: &str, body: &Body) -> Option<String> {
    let kind = owner.map(|o| o.kind);
    let label = owner.and_then(|o| o.label).unwrap_or("NAME");
    Some(match (kind, name) {
        (_, "count") => COUNT.into(),
        (_, "depends_on") => DEPENDS_ON.into(),
        (_, "provider") => PROVIDER.into(),
        (Some("resource"), "for_each") => format!(
            "function-hcl has no `for_each` on `resource`: write `resources {label} {{ for_each = … template {{ body = … }} }}` for one resource per element (`each.key`, `each.value`)"
        ),
        (Some("template"), "for_each") => {
            "`for_each` belongs on the `resources` block, beside its `template`".into()
        }
        (Some("resources"), "body") => {
            if body.blocks.iter().any(|b| b.kind == "template") {
                "a collection's `body` goes inside its `template` block".into()
            } else {
                template(label)
            }
        }
        _ => return None,
    })
}

/// The help for a block of type `kind` the owner's schema does not take.
pub(crate) fn block(owner: Option<Owner>, kind: &str) -> Option<String> {
    let owner_kind = owner.map(|o| o.kind);
    let label = owner.and_then(|o| o.label).unwrap_or("NAME");
    Some(match (owner_kind, kind) {
        (_, "lifecycle") => LIFECYCLE.into(),
        (None, "variable") => "function-hcl has no variables: the XR's fields are `req.composite.spec.NAME`".into(),
        (None, "output") => "function-hcl has no outputs: write the XR's status with `composite status { body = { … } }`".into(),
        (None, "provider") => PROVIDER.into(),
        (None, "data") => "function-hcl has no data sources: read existing resources with `requirement NAME { select { … } }` and `req.extra_resources.NAME`".into(),
        (None, "module") => "function-hcl has no modules: share expressions with `function NAME { arg … body = … }` and `invoke(\"NAME\", { … })`".into(),
        (Some("resources"), "ready") => {
            "a collection's `ready` block goes inside its `template` block".into()
        }
        (Some("resource" | "template"), "dynamic") => {
            "a body is an object expression: build repeated fields with a `for` expression (`[for x in xs : { … }]`)".into()
        }
        (Some("resources"), "body") => template(label),
        _ => return None,
    })
}

/// A second label on `resource` or `resources` (Terraform's `resource "TYPE" "NAME"`).
pub(crate) fn extra_label(kind: &str) -> Option<&'static str> {
    matches!(kind, "resource" | "resources").then_some(
        "a function-hcl resource has one label, its name: the type is the body's `apiVersion` and `kind`",
    )
}

/// function-hcl's message for a collection without a template, and what to write.
fn template(base: &str) -> String {
    format!(
        "function-hcl fails with `no template block for resource collection {base}`: a collection's members are made from `template {{ body = … }}`, with `each.key` and `each.value`"
    )
}
