//! `taku bcdice install`, `--bcdice-js` and the reference engine through the CLI: a system
//! taku does not carry answers once set up, and says how to set it up when it is not.
//!
//! Needs Node.js and npm (tools/bcdice-js.sh installs them and fills npm's cache, so the
//! install here works offline). Fails, never skips, without.

use std::process::{Command, Output};

fn taku(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_taku"));
    cmd.args(args)
        .env_remove("TAKU_BCDICE_JS")
        .env("XDG_DATA_HOME", data_home())
        .env("TAKU_LANG", "ja");
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("taku runs")
}

fn data_home() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("taku-cli-ref-{}", std::process::id()))
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn install_then_every_bcdice_system_answers() {
    let _ = std::fs::remove_dir_all(data_home());
    // Not set up: native systems work, a reference id is unknown with the way to enable it.
    let o = taku(
        &["roll", "--system", "DiceBot", "--rands", "6:3,6:4", "2D6"],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    let o = taku(&["roll", "--system", "Cthulhu7th", "CC<=50"], &[]);
    assert!(!o.status.success());
    assert!(text(&o).contains("taku bcdice install"), "{}", text(&o));
    let o = taku(&["bcdice", "status"], &[]);
    assert!(!o.status.success());
    assert!(text(&o).contains("taku bcdice install"), "{}", text(&o));

    let o = taku(&["bcdice", "install"], &[]);
    assert!(o.status.success(), "{}", text(&o));
    let o = taku(&["bcdice", "status"], &[]);
    assert!(o.status.success(), "{}", text(&o));
    let o = taku(
        &[
            "roll",
            "--system",
            "Cthulhu7th",
            "--rands",
            "10:4,10:7",
            "CC<=50",
        ],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "(1D100<=50) ボーナス・ペナルティダイス[0] ＞ 47 ＞ 47 ＞ レギュラー成功"
    );
    let o = taku(&["systems"], &[]);
    let listed = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(listed.contains("Cthulhu7th\t新クトゥルフ神話TRPG\tBCDice (JS)\n"));
    assert!(listed.contains("DiceBot\tDiceBot\ttaku\n"));
    let o = taku(&["prob", "--system", "Cthulhu7th", "CC<=50"], &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("1/2"), "{}", text(&o));
}
