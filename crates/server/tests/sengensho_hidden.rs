//! SG-6 (seed 002, l.65 「類型は最初は秘匿情報であり」): an NPC's hidden types reach no
//! player on any path the server offers: the API's log and state, the live socket (its
//! history and a new entry), and both exports. The GM sees them on the same paths, so
//! each check can fail.

use axum::body::Body;
use axum::http::{Request, header};
use futures_util::StreamExt;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use taku_server::{Config, Server};
use taku_table::store::Store;
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

/// 影's types, chosen hidden; no PC holds them, so a player seeing one of them beside
/// 影 has learnt a secret.
const HIDDEN: [&str; 3] = ["例・策士", "例・旅人", "例・芸術家"];

async fn call(
    server: &Arc<Server>,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> (u16, String) {
    let mut request = Request::builder().method(method).uri(path);
    if let Some(t) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let response = taku_server::app(server.clone())
        .oneshot(request.body(Body::from(body.to_string())).expect("request"))
        .await
        .expect("infallible");
    let status = response.status().as_u16();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

async fn json_call(
    server: &Arc<Server>,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> Value {
    let (status, text) = call(server, method, path, token, body.clone()).await;
    assert!(status < 300, "{method} {path} {body}: {status} {text}");
    serde_json::from_str(&text).expect("json")
}

/// Whether any entry's text names 影 beside one of its hidden types.
fn leaks(entries: &[String]) -> Option<String> {
    entries
        .iter()
        .find(|e| e.contains('影') && HIDDEN.iter().any(|t| e.contains(t)))
        .cloned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_npcs_hidden_types_stay_hidden_on_every_server_path() {
    let dir = std::env::temp_dir().join(format!("taku-sg-hidden-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = Store::open(&dir.join("taku.db").display().to_string())
        .await
        .expect("store");
    let server = Server::new(
        store,
        &Config {
            rate_limit: 0,
            ..Config::default()
        },
    );
    let created = json_call(
        &server,
        "POST",
        "/api/v1/tables",
        None,
        json!({"system": "Sengensyou", "name": "sg", "gm": "gm", "invites": 2}),
    )
    .await;
    let id = created["id"].as_str().expect("id").to_string();
    let gm = created["token"].as_str().expect("token").to_string();
    let mut players = Vec::new();
    for (name, invite) in ["alice", "bob"]
        .iter()
        .zip(created["invites"].as_array().expect("invites"))
    {
        let joined = json_call(
            &server,
            "POST",
            &format!("/api/v1/tables/{id}/join"),
            None,
            json!({"invite": invite["token"], "name": name}),
        )
        .await;
        players.push(joined["token"].as_str().expect("token").to_string());
    }
    let line = |token: String, line: &'static str| {
        let server = server.clone();
        let id = id.clone();
        async move {
            json_call(
                &server,
                "POST",
                &format!("/api/v1/tables/{id}/lines"),
                Some(&token),
                json!({ "line": line }),
            )
            .await
        }
    };
    line(players[0].clone(), "/char new ミナ").await;
    for l in [
        "/sg types example",
        "/char new 影",
        "/char new 老人",
        "/sg choose 影 例・策士 例・旅人 例・芸術家",
        "/sg bond 影 例・旅人 ミナ",
        "/sg preset 影 例・策士 老人 3",
        "/sg disguise 影 +4",
    ] {
        line(gm.clone(), l).await;
    }
    // The live socket of bob, opened now: its history, then a new entry.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(taku_server::serve(listener, server.clone(), async move {
        let _ = stopped.await;
    }));
    let live = |token: String| {
        let id = id.clone();
        async move {
            let url = format!("ws://{addr}/api/v1/tables/{id}/live?token={token}&after=0");
            tokio_tungstenite::connect_async(url)
                .await
                .expect("upgrade")
                .0
        }
    };
    let bob_live = live(players[1].clone()).await;
    let gm_live = live(gm.clone()).await;
    line(gm.clone(), "/sg impress 影 例・芸術家 村").await;
    let last = {
        let state = json_call(
            &server,
            "GET",
            &format!("/api/v1/tables/{id}"),
            Some(&gm),
            json!({}),
        )
        .await;
        state["last_seq"].as_u64().expect("last seq")
    };
    let drain = |mut socket: tokio_tungstenite::WebSocketStream<_>| async move {
        let mut texts = Vec::new();
        loop {
            let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
                .await
                .expect("an entry within 10 s")
                .expect("open")
                .expect("a message");
            let Message::Text(text) = message else {
                continue;
            };
            let entry: Value = serde_json::from_str(&text).expect("json");
            texts.push(text.to_string());
            if entry["seq"].as_u64() == Some(last) {
                return texts;
            }
        }
    };
    let bob_seen = drain(bob_live).await;
    let gm_seen = drain(gm_live).await;
    assert!(
        leaks(&gm_seen).is_some(),
        "the GM's socket names 影's types"
    );
    assert_eq!(leaks(&bob_seen), None, "bob's live socket");
    let _ = stop.send(());
    let _ = task.await;

    for (who, token, may_see) in [
        ("gm", &gm, true),
        ("alice", &players[0], false),
        ("bob", &players[1], false),
    ] {
        // The API's log.
        let log = json_call(
            &server,
            "GET",
            &format!("/api/v1/tables/{id}/log"),
            Some(token),
            json!({}),
        )
        .await;
        let texts: Vec<String> = log["events"]
            .as_array()
            .expect("events")
            .iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(
            leaks(&texts).is_some(),
            may_see,
            "{who}'s API log: {:?}",
            leaks(&texts)
        );
        // The API's state: 影's sheet.
        let state = json_call(
            &server,
            "GET",
            &format!("/api/v1/tables/{id}"),
            Some(token),
            json!({}),
        )
        .await;
        let shadow = state["characters"]
            .as_array()
            .expect("characters")
            .iter()
            .find(|c| c["name"] == "影")
            .expect("影")
            .to_string();
        assert_eq!(
            HIDDEN.iter().any(|t| shadow.contains(t)),
            may_see,
            "{who}'s state: {shadow}"
        );
        assert!(may_see || shadow.contains("秘匿"), "{shadow}");
        // Both exports.
        for ext in ["html", "json"] {
            let (status, body) = call(
                &server,
                "GET",
                &format!("/t/{id}/export.{ext}"),
                Some(token),
                json!({}),
            )
            .await;
            assert_eq!(status, 200, "{who} {ext}: {body}");
            let lines: Vec<String> = body.lines().map(str::to_string).collect();
            let lines = if ext == "json" {
                let v: Value = serde_json::from_str(&body).expect("json export");
                v["entries"]
                    .as_array()
                    .map(|a| a.iter().map(Value::to_string).collect())
                    .unwrap_or(lines)
            } else {
                body.split("<p").map(str::to_string).collect()
            };
            assert_eq!(
                leaks(&lines).is_some(),
                may_see,
                "{who}'s {ext} export: {:?}",
                leaks(&lines)
            );
        }
    }
    // The disguise itself is the GM's too.
    let log = json_call(
        &server,
        "GET",
        &format!("/api/v1/tables/{id}/log"),
        Some(&players[1]),
        json!({}),
    )
    .await;
    assert!(!log.to_string().contains("ごまかし"));
    std::fs::remove_dir_all(&dir).ok();
}
