//! Fuzzes CEL validation rules: a CRD whose rule (and `messageExpression`) is the input,
//! loaded and run as `fnhcl validate` does (see `src/targets.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fnhcl_fuzz::targets::cel(data));
