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
use super::{card_db_checked, deck};
use crate::table_rules::{CommandHelp, Outcome as Decision, OwnedField, TableRules, TableView};
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
    /// The GM made a secret check with this library this turn (a GM character's): until
    /// the GM ends the turn, players see nothing of the library's turn (its count, exile
    /// and boost tell the result).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret: bool,
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
    /// The GM's secret check of a GM character: seen by the GM only.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret: bool,
    /// No boost can be declared (the turn's is spent, or fewer than six cards lie below
    /// the two revealed): only a secret check opens so (attack pass 5, A5-9).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_boost: bool,
}

/// Libraries by PC, and the GM's settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Libraries by PC.
    pub libraries: BTreeMap<String, Library>,
    /// The GM's settings (the digest's readings, with their defaults).
    #[serde(default)]
    pub settings: Settings,
}

/// Who shares the once-per-turn boost (seed 「1ターンに1回だけ行動判定ブーストを試みることが
/// できます」, 「1ターンに1回のみ」).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoostScope {
    /// Once per turn per player (the digest's MT-2 step 5 「once per turn per player」, the
    /// default): a player's PCs share it. The GM's characters have no player (the seed's
    /// turn is 「行動判定を行うPL側のターン」), so each of them boosts on its own.
    #[default]
    Player,
    /// Once per turn per PC (the seed counts the turn of the one making the check; a
    /// player with two PCs boosts once for each).
    Character,
}

/// The GM's settings: `/deck set KEY VALUE`, listed by `/deck settings`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// `boost`: `player` (default) or `pc`.
    #[serde(default)]
    pub boost: BoostScope,
}

impl Settings {
    /// The settings as the GM reads them.
    pub fn describe(&self) -> Text {
        let (ja, en) = match self.boost {
            BoostScope::Player => (
                "player（プレイヤーごとに1ターン1回。プレイヤーのPCたちで1回を分け合う。GMのキャラクターはそれぞれ1回。既定値）",
                "player (once per turn per player: a player's PCs share it; each GM character has its own; the default)",
            ),
            BoostScope::Character => ("pc（PCごとに1ターン1回）", "pc (once per turn per PC)"),
        };
        Text::new(
            format!("設定: boost = {ja}。変更は /deck set boost player|pc（GM）"),
            format!("settings: boost = {en}; change with /deck set boost player|pc (GM)"),
        )
    }
}

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
        /// Put in the order listed by the GM (`/deck order`), not shuffled.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ordered: bool,
    },
    /// The GM drew cards from the top (to the hand): seen by the GM and the owner.
    Drawn {
        /// PC.
        character: String,
        /// The cards, top first.
        cards: Vec<Card>,
    },
    /// The GM milled cards from the top (to the graveyard): public.
    Milled {
        /// PC.
        character: String,
        /// The cards, top first.
        cards: Vec<Card>,
    },
    /// The GM put cards on the top or the bottom, in this order (upper first); the
    /// player knows them there.
    Put {
        /// PC.
        character: String,
        /// The cards, upper first.
        cards: Vec<Card>,
        /// On top (else at the bottom).
        top: bool,
        /// A GM character's library: where its cards are is the GM's to know (a secret
        /// check would be only as secret as its top card), so the GM alone sees the line
        /// (issue 13 play-through 5).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        gm: bool,
    },
    /// The GM returned cards to the library and shuffled it (a refill: 「ライブラリーを
    /// 回復する手段」).
    Refilled {
        /// PC.
        character: String,
        /// The cards returned.
        added: Vec<Card>,
        /// The library after, top first.
        cards: Vec<Card>,
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
        /// The GM's secret check of a GM character: seen by the GM only.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        secret: bool,
    },
    /// End of turn: boost-exiled cards went to the bottom in this order.
    TurnEnded {
        /// PC.
        character: String,
        /// The cards, upper first.
        returned: Vec<Card>,
        /// Whether the turn's once-per-turn limits (boost, the same check) start afresh:
        /// only when the GM ends the turn (issue 13: a player's own `/turn end` repeated
        /// must not reset them).
        #[serde(default = "yes")]
        reset: bool,
        /// The library made a secret check this turn: what returns tells of its boost,
        /// so the GM alone sees it.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        secret: bool,
    },
    /// End of scene: boost-exiled cards went to the bottom in this order (seed line 106
    /// 「シーンあるいはターン終了時まで」).
    SceneEnded {
        /// PC.
        character: String,
        /// The cards, upper first.
        returned: Vec<Card>,
        /// As [`Event::TurnEnded`]'s.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        secret: bool,
    },
    /// The GM changed a setting.
    Set {
        /// The settings after.
        settings: Settings,
    },
}

fn yes() -> bool {
    true
}

impl Event {
    /// The PC whose library the event is about (none for a setting).
    fn library(&self) -> Option<&str> {
        match self {
            Event::Loaded { character, .. }
            | Event::Drawn { character, .. }
            | Event::Milled { character, .. }
            | Event::Put { character, .. }
            | Event::Refilled { character, .. }
            | Event::Shuffled { character, .. }
            | Event::Known { character, .. }
            | Event::Opened { character, .. }
            | Event::Checked { character, .. }
            | Event::TurnEnded { character, .. }
            | Event::SceneEnded { character, .. } => Some(character),
            Event::Set { .. } => None,
        }
    }
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
        help: "行動判定ブースト（1ターン1回。公開した2枚の下にライブラリーが6枚以上）を宣言する・しないで確定",
        help_en: "Declare the check boost (once per turn; 6 or more cards in the library below the two revealed), or finish without it",
    },
    CommandHelp {
        usage: "/deck draw ミナ 1 | /deck mill ミナ 2 | /deck top ミナ Elvish Mystic; Runeclaw Bear | /deck bottom ミナ Forest | /deck return ミナ 2 Forest | /deck order ミナ Elvish Mystic; Runeclaw Bear; 18 Forest",
        help: "（GM）ライブラリーの操作: 上から引く（持ち主とGMだけが見る）・切削（公開）・上/下に置く（プレイヤーは知っている）・戻してシャッフル（回復）・書いた順番で作る",
        help_en: "(GM) library operations: draw from the top (seen by the owner and the GM), mill (public), put on top/bottom (the player knows them), return and shuffle (a refill), load in the order written",
    },
    CommandHelp {
        usage: "/deck check 影 黒 3 secret 見張りに気付く",
        help: "（GM）GMのキャラクターの秘密の判定: 結果も公開したカードもGMだけが見る（そのターンのライブラリーの様子もプレイヤーには伏せる）",
        help_en: "(GM) a secret check of a GM character: the result and the revealed cards are seen by the GM only (and so is that library's turn)",
    },
    CommandHelp {
        usage: "/deck settings | /deck set boost player|pc",
        help: "設定の一覧・（GM）ブーストの1ターン1回をプレイヤーごと（既定値）かPCごとにする",
        help_en: "The settings; (GM) the once-per-turn boost per player (the default) or per PC",
    },
    CommandHelp {
        usage: "/turn end [ミナ]",
        help: "ターン終了: ブーストで追放したカードを無作為の順番でライブラリーの一番下へ（判定の途中はどのターンも終わりません、MT-3）",
        help_en: "End of turn: cards a boost exiled go to the bottom of the library in random order (no turn ends while a check is open, MT-3)",
    },
];

fn gm_or_owner(table: &dyn TableView, pc: &str) -> Result<(), Text> {
    match table.character(pc) {
        None => Err(Text::new(
            format!("「{pc}」というキャラクターはいません。/char new {pc} で作成してください"),
            format!("no character named '{pc}'; create it with /char new {pc}"),
        )),
        Some((owner, _)) if owner == table.actor() || table.actor_is_gm() => Ok(()),
        Some((owner, _)) if table.member_is_gm(owner) => Err(Text::new(
            format!("{pc}はGMのキャラクターです。ライブラリーを扱えるのはGMだけです"),
            format!("{pc} is a GM character; only the GM handles its library"),
        )),
        Some((owner, _)) => Err(Text::new(
            format!("{pc}は{owner}のキャラクターです。ライブラリーを扱えるのは{owner}かGMだけです"),
            format!("{pc} belongs to {owner}; only they or the GM handle its library"),
        )),
    }
}

/// Refuses a player: `ja`/`en` name what only the GM may do with `pc`'s library.
fn gm_only(pc: &str, ja: &str, en: &str) -> Result<(), Text> {
    Err(Text::new(
        format!("{pc}のライブラリーを{ja}のはGMだけです（ライブラリーの順番はゲームの状態です）"),
        format!("only the GM can {en} {pc}'s library (its order is game state)"),
    ))
}

fn library<'a>(state: &'a State, pc: &str) -> Result<&'a Library, Text> {
    state.libraries
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

/// The library tracker's own labels (MT-1/MT-3: the library, its count, the exile and the
/// turn's limits are the rules' state, shown by `/deck show` and the sheet): a sheet or
/// `/char set` writing them would show a made-up value beside the real one (issue 13
/// play-through 5).
const OWNED: &[OwnedField] = &[OwnedField {
    keys: &[
        "ライブラリー",
        "library",
        "デッキ",
        "deck",
        "枚数",
        "cards",
        "このターンのブースト",
        "boost this turn",
        "このターンの判定",
        "checks this turn",
        "ブーストで追放中",
        "exiled by a boost",
        "既知",
        "known",
        "既知のカード（上から）",
        "known cards (top first)",
    ],
    how: "ライブラリーはルールが管理します。/deck load 名前 デッキリスト で作り、/deck show 名前 で見ます（MT-1、MT-3）",
    how_en: "the library is kept by the rules: /deck load NAME DECKLIST makes it and /deck show NAME shows it (MT-1, MT-3)",
    gm_may_set: false,
}];

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
                // A player may replace their PC's library only while nothing of its order
                // is known (no known top cards, no cards seen going to the bottom):
                // replacing one the player knows something about is the GM's, as a
                // shuffle is, so what the GM set as known is not wiped at will.
                if state.libraries.get(*pc).is_some_and(|l| l.open.is_some()) {
                    return Err(open_check(pc));
                }
                // A list pasted whole keeps its line breaks: the table shows each as `↵`
                // (MTGO/Arena exports: a blank line before the sideboard).
                let text = list.join(" ").replace('↵', "\n");
                // MTG-8: an unreadable card index refuses this, saying why and what to do;
                // it touches no other command and no other system.
                let db = card_db_checked().map_err(Clone::clone)?;
                let deck = deck::parse(&text, db).map_err(|e| e.text())?;
                // The library in play is game state, as its order is: a player loads their
                // PC's deck once; replacing a library (a new deck, a reshuffle by reloading)
                // is the GM's (issue 13 play-through 4: a player swapped decks between turns).
                if !table.actor_is_gm()
                    && state
                        .libraries
                        .get(*pc)
                        .is_some_and(|l| !l.cards.is_empty() || !l.exiled.is_empty())
                {
                    gm_only(pc, "入れ替えられる", "replace")?;
                }
                one(Event::Loaded {
                    character: pc.to_string(),
                    cards: shuffled(&deck.main, dice)?,
                    sideboard: deck.sideboard,
                    ordered: false,
                })
            })(),
            ["deck", "shuffle", pc] => (|| {
                gm_or_owner(table, pc)?;
                // The library's order is game state: only the GM shuffles it (a card
                // effect the GM rules on), so a player cannot wipe what is known or
                // reshuffle until the top suits them.
                if !table.actor_is_gm() {
                    gm_only(pc, "シャッフルできる", "shuffle")?;
                }
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
                let n: usize = fold_width(n).parse().map_err(|_| {
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
                if boost && let Some(used) = boost_used(table, state, pc) {
                    return Err(used.text(pc));
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
                    secret: open.secret,
                })
            })(),
            [
                "deck",
                op @ ("draw" | "mill" | "top" | "bottom" | "return" | "order"),
                pc,
                rest @ ..,
            ] if !rest.is_empty() => library_op(table, state, op, pc, rest, dice),
            ["deck", "settings"] => Ok(Decision {
                events: Vec::new(),
                reply: Some(state.settings.describe()),
            }),
            ["deck", "set", rest @ ..] => set_command(table, state, rest),
            ["turn", "end", rest @ ..] if rest.len() <= 1 => {
                turn_end(table, state, rest.first().copied(), dice)
            }
            ["deck", ..] => Err(Text::new(
                "使い方: /deck load|shuffle|known|show|check|boost|done|draw|mill|top|bottom|return|order|set|settings …（/help に一覧があります）",
                "usage: /deck load|shuffle|known|show|check|boost|done|draw|mill|top|bottom|return|order|set|settings …; /help lists them",
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
        matches!(
            event,
            Event::Opened { .. }
                | Event::Checked { .. }
                | Event::Drawn { .. }
                | Event::Milled { .. }
        )
    }

    /// Issue 13 play-through 4: a library line that a later line of the same library
    /// moved on from (a shuffle, a check, a draw, the boost's return) cannot be taken out
    /// from under it — the later events record whole libraries and returned cards, so
    /// voiding the earlier alone would lose or duplicate cards (「いかなる方法でも追放領域を
    /// 離れません」: the six boost cards come back once). The later line goes first.
    fn builds_on(&self, later: &Event, undone: &[Event]) -> Option<Text> {
        // MT-2 step 5 「1ターンに1回のみ」: a boost made under a setting stays with it
        // (issue 13 play-through 5: undoing `/deck set boost pc` after a second boost it
        // allowed left two boosts under `player`).
        if let Event::Checked {
            character, outcome, ..
        } = later
            && outcome.boost.is_some()
            && undone.iter().any(|u| matches!(u, Event::Set { .. }))
        {
            return Some(Text::new(
                format!("{character}のブーストがこの設定の下で行なわれました"),
                format!("{character}'s boost was made under this setting"),
            ));
        }
        let pc = later.library()?;
        if let Event::TurnEnded { returned, .. } | Event::SceneEnded { returned, .. } = later
            && returned.is_empty()
        {
            return None;
        }
        undone.iter().any(|u| u.library() == Some(pc)).then(|| {
            Text::new(
                format!("{pc}のライブラリーはその後この行で動きました"),
                format!("{pc}'s library moved on in that line"),
            )
        })
    }

    fn builds_on_holds_void(&self) -> bool {
        true
    }

    fn owned_fields(&self) -> &'static [OwnedField] {
        OWNED
    }

    /// A draw is seen by the GM and the owner only (a hand is hidden); the GM's secret
    /// check of a GM character, and the end of its turn (the boost's return tells of the
    /// result), by the GM only.
    fn audience(&self, event: &Event) -> crate::table_rules::Audience {
        match event {
            Event::Drawn { character, .. } => {
                crate::table_rules::Audience::GmAndOwnerOf(character.clone())
            }
            Event::Opened {
                open: Open { secret: true, .. },
                ..
            }
            | Event::Checked { secret: true, .. }
            | Event::TurnEnded { secret: true, .. }
            | Event::SceneEnded { secret: true, .. }
            | Event::Put { gm: true, .. } => crate::table_rules::Audience::Gm,
            _ => crate::table_rules::Audience::All,
        }
    }

    /// MT-10 of issue 13: `verify` checks that every library the log records is the one
    /// the state and the recorded draws give — a shuffle is the Fisher–Yates of the library
    /// it met, a check reveals the cards on top and puts them where its draws say, a
    /// boost was allowed, cards returned at a turn's or scene's end are the exiled ones —
    /// so a library edited in the log shows up.
    fn replay(
        &self,
        state: &State,
        actor: &str,
        line: Option<&str>,
        events: &[Event],
        rands: &[[u32; 2]],
    ) -> Result<(), Text> {
        replay_line(self, state, actor, line, events, rands)
    }

    /// MT-3 「行動判定が始まってから、行動判定の結果起こったことが終わるまでは、いかなる
    /// プレイヤーも、優先権を得ません」: no scene or session ends while a check waits for its
    /// boost decision (issue 13 play-through 5: the boost then fell in the next scene).
    fn holds_scene_end(&self, state: &State) -> Option<Text> {
        let (pc, _) = state.libraries.iter().find(|(_, l)| l.open.is_some())?;
        let why = open_check(pc);
        Some(Text::new(
            format!(
                "{}（判定の途中ではシーンもセッションも終わりません、MT-3）",
                why.ja()
            ),
            format!(
                "{} (no scene or session ends in the middle of a check, MT-3)",
                why.en()
            ),
        ))
    }

    /// Seed line 106: boost-exiled cards stay exiled until the scene or the turn ends;
    /// at the scene's end they go to the bottom in random order.
    fn on_scene_end(&self, state: &State, dice: &mut Roller<'_>) -> Vec<Event> {
        // A library with a GM's secret check this turn gets its (hidden) line whether or
        // not it boosted: a line only when the six return would tell the players that the
        // NPC's check needed a boost (attack pass 5, A5-9).
        state
            .libraries
            .iter()
            .filter(|(_, l)| !l.exiled.is_empty() || l.secret)
            .filter_map(|(pc, l)| {
                Some(Event::SceneEnded {
                    character: pc.clone(),
                    returned: shuffled(&l.exiled, dice).ok()?,
                    secret: l.secret,
                })
            })
            .collect()
    }

    fn fold(&self, state: &mut State, _actor: &str, event: &Event) {
        match event {
            Event::Set { settings } => state.settings = *settings,
            Event::SceneEnded {
                character,
                returned,
                ..
            } => {
                if let Some(l) = state.libraries.get_mut(character) {
                    l.cards.extend(returned.iter().cloned());
                    if !returned.is_empty() {
                        l.bottom.push(returned.len());
                    }
                    l.exiled.clear();
                }
            }
            Event::Drawn { character, cards } | Event::Milled { character, cards } => {
                if let Some(l) = state.libraries.get_mut(character) {
                    let n = cards.len().min(l.cards.len());
                    l.cards.drain(..n);
                    l.known = l.known.saturating_sub(n);
                    l.normalize();
                }
            }
            Event::Put {
                character,
                cards,
                top,
                ..
            } => {
                if let Some(l) = state.libraries.get_mut(character) {
                    if *top {
                        l.cards.splice(0..0, cards.iter().cloned());
                        l.known += cards.len();
                    } else {
                        l.cards.extend(cards.iter().cloned());
                        if !cards.is_empty() {
                            l.bottom.push(cards.len());
                        }
                    }
                    l.normalize();
                }
            }
            Event::Refilled {
                character, cards, ..
            } => {
                if let Some(l) = state.libraries.get_mut(character) {
                    l.cards = cards.clone();
                    l.known = 0;
                    l.bottom.clear();
                }
            }
            Event::Loaded {
                character, cards, ..
            } => {
                // A deck loaded mid-turn is a new library, not a new turn: the turn's boost
                // and checks stand, and boost-exiled cards stay exiled until the turn ends
                // (「いかなる方法でも追放領域を離れません」).
                let l = state.libraries.entry(character.clone()).or_default();
                l.cards = cards.clone();
                l.known = 0;
                l.bottom.clear();
            }
            Event::Shuffled { character, cards } => {
                if let Some(l) = state.libraries.get_mut(character) {
                    l.cards = cards.clone();
                    l.known = 0;
                    l.bottom.clear();
                }
            }
            Event::Known { character, n } => {
                if let Some(l) = state.libraries.get_mut(character) {
                    l.known = (*n).min(l.cards.len());
                    l.normalize();
                }
            }
            Event::Opened { character, open } => {
                if let Some(l) = state.libraries.get_mut(character) {
                    l.open = Some(open.clone());
                    l.secret |= open.secret;
                }
            }
            Event::Checked {
                character,
                purpose,
                outcome,
                secret,
            } => {
                if let Some(l) = state.libraries.get_mut(character) {
                    l.secret |= *secret;
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
                reset,
                ..
            } => {
                if let Some(l) = state.libraries.get_mut(character) {
                    l.cards.extend(returned.iter().cloned());
                    if !returned.is_empty() {
                        l.bottom.push(returned.len());
                    }
                    l.exiled.clear();
                    if *reset {
                        l.boosted = false;
                        l.checks.clear();
                        l.secret = false;
                    }
                }
            }
        }
    }

    /// A voided check is treated as never made, but the cards it revealed were public
    /// (「ライブラリーの上から1枚目と2枚目のカードを公開」) and stay seen: they are back on
    /// top in their order, so the player now knows them, and the next check exiles them
    /// first and puts them back on top afterwards (MT-2 step 1, 「PLに知られているカードを
    /// すべて追放」) — the void never lets anyone predict the next check's cards. The same
    /// for a boost's six cards (seen when exiled) and a check waiting for its boost
    /// decision. The seed's own recovery for a check that cannot be made is the model
    /// (「元の順番でライブラリーの上に戻し、最初から行動判定をしなかったというあつかい」).
    fn fold_voided(&self, state: &mut State, _actor: &str, event: &Event) {
        // A GM's secret check stays the GM's after its void: the library stays hidden
        // from players until the turn ends, as if the check stood — else the cards the
        // void leaves known (two, or eight after a boost) would tell what it did (mtg6).
        if let Event::Opened {
            character,
            open: Open { secret: true, .. },
        }
        | Event::Checked {
            character,
            secret: true,
            ..
        } = event
            && let Some(l) = state.libraries.get_mut(character)
        {
            l.secret = true;
        }
        let (character, known, seen): (&String, usize, Vec<&Card>) = match event {
            // A voided draw or mill puts its cards back on top, where the player saw them
            // (a draw goes to the hand, a mill to the graveyard before everyone): known
            // (MT-2 step 1 「PLに知られているカード」).
            Event::Drawn { character, cards } | Event::Milled { character, cards } => {
                (character, 0, cards.iter().collect())
            }
            Event::Opened { character, open } => {
                (character, open.revealed.known, open.cards.iter().collect())
            }
            Event::Checked {
                character, outcome, ..
            } => {
                let mut seen = vec![&outcome.target_card, &outcome.achievement_card];
                if let Some(b) = &outcome.boost {
                    seen.extend(b.cards.iter());
                }
                (character, outcome.known.len(), seen)
            }
            _ => return,
        };
        let Some(l) = state.libraries.get_mut(character) else {
            return;
        };
        l.open = None;
        // Only when the library is still the one the event revealed from (a fold must be
        // total: an earlier void or undo may have changed it).
        let end = known + seen.len();
        if end <= l.cards.len() && l.cards[known..end].iter().eq(seen.iter().copied()) {
            l.known = l.known.max(end);
            l.normalize();
        }
    }

    fn describe(&self, event: &Event) -> Text {
        let secret = match event {
            Event::Opened { open, .. } => open.secret,
            Event::Checked { secret, .. } => *secret,
            _ => false,
        };
        let text = self.describe_plain(event);
        if secret {
            Text::new(
                format!("（秘密の判定、GMだけが見ています）{}", text.ja()),
                format!("(secret check, seen by the GM only) {}", text.en()),
            )
        } else {
            text
        }
    }

    fn character_sheet(
        &self,
        table: &dyn TableView,
        state: &State,
        name: &str,
        viewer_is_gm: bool,
    ) -> Vec<Section> {
        let Some(l) = state.libraries.get(name) else {
            return Vec::new();
        };
        // A GM's secret check this turn: its count, exile and boost would tell the result.
        if l.secret && !viewer_is_gm {
            return vec![Section {
                title: Text::new("ライブラリー", "Library"),
                fields: vec![Field::derived(
                    Text::new("このターン", "this turn"),
                    Value::Text(Text::new(
                        "GMの秘密の判定があったので、ターン終了まで非公開",
                        "hidden until the turn ends (the GM made a secret check)",
                    )),
                )],
            }];
        }
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
    fn table_sheet(&self, _table: &dyn TableView, state: &State, gm: bool) -> Vec<Section> {
        let pending: Vec<Text> = state
            .libraries
            .iter()
            .filter_map(|(pc, l)| {
                let o = l.open.as_ref().filter(|o| gm || !o.secret)?;
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

impl MtgRules {
    /// An event as one line of the log, without the secret mark.
    fn describe_plain(&self, event: &Event) -> Text {
        match event {
            Event::Set { settings } => settings.describe(),
            Event::Loaded {
                character,
                cards,
                ordered: true,
                ..
            } => Text::new(
                format!(
                    "{character}のライブラリー: {}枚（GMが書いた順番で）",
                    cards.len()
                ),
                format!(
                    "{character}'s library: {} cards (in the order the GM wrote)",
                    cards.len()
                ),
            ),
            Event::Drawn { character, cards } => Text::new(
                format!(
                    "{character}がライブラリーの上から{}枚引く: {}",
                    cards.len(),
                    check::names(cards)
                ),
                format!(
                    "{character} draws {} card(s) from the top: {}",
                    cards.len(),
                    check::names_en(cards)
                ),
            ),
            Event::Milled { character, cards } => Text::new(
                format!(
                    "{character}のライブラリーの上から{}枚を墓地へ: {}",
                    cards.len(),
                    check::names(cards)
                ),
                format!(
                    "{character} mills {} card(s) from the top: {}",
                    cards.len(),
                    check::names_en(cards)
                ),
            ),
            Event::Put {
                character,
                cards,
                top,
                gm,
            } => {
                let (ja, en) = if *top {
                    ("上", "top")
                } else {
                    ("一番下", "bottom")
                };
                let (who, who_en) = if *gm {
                    ("GM", "the GM")
                } else {
                    ("プレイヤー", "the player")
                };
                Text::new(
                    format!(
                        "{character}のライブラリーの{ja}に置く（この順番で、{who}は知っている）: {}",
                        check::names(cards)
                    ),
                    format!(
                        "put on the {en} of {character}'s library (in this order; {who_en} knows them): {}",
                        check::names_en(cards)
                    ),
                )
            }
            Event::Refilled {
                character,
                added,
                cards,
            } => Text::new(
                format!(
                    "{character}のライブラリーに{}枚を戻してシャッフル（{}枚に）: {}",
                    added.len(),
                    cards.len(),
                    check::names(added)
                ),
                format!(
                    "{} card(s) returned to {character}'s library, shuffled ({} cards): {}",
                    added.len(),
                    cards.len(),
                    check::names_en(added)
                ),
            ),
            Event::Loaded {
                character,
                cards,
                sideboard,
                ..
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
                let second_ja = format!(
                    "{} ＋ 色の修正{:+}",
                    card(1, true).unwrap_or_default(),
                    open.revealed.modifier
                );
                let second_en = format!(
                    "{} + colour modifier {:+}",
                    card(1, false).unwrap_or_default(),
                    open.revealed.modifier
                );
                let n = open.revealed.known;
                let (known_ja, known_en) = if n > 0 {
                    (
                        format!(" 既知の{n}枚を追放 ＞"),
                        format!(" the {n} known card(s) exiled >"),
                    )
                } else {
                    (String::new(), String::new())
                };
                // A secret check waits for the GM whatever the cards say (A5-9).
                let (then_ja, then_en) = if open.revealed.achievement >= open.revealed.target {
                    (
                        format!(
                            "このままで成功。秘密の判定はGMが確定します（/deck done {character}。ブーストを宣言するなら /deck boost {character}）"
                        ),
                        format!(
                            "a success as it stands; the GM settles a secret check (/deck done {character}; to declare a boost, /deck boost {character})"
                        ),
                    )
                } else if open.no_boost {
                    (
                        format!(
                            "このままでは失敗。ブーストはできません。秘密の判定はGMが確定します（/deck done {character}）"
                        ),
                        format!(
                            "a failure as it stands; no boost is possible; the GM settles a secret check (/deck done {character})"
                        ),
                    )
                } else {
                    (
                        format!(
                            "このままでは失敗。ブーストできます（/deck boost {character} か /deck done {character}）"
                        ),
                        format!(
                            "a failure as it stands; a boost is possible (/deck boost {character} or /deck done {character})"
                        ),
                    )
                };
                Text::new(
                    format!(
                        "{character}の{purpose_ja}{}（難易度{}）:{known_ja} 1枚目{} ＞ 目標値{} ／ 2枚目{} ＞ 達成値{} ＞ {then_ja}",
                        kind.ja(),
                        open.difficulty,
                        card(0, true).unwrap_or_default(),
                        open.revealed.target,
                        second_ja,
                        open.revealed.achievement
                    ),
                    format!(
                        "{character}{purpose_en}'s {} (difficulty {}):{known_en} 1st card{} > target {} / 2nd card{} > achievement {} > {then_en}",
                        kind.en(),
                        open.difficulty,
                        card(0, false).unwrap_or_default(),
                        open.revealed.target,
                        second_en,
                        open.revealed.achievement
                    ),
                )
            }
            Event::Checked {
                character,
                purpose,
                outcome,
                ..
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
                ..
            } if returned.is_empty() => Text::new(
                format!("シーン終了: {character}のブーストで追放したカードはありません"),
                format!("end of scene: {character}'s boost exiled no cards"),
            ),
            Event::SceneEnded {
                character,
                returned,
                ..
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
                ..
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
    // MT-3 「行動判定が始まってから、行動判定の結果起こったことが終わるまでは、いかなる
    // プレイヤーも、優先権を得ません」: no other check starts while one waits for its boost
    // decision (mtg6). A GM's secret check is not named to players.
    if let Some(why) = check_in_progress(
        table,
        state,
        Text::new("ほかの判定は始められません", "no other check starts"),
    ) {
        return Err(why);
    }
    let kind = CheckKind::parse(kind).ok_or_else(|| {
        Text::new(
            format!("判定の種類「{kind}」はありません。白/青/黒/赤/緑/無色（white/blue/black/red/green/colourless）のいずれかです"),
            format!("unknown check kind '{kind}'; use white/blue/black/red/green/colourless or 白/青/黒/赤/緑/無色"),
        )
    })?;
    let folded = fold_width(difficulty);
    // Seed 「難易度は、0~8の数。(シナリオ上必要なら、-1以下、9以上でも可。)」: any whole
    // number a scenario may need, within the bound `taku mtg` keeps (issue 13 play-through
    // 4: 9223372036854775807 printed a saturated target).
    let difficulty: i64 = folded
        .trim()
        .parse()
        .ok()
        .filter(|d: &i64| d.unsigned_abs() <= MAX_DIFFICULTY.unsigned_abs())
        .ok_or_else(|| {
            Text::new(
                format!(
                    "「{difficulty}」は難易度ではありません（整数、ふつうは0〜8、シナリオ次第で-{MAX_DIFFICULTY}〜{MAX_DIFFICULTY}、MT-2）"
                ),
                format!(
                    "'{difficulty}' is not a difficulty (a whole number, usually 0 to 8, as a scenario needs -{MAX_DIFFICULTY} to {MAX_DIFFICULTY}, MT-2)"
                ),
            )
        })?;
    // `boost` and `force` are flags only before or after the purpose, never inside it
    // (`/deck check ミナ 緑 4 the boost door` keeps its purpose as typed).
    let flag = |w: &&&str| matches!(**w, "boost" | "force" | "secret" | "シークレット");
    let lead = rest.iter().take_while(flag).count();
    let trail = rest[lead..].iter().rev().take_while(flag).count();
    let (flags, words) = (
        rest[..lead]
            .iter()
            .chain(rest[rest.len() - trail..].iter())
            .copied()
            .collect::<Vec<&str>>(),
        &rest[lead..rest.len() - trail],
    );
    let boost_word = flags.contains(&"boost");
    let force = flags.contains(&"force");
    let secret = flags.contains(&"secret") || flags.contains(&"シークレット");
    if force && !table.actor_is_gm() {
        return Err(Text::new(
            "結果が決まっている判定を強制できるのはGMだけです（MT-3）",
            "only the GM can force a check whose outcome is certain (MT-3)",
        ));
    }
    if secret {
        secret_allowed(table, pc)?;
    }
    let purpose = words.join(" ");
    let purpose = if purpose.chars().all(char::is_whitespace) {
        String::new()
    } else {
        purpose
    };
    if l.checks
        .iter()
        .any(|(k, d, p)| *k == kind && *d == difficulty && same_purpose(p, &purpose))
    {
        let name = check::kind_text(kind);
        return Err(Text::new(
            format!(
                "{pc}はこのターンすでにこの判定（{} 難易度{difficulty}{}）を行ないました。同じ判定は1ターンに1回だけです（MT-3）。別の行為なら目的を書いてください（例: /deck check {pc} {} {difficulty} 傷の手当て）",
                name.ja(),
                if purpose.is_empty() {
                    String::new()
                } else {
                    format!("「{purpose}」")
                },
                kind_word(kind)
            ),
            format!(
                "{pc} already made this check this turn ({}, difficulty {difficulty}{}); the same check twice in one turn is not allowed (MT-3); for another action, write its purpose (e.g. /deck check {pc} {} {difficulty} first aid)",
                name.en(),
                if purpose.is_empty() {
                    String::new()
                } else {
                    format!(", '{purpose}'")
                },
                kind_word(kind)
            ),
        ));
    }
    // MT-3 「1人のPCが、同じターンに、まったく同じ行動判定を2回以上行うことはできません」: a
    // check of the same kind and difficulty written without a purpose cannot be told from
    // the one made already (issue 13 play-through: dropping the purpose side-stepped the
    // rule), so it names its purpose.
    if purpose.is_empty()
        && let Some((_, _, earlier)) = l
            .checks
            .iter()
            .find(|(k, d, _)| *k == kind && *d == difficulty)
    {
        let name = check::kind_text(kind);
        return Err(Text::new(
            format!(
                "{pc}はこのターン、{}（難易度{difficulty}）の判定「{earlier}」を行ないました。同じ判定は1ターンに1回だけです（MT-3）。別の行為なら目的を書いてください（例: /deck check {pc} {} {difficulty} 傷の手当て）",
                name.ja(),
                kind_word(kind)
            ),
            format!(
                "{pc} made a {} at difficulty {difficulty} this turn ('{earlier}'); the same check twice in one turn is not allowed (MT-3); for another action, write its purpose (e.g. /deck check {pc} {} {difficulty} first aid)",
                name.en(),
                kind_word(kind)
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
    // MT-2 step 5 「1ターンに1回のみ」: a check asked for with `boost` when the turn's boost
    // is spent is refused before any card is revealed (issue 13 play-through 5: it was
    // made without the boost, and its purpose spent).
    if boost_word && let Some(used) = boost_used(table, state, pc) {
        let why = used.text(pc);
        return Err(Text::new(
            format!(
                "{}。判定は行なっていません。boost を外して判定できます",
                why.ja()
            ),
            format!(
                "{}; the check was not made; it can be made without 'boost'",
                why.en()
            ),
        ));
    }
    let boost_left = boost_used(table, state, pc).is_none();
    if !force {
        // 「推測できる」: from what the player knows — the deck's contents, the known top
        // cards, and the groups they saw go to the bottom.
        let seen = possible(&l.regions(), kind, difficulty, boost_left).map_err(|e| e.text())?;
        let (never, always) = (!seen.success, !seen.failure);
        if never || always {
            // Certain only with the boost the player may choose (the boost is theirs to
            // use, so the result is still theirs to know): say so.
            let by_boost = always
                && boost_left
                && possible(&l.regions(), kind, difficulty, false)
                    .map_err(|e| e.text())?
                    .failure;
            let (ja, en) = if by_boost {
                (
                    "ブーストを使えば必ず成功する（ブーストは選べるので、結果が分かっている）",
                    "succeed if boosted (the boost is the player's choice, so the result is known)",
                )
            } else if always {
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
    // MT-2 step 3 「達成値が決定されたタイミングで、1ターン1回だけ行動判定ブーストを試みる
    // ことができます」 (step 5-1 「宣言のタイミングは、目標値と達成値が決定した後」): a
    // player's check waits for that decision only when it would fail and a boost is there.
    // A GM's secret check always waits for it, whatever the cards say, and the GM always
    // finishes it with `/deck done` or `/deck boost` (attack pass 5, A5-9: one hidden
    // entry for an outright success and two otherwise told the players that the NPC's
    // check fell short). With `boost` declared in advance it is one entry, whatever the
    // outcome. Either way, what the players see depends only on what the GM typed.
    if !boost_word && (secret || (achievement < target && can_boost)) {
        return one(Event::Opened {
            character: pc.to_string(),
            open: Open {
                kind,
                difficulty,
                purpose,
                revealed,
                cards: l.cards.iter().skip(known).take(2).cloned().collect(),
                secret,
                no_boost: !can_boost,
            },
        });
    }
    let boost = achievement < target && can_boost && boost_word;
    let outcome =
        check::finish(&l.cards, &revealed, kind, difficulty, boost, dice).map_err(|e| e.text())?;
    // MT-2 step 5: a failure that could not be boosted says why.
    let reply = (!outcome.success && !can_boost).then(|| {
        if let Some(used) = boost_used(table, state, pc) {
            used.text(pc)
        } else {
            Text::new(
                format!("ブーストはできません: 公開した2枚の下のライブラリーが{BOOST_CARDS}枚未満です。ブーストはその下から{BOOST_CARDS}枚を追放するので、公開した2枚を除いて{BOOST_CARDS}枚要ると読みます（「ライブラリーが6枚未満の時、行動判定ブーストの宣言は行えません」）"),
                format!("no boost: fewer than {BOOST_CARDS} cards are left below the two revealed; a boost exiles {BOOST_CARDS} from below them, so we read the seed's 'fewer than 6 cards' as counting the library without the two revealed (MT-2 step 5)"),
            )
        }
    });
    Ok(Decision {
        events: vec![Event::Checked {
            character: pc.to_string(),
            purpose,
            outcome: Box::new(outcome),
            secret,
        }],
        reply,
    })
}

/// Why a boost is no longer there this turn (MT-2 step 5, 「1ターンに1回のみ」).
enum BoostUsed {
    /// This PC boosted.
    Own,
    /// Under `boost = player`: another PC of the same player boosted.
    Shared {
        /// The player.
        owner: String,
        /// The PC that boosted.
        by: String,
    },
}

impl BoostUsed {
    fn text(&self, pc: &str) -> Text {
        match self {
            BoostUsed::Own => Text::new(
                format!(
                    "ブーストはできません: {pc}はこのターンすでにブーストしました（1ターンに1回、MT-2）"
                ),
                format!("no boost: {pc} already boosted this turn (once per turn, MT-2)"),
            ),
            BoostUsed::Shared { owner, by } => Text::new(
                format!(
                    "ブーストはできません: {owner}はこのターン{by}でブーストしました。ブーストはプレイヤーごとに1ターン1回です（MT-2、設定 boost = player。PCごとにするならGMが /deck set boost pc）"
                ),
                format!(
                    "no boost: {owner} already boosted with {by} this turn; the boost is once per turn per player (MT-2, setting boost = player; the GM makes it per PC with /deck set boost pc)"
                ),
            ),
        }
    }
}

/// Whether `pc`'s boost this turn is spent: its own, or under `boost = player` one of its
/// player's other PCs' (the digest's MT-2 step 5 「once per turn per player」). A GM's
/// characters have no player and count alone.
fn boost_used(table: &dyn TableView, state: &State, pc: &str) -> Option<BoostUsed> {
    if state.libraries.get(pc).is_some_and(|l| l.boosted) {
        return Some(BoostUsed::Own);
    }
    if state.settings.boost != BoostScope::Player {
        return None;
    }
    let (owner, _) = table.character(pc)?;
    if table.member_is_gm(owner) {
        return None;
    }
    state
        .libraries
        .iter()
        .find(|(other, l)| {
            other.as_str() != pc
                && l.boosted
                && table.character(other).is_some_and(|(o, _)| o == owner)
        })
        .map(|(other, _)| BoostUsed::Shared {
            owner: owner.to_string(),
            by: other.clone(),
        })
}

/// A secret check (`/deck check … secret`) is the GM's, of a GM character: a player's
/// library is theirs, its cards revealed before them (「自分のライブラリーの上から1枚目と
/// 2枚目のカードを公開」), so no check of it can be kept from them.
fn secret_allowed(table: &dyn TableView, pc: &str) -> Result<(), Text> {
    if !table.actor_is_gm() {
        return Err(Text::new(
            "秘密の判定（secret）ができるのはGMだけです（GMのキャラクターの判定を、結果を伏せて行ないます）",
            "only the GM makes a secret check (secret): a GM character's check with its result kept from the players",
        ));
    }
    match table.character(pc) {
        Some((owner, _)) if !table.member_is_gm(owner) => Err(Text::new(
            format!(
                "{pc}は{owner}のキャラクターです。秘密の判定はGMのキャラクターだけです（プレイヤーのライブラリーのカードはそのプレイヤーの前で公開されます）"
            ),
            format!(
                "{pc} belongs to {owner}; a secret check is for the GM's characters only (a player's library's cards are revealed before them)"
            ),
        )),
        _ => Ok(()),
    }
}

/// `/deck set boost player|pc` (GM): who shares the once-per-turn boost.
fn set_command(
    table: &dyn TableView,
    state: &State,
    rest: &[&str],
) -> Result<Decision<Event>, Text> {
    let usage = || {
        Text::new(
            "使い方: /deck set boost player（プレイヤーごとに1ターン1回、既定値）か /deck set boost pc（PCごとに1ターン1回）",
            "usage: /deck set boost player (once per turn per player, the default) or /deck set boost pc (once per turn per PC)",
        )
    };
    if !table.actor_is_gm() {
        return Err(Text::new(
            "設定を変えられるのはGMだけです（/deck settings で見られます）",
            "only the GM changes a setting (/deck settings shows them)",
        ));
    }
    let boost = match rest {
        ["boost", v] => match fold_width(v).to_lowercase().as_str() {
            "player" | "pl" | "プレイヤー" => BoostScope::Player,
            "pc" | "character" | "キャラクター" => BoostScope::Character,
            _ => return Err(usage()),
        },
        _ => return Err(usage()),
    };
    let settings = Settings { boost };
    if settings == state.settings {
        return Err(Text::new(
            format!("すでにその設定です。{}", settings.describe().ja()),
            format!("that is the setting already; {}", settings.describe().en()),
        ));
    }
    one(Event::Set { settings })
}

/// The largest difficulty either way (the bound `taku mtg check` keeps).
pub const MAX_DIFFICULTY: i64 = 1_000_000;

/// Whether two purposes name the same action: spaces (half- or full-width) and letter
/// widths do not make another check (MT-3 「まったく同じ行動判定」; issue 13 play-through 4:
/// `扉を　こじ開ける` side-stepped the rule).
fn same_purpose(a: &str, b: &str) -> bool {
    let key = |s: &str| -> String {
        fold_width(s)
            .chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    key(a) == key(b)
}

/// Full-width digits, letters and signs as ASCII (`３`, `－１`).
fn fold_width(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// A kind as a command word (`緑`, `無色`).
fn kind_word(kind: CheckKind) -> &'static str {
    match kind {
        CheckKind::Colour(c) => match c {
            super::card::Colour::W => "白",
            super::card::Colour::U => "青",
            super::card::Colour::B => "黒",
            super::card::Colour::R => "赤",
            super::card::Colour::G => "緑",
        },
        CheckKind::Colourless => "無色",
    }
}

/// `/turn end [PC]`: the GM ends every PC's turn, a player their own PCs' (a named PC's
/// only with the GM's or its owner's permission). MT-3 (seed line 121) 「行動判定が始まって
/// から、行動判定の結果起こったことが終わるまでは、いかなるプレイヤーも、優先権を得ません」
/// and line 104 (the turn's end is the end phase's cleanup step): while any check waits
/// for its boost decision no turn ends, neither the PC's nor anyone else's (issue 13
/// play-through 5: the GM's `/turn end` ended the other PCs' turns around an open check,
/// splitting the one turn in two). The refusal says how to close the check.
fn turn_end(
    table: &dyn TableView,
    state: &State,
    pc: Option<&str>,
    dice: &mut Roller<'_>,
) -> Result<Decision<Event>, Text> {
    let pcs: Vec<&String> = match pc {
        Some(pc) => {
            gm_or_owner(table, pc)?;
            library(state, pc)?;
            state
                .libraries
                .keys()
                .filter(|k| k.as_str() == pc)
                .collect()
        }
        None if table.actor_is_gm() => state.libraries.keys().collect(),
        None => {
            let own: Vec<&String> = state
                .libraries
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
    if let Some(why) = check_in_progress(
        table,
        state,
        Text::new("どのターンも終わりません", "no turn ends"),
    ) {
        return Err(why);
    }
    let ending = pcs;
    if ending.is_empty() {
        // Attack pass 3, A3-4: with no library at all nothing is pending either.
        return Err(Text::new(
            "ライブラリーのあるPCがいないので、終了するターンがありません。/deck load PC名 デッキリスト で作成してください",
            "no PC has a library, so there is no turn to end; load one with /deck load PC LIST",
        ));
    }
    let mut events = Vec::new();
    // The seed's turn is the game's turn, which the GM runs: a player's own `/turn end`
    // does its cleanup (boost-exiled cards to the bottom, 「ターン終了時に…ライブラリーの下
    // へ」) but the once-per-turn limits (「1ターンに1回のみ」, 「同じターンに、まったく同じ
    // 行動判定を2回以上行うことはできません」) start afresh only when the GM ends the turn,
    // so ending one's own turn again and again never buys another boost or the same check.
    let reset = table.actor_is_gm();
    for pc in ending {
        events.push(Event::TurnEnded {
            character: pc.clone(),
            returned: shuffled(&state.libraries[pc].exiled, dice)?,
            reset,
            secret: state.libraries[pc].secret,
        });
    }
    let limits = (!reset).then(|| {
        Text::new(
            "ブーストと同じ判定の制限（1ターンに1回）は、GMがターンを進める（GMの /turn end）まで残ります",
            "the once-per-turn limits (boost, the same check) stay until the GM ends the turn (the GM's /turn end)",
        )
    });
    Ok(Decision {
        events,
        reply: limits,
    })
}

/// MT-3 (seed line 121): a check waiting for its boost decision holds every turn's end.
/// The refusal names the check as the actor may know it: a GM's secret check is named
/// to players only as the GM's (its line is （非公開） to them; it always waits for the
/// GM's `/deck done|boost`, whatever the cards, so saying it waits tells nothing).
fn check_in_progress(table: &dyn TableView, state: &State, what: Text) -> Option<Text> {
    let (pc, l) = state.libraries.iter().find(|(_, l)| l.open.is_some())?;
    let secret = l.open.as_ref().is_some_and(|o| o.secret);
    Some(if secret && !table.actor_is_gm() {
        Text::new(
            format!(
                "GMの秘密の判定が途中です。判定の途中は誰も優先権を得ないので、GMが判定を確定するまで{}（MT-3）",
                what.ja()
            ),
            format!(
                "a secret check of the GM's is open; no one gets priority in the middle of a check, so {} until the GM finishes it (MT-3)",
                what.en()
            ),
        )
    } else {
        let owner_hint = if table.actor_is_gm() {
            Text::new(
                format!("（GMが /deck done {pc} で確定することもできます）"),
                format!(" (the GM can also close it with /deck done {pc})"),
            )
        } else {
            Text::new("", "")
        };
        Text::new(
            format!(
                "{pc}の判定が途中です（ブーストするかの決定待ち）。判定の途中は誰も優先権を得ないので、/deck boost {pc} か /deck done {pc} の後でなければ、{}（MT-3）{}",
                what.ja(),
                owner_hint.ja()
            ),
            format!(
                "{pc}'s check is open (waiting for the boost decision); no one gets priority in the middle of a check, so {} before /deck boost {pc} or /deck done {pc} (MT-3){}",
                what.en(),
                owner_hint.en()
            ),
        )
    })
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
        // MT-2 step 7 「無作為の順番で、ライブラリーの一番下に置きます」: the player knows which
        // cards a group holds, not their order, so the group is listed by name, never in
        // the library's order (issue 13 play-through: the true order showed through).
        let mut group = group.to_vec();
        group.sort_by(|a, b| a.name.cmp(&b.name));
        let group = group.as_slice();
        ja.push(format!(
            "  下にあると分かっているカード（{i}組目、組の中の順番は不明、名前順）: {}",
            check::names(group)
        ));
        en.push(format!(
            "  seen going to the bottom (group {i}, order within it unknown; by name): {}",
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

/// `/deck draw|mill PC N`, `/deck top|bottom|return|order PC LIST` (GM only): the library
/// operations the seed's recovery (「ライブラリーを回復する手段」) and its worked example
/// (《エルフの神秘家》 then 《ルーン爪の熊》 on top) need at a table.
fn library_op(
    table: &dyn TableView,
    state: &State,
    op: &str,
    pc: &str,
    rest: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Decision<Event>, Text> {
    gm_or_owner(table, pc)?;
    if !table.actor_is_gm() {
        return Err(Text::new(
            format!(
                "ライブラリーの操作（/deck {op}）はGMが行ないます（カードの効果はGMが裁定します）"
            ),
            format!("library operations (/deck {op}) are the GM's (the GM rules on card effects)"),
        ));
    }
    if state.libraries.get(pc).is_some_and(|l| l.open.is_some()) {
        return Err(open_check(pc));
    }
    let character = pc.to_string();
    match op {
        "draw" | "mill" => {
            let l = library(state, pc)?;
            let n: usize = match rest {
                [n] => fold_width(n).parse().ok(),
                _ => None,
            }
            .filter(|n| (1..=l.cards.len()).contains(n))
            .ok_or_else(|| {
                Text::new(
                    format!(
                        "枚数は1〜{}です（{pc}のライブラリーの枚数まで）",
                        l.cards.len()
                    ),
                    format!("the count is 1 to {} ({pc}'s library)", l.cards.len()),
                )
            })?;
            let cards = l.cards[..n].to_vec();
            one(if op == "draw" {
                Event::Drawn { character, cards }
            } else {
                Event::Milled { character, cards }
            })
        }
        _ => {
            // A name without a count is one card (`/deck top ミナ Elvish Mystic; Forest`).
            let text = rest
                .join(" ")
                .replace('↵', "\n")
                .split([';', '\n'])
                .map(|piece| {
                    let piece = piece.trim();
                    if piece.is_empty()
                        || fold_width(piece).starts_with(|c: char| c.is_ascii_digit())
                    {
                        piece.to_string()
                    } else {
                        format!("1 {piece}")
                    }
                })
                .collect::<Vec<_>>()
                .join("\n");
            let db = card_db_checked().map_err(Clone::clone)?;
            let cards = deck::parse(&text, db).map_err(|e| e.text())?.main;
            match op {
                "top" | "bottom" => {
                    // A8-3: one cap for every way cards enter a library.
                    within_library_cap(library(state, pc)?.cards.len() + cards.len())?;
                    let gm = table
                        .character(pc)
                        .is_some_and(|(owner, _)| table.member_is_gm(owner));
                    one(Event::Put {
                        character,
                        cards,
                        top: op == "top",
                        gm,
                    })
                }
                "return" => {
                    let l = library(state, pc)?;
                    let mut all = l.cards.clone();
                    all.extend(cards.iter().cloned());
                    within_library_cap(all.len())?;
                    one(Event::Refilled {
                        character,
                        added: cards,
                        cards: shuffled(&all, dice)?,
                    })
                }
                _ => one(Event::Loaded {
                    character,
                    cards,
                    sideboard: 0,
                    ordered: true,
                }),
            }
        }
    }
}

/// See [`MtgRules::replay`]: each event of a line against the library it met, with the
/// line's recorded draws.
fn replay_line(
    rules: &MtgRules,
    state: &State,
    actor: &str,
    line: Option<&str>,
    events: &[Event],
    rands: &[[u32; 2]],
) -> Result<(), Text> {
    use taku_dice::{ScriptedDraw, ScriptedSource};
    let mut source = ScriptedSource::new(
        rands
            .iter()
            .map(|&[sides, value]| ScriptedDraw { sides, value }),
    );
    let mut state = state.clone();
    {
        let mut dice = Roller::new(&mut source);
        let err = |t: Text| t;
        for e in events {
            let lib = |pc: &str| {
                state.libraries.get(pc).cloned().ok_or_else(|| {
                    Text::new(
                        format!("{pc}にはライブラリーがありませんでした"),
                        format!("{pc} had no library"),
                    )
                })
            };
            let expected = match e {
                Event::Shuffled { character, .. } => Some(Event::Shuffled {
                    character: character.clone(),
                    cards: shuffled(&lib(character)?.cards, &mut dice).map_err(err)?,
                }),
                Event::Loaded {
                    character,
                    cards,
                    sideboard,
                    ordered: false,
                } => {
                    // The list as typed, read again, shuffled with the recorded draws.
                    let list = line
                        .and_then(|l| l.split_whitespace().nth(3).map(|w| (l, w)))
                        .and_then(|(l, w)| l.find(w).map(|at| &l[at..]));
                    match list.map(|list| {
                        deck::parse(&list.replace('↵', "\n").replace('"', ""), super::card_db())
                    }) {
                        Some(Ok(deck)) => Some(Event::Loaded {
                            character: character.clone(),
                            cards: shuffled(&deck.main, &mut dice).map_err(err)?,
                            sideboard: deck.sideboard,
                            ordered: false,
                        }),
                        // No line or a card database that no longer reads it: the draws
                        // are still counted.
                        _ => {
                            shuffled(cards, &mut dice).map_err(err)?;
                            let _ = sideboard;
                            None
                        }
                    }
                }
                Event::Opened { character, open } => {
                    let l = lib(character)?;
                    let known = l.known.min(l.cards.len());
                    let revealed =
                        check::reveal(&l.cards, known, open.kind, open.difficulty, &mut dice)
                            .map_err(|e| err(e.text()))?;
                    Some(Event::Opened {
                        character: character.clone(),
                        open: Open {
                            revealed,
                            cards: l.cards.iter().skip(known).take(2).cloned().collect(),
                            ..open.clone()
                        },
                    })
                }
                Event::Checked {
                    character,
                    purpose,
                    outcome,
                    secret,
                } => {
                    let l = lib(character)?;
                    let boost = outcome.boost.is_some();
                    if boost && l.boosted {
                        return Err(Text::new(
                            format!("{character}が1ターンに2回ブーストしています"),
                            format!("{character} boosted twice in one turn"),
                        ));
                    }
                    let o = match &l.open {
                        Some(open) => check::finish(
                            &l.cards,
                            &open.revealed,
                            open.kind,
                            open.difficulty,
                            boost,
                            &mut dice,
                        ),
                        None => check::reveal(
                            &l.cards,
                            l.known,
                            outcome.kind,
                            outcome.difficulty,
                            &mut dice,
                        )
                        .and_then(|r| {
                            check::finish(
                                &l.cards,
                                &r,
                                outcome.kind,
                                outcome.difficulty,
                                boost,
                                &mut dice,
                            )
                        }),
                    }
                    .map_err(|e| err(e.text()))?;
                    Some(Event::Checked {
                        character: character.clone(),
                        purpose: purpose.clone(),
                        outcome: Box::new(o),
                        secret: *secret,
                    })
                }
                Event::TurnEnded {
                    character,
                    reset,
                    secret,
                    ..
                } => Some(Event::TurnEnded {
                    character: character.clone(),
                    returned: shuffled(&lib(character)?.exiled, &mut dice).map_err(err)?,
                    reset: *reset,
                    secret: *secret,
                }),
                Event::SceneEnded {
                    character, secret, ..
                } => Some(Event::SceneEnded {
                    character: character.clone(),
                    returned: shuffled(&lib(character)?.exiled, &mut dice).map_err(err)?,
                    secret: *secret,
                }),
                Event::Refilled {
                    character, added, ..
                } => {
                    let mut all = lib(character)?.cards;
                    all.extend(added.iter().cloned());
                    Some(Event::Refilled {
                        character: character.clone(),
                        added: added.clone(),
                        cards: shuffled(&all, &mut dice).map_err(err)?,
                    })
                }
                Event::Drawn { character, cards } | Event::Milled { character, cards } => {
                    let l = lib(character)?;
                    if !l.cards.starts_with(cards) {
                        return Err(Text::new(
                            format!(
                                "{character}のライブラリーから取ったカードが、その上のカードではありません"
                            ),
                            format!(
                                "the cards taken from {character}'s library are not its top cards"
                            ),
                        ));
                    }
                    None
                }
                _ => None,
            };
            if let Some(expected) = expected
                && expected != *e
            {
                let d = rules.describe(&expected);
                return Err(Text::new(
                    format!(
                        "ライブラリーと記録されたダイスからは別の結果になります: {}",
                        d.ja()
                    ),
                    format!(
                        "the library and the recorded draws give another result: {}",
                        d.en()
                    ),
                ));
            }
            rules.fold(&mut state, actor, e);
        }
    }
    if source.remaining() > 0 {
        let n = source.remaining();
        return Err(Text::new(
            format!("記録されたダイスのうち{n}個がライブラリーに使われていません"),
            format!("{n} recorded draw(s) were not used by the library"),
        ));
    }
    Ok(())
}

/// A library may hold at most [`deck::MAX_CARDS`] cards, however they come in (`/deck
/// load`, `return`, `top`, `bottom`); `len` is what it would hold.
fn within_library_cap(len: usize) -> Result<(), Text> {
    if len > deck::MAX_CARDS {
        return Err(Text::new(
            format!(
                "ライブラリーが{}枚を超えます（{len} 枚になります）。加える枚数を減らしてください",
                deck::MAX_CARDS
            ),
            format!(
                "the library would exceed {} cards ({len}); add fewer cards",
                deck::MAX_CARDS
            ),
        ));
    }
    Ok(())
}
