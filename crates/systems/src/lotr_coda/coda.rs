//! The pieces of the CODA test that combat, battles and advancement share: the exploding
//! 2d6 test (LR-9), the degree by margin (LR-9), rounding half up (LR-0) and the
//! attribute modifier (LR-2). Kept small and pure; the core module's test command
//! (`LOTR+m>=t`) may replace these with its own once both are merged.

use serde::{Deserialize, Serialize};
use taku_dice::{Roller, Text};

/// Most dice one exploding test may draw (the roller's own limit is far above; a chain of
/// sixes this long never occurs with fair dice).
pub const MAX_TEST_DICE: usize = 200;

/// LR-9: the degree of a test, by margin = total − TN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Degree {
    /// Margin ≤ −11.
    DisastrousFailure,
    /// Margin −10..−6.
    CompleteFailure,
    /// Margin −5..−1.
    Failure,
    /// Margin 0.
    MarginalSuccess,
    /// Margin +1..+5.
    CompleteSuccess,
    /// Margin +6..+10.
    SuperiorSuccess,
    /// Margin ≥ +11.
    ExtraordinarySuccess,
}

impl Degree {
    /// LR-9: the degree of `margin`.
    pub fn of(margin: i64) -> Degree {
        match margin {
            i64::MIN..=-11 => Degree::DisastrousFailure,
            -10..=-6 => Degree::CompleteFailure,
            -5..=-1 => Degree::Failure,
            0 => Degree::MarginalSuccess,
            1..=5 => Degree::CompleteSuccess,
            6..=10 => Degree::SuperiorSuccess,
            _ => Degree::ExtraordinarySuccess,
        }
    }

    /// Margin ≥ 0.
    pub fn success(self) -> bool {
        self >= Degree::MarginalSuccess
    }

    /// The degree's name in both languages.
    pub fn text(self) -> Text {
        let (ja, en) = match self {
            Degree::DisastrousFailure => ("壊滅的失敗", "Disastrous Failure"),
            Degree::CompleteFailure => ("完全な失敗", "Complete Failure"),
            Degree::Failure => ("失敗", "Failure"),
            Degree::MarginalSuccess => ("ぎりぎりの成功", "Marginal Success"),
            Degree::CompleteSuccess => ("完全な成功", "Complete Success"),
            Degree::SuperiorSuccess => ("優れた成功", "Superior Success"),
            Degree::ExtraordinarySuccess => ("驚異的な成功", "Extraordinary Success"),
        };
        Text::new(format!("{ja}（{en}）"), en)
    }
}

/// One test as rolled: the dice (2d6 and every added d6) and the total with modifiers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rolled {
    /// Every die, in order.
    pub dice: Vec<i64>,
    /// Dice plus the modifier.
    pub total: i64,
}

impl Rolled {
    /// `[6,6,3]+5=20`.
    pub fn show(&self) -> String {
        let dice: Vec<String> = self.dice.iter().map(|d| d.to_string()).collect();
        format!(
            "[{}]{:+}={}",
            dice.join(","),
            self.total - self.dice.iter().sum::<i64>(),
            self.total
        )
    }
}

/// LR-9: a test, 2d6 + `modifier`; a double six adds a d6, again while it shows 6.
pub fn roll_test(dice: &mut Roller<'_>, modifier: i64) -> Result<Rolled, Text> {
    let mut drawn = vec![d6(dice)?, d6(dice)?];
    if drawn[0] == 6 && drawn[1] == 6 {
        loop {
            if drawn.len() >= MAX_TEST_DICE {
                return Err(Text::new(
                    "LR-9: 振り足しが上限を超えました",
                    "LR-9: too many added dice",
                ));
            }
            let d = d6(dice)?;
            drawn.push(d);
            if d != 6 {
                break;
            }
        }
    }
    let total = drawn.iter().sum::<i64>().saturating_add(modifier);
    Ok(Rolled { dice: drawn, total })
}

/// `count` d6 summed with no explosion (damage, the battle's 2d6).
pub fn roll_plain(dice: &mut Roller<'_>, count: u32) -> Result<Vec<i64>, Text> {
    (0..count).map(|_| d6(dice)).collect()
}

fn d6(dice: &mut Roller<'_>) -> Result<i64, Text> {
    dice.roll_once(6).map_err(|e| e.text())
}

/// LR-0: `num / den` rounded half up (den > 0; a zero `den` gives 0).
pub fn div_half_up(num: i64, den: i64) -> i64 {
    if den <= 0 {
        return 0;
    }
    let (q, r) = (num.div_euclid(den), num.rem_euclid(den));
    if r.saturating_mul(2) >= den { q + 1 } else { q }
}

/// LR-2: the modifier of an attribute value.
pub fn attribute_modifier(value: i64) -> i64 {
    match value {
        i64::MIN..=1 => -3,
        2 => -2,
        3 => -1,
        4..=7 => 0,
        8..=9 => 1,
        10..=11 => 2,
        12..=13 => 3,
        14..=15 => 4,
        16..=17 => 5,
        v => 6 + (v - 18) / 2,
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use taku_dice::{ScriptedDraw, ScriptedSource};

    /// A scripted source of d6 faces.
    pub fn d6s(faces: &[u32]) -> ScriptedSource {
        ScriptedSource::new(faces.iter().map(|&value| ScriptedDraw { sides: 6, value }))
    }
}

#[cfg(test)]
mod tests {
    use super::testing::d6s;
    use super::*;

    #[test]
    fn lr9_degrees_at_every_boundary() {
        let m = [-11, -10, -6, -5, -1, 0, 1, 5, 6, 10, 11];
        use Degree::*;
        let want = [
            DisastrousFailure,
            CompleteFailure,
            CompleteFailure,
            Failure,
            Failure,
            MarginalSuccess,
            CompleteSuccess,
            CompleteSuccess,
            SuperiorSuccess,
            SuperiorSuccess,
            ExtraordinarySuccess,
        ];
        for (m, w) in m.iter().zip(want) {
            assert_eq!(Degree::of(*m), w, "margin {m}");
        }
    }

    #[test]
    fn lr9_double_six_explodes_while_six() {
        let mut src = d6s(&[6, 6, 6, 2]);
        let mut r = Roller::new(&mut src);
        let t = roll_test(&mut r, 7).expect("rolled");
        assert_eq!(t.dice, [6, 6, 6, 2]);
        assert_eq!(t.total, 27);
        let mut src = d6s(&[6, 5]);
        let mut r = Roller::new(&mut src);
        assert_eq!(roll_test(&mut r, 0).expect("rolled").dice, [6, 5]);
    }

    #[test]
    fn lr0_half_up_and_lr2_modifiers() {
        assert_eq!(div_half_up(27, 2), 14);
        assert_eq!(div_half_up(23, 5), 5);
        assert_eq!(div_half_up(1000, 3), 333);
        assert_eq!(div_half_up(500, 3), 167);
        let v: Vec<i64> = [3, 7, 9, 12, 17, 18, 19, 20, 0]
            .iter()
            .map(|a| attribute_modifier(*a))
            .collect();
        assert_eq!(v, [-1, 0, 1, 3, 5, 6, 6, 7, -3]);
    }
}
