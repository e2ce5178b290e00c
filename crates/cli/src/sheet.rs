//! `taku sheet`: reads a character sheet, prints it with its derived values and every rule
//! it breaks. The rules live in the system's sheet module; this file reads the file and
//! prints.

use anyhow::{Context, Result};
use std::path::PathBuf;
use taku_systems::GameSystem;
use taku_systems::another_world::AnotherWorld;
use taku_systems::another_world::sheet::Sheet;
use taku_systems::four_card::{FourCard, sheet::Sheet as FcSheet};
use taku_systems::lotr_coda::{LotrCoda, sheet::Sheet as LotrSheet};

/// Arguments of `taku sheet`.
#[derive(Debug, clap::Args)]
pub struct SheetArgs {
    /// Game system id, as listed by `taku systems` (sheets exist for: AnotherWorld, FourCard,
    /// LotrCoda, Sengensyou).
    #[arg(long)]
    system: String,
    /// The sheet, a TOML file.
    file: PathBuf,
    /// Print the sheet, its derived values and its violations as JSON.
    #[arg(long)]
    json: bool,
}

/// Prints the sheet's report; `Ok(false)` when it breaks any rule.
pub fn run(args: &SheetArgs) -> Result<bool> {
    let system = crate::roll::system(&args.system)?;
    if system.id() == taku_systems::sengensyou::Sengensyou.id() {
        return sengensho(args);
    }
    // Issue 13: this listing answered in English whatever the reader's language; it
    // follows the CLI's language rule (`--lang`, `LANG`, else Japanese).
    let lang = crate::lang::human();
    if system.id() != AnotherWorld.id()
        && system.id() != FourCard.id()
        && system.id() != LotrCoda.id()
    {
        let (aw, fc, lotr) = (AnotherWorld.id(), FourCard.id(), LotrCoda.id());
        let id = system.id();
        // The MTG-based TRPG keeps a library, not a sheet (MT-1: a deck list).
        let mtg = id == taku_systems::mtg_trpg::MtgTrpg.id();
        anyhow::bail!(
            "{}",
            taku_dice::Text::new(
                format!(
                    "{id} にはキャラクターシートがありません。シートがあるのは {aw}、{fc}、{lotr}、Sengensyou です{}",
                    if mtg {
                        "（このシステムのPCはライブラリーで、テーブルで /deck load PC名 デッキリスト で作ります。MT-1）"
                    } else {
                        ""
                    }
                ),
                format!(
                    "{id} has no character sheet; sheets exist for: {aw}, {fc}, {lotr}, Sengensyou{}",
                    if mtg {
                        " (a PC of this system is its library, made at a table with /deck load PC LIST; MT-1)"
                    } else {
                        ""
                    }
                ),
            )
            .get(lang)
        );
    }
    let file = args.file.display();
    let text = std::fs::read_to_string(&args.file).with_context(|| {
        taku_dice::Text::new(
            format!("{file} を読めません"),
            format!("cannot read {file}"),
        )
        .get(lang)
        .to_string()
    })?;
    if system.id() == LotrCoda.id() {
        let sheet = LotrSheet::from_toml(&text).map_err(|e| {
            anyhow::anyhow!(
                "{}",
                LotrSheet::parse_error(Some(&file.to_string()), &e).get(lang)
            )
        })?;
        if args.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&sheet.report(lang))
                    .context("serialising the report")?
            );
        } else {
            print!("{}", sheet.render(lang));
        }
        return Ok(sheet.violations().is_empty());
    }
    if system.id() == FourCard.id() {
        let sheet = FcSheet::from_toml(&text).map_err(|e| {
            anyhow::anyhow!(
                "{}",
                taku_dice::Text::new(
                    format!(
                        "{file} はフォーカードのキャラクターシートとして読めません: {}",
                        e.ja()
                    ),
                    format!("{file} is not a Four Card character sheet: {}", e.en()),
                )
                .get(lang)
            )
        })?;
        if args.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&sheet.report(lang))
                    .context("serialising the report")?
            );
        } else {
            print!("{}", sheet.render(lang));
        }
        return Ok(sheet.violations().is_empty());
    }
    let sheet = Sheet::from_toml(&text).map_err(|e| {
        let e = e.text();
        anyhow::anyhow!(
            "{}",
            taku_dice::Text::new(
                format!(
                    "{file} は Another World のキャラクターシートとして読めません: {}",
                    e.ja()
                ),
                format!("{file} is not a character sheet: {}", e.en()),
            )
            .get(lang)
        )
    })?;
    let report = sheet.report();
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).context("serialising the report")?
        );
    } else {
        print!("{}", sheet.render_in(lang));
    }
    Ok(report.violations.is_empty())
}

/// `taku sheet --system Sengensyou FILE`: the sheet as a table stores it, types the
/// example list lacks noted, and every rule it breaks (SG-1, SG-6, the fields the rules
/// keep), in the reader's language (Japanese by default).
fn sengensho(args: &SheetArgs) -> Result<bool> {
    let lang = crate::lang::human();
    let file = args.file.display();
    let text = std::fs::read_to_string(&args.file).with_context(|| {
        taku_dice::Text::new(
            format!("{file} を読めません"),
            format!("cannot read {file}"),
        )
        .get(lang)
        .to_string()
    })?;
    match taku_systems::sengensyou::sheet::read(&text) {
        Ok(sheet) => {
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&sheet.report(lang))
                        .context("serialising the report")?
                );
            } else {
                print!("{}", sheet.render(lang));
            }
            Ok(true)
        }
        Err(violations) => {
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&serde_json::json!({ "violations": violations }))
                        .context("serialising the report")?
                );
            } else {
                for v in &violations {
                    println!("{file}: {}", v.text().get(lang));
                }
            }
            Ok(false)
        }
    }
}
