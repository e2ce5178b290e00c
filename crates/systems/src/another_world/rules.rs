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
use crate::table_rules::{Audience, CommandHelp, Outcome, Prepared, TableRules, TableView};
use crate::view::{Field, Section, Value};
use serde::{Deserialize, Serialize};
use taku_dice::{RollResult, Roller, Text};

/// What Another World tracks at a table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct State {
    /// AW-3: the combat in progress.
    pub combat: Option<combat::Combat>,
    /// AW-4: current HP and MP of characters whose vitals changed.
    pub vitals: supply::Vitals,
    /// AW-5: contracts, their history, command spells.
    pub contracts: contracts::Contracts,
    /// AW-6: who holds which event key (GM-only as a whole).
    pub keys: keys::Keys,
    /// AW-7: the AF check in progress or last finished.
    pub af: Option<af::AfCheck>,
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

/// Shorthand for a part's decision.
pub type Decided = Option<Result<Outcome<Event>, String>>;

/// One event, no reply.
pub fn one(e: Event) -> Result<Outcome<Event>, String> {
    Ok(Outcome {
        events: vec![e],
        reply: None,
    })
}

/// A private reply, no event.
pub fn reply(text: String) -> Result<Outcome<Event>, String> {
    Ok(Outcome {
        events: Vec::new(),
        reply: Some(crate::untranslated(text)),
    })
}

/// A refusal unless the actor is a GM.
pub fn gm_only(table: &dyn TableView, what: &str) -> Result<(), String> {
    if table.actor_is_gm() {
        Ok(())
    } else {
        Err(format!("only the GM can {what}"))
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
pub fn kind(table: &dyn TableView, name: &str) -> Result<Kind, String> {
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
pub fn no_character(name: &str) -> String {
    format!("no character named '{name}'; create it with /char new {name}")
}

/// A whole-number field of a character (an ability, 行動値, HP…); `Err` says which is
/// missing or not a number and how to set it.
pub fn field(table: &dyn TableView, name: &str, key: &str) -> Result<i64, String> {
    let Some((_, fields)) = table.character(name) else {
        return Err(no_character(name));
    };
    let Some(value) = fields.get(key) else {
        return Err(format!(
            "{name} has no 【{key}】; set it with /char set {name} {key} N"
        ));
    };
    value
        .trim()
        .parse()
        .map_err(|_| format!("{name}'s 【{key}】 is '{value}', not a whole number"))
}

/// Whether the actor may act for character `name`: its owner or a GM.
pub fn may_act_for(table: &dyn TableView, name: &str) -> Result<(), String> {
    match table.character(name) {
        None => Err(no_character(name)),
        Some((owner, _)) if owner == table.actor() || table.actor_is_gm() => Ok(()),
        Some((owner, _)) => Err(format!(
            "{name} belongs to {owner}; only they or the GM can act for it"
        )),
    }
}

/// Another World's table rules.
pub struct AwRules;

/// Every command, for `/help`, in rulebook order.
const COMMANDS: &[CommandHelp] = &[
    CommandHelp {
        usage: "/combat start ミナ ロイ 影 | /combat add 名前 | /combat remove 名前",
        help: "戦闘開始（AW-3、GM）。【行動値】【反射】【知覚】【幸運】はキャラクターの値",
        help_en: "戦闘開始（AW-3、GM）。【行動値】【反射】【知覚】【幸運】はキャラクターの値",
    },
    CommandHelp {
        usage: "/combat next",
        help: "次のプロセスへ（セットアップ→イニシアチブ→メイン→…→クリンナップ、GM）",
        help_en: "次のプロセスへ（セットアップ→イニシアチブ→メイン→…→クリンナップ、GM）",
    },
    CommandHelp {
        usage: "/combat order ミナ ロイ",
        help: "同値のキャラクターの行動順をGMが決める",
        help_en: "同値のキャラクターの行動順をGMが決める",
    },
    CommandHelp {
        usage: "/combat minor move | /combat minor skill 特技名",
        help: "マイナーアクション: 戦闘移動（【行動値】+5m、エンゲージ中は不可）・特技",
        help_en: "マイナーアクション: 戦闘移動（【行動値】+5m、エンゲージ中は不可）・特技",
    },
    CommandHelp {
        usage: "/combat major move | attack 対象 | skill 特技名 | disengage | identify 対象 | finish 対象 | escape",
        help: "メジャーアクション: 全力移動・攻撃・特技・離脱・対象識別・とどめ・逃走",
        help_en: "メジャーアクション: 全力移動・攻撃・特技・離脱・対象識別・とどめ・逃走",
    },
    CommandHelp {
        usage: "/combat engage ミナ 影 | /combat end",
        help: "エンゲージを記録する・戦闘終了（GM）",
        help_en: "エンゲージを記録する・戦闘終了（GM）",
    },
    CommandHelp {
        usage: "/supply lack ミナ 3 [shared]",
        help: "食事・睡眠の不足（AW-4、GM）: 【HP】【MP】を3D6ずつ減らす（sharedは1回の出目を両方に）",
        help_en: "食事・睡眠の不足（AW-4、GM）: 【HP】【MP】を3D6ずつ減らす（sharedは1回の出目を両方に）",
    },
    CommandHelp {
        usage: "/supply give ミナ ロイ 2",
        help: "供給（AW-4）: 2D6回復。通常1〜2D6、契約中の2人なら3〜4D6",
        help_en: "供給（AW-4）: 2D6回復。通常1〜2D6、契約中の2人なら3〜4D6",
    },
    CommandHelp {
        usage: "/contract ミナ ロイ | /contract end ミナ ロイ 理由",
        help: "契約（AW-5）: ミナがマスター、ロイがサーヴァント。双方の同意で成立／令呪以外の破棄（GM）",
        help_en: "契約（AW-5）: ミナがマスター、ロイがサーヴァント。双方の同意で成立／令呪以外の破棄（GM）",
    },
    CommandHelp {
        usage: "/spell ミナ order|summon|dismiss|boost|dissolve [ロイ]",
        help: "令呪（1シナリオ3回、セッション終了で回復）: 命令の強要・召喚・退場・達成値+20・契約破棄",
        help_en: "令呪（1シナリオ3回、セッション終了で回復）: 命令の強要・召喚・退場・達成値+20・契約破棄",
    },
    CommandHelp {
        usage: "/spells [ミナ]",
        help: "令呪の残り回数",
        help_en: "令呪の残り回数",
    },
    CommandHelp {
        usage: "/key give ミナ 不審な人物 | /key take ミナ 不審な人物 | /key move ミナ ロイ 不審な人物",
        help: "イベントキー（AW-6、GM）: 与える・取り上げる・譲渡を認める",
        help_en: "イベントキー（AW-6、GM）: 与える・取り上げる・譲渡を認める",
    },
    CommandHelp {
        usage: "/key who 不審な人物 | /keys [ミナ]",
        help: "キーを持つPC（GM）・自分のPCのキー",
        help_en: "キーを持つPC（GM）・自分のPCのキー",
    },
    CommandHelp {
        usage: "/af start 理知 100 2 [at=50:イベント] [spell] [solo=ミナ] 目標…",
        help: "AF判定（AW-7、GM）: 使用能力値・難易度・ラウンド制限。開始時にパーティの成功確率を表示",
        help_en: "AF判定（AW-7、GM）: 使用能力値・難易度・ラウンド制限。開始時にパーティの成功確率を表示",
    },
    CommandHelp {
        usage: "/af preset 1|2|3|4 [ミナ]",
        help: "ルールの例: 1 説得（理知80/2R）2 探索（知覚100/3R、令呪で成功）3 潜入（反射120/5R）4 逃走（体力50/1R、1人で）",
        help_en: "ルールの例: 1 説得（理知80/2R）2 探索（知覚100/3R、令呪で成功）3 潜入（反射120/5R）4 逃走（体力50/1R、1人で）",
    },
    CommandHelp {
        usage: "/af declare ミナ 本のクチ 千枚皮",
        help: "特技の所持宣言: 1つにつき難易度-2（同じ行為で同じ特技は1回、GMが /af allow ミナ 特技 で再許可）",
        help_en: "特技の所持宣言: 1つにつき難易度-2（同じ行為で同じ特技は1回、GMが /af allow ミナ 特技 で再許可）",
    },
    CommandHelp {
        usage: "AW+{理知}",
        help: "AF判定中のPCの判定は達成値を合計に加える（クリティカルは30、ファンブルはAF判定の失敗）",
        help_en: "AF判定中のPCの判定は達成値を合計に加える（クリティカルは30、ファンブルはAF判定の失敗）",
    },
    CommandHelp {
        usage: "/af cancel | /af next | /af spell ミナ | /af status | /af end",
        help: "ファンブルの打ち消し（GM、直後のみ）・次のラウンドへ（GM）・令呪で成功・進行状況・中止（GM）",
        help_en: "ファンブルの打ち消し（GM、直後のみ）・次のラウンドへ（GM）・令呪で成功・進行状況・中止（GM）",
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
        match words.first().copied()? {
            "combat" => combat::decide(table, state, &words[1..]),
            "supply" => supply::decide(table, state, &words[1..], dice),
            "contract" | "spell" | "spells" => contracts::decide(table, state, words),
            "key" | "keys" => keys::decide(table, state, words),
            "af" => af::decide(table, state, &words[1..]),
            _ => None,
        }
        .map(|r| r.map_err(crate::untranslated))
    }

    fn fold(&self, state: &mut State, actor: &str, event: &Event) {
        match event {
            Event::Combat(e) => combat::fold(&mut state.combat, e),
            Event::Supply(e) => supply::fold(&mut state.vitals, e),
            Event::Contract(e) => contracts::fold(&mut state.contracts, actor, e),
            Event::Key(e) => keys::fold(&mut state.keys, e),
            Event::Af(e) => af::fold(&mut state.af, e),
        }
    }

    fn describe(&self, event: &Event) -> Text {
        crate::untranslated(match event {
            Event::Combat(e) => combat::describe(e),
            Event::Supply(e) => supply::describe(e),
            Event::Contract(e) => contracts::describe(e),
            Event::Key(e) => keys::describe(e),
            Event::Af(e) => af::describe(e),
        })
    }

    fn audience(&self, event: &Event) -> Audience {
        match event {
            Event::Key(e) => keys::audience(e),
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
        Ok(contracts::prepare_check(table, &state.contracts, command))
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
        let mut fields = Vec::new();
        // AW-3's derived values, from the sheet's 【行動値】.
        if let Ok(a) = field(table, name, "行動値") {
            fields.push(Field::derived(
                Text::new("戦闘移動", "combat move"),
                Value::Plain(format!("{}m", sheet::combat_move(a))),
            ));
            fields.push(Field::derived(
                Text::new("全力移動", "full move"),
                Value::Plain(format!("{}m", sheet::full_move(a))),
            ));
        }
        let lines: Vec<String> = [
            supply::summary(table, &state.vitals, name),
            contracts::summary(&state.contracts, name),
            // AW-6: a player sees only their own PC's keys.
            (viewer_is_gm || viewer_owns)
                .then(|| keys::summary(&state.keys, name))
                .flatten(),
        ]
        .into_iter()
        .flatten()
        .collect();
        for line in lines {
            fields.push(Field::derived(
                Text::new("状況", "status"),
                Value::Text(crate::untranslated(line.trim().to_string())),
            ));
        }
        if fields.is_empty() {
            return Vec::new();
        }
        vec![Section {
            title: Text::new("Another World", "Another World"),
            fields,
        }]
    }
}
