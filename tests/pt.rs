//! function-patch-and-transform natively (issue 33): the upstream test tables ported as data,
//! one module per part.

#[path = "pt/validate.rs"]
mod validate;

#[path = "pt/migrate.rs"]
mod migrate;
