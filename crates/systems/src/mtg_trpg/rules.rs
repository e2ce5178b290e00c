//! The MTG-based TRPG at a table: each PC's library is state, and checks (MT-2) move its
//! cards. Commands:
//!
//! - `/deck load PC LIST` (the list's lines separated by `;`), shuffled at once;
//! - `/deck shuffle PC`; `/deck known PC N` (GM: the player has seen the top N cards,
//!   revealed by play and put back on top);
//! - `/deck show PC`: count, contents, known top cards, the groups the player saw go to
//!   the bottom, exiled cards and where each returns; the whole order for the GM only;
//! - `/deck check PC COLOUR DIFFICULTY [boost] [force] [PURPOSE…]`: MT-2 steps 1–7. When
//!   the check would fail and a boost is allowed, it stays open for the player to decide
//!   (`/deck boost PC` or `/deck done PC`), since a boost is declared after target and
//!   achievement are known; `boost` declares it in advance (used only if needed);
//! - `/turn end [PC]` (the GM: everyone's; a player: their own PCs'): boost-exiled cards
//!   go to the bottom in random order, and the turn's boost and checks are forgotten; the
//!   scene's end returns boost-exiled cards too.
//!
//! MT-3: the same check (kind, difficulty, purpose) twice in one turn is refused, and so is
//! a check whose outcome the player can already know: the exact success probability from
//! what the player knows (the contents, the known top cards, the groups seen going to the
//! bottom) cannot go both ways (the GM may `force` it). A check that showed cards is never
//! undone.

use super::card::Card;
use super::check::{self, BOOST_CARDS, Outcome, Revealed};
use super::odds::{CheckKind, possible};
use super::{card_db, deck};
use crate::table_rules::{CommandHelp, Outcome as Decision, TableRules, TableView};
use crate::view::{Field, Section, Value};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use taku_dice::{Roller, Text};

/// One PC's library and what this turn did to it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Library {
    /// Cards, top first.
    pub cards: Vec<Card>,
    /// How many top cards the player knows (MT-2 step 1): only the GM says so, when the
    /// player has really seen them (revealed by play and put back on top).
    pub known: usize,
    /// Groups of cards at the bottom the player saw go there (a check's two revealed
    /// cards, a boost's six at end of turn), sizes from the uppermost group down: the
    /// player knows each group's cards but not their order within it (MT-3 「推測できる」).
    #[serde(default)]
    pub bottom: Vec<usize>,
    /// Cards a boost exiled until end of turn.
    pub exiled: Vec<Card>,
    /// The boost was used this turn.
    pub boosted: bool,
    /// Checks made this turn: (kind, difficulty, purpose).
    pub checks: Vec<(CheckKind, i64, String)>,
    /// A check waiting for the player's boost decision.
    pub open: Option<Open>,
}

/// A check revealed and waiting for a boost decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Open {
    /// Kind.
    pub kind: CheckKind,
    /// Difficulty.
    pub difficulty: i64,
    /// Purpose.
    pub purpose: String,
    /// Steps 1–4.
    pub revealed: Revealed,
    /// The two revealed cards (step 3's and step 4's), public: 「ライブラリーの上から1枚目と
    /// 2枚目のカードを公開」.
    #[serde(default)]
    pub cards: Vec<Card>,
}

/// Libraries by PC.
pub type State = BTreeMap<String, Library>;

impl Library {
    /// Keeps the known top cards and the bottom groups within the library: cards taken
    /// from the top once the unknown middle is used up come out of the uppermost groups.
    fn normalize(&mut self) {
        self.known = self.known.min(self.cards.len());
        let mut excess =
            (self.known + self.bottom.iter().sum::<usize>()).saturating_sub(self.cards.len());
        while excess > 0 {
            let Some(first) = self.bottom.first_mut() else {
                break;
            };
            let cut = excess.min(*first);
            *first -= cut;
            excess -= cut;
            if *first == 0 {
                self.bottom.remove(0);
            }
        }
    }

    /// The library below the known top cards as the player knows it: the unknown middle,
    /// then each bottom group (see [`Library::bottom`]).
    fn regions(&self) -> Vec<&[Card]> {
        let known = self.known.min(self.cards.len());
        let grouped: usize = self.bottom.iter().sum();
        let middle_end = self.cards.len().saturating_sub(grouped).max(known);
        let mut out = vec![&self.cards[known..middle_end]];
        let mut at = middle_end;
        for &n in &self.bottom {
            let end = (at + n).min(self.cards.len());
            out.push(&self.cards[at..end]);
            at = end;
        }
        out
    }
}

/// What happened to a library.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A deck became the PC's library, shuffled.
    Loaded {
        /// PC.
        character: String,
        /// The library, top first.
        cards: Vec<Card>,
        /// Sideboard cards left out.
        sideboard: usize,
    },
    /// The library was shuffled.
    Shuffled {
        /// PC.
        character: String,
        /// The new order, top first.
        cards: Vec<Card>,
    },
    /// The player knows the top `n` cards.
    Known {
        /// PC.
        character: String,
        /// How many.
        n: usize,
    },
    /// Target and achievement are known; the player may boost.
    Opened {
        /// PC.
        character: String,
        /// The open check.
        open: Open,
    },
    /// A check was made (MT-2 steps 1–7).
    Checked {
        /// PC.
        character: String,
        /// Purpose, if given.
        purpose: String,
        /// Everything that happened.
        outcome: Box<Outcome>,
    },
    /// End of turn: boost-exiled cards went to the bottom in this order.
    TurnEnded {
        /// PC.
        character: String,
        /// The cards, upper first.
        returned: Vec<Card>,
    },
    /// End of scene: boost-exiled cards went to the bottom in this order (seed line 106
    /// 「シーンあるいはターン終了時まで」).
    SceneEnded {
        /// PC.
        character: String,
        /// The cards, upper first.
        returned: Vec<Card>,
    },
}

/// The MTG-based TRPG's table rules.
pub struct MtgRules;

const COMMANDS: &[CommandHelp] = &[
    CommandHelp {
        usage: "/deck load ミナ 20 Forest; 4 Llanowar Elves; 4 Elvish Mystic; …",
        help: "デッキリストをライブラリーにする（; で行を区切る。サイドボードは入らない）。すぐシャッフル",
        help_en: "Make a deck list the PC's library (lines separated by ;, the sideboard left out), shuffled at once",
    },
    CommandHelp {
        usage: "/deck shuffle ミナ | /deck known ミナ 2 | /deck show ミナ",
        help: "シャッフル・上から2枚を知っている・枚数と既知のカードと追放中のカード",
        help_en: "Shuffle; the player knows the top 2 cards; show the count, the known cards and the exiled cards",
    },
    CommandHelp {
        usage: "/deck check ミナ 緑 2 [boost] [force] [扉をこじ開ける]",
        help: "行動判定（MT-2）: 白/青/黒/赤/緑/無色、難易度。失敗しそうならブーストを決めるまで待つ",
        help_en: "Action check (MT-2): white/blue/black/red/green/colourless and a difficulty; when it would fail, it waits for the boost decision",
    },
    CommandHelp {
        usage: "/deck boost ミナ | /deck done ミナ",
        help: "行動判定ブースト（1ターン1回、ライブラリー6枚以上）を宣言する・しないで確定",
        help_en: "Declare the check boost (once per turn, 6 or more cards in the library), or finish without it",
    },
    CommandHelp {
        usage: "/turn end [ミナ]",
        help: "ターン終了: ブーストで追放したカードを無作為の順番でライブラリーの一番下へ",
        help_en: "End of turn: cards a boost exiled go to the bottom of the library in random order",
    },
];

fn gm_or_owner(table: &dyn TableView, pc: &str) -> Result<(), Text> {
    match table.character(pc) {
        None => Err(Text::new(
            format!("「{pc}」というキャラクターはいません。/char new {pc} で作成してください"),
            format!("no character named '{pc}'; create it with /char new {pc}"),
        )),
        Some((owner, _)) if owner == table.actor() || table.actor_is_gm() => Ok(()),
        Some((owner, _)) => Err(Text::new(
            format!("{pc}は{owner}のキャラクターです。ライブラリーを扱えるのは{owner}かGMだけです"),
            format!("{pc} belongs to {owner}; only they or the GM handle its library"),
        )),
    }
}

fn library<'a>(state: &'a State, pc: &str) -> Result<&'a Library, Text> {
    state
        .get(pc)
        .filter(|l| !l.cards.is_empty() || !l.exiled.is_empty())
        .ok_or_else(|| {
            Text::new(
                format!("{pc}にはライブラリーがありません。/deck load {pc} デッキリスト で作成してください"),
                format!("{pc} has no library; load one with /deck load {pc} LIST"),
            )
        })
}

fn open_check(pc: &str) -> Text {
    Text::new(
        format!("{pc}は判定の途中です。先に /deck boost {pc} か /deck done {pc} をしてください"),
        format!("{pc} has an open check; /deck boost {pc} or /deck done {pc} first"),
    )
}

fn one(e: Event) -> Result<Decision<Event>, Text> {
    Ok(Decision {
        events: vec![e],
        reply: None,
    })
}

/// Fisher–Yates with the table's dice.
fn shuffled(cards: &[Card], dice: &mut Roller<'_>) -> Result<Vec<Card>, Text> {
    let mut out = cards.to_vec();
    for i in (1..out.len()).rev() {
        let j = dice.roll_index(i + 1).map_err(|e| e.text())?;
        out.swap(i, j);
    }
    Ok(out)
}

impl TableRules for MtgRules {
    type State = State;
    type Event = Event;

    fn commands(&self) -> &'static [CommandHelp] {
        COMMANDS
    }

    fn decide(
        &self,
        table: &dyn TableView,
        state: &State,
        words: &[&str],
        dice: &mut Roller<'_>,
    ) -> Option<Result<Decision<Event>, Text>> {
        Some(match words {
            ["deck", "load", pc, list @ ..] if !list.is_empty() => (|| {
                gm_or_owner(table, pc)?;
                if state.get(*pc).is_some_and(|l| l.open.is_some()) {
                    return Err(open_check(pc));
                }
                // A list pasted whole keeps its line breaks: the table shows each as `↵`
                // (MTGO/Arena exports: a blank line before the sideboard).
                let text = list.join(" ").replace('↵', "\n");
                let deck = deck::parse(&text, card_db()).map_err(|e| e.text())?;
                one(Event::Loaded {
                    character: pc.to_string(),
                    cards: shuffled(&deck.main, dice)?,
                    sideboard: deck.sideboard,
                })
            })(),
            ["deck", "shuffle", pc] => (|| {
                gm_or_owner(table, pc)?;
                let l = library(state, pc)?;
                if l.open.is_some() {
                    return Err(open_check(pc));
                }
                one(Event::Shuffled {
                    character: pc.to_string(),
                    cards: shuffled(&l.cards, dice)?,
                })
            })(),
            ["deck", "known", pc, n] => (|| {
                gm_or_owner(table, pc)?;
                // MT-2 step 1 「PLがライブラリーの上にあるカードが何かを知っている場合」: the
                // player knows cards they have seen; saying so would let them read the
                // library, so the GM, who saw the play that revealed them, says it.
                if !table.actor_is_gm() {
                    return Err(Text::new(
                        format!(
                            "{pc}が知っているライブラリーの上のカードを決められるのはGMだけです（プレイで公開されて上に戻ったカードだけが既知です）"
                        ),
                        format!(
                            "only the GM says which top cards of {pc}'s library the player knows (only cards revealed by play and put back on top are known)"
                        ),
                    ));
                }
                let l = library(state, pc)?;
                let n: usize = n.parse().map_err(|_| {
                    Text::new(
                        format!("「{n}」は枚数ではありません"),
                        format!("'{n}' is not a number of cards"),
                    )
                })?;
                if n > l.cards.len() {
                    return Err(Text::new(
                        format!("{pc}のライブラリーは{}枚しかありません", l.cards.len()),
                        format!("{pc}'s library has only {} cards", l.cards.len()),
                    ));
                }
                one(Event::Known {
                    character: pc.to_string(),
                    n,
                })
            })(),
            ["deck", "show", pc] => (|| {
                gm_or_owner(table, pc)?;
                Ok(Decision {
                    events: Vec::new(),
                    reply: Some(show(pc, library(state, pc)?, table.actor_is_gm())),
                })
            })(),
            ["deck", "check", pc, kind, difficulty, rest @ ..] => {
                check_command(table, state, pc, kind, difficulty, rest, dice)
            }
            ["deck", "boost" | "done", pc] => (|| {
                gm_or_owner(table, pc)?;
                let l = library(state, pc)?;
                let Some(open) = &l.open else {
                    return Err(Text::new(
                        format!("{pc}に途中の判定はありません"),
                        format!("{pc} has no open check"),
                    ));
                };
                let boost = words[1] == "boost";
                if boost && l.boosted {
                    return Err(Text::new(
                        format!(
                            "{pc}はこのターンすでにブーストしました。ブーストは1ターンに1回です（MT-2）"
                        ),
                        format!("{pc} already boosted this turn; a boost is once per turn (MT-2)"),
                    ));
                }
                if boost && !check::boost_allowed(&l.cards, open.revealed.known) {
                    return Err(Text::new(
                        format!(
                            "ブーストにはライブラリーに{BOOST_CARDS}枚必要ですが、{pc}のライブラリーはそれより少なくなっています（MT-2）"
                        ),
                        format!(
                            "a boost needs {BOOST_CARDS} cards in the library; {pc} has fewer (MT-2)"
                        ),
                    ));
                }
                let outcome = check::finish(
                    &l.cards,
                    &open.revealed,
                    open.kind,
                    open.difficulty,
                    boost,
                    dice,
                )
                .map_err(|e| e.text())?;
                one(Event::Checked {
                    character: pc.to_string(),
                    purpose: open.purpose.clone(),
                    outcome: Box::new(outcome),
                })
            })(),
            ["turn", "end", rest @ ..] if rest.len() <= 1 => {
                turn_end(table, state, rest.first().copied(), dice)
            }
            ["deck", ..] => Err(Text::new(
                "使い方: /deck load|shuffle|known|show|check|boost|done …（/help に一覧があります）",
                "usage: /deck load|shuffle|known|show|check|boost|done …; /help lists them",
            )),
            ["turn", ..] => Err(Text::new(
                "使い方: /turn end [キャラクター]",
                "usage: /turn end [CHARACTER]",
            )),
            _ => return None,
        })
    }

    /// MT-2: a check's revealed cards (and anything a check moved) cannot be taken back
    /// to look again (seed line 121: from a check's start until its result is done, no
    /// player gets priority).
    fn reveals(&self, event: &Event) -> bool {
        matches!(event, Event::Opened { .. } | Event::Checked { .. })
    }

    /// Seed line 106: boost-exiled cards stay exiled until the scene or the turn ends;
    /// at the scene's end they go to the bottom in random order.
    fn on_scene_end(&self, state: &State, dice: &mut Roller<'_>) -> Vec<Event> {
        state
            .iter()
            .filter(|(_, l)| !l.exiled.is_empty())
            .filter_map(|(pc, l)| {
                Some(Event::SceneEnded {
                    character: pc.clone(),
                    returned: shuffled(&l.exiled, dice).ok()?,
                })
            })
            .collect()
    }

    fn fold(&self, state: &mut State, _actor: &str, event: &Event) {
        match event {
            Event::SceneEnded {
                character,
                returned,
            } => {
                if let Some(l) = state.get_mut(character) {
                    l.cards.extend(returned.iter().cloned());
                    if !returned.is_empty() {
                        l.bottom.push(returned.len());
                    }
                    l.exiled.clear();
                }
            }
            Event::Loaded {
                character, cards, ..
            } => {
                // A deck loaded mid-turn is a new library, not a new turn: the turn's boost
                // and checks stand, and boost-exiled cards stay exiled until the turn ends
                // (「いかなる方法でも追放領域を離れません」).
                let l = state.entry(character.clone()).or_default();
                l.cards = cards.clone();
                l.known = 0;
                l.bottom.clear();
            }
            Event::Shuffled { character, cards } => {
                if let Some(l) = state.get_mut(character) {
                    l.cards = cards.clone();
                    l.known = 0;
                    l.bottom.clear();
                }
            }
            Event::Known { character, n } => {
                if let Some(l) = state.get_mut(character) {
                    l.known = (*n).min(l.cards.len());
                    l.normalize();
                }
            }
            Event::Opened { character, open } => {
                if let Some(l) = state.get_mut(character) {
                    l.open = Some(open.clone());
                }
            }
            Event::Checked {
                character,
                purpose,
                outcome,
            } => {
                if let Some(l) = state.get_mut(character) {
                    l.cards = outcome.library.clone();
                    l.known = outcome.known.len();
                    if let Some(b) = &outcome.boost {
                        l.exiled.extend(b.cards.iter().cloned());
                        l.boosted = true;
                    }
                    l.checks
                        .push((outcome.kind, outcome.difficulty, purpose.clone()));
                    l.open = None;
                    // The player saw the two revealed cards go to the bottom.
                    l.bottom.push(outcome.bottom.len());
                    l.normalize();
                }
            }
            Event::TurnEnded {
                character,
                returned,
            } => {
                if let Some(l) = state.get_mut(character) {
                    l.cards.extend(returned.iter().cloned());
                    if !returned.is_empty() {
                        l.bottom.push(returned.len());
                    }
                    l.exiled.clear();
                    l.boosted = false;
                    l.checks.clear();
                }
            }
        }
    }

    fn describe(&self, event: &Event) -> Text {
        match event {
            Event::Loaded {
                character,
                cards,
                sideboard,
            } => Text::new(
                format!(
                    "{character}のライブラリー: {}枚をシャッフル（サイドボード{sideboard}枚は入れない）",
                    cards.len()
                ),
                format!(
                    "{character}'s library: {} cards shuffled (the {sideboard} sideboard card(s) left out)",
                    cards.len()
                ),
            ),
            Event::Shuffled { character, cards } => Text::new(
                format!("{character}のライブラリー{}枚をシャッフル", cards.len()),
                format!("{character}'s library of {} cards shuffled", cards.len()),
            ),
            Event::Known { character, n } => Text::new(
                format!("{character}はライブラリーの上{n}枚を知っている"),
                format!("{character} knows the top {n} card(s) of the library"),
            ),
            Event::Opened { character, open } => {
                let kind = check::kind_text(open.kind);
                // The revealed cards are public (MT-2 steps 3–4), so the table sees what the
                // boost is decided on; the purpose names the action.
                let card = |i: usize, ja: bool| {
                    open.cards.get(i).map(|c| {
                        if ja {
                            format!(" {} マナ総量{}", c.display(), c.mana_value)
                        } else {
                            format!(" {}, mana value {}", c.name, c.mana_value)
                        }
                    })
                };
                let purpose_ja = if open.purpose.is_empty() {
                    String::new()
                } else {
                    format!("「{}」", open.purpose)
                };
                let purpose_en = if open.purpose.is_empty() {
                    String::new()
                } else {
                    format!(" '{}'", open.purpose)
                };
                Text::new(
                    format!(
                        "{character}の{purpose_ja}{}（難易度{}）: 1枚目{} ＞ 目標値{} ／ 2枚目{} ＞ 達成値{} ＞ このままでは失敗。ブーストできます（/deck boost {character} か /deck done {character}）",
                        kind.ja(),
                        open.difficulty,
                        card(0, true).unwrap_or_default(),
                        open.revealed.target,
                        card(1, true).unwrap_or_default(),
                        open.revealed.achievement
                    ),
                    format!(
                        "{character}{purpose_en}'s {} (difficulty {}): 1st card{} > target {} / 2nd card{} > achievement {} > a failure as it stands; a boost is possible (/deck boost {character} or /deck done {character})",
                        kind.en(),
                        open.difficulty,
                        card(0, false).unwrap_or_default(),
                        open.revealed.target,
                        card(1, false).unwrap_or_default(),
                        open.revealed.achievement
                    ),
                )
            }
            Event::Checked {
                character,
                purpose,
                outcome,
            } => {
                let text = check::describe_text(outcome);
                Text::new(
                    format!(
                        "{character}の{}{}",
                        if purpose.is_empty() {
                            String::new()
                        } else {
                            format!("「{purpose}」")
                        },
                        text.ja()
                    ),
                    format!(
                        "{character}{}: {}",
                        if purpose.is_empty() {
                            String::new()
                        } else {
                            format!(" '{purpose}'")
                        },
                        text.en()
                    ),
                )
            }
            Event::SceneEnded {
                character,
                returned,
            } => Text::new(
                format!(
                    "シーン終了: {character}のブーストで追放した{}枚を無作為の順番でライブラリーの一番下へ",
                    returned.len()
                ),
                format!(
                    "end of scene: the {} card(s) {character}'s boost exiled go to the bottom of the library in random order",
                    returned.len()
                ),
            ),
            Event::TurnEnded {
                character,
                returned,
            } => {
                if returned.is_empty() {
                    Text::new(
                        format!("{character}のターン終了"),
                        format!("{character}'s turn ends"),
                    )
                } else {
                    Text::new(
                        format!(
                            "{character}のターン終了: ブーストで追放した{}枚を無作為の順番でライブラリーの一番下へ",
                            returned.len()
                        ),
                        format!(
                            "{character}'s turn ends: the {} card(s) a boost exiled go to the bottom of the library in random order",
                            returned.len()
                        ),
                    )
                }
            }
        }
    }

    fn character_sheet(
        &self,
        table: &dyn TableView,
        state: &State,
        name: &str,
        viewer_is_gm: bool,
    ) -> Vec<Section> {
        let Some(l) = state.get(name) else {
            return Vec::new();
        };
        let count = |label: Text, n: usize| {
            Field::derived(label, Value::Number(i64::try_from(n).unwrap_or(i64::MAX)))
        };
        let cards = |cards: &[Card]| Value::List(cards.iter().map(card_text).collect());
        let mut fields = vec![count(Text::new("枚数", "cards"), l.cards.len())];
        // The known top cards are the player's knowledge: their owner and the GM see them.
        let viewer_owns = table
            .character(name)
            .is_some_and(|(o, _)| o == table.actor());
        if l.known > 0 {
            fields.push(if viewer_is_gm || viewer_owns {
                Field::derived(
                    Text::new("既知のカード（上から）", "known cards (top first)"),
                    cards(&l.cards[..l.known.min(l.cards.len())]),
                )
            } else {
                count(Text::new("既知", "known"), l.known)
            });
        }
        if !l.exiled.is_empty() {
            fields.push(Field::derived(
                Text::new("ブーストで追放中", "exiled by a boost"),
                cards(&l.exiled),
            ));
        }
        fields.push(Field::derived(
            Text::new("このターンのブースト", "boost this turn"),
            Value::Text(if l.boosted {
                Text::new("使用済", "used")
            } else {
                Text::new("未使用", "not used")
            }),
        ));
        fields.push(count(
            Text::new("このターンの判定", "checks this turn"),
            l.checks.len(),
        ));
        vec![Section {
            title: Text::new("ライブラリー", "Library"),
            fields,
        }]
    }

    /// The table panel: checks waiting for their player's boost decision (MT-3), which
    /// every member saw revealed.
    fn table_sheet(&self, _table: &dyn TableView, state: &State, _gm: bool) -> Vec<Section> {
        let pending: Vec<Text> = state
            .iter()
            .filter_map(|(pc, l)| {
                let o = l.open.as_ref()?;
                Some(Text::new(
                    format!("{pc}: 難易度{} {}", o.difficulty, o.purpose),
                    format!("{pc}: difficulty {} {}", o.difficulty, o.purpose),
                ))
            })
            .collect();
        if pending.is_empty() {
            return Vec::new();
        }
        vec![Section {
            title: Text::new("ブーストの判断待ち", "Waiting for a boost decision"),
            fields: vec![Field::derived(
                Text::new("判定", "checks"),
                Value::List(pending),
            )],
        }]
    }
}

/// A card's name: Japanese and English in Japanese (`《ラノワールのエルフ》(Llanowar
/// Elves)`), English in English.
fn card_text(c: &Card) -> Text {
    Text::new(c.display(), c.name.as_str())
}

/// `/deck check PC KIND DIFFICULTY [boost] [force] [PURPOSE…]`.
fn check_command(
    table: &dyn TableView,
    state: &State,
    pc: &str,
    kind: &str,
    difficulty: &str,
    rest: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Decision<Event>, Text> {
    gm_or_owner(table, pc)?;
    let l = library(state, pc)?;
    if l.open.is_some() {
        return Err(open_check(pc));
    }
    let kind = CheckKind::parse(kind).ok_or_else(|| {
        Text::new(
            format!("判定の種類「{kind}」はありません。白/青/黒/赤/緑/無色（white/blue/black/red/green/colourless）のいずれかです"),
            format!("unknown check kind '{kind}'; use white/blue/black/red/green/colourless or 白/青/黒/赤/緑/無色"),
        )
    })?;
    let difficulty: i64 = difficulty.parse().map_err(|_| {
        Text::new(
            format!("「{difficulty}」は難易度ではありません（整数、ふつうは0〜8）"),
            format!("'{difficulty}' is not a difficulty (a whole number, usually 0 to 8)"),
        )
    })?;
    let boost_word = rest.contains(&"boost");
    let force = rest.contains(&"force");
    if force && !table.actor_is_gm() {
        return Err(Text::new(
            "結果が決まっている判定を強制できるのはGMだけです（MT-3）",
            "only the GM can force a check whose outcome is certain (MT-3)",
        ));
    }
    let purpose = rest
        .iter()
        .filter(|w| !matches!(**w, "boost" | "force"))
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    if l.checks
        .iter()
        .any(|(k, d, p)| *k == kind && *d == difficulty && *p == purpose)
    {
        let name = check::kind_text(kind);
        return Err(Text::new(
            format!(
                "{pc}はこのターンすでにこの判定（{} 難易度{difficulty}{}）を行ないました。同じ判定は1ターンに1回だけです（MT-3）",
                name.ja(),
                if purpose.is_empty() {
                    String::new()
                } else {
                    format!("「{purpose}」")
                }
            ),
            format!(
                "{pc} already made this check this turn ({}, difficulty {difficulty}{}); the same check twice in one turn is not allowed (MT-3)",
                name.en(),
                if purpose.is_empty() {
                    String::new()
                } else {
                    format!(", '{purpose}'")
                }
            ),
        ));
    }
    let known = l.known.min(l.cards.len());
    if l.cards.len() - known < 2 {
        return Err(check::CheckError::TooFewCards {
            left: l.cards.len() - known,
        }
        .text());
    }
    // MT-3: a check whose result the player can already know is not made.
    let boost_left = !l.boosted;
    if !force {
        // 「推測できる」: from what the player knows — the deck's contents, the known top
        // cards, and the groups they saw go to the bottom.
        let seen = possible(&l.regions(), kind, difficulty, boost_left).map_err(|e| e.text())?;
        let (never, always) = (!seen.success, !seen.failure);
        if never || always {
            let (ja, en) = if always {
                ("必ず成功する", "succeed")
            } else {
                ("必ず失敗する", "fail")
            };
            return Err(Text::new(
                format!(
                    "結果が決まっています: ライブラリーのカードからこの判定は{ja}ので、判定は行ないません（MT-3）。GMは force をつけて行なえます"
                ),
                format!(
                    "the outcome is certain: given the library's cards, this check would always {en}, so it is not made (MT-3); the GM may add 'force'"
                ),
            ));
        }
    }
    let revealed = check::reveal(&l.cards, known, kind, difficulty, dice).map_err(|e| e.text())?;
    let (target, achievement) = revealed.values();
    let can_boost = boost_left && check::boost_allowed(&l.cards, known);
    if achievement < target && can_boost && !boost_word {
        return one(Event::Opened {
            character: pc.to_string(),
            open: Open {
                kind,
                difficulty,
                purpose,
                revealed,
                cards: l.cards.iter().skip(known).take(2).cloned().collect(),
            },
        });
    }
    let boost = achievement < target && can_boost && boost_word;
    let outcome =
        check::finish(&l.cards, &revealed, kind, difficulty, boost, dice).map_err(|e| e.text())?;
    one(Event::Checked {
        character: pc.to_string(),
        purpose,
        outcome: Box::new(outcome),
    })
}

/// `/turn end [PC]`: the GM ends every PC's turn, a player their own PCs' (a named PC's
/// only with the GM's or its owner's permission). A PC whose check waits for the boost
/// decision keeps its turn without holding up the others'; naming it is refused.
fn turn_end(
    table: &dyn TableView,
    state: &State,
    pc: Option<&str>,
    dice: &mut Roller<'_>,
) -> Result<Decision<Event>, Text> {
    let pcs: Vec<&String> = match pc {
        Some(pc) => {
            gm_or_owner(table, pc)?;
            let l = library(state, pc)?;
            if l.open.is_some() {
                return Err(open_check(pc));
            }
            state.keys().filter(|k| k.as_str() == pc).collect()
        }
        None if table.actor_is_gm() => state.keys().collect(),
        None => {
            let own: Vec<&String> = state
                .keys()
                .filter(|k| {
                    table
                        .character(k)
                        .is_some_and(|(owner, _)| owner == table.actor())
                })
                .collect();
            if own.is_empty() {
                return Err(Text::new(
                    "あなたのPCにはライブラリーがありません。全員のターンを終了できるのはGMだけです",
                    "none of your PCs has a library; only the GM ends everyone's turn",
                ));
            }
            own
        }
    };
    let (waiting, ending): (Vec<&String>, Vec<&String>) =
        pcs.into_iter().partition(|pc| state[*pc].open.is_some());
    if ending.is_empty() {
        return Err(open_check(waiting.first().map_or("", |s| s.as_str())));
    }
    let mut events = Vec::new();
    for pc in ending {
        events.push(Event::TurnEnded {
            character: pc.clone(),
            returned: shuffled(&state[pc].exiled, dice)?,
        });
    }
    let reply = (!waiting.is_empty()).then(|| {
        let names = waiting
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("、");
        let names_en = waiting
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        Text::new(
            format!("{names}は判定の途中なのでターンを終了していません（/deck boost か /deck done の後で /turn end）"),
            format!("{names_en}: a check waits for the boost decision, so that turn has not ended (/deck boost or /deck done, then /turn end)"),
        )
    });
    Ok(Decision { events, reply })
}

/// `/deck show`: what the viewer may know of a library. A player sees the count, the
/// contents (they know their deck list), the known top cards and the groups they saw go
/// to the bottom, never the unknown order; the GM also sees the whole order.
fn show(pc: &str, l: &Library, gm: bool) -> Text {
    let mut ja = vec![format!("{pc}のライブラリー: {}枚", l.cards.len())];
    let mut en = vec![format!("{pc}'s library: {} cards", l.cards.len())];
    if l.known > 0 {
        let known = &l.cards[..l.known.min(l.cards.len())];
        ja.push(format!(
            "  既知の上{}枚（上から）: {}",
            l.known,
            check::names(known)
        ));
        en.push(format!(
            "  the top {} known (top first): {}",
            l.known,
            check::names_en(known)
        ));
    }
    if !l.exiled.is_empty() {
        ja.push(format!(
            "  ブーストで追放中（ターン終了時に無作為の順番でライブラリーの一番下へ）: {}",
            check::names(&l.exiled)
        ));
        en.push(format!(
            "  exiled by a boost (to the bottom of the library in random order at end of turn): {}",
            check::names_en(&l.exiled)
        ));
    }
    if let Some(open) = &l.open {
        let kind = check::kind_text(open.kind);
        ja.push(format!(
            "  判定中: {}（難易度{}） 目標値{} 達成値{}",
            kind.ja(),
            open.difficulty,
            open.revealed.target,
            open.revealed.achievement
        ));
        en.push(format!(
            "  open check: {} (difficulty {}), target {}, achievement {}",
            kind.en(),
            open.difficulty,
            open.revealed.target,
            open.revealed.achievement
        ));
    }
    ja.push(format!(
        "  このターン: ブースト{}、判定{}回",
        if l.boosted { "使用済" } else { "未使用" },
        l.checks.len()
    ));
    en.push(format!(
        "  this turn: boost {}, {} check(s)",
        if l.boosted { "used" } else { "not used" },
        l.checks.len()
    ));
    let regions = l.regions();
    for (i, group) in regions.iter().enumerate().skip(1) {
        if group.is_empty() {
            continue;
        }
        ja.push(format!(
            "  下にあると分かっているカード（{i}組目、組の中の順番は不明）: {}",
            check::names(group)
        ));
        en.push(format!(
            "  seen going to the bottom (group {i}, order within it unknown): {}",
            check::names_en(group)
        ));
    }
    if gm {
        ja.push(format!(
            "  （GMのみ）上からの順番: {}",
            check::names(&l.cards)
        ));
        en.push(format!(
            "  (GM only) the order, top first: {}",
            check::names_en(&l.cards)
        ));
    }
    // The contents (the player knows the deck list), not the order.
    let mut counts: BTreeMap<&str, (usize, &Card)> = BTreeMap::new();
    for c in &l.cards {
        counts.entry(c.name.as_str()).or_insert((0, c)).0 += 1;
    }
    ja.push(format!(
        "  内容: {}",
        counts
            .values()
            .map(|(n, c)| format!("{n} {}", c.display()))
            .collect::<Vec<_>>()
            .join("、")
    ));
    en.push(format!(
        "  contents: {}",
        counts
            .iter()
            .map(|(name, (n, _))| format!("{n} {name}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    Text::new(ja.join("\n"), en.join("\n"))
}
