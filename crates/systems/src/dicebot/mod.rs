//! DiceBot: the common commands alone, with BCDice's defaults.

use crate::GameSystem;

/// The system with no commands of its own.
pub struct DiceBot;

impl GameSystem for DiceBot {
    fn id(&self) -> &'static str {
        "DiceBot"
    }
    fn name(&self) -> &'static str {
        "DiceBot"
    }
    fn sort_key(&self) -> &'static str {
        "*たいすほつと"
    }
    fn help(&self) -> taku_dice::Text {
        taku_dice::Text::verbatim(HELP)
    }
}

const HELP: &str = "\
Common dice commands only (no game system rules).
  2D6+1>=7      sum of dice, arithmetic, comparison (成功/失敗)
  5D10KH3       keep/drop: KH KL DH DL, MAX, MIN
  3B6>=4        separate dice, count successes
  12R6>=6       reroll dice meeting the condition ([n] or @n sets it)
  4U6[6]+1      add rerolls while a die meets the threshold
  20TY6 / 20TZ6 tally faces
  D66 D66A D66D two d6 as tens and units
  C(10*3+4)     calculate (/ rounds down; /U up, /R to nearest, /F down)
  choice[a,b,c] pick one (choice2[...] picks two; choice a b c also works)
  x5 2D6        repeat a command (rep5, repeat5)
  S2D6          secret roll; text after a space is a comment";
