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
/// recovers 1 more; hungry, no fatigue recovers at all. 6 continuous hours lying down
/// asleep recover 1 injury, once a day (our reading: l.233's 6 hours of sleep counted
/// as l.222 counts them, the first hour included).
pub fn rest(ch: &Character, hours: i64, lying: bool) -> Rested {
    rest_from(ch, Lying::default(), hours, lying).0
}

/// FC-13: how long a character has already lain down in one continuous rest, carried
/// from one stretch of it to the next (a rest the table's clock cuts at 6:00, say).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Lying {
    /// Hours lain down so far (the first is awake, l.221).
    pub hours: i64,
    /// Hours of sleep (counted as l.222 counts them, from the first hour lain down) since
    /// the rest began or since sleep last recovered an injury.
    pub sleep_run: i64,
}

impl Lying {
    /// Whether no rest lying down is going on.
    pub fn is_none(&self) -> bool {
        *self == Lying::default()
    }
}

/// FC-13: `hours` more of a rest that has already lasted `before` (see [`rest`]): the
/// 6-hour limit on sleep's extra recovery counts from the first hour lain down (l.222),
/// and an injury recovers once 6 hours of continuous sleep are reached, at most once
/// a day (l.233). Returns what the stretch recovers and the rest's state after it.
pub fn rest_from(ch: &Character, before: Lying, hours: i64, lying: bool) -> (Rested, Lying) {
    let mut fatigue = 0;
    let mut injury = 0;
    let mut slept = 0;
    let mut now = before;
    for _ in 0..hours {
        fatigue += 1;
        if lying {
            now.hours += 1;
            if now.hours <= SLEEP_LIMIT_HOURS {
                fatigue += 1;
            }
            // l.233's 6 continuous hours of sleep count as l.222 counts sleep: the
            // first hour lain down included (「最初の入眠までの1時間を含む」).
            {
                slept += 1;
                now.sleep_run += 1;
                if now.sleep_run >= SLEEP_FOR_INJURY
                    && injury == 0
                    && !ch.slept_off_injury_today
                    && ch.injury > 0
                {
                    injury = 1;
                    now.sleep_run = 0;
                }
            }
        }
    }
    if ch.hungry {
        fatigue = 0;
    }
    (
        Rested {
            fatigue: fatigue.min(ch.fatigue),
            injury,
            slept,
        },
        now,
    )
}

/// FC-13: a meal recovers 1 fatigue if at least 5 hours passed since the last one, or
/// none was recorded (and ends hunger: it is a full meal).
pub fn meal(ch: &Character) -> i64 {
    i64::from((ch.no_meal_yet || ch.hours_since_meal >= MEAL_GAP_HOURS) && ch.fatigue > 0)
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

    #[test]
    fn fc13_a_rest_cut_in_two_keeps_counting_its_sleep() {
        // l.222 「睡眠状態による疲労回復は、連続6時間までです(最初の入眠までの1時間を含む)」:
        // 4 hours lying then 4 more are 8 continuous hours: 4×2, then 2×2 + 2×1.
        let mut ch = Character::new(Sex::Male, [5; 5], 0);
        ch.fatigue = 30;
        ch.injury = 3;
        let (a, after) = rest_from(&ch, Lying::default(), 4, true);
        assert_eq!((a.fatigue, a.injury), (8, 0));
        let (b, _) = rest_from(&ch, after, 4, true);
        // l.233 「連続6時間の睡眠によって、1日に1点だけ回復」, its 6 hours counted as
        // l.222 counts sleep (the first hour included): the sixth hour lain down.
        assert_eq!((b.fatigue, b.injury), (6, 1));
        assert_eq!(rest(&ch, 6, true).injury, 1);
        assert_eq!(rest(&ch, 5, true).injury, 0);
        assert_eq!(rest(&ch, 8, true).fatigue, 14);
    }
}
