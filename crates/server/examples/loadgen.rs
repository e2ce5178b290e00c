//! Load generator for `taku serve`: live-update latency to many WebSocket members of one
//! table, and the server's memory with many open tables. `tools/bench-live.sh` runs both
//! against a fresh server; BENCHMARKS.md ("Server: live updates and memory") has the
//! figures.
//!
//! ```sh
//! cargo run --release -p taku-server --example loadgen -- --help
//! ```
//!
//! Setup requests and the timed POSTs go over a minimal HTTP/1.1 client with keep-alive
//! (one request at a time per connection, `Content-Length` bodies only, which is all
//! the table API sends); sockets use tokio-tungstenite. Times are taken with one
//! monotonic clock in this process: a delivery's latency is from just before its POST was
//! written to when the socket's reader task received the message, so it includes this
//! process's own scheduling on the cores it shares with the server.

use futures_util::StreamExt;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::error::Error;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::{Semaphore, watch};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::Utf8Bytes;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

type Res<T> = Result<T, Box<dyn Error + Send + Sync>>;

const HELP: &str = "\
loadgen: live-update and memory load for `taku serve` (see BENCHMARKS.md)

USAGE:
  loadgen live   --addr HOST:PORT [options]
  loadgen memory --addr HOST:PORT --pid PID [options]

live: one table (DiceBot), a GM and MEMBERS-1 players joined through invites, one
WebSocket per member (?token=); then phases of rolls posted over HTTP by player p1.
For every (roll, member) pair: the time from just before the POST to that member's
socket receiving the roll's entry (matched by seq). Prints p50/p90/p99/p99.9/max over
all pairs, the time until the last member had each roll, and the POST's own time.
  --members N        members with a socket, GM included      [1000]
  --rolls N          rolls in each paced phase               [200]
  --interval-ms N    pacing of the paced phases              [50]
  --burst N          rolls in the burst phase (posted back to back on one
                     keep-alive connection; 0 skips it)      [200]
  --line LINE        the public roll                         [2D6>=7]
  --secret-line LINE the secret roll                         [S2D6]
  --warmup N         untimed rolls first                     [10]
  --connect-parallel N  sockets connecting at once           [64]
  --pid PID          the server's process id: also report the CPU time it and this
                     process used in each phase (/proc/PID/stat)

memory: reads the server's VmRSS and VmHWM (/proc/PID/status) when fresh, after one
table, after TABLES tables of MEMBERS members (GM + players through invites) and LINES
lines each (rolls and chat in turn, by every member in turn), and, with --sockets,
after one idle WebSocket per table. Every table is read back (GET /api/v1/tables/{id})
before the reading, so each is open in the server's memory.
  --pid PID          the server's process id (required)
  --tables N         tables                                  [1000]
  --members N        members per table, GM included          [3]
  --lines N          lines per table                         [20]
  --parallel N       tables set up at once                   [4]
  --sockets          then one idle WebSocket per table (GM)
";

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{HELP}");
        return;
    }
    let result = match args[0].as_str() {
        "live" => match LiveArgs::parse(&args[1..]) {
            Ok(a) => live(a).await,
            Err(e) => Err(e),
        },
        "memory" => match MemoryArgs::parse(&args[1..]) {
            Ok(a) => memory(a).await,
            Err(e) => Err(e),
        },
        other => Err(format!("unknown mode '{other}': live or memory (see --help)").into()),
    };
    if let Err(e) = result {
        eprintln!("loadgen: {e}");
        std::process::exit(1);
    }
}

/// `--name value` pairs and bare flags.
struct Flags(HashMap<String, String>);

impl Flags {
    fn parse(args: &[String], known: &[&str], switches: &[&str]) -> Res<Flags> {
        let mut map = HashMap::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let Some(name) = a.strip_prefix("--") else {
                return Err(format!("unexpected argument '{a}' (see --help)").into());
            };
            if switches.contains(&name) {
                map.insert(name.to_string(), String::new());
            } else if known.contains(&name) {
                let v = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
                map.insert(name.to_string(), v.clone());
            } else {
                return Err(format!("unknown option --{name} (see --help)").into());
            }
        }
        Ok(Flags(map))
    }

    fn string(&self, name: &str, default: Option<&str>) -> Res<String> {
        match (self.0.get(name), default) {
            (Some(v), _) => Ok(v.clone()),
            (None, Some(d)) => Ok(d.to_string()),
            (None, None) => Err(format!("--{name} is required (see --help)").into()),
        }
    }

    fn number(&self, name: &str, default: Option<usize>) -> Res<usize> {
        match (self.0.get(name), default) {
            (Some(v), _) => v
                .parse()
                .map_err(|_| format!("--{name} must be a whole number, not '{v}'").into()),
            (None, Some(d)) => Ok(d),
            (None, None) => Err(format!("--{name} is required (see --help)").into()),
        }
    }

    fn switch(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }
}

// ---------------------------------------------------------------------------------------
// HTTP/1.1 client

/// One keep-alive HTTP/1.1 connection; reconnects when the server closed it.
struct Http {
    addr: String,
    conn: Option<BufReader<TcpStream>>,
}

impl Http {
    fn new(addr: &str) -> Http {
        Http {
            addr: addr.to_string(),
            conn: None,
        }
    }

    /// `method path` with a JSON body; the status and the JSON answer.
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Res<(u16, Value)> {
        let body = body.map(Value::to_string).unwrap_or_default();
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        // A reused connection the server has since closed fails before any answer: one
        // retry on a fresh connection.
        let reused = self.conn.is_some();
        match self.exchange(request.as_bytes()).await {
            Ok(r) => Ok(r),
            Err(Exchange::BeforeAnswer(_)) if reused => {
                self.conn = None;
                self.exchange(request.as_bytes())
                    .await
                    .map_err(Exchange::into_error)
            }
            Err(e) => {
                self.conn = None;
                Err(e.into_error())
            }
        }
    }

    /// Checks a 2xx status; the JSON answer.
    async fn ok(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Res<Value> {
        let (status, answer) = self.call(method, path, token, body).await?;
        if !(200..300).contains(&status) {
            return Err(format!("{method} {path}: {status} {answer}").into());
        }
        Ok(answer)
    }

    async fn exchange(&mut self, request: &[u8]) -> Result<(u16, Value), Exchange> {
        if self.conn.is_none() {
            let stream = TcpStream::connect(&self.addr)
                .await
                .map_err(|e| Exchange::Failed(e.into()))?;
            stream
                .set_nodelay(true)
                .map_err(|e| Exchange::Failed(e.into()))?;
            self.conn = Some(BufReader::new(stream));
        }
        let Some(conn) = self.conn.as_mut() else {
            return Err(Exchange::Failed("no connection".into()));
        };
        conn.get_mut()
            .write_all(request)
            .await
            .map_err(|e| Exchange::BeforeAnswer(e.into()))?;
        let mut line = String::new();
        let n = conn
            .read_line(&mut line)
            .await
            .map_err(|e| Exchange::BeforeAnswer(e.into()))?;
        if n == 0 {
            return Err(Exchange::BeforeAnswer("connection closed".into()));
        }
        let status: u16 = line
            .get(9..12)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| Exchange::Failed(format!("bad status line {line:?}").into()))?;
        let mut length = None;
        let mut close = false;
        loop {
            line.clear();
            conn.read_line(&mut line)
                .await
                .map_err(|e| Exchange::Failed(e.into()))?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let Some((name, value)) = header.split_once(':') else {
                continue;
            };
            let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
            if name == "content-length" {
                length = value.parse::<usize>().ok();
            } else if name == "connection" && value.eq_ignore_ascii_case("close") {
                close = true;
            } else if name == "transfer-encoding" {
                return Err(Exchange::Failed(
                    format!("unsupported transfer-encoding {value}").into(),
                ));
            }
        }
        let length = length.ok_or_else(|| Exchange::Failed("no content-length".into()))?;
        let mut body = vec![0; length];
        conn.read_exact(&mut body)
            .await
            .map_err(|e| Exchange::Failed(e.into()))?;
        if close {
            self.conn = None;
        }
        let value = if body.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&body).map_err(|e| Exchange::Failed(e.into()))?
        };
        Ok((status, value))
    }
}

enum Exchange {
    /// Nothing of an answer arrived (retryable on a reused connection).
    BeforeAnswer(Box<dyn Error + Send + Sync>),
    Failed(Box<dyn Error + Send + Sync>),
}

impl Exchange {
    fn into_error(self) -> Box<dyn Error + Send + Sync> {
        match self {
            Exchange::BeforeAnswer(e) | Exchange::Failed(e) => e,
        }
    }
}

fn field<'a>(v: &'a Value, name: &str) -> Res<&'a str> {
    v[name]
        .as_str()
        .ok_or_else(|| format!("no '{name}' in {v}").into())
}

// ---------------------------------------------------------------------------------------
// Table setup

/// A table with a GM and `members - 1` players `p1`, `p2`, … joined through invites,
/// `parallel` joins at once; the table id and the tokens, GM first.
async fn table_with_members(
    addr: &str,
    name: &str,
    members: usize,
    parallel: usize,
) -> Res<(String, Vec<String>)> {
    let players = members.saturating_sub(1);
    let mut http = Http::new(addr);
    let first = players.min(32);
    let created = http
        .ok(
            "POST",
            "/api/v1/tables",
            None,
            Some(&json!({"system": "DiceBot", "name": name, "gm": "gm", "invites": first})),
        )
        .await?;
    let id = field(&created, "id")?.to_string();
    let gm = field(&created, "token")?.to_string();
    let mut invites: Vec<String> = Vec::with_capacity(players);
    fn add(invites: &mut Vec<String>, answer: &Value) -> Res<()> {
        for i in answer["invites"].as_array().ok_or("no invites")? {
            invites.push(field(i, "token")?.to_string());
        }
        Ok(())
    }
    add(&mut invites, &created)?;
    while invites.len() < players {
        let count = (players - invites.len()).min(32);
        let more = http
            .ok(
                "POST",
                &format!("/api/v1/tables/{id}/invites"),
                Some(&gm),
                Some(&json!({"role": "player", "count": count})),
            )
            .await?;
        add(&mut invites, &more)?;
    }
    let mut tokens = vec![gm];
    if players <= 2 || parallel <= 1 {
        for (i, invite) in invites.iter().enumerate() {
            tokens.push(join(&mut http, &id, invite, i + 1).await?);
        }
        return Ok((id, tokens));
    }
    // Joins in `parallel` workers, each with its own connection.
    let work: Arc<Vec<String>> = Arc::new(invites);
    let next = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..parallel {
        let (work, next, addr, id) = (work.clone(), next.clone(), addr.to_string(), id.clone());
        workers.push(tokio::spawn(async move {
            let mut http = Http::new(&addr);
            let mut got = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(invite) = work.get(i) else { break };
                got.push((i, join(&mut http, &id, invite, i + 1).await?));
            }
            Res::Ok(got)
        }));
    }
    let mut joined = vec![String::new(); work.len()];
    for w in workers {
        for (i, token) in w.await?? {
            joined[i] = token;
        }
    }
    tokens.extend(joined);
    Ok((id, tokens))
}

async fn join(http: &mut Http, id: &str, invite: &str, n: usize) -> Res<String> {
    let joined = http
        .ok(
            "POST",
            &format!("/api/v1/tables/{id}/join"),
            None,
            Some(&json!({"invite": invite, "name": format!("p{n}")})),
        )
        .await?;
    Ok(field(&joined, "token")?.to_string())
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A member's live socket. The read buffer is 4 KiB rather than tungstenite's default
/// 128 KiB: tungstenite zero-fills the whole free buffer before every read attempt
/// (including one that finds nothing), which at 1,000 sockets made this generator's own
/// reads cost more than the server's sends.
async fn connect(addr: &str, id: &str, token: &str) -> Res<Socket> {
    let url = format!("ws://{addr}/api/v1/tables/{id}/live?token={token}");
    let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
    let (socket, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), true).await?;
    Ok(socket)
}

/// Connects one socket per `(table, token)`, `parallel` handshakes at once.
async fn connect_all(addr: &str, who: &[(String, String)], parallel: usize) -> Res<Vec<Socket>> {
    let gate = Arc::new(Semaphore::new(parallel.max(1)));
    let mut tasks = Vec::with_capacity(who.len());
    for (id, token) in who {
        let (gate, addr, id, token) = (gate.clone(), addr.to_string(), id.clone(), token.clone());
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire_owned().await?;
            connect(&addr, &id, &token).await
        }));
    }
    let mut sockets = Vec::with_capacity(tasks.len());
    for t in tasks {
        sockets.push(t.await??);
    }
    Ok(sockets)
}

// ---------------------------------------------------------------------------------------
// live

struct LiveArgs {
    addr: String,
    members: usize,
    rolls: usize,
    interval: Duration,
    burst: usize,
    line: String,
    secret_line: String,
    warmup: usize,
    connect_parallel: usize,
    pid: Option<u32>,
}

impl LiveArgs {
    fn parse(args: &[String]) -> Res<LiveArgs> {
        let f = Flags::parse(
            args,
            &[
                "addr",
                "members",
                "rolls",
                "interval-ms",
                "burst",
                "line",
                "secret-line",
                "warmup",
                "connect-parallel",
                "pid",
            ],
            &[],
        )?;
        let members = f.number("members", Some(1000))?;
        if members < 2 {
            return Err("--members must be at least 2 (the GM and the player who rolls)".into());
        }
        Ok(LiveArgs {
            addr: f.string("addr", None)?,
            members,
            rolls: f.number("rolls", Some(200))?,
            interval: Duration::from_millis(f.number("interval-ms", Some(50))? as u64),
            burst: f.number("burst", Some(200))?,
            line: f.string("line", Some("2D6>=7"))?,
            secret_line: f.string("secret-line", Some("S2D6"))?,
            warmup: f.number("warmup", Some(10))?,
            connect_parallel: f.number("connect-parallel", Some(64))?,
            pid: match f.number("pid", Some(0))? {
                0 => None,
                p => Some(u32::try_from(p)?),
            },
        })
    }
}

/// What one socket received: when, and the message.
type Received = Vec<(Instant, Utf8Bytes)>;

/// One posted roll.
struct Posted {
    phase: usize,
    seq: u64,
    sent: Instant,
    post: Duration,
}

async fn live(a: LiveArgs) -> Res<()> {
    let started = Instant::now();
    let (id, tokens) = table_with_members(&a.addr, "live bench", a.members, 4).await?;
    println!(
        "setup: table {id}, {} members joined in {:.1} s",
        tokens.len(),
        started.elapsed().as_secs_f64()
    );

    let t = Instant::now();
    let who: Vec<(String, String)> = tokens.iter().map(|k| (id.clone(), k.clone())).collect();
    let sockets = connect_all(&a.addr, &who, a.connect_parallel).await?;
    println!(
        "setup: {} WebSockets open in {:.2} s",
        sockets.len(),
        t.elapsed().as_secs_f64()
    );

    // One reader task per socket: it only stamps and keeps each message.
    let received = Arc::new(AtomicUsize::new(0));
    let (stop, stopped) = watch::channel(false);
    let mut readers = Vec::with_capacity(sockets.len());
    for mut socket in sockets {
        let (received, mut stopped) = (received.clone(), stopped.clone());
        readers.push(tokio::spawn(async move {
            let mut got: Received = Vec::with_capacity(1024);
            loop {
                tokio::select! {
                    m = socket.next() => match m {
                        Some(Ok(Message::Text(text))) => {
                            got.push((Instant::now(), text));
                            received.fetch_add(1, Ordering::Release);
                        }
                        Some(Ok(_)) => {}
                        Some(Err(_)) | None => break,
                    },
                    _ = stopped.changed() => break,
                }
            }
            let _ = socket.close(None).await;
            got
        }));
    }
    let sockets = readers.len();

    let roller = tokens.get(1).ok_or("no player")?.clone();
    let mut http = Http::new(&a.addr);
    let path = format!("/api/v1/tables/{id}/lines");
    let mut posted: Vec<Posted> = Vec::new();
    let mut expected = 0usize;

    struct Phase {
        name: String,
        line: String,
        count: usize,
        interval: Option<Duration>,
    }
    let mut phases = vec![Phase {
        name: "warmup".into(),
        line: a.line.clone(),
        count: a.warmup,
        interval: Some(a.interval),
    }];
    phases.push(Phase {
        name: format!("{} paced {} ms", a.line, a.interval.as_millis()),
        line: a.line.clone(),
        count: a.rolls,
        interval: Some(a.interval),
    });
    phases.push(Phase {
        name: format!(
            "{} (secret) paced {} ms",
            a.secret_line,
            a.interval.as_millis()
        ),
        line: a.secret_line.clone(),
        count: a.rolls,
        interval: Some(a.interval),
    });
    if a.burst > 0 {
        phases.push(Phase {
            name: format!("{} burst (back to back)", a.line),
            line: a.line.clone(),
            count: a.burst,
            interval: None,
        });
    }

    let mut cpu: Vec<(f64, f64, f64)> = Vec::new();
    for (p, phase) in phases.iter().enumerate() {
        let cpu_before = (
            a.pid.map(cpu_seconds).transpose()?,
            cpu_seconds_self()?,
            machine_busy_seconds()?,
        );
        let start = Instant::now();
        let body = json!({"line": phase.line});
        for i in 0..phase.count {
            if let Some(every) = phase.interval {
                tokio::time::sleep_until((start + every * i as u32).into()).await;
            }
            let sent = Instant::now();
            let answer = http.ok("POST", &path, Some(&roller), Some(&body)).await?;
            let post = sent.elapsed();
            let events = answer["events"].as_array().ok_or("no events")?;
            for e in events {
                let seq = e["seq"].as_u64().ok_or("no seq")?;
                posted.push(Posted {
                    phase: p,
                    seq,
                    sent,
                    post,
                });
                expected += sockets;
            }
        }
        // Every socket has every entry, or 30 s passed.
        let deadline = Instant::now() + Duration::from_secs(30);
        while received.load(Ordering::Acquire) < expected && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let server = match (a.pid, cpu_before.0) {
            (Some(pid), Some(before)) => cpu_seconds(pid)? - before,
            _ => f64::NAN,
        };
        cpu.push((
            server,
            cpu_seconds_self()? - cpu_before.1,
            machine_busy_seconds()? - cpu_before.2,
        ));
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    stop.send_replace(true);
    let mut all: Vec<Received> = Vec::with_capacity(sockets);
    for r in readers {
        all.push(r.await?);
    }
    let total: usize = all.iter().map(Vec::len).sum();

    // Latencies per phase, and per roll the time until its last member had it.
    let by_seq: HashMap<u64, &Posted> = posted.iter().map(|p| (p.seq, p)).collect();
    let mut pairs: Vec<Vec<Duration>> = vec![Vec::new(); phases.len()];
    let mut last: HashMap<u64, Duration> = HashMap::new();
    let mut texts: HashMap<u64, HashSet<String>> = HashMap::new();
    let mut unmatched = 0usize;
    for got in &all {
        for (at, text) in got {
            let v: Value = serde_json::from_str(text)?;
            let Some(p) = v["seq"].as_u64().and_then(|s| by_seq.get(&s)) else {
                unmatched += 1;
                continue;
            };
            let latency = at.saturating_duration_since(p.sent);
            pairs[p.phase].push(latency);
            let l = last.entry(p.seq).or_default();
            *l = (*l).max(latency);
            texts
                .entry(p.seq)
                .or_default()
                .insert(v["text"].as_str().unwrap_or("").to_string());
        }
    }

    println!(
        "\n{} sockets; {} messages received, {} expected, {} not matched to a posted roll",
        sockets, total, expected, unmatched
    );
    for (p, phase) in phases.iter().enumerate() {
        if p == 0 || phase.count == 0 {
            continue;
        }
        let mine: Vec<&Posted> = posted.iter().filter(|x| x.phase == p).collect();
        let rolls = mine.len();
        let want = rolls * sockets;
        let lat = &mut pairs[p];
        let mut lasts: Vec<Duration> = mine
            .iter()
            .filter_map(|x| last.get(&x.seq).copied())
            .collect();
        let mut posts: Vec<Duration> = mine.iter().map(|x| x.post).collect();
        let views: HashSet<usize> = mine
            .iter()
            .filter_map(|x| texts.get(&x.seq).map(HashSet::len))
            .collect();
        let span = match (mine.first(), mine.last()) {
            (Some(f), Some(l)) => (l.sent + l.post).saturating_duration_since(f.sent),
            _ => Duration::ZERO,
        };
        println!("\n== {} ==", phase.name);
        println!(
            "rolls {rolls} over {:.2} s; deliveries {} of {want} (roll × member); distinct texts per roll: {:?}",
            span.as_secs_f64(),
            lat.len(),
            {
                let mut v: Vec<usize> = views.into_iter().collect();
                v.sort_unstable();
                v
            }
        );
        println!("{}", summary("delivery, all pairs", lat));
        println!("{}", summary("last member, per roll", &mut lasts));
        println!("{}", summary("POST answered", &mut posts));
        let (server, me, machine) = cpu[p];
        let per_roll = |s: f64| s * 1e3 / rolls as f64;
        println!(
            "CPU per roll (1 POST + {sockets} deliveries): server {:.2} ms, loadgen {:.2} ms; everything else on the machine {:.2} ms ({:.0}% of one core over the phase)",
            per_roll(server),
            per_roll(me),
            per_roll(machine - server - me),
            (machine - server - me) / span.as_secs_f64().max(1e-9) * 100.0
        );
    }
    Ok(())
}

/// User + system CPU time of process `pid` so far, in seconds (`/proc/PID/stat`).
fn cpu_seconds(pid: u32) -> Res<f64> {
    stat_cpu(&std::fs::read_to_string(format!("/proc/{pid}/stat"))?)
}

fn cpu_seconds_self() -> Res<f64> {
    stat_cpu(&std::fs::read_to_string("/proc/self/stat")?)
}

/// CPU time all cores spent busy so far (user, nice, system, irq, softirq, steal), in
/// seconds (`/proc/stat`).
fn machine_busy_seconds() -> Res<f64> {
    let stat = std::fs::read_to_string("/proc/stat")?;
    let line = stat.lines().next().ok_or("empty /proc/stat")?;
    let ticks: Vec<f64> = line
        .split_whitespace()
        .skip(1)
        .take(8)
        .map(str::parse::<f64>)
        .collect::<Result<_, _>>()?;
    let [user, nice, system, _idle, _iowait, irq, softirq, steal] = ticks[..] else {
        return Err("short /proc/stat".into());
    };
    Ok((user + nice + system + irq + softirq + steal) / 100.0)
}

fn stat_cpu(stat: &str) -> Res<f64> {
    // Fields after the command name (which may hold spaces) start at field 3; utime and
    // stime are fields 14 and 15, in clock ticks of (on Linux) 1/100 s.
    let rest = stat.rsplit_once(')').ok_or("bad stat")?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| -> Res<f64> { Ok(fields.get(i).ok_or("short stat")?.parse::<f64>()?) };
    Ok((ticks(11)? + ticks(12)?) / 100.0)
}

/// `label: p50 … p90 … p99 … p99.9 … max …` in milliseconds.
fn summary(label: &str, values: &mut [Duration]) -> String {
    if values.is_empty() {
        return format!("{label:<24} (none)");
    }
    values.sort_unstable();
    let at = |q: f64| {
        let i = ((values.len() as f64 * q).ceil() as usize).clamp(1, values.len()) - 1;
        values[i].as_secs_f64() * 1e3
    };
    format!(
        "{label:<24} n={:<7} p50 {:7.2} ms  p90 {:7.2} ms  p99 {:7.2} ms  p99.9 {:7.2} ms  max {:7.2} ms",
        values.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(0.999),
        values[values.len() - 1].as_secs_f64() * 1e3
    )
}

// ---------------------------------------------------------------------------------------
// memory

struct MemoryArgs {
    addr: String,
    pid: u32,
    tables: usize,
    members: usize,
    lines: usize,
    parallel: usize,
    sockets: bool,
}

impl MemoryArgs {
    fn parse(args: &[String]) -> Res<MemoryArgs> {
        let f = Flags::parse(
            args,
            &["addr", "pid", "tables", "members", "lines", "parallel"],
            &["sockets"],
        )?;
        let members = f.number("members", Some(3))?;
        if members == 0 {
            return Err("--members must be at least 1 (the GM)".into());
        }
        Ok(MemoryArgs {
            addr: f.string("addr", None)?,
            pid: u32::try_from(f.number("pid", None)?)?,
            tables: f.number("tables", Some(1000))?,
            members,
            lines: f.number("lines", Some(20))?,
            parallel: f.number("parallel", Some(4))?,
            sockets: f.switch("sockets"),
        })
    }
}

/// VmRSS and VmHWM of `pid`, in KiB.
fn rss(pid: u32) -> Res<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let kib = |name: &str| -> Res<u64> {
        let line = status
            .lines()
            .find(|l| l.starts_with(name))
            .ok_or_else(|| format!("no {name} in /proc/{pid}/status"))?;
        Ok(line.split_whitespace().nth(1).ok_or("no number")?.parse()?)
    };
    Ok((kib("VmRSS:")?, kib("VmHWM:")?))
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// One table: members joined, then `lines` lines, rolls and chat in turn, by each member
/// in turn; the table id and the GM's token.
async fn memory_table(
    http: &mut Http,
    addr: &str,
    n: usize,
    a: &MemoryArgs,
) -> Res<(String, String)> {
    let (id, tokens) = table_with_members(addr, &format!("memory {n}"), a.members, 1).await?;
    let path = format!("/api/v1/tables/{id}/lines");
    for i in 0..a.lines {
        let line = if i % 2 == 0 {
            "2D6+4>=10".to_string()
        } else {
            format!("chat line {i}: the party walks into the tavern")
        };
        let token = &tokens[i % tokens.len()];
        http.ok("POST", &path, Some(token), Some(&json!({"line": line})))
            .await?;
    }
    Ok((id, tokens[0].clone()))
}

async fn memory(a: MemoryArgs) -> Res<()> {
    let a = Arc::new(a);
    let (fresh, fresh_hwm) = rss(a.pid)?;
    println!(
        "fresh server:           VmRSS {:8.1} MiB  VmHWM {:8.1} MiB",
        mib(fresh),
        mib(fresh_hwm)
    );
    let mut http = Http::new(&a.addr);
    let first = memory_table(&mut http, &a.addr, 0, &a).await?;
    let (one, one_hwm) = rss(a.pid)?;
    println!(
        "after 1 table:          VmRSS {:8.1} MiB  VmHWM {:8.1} MiB",
        mib(one),
        mib(one_hwm)
    );

    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(1));
    let mut workers = Vec::new();
    for _ in 0..a.parallel.max(1) {
        let (a, next) = (a.clone(), next.clone());
        workers.push(tokio::spawn(async move {
            let mut http = Http::new(&a.addr);
            let mut made = Vec::new();
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= a.tables {
                    break;
                }
                made.push(memory_table(&mut http, &a.addr, n, &a).await?);
            }
            Res::Ok(made)
        }));
    }
    let mut tables = vec![first];
    for w in workers {
        tables.extend(w.await??);
    }
    let setup = started.elapsed();
    // Read every table back: each is then certainly open in the server's memory.
    for (id, gm) in &tables {
        let state = http
            .ok("GET", &format!("/api/v1/tables/{id}"), Some(gm), None)
            .await?;
        let last = state["last_seq"].as_u64().ok_or("no last_seq")?;
        if last < (a.members + a.lines) as u64 {
            return Err(format!("table {id} ends at seq {last}: lines missing").into());
        }
    }
    // Let the allocator settle (freed request buffers) before reading.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (after, after_hwm) = rss(a.pid)?;
    let events = a.members + a.lines;
    println!(
        "after {} tables:     VmRSS {:8.1} MiB  VmHWM {:8.1} MiB   ({} members, {} lines, {} events each; set up in {:.1} s)",
        tables.len(),
        mib(after),
        mib(after_hwm),
        a.members,
        a.lines,
        events,
        setup.as_secs_f64()
    );
    let n = tables.len().saturating_sub(1).max(1) as f64;
    println!(
        "growth: {:.1} MiB over the fresh server = {:.1} KiB per table; {:.1} MiB over one table = {:.1} KiB per further table",
        mib(after.saturating_sub(fresh)),
        after.saturating_sub(fresh) as f64 / tables.len() as f64,
        mib(after.saturating_sub(one)),
        after.saturating_sub(one) as f64 / n,
    );

    if a.sockets {
        let who: Vec<(String, String)> = tables.clone();
        let sockets = connect_all(&a.addr, &who, 64).await?;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let (with, with_hwm) = rss(a.pid)?;
        println!(
            "+ {} idle WebSockets:  VmRSS {:8.1} MiB  VmHWM {:8.1} MiB   ({:.1} KiB per socket)",
            sockets.len(),
            mib(with),
            mib(with_hwm),
            with.saturating_sub(after) as f64 / sockets.len().max(1) as f64
        );
        drop(sockets);
    }
    Ok(())
}
