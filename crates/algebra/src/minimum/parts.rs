//! The part bound (`W = 2`): split the cells into parts (a board's rows, say);
//! every member of the coset is at least as heavy on each part as the
//! lightest member is on that part alone, so the sum over the parts of those
//! lightest weights bounds the minimum from below.
//!
//! A part's members are `x₀|P + span(g|P)`: the coset projected onto the
//! part, whose dimension (the rank of the generators restricted to `P`) can
//! be far below the kernel's. On a 52×63 torus with the cross rule the kernel
//! has dimension 28 but each row sees a projection of rank 14, so every row's
//! lightest weight takes `2^14` steps; the rows give 988 against a minimum of
//! 1092, where disjoint odd checks (crosses) give 656. Parts whose
//! projection has rank above [`MAX_PART_RANK`] count 0 (still a bound).
//!
//! The bound is *anytime*: the parts are summed in order, and when the work
//! runs out the sum so far (the rest counted as 0) is still a lower bound;
//! [`Parts::steps`] tells a caller beforehand what the whole sum costs.

use super::binary::{reduced_basis_within, xor_into};
use crate::cancel::Canceller;
use crate::kernel::Kernel;

/// Largest projected rank enumerated (`2^MAX_PART_RANK` Gray-code steps).
pub(crate) const MAX_PART_RANK: usize = 20;

/// The parts of a partition with their projected cosets, ready to be
/// enumerated: [`Parts::new`] restricts the generators to every part (a pass
/// over the part per generator), [`Parts::steps`] says what the enumeration
/// costs, [`Parts::bound`] runs it.
#[derive(Debug)]
pub struct Parts {
    parts: Vec<Part>,
}

/// One part's projected coset.
#[derive(Debug)]
struct Part {
    /// `x₀` on the part (bit `k`: the part's `k`-th cell).
    base: Vec<u64>,
    /// A basis of the projection; `None` when its rank is above
    /// [`MAX_PART_RANK`] (the part counts 0).
    basis: Option<Vec<Vec<u64>>>,
}

impl Parts {
    /// The projected cosets of `particular + kernel` over GF(2) (entries read
    /// modulo 2) on each of `parts` (lists of cell indices), within `*work`
    /// units (one per cell per generator, taken off). `None` when the parts
    /// overlap or name a cell outside the vectors (not a partition: the sum
    /// would not bound), or the work does not cover the restriction.
    pub fn new(particular: &[u32], kernel: &Kernel, parts: &[Vec<usize>], work: &mut u64) -> Option<Parts> {
        let n = particular.len();
        if kernel.generators.iter().any(|g| g.vector.len() != n) {
            return None;
        }
        let mut seen = vec![false; n];
        for part in parts {
            for &c in part {
                if c >= n || std::mem::replace(&mut seen[c], true) {
                    return None;
                }
            }
        }
        let cells: usize = parts.iter().map(Vec::len).sum();
        let restricting = (cells as u64).saturating_mul(kernel.generators.len() as u64 + 1);
        *work = work.checked_sub(restricting)?;
        let parts = parts
            .iter()
            .map(|part| {
                let words = part.len().div_ceil(64).max(1);
                Part {
                    base: restrict(part, |c| particular[c] & 1 == 1, words),
                    basis: projected_basis(part, kernel, words),
                }
            })
            .collect();
        Some(Parts { parts })
    }

    /// The units [`Parts::bound`] spends to enumerate every part (one per
    /// word per Gray-code step).
    pub fn steps(&self) -> u64 {
        self.parts
            .iter()
            .filter_map(|p| p.basis.as_ref().map(|b| (1u64 << b.len()).saturating_mul(p.base.len() as u64)))
            .fold(0, u64::saturating_add)
    }

    /// A proven lower bound on the weight of every member of the coset: the
    /// sum over the parts of the lightest weight the coset can have on the
    /// part alone. Spends at most `*work` units (takes them off); parts it
    /// cannot afford, or whose projection has rank above 20, count 0.
    pub fn bound(&self, work: &mut u64) -> u64 {
        let mut total = 0;
        for part in &self.parts {
            let Some(basis) = &part.basis else { continue };
            let steps = (1u64 << basis.len()).saturating_mul(part.base.len() as u64);
            if steps > *work {
                break;
            }
            *work -= steps;
            total += lightest(part.base.clone(), basis);
        }
        total
    }
}

/// [`Parts::new`] then [`Parts::bound`] with what is left of `*work`.
pub fn part_bound(particular: &[u32], kernel: &Kernel, parts: &[Vec<usize>], work: &mut u64) -> Option<u64> {
    Parts::new(particular, kernel, parts, work).map(|p| p.bound(work))
}

/// The cells of `part` where `bit` holds, as a bit vector of `words` words.
pub(super) fn restrict(part: &[usize], bit: impl Fn(usize) -> bool, words: usize) -> Vec<u64> {
    let mut v = vec![0u64; words];
    for (k, &c) in part.iter().enumerate() {
        if bit(c) {
            v[k / 64] |= 1 << (k % 64);
        }
    }
    v
}

/// A basis of the generators restricted to `part`, or `None` when its rank
/// exceeds [`MAX_PART_RANK`].
fn projected_basis(part: &[usize], kernel: &Kernel, words: usize) -> Option<Vec<Vec<u64>>> {
    let restricted: Vec<Vec<u64>> =
        kernel.generators.iter().map(|g| restrict(part, |c| g.vector[c] & 1 == 1, words)).collect();
    // Bounded by the units its caller charged, so it is never cancelled.
    let never = || false;
    let basis = reduced_basis_within(&restricted, MAX_PART_RANK, &mut Canceller::new(&never)).ok()??;
    Some(basis.into_iter().map(|r| r.bits).collect())
}

/// The lightest weight over `base + span(basis)`, by a Gray code (one vector
/// added per step).
fn lightest(mut cur: Vec<u64>, basis: &[Vec<u64>]) -> u64 {
    let weight = |v: &[u64]| v.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
    let mut best = weight(&cur);
    for i in 1u64..(1u64 << basis.len()) {
        xor_into(&mut cur, &basis[i.trailing_zeros() as usize]);
        best = best.min(weight(&cur));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minimum::tests::{brute_min, Instance};
    use crate::splitmix::SplitMix64;

    fn kernel(gens: &[Vec<u32>]) -> Kernel {
        Instance { x0: Vec::new(), gens: gens.to_vec() }.kernel()
    }

    /// The bound never exceeds the minimum, for random cosets and random
    /// partitions (parts of every size, dependent generators too); one part
    /// holding every cell gives the minimum itself.
    #[test]
    fn part_bound_is_below_the_minimum() {
        let mut rng = SplitMix64(11);
        for round in 0..300 {
            let n = 4 + rng.below(28) as usize;
            let d = 1 + rng.below(10) as usize;
            let x0: Vec<u32> = (0..n).map(|_| (rng.next_u64() & 1) as u32).collect();
            let gens: Vec<Vec<u32>> = (0..d).map(|_| (0..n).map(|_| (rng.below(3) == 0) as u32).collect()).collect();
            let inst = Instance { x0, gens };
            let exact = brute_min(&inst);
            let (x0, k) = (&inst.x0, inst.kernel());
            let mut cells: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                cells.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let mut parts = Vec::new();
            let mut rest = &cells[..];
            while !rest.is_empty() {
                let take = 1 + rng.below(rest.len() as u64) as usize;
                parts.push(rest[..take].to_vec());
                rest = &rest[take..];
            }
            let bound = part_bound(x0, &k, &parts, &mut { u64::MAX }).expect("a partition");
            assert!(bound <= exact, "round {round}: bound {bound} above the minimum {exact}");
            let whole = part_bound(x0, &k, &[cells.clone()], &mut { u64::MAX }).expect("one part");
            assert_eq!(whole, exact, "round {round}: one part is the whole problem");
        }
    }

    /// A partition that is not one (a cell twice, a cell out of range) is refused.
    #[test]
    fn overlapping_parts_are_refused() {
        let x0 = vec![1, 0, 1];
        let k = kernel(&[vec![1, 1, 0]]);
        assert_eq!(part_bound(&x0, &k, &[vec![0, 1], vec![1, 2]], &mut 1000), None);
        assert_eq!(part_bound(&x0, &k, &[vec![0, 3]], &mut 1000), None);
        assert_eq!(part_bound(&x0, &k, &[vec![0], vec![1, 2]], &mut 1000), Some(1));
    }

    /// Out of work, the sum so far is returned (a weaker bound, never a wrong one).
    #[test]
    fn work_runs_out_gracefully() {
        // Four parts of one cell each, all lit, no generator touching them.
        let x0 = vec![1, 1, 1, 1];
        let k = kernel(&[vec![0, 0, 0, 0]]);
        let parts: Vec<Vec<usize>> = (0..4).map(|c| vec![c]).collect();
        assert_eq!(part_bound(&x0, &k, &parts, &mut { u64::MAX }), Some(4));
        // Restricting costs 2 a cell (8 in all), each part's one step 1:
        // 10 units pay for two parts.
        let mut units = 10;
        assert_eq!(part_bound(&x0, &k, &parts, &mut units), Some(2));
        assert_eq!(units, 0);
        // Too little for the restriction: no bound at all.
        assert_eq!(part_bound(&x0, &k, &parts, &mut 7), None);
    }
}
