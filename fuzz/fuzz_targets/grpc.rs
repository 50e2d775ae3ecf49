//! Fuzzes `fnhcl function serve`'s request path: wire bytes (or a generated program sent
//! inline) through the depth-checking decoder, the conversion, the function under a 2-second
//! deadline, and the response's encoding and decoding.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fnhcl_fuzz::targets::grpc(data));
