//! L3: scopes and references — what a name means where it is used, shared by `check` and the
//! evaluator. Nothing here evaluates an expression.

pub mod locals;
pub mod references;

pub use locals::{LocalsPlan, plan_locals};
