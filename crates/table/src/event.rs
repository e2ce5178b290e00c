//! What a table's log holds. Events are facts: once appended they never change; undo
//! appends a compensating event.

use serde::{Deserialize, Serialize};

/// A member's role at a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Runs the game: sees every secret, may undo anyone's change.
    Gm,
    /// Plays a character.
    Player,
    /// Watches and chats; cannot roll or change state.
    Spectator,
}

impl Role {
    /// Parses `gm`, `player` or `spectator` (any case).
    pub fn parse(s: &str) -> Option<Role> {
        match s.to_ascii_lowercase().as_str() {
            "gm" => Some(Role::Gm),
            "player" => Some(Role::Player),
            "spectator" => Some(Role::Spectator),
            _ => None,
        }
    }

    /// The role's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Gm => "gm",
            Role::Player => "player",
            Role::Spectator => "spectator",
        }
    }
}

/// One entry of a table's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// Position in the log, from 1.
    pub seq: u64,
    /// The member whose line produced it.
    pub actor: String,
    /// What happened.
    pub body: EventBody,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventBody {
    /// The table was created; `actor` is its GM. The seed keys every roll's dice and every
    /// secret's salt: it is GM-only and never shown to players while the table runs.
    Created {
        /// Game system id.
        system: String,
        /// Table name.
        name: String,
        /// 32-byte seed, hex.
        seed: String,
    },
    /// A member joined.
    Joined {
        /// Member name.
        member: String,
        /// Role.
        role: Role,
    },
    /// A line of chat that is not a command.
    Chat {
        /// The line.
        text: String,
    },
    /// A dice command and its whole result.
    Roll(Roll),
    /// A secret roll was revealed.
    Revealed {
        /// Seq of the roll.
        roll: u64,
    },
    /// A character was created, owned by the actor.
    CharacterCreated {
        /// Character name.
        name: String,
    },
    /// A character's field was set.
    CharacterSet {
        /// Character name.
        name: String,
        /// Field.
        key: String,
        /// New value.
        value: String,
        /// Value before, so undo can restore it.
        previous: Option<String>,
    },
    /// The next scene began.
    SceneAdvanced,
    /// The session ended.
    SessionEnded,
    /// A state change was reverted.
    Undone {
        /// Seq of the reverted event.
        event: u64,
    },
    /// A change to the game system's own state (a contract made, a card exiled), as the
    /// system's rules serialise it.
    System {
        /// The system's event.
        data: serde_json::Value,
        /// The seq of the event that caused it (a scene end's refill, the roll that used
        /// an effect up): it stands and falls with that event, and `/undo` never picks it
        /// on its own.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        follows: Option<u64>,
        /// Dice the system drew deciding this event's line (`[sides, value]`, from the
        /// table's source keyed by this event's seq), kept on the line's first event.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        rands: Vec<[u32; 2]>,
    },
}

/// A roll as stored: everything needed to show it, verify it and replay it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// The command as typed.
    pub input: String,
    /// Result text.
    pub text: String,
    /// Secret (`S` prefix).
    pub secret: bool,
    /// Flags.
    pub success: bool,
    /// Flags.
    pub failure: bool,
    /// Flags.
    pub critical: bool,
    /// Flags.
    pub fumble: bool,
    /// Every draw, `[sides, value]`.
    pub rands: Vec<[u32; 2]>,
    /// For a secret roll: SHA-256 (hex) of the salt and the result, published at once.
    pub commitment: Option<String>,
    /// The line as the member typed it, when table references (`{KEY}`) or the system's
    /// rules changed it into `input`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub typed: Option<String>,
    /// What the game system's rules did to this roll (`令呪 +20`), shown after `text`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Roll {
    /// The result as members see it: the text, then the system's note if any.
    pub fn shown(&self) -> String {
        match &self.note {
            Some(note) => format!("{} （{note}）", self.text),
            None => self.text.clone(),
        }
    }
}

impl EventBody {
    /// Whether the event changes table state that `/undo` may revert.
    pub fn is_undoable(&self) -> bool {
        matches!(
            self,
            EventBody::CharacterCreated { .. }
                | EventBody::CharacterSet { .. }
                | EventBody::SceneAdvanced
                | EventBody::SessionEnded
                | EventBody::System { follows: None, .. }
        )
    }
}
