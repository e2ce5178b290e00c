//! MT-3 exact odds: every kind × difficulty 0–8 for a 60-card deck.
//!
//! Run with `cargo bench -p taku-systems --bench mtg_odds`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use taku_systems::mtg_trpg::card::{Card, Colour, Colours};
use taku_systems::mtg_trpg::odds::odds_table;

fn card(name: &str, mana_value: u32, colours: &[Colour], land_types: &[Colour]) -> Card {
    Card {
        name: name.to_string(),
        name_ja: None,
        faces: Vec::new(),
        mana_value,
        colours: Colours::of(colours),
        land: !land_types.is_empty() || name == "Wastes",
        land_types: Colours::of(land_types),
    }
}

/// 24 lands (basics of two colours and a dual), 36 spells of mana values 1–7, some of
/// them multicolour, some colourless.
fn deck() -> Vec<Card> {
    use Colour::*;
    let mut d = Vec::new();
    d.extend(std::iter::repeat_n(card("Forest", 0, &[], &[G]), 10));
    d.extend(std::iter::repeat_n(card("Plains", 0, &[], &[W]), 9));
    d.extend(std::iter::repeat_n(card("Savannah", 0, &[], &[G, W]), 4));
    d.push(card("Wastes", 0, &[], &[]));
    for (mv, colours, n) in [
        (1, vec![G], 4),
        (2, vec![G], 4),
        (2, vec![W], 4),
        (3, vec![G, W], 4),
        (3, vec![W], 3),
        (4, vec![G], 4),
        (4, vec![], 2),
        (5, vec![G, W], 3),
        (6, vec![G], 2),
        (7, vec![G], 2),
        (2, vec![], 2),
        (5, vec![U, B, R], 2),
    ] {
        d.extend(std::iter::repeat_n(
            card(&format!("spell {mv}"), mv, &colours, &[]),
            n,
        ));
    }
    assert_eq!(d.len(), 60);
    d
}

fn bench(c: &mut Criterion) {
    let deck = deck();
    let mut group = c.benchmark_group("mtg_odds");
    group.measurement_time(Duration::from_secs(3));
    for boost in [false, true] {
        group.bench_function(
            format!("60 cards, 6 kinds x difficulty 0-8, boost={boost}"),
            |b| b.iter(|| odds_table(black_box(&deck), boost).expect("odds")),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
