//! The minimum search of every solving path: the algebra's search over the
//! quiet patterns, helped by what only the puzzle knows — its press
//! patterns.
//!
//! * [`counting_bound`]: every light that must change needs presses among
//!   the buttons that reach it, and a press reaches a bounded number of
//!   lights. Weighing each light by the most lights any of its buttons
//!   reaches gives a feasible solution of the dual of the covering LP, so
//!   its value is a proven lower bound (see docs/solver.md).
//! * the part bound (`W = 2`, `lines_bound`): the lightest weight the
//!   solutions can have on each row alone, summed over the rows (or the
//!   columns); on tori a row sees a low-rank projection of the quiet
//!   patterns, so this is cheap where the whole search is not.
//! * [`symmetric_minimum`] (`W = 2`): when a shift of the columns (or rows)
//!   maps the puzzle onto itself, some lightest solution is light on column
//!   0, and only those solutions are searched (the window search).
//! * [`exact_cover`]: when the search stops short of its bound, an exact cover of
//!   the lights by presses that each give every light they touch exactly
//!   what it needs is a solution, found by Algorithm X within the budget;
//!   when it meets the bound, the minimum is proven.
//!
//! All four run only when the algebra's search has not proven its answer;
//! the counting bound and the cover also (with more than
//! `COVER_FIRST_PATTERNS` quiet patterns) before it, and only while the
//! press patterns stay small (`PATTERN_LIMIT` entries and within the budget).

use crate::lower::press_pattern_into;
use crate::model::Puzzle;
use crate::report::DEFAULT_MINIMUM_WORK;
use crate::symmetry::shifts::symmetric_windows;
use lights_algebra::{minimum_weight_with_budget, window_search, AlgebraError, Kernel, Minimum, Parts, WindowOutcome};

/// Most press-pattern entries (cells × cells a press changes) the bounds
/// build; beyond, the search runs without them.
const PATTERN_LIMIT: usize = 1 << 23;
/// The cover search may use `1 / COVER_PART` of the budget, on top of the
/// algebra's search (which keeps all of what is left after the solve's share).
const COVER_PART: u64 = 4;
/// Boards of up to this many cells keep the cover search's arrays in a
/// cache; beyond, each step of its scan costs a miss.
const CACHED_CELLS: usize = 1 << 16;
/// Work units per press-pattern entry visited.
const ENTRY_UNITS: u64 = 4;
/// With more quiet patterns than this, the counting bound and the exact
/// cover are tried before the algebra's search (which searches up to 24
/// patterns to the end, and beyond rarely proves within its budget).
const COVER_FIRST_PATTERNS: usize = 24;
/// The part bound may use `1 / PART_BOUND_PART` of the budget (on top of
/// the algebra's search, like the cover search).
const PART_BOUND_PART: u64 = 4;
/// The window search may use `1 / WINDOW_PART` of the budget (on top of
/// the algebra's search, like the part bound).
const WINDOW_PART: u64 = 2;

/// The fewest presses over `particular + kernel` (both over the puzzle's
/// cells, entries below W), within `work` units: what every solving path
/// and the authoring commands use.
///
/// A budget above the default first does what the default does, then
/// searches again with the rest and keeps the better of the two: the
/// searches' shares and descents depend on the budget, and a longer one
/// could otherwise settle on a worse member (48×48 projective plane, W = 4:
/// 3184 presses with 2 s, 2976 with the default). Waiting longer never
/// answers worse, and the answer stays the default's unless the longer
/// search finds fewer presses.
pub fn search(
    p: &Puzzle,
    particular: &[u32],
    kernel: &Kernel,
    work: u64,
    cancel: &dyn Fn() -> bool,
) -> Result<Minimum, AlgebraError> {
    if work <= DEFAULT_MINIMUM_WORK {
        return search_within(p, particular, kernel, work, cancel);
    }
    let first = search_within(p, particular, kernel, DEFAULT_MINIMUM_WORK, cancel)?;
    if first.optimal {
        return Ok(first);
    }
    let longer = search_within(p, particular, kernel, work - DEFAULT_MINIMUM_WORK, cancel)?;
    take_in(first, longer.lower_bound, Some((longer.x, longer.cost)))
}

/// `m` with a proven `bound` and a `member` (with its cost) taken in: the
/// member replaces `m`'s only when it is cheaper, and `optimal` follows. A
/// bound above a member found is an error in a bound, reported as such.
fn take_in(mut m: Minimum, bound: u64, member: Option<(Vec<u32>, u64)>) -> Result<Minimum, AlgebraError> {
    m.lower_bound = m.lower_bound.max(bound);
    if let Some((x, cost)) = member {
        if cost < m.cost {
            m.x = x;
            m.cost = cost;
        }
    }
    if m.lower_bound > m.cost {
        return Err(AlgebraError::Internal(format!(
            "minimum: a lower bound {} is above the cost {} of a solution",
            m.lower_bound, m.cost
        )));
    }
    m.optimal = m.lower_bound == m.cost;
    Ok(m)
}

/// One search within `work` units: [`search`] for budgets up to the default.
fn search_within(
    p: &Puzzle,
    particular: &[u32],
    kernel: &Kernel,
    work: u64,
    cancel: &dyn Fn() -> bool,
) -> Result<Minimum, AlgebraError> {
    // What the solve took comes off first: spelling out the quiet patterns
    // it hands over cost a pass over the cells per pattern (counted, so the
    // answer does not depend on the machine).
    let solved = (p.cells() as u64).saturating_mul(kernel.generators.len() as u64 + 1);
    let work = work.saturating_sub(solved);
    // With many quiet patterns the algebra's search is long, and where a
    // cover meets the counting bound (King boards tiled by 3×3 presses) it
    // cannot prove what the cover proves at once: look first. Both are the
    // computations the unproven path below would make, with the same units,
    // so when the cover does not prove, the answer is the one it was.
    let mut looked = None;
    if kernel.generators.len() > COVER_FIRST_PATTERNS {
        match press_bounds(p, work, 0, u64::MAX) {
            Some(Looked { bound, cover: Some((x, cost)) }) if cost == bound => {
                return Ok(Minimum { x, cost, optimal: true, lower_bound: bound });
            }
            other => looked = other,
        }
    }
    let m = minimum_weight_with_budget(particular, kernel, p.states, work, cancel)?;
    if m.optimal {
        return Ok(m);
    }
    let m = window_minimum(p, particular, kernel, work, m)?;
    if m.optimal {
        return Ok(m);
    }
    let m = match lines_bound(p, particular, kernel, work) {
        bound if bound > m.lower_bound => take_in(m, bound, None)?,
        _ => m,
    };
    if m.optimal {
        return Ok(m);
    }
    // Only an unproven answer needs what the press patterns tell.
    match looked.or_else(|| press_bounds(p, work, m.lower_bound, m.cost)) {
        Some(Looked { bound, cover }) => take_in(m, bound, cover),
        None => Ok(m),
    }
}

/// The part bound (`W = 2`) with the board's rows as the parts, and with its
/// columns: the better of the two. On tori and other boards built from
/// cyclic shifts a row sees a projection of the quiet patterns of much lower
/// rank than the kernel, and its lightest weight is a few thousand steps
/// away (see `lights_algebra::part_bound`). Within `1 / PART_BOUND_PART` of
/// `work`, on top of the algebra's search; 0 when it does not apply.
fn lines_bound(p: &Puzzle, particular: &[u32], kernel: &Kernel, work: u64) -> u64 {
    let n = p.cells();
    let mut units = work / PART_BOUND_PART;
    // Both partitions restrict every pattern to every cell: check that it is
    // affordable before spelling out the parts (huge boards never are).
    let restricting = (n as u64).saturating_mul(kernel.generators.len() as u64 + 1).saturating_mul(2);
    if p.states != 2 || particular.len() != n || p.rows * p.cols != n || restricting > units {
        return 0;
    }
    let rows: Vec<Vec<usize>> = (0..p.rows).map(|r| (r * p.cols..(r + 1) * p.cols).collect()).collect();
    let cols: Vec<Vec<usize>> = (0..p.cols).map(|c| (0..p.rows).map(|r| r * p.cols + c).collect()).collect();
    let mut partitions: Vec<Parts> =
        [rows, cols].iter().filter_map(|parts| Parts::new(particular, kernel, parts, &mut units)).collect();
    // The cheaper enumeration first; one that cannot be finished is not
    // started (a partial sum is rarely worth its work).
    partitions.sort_by_key(Parts::steps);
    let mut best = 0;
    for parts in &partitions {
        if parts.steps() <= units {
            best = best.max(parts.bound(&mut units));
        }
    }
    best
}

/// The window search (`W = 2`) on an answer `m` the algebra's search has
/// not proven, within `1 / WINDOW_PART` of `work` on top of it: `m` proven,
/// or replaced by the minimum, when [`symmetric_minimum`] finishes.
fn window_minimum(
    p: &Puzzle,
    particular: &[u32],
    kernel: &Kernel,
    work: u64,
    m: Minimum,
) -> Result<Minimum, AlgebraError> {
    let cost = m.cost;
    match symmetric_minimum(p, particular, kernel, cost, &mut (work / WINDOW_PART)) {
        Some(WindowOutcome::NoneLighter) => take_in(m, cost, None),
        Some(WindowOutcome::Minimum(x, cost)) if solves(p, &x) => take_in(m, cost, Some((x, cost))),
        Some(WindowOutcome::Minimum(..)) => {
            Err(AlgebraError::Internal("minimum: the window search's member does not solve the puzzle".into()))
        }
        None => Ok(m),
    }
}

/// The minimum of `particular + kernel` (a `W = 2` puzzle's solutions) if
/// it is below `below`, by the window search: when shifting the board's
/// columns (or rows) maps the puzzle onto itself, a lightest solution has a
/// shifted copy with at most `1 / cols` of its presses in column 0, and the
/// search over the solutions that light there proves the minimum where the
/// whole search could not (see `lights_algebra::window_search`). The shifts
/// are checked on the press patterns first (`symmetry::shifts`). Within
/// `*units` (taken off); `None` when there is no such shift or the units do
/// not suffice.
pub fn symmetric_minimum(
    p: &Puzzle,
    particular: &[u32],
    kernel: &Kernel,
    below: u64,
    units: &mut u64,
) -> Option<WindowOutcome> {
    if p.states != 2 || particular.len() != p.cells() || kernel.generators.is_empty() {
        return None;
    }
    let windows = symmetric_windows(p, units);
    if windows.is_empty() {
        return None;
    }
    window_search(particular, kernel, &windows, below, units)
}

/// What the press patterns tell: the counting bound, and a verified exact
/// cover with its cost when one was found.
struct Looked {
    bound: u64,
    cover: Option<(Vec<u32>, u64)>,
}

/// The counting bound and an exact cover, looked for within a part of
/// `work` unless a bound (the counting bound or `known`) already reaches
/// `cost`, the best known (then no cover can be cheaper); `None` when the
/// patterns are too large for `work`.
fn press_bounds(p: &Puzzle, work: u64, known: u64, cost: u64) -> Option<Looked> {
    let mut left = work;
    let patterns = Patterns::build(p, &mut left)?;
    let bound = patterns.counting_bound(p, &mut left);
    let mut units = work / COVER_PART;
    let cover =
        (bound.max(known) < cost).then(|| patterns.cover(p, &mut units)).flatten().filter(|x| solves(p, x)).map(|x| {
            let cost: u64 = x.iter().map(|&v| u64::from(v)).sum();
            (x, cost)
        });
    Some(Looked { bound, cover })
}

/// A proven lower bound on the presses of any solution, from the press
/// patterns alone (the counting bound); `None` when the board is too large
/// to walk its patterns.
pub fn counting_bound(p: &Puzzle) -> Option<u64> {
    let mut units = u64::MAX;
    Patterns::build(p, &mut units).map(|pt| pt.counting_bound(p, &mut units))
}

/// An exact cover of the lights that need a change by presses that give
/// each light they reach exactly its need (a solution, each such light
/// reached once), found within `units`; `None` when there is none, it was
/// not found in time, or the board is too large.
pub fn exact_cover(p: &Puzzle, units: u64) -> Option<Vec<u32>> {
    let mut build = u64::MAX;
    let mut units = units;
    Patterns::build(p, &mut build)?.cover(p, &mut units)
}

/// The press pattern of every button (empty for locked buttons and holes),
/// in compressed rows, coefficients reduced modulo W.
struct Patterns {
    start: Vec<u32>,
    cells: Vec<u32>,
    weights: Vec<u32>,
}

impl Patterns {
    fn build(p: &Puzzle, units: &mut u64) -> Option<Patterns> {
        let n = p.cells();
        if n == 0 || n >= u32::MAX as usize {
            return None;
        }
        let mut one = Vec::new();
        press_pattern_into(p, p.rows / 2, p.cols / 2, &mut one);
        let estimate = n.saturating_mul(one.len().max(1));
        let cost = estimate as u64 * ENTRY_UNITS;
        if estimate > PATTERN_LIMIT || cost > *units {
            return None;
        }
        let mut pt = Patterns { start: Vec::with_capacity(n + 1), cells: Vec::new(), weights: Vec::new() };
        pt.start.push(0);
        for j in 0..n {
            if !p.is_locked(j) {
                press_pattern_into(p, j / p.cols, j % p.cols, &mut one);
                for &(i, a) in &one {
                    if a % p.states != 0 {
                        pt.cells.push(i as u32);
                        pt.weights.push(a % p.states);
                    }
                }
            }
            if pt.cells.len() > PATTERN_LIMIT {
                return None;
            }
            pt.start.push(pt.cells.len() as u32);
        }
        *units = units.saturating_sub(pt.cells.len() as u64 * ENTRY_UNITS);
        Some(pt)
    }

    fn buttons(&self) -> usize {
        self.start.len() - 1
    }

    fn of(&self, j: usize) -> impl Iterator<Item = (usize, u32)> + '_ {
        let (a, b) = (self.start[j] as usize, self.start[j + 1] as usize);
        self.cells[a..b].iter().zip(&self.weights[a..b]).map(|(&i, &w)| (i as usize, w))
    }

    /// The counting bound. A light `i` that needs `d ≠ 0` takes at least
    /// `m_i` presses among its buttons (the fewest steps from 0 to `d` in
    /// Z/W with the steps its buttons give), and a button `j` reaches
    /// `deg_j` such lights. With `y_i = 1 / max_{j ∋ i} deg_j`, every button
    /// carries `Σ_{i ∋ j} y_i ≤ 1`, so any solution `x` has
    /// `Σ x_j ≥ Σ_j x_j Σ_{i∋j} y_i = Σ_i y_i Σ_{j∋i} x_j ≥ Σ_i y_i m_i`.
    fn counting_bound(&self, p: &Puzzle, units: &mut u64) -> u64 {
        let n = p.cells();
        let w = p.states;
        let need = needs(p);
        let mut deg = vec![0u32; self.buttons()];
        for (j, d) in deg.iter_mut().enumerate() {
            *d = self.of(j).filter(|&(i, _)| need[i] != 0).count() as u32;
        }
        // Per light: the most needy lights one of its buttons reaches, and
        // the steps its buttons give (a bit set for W ≤ 64, else the first
        // step and whether another differs).
        let mut most = vec![0u32; n];
        let mut steps = vec![Steps::None; n];
        for (j, &dj) in deg.iter().enumerate() {
            for (i, a) in self.of(j) {
                if need[i] != 0 {
                    most[i] = most[i].max(dj);
                    steps[i] = steps[i].with(a, w);
                }
            }
        }
        *units = units.saturating_sub(2 * self.cells.len() as u64 * ENTRY_UNITS);
        // Σ m_i / most_i, grouped by denominator.
        let mut sums: Vec<u64> = vec![0; most.iter().copied().max().unwrap_or(0) as usize + 1];
        let mut memo = std::collections::HashMap::new();
        for i in 0..n {
            if need[i] != 0 && most[i] > 0 {
                let m = *memo.entry((steps[i], need[i])).or_insert_with(|| steps[i].fewest(need[i], w));
                sums[most[i] as usize] += u64::from(m);
            }
        }
        ceil_of_sum(&sums)
    }

    /// An exact cover of the lights that need a change by presses that each
    /// give every light they reach exactly its need (so each such light is
    /// reached by one press, and the presses solve the puzzle), by Algorithm
    /// X with the most constrained light first, within `units`.
    fn cover(&self, p: &Puzzle, units: &mut u64) -> Option<Vec<u32>> {
        Cover::new(self, p)?.run(units)
    }
}

/// The steps (press weights) that reach one light.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Steps {
    None,
    /// W ≤ 64: the set of weights.
    Set(u64),
    /// W > 64: one weight seen.
    One(u32),
    /// W > 64: several weights (bounded by one press).
    Many,
}

impl Steps {
    fn with(self, a: u32, w: u32) -> Steps {
        if w <= 64 {
            let bit = 1u64 << a;
            match self {
                Steps::Set(s) => Steps::Set(s | bit),
                _ => Steps::Set(bit),
            }
        } else {
            match self {
                Steps::None => Steps::One(a),
                Steps::One(b) if b == a => self,
                _ => Steps::Many,
            }
        }
    }

    /// The fewest steps summing to `d` modulo `w` (at least 1 for `d ≠ 0`;
    /// 1 when `d` cannot be reached: the puzzle is then not solvable and no
    /// minimum is asked).
    fn fewest(self, d: u32, w: u32) -> u32 {
        match self {
            Steps::None | Steps::Many => 1,
            Steps::One(a) => {
                // The least k ≥ 1 with k·a ≡ d (mod w).
                let (mut k, mut v) = (1u64, u64::from(a));
                while v % u64::from(w) != u64::from(d) && k < u64::from(w) {
                    k += 1;
                    v += u64::from(a);
                }
                if k < u64::from(w) {
                    k as u32
                } else {
                    1
                }
            }
            Steps::Set(set) => {
                // Breadth-first over Z/w.
                let mut seen = 1u64; // 0 reached with no step
                let mut frontier = 1u64;
                for k in 1..w {
                    let mut next = 0u64;
                    for a in 0..w {
                        if set >> a & 1 == 1 {
                            next |= rotate(frontier, a, w);
                        }
                    }
                    next &= !seen;
                    if next >> d & 1 == 1 {
                        return k;
                    }
                    if next == 0 {
                        return 1;
                    }
                    seen |= next;
                    frontier = next;
                }
                1
            }
        }
    }
}

/// The set `{(v + a) mod w : v ∈ set}` of residues below `w ≤ 64`.
fn rotate(set: u64, a: u32, w: u32) -> u64 {
    let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    if a == 0 {
        return set;
    }
    ((set << a) | (set >> (w - a))) & mask
}

/// `⌈Σ_d sums[d] / d⌉`, exactly while the denominators' least common
/// multiple fits; beyond, a value at most that.
fn ceil_of_sum(sums: &[u64]) -> u64 {
    let mut whole: u64 = 0;
    let (mut num, mut den): (u128, u128) = (0, 1);
    let mut exact = true;
    let mut approx = 0f64;
    for (d, &s) in sums.iter().enumerate().skip(1) {
        if s == 0 {
            continue;
        }
        let d64 = d as u64;
        whole += s / d64;
        let r = u128::from(s % d64);
        if r == 0 {
            continue;
        }
        approx += r as f64 / d as f64;
        if exact {
            let g = gcd128(den, d as u128);
            match (den / g).checked_mul(d as u128) {
                Some(l) if l < (1u128 << 100) => {
                    num = num * (l / den) + r * (l / d as u128);
                    den = l;
                }
                _ => exact = false,
            }
        }
    }
    let frac = if exact { num.div_ceil(den) as u64 } else { (approx - 1e-6).floor().max(0.0) as u64 };
    whole + frac
}

/// The units of one choice of the exact cover on a board of `cells`, which
/// scans the `needy` lights: a quarter of a unit each on a board that fits
/// a cache, two on a larger one (each read is a miss; a 2 s budget took
/// 10 s on a 700×700 board before).
fn scan_units(needy: usize, cells: usize) -> u64 {
    let quarters = if cells > CACHED_CELLS { 8 } else { 1 };
    needy as u64 * quarters / 4 + 1
}

/// Whether `needy` lights can be split among the `eligible` presses, by
/// count alone: the gcd of the numbers of distinct lights the presses reach
/// divides `needy` (a necessary condition for an exact cover).
fn cover_sizes_can_sum_to(pt: &Patterns, eligible: &[bool], needy: usize) -> bool {
    let mut g = 0u128;
    let mut cells = Vec::new();
    for j in (0..pt.buttons()).filter(|&j| eligible[j]) {
        cells.clear();
        cells.extend(pt.of(j).map(|(i, _)| i));
        cells.sort_unstable();
        cells.dedup();
        g = gcd128(g, cells.len() as u128);
        if g == 1 {
            return true;
        }
    }
    g != 0 && (needy as u128).is_multiple_of(g)
}

fn gcd128(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Whether `x` solves the puzzle: every light ends at its goal and no
/// locked button is pressed (replayed independently of the patterns).
pub(crate) fn solves(p: &Puzzle, x: &[u32]) -> bool {
    // Entries are below W ≤ 65,536 (`MAX_STATES`), so each fits a u16.
    let presses: Vec<u16> = x.iter().map(|&v| v as u16).collect();
    crate::lower::presses_solve(p, &presses)
}

/// What each cell needs (`goal − lights` mod W; 0 on holes).
fn needs(p: &Puzzle) -> Vec<u32> {
    (0..p.cells()).map(|i| if p.is_hole(i) { 0 } else { p.need(i) }).collect()
}

/// Per light, the buttons that may cover it, in compressed rows.
struct Options {
    start: Vec<u32>,
    flat: Vec<u32>,
}

impl Options {
    fn of(&self, i: usize) -> &[u32] {
        &self.flat[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// Algorithm X over the lights that need a change, with arrays and undo
/// (no recursion: a cover may hold thousands of presses).
struct Cover<'a> {
    pt: &'a Patterns,
    /// The lights to cover.
    needy: Vec<usize>,
    /// Per light, the eligible buttons reaching it.
    options: Options,
    covered: Vec<bool>,
    /// Per button: 0 while it may still be pressed, else how many covered
    /// lights block it.
    blocked: Vec<u32>,
    /// Per light: its options still available.
    count: Vec<u32>,
}

impl<'a> Cover<'a> {
    fn new(pt: &'a Patterns, p: &Puzzle) -> Option<Cover<'a>> {
        let n = p.cells();
        let need = needs(p);
        let needy: Vec<usize> = (0..n).filter(|&i| need[i] != 0).collect();
        if needy.is_empty() {
            return None;
        }
        // Eligible buttons, then their lights' option lists in compressed
        // rows (one list per light would cost a vector header per cell).
        let eligible: Vec<bool> = (0..pt.buttons())
            .map(|j| {
                let mut reach = pt.of(j).peekable();
                reach.peek().is_some() && reach.all(|(i, a)| need[i] == a)
            })
            .collect();
        // A cover covers each needy light once, so the needy lights are
        // as many as the lights its presses reach together: the gcd of the
        // eligible presses' sizes divides their number, or there is no
        // cover to look for (the 48-cell torus with the cross: 2,304
        // lights, presses of 5).
        if !cover_sizes_can_sum_to(pt, &eligible, needy.len()) {
            return None;
        }
        let mut start = vec![0u32; n + 1];
        for j in (0..pt.buttons()).filter(|&j| eligible[j]) {
            for (i, _) in pt.of(j) {
                start[i + 1] += 1;
            }
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut flat = vec![0u32; start[n] as usize];
        for j in (0..pt.buttons()).filter(|&j| eligible[j]) {
            for (i, _) in pt.of(j) {
                flat[fill[i] as usize] = j as u32;
                fill[i] += 1;
            }
        }
        let blocked = eligible.iter().map(|&e| u32::from(!e)).collect();
        let count = (0..n).map(|i| start[i + 1] - start[i]).collect();
        let options = Options { start, flat };
        Some(Cover { pt, needy, options, covered: vec![false; n], blocked, count })
    }

    /// The uncovered light with the fewest options (`None` when all are
    /// covered), and that number.
    fn choose(&self) -> Option<(usize, u32)> {
        let mut best: Option<(usize, u32)> = None;
        for &i in &self.needy {
            if !self.covered[i] && best.is_none_or(|(_, c)| self.count[i] < c) {
                best = Some((i, self.count[i]));
                if self.count[i] == 0 {
                    break;
                }
            }
        }
        best
    }

    /// Presses button `j`: covers its lights and blocks every button that
    /// reaches one of them. Returns the work done.
    fn press(&mut self, j: usize) -> u64 {
        let mut work = 0u64;
        for (i, _) in self.pt.of(j) {
            self.covered[i] = true;
            for &k in self.options.of(i) {
                let k = k as usize;
                if self.blocked[k] == 0 {
                    for (l, _) in self.pt.of(k) {
                        self.count[l] -= 1;
                        work += 1;
                    }
                }
                self.blocked[k] += 1;
            }
        }
        work
    }

    /// Undoes [`Cover::press`] of `j`.
    fn unpress(&mut self, j: usize) {
        let cells: Vec<usize> = self.pt.of(j).map(|(i, _)| i).collect();
        for &i in cells.iter().rev() {
            for &k in self.options.of(i).iter().rev() {
                let k = k as usize;
                self.blocked[k] -= 1;
                if self.blocked[k] == 0 {
                    for (l, _) in self.pt.of(k) {
                        self.count[l] += 1;
                    }
                }
            }
            self.covered[i] = false;
        }
    }

    fn run(mut self, units: &mut u64) -> Option<Vec<u32>> {
        // The stack: for each chosen light, the option tried.
        let mut stack: Vec<(usize, usize)> = Vec::new();
        let scan = scan_units(self.needy.len(), self.covered.len());
        loop {
            *units = units.checked_sub(scan)?;
            match self.choose() {
                None => break,
                Some((i, c)) if c > 0 => {
                    let j = self.first_open(i, 0)?;
                    *units = units.checked_sub(self.press(j))?;
                    stack.push((i, j));
                }
                Some(_) => {
                    // Dead end: move the latest choice to its next option.
                    loop {
                        let (i, j) = stack.pop()?;
                        self.unpress(j);
                        let at = self.options.of(i).iter().position(|&k| k as usize == j)? + 1;
                        if let Some(next) = self.first_open(i, at) {
                            *units = units.checked_sub(self.press(next))?;
                            stack.push((i, next));
                            break;
                        }
                    }
                }
            }
        }
        let mut x = vec![0u32; self.covered.len()];
        for &(_, j) in &stack {
            x[j] = 1;
        }
        Some(x)
    }

    /// The first option of light `i` from position `at` still available.
    fn first_open(&self, i: usize, at: usize) -> Option<usize> {
        self.options.of(i)[at..].iter().map(|&k| k as usize).find(|&k| self.blocked[k] == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_covers_scan_on_a_large_board_is_charged_its_cache_misses() {
        assert_eq!(scan_units(2_304, 2_304), 577);
        assert_eq!(scan_units(1 << 16, 1 << 16), (1 << 14) + 1);
        assert_eq!(scan_units(490_000, 490_000), 980_001);
    }

    #[test]
    fn ceil_of_sum_is_exact() {
        // ⌈1/2 + 1/3⌉ = 1, ⌈3/2 + 2/3⌉ = 3 (13/6), ⌈4/2 + 3/3⌉ = 3.
        assert_eq!(ceil_of_sum(&[0, 0, 1, 1]), 1);
        assert_eq!(ceil_of_sum(&[0, 0, 3, 2]), 3);
        assert_eq!(ceil_of_sum(&[0, 0, 4, 3]), 3);
        assert_eq!(ceil_of_sum(&[0, 7]), 7);
        assert_eq!(ceil_of_sum(&[]), 0);
        // Many denominators (their lcm overflows): never above the true value.
        let mut sums = vec![1u64; 200];
        sums[0] = 0;
        let truth: f64 = (1..200).map(|d| 1.0 / d as f64).sum();
        let got = ceil_of_sum(&sums);
        assert!(got as f64 <= truth.ceil() && got as f64 >= truth.floor(), "{got} vs {truth}");
    }

    /// The fewest steps by exhaustive search over step counts.
    fn fewest_by_search(steps: &[u32], d: u32, w: u32) -> u32 {
        let mut reach = vec![false; w as usize];
        reach[0] = true;
        for k in 1..=w {
            let mut next = vec![false; w as usize];
            for v in 0..w as usize {
                if reach[v] {
                    for &a in steps {
                        next[(v + a as usize) % w as usize] = true;
                    }
                }
            }
            if next[d as usize] {
                return k;
            }
            reach = next;
        }
        1
    }

    #[test]
    fn fewest_steps_agree_with_search() {
        for w in [2u32, 3, 4, 6, 12, 64, 65, 100] {
            for set in [vec![1], vec![2], vec![3, 5], vec![w - 1], vec![2, w - 1]] {
                let set: Vec<u32> = set.into_iter().map(|a| a % w).filter(|&a| a != 0).collect();
                if set.is_empty() {
                    continue;
                }
                let steps = set.iter().fold(Steps::None, |s, &a| s.with(a, w));
                for d in 1..w {
                    let want = fewest_by_search(&set, d, w);
                    let got = steps.fewest(d, w);
                    if matches!(steps, Steps::Many) {
                        assert_eq!(got, 1);
                    } else {
                        assert_eq!(got, want, "W={w} steps {set:?} d={d}");
                    }
                }
            }
        }
    }
}
