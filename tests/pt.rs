//! function-patch-and-transform natively (issue 33): the upstream test tables ported as data,
//! one module per part.

#[path = "pt/validate.rs"]
mod validate;

#[path = "pt/migrate.rs"]
mod migrate;

#[path = "pt/ready.rs"]
mod ready;

#[path = "pt/connection.rs"]
mod connection;
