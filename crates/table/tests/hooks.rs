//! The game-system hooks, through a small system written for this test: tokens per
//! character that refill at session end, a token spent for +20 on the owner's next check
//! (the shape of AW-5's command spell), GM-only notes, and keys only their holder sees
//! (the shape of AW-6). Also checks that read character fields (`{KEY}`) and `/undo`
//! of changes others built on.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use taku_dice::{Lang, Profile, Text};
use taku_systems::GameSystem;
use taku_systems::table_rules::{
    Audience, CommandHelp, DynRules, Outcome, Prepared, TableRules, TableView,
};
use taku_systems::view::{Field, Section, Value};
use taku_table::{EventBody, Table};

struct Tokens;

#[derive(Debug, Clone, Default, Serialize)]
struct State {
    tokens: BTreeMap<String, u32>,
    boosted: BTreeMap<String, bool>,
    notes: Vec<String>,
    keys: BTreeMap<String, Vec<String>>,
    totals: Vec<i64>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Ev {
    Give { character: String, n: u32 },
    Spend { character: String },
    Used { character: String },
    Refill { character: String },
    Note { text: String },
    Key { character: String, key: String },
    Rolled { total: i64 },
}

impl TableRules for Tokens {
    type State = State;
    type Event = Ev;

    fn commands(&self) -> &'static [CommandHelp] {
        &[
            CommandHelp {
                usage: "/token give CHARACTER N",
                help: "give tokens (GM)",
                help_en: "give tokens (GM)",
            },
            CommandHelp {
                usage: "/token spend CHARACTER",
                help: "+20 on the character's next check",
                help_en: "+20 on the character's next check",
            },
            CommandHelp {
                usage: "/note TEXT",
                help: "a GM-only note",
                help_en: "a GM-only note",
            },
            CommandHelp {
                usage: "/key CHARACTER KEY",
                help: "grant a key (GM)",
                help_en: "grant a key (GM)",
            },
        ]
    }

    fn decide(
        &self,
        table: &dyn TableView,
        state: &State,
        words: &[&str],
        dice: &mut taku_dice::Roller<'_>,
    ) -> Option<Result<Outcome<Ev>, Text>> {
        let one = |e| {
            Ok(Outcome {
                events: vec![e],
                reply: None,
            })
        };
        Some(match words {
            ["token", "give", c, n] if table.actor_is_gm() => match n.parse() {
                Ok(n) => one(Ev::Give {
                    character: c.to_string(),
                    n,
                }),
                Err(_) => Err(Text::verbatim(format!("'{n}' is not a number of tokens"))),
            },
            ["token", "lucky", c] if table.actor_is_gm() => match dice.roll_once(3) {
                Ok(n) => one(Ev::Give {
                    character: c.to_string(),
                    n: n as u32,
                }),
                Err(e) => Err(Text::verbatim(e.to_string())),
            },
            ["token", "give" | "lucky", ..] => Err(Text::verbatim("only the GM can give tokens")),
            ["token", "spend", c] => {
                match table.character(c) {
                    Some((owner, _)) if owner == table.actor() || table.actor_is_gm() => {}
                    _ => return Some(Err(Text::verbatim(format!("{c} is not your character")))),
                }
                if state.tokens.get(*c).copied().unwrap_or(0) == 0 {
                    return Some(Err(Text::verbatim(format!("{c} has no token left"))));
                }
                one(Ev::Spend {
                    character: c.to_string(),
                })
            }
            ["note", text @ ..] if table.actor_is_gm() => one(Ev::Note {
                text: text.join(" "),
            }),
            ["key", c, k] if table.actor_is_gm() => one(Ev::Key {
                character: c.to_string(),
                key: k.to_string(),
            }),
            _ => return None,
        })
    }

    fn fold(&self, state: &mut State, _actor: &str, event: &Ev) {
        match event {
            Ev::Give { character, n } => *state.tokens.entry(character.clone()).or_default() += n,
            Ev::Spend { character } => {
                if let Some(t) = state.tokens.get_mut(character).filter(|t| **t > 0) {
                    *t -= 1;
                    state.boosted.insert(character.clone(), true);
                }
            }
            Ev::Used { character } => {
                state.boosted.remove(character);
            }
            Ev::Refill { character } => {
                state.tokens.insert(character.clone(), 3);
            }
            Ev::Note { text } => state.notes.push(text.clone()),
            Ev::Key { character, key } => state
                .keys
                .entry(character.clone())
                .or_default()
                .push(key.clone()),
            Ev::Rolled { total } => state.totals.push(*total),
        }
    }

    fn describe(&self, event: &Ev) -> Text {
        Text::verbatim(match event {
            Ev::Give { character, n } => format!("{character} +{n} tokens"),
            Ev::Spend { character } => format!("{character} spends a token"),
            Ev::Used { character } => format!("{character}'s +20 used"),
            Ev::Refill { character } => format!("{character} refilled"),
            Ev::Note { text } => format!("note: {text}"),
            Ev::Key { character, key } => format!("{character} holds key {key}"),
            Ev::Rolled { total } => format!("tally {total}"),
        })
    }

    fn audience(&self, event: &Ev) -> Audience {
        match event {
            Ev::Note { .. } => Audience::Gm,
            Ev::Key { character, .. } => Audience::GmAndOwnerOf(character.clone()),
            _ => Audience::All,
        }
    }

    fn after_roll(
        &self,
        _table: &dyn TableView,
        _state: &State,
        _command: &str,
        result: &taku_dice::RollResult,
    ) -> Vec<Ev> {
        match result.detail {
            // A tally of plain sums (checks with a target are not counted).
            taku_dice::Detail::Sum {
                total,
                comparison: None,
            } => vec![Ev::Rolled { total }],
            _ => vec![],
        }
    }

    fn character_sheet(
        &self,
        _table: &dyn TableView,
        state: &State,
        name: &str,
        viewer_is_gm: bool,
    ) -> Vec<Section> {
        let Some(tokens) = state.tokens.get(name) else {
            return Vec::new();
        };
        let mut fields = vec![Field::derived(
            Text::verbatim("tokens"),
            Value::Number(i64::from(*tokens)),
        )];
        if viewer_is_gm {
            fields.push(Field::derived(
                Text::verbatim("GM notes"),
                Value::Number(state.notes.len() as i64),
            ));
        }
        vec![Section {
            title: Text::verbatim("tokens"),
            fields,
        }]
    }

    fn on_session_end(&self, state: &State) -> Vec<Ev> {
        state
            .tokens
            .keys()
            .map(|c| Ev::Refill {
                character: c.clone(),
            })
            .collect()
    }

    fn prepare_check(
        &self,
        table: &dyn TableView,
        state: &State,
        command: &str,
    ) -> Result<Prepared<Ev>, Text> {
        let boosted = state
            .boosted
            .keys()
            .find(|c| table.character(c).is_some_and(|(o, _)| o == table.actor()));
        let (Some(character), Some(at)) = (boosted, command.find(['>', '<', '='])) else {
            return Ok(Prepared {
                command: command.to_string(),
                events: vec![],
                note: None,
            });
        };
        Ok(Prepared {
            command: format!("{}+20{}", &command[..at], &command[at..]),
            events: vec![Ev::Used {
                character: character.clone(),
            }],
            note: Some(Text::verbatim(format!("{character} +20"))),
        })
    }
}

struct TokenSystem;

impl GameSystem for TokenSystem {
    fn id(&self) -> &'static str {
        "TokenTest"
    }
    fn name(&self) -> &'static str {
        "Token test system"
    }
    fn sort_key(&self) -> &'static str {
        "TOKEN"
    }
    fn help(&self) -> Text {
        Text::verbatim("Token test system")
    }
    fn profile(&self) -> &Profile {
        &Profile::DEFAULT
    }
    fn table_rules(&self) -> Option<&dyn DynRules> {
        Some(&Tokens)
    }
}

static SYSTEM: TokenSystem = TokenSystem;

fn table() -> Table {
    let mut t = Table::create_in(&SYSTEM, "hooks", "gm", [9; 32])
        .expect("table")
        .with_entropy(taku_table::Entropy::SeqKeyedForTests);
    for line in ["/join alice", "/join bob", "/join sam as spectator"] {
        t.exec("gm", line).expect("join");
    }
    t.exec("alice", "/char new ミナ").expect("char");
    t.exec("bob", "/char new ロイ").expect("char");
    t
}

fn run(t: &mut Table, actor: &str, line: &str) -> Vec<String> {
    let (_, events) = t
        .exec(actor, line)
        .unwrap_or_else(|e| panic!("{actor}: {line}: {e}"));
    let events = events.to_vec();
    events
        .iter()
        .map(|e| t.entry(e, actor, Lang::En).text)
        .collect()
}

fn refused(t: &mut Table, actor: &str, line: &str) -> String {
    let before = t.events().len();
    let state = t.system_state().map(|s| s.to_json());
    let err = t.exec(actor, line).expect_err("refused").render(Lang::En);
    assert_eq!(t.events().len(), before, "a refused line appended events");
    assert_eq!(t.system_state().map(|s| s.to_json()), state);
    err
}

fn tokens(t: &Table) -> serde_json::Value {
    t.system_state().expect("state").to_json()["tokens"].clone()
}

fn seen(t: &Table, viewer: &str) -> String {
    t.events()
        .iter()
        .map(|e| t.entry(e, viewer, Lang::En).text)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn help_lists_the_systems_commands() {
    let mut t = table();
    let (reply, _) = t.exec("alice", "/help").expect("help");
    let reply = reply.expect("reply").en().to_string();
    assert!(reply.contains("/join NAME"), "{reply}");
    assert!(
        reply.contains("Token test system's table commands:"),
        "{reply}"
    );
    assert!(reply.contains("/token spend CHARACTER"), "{reply}");
    assert!(
        refused(&mut t, "alice", "/frobnicate").contains("unknown table command '/frobnicate'")
    );
}

#[test]
fn system_commands_change_state_and_refusals_change_nothing() {
    let mut t = table();
    assert_eq!(
        refused(&mut t, "alice", "/token give ミナ 2"),
        "only the GM can give tokens"
    );
    run(&mut t, "gm", "/token give ミナ 1");
    assert_eq!(tokens(&t), serde_json::json!({"ミナ": 1}));
    assert_eq!(
        refused(&mut t, "bob", "/token spend ミナ"),
        "ミナ is not your character"
    );
    assert_eq!(
        run(&mut t, "alice", "/token spend ミナ"),
        ["#8 alice: ミナ spends a token"]
    );
    assert_eq!(
        refused(&mut t, "alice", "/token spend ミナ"),
        "ミナ has no token left"
    );
}

#[test]
fn an_effect_applies_to_the_next_check_once_and_shows_in_its_text() {
    let mut t = table();
    run(&mut t, "gm", "/token give ミナ 1");
    run(&mut t, "alice", "/token spend ミナ");
    // bob's check is not boosted: the token is ミナ's.
    let bob = run(&mut t, "bob", "2D6>=10");
    assert!(bob[0].starts_with("#9 bob: (2D6>=10)"), "{bob:?}");
    let alice = run(&mut t, "alice", "2D6>=10");
    assert!(alice[0].starts_with("#10 alice: (2D6+20>=10)"), "{alice:?}");
    assert!(alice[0].ends_with("成功 （ミナ +20）"), "{alice:?}");
    assert_eq!(alice[1], "#11 alice: ミナ's +20 used");
    let EventBody::Roll(roll) = &t.events()[9].body else {
        panic!("a roll")
    };
    assert_eq!(roll.typed.as_deref(), Some("2D6>=10"));
    assert_eq!(roll.input, "2D6+20>=10");
    // Used once; the effect follows the roll, so /undo cannot give it back.
    let again = run(&mut t, "alice", "2D6>=10");
    assert!(again[0].starts_with("#12 alice: (2D6>=10)"), "{again:?}");
    // Her last line drew dice: a bare /undo refuses rather than reach back to #8.
    assert!(refused(&mut t, "alice", "/undo").contains("#12 drew randomness"));
    run(&mut t, "alice", "/undo #8");
    assert_eq!(
        t.system_state().expect("state").to_json()["boosted"],
        serde_json::json!({}),
        "/undo took back the spend (#8), not the effect's use"
    );
    assert!(
        t.verify().is_empty(),
        "boosted rolls replay from their input"
    );
}

#[test]
fn session_end_resets_and_its_undo_takes_them_back() {
    let mut t = table();
    run(&mut t, "gm", "/token give ミナ 1");
    run(&mut t, "alice", "/token spend ミナ");
    let ended = run(&mut t, "gm", "/session end");
    assert_eq!(ended, ["#9 gm: session ended", "#10 gm: ミナ refilled"]);
    assert_eq!(tokens(&t), serde_json::json!({"ミナ": 3}));
    run(&mut t, "gm", "/undo");
    assert_eq!(tokens(&t), serde_json::json!({"ミナ": 0}));
    assert_eq!(t.scene_and_session(), (1, 1));
    // The refill went with the session end: nothing is left for another /undo but the spend.
    run(&mut t, "gm", "/undo alice");
    assert_eq!(tokens(&t), serde_json::json!({"ミナ": 1}));
}

#[test]
fn gm_only_facts_and_keys_reach_only_who_may_see_them() {
    let mut t = table();
    run(&mut t, "gm", "/note the butler did it");
    run(&mut t, "gm", "/key ミナ 銀の鍵");
    let gm = seen(&t, "gm");
    assert!(gm.contains("note: the butler did it") && gm.contains("ミナ holds key 銀の鍵"));
    let alice = seen(&t, "alice");
    assert!(!alice.contains("butler"), "{alice}");
    assert!(alice.contains("ミナ holds key 銀の鍵"), "{alice}");
    for viewer in ["bob", "sam"] {
        let s = seen(&t, viewer);
        assert!(
            !s.contains("butler") && !s.contains("銀の鍵"),
            "{viewer}: {s}"
        );
    }
    // A player's /undo of nothing and a refused GM command say nothing of the notes.
    let err = refused(&mut t, "bob", "/note x");
    assert!(!err.contains("butler"), "{err}");
}

#[test]
fn checks_read_character_fields() {
    let mut t = table();
    run(&mut t, "alice", "/char set ミナ 知覚 3");
    let out = run(&mut t, "alice", "2D6+{知覚}>=10");
    assert!(out[0].starts_with("#8 alice: (2D6+3>=10)"), "{out:?}");
    let out = run(&mut t, "bob", "2D6+{ミナ.知覚}");
    assert!(out[0].starts_with("#9 bob: (2D6+3)"), "{out:?}");
    let err = refused(&mut t, "bob", "2D6+{知覚}>=10");
    assert!(err.contains("ロイ has no field '知覚'"), "{err}");
    run(&mut t, "alice", "/char set ミナ 名前 ミナ・ルー");
    let err = refused(&mut t, "alice", "2D6+{名前}");
    assert!(err.contains("not a whole number"), "{err}");
    // Braces in chat are chat.
    let out = run(&mut t, "bob", "see {this} later");
    assert_eq!(out, ["#12 bob: see {this} later"]);
    assert!(t.verify().is_empty());
}

#[test]
fn undo_keeps_what_others_built_on_it() {
    let mut t = table();
    run(&mut t, "alice", "/char set ミナ HP 5");
    run(&mut t, "gm", "/char set ミナ HP 7");
    run(&mut t, "alice", "/undo");
    assert_eq!(
        t.characters()["ミナ"].fields["HP"],
        "7",
        "the GM's later change stands"
    );
    run(&mut t, "gm", "/undo");
    assert!(!t.characters()["ミナ"].fields.contains_key("HP"));

    // Undoing a character's creation after others edited it removes it whole; the edits
    // cannot be undone on their own, and the name is free again.
    run(&mut t, "bob", "/char set ロイ 体力 4");
    run(&mut t, "gm", "/char set ロイ 体力 6");
    run(&mut t, "gm", "/undo bob");
    run(&mut t, "gm", "/undo bob");
    assert!(!t.characters().contains_key("ロイ"));
    run(&mut t, "bob", "/char new ロイ");
    assert!(t.characters()["ロイ"].fields.is_empty());

    // The log folds to the same state when reloaded.
    let reloaded = Table::from_events_in(&SYSTEM, t.events().to_vec()).expect("reload");
    assert_eq!(reloaded.characters(), t.characters());
    assert_eq!(
        reloaded.system_state().map(|s| s.to_json()),
        t.system_state().map(|s| s.to_json())
    );
}

#[test]
fn system_commands_draw_recorded_dice_that_verify_replays() {
    let mut t = table();
    let out = run(&mut t, "gm", "/token lucky ミナ");
    assert!(out[0].starts_with("#7 gm: ミナ +"), "{out:?}");
    let EventBody::System { rands, .. } = &t.events()[6].body else {
        panic!("a system event")
    };
    assert_eq!(rands.len(), 1);
    assert_eq!(rands[0][0], 3);
    assert!(t.verify().is_empty());
    let mut tampered = t.events().to_vec();
    if let EventBody::System { rands, .. } = &mut tampered[6].body {
        rands[0][1] = rands[0][1] % 3 + 1;
    }
    let m = Table::from_events_in(&SYSTEM, tampered)
        .expect("folds")
        .verify();
    assert_eq!((m.len(), m[0].seq), (1, 7), "{m:?}");
}

#[test]
fn rolls_are_followed_by_the_systems_events_and_sheets_show_its_state() {
    let mut t = table();
    let out = run(&mut t, "bob", "2D6+1");
    assert!(out[1].starts_with("#8 bob: tally "), "{out:?}");
    assert_eq!(
        t.system_state().expect("state").to_json()["totals"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    // Chat is not a roll: nothing follows it.
    assert_eq!(run(&mut t, "bob", "hello").len(), 1);
    // What follows a secret roll tells its result: only the roller and the GM see it
    // until the roll is revealed.
    let secret_seq = t.next_seq();
    let out = run(&mut t, "bob", "S2D6+1");
    assert!(
        out[1].starts_with(&format!("#{} bob: tally ", secret_seq + 1)),
        "{out:?}"
    );
    let tally = out[1].clone();
    assert!(seen(&t, "gm").contains(&tally));
    for other in ["alice", "sam"] {
        assert!(
            !seen(&t, other).contains(&tally),
            "{other} saw a secret roll's tally"
        );
    }
    run(&mut t, "bob", &format!("/reveal {secret_seq}"));
    assert!(seen(&t, "alice").contains(&tally), "revealed with the roll");
    run(&mut t, "gm", "/token give ミナ 2");
    run(&mut t, "gm", "/note secret plan");
    let (alice, _) = t.exec("alice", "/char show ミナ").expect("show");
    assert_eq!(
        alice.expect("reply").en(),
        "【ミナ (alice)】\n【tokens】\n  tokens: 2 (derived)"
    );
    let (gm, _) = t.exec("gm", "/char show ミナ").expect("show");
    assert!(
        gm.expect("reply")
            .en()
            .ends_with("tokens: 2 (derived)\n  GM notes: 1 (derived)")
    );
}
