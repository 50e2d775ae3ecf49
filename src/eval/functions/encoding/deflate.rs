//! `base64gzip`'s gzip stream, byte for byte as Go's `gzip.Writer` writes it after `Write`,
//! `Flush` and `Close` at the default level: a port of the level-6 path of Go's
//! `compress/flate` as Go 1.7–1.25 ship it (lazy matching over hash chains, then per block
//! the smallest of stored, fixed-Huffman and dynamic-Huffman encodings). General-purpose
//! DEFLATE libraries choose different matches and codes, so their bytes differ.

mod huffman;

use flate2::Crc;
use huffman::{BitWriter, Token, match_token};

const WINDOW_SIZE: usize = 1 << 15;
const WINDOW_MASK: usize = WINDOW_SIZE - 1;
const MIN_MATCH_LENGTH: usize = 4;
const MAX_MATCH_LENGTH: usize = 258;
const BASE_MATCH_LENGTH: usize = 3;
const BASE_MATCH_OFFSET: usize = 1;
const MAX_FLATE_BLOCK_TOKENS: usize = 1 << 14;
const HASH_BITS: u32 = 17;
const HASH_SIZE: usize = 1 << HASH_BITS;
const HASH_MASK: u32 = (1 << HASH_BITS) - 1;
const MAX_HASH_OFFSET: usize = 1 << 24;
const WINDOW_BUFFER_SIZE: usize = 2 * WINDOW_SIZE;
/// Level 6: `compressionLevel{6, 8, 16, 128, 128, skipNever}`.
const GOOD: usize = 8;
const LAZY: usize = 16;
const NICE: usize = 128;
const CHAIN: usize = 128;

/// The gzip member Terraform's `base64gzip` produces for `data`.
pub(super) fn gzip(data: &[u8]) -> Vec<u8> {
    let mut d = Compressor::new();
    // Header: magic, deflate, no flags, mtime 0, XFL 0 (default level), OS 255 (unknown).
    d.w.out
        .extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
    d.write(data);
    d.sync_flush();
    d.close();
    let mut crc = Crc::new();
    crc.update(data);
    let mut out = d.w.out;
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

/// Go's `compressor` for level 6.
struct Compressor {
    w: BitWriter,
    tokens: Vec<Token>,
    window: Vec<u8>,
    index: usize,
    /// `None` for Go's `math.MaxInt32` (the block start slid out of the window).
    block_start: Option<usize>,
    length: usize,
    offset: usize,
    max_insert_index: isize,
    window_end: usize,
    chain_head: isize,
    hash_offset: usize,
    hash_head: Vec<u32>,
    hash_prev: Vec<u32>,
    byte_available: bool,
    sync: bool,
}

fn hash4(b: &[u8]) -> u32 {
    let v = u32::from(b[3]) | u32::from(b[2]) << 8 | u32::from(b[1]) << 16 | u32::from(b[0]) << 24;
    v.wrapping_mul(0x1e35a7bd) >> (32 - HASH_BITS)
}

impl Compressor {
    fn new() -> Compressor {
        Compressor {
            w: BitWriter::new(),
            tokens: Vec::with_capacity(MAX_FLATE_BLOCK_TOKENS + 1),
            window: vec![0; WINDOW_BUFFER_SIZE],
            index: 0,
            block_start: Some(0),
            length: MIN_MATCH_LENGTH - 1,
            offset: 0,
            max_insert_index: 0,
            window_end: 0,
            chain_head: -1,
            hash_offset: 1,
            hash_head: vec![0; HASH_SIZE],
            hash_prev: vec![0; WINDOW_SIZE],
            byte_available: false,
            sync: false,
        }
    }

    fn fill(&mut self, b: &[u8]) -> usize {
        if self.index >= WINDOW_BUFFER_SIZE - (MIN_MATCH_LENGTH + MAX_MATCH_LENGTH) {
            self.window.copy_within(WINDOW_SIZE..WINDOW_BUFFER_SIZE, 0);
            self.index -= WINDOW_SIZE;
            self.window_end -= WINDOW_SIZE;
            self.block_start = self
                .block_start
                .filter(|&s| s >= WINDOW_SIZE)
                .map(|s| s - WINDOW_SIZE);
            self.hash_offset += WINDOW_SIZE;
            if self.hash_offset > MAX_HASH_OFFSET {
                let delta = self.hash_offset - 1;
                self.hash_offset -= delta;
                self.chain_head -= delta as isize;
                for v in self.hash_prev.iter_mut().chain(self.hash_head.iter_mut()) {
                    *v = if *v as usize > delta {
                        (*v as usize - delta) as u32
                    } else {
                        0
                    };
                }
            }
        }
        let n = b.len().min(WINDOW_BUFFER_SIZE - self.window_end);
        self.window[self.window_end..self.window_end + n].copy_from_slice(&b[..n]);
        self.window_end += n;
        n
    }

    fn write_block(&mut self, index: usize) {
        if index > 0 {
            let window = match self.block_start {
                Some(start) if start <= index => Some(&self.window[start..index]),
                _ => None,
            };
            self.w.write_block(&self.tokens, window);
            self.block_start = Some(index);
        }
        self.tokens.clear();
    }

    fn find_match(&self, pos: usize, prev_head: isize, lookahead: usize) -> Option<(usize, usize)> {
        let min_match_look = lookahead.min(MAX_MATCH_LENGTH);
        let win = &self.window[..pos + min_match_look];
        let nice = NICE.min(win.len() - pos);
        let mut tries = CHAIN;
        let mut length = MIN_MATCH_LENGTH - 1;
        if length >= GOOD {
            tries >>= 2;
        }
        let mut w_end = win[pos + length];
        let w_pos = &win[pos..];
        let min_index = pos as isize - WINDOW_SIZE as isize;
        let mut found = None;
        let mut i = prev_head;
        while tries > 0 {
            let iu = i as usize;
            if w_end == win[iu + length] {
                let n = win[iu..iu + min_match_look]
                    .iter()
                    .zip(w_pos)
                    .take_while(|(a, b)| a == b)
                    .count();
                if n > length && (n > MIN_MATCH_LENGTH || pos - iu <= 4096) {
                    length = n;
                    found = Some((n, pos - iu));
                    if n >= nice {
                        break;
                    }
                    w_end = win[pos + n];
                }
            }
            if i == min_index {
                break;
            }
            i = self.hash_prev[iu & WINDOW_MASK] as isize - self.hash_offset as isize;
            if i < min_index || i < 0 {
                break;
            }
            tries -= 1;
        }
        found
    }

    fn insert(&mut self, index: usize) -> u32 {
        let hash = hash4(&self.window[index..index + MIN_MATCH_LENGTH]);
        (hash & HASH_MASK) as usize as u32
    }

    fn deflate(&mut self) {
        if self.window_end - self.index < MIN_MATCH_LENGTH + MAX_MATCH_LENGTH && !self.sync {
            return;
        }
        self.max_insert_index = self.window_end as isize - (MIN_MATCH_LENGTH as isize - 1);
        loop {
            let lookahead = self.window_end - self.index;
            if lookahead < MIN_MATCH_LENGTH + MAX_MATCH_LENGTH {
                if !self.sync {
                    break;
                }
                if lookahead == 0 {
                    if self.byte_available {
                        self.tokens.push(Token::from(self.window[self.index - 1]));
                        self.byte_available = false;
                    }
                    if !self.tokens.is_empty() {
                        self.write_block(self.index);
                    }
                    break;
                }
            }
            if (self.index as isize) < self.max_insert_index {
                let h = self.insert(self.index) as usize;
                self.chain_head = self.hash_head[h] as isize;
                self.hash_prev[self.index & WINDOW_MASK] = self.chain_head as u32;
                self.hash_head[h] = (self.index + self.hash_offset) as u32;
            }
            let prev_length = self.length;
            let prev_offset = self.offset;
            self.length = MIN_MATCH_LENGTH - 1;
            self.offset = 0;
            let min_index = self.index.saturating_sub(WINDOW_SIZE) as isize;
            let head = self.chain_head - self.hash_offset as isize;
            if head >= min_index && lookahead > prev_length && prev_length < LAZY {
                if let Some((length, offset)) = self.find_match(self.index, head, lookahead) {
                    self.length = length;
                    self.offset = offset;
                }
            }
            if prev_length >= MIN_MATCH_LENGTH && self.length <= prev_length {
                self.tokens.push(match_token(
                    (prev_length - BASE_MATCH_LENGTH) as u32,
                    (prev_offset - BASE_MATCH_OFFSET) as u32,
                ));
                let new_index = self.index + prev_length - 1;
                let mut index = self.index + 1;
                while index < new_index {
                    if (index as isize) < self.max_insert_index {
                        let h = self.insert(index) as usize;
                        self.hash_prev[index & WINDOW_MASK] = self.hash_head[h];
                        self.hash_head[h] = (index + self.hash_offset) as u32;
                    }
                    index += 1;
                }
                self.index = index;
                self.byte_available = false;
                self.length = MIN_MATCH_LENGTH - 1;
                if self.tokens.len() == MAX_FLATE_BLOCK_TOKENS {
                    self.write_block(self.index);
                }
            } else {
                if self.byte_available {
                    let i = self.index - 1;
                    self.tokens.push(Token::from(self.window[i]));
                    if self.tokens.len() == MAX_FLATE_BLOCK_TOKENS {
                        self.write_block(i + 1);
                    }
                }
                self.index += 1;
                self.byte_available = true;
            }
        }
    }

    fn write(&mut self, mut b: &[u8]) {
        while !b.is_empty() {
            self.deflate();
            let n = self.fill(b);
            b = &b[n..];
        }
    }

    fn sync_flush(&mut self) {
        self.sync = true;
        self.deflate();
        self.w.write_stored_header(0, false);
        self.w.flush();
        self.sync = false;
    }

    fn close(&mut self) {
        self.sync = true;
        self.deflate();
        self.w.write_stored_header(0, true);
        self.w.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::gzip;
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;

    fn b64(data: &[u8]) -> String {
        STANDARD.encode(gzip(data))
    }

    #[test]
    fn matches_go_byte_for_byte() {
        // From the Go oracle (gzip.Writer: Write, Flush, Close).
        assert_eq!(b64(b""), "H4sIAAAAAAAA/wAAAP//AQAA//8AAAAAAAAAAA==");
        assert_eq!(b64(b"test"), "H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA");
        assert_eq!(
            b64(b"hello hello hello hello hello"),
            "H4sIAAAAAAAA/8pIzcnJV8BBAgAAAP//AQAA///20lM4HQAAAA=="
        );
        assert_eq!(
            b64(&[b'a'; 67]),
            "H4sIAAAAAAAA/0qkHAAAAAD//wEAAP//iHf2TkMAAAA="
        );
    }

    #[test]
    fn header_is_gos() {
        let gz = gzip(b"x");
        // No name, mtime 0, XFL 0, OS 255.
        assert_eq!(&gz[..10], &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
    }
}
