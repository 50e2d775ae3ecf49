//! Fuzzes input loading: a YAML stream (XRs, observed and extra resources, Compositions,
//! Functions are all read this way) or a JSON document, then writes every document back as
//! YAML and as an HCL value, and checks that the YAML fnhcl writes reads back as the same
//! document.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fnhcl_fuzz::targets::inputs(data));
