//! The fixture and conformance harness's parts.

pub mod compare;
pub mod crosscheck;
pub mod own;
pub mod suites;
