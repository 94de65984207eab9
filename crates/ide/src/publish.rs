//! A level pack as a static web game (`lights publish`): everything the
//! page needs, computed here by the one engine, so that the page never
//! solves anything (docs/play.md, "Publishing a pack").
//!
//! Each level carries its board data (the same [`BoardData`] `lights play`
//! serves: press patterns, the minimum solution from its start) and a
//! **hint table**: a Z/W-linear map M with A·M·b = b for every b in the
//! image of the press matrix A (a generalised inverse). From any position p
//! whose goal g is reachable, x = M·(g − p) mod W is a solution; the page
//! applies the map and checks it by replaying the press patterns.
//!
//! - W prime: M from Gauss–Jordan elimination over the field Z/W.
//! - W squarefree (6 = 2·3, 30, …): Z/W is the product of the fields Z/p
//!   (Chinese remainders), so M is the combination of the fields' maps.
//! - W with a square factor (4, 8, 9, 12, …): no such linear map exists in
//!   general (over Z/4, A = [2] has the image {0, 2}, and no m has 2·m·2 = 2),
//!   so the level gets hints along its minimum solution from the start only.
//! - A map is n² entries; a level whose map would pass
//!   [`MAX_HINT_TABLE_BYTES`], or take the site's tables past
//!   [`MAX_SITE_HINT_BYTES`], also gets hints from the start only.
//! - Locked buttons and holes are columns of zeros: the map never presses them.

use base64::Engine as _;
use serde::Serialize;

use crate::answers::Answers;
use crate::document::Document;
use crate::play::{self, BoardData};

/// The largest hint table of one level, encoded. The page loads every
/// level's data when it opens, so a pack of 20 such levels is 7 MB: a
/// 25×25 GF(2) map is 49 KB, this holds a 38×38 one (for W > 2, a byte an
/// entry, 22×22).
pub const MAX_HINT_TABLE_BYTES: usize = 256 * 1024;

/// The most table bytes a whole site may hold (a level past it gets hints
/// from its start): the page loads them all before the first level shows.
pub const MAX_SITE_HINT_BYTES: usize = 4 * 1024 * 1024;

/// The whole site's data (`levels.js`, `levels.json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Site {
    /// `lights-site/1`.
    pub format: &'static str,
    pub title: String,
    /// The pack's identity for the player's saved progress: a hash of the
    /// title and the level names, so two packs on one host keep apart.
    pub pack: String,
    pub levels: Vec<Level>,
    /// Blocks left out: `(name, why)`.
    pub skipped: Vec<(String, String)>,
}

/// One playable level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Level {
    pub board: BoardData,
    pub hints: Hints,
}

/// How the page finds hints for a level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Hints {
    /// From any position: `rows[i]` is row i of M, base64; for W = 2 the
    /// bits of the row, cell j at bit j % 8 of byte j / 8; for W > 2 one
    /// byte an entry.
    Map { rows: Vec<String> },
    /// Only along the minimum solution from the level's start, and why.
    Start { reason: String },
}

/// The site of `doc`'s playable blocks.
pub fn site(doc: &Document, answers: &dyn Answers, title: &str) -> Site {
    let mut levels = Vec::new();
    let mut skipped = Vec::new();
    let mut site_bytes = 0;
    for i in 0..doc.analysis().blocks.len() {
        let Some(board) = play::board(doc, i, answers, 0) else { continue };
        if !board.playable {
            skipped.push((board.name.clone(), board.why.clone().unwrap_or_default()));
            continue;
        }
        // The caps are checked before a table is computed, not after.
        let bytes = table_bytes(&board);
        let hints = match why_no_table(&board) {
            Some(reason) => Hints::Start { reason },
            None if site_bytes + bytes > MAX_SITE_HINT_BYTES => Hints::Start {
                reason: format!(
                    "the site's hint tables would pass {} MB with this level's {} KB (the page loads them all \
                     at once): hints follow the minimum solution from the start",
                    MAX_SITE_HINT_BYTES / (1024 * 1024),
                    bytes.div_ceil(1024)
                ),
            },
            None => {
                site_bytes += bytes;
                table(&board)
            }
        };
        levels.push(Level { board, hints });
    }
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for part in std::iter::once(title).chain(levels.iter().map(|l| l.board.name.as_str())) {
        for b in part.bytes().chain([0]) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    Site { format: "lights-site/1", title: title.to_string(), pack: format!("{hash:016x}"), levels, skipped }
}

/// The hint table of a board, or why it has none.
pub fn hints(board: &BoardData) -> Hints {
    match why_no_table(board) {
        Some(reason) => Hints::Start { reason },
        None => table(board),
    }
}

/// Why a board gets no table (hints from its start only), or `None`.
fn why_no_table(board: &BoardData) -> Option<String> {
    let n = board.presses.len();
    let w = board.states;
    if prime_factors(w).iter().any(|&(_, k)| k > 1) {
        return Some(format!(
            "W = {w} has a square factor, and over Z/{w} a solution from any position is not a linear map \
             of the position: hints follow the minimum solution from the level's start"
        ));
    }
    if w > 256 {
        return Some(format!(
            "W = {w}: the table holds a byte an entry, so W ≤ 256 (hints follow the minimum solution from the start)"
        ));
    }
    let bytes = table_bytes(board);
    (bytes > MAX_HINT_TABLE_BYTES).then(|| {
        format!(
            "the hint table of {n} cells would be {} KB, over the {} KB a level may take (the page loads every level \
             at once): hints follow the minimum solution from the start",
            bytes.div_ceil(1024),
            MAX_HINT_TABLE_BYTES / 1024
        )
    })
}

/// The table of a board [`why_no_table`] lets have one.
fn table(board: &BoardData) -> Hints {
    let n = board.presses.len();
    let w = board.states;
    let primes = prime_factors(w);
    let row_bytes = if w == 2 { n.div_ceil(8) } else { n };
    let map = generalised_inverse(board, &primes);
    let rows = map
        .iter()
        .map(|row| {
            let packed: Vec<u8> = if w == 2 {
                let mut bits = vec![0u8; row_bytes];
                for (j, &v) in row.iter().enumerate() {
                    if v != 0 {
                        bits[j / 8] |= 1 << (j % 8);
                    }
                }
                bits
            } else {
                row.iter().map(|&v| v as u8).collect()
            };
            base64::engine::general_purpose::STANDARD.encode(packed)
        })
        .collect();
    Hints::Map { rows }
}

/// The bytes of a board's table (before base64): n rows of n bits (W = 2)
/// or n bytes.
fn table_bytes(board: &BoardData) -> usize {
    let n = board.presses.len();
    n.saturating_mul(if board.states == 2 { n.div_ceil(8) } else { n })
}

/// `(p, k)` for each prime power p^k dividing `w`, ascending.
fn prime_factors(mut w: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= w {
        let mut k = 0;
        while w.is_multiple_of(p) {
            w /= p;
            k += 1;
        }
        if k > 0 {
            out.push((p, k));
        }
        p += 1;
    }
    if w > 1 {
        out.push((w, 1));
    }
    out
}

/// M over Z/W for squarefree W = p₁…p_r: each field's map, combined by
/// Chinese remainders.
fn generalised_inverse(board: &BoardData, primes: &[(u32, u32)]) -> Vec<Vec<u32>> {
    let n = board.presses.len();
    let w = u64::from(board.states);
    let mut out = vec![vec![0u32; n]; n];
    for &(p, _) in primes {
        let field = field_inverse(board, p);
        // c ≡ 1 (mod p), ≡ 0 modulo the other primes: (W/p)·((W/p)⁻¹ mod p).
        let rest = w / u64::from(p);
        let c = rest * u64::from(inverse_mod(rest % u64::from(p), p)) % w;
        for (row, frow) in out.iter_mut().zip(&field) {
            for (v, &f) in row.iter_mut().zip(frow) {
                *v = ((u64::from(*v) + c * u64::from(f)) % w) as u32;
            }
        }
    }
    out
}

/// Whether cell `c`'s button may be pressed: a locked button or a hole is
/// a column of zeros, so the map never presses it.
fn pressable(board: &BoardData, c: usize) -> bool {
    !board.locked[c] && !board.holes[c]
}

/// a⁻¹ modulo the prime p (a ≠ 0 mod p).
fn inverse_mod(a: u64, p: u32) -> u32 {
    let p = u64::from(p);
    let (mut result, mut base, mut e) = (1u64, a % p, p - 2);
    while e > 0 {
        if e & 1 == 1 {
            result = result * base % p;
        }
        base = base * base % p;
        e >>= 1;
    }
    result as u32
}

/// A generalised inverse of the press matrix over the field Z/p:
/// Gauss–Jordan on [A | I] gives E·A = R in reduced row echelon form; for b
/// in the image, x with x[pivot column of row i] = (E·b)ᵢ and 0 elsewhere
/// solves A·x = b. So row (pivot column of i) of M is row i of E.
fn field_inverse(board: &BoardData, p: u32) -> Vec<Vec<u32>> {
    if p == 2 {
        return binary_inverse(board);
    }
    let n = board.presses.len();
    let pm = u64::from(p);
    // a[t][c]: how much a press of c changes light t.
    let mut a = vec![vec![0u32; n]; n];
    for (c, pattern) in board.presses.iter().enumerate().filter(|&(c, _)| pressable(board, c)) {
        for &(t, weight) in pattern {
            a[t][c] = ((u64::from(a[t][c]) + u64::from(weight)) % pm) as u32;
        }
    }
    let mut e: Vec<Vec<u32>> = (0..n).map(|i| (0..n).map(|j| u32::from(i == j)).collect()).collect();
    let mut pivots = Vec::new();
    let mut row = 0;
    for col in 0..n {
        let Some(found) = (row..n).find(|&r| a[r][col] != 0) else { continue };
        a.swap(row, found);
        e.swap(row, found);
        let inv = u64::from(inverse_mod(u64::from(a[row][col]), p));
        for v in a[row].iter_mut().chain(e[row].iter_mut()) {
            *v = (u64::from(*v) * inv % pm) as u32;
        }
        let (pa, pe) = (std::mem::take(&mut a[row]), std::mem::take(&mut e[row]));
        for r in 0..n {
            let f = if r == row { 0 } else { u64::from(a[r][col]) };
            if f == 0 {
                continue;
            }
            for (v, &s) in a[r].iter_mut().zip(&pa).skip(col) {
                *v = ((u64::from(*v) + (pm - f) * u64::from(s)) % pm) as u32;
            }
            for (v, &s) in e[r].iter_mut().zip(&pe) {
                *v = ((u64::from(*v) + (pm - f) * u64::from(s)) % pm) as u32;
            }
        }
        a[row] = pa;
        e[row] = pe;
        pivots.push(col);
        row += 1;
        if row == n {
            break;
        }
    }
    let mut m = vec![vec![0u32; n]; n];
    for (i, &col) in pivots.iter().enumerate() {
        m[col].clone_from(&e[i]);
    }
    m
}

/// [`field_inverse`] over GF(2), a row of [A | I] in 64-bit words: a
/// 1,448-cell board (the largest under the cap) is 47 M word operations.
fn binary_inverse(board: &BoardData) -> Vec<Vec<u32>> {
    let n = board.presses.len();
    let words = (2 * n).div_ceil(64);
    let mut rows = vec![vec![0u64; words]; n];
    for (c, pattern) in board.presses.iter().enumerate().filter(|&(c, _)| pressable(board, c)) {
        for &(t, weight) in pattern {
            if weight % 2 == 1 {
                rows[t][c / 64] ^= 1 << (c % 64);
            }
        }
    }
    for (i, row) in rows.iter_mut().enumerate() {
        let j = n + i;
        row[j / 64] |= 1 << (j % 64);
    }
    let bit = |row: &[u64], j: usize| row[j / 64] >> (j % 64) & 1 == 1;
    let mut pivots = Vec::new();
    let mut rank = 0;
    for col in 0..n {
        let Some(found) = (rank..n).find(|&r| bit(&rows[r], col)) else { continue };
        rows.swap(rank, found);
        let pivot = std::mem::take(&mut rows[rank]);
        for (r, row) in rows.iter_mut().enumerate() {
            if r != rank && bit(row, col) {
                // Columns before `col` are 0 in the pivot row from the first word on.
                for (w, &p) in row.iter_mut().zip(&pivot).skip(col / 64) {
                    *w ^= p;
                }
            }
        }
        rows[rank] = pivot;
        pivots.push(col);
        rank += 1;
        if rank == n {
            break;
        }
    }
    let mut m = vec![vec![0u32; n]; n];
    for (i, &col) in pivots.iter().enumerate() {
        for (j, v) in m[col].iter_mut().enumerate() {
            *v = u32::from(bit(&rows[i], n + j));
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answers::Solved;

    /// The lights after pressing each cell `x[c]` times.
    fn pressed(board: &BoardData, lights: &[u32], x: &[u32]) -> Vec<u32> {
        let w = board.states;
        let mut out = lights.to_vec();
        for (c, &k) in x.iter().enumerate() {
            for &(t, weight) in &board.presses[c] {
                out[t] = (out[t] + weight * k) % w;
            }
        }
        out
    }

    fn decode(board: &BoardData, rows: &[String]) -> Vec<Vec<u32>> {
        let n = board.presses.len();
        rows.iter()
            .map(|r| {
                let bytes = base64::engine::general_purpose::STANDARD.decode(r).unwrap();
                if board.states == 2 {
                    (0..n).map(|j| u32::from(bytes[j / 8] >> (j % 8) & 1)).collect()
                } else {
                    bytes.iter().map(|&b| u32::from(b)).collect()
                }
            })
            .collect()
    }

    fn board_of(text: &str) -> BoardData {
        let doc = Document::new(text);
        let b = play::board(&doc, 0, &Solved::all(&doc), 0).unwrap();
        assert!(b.playable, "{:?}", b.why);
        b
    }

    /// Tiny deterministic draws.
    fn draws(seed: u64) -> impl FnMut(u32) -> u32 {
        let mut s = seed;
        move |below| {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((s >> 33) % u64::from(below)) as u32
        }
    }

    /// From positions reached by random presses (so reachable), M·(g − p)
    /// presses back to the goal, on every rule and surface for W = 2, 3, 5, 6.
    #[test]
    fn the_map_solves_every_reachable_position() {
        let mut draw = draws(7);
        for (shape, rule, topology) in [
            ("size 4x5", "cross", "plane"),
            ("size 5x5", "cross", "torus"),
            ("size 4x4", "king", "klein"),
            ("size 3x6", "merlin", "mobius"),
            ("size 4x4", "flip", "projective"),
            ("size 4x4\n  grid hex", "cross", "plane"),
            ("graph petersen", "ring", "plane"),
            ("size 4x5\n  locked at 1,1 2,3 4,5", "cross", "torus"),
            ("size 5x5\n  locked at 3,3\n  holes at 1,1 5,5", "king", "plane"),
        ] {
            for w in [2u32, 3, 5, 6] {
                let top = if topology == "plane" { String::new() } else { format!("\n  topology {topology}") };
                let text = format!("puzzle \"t\" {{\n  {shape}\n  rule {rule}{top}\n  states {w}\n}}\n");
                let board = board_of(&text);
                let Hints::Map { rows } = hints(&board) else { panic!("{text}: a map") };
                let m = decode(&board, &rows);
                let n = board.presses.len();
                for _ in 0..20 {
                    // Presses of free buttons only, so the position is reachable.
                    let secret: Vec<u32> =
                        (0..n).map(|c| if board.locked[c] || board.holes[c] { 0 } else { draw(w) }).collect();
                    // The goal is all 0 here: p = A·secret, so b = −p.
                    let p = pressed(&board, &vec![0; n], &secret);
                    let b: Vec<u32> = p.iter().map(|&v| (w - v) % w).collect();
                    let x: Vec<u32> = m
                        .iter()
                        .map(|row| {
                            (row.iter().zip(&b).map(|(&r, &v)| u64::from(r * v)).sum::<u64>() % u64::from(w)) as u32
                        })
                        .collect();
                    assert_eq!(pressed(&board, &p, &x), vec![0; n], "{text}");
                    assert!(
                        (0..n).all(|c| x[c] == 0 || !(board.locked[c] || board.holes[c])),
                        "{text}: the map never presses a locked button or a hole"
                    );
                }
            }
        }
    }

    #[test]
    fn a_flipped_entry_of_the_map_is_caught() {
        let board = board_of("puzzle \"t\" {\n  size 4x4\n}\n");
        let Hints::Map { rows } = hints(&board) else { panic!("a map") };
        let mut m = decode(&board, &rows);
        m[5][3] ^= 1;
        // Some single light's position is then solved wrongly.
        let n = 16;
        let wrong = (0..n).any(|j| {
            let mut e = vec![0; n];
            e[j] = 1;
            let p = pressed(&board, &vec![0; n], &e);
            let x: Vec<u32> = m.iter().map(|row| row.iter().zip(&p).map(|(&r, &v)| r * v).sum::<u32>() % 2).collect();
            pressed(&board, &p, &x) != vec![0; n]
        });
        assert!(wrong);
    }

    #[test]
    fn square_factors_and_large_boards_get_hints_from_the_start_only() {
        for w in [4u32, 8, 9, 12] {
            let board = board_of(&format!("puzzle \"t\" {{\n  size 3x3\n  states {w}\n}}\n"));
            let Hints::Start { reason } = hints(&board) else { panic!("W = {w}: start only") };
            assert!(reason.contains("square factor"), "{reason}");
        }
        // The cap's edge: 38×38 (1,444 cells, 1,444 × 181 = 261,364 bytes) has a map, 39×39 not.
        let board = board_of("puzzle \"t\" {\n  size 39x39\n}\n");
        let Hints::Start { reason } = hints(&board) else { panic!("39×39: over the cap") };
        assert!(reason.contains("KB"), "{reason}");
        let board = board_of("puzzle \"t\" {\n  size 38x38\n}\n");
        assert!(matches!(hints(&board), Hints::Map { .. }), "38×38: under the cap");
        let board = board_of("puzzle \"t\" {\n  size 23x23\n  states 3\n}\n");
        assert!(matches!(hints(&board), Hints::Start { .. }), "23×23, W = 3: over the cap");
        let board = board_of("puzzle \"t\" {\n  size 25x25\n}\n");
        let Hints::Map { rows } = hints(&board) else { panic!("25×25: a map") };
        let bytes: usize =
            rows.iter().map(|r| base64::engine::general_purpose::STANDARD.decode(r).unwrap().len()).sum();
        assert_eq!(bytes, 625 * 79, "625 rows of 79 bytes: the 49 KB of the issue");
    }

    #[test]
    fn a_site_has_every_playable_level_and_says_what_it_left_out() {
        let doc = Document::new(
            "puzzle \"a\" {\n  size 3x3\n  lights on\n}\nsliding \"s\" {\n  size 3x3\n}\npuzzle \"b\" {\n  size 2x2\n  lights at 1,1\n}\n",
        );
        let s = site(&doc, &Solved::all(&doc), "Pack");
        assert_eq!(s.levels.iter().map(|l| l.board.name.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(s.skipped.len(), 1);
        assert_eq!(s.skipped[0].0, "s");
        // The site's cap: 20 levels of 38×38 (255 KB each) pass 4 MB at the 17th.
        let big: String = (0..20).map(|i| format!("puzzle \"l{i}\" {{\n  size 38x38\n}}\n")).collect();
        let many = Document::new(&big);
        let s20 = site(&many, &Solved::all(&many), "Big");
        let maps = s20.levels.iter().filter(|l| matches!(l.hints, Hints::Map { .. })).count();
        assert_eq!(maps, MAX_SITE_HINT_BYTES / table_bytes(&s20.levels[0].board));
        let Hints::Start { reason } = &s20.levels[19].hints else { panic!("the last level: start only") };
        assert!(reason.contains("4 MB"), "{reason}");
        let other = site(&doc, &Solved::all(&doc), "Another pack");
        assert_ne!(s.pack, other.pack, "the title is part of the pack's identity");
    }
}
