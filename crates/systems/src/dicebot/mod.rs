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
        taku_dice::Text::new(HELP_JA, HELP)
    }
}

const HELP_JA: &str = "\
共通ダイスコマンドのみ（ゲームシステム固有のルールなし）
  2D6+1>=7      ダイスの合計・四則演算・比較（成功/失敗）
  5D10KH3       大きい順・小さい順に残す・除く: KH KL DH DL、MAX、MIN
  3B6>=4        バラバラロール: 条件を満たすダイスの数
  12R6>=6       個数振り足し: 条件を満たすダイスを振り足す（[n] か @n で条件）
  4U6[6]+1      上方無限: しきい値以上の出目が出る限り振り足して加える
  20TY6 / 20TZ6 出目ごとの個数を数える
  D66 D66A D66D 2個のD6を十の位と一の位に
  C(10*3+4)     計算（/ は切り捨て、/U 切り上げ、/R 四捨五入、/F 切り捨て）
  choice[a,b,c] 1つ選ぶ（choice2[...] は2つ。choice a b c でも可）
  x5 2D6        コマンドを繰り返す（rep5、repeat5）
  S2D6          シークレットロール。空白の後ろはコメント";

const HELP: &str = "\
Common dice commands only (no game system rules).
  2D6+1>=7      sum of dice, arithmetic, comparison (the result reads 成功/失敗)
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
