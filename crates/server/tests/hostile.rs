//! Issue 18: the server under hostile load. Each attack found there is replayed here,
//! bounded in count and time, on loopback: damaged files, forged names, hostile headers,
//! slow and piled-up connections.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use taku_server::{Config, Server};
use taku_table::store::Store;
use tower::ServiceExt;

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
