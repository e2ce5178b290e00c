//! `taku serve`: HTTP. So far the bcdice-api v2 protocol (spec §7), so that VTTs and bots
//! written against bcdice-api switch to taku by changing one URL. Where the reference
//! answers 500, taku answers 400 `{"ok":false,"reason":…}` saying what went wrong.
//!
//! Every response carries `Access-Control-Allow-Origin: *`; JSON is compact UTF-8 with
//! `Content-Type: application/json`; parameters come from the query string and a
//! url-encoded form body, the body winning and the last repeat winning.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, Request};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};
use std::cell::RefCell;
use taku_dice::command::version::BCDICE_VERSION;
use taku_dice::{ChaChaSource, EvalError, Mode};
use taku_systems::GameSystem;

/// The bcdice-api protocol version taku speaks.
pub const API_VERSION: &str = "3.0.0";

/// The largest request body read, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// Every route: bcdice-api v2 and the front page.
pub fn router() -> Router {
    Router::new()
        .route("/", get(front_page))
        .route("/healthz", get(|| async { json_ok(json!({"ok": true})) }))
        .route("/v2/version", get(version))
        .route("/v2/admin", get(admin))
        .route("/v2/game_system", get(game_systems))
        .route("/v2/game_system/{id}", get(game_system))
        .route("/v2/game_system/{id}/roll", get(roll).post(roll))
        .route("/v2/original_table", axum::routing::post(original_table))
        .fallback(not_found)
        .method_not_allowed_fallback(not_found)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn(cors))
}

/// `Access-Control-Allow-Origin: *` on every response (§7), and JSON for the refusals
/// axum itself makes (a body over [`MAX_BODY`]).
async fn cors(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE {
        response = json_with(
            StatusCode::PAYLOAD_TOO_LARGE,
            json!({"ok": false, "reason": format!("request body too large: the limit is {MAX_BODY} bytes")}),
        );
    }
    response.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response
}

fn json_with(status: StatusCode, body: Value) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body.to_string(),
    )
        .into_response()
}

fn json_ok(body: Value) -> Response {
    json_with(StatusCode::OK, body)
}

fn refuse(reason: &str) -> Response {
    json_with(
        StatusCode::BAD_REQUEST,
        json!({"ok": false, "reason": reason}),
    )
}

async fn not_found() -> Response {
    json_with(
        StatusCode::NOT_FOUND,
        json!({"ok": false, "reason": "not found"}),
    )
}

async fn front_page() -> Html<&'static str> {
    Html(include_str!("index.html"))
}

async fn version() -> Response {
    json_ok(json!({"api": API_VERSION, "bcdice": BCDICE_VERSION}))
}

/// §7.2: from `BCDICE_API_ADMIN_NAME`, `_URL`, `_EMAIL`; empty when unset.
async fn admin() -> Response {
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    json_ok(json!({
        "name": var("BCDICE_API_ADMIN_NAME"),
        "url": var("BCDICE_API_ADMIN_URL"),
        "email": var("BCDICE_API_ADMIN_EMAIL"),
    }))
}

async fn game_systems() -> Response {
    let list: Vec<Value> = taku_systems::systems()
        .iter()
        .map(|s| json!({"id": s.id(), "name": s.name(), "sort_key": s.sort_key()}))
        .collect();
    json_ok(json!({ "game_system": list }))
}

fn system(id: &str) -> Option<&'static dyn GameSystem> {
    taku_systems::find(id)
}

async fn game_system(Path(id): Path<String>) -> Response {
    let Some(s) = system(&id) else {
        return refuse("unsupported game system");
    };
    json_ok(json!({
        "ok": true,
        "id": s.id(),
        "name": s.name(),
        "sort_key": s.sort_key(),
        "command_pattern": taku_systems::command_pattern(s),
        "help_message": s.help(),
    }))
}

/// Parameter `name`: query string, then a url-encoded form body over it; the last repeat
/// wins; `+` is a space.
fn param(name: &str, query: Option<&str>, headers: &HeaderMap, body: &[u8]) -> Option<String> {
    let mut command = None;
    let mut read = |bytes: &[u8]| {
        if let Ok(pairs) = serde_urlencoded::from_bytes::<Vec<(String, String)>>(bytes) {
            for (k, v) in pairs {
                if k == name {
                    command = Some(v);
                }
            }
        }
    };
    if let Some(q) = query {
        read(q.as_bytes());
    }
    let form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    if form {
        read(body);
    }
    command
}

thread_local! {
    /// Each worker thread's dice: ChaCha20 seeded once from the operating system.
    static DICE: RefCell<Option<ChaChaSource>> = const { RefCell::new(None) };
}

async fn roll(
    method: Method,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some(s) = system(&id) else {
        return refuse("unsupported game system");
    };
    let body: &[u8] = if method == Method::POST { &body } else { &[] };
    let command = match param("command", query.as_deref(), &headers, body) {
        Some(c) if !c.is_empty() => c,
        _ => return refuse("unsupported command"),
    };
    let result = with_dice(|dice| taku_systems::evaluate(s, &command, dice, Mode::Strict));
    match result {
        Ok(Ok(r)) => json_ok(taku_systems::bcdice_json(&r)),
        Ok(Err(EvalError::Unsupported(_) | EvalError::Empty)) => refuse("unsupported command"),
        // The reference answers 500 {"ok":false}; we say what went wrong.
        Ok(Err(e)) => refuse(&e.to_string()),
        Err(e) => json_with(
            StatusCode::INTERNAL_SERVER_ERROR,
            json!({"ok": false, "reason": e}),
        ),
    }
}

/// Runs `f` with this worker thread's dice; `Err` when the operating system gives no
/// randomness to seed them.
fn with_dice<R>(f: impl FnOnce(&mut ChaChaSource) -> R) -> Result<R, String> {
    DICE.with(|cell| {
        let mut cell = cell.borrow_mut();
        let dice = match cell.as_mut() {
            Some(d) => d,
            None => match ChaChaSource::from_os() {
                Ok((source, _)) => cell.insert(source),
                Err(e) => return Err(format!("no randomness from the operating system: {e}")),
            },
        };
        Ok(f(dice))
    })
}

/// §7.6: a user-defined table (form field `table`, §6.1). Where the reference answers
/// 500 for a missing or invalid table, taku answers 400 saying so.
async fn original_table(RawQuery(query): RawQuery, headers: HeaderMap, body: Bytes) -> Response {
    let Some(table) = param("table", query.as_deref(), &headers, &body) else {
        return refuse("no table: send the table's text in the form field 'table'");
    };
    let result = with_dice(|dice| taku_dice::original_table::roll(&table, dice));
    match result {
        Ok(Ok(Some(r))) => {
            json_ok(json!({"ok": true, "text": r.text, "rands": taku_systems::bcdice_rands(&r)}))
        }
        Ok(Ok(None)) => refuse(
            "invalid table: line 1 is the name, line 2 the dice (nDm, D66, D66A, D66D), then one row NUMBER:TEXT for every value the dice can give",
        ),
        Ok(Err(e)) => refuse(&e.to_string()),
        Err(e) => json_with(
            StatusCode::INTERNAL_SERVER_ERROR,
            json!({"ok": false, "reason": e}),
        ),
    }
}

/// Serves `router()` on `listener` until `shutdown` completes; requests in flight finish.
pub async fn serve(
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router())
        .with_graceful_shutdown(shutdown)
        .await
}
