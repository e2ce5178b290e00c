//! `taku serve`: HTTP. The bcdice-api v2 protocol (spec §7), so that VTTs and bots
//! written against bcdice-api switch to taku by changing one URL, the taku table API
//! under `/api/v1` ([`api`]) with live updates over WebSocket ([`live`]), and the web
//! table players use in a browser ([`web`]). Where the
//! bcdice-api reference answers 500, taku answers 400 `{"ok":false,"reason":…}` saying
//! what went wrong.
//!
//! Every response carries `Access-Control-Allow-Origin: *`; JSON is compact UTF-8 with
//! `Content-Type: application/json`; bcdice-api parameters come from the query string and
//! a url-encoded form body, the body winning and the last repeat winning. Every request
//! is logged (method, path without its query, status, time, client) as a `tracing` event
//! under the target `taku::http`, and counted against its client's rate limit
//! ([`limits`]).

pub mod api;
mod auth;
mod form;
pub mod limits;
pub mod live;
pub mod web;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, FromRequest, Path, RawQuery, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};
use std::cell::RefCell;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;
use taku_dice::command::version::BCDICE_VERSION;
use taku_dice::{ChaChaSource, EvalError, Mode};
use taku_systems::GameSystem;
use taku_table::store::{Store, Tables};

/// The bcdice-api protocol version taku speaks.
pub const API_VERSION: &str = "3.0.0";

/// The largest request body read, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// Requests a second each client may make by default (twice that at once).
pub const DEFAULT_RATE_LIMIT: u32 = 100;

/// How a server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// Requests a second per client address (`0`: no limit).
    pub rate_limit: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            rate_limit: DEFAULT_RATE_LIMIT,
        }
    }
}

/// What every request shares: the open tables, the live-update hub, the rate limiter.
#[derive(Debug)]
pub struct Server {
    tables: Tables<Store>,
    live: live::Hub,
    limiter: limits::RateLimiter,
    /// Set once shutdown begins: live sockets close so in-flight requests can finish.
    stopping: tokio::sync::watch::Sender<bool>,
}

impl Server {
    /// A server over `store`.
    pub fn new(store: Store, config: &Config) -> Arc<Server> {
        Arc::new(Server {
            tables: Tables::new(store),
            live: live::Hub::default(),
            limiter: limits::RateLimiter::new(config.rate_limit),
            stopping: tokio::sync::watch::channel(false).0,
        })
    }

    /// The open tables.
    pub fn tables(&self) -> &Tables<Store> {
        &self.tables
    }
}

/// bcdice-api v2 and the front page alone: needs no store.
pub fn router() -> Router {
    finish(bcdice_routes().route("/", get(front_page)))
}

/// Every route: bcdice-api v2, the table API, the web table ([`web`], whose front page
/// creates tables; the API's description moves to `/about`); with request logs and rate
/// limits.
pub fn app(server: Arc<Server>) -> Router {
    let routes = bcdice_routes()
        .merge(api::routes().with_state(server.clone()))
        .merge(web::routes().with_state(server.clone()));
    finish(routes)
        .layer(middleware::from_fn_with_state(server, rate_limit))
        .layer(middleware::from_fn(log_request))
}

fn bcdice_routes() -> Router {
    Router::new()
        .route("/healthz", get(|| async { json_ok(json!({"ok": true})) }))
        .route("/v2/version", get(version))
        .route("/v2/admin", get(admin))
        .route("/v2/game_system", get(game_systems))
        .route("/v2/game_system/{id}", get(game_system))
        .route("/v2/game_system/{id}/roll", get(roll).post(roll))
        .route("/v2/original_table", axum::routing::post(original_table))
}

/// The JSON 404 for unknown paths and methods, the body limit, CORS.
fn finish(routes: Router) -> Router {
    routes
        .fallback(not_found)
        .method_not_allowed_fallback(not_found)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::map_response(cors))
}

fn client(request: &Request) -> Option<std::net::IpAddr> {
    request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
}

/// One `taku::http` event per request. The query string is left out: a browser's
/// WebSocket sends its token there.
async fn log_request(request: Request, next: Next) -> Response {
    if !tracing::enabled!(target: "taku::http", tracing::Level::INFO) {
        return next.run(request).await;
    }
    let start = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let client = client(&request);
    let response = next.run(request).await;
    tracing::info!(
        target: "taku::http",
        method = %method,
        path,
        status = response.status().as_u16(),
        micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX),
        client = client.map(|c| c.to_string()),
    );
    response
}

/// 429 past the client's rate limit; `/healthz` is never limited.
async fn rate_limit(State(server): State<Arc<Server>>, request: Request, next: Next) -> Response {
    if request.uri().path() == "/healthz" {
        return next.run(request).await;
    }
    match server.limiter.take(client(&request), Instant::now()) {
        Ok(()) => next.run(request).await,
        Err(wait) => {
            let mut response = json_with(
                StatusCode::TOO_MANY_REQUESTS,
                json!({"ok": false, "reason": format!(
                    "too many requests: at most {} a second from one client; retry after {} ms",
                    server.limiter.rate(),
                    wait.as_millis().max(1)
                )}),
            );
            let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
            response
        }
    }
}

/// `Access-Control-Allow-Origin: *` on every response (§7), and JSON for the refusals
/// axum itself makes (a body over [`MAX_BODY`]). A response mapper rather than `from_fn`:
/// it needs no request, and so boxes no `Next` per request.
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

pub(crate) fn json_with(status: StatusCode, body: Value) -> Response {
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
        "help_message": s.help().ja(),
    }))
}

/// Parameter `name`: query string, then a url-encoded or multipart form body over it;
/// the last repeat wins; `+` is a space except in multipart values (taken verbatim).
fn param(
    name: &str,
    query: Option<&str>,
    content_type: Option<&str>,
    body: &[u8],
) -> Option<String> {
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
    let content_type = content_type.unwrap_or("");
    if content_type.starts_with("application/x-www-form-urlencoded") {
        read(body);
    } else {
        let fields = form::multipart_fields(content_type, body);
        if let Some((_, v)) = fields.into_iter().rev().find(|(k, _)| k == name) {
            command = Some(v);
        }
    }
    command
}

thread_local! {
    /// Each worker thread's dice: ChaCha20 seeded once from the operating system.
    static DICE: RefCell<Option<ChaChaSource>> = const { RefCell::new(None) };
}

/// The roll endpoint takes the whole request rather than a `HeaderMap` extractor, which
/// would copy every header per request. The body is still read (and refused over
/// [`MAX_BODY`]) before the system is looked up, as with a `Bytes` extractor.
async fn roll(Path(id): Path<String>, request: Request) -> Response {
    let post = request.method() == Method::POST;
    let query = request.uri().query().map(str::to_owned);
    let content_type = if post {
        request.headers().get(header::CONTENT_TYPE).cloned()
    } else {
        None
    };
    let body = match Bytes::from_request(request, &()).await {
        Ok(b) => b,
        Err(rejection) => return rejection.into_response(),
    };
    let Some(s) = system(&id) else {
        return refuse("unsupported game system");
    };
    let body: &[u8] = if post { &body } else { &[] };
    let content_type = content_type.as_ref().and_then(|v| v.to_str().ok());
    let command = match param("command", query.as_deref(), content_type, body) {
        Some(c) if !c.is_empty() => c,
        _ => return refuse("unsupported command"),
    };
    let result = with_dice(|dice| taku_systems::evaluate(s, &command, dice, Mode::Strict));
    match result {
        Ok(Ok(r)) => {
            // Room for the fixed part and about 45 bytes a draw: written in one go.
            let mut out = Vec::with_capacity(128 + r.text.len() + 48 * r.rands.len());
            serde_json::to_writer(&mut out, &taku_systems::bcdice_roll(&r))
                .expect("writing JSON to memory cannot fail");
            (
                [(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                )],
                out,
            )
                .into_response()
        }
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
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let Some(table) = param("table", query.as_deref(), content_type, &body) else {
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

/// Serves [`app`] on `listener` until `shutdown` completes: then live sockets close and
/// requests in flight finish.
pub async fn serve(
    listener: tokio::net::TcpListener,
    server: Arc<Server>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    match server.tables.store().listen().await {
        Ok(Some(listener)) => {
            tokio::spawn(live::follow(server.clone(), listener));
        }
        Ok(None) => {}
        Err(e) => return Err(std::io::Error::other(e)),
    }
    let stopping = server.clone();
    let signal = async move {
        shutdown.await;
        stopping.stopping.send_replace(true);
    };
    axum::serve(
        listener,
        app(server).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(signal)
    .await
}
