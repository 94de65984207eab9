//! Level packs as JSON for game engines and web solvers (`lights export
//! json`, `lights import json`): the schema `lights-pack/1`, described
//! field by field in docs/authoring/interchange.md and as a JSON Schema in
//! docs/schema/lights-pack-1.schema.json.
//!
//! Cells are 0-based indices in reading order everywhere: cell `i` is row
//! `i / cols`, column `i % cols` (the `.lights` cell `i/cols+1,i%cols+1`); a
//! graph is one row of nodes, cell `i` is node `i + 1`. A puzzle carries what
//! the `.lights` block says (shape, size, graph, states, rule, topology,
//! lights, goal, locked, holes, `expect` claims) and, for engines, what the
//! solver derives: each free button's press pattern (up to
//! [`MAX_PATTERN_ENTRIES`]) and the analysis of `lights solve` (solvable,
//! the number of solutions, a minimum solution and whether it is proven
//! minimal). The import reads the first part and ignores the derived one
//! (it is recomputed by `lights check`); an unknown `schema` is refused.

use lights_compiler::graph::{named, MAX_EDGES, MAX_NODES};
use lights_compiler::lower::press_pattern;
use lights_compiler::model::{
    Board, Graph, GraphKind, Puzzle, Rule, Shape, Stencil, Topology, MAX_CELLS, MAX_STATES, MIN_STATES,
};
use lights_compiler::report::Report;
use serde::{Deserialize, Serialize};

use crate::puzzle_text::{puzzle_text, reparse};

/// The schema this module writes and reads.
pub const SCHEMA: &str = "lights-pack/1";

/// A pack holds puzzles of at most this many cells (the lights, goal and
/// solution are arrays of one entry per cell), both ways.
pub const MAX_PACK_CELLS: u64 = 1_000_000;

/// Press patterns are written when the matrix has at most this many nonzero
/// entries (cells a press changes, over all buttons), else omitted with
/// `press_patterns_omitted` saying why.
pub const MAX_PATTERN_ENTRIES: u64 = 1_000_000;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pack {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// The tool that wrote the pack (informative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<String>,
    pub puzzles: Vec<PuzzleJson>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleJson {
    pub name: String,
    /// `square`, `hex` or `graph`.
    pub shape: String,
    /// A graph is one row (`rows` 1, `cols` its nodes).
    pub rows: u64,
    pub cols: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph: Option<GraphJson>,
    pub states: u64,
    /// `cross`, `king`, `flip`, `merlin`, `ring` or `stencil`.
    pub rule: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stencil: Option<StencilJson>,
    /// `plane`, `cylinder`, `torus`, `mobius`, `klein` or `projective` (`plane` on a graph).
    pub topology: String,
    /// One value per cell (0 on holes).
    pub lights: Vec<u64>,
    pub goal: Vec<u64>,
    /// Locked cells (buttons that may not be pressed), ascending.
    #[serde(default)]
    pub locked: Vec<u64>,
    /// Cells that do not exist, ascending.
    #[serde(default)]
    pub holes: Vec<u64>,
    /// The `expect` claims, without the keyword: `unique`, `solutions 4`, `presses 7`…
    #[serde(default)]
    pub expect: Vec<String>,
    /// Derived: for each free button, what one press adds to each cell.
    #[serde(default, skip_deserializing)]
    pub press_patterns: Option<Vec<PressPattern>>,
    /// Derived: why `press_patterns` is null.
    #[serde(default, skip_deserializing)]
    pub press_patterns_omitted: Option<String>,
    /// Derived: the solver's answer.
    #[serde(default, skip_deserializing)]
    pub analysis: Option<AnalysisJson>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphJson {
    /// As the language names it (`petersen`, `cycle 7`), or `custom`.
    pub name: String,
    pub nodes: u64,
    /// Every edge once, 0-based cells `[a, b]`, a < b.
    pub edges: Vec<[u64; 2]>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StencilJson {
    pub rows: u64,
    pub cols: u64,
    /// Row-major weights, the centre entry at the pressed cell.
    pub weights: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PressPattern {
    /// The button (a cell).
    pub button: u64,
    /// `[cell, amount]`: one press adds `amount` (mod states) to `cell`.
    pub changes: Vec<[u64; 2]>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisJson {
    pub solvable: bool,
    /// The exact number of solutions, in decimal (it can be huge).
    pub solutions: String,
    /// A solution with the fewest presses found: presses per cell.
    pub minimum: Option<Vec<u64>>,
    /// Total presses of `minimum`.
    pub minimum_presses: Option<u64>,
    /// Whether no solution has fewer presses (proven by the solver).
    pub minimum_proven: bool,
}

/// Why a pack cannot be read, or a puzzle cannot be written into one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PackError(pub String);

fn err<T>(message: impl Into<String>) -> Result<T, PackError> {
    Err(PackError(message.into()))
}

/// The entry of one puzzle; `report` is the solver's answer (`lights
/// solve`'s), when there is one.
pub fn puzzle_json(
    p: &Puzzle,
    name: &str,
    claims: &[String],
    report: Option<&Report>,
) -> Result<PuzzleJson, PackError> {
    let cells = p.cells() as u64;
    if cells > MAX_PACK_CELLS {
        return err(format!("it has {cells} cells; a lights-pack/1 puzzle has at most {MAX_PACK_CELLS}"));
    }
    let n = p.cells();
    let values = |b: &Board| b.iter().map(u64::from).collect::<Vec<_>>();
    let holes: Vec<u64> = (0..n).filter(|&i| p.is_hole(i)).map(|i| i as u64).collect();
    let locked: Vec<u64> = (0..n).filter(|&i| p.is_locked(i) && !p.is_hole(i)).map(|i| i as u64).collect();
    let graph = p.shape.graph().map(|g| GraphJson {
        name: if g.kind == GraphKind::Custom { "custom".into() } else { g.describe() },
        nodes: g.nodes() as u64,
        edges: g.edges().map(|(a, b)| [a as u64, b as u64]).collect(),
    });
    let stencil = match &p.rule {
        Rule::Stencil(s) => Some(StencilJson {
            rows: s.rows as u64,
            cols: s.cols as u64,
            weights: s.weights.iter().map(|&w| u64::from(w)).collect(),
        }),
        _ => None,
    };
    let bound = crate::export::entry_bound(p);
    let (press_patterns, press_patterns_omitted) = if bound <= MAX_PATTERN_ENTRIES {
        let patterns = (0..n)
            .filter(|&i| !p.is_locked(i) && !p.is_hole(i))
            .map(|i| PressPattern {
                button: i as u64,
                changes: press_pattern(p, i / p.cols, i % p.cols)
                    .into_iter()
                    .map(|(j, w)| [j as u64, u64::from(w)])
                    .collect(),
            })
            .collect();
        (Some(patterns), None)
    } else {
        (
            None,
            Some(format!(
                "the press patterns could have {bound} entries; they are written up to {MAX_PATTERN_ENTRIES}"
            )),
        )
    };
    let analysis = report.map(|r| AnalysisJson {
        solvable: r.solvable,
        solutions: r.solutions.to_string(),
        minimum: r.minimum.as_ref().map(|m| m.presses.iter().map(u64::from).collect()),
        minimum_presses: r.minimum.as_ref().map(|m| m.cost),
        minimum_proven: r.minimum.as_ref().is_some_and(|m| m.optimal),
    });
    Ok(PuzzleJson {
        name: name.to_string(),
        shape: p.shape.name().to_string(),
        rows: p.rows as u64,
        cols: p.cols as u64,
        graph,
        states: u64::from(p.states),
        rule: if stencil.is_some() { "stencil".into() } else { p.rule.name().into() },
        stencil,
        topology: p.topology.name().to_string(),
        lights: values(&p.lights),
        goal: values(&p.goal),
        locked,
        holes,
        expect: claims.to_vec(),
        press_patterns,
        press_patterns_omitted,
        analysis,
    })
}

/// A pack as JSON text: one puzzle a line (so packs diff well).
pub fn pack_text(pack: &Pack) -> String {
    let json = |v: &dyn erased::Json| v.to_json();
    let mut out = format!("{{\"schema\": {}", json(&pack.schema));
    if let Some(g) = &pack.generator {
        out.push_str(&format!(", \"generator\": {}", json(g)));
    }
    out.push_str(", \"puzzles\": [\n");
    let lines: Vec<String> = pack.puzzles.iter().map(|p| json(p)).collect();
    out.push_str(&lines.join(",\n"));
    out.push_str("\n]}\n");
    out
}

mod erased {
    /// Anything serde writes, as compact JSON.
    pub(super) trait Json {
        fn to_json(&self) -> String;
    }
    impl<T: serde::Serialize> Json for T {
        fn to_json(&self) -> String {
            serde_json::to_string(self).unwrap_or_else(|_| "null".into())
        }
    }
}

/// Read a pack and write its puzzles as one `.lights` file. `source` names
/// the input in the comment at the top.
pub fn import_pack(text: &str, source: &str) -> Result<String, PackError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| PackError(format!("not valid JSON: {e}")))?;
    match value.get("schema") {
        Some(serde_json::Value::String(s)) if s == SCHEMA => {}
        Some(serde_json::Value::String(s)) => {
            return err(format!("unknown schema `{s}`: this version of lights reads `{SCHEMA}`"))
        }
        Some(_) => return err(format!("`schema` must be the string \"{SCHEMA}\"")),
        None => return err(format!("no `schema` field: a lights pack starts with \"schema\": \"{SCHEMA}\"")),
    }
    let pack: Pack = serde_json::from_value(value).map_err(|e| PackError(format!("not a lights-pack/1 pack: {e}")))?;
    if pack.puzzles.is_empty() {
        return err("the pack has no puzzles");
    }
    let source: String = source.chars().map(|c| if c.is_control() { '?' } else { c }).collect();
    let mut out = format!("// Imported by `lights import json` from {source} ({SCHEMA}).\n");
    let mut seen = std::collections::HashSet::new();
    for (k, entry) in pack.puzzles.iter().enumerate() {
        let at = |e: PackError| PackError(format!("puzzle {} ({:?}): {}", k + 1, entry.name, e.0));
        if entry.name.is_empty() {
            return Err(at(PackError("a name must not be empty".into())));
        }
        if !seen.insert(entry.name.clone()) {
            return Err(at(PackError("a second puzzle has this name; names are unique in a file".into())));
        }
        let model = to_model(entry).map_err(at)?;
        let text = puzzle_text(&model, &entry.name, &entry.expect, &[]);
        let back = reparse(&text).map_err(|e| at(PackError(e)))?;
        if back.header.name != entry.name {
            return Err(at(PackError("this name cannot be written in a .lights file (a line break?)".into())));
        }
        if !same_puzzle(&back, &model) {
            return Err(at(PackError("internal error: the written puzzle is not the pack's".into())));
        }
        out.push('\n');
        out.push_str(&text);
    }
    Ok(out)
}

/// Same puzzle: the compiled models are equal, leaving out what the answer
/// does not depend on (name, claims, spans: the [`Unkeyed`] header, which
/// `==` would compare) and counting locks the compiler's way (a hole has no
/// button, so it is locked too).
///
/// [`Unkeyed`]: lights_compiler::Unkeyed
pub fn same_puzzle(a: &Puzzle, b: &Puzzle) -> bool {
    let norm = |p: &Puzzle| Puzzle {
        header: Default::default(),
        spans: Default::default(),
        locked: p.locked.union_mask(&p.holes),
        ..p.clone()
    };
    norm(a) == norm(b)
}

/// The model a pack entry describes, every field checked.
pub fn to_model(e: &PuzzleJson) -> Result<Puzzle, PackError> {
    if !(MIN_STATES..=MAX_STATES).contains(&e.states) {
        return err(format!("`states` is {}; it is {MIN_STATES}…{MAX_STATES}", e.states));
    }
    let states = e.states as u32;
    if e.rows == 0 || e.cols == 0 {
        return err("`rows` and `cols` must be at least 1");
    }
    let cells = e.rows.checked_mul(e.cols).filter(|&c| c <= MAX_CELLS).ok_or_else(|| {
        PackError(format!("{}x{} is more than the {MAX_CELLS} cells a board may have", e.rows, e.cols))
    })?;
    if cells > MAX_PACK_CELLS {
        return err(format!("{cells} cells; a lights-pack/1 puzzle has at most {MAX_PACK_CELLS}"));
    }
    let n = cells as usize;
    let (rows, cols) = (e.rows as usize, e.cols as usize);
    let topology = Topology::from_name(&e.topology).ok_or_else(|| {
        PackError(format!("unknown topology `{}`; the topologies are {}", e.topology, Topology::NAMES.join(", ")))
    })?;
    let rule = match e.rule.as_str() {
        "stencil" => {
            let s =
                e.stencil.as_ref().ok_or_else(|| PackError("`rule` is stencil but there is no `stencil`".into()))?;
            if s.rows % 2 == 0 || s.cols % 2 == 0 {
                return err("a stencil has an odd number of rows and of columns");
            }
            if s.rows.saturating_mul(s.cols) != s.weights.len() as u64 {
                return err(format!("the stencil is {}x{} but has {} weights", s.rows, s.cols, s.weights.len()));
            }
            if let Some(w) = s.weights.iter().find(|&&w| w >= e.states) {
                return err(format!("stencil weight {w} is not below states {}", e.states));
            }
            Rule::Stencil(Stencil {
                rows: s.rows as usize,
                cols: s.cols as usize,
                weights: s.weights.iter().map(|&w| w as u32).collect(),
            })
        }
        name => Rule::from_name(name).ok_or_else(|| {
            PackError(format!("unknown rule `{name}`; the rules are {}, stencil", Rule::NAMES.join(", ")))
        })?,
    };
    if e.rule != "stencil" && e.stencil.is_some() {
        return err(format!("a `stencil` is given but the rule is `{}`", e.rule));
    }
    if e.shape != "graph" && e.graph.is_some() {
        return err(format!("a `graph` is given but the shape is `{}`", e.shape));
    }
    let shape = match e.shape.as_str() {
        "square" => Shape::Square,
        "hex" => Shape::Hex,
        "graph" => {
            let g = e.graph.as_ref().ok_or_else(|| PackError("`shape` is graph but there is no `graph`".into()))?;
            if e.rows != 1 || g.nodes != e.cols {
                return err(format!("a graph is one row of its nodes: `rows` 1 and `cols` {} (its nodes)", g.nodes));
            }
            if g.nodes as usize > MAX_NODES || g.edges.len() > MAX_EDGES {
                return err(format!("a graph has at most {MAX_NODES} nodes and {MAX_EDGES} edges"));
            }
            if topology != Topology::Plane {
                return err("a graph has no topology: write \"plane\"");
            }
            let mut edges = Vec::with_capacity(g.edges.len());
            for &[a, b] in &g.edges {
                if a >= g.nodes || b >= g.nodes || a == b {
                    return err(format!(
                        "edge [{a}, {b}]: edges join two different nodes, 0…{} (0-based)",
                        g.nodes - 1
                    ));
                }
                edges.push((a as u32, b as u32));
            }
            let built = Graph::from_edges(GraphKind::Custom, n, &edges);
            if g.name == "custom" {
                Shape::Graph(built)
            } else {
                let (family, size) = match g.name.split_once(' ') {
                    Some((f, s)) => (f, s.parse::<u64>().ok()),
                    None => (g.name.as_str(), None),
                };
                let named = named(family, size).map_err(|_| {
                    PackError(format!("unknown graph `{}` (write \"custom\" for an edge list)", g.name))
                })?;
                if named.nodes() != n || (0..n).any(|i| named.neighbours(i) != built.neighbours(i)) {
                    return err(format!("the edges are not those of `{}`", g.name));
                }
                Shape::Graph(named)
            }
        }
        other => return err(format!("unknown shape `{other}`; the shapes are square, hex, graph")),
    };
    let board = |what: &str, values: &[u64]| -> Result<Board, PackError> {
        if values.len() != n {
            return err(format!("`{what}` has {} values; the puzzle has {n} cells", values.len()));
        }
        if let Some(v) = values.iter().find(|&&v| v >= e.states) {
            return err(format!("`{what}` has the value {v}, not below states {}", e.states));
        }
        Ok(Board::dense(values.iter().map(|&v| v as u16).collect()))
    };
    let mask = |what: &str, list: &[u64]| -> Result<Board, PackError> {
        let mut values = vec![0u16; n];
        for &i in list {
            if i >= n as u64 {
                return err(format!("`{what}` lists cell {i}; cells are 0…{} (0-based)", n - 1));
            }
            values[i as usize] = 1;
        }
        Ok(Board::dense(values))
    };
    let holes = mask("holes", &e.holes)?;
    let locked = mask("locked", &e.locked)?.union_mask(&holes);
    for claim in &e.expect {
        check_claim(claim)?;
    }
    Ok(Puzzle {
        shape,
        lights: board("lights", &e.lights)?,
        goal: board("goal", &e.goal)?,
        locked,
        holes,
        ..Puzzle::new(rows, cols, states, rule, topology)
    })
}

/// `unique`, `solvable`, `unsolvable`, `solutions N`, `presses N`.
fn check_claim(claim: &str) -> Result<(), PackError> {
    let words: Vec<&str> = claim.split_whitespace().collect();
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match words.as_slice() {
        ["unique" | "solvable" | "unsolvable"] => Ok(()),
        ["solutions" | "presses", n] if number(n) => Ok(()),
        _ => err(format!(
            "`expect` has {claim:?}; a claim is unique, solvable, unsolvable, `solutions N` or `presses N`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lights_compiler::analyze;

    fn models(src: &str) -> Vec<(String, Puzzle, Vec<String>)> {
        analyze(src)
            .blocks
            .iter()
            .filter_map(|b| {
                let p = b.puzzle()?;
                let claims = p.header.expects.iter().map(|e| e.claim.to_string().replacen("expect ", "", 1)).collect();
                Some((b.name.clone().unwrap_or_default(), p.clone(), claims))
            })
            .collect()
    }

    fn round_trip(src: &str) {
        let puzzles = models(src);
        assert!(!puzzles.is_empty());
        let pack = Pack {
            schema: SCHEMA.into(),
            generator: None,
            puzzles: puzzles.iter().map(|(n, p, c)| puzzle_json(p, n, c, None).unwrap()).collect(),
        };
        let text = import_pack(&pack_text(&pack), "test").unwrap();
        let back = models(&text);
        assert_eq!(back.len(), puzzles.len());
        for ((n1, p1, c1), (n2, p2, c2)) in puzzles.iter().zip(&back) {
            assert_eq!(n1, n2);
            assert!(same_puzzle(p1, p2), "{n1}: {text}");
            assert_eq!(c1, c2);
        }
    }

    #[test]
    fn shapes_round_trip() {
        round_trip("puzzle \"a\" { size 3x4 lights at 1,1 2,3 expect unique }");
        round_trip("puzzle \"h\" { size 4x4 grid hex topology torus states 3 lights at 1,1:2 goal on }");
        round_trip("puzzle \"g\" { graph petersen rule ring lights at 1 4 expect solvable }");
        round_trip("puzzle \"c\" { graph { 1-2 2-3 5 } holes at 4 locked at 2 lights at 1 }");
        round_trip("puzzle \"s\" { size 5x5 states 3 rule { .1. / 121 / .1. } topology klein holes at 3,3 locked at 1,1 lights on }");
    }

    #[test]
    fn a_named_graph_must_have_its_own_edges() {
        let src = "puzzle \"p\" { graph petersen lights at 1 }";
        let (n, p, c) = models(src).remove(0);
        let mut entry = puzzle_json(&p, &n, &c, None).unwrap();
        assert_eq!(entry.graph.as_ref().unwrap().name, "petersen");
        entry.graph.as_mut().unwrap().edges.pop();
        let pack = Pack { schema: SCHEMA.into(), generator: None, puzzles: vec![entry.clone()] };
        assert!(import_pack(&pack_text(&pack), "t").unwrap_err().0.contains("not those of `petersen`"));
        // As a custom graph the same edges are fine.
        entry.graph.as_mut().unwrap().name = "custom".into();
        let pack = Pack { schema: SCHEMA.into(), generator: None, puzzles: vec![entry] };
        let text = import_pack(&pack_text(&pack), "t").unwrap();
        assert!(text.contains("graph {"), "{text}");
    }

    #[test]
    fn the_derived_fields_are_written_and_ignored_on_import() {
        let (n, p, c) = models("puzzle \"a\" { size 2x3 locked at 1,1 lights at 2,2 }").remove(0);
        let entry = puzzle_json(&p, &n, &c, None).unwrap();
        let patterns = entry.press_patterns.clone().unwrap();
        // Locked button 0 has no pattern; button 1 (1,2) changes 0, 1, 2 and 4.
        assert_eq!(patterns.len(), 5);
        assert_eq!(patterns[0].button, 1);
        let mut cells: Vec<u64> = patterns[0].changes.iter().map(|c| c[0]).collect();
        cells.sort_unstable();
        assert_eq!(cells, [0, 1, 2, 4]);
        let mut json: serde_json::Value =
            serde_json::from_str(&pack_text(&Pack { schema: SCHEMA.into(), generator: None, puzzles: vec![entry] }))
                .unwrap();
        json["puzzles"][0]["press_patterns"] = serde_json::json!("anything");
        json["puzzles"][0]["analysis"] = serde_json::json!({"solvable": "maybe"});
        let text = import_pack(&json.to_string(), "t").unwrap();
        assert!(same_puzzle(&models(&text)[0].1, &p));
    }

    #[test]
    fn bad_packs_are_errors() {
        let good = pack_text(&Pack {
            schema: SCHEMA.into(),
            generator: None,
            puzzles: models("puzzle \"a\" { size 2x2 lights at 1,1 }")
                .iter()
                .map(|(n, p, c)| puzzle_json(p, n, c, None).unwrap())
                .collect(),
        });
        assert!(import_pack(&good, "t").is_ok());
        let cases = [
            (good.replace("lights-pack/1", "lights-pack/2"), "unknown schema `lights-pack/2`"),
            ("{}".to_string(), "no `schema`"),
            ("[".to_string(), "not valid JSON"),
            (good.replace("\"rows\":2", "\"rows\":3"), "`lights` has 4 values; the puzzle has 6 cells"),
            (good.replace("\"rows\":2", "\"rows\":99999999999"), "more than the 10000000000 cells"),
            (good.replace("\"rows\":2", "\"rows\":2000000"), "at most 1000000"),
            (good.replace("\"cross\"", "\"knight\""), "unknown rule `knight`"),
            (good.replace("\"states\":2", "\"states\":1"), "`states` is 1"),
            (good.replace("\"plane\"", "\"sphere\""), "unknown topology"),
            (
                good.replace("\"topology\"", "\"graph\":{\"name\":\"custom\",\"nodes\":4,\"edges\":[]},\"topology\""),
                "a `graph` is given but the shape is `square`",
            ),
            (good.replace("\"square\"", "\"hex\"").replace("\"plane\"", "\"mobius\""), "L0132"),
        ];
        for (text, want) in cases {
            assert_ne!(text, good, "the case {want:?} changes the pack");
            let e = import_pack(&text, "t").unwrap_err().0;
            assert!(e.contains(want) || (want == "L0132" && e.contains("hex")), "{want}: {e}");
        }
    }

    mod prop {
        use super::*;
        use proptest::prelude::*;

        fn good() -> String {
            let puzzles = models("puzzle \"a\" { size 2x2 states 3 lights at 1,1:2 locked at 2,2 holes at 1,2 }");
            let (n, p, c) = &puzzles[0];
            pack_text(&Pack {
                schema: SCHEMA.into(),
                generator: None,
                puzzles: vec![puzzle_json(p, n, c, None).unwrap()],
            })
        }

        proptest! {
            #[test]
            fn arbitrary_text_never_panics(s in "\\PC{0,200}") {
                let _ = import_pack(&s, "t");
            }

            #[test]
            fn a_mutated_pack_never_panics(at in 0usize..400, with in "[0-9a-z\\[\\]{}:,\"-]{0,6}") {
                let text = good();
                let at = at.min(text.len());
                if text.is_char_boundary(at) {
                    let mutated = format!("{}{with}{}", &text[..at], &text[(at + with.len()).min(text.len())..]);
                    let _ = import_pack(&mutated, "t");
                }
            }
        }
    }
}
