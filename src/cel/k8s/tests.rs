//! Tests of the Kubernetes libraries: the upstream test tables (apiserver
//! `pkg/cel/library/*_test.go`, apiextensions-apiserver `pkg/apiserver/schema/cel/
//! validation_test.go`), run end to end (parser, checker, interpreter) over
//! [`crate::cel::env::Env::kubernetes`], plus unit tests of the parsers' error messages.

mod real;
mod tables;
mod units;
