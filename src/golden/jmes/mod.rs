//! A JMESPath subset, evaluated natively, for chainsaw's `(expression)` assertions: names,
//! `.`, indexes and slices, `*`/`[*]`/`[]` projections, `[?…]` filters with comparisons and
//! `&&`/`||`/`!`, literals, pipes, multi-select lists and hashes, `@`, `$` and `$name`
//! bindings, `&expression`, and the functions of [`functions::NAMES`]. Expressions come from
//! a tested tree, so parsing is capped in length and depth and evaluation in work.

mod eval;
pub mod functions;
mod parse;
mod value;

pub use eval::Budget;
pub use parse::{MAX_DEPTH, MAX_TEXT};
use serde_json::Value as Json;
pub use value::equal;

/// The work one comparison of a document may spend on expressions: a step per node visited
/// and a node per value copied. Real assertions spend hundreds.
pub const BUDGET: u64 = 1_000_000;

/// A parsed expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expression {
    ast: parse::Ast,
}

/// Parses an expression; the error is a sentence naming the column.
pub fn compile(text: &str) -> Result<Expression, String> {
    Ok(Expression {
        ast: parse::parse(text)?,
    })
}

impl Expression {
    /// Evaluates the expression on `data` (`@` and `$`), with `$name` bindings (the last of
    /// a name wins), spending from `budget`.
    pub fn search(
        &self,
        data: &Json,
        bindings: &[(String, Json)],
        budget: &mut Budget,
    ) -> Result<Json, String> {
        let mut run = eval::Run {
            root: data,
            bindings,
            budget,
        };
        let result = run.eval(&self.ast, data)?;
        Ok(result.into_owned())
    }
}

#[cfg(test)]
mod tests;
