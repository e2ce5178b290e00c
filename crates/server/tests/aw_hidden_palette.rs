//! Issue 13 (aw13i): a player's chat palette shows a line naming the GM's hidden NPC (AW-3
//! 対象識別: 「成功することで、敵のデータを公表することができる」 — until then nothing of it is
//! the players') exactly as a line naming a character that does not exist.

use taku_server::web::page;
use taku_table::Table;

/// A table whose GM's hidden NPC is `hidden`, and bob's PC ロイ with a palette line naming
/// 黒幕.
fn table(hidden: &str) -> Table {
    let mut t = Table::create("AnotherWorld", "aw", "gm", [3; 32])
        .expect("table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    for (who, line) in [
        ("gm", "/join bob".to_string()),
        ("bob", "/char new ロイ".to_string()),
        ("gm", format!("/char new {hidden}")),
        ("gm", format!("/char set {hidden} HP 40")),
        (
            "bob",
            "/char set ロイ HP 12 palette.1 \"1D6+{黒幕.HP} 見る\"".to_string(),
        ),
    ] {
        t.exec(who, &line)
            .unwrap_or_else(|e| panic!("{who}: {line}: {e}"));
    }
    t
}

#[test]
fn aw13i_a_palette_line_naming_a_hidden_npc_reads_as_for_no_character() {
    let lines = |t: &Table| -> Vec<(String, String, Option<String>)> {
        page::palette(t, "bob")
            .into_iter()
            .map(|p| (p.send, p.shown, p.odds))
            .collect()
    };
    let (with, without) = (table("黒幕"), table("謎男"));
    assert_eq!(lines(&with), lines(&without));
    assert!(!format!("{:?}", lines(&with)).contains("40"));
}
