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
    // FC-1/FC-4: a player's sheet is used once the GM approves it.
    ("gm", "/fc approve ミナ"),
    ("gm", "/fc approve ロイ"),
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
    run(&mut t, "alice", "/char set ミナ xp 40 unspent_xp 25");
    run(&mut t, "gm", "/fc approve ミナ");
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
    run(&mut t, "alice", "/char set ミナ xp 100 unspent_xp 85");
    run(&mut t, "gm", "/fc approve ミナ");
    run(
        &mut t,
        "alice",
        "/char set ミナ スキル.魔術 4 スキル.知覚 9 スキル.接近戦 2 unspent_xp 4",
    );
    run(&mut t, "gm", "/fc approve ミナ");
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
    run(&mut t, "bob", "/char set ロイ xp 100 unspent_xp 85");
    run(&mut t, "gm", "/fc approve ロイ");
    let why = refused(&mut t, "bob", "/fc learn ロイ 魔術知識 1");
    assert!(why.contains("prerequisite"), "{why}");
}

#[test]
fn fc15_spending_xp_only_in_an_interlude() {
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char set ミナ xp 40 unspent_xp 25");
    run(&mut t, "gm", "/fc approve ミナ");
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
    let out = run(&mut t, "gm", "/fc rest ミナ 8 lying");
    assert!(out[0].contains("疲労−14"), "{out:?}");
    assert_eq!(state(&t)["characters"]["ミナ"]["fatigue"], 6);
    // 2 of the day's 3 meals missed: +2, then no recovery until a full meal.
    let out = run(&mut t, "gm", "/fc miss ミナ 2");
    assert!(out[0].contains("疲労+2"), "{out:?}");
    let out = run(&mut t, "gm", "/fc rest ミナ 2");
    assert!(
        out[0].contains("疲労−0") && out[0].contains("空腹"),
        "{out:?}"
    );
    assert_eq!(state(&t)["characters"]["ミナ"]["fatigue"], 8);
    run(&mut t, "alice", "/fc meal ミナ");
    let out = run(&mut t, "gm", "/fc rest ミナ 1");
    assert!(out[0].contains("疲労−1"), "{out:?}");
    // FC-13: resting is time passing, the GM's: a player cannot rest on their own.
    assert!(refused(&mut t, "alice", "/fc rest ミナ 8 lying").contains("only the GM"));
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
        let out = run(&mut t, "gm", &format!("/fc day ミナ {how}"));
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
    run(&mut t, "alice", "/char set ミナ xp 200 unspent_xp 185");
    run(&mut t, "gm", "/fc approve ミナ");
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
        "/char set ミナ xp 40 unspent_xp 25 スキル.接近戦 1",
    );
    run(&mut t, "gm", "/fc approve ミナ");
    gm(&mut t, &["/fc interlude start"]);
    let out = run(&mut t, "alice", "/fc learn ミナ 接近戦 3");
    assert!(out[0].contains("1→3TP（経験点10"), "{out:?}");
    let mut t = table([3; 32]);
    run(
        &mut t,
        "alice",
        "/char set ミナ xp 40 unspent_xp 25 スキル.接近戦 1",
    );
    run(&mut t, "gm", "/fc approve ミナ");
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
    // FC-1/FC-4: a player's sheet is used once the GM approves it.
    run(&mut t, "gm", "/fc approve ミナ");
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
    // A sheet whose sex the rules cannot read is refused at import, naming FC-1.
    let bad = SHEET
        .replace("name = \"ミナ\"", "name = \"ナギ\"")
        .replace("sex = \"female\"", "sex = \"robot\"");
    let err = t.decide_sheet("alice", &bad).expect_err("refused");
    assert!(err.render(taku_dice::Lang::En).contains("FC-1"), "{err:?}");
}

#[test]
fn fc1_fc4_an_imported_sheet_breaking_the_rules_waits_for_the_gms_approval() {
    // l.37 「能力値は「3〜7」の範囲に収まるはずです」, l.38 (the GM's consent): a player's
    // sheet is a proposal (FC-1/FC-4), so an imported one that breaks a rule reaches the
    // GM, who refuses it listing what it breaks or approves it knowingly (`force`), as
    // with `/char set`; the import itself refused it before (fc1415e's open item).
    let mut t = Table::create("FourCard", "fc", "gm", [3; 32])
        .expect("table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    run(&mut t, "gm", "/join alice");
    let bad = SHEET.replace("IQ = 5", "IQ = 9");
    let d = t
        .decide_sheet("alice", &bad)
        .expect("a readable sheet is a proposal");
    t.apply("alice", d.events);
    // The player sees what the GM will be told, before asking.
    let s = sheet(&t, "ミナ");
    assert!(
        s.contains("GMの承認待ち") && s.contains("FC-1: IQ 9 は初期能力値の範囲（3〜7）の外です"),
        "{s}"
    );
    // Not usable until approved.
    assert!(refused(&mut t, "alice", "FC+{剣}").contains("FC-1"));
    let why = refused(&mut t, "gm", "/fc approve ミナ");
    assert!(
        why.contains("FC-1: IQ 9 is outside the initial range 3..7")
            && why.contains("/fc approve ミナ force"),
        "{why}"
    );
    let out = run(&mut t, "gm", "/fc approve ミナ force");
    assert!(
        out[0].contains("ルール外を承知で承認: FC-1: IQ 9"),
        "{out:?}"
    );
    assert_eq!(state(&t)["characters"]["ミナ"]["initial"][0], 9);
    let out = run(&mut t, "alice", "FC+{IQ}");
    assert!(out[0].starts_with("(FC+9)"), "the approved IQ 9: {out:?}");
    // The GM's own sheet needs no approval (FC-1/FC-4 are the players' creation); what
    // it breaks is noted to the GMs only.
    let npc = bad.replace("name = \"ミナ\"", "name = \"ガラ\"");
    let d = t.decide_sheet("gm", &npc).expect("the GM's sheet");
    t.apply("gm", d.events);
    let out = run(&mut t, "gm", "FC+{ガラ.IQ}");
    assert!(out[0].starts_with("(FC+9)"), "{out:?}");
    assert!(sheet(&t, "ガラ").contains("FC-1: IQ 9 は初期能力値の範囲（3〜7）の外です"));
    let seen = t
        .sheet("ガラ", "alice")
        .expect("a sheet")
        .render_text(taku_dice::Lang::Ja);
    assert!(!seen.contains("ルールに合わない点"), "{seen}");
}

#[test]
fn fc1_fc4_a_rolled_characters_sheet_keys_are_its_record_not_typed_values() {
    // l.37 「キャラクターの各能力値は「2D3+1」で算出します」; l.68 初期経験点 spent under the
    // rules. A /fc create character's attributes, skills, XP, money and equipment are its
    // record's, changed by the /fc commands: a typed `DX 7` would be shown and never used
    // (fc5, FC-2), so it is refused, saying what changes the value.
    let mut t = table([5; 32]);
    run(&mut t, "alice", "/char new ユキ");
    run(&mut t, "alice", "/fc create ユキ female");
    run(&mut t, "alice", "/fc hand ユキ 右");
    run(&mut t, "alice", "/fc done ユキ");
    let dx = state(&t)["characters"]["ユキ"]["initial"][1].clone();
    for (who, line, how) in [
        ("alice", "/char set ユキ DX 7", "/fc raise"),
        ("alice", "/char set ユキ dx 7", "/fc raise"),
        ("gm", "/char set ユキ DX 7", "/fc raise"),
        ("alice", "/char set ユキ スキル.接近戦 5", "/fc learn"),
        ("alice", "/char set ユキ 特化.接近戦 剣", "/fc special"),
        ("alice", "/char set ユキ xp 99", "/fc xp"),
        ("alice", "/char set ユキ money 99999", "/fc money"),
        ("alice", "/char set ユキ 利き腕 左", "/fc hand"),
        ("alice", "/char set ユキ 装備 例革鎧", "/fc equip"),
        ("alice", "/char set ユキ 性別 男性", "/fc create"),
    ] {
        let why = refused(&mut t, who, line);
        assert!(
            why.contains("FC-1/FC-4") && why.contains("made by the rules") && why.contains(how),
            "{line}: {why}"
        );
    }
    let ja = t
        .exec("alice", "/char set ユキ DX 7")
        .expect_err("refused")
        .render(taku_dice::Lang::Ja);
    assert!(ja.contains("記録の値を使います"), "{ja}");
    // The sheet shows the record's DX only; a note that is no Four Card value stays.
    run(&mut t, "alice", "/char set ユキ メモ 宿屋の娘");
    let s = sheet(&t, "ユキ");
    assert!(
        s.contains(&format!("DX（敏捷性）: {dx}")) && s.contains("メモ: 宿屋の娘"),
        "{s}"
    );
    assert!(!s.lines().any(|l| l.trim_start().starts_with("DX:")), "{s}");
}

#[test]
fn fc1_fc5_an_imported_sheet_shows_each_value_once() {
    // The sheet's IQ..VT, skills, XP and money are read into the record (FC-1, FC-4,
    // FC-5); the sheet view shows the value the rules use, once, not the typed key
    // beside it (fc5: `ST: 5` above 「ST（筋力）: 6」).
    let mut t = Table::create("FourCard", "fc", "gm", [3; 32])
        .expect("table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    run(&mut t, "gm", "/join alice");
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    // Waiting: the proposal's sections show the values.
    let s = sheet(&t, "ミナ");
    assert!(
        s.contains("提案: 能力値") && s.contains("IQ（知力）: 5"),
        "{s}"
    );
    assert!(!s.lines().any(|l| l.trim_start().starts_with("IQ:")), "{s}");
    run(&mut t, "gm", "/fc approve ミナ");
    run(&mut t, "alice", "/char set ミナ メモ 旅の剣士");
    let s = sheet(&t, "ミナ");
    // The table's section of fields as typed: the first one.
    let typed_section = s.split("\n【").next().unwrap_or_default();
    for typed in [
        "IQ:",
        "DX:",
        "ST:",
        "WP:",
        "VT:",
        "xp:",
        "unspent_xp:",
        "money:",
        "性別:",
        "追加初期経験点:",
        "移動力修正:",
        "スキル.",
        "特化.",
    ] {
        assert!(
            !typed_section
                .lines()
                .any(|l| l.trim_start().starts_with(typed)),
            "{typed} shown as typed: {s}"
        );
    }
    for shown in [
        "IQ（知力）: 5",
        "性別: 女性（算出）",
        "【接近戦】LV8",
        "メモ: 旅の剣士",
    ] {
        assert!(s.contains(shown), "{shown}: {s}");
    }
    // The typed fields are still the character's (the API's raw fields, references).
    assert!(
        t.visible_fields("ミナ", "gm")
            .is_some_and(|f| f.contains_key("IQ"))
    );
}

#[test]
fn fc5_a_missing_skill_points_to_learning_it_not_to_typing_it() {
    // l.68–74: skills are bought with XP (「経験点を消費して」); `{ミナ.魔術}` of a skill
    // she has not learned names /fc learn, not `/char set ミナ 魔術 値` (fc5).
    let mut t = table([3; 32]);
    let why = refused(&mut t, "alice", "2D6+{ミナ.魔術}");
    assert!(
        why.contains("FC-5") && why.contains("/fc learn ミナ 魔術 1") && !why.contains("/char set"),
        "{why}"
    );
    // A value the rules keep says what keeps it; any other key keeps the table's hint.
    assert!(refused(&mut t, "alice", "2D6+{ミナ.空腹}").contains("/fc"));
    assert!(refused(&mut t, "alice", "2D6+{ミナ.メモ}").contains("/char set ミナ メモ"));
}

// ---- Issue 14, second pass: what the first left out, and the play-through's findings ----

#[test]
fn fc1_the_gm_may_reroll_every_attribute_during_creation() {
    // l.38 「GMの同意を得たうえで能力値をすべて振り直すことができます」: all five, with the
    // GM's consent, at creation.
    let mut t = table([5; 32]);
    run(&mut t, "alice", "/char new ユキ");
    run(&mut t, "alice", "/fc create ユキ female");
    let before = state(&t)["characters"]["ユキ"]["initial"].clone();
    assert!(refused(&mut t, "alice", "/fc reroll ユキ").contains("GM's consent"));
    let out = run(&mut t, "gm", "/fc reroll ユキ");
    assert!(
        out[0].contains("GMの同意で能力値をすべて振り直し（FC-1）"),
        "{out:?}"
    );
    let after = state(&t)["characters"]["ユキ"]["initial"].clone();
    for i in 0..5 {
        let v = after[i].as_i64().expect("a number");
        assert!((3..=7).contains(&v), "{after}");
    }
    // The line shows both sets of values; the record holds the new one.
    let attrs = |v: &serde_json::Value| {
        ["IQ", "DX", "ST", "WP", "VT"]
            .iter()
            .enumerate()
            .map(|(i, a)| format!("{a}{}", v[i]))
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(out[0].contains(&attrs(&before)), "{out:?}");
    assert!(out[0].contains(&attrs(&after)), "{out:?}");
    run(&mut t, "alice", "/fc done ユキ");
    assert!(refused(&mut t, "gm", "/fc reroll ユキ").contains("only during creation"));
    // A sheet's attributes are not rolled, so not rerolled.
    assert!(refused(&mut t, "gm", "/fc reroll ミナ").contains("FC-1"));
}

#[test]
fn fc3_equipment_is_data_the_gm_defines() {
    // l.60 「何も装備していない状態であれば、移動力は「DX+5」です。ただし、通常は装備品の
    // 移動力修正がマイナスされます」.
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/fc item 鎖帷子 3");
    let out = run(&mut t, "alice", "/fc equip ミナ 鎖帷子 例革鎧");
    assert!(out[0].contains("移動力修正−4、移動力6"), "{out:?}");
    assert!(
        sheet(&t, "ミナ").contains("移動力: 6"),
        "{}",
        sheet(&t, "ミナ")
    );
    // The item's data decides: the GM redefines it, movement follows.
    run(&mut t, "gm", "/fc item 鎖帷子 1");
    assert!(
        sheet(&t, "ミナ").contains("移動力: 8"),
        "{}",
        sheet(&t, "ミナ")
    );
    assert!(refused(&mut t, "alice", "/fc equip ミナ 魔法の靴").contains("FC-3: no item"));
    // Equipment subtracts: a negative modifier would make movement exceed DX + 5.
    assert!(refused(&mut t, "alice", "/fc equip ミナ -2").contains("FC-3"));
    assert!(refused(&mut t, "gm", "/fc item 羽 -2").contains("FC-3"));
    assert!(refused(&mut t, "alice", "/fc item 羽 1").contains("only the GM"));
    let out = run(&mut t, "alice", "/fc equip ミナ none");
    assert!(out[0].contains("移動力10"), "{out:?}");
}

#[test]
fn fc4_extra_starting_xp_is_earmarked_for_its_skills() {
    // l.70 「追加初期経験点は、あらかじめその用途(どのスキルを習得するために費やすか)が
    // 決められている」.
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char new ユキ");
    run(&mut t, "alice", "/fc create ユキ female");
    assert!(refused(&mut t, "gm", "/fc extra ユキ 5").contains("earmarked"));
    assert!(refused(&mut t, "gm", "/fc extra ユキ 5 料理").contains("no skill"));
    let out = run(&mut t, "gm", "/fc extra ユキ 5 魔術");
    assert!(out[0].contains("【魔術】の習得にだけ使える"), "{out:?}");
    // 15 general XP on 知覚 (expertise 1, 0 → 5 TP).
    run(&mut t, "alice", "/fc learn ユキ 知覚 5");
    // The 5 left are 魔術's: 接近戦 (2 XP) is refused and nothing changes.
    let why = refused(&mut t, "alice", "/fc learn ユキ 接近戦 1");
    assert!(
        why.contains("earmarked for 【魔術】") && why.contains("FC-4"),
        "{why}"
    );
    // 魔術 1 TP (expertise 3) is paid from them.
    let out = run(&mut t, "alice", "/fc learn ユキ 魔術 1");
    assert!(out[0].contains("残り2"), "{out:?}");
    assert_eq!(state(&t)["characters"]["ユキ"]["earmarked"], 2);
    let out = run(&mut t, "alice", "/fc done ユキ");
    assert!(out[0].contains("初期経験点2は失われました"), "{out:?}");
}

#[test]
fn fc4_fc14_scenario_xp_is_not_given_during_creation() {
    // l.68 only starting XP is spent at creation and lost when left; l.245 XP comes at a
    // scenario's end.
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char new ユキ");
    run(&mut t, "alice", "/fc create ユキ female");
    assert!(refused(&mut t, "gm", "/fc xp ユキ 5").contains("FC-14"));
    run(&mut t, "alice", "/fc done ユキ");
    run(&mut t, "gm", "/fc xp ユキ 5");
}

#[test]
fn fc5_a_skill_list_loads_at_a_table() {
    let mut t = table([3; 32]);
    assert!(refused(&mut t, "alice", "/fc load skill = []").contains("only the GM"));
    let why = refused(&mut t, "gm", "/fc load 「skill = [{name = \"料理\"}]」");
    assert!(why.contains("not a data file"), "{why}");
    let out = run(
        &mut t,
        "gm",
        "/fc load 「skill = [{name = \"料理\", base = \"IQ\", expertise = 1, fields = [\"和食\", \"洋食\"], field_cost = 1}, {name = \"製菓\", base = \"DX\", expertise = 2, requires = [\"料理\"]}]」",
    );
    assert!(
        out[0].contains("スキル2件（【料理】IQ 専門性1 特化: 和食・洋食（追加1点）・【製菓】DX 専門性2 前提【料理】）"),
        "{out:?}"
    );
    let out = run(
        &mut t,
        "gm",
        r#"/fc load 「{"item": [{"name": "鍋", "movement": 1}]}」"#,
    );
    assert!(out[0].contains("装備1件（鍋）"), "{out:?}");
    // A prerequisite the list does not have, or the skill itself, is refused (FC-5).
    assert!(
        refused(
            &mut t,
            "gm",
            "/fc load 「skill = [{name = \"x\", base = \"IQ\", expertise = 1, requires = [\"y\"]}]」"
        )
        .contains("FC-5")
    );
    // The loaded skill is learned and read like any other (FC-5: −2 outside the field).
    gm(&mut t, &["/fc interlude start", "/fc xp ミナ 5"]);
    run(&mut t, "alice", "/fc learn ミナ 料理 2 和食");
    let out = run(&mut t, "alice", "FCA+{洋食}");
    assert!(out[0].starts_with("(FCA+5)"), "{out:?}");
    // 製菓 needs 料理 first: ロイ has none.
    run(&mut t, "gm", "/fc xp ロイ 5");
    assert!(refused(&mut t, "bob", "/fc learn ロイ 製菓 1").contains("prerequisite 【料理】"));
}

#[test]
fn fc13_time_passes_meals_hunger_and_the_injury_roll() {
    // l.218 「1日に3回の食事を摂れなかった場合は、1食抜かすごとに1点疲労します。また、
    // その後、十分な食事を摂るまでは、一切の疲労が回復しません」; l.235 the injury roll
    // after 6:00 to 6:00, −4 without a day at rest.
    let mut t = table([3; 32]);
    assert!(refused(&mut t, "alice", "/fc time 3").contains("only the GM"));
    assert!(refused(&mut t, "alice", "/fc day ミナ rest").contains("only the GM"));
    gm(&mut t, &["/fc fatigue ミナ 5", "/fc damage ミナ 3"]);
    // 6:00 → 14:00 lying down: 1 h + 6 h... fatigue −5 at most; 7 h asleep: injury −1.
    let out = run(&mut t, "gm", "/fc time 8 lying ミナ");
    assert!(out.iter().any(|l| l.contains("1日目 14:00")), "{out:?}");
    let ch = &state(&t)["characters"]["ミナ"];
    assert_eq!(
        (ch["fatigue"].as_i64(), ch["injury"].as_i64()),
        (Some(0), Some(2))
    );
    run(&mut t, "alice", "/fc meal ミナ");
    // 14:00 → 8:00 the next day, active: one meal of three: 2 missed, hungry, and the
    // injury roll at −4 (VT 5 + LV 1 − 4 = 2) against cumulative damage 2 + 2 = 4.
    let out = run(&mut t, "gm", "/fc time 18 active");
    assert!(
        out.iter()
            .any(|l| l.contains("1日の食事3回のうち1回、2食抜いた") && l.contains("疲労+2")),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.contains("安静でない−4") && l.contains("(FC+2>=4)")),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l.contains("2日目 8:00")), "{out:?}");
    let ch = &state(&t)["characters"]["ミナ"];
    assert_eq!(ch["hungry"], true);
    // Hungry: rest recovers no fatigue until a full meal.
    let fatigue = ch["fatigue"].as_i64();
    run(&mut t, "gm", "/fc time 2 rest ミナ");
    assert_eq!(state(&t)["characters"]["ミナ"]["fatigue"].as_i64(), fatigue);
    // Both characters' day ended (ロイ ate nothing: 3 missed).
    assert_eq!(state(&t)["characters"]["ロイ"]["fatigue"], 3);
}

#[test]
fn fc2_a_changed_sheet_is_read_again_keeping_the_damage() {
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc damage ミナ 4"]);
    assert!(
        sheet(&t, "ミナ").contains("衰弱ライン: 11/15"),
        "{}",
        sheet(&t, "ミナ")
    );
    run(&mut t, "alice", "/char set ミナ ST 7");
    // FC-1/FC-4: the change waits for the GM; approved, the sheet is read again.
    let out = run(&mut t, "gm", "/fc approve ミナ");
    assert!(out[0].contains("GMがミナのシートの変更を承認"), "{out:?}");
    // ST 7: weakened 19; the rules' damage stays.
    assert!(
        sheet(&t, "ミナ").contains("衰弱ライン: 15/19"),
        "{}",
        sheet(&t, "ミナ")
    );
    let out = run(&mut t, "gm", "/fc fatigue ミナ 1");
    assert!(out.iter().any(|l| l.contains("累積5（衰弱19")), "{out:?}");
    // A GM's own character is read again at once (no approval: it is the GM's).
    run(&mut t, "gm", "/char new 影");
    run(&mut t, "gm", "/char set 影 IQ 5 DX 5 ST 5 WP 5 VT 5");
    run(&mut t, "gm", "/fc fatigue 影 1");
    run(&mut t, "gm", "/char set 影 ST 7");
    let out = run(&mut t, "gm", "/fc fatigue 影 1");
    assert!(out.iter().any(|l| l.contains("読み直しました")), "{out:?}");
    assert!(out.iter().any(|l| l.contains("累積2（衰弱19")), "{out:?}");
}

#[test]
fn fc2_an_unconscious_or_dead_character_makes_no_check() {
    // l.53 「累積ダメージがこのラインに到達すると、キャラクターは意識を失います」: only
    // until the unconscious line does a character act.
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc damage ミナ 24"]);
    run(&mut t, "alice", "FC+5>=10");
    gm(&mut t, &["/fc damage ミナ 1"]);
    for line in ["FC+5>=10", "FCA+5", "FC+5 VS FC+3", "FC+{剣}>=10"] {
        let why = refused(&mut t, "alice", line);
        assert!(why.contains("FC-2") && why.contains("unconscious"), "{why}");
    }
    gm(&mut t, &["/fc damage ミナ 10"]);
    assert!(refused(&mut t, "alice", "FC+5>=10").contains("dead"));
    // The GM's own roll is nobody's.
    run(&mut t, "gm", "FC+5>=10");
}

#[test]
fn fc2_fc9_a_roll_belongs_to_the_character_it_names() {
    // l.50 every roll value −2 from the weakened line; l.155 every automatic failure
    // costs 1 fatigue: also when the GM rolls for ロイ or bob has two characters.
    let probe = {
        let mut t = table([0; 32]);
        run(&mut t, "bob", "/char new ケン");
        run(&mut t, "bob", "/char set ケン IQ 5 DX 5 ST 5 WP 5 VT 5");
        gm(&mut t, &["/fc damage ロイ 15"]);
        t.next_seq()
    };
    let seed = seed_where(probe, |s| s == 2);
    let mut t = table(seed);
    run(&mut t, "bob", "/char new ケン");
    run(&mut t, "bob", "/char set ケン IQ 5 DX 5 ST 5 WP 5 VT 5");
    gm(&mut t, &["/fc damage ロイ 15"]);
    let out = run(&mut t, "bob", "FC+{ロイ.ST}>=10");
    assert!(out[0].starts_with("(FC+3>=10)"), "{out:?}");
    assert!(
        out.iter().any(|l| l.contains("ロイ: 自動的失敗で疲労+1")),
        "{out:?}"
    );
    assert_eq!(state(&t)["characters"]["ロイ"]["fatigue"], 1);
    // The GM rolling for ロイ: −2 too.
    let out = run(&mut t, "gm", "FC+{ロイ.ST}>=10");
    assert!(out[0].starts_with("(FC+3>=10)"), "{out:?}");
    // A player cannot roll someone else's character's check (its −2, its fatigue).
    let why = refused(&mut t, "alice", "FC+{ロイ.ST}>=10");
    assert!(why.contains("ロイ is bob's character"), "{why}");
}

#[test]
fn fc9_a_secret_rolls_automatic_failure_costs_fatigue_at_the_reveal() {
    // FC-9, seed l.155 「あらゆる判定において、自動的失敗をしてしまうと1点疲労します」: a
    // secret roll is a check too, but its 2 must not show before the reveal.
    let probe = table([0; 32]).next_seq();
    let seed = seed_where(probe, |s| s == 2);
    let mut t = table(seed);
    let before = t.events().len();
    let out = run(&mut t, "alice", "SFC+15>=10");
    assert!(out[0].contains("自動的失敗"), "{out:?}");
    assert!(out[0].contains("公開（/reveal）のときに記録"), "{out:?}");
    // Before the reveal: one entry, nothing after it, no fatigue on any sheet.
    assert_eq!(t.events().len(), before + 1);
    let fatigue = |t: &Table| {
        state(t)["characters"]["ミナ"]["fatigue"]
            .as_i64()
            .unwrap_or(0)
    };
    assert_eq!(fatigue(&t), 0);
    let seen_by_bob = t
        .sheet("ミナ", "bob")
        .expect("sheet")
        .render_text(taku_dice::Lang::Ja);
    assert!(seen_by_bob.contains("疲労: 0"), "{seen_by_bob}");
    // The reveal (by the roller) records the fatigue, for everyone to see.
    let out = run(&mut t, "alice", &format!("/reveal {probe}"));
    assert!(
        out.iter().any(|l| l.contains("自動的失敗で疲労+1（FC-9）")),
        "{out:?}"
    );
    assert_eq!(fatigue(&t), 1);
    let bob: Vec<String> = t.events()[t.events().len() - 1..]
        .iter()
        .map(|e| t.entry(e, "bob", taku_dice::Lang::Ja).text)
        .collect();
    assert!(bob[0].contains("疲労+1"), "{bob:?}");
    // Voiding the roll takes the fatigue back with it.
    run(&mut t, "gm", &format!("/void {probe}"));
    assert_eq!(fatigue(&t), 0);
}

#[test]
fn fc9_a_secret_roll_without_an_automatic_failure_adds_nothing_at_the_reveal() {
    // FC-9 (l.155): only an automatic failure costs fatigue; the GM's reveal of a secret
    // roll of 7 records nothing.
    let probe = table([0; 32]).next_seq();
    let seed = seed_where(probe, |s| s == 7);
    let mut t = table(seed);
    run(&mut t, "alice", "SFC+5>=10");
    let before = t.events().len();
    let out = run(&mut t, "gm", &format!("/reveal {probe}"));
    assert_eq!(t.events().len(), before + 1, "{out:?}");
    assert!(
        state(&t)["characters"]["ミナ"]["fatigue"]
            .as_i64()
            .unwrap_or(0)
            == 0
    );
}

#[test]
fn fc9_voiding_the_roll_that_first_read_a_sheet_keeps_later_changes() {
    let probe = table([0; 32]).next_seq();
    let seed = seed_where(probe, |s| s == 2);
    let mut t = table(seed);
    run(&mut t, "alice", "FC+5>=10");
    gm(&mut t, &["/fc damage ミナ 5", "/fc fatigue ミナ 2"]);
    assert_eq!(state(&t)["characters"]["ミナ"]["fatigue"], 3);
    run(&mut t, "gm", &format!("/void {probe}"));
    let ch = &state(&t)["characters"]["ミナ"];
    assert_eq!(
        (ch["fatigue"].as_i64(), ch["injury"].as_i64()),
        (Some(2), Some(5))
    );
}

#[test]
fn fc_amounts_fold_full_width_and_refuse_negatives() {
    let mut t = table([3; 32]);
    let why = refused(&mut t, "gm", "/fc damage ミナ -3");
    assert!(why.contains("negative"), "{why}");
    assert!(refused(&mut t, "gm", "/fc damage ミナ 4294967296").contains("too large"));
    let out = run(&mut t, "gm", "/fc damage ミナ ７");
    assert!(out[0].contains("負傷+7"), "{out:?}");
}

#[test]
fn fc7_the_player_chooses_the_hand() {
    // l.95 右利きもしくは左利き … プレイヤーの任意で決めてかまいません.
    let mut t = table([3; 32]);
    let out = run(&mut t, "alice", "/fc hand ミナ 左");
    assert!(out[0].contains("利き腕は左利き"), "{out:?}");
    assert!(
        sheet(&t, "ミナ").contains("利き腕: 左利き"),
        "{}",
        sheet(&t, "ミナ")
    );
    assert!(refused(&mut t, "bob", "/fc hand ミナ 右").contains("belongs to alice"));
}

#[test]
fn fc9_a_skill_that_needs_training_cannot_be_typed_in() {
    // l.163 「スキルがなければ、判定そのものが不可能な行動もある（…魔法を使ったり…）」.
    let mut t = table([3; 32]);
    // fc14h (fc7 F4): a skill's name is not a field to type a number into.
    let why = refused(&mut t, "alice", "/char set ミナ 魔術 10");
    assert!(why.contains("the skill 【魔術】"), "{why}");
    let why = refused(&mut t, "alice", "FC+{魔術}>=10");
    assert!(
        why.contains("FC-9") && why.contains("without the skill"),
        "{why}"
    );
}

#[test]
fn fc5_skill_definitions_are_checked() {
    let mut t = table([3; 32]);
    assert!(refused(&mut t, "gm", "/fc skill 錬金 IQ 0").contains("expertise"));
    assert!(refused(&mut t, "gm", "/fc skill 錬金 IQ 2 requires=錬金").contains("own"));
    assert!(refused(&mut t, "gm", "/fc skill 錬金 IQ 2 requires=無い").contains("define it first"));
    assert!(refused(&mut t, "gm", "/fc skill \"\" IQ 1").contains("FC-5"));
    assert!(refused(&mut t, "gm", "/fc skill a}b IQ 1").contains("FC-5"));
    let out = run(&mut t, "gm", "/fc skills");
    assert!(out[0].contains("前提【魔術】"), "{out:?}");
}

// ---- verify replays the dice of /fc commands ------------------------------------------

/// The log with the first system event whose JSON `kind` is `kind` (for character
/// `name`) changed by `edit`, folded again: a record edited behind the engine's back.
fn forged(
    t: &Table,
    kind: &str,
    name: &str,
    edit: impl Fn(&mut serde_json::Value),
) -> (Table, u64) {
    let mut events = t.events().to_vec();
    let e = events
        .iter_mut()
        .find(|e| {
            matches!(&e.body, taku_table::EventBody::System { data, .. }
                if data["kind"] == kind && data["name"] == name)
        })
        .expect("such an event");
    let seq = e.seq;
    if let taku_table::EventBody::System { data, .. } = &mut e.body {
        edit(data);
    }
    (Table::from_events(events).expect("folds"), seq)
}

#[test]
fn fc1_fc13_verify_replays_creation_and_the_injury_roll() {
    // FC-1 (l.37 「2D3+1」), FC-7 (l.95), FC-8 (l.99) and FC-13's daily roll (l.235) draw
    // dice in /fc commands: `taku table verify` decides each such line again from the
    // seed and the nonce it recorded, and a record that differs is reported.
    let mut t = Table::create("FourCard", "fc", "gm", [5; 32])
        .expect("table")
        .with_entropy(taku_table::Entropy::seeded([5; 32]));
    for (who, line) in SETUP {
        t.exec(who, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    run(&mut t, "alice", "/char new ユキ");
    run(&mut t, "alice", "/fc create ユキ female");
    gm(&mut t, &["/fc damage ユキ 3", "/fc day ユキ norest"]);
    assert!(t.verify().is_empty(), "{:?}", t.verify());
    // A rolled attribute edited in the log.
    let (bad, seq) = forged(&t, "created", "ユキ", |d| {
        let v = d["character"]["initial"][0].as_i64().expect("IQ");
        d["character"]["initial"][0] = serde_json::json!(if v == 7 { 3 } else { v + 1 });
    });
    let found = bad.verify();
    assert!(found.iter().any(|m| m.seq == seq), "{found:?}");
    // Money edited.
    let (bad, seq) = forged(&t, "created", "ユキ", |d| {
        d["character"]["money"] = serde_json::json!(99_999);
    });
    assert!(bad.verify().iter().any(|m| m.seq == seq));
    // The injury roll's outcome edited (its recovery or its log text).
    let mut events = t.events().to_vec();
    let day = events
        .iter_mut()
        .rev()
        .find(|e| {
            matches!(&e.body, taku_table::EventBody::System { data, .. }
                if data["kind"] == "changed" && data["ja"].as_str().is_some_and(|s| s.contains("1日の負傷ロール")))
        })
        .expect("the injury roll");
    let seq = day.seq;
    if let taku_table::EventBody::System { data, .. } = &mut day.body {
        data["delta"]["injury"] = serde_json::json!(-3);
    }
    let bad = Table::from_events(events).expect("folds");
    assert!(
        bad.verify().iter().any(|m| m.seq == seq),
        "{:?}",
        bad.verify()
    );
}

// ---- FC-1/FC-4: a player's sheet is a proposal the GM approves ------------------------

#[test]
fn fc1_fc4_a_players_sheet_waits_for_the_gms_approval() {
    // FC-1 (l.37–38): attributes are rolled 2D3+1, rerolled only 「GMの同意を得たうえで」;
    // FC-4 (l.68): starting XP is 15 + extra, spent at creation. A finished character
    // typed in by a player (here 360 XP and 9 TP) is therefore a proposal: nothing of it
    // is used until the GM approves it.
    let mut t = Table::create("FourCard", "fc", "gm", [3; 32])
        .expect("table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    for line in ["/join alice", "/join bob"] {
        run(&mut t, "gm", line);
    }
    run(&mut t, "alice", "/char new ミナ");
    run(
        &mut t,
        "alice",
        "/char set ミナ IQ 7 DX 7 ST 7 WP 7 VT 7 xp 360 スキル.接近戦 9 特化.接近戦 剣",
    );
    // Not usable: no /fc command, no check naming it, no derived value.
    for line in [
        "/fc hand ミナ 右",
        "FC+{剣}>=10",
        "FC+{ミナ.IQ}>=10",
        "FCA+{衰弱ライン}",
    ] {
        let why = refused(&mut t, "alice", line);
        assert!(why.contains("waits for the GM's approval"), "{line}: {why}");
    }
    assert!(state(&t)["characters"]["ミナ"].is_null());
    let s = sheet(&t, "ミナ");
    assert!(s.contains("GMの承認待ちです"), "{s}");
    assert!(s.contains("提案: 能力値"), "{s}");
    // Only the GM approves or refuses.
    assert!(refused(&mut t, "alice", "/fc approve ミナ").contains("only the GM"));
    assert!(refused(&mut t, "bob", "/fc reject ミナ").contains("only the GM"));
    // Refused: still unusable, and the refusal says so.
    let out = run(&mut t, "gm", "/fc reject ミナ 経験点が多すぎます");
    assert!(
        out[0].contains("GMがミナのシートを却下（FC-1/FC-4）"),
        "{out:?}"
    );
    assert!(out[0].contains("経験点が多すぎます"), "{out:?}");
    assert!(refused(&mut t, "gm", "/fc reject ミナ").contains("already refused"));
    assert!(refused(&mut t, "alice", "FC+{剣}>=10").contains("refused"));
    // A changed sheet is a new proposal; the GM approves it.
    run(
        &mut t,
        "alice",
        "/char set ミナ IQ 5 DX 5 ST 5 WP 5 VT 5 xp 15 スキル.接近戦 3",
    );
    let out = run(&mut t, "gm", "/fc approve ミナ");
    assert!(
        out[0].contains("GMがミナのシートを承認（FC-1/FC-4）"),
        "{out:?}"
    );
    assert!(out[0].contains("経験点 獲得15"), "{out:?}");
    assert_eq!(state(&t)["characters"]["ミナ"]["initial"][0], 5);
    assert!(refused(&mut t, "gm", "/fc approve ミナ").contains("no sheet of ミナ waits"));
    run(&mut t, "alice", "FC+{剣}>=10");
    // A later change waits too; the approved values stand until the GM approves it.
    run(&mut t, "alice", "/char set ミナ ST 7");
    let s = sheet(&t, "ミナ");
    assert!(s.contains("シートの変更がGMの承認待ちです"), "{s}");
    assert!(s.contains("衰弱ライン: 15/15"), "{s}");
    let out = run(&mut t, "alice", "FCA+{衰弱ライン}");
    assert!(out[0].contains("(FCA+15)"), "{out:?}");
    run(&mut t, "gm", "/fc approve ミナ");
    assert!(sheet(&t, "ミナ").contains("衰弱ライン: 19/19"));
}

#[test]
fn fc1_the_gms_own_sheet_character_needs_no_approval() {
    // FC-1/FC-4: approval is the GM's consent, so a character the GM made (an NPC) is
    // read from its sheet at once.
    let mut t = Table::create("FourCard", "fc", "gm", [3; 32])
        .expect("table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    run(&mut t, "gm", "/char new 影");
    run(&mut t, "gm", "/char set 影 IQ 6 DX 6 ST 6 WP 6 VT 6");
    let out = run(&mut t, "gm", "FCA+{影.衰弱ライン}");
    assert!(out[0].contains("(FCA+18)"), "{out:?}");
    assert!(refused(&mut t, "gm", "/fc approve 影").contains("no sheet of 影 waits"));
}

#[test]
fn fc2_fc3_fc14_derived_and_tracked_fields_are_the_rules_own() {
    // FC-2 (l.49 「衰弱ラインのHPは、「ST×2+VT」で算出」), FC-3 (l.60 「DX+5」), FC-13
    // (fatigue and injury come from damage and recovery), FC-14 (XP from awards): nobody
    // types them in. /char set of one is refused, for the GM too, saying what changes it
    // in both languages; a refusal changes nothing.
    let mut t = table([3; 32]);
    for (who, line, how) in [
        ("alice", "/char set ミナ 衰弱ライン 99", "ST, WP and VT"),
        ("alice", "/char set ミナ 移動力 20", "/fc equip"),
        ("alice", "/char set ミナ 経験点 500", "/fc xp"),
        ("alice", "/char set ミナ 未使用経験点 500", "/fc learn"),
        ("alice", "/char set ミナ 所持金 99999", "/fc money"),
        ("gm", "/char set ミナ 疲労 0", "/fc heal"),
        ("gm", "/char set ミナ 【死亡ライン】 40", "ST, WP and VT"),
        ("alice", "/char set ミナ 総合LV 9", "/fc xp"),
    ] {
        let why = refused(&mut t, who, line);
        assert!(
            why.contains("kept by the rules") && why.contains(how),
            "{line}: {why}"
        );
        let ja = t
            .exec(who, line)
            .expect_err("refused")
            .render(taku_dice::Lang::Ja);
        assert!(ja.contains("ルールが管理する欄"), "{ja}");
    }
    // The references read the record.
    run(&mut t, "gm", "/fc fatigue ミナ 2");
    let out = run(&mut t, "alice", "FCA+{衰弱ライン}+{移動力}");
    assert!(out[0].contains("(FCA+25)"), "{out:?}");
    let out = run(&mut t, "alice", "FCA+{経験点}+{疲労}");
    assert!(out[0].contains("(FCA+17)"), "{out:?}");
    // A sheet file (or a flat sheet) carrying one of them is refused as a whole.
    let sheet = "name = \"ユキ\"\nsex = \"male\"\nIQ = 5\nDX = 5\nST = 5\nWP = 5\nVT = 5\n";
    t.decide_sheet("bob", sheet)
        .expect("the sheet format's own keys load");
    let why = t
        .decide_sheet_with("bob", sheet, &[("疲労".into(), "3".into())])
        .expect_err("fatigue beside the sheet")
        .render(taku_dice::Lang::En);
    assert!(why.contains("/fc fatigue"), "{why}");
}

#[test]
fn fc8_money_changes_through_the_rules() {
    // FC-8: money starts at the sheet's (approved) amount and changes with /fc money;
    // no paying more than is held.
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char set ミナ money 2000");
    run(&mut t, "gm", "/fc approve ミナ");
    let out = run(&mut t, "alice", "/fc money ミナ -300 剣を購入");
    assert!(
        out[0].contains("所持金 -300CP（剣を購入） → 1700CP"),
        "{out:?}"
    );
    let why = refused(&mut t, "alice", "/fc money ミナ -2000");
    assert!(why.contains("FC-8") && why.contains("1700 CP"), "{why}");
    assert!(refused(&mut t, "bob", "/fc money ミナ 100").contains("belongs to alice"));
    let out = run(&mut t, "alice", "FCA+{所持金}");
    assert!(out[0].contains("(FCA+1700)"), "{out:?}");
}

// ---- /undo of what later entries rest on ------------------------------------------------

/// The seq of the last event.
fn last_seq(t: &Table) -> u64 {
    t.events().last().expect("events").seq
}

#[test]
fn fc4_fc14_undoing_creations_end_after_an_xp_award_is_refused() {
    // FC-4 (starting XP spent at creation, leftovers lost at its end) and FC-14 (XP is
    // awarded at a scenario's end): an award made after /fc done rests on it, so the
    // undo of /fc done is refused while the award stands, and allowed once it is undone.
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char new ユキ");
    run(&mut t, "alice", "/fc create ユキ male");
    run(&mut t, "alice", "/fc done ユキ");
    let done = last_seq(&t);
    run(&mut t, "gm", "/fc xp ユキ 5");
    let award = last_seq(&t);
    let why = refused(&mut t, "alice", &format!("/undo #{done}"));
    assert!(
        why.contains(&format!("the later #{award} rests on it")) && why.contains("FC-14"),
        "{why}"
    );
    let ja = t
        .exec("alice", &format!("/undo #{done}"))
        .expect_err("refused")
        .render(taku_dice::Lang::Ja);
    assert!(
        ja.contains("取り消せません") && ja.contains("作成終了"),
        "{ja}"
    );
    run(&mut t, "gm", &format!("/undo #{award}"));
    run(&mut t, "alice", &format!("/undo #{done}"));
    assert_eq!(state(&t)["characters"]["ユキ"]["creating"], true);
}

#[test]
fn fc5_undoing_a_prerequisite_under_a_skill_that_needs_it_is_refused() {
    // FC-5: 魔術知識 (example list) requires 魔術 and is restricted by it: learned on
    // 魔術's TP, so 魔術's raise cannot be undone while 魔術知識's stands. A skill's
    // later TP rests on its earlier one, a specialisation on the first TP, a second
    // attribute raise on the first (FC-15: 10 then 20), spending on the XP awarded.
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char set ミナ xp 100 unspent_xp 100");
    run(&mut t, "gm", "/fc approve ミナ");
    gm(&mut t, &["/fc interlude start"]);
    run(&mut t, "alice", "/fc learn ミナ 魔術 1");
    let magic = last_seq(&t);
    run(&mut t, "alice", "/fc learn ミナ 魔術知識 1");
    let lore = last_seq(&t);
    let why = refused(&mut t, "alice", &format!("/undo #{magic}"));
    assert!(
        why.contains(&format!("#{lore}")) && why.contains("prerequisite or restricting skill"),
        "{why}"
    );
    // The GM may void the later line, after which the earlier one can be undone.
    run(&mut t, "gm", &format!("/void {lore}"));
    run(&mut t, "alice", &format!("/undo #{magic}"));
    assert_eq!(
        state(&t)["characters"]["ミナ"]["skills"]["魔術"]["tp"]
            .as_i64()
            .unwrap_or(0),
        0
    );
    // The same skill raised again.
    run(&mut t, "alice", "/fc learn ミナ 接近戦 1 剣");
    let first = last_seq(&t) - 1;
    run(&mut t, "alice", "/fc learn ミナ 接近戦 2");
    let why = refused(&mut t, "alice", &format!("/undo #{first}"));
    assert!(why.contains("raised further"), "{why}");
    // Attributes: the second raise costs 20 because of the first.
    run(&mut t, "alice", "/fc raise ミナ ST");
    let st = last_seq(&t);
    run(&mut t, "alice", "/fc raise ミナ ST");
    let why = refused(&mut t, "alice", &format!("/undo #{st}"));
    assert!(
        why.contains("FC-15") && why.contains("raised again"),
        "{why}"
    );
    // XP spent out of an award: ロイ had none left before it.
    run(&mut t, "gm", "/fc xp ロイ 10");
    let award = last_seq(&t);
    run(&mut t, "bob", "/fc raise ロイ VT");
    let why = refused(&mut t, "gm", &format!("/undo #{award}"));
    assert!(why.contains("spent XP from this award"), "{why}");
}

#[test]
fn fc13_one_injury_roll_per_day() {
    // FC-13 (l.235): 「朝6時から翌朝6時までを安静に過ごすことができれば…目標ロールを
    // 行なえます」: one roll for one whole day, after it. Before the table's clock runs,
    // /fc day makes the roll for the day that ended at 6:00 of day 1, once; the clock's
    // next 6:00 rolls for day 1; once the clock runs, /fc day is refused (the roll comes
    // at 6:00, not an hour into the day it would claim).
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc damage ミナ 12"]);
    run(&mut t, "gm", "/fc day ミナ rest");
    let why = refused(&mut t, "gm", "/fc day ミナ rest");
    assert!(
        why.contains("FC-13") && why.contains("the day that ended at 6:00 of day 1"),
        "{why}"
    );
    let out = run(&mut t, "gm", "/fc time 24 rest ミナ");
    assert!(out.iter().any(|l| l.contains("1日の負傷ロール")), "{out:?}");
    run(&mut t, "gm", "/fc time 1 rest ミナ");
    let why = refused(&mut t, "gm", "/fc day ミナ rest");
    assert!(
        why.contains("FC-13") && why.contains("day 2, 7:00") && why.contains("/fc time 23"),
        "{why}"
    );
}

#[test]
fn fc5_a_specialisable_skill_named_without_a_field_is_lv_minus_2() {
    // FC-5 (l.133): 「特化スキルが設定されているスキルは、その細分化されているすべての分野
    // について、「スキルLV−2」をスキルLVとして扱う」; only a specialised field is at full LV
    // (l.138: DX5 + 1TP: 剣 and 斧 6, other weapons 4).
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char new ユキ");
    run(&mut t, "alice", "/fc create ユキ male");
    let dx = state(&t)["characters"]["ユキ"]["initial"][1]
        .as_i64()
        .expect("DX");
    run(&mut t, "alice", "/fc learn ユキ 接近戦 1 剣");
    let out = run(&mut t, "alice", "FCA+{ユキ.剣}");
    assert!(out[0].contains(&format!("(FCA+{})", dx + 1)), "{out:?}");
    let out = run(&mut t, "alice", "FCA+{ユキ.接近戦}");
    assert!(out[0].contains(&format!("(FCA+{})", dx - 1)), "{out:?}");
    // FC-9 (l.163): a skill impossible unskilled is refused naming the rule, never read
    // from a field typed in (nor sent to /char set).
    run(&mut t, "gm", "/fc skill 魔術 IQ 3 nounskilled");
    let why = refused(&mut t, "alice", "FC+{ユキ.魔術}>=10");
    assert!(why.contains("FC-9") && !why.contains("/char set"), "{why}");
    // FC-5: a skill with no fields is not specialised.
    let why = refused(&mut t, "alice", "/fc special ユキ 魔術 火");
    assert!(why.contains("not a specialisable skill"), "{why}");
}

#[test]
fn fc2_fc11_each_side_of_a_comparison_takes_its_own_weakened_penalty() {
    // FC-2 (l.50): 「あらゆる判定ロールのロール値が−2」 for the weakened character: in a
    // comparison (FC-11) on the side whose value is that character's; a side using
    // another's character is not penalised for the roller's own.
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc damage ミナ 15"]);
    let out = run(&mut t, "bob", "FC+{ロイ.DX} VS FC+{ミナ.DX}");
    assert!(out[0].contains("ミナは衰弱: 右のロール値−2"), "{out:?}");
    assert!(!out[0].contains("ミナは衰弱: ロール値−2"), "{out:?}");
    // fc14h (fc7 F10): with no side of alice's own, `FC+{ロイ.DX} VS FC+5` is ロイ's
    // check in disguise, bob's or the GM's to roll.
    let why = refused(&mut t, "alice", "FC+{ロイ.DX} VS FC+5");
    assert!(why.contains("no side of this comparison is yours"), "{why}");
    let out = run(&mut t, "alice", "FC+{ミナ.DX} VS FC+5");
    assert!(out[0].contains("ミナは衰弱: ロール値−2"), "{out:?}");
    // FC-11 compares two: a third side is refused, not dropped.
    let why = refused(&mut t, "alice", "FC+5 VS FC+5 VS FC+5");
    assert!(why.contains("FC-11") && why.contains("two"), "{why}");
}

#[test]
fn fc7_the_hand_is_chosen_once() {
    // FC-7 (l.95): the player picks right or left when making the character; later the
    // GM alone may change it.
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/fc hand ミナ 右");
    let why = refused(&mut t, "alice", "/fc hand ミナ 左");
    assert!(why.contains("FC-7") && why.contains("only the GM"), "{why}");
    run(&mut t, "gm", "/fc hand ミナ 左");
}

#[test]
fn fc5_a_skill_definition_says_its_fields_and_who_holds_it() {
    // FC-5 (l.131–138): specialisable fields and the XP of each further one are the
    // skill's data; the log says them, and redefining a held skill says whom it moves.
    let mut t = table([3; 32]);
    let out = run(&mut t, "gm", "/fc skill 料理 IQ 1 fields=和食,洋食 cost=2");
    assert!(out[0].contains("特化: 和食・洋食（追加2点）"), "{out:?}");
    let out = run(&mut t, "gm", "/fc skills");
    assert!(
        out[0].contains("【料理】IQ 専門性1 特化: 和食・洋食（2点）"),
        "{out:?}"
    );
    run(&mut t, "alice", "/char new ユキ");
    run(&mut t, "alice", "/fc create ユキ male");
    run(&mut t, "alice", "/fc learn ユキ 料理 1 和食");
    let out = run(&mut t, "gm", "/fc skill 料理 IQ 2 fields=和食,洋食 cost=2");
    assert!(out.iter().any(|l| l.contains("ユキ（1TP）")), "{out:?}");
    // An unknown key in loaded data is refused, not ignored.
    let why = refused(
        &mut t,
        "gm",
        r#"/fc load {"skill":[{"name":"裁縫","base":"DX","expertise":1,"foo":3}]}"#,
    );
    assert!(why.contains("foo"), "{why}");
}

#[test]
fn fc1_fc4_an_approval_names_what_the_rules_could_not_have_made() {
    // FC-1 (l.37 「能力値は「3〜7」の範囲に収まるはず」), FC-4 (l.68 starting XP 15 +
    // extra), FC-5 (skills cost XP): /fc approve of a sheet that breaks them is refused
    // with the list; the GM may approve it knowingly (force), and the log says what.
    let mut t = table([3; 32]);
    run(&mut t, "bob", "/char set ロイ DX 99 xp 10 スキル.接近戦 9");
    let why = refused(&mut t, "gm", "/fc approve ロイ");
    for part in [
        "FC-1: DX 99 is outside the initial range 3..7",
        "FC-4: XP earned 10 cannot be below the starting XP (15 + extra 0)",
        "the skills cost 90 XP but 10 was spent",
        "/fc approve ロイ force",
    ] {
        assert!(why.contains(part), "{part}: {why}");
    }
    // The old record stands meanwhile: DX 5.
    let out = run(&mut t, "bob", "FC+{DX}");
    assert!(out[0].starts_with("(FC+5)"), "{out:?}");
    let out = run(&mut t, "gm", "/fc approve ロイ force");
    assert!(
        out[0].contains("ルール外を承知で承認") && out[0].contains("DX 99"),
        "{out:?}"
    );
}

#[test]
fn fc13_the_morning_comes_for_every_character() {
    // FC-13 (l.218 missed meals, l.235 the day's injury roll): a span the GM gives to
    // some characters that reaches 6:00 ends the day for the others too (they ate
    // nothing: 3 missed; ロイ injured rolls, not stated at rest).
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc damage ロイ 2"]);
    let out = run(&mut t, "gm", "/fc time 24 rest ミナ");
    assert!(
        out.iter()
            .any(|l| l.starts_with("ロイ: 朝6時、1日の食事3回のうち0回、3食抜いた")),
        "{out:?}"
    );
    // l.235 「一日を安静に過ごせなかったとしても、この目標ロールは行なえますが、ロール値が
    // −4」: ロイ was never stated at rest, so the day is not one spent at rest.
    assert!(
        out.iter()
            .any(|l| l.starts_with("ロイ: 1日目 6:00〜2日目 6:00: 24時間経過（安静の指定なし）")),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("ロイ: 1日の負傷ロール") && l.contains("安静でない−4")),
        "{out:?}"
    );
    assert_eq!(state(&t)["characters"]["ロイ"]["hungry"], true);
    // Within a day, only the named characters' lines.
    let out = run(&mut t, "gm", "/fc time 2 rest ミナ");
    assert!(!out.iter().any(|l| l.starts_with("ロイ")), "{out:?}");
}

#[test]
fn fc2_fc11_a_bare_reference_on_the_right_is_the_rollers_side() {
    // FC-2 (l.50) with FC-11: `FC+5 VS FC+{剣}` typed by ミナ's player compares a fixed
    // base 5 with ミナ's own 剣: ミナ's −2 goes to the right side, not to the 5.
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc damage ミナ 15"]);
    // DX 5 on the right: 5 − 2 = 3.
    let out = run(&mut t, "alice", "FC+5 VS FC+{DX}");
    assert!(out[0].starts_with("(FC+5 VS FC+3)"), "{out:?}");
    assert!(out[0].contains("ミナは衰弱: 右のロール値−2"), "{out:?}");
    // FC-9: with no character to read it from, a skill reference is refused.
    let why = refused(&mut t, "gm", "FC+{剣}>=10");
    assert!(
        why.contains("FC-9") && why.contains("no character"),
        "{why}"
    );
}

#[test]
fn fc15_lowering_by_nothing_is_refused_and_a_lost_line_is_reported() {
    // FC-15 (l.272: a lowered attribute is won back for 5 XP): /fc lose by 0 is refused,
    // not read as 1; a loss that moves the lines past the damage reports the new state
    // (FC-2), and an attribute below 1 is pointed out.
    let mut t = table([3; 32]);
    let why = refused(&mut t, "gm", "/fc lose ミナ VT 0");
    assert!(why.contains("FC-15") && why.contains("1 or more"), "{why}");
    gm(&mut t, &["/fc damage ミナ 12"]);
    // ST 5 VT 5: weakened line 15; ST 3: 11 ≤ 12.
    let out = run(&mut t, "gm", "/fc lose ミナ ST 2");
    assert!(
        out[0].contains("ST −2（低下、現在3）") && out[0].contains("衰弱（ロール値−2）に達した"),
        "{out:?}"
    );
    let out = run(&mut t, "gm", "/fc lose ミナ ST 3");
    assert!(out[0].contains("能力値が1未満"), "{out:?}");
}

#[test]
fn fc15_one_interlude_at_a_time_and_full_width_attributes() {
    // FC-15 (l.262): XP is spent in the interlude between scenarios; a second start
    // (which would renew one_step_per_interlude's step) or an end with none open is
    // refused. Attributes typed full-width read as ASCII.
    let mut t = table([3; 32]);
    let why = refused(&mut t, "gm", "/fc interlude end");
    assert!(
        why.contains("FC-15") && why.contains("no interlude"),
        "{why}"
    );
    run(&mut t, "gm", "/fc interlude start");
    let why = refused(&mut t, "gm", "/fc interlude start");
    assert!(why.contains("already open"), "{why}");
    run(&mut t, "gm", "/fc xp ミナ 10");
    let out = run(&mut t, "alice", "/fc raise ミナ ＳＴ");
    assert!(out[0].contains("ST 5→6"), "{out:?}");
}

// ---- Fourth play-through (fc4) and what was left open (fc1415d) -------------------------

#[test]
fn fc13_a_rest_across_6_00_stops_recovering_once_the_missed_meals_make_it_hungry() {
    // FC-13 (l.218): 「1日に3回の食事を摂れなかった場合は、1食抜かすごとに1点疲労します。
    // また、その後、十分な食事を摂るまでは、一切の疲労が回復しません(=空腹状態)」: a rest
    // that runs past 6:00 recovers up to 6:00 only; there the missed meals cost fatigue
    // and hunger, and the hours after recover nothing. l.222: the 6 hours of sleep's
    // extra recovery count from the first hour lain down, across 6:00.
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc time 6 rest"]);
    run(&mut t, "alice", "/fc meal ミナ");
    gm(&mut t, &["/fc time 14 rest", "/fc fatigue ミナ 20"]);
    // Day 1, 2:00 → 14:00 lying: 2:00–6:00 is 4 h × 2 = 8; at 6:00 one meal of three
    // eaten: +2 and hungry; 6:00–14:00 nothing.
    let out = run(&mut t, "gm", "/fc time 12 lying ミナ");
    assert!(
        out.iter()
            .any(|l| l.starts_with("ミナ: 1日目 翌2:00〜2日目 6:00: 4時間横になって休む、疲労−8")),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.contains("1日の食事3回のうち1回、2食抜いた") && l.contains("疲労+2")),
        "{out:?}"
    );
    assert!(
        out.iter().any(|l| l
            .starts_with("ミナ: 2日目 6:00〜2日目 14:00: 8時間横になって休む、疲労−0")
            && l.contains("空腹のため疲労は回復しない")),
        "{out:?}"
    );
    assert_eq!(state(&t)["characters"]["ミナ"]["fatigue"], 14);
    // Fed, the rest recovers again: not hungry, 2 h lying are no longer within the first
    // 6 hours of a lying rest only if it continued; a new rest starts its own count.
    run(&mut t, "alice", "/fc meal ミナ");
    let out = run(&mut t, "gm", "/fc time 2 lying ミナ");
    assert!(out[0].contains("疲労−4"), "{out:?}");
}

#[test]
fn fc13_a_day_has_three_meals_eaten_or_missed() {
    // FC-13 (l.218) 「1日に3回の食事」: the meals missed (/fc miss) and eaten count toward
    // the day's 3; more is refused, and the day's end charges only the meals neither
    // eaten nor already missed.
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc miss ミナ 2"]);
    run(&mut t, "alice", "/fc meal ミナ");
    let why = refused(&mut t, "gm", "/fc miss ミナ 1");
    assert!(
        why.contains("FC-13") && why.contains("has eaten 1 and missed 2 today"),
        "{why}"
    );
    gm(&mut t, &["/fc miss ロイ 1"]);
    let out = run(&mut t, "gm", "/fc time 24 rest");
    // ミナ: 1 eaten + 2 missed: nothing more. ロイ: 1 missed, 2 more at 6:00.
    assert!(
        !out.iter().any(|l| l.starts_with("ミナ: 朝6時、1日の食事")),
        "{out:?}"
    );
    assert!(
        out.iter().any(|l| l.starts_with("ロイ: 朝6時")
            && l.contains("抜いたと記録済み1回")
            && l.contains("2食抜いた")),
        "{out:?}"
    );
    // The next day has its own 3.
    gm(&mut t, &["/fc miss ミナ 3"]);
}

#[test]
fn fc13_the_clock_runs_for_characters_not_named() {
    // FC-13 (l.217) 「前回の食事から5時間以上経過していなければなりません」: the clock is
    // the table's; hours the GM gives some characters pass for the others too (silently,
    // the clock's line naming them), so a meal 6 hours later recovers. They were not
    // stated at rest (l.235), so the day's injury roll is at −4.
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc fatigue ミナ 2"]);
    run(&mut t, "alice", "/fc meal ミナ");
    run(&mut t, "bob", "/fc meal ロイ");
    let out = run(&mut t, "gm", "/fc time 6 active ロイ");
    assert!(!out.iter().any(|l| l.starts_with("ミナ")), "{out:?}");
    assert!(
        out.iter()
            .any(|l| l.contains("1日目 12:00") && l.contains("ミナ: 安静の指定なし")),
        "{out:?}"
    );
    let out = run(&mut t, "alice", "/fc meal ミナ");
    assert!(out[0].contains("食事、疲労−1"), "{out:?}");
    assert_eq!(state(&t)["characters"]["ミナ"]["active_today"], true);
}

#[test]
fn fc2_fc11_the_rollers_own_character_named_on_the_right_takes_its_penalty_there() {
    // FC-2 (l.50) 「累積ダメージが衰弱ラインのHPに到達した瞬間から、あらゆる判定ロールの
    // ロール値が−2」 is the weakened character's: `FC+5 VS FC+{ミナ.DX}` typed by ミナ's
    // player puts ミナ on the right; the 5 is the other party's and keeps its value.
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc damage ミナ 15"]);
    let out = run(&mut t, "alice", "FC+5 VS FC+{ミナ.DX}");
    assert!(out[0].starts_with("(FC+5 VS FC+3)"), "{out:?}");
    assert!(!out[0].contains("ミナは衰弱: ロール値−2"), "{out:?}");
    // FC-9: a bare `{剣}` on the right side reads the player's one character, as on the
    // left (l.163 unskilled: DX 5 ÷ 2 = 2), then −2 for ミナ's weakness: base 0.
    let out = run(&mut t, "alice", "FC+5 VS FC+{剣}");
    assert!(out[0].starts_with("(FC+5 VS FC)"), "{out:?}");
    assert!(out[0].contains("ミナは衰弱: 右のロール値−2"), "{out:?}");
}

/// A refusal in Japanese (a table's default), checking that it changed nothing.
fn refused_ja(t: &mut Table, who: &str, line: &str) -> String {
    let before = t.events().len();
    let err = t
        .exec(who, line)
        .expect_err(&format!("{line} should be refused"))
        .render(taku_dice::Lang::Ja);
    assert_eq!(t.events().len(), before, "a refused line appended events");
    err
}

#[test]
fn fc13_a_rest_is_the_tables_time_and_six_hours_lying_recover_an_injury() {
    // FC-13: rest is time passing (l.214 「連続1時間の休憩」), on the table's clock: a
    // /fc rest of 24 hours reaches 6:00 and the day ends (l.218 missed meals). l.233
    // 「連続6時間の睡眠によって、1日に1点だけ回復」 with l.222's counting of sleep
    // (「最初の入眠までの1時間を含む」): 6 hours lying recover 1 injury.
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc damage ミナ 3"]);
    let out = run(&mut t, "gm", "/fc rest ミナ 6 lying");
    assert!(out[0].contains("睡眠で負傷−1"), "{out:?}");
    let out = run(&mut t, "gm", "/fc time");
    assert!(out[0].contains("1日目 12:00"), "{out:?}");
    let out = run(&mut t, "gm", "/fc rest ミナ 24");
    assert!(
        out.iter()
            .any(|l| l.starts_with("ミナ: 朝6時、1日の食事3回のうち0回、3食抜いた")),
        "{out:?}"
    );
    assert!(refused(&mut t, "alice", "/fc rest ミナ 1").contains("only the GM"));
}

#[test]
fn fc13_the_first_meal_has_no_earlier_one_to_wait_for() {
    // FC-13 (l.217) 「前回の食事から5時間以上経過していなければなりません」: with no earlier
    // meal recorded there is nothing to wait for.
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc fatigue ミナ 5"]);
    let out = run(&mut t, "alice", "/fc meal ミナ");
    assert!(out[0].contains("前回の食事の記録なし）、疲労−1"), "{out:?}");
    let out = run(&mut t, "alice", "/fc meal ミナ");
    assert!(out[0].contains("5時間未満、回復なし"), "{out:?}");
}

#[test]
fn fc3_fc4_fc1_an_item_worn_twice_extra_xp_of_nothing_and_a_voided_creation() {
    // FC-3 (l.60 「装備品の移動力修正がマイナスされます」): each item worn once.
    let mut t = table([3; 32]);
    let why = refused(&mut t, "alice", "/fc equip ミナ 例鎖帷子 例鎖帷子");
    assert!(
        why.contains("FC-3") && why.contains("listed twice"),
        "{why}"
    );
    // FC-4 (l.69–70): extra starting XP is XP: 0 is no award.
    run(&mut t, "alice", "/char new ユキ");
    run(&mut t, "alice", "/fc create ユキ female");
    let why = refused(&mut t, "gm", "/fc extra ユキ 0 知覚");
    assert!(why.contains("FC-4") && why.contains("1 or more"), "{why}");
    // FC-1 (l.38): rolling again after the GM voided the creation is a reroll, which
    // needs the GM's consent: the player is refused, the GM may roll it.
    let created = t.events().last().expect("the creation").seq;
    run(&mut t, "gm", &format!("/void {created}"));
    let why = refused(&mut t, "alice", "/fc create ユキ female");
    assert!(
        why.contains("FC-1") && why.contains("needs the GM's consent"),
        "{why}"
    );
    let out = run(&mut t, "gm", "/fc create ユキ female");
    assert!(
        out[0].contains("無効化された作成をGMの同意で振り直し"),
        "{out:?}"
    );
}

#[test]
fn fc3_fc5_loaded_data_is_refused_in_japanese_and_a_definition_says_all_it_sets() {
    // FC-3/FC-5: the GM's data; every refusal in Japanese and English.
    let mut t = table([3; 32]);
    let ja = refused_ja(
        &mut t,
        "gm",
        r#"/fc load {"skill":[{"name":"裁縫","base":"DX","expertise":1,"bogus":3}]}"#,
    );
    assert!(ja.contains("未知のキー「bogus」"), "{ja}");
    assert!(!ja.contains("unknown field"), "{ja}");
    let ja = refused_ja(&mut t, "gm", "/fc load skill = [{name = ");
    assert!(ja.contains("TOMLとして読めません"), "{ja}");
    // FC-5 (l.117–129): the cap, restricting and prerequisite skills are the definition's.
    let out = run(
        &mut t,
        "gm",
        "/fc skill 占い IQ 2 cap limit=魔術 requires=魔術 nounskilled",
    );
    assert!(
        out[0].contains("総合LVキャップ 制限【魔術】 前提【魔術】")
            && out[0].contains("未習得では判定不可"),
        "{out:?}"
    );
    // Redefining a shipped skill says what it replaces.
    let out = run(&mut t, "gm", "/fc skill 知覚 DX 1");
    assert!(
        out.iter()
            .any(|l| l.contains("定義を置き換えます（以前: IQ")),
        "{out:?}"
    );
}

#[test]
fn fc1_fc4_a_partial_sheet_is_no_character_and_typed_numbers_are_read_or_refused() {
    // FC-1 (l.37 「能力値は「3〜7」の範囲に収まるはず」): a sheet with only DX 99 makes no
    // Four Card character; its typed DX is not a roll's base.
    let mut t = table([3; 32]);
    run(&mut t, "bob", "/char new ロイ2");
    run(&mut t, "bob", "/char set ロイ2 DX 99 剣 50");
    let why = refused(&mut t, "bob", "FC+{ロイ2.DX}>=10");
    assert!(
        why.contains("FC-1")
            && why.contains("not a Four Card character")
            && why.contains("IQ ST WP VT"),
        "{why}"
    );
    let why = refused(&mut t, "bob", "FC+{ロイ2.剣}");
    assert!(why.contains("not a Four Card character"), "{why}");
    let why = refused(&mut t, "gm", "/fc approve ロイ2");
    assert!(why.contains("lacks IQ ST WP VT"), "{why}");
    // Full-width digits are read as numbers (and wait for the GM like any change);
    // something that is no number is refused.
    run(&mut t, "alice", "/char set ミナ DX ７");
    let out = run(&mut t, "gm", "/fc approve ミナ");
    assert!(out[0].contains("DX7"), "{out:?}");
    let why = refused(&mut t, "alice", "/char set ミナ ST five");
    assert!(why.contains("FC-1/FC-4: ST is a whole number"), "{why}");
    // FC-4 (l.68): only starting XP left over is lost; 500 XP spent on nothing is not.
    run(&mut t, "bob", "/char set ロイ xp 500 unspent_xp 0");
    let why = refused(&mut t, "gm", "/fc approve ロイ");
    assert!(
        why.contains("500 of the 500 XP spent shows in no skill"),
        "{why}"
    );
}

#[test]
fn fc2_fc9_a_single_check_of_anothers_character_is_its_owners() {
    // FC-2 (l.50): the weakened −2 is the character's own, on every roll of it; a single
    // check read from another's character is that character's roll: its owner's or the
    // GM's to make.
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc damage ミナ 15"]);
    let why = refused(&mut t, "bob", "FC+{ミナ.DX}");
    assert!(why.contains("ミナ is alice's character"), "{why}");
    let out = run(&mut t, "gm", "FC+{ミナ.DX}");
    assert!(out[0].starts_with("(FC+3)"), "{out:?}");
    // FC-9: with several characters, a bare `{剣}` says so.
    run(&mut t, "alice", "/char new ユキ");
    run(&mut t, "alice", "/fc create ユキ female");
    let why = refused(&mut t, "alice", "FC+{剣}");
    assert!(why.contains("you have several characters"), "{why}");
}

#[test]
fn fc13_fc15_fc5_fc14_a_gm_void_waits_for_the_lines_that_rest_on_it() {
    // The GM's /void takes a line out of the log; a later line that rests on it is voided
    // first, as with /undo (fc5: the first of two raises, a prerequisite, an award spent,
    // an interlude's opening, a /fc time a later one ran on from).
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char set ミナ xp 200 unspent_xp 185");
    run(&mut t, "gm", "/fc approve ミナ");
    // FC-14/FC-15: ロイ (15 XP, none left) is awarded 10 and spends it on ST.
    let award = t.next_seq();
    run(&mut t, "gm", "/fc xp ロイ 10");
    let open = t.next_seq();
    gm(&mut t, &["/fc interlude start"]);
    run(&mut t, "bob", "/fc raise ロイ ST");
    let why = refused(&mut t, "gm", &format!("/void {award}"));
    assert!(
        why.contains("FC-14/FC-15") && why.contains("spent XP"),
        "{why}"
    );
    // FC-15 (l.264ff: 10 XP, then 20 for the second raise): the first raise is under
    // the second's price.
    let first = t.next_seq();
    run(&mut t, "alice", "/fc raise ミナ ST");
    let second = t.next_seq();
    run(&mut t, "alice", "/fc raise ミナ ST");
    let why = refused(&mut t, "gm", &format!("/void {first}"));
    assert!(
        why.contains("FC-15") && why.contains(&format!("/void {second}")),
        "{why}"
    );
    // FC-5 (l.73, 前提): 魔術知識 is learned on 魔術.
    let magic = t.next_seq();
    run(&mut t, "alice", "/fc learn ミナ 魔術 1");
    run(&mut t, "alice", "/fc learn ミナ 魔術知識 1");
    let why = refused(&mut t, "gm", &format!("/void {magic}"));
    assert!(why.contains("FC-5") && why.contains("魔術知識"), "{why}");
    // FC-5: a skill learned under the GM's definition of it.
    let def = t.next_seq();
    run(&mut t, "gm", "/fc skill 占い IQ 1");
    run(&mut t, "alice", "/fc learn ミナ 占い 1");
    let why = refused(&mut t, "gm", &format!("/void {def}"));
    assert!(
        why.contains("FC-5") && why.contains("learned under this definition"),
        "{why}"
    );
    // FC-15 (l.262 「幕間」): what was bought in the interlude rests on its opening,
    // for the GM's /undo as for /void.
    let why = refused(&mut t, "gm", &format!("/void {open}"));
    assert!(
        why.contains("FC-15") && why.contains("in this interlude"),
        "{why}"
    );
    let why = refused(&mut t, "gm", &format!("/undo #{open}"));
    assert!(why.contains("FC-15"), "{why}");
    // Voided from the last back, each goes through and the record follows.
    run(&mut t, "gm", &format!("/void {second}"));
    run(&mut t, "gm", &format!("/void {first}"));
    assert!(
        sheet(&t, "ミナ").contains("ST（筋力）: 5"),
        "{}",
        sheet(&t, "ミナ")
    );
    // FC-13: a later /fc time ran on from the clock an earlier one left.
    let early = t.next_seq();
    run(&mut t, "gm", "/fc time 3");
    let late = t.next_seq();
    run(&mut t, "gm", "/fc time 4");
    let why = refused(&mut t, "gm", &format!("/void {early}"));
    assert!(
        why.contains("FC-13") && why.contains(&format!("/void {late}")),
        "{why}"
    );
    run(&mut t, "gm", &format!("/void {late}"));
    run(&mut t, "gm", &format!("/void {early}"));
    assert_eq!(state(&t)["clock"], 0);
}

#[test]
fn fc2_fc5_fc9_the_dead_do_not_grow_the_fallen_take_no_side_and_typed_skills_are_not_read() {
    let mut t = table([3; 32]);
    // FC-5 (l.68–74: skills are bought with XP), FC-9: a key typed in with /char set
    // is not a skill of a character the rules keep; an FC check does not read it.
    run(&mut t, "alice", "/char set ミナ 料理 50");
    let why = refused(&mut t, "alice", "FC+{ミナ.料理}>=20");
    assert!(
        why.contains("FC-5/FC-9") && why.contains("/fc learn"),
        "{why}"
    );
    let why = refused(&mut t, "alice", "FC+{料理}");
    assert!(why.contains("neither an attribute nor a skill"), "{why}");
    // An attribute and a derived value are still read from the record.
    let out = run(&mut t, "alice", "FC+{ミナ.DX}");
    assert!(out[0].starts_with("(FC+5)"), "{out:?}");
    // FC-13 (l.217): no earlier meal recorded, and no fatigue: the log says so.
    let out = run(&mut t, "alice", "/fc meal ミナ");
    assert!(out[0].contains("前回の食事の記録なし"), "{out:?}");
    // FC-2 (l.53, 昏倒ライン 25 for ST/WP/VT 5): an unconscious character is no side of
    // a comparison, on the right as on the left.
    gm(&mut t, &["/fc damage ロイ 25"]);
    let why = refused(&mut t, "alice", "FC+{ミナ.DX} VS FC+{ロイ.DX}");
    assert!(
        why.contains("FC-2") && why.contains("ロイ is unconscious"),
        "{why}"
    );
    // FC-2 (l.55, 死亡ライン 35): the dead neither grow nor eat; the GM's heal is how one
    // comes back.
    gm(
        &mut t,
        &[
            "/fc damage ロイ 10",
            "/fc xp ロイ 30",
            "/fc interlude start",
        ],
    );
    let why = refused(&mut t, "bob", "/fc raise ロイ ST");
    assert!(
        why.contains("FC-2") && why.contains("ロイ is dead"),
        "{why}"
    );
    let why = refused(&mut t, "bob", "/fc learn ロイ 知覚 1");
    assert!(why.contains("cannot grow"), "{why}");
    let why = refused(&mut t, "bob", "/fc meal ロイ");
    assert!(why.contains("cannot eat"), "{why}");
    let why = refused(&mut t, "alice", "FC+{ミナ.DX} VS FC+{ロイ.DX}");
    assert!(why.contains("ロイ is dead"), "{why}");
}

#[test]
fn fc13_fc2_a_dead_characters_day_still_ends_at_6() {
    // FC-13 (l.218): a day, 6:00 to 6:00, has 3 meals; FC-2 (l.55): the dead do not eat.
    // ロイ eats twice on day 1 and dies; day 1 still ends at 6:00, so after the GM's heal
    // the day-2 count holds only the meal of day 2.
    let mut t = table([3; 32]);
    run(&mut t, "bob", "/fc meal ロイ");
    gm(&mut t, &["/fc time 6 active"]);
    run(&mut t, "bob", "/fc meal ロイ");
    gm(&mut t, &["/fc damage ロイ 40"]);
    let out = run(&mut t, "gm", "/fc time 20 lying").join("\n");
    assert!(
        out.contains("ロイ: 朝6時、新しい1日（FC-13）。死亡しているので"),
        "{out}"
    );
    assert!(!out.contains("ロイ: 睡眠"), "the dead do not rest: {out}");
    gm(&mut t, &["/fc heal ロイ injury 30"]);
    run(&mut t, "bob", "/fc meal ロイ");
    let out = run(&mut t, "gm", "/fc time 24 active").join("\n");
    assert!(
        out.contains("1日の食事3回のうち1回、2食抜いた"),
        "day 2 counts its own meal only: {out}"
    );
}

#[test]
fn fc9_a_character_name_with_a_dot_is_refused() {
    // FC-9: `{CHARACTER.KEY}` names the character before the first `.`; `ユキ.剣` could
    // never be named and would shadow `{ユキ.剣}`.
    let mut t = table([3; 32]);
    let why = refused(&mut t, "bob", "/char new ミナ.剣");
    assert!(why.contains("'.'") && why.contains("reference"), "{why}");
    let why = refused(&mut t, "bob", "/char new a{b}");
    assert!(why.contains("'{'"), "{why}");
}

#[test]
fn fc9_a_name_in_another_width_or_case_is_pointed_to_the_character() {
    // FC-9: `{CHARACTER.KEY}` names are exact; `{ﾐﾅ.知覚}`-like spellings are answered
    // with the character meant (fc5: 「キャラクターがいません」 for `{Ｋｅｎ.魔術}`).
    let mut t = table([3; 32]);
    run(&mut t, "bob", "/char new Ken");
    run(&mut t, "bob", "/fc create Ken male");
    let why = refused(&mut t, "bob", "FC+{Ｋｅｎ.知覚}");
    assert!(
        why.contains("no character 'Ｋｅｎ'") && why.contains("{Ken.知覚}"),
        "{why}"
    );
    let why = refused(&mut t, "bob", "FC+{ken.知覚}");
    assert!(why.contains("{Ken.知覚}"), "{why}");
}

// ---- fc14h: the fc7 play-through's findings ------------------------------------------------

/// The first `n` d6 the table's source gives at `seq` under `seed`.
fn draws_at(seed: [u8; 32], seq: u64, n: usize) -> Vec<u32> {
    let mut s = ChaChaSource::from_key(secret::dice_key(&seed, seq));
    (0..n).map(|_| s.roll(6).expect("d6")).collect()
}

/// A seed whose first four d6 at `seq` (left pair, right pair) satisfy `want`.
fn seed_where4(seq: u64, want: fn(u32, u32) -> bool) -> [u8; 32] {
    (0u32..)
        .map(|n| {
            let mut seed = [0u8; 32];
            seed[..4].copy_from_slice(&n.to_le_bytes());
            seed
        })
        .find(|seed| {
            let d = draws_at(*seed, seq, 4);
            want(d[0] + d[1], d[2] + d[3])
        })
        .expect("some seed")
}

#[test]
fn fc14h_f9_a_bare_reference_on_the_right_reads_the_rollers_character_as_on_the_left() {
    // FC-2 (l.50) 「キャラクターの累積ダメージが衰弱ラインのHPに到達した瞬間から、あらゆる
    // 判定ロールのロール値が−2されます」; l.53 「累積ダメージがこのラインに到達すると、
    // キャラクターは意識を失います」; FC-9 (l.155) 「あらゆる判定において、自動的失敗を
    // してしまうと1点疲労します」. ミナ (alice's) on the right as a bare `{DX}`, ロイ
    // (bob's) named on the left.
    let probe = {
        let mut t = table([0; 32]);
        gm(&mut t, &["/fc damage ミナ 15"]);
        t.next_seq()
    };
    // Left dice 7, right dice 2: ミナ's automatic failure.
    let seed = seed_where4(probe, |l, r| l == 7 && r == 2);
    let mut t = table(seed);
    gm(&mut t, &["/fc damage ミナ 15"]);
    let out = run(&mut t, "alice", "FC+{ロイ.DX} VS FC+{DX}");
    assert!(out[0].starts_with("(FC+5 VS FC+3)"), "{out:?}");
    assert!(out[0].contains("ミナは衰弱: 右のロール値−2"), "{out:?}");
    assert!(
        out.iter().any(|l| l.contains("ミナ: 自動的失敗で疲労+1")),
        "{out:?}"
    );
    assert_eq!(state(&t)["characters"]["ミナ"]["fatigue"], 1);
    // Unconscious (昏倒ライン 25): refused as `FC+{DX} VS FC+{ロイ.DX}` is.
    gm(&mut t, &["/fc damage ミナ 9"]);
    for line in ["FC+{ロイ.DX} VS FC+{DX}", "FC+{DX} VS FC+{ロイ.DX}"] {
        let why = refused(&mut t, "alice", line);
        assert!(why.contains("ミナ is unconscious"), "{line}: {why}");
    }
}

#[test]
fn fc14h_f10_a_player_rolls_anothers_character_only_against_her_own_and_openly() {
    // FC-11 (l.196) 「複数のロール値を比較しあう判定ロール」: a comparison is the roller's
    // character against another; with no side of her own, alice's `VS` is ロイ's check.
    let mut t = table([3; 32]);
    for line in [
        "FC+{ロイ.DX} VS 10",
        "FC+{ロイ.DX} VS FC+3",
        "FC+{ロイ.DX} VS FC+{ロイ.IQ}",
    ] {
        let why = refused(&mut t, "alice", line);
        assert!(
            why.contains("ロイ is bob's character")
                && why.contains("no side of this comparison is yours"),
            "{line}: {why}"
        );
    }
    // A secret roll of ロイ's side would be hidden from bob.
    let why = refused(&mut t, "alice", "SFC+{DX} VS FC+{ロイ.DX}");
    assert!(why.contains("secret roll is hidden from bob"), "{why}");
    // The GM may; bob may; alice against her own ミナ may.
    run(&mut t, "gm", "FC+{ロイ.DX} VS 10");
    run(&mut t, "bob", "SFC+{ロイ.DX} VS 10");
    run(&mut t, "alice", "FC+{DX} VS FC+{ロイ.DX}");
}

#[test]
fn fc14h_f10_the_other_sides_automatic_failure_is_recorded_on_its_character() {
    // FC-9 (l.155) 「あらゆる判定において、自動的失敗をしてしまうと1点疲労します」: ロイ's
    // side rolled 2 in alice's comparison: ロイ pays the fatigue the line prints.
    let probe = table([0; 32]).next_seq();
    let seed = seed_where4(probe, |l, r| l == 2 && r == 7);
    let mut t = table(seed);
    let out = run(&mut t, "alice", "FC+{ロイ.DX} VS FC+{ミナ.DX}");
    assert!(out[0].contains("自動的失敗"), "{out:?}");
    assert!(
        out.iter().any(|l| l.contains("ロイ: 自動的失敗で疲労+1")),
        "{out:?}"
    );
    assert_eq!(state(&t)["characters"]["ロイ"]["fatigue"], 1);
    assert_eq!(state(&t)["characters"]["ミナ"]["fatigue"], 0);
}

#[test]
fn fc14h_f2_the_gm_rolls_what_befalls_an_unconscious_character_the_dead_roll_nothing() {
    // l.53 「累積ダメージがこのラインに到達すると、キャラクターは意識を失います」; l.187
    // 「毒を受けてしまった場合などに、VT抵抗を試みることがあります」: the unconscious do not
    // act, but still resist; the refusal's "the GM rolls it" holds.
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc damage ミナ 25"]);
    let why = refused(&mut t, "alice", "FC+{VT抵抗}>=10");
    assert!(
        why.contains("ミナ is unconscious") && why.contains("GM"),
        "{why}"
    );
    // VT 5 + 総合LV 1 = 6, −2 (weakened and beyond).
    let out = run(&mut t, "gm", "FC+{ミナ.VT抵抗}>=10");
    assert!(out[0].starts_with("(FC+4>=10)"), "{out:?}");
    // l.56 死亡: no check at all, whoever types it, and no "the GM rolls it".
    gm(&mut t, &["/fc damage ミナ 10"]);
    for who in ["alice", "gm"] {
        let why = refused(&mut t, who, "FC+{ミナ.VT抵抗}>=10");
        assert!(
            why.contains("ミナ is dead") && !why.contains("GM's to roll"),
            "{why}"
        );
    }
}

#[test]
fn fc14h_f4_a_skill_field_or_hp_typed_in_with_char_set_is_refused() {
    // FC-5 (l.75) 「「能力値+TP」がスキルLVとなります」; l.163 「スキルがなければ、判定
    // そのものが不可能な行動もある…魔法を使ったり」: a skill's LV is the record's, never a
    // typed number (`2D6+{魔術}` read 20 for a skill never learned). FC-2 (l.47): HP are
    // three lines.
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char new ユキ");
    run(&mut t, "alice", "/fc create ユキ female");
    for who in ["ユキ", "ミナ"] {
        for (key, said) in [
            ("知覚", "the skill 【知覚】"),
            ("魔術", "the skill 【魔術】"),
            ("剣", "a field of 【接近戦】"),
        ] {
            let why = refused(&mut t, "alice", &format!("/char set {who} {key} 20"));
            assert!(
                why.contains(said) && why.contains("/fc learn"),
                "{who} {key}: {why}"
            );
        }
        let why = refused(&mut t, "alice", &format!("/char set {who} HP 99"));
        assert!(why.contains("HP are the weakened"), "{why}");
        refused(&mut t, "alice", &format!("/char set {who} 総合LV 9"));
    }
    // Nothing typed in, nothing read.
    let why = refused(&mut t, "alice", "2D6+{ユキ.魔術}>=10");
    assert!(!why.is_empty());
}

#[test]
fn fc14h_f15_a_name_read_two_ways_or_never_is_refused_when_defined() {
    // FC-5 (l.134) 「特化させている分野であれば、「スキルLV」そのままの値をその分野での
    // スキルLVとして扱う」: `{剣}` is one value; a second skill with a field 剣 (or a skill
    // named 剣) would make it two. A skill named IQ is read as the attribute (l.165
    // 「能力値+総合LV」), and `{a.b}` as character a.
    let mut t = table([3; 32]);
    let why = refused(&mut t, "gm", "/fc skill 剣術 DX 1 fields=剣,刀 cost=1");
    assert!(
        why.contains("【剣】 is already a field of 【接近戦】"),
        "{why}"
    );
    let why = refused(&mut t, "gm", "/fc skill 剣 DX 1");
    assert!(why.contains("a field of 【接近戦】"), "{why}");
    let why = refused(&mut t, "gm", "/fc skill 弓術 DX 1 fields=知覚");
    assert!(why.contains("the skill 【知覚】"), "{why}");
    for line in [
        "/fc skill IQ DX 1",
        "/fc skill ｄｘ DX 1",
        "/fc skill 料理 IQ 1 fields=VT抵抗",
    ] {
        let why = refused(&mut t, "gm", line);
        assert!(why.contains("named like an attribute"), "{line}: {why}");
    }
    let why = refused(&mut t, "gm", "/fc skill c.d IQ 1");
    assert!(why.contains("cannot contain '.'"), "{why}");
    let why = refused(
        &mut t,
        "gm",
        r#"/fc load {"skill":[{"name":"a.b","base":"IQ","expertise":1}]}"#,
    );
    assert!(why.contains("cannot contain '.'"), "{why}");
    let why = refused(
        &mut t,
        "gm",
        r#"/fc load {"skill":[{"name":"x","base":"IQ","expertise":1,"fields":["f"]},{"name":"y","base":"DX","expertise":1,"fields":["f"]}]}"#,
    );
    assert!(why.contains("would read two ways"), "{why}");
    // Redefining a skill with its own fields is no clash.
    run(&mut t, "gm", "/fc skill 接近戦 DX 3 fields=剣,斧 cost=2");
}

#[test]
fn fc14h_f11_loading_a_skill_says_what_it_replaces_and_whose_lv_it_changes() {
    // FC-5 (l.107) 「各スキルにとって最も重要とされる能力値が、スキルの基礎となります」:
    // moving 【知覚】 from IQ to DX changes ミナ's LV; the load says so, as /fc skill does.
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc xp ミナ 5", "/fc interlude start"]);
    run(&mut t, "alice", "/fc learn ミナ 知覚 1");
    let out = run(
        &mut t,
        "gm",
        r#"/fc load {"skill":[{"name":"知覚","base":"DX","expertise":5}]}"#,
    );
    let all = out.join("\n");
    assert!(all.contains("【知覚】DX 専門性5"), "{all}");
    assert!(
        all.contains("定義を置き換えます（以前: IQ 専門性1 → 今後: DX 専門性5）"),
        "{all}"
    );
    assert!(
        all.contains("習得しているキャラクター: ミナ（1TP）"),
        "{all}"
    );
    assert!(all.contains("すでに使った経験点は変わりません"), "{all}");
}

#[test]
fn fc14h_f5_two_lying_rests_in_a_row_are_one_nights_sleep() {
    // FC-13 (l.222) 「睡眠状態による疲労回復は、連続6時間までです(最初の入眠までの1時間を
    // 含む)。それ以上の睡眠を摂っても余分な疲労を回復させる役には立ちませんが、通常の
    // 休憩と同様に1時間ごとに1点の疲労は回復します」: 4 + 4 hours lying = 8 continuous
    // hours: −8, then −6 (14 in all, as one 8-hour rest). l.233 「連続6時間の睡眠によって、
    // 1日に1点だけ回復」: the injury comes back in the sixth hour.
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc fatigue ミナ 30", "/fc damage ミナ 3"]);
    let out = run(&mut t, "gm", "/fc rest ミナ 4 lying");
    assert!(out[0].contains("4時間横になって休む、疲労−8"), "{out:?}");
    let out = run(&mut t, "gm", "/fc time 4 lying ミナ");
    assert!(
        out[0].contains(
            "4時間横になって休む（4時間前から横になったまま続けて）、疲労−6、睡眠で負傷−1"
        ),
        "{out:?}"
    );
    assert_eq!(state(&t)["characters"]["ミナ"]["fatigue"], 16);
    // Hours not lying down (or a meal) end it: the next lying rest starts again.
    gm(&mut t, &["/fc time 1 rest ミナ"]);
    let out = run(&mut t, "gm", "/fc rest ミナ 1 lying");
    assert!(out[0].contains("1時間横になって休む、疲労−2"), "{out:?}");
    run(&mut t, "alice", "/fc meal ミナ");
    let out = run(&mut t, "gm", "/fc rest ミナ 1 lying");
    assert!(out[0].contains("1時間横になって休む、疲労−2"), "{out:?}");
}

#[test]
fn fc14h_f14_a_void_of_the_hours_or_the_meal_a_later_meal_counted_from_is_refused() {
    // FC-13 (l.217) 「食事を摂ることができれば、1点の疲労を回復できます。ただし、前回の
    // 食事から5時間以上経過していなければなりません」: the 11:00 meal recovered because
    // five hours had passed since the 6:00 one.
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc fatigue ミナ 5"]);
    run(&mut t, "alice", "/fc meal ミナ");
    let first_meal = last_seq(&t);
    let time = t.next_seq();
    gm(&mut t, &["/fc time 5 active"]);
    let out = run(&mut t, "alice", "/fc meal ミナ");
    assert!(out[0].contains("食事、疲労−1"), "{out:?}");
    let later = last_seq(&t);
    let why = refused(&mut t, "gm", &format!("/void {time}"));
    assert!(
        why.contains("FC-13") && why.contains(&format!("/void {later}")),
        "{why}"
    );
    let why = refused(&mut t, "alice", &format!("/undo #{first_meal}"));
    assert!(why.contains("counted from this meal"), "{why}");
    let why = refused(&mut t, "gm", &format!("/void {first_meal}"));
    assert!(why.contains(&format!("/void {later}")), "{why}");
    // Once the later meal is voided, the hours may go.
    run(&mut t, "gm", &format!("/void {later}"));
    run(&mut t, "gm", &format!("/void {time}"));
    // Hours the later meal did not need (it had 8 of 5) may go while it stands.
    let spare = t.next_seq();
    gm(&mut t, &["/fc time 3 active"]);
    gm(&mut t, &["/fc time 5 active"]);
    let out = run(&mut t, "alice", "/fc meal ミナ");
    assert!(out[0].contains("食事、疲労−1"), "{out:?}");
    let why = refused(&mut t, "gm", &format!("/void {spare}"));
    // Held only by the later /fc time that ran on from it, not by the meal.
    assert!(!why.contains("meal"), "{why}");
}

#[test]
fn fc14h_f8_f16_f1_f3_refusals_say_what_is_right_and_the_sheet_reads_in_english() {
    let mut t = table([3; 32]);
    // F8, FC-13 (l.239 「疲労ダメージは必ず「疲労」と表記されます」): fatigue is the GM's,
    // said so to every player, in the words of fatigue.
    for who in ["alice", "bob"] {
        let why = refused(&mut t, who, "/fc fatigue ロイ 1");
        assert!(why.contains("only the GM can give fatigue"), "{who}: {why}");
        let ja = refused_ja(&mut t, who, "/fc fatigue ロイ 1");
        assert!(
            ja.contains("疲労を与えること") && !ja.contains("ダメージ"),
            "{ja}"
        );
    }
    let why = refused(&mut t, "alice", "/fc damage ロイ 1");
    assert!(why.contains("only the GM can deal damage"), "{why}");
    // F16: the command's own form.
    for (line, form) in [
        ("/fc learn ミナ 知覚", "/fc learn ミナ 接近戦 3 剣"),
        ("/fc learn", "/fc learn ミナ 接近戦 3 剣"),
        ("/fc raise", "/fc raise ミナ ST"),
    ] {
        let why = refused_ja(&mut t, "alice", line);
        assert!(
            why.contains(&format!("使い方（例）: {form}")),
            "{line}: {why}"
        );
    }
    let why = refused(&mut t, "alice", "/fc raise");
    assert!(why.contains("usage (e.g.): /fc raise Mina ST"), "{why}");
    let why = refused_ja(&mut t, "gm", "/fc xp ミナ");
    assert!(why.contains("/fc xp ミナ 5 -1 +1"), "{why}");
    // F1, FC-1/FC-6/FC-11: the values a setting takes.
    let why = refused(&mut t, "gm", "/fc set female_modifier foo");
    assert!(why.contains("exchange (default) or clamp"), "{why}");
    let why = refused(&mut t, "gm", "/fc set total_lv_table 10:1,5:2");
    assert!(why.contains("XP rising"), "{why}");
    let out = run(&mut t, "gm", "/fc settings");
    assert!(
        out[0].contains("ほかに clamp") && out[0].contains("ほかに plain"),
        "{out:?}"
    );
    // F3, FC-3/FC-7: the English sheet in English, the modifier signed as the log has it.
    run(&mut t, "gm", "/fc equip ミナ 例革鎧");
    let en = t
        .sheet("ミナ", "alice")
        .expect("a sheet")
        .render_text(taku_dice::Lang::En);
    assert!(en.contains("(movement modifier −"), "{en}");
    assert!(!en.contains("移動力修正"), "{en}");
    let ja = sheet(&t, "ミナ");
    assert!(ja.contains("（移動力修正−"), "{ja}");
}

#[test]
fn fc14h_f6_f13_a_sheets_money_is_checked_and_the_night_is_the_days() {
    // FC-8 (l.99) 「初期キャラクターが所持している金額は、「3D6×100+1000」CPです」: at
    // most 2,800 CP with only the starting XP. FC-5 (l.142) with FC-4 (l.74): a TP out of
    // range does not hide the XP the skill costs.
    let sheet = taku_systems::four_card::sheet::Sheet::from_toml(
        "name = \"ロイ\"\nsex = \"female\"\nIQ = 5\nDX = 5\nST = 3\nWP = 7\nVT = 5\nxp = 15\nunspent_xp = 0\nmoney = 99999\n\n[skills.\"知覚\"]\ntp = 12\n",
    )
    .expect("a sheet");
    let v: Vec<String> = sheet
        .violations()
        .into_iter()
        .map(|v| format!("{} {}", v.rule, v.message_en))
        .collect();
    assert!(
        v.iter()
            .any(|l| l.starts_with("FC-8 a starting character holds")),
        "{v:?}"
    );
    assert!(
        v.iter()
            .any(|l| l.starts_with("FC-4 the skills cost 45 XP")),
        "{v:?}"
    );
    let e = taku_systems::four_card::sheet::Sheet::from_toml(
        "name = \"ロイ\"\nsex = \"female\"\nIQ = 5\nDX = 5\nST = 3\nWP = 7\nVT = 5\n[skills]\n\"知覚\" = 12\n",
    )
    .expect_err("a skill's TP alone is not a skill");
    assert!(
        e.en().contains("[skills.\"知覚\"] tp = 5") && !e.en().contains("SheetSkill"),
        "{e:?}"
    );
    // fc8 F9: the Japanese says it in Japanese, with the line, and a bare `スキル.知覚`
    // key (not TOML) or a `スキル` table gets the same form.
    assert!(e.ja().contains("[skills.\"知覚\"]"), "{e:?}");
    for (sheet, line) in [
        (
            "name = \"ロイ\"\nsex = \"female\"\nIQ = 5\nスキル.知覚 = 5\n",
            "4行目",
        ),
        (
            "name = \"ロイ\"\nsex = \"female\"\n\"スキル\".\"知覚\" = 5\n",
            "3行目",
        ),
    ] {
        let e = taku_systems::four_card::sheet::Sheet::from_toml(sheet).expect_err("no sheet");
        assert!(
            e.ja().contains(line)
                && e.ja().contains("[skills.\"知覚\"] の下に tp = 5")
                && !e.ja().contains("invalid")
                && !e.ja().contains("unknown field"),
            "{e:?}"
        );
    }
    // At a table the GM's approval lists the money too.
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char new ユキ");
    run(
        &mut t,
        "alice",
        "/char set ユキ IQ 5 DX 5 ST 5 WP 5 VT 5 money 99999",
    );
    let why = refused(&mut t, "gm", "/fc approve ユキ");
    assert!(why.contains("FC-8: a starting character holds"), "{why}");
    // FC-13 (l.235 「朝6時から翌朝6時まで」): 4:00 after 21:00 is the same day's night.
    gm(&mut t, &["/fc time 15"]);
    let out = run(&mut t, "gm", "/fc time 7");
    assert!(out.iter().any(|l| l.contains("1日目 翌4:00")), "{out:?}");
}

#[test]
fn fc15i_f7_a_malformed_check_says_what_is_wrong_and_the_right_form() {
    // fc7 F7. FC-12 (l.201–202) 「明確な目標がなく、なおかつ競争相手がいるわけでもない」
    // 「達成ロールにおいては、自動的成功・自動的失敗は起こりません」: an achievement roll
    // has no difficulty and no automatic-result switches. FC-11 (l.196)
    // 「複数のロール値を比較しあう判定ロール」: a comparison has no difficulty. Each
    // refusal says what is wrong and the right form, in the table's language, not the
    // generic "not a command", and changes nothing.
    let mut t = table([3; 32]);
    for (line, ja, en) in [
        (
            "FCA+3>=10",
            "達成ロール FCA+b には難易度も",
            "FCA+b has no difficulty",
        ),
        (
            "FCA+3#NS",
            "自動的成功・失敗もありません",
            "no automatic results",
        ),
        (
            "FC+4>=10 VS FC+2",
            "難易度のない比較ロール",
            "a comparison roll without a difficulty",
        ),
        (
            "FC+4 VS FC+2>=10",
            "難易度のない比較ロール",
            "a comparison roll without a difficulty",
        ),
        (
            "FC+4#NS VS FC+2",
            "オプションは判定全体の後ろ",
            "options come after the whole check",
        ),
        (
            "FC+4#PLAIN",
            "比較ロール FC+b VS FC+c のオプション",
            "options of a comparison roll",
        ),
        ("FC+4#XYZ", "オプション名", "an option name"),
        ("FC+4#NS#NS", "オプションは1回ずつ", "each option once"),
        (
            "FC+4 VS FC+6#PLAIN#OVERRIDE",
            "どちらか一方",
            "contradict each other",
        ),
        (
            "FC+",
            "FC+b>=d、FC+b VS FC+c",
            "FC+b, FC+b>=d, FC+b VS FC+c",
        ),
        ("FC+1D6", "ベースは整数で", "whole-number bases"),
        ("FC+{知覚}>=", "フォーカードの判定", "a Four Card check"),
    ] {
        let why_ja = refused_ja(&mut t, "alice", line);
        assert!(why_ja.contains(ja), "{line}: {why_ja}");
        assert!(
            !why_ja.contains("コマンドとして解釈できません"),
            "{line}: {why_ja}"
        );
        let why_en = refused(&mut t, "alice", line);
        assert!(why_en.contains(en), "{line}: {why_en}");
    }
    // The caret is under what is wrong: the difficulty of `FC+4>=10 VS FC+2`.
    let why = refused_ja(&mut t, "alice", "FC+4>=10 VS FC+2");
    assert!(why.contains("'>'は使えません"), "{why}");
}

#[test]
fn fc15i_f7_override_reads_one_comparison_the_default_way_under_plain() {
    // FC-11 (l.197) 「ともに2だった場合」や「ともに12だった場合」を含む: the default
    // reading; a table set to `comparison_auto plain` may still read one roll that way.
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/fc set comparison_auto plain");
    let out = run(&mut t, "alice", "FC+4 VS FC+6#OVERRIDE");
    assert!(
        out[0].contains("(FC+4 VS FC+6#OVERRIDE)") && !out[0].contains("#PLAIN"),
        "{out:?}"
    );
    let out = run(&mut t, "alice", "FC+4 VS FC+6");
    assert!(out[0].contains("#PLAIN"), "{out:?}");
}

#[test]
fn fc15i_f12_plain_says_it_drops_l197s_parenthesis() {
    // FC-11 (l.197): 「もしロール値が同じだった場合(2D6の出目が「ともに2だった場合」や
    // 「ともに12だった場合」を含む)」. `plain` compares roll values only, so it does not
    // keep that parenthesis; the settings, /help and the GM's reply say so.
    let mut t = table([3; 32]);
    let out = run(&mut t, "gm", "/fc settings");
    assert!(out[0].contains("l.197 の括弧書き"), "{out:?}");
    let out = run(&mut t, "gm", "/fc set comparison_auto plain");
    assert!(
        out.iter().any(|l| l.contains("l.197 の括弧書き")),
        "{out:?}"
    );
    let help = run(&mut t, "alice", "/help");
    assert!(
        help.iter()
            .any(|l| l.contains("l.197 の括弧書きは採らない")),
        "{help:?}"
    );
}

#[test]
fn fc15i_f17_a_new_total_lv_table_names_the_skills_now_over_their_cap() {
    // FC-5 (l.119) 「総合LVと同じ数値までしかTPを伸ばせないものがあります」: a table
    // changed mid-campaign may leave a capped skill above the new total LV; the GM is
    // told whose, and the TP learned stay.
    let mut t = table([3; 32]);
    // Total XP 100: total LV 4; 魔術 is capped by total LV (the example list).
    run(&mut t, "alice", "/char set ミナ xp 100 unspent_xp 85");
    run(&mut t, "gm", "/fc approve ミナ");
    run(
        &mut t,
        "alice",
        "/char set ミナ スキル.魔術 4 スキル.知覚 9 スキル.接近戦 2 unspent_xp 4",
    );
    run(&mut t, "gm", "/fc approve ミナ");
    let out = run(&mut t, "gm", "/fc set total_lv_table 100:1");
    assert!(
        out.iter()
            .any(|l| l.contains("ミナ【魔術】4TP（総合LV 1）") && !l.contains("知覚")),
        "{out:?}"
    );
    let before = state(&t)["characters"]["ミナ"]["skills"]["魔術"].clone();
    assert_eq!(before["tp"], 4, "{before}");
    // A table under which nobody is over the cap says nothing more.
    let out = run(&mut t, "gm", "/fc set total_lv_table default");
    assert!(!out.iter().any(|l| l.contains("キャップ")), "{out:?}");
}

#[test]
fn fc15i_fc8_f2_a_bare_side_facing_a_character_is_nobodys_on_either_side() {
    // FC-9 (l.155) 「あらゆる判定において、自動的失敗をしてしまうと1点疲労します」 and FC-2
    // (l.50) 「あらゆる判定ロールのロール値が−2されます」 land on the character who rolls.
    // A bare `FC+3` facing a side that reads a character is the other party, on the left
    // as on the right: alice's `FC+3 VS FC+{ロイ.DX}` has no side of hers, as
    // `FC+{ロイ.DX} VS FC+3` has none, and does not roll ロイ (nor put ミナ's −2 on the 3).
    let mut t = table([3; 32]);
    gm(&mut t, &["/fc damage ミナ 15"]);
    for line in ["FC+3 VS FC+{ロイ.DX}", "FC+{ロイ.DX} VS FC+3"] {
        let why = refused(&mut t, "alice", line);
        assert!(
            why.contains("no side of this comparison is yours") && why.contains("nobody's"),
            "{line}: {why}"
        );
    }
    // Facing her own ミナ (a bare `{DX}`), the bare 4 is the other party: no −2 on it.
    let out = run(&mut t, "alice", "FC+4 VS FC+{DX}");
    assert!(out[0].starts_with("(FC+4 VS FC+3)"), "{out:?}");
    assert!(out[0].contains("ミナは衰弱: 右のロール値−2"), "{out:?}");
    // Against another bare side the left is still the roller's (as a single check).
    let out = run(&mut t, "alice", "FC+5 VS FC+3");
    assert!(out[0].starts_with("(FC+3 VS FC+3)"), "{out:?}");
}

#[test]
fn fc15i_fc8_f8_an_unconscious_character_neither_eats_shops_equips_nor_grows() {
    // FC-2 (l.53) 「キャラクターの累積ダメージがこのラインに到達すると、キャラクターは意識を
    // 失います」: its player's meal (l.217 「食事を摂ることができれば」), purchase, change
    // of equipment or XP spending for it is refused and changes nothing; the GM records
    // what befalls it.
    let mut t = table([3; 32]);
    // Lines 15 / 25 / 35: cumulative 26 is unconscious.
    gm(
        &mut t,
        &[
            "/fc fatigue ミナ 4",
            "/fc damage ミナ 22",
            "/fc time 5 active ミナ",
            "/fc interlude start",
        ],
    );
    for line in [
        "/fc meal ミナ",
        "/fc money ミナ -100 買い物",
        "/fc equip ミナ 例革鎧",
        "/fc learn ミナ 知覚 1",
        "/fc raise ミナ VT",
    ] {
        let why = refused(&mut t, "alice", line);
        assert!(
            why.contains("ミナ is unconscious") && why.contains("GM's to record"),
            "{line}: {why}"
        );
    }
    let ja = refused_ja(&mut t, "alice", "/fc meal ミナ");
    assert!(ja.contains("ミナは昏倒しています"), "{ja}");
    // The GM may record that she is fed.
    let out = run(&mut t, "gm", "/fc meal ミナ");
    assert!(out[0].contains("食事"), "{out:?}");
}

#[test]
fn fc15i_fc8_f3_a_field_named_as_its_own_skill_is_refused_naming_it() {
    // FC-5 (l.134) 「特化させている分野であれば、「スキルLV」そのままの値をその分野での
    // スキルLVとして扱う」, l.138 「それ以外の武器を使うときには、「DX5+1TP−2=4LV」」:
    // a field named as its skill makes `{弓術}` read two ways; the refusal names the
    // name that is there twice.
    let mut t = table([3; 32]);
    for (line, twice) in [
        ("/fc skill 弓術 DX 2 fields=弓術", "【弓術】 appears twice"),
        (
            "/fc skill 盾術 DX 2 fields=盾術,小盾",
            "【盾術】 appears twice",
        ),
        (
            "/fc load 「skill = [{name = \"槍術\", base = \"DX\", expertise = 2, fields = [\"槍術\"]}]」",
            "【槍術】 appears twice",
        ),
    ] {
        let why = refused(&mut t, "gm", line);
        assert!(why.contains(twice), "{line}: {why}");
    }
}

#[test]
fn fc15i_fc8_f7_a_prerequisite_loop_is_refused() {
    // FC-5 (l.129) 「前提スキルとは、ある別のスキルの習得の前に、最低でも1TPは習得して
    // おく必要があるスキル」; l.124 制限スキル: a loop leaves every skill on it unlearnable.
    let mut t = table([3; 32]);
    gm(
        &mut t,
        &["/fc skill 甲 IQ 1", "/fc skill 乙 IQ 1 requires=甲"],
    );
    let why = refused(&mut t, "gm", "/fc skill 甲 IQ 1 requires=乙");
    assert!(why.contains("【甲】 → 【乙】 → 【甲】"), "{why}");
    let why = refused(&mut t, "gm", "/fc skill 甲 IQ 1 limit=乙");
    assert!(why.contains("loop"), "{why}");
    let why = refused(
        &mut t,
        "gm",
        "/fc load 「skill = [{name = \"丙\", base = \"IQ\", expertise = 1, requires = [\"丁\"]}, {name = \"丁\", base = \"IQ\", expertise = 1, requires = [\"丙\"]}]」",
    );
    assert!(why.contains("loop"), "{why}");
    // A chain that does not close is fine.
    run(&mut t, "gm", "/fc skill 戊 IQ 1 requires=乙");
}

#[test]
fn fc15i_fc8_f1_a_total_lv_table_that_falls_is_refused_saying_why() {
    // FC-6 (l.81) 「総合LVは、獲得経験点(初期経験点を含む)の合計によって決まります」: more
    // XP is never a lower total LV; each refusal says what is wrong with which row.
    let mut t = table([3; 32]);
    let why = refused(&mut t, "gm", "/fc set total_lv_table 0:3,10:1");
    assert!(why.contains("never falls"), "{why}");
    let why = refused(&mut t, "gm", "/fc set total_lv_table 0:-5");
    assert!(why.contains("LV 0..1000"), "{why}");
    let why = refused(&mut t, "gm", "/fc set total_lv_table 0:1,20:10000");
    assert!(why.contains("row '20:10000'"), "{why}");
    // Full-width is read as ASCII.
    run(&mut t, "gm", "/fc set total_lv_table ０:１,２０:２");
    let out = run(&mut t, "gm", "/fc settings");
    assert!(out[0].contains("total_lv_table = 0:1,20:2"), "{out:?}");
}

#[test]
fn fc15i_fc8_f4_f5_f6_a_sheet_is_checked_for_hand_money_wording_and_female_st_wp() {
    use taku_systems::four_card::sheet::Sheet;
    let sheet = |sex: &str, st: i64, wp: i64, hand: &str, money: i64| {
        Sheet::from_toml(&format!(
            "name = \"両手子\"\nsex = \"{sex}\"\nIQ = 5\nDX = 5\nST = {st}\nWP = {wp}\nVT = 5\nxp = 15\nunspent_xp = 0\nmoney = {money}\nhand = \"{hand}\"\n\n[skills.\"知覚\"]\ntp = 5\n"
        ))
        .expect("a sheet")
        .violations()
    };
    // FC-1 (l.43) 「女性キャラクターは、STが−1される代わりにWPが+1されます。ただし、この
    // 修正の結果、能力値が2以下になったり8以上になることはありません」: female ST 7 needs a
    // rolled ST 8 unless WP 7 blocked the exchange.
    for (st, wp) in [(7, 3), (7, 5)] {
        let v = sheet("female", st, wp, "右", 2000);
        assert!(
            v.iter()
                .any(|v| v.rule == "FC-1" && v.message.contains(&format!("女性のST {st}・WP {wp}"))),
            "{v:?}"
        );
    }
    for (st, wp) in [(7, 7), (3, 5), (4, 6)] {
        assert!(sheet("female", st, wp, "右", 2000).is_empty(), "{st}/{wp}");
    }
    assert!(sheet("male", 7, 3, "left", 2000).is_empty());
    // FC-7 (l.95) 「2D6を振って12が出れば、そのキャラクターは両手利き」: a sheet cannot
    // show the roll; any other hand is right or left.
    for hand in ["両手", "ambidextrous", "both", "up"] {
        let v = sheet("male", 5, 5, hand, 2000);
        assert!(v.iter().any(|v| v.rule == "FC-7"), "{hand}: {v:?}");
    }
    // FC-8 (l.99): the money below 0 says what it must be.
    let v = sheet("male", 5, 5, "right", -100);
    assert!(
        v.iter().any(|v| v
            .message
            .contains("所持金は0CP以上でなければなりません（-100CP）")),
        "{v:?}"
    );
    // At a table the GM's approval lists them too, and `right` reads as 右利き.
    let mut t = table([3; 32]);
    run(&mut t, "bob", "/char new ケン");
    run(
        &mut t,
        "bob",
        "/char set ケン 性別 female IQ 5 DX 5 ST 7 WP 3 VT 5 利き腕 両手",
    );
    let why = refused(&mut t, "gm", "/fc approve ケン");
    assert!(
        why.contains("female character cannot have ST 7 with WP 3") && why.contains("FC-7"),
        "{why}"
    );
}

// ---- fc16i: fc9's findings -----------------------------------------------------------------

#[test]
fn fc16i_f4_approving_a_sheet_change_keeps_everything_the_table_recorded() {
    // fc9 F4. l.245 「キャラクターは、1回のシナリオを経るごとに経験点を得ます」, l.81
    // 「総合LVは、獲得経験点(初期経験点を含む)の合計によって決まります」, l.272
    // 「何らかの理由で低下してしまった能力値」: what the table recorded since the first
    // approval (XP awarded, a raise, a loss, money, damage) is not undone by approving a
    // later sheet change; the change is applied on top of it.
    let mut t = table([3; 32]);
    gm(
        &mut t,
        &[
            "/fc xp ミナ 5",
            "/fc xp ミナ 5",
            "/fc xp ミナ 5",
            "/fc money ミナ 500",
            "/fc damage ミナ 2",
            "/fc lose ミナ IQ 1",
            "/fc interlude start",
        ],
    );
    run(&mut t, "alice", "/fc raise ミナ VT");
    let before = state(&t)["characters"]["ミナ"].clone();
    assert_eq!(before["xp_earned"], 30, "{before}");
    assert_eq!(before["raised"][4], 1, "{before}");
    run(&mut t, "alice", "/char set ミナ DX 6");
    let out = run(&mut t, "gm", "/fc approve ミナ");
    assert!(out[0].contains("GMがミナのシートの変更を承認"), "{out:?}");
    assert!(out[0].contains("初期DX+1"), "{out:?}");
    assert!(out[0].contains("経験点 獲得30 残り5"), "{out:?}");
    let after = &state(&t)["characters"]["ミナ"];
    assert_eq!(after["initial"][1], 6, "the sheet's change: {after}");
    for key in ["xp_earned", "xp_spent", "raised", "lost", "money", "injury"] {
        assert_eq!(after[key], before[key], "{key}: {after}");
    }
    // The sheet's numbers are applied as a change too: xp 15 → 20 adds 5 XP.
    run(&mut t, "alice", "/char set ミナ xp 20 unspent_xp 5");
    let out = run(&mut t, "gm", "/fc approve ミナ");
    assert!(out[0].contains("獲得経験点+5"), "{out:?}");
    assert_eq!(state(&t)["characters"]["ミナ"]["xp_earned"], 35);
    assert_eq!(state(&t)["characters"]["ミナ"]["raised"][4], 1);
}

#[test]
fn fc16i_f11_a_gms_plain_check_is_not_charged_to_the_gms_only_npc() {
    // fc9 F11. l.50 「キャラクターの累積ダメージが衰弱ラインのHPに到達した瞬間から、あらゆる
    // 判定ロールのロール値が−2されます」 and l.155 「あらゆる判定において、自動的失敗をして
    // しまうと1点疲労します」 are about the character who acts; a GM's plain check (a
    // trap, an unnamed guard) is nobody's, even when the GM has a single NPC.
    let mut t = table([3; 32]);
    gm(
        &mut t,
        &["/char new 鬼", "/char set 鬼 IQ 5 DX 5 ST 5 WP 5 VT 5"],
    );
    gm(&mut t, &["/fc damage 鬼 16"]);
    let out = run(&mut t, "gm", "FC+5>=10");
    assert!(out[0].starts_with("(FC+5>=10)"), "{out:?}");
    assert!(
        !out.iter().any(|l| l.contains("鬼")),
        "no −2 of 鬼: {out:?}"
    );
    // Named, it is the NPC's: −2.
    let out = run(&mut t, "gm", "FC+{鬼.DX}>=10");
    assert!(out.iter().any(|l| l.contains("鬼は衰弱")), "{out:?}");
    let out = run(&mut t, "gm", "FC+5>=10 鬼");
    assert!(out.iter().any(|l| l.contains("鬼は衰弱")), "{out:?}");
    // Dead, it blocks nothing but its own checks.
    gm(&mut t, &["/fc damage 鬼 40"]);
    let out = run(&mut t, "gm", "FC+5>=10");
    assert!(out[0].starts_with("(FC+5>=10)"), "{out:?}");
    assert!(refused(&mut t, "gm", "FC+{鬼.DX}>=10").contains("dead"));
    // 80 plain checks charge 鬼 no fatigue from automatic failures.
    let mut t = table([3; 32]);
    gm(
        &mut t,
        &[
            "/char new 鬼",
            "/char set 鬼 IQ 5 DX 5 ST 5 WP 5 VT 5",
            "/fc fatigue 鬼 0",
        ],
    );
    for _ in 0..80 {
        run(&mut t, "gm", "FC+5>=10");
    }
    assert_eq!(state(&t)["characters"]["鬼"]["fatigue"], 0);
    // A player's plain check stays her one character's.
    gm(&mut t, &["/fc damage ミナ 16"]);
    let out = run(&mut t, "alice", "FC+5>=10");
    assert!(out.iter().any(|l| l.contains("ミナは衰弱")), "{out:?}");
}

#[test]
fn fc16i_f6_a_space_inside_a_check_does_not_cut_it() {
    // fc9 F6. l.150 「出目に「ベース」を加えた値を「ロール値」といい」, l.171 「ロール値が
    // 難易度以上であれば、その行動は成功です」: the base and the difficulty after a space
    // are the check's, not a comment; joined, the check reads them (or refuses with the
    // right form), never silently drops them.
    let mut t = table([3; 32]);
    for (line, head) in [
        ("FC +4>=10", "(FC+4>=10)"),
        ("FC+4 >=10", "(FC+4>=10)"),
        ("FC+4 >= 10", "(FC+4>=10)"),
        ("FC+4 VS FC +2", "(FC+4 VS FC+2)"),
        ("FC+4 VS10", "(FC+4 VS 10)"),
        ("FC+4 >=10 剣で", "剣で (FC+4>=10)"),
    ] {
        let out = run(&mut t, "alice", line);
        assert!(out[0].starts_with(head), "{line}: {out:?}");
    }
    // What cannot be a check is refused with the forms, not read as base 0.
    let why = refused(&mut t, "alice", "FC 4");
    assert!(why.contains("FC+b"), "{why}");
    // A comment that is words stays a comment.
    let out = run(&mut t, "alice", "FC+4>=10 崖を登る");
    assert!(out[0].starts_with("崖を登る (FC+4>=10)"), "{out:?}");
}
