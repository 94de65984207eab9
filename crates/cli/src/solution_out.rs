//! `--solution-out`: a minimum solution written row by row, straight to the
//! file (through [`crate::safe_write::write_with`]), never assembled in
//! memory first: a text grid, a binary PBM (P4, one bit per cell) or a
//! 1-bit PNG (the `png` crate's stream writer), one pixel per cell, black =
//! pressed.

use std::io::{self, Write};

use lights_compiler::model::Presses;

/// The press counts as a text grid: `.` for none, else the count, columns
/// aligned.
pub(crate) fn write_text(out: &mut dyn Write, cols: usize, presses: &Presses) -> io::Result<()> {
    let cols = cols.max(1);
    if presses.is_binary() {
        return write_binary_text(out, cols, presses);
    }
    let width = presses.max().max(1).to_string().len();
    let mut line = Vec::with_capacity(cols * (width + 1));
    let mut row = Vec::with_capacity(cols);
    for start in (0..presses.len()).step_by(cols) {
        presses.row_into(start, cols, &mut row);
        line.clear();
        for (c, &v) in row.iter().enumerate() {
            if c > 0 {
                line.push(b' ');
            }
            if v < 10 {
                // One character, the common case (W = 2 has only 0 and 1).
                line.resize(line.len() + width - 1, b' ');
                line.push(if v == 0 { b'.' } else { b'0' + v as u8 });
            } else {
                write!(line, "{v:>width$}")?;
            }
        }
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}

/// The text of 8 cells, one byte of a row's bits (first cell in bit 0):
/// `1` or `.`, each followed by a space.
const TEXT_OF_BYTE: [[u8; 16]; 256] = {
    let mut table = [[b' '; 16]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut cell = 0;
        while cell < 8 {
            table[byte][2 * cell] = if (byte >> cell) & 1 == 1 { b'1' } else { b'.' };
            cell += 1;
        }
        byte += 1;
    }
    table
};

/// Text gathered before a write: large enough that the buffered writer
/// passes it straight to the file (no second copy) and the kernel gets few
/// large writes.
const TEXT_BATCH: usize = 1 << 20;

/// [`write_text`] for W = 2: `.` and `1`, 8 cells (16 bytes of text) a
/// table look-up, rows gathered into writes of about [`TEXT_BATCH`] bytes.
fn write_binary_text(out: &mut dyn Write, cols: usize, presses: &Presses) -> io::Result<()> {
    let line_len = 2 * cols;
    let (mut bits, mut text) = (Vec::new(), Vec::with_capacity(TEXT_BATCH.max(line_len) + line_len + 16));
    for start in (0..presses.len()).step_by(cols) {
        presses.pressed_bits_into(start, cols, &mut bits);
        let line_start = text.len();
        for &word in &bits {
            for byte in word.to_le_bytes() {
                text.extend_from_slice(&TEXT_OF_BYTE[usize::from(byte)]);
            }
        }
        // The padding of the last word goes; the last cell ends the line.
        text.truncate(line_start + line_len);
        text[line_start + line_len - 1] = b'\n';
        if text.len() >= TEXT_BATCH {
            out.write_all(&text)?;
            text.clear();
        }
    }
    out.write_all(&text)
}

/// One row of `cols` cells packed 8 a byte, first cell in the high bit, a
/// bit set where `pressed` says (or where it does not, with `invert`);
/// padding bits are 0. Appended to `packed`.
fn pack_row(bits: &[u64], cols: usize, invert: bool, packed: &mut Vec<u8>) {
    let start = packed.len();
    for &w in bits {
        let w = if invert { !w } else { w };
        // Each byte's bits reversed (cell 0 to the high bit), bytes kept in
        // order: a word at a time.
        packed.extend_from_slice(&w.reverse_bits().swap_bytes().to_le_bytes());
    }
    packed.truncate(start + cols.div_ceil(8));
    if !cols.is_multiple_of(8) {
        if let Some(last) = packed.last_mut() {
            *last &= 0xFFu8 << (8 - cols % 8);
        }
    }
}

/// A binary PBM (P4): 1 = pressed, rows padded to whole bytes.
pub(crate) fn write_pbm(
    out: &mut dyn Write,
    name: &str,
    rows: usize,
    cols: usize,
    presses: &Presses,
) -> io::Result<()> {
    // A comment must stay on its line.
    let name: String = name.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    write!(out, "P4\n# minimum solution of \"{name}\": 1 = press\n{cols} {rows}\n")?;
    let (mut bits, mut packed) = (Vec::new(), Vec::new());
    for r in 0..rows {
        presses.pressed_bits_into(r * cols, cols, &mut bits);
        packed.clear();
        pack_row(&bits, cols, false, &mut packed);
        out.write_all(&packed)?;
    }
    Ok(())
}

/// A 1-bit greyscale PNG: white = not pressed, black = pressed.
///
/// One zlib stream, cut into IDAT chunks of [`IDAT_LEN`] as the rows come:
/// compressed by `fdeflate` (the `png` crate's fastest setting), rows
/// unfiltered or filtered Up, when a sample of the rows says one of them
/// shrinks the data, else the rows unfiltered in stored blocks. fdeflate's
/// codes are built for runs of zero bytes: Up turns blank stretches into
/// them, no filter keeps those of a narrow image (a one-column board). A
/// minimum solution on a large board is often as random as noise:
/// compressing made such an image a third larger than its bits (17.1 MB for
/// a 10,000² board, 12.5 MB stored) and took longer than the rest of the
/// run; a sparse one shrinks a hundredfold.
pub(crate) fn write_png(out: &mut dyn Write, rows: usize, cols: usize, presses: &Presses) -> io::Result<()> {
    let size = |n: usize| u32::try_from(n).map_err(|_| io::Error::other(format!("{n} pixels is too large for a PNG")));
    let mut encoder = png::Encoder::new(out, size(cols)?, size(rows)?);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::One);
    let mut writer = encoder.write_header().map_err(png_error)?;
    let mut idat = Idat { writer: &mut writer, chunk: Vec::with_capacity(IDAT_LEN), error: None };
    let (mut bits, mut row, mut line) = (Vec::new(), Vec::new(), Vec::new());
    if let Some(filter) = png_compression(presses, rows, cols) {
        // fdeflate's compressor cannot report a failed write of its header
        // or checksum (it unwraps them): `Idat` never fails, it keeps the
        // first error for the end.
        let mut zlib = fdeflate::Compressor::new(&mut idat)?;
        let mut above = vec![0; cols.div_ceil(8)];
        for r in 0..rows {
            png_row(presses, cols, r, &mut bits, &mut row);
            scanline(filter, &row, &above, &mut line);
            zlib.write_data(&line)?;
            std::mem::swap(&mut row, &mut above);
        }
        zlib.finish()?;
    } else {
        let mut zlib = Stored::new(&mut idat);
        for r in 0..rows {
            png_row(presses, cols, r, &mut bits, &mut row);
            zlib.write_data(&[PngFilter::None as u8])?;
            zlib.write_data(&row)?;
        }
        zlib.finish()?;
    }
    idat.end()?;
    writer.finish().map_err(png_error)
}

/// The bytes of one IDAT chunk (the last may be shorter).
const IDAT_LEN: usize = 1 << 20;

/// The sample that chooses how to write a PNG: at least this many rows
/// spread evenly over the image (or all of them)...
const SAMPLED_ROWS: usize = 256;
/// ... and at least this many bytes of scanlines.
const SAMPLED_BYTES: usize = 256 << 10;

fn png_error(e: png::EncodingError) -> io::Error {
    match e {
        png::EncodingError::IoError(e) => e,
        e => io::Error::other(e),
    }
}

/// Row `r` of the PNG packed into `out`: white (1) where not pressed.
fn png_row(presses: &Presses, cols: usize, r: usize, bits: &mut Vec<u64>, out: &mut Vec<u8>) {
    presses.pressed_bits_into(r * cols, cols, bits);
    out.clear();
    pack_row(bits, cols, true, out);
}

/// The two PNG row filters used (the type byte that starts a scanline).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PngFilter {
    None = 0,
    /// Each byte less the byte above it.
    Up = 2,
}

/// The scanline of `row` into `line`: its filter's type, then its bytes
/// filtered (`above` is all zeros for the first row).
fn scanline(filter: PngFilter, row: &[u8], above: &[u8], line: &mut Vec<u8>) {
    line.clear();
    line.push(filter as u8);
    match filter {
        PngFilter::None => line.extend_from_slice(row),
        PngFilter::Up => line.extend(row.iter().zip(above).map(|(x, a)| x.wrapping_sub(*a))),
    }
}

/// The filter under which `fdeflate` makes a sample of the rows (see
/// [`SAMPLED_ROWS`]) smallest, or `None` when neither makes it smaller
/// than stored blocks would.
fn png_compression(presses: &Presses, rows: usize, cols: usize) -> Option<PngFilter> {
    let stride = cols.div_ceil(8) + 1;
    let count = SAMPLED_ROWS.max(SAMPLED_BYTES / stride).min(rows).max(1);
    let step = rows.div_ceil(count).max(1);
    let (mut bits, mut row, mut above, mut line) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut plain, mut up) = (Vec::new(), Vec::new());
    for r in (0..rows).step_by(step) {
        if r == 0 {
            above = vec![0; cols.div_ceil(8)];
        } else {
            png_row(presses, cols, r - 1, &mut bits, &mut above);
        }
        png_row(presses, cols, r, &mut bits, &mut row);
        scanline(PngFilter::None, &row, &above, &mut line);
        plain.extend_from_slice(&line);
        scanline(PngFilter::Up, &row, &above, &mut line);
        up.extend_from_slice(&line);
    }
    let stored = fdeflate::StoredOnlyCompressor::<()>::compressed_size(plain.len());
    [(PngFilter::Up, up), (PngFilter::None, plain)]
        .into_iter()
        .map(|(filter, sample)| (fdeflate::compress_to_vec(&sample).len(), filter))
        .filter(|&(size, _)| size < stored)
        .min_by_key(|&(size, _)| size)
        .map(|(_, filter)| filter)
}

/// The zlib stream, gathered into IDAT chunks of [`IDAT_LEN`] bytes as it
/// comes. Writes never fail: the first error is kept for [`Idat::end`].
struct Idat<'a, W: Write> {
    writer: &'a mut png::Writer<W>,
    chunk: Vec<u8>,
    error: Option<io::Error>,
}

impl<W: Write> Idat<'_, W> {
    fn emit(&mut self) {
        if self.error.is_none() && !self.chunk.is_empty() {
            if let Err(e) = self.writer.write_chunk(png::chunk::IDAT, &self.chunk) {
                self.error = Some(png_error(e));
            }
        }
        self.chunk.clear();
    }

    /// The last chunk out; the first error met, if any.
    fn end(mut self) -> io::Result<()> {
        self.emit();
        self.error.map_or(Ok(()), Err)
    }
}

impl<W: Write> Write for Idat<'_, W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.error.is_some() {
            return Ok(data.len());
        }
        let take = data.len().min(IDAT_LEN - self.chunk.len());
        self.chunk.extend_from_slice(&data[..take]);
        if self.chunk.len() == IDAT_LEN {
            self.emit();
        }
        Ok(take)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A zlib stream of stored (uncompressed) DEFLATE blocks, written as the
/// data comes: header `78 01`, blocks of up to 65,535 bytes, each behind
/// its 5-byte header, then the Adler-32 of the data (RFC 1950, 1951).
struct Stored<W: Write> {
    out: W,
    block: Vec<u8>,
    adler: simd_adler32::Adler32,
    started: bool,
}

impl<W: Write> Stored<W> {
    const BLOCK: usize = u16::MAX as usize;

    fn new(out: W) -> Stored<W> {
        Stored { out, block: Vec::with_capacity(Self::BLOCK), adler: simd_adler32::Adler32::new(), started: false }
    }

    fn write_block(&mut self, last: bool) -> io::Result<()> {
        if !self.started {
            self.out.write_all(&[0x78, 0x01])?;
            self.started = true;
        }
        let len = u16::try_from(self.block.len()).expect("a stored block holds at most 65,535 bytes");
        let [lo, hi] = len.to_le_bytes();
        self.out.write_all(&[u8::from(last), lo, hi, !lo, !hi])?;
        self.out.write_all(&self.block)?;
        self.block.clear();
        Ok(())
    }

    fn write_data(&mut self, mut data: &[u8]) -> io::Result<()> {
        self.adler.write(data);
        while !data.is_empty() {
            let take = data.len().min(Self::BLOCK - self.block.len());
            self.block.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.block.len() == Self::BLOCK {
                self.write_block(false)?;
            }
        }
        Ok(())
    }

    fn finish(mut self) -> io::Result<W> {
        self.write_block(true)?;
        self.out.write_all(&self.adler.finish().to_be_bytes())?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRESSES: [u32; 12] = [0, 1, 0, 12, 3, 0, 0, 0, 1, 1, 1, 0];

    fn packed(values: &[u32]) -> Presses {
        Presses::from_values(values, 13)
    }

    #[test]
    fn text_aligns_columns() {
        let mut out = Vec::new();
        write_text(&mut out, 4, &packed(&PRESSES)).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), " .  1  . 12\n 3  .  .  .\n 1  1  1  .\n");
    }

    #[test]
    fn text_of_two_states_is_dots_and_ones() {
        let values: Vec<u32> = (0..70).map(|i| u32::from(i % 3 == 0)).collect();
        let mut out = Vec::new();
        write_text(&mut out, 35, &Presses::from_values(&values, 2)).unwrap();
        let want: String = values
            .chunks(35)
            .map(|row| row.iter().map(|&v| if v == 1 { "1" } else { "." }).collect::<Vec<_>>().join(" ") + "\n")
            .collect();
        assert_eq!(String::from_utf8(out).unwrap(), want);
    }

    /// More text than one batch, on a width that ends inside a word and
    /// inside a byte: the same lines as counts written one by one.
    #[test]
    fn text_of_many_rows_is_written_in_batches_unchanged() {
        let (rows, cols) = (700, 2003);
        assert!(rows * 2 * cols > 2 * TEXT_BATCH);
        let presses = noise(rows, cols, 100);
        let mut out = Vec::new();
        write_text(&mut out, cols, &presses).unwrap();
        let values = presses.to_vec();
        let mut want = String::new();
        for row in values.chunks(cols) {
            let cells: Vec<&str> = row.iter().map(|&v| if v == 1 { "1" } else { "." }).collect();
            want.push_str(&cells.join(" "));
            want.push('\n');
        }
        assert!(out == want.as_bytes(), "the text differs");
    }

    #[test]
    fn pbm_packs_a_bit_per_cell() {
        let presses: Vec<u32> = (0..20).map(|i| u32::from(i % 3 == 0)).collect();
        let mut out = Vec::new();
        write_pbm(&mut out, "a\nb", 2, 10, &Presses::from_values(&presses, 2)).unwrap();
        let header = b"P4\n# minimum solution of \"a b\": 1 = press\n10 2\n";
        assert_eq!(&out[..header.len()], header);
        // Row 1: cells 0, 3, 6, 9 pressed; row 2: cells 12, 15, 18 → 2, 5, 8.
        assert_eq!(&out[header.len()..], &[0b1001_0010, 0b0100_0000, 0b0010_0100, 0b1000_0000]);
    }

    #[test]
    fn png_decodes_to_the_presses() {
        let mut out = Vec::new();
        write_png(&mut out, 3, 4, &packed(&PRESSES)).unwrap();
        let mut decoder = png::Decoder::new(std::io::Cursor::new(out));
        decoder.ignore_checksums(false);
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!((info.width, info.height, info.bit_depth), (4, 3, png::BitDepth::One));
        for (r, row) in PRESSES.chunks(4).enumerate() {
            for (c, &v) in row.iter().enumerate() {
                let white = pixels[r * info.line_size] & (0x80 >> c) != 0;
                assert_eq!(white, v == 0, "cell {r},{c}");
            }
        }
    }

    /// `rows`×`cols` cells, each pressed with probability `density`/256
    /// (a xorshift generator: the same cells every run).
    fn noise(rows: usize, cols: usize, density: u64) -> Presses {
        let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ (rows * 31 + cols) as u64;
        let values: Vec<u32> = (0..rows * cols)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                u32::from(state % 256 < density)
            })
            .collect();
        Presses::from_values(&values, 2)
    }

    /// The IDAT chunks' lengths, and their data joined (the zlib stream).
    fn idat(png: &[u8]) -> (Vec<usize>, Vec<u8>) {
        let (mut at, mut lengths, mut data) = (8, Vec::new(), Vec::new());
        while at < png.len() {
            let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
            if &png[at + 4..at + 8] == b"IDAT" {
                lengths.push(len);
                data.extend_from_slice(&png[at + 8..at + 8 + len]);
            }
            at += 12 + len;
        }
        (lengths, data)
    }

    /// Noise is stored (a few bytes a block more than its bits), sparse
    /// presses and a one-column image are compressed; all decode, checksums checked, to exactly the presses, on
    /// widths that end inside a byte and inside a word.
    #[test]
    fn png_stores_noise_and_compresses_sparse_presses() {
        for (rows, cols, density) in
            [(1100, 8001, 128), (1100, 8001, 1), (37, 71, 128), (37, 71, 2), (1, 1, 255), (30_000, 1, 85)]
        {
            let presses = noise(rows, cols, density);
            let mut out = Vec::new();
            write_png(&mut out, rows, cols, &presses).unwrap();
            let mut decoder = png::Decoder::new(std::io::Cursor::new(&out));
            decoder.ignore_checksums(false);
            let mut reader = decoder.read_info().unwrap();
            let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
            let info = reader.next_frame(&mut pixels).unwrap();
            assert_eq!((info.width as usize, info.height as usize), (cols, rows));
            let mut bits = Vec::new();
            for r in 0..rows {
                presses.pressed_bits_into(r * cols, cols, &mut bits);
                for c in 0..cols {
                    let black = pixels[r * info.line_size + c / 8] & (0x80 >> (c % 8)) == 0;
                    assert_eq!(black, bits[c / 64] >> (c % 64) & 1 == 1, "{rows}×{cols}: cell {r},{c}");
                }
            }
            let (lengths, zlib) = idat(&out);
            assert!(lengths.iter().all(|&n| n <= IDAT_LEN), "{lengths:?}");
            let raw = rows * (cols.div_ceil(8) + 1);
            if density == 128 {
                // Stored: the raw scanlines, 5 bytes a 65,535-byte block, 6 of zlib.
                assert_eq!(zlib.len(), raw + 5 * raw.div_ceil(65_535) + 6, "{rows}×{cols} noise is stored");
            } else if cols == 1 && rows > 1000 {
                // A byte a row, 0x00 or 0x80: unfiltered, fdeflate's zero runs still pay.
                assert!(zlib.len() < raw * 3 / 4, "{rows}×1: {} bytes of {raw}", zlib.len());
            } else if rows > 1000 {
                assert!(zlib.len() < raw / 4, "{rows}×{cols} sparse: {} bytes of {raw}", zlib.len());
            }
            if zlib.len() > IDAT_LEN {
                assert!(lengths.len() > 1 && lengths[0] == IDAT_LEN, "{lengths:?}");
            }
        }
    }

    /// The choice itself: noise is stored, a blank-but-for-a-few image is
    /// filtered Up, a periodic column is left unfiltered (Up would start
    /// every row with a non-zero byte).
    #[test]
    fn png_compression_is_chosen_from_the_sample() {
        assert_eq!(png_compression(&noise(600, 999, 128), 600, 999), None);
        assert_eq!(png_compression(&noise(600, 999, 1), 600, 999), Some(PngFilter::Up));
        // Every third cell of a column, as a one-column board's chase gives.
        let thirds: Vec<u32> = (0..30_000).map(|i| u32::from(i % 3 == 0)).collect();
        assert_eq!(png_compression(&Presses::from_values(&thirds, 2), 30_000, 1), Some(PngFilter::None));
    }

    /// The stored stream by itself: blocks of at most 65,535 bytes (a
    /// stream of exactly one full block, and an empty one, included), then
    /// the Adler-32 of the data.
    #[test]
    fn stored_blocks_frame_the_data() {
        for len in [0usize, 1, 65_534, 65_535, 65_536, 200_000] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
            let mut zlib = Stored::new(Vec::new());
            // In uneven pieces, as rows come.
            for piece in data.chunks(1000 + len / 3) {
                zlib.write_data(piece).unwrap();
            }
            let out = zlib.finish().unwrap();
            assert_eq!(&out[..2], &[0x78, 0x01]);
            let (mut at, mut got) = (2, Vec::new());
            loop {
                let last = out[at] == 1;
                let n = usize::from(u16::from_le_bytes([out[at + 1], out[at + 2]]));
                assert_eq!(u16::from_le_bytes([out[at + 3], out[at + 4]]), !(n as u16));
                got.extend_from_slice(&out[at + 5..at + 5 + n]);
                at += 5 + n;
                if last {
                    break;
                }
                assert_eq!(n, 65_535, "only the last block is short");
            }
            assert_eq!(got, data);
            let mut adler = simd_adler32::Adler32::new();
            adler.write(&data);
            assert_eq!(&out[at..], &adler.finish().to_be_bytes(), "the checksum ends the stream");
        }
    }
}
