//! The flags that say which boards an authoring command works on, beyond
//! their size: `--grid`, `--rule`, `--topology` and `--states`. `generate`,
//! `table` and `census` flatten [`BoardFlags`], so the flags take the same
//! values, with the same help and the same errors, in every command.

use clap::{Args, ValueEnum};
use lights_compiler::flags::{parse_states, parse_topology};
use lights_compiler::model::Topology;

/// `--grid`: the shape of the cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Grid {
    /// Square cells (the default)
    Square,
    /// Hexagons, every second row shifted right by half a cell
    Hex,
}

/// Every command that flattens these has a `--graph` flag, which sets the
/// grid and the topology aside.
#[derive(Args, Clone, Debug)]
pub(crate) struct BoardFlags {
    /// The cells: square, or hex (hexagons, every second row shifted right by half a cell)
    #[arg(long, value_enum, value_name = "SHAPE", default_value_t = Grid::Square, conflicts_with = "graph")]
    pub(crate) grid: Grid,
    /// What a press changes: cross, king, flip, merlin, ring, or a stencil such as '.1. / 111 / .1.' (rows separated by /, braces optional); hex grids and graphs take cross or ring
    #[arg(long, value_name = "RULE", default_value = "cross", value_parser = crate::suggest::rule(), hide_possible_values = true)]
    pub(crate) rule: String,
    /// The surface: plane, cylinder, torus, mobius, klein, projective (hex grids: plane, cylinder, torus; not with --graph)
    #[arg(long, value_name = "NAME", default_value = "plane", value_parser = crate::suggest::topology_with(parse_topology), conflicts_with = "graph", hide_possible_values = true)]
    pub(crate) topology: Topology,
    /// States per light (the modulus W), 2…65536
    #[arg(long, value_name = "W", default_value_t = 2, value_parser = parse_states)]
    pub(crate) states: u32,
}

impl BoardFlags {
    pub(crate) fn hex(&self) -> bool {
        self.grid == Grid::Hex
    }
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use super::*;

    #[derive(Parser)]
    struct Command {
        #[arg(long)]
        graph: Option<String>,
        #[command(flatten)]
        board: BoardFlags,
    }

    fn parse(args: &[&str]) -> Result<BoardFlags, clap::Error> {
        Command::try_parse_from(std::iter::once("x").chain(args.iter().copied())).map(|c| c.board)
    }

    #[test]
    fn defaults_values_and_errors() {
        Command::command().debug_assert();
        let d = parse(&[]).unwrap();
        assert_eq!((d.grid, d.rule.as_str(), d.topology, d.states), (Grid::Square, "cross", Topology::Plane, 2));
        let b = parse(&["--grid", "hex", "--rule", "ring", "--topology", "cross-cap", "--states", "6"]).unwrap();
        assert!(b.hex());
        assert_eq!((b.rule.as_str(), b.topology, b.states), ("ring", Topology::Projective, 6));
        let tours = parse(&["--topology", "tours"]).unwrap_err().to_string();
        assert!(tours.contains("unknown topology `tours` (did you mean `torus`?)"), "{tours}");
        assert!(parse(&["--states", "1"]).unwrap_err().to_string().contains("between 2 and 65536"));
        let both = parse(&["--graph", "petersen", "--topology", "torus"]).unwrap_err().to_string();
        assert!(both.contains("cannot be used with"), "{both}");
    }
}
