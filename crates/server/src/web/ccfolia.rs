//! CCFOLIA's character clipboard JSON (`{"kind":"character","data":{…}}`, what
//! character-sheet sites such as キャラクター保管所 and ゆとシート export) read as a flat
//! sheet the table takes (`taku_systems::sheet`): statuses become resources (`HP` and
//! `HP.max`), params become fields, and each line of the chat palette (`commands`) a
//! field `palette.N`. For Another World ([`for_system`]) the abilities, 【行動値】, HP and
//! MP make the system's own sheet and the rest is set beside it.

use serde::Deserialize;
use taku_dice::Text;

#[derive(Deserialize)]
struct Clipboard {
    kind: String,
    data: Character,
}

#[derive(Deserialize)]
struct Character {
    name: String,
    #[serde(default)]
    status: Vec<Status>,
    #[serde(default)]
    params: Vec<Param>,
    #[serde(default)]
    commands: Option<String>,
    /// CCFOLIA's 「ステータスを非公開」 and its other ways to hide a character from the
    /// other players: taku has no hidden characters, so such a character is refused
    /// rather than published (attack pass 3, A3-3).
    #[serde(default)]
    secret: bool,
    #[serde(default, rename = "hideStatus")]
    hide_status: bool,
    #[serde(default)]
    invisible: bool,
}

#[derive(Deserialize)]
struct Status {
    label: String,
    value: Number,
    #[serde(default)]
    max: Option<Number>,
}

#[derive(Deserialize)]
struct Param {
    label: String,
    value: Number,
}

/// CCFOLIA writes numbers as numbers or as strings.
#[derive(Deserialize)]
#[serde(untagged)]
enum Number {
    Int(i64),
    Float(f64),
    Text(String),
}

impl Number {
    fn text(&self) -> String {
        match self {
            Number::Int(n) => n.to_string(),
            Number::Float(f) => f.to_string(),
            Number::Text(s) => s.trim().to_string(),
        }
    }
}

/// Whether `text` looks like CCFOLIA's clipboard JSON (rather than a sheet file).
pub fn is_ccfolia(text: &str) -> bool {
    text.trim_start().starts_with('{') && text.contains("\"kind\"")
}

/// A CCFOLIA character read as a name and fields, in order: statuses as `K` (current)
/// and `K.max`, params as `K`, chat palette lines as `palette.N`; `Err` says what is
/// missing.
pub fn read(json: &str) -> Result<(String, Vec<(String, String)>), Text> {
    let (name, fields, hidden) = read_marked(json)?;
    if hidden {
        return Err(hidden_refused());
    }
    Ok((name, fields))
}

/// The refusal of a character CCFOLIA marks hidden where taku cannot keep it hidden.
fn hidden_refused() -> Text {
    Text::new(
        "このキャラクターは非公開（secret / hideStatus / invisible）の指定つきですが、taku のキャラクターは卓の全員に見えるため読み込みません。全員に見せてよければ指定を外して貼り付けてください",
        "this character is marked hidden (secret / hideStatus / invisible), but every member of a taku table sees its characters, so it is not imported; clear the mark to paste it for everyone to see",
    )
}

/// A character's name, its fields, and whether CCFOLIA marks it hidden.
type Marked = (String, Vec<(String, String)>, bool);

/// [`read`], with whether CCFOLIA marks the character hidden (secret, hideStatus or
/// invisible) instead of a refusal.
fn read_marked(json: &str) -> Result<Marked, Text> {
    let clip: Clipboard = serde_json::from_str(json).map_err(|e| {
        Text::new(
            format!("ココフォリアの駒の JSON として読めません（{e}）"),
            format!("not CCFOLIA's JSON of a piece ({e})"),
        )
    })?;
    if clip.kind != "character" {
        return Err(Text::new(
            format!(
                "kind が '{}' です。キャラクターの駒は 'character' です",
                clip.kind
            ),
            format!("kind is '{}', not 'character'", clip.kind),
        ));
    }
    let c = clip.data;
    let hidden = c.secret || c.hide_status || c.invisible;
    let mut fields = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut field = |k: String, v: String| {
        if !k.is_empty() && !v.is_empty() && seen.insert(k.clone()) {
            fields.push((k, v));
        }
    };
    for s in &c.status {
        let k = key(&s.label);
        field(k.clone(), s.value.text());
        if let Some(max) = &s.max {
            field(format!("{k}.max"), max.text());
        }
    }
    for p in &c.params {
        field(key(&p.label), p.value.text());
    }
    let lines = c.commands.as_deref().unwrap_or("");
    for (n, line) in lines
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .enumerate()
    {
        field(
            format!("{}{}", super::page::PALETTE_FIELD, n + 1),
            line.to_string(),
        );
    }
    Ok((key(&c.name), fields, hidden))
}

/// A label as a field key: one word (fields are named by one word at a table), the
/// brackets sheets put round ability names (`【理知】`) taken off.
fn key(label: &str) -> String {
    let words = label.split_whitespace().collect::<Vec<_>>().join("_");
    let bare = words
        .strip_prefix('【')
        .and_then(|w| w.strip_suffix('】'))
        .filter(|w| !w.is_empty());
    bare.unwrap_or(&words).to_string()
}

/// `what` holding `value`, which is no whole number; `rule` (` (FC-1)`) names the rule.
fn not_whole(what: &str, value: &str, rule: &str) -> Text {
    let ja_rule = rule.trim().replace('(', "（").replace(')', "）");
    Text::new(
        format!("{what} が '{value}' です。整数にしてください{ja_rule}"),
        format!("{what} is '{value}', not a whole number{rule}"),
    )
}

fn quote(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

/// The flat TOML sheet of a CCFOLIA character; `Err` says what is missing.
pub fn to_sheet(json: &str) -> Result<String, Text> {
    let (name, fields) = read(json)?;
    Ok(flat(&name, &fields))
}

fn flat(name: &str, fields: &[(String, String)]) -> String {
    let mut out = format!("name = {}\n", quote(name));
    for (k, v) in fields {
        out.push_str(&format!("{} = {}\n", quote(k), quote(v)));
    }
    out
}

/// A CCFOLIA character as a sheet of `system` and the fields its format has no place
/// for, which the table sets beside it ([`taku_table::Table::decide_sheet_with`]).
///
/// Another World (AW-1, AW-3, AW-4): the params or statuses 【理知】【知覚】【反射】【体力】
/// 【幸運】【行動値】 and the statuses HP and MP (their maximum; the current value, when
/// lower, is set beside) make the system's sheet, a PC's; every other status, param and
/// palette line is an extra field. Other systems take the flat sheet (a system with its
/// own format refuses it with its own reasons).
pub fn for_system(system: &str, json: &str) -> Result<(String, Vec<(String, String)>), Text> {
    for_system_by(system, json, false)
}

/// [`for_system`] for a character a GM (`gm`) or a player imports: at an Another World
/// table a GM's import with no 種別 is an NPC, hidden until identified, as the GM's
/// `/char new` is (AW-3; attack pass 4, A4-11: a prepared enemy pasted from CCFOLIA came
/// in as a public PC, every number shown). A 種別 param (PC or NPC) decides where there
/// is one.
pub fn for_system_by(
    system: &str,
    json: &str,
    gm: bool,
) -> Result<(String, Vec<(String, String)>), Text> {
    let (name, fields, hidden) = read_marked(json)?;
    // A5-7: at an Another World table a GM's import marked hidden is an unidentified
    // NPC (AW-3: its data is the GM's until identified), whatever its 種別; elsewhere,
    // and from a player, taku cannot keep it hidden and refuses it.
    let npc = hidden && gm && system == "AnotherWorld";
    if hidden && !npc {
        return Err(hidden_refused());
    }
    match system {
        "AnotherWorld" if npc => another_world(&name, fields, gm, true),
        "AnotherWorld" => another_world(&name, fields, gm, false),
        "FourCard" => four_card(&name, fields),
        "Sengensyou" => sengensho(&name, fields),
        _ => Ok((flat(&name, &fields), Vec::new())),
    }
}

/// Four Card (FC-1): the params or statuses IQ, DX, ST, WP and VT (any case, brackets
/// optional; the values after the sex modifier, as the sheet file has them) and the sex
/// (a param or status 性別 or sex: 男性/女性, male/female) make the system's sheet;
/// every other status, param and palette line is an extra field. What the sheet does not
/// say (XP, skills, money) starts as the sheet file's defaults.
fn four_card(
    name: &str,
    fields: Vec<(String, String)>,
) -> Result<(String, Vec<(String, String)>), Text> {
    let find = |k: &str| {
        fields
            .iter()
            .position(|(key, _)| key.eq_ignore_ascii_case(k))
    };
    let mut sheet = format!(
        "name = {}
",
        quote(name)
    );
    let mut used = Vec::new();
    let sex = ["性別", "sex", "性"]
        .iter()
        .find_map(|k| find(k))
        .ok_or_else(|| {
            Text::new(
                "パラメータにもステータスにも 性別 がありません。男性 か 女性 を書いてください（FC-1）",
                "no 性別 (sex) among its params or statuses: 男性 or 女性 (FC-1)",
            )
        })?;
    let word = &fields[sex].1;
    let sex_word = match word.trim() {
        "男" | "男性" | "male" | "Male" | "M" | "m" => "male",
        "女" | "女性" | "female" | "Female" | "F" | "f" => "female",
        other => {
            return Err(Text::new(
                format!("性別 が '{other}' です。男性 か 女性 にしてください（FC-1）"),
                format!("性別 is '{other}', not 男性 or 女性 (FC-1)"),
            ));
        }
    };
    sheet.push_str(&format!("sex = \"{sex_word}\"\n"));
    used.push(sex);
    for k in ["IQ", "DX", "ST", "WP", "VT"] {
        let i = find(k).ok_or_else(|| {
            Text::new(
                format!("パラメータにもステータスにも {k} がありません（FC-1）"),
                format!("no {k} among its params or statuses (FC-1)"),
            )
        })?;
        let v = fields[i].1.trim();
        let n: i64 = v.parse().map_err(|_| not_whole(k, v, " (FC-1)"))?;
        sheet.push_str(&format!("{k} = {n}\n"));
        used.push(i);
    }
    // XP and money go on the sheet, as its proposal for the GM's approval (FC-1/FC-4,
    // FC-8, FC-14): the fields 経験点, 未使用経験点 and 所持金 are the rules' own.
    let named = |names: &[&str]| {
        fields.iter().position(|(key, _)| {
            let key = taku_systems::table_rules::field_name(key);
            names
                .iter()
                .any(|n| taku_systems::table_rules::field_name(n) == key)
        })
    };
    for (names, sheet_key, what) in [
        (&["経験点", "獲得経験点", "xp"][..], "xp", "FC-14"),
        (&["未使用経験点", "unspent_xp"][..], "unspent_xp", "FC-14"),
        (&["所持金", "money"][..], "money", "FC-8"),
    ] {
        if let Some(i) = named(names) {
            let v = fields[i].1.trim();
            let n: i64 = v
                .trim_end_matches("CP")
                .trim()
                .parse()
                .map_err(|_| not_whole(&fields[i].0, v, &format!(" ({what})")))?;
            sheet.push_str(&format!("{sheet_key} = {n}\n"));
            used.push(i);
        }
    }
    // What the rules derive (FC-2, FC-3, FC-6, FC-10, FC-13) is computed again, not
    // carried over; fatigue and injury at 0 are what a new record has (more is the
    // GM's, with /fc fatigue and /fc damage: the table refuses the field and says so).
    let derived = [
        "衰弱ライン",
        "昏倒ライン",
        "死亡ライン",
        "移動力",
        "総合LV",
        "総LV",
        "VT抵抗",
        "WP抵抗",
        "累積ダメージ",
    ];
    for (i, (key, value)) in fields.iter().enumerate() {
        let key = taku_systems::table_rules::field_name(key);
        let zero = value.trim() == "0";
        if derived
            .iter()
            .any(|d| taku_systems::table_rules::field_name(d) == key)
            || (zero && (key == "疲労" || key == "負傷"))
        {
            used.push(i);
        }
    }
    let extra = fields
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, f)| f)
        .collect();
    Ok((sheet, extra))
}

/// Sengensho (SG-1): the three types, as one param or status 類型 (`A・B・C`, or split
/// by 、, commas or spaces) or as 類型1, 類型2 and 類型3, make the system's sheet with
/// its 種別 (a param 種別 of PC or NPC; PC when there is none); every other status,
/// param and palette line is an extra field. The sheet's reader refuses an NPC's types
/// (SG-6: a sheet's fields are seen by every member) and fields the rules keep.
fn sengensho(
    name: &str,
    fields: Vec<(String, String)>,
) -> Result<(String, Vec<(String, String)>), Text> {
    let find = |k: &str| fields.iter().position(|(key, _)| key == k);
    let mut used = Vec::new();
    let types: Vec<String> = if let Some(i) = find("類型") {
        used.push(i);
        fields[i]
            .1
            .split(['・', '、', ',', '，', '/', '／', ' ', '　'])
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect()
    } else {
        let mut types = Vec::new();
        for n in 1..=3 {
            if let Some(i) = find(&format!("類型{n}")) {
                used.push(i);
                types.push(fields[i].1.trim().to_string());
            }
        }
        types
    };
    if types.len() != 3 {
        return Err(Text::new(
            format!(
                "SG-1: 類型は 3 つ必要です。パラメータ 類型（A・B・C）か 類型1〜類型3 で書いてください（見つかったのは {} つ）",
                types.len()
            ),
            format!(
                "SG-1: three types are needed, as a param 類型 (A・B・C) or 類型1–類型3; found {}",
                types.len()
            ),
        ));
    }
    let kind = match find("種別") {
        Some(i) => {
            used.push(i);
            fields[i].1.trim().to_string()
        }
        None => "PC".to_string(),
    };
    let list: Vec<String> = types.iter().map(|t| quote(t)).collect();
    let sheet = format!(
        "name = {}\n\"種別\" = {}\n\"類型\" = [{}]\n",
        quote(name),
        quote(&kind),
        list.join(", ")
    );
    let extra = fields
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, f)| f)
        .collect();
    Ok((sheet, extra))
}

/// Another World: see [`for_system`].
fn another_world(
    name: &str,
    fields: Vec<(String, String)>,
    gm: bool,
    npc: bool,
) -> Result<(String, Vec<(String, String)>), Text> {
    let get = |k: &str| {
        fields
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };
    let number = |k: &str| -> Result<i64, Text> {
        let v = get(k).ok_or_else(|| {
            Text::new(
                format!("パラメータにもステータスにも 【{k}】 がありません"),
                format!("no 【{k}】 among its params or statuses"),
            )
        })?;
        v.trim()
            .parse()
            .map_err(|_| not_whole(&format!("【{k}】"), v, ""))
    };
    let kind = match get("種別").map(|k| k.trim().to_ascii_uppercase()) {
        _ if npc => "NPC",
        Some(k) if k == "NPC" => "NPC",
        Some(_) => "PC",
        None if gm => "NPC",
        None => "PC",
    };
    let mut sheet = format!("name = {}\nkind = \"{kind}\"\n", quote(name));
    let mut used = Vec::new();
    for k in ["理知", "知覚", "反射", "体力", "幸運", "行動値"] {
        sheet.push_str(&format!("{} = {}\n", quote(k), number(k)?));
        used.push(k.to_string());
    }
    let mut extra = Vec::new();
    for k in ["HP", "MP"] {
        let max_key = format!("{k}.max");
        let max = match get(&max_key) {
            Some(_) => number(&max_key)?,
            None => number(k)?,
        };
        sheet.push_str(&format!("{k} = {max}\n"));
        let current = number(k)?;
        if current != max {
            extra.push((k.to_string(), current.to_string()));
        }
        used.push(k.to_string());
        used.push(max_key);
    }
    extra.extend(fields.into_iter().filter(|(k, _)| !used.contains(k)));
    Ok((sheet, extra))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_params_and_palette_lines_become_fields() {
        let json = r#"{"kind":"character","data":{"name":"ミナ","memo":"x\ny",
            "status":[{"label":"HP","value":12,"max":20},{"label":"MP","value":"5","max":"8"}],
            "params":[{"label":"知覚","value":"3"},{"label":"運 動","value":2}],
            "commands":"2D6+{知覚}>=10 知覚判定\n\nS2D6 秘密\n"}}"#;
        let sheet = to_sheet(json).expect("sheet");
        assert_eq!(
            sheet,
            "name = \"ミナ\"\n\"HP\" = \"12\"\n\"HP.max\" = \"20\"\n\"MP\" = \"5\"\n\"MP.max\" = \"8\"\n\
             \"知覚\" = \"3\"\n\"運_動\" = \"2\"\n\"palette.1\" = \"2D6+{知覚}>=10 知覚判定\"\n\
             \"palette.2\" = \"S2D6 秘密\"\n"
        );
        assert!(is_ccfolia(json));
        assert!(to_sheet(r#"{"kind":"item","data":{"name":"x"}}"#).is_err());
        assert!(!is_ccfolia("name = \"ミナ\""));
    }

    /// AW-1/AW-4: abilities and 【行動値】 (bracketed labels too) make the Another World
    /// sheet with HP and MP as maxima; current HP below the maximum and the palette are
    /// set beside it.
    #[test]
    fn an_another_world_character_becomes_its_sheet_and_extra_fields() {
        let json = r#"{"kind":"character","data":{"name":"ミナ",
            "status":[{"label":"HP","value":12,"max":20},{"label":"MP","value":8,"max":8}],
            "params":[{"label":"【理知】","value":"3"},{"label":"知覚","value":2},
                {"label":"反射","value":4},{"label":"体力","value":2},{"label":"幸運","value":1},
                {"label":"行動値","value":9},{"label":"SAN","value":50}],
            "commands":"AW+{理知} 調査"}}"#;
        let (sheet, extra) = for_system("AnotherWorld", json).expect("sheet");
        let aw = taku_systems::sheet::read(taku_systems::find("AnotherWorld").expect("AW"), &sheet)
            .expect("an Another World sheet");
        assert_eq!(aw.name, "ミナ");
        assert!(aw.fields.contains(&("理知".into(), "3".into())));
        assert!(aw.fields.contains(&("HP.max".into(), "20".into())));
        assert_eq!(
            extra,
            vec![
                ("HP".to_string(), "12".to_string()),
                ("SAN".to_string(), "50".to_string()),
                ("palette.1".to_string(), "AW+{理知} 調査".to_string()),
            ]
        );
        let missing = json.replace("\"幸運\"", "\"運\"");
        let err = for_system("AnotherWorld", &missing).expect_err("no luck");
        assert!(
            err.ja().contains("幸運") && err.en().contains("幸運"),
            "{err:?}"
        );
        // Other systems: the flat sheet, nothing beside.
        // A4-11: the GM's import is an NPC (hidden until identified), a player's a PC;
        // a 種別 param decides where there is one.
        let (gm_sheet, _) = for_system_by("AnotherWorld", json, true).expect("sheet");
        assert!(gm_sheet.contains("kind = \"NPC\""), "{gm_sheet}");
        assert!(sheet.contains("kind = \"PC\""), "{sheet}");
        let pc = json.replace(
            r#""params":["#,
            r#""params":[{"label":"種別","value":"PC"},"#,
        );
        let (pc_sheet, _) = for_system_by("AnotherWorld", &pc, true).expect("sheet");
        assert!(pc_sheet.contains("kind = \"PC\""), "{pc_sheet}");
        // A5-7: marked hidden in CCFOLIA, a GM's import is an unidentified NPC whatever
        // its 種別; a player's, or one at a table that cannot hide it, is refused.
        for mark in ["secret", "hideStatus", "invisible"] {
            let hidden = pc.replacen("\"data\":{", &format!("\"data\":{{\"{mark}\":true,"), 1);
            assert_ne!(hidden, pc, "the mark is in");
            let (npc, _) = for_system_by("AnotherWorld", &hidden, true).expect("sheet");
            assert!(npc.contains("kind = \"NPC\""), "{mark}: {npc}");
            for (system, gm) in [("AnotherWorld", false), ("DiceBot", true)] {
                let err = for_system_by(system, &hidden, gm).expect_err("refused");
                assert!(
                    err.ja().contains("secret / hideStatus / invisible"),
                    "{err:?}"
                );
                assert!(
                    !err.ja().contains(" / this character"),
                    "one language each: {err:?}"
                );
            }
        }
        let (flat, none) = for_system("DiceBot", json).expect("flat");
        assert!(flat.contains("\"palette.1\""));
        assert!(none.is_empty());
    }

    /// FC-1: IQ DX ST WP VT and the sex make the Four Card sheet, read by Four Card's
    /// own reader; the rest is set beside; a missing attribute or sex is named.
    #[test]
    fn a_four_card_character_becomes_its_sheet_and_extra_fields() {
        let json = r#"{"kind":"character","data":{"name":"ミナ",
            "status":[{"label":"HP","value":3,"max":15}],
            "params":[{"label":"IQ","value":"5"},{"label":"dx","value":6},{"label":"【ST】","value":4},
                {"label":"WP","value":6},{"label":"VT","value":5},{"label":"性別","value":"女性"},
                {"label":"経験点","value":"15"},{"label":"所持金","value":"2000"},
                {"label":"衰弱ライン","value":"13"},{"label":"疲労","value":"0"}],
            "commands":"FC+{IQ} 調べる"}}"#;
        let (sheet, extra) = for_system("FourCard", json).expect("sheet");
        let fc = taku_systems::sheet::read(taku_systems::find("FourCard").expect("FC"), &sheet)
            .unwrap_or_else(|e| panic!("a Four Card sheet: {e:?}\n{sheet}"));
        assert_eq!(fc.name, "ミナ");
        assert!(
            sheet.contains("sex = \"female\"") && sheet.contains("DX = 6"),
            "{sheet}"
        );
        // FC-14, FC-8: XP and money go on the sheet as its proposal; the derived line
        // and zero fatigue are the rules' own and are left out.
        assert!(
            fc.fields.contains(&("xp".into(), "15".into()))
                && fc.fields.contains(&("money".into(), "2000".into())),
            "{sheet}"
        );
        assert_eq!(
            extra,
            vec![
                ("HP".to_string(), "3".to_string()),
                ("HP.max".to_string(), "15".to_string()),
                ("palette.1".to_string(), "FC+{IQ} 調べる".to_string()),
            ]
        );
        let err = for_system("FourCard", &json.replace("\"VT\"", "\"VIT\"")).expect_err("no VT");
        assert!(err.ja().contains("VT がありません"), "{err:?}");
        let err = for_system("FourCard", &json.replace("性別", "種族")).expect_err("no sex");
        assert!(err.en().contains("性別"), "{err:?}");
    }

    /// SG-1: three types (one param 類型 or 類型1–3) and 種別 make the Sengensho sheet,
    /// read by Sengensho's own reader; the rest is set beside; two types are refused.
    #[test]
    fn a_sengensho_character_becomes_its_sheet_and_extra_fields() {
        let json = r#"{"kind":"character","data":{"name":"ミナ",
            "params":[{"label":"類型","value":"剣士・学者・旅人"},{"label":"幻想知識","value":2}],
            "commands":"SGS+2 調べる"}}"#;
        let sg = taku_systems::find("Sengensyou").expect("SG");
        let (sheet, extra) = for_system("Sengensyou", json).expect("sheet");
        let read = taku_systems::sheet::read(sg, &sheet)
            .unwrap_or_else(|e| panic!("a Sengensho sheet: {e:?}\n{sheet}"));
        assert!(
            read.fields
                .contains(&("類型候補".into(), "剣士、学者、旅人".into())),
            "{sheet}"
        );
        assert!(
            read.fields.contains(&("種別".into(), "PC".into())),
            "{sheet}"
        );
        assert_eq!(
            extra,
            vec![
                ("幻想知識".to_string(), "2".to_string()),
                ("palette.1".to_string(), "SGS+2 調べる".to_string()),
            ]
        );
        let split = r#"{"kind":"character","data":{"name":"ロイ",
            "params":[{"label":"類型1","value":"剣士"},{"label":"類型2","value":"学者"},
                {"label":"類型3","value":"旅人"},{"label":"種別","value":"NPC"}]}}"#;
        let (sheet, extra) = for_system("Sengensyou", split).expect("sheet");
        // SG-6: an NPC's types are hidden; a sheet's fields are seen by everyone.
        let err = taku_systems::sheet::read(sg, &sheet).expect_err("an NPC's types");
        assert!(
            err.ja().contains("SG-6") && err.en().contains("/sg choose"),
            "{err:?}"
        );
        assert!(extra.is_empty());
        let err = for_system("Sengensyou", &json.replace("・旅人", "")).expect_err("two types");
        assert!(
            err.ja().contains("類型は 3 つ必要です") && err.en().contains("SG-1"),
            "{err:?}"
        );
    }
}
