//! Test vectors in BCDice's format: loading (loose TOML, as upstream files are), replay with
//! scripted dice, and comparison of the text and the five flags.

use crate::{GameSystem, evaluate, find};
use serde::Deserialize;
use taku_dice::{EvalError, Mode, RollResult, ScriptedDraw, ScriptedSource};

/// One test vector.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Vector {
    /// System id.
    pub game_system: String,
    /// The command line.
    pub input: String,
    /// Expected text; `""` means no result; absent means compare only the flags.
    pub output: Option<String>,
    /// Expected flags (absent = false).
    #[serde(default)]
    pub secret: bool,
    /// See [`Vector::secret`].
    #[serde(default)]
    pub success: bool,
    /// See [`Vector::secret`].
    #[serde(default)]
    pub failure: bool,
    /// See [`Vector::secret`].
    #[serde(default)]
    pub critical: bool,
    /// See [`Vector::secret`].
    #[serde(default)]
    pub fumble: bool,
    /// The draws the scripted dice hand out, in order.
    #[serde(default)]
    pub rands: Vec<Rand>,
    /// `false`: the case is one of taku's extensions (SG-8's `SGS+3>=12`) and runs in a
    /// table's mode ([`Mode::Normalize`]); absent or `true`: BCDice's strict mode.
    #[serde(default = "strict_by_default")]
    pub strict: bool,
}

fn strict_by_default() -> bool {
    true
}

/// A scripted draw as written in a vector file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct Rand {
    /// Sides.
    pub sides: u32,
    /// Value.
    pub value: u32,
}

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    test: Vec<Vector>,
}

/// Parses a vector file. Upstream files are loose TOML: a key repeated in one `[[test]]`
/// block keeps its last value, so earlier repeats are dropped before parsing.
pub fn parse_vectors(text: &str) -> Result<Vec<Vector>, toml::de::Error> {
    match toml::from_str::<File>(text) {
        Ok(f) => Ok(f.test),
        Err(strict_error) => {
            let loose = drop_repeated_keys(text);
            if loose == text {
                return Err(strict_error);
            }
            toml::from_str::<File>(&loose).map(|f| f.test)
        }
    }
}

/// Within each `[[test]]` block, keeps only the last statement of each key. A statement
/// starts at a line `key = …` in column 0 and runs to the next one.
fn drop_repeated_keys(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut block: Vec<(Option<String>, String)> = Vec::new();
    let flush = |block: &mut Vec<(Option<String>, String)>, out: &mut String| {
        for (i, (key, stmt)) in block.iter().enumerate() {
            let repeated_later = key
                .as_ref()
                .is_some_and(|k| block[i + 1..].iter().any(|(k2, _)| k2.as_ref() == Some(k)));
            if !repeated_later {
                out.push_str(stmt);
            }
        }
        block.clear();
    };
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("[[") {
            flush(&mut block, &mut out);
            out.push_str(line);
            continue;
        }
        let key = statement_key(line);
        match (key, block.last_mut()) {
            (None, Some((_, stmt))) => stmt.push_str(line),
            (key, _) => block.push((key.map(str::to_string), line.to_string())),
        }
    }
    flush(&mut block, &mut out);
    out
}

fn statement_key(line: &str) -> Option<&str> {
    let (key, _) = line.split_once('=')?;
    let key = key.trim_end();
    (!key.is_empty()
        && !line.starts_with(char::is_whitespace)
        && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    .then_some(key)
}

/// What a vector expected and what taku gave, when they differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The expectation, in words.
    pub expected: String,
    /// What taku gave, in words.
    pub got: String,
}

/// Replays a vector with its scripted dice (in strict mode unless it says `strict =
/// false`) and compares.
pub fn check(v: &Vector) -> Result<(), Mismatch> {
    let expected = describe_expected(v);
    let Some(system) = find(&v.game_system) else {
        return Err(Mismatch {
            expected,
            got: format!("unknown game system '{}'", v.game_system),
        });
    };
    let got = replay(system, v);
    let matches = match (&got, v.output.as_deref()) {
        (Err(EvalError::Unsupported(_)), Some("")) => true,
        (Ok(r), Some(text)) if !text.is_empty() => r.text == text && flags(r) == expected_flags(v),
        (Ok(r), None) => flags(r) == expected_flags(v),
        _ => false,
    };
    if matches {
        return Ok(());
    }
    Err(Mismatch {
        expected,
        got: match got {
            Ok(r) => describe(&r.text, flags(&r)),
            Err(EvalError::Unsupported(_)) => "no result".to_string(),
            Err(e) => format!("error: {e}"),
        },
    })
}

/// Evaluates a vector's input with its scripted dice.
pub fn replay(system: &dyn GameSystem, v: &Vector) -> Result<RollResult, EvalError> {
    let mut dice = ScriptedSource::new(v.rands.iter().map(|r| ScriptedDraw {
        sides: r.sides,
        value: r.value,
    }));
    if system.engine() == crate::EngineKind::Reference {
        dice = dice.any_face();
    }
    let mode = if v.strict {
        Mode::Strict
    } else {
        Mode::Normalize
    };
    evaluate(system, &v.input, &mut dice, mode)
}

type Flags = [bool; 5];

fn flags(r: &RollResult) -> Flags {
    [r.secret, r.success, r.failure, r.critical, r.fumble]
}

fn expected_flags(v: &Vector) -> Flags {
    [v.secret, v.success, v.failure, v.critical, v.fumble]
}

fn describe_expected(v: &Vector) -> String {
    match v.output.as_deref() {
        Some("") => "no result".to_string(),
        Some(text) => describe(text, expected_flags(v)),
        None => describe("(any text)", expected_flags(v)),
    }
}

fn describe(text: &str, f: Flags) -> String {
    const NAMES: [&str; 5] = ["secret", "success", "failure", "critical", "fumble"];
    let set: Vec<&str> = NAMES
        .iter()
        .zip(f)
        .filter_map(|(n, on)| on.then_some(*n))
        .collect();
    if set.is_empty() {
        format!("{text:?}")
    } else {
        format!("{text:?} [{}]", set.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loose_toml_keeps_the_last_repeated_key() {
        let text = "[[ test ]]\ngame_system = \"DiceBot\"\ninput = \"1D6\"\ninput = \"2D6\"\noutput = \"\"\nrands = [\n  { sides = 6, value = 1 },\n]\n";
        let v = parse_vectors(text).expect("loose TOML parses");
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].input, "2D6");
        assert_eq!(v[0].rands.len(), 1);
    }
}
