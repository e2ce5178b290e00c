//! Any bytes, read as (lossy) UTF-8, evaluate to `Ok` or `Err` under every game system in
//! both modes without panicking; and a line the common commands parse prints back to the
//! same tree. The first 8 bytes (zero-padded) seed the dice.

#![no_main]

use libfuzzer_sys::fuzz_target;
use taku_dice::{ChaChaSource, Mode, command};

fuzz_target!(|data: &[u8]| {
    let mut seed = [0u8; 8];
    let n = data.len().min(8);
    seed[..n].copy_from_slice(&data[..n]);
    let seed = u64::from_le_bytes(seed);
    let text = String::from_utf8_lossy(data);

    for system in taku_systems::systems() {
        for mode in [Mode::Strict, Mode::Normalize] {
            let _ =
                taku_systems::evaluate(*system, &text, &mut ChaChaSource::from_seed(seed), mode);
        }
    }

    if let Ok(cmd) = command::parse(&text) {
        let printed = cmd.to_string();
        assert_eq!(
            command::parse(&printed),
            Ok(cmd),
            "{text:?} printed as {printed:?} parses to another tree"
        );
    }
});
