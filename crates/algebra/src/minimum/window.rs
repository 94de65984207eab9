//! The search over a window (`W = 2`): the minimum of a coset that its
//! caller knows to be symmetric.
//!
//! Suppose permutations `g_1 … g_h` of the cells each map the coset onto
//! itself (a board's shifts along a wrapped side, with All Lights), and the
//! images `g_i(Q)` of a *window* `Q` (a column) cover every cell at most
//! once (the board's columns). For a lightest member `x*`, the `h` windows
//! hold at most `|x*|` presses together, so one of them holds at most
//! `|x*| / h`; `g_i⁻¹(x*)` is a member of the same weight with at most that
//! many presses on `Q` itself. So when a member lighter than `below` exists,
//! one exists with at most `(below − 1) / h` presses on `Q`, and the lightest
//! member among those whose projection onto `Q` is that light is the
//! minimum.
//!
//! The coset's projections onto `Q` are `x₀|Q + span(g|Q)`, whose rank can
//! be far below the kernel's: the basis is put in echelon form on the
//! window's cells, the top `r` vectors (independent on `Q`) are enumerated by
//! a Gray code over `2^r` projections, and only for the light ones is the
//! rest (the `d − r` vectors that vanish on `Q`) searched, by the branch and
//! bound with the best member so far as its cutoff. On a 52×63 torus with the
//! cross rule (kernel 28) a row sees rank 14 and 126 of its 16,384
//! projections are light enough: 126 searches of dimension 14 instead of one
//! of dimension 28.
//!
//! The symmetry is the caller's to prove (`lights-compiler` checks every
//! press pattern); this module only trusts it.

use super::binary::{reduced_basis, set_bits, xor_into};
use super::branch::{self, Limits, Problem, Scratch};
use super::parts::restrict;
use crate::cancel::Canceller;
use crate::kernel::Kernel;

/// Largest projected rank enumerated (`2^MAX_WINDOW_RANK` Gray-code steps).
pub(crate) const MAX_WINDOW_RANK: usize = 20;
/// Largest number of basis vectors that vanish on the window: the branch
/// and bound's signatures are one word.
const MAX_REST: usize = 64;
/// Branch-and-bound work units (groups visited, butterflies) per budget
/// unit, as in the rest of the `W = 2` pipeline.
const BRANCH_UNITS: u64 = 16;

/// What [`window_search`] proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WindowOutcome {
    /// No member weighs less than `below`: the minimum is at least `below`.
    NoneLighter,
    /// The minimum: a member (entries 0 and 1) and its weight, below `below`.
    Minimum(Vec<u32>, u64),
}

/// A window as the caller gives it: its cells, and how many copies of it
/// (images under symmetries of the coset) cover each cell at most once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymmetricWindow {
    pub cells: Vec<usize>,
    pub copies: u64,
}

/// The minimum of `particular + kernel` over GF(2) (entries read modulo 2)
/// if it is below `below`, given windows whose `copies` images under
/// symmetries of the coset cover each cell at most once (see the module's
/// documentation: the caller must have proven it). Every window's light
/// projections are listed first; the one that leaves the least to search is
/// searched. Within `*work` units (taken off); `None` when the work does not
/// suffice or no window qualifies (one that is not a list of distinct cells,
/// whose projection has rank above 20, or on which more than 64 quiet
/// patterns vanish).
pub fn window_search(
    particular: &[u32],
    kernel: &Kernel,
    windows: &[SymmetricWindow],
    below: u64,
    work: &mut u64,
) -> Option<WindowOutcome> {
    let n = particular.len();
    let d = kernel.generators.len();
    if kernel.generators.iter().any(|g| g.vector.len() != n) {
        return None;
    }
    let words = n.div_ceil(64).max(1);
    // Spelling out the vectors costs a pass over the cells each; reducing
    // them, d² vector operations of `words` words.
    let (d64, n64, w64) = (d as u64, n as u64, words as u64);
    *work = work.checked_sub(d64.saturating_mul(n64).saturating_add(d64.saturating_mul(d64).saturating_mul(w64)))?;
    let vectors: Vec<Vec<u64>> = kernel.generators.iter().map(|g| bits_of(&g.vector, words)).collect();
    // Bounded by the units charged above, so it is never cancelled.
    let never = || false;
    let mut canc = Canceller::new(&never);
    let basis: Vec<Vec<u64>> = reduced_basis(&vectors, &mut canc).ok()?.into_iter().map(|r| r.bits).collect();
    let base = bits_of(particular, words);
    let mut prepared: Vec<Prepared> = Vec::new();
    for window in windows {
        if let Some(p) = Prepared::new(&base, n, &basis, window, below, work) {
            prepared.push(p);
        }
    }
    // Least to search: fewest light projections times members each.
    let members = |p: &Prepared| 1u64.checked_shl(p.rest.len() as u32).unwrap_or(u64::MAX);
    let best = prepared.into_iter().min_by_key(|p| (p.light.len() as u64).saturating_mul(members(p)))?;
    best.search(&base, n, below, work, &mut canc)
}

/// A window's light projections, and the basis split on it.
struct Prepared {
    copies: u64,
    /// The vectors independent on the window, then those vanishing there.
    top: Vec<Vec<u64>>,
    rest: Vec<Vec<u64>>,
    /// `(weight on the window, mask over top)`, lightest first.
    light: Vec<(u64, u64)>,
}

impl Prepared {
    /// Lists the projections of `base + span(basis)` (over `n` cells) onto `window` light
    /// enough for a member below `below`; `None` when the window is not a
    /// list of distinct cells, its rank is above [`MAX_WINDOW_RANK`], more
    /// than [`MAX_REST`] vectors vanish on it, or `*work` runs out.
    fn new(
        base: &[u64],
        n: usize,
        basis: &[Vec<u64>],
        window: &SymmetricWindow,
        below: u64,
        work: &mut u64,
    ) -> Option<Prepared> {
        let cells = &window.cells;
        let mut seen = std::collections::HashSet::new();
        if window.copies == 0 || cells.iter().any(|&c| c >= n || !seen.insert(c)) {
            return None;
        }
        *work = work.checked_sub((basis.len() * (cells.len() + base.len())) as u64)?;
        let mut basis = basis.to_vec();
        let top = echelon_on(&mut basis, cells);
        if top > MAX_WINDOW_RANK || basis.len() - top > MAX_REST {
            return None;
        }
        let rest = basis.split_off(top);
        let window_words = cells.len().div_ceil(64).max(1);
        let project = |v: &[u64]| restrict(cells, |c| v[c / 64] >> (c % 64) & 1 == 1, window_words);
        let projected: Vec<Vec<u64>> = basis.iter().map(|v| project(v)).collect();
        let mut cur = project(base);
        *work = work.checked_sub((1u64 << top).saturating_mul(cur.len() as u64))?;
        let limit = limit(below, window.copies);
        let (mut light, mut mask) = (Vec::new(), 0u64);
        for i in 0u64..(1u64 << top) {
            if i > 0 {
                let bit = i.trailing_zeros() as usize;
                xor_into(&mut cur, &projected[bit]);
                mask ^= 1 << bit;
            }
            let w = cur.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
            if w <= limit {
                light.push((w, mask));
            }
        }
        light.sort_unstable();
        Some(Prepared { copies: window.copies, top: basis, rest, light })
    }

    /// Each light projection's members, `base` ⊕ its top vectors plus the
    /// span of the rest, searched by the branch and bound below the best so
    /// far (lightest projections first).
    fn search(
        self,
        base: &[u64],
        n: usize,
        below: u64,
        work: &mut u64,
        canc: &mut Canceller<'_>,
    ) -> Option<WindowOutcome> {
        let dim = self.rest.len();
        let mut sig_of = vec![0u64; n];
        for (j, v) in self.rest.iter().enumerate() {
            for c in set_bits(v) {
                sig_of[c] |= 1 << j;
            }
        }
        // The cells in signature order, once: the branch and bound sorts its
        // cells by signature, which is then one pass, not a sort per search.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&c| sig_of[c]);
        let sigs: Vec<u64> = order.iter().map(|&c| sig_of[c]).collect();
        *work = work.checked_sub((n as u64).saturating_mul(dim as u64 + 16))?;
        let no_triples = vec![false; n];
        let mut scratch = Scratch::default();
        let mut best: Option<(Vec<u8>, u64)> = None;
        let mut best_cost = below;
        for &(w, mask) in &self.light {
            if w > limit(best_cost, self.copies) {
                break;
            }
            let mut member = base.to_vec();
            for (j, v) in self.top.iter().enumerate() {
                if mask >> j & 1 == 1 {
                    xor_into(&mut member, v);
                }
            }
            let bits: Vec<u8> = order.iter().map(|&c| (member[c / 64] >> (c % 64) & 1) as u8).collect();
            // Spelling out the bits and the branch and bound's pass over the
            // cells (measured: about 4 units a cell).
            *work = work.checked_sub(4 * n as u64)?;
            let p = Problem { sigs: &sigs, bits: &bits, in_triple: &no_triples, triples: 0, dim };
            let limits = Limits { budget: Some(work.saturating_mul(BRANCH_UNITS)), leaf_dim: None };
            let out = branch::search_in(&p, best_cost, limits, &mut scratch, canc).ok()?;
            *work = work.saturating_sub(out.used.div_ceil(BRANCH_UNITS));
            if !out.complete {
                return None;
            }
            if let Some((cost, m)) = out.best {
                best_cost = cost;
                let sorted = super::binary::apply_mask(&sigs, &bits, m);
                let mut x = vec![0u8; n];
                for (k, &c) in order.iter().enumerate() {
                    x[c] = sorted[k];
                }
                best = Some((x, cost));
            }
        }
        Some(match best {
            Some((bits, cost)) => WindowOutcome::Minimum(bits.into_iter().map(u32::from).collect(), cost),
            None => WindowOutcome::NoneLighter,
        })
    }
}

/// The most presses a window may hold in the member looked for: one lighter
/// than `below` has a copy of the window holding at most `(below − 1) / copies`.
fn limit(below: u64, copies: u64) -> u64 {
    below.saturating_sub(1) / copies
}

/// `v` read modulo 2 as a bit set of `words` words.
fn bits_of(v: &[u32], words: usize) -> Vec<u64> {
    let mut b = vec![0u64; words];
    for (i, &e) in v.iter().enumerate() {
        if e & 1 == 1 {
            b[i / 64] |= 1 << (i % 64);
        }
    }
    b
}

/// Puts `basis` in echelon form on the window's cells: afterwards its first
/// `r` vectors (returned) are independent on the window and the others
/// vanish there. The span is unchanged.
fn echelon_on(basis: &mut [Vec<u64>], window: &[usize]) -> usize {
    let mut top = 0;
    for &c in window {
        let has = |v: &Vec<u64>| v[c / 64] >> (c % 64) & 1 == 1;
        let Some(k) = (top..basis.len()).find(|&k| has(&basis[k])) else { continue };
        basis.swap(top, k);
        let pivot = basis[top].clone();
        for (j, v) in basis.iter_mut().enumerate() {
            if j != top && has(v) {
                xor_into(v, &pivot);
            }
        }
        top += 1;
    }
    top
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minimum::tests::{brute_min, check_member, Instance};
    use crate::minimum::Minimum;
    use crate::splitmix::SplitMix64;

    /// A random coset invariant under the cyclic shift of `cols` columns on
    /// a `rows × cols` board (cell `r·cols + c`): generators and `x₀` are
    /// made of shifted copies, so every shift maps the coset onto itself.
    fn shift_invariant(rng: &mut SplitMix64, rows: usize, cols: usize) -> Instance {
        let n = rows * cols;
        let shift = |v: &[u32], s: usize| -> Vec<u32> {
            let mut out = vec![0; n];
            for r in 0..rows {
                for c in 0..cols {
                    out[r * cols + (c + s) % cols] = v[r * cols + c];
                }
            }
            out
        };
        let random =
            |rng: &mut SplitMix64, p: u64| -> Vec<u32> { (0..n).map(|_| (rng.below(p) == 0) as u32).collect() };
        let mut gens = Vec::new();
        for _ in 0..1 + rng.below(2) {
            let g = random(rng, 3);
            for s in 0..cols {
                gens.push(shift(&g, s));
            }
        }
        // x₀ invariant modulo the kernel: a sum of all shifts of one vector.
        let seed = random(rng, 4);
        let mut x0 = vec![0u32; n];
        for s in 0..cols {
            for (a, b) in x0.iter_mut().zip(shift(&seed, s)) {
                *a ^= b;
            }
        }
        Instance { x0, gens }
    }

    fn weight(x: &[u32]) -> u64 {
        x.iter().map(|&v| u64::from(v & 1)).sum()
    }

    /// On shift-invariant cosets, with a column as the window and the
    /// columns as its copies, the search agrees with exhaustive search
    /// whatever `below`: the minimum when it is lower, else none lighter.
    #[test]
    fn agrees_with_brute_force_on_symmetric_cosets() {
        let mut rng = SplitMix64(5);
        let mut found = 0;
        for round in 0..120 {
            let (rows, cols) = (1 + rng.below(3) as usize, 2 + rng.below(5) as usize);
            let inst = shift_invariant(&mut rng, rows, cols);
            if inst.gens.len() > 14 {
                continue;
            }
            let exact = brute_min(&inst);
            let window: Vec<usize> = (0..rows).map(|r| r * cols).collect();
            let k = inst.kernel();
            for below in [exact, exact + 1, exact + 3, (rows * cols) as u64 + 1] {
                let out = window_search(
                    &inst.x0,
                    &k,
                    &[SymmetricWindow { cells: window.clone(), copies: cols as u64 }],
                    below,
                    &mut { u64::MAX },
                );
                match out.unwrap_or_else(|| panic!("round {round}: no answer")) {
                    WindowOutcome::NoneLighter => assert!(exact >= below, "round {round}: missed {exact} < {below}"),
                    WindowOutcome::Minimum(x, cost) => {
                        found += 1;
                        assert_eq!(cost, exact, "round {round}, below {below}");
                        assert_eq!(weight(&x), cost, "round {round}: the member weighs its cost");
                        check_member(&inst, &Minimum { x, cost, optimal: true, lower_bound: cost });
                    }
                }
            }
        }
        assert!(found > 100, "only {found} minima found");
    }

    /// Without the symmetry the window proves nothing: a coset whose only
    /// light member is heavy on the window is still searched correctly
    /// when `copies` is 1 (every member qualifies), and a window that names
    /// a cell twice or outside the board is refused.
    #[test]
    fn one_copy_is_plain_search_and_bad_windows_are_refused() {
        let mut rng = SplitMix64(9);
        for round in 0..100 {
            let n = 3 + rng.below(14) as usize;
            let d = rng.below(8) as usize;
            let x0: Vec<u32> = (0..n).map(|_| (rng.next_u64() & 1) as u32).collect();
            let gens: Vec<Vec<u32>> = (0..d).map(|_| (0..n).map(|_| (rng.below(3) == 0) as u32).collect()).collect();
            let inst = Instance { x0, gens };
            let exact = brute_min(&inst);
            let window: Vec<usize> = (0..n).filter(|_| rng.below(2) == 0).collect();
            let k = inst.kernel();
            let out =
                window_search(&inst.x0, &k, &[SymmetricWindow { cells: window, copies: 1 }], n as u64 + 1, &mut {
                    u64::MAX
                });
            assert!(
                matches!(out, Some(WindowOutcome::Minimum(_, c)) if c == exact),
                "round {round}: {out:?}, exactly {exact}"
            );
        }
        let k = Instance { x0: vec![], gens: vec![vec![1, 1, 0]] }.kernel();
        assert_eq!(
            window_search(&[1, 0, 1], &k, &[SymmetricWindow { cells: vec![0, 0], copies: 1 }], 9, &mut { u64::MAX }),
            None
        );
        assert_eq!(
            window_search(&[1, 0, 1], &k, &[SymmetricWindow { cells: vec![3], copies: 1 }], 9, &mut { u64::MAX }),
            None
        );
        assert_eq!(
            window_search(&[1, 0, 1], &k, &[SymmetricWindow { cells: vec![0], copies: 0 }], 9, &mut { u64::MAX }),
            None
        );
    }

    /// 64 quiet patterns vanishing on the window (the most the branch and
    /// bound takes): chosen without overflowing, and searched.
    #[test]
    fn sixty_four_patterns_off_the_window() {
        let n = 70;
        let gens: Vec<Vec<u32>> = (0..64).map(|j| (0..n).map(|c| u32::from(c == j)).collect()).collect();
        let mut x0 = vec![0u32; n];
        x0[3] = 1;
        x0[66] = 1;
        let k = Instance { x0: Vec::new(), gens }.kernel();
        let window = SymmetricWindow { cells: (64..n).collect(), copies: 1 };
        let out = window_search(&x0, &k, &[window], 5, &mut { 1u64 << 30 });
        // Cell 66 is pressed in every member; cell 3 is not needed.
        assert!(matches!(out, Some(WindowOutcome::Minimum(_, 1))), "{out:?}");
    }

    /// Out of work: no answer rather than a wrong one.
    #[test]
    fn too_little_work_gives_no_answer() {
        let mut rng = SplitMix64(3);
        let inst = shift_invariant(&mut rng, 3, 6);
        let window: Vec<usize> = (0..3).map(|r| r * 6).collect();
        let k = inst.kernel();
        assert_eq!(window_search(&inst.x0, &k, &[SymmetricWindow { cells: window, copies: 6 }], 100, &mut 10), None);
    }
}
