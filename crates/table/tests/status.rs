//! Status commands typed in chat (issue 17): `HP-10`, `MP+3`, `HP=12` change the
//! speaker's character's field, within 0..=max, as logged `/char set` events.

use taku_dice::Lang;
use taku_table::{Entropy, EventBody, Table};

fn table() -> Table {
    let mut t = Table::create("DiceBot", "卓", "gm", [9; 32])
        .expect("table")
        .with_entropy(Entropy::seeded([9; 32]));
    for line in ["/join alice", "/join bob", "/join sam as spectator"] {
        t.exec("gm", line).expect("join");
    }
    t.exec("alice", "/char new ミナ").expect("char");
    t.exec("alice", "/char set ミナ HP 20 HP.max 20 MP 5 運 3")
        .expect("fields");
    t
}

fn field(t: &Table, key: &str) -> String {
    t.characters()["ミナ"].fields[key].clone()
}

#[test]
fn status_commands_change_the_speakers_character_within_its_maximum() {
    let mut t = table();
    for (line, hp) in [
        ("HP-10", "10"),
        ("HP+3", "13"),
        ("HP+100", "20"),
        ("ＨＰ－２５", "0"),
        ("HP = 12", "12"),
        ("HP=99", "20"),
    ] {
        t.exec("alice", line)
            .unwrap_or_else(|r| panic!("{line}: {}", r.render(Lang::En)));
        assert_eq!(field(&t, "HP"), hp, "{line}");
        let last = t.events().last().expect("event");
        assert!(
            matches!(&last.body, EventBody::CharacterUpdated { name, changes }
                if name == "ミナ" && changes.len() == 1 && changes[0].key == "HP"),
            "{line}: {last:?}"
        );
    }
    // Without a maximum: not below 0.
    t.exec("alice", "MP-9").expect("mp");
    assert_eq!(field(&t, "MP"), "0");
    t.exec("alice", "MP+3").expect("mp");
    assert_eq!(field(&t, "MP"), "3");
    // Logged as a change, and undone like one.
    t.exec("alice", "/undo").expect("undo");
    assert_eq!(field(&t, "MP"), "0");
}

#[test]
fn lines_that_are_no_status_command_stay_chat_or_dice() {
    let mut t = table();
    let events = t.events().len();
    // Not a field of hers, someone without a character, a spectator, not a number.
    for (who, line) in [
        ("alice", "SAN-3"),
        ("bob", "HP-10"),
        ("sam", "HP-10"),
        ("alice", "HP-いっぱい"),
        ("alice", "HP-10 痛い"),
    ] {
        t.exec(who, line)
            .unwrap_or_else(|r| panic!("{line}: {}", r.render(Lang::En)));
        assert!(
            matches!(
                t.events().last().expect("event").body,
                EventBody::Chat { .. }
            ),
            "{who}: {line}"
        );
    }
    assert_eq!(t.events().len(), events + 5);
    assert_eq!(field(&t, "HP"), "20");
    // Dice stay dice.
    t.exec("alice", "2D6-1").expect("dice");
    assert!(matches!(
        t.events().last().expect("event").body,
        EventBody::Roll(_)
    ));
}

/// W9-24: a player with two characters who types `HP-3` is asked which one, nothing
/// changed and nothing posted; a field none of them has stays chat.
#[test]
fn a_status_command_of_a_player_with_two_characters_names_them() {
    let mut t = table();
    t.exec("alice", "/char new サブ").expect("second character");
    t.exec("alice", "/char set サブ HP 5").expect("hp");
    let events = t.events().len();
    let why = t
        .exec("alice", "HP-3")
        .expect_err("which one")
        .render(Lang::Ja);
    assert!(
        why.contains("サブ") && why.contains("ミナ") && why.contains("/char set"),
        "{why}"
    );
    assert_eq!(t.events().len(), events);
    assert_eq!(field(&t, "HP"), "20");
    t.exec("alice", "SAN-3").expect("chat");
    assert!(matches!(
        t.events().last().expect("event").body,
        EventBody::Chat { .. }
    ));
}
