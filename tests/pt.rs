//! function-patch-and-transform natively (issue 33): the library's `pt` module through its
//! public API, case by case from `tests/fixtures/pt/`. Each part of the work keeps its cases
//! in its own module file.

#[path = "pt/core.rs"]
mod core;

#[path = "pt/validate.rs"]
mod validate;

#[path = "pt/migrate.rs"]
mod migrate;

#[path = "pt/ready.rs"]
mod ready;

#[path = "pt/connection.rs"]
mod connection;

#[path = "pt/function.rs"]
mod function;
