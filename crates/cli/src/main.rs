//! `lights`: check, solve and format `.lights` puzzle files; serve them to editors.

mod board_flags;
mod budget;
mod census;
mod check;
mod compile;
mod excerpt;
mod export;
mod files;
mod fmt;
mod formats;
mod generate;
mod import;
mod man;
mod output;
mod pack;
mod pattern_databases;
mod picture;
mod play;
mod progress;
mod publish;
mod render;
mod safe_write;
mod solution_out;
mod solve;
mod suggest;
mod table;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Exit statuses (README): 0 all fine, 1 a puzzle has an error, 2 bad usage or an unreadable file.
pub const EXIT_OK: u8 = 0;
pub const EXIT_PUZZLE_ERROR: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

#[derive(Parser)]
#[command(
    name = "lights",
    version,
    about = "Check, solve, generate and draw Lights Out puzzles written in `.lights` files",
    long_about = "Check, solve, format, generate and draw Lights Out puzzles written in `.lights` files, \
        and serve them to editors (`lights lsp`). Sliding-tile puzzles (the 15 puzzle) share the files \
        as `sliding` blocks.\n\n\
        Every puzzle is lowered to a linear system over Z/W and answered exactly.\n\
        Exit status: 0 when every file is fine, 1 when any puzzle has an error,\n\
        2 for bad usage or an unreadable file.",
    after_help = "Examples:\n  lights check examples/\n  lights check --format json examples/level-pack.lights\n  lights fmt --check examples/\n  lights generate --size 6x6 --unique --count 10 --name level -o pack.lights\n  lights render examples/classic.lights -o classic.svg"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// When to colour the output: auto (on a terminal, unless NO_COLOR is set; or when FORCE_COLOR is), always, never
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = render::ColorChoice::Auto)]
    color: render::ColorChoice,
    /// The largest input file to read (bytes, or with a unit: 500K, 64M, 1G) [default: 64M, or max-bytes in lights.toml]
    #[arg(long, global = true, value_name = "SIZE", value_parser = files::parse_size)]
    max_bytes: Option<u64>,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and verify every puzzle in the given files and folders
    #[command(
        long_about = "Parse and verify every puzzle in the given files and folders (the current folder when \
            none is given; folders are searched recursively for *.lights files, skipping hidden entries and \
            what .gitignore and .ignore list, while a file named on the command line is always checked; `-` \
            reads standard input). Reports every syntax and meaning error, \
            an unsolvable puzzle without `expect unsolvable`, every `expect` that does not hold, and a \
            `solution` that does not solve its puzzle. Sliding blocks are checked the same way (solvability \
            by the invariant, `expect moves N` against the fewest moves, `solution` strings replayed); blocks \
            of at least 4×4 are searched with pattern databases: quick ones built in tenths of a second, or \
            the full ones cached in $LIGHTS_CACHE_DIR, else $XDG_CACHE_HOME/lights, else ~/.cache/lights \
            (built there, in a few seconds, only when many hard 4×4 blocks need them).\n\n\
            --answer yes-no prints only `Yes` (solvable) or `No` (not solvable) for each puzzle, one line per \
            puzzle in file order, for scripts and programming exercises; errors go to standard error and make \
            the exit status 1, and a puzzle with errors prints no answer.\n\n\
            --format picks the output: human (the default), json (an object per puzzle), concise (one \
            `file:line:col: severity[code] message` line per diagnostic), github (annotations for GitHub \
            Actions), sarif (SARIF 2.1.0 for code scanning) or junit (JUnit XML, a test case per puzzle). \
            See docs/ci.md.",
        after_help = "Examples:\n  lights check examples/\n  lights check pack.lights --format json\n  lights check -q examples/   # only the problems\n  lights check --format github examples/   # annotations in a GitHub workflow\n  lights check --format sarif examples/ > lights.sarif\n  lights check --minimum-budget 2s examples/classic.lights   # let the minimum search work up to about 2 s (to prove `expect presses`)\n  lights import coords in.txt | lights check --answer yes-no -"
    )]
    Check {
        /// Files and folders to check (`-` for standard input) [default: the current folder]
        #[arg(value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Output format
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Print only the problems (and the summary when there are any): nothing at all when all is fine
        #[arg(short, long)]
        quiet: bool,
        /// The name to give standard input (`-`) in messages and reports
        #[arg(long, value_name = "NAME")]
        stdin_filename: Option<PathBuf>,
        /// Use this lights.toml for every file (instead of the nearest one above each file)
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// Fail (exit 1) when there are more than N warnings
        #[arg(long, value_name = "N", conflicts_with = "deny_warnings")]
        max_warnings: Option<usize>,
        /// Fail (exit 1) on any warning (--max-warnings 0)
        #[arg(long)]
        deny_warnings: bool,
        /// Follow symbolic links met inside folders (not followed by default; links named on the command line always are)
        #[arg(short = 'L', long)]
        follow: bool,
        /// Print only the answer for each puzzle: `yes-no` prints `Yes` or `No` (solvable or not)
        #[arg(long, value_enum, value_name = "KIND", conflicts_with_all = ["format", "quiet"])]
        answer: Option<check::Answer>,
        #[command(flatten)]
        minimum_budget: budget::MinimumBudgetArg,
    },
    /// Solve the puzzles of a file and show a minimum solution
    #[command(
        long_about = "Solve every puzzle of FILE (or only --puzzle NAME) and print the result: solvable or not \
            (with the reason), the exact number of solutions, and a solution with the fewest presses, \
            drawn on the board. A sliding block (sliding-tile puzzle) gets its moves instead (U D L R, \
            the way the blank goes): the proven fewest on boards of at most 16 cells (4×4, 3×5, …; \
            not 2×7 or 2×8, and not when the search runs past its budget), otherwise a correct \
            sequence marked as not proven shortest.\n\n\
            --write puts each solution into the file as a `solution` statement, leaving every other byte \
            as it was: a Lights Out grid is inserted or replaces the one there (on boards over 4,096 cells, an \
            `at` list of the pressed cells when that is shorter; more than 16 MiB of text is refused: use \
            --solution-out); a sliding block's moves \
            are inserted, or replace a `solution` that does not reach the goal or is longer; a correct \
            one that is no longer is kept (so is a correct Lights Out solution no longer than the minimum, \
            in whatever form it was written). A replaced solution's comments are kept above the new one, and \
            the file keeps its line endings (CRLF files get CRLF lines). The file is written only when every \
            new solution checks.\n\n\
            Sliding blocks of at least 4×4 are searched with pattern databases: quick ones built in tenths of \
            a second, or the full ones cached in $LIGHTS_CACHE_DIR, else $XDG_CACHE_HOME/lights, else \
            ~/.cache/lights (built there, in a few seconds with a progress bar on a terminal, only when many \
            hard 4×4 blocks need them).",
        after_help = "Examples:\n  lights solve examples/classic.lights\n  lights solve pack.lights --puzzle level-3\n  lights solve pack.lights --write\n  lights solve examples/sliding.lights --puzzle \"eight, hardest\"\n  lights solve pack.lights --format json\n  lights solve examples/torus-40.lights --puzzle torus-40-diamond --minimum-budget 250ms   # search longer for the fewest presses\n  lights solve examples/torus-40.lights --minimum-budget 0    # no search: the solution found, at once\n  lights solve examples/all-lights-48.lights --solution-out all-lights-48.png"
    )]
    Solve {
        /// The file to solve (`-` for standard input)
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The name to give standard input in messages
        #[arg(long, value_name = "NAME")]
        stdin_filename: Option<PathBuf>,
        /// Only the puzzle with this name
        #[arg(long, value_name = "NAME")]
        puzzle: Option<String>,
        /// Insert or replace each solvable puzzle's `solution` in the file (a sliding block's correct
        /// solution is kept unless a shorter one was found)
        #[arg(long)]
        write: bool,
        /// Write the minimum solution of the puzzle (one puzzle: use --puzzle when the file has several)
        /// to this file instead, streamed row by row: `.txt` (a grid of press counts, `.` for none), `.pbm` (binary P4) or `.png`
        /// (one pixel per cell, black = pressed) — for boards too large to print
        #[arg(long, value_name = "PATH")]
        solution_out: Option<PathBuf>,
        /// Output format
        #[arg(long, value_enum, default_value_t = SolveFormat::Human)]
        format: SolveFormat,
        #[command(flatten)]
        minimum_budget: budget::MinimumBudgetArg,
    },
    /// Rewrite files in canonical form
    #[command(
        long_about = "Rewrite files in canonical form: two-space indentation, one statement per line, \
            aligned grids (compact rows on boards wider than 32 columns), comments kept in place. \
            A file that does not parse is left untouched and reported. Files are replaced atomically.\n\n\
            Exit status: 0 when every file is (or now is) formatted; 1 with --check or --diff when a file \
            would be reformatted; 2 when a file could not be read or parsed (its syntax errors are shown), \
            or on bad usage. As prettier: 2 wins over 1.",
        after_help = "Examples:\n  lights fmt examples/\n  lights fmt --check .   # in CI: exit 1 if a file would change, 2 if one does not parse\n  lights fmt --check --format github examples/   # annotations in a GitHub workflow\n  lights fmt --diff examples/\n  lights fmt - < examples/classic.lights   # an editor's format-on-save"
    )]
    Fmt {
        /// Files and folders to format (`-`: standard input to standard output) [default: the current folder]
        #[arg(value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Change nothing; list the files that would change and exit 1 if any (2 if a file cannot be read or parsed)
        #[arg(long, conflicts_with = "diff")]
        check: bool,
        /// Change nothing; print a unified diff of what would change and exit 1 if anything would
        #[arg(long)]
        diff: bool,
        /// How --check lists a file that would change: human, concise (file:line:col) or github (annotations)
        #[arg(long, value_enum, default_value_t = fmt::FmtFormat::Human)]
        format: fmt::FmtFormat,
        /// The name to give standard input in messages
        #[arg(long, value_name = "NAME")]
        stdin_filename: Option<PathBuf>,
        /// Follow symbolic links met inside folders (not followed by default; links named on the command line always are)
        #[arg(short = 'L', long)]
        follow: bool,
    },
    /// Run the language server on standard input and output
    #[command(
        long_about = "Run the language server (LSP) on standard input and output, for editors: diagnostics \
            as you type, solution counts in code lenses and inlay hints, code actions that insert the minimum \
            solution or make an unsolvable puzzle solvable, hover, formatting, completion, document symbols \
            and folding. Editors start it themselves; see docs/editors.md. Settings (initializationOptions or \
            workspace/didChangeConfiguration, under \"lights\"): codeLens.enable (default true), \
            inlayHints.enable (default false), solver.timeBudgetMs (default 10000), solver.minimumBudget (as \
            --minimum-budget: \"2s\"; default about 10ms; lights.toml's minimum-budget wins).",
        after_help = "Example (any editor): command `lights lsp`, file pattern `*.lights`, language id `lights`"
    )]
    Lsp,
    /// Print a shell completion script
    #[command(
        long_about = "Print the completion script of a shell on standard output: commands, options and their \
            values complete as you type.",
        after_help = "Examples:\n  lights completions bash > lights.bash   # into ~/.local/share/bash-completion/completions/lights\n  lights completions zsh > _lights        # into a folder of $fpath\n  lights completions fish > lights.fish   # into ~/.config/fish/completions/"
    )]
    Completions {
        /// The shell
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write every page into a folder
    #[command(
        long_about = "Print the manual page of `lights` (roff) on standard output. With --dir DIR, write every \
            page into DIR instead: lights.1 and one page per command (lights-check.1, lights-fmt.1, …, \
            lights-import-coords.1), the pages lights(1) refers to.",
        after_help = "Examples:\n  lights man > lights.1   # then: man ./lights.1\n  lights man --dir man/   # every page; then: MANPATH=$PWD/man: man lights-check"
    )]
    Man {
        /// Write every page (lights.1, lights-check.1, …) into this folder (made if missing)
        #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
        dir: Option<PathBuf>,
    },
    // Authoring tools: each command's help text is on its `Args` struct.
    Generate(generate::Args),
    Table(table::Args),
    Census(census::Args),
    Render(picture::Args),
    Compile(compile::Args),
    Import(import::Args),
    Export(export::Args),
    Play(play::Args),
    Publish(publish::Args),
    Pack(pack::Args),
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Reports for people, coloured on a terminal
    Human,
    /// One JSON array with an object per puzzle, in file order
    Json,
    /// One line per diagnostic: file:line:col: severity[code] message
    Concise,
    /// GitHub Actions annotations (workflow commands)
    Github,
    /// SARIF 2.1.0, for code scanning dashboards
    Sarif,
    /// JUnit XML: a test case per puzzle
    Junit,
}

/// The formats of `lights solve`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SolveFormat {
    /// The result and the solution drawn on the board
    Human,
    /// One JSON array with an object per puzzle (the objects of `check --format json`)
    Json,
}

/// The paths given, or the current folder when there are none.
fn or_here(paths: Vec<PathBuf>) -> Vec<PathBuf> {
    if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    render::set_color(cli.color);
    if let Some(limit) = cli.max_bytes {
        files::set_max_bytes(limit);
    }
    let code = match cli.command {
        Command::Check {
            paths,
            format,
            quiet,
            stdin_filename,
            config,
            max_warnings,
            deny_warnings,
            answer,
            follow,
            minimum_budget,
        } => {
            files::set_follow_links(follow);
            let options = check::Options {
                stdin_filename: stdin_filename.as_deref(),
                format,
                quiet,
                answer,
                config: config.as_deref(),
                max_warnings: if deny_warnings { Some(0) } else { max_warnings },
                minimum_budget,
            };
            check::run(&or_here(paths), options)
        }
        Command::Solve { file, stdin_filename, puzzle, write, solution_out, format, minimum_budget } => {
            let shown = files::shown(&file, stdin_filename.as_deref());
            let options = solve::Options {
                puzzle: puzzle.as_deref(),
                write,
                solution_out: solution_out.as_deref(),
                format,
                minimum_budget,
            };
            solve::run(&file, &shown, options)
        }
        Command::Fmt { paths, check, diff, format, stdin_filename, follow } => {
            files::set_follow_links(follow);
            let mode = if diff {
                fmt::Mode::Diff
            } else if check {
                fmt::Mode::Check
            } else {
                fmt::Mode::Write
            };
            fmt::run(&or_here(paths), stdin_filename.as_deref(), mode, format)
        }
        Command::Generate(args) => generate::run(args),
        Command::Table(args) => table::run(args),
        Command::Census(args) => census::run(args),
        Command::Render(args) => picture::run(args),
        Command::Compile(args) => compile::run(args),
        Command::Import(args) => import::run(args),
        Command::Export(args) => export::run(args),
        Command::Play(args) => play::run(args),
        Command::Publish(args) => publish::run(args),
        Command::Pack(args) => pack::run(args),
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "lights", &mut std::io::stdout());
            EXIT_OK
        }
        Command::Man { dir } => man::run(<Cli as clap::CommandFactory>::command(), dir.as_deref()),
        Command::Lsp => match lights_lsp::run_stdio(
            pattern_databases::CacheFile::in_user_cache().map(|f| std::sync::Arc::new(f) as _),
            files::read_config,
        ) {
            // 1 after `exit` without `shutdown`, as the LSP specification asks.
            Ok(ending) => ending.exit_status(),
            Err(e) => {
                eprintln!("error: cannot start the language server: {e}");
                EXIT_USAGE
            }
        },
    };
    ExitCode::from(code)
}
