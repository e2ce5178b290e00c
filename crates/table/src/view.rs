//! What one member may see of each log entry, as data ([`Entry`]) and as a line of text in
//! a language. Every surface (CLI, API, live sockets, REPL) shows entries through here, so
//! the visibility rules live in one place:
//!
//! - a secret roll shows others its roller and its commitment only, until revealed;
//! - what follows an unrevealed secret roll (an effect it used, an achievement it added)
//!   is as secret as the roll;
//! - a system event shows only to its audience (GM-only facts, a player's own keys);
//! - an `/undo` or `/void` of an entry a member may not see is as hidden as its target;
//! - a hidden entry is a placeholder that keeps the numbering and names neither its
//!   content, its target nor its actor.

use crate::event::{Event, EventBody, Role, Roll};
use crate::{Table, secret};
use serde::Serialize;
use taku_dice::{Lang, Text};
use taku_systems::table_rules::Audience;

/// One log entry as one member sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Position in the log.
    pub seq: u64,
    /// `created`, `joined`, `chat`, `roll`, `revealed`, `character`, `scene`, `session`,
    /// `undone`, `voided`, `language`, `system`, `whisper`, `tab` (a tab added), or
    /// `hidden` for an entry the member may not see.
    pub kind: &'static str,
    /// The member whose line it was; absent for a hidden entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// The entry as one line of text.
    pub text: String,
    /// Reverted by `/undo` (or `/void`).
    pub undone: bool,
    /// Voided by the GM.
    pub voided: bool,
    /// The roll's fields, for a roll.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll: Option<RollEntry>,
    /// The chat tab of tab chat (`/tab 雑談 …`); absent for the main tab, where every
    /// other entry belongs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab: Option<String>,
}

/// A roll's fields as one member sees them: a secret roll not yet revealed to them has
/// its commitment only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RollEntry {
    /// The command as evaluated (references resolved, the system's changes made).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The line as typed, when it differs from `command`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub typed: Option<String>,
    /// The words after the command.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// BCDice's result text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// What the system's rules did to the roll (`令呪 +20`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// A secret roll.
    pub secret: bool,
    /// Flags (false while hidden).
    pub success: bool,
    /// Flags.
    pub failure: bool,
    /// Flags.
    pub critical: bool,
    /// Flags.
    pub fumble: bool,
    /// Every draw, `[sides, value]` (empty while hidden).
    pub rands: Vec<[u32; 2]>,
    /// A secret roll's commitment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commitment: Option<String>,
}

impl RollEntry {
    fn shown(r: &Roll, lang: Lang) -> RollEntry {
        RollEntry {
            command: Some(r.input.clone()),
            typed: r.typed.clone(),
            comment: r.comment.clone(),
            result: Some(r.text.clone()),
            note: match lang {
                Lang::Ja => r.note.clone(),
                Lang::En => r.note_en.clone().or(r.note.clone()),
            },
            secret: r.secret,
            success: r.success,
            failure: r.failure,
            critical: r.critical,
            fumble: r.fumble,
            rands: r.rands.clone(),
            commitment: r.commitment.clone(),
        }
    }

    fn sealed(r: &Roll) -> RollEntry {
        RollEntry {
            command: None,
            typed: None,
            comment: None,
            result: None,
            note: None,
            secret: true,
            success: false,
            failure: false,
            critical: false,
            fumble: false,
            rands: Vec::new(),
            commitment: r.commitment.clone(),
        }
    }
}

/// A member's text on one line: a line break shows as ⏎, so no member can print what looks
/// like another entry of the log (and control characters are refused before they get in).
fn one_line(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\n', " ⏎ ")
}

fn role_name(role: Role, lang: Lang) -> &'static str {
    match (role, lang) {
        (Role::Gm, _) => "GM",
        (Role::Player, Lang::Ja) => "プレイヤー",
        (Role::Spectator, Lang::Ja) => "観戦者",
        (Role::Player, Lang::En) => "player",
        (Role::Spectator, Lang::En) => "spectator",
    }
}

impl Table {
    /// Whether `viewer` sees everything (a GM).
    fn sees_all(&self, viewer: &str) -> bool {
        viewer == self.gm || self.is_gm(viewer)
    }

    /// Whether `viewer` may see event `e` at all (a secret roll they may not read is
    /// still seen, as its commitment).
    pub(crate) fn may_see(&self, e: &Event, viewer: &str) -> bool {
        // A player's copy of what the GMs read in another entry: its owner's only.
        if let EventBody::System { data, .. } = &e.body
            && let Some(Audience::OwnerOnly(name)) = self.rules().map(|r| r.audience(data))
        {
            return !self.sees_all(viewer) && self.owns(viewer, &name);
        }
        if self.sees_all(viewer) {
            return true;
        }
        match &e.body {
            // A whisper: its sender, the members it names, and the GM.
            EventBody::Whisper { to, .. } => e.actor == viewer || to.iter().any(|m| m == viewer),
            EventBody::Undone { event } | EventBody::Voided { event } => self
                .event(*event)
                .is_some_and(|target| self.may_see(target, viewer)),
            EventBody::System { data, follows, .. } => {
                // What follows a secret roll (an AF check's achievement, say) tells its
                // result: it is as secret as the roll until the roll is revealed.
                let after_secret = follows.and_then(|f| match self.event(f) {
                    Some(Event {
                        actor: roller,
                        body: EventBody::Roll(r),
                        ..
                    }) if r.secret && !self.state.revealed.contains(&f) => Some(roller),
                    _ => None,
                });
                if after_secret.is_some_and(|roller| roller != viewer) {
                    return false;
                }
                match self.rules().map(|r| r.audience(data)) {
                    None => false,
                    Some(Audience::All) => true,
                    Some(Audience::Gm) => false,
                    Some(Audience::GmAndOwnerOf(name)) => self.owns(viewer, &name),
                    Some(Audience::GmAndOwnersOf(names)) => {
                        names.iter().any(|name| self.owns(viewer, name))
                    }
                    Some(Audience::OwnerOnly(name)) => self.owns(viewer, &name),
                }
            }
            // A line setting the fields of a character whose data is hidden from the
            // viewer (an enemy not yet identified) shows its values: as hidden as they.
            // So is its creation (an Another World enemy the GM prepares, not yet
            // identified: its name is not shown before it appears, issue 13).
            EventBody::CharacterSet { name, .. }
            | EventBody::CharacterUpdated { name, .. }
            | EventBody::CharacterCreated { name, .. }
            | EventBody::CharacterRenamed { to: name, .. } => {
                // The character the entry was about, by its name now: a GM's hidden NPC
                // displaced by a player's namesake keeps its earlier lines hidden.
                self.hidden(self.name_now(name, e.seq), viewer).is_none()
            }
            _ => true,
        }
    }

    /// A field's value as a log line shows it to `viewer`: a chat palette line
    /// ([`crate::PALETTE_FIELD`]) is its owner's own notes — a GM's prepared secret checks
    /// among them — so only the character's owner and the GMs read it; others see that it
    /// was set, not to what (attack pass 3, A3-3).
    fn field_shown<'v>(
        &self,
        name: &str,
        key: &str,
        value: &'v str,
        viewer: &str,
        lang: Lang,
    ) -> std::borrow::Cow<'v, str> {
        if key.starts_with(crate::PALETTE_FIELD)
            && !self.sees_all(viewer)
            && !self.owns(viewer, name)
        {
            Text::new("（非公開）", "(hidden)")
                .get(lang)
                .to_string()
                .into()
        } else {
            value.into()
        }
    }

    /// `r` with its result text in `lang`: the log keeps the text as rolled (BCDice's
    /// Japanese); an English table reads a system's check words in English
    /// (`taku_systems::roll_text`: Four Card, Sengensho, The Lord of the Rings).
    fn localised<'r>(&self, r: &'r Roll, lang: Lang) -> std::borrow::Cow<'r, Roll> {
        match taku_systems::roll_text(self.system(), &r.text, lang) {
            std::borrow::Cow::Owned(text) if text != r.text => {
                std::borrow::Cow::Owned(Roll { text, ..r.clone() })
            }
            _ => std::borrow::Cow::Borrowed(r),
        }
    }

    /// What `viewer` may see of `event`, in `lang`.
    pub fn entry(&self, event: &Event, viewer: &str, lang: Lang) -> Entry {
        let n = event.seq;
        let undone = self.undone.contains(&n);
        let voided = self.voided.contains(&n);
        if !self.may_see(event, viewer) {
            return Entry {
                seq: n,
                kind: "hidden",
                actor: None,
                text: Text::new(format!("#{n} （非公開）"), format!("#{n} (hidden)"))
                    .get(lang)
                    .to_string(),
                undone: false,
                voided: false,
                roll: None,
                tab: None,
            };
        }
        let actor = &event.actor;
        let t = |ja: String, en: String| Text::new(ja, en).get(lang).to_string();
        let mut roll = None;
        let mut tab = None;
        let (kind, text) = match &event.body {
            // The seed is GM-only and is not shown even to the GM in the log.
            EventBody::Created { system, name, .. } => (
                "created",
                t(
                    format!("#{n} {actor} がテーブル「{name}」（{system}）を作成"),
                    format!("#{n} table '{name}' ({system}) created by {actor}"),
                ),
            ),
            EventBody::Joined { member, role } => (
                "joined",
                t(
                    format!("#{n} {member} が{}として参加", role_name(*role, Lang::Ja)),
                    format!("#{n} {member} joined as {}", role_name(*role, Lang::En)),
                ),
            ),
            EventBody::Removed { member } => (
                "removed",
                t(
                    format!("#{n} {actor} が {member} を退室させました"),
                    format!("#{n} {member} was removed from the table by {actor}"),
                ),
            ),
            EventBody::Relinked { member } => (
                "relinked",
                t(
                    format!(
                        "#{n} {actor} が {member} の個人リンクを再発行しました（前のリンクは使えません）"
                    ),
                    format!(
                        "#{n} {actor} issued {member} a new personal link (the old one no longer works)"
                    ),
                ),
            ),
            EventBody::Chat { text } => ("chat", format!("#{n} {actor}: {}", one_line(text))),
            EventBody::TabChat { tab: name, text } => {
                tab = Some(name.clone());
                ("chat", format!("#{n} [{name}] {actor}: {}", one_line(text)))
            }
            EventBody::TabAdded { name } => (
                "tab",
                t(
                    format!("#{n} {actor} がタブ「{name}」を追加"),
                    format!("#{n} {actor} added the tab '{name}'"),
                ),
            ),
            EventBody::Whisper { to, text } => (
                "whisper",
                t(
                    format!(
                        "#{n} {actor} ≫ {}（ささやき）: {}",
                        to.join("、"),
                        one_line(text)
                    ),
                    format!(
                        "#{n} {actor} ≫ {} (whisper): {}",
                        to.join(", "),
                        one_line(text)
                    ),
                ),
            ),
            EventBody::Roll(r) => {
                let readable = !r.secret
                    || self.sees_all(viewer)
                    || viewer == actor
                    || self.state.revealed.contains(&n);
                if readable {
                    let r = &self.localised(r, lang);
                    roll = Some(RollEntry::shown(r, lang));
                    let shown = one_line(&r.shown(lang));
                    (
                        "roll",
                        if r.secret {
                            t(
                                format!("#{n} {actor}（シークレット）: {shown}"),
                                format!("#{n} {actor} (secret): {shown}"),
                            )
                        } else {
                            format!("#{n} {actor}: {shown}")
                        },
                    )
                } else {
                    roll = Some(RollEntry::sealed(r));
                    let c = r.commitment.as_deref().unwrap_or("-");
                    (
                        "roll",
                        t(
                            format!("#{n} {actor} のシークレットダイス（コミットメント {c}）"),
                            format!("#{n} secret roll by {actor} (commitment {c})"),
                        ),
                    )
                }
            }
            EventBody::Revealed { roll: target } => (
                "revealed",
                match self.event(*target) {
                    Some(Event {
                        actor: roller,
                        body: EventBody::Roll(r),
                        ..
                    }) => {
                        let salt = secret::hex(&secret::salt(&self.seed, *target));
                        let c = r.commitment.as_deref().unwrap_or("-");
                        let shown = self.localised(r, lang).shown(lang);
                        t(
                            format!(
                                "#{n} {actor} が #{target}（{roller}）を公開: {shown}（ソルト {salt}、コミットメント {c}）"
                            ),
                            format!(
                                "#{n} {actor} revealed #{target} by {roller}: {shown} (salt {salt}, commitment {c})"
                            ),
                        )
                    }
                    _ => t(
                        format!("#{n} {actor} が #{target} を公開"),
                        format!("#{n} {actor} revealed #{target}"),
                    ),
                },
            ),
            EventBody::CharacterCreated {
                name,
                fields,
                displaced,
            } => ("character", {
                let made = if fields.is_empty() {
                    t(
                        format!("#{n} {actor} がキャラクター {name} を作成"),
                        format!("#{n} {actor} created character {name}"),
                    )
                } else {
                    t(
                        format!(
                            "#{n} {actor} がシートからキャラクター {name} を作成（{} 項目）",
                            fields.len()
                        ),
                        format!(
                            "#{n} {actor} created character {name} from a sheet ({} fields)",
                            fields.len()
                        ),
                    )
                };
                match displaced.as_ref().filter(|_| self.sees_all(viewer)) {
                    // Only a GM reads that their hidden character was renamed (the
                    // line as the others read it, then the note: aw8 F12).
                    Some(to) => {
                        made + &t(
                            format!(
                                "（GMのみ: {actor} からは見えない GM の {name} は {to} に改名。以後 {to} で指定してください。登場させる前に /char rename {to} 新しい名前 で好きな名前にもできます）"
                            ),
                            format!(
                                " (GM only: the GM's {name}, hidden from {actor}, is renamed {to}; name it {to} from now on, or give it a name of your choosing before it appears: /char rename {to} NEW-NAME)"
                            ),
                        )
                    }
                    None => made,
                }
            }),
            EventBody::CharacterRenamed { from, to } => (
                "character",
                t(
                    format!("#{n} {actor} がキャラクター {from} を {to} に改名"),
                    format!("#{n} {actor} renamed character {from} to {to}"),
                ),
            ),
            EventBody::CharacterSet {
                name, key, value, ..
            } => {
                let value = self.field_shown(name, key, value, viewer, lang);
                ("character", format!("#{n} {actor}: {name}.{key} = {value}"))
            }
            EventBody::CharacterUpdated { name, changes } => {
                let sep = match lang {
                    Lang::Ja => "、",
                    Lang::En => ", ",
                };
                let list: Vec<String> = changes
                    .iter()
                    .map(|c| {
                        let value = self.field_shown(name, &c.key, &c.value, viewer, lang);
                        format!("{}={value}", c.key)
                    })
                    .collect();
                (
                    "character",
                    format!("#{n} {actor}: {name} {}", list.join(sep)),
                )
            }
            EventBody::SceneAdvanced => (
                "scene",
                t(
                    format!("#{n} {actor}: 次のシーンへ"),
                    format!("#{n} {actor}: next scene"),
                ),
            ),
            EventBody::SessionEnded => (
                "session",
                t(
                    format!("#{n} {actor}: セッション終了"),
                    format!("#{n} {actor}: session ended"),
                ),
            ),
            EventBody::Undone { event } => (
                "undone",
                match self.event(*event).map(|e| &e.body) {
                    // Only a GM reads that their hidden character keeps its new name.
                    Some(EventBody::CharacterCreated {
                        name,
                        displaced: Some(to),
                        ..
                    }) if self.sees_all(viewer) => {
                        // A8-9: its name now, after later displacements (`蛇(GM)(GM)`).
                        let to = self.name_now(to, *event);
                        t(
                            format!(
                                "#{n} {actor} が #{event} を取り消し（GMのみ: GM の {name} は {to} のままです。{to} で指定してください）"
                            ),
                            format!(
                                "#{n} {actor} undid #{event} (GM only: the GM's {name} keeps the name {to}; name it {to})"
                            ),
                        )
                    }
                    _ => t(
                        format!("#{n} {actor} が #{event} を取り消し"),
                        format!("#{n} {actor} undid #{event}"),
                    ),
                },
            ),
            EventBody::Voided { event } => (
                "voided",
                t(
                    format!("#{n} {actor} が #{event} を無効化（振り直しはしません）"),
                    format!("#{n} {actor} voided #{event} (nothing is redrawn)"),
                ),
            ),
            EventBody::LanguageSet { lang: code } => (
                "language",
                t(
                    format!("#{n} {actor}: テーブルの言語を {code} に"),
                    format!("#{n} {actor}: table language set to {code}"),
                ),
            ),
            EventBody::System { data, .. } => {
                let described = self.rules().map(|r| r.describe(data)).unwrap_or_default();
                ("system", format!("#{n} {actor}: {}", described.get(lang)))
            }
        };
        let mark = match (voided, undone, lang) {
            (true, _, Lang::Ja) => "（無効）",
            (true, _, Lang::En) => " (voided)",
            (false, true, Lang::Ja) => "（取り消し済み）",
            (false, true, Lang::En) => " (undone)",
            _ => "",
        };
        Entry {
            seq: n,
            kind,
            actor: Some(actor.clone()),
            text: format!("{text}{mark}"),
            undone,
            voided,
            roll,
            tab,
        }
    }

    /// What `viewer` sees of `event`, as one line in the table's language.
    pub fn view(&self, event: &Event, viewer: &str) -> String {
        self.entry(event, viewer, self.lang()).text
    }
}
