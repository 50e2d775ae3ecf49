//! Go's `huffman_bit_writer.go` and `huffman_code.go` (Go 1.7–1.25): blocks written stored,
//! with the fixed codes or with dynamic codes — whichever Go's size estimate picks — and
//! Go's length-limited Huffman code construction, so the bits match Go's exactly.

/// A token: a literal byte, or a match (`MATCH_TYPE | length-3 << 22 | offset-1`).
pub(super) type Token = u32;

pub(super) const MATCH_TYPE: u32 = 1 << 30;
const LENGTH_SHIFT: u32 = 22;
const OFFSET_MASK: u32 = (1 << LENGTH_SHIFT) - 1;
const END_BLOCK_MARKER: Token = 256;
const MAX_NUM_LIT: usize = 286;
const OFFSET_CODE_COUNT: usize = 30;
const CODEGEN_CODE_COUNT: usize = 19;
const LENGTH_CODES_START: usize = 257;
const BAD_CODE: u8 = 255;
const MAX_STORE_BLOCK_SIZE: usize = 65535;

const LENGTH_EXTRA_BITS: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const LENGTH_BASE: [u32; 29] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128,
    160, 192, 224, 255,
];
const OFFSET_EXTRA_BITS: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];
const OFFSET_BASE: [u32; 30] = [
    0x0000, 0x0001, 0x0002, 0x0003, 0x0004, 0x0006, 0x0008, 0x000c, 0x0010, 0x0018, 0x0020, 0x0030,
    0x0040, 0x0060, 0x0080, 0x00c0, 0x0100, 0x0180, 0x0200, 0x0300, 0x0400, 0x0600, 0x0800, 0x0c00,
    0x1000, 0x1800, 0x2000, 0x3000, 0x4000, 0x6000,
];
const CODEGEN_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

pub(super) fn match_token(length: u32, offset: u32) -> Token {
    MATCH_TYPE | (length << LENGTH_SHIFT) | offset
}

fn code_for(base: &[u32], value: u32) -> usize {
    base.partition_point(|&b| b <= value) - 1
}

/// Go's `lengthCode`: the length code (0–28) of `length - 3`.
fn length_code(length: u32) -> usize {
    code_for(&LENGTH_BASE, length)
}

/// Go's `offsetCode`: the distance code (0–29) of `offset - 1`.
fn offset_code(offset: u32) -> usize {
    code_for(&OFFSET_BASE, offset)
}

#[derive(Clone, Copy, Default)]
struct HCode {
    code: u16,
    len: u16,
}

fn reverse_bits(number: u16, bit_length: u16) -> u16 {
    (number << (16 - bit_length)).reverse_bits()
}

/// Go's `huffmanEncoder`.
struct Encoder {
    codes: Vec<HCode>,
}

impl Encoder {
    fn new(size: usize) -> Encoder {
        Encoder {
            codes: vec![HCode::default(); size],
        }
    }

    fn fixed_literal() -> Encoder {
        let mut h = Encoder::new(MAX_NUM_LIT);
        for ch in 0..MAX_NUM_LIT as u16 {
            let (bits, size) = match ch {
                0..144 => (ch + 0x30, 8),
                144..256 => (ch - 144 + 0x190, 9),
                256..280 => (ch - 256, 7),
                _ => (ch - 280 + 0xc0, 8),
            };
            h.codes[usize::from(ch)] = HCode {
                code: reverse_bits(bits, size),
                len: size,
            };
        }
        h
    }

    fn fixed_offset() -> Encoder {
        let mut h = Encoder::new(OFFSET_CODE_COUNT);
        for ch in 0..OFFSET_CODE_COUNT as u16 {
            h.codes[usize::from(ch)] = HCode {
                code: reverse_bits(ch, 5),
                len: 5,
            };
        }
        h
    }

    fn bit_length(&self, freq: &[i32]) -> i64 {
        freq.iter()
            .zip(&self.codes)
            .filter(|(f, _)| **f != 0)
            .map(|(f, c)| i64::from(*f) * i64::from(c.len))
            .sum()
    }

    /// Go's `generate`.
    fn generate(&mut self, freq: &[i32], max_bits: i32) {
        let mut list: Vec<(u16, i32)> = Vec::with_capacity(freq.len() + 1);
        for (i, &f) in freq.iter().enumerate() {
            if f != 0 {
                list.push((i as u16, f));
            } else {
                self.codes[i].len = 0;
            }
        }
        if list.len() <= 2 {
            for (i, &(lit, _)) in list.iter().enumerate() {
                self.codes[usize::from(lit)] = HCode {
                    code: i as u16,
                    len: 1,
                };
            }
            return;
        }
        list.sort_by_key(|&(lit, f)| (f, lit));
        let bit_count = bit_counts(&list, max_bits);
        // assignEncodingAndSize
        let mut code: u16 = 0;
        let mut rest = list.len();
        for (n, &bits) in bit_count.iter().enumerate() {
            code <<= 1;
            if n == 0 || bits == 0 {
                continue;
            }
            let start = rest - bits as usize;
            let mut chunk = list[start..rest].to_vec();
            chunk.sort_by_key(|&(lit, _)| lit);
            for (lit, _) in chunk {
                self.codes[usize::from(lit)] = HCode {
                    code: reverse_bits(code, n as u16),
                    len: n as u16,
                };
                code = code.wrapping_add(1);
            }
            rest = start;
        }
    }
}

/// Go's `bitCounts`: how many literals get each code length (index 1..=max_bits), by the
/// package-merge style walk Go uses. `list` is sorted by frequency.
fn bit_counts(list: &[(u16, i32)], max_bits: i32) -> Vec<i32> {
    #[derive(Clone, Copy, Default)]
    struct Level {
        last_freq: i32,
        next_char_freq: i32,
        next_pair_freq: i32,
        needed: i32,
    }
    let n = list.len() as i32;
    let freq = |i: i32| list.get(i as usize).map_or(i32::MAX, |&(_, f)| f);
    let max_bits = max_bits.min(n - 1) as usize;
    let mut levels = [Level::default(); 16];
    let mut leaf_counts = [[0i32; 16]; 16];
    for level in 1..=max_bits {
        levels[level] = Level {
            last_freq: freq(1),
            next_char_freq: freq(2),
            next_pair_freq: if level == 1 {
                i32::MAX
            } else {
                freq(0) + freq(1)
            },
            needed: 0,
        };
        leaf_counts[level][level] = 2;
    }
    levels[max_bits].needed = 2 * n - 4;
    let mut level = max_bits;
    loop {
        let l = levels[level];
        if l.next_pair_freq == i32::MAX && l.next_char_freq == i32::MAX {
            levels[level].needed = 0;
            levels[level + 1].next_pair_freq = i32::MAX;
            level += 1;
            continue;
        }
        let prev_freq = l.last_freq;
        if l.next_char_freq < l.next_pair_freq {
            let next = leaf_counts[level][level] + 1;
            levels[level].last_freq = l.next_char_freq;
            leaf_counts[level][level] = next;
            levels[level].next_char_freq = freq(next);
        } else {
            levels[level].last_freq = l.next_pair_freq;
            let (lower, upper) = leaf_counts.split_at_mut(level);
            upper[0][..level].copy_from_slice(&lower[level - 1][..level]);
            levels[level - 1].needed = 2;
        }
        levels[level].needed -= 1;
        if levels[level].needed == 0 {
            if level == max_bits {
                break;
            }
            levels[level + 1].next_pair_freq = prev_freq + levels[level].last_freq;
            level += 1;
        } else {
            while levels[level - 1].needed > 0 {
                level -= 1;
            }
        }
    }
    let mut bit_count = vec![0; max_bits + 1];
    let counts = &leaf_counts[max_bits];
    for (bits, level) in (1..=max_bits).zip((1..=max_bits).rev()) {
        bit_count[bits] = counts[level] - counts[level - 1];
    }
    bit_count
}

/// Go's `huffmanBitWriter`, writing into a byte vector.
pub(super) struct BitWriter {
    pub out: Vec<u8>,
    bits: u64,
    nbits: u32,
    literal_freq: Vec<i32>,
    offset_freq: Vec<i32>,
    codegen: Vec<u8>,
    codegen_freq: [i32; CODEGEN_CODE_COUNT],
    literal_encoding: Encoder,
    offset_encoding: Encoder,
    codegen_encoding: Encoder,
    fixed_literal: Encoder,
    fixed_offset: Encoder,
}

impl BitWriter {
    pub(super) fn new() -> BitWriter {
        BitWriter {
            out: Vec::new(),
            bits: 0,
            nbits: 0,
            literal_freq: vec![0; MAX_NUM_LIT],
            offset_freq: vec![0; OFFSET_CODE_COUNT],
            codegen: Vec::new(),
            codegen_freq: [0; CODEGEN_CODE_COUNT],
            literal_encoding: Encoder::new(MAX_NUM_LIT),
            offset_encoding: Encoder::new(OFFSET_CODE_COUNT),
            codegen_encoding: Encoder::new(CODEGEN_CODE_COUNT),
            fixed_literal: Encoder::fixed_literal(),
            fixed_offset: Encoder::fixed_offset(),
        }
    }

    fn write_bits(&mut self, b: u32, nb: u32) {
        self.bits |= u64::from(b) << self.nbits;
        self.nbits += nb;
        while self.nbits >= 8 {
            self.out.push(self.bits as u8);
            self.bits >>= 8;
            self.nbits -= 8;
        }
    }

    fn write_code(&mut self, c: HCode) {
        self.write_bits(u32::from(c.code), u32::from(c.len));
    }

    /// Go's `flush`: pads the last partial byte with zeros.
    pub(super) fn flush(&mut self) {
        if self.nbits > 0 {
            self.out.push(self.bits as u8);
        }
        self.bits = 0;
        self.nbits = 0;
    }

    pub(super) fn write_stored_header(&mut self, length: usize, eof: bool) {
        self.write_bits(u32::from(eof), 3);
        self.flush();
        self.write_bits(length as u32, 16);
        self.write_bits(u32::from(!(length as u16)), 16);
    }

    /// Go's `writeBlock(tokens, false, input)`; `input` is `None` when Go's is nil.
    pub(super) fn write_block(&mut self, tokens: &[Token], input: Option<&[u8]>) {
        let mut tokens = tokens.to_vec();
        tokens.push(END_BLOCK_MARKER);
        let (num_literals, num_offsets) = self.index_tokens(&tokens);
        let mut extra_bits = 0i64;
        let stored = input.filter(|i| i.len() <= MAX_STORE_BLOCK_SIZE);
        if stored.is_some() {
            for code in LENGTH_CODES_START + 8..num_literals {
                extra_bits += i64::from(self.literal_freq[code])
                    * i64::from(LENGTH_EXTRA_BITS[code - LENGTH_CODES_START]);
            }
            let offsets = self.offset_freq.iter().zip(OFFSET_EXTRA_BITS);
            for (&freq, bits) in offsets.take(num_offsets).skip(4) {
                extra_bits += i64::from(freq) * i64::from(bits);
            }
        }
        let fixed_size = 3
            + self.fixed_literal.bit_length(&self.literal_freq)
            + self.fixed_offset.bit_length(&self.offset_freq)
            + extra_bits;
        self.generate_codegen(num_literals, num_offsets);
        let codegen_freq = self.codegen_freq;
        self.codegen_encoding.generate(&codegen_freq, 7);
        let mut num_codegens = CODEGEN_CODE_COUNT;
        while num_codegens > 4 && self.codegen_freq[CODEGEN_ORDER[num_codegens - 1]] == 0 {
            num_codegens -= 1;
        }
        let header = 3
            + 5
            + 5
            + 4
            + 3 * num_codegens as i64
            + self.codegen_encoding.bit_length(&self.codegen_freq)
            + i64::from(self.codegen_freq[16]) * 2
            + i64::from(self.codegen_freq[17]) * 3
            + i64::from(self.codegen_freq[18]) * 7;
        let dynamic_size = header
            + self.literal_encoding.bit_length(&self.literal_freq)
            + self.offset_encoding.bit_length(&self.offset_freq)
            + extra_bits;
        let dynamic = dynamic_size < fixed_size;
        let size = fixed_size.min(dynamic_size);
        if let Some(input) = stored
            && (((input.len() + 5) * 8) as i64) < size
        {
            self.write_stored_header(input.len(), false);
            self.flush();
            self.out.extend_from_slice(input);
            return;
        }
        let (lit, off) = if dynamic {
            self.write_dynamic_header(num_literals, num_offsets, num_codegens);
            (
                self.literal_encoding.codes.clone(),
                self.offset_encoding.codes.clone(),
            )
        } else {
            self.write_bits(2, 3);
            (
                self.fixed_literal.codes.clone(),
                self.fixed_offset.codes.clone(),
            )
        };
        for &t in &tokens {
            if t < MATCH_TYPE {
                self.write_code(lit[t as usize]);
                continue;
            }
            let length = (t - MATCH_TYPE) >> LENGTH_SHIFT;
            let lc = length_code(length);
            self.write_code(lit[lc + LENGTH_CODES_START]);
            if LENGTH_EXTRA_BITS[lc] > 0 {
                self.write_bits(length - LENGTH_BASE[lc], u32::from(LENGTH_EXTRA_BITS[lc]));
            }
            let offset = t & OFFSET_MASK;
            let oc = offset_code(offset);
            self.write_code(off[oc]);
            if OFFSET_EXTRA_BITS[oc] > 0 {
                self.write_bits(offset - OFFSET_BASE[oc], u32::from(OFFSET_EXTRA_BITS[oc]));
            }
        }
    }

    fn index_tokens(&mut self, tokens: &[Token]) -> (usize, usize) {
        self.literal_freq.fill(0);
        self.offset_freq.fill(0);
        for &t in tokens {
            if t < MATCH_TYPE {
                self.literal_freq[t as usize] += 1;
                continue;
            }
            let length = (t - MATCH_TYPE) >> LENGTH_SHIFT;
            self.literal_freq[LENGTH_CODES_START + length_code(length)] += 1;
            self.offset_freq[offset_code(t & OFFSET_MASK)] += 1;
        }
        let mut num_literals = MAX_NUM_LIT;
        while self.literal_freq[num_literals - 1] == 0 {
            num_literals -= 1;
        }
        let mut num_offsets = OFFSET_CODE_COUNT;
        while num_offsets > 0 && self.offset_freq[num_offsets - 1] == 0 {
            num_offsets -= 1;
        }
        if num_offsets == 0 {
            self.offset_freq[0] = 1;
            num_offsets = 1;
        }
        self.literal_encoding.generate(&self.literal_freq, 15);
        self.offset_encoding.generate(&self.offset_freq, 15);
        (num_literals, num_offsets)
    }

    /// Go's `generateCodegen`: the run-length coded code lengths, ending with `BAD_CODE`.
    fn generate_codegen(&mut self, num_literals: usize, num_offsets: usize) {
        self.codegen_freq = [0; CODEGEN_CODE_COUNT];
        let mut sizes: Vec<u8> = Vec::with_capacity(num_literals + num_offsets + 1);
        sizes.extend(
            self.literal_encoding.codes[..num_literals]
                .iter()
                .map(|c| c.len as u8),
        );
        sizes.extend(
            self.offset_encoding.codes[..num_offsets]
                .iter()
                .map(|c| c.len as u8),
        );
        sizes.push(BAD_CODE);
        let mut out = Vec::with_capacity(sizes.len());
        let freq = &mut self.codegen_freq;
        let mut size = sizes[0];
        let mut count: i32 = 1;
        let mut in_index = 1;
        while size != BAD_CODE {
            let next = sizes[in_index];
            in_index += 1;
            if next == size {
                count += 1;
                continue;
            }
            if size != 0 {
                out.push(size);
                freq[usize::from(size)] += 1;
                count -= 1;
                while count >= 3 {
                    let n = count.min(6);
                    out.extend([16, (n - 3) as u8]);
                    freq[16] += 1;
                    count -= n;
                }
            } else {
                while count >= 11 {
                    let n = count.min(138);
                    out.extend([18, (n - 11) as u8]);
                    freq[18] += 1;
                    count -= n;
                }
                if count >= 3 {
                    out.extend([17, (count - 3) as u8]);
                    freq[17] += 1;
                    count = 0;
                }
            }
            while count > 0 {
                out.push(size);
                freq[usize::from(size)] += 1;
                count -= 1;
            }
            size = next;
            count = 1;
        }
        out.push(BAD_CODE);
        self.codegen = out;
    }

    fn write_dynamic_header(
        &mut self,
        num_literals: usize,
        num_offsets: usize,
        num_codegens: usize,
    ) {
        self.write_bits(4, 3);
        self.write_bits((num_literals - 257) as u32, 5);
        self.write_bits((num_offsets - 1) as u32, 5);
        self.write_bits((num_codegens - 4) as u32, 4);
        for &i in &CODEGEN_ORDER[..num_codegens] {
            let len = self.codegen_encoding.codes[i].len;
            self.write_bits(u32::from(len), 3);
        }
        let codegen = std::mem::take(&mut self.codegen);
        let mut i = 0;
        loop {
            let word = codegen[i];
            i += 1;
            if word == BAD_CODE {
                break;
            }
            self.write_code(self.codegen_encoding.codes[usize::from(word)]);
            let extra = match word {
                16 => 2,
                17 => 3,
                18 => 7,
                _ => continue,
            };
            self.write_bits(u32::from(codegen[i]), extra);
            i += 1;
        }
        self.codegen = codegen;
    }
}
