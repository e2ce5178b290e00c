//! `taku bcdice`: sets up the reference engine (BCDice's JavaScript build) that evaluates
//! the game systems taku does not carry natively.

use anyhow::{Context, Result, bail};
use std::path::PathBuf;
use std::process::Command;
use taku_systems::reference::{self, Config, PINNED_VERSION};

/// `taku bcdice …`.
#[derive(Debug, clap::Subcommand)]
pub enum BcdiceCommand {
    /// Install npm `bcdice` (the pinned version) into taku's data directory with npm.
    Install {
        /// Install here instead of the data directory (then pass it as --bcdice-js DIR or
        /// TAKU_BCDICE_JS).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Say whether the reference engine is set up, where, and with how many systems.
    Status,
}

/// Runs a `taku bcdice` subcommand.
pub fn run(cmd: BcdiceCommand) -> Result<bool> {
    match cmd {
        BcdiceCommand::Install { dir } => install(dir),
        BcdiceCommand::Status => status(),
    }
}

fn install(dir: Option<PathBuf>) -> Result<bool> {
    let dir = match dir {
        Some(d) => d,
        None => reference::default_dir()
            .context("no data directory: set HOME or XDG_DATA_HOME, or pass --dir DIR")?,
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    eprintln!(
        "taku: installing npm bcdice@{PINNED_VERSION} into {} …",
        dir.display()
    );
    let status = Command::new("npm")
        .args([
            "install",
            "--prefer-offline",
            "--no-audit",
            "--no-fund",
            "--no-save",
            "--prefix",
        ])
        .arg(&dir)
        .arg(format!("bcdice@{PINNED_VERSION}"))
        .status()
        .context("cannot run npm: install Node.js and npm first")?;
    if !status.success() {
        bail!("npm failed ({status}); nothing was changed in taku's settings");
    }
    let engine = reference::Engine::open(Config::new(&dir)).map_err(anyhow::Error::msg)?;
    println!(
        "{} systems of BCDice's JavaScript build are ready in {}",
        engine.systems().len(),
        dir.display()
    );
    if Some(&dir) != reference::default_dir().as_ref() {
        println!(
            "pass --bcdice-js {} (or set TAKU_BCDICE_JS) to use them",
            dir.display()
        );
    }
    Ok(true)
}

fn status() -> Result<bool> {
    match reference::engine() {
        Some(engine) => {
            let c = engine.config();
            println!(
                "reference engine: npm bcdice@{PINNED_VERSION} in {} ({} systems; {} workers, {} ms a command, {} MiB a worker; node: {})",
                c.dir.display(),
                engine.systems().len(),
                c.workers,
                c.time_limit.as_millis(),
                c.memory_mib,
                c.node.display()
            );
            Ok(true)
        }
        None => {
            println!(
                "reference engine: off; {}",
                reference::how_to_enable().get(crate::lang::human())
            );
            Ok(false)
        }
    }
}

/// Applies the global `--bcdice-js DIR`, `--bcdice-workers` and `--bcdice-time-limit`
/// flags before any system is looked up. Without a directory, the limits apply to the one
/// [`Config::detect`] finds.
pub fn configure(
    dir: Option<&PathBuf>,
    workers: Option<usize>,
    time_limit_ms: Option<u64>,
) -> Result<()> {
    if dir.is_none() && workers.is_none() && time_limit_ms.is_none() {
        return Ok(());
    }
    if workers == Some(0) || time_limit_ms == Some(0) {
        bail!("--bcdice-workers and --bcdice-time-limit must be at least 1");
    }
    let config = match dir {
        Some(dir) => Some(Config::new(dir)),
        None => Config::detect(),
    };
    let config = config.map(|mut c| {
        c.workers = workers.unwrap_or(c.workers);
        if let Some(ms) = time_limit_ms {
            c.time_limit = std::time::Duration::from_millis(ms);
        }
        c
    });
    reference::configure(config).map_err(anyhow::Error::msg)?;
    Ok(())
}
