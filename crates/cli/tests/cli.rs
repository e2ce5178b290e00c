//! The `taku` binary end to end: output, exit status and error reports.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn taku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taku"))
        // These tests read the English wording; Japanese output is tested on its own.
        .env("TAKU_LANG", "en")
        .args(args)
        .output()
        .expect("taku runs")
}

fn taku_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_taku"))
        // These tests read the English wording; Japanese output is tested on its own.
        .env("TAKU_LANG", "en")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("taku runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("taku finishes")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn roll_with_scripted_dice_prints_bcdice_text() {
    let o = taku(&["roll", "--rands", "6:3,6:4", "2D6+4>=10"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "(2D6+4>=10) ＞ 7[3,4]+4 ＞ 11 ＞ 成功\n");
}

#[test]
fn flags_may_follow_a_multi_word_command() {
    let o = taku(&["roll", "x2", "1D6", "--rands", "6:1,6:2"]);
    assert_eq!(stdout(&o), "#1\n(1D6) ＞ 1\n\n#2\n(1D6) ＞ 2\n");
}

#[test]
fn full_width_input_is_folded_unless_strict() {
    let o = taku(&["roll", "--rands", "6:6,6:6", "２Ｄ６＞＝１０　判定"]);
    assert_eq!(stdout(&o), "(2D6>=10) ＞ 12[6,6] ＞ 12 ＞ 成功\n");
    let o = taku(&["roll", "--strict", "--rands", "6:6,6:6", "２Ｄ６＞＝１０"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unsupported command"), "{}", stderr(&o));
}

#[test]
fn parse_error_puts_a_caret_under_the_column() {
    let o = taku(&["roll", "2D6+>=7"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("  2D6+>=7\n      ^^\n"), "{err}");
    assert!(err.contains("DiceBot help:"), "{err}");
}

#[test]
fn caret_counts_full_width_characters_as_two_columns() {
    let o = taku(&["roll", "２Ｄ６+>=7"]);
    let err = stderr(&o);
    assert!(err.contains("  ２Ｄ６+>=7\n         ^^\n"), "{err}");
}

#[test]
fn unknown_system_lists_the_known_ones() {
    let o = taku(&["roll", "--system", "Nope", "2D6"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("unknown game system 'Nope'"), "{err}");
    assert!(err.contains("DiceBot") && err.contains("SRS"), "{err}");
}

#[test]
fn engine_errors_exit_1_without_a_debug_dump() {
    let o = taku(&["roll", "C(1/0U)"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "error: division by zero\n");
}

#[test]
fn batch_writes_one_json_line_per_input_line() {
    let o = taku_stdin(
        &["roll", "--json", "--rands", "6:1,6:2,6:3", "-"],
        "2D6\nhello\r\n1D6\n",
    );
    let lines: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].starts_with(r#"{"ok":true,"text":"(2D6) ＞ 3[1,2] ＞ 3","secret":false"#));
    assert!(lines[0].contains(r#""rands":[{"kind":"normal","sides":6,"value":1}"#));
    assert!(lines[1].starts_with(r#"{"ok":false,"reason":"unsupported command"#));
    assert!(lines[2].contains(r#""text":"(1D6) ＞ 3""#));
    assert_eq!(
        o.status.code(),
        Some(1),
        "a line without a result fails the batch"
    );
}

#[test]
fn systems_and_help() {
    let o = taku(&["systems"]);
    assert!(stdout(&o).starts_with("DiceBot\tDiceBot\ttaku\n"));
    assert!(stdout(&o).contains("Sengensyou\t千幻抄\ttaku\n"));
    let o = taku(&["help", "SRS"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("2D6+2@11#3>=10"));
}

#[test]
fn conform_reports_each_failure_and_the_totals() {
    let dir = std::env::temp_dir().join(format!("taku-conform-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("cases.toml");
    std::fs::write(
        &file,
        r#"
[[ test ]]
game_system = "DiceBot"
input = "2D6"
output = "(2D6) ＞ 7[3,4] ＞ 7"
rands = [{ sides = 6, value = 3 }, { sides = 6, value = 4 }]

[[ test ]]
game_system = "DiceBot"
input = "1D6"
output = "(1D6) ＞ 5"
rands = [{ sides = 6, value = 4 }]

[[ test ]]
game_system = "NoSuchSystem"
input = "1D6"
output = ""
rands = []
"#,
    )
    .expect("write vectors");
    let o = taku(&["conform", dir.to_str().expect("utf-8 path")]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        out.contains("cases.toml:1  DiceBot  input \"1D6\""),
        "{out}"
    );
    assert!(out.contains("got      \"(1D6) ＞ 4\""), "{out}");
    assert!(out.contains("cases.toml:2  NoSuchSystem"), "{out}");
    assert!(out.contains("unknown game system 'NoSuchSystem'"), "{out}");
    assert!(out.ends_with("1 passed, 2 failed\n"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_table_from_the_command_line_keeps_secrets_per_member() {
    let dir = std::env::temp_dir().join(format!("taku-cli-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db = dir.join("t.db");
    let db = db.to_str().expect("utf-8 path");

    let o = taku(&[
        "table", "new", "--system", "SRS", "--db", db, "--name", "卓",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let id = stdout(&o).trim().to_string();
    assert_eq!(id.len(), 16, "only the id is printed: {id:?}");

    let o = taku(&["table", "exec", "--db", db, &id, "/join alice", "/join bob"]);
    assert_eq!(
        stdout(&o),
        "#2 alice joined as player\n#3 bob joined as player\n"
    );
    let o = taku(&[
        "table", "exec", "--db", db, &id, "--as", "alice", "S2D6>=7", "hi",
    ]);
    let alice = stdout(&o);
    assert!(
        alice.starts_with("#4 alice (secret): (2D6>=7[12,2]) ＞ "),
        "{alice}"
    );
    assert!(alice.ends_with("#5 alice: hi\n"), "{alice}");

    let bob = stdout(&taku(&["table", "log", "--db", db, &id, "--as", "bob"]));
    assert!(
        bob.contains("#4 secret roll by alice (commitment "),
        "{bob}"
    );
    assert!(!bob.contains("(2D6>=7"), "bob saw the secret: {bob}");
    let gm = stdout(&taku(&["table", "log", "--db", db, &id]));
    assert!(gm.contains("#4 alice (secret): (2D6>=7"), "{gm}");

    let o = taku(&[
        "table",
        "exec",
        "--db",
        db,
        &id,
        "--as",
        "bob",
        "/reveal 4",
        "2D6",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("only its roller or the GM can reveal #4"));
    assert_eq!(stdout(&o), "", "lines after a refused one do not run");

    let o = taku(&["table", "verify", "--db", db, &id]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "1 rolls replayed, 0 mismatched\n");
    assert!(
        stdout(&taku(&["table", "list", "--db", db]))
            .starts_with(&format!("{id}\tSRS\t卓\t5 events"))
    );

    std::fs::write(dir.join("notes.txt"), "shopping list").expect("write");
    let o = taku(&[
        "table",
        "list",
        "--db",
        dir.join("notes.txt").to_str().expect("path"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("notes.txt is not a taku database"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Where table tests keep their data: a SQLite file in a fresh directory, and the
/// PostgreSQL server `TAKU_TEST_PG` names (tools/test-all.sh starts one; without it the
/// PostgreSQL half fails rather than skips).
fn table_dbs(name: &str) -> (std::path::PathBuf, [String; 2]) {
    let dir = std::env::temp_dir().join(format!("taku-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let sqlite = dir.join("t.db").to_str().expect("utf-8 path").to_string();
    let pg = std::env::var("TAKU_TEST_PG").unwrap_or_else(|_| {
        panic!("TAKU_TEST_PG=postgres://… is needed (tools/test-all.sh starts a server)")
    });
    (dir, [sqlite, pg])
}

#[test]
fn kill_9_loses_no_acknowledged_event_and_leaves_the_table_loadable() {
    let (dir, dbs) = table_dbs("kill");
    for db in &dbs {
        kill_9_on(db);
    }
    std::fs::remove_dir_all(&dir).ok();
}

fn kill_9_on(db: &str) {
    use std::io::{BufRead, BufReader};
    let id = stdout(&taku(&["table", "new", "--system", "DiceBot", "--db", db]))
        .trim()
        .to_string();
    assert_eq!(id.len(), 16, "{db}: {id:?}");

    let lines: Vec<String> = (0..400).map(|i| format!("line {i}")).collect();
    // Kill after different numbers of acknowledgements, several times over one table.
    for stop_after in [1usize, 7, 33] {
        let mut args = vec!["table", "exec", "--db", db, id.as_str()];
        args.extend(lines.iter().map(String::as_str));
        let mut child = Command::new(env!("CARGO_BIN_EXE_taku"))
            // These tests read the English wording; Japanese output is tested on its own.
            .env("TAKU_LANG", "en")
            .args(&args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("taku runs");
        let mut acknowledged = Vec::new();
        let mut out = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut buf = String::new();
        while acknowledged.len() < stop_after && out.read_line(&mut buf).expect("read") > 0 {
            acknowledged.push(buf.trim_end().to_string());
            buf.clear();
        }
        child.kill().expect("kill -9");
        child.wait().expect("reaped");

        let log = taku(&["table", "log", "--db", db, &id]);
        assert!(
            log.status.success(),
            "{db}: table no longer loads: {}",
            stderr(&log)
        );
        let log = stdout(&log);
        for ack in &acknowledged {
            assert!(
                log.lines().any(|l| l == ack),
                "{db}: acknowledged {ack:?} is missing"
            );
        }
        let seqs: Vec<u64> = log
            .lines()
            .map(|l| l[1..l.find(' ').expect("seq")].parse().expect("seq number"))
            .collect();
        assert_eq!(
            seqs,
            (1..=seqs.len() as u64).collect::<Vec<_>>(),
            "{db}: gap in the log"
        );
    }
}

/// Every way a member can get output from a table, as that member: `table exec` (text and
/// JSON, replies and refusals), `table log` (text and JSON), and the REPL.
fn every_output_path(db: &str, id: &str, member: &str, probe_seq: u64) -> Vec<(String, String)> {
    let reveal = format!("/reveal {probe_seq}");
    let exec_lines = [
        "2D6",
        "chat",
        "/help",
        "/char show ミナ",
        reveal.as_str(),
        "/undo",
        "/nonsense",
        "2D6+{秘密}",
        "/char set ミナ HP 1",
    ];
    let mut outputs = Vec::new();
    let mut record = |what: String, o: Output| {
        outputs.push((what, format!("{}{}", stdout(&o), stderr(&o))));
    };
    for line in exec_lines {
        for json in [false, true] {
            let mut args = vec!["table", "exec", "--db", db, id, "--as", member, line];
            if json {
                args.push("--json");
            }
            record(format!("exec {line:?} json={json}"), taku(&args));
        }
    }
    for json in [false, true] {
        let mut args = vec!["table", "log", "--db", db, id, "--as", member];
        if json {
            args.push("--json");
        }
        record(format!("log json={json}"), taku(&args));
    }
    let script = format!(":log\n/char show ミナ\n{reveal}\n:verify\n:as gm\n");
    record(
        "repl".into(),
        taku_stdin(
            &["repl", "--db", db, "--table", id, "--as", member],
            &script,
        ),
    );
    outputs
}

#[test]
fn a_secret_roll_never_reaches_a_member_who_may_not_see_it_on_any_path() {
    let (dir, dbs) = table_dbs("secrecy");
    for db in &dbs {
        let id = stdout(&taku(&["table", "new", "--system", "SRS", "--db", db]))
            .trim()
            .to_string();
        let setup = taku(&[
            "table",
            "exec",
            "--db",
            db,
            &id,
            "/join alice",
            "/join bob",
            "/join sam as spectator",
            "/char new ミナ",
        ]);
        assert!(setup.status.success(), "{}", stderr(&setup));
        // #6: alice's secret roll. Its result text is what must not leak.
        let o = taku(&[
            "table",
            "exec",
            "--db",
            db,
            &id,
            "--as",
            "alice",
            "--json",
            "S2D6+1>=7",
        ]);
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON line");
        assert_eq!(v["seq"], 6);
        let text = v["text"].as_str().expect("text").to_string();
        let secret = text
            .strip_prefix("#6 alice (secret): ")
            .expect("alice sees her own roll")
            .to_string();
        // The part after the command: the dice and the outcome.
        let (command, result) = secret.split_once(") ＞ ").expect("a result");
        assert_eq!(command, "(2D6+1>=7[12,2]", "{secret}");
        let result = format!("＞ {result}");
        let gm_log = stdout(&taku(&["table", "log", "--db", db, &id]));
        let commitment = stdout(&taku(&["table", "log", "--db", db, &id, "--as", "bob"]))
            .lines()
            .find_map(|l| {
                l.strip_prefix("#6 secret roll by alice (commitment ")
                    .map(|c| c.trim_end_matches(')').to_string())
            })
            .expect("bob sees the commitment");
        assert_eq!(commitment.len(), 64);

        for member in ["bob", "sam"] {
            let outputs = every_output_path(db, &id, member, 6);
            assert!(outputs.len() >= 21, "{} paths", outputs.len());
            for (path, out) in &outputs {
                assert!(
                    !out.contains(&result) && !out.contains(&secret),
                    "{db}: {member} saw alice's secret via {path}: {out}"
                );
            }
            let logs: String = outputs
                .iter()
                .filter(|(p, _)| p.starts_with("log") || p == "repl")
                .map(|(_, o)| o.as_str())
                .collect();
            assert!(logs.contains(&commitment), "{member} sees the commitment");
        }
        // The GM and alice see it; once alice reveals it, everyone does.
        assert!(gm_log.contains(&secret), "{gm_log}");
        let o = taku(&[
            "table",
            "exec",
            "--db",
            db,
            &id,
            "--as",
            "alice",
            "/reveal 6",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let sam = stdout(&taku(&["table", "log", "--db", db, &id, "--as", "sam"]));
        assert!(sam.contains(&result), "{sam}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_repl_runs_lines_as_members_and_keeps_history() {
    let (dir, _) = table_dbs("repl");
    let db = dir.join("r.db");
    let history = dir.join("history");
    let o = Command::new(env!("CARGO_BIN_EXE_taku"))
        // These tests read the English wording; Japanese output is tested on its own.
        .env("TAKU_LANG", "en")
        .args([
            "repl",
            "--lang",
            "en",
            "--system",
            "SRS",
            "--db",
            db.to_str().expect("path"),
        ])
        .env("TAKU_HISTORY", &history)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().expect("stdin").write_all(
                b"/join alice\n:as alice\n2D6>=7\n/join eve\n:as nobody\n:nope\n:quit\nnever run\n",
            )?;
            c.wait_with_output()
        })
        .expect("repl runs");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let first = out.lines().next().expect("banner");
    assert!(
        first.starts_with("table ") && first.contains("(SRS)"),
        "{first}"
    );
    assert!(out.contains("#2 alice joined as player"), "{out}");
    assert!(out.contains("#3 alice: (2D6>=7[12,2]) ＞ "), "{out}");
    let err = stderr(&o);
    assert!(
        err.contains("refused: /join eve: only the GM can add members"),
        "{err}"
    );
    assert!(
        err.contains("'nobody' is not a member of this table"),
        "{err}"
    );
    assert!(err.contains("unknown REPL command ':nope'"), "{err}");
    assert!(!out.contains("never run"), "lines after :quit do not run");
    let saved = std::fs::read_to_string(&history).expect("history saved");
    assert!(
        saved.contains("2D6>=7") && saved.contains(":as alice"),
        "{saved}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn help_for_another_world_lists_every_command_in_japanese() {
    let o = taku(&["help", "AnotherWorld"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let help = stdout(&o);
    assert!(
        help.starts_with("アナザーワールドSRS (AnotherWorld)"),
        "{help}"
    );
    for example in [
        "AW+4>=10",
        "AW+5 VS AW+3",
        "AW+5 VS 8",
        "/combat start",
        "/supply lack",
        "/contract ミナ ロイ",
        "/spell ミナ",
        "/key give",
        "/af start",
        "/af preset",
    ] {
        assert!(help.contains(example), "taku help lacks {example}");
    }
}

/// lotr7 F12 and F9: `taku roll --lang en` prints a LotR test in English, as an English
/// table does (the winner's margin, LR-11); strict mode keeps the text as rolled; the help's
/// title is the system's English name.
#[test]
fn a_lotr_roll_and_help_read_in_english_with_lang_en() {
    let o = taku(&[
        "roll",
        "-s",
        "LotrCoda",
        "--lang",
        "en",
        "--rands",
        "6:1,6:2,6:2,6:3",
        "LOTR+0 VS LOTR+3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("left 3[1,2]") && out.contains("right wins (margin +5: Complete Success)"),
        "{out}"
    );
    assert!(!out.contains('左') && !out.contains('（'), "{out}");
    let o = taku(&["help", "LotrCoda", "--lang", "en"]);
    let out = stdout(&o);
    assert!(
        out.starts_with("The Lord of the Rings RPG (CODA) (LotrCoda)"),
        "{out}"
    );
}
