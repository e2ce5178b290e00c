//! SG-8's order of a contest with achievement-changing effects (l.192–211), as a table
//! procedure the GM and players step through:
//!
//! - 1: `/sg attack +2` — the attacker rolls (3D6+2);
//! - 2: `/sg effect attacker +1 [what]` — effects on the attacker's value, declared;
//! - 3 and 4: `/sg defend +4` — the attacker's value is fixed and the defender rolls;
//! - 5: `/sg effect defender -2 [what]` — effects on the defender's value;
//! - 6 and 7: `/sg resolve` — the defender's value is fixed and the result judged (a
//!   tie per `contest_tie`).
//!
//! Leniency (l.211, `leniency_reroll`, default on): when a lowering effect turned the
//! defender's success into a failure, `/sg reroll` lets the defender roll once more
//! before the result, its declared effects kept.

use super::check::{self, Tie};
use serde::{Deserialize, Serialize};

/// One side's roll and the effects declared on it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    /// The modifier rolled with.
    pub modifier: i64,
    /// The three dice.
    pub dice: Vec<i64>,
    /// Effects declared (value change, what).
    pub effects: Vec<(i64, String)>,
}

impl Side {
    /// Dice + modifier + effects.
    pub fn value(&self) -> i64 {
        self.dice.iter().sum::<i64>()
            + self.modifier
            + self.effects.iter().map(|e| e.0).sum::<i64>()
    }
    /// The value before lowering effects.
    pub fn before_lowering(&self) -> i64 {
        self.value()
            - self
                .effects
                .iter()
                .map(|e| e.0)
                .filter(|n| *n < 0)
                .sum::<i64>()
    }
    /// `3D6+2 ＞ 10[3,3,4]+2 ＋効果+1 ＝ 13`.
    pub fn text(&self) -> String {
        let raw: i64 = self.dice.iter().sum();
        let dice: Vec<String> = self.dice.iter().map(i64::to_string).collect();
        let mut t = format!(
            "3D6{} ＞ {raw}[{}]{}",
            taku_dice::system_command::format_modifier(self.modifier),
            dice.join(","),
            if self.modifier != 0 {
                taku_dice::system_command::format_modifier(self.modifier)
            } else {
                String::new()
            }
        );
        // The same flags as `SGS` (raw 16+ critical, 5- fumble): a procedure roll is
        // the same check.
        if raw >= super::CRITICAL_AT {
            t.push_str(" クリティカル");
        } else if raw <= super::FUMBLE_AT {
            t.push_str(" ファンブル");
        }
        for (n, what) in &self.effects {
            t.push_str(&format!(
                " {}{n:+}",
                if what.is_empty() { "効果" } else { what }
            ));
        }
        t.push_str(&format!(" ＝ {}", self.value()));
        t
    }
}

/// A contest under way.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contest {
    /// Step 1–3.
    pub attacker: Side,
    /// Step 4–6, once the defender rolled.
    pub defender: Option<Side>,
    /// The leniency re-roll was used.
    pub rerolled: bool,
    /// SG-8 (l.195, l.198): the member who rolled for the attacker (step 1).
    #[serde(default)]
    pub attacker_by: String,
    /// SG-8 (l.198): the member who rolled for the defender (step 4): its re-roll (l.211)
    /// and the fixing of its value (steps 6–7) are that member's or the GM's.
    #[serde(default)]
    pub defender_by: String,
}

/// Whether the attacker wins with these values under `tie`; `None`: a tie to re-roll.
pub fn judge(a: i64, d: i64, tie: Tie) -> Option<bool> {
    if a != d {
        return Some(a > d);
    }
    match tie {
        Tie::Defender => Some(false),
        Tie::Attacker => Some(true),
        Tie::Reroll => None,
    }
}

/// Whether a lowering effect turned the defender's success into a failure (l.211).
pub fn lowering_flipped(c: &Contest, tie: Tie) -> bool {
    let Some(d) = &c.defender else {
        return false;
    };
    let a = c.attacker.value();
    judge(a, d.before_lowering(), tie) == Some(false) && judge(a, d.value(), tie) == Some(true)
}

/// `+2`, `-1`, `SGS+2`, `SGS` as a modifier.
pub fn modifier(word: &str) -> Option<i64> {
    let folded = taku_dice::normalize::fold(word).text.to_ascii_uppercase();
    let w = folded.strip_prefix("SGS").unwrap_or(&folded);
    if w.is_empty() {
        return Some(0);
    }
    let w = w.strip_prefix('+').unwrap_or(w);
    w.parse::<i64>().ok().filter(|n| n.abs() <= 1000)
}

/// The dice of one roll.
pub fn roll(m: i64, dice: &mut taku_dice::Roller<'_>) -> Result<Vec<i64>, taku_dice::Text> {
    check::roll(m, dice).map(|r| r.dice).map_err(|e| e.text())
}
