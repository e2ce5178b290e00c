//! The embedded backend: one SQLite file in WAL mode, `synchronous = FULL`, so an
//! appended event is on disk before `append` returns. The file is marked with our
//! `application_id`; any other file is refused by name, never written to. [`SqliteStore::close`]
//! checkpoints the write-ahead log into the file, so after the process ends the `.db` file
//! alone holds every event (copy it to back it up; while a process has it open, use
//! `sqlite3 taku.db ".backup copy.db"`).

use super::StoreError;
use crate::{Event, Table};
use sqlx::Sqlite;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use std::path::Path;
use std::time::Duration;

/// SQLite's `application_id` marking a taku database ("taku" in ASCII).
pub const APPLICATION_ID: i64 = 0x7461_6b75;

/// The schema, one migration per version; `user_version` records how many have run.
const MIGRATIONS: &[&str] = &[
    "
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
",
    "
CREATE TABLE credentials (
    key_id   TEXT PRIMARY KEY,
    hash     BLOB NOT NULL,
    table_id TEXT NOT NULL REFERENCES tables(id),
    member   TEXT,
    role     TEXT NOT NULL
);
",
    // Each table's last seq, written with every append: a load that comes up short of it
    // (rows lost to damage) is refused instead of appended to at the wrong seq.
    "
ALTER TABLE tables ADD COLUMN head INTEGER;
UPDATE tables SET head = (SELECT max(seq) FROM events e WHERE e.table_id = tables.id);
",
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// SQLite's statements.
const DIALECT: super::Dialect = super::Dialect {
    insert_table: "INSERT INTO tables (id, system, name) VALUES (?, ?, ?)",
    insert_event: "INSERT INTO events (table_id, seq, actor, body) VALUES (?, ?, ?, ?)",
    set_head: "UPDATE tables SET head = ? WHERE id = ?",
    head: "SELECT head FROM tables WHERE id = ?",
    load_after: "SELECT seq, actor, body FROM events WHERE table_id = ? AND seq > ? ORDER BY seq",
    list:
        "SELECT t.id, t.system, t.name, (SELECT count(*) FROM events e WHERE e.table_id = t.id) AS n
           FROM tables t ORDER BY t.created_at, t.id",
    insert_credential: "INSERT INTO credentials (key_id, hash, table_id, member, role) VALUES (?, ?, ?, ?, ?)",
    credential: "SELECT hash, table_id, member, role FROM credentials WHERE key_id = ?",
    take_invite: "DELETE FROM credentials WHERE key_id = ? AND member IS NULL",
    revoke_member: "DELETE FROM credentials WHERE table_id = ? AND member = ?",
    revoke_invites: "DELETE FROM credentials WHERE table_id = ? AND member IS NULL",
    count_invites: "SELECT count(*) FROM credentials WHERE table_id = ? AND member IS NULL",
    // SQLite has no way to tell another process; deployments with several servers use
    // PostgreSQL, and a lone server sees its own appends.
    notify: None,
};

/// A SQLite file of table logs.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
    at: String,
}

impl SqliteStore {
    /// Opens (creating and migrating if needed) the database at `path`; refuses a file
    /// that is not a taku database.
    pub async fn open(path: &Path) -> Result<Self, StoreError> {
        let at = path.display().to_string();
        // SQLite creates the file but not its folder; without this check the failure to
        // open would read like a damaged file.
        if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty())
            && !folder.is_dir()
        {
            return Err(StoreError::NoFolder(folder.display().to_string()));
        }
        if std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0) {
            return Err(StoreError::EmptyFile(at));
        }
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
                // SQLITE_NOTADB: the file is not SQLite at all.
                sqlx::Error::Database(d) if d.code().as_deref() == Some("26") => {
                    StoreError::Foreign(at.clone())
                }
                sqlx::Error::Database(d) if d.code().as_deref() == Some("11") => {
                    StoreError::Corrupt {
                        at: at.clone(),
                        report: d.message().to_string(),
                    }
                }
                source => StoreError::Database {
                    at: at.clone(),
                    source,
                },
            })?;
        let store = SqliteStore { pool, at };
        store.check_integrity().await?;
        store.migrate().await?;
        Ok(store)
    }

    /// Checkpoints the write-ahead log into the database file and closes every connection,
    /// so the file alone is complete (SQLite deletes the `-wal` and `-shm` files when the
    /// last connection closes; should another process still hold them, the log is left
    /// empty). The store must not be used afterwards.
    pub async fn close(&self) -> Result<(), StoreError> {
        self.checkpoint().await?;
        self.pool.close().await;
        Ok(())
    }

    /// Moves every event in the write-ahead log into the database file and empties the
    /// log, so the file alone is complete even while connections stay open.
    pub async fn checkpoint(&self) -> Result<(), StoreError> {
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&self.pool)
            .await
            .map_err(|e| self.db(e))?;
        Ok(())
    }

    fn db(&self, source: sqlx::Error) -> StoreError {
        StoreError::Database {
            at: self.at.clone(),
            source,
        }
    }

    /// SQLite's `quick_check` (every page and row readable, every index consistent with
    /// its table; linear in the file's size): a damaged file is refused before anything
    /// reads or writes it.
    async fn check_integrity(&self) -> Result<(), StoreError> {
        let report: Vec<String> = sqlx::query_scalar("PRAGMA quick_check(5)")
            .fetch_all(&self.pool)
            .await
            .map_err(|e| match e {
                sqlx::Error::Database(d) if d.code().as_deref() == Some("26") => {
                    StoreError::Foreign(self.at.clone())
                }
                // SQLITE_CORRUPT: too damaged even to check.
                sqlx::Error::Database(d) if d.code().as_deref() == Some("11") => {
                    StoreError::Corrupt {
                        at: self.at.clone(),
                        report: d.message().to_string(),
                    }
                }
                e => self.db(e),
            })?;
        if report.len() == 1 && report[0] == "ok" {
            return Ok(());
        }
        Err(StoreError::Corrupt {
            at: self.at.clone(),
            report: report.join("; "),
        })
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let foreign = || StoreError::Foreign(self.at.clone());
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
        let fresh = app == 0 && objects == 0;
        if !fresh && app != APPLICATION_ID {
            return Err(foreign());
        }
        if version > SCHEMA_VERSION {
            return Err(StoreError::TooNew {
                at: self.at.clone(),
                found: version,
                known: SCHEMA_VERSION,
            });
        }
        let done = usize::try_from(version).map_err(|_| foreign())?;
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(done) {
            sqlx::raw_sql(*sql)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.db(e))?;
            // PRAGMAs take no bound parameters; both values are our own integers.
            sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
                "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {};",
                i + 1
            )))
            .execute(&mut *tx)
            .await
            .map_err(|e| self.db(e))?;
        }
        tx.commit().await.map_err(|e| self.db(e))
    }
}

sql_event_store!(SqliteStore, Sqlite);
