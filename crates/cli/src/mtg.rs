//! `taku mtg`: the MTG-based TRPG's checks and odds from the command line, and the card
//! database index.

use crate::mtg_cards;
use anyhow::{Context, Result, bail};
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde_json::json;
use std::path::PathBuf;
use taku_dice::{ChaChaSource, Roller};
use taku_systems::another_world::af_odds::percent;
use taku_systems::mtg_trpg::card::{Card, CardDb};
use taku_systems::mtg_trpg::check::{self, BoostPlan};
use taku_systems::mtg_trpg::deck;
use taku_systems::mtg_trpg::odds::{CheckKind, check_odds, odds_table};

/// `taku mtg …`
#[derive(Debug, clap::Subcommand)]
pub enum MtgCommand {
    /// Make one action check (MT-2) on an explicit library order, top card first.
    Check {
        /// The library, top first, names separated by `;` ("Elvish Mystic; Runeclaw Bear").
        #[arg(long)]
        library: String,
        /// The check's colour: white/blue/black/red/green/colourless (W U B R G C, 白 青 黒 赤 緑 無色).
        #[arg(long = "color", visible_alias = "colour")]
        color: String,
        /// Difficulty (usually 0 to 8; full-width digits read too).
        #[arg(long, allow_hyphen_values = true)]
        difficulty: String,
        /// Boost if the check would fail otherwise (once per turn, 6+ cards).
        #[arg(long)]
        boost: bool,
        /// How many top cards the player knows (exiled first, returned on top).
        #[arg(long, default_value_t = 0)]
        known: usize,
        /// Seed for the random parts (a multicolour card's colour, the bottom order).
        #[arg(long)]
        seed: Option<u64>,
        /// Card index (default: $TAKU_CARDS or ~/.local/share/taku/cards.idx if present).
        #[arg(long)]
        index: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The exact success probability of a check with a deck (MT-3).
    Odds {
        /// Deck list file (`4 Llanowar Elves` lines; the sideboard is left out).
        #[arg(long)]
        deck: PathBuf,
        /// The check's colour (required unless --table).
        #[arg(long = "color", visible_alias = "colour")]
        color: Option<String>,
        /// Difficulty (required unless --table; full-width digits read too).
        #[arg(long, allow_hyphen_values = true)]
        difficulty: Option<String>,
        /// Count on a boost when the check would fail otherwise.
        #[arg(long)]
        boost: bool,
        /// Every colour × difficulty 0–8.
        #[arg(long)]
        table: bool,
        /// Card index.
        #[arg(long)]
        index: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Build the card index from an MTGJSON AtomicCards file or a Scryfall bulk file.
    Cards {
        /// The bulk file to read.
        #[arg(long)]
        load: PathBuf,
        /// Where to write the index (default: $TAKU_CARDS or ~/.local/share/taku/cards.idx).
        #[arg(long)]
        index: Option<PathBuf>,
    },
}

fn kind(text: &str) -> Result<CheckKind> {
    CheckKind::parse(text).ok_or_else(|| {
        human(taku_dice::Text::new(
            format!("判定の種類「{text}」はありません。白/青/黒/赤/緑/無色（白判定…色のない判定、white/blue/black/red/green/colourless）のいずれかです"),
            format!("unknown colour '{text}'; use white, blue, black, red, green or colourless (W U B R G C, 白 青 黒 赤 緑 無色, 緑判定, 色のない判定)"),
        ))
    })
}

/// A difficulty as typed (`3`, `-1`, full-width `３`), or why it is none — in the
/// language of human output, as the table says it (issue 13 play-through: clap's English
/// error for `３`).
fn difficulty(text: &str) -> Result<i64> {
    let folded: String = text
        .trim()
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            '－' | '−' => '-',
            '＋' => '+',
            c => c,
        })
        .collect();
    folded.parse::<i64>().ok().filter(|d| d.abs() <= 1_000_000).ok_or_else(|| {
        human(taku_dice::Text::new(
            format!("--difficulty: 「{text}」は難易度ではありません（整数、ふつうは0〜8、MT-2）"),
            format!("--difficulty: '{text}' is not a difficulty (a whole number, usually 0 to 8, MT-2)"),
        ))
    })
}

/// An error in the language of human output (Japanese unless `--lang en`).
fn human(text: taku_dice::Text) -> anyhow::Error {
    anyhow::anyhow!(text.get(crate::lang::human()).to_string())
}

fn db(index: Option<&PathBuf>) -> Result<CardDb> {
    mtg_cards::load_db(index.map(PathBuf::as_path))
}

/// Runs `taku mtg …`.
pub fn run(cmd: MtgCommand) -> Result<bool> {
    match cmd {
        MtgCommand::Check {
            library,
            color,
            difficulty,
            boost,
            known,
            seed,
            index,
            json,
        } => {
            let kind = kind(&color)?;
            let difficulty = self::difficulty(&difficulty)?;
            let db = db(index.as_ref())?;
            let list: Vec<String> = library
                .split(';')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(|n| format!("1 {n}"))
                .collect();
            let cards = deck::parse(&list.join("\n"), &db)
                .map_err(|e| human(e.text()))?
                .main;
            let mut source = match seed {
                Some(s) => ChaChaSource::from_seed(s),
                None => {
                    ChaChaSource::from_os()
                        .context("cannot draw a seed from the operating system")?
                        .0
                }
            };
            let mut dice = Roller::new(&mut source);
            let plan = if boost {
                BoostPlan::IfFailing
            } else {
                BoostPlan::No
            };
            let o = check::check(&cards, known, kind, difficulty, plan, true, &mut dice)
                .map_err(|e| human(e.text()))?;
            let order: Vec<&str> = o.library.iter().map(|c| c.name.as_str()).collect();
            if json {
                println!(
                    "{}",
                    json!({
                        "ok": true,
                        "text": check::describe(&o),
                        "success": o.success,
                        "failure": !o.success,
                        "target_card": o.target_card.name,
                        "target": o.target,
                        "achievement_card": o.achievement_card.name,
                        "counted_as": o.counted_as.map(|c| c.letter().to_string()),
                        "modifier": o.modifier,
                        "boost": o.boost.as_ref().map(|b| json!({
                            "cards": b.cards.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
                            "plus": b.plus,
                        })),
                        "achievement": o.achievement,
                        "library": order,
                        "exiled": o.boost.as_ref().map(|b| b.cards.iter().map(|c| c.name.as_str()).collect::<Vec<_>>()).unwrap_or_default(),
                    })
                );
            } else {
                println!("{}", check::describe(&o));
                println!("ライブラリー（上から）: {}", order.join("; "));
                if let Some(b) = &o.boost {
                    println!(
                        "追放中（ターン終了時にライブラリーの一番下へ）: {}",
                        check::names(&b.cards)
                    );
                }
            }
            // A failed check is a result, not an error.
            Ok(true)
        }
        MtgCommand::Odds {
            deck: path,
            color,
            difficulty,
            boost,
            table,
            index,
            json,
        } => {
            let db = db(index.as_ref())?;
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read deck list {}", path.display()))?;
            let cards = deck::parse(&text, &db)
                .map_err(|e| human(e.text()))
                .with_context(|| format!("{}", path.display()))?
                .main;
            if table {
                print_table(&cards, boost, json)?;
                return Ok(true);
            }
            let (Some(color), Some(difficulty)) = (color, difficulty) else {
                bail!(
                    "give --color and --difficulty, or --table for every colour × difficulty 0–8"
                );
            };
            let kind = kind(&color)?;
            let difficulty = self::difficulty(&difficulty)?;
            let odds = check_odds(&cards, kind, difficulty, boost).map_err(|e| human(e.text()))?;
            if json {
                println!(
                    "{}",
                    json!({
                        "ok": true,
                        "kind": check::kind_name(kind),
                        "difficulty": difficulty,
                        "boost": boost,
                        "success": odds.success.to_string(),
                        "success_percent": percent(&odds.success),
                        "boost_used": odds.boost_used.to_string(),
                    })
                );
            } else {
                println!(
                    "{}（難易度{difficulty}{}）: 成功確率 {} = {}",
                    check::kind_name(kind),
                    if boost { "、ブーストあり" } else { "" },
                    percent(&odds.success),
                    odds.success
                );
                // MT-3 「PLが判定の結果が分かっている、推測できる場合…行動判定を行うことが
                // できません」: from the deck alone the result is known.
                if odds.success.is_zero() || odds.success.is_one() {
                    println!(
                        "{}",
                        taku_dice::Text::new(
                            "（結果が決まっているので、テーブルではこの判定は行なえません（MT-3）。GMは force をつけて行なえます）",
                            "(the result is certain, so a table does not make this check (MT-3); the GM may add 'force')",
                        )
                        .get(crate::lang::human())
                    );
                }
            }
            Ok(true)
        }
        MtgCommand::Cards { load, index } => {
            let index = index.unwrap_or_else(mtg_cards::default_index_path);
            let n = mtg_cards::build_index(&load, &index)?;
            println!("{n} cards indexed in {}", index.display());
            Ok(true)
        }
    }
}

fn print_table(cards: &[Card], boost: bool, json: bool) -> Result<()> {
    let rows = odds_table(cards, boost).map_err(|e| human(e.text()))?;
    if json {
        let rows: Vec<_> = rows
            .iter()
            .map(|(kind, cells)| {
                json!({
                    "kind": check::kind_name(*kind),
                    "success": cells.iter().map(|(d, p)| json!({"difficulty": d, "success": p.to_string(), "percent": percent(p)})).collect::<Vec<_>>(),
                })
            })
            .collect();
        println!("{}", json!({"ok": true, "boost": boost, "rows": rows}));
        return Ok(());
    }
    let header: Vec<String> = rows
        .first()
        .map(|(_, cells)| cells.iter().map(|(d, _)| format!("{d:>8} ")).collect())
        .unwrap_or_default();
    // Padded by display width (each Japanese character is two columns), as the rows are.
    let label = "難易度";
    println!(
        "{label}{}{}",
        " ".repeat(14usize.saturating_sub(label.chars().count() * 2)),
        header.join("")
    );
    for (kind, cells) in &rows {
        // A certain result is marked: a table refuses such a check (MT-3).
        let cells: Vec<String> = cells
            .iter()
            .map(|(_, p): &(i64, BigRational)| {
                let mark = if p.is_zero() || p.is_one() { "*" } else { " " };
                format!("{:>8}{mark}", percent(p))
            })
            .collect();
        // Japanese names are two columns wide each.
        let name = check::kind_name(*kind);
        let pad = 14usize.saturating_sub(name.chars().count() * 2);
        println!("{name}{}{}", " ".repeat(pad), cells.join(""));
    }
    if rows
        .iter()
        .flat_map(|(_, cells)| cells)
        .any(|(_, p)| p.is_zero() || p.is_one())
    {
        println!(
            "{}",
            taku_dice::Text::new(
                "* 結果が決まっている判定: テーブルでは行なえません（MT-3。GMは force で行なえます）",
                "* the result is certain: a table does not make this check (MT-3; the GM may force it)",
            )
            .get(crate::lang::human())
        );
    }
    Ok(())
}
