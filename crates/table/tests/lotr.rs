//! The Lord of the Rings RPG (CODA) at a table (issue 16), through the path a user takes:
//! the worked examples of the rules digest (`lotr-coda.md`) for LR-1 to LR-11 that play at
//! a table, and the refusals, each of which must change nothing and name its rule. Dice come
//! from the table's seeded source; a test that needs particular dice searches for a seed
//! that gives them at that line.

use taku_dice::{ChaChaSource, DiceSource};
mod support;

use support::refused;
use taku_table::{Table, secret};

/// GM `gm`, players alice and bob; alice's アラゴルン with the digest's LR-3 attributes
/// (STR 9, VIT 12, NIM 7, PER 10, BRG 5, WIT 8), bob's サム with Health 10 (VIT 10, STR 7).
const SETUP: &[(&str, &str)] = &[
    ("gm", "/join alice"),
    ("gm", "/join bob"),
    ("alice", "/char new アラゴルン"),
    ("bob", "/char new サム"),
    (
        "alice",
        "/char set アラゴルン STR 9 VIT 12 NIM 7 PER 10 BRG 5 WIT 8",
    ),
    (
        "bob",
        "/char set サム STR 7 VIT 10 NIM 7 PER 7 BRG 8 WIT 10",
    ),
];

fn table(seed: [u8; 32]) -> Table {
    let mut t = Table::create("LotrCoda", "lotr", "gm", seed)
        .expect("table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    for (who, line) in SETUP {
        t.exec(who, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    t
}

/// The first `n` d6 the table's source gives at `seq` under `seed`.
fn dice_at(seed: [u8; 32], seq: u64, n: usize) -> Vec<u32> {
    let mut s = ChaChaSource::from_key(secret::dice_key(&seed, seq));
    (0..n).map(|_| s.roll(6).expect("d6")).collect()
}

/// A seed whose first `n` d6 at `seq` satisfy `want`.
fn seed_where(seq: u64, n: usize, want: impl Fn(&[u32]) -> bool) -> [u8; 32] {
    (0u32..)
        .map(|i| {
            let mut seed = [0u8; 32];
            seed[..4].copy_from_slice(&i.to_le_bytes());
            seed
        })
        .find(|seed| want(&dice_at(*seed, seq, n)))
        .expect("some seed")
}

/// Runs `line` as `who`: what they see of the new events without the `#N who: ` prefix,
/// leaving out a sheet character's import.
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

fn sheet(t: &Table, name: &str) -> String {
    t.sheet(name, "gm")
        .expect("a sheet")
        .render_text(taku_dice::Lang::En)
}

// ---- LR-1 to LR-3, LR-8: characters ----------------------------------------------------

const SHEET: &str = include_str!("../../systems/src/lotr_coda/example-sheet.toml");

#[test]
fn lr1_lr8_a_sheet_file_creates_a_character_the_rules_read() {
    let mut t = table([3; 32]);
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    // Ride: 5 ranks + BRG 6 (mod 0); +2 with the Horse specialisation.
    let out = run(&mut t, "alice", "/char show エオメル");
    let s = out.join("\n");
    assert!(s.contains("Ride 5ランク（判定+5）"), "{s}");
    let out = run(&mut t, "gm", "LOTR+{エオメル.Ride/Horse}>=12");
    assert!(out[0].starts_with("(LOTR+7>=12)"), "{out:?}");
    let out = run(&mut t, "gm", "LOTR+{エオメル.Stamina}");
    assert!(out[0].starts_with("(LOTR+3)"), "{out:?}");
    // LR-1: a sheet that breaks a budget is refused, naming the rule.
    let bad = SHEET.replace("BRG = 6, NIM = 11", "BRG = 7, NIM = 11");
    let err = t.decide_sheet("alice", &bad).expect_err("refused");
    assert!(err.render(taku_dice::Lang::En).contains("LR-1"), "{err:?}");
}

#[test]
fn lr3_derived_values_and_nim_growth() {
    let mut t = table([3; 32]);
    let s = sheet(&t, "アラゴルン");
    for want in [
        "STR (Strength): 9 (mod +1)",
        "VIT (Vitality): 12 (mod +3)",
        "PER (Perception): 10 (mod +2)",
        "WIT (Wits): 8 (mod +1)",
        "Stamina: 3",
        "Swiftness: 2",
        "Willpower: 1",
        "Wisdom: 2",
        "Health: 13",
        "Defence: 10",
        "loads (normal / encumbered / heavily): 90/180/270",
        "damage modifier: 1",
        "breath held (minutes): 4",
    ] {
        assert!(s.contains(want), "{want}\n{s}");
    }
    // The rules take the record (created values), then NIM rises: Defence follows,
    // Swiftness and Health do not.
    run(&mut t, "gm", "/lotr heal アラゴルン 0");
    run(&mut t, "gm", "/char set アラゴルン NIM 8");
    let s = sheet(&t, "アラゴルン");
    assert!(s.contains("Defence: 11"), "{s}");
    assert!(s.contains("Swiftness: 2"), "{s}");
    assert!(s.contains("Health: 13"), "{s}");
}

// ---- LR-4: wounds, healing, poison ---------------------------------------------------------

#[test]
fn lr4_wound_levels_through_damage_and_penalties_on_tests() {
    let mut t = table([3; 32]);
    let mut levels = Vec::new();
    for n in [9, 1, 10, 10, 10, 10, 10] {
        let out = run(&mut t, "gm", &format!("/lotr damage サム {n}"));
        levels.push(out[0].clone());
    }
    let want = [
        "Healthy",
        "Dazed",
        "Injured",
        "Wounded",
        "Incapacitated",
        "Near Death",
        "死亡",
    ];
    for (got, w) in levels.iter().zip(want) {
        assert!(got.contains(w), "{w}: {got}");
    }
    // A player cannot deal damage; it changes nothing.
    assert!(refused(&mut t, "bob", "/lotr damage サム 1").contains("LR-4"));
}

#[test]
fn lr4_wound_penalty_goes_on_the_tn_automatically() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr damage サム 10");
    let out = run(&mut t, "bob", "LOTR+5>=10");
    // Dazed: −1 (the example table) on the TN.
    assert!(out[0].starts_with("(LOTR+5>=11)"), "{out:?}");
    assert!(out.join("\n").contains("目標値+1"), "{out:?}");
    // The GM edits the table: Dazed −3.
    run(
        &mut t,
        "gm",
        "/lotr table wound_penalties 0,-3,-4,-6,-8,-10",
    );
    let out = run(&mut t, "bob", "LOTR+5");
    assert!(out[0].starts_with("(LOTR+2)"), "{out:?}");
    assert!(refused(&mut t, "gm", "/lotr table wound_penalties 0,-1").contains("6 whole numbers"));
}

#[test]
fn lr4_hobbits_and_mammoths() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/char set サム race Hobbits size small");
    run(&mut t, "gm", "/lotr damage サム 40");
    assert!(sheet(&t, "サム").contains("wound level: Incapacitated"));
    let out = run(&mut t, "gm", "/lotr damage サム 10");
    assert!(out[0].contains("死亡"), "{out:?}");
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/char set サム race Hobbits size small");
    run(&mut t, "gm", "/lotr set hobbit_death on_incapacitated");
    let out = run(&mut t, "gm", "/lotr damage サム 40");
    assert!(out[0].contains("死亡"), "{out:?}");
    // Mammoth, Health 20 (VIT 20, STR 7): three Healthy levels, Dazed at 60.
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/char set サム VIT 20 size mammoth");
    let out = run(&mut t, "gm", "/lotr damage サム 59");
    assert!(out[0].contains("Healthy"), "{out:?}");
    let out = run(&mut t, "gm", "/lotr damage サム 1");
    assert!(out[0].contains("Dazed"), "{out:?}");
}

#[test]
fn lr4_healing_formulas() {
    for (damage, after) in [(25, 19), (20, 19), (12, 9), (5, 0)] {
        let mut t = table([3; 32]);
        run(&mut t, "gm", &format!("/lotr damage サム {damage}"));
        let out = run(&mut t, "gm", "/lotr heal サム skill");
        assert!(
            out[0].contains(&format!("ダメージ{after}/Health10")),
            "{damage}: {out:?}"
        );
    }
    // Weekly Stamina success, VIT 5 (mod 0): +1 at least.
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/char set サム VIT 5");
    run(&mut t, "gm", "/lotr damage サム 5");
    let out = run(&mut t, "gm", "/lotr heal サム week ok");
    assert!(
        out[0].contains("= 1") && out[0].contains("ダメージ4"),
        "{out:?}"
    );
    assert!(refused(&mut t, "bob", "/lotr heal サム week").contains("LR-4"));
}

#[test]
fn lr4_poison_stages_rolled_once_and_the_first_result_persists() {
    for d in 1..=6u32 {
        let t0 = table([3; 32]);
        let seq = t0.next_seq();
        let seed = seed_where(seq, 1, |x| x[0] == d);
        let mut t = table(seed);
        let out = run(&mut t, "gm", "/lotr poison サム 4 1/2d6 ニガヨモギ");
        // LR-0: 1/2d6 gives 1, 1, 2, 2, 3, 3.
        let stages = [1, 1, 2, 2, 3, 3][d as usize - 1];
        assert!(
            out[0].contains(&format!("[{d}] → {stages}）")),
            "{d}: {out:?}"
        );
        let effect = if out[0].contains("二次効果") {
            "二次効果"
        } else {
            "一次効果"
        };
        for _ in 1..stages {
            let out = run(&mut t, "gm", "/lotr poison サム next");
            assert!(out[0].contains(effect), "{out:?}");
        }
        assert!(refused(&mut t, "gm", "/lotr poison サム next").contains("LR-4"));
    }
}

#[test]
fn lr4_breath_at_least_one_minute() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/char set サム STR 3 VIT 3");
    assert!(sheet(&t, "サム").contains("breath held (minutes): 1"));
}

// ---- LR-5: weariness ---------------------------------------------------------------------

#[test]
fn lr5_exhausted_recovery_with_helpers() {
    for (helper, tn) in [("marginal", 7), ("complete", 5), ("superior", 0)] {
        let mut t = table([3; 32]);
        run(&mut t, "gm", "/lotr weary サム +5");
        let out = run(&mut t, "gm", &format!("/lotr recover サム {helper}"));
        // Exhausted −9 (the example table) goes on the TN too.
        assert!(out[0].contains(&format!("目標値{tn}")), "{helper}: {out:?}");
        assert!(out[0].contains("Stamina−10"), "{out:?}");
    }
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr weary サム +5");
    let out = run(&mut t, "gm", "/lotr recover サム extraordinary");
    assert!(
        out[0].contains("ただちに") && out[0].contains("Spent"),
        "{out:?}"
    );
    assert!(sheet(&t, "サム").contains("weariness: Spent"));
    assert!(refused(&mut t, "bob", "/lotr recover サム").contains("LR-5"));
}

// ---- LR-6: Courage -------------------------------------------------------------------------

#[test]
fn lr6_courage_with_bold_and_horselord_and_the_limits() {
    let mut t = table([3; 32]);
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    let out = run(&mut t, "alice", "/lotr courage エオメル 2 Ride");
    assert!(out[0].contains("+14"), "{out:?}");
    // Courage 3: one left.
    assert!(refused(&mut t, "alice", "/lotr courage エオメル 2 Ride").contains("LR-6"));
    // Four a round at most (サム with Courage 6).
    run(&mut t, "gm", "/char set サム Courage 6");
    run(&mut t, "bob", "/lotr courage サム 2");
    run(&mut t, "bob", "/lotr courage サム 2");
    let why = refused(&mut t, "bob", "/lotr courage サム 1");
    assert!(why.contains("LR-6") && why.contains("at most 4"), "{why}");
    run(&mut t, "gm", "/lotr round");
    run(&mut t, "bob", "/lotr courage サム 1 selfish");
    assert!(sheet(&t, "サム").contains("Courage: 1/6"));
    // The scene's end brings back heroic spending, not selfish.
    run(&mut t, "gm", "/scene next");
    let s = sheet(&t, "サム");
    assert!(s.contains("Courage: 5/6"), "{s}");
}

// ---- LR-7: corruption ----------------------------------------------------------------------

#[test]
fn lr7_complete_failure_and_a_followup_that_lowers_nothing() {
    // Willpower +2 (WIT 10), TN 12, dice 3: 5, margin −7.
    let t0 = table([3; 32]);
    let seq = t0.next_seq();
    let seed = seed_where(seq, 2, |x| x[0] + x[1] == 3);
    let mut t = table(seed);
    let out = run(&mut t, "gm", "/lotr corruption サム 12");
    assert!(out[0].contains("5 vs 12 (-7) Complete Failure"), "{out:?}");
    assert!(
        out[0].contains("堕落+2") && out[0].contains("しなければならない"),
        "{out:?}"
    );
    let out = run(&mut t, "gm", "/lotr corruption サム 12 followup");
    assert!(out[0].contains("堕落は変わらない"), "{out:?}");
    assert!(sheet(&t, "サム").contains("Corruption / Bearing: 2 / 8"));
}

#[test]
fn lr7_corruption_reaching_bearing_makes_an_npc_and_never_goes_below_zero() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr corruption サム deed");
    assert!(sheet(&t, "サム").contains("Corruption / Bearing: 0 / 8"));
    run(&mut t, "gm", "/lotr corruption サム yield 7");
    assert!(refused(&mut t, "gm", "/lotr corruption サム yield 1").contains("LR-7"));
    // Bearing 8, Corruption 7, then +1 from a Failure (margin −5..−1): no double six.
    let probe = {
        let mut t = table([0; 32]);
        run(&mut t, "gm", "/lotr corruption サム yield 7");
        t.next_seq()
    };
    let seed = seed_where(probe, 2, |x| x[0] + x[1] < 12);
    let mut t = table(seed);
    run(&mut t, "gm", "/lotr corruption サム yield 7");
    let seq = t.next_seq();
    assert_eq!(seq, probe);
    let sum = dice_at(seed, seq, 2).iter().sum::<u32>() as i64;
    // Willpower +2: total sum + 2; a TN 1..5 above it is a Failure.
    let out = run(
        &mut t,
        "gm",
        &format!("/lotr corruption サム {}", sum + 2 + 3),
    );
    assert!(
        out[0].contains("Failure") && out[0].contains("NPC"),
        "{out:?}"
    );
    assert!(sheet(&t, "サム").contains("became an NPC"));
}

// ---- LR-9 to LR-11 at a table ------------------------------------------------------------

#[test]
fn lr10_group_bonus_setting_reaches_the_command() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr set group_bonus marginal_plus_one");
    let out = run(&mut t, "gm", "LOTRG+5>=15[+2,+3]");
    assert!(out[0].starts_with("(LOTRG+5>=15[+2,+3]#MP)"), "{out:?}");
    assert!(refused(&mut t, "alice", "/lotr set group_bonus literal").contains("only the GM"));
    assert!(refused(&mut t, "gm", "/lotr set group_bonus maybe").contains("cannot be"));
}

#[test]
fn lr9_a_test_at_the_table_names_its_degree() {
    let mut t = table([3; 32]);
    let out = run(&mut t, "alice", "LOTR+{Willpower}>=10 誘惑");
    assert!(out[0].contains("(LOTR+1>=10)"), "{out:?}");
    assert!(out[0].contains("差"), "{out:?}");
    let out = run(&mut t, "alice", "LOTR+5 VS LOTR+3");
    assert!(out[0].contains("の勝ち"), "{out:?}");
}

/// LR-13 and LR-15 through the table: the combat and battle modules answer `/lotr …` lines
/// at a LotrCoda table, and a player's battle command is the GM's only (nothing changes).
#[test]
fn money_and_battle_commands_play_at_the_table() {
    let mut t = table([3; 32]);
    // LR-13: 1 GP = 4 SP = 16 sp = 1,600 cp (a reply to the asker; nothing is logged).
    let before = t.events().len();
    let (reply, _) = t
        .exec("gm", "/lotr money convert 1GP sp")
        .expect("converts");
    let reply = reply.map(|r| r.ja().to_string()).unwrap_or_default();
    assert!(reply.contains("16"), "{reply}");
    assert_eq!(t.events().len(), before);
    // LR-15: the battle is the GM's.
    refused(&mut t, "alice", "/lotr battle start");
    let before = t.events().len();
    run(&mut t, "gm", "/lotr battle start");
    assert!(t.events().len() > before, "a battle began");
    let before = t.events().len();
    run(&mut t, "gm", "/lotr battle round");
    assert!(t.events().len() > before, "a round was fought");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

// ---- LR-14 wired into LR-4, LR-6 and the sheet ----------------------------------------------

/// The number after `marker` in `text` (`→7` → 7).
fn number_after(text: &str, marker: &str) -> Option<i64> {
    let at = text.find(marker)? + marker.len();
    let digits: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// LR-14 / LR-3: 「イニシアチブは Swiftness 判定」, 「攻撃の基本目標値は,攻撃対象の Defense の
/// 値」 — `combat join` of a table character reads its Swiftness, Defence and STR from its
/// record (アラゴルン: Swiftness +2, Defence 10, STR 9); the GM's own words still win.
#[test]
fn lr14_combat_join_reads_the_sheet() {
    let mut t = table([3; 32]);
    let out = run(&mut t, "gm", "/lotr combat join アラゴルン");
    assert!(
        out[0].contains("Swiftness +2") && out[0].contains("Defence 10"),
        "{out:?}"
    );
    let out = run(&mut t, "gm", "/lotr combat join サム def=14");
    assert!(out[0].contains("Defence 14"), "{out:?}");
    // Someone who is not a table character still needs the numbers; nothing changes.
    assert!(refused(&mut t, "gm", "/lotr combat join オーク").contains("swift="));
}

/// LR-14 → LR-4: 「攻撃が命中すると…ダメージ」 and 「Health = 10 なら,ダメージを10点受けた時点で
/// "DAZED"」 — a hit on a table character is its damage (wound level and penalty follow);
/// a blunt attack 「ダメージのかわりにスタン効果」 deals none; a fighter who is not a table
/// character keeps no Health (「オークやその他の重要でないキャラクターに関しては, Health ルール
/// を用いなくても良い」).
#[test]
fn lr14_combat_damage_is_the_characters_wounds() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join サム");
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク swift=+0 def=5 str=12",
    );
    run(&mut t, "gm", "/lotr combat init");
    // +30 against Defence 10 always hits; damage 2d6+20 (+1 STR 12 mod).
    let out = run(
        &mut t,
        "gm",
        "/lotr combat attack オーク サム dmg=2d6+20 +30",
    );
    let all = out.join("\n");
    let dealt = number_after(&all, "ダメージ [").and_then(|_| {
        let at = all.find("ダメージ [")?;
        number_after(&all[at..], "]→")
    });
    let dealt = dealt.unwrap_or_else(|| panic!("a damage total: {all}"));
    assert!(dealt >= 23, "{all}");
    assert!(
        all.contains(&format!("サム: 戦闘で{dealt}点のダメージ（LR-14）")),
        "{all}"
    );
    let s = sheet(&t, "サム");
    assert!(
        s.contains(&format!("damage (until death): {dealt}/")),
        "{s}"
    );
    // Health 10: 23..=33 damage is Injured or worse, and its penalty goes on her tests.
    assert!(!s.contains("wound level: Healthy"), "{s}");
    // サム hits the orc: the orc has no record, so no wound event follows.
    let out = run(&mut t, "gm", "/lotr combat attack サム オーク dmg=1d6 +30");
    assert!(!out.join("\n").contains("点のダメージ（LR-14）"), "{out:?}");
    // A blunt attack deals no wound.
    run(&mut t, "gm", "/lotr combat next");
    let before = sheet(&t, "サム");
    let out = run(
        &mut t,
        "gm",
        "/lotr combat attack オーク サム blunt dmg=2d6 +30",
    );
    assert!(!out.join("\n").contains("点のダメージ（LR-14）"), "{out:?}");
    assert_eq!(sheet(&t, "サム"), before);
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// LR-14 ← LR-4/LR-5: 「すべての肉体判定と ほとんどの知識判定にペナルティ」 — a Dazed character's
/// combat tests (here its initiative, a Swiftness test) carry the wound penalty (−1, the
/// example table).
#[test]
fn lr14_wounds_penalise_combat_tests() {
    let mut t = table([3; 32]);
    // サム: NIM 7, PER 7 → Swiftness +0; damage 10 = Dazed, −1.
    run(&mut t, "gm", "/lotr damage サム 10");
    run(&mut t, "gm", "/lotr combat join サム");
    let out = run(&mut t, "gm", "/lotr combat init");
    assert!(out[0].contains("]-1="), "{out:?}");
}

/// LR-6 in LR-14: 「1ラウンドには4点まで使用可能」 — a combat round is the Courage round: the
/// first initiative starts one and `combat next` starts the next, so the count resets.
#[test]
fn lr6_a_combat_round_is_the_courage_round() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/char set サム Courage 8");
    run(&mut t, "gm", "/lotr combat join サム");
    run(&mut t, "gm", "/lotr combat init");
    run(&mut t, "bob", "/lotr courage サム 4");
    assert!(refused(&mut t, "bob", "/lotr courage サム 1").contains("at most 4"));
    let out = run(&mut t, "gm", "/lotr combat next");
    assert!(
        out.iter().any(|l| l.contains("勇気の使用数が0に戻る")),
        "{out:?}"
    );
    run(&mut t, "bob", "/lotr courage サム 1");
    assert!(sheet(&t, "サム").contains("Courage: 3/8"));
}

/// LR-6 `courage_return = at_once`: 「英雄的な…目的のために消費した勇気は, そのシーンが終了した
/// 時点で,あるいはGMが望むなら即座に回復する」 — heroic points come back at once (the round's
/// 4 still binds); selfish ones do not.
#[test]
fn lr6_courage_back_at_once_when_the_gm_says_so() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/char set サム Courage 3");
    run(&mut t, "gm", "/lotr set courage_return at_once");
    let out = run(&mut t, "bob", "/lotr courage サム 3");
    assert!(out[0].contains("+9") && out[0].contains("残り3"), "{out:?}");
    assert!(sheet(&t, "サム").contains("Courage: 3/3"));
    run(&mut t, "bob", "/lotr courage サム 1");
    assert!(refused(&mut t, "bob", "/lotr courage サム 1").contains("at most 4"));
    run(&mut t, "gm", "/lotr round");
    run(&mut t, "bob", "/lotr courage サム 1 selfish");
    assert!(sheet(&t, "サム").contains("Courage: 2/3"));
}

// ---- LR-1 at a table -------------------------------------------------------------------------

/// LR-1 worked example: 「選択法: 10, 9, 7, 7, 5, 4 の固定値に,8ポイントを自由配分で加算する.
/// このとき,能力値の最大値は12とする」 — 12,11,9,8,6,4 is valid (2+2+2+1+1+0); 10 + 3 = 13 is
/// refused, by the same check as a sheet file, and changes nothing.
#[test]
fn lr1_create_by_the_pick_method_at_the_table() {
    let mut t = table([3; 32]);
    run(&mut t, "alice", "/char new ボロミア");
    let why = refused(&mut t, "alice", "/lotr create ボロミア pick 13,10,9,8,6,4");
    assert!(why.contains("LR-1") && why.contains("above 12"), "{why}");
    let why = refused(&mut t, "alice", "/lotr create ボロミア pick 12,11,9,8,6,5");
    assert!(why.contains("pick method"), "{why}");
    // Bob may not create Alice's character.
    refused(&mut t, "bob", "/lotr create ボロミア pick 12,11,9,8,6,4");
    let out = run(
        &mut t,
        "alice",
        "/lotr create ボロミア pick 12,11,9,8,6,4 order=Warrior",
    );
    assert!(
        out.join("\n")
            .contains("BRG 12 NIM 11 PER 9 STR 8 VIT 6 WIT 4"),
        "{out:?}"
    );
    let s = sheet(&t, "ボロミア");
    // LR-3: Health = VIT + STR mod = 6 + 1; Defence 10 + NIM mod (+2).
    assert!(s.contains("Health: 7") && s.contains("Defence: 12"), "{s}");
    // Created once: a second creation is refused.
    assert!(refused(&mut t, "alice", "/lotr create ボロミア pick 12,11,9,8,6,4").contains("LR-1"));
    // Racial modifiers are added after the pick (the example data's Hobbits: STR −2, NIM +2).
    run(&mut t, "bob", "/char new ピピン");
    let out = run(
        &mut t,
        "bob",
        "/lotr create ピピン pick 4,12,11,9,8,6 race=Hobbits",
    );
    assert!(out.join("\n").contains("NIM 14"), "{out:?}");
}

/// LR-1: 「ランダム法: 2d6 を9回振って,高いもの6つを6種類の能力値に割り当てる」 — the nine rolls
/// are made once on the table's dice (a second roll is refused); the attributes must be an
/// assignment of the best six.
#[test]
fn lr1_create_by_the_random_method_at_the_table() {
    let mut t = table([5; 32]);
    run(&mut t, "bob", "/char new ピピン");
    assert!(
        refused(&mut t, "bob", "/lotr create ピピン random 7,7,7,7,7,7").contains("nine 2d6 first")
    );
    let out = run(&mut t, "bob", "/lotr create ピピン random");
    let line = out.join("\n");
    let at = line.find("= [").expect("the rolls") + 3;
    let rolls: Vec<i64> = line[at..]
        .split(']')
        .next()
        .expect("a list")
        .split(", ")
        .map(|r| r.parse().expect("a number"))
        .collect();
    assert_eq!(rolls.len(), 9, "{line}");
    assert!(rolls.iter().all(|r| (2..=12).contains(r)), "{rolls:?}");
    assert!(refused(&mut t, "bob", "/lotr create ピピン random").contains("not rolled again"));
    let mut best = rolls.clone();
    best.sort_unstable_by(|a, b| b.cmp(a));
    best.truncate(6);
    let mut wrong = best.clone();
    wrong[5] = 13;
    let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    assert!(
        refused(
            &mut t,
            "bob",
            &format!("/lotr create ピピン random {}", list(&wrong))
        )
        .contains("best six")
    );
    let out = run(
        &mut t,
        "bob",
        &format!("/lotr create ピピン random {}", list(&best)),
    );
    assert!(
        out.join("\n").contains(&format!("BRG {}", best[0])),
        "{out:?}"
    );
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

// ---- LR-4 harm that is not an attack, LR-5 by load, LR-3 Renown, LR-18 --------------------

/// LR-4 falling: 「表に示された目標値の Acrobatics 判定を行って…成功すればダメージを半減できる」;
/// halves round half up (LR-0): 9 → 5.
#[test]
fn lr4_falling_halves_on_an_acrobatics_success() {
    let mut t = table([3; 32]);
    let out = run(&mut t, "gm", "/lotr fall サム 9 2 +30");
    assert!(out[0].contains("半減、5点"), "{out:?}");
    assert!(sheet(&t, "サム").contains("damage (until death): 5/"));
    let out = run(&mut t, "gm", "/lotr fall サム 9 200");
    assert!(
        out[0].contains("失敗、9点") && out[0].contains("技能なし−2"),
        "{out:?}"
    );
    assert!(sheet(&t, "サム").contains("damage (until death): 14/"));
    assert!(refused(&mut t, "bob", "/lotr fall サム 9 2").contains("LR-4"));
    assert!(refused(&mut t, "gm", "/lotr fall サム 9x 2").contains("LR-4"));
}

/// LR-4 fire: 「Swiftness 判定に失敗すると,炎に包まれてしまい, ただちに追加ダメージを受ける.
/// 炎を消すには,失敗した Swiftness 判定に再挑戦する…追加ダメージは 2d6+4」.
#[test]
fn lr4_fire_sets_alight_burns_and_goes_out() {
    let mut t = table([3; 32]);
    let out = run(&mut t, "gm", "/lotr fire サム 200 dmg=3");
    assert!(out[0].contains("炎に包まれた"), "{out:?}");
    let burnt = {
        let at = out[0].find("2d6+4 [").expect("the burn");
        number_after(&out[0][at..], "]→").expect("a total")
    };
    let s = sheet(&t, "サム");
    assert!(s.contains("on fire (LR-4): yes"), "{s}");
    let damage = {
        let marker = "damage (until death): ";
        let at = s.find(marker).expect("damage") + marker.len();
        s[at..]
            .split('/')
            .next()
            .expect("n")
            .parse::<i64>()
            .expect("n")
    };
    // 3 from the exposure, 2d6+4 (6..=16) from catching fire.
    assert!((9..=19).contains(&damage), "{damage} {burnt} {s}");
    // The re-test: a success puts it out; still in the flames (`dmg=`), 「1ラウンドごとに
    // ダメージを受ける」 the exposure's damage too.
    let out = run(&mut t, "gm", "/lotr fire サム 2 dmg=3 +30");
    assert!(
        out[0].contains("火が消えた") && out[0].contains("炎のダメージ3"),
        "{out:?}"
    );
    assert!(sheet(&t, "サム").contains("on fire (LR-4): no"));
}

/// LR-4 drowning: 「意識を失わないかどうか Stamina 判定を行う.意識を失うと,自動的にダメージを
/// 受ける」; 「死ななかったキャラクターは,15分の休憩で,1d6 点回復する」.
#[test]
fn lr4_drowning_and_the_rest_after() {
    let mut t = table([3; 32]);
    let out = run(&mut t, "gm", "/lotr drown サム 200 dmg=6");
    assert!(out[0].contains("意識を失った、ダメージ6"), "{out:?}");
    // 「意識を失うと」: unconscious until the rest — no tests, no fighting (lotr4).
    assert!(sheet(&t, "サム").contains("(unconscious)"));
    let why = refused(&mut t, "bob", "LOTR+{サム.Stamina}>=10");
    assert!(why.contains("LR-4") && why.contains("drowning"), "{why}");
    assert!(refused(&mut t, "gm", "/lotr combat join サム").contains("LR-4"));
    let out = run(&mut t, "gm", "/lotr drown サム rest");
    let healed = number_after(&out[0], "−").expect("healed");
    assert!((1..=6).contains(&healed), "{out:?}");
    assert!(sheet(&t, "サム").contains(&format!("damage (until death): {}/", 6 - healed)));
    assert!(!sheet(&t, "サム").contains("(unconscious)"));
    run(&mut t, "bob", "LOTR+{サム.Stamina}>=10");
    // 「死ななかったキャラクターは,15分の休憩で」: once, after a drowning; never without one.
    let why = refused(&mut t, "gm", "/lotr drown サム rest");
    assert!(why.contains("LR-4") && why.contains("once"), "{why}");
    let why = refused(&mut t, "gm", "/lotr drown アラゴルン rest");
    assert!(why.contains("LR-4"), "{why}");
}

/// LR-5: 「重荷のときは目標値に+10,超重荷のときは+20」 (loads STR×10/×20/×30: サム STR 7 →
/// 70/140/210) and 「Old なら -4, Agedなら-8」; a failed weariness test adds a level.
#[test]
fn lr5_weariness_test_by_load() {
    let mut t = table([3; 32]);
    let out = run(&mut t, "gm", "/lotr weary サム test 100 load=150 aged");
    assert!(
        out[0].contains("超重荷 目標値+20") && out[0].contains("年齢-8"),
        "{out:?}"
    );
    assert!(out[0].contains("疲労+1段階"), "{out:?}");
    assert!(refused(&mut t, "gm", "/lotr weary サム test 10 load=211").contains("LR-3"));
    let out = run(&mut t, "gm", "/lotr weary サム test 2 encumbered +30");
    assert!(
        out[0].contains("重荷 目標値+10") && out[0].contains("疲労しない"),
        "{out:?}"
    );
    assert!(refused(&mut t, "bob", "/lotr weary サム test 10").contains("LR-5"));
}

/// LR-3: 「知名度は,シナリオ中で劇的な行動を取ると上昇する」 (Renown triggers, the GM's).
#[test]
fn lr3_renown_rises_with_deeds() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr renown サム +2 大蜘蛛を退けた");
    assert!(sheet(&t, "サム").contains("Renown: 2"));
    assert!(refused(&mut t, "bob", "/lotr renown サム +5").contains("LR-3"));
}

/// LR-18: 「複数の人間が一緒に旅をする場合は,最も遅い者に合わせる」; 130 ÷ 20 = 6.5 → 7 days
/// (LR-0).
#[test]
fn lr18_the_group_travels_at_the_slowest_pace() {
    let mut t = table([3; 32]);
    let out = run(&mut t, "alice", "/lotr travel 130 フロド=20 アラゴルン=30");
    assert!(
        out[0].contains("フロド") && out[0].contains("7日"),
        "{out:?}"
    );
    assert!(refused(&mut t, "alice", "/lotr travel 130 フロド=0").contains("LR-18"));
}

// ---- Fixes from the seed-only play-through (/work/findings/lotr-play.md) ------------------

/// LR-7: 「目標値は,P.234 Table 9.21 Corruption Difficulty などを 参考にして決定する」 and
/// 「GMがそれと認めた場合には,最低2点,Corruptionを減少させる」 — the TN, yielding and deeds
/// are the GM's: a player's corruption line is refused and changes nothing.
#[test]
fn lr7_corruption_is_the_gms_to_call() {
    let mut t = table([3; 32]);
    for line in [
        "/lotr corruption サム 12",
        "/lotr corruption サム -20",
        "/lotr corruption サム deed 5",
        "/lotr corruption サム yield 2",
    ] {
        assert!(refused(&mut t, "bob", line).contains("LR-7"), "{line}");
    }
}

/// LR-7: 「Corruptionの値が Bearingの値と等しくなった時点で, キャラクターはNPCとなり」 — the
/// character is the GM's then: its player's commands and tests with it are refused.
#[test]
fn lr7_an_npc_is_the_gms() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr corruption サム yield 8");
    assert!(sheet(&t, "サム").contains("became an NPC"));
    assert!(refused(&mut t, "bob", "/lotr courage サム 1").contains("LR-7"));
    assert!(refused(&mut t, "bob", "LOTR+{Willpower}>=10").contains("LR-7"));
    // Its fields are the GM's too, and /who lists it under the GM.
    assert!(refused(&mut t, "bob", "/char set サム memo x").contains("LR-7"));
    let (reply, _) = t.exec("bob", "/who").expect("who");
    let who = reply.map(|r| r.en().to_string()).unwrap_or_default();
    let line = |m: &str| {
        who.lines()
            .find(|l| l.trim_start().starts_with(m))
            .unwrap_or_default()
            .to_string()
    };
    assert!(!line("bob").contains("サム"), "{who}");
    assert!(
        line("gm").contains("サム (fallen to the enemy, an NPC, LR-7; bob's)"),
        "{who}"
    );
    run(&mut t, "gm", "/lotr courage サム 1");
}

/// LR-5: 「目標値10のStamina判定 (Exhaustedによる-10の修正を受ける)」 — the −10 is the
/// Exhausted penalty itself: TN 10 (7 with a Marginal helper), not 10 plus the table's.
#[test]
fn lr5_exhausted_recovery_counts_its_penalty_once() {
    for (helper, tn) in [("", 10), (" marginal", 7)] {
        let mut t = table([3; 32]);
        run(&mut t, "gm", "/lotr weary サム +5");
        let out = run(&mut t, "gm", &format!("/lotr recover サム{helper}"));
        // サム: Stamina +2, −10 → −8.
        assert!(out[0].contains(&format!(" vs {tn} (")), "{helper}: {out:?}");
        assert!(out[0].contains("-8 ＞"), "{out:?}");
    }
}

/// LR-9/LR-11: 「キャラクター自身からもたらされる修正は判定値へ, 外的要因…は 目標値に」 — an
/// opposed test has no TN, so a wound penalty comes off the wounded side's total, whichever
/// side the character is on; LR-10: the leader's penalty is the leader's, 「リーダー以外の全員が
/// それぞれ 目標値 -5 の判定」 stays TN − 5.
#[test]
fn lr9_wound_penalty_on_the_wounded_side_and_the_leader_only() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr damage サム 10");
    let squeeze = |v: Vec<String>| v.join("\n").replace(' ', "");
    let out = squeeze(run(&mut t, "bob", "LOTR+3 VS LOTR+{Swiftness}"));
    assert!(out.contains("(LOTR+3VSLOTR-1)"), "{out}");
    assert!(out.contains("達成値-1"), "{out}");
    let out = squeeze(run(&mut t, "bob", "LOTR+{Swiftness} VS LOTR+3"));
    assert!(out.contains("(LOTR-1VSLOTR+3)"), "{out}");
    let out = squeeze(run(&mut t, "bob", "LOTRG+5>=10[+1]"));
    assert!(out.contains("(LOTRG+4>=10[+1])"), "{out}");
}

/// LR-8: 「訓練が不要なものについては,ランク 0 の技能についても -2ペナルティで…判定が可能」 —
/// a skill the character lacks is tested at rank 0 (PER 7: 0 − 2).
#[test]
fn lr8_untrained_skill_at_rank_zero() {
    let mut t = table([3; 32]);
    let out = run(&mut t, "bob", "LOTR+{Observe}>=10");
    assert!(out[0].starts_with("(LOTR-2>=10)"), "{out:?}");
}

/// LR-12: 「技能の成長は職業スキルなら2ランクまで」 and 「成長時に,能力値と,ReactionやHealthなど
/// の値は別々に上昇する」 — XP goes to a sheet character the rules have not touched yet; a pick
/// raises an order skill (Run, bought with order ranks on the sheet) and a reaction, and the
/// character's tests use the new values.
#[test]
fn lr12_picks_raise_the_character() {
    let mut t = table([3; 32]);
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    run(&mut t, "gm", "/lotr xp award エオメル rp 1000");
    run(&mut t, "gm", "/lotr xp credit エオメル");
    run(&mut t, "gm", "/lotr xp advance エオメル");
    run(&mut t, "alice", "/lotr xp pick エオメル rank Run");
    run(&mut t, "alice", "/lotr xp pick エオメル rank Run");
    assert!(refused(&mut t, "alice", "/lotr xp pick エオメル rank Run").contains("LR-12"));
    run(&mut t, "alice", "/lotr xp pick エオメル reaction Stamina");
    let s = sheet(&t, "エオメル");
    // Run: 3 order ranks + 2; VIT 9 (+1).
    assert!(s.contains("Run 5 ranks (test +6)"), "{s}");
    assert!(s.contains("Stamina: 4"), "{s}");
    let out = run(&mut t, "alice", "LOTR+{エオメル.Stamina}");
    assert!(out[0].starts_with("(LOTR+4)"), "{out:?}");
}

/// LR-14: 「アクションコスト0の行動: 以下の行動は,コスト0で実行できる」 (never an extra action),
/// 「Splint: 40ヤードまで full-round アクション」 (nothing else that round), the attack options
/// as alternatives (one per attack), and 「攻撃側がダイスを振る前に宣言しておくこと」 (the
/// defender's dodge is its owner's or the GM's to declare).
#[test]
fn lr14_action_costs_options_and_who_declares_a_defence() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join サム");
    run(&mut t, "gm", "/lotr combat join アラゴルン");
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク swift=+0 def=10 str=9",
    );
    run(&mut t, "gm", "/lotr combat init");
    for act in ["move", "aim", "other"] {
        run(&mut t, "bob", &format!("/lotr combat act サム {act}"));
    }
    let out = run(&mut t, "bob", "/lotr combat act サム free");
    assert!(
        !out[0].contains("判定") && !out[0].contains("-5"),
        "{out:?}"
    );
    run(&mut t, "alice", "/lotr combat act アラゴルン sprint");
    assert!(refused(&mut t, "alice", "/lotr combat act アラゴルン move").contains("full-round"));
    run(&mut t, "gm", "/lotr combat next");
    let why = refused(
        &mut t,
        "alice",
        "/lotr combat attack アラゴルン オーク dmg=2d6 power precise +5",
    );
    assert!(why.contains("one attack option"), "{why}");
    let why = refused(
        &mut t,
        "alice",
        "/lotr combat attack アラゴルン オーク dmg=2d6 bogus",
    );
    assert!(why.contains("'bogus'"), "{why}");
    let why = refused(
        &mut t,
        "alice",
        "/lotr combat attack アラゴルン オーク:dodge+30 dmg=2d6 +5",
    );
    assert!(why.contains("declares its dodge"), "{why}");
    // The GM declares the orc's; a player attacking without declaring one is fine.
    run(
        &mut t,
        "gm",
        "/lotr combat attack アラゴルン オーク:dodge+1 dmg=2d6 +5",
    );
    let why = refused(
        &mut t,
        "alice",
        "/lotr combat attack アラゴルン サム:parry+1 dmg=2d6",
    );
    assert!(why.contains("declares its dodge"), "{why}");
    run(
        &mut t,
        "alice",
        "/lotr combat attack アラゴルン サム dmg=2d6 +0",
    );
}

/// One list of readings: `/lotr set` reaches combat's, the battle's and advancement's, and
/// `fear_tie` is one setting (LR-11, LR-14).
#[test]
fn settings_are_one_list() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr set stun_reduction on");
    run(&mut t, "gm", "/lotr set protection pool");
    run(&mut t, "gm", "/lotr set fear_tie retest");
    let (reply, _) = t.exec("gm", "/lotr settings").expect("settings");
    let s = reply.map(|r| r.en().to_string()).unwrap_or_default();
    assert!(s.contains("fear_tie = retest"), "{s}");
    assert!(!s.contains("fear_tie = marginal"), "{s}");
    assert!(
        s.contains("courage_return = scene (LR-6: scene | at_once"),
        "{s}"
    );
    let (reply, _) = t.exec("gm", "/lotr combat settings").expect("settings");
    let s = reply.map(|r| r.en().to_string()).unwrap_or_default();
    assert!(s.contains("stun_reduction = on"), "{s}");
}

/// LR-5 `ignore_weariness_by_test`: 「StaminaやWillpower判定によって疲労のペナルティを 一時的に
/// 無視することを許可しても良い」 — with the option on, a success drops the weariness penalty
/// until the scene ends.
#[test]
fn lr5_a_test_lets_a_character_ignore_weariness() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr weary サム +2");
    assert!(refused(&mut t, "gm", "/lotr weary サム ignore -20").contains("off"));
    run(&mut t, "gm", "/lotr set ignore_weariness_by_test on");
    let out = run(&mut t, "gm", "/lotr weary サム ignore -20");
    assert!(
        out[0].contains("ignored until the scene ends") || out[0].contains("無視"),
        "{out:?}"
    );
    let out = run(&mut t, "bob", "LOTR+5>=10");
    assert!(out[0].starts_with("(LOTR+5>=10)"), "{out:?}");
    run(&mut t, "gm", "/scene next");
    let out = run(&mut t, "bob", "LOTR+5>=10");
    assert!(!out[0].starts_with("(LOTR+5>=10)"), "{out:?}");
}

/// LR-4: 「1週間に1回Stamina判定を行う. このときの目標値は負傷段階によって決まる」 and the
/// healer's 「手当て(Healing)技能を用いた判定」 (Table 9.37), rolled: a sure success heals as
/// the formulas say, a sure failure heals nothing.
#[test]
fn lr4_healing_tests_rolled() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr damage サム 25");
    // The example TN for Injured is 10; a TN the dice cannot reach.
    run(&mut t, "gm", "/lotr table stamina_tns 5,5,100,15,20,25");
    let out = run(&mut t, "gm", "/lotr heal サム week roll");
    assert!(
        out[0].contains("TN 100") || out[0].contains("目標値100"),
        "{out:?}"
    );
    assert!(sheet(&t, "サム").contains("damage (until death): 25/"));
    run(
        &mut t,
        "gm",
        "/lotr table healing_tns -50,-50,-50,-50,-50,-50",
    );
    let out = run(&mut t, "gm", "/lotr heal サム skill by=アラゴルン");
    assert!(out[0].contains("アラゴルン"), "{out:?}");
    assert!(sheet(&t, "サム").contains("damage (until death): 19/"));
    assert!(refused(&mut t, "gm", "/lotr heal サム rest -3").contains("LR-4"));
    // Full-width digits read as a table reads dice lines.
    run(&mut t, "gm", "/lotr damage サム ５");
    assert!(sheet(&t, "サム").contains("damage (until death): 24/"));
}

/// `/char set` of the record's keys after the rules read the character is followed (the
/// GM's edit is not lost): LR-4's Healthy levels follow the size.
#[test]
fn lr3_char_set_after_import_is_followed() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr damage サム 15");
    assert!(sheet(&t, "サム").contains("wound level: Dazed"));
    run(&mut t, "gm", "/char set サム size mammoth Courage 6");
    let s = sheet(&t, "サム");
    assert!(
        s.contains("wound level: Healthy") && s.contains("Courage: 6/6"),
        "{s}"
    );
}

/// LR-16: 「ダメージは Size を減少させる.サイズが 0 になった時点で部隊は消滅する」 — the
/// digest's (8 + 20) − 6 = 22 → Size 0 says "destroyed" on that line; LR-17 likewise for
/// Structure 0.
#[test]
fn lr16_lr17_the_destroying_hit_says_so() {
    let mut t = table([3; 32]);
    run(
        &mut t,
        "gm",
        "/lotr unit add 騎兵 men=200 str=8 tough=7 mob=6 morale=7",
    );
    run(
        &mut t,
        "gm",
        "/lotr unit add オーク men=150 str=7 tough=6 mob=5 morale=5",
    );
    let out = run(&mut t, "gm", "/lotr unit attack 騎兵 オーク +30");
    assert!(out.iter().any(|l| l.contains("消滅")), "{out:?}");
    run(&mut t, "gm", "/lotr siege add 砦 prot=8 struct=40");
    let out = run(&mut t, "gm", "/lotr siege hit 砦 100");
    assert!(out.iter().any(|l| l.contains("破壊")), "{out:?}");
}

/// LR-13: a purse is a character's: a name that is no character at the table (a typo, or
/// the word `settings`) is refused and creates no purse.
#[test]
fn lr13_purses_belong_to_characters() {
    let mut t = table([3; 32]);
    assert!(refused(&mut t, "gm", "/lotr money ガンダルフ +1GP").contains("/char new"));
    refused(&mut t, "gm", "/lotr money settings");
    run(&mut t, "gm", "/lotr money サム +1GP");
}

// ---- Session 3: Courage on the roll, infection, weariness recovery, owned fields, undo ----

/// The entry of the log's event `seq` as `who` sees it, in English.
fn seen_by(t: &Table, seq: u64, who: &str) -> String {
    let e = t
        .events()
        .iter()
        .find(|e| e.seq == seq)
        .expect("the event")
        .clone();
    t.entry(&e, who, taku_dice::Lang::En).text
}

/// LR-6 「前金で支払う必要はなく,テスト結果を見てから何点使うかを決めてよい」 and 「判定の修正値に
/// +3 ボーナス」: Courage spent after a roll is shown changing that roll. サム's
/// `LOTR+2>=15` with dice 3,5 is 10, margin −5, a Failure; two points make it 16, margin +1,
/// a Complete Success; two more build on that (22, +7, Superior).
#[test]
fn lr6_courage_rewrites_the_roll_it_follows() {
    let t0 = table([3; 32]);
    let seq = t0.next_seq() + 1;
    let seed = seed_where(seq, 2, |x| x == [3, 5]);
    let mut t = table(seed);
    run(&mut t, "gm", "/char set サム Courage 6");
    assert_eq!(t.next_seq(), seq);
    let out = run(&mut t, "bob", "LOTR+2>=15");
    assert!(out[0].contains("10"), "{out:?}");
    assert!(
        out[1].contains("10 vs 15（-5）Failure") && out[1].contains("/lotr courage サム"),
        "{out:?}"
    );
    let out = run(&mut t, "bob", "/lotr courage サム 2");
    assert!(out[0].contains("+6"), "{out:?}");
    assert!(
        out[1].contains("LOTR+2>=15")
            && out[1].contains("10 → 16 vs 15（+1）Complete Success（勇気の前は Failure）"),
        "{out:?}"
    );
    let out = run(&mut t, "bob", "/lotr courage サム 2");
    assert!(
        out[1].contains("16 → 22 vs 15（+7）Superior Success"),
        "{out:?}"
    );
    // The scene's end: that roll can no longer take Courage.
    run(&mut t, "gm", "/scene next");
    let out = run(&mut t, "bob", "/lotr courage サム 1");
    assert_eq!(out.len(), 1, "no rewrite after the scene: {out:?}");
}

/// LR-6 「Bold と Horselord を持ったキャラクターは…Ride 判定に+7」: the skill of the roll's
/// `{Ride}` reference picks the edges when the spending names none; a secret roll's record
/// and its rewriting are hidden from the other players.
#[test]
fn lr6_courage_reads_the_rolls_skill_and_keeps_a_secret_roll_secret() {
    let mut t = table([3; 32]);
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    run(&mut t, "alice", "SLOTR+{エオメル.Ride}>=12");
    let tested = t.next_seq() - 1;
    assert!(seen_by(&t, tested, "alice").contains("Courage may still be spent"));
    assert!(seen_by(&t, tested, "bob").contains("(hidden)"));
    let out = run(&mut t, "alice", "/lotr courage エオメル 1");
    // The spend line every member sees names no bonus; the rewrite (alice's) does.
    assert!(
        out[0].contains("非公開の判定") && !out[0].contains("+7"),
        "{out:?}"
    );
    assert!(out[1].contains("+7"), "{out:?}");
    let rewrite = t.next_seq() - 1;
    assert!(seen_by(&t, rewrite, "gm").contains("rewrites the last test"));
    assert!(seen_by(&t, rewrite, "bob").contains("(hidden)"));
    // The GM's secret roll for alice's character is not recorded (alice would see it).
    let before = t.next_seq();
    run(&mut t, "gm", "SLOTR+{エオメル.Observe}>=12");
    assert_eq!(t.next_seq(), before + 1, "the roll alone");
}

/// LR-4 医術: 「医者は Healing 判定を行い,傷が自然に1日回復するか, 1週間回復するか,あるいは
/// まったく回復しないかを決定する」 — the doctor's test sets how the infected wound heals
/// (the degree-to-rate table is the GM's: `infection_rates`); rest then heals at that
/// rate (a week's point rounded half up, LR-0), or not at all; `clear` ends it.
#[test]
fn lr4_infection_sets_how_the_wound_heals() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr damage サム 25");
    run(
        &mut t,
        "gm",
        "/lotr table infection_rates week,week,week,week,week,week,week",
    );
    let out = run(
        &mut t,
        "gm",
        "/lotr heal サム infection by=アラゴルン tn=10",
    );
    assert!(out[0].contains("1週間に1点回復する"), "{out:?}");
    assert!(sheet(&t, "サム").contains("infection (LR-4): the wound heals a point a week"));
    // 10 days: 10/7 = 1.43 → 1; 4 days: 0.57 → 1.
    run(&mut t, "gm", "/lotr heal サム rest 10");
    assert!(sheet(&t, "サム").contains("damage (until death): 24/"));
    run(&mut t, "gm", "/lotr heal サム rest 4");
    assert!(sheet(&t, "サム").contains("damage (until death): 23/"));
    run(
        &mut t,
        "gm",
        "/lotr table infection_rates none,none,none,none,none,none,none",
    );
    run(&mut t, "gm", "/lotr heal サム infection by=アラゴルン");
    run(&mut t, "gm", "/lotr heal サム rest 10");
    run(&mut t, "gm", "/lotr heal サム week");
    assert!(sheet(&t, "サム").contains("damage (until death): 23/"));
    run(&mut t, "gm", "/lotr heal サム infection clear");
    run(&mut t, "gm", "/lotr heal サム rest 3");
    assert!(sheet(&t, "サム").contains("damage (until death): 20/"));
    assert!(sheet(&t, "サム").contains("infection (LR-4): none"));
    // The table takes seven rates, one per degree; the doctor must be a character.
    assert!(refused(&mut t, "gm", "/lotr table infection_rates day,week").contains("seven"));
    assert!(
        refused(&mut t, "gm", "/lotr heal サム infection by=ガンダルフ").contains("no character")
    );
    assert!(refused(&mut t, "bob", "/lotr heal サム infection clear").contains("LR-4"));
}

/// LR-5 「疲労からの回復時間は,Table 9.39 @ P.249 の通りである」: rest lowers weariness a
/// level at a time, each taking the GM's table's minutes (example Winded 5, Tired 30,
/// Weary 60); Exhausted needs the recovery test instead.
#[test]
fn lr5_weariness_recovers_with_rest_by_the_table() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr weary サム +3");
    let out = run(&mut t, "gm", "/lotr weary サム rest 60");
    assert!(
        out[0].contains("疲労1段階回復") && out[0].contains("30分"),
        "{out:?}"
    );
    assert!(
        sheet(&t, "サム").contains("weariness: Tired"),
        "{}",
        sheet(&t, "サム")
    );
    run(&mut t, "gm", "/lotr weary サム rest 35");
    assert!(sheet(&t, "サム").contains("weariness: Hale"));
    run(&mut t, "gm", "/lotr weary サム +5");
    assert!(refused(&mut t, "gm", "/lotr weary サム rest 600").contains("/lotr recover"));
    assert!(refused(&mut t, "gm", "/lotr weary サム rest -1").contains("LR-5"));
    assert!(refused(&mut t, "bob", "/lotr weary サム rest 5").contains("LR-5"));
    run(&mut t, "gm", "/lotr table weariness_recovery 0,1,1,1,1,0");
    run(&mut t, "gm", "/lotr weary サム -1");
    run(&mut t, "gm", "/lotr weary サム rest 3");
    assert!(sheet(&t, "サム").contains("weariness: Winded"));
}

/// The fields the rules keep (issue 16 on `owned_fields`): a player may not set Courage,
/// Renown, derived values (Health, Defence, reactions) or tracked ones (damage,
/// weariness, Corruption) by hand; the GM may set Courage and Renown (the seed leaves
/// them to the GM), not the rest; once made, attributes are the GM's (and the picks') to
/// change (see `lr1_lr8_lr12_record_fields_by_hand`).
#[test]
fn owned_fields_are_the_rules() {
    let mut t = table([3; 32]);
    let why = refused(&mut t, "bob", "/char set サム Courage 9");
    assert!(why.contains("/lotr courage"), "{why}");
    assert!(refused(&mut t, "bob", "/char set サム Renown 5").contains("/lotr renown"));
    assert!(refused(&mut t, "gm", "/char set サム Health 30").contains("VIT"));
    assert!(refused(&mut t, "gm", "/char set サム Defence 20").contains("NIM"));
    assert!(refused(&mut t, "bob", "/char set サム Willpower 5").contains("LR-3"));
    assert!(refused(&mut t, "bob", "/char set サム Corruption 0").contains("LR-7"));
    assert!(refused(&mut t, "bob", "/char set サム 疲労 0").contains("LR-5"));
    assert!(refused(&mut t, "gm", "/char set サム damage 0").contains("LR-4"));
    run(&mut t, "gm", "/char set サム Courage 5");
    assert!(sheet(&t, "サム").contains("Courage: 5/5"));
    run(&mut t, "gm", "/char set サム NIM 8");
    assert!(sheet(&t, "サム").contains("Defence: 11"));
    // A sheet file still creates a character (its Courage is the creation's).
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    assert!(sheet(&t, "エオメル").contains("Courage: 3/3"));
}

/// Undo (issue 16 on `builds_on`): a line later entries rest on cannot be undone while
/// they stand — a fighter's joining under its actions (LR-14), an advancement under its
/// picks and the XP under the advancement (LR-12), a unit under its attacks (LR-16).
#[test]
fn undo_refused_while_a_later_entry_rests_on_it() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join サム");
    let joined = t.next_seq() - 1;
    run(&mut t, "bob", "/lotr combat act サム move");
    let why = refused(&mut t, "gm", &format!("/undo #{joined}"));
    assert!(why.contains("サム joining the fight (LR-14)"), "{why}");
    run(&mut t, "bob", "/undo");
    run(&mut t, "gm", &format!("/undo #{joined}"));

    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    run(&mut t, "gm", "/lotr xp award エオメル rp 1000");
    run(&mut t, "gm", "/lotr xp credit エオメル");
    let credited = t.next_seq() - 1;
    run(&mut t, "gm", "/lotr xp advance エオメル");
    let advanced = t.next_seq() - 1;
    run(&mut t, "alice", "/lotr xp pick エオメル rank Run");
    assert!(refused(&mut t, "gm", &format!("/undo #{advanced}")).contains("advancement (LR-12)"));
    assert!(refused(&mut t, "gm", &format!("/undo #{credited}")).contains("XP (LR-12)"));

    run(
        &mut t,
        "gm",
        "/lotr unit add ローハン men=230 str=8 tough=6 mob=6 morale=7",
    );
    let added = t.next_seq() - 1;
    run(
        &mut t,
        "gm",
        "/lotr unit add オーク men=100 str=6 tough=5 mob=5 morale=5",
    );
    run(&mut t, "gm", "/lotr unit attack ローハン オーク +3");
    assert!(refused(&mut t, "gm", &format!("/undo #{added}")).contains("unit 'ローハン'"));
}

// ---- Session 3: the second play-through's findings (/work/findings/lotr2.md) ----------

/// LR-9 with LR-4/LR-5 (「負傷・疲労によって受けたペナルティ」 on every test): the penalty
/// is the tested character's whoever rolls — the GM for a player's character, a player
/// with two characters — and each side of an opposed test takes its own.
#[test]
fn lr9_penalties_follow_the_named_character_whoever_rolls() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr damage サム 15"); // Dazed −1
    run(&mut t, "gm", "/lotr damage アラゴルン 13"); // Dazed −1
    let out = run(&mut t, "gm", "LOTR+{サム.Stamina}>=10");
    assert!(out[0].starts_with("(LOTR+2>=11)"), "{out:?}");
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    // alice owns アラゴルン and エオメル: the named one's penalty applies.
    let out = run(&mut t, "alice", "LOTR+{アラゴルン.Stamina}>=10");
    assert!(out[0].starts_with("(LOTR+3>=11)"), "{out:?}");
    let out = run(
        &mut t,
        "gm",
        "LOTR+{アラゴルン.Stamina} VS LOTR+{サム.Stamina}",
    );
    assert!(out[0].starts_with("(LOTR+2 VS LOTR+1)"), "{out:?}");
}

/// LR-4: 「Near Death … の次で死亡」 — the dead are not healed back, take no tests and no
/// part in combat; a later change of `hobbit_death` does not raise them.
#[test]
fn lr4_the_dead_stay_dead() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr damage サム 60");
    assert!(refused(&mut t, "gm", "/lotr heal サム rest 100").contains("LR-4"));
    assert!(refused(&mut t, "gm", "/lotr heal サム skill").contains("dead"));
    assert!(refused(&mut t, "bob", "LOTR+{サム.Stamina}>=10").contains("dead"));
    assert!(refused(&mut t, "bob", "/lotr courage サム 1").contains("dead"));
    assert!(refused(&mut t, "gm", "/lotr combat join サム").contains("dead"));
    // A Hobbit dead at 40 under `on_incapacitated` stays dead under `overflow`.
    run(
        &mut t,
        "gm",
        "/char set アラゴルン race Hobbits hobbit true VIT 8 STR 4",
    );
    run(&mut t, "gm", "/lotr set hobbit_death on_incapacitated");
    run(&mut t, "gm", "/lotr damage アラゴルン 40");
    run(&mut t, "gm", "/lotr set hobbit_death overflow");
    assert!(
        sheet(&t, "アラゴルン").contains("wound level: Dead"),
        "{}",
        sheet(&t, "アラゴルン")
    );
}

/// LR-5: the weariness table is not rewritten behind the GM's back: renaming keeps the
/// count; a new count comes with each level's penalty and minutes.
#[test]
fn lr5_weariness_levels_change_with_their_penalties() {
    let mut t = table([3; 32]);
    let why = refused(&mut t, "gm", "/lotr table weariness_levels A,B,C");
    assert!(why.contains("NAME:PENALTY:MINUTES"), "{why}");
    run(
        &mut t,
        "gm",
        "/lotr table weariness_levels Fresh:0:0,Tired:-2:10,Out:-6:0",
    );
    run(&mut t, "gm", "/lotr weary サム +1");
    assert!(
        sheet(&t, "サム").contains("weariness: Tired (-2)"),
        "{}",
        sheet(&t, "サム")
    );
    run(&mut t, "gm", "/lotr table weariness_levels 元気,疲れ,限界");
    assert!(sheet(&t, "サム").contains("weariness: 疲れ (-2)"));
}

/// LR-5 「他のキャラクターは,目標値10のHealing判定を行うことで回復を助けることができる」: the
/// helper's degree comes from the helper's roll (`helper=`); a degree typed by hand is
/// the GM's.
#[test]
fn lr5_the_helpers_degree_is_rolled() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr weary サム +5");
    let why = refused(&mut t, "bob", "/lotr recover サム extraordinary");
    assert!(why.contains("helper="), "{why}");
    let out = run(&mut t, "bob", "/lotr recover サム helper=アラゴルン");
    assert!(
        out[0].contains("アラゴルンのHealing判定（目標値10）"),
        "{out:?}"
    );
    assert!(refused(&mut t, "bob", "/lotr recover サム helper=サム").contains("LR-5"));
}

/// LR-4 「1週間に1回Stamina判定を行う. このときの目標値は負傷段階によって決まる」: `week`
/// rolls the test (`week ok` records a success the GM rolled); constant attendance rolls
/// the healer's Healing each day (「毎日 Healing 判定を行って倍の速度で」).
#[test]
fn lr4_weekly_test_and_attendance_are_rolled() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr damage サム 25");
    let out = run(&mut t, "gm", "/lotr heal サム week");
    assert!(
        out[0].contains("週のStamina判定（Injured、目標値10）"),
        "{out:?}"
    );
    run(
        &mut t,
        "gm",
        "/lotr table healing_tns -50,-50,-50,-50,-50,-50",
    );
    let before = number_after(&sheet(&t, "サム"), "damage (until death): ").expect("damage");
    let out = run(&mut t, "gm", "/lotr heal サム attended 3 by=アラゴルン");
    assert!(out[0].contains("成功3日"), "{out:?}");
    let after = number_after(&sheet(&t, "サム"), "damage (until death): ").expect("damage");
    assert_eq!(before - after, 6, "three days, each doubled");
    assert!(refused(&mut t, "gm", "/lotr heal サム attended 3").contains("usage"));
}

/// LR-12 「成長ポイントを用いて,職業スキル…が獲得できる」 and §1.6.3 兼業: the order's skill
/// list (example data) is buyable, a joined order's too; bought edges and a new flaw are
/// the character's (shown on its sheet); LR-14 Swift Strike adds an action at `join`.
#[test]
fn lr12_order_skills_edges_and_flaws_and_swift_strike() {
    let mut t = table([3; 32]);
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    run(&mut t, "gm", "/lotr xp award エオメル rp 3000");
    run(&mut t, "gm", "/lotr xp credit エオメル");
    run(&mut t, "gm", "/lotr xp advance エオメル");
    // Climb is a Warrior skill in the data, though the sheet bought it with free points.
    run(&mut t, "alice", "/lotr xp pick エオメル rank Climb");
    run(&mut t, "alice", "/lotr xp close エオメル");
    run(&mut t, "gm", "/lotr xp advance エオメル");
    run(&mut t, "alice", "/lotr xp pick エオメル order Rogue");
    run(
        &mut t,
        "gm",
        "/lotr xp advance エオメル Rogue flaw=Stubborn",
    );
    run(&mut t, "alice", "/lotr xp pick エオメル rank Legerdemain");
    run(&mut t, "alice", "/lotr xp pick エオメル edge Hardy");
    let s = sheet(&t, "エオメル");
    assert!(s.contains("Legerdemain 1 ranks"), "{s}");
    assert!(s.contains("edges: Bold, Horselord, Hardy"), "{s}");
    assert!(s.contains("flaws: Arrogant, Stubborn"), "{s}");
    let out = run(&mut t, "gm", "/lotr combat join エオメル");
    assert!(
        out[0].contains("3 actions") || out[0].contains("アクション 3"),
        "{out:?}"
    );
}

/// LR-8 「Armed Combat では,スキルが6ランク,9ランク,12ランクに達したときに, 特定の戦闘行動
/// (防御攻撃,なぎ払いなど)を1つ選び, その行動に関してだけ+1のボーナスを得る」: エオメル's
/// Swords reach 6 ranks by advancement; one pick (sweep) is allowed, a second refused
/// until 9; `combat attack … skill=Swords` takes the skill's modifier from the record and
/// the pick's +1 on a sweep; the pick rests on the ranks (their undo is refused).
#[test]
fn lr8_armed_combat_picks() {
    let mut t = table([3; 32]);
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    let why = refused(&mut t, "alice", "/lotr armed エオメル Swords sweep");
    assert!(
        why.contains("LR-8") && why.contains("4 ranks gives 0 picks"),
        "{why}"
    );
    run(&mut t, "gm", "/lotr xp award エオメル rp 1000");
    run(&mut t, "gm", "/lotr xp credit エオメル");
    run(&mut t, "gm", "/lotr xp advance エオメル");
    run(
        &mut t,
        "alice",
        "/lotr xp pick エオメル rank Armed_Combat:_Swords",
    );
    run(
        &mut t,
        "alice",
        "/lotr xp pick エオメル rank Armed_Combat:_Swords",
    );
    let second = t.next_seq() - 1;
    assert!(sheet(&t, "エオメル").contains("Armed Combat: Swords 6 ranks"));
    let out = run(&mut t, "alice", "/lotr armed エオメル Swords sweep");
    assert!(out[0].contains("sweep を強化: その行動に+1"), "{out:?}");
    assert!(refused(&mut t, "alice", "/lotr armed エオメル Swords parry").contains("1 taken"));
    assert!(
        refused(&mut t, "alice", "/lotr armed エオメル Swords fly").contains("no combat action")
    );
    assert!(refused(&mut t, "bob", "/lotr armed エオメル Swords parry").contains("alice"));
    let why = refused(&mut t, "alice", &format!("/undo #{second}"));
    assert!(why.contains("ranks in Armed Combat: Swords"), "{why}");
    run(&mut t, "gm", "/lotr combat join エオメル");
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク swift=+0 def=10 str=8",
    );
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク2 swift=+0 def=10 str=8",
    );
    let out = run(
        &mut t,
        "alice",
        "/lotr combat attack エオメル オーク,オーク2 sweep skill=Swords dmg=2d6+4",
    );
    let note = out.iter().find(|l| l.contains("LR-8")).expect("a note");
    // Swords 6 ranks + NIM 11 (+2) = +8; the sweep pick +1.
    assert!(
        note.contains("エオメルのArmed Combat: Swords（判定+8）")
            && note.contains("sweep の強化 +1"),
        "{out:?}"
    );
    assert!(
        refused(
            &mut t,
            "alice",
            "/lotr combat attack エオメル オーク skill=Axes"
        )
        .contains("LR-8")
    );
}

/// LR-14 「両手に武器を持つ: 1アクションで,利き腕と逆腕の両方で1回ずつ攻撃できる.
/// Ambidextrous Edgeを持たない場合はペナルティがある」: one action, two strikes, each with
/// the GM's penalty (`two_weapon_penalty`, example −2,−4), none with Ambidextrous.
#[test]
fn lr14_two_weapons() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join アラゴルン");
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク swift=+0 def=10 str=8",
    );
    run(&mut t, "gm", "/lotr set two_weapon_penalty -50,-60");
    let out = run(
        &mut t,
        "alice",
        "/lotr combat attack アラゴルン オーク two-weapons dmg=2d6 off=1d6 +5",
    );
    let line = &out[0];
    assert_eq!(line.matches("→ オーク").count(), 2, "{out:?}");
    assert!(line.contains("（1 アクション"), "{out:?}");
    assert!(line.contains("-45") && line.contains("-55"), "{out:?}");
    let out = run(
        &mut t,
        "alice",
        "/lotr combat attack アラゴルン オーク two-weapons ambi dmg=2d6 +5",
    );
    assert!(
        !out[0].contains("-45") && out[0].matches("→ オーク").count() == 2,
        "{out:?}"
    );
    assert!(
        refused(
            &mut t,
            "alice",
            "/lotr combat attack アラゴルン オーク off=1d6 +5"
        )
        .contains("two-weapons")
    );
    assert!(
        refused(&mut t, "gm", "/lotr set two_weapon_penalty 3,x").contains("two_weapon_penalty")
    );
    // At two targets: the same two penalties, not sweep's −4 besides (lotr3).
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join アラゴルン");
    for orc in ["オーク", "ウルク"] {
        let line = format!("/lotr combat join {orc} swift=+0 def=10 str=8");
        run(&mut t, "gm", &line);
    }
    run(&mut t, "gm", "/lotr set two_weapon_penalty -50,-60");
    let out = run(
        &mut t,
        "alice",
        "/lotr combat attack アラゴルン オーク,ウルク two-weapons dmg=2d6 off=1d6 +5",
    );
    let line = &out[0];
    assert!(
        line.contains("→ オーク") && line.contains("→ ウルク"),
        "{out:?}"
    );
    assert!(line.contains("-45") && line.contains("-55"), "{out:?}");
}

/// LR-4 (Table 9.35) 「毒を中和する際の Healing 判定には, もし毒の正体を知らない場合は,
/// そのための Healing 判定(GMが設定)に成功した上で 目標値 10 + Treatment 修正の Healing
/// 判定を行う」: an identification that fails stops there; a neutralising success ends the
/// poison's stages.
#[test]
fn lr4_poison_treated_with_healing() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr poison サム 4 2d6 ウルクの毒");
    let out = run(
        &mut t,
        "gm",
        "/lotr poison サム treat by=アラゴルン 0 identify=100",
    );
    assert!(out[0].contains("正体がわからない"), "{out:?}");
    assert!(sheet(&t, "サム").contains("ウルクの毒"));
    let out = run(&mut t, "gm", "/lotr poison サム treat by=アラゴルン -100");
    assert!(out[0].contains("中和した"), "{out:?}");
    assert!(!sheet(&t, "サム").contains("ウルクの毒"));
    assert!(refused(&mut t, "gm", "/lotr poison サム next").contains("no poison"));
}

/// Smaller findings: delaying (LR-14 「行動を「遅らせる」宣言」), full-width digits in every
/// `/lotr` command, the units' state, travel's last partial day, a hero who is no
/// character (LR-15), a blunt blow at the head pointing to the stun test.
#[test]
fn smaller_findings_of_the_second_play_through() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join アラゴルン");
    run(&mut t, "gm", "/lotr combat join サム");
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク swift=+0 def=10 str=8",
    );
    run(&mut t, "gm", "/lotr combat init");
    let out = run(&mut t, "bob", "/lotr combat delay サム");
    assert!(out[0].ends_with("→ サム"), "{out:?}");
    assert!(refused(&mut t, "bob", "/lotr combat delay サム after=サム").contains("LR-14"));
    run(&mut t, "gm", "/lotr xp award サム rp ５００");
    run(
        &mut t,
        "gm",
        "/lotr unit add ローハン men=２３０ str=8 tough=6 mob=6 morale=7",
    );
    let out = run(&mut t, "alice", "/lotr unit list");
    assert!(out[0].contains("サイズ 23"), "{out:?}");
    let out = run(&mut t, "gm", "/lotr travel 125 フロド=20 アラゴルン=30");
    assert!(out[0].contains("残り5はもう1日"), "{out:?}");
    run(&mut t, "gm", "/lotr battle start");
    assert!(refused(&mut t, "gm", "/lotr battle hero ゴラム").contains("no character"));
    let why = refused(
        &mut t,
        "gm",
        "/lotr combat attack オーク サム dmg=1d6 +99999999999",
    );
    assert!(why.contains("too large"), "{why}");
    let out = run(
        &mut t,
        "gm",
        "/lotr combat attack オーク サム blunt-head dmg=1d6 +40",
    );
    assert!(out[0].contains("/lotr combat stun サム"), "{out:?}");
    run(&mut t, "gm", "/char new ボロミア");
    run(
        &mut t,
        "gm",
        "/lotr create ボロミア pick １２,１１,９,８,６,４ race=Men order=Warrior",
    );
    assert!(sheet(&t, "ボロミア").contains("BRG (Bearing): 12"));
}

/// LR-13: starting money is rolled once per character (a second roll would add to the
/// purse again); LR-1 「能力値の最小は1」: an attribute below 1 is refused.
#[test]
fn lr13_starting_money_once_and_lr1_attributes_at_least_one() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr money サム start +2 -1");
    assert!(refused(&mut t, "gm", "/lotr money サム start +2 -1").contains("LR-13"));
    // 「各能力値は,最低1」: 0 is refused, for the GM too, saying the range.
    let why = refused(&mut t, "gm", "/char set サム BRG 0");
    assert!(
        why.contains("LR-1") && why.contains("from 1 to 99"),
        "{why}"
    );
    run(&mut t, "gm", "/char set サム BRG 1");
    assert!(
        sheet(&t, "サム").contains("BRG (Bearing): 1 (mod -3)"),
        "{}",
        sheet(&t, "サム")
    );
}

/// LR-1 「各能力値は,最低1,最大で12+種族修正値となる. 魔法などを用いた場合のみ,一時的に12+種族修正を
/// 超えることができる」, LR-8 (ranks 0–12), LR-12 (attributes, skills, edges rise by
/// advancement picks): the record's fields through `/char set` and sheets. A player makes
/// a character with values the rules can read; once it is made, only the GM changes its
/// record by hand (and the rules follow the GM's value, a skill included); misspelt record
/// keys, values that are no number and unknown Sizes are refused, each saying what is
/// allowed; a refused line changes nothing.
#[test]
fn lr1_lr8_lr12_record_fields_by_hand() {
    let mut t = table([3; 32]);
    // Making a character: within 1 .. 12 + the racial modifier.
    run(&mut t, "alice", "/char new ピピン");
    let why = refused(
        &mut t,
        "alice",
        "/char set ピピン STR 13 VIT 8 NIM 7 PER 7 BRG 8 WIT 10",
    );
    assert!(
        why.contains("LR-1") && why.contains("12 + the racial modifier = 12 for Men"),
        "{why}"
    );
    let why = refused(&mut t, "alice", "/char set ピピン BRG abc");
    assert!(
        why.contains("whole number from 1 to 12") && why.contains("'abc'"),
        "{why}"
    );
    let why = refused(&mut t, "alice", "/char set ピピン str 9");
    assert!(why.contains("write it STR"), "{why}");
    // Dwarves VIT +2: up to 14 (the example data's modifier).
    run(
        &mut t,
        "alice",
        "/char set ピピン race Dwarves STR ９ VIT 14 NIM 7 PER 7 BRG 8 WIT 10",
    );
    let s = sheet(&t, "ピピン");
    assert!(
        s.contains("STR (Strength): 9") && s.contains("VIT (Vitality): 14"),
        "{s}"
    );
    // Made: the player's own attributes, skills, race, edges are the GM's and the picks'.
    for (line, says) in [
        ("/char set サム STR 18", "/lotr xp pick サム attr STR"),
        ("/char set サム NIM 8", "only a GM sets NIM"),
        ("/char set サム created.STR 18", "(LR-3)"),
        (
            "/char set サム skill.Ride 12|BRG|0|",
            "/lotr xp pick サム rank SKILL",
        ),
        (
            "/char set サム skill.Stealth 3",
            "/lotr xp pick サム rank SKILL",
        ),
        ("/char set サム race Elves", "fixed at creation"),
        (
            "/char set サム order Wizard",
            "/lotr xp pick サム order ORDER",
        ),
        (
            "/char set サム edges Bold,Horselord",
            "/lotr xp pick サム edge NAME",
        ),
        ("/char set サム courage_edges Bold=9", "edge NAME"),
        ("/char set サム favoured BRG,WIT", "chosen at creation"),
        (
            "/char set サム reaction_advances 3,0,0,0",
            "reaction Stamina",
        ),
    ] {
        let why = refused(&mut t, "bob", line);
        assert!(
            why.contains(says) && why.contains("only a GM"),
            "{line}: {why}"
        );
    }
    // What the rules could not read is refused for the GM too, saying what is allowed.
    for (line, says) in [
        ("/char set サム BRG abc", "whole number from 1 to 99"),
        (
            "/char set サム size huge",
            "small / medium / large / mammoth",
        ),
        ("/char set サム skill.Ride 13", "from 0 to 12"),
        ("/char set サム skill.Ride 3|XYZ", "BRG NIM PER STR VIT WIT"),
        (
            "/char set サム skill.Ride 0|BRG|0|Horse",
            "rank-0 skill takes no specialisation",
        ),
        ("/char set サム hobbit maybe", "true or false"),
        ("/char set サム courage_edges Bold", "EDGE=BONUS"),
    ] {
        let why = refused(&mut t, "gm", line);
        assert!(why.contains(says), "{line}: {why}");
    }
    // The GM's value is followed, after the rules have read the record too: a skill set by
    // hand is rolled, not ignored (Ride 4 + BRG 8 mod +1 + Horse +2); magic may pass the
    // racial maximum.
    run(&mut t, "gm", "/lotr damage サム 1");
    run(
        &mut t,
        "gm",
        "/char set サム skill.Ride 4|BRG|0|Horse STR 18",
    );
    let out = run(&mut t, "bob", "LOTR+{サム.Ride/Horse}>=10");
    assert!(out[0].starts_with("(LOTR+7>=10)"), "{out:?}");
    assert!(sheet(&t, "サム").contains("STR (Strength): 18"));
    // A player's sheet sent again may not rewrite the attributes; the GM's may.
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    let changed = SHEET.replace("BRG = 6, NIM = 11", "BRG = 7, NIM = 10");
    let before = t.events().len();
    let err = t.decide_sheet("alice", &changed).expect_err("refused");
    assert!(
        err.render(taku_dice::Lang::En)
            .contains("only a GM sets BRG"),
        "{err:?}"
    );
    assert_eq!(t.events().len(), before);
    let d = t.decide_sheet("gm", &changed).expect("the GM's");
    t.apply("gm", d.events);
    assert!(sheet(&t, "エオメル").contains("BRG (Bearing): 7"));
}

/// LR-4 fire: 「他のキャラクターが火を消すのを援護する場合,グループによる判定と同様に扱う. ただし,
/// やはり着火を避けるための Swiftness 判定を行う必要があり, 援護するキャラクターは +5 の修正付きで
/// 判定する」 — each helper tests Swiftness at TN − 5 (LR-10) and gives its group bonus to the
/// burning character's re-test, and tests Swiftness +5 against the fire's TN or is set alight.
#[test]
fn lr4_fire_helpers_test_as_a_group_and_against_catching_fire() {
    let mut t = table([3; 32]);
    let why = refused(&mut t, "gm", "/lotr fire サム 12 help=アラゴルン");
    assert!(why.contains("LR-4") && why.contains("not burning"), "{why}");
    // TN 40: サム (Swiftness +0) catches fire.
    let out = run(&mut t, "gm", "/lotr fire サム 40");
    assert!(out.iter().any(|l| l.contains("炎に包まれた")), "{out:?}");
    assert!(refused(&mut t, "gm", "/lotr fire サム 12 help=サム").contains("other than サム"));
    assert!(refused(&mut t, "gm", "/lotr fire サム 12 help=ゴラム").contains("ゴラム"));
    let out = run(&mut t, "gm", "/lotr fire サム 12 help=アラゴルン");
    // The helper: Swiftness +2 (PER 10) at TN 12 − 5 = 7, then +2 +5 = +7 against TN 12.
    let helper = out
        .iter()
        .find(|l| l.starts_with("アラゴルン"))
        .unwrap_or_else(|| panic!("{out:?}"));
    assert!(
        helper.contains("目標値7") && helper.contains(" vs 7 ("),
        "{helper}"
    );
    assert!(
        helper.contains("Swiftness+5") && helper.contains(" vs 12 ("),
        "{helper}"
    );
    assert!(
        helper.contains("+7 ＞") || helper.contains("+7="),
        "{helper}"
    );
    // The burning one's re-test names the help it got.
    let burning = out
        .iter()
        .find(|l| l.starts_with("サム"))
        .expect("サム's line");
    assert!(
        burning.contains("消火の再判定") && burning.contains("援護"),
        "{burning}"
    );
    assert!(burning.contains("アラゴルン +"), "{burning}");
}

/// LR-11/LR-14 `fear_tie` is one setting: one log line, however it is set, and combat's
/// fear reads it.
#[test]
fn fear_tie_is_one_line() {
    let mut t = table([3; 32]);
    assert_eq!(run(&mut t, "gm", "/lotr set fear_tie retest").len(), 1);
    assert_eq!(
        run(&mut t, "gm", "/lotr combat set fear_tie marginal").len(),
        1
    );
    let (reply, _) = t.exec("gm", "/lotr settings").expect("settings");
    let s = reply.map(|r| r.en().to_string()).unwrap_or_default();
    assert!(s.contains("fear_tie = marginal"), "{s}");
    assert!(!s.contains("fear_tie = retest"), "{s}");
}

/// LR-8 (ranks 0–12, skills from the sheet and picks) and LR-9 (total = 2d6 + ranks +
/// attribute mod): a LotR test's `{NAME.KEY}` the rules cannot read for a character with a
/// record is refused, not rolled with a hand-made field of that name (lotr3: `/char set 剣士
/// Foo 99` then `LOTR+{剣士.Foo}` rolled `LOTR+99`).
#[test]
fn lr8_a_skill_the_record_lacks_is_no_hand_made_field() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/char set サム Foo 99");
    let why = refused(&mut t, "bob", "LOTR+{サム.Foo}>=10");
    assert!(
        why.contains("LR-8") && why.contains("no skill 'Foo'"),
        "{why}"
    );
    assert!(refused(&mut t, "bob", "LOTR+{Foo}>=10").contains("no skill 'Foo'"));
    // What the rules read still rolls: a modifier, a reaction.
    let out = run(&mut t, "bob", "LOTR+{サム.STR修正}>=10");
    assert!(out[0].starts_with("(LOTR>=10)"), "{out:?}");
    run(&mut t, "bob", "LOTR+{Stamina}>=10");
}

/// LR-1 「ランダム法: 2d6 を9回振って,高いもの6つを6種類の能力値に割り当てる」: at a table the nine
/// 2d6 are the table's (`/lotr create NAME random`); a player's random-method sheet with rolls
/// of its own is refused (lotr3: `rolls = [12 ×9]` gave every attribute 12), the GM's is not.
#[test]
fn lr1_a_random_sheets_rolls_are_the_tables() {
    let mut t = table([3; 32]);
    let random = SHEET.replace(
        "method = \"pick\"",
        "method = \"random\"\nrolls = [12, 11, 9, 8, 6, 4, 2, 2, 2]",
    );
    let before = t.events().len();
    let err = t.decide_sheet("alice", &random).expect_err("refused");
    let why = err.render(taku_dice::Lang::En);
    assert!(
        why.contains("LR-1") && why.contains("/lotr create エオメル random"),
        "{why}"
    );
    // Rolled at the table: other rolls on the sheet are still refused, naming the table's.
    run(&mut t, "alice", "/char new エオメル");
    run(&mut t, "alice", "/lotr create エオメル random");
    let err = t.decide_sheet("alice", &random).expect_err("refused");
    assert!(
        err.render(taku_dice::Lang::En).contains("must be those["),
        "{err:?}"
    );
    assert_eq!(t.events().len(), before + 2);
    let d = t
        .decide_sheet("gm", &random)
        .expect("the GM may allow them");
    t.apply("gm", d.events);
}

/// LR-14: a fighter the GM joined with no table character of its name is the GM's: a player
/// may neither make a character of that name nor act for it (lotr3: bob's sheet named
/// オーク took over the GM's orc).
#[test]
fn lr14_the_gms_fighter_stays_the_gms() {
    let mut t = table([3; 32]);
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク swift=+1 def=11 str=9",
    );
    let orc = SHEET.replace("name = \"エオメル\"", "name = \"オーク\"");
    let err = t.decide_sheet("bob", &orc).expect_err("refused");
    assert!(err.render(taku_dice::Lang::En).contains("LR-14"), "{err:?}");
    run(&mut t, "bob", "/char new オーク");
    let why = refused(
        &mut t,
        "bob",
        "/char set オーク STR 9 VIT 10 NIM 7 PER 7 BRG 8 WIT 10",
    );
    assert!(why.contains("GM's fighter"), "{why}");
    run(&mut t, "gm", "/lotr combat join サム");
    run(&mut t, "gm", "/lotr combat init");
    let why = refused(&mut t, "bob", "/lotr combat attack オーク サム dmg=2d6 +5");
    assert!(why.contains("joined the fight as the GM's"), "{why}");
    run(&mut t, "gm", "/lotr combat attack オーク サム dmg=2d6 +5");
}

/// LR-6 「判定の後で…Courage 1点につき+3」 goes on the test just made (lotr3: Courage after
/// a weariness test rewrote an older dice-line test): a later `/lotr` test of the character
/// ends the older roll's rewriting, and the spend says the GM adds the bonus. LR-5: Courage
/// recovers weariness only from a weary character (no point spent for nothing).
#[test]
fn lr6_courage_goes_on_the_test_just_made() {
    let mut t = table([3; 32]);
    run(&mut t, "bob", "LOTR+{サム.Stamina}>=10");
    run(&mut t, "gm", "/lotr weary サム test 10");
    let out = run(&mut t, "bob", "/lotr courage サム 1");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].contains("直前の判定は記録されていない"), "{out:?}");
    let why = refused(&mut t, "gm", "/lotr courage アラゴルン weariness");
    assert!(why.contains("LR-5") && why.contains("not weary"), "{why}");
}

/// LR-16: a unit's Size falls only by hits: `unit add` of a name in use is refused, not a
/// silent replacement (lotr3: Size 20 → 1 mid-battle). LR-12 「新しい欠点を得ることで6ポイント」:
/// a flaw the character has already is not new (lotr3: the same flaw gave 6 picks twice).
/// LR-3 「Renown: 知名度. 0 からスタート」: a player's new character starts at 0.
#[test]
fn lr16_lr12_lr3_no_second_unit_flaw_or_starting_renown() {
    let mut t = table([3; 32]);
    run(
        &mut t,
        "gm",
        "/lotr unit add 騎兵 men=200 str=8 tough=6 mob=6 morale=7",
    );
    let why = refused(
        &mut t,
        "gm",
        "/lotr unit add 騎兵 men=10 str=8 tough=6 mob=6 morale=7",
    );
    assert!(why.contains("LR-16") && why.contains("already"), "{why}");
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    run(&mut t, "gm", "/lotr xp award エオメル rp 3000");
    run(&mut t, "gm", "/lotr xp credit エオメル");
    let why = refused(&mut t, "alice", "/lotr xp advance エオメル flaw=Arrogant");
    assert!(why.contains("'Arrogant' already"), "{why}");
    run(&mut t, "alice", "/lotr xp advance エオメル flaw=頑固");
    run(&mut t, "alice", "/lotr xp close エオメル");
    let why = refused(&mut t, "alice", "/lotr xp advance エオメル flaw=頑固");
    assert!(
        why.contains("LR-12") && why.contains("'頑固' already"),
        "{why}"
    );
    let famous = SHEET
        .replace("renown = 0", "renown = 50")
        .replace("name = \"エオメル\"", "name = \"名声\"");
    let err = t.decide_sheet("alice", &famous).expect_err("refused");
    assert!(
        err.render(taku_dice::Lang::En)
            .contains("Renown starts at 0"),
        "{err:?}"
    );
    let d = t.decide_sheet("gm", &famous).expect("the GM's");
    t.apply("gm", d.events);
}

/// The modifier a line's printed test carries: `(LOTR+3>=10)` → 3.
fn printed_modifier(line: &str) -> i64 {
    let after = line.trim_start_matches("(LOTR");
    let end = after.find(['>', ')']).expect("a modifier");
    after[..end].parse().expect("a number")
}

/// LR-14 「スタンしたキャラクターはすべての判定にペナルティ」, fear's −1/−2/−4 「すべての行動
/// に」, a grabbed target's TNs +5 — off combat's own rolls too: an ordinary `LOTR` test of the
/// character during the fight carries them on its TN (LR-9: external modifiers on the TN).
/// The stun test is a Stamina test (「Stamina 判定を行い」): the sheet's Stamina is added; an
/// Extraordinary Success ignores the new blow, not an earlier stun (lotr3 (6), lotr4).
#[test]
fn lr14_lr9_stun_fear_and_grab_go_on_ordinary_tests() {
    // The Intimidate modifier that gives a Complete Success (fear −2) on this seed.
    let mut found = None;
    for m in -20..=20 {
        let mut t = table([5; 32]);
        let stamina = printed_modifier(&run(&mut t, "gm", "LOTR+{サム.Stamina}")[0]);
        run(&mut t, "gm", "/lotr combat join サム");
        run(
            &mut t,
            "gm",
            "/lotr combat join オーク swift=+0 def=10 str=9",
        );
        // No modifier written: +0, and サム's Stamina from the sheet.
        let out = run(&mut t, "gm", "/lotr combat stun サム tn=100 pen=4 rounds=3");
        assert!(
            out[0].contains(&format!("]{stamina:+}=")) || (stamina == 0 && !out[0].contains("]+")),
            "{out:?}"
        );
        let out = run(&mut t, "bob", "LOTR+{サム.Stamina}>=10");
        assert!(out[0].contains(">=14)"), "stun −4 on the TN: {out:?}");
        assert!(out.join("\n").contains("スタン−4"), "{out:?}");
        let out = run(
            &mut t,
            "gm",
            &format!("/lotr combat fear オーク サム {m:+}"),
        );
        if out[0].contains("全行動 −2") {
            found = Some((t, stamina));
            break;
        }
    }
    let (mut t, _) = found.expect("a modifier giving Complete fear");
    let out = run(&mut t, "bob", "LOTR+{サム.Stamina}>=10");
    assert!(out[0].contains(">=16)"), "stun −4, fear −2: {out:?}");
    assert!(out.join("\n").contains("恐怖−2"), "{out:?}");
    run(&mut t, "gm", "/lotr combat attack オーク サム grab +100");
    let out = run(&mut t, "bob", "LOTR+{サム.Stamina}>=10");
    assert!(out[0].contains(">=21)"), "grabbed: TN +5 more: {out:?}");
    assert!(
        out.join("\n").contains("オークにつかまれて目標値+5"),
        "{out:?}"
    );
    // Without a TN the conditions come off the total.
    let out = run(&mut t, "bob", "LOTR+0");
    assert!(out[0].starts_with("(LOTR-11)"), "{out:?}");
    // An Extraordinary stun test ignores the new blow; the earlier −4 stays.
    let out = run(
        &mut t,
        "gm",
        "/lotr combat stun サム +80 tn=0 pen=2 rounds=1",
    );
    assert!(
        out[0].contains("影響なし") || out[0].contains("Extraordinary"),
        "{out:?}"
    );
    let out = run(&mut t, "bob", "LOTR+0>=10");
    assert!(out[0].contains(">=21)"), "{out:?}");
    // A stun of no rounds is no stun.
    let why = refused(
        &mut t,
        "gm",
        "/lotr combat stun サム +0 tn=12 pen=4 rounds=0",
    );
    assert!(why.contains("rounds 1–1000"), "{why}");
}

/// LR-10 「リーダーが判定し、リーダー以外の全員がそれぞれ目標値 −5 の判定」 with LR-4/LR-5: a
/// helper named `{NAME.…}` tests with its own wound and weariness penalty; each member other
/// than the leader helps once; a dead or unconscious helper helps nobody; the test is the
/// leader's for Courage (lotr3 (7), lotr4).
#[test]
fn lr10_each_helper_tests_once_with_its_own_condition() {
    let mut t = table([3; 32]);
    let a = printed_modifier(&run(&mut t, "gm", "LOTR+{アラゴルン.Stamina}")[0]);
    let s = printed_modifier(&run(&mut t, "gm", "LOTR+{サム.Stamina}")[0]);
    // サム: damage 10 = Dazed, −1.
    run(&mut t, "gm", "/lotr damage サム 10");
    let out = run(
        &mut t,
        "gm",
        "LOTRG+{アラゴルン.Stamina}>=15[{サム.Stamina},+2]",
    );
    let helper = if s - 1 == 0 {
        "0".to_string()
    } else {
        format!("{:+}", s - 1)
    };
    assert!(
        out[0].starts_with(&format!("(LOTRG{a:+}>=15[{helper},+2])")),
        "{out:?}"
    );
    let all = out.join("\n");
    assert!(all.contains("補助1人目のサム: 修正-1"), "{all}");
    // The test is アラゴルン's, the leader's (its Courage rewrites it), not サム's.
    assert!(all.contains("アラゴルンの判定"), "{all}");
    assert!(!all.contains("サムの判定"), "{all}");
    let why = refused(&mut t, "gm", "LOTRG+5>=15[{サム.Stamina},{サム.Stamina}]");
    assert!(
        why.contains("LR-10") && why.contains("cannot help twice"),
        "{why}"
    );
    let why = refused(
        &mut t,
        "alice",
        "LOTRG+{アラゴルン.Stamina}>=15[{アラゴルン.Stamina}]",
    );
    assert!(why.contains("LR-10") && why.contains("leader"), "{why}");
    // LR-5: an Exhausted helper is unconscious.
    run(&mut t, "gm", "/lotr weary サム +5");
    let why = refused(
        &mut t,
        "gm",
        "LOTRG+{アラゴルン.Stamina}>=15[{サム.Stamina}]",
    );
    assert!(why.contains("LR-5") && why.contains("unconscious"), "{why}");
}

/// LR-5 「Exhausted になったキャラクターはただちに意識不明になる」: an unconscious character
/// makes no test (its recovery test aside), joins no fight, takes no turn at initiative, is
/// not frightened, and heals or helps nobody (lotr3, lotr4).
#[test]
fn lr5_the_unconscious_neither_test_nor_fight_nor_help() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join サム");
    run(&mut t, "gm", "/lotr combat join アラゴルン");
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク swift=+0 def=10 str=9",
    );
    run(&mut t, "gm", "/lotr weary サム +5");
    run(&mut t, "gm", "/lotr damage アラゴルン 5");
    for (who, line) in [
        ("bob", "LOTR+{サム.Stamina}>=10"),
        ("gm", "LOTR+{サム.Stamina}>=10"),
        ("gm", "LOTR+3 VS LOTR+{サム.Swiftness}"),
        ("gm", "/lotr combat fear オーク サム +3"),
        ("gm", "/lotr heal アラゴルン skill by=サム"),
        ("gm", "/lotr poison アラゴルン treat by=サム 5"),
    ] {
        let why = refused(&mut t, who, line);
        assert!(
            why.contains("LR-5") && why.contains("unconscious"),
            "{line}: {why}"
        );
    }
    let out = run(&mut t, "gm", "/lotr combat init");
    assert!(!out[0].contains("サム ["), "{out:?}");
    assert!(out[0].contains("意識不明で順番なし: サム"), "{out:?}");
    run(&mut t, "gm", "/lotr weary アラゴルン +5");
    let why = refused(&mut t, "gm", "/lotr recover サム helper=アラゴルン");
    assert!(why.contains("LR-5") && why.contains("unconscious"), "{why}");
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr weary サム +5");
    let why = refused(&mut t, "gm", "/lotr combat join サム");
    assert!(why.contains("LR-5"), "{why}");
    // Its own recovery test stays.
    run(&mut t, "gm", "/lotr recover サム");
}

/// LR-6, LR-9: a player tests their own character (an opposed test may read the other
/// side's sheet); LR-6 edges add to Courage on their own skill's test only (Horselord's Ride
/// bonus on a Stamina test is not); a Courage spend on a secret test does not show its bonus
/// to the table (lotr3 (10), lotr4).
#[test]
fn lr6_lr9_whose_test_which_skill_and_secret_courage() {
    let mut t = table([3; 32]);
    let why = refused(&mut t, "bob", "LOTR+{アラゴルン.Stamina}>=10");
    assert!(why.contains("belongs to alice"), "{why}");
    run(
        &mut t,
        "bob",
        "LOTR+{サム.Stamina} VS LOTR+{アラゴルン.Willpower}",
    );
    run(
        &mut t,
        "bob",
        "LOTR+{アラゴルン.Willpower} VS LOTR+{サム.Stamina}",
    );
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    run(&mut t, "alice", "LOTR+{エオメル.Stamina}>=15");
    let why = refused(&mut t, "alice", "/lotr courage エオメル 1 Ride");
    assert!(why.contains("LR-6") && why.contains("no skill"), "{why}");
    // Bold: +5 a point on any test (3 + 2).
    let out = run(&mut t, "alice", "/lotr courage エオメル 1");
    assert!(out[0].contains("+5"), "{out:?}");
    run(&mut t, "alice", "LOTR+{エオメル.Ride}>=15");
    let out = run(&mut t, "alice", "/lotr courage エオメル 1 Ride");
    assert!(out[0].contains("+7"), "Bold + Horselord on Ride: {out:?}");
    // A secret test: the spend line others see says no bonus.
    run(&mut t, "gm", "/lotr round");
    run(&mut t, "alice", "SLOTR+{エオメル.Ride}>=15");
    run(&mut t, "alice", "/lotr courage エオメル 1");
    let seen: Vec<String> = t
        .events()
        .iter()
        .rev()
        .take(2)
        .map(|e| t.entry(e, "bob", taku_dice::Lang::Ja).text)
        .collect();
    let seen = seen.join("\n");
    assert!(seen.contains("非公開の判定"), "{seen}");
    assert!(!seen.contains("+7") && !seen.contains("+5"), "{seen}");
}

/// LR-4 `hobbit_death`: a Hobbit the new reading kills dies by the setting's line, which says
/// so; switching back does not revive it (lotr3, lotr4).
#[test]
fn lr4_hobbit_death_switch_kills_once_and_for_good() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/char set サム race Hobbits size small");
    run(&mut t, "gm", "/lotr damage サム 40");
    assert!(sheet(&t, "サム").contains("wound level: Incapacitated"));
    let out = run(&mut t, "gm", "/lotr set hobbit_death on_incapacitated");
    assert!(
        out.join("\n")
            .contains("サム: hobbit_death = on_incapacitated でダメージ40は死亡"),
        "{out:?}"
    );
    run(&mut t, "gm", "/lotr set hobbit_death overflow");
    let why = refused(&mut t, "bob", "LOTR+{サム.Stamina}>=5");
    assert!(why.contains("LR-4") && why.contains("dead"), "{why}");
}

/// LR-7 「キャラクターはNPCとなり」: the fallen PC's former player acts for it in no combat
/// command and names it as no group helper (lotr4).
#[test]
fn lr7_a_fallen_pc_fights_for_the_gm_only() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join サム");
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク swift=+0 def=10 str=9",
    );
    run(&mut t, "gm", "/lotr corruption サム yield 8");
    for line in [
        "/lotr combat attack サム オーク dmg=1d6 +0",
        "/lotr combat act サム move",
    ] {
        let why = refused(&mut t, "bob", line);
        assert!(why.contains("LR-7"), "{line}: {why}");
    }
    let why = refused(
        &mut t,
        "alice",
        "LOTRG+{アラゴルン.Stamina}>=15[{サム.Stamina}]",
    );
    assert!(why.contains("LR-7"), "{why}");
    run(&mut t, "gm", "/lotr combat attack サム オーク dmg=1d6 +0");
}

/// LR-9: full-width letters in a reference's key read as ASCII, like the command's own
/// (`ＬＯＴＲ＋７＞＝１５`): `{サム.Ｓｔａｍｉｎａ}` is Stamina (lotr4).
#[test]
fn lr9_full_width_reference_keys() {
    let mut t = table([3; 32]);
    let plain = run(&mut t, "bob", "LOTR+{サム.Stamina}>=10");
    let wide = run(&mut t, "bob", "LOTR+{サム.Ｓｔａｍｉｎａ}>=10");
    let head = |s: &str| s.split(' ').next().unwrap_or("").to_string();
    assert_eq!(head(&plain[0]), head(&wide[0]), "{plain:?} {wide:?}");
}

/// LR-5 「この判定は、戦闘中は1ラウンドに1回」: a second recovery test in the same combat
/// round is refused until the next round. LR-14 grab: the grabbed is held until it breaks
/// free (no move, run or sprint); after a full-round sprint no trip either (lotr4).
#[test]
fn lr5_lr14_one_recovery_a_round_held_while_grabbed() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join アラゴルン");
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク swift=+0 def=10 str=9",
    );
    run(&mut t, "gm", "/lotr combat init");
    run(&mut t, "gm", "/lotr weary サム +5");
    let out = run(&mut t, "gm", "/lotr recover サム");
    assert!(out[0].contains("回復せず"), "{out:?}");
    let why = refused(&mut t, "gm", "/lotr recover サム");
    assert!(
        why.contains("LR-5") && why.contains("once a round"),
        "{why}"
    );
    run(&mut t, "gm", "/lotr combat next");
    run(&mut t, "gm", "/lotr recover サム");
    run(
        &mut t,
        "gm",
        "/lotr combat attack オーク アラゴルン grab +100",
    );
    for act in ["move", "run", "sprint"] {
        let why = refused(
            &mut t,
            "alice",
            &format!("/lotr combat act アラゴルン {act}"),
        );
        assert!(
            why.contains("LR-14") && why.contains("held by オーク"),
            "{act}: {why}"
        );
    }
    run(&mut t, "gm", "/lotr combat next");
    run(&mut t, "gm", "/lotr combat act オーク sprint");
    let why = refused(&mut t, "gm", "/lotr combat trip オーク アラゴルン +1 +0");
    assert!(why.contains("LR-14") && why.contains("full-round"), "{why}");
}

/// LR-4: the weekly Stamina test and the Healing tests heal damage: a character with none
/// has nothing to test for (lotr4: a weekly test rolled on an undamaged character).
#[test]
fn lr4_no_healing_test_without_damage() {
    let mut t = table([3; 32]);
    for line in [
        "/lotr heal サム week",
        "/lotr heal サム skill by=アラゴルン",
        "/lotr heal サム attended 2 by=アラゴルン",
    ] {
        let why = refused(&mut t, "gm", line);
        assert!(
            why.contains("LR-4") && why.contains("no damage"),
            "{line}: {why}"
        );
    }
}

/// tbl13f (lotr16e's "Not fixed" (2)): a player's `/undo` of the sheet line that made
/// their character, after the GM has since damaged it (LR-4 「ダメージ」 is the GM's), is
/// refused, naming the GM's line — else the damage would be about nobody, and a new
/// character of the same name would take it on. The GM's `/void` waits for it too; once
/// the damage is voided, the undo goes through.
#[test]
fn lr4_a_characters_sheet_line_is_not_undone_under_the_gms_later_damage() {
    let mut t = table([3; 32]);
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    let made = t.apply("alice", d.events)[0].seq;
    let before = t.events().len();
    run(&mut t, "gm", "/lotr damage エオメル 5");
    // The GM's line (its first entry; LotR reads the sheet's record in with it).
    let damage = t.events()[before].seq;
    let why = refused(&mut t, "alice", "/undo");
    assert!(
        why.contains(&format!(
            "#{made} cannot be undone: the later #{damage} rests on it"
        )) && why.contains("エオメル"),
        "{why}"
    );
    let why = refused(&mut t, "gm", &format!("/void {made}"));
    assert!(why.contains(&format!("/void {damage} first")), "{why}");
    run(&mut t, "gm", &format!("/void {damage}"));
    run(&mut t, "alice", "/undo");
    assert!(t.sheet("エオメル", "gm").is_none());
}

/// LR-15 「Heroes: each round the player picks where the hero fights, or 2d6 on Table 9.24
/// PRESS; then 2d6 … on Table 9.25 Hero Combat」 — one Hero Combat per hero a round: a
/// second for the same hero before the round is resolved is refused (nothing changes);
/// another hero may fight; after `/lotr battle round` the first fights again.
#[test]
fn lr15_one_hero_combat_per_hero_a_round() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr battle start");
    let out = run(&mut t, "gm", "/lotr battle hero アラゴルン");
    assert!(out[0].contains("LR-15 アラゴルン"), "{out:?}");
    let why = refused(&mut t, "gm", "/lotr battle hero アラゴルン");
    assert!(
        why.contains("LR-15") && why.contains("already fought") && why.contains("battle round"),
        "{why}"
    );
    // Full-width letters in the position read as ASCII (the example key `thick`).
    let out = run(&mut t, "gm", "/lotr battle hero サム ＴＨＩＣＫ");
    assert!(out[0].contains("LR-15 サム"), "{out:?}");
    run(&mut t, "gm", "/lotr battle round");
    let out = run(&mut t, "gm", "/lotr battle hero アラゴルン");
    assert!(out[0].contains("LR-15 アラゴルン"), "{out:?}");
    assert!(refused(&mut t, "gm", "/lotr battle hero アラゴルン").contains("round 2"));
}

/// LR-14 「恐怖の影響を受けてない人間からの Inspire などによっても 再度判定を試みることができる」:
/// someone unafraid inspires the frightened, who tests Willpower again against the same
/// frightener's Intimidate; the new degree replaces the fear. The afraid cannot inspire,
/// nobody inspires themselves, and the unafraid need no new test; each refusal changes
/// nothing.
#[test]
fn lr14_inspire_lets_the_frightened_test_again() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join アラゴルン");
    run(&mut t, "gm", "/lotr combat join サム");
    run(
        &mut t,
        "gm",
        "/lotr combat join ナズグル swift=+0 def=10 str=9",
    );
    // Intimidate +100 against サム's Willpower: Extraordinary, サム flees or cowers.
    let out = run(&mut t, "gm", "/lotr combat fear ナズグル サム +100");
    assert!(out[0].contains("逃げ出すか伏せる"), "{out:?}");
    let why = refused(&mut t, "bob", "/lotr combat act サム move");
    assert!(why.contains("flees or cowers"), "{why}");
    // サム is afraid: サム cannot inspire, and not itself.
    let why = refused(&mut t, "bob", "/lotr combat inspire サム アラゴルン +0 +0");
    assert!(why.contains("LR-14"), "{why}");
    // アラゴルン is not afraid: no new test is owed to it.
    let why = refused(&mut t, "gm", "/lotr combat inspire サム アラゴルン +0 +0");
    assert!(why.contains("LR-14"), "{why}");
    let why = refused(
        &mut t,
        "alice",
        "/lotr combat inspire アラゴルン アラゴルン +0 +0",
    );
    assert!(why.contains("oneself"), "{why}");
    // Half a command says what to write.
    let why = refused(&mut t, "alice", "/lotr combat inspire アラゴルン");
    assert!(why.contains("INTIMIDATE-MOD"), "{why}");
    // アラゴルン inspires; the Nazgûl's Intimidate is now −100 against サム's Willpower
    // (read from the sheet): the new test fails and the fear is gone.
    let out = run(&mut t, "alice", "/lotr combat inspire アラゴルン サム -100");
    assert!(
        out[0].contains("アラゴルン の鼓舞") && out[0].contains("ナズグル の恐怖 → サム"),
        "{out:?}"
    );
    assert!(out[0].contains("影響なし"), "{out:?}");
    let out = run(&mut t, "bob", "LOTR+0>=10");
    assert!(out[0].contains(">=10)"), "no fear left: {out:?}");
    // Not afraid any more: a second Inspire is refused.
    let why = refused(&mut t, "alice", "/lotr combat inspire アラゴルン サム -100");
    assert!(why.contains("not afraid"), "{why}");
    // A new test that succeeds again leaves the fear at its own degree (one Inspire test
    // a round: the next round's).
    run(&mut t, "gm", "/lotr combat fear ナズグル サム +100");
    run(&mut t, "gm", "/lotr combat next");
    let out = run(&mut t, "alice", "/lotr combat inspire アラゴルン サム +100");
    assert!(out[0].contains("逃げ出すか伏せる"), "{out:?}");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// LR-14 「Parry/block: weapon-skill test against the attack's total」 with LR-8 (Armed
/// Combat skills): a table character's parry reads its weapon skill from the record —
/// `:parry=Swords` names it, a bare `:parry` takes its best Armed Combat skill (our
/// reading); a written `:parry+N` is the GM's own number; an unknown skill is refused.
#[test]
fn lr14_parry_reads_the_armed_combat_skill() {
    let mut t = table([3; 32]);
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    run(&mut t, "gm", "/lotr combat join エオメル");
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク swift=+0 def=10 str=8",
    );
    // Swords 4 ranks + NIM 11 (+2) = +6.
    let out = run(
        &mut t,
        "gm",
        "/lotr combat attack オーク エオメル:parry dmg=1d6 +20",
    );
    let all = out.join("\n");
    assert!(
        all.contains("エオメルの受けはArmed Combat: Swords（判定+6）") && all.contains("]+6"),
        "{out:?}"
    );
    let out = run(
        &mut t,
        "gm",
        "/lotr combat attack オーク エオメル:parry=Swords dmg=1d6 +20",
    );
    assert!(out.join("\n").contains("]+6"), "{out:?}");
    let why = refused(
        &mut t,
        "gm",
        "/lotr combat attack オーク エオメル:parry=Axes dmg=1d6 +0",
    );
    assert!(why.contains("LR-8") && why.contains("Axes"), "{why}");
    let why = refused(
        &mut t,
        "gm",
        "/lotr combat attack エオメル オーク:parry=Swords dmg=1d6 +0",
    );
    assert!(why.contains(":parry+N"), "{why}");
}

/// Runs `line` as `who` and renders the new entries in English.
fn run_en(t: &mut Table, who: &str, line: &str) -> Vec<String> {
    let (_, events) = t
        .exec(who, line)
        .unwrap_or_else(|e| panic!("{who}: {line}: refused: {e}"));
    let events = events.to_vec();
    events
        .iter()
        .map(|e| t.entry(e, who, taku_dice::Lang::En).text)
        .collect()
}

/// LR-9 to LR-11 in the table's language: a test's degree by margin, the helpers' TN, the
/// opposed sides, the winner and the tie rules read in English at an English table (the log
/// keeps the text as rolled, and a Japanese table reads it in Japanese).
#[test]
fn lr9_lr10_lr11_an_english_table_reads_its_tests_in_english() {
    let mut t = table([3; 32]);
    let ja = run(&mut t, "gm", "LOTR+7>=15");
    assert!(ja[0].contains("差"), "{ja:?}");
    run(&mut t, "gm", "/lang en");
    let japanese = |s: &str| {
        s.chars()
            .any(|c| matches!(c, '\u{3040}'..='\u{30ff}' | '\u{4e00}'..='\u{9fff}'))
    };
    for line in [
        "LOTR+7>=15",
        "LOTR+7",
        "LOTR+5 VS LOTR+3",
        "LOTR+5 VS 14",
        "LOTR+5 VS LOTR+5#DODGE",
        "LOTR+5 VS LOTR+5#PARRY",
        "LOTRG+5>=15[+2,+3,0]",
    ] {
        let out = run_en(&mut t, "gm", line);
        assert!(!japanese(&out[0]), "{line}: {out:?}");
    }
    let out = run_en(&mut t, "gm", "LOTR+7>=15");
    assert!(out[0].contains("margin "), "{out:?}");
    let out = run_en(&mut t, "gm", "LOTR+5 VS LOTR+3");
    assert!(
        out[0].contains("left ") && out[0].contains("right ") && out[0].contains(" wins"),
        "{out:?}"
    );
    let out = run_en(&mut t, "gm", "LOTRG+5>=15[+2,+3,0]");
    assert!(out[0].contains("helpers (TN 10)"), "{out:?}");
    // A ranked degree names its time factor in English.
    let out = run_en(&mut t, "gm", "LOTR+100>=15");
    assert!(out[0].contains("(time ×0.25)"), "{out:?}");
    // The log keeps what was rolled.
    let out = run(&mut t, "gm", "LOTR+100>=15");
    assert!(out[0].contains("（時間×0.25）"), "{out:?}");
    // A common command's text is left as it was.
    let out = run_en(&mut t, "gm", "choice[左,右]");
    assert!(out[0].contains("choice"), "{out:?}");
}

/// LR-8: a reference to a skill a character's record lacks (`{アラゴルン.Sorcery}`) is
/// refused with LR-8's word — skills come from the sheet or `/lotr xp pick` — on its first
/// use too, never with the table's `/char set` hint (a hand-made field is no test modifier).
#[test]
fn lr8_the_first_reference_to_a_missing_skill_names_lr8_not_char_set() {
    let mut t = table([3; 32]);
    for (who, line) in [
        ("alice", "LOTR+{アラゴルン.Sorcery}>=10"),
        ("gm", "LOTR+{アラゴルン.Sorcery}>=10"),
        ("alice", "LOTR+{アラゴルン.ride}>=10"),
    ] {
        let en = refused(&mut t, who, line);
        assert!(
            en.contains("LR-8") && en.contains("/lotr xp pick") && !en.contains("/char set"),
            "{line}: {en}"
        );
        let ja = t
            .exec(who, line)
            .expect_err("refused")
            .render(taku_dice::Lang::Ja);
        assert!(
            ja.contains("LR-8") && ja.contains("技能") && !ja.contains("/char set"),
            "{line}: {ja}"
        );
    }
    // A recorded reaction still reads.
    run(&mut t, "alice", "LOTR+{アラゴルン.Stamina}>=10");
}

/// LR-14 fear 「Superior Success: 1ターン行動不能.かつ,-4ペナルティ」: a fighter frightened
/// before its turn loses that turn at once (no actions this round), acts again the next
/// round at −4; one frightened after it has acted loses the next round's turn.
#[test]
fn lr14_superior_fear_stops_the_turn_not_yet_taken() {
    let setup = |t: &mut Table| {
        run(t, "gm", "/lotr combat join サム");
        run(t, "gm", "/lotr combat join アラゴルン");
        run(t, "gm", "/lotr combat join ナズグル swift=+0 def=10 str=9");
        run(t, "gm", "/lotr combat init");
    };
    // A seed with no double six in the fear test's four dice.
    let probe = {
        let mut t = table([0; 32]);
        setup(&mut t);
        t.next_seq()
    };
    let seed = seed_where(probe, 4, |x| x[0] + x[1] < 12 && x[2] + x[3] < 12);
    let mut t = table(seed);
    setup(&mut t);
    let d = dice_at(seed, t.next_seq(), 4);
    // サム's Willpower +2 (WIT 10) is the TN: a margin of 8 is a Superior Success.
    let m = 8 + (d[2] + d[3]) as i64 + 2 - (d[0] + d[1]) as i64;
    let out = run(
        &mut t,
        "gm",
        &format!("/lotr combat fear ナズグル サム {m:+}"),
    );
    assert!(out[0].contains("1ターン行動不能"), "{out:?}");
    for line in [
        "/lotr combat act サム move",
        "/lotr combat attack サム ナズグル dmg=1d6 +0",
    ] {
        let why = refused(&mut t, "bob", line);
        assert!(
            why.contains("LR-14") && why.contains("loses this turn"),
            "{line}: {why}"
        );
    }
    run(&mut t, "gm", "/lotr combat next");
    let out = run(&mut t, "bob", "/lotr combat act サム move");
    assert!(out[0].contains("移動"), "{out:?}");
    let out = run(&mut t, "bob", "LOTR+0");
    assert!(out[0].contains("LOTR-4"), "the fear's −4 stays: {out:?}");

    assert!(t.verify().is_empty(), "{:?}", t.verify());
    // Frightened after acting this round: the next round's turn is the one lost.
    let acted = |t: &mut Table| {
        setup(t);
        run(t, "bob", "/lotr combat act サム move");
    };
    let probe = {
        let mut t = table([0; 32]);
        acted(&mut t);
        t.next_seq()
    };
    let seed = seed_where(probe, 4, |x| x[0] + x[1] < 12 && x[2] + x[3] < 12);
    let mut t = table(seed);
    acted(&mut t);
    let d = dice_at(seed, t.next_seq(), 4);
    let m = 8 + (d[2] + d[3]) as i64 + 2 - (d[0] + d[1]) as i64;
    let out = run(
        &mut t,
        "gm",
        &format!("/lotr combat fear ナズグル サム {m:+}"),
    );
    assert!(out[0].contains("1ターン行動不能"), "{out:?}");
    run(&mut t, "gm", "/lotr combat next");
    let why = refused(&mut t, "bob", "/lotr combat act サム move");
    assert!(why.contains("loses this turn"), "{why}");
    run(&mut t, "gm", "/lotr combat next");
    run(&mut t, "bob", "/lotr combat act サム move");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// LR-4 「Near Death … の次で死亡」 in LR-14: a dead fighter takes no turn (left out of
/// the initiative, named) and is no target of an attack, trip or fear.
#[test]
fn lr4_lr14_the_dead_leave_the_initiative_and_are_no_target() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join サム");
    run(&mut t, "gm", "/lotr combat join アラゴルン");
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク swift=+0 def=10 str=9",
    );
    // サム: Health 10, Medium: dead at 60.
    run(&mut t, "gm", "/lotr damage サム 60");
    let out = run(&mut t, "gm", "/lotr combat init");
    assert!(!out[0].contains("サム ["), "{out:?}");
    assert!(out[0].contains("死亡で順番なし: サム"), "{out:?}");
    for line in [
        "/lotr combat attack オーク サム dmg=1d6 +0",
        "/lotr combat attack オーク アラゴルン,サム sweep dmg=1d6 +0",
        "/lotr combat trip オーク サム +0 +0",
        "/lotr combat fear オーク サム +0",
    ] {
        let why = refused(&mut t, "gm", line);
        assert!(
            why.contains("LR-4") && why.contains("dead"),
            "{line}: {why}"
        );
    }
    run(
        &mut t,
        "gm",
        "/lotr combat attack オーク アラゴルン dmg=1d6 +0",
    );
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// LR-14 aim 「次の攻撃に,直接攻撃なら+1,間接攻撃なら+3」: the bonus is the attack's
/// kind — a melee attack after `aim-indirect` takes +1, an indirect missile +3; a melee
/// attack cannot be indirect.
#[test]
fn lr14_aim_gives_three_only_to_an_indirect_missile() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join アラゴルン");
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク swift=+0 def=10 str=9",
    );
    run(&mut t, "gm", "/lotr combat init");
    let why = refused(
        &mut t,
        "alice",
        "/lotr combat attack アラゴルン オーク indirect dmg=1d6 +0",
    );
    assert!(why.contains("LR-14") && why.contains("indirect"), "{why}");
    run(&mut t, "alice", "/lotr combat act アラゴルン aim-indirect");
    let out = run(
        &mut t,
        "alice",
        "/lotr combat attack アラゴルン オーク dmg=1d6 +0",
    );
    assert!(out[0].contains("]+1="), "a melee attack takes +1: {out:?}");
    run(&mut t, "gm", "/lotr combat next");
    run(&mut t, "alice", "/lotr combat act アラゴルン aim-indirect");
    let out = run(
        &mut t,
        "alice",
        "/lotr combat attack アラゴルン オーク bow indirect dmg=1d6 +0",
    );
    assert!(
        out[0].contains("]+3="),
        "an indirect missile takes +3: {out:?}"
    );
    run(&mut t, "gm", "/lotr combat next");
    run(&mut t, "alice", "/lotr combat act アラゴルン aim");
    let out = run(
        &mut t,
        "alice",
        "/lotr combat attack アラゴルン オーク bow dmg=1d6 +0",
    );
    assert!(
        out[0].contains("]+1="),
        "a direct missile takes +1: {out:?}"
    );
}

/// LR-3 「荷重: STRx10 までは普通に運搬可能.x20まで重荷,x30まで超重荷」 with LR-14
/// 「重荷の場合は移動距離を 3/4,超重荷の場合は 1/2 にする」 (rounded half up, LR-0), and
/// mounted speeds (Table 9.22: Walk 12, Canter 24, Run 72, Gallop 160): the movement line
/// says how far.
#[test]
fn lr3_lr14_encumbered_and_mounted_movement() {
    let mut t = table([3; 32]);
    // アラゴルン: STR 9, loads 90 / 180 / 270.
    run(&mut t, "gm", "/lotr combat join アラゴルン");
    run(
        &mut t,
        "gm",
        "/lotr combat join ローハン騎士 swift=+0 def=10 str=9 horse=14",
    );
    let out = run(&mut t, "alice", "/lotr combat act アラゴルン move");
    assert!(out[0].contains("移動（Walk/Jog）"), "{out:?}");
    // 100 > 90: encumbered, jog 9 × 3/4 = 6.75 → 7.
    let out = run(&mut t, "alice", "/lotr combat act アラゴルン move load=100");
    assert!(out[0].contains("重荷で×3/4: 7ヤードまで"), "{out:?}");
    run(&mut t, "gm", "/lotr combat next");
    // Heavily: run 27 × 1/2 = 13.5 → 14.
    let out = run(&mut t, "alice", "/lotr combat act アラゴルン run heavy +2");
    assert!(out[0].contains("超重荷で×1/2: 14ヤードまで"), "{out:?}");
    assert!(out[0].contains("対 5"), "the Run test stays TN 5: {out:?}");
    let why = refused(&mut t, "alice", "/lotr combat act アラゴルン move load=271");
    assert!(why.contains("LR-3") && why.contains("270"), "{why}");
    let why = refused(&mut t, "alice", "/lotr combat act アラゴルン aim heavy");
    assert!(why.contains("LR-14"), "{why}");
    run(&mut t, "gm", "/lotr combat next");
    // On horseback the horse's pace.
    let out = run(&mut t, "gm", "/lotr combat act ローハン騎士 move");
    assert!(out[0].contains("Canter 24ヤードまで"), "{out:?}");
    let why = refused(&mut t, "gm", "/lotr combat act ローハン騎士 run encumbered");
    assert!(why.contains("on foot"), "{why}");
    run(&mut t, "gm", "/lotr combat next");
    let out = run(&mut t, "gm", "/lotr combat act ローハン騎士 sprint");
    assert!(out[0].contains("Gallop 160ヤードまで"), "{out:?}");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// LR-14 horses (§3.9): 「戦闘中は,特に Ride 判定に -1 〜 -4 のペナルティ」 unless Steady
/// (「戦闘中であっても,Ride 判定へのペナルティを受けない」); a Mearas or Elven-steed has
/// Ride, and the higher of horse and rider is used. A table rider's Ride comes from its
/// record.
#[test]
fn lr14_ride_tests_steady_horses_and_mearas() {
    let mut t = table([3; 32]);
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    run(&mut t, "gm", "/lotr combat join エオメル horse=14:war");
    run(
        &mut t,
        "gm",
        "/lotr combat join 騎手 swift=+0 def=10 str=9 horse=14:steady",
    );
    run(
        &mut t,
        "gm",
        "/lotr combat join 王 swift=+0 def=10 str=9 horse=16:mearas=+9",
    );
    run(&mut t, "gm", "/lotr combat join 歩兵 swift=+0 def=10 str=9");
    // 騎手: Ride +3, pen=3 spared by the Steady horse.
    let out = run(&mut t, "gm", "/lotr combat ride 騎手 +3 tn=10 pen=3");
    assert!(
        out[0].contains("Steady なので −3 なし") && out[0].contains("]+3"),
        "{out:?}"
    );
    // 王: the Mearas' +9 beats the rider's +2; −2 in combat.
    let out = run(&mut t, "gm", "/lotr combat ride 王 +2 tn=10 pen=2");
    assert!(
        out[0].contains("馬の Ride を使用")
            && out[0].contains("戦闘中 −2")
            && out[0].contains("]+7"),
        "{out:?}"
    );
    // エオメル's Ride from the sheet (no modifier written), −4 on a horse that is not Steady.
    let out = run(&mut t, "gm", "/lotr combat ride エオメル tn=10 pen=4");
    assert!(
        out[0].contains("エオメル の Ride 判定、戦闘中 −4"),
        "{out:?}"
    );
    for line in [
        "/lotr combat ride 歩兵 +3 tn=10",
        "/lotr combat ride 騎手 +3 tn=10 pen=5",
        "/lotr combat join 馬なし swift=+0 def=10 str=9 horse=14:flying",
        "/lotr combat join 馬なし swift=+0 def=10 str=9 horse=0",
    ] {
        let why = refused(&mut t, "gm", line);
        assert!(why.contains("LR-14"), "{line}: {why}");
    }
    let why = refused(&mut t, "alice", "/lotr combat ride エオメル tn=10");
    assert!(why.contains("GM"), "{why}");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

// ---- Session 9: the sixth play-through's findings (/work/findings/lotr6.md) -----------

/// LR-1 (「ランダム法: 2d6 を9回振って,高いもの6つを6種類の能力値に割り当てる」, attributes fixed
/// at making) with LR-4 (the GM deals the damage): a player's `/undo` of `/lotr create` is
/// refused while the GM's later damage names the character, naming that line; and a random
/// character's rolls are not traded for the pick method by undo and re-creation (F6).
#[test]
fn lr1_a_making_stands_under_later_lines_and_its_rolls_stay() {
    let mut t = table([3; 32]);
    run(&mut t, "bob", "/char new ピピン");
    let made = t.next_seq();
    run(
        &mut t,
        "bob",
        "/lotr create ピピン pick 12,11,9,8,6,4 race=Men order=Warrior",
    );
    let damage = t.next_seq();
    run(&mut t, "gm", "/lotr damage ピピン 20");
    let why = refused(&mut t, "bob", "/undo");
    assert!(
        why.contains(&format!("#{made} cannot be undone"))
            && why.contains(&format!("#{damage}"))
            && why.contains("ピピン's making (/lotr create, LR-1)"),
        "{why}"
    );
    // With the damage undone, the making may go too (nothing rests on it).
    run(&mut t, "gm", &format!("/undo #{damage}"));
    run(&mut t, "bob", &format!("/undo #{made}"));

    // The random method: the nine 2d6 stay the character's; after an undone creation the
    // pick method is refused and the random one still needs those rolls' best six.
    run(&mut t, "bob", "/char new メリー");
    let out = run(&mut t, "bob", "/lotr create メリー random");
    let line = out.join("\n");
    let at = line.find("= [").expect("the rolls") + 3;
    let mut best: Vec<i64> = line[at..]
        .split(']')
        .next()
        .expect("a list")
        .split(", ")
        .map(|r| r.parse().expect("a number"))
        .collect();
    best.sort_unstable_by(|a, b| b.cmp(a));
    best.truncate(6);
    let list = best
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let made = t.next_seq();
    run(&mut t, "bob", &format!("/lotr create メリー random {list}"));
    run(&mut t, "bob", &format!("/undo #{made}"));
    let why = refused(&mut t, "bob", "/lotr create メリー pick 12,11,9,8,6,4");
    assert!(
        why.contains("LR-1") && why.contains("rolled already"),
        "{why}"
    );
    run(&mut t, "bob", &format!("/lotr create メリー random {list}"));
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// LR-6: 「たとえば,Bold と Horselord を持ったキャラクターは, それぞれから +2 の修正を受け,Ride
/// 判定に+7のボーナスを得る.」 — a Ride test with the Horse specialisation (LR-8) is a Ride
/// test: +7 a point on it, and naming the base skill `Ride` is accepted (F5; the README's
/// example `LOTR+{Ride/Horse}>=12` then `/lotr courage エオメル 2`: +14).
#[test]
fn lr6_courage_on_a_specialised_test_keeps_its_skills_edges() {
    let mut t = table([3; 32]);
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    run(&mut t, "alice", "LOTR+{エオメル.Ride/Horse}>=12");
    let out = run(&mut t, "alice", "/lotr courage エオメル 2").join("\n");
    assert!(
        out.contains("判定に+14（Ride/Horse）（1点あたり+7）"),
        "{out}"
    );
    run(&mut t, "gm", "/lotr round");
    run(&mut t, "alice", "LOTR+{エオメル.Ride/Horse}>=12");
    let out = run(&mut t, "alice", "/lotr courage エオメル 1 Ride").join("\n");
    assert!(out.contains("（1点あたり+7）"), "{out}");
    // A skill the test is not of is still refused (Ride's edge is for Ride's tests only).
    run(&mut t, "gm", "/lotr round");
    run(&mut t, "alice", "LOTR+{エオメル.Stamina}>=12");
    assert!(refused(&mut t, "alice", "/lotr courage エオメル 1 Ride").contains("LR-6"));
}

/// LR-14: 「スタン中は,すべての判定にペナルティを受ける」 and fear's 「相手はすべての行動に-1
/// ペナルティ」: the GM's command tests (weariness, poison, temptation, a fall) take a
/// fighter's stun and fear as an ordinary test does (F7).
#[test]
fn lr14_stun_and_fear_go_on_the_gms_command_tests_too() {
    // Each on a fresh table: サム in the fight, stunned −4 (a test's own outcome, a
    // weariness level or a wound, would move the next one's TN).
    let stunned = || {
        let mut t = table([3; 32]);
        run(&mut t, "gm", "/lotr combat join サム");
        run(
            &mut t,
            "gm",
            "/lotr combat stun サム +0 tn=2 pen=4 rounds=5",
        );
        t
    };
    // Each test's TN is printed as `vs N`, or `vs BASE+CONDITIONS=N` when raised.
    let tn = |t: &mut Table, line: &str| {
        let s = run(t, "gm", line).join("\n");
        let at = s.find(" vs ").unwrap_or_else(|| panic!("{s}")) + 4;
        let word = s[at..].split(' ').next().unwrap_or("");
        word.rsplit('=')
            .next()
            .unwrap_or("")
            .split(|c: char| !c.is_ascii_digit() && c != '-')
            .next()
            .and_then(|n| n.parse::<i64>().ok())
            .unwrap_or_else(|| panic!("{s}"))
    };
    assert_eq!(tn(&mut stunned(), "/lotr weary サム test 10"), 14);
    assert_eq!(tn(&mut stunned(), "/lotr corruption サム 10"), 14);
    assert_eq!(tn(&mut stunned(), "/lotr poison サム 3 1 venom"), 14);
    assert_eq!(tn(&mut stunned(), "/lotr fall サム 1d6 11"), 15);
}

/// LR-8 「GMの許可があれば,Acrobatics(Balance, Swing) のように, 複数の専門分野を取ることも
/// できる.」: with `multi_field_specialisation` off (the default) a second field on one skill
/// is refused, naming the option; on, it is bought (F8).
#[test]
fn lr8_a_second_field_needs_the_gms_leave() {
    let mut t = table([3; 32]);
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    run(&mut t, "gm", "/lotr xp award エオメル rp 1000");
    run(&mut t, "gm", "/lotr xp credit エオメル");
    run(&mut t, "gm", "/lotr xp advance エオメル");
    // The sheet's Ride is specialised in Horse: Ride (Battle) would be a second field.
    let why = refused(&mut t, "alice", "/lotr xp pick エオメル spec Ride Battle");
    assert!(
        why.contains("LR-8") && why.contains("multi_field_specialisation on"),
        "{why}"
    );
    run(&mut t, "gm", "/lotr set multi_field_specialisation on");
    let out = run(&mut t, "alice", "/lotr xp pick エオメル spec Ride Battle").join("\n");
    assert!(out.contains("Battle"), "{out}");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// LR-3: 「ダメージ修正」 is the STR modifier on melee damage and 「Defence = 10 + NIM修正」:
/// a fighter from the record keeps following it — after the GM's `/char set` (or an
/// advancement) the fight reads the new STR and NIM without a re-join (F9). A value the GM
/// typed at joining stays the GM's.
#[test]
fn lr3_lr14_a_fighters_str_and_nim_follow_the_record() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join サム");
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク swift=+0 def=10 str=30",
    );
    run(&mut t, "gm", "/lotr combat join アラゴルン def=20");
    run(&mut t, "gm", "/lotr combat init");
    run(&mut t, "gm", "/char set サム STR 12 NIM 12");
    // An Extraordinary hit does maximum damage: 12 + STR 12's +3.
    let out = run(&mut t, "gm", "/lotr combat attack サム オーク dmg=2d6 +30").join("\n");
    assert!(out.contains("→15"), "{out}");
    // The Orc's attack meets Defence 10 + NIM 12's +3 = 13.
    let out = run(&mut t, "gm", "/lotr combat attack オーク サム dmg=2d6 +0").join("\n");
    assert!(out.contains("対 13"), "{out}");
    // アラゴルン's Defence was typed by the GM: it stays 20.
    let out = run(
        &mut t,
        "gm",
        "/lotr combat attack オーク アラゴルン dmg=2d6 +0",
    )
    .join("\n");
    assert!(out.contains("対 20"), "{out}");
}

/// LR-10 「リーダーが判定し,他のメンバーは目標値−5で判定」: each member rolls its own
/// test — a player may not put another player's character into her group test as a
/// helper; the GM may (F3).
#[test]
fn lr10_a_player_helps_only_with_her_own_characters() {
    let mut t = table([3; 32]);
    let why = refused(
        &mut t,
        "alice",
        "LOTRG+{アラゴルン.Willpower}>=15[{サム.Willpower}]",
    );
    assert!(
        why.contains("LR-10") && why.contains("belongs to bob"),
        "{why}"
    );
    run(
        &mut t,
        "gm",
        "LOTRG+{アラゴルン.Willpower}>=15[{サム.Willpower}]",
    );
}

// ---- lotr6's open findings (F4, F11, F2, F10, F1) -------------------------------------------

/// LR-14 「攻撃者はIntimidate(Fear)などを用い,防御側はWillpowerで抵抗する」 and 「抵抗側は,
/// 恐怖の対象からの距離や,仲間からの激励などによって 抵抗に修正を受ける(Table 9.20)」: a
/// table character resists with its sheet's Willpower, and a modifier the GM types is
/// Table 9.20's, added to it (lotr6 F4: the typed number replaced the sheet's).
#[test]
fn lr14_a_typed_willpower_modifier_adds_to_the_sheets() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join サム");
    run(&mut t, "gm", "/lotr combat join アラゴルン");
    run(
        &mut t,
        "gm",
        "/lotr combat join ナズグル swift=+0 def=10 str=9",
    );
    // サム: Willpower +2 (WIT 10); Table 9.20's +1 makes +3, not +1.
    let out = run(&mut t, "gm", "/lotr combat fear ナズグル サム +100 +1");
    let willpower = out[0].rsplit(" / ").next().expect("the Willpower test");
    assert!(willpower.contains("]+3="), "{out:?}");
    assert!(out[0].contains("逃げ出すか伏せる"), "{out:?}");
    // The new test after アラゴルン's Inspire: サム's +2 and a −5 for distance make −3.
    let out = run(
        &mut t,
        "alice",
        "/lotr combat inspire アラゴルン サム +100 -5",
    );
    let willpower = out[0].rsplit(" / ").next().expect("the Willpower test");
    assert!(willpower.contains("]-3="), "{out:?}");
    // Without a typed modifier, the sheet's alone.
    let out = run(&mut t, "gm", "/lotr combat fear ナズグル アラゴルン -100");
    let willpower = out[0].rsplit(" / ").next().expect("the Willpower test");
    assert!(willpower.contains("]+1="), "{out:?}");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// LR-14 「恐怖の影響を受けてない人間からの Inspire などによっても 再度判定を試みることが
/// できる」: a fear at work is tested again on a new cause — an Inspire — not by its
/// frightener frightening again (lotr6 F4: a second `fear` re-tested and could replace
/// cowering with −2); another frightener is a new cause. One Inspire test a round.
#[test]
fn lr14_fear_is_not_retested_without_a_new_cause() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join サム");
    run(&mut t, "gm", "/lotr combat join アラゴルン");
    run(
        &mut t,
        "gm",
        "/lotr combat join ナズグル swift=+0 def=10 str=9",
    );
    run(
        &mut t,
        "gm",
        "/lotr combat join オーク swift=+0 def=10 str=9",
    );
    let out = run(&mut t, "gm", "/lotr combat fear ナズグル サム +100");
    assert!(out[0].contains("逃げ出すか伏せる"), "{out:?}");
    let why = refused(&mut t, "gm", "/lotr combat fear ナズグル サム -100");
    assert!(
        why.contains("LR-14")
            && why.contains("already afraid of ナズグル")
            && why.contains("Inspire"),
        "{why}"
    );
    // Another frightener is a new cause: its test is made (and the worse fear stays).
    let out = run(&mut t, "gm", "/lotr combat fear オーク サム -100");
    assert!(out[0].contains("影響なし"), "{out:?}");
    let why = refused(&mut t, "bob", "/lotr combat act サム move");
    assert!(why.contains("flees or cowers"), "{why}");
    // An Inspire gives one new test a round.
    let out = run(&mut t, "alice", "/lotr combat inspire アラゴルン サム +100");
    assert!(out[0].contains("逃げ出すか伏せる"), "{out:?}");
    let why = refused(&mut t, "alice", "/lotr combat inspire アラゴルン サム -100");
    assert!(
        why.contains("LR-14") && why.contains("already had its new test"),
        "{why}"
    );
    run(&mut t, "gm", "/lotr combat next");
    let out = run(&mut t, "alice", "/lotr combat inspire アラゴルン サム -100");
    assert!(out[0].contains("影響なし"), "{out:?}");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// LR-5 「Exhausted になったキャラクターはただちに意識不明になる」 with LR-6 (Courage goes on
/// the character's own test, after seeing it): the unconscious make no test, so spend no
/// Courage on one (lotr6 F11); the GM's Courage for weariness still helps them.
#[test]
fn lr5_lr6_the_unconscious_spend_no_courage() {
    let mut t = table([3; 32]);
    run(&mut t, "bob", "LOTR+{サム.Stamina}>=10");
    run(&mut t, "gm", "/lotr weary サム +5");
    for line in ["/lotr courage サム 1", "/lotr courage サム impossible"] {
        let why = refused(&mut t, "bob", line);
        assert!(
            why.contains("LR-5") && why.contains("unconscious"),
            "{line}: {why}"
        );
    }
    let out = run(&mut t, "gm", "/lotr courage サム weariness");
    assert!(out[0].contains("疲労2段階回復"), "{out:?}");
}

/// LR-12 「シナリオの第1目的を達成すると1000点…キャラクターで分配」: the goal's XP is shared
/// by the living; a dead character is refused as a recipient, so the living's share is not
/// cut (lotr6 F2).
#[test]
fn lr12_a_goals_xp_is_not_shared_with_the_dead() {
    let mut t = table([3; 32]);
    // サム: Health 10, Medium: dead at 60.
    run(&mut t, "gm", "/lotr damage サム 60");
    for line in [
        "/lotr xp award アラゴルン,サム goal1",
        "/lotr xp award サム rp 100",
    ] {
        let why = refused(&mut t, "gm", line);
        assert!(
            why.contains("LR-12") && why.contains("サム is dead"),
            "{line}: {why}"
        );
    }
    let out = run(&mut t, "gm", "/lotr xp award アラゴルン goal1").join("\n");
    assert!(out.contains("1000"), "{out}");
}

/// LR-5 「StaminaやWillpower判定によって疲労のペナルティを 一時的に無視することを許可しても
/// 良い」: the help names the command that makes that test (lotr6 F10).
#[test]
fn lr5_the_help_names_the_ignore_weariness_test() {
    let mut t = table([3; 32]);
    let help = run(&mut t, "gm", "/help").join("\n");
    assert!(
        help.contains("/lotr weary エオメル ignore 12 willpower"),
        "{help}"
    );
    assert!(help.contains("ignore_weariness_by_test"), "{help}");
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr set ignore_weariness_by_test on");
    run(&mut t, "gm", "/lotr weary サム +2");
    run(&mut t, "gm", "/lotr weary サム ignore 12 willpower");
}

/// LR-7 「Complete Failure 以上の失敗の場合は, Corruption の影響を受けた行動を行わなければ
/// ならない…このような行動を取った後に,GMはもう一度,同じ難易度あるいは それ以上の難易度の
/// Willpowerを行わせてもよい」: a follow-up test needs a corrupted act (lotr6 F1), at the
/// temptation test's TN or higher, once for that act.
#[test]
fn lr7_a_followup_needs_a_corrupted_act() {
    let mut t = table([3; 32]);
    let why = refused(&mut t, "gm", "/lotr corruption サム 12 followup");
    assert!(
        why.contains("LR-7") && why.contains("no corrupted act"),
        "{why}"
    );
    // Willpower +2 (WIT 10), TN 12, dice 3: 5, margin −7, a Complete Failure.
    let seq = t.next_seq();
    let seed = seed_where(seq, 2, |x| x[0] + x[1] == 3);
    let mut t = table(seed);
    let out = run(&mut t, "gm", "/lotr corruption サム 12");
    assert!(out[0].contains("Complete Failure"), "{out:?}");
    let why = refused(&mut t, "gm", "/lotr corruption サム 11 followup");
    assert!(
        why.contains("LR-7") && why.contains("12 or higher"),
        "{why}"
    );
    let out = run(&mut t, "gm", "/lotr corruption サム 14 followup");
    assert!(out[0].contains("堕落は変わらない"), "{out:?}");
    let why = refused(&mut t, "gm", "/lotr corruption サム 14 followup");
    assert!(why.contains("no corrupted act"), "{why}");
    assert!(sheet(&t, "サム").contains("Corruption / Bearing: 2 / 8"));
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

// ---- lotr7's findings (/work/findings/lotr7.md) ----------------------------------------------

/// LR-12 「1000点ごとに成長することができ,1回の成長ごとに 成長ポイント ("Advancement Pick")
/// が5点もらえる」: the GM's `/void` of an advancement is refused while picks bought in it
/// stand (lotr7 F11: the picks stayed and the next advancement bought them again); voided
/// picks first, then the advancement goes. The same holds for a fighter's joining.
#[test]
fn lr12_a_void_does_not_take_an_advancement_from_under_its_picks() {
    let mut t = table([3; 32]);
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    run(&mut t, "gm", "/lotr xp award エオメル rp 1000");
    run(&mut t, "gm", "/lotr xp credit エオメル");
    // Run: 3 order ranks on the sheet.
    assert!(sheet(&t, "エオメル").contains("Run 3 ranks"));
    run(&mut t, "gm", "/lotr xp advance エオメル");
    let advanced = t.next_seq() - 1;
    run(&mut t, "alice", "/lotr xp pick エオメル rank Run");
    let picked = t.next_seq() - 1;
    assert!(sheet(&t, "エオメル").contains("Run 4 ranks"));
    let why = refused(&mut t, "gm", &format!("/void {advanced}"));
    assert!(
        why.contains(&format!("#{picked}")) && why.contains("advancement (LR-12)"),
        "{why}"
    );
    run(&mut t, "gm", &format!("/void {picked}"));
    run(&mut t, "gm", &format!("/void {advanced}"));
    let s = sheet(&t, "エオメル");
    assert!(s.contains("Run 3 ranks"), "{s}");
    assert!(t.verify().is_empty(), "{:?}", t.verify());

    run(&mut t, "gm", "/lotr combat join サム");
    let joined = t.next_seq() - 1;
    run(&mut t, "bob", "/lotr combat act サム move");
    let why = refused(&mut t, "gm", &format!("/void {joined}"));
    assert!(why.contains("サム joining the fight (LR-14)"), "{why}");
}

/// LR-14 「恐怖の影響を受けてない人間からの Inspire」 and Table 9.20's 「仲間からの激励」: the
/// frightener does not inspire its own victim to test again (lotr7 F5).
#[test]
fn lr14_the_frightener_does_not_inspire_its_victim() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr combat join サム");
    run(
        &mut t,
        "gm",
        "/lotr combat join ナズグル swift=+0 def=10 str=9",
    );
    run(&mut t, "gm", "/lotr combat fear ナズグル サム +100");
    let why = refused(&mut t, "gm", "/lotr combat inspire ナズグル サム -100 +0");
    assert!(
        why.contains("LR-14") && why.contains("who frightened サム"),
        "{why}"
    );
}

/// LR-1 「当然ながら自分の属するOrderの能力からしか選択できない」 and LR-12 「職業に就いた
/// からといって,タダで職業の特殊能力が 使えたりはしない…自分でポイントを支払って修得する」:
/// a pick buys an ability the order's data lists, and not one the character has (lotr7 F6:
/// `Bogus`, `Swift_Strike` and the owned Swift Strike were bought).
#[test]
fn lr12_a_pick_buys_only_a_listed_order_ability_not_yet_owned() {
    let mut t = table([3; 32]);
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    run(&mut t, "gm", "/lotr xp award エオメル rp 1000");
    run(&mut t, "gm", "/lotr xp credit エオメル");
    run(&mut t, "gm", "/lotr xp advance エオメル");
    for bad in ["Bogus", "Swift_Strike"] {
        let why = refused(
            &mut t,
            "alice",
            &format!("/lotr xp pick エオメル ability Warrior {bad}"),
        );
        assert!(
            why.contains("LR-12") && why.contains("not an order ability of Warrior"),
            "{why}"
        );
    }
    let why = refused(
        &mut t,
        "alice",
        "/lotr xp pick エオメル ability Warrior \"Swift Strike\"",
    );
    assert!(why.contains("taken already"), "{why}");
    run(
        &mut t,
        "alice",
        "/lotr xp pick エオメル ability Warrior Evasion",
    );
}

/// LR-1 「値の割り当てを決めたら,種族ボーナスを加算して最終的な能力値を確定し」 and LR-3
/// 「エルフと人間は Medium,ホビットとドワーフは Small」: `/lotr create` reads its race and
/// order from the data; a name in another case is the data's, an unknown one is refused
/// naming the known ones (lotr7 F3: `race=hobbits` made a Medium Man-like hobbit).
#[test]
fn lr1_create_takes_races_and_orders_the_data_knows() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/join carol");
    run(&mut t, "carol", "/char new Z");
    for (line, what, known) in [
        (
            "/lotr create Z pick 12,11,9,8,6,4 race=Hobbit",
            "no race 'Hobbit'",
            "Hobbits",
        ),
        (
            "/lotr create Z pick 12,11,9,8,6,4 race=Men order=Wizard",
            "no order 'Wizard'",
            "Warrior",
        ),
    ] {
        let why = refused(&mut t, "carol", line);
        assert!(
            why.contains("LR-1") && why.contains(what) && why.contains(known),
            "{line}: {why}"
        );
    }
    let out = run(
        &mut t,
        "carol",
        "/lotr create Z pick 12,11,9,8,6,4 race=hobbits order=warrior",
    );
    // Hobbits: NIM +2, PER +1, STR −2, VIT +1.
    assert!(
        out.join("\n")
            .contains("BRG 12 NIM 13 PER 10 STR 6 VIT 7 WIT 4"),
        "{out:?}"
    );
    let s = sheet(&t, "Z");
    assert!(s.contains("small"), "{s}");
}

/// LR-12 「1000点ごとに成長することができ,1回の成長ごとに 成長ポイント…が5点もらえる」: a
/// character whose order the GM records after its first award advances in that order
/// (lotr7 F2: the order never reached the XP record, and the advancement was refused with
/// an empty list of orders).
#[test]
fn lr12_an_order_given_after_the_first_award_advances() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr xp award サム goal1");
    run(&mut t, "gm", "/lotr xp credit サム");
    let why = refused(&mut t, "gm", "/lotr xp advance サム Warrior");
    assert!(why.contains("LR-12"), "{why}");
    run(&mut t, "gm", "/char set サム order Warrior");
    let out = run(&mut t, "gm", "/lotr xp advance サム Warrior").join("\n");
    assert!(out.contains("Warrior"), "{out}");
    run(&mut t, "bob", "/lotr xp pick サム rank Run");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// The brief's "every refusal says what was wrong and what would be right": a GM option's
/// wrong value is refused naming the values it takes (lotr7 F1: `flaw_picks bogus`), and
/// `/lotr heal NAME WORD` names heal's forms (lotr7 F10).
#[test]
fn lr12_lr4_refusals_name_what_would_be_right() {
    let mut t = table([3; 32]);
    for (line, want) in [
        ("/lotr set flaw_picks bogus", "six_instead | six_more"),
        ("/lotr set hobbit_death x", "overflow | on_incapacitated"),
        ("/lotr set protection x", "per_hit | pool"),
        ("/lotr set stun_reduction x", "on | off"),
        ("/lotr heal サム bogus", "skill [by=HEALER]"),
    ] {
        let why = refused(&mut t, "gm", line);
        assert!(why.contains(want), "{line}: {why}");
    }
}

/// lotr7 F7, LR-1 「種族スキル(Skills)と特徴(Traits): リストの中からスキル・特徴を6ポイント
/// 取得できる」 and LR-12 「成長ポイントを用いて,職業スキル,種族スキル,自分の種族の Edge が
/// 獲得できる」 (the translator's note adds the order package's edges): a sheet's race edge
/// comes from the race's list, its order edge from the order's package, and an advancement
/// buys only from those lists (EXAMPLE data); a refusal names the lists.
#[test]
fn lr1_lr12_edges_come_from_the_race_and_order_lists() {
    let mut t = table([3; 32]);
    // Creation at a table: a race edge not on Men's list, an order edge not on Warrior's.
    for bad in [
        SHEET.replace(
            "{ name = \"Bold\", from = \"race\" }",
            "{ name = \"Bogus\", from = \"race\" }",
        ),
        SHEET.replace(
            "{ name = \"Horselord\", from = \"order\" }",
            "{ name = \"Bogus\", from = \"order\" }",
        ),
        // Horselord is a Warrior package edge here, not one of Men's.
        SHEET.replace(
            "{ name = \"Horselord\", from = \"order\" }",
            "{ name = \"Horselord\", from = \"race\" }",
        ),
    ] {
        assert_ne!(bad, SHEET);
        let err = t
            .decide_sheet("alice", &bad)
            .expect_err("refused")
            .render(taku_dice::Lang::En);
        assert!(
            err.contains("LR-1")
                && err.contains("is not on the list")
                && (err.contains("Men: Ally, Bold") || err.contains("Warrior: Accurate")),
            "{err}"
        );
    }
    let d = t.decide_sheet("alice", SHEET).expect("a valid sheet");
    t.apply("alice", d.events);
    // Advancement: an edge on no list is refused, naming what may be bought.
    run(&mut t, "gm", "/lotr xp award エオメル rp 1000");
    run(&mut t, "gm", "/lotr xp credit エオメル");
    run(&mut t, "gm", "/lotr xp advance エオメル");
    let why = refused(&mut t, "alice", "/lotr xp pick エオメル edge Bogus");
    assert!(
        why.contains("LR-12") && why.contains("Men: Ally") && why.contains("Warrior: Accurate"),
        "{why}"
    );
    // A Dwarves-only edge is not Men's nor the Warrior package's.
    refused(&mut t, "alice", "/lotr xp pick エオメル edge Hammerhand");
    // Men's (Hardy) and the Warrior package's (Warwise) are bought.
    run(&mut t, "alice", "/lotr xp pick エオメル edge Hardy");
    run(&mut t, "alice", "/lotr xp pick エオメル edge Warwise");
    let s = sheet(&t, "エオメル");
    assert!(s.contains("edges: Bold, Horselord, Hardy, Warwise"), "{s}");
}

/// lotr7 F9/F12 (LR-9, LR-11): an English table reads the GM commands' tests without
/// Japanese full-width brackets, and an opposed test's margin is the winner's, as its degree
/// is (§1.5.2 対決判定: the winner's degree by the margin) — in both languages.
#[test]
fn lr9_lr11_english_lines_have_no_full_width_brackets_and_the_margin_is_the_winners() {
    let mut t = table([3; 32]);
    let ja = run(&mut t, "gm", "LOTR+0 VS LOTR+40");
    assert!(ja[0].contains("右の勝ち（差+"), "{ja:?}");
    run(&mut t, "gm", "/lang en");
    let out = run_en(&mut t, "gm", "LOTR+0 VS LOTR+40");
    assert!(
        out[0].contains("right wins (margin +") && !out[0].contains("margin -"),
        "{out:?}"
    );
    for line in [
        "/lotr corruption サム 12",
        "/lotr weary サム test 10",
        "/lotr recognise サム area 3 race",
    ] {
        let out = run_en(&mut t, "gm", line).pop().expect("a line");
        assert!(
            !out.contains('（') && !out.contains('）') && out.contains(" vs "),
            "{line}: {out}"
        );
    }
    // The TN a condition raised is shown with what raised it: Dazed サム.
    run(&mut t, "gm", "/lotr damage サム 10");
    let out = run_en(&mut t, "gm", "/lotr recognise サム local 0")
        .pop()
        .expect("a line");
    assert!(out.contains("TN 5) ") && out.contains(" vs 5+"), "{out}");
}

/// lotr7 F8, LR-4 「医者が付きっ切りで手当てをする場合, 毎日 Healing 判定を行って倍の速度で
/// 負傷が回復するかどうかを決定する」: each day's Healing test is shown with its dice, and the
/// TN with the healer's conditions (a stun −20 here), as every other test is.
#[test]
fn lr4_attended_care_shows_each_days_dice_and_the_tn_with_its_modifiers() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/char set アラゴルン skill.Healing 5");
    run(&mut t, "gm", "/lotr combat join アラゴルン");
    run(
        &mut t,
        "gm",
        "/lotr combat stun アラゴルン -30 tn=12 pen=20 rounds=5",
    );
    run(&mut t, "gm", "/lotr damage サム 12");
    let out = run(&mut t, "gm", "/lotr heal サム attended 3 by=アラゴルン");
    let s = out.join("\n");
    for want in ["1日目 ", "2日目 ", "3日目 ", "+20=", "＞"] {
        assert!(s.contains(want), "{want}: {s}");
    }
    // The three days' dice are recorded, as the shown text says.
    assert_eq!(s.matches(" vs ").count(), 3, "{s}");
}

/// lotr7 F4, LR-14 「捕縛(Grapple): 鞭 (Whip) で,Superior 成功以上の命中をしたときに有効」:
/// the whip option is the grapple attempt, which the seed gives no damage: a hit below
/// Superior says the whip did not take hold, a Superior one that it entangles; `dmg=` with
/// `whip` (or `grab`) is refused, not silently ignored.
#[test]
fn lr14_a_whip_hit_says_whether_it_took_hold_and_refuses_dmg() {
    let setup = |t: &mut Table| {
        run(t, "gm", "/lotr combat join C swift=+1 def=11 str=8");
        run(t, "gm", "/lotr combat join B swift=+1 def=11 str=8");
    };
    let mut t0 = table([3; 32]);
    setup(&mut t0);
    let seq = t0.next_seq();
    // 2d6 of 2..6 at +9 against Defence 11: a hit with margin 0..4 (below Superior).
    let seed = seed_where(seq, 2, |x| x[0] + x[1] <= 6);
    let mut t = table(seed);
    setup(&mut t);
    let out = run(&mut t, "gm", "/lotr combat attack C B whip +9").join("\n");
    assert!(
        out.contains("命中") && out.contains("鞭は絡まない"),
        "{out}"
    );
    let out = run(&mut t, "gm", "/lotr combat attack C B whip +30").join("\n");
    assert!(out.contains("鞭がBを絡め取った"), "{out}");
    for line in [
        "/lotr combat attack C B whip dmg=1d6 +3",
        "/lotr combat attack C B grab dmg=1d6",
    ] {
        let why = refused(&mut t, "gm", line);
        assert!(
            why.contains("LR-14") && why.contains("does not take dmg="),
            "{line}: {why}"
        );
    }
}

/// lotr8 F1, F3, F4, F13, F18 (LR-1, LR-8) on the sheet check (`taku sheet`, and creation
/// at a table): two fields on one skill with `multi_field_specialisation` off (「GMの許可が
/// あれば…複数の専門分野を取ることもできる」), an edge without a name, an order ability not
/// the order's (the refusal lists the order's), a negative free point (「5点の自由ポイント…
/// 成長ポイントと同様に消費」: spent, never refunded); an English sheet report in English.
#[test]
fn lr1_lr8_sheet_checks_from_the_lotr8_play_through() {
    use taku_systems::lotr_coda::sheet::Sheet;
    let t = table([3; 32]);
    let cases = [
        (
            SHEET.replace(
                "[skills.\"Run\"]\norder = 3",
                "[skills.\"Run\"]\norder = 3\nspecialisations = [\"Long\", \"Short\"]",
            ),
            "one field per specialisation",
        ),
        (
            SHEET.replace(
                "{ name = \"Horselord\", from = \"order\" }",
                "{ name = \"Horselord\", from = \"order\" },\n  { name = \"\", from = \"free\" }",
            ),
            "has no name",
        ),
        (
            SHEET.replace(
                "order_abilities = [\"Swift Strike\"]",
                "order_abilities = [\"Foo\"]",
            ),
            "Warrior's: Swift Strike, Evasion",
        ),
        (
            SHEET.replace("free_attributes = {}", "free_attributes = { STR = -1 }"),
            "cannot lower an attribute",
        ),
    ];
    for (bad, says) in cases {
        assert_ne!(bad, SHEET, "{says}");
        let sheet = Sheet::from_toml(&bad).expect("a sheet");
        let report = sheet.render(taku_dice::Lang::En);
        assert!(
            report.contains("violation LR-") && report.contains(says) && !report.contains("違反"),
            "{says}: {report}"
        );
        let err = t
            .decide_sheet("alice", &bad)
            .expect_err("refused")
            .render(taku_dice::Lang::En);
        assert!(err.contains(says), "{says}: {err}");
    }
}

/// lotr8 F11 (LR-4, LR-5): the dead and the unconscious fight no battle as heroes, fortify
/// nothing, command no unit and take no temptation test, as they act in no combat.
#[test]
fn lr4_lr5_the_dead_and_unconscious_neither_fight_battles_nor_fortify() {
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr damage サム 60");
    run(&mut t, "gm", "/lotr battle start 0");
    run(&mut t, "gm", "/lotr siege add 角笛城 prot=8 struct=40");
    run(
        &mut t,
        "gm",
        "/lotr unit add ローハン men=230 str=8 tough=6 mob=6 morale=7",
    );
    run(
        &mut t,
        "gm",
        "/lotr unit add オーク軍 men=150 str=8 tough=6 mob=5 morale=5",
    );
    for line in [
        "/lotr battle hero サム thick",
        "/lotr siege fortify サム rank=3 +5 tn=10 structure 角笛城",
        "/lotr unit attack ローハン オーク軍 +0 by=サム",
    ] {
        let why = refused(&mut t, "gm", line);
        assert!(
            why.contains("LR-4") && why.contains("dead"),
            "{line}: {why}"
        );
    }
    // Exhausted アラゴルン is unconscious (LR-5).
    run(&mut t, "gm", "/lotr weary アラゴルン +5");
    for line in [
        "/lotr battle hero アラゴルン thick",
        "/lotr corruption アラゴルン 10",
    ] {
        let why = refused(&mut t, "gm", line);
        assert!(why.contains("LR-5"), "{line}: {why}");
    }
}
