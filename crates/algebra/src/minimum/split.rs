//! `W = 2p` (p an odd prime): every member modulo p, each with the `W = 2`
//! minimum of the coset it leaves modulo 2 — an exact search, and a lower
//! bound where it stops.
//!
//! By Chinese remainders a member `x` of the coset is a member `b` modulo p
//! and a member `a` modulo 2, and `x_j = b_j` where `a_j ≡ b_j (mod 2)`,
//! `b_j + p` elsewhere. So `cost(x) = Σ b + p·|t|` with `t = a ⊕ (b mod 2)`,
//! and for a fixed `b` the `t` that occur form one coset of `W = 2`: the coset
//! modulo 2 shifted by `b mod 2`, with the same quiet patterns. Hence
//!
//! `min cost = min over b of  Σ b + p · (W = 2 minimum of the shifted coset)`.
//!
//! When the members modulo p are few (at most `2^16`; the 48×48 projective
//! plane has 81) and the kernel modulo 2 fits one branch-and-bound word (at
//! most 64 patterns), each `b` gets a quick bound from odd checks (cells
//! whose signatures modulo 2 are zero, pairs with equal signatures, triples
//! adding up to zero: every member of every shifted coset has a fixed parity
//! on them, odd for some `b` and even for others). In increasing order of
//! that bound the members are searched in rounds, each giving every member
//! still open four times the work of the last: a descent for a light `t`,
//! the coset's own packing of odd checks once the budget can pay for it, and
//! the exact branch and bound of `W = 2` (`branch`) for a `t` with fewer
//! than `(best − Σ b) / p` presses, `best` being the cheapest member so far.
//! A member is closed when its bound reaches `best`; the least bound of
//! those left open bounds the coset, and meets `best` when none is.
//!
//! The 48×48 projective plane with W = 6 and every light on: 3456 presses,
//! proven with a long budget (each of its 81 members modulo 3 leaves
//! a W = 2 problem of 30 patterns that takes about a second to close);
//! before, its bound came from W = 2 and W = 3 alone (1152).

use super::binary::{apply_mask, bit_vectors, reduced_basis, set_bits};
use super::branch::{self, Limits, Problem, Scratch};
use super::heuristic::{heuristic, Effort};
use super::packing::{Cells, Classes};
use super::{cost_of, reduce, Budget, Gen};
use crate::cancel::Canceller;
use crate::AlgebraError;
use std::collections::HashMap;

/// Most members modulo p enumerated (as a power of two).
const MEMBERS_LOG2: f64 = 16.0;
/// Most quiet patterns modulo 2 (one branch-and-bound word).
const MAX_DIM: usize = 64;
/// Budget units per cell for each member modulo p (building it and its
/// quick bound) and per pair of cells examined for triples.
const MEMBER_UNITS: u64 = 8;
const PAIR_UNITS: u64 = 3;
/// The triples may take `1/TRIPLE_PART` of the stage's units.
const TRIPLE_PART: u64 = 4;

/// First work limit of a member's search (budget units, at least
/// `FIRST_UNITS_PER_CELL` a cell); four times more each round.
const FIRST_LIMIT: u64 = 1 << 16;
const FIRST_UNITS_PER_CELL: u64 = 256;
/// Budget units per cell that a round costs whatever its limit (the
/// search's root, its cells sorted by signature, and the descent's start),
/// measured on 48×48 boards.
const ROUND_UNITS_PER_CELL: u64 = 48;
/// Part of a member's round given to the descent for a light member of its
/// shifted coset, and the most it gets (past a few milliseconds the exact
/// search finds the light members the descent does not).
const DESCENT_PART: u64 = 4;
const DESCENT_MAX: u64 = 1 << 22;
/// A member's own odd checks are packed once a round's units, or the budget
/// left shared by the open members, are this many times what examining
/// every pair of its classes costs.
const PACKING_PART: u64 = 4;
/// Budget units per cell for a member's first look at its coset, and for
/// grouping its cells by signature.
const LOOK_UNITS: u64 = 8;
/// Branch-and-bound work units per budget unit: a quarter of what the W = 2
/// pipeline counts (`binary::BRANCH_UNITS`), measured on the 48×48 Klein
/// bottle and projective plane, whose many short searches (each sorting its
/// root's cells) cost more per unit than one long search.
const BRANCH_UNITS: u64 = 4;
/// Most cells of members' cosets kept between rounds (about 10 bytes each).
const SEEN_CELLS: u64 = 1 << 23;

/// What the stage found: the cheapest member below the caller's (if any) and
/// a lower bound on every member.
#[derive(Debug)]
pub(super) struct Split {
    pub(super) member: Option<(Vec<u32>, u64)>,
    pub(super) lower: u64,
}

/// Checks modulo 2 that hold on every shifted coset: cells whose signature
/// is zero (fixed), pairs with equal signatures and disjoint triples whose
/// signatures add up to zero. Which of them are odd depends on `b`.
struct Checks {
    fixed: Vec<u32>,
    pairs: Vec<[u32; 2]>,
    triples: Vec<[u32; 3]>,
}

impl Checks {
    /// Pairs within each signature; triples greedily among the cells left
    /// over (one per signature), each cell meeting the next ones in order up
    /// to `max_pairs` pairs in all (on boards the triples are local).
    fn new(sigs: &[u64], max_pairs: u64) -> (Self, u64) {
        let mut fixed = Vec::new();
        let mut open: HashMap<u64, u32> = HashMap::new();
        let mut pairs = Vec::new();
        for (c, &s) in sigs.iter().enumerate() {
            let c = c as u32;
            if s == 0 {
                fixed.push(c);
            } else if let Some(a) = open.remove(&s) {
                pairs.push([a, c]);
            } else {
                open.insert(s, c);
            }
        }
        let mut left: Vec<u32> = open.values().copied().collect();
        left.sort_unstable();
        let window = (max_pairs / left.len().max(1) as u64).max(1) as usize;
        let mut used = vec![false; sigs.len()];
        let mut triples = Vec::new();
        let mut examined = 0u64;
        for (i, &a) in left.iter().enumerate() {
            if used[a as usize] {
                continue;
            }
            for &b in left[i + 1..].iter().take(window) {
                examined += 1;
                if used[b as usize] {
                    continue;
                }
                let want = sigs[a as usize] ^ sigs[b as usize];
                if let Some(&c) = open.get(&want).filter(|&&c| c != a && c != b && !used[c as usize]) {
                    for k in [a, b, c] {
                        used[k as usize] = true;
                    }
                    triples.push([a, b, c]);
                    break;
                }
            }
        }
        (Checks { fixed, pairs, triples }, examined)
    }

    /// The odd checks of the coset with bits `bits` (each needs a press).
    fn bound(&self, bits: &[u8]) -> u64 {
        let at = |c: u32| bits[c as usize] as u64;
        self.fixed.iter().map(|&c| at(c)).sum::<u64>()
            + self.pairs.iter().map(|&[a, b]| at(a) ^ at(b)).sum::<u64>()
            + self.odd_triples(bits).count() as u64
    }

    /// The triples that are odd in the coset with bits `bits`.
    fn odd_triples<'s>(&'s self, bits: &'s [u8]) -> impl Iterator<Item = &'s [u32; 3]> + 's {
        self.triples.iter().filter(|t| t.iter().fold(0, |acc, &c| acc ^ bits[c as usize]) == 1)
    }
}

/// The bits of the coset modulo 2 shifted by `b mod 2` (`b2 ⊕ b`), into `out`.
fn shifted_bits(b2: &[u32], b: &[u32], out: &mut Vec<u8>) {
    out.clear();
    out.extend(b2.iter().zip(b).map(|(&a, &bj)| ((a ^ bj) & 1) as u8));
}

/// One member modulo p, as the search sees it.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    /// `Σ b + p ×` the odd checks of its shifted coset.
    quick: u64,
    /// `Σ b`.
    sum: u64,
    /// Its odometer position (digit `t` is the coefficient of generator `t`).
    index: u64,
}

/// The search over `base + ⟨gens⟩` (over `Z/2p`) within `budget`, given the
/// cost `best` of a member already found; `None` when it does not apply (too
/// many members modulo p, more than 64 patterns modulo 2) or the members
/// would not fit the budget.
pub(super) fn split_search(
    base: &[u32],
    gens: &[Gen],
    p: u32,
    best: u64,
    budget: &mut Budget,
    canc: &mut Canceller<'_>,
) -> Result<Option<Split>, AlgebraError> {
    let n = base.len();
    let (bp, gp) = reduce(base, gens, p);
    let dp = gp.len();
    if dp as f64 * f64::from(p).log2() > MEMBERS_LOG2 {
        return Ok(None);
    }
    let members = u64::from(p).pow(dp as u32);
    let enumeration = members * n as u64 * MEMBER_UNITS;
    if enumeration > budget.left() / 2 {
        return Ok(None);
    }
    // The patterns modulo 2 in reduced echelon form, and each cell's
    // signature over them.
    let (b2, g2) = reduce(base, gens, 2);
    let refs2: Vec<&Gen> = g2.iter().collect();
    let vectors = bit_vectors(n, &refs2);
    let basis = reduced_basis(&vectors, canc)?;
    let dim = basis.len();
    if dim > MAX_DIM {
        return Ok(None);
    }
    budget.spend(dim as u64 * (vectors.len() as u64 + 1) * n.div_ceil(64) as u64);
    let mut sigs = vec![0u64; n];
    for (j, row) in basis.iter().enumerate() {
        for c in set_bits(&row.bits) {
            sigs[c] |= 1 << j;
        }
    }
    canc.tick(n * dim.max(1))?;
    let (checks, examined) = Checks::new(&sigs, budget.left() / TRIPLE_PART / PAIR_UNITS);
    budget.spend(examined * PAIR_UNITS + n as u64);

    // Every member modulo p with its quick bound (odometer order).
    let mut bits = Vec::with_capacity(n);
    let mut candidates = Vec::with_capacity(members as usize);
    let mut b = bp.clone();
    let mut digits = vec![0u32; dp];
    for index in 0..members {
        if index > 0 {
            // The lowest digit that does not wrap moves; each digit that
            // changes adds its generator once (p additions give nothing).
            for (t, g) in gp.iter().enumerate() {
                for &(i, v) in &g.support {
                    b[i as usize] = (b[i as usize] + v) % p;
                }
                digits[t] = (digits[t] + 1) % p;
                if digits[t] != 0 {
                    break;
                }
            }
        }
        let sum = cost_of(&b);
        shifted_bits(&b2, &b, &mut bits);
        let quick = sum + u64::from(p) * checks.bound(&bits);
        candidates.push(Candidate { quick, sum, index });
        canc.tick(n)?;
    }
    budget.spend(enumeration);
    candidates.sort_by_key(|c| (c.quick, c.sum, c.index));
    candidates.retain(|c| c.quick < best);

    // The searches, cheapest quick bound first, in rounds: each round gives
    // every member still open four times the work of the last (a search cut
    // short starts again; the repeats cost at most a third more), so the
    // hard members get most of the budget without starving the others.
    let kinds = {
        let mut distinct = sigs.clone();
        distinct.sort_unstable();
        distinct.dedup();
        distinct.len() as u64
    };
    let mut search = Inner {
        sigs: &sigs,
        g2: &g2,
        b2: &b2,
        checks: &checks,
        bp: &bp,
        gp: &gp,
        p,
        dim,
        kinds,
        scratch: Scratch::default(),
        best,
        member: None,
    };
    let mut open: Vec<Open> =
        candidates.iter().map(|&cand| Open { cand, bound: cand.quick, complete: false, seen: None }).collect();
    let mut limit = FIRST_LIMIT.max(FIRST_UNITS_PER_CELL * n as u64);
    loop {
        let best = search.best;
        open.retain(|o| o.bound < best && !o.complete);
        let mut kept = open.iter().filter(|o| o.seen.is_some()).count() as u64;
        if open.is_empty() || budget.left() == 0 {
            break;
        }
        // Packing every open member's own odd checks is worth it once it
        // costs a small part of what is left (with a long budget: at once).
        let pending = open.len() as u64;
        let packing = search.kinds.saturating_mul(search.kinds).saturating_mul(PAIR_UNITS).saturating_mul(pending);
        let pack = packing <= budget.left() / PACKING_PART;
        for o in &mut open {
            if o.bound >= search.best || o.complete {
                continue;
            }
            let units = limit.min(budget.left());
            if units == 0 {
                break;
            }
            let fresh = o.seen.is_none();
            search.round(o, units, pack, budget, canc)?;
            // Memory follows what is kept: past `SEEN_CELLS`, a member's
            // coset is made again on its next round (and charged again).
            if fresh {
                if (kept + 1) * n as u64 > SEEN_CELLS {
                    o.seen = None;
                } else {
                    kept += 1;
                }
            }
        }
        limit = limit.saturating_mul(4);
    }
    let best = search.best;
    let lower = open.iter().filter(|o| !o.complete).map(|o| o.bound).fold(best, u64::min);
    Ok(Some(Split { member: search.member, lower }))
}

/// A member modulo p still open: the best bound proven for it.
struct Open {
    cand: Candidate,
    bound: u64,
    complete: bool,
    /// Its shifted coset and odd checks (made on its first round).
    seen: Option<Seen>,
}

struct Seen {
    b: Vec<u32>,
    bits: Vec<u8>,
    /// The lightest t found (where the next descent starts).
    light: Vec<u32>,
    in_triple: Vec<bool>,
    triples: u64,
    /// Whether the triples are this coset's own packing (else the checks
    /// shared by every member that are odd here).
    packed: bool,
}

/// What every member's search shares.
struct Inner<'a> {
    sigs: &'a [u64],
    g2: &'a [Gen],
    b2: &'a [u32],
    checks: &'a Checks,
    bp: &'a [u32],
    gp: &'a [Gen],
    p: u32,
    dim: usize,
    /// Distinct signatures modulo 2.
    kinds: u64,
    /// The searches' buffers, kept from one to the next.
    scratch: Scratch,
    /// The cheapest member so far (the caller's cost until one is found).
    best: u64,
    member: Option<(Vec<u32>, u64)>,
}

impl Inner<'_> {
    /// One round for `o` within about `units`: a descent from the lightest
    /// `t` so far (a light member lowers `best` for every member after it),
    /// the coset's own odd checks once they are affordable (`pack`), then the
    /// exact search for a `t` lighter than `best` allows.
    fn round(
        &mut self,
        o: &mut Open,
        units: u64,
        pack: bool,
        budget: &mut Budget,
        canc: &mut Canceller<'_>,
    ) -> Result<(), AlgebraError> {
        let n = self.sigs.len();
        let (pw, sum) = (u64::from(self.p), o.cand.sum);
        let seen = match &mut o.seen {
            Some(seen) => seen,
            None => {
                // Building b (a pass per generator modulo p), its bits and
                // which shared checks are odd.
                let gp: u64 = self.gp.iter().map(|g| g.support.len() as u64).sum();
                budget.spend(gp + LOOK_UNITS * n as u64);
                o.seen.insert(self.first_look(o.cand.index))
            }
        };
        budget.spend(ROUND_UNITS_PER_CELL * n as u64);
        let refs: Vec<&Gen> = self.g2.iter().collect();
        let descent = (units / DESCENT_PART).min(DESCENT_MAX);
        let (t, weight) =
            budget.limited(descent, |left| heuristic(&seen.light, &refs, 2, 0, Effort::Quick, left, canc))?;
        if weight < cost_of(&seen.light) {
            seen.light = t;
        }
        let light = (cost_of(&seen.light), seen.light.clone());
        self.offer(&seen.b, &light.1, sum + pw * light.0)?;
        // (Every pair of classes at most: `kinds` signatures, squared.)
        if !seen.packed
            && (pack || self.kinds.saturating_mul(self.kinds).saturating_mul(PAIR_UNITS) <= units / PACKING_PART)
        {
            let cells = Cells { sigs: self.sigs, words: 1, bits: &seen.bits };
            let classes = Classes::new(&cells, canc)?;
            budget.spend(LOOK_UNITS * n as u64);
            let packing = classes.with_triples(&cells, classes.pair_count(), canc)?;
            budget.spend(packing.examined * PAIR_UNITS + n as u64);
            o.bound = o.bound.max(sum + pw * packing.bound);
            if packing.triples > seen.triples {
                (seen.in_triple, seen.triples) = (packing.in_triple, packing.triples);
            }
            seen.packed = true;
        }
        if o.bound >= self.best {
            return Ok(());
        }
        // Fewer presses than this in t beat `best`.
        let upper = (self.best - sum).div_ceil(pw);
        if self.dim == 0 {
            // No pattern modulo 2: t is the shifted coset's one member.
            o.complete = true;
            o.bound = sum + pw * light.0;
            return Ok(());
        }
        let problem = Problem {
            sigs: self.sigs,
            bits: &seen.bits,
            in_triple: &seen.in_triple,
            triples: seen.triples,
            dim: self.dim,
        };
        let left = units.saturating_sub(descent).max(1).min(budget.left());
        let limits = Limits { budget: Some(left.saturating_mul(BRANCH_UNITS)), leaf_dim: None };
        let out = branch::search_in(&problem, upper, limits, &mut self.scratch, canc)?;
        budget.spend(out.used / BRANCH_UNITS);
        o.complete = out.complete;
        o.bound = o.bound.max(sum + pw * out.lower);
        if let Some((weight, mask)) = out.best {
            seen.light = apply_mask(self.sigs, &seen.bits, mask).into_iter().map(u32::from).collect();
            let (b, t) = (seen.b.clone(), seen.light.clone());
            self.offer(&b, &t, sum + pw * weight)?;
        }
        Ok(())
    }

    /// A member's coset on its first round: `b`, its shifted bits, and the
    /// shared checks that are odd there.
    fn first_look(&self, index: u64) -> Seen {
        let b = member_at(self.bp, self.gp, self.p, index);
        let mut bits = Vec::new();
        shifted_bits(self.b2, &b, &mut bits);
        let mut in_triple = vec![false; bits.len()];
        let mut triples = 0;
        for t in self.checks.odd_triples(&bits) {
            triples += 1;
            for &c in t {
                in_triple[c as usize] = true;
            }
        }
        let light = bits.iter().map(|&v| u32::from(v)).collect();
        Seen { b, bits, light, in_triple, triples, packed: false }
    }

    /// The member made of `b` modulo p and `t` (its shifted coset's member),
    /// kept when cheaper than the best; `cost` is what its parts say.
    fn offer(&mut self, b: &[u32], t: &[u32], cost: u64) -> Result<(), AlgebraError> {
        if cost >= self.best {
            return Ok(());
        }
        let p = self.p;
        let x: Vec<u32> = b.iter().zip(t).map(|(&bj, &tj)| if tj & 1 == 0 { bj } else { bj + p }).collect();
        if cost_of(&x) != cost {
            return Err(AlgebraError::Internal("W = 2p split: the member's cost is not its parts'".into()));
        }
        self.best = cost;
        self.member = Some((x, cost));
        Ok(())
    }
}

/// The member modulo p at odometer position `index`.
fn member_at(bp: &[u32], gp: &[Gen], p: u32, mut index: u64) -> Vec<u32> {
    let mut b = bp.to_vec();
    for g in gp {
        let digit = (index % u64::from(p)) as u32;
        index /= u64::from(p);
        for &(i, v) in &g.support {
            b[i as usize] = (b[i as usize] + digit * v) % p;
        }
    }
    b
}
