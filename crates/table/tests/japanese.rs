//! Japanese first (issue: every text at a table exists in Japanese and English): every
//! refusal path a member can reach, at tables of every system with table rules, is
//! Japanese under the default setting and English under `/lang en`; what starts like a
//! command and does not parse is refused with a caret; chat stays chat.

use taku_dice::Lang;
use taku_table::{Entropy, EventBody, Table};

fn kana(s: &str) -> bool {
    s.chars().any(|c| matches!(c as u32, 0x3041..=0x30FF))
}

fn table(system: &str) -> Table {
    let mut t = Table::create(system, "卓", "gm", [5; 32])
        .expect("table")
        .with_entropy(Entropy::seeded([5; 32]));
    for line in ["/join alice", "/join bob", "/join sam as spectator"] {
        t.exec("gm", line).expect("join");
    }
    t.exec("alice", "/char new ミナ").expect("char");
    t.exec("bob", "/char new ロイ").expect("char");
    t
}

/// Lines refused at any table, by who sends them.
const COMMON: &[(&str, &str)] = &[
    ("alice", ""),
    ("alice", "/join carol"),
    ("alice", "/join"),
    ("gm", "/join alice"),
    ("gm", "/join carol as wizard"),
    (
        "gm",
        "/join xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    ),
    ("alice", "/char new ロイ"),
    ("sam", "/char new 影"),
    ("alice", "/char set ロイ 理知 3"),
    ("alice", "/char set ミナ 理知"),
    ("alice", "/char set 誰 理知 3"),
    ("alice", "/char set ミナ メモ \"閉じない"),
    ("alice", "/char show 誰"),
    ("alice", "/char"),
    ("alice", "/scene next"),
    ("alice", "/session end"),
    ("sam", "/undo"),
    ("alice", "/undo bob"),
    ("alice", "/undo #2"),
    ("alice", "/undo #999"),
    ("alice", "/void 5"),
    ("gm", "/void 999"),
    ("alice", "/reveal 1"),
    ("alice", "/reveal x"),
    ("alice", "/lang en"),
    ("gm", "/lang fr"),
    ("alice", "/frobnicate"),
    ("sam", "2D6>=7"),
    ("sam", "S1D6"),
    ("alice", "2D6+{力}>=7"),
    ("alice", "2D6+{誰.力}"),
    ("alice", "2D6+>=7"),
    ("alice", "2D6ってなに"),
    ("alice", "10001D6"),
    ("alice", "9223372036854775807+1D6"),
    ("carol", "こんにちは"),
];

/// Lines refused at a table of one system.
fn of(system: &str) -> &'static [(&'static str, &'static str)] {
    match system {
        "AnotherWorld" => &[
            ("alice", "AW{理知}"),
            ("alice", "AW+5 VS"),
            ("sam", "/contract ミナ ロイ"),
            ("alice", "/contract ミナ 影"),
            ("alice", "/supply give ミナ"),
            ("alice", "/spell ミナ fly"),
            ("alice", "/key give ミナ 鍵"),
            ("alice", "/af start 理知 80 2"),
            ("alice", "/combat start"),
        ],
        "MtgTrpg" => &[
            ("alice", "/deck load ロイ 20 Forest"),
            ("alice", "/deck check ミナ 緑 2"),
            ("alice", "/deck load ミナ 4 Black Lotus"),
            ("alice", "/deck known ミナ x"),
        ],
        _ => &[],
    }
}

#[test]
fn every_refusal_is_japanese_by_default_and_english_under_lang_en() {
    for system in ["DiceBot", "SRS", "AnotherWorld", "MtgTrpg"] {
        let mut t = table(system);
        for (who, line) in COMMON.iter().chain(of(system)) {
            let before = t.events().len();
            let refusal = t
                .decide(who, line)
                .expect_err(&format!("{system}: {who}: {line} should be refused"));
            assert_eq!(t.events().len(), before);
            let ja = refusal.render(Lang::Ja);
            let en = refusal.render(Lang::En);
            assert!(kana(&ja), "{system}: {who}: {line}: not Japanese: {ja}");
            // English may quote what was typed (a character name), never say it in kana.
            let quoted_removed: String = en
                .chars()
                .filter(|c| !line.contains(*c) && !"ミナロイ".contains(*c))
                .collect();
            assert!(
                !kana(&quoted_removed),
                "{system}: {who}: {line}: not English: {en}"
            );
        }
        // Under /lang en the table's refusals read in English.
        t.exec("gm", "/lang en").expect("lang");
        assert_eq!(t.lang(), Lang::En);
    }
}

#[test]
fn a_line_that_starts_like_a_command_and_fails_to_parse_is_refused_with_a_caret() {
    let mut t = table("AnotherWorld");
    t.exec("alice", "/char set ミナ 理知 4").expect("set");
    for (line, caret_line) in [
        ("AW{理知}", "AW4"),
        ("AW+5 VS", "AW+5 VS"),
        ("2D6ってなに", "2D6ってなに"),
    ] {
        let refusal = t.decide("alice", line).expect_err(line);
        let shown = refusal.render(Lang::Ja);
        assert!(shown.contains(&format!("\n  {caret_line}\n")), "{shown}");
        assert!(shown.trim_end().ends_with('^'), "{shown}");
    }
    // Japanese chat that starts with a number stays chat.
    for chat in ["3時から始めます", "3Dプリンタ欲しい", "1人で行く"] {
        let (_, events) = t.exec("alice", chat).expect(chat);
        assert!(
            matches!(&events[0].body, EventBody::Chat { text } if text == chat),
            "{chat}"
        );
    }
    // A comment after a command is kept.
    let (_, events) = t.exec("alice", "AW+5 VS AW+3 説得").expect("contest");
    let EventBody::Roll(roll) = &events[0].body else {
        panic!("a roll")
    };
    assert_eq!(roll.comment.as_deref(), Some("説得"));
    let seq = events[0].seq;
    let shown = t.entry(&t.events()[seq as usize - 1], "bob", Lang::Ja).text;
    assert!(
        shown.starts_with(&format!("#{seq} alice: 説得 (")),
        "{shown}"
    );
}

#[test]
fn undo_says_in_words_what_it_undid() {
    let mut t = table("DiceBot");
    let (reply, _) = t.exec("alice", "/undo").expect("undo the creation");
    assert_eq!(
        reply.expect("reply").ja(),
        "#5 alice がキャラクター ミナ を作成 を取り消しました"
    );
}

#[test]
fn members_and_characters_are_listed_and_sheets_show_resources() {
    let mut t = table("DiceBot");
    t.exec("alice", "/char set ミナ HP 5 HP上限 12 知覚 3")
        .expect("several fields in one event");
    let last = t.events().last().expect("event");
    assert!(
        matches!(&last.body, EventBody::CharacterUpdated { changes, .. } if changes.len() == 3)
    );
    let (who, _) = t.exec("bob", "/who").expect("who");
    assert_eq!(
        who.expect("reply").ja(),
        "メンバー:\n  alice（プレイヤー）: ミナ\n  bob（プレイヤー）: ロイ\n  gm（GM）\n  sam（観戦者）"
    );
    let (list, _) = t.exec("sam", "/char list").expect("list");
    assert_eq!(
        list.expect("reply").en(),
        "characters: ミナ (alice), ロイ (bob)"
    );
    let (show, _) = t.exec("bob", "/char show ミナ").expect("show");
    assert_eq!(
        show.expect("reply").ja(),
        "【ミナ（alice）】\n  HP: 5/12\n  知覚: 3"
    );
    // {HP.max} reads the maximum.
    let (_, events) = t.exec("alice", "1D6+{HP.max}").expect("roll");
    let EventBody::Roll(roll) = &events[0].body else {
        panic!("a roll")
    };
    assert_eq!(roll.input, "1D6+12");
}

#[test]
fn a_sheet_creates_a_character_and_updates_it() {
    let mut t = table("DiceBot");
    let sheet = "name = \"影\"\n\"知覚\" = 2\nHP = 8\n\"HP.max\" = 8\n";
    let d = t.decide_sheet("bob", sheet).expect("sheet");
    t.apply("bob", d.events);
    assert_eq!(t.characters()["影"].owner, "bob");
    assert_eq!(t.characters()["影"].fields["知覚"], "2");
    // The same file again changes nothing and says so; a changed one updates.
    assert!(t.decide_sheet("bob", sheet).is_err());
    let d = t
        .decide_sheet("bob", &sheet.replace("HP = 8", "HP = 6"))
        .expect("update");
    t.apply("bob", d.events);
    assert_eq!(t.characters()["影"].fields["HP"], "6");
    // Another player cannot overwrite bob's character; a spectator cannot create one.
    assert!(t.decide_sheet("alice", sheet).is_err());
    assert!(t.decide_sheet("sam", "name = \"観\"").is_err());
    assert!(
        t.decide_sheet("alice", "not toml [")
            .expect_err("bad toml")
            .render(Lang::Ja)
            .contains("TOML")
    );
    assert!(t.verify().is_empty());
}

#[test]
fn no_member_can_forge_a_log_line_or_reach_a_terminal_with_control_characters() {
    let mut t = table("DiceBot");
    // An escape sequence or a bidi override is refused, named, and nothing is kept
    // (attack pass 7, A7-6: kept as its escape `\u{202e}`, it read as a reference); a
    // line break shows as ↵ on one line.
    let before = t.events().len();
    for (line, code) in [("hi\u{1b}[2J", "U+001B"), ("1D6 \u{202e}", "U+202E")] {
        let why = t.exec("alice", line).expect_err("refused").render(Lang::En);
        assert!(
            why.contains(code) && why.contains("nothing changed"),
            "{why}"
        );
    }
    assert_eq!(t.events().len(), before);
    let (_, events) = t
        .exec("alice", "hi\n#99 gm: alice に管理者権限")
        .expect("chat");
    let seq = events[0].seq;
    let text = t.entry(&t.events()[seq as usize - 1], "bob", Lang::Ja).text;
    assert_eq!(
        text,
        format!("#{seq} alice: hi ↵ #99 gm: alice に管理者権限")
    );
    // Attack pass 8, A8-4: the line and paragraph separators break lines in browsers as
    // a newline does: they show as ↵ too. Characters that draw nothing are refused,
    // named; zero-width joiners in emoji and a flag's tag sequence stay.
    for sep in ['\u{2028}', '\u{2029}'] {
        let (_, events) = t
            .exec("bob", &format!("了解{sep}#75 gm: セッション終了"))
            .expect("chat");
        let seq = events[0].seq;
        let text = t
            .entry(&t.events()[seq as usize - 1], "alice", Lang::Ja)
            .text;
        assert_eq!(text, format!("#{seq} bob: 了解 ↵ #75 gm: セッション終了"));
    }
    let before = t.events().len();
    for (line, code) in [
        ("hi\u{feff}there", "U+FEFF"),
        ("hi\u{E0041}\u{E0042}", "U+E0041"),
        ("a\u{3164}", "U+3164"),
        ("a\u{034F}b", "U+034F"),
    ] {
        let why = t.exec("bob", line).expect_err("refused").render(Lang::En);
        assert!(
            why.contains(code) && why.contains("nothing changed"),
            "{why}"
        );
    }
    assert_eq!(t.events().len(), before);
    t.exec(
        "bob",
        "家族 👨\u{200D}👩\u{200D}👧 と 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
    )
    .expect("emoji stay");
    // A sheet's fields pass the same checks as /char set.
    assert!(
        t.decide_sheet("alice", "name = \"影\"\n\"k k\" = 1")
            .is_err()
    );
    assert!(t.decide_sheet("alice", "name = \"影\"\n\"\" = 1").is_err());
    assert!(
        t.decide_sheet("alice", "name = \"影\"\nk = \"a\\u001b[31m\"")
            .is_err()
    );
    assert!(t.decide_sheet("alice", &"x".repeat(40_000)).is_err());
    // An /undo of an entry the member may not see names no author.
    let mut aw = table("AnotherWorld");
    aw.exec("gm", "/key give ミナ 秘密の鍵").expect("key");
    let hidden = aw.events().len() as u64;
    let refusal = aw
        .decide("bob", &format!("/undo #{hidden}"))
        .expect_err("hidden")
        .render(Lang::Ja);
    assert!(!refusal.contains("gm"), "{refusal}");
    assert_eq!(
        refusal,
        aw.decide("bob", "/undo #999")
            .expect_err("missing")
            .render(Lang::Ja)
            .replace("#999", &format!("#{hidden}"))
    );
    // A spectator's full-width dice line is refused like a player's is rolled.
    assert!(t.decide("sam", "ｓ１Ｄ６").is_err());
    assert!(t.decide("sam", "9223372036854775804+1D6").is_err());
}

/// FC-9/10/11 and SG-8 at an English table (`/lang en`): a check's result reads in
/// English in the log (the log keeps BCDice's Japanese text; `taku_systems::roll_text`
/// gives the system's words), and in Japanese at a Japanese table.
#[test]
fn four_card_and_sengensho_checks_read_in_the_tables_language() {
    for (system, line) in [("FourCard", "FC+7>=10"), ("Sengensyou", "SGS+3>=12")] {
        let mut t = table(system);
        t.exec("alice", line).expect("a check");
        let ja = t.view(t.events().last().expect("an entry"), "bob");
        assert!(ja.contains("成功") || ja.contains("失敗"), "{system}: {ja}");
        t.exec("gm", "/lang en").expect("lang");
        t.exec("alice", line).expect("a check");
        let en = t.view(t.events().last().expect("an entry"), "bob");
        assert!(
            en.contains("success") || en.contains("failure"),
            "{system}: {en}"
        );
        assert!(
            !en.contains("成功") && !en.contains("失敗"),
            "{system}: {en}"
        );
        // The log's own text stays BCDice's.
        let last = t.events().last().expect("an entry");
        match &last.body {
            EventBody::Roll(r) => assert!(
                r.text.contains("成功") || r.text.contains("失敗"),
                "{system}: {}",
                r.text
            ),
            other => panic!("{system}: not a roll: {other:?}"),
        }
    }
}
