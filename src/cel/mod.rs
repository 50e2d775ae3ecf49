//! CEL as the Kubernetes API server runs it: cel-go v0.26 with the options and libraries
//! apiserver v0.35 enables for CRD validation rules (`x-kubernetes-validations`).
//!
//! - [`ast`]: the parsed, macro-expanded expression (cel-go's AST shape and node ids).
//! - [`parser`]: text → [`ast::Ast`], cel-go's grammar, macros and syntax-error messages.
//! - [`types`]: cel-go's types as the checker sees them.
//! - [`checker`]: type-checks an [`ast::Ast`] against an [`env::Env`].
//! - [`value`]: runtime values.
//! - [`interp`]: evaluates an [`ast::Ast`], metered by [`cost`].
//! - [`cost`]: cel-go's runtime cost tracking and static cost estimation.
//! - [`env`](mod@env): functions, overloads and variables; [`stdlib`], [`ext`] and [`k8s`] fill it.
//!
//! Below `schema`; it knows nothing of CRDs: the schema layer declares `self`'s type and
//! converts JSON into [`value::Value`]s.

pub mod ast;
pub mod checker;
pub mod cost;
pub mod env;
pub mod error;
pub mod ext;
pub mod interp;
pub mod k8s;
pub mod library;
pub mod parser;
pub mod stdlib;
pub mod types;
pub mod value;
