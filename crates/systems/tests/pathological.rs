//! Hostile input never panics, never overflows the stack and always ends under every game
//! system: each input gives `Ok` or `Err`, in both modes, on a thread with the default
//! 2 MiB stack. The inputs are `taku-dice`'s; here they also go through each system's own
//! step (preprocessing, prefixes, the system command parser). Time is not measured.

#[path = "../../dice/tests/support/pathological_inputs.rs"]
mod inputs;

use inputs::{AlwaysHighest, named, on_default_stack, random_byte_strings};
use taku_dice::{ChaChaSource, EvalError, Mode};
use taku_systems::{evaluate, systems};

const MODES: [Mode; 2] = [Mode::Strict, Mode::Normalize];

/// How deep parentheses around plain arithmetic go here: as deep as in `taku-dice`'s test,
/// now that preprocessing folds them in one linear pass (it was quadratic, and 10,000 levels
/// took seconds).
const ARITH_NESTING: usize = 10_000;

/// The shared inputs, plus the systems' prefixes followed by hostile tails.
fn system_inputs() -> Vec<inputs::Input> {
    let mut v = named(ARITH_NESTING);
    let tails = [
        format!("+{}", "(".repeat(10_000)),
        format!(
            "+{}1{}",
            "(".repeat(ARITH_NESTING),
            ")".repeat(ARITH_NESTING)
        ),
        format!("+{}1D6{}", "(".repeat(10_000), ")".repeat(10_000)),
        "-".repeat(10_000),
        format!("+{}", vec!["1"; 20_000].join("+")),
        "+99999999999999999999>=99999999999999999999".to_string(),
        "@99999999999999999999#-99999999999999999999$99999999999999999999".to_string(),
        "+(9223372036854775807*2)>=1".to_string(),
        "+1/0>=1".to_string(),
        "+1/0U>=1".to_string(),
        "[99999999999999999999,-1]".to_string(),
        "@@@@####$$$$".to_string(),
    ];
    for system in systems() {
        for prefix in system.prefixes() {
            for (i, tail) in tails.iter().enumerate() {
                v.push(inputs::Input {
                    name: format!("{} {prefix} + tail #{i}", system.id()),
                    text: format!("{prefix}{tail}"),
                });
                v.push(inputs::Input {
                    name: format!("{} S{prefix} + tail #{i}", system.id()),
                    text: format!("s{prefix}{tail}"),
                });
            }
        }
    }
    v
}

#[test]
fn named_inputs_end_without_panic_under_every_system() {
    for input in system_inputs() {
        let name = input.name.clone();
        on_default_stack(&name, move || {
            for system in systems() {
                for mode in MODES {
                    let _ = evaluate(*system, &input.text, &mut ChaChaSource::from_seed(7), mode);
                }
            }
        });
    }
}

#[test]
fn random_byte_strings_end_without_panic_under_every_system() {
    on_default_stack("1000 random byte strings", || {
        for text in random_byte_strings(1000) {
            for system in systems() {
                for mode in MODES {
                    let _ = evaluate(*system, &text, &mut ChaChaSource::from_seed(7), mode);
                }
            }
        }
    });
}

#[test]
fn endless_upper_dice_stop_at_the_draw_limit_under_every_system() {
    on_default_stack("4U2[2] under every system", || {
        for system in systems() {
            for mode in MODES {
                assert_eq!(
                    evaluate(*system, "4U2[2]", &mut AlwaysHighest, mode),
                    Err(EvalError::TooManyDice { limit: 10_000 }),
                    "{} {mode:?}",
                    system.id()
                );
            }
        }
    });
}
