//! `taku repl` as a live console: run in a pseudo-terminal, it shows what other processes
//! append to its table above the line being typed, and leaves that line as it was
//! (issue 12, item 7); `:log` pages; its own texts in Japanese and English.
//!
//! Nothing here sleeps: every wait reads the terminal until the text expected appears, or
//! fails at a deadline that only a broken REPL reaches.

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::pty::{Winsize, openpty};
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Long enough for a loaded machine; reached only when the text never comes.
const DEADLINE: Duration = Duration::from_secs(30);

fn taku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taku"))
        .args(args)
        .output()
        .expect("taku runs")
}

fn ok(args: &[&str]) -> String {
    let o = taku(args);
    assert!(
        o.status.success(),
        "taku {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("taku-repl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A new DiceBot table in `db` with members bob and alice; its id.
fn table_with_bob_and_alice(db: &str) -> String {
    let id = ok(&["table", "new", "--system", "DiceBot", "--db", db])
        .trim()
        .to_string();
    ok(&["table", "exec", "--db", db, &id, "/join bob", "/join alice"]);
    id
}

/// A child process on the slave side of a pseudo-terminal, and everything it wrote.
struct Terminal {
    child: Child,
    master: File,
    output: Vec<u8>,
}

impl Terminal {
    fn spawn(args: &[&str], history: &Path) -> Terminal {
        let size = Winsize {
            ws_row: 40,
            ws_col: 200,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        let pty = openpty(&size, None).expect("a pseudo-terminal");
        let slave = File::from(pty.slave);
        let child = Command::new(env!("CARGO_BIN_EXE_taku"))
            .args(args)
            .env("TERM", "xterm")
            .env("TAKU_HISTORY", history)
            .stdin(slave.try_clone().expect("dup"))
            .stdout(slave.try_clone().expect("dup"))
            .stderr(slave)
            .spawn()
            .expect("taku runs");
        Terminal {
            child,
            master: File::from(pty.master),
            output: Vec::new(),
        }
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.output).into_owned()
    }

    /// Types `keys` (no Enter unless they end in `\r`).
    fn send(&mut self, keys: &str) {
        self.master.write_all(keys.as_bytes()).expect("type");
    }

    /// Reads until `needle` appears after byte `from` of the output; returns where it
    /// ends. Fails at the deadline, or when the REPL exits first.
    fn expect(&mut self, from: usize, needle: &str) -> usize {
        let deadline = Instant::now() + DEADLINE;
        loop {
            let seen = String::from_utf8_lossy(&self.output[from.min(self.output.len())..])
                .find(needle)
                .map(|at| from + at + needle.len());
            if let Some(end) = seen {
                return end;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "{needle:?} never appeared; the terminal shows:\n{}",
                self.text()
            );
            let mut fds = [PollFd::new(self.master.as_fd(), PollFlags::POLLIN)];
            let timeout = PollTimeout::try_from(left).unwrap_or(PollTimeout::MAX);
            if poll(&mut fds, timeout).expect("poll") == 0 {
                continue;
            }
            let mut buf = [0u8; 4096];
            match self.master.read(&mut buf) {
                Ok(n) if n > 0 => self.output.extend_from_slice(&buf[..n]),
                // EIO: every slave is closed, the REPL is gone.
                _ => panic!(
                    "the REPL exited before {needle:?} appeared:\n{}",
                    self.text()
                ),
            }
        }
    }

    /// Reads to the end of the output and waits for the REPL to exit.
    fn finish(mut self) -> String {
        let mut buf = [0u8; 4096];
        while let Ok(n) = self.master.read(&mut buf) {
            if n == 0 {
                break;
            }
            self.output.extend_from_slice(&buf[..n]);
        }
        let status = self.child.wait().expect("the REPL exits");
        assert!(status.success(), "{status}: {}", self.text());
        self.text()
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        // A failed test must not leave its REPL running.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The core of the live console, on any store: a line typed halfway stays as it is while
/// another process's line is printed above it, then runs as typed.
fn a_line_from_elsewhere_leaves_the_line_being_typed_intact(db: &str, dir: &Path) {
    let id = table_with_bob_and_alice(db);
    let mut repl = Terminal::spawn(
        &["repl", "--db", db, "--table", &id, "--lang", "en"],
        &dir.join("history"),
    );
    let prompt = repl.expect(0, "gm> ");
    repl.send("hello fr");
    repl.expect(prompt, "hello fr");

    ok(&["table", "exec", "--db", db, &id, "--as", "bob", "hello"]);
    let bob = repl.expect(prompt, "#4 bob: hello");
    // Redrawn below bob's line: the prompt and what was typed so far.
    let redrawn = repl.expect(bob, "gm> hello fr");

    repl.send("om gm\r");
    let own = repl.expect(redrawn, "#5 gm: hello from gm");

    // Another's secret roll, as the GM sees it; then as alice, after `:as alice`.
    ok(&["table", "exec", "--db", db, &id, "--as", "bob", "S2D6"]);
    let secret = repl.expect(own, "#6 bob (secret): ");
    repl.send(":as alice\r");
    let alice = repl.expect(secret, "alice> ");
    ok(&["table", "exec", "--db", db, &id, "--as", "bob", "S2D6"]);
    let hidden = repl.expect(alice, "#7 secret roll by bob (commitment ");
    repl.send(":quit\r");
    let all = repl.finish();

    assert!(
        !all[alice..].contains("#7 bob (secret)"),
        "alice saw bob's secret roll: {all}"
    );
    // The follower has printed #6 and #7, so it went past #5: printed once, by the line.
    assert_eq!(all.matches("#5 gm: hello from gm").count(), 1, "{all}");
    assert_eq!(all.matches("#4 bob: hello").count(), 1, "{all}");
    assert!(hidden > own);
    // The line ran as typed, and went to the table so.
    let log = ok(&["table", "log", "--db", db, &id]);
    assert!(log.contains("#5 gm: hello from gm\n"), "{log}");
}

#[test]
fn on_sqlite_others_lines_appear_above_the_line_being_typed() {
    let dir = temp_dir("live-sqlite");
    let db = dir.join("t.db");
    a_line_from_elsewhere_leaves_the_line_being_typed_intact(
        db.to_str().expect("utf-8 path"),
        &dir,
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// On PostgreSQL the lines come from the store's notices. Needs the server `TAKU_TEST_PG`
/// names (tools/test-all.sh starts one); fails, never skips, without it.
#[test]
fn on_postgresql_others_lines_appear_above_the_line_being_typed() {
    let url = std::env::var("TAKU_TEST_PG").unwrap_or_else(|_| {
        panic!("TAKU_TEST_PG=postgres://… is needed (tools/test-all.sh starts a server)")
    });
    let dir = temp_dir("live-pg");
    a_line_from_elsewhere_leaves_the_line_being_typed_intact(&url, &dir);
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs the REPL with `script` on its standard input (no terminal: no line editing).
fn repl_script(args: &[&str], env: &[(&str, &str)], script: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_taku"));
    command
        .arg("repl")
        .args(args)
        .env_remove("LANG")
        .env_remove("TAKU_LANG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("taku runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("taku finishes")
}

#[test]
fn log_pages_back_from_the_end_and_forward_from_a_seq() {
    let dir = temp_dir("log");
    let db = dir.join("t.db");
    let db = db.to_str().expect("utf-8 path");
    let id = ok(&["table", "new", "--system", "DiceBot", "--db", db])
        .trim()
        .to_string();
    let lines: Vec<String> = (2..=31).map(|i| format!("line {i}")).collect();
    let mut args = vec!["table", "exec", "--db", db, &id];
    args.extend(lines.iter().map(String::as_str));
    ok(&args);
    let history = dir.join("history");
    let o = repl_script(
        &["--db", db, "--table", &id, "--lang", "en"],
        &[("TAKU_HISTORY", history.to_str().expect("utf-8 path"))],
        ":log\n:log more\n:log more\n:log 3\n:log from #5\n:log more\n:log more\n:log all\n:log x\n",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let entry = |seq: u64| {
        if seq == 1 {
            "#1 table 'table' (DiceBot) created by gm".to_string()
        } else {
            format!("#{seq} gm: line {seq}")
        }
    };
    let mut expected = Vec::new();
    let mut page = |seqs: &[std::ops::RangeInclusive<u64>], note: Option<&str>| {
        expected.extend(seqs.iter().cloned().flatten().map(entry));
        expected.extend(note.map(str::to_string));
    };
    page(&[12..=31], Some("(earlier entries: :log more)"));
    page(&[1..=11], None);
    page(&[], Some("(the start of the log)"));
    page(&[29..=31], Some("(earlier entries: :log more)"));
    page(&[5..=24], Some("(later entries: :log more)"));
    page(&[25..=31], None);
    page(&[], Some("(the end of the log)"));
    page(&[1..=31], None);
    let got: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(got, expected, "{out}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cannot read ':log x'"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_repl_speaks_japanese_unless_asked_for_english() {
    let dir = temp_dir("lang");
    let db = dir.join("t.db");
    let db = db.to_str().expect("utf-8 path");
    let history = dir.join("history");
    let history = history.to_str().expect("utf-8 path");
    let help = |args: &[&str], env: &[(&str, &str)]| {
        let mut all = vec![("TAKU_HISTORY", history)];
        all.extend_from_slice(env);
        let mut a = vec!["--db", db];
        a.extend_from_slice(args);
        let o = repl_script(&a, &all, ":help\n:nope\n");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    // No LANG, a locale in neither language, or Japanese: Japanese.
    for env in [&[][..], &[("LANG", "C.UTF-8")], &[("LANG", "ja_JP.UTF-8")]] {
        let (out, err) = help(&[], env);
        assert!(out.starts_with("卓 "), "{env:?}: {out}");
        assert!(
            out.contains("REPLのコマンド") && out.contains(":log from 番号"),
            "{out}"
        );
        assert!(
            err.contains("':nope' というREPLのコマンドはありません"),
            "{err}"
        );
    }
    // English from LANG, TAKU_LANG or --lang; --lang over TAKU_LANG over LANG.
    for (args, env) in [
        (&[][..], &[("LANG", "en_US.UTF-8")][..]),
        (&[], &[("TAKU_LANG", "en"), ("LANG", "ja_JP.UTF-8")]),
        (&["--lang", "en"], &[("TAKU_LANG", "ja")]),
    ] {
        let (out, err) = help(args, env);
        assert!(out.starts_with("table "), "{args:?} {env:?}: {out}");
        assert!(
            out.contains("REPL commands") && out.contains(":log from SEQ"),
            "{out}"
        );
        assert!(err.contains("unknown REPL command ':nope'"), "{err}");
    }
    let o = taku(&["repl", "--db", db, "--lang", "fr"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("'fr' is not a language taku speaks"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}
