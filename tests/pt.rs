//! function-patch-and-transform natively (issue 33): the library's `pt` module through its
//! public API, the upstream test tables ported as data (`tests/fixtures/pt/`), one module per
//! part.

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
