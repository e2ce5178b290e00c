//! Parse + evaluate + result text for one line, one thread, under DiceBot.
//!
//! Run with `cargo bench -p taku-systems --bench roll`. Each benchmark draws from one
//! seeded `ChaChaSource` created outside the timing loop, so the figures cover the whole
//! pipeline a `taku roll -` line goes through, minus IO.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use taku_dice::{ChaChaSource, Mode};

/// The commands measured, in Strict mode.
const COMMANDS: &[&str] = &[
    "2D6",
    "2D6+4>=10",
    "3D6/2+1D6",
    "12R6>=6",
    "5D10KH3",
    "10B6>=4",
    "D66",
    "CHOICE[a,b,c]",
    "C(10*3+4)",
    "x5 2D6",
];

fn bench_one(c: &mut Criterion, group_name: &str, commands: &[&str], mode: Mode) {
    let system = taku_systems::find("DiceBot").expect("DiceBot is registered");
    let mut group = c.benchmark_group(group_name);
    group.throughput(Throughput::Elements(1));
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for &input in commands {
        let mut source = ChaChaSource::from_seed(1);
        group.bench_function(input, |b| {
            b.iter(|| {
                let result = taku_systems::evaluate(system, black_box(input), &mut source, mode)
                    .expect("benchmarked commands evaluate");
                black_box(result.text)
            })
        });
    }
    group.finish();
}

fn roll(c: &mut Criterion) {
    bench_one(c, "strict", COMMANDS, Mode::Strict);
    bench_one(c, "normalize", &["2D6+4>=10"], Mode::Normalize);
}

criterion_group!(benches, roll);
criterion_main!(benches);
