//! Fuzzes the HCL lexer and parser.
//!
//! For every UTF-8 input:
//! 1. the token stream is lossless: token texts plus the gaps between them reproduce the input,
//!    gaps hold only ' ' and '\t' (plus a leading U+FEFF BOM at offset 0), tokens are ordered,
//!    non-overlapping, on char boundaries, and the stream ends with a zero-width Eof at the end;
//! 2. `parse_file` and `parse_expression` do not panic.
#![no_main]

use fnhcl::source::SourceMap;
use fnhcl::syntax::lex::{TokenKind, lex};
use fnhcl::syntax::{parse_expression, parse_file};
use libfuzzer_sys::fuzz_target;

fn check_lossless(text: &str) {
    let tokens = lex(text);
    let last = tokens.last().expect("lex returned no tokens");
    assert_eq!(last.kind, TokenKind::Eof, "last token is not Eof");
    assert_eq!(
        (last.start as usize, last.end as usize),
        (text.len(), text.len()),
        "Eof is not zero-width at the end of input"
    );

    let mut rebuilt = String::with_capacity(text.len());
    let mut pos = 0usize;
    for (i, tok) in tokens.iter().enumerate() {
        let (start, end) = (tok.start as usize, tok.end as usize);
        assert!(start <= end, "token {i} {tok:?} has start > end");
        assert!(start >= pos, "token {i} {tok:?} overlaps or goes backwards (pos {pos})");
        assert!(end <= text.len(), "token {i} {tok:?} runs past end {}", text.len());
        assert!(
            text.is_char_boundary(start) && text.is_char_boundary(end),
            "token {i} {tok:?} is not on char boundaries"
        );
        if tok.kind != TokenKind::Eof {
            assert!(start < end, "token {i} {tok:?} is empty");
        } else {
            assert_eq!(i, tokens.len() - 1, "Eof token {i} is not the last token");
        }
        let mut gap = &text[pos..start];
        if pos == 0 {
            gap = gap.strip_prefix('\u{feff}').unwrap_or(gap);
        }
        assert!(
            gap.bytes().all(|b| b == b' ' || b == b'\t'),
            "gap {pos}..{start} before token {i} {tok:?} holds {:?}",
            &text[pos..start]
        );
        rebuilt.push_str(&text[pos..start]);
        rebuilt.push_str(&text[start..end]);
        pos = end;
    }
    rebuilt.push_str(&text[pos..]);
    assert_eq!(pos, text.len(), "tokens stop before the end of input");
    assert_eq!(rebuilt, text, "token stream is not lossless");
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_lossless(text);

    let mut map = SourceMap::new();
    let id = map.add("fuzz.hcl", text);
    let file = map.get(id);
    let parsed = parse_file(file);
    std::hint::black_box(&parsed.body);
    std::hint::black_box(&parsed.diagnostics);
    let (expr, diagnostics) = parse_expression(file);
    std::hint::black_box(&expr);
    std::hint::black_box(&diagnostics);
});
