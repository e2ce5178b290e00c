//! The card database on disk (MT-1): `taku mtg cards --load FILE` reads a bulk card file
//! once (MTGJSON or Scryfall, told apart by its first byte) and keeps the cards in a
//! compact index, which later starts read in milliseconds on top of the built-in set.

use anyhow::{Context, Result, bail};
use std::collections::HashMap;
use std::env;
use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use taku_systems::mtg_trpg::builtin::builtin;
use taku_systems::mtg_trpg::card::CardDb;
use taku_systems::mtg_trpg::loaders::{load_mtgjson, load_scryfall, read_index, write_index};

/// Reads the bulk card file `load` (an MTGJSON AtomicCards file or a Scryfall bulk file)
/// as a stream and writes its cards to the index `index`, replacing it only once the new
/// one is complete; returns how many cards it holds. Progress goes to stderr when that is
/// a terminal.
pub fn build_index(load: &Path, index: &Path) -> Result<usize> {
    let file = File::open(load).with_context(|| format!("cannot open {}", load.display()))?;
    let total = file.metadata().map(|m| m.len()).unwrap_or(0);
    let progress = io::stderr().is_terminal().then(|| Meter {
        name: load.display().to_string(),
        total,
        shown: 0,
    });
    let mut reader = BufReader::with_capacity(
        1 << 16,
        Counting {
            inner: file,
            read: 0,
            meter: progress,
        },
    );
    let format = detect(&mut reader).with_context(|| format!("cannot load {}", load.display()))?;
    let loaded = match format {
        Format::Mtgjson => load_mtgjson(&mut reader),
        Format::Scryfall => load_scryfall(&mut reader),
    };
    if reader.get_ref().meter.is_some() {
        eprintln!();
    }
    let cards = loaded
        .with_context(|| format!("cannot load {} as {}", load.display(), format.describe()))?;

    if let Some(dir) = index.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the directory {}", dir.display()))?;
    }
    let mut tmp = OsString::from(index.as_os_str());
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let written = (|| -> io::Result<()> {
        let file = File::create(&tmp)?;
        write_index(&cards, &file)?;
        file.sync_all()?;
        // MTG-8: never put in place an index that cannot be read back.
        read_index(File::open(&tmp)?).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("the index written does not read back: {e}"),
            )
        })?;
        fs::rename(&tmp, index)
    })();
    if let Err(e) = written {
        // The old index, if any, is untouched; only the partial new one goes.
        let _ = fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("cannot write the card index {}", index.display()));
    }
    Ok(cards.len())
}

/// The index the global `--card-index` names, for tables and the server.
static INDEX_PATH: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Whether `--card-index` named the index (then a missing one is an error).
pub fn index_path_named() -> bool {
    INDEX_PATH.get().is_some()
}

/// Makes `path` the default card index of this process (`--card-index`).
pub fn set_index_path(path: PathBuf) {
    let _ = INDEX_PATH.set(path);
}

/// Where the card index lives unless `--index` says otherwise: `--card-index`, else
/// `$TAKU_CARDS`, else
/// `$XDG_DATA_HOME/taku/cards.idx`, else `~/.local/share/taku/cards.idx` (with no home
/// directory either, `taku-cards.idx` in the current directory).
pub fn default_index_path() -> PathBuf {
    if let Some(path) = INDEX_PATH.get() {
        return path.clone();
    }
    let set = |name: &str| env::var_os(name).filter(|v| !v.is_empty());
    if let Some(path) = set("TAKU_CARDS") {
        return PathBuf::from(path);
    }
    // The XDG spec has relative paths in $XDG_DATA_HOME ignored.
    let data = set("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| set("HOME").map(|home| PathBuf::from(home).join(".local/share")));
    match data {
        Some(dir) => dir.join("taku").join("cards.idx"),
        None => PathBuf::from("taku-cards.idx"),
    }
}

/// The card database: the built-in set, plus the index's cards if there is an index
/// (a card in both is the index's, keeping the built-in Japanese name if the index has
/// none). `index` names the index; when it is named and missing that is an error, while
/// a missing default index just leaves the built-in set.
pub fn load_db(index: Option<&Path>) -> Result<CardDb> {
    let mut db = builtin();
    let path = index.map_or_else(default_index_path, Path::to_path_buf);
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound && index.is_none() => return Ok(db),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            bail!(
                "there is no card index at {}: build one with `taku mtg cards --load FILE \
                 --index {}`",
                path.display(),
                path.display()
            )
        }
        Err(e) => {
            return Err(e)
                .with_context(|| format!("cannot open the card index {}", path.display()));
        }
    };
    let cards = read_index(file)
        .with_context(|| format!("cannot read the card index {}", path.display()))?;
    // Index names are the files' canonical English names, so an exact match finds the
    // built-in card an index card replaces, without folding every name.
    let builtin_ja: HashMap<String, String> = db
        .cards()
        .iter()
        .filter_map(|c| Some((c.name.clone(), c.name_ja.clone()?)))
        .collect();
    for mut card in cards {
        if card.name_ja.is_none() {
            card.name_ja = builtin_ja.get(&card.name).cloned();
        }
        db.insert(card);
    }
    Ok(db)
}

/// The bulk formats.
#[derive(Debug, Clone, Copy)]
enum Format {
    Mtgjson,
    Scryfall,
}

impl Format {
    fn describe(self) -> &'static str {
        match self {
            Format::Mtgjson => "an MTGJSON AtomicCards file",
            Format::Scryfall => "a Scryfall bulk file",
        }
    }
}

/// Tells the formats apart by the first byte that is not white space (after a UTF-8 byte
/// order mark, which is consumed, as serde_json would refuse it): `{` is MTGJSON's object,
/// `[` Scryfall's array. Consumes only what JSON ignores.
fn detect(reader: &mut impl BufRead) -> Result<Format> {
    let buf = reader.fill_buf()?;
    if buf.starts_with(b"\xef\xbb\xbf") {
        reader.consume(3);
    }
    loop {
        let buf = reader.fill_buf()?;
        let Some(&first) = buf.first() else {
            bail!("the file is empty");
        };
        let spaces = buf
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .count();
        if spaces == 0 {
            return match first {
                b'{' => Ok(Format::Mtgjson),
                b'[' => Ok(Format::Scryfall),
                _ => bail!(
                    "neither an MTGJSON file (a JSON object, `{{`) nor a Scryfall bulk file \
                     (a JSON array, `[`): it begins with {:?}",
                    String::from_utf8_lossy(&buf[..buf.len().min(16)])
                ),
            };
        }
        reader.consume(spaces);
    }
}

/// A reader that counts the bytes read and shows them on the terminal.
struct Counting<R> {
    inner: R,
    read: u64,
    meter: Option<Meter>,
}

/// The progress line: bytes read of the total, redrawn about every MiB.
struct Meter {
    name: String,
    total: u64,
    shown: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if let Some(meter) = &mut self.meter {
            const MIB: u64 = 1 << 20;
            if self.read / MIB != meter.shown / MIB || n == 0 {
                meter.shown = self.read;
                let percent = (self.read * 100)
                    .checked_div(meter.total)
                    .map(|p| format!(" ({p}%)"))
                    .unwrap_or_default();
                let mut err = io::stderr().lock();
                // The progress line is a courtesy: failing to draw it must not fail the load.
                let _ = write!(
                    err,
                    "\rreading {}: {} / {} MB{percent}",
                    meter.name,
                    self.read / MIB,
                    meter.total / MIB
                );
                let _ = err.flush();
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_is_told_by_the_first_byte() {
        let mut r = BufReader::new(&b"\xef\xbb\xbf \n\t{\"data\": {}}"[..]);
        assert!(matches!(detect(&mut r).expect("detected"), Format::Mtgjson));
        let mut rest = String::new();
        r.read_to_string(&mut rest).expect("read");
        assert_eq!(rest, "{\"data\": {}}", "only white space was consumed");
        let mut r = BufReader::new(&b"\n\n[]"[..]);
        assert!(matches!(
            detect(&mut r).expect("detected"),
            Format::Scryfall
        ));
        let err = detect(&mut BufReader::new(&b"  "[..])).expect_err("empty");
        assert_eq!(err.to_string(), "the file is empty");
        let err = detect(&mut BufReader::new(&b"name,cmc\n"[..])).expect_err("csv");
        assert!(
            err.to_string().contains("it begins with \"name,cmc\\n\""),
            "{err}"
        );
    }

    #[test]
    fn an_index_is_built_atomically_and_loaded_over_the_built_in_set() {
        let dir = env::temp_dir().join(format!("taku-mtg-cards-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("temp dir");
        let bulk = dir.join("cards.json");
        fs::write(
            &bulk,
            r#"[{"name": "Forest", "cmc": 0, "colors": [], "type_line": "Basic Land — Forest", "lang": "en"},
                {"name": "Grizzly Bears", "cmc": 2, "colors": ["G"], "type_line": "Creature — Bear", "lang": "en"}]"#,
        )
        .expect("write");
        let index = dir.join("sub").join("cards.idx");
        assert_eq!(build_index(&bulk, &index).expect("built"), 2);
        assert!(!dir.join("sub").join("cards.idx.tmp").exists());
        let db = load_db(Some(&index)).expect("loaded");
        assert_eq!(db.get("grizzly bears").map(|c| c.mana_value), Some(2));
        // The index's Forest replaces the built-in one but keeps its Japanese name.
        assert_eq!(db.get("森").and_then(|c| c.name_ja.as_deref()), Some("森"));
        assert!(db.get("Elvish Mystic").is_some(), "the built-in set stays");

        let err = load_db(Some(&dir.join("none.idx"))).expect_err("named and missing");
        assert!(
            err.to_string().starts_with("there is no card index at"),
            "{err}"
        );
        fs::write(&bulk, "[{\"name\": \"X\"}]").expect("write");
        let err = build_index(&bulk, &index).expect_err("no cmc");
        assert_eq!(
            format!("{err:#}"),
            format!(
                "cannot load {} as a Scryfall bulk file: card #1 (\"X\") lacks cmc",
                bulk.display()
            )
        );
        assert_eq!(
            read_index(File::open(&index).expect("old index"))
                .expect("kept")
                .len(),
            2
        );
        fs::remove_dir_all(&dir).expect("clean up");
    }
}
