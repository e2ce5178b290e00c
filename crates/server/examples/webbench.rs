//! Web table benchmark (issue 17): time to first render in headless Chromium, and
//! live-update latency to browsers and to the web table's HTML sockets, on a table with a
//! long log. `tools/bench-web.sh` runs it; BENCHMARKS.md ("Web table in a browser") has
//! the figures. Never part of `cargo test`: nothing here asserts a time.
//!
//! ```sh
//! cargo run --release -p taku-server --example webbench -- --help
//! ```
//!
//! The server runs in this process (its own multi-threaded runtime, a fresh SQLite file,
//! no rate limit) on a loopback port; browsers and sockets reach it over TCP like any
//! client. Times are wall-clock milliseconds (`Date.now()` in the browsers, the system
//! clock here; one machine, one clock).

use futures_util::StreamExt;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::error::Error;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use taku_server::{Config, Server};
use taku_table::store::Store;
use thirtyfour::prelude::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

type Res<T> = Result<T, Box<dyn Error + Send + Sync>>;

const HELP: &str = "\
webbench: the web table in headless Chromium (see BENCHMARKS.md)

One DiceBot table whose log is filled with ENTRIES lines (chat, rolls, a tenth of them
secret, by the GM and a player in turn). Then:
  - BROWSERS headless Chromium sessions (one chromedriver, a profile each), each a
    player joined through an invite, open the table page; the time to first render is
    from navigation start to the moment the first page of the log is on screen (the
    page's `taku:first-render` performance mark);
  - SOCKETS members (players) each open the page's live socket (?format=html);
  - the GM posts ROLLS rolls over HTTP, one every INTERVAL ms; for every (roll, client)
    pair, the time from just before the POST to the entry being in the browser's log
    (a MutationObserver on the log) or received by the socket.
Prints each browser's first render, then p50/p90/p99/max of both latencies.
  --entries N        lines in the log first                  [5000]
  --browsers N       Chromium sessions                       [4]
  --sockets N        HTML live sockets                       [90]
                     (browsers + sockets + the GM are members: at most 100,
                     the server's member cap; the defaults make 95)
  --rolls N          timed rolls                             [50]
  --interval-ms N    pacing of the rolls                     [200]
  --chromium PATH    [/usr/bin/chromium]
  --chromedriver PATH [/usr/bin/chromedriver]
";

fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

struct Args {
    entries: usize,
    browsers: usize,
    sockets: usize,
    rolls: usize,
    interval: Duration,
    chromium: String,
    chromedriver: String,
}

fn parse(args: &[String]) -> Res<Args> {
    let mut map: HashMap<&str, &str> = HashMap::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let name = a
            .strip_prefix("--")
            .ok_or_else(|| format!("unexpected argument '{a}' (see --help)"))?;
        let v = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
        map.insert(name, v);
    }
    let number = |k: &str, d: usize| -> Res<usize> {
        match map.get(k) {
            Some(v) => v
                .parse()
                .map_err(|_| format!("--{k} must be a whole number, not '{v}'").into()),
            None => Ok(d),
        }
    };
    for k in map.keys() {
        if ![
            "entries",
            "browsers",
            "sockets",
            "rolls",
            "interval-ms",
            "chromium",
            "chromedriver",
        ]
        .contains(k)
        {
            return Err(format!("unknown option --{k} (see --help)").into());
        }
    }
    Ok(Args {
        entries: number("entries", 5000)?,
        browsers: number("browsers", 4)?,
        sockets: number("sockets", 90)?,
        rolls: number("rolls", 50)?,
        interval: Duration::from_millis(number("interval-ms", 200)? as u64),
        chromium: map
            .get("chromium")
            .unwrap_or(&"/usr/bin/chromium")
            .to_string(),
        chromedriver: map
            .get("chromedriver")
            .unwrap_or(&"/usr/bin/chromedriver")
            .to_string(),
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{HELP}");
        return;
    }
    let result = parse(&args).and_then(|a| {
        // The server on a runtime of its own, owned here (a runtime cannot be dropped
        // inside another's tasks).
        let server = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        let clients = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()?;
        let result = clients.block_on(run(a, server.handle().clone()));
        server.shutdown_background();
        result
    });
    if let Err(e) = result {
        eprintln!("webbench: {e}");
        std::process::exit(1);
    }
}

/// One HTTP/1.1 request over its own connection; the answer's JSON.
async fn http(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> Res<Value> {
    let body = body.to_string();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).await?;
    stream.write_all(request.as_bytes()).await?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await?;
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer.split_once("\r\n\r\n").ok_or("no HTTP answer")?;
    if !head.starts_with("HTTP/1.1 2") {
        return Err(format!("{method} {path}: {head}\n{body}").into());
    }
    Ok(serde_json::from_str(body)?)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn summary(what: &str, mut v: Vec<f64>) {
    v.sort_by(f64::total_cmp);
    println!(
        "{what}: n={} p50={:.1} ms p90={:.1} ms p99={:.1} ms max={:.1} ms",
        v.len(),
        percentile(&v, 0.5),
        percentile(&v, 0.9),
        percentile(&v, 0.99),
        v.last().copied().unwrap_or(f64::NAN)
    );
}

/// chromedriver, stopped by its own process id when done.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn run(a: Args, server_rt: tokio::runtime::Handle) -> Res<()> {
    // The server, on a runtime of its own.
    let dir = std::env::temp_dir().join(format!("taku-webbench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let db = dir.join("taku.db").display().to_string();
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    listener.set_nonblocking(true)?;
    let addr = listener.local_addr()?.to_string();
    server_rt.spawn(async move {
        let store = Store::open(&db).await.expect("store");
        let server = Server::new(
            store,
            &Config {
                rate_limit: 0,
                lines_per_minute: 0,
                line_bytes_per_minute: 0,
                // Every client here shares one address.
                max_connections_per_address: 100_000,
                ..Config::default()
            },
        );
        let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
        let _ = taku_server::serve(listener, server, std::future::pending()).await;
    });
    // Wait for it.
    let deadline = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect(&addr).await.is_err() {
        if Instant::now() > deadline {
            return Err("the server did not start".into());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    let made = http(
        &addr,
        "POST",
        "/api/v1/tables",
        None,
        &json!({"system": "DiceBot", "name": "webbench", "gm": "gm", "invites": 1}),
    )
    .await?;
    let id = made["id"].as_str().ok_or("no id")?.to_string();
    let gm = made["token"].as_str().ok_or("no token")?.to_string();
    let members = a.browsers + a.sockets + 1;
    if members > taku_server::DEFAULT_MAX_MEMBERS {
        return Err(format!(
            "{} browsers + {} sockets + the GM make {members} members, past the server's cap of {}: lower --sockets",
            a.browsers,
            a.sockets,
            taku_server::DEFAULT_MAX_MEMBERS
        )
        .into());
    }
    let mut tokens = Vec::new();
    let mut n = 0;
    while tokens.len() < members {
        let count = (members - tokens.len()).min(32);
        let invites = http(
            &addr,
            "POST",
            &format!("/api/v1/tables/{id}/invites"),
            Some(&gm),
            &json!({"role": "player", "count": count}),
        )
        .await?;
        for i in invites["invites"].as_array().ok_or("no invites")? {
            n += 1;
            let joined = http(
                &addr,
                "POST",
                &format!("/api/v1/tables/{id}/join"),
                None,
                &json!({"invite": i["token"], "name": format!("p{n}")}),
            )
            .await?;
            tokens.push(joined["token"].as_str().ok_or("no token")?.to_string());
        }
    }
    let filler = tokens.pop().ok_or("no member")?;
    eprintln!("filling the log with {} lines…", a.entries);
    let started = Instant::now();
    for i in 0..a.entries {
        let (who, line) = match i % 10 {
            0 => (&gm, format!("S2D6 秘密 {i}")),
            1 | 4 | 7 => (&filler, format!("2D6>=7 判定 {i}")),
            _ => (&filler, format!("チャット {i}: 今日は晴れ")),
        };
        http(
            &addr,
            "POST",
            &format!("/api/v1/tables/{id}/lines"),
            Some(who),
            &json!({"line": line}),
        )
        .await?;
    }
    eprintln!("filled in {:.1} s", started.elapsed().as_secs_f64());

    // Browsers.
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let _driver = Driver(
        Command::new(&a.chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?,
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).await.is_err() {
        if Instant::now() > deadline {
            return Err("chromedriver did not start".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut browsers = Vec::new();
    let mut first_render = Vec::new();
    for (b, token) in tokens.iter().take(a.browsers).enumerate() {
        let profile = dir.join(format!("profile-{b}"));
        let mut caps = DesiredCapabilities::chrome();
        caps.set_binary(&a.chromium)?;
        for arg in [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-background-timer-throttling",
            "--disable-renderer-backgrounding",
            "--window-size=1280,900",
            &format!("--user-data-dir={}", profile.display()),
        ] {
            caps.add_arg(arg)?;
        }
        let driver = WebDriver::new(format!("http://127.0.0.1:{port}"), caps).await?;
        driver
            .goto(format!("http://{addr}/t/{id}#token={token}"))
            .await?;
        let deadline = Instant::now() + Duration::from_secs(30);
        let ms = loop {
            let v = driver
                .execute(
                    "const m = performance.getEntriesByName('taku:first-render'); \
                     return m.length ? m[0].startTime : null;",
                    Vec::<Value>::new(),
                )
                .await?
                .json()
                .clone();
            if let Some(ms) = v.as_f64() {
                break ms;
            }
            if Instant::now() > deadline {
                return Err("a browser never rendered the log".into());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        println!("browser {b}: first render {ms:.0} ms after navigation start");
        first_render.push(ms);
        // Wait for the live socket, then watch the log.
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let open = driver
                .execute(
                    "return document.getElementById('status').dataset.state === 'open';",
                    Vec::<Value>::new(),
                )
                .await?
                .json()
                .clone();
            if open == Value::Bool(true) {
                break;
            }
            if Instant::now() > deadline {
                return Err("a browser's socket never opened".into());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        driver
            .execute(
                "window.__seen = {}; new MutationObserver((ms) => { for (const m of ms) \
                 for (const n of m.addedNodes) if (n.dataset && n.dataset.seq) \
                 window.__seen[n.dataset.seq] ??= Date.now(); }) \
                 .observe(document.getElementById('log'), { childList: true });",
                Vec::<Value>::new(),
            )
            .await?;
        browsers.push(driver);
    }
    summary("time to first render (ms)", first_render);

    // HTML live sockets, from the end of the log.
    let state = http(
        &addr,
        "GET",
        &format!("/api/v1/tables/{id}"),
        Some(&gm),
        &json!({}),
    )
    .await;
    let last = state.ok().and_then(|s| s["last_seq"].as_u64()).unwrap_or(0);
    let received: Arc<Mutex<Vec<(u64, f64)>>> = Arc::new(Mutex::new(Vec::new()));
    let mut readers = Vec::new();
    for (i, token) in tokens.iter().skip(a.browsers).take(a.sockets).enumerate() {
        let url =
            format!("ws://{addr}/api/v1/tables/{id}/live?format=html&after={last}&token={token}");
        // The server allows 64 live sockets per client address: spread the sockets over
        // loopback source addresses (127.0.0.2, .3, …; all of 127/8 is loopback), 50 each.
        let source = std::net::Ipv4Addr::new(127, 0, 0, 2 + u8::try_from(i / 50)?);
        let tcp = tokio::net::TcpSocket::new_v4()?;
        tcp.bind((source, 0).into())?;
        let stream = tcp.connect(addr.parse()?).await?;
        let (mut socket, _) = tokio_tungstenite::client_async(url, stream).await?;
        let received = received.clone();
        readers.push(tokio::spawn(async move {
            while let Some(Ok(m)) = socket.next().await {
                let t = now_ms();
                if let Ok(text) = m.to_text()
                    && let Ok(v) = serde_json::from_str::<Value>(text)
                    && let Some(seq) = v["seq"].as_u64()
                {
                    received.lock().expect("lock").push((seq, t));
                }
            }
        }));
    }

    // The timed rolls.
    let mut sent: HashMap<u64, f64> = HashMap::new();
    for _ in 0..a.rolls {
        let t = now_ms();
        let answer = http(
            &addr,
            "POST",
            &format!("/api/v1/tables/{id}/lines"),
            Some(&gm),
            &json!({"line": "2D6>=7 計測"}),
        )
        .await?;
        for e in answer["events"].as_array().into_iter().flatten() {
            if let Some(seq) = e["seq"].as_u64() {
                sent.insert(seq, t);
            }
        }
        tokio::time::sleep(a.interval).await;
    }
    tokio::time::sleep(Duration::from_millis(1000)).await;

    let mut browser_latency = Vec::new();
    for b in &browsers {
        let seen = b
            .execute("return window.__seen;", Vec::<Value>::new())
            .await?
            .json()
            .clone();
        for (seq, t) in &sent {
            if let Some(at) = seen[seq.to_string()].as_f64() {
                browser_latency.push(at - t);
            }
        }
    }
    let expected = sent.len() * browsers.len();
    println!(
        "browsers: {} of {expected} (roll, browser) deliveries seen",
        browser_latency.len()
    );
    summary("roll → browser log (ms)", browser_latency);
    let got = received.lock().expect("lock").clone();
    let socket_latency: Vec<f64> = got
        .iter()
        .filter_map(|(seq, at)| sent.get(seq).map(|t| at - t))
        .collect();
    println!(
        "sockets: {} of {} (roll, socket) deliveries received",
        socket_latency.len(),
        sent.len() * a.sockets.min(tokens.len().saturating_sub(a.browsers))
    );
    summary("roll → HTML socket (ms)", socket_latency);
    for b in browsers {
        let _ = b.quit().await;
    }
    for r in readers {
        r.abort();
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
