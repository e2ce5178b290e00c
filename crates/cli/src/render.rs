//! How results and errors are shown on a terminal or as JSON.

use serde_json::json;
use taku_dice::{EvalError, Lang, RollResult};
use taku_systems::{GameSystem, help_summary};

/// A result as one JSON object, with bcdice-api's field names.
pub fn json(r: &RollResult) -> String {
    taku_systems::bcdice_json(r).to_string()
}

/// An error as one JSON object.
pub fn json_error(e: &EvalError) -> String {
    let mut v = json!({"ok": false, "reason": e.to_string()});
    if let EvalError::Unsupported(Some(p)) = e {
        v["span"] = json!([p.span.start, p.span.end]);
    }
    v.to_string()
}

/// A human report: what was wrong, where (a caret under the column), and what would help.
pub fn error_report(input: &str, e: &EvalError, system: &dyn GameSystem) -> String {
    let lang = crate::lang::human();
    let (error, help, lists) = match lang {
        Lang::Ja => ("エラー", "のヘルプ", "でコマンドの一覧を見られます"),
        Lang::En => ("error", " help", "lists every command"),
    };
    match e {
        EvalError::Unsupported(Some(p)) => {
            let line_start = input[..p.span.start.min(input.len())]
                .rfind('\n')
                .map_or(0, |i| i + 1);
            let line_end = input[line_start..]
                .find('\n')
                .map_or(input.len(), |i| line_start + i);
            let line = &input[line_start..line_end];
            let col = display_width(&input[line_start..p.span.start.min(line_end)]);
            let width =
                display_width(&input[p.span.start.min(line_end)..p.span.end.min(line_end)]).max(1);
            format!(
                "{error}: {}\n  {line}\n  {}{}\n{}{help}: {}\n",
                p.kind.text().get(lang),
                " ".repeat(col),
                "^".repeat(width),
                system.id(),
                help_summary(system, lang),
            )
        }
        EvalError::Unsupported(None) => format!(
            "{error}: {}: {input}\n{}{help}: {}\n(`taku help {}` {lists})\n",
            e.text().get(lang),
            system.id(),
            help_summary(system, lang),
            system.id(),
        ),
        e => format!("{error}: {}\n", e.text().get(lang)),
    }
}

/// Terminal columns a string takes: East Asian wide and full-width characters take two.
pub fn display_width(s: &str) -> usize {
    s.chars().map(|c| if is_wide(c) { 2 } else { 1 }).sum()
}

fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x20000..=0x3FFFD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_width_characters_take_two_columns() {
        assert_eq!(display_width("2D6"), 3);
        assert_eq!(display_width("２Ｄ６"), 6);
        assert_eq!(display_width("判定"), 4);
    }
}
