//! Fuzzes the formatter.
//!
//! For every UTF-8 input: plain formatting (`hclwrite.Format`) does not panic. For inputs that
//! parse and that fnhcl formats (it refuses the rare input where hclwrite's spacing would merge
//! two tokens, such as `0. 0.x`): the output parses, formatting it again changes nothing, and
//! the syntax tree is the same as the input's once positions are ignored.
#![no_main]

use fnhcl::fmt::{FormatError, format, format_file};
use fnhcl::source::SourceMap;
use fnhcl::syntax::parse_file;
use libfuzzer_sys::fuzz_target;

/// The parsed tree without positions (`12..34` ranges blanked).
fn shape(map: &SourceMap, id: fnhcl::source::FileId) -> String {
    let debug = format!("{:?}", parse_file(map.get(id)).body);
    let mut out = String::with_capacity(debug.len());
    let mut chars = debug.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut run = String::from(c);
            while let Some(&d) = chars.peek() {
                if d.is_ascii_digit() || d == '.' {
                    run.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            out.push_str(if run.contains("..") { "_" } else { &run });
        } else {
            out.push(c);
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = format(text);
    let mut map = SourceMap::new();
    let id = map.add("in.hcl", text.to_string());
    if parse_file(map.get(id)).has_errors() {
        return;
    }
    let once = match format_file(map.get(id), true) {
        Ok(out) => out,
        Err(FormatError::Unsafe) => return,
        Err(FormatError::Syntax(_)) => panic!("a file that parses was reported as broken"),
    };
    let out_id = map.add("out.hcl", once.clone());
    assert!(!parse_file(map.get(out_id)).has_errors(), "the output does not parse");
    let twice = format_file(map.get(out_id), true).expect("the output formats safely");
    assert_eq!(once, twice, "formatting is not idempotent");
    assert_eq!(shape(&map, id), shape(&map, out_id), "the syntax tree changed");
});
