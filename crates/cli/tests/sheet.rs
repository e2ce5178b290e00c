//! `taku sheet` end to end: the report, its JSON form and the exit status.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The example sheet shipped with the Another World module: a valid PC.
const EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../systems/src/another_world/example-sheet.toml"
);

fn taku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taku"))
        .args(args)
        .env_remove("TAKU_LANG")
        .env("LANG", "C.UTF-8")
        .output()
        .expect("taku runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Writes `text` to a file of its own under the temp folder.
fn sheet_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("taku-cli-sheet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write sheet");
    path
}

fn example() -> String {
    std::fs::read_to_string(EXAMPLE).expect("the example sheet exists")
}

#[test]
fn valid_sheet_prints_derived_values_and_exits_0() {
    let o = taku(&["sheet", "--system", "AnotherWorld", EXAMPLE]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for part in [
        "キャラクターシート: アリス（PC）",
        "【理知】3 【知覚】2 【反射】4 【体力】2 【幸運】1",
        "【行動値】9 【HP】20 【MP】15",
        "戦闘移動: 14m　全力移動: 28m",
        "ルール違反: なし",
    ] {
        assert!(out.contains(part), "{part} missing from\n{out}");
    }
}

#[test]
fn json_report_parses_and_has_the_derived_values() {
    let o = taku(&["sheet", "--system", "AnotherWorld", EXAMPLE, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON output");
    assert_eq!(v["sheet"]["name"], "アリス");
    assert_eq!(v["sheet"]["行動値"], 9);
    assert_eq!(v["derived"]["combat_move"], 14);
    assert_eq!(v["derived"]["full_move"], 28);
    assert_eq!(v["violations"], serde_json::json!([]));
}

#[test]
fn invalid_sheet_lists_every_violation_and_exits_1() {
    let text = example()
        .replace("kind = \"PC\"", "kind = \"NPC\"")
        .replace("HP = 20", "HP = 0")
        .replace("master = \"ボブ\"", "master = \"キャロル\"")
        .replace("spells = 3", "spells = 4");
    let path = sheet_file("invalid.toml", &text);
    let o = taku(&[
        "sheet",
        "--system",
        "AnotherWorld",
        path.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("戦闘移動: 14m"),
        "the report is still printed:\n{out}"
    );
    assert!(out.contains("ルール違反: 4件"), "{out}");
    for part in [
        "[AW-4] HP: ",
        "[AW-5] master: 「キャロル」がマスターであり、サーヴァントでもある",
        "[AW-5] spells: ",
        "[AW-6] keys: ",
    ] {
        assert!(out.contains(part), "{part} missing from\n{out}");
    }
}

#[test]
fn invalid_sheet_as_json_lists_its_violations_and_exits_1() {
    let path = sheet_file("npc-keys.toml", &example().replace("\"PC\"", "\"NPC\""));
    let o = taku(&[
        "sheet",
        "--system",
        "AnotherWorld",
        path.to_str().expect("utf-8 path"),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON output");
    assert_eq!(v["violations"][0]["rule"], "AW-6");
    assert_eq!(v["violations"][0]["field"], "keys");
}

#[test]
fn non_toml_file_exits_1_naming_the_file_and_line() {
    let path = sheet_file("not-toml.toml", "name = \"アリス\"\nthis is not toml\n");
    let shown = path.display().to_string();
    let o = taku(&["--lang", "en", "sheet", "--system", "AnotherWorld", &shown]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{shown} is not a character sheet")),
        "{err}"
    );
    assert!(err.contains("line 2"), "{err}");
}

#[test]
fn unknown_key_exits_1_with_the_keys_a_sheet_has() {
    let path = sheet_file("unknown-key.toml", &example().replace("HP = 20", "hp = 20"));
    let o = taku(&[
        "--lang",
        "en",
        "sheet",
        "--system",
        "AnotherWorld",
        path.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("unknown key `hp`; did you mean `HP`?"),
        "{err}"
    );
}

#[test]
fn missing_file_exits_1_naming_the_file() {
    let path = std::env::temp_dir().join("taku-cli-sheet-no-such-file.toml");
    let shown = path.display().to_string();
    let o = taku(&["sheet", "--system", "AnotherWorld", &shown]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains(&format!("{shown} を読めません")), "{err}");
    let o = taku(&["--lang", "en", "sheet", "--system", "AnotherWorld", &shown]);
    assert!(
        stderr(&o).contains(&format!("cannot read {shown}")),
        "{}",
        stderr(&o)
    );
}

#[test]
fn system_without_sheets_exits_1_naming_those_with_sheets() {
    let o = taku(&["--lang", "en", "sheet", "--system", "SRS", EXAMPLE]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("SRS has no character sheet; sheets exist for: AnotherWorld"),
        "{err}"
    );
}

/// Issue 13 (play-through 5, mtg5): `taku sheet --system MtgTrpg` answered in English
/// with LANG=C.UTF-8. It follows the CLI's language rule — Japanese unless `--lang`,
/// `TAKU_LANG` or the locale says otherwise — and says where an MTG PC lives (MT-1: its
/// library is made from a deck list at the table).
#[test]
fn mt1_a_system_without_sheets_answers_in_the_users_language() {
    let o = taku(&["sheet", "--system", "MtgTrpg", EXAMPLE]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("MtgTrpg にはキャラクターシートがありません。シートがあるのは AnotherWorld"),
        "{err}"
    );
    assert!(err.contains("/deck load PC名 デッキリスト"), "{err}");
    assert!(!err.contains("has no character sheet"), "{err}");
    let o = taku(&["--lang", "en", "sheet", "--system", "MtgTrpg", EXAMPLE]);
    let err = stderr(&o);
    assert!(
        err.contains("MtgTrpg has no character sheet; sheets exist for: AnotherWorld"),
        "{err}"
    );
    assert!(err.contains("/deck load PC LIST"), "{err}");
    let o = Command::new(env!("CARGO_BIN_EXE_taku"))
        .args(["sheet", "--system", "MtgTrpg", EXAMPLE])
        .env_remove("TAKU_LANG")
        .env("LANG", "en_US.UTF-8")
        .output()
        .expect("taku runs");
    assert!(
        stderr(&o).contains("MtgTrpg has no character sheet"),
        "{}",
        stderr(&o)
    );
}

/// Issue 13 (fifth session): an Another World sheet's rule violations were Japanese
/// inside an English report. With `--lang en` the report and every violation are
/// English (AW-4 「1以上はある」, AW-5 the contract cycle); Japanese stays the default.
#[test]
fn aw_sheet_violations_are_in_the_reports_language() {
    let text = example()
        .replace("HP = 20", "HP = 0")
        .replace("master = \"ボブ\"", "master = \"キャロル\"");
    let path = sheet_file("invalid-en.toml", &text);
    let path = path.to_str().expect("utf-8 path");
    let o = taku(&["--lang", "en", "sheet", "--system", "AnotherWorld", path]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    for part in [
        "Character sheet: アリス (PC)",
        "Combat move: 14 m, full move: 28 m (AW-3)",
        "Rule violations: 2",
        "[AW-4] HP: 【HP】 is 0; everyone has 【HP】 and 【MP】 of at least 1",
        "[AW-5] master: 'キャロル' is both master and servant",
    ] {
        assert!(out.contains(part), "{part} missing from\n{out}");
    }
    for japanese in [
        "以上はある",
        "サーヴァントでもある",
        "ルール違反",
        "戦闘移動",
    ] {
        assert!(!out.contains(japanese), "{japanese} in\n{out}");
    }
    let o = taku(&["sheet", "--system", "AnotherWorld", path]);
    let out = stdout(&o);
    assert!(out.contains("ルール違反: 2件"), "{out}");
    assert!(out.contains("[AW-4] HP: 【HP】が0。"), "{out}");
    let o = taku(&[
        "--lang",
        "en",
        "sheet",
        "--system",
        "AnotherWorld",
        path,
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON output");
    assert_eq!(
        v["violations"][0]["message_en"],
        "【HP】 is 0; everyone has 【HP】 and 【MP】 of at least 1"
    );
}

#[test]
fn unknown_system_exits_1_listing_the_known_ones() {
    let o = taku(&["sheet", "--system", "Nope", EXAMPLE]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("ゲームシステム 'Nope' はありません"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn system_is_required() {
    let o = taku(&["sheet", EXAMPLE]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--system"), "{}", stderr(&o));
}

/// SG-1, SG-6 and the fields the rules keep: `taku sheet --system Sengensyou` lists every
/// rule a sheet breaks, in Japanese by default and in English with `--lang en`, and
/// exits 1; a valid sheet shows its proposed types (noting ones the example list lacks)
/// and exits 0.
#[test]
fn a_sengensho_sheet_is_validated_in_both_languages() {
    let bad = sheet_file(
        "sg-bad.toml",
        "name = \"テスト\"\n\"種別\" = \"NPC\"\n\"類型\" = [\"例・芸術家\", \"例・芸術家\", \"例・策士\"]\n\"幻想値\" = 99\n",
    );
    let path = bad.to_str().expect("utf-8 path");
    let o = taku(&["sheet", "--system", "Sengensyou", path]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("SG-1: 類型は異なる3つ"), "{out}");
    assert!(
        out.contains("ルールが管理する") && out.contains("/sg bond"),
        "{out}"
    );
    let o = taku(&["--lang", "en", "sheet", "--system", "Sengensyou", path]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("SG-1: 類型 must be an array of three different names"),
        "{out}"
    );
    assert!(out.contains("kept by the rules"), "{out}");
    let o = taku(&["sheet", "--system", "Sengensyou", path, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON output");
    let rules: Vec<&str> = v["violations"]
        .as_array()
        .expect("violations")
        .iter()
        .filter_map(|x| x["rule"].as_str())
        .collect();
    assert!(rules.contains(&"SG-1") && rules.contains(&"SG"), "{v}");
    // SG-6: an NPC's sheet does not carry its types.
    let npc = sheet_file(
        "sg-npc.toml",
        "name = \"影\"\n\"種別\" = \"NPC\"\n\"類型\" = [\"例・芸術家\", \"例・守護者\", \"例・策士\"]\n",
    );
    let o = taku(&[
        "sheet",
        "--system",
        "Sengensyou",
        npc.to_str().expect("path"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("SG-6"), "{}", stdout(&o));
    let good = sheet_file(
        "sg-good.toml",
        "name = \"ミナ\"\n\"類型\" = [\"例・芸術家\", \"例・守護者\", \"剣士\"]\n\"知性\" = 3\n",
    );
    let o = taku(&[
        "sheet",
        "--system",
        "Sengensyou",
        good.to_str().expect("path"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("例・芸術家、例・守護者、剣士"), "{out}");
    assert!(
        out.contains("類型「剣士」は同梱の例の類型リストにありません"),
        "{out}"
    );
    assert!(out.contains("ルール違反なし"), "{out}");
}
