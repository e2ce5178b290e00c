//! Another World SRS, 3rd edition (rules digest `another-world.md`, AW-1 to AW-7).
//!
//! Checks are SRS checks (spec §5.2, [`crate::srs`]) with the prefix `AW` standing for
//! `2D6` (AW-1); contests pit an action side against a reaction side (AW-2, [`contest`]).

pub mod af;
pub mod af_odds;
pub mod combat;
pub mod contest;
pub mod contracts;
pub mod keys;
pub mod panel;
pub mod rules;
pub mod sheet;
pub mod supply;

use crate::GameSystem;
use crate::srs;
use taku_dice::command::{Eval, first_token};
use taku_dice::{Profile, Roller};

/// The notations of an AW check: SRS's `2D6` and its alias `AW` (AW-1).
const NOTATIONS: &[&str] = &["2D6", "AW"];

/// アナザーワールドSRS.
pub struct AnotherWorld;

impl GameSystem for AnotherWorld {
    fn id(&self) -> &'static str {
        "AnotherWorld"
    }
    fn name(&self) -> &'static str {
        "アナザーワールドSRS"
    }
    fn sort_key(&self) -> &'static str {
        "あなさあわあるとSRS"
    }
    fn help(&self) -> taku_dice::Text {
        taku_dice::Text::new(HELP, HELP_EN)
    }
    fn prefixes(&self) -> &'static [&'static str] {
        NOTATIONS
    }
    fn profile(&self) -> &Profile {
        srs::Srs.profile()
    }
    /// `AW+5 VS AW+3` is one command written with spaces (AW-2): join its three words.
    fn rewrite_line(&self, raw: &str) -> Option<String> {
        let mut joined = taku_dice::command::join_versus(raw)?;
        // A third side (`AW+5 VS AW+3 VS AW+1`) joins too, so the contest's parser refuses
        // it instead of reading `VS AW+1` as a comment (AW-2 has two sides).
        while let Some(again) = taku_dice::command::join_versus(&joined).filter(|j| *j != joined) {
            joined = again;
        }
        Some(joined)
    }
    fn table_rules(&self) -> Option<&dyn crate::DynRules> {
        Some(&rules::AwRules)
    }
    fn eval_own(&self, command: &str, roller: &mut Roller<'_>) -> Eval {
        // AW-2: a contest.
        if let Some(c) = contest::parse(command, NOTATIONS)? {
            return Ok(Some(contest::roll(&c, roller)?));
        }
        // AW-1: an action check; plain `2D6` stays a sum, as under SRS.
        srs::eval_check(command, NOTATIONS, true, roller)
    }
}

/// Whether `line` is an AW action check (AW-1) — `AW…` or `2D6` with options or a
/// target, secret or not — rather than a contest, a plain sum or another command. AF
/// checks (AW-7) count only these.
pub fn is_check(line: &str) -> bool {
    // `AW+5 VS AW+3` is one command, a contest.
    let joined = AnotherWorld.rewrite_line(line);
    let (token, _) = first_token(joined.as_deref().unwrap_or(line));
    let upper = token.to_ascii_uppercase();
    let command = upper
        .strip_prefix('S')
        .filter(|c| NOTATIONS.iter().any(|n| c.starts_with(n)))
        .unwrap_or(&upper);
    if command.contains("VS") {
        return false;
    }
    match srs::parse_check(command, NOTATIONS) {
        Ok(Some((_, plain))) => !(plain && command.starts_with("2D6")),
        _ => false,
    }
}

const HELP: &str = "\
アナザーワールドSRS 3rd edition: 2D6の行為判定（クリティカル12・ファンブル2）、対決、テーブルのルール
■行為判定（AW-1）  AW は 2D6 と同じ
  AW+4>=10         判定値4、難易度10
  AW               達成値だけを求める
  AW+2@11#3>=10    クリティカル値11・ファンブル値3
  AW+2>=10[11,3]   同じ（旧形式）
  SAW+1>=8         シークレットダイス
  AW+{理知}>=10    テーブルで: 自分のキャラクターの【理知】を判定値に
  AW+{ミナ.理知}   キャラクターと能力値を指定（AW+4 理知 ミナ のようにコメントでも）
  難易度の目安: 6〜8 簡単、9〜11 普通、12〜15 難しい、16以上 非常に難しい
  GMの修正は−3〜+3程度（ダイスひとつ分の期待値3.5を超えないように）。AW+{理知}+5 のように判定値の後の修正の合計が超えると注意を表示
■対決（AW-2）
  AW+5 VS AW+3     アクション側 VS リアクション側（同値はリアクション優先）
  AW+5 VS 8        リアクション側が判定できないとき: 固定の達成値8
  ダイスボットの共通コマンドも使えます。";

const HELP_EN: &str = "\
Another World SRS 3rd edition: 2D6 action checks (critical 12, fumble 2), contests, table rules
■ Action checks (AW-1)  AW is the same as 2D6
  AW+4>=10         judgement value 4, difficulty 10
  AW               the achievement alone
  AW+2@11#3>=10    critical value 11, fumble value 3
  AW+2>=10[11,3]   the same (legacy form)
  SAW+1>=8         secret dice
  AW+{理知}>=10    at a table: your character's 【理知】 as the judgement value
  AW+{Mina.理知}   naming the character and the ability (or in the comment: AW+4 理知 Mina)
  Difficulty guide: 6–8 easy, 9–11 ordinary, 12–15 hard, 16+ very hard
  GM modifiers stay within about −3..+3 (no more than one die's expectation, 3.5); modifiers after the judgement value beyond that (AW+{理知}+5) get a note
■ Contests (AW-2)
  AW+5 VS AW+3     action side VS reaction side (the reaction side wins ties)
  AW+5 VS 8        when the reaction side cannot roll: a fixed achievement of 8
  DiceBot's common dice commands also work.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aw1_checks_are_told_from_other_rolls() {
        for check in [
            "AW",
            "AW+{0}",
            "aw+3>=10 理知",
            "SAW+1>=8",
            "2D6+1>=7",
            "2D6@11",
        ] {
            assert!(is_check(&check.replace("{0}", "2")), "{check}");
        }
        for other in [
            "2D6",
            "2D6+3",
            "1D100",
            "AW+5 VS AW+3",
            "AW+5VS8",
            "hello",
            "",
        ] {
            assert!(!is_check(other), "{other}");
        }
    }

    #[test]
    fn vs_written_with_spaces_becomes_one_command() {
        let aw = AnotherWorld;
        assert_eq!(
            aw.rewrite_line("AW+5 VS AW+3 攻撃").as_deref(),
            Some("AW+5VSAW+3 攻撃")
        );
        assert_eq!(aw.rewrite_line("aw+5 vs 8").as_deref(), Some("aw+5VS8"));
        // A dangling VS is kept, so the line fails to parse instead of rolling AW+5.
        assert_eq!(aw.rewrite_line("AW+5 VS").as_deref(), Some("AW+5VS"));
        assert_eq!(aw.rewrite_line("AW+5>=10 判定"), None);
    }
}
