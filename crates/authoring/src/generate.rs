//! Random solvable puzzles (`lights generate`).
//!
//! A position is drawn uniformly among the solvable ones: draw a uniform
//! press vector `x` on the free cells and set `lights = goal − A·x` (goal
//! off). The map `x ↦ A·x` is a group homomorphism, so every reachable
//! position is hit by exactly |kernel| press vectors, and a uniform `x` gives
//! a uniform reachable position. Filters are applied by rejection:
//!
//! - the all-off position, and a position already in the file, are skipped;
//! - `unique` needs a trivial kernel. The kernel depends only on the size,
//!   rule, topology, states and locked cells, so when it is not trivial the
//!   locks are redrawn (and when nothing is locked at random it can never
//!   change, which is an error straight away);
//! - `presses` keeps a position whose proven minimum number of presses is in
//!   the range.
//!
//! Each puzzle gets its own lock pattern (each cell locked with probability
//! F); after a run of rejected positions on one pattern a new one is drawn.
//!
//! Boards may be square or hexagonal (`grid hex`), or the nodes of a named
//! graph (`graph petersen`): the system comes from `lower`, which knows
//! every shape, and the text from [`value_statement`] (grids on boards, `at`
//! lists of nodes on graphs).
//!
//! Randomness comes from `ChaCha8Rng::seed_from_u64(seed)`, read only through
//! `next_u64` with the samplers below (not `rand`'s distributions, whose
//! algorithms may change between versions), so a seed gives the same file
//! on every platform and every version of the dependencies.

use std::collections::HashSet;
use std::fmt;
use std::ops::RangeInclusive;

use lights_algebra::{Kernel, KernelGenerator, Minimum, SparseMatrix};
use lights_compiler::edit::value_statement;
use lights_compiler::flags::rule_flag;
use lights_compiler::graph::{named, Graph, GraphKind, NamedGraphError, NAMED_GRAPHS};
use lights_compiler::lower::{lower, press_pattern};
use lights_compiler::minimum;
use lights_compiler::model::{Board, Puzzle, Rule, Shape, Topology, MAX_STATES, MIN_STATES, PER_CELL_LIMIT};
use lights_compiler::solve::unknowns_limit;
use lights_compiler::MinimumBudget;
use lights_syntax::format::{format_source, grid_statement, layout_rows, quote};
use num_bigint::BigUint;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Position draws per puzzle before giving up.
pub const MAX_ATTEMPTS: u64 = 2_000;
/// Lock patterns drawn per puzzle before giving up (each needs a kernel).
pub const MAX_LOCK_DRAWS: u64 = 500;
/// Position draws on one lock pattern before new locks are drawn (when
/// locks are random), so one unlucky pattern cannot use up every attempt.
const DRAWS_PER_LOCKS: u64 = 50;

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Square or hexagonal cells, or the nodes of a named graph (then
    /// `rows` is 1 and `cols` the number of nodes: see [`Options::on_graph`]).
    pub shape: Shape,
    pub rows: usize,
    pub cols: usize,
    pub rule: Rule,
    pub topology: Topology,
    pub states: u32,
    /// Each cell is locked with this probability (0 ≤ F < 1).
    pub locked_fraction: f64,
    /// Only puzzles with exactly one solution.
    pub unique: bool,
    /// Only puzzles whose proven minimum number of presses is in this range.
    pub presses: Option<RangeInclusive<u64>>,
    pub count: usize,
    pub seed: u64,
    /// Puzzles are named `PREFIX-1`, `PREFIX-2`, …
    pub name: String,
    /// The work the minimum search may do on each position (`0`: none; then
    /// only a position with one solution has a proven minimum).
    pub minimum_budget: MinimumBudget,
}

impl Options {
    /// Options with the defaults of `lights generate` for a board size.
    pub fn new(rows: usize, cols: usize, seed: u64) -> Options {
        Options {
            shape: Shape::Square,
            rows,
            cols,
            rule: Rule::Cross,
            topology: Topology::Plane,
            states: 2,
            locked_fraction: 0.0,
            unique: false,
            presses: None,
            count: 1,
            seed,
            name: "generated".to_string(),
            minimum_budget: MinimumBudget::default(),
        }
    }

    /// Options with the defaults of `lights generate` on a graph (one row
    /// of nodes).
    pub fn on_graph(graph: Graph, seed: u64) -> Options {
        Options { rows: 1, cols: graph.nodes(), shape: Shape::Graph(graph), ..Options::new(1, 1, seed) }
    }

    /// The command line that reproduces this output (shell-quoted).
    pub fn command_line(&self) -> String {
        let mut s = match &self.shape {
            Shape::Graph(g) => format!(
                "lights generate --graph {} --rule {} --states {}",
                shell_quote(&graph_flag(g)),
                shell_quote(&rule_flag(&self.rule)),
                self.states
            ),
            shape => format!(
                "lights generate --size {}x{}{} --rule {} --topology {} --states {}",
                self.rows,
                self.cols,
                if *shape == Shape::Hex { " --grid hex" } else { "" },
                shell_quote(&rule_flag(&self.rule)),
                self.topology.name(),
                self.states
            ),
        };
        if self.locked_fraction > 0.0 {
            s.push_str(&format!(" --locked-fraction {}", self.locked_fraction));
        }
        if self.unique {
            s.push_str(" --unique");
        }
        if let Some(r) = &self.presses {
            s.push_str(&format!(" --presses {}..{}", r.start(), r.end()));
        }
        if self.minimum_budget != MinimumBudget::default() {
            s.push_str(&format!(" --minimum-budget {}", self.minimum_budget));
        }
        s.push_str(&format!(" --count {} --seed {} --name {}", self.count, self.seed, shell_quote(&self.name)));
        s
    }
}

/// One generated puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedPuzzle {
    pub name: String,
    /// Row-major starting lights (the goal is all off).
    pub lights: Vec<u32>,
    /// Row-major: true where the button is locked.
    pub locked: Vec<bool>,
    /// The exact number of solutions.
    pub solutions: BigUint,
    /// The fewest presses found, and whether that is proven minimum.
    pub presses: u64,
    pub optimal: bool,
}

/// The generated puzzles and the `.lights` file that holds them.
#[derive(Clone, Debug)]
pub struct Generated {
    pub puzzles: Vec<GeneratedPuzzle>,
    /// A formatted `.lights` file: a header comment, then one block per puzzle.
    pub text: String,
    /// Position draws made in all (for statistics).
    pub attempts: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// An option is out of range.
    Invalid(String),
    /// `unique` on a board whose quiet patterns no lock draw can remove.
    NeverUnique(String),
    /// Every attempt was rejected.
    Exhausted(String),
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::Invalid(m) | GenerateError::NeverUnique(m) | GenerateError::Exhausted(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for GenerateError {}

/// A fresh random seed (from the operating system's generator).
pub fn random_seed() -> u64 {
    rand::rng().next_u64()
}

/// Generate `opts.count` puzzles. `progress(done)` is called after each one.
pub fn generate(opts: &Options, progress: &mut dyn FnMut(usize)) -> Result<Generated, GenerateError> {
    validate(opts)?;
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let cells = opts.rows * opts.cols;
    let random_locks = opts.locked_fraction > 0.0;
    let lock_threshold = probability_threshold(opts.locked_fraction);
    let mut cache: Option<Structure> = None;
    let mut seen: HashSet<(Vec<u32>, Vec<bool>)> = HashSet::new();
    let mut puzzles = Vec::with_capacity(opts.count.min(1024));
    let mut attempts = 0u64;

    for index in 0..opts.count {
        let mut tally = Tally::default();
        let mut lock_draws = 0u64;
        let mut draws_here = 0u64;
        if random_locks {
            // Every puzzle gets its own lock pattern.
            cache = None;
        }
        let found = loop {
            // (Re)draw the locks: at the start, and after a run of rejections.
            let need_locks = match &cache {
                None => true,
                Some(_) => random_locks && draws_here >= DRAWS_PER_LOCKS,
            };
            if need_locks {
                if lock_draws >= MAX_LOCK_DRAWS {
                    return Err(exhausted(opts, index, &tally, lock_draws));
                }
                lock_draws += 1;
                draws_here = 0;
                let locked: Vec<bool> = if random_locks {
                    (0..cells).map(|_| rng.next_u64() < lock_threshold).collect()
                } else {
                    vec![false; cells]
                };
                let structure = Structure::new(opts, locked)?;
                if opts.unique && !structure.cell_kernel.is_trivial() {
                    if !random_locks {
                        return Err(never_unique(opts, &structure.cell_kernel));
                    }
                    tally.not_unique_locks += 1;
                    cache = None;
                    continue;
                }
                if structure.free == 0 {
                    // Only possible with random locks: draw them again.
                    tally.all_locked += 1;
                    cache = None;
                    continue;
                }
                cache = Some(structure);
            }
            let Some(s) = cache.as_ref() else { continue };
            if tally.draws >= MAX_ATTEMPTS {
                return Err(exhausted(opts, index, &tally, lock_draws));
            }
            tally.draws += 1;
            draws_here += 1;
            attempts += 1;
            let x: Vec<u32> = (0..s.free).map(|_| uniform(&mut rng, u64::from(opts.states)) as u32).collect();
            let change = s.matrix.mul_vec(&x, opts.states);
            if change.iter().all(|&v| v == 0) {
                tally.all_off += 1;
                continue;
            }
            // lights = goal − A·x with the goal off.
            let lights: Vec<u32> = change.iter().map(|&v| (opts.states - v) % opts.states).collect();
            let key = (lights, s.locked.clone());
            if seen.contains(&key) {
                tally.duplicates += 1;
                continue;
            }
            // x solves the puzzle; the lightest solution is in x + kernel,
            // searched as every solve searches it (the puzzle's bounds too).
            let m = lightest(s, &x, &key.0, opts)?;
            if let Some(range) = &opts.presses {
                if !m.optimal {
                    tally.not_proven += 1;
                    continue;
                }
                tally.seen_presses(m.cost);
                if !range.contains(&m.cost) {
                    continue;
                }
            }
            seen.insert(key.clone());
            break GeneratedPuzzle {
                name: format!("{}-{}", opts.name, index + 1),
                lights: key.0,
                locked: key.1,
                solutions: s.cell_kernel.size(),
                presses: m.cost,
                optimal: m.optimal,
            };
        };
        puzzles.push(found);
        progress(index + 1);
    }

    let text = render(opts, &puzzles)?;
    Ok(Generated { puzzles, text, attempts })
}

/// The lightest solution in `x + kernel` within the options' minimum
/// budget, as `lights solve` finds it with that budget (`0`: `x` itself,
/// proven only when it is the only solution or has one press).
fn lightest(s: &Structure, x: &[u32], lights: &[u32], opts: &Options) -> Result<Minimum, GenerateError> {
    let solve = opts.minimum_budget.solve_options();
    if !solve.search_minimum {
        let cost = x.iter().map(|&v| u64::from(v)).sum();
        let optimal = s.cell_kernel.is_trivial() || cost == 1;
        return Ok(Minimum { x: x.to_vec(), cost, optimal, lower_bound: if optimal { cost } else { 1 } });
    }
    let puzzle = Puzzle { lights: Board::dense(lights.iter().map(|&v| v as u16).collect()), ..s.model.clone() };
    minimum::search(&puzzle, &s.to_cells(x), &s.cell_kernel, solve.minimum_work, &|| false)
        .map_err(|e| GenerateError::Invalid(format!("internal error in the minimum search: {e}")))
}

/// The system's matrix and kernel for one lock pattern.
struct Structure {
    locked: Vec<bool>,
    free: usize,
    matrix: SparseMatrix,
    /// The free cells, in the order of the system's unknowns.
    unknowns: Vec<usize>,
    /// The quiet patterns over the cells.
    cell_kernel: Kernel,
    /// The board with these locks, every light off.
    model: Puzzle,
}

impl Structure {
    fn new(opts: &Options, locked: Vec<bool>) -> Result<Structure, GenerateError> {
        let free = locked.iter().filter(|&&l| !l).count();
        check_free_cells(opts, free)?;
        let p = puzzle_model(opts, locked.clone());
        let system = lower(&p);
        let zeros = vec![0u32; system.matrix.rows];
        let solution = lights_algebra::solve(&system.matrix, &zeros, opts.states)
            .map_err(|e| GenerateError::Invalid(format!("internal solver error: {e}")))?;
        let mut s = Structure {
            locked,
            free,
            matrix: system.matrix,
            unknowns: system.unknowns,
            cell_kernel: Kernel { generators: Vec::new() },
            model: p,
        };
        s.cell_kernel = Kernel {
            generators: solution
                .kernel
                .generators
                .iter()
                .map(|g| KernelGenerator { vector: s.to_cells(&g.vector), order: g.order })
                .collect(),
        };
        Ok(s)
    }

    /// A vector over the unknowns, spread over the cells.
    fn to_cells(&self, x: &[u32]) -> Vec<u32> {
        let mut cells = vec![0u32; self.model.cells()];
        for (&cell, &v) in self.unknowns.iter().zip(x) {
            cells[cell] = v;
        }
        cells
    }
}

/// The solver's limit on unknowns.
fn check_free_cells(opts: &Options, free: usize) -> Result<(), GenerateError> {
    let limit = unknowns_limit(opts.states);
    if free > limit {
        return Err(GenerateError::Invalid(format!(
            "{} has {free} free {}; the solver takes at most {limit} with --states {} \
             (choose a smaller size, or lock more cells with --locked-fraction)",
            board_words(opts),
            if opts.shape.graph().is_some() { "nodes" } else { "cells" },
            opts.states
        )));
    }
    Ok(())
}

/// Why draws were rejected, for the error when every one was.
#[derive(Default)]
struct Tally {
    draws: u64,
    all_off: u64,
    duplicates: u64,
    not_proven: u64,
    not_unique_locks: u64,
    all_locked: u64,
    presses_seen: Option<(u64, u64)>,
}

impl Tally {
    fn seen_presses(&mut self, cost: u64) {
        self.presses_seen = Some(match self.presses_seen {
            None => (cost, cost),
            Some((lo, hi)) => (lo.min(cost), hi.max(cost)),
        });
    }
}

/// `a 5x5 board`, `a 5x6 hex board`, `the graph petersen`.
fn board_words(opts: &Options) -> String {
    match &opts.shape {
        Shape::Square => format!("a {}x{} board", opts.rows, opts.cols),
        Shape::Hex => format!("a {}x{} hex board", opts.rows, opts.cols),
        Shape::Graph(g) => format!("the graph {}", g.describe()),
    }
}

fn validate(opts: &Options) -> Result<(), GenerateError> {
    let bad = |m: String| Err(GenerateError::Invalid(m));
    match &opts.shape {
        Shape::Square => {}
        Shape::Hex => {
            if !matches!(opts.rule, Rule::Cross | Rule::Ring) {
                return bad(format!(
                    "--grid hex takes --rule cross or ring, not {} (king, flip, merlin and stencils are square-grid rules)",
                    shell_quote(&rule_flag(&opts.rule))
                ));
            }
            match opts.topology {
                Topology::Plane | Topology::Cylinder => {}
                Topology::Torus if opts.rows.is_multiple_of(2) => {}
                Topology::Torus => {
                    return bad(format!(
                        "--grid hex --topology torus needs an even number of rows (the shifted rows must \
                         alternate all the way round), not {}",
                        opts.rows
                    ))
                }
                t => {
                    return bad(format!(
                        "--grid hex takes --topology plane, cylinder or torus, not {} (twisted surfaces are not \
                         defined on hex grids)",
                        t.name()
                    ))
                }
            }
        }
        Shape::Graph(g) => {
            if g.kind == GraphKind::Custom {
                return bad("only named graphs can be generated (--graph petersen, --graph cycle:7, …)".into());
            }
            if !matches!(opts.rule, Rule::Cross | Rule::Ring) {
                return bad(format!(
                    "--graph takes --rule cross or ring, not {} (king, flip, merlin and stencils are square-grid rules)",
                    shell_quote(&rule_flag(&opts.rule))
                ));
            }
            if opts.topology != Topology::Plane {
                return bad("a graph has no topology: leave out --topology with --graph".into());
            }
            if (opts.rows, opts.cols) != (1, g.nodes()) {
                return bad(format!(
                    "internal error: a graph of {} nodes on a {}x{} board",
                    g.nodes(),
                    opts.rows,
                    opts.cols
                ));
            }
        }
    }
    if opts.rows == 0 || opts.cols == 0 {
        return bad("the board needs at least one row and one column".into());
    }
    if (opts.rows as u64).saturating_mul(opts.cols as u64) > PER_CELL_LIMIT as u64 {
        return bad(format!("a generated board has at most {PER_CELL_LIMIT} cells"));
    }
    if !(MIN_STATES..=MAX_STATES).contains(&u64::from(opts.states)) {
        return bad(format!("--states must be between {MIN_STATES} and {MAX_STATES}"));
    }
    if let Rule::Stencil(s) = &opts.rule {
        if s.weights.iter().any(|&w| w >= opts.states) {
            return bad(format!("every weight of the stencil must be below --states {}", opts.states));
        }
    }
    if !(0.0..1.0).contains(&opts.locked_fraction) {
        return bad(format!("--locked-fraction must be at least 0 and below 1, not {}", opts.locked_fraction));
    }
    if opts.count == 0 {
        return bad("--count must be at least 1".into());
    }
    if opts.locked_fraction == 0.0 {
        // Nothing will be locked: refuse an oversized board before building it.
        check_free_cells(opts, opts.rows * opts.cols)?;
    }
    if let Some(r) = &opts.presses {
        if r.start() > r.end() {
            return bad(format!("--presses {}..{} is an empty range", r.start(), r.end()));
        }
    }
    // Every position drawn would be all off. Stops at the first press that
    // changes something (the first cell, on any usual board).
    let model = board_model(opts);
    if (0..opts.rows).all(|r| (0..opts.cols).all(|c| press_pattern(&model, r, c).is_empty())) {
        return bad(format!(
            "no press changes any light on {} with --rule {}: there is no puzzle to make",
            board_words(opts),
            shell_quote(&rule_flag(&opts.rule))
        ));
    }
    check_name(&opts.name).map_err(|e| GenerateError::Invalid(e.to_string()))
}

/// A name (or prefix) must be non-empty and printable: it lands in comments
/// and in quoted puzzle names.
pub fn check_name(name: &str) -> Result<(), NameError> {
    if name.trim().is_empty() {
        return Err(NameError::Empty);
    }
    if name.chars().any(char::is_control) {
        return Err(NameError::ControlCharacters);
    }
    Ok(())
}

fn never_unique(opts: &Options, kernel: &Kernel) -> GenerateError {
    let surface = if opts.shape.graph().is_some() { String::new() } else { format!(" on a {}", opts.topology.name()) };
    GenerateError::NeverUnique(format!(
        "{} with rule {}{surface} with {} states can never have a unique solution: every solvable \
         position has {} solutions (pressing a quiet pattern changes nothing); lock some cells at random with \
         --locked-fraction (e.g. 0.2), or choose another {}",
        board_words(opts),
        opts.rule.name(),
        opts.states,
        kernel.size(),
        if opts.shape.graph().is_some() { "graph" } else { "size" }
    ))
}

fn exhausted(opts: &Options, index: usize, t: &Tally, lock_draws: u64) -> GenerateError {
    let mut why = Vec::new();
    if t.not_unique_locks > 0 {
        why.push(format!("{} of {lock_draws} lock patterns left more than one solution", t.not_unique_locks));
    }
    if t.all_locked > 0 {
        why.push(format!("{} lock patterns locked every cell", t.all_locked));
    }
    if t.all_off > 0 {
        why.push(format!("{} positions were all off", t.all_off));
    }
    if t.duplicates > 0 {
        why.push(format!("{} repeated an earlier puzzle", t.duplicates));
    }
    if t.not_proven > 0 {
        let budget = if opts.minimum_budget.duration().is_zero() {
            " (--minimum-budget 0 does no search)".to_string()
        } else {
            format!(" within --minimum-budget {}", opts.minimum_budget)
        };
        why.push(format!("{} had a minimum number of presses that could not be proven{budget}", t.not_proven));
    }
    if let (Some(range), Some((lo, hi))) = (&opts.presses, t.presses_seen) {
        why.push(format!(
            "the minimum presses of the positions drawn ranged over {lo}..{hi}, outside --presses {}..{}",
            range.start(),
            range.end()
        ));
    }
    let why = if why.is_empty() { String::new() } else { format!(": {}", why.join("; ")) };
    let advice = if opts.unique && t.not_unique_locks > 0 {
        "; try a larger --locked-fraction or another size"
    } else if opts.presses.is_some() {
        "; widen --presses or change the board"
    } else {
        "; ask for fewer puzzles or a larger board"
    };
    GenerateError::Exhausted(format!(
        "could not generate puzzle {} of {} after {} position draws{why}{advice}",
        index + 1,
        opts.count,
        t.draws
    ))
}

/// The puzzle model of the board with every light off (only its structure is used).
fn puzzle_model(opts: &Options, locked: Vec<bool>) -> Puzzle {
    let locked = lights_compiler::model::Board::dense(locked.iter().map(|&l| u16::from(l)).collect());
    Puzzle { locked, ..board_model(opts) }
}

/// The board of the options, nothing locked, every light off.
fn board_model(opts: &Options) -> Puzzle {
    Puzzle {
        shape: opts.shape.clone(),
        ..Puzzle::new(opts.rows, opts.cols, opts.states, opts.rule.clone(), opts.topology)
    }
}

/// The `.lights` file for the generated puzzles, in canonical form.
fn render(opts: &Options, puzzles: &[GeneratedPuzzle]) -> Result<String, GenerateError> {
    let mut out = String::new();
    out.push_str(&format!(
        "// {}; this command makes the same file again:\n// {}\n",
        lights_compiler::summary::count(puzzles.len(), "random solvable puzzle"),
        opts.command_line()
    ));
    let model = puzzle_model(opts, vec![false; opts.rows * opts.cols]);
    for p in puzzles {
        out.push('\n');
        out.push_str(&format!("puzzle {} {{\n", quote(&p.name)));
        match &opts.shape {
            Shape::Graph(g) => out.push_str(&format!("  graph {}\n", g.describe())),
            Shape::Hex => out.push_str(&format!("  size {}x{}\n  grid hex\n", opts.rows, opts.cols)),
            Shape::Square => out.push_str(&format!("  size {}x{}\n", opts.rows, opts.cols)),
        }
        if opts.states != 2 {
            out.push_str(&format!("  states {}\n", opts.states));
        }
        match &opts.rule {
            Rule::Cross => {}
            Rule::Stencil(s) => {
                out.push_str(&grid_statement("rule", s.rows, s.cols, &s.weights));
                out.push('\n');
            }
            named => out.push_str(&format!("  rule {}\n", named.name())),
        }
        if opts.topology != Topology::Plane {
            out.push_str(&format!("  topology {}\n", opts.topology.name()));
        }
        if opts.shape == Shape::Square {
            out.push_str(&grid_statement("lights", opts.rows, opts.cols, &p.lights));
        } else {
            out.push_str(&value_statement("lights", &model, &p.lights));
        }
        out.push('\n');
        if p.locked.iter().any(|&l| l) {
            if model.is_graph() {
                let marks: Vec<u32> = p.locked.iter().map(|&l| u32::from(l)).collect();
                out.push_str(&value_statement("locked", &model, &marks));
            } else {
                out.push_str(&mask_statement(opts.rows, opts.cols, &p.locked));
            }
            out.push('\n');
        }
        for claim in claims(p) {
            out.push_str(&format!("  {claim}\n"));
        }
        out.push_str("}\n");
    }
    format_source(&out).map_err(|e| GenerateError::Invalid(format!("internal error: generated text: {e}")))
}

/// `expect unique` or `expect solutions N`, plus `expect presses N` when proven.
fn claims(p: &GeneratedPuzzle) -> Vec<String> {
    let mut out = vec![if p.solutions == BigUint::from(1u32) {
        "expect unique".to_string()
    } else {
        format!("expect solutions {}", p.solutions)
    }];
    if p.optimal {
        out.push(format!("expect presses {}", p.presses));
    }
    out
}

/// A canonical `locked { … }` grid: `x` locked, `.` free.
fn mask_statement(rows: usize, cols: usize, locked: &[bool]) -> String {
    let cells: Vec<Vec<&str>> =
        (0..rows).map(|r| (0..cols).map(|c| if locked[r * cols + c] { "x" } else { "." }).collect()).collect();
    let mut out = String::from("  locked {\n");
    for row in layout_rows(&cells, cols) {
        out.push_str(&format!("    {row}\n"));
    }
    out.push_str("  }");
    out
}

/// Why `--graph` does not name a graph; the message says what to write.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphFlagError {
    #[error("the size of `{name}` must be a whole number, not `{size}` (write e.g. `{name}:7`)")]
    NotAWholeNumber { name: String, size: String },
    /// `names`: the named graphs, those with a size written `NAME:N`.
    #[error("unknown graph `{name}`; the named graphs are {}", names.join(", "))]
    Unknown { name: String, names: Vec<String> },
    #[error("`{name}` needs a size: write e.g. `{name}:7`")]
    NeedsSize { name: String },
    #[error("`cube` takes no size: write `cube`, or `cube-surface:N` for the surface of an N×N×N cube")]
    CubeTakesNoSize,
    #[error("`{name}` takes no size: write `{name}`")]
    TakesNoSize { name: String },
    /// The family's range, said in full (`cycle:N takes 3 ≤ N ≤ …`).
    #[error("{0}")]
    SizeOutOfRange(String),
}

/// Why a name (or prefix) given to `--name` is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("--name must not be empty")]
    Empty,
    #[error("--name must not contain control characters (tabs, line breaks, …)")]
    ControlCharacters,
}

/// A named graph as `--graph` takes it: `petersen`, or a family and its
/// size, `cycle:7` (also `cycle 7` or `cycle=7`).
pub fn parse_graph(text: &str) -> Result<Graph, GraphFlagError> {
    let t = text.trim();
    let (name, size) = match t.split_once(|c: char| c == ':' || c == '=' || c.is_whitespace()) {
        Some((name, size)) => (name.trim(), Some(size.trim())),
        None => (t, None),
    };
    let names: Vec<String> =
        NAMED_GRAPHS.iter().map(|(n, sized)| if *sized { format!("{n}:N") } else { n.to_string() }).collect();
    let size = match size {
        None => None,
        Some(n) => Some(
            n.parse::<u64>()
                .map_err(|_| GraphFlagError::NotAWholeNumber { name: name.to_string(), size: n.to_string() })?,
        ),
    };
    named(name, size).map_err(|e| match e {
        NamedGraphError::Unknown => GraphFlagError::Unknown { name: name.to_string(), names },
        NamedGraphError::NeedsSize => GraphFlagError::NeedsSize { name: name.to_string() },
        NamedGraphError::TakesNoSize if name == "cube" => GraphFlagError::CubeTakesNoSize,
        NamedGraphError::TakesNoSize => GraphFlagError::TakesNoSize { name: name.to_string() },
        NamedGraphError::SizeOutOfRange(range) => GraphFlagError::SizeOutOfRange(range),
    })
}

/// The `--graph` flag that gives this graph back (`petersen`, `cycle:7`).
pub fn graph_flag(g: &Graph) -> String {
    g.describe().replacen(' ', ":", 1)
}

/// A uniform integer in `0..n` (n ≥ 1), unbiased: draws below `2^64 mod n`
/// are rejected.
fn uniform(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    let reject_below = n.wrapping_neg() % n;
    loop {
        let r = rng.next_u64();
        if r >= reject_below {
            return r % n;
        }
    }
}

/// `next_u64() < threshold` happens with probability `p` (to 2⁻⁶⁴).
fn probability_threshold(p: f64) -> u64 {
    if p <= 0.0 {
        0
    } else {
        // p < 1, so the product is below 2^64; `as` saturates anyway.
        (p * 18_446_744_073_709_551_616.0) as u64
    }
}

fn shell_quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "._-/:,+=".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_covers_the_range() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut seen = [0u32; 3];
        for _ in 0..3000 {
            seen[uniform(&mut rng, 3) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (900..1100).contains(&n)), "{seen:?}");
        assert_eq!(uniform(&mut rng, 1), 0);
    }

    #[test]
    fn thresholds() {
        assert_eq!(probability_threshold(0.0), 0);
        assert_eq!(probability_threshold(0.5), 1 << 63);
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(shell_quote("level"), "level");
        assert_eq!(shell_quote("my level"), "'my level'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
    }
}
