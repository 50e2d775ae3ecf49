//! One module per subcommand.

pub mod check;
pub mod completions;
pub mod convert;
pub mod diff;
pub mod eval;
pub mod fmt;
pub mod function;
pub mod init;
pub mod operation;
pub mod package;
pub mod render;
pub mod test;
pub mod validate;
