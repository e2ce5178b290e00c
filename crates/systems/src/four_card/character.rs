//! FC-1 to FC-8 and FC-15's attribute prices: a character's attributes and everything
//! derived from them (HP lines, movement, total LV, bases), as pure functions and one
//! typed [`Character`] the table's rules keep.

use super::settings::Settings;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// FC-1: the five attributes, in the seed's order.
pub const ATTRIBUTES: [&str; 5] = ["IQ", "DX", "ST", "WP", "VT"];
/// Index of each attribute in [`ATTRIBUTES`].
pub const IQ: usize = 0;
/// See [`IQ`].
pub const DX: usize = 1;
/// See [`IQ`].
pub const ST: usize = 2;
/// See [`IQ`].
pub const WP: usize = 3;
/// See [`IQ`].
pub const VT: usize = 4;

/// FC-4: the base starting XP.
pub const STARTING_XP: i64 = 15;
/// FC-15: at most this many points over the initial value.
pub const MAX_RAISE: i64 = 2;
/// FC-15: winning back a lost point (取り戻す).
pub const WIN_BACK_COST: i64 = 5;

/// The attribute named `name` (`st`, `ＳＴ` folded by the caller).
pub fn attribute(name: &str) -> Option<usize> {
    // Full-width letters (`ＳＴ`) read as ASCII, as dice commands do.
    let upper: String = name
        .chars()
        .map(|c| match c {
            '\u{FF21}'..='\u{FF5A}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .collect::<String>()
        .to_ascii_uppercase();
    ATTRIBUTES.iter().position(|a| *a == upper)
}

/// FC-1: the player's choice of sex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sex {
    /// No modifier.
    Male,
    /// ST −1, WP +1.
    Female,
}

impl Sex {
    /// `male`/`female`/`男`/`女`/`男性`/`女性`.
    pub fn parse(word: &str) -> Option<Sex> {
        match word.to_ascii_lowercase().as_str() {
            "male" | "m" | "男" | "男性" => Some(Sex::Male),
            "female" | "f" | "女" | "女性" => Some(Sex::Female),
            _ => None,
        }
    }
    /// In Japanese.
    pub fn ja(self) -> &'static str {
        match self {
            Sex::Male => "男性",
            Sex::Female => "女性",
        }
    }
}

/// FC-1: a female character's ST −1 for WP +1, never leaving 3..7. `exchange` (default):
/// if either half would leave 3..7, neither applies; `clamp`: each half clamped alone.
pub fn sex_modifier(attrs: [i64; 5], sex: Sex, settings: &Settings) -> [i64; 5] {
    let mut out = attrs;
    if sex == Sex::Male {
        return out;
    }
    let (st, wp) = (attrs[ST] - 1, attrs[WP] + 1);
    if settings.female_clamp {
        out[ST] = st.clamp(3, 7).min(attrs[ST]);
        out[WP] = wp.clamp(3, 7).max(attrs[WP]);
    } else if (3..=7).contains(&st) && (3..=7).contains(&wp) {
        out[ST] = st;
        out[WP] = wp;
    }
    out
}

/// FC-1 (l.37, l.43): why a female character's initial ST and WP (after the sex
/// modifier, each within 3..7) are no 2D3+1 roll's under `settings` (fc8 F6: female
/// ST 7 with WP 3 needs a rolled ST 8), if they are none.
pub fn female_unreachable(
    initial: [i64; 5],
    sex: Sex,
    settings: &Settings,
) -> Option<(String, String)> {
    let (st, wp) = (initial[ST], initial[WP]);
    if sex == Sex::Male || !(3..=7).contains(&st) || !(3..=7).contains(&wp) {
        return None;
    }
    let reachable = (3..=7).any(|rs| {
        (3..=7).any(|rw| {
            let mut raw = initial;
            raw[ST] = rs;
            raw[WP] = rw;
            let out = sex_modifier(raw, sex, settings);
            out[ST] == st && out[WP] == wp
        })
    });
    let (mode_ja, mode_en) = if settings.female_clamp {
        ("clamp", "clamp")
    } else {
        ("exchange", "exchange")
    };
    (!reachable).then(|| {
        (
            format!(
                "女性のST {st}・WP {wp} は、2D3+1（3〜7）にSTが−1・WPが+1の修正（female_modifier = {mode_ja}）をしても得られません"
            ),
            format!(
                "a female character cannot have ST {st} with WP {wp}: no 2D3+1 roll (3..7) gives it after ST −1 / WP +1 (female_modifier = {mode_en})"
            ),
        )
    })
}

/// FC-7 (l.95): a hand as a sheet writes it, in the record's words (`right` → 右利き);
/// anything else is kept as written (and [`hand_violation`] says why it cannot be).
pub fn sheet_hand(hand: &str) -> String {
    match hand.trim() {
        "右" | "右利き" | "right" | "Right" => "右利き".to_string(),
        "左" | "左利き" | "left" | "Left" => "左利き".to_string(),
        "両手" | "両手利き" | "ambidextrous" | "Ambidextrous" | "both" => {
            "両手利き".to_string()
        }
        other => other.to_string(),
    }
}

/// FC-7 (l.95) 「2D6を振って12が出れば…両手利き…それ以外のキャラクターは、右利きもしくは
/// 左利き」: a sheet's hand is right or left (or not yet chosen); ambidexterity comes
/// only from the 2D6 roll of 12, which a sheet cannot show (fc8 F4), so the GM decides.
pub fn hand_violation(hand: &str) -> Option<(String, String)> {
    match hand {
        "" | "右利き" | "左利き" => None,
        "両手利き" => Some((
            "両手利きは利き腕の2D6で12が出たときだけです（シートでは振ったことを示せません。GMが確かめて承認します）".to_string(),
            "ambidexterity comes only from a 2D6 roll of 12 for the hand, which a sheet cannot show (the GM checks it and approves)".to_string(),
        )),
        other => Some((
            format!("利き腕「{other}」は 右 か 左 です（両手利きは2D6で12のときだけ）"),
            format!("hand '{other}' must be right or left (ambidextrous only on a 2D6 roll of 12)"),
        )),
    }
}

/// FC-2: the three HP lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HpLines {
    /// 衰弱 = ST×2 + VT.
    pub weakened: i64,
    /// 昏倒 = weakened + WP×2.
    pub unconscious: i64,
    /// 死亡 = unconscious + VT×2.
    pub death: i64,
}

/// FC-2.
pub fn hp_lines(attrs: [i64; 5]) -> HpLines {
    let weakened = attrs[ST] * 2 + attrs[VT];
    let unconscious = weakened + attrs[WP] * 2;
    HpLines {
        weakened,
        unconscious,
        death: unconscious + attrs[VT] * 2,
    }
}

/// FC-2: the state cumulative damage puts a character in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Condition {
    /// Below the weakened line.
    Fine,
    /// 衰弱: roll values −2.
    Weakened,
    /// 昏倒.
    Unconscious,
    /// 死亡.
    Dead,
}

impl Condition {
    /// FC-2: the line reached by `damage`.
    pub fn of(damage: i64, lines: &HpLines) -> Condition {
        if damage >= lines.death {
            Condition::Dead
        } else if damage >= lines.unconscious {
            Condition::Unconscious
        } else if damage >= lines.weakened {
            Condition::Weakened
        } else {
            Condition::Fine
        }
    }
    /// Japanese and English names.
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            Condition::Fine => ("通常", "fine"),
            Condition::Weakened => ("衰弱（ロール値−2）", "weakened (roll values −2)"),
            Condition::Unconscious => ("昏倒", "unconscious"),
            Condition::Dead => ("死亡", "dead"),
        }
    }
}

/// FC-2: roll values −2 from the weakened line on.
pub const WEAKENED_PENALTY: i64 = 2;

/// FC-3: DX + 5 minus equipment's movement modifiers.
pub fn movement(dx: i64, equipment: i64) -> i64 {
    dx + 5 - equipment
}

/// FC-15: the XP price of raising attribute `index` from `raised` points over its initial
/// value to one more: ST WP VT 10 then 20, IQ DX 15 then 30; `None` past +2.
pub fn raise_cost(index: usize, raised: i64) -> Option<i64> {
    let (first, second) = if index == IQ || index == DX {
        (15, 30)
    } else {
        (10, 20)
    };
    match raised {
        0 => Some(first),
        1 => Some(second),
        _ => None,
    }
}

/// FC-3: an item of equipment and its movement modifier (data the GM loads; the seed
/// names none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    /// Its name.
    pub name: String,
    /// Subtracted from DX + 5.
    #[serde(default)]
    pub movement: i64,
}

/// A skill a character has learned (FC-5).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Learned {
    /// Training points, 0..=9.
    pub tp: i64,
    /// Specialised fields (特化), the first free.
    pub fields: Vec<String>,
}

/// A Four Card character as the table's rules keep it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    /// FC-1.
    pub sex: Sex,
    /// Initial values (初期能力値), after the sex modifier.
    pub initial: [i64; 5],
    /// Points bought over the initial value (at most 2 each).
    pub raised: [i64; 5],
    /// Points lost and not yet won back.
    pub lost: [i64; 5],
    /// FC-5: learned skills by name.
    pub skills: BTreeMap<String, Learned>,
    /// FC-6: every XP ever earned, starting XP included.
    pub xp_earned: i64,
    /// XP spent (or lost at the end of creation).
    pub xp_spent: i64,
    /// FC-4: still spending starting XP.
    pub creating: bool,
    /// FC-13.
    pub fatigue: i64,
    /// FC-13.
    pub injury: i64,
    /// FC-13: missed a meal, no fatigue recovers until a full meal.
    pub hungry: bool,
    /// FC-13: hours since the last meal.
    pub hours_since_meal: i64,
    /// FC-13 (l.217): no meal recorded yet, so the first has no 5 hours to wait for
    /// (records from before this field read as having eaten).
    #[serde(default)]
    pub no_meal_yet: bool,
    /// FC-13: injury already recovered by sleep today.
    pub slept_off_injury_today: bool,
    /// FC-3: equipment's movement modifiers.
    pub equipment: i64,
    /// FC-7: ambidextrous (両手利き), or the player's hand.
    pub hand: String,
    /// FC-8: CP.
    pub money: i64,
    /// FC-15 `one_step_per_interlude`: what was raised this interlude.
    #[serde(default)]
    pub raised_this_interlude: Vec<String>,
    /// FC-3: equipment worn or carried (names in the table's item list).
    #[serde(default)]
    pub items: Vec<String>,
    /// FC-4: extra starting XP not yet spent, earmarked for [`Character::earmark_skills`].
    #[serde(default)]
    pub earmarked: i64,
    /// FC-4: the skills the extra starting XP is for.
    #[serde(default)]
    pub earmark_skills: Vec<String>,
    /// FC-13 (time passing): meals eaten since the day began (6:00).
    #[serde(default)]
    pub meals_today: i64,
    /// FC-13 (time passing): not at rest at some time since the day began.
    #[serde(default)]
    pub active_today: bool,
    /// FC-13 (l.218): meals recorded as missed since the day began (`/fc miss`): with
    /// the meals eaten, at most the day's 3; the day's end charges only the rest.
    #[serde(default)]
    pub meals_missed_today: i64,
    /// FC-13 (l.235): the day's injury roll was made (one per day, 6:00 to 6:00).
    #[serde(default)]
    pub injury_rolled_today: bool,
    /// The sheet's Four Card fields this record was read from (`None`: rolled at the
    /// table); when they change the sheet is read again.
    #[serde(default)]
    pub sheet: Option<BTreeMap<String, String>>,
    /// FC-13 (l.220–222): how long the character has lain down in the continuous rest
    /// going on now (kept from one `/fc time … lying` to the next, so that a night typed
    /// as two rests counts its sleep as one); any other hours, or a meal, end it.
    #[serde(default, skip_serializing_if = "super::damage::Lying::is_none")]
    pub lying: super::damage::Lying,
}

/// FC-8 (l.99 「初期キャラクターが所持している金額は、「3D6×100+1000」CPです」): the most
/// a starting character holds (18 on 3D6).
pub const MAX_STARTING_MONEY: i64 = 18 * 100 + 1000;

impl Character {
    /// FC-8: what a sheet's money breaks, in Japanese and English: never below 0, and a
    /// character that has earned no XP beyond its starting XP (15 + `extra_xp`) holds at
    /// most 2,800 CP (it may have spent some at creation).
    pub fn money_violation(&self, extra_xp: i64) -> Option<(String, String)> {
        if self.money < 0 {
            return Some((
                format!("所持金は0CP以上でなければなりません（{}CP）", self.money),
                format!("money {} CP cannot be below 0", self.money),
            ));
        }
        (self.xp_earned <= STARTING_XP + extra_xp && self.money > MAX_STARTING_MONEY).then(|| {
            (
                format!(
                    "初期キャラクターの所持金は3D6×100+1000CP（1,300〜2,800CP）ですが、{}CPです（経験点は初期経験点だけ）",
                    self.money
                ),
                format!(
                    "a starting character holds 3D6×100+1000 CP (1,300 to 2,800 CP), not {} CP (it has only its starting XP)",
                    self.money
                ),
            )
        })
    }

    /// A new character with `initial` attributes and 15 + `extra` starting XP.
    pub fn new(sex: Sex, initial: [i64; 5], extra_xp: i64) -> Character {
        Character {
            sex,
            initial,
            raised: [0; 5],
            lost: [0; 5],
            skills: BTreeMap::new(),
            xp_earned: STARTING_XP + extra_xp,
            xp_spent: 0,
            creating: true,
            fatigue: 0,
            injury: 0,
            hungry: false,
            hours_since_meal: 0,
            no_meal_yet: true,
            slept_off_injury_today: false,
            equipment: 0,
            hand: String::new(),
            money: 0,
            raised_this_interlude: Vec::new(),
            items: Vec::new(),
            earmarked: 0,
            earmark_skills: Vec::new(),
            meals_today: 0,
            active_today: false,
            meals_missed_today: 0,
            injury_rolled_today: false,
            sheet: None,
            lying: super::damage::Lying::default(),
        }
    }
    /// Current attributes = initial + raised − lost (FC-15).
    pub fn attributes(&self) -> [i64; 5] {
        std::array::from_fn(|i| self.initial[i] + self.raised[i] - self.lost[i])
    }
    /// FC-13: fatigue + injury.
    pub fn damage(&self) -> i64 {
        self.fatigue + self.injury
    }
    /// FC-2.
    pub fn lines(&self) -> HpLines {
        hp_lines(self.attributes())
    }
    /// FC-2.
    pub fn condition(&self) -> Condition {
        Condition::of(self.damage(), &self.lines())
    }
    /// FC-6.
    pub fn total_lv(&self, settings: &Settings) -> i64 {
        settings.total_lv(self.xp_earned)
    }
    /// XP not yet spent.
    pub fn xp_left(&self) -> i64 {
        self.xp_earned - self.xp_spent
    }
    /// FC-4: XP not yet spent that is free for anything (the earmarked extra starting
    /// XP left out).
    pub fn xp_free(&self) -> i64 {
        self.xp_left() - self.earmarked
    }
    /// FC-2: unconscious or dead: the character cannot act (l.53).
    pub fn cannot_act(&self) -> bool {
        self.condition() >= Condition::Unconscious
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fc1_the_sex_modifier_in_both_readings() {
        let s = Settings::default();
        let clamp = Settings {
            female_clamp: true,
            ..Settings::default()
        };
        let a = |st, wp| [5, 5, st, wp, 5];
        assert_eq!(sex_modifier(a(4, 6), Sex::Female, &s), a(3, 7));
        assert_eq!(sex_modifier(a(3, 7), Sex::Female, &s), a(3, 7));
        assert_eq!(sex_modifier(a(3, 7), Sex::Female, &clamp), a(3, 7));
        assert_eq!(sex_modifier(a(3, 5), Sex::Female, &s), a(3, 5));
        assert_eq!(sex_modifier(a(5, 7), Sex::Female, &s), a(5, 7));
        assert_eq!(sex_modifier(a(3, 5), Sex::Female, &clamp), a(3, 6));
        assert_eq!(sex_modifier(a(5, 7), Sex::Female, &clamp), a(4, 7));
        assert_eq!(sex_modifier(a(4, 6), Sex::Male, &s), a(4, 6));
    }

    #[test]
    fn fc2_hp_lines_and_fc3_movement() {
        let l = hp_lines([5, 5, 5, 5, 5]);
        assert_eq!((l.weakened, l.unconscious, l.death), (15, 25, 35));
        let l = hp_lines([5, 5, 7, 4, 3]);
        assert_eq!((l.weakened, l.unconscious, l.death), (17, 25, 31));
        assert_eq!(Condition::of(14, &hp_lines([5; 5])), Condition::Fine);
        assert_eq!(Condition::of(15, &hp_lines([5; 5])), Condition::Weakened);
        assert_eq!(movement(5, 0), 10);
    }

    #[test]
    fn fc15_attribute_prices() {
        assert_eq!(raise_cost(ST, 0), Some(10));
        assert_eq!(raise_cost(ST, 1), Some(20));
        assert_eq!(raise_cost(ST, 2), None);
        assert_eq!(raise_cost(IQ, 0), Some(15));
        assert_eq!(raise_cost(DX, 1), Some(30));
    }
}
