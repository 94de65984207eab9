//! `lights fmt`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use lights_compiler::Diagnostic;
use lights_syntax::{format_source, FormatError};

use crate::{files, render, EXIT_OK, EXIT_PUZZLE_ERROR, EXIT_USAGE};

pub(crate) fn run(paths: &[PathBuf], check_only: bool) -> u8 {
    let Some(files) = files::collect_reporting(paths) else { return EXIT_USAGE };
    let color = render::use_color(std::io::stderr().is_terminal());
    let mut status = EXIT_OK;
    let mut changed = 0;
    let stderr = std::io::stderr();
    for path in &files {
        let shown = path.display().to_string();
        let Some(src) = files::read_reporting(path) else {
            status = EXIT_USAGE;
            continue;
        };
        match format_source(&src) {
            Ok(formatted) if formatted == src => {}
            Ok(formatted) => {
                changed += 1;
                if check_only {
                    println!("would reformat {shown}");
                    status = status.max(EXIT_PUZZLE_ERROR);
                } else if let Err(e) = files::write_atomic(path, &formatted) {
                    eprintln!("error: {e}");
                    status = EXIT_USAGE;
                } else {
                    println!("formatted {shown}");
                }
            }
            Err(FormatError::Syntax(errors)) => {
                let mut err = stderr.lock();
                let _ = writeln!(err, "error: not formatting {shown}: it has syntax errors (fix them first)");
                for e in errors {
                    let _ = render::write_diagnostic(&mut err, &shown, &src, &Diagnostic::from(e), color);
                }
                status = status.max(EXIT_PUZZLE_ERROR);
            }
        }
    }
    if check_only && changed == 0 && status == EXIT_OK {
        eprintln!("{} file(s) already formatted", files.len());
    }
    status
}
