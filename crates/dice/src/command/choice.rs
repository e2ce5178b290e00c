//! §3.5 Choice: pick items from a list without replacement.

use super::{Eval, is_ascii_ws};
use crate::ast::{Choice, ChoiceItems, ChoiceStyle};
use crate::result::{Detail, RollResult};
use crate::roller::Roller;

/// Most items a choice may pick from.
pub const MAX_ITEMS: usize = 100;

/// Parses the whole raw line.
pub fn parse(raw: &str) -> Option<Choice> {
    let rest = raw.trim_start_matches(is_ascii_ws);
    let (secret, rest) = match rest.as_bytes().first() {
        Some(b'S' | b's') if starts_with_ignore_case(&rest[1..], "choice") => (true, &rest[1..]),
        _ => (false, rest),
    };
    if !starts_with_ignore_case(rest, "choice") {
        return None;
    }
    let rest = &rest["choice".len()..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let count = if digits == 0 {
        1
    } else {
        // Saturating: any count past the item limit is refused later anyway.
        rest[..digits].parse::<usize>().unwrap_or(usize::MAX)
    };
    if count == 0 {
        return None;
    }
    let rest = &rest[digits..];
    let (style, body) = match rest.chars().next()? {
        '[' => (ChoiceStyle::Bracket, &rest[1..]),
        '(' => (ChoiceStyle::Paren, &rest[1..]),
        c if is_ascii_ws(c) => (ChoiceStyle::Space, rest),
        _ => return None,
    };
    let raw_items: Vec<&str> = match style {
        ChoiceStyle::Space => body.split(is_ascii_ws).collect(),
        ChoiceStyle::Bracket | ChoiceStyle::Paren => {
            let close = if style == ChoiceStyle::Bracket {
                ']'
            } else {
                ')'
            };
            // Commas are searched through the whole rest of the line, closing characters only
            // in the last piece.
            let mut pieces: Vec<&str> = body.split(',').collect();
            let last = pieces.pop().expect("split yields at least one piece");
            let end = last.find(close)?;
            pieces.push(&last[..end]);
            pieces
        }
    };
    let items: Vec<String> = raw_items
        .into_iter()
        // Ruby's `strip`: ASCII whitespace and NUL at both ends.
        .map(|s| s.trim_matches(|c| is_ascii_ws(c) || c == '\0'))
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let items = match items.as_slice() {
        [] => return None,
        [one] => range_shorthand(one)?,
        _ => ChoiceItems::List(items),
    };
    if items.len() < count as u128 {
        return None;
    }
    Some(Choice {
        secret,
        count,
        style,
        items,
    })
}

fn starts_with_ignore_case(s: &str, word: &str) -> bool {
    s.len() >= word.len()
        && s.is_char_boundary(word.len())
        && s[..word.len()].eq_ignore_ascii_case(word)
}

/// A single item must be a range: `1-6`, `a-f` or `A-F`, ascending.
fn range_shorthand(item: &str) -> Option<ChoiceItems> {
    let (first, last) = item.split_once('-')?;
    let is_num = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if is_num(first) && is_num(last) {
        // Saturating: a range that large is refused by the item limit.
        let a = first.parse::<u64>().unwrap_or(u64::MAX);
        let b = last.parse::<u64>().unwrap_or(u64::MAX);
        return (a <= b).then_some(ChoiceItems::Numbers(a, b));
    }
    let (a, b) = (single_char(first)?, single_char(last)?);
    let same_case = (a.is_ascii_lowercase() && b.is_ascii_lowercase())
        || (a.is_ascii_uppercase() && b.is_ascii_uppercase());
    (same_case && a <= b).then_some(ChoiceItems::Letters(a, b))
}

fn single_char(s: &str) -> Option<char> {
    let mut cs = s.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// Picks `count` items without replacement.
pub fn eval(cmd: &Choice, roller: &mut Roller<'_>) -> Eval {
    if cmd.items.len() > MAX_ITEMS as u128 {
        // Never secret, nothing drawn.
        return Ok(Some(RollResult::new(
            "項目数は100以下としてください".to_string(),
            Detail::Message,
        )));
    }
    let items = cmd.items.expand();
    let mut remaining = items.clone();
    let mut picked = Vec::with_capacity(cmd.count);
    for _ in 0..cmd.count {
        let i = roller.roll_index(remaining.len())?;
        picked.push(remaining.remove(i.min(remaining.len() - 1)));
    }
    let (open, close, sep, picked_sep) = match cmd.style {
        ChoiceStyle::Bracket => ("[", "]", ",", ", "),
        ChoiceStyle::Paren => ("(", ")", ",", ", "),
        ChoiceStyle::Space => (" ", "", " ", " "),
    };
    let mut text = String::from("(choice");
    if cmd.count != 1 {
        text.push_str(&cmd.count.to_string());
    }
    text.push_str(open);
    text.push_str(&items.join(sep));
    text.push_str(close);
    text.push_str(") ＞ ");
    text.push_str(&picked.join(picked_sep));
    let mut result = RollResult::new(text, Detail::Choice(picked));
    result.secret = cmd.secret;
    Ok(Some(result))
}
