//! Solution tables: the All Lights answer for every board size in a range.
//!
//! For one *family* of boards (a rule, a topology and a number of states W)
//! and every size R×C in a range, [`table`] solves the All Lights puzzle
//! (every light on, at W−1 → every light off, nothing locked) and records:
//!
//! * the number of solutions (0 when it is not solvable);
//! * the quiet patterns (the kernel of A) as an abelian group, in invariant
//!   factors: `(Z/W)^k` for prime W, possibly `Z/2 ⊕ Z/4`… for composite W;
//! * the fraction of all W^(R·C) positions that can be turned off:
//!   |image of A| / W^cells. With every button free A is square, and
//!   |image| = W^cells / |kernel|, so the fraction is exactly 1/|kernel|.
//!
//! Boards are square, or hexagonal ([`Family::hex`]: `grid hex`, every
//! second row shifted right by half a cell). A hex torus needs an even number
//! of rows, so its tables list only the even row counts of the range.
//!
//! A family may also be played on the nodes of a graph ([`Family::graph`],
//! one board of 1 × nodes); [`graph_table`] runs the same answer over the
//! sizes N of a named family of graphs (`cycle N`, `path N`, `complete N`,
//! `cube-surface N`).
//!
//! Each board is one exact solve by `lights-algebra`; boards are solved in
//! parallel (rayon), largest first. Families whose press patterns are
//! symmetric under transposition (the named rules on the plane and the
//! torus) solve R×C and C×R once.

use std::collections::HashMap;
use std::fmt;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicUsize, Ordering};

use lights_algebra::factorize;
use lights_compiler::fast::{plan, Plan};
use lights_compiler::flags;
use lights_compiler::graph::{check_size, named, Graph, NamedGraphError, NAMED_GRAPHS};
use lights_compiler::model::{Board, Puzzle, Rule, Shape, Topology};
use lights_compiler::solve::{solve_with, unknowns_limit};
use lights_compiler::solve::{SolveError, SolveOptions};

/// The largest board a table takes (each board is held whole while it is
/// solved): 4,000×4,000.
pub const MAX_TABLE_CELLS: usize = 16_000_000;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use rayon::prelude::*;

/// Why a family cannot be made: a flag's words, or a rule or topology the
/// cells (hex) or graph do not take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FamilyError {
    #[error(transparent)]
    Flag(#[from] flags::FlagError),
    #[error(
        "a hex grid takes the rule cross or ring, not {rule} (king, flip, merlin and stencils are square-grid rules)"
    )]
    HexRule { rule: String },
    #[error(
        "a hex grid takes the topology plane, cylinder or torus, not {topology} (twisted surfaces are not defined on hex grids)"
    )]
    HexTopology { topology: &'static str },
    #[error(
        "a graph takes the rule cross (a press changes the node and its neighbours) or ring (only the neighbours), not {rule}"
    )]
    GraphRule { rule: String },
}

/// A family of boards: everything but the size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    pub rule: Rule,
    pub topology: Topology,
    /// The modulus W.
    pub states: u32,
    /// Hexagonal cells (`grid hex`) rather than square ones.
    pub hex: bool,
    /// The nodes of this graph instead of a board (`graph NAME`): the one
    /// board of the family is 1 × nodes, and the topology is not used.
    pub graph: Option<Graph>,
}

impl Family {
    /// A family from the words of the language: a rule name (`cross`, `king`,
    /// `flip`, `merlin`) or a stencil, braced or not, whose rows are separated
    /// by `/` or newlines (`.1. / 111 / .1.`), a topology name, and W; read as
    /// every command reads its flags ([`flags`]).
    pub fn parse(rule: &str, topology: &str, states: u32) -> Result<Family, FamilyError> {
        let states = flags::check_states(u64::from(states))?;
        let topology = flags::parse_topology(topology)?;
        let rule = flags::parse_rule(rule, states)?;
        Ok(Family { rule, topology, states, hex: false, graph: None })
    }

    /// The same family on hexagonal cells (`grid hex`): the rule must be
    /// `cross` or `ring`, the topology `plane`, `cylinder` or `torus`.
    pub fn on_hex(self) -> Result<Family, FamilyError> {
        if !matches!(self.rule, Rule::Cross | Rule::Ring) {
            return Err(FamilyError::HexRule { rule: flags::rule_flag(&self.rule) });
        }
        if !matches!(self.topology, Topology::Plane | Topology::Cylinder | Topology::Torus) {
            return Err(FamilyError::HexTopology { topology: self.topology.name() });
        }
        Ok(Family { hex: true, ..self })
    }

    /// The same family on the nodes of a graph (`graph NAME`): the rule
    /// must be `cross` (σ+) or `ring` (σ); the topology is set aside.
    pub fn on_graph(self, graph: Graph) -> Result<Family, FamilyError> {
        self.graph_rule()?;
        Ok(Family { topology: Topology::Plane, hex: false, graph: Some(graph), ..self })
    }

    /// Whether the rule is one a graph takes: `cross` or `ring`.
    fn graph_rule(&self) -> Result<(), FamilyError> {
        if matches!(self.rule, Rule::Cross | Rule::Ring) {
            return Ok(());
        }
        Err(FamilyError::GraphRule { rule: flags::rule_flag(&self.rule) })
    }

    /// Whether boards of `rows` rows exist in this family: a hex torus
    /// needs an even number of rows (the shifted rows alternate all the way
    /// round); a graph is one row of nodes.
    pub fn allows_rows(&self, rows: usize) -> bool {
        match &self.graph {
            Some(_) => rows == 1,
            None => !(self.hex && self.topology == Topology::Torus && rows % 2 == 1),
        }
    }

    /// The rows × cols board of this family with the given lights, goal off,
    /// nothing locked.
    pub fn board(&self, rows: usize, cols: usize, lights: Board) -> Puzzle {
        Puzzle {
            lights,
            shape: match &self.graph {
                Some(g) => Shape::Graph(g.clone()),
                None if self.hex => Shape::Hex,
                None => Shape::Square,
            },
            ..Puzzle::new(rows, cols, self.states, self.rule.clone(), self.topology).named(format!("{rows}x{cols}"))
        }
    }

    /// The All Lights board: every light on (at W−1), goal off.
    pub fn all_lights(&self, rows: usize, cols: usize) -> Puzzle {
        let on = (self.states - 1) as u16;
        self.board(rows, cols, Board::uniform(rows * cols, on))
    }

    /// The most cells a board of this family may have (the solver's limit).
    pub fn max_cells(&self) -> usize {
        unknowns_limit(self.states)
    }

    /// Whether R×C and C×R always have the same answers: the press patterns
    /// are symmetric under transposition (named rules, all weights 1) and so
    /// is the surface (square cells only: a hex board turned on its side is
    /// not a hex board).
    pub fn transposes(&self) -> bool {
        !self.hex
            && self.graph.is_none()
            && self.rule.is_named()
            && matches!(self.topology, Topology::Plane | Topology::Torus)
    }

    /// The rule as the language writes it: `cross`, or a stencil on one
    /// line, `{ . 1 . / 1 1 1 / . 1 . }`.
    pub fn rule_text(&self) -> String {
        match &self.rule {
            Rule::Stencil(s) => {
                let rows: Vec<String> = s
                    .weights
                    .chunks(s.cols.max(1))
                    .map(|r| {
                        r.iter()
                            .map(|&w| if w == 0 { ".".to_string() } else { w.to_string() })
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect();
                format!("{{ {} }}", rows.join(" / "))
            }
            named => named.name().to_string(),
        }
    }

    /// `cross rule · plane · 2 states`, `cross rule · hex grid · torus · 2 states`,
    /// `ring rule (σ) · graph petersen (10 nodes) · 2 states`.
    pub fn describe(&self) -> String {
        let rule = match &self.rule {
            Rule::Stencil(_) => format!("stencil {}", self.rule_text()),
            named => format!("{} rule", named.name()),
        };
        if let Some(g) = &self.graph {
            let (name, nodes) = (g.describe(), g.nodes());
            return format!("{rule} ({}) · graph {name} ({nodes} nodes) · {} states", sigma(&self.rule), self.states);
        }
        let grid = if self.hex { " · hex grid" } else { "" };
        format!("{rule}{grid} · {} · {} states", self.topology.name(), self.states)
    }

    /// The grid as JSON output names it: `square`, `hex` or `graph`.
    pub fn grid_name(&self) -> &'static str {
        match (&self.graph, self.hex) {
            (Some(_), _) => "graph",
            (None, true) => "hex",
            (None, false) => "square",
        }
    }

    /// The row counts of a range this family has boards for.
    pub fn row_counts(&self, rows: &RangeInclusive<usize>) -> Vec<usize> {
        rows.clone().filter(|&r| self.allows_rows(r)).collect()
    }
}

/// The literature's name of a graph game: σ+ (a press changes the node and
/// its neighbours) or σ (only the neighbours).
fn sigma(rule: &Rule) -> &'static str {
    if *rule == Rule::Ring {
        "σ"
    } else {
        "σ+"
    }
}

/// A finite abelian group ⊕ Z/dᵢ in invariant factors: d₁ | d₂ | … , each > 1.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GroupShape {
    /// Ascending, each dividing the next.
    pub factors: Vec<u32>,
}

impl GroupShape {
    /// The group ⊕ Z/oᵢ for cyclic orders oᵢ (any orders ≥ 1), brought to
    /// invariant factors: split every order into prime powers, then the i-th
    /// largest factor takes the i-th largest power of every prime.
    pub fn from_orders(orders: impl IntoIterator<Item = u32>) -> GroupShape {
        let mut powers: HashMap<u32, Vec<u32>> = HashMap::new();
        for order in orders {
            for (p, e) in factorize(order) {
                powers.entry(p).or_default().push(p.pow(e));
            }
        }
        let count = powers.values().map(Vec::len).max().unwrap_or(0);
        let mut factors = vec![1u32; count];
        for list in powers.values_mut() {
            list.sort_unstable_by(|a, b| b.cmp(a));
            for (slot, q) in factors.iter_mut().zip(list.iter()) {
                *slot *= q;
            }
        }
        factors.reverse();
        GroupShape { factors }
    }

    /// The number of elements.
    pub fn size(&self) -> BigUint {
        self.factors.iter().fold(BigUint::one(), |acc, &d| acc * d)
    }

    /// `Some(k)` when the group is (Z/w)^k (k = 0 for the trivial group).
    pub fn exponent_of(&self, w: u32) -> Option<usize> {
        self.factors.iter().all(|&d| d == w).then_some(self.factors.len())
    }

    /// How tables print it: `k` when the group is (Z/w)^k, else the
    /// invariant factors in brackets, `[2×4]` for Z/2 ⊕ Z/4.
    pub fn describe(&self, w: u32) -> String {
        match self.exponent_of(w) {
            Some(k) => k.to_string(),
            None => {
                format!("[{}]", self.factors.iter().map(u32::to_string).collect::<Vec<_>>().join("×"))
            }
        }
    }
}

/// An exact fraction in lowest terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fraction {
    pub numerator: BigUint,
    pub denominator: BigUint,
}

impl Fraction {
    /// `numerator / denominator` reduced; the denominator must be nonzero.
    pub fn new(numerator: BigUint, denominator: BigUint) -> Fraction {
        let g = gcd(numerator.clone(), denominator.clone());
        if g.is_zero() {
            return Fraction { numerator, denominator };
        }
        Fraction { numerator: numerator / &g, denominator: denominator / &g }
    }

    /// The value as a float (for percentages).
    pub fn to_f64(&self) -> f64 {
        // Scale both down to keep within f64 range for huge values.
        let bits = self.denominator.bits().max(self.numerator.bits());
        let shift = bits.saturating_sub(1000);
        let n = (&self.numerator >> shift).to_string().parse::<f64>().unwrap_or(0.0);
        let d = (&self.denominator >> shift).to_string().parse::<f64>().unwrap_or(1.0);
        if d == 0.0 {
            0.0
        } else {
            n / d
        }
    }
}

impl fmt::Display for Fraction {
    /// `1/4`; a whole number prints without `/1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denominator.is_one() {
            write!(f, "{}", self.numerator)
        } else {
            write!(f, "{}/{}", self.numerator, self.denominator)
        }
    }
}

/// Euclid's algorithm on big numbers.
pub(crate) fn gcd(mut a: BigUint, mut b: BigUint) -> BigUint {
    while !b.is_zero() {
        let r = &a % &b;
        a = b;
        b = r;
    }
    a
}

/// The answers for one board size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub rows: usize,
    pub cols: usize,
    /// Whether All Lights (all on → all off) can be solved.
    pub solvable: bool,
    /// Its exact number of solutions (0 when it cannot be solved).
    pub solutions: BigUint,
    /// The quiet patterns (kernel of A) as a group.
    pub kernel: GroupShape,
    /// The fraction of all positions that can be turned off: 1/|kernel|.
    pub fraction: Fraction,
}

/// Why a table cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// `axis` is "rows" or "columns".
    EmptyRange {
        axis: &'static str,
        start: usize,
        end: usize,
    },
    ZeroSize {
        axis: &'static str,
    },
    BoardTooLarge {
        rows: usize,
        cols: usize,
        limit: usize,
    },
    /// A hex torus over a range of odd row counts only.
    NoEvenRows {
        start: usize,
        end: usize,
    },
    /// `--graph NAME` that is not a named family with a size; the text says why.
    NotAGraphFamily(String),
    /// A graph family's size out of its range, or a rule graphs do not take.
    BadGraph(String),
    /// The largest graph of a range needs dense elimination beyond its limit.
    GraphTooLarge {
        graph: String,
        nodes: usize,
        limit: usize,
    },
    /// A failed self-check of the solver: a bug.
    Internal(String),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::EmptyRange { axis, start, end } => {
                write!(f, "the {axis} range {start}..{end} is empty (ranges are inclusive and go upwards, e.g. 1..20)")
            }
            TableError::ZeroSize { axis } => write!(f, "the {axis} range includes 0; boards have at least 1 row and column"),
            TableError::BoardTooLarge { rows, cols, limit } if *limit == MAX_TABLE_CELLS => write!(
                f,
                "the largest board, {rows}×{cols}, has {} cells; a table takes boards of at most {limit} cells (4000×4000)",
                rows.saturating_mul(*cols)
            ),
            TableError::BoardTooLarge { rows, cols, limit } => write!(
                f,
                "the {rows}×{cols} board has {} cells; the solver takes at most {limit} for this number of states on this rule and surface",
                rows.saturating_mul(*cols)
            ),
            TableError::NoEvenRows { start, end } => write!(
                f,
                "a hex torus needs an even number of rows, and the rows range {start}..{end} has none"
            ),
            TableError::NotAGraphFamily(m) | TableError::BadGraph(m) => f.write_str(m),
            TableError::GraphTooLarge { graph, nodes, limit } => write!(
                f,
                "the graph {graph} has {nodes} nodes; the solver takes at most {limit} for this number of states and rule"
            ),
            TableError::Internal(m) => write!(f, "internal error (a bug): {m}"),
        }
    }
}

impl std::error::Error for TableError {}

/// Answer All Lights for one board, through the solver every front end
/// uses (`Block::solve`'s paths: the polynomial method, light chasing, the
/// flip reduction, or dense elimination for what they do not cover), so
/// large boards need no dense system.
pub fn entry(family: &Family, rows: usize, cols: usize) -> Result<Entry, TableError> {
    let puzzle = family.all_lights(rows, cols);
    let options = SolveOptions { search_minimum: false, ..SolveOptions::default() };
    let report = solve_with(&puzzle, options, &|| false).map_err(|e| match e {
        SolveError::TooLarge { limit, .. } | SolveError::BoardTooLarge { limit, .. } => {
            TableError::BoardTooLarge { rows, cols, limit }
        }
        other => TableError::Internal(format!("{rows}×{cols}: {other:?}")),
    })?;
    let kernel = if report.quiet_patterns_omitted {
        prime_shape(family.states, &kernel_size(&report)?)
            .ok_or_else(|| TableError::Internal(format!("{rows}×{cols}: the quiet patterns were not spelled out")))?
    } else {
        GroupShape::from_orders(report.quiet_patterns.iter().map(|q| q.order))
    };
    let size = kernel.size();
    if report.solvable && size != report.solutions {
        return Err(TableError::Internal(format!("kernel of {rows}×{cols}: invariant factors lost elements")));
    }
    Ok(Entry {
        rows,
        cols,
        solvable: report.solvable,
        solutions: report.solutions,
        // Nothing is locked, so A is square and |image| / W^cells = 1 / |kernel|.
        fraction: Fraction::new(BigUint::one(), size),
        kernel,
    })
}

/// The number of quiet patterns when only the count is known: the number of
/// solutions (for All Lights on a solvable board).
fn kernel_size(report: &lights_compiler::solve::Report) -> Result<BigUint, TableError> {
    if report.solvable {
        Ok(report.solutions.clone())
    } else {
        Err(TableError::Internal("an unsolvable board too large to spell out its quiet patterns".into()))
    }
}

/// The group (Z/p)^d of `size` = p^d elements, for a prime `p` (for a
/// composite modulus the count alone does not tell the group).
fn prime_shape(p: u32, size: &BigUint) -> Option<GroupShape> {
    if !matches!(factorize(p).as_slice(), [(_, 1)]) {
        return None;
    }
    let (mut left, mut d) = (size.clone(), 0usize);
    let p_big = BigUint::from(p);
    while left > BigUint::one() {
        if !(&left % &p_big).is_zero() {
            return None;
        }
        left /= &p_big;
        d += 1;
    }
    Some(GroupShape { factors: vec![p; d] })
}

/// A whole table: `entries[i * cols.len() + j]` is `rows[i]` × `cols[j]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub family: Family,
    pub rows: Vec<usize>,
    pub cols: Vec<usize>,
    pub entries: Vec<Entry>,
}

impl Table {
    pub fn get(&self, row_index: usize, col_index: usize) -> &Entry {
        &self.entries[row_index * self.cols.len() + col_index]
    }
}

/// Check the ranges before any work: nonempty, no 0, the largest board
/// within the solver's limit (which also bounds the number of entries).
pub fn validate(family: &Family, rows: &RangeInclusive<usize>, cols: &RangeInclusive<usize>) -> Result<(), TableError> {
    for (axis, range) in [("rows", rows), ("columns", cols)] {
        if range.start() > range.end() {
            return Err(TableError::EmptyRange { axis, start: *range.start(), end: *range.end() });
        }
        if *range.start() == 0 {
            return Err(TableError::ZeroSize { axis });
        }
    }
    if family.row_counts(rows).is_empty() {
        return Err(TableError::NoEvenRows { start: *rows.start(), end: *rows.end() });
    }
    // Only dense elimination has a size limit: refuse at once when the
    // largest board would need it beyond that limit.
    let limit = family.max_cells();
    let r = if family.allows_rows(*rows.end()) { *rows.end() } else { rows.end() - 1 };
    let c = *cols.end();
    let cells = r.checked_mul(c).filter(|&n| n <= MAX_TABLE_CELLS);
    if cells.is_none_or(|n| n > limit && plan(&family.all_lights(r, c)) == Plan::Dense) {
        return Err(TableError::BoardTooLarge {
            rows: r,
            cols: c,
            limit: if cells.is_none() { MAX_TABLE_CELLS } else { limit },
        });
    }
    Ok(())
}

/// The distinct boards [`table`] solves (R×C and C×R count once when the
/// family [`Family::transposes`]), row by row: the entries of a sharded
/// table, in the order [`crate::shard`] numbers them.
pub fn boards_to_solve(
    family: &Family,
    rows: &RangeInclusive<usize>,
    cols: &RangeInclusive<usize>,
) -> Vec<(usize, usize)> {
    let mut keys: Vec<(usize, usize)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for r in family.row_counts(rows) {
        for c in cols.clone() {
            let key = canonical(family, rows, cols, r, c);
            if seen.insert(key) {
                keys.push(key);
            }
        }
    }
    keys
}

/// The board actually solved for R×C.
fn canonical(
    family: &Family,
    rows: &RangeInclusive<usize>,
    cols: &RangeInclusive<usize>,
    r: usize,
    c: usize,
) -> (usize, usize) {
    let swapped = (c, r);
    if family.transposes() && c < r && rows.contains(&c) && cols.contains(&r) {
        swapped
    } else {
        (r, c)
    }
}

/// Solve every board of the ranges (inclusive). `progress(done, total)` is
/// called after each distinct board is solved, from any thread.
pub fn table(
    family: &Family,
    rows: RangeInclusive<usize>,
    cols: RangeInclusive<usize>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Table, TableError> {
    validate(family, &rows, &cols)?;
    let keys = boards_to_solve(family, &rows, &cols);
    let entries = solve_boards(family, &keys, progress)?;
    let solved: HashMap<(usize, usize), Entry> = keys.into_iter().zip(entries).collect();
    assemble(family, rows, cols, &solved)
}

/// Solve the boards `keys` (R×C each) in parallel, largest first (so the
/// last boards to finish are small ones); the answers in the order of
/// `keys`. `progress(done, total)` after each, from any thread.
pub fn solve_boards(
    family: &Family,
    keys: &[(usize, usize)],
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<Entry>, TableError> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(keys[i].0 * keys[i].1));
    let total = keys.len();
    let done = AtomicUsize::new(0);
    let mut solved: Vec<(usize, Entry)> = order
        .par_iter()
        .with_max_len(1)
        .map(|&i| {
            let (r, c) = keys[i];
            let e = entry(family, r, c)?;
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            Ok((i, e))
        })
        .collect::<Result<_, TableError>>()?;
    solved.sort_by_key(|(i, _)| *i);
    Ok(solved.into_iter().map(|(_, e)| e).collect())
}

/// The table of the ranges from the answers of its distinct boards
/// ([`boards_to_solve`]), solved here or read back from shards.
pub fn assemble(
    family: &Family,
    rows: RangeInclusive<usize>,
    cols: RangeInclusive<usize>,
    solved: &HashMap<(usize, usize), Entry>,
) -> Result<Table, TableError> {
    let row_counts = family.row_counts(&rows);
    let mut entries = Vec::new();
    for &r in &row_counts {
        for c in cols.clone() {
            let key = canonical(family, &rows, &cols, r, c);
            let e = solved.get(&key).ok_or_else(|| TableError::Internal(format!("{r}×{c} was not solved")))?;
            entries.push(Entry { rows: r, cols: c, ..e.clone() });
        }
    }
    Ok(Table { family: family.clone(), rows: row_counts, cols: cols.collect(), entries })
}

/// The named graphs that come in sizes (`cycle N`, `path N`, `complete N`,
/// `cube-surface N`): the families [`graph_table`] runs over.
pub fn graph_families() -> Vec<&'static str> {
    NAMED_GRAPHS.iter().filter(|(_, sized)| *sized).map(|(name, _)| *name).collect()
}

/// The All Lights answer for one graph of a family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphEntry {
    /// The family's size N (`cycle N`).
    pub size: usize,
    pub nodes: usize,
    pub edges: usize,
    /// The answer (its board is 1 × nodes).
    pub answer: Entry,
}

/// A table over the sizes of a family of graphs, smallest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphTable {
    /// The rule and W (its `graph` is `None`: each entry has its own).
    pub family: Family,
    /// The family's name: `cycle`, `path`, `complete` or `cube-surface`.
    pub graph: String,
    pub entries: Vec<GraphEntry>,
}

impl GraphTable {
    /// `cross rule (σ+) · cycle graphs · 2 states`.
    pub fn describe(&self) -> String {
        let rule = format!("{} rule ({})", self.family.rule.name(), sigma(&self.family.rule));
        format!("{rule} · {} graphs · {} states", self.graph, self.family.states)
    }
}

/// The graph `name N`, or why the table cannot have it.
fn family_member(name: &str, size: usize) -> Result<Graph, TableError> {
    named(name, Some(size as u64)).map_err(|e| member_error(name, e))
}

/// Why `name N` is not a graph of a table.
fn member_error(name: &str, e: NamedGraphError) -> TableError {
    match e {
        NamedGraphError::SizeOutOfRange(range) => TableError::BadGraph(range),
        NamedGraphError::Unknown | NamedGraphError::NeedsSize | NamedGraphError::TakesNoSize => not_a_family(name),
    }
}

fn not_a_family(name: &str) -> TableError {
    let families = graph_families().join(", ");
    if NAMED_GRAPHS.iter().any(|(n, _)| *n == name) {
        TableError::NotAGraphFamily(format!(
            "`{name}` is one graph, not a family with a size; a table runs over the sizes of {families} \
             (`lights census --graph {name}` and `lights check` take it)"
        ))
    } else {
        TableError::NotAGraphFamily(format!("unknown graph family `{name}`; the families with a size are {families}"))
    }
}

/// Check a graph table before any work: a family with a size, a range
/// within its sizes (which bound the graphs: every family's largest is
/// solved by light chasing), and the rule cross or ring.
pub fn validate_graphs(family: &Family, name: &str, sizes: &RangeInclusive<usize>) -> Result<(), TableError> {
    if !graph_families().contains(&name) {
        return Err(not_a_family(name));
    }
    if sizes.start() > sizes.end() {
        return Err(TableError::EmptyRange { axis: "sizes", start: *sizes.start(), end: *sizes.end() });
    }
    // Sizes are contiguous: the ends tell whether all are in range (checked
    // without building the graphs: the table builds each once).
    for n in [*sizes.start(), *sizes.end()] {
        check_size(name, n as u64).map_err(|e| member_error(name, e))?;
    }
    family.graph_rule().map_err(|e| TableError::BadGraph(e.to_string()))
}

/// Solve All Lights on every graph `name N` for N in `sizes` (inclusive),
/// largest first and in parallel; `progress(done, total)` after each.
pub fn graph_table(
    family: &Family,
    name: &str,
    sizes: RangeInclusive<usize>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<GraphTable, TableError> {
    validate_graphs(family, name, &sizes)?;
    let sizes: Vec<usize> = sizes.collect();
    let entries = graph_entries(family, name, &sizes, progress)?;
    Ok(graph_table_of(family, name, entries))
}

/// The table of a graph family from its entries (solved here or read back
/// from shards), smallest first.
pub fn graph_table_of(family: &Family, name: &str, mut entries: Vec<GraphEntry>) -> GraphTable {
    entries.sort_by_key(|e| e.size);
    GraphTable { family: Family { graph: None, ..family.clone() }, graph: name.to_string(), entries }
}

/// All Lights on the graphs `name N` for each N of `sizes` (checked by
/// [`validate_graphs`]), largest first and in parallel; the answers in the
/// order of `sizes`.
pub fn graph_entries(
    family: &Family,
    name: &str,
    sizes: &[usize],
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<GraphEntry>, TableError> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
    let total = order.len();
    let done = AtomicUsize::new(0);
    let mut entries = order
        .par_iter()
        .with_max_len(1)
        .map(|&i| {
            let size = sizes[i];
            let graph = family_member(name, size)?;
            let (nodes, edges) = (graph.nodes(), graph.edge_count());
            let on_graph = family.clone().on_graph(graph).map_err(|e| TableError::BadGraph(e.to_string()))?;
            let answer = entry(&on_graph, 1, nodes).map_err(|e| match e {
                TableError::BoardTooLarge { limit, .. } => {
                    TableError::GraphTooLarge { graph: format!("{name} {size}"), nodes, limit }
                }
                other => other,
            })?;
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            Ok((i, GraphEntry { size, nodes, edges, answer }))
        })
        .collect::<Result<Vec<_>, TableError>>()?;
    entries.sort_by_key(|(i, _)| *i);
    Ok(entries.into_iter().map(|(_, e)| e).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invariant_factors() {
        assert_eq!(GroupShape::from_orders([]).factors, Vec::<u32>::new());
        assert_eq!(GroupShape::from_orders([2, 3]).factors, vec![6]);
        assert_eq!(GroupShape::from_orders([4, 2, 3]).factors, vec![2, 12]);
        assert_eq!(GroupShape::from_orders([6, 6]).factors, vec![6, 6]);
        assert_eq!(GroupShape::from_orders([1]).factors, Vec::<u32>::new());
        assert_eq!(GroupShape::from_orders([2, 4]).describe(4), "[2×4]");
        assert_eq!(GroupShape::from_orders([4, 4]).describe(4), "2");
        assert_eq!(GroupShape::from_orders([3]).describe(6), "[3]");
        assert_eq!(GroupShape::default().describe(6), "0");
    }

    #[test]
    fn fractions_reduce() {
        let f = Fraction::new(BigUint::from(6u32), BigUint::from(8u32));
        assert_eq!(f.to_string(), "3/4");
        assert!((f.to_f64() - 0.75).abs() < 1e-12);
        assert_eq!(Fraction::new(BigUint::from(5u32), BigUint::from(5u32)).to_string(), "1");
    }

    #[test]
    fn family_words() {
        assert!(Family::parse("cross", "plane", 2).is_ok());
        assert!(Family::parse("cros", "plane", 2).unwrap_err().to_string().contains("unknown rule"));
        assert!(Family::parse("cross", "donut", 2).unwrap_err().to_string().contains("unknown topology"));
        assert!(Family::parse("cross", "plane", 1).unwrap_err().to_string().contains("between 2 and 65536"));
        let f = Family::parse("{ .1. / 111 / .1. }", "torus", 3).unwrap();
        assert!(matches!(f.rule, Rule::Stencil(ref s) if s.rows == 3 && s.weights == vec![0, 1, 0, 1, 1, 1, 0, 1, 0]));
        assert!(!f.transposes());
        assert!(Family::parse("{ .1. / 121 / .1. }", "plane", 2).unwrap_err().to_string().contains("too large"));
        assert!(Family::parse("{ 11 }", "plane", 2).is_err());
    }
}
