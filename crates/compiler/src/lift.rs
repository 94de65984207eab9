//! Solutions that repeat a small pattern across the board.
//!
//! A space of repeating patterns gives every cell of the board one of a
//! few unknowns — its *class* — and asks for the presses that solve the
//! board with equal presses on the cells of each class. Along each side of
//! the board a pattern may:
//!
//! - repeat every d cells (d | the side's length): cell i takes class i mod d;
//! - repeat every d cells mirrored within each period (d even): cell i
//!   takes min(v, d − 1 − v) with v = i mod d, so every period reads the
//!   same backwards (a pattern such as `0 1 1 0`);
//!
//! and, on a surface with a twisted seam, every second copy across that
//! seam may be mirrored (a *glide*), as the seam mirrors. The board's own
//! equations, one per light, restricted to the classes, are solved exactly
//! over Z/W (the algebra crate: a few hundred equations after duplicates
//! are merged — away from the borders a light has the equation of the
//! light whole periods from it in the first period —, at most 144
//! unknowns), and the fewest presses among their solutions is looked for:
//! all of them when there are at most 4096, else a descent over the
//! kernel's generators, and the algebra's minimum search for the best few
//! such spaces at the end. Each class holds the same number of cells, so a
//! solution's presses are that number times its sum. Every solution
//! of the restricted system solves the board — the restriction changes
//! which presses are allowed, not what they must do — so this holds on
//! every surface, the projective plane and its corners included, and for
//! every rule. Each one is still applied to the board before it is kept.
//!
//! These solutions are only upper bounds, but on wrapped boards with many
//! states they beat the searches by far: the 48×48 projective plane with
//! W = 12 gets 6912 presses from rows that repeat `0 1 1 0` mirrored every
//! 6 and columns every 4 (6 unknowns), where the search found 10,872.
//!
//! A space is tried only when the board's lights, goal and locks are equal
//! on each of its classes (otherwise a solution is unlikely and the work is
//! lost), with at most 144 unknowns and a quarter of the board's cells. A
//! space inside another (every pattern of one is a pattern of the other)
//! is left out, and the largest cap on unknowns whose spaces the work pays
//! for is taken: 24–36 unknowns on a 48×48 board with the default budget.

use lights_algebra::{minimum_weight_with_budget, modular, solve_cancellable, Kernel, KernelGenerator, SparseMatrix};

use crate::lower::press_pattern_into;
use crate::minimum::solves;
use crate::model::{Gluing, Presses, Puzzle, Rule, Shape, Topology};

/// Boards smaller than this get no lifts: their searches usually prove
/// their minimum, and need the whole budget to (a 4×4 projective `flip`
/// board with six states was no longer proven with three quarters).
const MIN_CELLS: usize = 256;

/// Unknowns of the largest space tried (and at most a quarter of the cells).
const MAX_CLASSES: usize = 144;

/// Units a space is charged: per light whose equation is written, per
/// unknown for trying its solutions (all of them, or a descent), per
/// unknown squared for the elimination, and once; and the plan, per cell,
/// for checking what it finds. About two units a nanosecond, measured:
/// what the minimum search gives up for them (its own units are cheaper
/// than a nanosecond on these boards), so that the lifts cost no time.
const UNITS_PER_LIGHT: u64 = 40;
const UNITS_PER_CELL: u64 = 80;
const TRY_UNITS_PER_CLASS: u64 = 2_000;
const ELIMINATION_UNITS: u64 = 24;
const UNITS_PER_SPACE: u64 = 6_000;
/// Per cell and space, comparing lights that are not all alike with the
/// space's classes.
const FIT_UNITS_PER_CELL: u64 = 4;
/// The minimum search of one of the best spaces at the end: its budget per
/// unknown, and its charge, which adds its fixed costs (its reductions
/// take about 0.15 ms, whatever its budget).
const SEARCH_UNITS_PER_CLASS: u64 = 2_000;
const REFINE_UNITS: u64 = 300_000 + 2 * MAX_CLASSES as u64 * SEARCH_UNITS_PER_CLASS;

/// How a pattern repeats along one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Axis {
    period: usize,
    /// Each period reads the same backwards.
    mirrored: bool,
}

impl Axis {
    fn classes(self) -> usize {
        if self.mirrored {
            self.period / 2
        } else {
            self.period
        }
    }

    /// Whether every pattern of `other` is one of `self`'s.
    fn contains(self, other: Axis) -> bool {
        self.period.is_multiple_of(other.period) && (!self.mirrored || other.mirrored || other.period == 1)
    }

    /// Whether cell i and cell len − 1 − i always share a class.
    fn symmetric(self) -> bool {
        self.mirrored || self.period == 1
    }

    fn class(self, i: usize) -> usize {
        let v = i % self.period;
        if self.mirrored {
            v.min(self.period - 1 - v)
        } else {
            v
        }
    }

    /// Every way a side of `len` cells can repeat.
    fn all(len: usize) -> Vec<Axis> {
        (1..=len)
            .filter(|&d| len.is_multiple_of(d))
            .flat_map(|d| {
                // Mirrored within 2 cells is the same as repeating every cell.
                let mirrored = (d >= 4 && d.is_multiple_of(2)).then_some(Axis { period: d, mirrored: true });
                [Some(Axis { period: d, mirrored: false }), mirrored].into_iter().flatten()
            })
            .collect()
    }
}

/// A space of repeating patterns on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Repetition {
    rows: Axis,
    cols: Axis,
    /// Every second copy across a twisted seam is mirrored.
    glide: bool,
}

impl Repetition {
    fn classes(self) -> usize {
        self.rows.classes() * self.cols.classes()
    }

    /// The class of cell `(r, c)` of `p`.
    fn class(self, p: &Puzzle, r: usize, c: usize) -> usize {
        let (mut a, mut b) = (r, c);
        if self.glide {
            if p.topology.rows() == Gluing::Twisted && (r / self.rows.period) % 2 == 1 {
                b = p.cols - 1 - c;
            }
            if p.topology.columns() == Gluing::Twisted && (c / self.cols.period) % 2 == 1 {
                a = p.rows - 1 - r;
            }
        }
        self.rows.class(a) * self.cols.classes() + self.cols.class(b)
    }

    /// Whether every pattern of `other` is one of `self`'s.
    fn contains(self, other: Repetition) -> bool {
        self.glide == other.glide && self.rows.contains(other.rows) && self.cols.contains(other.cols)
    }

    /// Whether the glide changes the classes: a twisted seam crossed by
    /// more than one copy, across a side that does not read the same backwards.
    fn glide_matters(self, p: &Puzzle) -> bool {
        let rows = p.topology.rows() == Gluing::Twisted && p.rows / self.rows.period > 1 && !self.cols.symmetric();
        let cols = p.topology.columns() == Gluing::Twisted && p.cols / self.cols.period > 1 && !self.rows.symmetric();
        rows || cols
    }

    /// After how many rows and columns the classes repeat: the periods,
    /// twice across a glide (which mirrors every second copy).
    fn periods(self, p: &Puzzle) -> (usize, usize) {
        let glide = |twisted: bool| if self.glide && twisted { 2 } else { 1 };
        (
            self.rows.period * glide(p.topology.rows() == Gluing::Twisted),
            self.cols.period * glide(p.topology.columns() == Gluing::Twisted),
        )
    }

    fn charge(self, p: &Puzzle) -> u64 {
        let k = self.classes() as u64;
        let (rows, cols) = self.periods(p);
        let lights = match (reach(p), translations(p)) {
            (None, _) => p.cells(),
            (Some(_), (true, true)) => rows * cols,
            (Some(reach), (false, true)) => (3 * reach + rows).min(p.rows) * cols,
            (Some(reach), _) => (2 * reach * (p.rows + p.cols) + rows * cols).min(p.cells()),
        } as u64;
        lights * UNITS_PER_LIGHT + k * TRY_UNITS_PER_CLASS + k * k * ELIMINATION_UNITS + UNITS_PER_SPACE
    }
}

/// What each light needs, modulo W.
fn need(p: &Puzzle, i: usize) -> u32 {
    (u32::from(p.goal.get(i)) + p.states - u32::from(p.lights.get(i)) % p.states) % p.states
}

/// Whether what the lights need and the locks are equal on every class
/// (always, on a board whose cells are all alike).
fn fits(p: &Puzzle, space: Repetition) -> bool {
    let mut seen: Vec<Option<(u32, bool)>> = vec![None; space.classes()];
    (0..p.cells()).all(|i| {
        let here = (need(p, i), p.is_locked(i));
        let slot = &mut seen[space.class(p, i / p.cols, i % p.cols)];
        *slot.get_or_insert(here) == here
    })
}

/// What the lifts of a board will do, and what it costs.
pub(crate) struct Plan {
    /// Run in order: the rounds the default budget gives come first, so a
    /// longer budget never answers worse.
    stages: Vec<Stage>,
    /// The units all of it is charged.
    pub(crate) work: u64,
    /// The units of `work` taken from the minimum search's budget
    /// ([`shares_search_budget`]: all of it, or none).
    pub(crate) from_search: u64,
}

/// One round of lifts.
struct Stage {
    /// The spaces whose solutions are tried, with their charges.
    spaces: Vec<(Repetition, u64)>,
    /// How many of the best spaces with too many solutions to try get the
    /// full minimum search at the end.
    refinements: usize,
    work: u64,
}

/// The lifts of `p` for a minimum search of `minimum_work` units: a
/// quarter of it, taken from the search, on a board that
/// [`shares_search_budget`]; on a larger one half of it again, not taken
/// from the search, and a round more ([`large_board_round`]).
pub(crate) fn plan(p: &Puzzle, minimum_work: u64) -> Plan {
    let shares = shares_search_budget(p);
    let rounds = |work: u64| {
        let first = work / if shares { SEARCH_SHARE } else { SEARCH_SHARE / 2 };
        [first, if shares { 0 } else { large_board_round(p, first) }]
    };
    let given: u64 = rounds(minimum_work).iter().sum();
    let mut plan = plan_rounds(p, given, &rounds(crate::report::DEFAULT_MINIMUM_WORK));
    plan.from_search = if shares { plan.work } else { 0 };
    plan
}

/// The lifts get this fraction of the minimum search's work (twice as much
/// on boards where it is not taken from the search).
const SEARCH_SHARE: u64 = 4;

/// What the lifts of `p` do with at most `work` units: the rounds of
/// `defaults` units in order (what the default budget does), then one of
/// what is left.
fn plan_rounds(p: &Puzzle, work: u64, defaults: &[u64]) -> Plan {
    let mut plan = Plan { stages: Vec::new(), work: 0, from_search: 0 };
    if p.shape != Shape::Square || p.has_holes() || p.cells() < MIN_CELLS {
        return plan;
    }
    let mut left = work;
    // What the default leaves unused is left: a round of it would not be
    // one a longer budget runs.
    let more = work.saturating_sub(defaults.iter().sum());
    for round in defaults.iter().copied().chain((more > 0).then_some(u64::MAX)) {
        if left == 0 {
            break;
        }
        let stage = stage(p, left.min(round));
        left -= stage.work;
        plan.work += stage.work;
        if stage.work > 0 {
            plan.stages.push(stage);
        }
    }
    plan
}

/// Boards of up to this many cells pay for checking a lift out of the
/// search's work, as small boards do (48×48: 2,304 cells).
const CHECKED_CELLS: usize = 4096;

/// Boards of more cells pay for checking a lift in full: a pass over the
/// board, as the solve itself makes several of (whose re-check goes up to
/// this size too).
const UNCHARGED_UP_TO: usize = 1 << 22;

/// The cells whose check a lift's work is charged: on a board larger than
/// [`CHECKED_CELLS`] (and at most [`UNCHARGED_UP_TO`], with a rule of short
/// reach), the rest is a pass over the board like the solve's own ones, so
/// the lifts are tried as on a small board.
fn checked_cells(p: &Puzzle) -> usize {
    let cells = p.cells();
    if cells <= UNCHARGED_UP_TO && reach(p).is_some() {
        cells.min(CHECKED_CELLS)
    } else {
        cells
    }
}

/// Whether the lifts' work comes out of the minimum search's budget: on
/// boards whose check is charged in full (small ones, 48×48 among them).
/// On larger ones the solve's own passes over the board cost many times the
/// whole budget, and the lifts' few milliseconds are paid like them.
pub(crate) fn shares_search_budget(p: &Puzzle) -> bool {
    checked_cells(p) == p.cells()
}

/// The work of a round of lifts more on a board whose lifts do not share
/// the search's budget, after the round of `first` units they get anyway:
/// [`LARGE_BOARD_UNITS_PER_CELL`] a cell, at most [`LARGE_BOARD_ROUNDS`]
/// times `first`. The solve makes passes over such a board that cost far
/// more (about a microsecond a cell at 400×400), and the first round's few
/// spaces can miss the cheap patterns of a large board: the 700×700 Klein
/// bottle with W = 6 gets 568,400 presses from it, 980,000 without. Cost
/// follows the board: a 100×100 board gets a twentieth of its first round.
pub(crate) fn large_board_round(p: &Puzzle, first: u64) -> u64 {
    (p.cells() as u64).saturating_mul(LARGE_BOARD_UNITS_PER_CELL).min(first.saturating_mul(LARGE_BOARD_ROUNDS))
}

/// See [`large_board_round`]: about 50 ns a cell.
const LARGE_BOARD_UNITS_PER_CELL: u64 = 100;

/// See [`large_board_round`].
const LARGE_BOARD_ROUNDS: u64 = 7;

/// A round of lifts of at most `work` units: after checking what is found
/// and searching the best space once, three quarters of the rest for the
/// spaces; what they leave searches more of the best spaces.
fn stage(p: &Puzzle, work: u64) -> Stage {
    let none = Stage { spaces: Vec::new(), refinements: 0, work: 0 };
    let check = checked_cells(p) as u64 * UNITS_PER_CELL;
    let Some(left) = work.checked_sub(check + REFINE_UNITS) else { return none };
    let spaces = spaces(p, left / 4 * 3);
    if spaces.is_empty() {
        return none;
    }
    let spent: u64 = spaces.iter().map(|s| s.1).sum();
    let refinements = ((left - spent) / REFINE_UNITS + 1).min(MAX_REFINEMENTS as u64) as usize;
    Stage { spaces, refinements, work: check + spent + refinements as u64 * REFINE_UNITS }
}

/// The spaces tried on `p`, fewest unknowns first, with their charges, as
/// many as `left` units pay for.
fn spaces(p: &Puzzle, left: u64) -> Vec<(Repetition, u64)> {
    let most = MAX_CLASSES.min(p.cells() / 4);
    // A square torus and a named rule: a space and its transpose give the same presses.
    let transposes = p.rows == p.cols && p.topology == Topology::Torus && p.rule.is_named();
    let (rows, cols) = (Axis::all(p.rows), Axis::all(p.cols));
    let mut spaces: Vec<Repetition> = rows
        .iter()
        .flat_map(|&r| cols.iter().map(move |&c| (r, c)))
        .filter(|&(r, c)| r.classes() * c.classes() <= most && !(transposes && r > c))
        .flat_map(|(rows, cols)| {
            let plain = Repetition { rows, cols, glide: false };
            let glide = plain.glide_matters(p).then_some(Repetition { glide: true, ..plain });
            [Some(plain), glide].into_iter().flatten()
        })
        .collect();
    // Lights that are not all alike are compared with every space's
    // classes (a pass over the cells at most, each): only when that is
    // a small part of the work.
    if !p.cells_alike() {
        if (spaces.len() * p.cells()) as u64 * FIT_UNITS_PER_CELL > left / 8 {
            return Vec::new();
        }
        spaces.retain(|&space| fits(p, space));
    }
    // The spaces not inside another of at most `most` unknowns: a space
    // inside another has no pattern the other has not. The largest `most`
    // whose spaces the work pays for.
    for most in CAPS.iter().copied().filter(|&m| m <= MAX_CLASSES) {
        let mut widest: Vec<Repetition> = Vec::new();
        let mut by_size: Vec<Repetition> = spaces.iter().copied().filter(|s| s.classes() <= most).collect();
        by_size.sort_by_key(|s| std::cmp::Reverse(s.classes()));
        for space in by_size {
            if !widest.iter().any(|w| w.contains(space)) {
                widest.push(space);
            }
        }
        let planned: Vec<(Repetition, u64)> = widest.into_iter().rev().map(|s| (s, s.charge(p))).collect();
        if planned.iter().map(|s| s.1).sum::<u64>() <= left {
            return planned;
        }
    }
    Vec::new()
}

/// Spaces given the full minimum search, at most.
const MAX_REFINEMENTS: usize = 16;

/// The caps on unknowns tried, largest first.
const CAPS: [usize; 12] = [144, 96, 72, 48, 36, 24, 16, 12, 8, 6, 4, 2];

/// Each light's presses: for light i, `(cell, weight)` at
/// `entries[starts[i]..starts[i + 1]]` (the press matrix by rows).
struct Incoming {
    starts: Vec<usize>,
    entries: Vec<(u32, u32)>,
}

impl Incoming {
    /// The presses of the lights `wanted` marks (the others get none): two
    /// passes over the press patterns, counting then filling, so a board of
    /// millions of cells holds only the few thousand lights whose equations
    /// are written. `None` when `cancel` says stop (polled every
    /// `POLL_CELLS` cells of a pass).
    fn of(p: &Puzzle, wanted: &[bool], cancel: &dyn Fn() -> bool) -> Option<Incoming> {
        let mut pattern = Vec::new();
        if matches!(p.rule, Rule::Cross | Rule::King) {
            // Symmetric rules (a press at a changes b iff one at b changes
            // a, all weights 1, on every surface): a light's presses are its
            // own cell's pattern, and only the wanted lights are visited.
            let mut starts = Vec::with_capacity(p.cells() + 1);
            let mut entries = Vec::new();
            for (light, &w) in wanted.iter().enumerate() {
                if light % POLL_CELLS == 0 && cancel() {
                    return None;
                }
                starts.push(entries.len());
                if w {
                    press_pattern_into(p, light / p.cols, light % p.cols, &mut pattern);
                    entries.extend(pattern.iter().map(|&(j, weight)| (j as u32, weight % p.states)));
                }
            }
            starts.push(entries.len());
            return Some(Incoming { starts, entries });
        }
        // False when cancelled part-way.
        let mut for_each = |f: &mut dyn FnMut(usize, usize, u32)| -> bool {
            for j in 0..p.cells() {
                if j % POLL_CELLS == 0 && cancel() {
                    return false;
                }
                press_pattern_into(p, j / p.cols, j % p.cols, &mut pattern);
                for &(light, weight) in &pattern {
                    if wanted[light] {
                        f(light, j, weight % p.states);
                    }
                }
            }
            true
        };
        let mut starts = vec![0usize; p.cells() + 1];
        if !for_each(&mut |light, _, _| starts[light + 1] += 1) {
            return None;
        }
        for i in 0..p.cells() {
            starts[i + 1] += starts[i];
        }
        let mut fill = starts.clone();
        let mut entries = vec![(0u32, 0u32); starts[p.cells()]];
        // Presses in cell order: each light's entries in the order of the
        // single pass they used to come from.
        let filled = for_each(&mut |light, j, weight| {
            entries[fill[light]] = (j as u32, weight);
            fill[light] += 1;
        });
        filled.then_some(Incoming { starts, entries })
    }

    /// The presses of every light the spaces of `plan` write an equation of.
    fn for_plan(p: &Puzzle, plan: &Plan, cancel: &dyn Fn() -> bool) -> Option<Incoming> {
        let mut wanted = vec![false; p.cells()];
        for stage in &plan.stages {
            for &(space, _) in &stage.spaces {
                for light in representatives(p, space) {
                    wanted[light] = true;
                }
            }
        }
        Incoming::of(p, &wanted, cancel)
    }
}

/// How many cells a pass over the board goes between two polls of the cancel flag.
const POLL_CELLS: usize = 1 << 14;

/// How far a press reaches from its cell (`None`: along whole lines, `flip`).
fn reach(p: &Puzzle) -> Option<usize> {
    match &p.rule {
        Rule::Cross | Rule::King | Rule::Merlin | Rule::Ring => Some(1),
        Rule::Stencil(s) => Some(s.rows.max(s.cols) / 2),
        Rule::Flip => None,
    }
}

/// Lights whose equations are every light's: those within a press's reach
/// of a border, and one period of the rest. Away from the borders a
/// light sees its neighbours at plain offsets, and the classes repeat
/// every period (twice the period across a glide), so a light there has
/// the equation of the light a whole number of periods from it in the
/// first period.
///
/// Along a direction the board wraps straight (both directions of the
/// torus, the columns of the cylinder: [`translations`]) there is no
/// border: moving a light a whole period along it moves its equation's
/// classes nowhere, so the first period is enough.
fn representatives(p: &Puzzle, space: Repetition) -> Vec<usize> {
    let Some(reach) = reach(p) else { return (0..p.cells()).collect() };
    let (rows_period, cols_period) = space.periods(p);
    let (down, across) = translations(p);
    let mut lights = Vec::new();
    for r in 0..p.rows {
        if across {
            let needed = if down { r < rows_period } else { r < reach + rows_period || r + reach >= p.rows };
            if needed {
                lights.extend(r * p.cols..r * p.cols + cols_period.min(p.cols));
            }
            continue;
        }
        if r < reach || r + reach >= p.rows {
            lights.extend(r * p.cols..(r + 1) * p.cols);
            continue;
        }
        let inner = if r < reach + rows_period { (reach + cols_period).min(p.cols - reach) } else { reach };
        lights.extend((0..inner.max(reach)).chain((p.cols - reach).max(inner)..p.cols).map(|c| r * p.cols + c));
    }
    lights
}

/// Whether moving the board down (and across) one row (one column) is one
/// of its symmetries: the direction is glued straight and the other one
/// not twisted (the torus both ways, the cylinder across).
fn translations(p: &Puzzle) -> (bool, bool) {
    let (rows, columns) = (p.topology.rows(), p.topology.columns());
    (rows == Gluing::Glued && columns != Gluing::Twisted, columns == Gluing::Glued && rows != Gluing::Twisted)
}

/// A light's equation over the classes: `(class, weight)` sorted by class,
/// and what the light needs.
type Equation = (Vec<(u32, u32)>, u32);

/// The solutions of `p` in `space`, one value per class: a particular
/// one and the kernel, if there is any.
fn solve_in(
    p: &Puzzle,
    incoming: &Incoming,
    space: Repetition,
    cancel: &dyn Fn() -> bool,
) -> Option<(Vec<u32>, Kernel)> {
    let (w, k) = (p.states, space.classes());
    let class = |i: usize| space.class(p, i / p.cols, i % p.cols) as u32;
    // Each light's equation over the classes; the distinct ones of each
    // class of lights (few: the lights of a class mostly see alike).
    let mut distinct: Vec<Vec<Equation>> = vec![Vec::new(); k];
    let mut row: Vec<(u32, u32)> = Vec::new();
    for light in representatives(p, space) {
        row.clear();
        for &(cell, weight) in &incoming.entries[incoming.starts[light]..incoming.starts[light + 1]] {
            let c = class(cell as usize);
            match row.iter_mut().find(|e| e.0 == c) {
                Some(e) => e.1 = (e.1 + weight) % w,
                None => row.push((c, weight)),
            }
        }
        row.retain(|e| e.1 != 0);
        row.sort_unstable();
        let (seen, rhs) = (&mut distinct[class(light) as usize], need(p, light));
        if !seen.iter().any(|(r, n)| *n == rhs && *r == row) {
            seen.push((row.clone(), rhs));
        }
    }
    let mut equations: Vec<Equation> = distinct.into_iter().flatten().collect();
    // A class with a locked cell is not pressed.
    if p.locked.uniform_value() != Some(0) {
        equations.extend((0..p.cells()).filter(|&i| p.is_locked(i)).map(|i| (vec![(class(i), 1)], 0)));
    }
    let mut a = SparseMatrix::new(equations.len(), k);
    let mut b = Vec::with_capacity(equations.len());
    for (row, (entries, rhs)) in equations.iter().enumerate() {
        for &(c, v) in entries {
            a.push_entry(c as usize, row, v);
        }
        b.push(*rhs);
    }
    let solution = solve_cancellable(&a, &b, w, cancel).ok()?;
    Some((solution.particular?, solution.kernel))
}

/// Passes of [`descend`] over the generators, at most.
const PASSES: usize = 4;

/// A cheap member of a large solution set: from `x`, each generator's
/// multiple that lowers the presses most is added, pass after pass while
/// one helps. A generator of small order has all its multiples tried; one
/// of large order (W = 65521) only [`multiples`], so a pass costs the same
/// for every W.
fn descend(mut x: Vec<u32>, kernel: &Kernel, w: u32) -> Vec<u32> {
    let w64 = u64::from(w);
    // `x + c·g`, entry by entry.
    let step = |xi: u32, gi: u32, c: u32| ((u64::from(xi) + u64::from(c) * u64::from(gi)) % w64) as u32;
    let mut best = x.iter().map(|&v| u64::from(v)).sum::<u64>();
    let mut tried = Vec::new();
    for _ in 0..PASSES {
        let mut improved = false;
        for g in &kernel.generators {
            multiples(&x, g, w, &mut tried);
            // The cheapest multiple (the first among equals), costed
            // without spelling each one out; only it is applied.
            let mut pick = None;
            for &c in &tried {
                let here: u64 = x.iter().zip(&g.vector).map(|(&xi, &gi)| u64::from(step(xi, gi, c))).sum();
                if here < best {
                    (best, pick) = (here, Some(c));
                }
            }
            if let Some(c) = pick {
                for (xi, &gi) in x.iter_mut().zip(&g.vector) {
                    *xi = step(*xi, gi, c);
                }
                improved = true;
            }
        }
        if !improved {
            break;
        }
    }
    x
}

/// Generators of up to this order have every multiple tried by [`descend`].
const ALL_MULTIPLES: u32 = 64;

/// The multiples `c` of generator `g` [`descend`] tries from `x`, into
/// `out`: all of them (1 to its order − 1) for a small order; for a large
/// one the few nearest 0 either way, and each that takes some class of `x`
/// to no press (`x_i + c·g_i ≡ 0`): at most 64 and the classes, whatever W.
fn multiples(x: &[u32], g: &KernelGenerator, w: u32, out: &mut Vec<u32>) {
    out.clear();
    if g.order <= ALL_MULTIPLES {
        out.extend(1..g.order);
        return;
    }
    let near = ALL_MULTIPLES / 2;
    out.extend((1..=near).chain(g.order - near..g.order));
    for (&xi, &gi) in x.iter().zip(&g.vector) {
        if let Some(c) = zeroing_multiple(xi, gi, w) {
            out.push(c % g.order);
        }
    }
    out.sort_unstable();
    out.dedup();
    out.retain(|&c| c != 0);
}

/// The least `c ≥ 0` with `x + c·g ≡ 0` modulo `w`, if there is one.
fn zeroing_multiple(x: u32, g: u32, w: u32) -> Option<u32> {
    let need = (w - x % w) % w;
    let d = modular::gcd(g % w, w);
    if d == 0 || !need.is_multiple_of(d) {
        return None;
    }
    let m = w / d;
    let inv = modular::mod_inv(g / d % m, m)?;
    Some(((u64::from(need / d) * u64::from(inv)) % u64::from(m)) as u32)
}

/// Members of a small solution set tried one by one, at most.
const ENUMERATED: u64 = 1 << 12;

/// The cheapest of every solution `particular + Σ c_i·g_i`, when there are
/// at most [`ENUMERATED`] (visited in odometer order, each step adding one
/// generator).
fn enumerate(particular: &[u32], kernel: &Kernel, w: u32) -> Option<Vec<u32>> {
    let size = kernel.generators.iter().try_fold(1u64, |n, g| n.checked_mul(u64::from(g.order)))?;
    if size > ENUMERATED {
        return None;
    }
    let cost = |x: &[u32]| x.iter().map(|&v| u64::from(v)).sum::<u64>();
    let mut x = particular.to_vec();
    let mut best = (cost(&x), x.clone());
    let mut digits = vec![0u32; kernel.generators.len()];
    'members: loop {
        // The next member: the lowest digit that is not at its order goes up.
        for (d, g) in digits.iter_mut().zip(&kernel.generators) {
            for (xi, gi) in x.iter_mut().zip(&g.vector) {
                *xi = (*xi + gi) % w;
            }
            *d += 1;
            if *d < g.order {
                let c = cost(&x);
                if c < best.0 {
                    best = (c, x.clone());
                }
                continue 'members;
            }
            // A full turn of this generator is the identity: carry.
            *d = 0;
        }
        return Some(best.1);
    }
}

/// The cheapest solution of `p` that repeats a small pattern, if one is
/// cheaper than `cost`, searching the spaces of `planned`. Every one is
/// applied to `p` before it is returned.
pub(crate) fn cheaper_lift(p: &Puzzle, cost: u64, plan: &Plan, cancel: &dyn Fn() -> bool) -> Option<Presses> {
    let incoming = Incoming::for_plan(p, plan, cancel)?;
    let mut best: Option<Best> = None;
    for stage in &plan.stages {
        run(p, &incoming, cost, stage, &mut best, cancel);
    }
    // Spelled out on the board once, for the cheapest: on a board of
    // millions of cells each spelling is a pass. Every solution of a
    // space's system solves the board (module docs); the check is the
    // safety net, and a lift that failed it would be no answer.
    let (_, space, small) = best?;
    let mut values = Vec::with_capacity(p.cells());
    for i in 0..p.cells() {
        if i % POLL_CELLS == 0 && cancel() {
            return None;
        }
        values.push(small[space.class(p, i / p.cols, i % p.cols)]);
    }
    (!cancel() && solves(p, &values)).then(|| Presses::from_values(&values, p.states))
}

/// The cheapest lift so far: its presses, its space and its classes' values.
type Best = (u64, Repetition, Vec<u32>);

/// One round of lifts: `best` becomes the cheapest solution found, if it
/// is cheaper than `cost` and than `best`.
fn run(p: &Puzzle, incoming: &Incoming, cost: u64, stage: &Stage, best: &mut Option<Best>, cancel: &dyn Fn() -> bool) {
    let w = p.states;
    let consider = |space: Repetition, small: &[u32], best: &mut Option<Best>| {
        // Every class holds the same number of cells.
        let presses = small.iter().map(|&v| u64::from(v)).sum::<u64>() * (p.cells() / space.classes()) as u64;
        if presses < best.as_ref().map_or(cost, |b| b.0) {
            *best = Some((presses, space, small.to_vec()));
        }
        presses
    };
    // The spaces whose solutions were too many to try them all: the best
    // (after a descent) get the full minimum search at the end.
    let mut large = Vec::new();
    for &(space, _) in &stage.spaces {
        let Some((particular, kernel)) = solve_in(p, incoming, space, cancel) else { continue };
        match enumerate(&particular, &kernel, w) {
            Some(small) => {
                consider(space, &small, best);
            }
            None => {
                let presses = consider(space, &descend(particular.clone(), &kernel, w), best);
                large.push((presses, space, particular, kernel));
            }
        }
    }
    // The fewest presses first; among equals, the most unknowns (the most room).
    large.sort_by_key(|l| (l.0, std::cmp::Reverse(l.1.classes())));
    for (_, space, particular, kernel) in large.into_iter().take(stage.refinements) {
        let units = space.classes() as u64 * SEARCH_UNITS_PER_CLASS;
        if let Ok(least) = minimum_weight_with_budget(&particular, &kernel, w, units, cancel) {
            consider(space, &least.x, best);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::model::Stencil;
    use proptest::prelude::*;

    fn board(rows: usize, cols: usize, w: u32, rule: Rule, topology: Topology) -> Puzzle {
        let mut p = Puzzle::new(rows, cols, w, rule, topology);
        p.lights = Board::uniform(rows * cols, (w - 1) as u16);
        p
    }

    fn values(p: &Puzzle, space: Repetition, small: &[u32]) -> Vec<u32> {
        (0..p.cells()).map(|i| small[space.class(p, i / p.cols, i % p.cols)]).collect()
    }

    proptest! {
        /// The restricted system is exactly the board's solutions in the
        /// space: its particular solution solves the board, and it has as
        /// many solutions as there are values of the classes (all tried)
        /// that solve it — on every surface, for named rules and stencils,
        /// with lights that repeat the space.
        #[test]
        fn the_restricted_system_holds_every_repeating_solution_and_no_other(
            rows in 1usize..=6, cols in 1usize..=6, w in 2u32..=3, pick in any::<prop::sample::Index>(),
            topology in prop::sample::select(vec![
                Topology::Plane, Topology::Cylinder, Topology::Torus, Topology::Mobius, Topology::Klein, Topology::Projective,
            ]),
            rule in 0usize..5, seed in any::<u64>(),
        ) {
            let mut rng = lights_algebra::SplitMix64(seed);
            let rule = match rule {
                0 => Rule::Cross,
                1 => Rule::King,
                2 => Rule::Ring,
                3 => Rule::Flip,
                _ => Rule::Stencil(Stencil { rows: 3, cols: 3, weights: (0..9).map(|_| rng.below(u64::from(w)) as u32).collect() }),
            };
            let mut p = Puzzle::new(rows * 2, cols * 2, w, rule, topology);
            let all: Vec<Repetition> = Axis::all(p.rows)
                .into_iter()
                .flat_map(|r| Axis::all(p.cols).into_iter().map(move |c| (r, c)))
                .flat_map(|(rows, cols)| [false, true].map(|glide| Repetition { rows, cols, glide }))
                .filter(|s| s.classes() <= 4)
                .collect();
            let space = all[pick.index(all.len())];
            // Lights that repeat the space: any values of its classes.
            let lights: Vec<u32> = (0..space.classes()).map(|_| rng.below(u64::from(w)) as u32).collect();
            p.lights = Board::dense(values(&p, space, &lights).iter().map(|&v| v as u16).collect());
            prop_assert!(fits(&p, space));
            let found = solve_in(&p, &Incoming::of(&p, &vec![true; p.cells()], &|| false).expect("not cancelled"), space, &|| false);
            let k = space.classes() as u32;
            let solving = (0..w.pow(k))
                .filter(|&n| {
                    let small: Vec<u32> = (0..k).map(|j| n / w.pow(j) % w).collect();
                    solves(&p, &values(&p, space, &small))
                })
                .count();
            match found {
                None => prop_assert_eq!(solving, 0),
                Some((particular, kernel)) => {
                    prop_assert!(solves(&p, &values(&p, space, &particular)));
                    prop_assert_eq!(kernel.size(), num_bigint::BigUint::from(solving));
                    let cheapest = enumerate(&particular, &kernel, w).expect("few");
                    prop_assert!(solves(&p, &values(&p, space, &cheapest)));
                    let descended = descend(particular, &kernel, w);
                    prop_assert!(solves(&p, &values(&p, space, &descended)));
                }
            }
        }
    }

    #[test]
    fn an_axis_holds_the_patterns_of_the_axes_it_contains() {
        for len in [4usize, 6, 12, 48] {
            for a in Axis::all(len) {
                for b in Axis::all(len) {
                    // b's patterns are a's when cells a groups are grouped by b too.
                    let inside =
                        (0..len).all(|i| (0..len).all(|j| a.class(i) != a.class(j) || b.class(i) == b.class(j)));
                    assert_eq!(a.contains(b), inside, "{a:?} contains {b:?}");
                }
            }
        }
    }

    #[test]
    fn the_spaces_of_a_board_contain_none_of_each_other() {
        for topology in [Topology::Torus, Topology::Klein, Topology::Projective, Topology::Cylinder] {
            let p = board(48, 48, 6, Rule::Cross, topology);
            let planned = spaces(&p, u64::MAX);
            assert!(!planned.is_empty(), "{topology:?}");
            for (a, _) in &planned {
                assert!(a.classes() <= MAX_CLASSES);
                for (b, _) in &planned {
                    assert!(a == b || !a.contains(*b), "{topology:?}: {a:?} holds {b:?}");
                }
            }
        }
        // No lifts on a board with holes.
        let whole = board(24, 24, 6, Rule::Cross, Topology::Torus);
        assert!(plan_rounds(&whole, u64::MAX, &[]).work > 0);
        let mut holes = whole.clone();
        holes.holes.set(0, 1);
        assert_eq!(plan_rounds(&holes, u64::MAX, &[]).work, 0);
        // Nor on a small board: its search needs the whole budget.
        assert_eq!(plan_rounds(&board(12, 12, 6, Rule::Cross, Topology::Torus), u64::MAX, &[]).work, 0);
        // Lights that do not repeat: no space but the whole board's own.
        let mut odd = board(12, 12, 2, Rule::Cross, Topology::Torus);
        odd.lights.set(0, 0);
        assert!(spaces(&odd, u64::MAX).is_empty());
    }

    #[test]
    fn the_presses_of_the_wanted_lights_are_those_of_the_whole_board() {
        // Gathered for some lights only (the cross and King by their own
        // pattern, other rules by one scan), they are the whole board's.
        let stencil = Rule::Stencil(Stencil { rows: 3, cols: 3, weights: vec![1, 2, 0, 1, 1, 0, 2, 0, 1] });
        for rule in [Rule::Cross, Rule::King, Rule::Merlin, stencil] {
            for topology in [Topology::Plane, Topology::Torus, Topology::Klein, Topology::Projective] {
                let p = board(7, 9, 3, rule.clone(), topology);
                let mut scanned: Vec<Vec<(u32, u32)>> = vec![Vec::new(); p.cells()];
                let mut pattern = Vec::new();
                for j in 0..p.cells() {
                    press_pattern_into(&p, j / p.cols, j % p.cols, &mut pattern);
                    for &(light, weight) in &pattern {
                        scanned[light].push((j as u32, weight % p.states));
                    }
                }
                let wanted: Vec<bool> = (0..p.cells()).map(|i| i % 3 != 1).collect();
                let some = Incoming::of(&p, &wanted, &|| false).expect("not cancelled");
                assert!(
                    Incoming::of(&p, &wanted, &|| true).is_none(),
                    "{rule:?} {topology:?}: a cancel stops the scan"
                );
                for (light, want) in wanted.iter().enumerate() {
                    let mut got = some.entries[some.starts[light]..some.starts[light + 1]].to_vec();
                    let mut expected = if *want { scanned[light].clone() } else { Vec::new() };
                    got.sort_unstable();
                    expected.sort_unstable();
                    assert_eq!(got, expected, "{rule:?} {topology:?} light {light}");
                }
            }
        }
    }

    proptest! {
        /// The multiple that takes a class to no press is the least one,
        /// and there is one exactly when some multiple does it.
        #[test]
        fn the_zeroing_multiple_is_the_least_that_zeroes(w in 2u32..=40, x in 0u32..40, g in 0u32..40) {
            let (x, g) = (x % w, g % w);
            let least = (0..w).find(|&c| (x + c * g) % w == 0);
            prop_assert_eq!(zeroing_multiple(x, g, w), least);
        }

        /// A descent never adds presses, for every W; it tries every
        /// multiple of a generator of order up to 64, and beyond that the
        /// few nearest 0 and each that takes a class to no press (at most
        /// 64 + the classes, whatever W).
        #[test]
        fn a_descent_never_costs_more_and_tries_a_bounded_set_of_multiples(
            w in prop::sample::select(vec![2u32, 6, 12, 64, 65, 1000, 65521]), seed in any::<u64>(), k in 1usize..6, n in 1usize..12,
        ) {
            let mut rng = lights_algebra::SplitMix64(seed);
            let generators: Vec<KernelGenerator> = (0..k)
                .map(|_| {
                    let vector: Vec<u32> = (0..n).map(|_| rng.below(u64::from(w)) as u32).collect();
                    let order = w / vector.iter().fold(w, |d, &v| modular::gcd(d, v));
                    KernelGenerator { vector, order }
                })
                .collect();
            let kernel = Kernel { generators };
            let x: Vec<u32> = (0..n).map(|_| rng.below(u64::from(w)) as u32).collect();
            let y = descend(x.clone(), &kernel, w);
            let cost = |v: &[u32]| v.iter().map(|&a| u64::from(a)).sum::<u64>();
            prop_assert!(cost(&y) <= cost(&x) && y.iter().all(|&v| v < w));
            let mut tried = Vec::new();
            for g in &kernel.generators {
                multiples(&x, g, w, &mut tried);
                prop_assert!(tried.iter().all(|&c| c > 0 && c < g.order), "{:?}", tried);
                if g.order <= ALL_MULTIPLES {
                    prop_assert_eq!(tried.len() as u32, g.order - 1);
                } else {
                    prop_assert!(tried.len() <= ALL_MULTIPLES as usize + n);
                    // Every class a multiple can take to no press, one does.
                    for (&xi, &gi) in x.iter().zip(&g.vector) {
                        if let Some(c) = zeroing_multiple(xi, gi, w) {
                            prop_assert!(c % g.order == 0 || tried.contains(&(c % g.order)));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn large_boards_get_a_round_more_that_grows_with_the_board() {
        let default = crate::report::DEFAULT_MINIMUM_WORK;
        let small = board(48, 48, 6, Rule::Cross, Topology::Klein);
        let mid = board(100, 100, 6, Rule::Cross, Topology::Klein);
        let large = board(700, 700, 6, Rule::Cross, Topology::Klein);
        // A board that shares the search's budget gives it a quarter, one round.
        let plan_small = plan(&small, default);
        assert_eq!(plan_small.from_search, plan_small.work);
        assert!(plan_small.work <= default / SEARCH_SHARE && plan_small.stages.len() == 1);
        // Larger boards take nothing from the search, and a second round
        // that grows with the board up to seven times the first.
        let first = default / (SEARCH_SHARE / 2);
        assert_eq!(large_board_round(&mid, first), 10_000 * LARGE_BOARD_UNITS_PER_CELL);
        assert_eq!(large_board_round(&large, first), first * LARGE_BOARD_ROUNDS);
        assert_eq!(large_board_round(&large, 0), 0, "no budget, no round");
        let plan_large = plan(&large, default);
        assert_eq!(plan_large.from_search, 0);
        assert_eq!(plan_large.stages.len(), 2);
        assert!(plan_large.work <= first * (1 + LARGE_BOARD_ROUNDS));
        assert_eq!(plan(&large, 0).work, 0);
        // A longer budget runs the default's rounds first, unchanged.
        let longer = plan(&large, default * 10);
        assert!(longer.stages.len() == 3 && longer.work > plan_large.work);
        for (a, b) in plan_large.stages.iter().zip(&longer.stages) {
            assert_eq!(a.work, b.work);
            assert_eq!(a.spaces, b.spaces);
        }
    }

    #[test]
    fn large_boards_get_lifts_without_paying_for_their_size() {
        // 200×200 cells: checking a lift is charged as on 64×64, and the
        // lifts take nothing from the search (they took everything before:
        // 3.2 million units to check, more than their whole share).
        let p = board(200, 200, 7, Rule::Cross, Topology::Torus);
        assert!(!shares_search_budget(&p));
        assert!(shares_search_budget(&board(48, 48, 7, Rule::Cross, Topology::Torus)));
        assert!(shares_search_budget(&board(200, 200, 7, Rule::Flip, Topology::Torus)), "flip reaches a whole line");
        let work = crate::report::DEFAULT_MINIMUM_WORK / 2;
        let plan = plan_rounds(&p, work, &[work]);
        assert!(plan.work > 0 && plan.work <= work);
        // On the torus a space writes one period of lights, however large
        // the board.
        let space = Repetition {
            rows: Axis { period: 5, mirrored: false },
            cols: Axis { period: 5, mirrored: false },
            glide: false,
        };
        assert_eq!(representatives(&p, space).len(), 25);
        // The cross covers each light once with the presses of one class of
        // the period 5 (a perfect code): 40,000 / 5 presses.
        let polls = std::cell::Cell::new(0u64);
        let counted = || {
            polls.set(polls.get() + 1);
            false
        };
        let lift = cheaper_lift(&p, u64::MAX, &plan, &counted).expect("a repeating solution");
        assert!(solves(&p, &lift.to_vec()));
        assert_eq!(lift.sum(), 8000);
        // A cancel at the last poll (spelling the lift out, a pass over the
        // board) gives no lift; so does one at the first (the scan).
        let all = polls.get();
        for last in [1, all] {
            polls.set(0);
            let cancel_at = || {
                polls.set(polls.get() + 1);
                polls.get() >= last
            };
            assert!(cheaper_lift(&p, u64::MAX, &plan, &cancel_at).is_none(), "cancelled at poll {last} of {all}");
        }
    }

    #[test]
    fn the_projective_plane_with_twelve_states_repeats_a_mirrored_pattern() {
        // 48×48, W = 12, all lights on: 6912 presses (the search alone: 10,872).
        let p = board(48, 48, 12, Rule::Cross, Topology::Projective);
        let work = crate::report::DEFAULT_MINIMUM_WORK / 4;
        let plan = plan_rounds(&p, work, &[work]);
        assert!(plan.work <= work);
        let lift = cheaper_lift(&p, u64::MAX, &plan, &|| false).expect("a repeating solution");
        assert!(solves(&p, &lift.to_vec()));
        assert!(lift.sum() <= 6912, "{} presses", lift.sum());
        // Asked to beat that, it finds nothing.
        assert!(cheaper_lift(&p, lift.sum(), &plan, &|| false).is_none());
    }
}
