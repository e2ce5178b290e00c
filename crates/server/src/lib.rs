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
pub mod speak;
pub mod web;
mod wire;

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
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use taku_dice::command::version::BCDICE_VERSION;
use taku_dice::{ChaChaSource, EvalError, Mode, Unrecorded};
use taku_systems::GameSystem;
use taku_table::store::{Budget, Limits, Store, Tables};

/// The bcdice-api protocol version taku speaks.
pub const API_VERSION: &str = "3.0.0";

/// The largest request body read, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// Requests a second each client may make by default (twice that at once).
pub const DEFAULT_RATE_LIMIT: u32 = 100;

/// Connections open at once by default (lowered to fit the open-file limit).
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;

/// Connections open at once from one client address by default.
pub const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS: usize = 64;

/// How long a client has to send a request's headers, and how long a kept-alive
/// connection may sit idle between requests.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a request may take once its headers are in, its body included: a body
/// trickled in slower than this is answered 408 and its connection closed.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// How long, after shutdown begins, requests in flight have to finish before the server
/// returns anyway.
pub const SHUTDOWN_DEADLINE: Duration = Duration::from_secs(10);

/// Tables one client address may create an hour by default.
pub const DEFAULT_TABLES_PER_HOUR: u32 = 30;

/// Members one table may have by default.
pub const DEFAULT_MAX_MEMBERS: usize = 100;

/// Entries one table's log may hold by default.
pub const DEFAULT_MAX_EVENTS: usize = 200_000;

/// Bytes one table's log may hold by default (as stored).
pub const DEFAULT_MAX_LOG_BYTES: u64 = 64 * 1024 * 1024;

/// Bytes of logs (as stored) the tables held in memory may count by default (attack pass
/// 2, A2-9): four tables at the log-size limit. Past it the least recently used tables
/// leave memory and are loaded again when used. Resident memory is about 2–3× this.
pub const DEFAULT_RESIDENT_LOG_BYTES: u64 = 256 * 1024 * 1024;

/// Lines (and sheet imports, reveals, undos) one member may send a minute at one table
/// by default (attack pass 2, A2-16).
pub const DEFAULT_LINES_PER_MINUTE: u32 = 60;

/// Bytes of lines one member may send a minute at one table by default (A2-16): about
/// twenty long lines; a spectator cannot fill a table's log in an afternoon.
pub const DEFAULT_LINE_BYTES_PER_MINUTE: u32 = 256 * 1024;

/// How long a table unused stays in memory by default (it goes between one and two of
/// these after its last use, and is loaded again when next used).
pub const DEFAULT_IDLE_EVICTION: Duration = Duration::from_secs(600);

/// What a server holds its tables to by default: [`DEFAULT_MAX_EVENTS`],
/// [`DEFAULT_MAX_LOG_BYTES`], lines decided on one worker per core (at least two), off
/// the async threads, waiting at most 2 s for one, and each member's share of them at a
/// table a budget of 2 s at once and 0.1 s a second (a tenth of a core) after, all its
/// members together 8 s at once and 0.4 s a second.
pub fn default_limits() -> Limits {
    Limits {
        max_events: DEFAULT_MAX_EVENTS,
        max_bytes: DEFAULT_MAX_LOG_BYTES,
        max_members: DEFAULT_MAX_MEMBERS,
        workers: std::thread::available_parallelism().map_or(2, |n| n.get().max(2)),
        queue_wait: Duration::from_secs(2),
        budget: Budget {
            burst: Duration::from_secs(2),
            per_second: Duration::from_millis(100),
        },
        // A5-3: all of a table's members together, four members' worth (so members
        // minted for free do not multiply a table's share of the workers).
        table_budget: Budget {
            burst: Duration::from_secs(8),
            per_second: Duration::from_millis(400),
        },
    }
}

/// How a server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// Requests a second per client address (`0`: no limit).
    pub rate_limit: u32,
    /// Connections open at once; further ones are closed as soon as accepted. Lowered
    /// to leave room under the process's open-file limit.
    pub max_connections: usize,
    /// Connections open at once from one client address.
    pub max_connections_per_address: usize,
    /// See [`HEADER_TIMEOUT`].
    pub header_timeout: Duration,
    /// See [`SHUTDOWN_DEADLINE`].
    pub shutdown_deadline: Duration,
    /// Reverse proxies whose `X-Forwarded-For` is believed (`--trusted-proxy CIDR`): a
    /// request from one of them is rate-limited as the client it names.
    pub trusted_proxies: Vec<limits::Cidr>,
    /// The names a request's `Host` may give (attack pass 3, A3-1: a DNS-rebinding page,
    /// its own name pointed at 127.0.0.1, is "same-origin" with a loopback server):
    /// `None` takes any; `Some(names)` takes these names, `localhost` and its
    /// subdomains, and IP addresses (which no page can rebind), and answers others 421.
    /// `taku serve` sets it when bound to loopback without a trusted proxy.
    pub allowed_hosts: Option<Vec<String>>,
    /// Whether anyone may create tables (`--open-creation`); when not, only a request
    /// with the admin token may (`Authorization: Bearer ADMIN_TOKEN`).
    pub open_creation: bool,
    /// The admin token: creates tables when creation is restricted, and is not held to
    /// [`Config::tables_per_hour`]. `None`: nobody has it.
    pub admin_token: Option<String>,
    /// Tables one client address may create an hour (`0`: no limit).
    pub tables_per_hour: u32,
    /// Members one table may have (its GM included), by invite or by a GM's `/join`
    /// (overrides `limits.max_members`).
    pub max_members: usize,
    /// How long a table unused stays in memory ([`DEFAULT_IDLE_EVICTION`]).
    pub idle_eviction: Duration,
    /// Whether each client gets one bcdice-api evaluation at a time by the reference engine
    /// and a share of its time ([`limits::ReferenceShare`]; on by default).
    pub reference_share: bool,
    /// How long an export's client may read nothing before its connection is closed
    /// ([`web::EXPORT_STALL`]).
    pub export_stall: Duration,
    /// Bytes of logs the tables held in memory may count
    /// ([`DEFAULT_RESIDENT_LOG_BYTES`], [`Tables::with_resident_budget`]).
    pub resident_log_bytes: u64,
    /// Lines a minute one member may send at one table (`0`: no limit;
    /// [`DEFAULT_LINES_PER_MINUTE`]).
    pub lines_per_minute: u32,
    /// Bytes of lines a minute one member may send at one table (`0`: no limit;
    /// [`DEFAULT_LINE_BYTES_PER_MINUTE`]).
    pub line_bytes_per_minute: u32,
    /// What tables are held to: log size, workers for lines and exports, members'
    /// computing budgets ([`default_limits`]).
    pub limits: Limits,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            rate_limit: DEFAULT_RATE_LIMIT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_connections_per_address: DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
            header_timeout: HEADER_TIMEOUT,
            shutdown_deadline: SHUTDOWN_DEADLINE,
            trusted_proxies: Vec::new(),
            allowed_hosts: None,
            open_creation: true,
            admin_token: None,
            tables_per_hour: DEFAULT_TABLES_PER_HOUR,
            max_members: DEFAULT_MAX_MEMBERS,
            idle_eviction: DEFAULT_IDLE_EVICTION,
            resident_log_bytes: DEFAULT_RESIDENT_LOG_BYTES,
            export_stall: web::EXPORT_STALL,
            reference_share: true,
            lines_per_minute: DEFAULT_LINES_PER_MINUTE,
            line_bytes_per_minute: DEFAULT_LINE_BYTES_PER_MINUTE,
            limits: default_limits(),
        }
    }
}

/// What every request shares: the open tables, the live-update hub, the rate limiter.
#[derive(Debug)]
pub struct Server {
    tables: Tables<Store>,
    live: live::Hub,
    limiter: limits::RateLimiter,
    /// Tables created per client address an hour.
    creations: limits::RateLimiter,
    /// Lines each member sends a minute at each table (A2-16).
    writes: limits::MemberQuota,
    /// Each client's share of the reference engine on bcdice-api (A2-4).
    reference: limits::ReferenceShare,
    /// Set once shutdown begins: live sockets close so in-flight requests can finish.
    stopping: tokio::sync::watch::Sender<bool>,
    connections: Arc<limits::Connections>,
    /// Palette odds, computed off the request path ([`web::odds`]).
    odds: web::odds::Pool,
    /// Exports being sent ([`web::Exports`]).
    exports: web::Exports,
    /// Long answers being sent ([`web::Replies`]).
    replies: web::Replies,
    config: Config,
}

impl Server {
    /// A server over `store`.
    pub fn new(store: Store, config: &Config) -> Arc<Server> {
        Arc::new(Server {
            tables: Tables::new(store)
                .with_limits(Limits {
                    max_members: config.max_members,
                    ..config.limits.clone()
                })
                .with_resident_budget(config.resident_log_bytes),
            reference: limits::ReferenceShare::default(),
            writes: limits::MemberQuota::new(config.lines_per_minute, config.line_bytes_per_minute),
            live: live::Hub::default(),
            limiter: limits::RateLimiter::new(config.rate_limit),
            creations: limits::RateLimiter::per_hour(config.tables_per_hour),
            stopping: tokio::sync::watch::channel(false).0,
            connections: Arc::new(limits::Connections::new(
                limits::fit_open_files(config.max_connections),
                config.max_connections_per_address,
            )),
            odds: web::odds::Pool::new(),
            exports: web::Exports::new(config.export_stall),
            replies: web::Replies::new(config.export_stall),
            config: config.clone(),
        })
    }

    /// Long answers being sent now ([`web::Replies`]).
    pub fn replies_sending(&self) -> usize {
        self.replies.sending()
    }

    /// The open tables.
    pub fn tables(&self) -> &Tables<Store> {
        &self.tables
    }

    /// The palette odds' pool ([`web::odds`]).
    pub fn odds(&self) -> &web::odds::Pool {
        &self.odds
    }

    /// Lets go of the tables nobody used since the last call and no live socket watches
    /// ([`Tables::evict_idle`]); how many. [`serve`] calls it every
    /// [`Config::idle_eviction`].
    pub fn evict_idle(&self) -> usize {
        self.tables.evict_idle(|id| self.live.is_watched(id))
    }

    /// Whether `headers` carry the admin token.
    fn is_admin(&self, headers: &HeaderMap) -> bool {
        use sha2::{Digest, Sha256};
        use subtle::ConstantTimeEq;
        let Some(admin) = &self.config.admin_token else {
            return false;
        };
        let Some(token) = api::bearer(headers) else {
            return false;
        };
        // Hashes of equal length, compared in constant time.
        let (a, b) = (
            Sha256::digest(admin.as_bytes()),
            Sha256::digest(token.as_bytes()),
        );
        a.ct_eq(&b).into()
    }
}

/// Whether a browser says the request comes from another origin's page: a
/// `Sec-Fetch-Site` other than `same-origin` or `none` (a page on another port of the
/// same host is `same-site`, and another origin too), or an `Origin` whose host is not the
/// `Host` the request was sent to (which a rebound DNS name also fails), or `Origin: null`
/// (attack pass 4, A4-6: what a sandboxed frame, a `data:` page or a cross-site redirect
/// sends; our own pages send their real origin, their referrer policy being
/// `same-origin`). Without Origin, a `Referer` of another origin (A5-6). Requests without
/// these headers (curl, other servers) are no browser page's and pass.
fn cross_site(headers: &HeaderMap) -> bool {
    let value = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site) = value(header::HeaderName::from_static("sec-fetch-site")) {
        return !matches!(site, "same-origin" | "none");
    }
    match (value(header::ORIGIN), value(header::HOST)) {
        (Some("null"), _) => true,
        (Some(origin), Some(host)) => origin
            .split_once("://")
            .is_none_or(|(_, rest)| !rest.eq_ignore_ascii_case(host)),
        (Some(_), None) => true,
        // No Origin, no Fetch Metadata (an old browser's form post): its Referer, if
        // any, must be a page of this server (attack pass 5, A5-6).
        (None, host) => value(header::REFERER).is_some_and(|referer| {
            let authority = referer
                .split_once("://")
                .map(|(_, rest)| rest.split(['/', '?', '#']).next().unwrap_or_default());
            match (authority, host) {
                (Some(authority), Some(host)) => !authority.eq_ignore_ascii_case(host),
                _ => true,
            }
        }),
    }
}

/// Whether `host` (a `Host` header: a name or address, with or without a port) is one
/// `allowed` takes ([`Config::allowed_hosts`]).
pub fn host_allowed(host: &str, allowed: &[String]) -> bool {
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split_once(']').map_or("", |(address, _)| address),
        None => host.rsplit_once(':').map_or(host, |(name, port)| {
            if port.bytes().all(|b| b.is_ascii_digit()) {
                name
            } else {
                host
            }
        }),
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name.parse::<std::net::IpAddr>().is_ok()
        || name == "localhost"
        || name.ends_with(".localhost")
        || allowed
            .iter()
            .any(|a| a.trim_end_matches('.').eq_ignore_ascii_case(&name))
}

/// Refuses (421) requests whose `Host` is not one [`Config::allowed_hosts`] takes.
async fn host_gate(State(server): State<Arc<Server>>, request: Request, next: Next) -> Response {
    if let Some(allowed) = &server.config.allowed_hosts {
        let host = request
            .headers()
            .get(header::HOST)
            .and_then(|v| v.to_str().ok());
        if host.is_some_and(|h| !host_allowed(h, allowed)) {
            return said(
                StatusCode::MISDIRECTED_REQUEST,
                &taku_dice::Text::new(
                    "このサーバーはこのホスト名では使えません（localhost か IP アドレスで開いてください。taku serve --allowed-host 名前 で名前を加えられます）",
                    "this server does not answer to this host name: open it as localhost or by its address (taku serve --allowed-host NAME adds a name)",
                ),
                &request,
            );
        }
    }
    next.run(request).await
}

/// Who may create tables, and how many: with creation restricted only the admin token
/// creates; otherwise each client address creates at most [`Config::tables_per_hour`]
/// an hour (the admin token is not counted). Checked before the request is read, for
/// both ways to create (`POST /api/v1/tables` and the web form's `POST /new`); an
/// attempt counts whether or not its table is made.
async fn creation_gate(
    State(server): State<Arc<Server>>,
    request: Request,
    next: Next,
) -> Response {
    let creates = request.method() == Method::POST
        && matches!(request.uri().path(), "/api/v1/tables" | "/new");
    if !creates || server.is_admin(request.headers()) {
        return next.run(request).await;
    }
    if cross_site(request.headers()) {
        // Attack pass 2, A2-15: a page on another site the user opens must not create
        // tables on their server (a loopback one is open) and read back the GM's token.
        return said(
            StatusCode::FORBIDDEN,
            &taku_dice::Text::new(
                "他のサイトのページからはテーブルを作れません。このサーバーのページから作るか、管理トークンを送ってください",
                "tables are not created from another site's page: use this server's own page, or send the admin token",
            ),
            &request,
        );
    }
    if !server.config.open_creation {
        let (ja, en) = if server.config.admin_token.is_some() {
            (
                "管理トークンを送ってください（Authorization: Bearer 管理トークン）",
                "send the admin token (Authorization: Bearer ADMIN_TOKEN)",
            )
        } else {
            (
                "運営者が全員に許す（taku serve --open-creation）か、管理トークンを設定できます（--admin-token-file）",
                "its operator can allow everyone (taku serve --open-creation) or set an admin token (--admin-token-file)",
            )
        };
        return said(
            StatusCode::FORBIDDEN,
            &taku_dice::Text::new(
                format!("このサーバーではテーブルの作成が制限されています。{ja}"),
                format!("table creation is restricted on this server: {en}"),
            ),
            &request,
        );
    }
    let client = limits::client_behind(
        client(&request),
        request.headers(),
        &server.config.trusted_proxies,
    );
    match server.creations.take(client, Instant::now()) {
        Ok(()) => next.run(request).await,
        Err(wait) => {
            let minutes = wait.as_secs().div_ceil(60).max(1);
            let n = server.creations.burst();
            let mut response = said(
                StatusCode::TOO_MANY_REQUESTS,
                &taku_dice::Text::new(
                    format!(
                        "この接続元からのテーブル作成は 1 時間に {n} 件までです。{minutes} 分ほど後にもう一度どうぞ"
                    ),
                    format!(
                        "at most {n} tables an hour from one address; try again in about {minutes} min"
                    ),
                ),
                &request,
            );
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from(wait.as_secs().max(1)),
            );
            response
        }
    }
}

/// A refusal said in the language `request` asks for ([`speak::client_lang`]: `?lang=`,
/// `Accept-Language`, else Japanese).
fn said(status: StatusCode, text: &taku_dice::Text, request: &Request) -> Response {
    let lang = speak::client_lang(request.uri().query(), request.headers());
    json_with(status, json!({"ok": false, "reason": text.get(lang)}))
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
        .merge(
            api::routes()
                .with_state(server.clone())
                .layer(middleware::from_fn(speak::middleware)),
        )
        .merge(
            web::routes()
                .with_state(server.clone())
                .layer(middleware::from_fn(speak::middleware)),
        );
    finish(routes)
        .layer(middleware::from_fn_with_state(
            server.clone(),
            creation_gate,
        ))
        .layer(middleware::from_fn_with_state(server.clone(), rate_limit))
        .layer(middleware::from_fn_with_state(server, host_gate))
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

/// The JSON 404 for unknown paths and methods, the body limit, a JSON 500 for a handler
/// that panics, CORS.
fn finish(routes: Router) -> Router {
    routes
        .fallback(not_found)
        .method_not_allowed_fallback(preflight_or_not_allowed)
        // The fallbacks' refusals, and the framework's own for a path that is not UTF-8
        // (`/v2/game_system/%ff/roll`), in the client's language (attack pass 7, A7-4).
        .layer(middleware::from_fn(speak::middleware))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn(contain))
        .layer(middleware::map_response(cors))
}

/// 413's reason.
fn too_large() -> taku_dice::Text {
    taku_dice::Text::new(
        format!("リクエストの本文が大きすぎます。{MAX_BODY} バイトまでです"),
        format!("request body too large: the limit is {MAX_BODY} bytes"),
    )
}

/// What every request is held to, around its handler: a body announced larger than
/// [`MAX_BODY`] is refused at once (413, before a byte of it is read); the whole request,
/// body included, gets [`REQUEST_TIMEOUT`] (then 408); and a handler that panics is
/// answered JSON 500 and logged (`taku::http`, error) instead of its connection just
/// closing. Nothing a handler holds across a panic can be left half-changed: tables
/// change only by appending, after the store has the events.
async fn contain(request: Request, next: Next) -> Response {
    use futures_util::FutureExt;
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let lang = speak::client_lang(request.uri().query(), request.headers());
    if announced.is_some_and(|n| n > MAX_BODY as u64) {
        let mut response = json_with(
            StatusCode::PAYLOAD_TOO_LARGE,
            json!({"ok": false, "reason": too_large().get(lang)}),
        );
        // The body is never read: the connection cannot be reused.
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        return response;
    }
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let run = std::panic::AssertUnwindSafe(next.run(request)).catch_unwind();
    match tokio::time::timeout(REQUEST_TIMEOUT, run).await {
        // The framework's own refusal of a streamed body over the limit (plain text):
        // said in the client's language (attack pass 8, A8-7).
        Ok(Ok(response))
            if response.status() == StatusCode::PAYLOAD_TOO_LARGE && !is_json(&response) =>
        {
            json_with(
                StatusCode::PAYLOAD_TOO_LARGE,
                json!({"ok": false, "reason": too_large().get(lang)}),
            )
        }
        Ok(Ok(response)) => response,
        Ok(Err(panic)) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".to_string());
            tracing::error!(target: "taku::http", method = %method, path, panic = message, "a handler panicked");
            json_with(
                StatusCode::INTERNAL_SERVER_ERROR,
                json!({"ok": false, "reason": taku_dice::Text::new(
                    "サーバーがこのリクエストの処理に失敗しました。理由はサーバーのログにあります",
                    "the server failed on this request; its log says why",
                ).get(lang)}),
            )
        }
        Err(_) => {
            let mut response = json_with(
                StatusCode::REQUEST_TIMEOUT,
                json!({"ok": false, "reason": taku_dice::Text::new(
                    format!(
                        "リクエストが {} 秒を超えました（本文の送信が遅すぎませんか）",
                        REQUEST_TIMEOUT.as_secs()
                    ),
                    format!(
                        "the request took longer than {} s (a body sent too slowly?)",
                        REQUEST_TIMEOUT.as_secs()
                    ),
                ).get(lang)}),
            );
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            response
        }
    }
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

/// How long a client's reference roll waits for its previous one to end.
const REFERENCE_WAIT: Duration = Duration::from_secs(2);

/// 429 past the client's rate limit (the client a trusted proxy names, or the peer);
/// `/healthz` is never limited.
async fn rate_limit(
    State(server): State<Arc<Server>>,
    mut request: Request,
    next: Next,
) -> Response {
    if request.uri().path() == "/healthz" {
        return next.run(request).await;
    }
    let client = limits::client_behind(
        client(&request),
        request.headers(),
        &server.config.trusted_proxies,
    );
    // Keyed as the limiter keys it (an IPv6 /64 is one client).
    request
        .extensions_mut()
        .insert(limits::ClientKey(client.map(limits::holder)));
    match server.limiter.take(client, Instant::now()) {
        Ok(()) if server.config.reference_share && reference_roll(request.uri().path()) => {
            // A2-4: one reference evaluation at a time per client (the next waits for
            // it, as long as the engine's time limit), within its budget.
            let waited = Instant::now();
            let turn = loop {
                let ended = server.reference.ended.notified();
                tokio::pin!(ended);
                ended.as_mut().enable();
                match server.reference.begin(client, Instant::now()) {
                    Err(why @ (limits::NotYet::Running | limits::NotYet::Busy)) => {
                        let left = REFERENCE_WAIT.saturating_sub(waited.elapsed());
                        if left.is_zero() || tokio::time::timeout(left, ended).await.is_err() {
                            break Err((Duration::from_secs(1), why == limits::NotYet::Busy));
                        }
                    }
                    Err(limits::NotYet::Spent(wait)) => break Err((wait, false)),
                    Err(limits::NotYet::AllSpent(wait)) => break Err((wait, true)),
                    Ok(turn) => break Ok(turn),
                }
            };
            match turn {
                Ok(_evaluating) => next.run(request).await,
                Err((wait, all)) => {
                    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                    // In the client's language: no table to take one from.
                    let lang = speak::client_lang(request.uri().query(), request.headers());
                    let reason = if all {
                        taku_dice::Text::new(
                            format!(
                                "BCDice の評価は今、このサーバーの bcdice-api 全体で使える分を使い切っています（テーブルのプレイヤーのために残しています）。{secs} 秒ほど後にもう一度どうぞ"
                            ),
                            format!(
                                "the BCDice engine's share for bcdice-api clients of this server is used up just now (the rest is kept for the tables' players); retry in about {secs} s"
                            ),
                        )
                    } else {
                        taku_dice::Text::new(
                            format!(
                                "この接続元は BCDice の評価を続けて使いました（同時に 1 件まで、時間にも上限があります）。{secs} 秒ほど後にもう一度どうぞ"
                            ),
                            format!(
                                "this client has used a lot of the BCDice engine just now (one evaluation at a time, and a share of its time); retry in about {secs} s"
                            ),
                        )
                    };
                    let mut response = json_with(
                        StatusCode::TOO_MANY_REQUESTS,
                        json!({"ok": false, "reason": reason.get(lang)}),
                    );
                    response
                        .headers_mut()
                        .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
                    response
                }
            }
        }
        Ok(()) => next.run(request).await,
        Err(wait) => {
            let (rate, ms) = (server.limiter.rate(), wait.as_millis().max(1));
            let reason = taku_dice::Text::new(
                format!(
                    "リクエストが多すぎます: 1 つの接続元から毎秒 {rate} 件までです。{ms} ミリ秒後にもう一度どうぞ"
                ),
                format!(
                    "too many requests: at most {rate} a second from one client; retry after {ms} ms"
                ),
            );
            let lang = speak::client_lang(request.uri().query(), request.headers());
            let mut response = json_with(
                StatusCode::TOO_MANY_REQUESTS,
                json!({"ok": false, "reason": reason.get(lang)}),
            );
            let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
            response
        }
    }
}

/// Whether `path` is a bcdice-api roll of a system the reference engine evaluates.
fn reference_roll(path: &str) -> bool {
    path.strip_prefix("/v2/game_system/")
        .and_then(|rest| rest.strip_suffix("/roll"))
        .and_then(taku_systems::find)
        .is_some_and(|s| s.engine() == taku_systems::EngineKind::Reference)
}

/// `Access-Control-Allow-Origin: *` (but on the web table's own pages, [`web::SameOrigin`]) and
/// `X-Content-Type-Options: nosniff` on every
/// response (§7), and JSON for the refusals
/// axum itself makes (a body over [`MAX_BODY`]). A response mapper rather than `from_fn`:
/// it needs no request, and so boxes no `Next` per request.
async fn cors(mut response: Response) -> Response {
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE && !is_json(&response) {
        // axum's own refusal of a streamed body over the limit that `contain` did not
        // see: no request at hand to read a language from, so Japanese (the default).
        // taku's own 413s are JSON in the client's language already (A8-7).
        response = json_with(
            StatusCode::PAYLOAD_TOO_LARGE,
            json!({"ok": false, "reason": too_large().ja()}),
        );
    }
    let own = response.extensions().get::<web::SameOrigin>().is_some();
    let headers = response.headers_mut();
    // The API is for any front-end; the web table's pages and fragments (some with a new
    // GM's token in them) are for this server's own pages only (A2-15).
    if !own {
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
    }
    // A browser must never guess another type for our JSON.
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// Whether `response` is JSON (one of taku's own answers).
fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"))
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

/// A 400 whose reason is taku's own words, in `lang` (bcdice-api's fixed English reasons
/// go through [`refuse`]).
fn refuse_in(reason: &taku_dice::Text, lang: taku_dice::Lang) -> Response {
    refuse(reason.get(lang))
}

/// A CORS preflight (`OPTIONS` on a route that exists) is allowed the methods and the
/// headers the table API takes, `Authorization` among them; any other method a route does
/// not have is a 405 saying which it has (`Allow`). Answered from the fallback, so
/// requests that are not preflights pay nothing for it.
async fn preflight_or_not_allowed(method: Method, uri: axum::http::Uri) -> Response {
    if method != Method::OPTIONS {
        if is_bcdice_api(&uri) {
            return bcdice_not_found();
        }
        let name: String = method.as_str().chars().take(32).collect();
        let text = taku_dice::Text::new(
            format!(
                "このパスでは {name} は使えません。使えるメソッドは応答の Allow ヘッダーにあります（/api/v1/openapi.json も参照してください）"
            ),
            format!(
                "{name} is not allowed on this path: the methods it takes are in the response's Allow header (see also /api/v1/openapi.json)"
            ),
        );
        return refusal(StatusCode::METHOD_NOT_ALLOWED, text);
    }
    (
        StatusCode::NO_CONTENT,
        [
            (
                header::ACCESS_CONTROL_ALLOW_METHODS,
                HeaderValue::from_static("GET, POST, DELETE, OPTIONS"),
            ),
            (
                header::ACCESS_CONTROL_ALLOW_HEADERS,
                HeaderValue::from_static("authorization, content-type"),
            ),
            (
                header::ACCESS_CONTROL_MAX_AGE,
                HeaderValue::from_static("600"),
            ),
        ],
    )
        .into_response()
}

/// bcdice-api's answer to any path or method it does not have, exactly (§7.7: 404
/// `{"ok":false,"reason":"not found"}`, in any language): its clients match on it.
fn bcdice_not_found() -> Response {
    json_with(
        StatusCode::NOT_FOUND,
        json!({"ok": false, "reason": "not found"}),
    )
}

/// A path under bcdice-api's `/v2`, whose answers follow bcdice-api byte for byte.
fn is_bcdice_api(uri: &axum::http::Uri) -> bool {
    let path = uri.path();
    path == "/v2" || path.starts_with("/v2/")
}

/// 404 for a path nothing answers: under `/v2` bcdice-api's own answer, elsewhere a
/// refusal in the client's language saying where the APIs are (attack pass 7, A7-4).
async fn not_found(uri: axum::http::Uri) -> Response {
    if is_bcdice_api(&uri) {
        return bcdice_not_found();
    }
    refusal(
        StatusCode::NOT_FOUND,
        taku_dice::Text::new(
            "このパスには何もありません。テーブル API は /api/v1/openapi.json に書いてあります。bcdice-api は /v2/version、/v2/game_system、/v2/game_system/{id}、/v2/game_system/{id}/roll、/v2/original_table です",
            "nothing is at this path: the table API is described at /api/v1/openapi.json; bcdice-api is /v2/version, /v2/game_system, /v2/game_system/{id}, /v2/game_system/{id}/roll and /v2/original_table",
        ),
    )
}

/// A JSON refusal with `status`, said in the client's language by [`speak::middleware`].
fn refusal(status: StatusCode, text: taku_dice::Text) -> Response {
    let mut response = json_with(status, json!({"ok": false, "reason": text.ja()}));
    response.extensions_mut().insert(speak::Said(text));
    response
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

async fn game_system(
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let Some(s) = system(&id) else {
        return refuse("unsupported game system");
    };
    let lang = || speak::client_lang(query.as_deref(), &headers);
    // A reference system's help and pattern come from a worker process: off the runtime.
    let (pattern, help) = match off_runtime(s, lang, move || {
        (taku_systems::command_pattern(s), s.help().ja().to_string())
    })
    .await
    {
        Ok(info) => info,
        Err(response) => return response,
    };
    json_ok(json!({
        "ok": true,
        "id": s.id(),
        "name": s.name(),
        "sort_key": s.sort_key(),
        "command_pattern": pattern,
        "help_message": help,
    }))
}

/// Runs `f` on the blocking pool when `s` is evaluated by the reference engine (whose
/// answers wait on a worker process), inline otherwise. `Err`: the response to give
/// instead (every worker busy for the engine's time limit: 503 in the language `lang`
/// gives; the task died: 500).
async fn off_runtime<R: Send + 'static>(
    s: &'static dyn GameSystem,
    lang: impl FnOnce() -> taku_dice::Lang,
    f: impl FnOnce() -> R + Send + 'static,
) -> Result<R, Response> {
    if s.engine() == taku_systems::EngineKind::Native {
        return Ok(f());
    }
    // One place fewer than the engine's workers hold at once: the tables' lines keep
    // one, so what goes through here from any number of addresses never holds every
    // worker (attack pass 4, A4-2). bcdice-api's rolls have lanes of their own
    // ([`reference_permit`]).
    static GATE: OnceLock<(tokio::sync::Semaphore, std::time::Duration)> = OnceLock::new();
    let _permit = reference_permit(&GATE, 1, lang).await?;
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| stopped(&e))
}

/// A place among the evaluations `gate` lets through at once (the reference engine's
/// workers × their queue, less `keep`); the rest wait here, asleep on the runtime, up to
/// the engine's time limit (then 503 in the language `lang` gives).
async fn reference_permit(
    gate: &'static OnceLock<(tokio::sync::Semaphore, std::time::Duration)>,
    keep: usize,
    lang: impl FnOnce() -> taku_dice::Lang,
) -> Result<tokio::sync::SemaphorePermit<'static>, Response> {
    let (gate, wait) = gate.get_or_init(|| match taku_systems::reference::engine() {
        Some(e) => (
            tokio::sync::Semaphore::new(e.capacity().saturating_sub(keep).max(1)),
            e.config().time_limit,
        ),
        None => (
            tokio::sync::Semaphore::new(1),
            std::time::Duration::from_secs(2),
        ),
    });
    match tokio::time::timeout(*wait, gate.acquire()).await {
        Ok(Ok(permit)) => Ok(permit),
        Ok(Err(e)) => Err(stopped(&e)),
        Err(_) => Err(busy(
            &EvalError::Engine(taku_dice::EngineFailure::Busy),
            lang(),
        )),
    }
}

/// 500: an evaluation stopped without an answer.
fn stopped(e: &dyn std::fmt::Display) -> Response {
    json_with(
        StatusCode::INTERNAL_SERVER_ERROR,
        json!({"ok": false, "reason": format!("the evaluation stopped: {e}")}),
    )
}

/// 503 with Retry-After: every reference-engine worker was busy; said in `lang` (the
/// client's, [`speak`]).
fn busy(e: &EvalError, lang: taku_dice::Lang) -> Response {
    let mut response = json_with(
        StatusCode::SERVICE_UNAVAILABLE,
        json!({"ok": false, "reason": e.text().get(lang)}),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
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
    // Only a reference system's refusal (every worker busy) reads it.
    let accept = if post || query.is_some() {
        request.headers().get(header::ACCEPT_LANGUAGE).cloned()
    } else {
        None
    };
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
    let lang = || {
        let mut headers = HeaderMap::new();
        if let Some(v) = accept.clone() {
            headers.insert(header::ACCEPT_LANGUAGE, v);
        }
        speak::client_lang(query.as_deref(), &headers)
    };
    let engine = match s.engine() {
        taku_systems::EngineKind::Reference => taku_systems::reference::engine(),
        _ => None,
    };
    let result = match engine {
        // A reference system's roll waits on the runtime for an answer from the lanes'
        // own workers (not the tables').
        Some(engine) => {
            static LANES: OnceLock<(tokio::sync::Semaphore, std::time::Duration)> = OnceLock::new();
            match reference_permit(&LANES, 0, &lang).await {
                Ok(_permit) => {
                    let mut rolled = engine.roll_unrecorded(s.id(), &command).await;
                    // A5-8: a worker that died (crashed, killed) is replaced; the command,
                    // whose dice nothing records, runs once more on its replacement.
                    if matches!(
                        rolled,
                        Err(EvalError::Engine(taku_dice::EngineFailure::Crashed(_)))
                    ) {
                        rolled = engine.roll_unrecorded(s.id(), &command).await;
                    }
                    Ok(rolled)
                }
                Err(response) => return response,
            }
        }
        // Nothing records these dice: the reference engine may draw ahead of its worker.
        None => with_dice(|dice| {
            taku_systems::evaluate(s, &command, &mut Unrecorded(dice), Mode::Strict)
        }),
    };
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
        // The reference engine: every worker busy is a 503 to retry, and so is a worker
        // that died twice in a row (it is being replaced; what it said stays in the
        // server); a command that ran too long or that BCDice raised on is the
        // command's (400, like any refused command).
        Ok(Err(e @ EvalError::Engine(taku_dice::EngineFailure::Busy))) => busy(&e, lang()),
        Ok(Err(e @ EvalError::Engine(taku_dice::EngineFailure::Crashed(_)))) => {
            tracing::warn!("bcdice-api: {e}");
            let mut response = json_with(
                StatusCode::SERVICE_UNAVAILABLE,
                json!({"ok": false, "reason": taku_dice::Text::new(
                    "参照エンジンのワーカーが止まったので入れ替えています。少し待ってからもう一度どうぞ",
                    "a reference-engine worker stopped and is being replaced; send it again in a moment",
                ).get(lang())}),
            );
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            response
        }
        // The reference answers 500 {"ok":false}; we say what went wrong, in the
        // client's language (attack pass 6, A6-3).
        Ok(Err(e)) => refuse_in(&e.text(), lang()),
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
    // Taku's own reasons in the client's language (attack pass 6, A6-3).
    let lang = speak::client_lang(query.as_deref(), &headers);
    let Some(table) = param("table", query.as_deref(), content_type, &body) else {
        return refuse_in(
            &taku_dice::Text::new(
                "表がありません。表の文をフォーム項目 table で送ってください",
                "no table: send the table's text in the form field 'table'",
            ),
            lang,
        );
    };
    let result = with_dice(|dice| taku_dice::original_table::roll(&table, dice));
    match result {
        Ok(Ok(Some(r))) => {
            json_ok(json!({"ok": true, "text": r.text, "rands": taku_systems::bcdice_rands(&r)}))
        }
        // A7-13: which line is wrong and what would be right.
        Ok(Ok(None)) => refuse_in(
            &taku_dice::original_table::problem(&table).unwrap_or_else(|| taku_dice::Text::new(
                "表として読めません。1 行目が表の名前、2 行目がダイス（nDm、D66、D66A、D66D）、その後にダイスが出しうる値ごとに「数:文」の行を 1 つずつ書きます",
                "invalid table: line 1 is the name, line 2 the dice (nDm, D66, D66A, D66D), then one row NUMBER:TEXT for every value the dice can give",
            )),
            lang,
        ),
        Ok(Err(e)) => refuse_in(&e.text(), lang),
        Err(e) => json_with(
            StatusCode::INTERNAL_SERVER_ERROR,
            json!({"ok": false, "reason": e}),
        ),
    }
}

/// Serves [`app`] on `listener` until `shutdown` completes: then live sockets close,
/// no connection is accepted, and requests in flight have the config's shutdown
/// deadline to finish before this returns anyway (a slow client cannot hold the process).
///
/// Each connection is HTTP/1.1 (hyper) with a header timeout that is also the idle
/// keep-alive timeout; connections past the per-address cap are closed as soon as
/// accepted, and past the global cap the oldest idle connection makes room (or, with none
/// idle, the new one is closed); an `accept` error (out of file descriptors, say) is logged and
/// retried after a pause, never ending the server.
pub async fn serve(
    listener: tokio::net::TcpListener,
    server: Arc<Server>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower::ServiceExt;
    match taku_systems::reference::engine() {
        Some(engine) => tracing::info!(
            systems = engine.systems().len(),
            dir = %engine.config().dir.display(),
            workers = engine.config().workers,
            "reference engine (BCDice's JavaScript build) on"
        ),
        None => tracing::info!(
            "reference engine off: only taku's own systems answer; {}",
            taku_systems::reference::how_to_enable().en()
        ),
    }
    match server.tables.store().listen().await {
        Ok(Some(listener)) => {
            tokio::spawn(live::follow(server.clone(), listener));
        }
        Ok(None) => {}
        Err(e) => return Err(std::io::Error::other(e)),
    }
    let signal = server.clone();
    tokio::spawn(async move {
        shutdown.await;
        signal.stopping.send_replace(true);
    });
    tokio::spawn(evict_idle_tables(server.clone()));
    let app = app(server.clone());
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(server.config.header_timeout)
        .keep_alive(true);
    // Every connection task holds a clone; when all are gone, `recv` says so.
    let (open, mut all_closed) = tokio::sync::mpsc::channel::<()>(1);
    let mut stopping = server.stopping.subscribe();
    let mut failures = 0u32;
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = live::stopped(&mut stopping) => break,
        };
        let (stream, addr) = match accepted {
            Ok(a) => {
                failures = 0;
                a
            }
            Err(e) => {
                // Out of descriptors (EMFILE) and the like: wait for connections to
                // close rather than spin; say so, but not thousands of times a second.
                failures += 1;
                if failures.is_power_of_two() {
                    tracing::warn!(target: "taku::http", error = %e, failures, "accept failed; retrying");
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let Some(seat) = server.connections.admit(addr.ip()) else {
            tracing::debug!(target: "taku::http", client = %addr.ip(), "too many connections; closed");
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let http = http.clone();
        let open = open.clone();
        let mut stopping = server.stopping.subscribe();
        tokio::spawn(async move {
            let _open = open;
            let seat = Arc::new(seat);
            let evicted = seat.evicted.clone();
            let busy = seat.clone();
            let service = hyper::service::service_fn(
                move |mut request: hyper::Request<hyper::body::Incoming>| {
                    request.extensions_mut().insert(ConnectInfo(addr));
                    request
                        .extensions_mut()
                        .insert(limits::ConnectionSeat(busy.clone()));
                    busy.busy(true);
                    let response = app.clone().oneshot(request.map(axum::body::Body::new));
                    let busy = busy.clone();
                    async move {
                        let response = response.await;
                        busy.busy(false);
                        response
                    }
                },
            );
            let connection = http
                .serve_connection(TokioIo::new(wire::Refusing::new(stream)), service)
                .with_upgrades();
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => return,
                // Idle, and its place is wanted by a new connection: closed.
                _ = evicted.notified() => return,
                _ = live::stopped(&mut stopping) => connection.as_mut().graceful_shutdown(),
            }
            let _ = connection.await;
        });
    }
    drop(listener);
    drop(open);
    let deadline = server.config.shutdown_deadline;
    if tokio::time::timeout(deadline, all_closed.recv())
        .await
        .is_err()
    {
        tracing::warn!(target: "taku::http", deadline_secs = deadline.as_secs(), "connections still open at the shutdown deadline; stopping anyway");
    }
    Ok(())
}

/// Every [`Config::idle_eviction`], lets go of the tables nobody used meanwhile
/// ([`Server::evict_idle`]), until shutdown.
async fn evict_idle_tables(server: Arc<Server>) {
    let period = server.config.idle_eviction.max(Duration::from_secs(1));
    let mut stopping = server.stopping.subscribe();
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = live::stopped(&mut stopping) => return,
        }
        let evicted = server.evict_idle();
        if evicted > 0 {
            tracing::info!(target: "taku::tables", evicted, open = server.tables.open_ids().len(), "idle tables left memory");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A3-1: the names a loopback server answers to.
    #[test]
    fn only_loopback_names_addresses_and_listed_hosts_are_allowed() {
        let listed = vec!["table.example".to_string()];
        for host in [
            "localhost",
            "localhost:8080",
            "LOCALHOST.",
            "a.localhost:1",
            "127.0.0.1:8080",
            "[::1]:8080",
            "10.0.0.2",
            "table.example:443",
        ] {
            assert!(host_allowed(host, &listed), "{host}");
        }
        for host in [
            "attacker.example:8080",
            "localhost.attacker.example",
            "127.0.0.1.nip.io",
            "",
            "[::1",
        ] {
            assert!(!host_allowed(host, &listed), "{host}");
        }
    }
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    /// Issue 18: a panicking handler is a JSON 500 with CORS, not a closed connection.
    #[tokio::test]
    async fn a_handler_that_panics_is_answered_json_500() {
        let app = finish(Router::new().route(
            "/boom",
            get(|| async {
                if std::hint::black_box(true) {
                    panic!("boom");
                }
                "never"
            }),
        ));
        let response = app
            .oneshot(
                axum::http::Request::get("/boom")
                    .body(axum::body::Body::empty())
                    .expect("request"),
            )
            .await
            .expect("infallible");
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(response.headers()[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
        let body = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        let value: Value = serde_json::from_slice(&body).expect("JSON");
        assert_eq!(value["ok"], false);
    }
}
