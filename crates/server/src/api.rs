//! The taku table API under `/api/v1` (documented in `openapi.json`, served at
//! `/api/v1/openapi.json`).
//!
//! Creating a table gives its creator a GM token and invite tokens; an invite is used once,
//! to join under a name of one's choosing, and gives that member's token. Every other
//! route needs a member token (`Authorization: Bearer TOKEN`) for that table, and answers
//! as that member sees the table: lines, the log, the state and the live socket all go
//! through [`taku_table::Table::view`] and the system's audience rules, so a secret reaches
//! only those who may see it. Every refusal is JSON `{"ok":false,"reason":…}` saying what
//! was wrong and what would be right; a refused request changes nothing.

use crate::auth::{self, Denied};
use crate::{Server, json_with};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use taku_table::store::{EventStore, StoreError};
use taku_table::{Event, Role, Table};

/// The most invites made at once.
pub const MAX_INVITES: u32 = 32;
/// The longest line accepted, in characters.
pub const MAX_LINE: usize = taku_table::MAX_LINE;
/// The most log entries one read returns.
pub const MAX_LOG_PAGE: usize = 1_000;

/// The most a page of log entries (the API's log, the web table's entries) carries, in
/// [`weight`]: a page of long entries stops early and says there is more (attack pass 2,
/// A2-2: a thousand 12 KB chat lines made one page 12 MB of JSON and 60 ms of a core, so
/// one reader within the rate limit slowed every other request of the server). A page
/// always has at least one entry.
pub const MAX_PAGE_BYTES: usize = 1 << 20;

/// Roughly the bytes viewing `e` produces: its texts, a roll's draws, a system event's
/// data, plus a little for the entry around them. Cheap enough to count under the
/// table's lock (no serialising).
pub fn weight(e: &Event) -> usize {
    use taku_table::EventBody as B;
    fn value(v: &Value) -> usize {
        match v {
            Value::String(s) => s.len() + 2,
            Value::Array(a) => a.iter().map(value).sum::<usize>() + 2,
            Value::Object(o) => o.iter().map(|(k, v)| k.len() + value(v) + 4).sum::<usize>() + 2,
            _ => 8,
        }
    }
    let opt = |s: &Option<String>| s.as_ref().map_or(0, String::len);
    let body = match &e.body {
        B::Chat { text } | B::TabChat { text, .. } => text.len(),
        B::Whisper { to, text } => text.len() + to.iter().map(String::len).sum::<usize>(),
        B::Roll(r) => {
            r.input.len()
                + r.text.len()
                + opt(&r.typed)
                + opt(&r.note)
                + opt(&r.note_en)
                + opt(&r.comment)
                + r.rands.len() * 16
        }
        B::System {
            data, rands, line, ..
        } => value(data) + rands.len() * 16 + opt(line),
        B::CharacterRenamed { from, to } => from.len() + to.len(),
        B::CharacterCreated { name, fields, .. } => {
            name.len() + fields.iter().map(|(k, v)| k.len() + v.len()).sum::<usize>()
        }
        B::CharacterUpdated { name, changes } => {
            name.len()
                + changes
                    .iter()
                    .map(|c| c.key.len() + c.value.len() + opt(&c.previous))
                    .sum::<usize>()
        }
        B::CharacterSet {
            name,
            key,
            value,
            previous,
        } => name.len() + key.len() + value.len() + opt(previous),
        _ => 0,
    };
    body + e.actor.len() + 128
}

/// How many of `events` (taken in order) a page takes: at most `limit`, and past the
/// first no more than [`MAX_PAGE_BYTES`] by [`weight`].
pub fn page_len<'a>(events: impl Iterator<Item = &'a Event>, limit: usize) -> usize {
    let mut bytes = 0usize;
    let mut n = 0;
    for e in events.take(limit) {
        bytes = bytes.saturating_add(weight(e));
        if n > 0 && bytes > MAX_PAGE_BYTES {
            break;
        }
        n += 1;
    }
    n
}

/// The routes under `/api/v1`.
pub fn routes() -> Router<Arc<Server>> {
    Router::new()
        .route(
            "/api/v1/openapi.json",
            get(|| async { json_with(StatusCode::OK, openapi()) }),
        )
        .route("/api/v1/tables", post(create))
        .route("/api/v1/tables/{id}", get(state))
        .route("/api/v1/tables/{id}/join", post(join))
        .route(
            "/api/v1/tables/{id}/invites",
            post(invites).delete(revoke_invites),
        )
        .route(
            "/api/v1/tables/{id}/members/{name}",
            axum::routing::delete(remove_member),
        )
        .route("/api/v1/tables/{id}/log", get(log))
        .route("/api/v1/tables/{id}/lines", post(line))
        .route("/api/v1/tables/{id}/reveal/{seq}", post(reveal))
        .route("/api/v1/tables/{id}/undo", post(undo))
        .route("/api/v1/tables/{id}/characters", post(character_sheet))
        .route("/api/v1/tables/{id}/live", get(crate::live::socket))
}

/// The OpenAPI document.
pub fn openapi() -> Value {
    serde_json::from_str(include_str!("openapi.json")).expect("openapi.json is valid JSON")
}

/// A refusal, as JSON with the status that fits.
#[derive(Debug)]
pub enum ApiError {
    /// 400: the request itself is malformed; said in the client's language
    /// ([`crate::speak`]: `?lang=`, `Accept-Language`, else Japanese).
    BadRequest(taku_dice::Text),
    /// 400 to a member: their request is malformed; said in the table's language, as
    /// the table's own refusals (attack pass 6, A6-3).
    Invalid(String),
    /// 403: a valid token that does not grant this.
    Forbidden(String),
    /// 404: no such member (or other named thing) at this table.
    NotFound(String),
    /// 429 with `Retry-After`: the member sent more than their share of lines a minute
    /// ([`crate::limits::MemberQuota`]); nothing was done.
    OverQuota(String, std::time::Duration),
    /// 422: the table refused the line; nothing changed.
    Refused(String),
    /// 409: the table already holds as many of something as it may (unused invites);
    /// nothing was made until some are used or revoked.
    Full(String),
    /// 500/503: the store failed.
    Store(StoreError),
    /// 500: the server itself failed (no randomness); the reason goes to its log only.
    Internal(String),
    /// 503 with `Retry-After`: the member's computing budget is spent, or every worker
    /// is taken ([`StoreError::Busy`]); nothing was done.
    Busy(String, std::time::Duration),
    /// 503 with `Retry-After`, said where no table's language is at hand: in the
    /// client's ([`crate::speak`]).
    BusyUnsaid(taku_dice::Text, std::time::Duration),
    /// A refusal with no table to take a language from (a bad token or invite, a name
    /// or system refused before a table exists): in the client's language when it asks
    /// for one (`?lang=`, `Accept-Language`), else in Japanese ([`crate::speak::Said`];
    /// attack pass 5, A5-5).
    Said(StatusCode, taku_dice::Text),
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            // Said in the client's language where the table's is not at hand.
            StoreError::Busy {
                reason,
                retry_after,
            } => ApiError::BusyUnsaid(reason, retry_after),
            e => ApiError::Store(e),
        }
    }
}

impl ApiError {
    /// `e` as the API answers it to a member of table `id`: a busy server says so in the
    /// table's language.
    pub async fn at_table(server: &Server, id: &str, e: StoreError) -> ApiError {
        match e {
            StoreError::Busy {
                reason,
                retry_after,
            } => {
                let lang = server
                    .tables
                    .peek(id, |t| t.lang())
                    .await
                    .unwrap_or_default();
                ApiError::Busy(reason.get(lang).to_string(), retry_after)
            }
            e => ApiError::from(e),
        }
    }
}

impl ApiError {
    /// The status this refusal answers with and what it says (a store's details go to
    /// the operator's log only).
    /// [`ApiError::status_and_reason`], with a reason in both languages said in `lang`
    /// (for a page that knows its reader's language).
    pub fn status_and_reason_in(&self, lang: taku_dice::Lang) -> (StatusCode, String) {
        let (status, reason) = self.status_and_reason();
        match self.said() {
            Some(text) => (status, text.get(lang).to_string()),
            None => (status, reason),
        }
    }

    /// The reason in both languages, for a refusal said where no table's language is at
    /// hand: [`crate::speak::middleware`] says it in the client's (`?lang=`,
    /// `Accept-Language`, else Japanese). `None`: said in the table's language already.
    fn said(&self) -> Option<taku_dice::Text> {
        use taku_dice::Text;
        Some(match self {
            ApiError::BadRequest(r) | ApiError::BusyUnsaid(r, _) | ApiError::Said(_, r) => {
                r.clone()
            }
            ApiError::Store(StoreError::Unavailable { reason, .. }) => reason.clone(),
            ApiError::Store(StoreError::NoSuchTable(_)) => {
                Text::new("そのテーブルはありません", "no such table")
            }
            ApiError::Store(StoreError::Conflict) => Text::new(
                "テーブルに他の書き込みが重なっています。もう一度送ってください",
                "the table is busy with other writers; try again",
            ),
            ApiError::Store(e @ StoreError::Damaged { .. }) => Text::new(
                format!(
                    "保存されたテーブルが壊れています（{e}）。修復されるまで、サーバーはこのテーブルを使いません"
                ),
                format!("{e}; the server refuses to use this table until it is repaired"),
            ),
            ApiError::Store(_) => Text::new(
                "サーバーの保存先が失敗しました。理由はサーバーのログにあります",
                "the server's storage failed; its log says why",
            ),
            ApiError::Internal(_) => Text::new(
                "サーバーが失敗しました。理由はサーバーのログにあります",
                "the server failed; its log says why",
            ),
            ApiError::Forbidden(_)
            | ApiError::Invalid(_)
            | ApiError::NotFound(_)
            | ApiError::OverQuota(..)
            | ApiError::Refused(_)
            | ApiError::Full(_)
            | ApiError::Busy(..) => return None,
        })
    }

    /// The status and the reason (in Japanese where the language is the client's:
    /// [`crate::speak::middleware`] rewrites it); a store's failure is logged here.
    pub fn status_and_reason(&self) -> (StatusCode, String) {
        let status = match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Invalid(r) => return (StatusCode::BAD_REQUEST, r.clone()),
            ApiError::Forbidden(r) => return (StatusCode::FORBIDDEN, r.clone()),
            ApiError::Refused(r) => return (StatusCode::UNPROCESSABLE_ENTITY, r.clone()),
            ApiError::Full(r) => return (StatusCode::CONFLICT, r.clone()),
            ApiError::NotFound(r) => return (StatusCode::NOT_FOUND, r.clone()),
            ApiError::OverQuota(r, _) => return (StatusCode::TOO_MANY_REQUESTS, r.clone()),
            ApiError::Busy(r, _) => return (StatusCode::SERVICE_UNAVAILABLE, r.clone()),
            ApiError::BusyUnsaid(..) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Said(status, _) => *status,
            // A token can only name a table that exists, so this is a table gone from
            // the store: said as plainly as a bad token, revealing nothing.
            ApiError::Store(StoreError::NoSuchTable(_)) => StatusCode::NOT_FOUND,
            ApiError::Store(StoreError::Conflict) => StatusCode::SERVICE_UNAVAILABLE,
            // Which event of which table: the operator's next step, and no secret.
            ApiError::Store(e @ StoreError::Damaged { .. }) => {
                tracing::error!(error = %e, "stored table is damaged");
                StatusCode::INTERNAL_SERVER_ERROR
            }
            // A system this server does not carry (the reference engine not set up).
            ApiError::Store(e @ StoreError::Unavailable { .. }) => {
                tracing::warn!(error = %e, "table of a system not carried here");
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Store(e) => {
                // The details (paths, database errors) go to the operator's log only.
                tracing::error!(error = %e, "store failed");
                StatusCode::INTERNAL_SERVER_ERROR
            }
            ApiError::Internal(e) => {
                tracing::error!(error = %e, "server failed");
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        let reason = self.said().map(|t| t.ja().to_string()).unwrap_or_default();
        (status, reason)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, reason) = self.status_and_reason();
        let mut response = json_with(status, json!({"ok": false, "reason": reason}));
        if status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        if let Some(text) = self.said() {
            response.extensions_mut().insert(crate::speak::Said(text));
        }
        if let ApiError::Busy(_, wait)
        | ApiError::OverQuota(_, wait)
        | ApiError::BusyUnsaid(_, wait) = self
        {
            let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
        }
        response
    }
}

type ApiResult = Result<Response, ApiError>;

fn bad_token() -> ApiError {
    ApiError::Said(
        StatusCode::UNAUTHORIZED,
        taku_dice::Text::new(
            "トークンがないか、無効です。テーブルを作ったときか参加したときに受け取ったトークンを `Authorization: Bearer TOKEN` で送ってください",
            "missing or invalid token: send `Authorization: Bearer TOKEN` with the token you got creating or joining this table",
        ),
    )
}

fn bad_invite() -> ApiError {
    ApiError::Said(
        StatusCode::UNAUTHORIZED,
        taku_dice::Text::new(
            "知らない招待か、使用済みの招待です。招待 1 つで 1 人が参加できます。GM に別の招待をもらってください",
            "unknown or already used invite: each invite joins one member; ask the GM for another",
        ),
    )
}

/// A member acting through a token.
#[derive(Debug, Clone)]
pub struct Member {
    /// Table id.
    pub table: String,
    /// Member name.
    pub name: String,
}

/// The member `headers` (or, for sockets, `query_token`) proves at table `id`.
pub async fn member(
    server: &Server,
    id: &str,
    headers: &HeaderMap,
    query_token: Option<&str>,
) -> Result<Member, ApiError> {
    let Some(token) = bearer(headers).or(query_token) else {
        return Err(bad_token());
    };
    let credential = credential(server, token).await?;
    let Some(name) = credential.member else {
        return Err(ApiError::Said(
            StatusCode::UNAUTHORIZED,
            taku_dice::Text::new(
                "これは招待で、メンバーのトークンではありません。先に参加してください（POST /api/v1/tables/{id}/join）",
                "this is an invite, not a member token: join with it first (POST /api/v1/tables/{id}/join)",
            ),
        ));
    };
    if credential.table != id {
        return Err(ApiError::Said(
            StatusCode::FORBIDDEN,
            taku_dice::Text::new(
                "このトークンは別のテーブルのものです。このテーブルのトークンを送ってください",
                "this token is for another table: send this table's token",
            ),
        ));
    }
    Ok(Member {
        table: credential.table,
        name,
    })
}

/// The token of an `Authorization: Bearer TOKEN` header. The scheme is case-insensitive
/// (RFC 9110 §11.1): `bearer`, `BEARER` are the same.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim_start().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
}

async fn credential(
    server: &Server,
    token: &str,
) -> Result<taku_table::store::Credential, ApiError> {
    auth::check(server.tables.store(), token)
        .await
        .map_err(|e| match e {
            Denied::Invalid => bad_token(),
            Denied::Store(e) => ApiError::Store(e),
        })
}

/// A JSON body as `T`; the refusal quotes serde's reason and the expected shape.
fn body<T: DeserializeOwned>(bytes: &[u8], shape: &str) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| {
        ApiError::BadRequest(taku_dice::Text::new(
            format!("JSON の本文として読めません（{e}）。{shape} の形で送ってください"),
            format!("malformed JSON body ({e}); expected {shape}"),
        ))
    })
}

/// A query string's parameters (the last repeat wins).
pub fn query_pairs(query: Option<&str>) -> HashMap<String, String> {
    query
        .and_then(|q| serde_urlencoded::from_str::<Vec<(String, String)>>(q).ok())
        .unwrap_or_default()
        .into_iter()
        .collect()
}

/// A7-12: a table API `GET` takes only the query parameters it names in `taken` (and
/// `lang`, which every request may carry for the language of its refusals); any other is
/// refused naming it and the ones taken, rather than silently ignored.
pub fn only_parameters(query: Option<&str>, taken: &[&str]) -> Result<(), ApiError> {
    let pairs = serde_urlencoded::from_str::<Vec<(String, String)>>(query.unwrap_or_default());
    let unknown = match &pairs {
        Ok(pairs) => pairs
            .iter()
            .map(|(name, _)| name.as_str())
            .find(|name| *name != "lang" && !taken.contains(name)),
        Err(_) => query,
    };
    let Some(unknown) = unknown else {
        return Ok(());
    };
    let shown: String = unknown
        .chars()
        .take(40)
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    let taken: Vec<&str> = taken.iter().copied().chain(["lang"]).collect();
    let taken = taken.join(", ");
    Err(ApiError::BadRequest(taku_dice::Text::new(
        format!("クエリのパラメーター '{shown}' はここでは使えません。使えるのは {taken} です"),
        format!("the query parameter '{shown}' is not taken here; the ones taken are {taken}"),
    )))
}

/// What `member` sees of `event`, as the API's JSON (a structured [`taku_table::Entry`] in
/// the table's language; a placeholder for an entry the member may not see).
pub fn seen(table: &Table, event: &Event, member: &str) -> Value {
    entry_json(&table.entry(event, member, table.lang()))
}

fn entry_json(entry: &taku_table::Entry) -> Value {
    serde_json::to_value(entry).unwrap_or(Value::Null)
}

/// A table's refusal as the API answers it: in the table's language.
async fn refused(server: &Server, id: &str, refusal: taku_table::Refusal) -> ApiError {
    let lang = server
        .tables
        .peek(id, |t| t.lang())
        .await
        .unwrap_or_default();
    ApiError::Refused(refusal.render(lang))
}

fn ok(status: StatusCode, body: Value) -> ApiResult {
    Ok(json_with(status, body))
}

/// Characters that draw nothing or reorder their neighbours: zero-width, joiners, bidi
/// embeddings, overrides and isolates, the byte-order mark, the soft hyphen. Members'
/// names are checked by the table itself (`check_name` in crates/table refuses these and
/// more); this is for table names, which the table does not check.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FEFF}')
}

/// Names (tables, members) are checked here only for what the table does not check.
pub(crate) fn check_text(what: &str, text: &str, max: usize) -> Result<(), ApiError> {
    if text.trim().is_empty()
        || text.chars().count() > max
        || text.chars().any(|c| c.is_control() || invisible(c))
    {
        let ja = if what == "name" { "名前" } else { what };
        return Err(ApiError::Said(
            StatusCode::BAD_REQUEST,
            taku_dice::Text::new(
                format!(
                    "{ja}は 1〜{max} 文字で、制御文字や見えない文字（ゼロ幅・双方向制御）なしにしてください"
                ),
                format!(
                    "{what} must be 1 to {max} characters without control or invisible (zero-width, bidi) characters"
                ),
            ),
        ));
    }
    Ok(())
}

pub(crate) fn check_member_name(name: &str) -> Result<(), ApiError> {
    check_text("name", name, 64)?;
    if name.chars().any(char::is_whitespace) || name.starts_with('/') {
        return Err(ApiError::Said(
            StatusCode::BAD_REQUEST,
            taku_dice::Text::new(
                "名前は空白を含まない 1 語で、'/' で始まらないものにしてください",
                "name must be one word (no spaces), not starting with '/'",
            ),
        ));
    }
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTable {
    system: String,
    name: String,
    gm: String,
    #[serde(default = "default_invites")]
    invites: u32,
    /// The table's language (`ja` unless given; `null` is no language, refused).
    #[serde(default, deserialize_with = "present_string")]
    lang: Option<String>,
}

/// A field that may be left out but, when present, is a string (not `null`).
fn present_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    String::deserialize(d).map(Some)
}

fn default_invites() -> u32 {
    4
}

const NEW_TABLE: &str =
    r#"{"system":"DiceBot","name":"table name","gm":"your name","invites":4,"lang":"ja"}"#;

/// `POST /api/v1/tables`: a new table; its creator is the GM.
async fn create(State(server): State<Arc<Server>>, bytes: Bytes) -> ApiResult {
    let new: NewTable = body(&bytes, NEW_TABLE)?;
    check_text("name", &new.name, 100)?;
    check_member_name(&new.gm)?;
    check_invites(new.invites)?;
    let lang = match new.lang.as_deref() {
        None => taku_dice::Lang::Ja,
        Some(code) => taku_dice::Lang::parse(code).ok_or_else(|| {
            ApiError::Said(
                StatusCode::BAD_REQUEST,
                taku_dice::Text::new(
                    "lang は卓の言語で、ja か en です",
                    "lang is the table's language: ja or en",
                ),
            )
        })?,
    };
    let (id, system, gm) = new_table(&server, &new.system, &new.name, &new.gm, lang).await?;
    let invites = make_invites(&server, &id, Role::Player, new.invites).await?;
    ok(
        StatusCode::CREATED,
        json!({
            "ok": true,
            "id": id,
            "system": system,
            "member": new.gm,
            "role": "gm",
            "token": gm,
            "invites": invites,
        }),
    )
}

/// Creates a table of `system` named `name` with `gm` as its GM (names already
/// checked), speaking `lang`; gives its id, the system's id and the GM's token. The web
/// table's form creates tables through here too.
pub(crate) async fn new_table(
    server: &Server,
    system: &str,
    name: &str,
    gm: &str,
    lang: taku_dice::Lang,
) -> Result<(String, &'static str, String), ApiError> {
    let Some(system) = taku_systems::find(system) else {
        return Err(ApiError::Said(
            StatusCode::BAD_REQUEST,
            taku_dice::Text::new(
                format!(
                    "'{system}' というゲームシステムはありません。GET /v2/game_system が一覧です"
                ),
                format!("unknown game system '{system}'; GET /v2/game_system lists them"),
            ),
        ));
    };
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed)
        .map_err(|e| ApiError::Internal(format!("no randomness from the operating system: {e}")))?;
    let table = Table::create_speaking(system.id(), name, gm, seed, lang).map_err(|r| {
        ApiError::Said(
            StatusCode::BAD_REQUEST,
            taku_dice::Text::new(r.render(taku_dice::Lang::Ja), r.render(taku_dice::Lang::En)),
        )
    })?;
    let id = server.tables.create(table).await?;
    let token = put(server, &id, Some(gm), Role::Gm).await?;
    Ok((id, system.id(), token))
}

fn check_invites(n: u32) -> Result<(), ApiError> {
    if n > MAX_INVITES {
        return Err(ApiError::Said(
            StatusCode::BAD_REQUEST,
            taku_dice::Text::new(
                format!("一度に作れる招待は {MAX_INVITES} 件までです"),
                format!("at most {MAX_INVITES} invites at once"),
            ),
        ));
    }
    Ok(())
}

/// Issues and stores a token; returns it.
pub(crate) async fn put(
    server: &Server,
    table: &str,
    member: Option<&str>,
    role: Role,
) -> Result<String, ApiError> {
    let (token, credential) = auth::issue(table, member, role).map_err(ApiError::Internal)?;
    server.tables.store().put_credential(&credential).await?;
    Ok(token)
}

/// The most unused invites one table may hold: twice the default member cap, so a GM
/// always has links to hand out, and a GM minting invites in a loop (32,000 in 66 s in
/// attack pass 3) cannot grow the store without end.
pub const MAX_UNUSED_INVITES: u64 = 2 * crate::DEFAULT_MAX_MEMBERS as u64;

/// `n` new invites of `role` at table `table`, within [`MAX_UNUSED_INVITES`] (refused in
/// the table's language, nothing made, past it).
pub(crate) async fn make_invites(
    server: &Server,
    table: &str,
    role: Role,
    n: u32,
) -> Result<Vec<Value>, ApiError> {
    // One minting at a time in this server, so two at once cannot both fit the count.
    static MINTING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let _minting = MINTING.lock().await;
    let unused = server.tables.store().unused_invites(table).await?;
    if unused.saturating_add(u64::from(n)) > MAX_UNUSED_INVITES {
        let lang = server
            .tables
            .peek(table, |t| t.lang())
            .await
            .unwrap_or_default();
        return Err(ApiError::Full(
            taku_dice::Text::new(
                format!(
                    "このテーブルにはまだ使われていない招待が {unused} 件あります。未使用の招待は {MAX_UNUSED_INVITES} 件までです。使われていない招待を無効にする（DELETE /api/v1/tables/{{id}}/invites）か、参加してもらってからもう一度どうぞ"
                ),
                format!(
                    "this table has {unused} unused invites, and at most {MAX_UNUSED_INVITES} may be unused at once; revoke the unused ones (DELETE /api/v1/tables/{{id}}/invites) or have people join with them first"
                ),
            )
            .get(lang)
            .to_string(),
        ));
    }
    let mut invites = Vec::new();
    for _ in 0..n {
        let token = put(server, table, None, role).await?;
        invites.push(json!({"role": role.as_str(), "token": token}));
    }
    Ok(invites)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewInvites {
    #[serde(default = "default_role")]
    role: String,
    #[serde(default = "one")]
    count: u32,
}

fn default_role() -> String {
    "player".into()
}

fn one() -> u32 {
    1
}

/// `POST /api/v1/tables/{id}/invites` (GM): more invites.
async fn invites(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult {
    let member = member(&server, &id, &headers, None).await?;
    let new: NewInvites = body(&bytes, r#"{"role":"player","count":1}"#)?;
    let Some(role) = Role::parse(&new.role) else {
        return Err(ApiError::BadRequest(taku_dice::Text::new(
            format!(
                "'{}' という役割はありません。gm、player、spectator のどれかです",
                new.role
            ),
            format!("unknown role '{}'; use gm, player or spectator", new.role),
        )));
    };
    check_invites(new.count)?;
    let (is_gm, lang) = server
        .tables
        .read(&id, |t| {
            (t.members().get(&member.name) == Some(&Role::Gm), t.lang())
        })
        .await?;
    if !is_gm {
        return Err(ApiError::Forbidden(
            taku_dice::Text::new(
                "招待を作れるのはテーブルの GM だけです",
                "only the table's GM may invite",
            )
            .get(lang)
            .to_string(),
        ));
    }
    let invites = make_invites(&server, &id, role, new.count).await?;
    ok(StatusCode::CREATED, json!({"ok": true, "invites": invites}))
}

/// The member `headers` prove, if they are the table's GM.
pub(crate) async fn gm(
    server: &Server,
    id: &str,
    headers: &HeaderMap,
    what: (&str, &str),
) -> Result<Member, ApiError> {
    let member = member(server, id, headers, None).await?;
    let (is_gm, lang) = server
        .tables
        .read(id, |t| {
            (t.members().get(&member.name) == Some(&Role::Gm), t.lang())
        })
        .await?;
    if !is_gm {
        // In the table's language (Japanese unless the GM chose another), as the web
        // table's GM tools show it.
        let (ja, en) = what;
        return Err(ApiError::Forbidden(
            taku_dice::Text::new(
                format!("{ja}のはテーブルの GM だけです"),
                format!("only the table's GM may {en}"),
            )
            .get(lang)
            .to_string(),
        ));
    }
    Ok(member)
}

/// The refusal for a member name the table does not have, in the table's language.
pub(crate) fn no_member(name: &str, lang: taku_dice::Lang) -> String {
    taku_dice::Text::new(
        format!("このテーブルに '{name}' というメンバーはいません（GET /api/v1/tables/{{id}} で一覧を見られます）"),
        format!("no member '{name}' at this table; GET /api/v1/tables/{{id}} lists them"),
    )
    .get(lang)
    .to_string()
}

/// `DELETE /api/v1/tables/{id}/invites` (GM): revokes every unused invite.
async fn revoke_invites(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult {
    gm(
        &server,
        &id,
        &headers,
        ("招待を無効にできる", "revoke invites"),
    )
    .await?;
    let revoked = server.tables.store().revoke(&id, None).await?;
    ok(StatusCode::OK, json!({"ok": true, "revoked": revoked}))
}

/// `DELETE /api/v1/tables/{id}/members/{name}` (GM): removes a member: every token they
/// hold is revoked and their live sockets close. Their lines stay in the log, which is
/// never rewritten; to return they need a new invite.
async fn remove_member(
    State(server): State<Arc<Server>>,
    Path((id, name)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult {
    let gm = gm(
        &server,
        &id,
        &headers,
        ("メンバーを退室させられる", "remove members"),
    )
    .await?;
    let (known, lang, creator) = server
        .tables
        .read(&id, |t| {
            (t.members().contains_key(&name), t.lang(), t.gm() == name)
        })
        .await?;
    if name == gm.name {
        return Err(ApiError::Forbidden(
            taku_dice::Text::new(
                "GM は自分を退室させられません（別の GM ならできます）",
                "a GM cannot remove themselves; another GM can",
            )
            .get(lang)
            .to_string(),
        ));
    }
    if !known {
        return Err(ApiError::NotFound(no_member(&name, lang)));
    }
    // A2-10: the table's creator stays (the table refuses `/remove` of them too).
    if creator {
        return Err(ApiError::Forbidden(
            taku_dice::Text::new(
                format!("テーブルを作った GM（{name}）は退室させられません"),
                format!("the table's creator ({name}) cannot be removed"),
            )
            .get(lang)
            .to_string(),
        ));
    }
    // Tokens first, then sockets (A2-1), then the log: the member leaves the table's
    // members, so they no longer count toward its member cap (issue 18) and whatever
    // they had in flight is decided as from a non-member. A table that refuses the line
    // (its log full) still loses the member's tokens and sockets.
    let revoked = server.tables.store().revoke(&id, Some(&name)).await?;
    let closed = server.live.close_member(&id, &name);
    let recorded = match server
        .tables
        .exec(&id, &gm.name, &format!("/remove {name}"), None)
        .await?
    {
        Ok(done) => {
            published(&server, &id, &done.events);
            true
        }
        Err(refusal) => {
            tracing::warn!(table = %id, member = %name, reason = %refusal.render(taku_dice::Lang::En), "a removal was not recorded");
            false
        }
    };
    ok(
        StatusCode::OK,
        json!({"ok": true, "member": name, "revoked": revoked, "sockets_closed": closed, "recorded": recorded}),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    invite: String,
    name: String,
}

/// `POST /api/v1/tables/{id}/join`: uses an invite; gives the new member's token.
async fn join(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> ApiResult {
    let request: JoinRequest = body(&bytes, r#"{"invite":"TOKEN","name":"your name"}"#)?;
    let invite = credential(&server, &request.invite)
        .await
        .map_err(|e| match e {
            ApiError::Said(StatusCode::UNAUTHORIZED, _) => bad_invite(),
            e => e,
        })?;
    if invite.member.is_some() {
        return Err(ApiError::BadRequest(taku_dice::Text::new(
            "これはメンバーのトークンで、招待ではありません。もう参加しています",
            "this is a member token, not an invite: it has joined already",
        )));
    }
    if invite.table != id {
        return Err(ApiError::Said(
            StatusCode::FORBIDDEN,
            taku_dice::Text::new(
                "この招待は別のテーブルのものです。このテーブルの招待で参加してください",
                "this invite is for another table: join with an invite to this table",
            ),
        ));
    }
    check_member_name(&request.name)?;
    let line = format!("/join {} as {}", request.name, invite.role.as_str());
    let (gm, members, removed, lang) = server
        .tables
        .read(&id, |t| {
            (
                t.gm().to_string(),
                t.members().len(),
                t.removed_members().contains(&request.name),
                t.lang(),
            )
        })
        .await?;
    if removed {
        // Only the GM's own `/join` brings a removed member back: an invite cannot take
        // their name (and with it the whispers and characters it is named in).
        let name = &request.name;
        return Err(ApiError::Refused(
            taku_dice::Text::new(
                format!("'{name}' はこのテーブルから退室させられたメンバーの名前です。別の名前で参加してください（本人を戻せるのは GM の /join だけです）"),
                format!("'{name}' is the name of a member the GM removed from this table; join under another name (only the GM's /join brings them back)"),
            )
            .get(lang)
            .to_string(),
        ));
    }
    let max = server.config.max_members;
    if members >= max {
        return Err(ApiError::Refused(
            taku_dice::Text::new(
                format!("このテーブルの参加者は上限の {max} 人に達しているため、これ以上参加できません（退室させたメンバーは数に入りません）"),
                format!("this table has the most members it may have ({max}); nobody more can join (removed members do not count)"),
            )
            .get(lang)
            .to_string(),
        ));
    }
    // Decide first, so a refused join (a name taken) leaves the invite usable.
    if let Err(r) = server.tables.read(&id, |t| t.decide(&gm, &line)).await? {
        return Err(refused(&server, &id, r).await);
    }
    if !server.tables.store().take_invite(&invite.key_id).await? {
        return Err(bad_invite());
    }
    match server.tables.exec(&id, &gm, &line, None).await {
        Ok(Ok(done)) => published(&server, &id, &done.events),
        Ok(Err(refusal)) => {
            // Someone took the name between deciding and joining: the invite stays good.
            server.tables.store().put_credential(&invite).await?;
            return Err(refused(&server, &id, refusal).await);
        }
        Err(e) => {
            server.tables.store().put_credential(&invite).await?;
            return Err(e.into());
        }
    }
    let token = put(&server, &id, Some(&request.name), invite.role).await?;
    ok(
        StatusCode::CREATED,
        json!({"ok": true, "member": request.name, "role": invite.role.as_str(), "token": token}),
    )
}

pub(crate) fn published(server: &Server, id: &str, events: &[Event]) {
    if let Some(last) = events.last() {
        server.live.published(id, last.seq);
    }
}

/// The most a page of the table's state carries of its characters' fields (keys and
/// values, as the member may see them), past the page's first character: a table of
/// large characters is read in several pages, each a few hundred KB of JSON and a few
/// milliseconds (attack pass 3, A3-6's second half: 100 characters of 32 KiB made one
/// request ~7 MB of JSON).
pub const STATE_PAGE_BYTES: usize = 256 * 1024;

/// `GET /api/v1/tables/{id}[?after_character=NAME]`: the table's state as the member
/// sees it, with its characters in name order from after `NAME`, a page of at most
/// [`STATE_PAGE_BYTES`] of fields; `more_characters` says whether a next page (from
/// after this page's last character) has more.
async fn state(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    seat: Option<axum::Extension<crate::limits::ConnectionSeat>>,
    client: Option<axum::Extension<crate::limits::ClientKey>>,
    headers: HeaderMap,
) -> ApiResult {
    only_parameters(query.as_deref(), &["after_character"])?;
    let member = member(&server, &id, &headers, None).await?;
    let after = query_pairs(query.as_deref()).remove("after_character");
    // The state without the log ([`Table::excerpt`] of no events, sharing the folded
    // state), taken under the table's lock; the sheets are built after letting go of it
    // (issue 18), so a table of many characters never holds up its players.
    let now = server
        .tables
        .read(&id, |t| t.excerpt(t.events().len()..t.events().len()))
        .await?;
    let t = &now;
    let (scene, session) = t.scene_and_session();
    let members: Vec<Value> = t
        .members()
        .iter()
        .map(|(name, role)| json!({"name": name, "role": role.as_str()}))
        .collect();
    // A chat palette (`palette.N` fields) is its owner's own notes — a GM's prepared
    // secret checks among them: only its owner and the GMs get it (attack pass 3, A3-3).
    let is_gm = t.members().get(&member.name) == Some(&taku_table::Role::Gm);
    let palette = |key: &str| key.starts_with(crate::web::page::PALETTE_FIELD);
    let from = match &after {
        Some(name) => std::ops::Bound::Excluded(name.as_str()),
        None => std::ops::Bound::Unbounded,
    };
    let (mut bytes, mut taken, mut more) = (0usize, 0usize, false);
    let page: Vec<(&String, &taku_table::Character)> = t
        .characters()
        .range::<str, _>((from, std::ops::Bound::Unbounded))
        // A character the member may not know of (Another World: a GM's NPC never put
        // before the players, issue 13) is not listed at all, as `/char list` and `/who`
        // leave it out; one they met is listed with its data hidden (aw8 F9).
        .filter(|(name, _)| !t.unknown(name, &member.name))
        .take_while(|(name, c)| {
            let size: usize = t
                .visible_fields(name, &member.name)
                .into_iter()
                .flatten()
                .map(|(k, v)| k.len() + v.len() + 8)
                .sum::<usize>()
                + name.len()
                + c.owner.len();
            bytes = bytes.saturating_add(size);
            // At least one character a page, however large.
            if bytes > STATE_PAGE_BYTES && taken > 0 {
                more = true;
                return false;
            }
            taken += 1;
            true
        })
        .collect();
    let characters: Vec<Value> = page
        .into_iter()
        .map(|(name, c)| {
            let theirs = is_gm || c.owner == member.name;
            // An enemy not yet identified (Another World, 対象識別) shows no fields.
            let fields: std::collections::BTreeMap<&String, &String> = t
                .visible_fields(name, &member.name)
                .into_iter()
                .flatten()
                .filter(|(k, _)| theirs || !palette(k))
                .collect();
            let sheet = t.sheet(name, &member.name).map(|mut s| {
                if !theirs {
                    for section in &mut s.sections {
                        section
                            .fields
                            .retain(|f| !f.key.as_deref().is_some_and(palette));
                    }
                }
                s.to_json(t.lang())
            });
            json!({
                "name": name,
                "owner": c.owner,
                "fields": fields,
                "sheet": sheet.unwrap_or(Value::Null),
            })
        })
        .collect();
    let body = json!({
        "ok": true,
        "id": id,
        "system": t.system().id(),
        "name": t.name(),
        "lang": t.lang().code(),
        "you": {"name": member.name, "role": t.members().get(&member.name).map(|r| r.as_str())},
        "members": members,
        "characters": characters,
        "more_characters": more,
        "scene": scene,
        "session": session,
        "last_seq": t.next_seq() - 1,
    });
    // Sent within the server's bounds for long answers to slow clients.
    let seat = seat.map(|axum::Extension(s)| s);
    let client = client.and_then(|axum::Extension(c)| c.0);
    server.replies.send(
        &id,
        &member.name,
        client,
        t.lang(),
        "application/json",
        body.to_string(),
        seat,
    )
}

/// `GET /api/v1/tables/{id}/log?after=N&limit=M`: the log as the member sees it.
async fn log(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    seat: Option<axum::Extension<crate::limits::ConnectionSeat>>,
    client: Option<axum::Extension<crate::limits::ClientKey>>,
    headers: HeaderMap,
) -> ApiResult {
    only_parameters(query.as_deref(), &["after", "limit"])?;
    let member = member(&server, &id, &headers, None).await?;
    let query = query_pairs(query.as_deref());
    let number = |name: &str, default: u64| match query.get(name) {
        None => Ok(default),
        Some(v) => v.parse::<u64>().map_err(|_| {
            ApiError::BadRequest(taku_dice::Text::new(
                format!("{name} は 0 以上の整数です（'{v}' ではなく）"),
                format!("{name} must be a whole number ≥ 0, not '{v}'"),
            ))
        }),
    };
    let after = number("after", 0)?;
    let limit = number("limit", MAX_LOG_PAGE as u64)?;
    if limit == 0 || limit > MAX_LOG_PAGE as u64 {
        return Err(ApiError::BadRequest(taku_dice::Text::new(
            format!("limit は 1 から {MAX_LOG_PAGE} までです"),
            format!("limit must be 1 to {MAX_LOG_PAGE}"),
        )));
    }
    // The page is copied under the table's lock and viewed after letting go of it, so a
    // thousand-entry page never holds up the table's players.
    let (page, head) = server
        .tables
        .read(&id, |t| {
            let from = usize::try_from(after)
                .unwrap_or(usize::MAX)
                .min(t.events().len());
            let limit = usize::try_from(limit).unwrap_or(usize::MAX);
            let to = from + page_len(t.events()[from..].iter(), limit);
            (t.excerpt(from..to), t.next_seq() - 1)
        })
        .await?;
    let events: Vec<Value> = page
        .events()
        .iter()
        .map(|e| seen(&page, e, &member.name))
        .collect();
    let last = page.events().last().map_or(after.min(head), |e| e.seq);
    // A page of up to about 1 MB: sent within the server's bounds for long answers to
    // clients that do not read.
    let seat = seat.map(|axum::Extension(s)| s);
    let client = client.and_then(|axum::Extension(c)| c.0);
    server.replies.send(
        &id,
        &member.name,
        client,
        page.lang(),
        "application/json",
        json!({"ok": true, "events": events, "last_seq": last, "more": last < head}).to_string(),
        seat,
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LineRequest {
    line: String,
}

/// `POST /api/v1/tables/{id}/lines`: one line as the member (a command, a roll, chat).
async fn line(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult {
    let member = member(&server, &id, &headers, None).await?;
    let request: LineRequest = body(&bytes, r#"{"line":"2D6>=7"}"#)?;
    if request.line.chars().count() > MAX_LINE {
        let lang = server
            .tables
            .peek(&id, |t| t.lang())
            .await
            .unwrap_or_default();
        let too_long = taku_dice::Text::new(
            format!("1 行は {MAX_LINE} 文字までです。何も変わっていません"),
            format!("a line is at most {MAX_LINE} characters; nothing changed"),
        );
        return Err(ApiError::Invalid(too_long.get(lang).to_string()));
    }
    run(&server, &member, &request.line).await
}

/// Counts a write of `size` bytes by `member` against their share of lines a minute at
/// the table (attack pass 2, A2-16); refused past it, in both languages, before anything
/// is decided: a refused write changes nothing.
pub(crate) async fn take_write(
    server: &Server,
    member: &Member,
    size: usize,
) -> Result<(), ApiError> {
    let Err(over) =
        server
            .writes
            .take(&member.table, &member.name, size, std::time::Instant::now())
    else {
        return Ok(());
    };
    let secs = over.wait.as_secs() + u64::from(over.wait.subsec_nanos() > 0);
    let name = &member.name;
    // The shares that are on (0: off).
    let (ja, en) = match (over.lines, over.bytes / 1024) {
        (0, kib) => (format!("ログに {kib} KiB"), format!("{kib} KiB of log")),
        (lines, 0) => (format!("{lines} 行"), format!("{lines} lines")),
        (lines, kib) => (
            format!("{lines} 行・ログに {kib} KiB"),
            format!("{lines} lines and {kib} KiB of log"),
        ),
    };
    // In the table's language, as its other refusals.
    let lang = server
        .tables
        .peek(&member.table, |t| t.lang())
        .await
        .unwrap_or_default();
    Err(ApiError::OverQuota(
        taku_dice::Text::new(
            format!(
                "{name} さんはこのテーブルに短い間に書き込みすぎました（1 人 1 分に {ja} まで）。何も変わっていません。{secs} 秒ほど待ってからもう一度送ってください"
            ),
            format!(
                "{name} has written too much at this table just now (each member at most {en} a minute); nothing changed. Send it again in about {secs} s"
            ),
        )
        .get(lang)
        .to_string(),
        over.wait,
    ))
}

/// Charges `member`'s write quota with what `events` added to the log beyond the
/// `typed` bytes their write was taken for (A4-4: a short repeat line appends hundreds
/// of times its size; the quota holds what reaches the log, as the table's byte limit
/// counts it).
fn charge_appended(server: &Server, member: &Member, typed: usize, events: &[Event]) {
    let appended: usize = events.iter().map(weight).sum();
    server.writes.charge(
        &member.table,
        &member.name,
        appended.saturating_sub(typed),
        std::time::Instant::now(),
    );
}

/// Runs `line` as `member`; answers with the reply and the events as the member sees them.
async fn run(server: &Server, member: &Member, line: &str) -> ApiResult {
    take_write(server, member, line.len()).await?;
    let done = match server
        .tables
        .exec(&member.table, &member.name, line, None)
        .await
    {
        Ok(done) => done,
        Err(e) => return Err(ApiError::at_table(server, &member.table, e).await),
    };
    if let Ok(done) = &done {
        charge_appended(server, member, line.len(), &done.events);
    }
    answer(server, member, done).await
}

/// The answer to a line or a sheet: the reply and the events as the member sees them.
pub(crate) async fn answer(
    server: &Server,
    member: &Member,
    done: Result<taku_table::store::Executed, taku_table::Refusal>,
) -> ApiResult {
    let done = match done {
        Ok(done) => done,
        Err(r) => return Err(refused(server, &member.table, r).await),
    };
    published(server, &member.table, &done.events);
    let events: Vec<Value> = done.seen.iter().map(entry_json).collect();
    ok(
        StatusCode::OK,
        json!({
            "ok": true,
            "reply": done.reply.map(|r| r.get(done.lang).to_string()),
            "events": events,
        }),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SheetRequest {
    sheet: String,
}

/// `POST /api/v1/tables/{id}/characters`: creates or updates a character from a sheet
/// (the TOML `taku sheet` reads for the table's system), owned by the member.
async fn character_sheet(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult {
    let member = member(&server, &id, &headers, None).await?;
    let request: SheetRequest = body(&bytes, r#"{"sheet":"name = \"ミナ\"\n\"知覚\" = 3"}"#)?;
    take_write(&server, &member, request.sheet.len()).await?;
    // Its size is the table's to refuse (422), like any sheet the rules refuse.
    let done = match server
        .tables
        .exec_sheet(&member.table, &member.name, &request.sheet, None)
        .await
    {
        Ok(done) => done,
        Err(e) => return Err(ApiError::at_table(&server, &member.table, e).await),
    };
    answer(&server, &member, done).await
}

/// `POST /api/v1/tables/{id}/reveal/{seq}`: reveals a secret roll (its roller or the GM).
async fn reveal(
    State(server): State<Arc<Server>>,
    Path((id, seq)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult {
    let member = member(&server, &id, &headers, None).await?;
    let Ok(seq) = seq.parse::<u64>() else {
        return Err(ApiError::BadRequest(taku_dice::Text::new(
            format!("'{seq}' はロールの番号（seq）ではありません"),
            format!("'{seq}' is not a roll's seq number"),
        )));
    };
    run(&server, &member, &format!("/reveal {seq}")).await
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct UndoRequest {
    member: Option<String>,
}

/// `POST /api/v1/tables/{id}/undo`: undoes the member's last change (the GM may name a
/// member).
async fn undo(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult {
    let member = member(&server, &id, &headers, None).await?;
    let request: UndoRequest = if bytes.iter().all(u8::is_ascii_whitespace) {
        UndoRequest::default()
    } else {
        body(&bytes, r#"{} or {"member":"name"}"#)?
    };
    let line = match &request.member {
        Some(name) => {
            check_member_name(name)?;
            format!("/undo {name}")
        }
        None => "/undo".to_string(),
    };
    run(&server, &member, &line).await
}
