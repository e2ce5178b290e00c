//! Memory per open table: folds many copies of a table's log and reports the growth of the
//! process's resident set (VmRSS) per table. Linux only (reads /proc/self/status).
//!
//! Run with `cargo run --release -p taku-table --example table_memory`.

use taku_table::{Event, Table};

fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux /proc");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS line")
}

/// A table's log with `n` events: three members, then chat and rolls in turn.
fn log(n: usize) -> Vec<Event> {
    let mut t = Table::create("SRS", "memory", "gm", [8; 32]).expect("table");
    for line in ["/join alice", "/join bob", "/join sam as spectator"] {
        t.exec("gm", line).expect("join");
    }
    let mut i = 0;
    while t.events().len() < n {
        let line = if i % 2 == 0 {
            "2D6+4>=10".to_string()
        } else {
            format!("a line of chat, number {i}")
        };
        t.exec(if i % 3 == 0 { "alice" } else { "bob" }, &line)
            .expect("line");
        i += 1;
    }
    t.events().to_vec()
}

/// Measures one configuration in this process.
fn measure(events: usize, copies: usize) {
    let source = log(events);
    let before = rss_kib();
    let tables: Vec<Table> = (0..copies)
        .map(|_| Table::from_events(source.clone()).expect("folds"))
        .collect();
    let grown = rss_kib().saturating_sub(before);
    let per_table = grown as f64 * 1024.0 / copies as f64;
    println!(
        "{:>12}  {:>6}  {:>7} KiB  {:>7.1} KiB  {:>6.0} B",
        source.len(),
        copies,
        grown,
        per_table / 1024.0,
        per_table / source.len() as f64
    );
    drop(tables);
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if let [events, copies] = args[..] {
        return measure(events, copies);
    }
    // Each configuration in a fresh process, so memory freed by one cannot hide the next.
    println!("events/table  tables  RSS growth  per table  per event");
    let me = std::env::current_exe().expect("own path");
    for (events, copies) in [
        (4usize, 10_000usize),
        (100, 1_000),
        (1_000, 1_000),
        (10_000, 100),
    ] {
        let status = std::process::Command::new(&me)
            .args([events.to_string(), copies.to_string()])
            .status()
            .expect("re-run self");
        assert!(status.success());
    }
}
