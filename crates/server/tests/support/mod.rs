//! What the server's loopback attack tests share: a server on a fresh SQLite file on a
//! loopback port, one HTTP/1.1 exchange per connection, a table with members, and a
//! client that asks and never reads. Each test binary uses some of it.

#![allow(dead_code)]

use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use taku_server::{Config, Server};
use taku_table::store::Store;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A failure limit for waits (never an assertion on time).
pub const DEADLINE: Duration = Duration::from_secs(60);

/// A fresh SQLite file's path for test `name` (its folder emptied).
pub fn fresh_db(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("taku-srv-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("taku.db").display().to_string()
}

/// A server on a fresh SQLite file, serving on a loopback port.
pub async fn serve(name: &str, config: Config) -> (SocketAddr, Arc<Server>) {
    serve_on(&fresh_db(name), config).await
}

/// A server on the SQLite file `db`, serving on a loopback port.
pub async fn serve_on(db: &str, config: Config) -> (SocketAddr, Arc<Server>) {
    let server = Server::new(Store::open(db).await.expect("store"), &config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(taku_server::serve(
        listener,
        server.clone(),
        std::future::pending(),
    ));
    (addr, server)
}

/// A response: status, headers (names lower-case), body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// One HTTP/1.1 request on a fresh connection (`Connection: close`).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Answer {
    let exchange = async {
        let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let body = body.map(Value::to_string).unwrap_or_default();
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
            body.len()
        );
        if !body.is_empty() {
            request.push_str("Content-Type: application/json\r\n");
        }
        if let Some(t) = token {
            request.push_str(&format!("Authorization: Bearer {t}\r\n"));
        }
        request.push_str("\r\n");
        request.push_str(&body);
        stream.write_all(request.as_bytes()).await.expect("write");
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await.expect("read");
        raw
    };
    let raw = tokio::time::timeout(DEADLINE, exchange)
        .await
        .unwrap_or_else(|_| panic!("{method} {path}: no answer"));
    let text = String::from_utf8(raw).expect("UTF-8");
    let (head, body) = text.split_once("\r\n\r\n").expect("head");
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("status");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_string(),
    }
}

/// A DiceBot table with `players` joined; its id, the GM's token and the players'.
pub async fn table(addr: SocketAddr, gm: &str, players: &[&str]) -> (String, String, Vec<String>) {
    let made = http(
        addr,
        "POST",
        "/api/v1/tables",
        None,
        Some(&json!({"system": "DiceBot", "name": "卓", "gm": gm, "invites": players.len()})),
    )
    .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let made = made.json();
    let id = made["id"].as_str().expect("id").to_string();
    let token = made["token"].as_str().expect("token").to_string();
    let mut tokens = Vec::new();
    for (name, invite) in players
        .iter()
        .zip(made["invites"].as_array().expect("invites"))
    {
        tokens.push(join(addr, &id, invite["token"].as_str().expect("invite"), name).await);
    }
    (id, token, tokens)
}

pub async fn join(addr: SocketAddr, id: &str, invite: &str, name: &str) -> String {
    let joined = http(
        addr,
        "POST",
        &format!("/api/v1/tables/{id}/join"),
        None,
        Some(&json!({"invite": invite, "name": name})),
    )
    .await;
    assert_eq!(joined.status, 201, "{}", joined.body);
    joined.json()["token"].as_str().expect("token").to_string()
}

pub async fn line(addr: SocketAddr, id: &str, token: &str, text: &str) -> Answer {
    http(
        addr,
        "POST",
        &format!("/api/v1/tables/{id}/lines"),
        Some(token),
        Some(&json!({"line": text})),
    )
    .await
}

pub async fn last_seq(addr: SocketAddr, id: &str, token: &str) -> u64 {
    let state = http(
        addr,
        "GET",
        &format!("/api/v1/tables/{id}"),
        Some(token),
        None,
    )
    .await;
    assert_eq!(state.status, 200, "{}", state.body);
    state.json()["last_seq"].as_u64().expect("last_seq")
}

pub fn no_limits() -> Config {
    Config {
        rate_limit: 0,
        tables_per_hour: 0,
        lines_per_minute: 0,
        line_bytes_per_minute: 0,
        ..Config::default()
    }
}

/// Sends `GET path` with `token` from a socket with a small receive buffer and reads only
/// the response's head: a client that never reads the body.
pub async fn stalled_get(
    addr: SocketAddr,
    path: &str,
    token: &str,
) -> (tokio::net::TcpStream, String) {
    stalled_get_from([127, 0, 0, 1], addr, path, token).await
}

/// [`stalled_get`] from the loopback address `from` (any of 127.0.0.0/8): another client
/// address, as far as the server's per-address shares go.
pub async fn stalled_get_from(
    from: [u8; 4],
    addr: SocketAddr,
    path: &str,
    token: &str,
) -> (tokio::net::TcpStream, String) {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("rcvbuf");
    socket
        .bind(SocketAddr::from((from, 0)))
        .expect("bind a loopback source address");
    let mut stream = socket.connect(addr).await.expect("connect");
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        let n = tokio::time::timeout(DEADLINE, stream.read(&mut byte))
            .await
            .expect("head in time")
            .expect("read");
        assert!(n == 1, "closed before the head");
        head.push(byte[0]);
    }
    (stream, String::from_utf8_lossy(&head).into_owned())
}
