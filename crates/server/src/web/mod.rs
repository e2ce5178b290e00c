//! The web table served by `taku serve`: server-rendered HTML ([`page`], maud templates
//! checked at compile time), one stylesheet and one hand-written ES module embedded in
//! the binary, and the table API underneath.
//!
//! The key design decision: a member's token lives in their browser (localStorage, and
//! the fragment of their personal link, which no browser sends to a server), so pages
//! themselves carry nothing about a table; what a member sees of a table arrives as HTML
//! fragments fetched with the token (`/t/{id}/entries`, `/t/{id}/side`) and over the live
//! socket (`?format=html`), each rendered from [`taku_table::Table::entry`] and
//! [`taku_table::Table::sheet`] for that member by the same templates. The web layer
//! never decides what a member may see.

pub mod ccfolia;
pub mod odds;
pub mod page;
mod sending;
pub mod text;

use sending::sent_in_chunks;
pub use sending::{
    CUT_OFF_PAUSE, EXPORT_MIN_RATE, EXPORT_STALL, EXPORTS_PER_ADDRESS, EXPORTS_SENDING, Exports,
    REPLIES_PER_ADDRESS, REPLIES_PER_MEMBER, REPLIES_SENDING, Replies, SHORT_EXPORT, SHORT_REPLY,
};

use crate::Server;
use crate::api::{self, ApiError};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use std::sync::Arc;
use taku_dice::Lang;
use taku_table::Role;
use taku_table::store::EventStore;

/// Player invites the create form makes.
pub const PLAYER_INVITES: u32 = 4;
/// Spectator invites the create form makes.
pub const SPECTATOR_INVITES: u32 = 2;
/// Log entries one page of the web log holds.
pub const PAGE: usize = 100;

/// The web table's routes.
pub fn routes() -> Router<Arc<Server>> {
    Router::new()
        .route("/", get(front))
        .route(
            "/about",
            get(|| async { Html(include_str!("../index.html")) }),
        )
        .route("/new", post(create))
        .route("/t/{id}", get(table))
        .route("/t/{id}/join", get(join))
        .route("/t/{id}/entries", get(entries))
        .route("/t/{id}/side", get(side))
        .route("/t/{id}/import", post(import))
        .route("/t/{id}/members/{name}/link", post(relink))
        .route("/t/{id}/export.html", get(export_html))
        .route("/t/{id}/export.json", get(export_json))
        .route("/assets/taku.css", get(css))
        .route("/assets/taku.js", get(js))
        .layer(axum::middleware::map_response(same_origin))
}

/// Marks a response of the web table's as for this server's own pages: it gets no
/// `Access-Control-Allow-Origin` (attack pass 2, A2-15: the GM page with its token was
/// readable by any site's script).
#[derive(Debug, Clone, Copy)]
pub struct SameOrigin;

async fn same_origin(mut response: Response) -> Response {
    response.extensions_mut().insert(SameOrigin);
    response
}

/// The page's language: `?lang=en` for English, Japanese otherwise, whatever the
/// browser's `Accept-Language` (the table's players read Japanese pages by default; a
/// browser set to English still gets them, as the real-browser tests check).
fn lang(query: Option<&str>, _headers: &HeaderMap) -> Lang {
    match api::query_pairs(query).get("lang").map(String::as_str) {
        Some("en") => Lang::En,
        _ => Lang::Ja,
    }
}

/// The pages' Content Security Policy: scripts, styles and connections from this server
/// only, no inline script or style, no plugins, no framing (a GM's buttons cannot be
/// clicked through another site's frame), forms post here only. Whatever a member
/// manages to put in a page can never run.
pub const PAGE_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; \
     frame-ancestors 'none'";

/// The HTML export's policy: a file of text and colours, nothing that runs or loads.
pub const EXPORT_CSP: &str =
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

fn html(markup: maud::Markup) -> Response {
    let mut response = Html(markup.into_string()).into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(PAGE_CSP),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        // Not `no-referrer`: with it a browser sends our own form posts as `Origin: null`,
        // which a sandboxed frame of any site sends too (A4-6). `same-origin` gives other
        // sites no referrer and our own requests their real origin.
        HeaderValue::from_static("same-origin"),
    );
    response
}

async fn front(RawQuery(query): RawQuery, headers: HeaderMap) -> Response {
    html(page::front(lang(query.as_deref(), &headers), None))
}

async fn css() -> Response {
    asset("text/css; charset=utf-8", include_str!("taku.css"))
}

async fn js() -> Response {
    asset("text/javascript; charset=utf-8", include_str!("taku.js"))
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        body,
    )
        .into_response()
}

/// `POST /new` (the front page's form): creates the table and shows the GM their link
/// and the invites.
async fn create(
    State(server): State<Arc<Server>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    let lang = lang(query.as_deref(), &headers);
    let form: std::collections::HashMap<String, String> =
        serde_urlencoded::from_bytes::<Vec<(String, String)>>(&bytes)
            .unwrap_or_default()
            .into_iter()
            .collect();
    let field = |k: &str| {
        form.get(k)
            .map(|v| v.trim().to_string())
            .unwrap_or_default()
    };
    let (system, name, gm) = (field("system"), field("name"), field("gm"));
    // The table's language: the form's choice (the page's language is preselected).
    let table_lang = Lang::parse(&field("lang")).unwrap_or(lang);
    let made = async {
        api::check_text("name", &name, 100)?;
        api::check_member_name(&gm)?;
        let (id, _, token) = api::new_table(&server, &system, &name, &gm, table_lang).await?;
        let players = api::make_invites(&server, &id, Role::Player, PLAYER_INVITES).await?;
        let spectators =
            api::make_invites(&server, &id, Role::Spectator, SPECTATOR_INVITES).await?;
        Ok::<_, ApiError>((id, token, players, spectators))
    }
    .await;
    let tokens = |invites: &[serde_json::Value]| -> Vec<String> {
        invites
            .iter()
            .filter_map(|i| i["token"].as_str().map(str::to_string))
            .collect()
    };
    match made {
        Ok((id, token, players, spectators)) => html(page::gm(
            lang,
            &page::GmPage {
                id: &id,
                name: &name,
                token: &token,
                players: &tokens(&players),
                spectators: &tokens(&spectators),
            },
        )),
        Err(e) => {
            let (status, reason) = e.status_and_reason_in(lang);
            (status, html(page::front(lang, Some(&reason)))).into_response()
        }
    }
}

/// `GET /t/{id}`: the table page. It reads nothing of the table: the script fetches the
/// member's view with the token it keeps.
async fn table(Path(id): Path<String>, RawQuery(query): RawQuery, headers: HeaderMap) -> Response {
    html(page::table(lang(query.as_deref(), &headers), &id))
}

/// `GET /t/{id}/join`: the join form (the invite is in the link's fragment).
async fn join(Path(id): Path<String>, RawQuery(query): RawQuery, headers: HeaderMap) -> Response {
    html(page::join(lang(query.as_deref(), &headers), &id))
}

/// `GET /t/{id}/entries?before=N|after=N&limit=M&tab=TAB` (Bearer token): log entries
/// as HTML `<li>`s as the member sees them; by default the last [`PAGE`]. With `tab`,
/// only that tab's entries (`main`: everything but talk in other tabs), found in the
/// whole log, not only in what a page has loaded (issue 17). A page stops early past
/// [`api::MAX_PAGE_BYTES`], and a search for a tab's entries stops after [`TAB_SCAN`]
/// events: the headers `X-Taku-Older` (the `before` to continue from; 1 when nothing is
/// older) and `X-Taku-Newer` (the `after` to continue from) say where the page ended.
async fn entries(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    seat: Option<axum::Extension<crate::limits::ConnectionSeat>>,
    client: Option<axum::Extension<crate::limits::ClientKey>>,
    headers: HeaderMap,
) -> Response {
    let seat = seat.map(|axum::Extension(s)| s);
    let client = client.and_then(|axum::Extension(c)| c.0);
    let result = async {
        let member = api::member(&server, &id, &headers, None).await?;
        let q = api::query_pairs(query.as_deref());
        let number = |k: &str| -> Result<Option<u64>, ApiError> {
            q.get(k)
                .map(|v| {
                    v.parse::<u64>().map_err(|_| {
                        ApiError::BadRequest(taku_dice::Text::new(
                            // A7-12: saying what is right (-1 is an integer).
                            format!("{k} は 0 以上の整数です（'{v}' ではなく）"),
                            format!("{k} must be a whole number ≥ 0, not '{v}'"),
                        ))
                    })
                })
                .transpose()
        };
        // A7-12: refused out of range, as the API's log refuses it (not silently cut).
        let limit = match number("limit")? {
            None => PAGE,
            Some(l) if (1..=api::MAX_LOG_PAGE as u64).contains(&l) => {
                usize::try_from(l).unwrap_or(api::MAX_LOG_PAGE)
            }
            Some(_) => {
                return Err(ApiError::BadRequest(taku_dice::Text::new(
                    format!("limit は 1 から {} までです", api::MAX_LOG_PAGE),
                    format!("limit must be 1 to {}", api::MAX_LOG_PAGE),
                )));
            }
        };
        let (before, after) = (number("before")?, number("after")?);
        let tab = q.get("tab").cloned();
        // The page is copied under the table's lock and rendered after (issue 18).
        let (runs, older, newer) = server
            .tables
            .read(&id, |t| {
                let events = t.events();
                let n = events.len();
                // Seqs start at 1 and are positions in the log.
                let (start, forward) = match (after, before) {
                    (Some(a), _) => (usize::try_from(a).unwrap_or(usize::MAX).min(n), true),
                    (None, Some(b)) => (
                        usize::try_from(b.saturating_sub(1))
                            .unwrap_or(usize::MAX)
                            .min(n),
                        false,
                    ),
                    (None, None) => (n, false),
                };
                let picked = pick(events, start, forward, limit, tab.as_deref());
                let runs: Vec<taku_table::Table> =
                    runs_of(&picked.indices).map(|r| t.excerpt(r)).collect();
                (runs, picked.low + 1, picked.high)
            })
            .await?;
        let body: String = runs
            .iter()
            .map(|page| page::entries(page, page.events().iter(), &member.name).into_string())
            .collect();
        let lang = match runs.first() {
            Some(t) => t.lang(),
            None => server.tables.peek(&id, |t| t.lang()).await?,
        };
        // Up to about 1 MB: within the server's bounds for long answers (a client that
        // never reads is cut off).
        let response = server
            .replies
            .send(&id, &member.name, client, lang, HTML, body, seat)?;
        Ok::<_, ApiError>((response, older, newer))
    }
    .await;
    match result {
        Ok((mut response, older, newer)) => {
            for (name, value) in [("x-taku-older", older), ("x-taku-newer", newer)] {
                response
                    .headers_mut()
                    .insert(name, HeaderValue::from(value as u64));
            }
            response
        }
        Err(e) => e.into_response(),
    }
}

/// Events a search for one tab's entries looks through at most per page, under the
/// table's lock (a tab with few entries in a long log is found over several pages).
pub const TAB_SCAN: usize = 20_000;

/// What a page of the web log takes: the indices of its events, ascending, and the
/// part of the log it looked through (`low..high`, as indices).
struct Picked {
    indices: Vec<usize>,
    low: usize,
    high: usize,
}

/// The tab an event is shown in: its own for talk in a tab, else the main one.
fn tab_of(e: &taku_table::Event) -> &str {
    match &e.body {
        taku_table::EventBody::TabChat { tab, .. } => tab,
        _ => taku_table::MAIN_TAB,
    }
}

/// Up to `limit` events of `tab` (all when `None`) from index `start` on (`forward`) or
/// before it, within [`api::MAX_PAGE_BYTES`] and [`TAB_SCAN`].
fn pick(
    events: &[taku_table::Event],
    start: usize,
    forward: bool,
    limit: usize,
    tab: Option<&str>,
) -> Picked {
    let (mut indices, mut bytes, mut scanned) = (Vec::new(), 0usize, 0usize);
    let mut at = start;
    loop {
        if indices.len() >= limit || scanned >= TAB_SCAN {
            break;
        }
        let i = if forward {
            if at >= events.len() {
                break;
            }
            at
        } else {
            if at == 0 {
                break;
            }
            at - 1
        };
        let e = &events[i];
        if tab.is_none_or(|t| tab_of(e) == t) {
            bytes = bytes.saturating_add(api::weight(e));
            if !indices.is_empty() && bytes > api::MAX_PAGE_BYTES {
                break;
            }
            indices.push(i);
        }
        scanned += 1;
        at = if forward { at + 1 } else { at - 1 };
    }
    indices.sort_unstable();
    let (low, high) = if forward { (start, at) } else { (at, start) };
    Picked { indices, low, high }
}

/// Ascending indices grouped into runs of consecutive ones.
fn runs_of(indices: &[usize]) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let mut rest = indices;
    std::iter::from_fn(move || {
        let (&first, _) = rest.split_first()?;
        let len = rest
            .iter()
            .enumerate()
            .take_while(|&(k, &i)| i == first + k)
            .count();
        rest = &rest[len..];
        Some(first..first + len)
    })
}

/// `GET /t/{id}/side` (Bearer token): members and character cards as the member sees
/// them, and their chat palette with each check's chance where the server's odds pool
/// has computed it ([`odds`]); `X-Taku-Odds-Pending: N` says how many are not ready yet.
async fn side(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    seat: Option<axum::Extension<crate::limits::ConnectionSeat>>,
    client: Option<axum::Extension<crate::limits::ClientKey>>,
    headers: HeaderMap,
) -> Response {
    let seat = seat.map(|axum::Extension(s)| s);
    let client = client.and_then(|axum::Extension(c)| c.0);
    let result = async {
        let member = api::member(&server, &id, &headers, None).await?;
        // The state without the log, rendered after letting go of the table (issue 18).
        let now = server
            .tables
            .read(&id, |t| t.excerpt(t.events().len()..t.events().len()))
            .await?;
        // Palette odds come from the server's odds pool, never computed here (A2-7).
        let owner = format!("{id}\0{}", member.name);
        let (markup, pending) = page::side_with(&now, &member.name, &mut |system, line| {
            server.odds.lookup(system, line, &owner)
        });
        let response = server.replies.send(
            &id,
            &member.name,
            client,
            now.lang(),
            HTML,
            markup.into_string(),
            seat,
        )?;
        Ok::<_, ApiError>((response, pending))
    }
    .await;
    match result {
        Ok((mut response, pending)) => {
            // The page asks again for the pane while odds are still being computed.
            response
                .headers_mut()
                .insert("x-taku-odds-pending", HeaderValue::from(pending as u64));
            response
        }
        Err(e) => e.into_response(),
    }
}

/// `GET /t/{id}/export.html` (Bearer token): the whole log as the member sees it, in
/// CCFOLIA's log shape, as a download.
async fn export_html(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    seat: Option<axum::Extension<crate::limits::ConnectionSeat>>,
    client: Option<axum::Extension<crate::limits::ClientKey>>,
    headers: HeaderMap,
) -> Response {
    let seat = seat.map(|axum::Extension(s)| s);
    let client = client.and_then(|axum::Extension(c)| c.0);
    export(
        &server,
        &id,
        &headers,
        seat,
        client,
        "html",
        |pages, member| page::export_pages(pages, member).into_string(),
    )
    .await
}

/// `GET /t/{id}/export.json` (Bearer token): the table's name and system and every entry
/// as the member sees it, the API's structured entries, as a download.
async fn export_json(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    seat: Option<axum::Extension<crate::limits::ConnectionSeat>>,
    client: Option<axum::Extension<crate::limits::ClientKey>>,
    headers: HeaderMap,
) -> Response {
    let seat = seat.map(|axum::Extension(s)| s);
    let client = client.and_then(|axum::Extension(c)| c.0);
    export(
        &server,
        &id,
        &headers,
        seat,
        client,
        "json",
        |pages, member| {
            let Some(first) = pages.first() else {
                return String::new();
            };
            let entries: Vec<serde_json::Value> = pages
                .iter()
                .flat_map(|p| p.events().iter().map(move |e| api::seen(p, e, member)))
                .collect();
            serde_json::json!({
                "name": first.name(),
                "system": first.system().id(),
                "lang": first.lang().code(),
                "entries": entries,
            })
            .to_string()
        },
    )
    .await
}

/// Events an export copies under the table's lock at a time (issue 18): a line appended
/// while a long log is being exported waits for one page's copy at most.
pub const EXPORT_PAGE: usize = 256;

/// Table `id`'s log as it stands now, for `member`, copied in [`Table::excerpt`]s of at
/// most `page` events, each under the table's lock on its own (issue 18: appends go on
/// between pages; the log ends where it ended when the first page was copied). Each page
/// views its entries exactly as the whole table would at the moment it was copied. A
/// member removed while the pages are copied gets no more of them: `Ok(None)`.
///
/// [`Table::excerpt`]: taku_table::Table::excerpt
pub async fn log_in_pages<S: EventStore>(
    tables: &taku_table::store::Tables<S>,
    id: &str,
    member: &str,
    page: usize,
) -> Result<Option<Vec<taku_table::Table>>, taku_table::store::StoreError> {
    let page = page.max(1);
    // The first page brings the table up to date with the store and fixes the end.
    let (first, end) = tables
        .read(id, |t| {
            let end = t.events().len();
            (t.excerpt(0..page.min(end)), end)
        })
        .await?;
    let mut pages = Vec::with_capacity(end.div_ceil(page).max(1));
    let mut from = first.events().len();
    if !first.members().contains_key(member) {
        return Ok(None);
    }
    pages.push(first);
    while from < end {
        let to = from.saturating_add(page).min(end);
        let next = tables.peek(id, |t| t.excerpt(from..to)).await?;
        if !next.members().contains_key(member) {
            return Ok(None);
        }
        from = to;
        pages.push(next);
    }
    Ok(Some(pages))
}

async fn export(
    server: &Server,
    id: &str,
    headers: &HeaderMap,
    seat: Option<crate::limits::ConnectionSeat>,
    client: Option<std::net::IpAddr>,
    ext: &'static str,
    render: impl FnOnce(&[taku_table::Table], &str) -> String + Send + 'static,
) -> Response {
    // The log is copied a page at a time, each under the table's lock on its own, and
    // rendered on a worker, charged to the member's computing budget (issue 18): a long
    // export holds up neither the table's players nor the server's other requests.
    let result = async {
        let member = api::member(server, id, headers, None).await?;
        // One export per member being sent, a few in all, from before rendering until
        // the body has gone (A3-5).
        let lang = server.tables.peek(id, |t| t.lang()).await?;
        let sending = server.exports.take(id, &member.name, lang)?;
        // The member's turn, budget and worker first: an export that will be refused
        // copies nothing, and one member copies one export at a time (A2-3).
        let computing = match server.tables.reserve(id, &member.name).await {
            Ok(c) => c,
            Err(e) => return Err(ApiError::at_table(server, id, e).await),
        };
        let Some(pages) = log_in_pages(&server.tables, id, &member.name, EXPORT_PAGE).await? else {
            return Err(ApiError::Said(
                axum::http::StatusCode::FORBIDDEN,
                taku_dice::Text::new(
                    format!(
                        "{} さんはもうこのテーブルのメンバーではありません",
                        member.name
                    ),
                    format!("{} is no longer a member of this table", member.name),
                ),
            ));
        };
        // A long export takes one of the server's places, within the address's share
        // (A4-1), before it is rendered; a short one goes as it is. Its length is
        // foreseen from its entries' weights.
        let foreseen: usize = pages
            .iter()
            .flat_map(|p| p.events().iter())
            .map(api::weight)
            .sum();
        let sending = server.exports.room(sending, foreseen, client, lang)?;
        let name = member.name.clone();
        let body = computing.run(move || render(&pages, &name)).await;
        Ok((body, sending))
    }
    .await;
    match result {
        Ok((body, sending)) => {
            let kind = match ext {
                "html" => "text/html; charset=utf-8",
                _ => "application/json",
            };
            let disposition = format!("attachment; filename=\"taku-{id}.{ext}\"");
            let length = body.len();
            let mut response = (
                [(header::CONTENT_TYPE, HeaderValue::from_static(kind))],
                sent_in_chunks(body, sending, seat, server.exports.stall),
            )
                .into_response();
            response
                .headers_mut()
                .insert(header::CONTENT_LENGTH, HeaderValue::from(length as u64));
            if let Ok(v) = HeaderValue::from_str(&disposition) {
                response
                    .headers_mut()
                    .insert(header::CONTENT_DISPOSITION, v);
            }
            response.headers_mut().insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(EXPORT_CSP),
            );
            response
        }
        Err(e) => e.into_response(),
    }
}

/// The type of the web table's HTML pages and fragments.
const HTML: &str = "text/html; charset=utf-8";

/// `POST /t/{id}/import` (Bearer token): a character pasted as CCFOLIA's clipboard JSON,
/// or as the system's sheet file, becomes (or updates) the member's character through
/// the same sheet path as the API's `/characters`.
async fn import(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    let result = async {
        let member = api::member(&server, &id, &headers, None).await?;
        let text = std::str::from_utf8(&bytes).map_err(|_| {
            ApiError::BadRequest(taku_dice::Text::new(
                "シートは UTF-8 のテキストで送ってください",
                "the sheet must be UTF-8 text",
            ))
        })?;
        if text.len() > 32 * 1024 {
            return Err(ApiError::BadRequest(taku_dice::Text::new(
                "シートは 32 KiB までです",
                "a sheet is at most 32 KiB",
            )));
        }
        api::take_write(&server, &member, text.len()).await?;
        let (sheet, extra) = if ccfolia::is_ccfolia(text) {
            let (system, gm) = server
                .tables
                .read(&member.table, |t| {
                    (
                        t.system().id(),
                        t.members().get(&member.name) == Some(&Role::Gm),
                    )
                })
                .await?;
            ccfolia::for_system_by(system, text, gm).map_err(|e| {
                ApiError::BadRequest(taku_dice::Text::new(
                    format!("ココフォリアのキャラクターとして読めません: {}", e.ja()),
                    format!("not a CCFOLIA character: {}", e.en()),
                ))
            })?
        } else {
            (text.to_string(), Vec::new())
        };
        let name = member.name.clone();
        let done = server
            .tables
            .exec_with(&member.table, &member.name, None, move |t| {
                t.decide_sheet_with(&name, &sheet, &extra)
            })
            .await?;
        api::answer(&server, &member, done).await
    }
    .await;
    result.unwrap_or_else(IntoResponse::into_response)
}

/// `POST /t/{id}/members/{name}/link` (GM): a new personal link for a member whose link
/// leaked or was lost. Every token they held is revoked and their live sockets close
/// first, then one new member token is issued with their role; the GM hands the link on.
async fn relink(
    State(server): State<Arc<Server>>,
    Path((id, name)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let result = async {
        // Refusals in the table's language, Japanese unless the GM chose another: the
        // GM tools show them as they are.
        let gm = api::gm(
            &server,
            &id,
            &headers,
            ("メンバーの個人リンクを再発行できる", "issue members' links"),
        )
        .await?;
        let (role, lang, creator) = server
            .tables
            .read(&id, |t| {
                (t.members().get(&name).copied(), t.lang(), t.gm().to_string())
            })
            .await?;
        let role = role.ok_or_else(|| ApiError::NotFound(api::no_member(&name, lang)))?;
        // A2-10: the table's creator keeps their seat; only they renew their own link
        // (the table refuses the same, on every path).
        if name == creator && gm.name != creator {
            return Err(ApiError::Forbidden(
                taku_dice::Text::new(
                    format!("テーブルを作った GM（{name}）の個人リンクは、他の GM には再発行できません"),
                    format!("the link of the table's creator ({name}) cannot be renewed by another GM"),
                )
                .get(lang)
                .to_string(),
            ));
        }
        if name == gm.name && name != creator {
            return Err(ApiError::Forbidden(
                taku_dice::Text::new(
                    "GM 自身の個人リンクは別の GM が再発行します",
                    "a GM's own link is renewed by another GM",
                )
                .get(lang)
                .to_string(),
            ));
        }
        let revoked = server.tables.store().revoke(&id, Some(&name)).await?;
        server.live.close_member(&id, &name);
        // In the log for everyone (the GM could use the new link; A2-10), and so every
        // server sharing the store closes the member's sockets too (A2-11).
        let (gm_name, member) = (gm.name.clone(), name.clone());
        match server
            .tables
            .exec_with(&id, &gm.name, None, move |t| {
                t.decide_relink(&gm_name, &member)
            })
            .await?
        {
            Ok(done) => api::published(&server, &id, &done.events),
            Err(refusal) => {
                tracing::warn!(table = %id, member = %name, reason = %refusal.render(Lang::En), "a new link was not recorded");
            }
        }
        let token = api::put(&server, &id, Some(&name), role).await?;
        Ok::<_, ApiError>(axum::Json(serde_json::json!({
            "ok": true,
            "member": name,
            "revoked": revoked,
            "link": format!("/t/{id}#token={token}"),
        })))
    }
    .await;
    result.map_or_else(IntoResponse::into_response, IntoResponse::into_response)
}
