//! AW-7: the exact odds of an AF check (`af_odds`), for parties and round limits of the
//! size the GM guide describes.
//!
//! Run with `cargo bench -p taku-systems --bench af_odds`. Four PCs over three rounds is
//! twelve rolls, counted in `u128`; six PCs over five rounds is thirty, past `u128`
//! (36^30 > 2^128), so the last six rolls are counted in `BigUint`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use taku_systems::another_world::af_odds::{AfRoller, af_odds};

/// (name, judgement values in action-value order, difficulty, rounds).
const CHECKS: &[(&str, &[i64], i64, u32)] = &[
    ("4 PCs x 3 rounds, D=100", &[3, 4, 2, 5], 100, 3),
    ("6 PCs x 5 rounds, D=200", &[3, 4, 2, 5, 3, 4], 200, 5),
];

fn odds(c: &mut Criterion) {
    let mut group = c.benchmark_group("af_odds");
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    for &(name, values, difficulty, rounds) in CHECKS {
        let party: Vec<AfRoller> = values.iter().copied().map(AfRoller::new).collect();
        group.bench_function(name, |b| {
            b.iter(|| {
                af_odds(black_box(&party), black_box(difficulty), rounds, 0)
                    .expect("benchmarked AF checks are within MAX_WORK")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, odds);
criterion_main!(benches);
