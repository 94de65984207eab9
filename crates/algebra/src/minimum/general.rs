//! Moduli other than 2: the lightest member of `base + ⟨gens⟩` in `(Z/W)^n`.
//!
//! 1. **Independent blocks**: generators that share no cell, directly or
//!    through others, are minimised separately (the cost is a sum over cells).
//! 2. **Classes**: in a block, cells with the same signature (the entries of
//!    every generator at that cell) move together: coefficients `c` add the
//!    same `⟨c, s⟩` to all of them. A class is summarised by its cost table
//!    `T[τ] = Σ (x₀_i + τ) mod W` over its cells.
//! 3. **Branch and bound** over the coefficients (`search`): fixing `c_t`
//!    shifts the tables of the classes touched by generator `t`, and classes
//!    whose *residual* signatures (the unfixed coordinates) agree merge into
//!    one item. The residual part of an item can only add a multiple of
//!    `g = gcd(W, residual entries)` (the subgroup its entries generate;
//!    generator orders divide `W`, so this holds for composite `W` too), so
//!    `min_{τ ∈ gZ/W} T[τ]` bounds the item's cost from below, and the sum over
//!    the items plus the settled classes bounds the whole subtree. Items are
//!    kept sorted by residual signature, read from the last coordinate, so the
//!    items that merge when coordinate `t` is fixed are adjacent. The
//!    coordinates are ordered so that the residual signatures of the last ones
//!    take few distinct values (large classes early, hence tight bounds).
//!    Cells whose signatures are unit multiples of one another share a
//!    class too: each signature is scaled so that its last nonzero entry `e`
//!    becomes `gcd(e, W)`, and a cell scaled by the unit `u` moves by
//!    `u⁻¹·σ` when its class moves by `σ` (the table accounts for it), so
//!    cells with opposite signatures are bounded together.
//! 4. For composite `W`, every member reduced modulo a prime `p | W` is a
//!    member of the reduced coset and costs at least as much there, so the
//!    reduced problem's lower bound (found by the same pipeline: `W = 2` by
//!    odd checks and its branch and bound) bounds this one. For `4 | W` the
//!    odd checks of `W = 2` are first weighed modulo 4 (`lifted`); for
//!    `W = 2p` and `W = 4` the member found modulo 2 or p is completed by a
//!    problem of `W = 2` (`crt_partner`, `hensel`). For `W = 2p` with few
//!    members modulo p, after the branch and bound below, each of them is
//!    searched with the `W = 2` minimum of the coset it leaves (`split`):
//!    a member and a bound.
//! 5. The descent (`heuristic`) gives the starting upper bound and, when the
//!    search is cut short by the budget, keeps improving the member found.
//!
//! A block of at most `2^16` members is always searched to the end (by
//! Gray-code enumeration when that is cheaper than setting up the classes);
//! larger ones within their share of the call's budget, their lower bound
//! being the least bound of the subtrees left open. Blocks above `2^40`
//! members are not searched at all (the bound could not rise before most
//! coefficients are fixed): root bound, reductions and descent only. Moduli
//! above 64 (no cost tables): Gray-code enumeration when it fits the budget,
//! else the descent (lower bound 0).

use super::crt::{crt_enumerate, enumerable};
use super::gray::gray_minimise;
use super::hensel::hensel_partner;
use super::heuristic::{heuristic, Effort};
use super::lifted::lifted_bound;
use super::meter::Meter;
use super::split::split_search;
use super::{apply, components, cost_of, gcd, minimise as minimise_any, reduce, restrict, Budget, Found, Gen};
use crate::cancel::Canceller;
use crate::AlgebraError;

/// Largest modulus with per-class cost tables (the branch and bound).
const TABLE_MAX: u32 = 64;
/// Blocks with at most this many members (as a power of two) are searched to
/// the end whatever the budget.
const EXACT_LOG2: f64 = 16.0;
/// Blocks whose Gray-code enumeration (members × average support) costs at
/// most this are enumerated outright (cheaper than setting up the search).
const GRAY_WORK: f64 = 65536.0;
/// ... and whose members times cells stay below this.
const EXACT_WORK: f64 = (1u64 << 30) as f64;
/// Largest signature table (`cells × generators` entries) built for a block.
const SIGNATURE_LIMIT: u64 = 1 << 24;
/// Most generators of a block searched by branch and bound (depth of the tree).
const MAX_DEPTH: usize = 4096;
/// The greedy choice of the coordinate order costs `d² × cells`; above this it
/// falls back to ordering by support size.
const ORDER_LIMIT: u64 = 1 << 20;
/// Larger blocks (as a power of two) are not searched by branch and bound: the
/// bound stays weak until most coefficients are fixed, so the search could
/// neither finish nor raise the lower bound within the budget; the descent
/// uses the work instead.
const SEARCH_MAX_LOG2: f64 = 40.0;
/// Budget units per signature entry (`cells × generators`) for building the classes.
const CLASS_UNITS: u64 = 4;
/// The branch and bound gets `1/SEARCH_PART` of what is left of a block's share.
const SEARCH_PART: u64 = 2;
/// Work units charged per item and child of a node, besides its `w` entries.
const ITEM_COST: usize = 8;
/// Part of a block's share the quick descent may use; the reductions take
/// `(REDUCE_PART − 1) / REDUCE_PART` of what is left after it.
const QUICK_PART: u64 = 8;
const REDUCE_PART: u64 = 4;
/// For `4 | W`, the pairs of classes the weighed odd checks (`lifted`) may
/// examine: `1/LIFT_PART` of the reductions' share.
const LIFT_PART: u64 = 4;
/// Kernels modulo 2 of at most this many generators are searched to the end
/// by the pipeline of `W = 2` (`binary.rs`), whose bound may then exceed the
/// odd checks: for `4 | W > 4` its reduction runs beside the weighed checks.
const TWO_EXACT_DIM: usize = 24;
/// For `W = 2p` with few members modulo p, the search over each of them
/// (`split`) gets `(SPLIT_PART − 1)/SPLIT_PART` of what the branch and
/// bound left of the block's share, the final descent the rest.
const SPLIT_PART: u64 = 4;
/// For `W = 2p`, the Chinese-remainder partner search gets `1/CRT_PART` of
/// what is left after the reductions.
const CRT_PART: u64 = 2;

/// Minimises over each independent block of generators; the lower bounds add up.
pub(super) fn minimise(
    base: &[u32],
    gens: &[&Gen],
    w: u32,
    budget: &mut Budget,
    canc: &mut Canceller<'_>,
) -> Result<Found, AlgebraError> {
    let n = base.len();
    let mut blocks = components(gens, n);
    canc.tick(gens.iter().map(|g| g.support.len()).sum())?;
    let log2 = |b: &Vec<usize>| b.iter().map(|&j| (gens[j].order as f64).log2()).sum::<f64>();
    blocks.sort_by(|a, b| log2(a).total_cmp(&log2(b)));
    let large = blocks.iter().filter(|b| log2(b) > EXACT_LOG2).count();
    let mut large_done = 0;
    let mut x = base.to_vec();
    let mut in_block = vec![false; n];
    let mut local_of = vec![u32::MAX; n];
    let (mut cost, mut lower) = (0u64, 0u64);
    for block in &blocks {
        let (cells, local_base, local) = restrict(base, gens, block, &mut local_of);
        let share = if log2(block) > EXACT_LOG2 {
            large_done += 1;
            budget.share(large - large_done + 1)
        } else if log2(block).exp2() * cells.len() as f64 > EXACT_WORK {
            // Few members but a huge block: not searched outright.
            budget.share(large - large_done + 1)
        } else {
            0
        };
        let found = solve_block(&local_base, &local, w, share, budget, canc)?;
        for (k, &c) in cells.iter().enumerate() {
            x[c as usize] = found.x[k];
            in_block[c as usize] = true;
        }
        cost += found.cost;
        lower += found.lower;
    }
    let fixed: u64 = (0..n).filter(|&c| !in_block[c]).map(|c| x[c] as u64).sum();
    Ok(Found { x, cost: cost + fixed, lower: lower + fixed })
}

/// The primes `p < w` dividing `w`, whose reductions are tried for a lower
/// bound (`12 → 2, 3`; `4 → 2`; a prime: none). Every member reduced modulo
/// `p` is a member of the reduced coset and costs at least as much there.
fn reductions(w: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let (mut rest, mut p) = (w, 2);
    while rest > 1 {
        if p * p > rest {
            p = rest;
        }
        if rest % p == 0 {
            while rest % p == 0 {
                rest /= p;
            }
            if p < w {
                out.push(p);
            }
        }
        p += 1;
    }
    out
}

/// One block (local cell numbering): the best member found within `share`
/// work units (blocks of at most `2^EXACT_LOG2` members: to the end).
fn solve_block(
    base: &[u32],
    gens: &[Gen],
    w: u32,
    share: u64,
    budget: &mut Budget,
    canc: &mut Canceller<'_>,
) -> Result<Found, AlgebraError> {
    let n = base.len();
    let d = gens.len();
    let refs: Vec<&Gen> = gens.iter().collect();
    let log2: f64 = gens.iter().map(|g| (g.order as f64).log2()).sum();
    // (Small enough to search to the end whatever the budget.)
    let exact = log2 <= EXACT_LOG2 && log2.exp2() * (n as f64) <= EXACT_WORK;
    let start_left = budget.left();
    let remaining = |budget: &Budget| share.saturating_sub(start_left - budget.left());
    let tables = w <= TABLE_MAX
        && (n as u64) * (d as u64) <= SIGNATURE_LIMIT
        && d <= MAX_DEPTH
        && (n as u64) * (w as u64) < u32::MAX as u64;
    let support = gens.iter().map(|g| g.support.len() as f64).sum::<f64>() / d.max(1) as f64;
    if !tables || log2.exp2() * (support + 1.0) <= GRAY_WORK {
        return enumerate_or_descend(base, &refs, w, exact, share, budget, canc);
    }
    let searched = exact || log2 <= SEARCH_MAX_LOG2;
    let classes = Classes::new(base, gens, w, searched, canc)?;
    let ordering = if searched && (d * d * n) as u64 <= ORDER_LIMIT { (d * d * n / 2) as u64 } else { 0 };
    budget.spend(CLASS_UNITS * (n * d) as u64 + ordering);
    let root = classes.root_bound();
    let (mut x, mut cost) = if exact {
        (base.to_vec(), cost_of(base))
    } else {
        let quick = (share / QUICK_PART).max(1);
        budget.limited(quick, |units| heuristic(base, &refs, w, root, Effort::Quick, units, canc))?
    };
    let mut lower = root.min(cost);
    if cost > lower && !exact {
        // Lower bounds from the coset reduced modulo the primes dividing `w`
        // (for `W = 2` by odd checks, often strong): three quarters of what
        // is left, most of it to the prime 2.
        let primes = reductions(w);
        let (mut odd_member, mut even_member) = (None, None);
        let cap = remaining(budget) / REDUCE_PART * (REDUCE_PART - 1);
        let reduce_start = budget.left();
        // The coset modulo 4 (weighed checks, and the member modulo 4 below).
        let mod4 = w.is_multiple_of(4).then(|| reduce(base, gens, 4));
        // Units the reductions count as spent: what they used, or a share set
        // aside for the weighed checks when they stand in for W = 2.
        let mut set_aside = 0;
        let mut skip_two = false;
        if let Some((rb, rg)) = &mod4 {
            // The odd checks of W = 2 weighed modulo 4 (`lifted`): the 48×48
            // torus and Klein bottle with W = 4 are proven by them alone. For
            // W = 4 they come before the reduction modulo 2 (whose member the
            // Hensel partner needs). Above 4, when the kernel modulo 2 is
            // beyond what its pipeline searches to the end, that reduction's
            // bound is its packing of these same odd checks (each weighs at
            // least 1 here), so they take its place and its share.
            let odd_gens = rg.iter().filter(|g| g.support.iter().any(|&(_, v)| v % 2 == 1)).count();
            skip_two = w > 4 && odd_gens > TWO_EXACT_DIM;
            let share = if skip_two { cap / 4 * 3 } else { cap / LIFT_PART };
            let (bound, work) = lifted_bound(rb, rg, share, canc)?;
            budget.spend(work);
            lower = lower.max(bound);
            if skip_two {
                set_aside = share;
            }
        }
        let primes: Vec<u32> =
            if cost > lower { primes.into_iter().filter(|&m| !(m == 2 && skip_two)).collect() } else { Vec::new() };
        for (i, &m) in primes.iter().enumerate() {
            let avail = cap.saturating_sub((reduce_start - budget.left()).max(set_aside));
            let left = (primes.len() - i) as u64;
            let part = if m == 2 && left > 1 { avail / 4 * 3 } else { avail / left };
            let (rb, rg) = reduce(base, gens, m);
            let mut sub = Budget::new(part);
            let f = minimise_any(&rb, &rg, m, &mut sub, canc)?;
            budget.spend((part - sub.left()).max(n as u64));
            lower = lower.max(f.lower);
            if w == 2 * m && m > 2 {
                odd_member = Some(f.x);
            } else if m == 2 {
                even_member = Some(f.x);
            }
        }
        // W = 4: the cheapest member over the member found modulo 2 is a
        // problem of W = 2 too (`hensel`).
        if let Some(y) = even_member.as_ref().filter(|_| cost > lower && w == 4) {
            let part = remaining(budget) / CRT_PART;
            let mut sub = Budget::new(part);
            let (x4, c4) = hensel_partner(base, gens, y, &mut sub, canc)?;
            budget.spend((part - sub.left()).max(n as u64));
            if c4 < cost {
                (x, cost) = (x4, c4);
            }
        }
        // W = m·p with few members modulo p: each of them against the member
        // found modulo m (`crt`): modulo 2 from the reduction, modulo 4 from
        // the descent on the coset reduced modulo 4.
        if let Some((m, p)) = crt_split(w).filter(|_| cost > lower) {
            let (bp, gp) = reduce(base, gens, p);
            let few = enumerable(gp.len(), p);
            let a = match (m, &mod4) {
                (2, _) if few => even_member,
                (4, Some((rb, rg))) if few => {
                    // A cheap member modulo 4 from the descent (the whole
                    // pipeline of W = 4 would cost more than it is charged).
                    let refs4: Vec<&Gen> = rg.iter().collect();
                    let part = remaining(budget) / CRT_PART / 2;
                    let (a, _) =
                        budget.limited(part, |units| heuristic(rb, &refs4, 4, 0, Effort::Quick, units, canc))?;
                    Some(a)
                }
                _ => None,
            };
            if let Some(a) = a {
                let part = remaining(budget) / CRT_PART;
                let mut sub = Budget::new(part);
                let found = crt_enumerate(&a, (m, p), &bp, &gp, &mut sub, canc)?;
                budget.spend(part - sub.left());
                if let Some((x3, c3)) = found.filter(|&(_, c)| c < cost) {
                    (x, cost) = (x3, c3);
                }
            }
        }
        // W = 2p: a member modulo p and one modulo 2 make a member modulo W
        // by Chinese remainders, and the best partner of the first is a
        // problem of W = 2 alone (`crt_partner`).
        if let Some(b) = odd_member {
            let part = remaining(budget) / CRT_PART;
            let mut sub = Budget::new(part);
            let (x2, c2) = crt_partner(base, gens, &b, w, &mut sub, canc)?;
            budget.spend((part - sub.left()).max(n as u64));
            if c2 < cost {
                (x, cost) = (x2, c2);
            }
        }
    }
    if cost > lower && searched {
        let units = if exact { None } else { Some(remaining(budget) / SEARCH_PART) };
        let out = classes.search(cost, units, canc)?;
        budget.spend(out.used);
        lower = lower.max(out.lower);
        if let Some((c, digits)) = out.best {
            x = base.to_vec();
            apply(&mut x, &refs, &classes.coefficients(&digits), w);
            cost = c;
        }
    }
    // W = 2p with few members modulo p: each of them with the exact
    // W = 2 minimum of the coset it leaves (`split`), a bound too.
    if let Some((2, p)) = crt_split(w).filter(|_| cost > lower && !exact) {
        let part = remaining(budget) / SPLIT_PART * (SPLIT_PART - 1);
        let mut sub = Budget::new(part);
        let found = split_search(base, gens, p, cost, &mut sub, canc)?;
        budget.spend(part - sub.left());
        if let Some(split) = found {
            lower = lower.max(split.lower);
            if let Some((xs, cs)) = split.member.filter(|&(_, c)| c < cost) {
                (x, cost) = (xs, cs);
            }
        }
    }
    if cost > lower && remaining(budget) > 0 {
        let (fx, fc) =
            budget.limited(remaining(budget), |units| heuristic(&x, &refs, w, lower, Effort::Full, units, canc))?;
        if fc < cost {
            (x, cost) = (fx, fc);
        }
    }
    if cost < lower {
        return Err(AlgebraError::Internal(format!(
            "minimum weight: a member of cost {cost} beats the proven bound {lower} (W = {w})"
        )));
    }
    Ok(Found { x, cost, lower })
}

/// For `w = 2p` (p an odd prime), a cheap member of the coset whose
/// residues modulo `p` are `b` (a member of the coset reduced modulo p),
/// found within `budget`: the member and its cost.
///
/// By Chinese remainders `Z/2p ≅ Z/2 × Z/p`, so `b` and any member `a` of
/// the coset reduced modulo 2 make one member, `x_j = b_j` where `a_j ≡ b_j`
/// (mod 2) and `b_j + p` elsewhere. Its cost is `Σ b + p·|a ⊕ β|` with
/// `β = b mod 2`, so the best partner is the lightest member of
/// `(base ⊕ β) mod 2 + kernel mod 2`: a problem of `W = 2`, given to the
/// descent (which enumerates kernels of up to 16 dimensions outright, so
/// the partner is then the cheapest). Only the member is wanted here, not a
/// bound. On the 48×48 torus with W = 6, `b` is the checkerboard of 1152
/// presses and the partner adds 3 × 912: 3888 presses (4128 before).
pub(super) fn crt_partner(
    base: &[u32],
    gens: &[Gen],
    b: &[u32],
    w: u32,
    budget: &mut Budget,
    canc: &mut Canceller<'_>,
) -> Result<(Vec<u32>, u64), AlgebraError> {
    let p = w / 2;
    let (rb, rg) = reduce(base, gens, 2);
    let shifted: Vec<u32> = rb.iter().zip(b).map(|(&a, &bj)| (a ^ bj) & 1).collect();
    let refs: Vec<&Gen> = rg.iter().collect();
    let (fx, _) = budget.limited(budget.left(), |units| heuristic(&shifted, &refs, 2, 0, Effort::Full, units, canc))?;
    let x: Vec<u32> = fx.iter().zip(b).map(|(&d, &bj)| if d & 1 == 0 { bj } else { bj + p }).collect();
    // (The Chinese-remainder member lies in the coset: a = fx ⊕ β is a
    // member modulo 2 and b one modulo p.)
    let cost = cost_of(&x);
    Ok((x, cost))
}

/// `w = m·p` with `m` 2 or 4 and `p` an odd prime (6, 10, 12, 14, 20, …):
/// `(m, p)`.
pub(super) fn crt_split(w: u32) -> Option<(u32, u32)> {
    let m = if w.is_multiple_of(4) { 4 } else { 2 };
    let p = w / m;
    let prime = p > 2 && (2..p).take_while(|d| d * d <= p).all(|d| !p.is_multiple_of(d));
    (w.is_multiple_of(2) && !w.is_multiple_of(8) && prime).then_some((m, p))
}

/// Without cost tables (large `w` or a huge block): Gray-code enumeration when
/// exact or affordable, else the descent (lower bound 0).
fn enumerate_or_descend(
    base: &[u32],
    gens: &[&Gen],
    w: u32,
    exact: bool,
    share: u64,
    budget: &mut Budget,
    canc: &mut Canceller<'_>,
) -> Result<Found, AlgebraError> {
    let log2: f64 = gens.iter().map(|g| (g.order as f64).log2()).sum();
    let support = gens.iter().map(|g| g.support.len() as f64).sum::<f64>() / gens.len().max(1) as f64;
    let work = log2.exp2() * (support + 1.0);
    if exact || (log2 < 40.0 && work <= share.min(budget.left()) as f64) {
        let radices: Vec<u32> = gens.iter().map(|g| g.order).collect();
        let (cost, digits) = gray_minimise(base, gens, &radices, w, canc)?;
        budget.spend(work as u64);
        let mut x = base.to_vec();
        apply(&mut x, gens, &digits, w);
        return Ok(Found { x, cost, lower: cost });
    }
    let (x, cost) = budget.limited(share, |units| heuristic(base, gens, w, 0, Effort::Full, units, canc))?;
    Ok(Found { x, cost, lower: 0 })
}

/// The cells of a block grouped by signature, in search order (see the module
/// documentation).
pub(super) struct Classes {
    w: usize,
    /// Number of coordinates (generators).
    d: usize,
    /// Number of classes.
    k: usize,
    /// Coordinate `t` of the search is generator `perm[t]`.
    perm: Vec<usize>,
    /// Order of each coordinate.
    orders: Vec<u32>,
    /// `sig[t·k + c]`: entry of coordinate `t` (search order) of class `c`.
    sig: Vec<u8>,
    /// Per class, its `w` costs `T[τ]`.
    table: Vec<u32>,
    /// `id[t·k + c]`: rank of the residual signature (coordinates `t..d`) of
    /// class `c` among the distinct ones; classes are sorted so that equal
    /// residuals are adjacent at every depth.
    id: Vec<u32>,
    /// `sgcd[t·k + c]`: `gcd(w, residual entries of c from t)` (`w` when zero).
    sgcd: Vec<u8>,
}

/// Per cell of `n` (`raw` holds `d` entries a cell, in generator order), its
/// signature in search order `perm` read backwards, scaled by the unit that
/// makes its last nonzero entry `e` into `gcd(e, w)`; and per cell the
/// inverse of that unit, its multiple of the common shift.
fn scaled_signatures(raw: &[u8], perm: &[usize], (n, d): (usize, usize), w: u32) -> (Vec<u8>, Vec<u8>) {
    let (scale, inverse) = unit_tables(w);
    let mut rev = vec![0u8; n * d];
    let mut mult = vec![1u8; n];
    for i in 0..n {
        let row = &mut rev[i * d..(i + 1) * d];
        for (t, &j) in perm.iter().enumerate() {
            row[d - 1 - t] = raw[i * d + j];
        }
        if let Some(&e) = row.iter().find(|&&e| e != 0) {
            let u = scale[e as usize] as u32;
            if u != 1 {
                for v in row.iter_mut() {
                    *v = (*v as u32 * u % w) as u8;
                }
            }
            mult[i] = inverse[u as usize];
        }
    }
    (rev, mult)
}

/// From the coordinate-major signatures `sig[t·k + c]` of the `k` classes:
/// `id[t·k + c]`, the class of `c` among those equal on coordinates `t..`,
/// and `sgcd[t·k + c]`, the gcd of `w` and those coordinates (`w` when all
/// are zero); row `d` is the empty suffix.
fn suffix_classes(sig: &[u8], d: usize, k: usize, w: u32, gcds: &[u8]) -> (Vec<u32>, Vec<u8>) {
    let wu = w as usize;
    let mut id = vec![0u32; (d + 1) * k];
    let mut sgcd = vec![w as u8; (d + 1) * k];
    for t in (0..d).rev() {
        let mut next = 0u32;
        for c in 0..k {
            let e = sig[t * k + c];
            if c > 0 && (id[(t + 1) * k + c] != id[(t + 1) * k + c - 1] || e != sig[t * k + c - 1]) {
                next += 1;
            }
            id[t * k + c] = next;
            sgcd[t * k + c] = gcds[sgcd[(t + 1) * k + c] as usize * wu + e as usize];
        }
    }
    (id, sgcd)
}

impl Classes {
    /// The classes of a block; `search`: with what the branch and bound needs
    /// (else only the root bound can be asked for).
    pub(super) fn new(
        base: &[u32],
        gens: &[Gen],
        w: u32,
        search: bool,
        canc: &mut Canceller<'_>,
    ) -> Result<Self, AlgebraError> {
        let (n, d, wu) = (base.len(), gens.len(), w as usize);
        // Signatures in generator order, then the coordinate order.
        let mut raw = vec![0u8; n * d];
        for (j, g) in gens.iter().enumerate() {
            for &(i, v) in &g.support {
                raw[i as usize * d + j] = v as u8;
            }
        }
        canc.tick(n * d)?;
        let perm = if search { order_coordinates(&raw, n, d, gens, w) } else { (0..d).collect() };
        // Per cell, its signature in search order read backwards (so that
        // slice order is the order from the last coordinate), scaled by a unit
        // `u` that makes its last nonzero entry `e` into `gcd(e, w)`: cells whose
        // signatures are unit multiples of each other then share one, each
        // moving by its own multiple `u⁻¹·σ` of the common shift `σ`.
        let (rev, mult) = scaled_signatures(&raw, &perm, (n, d), w);
        drop(raw);
        let mut cells: Vec<u32> = (0..n as u32).collect();
        let key = |c: u32| &rev[c as usize * d..(c as usize + 1) * d];
        cells.sort_unstable_by(|&a, &b| key(a).cmp(key(b)));
        canc.tick(n * d)?;
        let mut firsts: Vec<u32> = Vec::new();
        let mut table: Vec<u32> = Vec::new();
        let mut k = 0;
        for (pos, &c) in cells.iter().enumerate() {
            let s = key(c);
            if pos == 0 || s != key(cells[pos - 1]) {
                firsts.push(c);
                table.resize(table.len() + wu, 0);
                k += 1;
            }
            // Cost of the cell when the common shift is σ: (x₀ + m·σ) mod w.
            let row = &mut table[(k - 1) * wu..k * wu];
            let (v, m) = (base[c as usize] as usize, mult[c as usize] as usize);
            let mut y = v;
            for cost in row.iter_mut() {
                *cost += y as u32;
                y += m;
                if y >= wu {
                    y -= wu;
                }
            }
        }
        // gcd(g, e) for g ≤ w and e < w.
        let gcds: Vec<u8> = (0..=wu).flat_map(|g| (0..wu).map(move |e| gcd(g as u32, e as u32) as u8)).collect();
        if !search {
            let sgcd = firsts
                .iter()
                .map(|&cell| key(cell).iter().fold(w as u8, |g, &e| gcds[g as usize * wu + e as usize]))
                .collect();
            let orders = perm.iter().map(|&j| gens[j].order).collect();
            return Ok(Classes { w: wu, d, k, perm, orders, sig: Vec::new(), table, id: Vec::new(), sgcd });
        }
        // Coordinate-major signatures: sig[t·k + c].
        let mut sig = vec![0u8; d * k];
        for (c, &cell) in firsts.iter().enumerate() {
            for (t, &e) in key(cell).iter().rev().enumerate() {
                sig[t * k + c] = e;
            }
        }
        let (id, sgcd) = suffix_classes(&sig, d, k, w, &gcds);
        canc.tick(k * d)?;
        let orders = perm.iter().map(|&j| gens[j].order).collect();
        Ok(Classes { w: wu, d, k, perm, orders, sig, table, id, sgcd })
    }

    /// The coefficients of the generators (in their given order) for digits
    /// in search order.
    pub(super) fn coefficients(&self, digits: &[u32]) -> Vec<u32> {
        let mut coeffs = vec![0u32; self.d];
        for (t, &a) in digits.iter().enumerate() {
            coeffs[self.perm[t]] = a;
        }
        coeffs
    }

    /// `min_{τ ∈ gZ/w} T[τ]`.
    #[inline]
    fn item_bound(table: &[u32], g: usize) -> u64 {
        table.iter().step_by(g).copied().min().unwrap_or(0) as u64
    }

    /// The bound at the root: every class on its own.
    pub(super) fn root_bound(&self) -> u64 {
        (0..self.k)
            .map(|c| {
                let g = self.sgcd[c] as usize;
                let t = &self.table[c * self.w..(c + 1) * self.w];
                if g == self.w {
                    t[0] as u64
                } else {
                    Self::item_bound(t, g)
                }
            })
            .sum()
    }

    /// Branch and bound for a member cheaper than `upper`, within `budget`
    /// work units if given.
    pub(super) fn search(
        &self,
        upper: u64,
        budget: Option<u64>,
        canc: &mut Canceller<'_>,
    ) -> Result<Outcome, AlgebraError> {
        let root_bound = self.root_bound();
        let max_order = self.orders.iter().copied().max().unwrap_or(1) as usize;
        let mut s = Search {
            c: self,
            best_cost: upper,
            best_digits: None,
            digits: vec![0; self.d],
            floor: root_bound,
            meter: Meter::new(budget, canc),
            open_min: u64::MAX,
            bufs: (0..=self.d).map(|_| (0..max_order).map(|_| Items::default()).collect()).collect(),
            order: vec![Vec::new(); self.d + 1],
            scratch: vec![0; self.w * max_order],
        };
        if root_bound < upper {
            let root = &mut s.bufs[0][0];
            root.reps = (0..self.k as u32).collect();
            root.tables.clone_from(&self.table);
            s.node(0, 0, 0, root_bound)?;
        }
        let lower = s.best_cost.min(s.open_min).max(root_bound.min(s.best_cost));
        let best = s.best_digits.take().map(|dg| (s.best_cost, dg));
        Ok(Outcome { best, lower, used: s.meter.used() })
    }
}

/// For each `e` in `1..w`, the least unit `u` with `u·e ≡ gcd(e, w)`, and for
/// each unit its inverse (both tables of `w` entries; 1 elsewhere).
fn unit_tables(w: u32) -> (Vec<u8>, Vec<u8>) {
    let units: Vec<u32> = (1..w).filter(|&u| gcd(u, w) == 1).collect();
    let mut scale = vec![1u8; w as usize];
    let mut inverse = vec![1u8; w as usize];
    for e in 1..w {
        let g = gcd(e, w);
        if let Some(&u) = units.iter().find(|&&u| u * e % w == g) {
            scale[e as usize] = u as u8;
        }
    }
    for &u in &units {
        if let Some(&v) = units.iter().find(|&&v| u * v % w == 1) {
            inverse[u as usize] = v as u8;
        }
    }
    (scale, inverse)
}

/// Orders the coordinates so that the last ones leave few distinct residual
/// signatures: greedily, from the last, the coordinate that splits the cells'
/// patterns on the ones already chosen the least. Too large a block: by
/// decreasing support instead (the generators touching most cells first).
fn order_coordinates(raw: &[u8], n: usize, d: usize, gens: &[Gen], w: u32) -> Vec<usize> {
    let mut by_support: Vec<usize> = (0..d).collect();
    by_support.sort_by_key(|&j| std::cmp::Reverse(gens[j].support.len()));
    if (d as u64) * (d as u64) * (n as u64) > ORDER_LIMIT || d < 2 {
        return by_support;
    }
    let w = w as usize;
    // pattern[i]: id of cell i's pattern on the coordinates chosen so far.
    let mut pattern = vec![0u32; n];
    let mut chosen = vec![false; d];
    let mut tail: Vec<usize> = Vec::new();
    // (pattern, entry) pairs seen in the current pass: stamp and new id.
    let mut stamp = vec![0u32; n * w];
    let mut new_id = vec![0u32; n * w];
    let mut epoch = 0u32;
    for _ in 0..d {
        let mut best: Option<(usize, usize)> = None;
        for &j in &by_support {
            if chosen[j] {
                continue;
            }
            epoch += 1;
            let mut distinct = 0;
            for i in 0..n {
                let key = pattern[i] as usize * w + raw[i * d + j] as usize;
                if stamp[key] != epoch {
                    stamp[key] = epoch;
                    distinct += 1;
                }
            }
            if best.is_none_or(|(c, _)| distinct < c) {
                best = Some((distinct, j));
            }
        }
        let Some((_, j)) = best else { break };
        epoch += 1;
        let mut distinct = 0u32;
        for i in 0..n {
            let key = pattern[i] as usize * w + raw[i * d + j] as usize;
            if stamp[key] != epoch {
                stamp[key] = epoch;
                new_id[key] = distinct;
                distinct += 1;
            }
            pattern[i] = new_id[key];
        }
        chosen[j] = true;
        tail.push(j);
    }
    tail.reverse();
    tail
}

/// Items of a node: representative classes (for the residual signature) and
/// their merged cost tables, `w` entries each.
#[derive(Default)]
struct Items {
    reps: Vec<u32>,
    tables: Vec<u32>,
    /// Cost of the classes settled (residual zero) at this node.
    settled: u64,
    /// Lower bound of the node: `settled` plus the items' bounds.
    bound: u64,
}

pub(super) struct Outcome {
    /// A member cheaper than the upper bound: its cost and coefficients (in
    /// search order, see [`Classes::coefficients`]).
    pub(super) best: Option<(u64, Vec<u32>)>,
    /// Proven lower bound on every member.
    pub(super) lower: u64,
    /// Work units spent.
    pub(super) used: u64,
}

struct Search<'s, 'c, 'a> {
    c: &'s Classes,
    best_cost: u64,
    best_digits: Option<Vec<u32>>,
    digits: Vec<u32>,
    /// The root bound: once reached, nothing better exists.
    floor: u64,
    /// Work accounting (budget, units spent, cancellation).
    meter: Meter<'c, 'a>,
    open_min: u64,
    /// `bufs[t][a]`: the items of child `a` of the node expanded at depth `t − 1`.
    bufs: Vec<Vec<Items>>,
    /// Per depth, the order in which the children are visited.
    order: Vec<Vec<u32>>,
    scratch: Vec<u32>,
}

impl Search<'_, '_, '_> {
    /// Expands the node at depth `t` (items in `bufs[t][slot]`, settled cost
    /// `settled`, lower bound `bound`).
    fn node(&mut self, t: usize, slot: usize, settled: u64, bound: u64) -> Result<(), AlgebraError> {
        if self.meter.exhausted() {
            self.open_min = self.open_min.min(bound);
            return Ok(());
        }
        if self.best_cost <= self.floor {
            return Ok(());
        }
        let c = self.c;
        let (w, d) = (c.w, c.d);
        let count = self.bufs[t][slot].reps.len();
        if t == d || count == 0 {
            // Every class settled: the remaining coefficients change nothing.
            if settled < self.best_cost {
                self.best_cost = settled;
                let mut dg = self.digits.clone();
                dg[t..].iter_mut().for_each(|v| *v = 0);
                self.best_digits = Some(dg);
            }
            return Ok(());
        }
        let o = c.orders[t] as usize;
        if !self.meter.charge(count * o * (w + ITEM_COST) + o)? {
            self.open_min = self.open_min.min(bound);
            return Ok(());
        }
        let cur = std::mem::take(&mut self.bufs[t][slot]);
        let mut children = std::mem::take(&mut self.bufs[t + 1]);
        for ch in children.iter_mut().take(o) {
            ch.reps.clear();
            ch.tables.clear();
            ch.settled = settled;
            ch.bound = settled;
        }
        spread(c, t, o, &cur, &mut children, &mut self.scratch);
        self.bufs[t][slot] = cur;
        self.bufs[t + 1] = children;
        // Children by increasing bound (the first among equals first).
        let mut order = std::mem::take(&mut self.order[t]);
        order.clear();
        order.extend(0..o as u32);
        order.sort_by_key(|&a| self.bufs[t + 1][a as usize].bound);
        for &a in &order {
            let child = &self.bufs[t + 1][a as usize];
            let (b, settled) = (child.bound.max(bound), child.settled);
            if b >= self.best_cost {
                continue;
            }
            self.digits[t] = a;
            self.node(t + 1, a as usize, settled, b)?;
        }
        self.order[t] = order;
        self.digits[t] = 0;
        Ok(())
    }
}

/// The items of the node at depth `t` (`cur`) spread over its `o` children:
/// consecutive items that the next class merges become one item, its table
/// the sum of theirs shifted by each child's coefficient; items with no
/// residual are settled in every child.
fn spread(c: &Classes, t: usize, o: usize, cur: &Items, children: &mut [Items], scratch: &mut [u32]) {
    let (w, k) = (c.w, c.k);
    let count = cur.reps.len();
    let mut i = 0;
    while i < count {
        let rep = cur.reps[i] as usize;
        let next_id = c.id[(t + 1) * k + rep];
        let mut end = i + 1;
        while end < count && c.id[(t + 1) * k + cur.reps[end] as usize] == next_id {
            end += 1;
        }
        let g = c.sgcd[(t + 1) * k + rep] as usize;
        if g == w {
            // Residual zero: the items are settled at `τ = 0`.
            for it in i..end {
                let r = c.sig[t * k + cur.reps[it] as usize] as usize;
                let mut s = 0;
                for child in children.iter_mut().take(o) {
                    let v = cur.tables[it * w + s] as u64;
                    child.settled += v;
                    child.bound += v;
                    s += r;
                    if s >= w {
                        s -= w;
                    }
                }
            }
            i = end;
            continue;
        }
        if end == i + 1 {
            // One item: each child gets its table shifted by `a·r`.
            let r = c.sig[t * k + rep] as usize;
            let tab = &cur.tables[i * w..(i + 1) * w];
            let mut s = 0;
            for child in children.iter_mut().take(o) {
                child.reps.push(rep as u32);
                let at = child.tables.len();
                child.tables.extend_from_slice(&tab[s..]);
                child.tables.extend_from_slice(&tab[..s]);
                child.bound += Classes::item_bound(&child.tables[at..], g);
                s += r;
                if s >= w {
                    s -= w;
                }
            }
            i = end;
            continue;
        }
        // Several items merge: scratch[a·w + τ] = Σ T_item[(τ + a·r_item) mod w].
        let sc = &mut scratch[..o * w];
        sc.fill(0);
        for it in i..end {
            let r = c.sig[t * k + cur.reps[it] as usize] as usize;
            let tab = &cur.tables[it * w..(it + 1) * w];
            let mut s = 0;
            for row in sc.chunks_exact_mut(w) {
                let (lo, hi) = row.split_at_mut(w - s);
                for (m, &v) in lo.iter_mut().zip(&tab[s..]) {
                    *m += v;
                }
                for (m, &v) in hi.iter_mut().zip(&tab[..s]) {
                    *m += v;
                }
                s += r;
                if s >= w {
                    s -= w;
                }
            }
        }
        for (a, child) in children.iter_mut().enumerate().take(o) {
            let row = &sc[a * w..(a + 1) * w];
            child.bound += Classes::item_bound(row, g);
            child.reps.push(rep as u32);
            child.tables.extend_from_slice(row);
        }
        i = end;
    }
}
