//! Status commands typed in chat (issue 17): `HP-10`, `MP+3`, `HP=12` change a field of
//! the speaker's character, as CCFOLIA's chat does. A status command is `/char set` said
//! shorter: it is decided as that line, so it passes the same checks and is logged as
//! the same event. A resource (`K` with `K.max`) stays within 0..=max, any other number
//! at 0 or more. Only a field the speaker's one character already has, holding a whole
//! number, is changed; anything else is left to the dice commands and chat.

use crate::{Decision, Refusal, Role, Table};

/// `KEY`, the operator and the amount of `HP-10` (full-width folded); `None` when the
/// line is not of that shape.
fn parse(line: &str) -> Option<(String, char, i64)> {
    let folded = taku_dice::normalize::fold(line).text;
    let line = folded.trim();
    let at = line.find(['+', '-', '='])?;
    let (key, rest) = line.split_at(at);
    let key = key.trim();
    let mut chars = rest.chars();
    let op = chars.next()?;
    let amount = chars.as_str().trim();
    if key.is_empty()
        || key.chars().any(char::is_whitespace)
        || amount.is_empty()
        || !amount.chars().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    Some((key.to_string(), op, amount.parse().ok()?))
}

impl Table {
    /// What `line` does as a status command of `actor`'s character, or `None` when it is
    /// not one.
    pub(crate) fn decide_status(
        &self,
        actor: &str,
        role: Role,
        line: &str,
    ) -> Option<Result<Decision, Refusal>> {
        if role == Role::Spectator {
            return None;
        }
        let (key, op, amount) = parse(line)?;
        let mine: Vec<_> = self
            .state
            .characters
            .iter()
            .filter(|(_, c)| c.owner == actor)
            .collect();
        let [(name, character)] = mine.as_slice() else {
            // W9-24: a player with several characters of whom one or more has the field
            // is asked which one; as chat, the line would leave every value as it was
            // while the player believed it changed.
            let having: Vec<&str> = mine
                .iter()
                .filter(|(_, c)| {
                    c.fields
                        .get(&key)
                        .is_some_and(|v| v.trim().parse::<i64>().is_ok())
                })
                .map(|(n, _)| n.as_str())
                .collect();
            let first = having.first()?;
            let names = having.join("、");
            let line = line.trim();
            return Some(Err(taku_dice::Text::new(
                format!(
                    "「{line}」: {key} を持つあなたのキャラクターは複数います（{names}）。/char set {first} {key} 値 のように名前で指定してください（チャットなら 「{line}」 とかぎ括弧で囲みます）"
                ),
                format!(
                    "'{line}': several of your characters have {key} ({}); name one, e.g. /char set {first} {key} VALUE (to send it as chat, quote it: \"{line}\")",
                    having.join(", ")
                ),
            )
            .into()));
        };
        let current: i64 = character.fields.get(&key)?.trim().parse().ok()?;
        let max = character
            .fields
            .get(&format!("{key}.max"))
            .and_then(|m| m.trim().parse::<i64>().ok());
        let value = match op {
            '+' => current.checked_add(amount)?,
            '-' => current.checked_sub(amount)?,
            _ => amount,
        };
        let value = max.map_or(value, |m| value.min(m)).max(0);
        Some(self.decide(actor, &format!("/char set {name} {key} {value}")))
    }
}
