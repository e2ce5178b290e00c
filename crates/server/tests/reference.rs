//! bcdice-api's own v2 test suite (`test/test_api_v2.rb`, its eleven tests and their
//! assertions), run over HTTP against `taku serve` with the reference engine set up, so
//! that `Cthulhu7th` (`test_detailed`) answers like every other system (issue 19).
//!
//! Needs Node.js and npm `bcdice` 4.9.0 under `tools/bcdice-oracle` (or the directory named
//! by TAKU_TEST_BCDICE_JS); `tools/bcdice-js.sh` installs them. Fails, never skips, without.

use serde_json::Value;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use taku_server::{Config, Server};
use taku_table::store::Store;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::OnceCell;

/// One server for the whole file, with the reference engine.
async fn server() -> SocketAddr {
    static ADDR: OnceCell<SocketAddr> = OnceCell::const_new();
    *ADDR
        .get_or_init(|| async {
            let dir = match std::env::var_os("TAKU_TEST_BCDICE_JS") {
                Some(d) if !d.is_empty() => PathBuf::from(d),
                _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/bcdice-oracle"),
            };
            assert!(
                dir.join("node_modules/bcdice/package.json").is_file(),
                "npm bcdice is not installed in {}: run tools/bcdice-js.sh",
                dir.display()
            );
            let mut config = taku_systems::reference::Config::new(dir);
            config.time_limit = std::time::Duration::from_secs(20);
            taku_systems::reference::configure(Some(config)).expect("engine opens");
            let tmp = std::env::temp_dir().join(format!("taku-ref-api-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&tmp);
            std::fs::create_dir_all(&tmp).expect("temp dir");
            let store = Store::open(&tmp.join("taku.db").display().to_string())
                .await
                .expect("store");
            // Tests run at once from one address: each client's share of the engine
            // (A2-4, tested in limits.rs) is off here.
            let server = Server::new(
                store,
                &Config {
                    reference_share: false,
                    ..Config::default()
                },
            );
            let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
            listener.set_nonblocking(true).expect("non-blocking");
            let addr = listener.local_addr().expect("addr");
            // The server runs on its own runtime so that it outlives each test's.
            std::thread::spawn(move || {
                tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                    .expect("runtime")
                    .block_on(async move {
                        let listener =
                            tokio::net::TcpListener::from_std(listener).expect("listener");
                        taku_server::serve(listener, server, std::future::pending())
                            .await
                            .expect("serve");
                    });
            });
            addr
        })
        .await
}

/// One HTTP/1.1 request over a fresh connection: status, headers (lower-case names) and
/// the body as JSON.
async fn http(method: &str, path: &str, form: Option<&str>) -> (u16, String, Value) {
    let addr = server().await;
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let body = form.unwrap_or("");
    let mut request =
        format!("{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
    if form.is_some() {
        request.push_str("Content-Type: application/x-www-form-urlencoded\r\n");
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("read");
    let response = String::from_utf8(response).expect("utf-8");
    let (head, body) = response.split_once("\r\n\r\n").expect("a head and a body");
    let status = head
        .split(' ')
        .nth(1)
        .expect("status")
        .parse()
        .expect("number");
    // `Connection: close` answers are not chunked by the server; if they are, unchunk.
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let mut out = String::new();
        let mut rest = body;
        while let Some((size, tail)) = rest.split_once("\r\n") {
            let n = usize::from_str_radix(size.trim(), 16).expect("chunk size");
            if n == 0 {
                break;
            }
            out.push_str(&tail[..n]);
            rest = &tail[n + 2..];
        }
        out
    } else {
        body.to_string()
    };
    (
        status,
        head.to_ascii_lowercase(),
        serde_json::from_str(&body).expect("JSON body"),
    )
}

fn assert_boolean(v: &Value) {
    assert!(v.is_boolean(), "{v}");
}

#[tokio::test]
async fn test_version() {
    let (status, head, json) = http("GET", "/v2/version", None).await;
    assert_eq!(status, 200);
    assert!(head.contains("access-control-allow-origin: *"), "{head}");
    assert!(json.get("bcdice").is_some() && json.get("api").is_some());
}

#[tokio::test]
async fn test_game_system_list() {
    let (status, _, json) = http("GET", "/v2/game_system", None).await;
    assert_eq!(status, 200);
    let list = json["game_system"].as_array().expect("an array");
    assert!(!list.is_empty());
    let first = &list[0];
    for key in ["name", "id", "sort_key"] {
        assert!(first.get(key).is_some(), "{first}");
    }
    // Native and reference systems alike.
    for id in ["DiceBot", "Cthulhu7th", "AnotherWorld", "SwordWorld2.5"] {
        assert!(list.iter().any(|s| s["id"] == id), "{id} listed");
    }
}

#[tokio::test]
async fn test_game_system_info() {
    let (status, _, json) = http("GET", "/v2/game_system/DiceBot", None).await;
    assert_eq!(status, 200);
    assert_eq!(json["ok"], true);
    assert_eq!(json["id"], "DiceBot");
    for key in ["name", "command_pattern", "sort_key", "help_message"] {
        assert!(!json[key].as_str().expect(key).is_empty(), "{key}");
    }
    // A reference system's info comes from the engine.
    let (status, _, json) = http("GET", "/v2/game_system/Cthulhu7th", None).await;
    assert_eq!(status, 200);
    assert_eq!(json["name"], "新クトゥルフ神話TRPG");
    assert!(json["help_message"].as_str().expect("help").contains("CC"));
    assert!(
        !json["command_pattern"]
            .as_str()
            .expect("pattern")
            .is_empty()
    );
}

fn assert_roll(json: &Value) {
    assert_eq!(json["ok"], true);
    assert!(json["text"].as_str().is_some_and(|t| !t.is_empty()));
    assert_eq!(json["secret"], false);
    assert_boolean(&json["success"]);
    assert_boolean(&json["failure"]);
    assert_eq!(json["critical"], false);
    assert_eq!(json["fumble"], false);
    assert!(json["rands"].is_array());
}

#[tokio::test]
async fn test_diceroll() {
    let (status, _, json) = http(
        "GET",
        "/v2/game_system/DiceBot/roll?command=1d100%3C%3D70",
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_roll(&json);
}

#[tokio::test]
async fn test_diceroll_with_post() {
    let (status, _, json) = http(
        "POST",
        "/v2/game_system/DiceBot/roll",
        Some("command=1d100%3C%3D70"),
    )
    .await;
    assert_eq!(status, 200);
    assert_roll(&json);
}

#[tokio::test]
async fn test_detailed() {
    let (status, _, json) = http("GET", "/v2/game_system/Cthulhu7th/roll?command=CC1", None).await;
    assert_eq!(status, 200, "{json}");
    assert_eq!(json["ok"], true);
    let rands = json["rands"].as_array().expect("rands");
    assert!(rands.iter().any(|r| r["kind"] == "tens_d10"), "{json}");
    // bcdice-api reads a tens d10 as 0..90.
    for r in rands.iter().filter(|r| r["kind"] == "tens_d10") {
        assert_eq!(r["value"].as_u64().expect("value") % 10, 0, "{r}");
    }
}

#[tokio::test]
async fn test_unexpected_game_system() {
    let (status, _, json) = http(
        "GET",
        "/v2/game_system/Hoge/roll?command=1d100%3C%3D70",
        None,
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(json["ok"], false);
    assert_eq!(json["reason"], "unsupported game system");
}

#[tokio::test]
async fn test_unexpected_command() {
    for system in ["DiceBot", "Cthulhu7th"] {
        let (status, _, json) = http(
            "GET",
            &format!("/v2/game_system/{system}/roll?command=a"),
            None,
        )
        .await;
        assert_eq!(status, 400, "{system}");
        assert_eq!(json["ok"], false);
        assert_eq!(json["reason"], "unsupported command");
    }
}

#[tokio::test]
async fn test_no_command() {
    let (status, _, json) = http("GET", "/v2/game_system/DiceBot/roll", None).await;
    assert_eq!(status, 400);
    assert_eq!(json["ok"], false);
    assert_eq!(json["reason"], "unsupported command");
}

#[tokio::test]
async fn test_blank_command() {
    let (status, _, json) = http("GET", "/v2/game_system/DiceBot/roll?command=", None).await;
    assert_eq!(status, 400);
    assert_eq!(json["ok"], false);
    assert_eq!(json["reason"], "unsupported command");
}

#[tokio::test]
async fn test_original_table() {
    let table = "飲み物表\n1D6\n1:水\n2:緑茶\n3:麦茶\n4:コーラ\n5:オレンジジュース\n6:選ばれし者の知的飲料\n";
    let form: String = form_urlencoded(&[("table", table)]);
    let (status, _, json) = http("POST", "/v2/original_table", Some(&form)).await;
    assert_eq!(status, 200);
    assert_eq!(json["ok"], true);
    assert!(
        json["text"]
            .as_str()
            .expect("text")
            .starts_with("飲み物表(")
    );
    assert!(json["rands"].is_array());
}

fn form_urlencoded(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| {
            let enc = |s: &str| {
                s.bytes()
                    .map(|b| match b {
                        b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                            (b as char).to_string()
                        }
                        _ => format!("%{b:02X}"),
                    })
                    .collect::<String>()
            };
            format!("{}={}", enc(k), enc(v))
        })
        .collect::<Vec<_>>()
        .join("&")
}
