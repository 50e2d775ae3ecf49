//! What is around the cursor: the word under it, the innermost block holding it.

use crate::syntax::ast::Body;

/// The identifier (letters, digits, `_`, `-`, `:`) around `offset`, as a byte range.
pub fn word_at(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '-' || c == ':';
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_ident(*c))
        .last()
        .map_or(offset, |(i, _)| i);
    let end = text[offset..]
        .char_indices()
        .find(|(_, c)| !is_ident(*c))
        .map_or(text.len(), |(i, _)| offset + i);
    (start, end)
}

/// The innermost block around `offset`: its type (`None` at the top level) and body.
pub fn innermost_block(body: &Body, offset: usize) -> (Option<String>, &Body) {
    let mut kind = None;
    let mut body = body;
    while let Some(block) = body
        .blocks
        .iter()
        .find(|b| b.open_brace.end as usize <= offset && offset <= b.close_brace.start as usize)
    {
        kind = Some(block.kind.clone());
        body = &block.body;
    }
    (kind, body)
}

/// The 0-based line of a byte offset (past the end: the last line).
pub fn line_of(text: &str, offset: usize) -> u32 {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_include_dashes_and_colons() {
        let text = "x = local.my-name + 1";
        let at = text.find("name").unwrap();
        let (s, e) = word_at(text, at);
        assert_eq!(&text[s..e], "my-name");
    }
}
