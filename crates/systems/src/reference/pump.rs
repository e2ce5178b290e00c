//! The reference engine on an async runtime, for rolls whose dice nothing records
//! (bcdice-api's stateless roll).
//!
//! [`Engine::evaluate`] serves any caller on its own thread: the caller writes its request
//! and reads the answers, which suits tables and the CLI but costs an HTTP request two
//! thread hand-offs (onto a blocking thread and back) and a wake per answer. Here each
//! worker process has a task of its own, a *lane*, on the caller's tokio runtime: callers
//! queue their command on a channel and await a one-shot reply, and the lane writes
//! requests, reads answers as the reactor sees them and draws the dice from its own
//! generator. Same protocol, same limits and the same answer as [`Engine::evaluate`] with
//! an [`Unrecorded`] source.

use std::collections::{HashSet, VecDeque};
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde_json::{Value, json};
use taku_dice::roller::MAX_DRAWS;
use taku_dice::source::Unrecorded;
use taku_dice::{ChaChaSource, DiceSource, EngineFailure, EvalError, RollResult};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::{mpsc, oneshot};

use super::{Ask, Config, DEPTH, Engine, LOAD_ALLOWANCE, MAX_ANSWER};

/// Commands waiting for a lane, at most, before a caller is told every worker is busy.
const QUEUE: usize = 256;

/// Times a command is sent to a new worker when the one it waited in died before its
/// turn (the command ahead of it hung or crashed the worker).
const TRIES: u8 = 3;

/// The lanes, one per worker, started on the runtime of the first roll.
pub(super) struct Lanes {
    lanes: Vec<Lane>,
}

struct Lane {
    jobs: mpsc::Sender<Job>,
    /// Commands given to this lane and not yet answered.
    held: Arc<AtomicUsize>,
}

/// One command for a lane.
struct Job {
    system: String,
    input: String,
    /// When a command still waiting for its first worker is answered busy instead.
    give_up: Instant,
    tries: u8,
    reply: oneshot::Sender<Result<RollResult, EvalError>>,
    held: Arc<AtomicUsize>,
}

impl Job {
    fn answer(self, result: Result<RollResult, EvalError>) {
        self.held.fetch_sub(1, Ordering::AcqRel);
        // A caller that went away (its client hung up) needs no answer.
        let _ = self.reply.send(result);
    }
}

impl Engine {
    /// Evaluates `input` under the reference system `id` as [`Engine::evaluate`] does with
    /// an [`Unrecorded`] source, on the current tokio runtime: for a roll nothing records,
    /// such as bcdice-api's. Must be called within a tokio runtime, which keeps the
    /// engine's lanes while it runs.
    pub async fn roll_unrecorded(
        &'static self,
        id: &str,
        input: &str,
    ) -> Result<RollResult, EvalError> {
        let lanes = {
            let mut lanes = self.lanes.lock().unwrap_or_else(|p| p.into_inner());
            match lanes.as_ref() {
                // Lanes whose runtime has shut down (a test's, say) are started afresh
                // on this one.
                Some(live) if !live.lanes.iter().any(|lane| lane.jobs.is_closed()) => live.clone(),
                _ => lanes.insert(Arc::new(Lanes::start(self))).clone(),
            }
        };
        let Some(lane) = lanes
            .lanes
            .iter()
            .min_by_key(|lane| lane.held.load(Ordering::Acquire))
        else {
            return Err(EvalError::Engine(EngineFailure::Busy));
        };
        let (reply, answer) = oneshot::channel();
        lane.held.fetch_add(1, Ordering::AcqRel);
        let job = Job {
            system: id.to_string(),
            input: input.to_string(),
            give_up: Instant::now() + self.config.time_limit,
            tries: 0,
            reply,
            held: lane.held.clone(),
        };
        if let Err(refused) = lane.jobs.try_send(job) {
            let job = match refused {
                mpsc::error::TrySendError::Full(job) | mpsc::error::TrySendError::Closed(job) => {
                    job
                }
            };
            job.held.fetch_sub(1, Ordering::AcqRel);
            return Err(EvalError::Engine(EngineFailure::Busy));
        }
        answer.await.unwrap_or_else(|_| {
            Err(EvalError::Engine(EngineFailure::Crashed(
                "the engine's lane stopped".into(),
            )))
        })
    }
}

impl Lanes {
    fn start(engine: &'static Engine) -> Lanes {
        let lanes = (0..engine.config.workers.max(1))
            .map(|_| {
                let (jobs, rx) = mpsc::channel(QUEUE);
                tokio::spawn(run(engine, rx));
                Lane {
                    jobs,
                    held: Arc::new(AtomicUsize::new(0)),
                }
            })
            .collect();
        Lanes { lanes }
    }
}

/// A lane: starts a worker when a command comes, serves commands until the worker dies,
/// and starts another for the commands it never began.
async fn run(engine: &'static Engine, mut rx: mpsc::Receiver<Job>) {
    let mut source = match ChaChaSource::from_os() {
        Ok((source, _)) => source,
        Err(e) => {
            while let Some(job) = rx.recv().await {
                job.answer(Err(EvalError::Engine(EngineFailure::Crashed(format!(
                    "no randomness from the operating system: {e}"
                )))));
            }
            return;
        }
    };
    let mut queue: VecDeque<Job> = VecDeque::new();
    loop {
        if queue.is_empty() {
            match rx.recv().await {
                Some(job) => queue.push_back(job),
                None => return,
            }
        }
        match Process::spawn(&engine.config, &engine.script) {
            Ok(process) => {
                process
                    .serve(engine, &mut rx, &mut queue, &mut source)
                    .await
            }
            Err(why) => {
                while let Some(job) = queue.pop_front() {
                    job.answer(Err(EvalError::Engine(EngineFailure::Crashed(why.clone()))));
                }
            }
        }
    }
}

/// A command written to the worker and not yet answered.
struct Flight {
    job: Job,
    ask: Ask,
    /// Draws the worker asked for, after those taken ahead.
    asked: Vec<(u32, u32)>,
    /// A draw refused (the dice limit): the answer after it is this error.
    refused: Option<EvalError>,
}

/// One Node worker process and its pipes.
struct Process {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// Systems it has loaded (it says `started` only while loading one).
    loaded: HashSet<String>,
}

impl Process {
    fn spawn(config: &Config, script: &Path) -> Result<Process, String> {
        let mut child = Command::new(&config.node)
            .arg(format!("--max-old-space-size={}", config.memory_mib))
            .arg(script)
            .arg(&config.dir)
            .current_dir(&config.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", config.node.display()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("the worker has no pipes".into());
        };
        Ok(Process {
            child,
            stdin,
            stdout: BufReader::new(stdout),
            loaded: HashSet::new(),
        })
    }

    /// How long the command now first in line may take: its time limit, or the loading
    /// allowance while the worker has not loaded its system.
    fn allowance(&self, config: &Config, system: &str) -> Instant {
        if self.loaded.contains(system) {
            Instant::now() + config.time_limit
        } else {
            Instant::now() + config.time_limit.max(LOAD_ALLOWANCE)
        }
    }

    /// Serves commands until the worker dies or overruns a time limit; the commands it
    /// held and never began go back to the front of `queue`.
    async fn serve(
        mut self,
        engine: &'static Engine,
        rx: &mut mpsc::Receiver<Job>,
        queue: &mut VecDeque<Job>,
        source: &mut ChaChaSource,
    ) {
        let config = &engine.config;
        let mut flights: VecDeque<Flight> = VecDeque::with_capacity(DEPTH);
        let mut deadline = Instant::now();
        let mut line = Vec::new();
        let mut closed = false;
        loop {
            // Keep the pipe holding up to DEPTH commands.
            while flights.len() < DEPTH {
                let job = match queue.pop_front() {
                    Some(job) => job,
                    None => match rx.try_recv() {
                        Ok(job) => job,
                        Err(_) => break,
                    },
                };
                if job.reply.is_closed() {
                    job.answer(Err(EvalError::Engine(EngineFailure::Busy)));
                    continue;
                }
                // Only a command still waiting for its first worker gives up; one sent
                // back from a dead worker's pipe goes on, up to TRIES times.
                if job.tries == 0 && Instant::now() >= job.give_up {
                    job.answer(Err(EvalError::Engine(EngineFailure::Busy)));
                    continue;
                }
                let ask = match engine.ask(&job.system, &job.input, &mut Unrecorded(source)) {
                    Ok(ask) => ask,
                    Err(e) => {
                        job.answer(Err(e));
                        continue;
                    }
                };
                let mut bytes = ask.request.to_string();
                bytes.push('\n');
                if flights.is_empty() {
                    deadline = self.allowance(config, &job.system);
                }
                flights.push_back(Flight {
                    job,
                    ask,
                    asked: Vec::new(),
                    refused: None,
                });
                if let Err(e) = self.stdin.write_all(bytes.as_bytes()).await {
                    // A worker that died while idle (killed, out of memory) began none of
                    // them: every one goes to a new worker (attack pass 5, A5-8).
                    let why = if flights.len() == 1 {
                        String::new()
                    } else {
                        format!("writing to the worker: {e}")
                    };
                    self.fail(flights, queue, why);
                    return;
                }
            }
            if flights.is_empty() {
                if closed {
                    return;
                }
                // Idle: wait for the next command (the worker sleeps in its read).
                match rx.recv().await {
                    Some(job) => {
                        queue.push_back(job);
                        continue;
                    }
                    None => return,
                }
            }
            tokio::select! {
                biased;
                read = read_line(&mut self.stdout, &mut line) => {
                    match read {
                        Ok(_) if line.last() == Some(&b'\n') => {}
                        Ok(_) if line.len() >= MAX_ANSWER => {
                            self.fail(flights, queue, "an answer too long from the worker".into());
                            return;
                        }
                        Ok(_) => {
                            let why = match self.child.try_wait() {
                                Ok(Some(status)) => status.to_string(),
                                _ => "closed its output".into(),
                            };
                            self.fail(flights, queue, why);
                            return;
                        }
                        Err(e) => {
                            self.fail(flights, queue, format!("reading from the worker: {e}"));
                            return;
                        }
                    }
                    line.pop();
                    let message: Value = match serde_json::from_slice(&line) {
                        Ok(message) => message,
                        Err(e) => {
                            self.fail(flights, queue, format!("unreadable answer from the worker: {e}"));
                            return;
                        }
                    };
                    line.clear();
                    let front = flights.front_mut().expect("an answer comes for a command in flight");
                    if message.get("started").is_some() {
                        self.loaded.insert(front.job.system.clone());
                        deadline = Instant::now() + config.time_limit;
                        continue;
                    }
                    if let Some(sides) = message.get("draw") {
                        let reply = match draw(front, sides, source) {
                            Ok(face) => format!("{{\"value\":{face}}}\n"),
                            Err(e) => {
                                let mut refusal = json!({ "refuse": e.to_string() }).to_string();
                                refusal.push('\n');
                                front.refused = Some(e);
                                refusal
                            }
                        };
                        if let Err(e) = self.stdin.write_all(reply.as_bytes()).await {
                            self.fail(flights, queue, format!("writing to the worker: {e}"));
                            return;
                        }
                        continue;
                    }
                    let Flight { job, ask, asked, refused } =
                        flights.pop_front().expect("an answer comes for a command in flight");
                    if message.get("ok").is_some() {
                        self.loaded.insert(job.system.clone());
                    }
                    let result = match refused {
                        Some(e) => Err(e),
                        None => engine.finish(ask, &message, asked),
                    };
                    job.answer(result);
                    if let Some(next) = flights.front() {
                        deadline = self.allowance(config, &next.job.system);
                    }
                }
                job = rx.recv(), if flights.len() < DEPTH && !closed => match job {
                    Some(job) => queue.push_back(job),
                    None => closed = true,
                },
                () = tokio::time::sleep_until(deadline.into()) => {
                    let front = flights.pop_front().expect("a deadline is kept for a command in flight");
                    front.job.answer(Err(EvalError::Engine(EngineFailure::TimedOut {
                        ms: config.time_limit.as_millis() as u64,
                    })));
                    self.fail(flights, queue, String::new());
                    return;
                }
            }
        }
    }

    /// The worker is done for: the command it was evaluating gets `why` (none left when
    /// `flights` lost it already); the ones behind it never began and go back in line,
    /// each up to [`TRIES`] times.
    fn fail(mut self, mut flights: VecDeque<Flight>, queue: &mut VecDeque<Job>, why: String) {
        let _ = self.child.start_kill();
        // Reaped as soon as it exits, not left a zombie until the next one (A5-8).
        let mut child = self.child;
        tokio::spawn(async move {
            let _ = child.wait().await;
        });
        if !why.is_empty()
            && let Some(front) = flights.pop_front()
        {
            front
                .job
                .answer(Err(EvalError::Engine(EngineFailure::Crashed(why))));
        }
        for flight in flights.into_iter().rev() {
            let mut job = flight.job;
            job.tries += 1;
            if job.tries >= TRIES {
                job.answer(Err(EvalError::Engine(EngineFailure::Busy)));
            } else {
                queue.push_front(job);
            }
        }
    }
}

/// Reads up to the end of the worker's next line into `line` (which keeps what a read
/// cancelled by another branch had read), at most [`MAX_ANSWER`] bytes.
async fn read_line(
    stdout: &mut BufReader<ChildStdout>,
    line: &mut Vec<u8>,
) -> std::io::Result<usize> {
    let room = MAX_ANSWER.saturating_sub(line.len()) as u64;
    stdout.take(room).read_until(b'\n', line).await
}

/// The face for a draw the worker asked for, from the lane's own dice.
fn draw(front: &mut Flight, sides: &Value, source: &mut ChaChaSource) -> Result<u32, EvalError> {
    if front.ask.ahead.len() + front.asked.len() >= MAX_DRAWS {
        return Err(EvalError::TooManyDice { limit: MAX_DRAWS });
    }
    match sides.as_u64() {
        Some(sides @ 1..=0xFFFF_FFFF) => {
            let sides = sides as u32;
            let face = source.roll(sides).map_err(EvalError::Draw)?;
            front.asked.push((sides, face));
            Ok(face)
        }
        _ => Err(EvalError::Engine(EngineFailure::Raised(format!(
            "a die with {sides} sides was asked"
        )))),
    }
}
