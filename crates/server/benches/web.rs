//! The web table's rendering (issue 17): the table page's first fetch (the last 100
//! entries as one member sees them), all 5,000 entries of a long log (what scrolling the
//! whole log back fetches, page by page), the HTML export of that log, and the side pane.
//!
//! Run with `cargo bench -p taku-server --bench web`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use taku_server::web::page;
use taku_table::{Entropy, Table};

/// A table of `n` events: members, a character, chat, rolls (a tenth of them secret, by
/// the GM, so a player sees their placeholders), field changes.
fn long_table(n: usize) -> Table {
    let mut t = Table::create("DiceBot", "bench", "gm", [5; 32])
        .expect("table")
        .with_entropy(Entropy::seeded([5; 32]));
    for line in ["/join alice", "/join bob"] {
        t.exec("gm", line).expect("join");
    }
    t.exec("alice", "/char new ミナ").expect("char");
    t.exec("alice", "/char set ミナ HP 20 HP.max 20")
        .expect("hp");
    let mut i = 0usize;
    while t.events().len() < n {
        let (who, line) = match i % 10 {
            0 => ("gm", "S2D6>=7 罠".to_string()),
            1 | 4 | 7 => ("alice", format!("2D6+{}>=8 攻撃", i % 5)),
            2 | 5 => ("bob", format!("こんにちは、{i} 回目の発言です <b>")),
            8 => ("alice", format!("/char set ミナ HP {}", 1 + i % 19)),
            _ => ("bob", "1D100<=50".to_string()),
        };
        t.exec(who, &line).expect("line");
        i += 1;
    }
    t
}

fn render(c: &mut Criterion) {
    let t = long_table(5_000);
    let events = t.events();
    let mut group = c.benchmark_group("web");
    group.throughput(Throughput::Elements(100));
    group.bench_function("first_page_100_entries", |b| {
        b.iter(|| {
            page::entries(&t, events[events.len() - 100..].iter(), "alice")
                .into_string()
                .len()
        })
    });
    group.throughput(Throughput::Elements(events.len() as u64));
    group.bench_function("all_5000_entries", |b| {
        b.iter(|| {
            page::entries(&t, events.iter(), "alice")
                .into_string()
                .len()
        })
    });
    group.bench_function("export_html_5000", |b| {
        b.iter(|| page::export(&t, "alice").into_string().len())
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("side_pane", |b| {
        b.iter(|| page::side(&t, "alice").into_string().len())
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = render
}
criterion_main!(benches);
