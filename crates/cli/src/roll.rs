//! `taku roll`.

use crate::render;
use anyhow::{Context, Result};
use std::io::{BufRead, Write};
use taku_dice::{ChaChaSource, DiceSource, Mode, ScriptedDraw, ScriptedSource};
use taku_systems::GameSystem;

/// Arguments of `taku roll`.
#[derive(Debug, clap::Args)]
pub struct RollArgs {
    /// Game system id (see `taku systems`).
    #[arg(long, short, default_value = "DiceBot")]
    system: String,
    /// Seed the dice, for reproducible rolls.
    #[arg(long, conflicts_with = "rands")]
    seed: Option<u64>,
    /// Script the dice: SIDES:VALUE pairs separated by commas, e.g. 6:4,6:1.
    #[arg(long, value_name = "SIDES:VALUE,...")]
    rands: Option<String>,
    /// Read commands exactly as BCDice does (no full-width folding).
    #[arg(long)]
    strict: bool,
    /// Print results as JSON (one object per line).
    #[arg(long)]
    json: bool,
    /// The command, e.g. 2D6+4>=10 (several words are joined by spaces), or - to read one
    /// command per line from stdin. Put `--` before a command that starts with `-`.
    #[arg(required = true, num_args = 1..)]
    command: Vec<String>,
}

/// Looks a system up by id, or lists the known ones.
pub fn system(id: &str) -> Result<&'static dyn GameSystem> {
    taku_systems::find(id).with_context(|| unknown_system(id))
}

/// Why `id` names no system, in the reader's language: the ids that look alike (with the
/// reference engine there are hundreds), or all of them, and how to enable BCDice's other
/// systems when the reference engine is off.
fn unknown_system(id: &str) -> String {
    use taku_dice::{Lang, Text};
    let lang = crate::lang::human();
    let ids: Vec<&str> = taku_systems::systems().iter().map(|s| s.id()).collect();
    let lower = id.to_lowercase();
    let alike: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|s| {
            let s = s.to_lowercase();
            !lower.is_empty() && (s.contains(&lower) || lower.contains(&s))
        })
        .take(10)
        .collect();
    let mut message = match (taku_systems::reference::engine(), alike.is_empty()) {
        (Some(_), true) => Text::new(
            format!("ゲームシステム '{id}' はありません。`taku systems` で一覧を見られます"),
            format!("unknown game system '{id}'; `taku systems` lists them"),
        ),
        (Some(_), false) => Text::new(
            format!(
                "ゲームシステム '{id}' はありません。似た ID: {}",
                alike.join(", ")
            ),
            format!(
                "unknown game system '{id}'; similar ids: {}",
                alike.join(", ")
            ),
        ),
        (None, _) => Text::new(
            format!(
                "ゲームシステム '{id}' はありません。使えるのは {} です",
                ids.join(", ")
            ),
            format!(
                "unknown game system '{id}'; known systems: {}",
                ids.join(", ")
            ),
        ),
    }
    .get(lang)
    .to_string();
    if taku_systems::reference::engine().is_none() {
        message.push_str(if lang == Lang::Ja { "。" } else { "; " });
        message.push_str(taku_systems::reference::how_to_enable().get(lang));
    }
    message
}

/// Parses `6:4,6:1` into scripted draws; a refusal in the reader's language (Japanese
/// unless `--lang` says otherwise).
fn parse_rands(spec: &str) -> Result<Vec<ScriptedDraw>> {
    use taku_dice::Text;
    let lang = crate::lang::human();
    let refuse = |t: Text| anyhow::anyhow!(t.get(lang).to_string());
    spec.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|pair| {
            let (sides, value) = pair.trim().split_once(':').ok_or_else(|| {
                refuse(Text::new(
                    format!("--rands の '{pair}' は 面数:出目 の形ではありません（例: 6:4）"),
                    format!("--rands entry '{pair}' is not SIDES:VALUE (e.g. 6:4)"),
                ))
            })?;
            let sides: u32 = sides.parse().map_err(|_| {
                refuse(Text::new(
                    format!("--rands: '{sides}' はダイスの面数ではありません（1 以上の整数）"),
                    format!("--rands: '{sides}' is not a number of sides"),
                ))
            })?;
            let value: u32 = value.parse().map_err(|_| {
                refuse(Text::new(
                    format!("--rands: '{value}' はダイスの出目ではありません（1 以上の整数）"),
                    format!("--rands: '{value}' is not a die value"),
                ))
            })?;
            if value == 0 || value > sides {
                return Err(refuse(Text::new(
                    format!("--rands: d{sides} に {value} の目はありません（1〜{sides}）"),
                    format!("--rands: {value} is not a face of a d{sides}"),
                )));
            }
            Ok(ScriptedDraw { sides, value })
        })
        .collect()
}

/// Runs `taku roll`. `Ok(false)` when a command gave no result.
pub fn run(args: &RollArgs) -> Result<bool> {
    let system = system(&args.system)?;
    let mut source: Box<dyn DiceSource> = match (&args.rands, args.seed) {
        (Some(spec), _) => Box::new(ScriptedSource::new(parse_rands(spec)?)),
        (None, Some(seed)) => Box::new(ChaChaSource::from_seed(seed)),
        (None, None) => Box::new(
            ChaChaSource::from_os()
                .context("cannot seed the dice from the operating system")?
                .0,
        ),
    };
    let mode = if args.strict {
        Mode::Strict
    } else {
        Mode::Normalize
    };

    if args.command == ["-"] {
        return batch(system, source.as_mut(), mode, args.json);
    }
    let input = args.command.join(" ");
    let result = taku_systems::evaluate(system, &input, source.as_mut(), mode);
    match (&result, args.json) {
        (Ok(r), true) => println!("{}", render::json(r)),
        (Ok(r), false) => println!("{}", shown(system, &r.text, mode)),
        (Err(e), true) => println!("{}", render::json_error(e)),
        (Err(e), false) => eprint!("{}", render::error_report(&input, e, system)),
    }
    Ok(result.is_ok())
}

/// A result's text for a person, in the language asked for (`--lang`): a system's own
/// test text in English where it has one (LotR's, as an English table shows it). Strict
/// mode and JSON keep the text as rolled (BCDice's text; common commands are never
/// rewritten).
fn shown<'t>(system: &dyn GameSystem, text: &'t str, mode: Mode) -> std::borrow::Cow<'t, str> {
    if mode == Mode::Strict {
        return text.into();
    }
    taku_systems::roll_text(system, text, crate::lang::human())
}

/// One command per stdin line, one result per stdout line. Output is flushed whenever no
/// more input is waiting, so an interactive caller sees each result at once while a piped
/// batch is written in large blocks.
fn batch(
    system: &dyn GameSystem,
    source: &mut dyn DiceSource,
    mode: Mode,
    json: bool,
) -> Result<bool> {
    let mut stdin = std::io::BufReader::with_capacity(64 * 1024, std::io::stdin().lock());
    let mut out = crate::out::Stdout::buffered(64 * 1024);
    let mut all_ok = true;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if stdin.read_until(b'\n', &mut buf).context("reading stdin")? == 0 {
            break;
        }
        let raw = String::from_utf8_lossy(&buf);
        let line = raw.strip_suffix('\n').unwrap_or(&raw);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let result = taku_systems::evaluate(system, line, &mut *source, mode);
        all_ok &= result.is_ok();
        match (&result, json) {
            (Ok(r), true) => writeln!(out, "{}", render::json(r))?,
            (Ok(r), false) => writeln!(out, "{}", shown(system, &r.text, mode))?,
            (Err(e), true) => writeln!(out, "{}", render::json_error(e))?,
            (Err(e), false) => {
                let lang = crate::lang::human();
                let error = if lang == taku_dice::Lang::Ja {
                    "エラー"
                } else {
                    "error"
                };
                writeln!(out, "{error}: {}", e.text().get(lang))?
            }
        }
        if stdin.buffer().is_empty() {
            out.flush()?;
        }
    }
    out.flush()?;
    Ok(all_ok)
}
