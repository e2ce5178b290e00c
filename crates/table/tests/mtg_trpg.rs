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
        ("gm", "/join sam as spectator"),
        ("alice", "/char new ミナ"),
        ("bob", "/char new ロイ"),
    ] {
        t.exec(who, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    t
}

fn library(t: &Table, pc: &str) -> serde_json::Value {
    t.system_state().expect("state").to_json()["libraries"][pc].clone()
}

const DECK: &str = "/deck load ミナ Deck; 8 Forest; 4 Mountain; 4 Elvish Mystic; 4 Runeclaw Bear; 4 Scaled Wurm; 4 Llanowar Elves; Sideboard; 2 Island";

#[test]
fn mt1_a_deck_list_becomes_a_shuffled_library() {
    let mut t = table();
    assert!(refused(&mut t, "bob", DECK).contains("ミナ belongs to alice"));
    let out = run(&mut t, "alice", DECK);
    assert_eq!(
        out,
        ["#7 alice: ミナのライブラリー: 28枚をシャッフル（サイドボード2枚は入れない）"]
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
        out[0].starts_with("#8 alice: ミナの「扉をこじ開ける」緑判定（難易度2） ＞ 1枚目 "),
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
    assert_eq!(out, ["#10 gm: ミナのターン終了"]);
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
    assert!(refused(&mut t, "alice", "/turn end").contains("ミナ's check is open"));
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
    // The GM says what the player has seen (issue 13, MTG 1).
    run(&mut t, "gm", "/deck known ミナ 2");
    let err = refused(&mut t, "alice", "/deck check ミナ 緑 0");
    assert!(err.contains("a check needs 2 (MT-2 step 2)"), "{err}");
    assert!(refused(&mut t, "gm", "/deck known ミナ 9").contains("only 3 cards"));
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

fn cards(t: &Table, pc: &str, zone: &str) -> usize {
    library(t, pc)[zone].as_array().map_or(0, Vec::len)
}

/// Issue 13, MTG 1. Seed line 15 「PLがライブラリーの上にあるカードが何かを知っている場合」:
/// known cards are ones the player has seen; nobody but the GM sees the unknown order.
#[test]
fn issue13_mtg1_a_player_cannot_read_or_declare_their_library_order() {
    let mut t = table();
    run(&mut t, "alice", DECK);
    let err = refused(&mut t, "alice", "/deck known ミナ 6");
    assert!(err.contains("only the GM says which top cards"), "{err}");
    let order: Vec<String> = library(&t, "ミナ")["cards"]
        .as_array()
        .expect("cards")
        .iter()
        .map(|c| c["name"].as_str().expect("name").to_string())
        .collect();
    // The player's view: the count and the contents, not the order.
    let show = run(&mut t, "alice", "/deck show ミナ").concat();
    assert!(!show.contains("GMのみ"), "{show}");
    assert!(!show.contains("既知"), "{show}");
    let sheet = run(&mut t, "alice", "/char show ミナ").concat();
    assert!(!sheet.contains("既知"), "{sheet}");
    // The GM sees the whole order.
    let show = run(&mut t, "gm", "/deck show ミナ").concat();
    assert!(show.contains("（GMのみ）上からの順番"), "{show}");
    // A pending boost: the player cannot learn the six cards it would take.
    let out = run(&mut t, "alice", "/deck check ミナ 緑 11");
    assert!(out[0].contains("ブーストできます"), "{out:?}");
    assert!(refused(&mut t, "alice", "/deck known ミナ 8").contains("only the GM"));
    run(&mut t, "alice", "/deck done ミナ");
    // Cards revealed by play and put back on top: the GM says the player knows them, and
    // then the player (and only they and the GM) sees exactly those.
    run(&mut t, "gm", "/deck known ミナ 2");
    let now: Vec<String> = library(&t, "ミナ")["cards"]
        .as_array()
        .expect("cards")
        .iter()
        .map(|c| c["name"].as_str().expect("name").to_string())
        .collect();
    assert_ne!(now, order, "the check moved cards");
    let show = run(&mut t, "alice", "/deck show ミナ").concat();
    assert!(show.contains("既知の上2枚"), "{show}");
    let known_line = show
        .lines()
        .find(|l| l.contains("既知の上2枚"))
        .expect("known line");
    assert!(
        known_line.contains(&now[0]) && known_line.contains(&now[1]),
        "{show}"
    );
    assert!(refused(&mut t, "bob", "/deck show ミナ").contains("belongs to alice"));
    let sheet = run(&mut t, "bob", "/char show ミナ").concat();
    assert!(!sheet.contains(&now[0]), "{sheet}");
}

/// Issue 13, MTG 2. A check draws randomness (seed line 34 「無作為の順番で」): players
/// cannot undo it and redo it; the GM may void it, which restores the library.
#[test]
fn issue13_mtg2_a_check_cannot_be_undone_by_a_player_only_voided_by_the_gm() {
    let mut t = table();
    run(&mut t, "alice", DECK);
    let before = library(&t, "ミナ");
    let out = run(&mut t, "alice", "/deck check ミナ 緑 11");
    assert!(out[0].starts_with("#8 "), "{out:?}");
    // The check waiting for the boost decision showed two cards: not undone either.
    let err = refused(&mut t, "alice", "/undo");
    assert!(err.contains("showed what was hidden"), "{err}");
    let err = refused(&mut t, "alice", "/undo #8");
    assert!(err.contains("cannot be undone"), "{err}");
    run(&mut t, "alice", "/deck boost ミナ");
    assert_eq!(cards(&t, "ミナ", "exiled"), 6);
    let err = refused(&mut t, "alice", "/undo");
    assert!(err.contains("cannot be undone"), "{err}");
    // A shuffle draws: not undone. Only the GM shuffles (the order is game state).
    assert!(refused(&mut t, "alice", "/deck shuffle ミナ").contains("only the GM can shuffle"));
    run(&mut t, "gm", "/deck shuffle ミナ");
    assert!(refused(&mut t, "gm", "/undo").contains("cannot be undone"));
    run(&mut t, "gm", "/void 10");
    // The GM voids the boost's decision, then the check: the library is as before.
    run(&mut t, "gm", "/void 9");
    run(&mut t, "gm", "/void 8");
    // The library is as before, but the eight cards the check and its boost showed stay
    // seen: the player knows them on top (see `sec13_…` below).
    let mut expected = before.clone();
    expected["known"] = serde_json::json!(8);
    assert_eq!(library(&t, "ミナ"), expected);
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

fn names(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|c| c["name"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Secrecy (issue 13's first finding). The GM's `/void` of a check must not let anyone
/// predict the next one. Seed: the two cards are revealed 「ライブラリーの上から1枚目と2枚目の
/// カードを公開」, so after a void puts them back on top the player knows them; step 1 then
/// applies: 「PLがライブラリーの上にあるカードが何かを知っている場合、ライブラリー上のカードを
/// 公開する前に、PLに知られているカードをすべて追放します」 and they return on top 「同じ順番で」.
/// The next check reveals the third and fourth cards, not the two everyone saw.
#[test]
fn sec13_a_voided_check_leaves_its_cards_known_so_the_next_check_reveals_unseen_cards() {
    for (line, boosted) in [
        ("/deck check ミナ 緑 2 扉をこじ開ける", false),
        ("/deck check ミナ 緑 11 boost 扉をこじ開ける", true),
    ] {
        let mut t = table();
        run(&mut t, "alice", DECK);
        let before = names(&library(&t, "ミナ")["cards"]);
        let out = run(&mut t, "alice", line);
        assert!(out[0].starts_with("#8 "), "{out:?}");
        let seen = 2 + cards(&t, "ミナ", "exiled");
        assert_eq!(
            seen == 8,
            boosted,
            "difficulty 11 with boost fails and boosts"
        );
        run(&mut t, "gm", "/void 8");
        let l = library(&t, "ミナ");
        // Reverted: the same order, no check made this turn, nothing exiled or open.
        assert_eq!(names(&l["cards"]), before);
        assert_eq!(cards(&t, "ミナ", "checks"), 0);
        assert_eq!(cards(&t, "ミナ", "exiled"), 0);
        assert!(l["open"].is_null(), "{l}");
        // …but the revealed cards are known on top, to the player and the GM.
        assert_eq!(l["known"], serde_json::json!(seen));
        let show = run(&mut t, "alice", "/deck show ミナ").concat();
        assert!(show.contains(&format!("既知の上{seen}枚")), "{show}");
        // The same check again (the void took it back): the known cards are exiled first and
        // the check reveals the first unseen card.
        let out = run(&mut t, "alice", "/deck check ミナ 緑 2 扉をこじ開ける");
        assert!(out[0].contains(&format!("既知の{seen}枚を追放")), "{out:?}");
        let l = library(&t, "ミナ");
        let first_unseen = &before[seen];
        let text = out[0].clone();
        let after_target = text.split("1枚目").nth(1).unwrap_or_default();
        let db_name = taku_systems::mtg_trpg::card_db()
            .get(first_unseen)
            .map(|c| c.display())
            .unwrap_or_default();
        assert!(
            after_target.trim_start().starts_with(&db_name),
            "the 1st card is the first unseen one, {db_name}: {text}"
        );
        // The known cards went back on top in the same order.
        assert_eq!(names(&l["cards"])[..seen], before[..seen]);
        assert!(t.verify().is_empty(), "{:?}", t.verify());
    }
}

/// Issue 13, MTG 3. `/turn end` (seed lines 102–104: the boost's cards return at the end of
/// *that* turn): the GM ends every PC's turn, a player only their own PC's.
#[test]
fn issue13_mtg3_turn_end_is_the_gms_for_everyone_a_players_for_their_own() {
    let mut t = table();
    run(&mut t, "alice", DECK);
    let err = refused(&mut t, "bob", "/turn end");
    assert!(err.contains("only the GM ends everyone's turn"), "{err}");
    assert!(refused(&mut t, "bob", "/turn end ミナ").contains("belongs to alice"));
    assert!(refused(&mut t, "sam", "/turn end").contains("spectators cannot"));
    run(
        &mut t,
        "bob",
        "/deck load ロイ 10 Island; 4 Scaled Wurm; 4 Elvish Mystic",
    );
    run(&mut t, "alice", "/deck check ミナ 緑 2 boost");
    // bob's /turn end ends ロイ's turn only: ミナ's checks this turn stand.
    let out = run(&mut t, "bob", "/turn end");
    assert_eq!(out[0], "#10 bob: ロイのターン終了");
    assert_eq!(cards(&t, "ミナ", "checks"), 1);
    // MT-3, seed line 121 「行動判定が始まってから、行動判定の結果起こったことが終わるまで
    // は、いかなるプレイヤーも、優先権を得ません」: while ミナ's check waits for the boost
    // decision no turn ends — not hers, not ロイ's, not the GM's whole turn (play-through
    // 5: the GM's `/turn end` ended the others' turns around it).
    let out = run(&mut t, "alice", "/deck check ミナ 緑 11");
    assert!(out[0].contains("ブーストできます"), "{out:?}");
    let err = refused(&mut t, "gm", "/turn end");
    assert!(
        err.contains("ミナ's check is open") && err.contains("no turn ends"),
        "{err}"
    );
    assert!(
        err.contains("the GM can also close it with /deck done ミナ"),
        "{err}"
    );
    assert!(refused(&mut t, "bob", "/turn end").contains("ミナ's check is open"));
    assert!(refused(&mut t, "bob", "/turn end ロイ").contains("ミナ's check is open"));
    assert!(refused(&mut t, "alice", "/turn end").contains("/deck done ミナ"));
    assert!(refused(&mut t, "alice", "/turn end ミナ").contains("MT-3"));
    // In Japanese too, the table's default.
    let ja = t
        .exec("gm", "/turn end")
        .expect_err("refused")
        .render(taku_dice::Lang::Ja);
    assert!(ja.contains("ミナの判定が途中です"), "{ja}");
    assert!(ja.contains("どのターンも終わりません（MT-3）"), "{ja}");
    assert_eq!(cards(&t, "ロイ", "checks"), 0);
    run(&mut t, "alice", "/deck done ミナ");
    let out = run(&mut t, "alice", "/turn end");
    assert_eq!(out[0], "#13 alice: ミナのターン終了");
    // A player's own turn end keeps the once-per-turn limits until the GM ends the turn.
    assert_eq!(cards(&t, "ミナ", "checks"), 2);
    run(&mut t, "gm", "/turn end ミナ");
    assert_eq!(cards(&t, "ミナ", "checks"), 0);
}

/// Issue 13, MTG 4. Seed line 106 「行動判定ブーストによって追放されたカードは、シーンあるいは
/// ターン終了時まで、いかなる方法でも追放領域を離れません」 and line 84 (once per turn): a deck
/// loaded mid-turn keeps the turn's boost, checks and exile.
#[test]
fn issue13_mtg4_loading_a_deck_mid_turn_keeps_the_turn_and_the_exile() {
    let mut t = table();
    run(&mut t, "alice", DECK);
    run(&mut t, "alice", "/deck check ミナ 緑 11");
    run(&mut t, "alice", "/deck boost ミナ");
    assert_eq!(cards(&t, "ミナ", "exiled"), 6);
    // Replacing a library in play is the GM's (a player loads only a first library).
    assert!(
        refused(&mut t, "alice", "/deck load ミナ 10 Forest; 10 Scaled Wurm")
            .contains("only the GM can replace")
    );
    run(&mut t, "gm", "/deck load ミナ 10 Forest; 10 Scaled Wurm");
    assert_eq!(cards(&t, "ミナ", "exiled"), 6);
    assert_eq!(library(&t, "ミナ")["boosted"], true);
    assert_eq!(cards(&t, "ミナ", "checks"), 1);
    assert_eq!(cards(&t, "ミナ", "cards"), 20);
    // The same check as before is still the same check this turn.
    assert!(refused(&mut t, "alice", "/deck check ミナ 緑 11").contains("same check twice"));
    run(&mut t, "alice", "/turn end ミナ");
    assert_eq!(cards(&t, "ミナ", "exiled"), 0);
    assert_eq!(cards(&t, "ミナ", "cards"), 26);
}

/// Issue 13, MTG 6. Seed lines 133–134 「PLが判定の結果が分かっている、推測できる場合、…行動
/// 判定を行うことができません」: the player saw the two revealed cards go to the bottom, so
/// with three cards the next check's cards are known up to their order.
#[test]
fn issue13_mtg6_certainty_counts_the_cards_seen_going_to_the_bottom() {
    let mut t = table();
    // Two Forests (MV 0, green by land type) and a Scaled Wurm (MV 7, green).
    run(&mut t, "alice", "/deck load ミナ 2 Forest; 1 Scaled Wurm");
    // From the contents alone a green check at difficulty 0 may go either way:
    // Forest then Wurm or Forest then Forest succeed, Wurm then Forest fails.
    run(&mut t, "alice", "/deck check ミナ 緑 0");
    run(&mut t, "gm", "/turn end ミナ");
    // Now the card left on top is the one not revealed: a Wurm on top (target 7) against
    // the two Forests (achievement 5) always fails; a Forest on top (target 0) against a
    // Forest or the Wurm always succeeds. Either way the player can tell.
    let err = refused(&mut t, "alice", "/deck check ミナ 緑 0");
    assert!(err.contains("the outcome is certain"), "{err}");
    let show = run(&mut t, "alice", "/deck show ミナ").concat();
    assert!(
        show.contains("下にあると分かっているカード（1組目"),
        "{show}"
    );
    run(&mut t, "gm", "/deck check ミナ 緑 0 force");
    // A shuffle forgets what was seen: the contents alone decide again.
    run(&mut t, "gm", "/deck shuffle ミナ");
    run(&mut t, "gm", "/turn end ミナ");
    run(&mut t, "alice", "/deck check ミナ 緑 0");
}

/// Issue 13, MTG 7. Seed line 106 「行動判定ブーストによって追放されたカードは、シーンあるいは
/// ターン終了時まで、いかなる方法でも追放領域を離れません」: the scene's end returns them too,
/// to the bottom in random order (line 103), with dice the log replays.
#[test]
fn issue13_mtg7_boost_cards_return_at_the_end_of_the_scene() {
    let mut t = table();
    run(&mut t, "alice", DECK);
    run(&mut t, "alice", "/deck check ミナ 緑 11");
    run(&mut t, "alice", "/deck boost ミナ");
    assert_eq!(cards(&t, "ミナ", "exiled"), 6);
    let out = run(&mut t, "gm", "/scene next");
    assert!(
        out.iter().any(|l| l.contains(
            "シーン終了: ミナのブーストで追放した6枚を無作為の順番でライブラリーの一番下へ"
        )),
        "{out:?}"
    );
    assert_eq!(cards(&t, "ミナ", "exiled"), 0);
    assert_eq!(cards(&t, "ミナ", "cards"), 28);
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

// ---- Issue 13: deck lists as players paste them (MTG-5, MTG-11) and the boost prompt ----

/// MT-1 (digest: "sideboard is not in the library"; play-through finding): an MTGO text
/// export pasted whole — the main deck, a blank line, the sideboard with no header — leaves
/// the sideboard out and says so; `.dec`'s `SB:` lines too.
#[test]
fn issue13_mtg5_a_sideboard_after_a_blank_line_or_sb_lines_stays_out_of_the_library() {
    let mut t = table();
    let out = run(
        &mut t,
        "alice",
        "/deck load ミナ 4 Llanowar Elves\n4 Runeclaw Bear\n12 Forest\n\n2 Island\n1 Mountain",
    );
    assert!(
        out[0].ends_with("ミナのライブラリー: 20枚をシャッフル（サイドボード3枚は入れない）"),
        "{out:?}"
    );
    let out = run(
        &mut t,
        "gm",
        "/deck load ミナ // .dec\n4 [M19] Llanowar Elves\n16 Forest\nSB: 2 Island",
    );
    assert!(
        out[0].contains("20枚をシャッフル（サイドボード2枚は入れない）"),
        "{out:?}"
    );
    // Replacing a library in play is the GM's (issue 13 play-through 4: a player swapped
    // decks between turns); the GM's loads below read the other formats.
    let err = refused(&mut t, "alice", "/deck load ミナ 20 Forest");
    assert!(err.contains("only the GM can replace"), "{err}");
    // A blank `;;` on one chat line is no sideboard break.
    let out = run(&mut t, "gm", "/deck load ミナ 10 Forest;; 10 Mountain");
    assert!(
        out[0].contains("20枚をシャッフル（サイドボード0枚"),
        "{out:?}"
    );
    // With headers, a blank line is only a blank line.
    let out = run(
        &mut t,
        "gm",
        "/deck load ミナ Deck\n10 Forest\n\n10 Mountain\nSideboard\n2 Island",
    );
    assert!(
        out[0].contains("20枚をシャッフル（サイドボード2枚は入れない）"),
        "{out:?}"
    );
}

/// MTG-11: the list formats players paste — Arena's About/Name block and headers, Japanese
/// headers, a UTF-8 BOM, `4 x Name`, `Name x4`, Moxfield's `*F*`, full-width digits.
#[test]
fn issue13_mtg11_deck_lists_in_the_formats_players_paste() {
    let mut t = table();
    let arena = "/deck load ミナ \u{feff}About\nName 緑単\n\nDeck\n4 Llanowar Elves (M19) 314\n4 x Runeclaw Bear\nForest x10\n2 Mountain (M19) 300 *F*\n\nSideboard\n2 Island";
    let out = run(&mut t, "alice", arena);
    assert!(
        out[0].contains("20枚をシャッフル（サイドボード2枚は入れない）"),
        "{out:?}"
    );
    let out = run(
        &mut t,
        "gm",
        "/deck load ミナ デッキ\n１０ Forest\n１０ 山\nサイドボード\n２ Island",
    );
    assert!(
        out[0].contains("20枚をシャッフル（サイドボード2枚は入れない）"),
        "{out:?}"
    );
}

/// MT-2 steps 3–4 (seed: 「ライブラリーの上から1枚目と2枚目のカードを公開」): the boost
/// prompt shows the two revealed cards and the check's purpose, so the table sees what the
/// boost is decided on.
#[test]
fn issue13_mtg12_the_boost_prompt_names_the_revealed_cards_and_the_purpose() {
    let mut t = table();
    run(&mut t, "alice", DECK);
    let out = run(&mut t, "alice", "/deck check ミナ 緑 8 扉をこじ開ける");
    let open = &out[0];
    assert!(
        open.contains("ミナの「扉をこじ開ける」緑判定（難易度8）: 1枚目 《"),
        "{out:?}"
    );
    assert!(open.contains("マナ総量"), "{out:?}");
    assert!(open.contains("／ 2枚目 《"), "{out:?}");
    // Bob (another player) sees the same cards: they are public.
    let seen = t
        .events()
        .last()
        .map(|e| t.entry(e, "bob", taku_dice::Lang::Ja).text)
        .unwrap_or_default();
    assert!(seen.contains("2枚目 《"), "{seen}");
}

/// Seed: 「判定の種類は、白判定、青判定、黒判定、赤判定、緑判定、色のない判定の6つ」: the seed's own
/// words name the kind, and full-width letters and digits read as ASCII.
#[test]
fn sec13_the_seeds_kind_words_and_full_width_input_are_read() {
    for (kind, shown) in [
        ("緑判定", "緑判定（難易度"),
        ("色のない判定", "色のない判定（難易度"),
        ("ＧＲＥＥＮ", "緑判定（難易度"),
        ("green check", "緑判定（難易度"),
    ] {
        let mut t = table();
        run(&mut t, "alice", DECK);
        let out = run(
            &mut t,
            "alice",
            &format!("/deck check ミナ \"{kind}\" ３ 扉"),
        );
        assert!(out[0].contains(&format!("{shown}3）")), "{kind}: {out:?}");
    }
}

/// `boost`/`force` are flags before or after the purpose, not inside it (MT-3 compares
/// purposes, so a purpose must stay as typed).
#[test]
fn sec13_a_flag_word_inside_the_purpose_stays_in_the_purpose() {
    let mut t = table();
    run(&mut t, "alice", DECK);
    let out = run(&mut t, "alice", "/deck check ミナ 緑 4 the boost door");
    assert!(out[0].contains("「the boost door」"), "{out:?}");
    let l = library(&t, "ミナ");
    if l["open"].is_object() {
        run(&mut t, "alice", "/deck done ミナ");
    }
    // A trailing flag is a flag.
    let out = run(&mut t, "alice", "/deck check ミナ 緑 5 扉 boost");
    assert!(out[0].contains("「扉」"), "{out:?}");
}

/// Seed: 「1ターンに1回のみ「行動判定ブースト」」 and 「同じターンに、まったく同じ行動判定を2回
/// 以上行うことはできません」. The turn is the game's, which the GM runs: a player's own
/// `/turn end` returns the boost's cards (「ターン終了時に…ライブラリーの一番下に戻します」) but
/// does not start the limits afresh, so ending one's own turn again and again buys no
/// second boost and no repeat of the same check; the GM's `/turn end` does.
#[test]
fn sec13_a_players_own_turn_end_does_not_reset_the_once_per_turn_limits() {
    let mut t = table();
    run(
        &mut t,
        "alice",
        "/deck load ミナ 10 Forest; 10 Runeclaw Bear",
    );
    run(&mut t, "alice", "/deck check ミナ 無色 2 扉 boost");
    if library(&t, "ミナ")["open"].is_object() {
        run(&mut t, "alice", "/deck done ミナ");
    }
    let out = run(&mut t, "alice", "/turn end ミナ");
    assert!(out[0].contains("ミナのターン終了"), "{out:?}");
    assert!(out.concat().contains("GMがターンを進める"), "{out:?}");
    assert_eq!(cards(&t, "ミナ", "exiled"), 0, "the cleanup still happens");
    let err = refused(&mut t, "alice", "/deck check ミナ 無色 2 扉 boost");
    assert!(err.contains("same check twice"), "{err}");
    run(&mut t, "alice", "/turn end ミナ");
    assert!(refused(&mut t, "alice", "/deck check ミナ 無色 2 扉").contains("same check twice"));
    run(&mut t, "gm", "/turn end");
    assert_eq!(cards(&t, "ミナ", "checks"), 0);
    assert_eq!(library(&t, "ミナ")["boosted"], false);
    run(&mut t, "alice", "/deck check ミナ 無色 2 扉 boost");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// Seed: 「ライブラリーが6枚未満の時、行動判定ブーストの宣言は行えません」: a failure that
/// cannot be boosted says why.
#[test]
fn sec13_a_failure_that_cannot_be_boosted_says_why() {
    let mut t = table();
    run(&mut t, "bob", "/deck load ロイ 3 Runeclaw Bear; 2 Forest");
    for d in 0..=4 {
        let out = run(&mut t, "bob", &format!("/deck check ロイ 無色 {d} a"));
        if out[0].ends_with("失敗") {
            assert!(out.concat().contains("6枚未満"), "{out:?}");
            return;
        }
    }
    panic!("no failure at difficulties 0–4");
}

/// Issue 13, MTG-10. The seed's worked example needs a known order (「それが、《エルフの
/// 神秘家》なら…2枚目に公開したカードが《ルーン爪の熊》なら」) and its advice 「ライブラリーを
/// 回復する手段を入れておくことがお勧め」 needs refills: the GM orders, draws, mills, puts on
/// top or bottom and returns cards; players cannot.
#[test]
fn sec13_mtg10_the_gm_plays_the_worked_example_and_the_library_operations() {
    let mut t = table();
    let order = "/deck order ミナ Elvish Mystic; Runeclaw Bear; 4 Forest; 4 Mountain";
    assert!(refused(&mut t, "alice", order).contains("are the GM's"));
    run(&mut t, "gm", order);
    // The worked example: green, difficulty 2 → target 1 + 2 = 3, achievement 2 + 5 = 7
    // (certain from these contents with a boost left, so the GM forces it, MT-3).
    let out = run(&mut t, "gm", "/deck check ミナ 緑 2 force 重い石の扉");
    assert!(
        out[0].contains("1枚目 《エルフの神秘家》(Elvish Mystic) マナ総量1 ＞ 目標値3")
            && out[0].contains("2枚目 《ルーン爪の熊》(Runeclaw Bear) マナ総量2 ＋ 色の修正+5")
            && out[0].contains("達成値7")
            && out[0].ends_with("成功"),
        "{out:?}"
    );
    // Draw: the owner and the GM see the card, bob does not.
    let before = names(&library(&t, "ミナ")["cards"]);
    let out = run(&mut t, "gm", "/deck draw ミナ 1");
    assert!(out[0].contains("1枚引く"), "{out:?}");
    let seq = t.next_seq() - 1;
    let e = t.events()[seq as usize - 1].clone();
    assert!(
        !t.entry(&e, "bob", taku_dice::Lang::Ja)
            .text
            .contains(&before[0]),
        "a draw is hidden from other players"
    );
    assert_eq!(names(&library(&t, "ミナ")["cards"]), before[1..]);
    // Mill is public; top and bottom are known to the player.
    run(&mut t, "gm", "/deck mill ミナ 2");
    run(&mut t, "gm", "/deck top ミナ Scaled Wurm; Llanowar Elves");
    let l = library(&t, "ミナ");
    assert_eq!(names(&l["cards"])[..2], ["Scaled Wurm", "Llanowar Elves"]);
    assert_eq!(l["known"], 2);
    run(&mut t, "gm", "/deck bottom ミナ Forest");
    assert_eq!(
        names(&library(&t, "ミナ")["cards"])
            .last()
            .map(String::as_str),
        Some("Forest")
    );
    // Return: the cards go in and the library is shuffled (nothing known any more).
    let n = cards(&t, "ミナ", "cards");
    run(&mut t, "gm", "/deck return ミナ 2 Forest");
    assert_eq!(cards(&t, "ミナ", "cards"), n + 2);
    assert_eq!(library(&t, "ミナ")["known"], 0);
    assert!(refused(&mut t, "gm", "/deck draw ミナ 99").contains("the count is 1 to"));
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// Issue 13, MTG-10: `taku table verify` checks the libraries the recorded draws produce:
/// a log whose check puts other cards at the bottom than its draws say is reported.
#[test]
fn sec13_mtg10_verify_reports_a_library_edited_in_the_log() {
    let mut t = table();
    run(&mut t, "alice", DECK);
    run(&mut t, "alice", "/deck check ミナ 緑 2 boost 扉");
    run(&mut t, "gm", "/deck shuffle ミナ");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
    // Edit the shuffle's recorded library: swap its two top cards.
    let mut events = t.events().to_vec();
    let last = events.len() - 1;
    let taku_table::EventBody::System { data, .. } = &mut events[last].body else {
        panic!("a system event")
    };
    let cards = data["cards"].as_array_mut().expect("cards");
    let i = (1..cards.len())
        .find(|&i| cards[i] != cards[0])
        .expect("two kinds");
    cards.swap(0, i);
    let edited = Table::from_events(events).expect("loads");
    let bad = edited.verify();
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(bad[0].replayed.contains("another result"), "{bad:?}");
    // The details in Japanese too, for a Japanese `taku table verify` (issue 13: they were
    // English only).
    let ja = bad[0].replayed_ja.as_deref().unwrap_or_default();
    assert!(
        ja.starts_with(
            "ライブラリーと記録されたダイスからは別の結果になります: ミナのライブラリー"
        ),
        "{bad:?}"
    );
    // Edit a deck load instead: a card replaced by a better one.
    let mut events = t.events().to_vec();
    let load = events
        .iter()
        .position(|e| matches!(&e.body, taku_table::EventBody::System { data, .. } if data["kind"] == "loaded"))
        .expect("a load");
    let taku_table::EventBody::System { data, .. } = &mut events[load].body else {
        unreachable!()
    };
    data["cards"][0]["name"] = serde_json::json!("Black Lotus");
    let bad = Table::from_events(events).expect("loads").verify();
    assert!(bad.iter().any(|m| m.seq == events_seq(load)), "{bad:?}");
}

fn events_seq(index: usize) -> u64 {
    index as u64 + 1
}

/// Issue 13, third play-through (aw13c). Seed MT-2 step 7 「公開した2枚のカードを、無作為の
/// 順番で、ライブラリーの一番下に置きます」: the player knows which two cards a group holds, not
/// their order, so `/deck show` lists each group by name — the same whatever the shuffle put
/// first — while the GM's view keeps the real order.
#[test]
fn aw13c_a_player_sees_each_bottom_group_by_name_never_in_the_librarys_order() {
    let mut t = table();
    run(
        &mut t,
        "alice",
        "/deck load ミナ 1 Plains; 1 Island; 1 Swamp; 1 Mountain; 1 Forest; 1 Wastes; 1 Elvish Mystic; 1 Runeclaw Bear; 1 Llanowar Elves; 1 Scaled Wurm; 1 Devoid Eldrazi; 1 Eldrazi Skyspawner; 1 Knight of Autumn",
    );
    for (i, colour) in ["白", "青", "黒", "赤", "緑", "無色"].iter().enumerate() {
        run(
            &mut t,
            "gm",
            &format!("/deck check ミナ {colour} 9 force 目的{i}"),
        );
        if !library(&t, "ミナ")["open"].is_null() {
            run(&mut t, "alice", "/deck done ミナ");
        }
    }
    let cards = names(&library(&t, "ミナ")["cards"]);
    let groups: Vec<usize> = library(&t, "ミナ")["bottom"]
        .as_array()
        .expect("groups")
        .iter()
        .map(|n| n.as_u64().expect("size") as usize)
        .collect();
    assert!(groups.len() >= 2, "{groups:?}");
    let show = t
        .exec("alice", "/deck show ミナ")
        .expect("show")
        .0
        .expect("reply")
        .en()
        .to_string();
    // The groups, bottom of the library last: the true order of each, and as shown.
    let mut at = cards.len() - groups.iter().sum::<usize>();
    let mut differs = false;
    for (i, n) in groups.iter().enumerate() {
        let truth = &cards[at..at + n];
        at += n;
        let mut sorted = truth.to_vec();
        sorted.sort();
        differs |= sorted != truth;
        let line = show
            .lines()
            .find(|l| l.contains(&format!("(group {},", i + 1)))
            .unwrap_or_else(|| panic!("group {}: {show}", i + 1));
        assert!(line.ends_with(&sorted.join(", ")), "{line} / {sorted:?}");
    }
    assert!(
        differs,
        "some group's real order differs from the names' order: {cards:?}"
    );
    // The GM sees the real order.
    let gm = t
        .exec("gm", "/deck show ミナ")
        .expect("show")
        .0
        .expect("reply");
    assert!(gm.ja().contains("（GMのみ）上からの順番"), "{}", gm.ja());
}

/// Third play-through (aw13c). MT-3 「1人のPCが、同じターンに、まったく同じ行動判定を2回以上
/// 行うことはできません」: dropping the purpose does not make a check of the same kind and
/// difficulty another one. Line 134 「PLが判定の結果が分かっている、推測できる場合」: a check
/// certain only with the boost the player may choose says so.
#[test]
fn aw13c_a_purposeless_repeat_is_refused_and_a_boost_made_certainty_says_so() {
    let mut t = table();
    run(&mut t, "alice", DECK);
    run(
        &mut t,
        "alice",
        "/deck check ミナ 緑 2 boost 扉をこじ開ける",
    );
    let err = refused(&mut t, "alice", "/deck check ミナ 緑 2");
    assert!(
        err.contains("ミナ made a green check at difficulty 2 this turn ('扉をこじ開ける')"),
        "{err}"
    );
    let ja = t
        .exec("alice", "/deck check ミナ 緑 2")
        .expect_err("refused")
        .render(taku_dice::Lang::Ja);
    assert!(ja.contains("別の行為なら目的を書いてください"), "{ja}");
    // Another action with its purpose is fine.
    run(&mut t, "alice", "/deck check ミナ 緑 2 boost 岩を動かす");

    // Seven Islands and an Elvish Mystic, blue at 3: an Island then the Mystic fails
    // (achievement 1 < target 3) unless boosted (the six below are Islands: +6).
    run(&mut t, "bob", "/deck load ロイ 7 Island; 1 Elvish Mystic");
    let err = refused(&mut t, "bob", "/deck check ロイ 青 3 鍵を調べる");
    assert!(
        err.contains(
            "this check would always succeed if boosted (the boost is the player's choice"
        ),
        "{err}"
    );
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// Attack pass 3, A3-4: at a table where no PC has a library, the GM's `/turn end` says
/// there is no turn to end, not that an unnamed PC's check is open.
#[test]
fn a_turn_end_with_no_library_says_so() {
    let mut t = table();
    let why = refused(&mut t, "gm", "/turn end");
    assert!(why.contains("no PC has a library"), "{why}");
    assert!(!why.contains("open check"), "{why}");
}

/// Every member's view of every event from `from` on, as text and as the API's JSON.
fn seen_by(t: &Table, who: &str, from: usize) -> String {
    t.events()[from..]
        .iter()
        .map(|e| {
            let entry = t.entry(e, who, taku_dice::Lang::Ja);
            format!(
                "{}\n{}",
                entry.text,
                serde_json::to_string(&entry).expect("json")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The sheet a member sees, as one string (the API's, the web card's and `/char show`'s).
fn sheet_of(t: &Table, name: &str, who: &str) -> String {
    format!("{:?}", t.sheet(name, who))
}

/// Issue 13, aw13d. A GM's NPC makes checks too; the GM may keep one secret (`secret`):
/// its revealed cards, its result, its boost and that library's turn reach no player on
/// any path (log text, the API's JSON, the sheet, the panel), and the GM sees it all.
/// Seed: 「GMが、行動判定の種類と難易度を宣言」 — the GM runs checks; a player's own library
/// is revealed before them (「自分のライブラリーの上から1枚目と2枚目のカードを公開」), so only
/// a GM character's check can be secret.
#[test]
fn aw13d_a_gms_secret_check_of_an_npc_reaches_no_player_on_any_path() {
    let mut t = table();
    run(&mut t, "gm", "/char new 敵");
    // Top: Scaled Wurm (MV 7) → target 7 at difficulty 0; Forest → green by its basic land
    // type, 0 + 5 = 5 < 7: the check waits for the boost decision, which takes 3 Runeclaw
    // Bear and 3 Forest (three colourless: +3 → 8 ≥ 7, a success).
    run(
        &mut t,
        "gm",
        "/deck order 敵 Scaled Wurm; Forest; 3 Runeclaw Bear; 3 Forest; 4 Mountain",
    );
    // Only the GM, and only for a GM character.
    run(&mut t, "alice", DECK);
    let err = refused(&mut t, "alice", "/deck check ミナ 緑 2 secret 扉");
    assert!(err.contains("only the GM makes a secret check"), "{err}");
    let err = refused(&mut t, "gm", "/deck check ミナ 緑 2 secret 扉");
    assert!(
        err.contains("ミナ belongs to alice; a secret check is for the GM's characters only"),
        "{err}"
    );
    // A GM character's library is the GM's to handle, said plainly (not "gm or GM").
    let err = refused(&mut t, "bob", "/deck show 敵");
    assert!(
        err.contains("敵 is a GM character; only the GM handles its library"),
        "{err}"
    );
    let from = t.events().len();
    let out = run(&mut t, "gm", "/deck check 敵 緑 0 secret 見張りに気付く");
    assert!(
        out[0]
            .contains("（秘密の判定、GMだけが見ています）敵の「見張りに気付く」緑判定（難易度0）"),
        "{out:?}"
    );
    assert!(out[0].contains("目標値7"), "{out:?}");
    // Waiting for the boost: the panel shows it to the GM only.
    let panel = |who: &str| format!("{:?}", t.table_sheet(who));
    assert!(panel("gm").contains("敵"), "{}", panel("gm"));
    assert!(!panel("bob").contains("敵"), "{}", panel("bob"));
    // MT-3 (seed line 121): no turn ends in the middle of the GM's check either; a player
    // is told it is the GM's secret check, not whose (a secret check always waits for the
    // GM's decision, whatever its cards, so that it waits tells nothing).
    let err = refused(&mut t, "alice", "/turn end");
    assert!(err.contains("a secret check of the GM's is open"), "{err}");
    assert!(!err.contains("敵"), "{err}");
    let err = refused(&mut t, "gm", "/turn end");
    assert!(err.contains("敵's check is open"), "{err}");
    let out = run(&mut t, "gm", "/deck boost 敵");
    assert!(out[0].contains("（秘密の判定"), "{out:?}");
    assert!(out[0].ends_with("成功"), "{out:?}");
    for who in ["alice", "bob", "sam"] {
        let seen = seen_by(&t, who, from);
        for secret in [
            "見張り",
            "Scaled Wurm",
            "甲鱗",
            "目標値",
            "成功",
            "ブースト",
            "敵",
        ] {
            assert!(!seen.contains(secret), "{who} saw {secret}: {seen}");
        }
        assert!(seen.contains("（非公開）"), "{seen}");
        assert!(seen.contains("\"kind\":\"hidden\""), "{seen}");
        // The sheet: nothing of the turn's library (its count and exile tell the boost).
        let sheet = sheet_of(&t, "敵", who);
        assert!(sheet.contains("GMの秘密の判定"), "{sheet}");
        assert!(
            !sheet.contains("枚数") && !sheet.contains("Runeclaw"),
            "{sheet}"
        );
    }
    let gm_sheet = sheet_of(&t, "敵", "gm");
    assert!(gm_sheet.contains("Runeclaw"), "{gm_sheet}");
    // The end of that turn returns the six (it tells of the boost): the GM's line too.
    let from = t.events().len();
    let out = run(&mut t, "gm", "/turn end");
    assert!(
        out.iter()
            .any(|l| l.contains("敵のターン終了: ブーストで追放した6枚")),
        "{out:?}"
    );
    let seen = seen_by(&t, "bob", from);
    assert!(!seen.contains("敵"), "{seen}");
    assert!(seen.contains("ミナのターン終了"), "{seen}");
    // A new turn: the library shows again, the six back in it.
    let sheet = sheet_of(&t, "敵", "bob");
    assert!(sheet.contains("枚数") && sheet.contains("12"), "{sheet}");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// Issue 13, aw13d. MT-2 step 5: seed 「1ターンに1回だけ行動判定ブーストを試みることができ
/// ます」; the digest reads it 「once per turn per player」, a setting (`/deck set boost
/// player|pc`) whose default is the digest's: a player's PCs share the boost, the GM may
/// make it per PC.
#[test]
fn aw13d_the_boost_is_once_per_turn_per_player_by_default_and_per_pc_as_a_setting() {
    let mut t = table();
    run(&mut t, "alice", "/char new ミナ2");
    // Both libraries fail at green 0 without a boost (target 7, achievement 5), and a
    // boost makes it (+3).
    let order = "Scaled Wurm; Forest; 3 Runeclaw Bear; 3 Forest; 4 Mountain; 2 Forest; 2 Mountain";
    run(&mut t, "gm", &format!("/deck order ミナ {order}"));
    run(&mut t, "gm", &format!("/deck order ミナ2 {order}"));
    let out = run(&mut t, "alice", "/deck settings");
    assert!(out[0].contains("boost = player"), "{out:?}");
    run(&mut t, "alice", "/deck check ミナ 緑 0 扉");
    let out = run(&mut t, "alice", "/deck boost ミナ");
    assert!(out[0].contains("ブースト: "), "{out:?}");
    // ミナ2 is alice's too: no boost this turn, so its failure is not held open.
    let out = run(&mut t, "alice", "/deck check ミナ2 緑 0 扉");
    assert!(out[0].ends_with("失敗"), "{out:?}");
    assert!(
        out[1].contains(
            "aliceはこのターンミナでブーストしました。ブーストはプレイヤーごとに1ターン1回です"
        ),
        "{out:?}"
    );
    assert_eq!(library(&t, "ミナ2")["boosted"], false);
    // Only the GM changes it.
    let err = refused(&mut t, "alice", "/deck set boost pc");
    assert!(err.contains("only the GM changes a setting"), "{err}");
    let err = refused(&mut t, "gm", "/deck set boost everyone");
    assert!(err.contains("usage: /deck set boost player"), "{err}");
    let out = run(&mut t, "gm", "/deck set boost pc");
    assert!(
        out[0].contains("boost = pc（PCごとに1ターン1回）"),
        "{out:?}"
    );
    let err = refused(&mut t, "gm", "/deck set boost pc");
    assert!(err.contains("that is the setting already"), "{err}");
    // Per PC: ミナ2 boosts in the next turn as well as ミナ.
    run(&mut t, "gm", "/turn end");
    run(
        &mut t,
        "gm",
        "/deck order ミナ2 Scaled Wurm; Forest; 3 Runeclaw Bear; 3 Forest; 4 Mountain",
    );
    run(
        &mut t,
        "gm",
        "/deck order ミナ Scaled Wurm; Forest; 3 Runeclaw Bear; 3 Forest; 4 Mountain",
    );
    run(&mut t, "alice", "/deck check ミナ 緑 0 扉");
    run(&mut t, "alice", "/deck boost ミナ");
    run(&mut t, "alice", "/deck check ミナ2 緑 0 扉");
    let out = run(&mut t, "alice", "/deck boost ミナ2");
    assert!(out[0].contains("ブースト: "), "{out:?}");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// The cards in a library and its exile: a check, a boost and their voids never change
/// how many there are.
fn total(t: &Table, pc: &str) -> usize {
    let l = library(t, pc);
    l["cards"].as_array().map_or(0, Vec::len) + l["exiled"].as_array().map_or(0, Vec::len)
}

/// Issue 13, aw13d (play-through 4). Seed 「行動判定ブーストによって追放されたカードは、
/// シーンあるいはターン終了時まで、いかなる方法でも追放領域を離れません」「追放した6枚のカード
/// は、ターン終了時に…ライブラリーの一番下に戻します」: the six come back once. A `/void` of a
/// library line a later line moved on from (a shuffle, the boost's return, the boost
/// decision) is refused, naming the later line; voided from the latest back, every card
/// stays. A voided draw's cards are back on top, known to the player (MT-2 step 1).
#[test]
fn aw13d_a_void_under_a_later_library_line_is_refused_and_no_card_is_lost_or_doubled() {
    let mut t = table();
    run(
        &mut t,
        "gm",
        "/deck order ミナ Scaled Wurm; Forest; 3 Runeclaw Bear; 3 Forest; 4 Mountain",
    );
    let check = t.events().len() as u64 + 1;
    run(&mut t, "alice", "/deck check ミナ 緑 0 a");
    run(&mut t, "alice", "/deck boost ミナ");
    assert_eq!(
        library(&t, "ミナ")["exiled"].as_array().map(Vec::len),
        Some(6)
    );
    // Voiding the check's first line would leave its boost standing: refused.
    let err = refused(&mut t, "gm", &format!("/void {check}"));
    assert!(
        err.contains(&format!(
            "#{check} cannot be voided: the later #{} rests on it (ミナ's library moved on in that line); /void {} first",
            check + 1,
            check + 1
        )),
        "{err}"
    );
    run(&mut t, "gm", "/deck shuffle ミナ");
    let shuffle = check + 2;
    let err = refused(&mut t, "gm", &format!("/void {}", check + 1));
    assert!(
        err.contains(&format!("the later #{shuffle} rests on it")),
        "{err}"
    );
    assert_eq!(total(&t, "ミナ"), 12);
    // From the latest back: every card where it was.
    run(&mut t, "gm", &format!("/void {shuffle}"));
    run(&mut t, "gm", &format!("/void {}", check + 1));
    run(&mut t, "gm", &format!("/void {check}"));
    assert_eq!(total(&t, "ミナ"), 12);
    assert_eq!(
        library(&t, "ミナ")["exiled"].as_array().map(Vec::len),
        Some(0)
    );
    // The boost's return at the turn's end, then a later check: voiding the turn's end
    // would put the six back in exile while they are in the library.
    // (The voided cards are known on top now, so the outcome is certain: the GM forces.)
    run(&mut t, "gm", "/deck check ミナ 緑 0 b boost force");
    let end = t.events().len() as u64 + 1;
    run(&mut t, "gm", "/turn end");
    run(&mut t, "gm", "/deck check ミナ 緑 1 c force");
    let err = refused(&mut t, "gm", &format!("/void {end}"));
    assert!(err.contains("cannot be voided"), "{err}");
    assert_eq!(total(&t, "ミナ"), 12);
    // A voided draw: the cards are back on top, and the player knows them (after a
    // shuffle, nothing else is known).
    run(&mut t, "gm", "/deck shuffle ミナ");
    assert_eq!(library(&t, "ミナ")["known"], 0);
    let top: Vec<serde_json::Value> =
        library(&t, "ミナ")["cards"].as_array().expect("cards")[..2].to_vec();
    let draw = t.events().len() as u64 + 1;
    run(&mut t, "gm", "/deck draw ミナ 2");
    run(&mut t, "gm", &format!("/void {draw}"));
    let l = library(&t, "ミナ");
    assert_eq!(l["known"], 2, "{l}");
    assert_eq!(l["cards"].as_array().expect("cards")[..2], top[..]);
    assert_eq!(total(&t, "ミナ"), 12);
    let show = run(&mut t, "alice", "/deck show ミナ");
    assert!(show[0].contains("既知の上2枚"), "{show:?}");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// Issue 13, aw13d (play-through 4). MT-3 「まったく同じ行動判定を2回以上行うことはできま
/// せん」: a full-width space does not make the purpose another. MT-2 「難易度は、0~8の数。
/// (シナリオ上必要なら、-1以下、9以上でも可。)」: any difficulty a scenario may need, within
/// the bound `taku mtg` keeps, never a saturated target. The help's boost needs 6 cards
/// below the two revealed.
#[test]
fn aw13d_a_spaced_purpose_is_the_same_check_and_absurd_difficulties_are_refused() {
    let mut t = table();
    run(&mut t, "alice", DECK);
    run(
        &mut t,
        "alice",
        "/deck check ミナ 緑 2 boost 扉をこじ開ける",
    );
    let err = refused(
        &mut t,
        "alice",
        "/deck check ミナ 緑 2 boost 扉を　こじ開ける",
    );
    assert!(err.contains("the same check twice in one turn"), "{err}");
    let err = refused(
        &mut t,
        "alice",
        "/deck check ミナ 緑 2 boost 扉を こじ開ける",
    );
    assert!(err.contains("the same check twice in one turn"), "{err}");
    for big in ["9223372036854775807", "-9223372036854775808", "1000001"] {
        let err = refused(&mut t, "gm", &format!("/deck check ミナ 緑 {big} force 大"));
        assert!(
            err.contains("is not a difficulty (a whole number, usually 0 to 8, as a scenario needs -1000000 to 1000000"),
            "{err}"
        );
    }
    let out = run(&mut t, "gm", "/deck check ミナ 緑 -1 force 小");
    assert!(out[0].contains("難易度-1"), "{out:?}");
    let help = run(&mut t, "alice", "/help").concat();
    assert!(
        help.contains("公開した2枚の下にライブラリーが6枚以上"),
        "{help}"
    );
    assert!(help.contains("秘密の判定"), "{help}");
}

/// Issue 13, aw13e (aw13d's "Left", play-through 4). The GM's secret check of a GM
/// character is `/deck check 敵 … secret` (MT-2). `S/deck check …` — the secret-roll mark
/// in front of a command — was posted as chat for every member to read: it is refused,
/// naming the command's secret form, and nothing is logged; chat that merely starts with
/// `S/` is still chat.
#[test]
fn aw13e_s_before_a_command_is_refused_with_its_secret_form_not_posted_as_chat() {
    let mut t = table();
    run(&mut t, "gm", "/char new 敵");
    run(
        &mut t,
        "gm",
        "/deck order 敵 Scaled Wurm; Forest; 3 Runeclaw Bear; 3 Forest",
    );
    for line in [
        "S/deck check 敵 緑 1 隠れる",
        "s／deck check 敵 緑 1 隠れる",
    ] {
        let err = refused(&mut t, "gm", line);
        assert!(
            err.contains("S marks a secret dice roll and does not go before a / command")
                && err.contains("/deck check 影 黒 3 secret 見張りに気付く"),
            "{err}"
        );
    }
    let err = refused(&mut t, "alice", "S/who");
    assert!(err.contains("type the command from its / (/help)"), "{err}");
    assert!(!t.events().iter().any(|e| {
        t.entry(e, "alice", taku_dice::Lang::Ja)
            .text
            .contains("隠れる")
    }));
    // Chat that is no command stays chat.
    let out = run(&mut t, "alice", "S/N比が悪い");
    assert!(out[0].contains("S/N比が悪い"), "{out:?}");
}

/// Issue 13, aw13e (play-through 5), MT-2 step 5 and MT-3:
/// - a check asked for with `boost` when the turn's boost is spent (「1ターンに1回のみ」) is
///   refused before any card shows, not made without it;
/// - a boost made under `/deck set boost pc` keeps that setting from being undone;
/// - no scene or session ends while a check waits for its boost decision (「行動判定が
///   始まってから…終わるまでは、いかなるプレイヤーも、優先権を得ません」);
/// - `/undo` of a `/scene next` that returned boost cards in random order is refused as
///   any line that drew is (the order is never redrawn);
/// - the tracker's labels are the rules' (`/char set ミナ 枚数 5` refused), and `/deck
///   known` reads full-width digits.
#[test]
fn aw13e_boost_limits_scene_ends_and_the_tracker_hold_as_the_seed_says() {
    let mut t = table();
    let order = "Scaled Wurm; Forest; 3 Runeclaw Bear; 3 Forest; 4 Mountain; 6 Island";
    run(&mut t, "alice", "/char new ミナ2");
    run(&mut t, "gm", &format!("/deck order ミナ {order}"));
    run(&mut t, "gm", &format!("/deck order ミナ2 {order}"));
    let err = refused(&mut t, "alice", "/char set ミナ 枚数 5");
    assert!(
        err.contains("'枚数' is kept by the rules") && err.contains("/deck load NAME DECKLIST"),
        "{err}"
    );
    refused(
        &mut t,
        "alice",
        "/char set ミナ このターンのブースト 未使用",
    );
    // Top: Scaled Wurm (target 7 at difficulty 0), Forest (5): the check waits.
    let out = run(&mut t, "alice", "/deck check ミナ 緑 0 扉");
    assert!(out.join("").contains("ブースト"), "{out:?}");
    for line in ["/scene next", "/session end"] {
        let err = refused(&mut t, "gm", line);
        assert!(
            err.contains("ミナ has an open check")
                && err.contains("no scene or session ends in the middle of a check"),
            "{line}: {err}"
        );
    }
    run(&mut t, "alice", "/deck boost ミナ");
    // Under `boost = player`, alice's ミナ2 has no boost left: refused whole, nothing shown.
    let err = refused(&mut t, "alice", "/deck check ミナ2 緑 0 扉 boost");
    assert!(
        err.contains("alice already boosted with ミナ this turn")
            && err.contains("the check was not made; it can be made without 'boost'"),
        "{err}"
    );
    run(&mut t, "gm", "/deck set boost pc");
    let set = t.events().last().expect("set").seq;
    let out = run(&mut t, "alice", "/deck check ミナ2 緑 0 扉 boost");
    assert!(out[0].contains("ブースト"), "{out:?}");
    let err = refused(&mut t, "gm", &format!("/undo #{set}"));
    assert!(
        err.contains("ミナ2's boost was made under this setting"),
        "{err}"
    );
    // The scene's end returns both boosts' cards in random order: not undone.
    run(&mut t, "gm", "/scene next");
    let err = refused(&mut t, "gm", "/undo");
    assert!(
        err.contains("drew randomness, so it cannot be undone"),
        "{err}"
    );
    run(&mut t, "gm", "/deck known ミナ ２");
    assert_eq!(library(&t, "ミナ")["known"], 2);
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// Issue 13, aw13e (play-through 5). A GM character's library is the GM's (MT-2, the
/// GM's secret check): a card the GM puts on its top or bottom is named to the GM alone —
/// a player who read it would know the next secret check's card. A player's PC's stays
/// public, as the player knows it.
#[test]
fn aw13e_cards_put_in_a_gm_characters_library_are_the_gms_to_know() {
    let mut t = table();
    run(&mut t, "gm", "/char new 敵");
    run(&mut t, "gm", "/deck order 敵 Forest; Island; Swamp");
    let out = run(&mut t, "gm", "/deck top 敵 Scaled Wurm");
    assert!(out[0].contains("GMは知っている"), "{out:?}");
    run(&mut t, "gm", "/deck bottom 敵 Swamp");
    for who in ["alice", "sam"] {
        let log: Vec<String> = t
            .events()
            .iter()
            .map(|e| t.entry(e, who, taku_dice::Lang::Ja).text)
            .collect();
        assert!(
            !log.iter().any(|l| l.contains("甲鱗") || l.contains("沼")),
            "{who}: {log:?}"
        );
    }
    run(&mut t, "alice", DECK);
    run(&mut t, "gm", "/deck top ミナ Forest");
    let last = t.events().last().expect("put");
    assert!(
        t.entry(last, "bob", taku_dice::Lang::Ja)
            .text
            .contains("プレイヤーは知っている"),
    );
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// Attack pass 5, A5-9 (issue 13). A GM's secret check (MT-2) left one `（非公開）` entry
/// when it succeeded outright and two when the GM had to answer the boost decision, so the
/// players learned that the NPC's check fell short. Seed MT-2 step 3 「達成値が決定された
/// タイミングで、1ターン1回だけ行動判定ブーストを試みることができます」 and step 5-1
/// 「宣言のタイミングは、目標値と達成値が決定した後」: the boost decision comes after the
/// cards, whatever they say, so a secret check always waits for the GM's `/deck done` or
/// `/deck boost` (and one with `boost` declared in advance is one entry, whatever the
/// outcome). What a player or a spectator sees is the same for every outcome, and so is
/// the end of the scene (「シーンあるいはターン終了時まで」: a hidden line for every library
/// with a secret check, boosted or not).
#[test]
fn a5_9_a_secret_checks_entries_look_the_same_whatever_the_outcome() {
    let mut t = table();
    // The same twelve cards in every library, so MT-3 finds each check open either way.
    let orders = [
        // Forest (MV 0) → target 0; Runeclaw Bear 2 + 5 = 7: an outright success.
        (
            "敵A",
            "Forest; Runeclaw Bear; Scaled Wurm; 2 Runeclaw Bear; 3 Forest; 4 Mountain",
        ),
        // Scaled Wurm → target 7; Forest 0 + 5 = 5: short by 2, a boost (+3) makes it.
        (
            "敵B",
            "Scaled Wurm; Forest; 3 Runeclaw Bear; 3 Forest; 4 Mountain",
        ),
        (
            "敵C",
            "Scaled Wurm; Forest; 3 Runeclaw Bear; 3 Forest; 4 Mountain",
        ),
        // Seven cards: five below the two revealed, so no boost (MT-2 step 5).
        (
            "敵D",
            "Scaled Wurm; Forest; Runeclaw Bear; 2 Forest; 2 Mountain",
        ),
    ];
    for (npc, order) in orders {
        run(&mut t, "gm", &format!("/char new {npc}"));
        run(&mut t, "gm", &format!("/deck order {npc} {order}"));
    }
    // Each check with what the GM answers; the GM's own view says what happened.
    let plays = [
        ("敵A", "/deck done 敵A", "このままで成功", "成功"),
        (
            "敵B",
            "/deck done 敵B",
            "このままでは失敗。ブーストできます",
            "失敗",
        ),
        (
            "敵C",
            "/deck boost 敵C",
            "このままでは失敗。ブーストできます",
            "成功",
        ),
        ("敵D", "/deck done 敵D", "ブーストはできません", "失敗"),
    ];
    let mut shapes: Vec<(String, Vec<String>)> = Vec::new();
    for (npc, answer, opened, result) in plays {
        let from = t.events().len();
        let out = run(
            &mut t,
            "gm",
            &format!("/deck check {npc} 緑 0 secret 見張り"),
        );
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].contains(opened), "{npc}: {out:?}");
        // The panel shows the GM the open check (A5-9: also the outright success).
        let out = run(&mut t, "gm", answer);
        assert!(out[0].ends_with(result), "{npc}: {out:?}");
        for who in ["bob", "sam"] {
            let seen: Vec<String> = t.events()[from..]
                .iter()
                .map(|e| {
                    let mut j =
                        serde_json::to_value(t.entry(e, who, taku_dice::Lang::Ja)).expect("json");
                    // The entry's number is its place in the log, not its shape.
                    if let Some(o) = j.as_object_mut() {
                        o.remove("seq");
                        let text = o["text"].as_str().unwrap_or_default();
                        let shape = text.split_once(' ').map_or(text, |(_, r)| r).to_string();
                        o.insert("text".into(), shape.into());
                    }
                    j.to_string()
                })
                .collect();
            assert_eq!(seen.len(), 2, "{who} {npc}: {seen:?}");
            assert!(
                seen.iter().all(|s| s.contains("（非公開）")),
                "{who} {npc}: {seen:?}"
            );
            shapes.push((format!("{who} {npc}"), seen));
        }
    }
    // Every outcome looks alike to a player, and to a spectator.
    for who in ["bob", "sam"] {
        let mine: Vec<&(String, Vec<String>)> =
            shapes.iter().filter(|(k, _)| k.starts_with(who)).collect();
        for (k, s) in &mine {
            assert_eq!(s, &mine[0].1, "{k} differs from {}", mine[0].0);
        }
    }
    // A player's check still opens only when it would fail and a boost is there.
    run(
        &mut t,
        "gm",
        "/deck order ミナ Forest; Runeclaw Bear; Scaled Wurm; 2 Runeclaw Bear; 3 Forest; 4 Mountain",
    );
    let out = run(&mut t, "alice", "/deck check ミナ 緑 0 扉");
    assert!(out[0].ends_with("成功"), "{out:?}");
    // A boost declared in advance: one entry, whatever the cards say.
    for (npc, order) in [
        (
            "敵E",
            "Forest; Runeclaw Bear; Scaled Wurm; 2 Runeclaw Bear; 3 Forest; 4 Mountain",
        ),
        (
            "敵F",
            "Scaled Wurm; Forest; 3 Runeclaw Bear; 3 Forest; 4 Mountain",
        ),
    ] {
        run(&mut t, "gm", &format!("/char new {npc}"));
        run(&mut t, "gm", &format!("/deck order {npc} {order}"));
        let from = t.events().len();
        let out = run(
            &mut t,
            "gm",
            &format!("/deck check {npc} 緑 0 secret boost 見張り"),
        );
        assert!(out[0].ends_with("成功"), "{out:?}");
        assert_eq!(t.events().len() - from, 1, "{npc}");
        assert_eq!(
            t.entry(&t.events()[from], "bob", taku_dice::Lang::Ja).text,
            t.entry(&t.events()[from], "sam", taku_dice::Lang::Ja).text
        );
    }
    // The end of the scene: a hidden line for each library with a secret check, boosted
    // (敵C, 敵F) or not (敵A, 敵B, 敵D, 敵E) — six, all alike.
    let from = t.events().len();
    let out = run(&mut t, "gm", "/scene next");
    assert!(
        out.iter()
            .any(|l| l.contains("シーン終了: 敵Aのブーストで追放したカードはありません")),
        "{out:?}"
    );
    for who in ["bob", "sam"] {
        let hidden: Vec<String> = t.events()[from..]
            .iter()
            .map(|e| t.entry(e, who, taku_dice::Lang::Ja).text)
            .filter(|s| s.contains("（非公開）"))
            .collect();
        assert_eq!(hidden.len(), 6, "{who}: {hidden:?}");
    }
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// tbl13f (aw13e "Left"). A voided `/char new` must not leave its library to a new
/// character of the same name (MT-1: a library is a PC's, made from its deck list): the
/// creation is not undone or voided while a later line names the character (its library
/// loaded and shuffled); once the library's lines are voided, it is, and a new ミナ has no
/// library.
#[test]
fn a_character_with_a_library_is_not_voided_from_under_it() {
    let mut t = table();
    run(&mut t, "alice", "/char new ハル");
    let made = t.events().last().expect("made").seq;
    run(
        &mut t,
        "alice",
        "/deck load ハル 8 Forest; 4 Mountain; 4 Runeclaw Bear",
    );
    let load = t.events().last().expect("load").seq;
    let why = refused(&mut t, "alice", &format!("/undo #{made}"));
    assert!(
        why.contains(&format!("the later #{load} rests on it (it is about ハル)")),
        "{why}"
    );
    let why = refused(&mut t, "gm", &format!("/void {made}"));
    assert!(why.contains(&format!("/void {load} first")), "{why}");
    run(&mut t, "gm", &format!("/void {load}"));
    run(&mut t, "gm", &format!("/void {made}"));
    run(&mut t, "bob", "/char new ハル");
    let why = refused(&mut t, "bob", "/deck show ハル");
    assert!(why.contains("no library"), "{why}");
    assert!(library(&t, "ハル").is_null());
}

/// tbl13f (lotr16e's `{剣士.Sorcery}`, table core). A `{NAME.KEY}` reference to a field the
/// character lacks suggested `/char set NAME KEY 値` even where the rules keep that value
/// and refuse a hand-made one (`TableRules::owned_fields`; MT-3's library tracker: 枚数 is
/// the library's count). The refusal now says what changes it; any other key still gets
/// the `/char set` hint.
#[test]
fn a_reference_to_a_rules_kept_field_says_what_keeps_it() {
    let mut t = table();
    run(&mut t, "alice", DECK);
    let why = refused(&mut t, "alice", "1D6+{ミナ.枚数}");
    assert!(
        why.contains("'枚数' is kept by the rules and cannot be made by hand")
            && why.contains("/deck load NAME DECKLIST")
            && !why.contains("/char set"),
        "{why}"
    );
    let ja = t
        .exec("alice", "1D6+{ミナ.枚数}")
        .expect_err("refused")
        .render(taku_dice::Lang::Ja);
    assert!(ja.contains("ルールが管理するので手では作れません"), "{ja}");
    // /char set refuses it too, so the two agree.
    assert!(refused(&mut t, "alice", "/char set ミナ 枚数 5").contains("/deck load"));
    let why = refused(&mut t, "alice", "1D6+{ミナ.幸運}");
    assert!(
        why.contains("set it with /char set ミナ 幸運 VALUE"),
        "{why}"
    );
}

/// mtg6: a GM's secret check that the GM voids (with its boost) stays secret: the cards the
/// void leaves known (MT-2 step 1 「PLに知られているカード」, the GM's here) would tell players
/// what the check revealed and whether it boosted, so the library stays hidden from them
/// until the turn ends, as after a secret check that stands. The GM sees it all.
#[test]
fn a_voided_secret_check_keeps_the_library_hidden_until_the_turn_ends() {
    let mut t = table();
    run(&mut t, "gm", "/char new 敵");
    run(
        &mut t,
        "gm",
        "/deck order 敵 Scaled Wurm; Forest; 3 Runeclaw Bear; 3 Forest; 4 Mountain; 6 Island",
    );
    let before = sheet_of(&t, "敵", "bob");
    assert!(!before.contains("ターン終了まで非公開"), "{before}");
    let check = t.events().len();
    run(&mut t, "gm", "/deck check 敵 緑 0 secret 見張り");
    run(&mut t, "gm", "/deck boost 敵");
    let seqs: Vec<u64> = t.events()[check..].iter().map(|e| e.seq).collect();
    for seq in seqs.iter().rev() {
        run(&mut t, "gm", &format!("/void {seq}"));
    }
    for who in ["bob", "sam"] {
        let seen = sheet_of(&t, "敵", who);
        assert!(seen.contains("ターン終了まで非公開"), "{who}: {seen}");
        assert!(!seen.contains("既知"), "{who}: {seen}");
    }
    // The GM knows the eight cards seen.
    assert!(
        library(&t, "敵")["known"].as_u64().unwrap_or(0) >= 8,
        "{:?}",
        library(&t, "敵")
    );
    run(&mut t, "gm", "/turn end");
    let after = sheet_of(&t, "敵", "bob");
    assert!(!after.contains("ターン終了まで非公開"), "{after}");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// MT-3 「行動判定が始まってから、行動判定の結果起こったことが終わるまでは、いかなるプレイヤーも、
/// 優先権を得ません」 (mtg6): while ミナ's check waits for its boost decision, no other check
/// starts — not ロイ's, not the GM's — and the refusal changes nothing; once ミナ's check is
/// done, they go ahead. A GM's open secret check is not named to players.
#[test]
fn mt3_no_other_check_starts_while_one_waits_for_its_boost() {
    let mut t = table();
    run(&mut t, "gm", "/char new 敵");
    for pc in ["ミナ", "ロイ", "敵"] {
        run(
            &mut t,
            "gm",
            &format!(
                "/deck order {pc} Scaled Wurm; Forest; 3 Runeclaw Bear; 3 Forest; 4 Mountain; 6 Island"
            ),
        );
    }
    // Scaled Wurm → target 7; Forest 0 + 5 = 5: short, a boost is possible, so it waits.
    let out = run(&mut t, "alice", "/deck check ミナ 緑 0 見張り");
    assert!(out[0].contains("ブーストできます"), "{out:?}");
    let len = t.events().len();
    let why = refused(&mut t, "bob", "/deck check ロイ 緑 0 割り込み");
    assert!(why.contains("MT-3") && why.contains("ミナ"), "{why}");
    let why = refused(&mut t, "gm", "/deck check 敵 緑 0 secret 割り込み");
    assert!(why.contains("MT-3"), "{why}");
    assert_eq!(t.events().len(), len, "a refusal changes nothing");
    run(&mut t, "alice", "/deck done ミナ");
    run(&mut t, "bob", "/deck check ロイ 緑 0 割り込み");
    run(&mut t, "bob", "/deck done ロイ");
    // The GM's secret check waits for the GM: a player is told so, without its name.
    run(&mut t, "gm", "/deck check 敵 緑 0 secret 見張り");
    let why = refused(&mut t, "alice", "/deck check ミナ 緑 1 二度目");
    assert!(why.contains("secret") && !why.contains("敵"), "{why}");
    run(&mut t, "gm", "/deck done 敵");
    // Once it is done, the next check starts (the GM forces it: the known cards make it
    // certain, MT-3's other refusal).
    run(&mut t, "gm", "/deck check ミナ 緑 1 force 二度目");
}

/// Attack pass 8, A8-3: `/deck top` and `/deck bottom` keep to the library's cap of 1000
/// cards as `/deck load` and `/deck return` do (a library grew to 2620 cards).
#[test]
fn cards_put_on_top_or_bottom_keep_to_the_library_cap() {
    let mut t = table();
    run(&mut t, "alice", "/deck load ミナ 20 Forest");
    let many = ["245 Forest"; 2].join("; ");
    run(&mut t, "gm", &format!("/deck top ミナ {many}"));
    run(&mut t, "gm", &format!("/deck bottom ミナ {many}"));
    assert_eq!(
        library(&t, "ミナ")["cards"].as_array().map(Vec::len),
        Some(1000)
    );
    for op in ["top", "bottom"] {
        let err = refused(&mut t, "gm", &format!("/deck {op} ミナ 1 Forest"));
        assert!(err.contains("1000") && err.contains("1001"), "{op}: {err}");
    }
    assert_eq!(
        library(&t, "ミナ")["cards"].as_array().map(Vec::len),
        Some(1000)
    );
}
