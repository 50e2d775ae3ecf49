//! One module per subcommand.

pub mod check;
pub mod completions;
pub mod package;
