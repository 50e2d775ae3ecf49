//! Fuzzes value printing: a generated value (deep, wide, with numbers of any size and
//! precision, strings of any content) goes through every printer: the HCL form `eval` shows,
//! JSON and YAML output, and the functions that print values (`jsonencode`, `yamlencode`,
//! `tostring`, `format`), under a 2-second deadline.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fnhcl_fuzz::targets::print(data));
