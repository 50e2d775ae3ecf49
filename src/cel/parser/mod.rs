//! cel-go's parser (v0.26, as the API server configures it): text → [`super::ast::Ast`].
//!
//! A hand-written recursive-descent parser over cel-go's grammar (`parser/gen/CEL.g4`) that
//! numbers nodes, records offsets and expands macros in the order cel-go's ANTLR visitor
//! does, and reports cel-go's messages:
//!
//! - `lexer`: tokens and `token recognition error`s;
//! - `grammar`: the rules, ANTLR-worded syntax errors (`mismatched input`, `extraneous
//!   input`, `missing`, `no viable alternative`), both of cel-go's depth limits;
//! - `macros`: `has`, `all`, `exists`, `exists_one`/`existsOne`, `map`, `filter`, the
//!   two-variable comprehensions, `cel.bind`, `optMap`, `optFlatMap`, `sortBy`;
//! - `unescape`: string and bytes literal values;
//! - [`debug`]: cel-go's `debug.ToDebugString`, for tests and diagnostics.
//!
//! Syntax errors follow ANTLR's recovery (single-token deletion and insertion, error
//! recovery mode, skipping to a token that can follow, cel-go's recovery limits), so the
//! messages after the first one usually match cel-go's too; the recovery sets are an
//! approximation of ANTLR's.
//!
//! Conventions of the trees built here, beyond [`super::ast`]'s:
//! - node ids and offsets are those cel-go assigns (ids from 1 in cel-go's visiting
//!   order; a macro's new nodes are located at its call's `(`);
//! - a message literal's field keys are string literals carrying their entry's id;
//! - in [`super::ast::SourceInfo::macro_calls`], an argument that is itself a macro
//!   expansion is an `Ident` with an empty name and that expansion's id;
//! - nesting is bounded by cel-go's limits (250), but a tree can still be some thousands
//!   of levels deep (each kind of bracket nests up to the limit): code that recurses on
//!   trees in debug builds needs a few megabytes of stack for the worst case.

pub mod debug;
mod grammar;
mod lexer;
mod macros;
#[cfg(test)]
mod tests;
mod unescape;

use super::ast::Ast;
use super::error::Issues;

/// Which macros the parser expands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacroSet {
    /// None: every call stays a call.
    None,
    /// cel-go's standard macros (`parser.AllMacros`): `has`, `all`, `exists`,
    /// `exists_one`, `existsOne`, `map` (2 and 3 arguments), `filter`.
    Standard,
    /// The API server's: the standard ones plus `ext.TwoVarComprehensions`, `cel.bind`
    /// (`ext.Bindings`), the optional library's `optMap` and `optFlatMap`, and
    /// `ext.Lists` v3's `sortBy`.
    Kubernetes,
}

/// Parser settings (cel-go's `parser.Option`s). [`Options::kubernetes`] is what [`parse`]
/// uses; the others exist for cel-go's own test tables.
#[derive(Clone, Debug)]
pub struct Options {
    /// The macros expanded.
    pub macros: MacroSet,
    /// Nesting limit of both of cel-go's depth checks (`MaxRecursionDepth`, 250).
    pub max_recursion_depth: u32,
    /// `a.?b`, `a[?b]`, `[?a]`, `{?k: v}` (`EnableOptionalSyntax`).
    pub optional_syntax: bool,
    /// Backquoted field names, `` a.`b-c` `` (`EnableIdentEscapeSyntax`).
    pub ident_escape_syntax: bool,
    /// Record macro calls in [`super::ast::SourceInfo::macro_calls`].
    pub populate_macro_calls: bool,
    /// Accumulator `@result` (true, cel-go's default) or `__result__`.
    pub hidden_accumulator: bool,
    /// `a && b && c` as one call with three arguments instead of a balanced tree.
    pub variadic_logic: bool,
    /// Longest accepted text, in code points (`ExpressionSizeCodePointLimit`, 100,000).
    pub size_limit: usize,
    /// Syntax errors reported before giving up (`ErrorReportingLimit`, 100).
    pub error_reporting_limit: usize,
    /// Error recoveries before giving up (`ErrorRecoveryLimit`, 30).
    pub recovery_limit: usize,
    /// Tokens one recovery may skip (`ErrorRecoveryLookaheadTokenLimit`, 256).
    pub lookahead_limit: usize,
    /// Expand `cel.bind` (with [`MacroSet::Kubernetes`]). On by request of the
    /// implementation plan; note that apiserver v0.35.0's `environment/base.go` does not
    /// enable `ext.Bindings`, so the API server itself leaves `cel.bind(…)` a plain call
    /// (which its checker then rejects).
    pub bind_macro: bool,
}

impl Options {
    /// Whether `function` names any macro `opts` enables (a quick filter before matching).
    pub(crate) fn is_macro(&self, function: &str) -> bool {
        match self.macros {
            MacroSet::None => false,
            MacroSet::Standard => matches!(
                function,
                "has" | "all" | "exists" | "exists_one" | "existsOne" | "map" | "filter"
            ),
            MacroSet::Kubernetes => matches!(
                function,
                "has"
                    | "all"
                    | "exists"
                    | "exists_one"
                    | "existsOne"
                    | "map"
                    | "filter"
                    | "transformList"
                    | "transformMap"
                    | "transformMapEntry"
                    | "bind"
                    | "optMap"
                    | "optFlatMap"
                    | "sortBy"
            ),
        }
    }

    /// The API server's parser: optional syntax on, every macro it enables, cel-go's default
    /// limits; no identifier escapes (not enabled there).
    pub fn kubernetes() -> Options {
        Options {
            macros: MacroSet::Kubernetes,
            max_recursion_depth: 250,
            optional_syntax: true,
            ident_escape_syntax: false,
            populate_macro_calls: true,
            hidden_accumulator: true,
            variadic_logic: false,
            size_limit: 100_000,
            error_reporting_limit: 100,
            recovery_limit: 30,
            lookahead_limit: 256,
            bind_macro: true,
        }
    }
}

/// Parses `text` as the API server's environment does (optional syntax on, every macro).
pub fn parse(text: &str) -> Result<Ast, Issues> {
    parse_with(text, &Options::kubernetes())
}

/// Parses `text` with explicit options.
pub fn parse_with(text: &str, options: &Options) -> Result<Ast, Issues> {
    grammar::parse(text, options)
}
