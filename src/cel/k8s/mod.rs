//! Kubernetes' CEL libraries (apiserver v0.35 `pkg/cel/library`, placeholder): lists, regex,
//! URLs, quantity, IP, CIDR, format, semver.

use super::env::Function;

/// The Kubernetes libraries' functions.
pub fn functions() -> Vec<Function> {
    Vec::new()
}
