//! `taku table`: create tables, run lines at them, read their logs.

use anyhow::{Context, Result};
use serde_json::json;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;
use taku_dice::{ChaChaSource, Lang, Text};
use taku_table::Table;
use taku_table::store::{EventStore, Store, Tables};

/// `taku table …`
#[derive(Debug, clap::Subcommand)]
pub enum TableCommand {
    /// Create a table; prints only its id.
    New {
        /// Game system id (see `taku systems`).
        #[arg(long)]
        system: String,
        /// Database: a SQLite file (created on first use) or a postgres:// URL.
        #[arg(long, default_value = "taku.db", env = "TAKU_DB")]
        db: String,
        /// Table name.
        #[arg(long, default_value = "table")]
        name: String,
        /// Name of the GM (the creator).
        #[arg(long, default_value = "gm")]
        gm: String,
        /// The table's language, ja or en: what its members read (the GM can change it
        /// later with `/lang`). `--lang` sets only this command's own output.
        #[arg(long, default_value = "ja", value_parser = crate::lang::parse_table_lang)]
        table_lang: Lang,
    },
    /// Run lines at a table, in order, and print what that member sees.
    Exec {
        /// Database: a SQLite file or a postgres:// URL.
        #[arg(long, default_value = "taku.db", env = "TAKU_DB")]
        db: String,
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
    /// Create or update a character from a sheet file (the TOML `taku sheet` reads for the
    /// table's system; for systems without their own sheet, `name = "…"` and one
    /// `key = value` per field).
    Sheet {
        /// Database: a SQLite file or a postgres:// URL.
        #[arg(long, default_value = "taku.db", env = "TAKU_DB")]
        db: String,
        /// Table id.
        table: String,
        /// The sheet file.
        file: std::path::PathBuf,
        /// Member who owns the character (default: the GM).
        #[arg(long = "as")]
        member: Option<String>,
        /// Print JSON lines.
        #[arg(long)]
        json: bool,
    },
    /// Print a table's log as a member sees it.
    Log {
        /// Database: a SQLite file or a postgres:// URL.
        #[arg(long, default_value = "taku.db", env = "TAKU_DB")]
        db: String,
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
        /// Database: a SQLite file or a postgres:// URL.
        #[arg(long, default_value = "taku.db", env = "TAKU_DB")]
        db: String,
    },
    /// Replay every roll of a table from its seed and report any mismatch.
    Verify {
        /// Database: a SQLite file or a postgres:// URL.
        #[arg(long, default_value = "taku.db", env = "TAKU_DB")]
        db: String,
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

pub async fn open(db: &str) -> Result<Tables<Store>> {
    Ok(Tables::new(open_store(db).await?))
}

/// The store `db` names, with the card index installed for MTG-based tables. It stays
/// open until the process ends, when [`close_stores`] closes it.
pub async fn open_store(db: &str) -> Result<Store> {
    install_cards()?;
    let store = Store::open(db).await?;
    OPENED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(store.clone());
    Ok(store)
}

/// Every store this process opened (clones share their connections), closed on the way
/// out wherever that is: the end of `main`, or a write to a stdout nobody reads.
static OPENED: Mutex<Vec<Store>> = Mutex::new(Vec::new());

/// How long closing may wait for connections still in use.
const CLOSE_WAIT: Duration = Duration::from_secs(10);

/// Closes every store this process opened, so that a SQLite file is checkpointed and
/// complete on its own once the process ends (and `.db-wal` and `.db-shm` are gone);
/// failures are reported on stderr, as the process is ending anyway.
///
/// Called from inside a runtime (a write to a gone stdout, from `block_on`), it only
/// checkpoints: connections the blocked runtime was about to give back to their pool
/// would keep a close waiting, and the file is just as complete.
pub fn close_stores() {
    let stores = std::mem::take(&mut *OPENED.lock().unwrap_or_else(PoisonError::into_inner));
    if stores.is_empty() {
        return;
    }
    let in_runtime = tokio::runtime::Handle::try_current().is_ok();
    // On a thread of its own: inside a runtime no other can start.
    let closing = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("starting the async runtime")?;
        rt.block_on(async {
            for store in stores {
                let done = if in_runtime {
                    tokio::time::timeout(CLOSE_WAIT, store.checkpoint()).await
                } else {
                    tokio::time::timeout(CLOSE_WAIT, store.close()).await
                };
                done.context("connections still in use")??;
            }
            anyhow::Ok(())
        })
    });
    match closing.join() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => eprintln!("taku: closing the database: {e:#}"),
        Err(_) => eprintln!("taku: closing the database failed"),
    }
}

/// Gives MTG-based tables the card index, when one was built (`taku mtg cards`); the
/// built-in set otherwise. The index is read on the first MTG command that needs cards,
/// not here: one that cannot be read refuses MTG tables' deck loads with why and what to
/// do, and leaves every other table and `taku serve` alone (issue 13, MTG-8).
fn install_cards() -> Result<()> {
    let index = crate::mtg_cards::default_index_path();
    // Installed once per process; a second call keeps the first.
    taku_systems::mtg_trpg::install_card_loader(move || {
        if !index.exists() && !crate::mtg_cards::index_path_named() {
            return Ok(taku_systems::mtg_trpg::builtin::builtin());
        }
        crate::mtg_cards::load_db(Some(&index)).map_err(|e| {
            taku_dice::Text::new(
                format!(
                    "カードデータベースの索引 {} を読めません（{e:#}）。`taku mtg cards --load ファイル` で作り直すか、索引を消すと組み込みのカードだけで遊べます",
                    index.display()
                ),
                format!(
                    "the card index {} cannot be read ({e:#}); rebuild it with `taku mtg cards --load FILE`, or remove it to play with the built-in cards",
                    index.display()
                ),
            )
        })
    });
    Ok(())
}

pub fn gm_of(table: &Table) -> String {
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
            table_lang,
        } => {
            let (_, seed) =
                ChaChaSource::from_os().context("cannot draw a seed from the operating system")?;
            let table = Table::create_speaking(&system, &name, &gm, seed, table_lang)?;
            let tables = open(&db).await?;
            println!("{}", tables.create(table).await?);
            Ok(true)
        }
        TableCommand::Exec {
            db,
            table,
            member,
            json,
            lines,
        } => {
            let tables = open(&db).await?;
            let actor = match member {
                Some(m) => m,
                None => tables.read(&table, gm_of).await?,
            };
            // A refused line stops the run: later lines may depend on it. The refusal
            // and every line not sent are reported.
            for (i, line) in lines.iter().enumerate() {
                if !exec_line(&tables, &table, &actor, line, json).await? {
                    let unsent = &lines[i + 1..];
                    if !unsent.is_empty() {
                        // In the table's language, as the refusal above it (issue 13
                        // play-through 4: Japanese under an English table's refusal).
                        let lang = match crate::lang::chosen() {
                            Some(l) => l,
                            None => tables.read(&table, |t| t.lang()).await?,
                        };
                        report_unsent(unsent, json, lang);
                    }
                    return Ok(false);
                }
            }
            Ok(true)
        }
        TableCommand::Sheet {
            db,
            table,
            file,
            member,
            json,
        } => {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let tables = open(&db).await?;
            let actor = match member {
                Some(m) => m,
                None => tables.read(&table, gm_of).await?,
            };
            let done = tables
                .exec_sheet(&table, &actor, &text, crate::lang::chosen())
                .await?;
            show_executed(&tables, &table, &file.display().to_string(), done, json).await
        }
        TableCommand::Log {
            db,
            table,
            member,
            json,
        } => {
            print_log(&open(&db).await?, &table, member, json).await?;
            Ok(true)
        }
        TableCommand::List { db } => {
            for t in open(&db).await?.store().list().await? {
                println!("{}\t{}\t{}\t{} events", t.id, t.system, t.name, t.events);
            }
            Ok(true)
        }
        TableCommand::Verify { db, table } => {
            let (mismatches, rolls, commands) = open(&db)
                .await?
                .read(&table, |t| {
                    let rolls = t
                        .events()
                        .iter()
                        .filter(|e| matches!(e.body, taku_table::EventBody::Roll(_)))
                        .count();
                    // Commands and resets that drew dice (`/fc create`, `/sg discover`).
                    let commands = t
                        .events()
                        .iter()
                        .filter(|e| {
                            matches!(&e.body, taku_table::EventBody::System { rands, .. } if !rands.is_empty())
                        })
                        .count();
                    (t.verify(), rolls, commands)
                })
                .await?;
            let ja = crate::lang::human() == taku_dice::Lang::Ja;
            for m in &mismatches {
                // The replay's words in Japanese where the check gave them (a system's own
                // replay: an MTG library, a refusal).
                let replayed_ja = m.replayed_ja.as_ref().unwrap_or(&m.replayed);
                match (m.unchecked, ja) {
                    (true, true) => println!("#{}: 再現できませんでした（{}）", m.seq, replayed_ja),
                    (true, false) => println!("#{}: could not be replayed ({})", m.seq, m.replayed),
                    (false, true) => {
                        println!("#{}: 記録 {:?}、再現 {:?}", m.seq, m.logged, replayed_ja)
                    }
                    (false, false) => println!(
                        "#{}: log says {:?}, replay gives {:?}",
                        m.seq, m.logged, m.replayed
                    ),
                }
            }
            // A roll the reference engine could not replay now is not checked, not wrong.
            let unchecked = mismatches.iter().filter(|m| m.unchecked).count();
            let n = mismatches.len() - unchecked;
            if ja {
                println!(
                    "ロール {rolls} 件・ダイスを振ったコマンド {commands} 件を再現、食い違い {n} 件"
                );
            } else if commands == 0 {
                println!("{rolls} rolls replayed, {n} mismatched");
            } else {
                println!(
                    "{rolls} rolls and {commands} commands that drew dice replayed, {n} mismatched"
                );
            }
            if unchecked > 0 {
                println!(
                    "{}",
                    Text::new(
                        format!("参照エンジンが答えず未確認: {unchecked} 件"),
                        format!("not checked (the reference engine gave no answer): {unchecked}"),
                    )
                    .get(crate::lang::human())
                );
            }
            Ok(mismatches.is_empty())
        }
    }
}

/// Runs one line and prints what `actor` sees of it (a refusal on stderr, or as JSON);
/// `Ok(false)` when refused.
pub async fn exec_line(
    tables: &Tables<Store>,
    table: &str,
    actor: &str,
    line: &str,
    json: bool,
) -> Result<bool> {
    let done = tables
        .exec(table, actor, line, crate::lang::chosen())
        .await?;
    show_executed(tables, table, line, done, json).await
}

/// Prints what a line gave, or its refusal (on stderr, or as JSON); `Ok(false)` when
/// refused.
async fn show_executed(
    tables: &Tables<Store>,
    table: &str,
    line: &str,
    done: Result<taku_table::store::Executed, taku_table::Refusal>,
    json: bool,
) -> Result<bool> {
    match done {
        Ok(done) => {
            for entry in &done.seen {
                print_entry(json, entry);
            }
            if let Some(reply) = done.reply {
                print_line(json, None, reply.get(done.lang));
            }
            Ok(true)
        }
        Err(refusal) => {
            let lang = match crate::lang::chosen() {
                Some(l) => l,
                None => tables.read(table, |t| t.lang()).await?,
            };
            let reason = refusal.render(lang);
            if json {
                println!("{}", json!({"ok": false, "line": line, "reason": reason}));
            } else {
                let refused = match lang {
                    Lang::Ja => "拒否",
                    Lang::En => "refused",
                };
                // The line as typed, cut to its first 60 characters (issue 13
                // play-through 5: a 3,000-character line was echoed whole).
                let count = line.chars().count();
                let shown: String = if count > 60 {
                    format!("{}…({count})", line.chars().take(60).collect::<String>())
                } else {
                    line.to_string()
                };
                eprintln!("{refused}: {shown}: {reason}");
            }
            Ok(false)
        }
    }
}

/// Says which lines were not sent after a refusal.
fn report_unsent(unsent: &[String], json: bool, lang: Lang) {
    if json {
        println!("{}", json!({"ok": false, "unsent": unsent}));
        return;
    }
    let head = match lang {
        Lang::Ja => "前の行が拒否されたため、次の行は送っていません:",
        Lang::En => "not sent, because the line before was refused:",
    };
    eprintln!("{head}");
    for l in unsent {
        eprintln!("  {l}");
    }
}

/// Prints table `table`'s log as `member` (default: the GM) sees it.
pub async fn print_log(
    tables: &Tables<Store>,
    table: &str,
    member: Option<String>,
    json: bool,
) -> Result<()> {
    let entries = tables
        .read(table, |t| {
            let viewer = member.unwrap_or_else(|| gm_of(t));
            if !t.members().contains_key(&viewer) {
                let lang = crate::lang::chosen().unwrap_or(t.lang());
                anyhow::bail!(
                    "{}",
                    taku_dice::Text::new(
                        format!("'{viewer}' はテーブル {table} のメンバーではありません"),
                        format!("'{viewer}' is not a member of table {table}"),
                    )
                    .get(lang)
                );
            }
            let lang = crate::lang::chosen().unwrap_or(t.lang());
            Ok(t.events()
                .iter()
                .map(|e| t.entry(e, &viewer, lang))
                .collect::<Vec<_>>())
        })
        .await??;
    for entry in &entries {
        print_entry(json, entry);
    }
    Ok(())
}

/// One log entry: its text, or with `--json` its fields (`seq`, `kind`, `actor`, `text`,
/// `undone`, `voided`, and a roll's `command`, `result`, flags and `rands`).
pub fn print_entry(json: bool, entry: &taku_table::Entry) {
    if json {
        let mut v = serde_json::to_value(entry).unwrap_or_default();
        v["ok"] = json!(true);
        println!("{v}");
    } else {
        println!("{}", terminal_safe(&entry.text));
    }
}

/// `text` safe to print on a terminal (issue 18): control characters (ESC above all) and
/// bidi overrides are shown as escapes, never sent raw, and every line after the first is
/// indented, so an entry's own text cannot pose as another entry (`#7 gm: …`).
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let hidden = |c: char| {
        (c.is_control() && c != '\n')
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(|c| c == '\n' || hidden(c)) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\n    "),
            c if hidden(c) => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

fn print_line(json: bool, seq: Option<u64>, text: &str) {
    if json {
        println!("{}", json!({"ok": true, "seq": seq, "text": text}));
    } else {
        println!("{text}");
    }
}

#[cfg(test)]
mod tests {
    use super::terminal_safe;

    /// Issue 18: `taku table log` never prints raw control characters, and a line of an
    /// entry cannot pass for an entry of its own.
    #[test]
    fn log_output_escapes_control_characters_and_indents_continuations() {
        assert_eq!(terminal_safe("#2 gm: hello"), "#2 gm: hello");
        assert_eq!(
            terminal_safe("#2 eve: hi\n#3 gm: fake\u{1b}[2J\u{202e}x"),
            "#2 eve: hi\n    #3 gm: fake\\u{1b}[2J\\u{202e}x"
        );
    }
}
