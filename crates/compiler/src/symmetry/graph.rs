//! Canonical labelling of coloured graphs, for graph puzzles whose nodes
//! were numbered differently (a Petersen graph written edge by edge in
//! another order is `graph petersen`).
//!
//! The algorithm is individualisation–refinement, the method of nauty and
//! Traces in its simplest form:
//!
//! 1. *Refine*: colour every node by its colour and the multiset of its
//!    neighbours' colours, until the number of colours stops growing
//!    (colour refinement). Colours are ranks of sorted values, so the
//!    result does not depend on how the nodes were numbered.
//! 2. When some colour holds several nodes, *individualise*: for each node
//!    of the first such colour, give it a colour of its own and go on from
//!    there; a node whose colour is unique everywhere is a leaf, and its
//!    colours number the nodes.
//! 3. The canonical form is the least hash of the relabelled graph over
//!    all leaves. Isomorphic graphs have the same set of leaves up to
//!    relabelling, so they get the same form.
//!
//! Two prunings keep symmetric graphs cheap: nodes with the same
//! neighbours (twins, as in complete graphs) give the same leaves, so only
//! one of them is tried; and two leaves with the same hash give an
//! automorphism, whose orbits are tried once each among the root's choices.
//! The work is bounded, in proportion to the graph ([`canonical_hash`]); a
//! graph past its bound gets no form.

use super::hash::{add, bases, mul, Seq};

/// Units of work (a node or an edge looked at during refinement) one
/// canonical form may take at most (about 0.4 s).
pub const WORK: u64 = 40_000_000;
/// Units of work a graph may take per node and edge written (the bound of
/// [`canonical_hash`] between [`MIN_WORK`] and [`WORK`]).
pub const WORK_PER_ITEM: u64 = 2_000;
/// Units of work any graph may take (about 2 ms).
pub const MIN_WORK: u64 = 200_000;

/// A simple undirected graph with a colour on each node.
pub struct Coloured<'a> {
    pub neighbours: &'a [Vec<u32>],
    pub colour: &'a [u64],
}

struct Search<'a> {
    g: Coloured<'a>,
    work: u64,
    limit: u64,
    best: Option<u64>,
    /// The labelling of the first leaf with the best hash.
    leaves_seen: u64,
    best_perm: Vec<u32>,
    orbits: Vec<u32>,
}

/// The canonical hash of `g`, or `None` when it takes more than its work
/// bound: [`WORK_PER_ITEM`] per node and edge, at least [`MIN_WORK`], at
/// most [`WORK`] — what a graph may cost grows with what was written.
pub fn canonical_hash(g: Coloured) -> Option<u64> {
    let items = g.neighbours.len() as u64 + g.neighbours.iter().map(|n| n.len() as u64).sum::<u64>() / 2;
    let limit = items.saturating_mul(WORK_PER_ITEM).clamp(MIN_WORK, WORK);
    canonical_hash_within(g, limit).map(|(hash, _)| hash)
}

/// The canonical hash of `g` and the work it took, or `None` past `limit`.
pub fn canonical_hash_within(g: Coloured, limit: u64) -> Option<(u64, u64)> {
    let n = g.colour.len();
    if n == 0 {
        return Some((Seq::new().push(0).finish(), 0));
    }
    let initial = ranks(g.colour);
    let mut s = Search {
        g,
        work: 0,
        limit,
        best: None,
        leaves_seen: 0,
        best_perm: Vec::new(),
        orbits: (0..n as u32).collect(),
    };
    let refined = s.refine(initial)?;
    s.descend(refined, 0)?;
    Some((s.best?, s.work))
}

fn ranks(values: &[u64]) -> Vec<u32> {
    let mut sorted: Vec<u64> = values.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    values.iter().map(|v| sorted.binary_search(v).expect("present") as u32).collect()
}

fn classes(colour: &[u32]) -> usize {
    colour.iter().copied().max().map_or(0, |m| m as usize + 1)
}

impl Search<'_> {
    fn spend(&mut self, units: u64) -> Option<()> {
        self.work += units;
        (self.work <= self.limit).then_some(())
    }

    /// Colour refinement to a stable colouring.
    fn refine(&mut self, mut colour: Vec<u32>) -> Option<Vec<u32>> {
        let b = bases();
        let n = colour.len();
        let mut count = classes(&colour);
        loop {
            let edges: usize = self.g.neighbours.iter().map(Vec::len).sum();
            self.spend((n + edges) as u64)?;
            // A node's value: its colour, then the sum of a mixing of its
            // neighbours' colours (a multiset hash).
            let mixed: Vec<u64> = colour.iter().map(|&c| mul(c as u64 + 7, b.x) ^ (c as u64).rotate_left(29)).collect();
            let values: Vec<u64> = (0..n)
                .map(|v| {
                    let sum =
                        self.g.neighbours[v].iter().fold(0u64, |acc, &u| add(acc, mixed[u as usize] % super::hash::P));
                    Seq::new().push(colour[v] as u64).push(sum).finish()
                })
                .collect();
            let next = ranks(&values);
            let next_count = classes(&next);
            if next_count == count {
                return Some(colour);
            }
            count = next_count;
            colour = next;
        }
    }

    /// Explore the leaves below a stable colouring.
    fn descend(&mut self, colour: Vec<u32>, depth: usize) -> Option<()> {
        let n = colour.len();
        let count = classes(&colour);
        if count == n {
            return self.leaf(&colour);
        }
        // The first colour (by rank) with more than one node.
        let mut size = vec![0u32; count];
        for &c in &colour {
            size[c as usize] += 1;
        }
        let target = (0..count).find(|&c| size[c] > 1).expect("not discrete") as u32;
        let members: Vec<u32> = (0..n as u32).filter(|&v| colour[v as usize] == target).collect();
        if self.all_twins(&members)? {
            // Any order of twins gives the same leaves (exchanging two is an
            // automorphism): number them all at once, in index order.
            let extra = members.len() as u32 - 1;
            let mut next = target;
            let individual: Vec<u32> = colour
                .iter()
                .map(|&c| match c.cmp(&target) {
                    std::cmp::Ordering::Less => c,
                    std::cmp::Ordering::Greater => c + extra,
                    std::cmp::Ordering::Equal => {
                        next += 1;
                        next - 1
                    }
                })
                .collect();
            let refined = self.refine(individual)?;
            return self.descend(refined, depth + 1);
        }
        let mut tried: Vec<u32> = Vec::new();
        for &v in &members {
            // Among the root's choices, one node per orbit of the automorphisms found.
            if depth == 0 && tried.iter().any(|&t| self.find(t) == self.find(v)) {
                continue;
            }
            tried.push(v);
            // Individualise v: it keeps the rank, the rest of its colour move up by one.
            let individual: Vec<u32> = colour
                .iter()
                .enumerate()
                .map(|(u, &c)| if c > target || (c == target && u as u32 != v) { c + 1 } else { c })
                .collect();
            let refined = self.refine(individual)?;
            self.descend(refined, depth + 1)?;
        }
        Some(())
    }

    /// Whether the nodes all have the same neighbours besides each other.
    fn all_twins(&mut self, members: &[u32]) -> Option<bool> {
        let nb = self.g.neighbours;
        // What it looks at is work too.
        self.spend(members.iter().map(|&v| nb[v as usize].len() as u64 + 1).sum())?;
        let mut inside = vec![false; nb.len()];
        for &v in members {
            inside[v as usize] = true;
        }
        // A node's neighbours outside the colour (sorted, as the lists are), and how many inside.
        let split = |v: u32| {
            let outside: Vec<u32> = nb[v as usize].iter().copied().filter(|&u| !inside[u as usize]).collect();
            let within = nb[v as usize].len() - outside.len();
            (outside, within)
        };
        let (base, within) = split(members[0]);
        // All adjacent to each other, or none: then any exchange of them is an automorphism.
        if within != 0 && within != members.len() - 1 {
            return Some(false);
        }
        Some(members.iter().all(|&v| split(v) == (base.clone(), within)))
    }

    fn leaf(&mut self, colour: &[u32]) -> Option<()> {
        self.leaves_seen += 1;
        self.spend(1)?;
        let b = bases();
        // The relabelled graph: each node's colour and its sorted
        // neighbours, in the order of the new labels.
        let n = colour.len();
        let mut order = vec![0u32; n];
        for (v, &c) in colour.iter().enumerate() {
            order[c as usize] = v as u32;
        }
        let mut s = Seq::new();
        s.push(n as u64);
        let mut row: Vec<u32> = Vec::new();
        for &v in &order {
            s.push(self.g.colour[v as usize]);
            row.clear();
            row.extend(self.g.neighbours[v as usize].iter().map(|&u| colour[u as usize]));
            row.sort_unstable();
            s.push(row.len() as u64);
            let mut h = 0u64;
            for &u in &row {
                h = add(mul(h, b.y), u as u64 + 1);
            }
            s.push(h);
        }
        self.spend(n as u64)?;
        let hash = s.finish();
        match self.best {
            Some(best) if hash == best => {
                // The same graph: best_perm⁻¹ ∘ this labelling is an automorphism.
                let mut by_label = vec![0u32; n];
                for (v, &c) in self.best_perm.iter().enumerate() {
                    by_label[c as usize] = v as u32;
                }
                for v in 0..n {
                    let image = by_label[colour[v] as usize];
                    self.union(v as u32, image);
                }
            }
            Some(best) if hash > best => {}
            _ => {
                self.best = Some(hash);
                self.best_perm = colour.to_vec();
            }
        }
        Some(())
    }

    fn find(&mut self, v: u32) -> u32 {
        let mut r = v;
        while self.orbits[r as usize] != r {
            r = self.orbits[r as usize];
        }
        let mut x = v;
        while self.orbits[x as usize] != r {
            let next = self.orbits[x as usize];
            self.orbits[x as usize] = r;
            x = next;
        }
        r
    }

    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.orbits[ra.max(rb) as usize] = ra.min(rb);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adjacency(n: usize, edges: &[(u32, u32)]) -> Vec<Vec<u32>> {
        let mut adj = vec![Vec::new(); n];
        for &(a, b) in edges {
            adj[a as usize].push(b);
            adj[b as usize].push(a);
        }
        for r in &mut adj {
            r.sort_unstable();
        }
        adj
    }

    fn form(n: usize, edges: &[(u32, u32)], colour: &[u64]) -> u64 {
        canonical_hash(Coloured { neighbours: &adjacency(n, edges), colour }).expect("small")
    }

    fn relabel(edges: &[(u32, u32)], perm: &[u32]) -> Vec<(u32, u32)> {
        edges.iter().map(|&(a, b)| (perm[a as usize], perm[b as usize])).collect()
    }

    #[test]
    fn relabelled_graphs_have_one_form_and_different_graphs_differ() {
        // The Petersen graph and a 3-regular graph on 10 nodes that is not it (the pentagonal prism).
        let petersen: Vec<(u32, u32)> = vec![
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 0),
            (0, 5),
            (1, 6),
            (2, 7),
            (3, 8),
            (4, 9),
            (5, 7),
            (7, 9),
            (9, 6),
            (6, 8),
            (8, 5),
        ];
        let prism: Vec<(u32, u32)> = vec![
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 0),
            (0, 5),
            (1, 6),
            (2, 7),
            (3, 8),
            (4, 9),
            (5, 6),
            (6, 7),
            (7, 8),
            (8, 9),
            (9, 5),
        ];
        let plain = [0u64; 10];
        let perm = [7, 3, 9, 0, 5, 1, 8, 2, 6, 4];
        assert_eq!(form(10, &petersen, &plain), form(10, &relabel(&petersen, &perm), &plain));
        assert_ne!(form(10, &petersen, &plain), form(10, &prism, &plain));
        // Colours travel with their nodes.
        let mut lit = [0u64; 10];
        lit[0] = 1;
        let mut lit_moved = [0u64; 10];
        lit_moved[perm[0] as usize] = 1;
        assert_eq!(form(10, &petersen, &lit), form(10, &relabel(&petersen, &perm), &lit_moved));
        let mut two = lit;
        two[1] = 1;
        let mut two_far = lit;
        two_far[2] = 1;
        assert_ne!(
            form(10, &petersen, &two),
            form(10, &petersen, &two_far),
            "adjacent pair against a pair at distance 2"
        );
    }

    #[test]
    fn symmetric_graphs_stay_cheap() {
        let n = 60u32;
        let complete: Vec<(u32, u32)> = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect();
        let cycle: Vec<(u32, u32)> = (0..n).map(|a| (a, (a + 1) % n)).collect();
        let plain = vec![0u64; n as usize];
        let perm: Vec<u32> = (0..n).map(|v| (v * 7 + 3) % n).collect();
        assert_eq!(form(n as usize, &complete, &plain), form(n as usize, &relabel(&complete, &perm), &plain));
        assert_eq!(form(n as usize, &cycle, &plain), form(n as usize, &relabel(&cycle, &perm), &plain));
        assert_ne!(form(n as usize, &cycle, &plain), form(n as usize, &complete, &plain));
    }

    #[test]
    fn the_work_bound_grows_with_the_graph_and_stops_hard_ones() {
        // Large complete graphs are cheap: their nodes are twins.
        let n = 300u32;
        let complete: Vec<(u32, u32)> = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect();
        let adj = adjacency(n as usize, &complete);
        assert!(canonical_hash(Coloured { neighbours: &adj, colour: &vec![0; n as usize] }).is_some());
        // The 10-dimensional hypercube is too symmetric for this search: no
        // form, and the search stops at its bound (about 2,000 units a node
        // and edge), not at the largest bound.
        let d = 10;
        let cube: Vec<(u32, u32)> =
            (0..1u32 << d).flat_map(|v| (0..d).map(move |b| (v, v ^ (1 << b)))).filter(|(a, b)| a < b).collect();
        let adj = adjacency(1 << d, &cube);
        let colour = vec![0u64; 1 << d];
        assert!(canonical_hash(Coloured { neighbours: &adj, colour: &colour }).is_none());
        let items = (1u64 << d) + cube.len() as u64;
        assert!(canonical_hash_within(Coloured { neighbours: &adj, colour: &colour }, items * WORK_PER_ITEM).is_none());
    }
}
