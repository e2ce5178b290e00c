//! Storage of table logs in SQLite: one file, WAL, every appended event durable
//! (`synchronous = FULL`) before `append` returns.
//!
//! The store keeps events only; tables are folded from them on load. A second writer is
//! detected by the `(table_id, seq)` primary key: an append that finds its seq taken fails
//! with [`StoreError::Conflict`] and the caller reloads and decides again, so two processes
//! writing one table never lose, reorder or duplicate an event.

use crate::{Event, Table};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::{Row, Sqlite, Transaction};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// SQLite's `application_id` marking a taku database ("taku" in ASCII).
pub const APPLICATION_ID: i64 = 0x7461_6b75;
/// Schema version written to `user_version`.
pub const SCHEMA_VERSION: i64 = 1;

#[cfg(test)]
#[test]
fn pragma_literals_match_the_constants() {
    assert_eq!(APPLICATION_ID, 1_952_541_557);
    assert_eq!(SCHEMA_VERSION, 1);
}

const SCHEMA: &str = "
CREATE TABLE tables (
    id         TEXT PRIMARY KEY,
    system     TEXT NOT NULL,
    name       TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE events (
    table_id TEXT    NOT NULL REFERENCES tables(id),
    seq      INTEGER NOT NULL,
    actor    TEXT    NOT NULL,
    body     TEXT    NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
";

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file exists but is not a taku database.
    #[error(
        "{0} is not a taku database (it is another program's file, or damaged); pass another --db"
    )]
    Foreign(PathBuf),
    /// The database was written by a newer taku.
    #[error("{path} has schema version {found}; this taku knows version {SCHEMA_VERSION} or older")]
    TooNew {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: i64,
    },
    /// No table with this id.
    #[error("no table '{0}' in this database; `taku table list` shows the tables")]
    NoSuchTable(String),
    /// Another writer appended first; reload and decide again.
    #[error("another writer appended to the table first")]
    Conflict,
    /// A stored event could not be read back.
    #[error("table '{table}' event #{seq} is damaged: {reason}")]
    Damaged {
        /// Table id.
        table: String,
        /// Event seq.
        seq: i64,
        /// What was wrong.
        reason: String,
    },
    /// The database itself failed.
    #[error("database {path}: {source}")]
    Database {
        /// The file.
        path: PathBuf,
        /// The error.
        source: sqlx::Error,
    },
}

/// A table as listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSummary {
    /// Id.
    pub id: String,
    /// Game system id.
    pub system: String,
    /// Name.
    pub name: String,
    /// Events in its log.
    pub events: i64,
}

/// A SQLite file of table logs.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
    path: PathBuf,
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path`; refuses a file that is not a
    /// taku database.
    pub async fn open(path: &Path) -> Result<Self, StoreError> {
        let db = |source| StoreError::Database {
            path: path.to_path_buf(),
            source,
        };
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await
            .map_err(|e| match e {
                sqlx::Error::Database(_) => StoreError::Foreign(path.to_path_buf()),
                e => db(e),
            })?;
        let store = SqliteStore {
            pool,
            path: path.to_path_buf(),
        };
        store.migrate().await?;
        Ok(store)
    }

    fn db(&self, source: sqlx::Error) -> StoreError {
        StoreError::Database {
            path: self.path.clone(),
            source,
        }
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let foreign = || StoreError::Foreign(self.path.clone());
        let mut tx = self.pool.begin().await.map_err(|_| foreign())?;
        let app: i64 = sqlx::query_scalar("PRAGMA application_id")
            .fetch_one(&mut *tx)
            .await
            .map_err(|_| foreign())?;
        let version: i64 = sqlx::query_scalar("PRAGMA user_version")
            .fetch_one(&mut *tx)
            .await
            .map_err(|e| self.db(e))?;
        let objects: i64 = sqlx::query_scalar("SELECT count(*) FROM sqlite_master")
            .fetch_one(&mut *tx)
            .await
            .map_err(|_| foreign())?;
        if app == 0 && objects == 0 {
            sqlx::raw_sql(SCHEMA)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.db(e))?;
            // PRAGMAs take no bound parameters; these literals must match the constants.
            sqlx::raw_sql("PRAGMA application_id = 1952541557; PRAGMA user_version = 1;")
                .execute(&mut *tx)
                .await
                .map_err(|e| self.db(e))?;
        } else if app != APPLICATION_ID {
            return Err(foreign());
        } else if version > SCHEMA_VERSION {
            return Err(StoreError::TooNew {
                path: self.path.clone(),
                found: version,
            });
        }
        tx.commit().await.map_err(|e| self.db(e))
    }

    /// Stores a new table (its creation event) under a fresh random id, which it returns.
    pub async fn create(&self, table: &Table) -> Result<String, StoreError> {
        let mut raw = [0u8; 8];
        getrandom::fill(&mut raw).map_err(|e| self.db(sqlx::Error::Protocol(e.to_string())))?;
        let id = crate::secret::hex(&raw);
        let mut tx = self.pool.begin().await.map_err(|e| self.db(e))?;
        sqlx::query("INSERT INTO tables (id, system, name) VALUES (?, ?, ?)")
            .bind(&id)
            .bind(table.system().id())
            .bind(table.name())
            .execute(&mut *tx)
            .await
            .map_err(|e| self.db(e))?;
        self.insert(&mut tx, &id, table.events()).await?;
        tx.commit().await.map_err(|e| self.db(e))?;
        Ok(id)
    }

    /// Appends events atomically: all or none. Fails with [`StoreError::Conflict`] if
    /// another writer took one of their seqs.
    pub async fn append(&self, id: &str, events: &[Event]) -> Result<(), StoreError> {
        if events.is_empty() {
            return Ok(());
        }
        let mut tx = self.pool.begin().await.map_err(|e| self.db(e))?;
        self.insert(&mut tx, id, events).await?;
        tx.commit().await.map_err(|e| self.db(e))
    }

    async fn insert(
        &self,
        tx: &mut Transaction<'static, Sqlite>,
        id: &str,
        events: &[Event],
    ) -> Result<(), StoreError> {
        for e in events {
            let body = serde_json::to_string(&e.body).expect("events always serialise");
            let seq = i64::try_from(e.seq).expect("seq fits in i64");
            sqlx::query("INSERT INTO events (table_id, seq, actor, body) VALUES (?, ?, ?, ?)")
                .bind(id)
                .bind(seq)
                .bind(&e.actor)
                .bind(body)
                .execute(&mut **tx)
                .await
                .map_err(|err| match &err {
                    sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::Conflict,
                    sqlx::Error::Database(d) if d.is_foreign_key_violation() => {
                        StoreError::NoSuchTable(id.to_string())
                    }
                    _ => self.db(err),
                })?;
        }
        Ok(())
    }

    /// The log of table `id`, in order.
    pub async fn load(&self, id: &str) -> Result<Vec<Event>, StoreError> {
        let rows =
            sqlx::query("SELECT seq, actor, body FROM events WHERE table_id = ? ORDER BY seq")
                .bind(id)
                .fetch_all(&self.pool)
                .await
                .map_err(|e| self.db(e))?;
        if rows.is_empty() {
            return Err(StoreError::NoSuchTable(id.to_string()));
        }
        rows.iter()
            .map(|row| {
                let seq: i64 = row.get("seq");
                let damaged = |reason: String| StoreError::Damaged {
                    table: id.to_string(),
                    seq,
                    reason,
                };
                let body: String = row.get("body");
                Ok(Event {
                    seq: u64::try_from(seq).map_err(|_| damaged("negative seq".into()))?,
                    actor: row.get("actor"),
                    body: serde_json::from_str(&body).map_err(|e| damaged(e.to_string()))?,
                })
            })
            .collect()
    }

    /// Every table, oldest first.
    pub async fn list(&self) -> Result<Vec<TableSummary>, StoreError> {
        let rows = sqlx::query(
            "SELECT t.id, t.system, t.name, (SELECT count(*) FROM events e WHERE e.table_id = t.id) AS n
             FROM tables t ORDER BY t.created_at, t.id",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(|e| self.db(e))?;
        Ok(rows
            .iter()
            .map(|r| TableSummary {
                id: r.get("id"),
                system: r.get("system"),
                name: r.get("name"),
                events: r.get("n"),
            })
            .collect())
    }
}

/// What a line gave: the private reply, the events appended, and the table after them.
#[derive(Debug, Clone)]
pub struct Executed {
    /// Reply only the sender sees.
    pub reply: Option<String>,
    /// Events appended, with their seqs.
    pub events: Vec<Event>,
    /// The table after the line.
    pub table: Table,
}

/// How many times a line is decided again after another writer got in first.
const MAX_ATTEMPTS: usize = 64;

impl SqliteStore {
    /// Loads a table and folds it.
    pub async fn table(&self, id: &str) -> Result<Table, StoreError> {
        Table::from_events(self.load(id).await?).map_err(|e| StoreError::Damaged {
            table: id.to_string(),
            seq: 0,
            reason: e.to_string(),
        })
    }

    /// Runs one line as `actor` on table `id`: decide on the latest log, append, and if
    /// another writer appended first, decide again on the new log. The inner `Err` is the
    /// table's refusal (nothing was stored).
    pub async fn exec(
        &self,
        id: &str,
        actor: &str,
        line: &str,
    ) -> Result<Result<Executed, crate::Refusal>, StoreError> {
        for _ in 0..MAX_ATTEMPTS {
            let mut table = self.table(id).await?;
            let decision = match table.decide(actor, line) {
                Ok(d) => d,
                Err(refusal) => return Ok(Err(refusal)),
            };
            let events = table.apply(actor, decision.events).to_vec();
            match self.append(id, &events).await {
                Ok(()) => {
                    return Ok(Ok(Executed {
                        reply: decision.reply,
                        events,
                        table,
                    }));
                }
                Err(StoreError::Conflict) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(StoreError::Conflict)
    }
}
