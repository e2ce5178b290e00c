//! Japanese first, English available: every message a system's table rules give — a
//! refusal, a reply, a log line, a note, a sheet's titles and labels — and every help text
//! exists in both languages. A wide set of bad `/` commands (and the good ones that set
//! up the states they are refused in) goes through each system's `DynRules`, as a table
//! drives it, on a small fake table; every Japanese wording must hold Japanese and no
//! English wording may hold kana, so a message left in one language fails here.

use std::collections::BTreeMap;
use taku_dice::{ChaChaSource, Mode, Roller, ScriptedDraw, ScriptedSource, Text};
use taku_systems::table_rules::{DynRules, SystemState, TableView};
use taku_systems::view::{Section, Value};
use taku_systems::{find, full_help, systems};

/// Kana (hiragana, katakana) or kanji.
fn is_japanese(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}' | '\u{4e00}'..='\u{9fff}')
}

/// Hiragana or katakana: English wording never has any (kanji may name a field, 【理知】).
fn is_kana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}')
}

/// Both wordings of `text` are in their language, and differ; `what` says where it came
/// from. `SHOW_MESSAGES=1` prints every message checked, to read them over.
fn check(what: &str, text: &Text, problems: &mut Vec<String>) {
    if std::env::var("SHOW_MESSAGES").is_ok() {
        eprintln!("[{what}]\n  ja: {}\n  en: {}", text.ja(), text.en());
    }
    if !text.ja().chars().any(is_japanese) {
        problems.push(format!(
            "{what}: no Japanese in the Japanese wording: {text:?}"
        ));
    }
    if text.en().chars().any(is_kana) {
        problems.push(format!("{what}: kana in the English wording: {text:?}"));
    }
    if text.en().trim().is_empty() || text.ja() == text.en() {
        problems.push(format!("{what}: no English wording of its own: {text:?}"));
    }
}

/// A sentence (a refusal, a reply): as [`check`], and its Japanese has kana, so an
/// English sentence that quotes a Japanese field name (【行動値】) does not pass for
/// Japanese.
fn check_sentence(what: &str, text: &Text, problems: &mut Vec<String>) {
    check(what, text, problems);
    if !text.ja().chars().any(is_kana) {
        problems.push(format!(
            "{what}: no kana in the Japanese sentence: {text:?}"
        ));
    }
}

/// A table with members `gm` (its GM), `alice` and `bob`, and characters with ASCII names
/// so that names never put kana into English.
struct Fake {
    actor: String,
    characters: BTreeMap<String, (String, BTreeMap<String, String>)>,
    /// The roll being prepared, as typed.
    line: Option<String>,
}

impl TableView for Fake {
    fn actor(&self) -> &str {
        &self.actor
    }
    fn actor_is_gm(&self) -> bool {
        self.actor == "gm"
    }
    fn character(&self, name: &str) -> Option<(&str, &BTreeMap<String, String>)> {
        self.characters
            .get(name)
            .map(|(owner, fields)| (owner.as_str(), fields))
    }
    fn characters(&self) -> Vec<(&str, &str)> {
        self.characters
            .iter()
            .map(|(n, (o, _))| (n.as_str(), o.as_str()))
            .collect()
    }
    fn member_is_gm(&self, member: &str) -> bool {
        member == "gm"
    }
    fn scene_and_session(&self) -> (u64, u64) {
        (1, 1)
    }
    fn typed_line(&self) -> Option<&str> {
        self.line.as_deref()
    }
}

/// One system's rules on a fake table, collecting every message they give.
struct Harness {
    rules: &'static dyn DynRules,
    state: Box<dyn SystemState>,
    table: Fake,
    dice: ChaChaSource,
    problems: Vec<String>,
    refusals: usize,
}

impl Harness {
    fn new(system: &str) -> Harness {
        let rules = find(system)
            .and_then(|s| s.table_rules())
            .expect("a system with table rules");
        let mut characters = BTreeMap::new();
        let fields = |pairs: &[(&str, &str)]| {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<BTreeMap<_, _>>()
        };
        let pc = [
            ("行動値", "10"),
            ("反射", "4"),
            ("知覚", "3"),
            ("幸運", "2"),
            ("理知", "4"),
            ("体力", "3"),
            ("HP", "20"),
            ("MP", "15"),
            // The Lord of the Rings' attributes.
            ("BRG", "8"),
            ("NIM", "7"),
            ("PER", "7"),
            ("STR", "9"),
            ("VIT", "10"),
            ("WIT", "10"),
        ];
        characters.insert("Mina".to_string(), ("alice".to_string(), fields(&pc)));
        let mut roy = fields(&pc);
        roy.insert("行動値".into(), "8".into());
        characters.insert("Roy".to_string(), ("bob".to_string(), roy));
        characters.insert(
            "Shadow".to_string(),
            (
                "gm".to_string(),
                fields(&[("行動値", "10"), ("HP", "30"), ("理知", "3")]),
            ),
        );
        characters.insert("Ghost".to_string(), ("gm".to_string(), BTreeMap::new()));
        characters.insert(
            "Odd".to_string(),
            ("gm".to_string(), fields(&[("行動値", "fast")])),
        );
        Harness {
            rules,
            state: rules.new_state(),
            table: Fake {
                actor: "gm".into(),
                characters,
                line: None,
            },
            dice: ChaChaSource::from_seed(12),
            problems: Vec::new(),
            refusals: 0,
        }
    }

    /// Decides `line` as `actor`; an accepted line's events are folded in, and its
    /// reply and log lines checked. `None`: not this system's command.
    fn line(&mut self, actor: &str, line: &str) -> Option<Result<(), Text>> {
        self.table.actor = actor.to_string();
        let words: Vec<&str> = line.trim_start_matches('/').split_whitespace().collect();
        let mut roller = Roller::new(&mut self.dice);
        let decided = self
            .rules
            .decide(&self.table, &*self.state, &words, &mut roller)?;
        Some(match decided {
            Ok(outcome) => {
                if let Some(reply) = &outcome.reply {
                    check_sentence(&format!("reply to {line}"), reply, &mut self.problems);
                }
                self.apply(actor, line, &outcome.events);
                Ok(())
            }
            Err(refusal) => {
                check_sentence(&format!("refusal of {line}"), &refusal, &mut self.problems);
                Err(refusal)
            }
        })
    }

    fn apply(&mut self, actor: &str, line: &str, events: &[serde_json::Value]) {
        for e in events {
            let text = self.rules.describe(e);
            check(
                &format!("log line of {line}: {e}"),
                &text,
                &mut self.problems,
            );
            self.rules.fold(&mut *self.state, actor, e);
            // Fields the rules keep (AW-4's HP), as a table applies them.
            for (name, key, value) in self.rules.field_changes(e) {
                if let Some((_, fields)) = self.table.characters.get_mut(&name) {
                    fields.insert(key, value);
                }
            }
        }
    }

    /// A line that must be accepted.
    fn good(&mut self, actor: &str, line: &str) {
        match self.line(actor, line) {
            Some(Ok(())) => {}
            Some(Err(t)) => panic!("{actor} {line} refused: {}", t.en()),
            None => panic!("{line} is not a command of the system"),
        }
    }

    /// A line that must be refused.
    fn bad(&mut self, actor: &str, line: &str) {
        match self.line(actor, line) {
            Some(Err(_)) => self.refusals += 1,
            Some(Ok(())) => panic!("{actor} {line} was accepted"),
            None => panic!("{line} is not a command of the system"),
        }
    }

    /// An AW check rolled as `actor` with the dice given, then what the rules append.
    fn roll(&mut self, actor: &str, command: &str, dice: [u32; 2]) {
        self.table.actor = actor.to_string();
        let system = find("AnotherWorld").expect("AW");
        let mut source = ScriptedSource::new(dice.map(|value| ScriptedDraw { sides: 6, value }));
        self.table.line = Some(command.to_string());
        // A roll that does not count for an AF check says why, in both languages.
        let prepared = self
            .rules
            .prepare_check(&self.table, &*self.state, command)
            .expect("prepared");
        if let Some(note) = &prepared.note {
            check(
                &format!("{actor} {command}'s note"),
                note,
                &mut self.problems,
            );
        }
        let result =
            taku_systems::evaluate(system, command, &mut source, Mode::Normalize).expect("a check");
        let events = self
            .rules
            .after_roll(&self.table, &*self.state, command, &result);
        self.table.line = None;
        self.apply(actor, command, &events);
    }

    fn session_end(&mut self) {
        let events = self.rules.on_session_end(&*self.state);
        self.apply("gm", "(session end)", &events);
    }

    /// Every section of `name`'s sheet as `viewer` sees it.
    fn sheet(&mut self, viewer: &str, name: &str) -> Vec<Section> {
        self.table.actor = viewer.to_string();
        let sections = self
            .rules
            .character_sheet(&self.table, &*self.state, name, viewer == "gm");
        for s in &sections {
            check(
                &format!("{name}'s sheet title"),
                &s.title,
                &mut self.problems,
            );
            for f in &s.fields {
                check(
                    &format!("{name}'s sheet label in {}", s.title.en()),
                    &f.label,
                    &mut self.problems,
                );
                let values: Vec<&Text> = match &f.value {
                    Value::Text(t) => vec![t],
                    Value::List(items) => items.iter().collect(),
                    _ => Vec::new(),
                };
                for t in values {
                    if t.en().chars().any(is_kana) {
                        self.problems
                            .push(format!("{name}'s sheet value: kana in English: {t:?}"));
                    }
                }
            }
        }
        sections
    }

    fn finish(self, at_least: usize) {
        assert!(
            self.problems.is_empty(),
            "messages not in both languages:\n{}",
            self.problems.join("\n")
        );
        assert!(
            self.refusals >= at_least,
            "only {} refusals were driven",
            self.refusals
        );
    }
}

#[test]
fn another_worlds_combat_and_supply_speak_both_languages() {
    let mut t = Harness::new("AnotherWorld");
    // AW-3 combat.
    t.bad("alice", "/combat start Mina");
    t.bad("gm", "/combat start");
    t.bad("gm", "/combat start Nobody");
    t.bad("gm", "/combat start Ghost");
    t.bad("gm", "/combat start Odd");
    t.bad("gm", "/combat next");
    t.bad("gm", "/combat status");
    t.bad("gm", "/combat frobnicate");
    t.good("gm", "/combat start Mina Roy Shadow");
    t.bad("gm", "/combat start Mina");
    t.bad("gm", "/combat add Mina");
    t.bad("gm", "/combat remove Nobody");
    t.bad("gm", "/combat order Nobody");
    t.bad("gm", "/combat engage Mina Nobody");
    t.bad("gm", "/combat free Nobody");
    t.bad("alice", "/combat minor move");
    t.bad("alice", "/combat end");
    t.good("gm", "/combat order Shadow");
    t.good("gm", "/combat next");
    t.good("gm", "/combat status");
    // Mina's main process (PCs before NPCs on a tie).
    t.bad("bob", "/combat minor move");
    t.bad("alice", "/combat minor fly");
    t.bad("alice", "/combat major fly");
    t.bad("alice", "/combat major disengage");
    t.good("alice", "/combat minor skill Bookworm");
    t.bad("alice", "/combat minor move");
    t.good("gm", "/combat engage Mina Shadow");
    t.bad("alice", "/combat major move");
    t.bad("alice", "/combat major escape");
    t.good("alice", "/combat major disengage");
    // Shadow's, then Roy's.
    t.bad("gm", "/combat minor fly");
    t.good("gm", "/combat minor skill Roar");
    // A PC's data is public: nothing to identify (issue 13 play-through 5).
    t.bad("gm", "/combat major identify Mina");
    t.good("gm", "/combat major attack Mina");
    t.good("bob", "/combat major escape");
    t.good("gm", "/combat next");
    t.good("gm", "/combat next");
    t.good("alice", "/combat major attack Shadow");
    t.bad("gm", "/combat major finish Roy");
    t.bad("gm", "/combat major attack Shadow");
    t.bad("gm", "/combat major finish Mina");
    // A PC's data is public: nothing to identify (issue 13 play-through 5).
    t.bad("gm", "/combat major identify Mina");
    t.good("gm", "/combat major attack Mina");
    t.good("gm", "/combat add Roy");
    t.good("gm", "/combat remove Roy");
    t.good("gm", "/combat end");
    // AW-4 supply.
    t.bad("alice", "/supply lack Mina 3");
    t.bad("gm", "/supply lack Mina 9");
    t.bad("gm", "/supply lack");
    t.bad("gm", "/supply lack Ghost 2");
    t.bad("gm", "/supply give Mina Mina 1");
    t.bad("alice", "/supply give Mina Roy 5");
    t.good("gm", "/supply give Mina Roy 5");
    t.bad("gm", "/supply give Mina Roy 11");
    t.good("alice", "/supply heal Mina HP 3 food");
    t.bad("alice", "/supply heal Mina SP 3");
    t.bad("alice", "/supply heal Mina HP lots");
    t.bad("alice", "/supply heal");
    t.bad("alice", "/supply give Shadow Ghost 1");
    t.bad("gm", "/supply give");
    t.bad("gm", "/supply");
    t.good("gm", "/supply lack Mina 2 shared");
    t.good("gm", "/supply lack Roy 1");
    // With another player's PC the GM runs it (aw13c); the refusal speaks both languages.
    t.bad("alice", "/supply give Mina Roy 1");
    t.good("gm", "/supply give Mina Roy 1");
    t.finish(30);
}

#[test]
fn another_worlds_contracts_keys_and_af_checks_speak_both_languages() {
    let mut t = Harness::new("AnotherWorld");
    // AW-5 contracts and command spells.
    t.bad("alice", "/contract");
    t.bad("alice", "/contract end");
    t.bad("alice", "/contract Mina Mina");
    t.bad("alice", "/contract Shadow Ghost");
    t.bad("alice", "/contract Mina Nobody");
    t.bad("alice", "/spell Mina fly");
    t.bad("alice", "/spell");
    t.bad("alice", "/spell Mina order");
    t.bad("alice", "/spell Nobody order");
    t.bad("alice", "/contract end Mina Roy surgery");
    t.good("alice", "/spells");
    t.good("alice", "/contract Mina Roy");
    t.bad("alice", "/contract Mina Roy");
    t.good("bob", "/contract Mina Roy");
    t.bad("gm", "/contract Shadow Roy");
    t.bad("gm", "/contract Roy Mina");
    t.good("gm", "/contract Mina Shadow");
    t.bad("alice", "/spell Mina order");
    t.bad("bob", "/spell Mina order Roy");
    t.bad("alice", "/spell Mina order Ghost");
    t.good("alice", "/spell Mina boost Roy");
    t.bad("alice", "/spell Mina boost Roy");
    t.good("gm", "/combat start Mina Shadow");
    t.good("alice", "/spell Mina summon Roy");
    t.good("alice", "/spell Mina order Shadow");
    t.bad("alice", "/spell Mina dismiss Roy");
    t.good("alice", "/spells");
    t.good("bob", "/spells Mina");
    t.sheet("alice", "Mina");
    t.sheet("bob", "Roy");
    // The +20 waiting for Roy's next check.
    t.table.actor = "bob".into();
    t.table.line = Some("AW+3>=10".into());
    let prepared = t
        .rules
        .prepare_check(&t.table, &*t.state, "AW+3>=10")
        .expect("prepared");
    assert_eq!(prepared.command, "AW+3+20>=10");
    check(
        "the +20 note",
        &prepared.note.expect("a note"),
        &mut t.problems,
    );
    let events = prepared.events;
    t.apply("bob", "AW+3>=10", &events);
    t.bad("gm", "/contract end Mina Roy");
    t.bad("gm", "/contract end Roy Mina surgery");
    t.good("gm", "/contract end Mina Roy surgery");
    t.session_end();
    t.bad("gm", "/contract Mina Roy");
    t.good("gm", "/contract Roy Mina");
    t.good("bob", "/spell Roy dissolve");
    // AW-6 event keys.
    t.bad("alice", "/key give Mina clue");
    t.bad("gm", "/key give Shadow clue");
    t.bad("gm", "/key");
    t.bad("gm", "/key take Mina clue");
    t.bad("alice", "/key who clue");
    t.good("gm", "/key give Mina clue");
    t.bad("gm", "/key give Mina clue");
    t.bad("gm", "/key move Mina Shadow clue");
    t.bad("gm", "/key move Roy Mina clue");
    t.bad("alice", "/keys Roy");
    t.bad("alice", "/keys Nobody");
    t.good("alice", "/keys");
    t.good("alice", "/keys Mina");
    t.good("bob", "/keys");
    t.good("bob", "/keys Roy");
    t.good("gm", "/key who clue");
    t.good("gm", "/key who nothing");
    let keys = t.sheet("alice", "Mina");
    assert!(keys.iter().any(|s| s.title.en() == "Event keys"));
    assert!(
        !t.sheet("bob", "Mina")
            .iter()
            .any(|s| s.title.en() == "Event keys"),
        "a player sees only their own PC's keys"
    );
    t.good("gm", "/key move Mina Roy clue");
    t.bad("gm", "/key move Mina Roy clue");
    t.good("gm", "/key take Roy clue");
    // AW-7 AF checks.
    t.bad("alice", "/af start 理知 100 2");
    t.bad("gm", "/af start 理知 hard 2");
    t.bad("gm", "/af start 理知 100 many");
    t.bad("gm", "/af start 理知 30 2");
    t.bad("gm", "/af start 理知 100 99");
    t.bad("gm", "/af start 理知 100 2 at=x:door");
    t.bad("gm", "/af start 理知 100 2 solo=Shadow");
    t.bad("gm", "/af start 魅力 100 2");
    t.bad("gm", "/af preset 9");
    t.bad("gm", "/af preset 4");
    t.bad("alice", "/af declare Mina Stealth");
    t.bad("gm", "/af status");
    t.bad("gm", "/af frobnicate");
    t.bad("gm", "/af declare");
    // AW-7: an AF check's rounds are its own, not beside a combat's.
    t.bad("gm", "/af preset 3");
    t.good("gm", "/combat end");
    t.good("gm", "/af preset 3");
    t.bad("gm", "/combat start Mina Shadow");
    t.bad("gm", "/af preset 1");
    t.bad("gm", "/af declare Shadow Stealth");
    t.bad("bob", "/af declare Mina Stealth");
    t.good("alice", "/af declare Mina Stealth");
    t.bad("alice", "/af declare Mina Stealth");
    t.good("gm", "/af allow Mina Stealth");
    t.bad("gm", "/af cancel");
    t.bad("gm", "/af fail");
    t.bad("alice", "/af spell Mina");
    t.good("gm", "/af status");
    t.roll("bob", "AW+4 反射", [6, 6]);
    t.roll("alice", "AW+4", [6, 6]);
    t.roll("alice", "AW+4 反射", [6, 6]);
    t.roll("bob", "AW+4 反射", [1, 1]);
    t.bad("gm", "/af next");
    t.bad("alice", "/af declare Mina Climb");
    t.good("gm", "/af cancel");
    t.good("gm", "/af status");
    t.roll("alice", "AW+4 反射", [1, 1]);
    t.good("gm", "/af fail");
    t.good("gm", "/af preset 2");
    t.good("alice", "/af spell Mina");
    t.good("gm", "/af preset 4 Mina");
    t.roll("alice", "AW+3 体力", [3, 4]);
    t.good(
        "gm",
        "/af start 理知 60 3 at=20 at=40:door opened spell Open the door",
    );
    t.roll("alice", "AW+4 理知", [6, 5]);
    t.roll("bob", "AW+4 理知", [2, 3]);
    t.good("gm", "/af next");
    t.good("gm", "/af end");
    t.good("gm", "/af status");
    t.finish(50);
}

#[test]
fn the_mtg_based_trpgs_library_commands_speak_both_languages() {
    let mut t = Harness::new("MtgTrpg");
    t.bad("alice", "/deck load Roy 1 Forest");
    t.bad("alice", "/deck load Nobody 1 Forest");
    t.bad(
        "alice",
        "/deck load Mina 4 Llanowar Elfs; four Forests; 0 Forest",
    );
    t.bad("alice", "/deck load Mina 1 Black Lotus");
    t.bad("alice", "/deck load Mina Sideboard; 1 Forest");
    t.bad("alice", "/deck shuffle Mina");
    t.bad("alice", "/deck known Mina 2");
    t.bad("alice", "/deck show Mina");
    t.bad("alice", "/deck boost Mina");
    t.bad("alice", "/deck check Mina green 2");
    t.bad("alice", "/deck");
    t.bad("alice", "/deck frobnicate");
    t.bad("alice", "/turn frobnicate");
    t.good(
        "alice",
        "/deck load Mina 10 Forest; 4 Llanowar Elves; 4 Elvish Mystic; 4 Runeclaw Bear; Sideboard; 2 Forest",
    );
    t.bad("alice", "/deck known Mina 2");
    t.bad("gm", "/deck known Mina few");
    t.bad("gm", "/deck known Mina 999");
    t.bad("alice", "/deck check Mina purple 2");
    t.bad("alice", "/deck check Mina 緑 hard");
    t.bad("alice", "/deck check Mina green 2 force");
    t.bad("alice", "/deck check Mina green 99");
    t.bad("alice", "/deck check Mina green -99");
    t.bad("alice", "/deck done Mina");
    t.bad("alice", "/deck shuffle Mina");
    t.good("gm", "/deck shuffle Mina");
    t.good("gm", "/deck known Mina 2");
    t.good("alice", "/deck show Mina");
    t.sheet("alice", "Mina");
    t.sheet("bob", "Mina");
    // Checks until one waits for the boost decision and one is made.
    let mut opened = false;
    for d in 4..=7 {
        let line = format!("/deck check Mina green {d} Open the door");
        t.good("alice", &line);
        let waiting = t.state.to_json()["libraries"]["Mina"]["open"].is_object();
        if waiting {
            opened = true;
            t.bad("alice", &line);
            t.bad("alice", "/deck shuffle Mina");
            t.bad("alice", "/deck load Mina 10 Forest");
            t.bad("alice", "/turn end Mina");
            t.good("alice", "/deck show Mina");
            t.good("alice", "/deck boost Mina");
            t.bad("alice", "/deck boost Mina");
        } else {
            t.bad("alice", &line);
        }
    }
    assert!(opened, "no check waited for a boost decision");
    t.sheet("alice", "Mina");
    t.good("alice", "/deck show Mina");
    t.good("alice", "/turn end Mina");
    t.good("gm", "/turn end");
    // MT-2 step 2: too few cards below the known ones.
    t.good("bob", "/deck load Roy 3 Forest");
    t.good("gm", "/deck known Roy 2");
    t.bad("bob", "/deck check Roy green 2");
    t.bad("bob", "/deck shuffle Roy");
    t.good("gm", "/deck shuffle Roy");
    t.bad("bob", "/deck check Roy colourless 0");
    t.good("gm", "/deck check Roy colourless 0 force");
    t.finish(30);
}

#[test]
fn events_from_old_logs_read_in_english() {
    let t = Harness::new("AnotherWorld");
    let old = serde_json::json!({
        "rule": "combat", "kind": "action", "name": "Mina", "major": false,
        "what": "戦闘移動: 15m まで"
    });
    let text = t.rules.describe(&old);
    assert_eq!(text.ja(), "Mina マイナーアクション: 戦闘移動: 15m まで");
    assert_eq!(text.en(), "Mina, minor action: combat move up to 15 m");
    let old = serde_json::json!({
        "rule": "af", "kind": "failed",
        "why": "ラウンド制限（2ラウンド）: 合計 70 ＜ 難易度 80"
    });
    assert_eq!(
        t.rules.describe(&old).en(),
        "AF check failed (round limit (2 rounds): total 70 < difficulty 80)"
    );
    let old = serde_json::json!({
        "rule": "supply", "kind": "changed", "character": "Mina",
        "why": "食事・睡眠の不足 2D6（共通）", "hp_dice": [3, 4], "mp_dice": [3, 4],
        "hp": 13, "mp": 8
    });
    assert_eq!(
        t.rules.describe(&old).en(),
        "Mina, missed meals or sleep 2D6, one roll for both: HP 7[3,4] > 13, MP 7[3,4] > 8"
    );
}

#[test]
fn every_systems_help_and_command_help_is_in_both_languages() {
    let mut problems = Vec::new();
    for s in systems() {
        let help = s.help();
        check(&format!("{}'s help", s.id()), &help, &mut problems);
        let first = |t: &str| t.lines().next().unwrap_or_default().to_string();
        assert!(!first(help.ja()).is_empty() && !first(help.en()).is_empty());
        // The full help adds usage lines, whose examples may name characters in kana.
        let full = full_help(*s);
        if let Some(rules) = s.table_rules() {
            for c in rules.commands() {
                assert!(full.en().contains(c.help_en) && full.ja().contains(c.help));
                check(&format!("{} help", c.usage), &c.text(), &mut problems);
                assert_ne!(c.help, c.help_en, "{}: English is a copy", c.usage);
            }
        }
    }
    assert!(
        problems.is_empty(),
        "help not in both languages:\n{}",
        problems.join("\n")
    );
}

#[test]
fn four_cards_commands_speak_both_languages() {
    let mut t = Harness::new("FourCard");
    t.good("alice", "/fc create Mina female");
    t.good("gm", "/fc extra Mina 5 接近戦");
    t.good("gm", "/fc reroll Mina");
    t.good("alice", "/fc hand Mina 右");
    t.good("alice", "/fc learn Mina 接近戦 2 剣");
    t.good("alice", "/fc special Mina 接近戦 斧");
    t.good("alice", "/fc equip Mina 1");
    t.good("alice", "/fc equip Mina 例革鎧");
    t.good("gm", "/fc item 盾 2");
    t.good("gm", "/fc items");
    t.good(
        "gm",
        r#"/fc load {"skill":[{"name":"料理2","base":"IQ","expertise":1}]}"#,
    );
    t.good("alice", "/fc done Mina");
    // FC-13 (l.235): the day's injury roll by hand only before the table's clock runs.
    t.good("gm", "/fc damage Mina 1");
    t.good("gm", "/fc day Mina norest");
    t.good("gm", "/fc time 30 active");
    t.good("gm", "/fc time");
    t.good("gm", "/fc damage Mina 12");
    t.good("gm", "/fc fatigue Mina 20");
    t.good("gm", "/fc heal Mina fatigue 3");
    t.good("gm", "/fc miss Mina 2");
    t.good("gm", "/fc rest Mina 8 lying");
    // FC-2 (l.55): Mina is dead here (cumulative 34, death line 30): no meal until the
    // GM's heal brings her back.
    t.bad("alice", "/fc meal Mina");
    t.good("gm", "/fc heal Mina fatigue 10");
    // Still unconscious (cumulative 24, unconscious line 22): her player cannot feed
    // her (FC-2, l.53); the GM records it.
    t.bad("alice", "/fc meal Mina");
    t.good("gm", "/fc meal Mina");
    t.bad("gm", "/fc day Mina norest");
    t.good("gm", "/fc xp Mina 1 -1");
    t.good("gm", "/fc interlude start");
    t.good("gm", "/fc lose Mina ST 1");
    t.good("gm", "/fc set female_modifier clamp");
    t.good("gm", "/fc set total_lv_table 0:1,20:2");
    t.good("gm", "/fc skill 料理 IQ 1 fields=和食,洋食 cost=1");
    t.good("gm", "/fc settings");
    t.good("gm", "/fc skills");
    t.good("gm", "/fc interlude end");
    for (who, line) in [
        ("alice", "/fc create Mina female"),
        ("bob", "/fc create Mina male"),
        ("alice", "/fc create Ghost maybe"),
        ("alice", "/fc learn Mina 接近戦 3"),
        ("alice", "/fc raise Mina ST"),
        ("alice", "/fc raise Mina XX"),
        ("alice", "/fc damage Mina 3"),
        ("alice", "/fc xp Mina 5"),
        ("gm", "/fc miss Mina 5"),
        ("gm", "/fc rest Mina 99"),
        ("gm", "/fc day Mina later"),
        ("gm", "/fc set nothing on"),
        ("gm", "/fc set comparison_auto maybe"),
        ("gm", "/fc skill 何か ST 2"),
        ("gm", "/fc learn Ghost 接近戦 1"),
        ("gm", "/fc learn Nobody 接近戦 1"),
        ("gm", "/fc done Mina"),
        ("gm", "/fc extra Mina 1 接近戦"),
        ("gm", "/fc extra Mina 1"),
        ("gm", "/fc reroll Mina"),
        ("alice", "/fc hand Mina 上"),
        ("gm", "/fc damage Mina -3"),
        ("gm", "/fc damage Mina 4294967296"),
        ("alice", "/fc equip Mina -2"),
        ("alice", "/fc equip Mina 魔靴"),
        ("gm", "/fc item 盾 -2"),
        ("gm", "/fc load {"),
        ("gm", "/fc skill 錬金 IQ 0"),
        ("gm", "/fc skill 錬金 IQ 2 requires=錬金"),
        ("gm", "/fc skill 錬金 IQ 2 requires=幻術"),
        ("gm", "/fc time 100"),
        ("alice", "/fc time 3"),
        ("alice", "/fc day Mina rest"),
        ("gm", "/fc special Mina 接近戦 鞭"),
        ("gm", "/fc heal Mina both 1"),
        ("gm", "/fc nonsense"),
    ] {
        t.bad(who, line);
    }
    t.sheet("alice", "Mina");
    t.finish(20);
}

#[test]
fn lotrs_commands_speak_both_languages() {
    let mut t = Harness::new("LotrCoda");
    t.good("gm", "/lotr damage Mina 12");
    t.good("gm", "/lotr heal Mina skill");
    t.good("gm", "/lotr heal Mina rest 2");
    t.good("gm", "/lotr heal Mina week ok");
    t.good("gm", "/lotr poison Mina 3 1d6 毒");
    t.good("gm", "/lotr poison Mina next");
    t.good("gm", "/lotr weary Mina +5");
    t.good("gm", "/lotr recover Mina extraordinary");
    t.good("alice", "/lotr courage Mina 1 Ride");
    t.good("alice", "/lotr courage Mina impossible selfish");
    t.good("gm", "/lotr courage Mina weariness");
    t.good("gm", "/lotr round");
    t.good("gm", "/lotr corruption Mina yield");
    t.good("gm", "/lotr corruption Mina deed 2");
    t.good("gm", "/lotr corruption Mina 12");
    t.good("gm", "/lotr corruption Mina 12 followup");
    t.good("gm", "/lotr fall Mina 2d6 12");
    t.good("gm", "/lotr fire Mina 10 dmg=2");
    t.good("gm", "/lotr drown Mina 12 dmg=3");
    t.good("gm", "/lotr drown Mina rest");
    t.good("gm", "/lotr weary Mina test 10 encumbered old");
    t.good("gm", "/lotr renown Mina +1 deed");
    t.good("alice", "/lotr travel 50 Mina=20 Roy=15");
    t.good("gm", "/lotr heal Mina week roll");
    t.good("alice", "/lotr recognise Mina area 3 race");
    t.good("gm", "/lotr set hobbit_death on_incapacitated");
    t.good("gm", "/lotr table wound_penalties 0,-1,-2,-3,-4,-5");
    t.good("gm", "/lotr settings");
    t.good("gm", "/lotr table weariness_recovery 0,1,1,1,1,0");
    t.good("gm", "/lotr weary Mina rest 30");
    t.good("gm", "/lotr heal Mina infection by=Mina tn=5");
    t.good("gm", "/lotr heal Mina infection clear");
    for (who, line) in [
        ("alice", "/lotr armed Mina Swords sweep"),
        ("gm", "/lotr heal Mina infection by=Nobody"),
        ("gm", "/lotr weary Mina rest -5"),
        ("gm", "/lotr table infection_rates day"),
        ("alice", "/lotr recover Mina superior"),
        ("alice", "/lotr damage Mina 3"),
        ("bob", "/lotr courage Mina 1"),
        ("alice", "/lotr courage Mina 9"),
        ("alice", "/lotr courage Mina 0"),
        ("alice", "/lotr recover Mina"),
        ("gm", "/lotr corruption Mina yield 1"),
        ("gm", "/lotr corruption Mina deed 1"),
        ("alice", "/lotr corruption Mina 12"),
        ("gm", "/lotr create Mina pick 12,11,9,8,6,4"),
        ("gm", "/lotr fall Mina 2x 12"),
        ("gm", "/lotr weary Mina ignore 10"),
        ("gm", "/lotr weary Mina test 10 load=99999"),
        ("alice", "/lotr travel 50 Mina=0"),
        ("gm", "/lotr heal Mina rest -2"),
        ("gm", "/lotr money Nobody +1GP"),
        ("alice", "/lotr recognise Mina moon 3"),
        ("gm", "/lotr damage Mina -3"),
        ("gm", "/lotr poison Mina 3 3d6"),
        ("gm", "/lotr poison Roy next"),
        ("gm", "/lotr heal Mina later"),
        ("gm", "/lotr set nothing on"),
        ("gm", "/lotr set group_bonus maybe"),
        ("gm", "/lotr table wound_penalties 1,2"),
        ("gm", "/lotr table nothing 1"),
        ("gm", "/lotr damage Nobody 3"),
        ("gm", "/lotr damage Ghost 3"),
        ("gm", "/lotr nonsense"),
        ("alice", "/lotr round"),
    ] {
        t.bad(who, line);
    }
    t.sheet("alice", "Mina");
    t.finish(20);
}

/// FC-9, FC-10, FC-11 and SG-8 (issues 14, 15): a check's result on an English table,
/// through `taku_systems::roll_text`, holds no Japanese word (成功, 失敗, 自動的成功,
/// 度合, 左の勝利, 攻撃側, クリティカル …); on a Japanese table the text is BCDice's, unchanged.
#[test]
fn four_card_and_sengensho_check_results_read_in_english() {
    let cases: &[(&str, &str, &[u32], &str)] = &[
        // FC-10: 8+7 = 15 against 10: success, degree 15−10.
        ("FourCard", "FC+7>=10", &[2, 6], "success (degree +5)"),
        ("FourCard", "FC+1>=12", &[3, 4], "failure"),
        // FC-9: 12 succeeds automatically; FC-10: a difficulty above 30 is flagged.
        (
            "FourCard",
            "FC+0>=40",
            &[6, 6],
            "automatic success (degree +0) * the difficulty is above the limit of 30",
        ),
        // FC-9: 2 fails automatically and costs 1 fatigue.
        (
            "FourCard",
            "FC+9>=5",
            &[1, 1],
            "automatic failure (1 fatigue)",
        ),
        // FC-11: a tie is re-rolled, then the higher side wins.
        (
            "FourCard",
            "FC+4 VS FC+4",
            &[3, 3, 3, 3, 5, 5, 1, 2],
            "tie: re-roll",
        ),
        ("FourCard", "FC+4 VS FC+4", &[5, 5, 1, 2], "left wins"),
        ("FourCard", "FC+4 VS FC+4", &[1, 2, 5, 5], "right wins"),
        ("FourCard", "FC+4 VS 20", &[6, 6], "left "),
        // SG-8: 14+3 = 17 against 12.
        ("Sengensyou", "SGS+3>=12", &[5, 5, 4], "17 ＞ success"),
        ("Sengensyou", "SGS+0>=12", &[1, 1, 1], "fumble ＞ failure"),
        ("Sengensyou", "SGS+0>=12", &[6, 6, 6], "critical ＞ success"),
        // SG-8: the attacker rolls first; the higher total wins.
        (
            "Sengensyou",
            "SGS+2 VS SGS+0",
            &[6, 6, 6, 1, 1, 2],
            "attacker wins",
        ),
        (
            "Sengensyou",
            "SGS+0 VS SGS+0",
            &[1, 2, 3, 6, 5, 4],
            "defender wins",
        ),
    ];
    for (id, command, dice, expected) in cases {
        let system = find(id).expect("system");
        let mut source =
            ScriptedSource::new(dice.iter().map(|&value| ScriptedDraw { sides: 6, value }));
        let result = taku_systems::evaluate(system, command, &mut source, Mode::Normalize)
            .unwrap_or_else(|e| panic!("{command}: {e:?}"));
        let ja = taku_systems::roll_text(system, &result.text, taku_dice::Lang::Ja);
        assert_eq!(
            ja, result.text,
            "{command}: the Japanese table keeps BCDice's text"
        );
        assert!(
            result.text.chars().any(is_japanese),
            "{command}: {}",
            result.text
        );
        let en = taku_systems::roll_text(system, &result.text, taku_dice::Lang::En);
        assert!(
            !en.chars().any(is_japanese),
            "{command}: Japanese left in the English text: {en}"
        );
        assert!(en.contains(expected), "{command}: {en} lacks {expected}");
    }
}

/// SG (issue 15): a refusal that shows the right form names its placeholders in English
/// on an English table (`usage: /sg choose Mina TYPE1 TYPE2 TYPE3`), not `ミナ 類型1`.
#[test]
fn sengenshos_usage_refusals_speak_both_languages() {
    let mut t = Harness::new("Sengensyou");
    for (who, line) in [
        ("gm", "/sg set contest_tie"),
        ("gm", "/sg types nonsense"),
        ("alice", "/sg choose Mina a b"),
        ("alice", "/sg choose"),
        ("alice", "/sg bond Mina"),
        ("gm", "/sg preset Shadow"),
        ("gm", "/sg approve"),
        ("alice", "/sg retie Mina"),
        ("alice", "/sg use Mina"),
        ("alice", "/sg impress Mina"),
        ("gm", "/sg boss"),
        ("gm", "/sg effect"),
        ("alice", "/sg discover Mina"),
        ("gm", "/sg disguise"),
        ("gm", "/sg nonsense"),
    ] {
        match t.line(who, line) {
            Some(Err(refusal)) => {
                t.refusals += 1;
                assert!(
                    !refusal.en().chars().any(is_japanese),
                    "{line}: Japanese in the English refusal: {}",
                    refusal.en()
                );
            }
            other => panic!("{line} was not refused: {other:?}"),
        }
    }
    t.finish(15);
}
