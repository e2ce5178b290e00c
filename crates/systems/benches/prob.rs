//! `taku prob`'s exact odds (issue targets: each seed system's basic check ≤ 1 ms, the
//! sum of 100D6 ≤ 10 ms; the AF check over a party is `benches/af_odds.rs`).
//!
//! Run with `cargo bench -p taku-systems --bench prob`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use taku_dice::odds::Limits;

/// (system, command): each system's basic check, a contest, and large sums.
const COMMANDS: &[(&str, &str)] = &[
    ("DiceBot", "2D6+4>=10"),
    ("SRS", "2D6+2>=10"),
    ("AnotherWorld", "AW+3>=10"),
    ("AnotherWorld", "AW+5 VS AW+3"),
    ("Sengensyou", "SGS+2"),
    ("StellarKnights", "4B6>=4"),
    ("DiceBot", "4D6KH3"),
    ("DiceBot", "3R6[6]>=5"),
    ("DiceBot", "100D6"),
    ("DiceBot", "100D6>=350"),
];

fn prob(c: &mut Criterion) {
    let mut group = c.benchmark_group("prob");
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    group.sample_size(20);
    for &(id, command) in COMMANDS {
        let system = taku_systems::find(id).expect("system");
        group.bench_function(format!("{id} {command}"), |b| {
            b.iter(|| {
                taku_systems::odds(system, black_box(command), Limits::default())
                    .expect("benchmarked commands have odds")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, prob);
criterion_main!(benches);
