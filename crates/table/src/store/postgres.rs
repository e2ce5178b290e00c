//! The PostgreSQL backend, for deployments past one machine: several servers on one
//! database. Our relations are all named `taku_*`, so the database may be shared with
//! other programs; `taku_schema` records the migrations run, under an advisory lock so
//! two servers starting at once migrate once. Commits are durable on return (PostgreSQL's
//! default `synchronous_commit = on`, which we set explicitly per connection).

use super::StoreError;
use crate::{Event, Table};
use sqlx::Postgres;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use std::str::FromStr;
use std::time::Duration;

/// The advisory lock key held while migrating ("taku" in ASCII).
const MIGRATION_LOCK: i64 = 0x7461_6b75;

/// The schema, one migration per version; `taku_schema` records how many have run.
const MIGRATIONS: &[&str] = &["
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
", "
CREATE TABLE taku_credentials (
    key_id   TEXT PRIMARY KEY,
    hash     BYTEA NOT NULL,
    table_id TEXT NOT NULL REFERENCES taku_tables(id),
    member   TEXT,
    role     TEXT NOT NULL
);
"];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// PostgreSQL's statements.
const DIALECT: super::Dialect = super::Dialect {
    insert_table: "INSERT INTO taku_tables (id, system, name) VALUES ($1, $2, $3)",
    insert_event: "INSERT INTO taku_events (table_id, seq, actor, body) VALUES ($1, $2, $3, $4)",
    load_after: "SELECT seq, actor, body FROM taku_events WHERE table_id = $1 AND seq > $2 ORDER BY seq",
    list: "SELECT t.id, t.system, t.name,
                  (SELECT count(*) FROM taku_events e WHERE e.table_id = t.id) AS n
           FROM taku_tables t ORDER BY t.created_at, t.id",
    insert_credential: "INSERT INTO taku_credentials (key_id, hash, table_id, member, role)
                        VALUES ($1, $2, $3, $4, $5)",
    credential: "SELECT hash, table_id, member, role FROM taku_credentials WHERE key_id = $1",
    take_invite: "DELETE FROM taku_credentials WHERE key_id = $1 AND member IS NULL",
};

/// A PostgreSQL database of table logs.
#[derive(Debug, Clone)]
pub struct PgStore {
    pool: PgPool,
    at: String,
}

/// `url` with any password replaced by `***`, for messages.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let Some((userinfo, host)) = rest.rsplit_once('@') else {
        return url.to_string();
    };
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
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
}

sql_event_store!(PgStore, Postgres);

#[cfg(test)]
mod tests {
    use super::redact;

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
    }
}
