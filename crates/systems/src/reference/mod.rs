//! The reference engine: BCDice's JavaScript build (npm `bcdice`, pinned to
//! [`PINNED_VERSION`]) for the game systems taku does not carry natively.
//!
//! A small pool of Node worker processes ([`worker.js`](./worker.js)) evaluates commands;
//! they speak JSON lines over pipes, start on first use and are replaced when they die or
//! overrun the time limit. Randomness stays taku's: the worker asks its parent for every
//! die, and the parent draws it from the [`DiceSource`] of the evaluation, so a reference
//! roll is recorded, replayed by `verify` and protected at a table like a native one.
//!
//! Setting up is optional and explicit ([`Config::detect`]): without Node or the package
//! the native systems work and a reference id answers as unknown.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use taku_dice::roller::MAX_DRAWS;
use taku_dice::{
    DiceSource, Draw, DrawKind, EngineFailure, EvalError, Mode, RollResult, Text, result::Detail,
};

use crate::{EngineKind, GameSystem};

mod pump;

/// The npm `bcdice` version the reference engine is pinned to (BCDice 3.16.1).
pub const PINNED_VERSION: &str = "4.9.0";

/// The worker's source, written next to the package when the pool starts.
const WORKER_JS: &str = include_str!("worker.js");

/// Ids whose native implementation passes the system's complete BCDice test file; on any
/// other id both engines know, the reference engine answers.
pub const NATIVE_VERIFIED: &[&str] = &["DiceBot", "SRS", "Sengensyou"];

/// How to reach the reference engine.
#[derive(Debug, Clone)]
pub struct Config {
    /// A directory holding `node_modules/bcdice` (what `taku bcdice install` fills).
    pub dir: PathBuf,
    /// The Node.js executable.
    pub node: PathBuf,
    /// Worker processes at most.
    pub workers: usize,
    /// Time limit of one evaluation.
    pub time_limit: Duration,
    /// Heap limit of a worker, in MiB (`--max-old-space-size`).
    pub memory_mib: u32,
}

impl Config {
    /// A configuration with default limits for the package under `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Config {
            dir: dir.into(),
            node: std::env::var_os("TAKU_NODE")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("node")),
            workers: 2,
            time_limit: Duration::from_secs(2),
            memory_mib: 256,
        }
    }

    /// The configuration the environment asks for: `TAKU_BCDICE_JS` names the directory,
    /// else [`default_dir`] when the package is installed there. `None`: not set up.
    pub fn detect() -> Option<Self> {
        let dir = match std::env::var_os("TAKU_BCDICE_JS") {
            Some(d) if !d.is_empty() => PathBuf::from(d),
            _ => default_dir()?,
        };
        package_json(&dir).is_file().then(|| Config::new(dir))
    }
}

/// Where `taku bcdice install` puts the package: `$XDG_DATA_HOME/taku/bcdice-js`, else
/// `~/.local/share/taku/bcdice-js`.
pub fn default_dir() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_DATA_HOME") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(std::env::var_os("HOME")?).join(".local/share"),
    };
    Some(base.join("taku").join("bcdice-js"))
}

fn package_json(dir: &Path) -> PathBuf {
    dir.join("node_modules/bcdice/package.json")
}

/// How to enable the reference engine, for messages that find it missing.
pub fn how_to_enable() -> Text {
    Text::new(
        "BCDice の他のシステムを使うには `taku bcdice install`（Node.js と npm が必要）を実行するか、\
         `--bcdice-js DIR` / 環境変数 TAKU_BCDICE_JS で npm パッケージ bcdice@4.9.0 を入れたディレクトリを指定してください",
        "to use BCDice's other systems run `taku bcdice install` (needs Node.js and npm), or \
         name a directory holding npm bcdice@4.9.0 with `--bcdice-js DIR` or TAKU_BCDICE_JS",
    )
}

static ENGINE: OnceLock<Option<Engine>> = OnceLock::new();

/// Sets the reference engine up before its first use (`None`: off). Returns `false` when
/// it was already set up (by an earlier call or a first use), which this call cannot change.
pub fn configure(config: Option<Config>) -> Result<bool, String> {
    let engine = match config {
        Some(c) => Some(Engine::open(c)?),
        None => None,
    };
    Ok(ENGINE.set(engine).is_ok())
}

/// The reference engine, set up on first use from [`Config::detect`] unless
/// [`configure`] ran first. `None`: not set up.
pub fn engine() -> Option<&'static Engine> {
    ENGINE
        .get_or_init(|| {
            let config = Config::detect()?;
            match Engine::open(config) {
                Ok(e) => Some(e),
                Err(why) => {
                    eprintln!("taku: reference engine off: {why}");
                    None
                }
            }
        })
        .as_ref()
}

/// The reference engine: its systems and its worker pool.
pub struct Engine {
    config: Config,
    script: PathBuf,
    systems: Vec<&'static ReferenceSystem>,
    pool: Mutex<PoolState>,
    /// Signalled when a worker has room again (or a place in the pool is free).
    freed: Condvar,
    /// The sides each recent command drew, by [`sides_key`], for [`Engine::draw_ahead`].
    sides_seen: Mutex<HashMap<u64, Box<[u32]>>>,
    /// The workers serving [`Engine::roll_unrecorded`], started on its first call (and
    /// again if the runtime they ran on has shut down).
    lanes: Mutex<Option<Arc<pump::Lanes>>>,
}

/// The live workers, each with how many requests it holds (evaluating or waiting in its
/// pipe), and how many are being started.
struct PoolState {
    workers: Vec<(Arc<Worker>, usize)>,
    starting: usize,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("config", &self.config)
            .field("systems", &self.systems.len())
            .finish()
    }
}

impl Engine {
    /// Reads the package's system list and checks its version; workers start on first use.
    pub fn open(mut config: Config) -> Result<Engine, String> {
        // The worker runs in the directory: a relative path would be read twice.
        if let Ok(dir) = std::fs::canonicalize(&config.dir) {
            config.dir = dir;
        }
        let pkg = package_json(&config.dir);
        let text = std::fs::read_to_string(&pkg)
            .map_err(|e| format!("{}: {e} ({})", pkg.display(), how_to_enable().en()))?;
        let meta: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", pkg.display()))?;
        let version = meta["version"].as_str().unwrap_or("?");
        if version != PINNED_VERSION {
            return Err(format!(
                "{} is bcdice {version}; taku is pinned to {PINNED_VERSION} (run `taku bcdice install`)",
                pkg.display()
            ));
        }
        let list = config
            .dir
            .join("node_modules/bcdice/lib/bcdice/game_system_list.json");
        let text =
            std::fs::read_to_string(&list).map_err(|e| format!("{}: {e}", list.display()))?;
        let list: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", list.display()))?;
        let mut systems = Vec::new();
        for info in list["gameSystems"].as_array().into_iter().flatten() {
            let (Some(id), Some(name), Some(sort_key)) = (
                info["id"].as_str(),
                info["name"].as_str(),
                info["sortKey"].as_str(),
            ) else {
                continue;
            };
            let system: &'static ReferenceSystem = Box::leak(Box::new(ReferenceSystem {
                id: leak(id),
                name: leak(name),
                sort_key: leak(sort_key),
                info: OnceLock::new(),
                pattern: OnceLock::new(),
            }));
            systems.push(system);
        }
        let script = config.dir.join("taku-worker.js");
        if std::fs::read_to_string(&script).ok().as_deref() != Some(WORKER_JS) {
            std::fs::write(&script, WORKER_JS).map_err(|e| format!("{}: {e}", script.display()))?;
        }
        Ok(Engine {
            config,
            script,
            systems,
            pool: Mutex::new(PoolState {
                workers: Vec::new(),
                starting: 0,
            }),
            freed: Condvar::new(),
            sides_seen: Mutex::new(HashMap::new()),
            lanes: Mutex::new(None),
        })
    }

    /// Every system of the package, in the package's order.
    pub fn systems(&self) -> &[&'static ReferenceSystem] {
        &self.systems
    }

    /// The system with this id.
    pub fn find(&self, id: &str) -> Option<&'static ReferenceSystem> {
        self.systems.iter().copied().find(|s| s.id == id)
    }

    /// The configuration in use.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Requests the engine holds at once: three for each worker (one evaluating, two waiting in its pipe).
    pub fn capacity(&self) -> usize {
        self.config.workers.max(1) * DEPTH
    }

    /// Requests the workers hold now (evaluating or waiting in a pipe).
    pub fn held(&self) -> usize {
        let pool = self.pool.lock().unwrap_or_else(|p| p.into_inner());
        pool.workers.iter().map(|(_, n)| n).sum()
    }

    /// Sends one request and answers the worker's draws from `source` until it answers.
    /// Returns the answer and every draw handed out on request, `(sides, face)`;
    /// `already` draws were handed out ahead with the request.
    ///
    /// A request waits in its worker's pipe behind at most [`DEPTH`]` - 1` others, so the
    /// worker starts the next the moment it answers one. One whose worker died before its
    /// turn came (the request ahead hung or crashed it) was never evaluated and drew
    /// nothing: it is sent again, to another worker.
    fn call(
        &self,
        request: &Value,
        system: &str,
        already: usize,
        mut source: Option<&mut dyn DiceSource>,
    ) -> Result<(Value, Vec<(u32, u32)>), EvalError> {
        let mut line = request.to_string();
        line.push('\n');
        let give_up = Instant::now() + self.config.time_limit;
        let mut tries = 0;
        loop {
            tries += 1;
            let worker = self.checkout(give_up)?;
            let outcome = worker.exchange(
                &self.config,
                line.as_bytes(),
                system,
                already,
                source.as_deref_mut(),
            );
            self.checkin(&worker);
            return match outcome {
                Ok(answer) => Ok(answer),
                Err(Fault::Eval(e)) => Err(e),
                Err(Fault::NotStarted) if tries < 3 => continue,
                Err(Fault::NotStarted) => Err(EvalError::Engine(EngineFailure::Busy)),
                Err(Fault::Crashed(why)) => Err(EvalError::Engine(EngineFailure::Crashed(why))),
                Err(Fault::TimedOut) => Err(EvalError::Engine(EngineFailure::TimedOut {
                    ms: self.config.time_limit.as_millis() as u64,
                })),
            };
        }
    }

    /// Draws for the sides the command under `key` asked for the last time it was
    /// evaluated (`None`: `source` may not draw ahead, none are taken): the worker uses them while its draws ask for the same
    /// sides, in order, and asks for the rest, so the draws a result records are still
    /// exactly the ones it used. Saves a round trip to the worker per draw.
    fn draw_ahead(&self, key: Option<u64>, source: &mut dyn DiceSource) -> Vec<(u32, u32)> {
        let Some(key) = key else {
            return Vec::new();
        };
        let sides = {
            let seen = self.sides_seen.lock().unwrap_or_else(|p| p.into_inner());
            match seen.get(&key) {
                Some(sides) => sides.clone(),
                None => return Vec::new(),
            }
        };
        let mut ahead = Vec::with_capacity(sides.len());
        for sides in sides {
            match source.roll(sides) {
                Ok(face) => ahead.push((sides, face)),
                Err(_) => break,
            }
        }
        ahead
    }

    /// Remembers the sides an evaluation of `key` drew, for [`Engine::draw_ahead`].
    fn remember_sides(&self, key: u64, drawn: &[(u32, u32)]) {
        if drawn.len() > MAX_AHEAD {
            return;
        }
        let sides: Box<[u32]> = drawn.iter().map(|&(sides, _)| sides).collect();
        let mut seen = self.sides_seen.lock().unwrap_or_else(|p| p.into_inner());
        if seen.get(&key) == Some(&sides) {
            return;
        }
        if seen.len() >= MAX_SIDES_SEEN {
            seen.clear();
        }
        seen.insert(key, sides);
    }

    /// Evaluates `input` under the reference system `id`, drawing from `source`.
    pub fn evaluate(
        &self,
        id: &str,
        input: &str,
        source: &mut dyn DiceSource,
    ) -> Result<RollResult, EvalError> {
        let ask = self.ask(id, input, source)?;
        let (answer, asked) = self.call(&ask.request, id, ask.ahead.len(), Some(source))?;
        self.finish(ask, &answer, asked)
    }

    /// The request for one evaluation, with the draws taken ahead from `source` (only
    /// dice nothing records are drawn ahead); refused before any worker sees it when it
    /// is empty or nests too deep.
    fn ask(&self, id: &str, input: &str, source: &mut dyn DiceSource) -> Result<Ask, EvalError> {
        if input.trim().is_empty() {
            return Err(EvalError::Empty);
        }
        // BCDice's parser takes about a millisecond a level of nesting: refused here
        // rather than run to the time limit in a worker.
        if nesting(input) > MAX_NESTING {
            return Err(EvalError::Engine(EngineFailure::TooDeep {
                limit: MAX_NESTING,
            }));
        }
        let key = source.may_draw_ahead().then(|| sides_key(id, input));
        let ahead = self.draw_ahead(key, source);
        let request = if ahead.is_empty() {
            json!({ "op": "eval", "system": id, "input": input })
        } else {
            json!({ "op": "eval", "system": id, "input": input, "ahead": ahead })
        };
        Ok(Ask {
            request,
            key,
            ahead,
        })
    }

    /// The result of an evaluation from the worker's answer and the draws it asked for
    /// (after those taken ahead).
    fn finish(
        &self,
        ask: Ask,
        answer: &Value,
        asked: Vec<(u32, u32)>,
    ) -> Result<RollResult, EvalError> {
        let Ask { key, ahead, .. } = ask;
        // The draws taken ahead that the worker used come first; the rest are thrown away.
        let used = answer["used"]
            .as_u64()
            .map_or(0, |n| (n as usize).min(ahead.len()));
        let mut drawn = ahead;
        drawn.truncate(used);
        drawn.extend(asked);
        if let Some(key) = key
            && answer.get("ok").is_some_and(|ok| !ok.is_null())
        {
            self.remember_sides(key, &drawn);
        }
        if let Some(why) = answer.get("error").and_then(Value::as_str) {
            // BCDice's own dice limit, raised without a message.
            if answer["name"]
                .as_str()
                .is_some_and(|n| n.ends_with("TooManyRandsError"))
            {
                return Err(EvalError::TooManyDice { limit: MAX_DRAWS });
            }
            let why = if why.trim().is_empty() {
                answer["name"]
                    .as_str()
                    .unwrap_or("an error without a message")
            } else {
                why
            };
            return Err(EvalError::Engine(EngineFailure::Raised(why.to_string())));
        }
        if let Some(why) = answer.get("refused").and_then(Value::as_str) {
            return Err(EvalError::Engine(EngineFailure::Raised(why.to_string())));
        }
        let Some(ok) = answer.get("ok") else {
            return Err(EvalError::Engine(EngineFailure::Crashed(
                "an answer without a result".into(),
            )));
        };
        if ok.is_null() {
            return Err(EvalError::Unsupported(None));
        }
        let flag = |name: &str| ok[name].as_bool().unwrap_or(false);
        // Each draw keeps the face taku's source gave (what replays it); the engine's own
        // record, one entry per draw, says how it was read (`tens_d10`, `d9`).
        let kinds: Vec<DrawKind> = ok["rands"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| match d[0].as_str() {
                Some("tens_d10") => DrawKind::TensD10,
                Some("d9") => DrawKind::D9,
                _ => DrawKind::Normal,
            })
            .collect();
        let same_count = kinds.len() == drawn.len();
        let rands = drawn
            .iter()
            .enumerate()
            .map(|(i, &(sides, value))| Draw {
                kind: if same_count {
                    kinds[i]
                } else {
                    DrawKind::Normal
                },
                sides,
                value,
            })
            .collect();
        Ok(RollResult {
            text: ok["text"].as_str().unwrap_or_default().to_string(),
            secret: flag("secret"),
            success: flag("success"),
            failure: flag("failure"),
            critical: flag("critical"),
            fumble: flag("fumble"),
            rands,
            detail: Detail::Message,
        })
    }

    fn info(&self, id: &str) -> Result<(String, String), EvalError> {
        let (answer, _) = self.call(&json!({ "op": "info", "system": id }), id, 0, None)?;
        let ok = &answer["ok"];
        match (ok["help"].as_str(), ok["pattern"].as_str()) {
            (Some(help), Some(pattern)) => Ok((help.to_string(), pattern.to_string())),
            _ => Err(EvalError::Engine(EngineFailure::Raised(
                answer["error"].as_str().unwrap_or("no help").to_string(),
            ))),
        }
    }

    /// A worker for one more request: an idle one; else a new one while the pool has
    /// room; else the one holding fewest, below [`DEPTH`]; else the first with room
    /// within the time limit ([`EngineFailure::Busy`] after it).
    fn checkout(&self, give_up: Instant) -> Result<Arc<Worker>, EvalError> {
        let mut pool = self.pool.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            pool.workers.retain(|(w, _)| !w.is_dead());
            let least = (0..pool.workers.len()).min_by_key(|&i| pool.workers[i].1);
            if let Some(i) = least.filter(|&i| pool.workers[i].1 == 0) {
                // An idle worker that died (killed, out of memory) is replaced, not used.
                if !pool.workers[i].0.has_exited() {
                    pool.workers[i].1 += 1;
                    return Ok(pool.workers[i].0.clone());
                }
                pool.workers[i].0.kill();
                continue;
            }
            if pool.workers.len() + pool.starting < self.config.workers.max(1) {
                pool.starting += 1;
                drop(pool);
                let spawned = Worker::spawn(&self.config, &self.script);
                let mut pool = self.pool.lock().unwrap_or_else(|p| p.into_inner());
                pool.starting -= 1;
                return match spawned {
                    Ok(w) => {
                        let w = Arc::new(w);
                        pool.workers.push((w.clone(), 1));
                        Ok(w)
                    }
                    Err(why) => {
                        self.freed.notify_one();
                        Err(EvalError::Engine(EngineFailure::Crashed(why)))
                    }
                };
            }
            if let Some(i) = least.filter(|&i| pool.workers[i].1 < DEPTH) {
                pool.workers[i].1 += 1;
                return Ok(pool.workers[i].0.clone());
            }
            let left = give_up.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(EvalError::Engine(EngineFailure::Busy));
            }
            pool = self
                .freed
                .wait_timeout(pool, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }

    /// A request `worker` held is done (answered, or the worker is dead).
    fn checkin(&self, worker: &Arc<Worker>) {
        let mut pool = self.pool.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(slot) = pool
            .workers
            .iter_mut()
            .find(|(w, _)| Arc::ptr_eq(w, worker))
        {
            slot.1 -= 1;
        }
        self.freed.notify_one();
    }
}

/// Most draw sequences `taku prob` enumerates through the reference engine (each is an
/// evaluation in a worker process).
pub const MAX_ODDS_PATHS: u64 = 20_000;

/// The line as the engine reads it: full-width folded first in [`Mode::Normalize`].
fn fold(input: &str, mode: Mode) -> String {
    match mode {
        Mode::Normalize if taku_dice::normalize::needs_folding(input) => {
            taku_dice::normalize::fold(input).text
        }
        _ => input.to_string(),
    }
}

/// How long a worker may take to load Node, the package and a system's class before an
/// evaluation's own time limit starts.
const LOAD_ALLOWANCE: Duration = Duration::from_secs(10);

/// Longest answer line read from a worker: a result's text and draws are bounded by the
/// command's length and [`MAX_DRAWS`]; more means the worker is broken.
const MAX_ANSWER: usize = 64 << 20;

/// Requests one worker holds at once: the one it evaluates and the next waiting in its
/// pipe, so that it never sits idle between an answer and the next request reaching it.
/// Kept small: a request behind one that hangs waits for that one's time limit.
const DEPTH: usize = 3;

/// Most draws taken ahead of a worker (a longer run is not remembered).
const MAX_AHEAD: usize = 64;

/// Commands whose sides are remembered at most (all forgotten when full).
const MAX_SIDES_SEEN: usize = 4096;

/// The key a command's remembered sides are kept under. A collision only costs a
/// guess that does not match, which the worker notices at its first draw.
fn sides_key(id: &str, input: &str) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    (id, input).hash(&mut h);
    h.finish()
}

/// Deepest nesting of brackets the engine is given.
pub const MAX_NESTING: usize = 64;

/// How deep `(` and `[` nest in `input`.
fn nesting(input: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for c in input.chars() {
        match c {
            '(' | '[' | '（' | '［' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' | ']' | '）' | '］' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// One evaluation's request, as [`Engine::ask`] made it.
struct Ask {
    request: Value,
    /// The key its sides are remembered under, when its dice may be drawn ahead.
    key: Option<u64>,
    /// The draws taken ahead and sent with it.
    ahead: Vec<(u32, u32)>,
}

/// Why a call ended without an answer.
enum Fault {
    Eval(EvalError),
    Crashed(String),
    TimedOut,
    /// The worker died before the request's turn: it was never evaluated.
    NotStarted,
}

/// One Node process: requests go down a pipe (its stdin, which Node leaves blocking, so
/// an idle worker sleeps in `read`), answers come up one end of a socket pair (its
/// stdout). No thread of its own: the caller whose request is first in line reads the
/// answers, with the time left as the socket's read timeout, and hands the reading on to
/// the next request's caller when its own answer is in. (A socket as its stdin would not
/// do: Node makes a socket on fd 0 non-blocking, and the worker's blocking reads would
/// spin.)
struct Worker {
    child: Mutex<Child>,
    /// Requests and draw answers, in the order written, and the next request's ticket.
    input: Mutex<(ChildStdin, u64)>,
    /// Answers, read by the caller whose ticket is being served.
    output: Mutex<Output>,
    /// Signalled when the ticket being served moves on, or the worker dies.
    turn: Condvar,
    /// Killed, crashed or overran a time limit: takes no more requests.
    dead: AtomicBool,
}

struct Output {
    socket: UnixStream,
    /// Bytes read past the last whole line.
    pending: Vec<u8>,
    /// The ticket whose answers come next.
    serving: u64,
    /// Systems this worker has loaded (it says `started` only while loading one).
    loaded: HashSet<String>,
}

impl Worker {
    fn spawn(config: &Config, script: &Path) -> Result<Worker, String> {
        let (socket, theirs) =
            UnixStream::pair().map_err(|e| format!("cannot make a socket pair: {e}"))?;
        let mut child = Command::new(&config.node)
            .arg(format!("--max-old-space-size={}", config.memory_mib))
            .arg(script)
            .arg(&config.dir)
            .current_dir(&config.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::from(OwnedFd::from(theirs)))
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", config.node.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        Ok(Worker {
            child: Mutex::new(child),
            input: Mutex::new((stdin, 0)),
            output: Mutex::new(Output {
                socket,
                pending: Vec::new(),
                serving: 0,
                loaded: HashSet::new(),
            }),
            turn: Condvar::new(),
            dead: AtomicBool::new(false),
        })
    }

    fn is_dead(&self) -> bool {
        self.dead.load(Ordering::Acquire)
    }

    fn has_exited(&self) -> bool {
        let mut child = self.child.lock().unwrap_or_else(|p| p.into_inner());
        !matches!(child.try_wait(), Ok(None))
    }

    /// Marks the worker dead and ends its process; its answers are not read again.
    fn kill(&self) {
        self.dead.store(true, Ordering::Release);
        let mut child = self.child.lock().unwrap_or_else(|p| p.into_inner());
        let _ = child.kill();
    }

    /// Writes `bytes` down the pipe: a request (`Some` of its ticket, the next in line)
    /// or a draw's answer.
    fn write(&self, bytes: &[u8], request: bool) -> Result<Option<u64>, Fault> {
        let mut input = self.input.lock().unwrap_or_else(|p| p.into_inner());
        let (stdin, next) = &mut *input;
        stdin
            .write_all(bytes)
            .map_err(|e| Fault::Crashed(format!("writing to the worker: {e}")))?;
        Ok(request.then(|| {
            *next += 1;
            *next - 1
        }))
    }

    /// Sends one request (`line`, ending in a newline), waits for its turn, and answers
    /// the worker's draws from `source` until it answers.
    fn exchange<'s>(
        &self,
        config: &Config,
        line: &[u8],
        system: &str,
        already: usize,
        source: Option<&mut (dyn DiceSource + 's)>,
    ) -> Result<(Value, Vec<(u32, u32)>), Fault> {
        let ticket = match self.write(line, true) {
            Ok(ticket) => ticket.unwrap_or_default(),
            Err(fault) => {
                self.kill();
                return Err(fault);
            }
        };
        let mut out = self.output.lock().unwrap_or_else(|p| p.into_inner());
        // Each request ahead answers, or its caller kills the worker, within its own
        // allowance; this bound only guards against a caller that never came back.
        let turn_by = Instant::now() + config.time_limit.max(LOAD_ALLOWANCE) * DEPTH as u32;
        while out.serving != ticket && !self.is_dead() {
            let left = turn_by.saturating_duration_since(Instant::now());
            if left.is_zero() {
                drop(out);
                self.kill();
                self.turn.notify_all();
                return Err(Fault::NotStarted);
            }
            out = self
                .turn
                .wait_timeout(out, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
        if self.is_dead() {
            return Err(Fault::NotStarted);
        }
        let result = self.answer(&mut out, config, system, already, source);
        match &result {
            Ok(_) | Err(Fault::Eval(_)) => out.serving += 1,
            Err(_) => self.kill(),
        }
        drop(out);
        self.turn.notify_all();
        result
    }

    /// Reads this request's answer, answering its draws on the way.
    fn answer<'s>(
        &self,
        out: &mut Output,
        config: &Config,
        system: &str,
        already: usize,
        mut source: Option<&mut (dyn DiceSource + 's)>,
    ) -> Result<(Value, Vec<(u32, u32)>), Fault> {
        // A worker loading a system (Node, the package, the system's class) says when the
        // evaluation starts; until then loading has its own, longer allowance. One that
        // has the system loaded already says nothing and starts at once.
        let mut deadline = if out.loaded.contains(system) {
            Instant::now() + config.time_limit
        } else {
            Instant::now() + config.time_limit.max(LOAD_ALLOWANCE)
        };
        let mut drawn = Vec::new();
        loop {
            let line = self.recv(out, deadline)?;
            let message: Value = serde_json::from_str(&line)
                .map_err(|e| Fault::Crashed(format!("unreadable answer from the worker: {e}")))?;
            if message.get("started").is_some() {
                out.loaded.insert(system.to_string());
                deadline = Instant::now() + config.time_limit;
                continue;
            }
            let Some(sides) = message.get("draw") else {
                if message.get("ok").is_some() {
                    out.loaded.insert(system.to_string());
                }
                return Ok((message, drawn));
            };
            let answer = match (sides.as_u64(), source.as_deref_mut()) {
                _ if already + drawn.len() >= MAX_DRAWS => {
                    Err(EvalError::TooManyDice { limit: MAX_DRAWS })
                }
                (Some(sides @ 1..=0xFFFF_FFFF), Some(source)) => {
                    let sides = sides as u32;
                    source
                        .roll(sides)
                        .inspect(|&face| drawn.push((sides, face)))
                        .map_err(EvalError::Draw)
                }
                (_, None) => Err(EvalError::Engine(EngineFailure::Raised(
                    "a draw was asked where none may be made".into(),
                ))),
                (_, Some(_)) => Err(EvalError::Engine(EngineFailure::Raised(format!(
                    "a die with {sides} sides was asked"
                )))),
            };
            match answer {
                Ok(value) => {
                    self.write(format!("{{\"value\":{value}}}\n").as_bytes(), false)?;
                }
                Err(e) => {
                    let mut refusal = json!({ "refuse": e.to_string() }).to_string();
                    refusal.push('\n');
                    self.write(refusal.as_bytes(), false)?;
                    // The worker unwinds and answers `refused`; read it to keep the
                    // stream in step, then report the draw's own error.
                    let _ = self.recv(out, deadline)?;
                    return Err(Fault::Eval(e));
                }
            }
        }
    }

    /// The worker's next line, or why none came before `deadline`.
    fn recv(&self, out: &mut Output, deadline: Instant) -> Result<String, Fault> {
        let mut scanned = 0;
        loop {
            if let Some(nl) = out.pending[scanned..].iter().position(|&b| b == b'\n') {
                let rest = out.pending.split_off(scanned + nl + 1);
                let mut line = std::mem::replace(&mut out.pending, rest);
                line.pop();
                return String::from_utf8(line).map_err(|e| {
                    Fault::Crashed(format!("unreadable answer from the worker: {e}"))
                });
            }
            if out.pending.len() > MAX_ANSWER {
                return Err(Fault::Crashed("an answer too long from the worker".into()));
            }
            scanned = out.pending.len();
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Fault::TimedOut);
            }
            let mut chunk = [0u8; 8192];
            let read = out
                .socket
                .set_read_timeout(Some(left))
                .and_then(|()| out.socket.read(&mut chunk));
            match read {
                Ok(0) => {
                    let status = {
                        let mut child = self.child.lock().unwrap_or_else(|p| p.into_inner());
                        child.try_wait().ok().flatten().map(|s| s.to_string())
                    };
                    return Err(Fault::Crashed(
                        status.unwrap_or_else(|| "closed its output".into()),
                    ));
                }
                Ok(n) => out.pending.extend_from_slice(&chunk[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return Err(Fault::TimedOut);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Fault::Crashed(format!("reading from the worker: {e}"))),
            }
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let child = self.child.get_mut().unwrap_or_else(|p| p.into_inner());
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// A game system the reference engine evaluates.
#[derive(Debug)]
pub struct ReferenceSystem {
    id: &'static str,
    name: &'static str,
    sort_key: &'static str,
    /// Help message and command pattern, asked of a worker once.
    info: OnceLock<(String, String)>,
    /// The command pattern compiled (case-insensitive, as BCDice matches it); `None` when
    /// the engine gave none or it is not a pattern this crate reads.
    pattern: OnceLock<Option<regex::Regex>>,
}

impl ReferenceSystem {
    fn info(&self) -> Option<&(String, String)> {
        if let Some(info) = self.info.get() {
            return Some(info);
        }
        let info = engine()?.info(self.id).ok()?;
        Some(self.info.get_or_init(|| info))
    }
}

impl GameSystem for ReferenceSystem {
    fn id(&self) -> &'static str {
        self.id
    }
    fn name(&self) -> &'static str {
        self.name
    }
    fn sort_key(&self) -> &'static str {
        self.sort_key
    }
    fn help(&self) -> Text {
        match self.info() {
            // BCDice's help is Japanese only; English readers get it with a note.
            Some((help, _)) => Text::new(
                help.clone(),
                format!("(BCDice's help, in Japanese)\n{help}"),
            ),
            None => Text::new(
                "ヘルプを参照エンジンから取得できませんでした",
                "the reference engine gave no help",
            ),
        }
    }
    fn command_regex(&self) -> Option<String> {
        self.info().map(|(_, pattern)| pattern.clone())
    }
    fn engine(&self) -> EngineKind {
        EngineKind::Reference
    }
    fn claims(&self, line: &str) -> Option<bool> {
        let pattern = self.pattern.get_or_init(|| {
            let (_, source) = self.info()?;
            regex::RegexBuilder::new(source)
                .case_insensitive(true)
                .build()
                .ok()
        });
        pattern.as_ref().map(|p| p.is_match(line))
    }
    /// Exact odds by enumerating every sequence of draws through the engine (each one an
    /// evaluation in a worker), up to [`MAX_ODDS_PATHS`] sequences.
    fn odds(
        &self,
        input: &str,
        limits: taku_dice::odds::Limits,
    ) -> Option<Result<taku_dice::odds::Odds, taku_dice::odds::OddsError>> {
        let Some(engine) = engine() else {
            return Some(Err(taku_dice::odds::OddsError::Eval(EvalError::Engine(
                EngineFailure::Crashed(how_to_enable().en().to_string()),
            ))));
        };
        let limits = taku_dice::odds::Limits {
            max_paths: limits.max_paths.min(MAX_ODDS_PATHS),
            ..limits
        };
        let input = fold(input, Mode::Normalize);
        Some(taku_dice::odds::enumerate(
            |source| engine.evaluate(self.id, &input, source),
            limits,
        ))
    }
    fn evaluate_whole(
        &self,
        input: &str,
        source: &mut dyn DiceSource,
        mode: Mode,
    ) -> Option<Result<RollResult, EvalError>> {
        let Some(engine) = engine() else {
            return Some(Err(EvalError::Engine(EngineFailure::Crashed(
                how_to_enable().en().to_string(),
            ))));
        };
        let input = fold(input, mode);
        Some(
            engine
                .evaluate(self.id, &input, source)
                .and_then(|r| refuse_engine_errors(&input, r)),
        )
    }
}

/// A7-16: BCDice answers a repeat it cannot do (`x9999 1D6`, `x101 CC<=50`, `Sx5 秘密`)
/// with a result that is only its refusal (`繰り返し回数は1以上、100以下としてください`, no dice
/// drawn), and arithmetic past a float's range with a total of `Infinity`. At a table these
/// are refusals, logging nothing, not rolls; bcdice-api (which does not come here) answers
/// them as BCDice does. Other results without dice stay results: many systems' fixed-table
/// lookups and notes draw nothing (LiveraDoll `CL1`, NeverCloud `ARTS`), and BCDice's own
/// test data has them as outputs.
fn refuse_engine_errors(input: &str, result: RollResult) -> Result<RollResult, EvalError> {
    let not_finite = result.text.split('＞').skip(1).any(|step| {
        matches!(
            step.split_whitespace().next(),
            Some("Infinity" | "-Infinity" | "NaN")
        )
    });
    if not_finite {
        return Err(EvalError::Overflow);
    }
    // A repeat that ran gives `#1`, `#2`, … entries; one that gives none and drew nothing
    // is the engine's refusal (a count outside 1..100, or `Sx5 秘密`: 繰り返し対象のコマンド
    // が実行できません, attack pass 8, A8-11).
    if result.rands.is_empty()
        && repeat_count(input).is_some()
        && !result.text.trim_start().starts_with("#1")
    {
        return Err(EvalError::Engine(EngineFailure::Raised(result.text)));
    }
    Ok(result)
}

/// The count of BCDice's repeat prefix (`x3 `, `rep3 `, `repeat3 `, after the secret
/// mark `S` if any) opening `input`.
fn repeat_count(input: &str) -> Option<u64> {
    let lower = input.trim_start().to_ascii_lowercase();
    let lower = match lower.strip_prefix('s') {
        Some(rest) if rest.starts_with(['x', 'r']) => rest.to_string(),
        _ => lower,
    };
    let rest = ["repeat", "rep", "x"]
        .iter()
        .find_map(|p| lower.strip_prefix(p))?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !rest[digits..].starts_with(char::is_whitespace) {
        return None;
    }
    Some(rest[..digits].parse().unwrap_or(u64::MAX))
}
