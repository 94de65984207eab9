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

/// [`write_text`] for W = 2: `.` and `1`, read a word of cells at a time.
fn write_binary_text(out: &mut dyn Write, cols: usize, presses: &Presses) -> io::Result<()> {
    let (mut bits, mut line) = (Vec::new(), Vec::with_capacity(2 * cols));
    for start in (0..presses.len()).step_by(cols) {
        presses.pressed_bits_into(start, cols, &mut bits);
        line.clear();
        for c in 0..cols {
            line.push(if bits[c / 64] >> (c % 64) & 1 == 1 { b'1' } else { b'.' });
            line.push(b' ');
        }
        // The last cell ends the line.
        *line.last_mut().expect("a row has a cell") = b'\n';
        out.write_all(&line)?;
    }
    Ok(())
}

/// One row of `cols` cells packed 8 a byte, first cell in the high bit, a
/// bit set where `pressed` says (or where it does not, with `invert`);
/// padding bits are 0.
fn pack_row(bits: &[u64], cols: usize, invert: bool, packed: &mut Vec<u8>) {
    packed.clear();
    for &w in bits {
        let w = if invert { !w } else { w };
        packed.extend(w.to_le_bytes().iter().map(|b| b.reverse_bits()));
    }
    packed.truncate(cols.div_ceil(8));
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
        pack_row(&bits, cols, false, &mut packed);
        out.write_all(&packed)?;
    }
    Ok(())
}

/// A 1-bit greyscale PNG: white = not pressed, black = pressed.
pub(crate) fn write_png(out: &mut dyn Write, rows: usize, cols: usize, presses: &Presses) -> io::Result<()> {
    let size = |n: usize| u32::try_from(n).map_err(|_| io::Error::other(format!("{n} pixels is too large for a PNG")));
    let mut encoder = png::Encoder::new(out, size(cols)?, size(rows)?);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::One);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(io::Error::other)?;
    let mut stream = writer.stream_writer().map_err(io::Error::other)?;
    let (mut bits, mut packed) = (Vec::new(), Vec::new());
    for r in 0..rows {
        presses.pressed_bits_into(r * cols, cols, &mut bits);
        pack_row(&bits, cols, true, &mut packed);
        stream.write_all(&packed)?;
    }
    stream.finish().map_err(io::Error::other)
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
        let decoder = png::Decoder::new(std::io::Cursor::new(out));
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
}
