//! Tables: acknowledged commands per second with durable storage, and loading a long log.
//!
//! Run with `cargo bench -p taku-table --bench table`. PostgreSQL figures need
//! `TAKU_TEST_PG=postgres://…` (tools/pg-test-server.sh starts a server); without it only
//! SQLite and in-memory figures are measured, and the bench says so.
//!
//! - `exec/*`: one line through `Tables::exec` (decide, append durably, fold) on a table
//!   kept open, as a server or `taku table exec` runs it. SQLite: WAL, synchronous=FULL.
//! - `load_100k/*`: a table of 100,000 events read from the store and folded, cold (a new
//!   `Tables` each time), and the fold alone from events in memory.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use std::time::Duration;
use taku_table::store::{EventStore, Store, Tables};
use taku_table::{Event, Table};

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

/// The stores measured: a SQLite file in a fresh directory, and PostgreSQL if configured.
fn locations(name: &str) -> Vec<(&'static str, String)> {
    let dir = std::env::temp_dir().join(format!("taku-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut out = vec![("sqlite", dir.join("bench.db").display().to_string())];
    match std::env::var("TAKU_TEST_PG") {
        Ok(url) => out.push(("postgres", url)),
        Err(_) => eprintln!("TAKU_TEST_PG is not set: PostgreSQL is not measured"),
    }
    out
}

/// A log of `n` events as a table sees them: members, characters, chat, rolls (a tenth
/// of them secret), field changes.
fn long_log(n: usize) -> Vec<Event> {
    let mut t = Table::create("SRS", "bench", "gm", [5; 32]).expect("table");
    for line in ["/join alice", "/join bob", "/char new ミナ"] {
        t.exec("gm", line).expect("setup");
    }
    let mut i = 0usize;
    while t.events().len() < n {
        let (actor, line) = match i % 10 {
            0 => ("alice", "S2D6+2>=10".to_string()),
            1 | 4 | 7 => ("bob", format!("message {i} from bob")),
            2 | 5 => ("alice", "2D6+4>=10".to_string()),
            3 => ("gm", format!("/char set ミナ HP {}", i % 30)),
            _ => ("gm", "3D6".to_string()),
        };
        t.exec(actor, &line).expect("line");
        i += 1;
    }
    let mut events = t.events().to_vec();
    events.truncate(n);
    events
}

fn exec(c: &mut Criterion) {
    let mut group = c.benchmark_group("exec");
    group.throughput(Throughput::Elements(1));
    group.measurement_time(Duration::from_secs(5));
    for (backend, location) in locations("exec") {
        let rt = rt();
        let tables =
            rt.block_on(async { Tables::new(Store::open(&location).await.expect("open store")) });
        let id = rt.block_on(async {
            let table = Table::create("SRS", "bench", "gm", [1; 32]).expect("table");
            let id = tables.create(table).await.expect("create");
            tables
                .exec(&id, "gm", "/join alice", None)
                .await
                .expect("store")
                .expect("join");
            id
        });
        for line in ["2D6+4>=10", "chat line"] {
            group.bench_function(format!("{backend}/{line}"), |b| {
                b.iter(|| {
                    rt.block_on(tables.exec(&id, "alice", line, None))
                        .expect("store")
                        .expect("line")
                })
            });
        }
    }
    group.finish();
}

fn load(c: &mut Criterion) {
    const N: usize = 100_000;
    let events = long_log(N);
    let mut group = c.benchmark_group("load_100k");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("fold_in_memory", |b| {
        b.iter_batched(
            || events.clone(),
            |events| Table::from_events(events).expect("folds"),
            BatchSize::LargeInput,
        )
    });
    for (backend, location) in locations("load") {
        let rt = rt();
        let id = rt.block_on(async {
            let store = Store::open(&location).await.expect("open store");
            let table = Table::from_events(events.clone()).expect("folds");
            store.create(&table).await.expect("store 100k events")
        });
        group.bench_function(format!("{backend}/read_and_fold"), |b| {
            b.iter(|| {
                rt.block_on(async {
                    let tables = Tables::new(Store::open(&location).await.expect("open"));
                    tables.read(&id, |t| t.events().len()).await.expect("load")
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, exec, load);
criterion_main!(benches);
