//! Fuzzes a whole function-hcl program through `function run` (what `fnhcl function run` and
//! every render step compute), with an observed XR, under a 2-second deadline.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fnhcl_fuzz::targets::program(data));
