//! `taku`: the command-line face of the engine.
//!
//! Subcommands: `roll` (evaluate commands, one-shot or line by line from stdin), `conform`
//! (replay BCDice-format vectors), `systems`, `help`, `table` (tables in a database),
//! `repl` (an interactive table), `sheet` (read a character sheet) and `mtg` (the MTG-based
//! TRPG's checks, odds and card index), `serve` (HTTP) and `prob` (exact odds). The key design decision: the CLI
//! only parses flags and prints; every rule lives in the library crates.

// First: its `print!`/`println!` replace std's in every module below.
#[macro_use]
mod out;

mod bcdice;
mod conform;
mod lang;
mod mtg;
mod mtg_cards;
mod prob;
mod render;
mod repl;
mod roll;
mod serve;
mod sheet;
mod table;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// taku: a rules engine for tabletop RPGs, speaking BCDice's command language.
#[derive(Debug, Parser)]
#[command(name = "taku", version, about, long_about = None, disable_help_subcommand = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Language of human output: ja or en (default: from LANG, else Japanese; at a
    /// table, the table's language).
    #[arg(long, global = true, env = "TAKU_LANG")]
    lang: Option<String>,
    /// A directory holding npm bcdice (see `taku bcdice install`): BCDice's JavaScript build
    /// then evaluates the systems taku does not carry natively [env: TAKU_BCDICE_JS].
    #[arg(long, global = true, value_name = "DIR")]
    bcdice_js: Option<std::path::PathBuf>,
    /// Worker processes of the reference engine at most (default 2).
    #[arg(long, global = true, value_name = "N", env = "TAKU_BCDICE_WORKERS")]
    bcdice_workers: Option<usize>,
    /// Time limit of one reference-engine evaluation, in milliseconds (default 2000); a
    /// command past it is stopped and its worker replaced.
    #[arg(long, global = true, value_name = "MS", env = "TAKU_BCDICE_TIME_LIMIT")]
    bcdice_time_limit: Option<u64>,
    /// The MTG-based TRPG's card index for tables and the server (default: $TAKU_CARDS,
    /// else the data directory's cards.idx; `taku mtg cards --load FILE` builds it).
    #[arg(long, global = true, value_name = "FILE")]
    card_index: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Evaluate a dice command (`-` reads one command per line from stdin).
    Roll(roll::RollArgs),
    /// Replay BCDice-format TOML test vectors and report every mismatch.
    Conform(conform::ConformArgs),
    /// List the game systems (id, name and the engine evaluating each).
    Systems,
    /// Set up BCDice's JavaScript build for the systems taku does not carry natively.
    #[command(subcommand)]
    Bcdice(bcdice::BcdiceCommand),
    /// Tables: shared game sessions stored in a database file.
    #[command(subcommand)]
    Table(table::TableCommand),
    /// An interactive table with line editing and history.
    Repl(repl::ReplArgs),
    /// Read a character sheet, print it with derived values and every rule violation.
    Sheet(sheet::SheetArgs),
    /// Serve bcdice-api v2, the table API and live updates over HTTP.
    Serve(serve::ServeArgs),
    /// The exact odds of a command: success, critical, fumble, the whole distribution.
    Prob(prob::ProbArgs),
    /// The MTG-based TRPG: a check on a library, exact odds, the card index.
    #[command(subcommand)]
    Mtg(mtg::MtgCommand),
    /// Show a game system's help.
    Help {
        /// System id, as listed by `taku systems`.
        id: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(e) = lang::init(cli.lang.as_deref()) {
        eprintln!("taku: {e}");
        return ExitCode::from(2);
    }
    if let Err(e) = bcdice::configure(
        cli.bcdice_js.as_ref(),
        cli.bcdice_workers,
        cli.bcdice_time_limit,
    ) {
        eprintln!("taku: {e:#}");
        return ExitCode::from(2);
    }
    if let Some(index) = cli.card_index {
        mtg_cards::set_index_path(index);
    }
    let outcome = match cli.command {
        Command::Roll(args) => roll::run(&args),
        Command::Conform(args) => conform::run(&args),
        Command::Table(cmd) => table::run(cmd),
        Command::Repl(args) => repl::run(&args),
        Command::Sheet(args) => sheet::run(&args),
        Command::Mtg(cmd) => mtg::run(cmd),
        Command::Serve(args) => serve::run(&args),
        Command::Prob(args) => prob::run(&args),
        Command::Systems => {
            for s in taku_systems::systems() {
                println!("{}\t{}\t{}", s.id(), s.name(), s.engine().label());
            }
            if taku_systems::reference::engine().is_none() {
                eprintln!(
                    "taku: {}",
                    taku_systems::reference::how_to_enable().get(lang::human())
                );
            }
            Ok(true)
        }
        Command::Bcdice(cmd) => bcdice::run(cmd),
        Command::Help { id } => roll::system(&id).map(|s| {
            println!(
                "{} ({})\n\n{}",
                if lang::human() == taku_dice::Lang::En {
                    s.name_en()
                } else {
                    s.name()
                },
                s.id(),
                taku_systems::full_help(s).get(lang::human())
            );
            true
        }),
    };
    table::close_stores();
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("taku: {e:#}");
            ExitCode::FAILURE
        }
    }
}
