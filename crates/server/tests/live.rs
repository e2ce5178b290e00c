//! Live updates over WebSocket against a server on a real socket: each member receives
//! each new entry as that member may see it, `after` replays, a bad token is refused
//! before the upgrade, and shutdown closes the sockets so the server can stop.

use axum::body::Body;
use axum::http::{Request, header};
use futures_util::{SinkExt, StreamExt};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use taku_server::{Config, Server};
use taku_table::store::Store;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use tower::ServiceExt;

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A server on a free loopback port; its address, the shared state, and the handle that
/// stops it (the serve task's result says whether it stopped cleanly).
struct Running {
    addr: std::net::SocketAddr,
    server: Arc<Server>,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

async fn start(name: &str) -> Running {
    let dir = std::env::temp_dir().join(format!("taku-live-{}-{name}", std::process::id()));
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
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(taku_server::serve(listener, server.clone(), async move {
        let _ = stopped.await;
    }));
    Running {
        addr,
        server,
        stop,
        task,
    }
}

/// One request through the same server's routes.
async fn call(
    server: &Arc<Server>,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> Value {
    let mut request = Request::builder().method(method).uri(path);
    if let Some(t) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let response = taku_server::app(server.clone())
        .oneshot(request.body(Body::from(body.to_string())).expect("request"))
        .await
        .expect("infallible");
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    serde_json::from_slice(&bytes).expect("json")
}

/// A table with GM gm and players alice and bob: (id, [gm, alice, bob] tokens).
async fn table(server: &Arc<Server>) -> (String, [String; 3]) {
    let created = call(
        server,
        "POST",
        "/api/v1/tables",
        None,
        json!({"system": "DiceBot", "name": "live", "gm": "gm", "invites": 2}),
    )
    .await;
    let id = created["id"].as_str().expect("id").to_string();
    let mut tokens = vec![created["token"].as_str().expect("token").to_string()];
    for (name, invite) in ["alice", "bob"]
        .iter()
        .zip(created["invites"].as_array().expect("invites"))
    {
        let joined = call(
            server,
            "POST",
            &format!("/api/v1/tables/{id}/join"),
            None,
            json!({"invite": invite["token"], "name": name}),
        )
        .await;
        tokens.push(joined["token"].as_str().expect("token").to_string());
    }
    let tokens: [String; 3] = tokens.try_into().expect("three");
    (id, tokens)
}

async fn connect(addr: std::net::SocketAddr, id: &str, token: &str, after: Option<u64>) -> Socket {
    let mut url = format!("ws://{addr}/api/v1/tables/{id}/live?token={token}");
    if let Some(a) = after {
        url.push_str(&format!("&after={a}"));
    }
    let (socket, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("upgrade");
    socket
}

/// The next entry on `socket`; a guard of 10 s turns a missing delivery into a failure
/// rather than a hang.
async fn next(socket: &mut Socket) -> Value {
    let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
        .await
        .expect("an entry within 10 s")
        .expect("open")
        .expect("a message");
    match message {
        Message::Text(text) => serde_json::from_str(&text).expect("json"),
        other => panic!("expected an entry, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_member_receives_each_new_entry_as_that_member_may_see_it() {
    let run = start("members").await;
    let (id, [gm, alice, bob]) = table(&run.server).await;
    let mut sockets = Vec::new();
    for token in [&gm, &alice, &bob] {
        sockets.push(connect(run.addr, &id, token, None).await);
    }
    let lines = format!("/api/v1/tables/{id}/lines");
    call(
        &run.server,
        "POST",
        &lines,
        Some(&alice),
        json!({"line": "S2D6>=2 ひみつ"}),
    )
    .await;
    call(
        &run.server,
        "POST",
        &lines,
        Some(&bob),
        json!({"line": "おはよう"}),
    )
    .await;

    let [to_gm, to_alice, to_bob] = &mut sockets[..] else {
        unreachable!()
    };
    for socket in [&mut *to_gm, &mut *to_alice] {
        let secret = next(socket).await;
        assert_eq!(
            (secret["seq"].as_u64(), secret["actor"].as_str()),
            (Some(4), Some("alice"))
        );
        let text = secret["text"].as_str().expect("text");
        assert!(
            text.starts_with("#4 alice（シークレット）: ひみつ (2D6>=2) ＞ "),
            "{text}"
        );
    }
    let hidden = next(to_bob).await;
    let text = hidden["text"].as_str().expect("text");
    assert!(
        text.starts_with("#4 alice のシークレットダイス（コミットメント "),
        "{text}"
    );
    assert!(!text.contains('＞') && !text.contains("ひみつ"), "{text}");
    for socket in &mut sockets {
        assert_eq!(next(socket).await["text"], "#5 bob: おはよう");
    }

    // Revealed: now bob sees it.
    call(
        &run.server,
        "POST",
        &format!("/api/v1/tables/{id}/reveal/4"),
        Some(&alice),
        json!({}),
    )
    .await;
    for socket in &mut sockets {
        let revealed = next(socket).await;
        assert!(
            revealed["text"].as_str().is_some_and(
                |t| t.starts_with("#6 alice が #4（alice）を公開: ひみつ (2D6>=2) ＞ ")
            ),
            "{revealed}"
        );
    }

    // Shutdown closes every socket and the server stops.
    run.stop.send(()).expect("stop");
    for socket in &mut sockets {
        let closed = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("closed within 10 s");
        assert!(
            matches!(closed, Some(Ok(Message::Close(_))) | None),
            "{closed:?}"
        );
    }
    let stopped = tokio::time::timeout(Duration::from_secs(10), run.task)
        .await
        .expect("the server stops")
        .expect("task");
    assert!(stopped.is_ok(), "{stopped:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_replays_the_log_as_the_member_may_see_it() {
    let run = start("after").await;
    let (id, [_gm, alice, bob]) = table(&run.server).await;
    let lines = format!("/api/v1/tables/{id}/lines");
    call(
        &run.server,
        "POST",
        &lines,
        Some(&alice),
        json!({"line": "S1D6"}),
    )
    .await;
    let mut socket = connect(run.addr, &id, &bob, Some(1)).await;
    assert_eq!(
        next(&mut socket).await["text"],
        "#2 alice がプレイヤーとして参加"
    );
    assert_eq!(
        next(&mut socket).await["text"],
        "#3 bob がプレイヤーとして参加"
    );
    let hidden = next(&mut socket).await;
    assert!(
        hidden["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("#4 alice のシークレットダイス")),
        "{hidden}"
    );
    // Then live, and what the client sends is ignored.
    socket
        .send(Message::Text("hello?".into()))
        .await
        .expect("send");
    call(
        &run.server,
        "POST",
        &lines,
        Some(&alice),
        json!({"line": "やあ"}),
    )
    .await;
    assert_eq!(next(&mut socket).await["text"], "#5 alice: やあ");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_without_a_valid_token_is_refused_before_the_upgrade() {
    let run = start("refused").await;
    let (id, [gm, ..]) = table(&run.server).await;
    let (other, [other_gm, ..]) = table(&run.server).await;
    for (table, token, status) in [
        (&id, "0".repeat(64), 401),
        (&id, "nonsense".to_string(), 401),
        (&id, other_gm.clone(), 403),
        (&other, gm.clone(), 403),
    ] {
        let url = format!("ws://{}/api/v1/tables/{table}/live?token={token}", run.addr);
        match tokio_tungstenite::connect_async(url).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert_eq!(response.status().as_u16(), status);
            }
            other => panic!("expected HTTP {status}, got {other:?}"),
        }
    }
    let url = format!(
        "ws://{}/api/v1/tables/{id}/live?token={gm}&after=x",
        run.addr
    );
    assert!(tokio_tungstenite::connect_async(url).await.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_message_over_the_body_limit_closes_only_that_socket() {
    let run = start("oversize").await;
    let (id, [gm, alice, _]) = table(&run.server).await;
    let mut big = connect(run.addr, &id, &alice, None).await;
    let mut other = connect(run.addr, &id, &gm, None).await;
    let _ = big
        .send(Message::Text("x".repeat(taku_server::MAX_BODY + 1).into()))
        .await;
    let closed = tokio::time::timeout(Duration::from_secs(10), big.next())
        .await
        .expect("answered within 10 s");
    assert!(!matches!(closed, Some(Ok(Message::Text(_)))), "{closed:?}");
    // The server goes on serving the others.
    let lines = format!("/api/v1/tables/{id}/lines");
    call(
        &run.server,
        "POST",
        &lines,
        Some(&gm),
        json!({"line": "まだ"}),
    )
    .await;
    assert_eq!(next(&mut other).await["text"], "#4 gm: まだ");
}

/// Attack pass 2, A2-1: sockets a member opens in a loop while the GM removes them. Each
/// one either is refused or is closed; none receives a line written after the removal
/// (before the fix, sockets whose token check passed just before the revocation took a
/// fresh seat after the closing and streamed the table on). Bounded: 4 openers × 6 tries.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_opening_during_a_removal_are_refused_or_closed() {
    let running = start("removal-race").await;
    let server = running.server.clone();
    let (id, [gm, alice, bob]) = table(&server).await;
    let url = format!(
        "ws://{}/api/v1/tables/{id}/live?token={alice}",
        running.addr
    );
    let openers: Vec<_> = (0..4)
        .map(|_| {
            let url = url.clone();
            tokio::spawn(async move {
                let mut open = Vec::new();
                for _ in 0..6 {
                    if let Ok((socket, _)) = tokio_tungstenite::connect_async(url.as_str()).await {
                        open.push(socket);
                    }
                }
                open
            })
        })
        .collect();
    let removed = call(
        &server,
        "DELETE",
        &format!("/api/v1/tables/{id}/members/alice"),
        Some(&gm),
        json!(null),
    )
    .await;
    assert_eq!(removed["ok"], true, "{removed}");
    let mut sockets = Vec::new();
    for opener in openers {
        sockets.extend(opener.await.expect("opener"));
    }
    let said = call(
        &server,
        "POST",
        &format!("/api/v1/tables/{id}/lines"),
        Some(&bob),
        json!({"line": "after-removal"}),
    )
    .await;
    assert_eq!(said["ok"], true, "{said}");
    for mut socket in sockets {
        // Read until the server closes it; the guard turns a socket left open into a
        // failure rather than a hang.
        let ended = tokio::time::timeout(Duration::from_secs(10), async {
            while let Some(message) = socket.next().await {
                match message {
                    Ok(Message::Text(text)) => assert!(
                        !text.contains("after-removal"),
                        "a removed member's socket got a line written after the removal"
                    ),
                    Ok(Message::Close(_)) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        })
        .await;
        assert!(ended.is_ok(), "a removed member's socket stayed open");
    }
    // A new socket with the revoked token is refused outright.
    assert!(
        tokio_tungstenite::connect_async(url.as_str())
            .await
            .is_err()
    );
    let _ = running.stop.send(());
}

/// Attack pass 2, A2-11: a member removed by another server sharing the store (here: the
/// removal appended to the store without this server's route, as another server's
/// would be) loses their live socket here too, at the removal: it gets the removal's
/// entry, then the server closes it, and nothing after. The same for a new link.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removal_or_new_link_from_elsewhere_closes_the_members_sockets() {
    let running = start("removal-elsewhere").await;
    let server = running.server.clone();
    let (id, [gm, alice, bob]) = table(&server).await;
    let mut alice_socket = connect(running.addr, &id, &alice, None).await;
    let mut bob_socket = connect(running.addr, &id, &bob, None).await;
    // "Another server" records alice's new link and bob's removal in the store.
    server
        .tables()
        .exec_with(&id, "gm", None, |t| t.decide_relink("gm", "alice"))
        .await
        .expect("store")
        .expect("relinked");
    server
        .tables()
        .exec(&id, "gm", "/remove bob", None)
        .await
        .expect("store")
        .expect("removed");
    // A line through this server wakes the sockets.
    let said = call(
        &server,
        "POST",
        &format!("/api/v1/tables/{id}/lines"),
        Some(&gm),
        json!({"line": "after-both"}),
    )
    .await;
    assert_eq!(said["ok"], true, "{said}");
    for (socket, kind) in [
        (&mut alice_socket, "relinked"),
        (&mut bob_socket, "removed"),
    ] {
        let got = tokio::time::timeout(Duration::from_secs(10), async {
            let mut entries = Vec::new();
            while let Some(Ok(message)) = socket.next().await {
                match message {
                    Message::Text(text) => {
                        entries.push(serde_json::from_str::<Value>(&text).expect("json"))
                    }
                    Message::Close(_) => break,
                    _ => {}
                }
            }
            entries
        })
        .await
        .expect("the server closes the socket");
        assert_eq!(
            got.last().map(|e| e["kind"].clone()),
            Some(json!(kind)),
            "{got:?}"
        );
        assert!(
            !got.iter().any(|e| e.to_string().contains("after-both")),
            "{kind}: {got:?}"
        );
    }
    let _ = running.stop.send(());
}

/// Attack pass 2, A2-12: live sockets count against the connection cap, and take at
/// most three quarters of it, so plain requests always find room: with a cap of 8
/// connections, 6 sockets open, the 7th is refused, and the server still answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_sockets_leave_room_for_requests_under_the_connection_cap() {
    let dir = std::env::temp_dir().join(format!("taku-live-{}-cap", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = Store::open(&dir.join("taku.db").display().to_string())
        .await
        .expect("store");
    let server = Server::new(
        store,
        &Config {
            rate_limit: 0,
            max_connections: 8,
            max_connections_per_address: 8,
            ..Config::default()
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(taku_server::serve(listener, server.clone(), async move {
        let _ = stopped.await;
    }));
    let (id, [_, alice, bob]) = table(&server).await;
    let mut open = Vec::new();
    for token in [&alice, &alice, &alice, &bob, &bob, &bob] {
        open.push(connect(addr, &id, token, None).await);
    }
    let url = format!("ws://{addr}/api/v1/tables/{id}/live?token={bob}");
    match tokio_tungstenite::connect_async(url.as_str()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 429)
        }
        other => panic!("a 7th socket: {:?}", other.map(|_| ())),
    }
    // A plain request still finds a connection.
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut plain = TcpStream::connect(addr).await.expect("connect");
    plain
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("write");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), plain.read_to_end(&mut answer))
        .await
        .expect("answered")
        .expect("read");
    assert!(
        answer.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    drop(open);
    let _ = stop.send(());
}

/// Attack pass 2, A2-18: behind a trusted proxy the per-address socket cap counts the
/// client the proxy forwards for, as the rate limiter does, not the proxy: one client
/// holding its 64 sockets leaves another client's socket room.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_socket_cap_per_address_counts_clients_behind_a_trusted_proxy() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let dir = std::env::temp_dir().join(format!("taku-live-{}-proxy", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = Store::open(&dir.join("taku.db").display().to_string())
        .await
        .expect("store");
    let server = Server::new(
        store,
        &Config {
            rate_limit: 0,
            trusted_proxies: vec!["127.0.0.1/32".parse().expect("cidr")],
            // The proxy's own connections are many (as in the finding).
            max_connections_per_address: 1000,
            ..Config::default()
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(taku_server::serve(listener, server.clone(), async move {
        let _ = stopped.await;
    }));
    let created = call(
        &server,
        "POST",
        "/api/v1/tables",
        None,
        json!({"system": "DiceBot", "name": "proxy", "gm": "gm", "invites": 9}),
    )
    .await;
    let id = created["id"].as_str().expect("id").to_string();
    let mut tokens = Vec::new();
    for (i, invite) in created["invites"]
        .as_array()
        .expect("invites")
        .iter()
        .enumerate()
    {
        let joined = call(
            &server,
            "POST",
            &format!("/api/v1/tables/{id}/join"),
            None,
            json!({"invite": invite["token"], "name": format!("p{i}")}),
        )
        .await;
        tokens.push(joined["token"].as_str().expect("token").to_string());
    }
    let open = |token: String, client: &'static str| {
        let mut request = format!("ws://{addr}/api/v1/tables/{id}/live?token={token}")
            .into_client_request()
            .expect("request");
        request
            .headers_mut()
            .insert("x-forwarded-for", client.parse().expect("header"));
        tokio_tungstenite::connect_async(request)
    };
    let mut held = Vec::new();
    for token in &tokens[..8] {
        for _ in 0..8 {
            held.push(
                open(token.clone(), "203.0.113.66")
                    .await
                    .expect("within the cap")
                    .0,
            );
        }
    }
    match open(tokens[8].clone(), "203.0.113.66").await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 429)
        }
        other => panic!("a 65th socket of one client: {:?}", other.map(|_| ())),
    }
    held.push(
        open(tokens[8].clone(), "198.51.100.7")
            .await
            .expect("another client behind the same proxy")
            .0,
    );
    drop(held);
    let _ = stop.send(());
}
