//! Authoring tools for `.lights` puzzles, on top of the compiler: generate
//! solvable puzzles, tabulate solution counts over board sizes, count the
//! solvable positions with K lights on, draw boards as SVG/PNG, export the
//! linear system (JSON, Sage), and import other formats. Boards may be
//! square or hexagonal and have holes, and puzzles may be played on graphs:
//! every tool goes through the compiler's `lower`/`press_pattern`, which
//! know every shape (`import` writes square boards only). Pure library
//! code: the CLI parses arguments and prints.

// A library reports through its return values; printing is the command line's.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod census;
pub mod export;
pub mod flip;
pub mod generate;
pub mod import;
pub mod pack_json;
pub mod pack_plot;
pub mod picture;
pub mod puzzle_text;
pub mod shard;
pub mod table;
