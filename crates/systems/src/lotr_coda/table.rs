//! The `/lotr combat|battle|unit|siege|xp|money …` commands over [`combat`], [`battle`]
//! and [`advance`]: words parsed into their commands, who may run them, and one state and
//! event type ([`SubState`], [`SubEvent`]) for the system's table rules to hold. The core's
//! `rules.rs` keeps a `SubState` in its state, wraps `SubEvent` in one of its events and
//! delegates `decide`, `fold` and `describe` here.

use super::advance::{self, Award, Buy, Progress};
use super::battle::{self, FortifyAim};
use super::battle_odds;
use super::combat::{
    self, Act, AttackOption, Defence, Extraordinary, Fighter, GrabAct, Mount, Size, Target, Weapon,
    WeaponKind,
};
use crate::table_rules::{CommandHelp, TableView};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use taku_dice::{Roller, Text};

/// Combat, battles, units, sieges, advancement and purses at a table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SubState {
    /// LR-14.
    pub combat: combat::Combat,
    /// LR-15 to LR-17.
    pub battle: battle::State,
    /// LR-12, LR-13.
    pub advance: advance::State,
}

/// One event of these modules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "module", content = "event", rename_all = "snake_case")]
pub enum SubEvent {
    /// LR-14.
    Combat(combat::Event),
    /// LR-15 to LR-17.
    Battle(battle::Event),
    /// LR-12, LR-13.
    Advance(advance::Event),
}

/// What a command decided: events to append, or a reply for the sender only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decided {
    /// Events.
    pub events: Vec<SubEvent>,
    /// Reply.
    pub reply: Option<Text>,
}

/// The commands, for `/help`.
pub const COMMANDS: &[CommandHelp] = &[
    CommandHelp {
        usage: "/lotr combat join ボロミア swift=+2 def=11 str=9 [size=small] [actions=3] [shield=2] [horse=12:war:steady:mearas=+8] | ride 名前 [Ride修正] tn=10 pen=2 | leave 名前 | init | next",
        help: "戦闘（LR-14、GM）: 参加、離脱、イニシアチブ（全員の Swiftness 判定、同値は再判定）、次のラウンド（アクション・回避・攻撃オプションをリセット）",
        help_en: "Combat (LR-14, GM): join, leave, initiative (everyone's Swiftness test, ties re-tested), next round (actions, dodges and options reset)",
    },
    CommandHelp {
        usage: "/lotr combat act ボロミア aim | aim-indirect | move | other | run | run-melee | sprint | sprint-melee | free [+修正] [encumbered | heavy | load=重さ]",
        help: "行動（LR-14）: 1ラウンド2アクション、以降は−5累積。判定不要の追加アクションは目標値5の判定。run=2アクション（目標値5、接近戦10）、sprint=全ラウンド（10、15）。移動は徒歩 9 / 27 / 40 ヤードまで、重荷 ×3/4・超重荷 ×1/2（load= は STR×10/20/30 で判定）、騎乗中は Walk 12・Canter 24 / Run 72 / Gallop 160",
        help_en: "An action (LR-14): 2 a round, then −5 cumulative; an extra action needing no test is a TN 5 test; run = 2 actions (TN 5, 10 in melee), sprint = the full round (10, 15); on foot up to 9 / 27 / 40 yd, encumbered ×3/4, heavily ×1/2 (load= against STR × 10/20/30), mounted walk 12 / canter 24, run 72, gallop 160",
    },
    CommandHelp {
        usage: "/lotr combat attack ボロミア オーク:parry+7s power dmg=2d6+4 +8 | attack レゴラス オーク:dodge+1 dmg=2d6+3 bow range=1 +9",
        help: "攻撃（LR-14）: 目標値は相手の Defence（回避で上書き、同値は命中）。防御は対象:dodge+修正 / parry+修正（sで専門+2、同値は防御成功、外れならアクション不要）。オプション basic blunt blunt-head defensive power precise two-handed sweep charge=ヤード[:horse] grab whip、two-weapons（両手に武器: 1アクションで2回、off=逆手のダメージ offmod=逆手の修正、Ambidextrous でなければ two_weapon_penalty）。dmg= なしは punch/kick（1d6+2+STR修正）。break=物 で大成功時に破壊（既定は最大ダメージ）。skill=分野 でシートの Armed Combat 技能（+修正はその他の修正）と LR-8 の強化（/lotr armed）",
        help_en: "Attack (LR-14): TN = the target's Defence (a dodge replaces it, a tie hits); defences TARGET:dodge+m / parry+m (s: specialised +2; a tie is parried; a miss costs no action); options basic blunt blunt-head defensive power precise two-handed sweep charge=YARDS[:horse] grab whip, two-weapons (one action, an attack with each hand: off= the off hand's damage, offmod= its modifier; two_weapon_penalty unless Ambidextrous); without dmg= a punch/kick (1d6 + 2 + STR mod); break=ITEM on an Extraordinary Success (default: maximum damage); skill=FIELD takes the sheet's Armed Combat skill (+m is then the other modifiers) and its LR-8 picks (/lotr armed)",
    },
    CommandHelp {
        usage: "/lotr combat grab ボロミア pin|squeeze|slam | escape オーク +1 +2 | grapple ボロミア +1 +0 down|helpless | trip サム オーク +1 +0",
        help: "組み付き（LR-14）: つかんだ側の行動（押さえ込み=対抗STR+3、1d6+STR修正、たたきつけ1d6）、抜け出し（対抗STR、1アクション）、鞭の捕縛（対抗STR、攻撃側+4）、足払い",
        help_en: "Grappling (LR-14): the grabber's action (pin = +3 on opposed STR, 1d6 + STR mod, slam 1d6), breaking free (opposed STR, 1 action), a whip's grapple (opposed STR, attacker +4), trip",
    },
    CommandHelp {
        usage: "/lotr combat stun オーク +2 tn=12 pen=4 rounds=3 | fear ナズグル フロド +6 [+1] | inspire アラゴルン フロド +6 +1 | calm フロド | stand オーク | delay フロド [after=サム]",
        help: "スタン（LR-14、表9.17の値をGMが指定。Superior で時間半分、Extraordinary で無効）、恐怖（威圧 対 意志力、同値は Marginal。テーブルのキャラクターの意志力はシートから）、恐怖の解除、立ち上がる、行動を遅らせる（イニシアチブ順で後ろへ、after=名前 でその後）",
        help_en: "Stun (LR-14, the GM gives Table 9.17's values; Superior halves the duration, Extraordinary ignores it), fear (Intimidate vs Willpower, a tie is Marginal; a table character's Willpower from its sheet), fear lifted, standing up, delaying (later in the initiative order; after=NAME: right after them)",
    },
    CommandHelp {
        usage: "/lotr battle start [+2] | round [指揮官Siegecraft 敵Siegecraft] | hero アラゴルン [thick] | odds [0] [5] | end",
        help: "集団戦闘（LR-15、GM）: 7段階の戦況、毎ラウンド各陣営2d6（PC側に戦況修正）、英雄戦闘（PRESS表・Hero Combat表は例のデータ）、勝利までの正確な確率",
        help_en: "Battle (LR-15, GM): seven states, 2d6 a side each round (the PCs' side adds the state), hero combat (PRESS and Hero Combat tables are example data), the exact chance of Victory",
    },
    CommandHelp {
        usage: "/lotr unit add ローハン men=230 str=8 tough=6 mob=6 morale=7 [factor=3/2] [mounted] | attack ローハン オーク +3 [by=エオメル] | break オーク +4 [backing=ローハン] [inspire=+2]",
        help: "部隊戦闘（LR-16、GM）: サイズ=人数÷10×係数、攻撃は指揮官の Siegecraft+Strength修正 対 Toughness+10、ダメージ (Strength+サイズ)−Toughness をサイズから、0で消滅。士気=基本+サイズ",
        help_en: "Unit combat (LR-16, GM): Size = men ÷ 10 × factor; attack = the commander's Siegecraft + Strength mod vs Toughness + 10; damage (Strength + Size) − Toughness off Size, 0 destroys; Morale = base + Size",
    },
    CommandHelp {
        usage: "/lotr siege add 角笛城 prot=8 struct=40 | lock 角笛城 4 | hit 角笛城 15 | fortify ギムリ rank=3 +5 tn=15 protection 角笛城 [temp] | fortify ギムリ rank=3 +5 tn=15 siegecraft エオメル",
        help: "攻城戦（LR-17、GM）: Protection は一撃ごとに差し引く（既定）、錠と閂は合計+6まで、Stonecraft (Fortification) で +1/+2/+3（恒久の再挑戦はランクが上がるまで不可）",
        help_en: "Sieges (LR-17, GM): Protection comes off each hit (default), locks and bars +6 at most together, Stonecraft (Fortification) +1/+2/+3 (a permanent retry waits for a rank more)",
    },
    CommandHelp {
        usage: "/lotr xp award フロド,サム goal1 | award フロド test 15 +5 | credit フロド | advance フロド [Warrior] [flaw=頑固] | pick フロド rank Stealth | close フロド",
        help: "成長（LR-12）: 経験点（判定は修正後の目標値、目的の分配は四捨五入）、1000点ごとに成長5点（新しい欠点で6点）、職業技能は1回2ランク・他は1ランク、使い残しは消える",
        help_en: "Advancement (LR-12): XP (a test earns its modified TN, shared goals rounded half up), 5 picks per 1000 XP (6 with a new flaw), an order skill +2 ranks per advancement, others +1, unspent picks lost",
    },
    CommandHelp {
        usage: "/lotr money フロド +1GP3sp | フロド -20cp | フロド start +2 -1 | convert 1GP sp",
        help: "通貨（LR-13）: 1sp=100cp、1SP=4sp、1gp=1SP、1GP=4gp（大文字小文字を区別）。所持金の増減・初期所持金（1d6 SP+職業+地域）・換算",
        help_en: "Money (LR-13): 1 sp = 100 cp, 1 SP = 4 sp, 1 gp = 1 SP, 1 GP = 4 gp (case matters); purse changes, starting money (1d6 SP + order + region), conversion",
    },
];

fn usage(ja: &str, en: &str) -> Text {
    Text::new(format!("使い方: {ja}"), format!("usage: {en}"))
}

fn gm_only(table: &dyn TableView, rule: &str) -> Result<(), Text> {
    if table.actor_is_gm() {
        Ok(())
    } else {
        Err(Text::new(
            format!("{rule}: このコマンドはGMだけが使えます"),
            format!("{rule}: only a GM may do this"),
        ))
    }
}

/// LR-14: whether the actor may act for fighter `name`: its owner or a GM, and only a GM
/// for a fighter that joined as the GM's.
fn may_act_for(table: &dyn TableView, c: &combat::Combat, name: &str) -> Result<(), Text> {
    if c.get(name).is_some_and(|f| f.gms) && !table.actor_is_gm() {
        return Err(Text::new(
            format!(
                "LR-14: {name} はGMのキャラクターとして戦闘に加わったので、動かせるのはGMだけです"
            ),
            format!("LR-14: {name} joined the fight as the GM's, so only a GM acts for it"),
        ));
    }
    owner_or_gm(table, name)
}

/// Whether the actor is character `name`'s owner or a GM.
fn owner_or_gm(table: &dyn TableView, name: &str) -> Result<(), Text> {
    if table.actor_is_gm()
        || table
            .character(name)
            .is_some_and(|(owner, _)| owner == table.actor())
    {
        Ok(())
    } else {
        Err(Text::new(
            format!("LR-14: {name} を動かせるのはその持ち主かGMです"),
            format!("LR-14: only {name}'s owner or a GM may act for it"),
        ))
    }
}

/// `+3`, `-2`, `4` (full-width digits read as ASCII) within ±100,000.
fn num(word: &str) -> Result<i64, Text> {
    let folded = taku_dice::normalize::fold(word).text;
    let w = folded.strip_prefix('+').unwrap_or(&folded);
    let digits = w.strip_prefix('-').unwrap_or(w);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return w
            .parse::<i64>()
            .ok()
            .filter(|n| n.abs() <= 100_000)
            .ok_or_else(|| {
                Text::new(
                    format!("「{word}」は大きすぎます（−100000〜100000）"),
                    format!("'{word}' is too large (−100000 to 100000)"),
                )
            });
    }
    Err(Text::new(
        format!("「{word}」は数ではありません（例: +3, -2, 12）"),
        format!("'{word}' is not a number (e.g. +3, -2, 12)"),
    ))
}

fn signed(word: &str) -> bool {
    word.starts_with('+') || word.starts_with('-')
}

/// Splits `key=value` words from plain ones.
fn split<'a>(words: &[&'a str]) -> (BTreeMap<&'a str, &'a str>, Vec<&'a str>) {
    let mut keys = BTreeMap::new();
    let mut plain = Vec::new();
    for w in words {
        match w.split_once('=') {
            Some((k, v)) => {
                keys.insert(k, v);
            }
            None => plain.push(*w),
        }
    }
    (keys, plain)
}

fn key_num(keys: &BTreeMap<&str, &str>, key: &str, default: Option<i64>) -> Result<i64, Text> {
    match keys.get(key) {
        Some(v) => num(v),
        None => default
            .ok_or_else(|| Text::new(format!("{key}= が必要です"), format!("{key}= is needed"))),
    }
}

/// The character's record for advancement, built by the caller from its sheet.
pub type Importer<'a> = &'a dyn Fn(&str) -> Option<Progress>;

/// Decides `/lotr combat|battle|unit|siege|xp|money …` (`words` after `lotr`); `None` if
/// the first word is none of these.
pub fn decide(
    table: &dyn TableView,
    state: &SubState,
    words: &[&str],
    dice: &mut Roller<'_>,
    import: Importer<'_>,
) -> Option<Result<Decided, Text>> {
    let (head, rest) = words.split_first()?;
    Some(match *head {
        "combat" => decide_combat(table, &state.combat, rest, dice),
        "battle" | "unit" | "siege" => decide_battle(table, &state.battle, head, rest, dice),
        "xp" => decide_xp(table, &state.advance, rest, dice, import),
        "money" => decide_money(table, &state.advance, rest, dice),
        _ => return None,
    })
}

fn done(events: Vec<SubEvent>) -> Result<Decided, Text> {
    Ok(Decided {
        events,
        reply: None,
    })
}

fn reply(text: Text) -> Result<Decided, Text> {
    Ok(Decided {
        events: Vec::new(),
        reply: Some(text),
    })
}

fn combat_usage() -> Text {
    usage(
        "/lotr combat join|leave|init|next|act|attack|grab|escape|grapple|trip|stun|fear|inspire|calm|stand|delay|set|settings（/help に例）",
        "/lotr combat join|leave|init|next|act|attack|grab|escape|grapple|trip|stun|fear|inspire|calm|stand|delay|set|settings (examples in /help)",
    )
}

fn decide_combat(
    table: &dyn TableView,
    c: &combat::Combat,
    words: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Decided, Text> {
    let run = |cmd: combat::Command, dice: &mut Roller<'_>| -> Result<Decided, Text> {
        let events = combat::decide(c, &cmd, dice)?;
        done(events.into_iter().map(SubEvent::Combat).collect())
    };
    match words {
        ["settings"] => reply(c.settings.describe()),
        ["set", key, value] => {
            gm_only(table, "LR-14")?;
            run(
                combat::Command::Set {
                    key: key.to_string(),
                    value: value.to_string(),
                },
                dice,
            )
        }
        ["join", name, rest @ ..] => {
            gm_only(table, "LR-14")?;
            let (k, plain) = split(rest);
            if !plain.is_empty() {
                return Err(combat_usage());
            }
            let mut f = Fighter::new(
                name,
                key_num(&k, "swift", None)?,
                key_num(&k, "def", None)?,
                key_num(&k, "str", None)?,
            );
            f.gms = table.character(name).is_none();
            f.actions = u32::try_from(key_num(&k, "actions", Some(2))?).unwrap_or(0);
            f.shield = key_num(&k, "shield", Some(0))?;
            f.size = match k.get("size").copied().unwrap_or("medium") {
                "small" => Size::Small,
                "medium" => Size::Medium,
                "large" => Size::Large,
                "mammoth" => Size::Mammoth,
                other => {
                    return Err(Text::new(
                        format!(
                            "LR-3: サイズ「{other}」はありません（small, medium, large, mammoth）"
                        ),
                        format!("LR-3: no size '{other}' (small, medium, large, mammoth)"),
                    ));
                }
            };
            // LR-14 horses: `horse=STR[:war][:steady][:mearas=RIDE]` (War-Trained, Steady,
            // a Mearas or Elven-steed with its own Ride test modifier).
            if let Some(h) = k.get("horse") {
                let mut parts = h.split(':');
                let strength = num(parts.next().unwrap_or(""))?;
                if !(1..=100).contains(&strength) {
                    return Err(Text::new(
                        format!("LR-14: 馬の STR は 1〜100 です（{strength} は不可）"),
                        format!("LR-14: a horse's STR is 1–100 (not {strength})"),
                    ));
                }
                let mut mount = Mount {
                    strength,
                    war_trained: false,
                    steady: false,
                    ride: None,
                };
                for p in parts {
                    match p.split_once('=') {
                        None if p == "war" => mount.war_trained = true,
                        None if p == "steady" => mount.steady = true,
                        Some(("mearas" | "elven", r)) => mount.ride = Some(num(r)?),
                        _ => {
                            return Err(Text::new(
                                format!(
                                    "LR-14: 馬の「{p}」はわかりません（horse=STR[:war][:steady][:mearas=Ride修正]、例 horse=14:war:steady）"
                                ),
                                format!(
                                    "LR-14: no horse trait '{p}' (horse=STR[:war][:steady][:mearas=RIDE], e.g. horse=14:war:steady)"
                                ),
                            ));
                        }
                    }
                }
                f.mount = Some(mount);
            }
            run(combat::Command::Join(Box::new(f)), dice)
        }
        ["leave", name] => {
            gm_only(table, "LR-14")?;
            run(combat::Command::Leave(name.to_string()), dice)
        }
        ["init"] => {
            gm_only(table, "LR-14")?;
            run(combat::Command::Initiative, dice)
        }
        ["next"] => {
            gm_only(table, "LR-14")?;
            run(combat::Command::NextRound, dice)
        }
        ["act", who, what, rest @ ..] if rest.len() <= 2 => {
            may_act_for(table, c, who)?;
            let act = match *what {
                "free" => Act::Free,
                "aim" => Act::Aim { indirect: false },
                "aim-indirect" => Act::Aim { indirect: true },
                "move" => Act::Move,
                "other" => Act::Other,
                "run" => Act::Run { in_melee: false },
                "run-melee" => Act::Run { in_melee: true },
                "sprint" => Act::Sprint { in_melee: false },
                "sprint-melee" => Act::Sprint { in_melee: true },
                _ => return Err(combat_usage()),
            };
            // LR-3, LR-14: a load word (`encumbered`, `heavy`, or `load=POUNDS` against
            // the fighter's STR × 10 / 20 / 30) and a modifier, in either order.
            let mut modifier = 0;
            let mut load = combat::Load::Normal;
            for w in rest {
                match *w {
                    "encumbered" => load = combat::Load::Encumbered,
                    "heavy" => load = combat::Load::Heavy,
                    w if w.starts_with("load=") => {
                        let weight = num(&w["load=".len()..])?;
                        let strength = c.get(who).map_or(1, |f| f.strength);
                        load = combat::Load::of(weight.max(0), strength).ok_or_else(|| {
                            Text::new(
                                format!(
                                    "LR-3: {who}（STR {strength}）が運べるのは {} までです（{weight} は重すぎます）",
                                    strength.max(1) * 30
                                ),
                                format!(
                                    "LR-3: {who} (STR {strength}) carries at most {} ({weight} is too heavy)",
                                    strength.max(1) * 30
                                ),
                            )
                        })?;
                    }
                    m => modifier = num(m)?,
                }
            }
            run(
                combat::Command::Act {
                    who: who.to_string(),
                    act,
                    modifier,
                    load,
                },
                dice,
            )
        }
        ["attack", attacker, targets, rest @ ..] => {
            may_act_for(table, c, attacker)?;
            let cmd = parse_attack(attacker, targets, rest)?;
            // LR-14: 「攻撃側がダイスを振る前に宣言しておくこと」 — the defender declares its
            // dodge or parry: a player writes one only for a character of their own (the
            // GM for anyone).
            if let combat::Command::Attack { targets, .. } = &cmd {
                for t in targets.iter().filter(|t| t.defence.is_some()) {
                    if may_act_for(table, c, &t.name).is_err() {
                        return Err(Text::new(
                            format!(
                                "LR-14: {} の回避・受け流しを宣言できるのはその持ち主かGMです",
                                t.name
                            ),
                            format!(
                                "LR-14: only {}'s owner or a GM declares its dodge or parry",
                                t.name
                            ),
                        ));
                    }
                }
            }
            run(cmd, dice)
        }
        ["grab", who, how] => {
            may_act_for(table, c, who)?;
            let how = match *how {
                "pin" => GrabAct::Pin,
                "squeeze" => GrabAct::Damage,
                "slam" => GrabAct::Slam,
                _ => return Err(combat_usage()),
            };
            run(
                combat::Command::Squeeze {
                    who: who.to_string(),
                    how,
                },
                dice,
            )
        }
        ["escape", who, m, gm] => {
            may_act_for(table, c, who)?;
            run(
                combat::Command::BreakFree {
                    who: who.to_string(),
                    modifier: num(m)?,
                    grabber_modifier: num(gm)?,
                },
                dice,
            )
        }
        ["grapple", who, m, tm, effect] => {
            may_act_for(table, c, who)?;
            let down = match *effect {
                "down" => true,
                "helpless" => false,
                _ => return Err(combat_usage()),
            };
            run(
                combat::Command::Grapple {
                    attacker: who.to_string(),
                    modifier: num(m)?,
                    target_modifier: num(tm)?,
                    down,
                },
                dice,
            )
        }
        ["trip", who, target, m, tm] => {
            may_act_for(table, c, who)?;
            run(
                combat::Command::Trip {
                    attacker: who.to_string(),
                    target: target.to_string(),
                    modifier: num(m)?,
                    target_modifier: num(tm)?,
                },
                dice,
            )
        }
        // LR-14: a Ride test the GM calls (a frightened horse, riding into the fray).
        ["ride", who, m, rest @ ..] => {
            gm_only(table, "LR-14")?;
            let (k, plain) = split(rest);
            if !plain.is_empty() {
                return Err(combat_usage());
            }
            run(
                combat::Command::Ride {
                    who: who.to_string(),
                    ride: num(m)?,
                    tn: key_num(&k, "tn", None)?,
                    penalty: key_num(&k, "pen", Some(0))?,
                },
                dice,
            )
        }
        ["stun", who, m, rest @ ..] => {
            gm_only(table, "LR-14")?;
            let (k, plain) = split(rest);
            if !plain.is_empty() {
                return Err(combat_usage());
            }
            run(
                combat::Command::Stun {
                    who: who.to_string(),
                    modifier: num(m)?,
                    tn: key_num(&k, "tn", None)?,
                    penalty: key_num(&k, "pen", None)?,
                    rounds: key_num(&k, "rounds", None)?,
                },
                dice,
            )
        }
        ["fear", _, target, _] => Err(Text::new(
            format!(
                "LR-14: {target} の Willpower の修正を威圧の修正の後に書いてください（例: +6 +1）"
            ),
            format!(
                "LR-14: give {target}'s Willpower modifier after the Intimidate one (e.g. +6 +1)"
            ),
        )),
        ["delay", who, rest @ ..] if rest.len() <= 1 => {
            may_act_for(table, c, who)?;
            let after = match rest.first() {
                None => None,
                Some(w) => match w.strip_prefix("after=") {
                    Some(n) => Some(n.to_string()),
                    None => return Err(combat_usage()),
                },
            };
            run(
                combat::Command::Delay {
                    who: who.to_string(),
                    after,
                },
                dice,
            )
        }
        ["fear", who, target, m, w] => {
            may_act_for(table, c, who)?;
            run(
                combat::Command::Fear {
                    attacker: who.to_string(),
                    target: target.to_string(),
                    modifier: num(m)?,
                    willpower: num(w)?,
                },
                dice,
            )
        }
        ["inspire", who, target, m, w] => {
            may_act_for(table, c, who)?;
            run(
                combat::Command::Inspire {
                    inspirer: who.to_string(),
                    target: target.to_string(),
                    modifier: num(m)?,
                    willpower: num(w)?,
                },
                dice,
            )
        }
        ["inspire", ..] => Err(Text::new(
            "LR-14: 書式は /lotr combat inspire 鼓舞する人 恐怖を受けた人 威圧の修正 意志力の修正（例: inspire アラゴルン フロド +6 +1）",
            "LR-14: use /lotr combat inspire INSPIRER FRIGHTENED INTIMIDATE-MOD WILLPOWER-MOD (e.g. inspire アラゴルン フロド +6 +1)",
        )),
        ["calm", who] => {
            gm_only(table, "LR-14")?;
            run(combat::Command::Calm(who.to_string()), dice)
        }
        ["stand", who] => {
            may_act_for(table, c, who)?;
            run(combat::Command::Stand(who.to_string()), dice)
        }
        _ => Err(combat_usage()),
    }
}

/// `TARGET[:dodge+m|:parry+m[s]]`, comma-separated.
fn parse_targets(text: &str) -> Result<Vec<Target>, Text> {
    text.split(',')
        .map(|t| {
            let (name, def) = match t.split_once(':') {
                Some((n, d)) => (n, Some(d)),
                None => (t, None),
            };
            if name.is_empty() {
                return Err(combat_usage());
            }
            let defence = match def {
                None => None,
                Some(d) if d.starts_with("dodge") => {
                    let m = &d["dodge".len()..];
                    Some(Defence::Dodge {
                        modifier: if m.is_empty() { 0 } else { num(m)? },
                    })
                }
                Some(d) if d.starts_with("parry") => {
                    let m = &d["parry".len()..];
                    let (m, spec) = match m.strip_suffix('s') {
                        Some(m) => (m, true),
                        None => (m, false),
                    };
                    Some(Defence::Parry {
                        modifier: if m.is_empty() { 0 } else { num(m)? },
                        specialised: spec,
                    })
                }
                Some(_) => return Err(combat_usage()),
            };
            Ok(Target {
                name: name.to_string(),
                defence,
            })
        })
        .collect()
}

/// `2d6+4`, `1d6`, `punch`.
fn parse_damage(text: &str) -> Result<(u32, i64), Text> {
    if text == "punch" {
        let p = Weapon::punch();
        return Ok((p.dice, p.bonus));
    }
    let bad = || {
        Text::new(
            format!("LR-14: ダメージ「{text}」は 2d6+4 や 1d6 や punch の形です"),
            format!("LR-14: damage '{text}' is written 2d6+4, 1d6 or punch"),
        )
    };
    let (n, rest) = text.split_once(['d', 'D']).ok_or_else(bad)?;
    let (sides, bonus) = match rest.find(['+', '-']) {
        Some(i) => (&rest[..i], num(&rest[i..]).map_err(|_| bad())?),
        None => (rest, 0),
    };
    if sides != "6" {
        return Err(bad());
    }
    let n: u32 = n.parse().map_err(|_| bad())?;
    Ok((n, bonus))
}

fn parse_attack(attacker: &str, targets: &str, rest: &[&str]) -> Result<combat::Command, Text> {
    let (k, plain) = split(rest);
    let targets = parse_targets(targets)?;
    let mut option = AttackOption::Basic;
    let mut chosen: Option<&str> = None;
    let mut kind = WeaponKind::Melee;
    let mut modifier = 0;
    let mut ambidextrous = false;
    let mut indirect = false;
    for w in plain {
        let picked = match w {
            "basic" => AttackOption::Basic,
            "blunt" => AttackOption::Blunt { head: false },
            "blunt-head" => AttackOption::Blunt { head: true },
            "defensive" => AttackOption::Defensive,
            "power" => AttackOption::Power,
            "precise" => AttackOption::Precise,
            "two-handed" => AttackOption::TwoHanded,
            "sweep" => AttackOption::Sweep,
            "grab" => AttackOption::Grab,
            "whip" => AttackOption::Whip,
            "two-weapons" => AttackOption::TwoWeapons {
                off: Weapon::punch(),
                off_modifier: 0,
                ambidextrous: false,
            },
            "ambi" | "ambidextrous" => {
                ambidextrous = true;
                continue;
            }
            // LR-14 punch/kick: 1d6 + 2 + STR mod, the damage of an attack without `dmg=`.
            "punch" | "kick" => {
                if k.contains_key("dmg") {
                    return Err(Text::new(
                        format!(
                            "LR-14: {w} のダメージは 1d6+2+STR修正 です（dmg= と一緒には使えません）"
                        ),
                        format!("LR-14: {w} deals 1d6 + 2 + STR mod (not with dmg=)"),
                    ));
                }
                continue;
            }
            "bow" => {
                kind = WeaponKind::Bow;
                continue;
            }
            "thrown" => {
                kind = WeaponKind::Thrown;
                continue;
            }
            // LR-14 aim: an indirect missile takes +3 from an aim, a direct attack +1.
            "indirect" => {
                indirect = true;
                continue;
            }
            m if signed(m) => {
                modifier = num(m)?;
                continue;
            }
            other => {
                return Err(Text::new(
                    format!(
                        "LR-14: 攻撃オプション「{other}」はありません（basic blunt blunt-head defensive power precise two-handed two-weapons sweep grab whip punch kick、bow thrown indirect、charge=ヤード、dmg=、off=、+修正）"
                    ),
                    format!(
                        "LR-14: no attack option '{other}' (basic blunt blunt-head defensive power precise two-handed two-weapons sweep grab whip punch kick, bow thrown indirect, charge=YARDS, dmg=, off=, +m)"
                    ),
                ));
            }
        };
        // LR-14: the seed lists the attack options as alternatives: one per attack.
        if let Some(first) = chosen {
            return Err(Text::new(
                format!("LR-14: 攻撃オプションは1回の攻撃に1つです（{first} と {w}）"),
                format!("LR-14: one attack option per attack ({first} and {w})"),
            ));
        }
        chosen = Some(w);
        option = picked;
    }
    // LR-14 (lotr7 F4): the seed gives the whip's grapple (「捕縛(Grapple): 鞭 (Whip) で,
    // Superior 成功以上の命中をしたときに有効」) and the grab no damage of their own (the
    // grab's 1d6 + STR mod is a later action, `squeeze`): a weapon's dmg= would go unused,
    // so it is refused rather than ignored.
    if matches!(option, AttackOption::Whip | AttackOption::Grab) && k.contains_key("dmg") {
        let (w, ja, en) = if option == AttackOption::Whip {
            (
                "whip",
                "鞭の攻撃は捕縛を狙うもので、ダメージはありません（Superior 以上の命中で絡め取る）。鞭で傷を負わせるなら whip を付けずに dmg= で攻撃してください",
                "a whip attack tries to grapple and deals no damage (a Superior hit or better entangles); to wound with a whip, attack without `whip`, with dmg=",
            )
        } else {
            (
                "grab",
                "つかみはダメージを与えません（つかんだ後の1アクションで /lotr combat squeeze が 1d6+STR修正）",
                "a grab deals no damage (once it holds, an action of /lotr combat squeeze deals 1d6 + STR mod)",
            )
        };
        return Err(Text::new(
            format!("LR-14: {w} と dmg= は一緒に使えません。{ja}"),
            format!("LR-14: {w} does not take dmg=: {en}"),
        ));
    }
    if let (Some(c), Some(first)) = (k.get("charge"), chosen) {
        return Err(Text::new(
            format!("LR-14: 攻撃オプションは1回の攻撃に1つです（{first} と charge={c}）"),
            format!("LR-14: one attack option per attack ({first} and charge={c})"),
        ));
    }
    if let Some(c) = k.get("charge") {
        let (yd, horse) = match c.split_once(':') {
            Some((y, "horse")) => (y, true),
            Some(_) => return Err(combat_usage()),
            None => (*c, false),
        };
        option = AttackOption::Charge {
            run_up: u32::try_from(num(yd)?).unwrap_or(0),
            horse_strength: horse,
        };
    }
    let (dice, bonus) = parse_damage(k.get("dmg").copied().unwrap_or("punch"))?;
    // LR-14 two weapons: the off hand's damage (`off=`, else the main hand's) and modifier
    // (`offmod=`, else the main hand's).
    if let AttackOption::TwoWeapons { .. } = option {
        let (od, ob) = match k.get("off") {
            Some(d) => parse_damage(d)?,
            None => (dice, bonus),
        };
        option = AttackOption::TwoWeapons {
            off: Weapon {
                dice: od,
                bonus: ob,
                kind: WeaponKind::Melee,
            },
            off_modifier: key_num(&k, "offmod", Some(modifier))?,
            ambidextrous,
        };
    } else if ambidextrous || k.contains_key("off") || k.contains_key("offmod") {
        return Err(Text::new(
            "LR-14: ambi・off=・offmod= は two-weapons（両手に武器）の攻撃だけです",
            "LR-14: ambi, off= and offmod= belong to a two-weapons attack",
        ));
    }
    let range_steps = u32::try_from(key_num(&k, "range", Some(0))?).map_err(|_| combat_usage())?;
    let extraordinary = match k.get("break") {
        Some(item) => Extraordinary::Break {
            item: item.to_string(),
        },
        None => Extraordinary::MaxDamage,
    };
    Ok(combat::Command::Attack {
        attacker: attacker.to_string(),
        targets,
        option,
        weapon: Weapon { dice, bonus, kind },
        modifier,
        range_steps,
        indirect,
        extraordinary,
    })
}

fn battle_usage() -> Text {
    usage(
        "/lotr battle start|round|hero|odds|end|set|settings、/lotr unit add|attack|break|list、/lotr siege add|lock|hit|fortify|list（/help に例）",
        "/lotr battle start|round|hero|odds|end|set|settings, /lotr unit add|attack|break|list, /lotr siege add|lock|hit|fortify|list (examples in /help)",
    )
}

fn decide_battle(
    table: &dyn TableView,
    s: &battle::State,
    head: &str,
    words: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Decided, Text> {
    use battle::Command as C;
    // Reading the settings and the odds is open to all; the rest is the GM's.
    // LR-15: a hero is a character at the table; LR-16: a named commander too.
    let known = |name: &str| -> Result<(), Text> {
        if table.character(name).is_some() {
            Ok(())
        } else {
            Err(Text::new(
                format!("「{name}」というキャラクターはいません（/char list）"),
                format!("no character named '{name}' (/char list)"),
            ))
        }
    };
    if let ("battle", ["hero", hero, ..]) = (head, words) {
        known(hero)?;
    }
    if let ("unit", ["attack", _, _, _, rest @ ..]) = (head, words)
        && let Some(by) = split(rest).0.get("by")
    {
        known(by)?;
    }
    let cmd = match (head, words) {
        ("battle", ["settings"]) => return reply(s.settings.describe()),
        // LR-16, LR-17: the units and strongholds as they stand.
        ("unit" | "siege", ["list"]) => {
            let mut ja = Vec::new();
            let mut en = Vec::new();
            if head == "unit" {
                for (n, u) in &s.units {
                    let b = if u.broken { "（崩壊）" } else { "" };
                    ja.push(format!(
                        "{n}: サイズ {} Strength {} Toughness {} Mobility {} 士気 {}{b}",
                        u.size,
                        u.strength,
                        u.toughness,
                        u.mobility(),
                        u.morale()
                    ));
                    en.push(format!(
                        "{n}: Size {} Strength {} Toughness {} Mobility {} Morale {}{}",
                        u.size,
                        u.strength,
                        u.toughness,
                        u.mobility(),
                        u.morale(),
                        if u.broken { " (broken)" } else { "" }
                    ));
                }
            } else {
                for (n, h) in &s.strongholds {
                    ja.push(format!(
                        "{n}: Protection {}（錠 {:?}）Structure {}",
                        h.protection, h.locks, h.structure
                    ));
                    en.push(format!(
                        "{n}: Protection {} (locks {:?}) Structure {}",
                        h.protection, h.locks, h.structure
                    ));
                }
            }
            if ja.is_empty() {
                return reply(Text::new("（まだありません）", "(none yet)"));
            }
            return reply(Text::new(ja.join("\n"), en.join("\n")));
        }
        ("battle", ["odds", rest @ ..]) if rest.len() <= 4 => {
            let step = match (rest.first(), s.battle.as_ref()) {
                (Some(v), _) => num(v)?,
                (
                    None,
                    Some(battle::Battle {
                        standing: battle::Standing::Step(x),
                        ..
                    }),
                ) => *x,
                (None, _) => 0,
            };
            let rounds = rest.get(1).map(|v| num(v)).transpose()?.unwrap_or(5);
            let pc = rest.get(2).map(|v| num(v)).transpose()?.unwrap_or(0);
            let foe = rest.get(3).map(|v| num(v)).transpose()?.unwrap_or(0);
            let (pc, foe) = if s.settings.battle_siegecraft {
                (pc, foe)
            } else {
                (0, 0)
            };
            let o =
                battle_odds::battle_odds(step, u32::try_from(rounds).unwrap_or(u32::MAX), pc, foe)?;
            let (v, d, u) = (
                battle_odds::percent(&o.victory, 2),
                battle_odds::percent(&o.defeat, 2),
                battle_odds::percent(&o.undecided, 2),
            );
            return reply(Text::new(
                format!(
                    "LR-15 戦況 {step:+} から {rounds} ラウンド以内: 勝利 {v}、敗北 {d}、未決 {u}（正確な値: 勝利 {}）",
                    o.victory
                ),
                format!(
                    "LR-15 from {step:+} within {rounds} rounds: Victory {v}, Defeat {d}, undecided {u} (exact Victory {})",
                    o.victory
                ),
            ));
        }
        ("battle", ["set", key, value]) => C::Set {
            key: key.to_string(),
            value: value.to_string(),
        },
        ("battle", ["start"]) => C::Start { step: 0 },
        ("battle", ["start", step]) => C::Start { step: num(step)? },
        ("battle", ["round"]) => C::Round {
            pc_siegecraft: 0,
            foe_siegecraft: 0,
        },
        ("battle", ["round", a, b]) => C::Round {
            pc_siegecraft: num(a)?,
            foe_siegecraft: num(b)?,
        },
        ("battle", ["hero", hero]) => C::Hero {
            hero: hero.to_string(),
            position: None,
        },
        ("battle", ["hero", hero, pos]) => C::Hero {
            hero: hero.to_string(),
            position: Some(pos.to_string()),
        },
        ("battle", ["end"]) => C::End,
        ("unit", ["add", name, rest @ ..]) => {
            let (k, plain) = split(rest);
            let mounted = match plain.as_slice() {
                [] => false,
                ["mounted"] => true,
                _ => return Err(battle_usage()),
            };
            let size = match (k.get("size"), k.get("men")) {
                (Some(v), None) => num(v)?,
                (None, Some(men)) => {
                    let (fnum, fden) = match k.get("factor") {
                        None => (1, 1),
                        Some(f) => match f.split_once('/') {
                            Some((a, b)) => (num(a)?, num(b)?),
                            None => (num(f)?, 1),
                        },
                    };
                    if fnum < 0 || fden <= 0 {
                        return Err(battle_usage());
                    }
                    battle::unit_size(num(men)?, fnum, fden)
                }
                _ => {
                    return Err(Text::new(
                        "LR-16: size= か men=（と factor=）のどちらかが必要です",
                        "LR-16: give size= or men= (with factor=), one of them",
                    ));
                }
            };
            C::AddUnit {
                name: name.to_string(),
                size,
                strength: key_num(&k, "str", None)?,
                toughness: key_num(&k, "tough", None)?,
                mobility: key_num(&k, "mob", None)?,
                mounted,
                morale_base: key_num(&k, "morale", None)?,
            }
        }
        ("unit", ["attack", a, d, m, rest @ ..]) => {
            let (k, plain) = split(rest);
            if !plain.is_empty() {
                return Err(battle_usage());
            }
            C::UnitAttack {
                attacker: a.to_string(),
                defender: d.to_string(),
                commander_mod: num(m)?,
                commander: k.get("by").map(|s| s.to_string()),
            }
        }
        ("unit", ["break", u, m, rest @ ..]) => {
            let (k, plain) = split(rest);
            if !plain.is_empty() {
                return Err(battle_usage());
            }
            C::Break {
                unit: u.to_string(),
                intimidate_mod: num(m)?,
                backing: k.get("backing").map(|s| s.to_string()),
                inspire_mod: k.get("inspire").map(|v| num(v)).transpose()?,
            }
        }
        ("siege", ["add", name, rest @ ..]) => {
            let (k, _) = split(rest);
            C::AddStronghold {
                name: name.to_string(),
                protection: key_num(&k, "prot", None)?,
                structure: key_num(&k, "struct", None)?,
            }
        }
        ("siege", ["lock", name, v]) => C::Lock {
            stronghold: name.to_string(),
            value: num(v)?,
        },
        ("siege", ["hit", name, v]) => C::Hit {
            stronghold: name.to_string(),
            damage: num(v)?,
        },
        ("siege", ["fortify", who, rest @ ..]) => {
            let (k, plain) = split(rest);
            let (m, aim) = match plain.as_slice() {
                [m, "protection" | "structure", target, more @ ..] if more.len() <= 1 => {
                    let permanent = match more {
                        [] => true,
                        ["temp"] => false,
                        _ => return Err(battle_usage()),
                    };
                    let stronghold = target.to_string();
                    let aim = if plain[1] == "protection" {
                        FortifyAim::Protection {
                            stronghold,
                            permanent,
                        }
                    } else {
                        FortifyAim::Structure {
                            stronghold,
                            permanent,
                        }
                    };
                    (m, aim)
                }
                [m, "siegecraft", commander] => (
                    m,
                    FortifyAim::Siegecraft {
                        commander: commander.to_string(),
                    },
                ),
                _ => return Err(battle_usage()),
            };
            C::Fortify {
                who: who.to_string(),
                stonecraft_rank: key_num(&k, "rank", None)?,
                modifier: num(m)?,
                tn: key_num(&k, "tn", None)?,
                aim,
            }
        }
        _ => return Err(battle_usage()),
    };
    gm_only(
        table,
        if head == "battle" {
            "LR-15"
        } else if head == "unit" {
            "LR-16"
        } else {
            "LR-17"
        },
    )?;
    let events = battle::decide(s, &cmd, dice)?;
    done(events.into_iter().map(SubEvent::Battle).collect())
}

fn xp_usage() -> Text {
    usage(
        "/lotr xp award 名前,名前 goal1|goal2|scene|test 目標値 [+外的修正]|rp 点 | credit 名前 | advance 名前 [職業] [flaw=欠点] | pick 名前 rank 技能|spec 技能 分野|edge 名|ability 職業 名|attr STR|reaction Stamina|health|order 職業 [advancing=A,B]|elite 職業 | close 名前 | show 名前 | set|settings",
        "/lotr xp award NAME,NAME goal1|goal2|scene|test TN [+external]|rp N | credit NAME | advance NAME [ORDER] [flaw=FLAW] | pick NAME rank SKILL|spec SKILL FIELD|edge NAME|ability ORDER NAME|attr STR|reaction Stamina|health|order ORDER [advancing=A,B]|elite ORDER | close NAME | show NAME | set|settings",
    )
}

fn decide_xp(
    table: &dyn TableView,
    s: &advance::State,
    words: &[&str],
    dice: &mut Roller<'_>,
    import: Importer<'_>,
) -> Result<Decided, Text> {
    use advance::Command as C;
    // A character's record is imported from its sheet the first time it is needed.
    let mut events = Vec::new();
    let mut state = s.clone();
    let ensure =
        |name: &str, state: &mut advance::State, events: &mut Vec<SubEvent>| -> Result<(), Text> {
            if let Some(p) = state.progress.get(name) {
                // LR-12: a record given its order after its XP record was made (without one)
                // advances in it: the order, its skills and abilities are read now; an
                // order the XP record has already is changed only by joining (picks).
                if p.orders.is_empty()
                    && let Some(fresh) = import(name).filter(|f| !f.orders.is_empty())
                {
                    let mut merged = p.clone();
                    merged.orders = fresh.orders;
                    merged.advancing = fresh.advancing;
                    merged.order_skills.extend(fresh.order_skills);
                    merged.abilities.extend(fresh.abilities);
                    let e = advance::Event::Imported {
                        who: name.to_string(),
                        progress: Box::new(merged),
                    };
                    advance::fold(state, &e);
                    events.push(SubEvent::Advance(e));
                }
                return Ok(());
            }
            let progress = import(name).ok_or_else(|| {
                Text::new(
                    format!("LR-12: キャラクター「{name}」がいません"),
                    format!("LR-12: no character '{name}'"),
                )
            })?;
            let e = advance::Event::Imported {
                who: name.to_string(),
                progress: Box::new(progress),
            };
            advance::fold(state, &e);
            events.push(SubEvent::Advance(e));
            Ok(())
        };
    let cmd = match words {
        ["settings"] => return reply(s.settings.describe()),
        ["set", key, value] => {
            gm_only(table, "LR-12")?;
            C::Set {
                key: key.to_string(),
                value: value.to_string(),
            }
        }
        ["show", name] => {
            ensure(name, &mut state, &mut events)?;
            let p = &state.progress[*name];
            let open = p.open.as_ref().map_or(0, |o| o.picks);
            return reply(Text::new(
                format!(
                    "LR-12 {name}: 経験点 {}（未加算 {}）、成長 {} 回（獲得 {}）、次まで {}、残り成長ポイント {open}",
                    p.xp,
                    p.pending,
                    p.advancements,
                    p.earned(),
                    1000 - p.toward_next()
                ),
                format!(
                    "LR-12 {name}: {} XP ({} pending), {} advancements ({} earned), {} to the next, {open} picks left",
                    p.xp,
                    p.pending,
                    p.advancements,
                    p.earned(),
                    1000 - p.toward_next()
                ),
            ));
        }
        ["award", names, what @ ..] => {
            gm_only(table, "LR-12")?;
            let who: Vec<String> = names.split(',').map(str::to_string).collect();
            for w in &who {
                ensure(w, &mut state, &mut events)?;
            }
            let award = match what {
                ["goal1"] => Award::FirstGoal,
                ["goal2"] => Award::SecondGoal,
                ["scene"] => Award::Scene,
                ["test", tn] => Award::Test {
                    tn: num(tn)?,
                    external: 0,
                },
                ["test", tn, ext] => Award::Test {
                    tn: num(tn)?,
                    external: num(ext)?,
                },
                ["rp", xp] => Award::RolePlay { xp: num(xp)? },
                _ => return Err(xp_usage()),
            };
            C::Award { who, award }
        }
        ["credit", name] => {
            gm_only(table, "LR-12")?;
            ensure(name, &mut state, &mut events)?;
            C::Credit {
                who: name.to_string(),
            }
        }
        ["advance", name, rest @ ..] => {
            owner_or_gm(table, name).map_err(|_| {
                Text::new(
                    "LR-12: 成長させられるのは持ち主かGMです",
                    "LR-12: only the owner or a GM may advance it",
                )
            })?;
            ensure(name, &mut state, &mut events)?;
            let (k, plain) = split(rest);
            let order = match plain.as_slice() {
                [] => None,
                [o] => Some(o.to_string()),
                _ => return Err(xp_usage()),
            };
            // LR-12 「新しい欠点を得ることで6ポイント」: a flaw the character has (from its
            // sheet or an earlier advancement) is not new.
            if let Some(f) = k.get("flaw") {
                let on_sheet = table
                    .character(name)
                    .and_then(|(_, fields)| fields.get("flaws"))
                    .is_some_and(|v| v.split(',').any(|x| x.trim() == *f));
                let taken = state
                    .progress
                    .get(*name)
                    .is_some_and(|p| p.flaws.iter().any(|x| x == f));
                if on_sheet || taken {
                    return Err(Text::new(
                        format!(
                            "LR-12: {name}はもう欠点「{f}」を持っています。6ポイントになるのは新しい欠点だけです"
                        ),
                        format!(
                            "LR-12: {name} has the flaw '{f}' already; only a new flaw gives 6 picks"
                        ),
                    ));
                }
            }
            C::Advance {
                who: name.to_string(),
                order,
                new_flaw: k.get("flaw").map(|f| f.to_string()),
            }
        }
        ["pick", name, what @ ..] => {
            owner_or_gm(table, name).map_err(|_| {
                Text::new(
                    "LR-12: 成長させられるのは持ち主かGMです",
                    "LR-12: only the owner or a GM may advance it",
                )
            })?;
            ensure(name, &mut state, &mut events)?;
            let (k, plain) = split(what);
            let buy = match plain.as_slice() {
                // A skill's spaces are typed as `_` (`Armed_Combat:_Swords`), as the
                // sheet's fields keep them.
                ["rank", skill] => Buy::Rank {
                    skill: skill.replace('_', " "),
                },
                ["spec", skill, field] => Buy::Specialisation {
                    skill: skill.replace('_', " "),
                    field: field.replace('_', " "),
                },
                ["edge", n] => Buy::Edge {
                    name: n.to_string(),
                },
                ["ability", o, n] => {
                    // LR-1/LR-12 「自分の属するOrderの能力からしか選択できない」: an order the
                    // GM's data lists offers its listed abilities only (the sheet's check).
                    if let Some(d) = super::sheet::Data::example().orders.get(*o)
                        && !d.abilities.iter().any(|a| a == n)
                    {
                        return Err(Text::new(
                            format!(
                                "LR-12: 職業能力「{n}」は{o}のものではありません（{o}の能力: {}）",
                                d.abilities.join("、")
                            ),
                            format!(
                                "LR-12: '{n}' is not an order ability of {o} ({o}'s: {})",
                                d.abilities.join(", ")
                            ),
                        ));
                    }
                    Buy::Ability {
                        order: o.to_string(),
                        name: n.to_string(),
                    }
                }
                ["attr", n] => Buy::Attribute {
                    name: n.to_ascii_uppercase(),
                },
                ["reaction", n] => Buy::Reaction {
                    name: n.to_string(),
                },
                ["health"] => Buy::Health,
                ["order" | "elite", o] => {
                    let advancing =
                        match k.get("advancing").map(|v| v.split(',').collect::<Vec<_>>()) {
                            None => None,
                            Some(v) if v.len() == 2 => Some([v[0].to_string(), v[1].to_string()]),
                            Some(_) => return Err(xp_usage()),
                        };
                    // LR-12: the order's skills, as the GM's data lists them (EXAMPLE), unless
                    // `skills=` names them.
                    let skills = k
                        .get("skills")
                        .map(|v| v.split(',').map(str::to_string).collect())
                        .unwrap_or_else(|| {
                            super::sheet::Data::example()
                                .orders
                                .get(*o)
                                .map(|d| d.skills.iter().cloned().collect())
                                .unwrap_or_default()
                        });
                    Buy::Order {
                        order: o.to_string(),
                        skills,
                        advancing,
                        elite: plain[0] == "elite",
                    }
                }
                _ => return Err(xp_usage()),
            };
            C::Pick {
                who: name.to_string(),
                buy,
            }
        }
        ["close", name] => {
            owner_or_gm(table, name).map_err(|_| {
                Text::new(
                    "LR-12: 成長させられるのは持ち主かGMです",
                    "LR-12: only the owner or a GM may advance it",
                )
            })?;
            ensure(name, &mut state, &mut events)?;
            C::Close {
                who: name.to_string(),
            }
        }
        _ => return Err(xp_usage()),
    };
    let more = advance::decide(&state, &cmd, dice)?;
    events.extend(more.into_iter().map(SubEvent::Advance));
    done(events)
}

fn money_usage() -> Text {
    usage(
        "/lotr money 名前 +1GP3sp | 名前 -20cp | 名前 start 職業修正 地域修正 | 名前 | convert 1GP sp",
        "/lotr money NAME +1GP3sp | NAME -20cp | NAME start ORDER_MOD REGION_MOD | NAME | convert 1GP sp",
    )
}

fn decide_money(
    table: &dyn TableView,
    s: &advance::State,
    words: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Decided, Text> {
    use advance::Command as C;
    let cmd = match words {
        ["convert", amount, unit] => {
            let cp = advance::parse_money(amount)?;
            let (n, left) = advance::convert(cp, unit).ok_or_else(money_usage)?;
            return reply(Text::new(
                format!(
                    "LR-13 {amount} = {n}{unit}{}（{}）",
                    if left > 0 {
                        format!(" と {left}cp")
                    } else {
                        String::new()
                    },
                    advance::show_cp(cp).0
                ),
                format!(
                    "LR-13 {amount} = {n}{unit}{} ({})",
                    if left > 0 {
                        format!(" and {left}cp")
                    } else {
                        String::new()
                    },
                    advance::show_cp(cp).1
                ),
            ));
        }
        [name] => {
            let cp = s.purses.get(*name).copied().unwrap_or(0);
            let (ja, en) = advance::show_cp(cp);
            return reply(Text::new(
                format!("LR-13 {name} の所持金: {ja}（{cp}cp）"),
                format!("LR-13 {name}'s purse: {en} ({cp}cp)"),
            ));
        }
        [name, "start", om, rm] => {
            gm_only(table, "LR-13")?;
            C::StartingMoney {
                who: name.to_string(),
                order_mod: num(om)?,
                region_mod: num(rm)?,
            }
        }
        [name, amount] if signed(amount) => {
            owner_or_gm(table, name).map_err(|_| {
                Text::new(
                    "LR-13: 所持金を変えられるのは持ち主かGMです",
                    "LR-13: only the owner or a GM may change this purse",
                )
            })?;
            let cp = advance::parse_money(&amount[1..])?;
            C::Money {
                who: name.to_string(),
                cp: if amount.starts_with('-') { -cp } else { cp },
            }
        }
        _ => return Err(money_usage()),
    };
    let events = advance::decide(s, &cmd, dice)?;
    done(events.into_iter().map(SubEvent::Advance).collect())
}

/// Folds one event.
pub fn fold(state: &mut SubState, event: &SubEvent) {
    match event {
        SubEvent::Combat(e) => combat::fold(&mut state.combat, e),
        SubEvent::Battle(e) => battle::fold(&mut state.battle, e),
        SubEvent::Advance(e) => advance::fold(&mut state.advance, e),
    }
}

/// One line of log text.
pub fn describe(event: &SubEvent) -> Text {
    match event {
        SubEvent::Combat(e) => combat::describe(e),
        SubEvent::Battle(e) => battle::describe(e),
        SubEvent::Advance(e) => advance::describe(e),
    }
}

#[cfg(test)]
mod tests {
    use super::super::coda::testing::d6s;
    use super::*;
    use taku_dice::Lang;

    struct Fake {
        actor: &'static str,
        gm: bool,
        chars: BTreeMap<String, (String, BTreeMap<String, String>)>,
    }

    impl TableView for Fake {
        fn actor(&self) -> &str {
            self.actor
        }
        fn actor_is_gm(&self) -> bool {
            self.gm
        }
        fn character(&self, name: &str) -> Option<(&str, &BTreeMap<String, String>)> {
            self.chars.get(name).map(|(o, f)| (o.as_str(), f))
        }
        fn characters(&self) -> Vec<(&str, &str)> {
            self.chars
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
    }

    fn table(actor: &'static str) -> Fake {
        let mut chars = BTreeMap::new();
        chars.insert(
            "Boromir".to_string(),
            ("alice".to_string(), BTreeMap::new()),
        );
        chars.insert("Frodo".to_string(), ("bob".to_string(), BTreeMap::new()));
        Fake {
            actor,
            gm: actor == "gm",
            chars,
        }
    }

    fn progress(name: &str) -> Option<Progress> {
        (name == "Boromir" || name == "Frodo").then(|| {
            let mut p = Progress::default();
            p.orders.insert("Warrior".into(), 0);
            p.advancing = vec!["Warrior".into()];
            p.order_skills
                .insert("Warrior".into(), ["Armed Combat".to_string()].into());
            p
        })
    }

    /// Runs a line as `actor` would type it after `/lotr`, folding what it decides.
    fn line(
        state: &mut SubState,
        actor: &'static str,
        text: &str,
        faces: &[u32],
    ) -> Result<Decided, Text> {
        let t = table(actor);
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut src = d6s(faces);
        let mut r = Roller::new(&mut src);
        let before = state.clone();
        let out = decide(&t, state, &words, &mut r, &progress).expect("one of ours");
        match &out {
            Ok(d) => {
                assert_eq!(src.remaining(), 0, "every scripted die used: {text}");
                for e in &d.events {
                    fold(state, e);
                    let d = describe(e);
                    assert!(!d.get(Lang::Ja).is_empty() && !d.get(Lang::En).is_empty());
                    let json = serde_json::to_string(e).expect("json");
                    assert_eq!(&serde_json::from_str::<SubEvent>(&json).expect("back"), e);
                }
            }
            Err(e) => {
                assert_eq!(*state, before, "a refusal changes nothing");
                assert_ne!(e.get(Lang::Ja), e.get(Lang::En), "both languages");
            }
        }
        out
    }

    #[test]
    fn combat_through_the_users_path() {
        let mut s = SubState::default();
        line(
            &mut s,
            "gm",
            "combat join Boromir swift=+2 def=12 str=9 shield=2",
            &[],
        )
        .expect("join");
        line(&mut s, "gm", "combat join Orc swift=+1 def=12 str=5", &[]).expect("join");
        assert!(
            line(
                &mut s,
                "alice",
                "combat join Elf swift=+1 def=12 str=5",
                &[]
            )
            .is_err(),
            "GM only"
        );
        line(&mut s, "gm", "combat init", &[6, 5, 1, 1]).expect("init");
        assert_eq!(s.combat.order, ["Boromir", "Orc"]);
        // The worked example: attack 17 vs parry 17 is parried (Orc attacks, Boromir parries).
        let d = line(
            &mut s,
            "gm",
            "combat attack Orc Boromir:parry+5 dmg=2d6+3 +6",
            &[5, 6, 5, 5],
        )
        .expect("attack");
        let SubEvent::Combat(combat::Event::Attacked { strikes, .. }) = &d.events[0] else {
            panic!()
        };
        assert!(strikes[0].parried, "5+5+5+2 (shield) = 17 parries 17");
        // Alice acts for her own character, not for the Orc.
        line(&mut s, "alice", "combat act Boromir aim", &[]).expect("aim");
        let e = line(&mut s, "alice", "combat act Orc move", &[]).expect_err("not hers");
        assert!(e.get(Lang::En).contains("LR-14"));
        // Charge with the seed's 9 damage → 14: 2d6 = 4+5, STR 9 (+1) … use a 1d6+4 weapon: 4+4+1 = 9.
        line(&mut s, "gm", "combat next", &[]).expect("next");
        let d = line(
            &mut s,
            "alice",
            "combat attack Boromir Orc charge=5 dmg=1d6+4 +5",
            &[5, 5, 4, 6, 6, 1],
        )
        .expect("charge");
        let SubEvent::Combat(combat::Event::Attacked { strikes, .. }) = &d.events[0] else {
            panic!()
        };
        assert_eq!(strikes[0].damage.as_ref().map(|x| x.1), Some(14));
        assert!(line(&mut s, "alice", "combat attack Boromir Orc dmg=3d8", &[]).is_err());
        assert!(line(&mut s, "alice", "combat fly Boromir", &[]).is_err());
    }

    #[test]
    fn battle_unit_siege_through_the_users_path() {
        let mut s = SubState::default();
        assert!(
            line(&mut s, "alice", "battle start", &[]).is_err(),
            "GM only"
        );
        line(&mut s, "gm", "battle start +3", &[]).expect("start");
        let d = line(&mut s, "alice", "battle odds", &[]).expect("odds");
        assert!(
            d.reply
                .expect("reply")
                .get(Lang::En)
                .contains("from +3 within 5 rounds")
        );
        line(&mut s, "gm", "battle round", &[1, 1, 1, 1]).expect("round");
        assert_eq!(
            s.battle.battle.as_ref().map(|b| b.standing),
            Some(battle::Standing::Victory)
        );
        line(
            &mut s,
            "gm",
            "unit add Rohan men=230 str=8 tough=7 mob=6 morale=7",
            &[],
        )
        .expect("unit");
        assert_eq!(s.battle.units["Rohan"].size, 23);
        line(
            &mut s,
            "gm",
            "unit add Orcs size=15 str=5 tough=6 mob=5 morale=4",
            &[],
        )
        .expect("unit");
        line(&mut s, "gm", "unit attack Rohan Orcs +4", &[6, 5]).expect("attack");
        assert!(s.battle.units["Orcs"].destroyed(), "(8 + 23) − 6 = 25 ≥ 15");
        line(&mut s, "gm", "siege add Gate prot=5 struct=20", &[]).expect("siege");
        line(&mut s, "gm", "siege lock Gate 4", &[]).expect("lock");
        line(&mut s, "gm", "siege lock Gate 4", &[]).expect("bar");
        line(&mut s, "gm", "siege hit Gate 15", &[]).expect("hit");
        assert_eq!(s.battle.strongholds["Gate"].structure, 16, "15 − (5 + 6)");
        line(
            &mut s,
            "gm",
            "siege fortify Gimli rank=3 +5 tn=8 protection Gate",
            &[5, 5],
        )
        .expect("fortify");
        assert_eq!(s.battle.strongholds["Gate"].protection, 7);
        let e = line(
            &mut s,
            "gm",
            "siege fortify Gimli rank=3 +5 tn=8 structure Gate",
            &[],
        )
        .expect_err("locked");
        assert!(e.get(Lang::Ja).contains("LR-17"));
    }

    #[test]
    fn xp_and_money_through_the_users_path() {
        let mut s = SubState::default();
        line(&mut s, "gm", "xp award Boromir,Frodo goal1", &[]).expect("award");
        assert_eq!(s.advance.progress["Frodo"].pending, 500);
        line(&mut s, "gm", "xp set xp_timing per_test", &[]).expect("set");
        line(&mut s, "gm", "xp award Frodo rp 500", &[]).expect("award");
        line(&mut s, "gm", "xp credit Frodo", &[]).expect("credit");
        assert_eq!(s.advance.progress["Frodo"].xp, 1000);
        assert!(
            line(&mut s, "alice", "xp advance Frodo", &[]).is_err(),
            "not Alice's"
        );
        line(&mut s, "bob", "xp advance Frodo flaw=Stubborn", &[]).expect("advance");
        assert_eq!(
            s.advance.progress["Frodo"].open.as_ref().map(|o| o.picks),
            Some(6)
        );
        line(&mut s, "bob", "xp pick Frodo rank Stealth", &[]).expect_err("not an order skill");
        // `_` stands for a space; `Armed Combat: Swords` is an order skill by its group.
        line(
            &mut s,
            "bob",
            "xp pick Frodo rank Armed_Combat:_Swords",
            &[],
        )
        .expect("an Armed Combat skill");
        assert_eq!(
            s.advance.progress["Frodo"].skills["Armed Combat: Swords"],
            1
        );
        line(&mut s, "bob", "xp close Frodo", &[]).expect("close");
        assert!(line(&mut s, "gm", "xp award Gandalf scene", &[]).is_err());

        line(&mut s, "gm", "money Frodo start +2 -1", &[4]).expect("start");
        line(&mut s, "bob", "money Frodo +1GP3sp", &[]).expect("gain");
        let d = line(&mut s, "bob", "money Frodo", &[]).expect("show");
        assert!(d.reply.expect("reply").get(Lang::En).contains("3900cp"));
        assert!(line(&mut s, "bob", "money Frodo -1GP3SP", &[]).is_ok());
        assert!(
            line(&mut s, "bob", "money Frodo -1GP", &[]).is_err(),
            "not enough"
        );
        let d = line(&mut s, "bob", "money convert 1GP cp", &[]).expect("convert");
        assert!(d.reply.expect("reply").get(Lang::En).contains("1600cp"));
    }
}
