//! Tables through the one helper conventions ask for: run lines as members, read what a
//! member sees.

use taku_table::{EventBody, Table, secret};

const SEED: [u8; 32] = [7; 32];

/// A DiceBot table with GM `gm`, players `alice` and `bob`, spectator `sam`.
fn table() -> Table {
    let mut t = Table::create("DiceBot", "test", "gm", SEED)
        .expect("table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    for line in [
        "/join alice",
        "/join bob as player",
        "/join sam as spectator",
    ] {
        t.exec("gm", line).expect("join");
    }
    t
}

/// Runs `line` as `actor`; panics with the refusal if refused.
fn run(t: &mut Table, actor: &str, line: &str) -> Option<String> {
    match t.exec(actor, line) {
        Ok((reply, _)) => reply.map(|r| r.en().to_string()),
        Err(e) => panic!("{actor}: {line}: refused: {e}"),
    }
}

/// Runs `line` as `actor`, expecting a refusal; checks nothing changed.
fn refused(t: &mut Table, actor: &str, line: &str) -> String {
    let before = t.events().len();
    let err = t
        .exec(actor, line)
        .expect_err("refused")
        .render(taku_dice::Lang::En);
    assert_eq!(t.events().len(), before, "a refused line appended events");
    err
}

/// Everything `viewer` sees of the log, one line per event.
fn seen(t: &Table, viewer: &str) -> Vec<String> {
    t.events()
        .iter()
        .map(|e| t.entry(e, viewer, taku_dice::Lang::En).text)
        .collect()
}

#[test]
fn lines_become_chat_or_rolls() {
    let mut t = table();
    run(&mut t, "alice", "hello everyone");
    run(&mut t, "alice", "2D6>=7 attack");
    run(&mut t, "bob", "２Ｄ６　全角");
    let bob = seen(&t, "bob");
    assert_eq!(bob[4], "#5 alice: hello everyone");
    // The comment after the command stays in the log, before the result.
    assert!(
        bob[5].starts_with("#6 alice: attack (2D6>=7) ＞ "),
        "{}",
        bob[5]
    );
    assert!(bob[6].starts_with("#7 bob: 全角 (2D6) ＞ "), "{}", bob[6]);
}

#[test]
fn roles_limit_what_members_may_do() {
    let mut t = table();
    assert!(refused(&mut t, "mallory", "2D6").contains("not a member"));
    assert!(refused(&mut t, "alice", "/join eve").contains("only the GM"));
    assert!(refused(&mut t, "sam", "2D6").contains("spectators cannot roll"));
    run(&mut t, "sam", "nice roll!");
    assert!(refused(&mut t, "alice", "/scene next").contains("only the GM"));
    assert!(refused(&mut t, "gm", "/join alice").contains("already a member"));
    assert!(refused(&mut t, "gm", "/join two words as player").contains("usage"));
    assert!(refused(&mut t, "gm", "/join eve as king").contains("unknown role"));
    assert!(refused(&mut t, "gm", "/frobnicate").contains("/help"));
}

#[test]
fn players_change_only_their_own_characters() {
    let mut t = table();
    run(&mut t, "alice", "/char new Aria");
    run(&mut t, "alice", "/char set Aria 理知 3");
    assert!(refused(&mut t, "bob", "/char set Aria 理知 9").contains("belongs to alice"));
    run(&mut t, "gm", "/char set Aria HP 20");
    let shown = run(&mut t, "bob", "/char show Aria").expect("reply");
    assert_eq!(shown, "【Aria (alice)】\n  HP: 20\n  理知: 3");
    assert!(refused(&mut t, "alice", "/char new Aria").contains("already exists"));
    assert!(refused(&mut t, "sam", "/char new Spy").contains("spectators"));
}

#[test]
fn a_secret_roll_reaches_only_its_roller_and_the_gm_until_revealed() {
    let mut t = table();
    run(&mut t, "alice", "S2D6>=7");
    let seq = t.events().len() as u64;
    let EventBody::Roll(roll) = &t.events()[seq as usize - 1].body else {
        panic!("a roll");
    };
    let roll = roll.clone();
    let hidden = format!(
        "#{seq} secret roll by alice (commitment {})",
        roll.commitment.clone().expect("commitment")
    );
    for viewer in ["bob", "sam"] {
        let lines = seen(&t, viewer);
        assert_eq!(lines.last(), Some(&hidden));
        assert!(
            lines.iter().all(|l| !l.contains(&roll.text)),
            "{viewer} saw the result"
        );
    }
    for viewer in ["alice", "gm"] {
        assert_eq!(
            seen(&t, viewer).last(),
            Some(&format!("#{seq} alice (secret): {}", roll.text))
        );
    }
    assert!(
        refused(&mut t, "bob", &format!("/reveal {seq}")).contains("only its roller or the GM")
    );

    run(&mut t, "alice", &format!("/reveal {seq}"));
    let salt = secret::salt(&SEED, seq);
    let revealed = seen(&t, "bob");
    assert_eq!(
        revealed[seq as usize - 1],
        format!("#{seq} alice (secret): {}", roll.text)
    );
    assert!(
        revealed
            .last()
            .expect("reveal")
            .contains(&secret::hex(&salt))
    );
    // Anyone can check the reveal against the commitment published with the roll.
    assert_eq!(Some(secret::commitment(&salt, &roll)), roll.commitment);
    assert!(refused(&mut t, "alice", &format!("/reveal {seq}")).contains("already revealed"));
}

#[test]
fn the_seed_never_reaches_any_member() {
    let mut t = table();
    run(&mut t, "alice", "S2D6");
    run(&mut t, "alice", "/reveal 5");
    let seed = secret::hex(&SEED);
    for viewer in ["gm", "alice", "bob", "sam"] {
        assert!(seen(&t, viewer).iter().all(|l| !l.contains(&seed)));
    }
    assert!(!format!("{t:?}").contains(&seed));
}

#[test]
fn undo_reverts_the_last_change_with_a_compensating_event() {
    let mut t = table();
    run(&mut t, "alice", "/char new Aria");
    run(&mut t, "alice", "/char set Aria HP 20");
    run(&mut t, "alice", "/char set Aria HP 15");
    run(&mut t, "alice", "2D6");
    // Her last line drew dice: /undo says so instead of reaching back past it.
    assert!(refused(&mut t, "alice", "/undo").contains("#8 drew randomness"));
    assert_eq!(t.characters()["Aria"].fields["HP"], "15");
    run(&mut t, "alice", "/undo #7");
    assert_eq!(t.characters()["Aria"].fields["HP"], "20");
    run(&mut t, "alice", "/undo #6");
    assert!(!t.characters()["Aria"].fields.contains_key("HP"));
    assert!(refused(&mut t, "bob", "/undo alice").contains("only the GM"));
    assert!(refused(&mut t, "bob", "/undo").contains("no line to undo"));
    run(&mut t, "gm", "/undo alice");
    assert!(!t.characters().contains_key("Aria"));
    assert!(refused(&mut t, "alice", "/undo").contains("drew randomness"));
    let log_len = t.events().len();
    assert!(matches!(
        t.events()[log_len - 1].body,
        EventBody::Undone { event: 5 }
    ));
}

#[test]
fn scenes_and_sessions_count_and_undo() {
    let mut t = table();
    run(&mut t, "gm", "/scene next");
    run(&mut t, "gm", "/scene next");
    assert_eq!(t.scene_and_session(), (3, 1));
    run(&mut t, "gm", "/session end");
    assert_eq!(t.scene_and_session(), (1, 2));
    run(&mut t, "gm", "/undo");
    assert_eq!(t.scene_and_session(), (3, 1));
}

#[test]
fn a_reloaded_log_is_the_same_table_and_every_roll_replays() {
    let mut t = table();
    for (who, line) in [
        ("alice", "2D6+1>=8"),
        ("bob", "S3D6"),
        ("alice", "x3 1D6"),
        ("bob", "choice[a,b,c]"),
    ] {
        run(&mut t, who, line);
    }
    run(&mut t, "alice", "/char new Aria");
    assert!(t.verify().is_empty());

    let json = serde_json::to_string(t.events()).expect("events serialise");
    let back: Vec<taku_table::Event> = serde_json::from_str(&json).expect("events deserialise");
    let reloaded = Table::from_events(back).expect("reload");
    for viewer in ["gm", "alice", "bob", "sam"] {
        assert_eq!(seen(&reloaded, viewer), seen(&t, viewer));
    }
    assert_eq!(reloaded.characters(), t.characters());

    let mut tampered = t.events().to_vec();
    if let EventBody::Roll(r) = &mut tampered[4].body {
        r.text = "(2D6+1>=8) ＞ 12[6,6]+1 ＞ 13 ＞ 成功".to_string();
    }
    let mismatches = Table::from_events(tampered).expect("reload").verify();
    assert_eq!(mismatches.len(), 1);
    assert_eq!(mismatches[0].seq, 5);
}

#[test]
fn broken_logs_are_refused_with_a_reason() {
    let t = table();
    let mut gap = t.events().to_vec();
    gap.remove(1);
    assert_eq!(
        Table::from_events(gap).expect_err("gap").to_string(),
        "event #3 where #2 was expected"
    );
    assert!(Table::from_events(t.events()[1..].to_vec()).is_err());
    assert!(Table::create("NoSuchSystem", "x", "gm", SEED).is_err());
}

#[test]
fn help_lists_table_and_system_commands() {
    let mut t = table();
    let help = run(&mut t, "sam", "/help").expect("reply");
    assert!(help.contains("/char set NAME KEY VALUE") && help.contains("2D6+1>=7"));
}

/// Verify folds the log again and names each event the state it met did not allow.
#[test]
fn verify_reports_events_the_state_did_not_allow() {
    let mut t = table();
    run(&mut t, "alice", "/char new Aria");
    run(&mut t, "alice", "/char set Aria HP 5");
    run(&mut t, "bob", "S2D6");
    assert!(t.verify().is_empty());
    let base = t.events().to_vec();
    let at = |n: usize| n - 1;

    let tamper = |edit: &dyn Fn(&mut Vec<taku_table::Event>)| {
        let mut log = base.clone();
        edit(&mut log);
        Table::from_events(log).expect("still folds").verify()
    };
    // bob, not the owner, changed Aria.
    let m = tamper(&|log| log[at(6)].actor = "bob".into());
    assert_eq!((m.len(), m[0].seq), (1, 6));
    assert!(
        m[0].replayed
            .contains("bob changed Aria, which belongs to alice"),
        "{m:?}"
    );
    // A spectator's roll.
    let m = tamper(&|log| log[at(7)].actor = "sam".into());
    assert!(
        m.iter()
            .any(|m| m.seq == 7 && m.replayed.contains("rolled as a spectator"))
    );
    // A player added a member.
    let m = tamper(&|log| log[at(3)].actor = "alice".into());
    assert!(
        m.iter()
            .any(|m| m.seq == 3 && m.replayed.contains("not a GM")),
        "{m:?}"
    );
    // The previous value recorded does not match the state.
    let m = tamper(&|log| {
        if let EventBody::CharacterUpdated { changes, .. } = &mut log[at(6)].body {
            changes[0].previous = Some("9".into());
        }
    });
    assert!(m[0].replayed.contains("Aria.HP was None"), "{m:?}");
    // A secret roll whose commitment was swapped.
    let m = tamper(&|log| {
        if let EventBody::Roll(r) = &mut log[at(7)].body {
            r.commitment = Some("0".repeat(64));
        }
    });
    assert_eq!((m.len(), m[0].seq), (1, 7));
    assert!(m[0].replayed.contains("commitment"), "{m:?}");
}

/// Attack pass 6, A6-9: `SCC 秘密` at a table whose system has no `CC` was posted as
/// public chat, the comment the player meant to keep secret included. The secret mark
/// before a word written like a command this system does not take is refused, changing
/// nothing and saying how to send talk as chat; talk that merely starts with S is chat.
#[test]
fn a_secret_mark_before_no_command_of_the_system_is_not_posted_as_chat() {
    let mut t = table();
    for line in [
        "SCC 秘密",
        "SCBR(50,60) 秘密",
        "SRESB(1) 裏切り",
        "ＳＣＣ 秘密",
        // Attack pass 7, A7-3: the typos of a secret roll.
        "S2DD6 裏切る",
        "S+3 裏切る",
        "S二D6 裏切る",
        // Attack pass 8, A8-11: the repeat prefix of reference systems.
        "Sx 秘密",
    ] {
        let why = refused(&mut t, "alice", line);
        assert!(why.contains("is no command of DiceBot"), "{line}: {why}");
        assert!(why.contains("quote it"), "{line}: {why}");
        let ja = t
            .exec("alice", line)
            .expect_err("refused")
            .render(taku_dice::Lang::Ja);
        assert!(ja.contains("のコマンドではありません"), "{ja}");
    }
    // A8-11: the mark alone, or apart from talk, reads as a player marking talk secret.
    for line in [
        "S 2D6 裏切る",
        "S\u{3000}2D6 裏切る",
        "S 秘密の計画",
        "S",
        "s",
        "S 2人で行く",
    ] {
        let why = refused(&mut t, "alice", line);
        assert!(why.contains("no command follows the S"), "{line}: {why}");
        assert!(why.contains("quote it"), "{line}: {why}");
    }
    // A reference after the mark, in a tab too: refused, whatever the refusal says.
    for line in [
        "S{ミナ.反射} 裏切る",
        "/tab 雑談 SCC 秘密",
        "/tab 雑談 S 2D6 秘密",
        "/tab 雑談 S/w gm 秘密",
    ] {
        t.exec("alice", line).expect_err(line);
    }
    for talk in [
        "Sure, let's go",
        "SAN値が減った",
        "「SOS」",
        "SAN-3",
        "S級の敵",
        "/tab 雑談 Sure",
    ] {
        run(&mut t, "alice", talk);
    }
    // A real secret roll is still one.
    run(&mut t, "alice", "S2D6 秘密");
    let bob = seen(&t, "bob");
    assert!(bob.iter().all(|l| !l.contains("秘密")), "{bob:?}");
}

/// Attack pass 6, A6-2: a member joining as `ミナ` while alice's character is ミナ spoke
/// in the log as the character. A member's name may not be, or look like, a character's
/// that every member can see; nothing changes on the refusal.
#[test]
fn a_member_may_not_take_a_characters_name() {
    let mut t = table();
    run(&mut t, "alice", "/char new ミナ");
    for name in ["ミナ", "ミナ\u{200B}"] {
        let why = refused(&mut t, "gm", &format!("/join {name}"));
        assert!(
            why.contains("character 'ミナ'") || why.contains("invisible"),
            "{name}: {why}"
        );
    }
    run(&mut t, "bob", "/char new ロイ");
    let why = refused(&mut t, "gm", "/join 口イ");
    assert!(why.contains("looks like the character 'ロイ'"), "{why}");
    run(&mut t, "gm", "/join ミカ");
}

/// Attack pass 7, A7-10: the rule holds the other way. A character named as another
/// member (`gm`, `alice`), or like one (`ALICE`), would speak in the log as that member;
/// it is refused and nothing changes. A character may carry its own player's name.
#[test]
fn a_character_may_not_take_another_members_name() {
    let mut t = table();
    let before = t.events().len();
    for (who, name, member) in [
        ("bob", "gm", "gm"),
        ("bob", "alice", "alice"),
        ("bob", "ALICE", "alice"),
        ("gm", "bob", "bob"),
        ("alice", "sam", "sam"),
    ] {
        let why = refused(&mut t, who, &format!("/char new {name}"));
        assert!(
            why.contains(&format!("the member '{member}'")),
            "{name}: {why}"
        );
    }
    assert_eq!(t.events().len(), before);
    run(&mut t, "bob", "/char new bob");
}

/// Attack pass 7, A7-2: names in scripts whose letters are drawn as Latin ones (Lisu,
/// Cherokee, Coptic, another script's digits, the phonetic blocks) are refused, saying
/// which character and how to write a name; Japanese, accented Latin, Greek, Cyrillic and
/// Hangul names are taken.
#[test]
fn names_in_scripts_drawn_as_latin_are_refused() {
    let mut t = table();
    for name in ["ꓖꓟ", "ᏴᎾᏴ", "bⲟb", "b০b", "ɑlice", "ᑲob"] {
        let why = refused(&mut t, "gm", &format!("/join {name}"));
        assert!(why.contains("can pass for Latin ones"), "{name}: {why}");
        let why = refused(&mut t, "alice", &format!("/char new {name}"));
        assert!(why.contains("can pass for Latin ones"), "{name}: {why}");
    }
    // Attack pass 8, A8-1: Komi sje and Greek capitals drawn as `GM`, a G with a stroke,
    // and a member's name split or ended by a dot, a middle dot or an underscore.
    for name in [
        "alıce", "ƅob", "ԌМ", "ǤM", "ΓΜ", "b.ob", "bob·", "b‧ob", "b_ob",
    ] {
        let why = refused(&mut t, "gm", &format!("/join {name}"));
        assert!(why.contains("looks too much like"), "{name}: {why}");
    }
    for name in ["José", "Наташа", "김민수", "佐々木"] {
        run(&mut t, "gm", &format!("/join {name}"));
    }
}

/// Attack pass 7, A7-11: an English refusal lists the two tabs every table has by their
/// English names (which `/tab` reads), the Japanese one by their Japanese names.
#[test]
fn a_missing_tab_is_refused_with_the_tabs_named_in_the_readers_language() {
    let mut t = table();
    let refusal = t.exec("alice", "/tab nosuch hi").expect_err("refused");
    let (ja, en) = (
        refusal.render(taku_dice::Lang::Ja),
        refusal.render(taku_dice::Lang::En),
    );
    assert!(en.contains("(tabs: main, chat)"), "{en}");
    assert!(ja.contains("（タブ: メイン、雑談）"), "{ja}");
    run(&mut t, "alice", "/tab chat hi");
}

/// Issue 17 ("full-width commands work (the engine normalises the command, never the chat
/// text)"): a reference typed with the IME on, `｛知覚｝` or `｛ミナ．知覚｝`, reads as
/// `{知覚}` in a dice line; talk keeps its full-width braces.
#[test]
fn references_typed_full_width_are_read_in_commands_only() {
    let mut t = table();
    run(&mut t, "alice", "/char new ミナ");
    run(&mut t, "alice", "/char set ミナ 知覚 30");
    for line in ["２Ｄ６＋｛知覚｝", "2D6+｛ミナ．知覚｝"] {
        run(&mut t, "alice", line);
        let last = seen(&t, "bob").pop().unwrap_or_default();
        assert!(last.contains("(2D6+30)"), "{line}: {last}");
    }
    run(&mut t, "alice", "すごい ｛笑｝");
    let last = seen(&t, "bob").pop().unwrap_or_default();
    assert!(last.ends_with("すごい ｛笑｝"), "{last}");
    // W9-15: the word after the command typed in full width too (`ｓｅｔ`, `ｓｈｏｗ`).
    run(&mut t, "alice", "／ｃｈａｒ　ｓｅｔ　ミナ　知覚　４");
    let shown = run(&mut t, "alice", "／ｃｈａｒ　ｓｈｏｗ　ミナ").unwrap_or_default();
    assert!(shown.contains("知覚: ４"), "the value as typed: {shown}");
    // The whisper's text after the names stays as typed.
    run(&mut t, "alice", "／ｗ　bob　ｈｉ");
    let last = seen(&t, "bob").pop().unwrap_or_default();
    assert!(last.contains("ｈｉ"), "{last}");
}
