//! L4: values, numbers and expression evaluation with cty's semantics.

pub mod num;
