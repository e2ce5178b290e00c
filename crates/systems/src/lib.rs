//! taku's game systems: the [`GameSystem`] trait every system implements, one module
//! directory per system, and the [`registry`] that lists them all once, sorted.
//!
//! The key design decision: a system is small. It names itself, lists its command
//! prefixes, picks the [`Profile`] the common commands run with, and evaluates its own
//! commands; everything shared lives in `taku-dice` as functions, not as trait knobs.
//! Systems do no IO; the one exception is [`reference`](mod@reference), which runs BCDice's JavaScript
//! build in worker processes for the systems taku does not carry.

pub mod another_world;
pub mod conformance;
pub mod dicebot;
pub mod four_card;
pub mod lotr_coda;
pub mod mtg_trpg;
pub mod reference;
pub mod registry;
pub mod sengensyou;
pub mod sheet;
pub mod signed;
pub mod srs;
pub mod stellar_knights;
pub mod table_rules;
pub mod view;

pub use registry::{find, systems};
pub use table_rules::{DynRules, TableRules};

use taku_dice::command::Eval;
use taku_dice::{DiceSource, EvalError, Mode, Profile, RollResult, Roller, SystemHooks, Text};

/// A game system: its identity, its help, and its own commands.
pub trait GameSystem: Send + Sync {
    /// BCDice-style id (`DiceBot`, `SRS`), unique, case-sensitive.
    fn id(&self) -> &'static str;
    /// Display name.
    fn name(&self) -> &'static str;
    /// Display name on an English table (`Sengensho` for 千幻抄); the display name
    /// unless the system gives one.
    fn name_en(&self) -> &'static str {
        self.name()
    }
    /// Sort key (kana reading), by which the registry lists systems.
    fn sort_key(&self) -> &'static str;
    /// Help text shown to users, in both languages; its first line is the summary.
    fn help(&self) -> Text;
    /// Literal prefixes of the system's own commands, upper-case (`2D6`, `SGS`).
    fn prefixes(&self) -> &'static [&'static str] {
        &[]
    }
    /// Settings of the common commands under this system.
    fn profile(&self) -> &Profile {
        &Profile::DEFAULT
    }
    /// Evaluates one of the system's own commands: `command` is preprocessed,
    /// upper-cased and without its secret `S`. `Ok(None)` lets the common commands try.
    fn eval_own(&self, _command: &str, _roller: &mut Roller<'_>) -> Eval {
        Ok(None)
    }
    /// Rewrites a whole line before BCDice's first-token rule cuts it (see
    /// `SystemHooks::rewrite_line`).
    fn rewrite_line(&self, _raw: &str) -> Option<String> {
        None
    }
    /// See `SystemHooks::rewrites_in_strict_mode`.
    fn rewrites_in_strict_mode(&self) -> bool {
        true
    }
    /// The system's rules at a table: its state, `/` commands, resets and check hooks.
    /// `None`: the system is dice only.
    fn table_rules(&self) -> Option<&dyn DynRules> {
        None
    }
    /// Exact odds the system computes itself, for commands the common enumeration cannot
    /// finish exactly (a contest whose ties are re-rolled forever). `None`: enumerate.
    fn odds(
        &self,
        _input: &str,
        _limits: taku_dice::odds::Limits,
    ) -> Option<Result<taku_dice::odds::Odds, taku_dice::odds::OddsError>> {
        None
    }
    /// Which engine evaluates the system.
    fn engine(&self) -> EngineKind {
        EngineKind::Native
    }
    /// Evaluates a whole line outside taku's dice pipeline (the reference engine's
    /// systems). `None`: the pipeline evaluates it.
    fn evaluate_whole(
        &self,
        _input: &str,
        _source: &mut dyn DiceSource,
        _mode: Mode,
    ) -> Option<Result<RollResult, EvalError>> {
        None
    }
    /// The system's own command pattern (a regular expression as BCDice lists it), when
    /// it is not built from [`GameSystem::prefixes`].
    fn command_regex(&self) -> Option<String> {
        None
    }
    /// Whether a line (full-width folded) starts like one of the system's commands, for
    /// systems without [`GameSystem::prefixes`] (the reference engine's, by BCDice's
    /// command pattern). `None`: decide from the prefixes.
    fn claims(&self, _line: &str) -> Option<bool> {
        None
    }
}

/// Which engine evaluates a game system.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineKind {
    /// taku's own implementation.
    Native,
    /// BCDice's JavaScript build ([`reference`](mod@reference)).
    Reference,
}

impl EngineKind {
    /// How `taku systems` names it.
    pub fn label(self) -> &'static str {
        match self {
            EngineKind::Native => "taku",
            EngineKind::Reference => "BCDice (JS)",
        }
    }
}

/// Adapts a [`GameSystem`] to the dice pipeline.
struct Hooks<'a>(&'a dyn GameSystem);

impl SystemHooks for Hooks<'_> {
    fn profile(&self) -> &Profile {
        self.0.profile()
    }
    fn prefixes(&self) -> &[&str] {
        self.0.prefixes()
    }
    fn eval_own(&self, command: &str, roller: &mut Roller<'_>) -> Eval {
        self.0.eval_own(command, roller)
    }
    fn rewrite_line(&self, raw: &str) -> Option<String> {
        self.0.rewrite_line(raw)
    }
    fn rewrites_in_strict_mode(&self) -> bool {
        self.0.rewrites_in_strict_mode()
    }
}

/// Evaluates one line under `system`.
pub fn evaluate(
    system: &dyn GameSystem,
    input: &str,
    source: &mut dyn DiceSource,
    mode: Mode,
) -> Result<RollResult, EvalError> {
    if let Some(result) = system.evaluate_whole(input, source, mode) {
        return result;
    }
    taku_dice::evaluate(input, &Hooks(system), source, mode)
}

/// The exact odds of `input` under `system` (its checks, criticals and contests
/// included): see [`taku_dice::odds`].
pub fn odds(
    system: &dyn GameSystem,
    input: &str,
    limits: taku_dice::odds::Limits,
) -> Result<taku_dice::odds::Odds, taku_dice::odds::OddsError> {
    if let Some(odds) = system.odds(input, limits) {
        return odds;
    }
    taku_dice::odds::odds(input, &Hooks(system), limits)
}

/// Whether a line starts like a dice command of `system` (its own prefix, or a common
/// command such as `2D6`, `3B6`, `C(`, `choice`), so that when it fails to parse it is
/// refused with the parse error rather than posted as chat. Japanese chat that starts
/// with a number (`3時から`, `3Dプリンタ`) does not.
pub fn looks_like_command(system: &dyn GameSystem, line: &str) -> bool {
    // As a table reads lines: full-width folded (`ｓ１Ｄ６` is `s1D6`).
    let folded = taku_dice::normalize::fold(line);
    let line = folded.text.as_str();
    if system.claims(line) == Some(true)
        || taku_dice::pipeline::claimed_by_system(line, &Hooks(system))
        || taku_dice::command::parse(line).is_ok()
    {
        return true;
    }
    let token = line.split_whitespace().next().unwrap_or("");
    let upper = token.to_ascii_uppercase();
    let t = upper.strip_prefix('S').unwrap_or(&upper);
    let t = t.trim_start_matches(['+', '-', '(']);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &t[digits..];
    // What may follow a dice letter: sides, or the end of a bare `2D`.
    let after = |s: &str| {
        s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit() || "+-*/<>=@[(".contains(c))
    };
    let dice = ["D", "B", "R", "U", "TY", "TZ"]
        .iter()
        .any(|l| rest.strip_prefix(l).is_some_and(after));
    // Dice anywhere in an expression (`10-2+1D6`, `(1+2)D6`): a dice letter after a
    // number, a bracket or an operator, before a number.
    let bytes = t.as_bytes();
    let inner = (1..bytes.len().saturating_sub(1)).any(|i| {
        b"DBRU".contains(&bytes[i])
            && bytes[i + 1].is_ascii_digit()
            && (bytes[i - 1].is_ascii_digit() || b")+-*/(".contains(&bytes[i - 1]))
    });
    if inner {
        return true;
    }
    (digits > 0 && dice)
        || (digits == 0
            && rest
                .strip_prefix('D')
                .is_some_and(|s| s.starts_with(|c: char| c.is_ascii_digit())))
        || (digits == 0
            && rest
                .strip_prefix('C')
                .is_some_and(|s| s.starts_with(|c: char| c.is_ascii_digit() || "+-(".contains(c))))
        || ["CHOICE", "REPEAT", "REP", "X"].iter().any(|p| {
            rest.strip_prefix(p).is_some_and(|s| {
                s.starts_with(|c: char| c.is_ascii_digit() || c == '[' || c == '(')
            })
        })
        || rest.starts_with("BCDICEVERSION")
}

/// The words a member wrote after the command (`説得` in `AW+5 VS AW+3 説得`), which BCDice
/// ignores and a table keeps in its log.
pub fn comment(system: &dyn GameSystem, line: &str) -> Option<String> {
    let rewritten = system.rewrite_line(line);
    let line = rewritten.as_deref().unwrap_or(line).trim();
    let (_, rest) = line.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    (!rest.is_empty()).then(|| rest.to_string())
}

/// A roll's result text in `lang`. The log keeps the text as BCDice prints it (Japanese);
/// for an English table, systems whose checks have their own words (Four Card, Sengensho,
/// The Lord of the Rings)
/// give them in English. Other systems' texts are returned unchanged.
pub fn roll_text<'t>(
    system: &dyn GameSystem,
    text: &'t str,
    lang: taku_dice::Lang,
) -> std::borrow::Cow<'t, str> {
    match (lang, system.id()) {
        (taku_dice::Lang::En, "FourCard") => four_card::check::english(text).into(),
        (taku_dice::Lang::En, "LotrCoda") => lotr_coda::check::english(text).into(),
        (taku_dice::Lang::En, "Sengensyou") => sengensyou::check::english(text).into(),
        _ => text.into(),
    }
}

/// The regex source clients use to decide whether to send a line (spec §1.6).
pub fn command_pattern(system: &dyn GameSystem) -> String {
    if let Some(pattern) = system.command_regex() {
        return pattern;
    }
    const COMMON: &str = r"[+\-(]*(\d+|D\d+)|\d+B\d+|\d+T[YZ]\d+|C[+\-(]*\d+|choice|D66|(repeat|rep|x)\d+|\d+R\d+|\d+U\d+|BCDiceVersion";
    let mut pattern = String::from("^S?(");
    pattern.push_str(COMMON);
    for p in system.prefixes() {
        pattern.push('|');
        pattern.push_str(p);
    }
    pattern.push(')');
    pattern
}

/// A system's whole help: its dice commands, then its `/` commands at a table (with an
/// example each), as `taku help ID` and a table's `/help` show it.
pub fn full_help(system: &dyn GameSystem) -> Text {
    let mut help = system.help();
    if let Some(rules) = system.table_rules() {
        let heading = Text::new(
            format!("{} のテーブルコマンド:", system.name()),
            format!("{}'s table commands:", system.name_en()),
        );
        help = help.then("\n\n", &heading);
        for c in rules.commands() {
            help = help.then(&format!("\n  {}\n      ", c.usage), &c.text());
        }
    }
    help
}

/// A result as bcdice-api's JSON object (§7.5): `ok`, `text`, the five flags and every
/// draw as `rands`, in that order. Borrowed and serialised straight from the result, so
/// the server writes a roll's response without building a `serde_json::Value`.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct BcdiceRoll<'a> {
    ok: bool,
    text: &'a str,
    secret: bool,
    success: bool,
    failure: bool,
    critical: bool,
    fumble: bool,
    rands: BcdiceRands<'a>,
}

/// Every draw as bcdice-api's `rands` (`detailed_rands`, §4.2):
/// `[{"kind":"normal","sides":6,"value":3},…]`.
#[derive(Debug, Clone, Copy)]
pub struct BcdiceRands<'a>(pub &'a [taku_dice::Draw]);

impl serde::Serialize for BcdiceRands<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Rand {
            kind: &'static str,
            sides: u32,
            value: u32,
        }
        // A draw keeps its face (1..=sides); bcdice-api reports a tens d10 as 0..90 and a
        // d9 as 0..9 (spec §4).
        serializer.collect_seq(self.0.iter().map(|d| Rand {
            kind: d.kind.as_str(),
            sides: d.sides,
            value: match d.kind {
                taku_dice::DrawKind::Normal => d.value,
                taku_dice::DrawKind::TensD10 => (d.value % 10) * 10,
                taku_dice::DrawKind::D9 => d.value.saturating_sub(1),
            },
        }))
    }
}

/// `r` as bcdice-api's roll JSON.
pub fn bcdice_roll(r: &taku_dice::RollResult) -> BcdiceRoll<'_> {
    BcdiceRoll {
        ok: true,
        text: &r.text,
        secret: r.secret,
        success: r.success,
        failure: r.failure,
        critical: r.critical,
        fumble: r.fumble,
        rands: BcdiceRands(&r.rands),
    }
}

/// Every draw of `r` as bcdice-api's `rands`.
pub fn bcdice_rands(r: &taku_dice::RollResult) -> BcdiceRands<'_> {
    BcdiceRands(&r.rands)
}

/// [`bcdice_roll`] as a JSON value.
pub fn bcdice_json(r: &taku_dice::RollResult) -> serde_json::Value {
    serde_json::to_value(bcdice_roll(r)).expect("a roll always serialises")
}

/// The first line of a system's help in `lang`.
pub fn help_summary(system: &dyn GameSystem, lang: taku_dice::Lang) -> String {
    system
        .help()
        .get(lang)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests {
    use taku_dice::{Mode, ScriptedDraw, ScriptedSource};

    #[test]
    fn a_roll_serialises_as_the_spec_example_byte_for_byte() {
        // §7.5's example, with the dice scripted.
        let mut dice = ScriptedSource::new([
            ScriptedDraw { sides: 6, value: 3 },
            ScriptedDraw { sides: 6, value: 4 },
        ]);
        let system = super::find("DiceBot").expect("DiceBot");
        let r = super::evaluate(system, "2D6>=7", &mut dice, Mode::Strict).expect("roll");
        let expected = r#"{"ok":true,"text":"(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功","secret":false,"success":true,"failure":false,"critical":false,"fumble":false,"rands":[{"kind":"normal","sides":6,"value":3},{"kind":"normal","sides":6,"value":4}]}"#;
        assert_eq!(
            serde_json::to_string(&super::bcdice_roll(&r)).expect("json"),
            expected
        );
        assert_eq!(super::bcdice_json(&r).to_string(), expected);
    }
}
