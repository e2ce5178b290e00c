//! `taku prob`: the exact probability of any command — P(success), P(critical),
//! P(fumble), mean, standard deviation, the whole distribution as a table and a bar
//! chart (SVG with `--plot`), or the chance of success per target (`--vs-difficulty`).

use anyhow::{Context, Result, bail};
use num_traits::Zero;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use taku_dice::odds::{Limits, Odds, Prob, Summary, to_f64};
use taku_systems::GameSystem;

/// `taku prob` arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  taku prob '2D6+4>=10'
  taku prob --system SRS --vs-difficulty 5..12 '2D6+2'
  taku prob --system AnotherWorld 'AW+5 VS AW+3'
  taku prob '100D6' --plot sum.svg
  taku prob --system AnotherWorld --af 3,4,2,5 --difficulty 40 --rounds 3   # an AF check (AW-7)
  taku prob --system LotrCoda --battle 0 --rounds 5                 # a battle's Victory within 5 rounds (LR-15)
  taku prob --system LotrCoda --battle -1 --rounds 8 --siegecraft 3,2")]
pub struct ProbArgs {
    /// The command, as you would roll it (`2D6+2>=10`, `AW+3>=10`, `4D6KH3`).
    #[arg(required_unless_present_any = ["af", "battle"])]
    command: Option<String>,
    /// Another World's AF check instead of a command (AW-7): the party's judgement values
    /// in action order, each `VALUE` or `VALUE/CRITICAL/FUMBLE` (e.g. `3,4/11/2,2`).
    #[arg(long, value_name = "PARTY", requires_all = ["difficulty", "rounds"])]
    af: Option<String>,
    /// The AF check's difficulty (the running total to reach). Read by taku, not clap,
    /// so that full-width digits fold and a bad value is refused in the user's language.
    #[arg(long, allow_hyphen_values = true)]
    difficulty: Option<String>,
    /// The AF check's rounds (each PC rolls once a round), 1 to 20; a battle's rounds.
    #[arg(long, allow_hyphen_values = true)]
    rounds: Option<String>,
    /// The AF check's running total so far.
    #[arg(long, default_value = "0", allow_hyphen_values = true)]
    start: String,
    /// The Lord of the Rings RPG's battle (LR-15) instead of a command: the state it
    /// stands at, −3 (Losing) to +3 (Winning), 0 Even; with --rounds N, the exact chance
    /// of Victory, of Defeat and of neither within N rounds (a Markov chain, no sampling).
    #[arg(
        long,
        value_name = "STATE",
        allow_hyphen_values = true,
        requires = "rounds",
        conflicts_with = "af"
    )]
    battle: Option<i64>,
    /// With --battle: the commanders' Siegecraft ranks added to each side's 2d6, PCs'
    /// side first (`PC,FOE`; the GM option `battle_siegecraft`).
    #[arg(long, value_name = "PC,FOE", requires = "battle")]
    siegecraft: Option<String>,
    /// Game system id (see `taku systems`).
    #[arg(long, default_value = "DiceBot")]
    system: String,
    /// Print JSON (exact fractions as strings, decimals as numbers).
    #[arg(long)]
    json: bool,
    /// Also draw the distribution (with --vs-difficulty: the chance of success per target)
    /// as an SVG bar chart into this file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<std::path::PathBuf>,
    /// Success chance per target A..B: `{T}` in the command is replaced by each target,
    /// or `>=T` is appended (`taku prob --vs-difficulty 5..12 '2D6+2'`).
    #[arg(long, value_name = "A..B")]
    vs_difficulty: Option<String>,
    /// Most draws in one roll before an exploding sequence is cut (its probability is
    /// reported as the tail).
    #[arg(long, default_value_t = 64)]
    depth: usize,
}

/// Whether `system`'s report is in Japanese: Another World's and the MTG-based TRPG's
/// follow the language of human output (Japanese unless `--lang en`, issue 13).
fn japanese(system: &dyn GameSystem) -> bool {
    matches!(system.id(), "AnotherWorld" | "MtgTrpg") && crate::lang::human() == taku_dice::Lang::Ja
}

/// `ja` or `en` for `system`'s report.
fn say<'a>(system: &dyn GameSystem, ja: &'a str, en: &'a str) -> &'a str {
    if japanese(system) { ja } else { en }
}

/// The columns `label` takes on a terminal (a Japanese character takes two).
fn cols(label: &str) -> usize {
    label
        .chars()
        .map(|c| if c.is_ascii() { 1 } else { 2 })
        .sum()
}

/// `label` padded to `width` columns.
fn pad(label: &str, width: usize) -> String {
    format!("{label}{}", " ".repeat(width.saturating_sub(cols(label))))
}

/// An error in the human language, Japanese and English given.
fn both(ja: impl Into<String>, en: impl Into<String>) -> anyhow::Error {
    anyhow::anyhow!("{}", taku_dice::Text::new(ja, en).get(crate::lang::human()))
}

/// A whole number given to `flag`, full-width digits and signs read as ASCII, within
/// `lo..=hi`; otherwise refused in the user's language, saying the range (issue 13
/// play-through 4: clap's errors were English only and refused `５０`).
fn whole(flag: &str, what_ja: &str, what_en: &str, value: &str, lo: i64, hi: i64) -> Result<i64> {
    let folded: String = value
        .trim()
        .chars()
        .map(|c| match c {
            '０'..='９' | '＋' | '－' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '−' => '-',
            c => c,
        })
        .collect();
    let shown: String = value.chars().take(20).collect();
    match folded.parse::<i64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(both(
            format!("{flag}: 「{shown}」は{what_ja}ではありません（{lo}〜{hi}の整数）"),
            format!(
                "{flag}: '{shown}' is not a valid {what_en} (a whole number from {lo} to {hi})"
            ),
        )),
    }
}

/// Runs `taku prob`.
pub fn run(args: &ProbArgs) -> Result<bool> {
    let system = crate::roll::system(&args.system)?;
    // The table's bound for an AF check's rounds (/af start), a generous one for a battle.
    let most = match args.af {
        Some(_) => i64::from(taku_systems::another_world::af::MAX_ROUNDS),
        None => 1_000,
    };
    let rounds = args
        .rounds
        .as_deref()
        .map(|r| whole("--rounds", "ラウンド数", "rounds", r, 1, most))
        .transpose()?
        .map(|r| r as u32);
    if let (Some(party), Some(difficulty), Some(rounds)) = (&args.af, &args.difficulty, rounds) {
        // The table's bounds (/af start): 1 to 20 rounds, a difficulty within ±1,000,000.
        let difficulty = whole(
            "--difficulty",
            "難易度",
            "difficulty",
            difficulty,
            -1_000_000,
            1_000_000,
        )?;
        let start = whole(
            "--start",
            "今の合計",
            "start",
            &args.start,
            -1_000_000,
            1_000_000,
        )?;
        if args.plot.is_some() {
            bail!(
                "--plot draws a command's distribution or its --vs-difficulty chances; an AF check (--af) has no plot"
            );
        }
        return af(system, party, difficulty, rounds, start, args.json);
    }
    if let (Some(start), Some(rounds)) = (args.battle, rounds) {
        if args.plot.is_some() {
            bail!("--battle gives three chances; it has no plot");
        }
        return battle(system, start, rounds, args.siegecraft.as_deref(), args.json);
    }
    let command = args.command.as_deref().unwrap_or_default();
    if system.id() == "MtgTrpg" && !command.is_empty() {
        // MT-2 checks are drawn from a PC's library, not rolled: their odds need the deck.
        if taku_systems::odds(system, command, Limits::default()).is_err() {
            return Err(both(
                "MTGベースTRPGの行動判定はダイスではなくライブラリーのカードで決まります。正確な確率は `taku mtg odds --deck ファイル --color 色 --difficulty 難易度` で求められます",
                "the MTG-based TRPG's checks draw from a library, not dice: `taku mtg odds --deck FILE --color C --difficulty N` gives their exact odds",
            ));
        }
    }
    if !(1..=1000).contains(&args.depth) {
        bail!("--depth must be 1 to 1000 draws, not {}", args.depth);
    }
    let limits = Limits {
        max_draws: args.depth,
        ..Limits::default()
    };
    if let Some(range) = &args.vs_difficulty {
        return vs_difficulty(
            system,
            command,
            range,
            limits,
            args.json,
            args.plot.as_deref(),
        );
    }
    let odds = compute(system, command, limits)?;
    let summary = odds.summary();
    // LotR (CODA): each degree's chance and the exact mean, explosions followed to the end.
    let degrees = (system.id() == "LotrCoda")
        .then(|| taku_systems::lotr_coda::odds::report_text(command, crate::lang::human()))
        .flatten();
    if args.json {
        let mut json = to_json(system, command, &odds, &summary);
        if let Some(d) = &degrees {
            json["degrees"] = json!(d);
        }
        println!("{json}");
    } else {
        print!("{}", report(system, command, &odds, &summary));
        if let Some(d) = &degrees {
            print!("\n{d}");
        }
    }
    if let Some(path) = &args.plot {
        let bars: Vec<(i64, f64)> = summary
            .values
            .iter()
            .map(|(v, p)| (*v, to_f64(p)))
            .collect();
        write_plot(path, &svg(command, &bars, None))?;
    }
    Ok(true)
}

fn write_plot(path: &std::path::Path, svg: &str) -> Result<()> {
    std::fs::write(path, svg)
        .with_context(|| format!("cannot write the plot to {}", path.display()))
}

fn compute(system: &dyn GameSystem, command: &str, limits: Limits) -> Result<Odds> {
    taku_systems::odds(system, command, limits).map_err(|e| {
        if japanese(system) {
            both(
                format!(
                    "'{command}' の確率を求められません: {}",
                    match &e {
                        taku_dice::odds::OddsError::Eval(e) => e.text().ja().to_string(),
                        taku_dice::odds::OddsError::TooMany(n) => format!(
                            "振り方が{n}通りを超え、正確に数え切れません（ダイスを減らすか --depth を小さくしてください）"
                        ),
                        taku_dice::odds::OddsError::TextOnly =>
                            "結果が文字だけのコマンドで、数や成否がありません".to_string(),
                    }
                ),
                format!("cannot compute the odds of '{command}': {e}"),
            )
        } else {
            anyhow::anyhow!("cannot compute the odds of '{command}': {e}")
        }
    })
}

/// `a/b`, reduced.
fn fraction(p: &Prob) -> String {
    if p.is_zero() {
        "0".into()
    } else if p.denom() == &num_bigint::BigUint::from(1u8) {
        p.numer().to_string()
    } else {
        format!("{}/{}", p.numer(), p.denom())
    }
}

/// A fraction for people: short ones exactly, long ones (100D6's) as a decimal only.
fn shown(p: &Prob) -> String {
    let f = fraction(p);
    let pct = to_f64(p) * 100.0;
    if f.len() <= 21 {
        format!("{f:>13} = {pct:9.5}%")
    } else {
        format!("{:>13} ≈ {pct:9.5}%", "")
    }
}

fn tail_note(odds: &Odds) -> Option<String> {
    (!odds.tail.is_zero()).then(|| {
        format!(
            "rolls needing more than {} draws or less likely than 1/{} were cut: tail {} ≈ {:.3e}, not in the figures above",
            odds.max_draws,
            odds.cut_below,
            if fraction(&odds.tail).len() <= 40 { fraction(&odds.tail) } else { "(long fraction)".into() },
            to_f64(&odds.tail)
        )
    })
}

/// The human report: flags, moments, the distribution table with bars.
fn report(system: &dyn GameSystem, command: &str, odds: &Odds, s: &Summary) -> String {
    let mut out = format!("{command}  ({})\n", system.id());
    // Another World (AW-1): a critical is an automatic success, a fumble an automatic
    // failure; in Japanese the seed's words.
    let (success, failure, critical, fumble) = if japanese(system) {
        ("成功", "失敗", "クリティカル", "ファンブル")
    } else {
        ("P(success)", "P(failure)", "P(critical)", "P(fumble)")
    };
    let width = [success, failure, critical, fumble]
        .iter()
        .map(|l| cols(l))
        .max()
        .unwrap_or(11);
    if s.has_verdict {
        out.push_str(&format!("{} {}\n", pad(success, width), shown(&s.success)));
        out.push_str(&format!("{} {}\n", pad(failure, width), shown(&s.failure)));
    }
    if !s.critical.is_zero() || !s.fumble.is_zero() {
        out.push_str(&format!(
            "{} {}\n",
            pad(critical, width),
            shown(&s.critical)
        ));
        out.push_str(&format!("{} {}\n", pad(fumble, width), shown(&s.fumble)));
    }
    if let (Some(mean), Some(sd)) = (s.mean, s.sd) {
        if japanese(system) {
            out.push_str(&format!("平均 {mean:.4}  標準偏差 {sd:.4}\n"));
        } else {
            out.push_str(&format!("mean {mean:.4}  sd {sd:.4}\n"));
        }
    }
    if !s.values.is_empty() {
        out.push('\n');
        let top = s.values.values().map(to_f64).fold(0.0, f64::max);
        for (v, p) in &s.values {
            let width = if top > 0.0 {
                (to_f64(p) / top * 40.0).round() as usize
            } else {
                0
            };
            out.push_str(&format!("{v:>6}  {}  {}\n", shown(p), "█".repeat(width)));
        }
    }
    if let Some(note) = tail_note(odds) {
        out.push_str(&format!("\n{note}\n"));
    }
    out
}

fn prob_json(p: &Prob) -> Value {
    json!({"fraction": fraction(p), "probability": to_f64(p)})
}

fn to_json(system: &dyn GameSystem, command: &str, odds: &Odds, s: &Summary) -> Value {
    let distribution: Vec<Value> = s
        .values
        .iter()
        .map(|(v, p)| json!({"value": v, "fraction": fraction(p), "probability": to_f64(p)}))
        .collect();
    json!({
        "command": command,
        "system": system.id(),
        "success": s.has_verdict.then(|| prob_json(&s.success)),
        "failure": s.has_verdict.then(|| prob_json(&s.failure)),
        "critical": prob_json(&s.critical),
        "fumble": prob_json(&s.fumble),
        "mean": s.mean,
        "sd": s.sd,
        "distribution": distribution,
        "tail": prob_json(&odds.tail),
        "max_draws": odds.max_draws,
    })
}

/// `A..B` as an inclusive range of targets (at most 1,000 of them).
fn parse_range(range: &str) -> Result<std::ops::RangeInclusive<i64>> {
    let bad = || {
        anyhow::anyhow!(
            "--vs-difficulty wants A..B with whole numbers A ≤ B (e.g. 5..12), not '{range}'"
        )
    };
    let (a, b) = range.split_once("..").ok_or_else(bad)?;
    let (a, b): (i64, i64) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if a > b || b - a > 1000 {
        return Err(bad());
    }
    Ok(a..=b)
}

fn vs_difficulty(
    system: &dyn GameSystem,
    command: &str,
    range: &str,
    limits: Limits,
    json: bool,
    plot: Option<&std::path::Path>,
) -> Result<bool> {
    let range = parse_range(range)?;
    let mut rows = BTreeMap::new();
    for t in range {
        let line = if command.contains("{T}") {
            command.replace("{T}", &t.to_string())
        } else {
            format!("{command}>={t}")
        };
        let s = compute(system, &line, limits)?.summary();
        if !s.has_verdict {
            bail!(
                "'{line}' gives no success or failure: write the target's place as {{T}} (e.g. 'SGS+2@{{T}}')"
            );
        }
        rows.insert(t, (line, s));
    }
    if let Some(path) = plot {
        let bars: Vec<(i64, f64)> = rows
            .iter()
            .map(|(t, (_, s))| (*t, to_f64(&s.success)))
            .collect();
        let title = format!("{command}: P(success) per target");
        write_plot(path, &svg(&title, &bars, Some(1.0)))?;
    }
    if json {
        let list: Vec<Value> = rows
            .iter()
            .map(|(t, (line, s))| json!({"target": t, "command": line, "success": prob_json(&s.success), "critical": prob_json(&s.critical), "fumble": prob_json(&s.fumble)}))
            .collect();
        println!("{}", json!({"system": system.id(), "targets": list}));
        return Ok(true);
    }
    println!(
        "{command}  ({})\n{}",
        system.id(),
        say(system, " 難易度  成功", " target  P(success)")
    );
    for (t, (_, s)) in &rows {
        let p = to_f64(&s.success);
        println!(
            "{t:>7}  {}  {}",
            shown(&s.success),
            "█".repeat((p * 40.0).round() as usize)
        );
    }
    Ok(true)
}

/// A bar chart, self-contained SVG: one bar per value (a result, or a target) with its
/// probability; bars are scaled to `top`, or to the tallest when `None`.
fn svg(title: &str, bars: &[(i64, f64)], top: Option<f64>) -> String {
    let (w, h, pad) = (640.0, 360.0, 40.0);
    let n = bars.len().max(1) as f64;
    let top = top
        .unwrap_or_else(|| bars.iter().map(|(_, p)| *p).fold(0.0, f64::max))
        .max(f64::MIN_POSITIVE);
    let bar = (w - 2.0 * pad) / n;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"11\">\n<title>{}</title>\n<text x=\"{pad}\" y=\"20\" font-size=\"14\">{}</text>\n",
        escape(title),
        escape(title)
    );
    let label_every = (n / 20.0).ceil().max(1.0) as usize;
    for (i, &(v, p)) in bars.iter().enumerate() {
        let height = p / top * (h - 2.0 * pad - 10.0);
        let x = pad + i as f64 * bar;
        let y = h - pad - height;
        out.push_str(&format!(
            "<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{:.2}\" height=\"{height:.2}\" fill=\"#4a7bd0\"><title>{v}: {:.5}%</title></rect>\n",
            (bar * 0.9).max(0.5),
            p * 100.0
        ));
        if i % label_every == 0 {
            out.push_str(&format!(
                "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"middle\">{v}</text>\n",
                x + bar / 2.0,
                h - pad + 14.0
            ));
        }
    }
    out.push_str("</svg>\n");
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// AW-7: an AF check's exact odds over the party and rounds.
/// LR-15: a battle's exact chance of Victory, Defeat and neither within `rounds` from
/// `start`.
fn battle(
    system: &dyn GameSystem,
    start: i64,
    rounds: u32,
    siegecraft: Option<&str>,
    json: bool,
) -> Result<bool> {
    use taku_systems::lotr_coda::battle_odds::battle_odds;
    let lang = crate::lang::human();
    let say = |ja: String, en: String| taku_dice::Text::new(ja, en).get(lang).to_string();
    if system.id() != "LotrCoda" {
        bail!(
            "{}",
            say(
                "--battle はロード・オブ・ザ・リングの集団戦闘（LR-15）です: --system LotrCoda を付けてください".into(),
                "--battle is The Lord of the Rings RPG's battle (LR-15): add --system LotrCoda".into()
            )
        );
    }
    let siege_usage = || {
        say(
            "--siegecraft には二つのランクを PC,敵 の順で書きます（例: 3,2）".into(),
            "--siegecraft takes two ranks, PC,FOE (e.g. 3,2)".into(),
        )
    };
    let (pc, foe) = match siegecraft {
        None => (0, 0),
        Some(s) => {
            let ranks: Vec<i64> = s
                .split(',')
                .map(|x| x.trim().parse::<i64>())
                .collect::<Result<_, _>>()
                .map_err(|_| anyhow::anyhow!("{}", siege_usage()))?;
            match ranks.as_slice() {
                [a, b] => (*a, *b),
                _ => bail!("{}", siege_usage()),
            }
        }
    };
    let odds =
        battle_odds(start, rounds, pc, foe).map_err(|e| anyhow::anyhow!("{}", e.get(lang)))?;
    let fraction = |p: &num_rational::BigRational| {
        if p.is_zero() {
            "0".to_string()
        } else if p.denom() == &num_bigint::BigInt::from(1) {
            p.numer().to_string()
        } else {
            format!("{}/{}", p.numer(), p.denom())
        }
    };
    let pct = |p: &num_rational::BigRational| {
        use num_traits::ToPrimitive;
        p.to_f64().unwrap_or(0.0) * 100.0
    };
    if json {
        let one =
            |p: &num_rational::BigRational| json!({"exact": fraction(p), "p": pct(p) / 100.0});
        println!(
            "{}",
            json!({
                "system": system.id(),
                "battle": {"start": start, "rounds": rounds, "siegecraft": [pc, foe]},
                "victory": one(&odds.victory),
                "defeat": one(&odds.defeat),
                "undecided": one(&odds.undecided),
            })
        );
    } else {
        let line = |name: &str, p: &num_rational::BigRational| {
            let f = fraction(p);
            if f.len() <= 40 {
                format!("{name:<12} {f} = {:.5}%\n", pct(p))
            } else {
                format!("{name:<12} ≈ {:.5}%\n", pct(p))
            }
        };
        let siege = |ja: bool| {
            if (pc, foe) == (0, 0) {
                String::new()
            } else if ja {
                format!("、Siegecraft {pc} 対 {foe}")
            } else {
                format!(", Siegecraft {pc} vs {foe}")
            }
        };
        let mut out = say(
            format!(
                "LR-15 集団戦闘 戦況 {start:+} から（−3 Losing … 0 Even … +3 Winning）{rounds} ラウンド{}（{}）\n",
                siege(true),
                system.id()
            ),
            format!(
                "LR-15 battle from {start:+} (−3 Losing … 0 Even … +3 Winning), {rounds} rounds{}  ({})\n",
                siege(false),
                system.id()
            ),
        );
        let ja = lang == taku_dice::Lang::Ja;
        out += &line(if ja { "勝利の確率" } else { "P(victory)" }, &odds.victory);
        out += &line(if ja { "敗北の確率" } else { "P(defeat)" }, &odds.defeat);
        out += &line(
            if ja {
                "未決の確率"
            } else {
                "P(undecided)"
            },
            &odds.undecided,
        );
        print!("{out}");
    }
    Ok(true)
}

fn af(
    system: &dyn GameSystem,
    party: &str,
    difficulty: i64,
    rounds: u32,
    start: i64,
    json: bool,
) -> Result<bool> {
    use taku_systems::another_world::af_odds::{AfRoller, af_odds, percent};
    if system.id() != "AnotherWorld" {
        return Err(both(
            "--af はアナザーワールドのAF判定です。--system AnotherWorld をつけてください",
            "--af is Another World's AF check: add --system AnotherWorld",
        ));
    }
    let bad = |pc: &str| {
        both(
            format!(
                "「{pc}」はPCの判定値ではありません。判定値 か 判定値/クリティカル値/ファンブル値 で書きます（例: 3 や 3/11/2）"
            ),
            format!("'{pc}' is not a PC: write VALUE or VALUE/CRITICAL/FUMBLE (e.g. 3 or 3/11/2)"),
        )
    };
    // Full-width digits, commas and slashes read as ASCII (`３，４`).
    let party: String = party
        .chars()
        .map(|c| match c {
            '０'..='９' | '，' | '／' | '－' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '、' => ',',
            c => c,
        })
        .collect();
    let party: Vec<AfRoller> = party
        .split(',')
        .map(|pc| {
            let n: Vec<i64> = pc
                .trim()
                .split('/')
                .map(|x| x.trim().parse().map_err(|_| bad(pc)))
                .collect::<Result<_>>()?;
            match n.as_slice() {
                [v] => Ok(AfRoller::new(*v)),
                [v, c, f] => Ok(AfRoller {
                    value: *v,
                    critical: *c,
                    fumble: *f,
                }),
                _ => Err(bad(pc)),
            }
        })
        .collect::<Result<_>>()?;
    let odds = af_odds(&party, difficulty, rounds, start)
        .map_err(|e| anyhow::anyhow!("{}", e.text().get(crate::lang::human())))?;
    let frac = |p: &num_rational::BigRational| {
        if p.is_zero() {
            "0".to_string()
        } else {
            format!("{}/{}", p.numer(), p.denom())
        }
    };
    let dec = |p: &num_rational::BigRational| {
        use num_traits::ToPrimitive;
        p.to_f64().unwrap_or(0.0)
    };
    if json {
        let j = |p| json!({"fraction": frac(p), "probability": dec(p)});
        println!(
            "{}",
            json!({
                "system": system.id(), "pcs": party.len(), "difficulty": difficulty, "rounds": rounds, "start": start,
                "success": j(&odds.success), "fumble": j(&odds.fumble), "out_of_rounds": j(&odds.out_of_rounds),
            })
        );
        return Ok(true);
    }
    if japanese(system) {
        println!(
            "AF判定: PC{}人、難易度{difficulty}、{rounds}ラウンド、合計{start}から（AnotherWorld、AW-7）",
            party.len()
        );
    } else {
        println!(
            "AF check: {} PCs, difficulty {difficulty}, {rounds} rounds, from {start}  (AnotherWorld, AW-7)",
            party.len()
        );
    }
    for (what, p) in [
        (say(system, "成功", "P(success)"), &odds.success),
        (say(system, "ファンブルで失敗", "P(fumble)"), &odds.fumble),
        (
            say(system, "ラウンド切れで失敗", "P(out of rounds)"),
            &odds.out_of_rounds,
        ),
    ] {
        let f = frac(p);
        let f = if f.len() > 40 {
            String::new()
        } else {
            format!("{f} = ")
        };
        println!("{} {f}{}", pad(what, 17), percent(p));
    }
    Ok(true)
}
