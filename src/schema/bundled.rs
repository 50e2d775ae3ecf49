//! The schemas fnhcl carries so that `validate` checks Crossplane's own kinds offline:
//! Crossplane v2.2.4's CRDs (`schemas/crossplane/`, descriptions left out) and function-hcl's
//! `HclInput` (`schemas/function-hcl/`). Each CRD is parsed and compiled only the first time a
//! resource of its kind is looked up (`load::Schemas::get`), so runs that never meet one pay
//! nothing but the bytes.

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

/// How many CRDs are bundled.
pub const COUNT: usize = BUNDLED.len();

/// The bundled CRD of `api_version`'s group and `kind`: its index (below [`COUNT`]), the name
/// it is reported under and its compact JSON text. Compiling it is the caller's (`load`), so
/// that this table depends on nothing.
pub fn find(api_version: &str, kind: &str) -> Option<(usize, &'static str, &'static str)> {
    let (group, _) = api_version.split_once('/')?;
    let index = BUNDLED
        .iter()
        .position(|b| b.group == group && b.kind == kind)?;
    let b = &BUNDLED[index];
    Some((index, b.file, b.text))
}

/// Every bundled `group`/`kind`, for documentation and tests.
pub fn kinds() -> impl Iterator<Item = (&'static str, &'static str)> {
    BUNDLED.iter().map(|b| (b.group, b.kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_kind_is_found_in_its_group() {
        for (i, b) in BUNDLED.iter().enumerate() {
            let (index, file, _) = find(&format!("{}/v1", b.group), b.kind).unwrap();
            assert_eq!((index, file), (i, b.file));
        }
        assert!(find("example.org/v1", "Composition").is_none());
        assert!(find("Composition", "Composition").is_none());
        assert_eq!(kinds().count(), COUNT);
    }
}
