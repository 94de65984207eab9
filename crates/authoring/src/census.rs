//! Census: among all positions of a board with exactly K lights on, how many
//! can be turned off?
//!
//! A position puts W−1 ("on") on a set S of K cells and 0 elsewhere; it is
//! solvable when A·x ≡ −b has a solution, b = (W−1)·1_S.
//!
//! **All buttons free.** Classify positions by their invariants instead of
//! solving each one. Let L = {y : yᵀA ≡ 0} (the left kernel, a direct sum
//! ⊕ ⟨yᵢ⟩ of cyclic groups of orders oᵢ). Over Z/W (a Frobenius ring, so
//! also for composite W) the image of A is exactly {b : y·b ≡ 0 for all
//! y ∈ L}. Every entry of yᵢ is a multiple of W/oᵢ, so cell c has a
//! *syndrome* σ_c ∈ ⊕ Z/oᵢ (its entries divided by W/oᵢ), and S is
//! solvable iff Σ_{c∈S} σ_c = 0. Two exact counters follow:
//!
//! * [`Method::Syndromes`] (any W): a dynamic programme over the cells,
//!   counting subsets by size and syndrome sum, u128 when the counts fit and
//!   `BigUint` otherwise. Work: cells × (K+1) × |⊕ Z/oᵢ|.
//! * [`Method::MacWilliams`] (W = 2): the solvable positions form a linear
//!   code (the image of A) whose dual is L. The MacWilliams identity gives
//!   count_K = 2^−t · Σ_{y∈L} P_K(|y|), with P_K(j) the coefficient of z^K
//!   in (1−z)^j (1+z)^(n−j) (a Krawtchouk polynomial). The weights |y| of
//!   all 2^t members of L come from one Walsh–Hadamard transform of the
//!   cells' t-bit signatures. Work: t·2^t + (distinct weights) × min(K, n−K)
//!   big-integer steps, so it handles boards far too big for the other
//!   methods.
//!
//! **Dark cells locked** (`lock_dark`, as in Gary Watson's Flip): only lit
//! cells may be pressed, so the matrix depends on the position and each of
//! the C(cells, K) positions is decided on its own ([`Method::Enumeration`]).
//! For W = 2 the positions are enumerated depth-first with an incremental
//! bit-packed GF(2) basis (adding a lit cell adds one column and one bit of
//! the target), in parallel over the first two lit cells; other W (and
//! boards of more than [`LOCK_DARK_MAX_CELLS`] cells) solve each position
//! with `lights-algebra`.
//!
//! **Units of work.** [`census_with`] is [`plan`] (the method, the
//! invariants and the list of [`Unit`]s: a (K, first lit cell) with locked
//! dark cells, a weight of the invariants for MacWilliams, the one whole
//! pass of the syndrome programme), [`count`] (partial counts per K of any
//! set of units) and [`finish`] (sum, divide, rows). A sharded census
//! ([`crate::shard`]) counts some units per shard and finishes once all
//! are in, through the same code.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::{AddAssign, RangeInclusive};
use std::sync::atomic::{AtomicU64, Ordering};

use lights_algebra::{solve, SparseMatrix};
use lights_compiler::lower::{lower, press_pattern};
use lights_compiler::model::Board;
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};
use rayon::prelude::*;

use crate::table::{Family, Fraction, GroupShape};

/// The most positions `lock_dark` enumerates on the bit-packed GF(2) path.
pub const LOCK_DARK_LIMIT_GF2: u64 = 100_000_000;
/// The most positions `lock_dark` enumerates on the general path (each one
/// is a full modular solve).
pub const LOCK_DARK_LIMIT_OTHER: u64 = 2_000_000;
/// `lock_dark` with two states packs a column in 32 words: boards up to this
/// many cells take the bit-packed path (larger ones the general one).
pub const LOCK_DARK_MAX_CELLS: usize = 64 * 32;
/// The most syndrome classes the Walsh–Hadamard transform handles (2^24).
pub const MAX_MACWILLIAMS_INVARIANTS: usize = 24;
/// The most table entries (classes × (K+1)) the syndrome programme keeps.
pub const MAX_SYNDROME_STATES: u128 = 1 << 23;
/// The most additions the syndrome programme does (about a minute).
pub const MAX_SYNDROME_WORK: u128 = 20_000_000_000;

/// How the solvable positions are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// MacWilliams for W = 2, syndromes otherwise; enumeration with `lock_dark`.
    Auto,
    /// The syndrome dynamic programme (any W, not with `lock_dark`).
    Syndromes,
    /// The MacWilliams identity (W = 2, not with `lock_dark`).
    MacWilliams,
    /// Decide every position on its own (only with `lock_dark`).
    Enumeration,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Syndromes => "syndromes",
            Method::MacWilliams => "macwilliams",
            Method::Enumeration => "enumeration",
        }
    }
}

/// What to count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    pub rows: usize,
    pub cols: usize,
    /// The numbers of lights on, inclusive.
    pub on: RangeInclusive<usize>,
    /// Only lit cells may be pressed.
    pub lock_dark: bool,
}

/// The count for one number of lights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CensusRow {
    /// K, the number of lights on.
    pub on: usize,
    /// C(cells, K).
    pub positions: BigUint,
    pub solvable: BigUint,
}

impl CensusRow {
    /// solvable / positions, reduced.
    pub fn fraction(&self) -> Fraction {
        Fraction::new(self.solvable.clone(), self.positions.clone())
    }
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Census {
    pub rows: Vec<CensusRow>,
    /// The method that counted.
    pub method: Method,
    /// Without `lock_dark`: the group of invariants (the cokernel of A);
    /// positions fall into |classes| classes and one class is solvable.
    pub classes: Option<GroupShape>,
}

impl Census {
    /// Positions and solvable positions over every K, and their fraction.
    pub fn totals(&self) -> (BigUint, BigUint, Fraction) {
        let positions: BigUint = self.rows.iter().map(|r| &r.positions).sum();
        let solvable: BigUint = self.rows.iter().map(|r| &r.solvable).sum();
        let fraction = Fraction::new(solvable.clone(), positions.clone());
        (positions, solvable, fraction)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CensusError {
    /// The range of K is empty or goes past the number of cells.
    BadOn {
        start: usize,
        end: usize,
        cells: usize,
    },
    ZeroSize,
    BoardTooLarge {
        rows: usize,
        cols: usize,
        limit: usize,
        /// The family is played on a graph (1 × nodes).
        graph: bool,
    },
    /// A query whose size is not the family's graph (1 × nodes).
    NotTheGraph {
        rows: usize,
        cols: usize,
        nodes: usize,
    },
    /// The method does not apply to this query.
    MethodNotApplicable {
        method: Method,
        why: &'static str,
    },
    /// Too many invariant classes for the counting method.
    TooManyClasses {
        invariants: usize,
        classes: String,
        why: String,
    },
    /// `lock_dark` would enumerate more positions than allowed (`positions`
    /// is the exact total, or a lower bound when not `exact`: counting stops
    /// once past the limit).
    TooManyPositions {
        positions: BigUint,
        exact: bool,
        limit: u64,
    },
    /// The board does not exist in the family (a hex torus with an odd
    /// number of rows).
    NoSuchBoard {
        rows: usize,
        cols: usize,
    },
    /// A self-check failed: a bug.
    Internal(String),
}

impl fmt::Display for CensusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CensusError::BadOn { start, end, cells } if start > end => {
                write!(f, "the range of lights on, {start}..{end}, is empty (ranges are inclusive and go upwards)")
            }
            CensusError::BadOn { end, cells, .. } => {
                write!(f, "cannot have {end} lights on: there are only {cells} lights")
            }
            CensusError::ZeroSize => write!(f, "a board has at least 1 row and 1 column"),
            CensusError::BoardTooLarge { rows: 1, cols, limit, graph: true } => {
                write!(f, "the graph has {cols} nodes; at most {limit} are supported for this number of states")
            }
            CensusError::BoardTooLarge { rows, cols, limit, .. } => write!(
                f,
                "{rows}×{cols} has {} cells; at most {limit} are supported for this number of states",
                rows * cols
            ),
            CensusError::NotTheGraph { rows, cols, nodes } => {
                write!(f, "a query on a graph of {nodes} nodes must be 1×{nodes}, not {rows}×{cols}")
            }
            CensusError::MethodNotApplicable { method, why } => {
                write!(f, "method `{}` does not apply: {why}", method.name())
            }
            CensusError::TooManyClasses { invariants, classes, why } => {
                write!(f, "this board has {invariants} independent invariants ({classes} classes of positions): {why}")
            }
            CensusError::TooManyPositions { positions, exact, limit } => write!(
                f,
                "with locked dark cells every position is solved on its own, and there are {}{positions} of them \
                 (at most {limit} are allowed); choose a smaller board or fewer/more lights on",
                if *exact { "" } else { "over " }
            ),
            CensusError::NoSuchBoard { rows, cols } => write!(
                f,
                "a {rows}×{cols} hex torus does not exist: glued top to bottom, the shifted rows must alternate \
                 all the way round, so a hex torus needs an even number of rows"
            ),
            CensusError::Internal(m) => write!(f, "internal error (a bug): {m}"),
        }
    }
}

impl std::error::Error for CensusError {}

/// C(n, k) exactly.
pub fn binomial(n: usize, k: usize) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    let k = k.min(n - k);
    let mut acc = BigUint::one();
    for i in 0..k {
        acc = acc * (n - i) / (i + 1);
    }
    acc
}

/// C(n, k) for every k of `range` (k ≤ n), stepping C(n, k+1) = C(n, k)·(n−k)/(k+1).
pub fn binomials(n: usize, range: RangeInclusive<usize>) -> Vec<BigUint> {
    let (start, end) = (*range.start(), *range.end());
    let mut out = Vec::with_capacity(end.saturating_sub(start) + 1);
    let mut current = binomial(n, start);
    for k in start..=end {
        if k > start {
            current = if k > n { BigUint::zero() } else { current * (n - k + 1) / k };
        }
        out.push(current.clone());
    }
    out
}

/// The number of positions a query covers, Σ_K C(cells, K), or once it
/// passes `cap`, the sum so far and whether that is the whole sum.
fn positions_up_to(query: &Query, cap: u64) -> Result<u64, (BigUint, bool)> {
    let n = query.rows * query.cols;
    let (start, end) = (*query.on.start(), *query.on.end());
    let mut current = binomial(n, start);
    let mut total = BigUint::zero();
    for k in start..=end {
        if k > start {
            current = current * (n - k + 1) / k;
        }
        total += &current;
        if total > BigUint::from(cap) {
            return Err((total, k == end));
        }
    }
    Ok(u64::try_from(total).unwrap_or(u64::MAX))
}

/// The most positions `lock_dark` may enumerate with W states on a board of
/// `cells` cells.
pub fn lock_dark_limit(states: u32, cells: usize) -> u64 {
    if bit_packed(states, cells) {
        LOCK_DARK_LIMIT_GF2
    } else {
        LOCK_DARK_LIMIT_OTHER
    }
}

/// Check a query before any work (sizes, range of K, enumeration limits).
pub fn validate(family: &Family, query: &Query) -> Result<(), CensusError> {
    if query.rows == 0 || query.cols == 0 {
        return Err(CensusError::ZeroSize);
    }
    // Boards are built from the family, square, hex or a graph
    // (`Family::board`), and counted through `lower`/`press_pattern`, which
    // know them all.
    if let Some(g) = &family.graph {
        if (query.rows, query.cols) != (1, g.nodes()) {
            return Err(CensusError::NotTheGraph { rows: query.rows, cols: query.cols, nodes: g.nodes() });
        }
    } else if !family.allows_rows(query.rows) {
        return Err(CensusError::NoSuchBoard { rows: query.rows, cols: query.cols });
    }
    let limit = family.max_cells();
    let cells = match query.rows.checked_mul(query.cols) {
        Some(c) if c <= limit => c,
        _ => {
            let graph = family.graph.is_some();
            return Err(CensusError::BoardTooLarge { rows: query.rows, cols: query.cols, limit, graph });
        }
    };
    let (start, end) = (*query.on.start(), *query.on.end());
    if start > end || end > cells {
        return Err(CensusError::BadOn { start, end, cells });
    }
    if query.lock_dark {
        let limit = lock_dark_limit(family.states, cells);
        if let Err((positions, exact)) = positions_up_to(query, limit) {
            return Err(CensusError::TooManyPositions { positions, exact, limit });
        }
    }
    Ok(())
}

/// Count with the best method. `progress(done, total)` reports work units
/// (positions when enumerating, cells for the syndrome programme, distinct
/// invariant weights for MacWilliams), from any thread.
pub fn census(family: &Family, query: &Query, progress: &(dyn Fn(u64, u64) + Sync)) -> Result<Census, CensusError> {
    census_with(family, query, Method::Auto, progress)
}

/// Count with a chosen method (the others serve as cross-checks).
pub fn census_with(
    family: &Family,
    query: &Query,
    method: Method,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Census, CensusError> {
    let plan = plan(family, query, method)?;
    let all: Vec<usize> = (0..plan.units.len()).collect();
    let sums = count(family, query, &plan, &all, true, progress)?.pop().unwrap_or_default();
    let mut totals = vec![BigInt::zero(); query.on.clone().count()];
    add_partial(&mut totals, query, &sums)?;
    finish(query, plan.method, plan.classes, totals)
}

/// One unit of a census's work: the entries of a sharded census
/// ([`crate::shard`]), each a partial count for some K, summed by [`finish`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unit {
    /// With locked dark cells: the positions of `on` lights whose first lit
    /// cell (in reading order) is `first`; `None` for the one position of
    /// no lights.
    Positions { on: usize, first: Option<usize> },
    /// MacWilliams: the `count` invariants of weight `weight` (their terms
    /// Σ P_K(weight) of the identity, before the division by 2^t).
    Weight { weight: usize, count: u64 },
    /// The syndrome programme is one pass over every cell: one unit.
    Whole,
}

/// What a census computes before it counts: the method, the invariants and
/// its units of work, in the order shards number them.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The method that counts (never [`Method::Auto`]).
    pub method: Method,
    /// Without `lock_dark`: the group of invariants.
    pub classes: Option<GroupShape>,
    pub units: Vec<Unit>,
    invariants: Vec<(Vec<u32>, u32)>,
}

/// Check the query, pick the method and list the units of work (for the
/// invariant methods this finds the invariants: a solve of Aᵀ).
pub fn plan(family: &Family, query: &Query, method: Method) -> Result<Plan, CensusError> {
    validate(family, query)?;
    let method = match (method, query.lock_dark) {
        (Method::Auto, true) => Method::Enumeration,
        (Method::Auto, false) if family.states == 2 => Method::MacWilliams,
        (Method::Auto, false) => Method::Syndromes,
        (Method::Enumeration, false) => {
            return Err(CensusError::MethodNotApplicable { method, why: "enumeration is for locked dark cells" })
        }
        (Method::Syndromes | Method::MacWilliams, true) => {
            return Err(CensusError::MethodNotApplicable {
                method,
                why: "with locked dark cells the system changes with the position",
            })
        }
        (Method::MacWilliams, false) if family.states != 2 => {
            return Err(CensusError::MethodNotApplicable { method, why: "MacWilliams needs two states" })
        }
        (m, _) => m,
    };
    let cells = query.rows * query.cols;
    if method == Method::Enumeration {
        let mut units = Vec::new();
        for k in query.on.clone() {
            if k == 0 {
                units.push(Unit::Positions { on: 0, first: None });
            } else {
                units.extend((0..=cells - k).map(|f| Unit::Positions { on: k, first: Some(f) }));
            }
        }
        return Ok(Plan { method, classes: None, units, invariants: Vec::new() });
    }
    let invariants = left_kernel(family, query.rows, query.cols)?;
    let classes = Some(GroupShape::from_orders(invariants.iter().map(|(_, o)| *o)));
    let units = if method == Method::MacWilliams {
        dual_weights(&invariants, cells)?.into_iter().map(|(weight, count)| Unit::Weight { weight, count }).collect()
    } else {
        vec![Unit::Whole]
    };
    Ok(Plan { method, classes, units, invariants })
}

/// The partial counts `(K, count)` of the units `selected` (indices into
/// `plan.units`): one list per unit, or with `summed` one list for all.
/// MacWilliams terms may be negative; [`finish`] divides their sum.
pub fn count(
    family: &Family,
    query: &Query,
    plan: &Plan,
    selected: &[usize],
    summed: bool,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Vec<Vec<(usize, BigInt)>>, CensusError> {
    let units: Vec<&Unit> = selected
        .iter()
        .map(|&i| plan.units.get(i).ok_or_else(|| CensusError::Internal(format!("no unit {i}"))))
        .collect::<Result<_, _>>()?;
    let cells = query.rows * query.cols;
    let per_unit: Vec<Vec<(usize, BigInt)>> = match plan.method {
        Method::Enumeration => {
            let positions: Vec<(usize, Option<usize>)> = units
                .iter()
                .map(|u| match u {
                    Unit::Positions { on, first } => Ok((*on, *first)),
                    _ => Err(CensusError::Internal("a unit of another method".into())),
                })
                .collect::<Result<_, _>>()?;
            let counts = enumerate_lock_dark(family, query, &positions, progress)?;
            positions.iter().zip(counts).map(|(&(k, _), c)| vec![(k, BigInt::from(c))]).collect()
        }
        Method::MacWilliams => {
            let weights: Vec<(usize, u64)> = units
                .iter()
                .map(|u| match u {
                    Unit::Weight { weight, count } => Ok((*weight, *count)),
                    _ => Err(CensusError::Internal("a unit of another method".into())),
                })
                .collect::<Result<_, _>>()?;
            let terms = macwilliams_terms(&weights, cells, &query.on, summed, progress);
            return Ok(terms.into_iter().map(|t| query.on.clone().zip(t).collect()).collect());
        }
        _ => units
            .iter()
            .map(|_| {
                let counts = syndromes(&plan.invariants, family.states, cells, &query.on, progress)?;
                Ok(query.on.clone().zip(counts.into_iter().map(BigInt::from)).collect())
            })
            .collect::<Result<_, CensusError>>()?,
    };
    if !summed {
        return Ok(per_unit);
    }
    let mut totals = vec![BigInt::zero(); query.on.clone().count()];
    for partial in &per_unit {
        add_partial(&mut totals, query, partial)?;
    }
    Ok(vec![query.on.clone().zip(totals).collect()])
}

/// Add partial counts `(K, count)` into `totals` (one per K of the query).
pub fn add_partial(totals: &mut [BigInt], query: &Query, partial: &[(usize, BigInt)]) -> Result<(), CensusError> {
    let start = *query.on.start();
    for (k, value) in partial {
        let slot = k.checked_sub(start).and_then(|i| totals.get_mut(i)).ok_or_else(|| {
            CensusError::Internal(format!("a count for K = {k}, outside {start}..{}", query.on.end()))
        })?;
        *slot += value;
    }
    Ok(())
}

/// The census from the sums of every unit's partial counts, one per K of
/// the query: MacWilliams sums are divided by 2^t (t invariants).
pub fn finish(
    query: &Query,
    method: Method,
    classes: Option<GroupShape>,
    totals: Vec<BigInt>,
) -> Result<Census, CensusError> {
    let cells = query.rows * query.cols;
    let divisor = match (&classes, method) {
        (Some(g), Method::MacWilliams) => BigInt::one() << g.factors.len(),
        _ => BigInt::one(),
    };
    let solvable: Vec<BigUint> = query
        .on
        .clone()
        .zip(totals)
        .map(|(k, total)| {
            let (q, r) = (&total / &divisor, &total % &divisor);
            match q.to_biguint() {
                Some(q) if r.is_zero() => Ok(q),
                _ => Err(CensusError::Internal(format!(
                    "the sum for K = {k} is {total}, not a nonnegative multiple of {divisor}"
                ))),
            }
        })
        .collect::<Result<_, _>>()?;
    let rows = query
        .on
        .clone()
        .zip(binomials(cells, query.on.clone()))
        .zip(solvable)
        .map(|((on, positions), solvable)| CensusRow { on, positions, solvable })
        .collect();
    Ok(Census { rows, method, classes })
}

/// Generators yᵢ (one weight per cell) and orders oᵢ of {y : yᵀA ≡ 0}.
fn left_kernel(family: &Family, rows: usize, cols: usize) -> Result<Vec<(Vec<u32>, u32)>, CensusError> {
    let board = family.board(rows, cols, Board::zeros(rows * cols));
    let system = lower(&board);
    let a = &system.matrix;
    let mut transposed = SparseMatrix::new(a.cols, a.rows);
    for (j, column) in a.columns.iter().enumerate() {
        for &(i, v) in column {
            transposed.push_entry(i as usize, j, v);
        }
    }
    let zero = vec![0u32; transposed.rows];
    let solution = solve(&transposed, &zero, family.states).map_err(|e| CensusError::Internal(e.to_string()))?;
    Ok(solution.kernel.generators.into_iter().map(|g| (g.vector, g.order)).collect())
}

fn too_many(invariants: &[(Vec<u32>, u32)], why: String) -> CensusError {
    let classes = GroupShape::from_orders(invariants.iter().map(|(_, o)| *o)).size().to_string();
    CensusError::TooManyClasses { invariants: invariants.len(), classes, why }
}

/// The weights of the members of L for W = 2: `(weight, how many)`, for
/// the weights that occur, from one Walsh–Hadamard transform.
fn dual_weights(invariants: &[(Vec<u32>, u32)], n: usize) -> Result<Vec<(usize, u64)>, CensusError> {
    let t = invariants.len();
    if t > MAX_MACWILLIAMS_INVARIANTS {
        return Err(too_many(
            invariants,
            format!("the MacWilliams count handles at most {MAX_MACWILLIAMS_INVARIANTS} invariants"),
        ));
    }
    // Signatures: bit i of cell c is yᵢ[c].
    let size = 1usize << t;
    let mut h = vec![0i32; size];
    for c in 0..n {
        let mut sig = 0usize;
        for (i, (y, order)) in invariants.iter().enumerate() {
            if *order != 2 {
                return Err(CensusError::Internal(format!("invariant of order {order} with two states")));
            }
            sig |= ((y[c] & 1) as usize) << i;
        }
        h[sig] += 1;
    }
    // Walsh–Hadamard: h[u] = Σ_c (−1)^{u·σ_c} = n − 2·|y_u|.
    let mut len = 1;
    while len < size {
        for block in h.chunks_mut(2 * len) {
            let (a, b) = block.split_at_mut(len);
            for (x, y) in a.iter_mut().zip(b.iter_mut()) {
                let (s, d) = (*x + *y, *x - *y);
                *x = s;
                *y = d;
            }
        }
        len *= 2;
    }
    // by_weight[j] = the number of members of L of weight j.
    let mut by_weight = vec![0u64; n + 1];
    for &v in &h {
        let twice = n as i64 - i64::from(v);
        if twice < 0 || twice % 2 != 0 || twice / 2 > n as i64 {
            return Err(CensusError::Internal("Walsh–Hadamard transform gave an impossible weight".into()));
        }
        by_weight[(twice / 2) as usize] += 1;
    }
    Ok(by_weight.into_iter().enumerate().filter(|&(_, c)| c > 0).collect())
}

/// The MacWilliams terms count_j·P_K(j) for every K of `on`: one list per
/// weight of `weights`, or with `summed` one list, their sum (then
/// count_K = sum / 2^t).
fn macwilliams_terms(
    weights: &[(usize, u64)],
    n: usize,
    on: &RangeInclusive<usize>,
    summed: bool,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Vec<Vec<BigInt>> {
    // P_K(j) = (−1)^j·P_{n−K}(j) (read the polynomial backwards), so the
    // recurrence only runs to min(K, n−K).
    let kmax = on.clone().map(|k| k.min(n - k)).max().unwrap_or(0);
    let done = AtomicU64::new(0);
    let width = on.clone().count();
    let terms = |acc: &mut Vec<BigInt>, j: usize, count: u64| {
        let p = krawtchouk(n, j, kmax);
        let count = BigInt::from(count);
        for (slot, k) in acc.iter_mut().zip(on.clone()) {
            let value = if k <= n - k { p[k].clone() } else { p[n - k].clone() * if j % 2 == 1 { -1 } else { 1 } };
            *slot += value * &count;
        }
        progress(done.fetch_add(1, Ordering::Relaxed) + 1, weights.len() as u64);
    };
    if !summed {
        return weights
            .par_iter()
            .with_max_len(1)
            .map(|&(j, count)| {
                let mut acc = vec![BigInt::zero(); width];
                terms(&mut acc, j, count);
                acc
            })
            .collect();
    }
    // Summed per thread then combined.
    let total = weights
        .par_iter()
        .fold(
            || vec![BigInt::zero(); width],
            |mut acc, &(j, count)| {
                terms(&mut acc, j, count);
                acc
            },
        )
        .reduce(
            || vec![BigInt::zero(); width],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        );
    vec![total]
}

/// P_k(j) for k = 0..=kmax: the coefficient of z^k in (1−z)^j (1+z)^(n−j),
/// by the three-term recurrence (k+1)·P_{k+1} = (n−2j)·P_k − (n−k+1)·P_{k−1}.
fn krawtchouk(n: usize, j: usize, kmax: usize) -> Vec<BigInt> {
    let mut p: Vec<BigInt> = Vec::with_capacity(kmax + 1);
    p.push(BigInt::one());
    let a = BigInt::from(n as i64 - 2 * j as i64);
    for k in 0..kmax {
        let next = if k == 0 {
            a.clone()
        } else {
            (&a * &p[k] - BigInt::from((n - k + 1) as u64) * &p[k - 1]) / BigInt::from((k + 1) as u64)
        };
        p.push(next);
    }
    p
}

/// What the syndrome programme counts in.
trait Counter: Clone + Send + Sync + Zero + One + for<'a> AddAssign<&'a Self> {
    fn to_big(&self) -> BigUint;
}

impl Counter for u128 {
    fn to_big(&self) -> BigUint {
        BigUint::from(*self)
    }
}

impl Counter for BigUint {
    fn to_big(&self) -> BigUint {
        self.clone()
    }
}

/// The syndrome dynamic programme, for every K of `on`.
fn syndromes(
    invariants: &[(Vec<u32>, u32)],
    w: u32,
    n: usize,
    on: &RangeInclusive<usize>,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Vec<BigUint>, CensusError> {
    let kmax = *on.end();
    let radices: Vec<usize> = invariants.iter().map(|(_, o)| *o as usize).collect();
    let classes: u128 = radices.iter().try_fold(1u128, |acc, &r| acc.checked_mul(r as u128)).unwrap_or(u128::MAX);
    let states = classes.saturating_mul(kmax as u128 + 1);
    if states > MAX_SYNDROME_STATES {
        return Err(too_many(
            invariants,
            format!("counting them for up to {kmax} lights needs {states} counters (at most {MAX_SYNDROME_STATES})"),
        ));
    }
    let work = states.saturating_mul(n as u128);
    if work > MAX_SYNDROME_WORK {
        return Err(too_many(
            invariants,
            format!("counting them needs about {work} additions (at most {MAX_SYNDROME_WORK})"),
        ));
    }
    // Each cell's syndrome as a mixed-radix index (digit i = yᵢ[c] / (W/oᵢ)).
    let mut syndrome_of = vec![0usize; n];
    let mut stride = 1usize;
    for ((y, order), &radix) in invariants.iter().zip(&radices) {
        let step = w / order;
        for (c, slot) in syndrome_of.iter_mut().enumerate() {
            if y[c] % step != 0 {
                return Err(CensusError::Internal(format!("invariant of order {order} has entry {}", y[c])));
            }
            *slot += ((y[c] / step) as usize % radix) * stride;
        }
        stride *= radix;
    }
    // Every intermediate count is at most max_{k ≤ kmax} C(n, k).
    let fits = binomial(n, kmax.min(n / 2)) < (BigUint::one() << 127u32);
    let counts = if fits {
        syndrome_counts::<u128>(&syndrome_of, &radices, kmax, progress)
    } else {
        syndrome_counts::<BigUint>(&syndrome_of, &radices, kmax, progress)
    };
    Ok(on.clone().map(|k| counts[k].clone()).collect())
}

/// dp[k][s] = number of subsets of the cells seen so far with k cells and
/// syndrome sum s; returns dp[k][0] for k = 0..=kmax.
fn syndrome_counts<T: Counter>(
    syndrome_of: &[usize],
    radices: &[usize],
    kmax: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Vec<BigUint> {
    let classes: usize = radices.iter().product();
    let n = syndrome_of.len();
    let mut dp: Vec<Vec<T>> = (0..=kmax).map(|_| vec![T::zero(); classes]).collect();
    dp[0][0] = T::one();
    // Cells with the same syndrome share one translation table.
    let mut groups: BTreeMap<usize, usize> = BTreeMap::new();
    for &s in syndrome_of {
        *groups.entry(s).or_default() += 1;
    }
    let mut seen = 0usize;
    for (sigma, multiplicity) in groups {
        // back[s] = s − σ, digit by digit.
        let back: Option<Vec<usize>> =
            (sigma != 0).then(|| (0..classes).map(|s| subtract(s, sigma, radices)).collect());
        for _ in 0..multiplicity {
            seen += 1;
            for k in (1..=kmax.min(seen)).rev() {
                let (lower, upper) = dp.split_at_mut(k);
                let prev = &lower[k - 1];
                let cur = &mut upper[0];
                let update = |offset: usize, chunk: &mut [T]| {
                    for (i, slot) in chunk.iter_mut().enumerate() {
                        let s = offset + i;
                        let from = back.as_ref().map_or(s, |b| b[s]);
                        *slot += &prev[from];
                    }
                };
                const CHUNK: usize = 4096;
                if classes >= 2 * CHUNK {
                    cur.par_chunks_mut(CHUNK).enumerate().for_each(|(i, chunk)| update(i * CHUNK, chunk));
                } else {
                    update(0, cur);
                }
            }
            progress(seen as u64, n as u64);
        }
    }
    dp.iter().map(|row| row[0].to_big()).collect()
}

/// s − σ in ⊕ Z/radix, both as mixed-radix indices.
fn subtract(mut s: usize, mut sigma: usize, radices: &[usize]) -> usize {
    let (mut out, mut stride) = (0, 1);
    for &r in radices {
        let (a, b) = (s % r, sigma % r);
        out += ((a + r - b) % r) * stride;
        s /= r;
        sigma /= r;
        stride *= r;
    }
    out
}

/// Whether `lock_dark` enumerates with the bit-packed GF(2) walk.
fn bit_packed(states: u32, cells: usize) -> bool {
    states == 2 && cells <= LOCK_DARK_MAX_CELLS
}

/// The positions of each unit `(K, first lit cell)` with the dark cells
/// locked, decided one by one: the solvable count of each unit.
fn enumerate_lock_dark(
    family: &Family,
    query: &Query,
    units: &[(usize, Option<usize>)],
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Vec<u64>, CensusError> {
    let (rows, cols) = (query.rows, query.cols);
    let n = rows * cols;
    let board = family.board(rows, cols, Board::zeros(n));
    let patterns: Vec<Vec<(usize, u32)>> = (0..n).map(|c| press_pattern(&board, c / cols, c % cols)).collect();
    // The positions of K lights whose first lit cell is f: C(n − 1 − f, K − 1).
    let size = |&(k, first): &(usize, Option<usize>)| match first {
        None => 1,
        Some(f) => u64::try_from(binomial(n - 1 - f, k - 1)).unwrap_or(u64::MAX),
    };
    let total: u64 = units.iter().map(size).fold(0, u64::saturating_add);
    let done = AtomicU64::new(0);
    let report = |delta: u64| {
        let d = done.fetch_add(delta, Ordering::Relaxed) + delta;
        progress(d, total);
    };
    let mut out = vec![0u64; units.len()];
    let mut ks: Vec<usize> = units.iter().map(|u| u.0).collect();
    ks.dedup();
    for k in ks {
        let slots: Vec<usize> = (0..units.len()).filter(|&i| units[i].0 == k).collect();
        let firsts: Vec<Option<usize>> = slots.iter().map(|&i| units[i].1).collect();
        let counts = if bit_packed(family.states, n) {
            let words = n.div_ceil(64);
            match words {
                1 => gf2_lock_dark::<1>(&patterns, k, &firsts, &report),
                2 => gf2_lock_dark::<2>(&patterns, k, &firsts, &report),
                3..=4 => gf2_lock_dark::<4>(&patterns, k, &firsts, &report),
                5..=8 => gf2_lock_dark::<8>(&patterns, k, &firsts, &report),
                9..=16 => gf2_lock_dark::<16>(&patterns, k, &firsts, &report),
                17..=32 => gf2_lock_dark::<32>(&patterns, k, &firsts, &report),
                _ => return Err(CensusError::Internal(format!("{n} cells reached the GF(2) enumerator"))),
            }
        } else {
            general_lock_dark(&patterns, family.states, k, &firsts, &report)?
        };
        for (&slot, count) in slots.iter().zip(counts) {
            out[slot] = count;
        }
    }
    Ok(out)
}

/// The prefixes (the first one or two lit cells) that split the
/// enumeration of the K-subsets of n cells whose first cell is one of
/// `firsts` into parallel tasks, each with the index of its first in
/// `firsts` (`None`: the empty set, for K = 0).
fn prefixes(n: usize, k: usize, firsts: &[Option<usize>]) -> Vec<(usize, Vec<usize>)> {
    let mut out = Vec::new();
    for (slot, first) in firsts.iter().enumerate() {
        match *first {
            None if k == 0 => out.push((slot, Vec::new())),
            Some(f) if k == 1 && f < n => out.push((slot, vec![f])),
            Some(f) if k >= 2 && f + k <= n => out.extend((f + 1..=n - (k - 1)).map(|s| (slot, vec![f, s]))),
            _ => {}
        }
    }
    out
}

/// Sum the counts of each prefix into one count per first cell.
fn per_first(width: usize, counts: impl ParallelIterator<Item = (usize, u64)>) -> Vec<u64> {
    counts
        .fold(
            || vec![0u64; width],
            |mut acc, (slot, c)| {
                acc[slot] += c;
                acc
            },
        )
        .reduce(
            || vec![0u64; width],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        )
}

/// Progress is reported every this many positions per task.
const TICK: u64 = 1 << 16;

/// An echelon basis of the lit cells' columns and the target 1_S, over GF(2).
struct Gf2State<const N: usize> {
    basis: Vec<[u64; N]>,
    /// (word, bit mask) of each basis vector's pivot.
    pivots: Vec<(usize, u64)>,
    target: [u64; N],
}

impl<const N: usize> Gf2State<N> {
    /// Add a lit cell: its column joins the span (returns whether it was
    /// independent), its bit joins the target.
    fn push(&mut self, column: &[u64; N], cell: usize) -> bool {
        self.target[cell / 64] ^= 1 << (cell % 64);
        let mut v = *column;
        for (b, &(word, mask)) in self.basis.iter().zip(&self.pivots) {
            if v[word] & mask != 0 {
                for (x, y) in v.iter_mut().zip(b) {
                    *x ^= y;
                }
            }
        }
        match v.iter().position(|&x| x != 0) {
            Some(word) => {
                let mask = 1u64 << v[word].trailing_zeros();
                self.basis.push(v);
                self.pivots.push((word, mask));
                true
            }
            None => false,
        }
    }

    fn pop(&mut self, inserted: bool, cell: usize) {
        self.target[cell / 64] ^= 1 << (cell % 64);
        if inserted {
            self.basis.pop();
            self.pivots.pop();
        }
    }

    fn target_in_span(&self) -> bool {
        let mut t = self.target;
        for (b, &(word, mask)) in self.basis.iter().zip(&self.pivots) {
            if t[word] & mask != 0 {
                for (x, y) in t.iter_mut().zip(b) {
                    *x ^= y;
                }
            }
        }
        t.iter().all(|&x| x == 0)
    }
}

struct Gf2Walk<'a, const N: usize> {
    columns: &'a [[u64; N]],
    state: Gf2State<N>,
    solvable: u64,
    pending: u64,
    report: &'a (dyn Fn(u64) + Sync),
}

impl<const N: usize> Gf2Walk<'_, N> {
    fn dfs(&mut self, start: usize, remaining: usize) {
        if remaining == 0 {
            if self.state.target_in_span() {
                self.solvable += 1;
            }
            self.pending += 1;
            if self.pending == TICK {
                (self.report)(TICK);
                self.pending = 0;
            }
            return;
        }
        let n = self.columns.len();
        for c in start..=(n - remaining) {
            let inserted = self.state.push(&self.columns[c], c);
            self.dfs(c + 1, remaining - 1);
            self.state.pop(inserted, c);
        }
    }
}

fn gf2_lock_dark<const N: usize>(
    patterns: &[Vec<(usize, u32)>],
    k: usize,
    firsts: &[Option<usize>],
    report: &(dyn Fn(u64) + Sync),
) -> Vec<u64> {
    let n = patterns.len();
    let columns: Vec<[u64; N]> = patterns
        .iter()
        .map(|p| {
            let mut col = [0u64; N];
            for &(cell, weight) in p {
                if weight % 2 == 1 {
                    col[cell / 64] ^= 1 << (cell % 64);
                }
            }
            col
        })
        .collect();
    let tasks = prefixes(n, k, firsts);
    let counts = tasks.par_iter().with_max_len(1).map(|(slot, prefix)| {
        let mut walk = Gf2Walk {
            columns: &columns,
            state: Gf2State { basis: Vec::with_capacity(k), pivots: Vec::with_capacity(k), target: [0; N] },
            solvable: 0,
            pending: 0,
            report,
        };
        for &c in prefix {
            walk.state.push(&columns[c], c);
        }
        let start = prefix.last().map_or(0, |&c| c + 1);
        walk.dfs(start, k - prefix.len());
        report(walk.pending);
        (*slot, walk.solvable)
    });
    per_first(firsts.len(), counts)
}

/// Lock-dark for W ≠ 2: each position is a system with the lit cells as
/// unknowns and A·x ≡ 1 on the lit cells (goal 0 − lights W−1), 0 elsewhere.
fn general_lock_dark(
    patterns: &[Vec<(usize, u32)>],
    w: u32,
    k: usize,
    firsts: &[Option<usize>],
    report: &(dyn Fn(u64) + Sync),
) -> Result<Vec<u64>, CensusError> {
    let n = patterns.len();
    let decide = |lit: &[usize]| -> Result<bool, CensusError> {
        let mut a = SparseMatrix::new(n, lit.len());
        let mut rhs = vec![0u32; n];
        for (j, &c) in lit.iter().enumerate() {
            rhs[c] = 1;
            for &(cell, weight) in &patterns[c] {
                a.push_entry(j, cell, weight % w);
            }
        }
        solve(&a, &rhs, w).map(|s| s.consistent).map_err(|e| CensusError::Internal(e.to_string()))
    };
    let tasks = prefixes(n, k, firsts);
    let counts: Vec<(usize, u64)> = tasks
        .par_iter()
        .with_max_len(1)
        .map(|(slot, prefix)| {
            let mut lit = prefix.clone();
            let mut solvable = 0u64;
            let mut pending = 0u64;
            let start = prefix.last().map_or(0, |&c| c + 1);
            let mut error = None;
            let mut visit = |lit: &[usize]| {
                match decide(lit) {
                    Ok(true) => solvable += 1,
                    Ok(false) => {}
                    Err(e) => {
                        error.get_or_insert(e);
                    }
                }
                pending += 1;
                if pending == TICK {
                    report(TICK);
                    pending = 0;
                }
            };
            combinations(n, k, start, &mut lit, &mut visit);
            report(pending);
            match error {
                Some(e) => Err(e),
                None => Ok((*slot, solvable)),
            }
        })
        .collect::<Result<_, CensusError>>()?;
    Ok(per_first(firsts.len(), counts.into_par_iter()))
}

/// Call `visit` with every extension of `lit` to k cells taken from start..n.
fn combinations(n: usize, k: usize, start: usize, lit: &mut Vec<usize>, visit: &mut dyn FnMut(&[usize])) {
    if lit.len() == k {
        visit(lit);
        return;
    }
    let remaining = k - lit.len();
    for c in start..=(n - remaining) {
        lit.push(c);
        combinations(n, k, c + 1, lit, visit);
        lit.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_coefficients() {
        assert_eq!(binomial(25, 20), BigUint::from(53_130u32));
        assert_eq!(binomial(5, 0), BigUint::one());
        assert_eq!(binomial(5, 6), BigUint::zero());
        for (n, range) in [(25, 0..=25), (10, 3..=7), (4, 2..=6), (0, 0..=0)] {
            let stepped = binomials(n, range.clone());
            let direct: Vec<BigUint> = range.map(|k| binomial(n, k)).collect();
            assert_eq!(stepped, direct, "n = {n}");
        }
    }

    #[test]
    fn position_totals_stop_past_the_cap() {
        let q = |on: RangeInclusive<usize>| Query { rows: 5, cols: 5, on, lock_dark: true };
        assert_eq!(positions_up_to(&q(0..=25), 1 << 25), Ok(1 << 25));
        assert_eq!(positions_up_to(&q(20..=20), 100), Err((BigUint::from(53_130u32), true)));
        // 1 + 25 + 300 passes 300 at K = 2 of 0..=25: a lower bound.
        assert_eq!(positions_up_to(&q(0..=25), 300), Err((BigUint::from(326u32), false)));
    }

    #[test]
    fn krawtchouk_matches_expansion() {
        // (1−z)^2 (1+z)^3 = 1 + z − 2z² − 2z³ + z⁴ + z⁵.
        let p = krawtchouk(5, 2, 5);
        let want: Vec<BigInt> = [1, 1, -2, -2, 1, 1].iter().map(|&v| BigInt::from(v)).collect();
        assert_eq!(p, want);
    }

    #[test]
    fn prefixes_cover_all_subsets_once() {
        for (n, k) in [(5, 0), (5, 1), (5, 2), (6, 3), (4, 4)] {
            let mut all = Vec::new();
            let firsts: Vec<Option<usize>> = if k == 0 { vec![None] } else { (0..=n - k).map(Some).collect() };
            for (slot, prefix) in prefixes(n, k, &firsts) {
                assert_eq!(prefix.first().copied(), firsts[slot]);
                let mut lit = prefix.clone();
                let start = prefix.last().map_or(0, |&c| c + 1);
                combinations(n, k, start, &mut lit, &mut |s| all.push(s.to_vec()));
            }
            assert_eq!(BigUint::from(all.len()), binomial(n, k), "{n} choose {k}");
            all.sort();
            all.dedup();
            assert_eq!(BigUint::from(all.len()), binomial(n, k));
        }
    }

    #[test]
    fn units_in_any_split_sum_to_the_whole_census() {
        let none = |_: u64, _: u64| {};
        let cases = [
            (Family::parse("cross", "plane", 2).unwrap(), Query { rows: 4, cols: 4, on: 0..=16, lock_dark: true }),
            (Family::parse("flip", "torus", 3).unwrap(), Query { rows: 2, cols: 3, on: 2..=4, lock_dark: true }),
            (Family::parse("cross", "plane", 2).unwrap(), Query { rows: 6, cols: 6, on: 3..=30, lock_dark: false }),
            (Family::parse("cross", "torus", 6).unwrap(), Query { rows: 3, cols: 4, on: 0..=12, lock_dark: false }),
        ];
        for (family, query) in cases {
            let whole = census(&family, &query, &none).unwrap();
            let plan = plan(&family, &query, Method::Auto).unwrap();
            for n in 1..=4 {
                let mut totals = vec![BigInt::zero(); query.on.clone().count()];
                // Shards in reverse order, each unit's partial added on its own.
                for k in (0..n).rev() {
                    let mine: Vec<usize> = (k..plan.units.len()).step_by(n).collect();
                    let partials = count(&family, &query, &plan, &mine, false, &none).unwrap();
                    assert_eq!(partials.len(), mine.len());
                    for p in &partials {
                        add_partial(&mut totals, &query, p).unwrap();
                    }
                }
                let merged = finish(&query, plan.method, plan.classes.clone(), totals).unwrap();
                assert_eq!(merged, whole, "{query:?} in {n} shards");
            }
        }
        // A count outside the query's range of K is refused.
        let query = Query { rows: 2, cols: 2, on: 1..=2, lock_dark: false };
        let mut totals = vec![BigInt::zero(); 2];
        assert!(add_partial(&mut totals, &query, &[(3, BigInt::one())]).is_err());
        assert!(add_partial(&mut totals, &query, &[(0, BigInt::one())]).is_err());
    }

    #[test]
    fn mixed_radix_subtraction() {
        // radices 2, 3: index = d0 + 2·d1.
        assert_eq!(subtract(0, 1, &[2, 3]), 1);
        assert_eq!(subtract(2, 4, &[2, 3]), 4); // (0,1) − (0,2) = (0,2)
        assert_eq!(subtract(5, 3, &[2, 3]), 2); // (1,2) − (1,1) = (0,1)
    }
}
