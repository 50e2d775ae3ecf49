//! The schemas fnhcl carries so that `validate` checks Crossplane's own kinds offline:
//! Crossplane v2.2.4's CRDs (`schemas/crossplane/`, descriptions left out) and function-hcl's
//! `HclInput` (`schemas/function-hcl/`). Each CRD is parsed and compiled only the first time a
//! resource of its kind is looked up, so runs that never meet one pay nothing but the bytes.

use super::load::{Entry, Schemas};
use std::sync::OnceLock;

/// The version of Crossplane whose CRDs are bundled.
pub const CROSSPLANE_VERSION: &str = "v2.2.4";

/// One bundled CRD: its group and kind, where it came from and its compact text.
struct Bundled {
    group: &'static str,
    kind: &'static str,
    file: &'static str,
    text: &'static str,
}

macro_rules! bundled {
    ($($group:literal $kind:literal $dir:literal $name:literal;)*) => {
        [$(Bundled {
            group: $group,
            kind: $kind,
            file: concat!("(bundled) ", $dir, "/", $name),
            text: include_str!(concat!("../../schemas/", $dir, "/", $name)),
        },)*]
    };
}

static BUNDLED: [Bundled; 22] = bundled! {
    "apiextensions.crossplane.io" "CompositeResourceDefinition" "crossplane" "apiextensions.crossplane.io_compositeresourcedefinitions.json";
    "apiextensions.crossplane.io" "CompositionRevision" "crossplane" "apiextensions.crossplane.io_compositionrevisions.json";
    "apiextensions.crossplane.io" "Composition" "crossplane" "apiextensions.crossplane.io_compositions.json";
    "apiextensions.crossplane.io" "EnvironmentConfig" "crossplane" "apiextensions.crossplane.io_environmentconfigs.json";
    "apiextensions.crossplane.io" "ManagedResourceActivationPolicy" "crossplane" "apiextensions.crossplane.io_managedresourceactivationpolicies.json";
    "apiextensions.crossplane.io" "ManagedResourceDefinition" "crossplane" "apiextensions.crossplane.io_managedresourcedefinitions.json";
    "apiextensions.crossplane.io" "Usage" "crossplane" "apiextensions.crossplane.io_usages.json";
    "ops.crossplane.io" "CronOperation" "crossplane" "ops.crossplane.io_cronoperations.json";
    "ops.crossplane.io" "Operation" "crossplane" "ops.crossplane.io_operations.json";
    "ops.crossplane.io" "WatchOperation" "crossplane" "ops.crossplane.io_watchoperations.json";
    "pkg.crossplane.io" "ConfigurationRevision" "crossplane" "pkg.crossplane.io_configurationrevisions.json";
    "pkg.crossplane.io" "Configuration" "crossplane" "pkg.crossplane.io_configurations.json";
    "pkg.crossplane.io" "DeploymentRuntimeConfig" "crossplane" "pkg.crossplane.io_deploymentruntimeconfigs.json";
    "pkg.crossplane.io" "FunctionRevision" "crossplane" "pkg.crossplane.io_functionrevisions.json";
    "pkg.crossplane.io" "Function" "crossplane" "pkg.crossplane.io_functions.json";
    "pkg.crossplane.io" "ImageConfig" "crossplane" "pkg.crossplane.io_imageconfigs.json";
    "pkg.crossplane.io" "Lock" "crossplane" "pkg.crossplane.io_locks.json";
    "pkg.crossplane.io" "ProviderRevision" "crossplane" "pkg.crossplane.io_providerrevisions.json";
    "pkg.crossplane.io" "Provider" "crossplane" "pkg.crossplane.io_providers.json";
    "protection.crossplane.io" "ClusterUsage" "crossplane" "protection.crossplane.io_clusterusages.json";
    "protection.crossplane.io" "Usage" "crossplane" "protection.crossplane.io_usages.json";
    "hcl.fn.crossplane.io" "HclInput" "function-hcl" "hcl.fn.crossplane.io_hclinputs.json";
};

/// Each bundled CRD compiled, once, on first use.
static COMPILED: [OnceLock<Option<Schemas>>; 22] = [const { OnceLock::new() }; 22];

/// Compiles one bundled CRD. `None` if it does not load: a unit test loads every one, so
/// this cannot happen in a release, and a failure must not stop validation of other kinds.
fn compile(bundled: &Bundled) -> Option<Schemas> {
    let doc: serde_json::Value = serde_json::from_str(bundled.text).ok()?;
    let mut schemas = Schemas::new();
    schemas.add_document(bundled.file, &doc).ok()?;
    Some(schemas)
}

/// The bundled schema of `api_version`/`kind`, compiling its CRD on first use.
pub fn get(api_version: &str, kind: &str) -> Option<&'static Entry> {
    let (group, _) = api_version.split_once('/')?;
    let index = BUNDLED
        .iter()
        .position(|b| b.group == group && b.kind == kind)?;
    COMPILED[index]
        .get_or_init(|| compile(&BUNDLED[index]))
        .as_ref()?
        .get(api_version, kind)
}

/// Every bundled `group`/`kind`, for documentation and tests.
pub fn kinds() -> impl Iterator<Item = (&'static str, &'static str)> {
    BUNDLED.iter().map(|b| (b.group, b.kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_crd_loads_and_compiles() {
        for b in &BUNDLED {
            let schemas = compile(b).unwrap_or_else(|| panic!("{} does not load", b.file));
            assert!(
                schemas.entries().all(|e| e.kind == b.kind),
                "{}: kind is not {}",
                b.file,
                b.kind
            );
            assert!(!schemas.is_empty(), "{}", b.file);
        }
    }

    #[test]
    fn lookups_need_group_version_and_kind() {
        assert!(get("apiextensions.crossplane.io/v1", "Composition").is_some());
        assert!(
            get(
                "apiextensions.crossplane.io/v2",
                "CompositeResourceDefinition"
            )
            .is_some()
        );
        assert!(get("protection.crossplane.io/v1beta1", "Usage").is_some());
        assert!(get("hcl.fn.crossplane.io/v1beta1", "HclInput").is_some());
        assert!(get("apiextensions.crossplane.io/v9", "Composition").is_none());
        assert!(get("example.org/v1", "Composition").is_none());
        assert!(get("Composition", "Composition").is_none());
    }
}
