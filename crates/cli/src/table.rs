//! `taku table`: create tables, run lines at them, read their logs.

use anyhow::{Context, Result};
use serde_json::json;
use std::path::{Path, PathBuf};
use taku_dice::ChaChaSource;
use taku_table::Table;
use taku_table::store::SqliteStore;

/// `taku table …`
#[derive(Debug, clap::Subcommand)]
pub enum TableCommand {
    /// Create a table; prints only its id.
    New {
        /// Game system id (see `taku systems`).
        #[arg(long)]
        system: String,
        /// Database file (created on first use).
        #[arg(long, default_value = "taku.db")]
        db: PathBuf,
        /// Table name.
        #[arg(long, default_value = "table")]
        name: String,
        /// Name of the GM (the creator).
        #[arg(long, default_value = "gm")]
        gm: String,
    },
    /// Run lines at a table, in order, and print what that member sees.
    Exec {
        /// Database file.
        #[arg(long, default_value = "taku.db")]
        db: PathBuf,
        /// Table id.
        table: String,
        /// Member to act as (default: the GM).
        #[arg(long = "as")]
        member: Option<String>,
        /// Print JSON lines.
        #[arg(long)]
        json: bool,
        /// Lines: dice commands, chat, or /commands (`/help` lists them).
        #[arg(required = true)]
        lines: Vec<String>,
    },
    /// Print a table's log as a member sees it.
    Log {
        /// Database file.
        #[arg(long, default_value = "taku.db")]
        db: PathBuf,
        /// Table id.
        table: String,
        /// Member whose view to print (default: the GM).
        #[arg(long = "as")]
        member: Option<String>,
        /// Print JSON lines.
        #[arg(long)]
        json: bool,
    },
    /// List the tables in a database.
    List {
        /// Database file.
        #[arg(long, default_value = "taku.db")]
        db: PathBuf,
    },
    /// Replay every roll of a table from its seed and report any mismatch.
    Verify {
        /// Database file.
        #[arg(long, default_value = "taku.db")]
        db: PathBuf,
        /// Table id.
        table: String,
    },
}

/// Runs a `taku table` subcommand; `Ok(false)` when a line was refused or a check failed.
pub fn run(cmd: TableCommand) -> Result<bool> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    rt.block_on(run_async(cmd))
}

async fn open(db: &Path) -> Result<SqliteStore> {
    Ok(SqliteStore::open(db).await?)
}

fn gm_of(table: &Table) -> String {
    table
        .members()
        .iter()
        .find(|(_, role)| **role == taku_table::Role::Gm)
        .map(|(name, _)| name.clone())
        .unwrap_or_default()
}

async fn run_async(cmd: TableCommand) -> Result<bool> {
    match cmd {
        TableCommand::New {
            system,
            db,
            name,
            gm,
        } => {
            let (_, seed) =
                ChaChaSource::from_os().context("cannot draw a seed from the operating system")?;
            let table = Table::create(&system, &name, &gm, seed)?;
            let store = open(&db).await?;
            println!("{}", store.create(&table).await?);
            Ok(true)
        }
        TableCommand::Exec {
            db,
            table,
            member,
            json,
            lines,
        } => {
            let store = open(&db).await?;
            let actor = match member {
                Some(m) => m,
                None => gm_of(&store.table(&table).await?),
            };
            for line in &lines {
                match store.exec(&table, &actor, line).await? {
                    Ok(done) => {
                        for e in &done.events {
                            if let Some(text) = done.table.view(e, &actor) {
                                print_line(json, Some(e.seq), &text);
                            }
                        }
                        if let Some(reply) = done.reply {
                            print_line(json, None, &reply);
                        }
                    }
                    Err(refusal) => {
                        if json {
                            println!(
                                "{}",
                                json!({"ok": false, "line": line, "reason": refusal.to_string()})
                            );
                        } else {
                            eprintln!("refused: {line}: {refusal}");
                        }
                        return Ok(false);
                    }
                }
            }
            Ok(true)
        }
        TableCommand::Log {
            db,
            table,
            member,
            json,
        } => {
            let store = open(&db).await?;
            let t = store.table(&table).await?;
            let viewer = member.unwrap_or_else(|| gm_of(&t));
            for e in t.events() {
                if let Some(text) = t.view(e, &viewer) {
                    print_line(json, Some(e.seq), &text);
                }
            }
            Ok(true)
        }
        TableCommand::List { db } => {
            for t in open(&db).await?.list().await? {
                println!("{}\t{}\t{}\t{} events", t.id, t.system, t.name, t.events);
            }
            Ok(true)
        }
        TableCommand::Verify { db, table } => {
            let t = open(&db).await?.table(&table).await?;
            let mismatches = t.verify();
            for m in &mismatches {
                println!(
                    "#{}: log says {:?}, replay gives {:?}",
                    m.seq, m.logged, m.replayed
                );
            }
            let rolls = t
                .events()
                .iter()
                .filter(|e| matches!(e.body, taku_table::EventBody::Roll(_)))
                .count();
            println!("{} rolls replayed, {} mismatched", rolls, mismatches.len());
            Ok(mismatches.is_empty())
        }
    }
}

fn print_line(json: bool, seq: Option<u64>, text: &str) {
    if json {
        println!("{}", json!({"ok": true, "seq": seq, "text": text}));
    } else {
        println!("{text}");
    }
}
