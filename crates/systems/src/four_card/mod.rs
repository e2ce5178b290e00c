//! Four Card (フォーカード), basic rules (rules digest `four-card.md`, FC-1 to FC-15).
//!
//! Checks are 2D6 + base with automatic success on 12 and automatic failure on 2
//! ([`check`], FC-9 to FC-12); their exact odds, the comparison roll's endless tie
//! re-rolls included, are in [`odds`]. At a table ([`rules`]) characters are created and
//! derived (FC-1 to FC-8, [`character`]), take and recover damage (FC-13, [`damage`]),
//! learn skills (FC-5, [`skills`]) and grow (FC-14, FC-15), under the GM's settings
//! ([`settings`], the digest's "our readings").

pub mod character;
pub mod check;
pub mod damage;
pub mod odds;
pub mod rules;
pub mod settings;
pub mod sheet;
pub mod skills;

use crate::GameSystem;
use taku_dice::Roller;
use taku_dice::command::{Eval, first_token, join_versus};

/// フォーカード.
pub struct FourCard;

impl GameSystem for FourCard {
    fn id(&self) -> &'static str {
        "FourCard"
    }
    fn name(&self) -> &'static str {
        "フォーカード"
    }
    fn sort_key(&self) -> &'static str {
        "ふおおかあと"
    }
    fn help(&self) -> taku_dice::Text {
        taku_dice::Text::new(HELP, HELP_EN)
    }
    fn prefixes(&self) -> &'static [&'static str] {
        &["FCA", "FC"]
    }
    /// `FC+4 VS FC+6` is one command written with spaces (FC-11). A third side
    /// (`FC+5 VS FC+5 VS FC+5`) joins too, so that the check's parser refuses it instead
    /// of reading `VS FC+5` as a comment: a comparison roll compares two roll values.
    ///
    /// Options written after a space (`FC+4>=10 #NS`) join the check too: read as a
    /// comment they would be dropped silently, and the player would think the GM's
    /// exception (FC-9) applied.
    fn rewrite_line(&self, raw: &str) -> Option<String> {
        join_line(raw)
    }
    fn table_rules(&self) -> Option<&dyn crate::DynRules> {
        Some(&rules::FcRules)
    }
    fn eval_own(&self, command: &str, roller: &mut Roller<'_>) -> Eval {
        match check::parse(command)? {
            Some(c) => Ok(Some(check::roll(&c, roller)?)),
            None => Ok(None),
        }
    }
    fn odds(
        &self,
        input: &str,
        limits: taku_dice::odds::Limits,
    ) -> Option<Result<taku_dice::odds::Odds, taku_dice::odds::OddsError>> {
        let folded = taku_dice::normalize::fold(input).text;
        let joined = join_line(&folded).unwrap_or(folded);
        let (token, _) = first_token(&joined);
        let upper = token.to_ascii_uppercase();
        let command = match upper.strip_prefix('S') {
            Some(c) if c.starts_with("FC") => c,
            _ => &upper,
        };
        let check = check::parse(command).ok()??;
        odds::comparison_odds(&check, limits)
    }
}

/// The line as one command: `FC+4 VS FC+6` joined (FC-11, a third side too, see
/// [`FourCard::rewrite_line`]) and options that follow the check after a space
/// (`FC+4>=10 #NS`, `FC+4 VS FC+6 #DRAW#PLAIN`) joined to it; `None` when nothing joins.
pub fn join_line(raw: &str) -> Option<String> {
    let mut joined: Option<String> = None;
    loop {
        let line = joined.as_deref().unwrap_or(raw);
        let next = join_versus(line)
            .filter(|j| j != line)
            .or_else(|| join_next_word(line))
            .filter(|j| j != line);
        match next {
            Some(n) => joined = Some(n),
            None => return joined,
        }
    }
}

/// One step of [`join_line`]: the word after the check joined to it when it is options
/// (`#NS`, fc9 F1) or plainly the rest of the check (fc9 F6): it begins with `+`, `-`,
/// `>`, `<`, `=` or `VS` (`FC +4>=10`, `FC+4 >=10`, `FC+4 VS FC +2`, `FC+4 VS10`), or
/// follows a check that cannot end there (`FC 4`, `FC+4 >= 10`, `FC+4 VS FC+ 2`). Joined, the check's parser reads it or
/// refuses it with the right form, instead of the rest vanishing into a comment.
fn join_next_word(line: &str) -> Option<String> {
    let (check, at) = first_token(line);
    let upper = check.to_ascii_uppercase();
    let bare = upper.strip_prefix('S').unwrap_or(&upper);
    if !bare.starts_with("FC") {
        return None;
    }
    let rest = &line[at + check.len()..];
    let (word, at_word) = first_token(rest);
    let first = word.chars().next()?;
    let options = word
        .strip_prefix('#')
        .is_some_and(|w| w.split('#').all(check::is_option_name));
    let folded = taku_dice::normalize::fold(word).text.to_ascii_uppercase();
    let continues = matches!(
        first,
        '+' | '-' | '>' | '<' | '=' | '＋' | '－' | '＞' | '＜' | '＝'
    ) || folded.starts_with("VS")
        || (matches!(bare, "FC" | "FCA") && folded.starts_with(|c: char| c.is_ascii_digit()))
        || ((bare.ends_with(['+', '-', '>', '<', '=', '#']) || bare.ends_with("VS"))
            && folded.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '{'));
    if !options && !continues {
        return None;
    }
    let comment = &rest[at_word + word.len()..];
    Some(format!("{}{check}{word}{comment}", &line[..at]))
}

/// The check the line `line` makes, if it is one of the system's (`SFC+3>=10 剣` → the
/// target roll), as the table's rules read a roll after it is made.
pub fn parse_line(line: &str) -> Option<check::Check> {
    let joined = join_line(line).unwrap_or_else(|| line.to_string());
    let (token, _) = first_token(&joined);
    let upper = token.to_ascii_uppercase();
    let command = match upper.strip_prefix('S') {
        Some(c) if c.starts_with("FC") => c,
        _ => &upper,
    };
    check::parse(command).ok().flatten()
}

const HELP: &str = "\
フォーカード: 2D6+ベースの判定ロール（出目12で自動的成功、出目2で自動的失敗・1点疲労）
■目標ロール（FC-10）
  FC+5>=12         ベース5、難易度12（成功の度合を表示。難易度30超は警告）
  FC+5             ロール値だけ（自動的成功・失敗は表示）
  FC+5>=12#NS      自動的成功なし（どう考えても不可能な行動、GMの判断）
  FC+5>=12#NF      自動的失敗なし（失敗するはずのない行動、GMの判断）
■比較ロール（FC-11）
  FC+4 VS FC+6     左と右がロールし、高い方の勝ち。同値は決着まで振り直し
  FC+4 VS 10       右が振れないとき: 固定のロール値10
  FC+4 VS FC+6#DRAW   同値は振り直さず「優劣つかず」（腕相撲など、GMの判断）
  FC+4 VS FC+6#PLAIN  ロール値だけを比べる（自動的成功・失敗で勝敗を決めない。出目がともに2・ともに12でもロール値の高い方が勝ち、l.197 の括弧書きは採らない）
  FC+4 VS FC+6#OVERRIDE  既定の読み方（自動的成功・失敗が勝敗を決める）。設定 comparison_auto が plain の卓で1回だけ
■達成ロール（FC-12）
  FCA+5            自動的成功・失敗なし
■テーブルで
  FC+{剣}>=10      自分のキャラクターのスキルLV（特化していない分野は−2）
  衰弱ラインに達したキャラクターのロール値は自動で−2。自動的失敗の疲労も自動で記録
  難易度の目安: 8 素人でも容易 / 10 / 12 素人には困難 / 14 / 16 初級者には困難 / 18 / 20 熟達者でも困難 / 22 / 24 最高峰でも困難 / 30 限界
  ダイスボットの共通コマンドも使えます。";

const HELP_EN: &str = "\
Four Card: 2D6 + base check rolls (dice 12: automatic success; dice 2: automatic failure, 1 fatigue)
■ Target rolls (FC-10)
  FC+5>=12         base 5, difficulty 12 (degree of success shown; warns above 30)
  FC+5             the roll value alone (automatic results shown)
  FC+5>=12#NS      no automatic success (a plainly impossible action, the GM's call)
  FC+5>=12#NF      no automatic failure (an action that cannot fail, the GM's call)
■ Comparison rolls (FC-11)
  FC+4 VS FC+6     both sides roll, the higher wins; ties are re-rolled until decided
  FC+4 VS 10       when the right side cannot roll: a fixed roll value of 10
  FC+4 VS FC+6#DRAW   a tie stands as no winner (arm wrestling, the GM's call)
  FC+4 VS FC+6#PLAIN  compare roll values only (automatic results decide nothing; both dice 2 or both 12 are no tie, the higher roll value wins: l.197's parenthesis dropped)
  FC+4 VS FC+6#OVERRIDE  the default reading (automatic results decide), for one roll at a table whose comparison_auto is plain
■ Achievement rolls (FC-12)
  FCA+5            no automatic success or failure
■ At a table
  FC+{剣}>=10      your character's skill LV (−2 outside a specialised field)
  A character at the weakened line rolls at −2 automatically; an automatic failure's fatigue is recorded
  Difficulty guide: 8 easy even for a layman / 10 / 12 hard for a layman / 14 / 16 hard for a beginner / 18 / 20 hard even for an expert / 22 / 24 hard even for the best / 30 the limit
  DiceBot's common dice commands also work.";

#[cfg(test)]
mod tests {
    use super::{FourCard, join_line};
    use taku_dice::{Mode, ScriptedDraw, ScriptedSource};

    fn six(values: &[u32]) -> ScriptedSource {
        ScriptedSource::new(values.iter().map(|&value| ScriptedDraw { sides: 6, value }))
    }

    #[test]
    fn fc9_an_option_after_a_space_is_the_checks_not_a_comment() {
        // FC-9 (l.154): 「どう考えても不可能な行動…GMの判断で処理してください」; the GM may rule that a 12 is no automatic success. Written
        // `FC+4>=10 #NS`, the option must apply, not vanish into a comment.
        let mut dice = six(&[6, 6]);
        let r = crate::evaluate(&FourCard, "FC+4>=20 #NS 跳躍", &mut dice, Mode::Normalize)
            .expect("a target roll");
        assert!(r.text.contains("#NS"), "{}", r.text);
        assert!(!r.text.contains("自動的成功"), "{}", r.text);

        let mut dice = six(&[3, 3, 2, 4]);
        let r = crate::evaluate(&FourCard, "fc+4 vs fc+4 #draw", &mut dice, Mode::Normalize)
            .expect("a comparison");
        assert!(r.text.to_ascii_uppercase().contains("#DRAW"), "{}", r.text);
        assert_eq!(dice.used(), 4, "a tie stands with #DRAW: {}", r.text);
        // A comment that only starts with `#` stays a comment; other commands are left.
        assert_eq!(join_line("FC+4>=10 #見せ場"), None);
        assert_eq!(join_line("2D6 #NS"), None);
        assert_eq!(
            join_line("FC+4>=10 #NS 剣").as_deref(),
            Some("FC+4>=10#NS 剣")
        );
    }

    #[test]
    fn fc11_a_third_side_is_refused_not_read_as_a_comment() {
        // FC-11 (l.196–197): the comparison roll compares roll values side against side
        // until one wins; `taku roll` (no table) refuses a third side, with the rule,
        // rather than dropping it as a comment.
        let mut dice = six(&[3, 3, 1, 2, 4, 4]);
        let e = crate::evaluate(
            &FourCard,
            "FC+5 VS FC+5 VS FC+5",
            &mut dice,
            Mode::Normalize,
        )
        .expect_err("a third side is refused");
        let text = e.text();
        assert!(
            text.en().contains("FC-11") && text.ja().contains("FC-11"),
            "{e}"
        );
        assert!(text.ja().contains("2者"), "{}", text.ja());
        assert_eq!(dice.used(), 0);
        // Two sides and a comment that says VS stay a comparison with a comment.
        let mut dice = six(&[6, 6, 1, 2]);
        let r = crate::evaluate(
            &FourCard,
            "FC+5 VS FC+5 ロイ VS 影",
            &mut dice,
            Mode::Normalize,
        )
        .expect("a comparison");
        assert!(r.text.contains("(FC+5 VS FC+5)"), "{}", r.text);
    }
}
