//! Where table logs live: one [`EventStore`] trait, two backends (SQLite, the embedded
//! default, and PostgreSQL, for several servers on one database), and [`Tables`], which
//! keeps folded tables in memory and runs lines at them.
//!
//! A store keeps events only; tables are folded from them. Every append is durable before
//! it returns. A second writer is detected by the `(table, seq)` primary key: an append
//! that finds a seq taken fails with [`StoreError::Conflict`]; [`Tables::exec`] then folds
//! the events it missed and decides the line again, so two processes writing one table
//! never lose, reorder or duplicate an event.
//!
//! To learn of other writers' events without being asked, a PostgreSQL store announces
//! every append as it commits: [`Store::listen`] gives a [`Listener`] whose notices name
//! the table and its last seq, or say [`Notice::Resync`] after a lost connection.

/// The statements one backend speaks; everything else about storing events is shared.
struct Dialect {
    /// `INSERT` a table row: id, system, name.
    insert_table: &'static str,
    /// `INSERT` an event row: table id, seq, actor, body.
    insert_event: &'static str,
    /// `UPDATE` a table row's `head` (its last seq, written with every append, so a load
    /// that comes up short is caught): head, table id.
    set_head: &'static str,
    /// `SELECT head` of a table row by id.
    head: &'static str,
    /// `SELECT seq, actor, body` of a table's events after a seq, in order.
    load_after: &'static str,
    /// `SELECT id, system, name, n` (event count) of every table, oldest first.
    list: &'static str,
    /// `INSERT` a credential: key id, hash, table id, member (NULL for an invite), role.
    insert_credential: &'static str,
    /// `SELECT hash, table_id, member, role` of a credential by key id.
    credential: &'static str,
    /// `DELETE` an unused invite by key id.
    take_invite: &'static str,
    /// `DELETE` every token of one member: table id, member.
    revoke_member: &'static str,
    /// `DELETE` every unused invite of a table: table id.
    revoke_invites: &'static str,
    /// `SELECT count(*)` of a table's unused invites: table id.
    count_invites: &'static str,
    /// Run inside `create`'s and `append`'s transaction with one bound parameter, the
    /// payload `"{table id} {last seq}"`, to tell other processes as the transaction
    /// commits; `None` where no other process can be listening (SQLite).
    notify: Option<&'static str>,
}

/// Implements [`EventStore`] for a backend struct with a `pool`, a `db()` error wrapper
/// and a `DIALECT`: the code is the same for SQLite and PostgreSQL, only the SQL differs.
macro_rules! sql_event_store {
    ($store:ty, $database:ty) => {
        impl $store {
            async fn insert(
                &self,
                tx: &mut sqlx::Transaction<'static, $database>,
                id: &str,
                events: &[Event],
            ) -> Result<(), StoreError> {
                for e in events {
                    let (seq, body) = super::encode(e);
                    sqlx::query(DIALECT.insert_event)
                        .bind(id)
                        .bind(seq)
                        .bind(&e.actor)
                        .bind(body)
                        .execute(&mut **tx)
                        .await
                        .map_err(|err| match &err {
                            sqlx::Error::Database(d) if d.is_unique_violation() => {
                                StoreError::Conflict
                            }
                            sqlx::Error::Database(d) if d.is_foreign_key_violation() => {
                                StoreError::NoSuchTable(id.to_string())
                            }
                            _ => self.db(err),
                        })?;
                }
                Ok(())
            }

            /// Records that table `id` now ends at `events`' last seq.
            async fn set_head(
                &self,
                tx: &mut sqlx::Transaction<'static, $database>,
                id: &str,
                events: &[Event],
            ) -> Result<(), StoreError> {
                let Some(last) = events.last() else {
                    return Ok(());
                };
                sqlx::query(DIALECT.set_head)
                    .bind(super::encode_seq(last.seq))
                    .bind(id)
                    .execute(&mut **tx)
                    .await
                    .map_err(|e| self.db(e))?;
                Ok(())
            }

            /// Tells listeners that table `id` now ends at `events`' last seq; inside the
            /// transaction, so they hear of it only once (and if) it commits.
            async fn notify(
                &self,
                tx: &mut sqlx::Transaction<'static, $database>,
                id: &str,
                events: &[Event],
            ) -> Result<(), StoreError> {
                let Some(sql) = DIALECT.notify else {
                    return Ok(());
                };
                let last = events.last().map_or(0, |e| e.seq);
                sqlx::query(sql)
                    .bind(format!("{id} {last}"))
                    .execute(&mut **tx)
                    .await
                    .map_err(|e| self.db(e))?;
                Ok(())
            }
        }

        impl super::EventStore for $store {
            async fn create(&self, table: &Table) -> Result<String, StoreError> {
                let id = super::new_table_id()
                    .map_err(|e| self.db(sqlx::Error::Protocol(e.to_string())))?;
                let mut tx = self.pool.begin().await.map_err(|e| self.db(e))?;
                sqlx::query(DIALECT.insert_table)
                    .bind(&id)
                    .bind(table.system().id())
                    .bind(table.name())
                    .execute(&mut *tx)
                    .await
                    .map_err(|e| self.db(e))?;
                self.insert(&mut tx, &id, table.events()).await?;
                self.set_head(&mut tx, &id, table.events()).await?;
                self.notify(&mut tx, &id, table.events()).await?;
                tx.commit().await.map_err(|e| self.db(e))?;
                Ok(id)
            }

            async fn append(&self, id: &str, events: &[Event]) -> Result<(), StoreError> {
                if events.is_empty() {
                    return Ok(());
                }
                let mut tx = self.pool.begin().await.map_err(|e| self.db(e))?;
                self.insert(&mut tx, id, events).await?;
                self.set_head(&mut tx, id, events).await?;
                self.notify(&mut tx, id, events).await?;
                tx.commit().await.map_err(|e| self.db(e))
            }

            async fn load_after(&self, id: &str, after: u64) -> Result<Vec<Event>, StoreError> {
                use sqlx::Row;
                // The head is read first: the log only grows, so the events read after it
                // reach at least that far unless rows are missing.
                let head = sqlx::query(DIALECT.head)
                    .bind(id)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(|e| self.db(e))?;
                let Some(head) = head else {
                    return Err(StoreError::NoSuchTable(id.to_string()));
                };
                let head: Option<i64> = head.try_get("head").map_err(|e| StoreError::Damaged {
                    table: id.to_string(),
                    seq: 0,
                    reason: format!("the table's head does not decode: {e}"),
                })?;
                let after = i64::try_from(after).unwrap_or(i64::MAX);
                let rows = sqlx::query(DIALECT.load_after)
                    .bind(id)
                    .bind(after)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(|e| self.db(e))?;
                if rows.is_empty() && after == 0 {
                    return Err(StoreError::NoSuchTable(id.to_string()));
                }
                let events = rows
                    .iter()
                    .zip(after.saturating_add(1)..)
                    .map(|(row, expected)| {
                        let damaged = |what: &str, e: sqlx::Error| StoreError::Damaged {
                            table: id.to_string(),
                            seq: expected,
                            reason: format!("its {what} does not decode: {e}"),
                        };
                        let seq: i64 = row.try_get("seq").map_err(|e| damaged("seq", e))?;
                        if seq != expected {
                            return Err(StoreError::Damaged {
                                table: id.to_string(),
                                seq: expected,
                                reason: format!("the row is missing (the next stored is #{seq})"),
                            });
                        }
                        let actor: String = row.try_get("actor").map_err(|e| damaged("actor", e))?;
                        let body: String = row.try_get("body").map_err(|e| damaged("body", e))?;
                        super::decode(id, seq, actor, &body)
                    })
                    .collect::<Result<Vec<Event>, StoreError>>()?;
                let last = events.last().map_or(after, |e| super::encode_seq(e.seq));
                if let Some(head) = head
                    && last < head
                {
                    return Err(StoreError::Damaged {
                        table: id.to_string(),
                        seq: last.saturating_add(1),
                        reason: format!(
                            "the stored log ends at #{last} but the table's head is #{head}: rows are missing"
                        ),
                    });
                }
                Ok(events)
            }

            async fn put_credential(&self, c: &super::Credential) -> Result<(), StoreError> {
                sqlx::query(DIALECT.insert_credential)
                    .bind(&c.key_id)
                    .bind(&c.hash[..])
                    .bind(&c.table)
                    .bind(c.member.as_deref())
                    .bind(c.role.as_str())
                    .execute(&self.pool)
                    .await
                    .map_err(|err| match &err {
                        sqlx::Error::Database(d) if d.is_foreign_key_violation() => {
                            StoreError::NoSuchTable(c.table.clone())
                        }
                        _ => self.db(err),
                    })?;
                Ok(())
            }

            async fn credential(
                &self,
                key_id: &str,
            ) -> Result<Option<super::Credential>, StoreError> {
                use sqlx::Row;
                let Some(row) = sqlx::query(DIALECT.credential)
                    .bind(key_id)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(|e| self.db(e))?
                else {
                    return Ok(None);
                };
                let unreadable = |e: sqlx::Error| StoreError::Damaged {
                    table: String::new(),
                    seq: 0,
                    reason: format!("credential {key_id} does not decode: {e}"),
                };
                let hash: Vec<u8> = row.try_get("hash").map_err(unreadable)?;
                let role: String = row.try_get("role").map_err(unreadable)?;
                let table: String = row.try_get("table_id").map_err(unreadable)?;
                let member: Option<String> = row.try_get("member").map_err(unreadable)?;
                let damaged = |reason: &str| StoreError::Damaged {
                    table: table.clone(),
                    seq: 0,
                    reason: format!("credential {key_id}: {reason}"),
                };
                Ok(Some(super::Credential {
                    key_id: key_id.to_string(),
                    hash: hash
                        .try_into()
                        .map_err(|_| damaged("hash is not 32 bytes"))?,
                    member,
                    role: crate::Role::parse(&role).ok_or_else(|| damaged("unknown role"))?,
                    table,
                }))
            }

            async fn take_invite(&self, key_id: &str) -> Result<bool, StoreError> {
                let done = sqlx::query(DIALECT.take_invite)
                    .bind(key_id)
                    .execute(&self.pool)
                    .await
                    .map_err(|e| self.db(e))?;
                Ok(done.rows_affected() == 1)
            }

            async fn revoke(&self, table: &str, member: Option<&str>) -> Result<u64, StoreError> {
                let query = match member {
                    Some(m) => sqlx::query(DIALECT.revoke_member).bind(table).bind(m),
                    None => sqlx::query(DIALECT.revoke_invites).bind(table),
                };
                let done = query.execute(&self.pool).await.map_err(|e| self.db(e))?;
                Ok(done.rows_affected())
            }

            async fn unused_invites(&self, table: &str) -> Result<u64, StoreError> {
                let n: i64 = sqlx::query_scalar(DIALECT.count_invites)
                    .bind(table)
                    .fetch_one(&self.pool)
                    .await
                    .map_err(|e| self.db(e))?;
                Ok(u64::try_from(n).unwrap_or(0))
            }

            async fn list(&self) -> Result<Vec<super::TableSummary>, StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(DIALECT.list)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(|e| self.db(e))?;
                rows.iter()
                    .map(|r| {
                        let damaged = |e: sqlx::Error| StoreError::Damaged {
                            table: r.try_get("id").unwrap_or_default(),
                            seq: 0,
                            reason: format!("the table's row does not decode: {e}"),
                        };
                        Ok(super::TableSummary {
                            id: r.try_get("id").map_err(damaged)?,
                            system: r.try_get("system").map_err(damaged)?,
                            name: r.try_get("name").map_err(damaged)?,
                            events: r.try_get("n").map_err(damaged)?,
                        })
                    })
                    .collect()
            }
        }
    };
}

pub mod postgres;
pub mod sqlite;

pub use postgres::{Listener, Notice, PgStore};
pub use sqlite::SqliteStore;

use crate::{Decision, Entry, Event, LoadError, Refusal, Table};
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex as SyncMutex};
use std::time::Duration;
use taku_dice::{Lang, Text};
use tokio::sync::{Mutex, OwnedMutexGuard};
use tokio::time::Instant;

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file or database exists but is not a taku database.
    #[error(
        "{0} is not a taku database (it is another program's data, or damaged); pass another --db"
    )]
    Foreign(String),
    /// The file exists but is empty (0 bytes): never silently made a new database, since
    /// an empty file where a database was expected is a lost or truncated one.
    #[error(
        "{0} is an empty file (0 bytes), not a taku database; if it should be a new one, delete it first, or pass another --db"
    )]
    EmptyFile(String),
    /// The folder a new SQLite file would go in does not exist.
    #[error("folder {0} does not exist; create it or choose another --db path")]
    NoFolder(String),
    /// The database was written by a newer taku.
    #[error("{at} has schema version {found}; this taku knows version {known} or older")]
    TooNew {
        /// The database.
        at: String,
        /// Its version.
        found: i64,
        /// The newest this build knows.
        known: i64,
    },
    /// No table with this id.
    #[error("no table '{0}' in this database; `taku table list` shows the tables")]
    NoSuchTable(String),
    /// Another writer appended first; fold what it wrote and decide again.
    #[error("another writer appended to the table first")]
    Conflict,
    /// The table is sound but this taku cannot play it (its game system is not here).
    #[error("table '{table}' cannot be opened here: {}", reason.en())]
    Unavailable {
        /// Table id.
        table: String,
        /// Why, and what would make it playable, in Japanese and English.
        reason: Text,
    },
    /// A stored event could not be read back.
    #[error("table '{table}' event #{seq} is damaged: {reason}")]
    Damaged {
        /// Table id.
        table: String,
        /// Event seq (0 when the log as a whole does not fold).
        seq: i64,
        /// What was wrong.
        reason: String,
    },
    /// SQLite's integrity check, run on opening a file, found it damaged.
    #[error(
        "{at} is damaged (SQLite's integrity check: {report}); nothing was written to it. Restore a backup, or try `sqlite3 {at} .recover`"
    )]
    Corrupt {
        /// The file.
        at: String,
        /// The check's first complaints.
        report: String,
    },
    /// The server is too busy to decide this now: the member has used their share of
    /// computing at this table for the moment, or every worker is taken. Nothing was
    /// decided or stored; try again after `retry_after`.
    #[error("{}", reason.en())]
    Busy {
        /// Why, in both languages.
        reason: Text,
        /// When trying again makes sense.
        retry_after: std::time::Duration,
    },
    /// The database itself failed.
    #[error("database {at}: {source}")]
    Database {
        /// The file or server (without its password).
        at: String,
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

/// A durable home for table logs. Both backends pass the same suite
/// (`crates/table/tests/store.rs`).
pub trait EventStore: Send + Sync {
    /// Stores a new table (its log so far) under a fresh random id, which it returns.
    fn create(&self, table: &Table) -> impl Future<Output = Result<String, StoreError>> + Send;

    /// Appends events atomically, all or none, durable on return. Fails with
    /// [`StoreError::Conflict`] if another writer took one of their seqs.
    fn append(
        &self,
        id: &str,
        events: &[Event],
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The events of table `id` with seq greater than `after`, in order; `after = 0` is the
    /// whole log, and an unknown table is [`StoreError::NoSuchTable`].
    fn load_after(
        &self,
        id: &str,
        after: u64,
    ) -> impl Future<Output = Result<Vec<Event>, StoreError>> + Send;

    /// Every table, oldest first.
    fn list(&self) -> impl Future<Output = Result<Vec<TableSummary>, StoreError>> + Send;

    /// Stores a credential (a member's token or an unused invite, by its hash only).
    fn put_credential(
        &self,
        credential: &Credential,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The credential with this key id, if any.
    fn credential(
        &self,
        key_id: &str,
    ) -> impl Future<Output = Result<Option<Credential>, StoreError>> + Send;

    /// Uses up the invite with this key id: `true` if it was there and unused, and no
    /// other caller can take it again.
    fn take_invite(&self, key_id: &str) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Revokes every token of `member` at table `table` (`None`: every unused invite of
    /// the table); how many there were.
    fn revoke(
        &self,
        table: &str,
        member: Option<&str>,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// How many unused invites table `table` has.
    fn unused_invites(&self, table: &str) -> impl Future<Output = Result<u64, StoreError>> + Send;
}

/// What a bearer token grants, as stored: never the token itself, only its SHA-256. The
/// key id is the token's public prefix, to find the row; the hash is then compared in
/// constant time by the server.
#[derive(Clone, PartialEq, Eq)]
pub struct Credential {
    /// The token's public prefix.
    pub key_id: String,
    /// SHA-256 of the whole token.
    pub hash: [u8; 32],
    /// Table id.
    pub table: String,
    /// The member this token acts as; `None` for an invite not yet used.
    pub member: Option<String>,
    /// The member's role (for an invite: the role it grants).
    pub role: crate::Role,
}

impl std::fmt::Debug for Credential {
    // Even the hash stays out of debug output.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credential")
            .field("key_id", &self.key_id)
            .field("table", &self.table)
            .field("member", &self.member)
            .field("role", &self.role)
            .finish_non_exhaustive()
    }
}

/// A fresh table id: 64 random bits, hex.
fn new_table_id() -> Result<String, getrandom::Error> {
    let mut raw = [0u8; 8];
    getrandom::fill(&mut raw)?;
    Ok(crate::secret::hex(&raw))
}

/// Decodes one stored row; `Damaged` names the table and seq of a row that does not.
fn decode(table: &str, seq: i64, actor: String, body: &str) -> Result<Event, StoreError> {
    let damaged = |reason: String| StoreError::Damaged {
        table: table.to_string(),
        seq,
        reason,
    };
    Ok(Event {
        seq: u64::try_from(seq).map_err(|_| damaged("negative seq".into()))?,
        actor,
        body: serde_json::from_str(body).map_err(|e| damaged(e.to_string()))?,
    })
}

/// An event's body as stored (JSON text) and its seq as the databases' integer.
fn encode(event: &Event) -> (i64, String) {
    let body = serde_json::to_string(&event.body).expect("events always serialise");
    (encode_seq(event.seq), body)
}

/// A seq as the databases' integer.
fn encode_seq(seq: u64) -> i64 {
    i64::try_from(seq).expect("a log never reaches 2^63 events")
}

/// Either backend, chosen by the `--db` argument: a `postgres://` (or `postgresql://`) URL
/// selects PostgreSQL, anything else is a SQLite file path.
#[derive(Debug, Clone)]
pub enum Store {
    /// An embedded SQLite file.
    Sqlite(SqliteStore),
    /// A PostgreSQL database.
    Postgres(PgStore),
}

impl Store {
    /// Opens (creating and migrating if needed) the store `location` names.
    pub async fn open(location: &str) -> Result<Store, StoreError> {
        if location.starts_with("postgres://") || location.starts_with("postgresql://") {
            Ok(Store::Postgres(PgStore::connect(location).await?))
        } else {
            Ok(Store::Sqlite(
                SqliteStore::open(std::path::Path::new(location)).await?,
            ))
        }
    }

    /// Closes the store's connections, waiting for those in use. A SQLite file is
    /// checkpointed first ([`SqliteStore::close`]), so the file alone is then a complete
    /// copy. The store must not be used afterwards.
    pub async fn close(&self) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.close().await,
            Store::Postgres(s) => {
                s.close().await;
                Ok(())
            }
        }
    }

    /// Makes a SQLite file complete on its own while connections stay open
    /// ([`SqliteStore::checkpoint`]); nothing to do for PostgreSQL.
    pub async fn checkpoint(&self) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.checkpoint().await,
            Store::Postgres(_) => Ok(()),
        }
    }

    /// Listens for appends by every process writing this store ([`PgStore::listen`]);
    /// `None` for SQLite, which has no way to announce them, and needs none while one
    /// process serves each file (it sees its own appends as it makes them).
    pub async fn listen(&self) -> Result<Option<Listener>, StoreError> {
        match self {
            Store::Sqlite(_) => Ok(None),
            Store::Postgres(s) => s.listen().await.map(Some),
        }
    }
}

impl EventStore for Store {
    async fn create(&self, table: &Table) -> Result<String, StoreError> {
        match self {
            Store::Sqlite(s) => s.create(table).await,
            Store::Postgres(s) => s.create(table).await,
        }
    }

    async fn append(&self, id: &str, events: &[Event]) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.append(id, events).await,
            Store::Postgres(s) => s.append(id, events).await,
        }
    }

    async fn load_after(&self, id: &str, after: u64) -> Result<Vec<Event>, StoreError> {
        match self {
            Store::Sqlite(s) => s.load_after(id, after).await,
            Store::Postgres(s) => s.load_after(id, after).await,
        }
    }

    async fn list(&self) -> Result<Vec<TableSummary>, StoreError> {
        match self {
            Store::Sqlite(s) => s.list().await,
            Store::Postgres(s) => s.list().await,
        }
    }

    async fn put_credential(&self, credential: &Credential) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.put_credential(credential).await,
            Store::Postgres(s) => s.put_credential(credential).await,
        }
    }

    async fn credential(&self, key_id: &str) -> Result<Option<Credential>, StoreError> {
        match self {
            Store::Sqlite(s) => s.credential(key_id).await,
            Store::Postgres(s) => s.credential(key_id).await,
        }
    }

    async fn take_invite(&self, key_id: &str) -> Result<bool, StoreError> {
        match self {
            Store::Sqlite(s) => s.take_invite(key_id).await,
            Store::Postgres(s) => s.take_invite(key_id).await,
        }
    }

    async fn revoke(&self, table: &str, member: Option<&str>) -> Result<u64, StoreError> {
        match self {
            Store::Sqlite(s) => s.revoke(table, member).await,
            Store::Postgres(s) => s.revoke(table, member).await,
        }
    }

    async fn unused_invites(&self, table: &str) -> Result<u64, StoreError> {
        match self {
            Store::Sqlite(s) => s.unused_invites(table).await,
            Store::Postgres(s) => s.unused_invites(table).await,
        }
    }
}

/// What a line gave.
#[derive(Debug, Clone)]
pub struct Executed {
    /// Reply only the sender sees (`/help`, `/char show`).
    pub reply: Option<Text>,
    /// Events appended, with their seqs.
    pub events: Vec<Event>,
    /// What the sender sees of each of `events`, decided as they were appended, in the
    /// language asked for (the table's when none was).
    pub seen: Vec<Entry>,
    /// The language `seen` is in.
    pub lang: Lang,
}

/// A line's decision, shareable with a worker thread.
type Decider = Arc<dyn Fn(&Table) -> Result<Decision, Refusal> + Send + Sync>;

/// How many times a line is decided again after other writers got in first.
const MAX_ATTEMPTS: usize = 64;

/// The pace of secret reference rolls (attack pass 4, A4-8): one is appended
/// `SECRET_PACE` after its evaluation began, or, if the evaluation took longer,
/// [`SECRET_LONG`] after it, so its time in the log says at most whether its evaluation
/// (its wait for a worker included) took longer than `SECRET_PACE`, never how long
/// (how many dice it drew).
pub const SECRET_PACE: Duration = Duration::from_millis(250);

/// When a secret reference roll whose evaluation took longer than [`SECRET_PACE`] is
/// appended, counted from the start of its evaluation: what the evaluation can take at
/// most — a wait for a worker ([`Limits::queue_wait`], 2 s by default) and the reference
/// engine's time limit (2 s) — so every such roll waits the same whatever it drew (A4-8's
/// remainder: a doubling ladder of 500 ms, 1 s, 2 s … told which span the evaluation
/// ended in). An evaluation that still took longer — a worker's lane queued behind other
/// lines, a system loaded for the first time, a server set with a longer wait: time that
/// is not the roll's draws, which the engine's limit bounds at 2 s — is appended at the
/// first of `SECRET_LONG` × 2, × 4, … after it.
pub const SECRET_LONG: Duration = Duration::from_secs(4);

/// When a secret roll whose evaluation took `took` is appended, counted from the start
/// of its evaluation: [`SECRET_PACE`], else [`SECRET_LONG`] (or a doubling of it).
pub fn secret_pace(took: Duration) -> Duration {
    if took <= SECRET_PACE {
        return SECRET_PACE;
    }
    let mut at = SECRET_LONG;
    // Bounded: an evaluation ends within the reference engine's time limit.
    while at < took && at < Duration::from_secs(1 << 12) {
        at *= 2;
    }
    at
}

/// What a server holds its tables to (the CLI's own commands hold them to nothing:
/// [`Limits::default`]).
#[derive(Debug, Clone)]
pub struct Limits {
    /// Entries one table's log may hold; a line that would pass it is refused.
    pub max_events: usize,
    /// Bytes one table's log may hold, counted as stored (each event's JSON and actor): a
    /// line is taken while the log is below the table's [`fill_mark`], [`byte_headroom`]
    /// or more below this (so the log passes the mark by one line at most).
    pub max_bytes: u64,
    /// Members one table may have (its GM included), however they join (an invite, a
    /// GM's `/join` line).
    pub max_members: usize,
    /// Lines decided (and other heavy work done, [`Tables::compute`]) at once, on
    /// tokio's blocking threads rather than the async workers, so a line that computes
    /// for a second (exact odds of an AF check) never stalls other requests. A member
    /// who spent more than half their [`Budget`] lately may take all workers but one,
    /// so one is left for everyone else. `0`: lines are decided in place, as the CLI
    /// does.
    pub workers: usize,
    /// How long a line waits for a free worker before it is refused as busy.
    pub queue_wait: Duration,
    /// Each member's share of the workers' time at one table.
    pub budget: Budget,
    /// What all members of one table share of the workers' time, whatever each member's
    /// own share (attack pass 5, A5-3: members minted for free multiplied a table's
    /// share, and 20 players' lines running into the reference time limit held every
    /// worker from other tables). A member past it waits as past their own.
    pub table_budget: Budget,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_events: usize::MAX,
            max_bytes: u64::MAX,
            max_members: usize::MAX,
            workers: 0,
            queue_wait: Duration::from_secs(2),
            budget: Budget::UNLIMITED,
            table_budget: Budget::UNLIMITED,
        }
    }
}

/// A member's budget of computing time at one table, as a bucket: it holds up to
/// `burst`, refills at `per_second` of computing for each second that passes, and each
/// line (or export) takes what it cost. A member whose bucket is empty is refused until
/// it has refilled; the line that emptied it always finishes (its cost is only known
/// after), so one line can overdraw, and the debt is paid back before the next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// The most computing time saved up.
    pub burst: Duration,
    /// Computing time regained per second.
    pub per_second: Duration,
}

impl Budget {
    /// No budget at all.
    pub const UNLIMITED: Budget = Budget {
        burst: Duration::MAX,
        per_second: Duration::MAX,
    };
}

/// One member's bucket ([`Budget`]), in seconds (negative: in debt).
#[derive(Debug, Clone, Copy)]
struct Bucket {
    level: f64,
    at: Instant,
}

impl Bucket {
    fn new(budget: Budget, now: Instant) -> Bucket {
        Bucket {
            level: budget.burst.as_secs_f64(),
            at: now,
        }
    }

    fn refill(&mut self, budget: Budget, now: Instant) {
        let passed = now.saturating_duration_since(self.at).as_secs_f64();
        self.level =
            (self.level + passed * budget.per_second.as_secs_f64()).min(budget.burst.as_secs_f64());
        self.at = now;
    }

    /// `Err(wait)` while the bucket is empty or in debt.
    fn ready(&mut self, budget: Budget, now: Instant) -> Result<(), Duration> {
        if budget == Budget::UNLIMITED {
            return Ok(());
        }
        self.refill(budget, now);
        if self.level > 0.0 {
            return Ok(());
        }
        let rate = budget.per_second.as_secs_f64();
        let wait = if rate > 0.0 {
            (-self.level + 1e-3) / rate
        } else {
            f64::from(u32::MAX)
        };
        Err(Duration::from_secs_f64(wait.min(f64::from(u32::MAX))))
    }

    fn full(&mut self, budget: Budget, now: Instant) -> bool {
        self.refill(budget, now);
        self.level >= budget.burst.as_secs_f64()
    }
}

/// A table held open: the table, whether it was used since the last sweep
/// ([`Tables::evict_idle`]) and its log's size as stored.
#[derive(Debug)]
struct Open {
    table: Arc<Mutex<Table>>,
    used: AtomicBool,
    /// Changed only under the table's lock.
    bytes: AtomicU64,
    /// The log's stored bytes by the member whose lines made them (for
    /// [`member_share_mark`]); empty when the log has no byte limit. Changed only under
    /// the table's lock.
    by_member: std::sync::Mutex<HashMap<String, u64>>,
    /// When it was last used, on the tables' own clock ([`Tables::with_resident_budget`]:
    /// the least recently used go first).
    last: AtomicU64,
}

/// What a table held in memory counts toward [`Tables::with_resident_budget`] beyond its
/// log's stored bytes: its folded state, members, lock (a table of a few lines is not
/// free; a count of tables is bounded through this too).
pub const TABLE_OVERHEAD: u64 = 16 * 1024;

/// The room a log keeps below [`Limits::max_bytes`]: a line is taken only while the log
/// is at least this far from the limit (attack pass 3, A3-2), so whether it fits never
/// depends on its own size. 64 KiB (more than a line can take), or an eighth of a small
/// limit.
pub fn byte_headroom(max_bytes: u64) -> u64 {
    (64 * 1024).min(max_bytes / 8)
}

/// The stored size at which the log of the table with `seed` counts as full: a line is
/// taken while the log is below it. Below the limit by [`byte_headroom`] and a further
/// secret part of another headroom, drawn from the table's seed
/// ([`crate::secret::fill_offset`]).
///
/// Why the secret part (A3-2's last bit): members see which lines are taken, and the log's
/// size includes entries hidden from them (a secret roll's result text, a whisper, a
/// hidden draw). Filling a log to just below a known mark with lines of sizes they chose,
/// a member would learn, from which line was the first refused, the total size of what
/// they cannot see to within their smallest line — once per table. With the mark
/// uniformly placed in a 64 KiB stretch they do not know, that answer says next to
/// nothing: two outcomes of a secret roll whose texts differ by `d` bytes move the chance
/// that the table fills at a given line by at most `d` / 65,536 (0.02% for 12 bytes).
pub fn fill_mark(max_bytes: u64, seed: &[u8; 32]) -> u64 {
    let headroom = byte_headroom(max_bytes);
    max_bytes
        .saturating_sub(headroom)
        .saturating_sub(crate::secret::fill_offset(seed, headroom))
}

/// The stored bytes of its own lines at which one member (not a GM) may write no more
/// to the table with `seed` (attack pass 6, A6-5: one player with an invite filled the
/// whole log, slowly but for good, and the table ended for everyone): a third of
/// [`Limits::max_bytes`], less a secret part of a [`byte_headroom`] drawn from the seed,
/// for the reason [`fill_mark`] gives (a member's own lines include entries hidden from
/// them, such as a library's draws, whose size the first refusal must not tell).
pub fn member_share_mark(max_bytes: u64, seed: &[u8; 32]) -> u64 {
    let headroom = byte_headroom(max_bytes);
    (max_bytes / 3).saturating_sub(crate::secret::fill_offset(seed, headroom))
}

/// Each member's stored bytes in `events`.
fn bytes_by_member(events: &[Event]) -> HashMap<String, u64> {
    let mut by = HashMap::new();
    for e in events {
        *by.entry(e.actor.clone()).or_insert(0) += stored_bytes(std::slice::from_ref(e));
    }
    by
}

/// Bytes a stored event takes (its body's JSON and its actor), for [`Limits::max_bytes`].
fn stored_bytes(events: &[Event]) -> u64 {
    struct Count(u64);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len() as u64;
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    for e in events {
        // Writing to a counter cannot fail, and events always serialise.
        let _ = serde_json::to_writer(&mut count, &e.body);
        count.0 += e.actor.len() as u64;
    }
    count.0
}

/// Open tables over a store: each table is loaded once, kept folded in memory, and brought
/// up to date from the store only when another writer got in first. Lines at one table
/// run one at a time; lines at different tables run concurrently. Tables nobody used for
/// a while can be let go ([`Tables::evict_idle`]) and are loaded again when next used.
#[derive(Debug)]
pub struct Tables<S> {
    store: S,
    open: SyncMutex<HashMap<String, Arc<Open>>>,
    entropy: crate::Entropy,
    limits: Limits,
    workers: Arc<tokio::sync::Semaphore>,
    /// All workers but one (at least one): what heavy work may take.
    heavy: Arc<tokio::sync::Semaphore>,
    /// Members with work running through [`Tables::compute`], by table.
    computing: SyncMutex<std::collections::HashSet<(String, String)>>,
    budgets: SyncMutex<HashMap<(String, String), Bucket>>,
    /// The most the tables held in memory may count ([`Tables::with_resident_budget`]).
    resident_budget: u64,
    /// What they count now: each table's stored bytes and [`TABLE_OVERHEAD`].
    resident: AtomicU64,
    /// The clock of [`Open::last`].
    clock: AtomicU64,
}

impl<S: EventStore> Tables<S> {
    /// No table open yet.
    pub fn new(store: S) -> Self {
        Tables {
            store,
            open: SyncMutex::new(HashMap::new()),
            entropy: crate::Entropy::Os,
            limits: Limits::default(),
            workers: Arc::new(tokio::sync::Semaphore::new(0)),
            heavy: Arc::new(tokio::sync::Semaphore::new(0)),
            computing: SyncMutex::new(std::collections::HashSet::new()),
            budgets: SyncMutex::new(HashMap::new()),
            resident_budget: u64::MAX,
            resident: AtomicU64::new(0),
            clock: AtomicU64::new(0),
        }
    }

    /// These tables, holding in memory at most `bytes` of logs (as stored, each table
    /// counting [`TABLE_OVERHEAD`] more; attack pass 2, A2-9): past it, the least
    /// recently used tables not in use this moment leave memory — even those a live
    /// socket watches — and are loaded again from the store when next used. A table in
    /// use is never let go, so the bound can be passed while one larger than it is read.
    pub fn with_resident_budget(mut self, bytes: u64) -> Self {
        self.resident_budget = bytes;
        self
    }

    /// What the tables held in memory count toward [`Tables::with_resident_budget`]:
    /// their logs' stored bytes and [`TABLE_OVERHEAD`] each.
    pub fn resident_bytes(&self) -> u64 {
        self.resident.load(Ordering::Acquire)
    }

    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, Ordering::AcqRel)
    }

    /// Lets go of the least recently used tables not in use (never `spare`) until what
    /// the tables count is within the resident budget; how many.
    fn shed(&self, spare: &str) -> usize {
        if self.resident.load(Ordering::Acquire) <= self.resident_budget {
            return 0;
        }
        let mut open = self.lock_open();
        let mut oldest: Vec<(u64, String)> = open
            .iter()
            .filter(|(id, _)| id.as_str() != spare)
            .map(|(id, o)| (o.last.load(Ordering::Acquire), id.clone()))
            .collect();
        oldest.sort_unstable();
        let mut shed = 0;
        for (_, id) in oldest {
            if self.resident.load(Ordering::Acquire) <= self.resident_budget {
                break;
            }
            let Some(o) = open.get(&id) else { continue };
            // Only the map holds it: nobody is using it or about to.
            if Arc::strong_count(o) != 1 || Arc::strong_count(&o.table) != 1 {
                continue;
            }
            if let Some(o) = open.remove(&id) {
                self.resident.fetch_sub(Self::counted(&o), Ordering::AcqRel);
                shed += 1;
            }
        }
        shed
    }

    /// What `open` counts toward the resident budget.
    fn counted(open: &Open) -> u64 {
        open.bytes
            .load(Ordering::Acquire)
            .saturating_add(TABLE_OVERHEAD)
    }

    /// These tables, drawing each attempt's nonce from `entropy` (tests use
    /// [`crate::Entropy::seeded`]; play uses the operating system's randomness).
    pub fn with_entropy(mut self, entropy: crate::Entropy) -> Self {
        self.entropy = entropy;
        self
    }

    /// These tables, held to `limits`.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.workers = Arc::new(tokio::sync::Semaphore::new(limits.workers));
        self.heavy = Arc::new(tokio::sync::Semaphore::new(
            limits.workers.saturating_sub(1).max(1),
        ));
        self.limits = limits;
        self
    }

    /// The limits these tables are held to.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The store underneath.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Stores a new table and keeps it open; returns its id.
    pub async fn create(&self, table: Table) -> Result<String, StoreError> {
        let id = self.store.create(&table).await?;
        let bytes = self.size_of(table.events());
        let by_member = self.by_member(table.events());
        let open = Arc::new(Open {
            table: Arc::new(Mutex::new(table.with_entropy(self.entropy.clone()))),
            used: AtomicBool::new(true),
            bytes: AtomicU64::new(bytes),
            by_member: std::sync::Mutex::new(by_member),
            last: AtomicU64::new(self.tick()),
        });
        self.resident
            .fetch_add(Self::counted(&open), Ordering::AcqRel);
        if let Some(old) = self.lock_open().insert(id.clone(), open) {
            self.resident
                .fetch_sub(Self::counted(&old), Ordering::AcqRel);
        }
        self.shed(&id);
        Ok(id)
    }

    /// Each member's stored bytes in `events`, when the log has a byte limit (else
    /// nothing, to spare the work).
    fn by_member(&self, events: &[Event]) -> HashMap<String, u64> {
        if self.limits.max_bytes == u64::MAX {
            HashMap::new()
        } else {
            bytes_by_member(events)
        }
    }

    /// Counts `events`, just stored or caught up with, to their members' bytes.
    fn count_by_member(&self, open: &Open, events: &[Event]) {
        if self.limits.max_bytes == u64::MAX {
            return;
        }
        // Each change is whole under the lock.
        let mut by = open.by_member.lock().unwrap_or_else(|p| p.into_inner());
        for (member, bytes) in bytes_by_member(events) {
            *by.entry(member).or_insert(0) += bytes;
        }
    }

    /// The size of `events` as stored, when a limit needs it (else 0, to spare the work).
    fn size_of(&self, events: &[Event]) -> u64 {
        if self.limits.max_bytes == u64::MAX && self.resident_budget == u64::MAX {
            0
        } else {
            stored_bytes(events)
        }
    }

    /// The ids of the tables loaded in this process (in no particular order): those to
    /// bring up to date, with [`Tables::read`], after a [`Notice::Resync`].
    pub fn open_ids(&self) -> Vec<String> {
        self.lock_open().keys().cloned().collect()
    }

    /// Lets go of the tables nobody used since the last call (and that `keep` does not
    /// want kept: a server keeps those a live socket watches), so memory holds only the
    /// tables in play; each is loaded again from the store when next used. A table in
    /// use at this moment (a line running, a page being viewed) is kept. Called
    /// periodically, a table goes between one and two periods after its last use.
    /// Returns how many were let go. Members' computing budgets that are full again are
    /// forgotten too.
    pub fn evict_idle(&self, keep: impl Fn(&str) -> bool) -> usize {
        let mut evicted = 0;
        self.lock_open().retain(|id, open| {
            if open.used.swap(false, Ordering::AcqRel) {
                return true;
            }
            // Only the map holds it: nobody is using it or about to.
            let idle = Arc::strong_count(open) == 1 && Arc::strong_count(&open.table) == 1;
            if idle && !keep(id) {
                evicted += 1;
                self.resident
                    .fetch_sub(Self::counted(open), Ordering::AcqRel);
                false
            } else {
                true
            }
        });
        let (budget, now) = (self.limits.budget, Instant::now());
        let table_budget = self.limits.table_budget;
        self.lock_budgets()
            .retain(|(_, who), b| !b.full(if who.is_empty() { table_budget } else { budget }, now));
        evicted
    }

    fn lock_open(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Open>>> {
        // A panic elsewhere while holding this map cannot leave it inconsistent (only
        // inserts and removals), so a poisoned lock is still usable.
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn lock_computing(
        &self,
    ) -> std::sync::MutexGuard<'_, std::collections::HashSet<(String, String)>> {
        // Each change is whole under the lock.
        self.computing.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn lock_budgets(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), Bucket>> {
        // Each change is whole under the lock.
        self.budgets.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The open table `id`, loading it on first use.
    async fn handle(&self, id: &str) -> Result<Arc<Open>, StoreError> {
        if let Some(h) = self.lock_open().get(id) {
            h.used.store(true, Ordering::Release);
            h.last.store(self.tick(), Ordering::Release);
            return Ok(h.clone());
        }
        let events = self.store.load_after(id, 0).await?;
        let bytes = self.size_of(&events);
        let by_member = self.by_member(&events);
        let table = Table::from_events(events).map_err(|e| match e {
            // Not damage: a system this build does not carry (or not set up).
            LoadError::UnknownSystem(_) => StoreError::Unavailable {
                table: id.to_string(),
                reason: e.text(),
            },
            e => StoreError::Damaged {
                table: id.to_string(),
                seq: 0,
                reason: e.to_string(),
            },
        })?;
        let open = self
            .lock_open()
            .entry(id.to_string())
            .or_insert_with(|| {
                self.resident
                    .fetch_add(bytes.saturating_add(TABLE_OVERHEAD), Ordering::AcqRel);
                Arc::new(Open {
                    table: Arc::new(Mutex::new(table.with_entropy(self.entropy.clone()))),
                    used: AtomicBool::new(true),
                    bytes: AtomicU64::new(bytes),
                    by_member: std::sync::Mutex::new(by_member),
                    last: AtomicU64::new(self.tick()),
                })
            })
            .clone();
        open.used.store(true, Ordering::Release);
        open.last.store(self.tick(), Ordering::Release);
        // Room for it: the least recently used others leave (A2-9).
        self.shed(id);
        Ok(open)
    }

    /// Folds whatever other writers appended since this table was last brought up to
    /// date; returns how many events that was.
    async fn catch_up(
        &self,
        id: &str,
        open: &Open,
        table: &mut Table,
    ) -> Result<usize, StoreError> {
        let newer = self.store.load_after(id, table.next_seq() - 1).await?;
        let n = newer.len();
        let added = self.size_of(&newer);
        open.bytes.fetch_add(added, Ordering::AcqRel);
        self.count_by_member(open, &newer);
        self.resident.fetch_add(added, Ordering::AcqRel);
        table.extend(newer).map_err(|e| StoreError::Damaged {
            table: id.to_string(),
            seq: i64::try_from(table.next_seq()).unwrap_or(i64::MAX),
            reason: e.to_string(),
        })?;
        Ok(n)
    }

    /// Runs `f` on table `id` brought up to date with the store.
    pub async fn read<R>(&self, id: &str, f: impl FnOnce(&Table) -> R) -> Result<R, StoreError> {
        let open = self.handle(id).await?;
        let mut table = open.table.lock().await;
        self.catch_up(id, &open, &mut table).await?;
        Ok(f(&table))
    }

    /// Runs `f` on table `id` as this process last saw it, without asking the store for
    /// newer events (live updates call this once per member per event; whoever learns of
    /// another writer's events calls [`Tables::read`] first).
    pub async fn peek<R>(&self, id: &str, f: impl FnOnce(&Table) -> R) -> Result<R, StoreError> {
        let open = self.handle(id).await?;
        let table = open.table.lock().await;
        Ok(f(&table))
    }

    /// Whether `actor` may use a worker at table `id` now; why not if not.
    ///
    /// `Ok(true)` when the member has spent more than half of their burst lately: their
    /// work is heavy, and may use all workers but one ([`Tables::worker`]).
    fn within_budget(&self, id: &str, actor: &str) -> Result<bool, StoreError> {
        let now = Instant::now();
        let mut budgets = self.lock_budgets();
        // The member's own share, then the table's (all its members together); each
        // heavy below half its burst. A member name is never empty: the table's key.
        let mut heavy = false;
        for (who, budget) in [(actor, self.limits.budget), ("", self.limits.table_budget)] {
            if budget == Budget::UNLIMITED {
                continue;
            }
            let bucket = budgets
                .entry((id.to_string(), who.to_string()))
                .or_insert_with(|| Bucket::new(budget, now));
            heavy |= bucket.level < budget.burst.as_secs_f64() / 2.0;
            if let Err(wait) = bucket.ready(budget, now) {
                let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                let reason = if who.is_empty() {
                    Text::new(
                        format!(
                            "このテーブルのメンバーが計算の重い操作（正確な確率、長い参照コマンドなど）を続けて使い、テーブル全体の分を使い切りました。{secs} 秒ほど待ってからもう一度送ってください"
                        ),
                        format!(
                            "this table's members together have used their share of the server's computing just now (exact odds, long reference commands and the like); send it again in about {secs} s"
                        ),
                    )
                } else {
                    Text::new(
                        format!(
                            "{actor} さんはこのテーブルで計算の重い操作（正確な確率など）を続けて使いました。{secs} 秒ほど待ってからもう一度送ってください"
                        ),
                        format!(
                            "{actor} has used a lot of the server's computing at this table just now (exact odds and the like); send it again in about {secs} s"
                        ),
                    )
                };
                return Err(StoreError::Busy {
                    reason,
                    retry_after: wait,
                });
            }
        }
        Ok(heavy)
    }

    fn charge(&self, id: &str, actor: &str, cost: Duration) {
        let mut budgets = self.lock_budgets();
        for who in [actor, ""] {
            if let Some(bucket) = budgets.get_mut(&(id.to_string(), who.to_string())) {
                bucket.level -= cost.as_secs_f64();
            }
        }
    }

    /// A worker, waiting at most [`Limits::queue_wait`] for one. Heavy work (a member
    /// who spent much of their budget lately) takes one of all workers but one as well,
    /// so that with two or more workers one is always left for everyone else's lines.
    async fn worker(
        &self,
        heavy: bool,
    ) -> Result<Vec<tokio::sync::OwnedSemaphorePermit>, StoreError> {
        let wait = self.limits.queue_wait;
        let take = async {
            let mut permits = Vec::with_capacity(2);
            if heavy {
                permits.push(self.heavy.clone().acquire_owned().await?);
            }
            permits.push(self.workers.clone().acquire_owned().await?);
            Ok::<_, tokio::sync::AcquireError>(permits)
        };
        match tokio::time::timeout(wait, take).await {
            Ok(Ok(permits)) => Ok(permits),
            _ => Err(StoreError::Busy {
                reason: Text::new(
                    format!(
                        "サーバーが混み合っています（計算の重い操作が {} 件実行中）。少し待ってからもう一度送ってください",
                        self.limits.workers
                    ),
                    format!(
                        "the server is busy ({} heavy computations running); send it again in a moment",
                        self.limits.workers
                    ),
                ),
                retry_after: Duration::from_secs(1),
            }),
        }
    }

    /// Runs heavy work for `actor` at table `id` (rendering a whole log, an export, a
    /// verification) on a worker ([`Limits::workers`]), off the async threads, charged to
    /// the member's [`Budget`]; in place when the tables have no workers. Busy when the
    /// member's budget is spent, no worker frees up in time, or the member's previous
    /// work at this table is still running (one at a time: its cost is charged after).
    pub async fn compute<R: Send + 'static>(
        &self,
        id: &str,
        actor: &str,
        f: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, StoreError> {
        Ok(self.reserve(id, actor).await?.run(f).await)
    }

    /// [`Tables::compute`] in two steps: first the member's turn, budget and worker (Busy
    /// as there), then [`Computing::run`]. Work that must gather its input first (an
    /// export copying the log page by page) reserves before gathering, so a request that
    /// will be refused costs nothing (attack pass 2, A2-3: exports copied the whole log
    /// and only then were refused for a spent budget), and one member gathers for one
    /// piece of work at a time.
    pub async fn reserve(&self, id: &str, actor: &str) -> Result<Computing<'_, S>, StoreError> {
        // One at a time per member and table: the cost is charged after, so many at
        // once would all pass a budget that one of them spends.
        let key = (id.to_string(), actor.to_string());
        if self.limits.workers > 0 && !self.lock_computing().insert(key.clone()) {
            return Err(StoreError::Busy {
                reason: Text::new(
                    format!(
                        "{actor} さんの前の書き出し（エクスポートなど）がまだ終わっていません。終わってからもう一度どうぞ"
                    ),
                    format!(
                        "{actor}'s previous export (or other heavy work) at this table is still running; send this again when it is done"
                    ),
                ),
                retry_after: Duration::from_secs(1),
            });
        }
        let mut computing = Computing {
            tables: self,
            key,
            permit: None,
        };
        if self.limits.workers == 0 {
            return Ok(computing);
        }
        // Dropped on a refusal below, `computing` gives the member's turn back.
        self.within_budget(id, actor)?;
        // Always heavy (attack pass 2, A2-5): exports and the like take one of all
        // workers but one, whoever asks, so members minted afresh (each with a full
        // budget) never hold every worker, and lines at every table find one.
        computing.permit = Some(self.worker(true).await?);
        Ok(computing)
    }

    /// Decides with `decide` on `table` (locked), on a worker when there are workers.
    async fn decide_on(
        &self,
        id: &str,
        actor: &str,
        table: OwnedMutexGuard<Table>,
        decide: &Decider,
    ) -> Result<(OwnedMutexGuard<Table>, Result<Decision, Refusal>), StoreError> {
        if self.limits.workers == 0 {
            let decided = wait_on_reference(&table, || decide(&table));
            return Ok((table, decided));
        }
        let decide = decide.clone();
        self.charged(id, actor, move || {
            let decided = decide(&table);
            (table, decided)
        })
        .await
    }

    /// Runs `work` on a worker, within `actor`'s budget at table `id`, and charges what
    /// it cost ([`StoreError::Busy`] when the budget is spent or no worker is free).
    async fn charged<R: Send + 'static>(
        &self,
        id: &str,
        actor: &str,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, StoreError> {
        let heavy = self.within_budget(id, actor)?;
        let permit = self.worker(heavy).await?;
        let (done, cost) = off_runtime(move || {
            let _permit = permit;
            let start = std::time::Instant::now();
            let done = work();
            (done, start.elapsed())
        })
        .await;
        self.charge(id, actor, cost);
        Ok(done)
    }

    /// Runs one line as `actor` at table `id`: decide, append durably, and if another
    /// writer appended first, fold its events and decide again. The inner `Err` is the
    /// table's refusal; nothing was stored. What the actor sees comes back in `lang`, or
    /// the table's language.
    pub async fn exec(
        &self,
        id: &str,
        actor: &str,
        line: &str,
        lang: Option<Lang>,
    ) -> Result<Result<Executed, Refusal>, StoreError> {
        let (who, line) = (actor.to_string(), line.to_string());
        if let Some(rolled) = self.roll_ahead(id, actor, &line).await? {
            return self
                .exec_with(id, actor, lang, move |t| {
                    t.decide_rolled(&who, &line, &rolled)
                })
                .await;
        }
        self.exec_with(id, actor, lang, move |t| t.decide(&who, &line))
            .await
    }

    /// A dice line of a table whose system the reference engine evaluates, evaluated
    /// before the table is locked to decide it ([`Table::plan_roll`]), so that reads of
    /// the table never wait on a worker process: a read's wait would tell other members
    /// how many dice a secret roll drew (attack pass 2, A2-13 and A2-14). Charged to the
    /// member's budget like any decision. `None`: not such a line.
    async fn roll_ahead(
        &self,
        id: &str,
        actor: &str,
        line: &str,
    ) -> Result<Option<crate::RolledAhead>, StoreError> {
        let open = self.handle(id).await?;
        let Some(planned) = open.table.lock().await.plan_roll(actor, line) else {
            return Ok(None);
        };
        let start = Instant::now();
        let rolled = if self.limits.workers == 0 {
            off_runtime(move || planned.roll()).await
        } else {
            self.charged(id, actor, move || planned.roll()).await?
        };
        // A4-8: a secret roll is appended at a pace, not when its evaluation ends, so
        // that the time between it and the roller's next line (or any line the roller
        // sends at a known moment) tells no one how long it took (its draws). Waited
        // out holding no worker and no lock; the roller's other lines go on meanwhile.
        if rolled.secret() {
            tokio::time::sleep_until(start + secret_pace(start.elapsed())).await;
        }
        Ok(Some(rolled))
    }

    /// Imports a character sheet as `actor` at table `id` ([`Table::decide_sheet`]), like
    /// [`Tables::exec`].
    pub async fn exec_sheet(
        &self,
        id: &str,
        actor: &str,
        sheet: &str,
        lang: Option<Lang>,
    ) -> Result<Result<Executed, Refusal>, StoreError> {
        let (who, sheet) = (actor.to_string(), sheet.to_string());
        self.exec_with(id, actor, lang, move |t| t.decide_sheet(&who, &sheet))
            .await
    }

    /// Decides with `decide` as `actor` and appends, as [`Tables::exec`] does. With
    /// [`Limits::workers`], `decide` runs on a worker, charged to the member's budget
    /// ([`StoreError::Busy`] when spent); a line that would take the log past
    /// [`Limits::max_events`] or [`Limits::max_bytes`] is refused.
    pub async fn exec_with(
        &self,
        id: &str,
        actor: &str,
        lang: Option<Lang>,
        decide: impl Fn(&Table) -> Result<Decision, Refusal> + Send + Sync + 'static,
    ) -> Result<Result<Executed, Refusal>, StoreError> {
        let decide: Decider = Arc::new(decide);
        let open = self.handle(id).await?;
        let mut table = open.table.clone().lock_owned().await;
        for _ in 0..MAX_ATTEMPTS {
            let (back, decided) = self.decide_on(id, actor, table, &decide).await?;
            table = back;
            let decision = match decided {
                Ok(d) => d,
                // The refusal may rest on a stale table (a member another server just
                // added): refuse only once nothing newer is stored.
                Err(refusal) => {
                    if self.catch_up(id, &open, &mut table).await? == 0 {
                        return Ok(Err(refusal));
                    }
                    continue;
                }
            };
            let events = table.numbered(actor, decision.events);
            let added = self.size_of(&events);
            if let Some(full) = self.full(&table, &open, &events, added) {
                return Ok(Err(full));
            }
            match self.store.append(id, &events).await {
                Ok(()) => {
                    open.bytes.fetch_add(added, Ordering::AcqRel);
                    self.count_by_member(&open, &events);
                    self.resident.fetch_add(added, Ordering::AcqRel);
                    self.shed(id);
                    table
                        .extend(events.iter().cloned())
                        .map_err(|e| StoreError::Damaged {
                            table: id.to_string(),
                            seq: 0,
                            reason: e.to_string(),
                        })?;
                    let lang = lang.unwrap_or(table.lang());
                    let seen = events.iter().map(|e| table.entry(e, actor, lang)).collect();
                    return Ok(Ok(Executed {
                        reply: decision.reply,
                        events,
                        seen,
                        lang,
                    }));
                }
                Err(StoreError::Conflict) => {
                    self.catch_up(id, &open, &mut table).await?;
                }
                Err(e) => return Err(e),
            }
        }
        Err(StoreError::Conflict)
    }

    /// The refusal of `events` (of `added` bytes) when they would take the table's log
    /// past its limits.
    fn full(&self, table: &Table, open: &Open, events: &[Event], added: u64) -> Option<Refusal> {
        if events.is_empty() {
            return None;
        }
        let limits = &self.limits;
        let count = table.events().len();
        if count.saturating_add(events.len()) > limits.max_events {
            let max = limits.max_events;
            return Some(
                Text::new(
                    format!(
                        "このテーブルのログは上限の {max} 件に達したため、これ以上書き込めません。ログを書き出して（エクスポート）、新しいテーブルで続けてください"
                    ),
                    format!(
                        "this table's log has reached its limit of {max} entries and takes no more; export the log and continue at a new table"
                    ),
                )
                .into(),
            );
        }
        let joining = events
            .iter()
            .filter(|e| matches!(&e.body, crate::EventBody::Joined { member, .. } if !table.members().contains_key(member)))
            .count();
        if joining > 0 && table.members().len().saturating_add(joining) > limits.max_members {
            let max = limits.max_members;
            return Some(
                Text::new(
                    format!(
                        "このテーブルの参加者は上限の {max} 人に達しているため、これ以上加えられません（/remove で退室させたメンバーは数に入りません）"
                    ),
                    format!(
                        "this table has the most members it may have ({max}); nobody more can join (members removed with /remove do not count)"
                    ),
                )
                .into(),
            );
        }
        // Attack pass 3, A3-2: whether a line fits must not depend on its own size, nor
        // the refusal say the log's size: a member probing with lines of chosen sizes
        // (each refusal changing nothing) read off the size of every entry appended in
        // between — another member's secret roll (its outcome), a whisper, a hidden draw.
        // A line is taken while the log is below the table's secret fill mark
        // ([`fill_mark`]: at least [`byte_headroom`] below the limit), whatever its size;
        // the log passes the mark by one line at most, and so stays within the limit
        // but for a line larger than the headroom.
        // A GM's lines (who sees every entry, so learns nothing from where the log
        // fills) keep the room up to the limit itself, so a table filled by its players
        // can still be run, closed and handed on (A4-4).
        let _ = added;
        let bytes = open.bytes.load(Ordering::Acquire);
        let gm = events
            .first()
            .is_some_and(|e| table.members().get(&e.actor) == Some(&crate::Role::Gm));
        let mark = if gm {
            limits.max_bytes
        } else {
            fill_mark(limits.max_bytes, &table.seed)
        };
        if !gm && let Some(actor) = events.first().map(|e| &e.actor) {
            let own = open
                .by_member
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(actor)
                .copied()
                .unwrap_or(0);
            if own >= member_share_mark(limits.max_bytes, &table.seed) {
                let share = limits.max_bytes / 3;
                return Some(
                    Text::new(
                        format!(
                            "{actor} さんのこのテーブルへの書き込みは、ログの上限の 3 分の 1（約 {share} バイト）に達しました。他のメンバーの分を残すため、これ以上は受け付けません。何も変わっていません。続けるには GM に相談してください（ログを書き出して、新しいテーブルで続けられます）"
                        ),
                        format!(
                            "{actor}'s lines at this table have reached a third of its log's limit (about {share} bytes); to leave room for the other members no more are taken, and nothing changed. Ask the GM how to go on (the log can be exported and play continued at a new table)"
                        ),
                    )
                    .into(),
                );
            }
        }
        if bytes >= mark {
            let max = limits.max_bytes;
            return Some(
                Text::new(
                    format!(
                        "このテーブルのログは上限の {max} バイト近くに達したため、これ以上書き込めません。ログを書き出して（エクスポート）、新しいテーブルで続けてください"
                    ),
                    format!(
                        "this table's log is at its limit of about {max} bytes and takes no more; export the log and continue at a new table"
                    ),
                )
                .into(),
            );
        }
        None
    }
}

/// Runs `f` on tokio's blocking threads; a panic in it goes on in the caller (where the
/// server's catch-panic layer answers it), as if `f` had run in place.
async fn off_runtime<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    match tokio::task::spawn_blocking(f).await {
        Ok(r) => r,
        Err(e) => match e.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            // Cancelled: only when the runtime shuts down, which ends this task too.
            Err(e) => panic!("blocking work cancelled: {e}"),
        },
    }
}

/// A member's turn at heavy work, with its worker ([`Tables::reserve`]); dropping it
/// unused gives both back.
#[derive(Debug)]
pub struct Computing<'a, S> {
    tables: &'a Tables<S>,
    key: (String, String),
    /// `None` when the tables have no workers (the work runs in place).
    permit: Option<Vec<tokio::sync::OwnedSemaphorePermit>>,
}

impl<S: EventStore> Computing<'_, S> {
    /// Runs `f` on the reserved worker, off the async threads, and charges its cost to
    /// the member's budget; in place when the tables have no workers.
    pub async fn run<R: Send + 'static>(mut self, f: impl FnOnce() -> R + Send + 'static) -> R {
        let Some(permit) = self.permit.take() else {
            return f();
        };
        let (r, cost) = off_runtime(move || {
            let _permit = permit;
            let start = std::time::Instant::now();
            let r = f();
            (r, start.elapsed())
        })
        .await;
        self.tables.charge(&self.key.0, &self.key.1, cost);
        r
    }
}

impl<S> Drop for Computing<'_, S> {
    fn drop(&mut self) {
        if self.tables.limits.workers > 0 {
            self.tables
                .computing
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&self.key);
        }
    }
}

/// Runs `f` (a decision at `table`, inline because no workers are set) letting the
/// runtime move its other tasks off this thread when the table's system is evaluated by
/// the reference engine, whose answers wait on a worker process (up to its time limit).
/// Inline elsewhere, and on a current-thread runtime, which cannot.
fn wait_on_reference<R>(table: &Table, f: impl FnOnce() -> R) -> R {
    let multi_thread = tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
    if multi_thread && table.system().engine() == taku_systems::EngineKind::Reference {
        tokio::task::block_in_place(f)
    } else {
        f()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 18 item 3: a member's budget, on an explicit clock.
    #[test]
    fn a_budget_refills_with_time_and_an_overdraft_is_paid_back_first() {
        let budget = Budget {
            burst: Duration::from_secs(2),
            per_second: Duration::from_millis(100),
        };
        let t0 = Instant::now();
        let mut b = Bucket::new(budget, t0);
        assert!(b.ready(budget, t0).is_ok());
        // One line overdraws: 3 s of work on a 2 s bucket, 1 s in debt.
        b.level -= 3.0;
        let wait = b.ready(budget, t0).expect_err("in debt");
        assert!(
            wait > Duration::from_secs(10) && wait < Duration::from_millis(10_020),
            "1 s of debt at 0.1 s a second: {wait:?}"
        );
        assert!(b.ready(budget, t0 + Duration::from_secs(9)).is_err());
        assert!(b.ready(budget, t0 + Duration::from_secs(11)).is_ok());
        // Never more than the burst saved up.
        assert!(b.full(budget, t0 + Duration::from_secs(1000)));
        assert!((b.level - 2.0).abs() < 1e-9);
        // No budget: always ready.
        let mut free = Bucket::new(Budget::UNLIMITED, t0);
        free.level = -1e9;
        assert!(free.ready(Budget::UNLIMITED, t0).is_ok());
    }

    /// Issue 18 item 3: heavy work (members who spent most of their budget lately) takes
    /// at most all workers but one: with two workers, a second heavy line is refused as
    /// busy while one runs, and a light member's line still finds a worker.
    #[tokio::test]
    async fn heavy_work_leaves_one_worker_for_everyone_else() {
        let dir = std::env::temp_dir().join(format!("taku-heavy-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let store = Store::open(&dir.join("t.db").display().to_string())
            .await
            .expect("store");
        let tables = Arc::new(Tables::new(store).with_limits(Limits {
            workers: 2,
            queue_wait: Duration::ZERO,
            budget: Budget {
                burst: Duration::from_secs(100),
                per_second: Duration::from_nanos(1),
            },
            ..Limits::default()
        }));
        let mut table = Table::create("DiceBot", "t", "gm", [1; 32]).expect("table");
        table.exec("gm", "/join bob").expect("join");
        table.exec("gm", "/join carol").expect("join");
        let id = tables.create(table).await.expect("create");
        // gm and bob have each spent 90 of their 100 s lately: heavy.
        for who in ["gm", "bob"] {
            tables
                .exec(&id, who, "1D6", None)
                .await
                .expect("store")
                .expect("roll");
        }
        for bucket in tables.lock_budgets().values_mut() {
            bucket.level = 10.0;
        }
        // gm's export holds one of the two workers.
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let (started, running) = tokio::sync::oneshot::channel::<()>();
        let export = {
            let (tables, id) = (tables.clone(), id.clone());
            tokio::spawn(async move {
                tables
                    .compute(&id, "gm", move || {
                        let _ = started.send(());
                        let _ = wait.recv();
                    })
                    .await
            })
        };
        running.await.expect("started");
        assert!(
            matches!(
                tables.exec(&id, "bob", "1D6", None).await,
                Err(StoreError::Busy { .. })
            ),
            "a second heavy line may not take the last worker"
        );
        tables
            .exec(&id, "carol", "1D6", None)
            .await
            .expect("store")
            .expect("a light line finds the last worker");
        release.send(()).expect("release");
        export.await.expect("task").expect("export");
        tables
            .exec(&id, "bob", "1D6", None)
            .await
            .expect("store")
            .expect("the heavy slot is free again");
    }
}
