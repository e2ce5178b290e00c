//! A table of a system only the reference engine (BCDice's JavaScript build) carries: its
//! rolls are drawn from the table's keyed dice, recorded, kept secret, and replayed by
//! `verify` like a native system's (issue 19).
//!
//! Needs Node.js and npm `bcdice` 4.9.0 under `tools/bcdice-oracle` (or the directory named
//! by TAKU_TEST_BCDICE_JS); `tools/bcdice-js.sh` installs them. Fails, never skips, without.

use std::path::{Path, PathBuf};
use std::sync::Once;

use taku_systems::reference::{self, Config};
use taku_table::{EventBody, Table};

fn setup() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let dir = match std::env::var_os("TAKU_TEST_BCDICE_JS") {
            Some(d) if !d.is_empty() => PathBuf::from(d),
            _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/bcdice-oracle"),
        };
        assert!(
            dir.join("node_modules/bcdice/package.json").is_file(),
            "npm bcdice is not installed in {}: run tools/bcdice-js.sh",
            dir.display()
        );
        let mut config = Config::new(dir);
        config.time_limit = std::time::Duration::from_secs(20);
        assert!(reference::configure(Some(config)).expect("engine opens"));
    });
}

#[test]
fn a_reference_system_table_rolls_keeps_secrets_and_replays_under_verify() {
    setup();
    let mut t = Table::create("Cthulhu7th", "test", "gm", [9; 32])
        .expect("a Cthulhu7th table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    t.exec("gm", "/join alice").expect("join");
    t.exec("gm", "/join bob").expect("join");
    t.exec("alice", "CC1<=50 目星").expect("a roll");
    t.exec("alice", "SCC<=60 心理学").expect("a secret roll");
    t.exec("bob", "こんにちは").expect("chat");
    let kinds: Vec<&str> = t
        .events()
        .iter()
        .map(|e| match &e.body {
            EventBody::Roll { .. } => "roll",
            EventBody::Chat { .. } => "chat",
            _ => "other",
        })
        .collect();
    assert_eq!(&kinds[kinds.len() - 3..], ["roll", "roll", "chat"]);
    let n = t.events().len();
    let roll = t.entry(&t.events()[n - 3], "bob", taku_dice::Lang::Ja).text;
    assert!(roll.contains("1D100<=50"), "{roll}");
    // bob sees the secret roll's commitment only, never its dice or text.
    let secret = t.entry(&t.events()[n - 2], "bob", taku_dice::Lang::Ja).text;
    assert!(!secret.contains("1D100<=60"), "{secret}");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// A mistyped command of the system (BCDice's command pattern matches, the engine gives no
/// result) is refused to its author, never posted: a secret one would show its intent.
/// A spectator's command is refused before anything is evaluated.
#[test]
fn a_mistyped_secret_command_is_refused_not_posted_and_spectators_cannot_roll() {
    setup();
    let mut t = Table::create("Cthulhu7th", "test", "gm", [5; 32])
        .expect("a Cthulhu7th table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    t.exec("gm", "/join alice").expect("join");
    t.exec("gm", "/join sam as spectator").expect("join");
    let before = t.events().len();
    for line in ["SCC<= 50 秘密の聞き耳", "SCC<=abc 目星", "SCBR(50,40"] {
        let refusal = t.exec("alice", line).expect_err("refused");
        assert!(
            refusal
                .render(taku_dice::Lang::Ja)
                .contains("コマンドとして解釈できません"),
            "{line}"
        );
    }
    let refusal = t.exec("sam", "CC<=50").expect_err("refused");
    assert!(
        refusal
            .render(taku_dice::Lang::Ja)
            .contains("観戦者はダイスを振れません")
    );
    assert_eq!(t.events().len(), before, "nothing was posted");
    // Chat is still chat.
    t.exec("alice", "こんにちは、CC の話").expect("chat");
    assert_eq!(t.events().len(), before + 1);
}

/// A stand-in for a reference system whose engine answers at first and then stops
/// answering (timed out), as a replay on a loaded or different host can.
struct Flaky;

static FLAKY_ANSWERS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

impl taku_systems::GameSystem for Flaky {
    fn id(&self) -> &'static str {
        "Flaky"
    }
    fn name(&self) -> &'static str {
        "Flaky"
    }
    fn sort_key(&self) -> &'static str {
        "flaky"
    }
    fn help(&self) -> taku_dice::Text {
        taku_dice::Text::new("", "")
    }
    fn engine(&self) -> taku_systems::EngineKind {
        taku_systems::EngineKind::Reference
    }
    fn claims(&self, line: &str) -> Option<bool> {
        Some(line.starts_with("F"))
    }
    fn evaluate_whole(
        &self,
        input: &str,
        source: &mut dyn taku_dice::DiceSource,
        _mode: taku_dice::Mode,
    ) -> Option<Result<taku_dice::RollResult, taku_dice::EvalError>> {
        if !FLAKY_ANSWERS.load(std::sync::atomic::Ordering::SeqCst) {
            return Some(Err(taku_dice::EvalError::Engine(
                taku_dice::EngineFailure::TimedOut { ms: 1 },
            )));
        }
        let face = match source.roll(6) {
            Ok(f) => f,
            Err(e) => return Some(Err(taku_dice::EvalError::Draw(e))),
        };
        Some(Ok(taku_dice::RollResult {
            text: format!("({input}) ＞ {face}"),
            secret: false,
            success: false,
            failure: false,
            critical: false,
            fumble: false,
            rands: vec![taku_dice::Draw {
                kind: taku_dice::DrawKind::Normal,
                sides: 6,
                value: face,
            }],
            detail: taku_dice::Detail::Message,
        }))
    }
}

/// A roll the engine cannot replay now (timed out) is "not checked", not a log that
/// disagrees with itself; a roll it replays differently is still a mismatch.
#[test]
fn verify_tells_a_roll_it_could_not_replay_from_a_wrong_one() {
    static FLAKY: Flaky = Flaky;
    let mut t = Table::create_in(&FLAKY, "test", "gm", [3; 32])
        .expect("a table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    t.exec("gm", "F1").expect("a roll");
    assert!(t.verify().is_empty(), "{:?}", t.verify());
    FLAKY_ANSWERS.store(false, std::sync::atomic::Ordering::SeqCst);
    let found = t.verify();
    FLAKY_ANSWERS.store(true, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].unchecked, "{found:?}");
    assert!(found[0].replayed.contains("1 ms"), "{found:?}");
}

/// A table of a system this taku does not carry (the reference engine not set up here,
/// or a newer taku's system) is not "damaged": it says which system and what would help.
#[test]
fn a_table_of_a_system_not_carried_here_says_so_rather_than_damaged() {
    let created = taku_table::Event {
        seq: 1,
        actor: "gm".into(),
        body: EventBody::Created {
            system: "NoSuchSystem".into(),
            name: "t".into(),
            seed: "00".repeat(32),
        },
    };
    let err = Table::from_events(vec![created]).expect_err("unknown system");
    assert!(
        matches!(err, taku_table::LoadError::UnknownSystem(_)),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(
        text.contains("'NoSuchSystem'") && !text.contains("damaged"),
        "{text}"
    );
}

/// A reference roll is evaluated ahead of the table's lock (so reads never wait on a
/// worker, nor learn from the wait how many dice a secret roll drew; attack pass 2,
/// A2-13/A2-14). Decided with what was evaluated ahead, a line gives exactly the entry it
/// gives decided in place; planned for an entry another line took first, it is evaluated
/// afresh for its own, never with the dice planned for the other.
#[test]
fn a_reference_roll_evaluated_ahead_decides_as_in_place_and_only_for_its_entry() {
    setup();
    let mut t = Table::create("Cthulhu7th", "test", "gm", [7; 32])
        .expect("a Cthulhu7th table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    t.exec("gm", "/join alice").expect("join");
    t.exec("gm", "/join bob").expect("join");
    t.exec("gm", "/join sam as spectator").expect("join");
    // A member's line that is no table command is planned: only the engine can tell a
    // dice line from chat. A table command, a spectator's or a stranger's line is not.
    let chat = t.plan_roll("alice", "こんにちは").expect("planned").roll();
    let decided = t.decide_rolled("alice", "こんにちは", &chat).expect("chat");
    assert!(matches!(decided.events[..], [EventBody::Chat { .. }]));
    assert!(t.plan_roll("alice", "/who").is_none());
    assert!(t.plan_roll("sam", "CC1<=50").is_none());
    assert!(t.plan_roll("mallory", "CC1<=50").is_none());

    let mut in_place = t.clone();
    let planned = t.plan_roll("alice", "CC1<=50 目星").expect("a dice line");
    let decided = t
        .decide_rolled("alice", "CC1<=50 目星", &planned.roll())
        .expect("decided");
    t.apply("alice", decided.events);
    in_place.exec("alice", "CC1<=50 目星").expect("a roll");
    let last = |t: &Table| {
        serde_json::to_value(t.events().last().expect("an entry")).expect("an entry as JSON")
    };
    assert_eq!(last(&t), last(&in_place));

    // bob's secret roll is planned, then alice's chat takes its entry: the roll is
    // decided afresh for the next entry, as it would be in place.
    let planned = t.plan_roll("bob", "SCC<=60 心理学").expect("a dice line");
    let rolled = planned.roll();
    t.exec("alice", "待って").expect("chat");
    in_place.exec("alice", "待って").expect("chat");
    let decided = t
        .decide_rolled("bob", "SCC<=60 心理学", &rolled)
        .expect("decided");
    t.apply("bob", decided.events);
    in_place.exec("bob", "SCC<=60 心理学").expect("a roll");
    assert_eq!(last(&t), last(&in_place));
    assert!(t.verify().is_empty(), "{:?}", t.verify());

    // A system taku carries natively is decided in place.
    let native = Table::create("DiceBot", "test", "gm", [7; 32]).expect("a DiceBot table");
    assert!(native.plan_roll("gm", "2D6").is_none());
}

/// Attack pass 7, A7-16: BCDice's answer that is only its refusal (`x9999 1D6` →
/// `繰り返し回数は1以上、100以下としてください`, no dice drawn) and a total of `Infinity`
/// were logged as rolls. At a table they are refusals in the table's language that log
/// nothing; a roll with no dice but a result (`C(1+2)` → `＞ 3`) still posts.
#[test]
fn reference_engine_errors_and_infinite_totals_are_refused_not_logged() {
    setup();
    let mut t = Table::create("Cthulhu7th", "test", "gm", [7; 32])
        .expect("a Cthulhu7th table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    t.exec("gm", "/join alice").expect("join");
    let before = t.events().len();
    let refusal = t.exec("alice", "x9999 1D6").expect_err("refused");
    let said = refusal.render(taku_dice::Lang::Ja);
    assert!(said.contains("参照エンジン"), "{said}");
    assert!(said.contains("繰り返し回数は1以上、100以下"), "{said}");
    // Attack pass 8, A8-11: a secret repeat of something that is no command.
    let refusal = t.exec("alice", "Sx5 秘密").expect_err("refused");
    assert!(
        refusal.render(taku_dice::Lang::Ja).contains("参照エンジン"),
        "{}",
        refusal.render(taku_dice::Lang::Ja)
    );
    t.exec("alice", "x2 CC<=50")
        .expect("a repeat that runs posts");
    let infinite = format!("1D6{}", "*2".repeat(1100));
    let refusal = t.exec("alice", &infinite).expect_err("refused");
    assert!(
        refusal
            .render(taku_dice::Lang::Ja)
            .contains("値が 64 ビットの範囲を超えました"),
        "{}",
        refusal.render(taku_dice::Lang::Ja)
    );
    assert_eq!(t.events().len(), before + 1, "only the repeat that ran");
    t.exec("alice", "C(1+2)").expect("a calculation posts");
    assert_eq!(t.events().len(), before + 2);
}
