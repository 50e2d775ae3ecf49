//! The files `fnhcl init` writes, as text, for an XR type ([`super::xrd::Xr`]). Every one
//! must `check`, `render` and `test` green as written (the CLI and README tests prove it).

use super::xrd::Xr;
use serde_json::Value as Json;

/// The Composition file: function-hcl's step, its bundle filled by `package --into`.
pub const COMPOSITION: &str = "composition-pipeline.yaml";
/// The first golden case's folder.
pub const CASE: &str = "tests/first";

/// Every file but the golden case's `expected.yaml` (which the first render writes): each
/// path relative to the project folder, and its text.
pub fn files(xr: &Xr, from_xrd: bool) -> Vec<(String, String)> {
    let example = example_xr(xr);
    vec![
        ("main.hcl".into(), main_hcl(xr, from_xrd)),
        (".fnhcl.toml".into(), CONFIG.into()),
        (COMPOSITION.into(), composition(xr)),
        ("xr.yaml".into(), example.clone()),
        (format!("{CASE}/xr.yaml"), example),
        (
            "tests/composition-test.yaml".into(),
            composition_test(xr, from_xrd),
        ),
        (".crds/README.md".into(), CRDS_README.into()),
    ]
}

/// The resource the scaffold composes: its label, API version, kind and name suffix.
fn resource(from_xrd: bool) -> (&'static str, &'static str, &'static str) {
    if from_xrd {
        ("config", "v1", "ConfigMap")
    } else {
        ("bucket", "s3.aws.upbound.io/v1beta1", "Bucket")
    }
}

fn main_hcl(xr: &Xr, from_xrd: bool) -> String {
    let (label, api_version, kind) = resource(from_xrd);
    // Aligned as `fnhcl fmt` aligns them.
    let keys: Vec<String> = xr.status.iter().map(|(name, _)| hcl_key(name)).collect();
    let width = keys.iter().map(|k| k.chars().count()).max().unwrap_or(0);
    let status: String = keys
        .iter()
        .zip(&xr.status)
        .map(|(key, (_, empty))| format!("      {key:<width$} = {empty}\n"))
        .collect();
    let (locals, spec) = if from_xrd {
        (
            "  # The XR's spec, as the XRD defines it (required fields are always set).\n  spec = req.composite.spec\n",
            "    # TODO: the resource this composition makes; a stub that records the XR's spec.\n    data = { for k, v in spec : k => jsonencode(v) }\n",
        )
    } else {
        (
            "  # try() gives an optional spec field a default instead of failing without it.\n  region = try(req.composite.spec.region, \"us-east-1\")\n",
            "    spec = {\n      forProvider = {\n        region = region\n      }\n    }\n",
        )
    };
    format!(
        r#"# The program function-hcl runs for every {kind} ({group}/{version}).
#   fnhcl check .                              find mistakes without running it
#   fnhcl render xr.yaml {COMPOSITION}   what it composes for xr.yaml
#   fnhcl test .                               run the cases in tests/
#   fnhcl package . --into {COMPOSITION}  put these files into the Composition
# Every .hcl file of this folder is part of the program.

# Locals are shared by every block of the program; req.composite is the XR.
locals {{
  name = req.composite.metadata.name
{locals}}}

# A composed resource; its label is its name in the composition
# (the crossplane.io/composition-resource-name annotation).
resource {label} {{
  # Composed only while the condition is true: the XR must have a name.
  condition = name != ""

  body = {{
    apiVersion = "{api_version}"
    kind       = "{kind_out}"
    metadata = {{
      name = "${{name}}-{label}"
    }}
{spec}  }}

  # Written back to the XR's status. self.resource is the observed resource,
  # null until Crossplane has observed it: try() keeps a placeholder until then.
  composite status {{
    body = {{
{status}    }}
  }}
}}
"#,
        kind = xr.kind,
        group = xr.group,
        version = xr.version,
        kind_out = kind,
        status = if status.is_empty() {
            format!("      {label}Name = try(self.resource.metadata.name, \"\")\n")
        } else if from_xrd {
            status
        } else {
            "      bucketArn = try(self.resource.status.atProvider.arn, \"\")\n".into()
        },
    )
}

/// A status field's name as an HCL object key.
fn hcl_key(name: &str) -> String {
    let plain = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        name.to_string()
    } else {
        Json::from(name).to_string()
    }
}

fn example_xr(xr: &Xr) -> String {
    let spec = crate::source::yaml_emit::to_yaml(&serde_json::json!({ "spec": xr.spec }));
    format!(
        "# An example {kind}: what `fnhcl render` and the first test case compose for.\napiVersion: {group}/{version}\nkind: {kind}\nmetadata:\n  name: example\n{spec}",
        kind = xr.kind,
        group = xr.group,
        version = xr.version,
    )
}

fn composition(xr: &Xr) -> String {
    format!(
        "# The Composition Crossplane runs. Its function-hcl step holds this folder's .hcl files\n# as a bundle: after editing them, run `fnhcl package . --into {COMPOSITION}`\n# (`fnhcl check` reports a stale bundle).\napiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: {name}\nspec:\n  compositeTypeRef:\n    apiVersion: {group}/{version}\n    kind: {kind}\n  mode: Pipeline\n  pipeline:\n  - step: run hcl composition\n    functionRef:\n      name: function-hcl\n    input:\n      apiVersion: hcl.fn.crossplane.io/v1beta1\n      kind: HclInput\n      hcl: \"\"\n",
        name = xr.kind.to_lowercase(),
        group = xr.group,
        version = xr.version,
        kind = xr.kind,
    )
}

fn composition_test(xr: &Xr, from_xrd: bool) -> String {
    let (label, api_version, kind) = resource(from_xrd);
    format!(
        "# A Crossplane CompositionTest that `fnhcl test` runs: paths are relative to this folder,\n# and the .hcl files above it are the composition. Assertions are subsets: only the fields\n# given count.\napiVersion: test.crossplane.io/v1alpha1\nkind: CompositionTest\nmetadata:\n  name: {name}\nspec:\n  tests:\n  - name: composes the {label}\n    inputs:\n      xr:\n        path: first/xr.yaml\n    assertions:\n    - type: chainsaw\n      chainsaw:\n        resources:\n        - apiVersion: {api_version}\n          kind: {kind}\n          metadata:\n            name: example-{label}\n",
        name = xr.kind.to_lowercase(),
    )
}

const CONFIG: &str = r#"# fnhcl's configuration (docs/configuration.md in fnhcl's repository).
# CRDs and XRDs for the body rules and the editor's completion are read from .crds/.

[rules]
# unused-local = "off"        # a rule's level, by name or code: off | info | warning | error

[example]                     # the language server's live values
case = "tests/first"
"#;

const CRDS_README: &str = "# .crds\n\nPut the CRDs of the resources this composition makes, and the XRD of its XR, here as\nYAML files (`kubectl get crd NAME -o yaml > .crds/NAME.yaml`). `fnhcl check` then checks\ncomposed bodies against them, `fnhcl lsp` completes them, and `fnhcl render --validate .crds`\nvalidates the output.\n";
