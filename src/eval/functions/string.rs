//! Built-in functions: the string family (Terraform 1.5.7's, as function-hcl registers them).

use super::FunctionTable;

/// Registers this family's functions.
pub(super) fn register(_table: &mut FunctionTable) {}
