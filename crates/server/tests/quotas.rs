//! Issue 18 items 2 and 3 through the server: who may create tables and how many, how
//! many members a table takes, a member past their computing budget, idle tables leaving
//! memory while watched ones stay. Loopback only; nothing sleeps.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use taku_server::{Config, Server};
use taku_table::store::{Budget, Limits, Store};
use tower::ServiceExt;

const ADMIN: &str = "admin-token-for-tests-0123456789";

fn temp_db(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("taku-quotas-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("taku.db").display().to_string()
}

async fn server(name: &str, config: Config) -> (Arc<Server>, Router) {
    let store = Store::open(&temp_db(name)).await.expect("store");
    let server = Server::new(store, &config);
    (server.clone(), taku_server::app(server))
}

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
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, headers, value)
}

const NEW: &str = r#"{"system":"DiceBot","name":"卓","gm":"gm","invites":2}"#;

async fn create(app: &Router, token: Option<&str>) -> (StatusCode, axum::http::HeaderMap, Value) {
    call(app, "POST", "/api/v1/tables", token, NEW).await
}

/// Item 2: with creation restricted, only the admin token creates tables, through the
/// API and the web form alike; without an admin token nobody does, and the refusal says
/// how the operator opens it.
#[tokio::test]
async fn restricted_creation_takes_the_admin_token_only() {
    let (_, app) = server(
        "restricted",
        Config {
            open_creation: false,
            admin_token: Some(ADMIN.into()),
            ..Config::default()
        },
    )
    .await;
    let (status, _, refused) = create(&app, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    let reason = refused["reason"].as_str().expect("reason");
    assert!(
        // In Japanese, the default when the client names no language (A5-5).
        reason.contains("テーブルの作成が制限") && reason.contains("管理トークン"),
        "{reason}"
    );
    let (status, _, _) = create(&app, Some("not-the-admin-token-0123456789")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _, made) = create(&app, Some(ADMIN)).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    // The web form is held to the same rule.
    let response = app
        .clone()
        .oneshot(
            Request::post("/new")
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .body(Body::from("system=DiceBot&name=t&gm=gm"))
                .expect("request"),
        )
        .await
        .expect("infallible");
    assert_eq!(response.status(), StatusCode::FORBIDDEN);

    let (_, closed) = server(
        "closed",
        Config {
            open_creation: false,
            ..Config::default()
        },
    )
    .await;
    let (status, _, refused) = create(&closed, Some(ADMIN)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(
        refused["reason"]
            .as_str()
            .expect("reason")
            .contains("--open-creation"),
        "{refused}"
    );
}

/// Item 2: one address creates at most `tables_per_hour` tables an hour (429 with
/// Retry-After, in both languages); the admin token is not counted.
#[tokio::test]
async fn tables_created_per_address_are_counted_per_hour() {
    let (_, app) = server(
        "hourly",
        Config {
            tables_per_hour: 2,
            admin_token: Some(ADMIN.into()),
            ..Config::default()
        },
    )
    .await;
    for _ in 0..2 {
        assert_eq!(create(&app, None).await.0, StatusCode::CREATED);
    }
    let (status, headers, refused) = create(&app, None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refused}");
    let retry: u64 = headers[header::RETRY_AFTER]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("seconds");
    assert!(
        (1..=1800).contains(&retry),
        "half an hour at most for one of two: {retry}"
    );
    let reason = refused["reason"].as_str().expect("reason");
    assert!(
        reason.contains("1 時間に 2 件") && !reason.contains("at most 2 tables an hour"),
        "{reason}"
    );
    assert_eq!(create(&app, Some(ADMIN)).await.0, StatusCode::CREATED);
}

/// Item 2: a table takes at most `max_members` members; a join past it is refused in the
/// table's language and its invite stays good for when the GM makes room.
#[tokio::test]
async fn a_full_table_refuses_joins_and_keeps_the_invite() {
    let (_, app) = server(
        "members",
        Config {
            max_members: 2,
            ..Config::default()
        },
    )
    .await;
    let (_, _, made) = create(&app, None).await;
    let id = made["id"].as_str().expect("id");
    let gm = made["token"].as_str().expect("token");
    let invites: Vec<&str> = made["invites"]
        .as_array()
        .expect("invites")
        .iter()
        .map(|i| i["token"].as_str().expect("token"))
        .collect();
    let join = |invite: &str, name: &str| json!({"invite": invite, "name": name}).to_string();
    let path = format!("/api/v1/tables/{id}/join");
    let (status, _, _) = call(&app, "POST", &path, None, &join(invites[0], "alice")).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _, refused) = call(&app, "POST", &path, None, &join(invites[1], "bob")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert!(
        refused["reason"]
            .as_str()
            .expect("reason")
            .contains("上限の 2 人"),
        "{refused}"
    );
    let (status, _, removed) = call(
        &app,
        "DELETE",
        &format!("/api/v1/tables/{id}/members/alice"),
        Some(gm),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{removed}");
    assert_eq!(removed["recorded"], true, "{removed}");
    // Issue 18 (left over): a removed member is no longer a member and does not count
    // toward the cap, so the GM who removed a troll at a full table can seat someone
    // else. Nobody may join under the removed member's name or a look-alike of it, since
    // the whispers and characters it is named in are theirs.
    let (status, _, taken) = call(&app, "POST", &path, None, &join(invites[1], "alice")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{taken}");
    assert!(
        taken["reason"].as_str().expect("reason").contains("退室"),
        "{taken}"
    );
    let (status, _, taken) = call(&app, "POST", &path, None, &join(invites[1], "aIice")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{taken}");
    let (status, _, joined) = call(&app, "POST", &path, None, &join(invites[1], "bob")).await;
    assert_eq!(status, StatusCode::CREATED, "{joined}");
    let (_, _, state) = call(&app, "GET", &format!("/api/v1/tables/{id}"), Some(gm), "").await;
    let members: Vec<&str> = state["members"]
        .as_array()
        .expect("members")
        .iter()
        .map(|m| m["name"].as_str().expect("name"))
        .collect();
    assert_eq!(members, ["bob", "gm"], "{state}");
    // Full again: the GM's own /join is held to the cap too, removed members not counted.
    let (status, _, full) = call(
        &app,
        "POST",
        &format!("/api/v1/tables/{id}/lines"),
        Some(gm),
        r#"{"line":"/join alice"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{full}");
    assert!(
        full["reason"]
            .as_str()
            .expect("reason")
            .contains("上限の 2 人"),
        "{full}"
    );
}

/// Item 3: a member past their computing budget is answered 503 with Retry-After and a
/// reason in the table's language; nothing is appended; other tables are served.
#[tokio::test]
async fn a_member_past_their_budget_is_told_when_to_come_back() {
    let (server, app) = server(
        "budget",
        Config {
            limits: Limits {
                workers: 1,
                budget: Budget {
                    burst: Duration::from_nanos(1),
                    per_second: Duration::from_millis(1),
                },
                ..taku_server::default_limits()
            },
            ..Config::default()
        },
    )
    .await;
    let (_, _, a) = create(&app, None).await;
    let (_, _, b) = create(&app, None).await;
    let line = |id: &Value| format!("/api/v1/tables/{}/lines", id.as_str().expect("id"));
    let (status, _, _) = call(
        &app,
        "POST",
        &line(&a["id"]),
        a["token"].as_str(),
        r#"{"line":"2D6"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, headers, busy) = call(
        &app,
        "POST",
        &line(&a["id"]),
        a["token"].as_str(),
        r#"{"line":"2D6"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{busy}");
    assert!(headers.contains_key(header::RETRY_AFTER));
    let reason = busy["reason"].as_str().expect("reason");
    assert!(
        reason.contains("秒ほど待って"),
        "the table's language: {reason}"
    );
    let head = server
        .tables()
        .read(a["id"].as_str().expect("id"), |t| t.next_seq() - 1)
        .await
        .expect("read");
    assert_eq!(head, 2, "nothing appended");
    let (status, _, _) = call(
        &app,
        "POST",
        &line(&b["id"]),
        b["token"].as_str(),
        r#"{"line":"2D6"}"#,
    )
    .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "another table's GM has their own budget"
    );
}

/// Item 2: idle tables leave memory between one and two sweeps after their last use,
/// except those a live socket watches; an evicted table answers as before.
#[tokio::test]
async fn idle_tables_leave_memory_unless_watched() {
    let (server, app) = server("evict", Config::default()).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(taku_server::serve(
        listener,
        server.clone(),
        std::future::pending(),
    ));
    let (_, _, watched) = create(&app, None).await;
    let (_, _, idle) = create(&app, None).await;
    let (w, i) = (
        watched["id"].as_str().expect("id").to_string(),
        idle["id"].as_str().expect("id").to_string(),
    );
    let url = format!(
        "ws://{addr}/api/v1/tables/{w}/live?token={}",
        watched["token"].as_str().expect("token")
    );
    let (_socket, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .expect("socket");
    assert_eq!(server.evict_idle(), 0, "both were just used");
    assert_eq!(server.evict_idle(), 1, "the idle one goes");
    assert_eq!(server.tables().open_ids(), vec![w.clone()]);
    let (status, _, log) = call(
        &app,
        "GET",
        &format!("/api/v1/tables/{i}/log"),
        idle["token"].as_str(),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{log}");
    assert_eq!(log["events"].as_array().expect("events").len(), 1);
}

/// Attack pass 2, A2-15: with creation open (as on loopback), a page of another site
/// cannot create tables on the user's server — a browser's `Origin` that is not this
/// server, or `Sec-Fetch-Site: cross-site`, is refused before the request is read — and
/// the web pages (the GM page with its token) carry no `Access-Control-Allow-Origin`,
/// while the API keeps it for other front-ends. The admin token still creates from
/// anywhere; requests without those browser headers are not a page's.
#[tokio::test]
async fn another_sites_page_cannot_create_tables_or_read_the_pages() {
    let (_, app) = server(
        "cross-site",
        Config {
            admin_token: Some(ADMIN.into()),
            ..Config::default()
        },
    )
    .await;
    let send = |path: &'static str,
                kind: &'static str,
                body: &'static str,
                extra: Vec<(&'static str, &'static str)>| {
        let app = app.clone();
        async move {
            let mut request = Request::post(path)
                .header(header::HOST, "127.0.0.1:8080")
                .header(header::CONTENT_TYPE, kind);
            for (k, v) in extra {
                request = request.header(k, v);
            }
            app.oneshot(request.body(Body::from(body)).expect("request"))
                .await
                .expect("infallible")
        }
    };
    let form = "system=DiceBot&name=t&gm=gm";
    for headers in [
        vec![("origin", "http://attacker.example")],
        vec![("origin", "null"), ("sec-fetch-site", "cross-site")],
        vec![("sec-fetch-site", "cross-site")],
        vec![("sec-fetch-site", "same-site")],
        vec![("origin", "http://127.0.0.1:8080.attacker.example")],
        // A4-6: a sandboxed frame or a `data:` page, in a browser without Fetch Metadata.
        vec![("origin", "null")],
        // A5-6: an old browser's form post says only where it came from.
        vec![("referer", "http://evil.example/x")],
        vec![("referer", "http://127.0.0.1:8080.evil.example/")],
        vec![("referer", "http://evil.example/?http://127.0.0.1:8080/")],
        vec![("referer", "not a url")],
    ] {
        let page = send(
            "/new",
            "application/x-www-form-urlencoded",
            form,
            headers.clone(),
        )
        .await;
        assert_eq!(page.status(), StatusCode::FORBIDDEN, "{headers:?}");
        let api = send("/api/v1/tables", "application/json", NEW, headers.clone()).await;
        assert_eq!(api.status(), StatusCode::FORBIDDEN, "{headers:?}");
    }
    // This server's own page, and a client that is no browser page, create.
    let own = send(
        "/new",
        "application/x-www-form-urlencoded",
        form,
        vec![
            ("origin", "http://127.0.0.1:8080"),
            ("sec-fetch-site", "same-origin"),
        ],
    )
    .await;
    assert_eq!(own.status(), StatusCode::OK);
    assert!(
        own.headers()
            .get(header::ACCESS_CONTROL_ALLOW_ORIGIN)
            .is_none(),
        "the GM page is for this server's pages only"
    );
    // A browser that says `Sec-Fetch-Site: same-origin` is believed whatever its Origin.
    let null = send(
        "/new",
        "application/x-www-form-urlencoded",
        form,
        vec![("origin", "null"), ("sec-fetch-site", "same-origin")],
    )
    .await;
    assert_eq!(null.status(), StatusCode::OK);
    // A Referer of this server's own page (an old browser's post from our form).
    let referred = send(
        "/new",
        "application/x-www-form-urlencoded",
        form,
        vec![("referer", "http://127.0.0.1:8080/?lang=en")],
    )
    .await;
    assert_eq!(referred.status(), StatusCode::OK);
    let plain = send("/api/v1/tables", "application/json", NEW, vec![]).await;
    assert_eq!(plain.status(), StatusCode::CREATED);
    assert_eq!(plain.headers()[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
    let admin = send(
        "/api/v1/tables",
        "application/json",
        NEW,
        vec![
            ("origin", "http://attacker.example"),
            ("authorization", "Bearer admin-token-for-tests-0123456789"),
        ],
    )
    .await;
    assert_eq!(admin.status(), StatusCode::CREATED);
}
