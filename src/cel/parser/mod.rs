//! cel-go's parser (placeholder): text → [`super::ast::Ast`].

use super::ast::Ast;
use super::error::Issues;

/// Parses `text` as the API server's environment does (optional syntax on, every macro).
pub fn parse(text: &str) -> Result<Ast, Issues> {
    super::bridge::parse(text).map_err(|message| Issues {
        issues: vec![super::error::Issue {
            offset: None,
            message,
        }],
        text: text.into(),
    })
}
