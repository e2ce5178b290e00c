//! The Lord of the Rings Roleplaying Game (Decipher, CODA system), rules digest
//! `lotr-coda.md` (LR-0 to LR-18).
//!
//! Tests explode on a double six and are judged by degree ([`check`], LR-9 to LR-11);
//! their exact odds, explosion chains and re-tested ties included, are closed forms
//! ([`odds`]). Characters are created and derived from a sheet ([`character`], [`sheet`],
//! LR-1 to LR-3, LR-8), take wounds and weariness, spend Courage and resist corruption at
//! a table ([`rules`], LR-4 to LR-7), under the GM's settings and editable tables
//! ([`settings`], the digest's "our readings" and "Data the seed lacks").
//!
//! Combat, battles and advancement (LR-12 to LR-17) are built as their own modules and
//! wired into [`rules`]'s command dispatch.

pub mod advance;
pub mod battle;
pub mod battle_odds;
pub mod character;
pub mod check;
pub mod coda;
pub mod combat;
pub mod create;
pub mod fields;
pub mod hazards;
pub mod odds;
pub mod rules;
pub mod settings;
pub mod sheet;
pub mod table;

use crate::GameSystem;
use taku_dice::Roller;
use taku_dice::command::{Eval, first_token, join_versus};

/// The Lord of the Rings RPG (CODA).
pub struct LotrCoda;

impl GameSystem for LotrCoda {
    fn id(&self) -> &'static str {
        "LotrCoda"
    }
    fn name(&self) -> &'static str {
        "ロード・オブ・ザ・リング RPG（CODA）"
    }
    fn name_en(&self) -> &'static str {
        "The Lord of the Rings RPG (CODA)"
    }
    fn sort_key(&self) -> &'static str {
        "ろおとおふさりんくRPG"
    }
    fn help(&self) -> taku_dice::Text {
        taku_dice::Text::new(HELP, HELP_EN)
    }
    fn prefixes(&self) -> &'static [&'static str] {
        &["LOTRG", "LOTR"]
    }
    /// `LOTR+5 VS LOTR+3` is one command written with spaces (LR-11).
    fn rewrite_line(&self, raw: &str) -> Option<String> {
        join_versus(raw)
    }
    fn table_rules(&self) -> Option<&dyn crate::DynRules> {
        Some(&rules::LotrRules)
    }
    fn eval_own(&self, command: &str, roller: &mut Roller<'_>) -> Eval {
        match check::parse(command)? {
            Some(t) => Ok(Some(check::roll(&t, roller)?)),
            None => Ok(None),
        }
    }
    fn odds(
        &self,
        input: &str,
        limits: taku_dice::odds::Limits,
    ) -> Option<Result<taku_dice::odds::Odds, taku_dice::odds::OddsError>> {
        let test = parse_line(input)?;
        Some(odds::odds(&test, limits))
    }
}

/// The test the line `line` makes, if it is one of the system's (`SLOTR+3>=10 登攀` →
/// the test), full-width folded as a table reads it.
pub fn parse_line(line: &str) -> Option<check::Test> {
    let folded = taku_dice::normalize::fold(line).text;
    let joined = join_versus(&folded).unwrap_or(folded);
    let (token, _) = first_token(&joined);
    let upper = token.to_ascii_uppercase();
    let command = match upper.strip_prefix('S') {
        Some(c) if c.starts_with("LOTR") => c,
        _ => &upper,
    };
    check::parse(command).ok().flatten()
}

const HELP: &str = "\
ロード・オブ・ザ・リング RPG（CODA）: 2D6+修正の判定。6ゾロで1D6を追加し、6が出る限り追加を続ける（LR-9）
■判定（LR-9）
  LOTR+7>=15       技能ランク+能力修正+その他=7、目標値15。差（達成値−目標値）で成功度と時間を表示
                   差 −11以下 Disastrous Failure / −10〜−6 Complete Failure / −5〜−1 Failure /
                   0 Marginal Success / +1〜+5 Complete Success（時間×0.75）/ +6〜+10 Superior（×0.5）/ +11以上 Extraordinary（×0.25）
  LOTR+7           達成値だけ
  LOTR+2>=12       反応値（Stamina など）や能力修正だけの判定も同じ形（テーブルでは LOTR+{Willpower}>=12）
■対決判定（LR-11）
  LOTR+5 VS LOTR+3        高い方の勝ち、差で成功度。同値は再判定
  LOTR+5 VS LOTR+3#DODGE  攻撃 対 回避: 同値は命中
  LOTR+5 VS LOTR+3#PARRY  攻撃 対 受け流し・盾受け: 同値は受け流し
  LOTR+5 VS 14            数値は目標値（同値は Marginal Success）
■グループ判定（LR-10）
  LOTRG+5>=15[+2,+3,0]    リーダー+5、補助3人（各自の修正）は目標値−5で判定し、成功度でボーナス
                          （失敗・Marginal +0、Complete +1、Superior +2、Extraordinary +3）
  LOTRG+5>=15[+2,+3]#MP   GMオプション group_bonus = marginal_plus_one（Marginal も +1）
■ダメージ（爆発しない。LR-9）
  2D6+4            武器ダメージ（6ゾロでも追加なし）
  1D6/2R           1/2D6（端数は四捨五入: 1,1,2,2,3,3。LR-0）
■正確な確率（taku prob --system LotrCoda）
  'LOTR+7>=15' など各判定の成功度の確率。集団戦闘（LR-15）: --battle 戦況(-3〜+3) --rounds N [--siegecraft PC,敵]
  で N ラウンド以内の Victory / Defeat の確率
  ダイスボットの共通コマンドも使えます。";

const HELP_EN: &str = "\
The Lord of the Rings RPG (CODA): 2d6 + modifier tests; a double six adds a d6, and another while it shows 6 (LR-9)
■ Tests (LR-9)
  LOTR+7>=15       skill ranks + attribute modifier + other = 7 against TN 15; the degree by margin (total − TN) and its time factor
                   margin ≤ −11 Disastrous Failure / −10..−6 Complete Failure / −5..−1 Failure /
                   0 Marginal Success / +1..+5 Complete Success (time ×0.75) / +6..+10 Superior (×0.5) / ≥ +11 Extraordinary (×0.25)
  LOTR+7           the total alone
  LOTR+2>=12       reaction (Stamina…) and attribute tests have the same form (at a table: LOTR+{Willpower}>=12)
■ Opposed tests (LR-11)
  LOTR+5 VS LOTR+3        the higher total wins, the margin gives the degree; a tie is re-tested
  LOTR+5 VS LOTR+3#DODGE  attack vs dodge: a tie hits
  LOTR+5 VS LOTR+3#PARRY  attack vs parry/block: a tie is parried
  LOTR+5 VS 14            a number is a TN (a tie is a Marginal Success)
■ Group tests (LR-10)
  LOTRG+5>=15[+2,+3,0]    leader +5; three helpers (their own modifiers) test at TN − 5 and add a bonus by degree
                          (failure and Marginal +0, Complete +1, Superior +2, Extraordinary +3)
  LOTRG+5>=15[+2,+3]#MP   GM option group_bonus = marginal_plus_one (Marginal +1 too)
■ Damage (never explodes, LR-9)
  2D6+4            weapon damage (a double six adds nothing)
  1D6/2R           half a d6 (rounded half up: 1,1,2,2,3,3; LR-0)
■ Exact odds (taku prob --system LotrCoda)
  every test's degrees ('LOTR+7>=15'…); a battle (LR-15): --battle STATE(-3..+3) --rounds N [--siegecraft PC,FOE]
  gives the chance of Victory / Defeat within N rounds
  DiceBot's common dice commands also work.";
