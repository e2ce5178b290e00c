//! MT-1 card files: the bulk JSON files players already have — MTGJSON's AtomicCards and
//! Scryfall's bulk data — and taku's own compact index of the cards taken from them.
//!
//! Both bulk files run to hundreds of megabytes, so neither is ever held whole: a
//! `serde::de::Visitor` walks the file's top level (MTGJSON's object, Scryfall's array)
//! and deserialises one entry at a time into a small struct holding only the fields a
//! [`Card`] needs (serde skips the rest without keeping it), converting it at once.
//! Memory is the cards kept, not the file. Like the rest of the crate this does no file
//! IO: the loaders take any [`Read`] and the index writer any [`Write`].
//!
//! How each file maps to a card (MT-1):
//! - **MTGJSON** (`{"meta": …, "data": {"Card Name": [face, …]}}`): the face with
//!   `side` `"a"` (else the first) gives the mana value (`manaValue`, in older files
//!   `convertedManaCost`), the colours, and the type line; a split card's
//!   (layout `split` or `aftermath`) colours are those of all its faces, and its
//!   `manaValue`, which MTGJSON already gives as the combined value, is used as given.
//!   The Japanese name is the front face's `foreignData` entry in `"Japanese"`; where
//!   that names only the face of a multi-face card, the faces' Japanese names are joined
//!   with ` // `, like the English name.
//! - **Scryfall** (one array of card objects, each card once per printing and language):
//!   one card per English `name`, built from the first printing met; `cmc` is used as
//!   given (for a double-faced card Scryfall gives the front face's value); the colours
//!   are the front face's where it has its own (a double-faced, flip or adventure card
//!   shows only its front in the library), else the top-level `colors`, and for a split
//!   card the top-level `colors` of both halves; the type line is the front face's. The
//!   Japanese name is the first `"ja"` printing's `printed_name`; a multi-face `"ja"`
//!   printing's faces' `printed_name`s are joined with ` // `.
//! - Both: a land's mana value is 0; a fractional mana value (un-cards' ½) is rounded
//!   down; objects that are not cards of a library — tokens, emblems, art-series cards,
//!   reversible printings (a second printing of a card under the name `X // X`), planes,
//!   schemes and vanguards — are skipped by their `layout`. A `null` array counts as an
//!   empty one.

use super::card::{Card, Colour, Colours};
use serde::Deserialize;
use serde::de::{
    self, DeserializeSeed, Deserializer as _, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde_json::error::Category;
use std::collections::HashMap;
use std::fmt;
use std::io::{self, BufReader, BufWriter, Read, Write};

/// Why a card file or index could not be read.
#[derive(Debug)]
pub enum LoadError {
    /// Reading the input failed.
    Io(io::Error),
    /// The input is not JSON: a syntax error at this place (lines and columns from 1).
    NotJson {
        /// Line of the error.
        line: usize,
        /// Column of the error.
        column: usize,
        /// serde_json's description of what it found.
        message: String,
    },
    /// The input ends in the middle of a JSON value: truncated or empty.
    Truncated {
        /// Line where the input ends.
        line: usize,
        /// Column where the input ends.
        column: usize,
    },
    /// Well-formed JSON that is not laid out as the format expects (no `"data"` object,
    /// an object where an array belongs, …); the message says what was expected.
    Layout(String),
    /// One card's entry is wrong: a required field is missing or a field has the wrong
    /// type or value.
    Card {
        /// The entry's number in the file, counting from 1.
        number: usize,
        /// The card's name, where it was read before the problem.
        name: Option<String>,
        /// What is wrong, as a phrase following the card ("lacks manaValue").
        problem: String,
    },
    /// A card index with the wrong magic or version, or cut short or corrupt.
    Index(String),
}

/// The magic bytes a card index begins with.
pub const INDEX_MAGIC: &[u8; 8] = b"TAKUCARD";

/// The index format version this build writes and reads.
pub const INDEX_VERSION: u32 = 1;

/// Reads an MTGJSON **AtomicCards**-style file (`{"meta": …, "data": {"Card Name":
/// [faces…], …}}`) as a stream, one card at a time; the cards come in the file's order.
pub fn load_mtgjson(reader: impl Read) -> Result<Vec<Card>, LoadError> {
    let mut de = serde_json::Deserializer::from_reader(buffered(reader));
    let mut progress = Progress::default();
    let mut cards = Vec::new();
    let file = AtomicCardsFile {
        progress: &mut progress,
        cards: &mut cards,
    };
    (&mut de)
        .deserialize_map(file)
        .and_then(|()| de.end())
        .map_err(|e| progress.into_error(e))?;
    Ok(cards)
}

/// Reads a Scryfall bulk file (one JSON array of card objects) as a stream, merging the
/// printings and languages of a card into one [`Card`] per English name, in the order
/// the names first appear.
pub fn load_scryfall(reader: impl Read) -> Result<Vec<Card>, LoadError> {
    let mut de = serde_json::Deserializer::from_reader(buffered(reader));
    let mut progress = Progress::default();
    let mut merged = ScryfallCards::default();
    let file = ScryfallFile {
        progress: &mut progress,
        merged: &mut merged,
    };
    (&mut de)
        .deserialize_seq(file)
        .and_then(|()| de.end())
        .map_err(|e| progress.into_error(e))?;
    Ok(merged.cards)
}

/// Writes `cards` as a card index (format version [`INDEX_VERSION`]):
///
/// ```text
/// magic       8 bytes    "TAKUCARD"
/// version     u32 LE     1
/// count       u32 LE     number of cards
/// per card:
///   flags       u8       bit 0: a land; bit 1: has a Japanese name
///   mana_value  u32 LE
///   colours     u8       W 1, U 2, B 4, R 8, G 16 (Colours' bits)
///   land_types  u8       the same bits
///   name        str
///   name_ja     str      only when flag bit 1 is set
///   faces       u8 count, then str × count
/// str = u32 LE byte length + that many bytes of UTF-8
/// ```
///
/// and nothing after the last card.
pub fn write_index(cards: &[Card], w: impl Write) -> io::Result<()> {
    let mut w = BufWriter::new(w);
    w.write_all(INDEX_MAGIC)?;
    w.write_all(&INDEX_VERSION.to_le_bytes())?;
    w.write_all(&count_u32(cards.len(), "cards")?.to_le_bytes())?;
    for card in cards {
        let flags = u8::from(card.land) | u8::from(card.name_ja.is_some()) << 1;
        w.write_all(&[flags])?;
        w.write_all(&card.mana_value.to_le_bytes())?;
        w.write_all(&[card.colours.0, card.land_types.0])?;
        write_str(&mut w, &card.name)?;
        if let Some(ja) = &card.name_ja {
            write_str(&mut w, ja)?;
        }
        let faces = u8::try_from(card.faces.len()).map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{} has {} faces; an index holds at most 255",
                    card.name,
                    card.faces.len()
                ),
            )
        })?;
        w.write_all(&[faces])?;
        for face in &card.faces {
            write_str(&mut w, face)?;
        }
    }
    w.flush()
}

/// Reads a card index written by [`write_index`]; refuses another file, another version,
/// or an index cut short, saying so.
pub fn read_index(r: impl Read) -> Result<Vec<Card>, LoadError> {
    let mut r = IndexReader {
        inner: BufReader::with_capacity(1 << 16, r),
        card: 0,
        count: 0,
    };
    let mut magic = [0u8; 8];
    r.exact(&mut magic)?;
    if &magic != INDEX_MAGIC {
        return Err(LoadError::Index(
            "not a taku card index: it does not begin with \"TAKUCARD\"".into(),
        ));
    }
    let version = r.u32()?;
    if version != INDEX_VERSION {
        return Err(LoadError::Index(format!(
            "the card index is format version {version}; this taku reads version \
             {INDEX_VERSION}: {REBUILD}"
        )));
    }
    let count = r.u32()? as usize;
    r.count = count;
    // The count is not trusted for the allocation: a corrupt one must not ask for gigabytes.
    let mut cards = Vec::with_capacity(count.min(1 << 16));
    for i in 1..=count {
        r.card = i;
        let mut fixed = [0u8; 7];
        r.exact(&mut fixed)?;
        let [flags, m0, m1, m2, m3, colours, land_types] = fixed;
        if flags > 0b11 || colours > 0x1f || land_types > 0x1f {
            return Err(r.corrupt(""));
        }
        let name = r.string()?;
        let name_ja = if flags & 2 != 0 {
            Some(r.string()?)
        } else {
            None
        };
        let mut n = [0u8; 1];
        r.exact(&mut n)?;
        let faces = (0..n[0])
            .map(|_| r.string())
            .collect::<Result<Vec<_>, _>>()?;
        cards.push(Card {
            name,
            name_ja,
            faces,
            mana_value: u32::from_le_bytes([m0, m1, m2, m3]),
            colours: Colours(colours),
            land: flags & 1 != 0,
            land_types: Colours(land_types),
        });
    }
    let mut extra = [0u8; 1];
    match r.inner.read(&mut extra) {
        Ok(0) => Ok(cards),
        Ok(_) => Err(LoadError::Index(format!(
            "the card index has bytes after its {count} cards: {REBUILD}"
        ))),
        Err(e) => Err(LoadError::Io(e)),
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "cannot read the card file: {e}"),
            LoadError::NotJson {
                line,
                column,
                message,
            } => write!(f, "not JSON at line {line} column {column}: {message}"),
            LoadError::Truncated { line, column } => write!(
                f,
                "the JSON stops in the middle at line {line} column {column}: the file is \
                 truncated or empty"
            ),
            LoadError::Layout(message) | LoadError::Index(message) => f.write_str(message),
            LoadError::Card {
                number,
                name: Some(name),
                problem,
            } => write!(f, "card #{number} ({name:?}) {problem}"),
            LoadError::Card {
                number,
                name: None,
                problem,
            } => write!(f, "card #{number} {problem}"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for LoadError {
    fn from(e: io::Error) -> LoadError {
        LoadError::Io(e)
    }
}

/// The message for an MTGJSON file without its `"data"` object.
const NO_DATA: &str = "an MTGJSON AtomicCards file has a \"data\" object; this file has none";

/// Layouts of objects that are not cards of a library (see the module doc).
const NOT_LIBRARY_CARDS: [&str; 8] = [
    "token",
    "double_faced_token",
    "emblem",
    "art_series",
    "reversible_card",
    "vanguard",
    "planar",
    "scheme",
];

/// Layouts whose faces are halves of one card in the library, so its colours are all of
/// theirs (a double-faced, flip or adventure card shows its front face only).
const SPLIT_LAYOUTS: [&str; 2] = ["split", "aftermath"];

/// A large buffer: serde_json reads byte by byte, and a `BufReader` over another
/// `BufReader` costs nothing, since large reads bypass the inner buffer.
fn buffered<R: Read>(reader: R) -> BufReader<R> {
    BufReader::with_capacity(1 << 18, reader)
}

/// Where a streaming load is, for error messages, and the error a visitor found (handed
/// out past serde_json, whose error type the visitors must return).
#[derive(Default)]
struct Progress {
    /// The entry being read or last read, counting from 1.
    number: usize,
    /// Its name, once known.
    name: Option<String>,
    /// Whether an entry is being read: a data error then belongs to it.
    in_entry: bool,
    /// An error found while converting an entry.
    error: Option<LoadError>,
}

impl Progress {
    /// Keeps `err` and returns the serde error that stops the parse.
    fn fail<E: de::Error>(&mut self, err: LoadError) -> E {
        self.error = Some(err);
        E::custom("stopped by the card loader")
    }

    /// Keeps a problem of the current entry.
    fn card_problem<E: de::Error>(&mut self, problem: String) -> E {
        let err = LoadError::Card {
            number: self.number,
            name: self.name.take(),
            problem,
        };
        self.fail(err)
    }

    /// The load error for serde_json's `e`: the one a visitor kept, or `e` in the user's
    /// terms.
    fn into_error(mut self, e: serde_json::Error) -> LoadError {
        if let Some(err) = self.error.take() {
            return err;
        }
        let (line, column) = (e.line(), e.column());
        let full = e.to_string();
        let message = full
            .strip_suffix(&format!(" at line {line} column {column}"))
            .unwrap_or(&full)
            .to_string();
        match e.classify() {
            Category::Io => LoadError::Io(io::Error::from(e)),
            Category::Syntax => LoadError::NotJson {
                line,
                column,
                message,
            },
            Category::Eof => LoadError::Truncated { line, column },
            Category::Data if self.in_entry => LoadError::Card {
                number: self.number,
                name: self.name,
                problem: format!("is malformed at line {line} column {column}: {message}"),
            },
            Category::Data => LoadError::Layout(format!("{message} (line {line} column {column})")),
        }
    }
}

/// An array that may be `null` (taken as empty) or absent (`#[serde(default)]`).
fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: de::Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// The mana value from a JSON number: whole, not negative; a fraction is rounded down.
fn whole_mana_value(value: f64, field: &str) -> Result<u32, String> {
    if value.is_finite() && value >= 0.0 && value <= f64::from(u32::MAX) {
        // Truncation is the rounding wanted; the range is checked above.
        Ok(value.floor() as u32)
    } else {
        Err(format!(
            "has {field} {value}; a mana value is a number from 0 up"
        ))
    }
}

/// The colours from letters `["G", "W"]`.
fn parse_colours(letters: &[String]) -> Result<Colours, String> {
    let mut set = Colours::NONE;
    for letter in letters {
        let colour = match letter.as_str() {
            "W" => Colour::W,
            "U" => Colour::U,
            "B" => Colour::B,
            "R" => Colour::R,
            "G" => Colour::G,
            other => {
                return Err(format!(
                    "has colour {other:?}; colours are \"W\", \"U\", \"B\", \"R\" and \"G\""
                ));
            }
        };
        set.0 |= colour.bit();
    }
    Ok(set)
}

/// Whether a type line is a land's, and the colours of its basic land types:
/// `Basic Land — Forest` → (true, G); `Land — Forest Island` → (true, GU). Only the front
/// face of a `Front — X // Back — Y` line counts.
fn land_of_type_line(type_line: &str) -> (bool, Colours) {
    let front = type_line
        .split_once(" // ")
        .map_or(type_line, |(front, _)| front);
    let (types, subtypes) = front
        .split_once('—')
        .or_else(|| front.split_once(" - "))
        .unwrap_or((front, ""));
    land_of_types(types.split_whitespace(), subtypes.split_whitespace())
}

/// Whether card types include Land, and the colours of the basic land types among the
/// subtypes (only a land's count).
fn land_of_types<'a>(
    mut types: impl Iterator<Item = &'a str>,
    subtypes: impl Iterator<Item = &'a str>,
) -> (bool, Colours) {
    if !types.any(|t| t == "Land") {
        return (false, Colours::NONE);
    }
    let kinds: Vec<Colour> = subtypes.filter_map(Colour::of_basic_land_type).collect();
    (true, Colours::of(&kinds))
}

// ---------------------------------------------------------------------------------------
// MTGJSON

/// One face object of an MTGJSON card, only the fields a card needs.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", expecting = "an MTGJSON card face object")]
struct MtgjsonFace {
    face_name: Option<String>,
    mana_value: Option<f64>,
    converted_mana_cost: Option<f64>,
    #[serde(default, deserialize_with = "null_as_default")]
    colors: Vec<String>,
    #[serde(rename = "type")]
    type_line: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    types: Vec<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    subtypes: Vec<String>,
    side: Option<String>,
    layout: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    foreign_data: Vec<ForeignName>,
}

/// One `foreignData` entry: its language and names.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", expecting = "a foreignData object")]
struct ForeignName {
    #[serde(default)]
    language: String,
    name: Option<String>,
    face_name: Option<String>,
}

impl MtgjsonFace {
    /// The face's Japanese `foreignData` entry.
    fn japanese(&self) -> Option<&ForeignName> {
        self.foreign_data.iter().find(|f| f.language == "Japanese")
    }
}

/// The top-level object: `"data"` is read card by card, anything else skipped.
struct AtomicCardsFile<'a> {
    progress: &'a mut Progress,
    cards: &'a mut Vec<Card>,
}

impl<'de> Visitor<'de> for AtomicCardsFile<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an MTGJSON AtomicCards file: an object with \"meta\" and \"data\"")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut data = false;
        while let Some(key) = map.next_key::<String>()? {
            if key == "data" {
                map.next_value_seed(DataObject {
                    progress: &mut *self.progress,
                    cards: &mut *self.cards,
                })?;
                data = true;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        if data {
            Ok(())
        } else {
            Err(self.progress.fail(LoadError::Layout(NO_DATA.into())))
        }
    }
}

/// `"data"`: card names to their arrays of faces.
struct DataObject<'a> {
    progress: &'a mut Progress,
    cards: &'a mut Vec<Card>,
}

impl<'de> DeserializeSeed<'de> for DataObject<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for DataObject<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"data\" as an object of card names to arrays of faces")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(name) = map.next_key::<String>()? {
            self.progress.number += 1;
            self.progress.in_entry = true;
            self.progress.name = Some(name.clone());
            let faces = map.next_value_seed(Faces(&mut *self.progress))?;
            match mtgjson_card(name, faces) {
                Ok(Some(card)) => self.cards.push(card),
                Ok(None) => {}
                Err(problem) => return Err(self.progress.card_problem(problem)),
            }
            self.progress.in_entry = false;
        }
        Ok(())
    }
}

/// One card's array of faces; an object here means another MTGJSON file.
struct Faces<'a>(&'a mut Progress);

impl<'de> DeserializeSeed<'de> for Faces<'_> {
    type Value = Vec<MtgjsonFace>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Faces<'_> {
    type Value = Vec<MtgjsonFace>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of the card's face objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut faces = Vec::with_capacity(seq.size_hint().unwrap_or(1).min(8));
        while let Some(face) = seq.next_element()? {
            faces.push(face);
        }
        Ok(faces)
    }

    fn visit_map<A: MapAccess<'de>>(self, _map: A) -> Result<Self::Value, A::Error> {
        Err(self.0.fail(LoadError::Layout(
            "this MTGJSON file's \"data\" holds objects, not arrays of card faces: it looks \
             like AllPrintings (sets by code); load AtomicCards.json instead"
                .into(),
        )))
    }
}

/// The card an MTGJSON entry describes; `None` for an object that is not a library card.
fn mtgjson_card(name: String, faces: Vec<MtgjsonFace>) -> Result<Option<Card>, String> {
    let front = faces
        .iter()
        .find(|f| f.side.as_deref() == Some("a"))
        .or(faces.first())
        .ok_or("has no faces")?;
    let layout = front.layout.as_deref().unwrap_or("normal");
    if NOT_LIBRARY_CARDS.contains(&layout) {
        return Ok(None);
    }
    let value = front
        .mana_value
        .or(front.converted_mana_cost)
        .ok_or("lacks manaValue")?;
    let mana_value = whole_mana_value(value, "manaValue")?;
    let colours = if SPLIT_LAYOUTS.contains(&layout) {
        let mut all = Colours::NONE;
        for face in &faces {
            all.0 |= parse_colours(&face.colors)?.0;
        }
        all
    } else {
        parse_colours(&front.colors)?
    };
    let (land, land_types) = if front.types.is_empty() {
        land_of_type_line(front.type_line.as_deref().unwrap_or(""))
    } else {
        land_of_types(
            front.types.iter().map(String::as_str),
            front.subtypes.iter().map(String::as_str),
        )
    };
    // Faces front first: by side ("a", "b", …), a face without a side last.
    let mut ordered: Vec<&MtgjsonFace> = faces.iter().collect();
    ordered.sort_by(|a, b| {
        let side = |f: &MtgjsonFace| f.side.as_deref().unwrap_or("~").to_owned();
        side(a).cmp(&side(b))
    });
    let face_names: Vec<String> = if faces.len() < 2 {
        Vec::new()
    } else if let Some(names) = ordered
        .iter()
        .map(|f| f.face_name.clone())
        .collect::<Option<Vec<_>>>()
    {
        names
    } else {
        name.split(" // ").map(str::to_string).collect()
    };
    let face_names = if face_names.len() < 2 {
        Vec::new()
    } else {
        face_names
    };
    let name_ja = front.japanese().and_then(|ja| {
        let whole = ja.name.clone().filter(|n| !n.is_empty());
        if face_names.is_empty() || whole.as_deref().is_some_and(|n| n.contains(" // ")) {
            return whole;
        }
        ordered
            .iter()
            .map(|f| f.japanese().and_then(|j| j.face_name.clone()))
            .collect::<Option<Vec<_>>>()
            .map(|names| names.join(" // "))
            .or(whole)
    });
    Ok(Some(Card {
        name,
        name_ja,
        faces: face_names,
        mana_value: if land { 0 } else { mana_value },
        colours,
        land,
        land_types,
    }))
}

// ---------------------------------------------------------------------------------------
// Scryfall

/// One Scryfall card object, only the fields a card needs.
#[derive(Deserialize)]
#[serde(expecting = "a Scryfall card object")]
struct ScryfallCard {
    name: Option<String>,
    cmc: Option<f64>,
    colors: Option<Vec<String>>,
    type_line: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    card_faces: Vec<ScryfallFace>,
    lang: Option<String>,
    printed_name: Option<String>,
    layout: Option<String>,
}

/// One of a multi-face Scryfall card's `card_faces`.
#[derive(Deserialize)]
#[serde(expecting = "a Scryfall card face object")]
struct ScryfallFace {
    name: Option<String>,
    cmc: Option<f64>,
    colors: Option<Vec<String>>,
    type_line: Option<String>,
    printed_name: Option<String>,
}

impl ScryfallCard {
    /// The Japanese name of a `"ja"` printing (see the module doc).
    fn japanese(&self) -> Option<String> {
        if self.lang.as_deref() != Some("ja") {
            return None;
        }
        if let Some(name) = self.printed_name.clone().filter(|n| !n.is_empty()) {
            return Some(name);
        }
        let faces: Option<Vec<String>> = self
            .card_faces
            .iter()
            .map(|f| f.printed_name.clone().filter(|n| !n.is_empty()))
            .collect();
        match faces {
            Some(names) if !names.is_empty() => Some(names.join(" // ")),
            _ => self.card_faces.first().and_then(|f| f.printed_name.clone()),
        }
    }
}

/// The cards kept so far, one per English name.
#[derive(Default)]
struct ScryfallCards {
    cards: Vec<Card>,
    by_name: HashMap<String, usize>,
}

impl ScryfallCards {
    /// Adds one printing: a new card, or a Japanese name for a known one.
    fn add(&mut self, raw: ScryfallCard) -> Result<(), String> {
        let name = raw.name.clone().ok_or("lacks name")?;
        if raw
            .layout
            .as_deref()
            .is_some_and(|l| NOT_LIBRARY_CARDS.contains(&l))
        {
            return Ok(());
        }
        if let Some(&i) = self.by_name.get(&name) {
            if self.cards[i].name_ja.is_none() {
                self.cards[i].name_ja = raw.japanese();
            }
            return Ok(());
        }
        let front = raw.card_faces.first();
        let value = raw.cmc.or(front.and_then(|f| f.cmc)).ok_or("lacks cmc")?;
        let mana_value = whole_mana_value(value, "cmc")?;
        let split = raw
            .layout
            .as_deref()
            .is_some_and(|l| SPLIT_LAYOUTS.contains(&l));
        let face_colours = front.and_then(|f| f.colors.as_ref());
        let colours = match (&raw.colors, face_colours) {
            (Some(all), _) if split => parse_colours(all)?,
            (None, _) if split => {
                let mut all = Colours::NONE;
                for face in &raw.card_faces {
                    all.0 |= parse_colours(face.colors.as_deref().unwrap_or_default())?.0;
                }
                all
            }
            (_, Some(front)) => parse_colours(front)?,
            (Some(all), None) => parse_colours(all)?,
            (None, None) => Colours::NONE,
        };
        let type_line = front
            .and_then(|f| f.type_line.as_deref())
            .or(raw.type_line.as_deref())
            .unwrap_or("");
        let (land, land_types) = land_of_type_line(type_line);
        let faces: Vec<String> = raw
            .card_faces
            .iter()
            .filter_map(|f| f.name.clone())
            .collect();
        let card = Card {
            name_ja: raw.japanese(),
            faces: if faces.len() < 2 { Vec::new() } else { faces },
            mana_value: if land { 0 } else { mana_value },
            colours,
            land,
            land_types,
            name: name.clone(),
        };
        self.by_name.insert(name, self.cards.len());
        self.cards.push(card);
        Ok(())
    }
}

/// The top-level array, read one card object at a time.
struct ScryfallFile<'a> {
    progress: &'a mut Progress,
    merged: &'a mut ScryfallCards,
}

impl<'de> Visitor<'de> for ScryfallFile<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Scryfall bulk file: one JSON array of card objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        loop {
            self.progress.number += 1;
            self.progress.name = None;
            self.progress.in_entry = true;
            let Some(raw) = seq.next_element::<ScryfallCard>()? else {
                self.progress.in_entry = false;
                return Ok(());
            };
            self.progress.name.clone_from(&raw.name);
            if let Err(problem) = self.merged.add(raw) {
                return Err(self.progress.card_problem(problem));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// The index

/// A count as the index's u32.
fn count_u32(n: usize, what: &str) -> io::Result<u32> {
    u32::try_from(n).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{n} {what} is more than a card index holds"),
        )
    })
}

/// A length-prefixed UTF-8 string; one longer than an index may hold is refused, naming
/// its start (issue 13, MTG-8: an index is never written that cannot be read).
fn write_str(w: &mut impl Write, s: &str) -> io::Result<()> {
    if s.len() > MAX_INDEX_STR {
        let head: String = s.chars().take(40).collect();
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "a name of {} bytes (\"{head}…\") is longer than a card index holds ({MAX_INDEX_STR} bytes)",
                s.len()
            ),
        ));
    }
    w.write_all(&count_u32(s.len(), "bytes of a name")?.to_le_bytes())?;
    w.write_all(s.as_bytes())
}

/// The longest string an index may hold: far above any card name, so a corrupt length is
/// refused instead of allocated.
const MAX_INDEX_STR: usize = 1 << 16;

/// How an index error ends.
const REBUILD: &str = "rebuild it with `taku mtg cards --load FILE`";

/// Reads an index's fields, knowing which card it is in for error messages.
struct IndexReader<R> {
    inner: BufReader<R>,
    /// The card being read, counting from 1 (0: the header).
    card: usize,
    /// The cards the header announced.
    count: usize,
}

impl<R: Read> IndexReader<R> {
    /// Where the reader is, for a message; built only on an error.
    fn place(&self) -> String {
        if self.card == 0 {
            "its header".into()
        } else {
            format!("card {} of {}", self.card, self.count)
        }
    }

    fn corrupt(&self, what: &str) -> LoadError {
        LoadError::Index(format!(
            "the card index is corrupt at {}{what}: {REBUILD}",
            self.place()
        ))
    }

    fn exact(&mut self, buf: &mut [u8]) -> Result<(), LoadError> {
        self.inner.read_exact(buf).map_err(|e| {
            if e.kind() == io::ErrorKind::UnexpectedEof {
                LoadError::Index(format!(
                    "the card index ends early, in {}: {REBUILD}",
                    self.place()
                ))
            } else {
                LoadError::Io(e)
            }
        })
    }

    fn u32(&mut self) -> Result<u32, LoadError> {
        let mut b = [0u8; 4];
        self.exact(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn string(&mut self) -> Result<String, LoadError> {
        let len = self.u32()? as usize;
        if len > MAX_INDEX_STR {
            return Err(self.corrupt(&format!(" (a name of {len} bytes)")));
        }
        let mut bytes = vec![0u8; len];
        self.exact(&mut bytes)?;
        String::from_utf8(bytes).map_err(|_| self.corrupt(" (a name that is not UTF-8)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mtg_trpg::card::CardDb;

    fn card<'a>(cards: &'a [Card], name: &str) -> &'a Card {
        cards
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("{name} was loaded"))
    }

    fn letters(c: &Card) -> (String, String) {
        (c.colours.letters(), c.land_types.letters())
    }

    /// A small AtomicCards file with every kind of card the loader must handle.
    const MTGJSON: &str = r#"{
      "meta": {"date": "2025-01-01", "version": "5.2.2"},
      "data": {
        "Runeclaw Bear": [{
          "name": "Runeclaw Bear", "manaValue": 2.0, "manaCost": "{1}{G}",
          "colors": ["G"], "colorIdentity": ["G"], "type": "Creature — Bear",
          "types": ["Creature"], "subtypes": ["Bear"], "layout": "normal",
          "text": "", "power": "2", "toughness": "2",
          "legalities": {"modern": "Legal"}, "printings": ["M15"],
          "foreignData": [
            {"language": "German", "name": "Runenklauenbär"},
            {"language": "Japanese", "name": "ルーン爪の熊", "text": "", "type": "クリーチャー — 熊"}
          ]
        }],
        "Forest": [{
          "name": "Forest", "manaValue": 0, "colors": [], "type": "Basic Land — Forest",
          "types": ["Land"], "supertypes": ["Basic"], "subtypes": ["Forest"],
          "layout": "normal",
          "foreignData": [{"language": "Japanese", "name": "森"}]
        }],
        "Breeding Pool": [{
          "name": "Breeding Pool", "manaValue": 0, "colors": [],
          "type": "Land — Forest Island", "types": ["Land"], "subtypes": ["Forest", "Island"],
          "layout": "normal"
        }],
        "Eldrazi Skyspawner": [{
          "name": "Eldrazi Skyspawner", "manaValue": 3, "manaCost": "{2}{U}", "colors": [],
          "colorIdentity": ["U"], "type": "Creature — Eldrazi Drone", "types": ["Creature"],
          "subtypes": ["Eldrazi", "Drone"], "keywords": ["Devoid", "Flying"], "layout": "normal"
        }],
        "Fire // Ice": [
          {"name": "Fire // Ice", "faceName": "Fire", "manaValue": 4, "faceManaValue": 2,
           "colors": ["R"], "type": "Instant", "types": ["Instant"], "side": "a",
           "layout": "split",
           "foreignData": [{"language": "Japanese", "name": "火 // 氷", "faceName": "火"}]},
          {"name": "Fire // Ice", "faceName": "Ice", "manaValue": 4, "faceManaValue": 2,
           "colors": ["U"], "type": "Instant", "types": ["Instant"], "side": "b",
           "layout": "split"}
        ],
        "Delver of Secrets // Insectile Aberration": [
          {"name": "Delver of Secrets // Insectile Aberration", "faceName": "Insectile Aberration",
           "manaValue": 1, "faceManaValue": 0, "colors": ["U"], "type": "Creature — Human Insect",
           "types": ["Creature"], "side": "b", "layout": "transform",
           "foreignData": [{"language": "Japanese", "faceName": "昆虫の逸脱者", "name": "秘密を掘り下げる者"}]},
          {"name": "Delver of Secrets // Insectile Aberration", "faceName": "Delver of Secrets",
           "manaValue": 1, "faceManaValue": 1, "colors": ["U"], "type": "Creature — Human Wizard",
           "types": ["Creature"], "side": "a", "layout": "transform",
           "foreignData": [{"language": "Japanese", "faceName": "秘密を掘り下げる者", "name": "秘密を掘り下げる者"}]}
        ],
        "Fireball": [{
          "name": "Fireball", "convertedManaCost": 1.0, "manaCost": "{X}{R}", "colors": ["R"],
          "type": "Sorcery", "types": ["Sorcery"], "layout": "normal"
        }],
        "Knight of Autumn": [{
          "name": "Knight of Autumn", "manaValue": 3, "colors": ["G", "W"],
          "type": "Creature — Dryad Knight", "types": ["Creature"], "layout": "normal"
        }]
      }
    }"#;

    #[test]
    fn mt1_mtgjson_cards() {
        let cards = load_mtgjson(MTGJSON.as_bytes()).expect("loads");
        assert_eq!(cards.len(), 8);
        let bear = card(&cards, "Runeclaw Bear");
        assert_eq!((bear.mana_value, bear.land), (2, false));
        assert_eq!(letters(bear), ("G".into(), "".into()));
        assert_eq!(bear.name_ja.as_deref(), Some("ルーン爪の熊"));
        assert!(bear.faces.is_empty());
        let forest = card(&cards, "Forest");
        assert_eq!((forest.mana_value, forest.land), (0, true));
        assert_eq!(letters(forest), ("".into(), "G".into()));
        assert_eq!(forest.name_ja.as_deref(), Some("森"));
        let pool = card(&cards, "Breeding Pool");
        assert_eq!(letters(pool), ("".into(), "UG".into()));
        let devoid = card(&cards, "Eldrazi Skyspawner");
        assert!(devoid.colourless());
        assert_eq!(devoid.mana_value, 3);
    }

    #[test]
    fn mt1_mtgjson_split_and_double_faced_cards() {
        let cards = load_mtgjson(MTGJSON.as_bytes()).expect("loads");
        // A split card: MTGJSON's combined mana value as given, both halves' colours.
        let fire_ice = card(&cards, "Fire // Ice");
        assert_eq!(fire_ice.mana_value, 4);
        assert_eq!(fire_ice.colours.letters(), "UR");
        assert_eq!(fire_ice.faces, ["Fire", "Ice"]);
        assert_eq!(fire_ice.name_ja.as_deref(), Some("火 // 氷"));
        // A double-faced card: the front face (side "a"), even when listed second.
        let delver = card(&cards, "Delver of Secrets // Insectile Aberration");
        assert_eq!(delver.mana_value, 1);
        assert_eq!(delver.faces, ["Delver of Secrets", "Insectile Aberration"]);
        assert_eq!(
            delver.name_ja.as_deref(),
            Some("秘密を掘り下げる者 // 昆虫の逸脱者")
        );
        // An X spell: the value as given (X counts 0), here from an older file's field.
        assert_eq!(card(&cards, "Fireball").mana_value, 1);
        assert_eq!(card(&cards, "Knight of Autumn").colours.letters(), "WG");

        let mut db = CardDb::new();
        for c in cards {
            db.insert(c);
        }
        let back = db
            .get("Insectile Aberration")
            .expect("found by its back face");
        assert_eq!(back.name, "Delver of Secrets // Insectile Aberration");
        assert_eq!(db.get("ice").map(|c| c.mana_value), Some(4));
        assert_eq!(db.get("《森》").map(|c| c.name.as_str()), Some("Forest"));
    }

    /// A small Scryfall bulk file: English and Japanese printings of the same cards.
    const SCRYFALL: &str = r#"[
      {"object": "card", "id": "1", "lang": "en", "name": "Runeclaw Bear", "cmc": 2.0,
       "mana_cost": "{1}{G}", "colors": ["G"], "type_line": "Creature — Bear",
       "oracle_text": "", "legalities": {"standard": "not_legal"},
       "image_uris": {"small": "https://example.invalid/s.jpg"}, "prices": {"usd": "0.10"},
       "layout": "normal", "set": "m15"},
      {"object": "card", "id": "2", "lang": "en", "name": "Forest", "cmc": 0.0, "colors": [],
       "type_line": "Basic Land — Forest", "layout": "normal"},
      {"object": "card", "id": "3", "lang": "ja", "name": "Runeclaw Bear",
       "printed_name": "ルーン爪の熊", "cmc": 2.0, "colors": ["G"],
       "type_line": "Creature — Bear", "printed_type_line": "クリーチャー — 熊", "layout": "normal"},
      {"object": "card", "id": "4", "lang": "en", "name": "Breeding Pool", "cmc": 0.0,
       "colors": [], "type_line": "Land — Forest Island", "layout": "normal"},
      {"object": "card", "id": "5", "lang": "en", "name": "Eldrazi Skyspawner", "cmc": 3.0,
       "mana_cost": "{2}{U}", "colors": [], "color_identity": ["U"],
       "keywords": ["Devoid", "Flying"], "type_line": "Creature — Eldrazi Drone", "layout": "normal"},
      {"object": "card", "id": "6", "lang": "en", "name": "Fire // Ice", "cmc": 4.0,
       "colors": ["U", "R"], "type_line": "Instant // Instant", "layout": "split",
       "card_faces": [
         {"object": "card_face", "name": "Fire", "mana_cost": "{1}{R}", "type_line": "Instant"},
         {"object": "card_face", "name": "Ice", "mana_cost": "{1}{U}", "type_line": "Instant"}]},
      {"object": "card", "id": "7", "lang": "en", "name": "Delver of Secrets // Insectile Aberration",
       "cmc": 1.0, "type_line": "Creature — Human Wizard // Creature — Human Insect",
       "layout": "transform",
       "card_faces": [
         {"object": "card_face", "name": "Delver of Secrets", "mana_cost": "{U}",
          "type_line": "Creature — Human Wizard", "colors": ["U"]},
         {"object": "card_face", "name": "Insectile Aberration", "mana_cost": "",
          "type_line": "Creature — Human Insect", "colors": ["U"]}]},
      {"object": "card", "id": "8", "lang": "ja", "name": "Delver of Secrets // Insectile Aberration",
       "cmc": 1.0, "type_line": "Creature — Human Wizard // Creature — Human Insect",
       "layout": "transform",
       "card_faces": [
         {"name": "Delver of Secrets", "printed_name": "秘密を掘り下げる者", "colors": ["U"]},
         {"name": "Insectile Aberration", "printed_name": "昆虫の逸脱者", "colors": ["U"]}]},
      {"object": "card", "id": "9", "lang": "en", "name": "Fireball", "cmc": 1.0,
       "mana_cost": "{X}{R}", "colors": ["R"], "type_line": "Sorcery", "layout": "normal"},
      {"object": "card", "id": "10", "lang": "en", "name": "Runeclaw Bear", "cmc": 2.0,
       "colors": ["G"], "type_line": "Creature — Bear", "set": "m19", "layout": "normal"},
      {"object": "card", "id": "11", "lang": "en", "name": "Elf Warrior", "cmc": 0.0,
       "colors": ["G"], "type_line": "Token Creature — Elf Warrior", "layout": "token"},
      {"object": "card", "id": "12", "lang": "ja", "name": "Forest", "printed_name": "森",
       "cmc": 0.0, "colors": [], "type_line": "Basic Land — Forest", "layout": "normal"}
    ]"#;

    #[test]
    fn mt1_scryfall_printings_merge_into_one_card_per_name() {
        let cards = load_scryfall(SCRYFALL.as_bytes()).expect("loads");
        let names: Vec<&str> = cards.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Runeclaw Bear",
                "Forest",
                "Breeding Pool",
                "Eldrazi Skyspawner",
                "Fire // Ice",
                "Delver of Secrets // Insectile Aberration",
                "Fireball"
            ],
            "one card per English name, tokens skipped"
        );
        let bear = card(&cards, "Runeclaw Bear");
        assert_eq!((bear.mana_value, bear.colours.letters()), (2, "G".into()));
        assert_eq!(
            bear.name_ja.as_deref(),
            Some("ルーン爪の熊"),
            "from the ja printing"
        );
        let forest = card(&cards, "Forest");
        assert_eq!((forest.land, forest.mana_value), (true, 0));
        assert_eq!(letters(forest), ("".into(), "G".into()));
        assert_eq!(forest.name_ja.as_deref(), Some("森"));
        assert_eq!(
            letters(card(&cards, "Breeding Pool")),
            ("".into(), "UG".into())
        );
        assert!(card(&cards, "Eldrazi Skyspawner").colourless());
        let fire_ice = card(&cards, "Fire // Ice");
        assert_eq!(
            (fire_ice.mana_value, fire_ice.colours.letters()),
            (4, "UR".into())
        );
        assert_eq!(fire_ice.faces, ["Fire", "Ice"]);
        assert_eq!(card(&cards, "Fireball").mana_value, 1);
    }

    #[test]
    fn mt1_scryfall_double_faced_card_uses_its_front_face() {
        let cards = load_scryfall(SCRYFALL.as_bytes()).expect("loads");
        let delver = card(&cards, "Delver of Secrets // Insectile Aberration");
        assert_eq!(delver.mana_value, 1);
        assert_eq!(
            delver.colours.letters(),
            "U",
            "no top-level colors: the front face's"
        );
        assert!(!delver.land);
        assert_eq!(
            delver.name_ja.as_deref(),
            Some("秘密を掘り下げる者 // 昆虫の逸脱者")
        );
        let mut db = CardDb::new();
        for c in cards {
            db.insert(c);
        }
        assert_eq!(
            db.get("insectile aberration").map(|c| c.name.as_str()),
            Some("Delver of Secrets // Insectile Aberration")
        );
        assert_eq!(db.get("Fire").map(|c| c.mana_value), Some(4));
    }

    #[test]
    fn mt1_scryfall_adventure_shows_its_front_and_split_joins_its_halves() {
        let cards = load_scryfall(
            r#"[{"name": "Lovestruck Beast // Heart's Desire", "cmc": 3, "layout": "adventure",
                 "colors": ["G", "W"], "type_line": "Creature — Beast Noble // Sorcery — Adventure",
                 "card_faces": [{"name": "Lovestruck Beast", "colors": ["G"]},
                                {"name": "Heart's Desire", "colors": ["W"]}]},
                {"name": "Fire // Ice", "cmc": 4, "layout": "split", "type_line": "Instant // Instant",
                 "card_faces": [{"name": "Fire", "colors": ["R"]}, {"name": "Ice", "colors": ["U"]}]}]"#
                .as_bytes(),
        )
        .expect("loads");
        assert_eq!(cards[0].colours.letters(), "G");
        assert_eq!(cards[0].faces, ["Lovestruck Beast", "Heart's Desire"]);
        assert_eq!(cards[1].colours.letters(), "UR");
    }

    #[test]
    fn mt1_null_arrays_count_as_empty() {
        let cards = load_mtgjson(
            r#"{"data": {"Wastes": [{"manaValue": 0, "colors": null, "types": null,
                "type": "Basic Land", "subtypes": null, "foreignData": null}]}}"#
                .as_bytes(),
        )
        .expect("loads");
        assert!(cards[0].land && cards[0].colourless() && cards[0].land_types.is_empty());
        let cards = load_scryfall(
            r#"[{"name": "Wastes", "cmc": 0, "colors": null, "card_faces": null,
                 "type_line": "Basic Land"},
                {"name": "Some Plane", "cmc": 0, "layout": "planar", "type_line": "Plane — X"}]"#
                .as_bytes(),
        )
        .expect("loads");
        assert_eq!(cards.len(), 1);
        assert!(cards[0].land && cards[0].colourless());
    }

    #[test]
    fn mt1_a_double_faced_land_back_does_not_make_a_land() {
        let (land, types) = land_of_type_line("Sorcery // Land");
        assert!(!land && types.is_empty());
        let (land, types) = land_of_type_line("Land — Forest // Creature — Treefolk");
        assert!(land);
        assert_eq!(types.letters(), "G");
        let (land, types) = land_of_type_line("Artifact Creature — Assembly-Worker");
        assert!(!land && types.is_empty());
        let (land, types) = land_of_type_line("Land");
        assert!(land && types.is_empty());
    }

    fn mtgjson_err(text: &str) -> String {
        load_mtgjson(text.as_bytes())
            .expect_err("refused")
            .to_string()
    }

    fn scryfall_err(text: &str) -> String {
        load_scryfall(text.as_bytes())
            .expect_err("refused")
            .to_string()
    }

    #[test]
    fn mt1_malformed_files_say_what_is_wrong() {
        assert_eq!(
            mtgjson_err("{\"meta\": {}}\n"),
            "an MTGJSON AtomicCards file has a \"data\" object; this file has none"
        );
        let text = mtgjson_err("<html>not JSON</html>");
        assert!(
            text.starts_with("not JSON at line 1 column 1: expected value"),
            "{text}"
        );
        let text = scryfall_err("[\n{\"name\": \"Forest\", \"cmc\": 0}\n,, ]");
        assert!(text.starts_with("not JSON at line 3 column 2"), "{text}");
        let truncated = &MTGJSON[..MTGJSON.len() / 2];
        assert!(mtgjson_err(truncated).starts_with("the JSON stops in the middle at line"));
        assert!(scryfall_err("").contains("truncated or empty"));
        assert_eq!(
            mtgjson_err(r#"{"data": {"A": [{"name": "A", "colors": []}]}}"#),
            "card #1 (\"A\") lacks manaValue"
        );
        assert_eq!(
            scryfall_err(r#"[{"name": "A", "cmc": 1}, {"name": "B", "colors": []}]"#),
            "card #2 (\"B\") lacks cmc"
        );
        assert_eq!(scryfall_err(r#"[{"cmc": 1}]"#), "card #1 lacks name");
        let text = mtgjson_err(r#"{"data": {"A": [{"manaValue": "three"}]}}"#);
        assert!(
            text.starts_with("card #1 (\"A\") is malformed at line 1 column 37: invalid type: string \"three\", expected f64"),
            "{text}"
        );
        let text = scryfall_err(r#"[{"name": "A", "cmc": 1, "colors": "G"}]"#);
        assert!(text.starts_with("card #1 is malformed at line 1 column 38: invalid type: string \"G\", expected a sequence"), "{text}");
        assert_eq!(
            scryfall_err(r#"[{"name": "A", "cmc": 1, "colors": ["P"]}]"#),
            "card #1 (\"A\") has colour \"P\"; colours are \"W\", \"U\", \"B\", \"R\" and \"G\""
        );
        assert_eq!(
            scryfall_err(r#"[{"name": "A", "cmc": -1}]"#),
            "card #1 (\"A\") has cmc -1; a mana value is a number from 0 up"
        );
        let text = scryfall_err(r#"{"data": {}}"#);
        assert!(
            text.starts_with(
                "invalid type: map, expected a Scryfall bulk file: one JSON array of card objects"
            ),
            "{text}"
        );
        let text = mtgjson_err("[]");
        assert!(
            text.starts_with("invalid type: sequence, expected an MTGJSON AtomicCards file"),
            "{text}"
        );
        let text = mtgjson_err(r#"{"data": {"10E": {"name": "Tenth Edition", "cards": []}}}"#);
        assert!(text.contains("looks like AllPrintings"), "{text}");
        let text = mtgjson_err(r#"{"data": []}"#);
        assert!(
            text.starts_with("invalid type: sequence, expected \"data\" as an object"),
            "{text}"
        );
        let text = scryfall_err("[] []");
        assert!(
            text.starts_with("not JSON at line 1 column 4: trailing characters"),
            "{text}"
        );
    }

    #[test]
    fn mt1_an_index_round_trips() {
        let mut cards = load_mtgjson(MTGJSON.as_bytes()).expect("loads");
        cards.extend(load_scryfall(SCRYFALL.as_bytes()).expect("loads"));
        let mut bytes = Vec::new();
        write_index(&cards, &mut bytes).expect("written");
        assert!(bytes.starts_with(b"TAKUCARD\x01\0\0\0"));
        assert_eq!(read_index(bytes.as_slice()).expect("read back"), cards);
        let mut empty = Vec::new();
        write_index(&[], &mut empty).expect("written");
        assert_eq!(read_index(empty.as_slice()).expect("read back"), []);
    }

    #[test]
    fn mt1_an_index_refuses_other_files_versions_and_damage() {
        let err = read_index(&b"[{\"name\": \"Forest\"}]"[..]).expect_err("not an index");
        assert_eq!(
            err.to_string(),
            "not a taku card index: it does not begin with \"TAKUCARD\""
        );
        let err = read_index(&b"TAKUCARD\x02\0\0\0\0\0\0\0"[..]).expect_err("version 2");
        assert_eq!(
            err.to_string(),
            "the card index is format version 2; this taku reads version 1: rebuild it with \
             `taku mtg cards --load FILE`"
        );
        let err = read_index(&b"TAKU"[..]).expect_err("short");
        assert!(
            err.to_string()
                .starts_with("the card index ends early, in its header")
        );

        let cards = load_mtgjson(MTGJSON.as_bytes()).expect("loads");
        let mut bytes = Vec::new();
        write_index(&cards, &mut bytes).expect("written");
        let err = read_index(&bytes[..bytes.len() - 3]).expect_err("cut short");
        assert!(
            err.to_string()
                .starts_with("the card index ends early, in card 8 of 8"),
            "{err}"
        );
        bytes.push(0);
        let err = read_index(bytes.as_slice()).expect_err("trailing");
        assert!(
            err.to_string()
                .starts_with("the card index has bytes after its 8 cards")
        );
        bytes.pop();
        // The first card's flags byte sits right after the 16-byte header.
        bytes[16] = 0xff;
        let err = read_index(bytes.as_slice()).expect_err("corrupt");
        assert!(
            err.to_string()
                .starts_with("the card index is corrupt at card 1 of 8"),
            "{err}"
        );
    }
}
