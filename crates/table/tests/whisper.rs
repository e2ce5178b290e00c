//! Whispers (issue 17): `/w NAME[,NAME…] TEXT` is seen by its sender, the members it
//! names and the GM; everyone else sees a placeholder that names neither its sender, its
//! recipients nor its words.

use taku_dice::Lang;
use taku_table::{Entropy, Table};

fn table() -> Table {
    let mut t = Table::create("DiceBot", "卓", "gm", [3; 32])
        .expect("table")
        .with_entropy(Entropy::seeded([3; 32]));
    for line in [
        "/join alice",
        "/join bob",
        "/join carol",
        "/join sam as spectator",
    ] {
        t.exec("gm", line).expect("join");
    }
    t
}

#[test]
fn a_whisper_reaches_its_sender_its_recipients_and_the_gm_only() {
    let mut t = table();
    t.exec("alice", "/w bob,sam 扉の裏に鍵がある")
        .expect("whisper");
    let e = t.events().last().expect("event").clone();
    for viewer in ["alice", "bob", "sam", "gm"] {
        let seen = t.entry(&e, viewer, Lang::Ja);
        assert_eq!(seen.kind, "whisper", "{viewer}");
        assert!(
            seen.text.contains("扉の裏に鍵がある"),
            "{viewer}: {}",
            seen.text
        );
        assert!(seen.text.contains("bob、sam"), "{}", seen.text);
    }
    let seen = t.entry(&e, "carol", Lang::Ja);
    assert_eq!(seen.kind, "hidden");
    assert_eq!(seen.actor, None);
    for word in ["扉", "alice", "bob", "sam"] {
        assert!(
            !seen.text.contains(word),
            "carol reads {word}: {}",
            seen.text
        );
    }
    let english = t.entry(&e, "bob", Lang::En);
    assert!(english.text.contains("(whisper)"), "{}", english.text);
}

#[test]
fn a_whisper_needs_members_to_whisper_to() {
    let mut t = table();
    for (line, why) in [
        ("/w", "/w NAME"),
        ("/w bob", "/w NAME"),
        ("/w dave こんにちは", "'dave' is not a member"),
        ("/w alice ひとりごと", "whisper to whom"),
    ] {
        let before = t.events().len();
        let refusal = t.exec("alice", line).expect_err(line).render(Lang::En);
        assert!(refusal.contains(why), "{line}: {refusal}");
        assert_eq!(t.events().len(), before);
    }
    // Full-width recipients' separator, and the GM may be whispered to.
    t.exec("bob", "/whisper gm、alice 相談です")
        .expect("whisper");
    let e = t.events().last().expect("event").clone();
    assert_eq!(t.entry(&e, "carol", Lang::Ja).kind, "hidden");
    assert_eq!(t.entry(&e, "alice", Lang::Ja).kind, "whisper");
}

/// Attack pass 4, A4-10: a whisper typed with the IME on (`／w`, `／ｗ`, `／Ｗ`) or inside
/// a tab (`/tab 雑談 /w …`, which the web table sends for a line typed in 雑談) is a
/// whisper, never public chat; chat that merely starts with `／` stays chat.
#[test]
fn a_full_width_or_tabbed_whisper_is_a_whisper() {
    for line in [
        "／w bob 全角の内緒",
        "／ｗ bob 全角の内緒",
        "／Ｗ　bob 全角の内緒",
        "/W bob 全角の内緒",
        "/tab 雑談 /w bob 全角の内緒",
        "/tab 雑談 ／ｗ bob 全角の内緒",
        // A5-4: what draws nothing before the slash (pasted with the text) changes
        // nothing either.
        "\u{200b}/w bob 全角の内緒",
        "\u{feff}/w bob 全角の内緒",
        "\u{2060}\u{200b} ／ｗ bob 全角の内緒",
        "/tab 雑談 \u{200b}/w bob 全角の内緒",
        "/tab 雑談 \u{feff}／w bob 全角の内緒",
    ] {
        let mut t = table();
        t.exec("alice", line)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let e = t.events().last().expect("event").clone();
        let bob = t.entry(&e, "bob", Lang::Ja);
        assert_eq!(bob.kind, "whisper", "{line}: {}", bob.text);
        assert!(bob.text.contains("全角の内緒"), "{line}");
        let carol = t.entry(&e, "carol", Lang::Ja);
        assert_eq!(carol.kind, "hidden", "{line}: carol reads {}", carol.text);
        assert!(!carol.text.contains("内緒"), "{line}");
    }
    // Talk starting with a full-width slash is talk; a tab in a tab is refused.
    let mut t = table();
    t.exec("alice", "／(^o^)＼ やった").expect("chat");
    let e = t.events().last().expect("event").clone();
    assert_eq!(t.entry(&e, "carol", Lang::Ja).kind, "chat");
    assert!(t.exec("alice", "/tab 雑談 /tab 雑談 x").is_err());
}
