//! L2: our HCL native-syntax lexer and parser (faithful to Go's `hclsyntax` v2.24), and the
//! function-hcl schema over their tree.

pub mod ast;
mod habits;
mod invalid;
pub mod lex;
pub mod model;
pub mod parse;
mod parse_expr;
mod parse_template;
pub mod schema;
mod template_part;
pub mod testfile;

pub use parse::{Parsed, ParsedFile, parse_expression, parse_file};
pub use parse_expr::valid_number;
pub use parse_template::decode as decode_literal;
