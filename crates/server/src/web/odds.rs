//! The chat palette's success chances, computed off the request path (attack pass 2,
//! A2-7: three `GET /t/{id}/side` of a player's palette of `200D1000>=100000` lines took
//! 650 s of the server's CPU and 599 MB, inline in the handler).
//!
//! A side pane never computes odds. It looks each palette line up in a cache keyed by
//! (member at a table, system, line as shown) — never another member's, so what is
//! cached says nothing about anyone else's palette (A4-9); a line not there yet is handed to a [`Pool`] and shown
//! without a chance until a later rendering finds it computed (the page asks again
//! while the response says odds are pending, `X-Taku-Odds-Pending`). What bounds the
//! work, whatever the players write:
//!
//! - **a cost bound per line** ([`cheap`]): a line whose dice would take more than
//!   [`PALETTE_WORK`] steps in the closed form (or whose dice count or sides are an
//!   expression) is never computed, and shows nothing; the computation itself is held
//!   to [`MAX_PATHS`] draw sequences; a reference-engine system's lines are never
//!   computed (one evaluation a path, through a worker process);
//! - **one worker thread** for the whole server (at most one core, whoever asks);
//! - **a bounded queue** ([`QUEUE`] lines), each member holding at most [`PER_MEMBER`]
//!   of it, a line queued once however many panes ask for it;
//! - **a bounded cache** ([`CACHE_BYTES`] of lines and answers; emptied when full).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use taku_systems::GameSystem;

/// Lines waiting for the worker, all members together.
pub const QUEUE: usize = 64;

/// Lines one member (at one table) may have waiting at once.
pub const PER_MEMBER: usize = 8;

/// Bytes of lines and answers the cache keeps before it is emptied.
pub const CACHE_BYTES: usize = 1 << 20;

/// The most draw sequences one line's odds may enumerate.
pub const MAX_PATHS: u64 = 20_000;

/// The most work [`cheap`] lets a palette line's odds take. A sum of dice is computed
/// as a convolution: with `T` dice in all, the largest of `S` sides, about `T × T × S`
/// big-number additions. 200,000 is `44D100` or `180D6` — tens of milliseconds.
pub const PALETTE_WORK: u64 = 200_000;

/// Whether `line`'s odds are cheap enough to compute for a palette. The line is read as a
/// table reads it (full-width folded: `２００Ｄ１００` is `200D100`). Every `NdS` (also
/// `NbS`, `NrS`, `NuS`) adds `N` dice to the total `T` and `S` to the largest sides; the
/// line passes while `T × T × S` stays within [`PALETTE_WORK`]. A count or sides written
/// as an expression (`(2+3)D6`, `2D(1+5)`, `2D[…]`) or a number past a million does not
/// pass.
pub fn cheap(line: &str) -> bool {
    let folded = taku_dice::normalize::fold(line);
    let chars: Vec<char> = folded.text.chars().collect();
    let (mut dice, mut sides_max): (u64, u64) = (0, 0);
    for (i, c) in chars.iter().enumerate() {
        if !matches!(c.to_ascii_uppercase(), 'D' | 'B' | 'R' | 'U') {
            continue;
        }
        let before = chars[..i]
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let after = chars[i + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        if before == 0 || after == 0 {
            // `(…)D6`, `2D(…)`, `2D[…]`: the dice count or sides is an expression.
            if prev == Some(')') || next == Some('(') || (before > 0 && next == Some('[')) {
                return false;
            }
            continue;
        }
        let number = |digits: &[char]| -> Option<u64> {
            digits
                .iter()
                .collect::<String>()
                .parse::<u64>()
                .ok()
                .filter(|n| *n <= 1_000_000)
        };
        let (Some(count), Some(sides)) = (
            number(&chars[i - before..i]),
            number(&chars[i + 1..i + 1 + after]),
        ) else {
            return false;
        };
        dice = dice.saturating_add(count);
        sides_max = sides_max.max(sides);
        if dice.saturating_mul(dice).saturating_mul(sides_max) > PALETTE_WORK {
            return false;
        }
    }
    true
}

/// The exact chance of success of `line` under `system`, as "41.7%", when the line is a
/// check with a verdict, passes [`cheap`] and its odds come out within [`MAX_PATHS`]
/// without a cut. Computed where it is called: the server calls it on its [`Pool`]'s
/// worker only.
pub fn chance(system: &'static dyn GameSystem, line: &str) -> Option<String> {
    use taku_dice::odds::{Limits, to_f64};
    if system.engine() == taku_systems::EngineKind::Reference || !cheap(line) {
        return None;
    }
    let limits = Limits {
        max_paths: MAX_PATHS,
        ..Limits::default()
    };
    let odds = taku_systems::odds(system, line, limits).ok()?;
    let summary = odds.summary();
    if !summary.has_verdict || to_f64(&summary.tail) > 0.0 {
        return None;
    }
    Some(format!("{:.1}%", to_f64(&summary.success) * 100.0))
}

/// What a pane shows for a line's chance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// Computed: the chance, or `None` when the line has none to show.
    Known(Option<String>),
    /// Not yet: waiting for the worker (or for room in its queue); ask again later.
    Pending,
}

/// What the pool has done since it started (for tests and the operator).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Stats {
    /// Lines computed.
    pub computed: u64,
    /// Lines refused by the cost bound, never computed.
    pub too_costly: u64,
    /// Lines not queued because the queue (or the member's share of it) was full.
    pub deferred: u64,
    /// Lines waiting now.
    pub queued: usize,
    /// The worker's time spent computing.
    pub busy: Duration,
    /// The longest single computation.
    pub longest: Duration,
}

/// (owner, system, line): each member's lines are their own (attack pass 4, A4-9: a
/// cache shared by the whole server told a member of any table whether another member's
/// pane had computed a line — the GM's palette line resolved with an unidentified
/// enemy's values among them).
type Key = (String, &'static str, String);

struct Job {
    key: Key,
    system: &'static dyn GameSystem,
    owner: String,
}

#[derive(Default)]
struct State {
    done: HashMap<Key, Option<String>>,
    done_bytes: usize,
    /// Queued or being computed.
    pending: HashSet<Key>,
    queue: VecDeque<Job>,
    per_owner: HashMap<String, usize>,
    running: bool,
    /// The worker takes no new line while held ([`Pool::hold`]).
    held: bool,
    stopped: bool,
    stats: Stats,
}

struct Inner {
    state: Mutex<State>,
    /// The worker waits here for jobs.
    work: Condvar,
    /// Tests wait here for the queue to empty.
    settled: Condvar,
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Every change is whole under the lock.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The palette odds' worker, queue and cache ([module docs](self)). Dropping it stops
/// its worker once the line in hand is done.
pub struct Pool {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("stats", &self.stats())
            .finish()
    }
}

impl Default for Pool {
    fn default() -> Self {
        Pool::new()
    }
}

impl Pool {
    /// A pool with its one worker thread.
    pub fn new() -> Pool {
        let inner = Arc::new(Inner {
            state: Mutex::new(State::default()),
            work: Condvar::new(),
            settled: Condvar::new(),
        });
        let worker = inner.clone();
        let spawned = std::thread::Builder::new()
            .name("taku-odds".into())
            .spawn(move || work(&worker));
        if let Err(e) = spawned {
            // No thread: lines stay pending, panes show no odds; nothing else breaks.
            tracing::error!(error = %e, "the palette odds worker did not start");
        }
        Pool { inner }
    }

    /// `line`'s chance under `system` for `owner` (a table and member: their own cache and
    /// share of the queue): known, or queued (at most once) and pending. Never computes.
    pub fn lookup(&self, system: &'static dyn GameSystem, line: &str, owner: &str) -> Lookup {
        let key = (owner.to_string(), system.id(), line.to_string());
        let mut state = self.inner.lock();
        if let Some(known) = state.done.get(&key) {
            return Lookup::Known(known.clone());
        }
        if state.pending.contains(&key) {
            return Lookup::Pending;
        }
        if system.engine() == taku_systems::EngineKind::Reference || !cheap(line) {
            state.stats.too_costly += 1;
            return Lookup::Known(None);
        }
        let mine = state.per_owner.get(owner).copied().unwrap_or(0);
        if state.queue.len() >= QUEUE || mine >= PER_MEMBER || state.stopped {
            state.stats.deferred += 1;
            return Lookup::Pending;
        }
        *state.per_owner.entry(owner.to_string()).or_default() += 1;
        state.pending.insert(key.clone());
        state.queue.push_back(Job {
            key,
            system,
            owner: owner.to_string(),
        });
        state.stats.queued = state.queue.len();
        drop(state);
        self.inner.work.notify_one();
        Lookup::Pending
    }

    /// Holds the worker (it finishes the line in hand and takes no other) or lets it go
    /// on: for tests, to see the queue as it fills.
    pub fn hold(&self, held: bool) {
        self.inner.lock().held = held;
        self.inner.work.notify_all();
    }

    /// What the pool has done.
    pub fn stats(&self) -> Stats {
        self.inner.lock().stats
    }

    /// Waits, at most `limit`, until no line is queued or being computed; whether that
    /// happened (for tests: a rendering after it finds every queued line computed).
    pub fn wait_settled(&self, limit: Duration) -> bool {
        let state = self.inner.lock();
        let (_state, timeout) = self
            .inner
            .settled
            .wait_timeout_while(state, limit, |s| !s.queue.is_empty() || s.running)
            .unwrap_or_else(|p| p.into_inner());
        !timeout.timed_out()
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.inner.lock().stopped = true;
        self.inner.work.notify_all();
    }
}

/// The worker: one line at a time, oldest first, until the pool is dropped.
fn work(inner: &Inner) {
    loop {
        let job = {
            let mut state = inner.lock();
            loop {
                if state.stopped {
                    return;
                }
                if let Some(job) = (!state.held).then(|| state.queue.pop_front()).flatten() {
                    state.running = true;
                    state.stats.queued = state.queue.len();
                    break job;
                }
                state = inner.work.wait(state).unwrap_or_else(|p| p.into_inner());
            }
        };
        let start = Instant::now();
        // A panic in a system's odds is that line's: no chance shown, the worker goes on.
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            chance(job.system, &job.key.2)
        }))
        .unwrap_or(None);
        let took = start.elapsed();
        let mut state = inner.lock();
        state.running = false;
        state.stats.computed += 1;
        state.stats.busy += took;
        state.stats.longest = state.stats.longest.max(took);
        state.pending.remove(&job.key);
        if let Some(n) = state.per_owner.get_mut(&job.owner) {
            *n -= 1;
            if *n == 0 {
                state.per_owner.remove(&job.owner);
            }
        }
        let size = job.key.0.len() + job.key.2.len() + answer.as_ref().map_or(0, String::len) + 32;
        if state.done_bytes + size > CACHE_BYTES {
            state.done.clear();
            state.done_bytes = 0;
        }
        state.done_bytes += size;
        state.done.insert(job.key, answer);
        if state.queue.is_empty() {
            inner.settled.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A2-7: palette lines whose odds would take seconds are not computed, however they
    /// are written (full-width digits, many small sums).
    #[test]
    fn costly_palette_lines_are_not_judged_cheap() {
        for line in [
            "2D6>=7",
            "CCB<=50",
            "AW+5",
            "10D100>=500",
            "20D6>=70",
            "4B6>=5",
            "SGS+2",
            "２Ｄ６＞＝７",
            "44D100>=2000",
        ] {
            assert!(cheap(line), "{line}");
        }
        let many_small = format!("{}1D6>=300", "1D6+".repeat(200));
        for line in [
            "200D100>=10000",
            "200D1000>=100000",
            "100D100+100D100>=20000",
            "(100+100)D100>=1",
            "2D(1000000)",
            "99999999999D6",
            "1000B6>=5",
            "２００Ｄ１００＞＝１００００",
            "200d100>=10000",
            many_small.as_str(),
        ] {
            assert!(!cheap(line), "{line}");
        }
    }

    /// A line is queued once however often it is asked for, each member holds at most
    /// their share of the queue, and what the worker computed is then known.
    #[test]
    fn lines_are_queued_once_within_each_members_share_and_then_known() {
        let pool = Pool::new();
        pool.hold(true);
        let system = taku_systems::find("DiceBot").expect("DiceBot");
        let stamp = std::process::id();
        let line = |i: usize| format!("2D6>={} 共有{stamp}-{i}", 2 + i % 11);
        // The same line from many panes: one job.
        for _ in 0..10 {
            let _ = pool.lookup(system, &line(0), "t\0alice");
        }
        // Alice's share fills; Bob still gets his lines in.
        for i in 1..40 {
            let _ = pool.lookup(system, &line(i), "t\0alice");
        }
        let stats = pool.stats();
        assert_eq!(stats.queued, PER_MEMBER);
        assert_eq!(stats.deferred, 40 - PER_MEMBER as u64);
        assert_eq!(
            pool.lookup(system, &format!("2D6>=7 bob{stamp}"), "t\0bob"),
            Lookup::Pending
        );
        assert_eq!(pool.stats().queued, PER_MEMBER + 1);
        pool.hold(false);
        assert!(pool.wait_settled(Duration::from_secs(60)), "settled");
        let stats = pool.stats();
        assert_eq!(stats.computed, PER_MEMBER as u64 + 1);
        assert_eq!(
            pool.lookup(system, &line(0), "t\0alice"),
            // 2D6 >= 2: always.
            Lookup::Known(Some("100.0%".into()))
        );
        assert_eq!(
            pool.lookup(system, &format!("2D6>=7 bob{stamp}"), "t\0bob"),
            Lookup::Known(Some("58.3%".into()))
        );
        // Known for alice, the same line is nothing to another member (A4-9): queued
        // for him as if nobody had asked.
        assert_eq!(pool.lookup(system, &line(0), "u\0eve"), Lookup::Pending);
        assert!(pool.wait_settled(Duration::from_secs(60)));
        assert_eq!(
            pool.lookup(system, &line(0), "u\0eve"),
            Lookup::Known(Some("100.0%".into()))
        );
        // A costly line is never queued.
        let before = pool.stats().computed;
        assert_eq!(
            pool.lookup(system, "200D1000>=100000", "t\0alice"),
            Lookup::Known(None)
        );
        assert!(pool.wait_settled(Duration::from_secs(60)));
        assert_eq!(pool.stats().computed, before);
    }
}
