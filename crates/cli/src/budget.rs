//! `--minimum-budget DURATION`: defined once, flattened into every command
//! that searches for minimum solutions (check, solve, render, play,
//! generate), and read with the parser of lights.toml's `minimum-budget`.

use std::path::Path;

use lights_compiler::{MinimumBudget, SolveOptions};
use lights_ide::config::{Config, Configs};

/// The flag, as every command that searches minima takes it.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub(crate) struct MinimumBudgetArg {
    /// How long the minimum-press search may work: 250ms, 2s, 1.5s, 1m (at most 1h; 0: no search, the
    /// solution found is shown) [default: about 12ms, or minimum-budget in lights.toml]. Counted work, not a
    /// timer: about that long on a 2-core machine of the 2020s, the same answer on every machine
    #[arg(long, value_name = "DURATION", value_parser = parse, allow_hyphen_values = true)]
    pub minimum_budget: Option<MinimumBudget>,
}

fn parse(text: &str) -> Result<MinimumBudget, String> {
    MinimumBudget::parse(text).map_err(|e| e.to_string())
}

impl MinimumBudgetArg {
    /// The options for files under `config`: the flag wins over the file's
    /// `minimum-budget`, which wins over the default.
    pub(crate) fn options(self, config: Option<&Config>) -> SolveOptions {
        self.minimum_budget
            .or_else(|| config.and_then(|c| c.minimum_budget))
            .map_or_else(SolveOptions::default, MinimumBudget::solve_options)
    }

    /// The options for one input file (`shown` for standard input: the
    /// current folder's lights.toml): the flag, else the nearest
    /// lights.toml's `minimum-budget` (read only when the flag is not
    /// given; a bad file is an error, as in `lights check`).
    pub(crate) fn options_for(self, file: &Path) -> Result<SolveOptions, String> {
        self.budget_for(file).map(MinimumBudget::solve_options)
    }

    /// The budget itself, found as [`MinimumBudgetArg::options_for`] finds it.
    pub(crate) fn budget_for(self, file: &Path) -> Result<MinimumBudget, String> {
        if let Some(budget) = self.minimum_budget {
            return Ok(budget);
        }
        let config = Configs::with_reader(crate::files::read_config).for_file(file)?;
        Ok(config.and_then(|c| c.minimum_budget).unwrap_or_default())
    }
}
