//! The environment the API server gives CRD validation rules: the standard library, cel-go's
//! extensions and Kubernetes' libraries, gathered above the modules that declare them (so
//! that `env`, which they all build on, depends on none of them).

use super::env::Env;

impl Env {
    /// Every library the API server enables for CRD validation rules: the standard
    /// library, cel-go's extensions and Kubernetes' libraries (no variables).
    pub fn kubernetes() -> Env {
        let mut env = Env::new();
        env.declare(super::stdlib::functions());
        env.declare(super::ext::functions());
        env.declare(super::k8s::functions());
        env
    }
}
