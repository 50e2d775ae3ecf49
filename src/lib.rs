//! fnhcl: render, check, format and package function-hcl compositions without Docker.
#![warn(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

pub mod analysis;
pub mod cel;
pub mod check;
pub mod convert;
pub mod diagnostics;
pub mod diff;
pub mod eval;
pub mod fmt;
pub mod golden;
pub mod gostd;
pub mod grpc;
pub mod ide;
pub mod lsp;
pub mod package;
pub mod pt;
pub mod re2;
pub mod render;
pub mod scaffold;
pub mod schema;
pub mod source;
pub mod strfmt;
pub mod syntax;
