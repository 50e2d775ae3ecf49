//! One module per subcommand.

pub mod completions;
pub mod package;
