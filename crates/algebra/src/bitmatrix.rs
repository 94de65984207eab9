//! The bit-packed dense matrix over GF(2) ([`BitMatrix`]) and the word
//! operations the dense eliminators share. A leaf: it uses nothing else in
//! the crate, so `gf2_dense`, `gf2_m4ri` and `gf2_verify` can all build on it.
//! It is the workspace's one bit matrix: the compiler's fast paths keep
//! their boards of bits in it too (`lights_compiler::fast::bits::BitGrid`).

/// A dense matrix over GF(2), row-major, each row `words_per_row = cols.div_ceil(64)` words,
/// bit c of a row = word c/64, bit c%64. Bits past `cols` are always zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitMatrix {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// `cols.div_ceil(64)`.
    pub words_per_row: usize,
    /// `rows · words_per_row` words, row after row.
    pub data: Vec<u64>,
}

impl BitMatrix {
    /// The all-zero `rows × cols` matrix.
    pub fn zeros(rows: usize, cols: usize) -> Self {
        let words_per_row = cols.div_ceil(64);
        BitMatrix { rows, cols, words_per_row, data: vec![0; rows * words_per_row] }
    }

    /// [`zeros`](Self::zeros), or `None` when the memory is not there: a
    /// matrix sized by the caller's system can be board-sized (10⁸ rows),
    /// and must not abort the process. [`bytes`](Self::bytes) says how much
    /// was asked for.
    pub fn try_zeros(rows: usize, cols: usize) -> Option<Self> {
        let words_per_row = cols.div_ceil(64);
        let len = rows.checked_mul(words_per_row)?;
        let mut data = Vec::new();
        data.try_reserve_exact(len).ok()?;
        data.resize(len, 0);
        Some(BitMatrix { rows, cols, words_per_row, data })
    }

    /// The bytes of a `rows × cols` matrix (saturating).
    pub fn bytes(rows: usize, cols: usize) -> usize {
        rows.saturating_mul(cols.div_ceil(64)).saturating_mul(8)
    }

    /// The words of row `r`. Panics when `r >= rows`.
    pub fn row(&self, r: usize) -> &[u64] {
        &self.data[r * self.words_per_row..(r + 1) * self.words_per_row]
    }

    /// The words of row `r`, mutable (keep the bits past `cols` zero). Panics
    /// when `r >= rows`.
    pub fn row_mut(&mut self, r: usize) -> &mut [u64] {
        &mut self.data[r * self.words_per_row..(r + 1) * self.words_per_row]
    }

    /// Entry `(r, c)`. Panics when out of range.
    pub fn get(&self, r: usize, c: usize) -> bool {
        assert!(c < self.cols, "column {c} out of range 0..{}", self.cols);
        get_bit(self.row(r), c)
    }

    /// Sets entry `(r, c)`. Panics when out of range.
    pub fn set(&mut self, r: usize, c: usize, v: bool) {
        assert!(c < self.cols, "column {c} out of range 0..{}", self.cols);
        let word = &mut self.row_mut(r)[c / 64];
        if v {
            *word |= 1u64 << (c % 64);
        } else {
            *word &= !(1u64 << (c % 64));
        }
    }

    /// A·x, x = bits over columns; result = bits over rows.
    ///
    /// Missing words of `x` count as zero, extra words (and bits past `cols`)
    /// are ignored.
    pub fn mul_vec(&self, x: &[u64]) -> Vec<u64> {
        let mut out = vec![0u64; self.rows.div_ceil(64)];
        let mut xs = vec![0u64; self.words_per_row];
        for (d, s) in xs.iter_mut().zip(x) {
            *d = *s;
        }
        clear_tail(&mut xs, self.cols);
        for r in 0..self.rows {
            let acc = self.row(r).iter().zip(&xs).fold(0u64, |acc, (a, b)| acc ^ (a & b));
            if acc.count_ones() & 1 == 1 {
                out[r / 64] |= 1u64 << (r % 64);
            }
        }
        out
    }

    /// The number of entries that are 1.
    pub fn count_ones(&self) -> u64 {
        self.data.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// The transpose, by 64 × 64 bit blocks.
    pub fn transpose(&self) -> BitMatrix {
        self.transpose_into(BitMatrix::zeros(self.cols, self.rows))
    }

    /// [`transpose`](Self::transpose), or `None` when it does not fit.
    pub fn try_transpose(&self) -> Option<BitMatrix> {
        BitMatrix::try_zeros(self.cols, self.rows).map(|out| self.transpose_into(out))
    }

    fn transpose_into(&self, mut out: BitMatrix) -> BitMatrix {
        let mut block = [0u64; 64];
        for bi in 0..self.rows.div_ceil(64) {
            for bj in 0..self.words_per_row {
                for (k, w) in block.iter_mut().enumerate() {
                    let r = 64 * bi + k;
                    *w = if r < self.rows { self.data[r * self.words_per_row + bj] } else { 0 };
                }
                transpose64(&mut block);
                for (k, &w) in block.iter().enumerate().take(self.cols.saturating_sub(64 * bj)) {
                    out.data[(64 * bj + k) * out.words_per_row + bi] = w;
                }
            }
        }
        out
    }

    /// yᵀ·A, y = bits over rows; result = bits over columns.
    ///
    /// Missing words of `y` count as zero, bits past `rows` are ignored.
    pub fn transpose_mul_vec(&self, y: &[u64]) -> Vec<u64> {
        let mut out = vec![0u64; self.words_per_row];
        for r in (0..self.rows).filter(|&r| y.get(r / 64).is_some_and(|w| (w >> (r % 64)) & 1 == 1)) {
            xor_into(&mut out, self.row(r));
        }
        out
    }
}

/// Transposes a 64 × 64 bit block in place (bit `c` of word `r` ↔ bit `r` of
/// word `c`): swap the off-diagonal 32 × 32 blocks, then 16 × 16, … , 1 × 1.
pub(crate) fn transpose64(a: &mut [u64; 64]) {
    let mut j = 32;
    let mut m: u64 = 0x0000_0000_FFFF_FFFF;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k] ^= t << j;
            a[k + j] ^= t;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

pub(crate) fn get_bit(words: &[u64], i: usize) -> bool {
    (words[i / 64] >> (i % 64)) & 1 == 1
}

pub(crate) fn clear_tail(words: &mut [u64], len: usize) {
    if !len.is_multiple_of(64) {
        if let Some(w) = words.get_mut(len / 64) {
            *w &= (1u64 << (len % 64)) - 1;
        }
    }
}

pub(crate) fn xor_into(dst: &mut [u64], src: &[u64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= *s;
    }
}

/// `dst ^= a ^ b ^ c ^ d`, word by word (vectorised by the compiler).
#[inline]
pub(crate) fn xor4(dst: &mut [u64], a: &[u64], b: &[u64], c: &[u64], d: &[u64]) {
    let n = dst.len();
    let (a, b, c, d) = (&a[..n], &b[..n], &c[..n], &d[..n]);
    for i in 0..n {
        dst[i] ^= a[i] ^ b[i] ^ c[i] ^ d[i];
    }
}
