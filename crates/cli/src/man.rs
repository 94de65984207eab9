//! `lights man`: the manual pages, made by clap_mangen from the clap
//! commands. Without `--dir`, the top page (`lights(1)`) on standard output;
//! with `--dir DIR`, every page into DIR: `lights.1` and one per
//! subcommand (`lights-check.1`, …, `lights-import-coords.1`), the pages the
//! top page's list of commands refers to.

use std::path::{Path, PathBuf};

use crate::{EXIT_OK, EXIT_USAGE};

pub(crate) fn run(command: clap::Command, dir: Option<&Path>) -> u8 {
    let Some(dir) = dir else {
        return match clap_mangen::Man::new(command).render(&mut std::io::stdout()) {
            Ok(()) => EXIT_OK,
            Err(e) => {
                eprintln!("error: cannot write the manual page: {e}");
                EXIT_USAGE
            }
        };
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: cannot make the folder `{}`: {e}", crate::files::shown_path(dir));
        return EXIT_USAGE;
    }
    match pages(command) {
        Ok(pages) => {
            for (name, text) in pages {
                let path = dir.join(&name);
                if let Err(e) = crate::safe_write::write_text(&path, &text) {
                    eprintln!("error: {e}");
                    return EXIT_USAGE;
                }
                println!("wrote {}", crate::files::shown_path(&path));
            }
            EXIT_OK
        }
        Err(e) => {
            eprintln!("error: cannot make the manual pages: {e}");
            EXIT_USAGE
        }
    }
}

/// Every page as (file name, roff text): the command's, then each visible
/// subcommand's, depth first (as `clap_mangen::generate_to`, which writes
/// files itself; here every write goes through `safe_write`).
pub(crate) fn pages(command: clap::Command) -> std::io::Result<Vec<(PathBuf, String)>> {
    fn add(command: clap::Command, out: &mut Vec<(PathBuf, String)>) -> std::io::Result<()> {
        // Subcommands have no version of their own: every page names the
        // program's, as the top page does.
        let man = clap_mangen::Man::new(command.clone()).source(concat!("lights ", env!("CARGO_PKG_VERSION")));
        let mut text = Vec::new();
        man.render(&mut text)?;
        out.push((PathBuf::from(man.get_filename()), String::from_utf8_lossy(&text).into_owned()));
        for sub in command.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
            add(sub, out)?;
        }
        Ok(())
    }
    let mut command = command.disable_help_subcommand(true);
    command.build();
    let mut out = Vec::new();
    add(command, &mut out)?;
    Ok(out)
}
