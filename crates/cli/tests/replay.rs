//! `taku roll --rands` and `taku table verify` as a Japanese-speaking user meets them
//! (issue 14): refusals in Japanese by default, and verify replaying the dice that
//! `/fc create` drew, counted apart from the rolls.

use std::path::PathBuf;
use std::process::{Command, Output};

/// `taku` with no language chosen by the environment: Japanese applies.
fn taku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taku"))
        .env_remove("TAKU_LANG")
        .env_remove("LANG")
        .args(args)
        .output()
        .expect("taku runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("taku-cli-replay-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    dir
}

#[test]
fn scripted_dice_errors_are_japanese_by_default() {
    // Too few scripted dice for a comparison roll (FC-11 rolls 2D6 a side).
    let o = taku(&[
        "roll",
        "--system",
        "FourCard",
        "--rands",
        "6:3,6:3",
        "FC+4 VS 10",
    ]);
    let t = text(&o);
    assert!(!o.status.success());
    assert!(t.contains("3 番目のダイスとして d6 が必要"), "{t}");
    assert!(!t.contains("asked for"), "{t}");
    for (spec, ja) in [
        ("6-3", "面数:出目 の形ではありません"),
        ("x:3", "ダイスの面数ではありません"),
        ("6:x", "ダイスの出目ではありません"),
        ("6:7", "d6 に 7 の目はありません"),
    ] {
        let o = taku(&["roll", "--rands", spec, "2D6"]);
        let t = text(&o);
        assert!(!o.status.success() && t.contains(ja), "{spec}: {t}");
    }
}

#[test]
fn verify_replays_the_dice_of_fc_create_in_japanese() {
    let dir = scratch("verify");
    let db = dir.join("taku.db").display().to_string();
    let o = taku(&["table", "new", "--system", "FourCard", "--db", &db]);
    assert!(o.status.success(), "{}", text(&o));
    let id = String::from_utf8_lossy(&o.stdout).trim().to_string();
    let o = taku(&[
        "table",
        "exec",
        "--db",
        &db,
        &id,
        "/char new ユキ",
        "/fc create ユキ female",
        "FC+3>=10",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = taku(&["table", "verify", "--db", &db, &id]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("ロール 1 件・ダイスを振ったコマンド 1 件を再現、食い違い 0 件"),
        "{t}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_four_card_sheet_missing_fields_is_refused_in_japanese() {
    let dir = scratch("sheet");
    let file = dir.join("s1.toml");
    std::fs::write(&file, "name = \"ミナ\"\n").expect("write");
    let o = taku(&["sheet", "--system", "FourCard", &file.display().to_string()]);
    let t = text(&o);
    assert!(!o.status.success());
    assert!(
        t.contains("フォーカードのキャラクターシートとして読めません"),
        "{t}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
