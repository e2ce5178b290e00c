//! Why a command gave no result, or could not be evaluated.

use crate::source::DrawError;
use std::ops::Range;

/// A place in the input, as a byte range into the text the user typed.
pub type Span = Range<usize>;

/// Why a command could not be parsed, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct ParseError {
    /// Byte range of the offending text in the original input.
    pub span: Span,
    /// What was wrong.
    pub kind: ParseErrorKind,
}

/// What a parser found wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// Something other than what the grammar allows here.
    #[error("unexpected {found}; expected {expected}")]
    Unexpected {
        /// What was found.
        found: Found,
        /// What would be right here.
        expected: &'static str,
    },
    /// Text after a complete command, not separated by a space.
    #[error("unexpected {found} after the command; a comment must be separated by a space")]
    Trailing {
        /// What was found.
        found: Found,
    },
    /// A comparison operator that means nothing (`!`, `=!=`...).
    #[error("not a comparison operator; use one of = <> < <= > >=")]
    BadOperator,
    /// Dice where only numbers are allowed (a count, sides, target).
    #[error("dice are not allowed in {0}; use a number there")]
    DiceNotAllowed(&'static str),
    /// The left side of a sum has no dice.
    #[error("a dice roll needs at least one die, such as 2D6")]
    NoDice,
    /// Parentheses nested too deep.
    #[error("parentheses nested too deep; at most {limit} levels")]
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// Too many operators in one command.
    #[error("expression too long; at most {limit} operators")]
    TooLong {
        /// The limit.
        limit: usize,
    },
    /// A number too large for 64-bit arithmetic.
    #[error("number too large; numbers are limited to {}", i64::MAX)]
    NumberTooLarge,
}

/// What a parser found where it expected something else; put in words only when shown, so
/// the many failed attempts of the common commands on each line cost nothing to describe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// The end of the command.
    End,
    /// A number.
    Number(i64),
    /// A number too large for i64.
    NumberTooLarge,
    /// A comparison operator (`None`: a run of `<>!=` that means nothing).
    Operator(Option<crate::ast::CmpOp>),
    /// Any other character.
    Char(char),
}

impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Found::End => f.write_str("end of command"),
            Found::Number(n) => write!(f, "number {n}"),
            Found::NumberTooLarge => f.write_str("a number too large"),
            Found::Operator(Some(op)) => write!(f, "'{}'", op.as_str()),
            Found::Operator(None) => f.write_str("an invalid comparison"),
            Found::Char(c) => write!(f, "'{c}'"),
        }
    }
}

/// Why evaluation could not give a result. Compatible servers answer these with
/// HTTP 500 where BCDice raises, and 400 for [`EvalError::Unsupported`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// No command understood the input (BCDice gives no result). Carries the parse error
    /// that got furthest, if some command recognised the start of the input.
    #[error("unsupported command{}", .0.as_ref().map(|e| format!(": {e}")).unwrap_or_default())]
    Unsupported(Option<ParseError>),
    /// The input is empty or only whitespace.
    #[error("empty command; type a command such as 2D6>=7")]
    Empty,
    /// More than 10,000 dice in one evaluation.
    #[error("too many dice: at most {limit} dice may be drawn in one command")]
    TooManyDice {
        /// The limit.
        limit: usize,
    },
    /// More than [`crate::roller::MAX_BLANK_DICE`] dice that draw nothing (no sides, or more
    /// than 10,000) in one evaluation: BCDice lists a 0 for each, so `10^18 U0[6]` would
    /// never finish.
    #[error(
        "too many dice without sides: at most {limit} dice of 0 sides or more than 10000 sides may be listed in one command"
    )]
    TooManyBlankDice {
        /// The limit.
        limit: usize,
    },
    /// A division by zero where BCDice raises (B/R/U/TY numbers, Calc's rounding divisions).
    #[error("division by zero")]
    DivisionByZero,
    /// A negative count of dice to keep or drop.
    #[error("a keep/drop count cannot be negative")]
    NegativeKeep,
    /// A negative number of dice where BCDice raises (D66 sides, UpperDice).
    #[error("a dice count cannot be negative here")]
    NegativeCount,
    /// An intermediate value left the 64-bit range.
    #[error("arithmetic overflow: a value exceeds the 64-bit range")]
    Overflow,
    /// Some repetitions of a Repeat gave a result and others none (BCDice raises).
    #[error("some repetitions gave no result")]
    PartialRepeat,
    /// Nested repeats would evaluate too many commands.
    #[error("too many repetitions: nested repeats may evaluate at most {limit} commands")]
    TooManyRepetitions {
        /// The limit.
        limit: usize,
    },
    /// The dice source refused a draw (scripted dice ran out or mismatched).
    #[error("dice source: {0}")]
    Draw(#[from] DrawError),
    /// The reference engine (BCDice's JavaScript build, for systems taku does not carry
    /// natively) gave no answer.
    #[error("reference engine: {0}")]
    Engine(EngineFailure),
}

/// Why the reference engine gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineFailure {
    /// The evaluation ran past its time limit; the worker was stopped.
    #[error("the command took longer than {ms} ms and was stopped")]
    TimedOut {
        /// The limit, in milliseconds.
        ms: u64,
    },
    /// The worker process died or could not be started.
    #[error("the worker stopped unexpectedly ({0}); it is replaced for the next command")]
    Crashed(String),
    /// Brackets nested deeper than the engine is given.
    #[error("brackets are nested more than {limit} deep")]
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// Every worker stayed busy for the whole time limit; nothing was evaluated.
    #[error("every worker is busy; try again in a moment")]
    Busy,
    /// The engine raised an error while evaluating (its message).
    #[error("the engine raised an error: {0}")]
    Raised(String),
}

impl EvalError {
    /// Whether this is a "no result" rather than an error.
    pub fn is_unsupported(&self) -> bool {
        matches!(self, EvalError::Unsupported(_))
    }
}

impl Found {
    /// What was found, in words of `lang`.
    fn words(&self, lang: crate::Lang) -> String {
        use crate::Lang::*;
        match (self, lang) {
            (_, En) => self.to_string(),
            (Found::End, Ja) => "コマンドの終わり".to_string(),
            (Found::Number(n), Ja) => format!("数 {n}"),
            (Found::NumberTooLarge, Ja) => "大きすぎる数".to_string(),
            (Found::Operator(Some(op)), Ja) => format!("'{}'", op.as_str()),
            (Found::Operator(None), Ja) => "無効な比較".to_string(),
            (Found::Char(c), Ja) => format!("'{c}'"),
        }
    }
}

/// What the grammar expected, in Japanese (the parsers name it in English:
/// `'B' (as in 3B6)`, `'Y' or 'Z' (as in 5TY6)`, `a number or '('`).
fn expected_ja(expected: &str) -> String {
    match expected {
        "sides other than a bare 66 (D66 is its own command)" => {
            return "66 以外の面数（D66 は別のコマンドです）".to_string();
        }
        "no '@' when the threshold is already in '[…]'" => {
            return "'[…]' で閾値を指定したときは '@' なし".to_string();
        }
        "the end of a two-sided comparison roll (FC-11: FC+b VS FC+c; with three or more, roll pair by pair)" =>
        {
            return "比較ロールの終わり（FC-11: 比較ロールは FC+b VS FC+c の2者です。3者以上なら組ごとに振ってください）"
                .to_string();
        }
        // Four Card (crates/systems/src/four_card/check.rs `malformed`, FC-9 to FC-12).
        "a Four Card check with whole-number bases: FC+b, FC+b>=d, FC+b VS FC+c, FC+b VS n or FCA+b (FC-9 to FC-12)" =>
        {
            return "フォーカードの判定（ベースは整数で FC+b、FC+b>=d、FC+b VS FC+c、FC+b VS n、FCA+b のどれか。FC-9〜FC-12）".to_string();
        }
        "the end of an achievement roll (FC-12: FCA+b has no difficulty, no opponent and no automatic results; with a difficulty roll FC+b>=d, against someone FC+b VS FC+c)" =>
        {
            return "達成ロールの終わり（FC-12: 達成ロール FCA+b には難易度も相手も自動的成功・失敗もありません。難易度があるなら FC+b>=d、相手がいるなら FC+b VS FC+c）".to_string();
        }
        "a comparison roll without a difficulty (FC-11: FC+b VS FC+c or FC+b VS n; the higher roll value wins)" =>
        {
            return "難易度のない比較ロール（FC-11: FC+b VS FC+c か FC+b VS n。ロール値の高い方が勝ちます）".to_string();
        }
        "the rest of the check; options come after the whole check (FC+b>=d#NS, FC+b VS FC+c#NF)" =>
        {
            return "判定の続き（オプションは判定全体の後ろに置きます: FC+b>=d#NS、FC+b VS FC+c#NF）".to_string();
        }
        "an option name: NS or NF (FC-9), or for a comparison roll PLAIN, DRAW or OVERRIDE (FC-11)" =>
        {
            return "オプション名（NS か NF（FC-9）、比較ロールなら PLAIN・DRAW・OVERRIDE（FC-11））".to_string();
        }
        "the end of the command (each option once)" => {
            return "コマンドの終わり（オプションは1回ずつ）".to_string();
        }
        "the end of the command (#PLAIN and #OVERRIDE contradict each other; choose one)" => {
            return "コマンドの終わり（#PLAIN と #OVERRIDE は反対の指定です。どちらか一方を）"
                .to_string();
        }
        "the end of a target roll (#PLAIN, #DRAW and #OVERRIDE are options of a comparison roll FC+b VS FC+c, FC-11)" =>
        {
            return "目標ロールの終わり（#PLAIN・#DRAW・#OVERRIDE は比較ロール FC+b VS FC+c のオプションです。FC-11）".to_string();
        }
        // Sengensho (crates/systems/src/sengensyou/mod.rs `malformed`, SG-8).
        "an SG check: SGS, SGS+m with a whole-number modifier, SGS+m>=t with a target, or a contest SGS+m VS SGS+n" =>
        {
            return "千幻抄の判定（SGS、整数の修正値 SGS+m、目標値 SGS+m>=t、対決 SGS+m VS SGS+n のどれか）".to_string();
        }
        "an SG check in BCDice-compatible mode: SGS or SGS+m with a whole-number modifier (no target, no contest)" =>
        {
            return "BCDice互換モードの千幻抄の判定（SGS か 整数の修正値 SGS+m。目標値・対決なし）"
                .to_string();
        }
        "a modifier from -1000 to +1000 (SG-8, as /sg attack takes it)" => {
            return "−1000〜+1000の修正値（SG-8、/sg attack と同じ範囲）".to_string();
        }
        "the end of a two-sided contest (A VS B; one contest per opponent)" => {
            return "対決の終わり（対決は A VS B の2者だけです。相手が複数なら1人ずつ対決します）"
                .to_string();
        }
        _ => {}
    }
    let (what, example) = match expected.split_once(" (as in ") {
        Some((what, example)) => (what, Some(example.trim_end_matches(')'))),
        None => (expected, None),
    };
    let what = what.replace(" or ", " か ").replace("a number", "数");
    match example {
        Some(example) => format!("{what}（{example} のように）"),
        None => what,
    }
}

impl ParseErrorKind {
    /// The message in Japanese and English.
    pub fn text(&self) -> crate::Text {
        use crate::{Lang, Text};
        let en = self.to_string();
        let ja = match self {
            ParseErrorKind::Unexpected { found, expected } => format!(
                "{}は使えません。ここには{}が必要です",
                found.words(Lang::Ja),
                expected_ja(expected)
            ),
            ParseErrorKind::Trailing { found } => format!(
                "コマンドの後ろに{}があります。コメントはスペースで区切ってください",
                found.words(Lang::Ja)
            ),
            ParseErrorKind::BadOperator => {
                "比較演算子ではありません。= <> < <= > >= のどれかを使ってください".to_string()
            }
            ParseErrorKind::DiceNotAllowed(place) => {
                format!("ここ（{place}）にはダイスを使えません。数を書いてください")
            }
            ParseErrorKind::NoDice => "ダイスロールには 2D6 のようなダイスが必要です".to_string(),
            ParseErrorKind::TooDeep { limit } => {
                format!("括弧の入れ子が深すぎます（{limit} 段まで）")
            }
            ParseErrorKind::TooLong { limit } => {
                format!("式が長すぎます（演算子は {limit} 個まで）")
            }
            ParseErrorKind::NumberTooLarge => {
                format!("数が大きすぎます（{} まで）", i64::MAX)
            }
        };
        Text::new(ja, en)
    }
}

impl EvalError {
    /// The message in Japanese and English (the English is this error's `Display`).
    pub fn text(&self) -> crate::Text {
        let en = self.to_string();
        let ja = match self {
            EvalError::Unsupported(None) => "コマンドとして解釈できません".to_string(),
            EvalError::Unsupported(Some(e)) => {
                format!("コマンドとして解釈できません: {}", e.kind.text().ja())
            }
            EvalError::Empty => "コマンドが空です。2D6>=7 のように入力してください".to_string(),
            EvalError::TooManyDice { limit } => {
                format!("ダイスが多すぎます。1 回のコマンドで振れるのは {limit} 個までです")
            }
            EvalError::TooManyBlankDice { limit } => format!(
                "面数が 0 か 10000 を超えるダイスが多すぎます。1 回のコマンドで並べられるのは {limit} 個までです"
            ),
            EvalError::DivisionByZero => "0 で割っています".to_string(),
            EvalError::NegativeKeep => "残す・除くダイスの数は負にできません".to_string(),
            EvalError::NegativeCount => "ここではダイスの数を負にできません".to_string(),
            EvalError::Overflow => "計算の途中で値が 64 ビットの範囲を超えました".to_string(),
            EvalError::PartialRepeat => "繰り返しの一部だけが結果を返しました".to_string(),
            EvalError::TooManyRepetitions { limit } => {
                format!("繰り返しが多すぎます。入れ子の repeat で評価できるのは {limit} 回までです")
            }
            EvalError::Draw(e) => format!("ダイスの供給元: {}", e.ja()),
            EvalError::Engine(EngineFailure::TimedOut { ms }) => {
                format!("参照エンジン: コマンドが {ms} ミリ秒を超えたため中止しました")
            }
            EvalError::Engine(EngineFailure::Crashed(why)) => format!(
                "参照エンジン: ワーカーが異常終了しました（{why}）。次のコマンドからは新しいワーカーが答えます"
            ),
            EvalError::Engine(EngineFailure::TooDeep { limit }) => {
                format!("括弧の入れ子が深すぎます。{limit} 段までにしてください")
            }
            EvalError::Engine(EngineFailure::Busy) => {
                "参照エンジン: すべてのワーカーが使用中です。少し待ってからもう一度どうぞ"
                    .to_string()
            }
            EvalError::Engine(EngineFailure::Raised(why)) => {
                format!("参照エンジン: 評価中にエラーが発生しました: {why}")
            }
        };
        crate::Text::new(ja, en)
    }
}
