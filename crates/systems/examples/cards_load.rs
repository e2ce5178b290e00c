//! Generates a large bulk card file and measures loading it as a stream (MT-1): time,
//! cards kept and peak memory (VmHWM from /proc/self/status), then the index's write and
//! read times.
//!
//! ```sh
//! cargo build --release -p taku-systems --example cards_load
//! B=target/release/examples/cards_load
//! $B --format scryfall --generate /tmp/scryfall.json --mb 500   # ~200k printings of 30k names
//! $B --format scryfall --load /tmp/scryfall.json --index /tmp/cards.idx
//! $B --format mtgjson --generate /tmp/atomic.json --mb 500
//! $B --format mtgjson --load /tmp/atomic.json
//! ```
//!
//! Generate and load in separate runs so the peak memory is the load's alone. The
//! generated objects carry the many fields the loaders skip (oracle text, legalities,
//! image URIs, prices, foreign text, rulings …), so the file is as heavy per card as the
//! real ones.

use std::error::Error;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::time::{Duration, Instant};
use taku_systems::mtg_trpg::builtin::builtin;
use taku_systems::mtg_trpg::loaders::{load_mtgjson, load_scryfall, read_index, write_index};

type Res<T> = Result<T, Box<dyn Error>>;

fn main() -> Res<()> {
    let mut format = "scryfall".to_string();
    let (mut generate, mut load, mut index) = (None, None, None);
    let (mut mb, mut names) = (500u64, 30_000u64);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--format" => format = value()?,
            "--generate" => generate = Some(value()?),
            "--load" => load = Some(value()?),
            "--index" => index = Some(value()?),
            "--mb" => mb = value()?.parse()?,
            "--names" => names = value()?.parse()?,
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    if format != "scryfall" && format != "mtgjson" {
        return Err("--format is scryfall or mtgjson".into());
    }
    if generate.is_none() && load.is_none() {
        return Err("usage: cards_load [--format scryfall|mtgjson] [--generate PATH [--mb N] [--names N]] [--load PATH [--index PATH]]".into());
    }
    if let Some(path) = &generate {
        let start = Instant::now();
        let mut out = Counter {
            inner: BufWriter::with_capacity(1 << 20, File::create(path)?),
            bytes: 0,
        };
        let target = mb * 1_000_000;
        let objects = if format == "scryfall" {
            generate_scryfall(&mut out, target, names)?
        } else {
            generate_mtgjson(&mut out, target)?
        };
        out.inner.flush()?;
        println!(
            "generated {path}: {} bytes ({:.0} MB), {objects} objects, {:.1} s",
            out.bytes,
            out.bytes as f64 / 1e6,
            start.elapsed().as_secs_f64()
        );
    }
    if let Some(path) = &load {
        let size = std::fs::metadata(path)?.len();
        let before = peak_rss_kib();
        let start = Instant::now();
        let file = File::open(path)?;
        let cards = if format == "scryfall" {
            load_scryfall(file)?
        } else {
            load_mtgjson(file)?
        };
        let elapsed = start.elapsed();
        println!(
            "loaded {path} ({:.0} MB, {format}): {} cards in {:.2} s ({:.0} MB/s); peak RSS {} MiB (before loading {} MiB)",
            size as f64 / 1e6,
            cards.len(),
            elapsed.as_secs_f64(),
            size as f64 / 1e6 / elapsed.as_secs_f64(),
            peak_rss_kib() / 1024,
            before / 1024
        );
        if let Some(index) = &index {
            let start = Instant::now();
            write_index(&cards, File::create(index)?)?;
            let written = start.elapsed();
            let index_size = std::fs::metadata(index)?.len();
            let mut reads = Vec::new();
            let mut dbs = Vec::new();
            for _ in 0..20 {
                let start = Instant::now();
                let back = read_index(File::open(index)?)?;
                reads.push(start.elapsed());
                assert_eq!(back.len(), cards.len(), "the index holds every card");
                let start = Instant::now();
                let mut db = builtin();
                for card in back {
                    db.insert(card);
                }
                dbs.push(start.elapsed());
            }
            println!(
                "index {index}: {} cards, {index_size} bytes, written in {:.1} ms; read_index \
                 median {:.1} ms (min {:.1}); building the CardDb from it median {:.1} ms",
                cards.len(),
                ms(written),
                ms(median(&mut reads)),
                ms(reads.iter().copied().min().unwrap_or_default()),
                ms(median(&mut dbs))
            );
        }
    }
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

/// The process's peak resident set (VmHWM), in KiB; 0 where /proc is missing.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// A writer that counts what it wrote.
struct Counter<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A small deterministic generator (xorshift64*), so runs are comparable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn uuid(&mut self) -> String {
        let (a, b) = (self.next(), self.next());
        format!(
            "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xffff,
            b >> 48,
            b & 0xffff_ffff_ffff
        )
    }
}

/// What a generated card is: its shape and characteristics, fixed by its number.
struct Shape {
    name: String,
    kind: Kind,
    cmc: u64,
    colors: &'static str,
}

enum Kind {
    Normal,
    Land(&'static str),
    Devoid,
    Split,
    DoubleFaced,
}

const COLOURS: [&str; 7] = [
    r#"["W"]"#,
    r#"["U"]"#,
    r#"["B"]"#,
    r#"["R"]"#,
    r#"["G"]"#,
    r#"["G","W"]"#,
    r#"["U","R"]"#,
];
const BASICS: [&str; 6] = [
    "Forest",
    "Island",
    "Swamp",
    "Mountain",
    "Plains",
    "Forest Island",
];
const ORACLE: &str = "Flying, vigilance. When this creature enters, you may search your library for a basic land card, reveal it, put it into your hand, then shuffle.";
const FLAVOR: &str = "The forest remembers every footstep, and forgives none of them. Those who walk its paths learn patience or nothing at all.";
const LEGALITIES: &str = r#"{"standard":"not_legal","future":"not_legal","historic":"legal","timeless":"legal","gladiator":"legal","pioneer":"legal","explorer":"legal","modern":"legal","legacy":"legal","pauper":"not_legal","vintage":"legal","penny":"legal","commander":"legal","oathbreaker":"legal","standardbrawl":"not_legal","brawl":"legal","alchemy":"not_legal","paupercommander":"restricted","duel":"legal","oldschool":"not_legal","premodern":"not_legal","predh":"legal"}"#;

fn shape(i: u64) -> Shape {
    let mut rng = Rng(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let colors = COLOURS[rng.below(COLOURS.len() as u64) as usize];
    let cmc = rng.below(8);
    let kind = match rng.below(100) {
        0..=7 => Kind::Land(BASICS[rng.below(BASICS.len() as u64) as usize]),
        8..=10 => Kind::Devoid,
        11..=12 => Kind::Split,
        13..=17 => Kind::DoubleFaced,
        _ => Kind::Normal,
    };
    let name = match kind {
        Kind::Split | Kind::DoubleFaced => format!("Generated Front {i} // Generated Back {i}"),
        _ => format!("Generated Card {i}"),
    };
    Shape {
        name,
        kind,
        cmc,
        colors,
    }
}

/// Writes a Scryfall-style "all cards" file of about `target` bytes: printings of
/// `names` distinct cards in a scattered order, one in ten in Japanese.
fn generate_scryfall(out: &mut Counter<impl Write>, target: u64, names: u64) -> Res<u64> {
    let mut rng = Rng(0x5eed);
    write!(out, "[")?;
    let mut objects = 0u64;
    while out.bytes < target {
        let n = (objects * 7919 + objects / names) % names;
        let s = shape(n);
        let ja = rng.below(10) == 0;
        if objects > 0 {
            writeln!(out, ",")?;
        }
        let (id, oracle_id) = (rng.uuid(), rng.uuid());
        write!(
            out,
            r#"{{"object":"card","id":"{id}","oracle_id":"{oracle_id}","multiverse_ids":[{m}],"mtgo_id":{mt},"tcgplayer_id":{tc},"cardmarket_id":{cm},"name":"{name}","lang":"{lang}","released_at":"2019-07-12","uri":"https://api.scryfall.com/cards/{id}","scryfall_uri":"https://scryfall.com/card/m20/{n}/generated-card-{n}?utm_source=api","#,
            m = rng.below(600_000),
            mt = rng.below(90_000),
            tc = rng.below(300_000),
            cm = rng.below(500_000),
            name = s.name,
            lang = if ja { "ja" } else { "en" },
        )?;
        if ja {
            match s.kind {
                Kind::Split | Kind::DoubleFaced => {}
                _ => write!(
                    out,
                    r#""printed_name":"生成カード{n}","printed_type_line":"クリーチャー — エルフ","printed_text":"飛行、警戒。このクリーチャーが戦場に出たとき、あなたはあなたのライブラリーから基本土地カード1枚を探してもよい。","#
                )?,
            }
        }
        write!(
            out,
            r#""layout":"{layout}","highres_image":true,"image_status":"highres_scan","#,
            layout = match s.kind {
                Kind::Split => "split",
                Kind::DoubleFaced => "transform",
                _ => "normal",
            }
        )?;
        let faced = matches!(s.kind, Kind::Split | Kind::DoubleFaced);
        if !faced {
            write_image_uris(out, &id)?;
        }
        match s.kind {
            Kind::Land(types) => write!(
                out,
                r#""mana_cost":"","cmc":0.0,"type_line":"Land — {types}","oracle_text":"({{T}}: Add {{G}} or {{U}}.)","colors":[],"color_identity":["G","U"],"keywords":[],"#
            )?,
            Kind::Devoid => write!(
                out,
                r#""mana_cost":"{{{c}}}{{U}}","cmc":{cmc}.0,"type_line":"Creature — Eldrazi Drone","oracle_text":"Devoid (This card has no color.)\n{ORACLE}","power":"2","toughness":"1","colors":[],"color_identity":["U"],"keywords":["Devoid","Flying"],"#,
                c = s.cmc,
                cmc = s.cmc + 1
            )?,
            Kind::Normal => write!(
                out,
                r#""mana_cost":"{{{c}}}{{G}}","cmc":{cmc}.0,"type_line":"Creature — Elf Druid","oracle_text":"{ORACLE}","power":"2","toughness":"2","colors":{colors},"color_identity":{colors},"keywords":["Flying","Vigilance"],"#,
                c = s.cmc,
                cmc = s.cmc + 1,
                colors = s.colors
            )?,
            Kind::Split | Kind::DoubleFaced => {
                let split = matches!(s.kind, Kind::Split);
                let (front, back) = s.name.split_once(" // ").unwrap_or((&s.name, ""));
                write!(
                    out,
                    r#""mana_cost":"{{1}}{{R}} // {{1}}{{U}}","cmc":{cmc}.0,"type_line":"{tl}","#,
                    cmc = if split { 4 } else { s.cmc + 1 },
                    tl = if split {
                        "Instant // Instant"
                    } else {
                        "Creature — Human Wizard // Creature — Human Insect"
                    },
                )?;
                if split {
                    write!(out, r#""colors":["U","R"],"#)?;
                }
                write!(out, r#""card_faces":["#)?;
                for (k, face) in [front, back].into_iter().enumerate() {
                    if k > 0 {
                        write!(out, ",")?;
                    }
                    write!(
                        out,
                        r#"{{"object":"card_face","name":"{face}","mana_cost":"{{1}}{{U}}","type_line":"Creature — Human Wizard","oracle_text":"{ORACLE}","colors":["U"],"power":"1","toughness":"1","artist":"Somebody Else","artist_id":"{a}","illustration_id":"{il}","#,
                        a = rng.uuid(),
                        il = rng.uuid()
                    )?;
                    if ja {
                        write!(out, r#""printed_name":"生成面{k}の{n}","#)?;
                    }
                    if split {
                        write!(out, r#""flavor_text":"{FLAVOR}"}}"#)?;
                    } else {
                        write_image_uris(out, &id)?;
                        write!(out, r#""flavor_text":"{FLAVOR}"}}"#)?;
                    }
                }
                write!(out, r#"],"color_identity":["U","R"],"keywords":[],"#)?;
            }
        }
        write!(
            out,
            r#""legalities":{LEGALITIES},"games":["paper","mtgo","arena"],"reserved":false,"game_changer":false,"foil":true,"nonfoil":true,"finishes":["nonfoil","foil"],"oversized":false,"promo":false,"reprint":true,"variation":false,"set_id":"{set_id}","set":"m20","set_name":"Core Set 2020","set_type":"core","set_uri":"https://api.scryfall.com/sets/{set_id}","scryfall_set_uri":"https://scryfall.com/sets/m20?utm_source=api","rulings_uri":"https://api.scryfall.com/cards/{id}/rulings","collector_number":"{cn}","digital":false,"rarity":"common","flavor_text":"{FLAVOR}","card_back_id":"0aeebaf5-8c7d-4636-9e82-8c27447861f7","artist":"Somebody","artist_ids":["{artist}"],"illustration_id":"{ill}","border_color":"black","frame":"2015","full_art":false,"textless":false,"booster":true,"story_spotlight":false,"edhrec_rank":{rank},"penny_rank":{penny},"prices":{{"usd":"0.{p1}","usd_foil":"1.{p2}","usd_etched":null,"eur":"0.{p3}","eur_foil":"0.{p4}","tix":"0.03"}},"related_uris":{{"gatherer":"https://gatherer.wizards.com/Pages/Card/Details.aspx?multiverseid={m}&printed=false","edhrec":"https://edhrec.com/route/?cc=Generated"}}}}"#,
            set_id = rng.uuid(),
            cn = rng.below(400),
            artist = rng.uuid(),
            ill = rng.uuid(),
            rank = rng.below(30_000),
            penny = rng.below(30_000),
            p1 = rng.below(100),
            p2 = rng.below(100),
            p3 = rng.below(100),
            p4 = rng.below(100),
            m = rng.below(600_000),
        )?;
        objects += 1;
    }
    writeln!(out, "]")?;
    Ok(objects)
}

fn write_image_uris(out: &mut impl Write, id: &str) -> io::Result<()> {
    write!(out, r#""image_uris":{{"#)?;
    for (k, size) in ["small", "normal", "art_crop"].into_iter().enumerate() {
        let ext = if size == "png" { "png" } else { "jpg" };
        write!(
            out,
            r#"{comma}"{size}":"https://cards.scryfall.io/{size}/front/{a}/{b}/{id}.{ext}?1562567892""#,
            comma = if k > 0 { "," } else { "" },
            a = &id[..1],
            b = &id[1..2],
        )?;
    }
    write!(out, "}},")
}

/// Writes an MTGJSON AtomicCards-style file of about `target` bytes, one entry per name,
/// each face with foreign data in nine languages and rulings.
fn generate_mtgjson(out: &mut Counter<impl Write>, target: u64) -> Res<u64> {
    let mut rng = Rng(0x000a_703c);
    write!(
        out,
        r#"{{"meta":{{"date":"2025-01-01","version":"5.2.2+20250101"}},"data":{{"#
    )?;
    let mut entries = 0u64;
    while out.bytes < target {
        let s = shape(entries);
        if entries > 0 {
            write!(out, ",")?;
        }
        write!(out, "\n\"{}\":[", s.name)?;
        let faced = matches!(s.kind, Kind::Split | Kind::DoubleFaced);
        let faces: Vec<(&str, &str)> = if faced {
            let (front, back) = s.name.split_once(" // ").unwrap_or((&s.name, ""));
            vec![(front, "a"), (back, "b")]
        } else {
            vec![(s.name.as_str(), "")]
        };
        for (k, (face, side)) in faces.iter().enumerate() {
            if k > 0 {
                write!(out, ",")?;
            }
            let (mv, colors, ty, types, subtypes, layout) = match s.kind {
                Kind::Land(t) => (
                    0,
                    "[]",
                    format!("Land — {t}"),
                    r#"["Land"]"#,
                    format!(
                        "[{}]",
                        t.split(' ')
                            .map(|w| format!("\"{w}\""))
                            .collect::<Vec<_>>()
                            .join(",")
                    ),
                    "normal",
                ),
                Kind::Devoid => (
                    s.cmc + 1,
                    "[]",
                    "Creature — Eldrazi Drone".into(),
                    r#"["Creature"]"#,
                    r#"["Eldrazi","Drone"]"#.into(),
                    "normal",
                ),
                Kind::Normal => (
                    s.cmc + 1,
                    s.colors,
                    "Creature — Elf Druid".into(),
                    r#"["Creature"]"#,
                    r#"["Elf","Druid"]"#.into(),
                    "normal",
                ),
                Kind::Split => (
                    4,
                    if k == 0 { r#"["R"]"# } else { r#"["U"]"# },
                    "Instant".into(),
                    r#"["Instant"]"#,
                    "[]".into(),
                    "split",
                ),
                Kind::DoubleFaced => (
                    s.cmc + 1,
                    r#"["U"]"#,
                    "Creature — Human Wizard".into(),
                    r#"["Creature"]"#,
                    r#"["Human","Wizard"]"#.into(),
                    "transform",
                ),
            };
            write!(out, r#"{{"name":"{}","#, s.name)?;
            if faced {
                write!(
                    out,
                    r#""faceName":"{face}","side":"{side}","faceManaValue":{mv}.0,"#
                )?;
            }
            write!(
                out,
                r#""manaCost":"{{{c}}}{{G}}","manaValue":{mv}.0,"convertedManaCost":{mv}.0,"colors":{colors},"colorIdentity":{colors},"type":"{ty}","types":{types},"subtypes":{subtypes},"supertypes":[],"layout":"{layout}","text":"{ORACLE}","power":"2","toughness":"2","keywords":["Flying","Vigilance"],"edhrecRank":{rank},"edhrecSaltiness":0.{salt},"firstPrinting":"M20","printings":["10E","M10","M11","M12","M13","M14","M15","ORI","M19","M20","M21","2XM","2X2","DMR","CMM","FDN","J25","PLST","SLD","MB2"],"legalities":{LEGALITIES},"leadershipSkills":{{"brawl":false,"commander":false,"oathbreaker":false}},"identifiers":{{"scryfallOracleId":"{o}","cardKingdomId":"{ck}"}},"purchaseUrls":{{"cardKingdom":"https://mtgjson.com/links/{p1}","cardmarket":"https://mtgjson.com/links/{p2}","tcgplayer":"https://mtgjson.com/links/{p3}"}},"foreignData":["#,
                c = s.cmc,
                rank = rng.below(30_000),
                salt = rng.below(100),
                o = rng.uuid(),
                ck = rng.below(300_000),
                p1 = rng.next() >> 8,
                p2 = rng.next() >> 8,
                p3 = rng.next() >> 8,
            )?;
            for (l, language) in [
                "German",
                "Spanish",
                "French",
                "Italian",
                "Japanese",
                "Korean",
                "Portuguese (Brazil)",
                "Russian",
                "Chinese Simplified",
            ]
            .into_iter()
            .enumerate()
            {
                if l > 0 {
                    write!(out, ",")?;
                }
                let (name, face_name) = if language == "Japanese" {
                    (
                        if faced {
                            format!("生成面0の{entries} // 生成面1の{entries}")
                        } else {
                            format!("生成カード{entries}")
                        },
                        format!("生成面{k}の{entries}"),
                    )
                } else {
                    (
                        format!("{language} {}", s.name),
                        format!("{language} {face}"),
                    )
                };
                write!(out, r#"{{"language":"{language}","name":"{name}","#)?;
                if faced {
                    write!(out, r#""faceName":"{face_name}","#)?;
                }
                write!(
                    out,
                    r#""text":"{ORACLE}","type":"Kreatur — Elf, Druide","flavorText":"{FLAVOR}","identifiers":{{"multiverseId":"{m}","scryfallId":"{u}"}}}}"#,
                    m = rng.below(600_000),
                    u = rng.uuid()
                )?;
            }
            write!(out, r#"],"rulings":["#)?;
            for r in 0..rng.below(6) {
                if r > 0 {
                    write!(out, ",")?;
                }
                write!(
                    out,
                    r#"{{"date":"2019-07-12","text":"If the target creature becomes an illegal target by the time the ability tries to resolve, the ability doesn't resolve. You won't search your library or gain life."}}"#
                )?;
            }
            write!(out, "]}}")?;
        }
        write!(out, "]")?;
        entries += 1;
    }
    writeln!(out, "}}}}")?;
    Ok(entries)
}
