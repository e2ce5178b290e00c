//! `taku table verify`: replay a table's log and report every place it disagrees with
//! itself. Each roll is evaluated again from the seed and its seq (text, flags, draws and a
//! secret roll's commitment must match), and the log is folded again one event at a time,
//! checking that each event was allowed by the state it met: its actor a member, a roll
//! not a spectator's, a character changed by its owner or the GM with the right previous
//! value, an undo of an undoable change of one's own (or the GM's), a reveal of a secret
//! roll by its roller or the GM. A log edited behind the engine's back shows up here.

use crate::event::{Event, EventBody, Role};
use crate::{Entropy, Mismatch, Table, secret};
use taku_dice::{ChaChaSource, DiceSource, EngineFailure, EvalError, Mode, Text};

impl Table {
    /// Every disagreement in the log: rolls that replay differently and events the state
    /// they met did not allow. Empty for a sound log.
    pub fn verify(&self) -> Vec<Mismatch> {
        let mut out = Vec::new();
        let mut replay: Option<Table> = None;
        for (i, e) in self.events.iter().enumerate() {
            // Each passes over events that are not its kind.
            out.extend(self.replay_roll(e));
            let dice = self.replay_system_dice(e);
            let dice_differ = dice.is_some();
            out.extend(dice);
            match replay.as_mut() {
                None => {
                    replay = Table::from_events_in(self.system, vec![e.clone()]).ok();
                }
                Some(state) => {
                    // A line is reported once: as dice when they do not replay, else by
                    // the system's own replay of it, else as the command decided again.
                    let by_rules = state.replay_system_line(&self.events[i..]);
                    if !dice_differ && by_rules.is_none() {
                        out.extend(self.replay_command(state, e));
                    }
                    out.extend(by_rules);
                    if let Err(why) = state.allowed(e) {
                        out.push(Mismatch {
                            seq: e.seq,
                            logged: describe(e),
                            replayed: why.en().to_string(),
                            unchecked: false,
                            replayed_ja: Some(why.ja().to_string()),
                        });
                    }
                    state.fold(e.clone());
                }
            }
        }
        out
    }

    /// The roll at `e` evaluated again; `None` when it matches the log.
    fn replay_roll(&self, e: &Event) -> Option<Mismatch> {
        let EventBody::Roll(logged) = &e.body else {
            return None;
        };
        let key = secret::event_key(&self.seed, e.seq, logged.nonce.as_deref());
        let mut dice = ChaChaSource::from_key(key);
        let replayed =
            taku_systems::evaluate(self.system, &logged.input, &mut dice, Mode::Normalize);
        let commitment = logged
            .secret
            .then(|| secret::commitment(&secret::salt(&self.seed, e.seq), logged));
        let same = replayed.as_ref().is_ok_and(|r| {
            r.text == logged.text
                && [r.secret, r.success, r.failure, r.critical, r.fumble]
                    == [
                        logged.secret,
                        logged.success,
                        logged.failure,
                        logged.critical,
                        logged.fumble,
                    ]
                && r.rands
                    .iter()
                    .map(|d| [d.sides, d.value])
                    .eq(logged.rands.iter().copied())
        }) && commitment == logged.commitment;
        // An engine that could not answer says nothing about the log.
        let unchecked = matches!(
            replayed,
            Err(EvalError::Engine(
                EngineFailure::TimedOut { .. } | EngineFailure::Busy | EngineFailure::Crashed(_)
            ))
        );
        (!same).then(|| Mismatch {
            seq: e.seq,
            logged: logged.text.clone(),
            unchecked,
            replayed_ja: match &replayed {
                Ok(r) if r.text == logged.text => Some(
                    "同じ文面ですが、フラグ・ダイス・コミットメントのどれかが違います".to_string(),
                ),
                Ok(_) => None,
                Err(err) => Some(format!("エラー: {err}")),
            },
            replayed: match replayed {
                Ok(r) if r.text == logged.text => {
                    "the same text, but other flags, draws or commitment".to_string()
                }
                Ok(r) => r.text,
                Err(err) => format!("error: {err}"),
            },
        })
    }

    /// The dice a system command drew, drawn again from the same key; `None` when they
    /// match the log.
    fn replay_system_dice(&self, e: &Event) -> Option<Mismatch> {
        let EventBody::System { rands, nonce, .. } = &e.body else {
            return None;
        };
        if rands.is_empty() {
            return None;
        }
        let key = secret::event_key(&self.seed, e.seq, nonce.as_deref());
        let mut dice = ChaChaSource::from_key(key);
        let replayed: Vec<[u32; 2]> = rands
            .iter()
            .map(|&[sides, _]| [sides, dice.roll(sides).unwrap_or(0)])
            .collect();
        (replayed != *rands).then(|| Mismatch {
            seq: e.seq,
            logged: format!("dice {rands:?}"),
            replayed: format!("dice {replayed:?}"),
            unchecked: false,
            replayed_ja: None,
        })
    }

    /// A system command that drew dice (`/fc create`'s attributes, `/fc day`'s injury
    /// roll, `/sg discover`'s check), decided again by `before` (the table as it was when
    /// the line came) with the dice its event recorded: the events it gives must be the
    /// ones logged, so a record edited behind the engine's back (a rolled attribute, a
    /// check's outcome) shows up. `None` when they match or `e` is no such command.
    fn replay_command(&self, before: &mut Table, e: &Event) -> Option<Mismatch> {
        let EventBody::System {
            follows: None,
            rands,
            nonce,
            line: Some(line),
            ..
        } = &e.body
        else {
            return None;
        };
        if rands.is_empty() {
            return None;
        }
        let logged: Vec<&EventBody> = std::iter::once(&e.body)
            .chain(
                self.events
                    .iter()
                    .filter(|f| f.body.follows() == Some(e.seq))
                    .map(|f| &f.body),
            )
            .collect();
        let entropy = std::mem::replace(&mut before.entropy, Entropy::Replay(nonce.clone()));
        let decided = before.decide(&e.actor, line);
        before.entropy = entropy;
        let mismatch = |replayed: String| Mismatch {
            seq: e.seq,
            logged: describe(e),
            replayed,
            unchecked: false,
            replayed_ja: None,
        };
        match decided {
            Err(why) => Some(Mismatch {
                replayed_ja: Some(format!("拒否: {}", why.render(taku_dice::Lang::Ja))),
                ..mismatch(format!("refused: {}", why.render(taku_dice::Lang::En)))
            }),
            Ok(d)
                if d.events.len() == logged.len()
                    && d.events
                        .iter()
                        .zip(&logged)
                        .all(|(r, l)| same_command(r, l)) =>
            {
                None
            }
            Ok(d) => Some(mismatch(
                d.events
                    .iter()
                    .map(|b| serde_json::to_string(b).unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join(" "),
            )),
        }
    }

    /// The system events of one line (or one scene end) starting at `rest[0]`, checked by
    /// the system's rules against the state they met and their recorded draws (an MTG
    /// library the draws do not produce, say); `None` when they agree or `rest[0]` starts
    /// no such group.
    fn replay_system_line(&self, rest: &[Event]) -> Option<Mismatch> {
        let first = rest.first()?;
        let EventBody::System {
            follows,
            rands,
            line,
            ..
        } = &first.body
        else {
            return None;
        };
        let anchor = match follows {
            None => first.seq,
            Some(f) if !matches!(self.event(*f)?.body, EventBody::System { .. }) => *f,
            Some(_) => return None,
        };
        // The second and later events of a group (a scene's end returning two libraries'
        // boost cards) were replayed with the first, whose draws they share.
        if follows.is_some()
            && first.seq > 1
            && self.event(first.seq - 1).is_some_and(|prev| {
                matches!(&prev.body, EventBody::System { follows: Some(f), .. } if *f == anchor)
            })
        {
            return None;
        }
        let group: Vec<serde_json::Value> = rest
            .iter()
            .take_while(|e| match &e.body {
                EventBody::System { follows, .. } => e.seq == first.seq || *follows == Some(anchor),
                _ => false,
            })
            .filter_map(|e| match &e.body {
                EventBody::System { data, .. } => Some(data.clone()),
                _ => None,
            })
            .collect();
        let (rules, state) = (self.rules()?, self.state.system.as_deref()?);
        let why = rules
            .replay(state, &first.actor, line.as_deref(), &group, rands)
            .err()?;
        Some(Mismatch {
            seq: first.seq,
            logged: describe(first),
            replayed: why.en().to_string(),
            unchecked: false,
            replayed_ja: Some(why.ja().to_string()),
        })
    }

    /// Whether the state this table is in allowed event `e`; `Err` says why not.
    fn allowed(&self, e: &Event) -> Result<(), Text> {
        let actor = &e.actor;
        let Some(&role) = self.state.members.get(actor) else {
            return Err(Text::new(
                format!("{actor} はメンバーではありませんでした"),
                format!("{actor} was not a member"),
            ));
        };
        let gm = role == Role::Gm;
        match &e.body {
            EventBody::Created { .. } => {
                Err(Text::new("2回目のテーブル作成", "a second table creation"))
            }
            EventBody::Joined { member, .. } if !gm => Err(Text::new(
                format!("GM でない {actor} が {member} を加えました"),
                format!("{actor}, not a GM, added {member}"),
            )),
            EventBody::Joined { member, .. } if self.state.members.contains_key(member) => {
                Err(Text::new(
                    format!("{member} が2回参加しました"),
                    format!("{member} joined twice"),
                ))
            }
            EventBody::Relinked { member } if !gm => Err(Text::new(
                format!("GM でない {actor} が {member} の個人リンクを再発行しました"),
                format!("{actor}, not a GM, renewed {member}'s link"),
            )),
            EventBody::Relinked { member } if !self.state.members.contains_key(member) => {
                Err(Text::new(
                    format!(
                        "{member} の個人リンクが再発行されましたが、メンバーではありませんでした"
                    ),
                    format!("{member}'s link was renewed but they were not a member"),
                ))
            }
            EventBody::Removed { member } if !gm => Err(Text::new(
                format!("GM でない {actor} が {member} を退室させました"),
                format!("{actor}, not a GM, removed {member}"),
            )),
            EventBody::Removed { member } if member == actor => Err(Text::new(
                format!("{actor} が自分を退室させました"),
                format!("{actor} removed themselves"),
            )),
            EventBody::Removed { member } if *member == self.gm => Err(Text::new(
                format!("{actor} がテーブルを作った {member} を退室させました"),
                format!("{actor} removed the table's creator {member}"),
            )),
            EventBody::Relinked { member } if *member == self.gm && *actor != self.gm => {
                Err(Text::new(
                    format!("{actor} がテーブルを作った {member} の個人リンクを再発行しました"),
                    format!("{actor} renewed the link of the table's creator {member}"),
                ))
            }
            EventBody::Removed { member } if !self.state.members.contains_key(member) => {
                Err(Text::new(
                    format!("{member} が退室させられましたが、メンバーではありませんでした"),
                    format!("{member} was removed but was not a member"),
                ))
            }
            EventBody::Roll(_) if role == Role::Spectator => Err(Text::new(
                format!("{actor} が観戦者としてダイスを振りました"),
                format!("{actor} rolled as a spectator"),
            )),
            EventBody::CharacterCreated {
                name, displaced, ..
            } if self.state.characters.contains_key(name)
                && displaced
                    .as_ref()
                    .is_none_or(|to| self.state.characters.contains_key(to)) =>
            {
                Err(Text::new(
                    format!("キャラクター {name} が2回作られました"),
                    format!("character {name} created twice"),
                ))
            }
            EventBody::CharacterRenamed { from, to }
                if role != Role::Gm
                    || !self.state.characters.contains_key(from)
                    || self.state.characters.contains_key(to) =>
            {
                Err(Text::new(
                    format!("キャラクター {from} を {to} に改名できない状態で改名しました"),
                    format!("character {from} was renamed to {to} where it could not be"),
                ))
            }
            EventBody::CharacterCreated { .. } if role == Role::Spectator => Err(Text::new(
                format!("{actor} が観戦者としてキャラクターを作りました"),
                format!("{actor} created a character as a spectator"),
            )),
            EventBody::CharacterUpdated { name, changes } => {
                match self.state.characters.get(name) {
                    None => Err(Text::new(
                        format!("キャラクター {name} はいませんでした"),
                        format!("character {name} did not exist"),
                    )),
                    Some(c) if c.owner != *actor && !gm => Err(Text::new(
                        format!("{actor} が {} の {name} を変更しました", c.owner),
                        format!("{actor} changed {name}, which belongs to {}", c.owner),
                    )),
                    Some(c) => {
                        let mut now = c.fields.clone();
                        for ch in changes {
                            if now.get(&ch.key) != ch.previous.as_ref() {
                                return Err(Text::new(
                                    format!(
                                        "{name}.{} は {:?} で、{:?} ではありませんでした",
                                        ch.key,
                                        now.get(&ch.key),
                                        ch.previous
                                    ),
                                    format!(
                                        "{name}.{} was {:?}, not {:?}",
                                        ch.key,
                                        now.get(&ch.key),
                                        ch.previous
                                    ),
                                ));
                            }
                            now.insert(ch.key.clone(), ch.value.clone());
                        }
                        Ok(())
                    }
                }
            }
            EventBody::LanguageSet { .. } | EventBody::Voided { .. } if !gm => Err(Text::new(
                format!("GM でない {actor} が言語を設定したか行を無効にしました"),
                format!("{actor}, not a GM, set the language or voided a line"),
            )),
            EventBody::Voided { event } => match self.event(*event) {
                Some(target)
                    if target.body.is_voidable()
                        && target.body.follows().is_none()
                        && !self.undone.contains(event) =>
                {
                    Ok(())
                }
                _ => Err(Text::new(
                    format!("{actor} は #{event} を無効にできません"),
                    format!("{actor} may not void #{event}"),
                )),
            },
            EventBody::CharacterSet {
                name,
                key,
                previous,
                ..
            } => match self.state.characters.get(name) {
                None => Err(Text::new(
                    format!("キャラクター {name} はいませんでした"),
                    format!("character {name} did not exist"),
                )),
                Some(c) if c.owner != *actor && !gm => Err(Text::new(
                    format!("{actor} が {} の {name} を変更しました", c.owner),
                    format!("{actor} changed {name}, which belongs to {}", c.owner),
                )),
                Some(c) if c.fields.get(key) != previous.as_ref() => Err(Text::new(
                    format!(
                        "{name}.{key} は {:?} で、{:?} ではありませんでした",
                        c.fields.get(key),
                        previous
                    ),
                    format!(
                        "{name}.{key} was {:?}, not {:?}",
                        c.fields.get(key),
                        previous
                    ),
                )),
                Some(_) => Ok(()),
            },
            EventBody::TabAdded { name } if !gm => Err(Text::new(
                format!("GM でない {actor} がタブ {name} を加えました"),
                format!("{actor}, not a GM, added the tab {name}"),
            )),
            EventBody::SceneAdvanced | EventBody::SessionEnded if !gm => Err(Text::new(
                format!("GM でない {actor} がシーンかセッションを終えました"),
                format!("{actor}, not a GM, ended a scene or session"),
            )),
            EventBody::Revealed { roll } => match self.event(*roll) {
                Some(Event {
                    actor: roller,
                    body: EventBody::Roll(r),
                    ..
                }) if r.secret && (roller == actor || gm) => {
                    if self.state.revealed.contains(roll) {
                        Err(Text::new(
                            format!("#{roll} が2回公開されました"),
                            format!("#{roll} revealed twice"),
                        ))
                    } else {
                        Ok(())
                    }
                }
                _ => Err(Text::new(
                    format!("{actor} は #{roll} を公開できません"),
                    format!("{actor} may not reveal #{roll}"),
                )),
            },
            EventBody::Undone { event } => match self.event(*event) {
                Some(target)
                    if target.body.is_undoable()
                        && !target.body.drew()
                        && !self.undone.contains(event)
                        && (target.actor == *actor || gm) =>
                {
                    Ok(())
                }
                _ => Err(Text::new(
                    format!("{actor} は #{event} を取り消せません"),
                    format!("{actor} may not undo #{event}"),
                )),
            },
            _ => Ok(()),
        }
    }
}

/// Whether a re-decided event is the logged one. A system's data is compared key by key
/// as logged, leaving out its log wording (`ja`, `en`) and fields the log does not have:
/// what a later version words differently or adds (a new field with its default) is no
/// disagreement, while every value the log records must come out the same.
fn same_command(replayed: &EventBody, logged: &EventBody) -> bool {
    match (replayed, logged) {
        (
            EventBody::System {
                data: rd,
                follows: rf,
                rands: rr,
                nonce: rn,
                line: rl,
            },
            EventBody::System {
                data: ld,
                follows: lf,
                rands: lr,
                nonce: ln,
                line: ll,
            },
        ) => rf == lf && rr == lr && rn == ln && rl == ll && covers(rd, ld),
        (r, l) => r == l,
    }
}

/// Whether `replayed` has every value `logged` has (see [`same_command`]).
fn covers(replayed: &serde_json::Value, logged: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (replayed, logged) {
        (Value::Object(r), Value::Object(l)) => l
            .iter()
            .all(|(k, lv)| k == "ja" || k == "en" || r.get(k).is_some_and(|rv| covers(rv, lv))),
        (Value::Array(r), Value::Array(l)) => {
            r.len() == l.len() && r.iter().zip(l).all(|(rv, lv)| covers(rv, lv))
        }
        (r, l) => r == l,
    }
}

/// A short description of an event for a verify report (never shown to members: verify
/// is run by whoever holds the database).
fn describe(e: &Event) -> String {
    let body = match &e.body {
        // The seed stays out of reports too.
        EventBody::Created { .. } => "a table creation".to_string(),
        body => serde_json::to_string(body).unwrap_or_default(),
    };
    format!("#{} by {}: {body}", e.seq, e.actor)
}
