//! Grammar-aware inputs: arbitrary bytes steer the choice of every
//! statement of the language (sizes, states, rules and stencils,
//! topologies, `grid hex`, named and written graphs, `holes`/`locked`/
//! `lights`/`goal` as `on`, `off`, `at` lists and grids), so the fuzzers
//! reach code that random bytes almost never parse into: unsolvable graphs
//! of 25 to 576 nodes panicked for lack of this (issue 25).

/// Reads choices from the input; past its end every choice is 0.
struct Choices<'a> {
    data: &'a [u8],
    at: usize,
}

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// A number in `0..n` (`n` ≥ 1), from two bytes.
    fn below(&mut self, n: usize) -> usize {
        let v = usize::from(self.byte()) << 8 | usize::from(self.byte());
        v % n.max(1)
    }

    /// A number in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    fn pick<'s>(&mut self, options: &[&'s str]) -> &'s str {
        options[self.below(options.len())]
    }
}

/// A `.lights` file of one to four blocks chosen by `data`.
pub fn source(data: &[u8]) -> String {
    let mut c = Choices { data, at: 0 };
    let blocks = c.range(1, 4);
    (0..blocks).map(|i| block(&mut c, i)).collect()
}

fn block(c: &mut Choices<'_>, i: usize) -> String {
    let body = match c.below(3) {
        0 => graph_block(c),
        1 => board_block(c, true),
        _ => board_block(c, false),
    };
    format!("puzzle \"g{i}\" {{\n{body}}}\n\n")
}

/// A node list `at 3 7:2` (values when `values`), nodes in `1..=n`.
fn node_list(c: &mut Choices<'_>, n: usize, values: Option<usize>) -> String {
    let count = c.range(1, 5);
    let mut nodes: Vec<usize> = (0..count).map(|_| c.range(1, n)).collect();
    nodes.sort_unstable();
    nodes.dedup();
    let items: Vec<String> = nodes
        .iter()
        .map(|&v| match values {
            Some(w) if c.below(3) == 0 => format!("{v}:{}", c.range(1, w - 1)),
            _ => v.to_string(),
        })
        .collect();
    format!("at {}", items.join(" "))
}

fn graph_block(c: &mut Choices<'_>) -> String {
    let (spec, n) = match c.below(5) {
        0 => {
            let n = c.range(1, 1000);
            (format!("path {n}"), n)
        }
        1 => {
            let n = c.range(3, 1000);
            (format!("cycle {n}"), n)
        }
        2 => {
            let n = c.range(1, 200);
            (format!("complete {n}"), n)
        }
        3 => {
            let name = c.pick(&["petersen", "cube", "icosahedron", "dodecahedron", "tetrahedron", "octahedron"]);
            let n = match name {
                "petersen" => 10,
                "cube" => 8,
                "icosahedron" => 12,
                "dodecahedron" => 20,
                "tetrahedron" => 4,
                _ => 6,
            };
            (name.to_string(), n)
        }
        _ => {
            let n = c.range(2, 700);
            let count = c.range(1, 12);
            let mut edges: Vec<(usize, usize)> = (0..count)
                .map(|_| (c.range(1, n), c.range(1, n)))
                .filter(|(a, b)| a != b)
                .map(|(a, b)| (a.min(b), a.max(b)))
                .collect();
            edges.sort_unstable();
            edges.dedup();
            let text: Vec<String> = edges.iter().map(|(a, b)| format!("{a}-{b}")).collect();
            (format!("{{ {} {n} }}", text.join(" ")), n)
        }
    };
    let states = c.range(2, 4);
    let mut body = format!("  graph {spec}\n");
    if c.below(2) == 0 {
        body.push_str("  rule ring\n");
    }
    if states != 2 {
        body.push_str(&format!("  states {states}\n"));
    }
    body.push_str(&format!("  lights {}\n", value(c, n, Some(states))));
    if c.below(3) == 0 {
        body.push_str(&format!("  goal {}\n", value(c, n, Some(states))));
    }
    if c.below(2) == 0 {
        body.push_str(&format!("  locked {}\n", value(c, n, None)));
    }
    if c.below(3) == 0 {
        body.push_str(&format!("  holes {}\n", node_list(c, n, None)));
    }
    body
}

/// `on`, `off` or an `at` list of nodes in `1..=n`.
fn value(c: &mut Choices<'_>, n: usize, states: Option<usize>) -> String {
    match c.below(4) {
        0 => "on".to_string(),
        1 => "off".to_string(),
        _ => node_list(c, n, states),
    }
}

fn board_block(c: &mut Choices<'_>, hex: bool) -> String {
    let (rows, cols) = (c.range(1, 9), c.range(1, 9));
    let states = c.range(2, 4);
    let mut body = format!("  size {rows}x{cols}\n");
    if hex {
        body.push_str("  grid hex\n");
        body.push_str(&format!("  rule {}\n", c.pick(&["cross", "ring"])));
        let topology = c.pick(&["plane", "cylinder", "torus"]);
        if topology != "torus" || rows % 2 == 0 {
            body.push_str(&format!("  topology {topology}\n"));
        }
    } else {
        match c.below(6) {
            0 => {
                // A stencil of odd sides up to 5, weights below the states.
                let (h, w) = (2 * c.range(0, 2) + 1, 2 * c.range(0, 2) + 1);
                let lines: Vec<String> = (0..h)
                    .map(|_| {
                        let row: Vec<String> = (0..w).map(|_| c.below(states).to_string()).collect();
                        format!("    {}", row.join(" "))
                    })
                    .collect();
                body.push_str(&format!("  rule {{\n{}\n  }}\n", lines.join("\n")));
            }
            k => body.push_str(&format!("  rule {}\n", ["cross", "king", "flip", "merlin", "ring"][k - 1])),
        }
        let topology = c.pick(&["plane", "cylinder", "torus", "mobius", "klein", "projective"]);
        body.push_str(&format!("  topology {topology}\n"));
    }
    if states != 2 {
        body.push_str(&format!("  states {states}\n"));
    }
    let cell = |c: &mut Choices<'_>| format!("{},{}", c.range(1, rows), c.range(1, cols));
    let list = |c: &mut Choices<'_>, values: bool| {
        let count = c.range(1, 4);
        let mut cells: Vec<String> = (0..count).map(|_| cell(c)).collect();
        cells.sort();
        cells.dedup();
        if values {
            cells = cells.into_iter().map(|x| format!("{x}:{}", c.range(1, states - 1))).collect();
        }
        format!("at {}", cells.join(" "))
    };
    let grid = |c: &mut Choices<'_>, mask: bool| {
        let lines: Vec<String> = (0..rows)
            .map(|_| {
                let row: Vec<String> = (0..cols)
                    .map(|_| match (mask, c.below(3)) {
                        (true, 0) => "x".to_string(),
                        (true, _) => ".".to_string(),
                        (false, 0) => ".".to_string(),
                        (false, _) => c.below(states).to_string(),
                    })
                    .collect();
                format!("    {}", row.join(" "))
            })
            .collect();
        format!("{{\n{}\n  }}", lines.join("\n"))
    };
    let lights = match c.below(4) {
        0 => "on".to_string(),
        1 => grid(c, false),
        _ => list(c, true),
    };
    body.push_str(&format!("  lights {lights}\n"));
    if c.below(3) == 0 {
        body.push_str(&format!("  locked {}\n", if c.below(2) == 0 { list(c, false) } else { grid(c, true) }));
    }
    if c.below(3) == 0 {
        body.push_str(&format!("  holes {}\n", list(c, false)));
    }
    if c.below(4) == 0 {
        body.push_str(&format!("  goal {}\n", if c.below(2) == 0 { "on".to_string() } else { list(c, true) }));
    }
    body
}
