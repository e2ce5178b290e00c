//! `taku table` as a newcomer uses it: Japanese by default, refused lines reported with the
//! lines not sent, characters from sheet files, several fields in one `/char set`, and
//! structured `--json` entries.

use std::path::PathBuf;
use std::process::{Command, Output};

/// `taku` with no language chosen by the environment: the table's (Japanese) applies.
fn taku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taku"))
        .env_remove("TAKU_LANG")
        .env_remove("LANG")
        .args(args)
        .output()
        .expect("taku runs")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("taku-cli-lines-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    dir
}

fn new_table(db: &str) -> String {
    let o = taku(&["table", "new", "--system", "DiceBot", "--db", db]);
    assert!(o.status.success(), "{}", err(&o));
    out(&o).trim().to_string()
}

#[test]
fn a_refused_line_stops_the_run_and_lists_the_lines_not_sent_in_japanese() {
    let dir = scratch("refused");
    let db = dir.join("taku.db").display().to_string();
    let id = new_table(&db);
    let o = taku(&[
        "table",
        "exec",
        "--db",
        &db,
        &id,
        "/join alice",
        "/char set 誰 HP 3",
        "こんにちは",
        "2D6",
    ]);
    assert!(!o.status.success());
    assert!(
        out(&o).contains("#2 alice がプレイヤーとして参加"),
        "{}",
        out(&o)
    );
    let e = err(&o);
    assert!(
        e.contains("拒否: /char set 誰 HP 3: '誰' という名前のキャラクターはいません"),
        "{e}"
    );
    assert!(e.contains("送っていません"), "{e}");
    assert!(e.contains("  こんにちは\n  2D6\n"), "{e}");
    // Nothing after the refusal was sent.
    let log = taku(&["table", "log", "--db", &db, &id]);
    assert!(!out(&log).contains("こんにちは"), "{}", out(&log));
    // --lang en reads the same refusal in English.
    let o = taku(&[
        "table",
        "exec",
        "--db",
        &db,
        &id,
        "--lang",
        "en",
        "/char set 誰 HP 3",
    ]);
    assert!(
        err(&o).contains("refused: /char set 誰 HP 3: no character named '誰'"),
        "{}",
        err(&o)
    );
}

#[test]
fn a_sheet_file_makes_a_character_and_json_entries_carry_the_roll() {
    let dir = scratch("sheet");
    let db = dir.join("taku.db").display().to_string();
    let id = new_table(&db);
    assert!(
        taku(&["table", "exec", "--db", &db, &id, "/join alice"])
            .status
            .success()
    );
    let sheet = dir.join("mina.toml");
    std::fs::write(
        &sheet,
        "name = \"ミナ\"\n\"知覚\" = 3\nHP = 9\n\"HP.max\" = 12\n",
    )
    .expect("sheet");
    let o = taku(&[
        "table",
        "sheet",
        "--db",
        &db,
        &id,
        &sheet.display().to_string(),
        "--as",
        "alice",
    ]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        out(&o).contains("シートからキャラクター ミナ を作成"),
        "{}",
        out(&o)
    );
    let o = taku(&[
        "table",
        "exec",
        "--db",
        &db,
        &id,
        "--as",
        "alice",
        "/char set ミナ HP 7 知覚 4",
        "/char show ミナ",
        "2D6+{知覚}>=7 聞き耳",
    ]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("  HP: 7/12\n  知覚: 4"), "{}", out(&o));
    let o = taku(&["table", "log", "--db", &db, &id, "--as", "alice", "--json"]);
    let last: serde_json::Value =
        serde_json::from_str(out(&o).lines().last().expect("a line")).expect("json");
    assert_eq!(last["kind"], "roll");
    assert_eq!(last["roll"]["command"], "2D6+4>=7 聞き耳");
    assert_eq!(last["roll"]["typed"], "2D6+{知覚}>=7 聞き耳");
    assert_eq!(last["roll"]["comment"], "聞き耳");
    assert_eq!(last["roll"]["rands"].as_array().map(Vec::len), Some(2));
}

/// `--table-lang en` makes an English table (its members read English, `/help` included),
/// while `--lang en` alone changes only the command's own output and leaves the table
/// Japanese; an unknown table language is refused in both languages, creating nothing.
#[test]
fn table_lang_sets_the_tables_language_and_lang_only_the_output() {
    let dir = scratch("table-lang");
    let db = dir.join("taku.db").display().to_string();
    let o = taku(&[
        "table",
        "new",
        "--system",
        "DiceBot",
        "--db",
        &db,
        "--table-lang",
        "en",
    ]);
    assert!(o.status.success(), "{}", err(&o));
    let english = out(&o).trim().to_string();
    let o = taku(&["table", "exec", "--db", &db, &english, "/join alice"]);
    assert!(out(&o).contains("alice joined as player"), "{}", out(&o));
    let o = taku(&["table", "log", "--db", &db, &english, "--as", "alice"]);
    assert!(out(&o).contains("language"), "{}", out(&o));

    let o = taku(&[
        "--lang", "en", "table", "new", "--system", "DiceBot", "--db", &db,
    ]);
    assert!(o.status.success(), "{}", err(&o));
    let japanese = out(&o).trim().to_string();
    let o = taku(&["table", "exec", "--db", &db, &japanese, "/join alice"]);
    assert!(
        out(&o).contains("alice がプレイヤーとして参加"),
        "{}",
        out(&o)
    );

    let o = taku(&[
        "table",
        "new",
        "--system",
        "DiceBot",
        "--db",
        &db,
        "--table-lang",
        "fr",
    ]);
    assert!(!o.status.success());
    assert!(
        err(&o).contains("'fr' は卓の言語ではありません。ja か en です"),
        "{}",
        err(&o)
    );
    assert!(err(&o).contains("ja or en"), "{}", err(&o));
    let o = taku(&["table", "list", "--db", &db]);
    assert_eq!(out(&o).lines().count(), 2, "{}", out(&o));
}
