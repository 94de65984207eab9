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

use lights_compiler::lower::lower;
use lights_compiler::model::{GraphKind, Puzzle, Rule, Shape};
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

/// The system of a puzzle, ready to serialise.
pub fn system_json(p: &Puzzle) -> SystemJson {
    let sys = lower(p);
    let mut entries: Vec<[u32; 3]> = Vec::new();
    for (col, column) in sys.matrix.columns.iter().enumerate() {
        for &(row, value) in column {
            if value % sys.modulus != 0 {
                entries.push([row, col as u32, value % sys.modulus]);
            }
        }
    }
    entries.sort_unstable();
    let cell = |i: usize| [i / p.cols + 1, i % p.cols + 1];
    let holes: Vec<[usize; 2]> = (0..p.cells()).filter(|&i| p.is_hole(i)).map(cell).collect();
    let mut meaning = if p.is_graph() { MEANING_GRAPH } else { MEANING }.to_string();
    if !holes.is_empty() {
        meaning.push_str(MEANING_HOLES);
    }
    let graph = p.shape.graph().map(|g| GraphJson {
        name: if g.kind == GraphKind::Custom { "custom".to_string() } else { g.describe() },
        nodes: g.nodes(),
        edges: g.edges().map(|(a, b)| [a + 1, b + 1]).collect(),
    });
    SystemJson {
        format: "lights-linear-system".to_string(),
        version: 1,
        puzzle: p.name.to_string(),
        meaning,
        modulus: sys.modulus,
        size: BoardSize { rows: p.rows, cols: p.cols },
        rule: rule_text(&p.rule),
        topology: p.topology.name().to_string(),
        shape: (p.shape != Shape::Square).then(|| p.shape.name().to_string()),
        graph,
        holes,
        unknowns: sys.unknowns.iter().map(|&i| cell(i)).collect(),
        matrix: MatrixJson { shape: [sys.matrix.rows, sys.matrix.cols], entries },
        b: sys.rhs,
    }
}

/// The JSON text: pretty, fields in the order of [`SystemJson`], arrays of
/// numbers on one line (so a matrix entry is one line), ending with a newline.
pub fn json_text(p: &Puzzle) -> String {
    let s = system_json(p);
    let j = |x: serde_json::Result<serde_json::Value>, depth: usize| compact_arrays(&x.unwrap_or_default(), depth);
    let size = object(
        &[("rows", j(serde_json::to_value(s.size.rows), 2)), ("cols", j(serde_json::to_value(s.size.cols), 2))],
        1,
    );
    let matrix = object(
        &[
            ("shape", j(serde_json::to_value(s.matrix.shape), 2)),
            ("entries", j(serde_json::to_value(&s.matrix.entries), 2)),
        ],
        1,
    );
    let mut fields = vec![
        ("format", j(serde_json::to_value(&s.format), 1)),
        ("version", j(serde_json::to_value(s.version), 1)),
        ("puzzle", j(serde_json::to_value(&s.puzzle), 1)),
        ("meaning", j(serde_json::to_value(&s.meaning), 1)),
        ("modulus", j(serde_json::to_value(s.modulus), 1)),
        ("size", size),
        ("rule", j(serde_json::to_value(&s.rule), 1)),
        ("topology", j(serde_json::to_value(&s.topology), 1)),
    ];
    if let Some(shape) = &s.shape {
        fields.push(("shape", j(serde_json::to_value(shape), 1)));
    }
    if let Some(g) = &s.graph {
        let graph = object(
            &[
                ("name", j(serde_json::to_value(&g.name), 2)),
                ("nodes", j(serde_json::to_value(g.nodes), 2)),
                ("edges", j(serde_json::to_value(&g.edges), 2)),
            ],
            1,
        );
        fields.push(("graph", graph));
    }
    if !s.holes.is_empty() {
        fields.push(("holes", j(serde_json::to_value(&s.holes), 1)));
    }
    fields.push(("unknowns", j(serde_json::to_value(&s.unknowns), 1)));
    fields.push(("matrix", matrix));
    fields.push(("b", j(serde_json::to_value(&s.b), 1)));
    let top = object(&fields, 0);
    format!("{top}\n")
}

/// A JSON object with its fields in the given order (values already written).
fn object(fields: &[(&str, String)], depth: usize) -> String {
    let pad = "  ".repeat(depth + 1);
    let body: Vec<String> = fields.iter().map(|(k, v)| format!("{pad}{}: {v}", serde_json::Value::from(*k))).collect();
    format!("{{\n{}\n{}}}", body.join(",\n"), "  ".repeat(depth))
}

/// Pretty JSON, except that arrays of numbers stay on one line.
fn compact_arrays(v: &serde_json::Value, depth: usize) -> String {
    use serde_json::Value;
    let pad = "  ".repeat(depth + 1);
    let end = "  ".repeat(depth);
    match v {
        Value::Array(items) if items.iter().all(|i| !i.is_array() && !i.is_object()) => {
            let parts: Vec<String> = items.iter().map(|i| i.to_string()).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(|i| format!("{pad}{}", compact_arrays(i, depth + 1))).collect();
            format!("[\n{}\n{end}]", parts.join(",\n"))
        }
        Value::Object(map) if map.is_empty() => "{}".to_string(),
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, val)| format!("{pad}{}: {}", Value::String(k.clone()), compact_arrays(val, depth + 1)))
                .collect();
            format!("{{\n{}\n{end}}}", parts.join(",\n"))
        }
        other => other.to_string(),
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
    let s = system_json(p);
    let mut out = String::new();
    out.push_str(&format!(
        "# SageMath script generated by `lights compile --emit sage` for puzzle {}.\n",
        py_string(&s.puzzle)
    ));
    let graph = p.is_graph();
    if graph {
        out.push_str(
            "# Run it with `sage FILE.sage`. It builds the puzzle's linear system\n\
             #     A·x ≡ b (mod W)\n\
             # on the nodes of a graph: x[j]: how many times the node unknowns[j] is pressed;\n\
             # row i of A and b[i]: node i + 1;\n\
             # column j of A: what one press of unknowns[j] adds to each node;\n\
             # b = goal - lights (mod W). It prints whether a solution exists, how many\n\
             # there are (press counts taken modulo W), and one of them.\n",
        );
    } else {
        out.push_str(
            "# Run it with `sage FILE.sage`. It builds the puzzle's linear system\n\
             #     A·x ≡ b (mod W)\n\
             # x[j]: how many times the cell unknowns[j] (1-based row, column) is pressed;\n\
             # row i of A and b[i]: the cell (i // C + 1, i % C + 1), in reading order;\n\
             # column j of A: what one press of unknowns[j] adds to each cell;\n\
             # b = goal - lights (mod W). It prints whether a solution exists, how many\n\
             # there are (press counts taken modulo W), and one of them.\n",
        );
    }
    if p.shape == Shape::Hex {
        out.push_str(
            "# The cells are hexagons (`grid hex`): rows 2, 4, … are shifted right by half\n\
             # a cell, and a press reaches the six cells around.\n",
        );
    }
    if !s.holes.is_empty() {
        out.push_str("# Holes (no light, no button) are no unknown; their rows of A and b are 0.\n");
    }
    out.push_str(
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
         # faster over the field GF(W): count = W^(n - rank A).\n\n",
    );
    out.push_str(&format!("W = {}\n", s.modulus));
    if graph {
        out.push_str(&format!("N = {}  # nodes\n", s.size.cols));
        out.push_str(&format!(
            "m, n = {}, {}  # equations (nodes) and unknowns (free nodes)\n",
            s.matrix.shape[0], s.matrix.shape[1]
        ));
    } else {
        out.push_str(&format!("R, C = {}, {}  # board rows and columns\n", s.size.rows, s.size.cols));
        out.push_str(&format!(
            "m, n = {}, {}  # equations (cells) and unknowns (free cells)\n",
            s.matrix.shape[0], s.matrix.shape[1]
        ));
    }
    let mut list = |head: &str, items: Vec<String>, tail: &str| {
        out.push_str(head);
        out.push_str(&wrap(items.into_iter(), head.rsplit('\n').next().unwrap_or("").len()));
        out.push_str(tail);
    };
    if graph {
        list("unknowns = [", s.unknowns.iter().map(|[_, node]| node.to_string()).collect(), "]\n");
    } else {
        list("unknowns = [", s.unknowns.iter().map(|[r, c]| format!("({r}, {c})")).collect(), "]\n");
    }
    list(
        "# Nonzero entries of A: (row, column, value), 0-based.\nentries = [",
        s.matrix.entries.iter().map(|[i, j, v]| format!("({i}, {j}, {v})")).collect(),
        "]\n",
    );
    list("b = vector(ZZ, [", s.b.iter().map(|v| v.to_string()).collect(), "])\n");
    out.push_str(SAGE_SOLVER);
    out.push_str(if graph { SAGE_PRINT_NODES } else { SAGE_PRINT_CELLS });
    out
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
fn wrap(items: impl Iterator<Item = String>, start: usize) -> String {
    let indent = 4;
    let mut out = String::new();
    let mut line = start;
    for (k, item) in items.enumerate() {
        if k > 0 {
            out.push(',');
            // ", " + the item + room for the closing brackets.
            if line + 2 + item.len() + 2 > 88 {
                out.push('\n');
                out.push_str(&" ".repeat(indent));
                line = indent;
            } else {
                out.push(' ');
                line += 2;
            }
        }
        line += item.len();
        out.push_str(&item);
    }
    out
}

/// A Python string literal (JSON escapes are valid Python).
fn py_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}
