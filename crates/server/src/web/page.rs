//! The web table's templates (maud: compile-time HTML, every value escaped).
//!
//! [`entry`] is the one template of a log entry: the page's log, its older pages and the
//! live socket's HTML messages all render through it, from what [`Table::entry`] gives
//! the member — so this module never decides what a member may see, only how to show it.

use super::odds::{self, Lookup};
use super::text::Ui;
use maud::{DOCTYPE, Markup, html};
use taku_dice::Lang;
use taku_systems::view::{Sheet, Value};
use taku_table::{CHAT_TAB, Entry, Event, MAIN_TAB, Role, Table};

/// A whole page: `<html lang="ja">` (the language of the page's words), one stylesheet,
/// one module.
fn layout(lang: Lang, title: &str, page: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang=(lang.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                link rel="stylesheet" href="/assets/taku.css";
                script type="module" src="/assets/taku.js" {}
            }
            body data-page=(page) data-ui=(Ui::script_catalog(lang)) {
                (body)
            }
        }
    }
}

/// `/`: the form that creates a table.
pub fn front(lang: Lang, error: Option<&str>) -> Markup {
    let t = |m: Ui| m.get(lang);
    layout(
        lang,
        "taku",
        "front",
        html! {
            main.narrow {
                h1 { "taku" }
                p { (t(Ui::Tagline)) }
                @if let Some(reason) = error {
                    p.error role="alert" { (t(Ui::CreateFailed)) ": " (reason) }
                }
                form.create method="post" action="/new" {
                    h2 { (t(Ui::CreateTitle)) }
                    label { (t(Ui::System))
                        select name="system" required {
                            @for s in taku_systems::systems() {
                                option value=(s.id()) { (s.name()) }
                            }
                        }
                    }
                    label { (t(Ui::TableName))
                        input name="name" required maxlength="100" autocomplete="off";
                    }
                    label { (t(Ui::GmName))
                        input name="gm" required maxlength="64" pattern="[^\\s/][^\\s]*" autocomplete="nickname";
                    }
                    label { (t(Ui::TableLang))
                        select name="lang" {
                            option value="ja" selected[lang == Lang::Ja] { "日本語" }
                            option value="en" selected[lang == Lang::En] { "English" }
                        }
                    }
                    button type="submit" { (t(Ui::Create)) }
                }
                footer {
                    a href="/about" { (t(Ui::ApiDocs)) }
                    " · " a href="/v2/game_system" { "/v2/game_system" }
                    " · " a href="/api/v1/openapi.json" { "/api/v1/openapi.json" }
                }
            }
        },
    )
}

/// What the GM sees right after creating a table: their own link and the invites.
pub struct GmPage<'a> {
    /// Table id.
    pub id: &'a str,
    /// Table name.
    pub name: &'a str,
    /// The GM's token.
    pub token: &'a str,
    /// Player invites.
    pub players: &'a [String],
    /// Spectator invites.
    pub spectators: &'a [String],
}

/// The GM page. Tokens go in the links' fragments, which browsers never send to a server,
/// so they stay out of every request log.
pub fn gm(lang: Lang, page: &GmPage) -> Markup {
    let t = |m: Ui| m.get(lang);
    let own = format!("/t/{}#token={}", page.id, page.token);
    let invite = |token: &str| format!("/t/{}/join#invite={token}", page.id);
    let link = |href: String| {
        html! {
            li.link {
                a href=(href) data-absolute { (href) }
                " " button type="button" data-copy=(href) { (t(Ui::Copy)) }
            }
        }
    };
    layout(
        lang,
        page.name,
        "gm",
        html! {
            main.narrow {
                h1 { (t(Ui::GmPageTitle)) ": " (page.name) }
                p { (t(Ui::GmPageIntro)) }
                h2 { (t(Ui::YourLink)) }
                ul.links #own { (link(own.clone())) }
                p { a.button href=(own) { (t(Ui::EnterTable)) } }
                h2 { (t(Ui::InvitePlayers)) }
                ul.links #invites-player { @for i in page.players { (link(invite(i))) } }
                h2 { (t(Ui::InviteSpectators)) }
                ul.links #invites-spectator { @for i in page.spectators { (link(invite(i))) } }
                p.note { (t(Ui::InviteNote)) }
            }
        },
    )
}

/// `/t/{id}/join`: a name, and the invite from the link's fragment.
pub fn join(lang: Lang, id: &str) -> Markup {
    let t = |m: Ui| m.get(lang);
    layout(
        lang,
        "taku",
        "join",
        html! {
            main.narrow data-table=(id) {
                h1 { (t(Ui::JoinTitle)) }
                p.error #join-error role="alert" hidden {}
                form #join {
                    label { (t(Ui::YourName))
                        input name="name" required maxlength="64" autocomplete="nickname";
                    }
                    button type="submit" { (t(Ui::Join)) }
                }
            }
        },
    )
}

/// `/t/{id}`: the table. Its log and character list arrive from the member's own view
/// once the script has the token (kept in the browser, never in the URL sent here).
pub fn table(lang: Lang, id: &str) -> Markup {
    let t = |m: Ui| m.get(lang);
    layout(
        lang,
        "taku",
        "table",
        html! {
            div.table data-table=(id) {
                header.bar {
                    h1 #table-name { "taku" }
                    span #status role="status" { (t(Ui::Connecting)) }
                    button type="button" #compact aria-pressed="false" { (t(Ui::Compact)) }
                    button type="button" data-export="html" { (t(Ui::ExportHtml)) }
                    button type="button" data-export="json" { (t(Ui::ExportJson)) }
                    button type="button" #copy-link { (t(Ui::CopyPersonalLink)) }
                }
                div.notices {
                    // W9-1/W9-6: what went wrong is an alert; a reply for this member
                    // alone (`/help`, `/char show`) is information, its lines kept.
                    p.error #table-error role="alert" hidden {}
                    div.reply #table-reply role="status" hidden {
                        pre #reply-text {}
                        button type="button" #reply-close { (t(Ui::CloseReply)) }
                    }
                }
                nav.tabs #tabs role="tablist" aria-label=(t(Ui::Tabs)) {}
                section.log-pane aria-label=(t(Ui::Log)) {
                    button type="button" #older hidden { (t(Ui::LoadOlder)) }
                    ol #log role="log" aria-live="polite" aria-label=(t(Ui::Log)) {}
                    button type="button" #newer hidden { (t(Ui::LoadNewer)) }
                }
                details.side #side-pane open {
                    summary { (t(Ui::ShowCharacters)) }
                    div #side {}
                    details.import {
                        summary { (t(Ui::Import)) }
                        form #import {
                            label { (t(Ui::ImportHint))
                                textarea name="sheet" rows="5" spellcheck="false" {}
                            }
                            button type="submit" { (t(Ui::Import)) }
                        }
                    }
                }
                ul.palette-popup #palette role="listbox" aria-label=(t(Ui::Palette)) hidden {}
                form.command #command {
                    label for="line" { (t(Ui::CommandLine)) }
                    textarea #line name="line" rows="2" autocomplete="off" spellcheck="false"
                        aria-describedby="line-hint" {}
                    button type="submit" { (t(Ui::Send)) }
                    // Who this browser takes part as (A2-17: a link can switch it).
                    small #whoami { (t(Ui::YouAre)) ": " span #whoami-name {} }
                    small #line-hint { (t(Ui::CommandHint)) }
                }
            }
        },
    )
}

/// Entries, oldest first, as `viewer` sees them.
pub fn entries<'a>(table: &Table, events: impl Iterator<Item = &'a Event>, viewer: &str) -> Markup {
    html! { @for e in events { (entry(table, e, viewer)) } }
}

/// One log entry as `viewer` sees it ([`Table::entry`]), with the buttons `viewer` may
/// use on it: 「結果を公開」 for the roller and the GM of an unrevealed secret roll, the
/// GM's undo and void.
pub fn entry(table: &Table, event: &Event, viewer: &str) -> Markup {
    let lang = table.lang();
    let e = table.entry(event, viewer, lang);
    let is_gm = table.members().get(viewer) == Some(&Role::Gm);
    let outcome = e.roll.as_ref().and_then(|r| {
        if r.critical {
            Some(("critical", Ui::Critical))
        } else if r.fumble {
            Some(("fumble", Ui::Fumble))
        } else if r.success {
            Some(("success", Ui::Success))
        } else if r.failure {
            Some(("failure", Ui::Failure))
        } else {
            None
        }
    });
    let mut class = format!("entry kind-{}", e.kind);
    if let Some((o, _)) = outcome {
        class.push_str(" outcome-");
        class.push_str(o);
    }
    if e.roll.as_ref().is_some_and(|r| r.secret) {
        class.push_str(" secret");
    }
    if e.undone {
        class.push_str(" undone");
    }
    if e.voided {
        class.push_str(" voided");
    }
    let roll = e.roll.as_ref();
    let readable = roll.and_then(|r| r.result.as_ref().map(|res| (r, res)));
    let (name, rest) = match (readable, e.actor.as_deref()) {
        // A roll the member reads shows its fields, under its roller's name.
        (Some(_), Some(actor)) => (Some(actor), ""),
        _ => split(&e),
    };
    let may_reveal = roll.is_some_and(|r| r.secret && r.result.is_some())
        && !table.is_revealed(e.seq)
        && (is_gm || e.actor.as_deref() == Some(viewer));
    let revertible = is_gm && e.kind != "hidden" && !e.undone && !e.voided;
    html! {
        li class=(class) data-seq=(e.seq) data-kind=(e.kind) data-tab=(e.tab.as_deref().unwrap_or(MAIN_TAB)) {
            span.seq { "#" (e.seq) }
            " "
            @if let Some(n) = name { span.name { (n) } ": " }
            @if let Some((r, result)) = readable {
                @if r.secret { span.badge.secret-badge { (Ui::Secret.get(lang)) } " " }
                span.result tabindex="0" {
                    (result)
                    @if !r.rands.is_empty() {
                        span.draws {
                            (Ui::Draws.get(lang)) ": "
                            (r.rands.iter().map(|[s, v]| format!("{v}/D{s}")).collect::<Vec<_>>().join(" "))
                        }
                    }
                }
                @if let Some(c) = &r.comment { " " span.comment { (c) } }
                @if let Some(n) = &r.note { " " span.note { (n) } }
                @if let Some((o, word)) = outcome { " " span class={ "badge outcome " (o) } { (word.get(lang)) } }
                @if e.undone || e.voided { " " span.mark { (mark(&e, lang)) } }
            } @else {
                span.text { (rest) }
            }
            @if may_reveal || revertible {
                span.actions {
                    @if may_reveal {
                        button type="button" data-reveal=(e.seq) { (Ui::Reveal.get(lang)) }
                    }
                    @if revertible && e.kind == "roll" {
                        button type="button" data-line=(format!("/void {}", e.seq)) { (Ui::Void.get(lang)) }
                    } @else if revertible && matches!(e.kind, "character" | "system" | "scene" | "language") {
                        button type="button" data-line=(format!("/undo #{}", e.seq)) { (Ui::Undo.get(lang)) }
                    }
                }
            }
        }
    }
}

/// The entry's speaker (when its text reads `#N NAME: …`) and the rest of its text.
fn split(e: &Entry) -> (Option<&str>, &str) {
    let prefix = format!("#{} ", e.seq);
    let text = e.text.strip_prefix(&prefix).unwrap_or(&e.text);
    // Tab chat reads `#N [TAB] NAME: …`.
    let text = match &e.tab {
        Some(tab) => text.strip_prefix(&format!("[{tab}] ")).unwrap_or(text),
        None => text,
    };
    if let Some(actor) = &e.actor
        && let Some(rest) = text
            .strip_prefix(actor.as_str())
            .and_then(|r| r.strip_prefix(": "))
    {
        return (Some(actor), rest);
    }
    (None, text)
}

fn mark(e: &Entry, lang: Lang) -> &'static str {
    match (e.voided, lang) {
        (true, Lang::Ja) => "（無効）",
        (true, Lang::En) => "(voided)",
        (false, Lang::Ja) => "（取り消し済み）",
        (false, Lang::En) => "(undone)",
    }
}

/// The side pane: members, and each character's sheet as `viewer` may see it; palette
/// odds computed in place ([`side_with`] takes them from elsewhere).
pub fn side(table: &Table, viewer: &str) -> Markup {
    side_with(table, viewer, &mut inline_odds).0
}

/// A palette line's chance computed in place ([`odds::chance`], held to its cost bound):
/// for rendering outside a request (tests, tools). The server never calls it: its side
/// pane takes odds from its [`odds::Pool`].
pub fn inline_odds(system: &'static dyn taku_systems::GameSystem, line: &str) -> Lookup {
    Lookup::Known(odds::chance(system, line))
}

/// [`side`] with each palette line's chance from `odds`; also how many lines' odds are
/// pending (not computed yet).
pub fn side_with(
    table: &Table,
    viewer: &str,
    odds: &mut dyn FnMut(&'static dyn taku_systems::GameSystem, &str) -> Lookup,
) -> (Markup, usize) {
    let lang = table.lang();
    let (palette, pending) = palette_with(table, viewer, odds);
    let markup = html! {
        @if !palette.is_empty() {
            h2 { (Ui::Palette.get(lang)) }
            ul.palette #palette-source {
                @for line in &palette {
                    li data-palette=(line.send) data-character=(line.character) {
                        span.palette-line { (line.shown) }
                        @if let Some(p) = &line.odds { " " span.odds { (p) } }
                    }
                }
            }
        }
        // The table's tabs, which the script turns into the tab bar.
        ul #tab-source hidden {
            @for tab in table.tabs() {
                li data-tab=(tab) { (tab_label(tab, lang)) }
            }
        }
        @if let Some(panel) = table.table_sheet(viewer) {
            h2 { (Ui::TableState.get(lang)) }
            (card_body("panel", None, &panel, lang))
        }
        h2 { (Ui::Characters.get(lang)) }
        @let (shown, left_out) = side_characters(table, viewer);
        @for name in shown {
            @if let Some(sheet) = table.sheet(name, viewer) {
                (card(name, &sheet, lang))
            }
        }
        @if left_out {
            p.note { (Ui::CharactersLeftOut.get(lang)) }
        }
        @if table.members().get(viewer) == Some(&Role::Gm) {
            details.gm-tools {
                summary { (Ui::GmTools.get(lang)) }
                p {
                    button type="button" data-invite="player" { (Ui::NewPlayerInvite.get(lang)) }
                    " "
                    button type="button" data-invite="spectator" { (Ui::NewSpectatorInvite.get(lang)) }
                    " "
                    button type="button" data-revoke-invites { (Ui::RevokeInvites.get(lang)) }
                }
                ul.links #new-invites {}
                form.add-tab #add-tab {
                    label { (Ui::NewTab.get(lang))
                        input name="tab" required maxlength=(taku_table::MAX_TAB_NAME) autocomplete="off";
                    }
                    button type="submit" { (Ui::AddTab.get(lang)) }
                }
                h3 { (Ui::ManageMembers.get(lang)) }
                ul.manage-members {
                    @for (name, role) in table.members() {
                        // The table's creator has no buttons but their own (A2-10).
                        @if name != viewer && name != table.gm() {
                            li {
                                (name) " " small { (role_word(*role).get(lang)) } " "
                                button type="button" data-relink=(name) { (Ui::NewLinkFor.get(lang)) }
                                " "
                                button type="button" data-remove=(name) { (Ui::RemoveMember.get(lang)) }
                            }
                        }
                    }
                }
                p {
                    (Ui::Language.get(lang)) " "
                    button type="button" data-line="/lang ja" aria-pressed=(lang == Lang::Ja) { "日本語" }
                    " "
                    button type="button" data-line="/lang en" aria-pressed=(lang == Lang::En) { "English" }
                }
            }
        }
        h2 { (Ui::Members.get(lang)) }
        ul.members {
            @for (name, role) in table.members() {
                li { (name) " " small { (role_word(*role).get(lang)) } }
            }
        }
    };
    (markup, pending)
}

/// The most the side pane's character cards carry of fields (keys and values as the
/// viewer may see them), past its first card: the pane is asked for again on every
/// change, so a table of a hundred 32 KiB characters must not make each one 3 MB (A3-6).
pub const SIDE_CARD_BYTES: usize = 512 * 1024;

/// The characters whose cards the side pane shows `viewer`: their own first, then the
/// others, in name order, within [`SIDE_CARD_BYTES`]; and whether some were left out.
fn side_characters<'t>(table: &'t Table, viewer: &str) -> (Vec<&'t String>, bool) {
    let (mine, others): (Vec<_>, Vec<_>) = table
        .characters()
        .iter()
        .partition(|(_, c)| c.owner == viewer);
    let mut bytes = 0usize;
    let mut shown = Vec::new();
    // A character hidden from the viewer (an unidentified enemy) has no card at all.
    for (name, _) in mine.into_iter().chain(others) {
        if table.hidden(name, viewer).is_some() {
            continue;
        }
        let size: usize = table
            .visible_fields(name, viewer)
            .into_iter()
            .flatten()
            .map(|(k, v)| k.len() + v.len() + 16)
            .sum::<usize>()
            + name.len();
        bytes = bytes.saturating_add(size);
        if bytes > SIDE_CARD_BYTES && !shown.is_empty() {
            return (shown, true);
        }
        shown.push(name);
    }
    (shown, false)
}

/// The prefix of the fields that hold a character's chat palette, one line each
/// (`palette.1`, `palette.2`, …; a CCFOLIA import writes them).
pub const PALETTE_FIELD: &str = taku_table::PALETTE_FIELD;

/// The most palette lines shown per member.
const MAX_PALETTE: usize = 200;

/// One line of a chat palette, ready to show.
#[derive(Debug, Clone, PartialEq)]
pub struct PaletteLine {
    /// The character whose palette it is.
    pub character: String,
    /// The line as the member sends it: `{KEY}` made `{CHARACTER.KEY}`, so it reads
    /// this character's fields whoever else the member plays.
    pub send: String,
    /// The line with its references replaced by the character's values.
    pub shown: String,
    /// The exact chance of success of the check, when it has a verdict and can be
    /// computed cheaply and without a cut.
    pub odds: Option<String>,
}

/// The palettes of `viewer`'s characters, from their sheets as `viewer` sees them, with
/// odds computed in place ([`inline_odds`]).
pub fn palette(table: &Table, viewer: &str) -> Vec<PaletteLine> {
    palette_with(table, viewer, &mut inline_odds).0
}

/// [`palette`] with each line's chance from `odds`; also how many are pending.
pub fn palette_with(
    table: &Table,
    viewer: &str,
    odds: &mut dyn FnMut(&'static dyn taku_systems::GameSystem, &str) -> Lookup,
) -> (Vec<PaletteLine>, usize) {
    let mut out = Vec::new();
    let mut pending = 0;
    for (name, ch) in table.characters() {
        if ch.owner != viewer {
            continue;
        }
        let Some(sheet) = table.sheet(name, viewer) else {
            continue;
        };
        let mut lines: Vec<(u64, String)> = sheet
            .sections
            .iter()
            .flat_map(|s| &s.fields)
            .filter_map(|f| {
                let n = f
                    .key
                    .as_deref()?
                    .strip_prefix(PALETTE_FIELD)?
                    .parse()
                    .ok()?;
                let line = match &f.value {
                    Value::Plain(p) => p.clone(),
                    Value::Number(n) => n.to_string(),
                    _ => return None,
                };
                Some((n, line))
            })
            .collect();
        lines.sort();
        let (vars, lines) = palette_variables(lines.into_iter().map(|(_, l)| l));
        for line in lines {
            if out.len() == MAX_PALETTE {
                return (out, pending);
            }
            let line = expand_variables(&line, &vars);
            let send = qualify(&line, name, table, viewer);
            let shown = table
                .resolve_references(&send, viewer)
                .unwrap_or_else(|_| line.clone());
            let odds = match odds(table.system(), &shown) {
                Lookup::Known(odds) => odds,
                Lookup::Pending => {
                    pending += 1;
                    None
                }
            };
            out.push(PaletteLine {
                character: name.clone(),
                send,
                shown,
                odds,
            });
        }
    }
    (out, pending)
}

/// A palette's `//NAME=VALUE` lines (CCFOLIA's chat-palette variables) as variables, and
/// its other lines; a `//` line without `=` is a comment (`//-----`) and neither.
fn palette_variables(
    lines: impl Iterator<Item = String>,
) -> (std::collections::BTreeMap<String, String>, Vec<String>) {
    let mut vars = std::collections::BTreeMap::new();
    let mut rest = Vec::new();
    for line in lines {
        match line.trim().strip_prefix("//") {
            Some(def) => {
                if let Some((k, v)) = def.split_once('=') {
                    let k = k.trim();
                    if !k.is_empty() && !k.contains(['{', '}']) {
                        vars.insert(k.to_string(), v.trim().to_string());
                    }
                }
            }
            None => rest.push(line),
        }
    }
    (vars, rest)
}

/// The most rounds of variable expansion: a variable may use another (`//攻撃=2D6+{筋力}`
/// with `//筋力=3`); a cycle stops here rather than growing.
const VARIABLE_DEPTH: usize = 8;

/// `{NAME}` replaced by the palette variable's value, where a variable of that name
/// exists (variables win over the character's fields of the same name, as in CCFOLIA);
/// other references are left for the character's fields. Never longer than a line may
/// be.
fn expand_variables(line: &str, vars: &std::collections::BTreeMap<String, String>) -> String {
    let mut line = line.to_string();
    for _ in 0..VARIABLE_DEPTH {
        let mut out = String::with_capacity(line.len());
        let mut rest = line.as_str();
        let mut changed = false;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}').map(|c| open + c) else {
                break;
            };
            out.push_str(&rest[..open]);
            match vars.get(&rest[open + 1..close]) {
                Some(v) => {
                    out.push_str(v);
                    changed = true;
                }
                None => out.push_str(&rest[open..=close]),
            }
            rest = &rest[close + 1..];
        }
        out.push_str(rest);
        if out.chars().count() > taku_table::MAX_LINE {
            return line;
        }
        line = out;
        if !changed {
            break;
        }
    }
    line
}

/// `{KEY}` references made `{CHARACTER.KEY}`; references naming a character `viewer`
/// may know of stay. A character unknown to them ([`Table::unknown`]: a GM's NPC they
/// have not met) is read as no character at all, so the line comes out as for a name
/// nobody has (issue 13; attack pass 6, A6-1: the side pane told a hidden NPC's name from
/// an unknown one).
fn qualify(line: &str, character: &str, table: &Table, viewer: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            break;
        };
        let reference = &rest[open + 1..close];
        let named = reference
            .split_once('.')
            .is_some_and(|(n, _)| table.characters().contains_key(n) && !table.unknown(n, viewer));
        out.push_str(&rest[..open]);
        if named {
            out.push_str(&rest[open..=close]);
        } else {
            out.push_str(&format!("{{{character}.{reference}}}"));
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

fn role_word(role: Role) -> Ui {
    match role {
        Role::Gm => Ui::RoleGm,
        Role::Player => Ui::RolePlayer,
        Role::Spectator => Ui::RoleSpectator,
    }
}

/// A character card: each section of the typed sheet; resources as `<meter>` bars with
/// "12/20" text.
fn card(name: &str, sheet: &Sheet, lang: Lang) -> Markup {
    card_body("character", Some(name), sheet, lang)
}

/// The name of a tab in `lang`: メイン/Main, 雑談/Chat, or the name the GM gave it.
pub fn tab_label(tab: &str, lang: Lang) -> String {
    match tab {
        MAIN_TAB => Ui::MainTab.get(lang),
        CHAT_TAB => Ui::ChatTab.get(lang),
        other => other.to_string(),
    }
}

/// A typed view as a card: a character's sheet (`kind` "character", titled by its name)
/// or the system's table panel ("panel"), each section a titled list.
fn card_body(kind: &str, name: Option<&str>, sheet: &Sheet, lang: Lang) -> Markup {
    html! {
        article.card data-card=(kind) data-character=[name] {
            @if let Some(name) = name { h3 { (name) } }
            @for s in &sheet.sections {
                section {
                    h4 { (s.title.get(lang)) }
                    dl {
                        @for f in s.fields.iter().filter(|f| !f.key.as_deref().is_some_and(|k| k.starts_with(PALETTE_FIELD))) {
                            dt { (f.label.get(lang)) @if f.derived && kind == "character" { small { (Ui::Derived.get(lang)) } } }
                            dd data-key=[f.key.as_deref()] {
                                @match &f.value {
                                    Value::Number(n) => (n),
                                    Value::Plain(p) => (p),
                                    Value::Text(t) => (t.get(lang)),
                                    Value::Resource { current, max } => {
                                        meter min="0" max=(max) value=(current) {}
                                        " " span.resource { (current) "/" (max) }
                                    }
                                    Value::List(items) => ul { @for i in items { li { (i.get(lang)) } } },
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The log as `viewer` sees it in CCFOLIA's log shape, so the tools that read CCFOLIA
/// logs read it: each entry a `<p>` coloured per speaker, with `<span>`s for the tab,
/// the name and the text. Rendered from [`Table::entry`], like the page.
pub fn export(table: &Table, viewer: &str) -> Markup {
    export_pages(std::slice::from_ref(table), viewer)
}

/// [`export`] of a log copied in pages (consecutive [`Table::excerpt`]s, the first
/// giving the table's name and language): each page's entries as that page views them.
pub fn export_pages(pages: &[Table], viewer: &str) -> Markup {
    let Some(first) = pages.first() else {
        return html! {};
    };
    let lang = first.lang();
    html! {
        (DOCTYPE)
        html lang=(lang.code()) {
            head {
                meta charset="UTF-8";
                title { (first.name()) " - taku logs" }
            }
            body {
                @for table in pages {
                @for event in table.events() {
                    @let e = table.entry(event, viewer, lang);
                    @let (name, text) = split(&e);
                    @let speaker = name.is_some() || e.roll.is_some();
                    @let tab = e.tab.as_deref().unwrap_or(if speaker { "main" } else { "info" });
                    @let name = name.or(if e.roll.is_some() { e.actor.as_deref() } else { None });
                    @let text = if e.roll.is_some() && name.is_some() {
                        e.text.split_once(": ").map_or(text, |(_, rest)| rest)
                    } else { text };
                    p style={ "color:" (colour(name.unwrap_or(""))) ";" } {
                        "\n  " span { " [" (tab) "]" } "\n  "
                        span { (name.unwrap_or("system")) } " :\n  "
                        span { "\n    " (text) "\n  " } "\n"
                    }
                    "\n"
                }
                }
            }
        }
    }
}

/// A speaker's colour: the same name always gets the same one.
fn colour(name: &str) -> &'static str {
    const COLOURS: [&str; 8] = [
        "#212121", "#1e5aa8", "#b0413e", "#2e7d32", "#6a1b9a", "#ad6800", "#00838f", "#c2185b",
    ];
    if name.is_empty() {
        return "#888888";
    }
    let sum = name.bytes().fold(0usize, |a, b| {
        a.wrapping_mul(31).wrapping_add(usize::from(b))
    });
    COLOURS[sum % COLOURS.len()]
}
