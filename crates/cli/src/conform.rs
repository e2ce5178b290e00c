//! `taku conform`: replays BCDice-format vectors with scripted dice.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use taku_systems::conformance::{check, parse_vectors};

/// Arguments of `taku conform`.
#[derive(Debug, clap::Args)]
pub struct ConformArgs {
    /// Vector files or folders (searched recursively for *.toml).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("cannot read folder {}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() || p.extension().is_some_and(|x| x == "toml") {
                collect(&p, out)?;
            }
        }
    } else if path.exists() {
        out.push(path.to_path_buf());
    } else {
        anyhow::bail!("{} does not exist", path.display());
    }
    Ok(())
}

/// Runs every vector; `Ok(false)` if any failed.
pub fn run(args: &ConformArgs) -> Result<bool> {
    let mut files = Vec::new();
    for p in &args.paths {
        collect(p, &mut files)?;
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    for file in files {
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        let vectors = match parse_vectors(&text) {
            Ok(v) => v,
            Err(e) => {
                failed += 1;
                println!("{}: not a vector file: {e}", file.display());
                continue;
            }
        };
        for (i, v) in vectors.iter().enumerate() {
            match check(v) {
                Ok(()) => passed += 1,
                Err(m) => {
                    failed += 1;
                    println!(
                        "{}:{i}  {}  input {:?}\n  expected {}\n  got      {}",
                        file.display(),
                        v.game_system,
                        v.input,
                        m.expected,
                        m.got
                    );
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}
