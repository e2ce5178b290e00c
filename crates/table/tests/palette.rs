//! A chat palette (`palette.N` fields) is its owner's own notes — a GM's prepared secret
//! checks among them — so only the character's owner and the GMs read it, on every path:
//! the log line of a typed `/char set`, a sheet's update, `/char show`, and a
//! `{NAME.palette.N}` reference (attack pass 3, A3-3's second half).

use taku_dice::Lang;
use taku_table::{Entropy, Table};

const SECRET: &str = "CC<=70 隠し扉に気づく";

fn table() -> Table {
    let mut t = Table::create("DiceBot", "卓", "gm", [5; 32])
        .expect("table")
        .with_entropy(Entropy::seeded([5; 32]));
    for line in [
        "/join alice",
        "/join bob",
        "/join sam as spectator",
        "/char new 黒幕",
    ] {
        t.exec("gm", line).expect("setup");
    }
    t.exec("alice", "/char new ミナ")
        .expect("alice's character");
    t
}

#[test]
fn a_typed_palette_line_shows_its_value_to_the_owner_and_the_gm_only() {
    let mut t = table();
    t.exec("gm", &format!("/char set 黒幕 palette.1 \"{SECRET}\""))
        .expect("set");
    let e = t.events().last().expect("event").clone();
    let seen = t.entry(&e, "gm", Lang::Ja);
    assert!(seen.text.contains("隠し扉"), "{}", seen.text);
    for viewer in ["alice", "bob", "sam"] {
        for lang in [Lang::Ja, Lang::En] {
            let seen = t.entry(&e, viewer, lang);
            assert_eq!(seen.kind, "character");
            // That it was set shows; what it says does not.
            assert!(
                seen.text.contains("黒幕") && seen.text.contains("palette.1"),
                "{}",
                seen.text
            );
            assert!(
                !seen.text.contains("隠し扉") && !seen.text.contains("CC<=70"),
                "{viewer} reads the GM's palette: {}",
                seen.text
            );
        }
    }
    assert!(t.entry(&e, "bob", Lang::Ja).text.contains("（非公開）"));
    assert!(t.entry(&e, "bob", Lang::En).text.contains("(hidden)"));
    // A player's own palette line: theirs and the GM's, not the others'.
    t.exec("alice", "/char set ミナ palette.1 \"1D100<=55 目星\" HP 10")
        .expect("alice's palette");
    let e = t.events().last().expect("event").clone();
    for viewer in ["alice", "gm"] {
        assert!(t.entry(&e, viewer, Lang::Ja).text.contains("目星"));
    }
    let bob = t.entry(&e, "bob", Lang::Ja);
    assert!(!bob.text.contains("目星"), "{}", bob.text);
    // The other fields of the same line stay public.
    assert!(bob.text.contains("HP=10"), "{}", bob.text);
}

#[test]
fn another_members_palette_is_not_in_their_sheet_nor_readable_by_reference() {
    let mut t = table();
    t.exec(
        "gm",
        &format!("/char set 黒幕 palette.1 \"{SECRET}\" 知覚 3"),
    )
    .expect("set");
    let shown = |t: &Table, viewer: &str| {
        t.sheet("黒幕", viewer)
            .expect("sheet")
            .render_text(Lang::Ja)
    };
    assert!(shown(&t, "gm").contains("隠し扉"));
    for viewer in ["alice", "sam"] {
        let sheet = shown(&t, viewer);
        assert!(!sheet.contains("隠し扉"), "{viewer}: {sheet}");
        assert!(sheet.contains("知覚"), "{viewer}: {sheet}");
    }
    // `/char show` replies with the sheet the asker may see.
    let reply = t.exec("alice", "/char show 黒幕").expect("show").0;
    let reply = reply.expect("a sheet").ja().to_string();
    assert!(!reply.contains("隠し扉"), "{reply}");
    // A reference to the GM's palette line is refused, saying why, and logs nothing.
    let before = t.events().len();
    let refused = t
        .exec("alice", "1D100 {黒幕.palette.1}")
        .expect_err("refused");
    let (ja, en) = (refused.render(Lang::Ja), refused.render(Lang::En));
    assert!(
        ja.contains("チャットパレット") && en.contains("chat palette"),
        "{ja} / {en}"
    );
    assert!(!ja.contains("隠し扉") && !en.contains("隠し扉"));
    assert_eq!(t.events().len(), before);
    // Its owner's reference is not refused for being a palette line.
    let own = t.exec("gm", "1D100 {黒幕.palette.1}");
    if let Err(r) = own {
        assert!(
            !r.render(Lang::En).contains("chat palette"),
            "{}",
            r.render(Lang::En)
        );
    }
}
