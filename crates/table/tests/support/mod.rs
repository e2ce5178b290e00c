//! What the table tests share: run a line as a member and read what they see, or expect a
//! refusal and check it changed nothing.

use taku_dice::Lang;
use taku_table::{Event, Table};

/// Runs `line` as `who`; panics if refused; returns what `who` sees of the new events,
/// then the private reply, in Japanese (a table's default).
pub fn run(t: &mut Table, who: &str, line: &str) -> Vec<String> {
    let (reply, events) = t
        .exec(who, line)
        .unwrap_or_else(|e| panic!("{who}: {line}: refused: {e}"));
    let events: Vec<Event> = events.to_vec();
    let mut out: Vec<String> = events
        .iter()
        .map(|e| t.entry(e, who, Lang::Ja).text)
        .collect();
    out.extend(reply.map(|r| r.ja().to_string()));
    out
}

/// Runs `line` expecting a refusal; checks neither the log nor the system's state changed;
/// returns the refusal in English.
pub fn refused(t: &mut Table, who: &str, line: &str) -> String {
    let before = t.events().len();
    let state = t.system_state().map(|s| s.to_json());
    let err = t
        .exec(who, line)
        .expect_err(&format!("{line} should be refused"))
        .render(Lang::En);
    assert_eq!(t.events().len(), before, "a refused line appended events");
    assert_eq!(t.system_state().map(|s| s.to_json()), state);
    err
}
