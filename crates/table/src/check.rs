//! Checks that read table state: a dice command may name a character's field in braces,
//! `{KEY}` (a field of the roller's own character, when they own exactly one) or
//! `{CHARACTER.KEY}`, and the table replaces it with the field's value before rolling:
//! `2D6+{知覚}>=10` with 知覚 = 3 rolls `2D6+3>=10`. Only whole numbers are substituted, so
//! a field can never smuggle another command into a roll.

use crate::state::Character;
use std::collections::BTreeMap;
use taku_dice::Text;

/// A `{…}` reference found in a line: its byte range and the text between the braces.
fn references(line: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    let mut rest = 0;
    std::iter::from_fn(move || {
        let open = rest + line[rest..].find('{')?;
        let close = open + line[open..].find('}')?;
        rest = close + 1;
        Some((open, close + 1, &line[open + 1..close]))
    })
}

/// `line` with every reference replaced by its value; `Err` says which reference does not
/// resolve and why. A line without references comes back unchanged.
pub(crate) fn resolve(
    line: &str,
    actor: &str,
    characters: &BTreeMap<String, Character>,
) -> Result<String, Text> {
    let mut out = String::with_capacity(line.len());
    let mut last = 0;
    for (start, end, reference) in references(line) {
        out.push_str(&line[last..start]);
        out.push_str(&value(reference, actor, characters)?);
        last = end;
    }
    out.push_str(&line[last..]);
    Ok(out)
}

/// The characters `line` names in `{CHARACTER.KEY}` references, each once.
pub(crate) fn named<'a>(line: &'a str, characters: &BTreeMap<String, Character>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for (_, _, reference) in references(line) {
        if let Some((name, _)) = reference.split_once('.')
            && characters.contains_key(name)
            && !out.contains(&name)
        {
            out.push(name);
        }
    }
    out
}

/// The `{CHARACTER.KEY}` references of `line` to a character that exists, as
/// (character, key) pairs.
pub(crate) fn named_keys<'a>(
    line: &'a str,
    characters: &BTreeMap<String, Character>,
) -> Vec<(&'a str, &'a str)> {
    references(line)
        .filter_map(|(_, _, reference)| reference.split_once('.'))
        .filter(|(name, _)| characters.contains_key(*name))
        .collect()
}

/// The characters `line`'s references read (`{CHARACTER.KEY}`, or the actor's one
/// character for `{KEY}`), each once.
pub(crate) fn targets(
    line: &str,
    actor: &str,
    characters: &BTreeMap<String, Character>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, _, reference) in references(line) {
        if let Ok((name, _)) = target(reference, actor, characters)
            && !out.contains(&name)
        {
            out.push(name);
        }
    }
    out
}

/// The first reference of `line` whose character resolves but has no such field: the
/// character and the key as [`crate::field_key`] stores it.
pub(crate) fn missing(
    line: &str,
    actor: &str,
    characters: &BTreeMap<String, Character>,
) -> Option<(String, String)> {
    references(line).find_map(|(_, _, reference)| {
        let (name, key) = target(reference, actor, characters).ok()?;
        let key = crate::field_key(key);
        (!characters[&name].fields.contains_key(&key)).then_some((name, key))
    })
}

/// `line` with references typed with the IME on (`｛理知｝`, `｛ミナ．理知｝`) written as
/// ASCII (`{理知}`, `{ミナ.理知}`); the rest as it is. The table reads a dice line so
/// when it is a command (issue 17: full-width commands work), never chat.
pub(crate) fn ascii_braces(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('｛') {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut inside = false;
    for c in line.chars() {
        out.push(match c {
            '｛' if !inside => {
                inside = true;
                '{'
            }
            '｝' | '}' if inside => {
                inside = false;
                '}'
            }
            '{' if !inside => {
                inside = true;
                '{'
            }
            '．' if inside => '.',
            c => c,
        });
    }
    std::borrow::Cow::Owned(out)
}

/// `line` with every reference replaced by 0: whether it would be a command at all.
pub(crate) fn placeholder(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut last = 0;
    for (start, end, _) in references(line) {
        out.push_str(&line[last..start]);
        out.push('0');
        last = end;
    }
    out.push_str(&line[last..]);
    out
}

/// The character a reference names (`{CHARACTER.KEY}`) and the key, or the actor's one
/// character and the whole reference as key (`{知覚}`, `{HP.max}`).
fn target<'a>(
    reference: &'a str,
    actor: &str,
    characters: &BTreeMap<String, Character>,
) -> Result<(String, &'a str), Text> {
    if let Some((name, key)) = reference.split_once('.')
        && characters.contains_key(name)
    {
        return Ok((name.to_string(), key));
    }
    let mine: Vec<&String> = characters
        .iter()
        .filter(|(_, c)| c.owner == actor)
        .map(|(n, _)| n)
        .collect();
    // `{ケン.理知}` where ケン is no character: a key with a dot (`{HP.max}`) only if one of
    // the roller's characters has that key or its first part; otherwise the name is the
    // mistake, and saying so beats 「ミナ には 'ケン.理知' がありません」.
    if let Some((name, _)) = reference.split_once('.') {
        let (whole, first) = (crate::field_key(reference), crate::field_key(name));
        let has = |n: &&String| {
            let fields = &characters[n.as_str()].fields;
            fields.contains_key(&whole) || fields.contains_key(&first)
        };
        if !mine.iter().any(has) {
            return Err(Text::new(
                format!("{{{reference}}}: '{name}' という名前のキャラクターはいません"),
                format!("{{{reference}}}: no character named '{name}'"),
            ));
        }
    }
    match mine.as_slice() {
        [one] => Ok(((*one).clone(), reference)),
        [] => Err(match reference.split_once('.') {
            Some((name, _)) => Text::new(
                format!("{{{reference}}}: '{name}' という名前のキャラクターはいません"),
                format!("{{{reference}}}: no character named '{name}'"),
            ),
            None => Text::new(
                format!(
                    "{{{reference}}} にはあなたのキャラクターが必要ですが、まだいません。\
                     /char new 名前 で作るか、{{キャラクター.{reference}}} と書いてください"
                ),
                format!(
                    "{{{reference}}} needs your character, and you have none; create one \
                     with /char new NAME, or write {{CHARACTER.{reference}}}"
                ),
            ),
        }),
        several => {
            let names: Vec<&str> = several.iter().map(|s| s.as_str()).collect();
            Err(Text::new(
                format!(
                    "{{{reference}}}: あなたのキャラクターは複数います（{}）。\
                     {{キャラクター.{reference}}} と書いてください",
                    names.join("、")
                ),
                format!(
                    "{{{reference}}}: you have several characters ({}); write \
                     {{CHARACTER.{reference}}}",
                    names.join(", ")
                ),
            ))
        }
    }
}

fn value(
    reference: &str,
    actor: &str,
    characters: &BTreeMap<String, Character>,
) -> Result<String, Text> {
    let (name, key) = target(reference, actor, characters)?;
    let key = crate::field_key(key);
    let character = &characters[&name];
    let Some(value) = character.fields.get(&key) else {
        return Err(Text::new(
            format!(
                "{{{reference}}}: {name} には '{key}' がありません。/char set {name} {key} 値 で設定してください"
            ),
            format!(
                "{{{reference}}}: {name} has no field '{key}'; set it with /char set {name} {key} VALUE"
            ),
        ));
    };
    match value.trim().parse::<i64>() {
        Ok(n) => Ok(n.to_string()),
        Err(_) => Err(Text::new(
            format!("{{{reference}}}: {name} の {key} は '{value}' で、整数ではありません"),
            format!("{{{reference}}}: {name}'s {key} is '{value}', not a whole number"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet() -> BTreeMap<String, Character> {
        let mut c = BTreeMap::new();
        c.insert(
            "ミナ".to_string(),
            Character {
                owner: "alice".into(),
                fields: [("知覚", "3"), ("name", "x; S1D100"), ("負", "-2")]
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .into(),
            },
        );
        c
    }

    #[test]
    fn braces_typed_with_the_ime_on_are_braces() {
        assert_eq!(
            ascii_braces("ＡＷ＋｛理知｝＞＝１０"),
            "ＡＷ＋{理知}＞＝１０"
        );
        assert_eq!(
            ascii_braces("2D6+｛ミナ．理知｝+{HP}"),
            "2D6+{ミナ.理知}+{HP}"
        );
        assert_eq!(ascii_braces("2D6 ミナ．です"), "2D6 ミナ．です");
    }

    #[test]
    fn references_resolve_to_whole_numbers_only() {
        let c = sheet();
        assert_eq!(
            resolve("2D6+{知覚}>=10", "alice", &c),
            Ok("2D6+3>=10".into())
        );
        assert_eq!(
            resolve("2D6{ミナ.負}+{知覚}", "bob", &c).map_err(|_| ()),
            Err(()),
            "bob owns no character, so {{知覚}} does not resolve"
        );
        assert_eq!(resolve("2D6+{ミナ.知覚}", "bob", &c), Ok("2D6+3".into()));
        assert_eq!(resolve("2D6{ミナ.負}", "bob", &c), Ok("2D6-2".into()));
        let err = resolve("2D6+{name}", "alice", &c).expect_err("not a number");
        assert!(err.en().contains("not a whole number"), "{err:?}");
        assert!(err.ja().contains("整数ではありません"), "{err:?}");
        let err = resolve("2D6+{力}", "alice", &c).expect_err("no field");
        assert!(err.ja().contains("/char set ミナ 力 値"), "{err:?}");
        assert_eq!(
            resolve("no refs {here", "alice", &c),
            Ok("no refs {here".into())
        );
        assert_eq!(placeholder("AW+{理知}>=10"), "AW+0>=10");
    }

    /// aw6: `{ケン.理知}` naming no character says so, whether the roller owns one
    /// character or several, instead of reading `ケン.理知` as a key of the roller's own;
    /// a dotted key the roller's character has (`{HP.max}`, `{知覚.x}` under 知覚) still
    /// reads as a key.
    #[test]
    fn a_reference_to_no_character_names_the_missing_character() {
        let mut c = sheet();
        let err = resolve("2D6+{ケン.理知}", "alice", &c).expect_err("no ケン");
        assert!(
            err.ja()
                .contains("'ケン' という名前のキャラクターはいません"),
            "{err:?}"
        );
        assert!(err.en().contains("no character named 'ケン'"), "{err:?}");
        let err = resolve("2D6+{知覚.max}", "alice", &c).expect_err("no such key");
        assert!(
            err.ja().contains("ミナ には '知覚.max' がありません"),
            "{err:?}"
        );
        c.get_mut("ミナ")
            .expect("ミナ")
            .fields
            .insert("HP.max".into(), "12".into());
        assert_eq!(resolve("1D6+{HP.max}", "alice", &c), Ok("1D6+12".into()));
        assert_eq!(resolve("1D6+{HP上限}", "alice", &c), Ok("1D6+12".into()));
        c.insert(
            "ハナ".into(),
            Character {
                owner: "alice".into(),
                fields: BTreeMap::new(),
            },
        );
        let err = resolve("2D6+{ケン.理知}", "alice", &c).expect_err("no ケン");
        assert!(err.en().contains("no character named 'ケン'"), "{err:?}");
        let err = resolve("1D6+{HP.max}", "alice", &c).expect_err("two characters");
        assert!(err.en().contains("several characters"), "{err:?}");
    }
}
