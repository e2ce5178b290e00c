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

/// The main tab's id (shown as メイン / Main): every entry but tab chat belongs to it.
pub const MAIN_TAB: &str = "main";
/// The chat tab's id (shown as 雑談 / Chat), which every table has beside the main one.
pub const CHAT_TAB: &str = "雑談";

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
    /// `/remove NAME` (GM): a member left the table. They are no member any more (nor
    /// counted toward a server's member cap); their name stays theirs (nobody else may
    /// join under it or a look-alike), and only a GM's `/join` brings them back.
    Removed {
        /// Member name.
        member: String,
    },
    /// A GM issued a member a new personal link (the server's relink): their earlier
    /// links stop working. Recorded so everyone sees that the GM could have used it
    /// (attack pass 2, A2-10), and so every server closes the member's live sockets
    /// (A2-11). Changes no state.
    Relinked {
        /// Member name.
        member: String,
    },
    /// A line of chat that is not a command.
    Chat {
        /// The line.
        text: String,
    },
    /// `/w NAME[,NAME…] TEXT`: chat only its sender, the members named and the GM see.
    Whisper {
        /// The members it is for.
        to: Vec<String>,
        /// The line.
        text: String,
    },
    /// `/tab TAB TEXT`: chat in a tab other than the main one (雑談, or one the GM
    /// added). Rolls and commands always belong to the main tab, the game's record.
    TabChat {
        /// The tab: [`CHAT_TAB`] or a name the GM added.
        tab: String,
        /// The line.
        text: String,
    },
    /// `/tab new NAME` (GM): a chat tab beside メイン and 雑談.
    TabAdded {
        /// Its name.
        name: String,
    },
    /// A dice command and its whole result.
    Roll(Roll),
    /// A secret roll was revealed.
    Revealed {
        /// Seq of the roll.
        roll: u64,
    },
    /// A character was created, owned by the actor (from a sheet: with its fields).
    CharacterCreated {
        /// Character name.
        name: String,
        /// Fields it starts with, in order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        fields: Vec<(String, String)>,
        /// The new name of the GM's character that had this name, hidden from the creator
        /// ([`crate::Table::unknown`]): for a player, a hidden NPC's name is a name never
        /// used, so their character takes it and the GM's is renamed (issue 13). Absent in
        /// logs written before, which load as before.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        displaced: Option<String>,
    },
    /// A GM renamed one of the GMs' characters (`/char rename FROM TO`): a displaced NPC's
    /// `NAME(GM)`, a tell once it appears, becomes a neutral name of the GM's choosing
    /// (issue 13). Earlier entries naming `from` are about the character now named `to`.
    CharacterRenamed {
        /// The name it had.
        from: String,
        /// The name it has.
        to: String,
    },
    /// Several fields of a character were set at once (`/char set NAME K V K V`, a sheet).
    CharacterUpdated {
        /// Character name.
        name: String,
        /// The fields set, in order.
        changes: Vec<FieldChange>,
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
    /// The GM voided a command: its state effects are reverted, its entry stays in the log
    /// marked as voided, and nothing it drew is drawn again.
    Voided {
        /// Seq of the voided command's first event.
        event: u64,
    },
    /// The GM set the table's language (`ja`, `en`).
    LanguageSet {
        /// Language code.
        lang: String,
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
        /// Dice the system drew deciding this event's line (`[sides, value]`), kept on the
        /// line's first event.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        rands: Vec<[u32; 2]>,
        /// Fresh randomness drawn for this line's attempt, hex: with the table's seed it
        /// keys the dice (see [`crate::secret::dice_key`]). Absent in logs written before
        /// it existed, whose dice are keyed by seq.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nonce: Option<String>,
        /// The command as the member typed it, on the line's first event (for `/undo`'s
        /// reply and the log).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        line: Option<String>,
    },
}

/// One field set by [`EventBody::CharacterUpdated`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldChange {
    /// Field.
    pub key: String,
    /// New value.
    pub value: String,
    /// Value before, so undo can restore it and verify can check it.
    pub previous: Option<String>,
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
    /// The note in English.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note_en: Option<String>,
    /// Words the member wrote after the command (`説得` in `AW+5 VS AW+3 説得`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Fresh randomness drawn for this line's attempt, hex: with the table's seed it keys
    /// the dice. Absent in logs written before it existed, whose dice are keyed by seq.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nonce: Option<String>,
}

impl Roll {
    /// The result as members see it in `lang`: the comment, the text, then the system's
    /// note if any.
    pub fn shown(&self, lang: taku_dice::Lang) -> String {
        let note = match lang {
            taku_dice::Lang::En => self.note_en.as_ref().or(self.note.as_ref()),
            taku_dice::Lang::Ja => self.note.as_ref(),
        };
        let mut out = String::new();
        if let Some(comment) = &self.comment {
            out.push_str(comment);
            out.push(' ');
        }
        out.push_str(&self.text);
        if let Some(note) = note {
            out.push_str(&format!(" （{note}）"));
        }
        out
    }

    /// Whether it drew dice.
    pub fn drew(&self) -> bool {
        !self.rands.is_empty()
    }
}

impl EventBody {
    /// Whether the event is the first of a command that changed table state without
    /// drawing randomness: what `/undo` may revert. A command that drew (dice, a shuffle,
    /// a random choice) is never undone, only voided by the GM, so nothing is redrawn.
    pub fn is_undoable(&self) -> bool {
        match self {
            EventBody::CharacterCreated { .. }
            | EventBody::CharacterRenamed { .. }
            | EventBody::CharacterSet { .. }
            | EventBody::CharacterUpdated { .. }
            | EventBody::SceneAdvanced
            | EventBody::SessionEnded
            | EventBody::LanguageSet { .. }
            | EventBody::TabAdded { .. } => true,
            EventBody::System {
                follows: None,
                rands,
                ..
            } => rands.is_empty(),
            _ => false,
        }
    }

    /// Whether the event is the first of a command that drew randomness.
    pub fn drew(&self) -> bool {
        match self {
            EventBody::Roll(r) => r.drew(),
            EventBody::System {
                follows: None,
                rands,
                ..
            } => !rands.is_empty(),
            _ => false,
        }
    }

    /// Whether the GM may void it: a roll or the first event of a command that changed
    /// state.
    pub fn is_voidable(&self) -> bool {
        matches!(self, EventBody::Roll(_)) || self.drew() || self.is_undoable()
    }

    /// Whether it follows another event (an effect of a roll, the rest of a command).
    pub fn follows(&self) -> Option<u64> {
        match self {
            EventBody::System { follows, .. } => *follows,
            _ => None,
        }
    }

    /// The earlier event this one is about, whose visibility decides its own: an undo's
    /// or a void's target, a reveal's roll, what a system event follows.
    pub fn refers_to(&self) -> Option<u64> {
        match self {
            EventBody::Undone { event } | EventBody::Voided { event } => Some(*event),
            EventBody::Revealed { roll } => Some(*roll),
            EventBody::System { follows, .. } => *follows,
            _ => None,
        }
    }
}
