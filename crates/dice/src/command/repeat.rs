//! §3.7 Repeat: `xN command`, `repN command`, `repeatN command`.

use super::{Eval, is_ascii_ws};
use crate::ast::Repeat;
use crate::error::EvalError;
use crate::pipeline::{SystemHooks, eval_raw};
use crate::result::{Detail, RollResult};
use crate::roller::Roller;

/// Most repetitions.
pub const MAX_TIMES: u64 = 100;

/// Parses from the raw line's very first character (leading whitespace is not allowed).
pub fn parse(raw: &str) -> Option<Repeat> {
    let (secret, rest) = match raw.as_bytes().first() {
        Some(b'S' | b's') => (true, &raw[1..]),
        _ => (false, raw),
    };
    // No keyword starts with `s`, so an `s` not followed by a keyword is simply no repeat.
    let keyword = keyword_len(rest)?;
    let after = &rest[keyword..];
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let times = after[..digits].parse::<u64>().unwrap_or(u64::MAX);
    let after = &after[digits..];
    let ws = after.len() - after.trim_start_matches(is_ascii_ws).len();
    if ws == 0 {
        return None;
    }
    let body = &after[ws..];
    if body.is_empty() {
        return None;
    }
    Some(Repeat {
        secret,
        keyword: rest[..keyword].to_string(),
        times,
        body: body.to_string(),
    })
}

/// Length of a `repeat`, `rep` or `x` keyword at the start, any case, tried in that order.
fn keyword_len(s: &str) -> Option<usize> {
    ["repeat", "rep", "x"].into_iter().find_map(|k| {
        (s.len() >= k.len() && s.is_char_boundary(k.len()) && s[..k.len()].eq_ignore_ascii_case(k))
            .then_some(k.len())
    })
}

/// Whether the body is itself a repeat (checked case-sensitively, as BCDice does).
fn nests(body: &str) -> bool {
    ["repeat", "rep", "x"].into_iter().any(|k| {
        body.strip_prefix(k)
            .is_some_and(|r| r.bytes().next().is_some_and(|b| b.is_ascii_digit()))
    })
}

/// Evaluates the body `times` times as fresh commands sharing the dice.
pub fn eval(cmd: &Repeat, system: &dyn SystemHooks, roller: &mut Roller<'_>) -> Eval {
    let message = |text: &str| {
        let mut r = RollResult::new(text.to_string(), Detail::Message);
        r.secret = cmd.secret;
        Ok(Some(r))
    };
    if nests(&cmd.body) {
        return message("Repeatコマンドの重複はできません");
    }
    if !(1..=MAX_TIMES).contains(&cmd.times) {
        return message("繰り返し回数は1以上、100以下としてください");
    }
    let mut runs = Vec::new();
    let mut missing = 0;
    for _ in 0..cmd.times {
        roller.count_repetition()?;
        match eval_raw(&cmd.body, system, roller, &mut None)? {
            Some(r) => runs.push(r),
            None => missing += 1,
        }
    }
    if runs.is_empty() {
        return message(&format!(
            "繰り返し対象のコマンドが実行できませんでした ({})",
            cmd.body
        ));
    }
    if missing > 0 {
        return Err(EvalError::PartialRepeat);
    }
    let mut text = String::new();
    for (i, r) in runs.iter().enumerate() {
        if i > 0 {
            text.push_str("\n\n");
        }
        text.push('#');
        text.push_str(&(i + 1).to_string());
        text.push('\n');
        text.push_str(&r.text);
    }
    let secret = cmd.secret || runs.iter().any(|r| r.secret);
    let mut result = RollResult::new(text, Detail::Repeat(runs));
    result.secret = secret;
    Ok(Some(result))
}
