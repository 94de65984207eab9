//! Authoring tools for `.lights` puzzles, on top of the compiler: generate
//! solvable puzzles, tabulate solution counts over board sizes, count the
//! solvable positions with K lights on, draw boards as SVG/PNG, export the
//! linear system (JSON, Sage), and import other formats. Pure library code:
//! the CLI parses arguments and prints.

pub mod census;
pub mod export;
pub mod generate;
pub mod import;
pub mod picture;
pub mod table;
