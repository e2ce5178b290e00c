//! SRS, the Standard RPG System (spec §5.2): `2D6+m@c#f>=t` and the legacy
//! `2D6+m>=t[c,f]`, with automatic success and failure on the raw dice.
//!
//! Games built on SRS (Another World) reuse [`parse_check`], [`eval_check`] and [`roll`]
//! with their own notation.

use crate::GameSystem;
use taku_dice::ast::CmpOp;
use taku_dice::command::{Eval, SEP};
use taku_dice::system_command::{self, CommandSpec, format_modifier};
use taku_dice::{Detail, Profile, RollResult, Roller, result::Comparison};

/// SRS sorts the dice of sums (`2D6` alone prints them ascending).
const PROFILE: Profile = Profile {
    sort_added_dice: true,
    ..Profile::DEFAULT
};

/// Default critical: a raw 12 succeeds automatically.
pub const DEFAULT_CRITICAL: i64 = 12;
/// Default fumble: a raw 2 fails automatically.
pub const DEFAULT_FUMBLE: i64 = 2;

/// スタンダードRPGシステム.
pub struct Srs;

impl GameSystem for Srs {
    fn id(&self) -> &'static str {
        "SRS"
    }
    fn name(&self) -> &'static str {
        "スタンダードRPGシステム"
    }
    fn sort_key(&self) -> &'static str {
        "すたんたあとRPGしすてむ"
    }
    fn help(&self) -> taku_dice::Text {
        taku_dice::Text::new(HELP_JA, HELP)
    }
    fn prefixes(&self) -> &'static [&'static str] {
        &["2D6"]
    }
    fn profile(&self) -> &Profile {
        &PROFILE
    }
    fn eval_own(&self, command: &str, roller: &mut Roller<'_>) -> Eval {
        eval_check(command, &["2D6"], true, roller)
    }
}

const HELP_JA: &str = "\
SRSの判定: 2D6+m>=t。出目12で自動成功（クリティカル）、出目2で自動失敗（ファンブル）
  2D6+2>=10      難易度10の判定
  2D6+2@11#3>=10 クリティカル値11以上、ファンブル値3以下
  2D6+2>=10[11,3] 同じ（旧形式）
  2D6            合計だけ（判定しない）
  共通ダイスコマンドも使えます（DiceBot を参照）。";

const HELP: &str = "\
SRS check: 2D6+m>=t, automatic success on 12 and automatic failure on 2.
  2D6+2>=10      check against 10
  2D6+2@11#3>=10 critical on 11 or more, fumble on 3 or less
  2D6+2>=10[11,3] the same in the legacy form
  2D6            plain sum (no check)
  Common dice commands also work (see DiceBot).";

/// A parsed SRS check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Check {
    /// Modifier.
    pub modifier: i64,
    /// Target, if any.
    pub target: Option<i64>,
    /// Raw sum at or above which the check succeeds automatically.
    pub critical: i64,
    /// Raw sum at or below which the check fails automatically.
    pub fumble: i64,
}

/// Parses an SRS-style check with any of `notations`. `plain_falls_through`: a bare
/// `2D6`/`2D6+m` with no options and no target is left to the common commands (SRS's own
/// notation does this; aliases do not).
pub fn parse_check(
    command: &str,
    notations: &[&str],
) -> Result<Option<(Check, bool)>, taku_dice::EvalError> {
    let rounding = PROFILE.rounding;
    // Legacy form: everything before the last `[`, then `[c,f]` at the very end.
    if let Some(body) = command.strip_suffix(']')
        && let Some(open) = body.rfind('[')
    {
        let Some((c, f)) = legacy_bracket(&body[open + 1..]) else {
            return Ok(None);
        };
        let spec = CommandSpec {
            notations,
            critical: false,
            fumble: false,
            dollar: false,
            modifier: true,
            operators: &[CmpOp::Ge],
            question_target: false,
        };
        let Some(cmd) = system_command::parse(&body[..open], &spec, rounding)? else {
            return Ok(None);
        };
        let check = Check {
            modifier: cmd.modify_number,
            target: cmd.cmp.and_then(|(_, t)| t),
            critical: c.unwrap_or(DEFAULT_CRITICAL),
            fumble: f.unwrap_or(DEFAULT_FUMBLE),
        };
        return Ok(Some((check, false)));
    }
    let spec = CommandSpec {
        notations,
        critical: true,
        fumble: true,
        dollar: false,
        modifier: true,
        operators: &[CmpOp::Ge],
        question_target: false,
    };
    let Some(cmd) = system_command::parse(command, &spec, rounding)? else {
        return Ok(None);
    };
    let plain = cmd.critical.is_none() && cmd.fumble.is_none() && cmd.cmp.is_none();
    let check = Check {
        modifier: cmd.modify_number,
        target: cmd.cmp.and_then(|(_, t)| t),
        critical: cmd.critical.unwrap_or(DEFAULT_CRITICAL),
        fumble: cmd.fumble.unwrap_or(DEFAULT_FUMBLE),
    };
    Ok(Some((check, plain)))
}

/// `^(-?\d+)?(,(-?\d+))?$`
fn legacy_bracket(inner: &str) -> Option<(Option<i64>, Option<i64>)> {
    fn number(s: &str) -> Option<Option<i64>> {
        if s.is_empty() {
            return Some(None);
        }
        let digits = s.strip_prefix('-').unwrap_or(s);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        // Saturate: a threshold past any sum behaves the same.
        Some(Some(s.parse::<i64>().unwrap_or(if s.starts_with('-') {
            i64::MIN
        } else {
            i64::MAX
        })))
    }
    match inner.split_once(',') {
        None => Some((number(inner)?, None)),
        Some((c, f)) => {
            if f.is_empty() {
                return None;
            }
            Some((number(c)?, number(f)?))
        }
    }
}

/// Evaluates an SRS check written with one of `notations`.
pub fn eval_check(
    command: &str,
    notations: &[&str],
    plain_falls_through: bool,
    roller: &mut Roller<'_>,
) -> Eval {
    let Some((check, plain)) = parse_check(command, notations)? else {
        return Ok(None);
    };
    if plain && plain_falls_through && command.starts_with("2D6") {
        return Ok(None);
    }
    Ok(Some(roll(&check, roller)?))
}

/// Rolls a check: 2d6 sorted, automatic results on the raw sum, then the target.
pub fn roll(check: &Check, roller: &mut Roller<'_>) -> Result<RollResult, taku_dice::EvalError> {
    let mut dice = roller.roll_group(2, 6)?;
    dice.sort_unstable();
    let sum: i64 = dice.iter().sum();
    let total = sum
        .checked_add(check.modifier)
        .ok_or(taku_dice::EvalError::Overflow)?;
    let m = format_modifier(check.modifier);

    let mut text = format!("(2D6{m}");
    if let Some(t) = check.target {
        text.push_str(&format!(">={t}"));
    }
    text.push_str(&format!("[{},{}]", check.critical, check.fumble));
    text.push(')');
    let dice_text: Vec<String> = dice.iter().map(i64::to_string).collect();
    text.push_str(&format!(
        "{SEP}{sum}[{}]{m}{SEP}{total}",
        dice_text.join(",")
    ));

    let comparison = check.target.map(|t| Comparison {
        op: CmpOp::Ge,
        target: t,
        holds: total >= t,
    });
    let mut result = RollResult::new(String::new(), Detail::Sum { total, comparison });
    let verdict = if sum >= check.critical {
        result.critical = true;
        result.success = true;
        Some("自動成功")
    } else if sum <= check.fumble {
        result.fumble = true;
        result.failure = true;
        Some("自動失敗")
    } else if let Some(cmp) = comparison {
        result = result.with_verdict(cmp.holds);
        Some(if cmp.holds { "成功" } else { "失敗" })
    } else {
        None
    };
    if let Some(v) = verdict {
        text.push_str(SEP);
        text.push_str(v);
    }
    result.text = text;
    Ok(result)
}
