//! Four Card at a table (issue 14), through the path a user takes: every worked example of
//! the rules digest (`four-card.md`) that plays at a table, and the refusals, each of which
//! must change nothing and name its rule. Dice come from the table's seeded source; a test
//! that needs particular dice searches for a seed that gives them at that line.

use taku_dice::{ChaChaSource, DiceSource};
mod support;

use support::refused;
use taku_table::{Table, secret};

/// GM `gm`, players alice and bob; alice's ミナ and bob's ロイ with every attribute 5 (as
/// a sheet would give them), 15 starting XP, none left.
const SETUP: &[(&str, &str)] = &[
    ("gm", "/join alice"),
    ("gm", "/join bob"),
    ("alice", "/char new ミナ"),
    ("bob", "/char new ロイ"),
    ("alice", "/char set ミナ IQ 5 DX 5 ST 5 WP 5 VT 5"),
    ("bob", "/char set ロイ IQ 5 DX 5 ST 5 WP 5 VT 5"),
];

fn table(seed: [u8; 32]) -> Table {
    let mut t = Table::create("FourCard", "fc", "gm", seed)
        .expect("table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    for (who, line) in SETUP {
        t.exec(who, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    t
}

/// The two d6 the table's source gives at `seq` under `seed`.
fn dice_at(seed: [u8; 32], seq: u64) -> u32 {
    let mut s = ChaChaSource::from_key(secret::dice_key(&seed, seq));
    s.roll(6).expect("d6") + s.roll(6).expect("d6")
}

/// A seed whose 2d6 sum at `seq` satisfies `want`.
fn seed_where(seq: u64, want: fn(u32) -> bool) -> [u8; 32] {
    (0u32..)
        .map(|n| {
            let mut seed = [0u8; 32];
            seed[..4].copy_from_slice(&n.to_le_bytes());
            seed
        })
        .find(|seed| want(dice_at(*seed, seq)))
        .expect("some seed")
}

/// Runs `line` as `who`: what they see of the new events without the `#N who: ` prefix,
/// leaving out a sheet character's import (the first time the rules touch it).
fn run(t: &mut Table, who: &str, line: &str) -> Vec<String> {
    support::run(t, who, line)
        .into_iter()
        .map(|l| match l.split_once(": ") {
            Some((head, rest)) if head.starts_with('#') => rest.to_string(),
            _ => l,
        })
        .filter(|l| !l.ends_with("をシートから読み込み"))
        .collect()
}

fn state(t: &Table) -> serde_json::Value {
    t.system_state()
        .expect("FourCard has table rules")
        .to_json()
}

fn sheet(t: &Table, name: &str) -> String {
    t.sheet(name, "gm")
        .expect("a sheet")
        .render_text(taku_dice::Lang::Ja)
}

/// Runs lines as the GM.
fn gm(t: &mut Table, lines: &[&str]) {
    for l in lines {
        run(t, "gm", l);
    }
}

// ---- FC-1 to FC-8 characters -------------------------------------------------------------

#[test]
fn fc1_fc7_fc8_creation_rolls_attributes_hand_and_money() {
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char new ユキ");
    let out = run(&mut t, "alice", "/fc create ユキ female");
    assert!(out[0].contains("ユキ作成（女性）: 2D3+1 →"), "{out:?}");
    let ch = &state(&t)["characters"]["ユキ"];
    for i in 0..5 {
        let v = ch["initial"][i].as_i64().expect("a number");
        assert!((3..=7).contains(&v), "{ch}");
    }
    let money = ch["money"].as_i64().expect("money");
    assert!(
        (1300..=2800).contains(&money) && money % 100 == 0,
        "{money}"
    );
    assert_eq!(ch["xp_earned"], 15);
    assert!(ch["creating"].as_bool().expect("flag"));
    // Twice is refused; so is someone else's character.
    assert!(refused(&mut t, "alice", "/fc create ユキ female").contains("already created"));
    assert!(refused(&mut t, "bob", "/fc create ミナ male").contains("belongs to alice"));
}

#[test]
fn fc1_the_female_modifier_is_a_setting() {
    let mut t = table([3; 32]);
    assert!(refused(&mut t, "alice", "/fc set female_modifier clamp").contains("only the GM"));
    assert!(refused(&mut t, "gm", "/fc set female_modifier maybe").contains("cannot be"));
    assert!(refused(&mut t, "gm", "/fc set nonsense on").contains("no setting"));
    run(&mut t, "gm", "/fc set female_modifier clamp");
    let out = run(&mut t, "gm", "/fc settings");
    assert!(out[0].contains("female_modifier = clamp"), "{out:?}");
    assert!(out[0].contains("comparison_auto = override"), "{out:?}");
}

#[test]
fn fc2_fc3_fc6_a_sheet_character_is_derived() {
    let mut t = table([3; 32]);
    run(&mut t, "bob", "/char set ロイ ST 7 WP 4 VT 3");
    let s = sheet(&t, "ロイ");
    assert!(s.contains("衰弱ライン: 17/17"), "{s}");
    assert!(s.contains("昏倒ライン: 25/25"), "{s}");
    assert!(s.contains("死亡ライン: 31/31"), "{s}");
    let s = sheet(&t, "ミナ");
    assert!(s.contains("衰弱ライン: 15/15"), "{s}");
    assert!(s.contains("死亡ライン: 35/35"), "{s}");
    assert!(s.contains("移動力: 10"), "{s}");
    assert!(s.contains("総合LV: 1"), "{s}");
}

// ---- FC-5 skills and FC-4 creation ------------------------------------------------------

#[test]
fn fc5_learning_costs_and_specialisations_at_creation() {
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char new ユキ");
    run(&mut t, "alice", "/fc create ユキ male");
    gm(&mut t, &["/fc skill 料理 IQ 1"]);
    // Expertise 1, 0 → 5: 1+2+3+4+5 = 15, exactly the base starting XP.
    let out = run(&mut t, "alice", "/fc learn ユキ 料理 5");
    assert!(out[0].contains("0→5TP（経験点15、残り0）"), "{out:?}");
    assert!(refused(&mut t, "alice", "/fc learn ユキ 知覚 1").contains("too little XP"));
    let out = run(&mut t, "alice", "/fc done ユキ");
    assert!(out[0].contains("失われました"), "{out:?}");
}

#[test]
fn fc5_a_weapon_skill_with_fields() {
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char set ミナ 経験点 40 未使用経験点 25");
    gm(&mut t, &["/fc interlude start"]);
    // Expertise 2 (the example list's 接近戦): 1 TP costs 2; the first field is free.
    let out = run(&mut t, "alice", "/fc learn ミナ 接近戦 1 剣");
    assert!(out[0].contains("経験点2"), "{out:?}");
    assert!(out[1].contains("初期特化（無料）"), "{out:?}");
    let out = run(&mut t, "alice", "/fc special ミナ 接近戦 斧");
    assert!(out[0].contains("経験点2"), "{out:?}");
    // DX 5 + 1 TP: sword or axe LV 6, any other weapon LV 4.
    let out = run(&mut t, "alice", "FC+{剣}");
    assert!(out[0].starts_with("(FC+6)"), "{out:?}");
    let out = run(&mut t, "alice", "FC+{斧}>=10");
    assert!(out[0].starts_with("(FC+6>=10)"), "{out:?}");
    let out = run(&mut t, "alice", "FC+{槍}");
    assert!(out[0].starts_with("(FC+4)"), "{out:?}");
    // FC-9: unskilled, DX 5 → base 2.
    let out = run(&mut t, "alice", "FC+{弓}");
    assert!(out[0].starts_with("(FC+2)"), "{out:?}");
    // FC-10: VT resistance = VT + total LV (40 XP: LV 2).
    let out = run(&mut t, "alice", "FC+{VT抵抗}>=12");
    assert!(out[0].starts_with("(FC+7>=12)"), "{out:?}");
    assert!(refused(&mut t, "alice", "/fc special ミナ 接近戦 斧").contains("already specialised"));
    assert!(refused(&mut t, "alice", "/fc special ミナ 接近戦 鞭").contains("FC-5"));
}

#[test]
fn fc5_the_caps_are_refused_and_change_nothing() {
    let mut t = table([3; 32]);
    // Total XP 100: total LV 4.
    run(&mut t, "alice", "/char set ミナ 経験点 100 未使用経験点 85");
    run(
        &mut t,
        "alice",
        "/char set ミナ スキル.魔術 4 スキル.知覚 9 スキル.接近戦 2",
    );
    gm(
        &mut t,
        &["/fc interlude start", "/fc skill 剣技 DX 1 limit=接近戦"],
    );
    assert!(refused(&mut t, "alice", "/fc learn ミナ 知覚 10").contains("FC-5"));
    let why = refused(&mut t, "alice", "/fc learn ミナ 魔術 5");
    assert!(why.contains("FC-5") && why.contains("total LV 4"), "{why}");
    run(&mut t, "alice", "/fc learn ミナ 剣技 2");
    let why = refused(&mut t, "alice", "/fc learn ミナ 剣技 3");
    assert!(why.contains("restricting skill 【接近戦】"), "{why}");
    // A prerequisite: 魔術知識 needs 魔術 (ロイ has none).
    run(&mut t, "bob", "/char set ロイ 経験点 100 未使用経験点 85");
    let why = refused(&mut t, "bob", "/fc learn ロイ 魔術知識 1");
    assert!(why.contains("prerequisite"), "{why}");
}

#[test]
fn fc15_spending_xp_only_in_an_interlude() {
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char set ミナ 経験点 40 未使用経験点 25");
    let why = refused(&mut t, "alice", "/fc learn ミナ 知覚 1");
    assert!(
        why.contains("FC-15") && why.contains("between scenarios"),
        "{why}"
    );
    let why = refused(&mut t, "alice", "/fc raise ミナ ST");
    assert!(why.contains("FC-15"), "{why}");
}

// ---- FC-9 to FC-11 checks at a table -------------------------------------------------

#[test]
fn fc2_fc9_an_automatic_failure_tips_a_character_into_weakness() {
    // ST 5, VT 5: weakened line 15. Injury 10 + fatigue 4 = 14, then a check's dice
    // show 2: automatic failure, fatigue 5, cumulative 15: weakened, later rolls −2.
    let probe = {
        let mut t = table([0; 32]);
        gm(&mut t, &["/fc damage ミナ 10", "/fc fatigue ミナ 4"]);
        t.next_seq()
    };
    let seed = seed_where(probe, |s| s == 2);
    let mut t = table(seed);
    gm(&mut t, &["/fc damage ミナ 10"]);
    let out = run(&mut t, "gm", "/fc fatigue ミナ 4");
    assert!(out[0].contains("累積14"), "{out:?}");
    // At 14, no penalty.
    assert_eq!(t.next_seq(), probe);
    let out = run(&mut t, "alice", "FC+15>=10");
    assert!(
        out[0].contains("(FC+15>=10) ＞ 2[1,1]+15 ＞ 17 ＞ 自動的失敗"),
        "{out:?}"
    );
    assert!(
        out[1].contains("疲労+1") && out[1].contains("累積15"),
        "{out:?}"
    );
    assert!(out[1].contains("衰弱（ロール値−2）に達した"), "{out:?}");
    assert_eq!(state(&t)["characters"]["ミナ"]["fatigue"], 5);
    let out = run(&mut t, "alice", "FC+5>=10");
    assert!(out[0].starts_with("(FC+3>=10)"), "{out:?}");
    let log = t
        .events()
        .last()
        .map(|e| t.entry(e, "alice", taku_dice::Lang::Ja).text)
        .unwrap_or_default();
    assert!(log.contains("衰弱: ロール値−2"), "{log}");
    // Voiding the roll takes its fatigue with it.
    run(&mut t, "gm", &format!("/void {probe}"));
    assert_eq!(state(&t)["characters"]["ミナ"]["fatigue"], 4);
}

#[test]
fn fc9_no_auto_failure_costs_no_fatigue() {
    let probe = table([0; 32]).next_seq();
    let seed = seed_where(probe, |s| s == 2);
    let mut t = table(seed);
    let out = run(&mut t, "alice", "FC+15>=10#NF");
    assert!(out[0].contains("成功（度合+7）"), "{out:?}");
    assert_eq!(out.len(), 1, "{out:?}");
}

#[test]
fn fc12_an_achievement_roll_costs_no_fatigue() {
    let probe = table([0; 32]).next_seq();
    let seed = seed_where(probe, |s| s == 2);
    let mut t = table(seed);
    let out = run(&mut t, "alice", "FCA+3");
    assert_eq!(out, vec!["(FCA+3) ＞ 2[1,1]+3 ＞ 5".to_string()]);
}

#[test]
fn fc11_comparison_plain_is_a_setting() {
    let probe = {
        let mut t = table([0; 32]);
        gm(&mut t, &["/fc set comparison_auto plain"]);
        t.next_seq()
    };
    let seed = seed_where(probe, |s| s == 12);
    let mut t = table(seed);
    gm(&mut t, &["/fc set comparison_auto plain"]);
    let out = run(&mut t, "alice", "FC+0 VS FC+10");
    assert!(
        out[0].starts_with("(FC VS FC+10#PLAIN) ＞ 左 12[6,6] ＞ 12（自動的成功）"),
        "{out:?}"
    );
}

// ---- FC-13 damage and recovery --------------------------------------------------------

#[test]
fn fc13_rest_sleep_meals_and_hunger() {
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc fatigue ミナ 20"]);
    // 8 hours lying down, not hungry: 6 h × 2 + 2 h × 1 = 14.
    let out = run(&mut t, "alice", "/fc rest ミナ 8 lying");
    assert!(out[0].contains("疲労−14"), "{out:?}");
    assert_eq!(state(&t)["characters"]["ミナ"]["fatigue"], 6);
    // 2 of the day's 3 meals missed: +2, then no recovery until a full meal.
    let out = run(&mut t, "gm", "/fc miss ミナ 2");
    assert!(out[0].contains("疲労+2"), "{out:?}");
    let out = run(&mut t, "alice", "/fc rest ミナ 2");
    assert!(
        out[0].contains("疲労−0") && out[0].contains("空腹"),
        "{out:?}"
    );
    assert_eq!(state(&t)["characters"]["ミナ"]["fatigue"], 8);
    run(&mut t, "alice", "/fc meal ミナ");
    let out = run(&mut t, "alice", "/fc rest ミナ 1");
    assert!(out[0].contains("疲労−1"), "{out:?}");
    assert!(refused(&mut t, "alice", "/fc miss ミナ 1").contains("only the GM"));
    assert!(refused(&mut t, "alice", "/fc damage ミナ 1").contains("only the GM"));
    assert!(refused(&mut t, "gm", "/fc miss ミナ 4").contains("FC-13"));
}

#[test]
fn fc13_the_daily_injury_roll() {
    // ST 5, VT 5, LV 1, cumulative damage 12 (not weakened): base 6; at rest succeeds
    // on dice ≥ 6, not at rest (−4) on dice ≥ 10.
    let probe = {
        let mut t = table([0; 32]);
        gm(&mut t, &["/fc damage ミナ 12"]);
        t.next_seq()
    };
    let seed = seed_where(probe, |s| (6..10).contains(&s));
    for (how, ok) in [("rest", true), ("norest", false)] {
        let mut t = table(seed);
        gm(&mut t, &["/fc damage ミナ 12"]);
        let out = run(&mut t, "alice", &format!("/fc day ミナ {how}"));
        let base = if ok { "(FC+6>=12)" } else { "(FC+2>=12)" };
        assert!(out[0].contains(base), "{out:?}");
        let injury = state(&t)["characters"]["ミナ"]["injury"].as_i64();
        assert_eq!(injury, Some(if ok { 11 } else { 12 }), "{out:?}");
    }
}

#[test]
fn fc2_lines_reported_as_they_are_crossed() {
    let mut t = table([3; 32]);
    let out = run(&mut t, "gm", "/fc damage ミナ 25");
    assert!(out[0].contains("昏倒に達した"), "{out:?}");
    let out = run(&mut t, "gm", "/fc damage ミナ 10");
    assert!(out[0].contains("死亡に達した"), "{out:?}");
}

// ---- FC-14, FC-15 growth ------------------------------------------------------------

#[test]
fn fc14_xp_awards_at_least_one() {
    let mut t = table([3; 32]);
    let out = run(&mut t, "gm", "/fc xp ミナ 5 -1 -1");
    assert!(out[0].contains("= 3"), "{out:?}");
    let out = run(&mut t, "gm", "/fc xp ロイ 1 -1");
    assert!(out[0].contains("= 1（最低1点）"), "{out:?}");
    assert!(refused(&mut t, "alice", "/fc xp ミナ 5").contains("only the GM"));
}

#[test]
fn fc15_attribute_growth_prices_and_the_plus_two_limit() {
    let mut t = table([3; 32]);
    run(
        &mut t,
        "alice",
        "/char set ミナ 経験点 200 未使用経験点 185",
    );
    gm(&mut t, &["/fc interlude start"]);
    let out = run(&mut t, "alice", "/fc raise ミナ ST");
    assert!(
        out[0].contains("ST 5→6") && out[0].contains("経験点10"),
        "{out:?}"
    );
    let out = run(&mut t, "alice", "/fc raise ミナ ST");
    assert!(
        out[0].contains("ST 6→7") && out[0].contains("経験点20"),
        "{out:?}"
    );
    assert!(refused(&mut t, "alice", "/fc raise ミナ ST").contains("at most +2"));
    let out = run(&mut t, "alice", "/fc raise ミナ IQ");
    assert!(out[0].contains("経験点15"), "{out:?}");
    let out = run(&mut t, "alice", "/fc raise ミナ IQ");
    assert!(out[0].contains("経験点30"), "{out:?}");
    // Raising ST re-derives the HP lines: 7×2 + 5 = 19.
    assert!(sheet(&t, "ミナ").contains("衰弱ライン: 19/19"));
    // ST initial 5, raised to 7, loses 1, wins it back for 5; a further raise refused.
    run(&mut t, "gm", "/fc lose ミナ ST 1");
    let out = run(&mut t, "alice", "/fc raise ミナ ST");
    assert!(
        out[0].contains("取り戻し") && out[0].contains("経験点5"),
        "{out:?}"
    );
    assert!(refused(&mut t, "alice", "/fc raise ミナ ST").contains("at most +2"));
}

#[test]
fn fc15_one_step_per_interlude_is_a_setting() {
    // Expertise 2, 1 TP → 3 TP in one interlude: 4 + 6 = 10 XP.
    let mut t = table([3; 32]);
    run(
        &mut t,
        "alice",
        "/char set ミナ 経験点 40 未使用経験点 25 スキル.接近戦 1",
    );
    gm(&mut t, &["/fc interlude start"]);
    let out = run(&mut t, "alice", "/fc learn ミナ 接近戦 3");
    assert!(out[0].contains("1→3TP（経験点10"), "{out:?}");
    let mut t = table([3; 32]);
    run(
        &mut t,
        "alice",
        "/char set ミナ 経験点 40 未使用経験点 25 スキル.接近戦 1",
    );
    gm(
        &mut t,
        &["/fc set one_step_per_interlude on", "/fc interlude start"],
    );
    assert!(refused(&mut t, "alice", "/fc learn ミナ 接近戦 3").contains("one TP at a time"));
    run(&mut t, "alice", "/fc learn ミナ 接近戦 2");
    assert!(refused(&mut t, "alice", "/fc learn ミナ 接近戦 3").contains("already raised"));
}

// ---- Sheets --------------------------------------------------------------------------

const SHEET: &str = include_str!("../../systems/src/four_card/example-sheet.toml");

#[test]
fn a_sheet_file_creates_a_character_the_rules_read() {
    let mut t = Table::create("FourCard", "fc", "gm", [3; 32])
        .expect("table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    run(&mut t, "gm", "/join alice");
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    // DX 6 + 2 TP, 剣 specialised: LV 8; 槍 not: 6; VT 5 + LV 1.
    let out = run(&mut t, "alice", "FC+{剣}>=10");
    assert!(out[0].starts_with("(FC+8>=10)"), "{out:?}");
    let out = run(&mut t, "alice", "FC+{槍}");
    assert!(out[0].starts_with("(FC+6)"), "{out:?}");
    let out = run(&mut t, "alice", "FC+{WP抵抗}");
    assert!(out[0].starts_with("(FC+7)"), "{out:?}");
    let s = sheet(&t, "ミナ");
    assert!(
        s.contains("衰弱ライン: 13/13") && s.contains("【接近戦】LV8"),
        "{s}"
    );
    // A sheet that breaks a rule is refused, naming it.
    let bad = SHEET.replace("IQ = 5", "IQ = 9");
    let err = t.decide_sheet("alice", &bad).expect_err("refused");
    assert!(err.render(taku_dice::Lang::En).contains("FC-1"), "{err:?}");
}
