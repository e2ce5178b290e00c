//! Issue 18, attack pass 5 (A5-8): when a reference-engine worker dies (a crash, the
//! out-of-memory killer, a stray `kill`), the next bcdice-api command is answered by its
//! replacement, never with a 500 naming the broken pipe. The workers are this test
//! process's own children; the test kills them with SIGKILL.
//!
//! Needs Node.js and npm `bcdice` 4.9.0 under `tools/bcdice-oracle` (or the directory named
//! by TAKU_TEST_BCDICE_JS); `tools/bcdice-js.sh` installs them. Fails, never skips, without.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use std::path::{Path, PathBuf};
use tower::ServiceExt;

fn configure() {
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
}

/// The pids of this process's children running `node`.
fn node_children() -> Vec<u32> {
    let me = std::process::id();
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid …`: the name may hold spaces, so read after the last `)`.
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let comm = &stat[open + 1..close];
        let ppid = stat[close + 1..]
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(me) && comm.starts_with("node") {
            out.push(pid);
        }
    }
    out
}

async fn roll() -> (StatusCode, String) {
    let response = taku_server::router()
        .oneshot(
            Request::get("/v2/game_system/Cthulhu7th/roll?command=CC%3C%3D50")
                .body(Body::empty())
                .expect("request"),
        )
        .await
        .expect("infallible");
    let status = response.status();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

#[tokio::test]
async fn a_dead_reference_worker_is_replaced_before_the_next_command_is_answered() {
    configure();
    for round in 0..3 {
        let (status, body) = roll().await;
        assert_eq!(status, StatusCode::OK, "round {round}: {body}");
        let workers = node_children();
        assert!(!workers.is_empty(), "round {round}: the lanes run workers");
        for pid in &workers {
            let killed = std::process::Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status()
                .expect("kill runs");
            assert!(killed.success(), "kill {pid}");
        }
        // The first command after the deaths, and the next.
        for _ in 0..2 {
            let (status, body) = roll().await;
            assert_eq!(status, StatusCode::OK, "round {round}: {body}");
            assert!(!body.contains("Broken pipe"), "{body}");
        }
    }
}
