//! `taku repl`: an interactive table with line editing and history. Lines go to the table
//! exactly as `taku table exec` sends them; lines starting with `:` are the REPL's own
//! (`:as NAME` to speak as another member of a table played at one keyboard, `:log` and
//! its pages, `:verify`, `:help`, `:quit`).
//!
//! The REPL is also a live console: what others append to the table (through the server,
//! another CLI, another REPL) appears as it arrives, above the line being edited, which
//! rustyline then redraws as it was. The key design decision: one [`Feed`] records the
//! last seq printed, and whoever prints an event moves it, under one lock — the line loop
//! for the events its own line appended (printed at once, before the next prompt), the
//! follower task for everything else — so each event is printed once, as the member
//! speaking sees it. The follower learns of appends from PostgreSQL's notices
//! ([`Store::listen`]) or, on SQLite, which has none, by asking the store every
//! [`POLL_INTERVAL`]; it hands its lines to a printer thread that owns rustyline's
//! `ExternalPrinter`, so a slow terminal never holds up the async runtime.

use crate::table::gm_of;
use anyhow::{Context, Result};
use rustyline::error::ReadlineError;
use rustyline::{DefaultEditor, ExternalPrinter as _};
use std::path::PathBuf;
use std::sync::{Arc, mpsc};
use std::time::Duration;
use taku_dice::{ChaChaSource, Lang, Text};
use taku_table::store::{Listener, Notice, Store, StoreError, Tables};
use taku_table::{Event, Table};
use tokio::sync::Mutex;

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

/// How often the follower asks a SQLite store for events appended by other processes:
/// often enough to read as live at a table, rarely enough to cost nothing.
const POLL_INTERVAL: Duration = Duration::from_millis(500);

/// How long the follower waits before listening again after PostgreSQL failed it.
const RETRY_INTERVAL: Duration = Duration::from_secs(2);

/// Entries on one `:log` page.
const LOG_PAGE: usize = 20;

fn help() -> Text {
    Text::new(
        "\
REPLのコマンド（ほかの行はすべて卓へ送られます。卓のコマンドは /help で一覧できます）:
  :as 名前         この卓の別のメンバーとして発言する（見える内容もそのメンバーのものになります）
  :log            あなたに見えるログの最新20件
  :log N          最新N件
  :log from 番号   #番号 から20件
  :log more       続きの20件（または直前と同じ件数）: :log・:log N の後ならさらに前、:log from の後ならさらに後
  :log all        ログ全体
  :verify         卓のシードからすべてのロールを再現して照合する
  :table          この卓のID
  :help           この一覧
  :quit           終了する（Ctrl-D でも）。卓はデータベースに残ります
ほかの人が卓に書いた行は、届きしだい入力中の行の上に表示されます。",
        "\
REPL commands (everything else goes to the table; /help lists the table's commands):
  :as NAME        speak as another member of this table (and see the table as they do)
  :log            the last 20 entries of the log you can see
  :log N          the last N entries
  :log from SEQ   20 entries from #SEQ on
  :log more       the next page, as long as the last: earlier after :log and :log N,
                  later after :log from
  :log all        the whole log
  :verify         replay every roll from the table's seed
  :table          this table's id
  :help           this list
  :quit           leave (Ctrl-D too); the table stays in the database
Lines others add to the table appear as they arrive, above the line you are typing.",
    )
}

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

/// What `viewer` sees of `event`: the one place the REPL renders an event.
fn seen(table: &Table, event: &Event, viewer: &str) -> Option<String> {
    let lang = crate::lang::chosen().unwrap_or(table.lang());
    Some(table.entry(event, viewer, lang).text)
}

/// What this REPL has printed of the table, shared by the line loop and the follower.
#[derive(Debug)]
struct Feed {
    /// The member whose view is printed: the one speaking (`:as` changes both).
    viewer: String,
    /// The last seq printed (or passed over as invisible to `viewer`).
    shown: u64,
}

impl Feed {
    /// The lines `viewer` sees of the events after `shown`, up to seq `through` (`None`:
    /// to the end), which count as printed from now on.
    fn take(&mut self, table: &Table, through: Option<u64>) -> Vec<String> {
        let events = table.events();
        let start = events.partition_point(|e| e.seq <= self.shown);
        let end = through.map_or(events.len(), |t| events.partition_point(|e| e.seq <= t));
        let Some(new) = events.get(start..end).filter(|n| !n.is_empty()) else {
            return Vec::new();
        };
        self.shown = new.last().map_or(self.shown, |e| e.seq);
        new.iter()
            .filter_map(|e| seen(table, e, &self.viewer))
            .collect()
    }
}

/// Runs the REPL until `:quit` or end of input.
pub fn run(args: &ReplArgs) -> Result<bool> {
    let lang = crate::lang::human();
    // One worker for the follower, which must run while the line loop waits for input;
    // the line loop itself runs its futures on this thread with `block_on`.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let tables = Arc::new(rt.block_on(crate::table::open(&args.db))?);
    let id = match &args.table {
        Some(id) => id.clone(),
        None => {
            let (_, seed) =
                ChaChaSource::from_os().context("cannot draw a seed from the operating system")?;
            let table = Table::create(&args.system, "repl", &args.gm, seed)?;
            rt.block_on(tables.create(table))?
        }
    };
    // Listen before reading where the log ends, so that no append falls between.
    let listener = rt.block_on(tables.store().listen())?;
    let (system, gm, last) =
        rt.block_on(tables.read(&id, |t| (t.system().id(), gm_of(t), t.next_seq() - 1)))?;
    let actor = args.member.clone().unwrap_or(gm);
    let db = taku_table::store::postgres::redact(&args.db);
    println!(
        "{}",
        Text::new(
            format!(
                "卓 {id}（{system}）、{db}。あなたは {actor} です。卓のコマンドは /help、REPLのコマンドは :help、Ctrl-D で終了します。"
            ),
            format!(
                "table {id} ({system}) in {db}; you are {actor}. /help lists the table's commands, :help the REPL's; Ctrl-D leaves."
            ),
        )
        .get(lang)
    );

    let mut editor = DefaultEditor::new().context("cannot start line editing")?;
    let history = history_path();
    if let Some(path) = &history {
        // A missing history file is the normal first run.
        let _ = editor.load_history(path);
    }
    let mut repl = Repl {
        tables: tables.clone(),
        id: id.clone(),
        lang,
        feed: Arc::new(Mutex::new(Feed {
            viewer: actor.clone(),
            shown: last,
        })),
        actor,
        log_page: None,
    };
    let out = printer(&mut editor);
    rt.spawn(follow(tables, id, repl.feed.clone(), listener, out, lang));

    loop {
        let line = match editor.readline(&format!("{}> ", repl.actor)) {
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
            if !rt.block_on(repl.meta_command(meta))? {
                break;
            }
        } else {
            rt.block_on(repl.exec(line))?;
        }
    }
    if let Some(path) = &history {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = editor.save_history(path) {
            eprintln!(
                "taku: {}",
                Text::new(
                    format!("履歴を {} に保存できませんでした: {e}", path.display()),
                    format!("could not save history to {}: {e}", path.display()),
                )
                .get(lang)
            );
        }
    }
    Ok(true)
}

/// The line loop's side of the REPL.
struct Repl {
    tables: Arc<Tables<Store>>,
    id: String,
    lang: Lang,
    feed: Arc<Mutex<Feed>>,
    /// The member speaking (also `feed`'s viewer, kept here for the prompt).
    actor: String,
    /// The last `:log` page, for `:log more`.
    log_page: Option<LogPage>,
}

impl Repl {
    /// Runs one line at the table and prints, before the next prompt, what it appended
    /// (and whatever others appended before it that the follower had not printed yet).
    async fn exec(&mut self, line: &str) -> Result<()> {
        // Held throughout, so that the follower cannot print these events meanwhile:
        // they are printed here, in order, before the prompt comes back.
        let mut feed = self.feed.lock().await;
        match self
            .tables
            .exec(&self.id, &self.actor, line, crate::lang::chosen())
            .await?
        {
            Ok(done) => {
                if let Some(through) = done.events.last().map(|e| e.seq) {
                    let lines = self
                        .tables
                        .peek(&self.id, |t| feed.take(t, Some(through)))
                        .await?;
                    for l in lines {
                        println!("{l}");
                    }
                }
                if let Some(reply) = done.reply {
                    println!("{}", reply.get(done.lang));
                }
            }
            // A refusal is printed and the REPL goes on.
            Err(refusal) => eprintln!(
                "{}",
                Text::new(
                    format!("受け付けられません: {line}: {}", refusal.render(Lang::Ja)),
                    format!("refused: {line}: {}", refusal.render(Lang::En)),
                )
                .get(self.lang)
            ),
        }
        Ok(())
    }

    /// Runs a `:` command; `Ok(false)` to leave.
    async fn meta_command(&mut self, meta: &str) -> Result<bool> {
        let lang = self.lang;
        let words: Vec<&str> = meta.split_whitespace().collect();
        match words.as_slice() {
            ["quit" | "q" | "exit"] => return Ok(false),
            ["help"] => println!("{}", help().get(lang)),
            ["table"] => println!("{}", self.id),
            ["log", rest @ ..] => match LogRequest::parse(rest) {
                Some(request) => self.log(request).await?,
                None => eprintln!(
                    "{}",
                    Text::new(
                        format!(
                            "':{meta}' は読めません。:log、:log N、:log from 番号、:log more、:log all のどれかです"
                        ),
                        format!(
                            "cannot read ':{meta}': it is :log, :log N, :log from SEQ, :log more or :log all"
                        ),
                    )
                    .get(lang)
                ),
            },
            ["as", name] => {
                let known = self
                    .tables
                    .read(&self.id, |t| t.members().contains_key(*name))
                    .await?;
                if known {
                    self.actor = name.to_string();
                    self.feed.lock().await.viewer = name.to_string();
                } else {
                    eprintln!(
                        "{}",
                        Text::new(
                            format!(
                                "'{name}' はこの卓のメンバーではありません。GM が /join {name} as player で加えられます"
                            ),
                            format!(
                                "'{name}' is not a member of this table; the GM adds members with /join {name} as player"
                            ),
                        )
                        .get(lang)
                    );
                }
            }
            ["verify"] => {
                let (mismatches, rolls) = self
                    .tables
                    .read(&self.id, |t| {
                        let rolls = t
                            .events()
                            .iter()
                            .filter(|e| matches!(e.body, taku_table::EventBody::Roll(_)))
                            .count();
                        (t.verify().len(), rolls)
                    })
                    .await?;
                println!(
                    "{}",
                    Text::new(
                        format!("{rolls} 件のロールを再現、食い違い {mismatches} 件"),
                        format!("{rolls} rolls replayed, {mismatches} mismatched"),
                    )
                    .get(lang)
                );
            }
            _ => eprintln!(
                "{}",
                Text::new(
                    format!("':{meta}' というREPLのコマンドはありません。:help で一覧できます"),
                    format!("unknown REPL command ':{meta}'; :help lists them"),
                )
                .get(lang)
            ),
        }
        Ok(true)
    }

    /// Prints one `:log` page of the log as the member speaking sees it.
    async fn log(&mut self, request: LogRequest) -> Result<()> {
        let viewer = self.actor.clone();
        let entries = self
            .tables
            .read(&self.id, |t| {
                t.events()
                    .iter()
                    .filter_map(|e| Some((e.seq, seen(t, e, &viewer)?)))
                    .collect::<Vec<_>>()
            })
            .await?;
        let seqs: Vec<u64> = entries.iter().map(|(seq, _)| *seq).collect();
        let shown = page(&seqs, request, self.log_page);
        for (_, text) in &entries[shown.range.clone()] {
            println!("{text}");
        }
        if let Some(note) = shown.note() {
            println!("{}", note.get(self.lang));
        }
        if let Some(p) = shown.page {
            self.log_page = Some(p);
        }
        Ok(())
    }
}

/// What `:log` was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LogRequest {
    /// The last N entries (`:log`, `:log N`).
    Last(usize),
    /// `LOG_PAGE` entries from this seq on (`:log from SEQ`).
    From(u64),
    /// The page after the last one, in its direction (`:log more`).
    More,
    /// Everything (`:log all`).
    All,
}

impl LogRequest {
    /// The request the words after `:log` make; `None` if they make none.
    fn parse(words: &[&str]) -> Option<LogRequest> {
        match words {
            [] => Some(LogRequest::Last(LOG_PAGE)),
            ["more"] => Some(LogRequest::More),
            ["all"] => Some(LogRequest::All),
            ["from", seq] => seq
                .trim_start_matches('#')
                .parse()
                .ok()
                .map(LogRequest::From),
            [n] => n.parse().ok().filter(|&n| n > 0).map(LogRequest::Last),
            _ => None,
        }
    }
}

/// A `:log` page as `:log more` needs to know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LogPage {
    /// Whether `:log more` goes back (after `:log`, `:log N`) or forward (after `:log
    /// from`).
    earlier: bool,
    /// The seq the page ends at on that side: its first entry's when going back, its
    /// last one's when going forward.
    edge: u64,
    /// How many entries a page has.
    size: usize,
}

/// Which entries one `:log` prints.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Paged {
    /// The entries, as indices into the visible ones.
    range: std::ops::Range<usize>,
    /// Whether there are more in the page's direction.
    more: bool,
    /// What `:log more` continues from; `None` when nothing was printed.
    page: Option<LogPage>,
    /// The page's direction (for the note at its foot).
    earlier: bool,
}

impl Paged {
    /// The line printed under the page: where `:log more` goes, or that it went as far
    /// as the log does.
    fn note(&self) -> Option<Text> {
        match (self.range.is_empty(), self.more, self.earlier) {
            (false, true, true) => Some(Text::new(
                "（さらに前は :log more）",
                "(earlier entries: :log more)",
            )),
            (false, true, false) => Some(Text::new(
                "（さらに後は :log more）",
                "(later entries: :log more)",
            )),
            (true, _, true) => Some(Text::new("（ログの先頭です）", "(the start of the log)")),
            (true, _, false) => Some(Text::new("（ログの末尾です）", "(the end of the log)")),
            (false, false, _) => None,
        }
    }
}

/// The page `request` asks for among the visible entries with these seqs (ascending),
/// `last` being the page printed before.
fn page(seqs: &[u64], request: LogRequest, last: Option<LogPage>) -> Paged {
    let len = seqs.len();
    let back = |end: usize, size: usize| {
        let start = end.saturating_sub(size);
        Paged {
            range: start..end,
            more: start > 0,
            page: (start < end).then(|| LogPage {
                earlier: true,
                edge: seqs[start],
                size,
            }),
            earlier: true,
        }
    };
    let forward = |start: usize, size: usize| {
        let end = start.saturating_add(size).min(len);
        Paged {
            range: start..end,
            more: end < len,
            page: (start < end).then(|| LogPage {
                earlier: false,
                edge: seqs[end - 1],
                size,
            }),
            earlier: false,
        }
    };
    match request {
        LogRequest::Last(n) => back(len, n),
        LogRequest::All => back(len, len),
        LogRequest::From(seq) => forward(seqs.partition_point(|&s| s < seq), LOG_PAGE),
        LogRequest::More => match last {
            // `:log more` before any page is `:log`.
            None => back(len, LOG_PAGE),
            Some(p) if p.earlier => back(seqs.partition_point(|&s| s < p.edge), p.size),
            Some(p) => forward(seqs.partition_point(|&s| s <= p.edge), p.size),
        },
    }
}

/// Starts the thread that prints the follower's lines: through rustyline, above the line
/// being edited, when the REPL runs in a terminal; else plainly on stdout.
fn printer(editor: &mut DefaultEditor) -> mpsc::Sender<String> {
    let (tx, rx) = mpsc::channel::<String>();
    // Fails when stdin or stdout is not a terminal: then there is no line being edited.
    let mut external = editor.create_external_printer().ok();
    std::thread::spawn(move || {
        for mut text in rx {
            text.push('\n');
            match external.as_mut() {
                // Nothing better to do with an error than to print plainly.
                Some(p) => {
                    if p.print(text.clone()).is_err() {
                        print!("{text}");
                    }
                }
                None => print!("{text}"),
            }
        }
    });
    tx
}

/// Follows table `id` for as long as the REPL runs: prints, through `out`, each event
/// appended by others that the line loop has not printed.
async fn follow(
    tables: Arc<Tables<Store>>,
    id: String,
    feed: Arc<Mutex<Feed>>,
    listener: Option<Listener>,
    out: mpsc::Sender<String>,
    lang: Lang,
) {
    let mut failing = false;
    let mut report = |result: Result<(), StoreError>| match result {
        Ok(()) => failing = false,
        // Once per run of failures, not once per poll.
        Err(e) if !failing => {
            failing = true;
            let _ = out.send(
                Text::new(
                    format!("taku: 卓を追えません（やり直します）: {e}"),
                    format!("taku: cannot follow the table (retrying): {e}"),
                )
                .get(lang)
                .to_string(),
            );
        }
        Err(_) => {}
    };
    let print = |lines: Vec<String>| {
        if !lines.is_empty() {
            let _ = out.send(lines.join("\n"));
        }
    };
    let catch_up = || async {
        let mut feed = feed.lock().await;
        tables.read(&id, |t| feed.take(t, None)).await
    };
    match listener {
        Some(mut listener) => loop {
            match listener.next().await {
                Ok(Notice::Appended { table, .. }) if table != id => {}
                // A notice for this table, or a resync after a lost connection.
                Ok(_) => {
                    let caught = catch_up().await.map(print);
                    report(caught);
                }
                Err(e) => {
                    report(Err(e));
                    tokio::time::sleep(RETRY_INTERVAL).await;
                }
            }
        },
        None => {
            let mut tick = tokio::time::interval(POLL_INTERVAL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let caught = catch_up().await.map(print);
                report(caught);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{LOG_PAGE, LogPage, LogRequest, page};

    #[test]
    fn log_requests_read_as_documented() {
        assert_eq!(LogRequest::parse(&[]), Some(LogRequest::Last(LOG_PAGE)));
        assert_eq!(LogRequest::parse(&["5"]), Some(LogRequest::Last(5)));
        assert_eq!(LogRequest::parse(&["more"]), Some(LogRequest::More));
        assert_eq!(LogRequest::parse(&["all"]), Some(LogRequest::All));
        assert_eq!(
            LogRequest::parse(&["from", "12"]),
            Some(LogRequest::From(12))
        );
        assert_eq!(
            LogRequest::parse(&["from", "#12"]),
            Some(LogRequest::From(12))
        );
        for bad in [&["0"][..], &["x"], &["from"], &["from", "x"], &["5", "6"]] {
            assert_eq!(LogRequest::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn log_pages_go_back_from_the_end_and_forward_from_a_seq() {
        // Visible seqs 1..=50 without the multiples of 10 (hidden from this member).
        let seqs: Vec<u64> = (1..=50).filter(|s| s % 10 != 0).collect();
        let last = page(&seqs, LogRequest::Last(20), None);
        assert_eq!(last.range, 25..45);
        assert!(last.more);
        let p = last.page.expect("a page");
        assert_eq!((p.edge, p.earlier), (28, true));
        let more = page(&seqs, LogRequest::More, Some(p));
        assert_eq!(more.range, 5..25);
        let more = page(&seqs, LogRequest::More, more.page);
        assert_eq!((more.range, more.more), (0..5, false));
        // Past the start: nothing, and a note that says so.
        let start = LogPage {
            earlier: true,
            edge: 1,
            size: 20,
        };
        let none = page(&seqs, LogRequest::More, Some(start));
        assert!(none.range.is_empty() && none.page.is_none());
        assert!(none.note().is_some());

        let from = page(&seqs, LogRequest::From(10), None);
        assert_eq!(seqs[from.range.start], 11);
        assert_eq!(from.range.len(), 20);
        let more = page(&seqs, LogRequest::More, from.page);
        assert_eq!((more.range, more.more), (29..45, false));
        assert_eq!(page(&seqs, LogRequest::All, None).range, 0..45);
        // `:log more` before any `:log` is `:log`.
        assert_eq!(page(&seqs, LogRequest::More, None).range, 25..45);
    }
}
