//! FC-13 damage and recovery: fatigue (疲労) and injury (負傷), whose sum is cumulative
//! damage (累積ダメージ) against the FC-2 lines; rest, meals, sleep and the daily injury
//! roll, as time the table lets pass.

use super::character::Character;

/// FC-13: sleep's extra recovery stops after this many continuous hours lying down
/// (the first, awake, hour included).
pub const SLEEP_LIMIT_HOURS: i64 = 6;
/// FC-13: a meal recovers fatigue only this many hours after the last one.
pub const MEAL_GAP_HOURS: i64 = 5;
/// FC-13: continuous hours of sleep that recover 1 injury (once a day).
pub const SLEEP_FOR_INJURY: i64 = 6;
/// FC-13: the daily injury roll without a day at rest.
pub const NOT_AT_REST_PENALTY: i64 = 4;

/// What a stretch of rest recovers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rested {
    /// Fatigue recovered (never more than the character has).
    pub fatigue: i64,
    /// Injury recovered by sleep.
    pub injury: i64,
    /// Hours asleep.
    pub slept: i64,
}

/// FC-13: `hours` of continuous rest, lying down relaxed or not. Each hour recovers 1
/// fatigue; lying down, each of the first 6 hours (the awake first hour, then sleep)
/// recovers 1 more; hungry, no fatigue recovers at all. 6 continuous hours of sleep
/// (after the first, awake hour) recover 1 injury, once a day.
pub fn rest(ch: &Character, hours: i64, lying: bool) -> Rested {
    let mut fatigue = 0;
    if !ch.hungry {
        for h in 1..=hours {
            fatigue += 1;
            if lying && h <= SLEEP_LIMIT_HOURS {
                fatigue += 1;
            }
        }
    }
    let slept = if lying { (hours - 1).max(0) } else { 0 };
    let injury =
        i64::from(slept >= SLEEP_FOR_INJURY && !ch.slept_off_injury_today && ch.injury > 0);
    Rested {
        fatigue: fatigue.min(ch.fatigue),
        injury,
        slept,
    }
}

/// FC-13: a meal recovers 1 fatigue if at least 5 hours passed since the last one (and
/// ends hunger: it is a full meal).
pub fn meal(ch: &Character) -> i64 {
    i64::from(ch.hours_since_meal >= MEAL_GAP_HOURS && ch.fatigue > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::four_card::character::Sex;

    #[test]
    fn fc13_eight_hours_lying_down_recover_fourteen() {
        let mut ch = Character::new(Sex::Male, [5; 5], 0);
        ch.fatigue = 20;
        let r = rest(&ch, 8, true);
        assert_eq!(r.fatigue, 14);
        ch.hungry = true;
        assert_eq!(rest(&ch, 8, true).fatigue, 0);
    }
}
