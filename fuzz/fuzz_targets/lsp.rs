//! Fuzzes the language server: framed bytes or a described editor session (documents opened,
//! edited, closed; requests at any position; renames; cancels; junk bodies) played over an
//! in-memory connection, as `fnhcl lsp` plays stdin.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fnhcl_fuzz::targets::lsp(data));
