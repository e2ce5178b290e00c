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
    run(&mut t, "alice", "/char set アラゴルン NIM 8");
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
    run(&mut t, "bob", "/char set サム race Hobbits size small");
    run(&mut t, "gm", "/lotr damage サム 40");
    assert!(sheet(&t, "サム").contains("wound level: Incapacitated"));
    let out = run(&mut t, "gm", "/lotr damage サム 10");
    assert!(out[0].contains("死亡"), "{out:?}");
    let mut t = table([3; 32]);
    run(&mut t, "bob", "/char set サム race Hobbits size small");
    run(&mut t, "gm", "/lotr set hobbit_death on_incapacitated");
    let out = run(&mut t, "gm", "/lotr damage サム 40");
    assert!(out[0].contains("死亡"), "{out:?}");
    // Mammoth, Health 20 (VIT 20, STR 7): three Healthy levels, Dazed at 60.
    let mut t = table([3; 32]);
    run(&mut t, "bob", "/char set サム VIT 20 size mammoth");
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
    run(&mut t, "bob", "/char set サム VIT 5");
    run(&mut t, "gm", "/lotr damage サム 5");
    let out = run(&mut t, "gm", "/lotr heal サム week");
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
    run(&mut t, "bob", "/char set サム STR 3 VIT 3");
    assert!(sheet(&t, "サム").contains("breath held (minutes): 1"));
}

// ---- LR-5: weariness ---------------------------------------------------------------------

#[test]
fn lr5_exhausted_recovery_with_helpers() {
    for (helper, tn) in [("marginal", 7), ("complete", 5), ("superior", 0)] {
        let mut t = table([3; 32]);
        run(&mut t, "gm", "/lotr weary サム +5");
        let out = run(&mut t, "bob", &format!("/lotr recover サム {helper}"));
        // Exhausted −9 (the example table) goes on the TN too.
        assert!(out[0].contains(&format!("目標値{tn}")), "{helper}: {out:?}");
        assert!(out[0].contains("Stamina−10"), "{out:?}");
    }
    let mut t = table([3; 32]);
    run(&mut t, "gm", "/lotr weary サム +5");
    let out = run(&mut t, "bob", "/lotr recover サム extraordinary");
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
    run(&mut t, "bob", "/char set サム Courage 6");
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
    let out = run(&mut t, "bob", "/lotr corruption サム 12");
    assert!(out[0].contains("5 vs 12（-7）Complete Failure"), "{out:?}");
    assert!(
        out[0].contains("堕落+2") && out[0].contains("しなければならない"),
        "{out:?}"
    );
    let out = run(&mut t, "bob", "/lotr corruption サム 12 followup");
    assert!(out[0].contains("堕落は変わらない"), "{out:?}");
    assert!(sheet(&t, "サム").contains("Corruption / Bearing: 2 / 8"));
}

#[test]
fn lr7_corruption_reaching_bearing_makes_an_npc_and_never_goes_below_zero() {
    let mut t = table([3; 32]);
    run(&mut t, "bob", "/lotr corruption サム deed");
    assert!(sheet(&t, "サム").contains("Corruption / Bearing: 0 / 8"));
    run(&mut t, "bob", "/lotr corruption サム yield 7");
    assert!(refused(&mut t, "bob", "/lotr corruption サム yield 1").contains("LR-7"));
    // Bearing 8, Corruption 7, then +1 from a Failure (margin −5..−1): no double six.
    let probe = {
        let mut t = table([0; 32]);
        run(&mut t, "bob", "/lotr corruption サム yield 7");
        t.next_seq()
    };
    let seed = seed_where(probe, 2, |x| x[0] + x[1] < 12);
    let mut t = table(seed);
    run(&mut t, "bob", "/lotr corruption サム yield 7");
    let seq = t.next_seq();
    assert_eq!(seq, probe);
    let sum = dice_at(seed, seq, 2).iter().sum::<u32>() as i64;
    // Willpower +2: total sum + 2; a TN 1..5 above it is a Failure.
    let out = run(
        &mut t,
        "bob",
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
