//! The MTG-based TRPG at a table: libraries as state, MT-2 checks through `/deck`, the
//! boost and the end of turn, and MT-3's refusals, through the path a user takes.

mod support;

use support::{refused, run};
use taku_table::Table;

fn table() -> Table {
    let mut t = Table::create("MtgTrpg", "mtg", "gm", [4; 32])
        .expect("table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    for (who, line) in [
        ("gm", "/join alice"),
        ("gm", "/join bob"),
        ("alice", "/char new ミナ"),
        ("bob", "/char new ロイ"),
    ] {
        t.exec(who, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    t
}

fn library(t: &Table, pc: &str) -> serde_json::Value {
    t.system_state().expect("state").to_json()[pc].clone()
}

const DECK: &str = "/deck load ミナ Deck; 8 Forest; 4 Mountain; 4 Elvish Mystic; 4 Runeclaw Bear; 4 Scaled Wurm; 4 Llanowar Elves; Sideboard; 2 Island";

#[test]
fn mt1_a_deck_list_becomes_a_shuffled_library() {
    let mut t = table();
    assert!(refused(&mut t, "bob", DECK).contains("ミナ belongs to alice"));
    let out = run(&mut t, "alice", DECK);
    assert_eq!(
        out,
        ["#6 alice: ミナのライブラリー: 28枚をシャッフル（サイドボード2枚は入れない）"]
    );
    assert_eq!(
        library(&t, "ミナ")["cards"].as_array().map(Vec::len),
        Some(28)
    );
    let err = refused(
        &mut t,
        "alice",
        "/deck load ミナ 4 Llanowar Elfs; 3 Black Lotus",
    );
    assert!(
        err.contains("'Llanowar Elfs' (did you mean Llanowar Elves?)"),
        "{err}"
    );
    assert!(err.contains("'Black Lotus'"), "{err}");
    let show = run(&mut t, "alice", "/deck show ミナ");
    assert!(show[0].starts_with("ミナのライブラリー: 28枚"), "{show:?}");
    assert!(show[0].contains("8 《森》(Forest)"), "{show:?}");
    assert!(
        t.verify().is_empty(),
        "the shuffle's dice replay: {:?}",
        t.verify()
    );
}

#[test]
fn mt2_a_check_moves_the_cards_and_mt3_refuses_the_same_check_twice() {
    let mut t = table();
    run(&mut t, "alice", DECK);
    // `boost` declared in advance: no open check waits for a decision.
    let out = run(
        &mut t,
        "alice",
        "/deck check ミナ 緑 2 boost 扉をこじ開ける",
    );
    assert!(
        out[0].starts_with("#7 alice: ミナの「扉をこじ開ける」緑判定（難易度2） ＞ 1枚目 "),
        "{out:?}"
    );
    assert!(
        out[0].contains("目標値") && out[0].contains("達成値"),
        "{out:?}"
    );
    assert!(
        out[0].ends_with("成功") || out[0].ends_with("失敗"),
        "{out:?}"
    );
    let l = library(&t, "ミナ");
    let exiled = l["exiled"].as_array().map(Vec::len).unwrap_or(0);
    assert_eq!(l["cards"].as_array().map(Vec::len), Some(28 - exiled));
    let again = refused(
        &mut t,
        "alice",
        "/deck check ミナ green 2 boost 扉をこじ開ける",
    );
    assert!(
        again.contains("the same check twice in one turn"),
        "{again}"
    );
    // A different difficulty is a different check.
    let out = run(&mut t, "alice", "/deck check ミナ green 3 扉をこじ開ける");
    assert!(!out.is_empty());
    // Both succeeded without a boost: nothing is exiled; the turn's end forgets the
    // checks, so the same check may be made again.
    assert_eq!(
        library(&t, "ミナ")["exiled"].as_array().map(Vec::len),
        Some(0)
    );
    let out = run(&mut t, "gm", "/turn end");
    assert_eq!(out, ["#9 gm: ミナのターン終了"]);
    assert_eq!(
        library(&t, "ミナ")["checks"].as_array().map(Vec::len),
        Some(0)
    );
    run(
        &mut t,
        "alice",
        "/deck check ミナ 緑 2 boost 扉をこじ開ける",
    );
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

#[test]
fn mt2_a_failing_check_waits_for_the_boost_decision() {
    // At difficulty 8 this table's draw fails without a boost (the seed is fixed).
    let mut t = table();
    run(&mut t, "alice", DECK);
    let out = run(&mut t, "alice", "/deck check ミナ 緑 8");
    let open = &out[0];
    assert!(
        open.contains("このままでは失敗。ブーストできます"),
        "{out:?}"
    );
    assert!(refused(&mut t, "alice", "/deck check ミナ 緑 7").contains("open check"));
    assert!(refused(&mut t, "alice", "/turn end").contains("open check"));
    let out = run(&mut t, "alice", "/deck boost ミナ");
    assert!(out[0].contains("ブースト: "), "{out:?}");
    assert_eq!(
        library(&t, "ミナ")["exiled"].as_array().map(Vec::len),
        Some(6)
    );
    // Once per turn: a failing check is not held open for a second boost.
    assert_eq!(library(&t, "ミナ")["boosted"], true);
    let out = run(&mut t, "alice", "/deck check ミナ 緑 12");
    assert!(out[0].ends_with("失敗"), "{out:?}");
    assert!(!out[0].contains("ブースト"), "{out:?}");
    assert!(refused(&mut t, "alice", "/deck boost ミナ").contains("no open check"));
    run(&mut t, "alice", "/turn end ミナ");
    assert_eq!(
        library(&t, "ミナ")["exiled"].as_array().map(Vec::len),
        Some(0)
    );
    assert_eq!(
        library(&t, "ミナ")["cards"].as_array().map(Vec::len),
        Some(28)
    );
}

#[test]
fn mt2_known_cards_and_too_small_libraries() {
    let mut t = table();
    run(
        &mut t,
        "alice",
        "/deck load ミナ 1 Elvish Mystic; 1 Runeclaw Bear; 1 Scaled Wurm",
    );
    run(&mut t, "alice", "/deck known ミナ 2");
    let err = refused(&mut t, "alice", "/deck check ミナ 緑 0");
    assert!(err.contains("a check needs 2 (MT-2 step 2)"), "{err}");
    assert!(refused(&mut t, "alice", "/deck known ミナ 9").contains("only 3 cards"));
    assert!(
        refused(&mut t, "alice", "/deck check ミナ purple 2")
            .contains("unknown check kind 'purple'")
    );
    assert!(
        refused(&mut t, "alice", "/deck check ミナ 緑 hard").contains("'hard' is not a difficulty")
    );
    assert!(refused(&mut t, "bob", "/deck check ロイ 緑 2").contains("ロイ has no library"));
}

#[test]
fn mt3_a_check_whose_outcome_is_certain_is_refused_unless_the_gm_forces_it() {
    let mut t = table();
    run(&mut t, "alice", "/deck load ミナ 20 Forest");
    // Every Forest: target 0 + 0, achievement 0 + 5: always a success.
    let err = refused(&mut t, "alice", "/deck check ミナ 緑 0");
    assert!(err.contains("the outcome is certain"), "{err}");
    assert!(err.contains("always succeed"), "{err}");
    // Difficulty 6 with the turn's boost still unused: 5 + 6 colourless Forests ≥ 6,
    // certain too; 12 is beyond even a boost.
    let err = refused(&mut t, "alice", "/deck check ミナ 緑 6");
    assert!(err.contains("always succeed"), "{err}");
    let err = refused(&mut t, "alice", "/deck check ミナ 緑 12");
    assert!(err.contains("always fail"), "{err}");
    assert!(refused(&mut t, "alice", "/deck check ミナ 緑 0 force").contains("only the GM"));
    let out = run(&mut t, "gm", "/deck check ミナ 緑 0 force");
    assert!(out[0].ends_with("成功"), "{out:?}");
}

#[test]
fn the_help_lists_the_deck_commands_in_japanese() {
    let mut t = table();
    let help = run(&mut t, "alice", "/help").concat();
    for cmd in [
        "/deck load",
        "/deck check",
        "/deck boost",
        "/turn end",
        "/deck known",
        "/deck show",
    ] {
        assert!(help.contains(cmd), "{cmd}");
    }
}
