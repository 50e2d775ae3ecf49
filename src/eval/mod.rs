//! L4: values, numbers and expression evaluation with cty's semantics.

pub mod budget;
pub mod convert;
pub mod coverage;
pub mod deadline;
pub mod evaluate;
pub mod expr;
pub mod function;
pub mod functions;
pub mod json;
pub mod num;
pub mod prefix;
pub mod program;
pub mod proto;
pub mod request;
pub mod scope;
pub mod table;
#[cfg(test)]
pub(crate) mod testing;
pub mod types;
pub mod value;
pub mod vars;

pub use num::Num;
pub use types::Type;
pub use value::{Refinement, Value};
