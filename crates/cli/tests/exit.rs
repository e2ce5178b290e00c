//! How `taku` ends (issue 12, item 8): quietly when its reader has gone, with its SQLite
//! file complete on its own, and with a clear word when `--db` names a missing folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn taku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taku"))
        .args(args)
        .output()
        .expect("taku runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("taku-exit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A new table in `db`; its id.
fn new_table(db: &Path) -> String {
    let o = taku(&["table", "new", "--system", "SRS", "--db", path(db)]);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o).trim().to_string()
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Runs taku with stdout a pipe whose reading end is already closed, as after `| head`
/// has read its lines: every write fails, deterministically.
fn with_reader_gone(args: &[&str], dir: &Path) -> Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_taku"))
        .args(args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "1")
        .env_remove("TAKU_DB")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("taku runs")
}

#[test]
fn a_reader_that_has_gone_ends_taku_quietly() {
    let dir = scratch("pipe");
    let db = dir.join("taku.db");
    let id = new_table(&db);
    let deck = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/deck.txt");
    for args in [
        &["help", "DiceBot"][..],
        &["systems"],
        &["roll", "--seed", "1", "x5 2D6"],
        &["table", "log", &id],
        &["table", "exec", &id, "1D6", "hello"],
        &["mtg", "odds", "--deck", deck, "--table"],
        &["prob", "100D6"],
    ] {
        let o = with_reader_gone(args, &dir);
        let err = stderr(&o);
        assert!(
            !err.contains("panicked") && !err.contains("backtrace"),
            "{args:?}: {err}"
        );
        assert_eq!(err, "", "{args:?} says nothing");
        // 128 + SIGPIPE: what a shell reports for `cat` in the same place.
        assert_eq!(o.status.code(), Some(141), "{args:?}");
    }
    // Lines are refused after the reader has gone, never half-written: the first line
    // of the exec above ran and was stored; the second was never run.
    let o = taku(&["table", "log", "--db", path(&db), &id]);
    let log = stdout(&o);
    assert!(log.contains("gm: (1D6)"), "{log}");
    assert!(!log.contains("hello"), "{log}");
    // Even ending this way, the file alone is complete.
    assert_eq!(wal_bytes(&db), 0);
    std::fs::remove_dir_all(&dir).ok();
}

/// What `taku.db-wal` holds that `taku.db` does not yet (0 when absent).
fn wal_bytes(db: &Path) -> u64 {
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(PathBuf::from(wal)).map_or(0, |m| m.len())
}

#[test]
fn after_taku_ends_the_db_file_alone_holds_every_event() {
    let dir = scratch("wal");
    let db = dir.join("taku.db");
    let id = new_table(&db);
    for n in 0..5 {
        let o = taku(&[
            "table",
            "exec",
            "--db",
            path(&db),
            &id,
            &format!("line {n}"),
            "2D6>=7",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(wal_bytes(&db), 0, "no write-ahead log left with content");
    }
    // The backup README describes: copy taku.db alone once the process has ended.
    let copy = scratch("wal-copy").join("taku.db");
    std::fs::copy(&db, &copy).expect("copy");
    let o = taku(&["table", "log", "--db", path(&copy), &id]);
    assert!(o.status.success(), "{}", stderr(&o));
    let log = stdout(&o);
    for n in 0..5 {
        assert!(log.contains(&format!("gm: line {n}")), "{log}");
    }
    assert_eq!(log.matches("gm: (2D6>=7").count(), 5, "{log}");
    let o = taku(&["table", "verify", "--db", path(&copy), &id]);
    assert!(
        stdout(&o).contains("5 rolls replayed, 0 mismatched")
            || stdout(&o).contains("ロール 5 件・ダイスを振ったコマンド 0 件を再現、食い違い 0 件"),
        "{}",
        stdout(&o)
    );
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(copy.parent().expect("folder")).ok();
}

#[test]
fn a_db_in_a_missing_folder_says_so() {
    let dir = scratch("nofolder");
    let missing = dir.join("nope");
    let db = missing.join("taku.db");
    for args in [
        &["table", "new", "--system", "SRS", "--db", path(&db)][..],
        &["table", "list", "--db", path(&db)],
    ] {
        let o = taku(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "folder {} does not exist; create it or choose another --db path",
                missing.display()
            )),
            "{err}"
        );
        assert!(!err.contains("damaged"), "{err}");
    }
    assert!(!missing.exists(), "nothing is created");
    std::fs::remove_dir_all(&dir).ok();
}
