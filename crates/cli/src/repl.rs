//! `taku repl`: an interactive table with line editing and history. Lines go to the table
//! exactly as `taku table exec` sends them; lines starting with `:` are the REPL's own
//! (`:as NAME` to speak as another member of a table played at one keyboard, `:log`,
//! `:verify`, `:help`, `:quit`).

use crate::table::{exec_line, gm_of, open, print_log};
use anyhow::{Context, Result};
use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;
use std::path::PathBuf;
use taku_dice::ChaChaSource;
use taku_table::Table;
use taku_table::store::{Store, Tables};

/// `taku repl` arguments.
#[derive(Debug, clap::Args)]
pub struct ReplArgs {
    /// Game system of a new table (see `taku systems`).
    #[arg(long, default_value = "DiceBot")]
    system: String,
    /// Database: a SQLite file (created on first use) or a postgres:// URL.
    #[arg(long, default_value = "taku.db", env = "TAKU_DB")]
    db: String,
    /// Open this existing table instead of creating one.
    #[arg(long)]
    table: Option<String>,
    /// Member to speak as (default: the GM).
    #[arg(long = "as")]
    member: Option<String>,
    /// Name of the GM of a new table.
    #[arg(long, default_value = "gm")]
    gm: String,
}

const HELP: &str = "\
REPL commands (everything else goes to the table; /help lists the table's commands):
  :as NAME   speak as another member of this table
  :log       the log as you see it
  :verify    replay every roll from the table's seed
  :table     this table's id
  :help      this list
  :quit      leave (Ctrl-D too); the table stays in the database";

/// Where the line history is kept: `$TAKU_HISTORY`, else
/// `$XDG_STATE_HOME/taku/history`, else `~/.local/state/taku/history`.
fn history_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TAKU_HISTORY") {
        return Some(PathBuf::from(p));
    }
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    Some(state.join("taku").join("history"))
}

/// Runs the REPL until `:quit` or end of input.
pub fn run(args: &ReplArgs) -> Result<bool> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let tables = rt.block_on(open(&args.db))?;
    let id = match &args.table {
        Some(id) => id.clone(),
        None => {
            let (_, seed) =
                ChaChaSource::from_os().context("cannot draw a seed from the operating system")?;
            let table = Table::create(&args.system, "repl", &args.gm, seed)?;
            rt.block_on(tables.create(table))?
        }
    };
    let (system, gm) = rt.block_on(tables.read(&id, |t| (t.system().id(), gm_of(t))))?;
    let mut actor = args.member.clone().unwrap_or(gm);
    println!(
        "table {id} ({system}) in {}; you are {actor}. /help lists the table's commands, :help the REPL's; Ctrl-D leaves.",
        args.db
    );

    let mut editor = DefaultEditor::new().context("cannot start line editing")?;
    let history = history_path();
    if let Some(path) = &history {
        // A missing history file is the normal first run.
        let _ = editor.load_history(path);
    }
    loop {
        let line = match editor.readline(&format!("{actor}> ")) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e).context("reading a line"),
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let _ = editor.add_history_entry(line);
        if let Some(meta) = line.strip_prefix(':') {
            if !rt.block_on(meta_command(&tables, &id, &mut actor, meta))? {
                break;
            }
        } else {
            // A refusal is printed and the REPL goes on.
            rt.block_on(exec_line(&tables, &id, &actor, line, false))?;
        }
    }
    if let Some(path) = &history {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = editor.save_history(path) {
            eprintln!("taku: could not save history to {}: {e}", path.display());
        }
    }
    Ok(true)
}

/// Runs a `:` command; `Ok(false)` to leave.
async fn meta_command(
    tables: &Tables<Store>,
    id: &str,
    actor: &mut String,
    meta: &str,
) -> Result<bool> {
    let words: Vec<&str> = meta.split_whitespace().collect();
    match words.as_slice() {
        ["quit" | "q" | "exit"] => return Ok(false),
        ["help"] => println!("{HELP}"),
        ["table"] => println!("{id}"),
        ["log"] => print_log(tables, id, Some(actor.clone()), false).await?,
        ["as", name] => {
            let known = tables.read(id, |t| t.members().contains_key(*name)).await?;
            if known {
                *actor = name.to_string();
            } else {
                eprintln!(
                    "'{name}' is not a member of this table; the GM adds members with /join {name} as player"
                );
            }
        }
        ["verify"] => {
            let (mismatches, rolls) = tables
                .read(id, |t| {
                    let rolls = t
                        .events()
                        .iter()
                        .filter(|e| matches!(e.body, taku_table::EventBody::Roll(_)))
                        .count();
                    (t.verify().len(), rolls)
                })
                .await?;
            println!("{rolls} rolls replayed, {mismatches} mismatched");
        }
        _ => eprintln!("unknown REPL command ':{meta}'; :help lists them"),
    }
    Ok(true)
}
