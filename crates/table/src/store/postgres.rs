//! The PostgreSQL backend, for deployments past one machine: several servers on one
//! database. Our relations are all named `taku_*`, so the database may be shared with
//! other programs; `taku_schema` records the migrations run, under an advisory lock so
//! two servers starting at once migrate once. Commits are durable on return (PostgreSQL's
//! default `synchronous_commit = on`, which we set explicitly per connection).
//!
//! Every `create` and `append` also announces itself on the `taku_events` channel
//! (`NOTIFY`, sent by PostgreSQL only when the transaction commits), so that servers
//! sharing the database can push each other's events to their clients: see
//! [`PgStore::listen`].

use super::StoreError;
use crate::{Event, Table};
use sqlx::Postgres;
use sqlx::postgres::{PgConnectOptions, PgListener, PgPool, PgPoolOptions};
use std::str::FromStr;
use std::time::Duration;

/// The channel appends are announced on (the literal in `DIALECT.notify` is the same).
pub const CHANNEL: &str = "taku_events";

/// The advisory lock key held while migrating ("taku" in ASCII).
const MIGRATION_LOCK: i64 = 0x7461_6b75;

/// The schema, one migration per version; `taku_schema` records how many have run.
const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE taku_tables (
    id         TEXT PRIMARY KEY,
    system     TEXT NOT NULL,
    name       TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE taku_events (
    table_id TEXT   NOT NULL REFERENCES taku_tables(id),
    seq      BIGINT NOT NULL,
    actor    TEXT   NOT NULL,
    body     TEXT   NOT NULL,
    PRIMARY KEY (table_id, seq)
);
",
    "
CREATE TABLE taku_credentials (
    key_id   TEXT PRIMARY KEY,
    hash     BYTEA NOT NULL,
    table_id TEXT NOT NULL REFERENCES taku_tables(id),
    member   TEXT,
    role     TEXT NOT NULL
);
",
    // Each table's last seq, written with every append (see the SQLite migration).
    "
ALTER TABLE taku_tables ADD COLUMN head BIGINT;
UPDATE taku_tables t SET head = (SELECT max(seq) FROM taku_events e WHERE e.table_id = t.id);
",
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// PostgreSQL's statements.
const DIALECT: super::Dialect = super::Dialect {
    insert_table: "INSERT INTO taku_tables (id, system, name) VALUES ($1, $2, $3)",
    insert_event: "INSERT INTO taku_events (table_id, seq, actor, body) VALUES ($1, $2, $3, $4)",
    set_head: "UPDATE taku_tables SET head = $1 WHERE id = $2",
    head: "SELECT head FROM taku_tables WHERE id = $1",
    load_after: "SELECT seq, actor, body FROM taku_events WHERE table_id = $1 AND seq > $2 ORDER BY seq",
    list: "SELECT t.id, t.system, t.name,
                  (SELECT count(*) FROM taku_events e WHERE e.table_id = t.id) AS n
           FROM taku_tables t ORDER BY t.created_at, t.id",
    insert_credential: "INSERT INTO taku_credentials (key_id, hash, table_id, member, role)
                        VALUES ($1, $2, $3, $4, $5)",
    credential: "SELECT hash, table_id, member, role FROM taku_credentials WHERE key_id = $1",
    take_invite: "DELETE FROM taku_credentials WHERE key_id = $1 AND member IS NULL",
    revoke_member: "DELETE FROM taku_credentials WHERE table_id = $1 AND member = $2",
    revoke_invites: "DELETE FROM taku_credentials WHERE table_id = $1 AND member IS NULL",
    count_invites: "SELECT count(*) FROM taku_credentials WHERE table_id = $1 AND member IS NULL",
    notify: Some("SELECT pg_notify('taku_events', $1)"),
};

/// A PostgreSQL database of table logs.
#[derive(Debug, Clone)]
pub struct PgStore {
    pool: PgPool,
    at: String,
}

/// `url` with any password replaced by `***`, for messages and logs: the one in the
/// user info (`user:password@`) and any `password=` / `sslpassword=` query parameter.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    let mut out = match rest.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
            None => format!("{scheme}://{rest}"),
        },
        None => format!("{scheme}://{rest}"),
    };
    if let Some(query) = query {
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key, _))
                    if key.eq_ignore_ascii_case("password")
                        || key.eq_ignore_ascii_case("sslpassword") =>
                {
                    format!("{key}=***")
                }
                _ => pair.to_string(),
            })
            .collect();
        out.push('?');
        out.push_str(&pairs.join("&"));
    }
    out
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/db`),
    /// creating or migrating our relations if needed.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let at = redact(url);
        let db = |source| StoreError::Database {
            at: at.clone(),
            source,
        };
        let options = PgConnectOptions::from_str(url)
            .map_err(db)?
            .options([("synchronous_commit", "on")]);
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .map_err(db)?;
        let store = PgStore { pool, at };
        store.migrate().await?;
        Ok(store)
    }

    /// Closes the pool's connections, waiting for those in use (a [`Listener`] has its own
    /// and closes when dropped). The store must not be used afterwards.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    fn db(&self, source: sqlx::Error) -> StoreError {
        StoreError::Database {
            at: self.at.clone(),
            source,
        }
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await.map_err(|e| self.db(e))?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(MIGRATION_LOCK)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.db(e))?;
        let ours: Vec<String> = sqlx::query_scalar(
            "SELECT table_name::text FROM information_schema.tables
             WHERE table_schema = current_schema() AND table_name LIKE 'taku\\_%'",
        )
        .fetch_all(&mut *tx)
        .await
        .map_err(|e| self.db(e))?;
        let version: i64 = if ours.iter().any(|t| t == "taku_schema") {
            sqlx::query_scalar("SELECT max(version) FROM taku_schema")
                .fetch_one(&mut *tx)
                .await
                .map(|v: Option<i64>| v.unwrap_or(0))
                .map_err(|e| self.db(e))?
        } else if ours.is_empty() {
            sqlx::raw_sql("CREATE TABLE taku_schema (version BIGINT PRIMARY KEY)")
                .execute(&mut *tx)
                .await
                .map_err(|e| self.db(e))?;
            0
        } else {
            // taku_* relations without our schema record: another program's.
            return Err(StoreError::Foreign(self.at.clone()));
        };
        if version > SCHEMA_VERSION {
            return Err(StoreError::TooNew {
                at: self.at.clone(),
                found: version,
                known: SCHEMA_VERSION,
            });
        }
        let done = usize::try_from(version).map_err(|_| StoreError::Foreign(self.at.clone()))?;
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(done) {
            sqlx::raw_sql(*sql)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.db(e))?;
            sqlx::query("INSERT INTO taku_schema (version) VALUES ($1)")
                .bind(i64::try_from(i + 1).unwrap_or(i64::MAX))
                .execute(&mut *tx)
                .await
                .map_err(|e| self.db(e))?;
        }
        tx.commit().await.map_err(|e| self.db(e))
    }

    /// Starts listening for appends to any table in this database, by any process
    /// (this one included), so that a server can push to its clients what another server
    /// appended. Appends committed after this returns are all heard, in commit order,
    /// unless the connection drops (then [`Notice::Resync`]); so subscribe first, then
    /// load or catch up tables, and nothing falls between the two.
    ///
    /// The listener has a connection of its own (opened with the same options as the
    /// store's pool, not taken from it), held for as long as it lives: it never starves
    /// the store's queries, and one listener per process is enough, since a notice names
    /// its table. Keep calling [`Listener::next`] promptly, in a task of its own:
    /// PostgreSQL queues notices for a listener that does not read them, and its one queue
    /// for the whole server is finite (8 GB by default; once full, every append fails).
    pub async fn listen(&self) -> Result<Listener, StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(1)
            .max_lifetime(None)
            .idle_timeout(None)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with((*self.pool.connect_options()).clone())
            .await
            .map_err(|e| self.db(e))?;
        let mut listener = Listener {
            pool,
            inner: None,
            at: self.at.clone(),
        };
        listener.inner = Some(listener.subscribe().await?);
        Ok(listener)
    }
}

sql_event_store!(PgStore, Postgres);

/// What a [`Listener`] heard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Table `table`'s log reaches (at least) seq `seq`, committed; [`super::Tables::read`]
    /// folds what this process has not seen yet. Notices for one table come in commit
    /// order, and this process's own appends are heard too (reading one then waits for
    /// the `exec` that appended it and finds nothing new).
    Appended {
        /// Table id.
        table: String,
        /// The last seq appended.
        seq: u64,
    },
    /// The connection was lost and is listening again; whatever was appended meanwhile
    /// was never announced to us (PostgreSQL does not keep notices for a listener that
    /// is gone). Bring every open table up to date, as if each had a notice.
    Resync,
}

/// Appends as they commit, from every process writing this database: from
/// [`PgStore::listen`] (or [`super::Store::listen`]).
pub struct Listener {
    /// The listener's own one-connection pool, from which it reconnects.
    pool: PgPool,
    /// `None` after the connection was lost, until listening again.
    inner: Option<PgListener>,
    /// The database, for messages.
    at: String,
}

impl std::fmt::Debug for Listener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listener")
            .field("at", &self.at)
            .field("connected", &self.inner.is_some())
            .finish_non_exhaustive()
    }
}

impl Listener {
    /// Waits for the next notice.
    ///
    /// A lost connection is reconnected here, and the first notice after it is
    /// [`Notice::Resync`], returned only once listening again, so a catch-up done after
    /// it misses nothing. If reconnecting fails, the error is returned; calling `next`
    /// again (after a pause: the database may be down) retries, and the first `Ok` after
    /// an error is always `Resync`. Payloads that are not ours (anyone may `NOTIFY` on
    /// the channel) are skipped.
    ///
    /// Meant to be cancel-safe (it may sit in a `select!`): sqlx takes a notice off the
    /// connection only when it is returned, and a reconnect cut short is redone,
    /// `Resync` included, on the next call.
    pub async fn next(&mut self) -> Result<Notice, StoreError> {
        loop {
            let Some(inner) = self.inner.as_mut() else {
                self.inner = Some(self.subscribe().await?);
                return Ok(Notice::Resync);
            };
            match inner.try_recv().await {
                Ok(Some(n)) => {
                    if let Some(notice) = parse(n.payload()) {
                        return Ok(notice);
                    }
                }
                // Lost (and, without eager reconnect, not reconnected): listen afresh.
                Ok(None) => self.inner = None,
                Err(e) => {
                    // Whatever broke, start over with a new connection next time.
                    self.inner = None;
                    return Err(self.db(e));
                }
            }
        }
    }

    /// A connection listening on [`CHANNEL`].
    async fn subscribe(&self) -> Result<PgListener, StoreError> {
        let mut listener = PgListener::connect_with(&self.pool)
            .await
            .map_err(|e| self.db(e))?;
        // Reconnecting is ours to do (in `next`, which then says `Resync`); sqlx's eager
        // reconnect would happen inside `try_recv`, where a cancelled call could lose the
        // fact that it happened.
        listener.eager_reconnect(false);
        listener.listen(CHANNEL).await.map_err(|e| self.db(e))?;
        Ok(listener)
    }

    fn db(&self, source: sqlx::Error) -> StoreError {
        StoreError::Database {
            at: self.at.clone(),
            source,
        }
    }
}

/// A notice from its payload, `"{table id} {last seq}"`; `None` if it is not one of ours.
fn parse(payload: &str) -> Option<Notice> {
    let (table, seq) = payload.split_once(' ')?;
    if table.is_empty() || !table.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    Some(Notice::Appended {
        table: table.to_string(),
        seq: seq.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::{Notice, parse, redact};

    #[test]
    fn payloads_that_are_not_ours_are_skipped() {
        assert_eq!(
            parse("0123abcd 42"),
            Some(Notice::Appended {
                table: "0123abcd".into(),
                seq: 42
            })
        );
        for bad in [
            "",
            " ",
            "abc",
            "abc ",
            " 7",
            "abc -1",
            "abc 1 2",
            "abc x",
            "a-b 1",
            "abc 99999999999999999999",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn passwords_never_reach_messages() {
        assert_eq!(
            redact("postgres://taku:hunter2@127.0.0.1:5432/taku"),
            "postgres://taku:***@127.0.0.1:5432/taku"
        );
        assert_eq!(
            redact("postgres://taku@localhost/taku"),
            "postgres://taku@localhost/taku"
        );
        assert_eq!(redact("postgres://h/db"), "postgres://h/db");
        // Issue 18: a password in the query string too.
        assert_eq!(
            redact("postgres://taku@h/db?sslmode=disable&password=hunter2&PassWord=x"),
            "postgres://taku@h/db?sslmode=disable&password=***&PassWord=***"
        );
        assert_eq!(
            redact("postgresql://u:p@w@h/db?sslpassword=k"),
            "postgresql://u:***@h/db?sslpassword=***"
        );
    }
}
