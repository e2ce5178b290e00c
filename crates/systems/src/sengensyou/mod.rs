//! Sengensyou (千幻抄), spec §5.3 and the rules digest `sengensho.md` (SG-1 to SG-8).
//!
//! `SGS+m` is BCDice's 3D6 check (critical and fumble on the raw dice), byte for byte in
//! strict mode. Outside strict mode SG-8 adds the target and contest forms ([`check`]).
//! The table rules ([`rules`]) carry types as data (SG-1, [`types`]), bonds and fantasy
//! value (SG-2), fantasy abilities (SG-3), impressions (SG-4), borrowing (SG-5), hidden
//! types (SG-6), NPC bonds (SG-7) and the SG-8 order of a contest.

pub mod check;
pub mod procedure;
pub mod rules;
pub mod sheet;
pub mod types;

use crate::GameSystem;
use taku_dice::command::{Eval, first_token};
use taku_dice::system_command;
use taku_dice::{Mode, Profile, Roller};

/// A raw total at or above this is a critical.
pub const CRITICAL_AT: i64 = 16;
/// A raw total at or below this is a fumble.
pub const FUMBLE_AT: i64 = 5;

/// 千幻抄.
pub struct Sengensyou;

impl GameSystem for Sengensyou {
    fn id(&self) -> &'static str {
        "Sengensyou"
    }
    fn name(&self) -> &'static str {
        "千幻抄"
    }
    fn name_en(&self) -> &'static str {
        "Sengensho"
    }
    fn sort_key(&self) -> &'static str {
        "せんけんしよう"
    }
    fn help(&self) -> taku_dice::Text {
        taku_dice::Text::new(
            "千幻抄: SGS+m で 3D6+m（ダイスの合計16以上はクリティカル、5以下はファンブル。どちらも判定を決めない）\n\
         \x20 SGS              3D6 を振る\n\
         \x20 SGS+4            修正つき\n\
         \x20 SGS+3>=12        目標値12（SG-8、BCDice互換モード以外）: 合計12以上で成功\n\
         \x20 SGS+2 VS SGS+4   対決（SG-8）: 左が攻撃側、右が防御側。高い方の勝ち、同値は防御側（/sg set contest_tie で変更）\n\
         \x20 SGS VS SGS@A     卓ではGMだけ: この対決だけ同値の扱いを指定（@D 防御側・@A 攻撃側・@R 振り直し。結果に明記）\n\
         \x20 共通ダイスコマンドも使えます（DiceBot を参照）。",
            "Sengensho: SGS+m rolls 3D6+m (16 or more on the dice is a critical, 5 or less a fumble; neither decides a check)\n\
         \x20 SGS              roll 3D6\n\
         \x20 SGS+4            with a modifier\n\
         \x20 SGS+3>=12        target 12 (SG-8, outside BCDice-compatible mode): 12 or more succeeds\n\
         \x20 SGS+2 VS SGS+4   contest (SG-8): left attacks, right defends; higher total wins, a tie goes to the defender (/sg set contest_tie)\n\
         \x20 SGS VS SGS@A     at a table, GM only: this contest's tie rule (@D defender, @A attacker, @R re-roll; shown in the result)\n\
         \x20 Common dice commands also work (see DiceBot).",
        )
    }
    fn prefixes(&self) -> &'static [&'static str] {
        &["SGS"]
    }
    /// `SGS+2 VS SGS+4` is one command written with spaces (SG-8): join its words. Not in
    /// strict mode, where BCDice rolls `SGS+2` and keeps the rest as a comment.
    ///
    /// The three words are read as a table folds them (`ＳＧＳ＋２　ＶＳ　ＳＧＳ＋４`), so that
    /// a line in full width keeps only its comment as the comment (F5 of sg8: the right
    /// side was logged as one); the comment stays as written.
    fn rewrite_line(&self, raw: &str) -> Option<String> {
        let word = |s: &str| -> (String, usize) {
            let (w, at) = first_word(s);
            (taku_dice::normalize::fold(w).text, at + w.len())
        };
        let (first, end_first) = word(raw);
        let upper = first.to_ascii_uppercase();
        if !(upper.starts_with("SGS") || upper.starts_with("SSGS")) {
            return None;
        }
        let rest = &raw[end_first..];
        let (vs, end_vs) = word(rest);
        if !vs.eq_ignore_ascii_case("VS") {
            return None;
        }
        let after = &rest[end_vs..];
        let (right, end_right) = word(after);
        let comment = &after[end_right..];
        let mut joined = format!("{first}VS{right}{comment}");
        // SG-8 has one attacker and one defender: a third side (`SGS+3 VS SGS+3 VS
        // SGS+3`) joins too, so that the contest's parser refuses it instead of reading
        // `VS SGS+3` as a comment.
        while let Some(again) = taku_dice::command::join_versus(&joined).filter(|j| *j != joined) {
            joined = again;
        }
        Some(joined)
    }
    fn rewrites_in_strict_mode(&self) -> bool {
        false
    }
    /// SG-8: a contest whose ties are re-rolled (`@R`) is solved exactly (an
    /// enumeration of its rounds would stop at the draw limit); the other forms are
    /// enumerated.
    fn odds(
        &self,
        input: &str,
        limits: taku_dice::odds::Limits,
    ) -> Option<Result<taku_dice::odds::Odds, taku_dice::odds::OddsError>> {
        let folded = taku_dice::normalize::fold(input).text;
        let joined = self.rewrite_line(&folded).unwrap_or(folded);
        let (token, _) = first_token(&joined);
        let upper = token.to_ascii_uppercase();
        let command = match upper.strip_prefix('S') {
            Some(c) if c.starts_with("SGS") => c,
            _ => &upper,
        };
        match check::parse_contest(command) {
            Ok(Some(c)) if c.tie == check::Tie::Reroll => {
                Some(check::reroll_contest_odds(&c, limits))
            }
            _ => None,
        }
    }
    fn table_rules(&self) -> Option<&dyn crate::DynRules> {
        Some(&rules::SgRules)
    }
    fn eval_own(&self, command: &str, roller: &mut Roller<'_>) -> Eval {
        let rounding = Profile::DEFAULT.rounding;
        if roller.mode() == Mode::Strict {
            // BCDice: no target, no contest.
            let Some(cmd) = system_command::parse(command, &check::PLAIN, rounding)? else {
                return malformed(command, STRICT_FORMS);
            };
            return Ok(Some(check::plain(cmd.modify_number, roller)?));
        }
        // SG-8: a contest, a check against a target, or BCDice's plain check.
        if let Some(c) = check::parse_contest(command)? {
            within_limit(command, c.attacker)?;
            within_limit(command, c.defender)?;
            return Ok(Some(check::contest(&c, roller)?));
        }
        if command.contains("VS") {
            return malformed(command, FORMS);
        }
        if let Some(cmd) = system_command::parse(command, &check::TARGETED, rounding)? {
            within_limit(command, cmd.modify_number)?;
        }
        if let Some(r) = check::targeted(command, roller)? {
            return Ok(Some(r));
        }
        let Some(cmd) = system_command::parse(command, &check::PLAIN, rounding)? else {
            return malformed(command, FORMS);
        };
        Ok(Some(check::plain(cmd.modify_number, roller)?))
    }
}

/// The first word of `s` (split at any white space, the ideographic space included) and
/// where it starts.
fn first_word(s: &str) -> (&str, usize) {
    let start = s.find(|c: char| !c.is_whitespace()).unwrap_or(s.len());
    let len = s[start..]
        .find(char::is_whitespace)
        .unwrap_or(s.len() - start);
    (&s[start..start + len], start)
}

/// SG-8: the forms of an SG check, named in the refusal of a malformed one (crates/dice
/// words them in Japanese).
const FORMS: &str = "an SG check: SGS, SGS+m with a whole-number modifier, SGS+m>=t with a target, or a contest SGS+m VS SGS+n";
/// BCDice-compatible mode has BCDice's check only.
const STRICT_FORMS: &str = "an SG check in BCDice-compatible mode: SGS or SGS+m with a whole-number modifier (no target, no contest)";

/// The largest modifier of an SG check outside strict mode, as the ordered contest's
/// `/sg attack` takes it (SG-8): 3D6 ranges over 3–18, so a larger one decides every
/// check alone and is a typing slip. Strict mode rolls any, as BCDice does.
pub const MODIFIER_LIMIT: i64 = 1000;

/// What a modifier past [`MODIFIER_LIMIT`] is refused with (crates/dice words it in
/// Japanese).
const MODIFIER_RANGE: &str = "a modifier from -1000 to +1000 (SG-8, as /sg attack takes it)";

/// Refuses `m` past [`MODIFIER_LIMIT`], the caret under the number as written (the
/// rest of the command when it is a sum).
fn within_limit(command: &str, m: i64) -> Result<(), taku_dice::EvalError> {
    if m.abs() <= MODIFIER_LIMIT {
        return Ok(());
    }
    let written = m.unsigned_abs().to_string();
    let span = command
        .find(&written)
        .map_or(3.min(command.len())..command.len(), |at| {
            at..at + written.len()
        });
    Err(taku_dice::EvalError::Unsupported(Some(
        taku_dice::ParseError {
            span,
            kind: taku_dice::ParseErrorKind::Unexpected {
                found: taku_dice::Found::Number(m),
                expected: MODIFIER_RANGE,
            },
        },
    )))
}

/// A command that starts as an SG check (`SGS`) yet is none of its forms (`SGS+3>=`,
/// `SGS+1d6`, `SGS*2`): refused with the forms, the caret under the first character past
/// the longest start that is a check (`>=` with no target: at the end), instead of the
/// generic dice grammar's complaint about the `G`. Other commands are not this
/// system's (`None`).
fn malformed(command: &str, forms: &'static str) -> Eval {
    if !command.starts_with("SGS") {
        return Ok(None);
    }
    let strict = forms == STRICT_FORMS;
    let spec = if strict {
        &check::PLAIN
    } else {
        &check::TARGETED
    };
    let rounding = Profile::DEFAULT.rounding;
    let mut at = (3..=command.len())
        .rev()
        .filter(|&end| command.is_char_boundary(end))
        .find(|&end| {
            matches!(
                system_command::parse(&command[..end], spec, rounding),
                Ok(Some(_))
            )
        })
        .unwrap_or(3);
    if !strict && &command[at..] == ">=" {
        at = command.len();
    }
    // A run of digits no check took is a number past 64 bits (`SGS+99999999999999999999`):
    // said so, rather than that its digit cannot stand there.
    let digits = command[at..].bytes().take_while(u8::is_ascii_digit).count();
    let start = command[..at]
        .bytes()
        .rev()
        .take_while(u8::is_ascii_digit)
        .count();
    if digits > 0 && command[at - start..at + digits].parse::<i64>().is_err() {
        return Err(taku_dice::EvalError::Unsupported(Some(
            taku_dice::ParseError {
                span: at - start..at + digits,
                kind: taku_dice::ParseErrorKind::NumberTooLarge,
            },
        )));
    }
    let found = command[at..]
        .chars()
        .next()
        .map_or(taku_dice::Found::End, taku_dice::Found::Char);
    let width = command[at..].chars().next().map_or(1, char::len_utf8);
    Err(taku_dice::EvalError::Unsupported(Some(
        taku_dice::ParseError {
            span: at..at + width,
            kind: taku_dice::ParseErrorKind::Unexpected {
                found,
                expected: forms,
            },
        },
    )))
}
