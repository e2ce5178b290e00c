//! The language of the CLI's human output: `--lang` (or `TAKU_LANG`), else the locale's
//! (`LANG`: `ja_…` or `en_…`), else Japanese — at a table, the table's own language.

use std::sync::OnceLock;
use taku_dice::Lang;

static CHOSEN: OnceLock<Option<Lang>> = OnceLock::new();

/// Settles the language once, from `--lang`/`TAKU_LANG` if given, else `LANG`. `Err`
/// names a value that is no language.
pub fn init(arg: Option<&str>) -> Result<(), String> {
    let chosen = match arg {
        Some(a) => Some(Lang::parse(a).ok_or_else(|| {
            format!("--lang: '{a}' は taku の言語ではありません。ja か en です / '{a}' is not a language taku speaks: ja or en")
        })?),
        None => std::env::var("LANG")
            .ok()
            .and_then(|l| Lang::from_locale(&l)),
    };
    let _ = CHOSEN.set(chosen);
    Ok(())
}

/// The language asked for, if any (for table output, `None` means the table's language).
pub fn chosen() -> Option<Lang> {
    CHOSEN.get().copied().flatten()
}

/// The language for output that belongs to no table: the one asked for, else Japanese.
pub fn human() -> Lang {
    chosen().unwrap_or(Lang::Ja)
}

/// Reads `--table-lang`: a table's language, ja or en (the message names both).
pub fn parse_table_lang(arg: &str) -> Result<Lang, String> {
    Lang::parse(arg).ok_or_else(|| {
        format!("'{arg}' は卓の言語ではありません。ja か en です / '{arg}' is not a table language: ja or en")
    })
}
