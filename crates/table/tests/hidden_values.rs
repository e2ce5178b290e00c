//! Attack pass 4, A4-3: a roll others can read must not carry the values of a character
//! whose data is hidden from them. Another World's seed (AW-3, 「対象識別 …に成功するこ
//! とで、敵のデータを公表することができる」): an enemy's data is the GM's until identified,
//! so the GM's own public roll `AW+{影.理知}>=10` would print 理知 in its command, its typed
//! line and its total to every player. Such a roll is refused, saying to roll it secretly
//! (`S…`, a placeholder and a commitment until revealed); once the data is public it is
//! an ordinary roll.

use taku_dice::Lang;
use taku_table::{Entropy, Table};

fn table() -> Table {
    let mut t = Table::create("AnotherWorld", "aw", "gm", [7; 32])
        .expect("table")
        .with_entropy(Entropy::seeded([7; 32]));
    for (who, line) in [
        ("gm", "/join alice"),
        ("gm", "/join sam as spectator"),
        ("gm", "/char new 影"),
        ("gm", "/char set 影 HP 30 理知 4 識別難易度 3"),
        ("alice", "/char new ミナ"),
        ("alice", "/char set ミナ 理知 3"),
    ] {
        t.exec(who, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    t
}

#[test]
fn a_public_roll_with_an_unidentified_enemys_values_is_refused_and_logs_nothing() {
    let mut t = table();
    for line in ["AW+{影.理知}>=10 影の判定", "1D6+{影.HP}"] {
        let before = t.events().len();
        let refusal = t.exec("gm", line).expect_err(line);
        let (ja, en) = (refusal.render(Lang::Ja), refusal.render(Lang::En));
        assert!(ja.contains("シークレット") && ja.contains("影"), "{ja}");
        assert!(
            en.contains("secretly") && en.contains(&format!("S{line}")),
            "{en}"
        );
        // The refusal goes to the GM only; it names no value either.
        assert!(!ja.contains("30") && !en.contains("+4"), "{en}");
        assert_eq!(t.events().len(), before, "{line}: nothing logged");
    }
}

#[test]
fn the_same_roll_made_secret_shows_others_a_placeholder_only() {
    let mut t = table();
    t.exec("gm", "SAW+{影.理知}>=10 影の判定")
        .expect("secret roll");
    let e = t.events().last().expect("event").clone();
    assert!(t.entry(&e, "gm", Lang::Ja).text.contains("2D6+4"));
    for viewer in ["alice", "sam"] {
        let seen = t.entry(&e, viewer, Lang::Ja);
        assert!(
            !seen.text.contains("+4") && !seen.text.contains("理知"),
            "{viewer}: {}",
            seen.text
        );
        let json = serde_json::to_string(&seen).expect("json");
        assert!(!json.contains("理知") && !json.contains("+4"), "{json}");
    }
}

#[test]
fn once_the_data_is_public_or_for_a_players_own_character_the_roll_is_ordinary() {
    let mut t = table();
    // A player's own character is nobody's secret.
    t.exec("alice", "AW+{理知}>=10").expect("alice's own roll");
    t.exec("gm", "/npc show 影").expect("made public");
    t.exec("gm", "1D6+{影.HP}").expect("now public");
    let e = t.events().last().expect("event").clone();
    assert!(t.entry(&e, "alice", Lang::Ja).text.contains("+30"));
}
