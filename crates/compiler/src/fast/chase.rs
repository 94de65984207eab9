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

use lights_algebra::modular::mod_inv;
use lights_algebra::{solve_cancellable, AlgebraError, SparseMatrix};
use num_bigint::BigUint;

use super::{minimum_of, recheck, FastError, MATERIALIZE_LIMIT};
use crate::lower::press_pattern_into;
use crate::model::{Puzzle, Rule};
use crate::solve::{unknowns_limit, QuietPattern, Report, SolveError};

const NONE: u32 = u32::MAX;

/// Whether the chase is the better path for this puzzle (few unknowns left).
pub fn worthwhile(p: &Puzzle) -> bool {
    !matches!(p.rule, Rule::Flip) && p.cells() >= 2
}

/// Solves by the chase when it leaves few enough unknowns; `None` when dense
/// elimination is the better path.
pub fn solve(p: &Puzzle, cancel: &dyn Fn() -> bool) -> Option<Result<Report, SolveError>> {
    let plan = Plan::best(p);
    let free = p.locked.iter().filter(|&&l| !l).count();
    // The leftover system is dense: it must be much smaller than the whole one.
    if plan.unknowns * 4 > free.max(16) {
        return None;
    }
    let limit = unknowns_limit(p.states);
    if plan.unknowns > limit {
        return Some(Err(SolveError::TooLarge { unknowns: plan.unknowns, limit }));
    }
    Some(run(p, &plan, cancel).map_err(SolveError::from))
}

/// Solves by the chase whatever the number of unknowns (for tests).
pub fn solve_always(p: &Puzzle, cancel: &dyn Fn() -> bool) -> Option<Result<Report, SolveError>> {
    let plan = Plan::best(p);
    Some(run(p, &plan, cancel).map_err(SolveError::from))
}

/// Reading order of the chase: position `k` is cell `order[k]`.
struct Layout {
    order: Vec<u32>,
    position: Vec<u32>,
}

impl Layout {
    fn new(p: &Puzzle, transposed: bool) -> Self {
        let cells = p.cells();
        let order: Vec<u32> = if transposed {
            (0..cells).map(|k| ((k % p.rows) * p.cols + k / p.rows) as u32).collect()
        } else {
            (0..cells as u32).collect()
        };
        let mut position = vec![0u32; cells];
        for (k, &c) in order.iter().enumerate() {
            position[c as usize] = k as u32;
        }
        Layout { order, position }
    }
}

/// The equations in positions: equation `e` (the cell at position `e`) is
/// `Σ coef·press(var) = rhs[e]`, vars sorted by position.
struct Equations {
    start: Vec<u32>,
    vars: Vec<u32>,
    coefs: Vec<u32>,
}

impl Equations {
    fn new(p: &Puzzle, layout: &Layout) -> Self {
        let cells = p.cells();
        let w = p.states;
        let mut count = vec![0u32; cells + 1];
        let mut pattern = Vec::new();
        let free = |cell: usize| !p.locked[cell];
        for cell in (0..cells).filter(|&c| free(c)) {
            press_pattern_into(p, cell / p.cols, cell % p.cols, &mut pattern);
            for &(t, wt) in &pattern {
                if wt % w != 0 {
                    count[layout.position[t] as usize + 1] += 1;
                }
            }
        }
        for e in 0..cells {
            count[e + 1] += count[e];
        }
        let start = count;
        let total = start[cells] as usize;
        let mut fill = start.clone();
        let mut vars = vec![0u32; total];
        let mut coefs = vec![0u32; total];
        // Visiting presses in position order keeps each equation's vars sorted.
        for k in 0..cells {
            let cell = layout.order[k] as usize;
            if !free(cell) {
                continue;
            }
            press_pattern_into(p, cell / p.cols, cell % p.cols, &mut pattern);
            for &(t, wt) in &pattern {
                if wt % w != 0 {
                    let e = layout.position[t] as usize;
                    let at = fill[e] as usize;
                    vars[at] = k as u32;
                    coefs[at] = wt % w;
                    fill[e] += 1;
                }
            }
        }
        Equations { start, vars, coefs }
    }

    fn of(&self, e: usize) -> impl Iterator<Item = (usize, u32)> + '_ {
        let (a, b) = (self.start[e] as usize, self.start[e + 1] as usize);
        self.vars[a..b].iter().zip(&self.coefs[a..b]).map(|(&v, &c)| (v as usize, c))
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
    /// Per press position: the last equation that mentions it.
    last_use: Vec<u32>,
    unknowns: usize,
    leftover: usize,
}

impl Plan {
    /// The orientation leaving fewer unknowns.
    fn best(p: &Puzzle) -> Plan {
        let straight = Plan::new(p, false);
        if p.rows == p.cols || p.rows == 1 || p.cols == 1 {
            return straight;
        }
        let turned = Plan::new(p, true);
        if turned.unknowns < straight.unknowns {
            turned
        } else {
            straight
        }
    }

    fn new(p: &Puzzle, transposed: bool) -> Plan {
        let layout = Layout::new(p, transposed);
        let eqs = Equations::new(p, &layout);
        let cells = p.cells();
        let w = p.states;
        let unit = |c: u32| gcd(c, w) == 1;
        let mut fresh = vec![NONE; cells];
        let mut determined = vec![false; cells];
        let mut forces = vec![NONE; cells];
        let mut last_use = vec![0u32; cells];
        let mut unknowns = 0u32;
        let mut leftover = 0usize;
        for e in 0..cells {
            let target = eqs.of(e).filter(|&(v, c)| !determined[v] && unit(c)).map(|(v, _)| v).last();
            for (v, _) in eqs.of(e) {
                last_use[v] = e as u32;
                if !determined[v] && Some(v) != target {
                    fresh[v] = unknowns;
                    unknowns += 1;
                    determined[v] = true;
                }
            }
            match target {
                Some(v) => {
                    forces[e] = v as u32;
                    determined[v] = true;
                }
                None => leftover += 1,
            }
        }
        // Presses that change nothing are unknowns too (free directions).
        for k in 0..cells {
            if !determined[k] && !p.locked[layout.order[k] as usize] {
                fresh[k] = unknowns;
                unknowns += 1;
            }
        }
        Plan { layout, eqs, fresh, forces, last_use, unknowns: unknowns as usize, leftover }
    }
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Arithmetic on affine forms over the unknowns: `len` storage words, the
/// constant term at index `unknowns`.
trait Forms {
    type Word: Copy + Default;
    fn len(&self) -> usize;
    fn set_unit(&self, f: &mut [Self::Word], k: usize);
    /// `acc += c·src`.
    fn add_scaled(&self, acc: &mut [Self::Word], src: &[Self::Word], c: u32);
    /// `acc := inv·(rhs·1 − acc)`: the forced press from its equation.
    fn finish_forced(&self, acc: &mut [Self::Word], inv: u32, rhs: u32);
    fn entry(&self, f: &[Self::Word], i: usize) -> u32;
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
    fn finish_forced(&self, acc: &mut [u64], _inv: u32, rhs: u32) {
        if rhs & 1 == 1 {
            let k = self.unknowns;
            acc[k / 64] ^= 1 << (k % 64);
        }
    }
    fn entry(&self, f: &[u64], i: usize) -> u32 {
        (f[i / 64] >> (i % 64) & 1) as u32
    }
}

struct ModForms {
    unknowns: usize,
    w: u32,
}

impl Forms for ModForms {
    type Word = u32;
    fn len(&self) -> usize {
        self.unknowns + 1
    }
    fn set_unit(&self, f: &mut [u32], k: usize) {
        f[k] = 1;
    }
    fn add_scaled(&self, acc: &mut [u32], src: &[u32], c: u32) {
        let w = self.w;
        if c == 1 {
            for (a, &s) in acc.iter_mut().zip(src) {
                let t = *a + s;
                *a = if t >= w { t - w } else { t };
            }
        } else {
            for (a, &s) in acc.iter_mut().zip(src) {
                *a = ((u64::from(*a) + u64::from(c) * u64::from(s)) % u64::from(w)) as u32;
            }
        }
    }
    fn finish_forced(&self, acc: &mut [u32], inv: u32, rhs: u32) {
        let w = self.w;
        for a in acc.iter_mut() {
            let neg = if *a == 0 { 0 } else { w - *a };
            *a = if inv == 1 { neg } else { ((u64::from(neg) * u64::from(inv)) % u64::from(w)) as u32 };
        }
        let k = self.unknowns;
        acc[k] = ((u64::from(acc[k]) + u64::from(inv) * u64::from(rhs)) % u64::from(w)) as u32;
    }
    fn entry(&self, f: &[u32], i: usize) -> u32 {
        f[i]
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
    fn new(len: usize, presses: usize) -> Self {
        Slab { len, data: Vec::new(), free: Vec::new(), slot_of: vec![NONE; presses] }
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
    fn get(&self, v: usize) -> &[W] {
        let s = self.slot_of[v] as usize;
        &self.data[s * self.len..(s + 1) * self.len]
    }
    fn set(&mut self, v: usize, form: &[W]) {
        let s = self.alloc(v);
        self.data[s * self.len..(s + 1) * self.len].copy_from_slice(form);
    }
}

/// The leftover system: one row per leftover equation, over the unknowns.
struct Leftover {
    /// Equation position of each row.
    equations: Vec<u32>,
    matrix: SparseMatrix,
    rhs: Vec<u32>,
}

/// The symbolic pass: forms of every press, the leftover equations.
fn symbolic<F: Forms>(
    p: &Puzzle,
    plan: &Plan,
    rhs: &[u32],
    forms: &F,
    cancel: &dyn Fn() -> bool,
) -> Result<Leftover, FastError> {
    let cells = p.cells();
    let w = p.states;
    let len = forms.len();
    let mut slab: Slab<F::Word> = Slab::new(len, cells);
    let mut acc = vec![F::Word::default(); len];
    let mut unit = vec![F::Word::default(); len];
    let mut left = Leftover {
        equations: Vec::with_capacity(plan.leftover),
        matrix: SparseMatrix::new(plan.leftover, plan.unknowns),
        rhs: Vec::with_capacity(plan.leftover),
    };
    for e in 0..cells {
        if e % 1024 == 0 && cancel() {
            return Err(FastError::Cancelled);
        }
        // Unknowns first seen here get their unit forms.
        for (v, _) in plan.eqs.of(e) {
            if plan.fresh[v] != NONE && slab.slot_of[v] == NONE {
                unit.fill(F::Word::default());
                forms.set_unit(&mut unit, plan.fresh[v] as usize);
                slab.set(v, &unit);
            }
        }
        acc.fill(F::Word::default());
        let target = plan.forces[e];
        let mut target_coef = 0;
        for (v, c) in plan.eqs.of(e) {
            if v as u32 == target {
                target_coef = c;
            } else {
                forms.add_scaled(&mut acc, slab.get(v), c);
            }
        }
        if target == NONE {
            let row = left.equations.len();
            for k in 0..plan.unknowns {
                let a = forms.entry(&acc, k);
                if a != 0 {
                    left.matrix.push_entry(k, row, a);
                }
            }
            let constant = forms.entry(&acc, plan.unknowns);
            left.rhs.push((rhs[e] + w - constant) % w);
            left.equations.push(e as u32);
        } else {
            let inv = mod_inv(target_coef, w).ok_or_else(|| FastError::Internal("forcing coefficient".into()))?;
            forms.finish_forced(&mut acc, inv, rhs[e]);
            slab.set(target as usize, &acc);
        }
        for (v, _) in plan.eqs.of(e) {
            if plan.last_use[v] as usize == e {
                slab.release(v);
            }
        }
    }
    Ok(left)
}

/// The numeric chase: every press from the unknowns' values (`rhs` all zero
/// for quiet patterns). Returns presses per position.
fn numeric(p: &Puzzle, plan: &Plan, rhs: Option<&[u32]>, values: &[u32]) -> Vec<u32> {
    let cells = p.cells();
    let w = u64::from(p.states);
    let mut x = vec![0u32; cells];
    for k in 0..cells {
        if plan.fresh[k] != NONE {
            x[k] = values[plan.fresh[k] as usize];
        }
    }
    for e in 0..cells {
        let target = plan.forces[e];
        if target == NONE {
            continue;
        }
        let mut sum = 0u64;
        let mut coef = 0u32;
        for (v, c) in plan.eqs.of(e) {
            if v as u32 == target {
                coef = c;
            } else {
                sum += u64::from(c) * u64::from(x[v]);
            }
        }
        let b = rhs.map_or(0, |r| u64::from(r[e]));
        let need = (b + w * w - sum % w) % w;
        let inv = u64::from(mod_inv(coef, p.states).unwrap_or(0));
        x[target as usize] = (need * inv % w) as u32;
    }
    x
}

/// The certificate on every equation from the leftover one (module docs).
fn extend_certificate(p: &Puzzle, plan: &Plan, left: &Leftover, z: &[u32]) -> Vec<u32> {
    let cells = p.cells();
    let w = u64::from(p.states);
    let mut y = vec![0u64; cells];
    for (row, &e) in left.equations.iter().enumerate() {
        y[e as usize] = u64::from(z[row]);
    }
    let mut pattern = Vec::new();
    for e in (0..cells).rev() {
        let v = plan.forces[e];
        if v == NONE {
            continue;
        }
        let cell = plan.layout.order[v as usize] as usize;
        press_pattern_into(p, cell / p.cols, cell % p.cols, &mut pattern);
        let mut sum = 0u64;
        let mut own = 0u64;
        for &(t, wt) in &pattern {
            let te = plan.layout.position[t] as usize;
            if te == e {
                own = u64::from(wt) % w;
            } else {
                sum = (sum + y[te] * (u64::from(wt) % w)) % w;
            }
        }
        let inv = u64::from(mod_inv(own as u32, p.states).unwrap_or(0));
        y[e] = (w - sum) % w * inv % w;
    }
    y.into_iter().map(|v| v as u32).collect()
}

fn run(p: &Puzzle, plan: &Plan, cancel: &dyn Fn() -> bool) -> Result<Report, FastError> {
    let cells = p.cells();
    let w = p.states;
    let layout = &plan.layout;
    // Right-hand side per equation position: goal − lights.
    let rhs: Vec<u32> = layout
        .order
        .iter()
        .map(|&c| {
            let c = c as usize;
            (u32::from(p.goal.values[c]) + w - u32::from(p.lights.values[c])) % w
        })
        .collect();
    let left = if w == 2 {
        symbolic(p, plan, &rhs, &Gf2Forms { unknowns: plan.unknowns }, cancel)?
    } else {
        symbolic(p, plan, &rhs, &ModForms { unknowns: plan.unknowns, w }, cancel)?
    };
    let sol = solve_cancellable(&left.matrix, &left.rhs, w, cancel).map_err(|e| match e {
        AlgebraError::Cancelled => FastError::Cancelled,
        other => FastError::Internal(other.to_string()),
    })?;
    let to_cells = |by_position: Vec<u32>| -> Vec<u32> {
        let mut out = vec![0u32; cells];
        for (k, v) in by_position.into_iter().enumerate() {
            out[layout.order[k] as usize] = v;
        }
        out
    };
    let nullity = sol.kernel.generators.len();
    let materialize = cells.saturating_mul(nullity + 1) <= MATERIALIZE_LIMIT;
    let quiet_patterns: Vec<QuietPattern> = if materialize {
        sol.kernel
            .generators
            .iter()
            .map(|g| QuietPattern { presses: to_cells(numeric(p, plan, None, &g.vector)), order: g.order })
            .collect()
    } else {
        Vec::new()
    };
    let certificate = sol.certificate.as_ref().map(|z| to_cells(extend_certificate(p, plan, &left, z)));
    let minimum = match &sol.particular {
        Some(u) => {
            let x = to_cells(numeric(p, plan, Some(&rhs), u));
            Some(minimum_of(p, x, &quiet_patterns, materialize, nullity == 0, cancel)?)
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
        unknowns: p.locked.iter().filter(|&&l| !l).count(),
    };
    recheck(p, &report)?;
    Ok(report)
}
