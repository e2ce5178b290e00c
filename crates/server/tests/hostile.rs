//! Issue 18: the server under hostile load. Each attack found there is replayed here,
//! bounded in count and time, on loopback: damaged files, forged names, hostile headers,
//! slow and piled-up connections.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use futures_util::StreamExt;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use taku_server::{Config, Server};
use taku_table::store::{Store, StoreError};
use tower::ServiceExt;

/// A failure limit for waits (never an assertion on time).
const DEADLINE: Duration = Duration::from_secs(10);

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("taku-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

async fn app_on(db: &str) -> Router {
    let store = Store::open(db).await.expect("store");
    let server: Arc<Server> = Server::new(store, &Config::default());
    taku_server::app(server)
}

/// One request; the status, the headers and the body as JSON.
async fn call(
    app: &Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> (StatusCode, axum::http::HeaderMap, Value) {
    let mut request = Request::builder().method(method).uri(path);
    if let Some(t) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::from(body.to_string())).expect("request"))
        .await
        .expect("infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {bytes:?}"));
    (status, headers, value)
}

/// A new table; its id and the GM's token, and its spare invites.
async fn new_table(app: &Router, invites: u32) -> (String, String, Vec<String>) {
    let (status, _, created) = call(
        app,
        "POST",
        "/api/v1/tables",
        None,
        &json!({"system": "DiceBot", "name": "卓", "gm": "gm", "invites": invites}).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let invites = created["invites"]
        .as_array()
        .expect("invites")
        .iter()
        .map(|i| i["token"].as_str().expect("token").to_string())
        .collect();
    (
        created["id"].as_str().expect("id").to_string(),
        created["token"].as_str().expect("token").to_string(),
        invites,
    )
}

/// Item 5: a damaged row is a JSON 500 naming the table and the event, on every route
/// that reads the table, and the table is not appended to.
#[tokio::test]
async fn a_damaged_row_is_a_json_500_naming_table_and_seq() {
    use sqlx::Executor;
    let db = temp_dir("damaged").join("taku.db").display().to_string();
    let app = app_on(&db).await;
    let (id, gm, _) = new_table(&app, 0).await;
    let (status, _, _) = call(
        &app,
        "POST",
        &format!("/api/v1/tables/{id}/lines"),
        Some(&gm),
        r#"{"line":"hello"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    drop(app);
    let mut c = <sqlx::SqliteConnection as sqlx::Connection>::connect(&format!("sqlite://{db}"))
        .await
        .expect("sqlite");
    c.execute(sqlx::AssertSqlSafe(format!(
        "UPDATE events SET body = CAST(x'ff' AS TEXT) WHERE table_id = '{id}' AND seq = 2"
    )))
    .await
    .expect("damage");
    drop(c);
    let app = app_on(&db).await;
    for (method, path, body) in [
        ("GET", format!("/api/v1/tables/{id}/log"), ""),
        ("GET", format!("/api/v1/tables/{id}"), ""),
        (
            "POST",
            format!("/api/v1/tables/{id}/lines"),
            r#"{"line":"more"}"#,
        ),
    ] {
        let (status, headers, value) = call(&app, method, &path, Some(&gm), body).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{path}: {value}");
        assert_eq!(headers[header::CONTENT_TYPE], "application/json");
        let reason = value["reason"].as_str().expect("reason");
        assert!(
            reason.contains(&format!("table '{id}' event #2 is damaged")),
            "{reason}"
        );
    }
}

/// A server on a free loopback port over a fresh SQLite file; its address and state.
async fn serve(name: &str, config: Config) -> (std::net::SocketAddr, Arc<Server>, Router) {
    let db = temp_dir(name).join("taku.db").display().to_string();
    let store = Store::open(&db).await.expect("store");
    let server = Server::new(store, &config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(taku_server::serve(
        listener,
        server.clone(),
        std::future::pending(),
    ));
    (addr, server.clone(), taku_server::app(server))
}

async fn join(app: &Router, id: &str, invite: &str, name: &str) -> String {
    let (status, _, joined) = call(
        app,
        "POST",
        &format!("/api/v1/tables/{id}/join"),
        None,
        &json!({"invite": invite, "name": name}).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{joined}");
    joined["token"].as_str().expect("token").to_string()
}

/// Item 7: a browser's preflight for the table API (with `Authorization`) is allowed, and
/// JSON is never sniffed as something else.
#[tokio::test]
async fn cors_preflight_allows_authorization_and_json_is_nosniff() {
    let db = temp_dir("preflight").join("taku.db").display().to_string();
    let app = app_on(&db).await;
    let (id, gm, _) = new_table(&app, 0).await;
    let response = app
        .clone()
        .oneshot(
            Request::builder()
                .method("OPTIONS")
                .uri(format!("/api/v1/tables/{id}/lines"))
                .header(header::ORIGIN, "https://vtt.example")
                .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
                .header(
                    header::ACCESS_CONTROL_REQUEST_HEADERS,
                    "authorization, content-type",
                )
                .body(Body::empty())
                .expect("request"),
        )
        .await
        .expect("infallible");
    assert!(response.status().is_success(), "{}", response.status());
    let h = response.headers();
    assert_eq!(h[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
    let allowed = h[header::ACCESS_CONTROL_ALLOW_HEADERS]
        .to_str()
        .expect("ascii")
        .to_ascii_lowercase();
    assert!(allowed.contains("authorization"), "{allowed}");
    let methods = h[header::ACCESS_CONTROL_ALLOW_METHODS]
        .to_str()
        .expect("ascii");
    assert!(
        methods.contains("POST") && methods.contains("DELETE"),
        "{methods}"
    );
    for (method, path) in [
        ("GET", format!("/api/v1/tables/{id}")),
        ("GET", "/v2/version".to_string()),
        ("GET", "/nowhere".to_string()),
    ] {
        let (_, headers, _) = call(&app, method, &path, Some(&gm), "").await;
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{path}");
    }
}

/// Item 7: the `Bearer` scheme is case-insensitive.
#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let db = temp_dir("bearer").join("taku.db").display().to_string();
    let app = app_on(&db).await;
    let (id, gm, _) = new_table(&app, 0).await;
    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
        let response = app
            .clone()
            .oneshot(
                Request::get(format!("/api/v1/tables/{id}"))
                    .header(header::AUTHORIZATION, format!("{scheme} {gm}"))
                    .body(Body::empty())
                    .expect("request"),
            )
            .await
            .expect("infallible");
        assert_eq!(response.status(), StatusCode::OK, "{scheme}");
    }
    let response = app
        .clone()
        .oneshot(
            Request::get(format!("/api/v1/tables/{id}"))
                .header(header::AUTHORIZATION, format!("Basic {gm}"))
                .body(Body::empty())
                .expect("request"),
        )
        .await
        .expect("infallible");
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

/// Item 7: the GM removes a member: their tokens stop working and their live sockets
/// close; the GM revokes unused invites; players may do neither.
#[tokio::test]
async fn the_gm_removes_a_member_and_their_sockets_close() {
    let (addr, _server, app) = serve(
        "remove",
        Config {
            rate_limit: 0,
            ..Config::default()
        },
    )
    .await;
    let (id, gm, invites) = new_table(&app, 3).await;
    let alice = join(&app, &id, &invites[0], "alice").await;
    let bob = join(&app, &id, &invites[1], "bob").await;
    let url = format!("ws://{addr}/api/v1/tables/{id}/live?token={alice}");
    let (mut socket, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .expect("socket");

    let (status, _, _) = call(
        &app,
        "DELETE",
        &format!("/api/v1/tables/{id}/members/alice"),
        Some(&bob),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _, removed) = call(
        &app,
        "DELETE",
        &format!("/api/v1/tables/{id}/members/alice"),
        Some(&gm),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{removed}");
    assert_eq!(removed["revoked"], 1);
    assert_eq!(removed["sockets_closed"], 1);
    let closed = tokio::time::timeout(DEADLINE, async {
        loop {
            match socket.next().await {
                None | Some(Err(_)) => break,
                Some(Ok(m)) if m.is_close() => break,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the removed member's socket stays open");
    let (status, _, _) = call(
        &app,
        "GET",
        &format!("/api/v1/tables/{id}"),
        Some(&alice),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _, _) = call(
        &app,
        "DELETE",
        &format!("/api/v1/tables/{id}/members/nobody"),
        Some(&gm),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, _, revoked) = call(
        &app,
        "DELETE",
        &format!("/api/v1/tables/{id}/invites"),
        Some(&gm),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(revoked["revoked"], 1);
    let (status, _, _) = call(
        &app,
        "POST",
        &format!("/api/v1/tables/{id}/join"),
        None,
        &json!({"invite": invites[2], "name": "carol"}).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

/// Item 7: an empty (0-byte) database file is refused, not made a new database.
#[tokio::test]
async fn an_empty_database_file_is_not_silently_reinitialised() {
    let path = temp_dir("empty").join("taku.db");
    std::fs::write(&path, b"").expect("empty file");
    let err = Store::open(&path.display().to_string())
        .await
        .expect_err("empty file");
    assert!(matches!(err, StoreError::EmptyFile(_)), "{err}");
    assert!(err.to_string().contains("0 bytes"), "{err}");
    assert_eq!(std::fs::metadata(&path).expect("still there").len(), 0);
}

/// Item 6: no name can display as another's: full-width, zero-width and bidi-override
/// spellings of `gm` are refused (with the plain spelling suggested), at creation and
/// at joining.
#[tokio::test]
async fn names_that_would_display_as_another_are_refused() {
    let db = temp_dir("names").join("taku.db").display().to_string();
    let app = app_on(&db).await;
    let (id, _gm, invites) = new_table(&app, 1).await;
    for forged in [
        "ｇｍ",
        "gm\u{200b}",
        "g\u{202e}m",
        "\u{2066}gm",
        "gm\u{fe0f}",
        "𝐠𝐦",
        "ⓖⓜ",
    ] {
        let (status, _, refused) = call(
            &app,
            "POST",
            &format!("/api/v1/tables/{id}/join"),
            None,
            &json!({"invite": invites[0], "name": forged}).to_string(),
        )
        .await;
        assert!(status.is_client_error(), "{forged:?}: {status} {refused}");
        let (status, _, refused) = call(
            &app,
            "POST",
            "/api/v1/tables",
            None,
            &json!({"system": "DiceBot", "name": "t", "gm": forged}).to_string(),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{forged:?}: {refused}");
    }
    let (_, _, refused) = call(
        &app,
        "POST",
        &format!("/api/v1/tables/{id}/join"),
        None,
        &json!({"invite": invites[0], "name": "ｇｍ"}).to_string(),
    )
    .await;
    assert!(
        refused["reason"]
            .as_str()
            .is_some_and(|r| r.contains("'gm'")),
        "the plain spelling is suggested: {refused}"
    );
    let (status, _, _) = call(
        &app,
        "POST",
        "/api/v1/tables",
        None,
        &json!({"system": "DiceBot", "name": "卓\u{202e}名", "gm": "gm"}).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // The invite is still good for an honest name.
    assert!(!join(&app, &id, &invites[0], "ミナ").await.is_empty());
}

/// Item 6 (the rest): names whose NFKC form differs in a letter (half-width kana,
/// ligatures, Roman numerals), names mixing Latin with Cyrillic or Greek, and names
/// that look like another member's or character's (`расо` in Cyrillic for `paco`, `GM`,
/// 口イ for ロイ) are refused, saying which name they look like; the invite stays good.
/// Both ways in: the API's join and a GM's `/join` line.
#[tokio::test]
async fn look_alike_names_are_refused_and_say_whom_they_look_like() {
    let db = temp_dir("lookalike").join("taku.db").display().to_string();
    let app = app_on(&db).await;
    let (id, gm, invites) = new_table(&app, 3).await;
    assert!(!join(&app, &id, &invites[0], "paco").await.is_empty());
    let lines = format!("/api/v1/tables/{id}/lines");
    let line = |l: &str| json!({ "line": l }).to_string();
    // Reasons read in English.
    call(&app, "POST", &lines, Some(&gm), &line("/lang en")).await;
    for (name, says) in [
        ("ｶﾞﾙ", "'ガル'"),
        ("ﬁona", "'fiona'"),
        ("Ⅳ", "'IV'"),
        ("g\u{43c}", "Latin and Cyrillic"),
        ("g\u{3bf}", "Latin and Greek"),
        // All Cyrillic: р а с о.
        (
            "\u{440}\u{430}\u{441}\u{43e}",
            "looks too much like the member 'paco'",
        ),
        ("PAC0", "'paco'"),
        ("GM", "'gm'"),
        // Attack pass 2, A2-6: case and combining marks.
        ("PACO", "'paco'"),
        ("g\u{335}m", "combining mark"),
        ("g\u{332}m", "combining mark"),
        ("gm\u{489}", "combining mark"),
        ("gm\u{307}", "'gm'"),
        ("g\u{1E41}", "'gm'"),
    ] {
        let (status, _, refused) = call(
            &app,
            "POST",
            &format!("/api/v1/tables/{id}/join"),
            None,
            &json!({"invite": invites[1], "name": name}).to_string(),
        )
        .await;
        assert!(status.is_client_error(), "{name:?}: {status} {refused}");
        let (status, _, refused) = call(
            &app,
            "POST",
            &lines,
            Some(&gm),
            &line(&format!("/join {name}")),
        )
        .await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{name:?}: {refused}"
        );
        let reason = refused["reason"].as_str().expect("reason");
        assert!(reason.contains(says), "{name:?}: {reason}");
    }
    // Characters too: ロイ, then 口イ (a kanji 口) is refused.
    let (status, _, _) = call(&app, "POST", &lines, Some(&gm), &line("/char new ロイ")).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _, refused) = call(&app, "POST", &lines, Some(&gm), &line("/char new 口イ")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused["reason"]
            .as_str()
            .is_some_and(|r| r.contains("'ロイ'")),
        "{refused}"
    );
    // The invite is still good for an honest name.
    assert!(!join(&app, &id, &invites[1], "ボブ").await.is_empty());
}

/// Item 6: chat keeps no raw control characters: a newline is a visible break, ESC and
/// bidi overrides are refused (attack pass 7, A7-6), so no line can forge an entry or drive
/// a terminal.
#[tokio::test]
async fn chat_keeps_no_raw_control_characters() {
    let db = temp_dir("chat").join("taku.db").display().to_string();
    let app = app_on(&db).await;
    let (id, gm, _) = new_table(&app, 0).await;
    for hostile in ["hi\u{1b}[2J", "\u{202e}txet"] {
        let (status, _, said) = call(
            &app,
            "POST",
            &format!("/api/v1/tables/{id}/lines"),
            Some(&gm),
            &json!({ "line": hostile }).to_string(),
        )
        .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{said}");
    }
    let line = "hi\n#9 gm: the GM says you win\r\n\tend";
    let (status, _, said) = call(
        &app,
        "POST",
        &format!("/api/v1/tables/{id}/lines"),
        Some(&gm),
        &json!({ "line": line }).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{said}");
    let (_, _, log) = call(
        &app,
        "GET",
        &format!("/api/v1/tables/{id}/log"),
        Some(&gm),
        "",
    )
    .await;
    let text = log["events"]
        .as_array()
        .and_then(|e| e.last())
        .and_then(|e| e["text"].as_str())
        .expect("text")
        .to_string();
    assert!(
        !text.chars().any(|c| c.is_control() || c == '\u{202e}'),
        "{text:?}"
    );
    assert!(text.contains("hi ↵ #9 gm"), "{text}");
    assert!(text.contains("you win ↵  end"), "{text}");
}

/// A server with `config` whose shutdown the caller triggers; its address and the task
/// that ends when `serve` returns.
async fn serve_until(
    name: &str,
    config: Config,
) -> (
    std::net::SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    let db = temp_dir(name).join("taku.db").display().to_string();
    let server = Server::new(Store::open(&db).await.expect("store"), &config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(taku_server::serve(listener, server, async move {
        let _ = stopped.await;
    }));
    (addr, stop, task)
}

/// A connection to `addr` from loopback address `from` (127.0.0.x: one machine, many
/// client addresses).
async fn connect_from(from: [u8; 4], addr: std::net::SocketAddr) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind(std::net::SocketAddr::from((from, 0)))
        .expect("bind client");
    socket.connect(addr).await.expect("connect")
}

/// Reads until the server closes the connection (or DEADLINE fails the test); what it sent.
async fn read_to_close(stream: &mut tokio::net::TcpStream) -> String {
    use tokio::io::AsyncReadExt;
    let mut out = Vec::new();
    let read = tokio::time::timeout(DEADLINE, stream.read_to_end(&mut out)).await;
    assert!(read.is_ok(), "the server kept the connection open");
    String::from_utf8_lossy(&out).into_owned()
}

/// One `GET /healthz` on a fresh connection from 127.0.0.1; its status line.
async fn healthz(addr: std::net::SocketAddr) -> String {
    use tokio::io::AsyncWriteExt;
    let mut stream = connect_from([127, 0, 0, 1], addr).await;
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("write");
    read_to_close(&mut stream)
        .await
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Item 2: headers sent too slowly, and a kept-alive connection left idle, are closed
/// after the header timeout.
#[tokio::test]
async fn slow_headers_and_idle_connections_are_closed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let config = Config {
        header_timeout: Duration::from_millis(300),
        ..Config::default()
    };
    let (addr, _stop, _task) = serve_until("slow-headers", config).await;
    let mut slow = connect_from([127, 0, 0, 1], addr).await;
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    read_to_close(&mut slow).await;

    let mut idle = connect_from([127, 0, 0, 1], addr).await;
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let mut first = [0u8; 12];
    idle.read_exact(&mut first).await.expect("a response");
    assert_eq!(&first, b"HTTP/1.1 200");
    read_to_close(&mut idle).await;
}

/// Item 2: a body announced larger than the limit is refused before it is sent.
#[tokio::test]
async fn a_body_announced_too_large_is_refused_at_once() {
    use tokio::io::AsyncWriteExt;
    let (addr, _stop, _task) = serve_until("too-large", Config::default()).await;
    let mut stream = connect_from([127, 0, 0, 1], addr).await;
    stream
        .write_all(
            b"POST /api/v1/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{"
                .as_slice(),
        )
        .await
        .expect("write");
    let response = read_to_close(&mut stream).await;
    assert!(response.starts_with("HTTP/1.1 413"), "{response}");
    assert!(response.contains("\"ok\":false"), "{response}");
}

/// Item 2: connections past the per-address cap are closed at once, and other clients
/// are still answered.
#[tokio::test]
async fn connections_past_the_cap_are_closed_and_others_still_served() {
    use tokio::io::AsyncWriteExt;
    let config = Config {
        max_connections_per_address: 4,
        ..Config::default()
    };
    let (addr, _stop, _task) = serve_until("caps", config).await;
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut s = connect_from([127, 0, 0, 2], addr).await;
        s.write_all(b"GET / HTTP/1.1\r\n").await.expect("write");
        held.push(s);
    }
    for _ in 0..4 {
        let mut surplus = connect_from([127, 0, 0, 2], addr).await;
        assert_eq!(read_to_close(&mut surplus).await, "", "closed unanswered");
    }
    assert_eq!(healthz(addr).await, "HTTP/1.1 200 OK");
    drop(held);
}

/// Item 2: after shutdown begins, a client holding a request open cannot keep the
/// server from returning past its deadline.
#[tokio::test]
async fn shutdown_has_a_deadline_slow_clients_cannot_extend() {
    use tokio::io::AsyncWriteExt;
    let config = Config {
        shutdown_deadline: Duration::from_millis(200),
        ..Config::default()
    };
    let (addr, stop, task) = serve_until("deadline", config).await;
    let mut slow = connect_from([127, 0, 0, 1], addr).await;
    slow.write_all(b"POST /api/v1/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"sys")
        .await
        .expect("write");
    // The request is in (its headers parsed) once the server answers another one.
    assert_eq!(healthz(addr).await, "HTTP/1.1 200 OK");
    stop.send(()).expect("stop");
    let stopped = tokio::time::timeout(DEADLINE, task).await;
    assert!(
        matches!(stopped, Ok(Ok(Ok(())))),
        "serve did not return: {stopped:?}"
    );
    drop(slow);
}

/// Item 1: a long history reaches a socket whole and in order (in bounded pages), a
/// member's sockets are capped, and appends go through while sockets replay.
#[tokio::test]
async fn history_streams_in_pages_and_sockets_per_member_are_capped() {
    let (addr, server, app) = serve(
        "pages",
        Config {
            rate_limit: 0,
            ..Config::default()
        },
    )
    .await;
    let (id, gm, _) = new_table(&app, 0).await;
    for i in 0..300 {
        server
            .tables()
            .exec(&id, "gm", &format!("line {i}"), None)
            .await
            .expect("store")
            .expect("line");
    }
    let url = format!("ws://{addr}/api/v1/tables/{id}/live?token={gm}&after=0");
    let mut sockets = Vec::new();
    for _ in 0..taku_server::live::MAX_SOCKETS_PER_MEMBER {
        let (socket, _) = tokio_tungstenite::connect_async(url.as_str())
            .await
            .expect("socket");
        sockets.push(socket);
    }
    match tokio_tungstenite::connect_async(url.as_str()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS)
        }
        other => panic!(
            "a socket past the cap: {:?}",
            other.map(|(_, r)| r.status())
        ),
    }
    // An append while eight sockets replay 301 entries each.
    let (status, _, _) = tokio::time::timeout(
        DEADLINE,
        call(
            &app,
            "POST",
            &format!("/api/v1/tables/{id}/lines"),
            Some(&gm),
            r#"{"line":"during"}"#,
        ),
    )
    .await
    .expect("the append waited on readers");
    assert_eq!(status, StatusCode::OK);
    let mut first = sockets.remove(0);
    let seqs = tokio::time::timeout(DEADLINE, async {
        let mut seqs = Vec::new();
        while seqs.len() < 302 {
            match first.next().await {
                Some(Ok(m)) if m.is_text() => {
                    let v: Value = serde_json::from_str(m.to_text().expect("text")).expect("json");
                    seqs.push(v["seq"].as_u64().expect("seq"));
                }
                Some(Ok(_)) => {}
                other => panic!("socket ended: {other:?}"),
            }
        }
        seqs
    })
    .await
    .expect("the history arrives");
    assert_eq!(seqs, (1..=302).collect::<Vec<u64>>());
    let _ = first.close(None).await;
}

/// Item 3: behind a trusted proxy (`--trusted-proxy`), each client keeps its own rate
/// limit; an untrusted peer's `X-Forwarded-For` changes nothing.
#[tokio::test]
async fn a_trusted_proxy_keeps_rate_limits_per_client() {
    use axum::extract::ConnectInfo;
    let db = temp_dir("proxy").join("taku.db").display().to_string();
    let config = Config {
        rate_limit: 1,
        trusted_proxies: vec!["127.0.0.1/32".parse().expect("cidr")],
        ..Config::default()
    };
    let app = taku_server::app(Server::new(Store::open(&db).await.expect("store"), &config));
    let status = |peer: [u8; 4], forwarded: &'static str| {
        let app = app.clone();
        async move {
            let mut request = Request::get("/v2/version")
                .header("x-forwarded-for", forwarded)
                .body(Body::empty())
                .expect("request");
            request
                .extensions_mut()
                .insert(ConnectInfo(std::net::SocketAddr::from((peer, 40000))));
            app.oneshot(request).await.expect("infallible").status()
        }
    };
    // The burst is twice the rate: two each.
    for _ in 0..2 {
        assert_eq!(status([127, 0, 0, 1], "203.0.113.1").await, StatusCode::OK);
    }
    assert_eq!(
        status([127, 0, 0, 1], "203.0.113.1").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(status([127, 0, 0, 1], "203.0.113.2").await, StatusCode::OK);
    // An untrusted peer is limited as itself, whatever it claims.
    for claimed in ["198.51.100.1", "198.51.100.2"] {
        assert_eq!(status([127, 0, 0, 9], claimed).await, StatusCode::OK);
    }
    assert_eq!(
        status([127, 0, 0, 9], "198.51.100.3").await,
        StatusCode::TOO_MANY_REQUESTS
    );
}

/// Issue 18 (left over): an export no longer copies the whole log under the table's lock.
/// It copies pages ([`taku_server::web::log_in_pages`]), each an excerpt of at most the
/// page's size taken under the lock on its own, so an append waits for one page's copy at
/// most; rendered from those pages, the export is exactly the whole table's, for every
/// member (a secret roll revealed pages later, whispers, an undo whose target is on an
/// earlier page), and a non-member (or a member removed meanwhile) gets no page.
#[tokio::test]
async fn exports_are_copied_in_pages_and_render_as_the_whole_log() {
    use taku_server::web::{log_in_pages, page};
    use taku_table::store::Tables;
    use taku_table::{Entropy, Table};
    let db = temp_dir("export-pages")
        .join("taku.db")
        .display()
        .to_string();
    let tables =
        Tables::new(Store::open(&db).await.expect("store")).with_entropy(Entropy::seeded([7; 32]));
    let table = Table::create("DiceBot", "卓", "gm", [7; 32]).expect("table");
    let id = tables.create(table).await.expect("create");
    let run = |who: &'static str, line: String| {
        let (tables, id) = (&tables, &id);
        async move {
            tables
                .exec(id, who, &line, None)
                .await
                .expect("store")
                .unwrap_or_else(|r| panic!("{line}: {}", r.render(taku_dice::Lang::En)));
        }
    };
    for line in ["/join alice", "/join bob", "/join sam as spectator"] {
        run("gm", line.into()).await;
    }
    run("alice", "S2D6 こっそり".into()).await; // #5, revealed at the end
    run("alice", "/char new ミナ".into()).await;
    run("alice", "/char set ミナ HP 3".into()).await; // undone at the end
    for i in 0..120 {
        match i % 3 {
            0 => run("alice", format!("/w bob 内緒 {i}")).await,
            1 => run("bob", format!("2D6 {i}")).await,
            _ => run("gm", format!("雑談 {i}")).await,
        }
    }
    run("alice", "/undo #7".into()).await;
    run("alice", "/reveal 5".into()).await;
    run("gm", "S1D6".into()).await;
    let whole = tables
        .read(&id, |t| t.excerpt(0..t.events().len()))
        .await
        .expect("read");
    let n = whole.events().len();
    for size in [1, 7, 64, 10_000] {
        for who in ["gm", "alice", "bob", "sam"] {
            let pages = log_in_pages(&tables, &id, who, size)
                .await
                .expect("pages")
                .expect("a member");
            assert!(
                pages.iter().all(|p| p.events().len() <= size),
                "page {size}"
            );
            let seqs: Vec<u64> = pages
                .iter()
                .flat_map(|p| p.events().iter().map(|e| e.seq))
                .collect();
            assert_eq!(seqs, (1..=n as u64).collect::<Vec<_>>(), "page {size}");
            assert_eq!(
                page::export_pages(&pages, who).into_string(),
                page::export(&whole, who).into_string(),
                "{who}, pages of {size}"
            );
        }
    }
    // The secret roll and the whispers reached the export only of those who may see them.
    let sam = page::export(&whole, "sam").into_string();
    assert!(!sam.contains("内緒"), "a whisper reached the spectator");
    assert!(
        log_in_pages(&tables, &id, "mallory", 7)
            .await
            .expect("pages")
            .is_none()
    );
}

/// Issue 18 (attack pass 7, A7-4): requests hyper's parser cannot read — a URI over its
/// limit (414), too many headers (431), malformed heads (400) — are answered with a JSON
/// refusal saying what is wrong and what is right, in the client's language as far as the
/// request shows it, and the connection closes; hyper alone sends these with no body.
#[tokio::test]
async fn unreadable_requests_get_a_json_refusal_in_the_clients_language() {
    use tokio::io::AsyncWriteExt;
    let (addr, _stop, _task) = serve_until("unreadable", Config::default()).await;
    let long_uri = format!(
        "GET /v2/game_system?lang=en&x={} HTTP/1.1\r\nHost: x\r\n\r\n",
        "A".repeat(70_000)
    );
    let many_headers = |accept: &str| {
        let mut head = format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{accept}");
        for i in 0..200 {
            head.push_str(&format!("X-H{i}: v\r\n"));
        }
        head + "\r\n"
    };
    let cases: Vec<(String, &str, &str)> = vec![
        (long_uri, "414", "the URL is too long"),
        (
            "GET /healthz?x=1 HTTP/1.1\r\nHost: x\r\nX: ".to_string() + &"A".repeat(500_000),
            "431",
            "ヘッダーが多すぎるか大きすぎて",
        ),
        (many_headers(""), "431", "ヘッダーは 100 個まで"),
        (
            many_headers("Accept-Language: en-US\r\n"),
            "431",
            "at most 100 headers",
        ),
        (
            "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"
                .to_string(),
            "400",
            "HTTP/1.1 のリクエストとして読めません",
        ),
        (
            "G\0T /healthz HTTP/1.1\r\nAccept-Language: en\r\n\r\n".to_string(),
            "400",
            "cannot be read as HTTP/1.1",
        ),
        (
            "GET /healthz HTTP/1.1\r\nHo st: x\r\n\r\n".to_string(),
            "400",
            "「名前: 値」",
        ),
    ];
    for (request, status, says) in cases {
        let mut stream = connect_from([127, 0, 0, 1], addr).await;
        // The server may answer (and close) before all of an over-long request is sent.
        let _ = stream.write_all(request.as_bytes()).await;
        let response = read_to_close(&mut stream).await;
        let (head, body) = response.split_once("\r\n\r\n").expect("a whole answer");
        assert!(
            head.starts_with(&format!("HTTP/1.1 {status} ")),
            "{response}"
        );
        assert!(head.contains("content-type: application/json"), "{head}");
        assert!(head.contains("connection: close"), "{head}");
        let body: serde_json::Value = serde_json::from_str(body).expect("a JSON body");
        assert_eq!(body["ok"], false, "{body}");
        let reason = body["reason"].as_str().expect("a reason");
        assert!(reason.contains(says), "{status}: {reason}");
    }
    // Readable requests are answered as before on the same server.
    assert_eq!(healthz(addr).await, "HTTP/1.1 200 OK");
}

/// Attack pass 8, A8-7: a body over the limit is refused in the client's language, whether
/// its length is announced or it is sent chunked.
#[tokio::test]
async fn a_body_too_large_is_refused_in_the_clients_language() {
    use tokio::io::AsyncWriteExt;
    let (addr, _stop, _task) = serve_until("too-large-lang", Config::default()).await;
    let big = "a".repeat(70_000);
    let chunked = format!("{:x}\r\n{big}\r\n0\r\n\r\n", big.len());
    for (path, framing, body) in [
        (
            "/v2/original_table?lang=en",
            "Content-Length: 70000\r\n",
            big.as_str(),
        ),
        (
            "/api/v1/tables",
            "Content-Length: 70000\r\nAccept-Language: en\r\n",
            big.as_str(),
        ),
        (
            "/v2/original_table?lang=en",
            "Transfer-Encoding: chunked\r\n",
            chunked.as_str(),
        ),
        (
            "/api/v1/tables",
            "Transfer-Encoding: chunked\r\nAccept-Language: en\r\n",
            chunked.as_str(),
        ),
    ] {
        let mut stream = connect_from([127, 0, 0, 1], addr).await;
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nConnection: close\r\n{framing}\r\n"
        );
        let _ = stream.write_all(head.as_bytes()).await;
        let _ = stream.write_all(body.as_bytes()).await;
        let response = read_to_close(&mut stream).await;
        assert!(
            response.starts_with("HTTP/1.1 413"),
            "{path} {framing}: {response}"
        );
        assert!(
            response.contains("request body too large"),
            "{path} {framing}: {response}"
        );
    }
}
