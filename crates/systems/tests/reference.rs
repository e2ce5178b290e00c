//! The reference engine (BCDice's JavaScript build) for the systems taku does not carry:
//! BCDice 3.16.1's test data through it, randomness from taku's source, the registry's
//! choice of engine, and containment of hostile or broken workers.
//!
//! Needs Node.js and npm `bcdice` 4.9.0 under `tools/bcdice-oracle` (or the directory
//! named by TAKU_TEST_BCDICE_JS); `tools/bcdice-js.sh` installs them and README's test
//! command runs it first. Nothing here skips when they are missing: it fails saying so.

use std::path::{Path, PathBuf};
use std::sync::Once;
use std::time::Duration;

use taku_dice::{
    ChaChaSource, DrawKind, EngineFailure, EvalError, Mode, ScriptedDraw, ScriptedSource,
    Unrecorded,
};
use taku_systems::reference::{self, Config, Engine};
use taku_systems::{EngineKind, GameSystem, conformance};

fn package_dir() -> PathBuf {
    match std::env::var_os("TAKU_TEST_BCDICE_JS") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/bcdice-oracle"),
    }
}

/// Sets the process's reference engine up once, failing loudly when it cannot be.
fn setup() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let dir = package_dir();
        assert!(
            dir.join("node_modules/bcdice/package.json").is_file(),
            "npm bcdice is not installed in {}: run tools/bcdice-js.sh",
            dir.display()
        );
        let mut config = Config::new(dir);
        config.time_limit = Duration::from_secs(20);
        assert!(reference::configure(Some(config)).expect("engine opens"));
    });
}

fn system(id: &str) -> &'static dyn GameSystem {
    setup();
    taku_systems::find(id).unwrap_or_else(|| panic!("{id} is listed"))
}

/// Every case of the 292 system files of BCDice 3.16.1's test data, with scripted dice.
/// The one known difference: the JS build prints a full-width ％ where the Ruby test data
/// has `%` (KillDeathBusiness `POT`); taku reports what the engine prints.
#[test]
fn bcdice_3_16_1_test_data_of_every_other_system_passes() {
    setup();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference-data/bcdice-3.16.1");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("vector directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 292);
    let (mut cases, mut failures) = (0, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).expect("vector file");
        let vectors = conformance::parse_vectors(&text).expect("vectors parse");
        for v in &vectors {
            cases += 1;
            if conformance::check(v).is_err() {
                failures.push(format!(
                    "{} {}",
                    file.file_name().expect("a file name").to_string_lossy(),
                    v.input
                ));
            }
        }
    }
    assert_eq!(cases, 17_623);
    assert_eq!(failures, ["KillDeathBusiness.toml POT"]);
}

#[test]
fn registry_keeps_verified_native_systems_and_hands_the_rest_to_the_reference_engine() {
    assert_eq!(system("DiceBot").engine(), EngineKind::Native);
    assert_eq!(system("SRS").engine(), EngineKind::Native);
    assert_eq!(system("Sengensyou").engine(), EngineKind::Native);
    // StellarKnights passes 1 of 107 of its BCDice cases natively: the reference answers.
    assert_eq!(system("StellarKnights").engine(), EngineKind::Reference);
    assert_eq!(system("Cthulhu7th").engine(), EngineKind::Reference);
    // taku's own games, which BCDice does not have, stay.
    assert_eq!(system("AnotherWorld").engine(), EngineKind::Native);
    let all = taku_systems::systems();
    assert!(all.len() > 290, "{} systems", all.len());
    let mut ids: Vec<&str> = all.iter().map(|s| s.id()).collect();
    let keys: Vec<&str> = all.iter().map(|s| s.sort_key()).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    ids.sort_unstable();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "ids are unique");
    let c7 = system("Cthulhu7th");
    assert!(c7.help().ja().contains("CC"));
    assert!(!taku_systems::command_pattern(c7).is_empty());
}

#[test]
fn a_reference_roll_draws_from_taku_source_with_kinds_and_replays() {
    let c7 = system("Cthulhu7th");
    let mut dice = ChaChaSource::from_seed(7);
    let first = taku_systems::evaluate(c7, "CC1<=50", &mut dice, Mode::Strict).expect("rolls");
    assert!(first.rands.iter().any(|d| d.kind == DrawKind::TensD10));
    // bcdice-api reports a tens d10 read as 0..90 (spec §4); the draw itself keeps its face.
    let json = taku_systems::bcdice_json(&first);
    for (draw, reported) in first
        .rands
        .iter()
        .zip(json["rands"].as_array().expect("rands"))
    {
        assert!((1..=10).contains(&draw.value));
        if draw.kind == DrawKind::TensD10 {
            assert_eq!(reported["value"], (draw.value % 10) * 10);
        }
    }
    // The same seed gives the same roll; the recorded draws, scripted, give it again.
    let mut again = ChaChaSource::from_seed(7);
    let second = taku_systems::evaluate(c7, "CC1<=50", &mut again, Mode::Strict).expect("rolls");
    assert_eq!(first, second);
    let mut script = ScriptedSource::new(first.rands.iter().map(|d| ScriptedDraw {
        sides: d.sides,
        value: d.value,
    }));
    let replayed = taku_systems::evaluate(c7, "CC1<=50", &mut script, Mode::Strict).expect("rolls");
    assert_eq!(replayed.text, first.text);
    // A script that runs out is the source's refusal, as for a native system.
    let mut short = ScriptedSource::new([]);
    assert!(matches!(
        taku_systems::evaluate(c7, "CC1<=50", &mut short, Mode::Strict),
        Err(EvalError::Draw(_))
    ));
    // BCDice's own dice limit reads as taku's; brackets too deep never reach the engine.
    let mut dice = ChaChaSource::from_seed(2);
    assert_eq!(
        taku_systems::evaluate(c7, "10001D6", &mut dice, Mode::Strict),
        Err(EvalError::TooManyDice { limit: 10_000 })
    );
    let deep = format!("{}1{}D6", "(".repeat(200), ")".repeat(200));
    assert_eq!(
        taku_systems::evaluate(c7, &deep, &mut dice, Mode::Strict),
        Err(EvalError::Engine(EngineFailure::TooDeep { limit: 64 }))
    );
    // No command: no result, as BCDice.
    let mut dice = ChaChaSource::from_seed(1);
    assert!(matches!(
        taku_systems::evaluate(c7, "こんにちは", &mut dice, Mode::Strict),
        Err(EvalError::Unsupported(None))
    ));
}

/// A stand-in package whose game systems misbehave on purpose, in a fresh directory.
fn fake_engine(name: &str, workers: usize) -> Engine {
    fake_engine_with(name, workers, Duration::from_millis(1500))
}

/// [`fake_engine`] with its own time limit.
fn fake_engine_with(name: &str, workers: usize, time_limit: Duration) -> Engine {
    let dir = std::env::temp_dir().join(format!("taku-fake-bcdice-{name}-{}", std::process::id()));
    let pkg = dir.join("node_modules/bcdice");
    std::fs::create_dir_all(pkg.join("lib/bcdice")).expect("fake package dir");
    std::fs::write(
        pkg.join("package.json"),
        r#"{"name":"bcdice","version":"4.9.0","main":"index.js"}"#,
    )
    .expect("package.json");
    let list: Vec<String> = ["Echo", "Loop", "Crash", "Hog", "Many", "Branch", "Pid"]
        .iter()
        .map(|id| format!(r#"{{"id":"{id}","name":"{id}","sortKey":"{id}"}}"#))
        .collect();
    std::fs::write(
        pkg.join("lib/bcdice/game_system_list.json"),
        format!(r#"{{"gameSystems":[{}]}}"#, list.join(",")),
    )
    .expect("list");
    std::fs::write(
        pkg.join("index.js"),
        r#"
class Game {
  constructor(id, input) { this.id = id; this.input = input; this.randomizer = { $random() { return 1; } }; }
  eval() {
    const r = (s) => this.randomizer.$random(s);
    switch (this.id) {
      case 'Echo': { const v = r(6); return { text: `${this.input} > ${v}`, detailedRands: [{ kind: 'normal', sides: 6, value: v }] }; }
      case 'Loop': for (;;) {}
      case 'Crash': process.exit(3);
      case 'Hog': { const a = []; for (;;) a.push(new Array(1e6).fill(1)); }
      case 'Many': { for (let i = 0; i < 20000; i++) r(6); return { text: 'many', detailedRands: [] }; }
      case 'Pid': return { text: String(process.pid), detailedRands: [] };
      case 'Branch': { const a = r(6); const b = a === 6 ? r(10) : r(4); return { text: `${a},${b}`, detailedRands: [{ kind: 'normal', sides: 6, value: a }, { kind: 'normal', sides: a === 6 ? 10 : 4, value: b }] }; }
    }
  }
}
class DynamicLoader {
  async dynamicLoad(id) {
    const C = class extends Game { constructor(input) { super(id, input); } };
    C.HELP_MESSAGE = `${id} help`; C.COMMAND_PATTERN = /^X/;
    return C;
  }
}
module.exports = { DynamicLoader };
"#,
    )
    .expect("index.js");
    let mut config = Config::new(&dir);
    config.workers = workers;
    config.time_limit = time_limit;
    config.memory_mib = 48;
    Engine::open(config).expect("fake engine opens")
}

#[test]
fn a_hung_crashed_or_greedy_worker_is_answered_and_replaced() {
    let engine = fake_engine("contain", 1);
    let mut dice = ChaChaSource::from_seed(3);
    let ok = engine
        .evaluate("Echo", "hi", &mut dice)
        .expect("echo answers");
    assert_eq!(ok.rands.len(), 1);
    assert!(ok.text.starts_with("hi > "));
    assert_eq!(
        engine.evaluate("Loop", "x", &mut dice),
        Err(EvalError::Engine(EngineFailure::TimedOut { ms: 1500 }))
    );
    assert!(engine.evaluate("Echo", "after a hang", &mut dice).is_ok());
    assert!(matches!(
        engine.evaluate("Crash", "x", &mut dice),
        Err(EvalError::Engine(EngineFailure::Crashed(_)))
    ));
    assert!(engine.evaluate("Echo", "after a crash", &mut dice).is_ok());
    // Out of heap (48 MiB) the worker dies, or runs out of time first: either way an
    // engine failure, and the next command is answered.
    assert!(matches!(
        engine.evaluate("Hog", "x", &mut dice),
        Err(EvalError::Engine(
            EngineFailure::Crashed(_) | EngineFailure::TimedOut { .. }
        ))
    ));
    assert!(engine.evaluate("Echo", "after a hog", &mut dice).is_ok());
    // Draws are limited as for a native command. (10,000 round trips to the worker: on a
    // loaded machine more than the short time limit above, so a patient engine.)
    let patient = fake_engine_with("contain-many", 1, Duration::from_secs(60));
    assert_eq!(
        patient.evaluate("Many", "x", &mut dice),
        Err(EvalError::TooManyDice { limit: 10_000 })
    );
    assert!(patient.evaluate("Echo", "after many", &mut dice).is_ok());
    assert_eq!(
        engine.evaluate("Echo", "  ", &mut dice),
        Err(EvalError::Empty)
    );
}

fn draw(sides: u32, value: u32) -> ScriptedDraw {
    ScriptedDraw { sides, value }
}

/// Dice nothing records may be drawn ahead for the sides the same command drew last time;
/// the result still records exactly the draws it used, in order, and throws away a guess
/// that stops matching. Dice a table records are never drawn ahead.
#[test]
fn draws_taken_ahead_are_used_only_while_they_match_and_never_for_recorded_dice() {
    let engine = fake_engine("ahead", 1);
    // The first time nothing is known: both draws are asked (d6 then d10 after a six).
    let mut first = ScriptedSource::new([draw(6, 6), draw(10, 3)]);
    let r = engine
        .evaluate("Branch", "x", &mut Unrecorded(&mut first))
        .expect("answers");
    assert_eq!(r.text, "6,3");
    assert_eq!(r.rands.len(), 2);
    // Next time a d6 and a d10 are drawn ahead; the d6 shows 1, so the engine wants a d4:
    // the d10 taken ahead is thrown away and the d4 asked for.
    let mut second = ScriptedSource::new([draw(6, 1), draw(10, 7), draw(4, 2)]);
    let r = engine
        .evaluate("Branch", "x", &mut Unrecorded(&mut second))
        .expect("answers");
    assert_eq!(r.text, "1,2");
    let used: Vec<(u32, u32)> = r.rands.iter().map(|d| (d.sides, d.value)).collect();
    assert_eq!(used, [(6, 1), (4, 2)]);
    // Now the d6 and d4 are the guess and they match: three draws are all it takes.
    let mut third = ScriptedSource::new([draw(6, 2), draw(4, 4)]);
    let r = engine
        .evaluate("Branch", "x", &mut Unrecorded(&mut third))
        .expect("answers");
    assert_eq!(r.text, "2,4");
    // Recorded dice (a table's, a replay's) hand out only the draws asked for: a script
    // with exactly the draws used passes, whatever was guessed before.
    let mut exact = ScriptedSource::new([draw(6, 6), draw(10, 9)]);
    let r = engine.evaluate("Branch", "x", &mut exact).expect("answers");
    assert_eq!(r.text, "6,9");
    assert!(engine.evaluate("Echo", "after", &mut exact).is_err());
}

/// A worker whose parent is killed outright (no chance to stop its workers) ends itself
/// rather than compute on as an orphan.
#[test]
fn a_worker_ends_when_its_parent_is_killed() {
    let engine = fake_engine("orphan", 1);
    let dir = engine.config().dir.clone();
    // A shell starts the worker in the background with the shell's stdin (a pipe held
    // here, so it never reads an end) and waits: only the worker's watcher can end it.
    let mut shell = std::process::Command::new("sh")
        .arg("-c")
        .arg("node taku-worker.js . <&0 & echo $!; wait")
        .current_dir(&dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("sh starts");
    let mut out = std::io::BufReader::new(shell.stdout.take().expect("stdout"));
    let mut line = String::new();
    std::io::BufRead::read_line(&mut out, &mut line).expect("pid");
    assert!(line.trim().parse::<u32>().is_ok(), "a pid: {line}");
    shell.kill().expect("kill -9 the parent");
    shell.wait().expect("reaped");
    // The worker holds the other end of `out`: it reads the end when the worker is gone.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut rest = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out, &mut rest);
        let _ = tx.send(());
    });
    assert!(
        rx.recv_timeout(Duration::from_secs(30)).is_ok(),
        "worker {} outlived its parent",
        line.trim()
    );
}

/// Requests wait in a worker's pipe behind the one it evaluates, so it never idles
/// between them: each caller's draws still come from its own dice, in its own order,
/// while others' requests arrive in between.
#[test]
fn requests_queued_on_one_worker_each_draw_from_their_own_dice() {
    let engine = fake_engine("queued", 1);
    std::thread::scope(|s| {
        let runs: Vec<_> = (0..6u32)
            .map(|i| {
                let engine = &engine;
                s.spawn(move || {
                    let face = i % 6 + 1;
                    let second = if face == 6 { draw(10, 7) } else { draw(4, 3) };
                    let texts: Vec<String> = (0..20)
                        .map(|_| {
                            let mut dice = ScriptedSource::new([draw(6, face), second]);
                            let r = engine.evaluate("Branch", "x", &mut dice).expect("answers");
                            r.text
                        })
                        .collect();
                    (face, texts)
                })
            })
            .collect();
        for run in runs {
            let (face, texts) = run.join().expect("thread");
            let want = if face == 6 {
                "6,7".to_string()
            } else {
                format!("{face},3")
            };
            assert!(texts.iter().all(|t| *t == want), "{face}: {texts:?}");
        }
    });
    assert_eq!(engine.held(), 0);
}

/// A request waiting behind one that hangs was never evaluated and drew nothing: when the
/// hung one's time runs out and its worker is killed, the waiting one is sent to a new
/// worker and answered.
#[test]
fn a_request_behind_a_hung_one_is_answered_by_a_new_worker() {
    let engine = fake_engine("behind", 1);
    let mut dice = ChaChaSource::from_seed(5);
    // The worker has the system loaded, so the hang starts its time limit at once.
    engine.evaluate("Echo", "warm", &mut dice).expect("echo");
    std::thread::scope(|s| {
        let hung = s.spawn(|| {
            let mut dice = ChaChaSource::from_seed(6);
            engine.evaluate("Loop", "x", &mut dice)
        });
        while engine.held() == 0 {
            std::thread::yield_now();
        }
        let mut script = ScriptedSource::new([draw(6, 4)]);
        let behind = engine.evaluate("Echo", "behind", &mut script);
        assert_eq!(
            hung.join().expect("thread"),
            Err(EvalError::Engine(EngineFailure::TimedOut { ms: 1500 }))
        );
        assert_eq!(behind.expect("answered").text, "behind > 4");
    });
}

/// A runtime for [`Engine::roll_unrecorded`], as the server's would be.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

#[test]
fn rolls_on_the_runtime_draw_their_own_dice_and_survive_hung_crashed_and_greedy_commands() {
    let engine: &'static Engine = Box::leak(Box::new(fake_engine("lanes", 1)));
    runtime().block_on(async {
        // Thirty at once through one worker's lane: each result's text names its own draw.
        let rolls = (0..30).map(|i| {
            let input = format!("n{i}");
            async move { (input.clone(), engine.roll_unrecorded("Echo", &input).await) }
        });
        for (input, result) in futures_join_all(rolls).await {
            let r = result.expect("an answer");
            assert_eq!(r.rands.len(), 1, "{input}");
            let face = r.rands[0].value;
            assert!((1..=6).contains(&face));
            assert_eq!(r.text, format!("{input} > {face}"));
        }
        // A command that never ends times out; the one queued behind it is answered by
        // a new worker.
        let (hung, behind) = tokio::join!(
            engine.roll_unrecorded("Loop", "x"),
            engine.roll_unrecorded("Echo", "behind")
        );
        assert_eq!(
            hung,
            Err(EvalError::Engine(EngineFailure::TimedOut { ms: 1500 }))
        );
        assert!(behind.expect("answered").text.starts_with("behind > "));
        // A worker that exits is reported and replaced.
        assert!(matches!(
            engine.roll_unrecorded("Crash", "x").await,
            Err(EvalError::Engine(EngineFailure::Crashed(_)))
        ));
        // Past 10,000 draws the command is refused, as on any other path.
        assert_eq!(
            engine.roll_unrecorded("Many", "x").await,
            Err(EvalError::TooManyDice { limit: 10_000 })
        );
        assert!(engine.roll_unrecorded("Echo", "after").await.is_ok());
    });
    // The lanes lived on that runtime, now gone: the next runtime starts its own.
    let again = runtime().block_on(engine.roll_unrecorded("Echo", "again"));
    assert!(again.expect("answered").text.starts_with("again > "));
}

/// A worker that dies while idle (killed, out of memory) is noticed when the next roll is
/// written to it: that roll never began and goes to a new worker, not back as an error
/// (attack pass 5, A5-8).
#[test]
fn a_lane_whose_worker_died_idle_answers_the_next_roll_from_a_new_one() {
    let engine: &'static Engine = Box::leak(Box::new(fake_engine("idle-death", 1)));
    let rt = runtime();
    let pid: i32 = rt
        .block_on(engine.roll_unrecorded("Pid", "x"))
        .expect("the worker's pid")
        .text
        .parse()
        .expect("a number");
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    // Dead once the kernel has closed its pipes: gone, or a zombie (nobody waited yet)
    // whose other threads, which share its open files, are gone too.
    let dead = || {
        let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|stat| stat.contains(") Z "))
            .unwrap_or(true);
        let threads = std::fs::read_dir(format!("/proc/{pid}/task"))
            .map(|tasks| tasks.count())
            .unwrap_or(0);
        zombie && threads <= 1
    };
    while !dead() {
        std::thread::yield_now();
    }
    let next = rt.block_on(engine.roll_unrecorded("Echo", "next"));
    assert!(next.expect("answered").text.starts_with("next > "));
    let replaced: i32 = rt
        .block_on(engine.roll_unrecorded("Pid", "x"))
        .expect("the new worker's pid")
        .text
        .parse()
        .expect("a number");
    assert_ne!(replaced, pid);
}

/// Awaits every future, in order, on one task.
async fn futures_join_all<F: std::future::Future>(
    futures: impl IntoIterator<Item = F>,
) -> Vec<F::Output> {
    let handles: Vec<_> = futures.into_iter().map(Box::pin).collect();
    let mut out = Vec::with_capacity(handles.len());
    // Polled together: each is started before any is awaited to the end.
    let mut pending: Vec<Option<std::pin::Pin<Box<F>>>> = handles.into_iter().map(Some).collect();
    let mut results: Vec<Option<F::Output>> = (0..pending.len()).map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut all = true;
        for (slot, result) in pending.iter_mut().zip(results.iter_mut()) {
            if let Some(f) = slot {
                match f.as_mut().poll(cx) {
                    std::task::Poll::Ready(v) => {
                        *result = Some(v);
                        *slot = None;
                    }
                    std::task::Poll::Pending => all = false,
                }
            }
        }
        if all {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    out.extend(
        results
            .into_iter()
            .map(|r| r.expect("every future finished")),
    );
    out
}
