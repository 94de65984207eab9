//! The linear system of a puzzle, for other tools (`lights compile`): JSON,
//! and a SageMath script that builds the same system and solves it.
//!
//! The system is the one the solver answers (`lights_compiler::lower`):
//! `A·x ≡ b (mod W)` where `x[j]` is how many times the j-th free cell is
//! pressed, row `i` of `A` is cell `i` (row-major), column `j` is the press
//! pattern of unknown `j`, and `b = goal − lights (mod W)`.
//!
//! Hex boards are written like square ones (cells in reading order, the
//! press patterns are the hexagonal ones) with `"shape": "hex"`. A graph
//! puzzle is one row of nodes: cell `[1, k]` is node `k`; the JSON adds
//! `"shape": "graph"` and the graph (`name`, `nodes`, 1-based `edges`), and
//! the Sage script names unknowns by node. Holes have no button, so they
//! are no unknown; they keep their row (all 0, with `b` 0: the equation
//! 0 = 0), so row `i` is still cell `i`, and are listed in `holes`. Square
//! boards without holes are written exactly as before these fields existed.

use std::io::{self, Write};

use lights_compiler::lower::press_pattern;
use lights_compiler::model::{Gluing, GraphKind, Puzzle, Rule, Shape};
use serde::{Deserialize, Serialize};

/// What the JSON says the system means.
pub const MEANING: &str = "A·x ≡ b (mod W): x[j] is how many times the cell unknowns[j] is pressed (0…W−1); \
    row i of A and b[i] are the cell (i div cols + 1, i mod cols + 1), rows in reading order; \
    column j of A is what one press of unknowns[j] adds to each cell; b = goal − lights (mod W). \
    Matrix indices are 0-based, cells 1-based (row, column).";

/// What the JSON says the system of a graph puzzle means.
pub const MEANING_GRAPH: &str = "A·x ≡ b (mod W) on the nodes of a graph, written as one row of nodes (cell [1, k] is \
    node k): x[j] is how many times the node unknowns[j][1] is pressed (0…W−1); row i of A and b[i] are node i + 1; \
    column j of A is what one press of that node adds to each node (the node itself unless the rule is ring, and its \
    neighbours along graph.edges); b = goal − lights (mod W). Matrix indices are 0-based, nodes 1-based.";

/// Added to the meaning when the puzzle has holes.
pub const MEANING_HOLES: &str = " The cells listed in holes have no light and no button: they are no unknown, and \
    their rows of A and entries of b are 0.";

/// The system as JSON (the `lights compile --emit json` format, version 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SystemJson {
    /// Always `lights-linear-system`.
    pub format: String,
    pub version: u32,
    pub puzzle: String,
    pub meaning: String,
    /// The modulus W.
    pub modulus: u32,
    pub size: BoardSize,
    pub rule: String,
    pub topology: String,
    /// `hex` or `graph`; absent on square boards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// The graph of a graph puzzle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph: Option<GraphJson>,
    /// The holes, 1-based `[row, column]` (`[1, node]` on a graph); absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<[usize; 2]>,
    /// The cell (1-based `[row, column]`) of each unknown: the free cells in
    /// reading order (`[1, node]` on a graph).
    pub unknowns: Vec<[usize; 2]>,
    pub matrix: MatrixJson,
    /// `goal − lights (mod W)`, one entry per cell in reading order.
    pub b: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSize {
    pub rows: usize,
    pub cols: usize,
}

/// The graph of a graph puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphJson {
    /// As the language writes it (`petersen`, `cycle 7`), or `custom` for an edge list.
    pub name: String,
    /// Nodes are numbered 1…nodes (numbers an edge list leaves out are holes).
    pub nodes: usize,
    /// Every edge once, `[a, b]` with a < b, 1-based.
    pub edges: Vec<[usize; 2]>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatrixJson {
    /// `[rows, columns]`: cells × unknowns.
    pub shape: [usize; 2],
    /// Nonzero entries `[row, column, value]` (0-based, value in 1…W−1),
    /// sorted by row, then column.
    pub entries: Vec<[u32; 3]>,
}

/// `lights compile` writes systems of at most this many matrix entries
/// (nonzeros) and cells: about 20 bytes of output and 12 of memory each
/// (200 MB of JSON at most). [`entry_bound`] is checked against it before
/// anything is built.
pub const MAX_ENTRIES: u64 = 10_000_000;

/// An upper bound on the number of nonzero entries of the puzzle's matrix,
/// from its size and rule alone (nothing is built): cells × the cells one
/// press can reach, or on a graph its nodes plus twice its edges.
pub fn entry_bound(p: &Puzzle) -> u64 {
    let cells = p.cells() as u64;
    let per_press: u64 = match (&p.shape, &p.rule) {
        (Shape::Graph(g), _) => return (g.nodes() as u64).saturating_add((g.edge_count() as u64).saturating_mul(2)),
        (Shape::Hex, _) => 7,
        (_, Rule::Cross | Rule::Merlin | Rule::Ring) => 5,
        (_, Rule::King) => 9,
        // Its row and column, and their mirrors across twisted borders.
        (_, Rule::Flip) => {
            let twisted = [p.topology.rows(), p.topology.columns()].contains(&Gluing::Twisted);
            let lines = p.rows as u64 + p.cols as u64;
            if twisted {
                2 * lines
            } else {
                lines - 1
            }
        }
        (_, Rule::Stencil(st)) => st.weights.iter().filter(|&&w| w != 0).count() as u64,
    };
    cells.saturating_mul(per_press)
}

/// The system, built once for both writers: entries sorted by row, then
/// column, 12 bytes each.
struct System {
    modulus: u32,
    /// The cell of each unknown (the cells with a button, in reading order).
    unknowns: Vec<usize>,
    entries: Vec<[u32; 3]>,
    rhs: Vec<u32>,
}

impl System {
    /// The system the solver answers (`lights_compiler::lower`), built from
    /// the same press patterns, straight into sorted entries.
    fn of(p: &Puzzle) -> System {
        let w = p.states;
        let unknowns: Vec<usize> = (0..p.cells()).filter(|&i| !p.is_locked(i)).collect();
        let mut entries: Vec<[u32; 3]> = Vec::new();
        for (col, &cell) in unknowns.iter().enumerate() {
            for (row, weight) in press_pattern(p, cell / p.cols, cell % p.cols) {
                if weight % w != 0 {
                    entries.push([row as u32, col as u32, weight % w]);
                }
            }
        }
        entries.sort_unstable();
        let rhs = p.goal.iter().zip(p.lights.iter()).map(|(g, l)| (u32::from(g) + w - u32::from(l)) % w).collect();
        System { modulus: w, unknowns, entries, rhs }
    }
}

/// 1-based `[row, column]` of cell `i`.
fn cell_of(p: &Puzzle, i: usize) -> [usize; 2] {
    [i / p.cols + 1, i % p.cols + 1]
}

fn meaning(p: &Puzzle) -> String {
    let mut meaning = if p.is_graph() { MEANING_GRAPH } else { MEANING }.to_string();
    if p.has_holes() {
        meaning.push_str(MEANING_HOLES);
    }
    meaning
}

fn graph_name(g: &lights_compiler::graph::Graph) -> String {
    if g.kind == GraphKind::Custom {
        "custom".to_string()
    } else {
        g.describe()
    }
}

/// The system of a puzzle, ready to serialise (all in memory: for tests and
/// small puzzles; [`write_json`] streams the same text).
pub fn system_json(p: &Puzzle) -> SystemJson {
    let sys = System::of(p);
    let holes: Vec<[usize; 2]> = (0..p.cells()).filter(|&i| p.is_hole(i)).map(|i| cell_of(p, i)).collect();
    let graph = p.shape.graph().map(|g| GraphJson {
        name: graph_name(g),
        nodes: g.nodes(),
        edges: g.edges().map(|(a, b)| [a + 1, b + 1]).collect(),
    });
    SystemJson {
        format: "lights-linear-system".to_string(),
        version: 1,
        puzzle: p.header.name.clone(),
        meaning: meaning(p),
        modulus: sys.modulus,
        size: BoardSize { rows: p.rows, cols: p.cols },
        rule: rule_text(&p.rule),
        topology: p.topology.name().to_string(),
        shape: (p.shape != Shape::Square).then(|| p.shape.name().to_string()),
        graph,
        holes,
        unknowns: sys.unknowns.iter().map(|&i| cell_of(p, i)).collect(),
        matrix: MatrixJson { shape: [p.cells(), sys.unknowns.len()], entries: sys.entries },
        b: sys.rhs,
    }
}

/// The JSON text (see [`write_json`]).
pub fn json_text(p: &Puzzle) -> String {
    let mut out = Vec::new();
    let _ = write_json(p, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Write the JSON: pretty, fields in the order of [`SystemJson`], arrays of
/// numbers on one line (so a matrix entry is one line), ending with a
/// newline. Streamed: entries are written as they go, never held as text.
pub fn write_json(p: &Puzzle, out: &mut dyn Write) -> io::Result<()> {
    let sys = System::of(p);
    let mut o = Object { out, depth: 0, first: true };
    o.open()?;
    o.field("format", |w| write_str(w, "lights-linear-system"))?;
    o.field("version", |w| write!(w, "1"))?;
    o.field("puzzle", |w| write_str(w, &p.header.name))?;
    o.field("meaning", |w| write_str(w, &meaning(p)))?;
    o.field("modulus", |w| write!(w, "{}", sys.modulus))?;
    o.object("size", |o| {
        o.field("rows", |w| write!(w, "{}", p.rows))?;
        o.field("cols", |w| write!(w, "{}", p.cols))
    })?;
    o.field("rule", |w| write_str(w, &rule_text(&p.rule)))?;
    o.field("topology", |w| write_str(w, p.topology.name()))?;
    if p.shape != Shape::Square {
        o.field("shape", |w| write_str(w, p.shape.name()))?;
    }
    if let Some(g) = p.shape.graph() {
        o.object("graph", |o| {
            o.field("name", |w| write_str(w, &graph_name(g)))?;
            o.field("nodes", |w| write!(w, "{}", g.nodes()))?;
            let depth = o.depth + 1;
            o.field("edges", |w| rows_of(w, depth, g.edges().map(|(a, b)| [a + 1, b + 1])))
        })?;
    }
    if p.has_holes() {
        let holes = (0..p.cells()).filter(|&i| p.is_hole(i)).map(|i| cell_of(p, i));
        o.field("holes", |w| rows_of(w, 1, holes))?;
    }
    o.field("unknowns", |w| rows_of(w, 1, sys.unknowns.iter().map(|&i| cell_of(p, i))))?;
    o.object("matrix", |o| {
        o.field("shape", |w| write!(w, "[{}, {}]", p.cells(), sys.unknowns.len()))?;
        o.field("entries", |w| rows_of(w, 2, sys.entries.iter().copied()))
    })?;
    o.field("b", |w| numbers(w, sys.rhs.iter()))?;
    o.close()?;
    writeln!(o.out)
}

/// A JSON object being written, one field a line, indented by depth.
struct Object<'w> {
    out: &'w mut dyn Write,
    depth: usize,
    first: bool,
}

impl Object<'_> {
    fn open(&mut self) -> io::Result<()> {
        write!(self.out, "{{")
    }

    fn close(&mut self) -> io::Result<()> {
        write!(self.out, "\n{}}}", "  ".repeat(self.depth))
    }

    fn field(&mut self, key: &str, value: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        let sep = if std::mem::replace(&mut self.first, false) { "" } else { "," };
        write!(self.out, "{sep}\n{}", "  ".repeat(self.depth + 1))?;
        write_str(self.out, key)?;
        write!(self.out, ": ")?;
        value(self.out)
    }

    fn object(&mut self, key: &str, fields: impl FnOnce(&mut Object) -> io::Result<()>) -> io::Result<()> {
        let depth = self.depth + 1;
        self.field(key, |w| {
            let mut inner = Object { out: w, depth, first: true };
            inner.open()?;
            fields(&mut inner)?;
            inner.close()
        })
    }
}

/// A JSON string.
fn write_str(w: &mut dyn Write, s: &str) -> io::Result<()> {
    serde_json::to_writer(&mut *w, s).map_err(io::Error::other)
}

/// `[1, 2, 3]` on one line.
fn numbers<T: std::fmt::Display>(w: &mut dyn Write, items: impl Iterator<Item = T>) -> io::Result<()> {
    write!(w, "[")?;
    for (k, v) in items.enumerate() {
        write!(w, "{}{v}", if k == 0 { "" } else { ", " })?;
    }
    write!(w, "]")
}

/// An array of number arrays, one a line, as a field at `depth` (`[]` when empty).
fn rows_of<T: std::fmt::Display + Copy, const N: usize>(
    w: &mut dyn Write,
    depth: usize,
    rows: impl Iterator<Item = [T; N]>,
) -> io::Result<()> {
    let pad = "  ".repeat(depth + 1);
    let mut any = false;
    for row in rows {
        write!(w, "{}{pad}", if any { ",\n" } else { "[\n" })?;
        numbers(w, row.iter())?;
        any = true;
    }
    if any {
        write!(w, "\n{}]", "  ".repeat(depth))
    } else {
        write!(w, "[]")
    }
}

fn rule_text(rule: &Rule) -> String {
    match rule {
        Rule::Stencil(_) => format!("stencil {}", lights_compiler::flags::rule_flag(rule)),
        named => named.name().to_string(),
    }
}

/// A SageMath script that builds the system and prints whether it is
/// solvable, the number of solutions and one solution. Correct for every
/// modulus: a prime W is solved over the field GF(W); any other W over the
/// integers, with the Smith normal form (see the comment in the script).
pub fn sage_script(p: &Puzzle) -> String {
    let mut out = Vec::new();
    let _ = write_sage(p, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Write the Sage script of [`sage_script`], streamed.
pub fn write_sage(p: &Puzzle, out: &mut dyn Write) -> io::Result<()> {
    let sys = System::of(p);
    writeln!(
        out,
        "# SageMath script generated by `lights compile --emit sage` for puzzle {}.",
        py_string(&p.header.name)
    )?;
    let graph = p.is_graph();
    if graph {
        out.write_all(
            "# Run it with `sage FILE.sage`. It builds the puzzle's linear system\n\
             #     A·x ≡ b (mod W)\n\
             # on the nodes of a graph: x[j]: how many times the node unknowns[j] is pressed;\n\
             # row i of A and b[i]: node i + 1;\n\
             # column j of A: what one press of unknowns[j] adds to each node;\n\
             # b = goal - lights (mod W). It prints whether a solution exists, how many\n\
             # there are (press counts taken modulo W), and one of them.\n"
                .as_bytes(),
        )?;
    } else {
        out.write_all(
            "# Run it with `sage FILE.sage`. It builds the puzzle's linear system\n\
             #     A·x ≡ b (mod W)\n\
             # x[j]: how many times the cell unknowns[j] (1-based row, column) is pressed;\n\
             # row i of A and b[i]: the cell (i // C + 1, i % C + 1), in reading order;\n\
             # column j of A: what one press of unknowns[j] adds to each cell;\n\
             # b = goal - lights (mod W). It prints whether a solution exists, how many\n\
             # there are (press counts taken modulo W), and one of them.\n"
                .as_bytes(),
        )?;
    }
    if p.shape == Shape::Hex {
        out.write_all(
            "# The cells are hexagons (`grid hex`): rows 2, 4, … are shifted right by half\n\
             # a cell, and a press reaches the six cells around.\n"
                .as_bytes(),
        )?;
    }
    if p.has_holes() {
        out.write_all(b"# Holes (no light, no button) are no unknown; their rows of A and b are 0.\n")?;
    }
    out.write_all(
        "#\n\
         # Method. Sage's solve over Zmod(W) is not reliable when W is composite\n\
         # (Zmod(W) is not a field), so the system is solved over the integers:\n\
         # the Smith normal form D = U*A*V (U, V invertible over ZZ, D diagonal)\n\
         # turns A·x ≡ b into D·y ≡ c = U·b (mod W) with x = V·y, a bijection\n\
         # modulo W. Each nonzero d = D[i,j] gives one congruence d·y_j ≡ c_i\n\
         # (mod W): with g = gcd(d, W) it has a solution iff g divides c_i, and\n\
         # then exactly g solutions modulo W. A zero row of D needs c_i ≡ 0, and\n\
         # an unknown with a zero column is free (W choices). So: solvable iff\n\
         # every congruence is, number of solutions = product of those counts,\n\
         # one solution x = V·y (mod W). When W is prime the same answer comes\n\
         # faster over the field GF(W): count = W^(n - rank A).\n\n"
            .as_bytes(),
    )?;
    let (m, n) = (p.cells(), sys.unknowns.len());
    writeln!(out, "W = {}", sys.modulus)?;
    if graph {
        writeln!(out, "N = {}  # nodes", p.cols)?;
        writeln!(out, "m, n = {m}, {n}  # equations (nodes) and unknowns (free nodes)")?;
    } else {
        writeln!(out, "R, C = {}, {}  # board rows and columns", p.rows, p.cols)?;
        writeln!(out, "m, n = {m}, {n}  # equations (cells) and unknowns (free cells)")?;
    }
    let unknowns = sys.unknowns.iter().map(|&i| cell_of(p, i));
    if graph {
        list(out, "unknowns = [", unknowns.map(|[_, node]| node.to_string()), "]\n")?;
    } else {
        list(out, "unknowns = [", unknowns.map(|[r, c]| format!("({r}, {c})")), "]\n")?;
    }
    list(
        out,
        "# Nonzero entries of A: (row, column, value), 0-based.\nentries = [",
        sys.entries.iter().map(|[i, j, v]| format!("({i}, {j}, {v})")),
        "]\n",
    )?;
    list(out, "b = vector(ZZ, [", sys.rhs.iter().map(std::string::ToString::to_string), "])\n")?;
    out.write_all(SAGE_SOLVER.as_bytes())?;
    out.write_all(if graph { SAGE_PRINT_NODES } else { SAGE_PRINT_CELLS }.as_bytes())
}

/// `head`, the items wrapped ([`write_wrapped`]) after its last line, `tail`.
fn list(out: &mut dyn Write, head: &str, items: impl Iterator<Item = String>, tail: &str) -> io::Result<()> {
    out.write_all(head.as_bytes())?;
    write_wrapped(out, items, head.rsplit('\n').next().unwrap_or("").len())?;
    out.write_all(tail.as_bytes())
}

/// The solving part of the Sage script (the same for every puzzle).
const SAGE_SOLVER: &str = r#"A = matrix(ZZ, m, n, {(i, j): v for (i, j, v) in entries}, sparse=False)


def solve_mod(A, b, W):
    """(solvable, number of solutions, one solution or None) of A*x = b (mod W)."""
    m, n = A.nrows(), A.ncols()
    if n == 0:
        ok = all(bi % W == 0 for bi in b)
        return ok, (1 if ok else 0), (vector(ZZ, []) if ok else None)
    if is_prime(W):
        F = GF(W)
        AF, bF = A.change_ring(F), b.change_ring(F)
        count = W ** (n - AF.rank())
        try:
            x = AF.solve_right(bF)
        except ValueError:
            return False, 0, None
        return True, count, vector(ZZ, [ZZ(v) for v in x])
    D, U, V = A.smith_form()  # D == U*A*V
    assert D == U * A * V
    # Sage versions differ in where D's nonzero entries sit (leading or
    # trailing, for non-square A); all that matters is that each row and each
    # column of D holds at most one, so D*y = c splits into one congruence per row.
    c = U * b
    y = [0] * n
    count = 1
    rows_used, cols_used = set(), set()
    for (i, j) in D.nonzero_positions():
        assert i not in rows_used and j not in cols_used, "D is not diagonal"
        rows_used.add(i)
        cols_used.add(j)
        d = D[i, j]
        g = gcd(d, W)
        if c[i] % g != 0:
            return False, 0, None
        count *= g
        q = W // g  # y_j = (c_i/g) * (d/g)^-1 (mod W/g)
        y[j] = 0 if q == 1 else ((c[i] // g) * inverse_mod((d // g) % q, q)) % q
    for i in range(m):
        if i not in rows_used and c[i] % W != 0:
            return False, 0, None  # a zero row of D: 0 = c_i (mod W)
    count *= W ** (n - len(cols_used))  # unknowns with a zero column of D are free
    x = (V * vector(ZZ, y)).apply_map(lambda v: v % W)
    return True, count, x


solvable, count, x = solve_mod(A, b, W)
print("solvable:", "yes" if solvable else "no")
print("solutions:", count)
if solvable:
    assert all(v % W == 0 for v in (A * x - b))
"#;

/// The end of the Sage script on a board: one solution by cell.
const SAGE_PRINT_CELLS: &str = r#"    pressed = ["%d,%d:%d" % (r, c, v) for ((r, c), v) in zip(unknowns, x) if v != 0]
    print("one solution (row,column:presses):")
    print("  " + (" ".join(pressed) if pressed else "no presses"))
"#;

/// The end of the Sage script on a graph: one solution by node.
const SAGE_PRINT_NODES: &str = r#"    pressed = ["%d:%d" % (k, v) for (k, v) in zip(unknowns, x) if v != 0]
    print("one solution (node:presses):")
    print("  " + (" ".join(pressed) if pressed else "no presses"))
"#;

/// Items separated by `, `, wrapped before column 88, continuation lines
/// indented by 4; the first line already holds `start` characters.
fn write_wrapped(out: &mut dyn Write, items: impl Iterator<Item = String>, start: usize) -> io::Result<()> {
    let indent = 4;
    let mut line = start;
    for (k, item) in items.enumerate() {
        if k > 0 {
            // ", " + the item + room for the closing brackets.
            if line + 2 + item.len() + 2 > 88 {
                write!(out, ",\n{:indent$}", "")?;
                line = indent;
            } else {
                out.write_all(b", ")?;
                line += 2;
            }
        }
        line += item.len();
        out.write_all(item.as_bytes())?;
    }
    Ok(())
}

/// A Python string literal (JSON escapes are valid Python).
fn py_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(src: &str) -> Puzzle {
        lights_compiler::analyze(src).blocks[0].puzzle().cloned().unwrap_or_else(|| panic!("invalid: {src}"))
    }

    #[test]
    fn the_entry_bound_is_an_upper_bound_and_tight_on_open_boards() {
        let mut sources: Vec<String> = Vec::new();
        for rule in ["cross", "king", "flip", "merlin", "ring", "{ 1 1 1 / 1 1 1 / 1 1 1 }", "{ 1 . 2 }"] {
            for topology in ["plane", "torus", "mobius", "klein", "projective"] {
                sources.push(format!(
                    "puzzle \"p\" {{\n  size 5x6\n  states 3\n  rule {rule}\n  topology {topology}\n}}\n"
                ));
            }
        }
        sources.push("puzzle \"h\" {\n  grid hex\n  size 4x5\n}\n".into());
        sources.push("puzzle \"g\" {\n  graph petersen\n}\n".into());
        sources.push("puzzle \"c\" {\n  graph complete 9\n  rule ring\n}\n".into());
        for src in &sources {
            let p = model(src);
            let entries = System::of(&p).entries.len() as u64;
            assert!(entries <= entry_bound(&p), "{entries} > {} for\n{src}", entry_bound(&p));
        }
        // On a plane the named rules and the graphs reach their bound
        // inside the board: the bound is not far off.
        assert_eq!(entry_bound(&model("puzzle \"k\" {\n  graph complete 9\n}\n")), 81);
        assert_eq!(System::of(&model("puzzle \"k\" {\n  graph complete 9\n}\n")).entries.len(), 81);
        assert_eq!(entry_bound(&model("puzzle \"f\" {\n  size 5x6\n  rule flip\n}\n")), 30 * 10);
        assert_eq!(System::of(&model("puzzle \"f\" {\n  size 5x6\n  rule flip\n}\n")).entries.len(), 30 * 10);
    }
}
