//! Symbolic light chasing, for any rule, topology and modulus.
//!
//! Equations (one per cell: the light there ends right) are taken in reading
//! order. Each one *forces* a press it mentions that nothing has determined
//! yet — the latest one in reading order whose coefficient is a unit mod W,
//! e.g. the cell below for the cross rule — as an affine form in a few
//! *unknowns*: the presses the chase cannot force (the first row; the first
//! two rows when the board wraps top to bottom; the first row and column for
//! King; presses next to locked cells or twisted gluings). An equation with
//! nothing left to force joins the small *leftover* system, which the algebra
//! crate solves exactly (any W, composite too); its particular solution,
//! kernel and certificate are then chased back to whole boards.
//!
//! Each form is a dense vector over the unknowns (bit-packed for W = 2) and
//! lives only from the press it describes until the last equation that
//! mentions it, so memory is O(width × unknowns), not O(cells × unknowns).
//! The board is chased along its longer side when that leaves fewer unknowns.
//!
//! Certificates: a leftover certificate `z` (`zᵀE = 0`, `z·f ≠ 0`) extends to
//! every equation by one backward pass, because the equation that forced a
//! press is the first to mention it: `y_e = −(Σ_{e' ≠ e} y_{e'}·A[e', v]) /
//! A[e, v]` for the press `v` that `e` forced, taking equations in reverse.

use lights_algebra::modular::{gcd, mod_inv};
use lights_algebra::{solve_cancellable, solve_gf2_dense, BitMatrix, Kernel, KernelGenerator, Solution, SparseMatrix};
use num_bigint::BigUint;

use super::{minimum_of, prime_poly, prime_torus, recheck, FastError, FastModulus, MATERIALIZE_LIMIT};
use super::{try_vec, try_with_capacity};
use crate::lower::{press_pattern_into, POLL_EVERY};
use crate::model::{Puzzle, Rule, Topology};
use crate::report::{unknowns_limit, Presses, QuietPattern, Report, SolveError, SolveOptions};

const NONE: u32 = u32::MAX;

/// Whether the chase is the better path for this puzzle (few unknowns left).
pub fn worthwhile(p: &Puzzle) -> bool {
    !matches!(p.rule, Rule::Flip) && p.cells() >= 2
}

/// Solves by the chase when it leaves few enough unknowns; `None` when dense
/// elimination is the better path.
pub fn solve(p: &Puzzle, opts: SolveOptions, cancel: &dyn Fn() -> bool) -> Option<Result<Report, SolveError>> {
    let plan = match Plan::best_for(p, PRIME_POLY_MIN_WIDTH, cancel) {
        Ok(plan) => plan,
        Err(e) => return Some(Err(e.into())),
    };
    let free = p.free_cells();
    // The leftover system is dense: it must be much smaller than the whole one.
    if plan.unknowns * 4 > free.max(16) {
        return None;
    }
    // The limit is dense elimination's: the polynomial method eliminates
    // nothing (its cost is the board plus the width squared).
    let limit = unknowns_limit(p.states);
    if plan.unknowns > limit && polynomial_fit(p, &plan, PRIME_POLY_MIN_WIDTH).is_none() {
        return Some(Err(SolveError::TooLarge { unknowns: plan.unknowns, limit }));
    }
    Some(run(p, &plan, opts, cancel).map_err(SolveError::from))
}

/// Solves by the chase with its leftover system solved by the polynomial
/// method over GF(p) on rows of any width; `None` when that method does not
/// apply (for tests: it is then compared with the symbolic chase).
pub fn solve_by_prime_polynomial(p: &Puzzle, opts: SolveOptions) -> Option<Result<Report, SolveError>> {
    let never = || false;
    let plan = match Plan::best_for(p, 1, &never) {
        Ok(plan) => plan,
        Err(e) => return Some(Err(e.into())),
    };
    polynomial_fit(p, &plan, 1)?;
    Some(run_with(p, &plan, opts, 1, &never).map_err(SolveError::from))
}

/// Solves by the chase whatever the number of unknowns (for tests).
pub fn solve_always(p: &Puzzle, opts: SolveOptions, cancel: &dyn Fn() -> bool) -> Option<Result<Report, SolveError>> {
    Some(Plan::best(p, cancel).and_then(|plan| run(p, &plan, opts, cancel)).map_err(SolveError::from))
}

/// Reading order of the chase: the board row by row, or column by column
/// when `transposed` (then the chase runs along the rows), or `folded`.
///
/// Folded (a Klein bottle with an even number of columns, for the
/// polynomial method): line `k < cols/2` is column `k` read down, then
/// column `cols − 1 − k` read down. Crossing the bottom of column `k` leads
/// to the top of its mirror column on a Klein bottle, so each line is a
/// cycle of `2·rows` cells, moving every line one step along itself is a
/// symmetry of the board (its translation along the twisted direction),
/// and the chase from line 0 forces each next line.
#[derive(Clone, Copy)]
struct Layout {
    transposed: bool,
    folded: bool,
    rows: usize,
    cols: usize,
}

impl Layout {
    /// The cell at position `k`.
    fn cell(&self, k: usize) -> usize {
        if self.folded {
            let (line, i) = (k / (2 * self.rows), k % (2 * self.rows));
            if i < self.rows {
                i * self.cols + line
            } else {
                (i - self.rows) * self.cols + self.cols - 1 - line
            }
        } else if self.transposed {
            (k % self.rows) * self.cols + k / self.rows
        } else {
            k
        }
    }

    /// The position of `cell`.
    fn position(&self, cell: usize) -> usize {
        if self.folded {
            let (r, c) = (cell / self.cols, cell % self.cols);
            if c < self.cols / 2 {
                c * 2 * self.rows + r
            } else {
                (self.cols - 1 - c) * 2 * self.rows + self.rows + r
            }
        } else if self.transposed {
            (cell % self.cols) * self.rows + cell / self.cols
        } else {
            cell
        }
    }

    /// Whether positions are cells.
    fn is_identity(&self) -> bool {
        !self.transposed && !self.folded
    }
}

/// The equations in positions: equation `e` (the light at position `e`) is
/// `Σ coef·press(var) = rhs[e]`.
enum Equations {
    /// Cross and King are symmetric (a press at `a` changes `b` iff one at
    /// `b` changes `a`, all weights 1), so an equation's presses are its own
    /// cell's press pattern: computed when needed, nothing stored.
    Symmetric { any_locked: bool },
    /// Other rules: all equations, compressed by rows, vars sorted.
    Stored { start: Vec<u32>, vars: Vec<u32>, coefs: Vec<u32> },
}

impl Equations {
    /// `Cancelled` when `cancel` answers true: it is polled while the press
    /// patterns are built, which is long for large stencils (issue 25).
    fn new(p: &Puzzle, layout: &Layout, cancel: &dyn Fn() -> bool) -> Result<Self, FastError> {
        if matches!(p.rule, Rule::Cross | Rule::King) {
            return Ok(Equations::Symmetric { any_locked: p.any_locked() });
        }
        let cells = p.cells();
        let w = p.states;
        let mut pattern = Vec::new();
        // Two passes over the press patterns (count, then fill).
        let mut for_each_entry = |f: &mut dyn FnMut(usize, usize, u32)| -> Result<(), FastError> {
            for k in 0..cells {
                if k % POLL_EVERY == 0 && cancel() {
                    return Err(FastError::Cancelled);
                }
                let cell = layout.cell(k);
                if p.is_locked(cell) {
                    continue;
                }
                press_pattern_into(p, cell / p.cols, cell % p.cols, &mut pattern);
                for &(t, wt) in &pattern {
                    let wt = if wt < w { wt } else { wt % w };
                    if wt != 0 {
                        f(k, layout.position(t), wt);
                    }
                }
            }
            Ok(())
        };
        let mut start = try_vec(cells + 1, 0u32)?;
        for_each_entry(&mut |_, e, _| start[e + 1] += 1)?;
        for e in 0..cells {
            start[e + 1] += start[e];
        }
        let mut fill = try_vec(start.len(), 0u32)?;
        fill.copy_from_slice(&start);
        let total = start[cells] as usize;
        let mut vars = try_vec(total, 0u32)?;
        let mut coefs = try_vec(total, 0u32)?;
        // Presses in position order keep each equation's vars sorted.
        for_each_entry(&mut |k, e, wt| {
            let at = fill[e] as usize;
            vars[at] = k as u32;
            coefs[at] = wt;
            fill[e] += 1;
        })?;
        Ok(Equations::Stored { start, vars, coefs })
    }

    /// Equation `e` into `out`: (press position, coefficient), in no
    /// particular order.
    fn load(&self, p: &Puzzle, layout: &Layout, e: usize, out: &mut Vec<(usize, u32)>) {
        out.clear();
        match self {
            Equations::Stored { start, vars, coefs } => {
                let (a, b) = (start[e] as usize, start[e + 1] as usize);
                out.extend(vars[a..b].iter().zip(&coefs[a..b]).map(|(&v, &c)| (v as usize, c)));
            }
            Equations::Symmetric { any_locked } => {
                let cell = layout.cell(e);
                press_pattern_into(p, cell / p.cols, cell % p.cols, out);
                if *any_locked {
                    out.retain(|&(t, _)| !p.is_locked(t));
                }
                if !layout.is_identity() {
                    for entry in out.iter_mut() {
                        entry.0 = layout.position(entry.0);
                    }
                }
            }
        }
    }
}

/// Who determines what: the result of the structural pass.
struct Plan {
    layout: Layout,
    eqs: Equations,
    /// Per position: the unknown's index when that press is an unknown.
    fresh: Vec<u32>,
    /// Per equation position: the press it forces, or `NONE` (leftover).
    forces: Vec<u32>,
    /// Per equation position: the inverse of the forced press's coefficient.
    inverse: Vec<u32>,
    /// Per press position: the last equation that mentions it.
    last_use: Vec<u32>,
    unknowns: usize,
    leftover: usize,
}

impl Plan {
    /// The orientation leaving fewer unknowns.
    fn best(p: &Puzzle, cancel: &dyn Fn() -> bool) -> Result<Plan, FastError> {
        let straight = Plan::new(p, false, cancel)?;
        if p.rows == p.cols || p.rows == 1 || p.cols == 1 {
            return Ok(straight);
        }
        let turned = Plan::new(p, true, cancel)?;
        Ok(if turned.unknowns < straight.unknowns { turned } else { straight })
    }

    /// The best orientation, unless only another reading fits the
    /// polynomial method (lines at least `min_width` long), which is then
    /// far cheaper: a Möbius band leaves fewer unknowns chased along its
    /// open direction, but only across its twisted seam are its lines
    /// closed (paths); a Klein bottle with an even number of columns has
    /// closed lines only folded ([`Layout`]).
    fn best_for(p: &Puzzle, min_width: usize, cancel: &dyn Fn() -> bool) -> Result<Plan, FastError> {
        let best = Plan::best(p, cancel)?;
        if polynomial_candidate(p).is_none() || polynomial_fit(p, &best, min_width).is_some() {
            return Ok(best);
        }
        let other = if p.topology == Topology::Klein {
            // The folded reading pairs column k with column cols − 1 − k.
            if p.cols < 4 || !p.cols.is_multiple_of(2) {
                return Ok(best);
            }
            let folded = Layout { transposed: false, folded: true, rows: p.rows, cols: p.cols };
            Plan::with_layout(p, folded, cancel)?
        } else {
            Plan::new(p, !best.layout.transposed, cancel)?
        };
        Ok(if polynomial_fit(p, &other, min_width).is_some() { other } else { best })
    }

    fn new(p: &Puzzle, transposed: bool, cancel: &dyn Fn() -> bool) -> Result<Plan, FastError> {
        Plan::with_layout(p, Layout { transposed, folded: false, rows: p.rows, cols: p.cols }, cancel)
    }

    fn with_layout(p: &Puzzle, layout: Layout, cancel: &dyn Fn() -> bool) -> Result<Plan, FastError> {
        let eqs = Equations::new(p, &layout, cancel)?;
        let mut eq = Vec::new();
        let cells = p.cells();
        let w = p.states;
        // Which coefficients are units mod W (a table: this is asked per entry).
        let units: Vec<bool> = (0..w).map(|c| gcd(c, w) == 1).collect();
        let unit = |c: u32| units[c as usize];
        let mut fresh = try_vec(cells, NONE)?;
        let mut determined = try_vec(cells, false)?;
        let mut forces = try_vec(cells, NONE)?;
        let mut inverse = try_vec(cells, 0u32)?;
        let mut last_use = try_vec(cells, 0u32)?;
        let mut unknowns = 0u32;
        let mut leftover = 0usize;
        for e in 0..cells {
            if e % 4096 == 0 && cancel() {
                return Err(FastError::Cancelled);
            }
            eqs.load(p, &layout, e, &mut eq);
            let target = eq.iter().copied().filter(|&(v, c)| !determined[v] && unit(c)).max_by_key(|&(v, _)| v);
            for &(v, _) in &eq {
                last_use[v] = e as u32;
                if !determined[v] && Some(v) != target.map(|t| t.0) {
                    fresh[v] = unknowns;
                    unknowns += 1;
                    determined[v] = true;
                }
            }
            match target {
                Some((v, c)) => {
                    forces[e] = v as u32;
                    inverse[e] = if w == 2 { 1 } else { mod_inv(c, w).unwrap_or(0) };
                    determined[v] = true;
                }
                None => leftover += 1,
            }
        }
        // Presses that change nothing are unknowns too (free directions).
        for k in 0..cells {
            if !determined[k] && !p.is_locked(layout.cell(k)) {
                fresh[k] = unknowns;
                unknowns += 1;
            }
        }
        Ok(Plan { layout, eqs, fresh, forces, inverse, last_use, unknowns: unknowns as usize, leftover })
    }
}

/// Arithmetic on affine forms over the unknowns: `len` storage words, the
/// constant term at index `unknowns`.
trait Forms {
    type Word: Copy + Default;
    fn len(&self) -> usize;
    fn set_unit(&self, f: &mut [Self::Word], k: usize);
    /// `acc += c·src`.
    fn add_scaled(&self, acc: &mut [Self::Word], src: &[Self::Word], c: u32);
    /// `acc := Σ c·(form in slot)` over `sources` (slot, coefficient); the
    /// slab's forms are split around the slot `acc` itself occupies.
    fn combine(&self, acc: &mut [Self::Word], forms: Split<'_, Self::Word>, sources: &[(u32, u32)]) {
        acc.fill(Self::Word::default());
        for &(slot, c) in sources {
            self.add_scaled(acc, forms.get(slot as usize, acc.len()), c);
        }
    }
    /// `acc := inv·(rhs·1 − acc)`: the forced press from its equation.
    fn finish_forced(&self, acc: &mut [Self::Word], inv: u32, rhs: u32);
    /// The coefficient of unknown `k` (the constant term at `unknowns`).
    fn coef(&self, form: &[Self::Word], k: usize) -> u32;
}

struct Gf2Forms {
    unknowns: usize,
}

impl Forms for Gf2Forms {
    type Word = u64;
    fn len(&self) -> usize {
        (self.unknowns + 1).div_ceil(64)
    }
    fn set_unit(&self, f: &mut [u64], k: usize) {
        f[k / 64] |= 1 << (k % 64);
    }
    fn add_scaled(&self, acc: &mut [u64], src: &[u64], c: u32) {
        if c & 1 == 1 {
            for (a, &s) in acc.iter_mut().zip(src) {
                *a ^= s;
            }
        }
    }
    /// All sources XORed in one pass over the words, eight at a time, so the
    /// accumulator stays in registers (the hot loop of the chase).
    fn combine(&self, acc: &mut [u64], forms: Split<'_, u64>, sources: &[(u32, u32)]) {
        let len = acc.len();
        let mut odd = sources.iter().filter(|&&(_, c)| c & 1 == 1).map(|&(slot, _)| forms.get(slot as usize, len));
        // Sources in groups of at most eight, each group XORed in one pass.
        let mut first = true;
        loop {
            let mut group: [&[u64]; 8] = [&[]; 8];
            let mut k = 0;
            for src in odd.by_ref().take(8) {
                group[k] = src;
                k += 1;
            }
            if k == 0 && !first {
                break;
            }
            xor_sources(acc, &group[..k], !first);
            first = false;
            if k < 8 {
                break;
            }
        }
    }
    fn finish_forced(&self, acc: &mut [u64], _inv: u32, rhs: u32) {
        if rhs & 1 == 1 {
            let k = self.unknowns;
            acc[k / 64] ^= 1 << (k % 64);
        }
    }
    fn coef(&self, form: &[u64], k: usize) -> u32 {
        (form[k / 64] >> (k % 64) & 1) as u32
    }
}

/// `acc = ⊕ srcs` (or `acc ^= ⊕ srcs` when `into`), with AVX2 when the
/// processor has it (the hot loop of the chase over GF(2)).
fn xor_sources(acc: &mut [u64], srcs: &[&[u64]], into: bool) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked just above).
            #[allow(unsafe_code)]
            unsafe {
                xor_sources_avx2(acc, srcs, into);
            }
            return;
        }
    }
    xor_sources_portable(acc, srcs, into);
}

/// # Safety
/// Only on a processor with AVX2 (the one caller checks).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn xor_sources_avx2(acc: &mut [u64], srcs: &[&[u64]], into: bool) {
    xor_sources_portable(acc, srcs, into);
}

/// Plain loops the compiler vectorises: one zipped pass per source count.
#[inline(always)]
fn xor_sources_portable(acc: &mut [u64], srcs: &[&[u64]], into: bool) {
    let len = acc.len();
    match (srcs.len(), into) {
        (0, false) => acc.fill(0),
        (0, true) => {}
        (1, false) => acc.copy_from_slice(&srcs[0][..len]),
        (2, false) => {
            for ((d, &a), &b) in acc.iter_mut().zip(srcs[0]).zip(srcs[1]) {
                *d = a ^ b;
            }
        }
        (3, false) => {
            for (((d, &a), &b), &c) in acc.iter_mut().zip(srcs[0]).zip(srcs[1]).zip(srcs[2]) {
                *d = a ^ b ^ c;
            }
        }
        (4, false) => {
            for ((((d, &a), &b), &c), &e) in acc.iter_mut().zip(srcs[0]).zip(srcs[1]).zip(srcs[2]).zip(srcs[3]) {
                *d = a ^ b ^ c ^ e;
            }
        }
        _ => {
            if !into {
                acc.fill(0);
            }
            for pair in srcs.chunks(2) {
                if let [a, b] = pair {
                    for ((d, &x), &y) in acc.iter_mut().zip(*a).zip(*b) {
                        *d ^= x ^ y;
                    }
                } else {
                    for (d, &x) in acc.iter_mut().zip(pair[0]) {
                        *d ^= x;
                    }
                }
            }
        }
    }
}

/// Forms over Z/W, one coefficient a word: the narrowest word in which a
/// sum of two coefficients does not overflow ([`word_bits`]), so a chase
/// over W = 4 moves a quarter of the bytes it would as `u32` (1,000×1,000
/// torus, W = 4: 5.1 → 2.2 s).
struct ModForms<W> {
    unknowns: usize,
    w: u32,
    word: std::marker::PhantomData<W>,
}

impl<W> ModForms<W> {
    fn new(unknowns: usize, w: u32) -> Self {
        ModForms { unknowns, w, word: std::marker::PhantomData }
    }
}

/// A coefficient's word: `u8` for W ≤ 128, `u16` for W ≤ 32,768, else `u32`
/// (a sum of two coefficients below W stays below twice W).
trait ModWord: Copy + Default + Eq + Ord + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self> {
    fn of(v: u32) -> Self;
    fn get(self) -> u32;
}

macro_rules! mod_word {
    ($t:ty) => {
        impl ModWord for $t {
            fn of(v: u32) -> Self {
                v as $t
            }
            fn get(self) -> u32 {
                u32::from(self)
            }
        }
    };
}
mod_word!(u8);
mod_word!(u16);
mod_word!(u32);

impl<W: ModWord> Forms for ModForms<W> {
    type Word = W;
    fn len(&self) -> usize {
        self.unknowns + 1
    }
    fn set_unit(&self, f: &mut [W], k: usize) {
        f[k] = W::of(1);
    }
    fn add_scaled(&self, acc: &mut [W], src: &[W], c: u32) {
        let w = self.w;
        if c == 1 {
            let ww = W::of(w);
            for (a, &s) in acc.iter_mut().zip(src) {
                let t = *a + s;
                *a = if t >= ww { t - ww } else { t };
            }
        } else {
            for (a, &s) in acc.iter_mut().zip(src) {
                *a = W::of(((u64::from(a.get()) + u64::from(c) * u64::from(s.get())) % u64::from(w)) as u32);
            }
        }
    }
    fn finish_forced(&self, acc: &mut [W], inv: u32, rhs: u32) {
        let w = self.w;
        let (zero, ww) = (W::of(0), W::of(w));
        for a in acc.iter_mut() {
            let neg = if *a == zero { zero } else { ww - *a };
            *a = if inv == 1 { neg } else { W::of(((u64::from(neg.get()) * u64::from(inv)) % u64::from(w)) as u32) };
        }
        let k = self.unknowns;
        acc[k] = W::of(((u64::from(acc[k].get()) + u64::from(inv) * u64::from(rhs)) % u64::from(w)) as u32);
    }
    fn coef(&self, form: &[W], k: usize) -> u32 {
        form[k].get()
    }
}

/// Forms over Z/3 or Z/4 in two bit planes of `u64` words (bit-sliced
/// arithmetic): a coefficient is two bits, a quarter of a byte, and one
/// word operation adds 64 of them. The chase over these moduli is bound by
/// reading its sources' forms, and these are a quarter of the bytes of one
/// byte a coefficient. Words `0..planes` hold the low plane, the rest the
/// high plane.
///
/// - Z/3: the planes are `[c = 1]` and `[c = 2]`; negation swaps them, and
///   a sum takes six operations (Kawahara, Aoki & Takagi, 2008):
///   `t = (a₁ | b₂) ⊕ (a₂ | b₁)`, `s₁ = (a₂ | b₂) ⊕ t`, `s₂ = (a₁ | b₁) ⊕ t`.
/// - Z/4: the planes are the low and high bits; a sum is a two-bit adder
///   (`s₀ = a₀ ⊕ b₀`, `s₁ = a₁ ⊕ b₁ ⊕ a₀b₀`), negation `(b₀, b₁ ⊕ b₀)`.
struct PlaneForms {
    unknowns: usize,
    /// 3 or 4.
    w: u32,
    /// Words per plane.
    planes: usize,
}

impl PlaneForms {
    fn new(unknowns: usize, w: u32) -> Self {
        debug_assert!(w == 3 || w == 4);
        PlaneForms { unknowns, w, planes: (unknowns + 1).div_ceil(64) }
    }

    /// `acc += src`, or `acc −= src` when `negate`.
    fn add(&self, acc: &mut [u64], src: &[u64], negate: bool) {
        let (acc_lo, acc_hi) = acc.split_at_mut(self.planes);
        let (src_lo, src_hi) = src.split_at(self.planes);
        let planes = acc_lo.iter_mut().zip(acc_hi.iter_mut()).zip(src_lo.iter().zip(src_hi));
        match (self.w, negate) {
            (3, false) => planes.for_each(|((a1, a2), (&b1, &b2))| add_z3(a1, a2, b1, b2)),
            (3, true) => planes.for_each(|((a1, a2), (&b1, &b2))| add_z3(a1, a2, b2, b1)),
            (_, false) => planes.for_each(|((a0, a1), (&b0, &b1))| add_z4(a0, a1, b0, b1)),
            (_, true) => planes.for_each(|((a0, a1), (&b0, &b1))| add_z4(a0, a1, b0, b1 ^ b0)),
        }
    }

    fn negate(&self, acc: &mut [u64]) {
        let (lo, hi) = acc.split_at_mut(self.planes);
        if self.w == 3 {
            lo.swap_with_slice(hi);
        } else {
            for (h, &l) in hi.iter_mut().zip(lo.iter()) {
                *h ^= l;
            }
        }
    }

    fn set(&self, form: &mut [u64], k: usize, v: u32) {
        let (word, bit) = (k / 64, 1u64 << (k % 64));
        let (lo, hi) = if self.w == 3 { (v == 1, v == 2) } else { (v & 1 == 1, v & 2 == 2) };
        for (plane, on) in [(word, lo), (self.planes + word, hi)] {
            if on {
                form[plane] |= bit;
            } else {
                form[plane] &= !bit;
            }
        }
    }
}

#[inline(always)]
fn add_z3(a1: &mut u64, a2: &mut u64, b1: u64, b2: u64) {
    let t = (*a1 | b2) ^ (*a2 | b1);
    let s1 = (*a2 | b2) ^ t;
    *a2 = (*a1 | b1) ^ t;
    *a1 = s1;
}

#[inline(always)]
fn add_z4(a0: &mut u64, a1: &mut u64, b0: u64, b1: u64) {
    *a1 ^= b1 ^ (*a0 & b0);
    *a0 ^= b0;
}

impl Forms for PlaneForms {
    type Word = u64;
    fn len(&self) -> usize {
        2 * self.planes
    }
    fn set_unit(&self, f: &mut [u64], k: usize) {
        self.set(f, k, 1);
    }
    fn add_scaled(&self, acc: &mut [u64], src: &[u64], c: u32) {
        match (c % self.w, self.w) {
            (0, _) => {}
            (1, _) => self.add(acc, src, false),
            (2, 3) | (3, _) => self.add(acc, src, true),
            _ => {
                // 2·b over Z/4: the low plane of b moved up.
                let (acc_hi, src_lo) = (&mut acc[self.planes..], &src[..self.planes]);
                for (h, &l) in acc_hi.iter_mut().zip(src_lo) {
                    *h ^= l;
                }
            }
        }
    }
    fn finish_forced(&self, acc: &mut [u64], inv: u32, rhs: u32) {
        // inv·(rhs − acc): −inv·acc is acc itself or its negation (the
        // units of Z/3 and Z/4 are ±1), then inv·rhs joins the constant.
        if inv % self.w == 1 {
            self.negate(acc);
        }
        let k = self.unknowns;
        let constant = (self.coef(acc, k) + inv * rhs) % self.w;
        self.set(acc, k, constant);
    }
    fn coef(&self, form: &[u64], k: usize) -> u32 {
        let (word, bit) = (k / 64, k % 64);
        let (lo, hi) = ((form[word] >> bit & 1) as u32, (form[self.planes + word] >> bit & 1) as u32);
        if self.w == 3 {
            lo + 2 * hi
        } else {
            lo | hi << 1
        }
    }
}

/// The slab's forms on either side of one slot (the one being written).
#[derive(Clone, Copy)]
struct Split<'a, W> {
    below: &'a [W],
    above: &'a [W],
    slot: usize,
}

impl<'a, W> Split<'a, W> {
    fn get(&self, slot: usize, len: usize) -> &'a [W] {
        if slot < self.slot {
            &self.below[slot * len..(slot + 1) * len]
        } else {
            let s = slot - self.slot - 1;
            &self.above[s * len..(s + 1) * len]
        }
    }
}

/// Forms of the presses still in use, in recycled slots.
struct Slab<W> {
    len: usize,
    data: Vec<W>,
    free: Vec<u32>,
    slot_of: Vec<u32>,
}

impl<W: Copy + Default> Slab<W> {
    fn new(len: usize, presses: usize) -> Result<Self, FastError> {
        Ok(Slab { len, data: Vec::new(), free: Vec::new(), slot_of: try_vec(presses, NONE)? })
    }
    fn alloc(&mut self, v: usize) -> usize {
        let s = match self.free.pop() {
            Some(s) => s as usize,
            None => {
                self.data.resize(self.data.len() + self.len, W::default());
                self.data.len() / self.len - 1
            }
        };
        self.slot_of[v] = s as u32;
        s
    }
    fn release(&mut self, v: usize) {
        let s = self.slot_of[v];
        if s != NONE {
            self.free.push(s);
            self.slot_of[v] = NONE;
        }
    }
    fn set(&mut self, v: usize, form: &[W]) {
        let s = self.alloc(v);
        self.data[s * self.len..(s + 1) * self.len].copy_from_slice(form);
    }
}

/// The leftover system: one row per leftover equation, over the unknowns.
struct Leftover<W> {
    /// Equation position of each row.
    equations: Vec<u32>,
    /// Row `i` is the form `Σ coef·press` of equation `equations[i]`
    /// (`len` words, the constant term at index `unknowns`).
    forms: Vec<W>,
    /// The equation's right-hand side (goal − lights).
    rhs: Vec<u32>,
}

/// The symbolic pass: forms of every press, the leftover equations.
fn symbolic<F: Forms>(
    p: &Puzzle,
    plan: &Plan,
    rhs: &[u32],
    forms: &F,
    cancel: &dyn Fn() -> bool,
) -> Result<Leftover<F::Word>, FastError> {
    let cells = p.cells();
    let len = forms.len();
    let mut slab: Slab<F::Word> = Slab::new(len, cells)?;
    let mut acc = vec![F::Word::default(); len];
    let mut unit = vec![F::Word::default(); len];
    let mut sources: Vec<(u32, u32)> = Vec::with_capacity(16);
    // As many leftover equations as the plan counted: board-sized when the
    // chase determines little, so fallible.
    let mut left = Leftover {
        equations: try_with_capacity(plan.leftover)?,
        forms: try_with_capacity(plan.leftover.saturating_mul(len))?,
        rhs: try_with_capacity(plan.leftover)?,
    };
    let mut eq = Vec::new();
    for (e, &b) in rhs.iter().enumerate().take(cells) {
        if e % 1024 == 0 && cancel() {
            return Err(FastError::Cancelled);
        }
        plan.eqs.load(p, &plan.layout, e, &mut eq);
        // Unknowns first seen here get their unit forms.
        for &(v, _) in &eq {
            if plan.fresh[v] != NONE && slab.slot_of[v] == NONE {
                unit.fill(F::Word::default());
                forms.set_unit(&mut unit, plan.fresh[v] as usize);
                slab.set(v, &unit);
            }
        }
        let target = plan.forces[e];
        let mut target_coef = 0;
        sources.clear();
        for &(v, c) in &eq {
            if v as u32 == target {
                target_coef = c;
            } else {
                sources.push((slab.slot_of[v], c));
            }
        }
        if target == NONE {
            let all = Split { below: &slab.data, above: &[], slot: usize::MAX };
            forms.combine(&mut acc, all, &sources);
            left.forms.extend_from_slice(&acc);
            left.rhs.push(b);
            left.equations.push(e as u32);
        } else {
            if target_coef == 0 || plan.inverse[e] == 0 {
                return Err(FastError::Internal("a forcing coefficient is not a unit".into()));
            }
            // Written straight into the forced press's slot.
            let slot = slab.alloc(target as usize);
            let (below, rest) = slab.data.split_at_mut(slot * len);
            let (dst, above) = rest.split_at_mut(len);
            forms.combine(dst, Split { below, above, slot }, &sources);
            forms.finish_forced(dst, plan.inverse[e], b);
        }
        for &(v, _) in &eq {
            if plan.last_use[v] as usize == e {
                slab.release(v);
            }
        }
    }
    Ok(left)
}

/// The numeric chase: every press from the unknowns' values (`rhs` all zero
/// for quiet patterns). Returns presses per position.
fn numeric(
    p: &Puzzle,
    plan: &Plan,
    rhs: Option<&[u32]>,
    values: &[u32],
    cancel: &dyn Fn() -> bool,
) -> Result<Vec<u32>, FastError> {
    let cells = p.cells();
    let w = u64::from(p.states);
    let mut x = try_vec(cells, 0u32)?;
    for k in 0..cells {
        if plan.fresh[k] != NONE {
            x[k] = values[plan.fresh[k] as usize];
        }
    }
    let mut eq = Vec::new();
    for e in 0..cells {
        // A pass over up to 100 million cells: seconds.
        if e % 4096 == 0 && cancel() {
            return Err(FastError::Cancelled);
        }
        let target = plan.forces[e];
        if target == NONE {
            continue;
        }
        plan.eqs.load(p, &plan.layout, e, &mut eq);
        let mut sum = 0u64;
        for &(v, c) in &eq {
            if v as u32 != target {
                sum += u64::from(c) * u64::from(x[v]);
            }
        }
        let b = rhs.map_or(0, |r| u64::from(r[e]));
        let need = (b + w * w - sum % w) % w;
        x[target as usize] = (need * u64::from(plan.inverse[e]) % w) as u32;
    }
    Ok(x)
}

/// The numeric chase of up to 64 quiet patterns at once over GF(2): lane
/// `i` of each word is pattern `i` (unknowns' values `values[i]`).
fn numeric_lanes(p: &Puzzle, plan: &Plan, values: &[&[u32]]) -> Vec<u64> {
    let cells = p.cells();
    let mut x = vec![0u64; cells];
    for (xk, &u) in x.iter_mut().zip(&plan.fresh) {
        if u != NONE {
            *xk = values.iter().enumerate().fold(0u64, |acc, (i, v)| acc | u64::from(v[u as usize] & 1) << i);
        }
    }
    let mut eq = Vec::new();
    for e in 0..cells {
        let target = plan.forces[e];
        if target == NONE {
            continue;
        }
        plan.eqs.load(p, &plan.layout, e, &mut eq);
        let mut sum = 0u64;
        for &(v, c) in &eq {
            if v as u32 != target && c & 1 == 1 {
                sum ^= x[v];
            }
        }
        x[target as usize] = sum;
    }
    x
}

/// The numeric chase of many quiet patterns at once over Z/W: each
/// equation is loaded once, and its sums run over the patterns side by side
/// (`x` is cell-major: the patterns' values of a cell are contiguous).
fn numeric_many(p: &Puzzle, plan: &Plan, values: &[&[u32]]) -> Vec<Vec<u32>> {
    let (cells, g) = (p.cells(), values.len());
    let w = u64::from(p.states);
    let modulus = FastModulus::new(w);
    let mut x = vec![0u32; cells * g];
    for (k, &u) in plan.fresh.iter().enumerate() {
        if u != NONE {
            for (i, v) in values.iter().enumerate() {
                x[k * g + i] = v[u as usize];
            }
        }
    }
    let mut eq = Vec::new();
    let mut sum = vec![0u64; g];
    for e in 0..cells {
        let target = plan.forces[e];
        if target == NONE {
            continue;
        }
        plan.eqs.load(p, &plan.layout, e, &mut eq);
        sum.fill(0);
        for &(v, c) in &eq {
            if v as u32 != target && c != 0 {
                let c = u64::from(c);
                for (s, &xv) in sum.iter_mut().zip(&x[v * g..(v + 1) * g]) {
                    *s += c * u64::from(xv);
                }
            }
        }
        let inverse = u64::from(plan.inverse[e]);
        let t = target as usize;
        for (xt, &s) in x[t * g..(t + 1) * g].iter_mut().zip(&sum) {
            let r = modulus.reduce(s);
            let negated = if r == 0 { 0 } else { w - r };
            *xt = modulus.reduce(negated * inverse) as u32;
        }
    }
    // Back to one vector per pattern, each written in order.
    let mut out = vec![vec![0u32; cells]; g];
    for (k, values) in x.chunks_exact(g.max(1)).enumerate() {
        for (pattern, &v) in out.iter_mut().zip(values) {
            pattern[k] = v;
        }
    }
    out
}

/// Quiet patterns per position from the leftover kernel: 64 at a time for
/// W = 2 (a bit lane each), in batches side by side otherwise.
fn quiet_by_position(p: &Puzzle, plan: &Plan, generators: &[lights_algebra::KernelGenerator]) -> Vec<Vec<u32>> {
    if p.states != 2 {
        let mut out = Vec::with_capacity(generators.len());
        for chunk in generators.chunks(64) {
            let values: Vec<&[u32]> = chunk.iter().map(|g| g.vector.as_slice()).collect();
            out.extend(numeric_many(p, plan, &values));
        }
        return out;
    }
    let mut out = Vec::with_capacity(generators.len());
    for chunk in generators.chunks(64) {
        let values: Vec<&[u32]> = chunk.iter().map(|g| g.vector.as_slice()).collect();
        let lanes = numeric_lanes(p, plan, &values);
        for i in 0..chunk.len() {
            out.push(lanes.iter().map(|&w| (w >> i & 1) as u32).collect());
        }
    }
    out
}

/// The certificate on every equation from the leftover one (module docs).
fn extend_certificate(p: &Puzzle, plan: &Plan, equations: &[u32], z: &[u32]) -> Result<Vec<u32>, FastError> {
    let cells = p.cells();
    let w = u64::from(p.states);
    let mut y = try_vec(cells, 0u64)?;
    for (row, &e) in equations.iter().enumerate() {
        y[e as usize] = u64::from(z[row]);
    }
    let mut pattern = Vec::new();
    for e in (0..cells).rev() {
        let v = plan.forces[e];
        if v == NONE {
            continue;
        }
        let cell = plan.layout.cell(v as usize);
        press_pattern_into(p, cell / p.cols, cell % p.cols, &mut pattern);
        let mut sum = 0u64;
        let mut own = 0u64;
        for &(t, wt) in &pattern {
            let te = plan.layout.position(t);
            if te == e {
                own = u64::from(wt) % w;
            } else {
                sum = (sum + y[te] * (u64::from(wt) % w)) % w;
            }
        }
        let inv = u64::from(mod_inv(own as u32, p.states).unwrap_or(0));
        y[e] = (w - sum) % w * inv % w;
    }
    let mut out = try_with_capacity(cells)?;
    out.extend(y.into_iter().map(|v| v as u32));
    Ok(out)
}

/// The leftover system over GF(2), bit-packed, by the dense eliminator.
fn solve_leftover_gf2(left: &Leftover<u64>, unknowns: usize, cancel: &dyn Fn() -> bool) -> Result<Solution, FastError> {
    let rows = left.equations.len();
    let len = (unknowns + 1).div_ceil(64);
    let mut a = BitMatrix::zeros(rows, unknowns);
    let mut b = vec![0u64; rows.div_ceil(64)];
    for r in 0..rows {
        let form = &left.forms[r * len..(r + 1) * len];
        let wpr = a.words_per_row;
        a.row_mut(r).copy_from_slice(&form[..wpr]);
        if unknowns & 63 != 0 {
            // The constant term sits just past the last unknown.
            a.row_mut(r)[wpr - 1] &= (1u64 << (unknowns % 64)) - 1;
        }
        let constant = form[unknowns / 64] >> (unknowns % 64) & 1;
        if (u64::from(left.rhs[r]) ^ constant) & 1 == 1 {
            b[r / 64] |= 1 << (r % 64);
        }
    }
    let s = solve_gf2_dense(&a, &b, cancel)?;
    let unpack =
        |bits: &[u64], n: usize| -> Vec<u32> { (0..n).map(|i| (bits[i / 64] >> (i % 64) & 1) as u32).collect() };
    Ok(Solution {
        modulus: 2,
        consistent: s.consistent,
        particular: s.particular.as_ref().map(|x| unpack(x, unknowns)),
        kernel: Kernel {
            generators: s.kernel.iter().map(|k| KernelGenerator { vector: unpack(k, unknowns), order: 2 }).collect(),
        },
        certificate: s.certificate.as_ref().map(|y| unpack(y, rows)),
    })
}

/// The leftover system over Z/W by the algebra crate's general solver.
fn solve_leftover_mod<F: Forms>(
    left: &Leftover<F::Word>,
    forms: &F,
    (unknowns, w): (usize, u32),
    cancel: &dyn Fn() -> bool,
) -> Result<Solution, FastError> {
    let rows = left.equations.len();
    let len = forms.len();
    let mut matrix = SparseMatrix::new(rows, unknowns);
    let mut rhs = Vec::with_capacity(rows);
    for r in 0..rows {
        let form = &left.forms[r * len..(r + 1) * len];
        for k in 0..unknowns {
            let a = forms.coef(form, k);
            if a != 0 {
                matrix.push_entry(k, r, a);
            }
        }
        rhs.push((left.rhs[r] + w - forms.coef(form, unknowns)) % w);
    }
    solve_cancellable(&matrix, &rhs, w, cancel).map_err(FastError::from)
}

/// Rows at least this wide have their leftover system solved by the
/// polynomial method over GF(p) when it applies (`prime_poly`); narrower
/// ones keep the symbolic chase, which is as fast there (and keeps their
/// answers, down to the choice among equally short solutions).
const PRIME_POLY_MIN_WIDTH: usize = 128;

/// Where the polynomial method over GF(p) fits a board: the cross rule with
/// W > 2 a product of distinct primes (each solved on its own, then Chinese
/// remainders), no locked cells, rows at least `min_width` wide, on a plane
/// or on a cylinder chased along its open direction (`prime_poly`: a plan
/// whose unknowns are the first row and whose leftover equations are the
/// last), or on a torus, or a cylinder or Möbius band chased across its
/// seam (`prime_torus`: the first two lines, the last two). The plan's
/// shape is checked here, not assumed.
struct PolynomialFit {
    shape: FitShape,
    width: usize,
    height: usize,
    primes: Vec<u32>,
}

enum FitShape {
    /// Unknown k is the first row's press in column `column_of[k]`.
    Rows { row: prime_poly::Row, column_of: Vec<usize> },
    /// Unknown k is the press at position `slot_of[k]` of the first two
    /// lines (rows, or columns when the plan is transposed): the torus
    /// (lines are cycles), and the cylinder and Möbius band chased across
    /// their glued direction (lines are paths; the Möbius band's seam
    /// reverses a path, which commutes with its adjacency).
    TwoLines { line: prime_poly::Row, slot_of: Vec<usize> },
    /// Unknown k is the press at position `slot_of[k]` of the first line of
    /// a folded Klein bottle ([`Layout`]): one line of unknowns, one of
    /// leftover equations, lines that are cycles (`prime_torus::solve_line`).
    Folded { slot_of: Vec<usize> },
}

/// Whether the polynomial method can fit `p` in some orientation: the cross
/// rule, W > 2 a product of distinct primes, no locked cells, a plain grid.
/// Its primes when it can.
fn polynomial_candidate(p: &Puzzle) -> Option<Vec<u32>> {
    let w = p.states;
    let primes = prime_poly::squarefree_primes(w).filter(|_| w > 2)?;
    (p.rule == Rule::Cross && !p.any_locked() && p.is_plain_grid()).then_some(primes)
}

/// The fit of `plan` for the polynomial method; `None` when it does not fit.
fn polynomial_fit(p: &Puzzle, plan: &Plan, min_width: usize) -> Option<PolynomialFit> {
    use prime_poly::Row::{Cycle, Path};
    /// What the unknowns are: the first row (rows of that kind), the first
    /// two lines (lines of that kind), or the first folded line.
    enum Kind {
        Rows(prime_poly::Row),
        TwoLines(prime_poly::Row),
        Folded,
    }
    let primes = polynomial_candidate(p)?;
    let Layout { transposed, folded, .. } = plan.layout;
    let (width, height) = match (folded, transposed) {
        (true, _) => (2 * p.rows, p.cols / 2),
        (false, true) => (p.rows, p.cols),
        (false, false) => (p.cols, p.rows),
    };
    let kind = match (p.topology, transposed, folded) {
        (Topology::Klein, _, true) if p.cols >= 4 && p.cols.is_multiple_of(2) => Kind::Folded,
        (_, _, true) => return None,
        (Topology::Plane, _, _) => Kind::Rows(Path),
        (Topology::Cylinder, false, _) if p.cols >= 3 => Kind::Rows(Cycle),
        // Across the glued (or twisted) columns: the lines are columns.
        (Topology::Cylinder | Topology::Mobius, true, _) if p.cols >= 3 => Kind::TwoLines(Path),
        (Topology::Torus, _, _) if p.rows >= 3 && p.cols >= 3 => Kind::TwoLines(Cycle),
        _ => return None,
    };
    // Unknown lines, then leftover lines: one and one, or two and two.
    let rows = if matches!(kind, Kind::TwoLines(_)) { 2 } else { 1 };
    if width < min_width.max(1) || height < rows || plan.unknowns != rows * width || plan.leftover != rows * width {
        return None;
    }
    let mut slot_of = vec![usize::MAX; rows * width];
    for (slot, &u) in plan.fresh[..rows * width].iter().enumerate() {
        match slot_of.get_mut(u as usize) {
            Some(at) if *at == usize::MAX => *at = slot,
            _ => return None,
        }
    }
    let last = (height - rows) * width;
    if plan.forces[..last].contains(&NONE) || plan.forces[last..p.cells()].iter().any(|&f| f != NONE) {
        return None;
    }
    let shape = match kind {
        Kind::Rows(row) => FitShape::Rows { row, column_of: slot_of },
        Kind::TwoLines(line) => FitShape::TwoLines { line, slot_of },
        Kind::Folded => FitShape::Folded { slot_of },
    };
    Some(PolynomialFit { shape, width, height, primes })
}

/// Each leftover equation's sum (presses per position) minus its need
/// (none without `rhs`), in position order from `first`.
fn residuals(p: &Puzzle, plan: &Plan, presses: &[u32], rhs: Option<&[u32]>, first: usize) -> Vec<u32> {
    let wide = u64::from(p.states);
    let mut eq = Vec::new();
    (first..p.cells())
        .map(|e| {
            plan.eqs.load(p, &plan.layout, e, &mut eq);
            let sum = eq.iter().fold(0u64, |acc, &(v, coef)| (acc + u64::from(coef) * u64::from(presses[v])) % wide);
            let need = rhs.map_or(0, |r| u64::from(r[e]));
            ((sum + wide - need) % wide) as u32
        })
        .collect()
}

/// The leftover system by the polynomial method when it fits
/// ([`polynomial_fit`]): the solution and the leftover equations (the last
/// row's positions, or the last two rows'); `None` when it does not fit.
fn prime_polynomial(
    p: &Puzzle,
    plan: &Plan,
    rhs: &[u32],
    min_width: usize,
    cancel: &dyn Fn() -> bool,
) -> Result<Option<(Solution, Vec<u32>)>, FastError> {
    let Some(PolynomialFit { shape, width, height, primes }) = polynomial_fit(p, plan, min_width) else {
        return Ok(None);
    };
    let (w, cells) = (p.states, p.cells());
    // The leftover equations: the last line's, or the last two lines'.
    let lines = if matches!(shape, FitShape::TwoLines { .. }) { 2 } else { 1 };
    let first = (height - lines) * width;
    // c: the leftover equations' sums with the unknowns at zero, minus their needs.
    let zero = numeric(p, plan, Some(rhs), &vec![0; plan.unknowns], cancel)?;
    let c = residuals(p, plan, &zero, Some(rhs), first);
    // A column of the leftover system: the residuals of one press at
    // position `slot` of the unknown lines, no needs.
    let impulse = |slot: usize| -> Result<Vec<u32>, FastError> {
        let mut values = vec![0; plan.unknowns];
        values[plan.fresh[slot] as usize] = 1;
        Ok(residuals(p, plan, &numeric(p, plan, None, &values, cancel)?, None, first))
    };
    let modulo = |v: &[u32], q: u32| -> Vec<u32> { v.iter().map(|&a| a % q).collect() };
    let solution = match shape {
        FitShape::Rows { row, column_of } => {
            let left = prime_poly::Leftover { row, width, height, p: w, column_of: &column_of, c: &c };
            prime_poly::solve_squarefree(&left, &primes, cancel)?
        }
        FitShape::Folded { slot_of } => {
            let h = impulse(0)?;
            prime_poly::combine_primes(w, &c, &primes, |q, c| {
                let left = prime_torus::LineLeftover { width, p: q, slot_of: &slot_of, from_x: &modulo(&h, q), c };
                prime_torus::solve_line(&left, cancel)
            })?
        }
        FitShape::TwoLines { line, slot_of } => {
            // J's columns: one press of x (then y) at column 0.
            let (from_x, from_y) = (impulse(0)?, impulse(width)?);
            prime_poly::combine_primes(w, &c, &primes, |q, c| {
                let (fx, fy) = (modulo(&from_x, q), modulo(&from_y, q));
                let left =
                    prime_torus::TorusLeftover { line, width, p: q, slot_of: &slot_of, from_x: &fx, from_y: &fy, c };
                prime_torus::solve(&left, cancel)
            })?
        }
    };
    Ok(Some((solution, (first as u32..cells as u32).collect())))
}

fn run(p: &Puzzle, plan: &Plan, opts: SolveOptions, cancel: &dyn Fn() -> bool) -> Result<Report, FastError> {
    run_with(p, plan, opts, PRIME_POLY_MIN_WIDTH, cancel)
}

/// The bits of the narrowest [`ModWord`] for W: one that holds the sum of
/// two coefficients below W.
fn word_bits(w: u32) -> u32 {
    let widest_sum = 2 * (u64::from(w) - 1);
    [8, 16].into_iter().find(|&bits| widest_sum < 1 << bits).unwrap_or(32)
}

/// The symbolic chase over Z/W and its leftover system: the solution and
/// the leftover equations' positions.
fn chase_mod<F: Forms>(
    p: &Puzzle,
    plan: &Plan,
    rhs: &[u32],
    forms: F,
    cancel: &dyn Fn() -> bool,
) -> Result<(Solution, Vec<u32>), FastError> {
    let left = symbolic(p, plan, rhs, &forms, cancel)?;
    Ok((solve_leftover_mod(&left, &forms, (plan.unknowns, p.states), cancel)?, left.equations))
}

fn run_with(
    p: &Puzzle,
    plan: &Plan,
    opts: SolveOptions,
    poly_min_width: usize,
    cancel: &dyn Fn() -> bool,
) -> Result<Report, FastError> {
    let cells = p.cells();
    let w = p.states;
    let layout = &plan.layout;
    // Right-hand side per equation position: goal − lights.
    let mut rhs: Vec<u32> = try_with_capacity(cells)?;
    rhs.extend((0..cells).map(|k| p.need(layout.cell(k))));
    let (sol, equations) = if let Some(found) = prime_polynomial(p, plan, &rhs, poly_min_width, cancel)? {
        found
    } else if w == 2 {
        let left = symbolic(p, plan, &rhs, &Gf2Forms { unknowns: plan.unknowns }, cancel)?;
        (solve_leftover_gf2(&left, plan.unknowns, cancel)?, left.equations)
    } else if w == 3 || w == 4 {
        chase_mod(p, plan, &rhs, PlaneForms::new(plan.unknowns, w), cancel)?
    } else {
        match word_bits(w) {
            8 => chase_mod(p, plan, &rhs, ModForms::<u8>::new(plan.unknowns, w), cancel)?,
            16 => chase_mod(p, plan, &rhs, ModForms::<u16>::new(plan.unknowns, w), cancel)?,
            _ => chase_mod(p, plan, &rhs, ModForms::<u32>::new(plan.unknowns, w), cancel)?,
        }
    };

    let to_cells = |by_position: Vec<u32>| -> Result<Vec<u32>, FastError> {
        let mut out = try_vec(cells, 0u32)?;
        for (k, v) in by_position.into_iter().enumerate() {
            out[layout.cell(k)] = v;
        }
        Ok(out)
    };
    let nullity = sol.kernel.generators.len();
    let materialize = cells.saturating_mul(nullity + 1) <= MATERIALIZE_LIMIT;
    let quiet_patterns: Vec<QuietPattern> = if materialize {
        quiet_by_position(p, plan, &sol.kernel.generators)
            .into_iter()
            .zip(&sol.kernel.generators)
            .map(|(x, g)| Ok(QuietPattern { presses: Presses::from_values(&to_cells(x)?, w), order: g.order }))
            .collect::<Result<_, FastError>>()?
    } else {
        Vec::new()
    };
    let certificate = sol
        .certificate
        .as_ref()
        .map(|z| Ok::<_, FastError>(Presses::from_values(&to_cells(extend_certificate(p, plan, &equations, z)?)?, w)))
        .transpose()?;
    let minimum = match &sol.particular {
        Some(u) => {
            let x = Presses::from_values(&to_cells(numeric(p, plan, Some(&rhs), u, cancel)?)?, w);
            let search = (materialize && opts.search_minimum).then_some(opts.minimum_work);
            Some(minimum_of(p, x, &quiet_patterns, search, nullity == 0, cancel)?)
        }
        None => None,
    };
    let report = Report {
        solvable: sol.consistent,
        solutions: if sol.consistent { sol.kernel.size() } else { BigUint::from(0u32) },
        minimum,
        certificate,
        quiet_patterns,
        quiet_patterns_omitted: !materialize,
        unknowns: p.free_cells(),
    };
    recheck(p, &report)?;
    Ok(report)
}

#[cfg(test)]
mod fast_modulus_tests {
    use super::FastModulus;

    #[test]
    fn reduces_like_the_remainder() {
        for w in [2u64, 3, 4, 5, 6, 7, 12, 255, 256, 257, 65_535, 65_536] {
            let m = FastModulus::new(w);
            for s in (0..5000u64).chain([u64::MAX, u64::MAX - 1, 1 << 47, (1 << 47) + 12_345, w * w * 9]) {
                assert_eq!(m.reduce(s), s % w, "{s} mod {w}");
            }
        }
    }
}

#[cfg(test)]
mod orientation_tests {
    use super::{numeric, polynomial_fit, FastError, FitShape, Layout, Plan, PRIME_POLY_MIN_WIDTH};
    use crate::fast::prime_poly::Row;
    use crate::model::{Puzzle, Rule, Topology};

    /// The orientation the solve takes, and the lines it solves the leftover
    /// with (how many of them are unknown, and what they are; 0 lines: folded).
    fn chosen(rows: usize, cols: usize, w: u32, topology: Topology) -> (bool, bool, Option<(usize, Row)>) {
        let p = Puzzle::new(rows, cols, w, Rule::Cross, topology);
        let never = || false;
        let best = Plan::best(&p, &never).unwrap();
        let taken = Plan::best_for(&p, PRIME_POLY_MIN_WIDTH, &never).unwrap();
        let fit = polynomial_fit(&p, &taken, PRIME_POLY_MIN_WIDTH).map(|f| match f.shape {
            FitShape::Rows { row, .. } => (1, row),
            FitShape::TwoLines { line, .. } => (2, line),
            FitShape::Folded { .. } => (0, Row::Cycle),
        });
        assert_eq!(taken.layout.folded, matches!(fit, Some((0, _))));
        (best.layout.transposed, taken.layout.transposed, fit)
    }

    #[test]
    fn the_polynomial_method_takes_the_orientation_it_fits() {
        // A Möbius band leaves fewer unknowns chased along its open
        // direction, but its lines close only across the twisted seam.
        assert_eq!(chosen(130, 130, 3, Topology::Mobius), (false, true, Some((2, Row::Path))));
        assert_eq!(chosen(150, 130, 6, Topology::Mobius), (false, true, Some((2, Row::Path))));
        // A wide cylinder is chased across its seam (two columns of
        // unknowns): lines are paths there too.
        assert_eq!(chosen(130, 400, 5, Topology::Cylinder), (true, true, Some((2, Row::Path))));
        assert_eq!(chosen(400, 130, 5, Topology::Cylinder), (false, false, Some((1, Row::Cycle))));
        assert_eq!(chosen(130, 130, 7, Topology::Torus), (false, false, Some((2, Row::Cycle))));
        // Where the method cannot apply, the orientation with fewer unknowns.
        // A Klein bottle with an even number of columns, folded: lines of
        // 2 × 64 cells.
        assert_eq!(chosen(64, 130, 3, Topology::Klein).2, Some((0, Row::Cycle)));
        assert_eq!(chosen(130, 200, 10, Topology::Klein).2, Some((0, Row::Cycle)));
        assert_eq!(chosen(130, 131, 3, Topology::Klein).2, None, "odd columns: the middle one pairs with itself");
        assert_eq!(chosen(63, 130, 3, Topology::Klein).2, None, "lines of 126 cells");
        assert_eq!(chosen(130, 130, 4, Topology::Mobius), (false, false, None));
        assert_eq!(chosen(130, 130, 4, Topology::Klein), (false, false, None));
        // Lines narrower than the method's minimum keep the symbolic chase.
        assert_eq!(chosen(100, 130, 3, Topology::Mobius).2, None);
    }

    #[test]
    fn the_folded_reading_is_a_bijection_of_cycles() {
        // Each position one cell, and each line a cycle: the cell below a
        // line's slot is its next slot on the Klein bottle.
        let (rows, cols) = (5, 8);
        let layout = Layout { transposed: false, folded: true, rows, cols };
        let p = Puzzle::new(rows, cols, 3, Rule::Cross, Topology::Klein);
        let mut seen = vec![false; rows * cols];
        for k in 0..rows * cols {
            let cell = layout.cell(k);
            assert!(!std::mem::replace(&mut seen[cell], true));
            assert_eq!(layout.position(cell), k);
            let (line, i) = (k / (2 * rows), k % (2 * rows));
            let below = layout.cell(line * 2 * rows + (i + 1) % (2 * rows));
            let (r, c) = (cell / cols, cell % cols);
            let mapped = crate::lower::map_cell(p.topology, rows, cols, r as i64 + 1, c as i64);
            assert_eq!(mapped, Some((below / cols, below % cols)), "below {r},{c}");
        }
    }

    #[test]
    fn the_numeric_chase_stops_when_asked() {
        // Its passes run over up to 100 million cells.
        let p = Puzzle::new(64, 64, 5, Rule::Cross, Topology::Torus);
        let plan = Plan::best(&p, &|| false).unwrap();
        let values = vec![1; plan.unknowns];
        assert!(matches!(numeric(&p, &plan, None, &values, &|| true), Err(FastError::Cancelled)));
        assert!(numeric(&p, &plan, None, &values, &|| false).is_ok());
    }
}

#[cfg(test)]
mod word_tests {
    use super::{symbolic, Forms, Leftover, ModForms, ModWord, Plan, PlaneForms};
    use crate::model::{Board, Puzzle, Rule, Stencil, Topology};
    use lights_algebra::SplitMix64;

    /// The leftover equations of a chase with words `W`, as `u32`.
    fn leftover<W: ModWord>(p: &Puzzle, plan: &Plan, rhs: &[u32]) -> (Vec<u32>, Vec<u32>) {
        let forms = ModForms::<W>::new(plan.unknowns, p.states);
        let left: Leftover<W> = symbolic(p, plan, rhs, &forms, &|| false).expect("chased");
        (left.equations, left.forms.iter().map(|a| a.get()).collect())
    }

    /// The leftover equations of a chase in bit planes, as `u32`.
    fn planes_leftover(p: &Puzzle, plan: &Plan, rhs: &[u32]) -> (Vec<u32>, Vec<u32>) {
        let forms = PlaneForms::new(plan.unknowns, p.states);
        let left = symbolic(p, plan, rhs, &forms, &|| false).expect("chased");
        let len = forms.len();
        let coefs = left.forms.chunks(len).flat_map(|f| (0..=plan.unknowns).map(|k| forms.coef(f, k))).collect();
        (left.equations, coefs)
    }

    #[test]
    fn bit_planes_chase_as_words() {
        // Z/3 and Z/4 in bit planes against one u32 a coefficient: every
        // coefficient (a stencil brings 2 and W − 1, and forced presses
        // whose coefficient is W − 1), random lights, boards wider than a
        // word of unknowns.
        let mut rng = SplitMix64(28);
        for w in [3u32, 4] {
            let stencil =
                Rule::Stencil(Stencil { rows: 3, cols: 3, weights: vec![2, w - 1, 2, 1, w - 1, 1, 2, 1, w - 1] });
            for topology in [Topology::Plane, Topology::Torus, Topology::Klein, Topology::Projective] {
                for rule in [Rule::Cross, Rule::from_name("king").expect("king"), stencil.clone()] {
                    for (rows, cols) in [(7, 9), (40, 70)] {
                        let mut p = Puzzle::new(rows, cols, w, rule.clone(), topology);
                        p.lights = Board::dense((0..p.cells()).map(|_| rng.below(u64::from(w)) as u16).collect());
                        let plan = Plan::best(&p, &|| false).expect("planned");
                        let rhs: Vec<u32> = (0..p.cells()).map(|k| p.need(plan.layout.cell(k))).collect();
                        assert_eq!(
                            planes_leftover(&p, &plan, &rhs),
                            leftover::<u32>(&p, &plan, &rhs),
                            "W={w} {rows}x{cols} {topology:?} {rule:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn each_modulus_gets_the_narrowest_word_its_sums_fit() {
        assert_eq!([3, 128, 129, 32_768, 32_769, 65_536].map(super::word_bits), [8, 8, 16, 16, 32, 32]);
    }

    #[test]
    fn narrow_words_chase_as_wide_ones() {
        // At each word's largest W (128 in u8, 32,768 in u16) a sum of two
        // coefficients is at its largest; a stencil brings coefficients
        // other than 1 (and forced presses whose coefficient is not 1),
        // random lights every right-hand side.
        let mut rng = SplitMix64(7);
        for w in [3u32, 4, 6, 127, 128, 129, 1000, 32_768] {
            let stencil =
                Rule::Stencil(Stencil { rows: 3, cols: 3, weights: vec![2, 3, 2, w - 1, 5 % w, 1, 2, w - 1, 3] });
            for topology in [Topology::Plane, Topology::Torus, Topology::Klein, Topology::Projective] {
                for rule in [Rule::Cross, Rule::from_name("king").expect("king"), stencil.clone()] {
                    let mut p = Puzzle::new(7, 9, w, rule.clone(), topology);
                    p.lights = Board::dense((0..p.cells()).map(|_| rng.below(u64::from(w)) as u16).collect());
                    let plan = Plan::best(&p, &|| false).expect("planned");
                    let rhs: Vec<u32> = (0..p.cells()).map(|k| p.need(plan.layout.cell(k))).collect();
                    let wide = leftover::<u32>(&p, &plan, &rhs);
                    if w <= 32_768 {
                        assert_eq!(leftover::<u16>(&p, &plan, &rhs), wide, "W={w} {topology:?} {rule:?}: u16");
                    }
                    if w <= 128 {
                        assert_eq!(leftover::<u8>(&p, &plan, &rhs), wide, "W={w} {topology:?} {rule:?}: u8");
                    }
                }
            }
        }
    }
}
