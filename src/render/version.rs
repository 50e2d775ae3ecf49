//! Which engine release's behaviour the engine dialect follows. Since Crossplane CLI 2.3,
//! `crossplane composition render` runs the Crossplane image (the engine) and its
//! `--crossplane-version` flag picks that image's tag; the render output changed between the
//! engine's patch releases (read from crossplane/crossplane v2.3.0…v2.3.4 and v2.4.0-rc.0,
//! `internal/render/composite/render.go`):
//!
//! - 2.3.2: the `--xrd` given selects the XR's schema (legacy `spec.resourceRefs` for a
//!   `LegacyCluster` XRD) and must match the XR's group and kind (`selectSchema`); before, the
//!   engine ignored it.
//! - 2.3.3: the references injected into the XR the functions observe carry a namespace only
//!   for a cluster-scoped XR (`InjectResourceRefs`).
//! - 2.3.4: the input XR keeps a UID it has (before, the deterministic one replaced it), and
//!   observed resources controlled by another object, or outside a namespaced XR's namespace,
//!   fail the render (`CheckObservedResources`); before, the reconciler silently left them out.

use super::Inputs;
use super::engine;
use crate::source::pointer::Pointer;
use serde_json::Value as Json;

/// `fnhcl render`'s default `--crossplane-version` (the CLI's flag says the same: its
/// definition is clap-only and cannot name this).
pub const DEFAULT_CROSSPLANE_VERSION: &str = "2.5";

/// An engine release whose render output differs from the one before it, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EngineRelease {
    /// 2.3.0 and 2.3.1 (and 2.4.0-rc.0, cut before 2.3.2): the first engine render.
    V2_3_1,
    /// 2.3.2: the XRD selects the XR's schema and must match the XR.
    V2_3_2,
    /// 2.3.3: injected references carry a namespace only for cluster-scoped XRs.
    V2_3_3,
    /// 2.3.4: the XR's own UID is kept; observed resources are validated. The newest verified.
    V2_3_4,
}

impl EngineRelease {
    /// The newest release whose behaviour was read from its source.
    pub const NEWEST: EngineRelease = EngineRelease::V2_3_4;

    /// The release whose behaviour version `major.minor[.patch][-pre]` has: a patch release
    /// of 2.3 its own (a later 2.3 patch, as 2.3.4), a 2.3.0 or 2.4.0 pre-release the first
    /// engine's, anything else (no patch given, 2.4 and later) the newest verified.
    pub fn of(major: u32, minor: u32, patch: Option<u32>, pre_release: bool) -> EngineRelease {
        match ((major, minor), patch) {
            ((2, 3), Some(0) | Some(1)) => EngineRelease::V2_3_1,
            ((2, 3), Some(2)) => EngineRelease::V2_3_2,
            ((2, 3), Some(3)) => EngineRelease::V2_3_3,
            ((2, 4), Some(0)) if pre_release => EngineRelease::V2_3_1,
            _ => EngineRelease::NEWEST,
        }
    }

    /// Whether `--xrd` reaches the engine's schema selection (2.3.2).
    pub fn selects_schema(self) -> bool {
        self >= EngineRelease::V2_3_2
    }

    /// Whether injected references of a namespaced XR leave the namespace out (2.3.3).
    pub fn local_refs_for_namespaced(self) -> bool {
        self >= EngineRelease::V2_3_3
    }

    /// Whether the XR keeps its own UID and observed resources are validated (2.3.4).
    pub fn keeps_uid_and_checks_observed(self) -> bool {
        self >= EngineRelease::V2_3_4
    }
}

impl Default for EngineRelease {
    fn default() -> EngineRelease {
        EngineRelease::NEWEST
    }
}

/// The inputs as `release` reads them: before 2.3.2 without the XRD (the engine ignored it),
/// before 2.3.4 without the XR's own UID (the deterministic one replaced it).
pub(super) fn as_read(mut read: Inputs, release: EngineRelease) -> Inputs {
    if !release.selects_schema() {
        read.xrd = None;
    }
    if !release.keeps_uid_and_checks_observed()
        && let Some(Json::Object(metadata)) = read.xr.get_mut("metadata")
    {
        metadata.remove("uid");
    }
    read
}

/// Before 2.3.3 the references injected into the XR the functions observe carry the observed
/// resources' namespaces for a namespaced XR too. `xr` is [`engine::observed_xr`]'s, built
/// from `read`.
pub(super) fn inject_namespaces(xr: &mut Json, read: &Inputs, release: EngineRelease) {
    if release.local_refs_for_namespaced() || namespace(&read.xr).is_empty() {
        return;
    }
    let refs = xr
        .pointer_mut("/spec/crossplane/resourceRefs")
        .filter(|r| r.is_array())
        .is_some();
    let pointer = if refs {
        "/spec/crossplane/resourceRefs"
    } else {
        "/spec/resourceRefs"
    };
    let Some(Json::Array(refs)) = xr.pointer_mut(pointer) else {
        return;
    };
    let named = read
        .observed
        .iter()
        .filter(|o| o.at("/metadata/name").and_then(Json::as_str).is_some());
    for (r, o) in refs.iter_mut().zip(named) {
        let ns = namespace(o);
        if !ns.is_empty() {
            r["namespace"] = Json::String(ns.to_string());
        }
    }
}

/// Before 2.3.4 the reconciler silently leaves out the observed resources it cannot own:
/// those controlled by another object than the XR (whose UID is the deterministic one) and,
/// for a namespaced XR, those in another namespace (it looks them up in its own). From 2.3.4
/// they fail the render instead ([`engine::check_observed`]).
pub(super) fn leave_out_unowned(observed: &mut Vec<Json>, read: &Inputs, release: EngineRelease) {
    if release.keeps_uid_and_checks_observed() {
        return;
    }
    let uid = engine::uid(&read.xr);
    let xr_ns = namespace(&read.xr);
    observed.retain(|o| {
        let controller = engine::controller_ref(o);
        let owned = controller.is_none_or(|c| c.get("uid").and_then(Json::as_str) == Some(&uid));
        owned && (xr_ns.is_empty() || namespace(o) == xr_ns)
    });
}

fn namespace(object: &Json) -> &str {
    object
        .at("/metadata/namespace")
        .and_then(Json::as_str)
        .unwrap_or("")
}

#[cfg(test)]
mod tests;
