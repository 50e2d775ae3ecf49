//! Go's `encoding/pem.Decode`: the first well-formed PEM block in the input.

use crate::eval::functions::encoding::go_base64_decode;

/// A PEM block.
pub(super) struct Block {
    /// The type from the `-----BEGIN <type>-----` line.
    pub kind: String,
    /// Header lines (`Proc-Type: 4,ENCRYPTED`), in order.
    pub headers: Vec<(String, String)>,
    /// The decoded body.
    pub bytes: Vec<u8>,
}

const START: &[u8] = b"\n-----BEGIN ";
const END: &[u8] = b"\n-----END ";
const END_OF_LINE: &[u8] = b"-----";

/// Go's `getLine`: the line without its `\n` or `\r\n` and trailing spaces and tabs, and the
/// rest after the line break.
fn get_line(data: &[u8]) -> (&[u8], &[u8]) {
    let (mut i, j) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (i, i + 1),
        None => (data.len(), data.len()),
    };
    if j > i && i > 0 && data[i - 1] == b'\r' {
        i -= 1;
    }
    let mut line = &data[..i];
    while let [rest @ .., b' ' | b'\t'] = line {
        line = rest;
    }
    (line, &data[j..])
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn trim(s: &[u8]) -> &[u8] {
    s.trim_ascii()
}

/// `pem.Decode`: skips anything before a block and any block that does not parse.
pub(super) fn decode(data: &[u8]) -> Option<Block> {
    let mut rest = data;
    loop {
        if rest.starts_with(&START[1..]) {
            rest = &rest[START.len() - 1..];
        } else if let Some(i) = find(rest, START) {
            rest = &rest[i + START.len()..];
        } else {
            return None;
        }
        let (type_line, after) = get_line(rest);
        rest = after;
        let Some(kind) = type_line.strip_suffix(END_OF_LINE) else {
            continue;
        };
        let mut headers = Vec::new();
        loop {
            if rest.is_empty() {
                return None;
            }
            let (line, next) = get_line(rest);
            let Some(colon) = line.iter().position(|&b| b == b':') else {
                break;
            };
            let key = String::from_utf8_lossy(trim(&line[..colon])).into_owned();
            let value = String::from_utf8_lossy(trim(&line[colon + 1..])).into_owned();
            headers.retain(|(k, _): &(String, String)| *k != key);
            headers.push((key, value));
            rest = next;
        }
        let (end_index, end_trailer_index) = if headers.is_empty() && rest.starts_with(&END[1..]) {
            (0, END.len() - 1)
        } else {
            match find(rest, END) {
                Some(i) => (i, i + END.len()),
                None => continue,
            }
        };
        let end_trailer = &rest[end_trailer_index..];
        let trailer_len = kind.len() + END_OF_LINE.len();
        if end_trailer.len() < trailer_len {
            continue;
        }
        let (trailer, rest_of_end_line) = end_trailer.split_at(trailer_len);
        if !trailer.starts_with(kind) || !trailer.ends_with(END_OF_LINE) {
            continue;
        }
        if !get_line(rest_of_end_line).0.is_empty() {
            continue;
        }
        let body: Vec<u8> = rest[..end_index]
            .iter()
            .copied()
            .filter(|&b| b != b' ' && b != b'\t')
            .collect();
        let Ok(bytes) = go_base64_decode(&body) else {
            continue;
        };
        return Some(Block {
            kind: String::from_utf8_lossy(kind).into_owned(),
            headers,
            bytes,
        });
    }
}
