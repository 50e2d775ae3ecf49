//! cel-go's standard library (placeholder): declarations and implementations.

use super::env::Function;

/// The standard library's functions.
pub fn functions() -> Vec<Function> {
    Vec::new()
}
