//! Sengensyou (千幻抄), spec §5.3: `SGS+m`, 3d6 for hit and dodge, critical and fumble on
//! the raw dice.
//!
//! The Sengensho game (rules/sengensho.md) builds on this module later.

use crate::GameSystem;
use taku_dice::command::{Eval, SEP};
use taku_dice::system_command::{self, CommandSpec, format_modifier};
use taku_dice::{Detail, EvalError, Profile, RollResult, Roller};

/// A raw total at or above this is a critical.
pub const CRITICAL_AT: i64 = 16;
/// A raw total at or below this is a fumble.
pub const FUMBLE_AT: i64 = 5;

const SPEC: CommandSpec<'static> = CommandSpec {
    notations: &["SGS"],
    critical: false,
    fumble: false,
    dollar: false,
    modifier: true,
    operators: &[],
    question_target: false,
};

/// 千幻抄.
pub struct Sengensyou;

impl GameSystem for Sengensyou {
    fn id(&self) -> &'static str {
        "Sengensyou"
    }
    fn name(&self) -> &'static str {
        "千幻抄"
    }
    fn sort_key(&self) -> &'static str {
        "せんけんしよう"
    }
    fn help(&self) -> taku_dice::Text {
        taku_dice::Text::new(
            "命中・回避判定: SGS+m で 3D6+m を振る。ダイスの合計16以上はクリティカル、5以下はファンブル\n\
         \x20 SGS     3D6 を振る\n\
         \x20 SGS+4   修正つき\n\
         \x20 共通ダイスコマンドも使えます（DiceBot を参照）。",
            "Hit and dodge check: SGS+m rolls 3D6+m; 16 or more on the dice is a critical, 5 or less a fumble.\n\
         \x20 SGS     roll 3D6\n\
         \x20 SGS+4   with a modifier\n\
         \x20 Common dice commands also work (see DiceBot).",
        )
    }
    fn prefixes(&self) -> &'static [&'static str] {
        &["SGS"]
    }
    fn eval_own(&self, command: &str, roller: &mut Roller<'_>) -> Eval {
        let Some(cmd) = system_command::parse(command, &SPEC, Profile::DEFAULT.rounding)? else {
            return Ok(None);
        };
        let m = cmd.modify_number;
        let dice = roller.roll_group(3, 6)?;
        let raw: i64 = dice.iter().sum();
        let total = raw.checked_add(m).ok_or(EvalError::Overflow)?;
        let shown: Vec<String> = dice.iter().map(i64::to_string).collect();
        let fm = format_modifier(m);
        let mut text = format!("(3D6{fm}){SEP}{raw}[{}]", shown.join(","));
        if m != 0 {
            text.push_str(&format!("{SEP}{raw}{fm}"));
        }
        text.push_str(&format!("{SEP}{total}"));
        let critical = raw >= CRITICAL_AT;
        let fumble = !critical && raw <= FUMBLE_AT;
        if critical {
            text.push_str(SEP);
            text.push_str("クリティカル");
        } else if fumble {
            text.push_str(SEP);
            text.push_str("ファンブル");
        }
        let mut result = RollResult::new(
            text,
            Detail::Sum {
                total,
                comparison: None,
            },
        );
        result.critical = critical;
        result.fumble = fumble;
        Ok(Some(result))
    }
}
