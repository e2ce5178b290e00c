//! `taku serve` as a process: bcdice-api and a graceful stop on SIGTERM, and two servers
//! on one PostgreSQL database delivering each other's events to their live sockets.

use futures_util::StreamExt;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// A running `taku serve` and its address.
struct Serving {
    child: Child,
    addr: String,
}

fn serve(db: &str) -> Serving {
    let mut child = Command::new(env!("CARGO_BIN_EXE_taku"))
        .args(["serve", "--bind", "127.0.0.1:0", "--db", db, "--log", "off"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("taku serve runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the address line");
    let addr = line
        .trim()
        .strip_prefix("taku serving on http://")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("unexpected banner {line:?}"))
        .to_string();
    Serving { child, addr }
}

impl Serving {
    /// One HTTP/1.1 request; the status and the body.
    fn request(&self, method: &str, path: &str, token: Option<&str>, body: &str) -> (u16, String) {
        let mut stream = std::net::TcpStream::connect(&self.addr).expect("connect");
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .expect("request");
        let mut response = String::new();
        stream.read_to_string(&mut response).expect("response");
        let status = response[9..12].parse().expect("status");
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, b)| b)
            .unwrap_or("");
        (status, body.to_string())
    }

    fn json(&self, method: &str, path: &str, token: Option<&str>, body: Value) -> Value {
        let (status, text) = self.request(method, path, token, &body.to_string());
        assert!(
            (200..300).contains(&status),
            "{method} {path}: {status} {text}"
        );
        serde_json::from_str(&text).expect("json")
    }

    /// SIGTERM; asserts a clean, graceful exit.
    fn stop(self) {
        let pid = self.child.id().to_string();
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("kill");
        let out = self.child.wait_with_output().expect("exits");
        assert!(out.status.success(), "{:?}", out.status);
        assert!(String::from_utf8_lossy(&out.stderr).contains("taku: stopped"));
    }
}

fn temp_db(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("taku-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("taku.db").display().to_string()
}

#[test]
fn taku_serve_answers_bcdice_api_and_stops_on_sigterm() {
    let server = serve(&temp_db("bcdice"));
    let (status, body) = server.request("GET", "/v2/version", None, "");
    assert_eq!(status, 200);
    assert_eq!(body, r#"{"api":"3.0.0","bcdice":"3.16.1"}"#);
    server.stop();
}

/// The next text message on a socket; a 20 s guard turns a lost delivery into a failure.
async fn next<S>(socket: &mut S) -> Value
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    match tokio::time::timeout(Duration::from_secs(20), socket.next()).await {
        Ok(Some(Ok(Message::Text(text)))) => serde_json::from_str(&text).expect("json"),
        other => panic!("expected an entry, got {other:?}"),
    }
}

#[test]
fn two_servers_on_one_postgresql_database_deliver_each_others_events() {
    let url = std::env::var("TAKU_TEST_PG").unwrap_or_else(|_| {
        panic!("TAKU_TEST_PG=postgres://… is needed (tools/test-all.sh starts a server)")
    });
    let (a, b) = (serve(&url), serve(&url));
    let created = a.json(
        "POST",
        "/api/v1/tables",
        None,
        json!({"system": "DiceBot", "name": "two", "gm": "gm", "invites": 2}),
    );
    let id = created["id"].as_str().expect("id").to_string();
    let gm = created["token"].as_str().expect("token").to_string();
    // alice joins through server A, bob through server B: tokens work on either.
    let join = |server: &Serving, i: usize, name: &str| {
        let invite = created["invites"][i]["token"].clone();
        let joined = server.json(
            "POST",
            &format!("/api/v1/tables/{id}/join"),
            None,
            json!({"invite": invite, "name": name}),
        );
        joined["token"].as_str().expect("token").to_string()
    };
    let alice = join(&a, 0, "alice");
    let bob = join(&b, 1, "bob");

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let ws = |server: &Serving, token: &str| {
            format!("ws://{}/api/v1/tables/{id}/live?token={token}", server.addr)
        };
        let (mut gm_on_a, _) = tokio_tungstenite::connect_async(ws(&a, &gm))
            .await
            .expect("gm socket");
        let (mut bob_on_b, _) = tokio_tungstenite::connect_async(ws(&b, &bob))
            .await
            .expect("bob socket");

        // A line on A reaches bob's socket on B, as bob may see it.
        let lines = format!("/api/v1/tables/{id}/lines");
        a.json("POST", &lines, Some(&alice), json!({"line": "S2D6 ひみつ"}));
        let hidden = next(&mut bob_on_b).await;
        let text = hidden["text"].as_str().expect("text");
        assert!(
            text.starts_with("#4 alice のシークレットダイス（コミットメント "),
            "{text}"
        );
        assert!(!text.contains("ひみつ"), "{text}");
        let shown = next(&mut gm_on_a).await;
        assert!(
            shown["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("#4 alice（シークレット）: ひみつ (2D6) ＞ ")),
            "{shown}"
        );

        // And a line on B reaches the GM's socket on A.
        b.json("POST", &lines, Some(&bob), json!({"line": "こんにちは"}));
        assert_eq!(next(&mut gm_on_a).await["text"], "#5 bob: こんにちは");
        assert_eq!(next(&mut bob_on_b).await["text"], "#5 bob: こんにちは");
    });
    // Both stop gracefully with sockets open.
    a.stop();
    b.stop();
}

/// Issue 18, item 2: `taku serve` limited to 256 file descriptors, with 300 slowloris
/// sockets (partial headers, then nothing) from ten client addresses, still answers
/// every valid request, and still stops on SIGTERM while they hold on.
#[test]
fn slowloris_with_256_descriptors_does_not_stop_valid_requests() {
    use std::net::SocketAddr;
    use std::time::Instant;
    const DEADLINE: Duration = Duration::from_secs(20);
    let db = temp_db("slowloris");
    let mut child = Command::new("prlimit")
        .args(["--nofile=256:256", "--"])
        .arg(env!("CARGO_BIN_EXE_taku"))
        .args([
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--db",
            &db,
            "--log",
            "off",
        ])
        .args(["--rate-limit", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("prlimit taku serve runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the address line");
    let addr: SocketAddr = line
        .trim()
        .strip_prefix("taku serving on http://")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("unexpected banner {line:?}"));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let connect = |from: [u8; 4]| async move {
            let socket = tokio::net::TcpSocket::new_v4().expect("socket");
            socket
                .bind(SocketAddr::from((from, 0)))
                .expect("bind client");
            socket.connect(addr).await
        };
        let mut held = Vec::new();
        for i in 0..300u16 {
            if let Ok(mut s) = connect([127, 0, 0, 2 + (i % 10) as u8]).await {
                // The server may already have closed a surplus one: that is its right.
                let _ = s
                    .write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
                    .await;
                held.push(s);
            }
        }
        for i in 0..30 {
            let answered = tokio::time::timeout(DEADLINE, async {
                let mut s = connect([127, 0, 0, 1]).await.expect("connect");
                s.write_all(
                    b"GET /v2/version HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                )
                .await
                .expect("write");
                let mut response = Vec::new();
                s.read_to_end(&mut response).await.expect("read");
                String::from_utf8_lossy(&response).into_owned()
            })
            .await
            .unwrap_or_else(|_| panic!("valid request {i} unanswered"));
            assert!(
                answered.starts_with("HTTP/1.1 200"),
                "request {i}: {answered}"
            );
        }
        // SIGTERM while the slow sockets still hold on: the process ends anyway.
        Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .expect("kill");
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "taku serve still running after SIGTERM"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert!(status.success(), "{status:?}");
        drop(held);
    });
}
