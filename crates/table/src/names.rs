//! Names that cannot pass for another (issue 18 item 6): members', characters' and
//! keys' names are checked here after the invisible characters (`check_name`).
//!
//! What we chose, and why:
//! - **NFKC, refused rather than folded.** A name whose NFKC form differs in a letter or
//!   digit (full-width `ｇｍ`, circled, mathematical, superscript `²`, ligatures `ﬁ`,
//!   half-width katakana `ｶﾞ`, Roman numerals `Ⅳ`) is refused with the NFKC spelling
//!   suggested: folding silently would make the name a member typed differ from the one
//!   shown, and refusing keeps every stored name as typed. Compatibility characters that
//!   fold to punctuation only (full-width `（）！`, common in Japanese names) stay: they
//!   cannot spell another name.
//! - **No mixed scripts among Latin, Cyrillic and Greek** in one name (`gм`, Cyrillic м):
//!   the classic spoof, with no real name needing it.
//! - **A confusable skeleton per table.** Each name reduces to a skeleton (NFKC, case
//!   folded, then letters that look alike mapped to one: Cyrillic and Greek look-alikes
//!   of Latin letters, `0`/`o`, `1`/`l`/`I`, `rn`/`m`, `vv`/`w`, and the Japanese pairs
//!   that draw alike: katakana ロ カ エ ニ ハ ト タ ー and the kanji 口 力 工 二 八 卜 夕
//!   一, katakana ヘ and hiragana へ). A new member or character whose skeleton equals
//!   another's at the table is refused, naming the one it looks like. This is the idea
//!   of Unicode's UTS #39 skeletons with a short hand-written table of the look-alikes
//!   players meet (Latin, Cyrillic, Greek, Japanese), not the whole confusables data
//!   file: that file is 6,000+ mappings, would be a new dependency or generated data,
//!   and maps many pairs no table needs; the short table covers the spoofs of a name
//!   written in the scripts our players use, and the skeleton check is per table, where
//!   a look-alike matters.

use unicode_normalization::UnicodeNormalization;

/// The NFKC spelling of `name` when it differs in a letter or digit; `None` when the
/// name is fine as it is.
pub(crate) fn compatibility_form(name: &str) -> Option<String> {
    let mut changed = false;
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let folded: String = std::iter::once(c).nfkc().collect();
        if folded.chars().ne(std::iter::once(c)) && folded.chars().any(char::is_alphanumeric) {
            changed = true;
            out.push_str(&folded);
        } else {
            out.push(c);
        }
    }
    // Marks that combine (a half-width voiced mark after its kana) fold with their base.
    changed.then(|| out.nfkc().collect())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Script {
    Latin,
    Cyrillic,
    Greek,
}

fn script(c: char) -> Option<Script> {
    match u32::from(c) {
        _ if c.is_ascii_alphabetic() => Some(Script::Latin),
        0x00C0..=0x024F | 0x1E00..=0x1EFF => Some(Script::Latin),
        0x0370..=0x03FF | 0x1F00..=0x1FFF => Some(Script::Greek),
        0x0400..=0x052F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => {
            Some(Script::Cyrillic)
        }
        _ => None,
    }
    .filter(|_| c.is_alphabetic())
}

/// The scripts `name` mixes, when it mixes Latin, Cyrillic and Greek letters.
pub(crate) fn mixed_scripts(name: &str) -> Option<(&'static str, &'static str)> {
    let mut first: Option<Script> = None;
    for s in name.chars().filter_map(script) {
        match first {
            None => first = Some(s),
            Some(f) if f != s => {
                let word = |s| match s {
                    Script::Latin => "Latin",
                    Script::Cyrillic => "Cyrillic",
                    Script::Greek => "Greek",
                };
                return Some((word(f), word(s)));
            }
            Some(_) => {}
        }
    }
    None
}

/// The first letter or digit of `name` outside the scripts a name may be written in
/// (attack pass 7, A7-2): Latin (its letters with accents, not the phonetic blocks: IPA
/// `ɑ ɡ`, small capitals `ɢᴍ`), Greek, Cyrillic, kana, kanji, hangul, and the ASCII
/// digits. Scripts such as Lisu (`ꓖꓟ`), Cherokee (`ᏴᎾᏴ`), Coptic (`bⲟb`), Canadian
/// syllabics (`ᑲob`) or another script's digits (`b০b`) hold letters drawn exactly as
/// Latin ones; a hand-written table of look-alikes can never list them all, and no
/// player at a Japanese table needs them. Symbols, punctuation and emoji are not letters
/// and stay allowed (`ミナ☆`).
pub(crate) fn foreign_letter(name: &str) -> Option<char> {
    name.chars().find(|&c| {
        c.is_alphanumeric()
            && !matches!(u32::from(c),
                0x30..=0x39 | 0x41..=0x5A | 0x61..=0x7A
                // Latin-1 letters, Latin Extended-A and -B, Latin Extended Additional.
                | 0xAA | 0xBA | 0xC0..=0x24F | 0x1E00..=0x1EFF
                // Greek, Cyrillic.
                | 0x370..=0x3FF | 0x1F00..=0x1FFF | 0x400..=0x52F
                // Hangul jamo, CJK (々 〆 〇 〻), kana, hangul, kanji.
                | 0x1100..=0x11FF | 0x3005..=0x3007 | 0x303B | 0x3041..=0x30FF
                | 0x3131..=0x318F | 0x31F0..=0x31FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
                | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF)
    })
}

/// One character's look-alike class (after NFKC and lower case).
fn look_alike(c: char) -> char {
    match c {
        // Cyrillic.
        'а' => 'a',
        'в' => 'b',
        'е' | 'ё' => 'e',
        'к' => 'k',
        'м' => 'm',
        'н' | 'һ' => 'h',
        'о' => 'o',
        'р' => 'p',
        'с' => 'c',
        'т' => 't',
        'у' => 'y',
        'х' => 'x',
        'ѕ' => 's',
        'і' | 'ї' => 'i',
        'ј' => 'j',
        'ԁ' => 'd',
        'ԛ' => 'q',
        'ԝ' => 'w',
        'ӏ' => 'l',
        // Greek.
        'α' => 'a',
        'β' => 'b',
        'ε' => 'e',
        'η' => 'n',
        'ι' => 'i',
        'κ' => 'k',
        'μ' | 'υ' => 'u',
        'ν' => 'v',
        'ο' => 'o',
        'ρ' => 'p',
        'τ' => 't',
        'χ' => 'x',
        'γ' => 'y',
        'ϲ' => 'c',
        // Latin and digits that draw alike.
        '0' => 'o',
        '1' | '|' => 'l',
        'ɡ' => 'g',
        // Japanese: kanji that draw as katakana, katakana that draw as hiragana.
        '口' => 'ロ',
        '力' => 'カ',
        '工' => 'エ',
        '二' => 'ニ',
        '八' => 'ハ',
        '卜' => 'ト',
        '夕' => 'タ',
        '一' | '―' | '─' => 'ー',
        'ヘ' => 'へ',
        'ベ' => 'べ',
        'ペ' => 'ぺ',
        // A7-2: Latin letters drawn as others (dotless ı, tone letters ƅ ƃ).
        'ı' => 'i',
        'ƅ' | 'ƃ' => 'b',
        'ǀ' => 'l',
        '¡' => 'i',
        c => c,
    }
}

/// The Latin letter that `c` draws as *before* case folding, for letters whose lower case
/// would lose the likeness (attack pass 6, A6-2): Latin small capitals (`ɢᴍ` draws as
/// `GM`), Cherokee letters, upper or lower case (`ᏀᎷ`), Greek capitals (`Μ` is an M,
/// while its lower case `μ` draws as a u), and Latin letters with a stroke or hook that
/// no decomposition removes (`ǥ`).
fn capital_look_alike(c: char) -> char {
    // Cherokee lower case (U+AB70..U+ABBF) is drawn as its upper case (U+13A0..).
    let c = match u32::from(c) {
        n @ 0xAB70..=0xABBF => char::from_u32(n - 0xAB70 + 0x13A0).unwrap_or(c),
        n @ 0x13F8..=0x13FD => char::from_u32(n - 8).unwrap_or(c),
        _ => c,
    };
    match c {
        // Latin small capitals.
        'ᴀ' => 'a',
        'ʙ' => 'b',
        'ᴄ' => 'c',
        'ᴅ' => 'd',
        'ᴇ' => 'e',
        'ꜰ' => 'f',
        'ɢ' => 'g',
        'ʜ' => 'h',
        'ɪ' => 'i',
        'ᴊ' => 'j',
        'ᴋ' => 'k',
        'ʟ' => 'l',
        'ᴍ' => 'm',
        'ɴ' => 'n',
        'ᴏ' => 'o',
        'ᴘ' => 'p',
        'ʀ' => 'r',
        'ꜱ' => 's',
        'ᴛ' => 't',
        'ᴜ' => 'u',
        'ᴠ' => 'v',
        'ᴡ' => 'w',
        'ʏ' => 'y',
        'ᴢ' => 'z',
        // Cherokee letters that draw as Latin capitals.
        'Ꭺ' => 'A',
        'Ᏼ' => 'B',
        'Ꮯ' => 'C',
        'Ꭰ' => 'D',
        'Ꭼ' => 'E',
        'Ꮐ' | 'Ᏻ' => 'G',
        'Ꮋ' => 'H',
        'Ꮖ' => 'I',
        'Ꮮ' => 'L',
        'Ꭻ' => 'J',
        'Ꮶ' => 'K',
        'Ꮇ' => 'M',
        'Ꮲ' => 'P',
        'Ꭱ' => 'R',
        'Ꮪ' | 'Ꮥ' => 'S',
        'Ꭲ' => 'T',
        'Ꮩ' => 'V',
        'Ꮃ' => 'W',
        'Ꮓ' => 'Z',
        'Ꭹ' => 'y',
        'Ꮻ' => 'O',
        // Greek capitals that draw as Latin capitals.
        'Α' => 'A',
        'Β' => 'B',
        'Ε' => 'E',
        'Ζ' => 'Z',
        'Η' => 'H',
        // aw9 F1: every capital I (Greek Ι, Cyrillic І Ї, Cherokee Ꮖ) is read as the
        // Latin `I` is, then as `l` or as `i` (`skeleton_with`).
        'Ι' | 'І' | 'Ї' => 'I',
        'Κ' => 'K',
        'Μ' => 'M',
        'Ν' => 'N',
        'Ο' => 'O',
        'Ρ' => 'P',
        'Τ' => 'T',
        'Υ' => 'Y',
        'Χ' => 'X',
        // Attack pass 8, A8-1: Komi sje (`ԌМ` draws as `GM`), Greek gamma, G with stroke.
        'Ԍ' | 'Γ' | 'Ǥ' => 'G',
        'ԍ' => 'g',
        // Latin letters with a stroke or hook.
        'ǥ' | 'ɠ' => 'g',
        'đ' | 'ɗ' => 'd',
        'ħ' => 'h',
        'ł' | 'ƚ' => 'l',
        'ø' => 'o',
        'ŧ' => 't',
        'ƀ' => 'b',
        'ɨ' => 'i',
        'ʉ' => 'u',
        'ƶ' => 'z',
        'ɱ' => 'm',
        'ɲ' | 'ɳ' => 'n',
        c => c,
    }
}

/// Whether `c` is a combining mark that is not one of the kana voicing marks (゛゜ as
/// U+3099/U+309A, which tell ガ from カ).
fn foreign_mark(c: char) -> bool {
    unicode_normalization::char::is_combining_mark(c) && !matches!(c, '\u{3099}' | '\u{309A}')
}

/// The combining mark left in `name` once it is composed (NFC), if any (attack pass 2,
/// A2-6: `g̵m`, `g̲m`, `gm҉` draw as a struck-through, underlined or decorated `gm`).
/// Letters with accents typed as a letter and a mark compose and pass (`José`), as do
/// kana with voicing marks (`ガ`).
pub(crate) fn loose_mark(name: &str) -> Option<char> {
    let composed: Vec<char> = name.nfkc().collect();
    composed
        .iter()
        .enumerate()
        .find(|&(i, &c)| {
            foreign_mark(c)
                // A kana voicing mark with no kana to voice (A6-2: `ﾞgm`, a half-width
                // voiced mark before Latin letters) draws as a stray mark.
                || (matches!(c, '\u{3099}' | '\u{309A}')
                    && !i.checked_sub(1).is_some_and(|p| is_kana(composed[p])))
        })
        .map(|(_, &c)| c)
}

/// Hiragana and katakana (a voicing mark after one of these is part of it).
fn is_kana(c: char) -> bool {
    matches!(u32::from(c), 0x3040..=0x30FF | 0x31F0..=0x31FF)
}

/// What `name` looks like: two names with the same skeleton could be taken for each
/// other. Accents are dropped (`gṁ` looks like `gm`), kana voicing marks kept.
#[cfg(test)]
fn skeleton(name: &str) -> String {
    skeleton_with(name, true)
}

/// [`skeleton`], with `I` read as `l` (`BiII` for `Bill`) or, without, as the capital
/// of `i` (`ALICE` for `alice`): a name is taken for another if either matches.
fn skeleton_with(name: &str, capital_i_as_l: bool) -> String {
    let bare: String = name.nfkd().filter(|&c| !foreign_mark(c)).nfkc().collect();
    let folded: String = bare
        .chars()
        .map(capital_look_alike)
        // `I` and `l` look alike before case folding makes `I` an `i`.
        .map(|c| if capital_i_as_l && c == 'I' { 'l' } else { c })
        .flat_map(char::to_lowercase)
        .map(look_alike)
        .collect();
    // Attack pass 8, A8-1: a dot, a hyphen or a space does not tell a name from another
    // (`bob·`, `b.ob`, `b_ob` pass for `bob` in a log line). A name of punctuation alone
    // keeps it.
    let letters: String = folded.chars().filter(|&c| !separator(c)).collect();
    let folded = if letters.is_empty() { folded } else { letters };
    folded.replace("rn", "m").replace("vv", "w")
}

/// Punctuation and spaces that a reader skips inside a name: ASCII punctuation, the
/// middle dots, full stops, commas, hyphens and dashes of Latin and Japanese text, and
/// quotes. The katakana long mark `ー` and the dashes drawn like it are letters here.
fn separator(c: char) -> bool {
    (c.is_ascii_punctuation() && c != '|')
        || c.is_whitespace()
        || matches!(
            c,
            '·' | '‧'
                | '・'
                | '･'
                | '•'
                | '∙'
                | '⋅'
                | '。'
                | '、'
                | '‐'
                | '‑'
                | '‒'
                | '–'
                | '—'
                | '‘'
                | '’'
                | '“'
                | '”'
                | '´'
                | '`'
                | '¸'
                | '˙'
        )
}

/// The first of `names` that is `name` itself or that `name` could be taken for.
pub(crate) fn same_or_like<'a>(
    name: &str,
    names: impl IntoIterator<Item = &'a String> + Clone,
) -> Option<&'a str> {
    names
        .clone()
        .into_iter()
        .find(|other| other.as_str() == name)
        .map(String::as_str)
        .or_else(|| looks_like(name, names))
}

/// The first of `names` (other than `name` itself) that `name` could be taken for.
pub(crate) fn looks_like<'a>(
    name: &str,
    names: impl IntoIterator<Item = &'a String>,
) -> Option<&'a str> {
    let (mine, cased) = (skeleton_with(name, true), skeleton_with(name, false));
    names
        .into_iter()
        .find(|other| {
            other.as_str() != name
                && (skeleton_with(other, true) == mine || skeleton_with(other, false) == cased)
        })
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compatibility_forms_of_letters_are_found_and_punctuation_stays() {
        assert_eq!(compatibility_form("ｇｍ").as_deref(), Some("gm"));
        assert_eq!(compatibility_form("ｶﾞﾙ").as_deref(), Some("ガル"));
        assert_eq!(compatibility_form("Ⅳ世").as_deref(), Some("IV世"));
        assert_eq!(compatibility_form("x²").as_deref(), Some("x2"));
        assert_eq!(compatibility_form("ﬁn").as_deref(), Some("fin"));
        assert_eq!(compatibility_form("ミナ（仮）！"), None);
        assert_eq!(compatibility_form("アリス"), None);
        assert_eq!(compatibility_form("gm"), None);
    }

    /// Attack pass 2, A2-6: marks that stay marks after composition are found; accents
    /// that compose with their letter and kana voicing marks are not.
    #[test]
    fn loose_combining_marks_are_found() {
        assert_eq!(loose_mark("g\u{0335}m"), Some('\u{0335}'));
        assert_eq!(loose_mark("g\u{0332}m"), Some('\u{0332}'));
        assert_eq!(loose_mark("gm\u{0489}"), Some('\u{0489}'));
        assert_eq!(loose_mark("gm\u{0307}"), None, "composes to ṁ");
        assert_eq!(loose_mark("Jose\u{0301}"), None, "composes to é");
        assert_eq!(loose_mark("カ\u{3099}ル"), None, "composes to ガ");
        assert_eq!(
            loose_mark("ア\u{3099}"),
            None,
            "a kana voicing mark stays allowed"
        );
        assert_eq!(loose_mark("ミナ"), None);
        // A6-2: a voicing mark with no kana before it.
        assert_eq!(loose_mark("\u{FF9E}gm"), Some('\u{3099}'));
        assert_eq!(loose_mark("g\u{3099}m"), Some('\u{3099}'));
        assert_eq!(loose_mark("ｶﾞ"), None, "half-width kana with its mark");
    }

    /// Attack pass 7, A7-2: letters of scripts drawn as Latin are refused outright.
    #[test]
    fn letters_of_other_scripts_are_found() {
        for (name, c) in [
            ("ꓖꓟ", 'ꓖ'),
            ("ꓐꓳꓐ", 'ꓐ'),
            ("ᏴᎾᏴ", 'Ᏼ'),
            ("\u{AB86}\u{AB87}", '\u{AB86}'),
            ("bⲟb", 'ⲟ'),
            ("b০b", '০'),
            ("ɑlice", 'ɑ'),
            ("ɡⲙ", 'ɡ'),
            ("ᑲob", 'ᑲ'),
            ("ɢᴍ", 'ɢ'),
        ] {
            assert_eq!(foreign_letter(name), Some(c), "{name}");
        }
        for name in [
            "alice",
            "José",
            "Zoë",
            "Łukasz",
            "Nguyễn",
            "Наташа",
            "Ωμέγα",
            "ミナ☆",
            "佐々木",
            "ゆき",
            "김민수",
            "〆切",
            "R2D2",
            "ミナ(仮)",
        ] {
            assert_eq!(foreign_letter(name), None, "{name}");
        }
    }

    #[test]
    fn latin_cyrillic_and_greek_do_not_mix() {
        assert_eq!(mixed_scripts("gм"), Some(("Latin", "Cyrillic")));
        assert_eq!(mixed_scripts("gο"), Some(("Latin", "Greek")));
        assert_eq!(mixed_scripts("Наташа"), None);
        assert_eq!(mixed_scripts("alice"), None);
        assert_eq!(
            mixed_scripts("ミナgm"),
            None,
            "Japanese with Latin is common"
        );
    }

    #[test]
    fn look_alikes_share_a_skeleton() {
        for (a, b) in [
            ("gm", "GM"),
            ("alice", "аlice"),
            ("paul", "раul"),
            ("bob", "b0b"),
            ("Bill", "bi11"),
            ("modern", "modem"),
            ("ロイ", "口イ"),
            ("カイ", "力イ"),
            ("ヘレン", "へレン"),
            ("ルー", "ル一"),
            ("omega", "οmega"),
            // A6-2: small capitals, Cherokee, Greek capitals, stroked letters.
            ("GM", "ɢᴍ"),
            ("alice", "ᴀʟɪᴄᴇ"),
            ("bob", "ʙᴏʙ"),
            ("GM", "ᏀᎷ"),
            ("gm", "Ꮐm"),
            ("gm", "\u{AB90}\u{AB87}"),
            ("OM", "ΟΜ"),
            ("gm", "ǥm"),
            // A7-2.
            ("alice", "alıce"),
            ("bob", "ƅob"),
            ("bob", "ƃob"),
            // Attack pass 8, A8-1, and aw9 F1 (Cyrillic and Greek capital I).
            ("GM", "\u{50C}\u{41C}"),
            ("GM", "ǤM"),
            ("GM", "ΓΜ"),
            ("bob", "b.ob"),
            ("bob", "bob·"),
            ("bob", "b‧ob"),
            ("bob", "b_ob"),
            ("bob", "b-ob"),
            ("alice", "al¡ce"),
            ("\u{410}\u{406}", "\u{391}\u{399}"),
            (
                "\u{422}\u{410}\u{425}\u{406}",
                "\u{3A4}\u{391}\u{3A7}\u{399}",
            ),
            ("AI", "\u{391}\u{399}"),
        ] {
            assert_eq!(skeleton(a), skeleton(b), "{a} / {b}");
        }
        assert_ne!(skeleton("alice"), skeleton("alina"));
        // Names of punctuation alone keep it; the long mark is a letter.
        assert_ne!(skeleton("…"), skeleton("。。"));
        assert_ne!(skeleton("ルー"), skeleton("ル"));
        // A2-6: accents and case.
        assert_eq!(skeleton("gm"), skeleton("g\u{1E41}"), "gṁ");
        assert_eq!(skeleton("gm"), skeleton("gm\u{0307}"));
        assert_ne!(
            skeleton("ガル"),
            skeleton("カル"),
            "voicing marks tell kana apart"
        );
        assert_ne!(skeleton("パン"), skeleton("ハン"));
        let alice = ["alice".to_string()];
        assert_eq!(looks_like("ALICE", &alice), Some("alice"));
        assert_eq!(looks_like("Alice", &alice), Some("alice"));
        assert_eq!(looks_like("José", &["Jose".to_string()]), Some("Jose"));
        assert_ne!(skeleton("ミナ"), skeleton("ミカ"));
        let members = ["gm".to_string(), "alice".to_string()];
        assert_eq!(looks_like("аlice", &members), Some("alice"));
        assert_eq!(looks_like("alice", &members), None, "itself");
        assert_eq!(looks_like("bob", &members), None);
    }
}
