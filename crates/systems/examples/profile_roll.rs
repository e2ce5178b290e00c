//! Evaluates one command many times, for instruction counts under
//! `valgrind --tool=callgrind` (repeatable on a noisy machine, unlike wall time):
//!
//! ```sh
//! cargo build --release -p taku-systems --example profile_roll
//! valgrind --tool=callgrind target/release/examples/profile_roll '2D6+4>=10' 100000
//! ```

use taku_dice::{ChaChaSource, Mode};

fn main() {
    let mut args = std::env::args().skip(1);
    let command = args.next().unwrap_or_else(|| "2D6+4>=10".to_string());
    let times: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let system = taku_systems::find("DiceBot").expect("DiceBot is registered");
    let mut source = ChaChaSource::from_seed(1);
    let mut bytes = 0usize;
    for _ in 0..times {
        match taku_systems::evaluate(system, &command, &mut source, Mode::Strict) {
            Ok(r) => bytes += r.text.len(),
            Err(e) => bytes += e.to_string().len(),
        }
    }
    println!("{times} evaluations of {command}, {bytes} bytes of text");
}
