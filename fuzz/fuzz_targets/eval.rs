//! Fuzzes the evaluator with one expression, as `fnhcl eval` evaluates it (`req` holds an
//! observed XR), then prints the value in every form fnhcl writes values.
//!
//! Inputs are text or structure-aware descriptions (see `fnhcl_fuzz::input_text`). A panic,
//! an abort (stack overflow), a hang past libFuzzer's `-timeout`, or memory past `-rss_limit_mb`
//! is a finding. Each evaluation runs under a 2-second deadline, as `--timeout` would stop it.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fnhcl_fuzz::targets::eval(data));
