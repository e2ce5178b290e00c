//! The SQLite store: round trips, refusal of foreign files, concurrent writers.

use std::path::PathBuf;
use taku_table::store::{SqliteStore, StoreError};
use taku_table::{EventBody, Table};

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("taku-store-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("taku.db")
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

async fn new_table(store: &SqliteStore) -> String {
    let table = Table::create("DiceBot", "test", "gm", [3; 32]).expect("table");
    store.create(&table).await.expect("create")
}

#[test]
fn a_stored_table_reloads_identically() {
    rt().block_on(async {
        let path = temp_db("roundtrip");
        let store = SqliteStore::open(&path).await.expect("open");
        let id = new_table(&store).await;
        for line in ["/join alice", "2D6>=7", "hello", "S1D100"] {
            let actor = if line.starts_with('/') { "gm" } else { "alice" };
            store
                .exec(&id, "gm", "/help")
                .await
                .expect("db")
                .expect("help");
            store
                .exec(&id, actor, line)
                .await
                .expect("db")
                .expect("line");
        }
        let refused = store.exec(&id, "bob", "2D6").await.expect("db");
        assert!(refused.is_err());

        let reopened = SqliteStore::open(&path).await.expect("reopen");
        let table = reopened.table(&id).await.expect("load");
        assert_eq!(table.events().len(), 5);
        assert!(matches!(table.events()[4].body, EventBody::Roll(ref r) if r.secret));
        assert!(table.verify().is_empty());
        let list = reopened.list().await.expect("list");
        assert_eq!((list.len(), list[0].events), (1, 5));
    });
}

#[test]
fn unknown_tables_and_foreign_files_are_refused_by_name() {
    rt().block_on(async {
        let path = temp_db("foreign");
        std::fs::write(&path, b"this is not a database, it is a shopping list\n").expect("write");
        let err = SqliteStore::open(&path).await.expect_err("foreign file");
        assert!(matches!(err, StoreError::Foreign(_)), "{err}");
        assert!(err.to_string().contains("taku.db"), "{err}");

        let path = temp_db("empty");
        let store = SqliteStore::open(&path).await.expect("open");
        let err = store.table("nope").await.expect_err("no such table");
        assert_eq!(
            err.to_string(),
            "no table 'nope' in this database; `taku table list` shows the tables"
        );
    });
}

#[test]
fn another_programs_sqlite_file_is_refused() {
    rt().block_on(async {
        use sqlx::sqlite::SqliteConnectOptions;
        use sqlx::{ConnectOptions, Executor};
        let path = temp_db("other-app");
        let mut conn = SqliteConnectOptions::new()
            .filename(&path)
            .create_if_missing(true)
            .connect()
            .await
            .expect("sqlite");
        conn.execute("CREATE TABLE notes (body TEXT)")
            .await
            .expect("create");
        drop(conn);
        let err = SqliteStore::open(&path)
            .await
            .expect_err("foreign database");
        assert!(matches!(err, StoreError::Foreign(_)), "{err}");
    });
}

#[test]
fn concurrent_writers_never_lose_reorder_or_duplicate_an_event() {
    let path = temp_db("concurrent");
    let id = rt().block_on(async {
        let store = SqliteStore::open(&path).await.expect("open");
        let id = new_table(&store).await;
        store
            .exec(&id, "gm", "/join alice")
            .await
            .expect("db")
            .expect("join");
        id
    });
    // Two threads, each with its own connection pool, as two processes would have.
    let writers: Vec<_> = ["gm", "alice"]
        .into_iter()
        .map(|who| {
            let (path, id) = (path.clone(), id.clone());
            std::thread::spawn(move || {
                rt().block_on(async {
                    let store = SqliteStore::open(&path).await.expect("open");
                    for i in 0..40 {
                        store
                            .exec(&id, who, &format!("{who} line {i}"))
                            .await
                            .expect("db")
                            .expect("chat");
                    }
                })
            })
        })
        .collect();
    for w in writers {
        w.join().expect("writer thread");
    }
    rt().block_on(async {
        let store = SqliteStore::open(&path).await.expect("open");
        let table = store.table(&id).await.expect("load");
        let events = table.events();
        assert_eq!(events.len(), 2 + 80);
        for (i, e) in events.iter().enumerate() {
            assert_eq!(e.seq, i as u64 + 1);
        }
        for who in ["gm", "alice"] {
            let lines: Vec<String> = events
                .iter()
                .filter_map(|e| match &e.body {
                    EventBody::Chat { text } if e.actor == who => Some(text.clone()),
                    _ => None,
                })
                .collect();
            let expected: Vec<String> = (0..40).map(|i| format!("{who} line {i}")).collect();
            assert_eq!(
                lines, expected,
                "{who}'s lines lost, duplicated or reordered"
            );
        }
    });
}
