//! `taku serve`: HTTP. So far the bcdice-api v2 protocol (spec §7), so that VTTs and bots
//! written against bcdice-api switch to taku by changing one URL. Where the reference
//! answers 500, taku answers 400 `{"ok":false,"reason":…}` saying what went wrong.
//!
//! Every response carries `Access-Control-Allow-Origin: *`; JSON is compact UTF-8 with
//! `Content-Type: application/json`; parameters come from the query string and a
//! url-encoded form body, the body winning and the last repeat winning.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRequest, Path, RawQuery, Request};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use serde_json::{Value, json};
use std::cell::RefCell;
use taku_dice::command::version::BCDICE_VERSION;
use taku_dice::{ChaChaSource, Draw, EvalError, Mode, RollResult};
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
        .layer(middleware::map_response(cors))
}

/// `Access-Control-Allow-Origin: *` on every response (§7), and JSON for the refusals
/// axum itself makes (a body over [`MAX_BODY`]). A response mapper rather than
/// `from_fn`: it needs no request, and so boxes no `Next` per request.
async fn cors(mut response: Response) -> Response {
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

/// 200 with JSON already serialised.
fn json_bytes(body: Vec<u8>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
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
fn param(name: &str, query: Option<&str>, form: Option<&[u8]>) -> Option<String> {
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
    if let Some(body) = form {
        read(body);
    }
    command
}

/// The body is a url-encoded form.
fn is_form(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"))
}

thread_local! {
    /// Each worker thread's dice: ChaCha20 seeded once from the operating system.
    static DICE: RefCell<Option<ChaChaSource>> = const { RefCell::new(None) };
}

/// The roll endpoint takes the whole request rather than a `HeaderMap` extractor, which
/// would copy every header per request. The body is still read (and refused over
/// [`MAX_BODY`]) before the system is looked up, as with a `Bytes` extractor.
async fn roll(Path(id): Path<String>, request: Request) -> Response {
    let form = request.method() == Method::POST && is_form(request.headers());
    let uri = request.uri().clone();
    let body = match Bytes::from_request(request, &()).await {
        Ok(b) => b,
        Err(rejection) => return rejection.into_response(),
    };
    let Some(s) = system(&id) else {
        return refuse("unsupported game system");
    };
    let command = match param("command", uri.query(), form.then_some(&body[..])) {
        Some(c) if !c.is_empty() => c,
        _ => return refuse("unsupported command"),
    };
    let result = with_dice(|dice| taku_systems::evaluate(s, &command, dice, Mode::Strict));
    match result {
        Ok(Ok(r)) => json_bytes(roll_json(&r)),
        Ok(Err(EvalError::Unsupported(_) | EvalError::Empty)) => refuse("unsupported command"),
        // The reference answers 500 {"ok":false}; we say what went wrong.
        Ok(Err(e)) => refuse(&e.to_string()),
        Err(e) => json_with(
            StatusCode::INTERNAL_SERVER_ERROR,
            json!({"ok": false, "reason": e}),
        ),
    }
}

/// A roll as bcdice-api's JSON (§7.5), written straight from the result: the same bytes
/// as `taku_systems::bcdice_json(r).to_string()` (the tests below check), without first
/// building a `serde_json::Value` (a map of owned keys per object, a copy of `rands`).
fn roll_json(r: &RollResult) -> Vec<u8> {
    #[derive(Serialize)]
    struct Roll<'a> {
        ok: bool,
        text: &'a str,
        secret: bool,
        success: bool,
        failure: bool,
        critical: bool,
        fumble: bool,
        rands: Rands<'a>,
    }
    struct Rands<'a>(&'a [Draw]);
    impl Serialize for Rands<'_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(self.0.iter().map(|d| Rand {
                kind: d.kind.as_str(),
                sides: d.sides,
                value: d.value,
            }))
        }
    }
    #[derive(Serialize)]
    struct Rand {
        kind: &'static str,
        sides: u32,
        value: u32,
    }
    let roll = Roll {
        ok: true,
        text: &r.text,
        secret: r.secret,
        success: r.success,
        failure: r.failure,
        critical: r.critical,
        fumble: r.fumble,
        rands: Rands(&r.rands),
    };
    // Room for the fixed part and about 45 bytes per draw, so it is written in one go.
    let mut out = Vec::with_capacity(128 + r.text.len() + 48 * r.rands.len());
    serde_json::to_writer(&mut out, &roll).expect("writing JSON to memory cannot fail");
    out
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
    let form = is_form(&headers).then_some(&body[..]);
    let Some(table) = param("table", query.as_deref(), form) else {
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

#[cfg(test)]
mod tests {
    use super::*;
    use taku_dice::DrawKind;

    fn same_as_bcdice_json(r: &RollResult) {
        let expected = taku_systems::bcdice_json(r).to_string();
        let got = String::from_utf8(roll_json(r)).expect("JSON is UTF-8");
        assert_eq!(got, expected);
    }

    #[test]
    fn roll_json_is_bcdice_json_byte_for_byte() {
        let commands = [
            "2D6+4>=10",
            "1D6",
            "S2D6",
            "3D6/2+1D6",
            "12R6>=6",
            "5D10KH3",
            "10B6>=4",
            "D66",
            "CHOICE[a,b,c]",
            "C(10*3+4)",
            "x5 2D6",
            "1D100<=50",
            "200D6",
            "2D6>=2",
            "2D6>=13",
        ];
        let dicebot = system("DiceBot").expect("DiceBot");
        for seed in 0..50 {
            let mut dice = ChaChaSource::from_seed(seed);
            for command in commands {
                let r = taku_systems::evaluate(dicebot, command, &mut dice, Mode::Strict)
                    .unwrap_or_else(|e| panic!("{command}: {e}"));
                same_as_bcdice_json(&r);
            }
        }
        // Text that needs escaping, every flag set, every kind of draw, no draws.
        let mut dice = ChaChaSource::from_seed(1);
        let mut r = taku_systems::evaluate(dicebot, "1D6", &mut dice, Mode::Strict).expect("1D6");
        r.text = "\"quoted\" \\ line\nbreak\ttab \u{1} \u{7f} é ＞ 🎲 </script>".to_owned();
        (r.secret, r.success, r.failure, r.critical, r.fumble) = (true, true, true, true, true);
        for kind in [DrawKind::Normal, DrawKind::TensD10, DrawKind::D9] {
            r.rands.push(Draw {
                kind,
                sides: 10,
                value: 10,
            });
        }
        same_as_bcdice_json(&r);
        r.rands.clear();
        r.text.clear();
        same_as_bcdice_json(&r);
    }
}
