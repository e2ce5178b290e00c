//! Another World's rules at a table: one [`TableRules`] whose state and events are made
//! of parts, one file each, in rulebook order: combat (AW-3, [`super::combat`]), supply
//! (AW-4, [`super::supply`]), contracts and command spells (AW-5,
//! [`super::contracts`]), event keys (AW-6, [`super::keys`]) and AF checks (AW-7,
//! [`super::af`]).
//!
//! Every part decides with the whole [`State`] in view (a command spell's summon sends a
//! combat round to cleanup) and returns [`Event`]s of any part; each part folds only its
//! own events.

use super::{af, combat, contracts, keys, sheet, supply};
use crate::table_rules::{
    Audience, CommandHelp, Outcome, OwnedField, Prepared, TableRules, TableView,
};
use crate::view::{Field, Section, Value};
use serde::{Deserialize, Serialize};
use taku_dice::{RollResult, Roller, Text};

/// What Another World tracks at a table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct State {
    /// AW-3: the combat in progress.
    pub combat: Option<combat::Combat>,
    /// AW-5: contracts, their history, command spells.
    pub contracts: contracts::Contracts,
    /// AW-6: who holds which event key (GM-only as a whole).
    pub keys: keys::Keys,
    /// AW-7: the AF check in progress or last finished.
    pub af: Option<af::AfCheck>,
    /// AW-3 対象識別: the GM's NPCs whose data is public — identified (「成功することで、
    /// 敵のデータを公表することができる」) or shown by the GM (`/npc show`). Every other
    /// NPC of the GM's is the GM's to know ([`hidden_from_actor`]).
    pub public: std::collections::BTreeSet<String>,
    /// AW-3 対象識別: the NPCs identified — their data printed in the identification's
    /// public line (「敵のデータを公表する」), which no `/npc hide` takes back.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub identified: std::collections::BTreeSet<String>,
    /// AW-3 とどめを刺す (seed line 120 「戦闘不能のキャラクターを死亡させる」): the characters
    /// killed so. A dead character joins no combat; the GM's `/void` of the finishing
    /// blow brings it back.
    pub dead: std::collections::BTreeSet<String>,
    /// AW-3: the characters that have taken part in a combat. A combat's order shows every
    /// member its combatants by name (an unidentified enemy too, 「未識別」), so players may
    /// name such an enemy (to identify or attack it) though its data stays the GM's; an NPC
    /// of the GM's never put before them is, to a player, no character at all (issue 13,
    /// [`TableRules::hidden_name_shown`]).
    pub met: std::collections::BTreeSet<String>,
    /// AW-2 (attack6 A6-6): contests players declared against the GM's hidden NPCs, waiting
    /// for the GM to choose and roll the NPC's side (`/vs react`), oldest first.
    pub waiting: Vec<combat::Waiting>,
}

/// What happened, by part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum Event {
    /// AW-3.
    Combat(combat::Event),
    /// AW-4.
    Supply(supply::Event),
    /// AW-5.
    Contract(contracts::Event),
    /// AW-6.
    Key(keys::Event),
    /// AW-7.
    Af(af::Event),
}

/// Shorthand for a part's decision: a refusal is a [`Text`] in both languages.
pub type Decided = Option<Result<Outcome<Event>, Text>>;

/// One event, no reply.
pub fn one(e: Event) -> Result<Outcome<Event>, Text> {
    Ok(Outcome {
        events: vec![e],
        reply: None,
    })
}

/// A private reply, no event.
pub fn reply(text: Text) -> Result<Outcome<Event>, Text> {
    Ok(Outcome {
        events: Vec::new(),
        reply: Some(text),
    })
}

/// A refusal unless the actor is a GM; `what` names the act (`戦闘の開始` / `start a
/// combat`).
pub fn gm_only(table: &dyn TableView, what: Text) -> Result<(), Text> {
    if table.actor_is_gm() {
        Ok(())
    } else {
        Err(Text::new(
            format!("{}はGMだけが行えます", what.ja()),
            format!("only the GM can {}", what.en()),
        ))
    }
}

/// PC or NPC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// A player character.
    Pc,
    /// A non-player character.
    Npc,
}

/// A character's kind: its `種別` field (`PC`/`NPC`) if set, else PC when a player owns it
/// and NPC when a GM does. `Err` names a missing character.
pub fn kind(table: &dyn TableView, name: &str) -> Result<Kind, Text> {
    let Some((owner, fields)) = table.character(name) else {
        return Err(no_character(name));
    };
    Ok(match fields.get("種別").map(|k| k.to_ascii_uppercase()) {
        Some(k) if k == "PC" => Kind::Pc,
        Some(k) if k == "NPC" => Kind::Npc,
        _ if table.member_is_gm(owner) => Kind::Npc,
        _ => Kind::Pc,
    })
}

/// The refusal for a character that does not exist.
pub fn no_character(name: &str) -> Text {
    Text::new(
        format!("「{name}」というキャラクターはいません。/char new {name} で作成してください"),
        format!("no character named '{name}'; create it with /char new {name}"),
    )
}

/// A whole-number field of a character (an ability, 行動値, HP…); `Err` says which is
/// missing or not a number and how to set it.
pub fn field(table: &dyn TableView, name: &str, key: &str) -> Result<i64, Text> {
    let Some((_, fields)) = table.character(name) else {
        return Err(no_character(name));
    };
    let Some(value) = fields.get(key) else {
        return Err(Text::new(
            format!(
                "{name}の【{key}】が設定されていません。/char set {name} {key} 数値 で設定してください"
            ),
            format!("{name} has no 【{key}】; set it with /char set {name} {key} N"),
        ));
    };
    value.trim().parse().map_err(|_| {
        Text::new(
            format!("{name}の【{key}】が「{value}」で、整数ではありません"),
            format!("{name}'s 【{key}】 is '{value}', not a whole number"),
        )
    })
}

/// Whether `name` is an NPC of the GM's whose data players may not see yet (AW-3
/// 対象識別: 「成功することで、敵のデータを公表することができる」, so until then the data is
/// the GM's): a character a GM owns whose `種別` is not `PC`, neither identified nor shown
/// by the GM (`/npc show`).
pub fn secret_npc(table: &dyn TableView, state: &State, name: &str) -> bool {
    let Some((owner, fields)) = table.character(name) else {
        return false;
    };
    table.member_is_gm(owner)
        && fields
            .get("種別")
            .is_none_or(|k| !k.trim().eq_ignore_ascii_case("PC"))
        && !state.public.contains(name)
}

/// Why `name`'s data is hidden from the actor, if it is: a [`secret_npc`] seen by a
/// member who is neither a GM nor its owner.
pub fn hidden_from_actor(table: &dyn TableView, state: &State, name: &str) -> Option<Text> {
    if table.actor_is_gm()
        || table
            .character(name)
            .is_some_and(|(owner, _)| owner == table.actor())
        || !secret_npc(table, state, name)
    {
        return None;
    }
    Some(Text::new(
        format!(
            "未識別。対象識別（/combat major identify {name}）に成功するか、GMが /npc show {name} で公開するとデータが見られます（AW-3）"
        ),
        format!(
            "not identified; its data shows once an identification (/combat major identify {name}) succeeds or the GM makes it public with /npc show {name} (AW-3)"
        ),
    ))
}

/// `/npc show NAME` / `/npc hide NAME` (GM): makes an NPC's data public, or the GM's
/// again (AW-3: the data of an enemy is made public by identification; an ally the GM
/// shows at once).
fn npc(table: &dyn TableView, state: &State, words: &[&str]) -> Decided {
    Some((|| {
        let (public, name) = match words {
            ["show" | "公開", name] => (Some(true), *name),
            ["hide" | "非公開", name] => (Some(false), *name),
            ["appear" | "登場", name] => (None, *name),
            _ => {
                return Err(Text::new(
                    "使い方: /npc show 名前（NPCのデータを公開）| /npc hide 名前（GMだけに戻す）| /npc appear 名前（プレイヤーの前に登場させる。データは未識別のまま）",
                    "usage: /npc show NAME (make an NPC's data public) | /npc hide NAME (the GM's again) | /npc appear NAME (bring it before the players, its data still not identified)",
                ));
            }
        };
        gm_only(
            table,
            Text::new("NPCのデータの公開・非公開", "show or hide an NPC's data"),
        )?;
        let Some((owner, _)) = table.character(name) else {
            return Err(no_character(name));
        };
        if !table.member_is_gm(owner) {
            return Err(Text::new(
                format!(
                    "{name}は{owner}のキャラクターです。公開・非公開を切り替えられるのはGMのNPCだけです（プレイヤーのキャラクターはいつも公開）"
                ),
                format!(
                    "{name} belongs to {owner}; only the GM's NPCs are shown or hidden (players' characters are always public)"
                ),
            ));
        }
        let Some(public) = public else {
            // Issue 13: until it appears, a hidden NPC is no name to the players.
            if state.met.contains(name) || state.public.contains(name) {
                return Err(Text::new(
                    format!("{name}はすでにプレイヤーの前に登場しています"),
                    format!("{name} has appeared before the players already"),
                ));
            }
            // aw8 F11: a player may have taken a look-alike of the hidden NPC's name
            // (bob's `boss` beside the GM's `Boss`), which the name rule then allowed as
            // a name never used; once the NPC appears the table holds two names the rule
            // keeps apart. The GM alone is told, and how to rename the NPC.
            let warning = table.look_alike(name).map(|other| {
                Text::new(
                    format!(
                        "（GMのみ）{name} は {other} と同じか見分けにくい名前です。プレイヤーが取り違えないよう、/char rename {name} 新しい名前 で NPC を改名できます"
                    ),
                    format!(
                        "(GM only) {name} is or looks like {other}; so that players do not mistake them, /char rename {name} NEW-NAME renames the NPC"
                    ),
                )
            });
            return Ok(Outcome {
                events: vec![Event::Combat(combat::Event::Appeared {
                    name: name.to_string(),
                })],
                reply: warning,
            });
        };
        // AW-3 対象識別, seed 「…成功することで、敵のデータを公表することができる」: an
        // identification printed the NPC's data in a line every member read; hiding it
        // again would take back what the players' check won without unsaying it.
        if !public && state.identified.contains(name) {
            return Err(Text::new(
                format!(
                    "{name}は対象識別で識別済みです。データはその行で全員に公表されているので、GMだけに戻せません（AW-3）。識別が誤りなら、その行を /void で無効にしてください"
                ),
                format!(
                    "{name} was identified: its data was published to everyone in that line and cannot be made the GM's again (AW-3); if the identification was wrong, /void that line"
                ),
            ));
        }
        if state.public.contains(name) == public {
            return Err(if public {
                Text::new(
                    format!("{name}のデータはすでに公開されています"),
                    format!("{name}'s data is public already"),
                )
            } else {
                Text::new(
                    format!("{name}のデータはすでにGMだけのものです"),
                    format!("{name}'s data is the GM's already"),
                )
            });
        }
        // The GM showed it (`/npc show`) and now hides it: the players may have read its
        // data meanwhile, and keep what they read; from now on its values are the GM's
        // again (a new form, say). Only the GM is told.
        let warning = (!public).then(|| {
            Text::new(
                format!(
                    "（GMのみ）{name}のデータは公開中にプレイヤーが読んでいるかもしれません。読まれた値は取り消せません。これからの値はGMだけのものです"
                ),
                format!(
                    "(GM only) the players may have read {name}'s data while it was public, and what they read stays read; its values from now on are the GM's"
                ),
            )
        });
        Ok(Outcome {
            events: vec![Event::Combat(combat::Event::Published {
                name: name.to_string(),
                public,
            })],
            reply: warning,
        })
    })())
}

/// Whether the actor may act for character `name`: its owner or a GM.
pub fn may_act_for(table: &dyn TableView, name: &str) -> Result<(), Text> {
    match table.character(name) {
        None => Err(no_character(name)),
        Some((owner, _)) if owner == table.actor() || table.actor_is_gm() => Ok(()),
        Some((owner, _)) => Err(Text::new(
            format!("{name}は{owner}のキャラクターです。操作できるのは{owner}かGMだけです"),
            format!("{name} belongs to {owner}; only they or the GM can act for it"),
        )),
    }
}

/// The characters a combat event's line names to every member, so that they are met
/// (issue 13, [`State::met`]): an NPC the GM brings on (`/npc appear`) or shows, both
/// sides of an open contest (its veiled line names them), a combat's combatants.
fn named_to_all(e: &combat::Event) -> Vec<String> {
    match e {
        combat::Event::Appeared { name } | combat::Event::Published { name, public: true } => {
            vec![name.clone()]
        }
        combat::Event::Opposed { name, against, .. }
        | combat::Event::Declared { name, against, .. } => vec![name.clone(), against.clone()],
        combat::Event::Started { combatants } => {
            combatants.iter().map(|x| x.name.clone()).collect()
        }
        combat::Event::Joined { combatant } => vec![combatant.name.clone()],
        _ => Vec::new(),
    }
}

/// Another World's table rules.
pub struct AwRules;

/// Every command, for `/help`, in rulebook order.
const COMMANDS: &[CommandHelp] = &[
    CommandHelp {
        usage: "/combat start ミナ ロイ 影 | /combat add 名前 | /combat remove 名前",
        help: "戦闘開始（AW-3、GM）。【行動値】【反射】【知覚】【幸運】はキャラクターの値",
        help_en: "Start a combat (AW-3, GM); 【行動値】 (action value), 【反射】, 【知覚】 and 【幸運】 come from the characters",
    },
    CommandHelp {
        usage: "/combat next",
        help: "次のプロセスへ（セットアップ→イニシアチブ→メイン→…→クリンナップ、GM）",
        help_en: "Move on to the next process (setup → initiative → main → … → cleanup, GM)",
    },
    CommandHelp {
        usage: "/combat order ミナ ロイ",
        help: "同値のキャラクターの行動順をGMが決める",
        help_en: "The GM's order for characters with the same action value",
    },
    CommandHelp {
        usage: "/combat minor move | /combat minor skill 特技名",
        help: "マイナーアクション: 戦闘移動（【行動値】+5m、エンゲージ中は不可）・特技",
        help_en: "Minor action: combat move (action value + 5 m, not while engaged) or a skill",
    },
    CommandHelp {
        usage: "/combat major move | attack 対象 | skill 特技名 | disengage | identify 対象 | finish 対象 | escape",
        help: "メジャーアクション: 全力移動・攻撃・特技・離脱・対象識別（【理知】判定、難易度10+対象の「識別難易度」、成功でデータを公表）・とどめ・逃走",
        help_en: "Major action: full move, attack, skill, disengage, identify (a 【理知】 check against 10 + the target's 識別難易度; success makes its data public), finish off, escape",
    },
    CommandHelp {
        usage: "/combat blockade 影 [霧…] | /combat blockade off 影",
        help: "エンゲージ封鎖（GM）: 離脱するキャラクターは、封鎖するエンゲージ中の敵すべてと【行動値】の対決に勝つ必要がある",
        help_en: "Blockade (GM): a disengaging character must win an action-value contest against every engaged enemy that blocks",
    },
    CommandHelp {
        usage: "/combat engage ミナ 影 | /combat free ミナ | /combat status | /combat end",
        help: "エンゲージ（敵どうし）を記録する・エンゲージから外す（GM）・戦闘の状況・戦闘終了（GM）",
        help_en: "Record an engagement between enemies; take someone out of engagements (GM); the combat's state; end the combat (GM)",
    },
    CommandHelp {
        usage: "/vs ロイ 反射 影 [コメント] | /vs react 影 反射 (GM) | /vs 影 反射+1 ロイ 反射 (GM)",
        help: "GMの未識別のNPCとの対決（AW-2）: 先に書いた側がアクション側。プレイヤーは自分のキャラクターの側を振って宣言し、NPCの能力値と修正はGMが選んで /vs react で振る（「判定値や修正値などは…GMが決定する」）。NPCの行動はGMが両側を振る。プレイヤーには自分の側の出目と勝敗だけ、NPCの側は非公開（GMには全部）",
        help_en: "A contest with the GM's unidentified NPC (AW-2): the first side named acts. A player rolls their own character's side to declare it; the GM chooses the NPC's ability and modifier and rolls its side with /vs react (judgement values and modifiers are the GM's). The GM rolls both sides of the NPC's own action. Players see their side's roll and who won, the NPC's side hidden (the GM sees all)",
    },
    CommandHelp {
        usage: "/npc show 影 | /npc hide 影 | /npc appear 影",
        help: "GMのNPCのデータ（シート、値を設定した行、{影.HP} のような参照、【行動値】）はプレイヤーに見えない。対象識別に成功すると公開（AW-3）。味方のNPCはGMが show で公開、hide で戻す。登場前（appear か戦闘への参加まで）のNPCはプレイヤーにとって存在しない名前と同じ",
        help_en: "The data of the GM's NPCs (sheet, the lines setting it, references like {影.HP}, action value) is hidden from players until an identification succeeds (AW-3); the GM shows an ally with show, hides again with hide. Before it appears (appear, or joining a combat) an NPC is, to players, a name never used",
    },
    CommandHelp {
        usage: "/supply lack ミナ 3 [shared]",
        help: "食事・睡眠の不足（AW-4、GM）: 【HP】【MP】を3D6ずつ減らす（sharedは1回の出目を両方に）",
        help_en: "Missed meals or sleep (AW-4, GM): HP and MP each drop by 3D6 (shared: one roll for both)",
    },
    CommandHelp {
        usage: "/supply give ミナ ロイ [ユキ…] 2",
        help: "供給（AW-4、2人以上）: 2D6回復。通常1〜2D6、契約中なら3〜4D6が望ましい（GMは範囲外も可、注意を表示）",
        help_en: "Supply (AW-4, two or more): each recovers 2D6; 1–2D6 normally, 3–4D6 in a contract recommended (the GM may go outside, with a note)",
    },
    CommandHelp {
        usage: "/supply heal ミナ HP 5 食事 | /supply heal ミナ MP -3",
        help: "特技・食事・睡眠による回復やダメージ（GMか本人）: 現在の【HP】【MP】を0〜最大値の範囲で増減",
        help_en: "Recovery by skills, food or sleep, or damage (GM or owner): current HP or MP changes within 0 and the maximum",
    },
    CommandHelp {
        usage: "/contract ミナ ロイ | /contract end ミナ ロイ 理由",
        help: "契約（AW-5）: ミナがマスター、ロイがサーヴァント。双方の同意で成立／令呪以外の破棄（GM）",
        help_en: "Contract (AW-5): the first named is the master, the second the servant, made when both agree; ending one other than by a command spell (GM)",
    },
    CommandHelp {
        usage: "/spell ミナ order|summon|dismiss|boost|dissolve [ロイ]",
        help: "令呪（1シナリオ3回、セッション終了で回復）: 命令の強要・召喚・退場・達成値+20・契約破棄",
        help_en: "Command spell (3 per scenario, refilled when the session ends): force an order, summon, dismiss, +20 to the achievement, dissolve the contract",
    },
    CommandHelp {
        usage: "/spells [ミナ]",
        help: "令呪の残り回数",
        help_en: "Command spells left",
    },
    CommandHelp {
        usage: "/key give ミナ 不審な人物 | /key take ミナ 不審な人物 | /key move ミナ ロイ 不審な人物",
        help: "イベントキー（AW-6、GM）: 与える・取り上げる・譲渡を認める",
        help_en: "Event keys (AW-6, GM): grant, take back, allow a transfer",
    },
    CommandHelp {
        usage: "/key require 不審な人物 | /key require off",
        help: "判定をキーを持つPCに限る（GM）: 持たないPCの判定は断られる／解除",
        help_en: "Restrict checks to the PCs holding a key (GM): others' checks are refused; lift it",
    },
    CommandHelp {
        usage: "/key who 不審な人物 | /keys [ミナ]",
        help: "キーを持つPC（GM）・自分のPCのキー",
        help_en: "The PCs holding a key (GM); your own PCs' keys",
    },
    CommandHelp {
        usage: "/af start 理知 100 2 [at=50:イベント] [spell] [solo=ミナ] [party=ミナ,ロイ] 目標…",
        help: "AF判定（AW-7、GM）: 使用能力値・難易度・ラウンド制限。party= で参加するPC（省略時は全PC）。開始時にパーティの成功確率を表示",
        help_en: "Another Focus check (AW-7, GM): ability, difficulty, round limit; party= names the PCs taking part (default: every PC); shows the party's chance of success when it starts",
    },
    CommandHelp {
        usage: "/af preset 1|2|3|4 [ミナ] [party=ミナ,ロイ]",
        help: "ルールの例: 1 説得（理知80/2R）2 探索（知覚100/3R、令呪で成功）3 潜入（反射120/5R）4 逃走（体力50/1R、1人で）",
        help_en: "The rulebook's examples: 1 persuade (理知 80 / 2 rounds), 2 search (知覚 100 / 3 rounds, a command spell succeeds), 3 infiltrate (反射 120 / 5 rounds), 4 escape (体力 50 / 1 round, alone)",
    },
    CommandHelp {
        usage: "/af declare ミナ 本のクチ 千枚皮",
        help: "特技の所持宣言: 1つにつき難易度-2（同じ行為で同じ特技は1回、GMが /af allow ミナ 特技 で再許可）",
        help_en: "Declare skills: each lowers the difficulty by 2 (a skill once per act; the GM allows it again with /af allow NAME SKILL)",
    },
    CommandHelp {
        usage: "AW+{理知}",
        help: "AF判定中のPCの判定は達成値を合計に加える（クリティカルは30、ファンブルはAF判定の失敗）",
        help_en: "During an AF check a PC's check adds its achievement to the total (a critical counts 30; a fumble fails the AF check)",
    },
    CommandHelp {
        usage: "/af order ミナ ロイ | /af skip ユキ",
        help: "【行動値】が同じPCの判定の順をGMが決める（AW-3「PC同士で【行動値】が同じなら、GMが決定する」）・不在のPCの判定をこのラウンドは見送る（GM）",
        help_en: "The GM's order for PCs with the same action value (AW-3: ties between PCs are the GM's); pass an absent PC for this round (GM)",
    },
    CommandHelp {
        usage: "/af cancel [特技名] | /af fail | /af next | /af spell ミナ | /af aid | /af status | /af end",
        help: "ファンブルの打ち消し（GM、直後のみ）・ファンブルの受け入れ（GM）・次のラウンドへ（GM）・令呪で成功・NPCの援助の1D6回復を振る（GM、例3の達成値100）・進行状況・中止（GM）。到達イベント at=50:unlock=理知 で能力値を追加、at=100:aid で援助",
        help_en: "Cancel a fumble (GM, straight away only); accept a fumble (GM); next round (GM); succeed by a command spell; roll an NPC's 1D6 HP/MP help (GM, example 3 at 100); progress; call off (GM). Thresholds at=50:unlock=理知 add an ability, at=100:aid an NPC's help",
    },
];

/// The character fields Another World's rules keep (issue 13): a hand-set value would
/// sit on the sheet beside the rules' own and be read by every member (a fake event key,
/// a contract nobody made). None is the GM's to set by hand either: each has the command
/// the GM uses, which keeps the rules' state (and an event key's secrecy) right.
const OWNED: &[OwnedField] = &[
    OwnedField {
        keys: &["令呪", "command spells", "command spell", "spells"],
        how: "令呪は /spell で使い、セッション終了時に3画に戻ります（AW-5）。残りは /spells で見られます",
        how_en: "command spells are spent with /spell and refill at the end of the session (AW-5); /spells shows what is left",
        gm_may_set: false,
    },
    OwnedField {
        keys: &[
            "サーヴァント",
            "マスター",
            "契約",
            "servant",
            "servants",
            "master",
            "contract",
        ],
        how: "契約はGMが /contract マスター サーヴァント で結び、/contract end か /spell … dissolve で解きます（AW-5）",
        how_en: "the GM makes a contract with /contract MASTER SERVANT; /contract end or /spell … dissolve ends it (AW-5)",
        gm_may_set: false,
    },
    OwnedField {
        keys: &[
            "イベントキー",
            "キー",
            "event key",
            "event keys",
            "key",
            "keys",
        ],
        how: "イベントキーはGMが /key give で与えます（AW-6。持ち主とGMだけが見られます）。/keys で見られます",
        how_en: "the GM grants event keys with /key give (AW-6; only their holder and the GM see them); /keys lists them",
        gm_may_set: false,
    },
    OwnedField {
        keys: &["戦闘移動", "全力移動", "移動", "combat move", "full move"],
        how: "移動は【行動値】から算出されます（AW-3: 戦闘移動＝【行動値】＋5m、全力移動はその2倍）。【行動値】を変えてください",
        how_en: "moves are derived from 行動値 (AW-3: combat move = 行動値 + 5 m, full move twice that); change 行動値 instead",
        gm_may_set: false,
    },
    OwnedField {
        keys: &[
            "現在の【HP】",
            "現在の【MP】",
            "現在HP",
            "現在MP",
            "current HP",
            "current MP",
        ],
        how: "現在の【HP】・【MP】は HP・MP の欄そのものです（/char set ミナ HP 12、/supply heal ミナ HP -3）。上限は HP上限・MP上限",
        how_en: "current HP and MP are the HP and MP fields themselves (/char set Mina HP 12, /supply heal Mina HP -3); the maximums are HP上限 and MP上限",
        gm_may_set: false,
    },
    OwnedField {
        keys: &["エンゲージ", "engagement", "engaged"],
        how: "エンゲージは戦闘中に /combat engage と /combat free、離脱は /combat major disengage で変わります（AW-3）",
        how_en: "engagements change in combat with /combat engage and /combat free, and by /combat major disengage (AW-3)",
        gm_may_set: false,
    },
];

impl TableRules for AwRules {
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
    ) -> Option<Result<Outcome<Event>, Text>> {
        // Full-width digits and signs read as ASCII (`/supply lack ユキ ３`), as dice
        // commands read them.
        let folded: Vec<String> = words.iter().map(|w| fold_digits(w)).collect();
        let words: Vec<&str> = folded.iter().map(String::as_str).collect();
        let words = words.as_slice();
        match words.first().copied()? {
            "combat" => combat::decide(table, state, &words[1..], dice),
            "supply" => supply::decide(table, state, &words[1..], dice),
            "contract" | "spell" | "spells" => contracts::decide(table, state, words),
            "key" | "keys" => keys::decide(table, state, words),
            "af" => af::decide(table, state, &words[1..], dice),
            "npc" => npc(table, state, &words[1..]),
            "vs" => match words.get(1).copied() {
                Some("react" | "リアクション") => {
                    combat::react(table, state, &words[2..], dice)
                }
                _ => combat::versus(table, state, &words[1..], dice),
            },
            _ => None,
        }
        .map(|decided| decided.map(|outcome| supply::hide_secret_npcs(table, state, outcome)))
    }

    fn field_value(
        &self,
        key: &str,
        value: &str,
        fields: &std::collections::BTreeMap<String, String>,
    ) -> Result<String, Text> {
        sheet::field_value(key, value, fields)
    }

    /// AW-4 (「【HP】と【MP】を…点回復する」: recovery stops at the maximum): the first wound
    /// set by hand (`/char set ミナ HP 5` on 12, no HP上限) keeps the value it lowers as
    /// the maximum, so the character can heal back to it (issue 13 play-through 4).
    fn implied_field(
        &self,
        key: &str,
        previous: Option<&str>,
        value: &str,
        fields: &std::collections::BTreeMap<String, String>,
    ) -> Option<(String, String)> {
        sheet::implied_max(key, previous, value, fields)
    }

    fn hidden_character(&self, table: &dyn TableView, state: &State, name: &str) -> Option<Text> {
        hidden_from_actor(table, state, name)
    }

    /// Issue 13: the GM's hidden NPC displaced by a player's namesake. Such an NPC was
    /// never met (else the player would know it), so it is in no combat; what is kept by
    /// name otherwise follows it: its contracts and command spells, keys, public/dead.
    fn rename_character(&self, state: &mut State, from: &str, to: &str) {
        let rename = |n: &mut String| {
            if n == from {
                *n = to.to_string();
            }
        };
        fn rekey<V>(map: &mut std::collections::BTreeMap<String, V>, from: &str, to: &str) {
            if let Some(v) = map.remove(from) {
                map.insert(to.to_string(), v);
            }
        }
        for set in [
            &mut state.public,
            &mut state.identified,
            &mut state.dead,
            &mut state.met,
        ] {
            if set.remove(from) {
                set.insert(to.to_string());
            }
        }
        let c = &mut state.contracts;
        rekey(&mut c.master_of, from, to);
        c.master_of.values_mut().for_each(rename);
        c.past = std::mem::take(&mut c.past)
            .into_iter()
            .map(|(mut a, mut b)| {
                rename(&mut a);
                rename(&mut b);
                (a, b)
            })
            .collect();
        rekey(&mut c.used, from, to);
        c.proposals = std::mem::take(&mut c.proposals)
            .into_iter()
            .map(|((mut a, mut b), who)| {
                rename(&mut a);
                rename(&mut b);
                ((a, b), who)
            })
            .collect();
        rekey(&mut c.boosts, from, to);
        c.boosts.values_mut().for_each(rename);
        rekey(&mut c.summoned, from, to);
        rekey(&mut c.dismissed, from, to);
        rekey(&mut state.keys.held, from, to);
    }

    fn hidden_name_shown(&self, state: &State, name: &str) -> bool {
        // A contract's public line names both sides, and AW-5 writes them on the sheet
        // (seed 「マスターとなったキャラクター、サーヴァントとして従えたキャラクターの名前を
        // 記入すること」): a contracted NPC is a name the players know (aw8 F2).
        let contracted = |(m, s): (&String, &String)| m == name || s == name;
        state.met.contains(name)
            || state
                .contracts
                .master_of
                .iter()
                .any(|(s, m)| contracted((m, s)))
            || state.contracts.past.iter().any(|(m, s)| contracted((m, s)))
            || state
                .combat
                .as_ref()
                .is_some_and(|c| c.combatants.iter().any(|x| x.name == name))
    }

    fn builds_on(&self, later: &Event, undone: &[Event]) -> Option<Text> {
        undone.iter().find_map(|u| builds_on(later, u))
    }

    /// Issue 13 play-through 4: the GM's `/void` of a line later lines rest on (an AF
    /// roll a later one counted on, a contract a spell was spent under) leaves them
    /// standing on nothing; the later line is voided first, as with `/undo`.
    fn builds_on_holds_void(&self) -> bool {
        true
    }

    fn owned_fields(&self) -> &'static [OwnedField] {
        OWNED
    }

    fn field_changes(&self, event: &Event) -> Vec<(String, String, String)> {
        match event {
            Event::Supply(e) => e.field_changes(),
            _ => Vec::new(),
        }
    }

    fn fold(&self, state: &mut State, actor: &str, event: &Event) {
        match event {
            Event::Combat(e) => {
                state.met.extend(named_to_all(e));
                // AW-3: an identified enemy's data, or one the GM showed, is public.
                match e {
                    combat::Event::Identified {
                        target,
                        success: true,
                        ..
                    } => {
                        state.public.insert(target.clone());
                        state.identified.insert(target.clone());
                    }
                    combat::Event::Opposed {
                        name,
                        answers: true,
                        ..
                    } => {
                        state.waiting.retain(|w| w.name != *name);
                    }
                    combat::Event::Declared {
                        name,
                        ability,
                        modifier,
                        against,
                        dice,
                        fumbled: false,
                        comment,
                        ..
                    } => {
                        state.waiting.push(combat::Waiting {
                            name: name.clone(),
                            ability: ability.clone(),
                            modifier: *modifier,
                            against: against.clone(),
                            dice: *dice,
                            comment: comment.clone(),
                        });
                    }
                    combat::Event::Published { name, public } => {
                        if *public {
                            state.public.insert(name.clone());
                        } else {
                            state.public.remove(name);
                        }
                    }
                    combat::Event::Left { name, why } if why == combat::DIED => {
                        state.dead.insert(name.clone());
                    }
                    _ => {}
                }
                combat::fold(&mut state.combat, e)
            }
            // AW-4: a supply change sets the character's HP and MP fields
            // (`field_changes`): nothing else to keep.
            Event::Supply(_) => {}
            Event::Contract(e) => contracts::fold(&mut state.contracts, actor, e),
            Event::Key(e) => keys::fold(&mut state.keys, e),
            Event::Af(e) => af::fold(&mut state.af, e),
        }
    }

    /// aw8 F4: an `/npc appear 蛇` the GM undoes (or voids) stays in every player's log,
    /// marked undone: they read the name, so 蛇 stays a name they know
    /// ([`TableRules::hidden_name_shown`]) — else a player could take it, and the NPC
    /// would come back as `蛇(GM)`, telling them a hidden NPC had that name. The same for
    /// every line that names an NPC to all (a contest, a combat's order, a contract);
    /// nothing else of the event stays.
    fn fold_undone(&self, state: &mut State, _actor: &str, event: &Event) {
        match event {
            Event::Combat(e) => state.met.extend(named_to_all(e)),
            Event::Contract(contracts::Event::Made {
                master, servant, ..
            }) => state.met.extend([master.clone(), servant.clone()]),
            _ => {}
        }
    }

    /// As [`AwRules::fold_undone`]: a voided line stays read.
    fn fold_voided(&self, state: &mut State, actor: &str, event: &Event) {
        self.fold_undone(state, actor, event)
    }

    fn describe(&self, event: &Event) -> Text {
        match event {
            Event::Combat(e) => combat::describe(e),
            Event::Supply(e) => supply::describe(e),
            Event::Contract(e) => contracts::describe(e),
            Event::Key(e) => keys::describe(e),
            Event::Af(e) => af::describe(e),
        }
    }

    fn audience(&self, event: &Event) -> Audience {
        match event {
            Event::Key(e) => keys::audience(e),
            // A change to the HP or MP of an NPC whose data is the GM's (AW-3).
            Event::Supply(e) if e.secret() => Audience::Gm,
            // A blockade contest with the numbers of such an NPC (players see it veiled).
            Event::Combat(combat::Event::Contested { gm_only: true, .. })
            | Event::Combat(combat::Event::Opposed { gm_only: true, .. }) => Audience::Gm,
            // The GM's tie order naming such an NPC (its 【行動値】 ties).
            Event::Combat(combat::Event::Ordered { gm_only: true, .. }) => Audience::Gm,
            _ => Audience::All,
        }
    }

    fn on_session_end(&self, state: &State) -> Vec<Event> {
        contracts::on_session_end(&state.contracts)
    }

    fn prepare_check(
        &self,
        table: &dyn TableView,
        state: &State,
        command: &str,
    ) -> Result<Prepared<Event>, Text> {
        // AW-6: the GM may restrict checks to the PCs holding a key.
        keys::check_allowed(table, &state.keys, command)?;
        // AW-7: a party PC's secret check that would count is refused while the AF check
        // runs: every achievement goes to the public total and a fumble fails the AF check
        // (seed: 「PC達が算出した「達成値」をすべて合計し」), so a secret roll would let a
        // player see a fumble and roll again in the open.
        af::refuse_secret(table, state, command)?;
        // AW-1 × AW-7: a bare judgement value that would count must be the sheet's.
        af::refuse_bare_value(table, state, command)?;
        // AW-5 × AW-7: an attempt at the AF check that does not count (out of order, a
        // second roll in the round) keeps a pending +20 for the servant's real turn.
        let uncounted_af_attempt =
            matches!(af::credit(table, state, command), af::Credit::NotCounted(_))
                && roll_subject(table)
                    .and_then(|s| s.ability)
                    .is_some_and(|ab| {
                        state
                            .af
                            .as_ref()
                            .is_some_and(|a| a.ability == ab || a.also.contains(&ab))
                    });
        let mut prepared = if uncounted_af_attempt {
            Prepared {
                command: command.to_string(),
                events: Vec::new(),
                note: None,
            }
        } else {
            contracts::prepare_check(table, &state.contracts, command)
        };
        // AW-1 「判定値とは、判定に使用する能力ボーナス」 of the PC acting: a player's roll
        // reading another member's character's value says whose it is (issue 13
        // play-through).
        if let Some(note) = others_value_note(table) {
            prepared.note = Some(match prepared.note {
                Some(n) => n.then(" / ", &note),
                None => note,
            });
        }
        // AW-1: GM modifiers beyond −3..+3 get a warning (issue 13, item 18).
        if let Some(warning) = modifier_warning(table) {
            prepared.note = Some(match prepared.note {
                Some(n) => n.then(" / ", &warning),
                None => warning,
            });
        }
        // AW-7: a party PC's roll that does not count says why (issue 13).
        if matches!(
            state.af.as_ref().map(|a| &a.status),
            Some(af::Status::Running)
        ) && let af::Credit::NotCounted(why) = af::credit(table, state, &prepared.command)
        {
            prepared.note = Some(match prepared.note {
                Some(n) => n.then(" / ", &why),
                None => why,
            });
        }
        Ok(prepared)
    }

    fn after_roll(
        &self,
        table: &dyn TableView,
        state: &State,
        command: &str,
        result: &RollResult,
    ) -> Vec<Event> {
        af::after_roll(table, state, command, result)
    }

    fn character_sheet(
        &self,
        table: &dyn TableView,
        state: &State,
        name: &str,
        viewer_is_gm: bool,
    ) -> Vec<Section> {
        let viewer_owns = table
            .character(name)
            .is_some_and(|(o, _)| o == table.actor());
        let mut sections = Vec::new();
        let mut section = |ja: &str, en: &str, fields: Vec<Field>| {
            if !fields.is_empty() {
                sections.push(Section {
                    title: Text::new(ja, en),
                    fields,
                });
            }
        };
        // AW-3's derived values, from the sheet's 【行動値】.
        let moves = match field(table, name, "行動値") {
            Ok(a) => vec![
                Field::derived(
                    Text::new("戦闘移動", "combat move"),
                    Value::Plain(format!("{}m", sheet::combat_move(a))),
                ),
                Field::derived(
                    Text::new("全力移動", "full move"),
                    Value::Plain(format!("{}m", sheet::full_move(a))),
                ),
            ],
            Err(_) => Vec::new(),
        };
        section("移動", "Movement", moves);
        // AW-3 とどめを刺す: the death is kept on the sheet (issue 13 play-through 4).
        if state.dead.contains(name) {
            section(
                "状態",
                "Condition",
                vec![Field::derived(
                    Text::new("死亡", "dead"),
                    Value::Plain(combat::DIED.to_string()),
                )],
            );
        }
        // AW-4: current HP and MP are the character's own HP and MP fields, shown with
        // the others (one value: `field_changes`).
        // AW-5.
        section(
            "契約・令呪",
            "Contracts and command spells",
            contracts::fields(&state.contracts, name),
        );
        // AW-6: a player sees only their own PC's keys.
        if viewer_is_gm || viewer_owns {
            section(
                "イベントキー",
                "Event keys",
                keys::fields(&state.keys, name),
            );
        }
        sections
    }

    fn table_sheet(
        &self,
        table: &dyn TableView,
        state: &State,
        _viewer_is_gm: bool,
    ) -> Vec<Section> {
        super::panel::sections(table, state)
    }
}

/// Whose check a roll is, and with which ability (issue 13: a command spell's +20 goes to
/// the servant's own check, an AF check counts the check of its ability, by the character
/// whose field it used).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Subject {
    /// The character rolling: the one whose field a `{CHARACTER.KEY}` reference reads, the
    /// roller's one character for `{KEY}`, a character named in the comment
    /// (`AW+5>=10 ミナ`), or the roller's only character.
    pub character: Option<String>,
    /// The ability used: the key of a reference (`AW+{理知}`) or an ability named in the
    /// comment (`AW+5 理知`, `AW+5 【理知】`).
    pub ability: Option<String>,
}

/// The `{…}` references in `text`: (character named, key).
fn references(text: &str) -> Vec<(Option<&str>, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(len) = rest[open..].find('}') else {
            break;
        };
        let inner = &rest[open + 1..open + len];
        out.push(match inner.split_once('.') {
            Some((name, key)) => (Some(name), key),
            None => (None, inner),
        });
        rest = &rest[open + len + 1..];
    }
    out
}

/// The ability a word names, if any (`理知`, `【理知】`).
fn ability_word(word: &str) -> Option<&'static str> {
    let w = word.trim_start_matches('【').trim_end_matches('】');
    super::sheet::ABILITIES.into_iter().find(|a| *a == w)
}

/// The actor's one character, if they own exactly one and are a player: a GM rolls for
/// many (enemies, servants) and names the one a check is for.
fn only_character(table: &dyn TableView) -> Option<String> {
    if table.actor_is_gm() {
        return None;
    }
    let mine: Vec<&str> = table
        .characters()
        .into_iter()
        .filter(|(_, owner)| *owner == table.actor())
        .map(|(n, _)| n)
        .collect();
    match mine.as_slice() {
        [one] => Some(one.to_string()),
        _ => None,
    }
}

/// The subject of `side`, one side of a roll as typed (`AW+{ミナ.理知}`), with `comment`
/// the words after the command.
/// Without `fallback` only a reference names the character (a contest's side: the
/// roller's only character could be either side).
pub fn subject_of(table: &dyn TableView, side: &str, comment: &str, fallback: bool) -> Subject {
    let mut s = Subject::default();
    for (name, key) in references(side) {
        let (character, key) = match name {
            Some(n) if table.character(n).is_some() => (Some(n.to_string()), key),
            // `{HP.max}`: the roller's own character's field.
            Some(_) | None => (only_character(table), key),
        };
        if s.character.is_none() {
            s.character = character;
        }
        if s.ability.is_none() {
            s.ability = ability_word(key).map(str::to_string);
        }
    }
    for word in comment.split_whitespace() {
        if s.character.is_none() && fallback && table.character(word).is_some() {
            s.character = Some(word.to_string());
        }
        if s.ability.is_none() {
            s.ability = ability_word(word).map(str::to_string);
        }
    }
    if s.character.is_none() && fallback {
        s.character = only_character(table);
    }
    s
}

/// The roll being prepared or followed up, as typed, split into its command's sides (one,
/// or two for a contest `A VS B`) and its comment.
pub fn typed_sides(table: &dyn TableView) -> Option<(Vec<String>, String)> {
    Some(sides(table.typed_line()?))
}

/// A roll line split into its command's sides (one, or two for a contest) and comment.
pub fn sides(line: &str) -> (Vec<String>, String) {
    let line = line.trim();
    let joined = crate::GameSystem::rewrite_line(&super::AnotherWorld, line)
        .unwrap_or_else(|| line.to_string());
    let (command, comment) = match joined.split_once(char::is_whitespace) {
        Some((c, rest)) => (c.to_string(), rest.to_string()),
        None => (joined.clone(), String::new()),
    };
    let upper = command.to_ascii_uppercase();
    let sides = match upper.find("VS") {
        Some(at) => vec![command[..at].to_string(), command[at + 2..].to_string()],
        None => vec![command],
    };
    (sides, comment)
}

/// The subject of a single check as typed (not a contest), if a roll is being made.
pub fn roll_subject(table: &dyn TableView) -> Option<Subject> {
    let (sides, comment) = typed_sides(table)?;
    match sides.as_slice() {
        [one] => Some(subject_of(table, one, &comment, true)),
        _ => None,
    }
}

/// The modifiers of one check side as typed: the number terms after the judgement value
/// (the first term: `{理知}` or a number), before the difficulty and options.
/// `AW+{理知}+4-1>=10` → `Some(3)`; `AW+4>=10` → `None` (a judgement value alone).
fn typed_modifiers(side: &str) -> Option<i64> {
    let upper = side.trim().to_ascii_uppercase();
    let body = upper
        .strip_prefix('S')
        .filter(|b| b.starts_with("AW") || b.starts_with("2D6"))
        .unwrap_or(&upper);
    let body = body
        .strip_prefix("AW")
        .or_else(|| body.strip_prefix("2D6"))?;
    let end = body
        .find(['>', '<', '=', '@', '#', '['])
        .unwrap_or(body.len());
    let mut rest = &body[..end];
    // Signed terms.
    let mut terms: Vec<(i64, &str)> = Vec::new();
    while let Some(c) = rest.chars().next() {
        let sign = match c {
            '+' => 1,
            '-' => -1,
            _ => return None,
        };
        rest = &rest[1..];
        let len = if rest.starts_with('{') {
            rest.find('}').map(|i| i + 1)?
        } else {
            rest.find(['+', '-']).unwrap_or(rest.len())
        };
        terms.push((sign, &rest[..len]));
        rest = &rest[len..];
    }
    let mut sum: Option<i64> = None;
    for (sign, term) in terms.iter().skip(1) {
        if let Ok(n) = term.parse::<i64>() {
            sum = Some(sum.unwrap_or(0).saturating_add(sign.saturating_mul(n)));
        }
    }
    sum
}

/// AW-1 (seed: 「修正は−3〜+3程度の範囲で行なうこと。この範囲を超えてしまうような修正を
/// 行なうと、ダイスひとつ分の期待値(3.5である)を上回ってしまい…」): a warning, shown
/// with the roll, when a check's typed modifiers add up beyond −3..+3. The roll stands: the
/// seed asks the GM to keep to the range, it does not forbid leaving it.
fn modifier_warning(table: &dyn TableView) -> Option<Text> {
    let (sides, _) = typed_sides(table)?;
    let total = sides
        .iter()
        .filter_map(|s| typed_modifiers(s))
        .find(|m| !(-3..=3).contains(m))?;
    let m = taku_dice::system_command::format_modifier(total);
    Some(Text::new(
        format!(
            "注意: 修正{m}は目安の−3〜+3を超えています（ダイスひとつ分の期待値3.5を上回る、AW-1）"
        ),
        format!(
            "note: the modifier {m} is beyond the −3..+3 guide (more than one die's expectation of 3.5, AW-1)"
        ),
    ))
}

/// A note when a player's roll reads a field of a character another member owns
/// (`AW+{ロイ.理知}` by alice): the judgement value is the acting PC's ability (AW-1).
fn others_value_note(table: &dyn TableView) -> Option<Text> {
    if table.actor_is_gm() {
        return None;
    }
    let line = table.typed_line()?;
    let (name, owner) = references(line).into_iter().find_map(|(name, _)| {
        let name = name?;
        let (owner, _) = table.character(name)?;
        (owner != table.actor()).then(|| (name.to_string(), owner.to_string()))
    })?;
    Some(Text::new(
        format!("注意: {name}の値（{owner}のキャラクター）で判定しています"),
        format!("note: this roll reads {name}'s value ({owner}'s character)"),
    ))
}

/// Full-width digits, plus and minus signs as ASCII; everything else as it is.
fn fold_digits(word: &str) -> String {
    word.chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            '＋' => '+',
            '－' | '−' => '-',
            c => c,
        })
        .collect()
}

/// For `/undo` ([`TableRules::builds_on`]): how `later`, a standing event after the line
/// being undone, rests on `undone`, one of that line's events. A command spell's +20 used
/// by the servant's check (AW-5 4), a summon whose round the combat moved on from or whose
/// servant acted since (AW-5 2, AW-3), a proposal the other side agreed to and a contract
/// used since (AW-5), an AF check's declaration that later rolls were counted against and
/// its start (AW-7), a combat's start (AW-3): taking back the earlier line would leave the
/// later one standing on nothing (a spell refunded after its +20 made a check succeed).
fn builds_on(later: &Event, undone: &Event) -> Option<Text> {
    use super::af::Event as A;
    use super::combat::Event as Cb;
    use super::contracts::{Event as C, Use};
    use super::keys::Event as K;
    let t = |ja: String, en: String| Some(Text::new(ja, en));
    match (undone, later) {
        (
            Event::Contract(C::Spent {
                purpose: Use::Boost,
                servant: Some(s),
                master,
                ..
            }),
            Event::Contract(C::BoostApplied { servant }),
        ) if s == servant => t(
            format!("{s}の判定が{master}の令呪の+20を使いました"),
            format!("{s}'s check used {master}'s command spell's +20"),
        ),
        (
            Event::Contract(C::Spent {
                purpose: Use::Summon,
                servant: Some(s),
                ..
            }),
            Event::Contract(C::Spent {
                purpose: Use::Dismiss,
                servant: Some(d),
                ..
            }),
        ) if s == d => t(
            format!("召喚された{s}を令呪で退場させました"),
            format!("the summoned {s} was dismissed by a command spell"),
        ),
        // AW-2 (attack6 A6-6): the GM's reaction rests on the contest it answers.
        (
            Event::Combat(Cb::Declared { name, against, .. }),
            Event::Combat(Cb::Opposed {
                name: n,
                answers: true,
                ..
            }),
        ) if name == n => t(
            format!("GMがこの対決（{name} VS {against}）のリアクション側を振りました"),
            format!("the GM rolled the reaction side of this contest ({name} VS {against})"),
        ),
        (Event::Combat(Cb::Cleanup { early: Some(_) }), Event::Combat(Cb::Round { round })) => t(
            format!("令呪の召喚で始まったクリンナップから戦闘はラウンド{round}へ進みました"),
            format!("the combat moved on to round {round} from the cleanup the summon began"),
        ),
        (
            Event::Combat(Cb::Joined { combatant }),
            Event::Combat(Cb::Turn { actor: name, .. } | Cb::Action { name, .. }),
        ) if combatant.name == *name => t(
            format!("戦闘に加わった{name}が行動しました"),
            format!("{name}, who joined the combat, has acted"),
        ),
        (
            Event::Contract(C::Proposed { master, servant }),
            Event::Contract(C::Made {
                master: m,
                servant: s,
                ..
            }),
        ) if master == m && servant == s => t(
            format!("この申し出に相手が同意して{master}と{servant}の契約が成立しました"),
            format!("the other side agreed, making the contract of {master} and {servant}"),
        ),
        (
            Event::Contract(C::Made {
                master, servant, ..
            }),
            Event::Contract(
                C::Spent {
                    master: m,
                    servant: Some(s),
                    ..
                }
                | C::Dissolved {
                    master: m,
                    servant: s,
                    ..
                },
            ),
        ) if master == m && servant == s => t(
            format!("{master}と{servant}の契約がその後使われました"),
            format!("the contract of {master} and {servant} was used since"),
        ),
        (
            Event::Contract(C::Dissolved { servant, .. }),
            Event::Contract(C::Made {
                servant: s, master, ..
            }),
        ) if servant == s => t(
            format!("契約が解かれた{servant}は{master}と新たに契約しました"),
            format!("{servant}, freed by it, contracted with {master} since"),
        ),
        (
            Event::Af(A::Declared { character, .. }),
            Event::Af(
                A::Achieved { .. }
                | A::Fumbled { .. }
                | A::FumbleCancelled { .. }
                | A::RoundEnded { .. }
                | A::Succeeded { .. }
                | A::Failed { .. },
            ),
        ) => t(
            format!("{character}の特技宣言で下がった難易度に対して、その後の判定が数えられました"),
            format!(
                "later checks were counted against the difficulty {character}'s declaration lowered"
            ),
        ),
        // Issue 13 play-through 4: a counted roll, a fumble or a threshold that later AF
        // steps went on from (a later roll counted on the total it left, the failure a
        // fumble caused, the NPC aid a threshold brought: 「達成値100をクリアすると、NPCが
        // 援助をしてくれる」) stays until those are voided; the later events record totals,
        // so taking the earlier out alone would leave them standing on nothing.
        (
            Event::Af(
                A::Achieved { .. }
                | A::Fumbled { .. }
                | A::FumbleCancelled { .. }
                | A::Threshold { .. },
            ),
            Event::Af(
                A::Achieved { .. }
                | A::Fumbled { .. }
                | A::FumbleCancelled { .. }
                | A::Threshold { .. }
                | A::Aided
                | A::RoundEnded { .. }
                | A::Succeeded { .. }
                | A::Failed { .. },
            ),
        ) => t(
            "AF判定はその後進みました（後の判定、ラウンドの終わり、成功・失敗、NPCの援助）".into(),
            "the AF check went on since (a later check, the round's end, its success or failure, the NPC aid)".into(),
        ),
        (Event::Af(A::Started { .. }), Event::Af(e)) if !matches!(e, A::Started { .. }) => t(
            "このAF判定はその後進みました".into(),
            "this AF check went on since".into(),
        ),
        // AW-3 「もし、すべてのキャラクターが[行動済]であれば、クリンナッププロセスに移る」:
        // a main process, a round's step, that the round moved on from (the next character's
        // main process, the cleanup, the next round) stays; undoing it would leave the round
        // past a character still 未行動.
        (
            Event::Combat(
                Cb::Turn { .. }
                | Cb::Done { .. }
                | Cb::Cleanup { .. }
                | Cb::Round { .. }
                | Cb::Left { .. }
                | Cb::Joined { .. },
            ),
            Event::Combat(Cb::Turn { .. } | Cb::Cleanup { .. } | Cb::Round { .. }),
        ) => t(
            "戦闘のラウンドはその後進みました（次のメインプロセスかクリンナップ）".into(),
            "the combat's round moved on since (the next main process or the cleanup)".into(),
        ),
        // Issue 13 play-through 5: an action of a combat that has ended since belongs to a
        // finished round (「全員が行動済」 → クリンナップ, then the end).
        (Event::Combat(e), Event::Combat(Cb::Ended))
            if !matches!(
                e,
                Cb::Published { .. } | Cb::Opposed { .. } | Cb::Declared { .. } | Cb::Ended
            ) =>
        {
            t(
                "この戦闘はその後終わりました".into(),
                "this combat has ended since".into(),
            )
        }
        // AW-5 「セッション終了時に最大値まで回復する」: a command spell spent from the
        // refill rests on the session's end (issue 13 play-through 5).
        (Event::Contract(C::Refilled { master }), Event::Contract(C::Spent { master: m, .. }))
            if master == m =>
        {
            t(
                format!("{master}の令呪はセッション終了で回復した分から使われました"),
                format!("{master}'s command spells were spent from the session end's refill"),
            )
        }
        // AW-6: a key moved on or taken back since it was given (issue 13 play-through 5).
        (
            Event::Key(
                K::Granted {
                    character: holder,
                    key,
                }
                | K::Transferred {
                    to: holder, key, ..
                },
            ),
            Event::Key(
                K::Transferred {
                    from: next,
                    key: k,
                    ..
                }
                | K::Revoked {
                    character: next,
                    key: k,
                },
            ),
        ) if holder == next && key == k => t(
            format!("{holder}のイベントキー「{key}」はその後動きました"),
            format!("{holder}'s event key '{key}' has moved since"),
        ),
        (Event::Combat(Cb::Started { .. }), Event::Combat(e))
            if !matches!(
                e,
                Cb::Started { .. } | Cb::Published { .. } | Cb::Opposed { .. } | Cb::Declared { .. }
            ) =>
        {
            t(
                "この戦闘はその後進みました".into(),
                "this combat went on since".into(),
            )
        }
        _ => None,
    }
}
