//! CCFOLIA's character clipboard JSON (`{"kind":"character","data":{…}}`, what
//! character-sheet sites such as キャラクター保管所 and ゆとシート export) read as a flat
//! sheet the table takes (`taku_systems::sheet`): statuses become resources (`HP` and
//! `HP.max`), params become fields, and each line of the chat palette (`commands`) a
//! field `palette.N`.

use serde::Deserialize;

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

/// The flat TOML sheet of a CCFOLIA character; `Err` says what is missing.
pub fn to_sheet(json: &str) -> Result<String, String> {
    let clip: Clipboard = serde_json::from_str(json).map_err(|e| e.to_string())?;
    if clip.kind != "character" {
        return Err(format!("kind is '{}', not 'character'", clip.kind));
    }
    let c = clip.data;
    // A label with spaces becomes one word: fields are named by one word at a table.
    let key = |label: &str| label.split_whitespace().collect::<Vec<_>>().join("_");
    let quote = |s: &str| serde_json::Value::from(s).to_string();
    let mut out = format!("name = {}\n", quote(&key(&c.name)));
    let mut seen = std::collections::BTreeSet::new();
    let mut field = |out: &mut String, k: String, v: String| {
        if !k.is_empty() && !v.is_empty() && seen.insert(k.clone()) {
            out.push_str(&format!("{} = {}\n", quote(&k), quote(&v)));
        }
    };
    for s in &c.status {
        let k = key(&s.label);
        field(&mut out, k.clone(), s.value.text());
        if let Some(max) = &s.max {
            field(&mut out, format!("{k}.max"), max.text());
        }
    }
    for p in &c.params {
        field(&mut out, key(&p.label), p.value.text());
    }
    let lines = c.commands.as_deref().unwrap_or("");
    for (n, line) in lines
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .enumerate()
    {
        field(
            &mut out,
            format!("{}{}", super::page::PALETTE_FIELD, n + 1),
            line.to_string(),
        );
    }
    Ok(out)
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
}
