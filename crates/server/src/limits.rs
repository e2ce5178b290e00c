//! Per-client rate limits: a token bucket per client address. Each client may make
//! `rate` requests a second on average and `2 × rate` at once; past that it is answered
//! 429 with `Retry-After`, and nothing it asked for is done. Buckets idle long enough to
//! be full again are forgotten, so memory stays bounded by the clients of the last few
//! seconds.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Open connections, counted globally and per client address. When the global cap is
/// reached, a new connection evicts the oldest one that is idle (between requests, or
/// still sending its headers: where slowloris clients sit) rather than being turned away,
/// so held-open sockets cannot lock out clients that make requests.
#[derive(Debug)]
pub struct Connections {
    max: usize,
    per_address: usize,
    open: Mutex<Open>,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    by_client: HashMap<IpAddr, usize>,
    /// Idle connections by age (ids only grow), each with its eviction signal.
    idle: std::collections::BTreeMap<u64, Arc<tokio::sync::Notify>>,
    next_id: u64,
}

/// One admitted connection; dropping it frees its place.
#[derive(Debug)]
pub struct Admitted {
    connections: Arc<Connections>,
    client: IpAddr,
    id: u64,
    /// Notified when this connection is evicted.
    pub evicted: Arc<tokio::sync::Notify>,
}

impl Connections {
    /// At most `max` at once, and `per_address` from one client address.
    pub fn new(max: usize, per_address: usize) -> Self {
        Connections {
            max,
            per_address,
            open: Mutex::new(Open::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        // Every change under this lock is whole: a poisoned lock is still consistent.
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for one more connection from `client` (idle until [`Admitted::busy`]):
    /// `None` past the client's cap, or when the global cap is reached and no idle
    /// connection can make room.
    pub fn admit(self: &Arc<Self>, client: IpAddr) -> Option<Admitted> {
        let client = holder(client);
        let mut open = self.lock();
        let mine = open.by_client.get(&client).copied().unwrap_or(0);
        if mine >= self.per_address {
            return None;
        }
        if open.total >= self.max {
            // The oldest idle connection makes room; it closes as soon as its task runs.
            let (_, oldest) = open.idle.pop_first()?;
            oldest.notify_one();
        }
        open.total += 1;
        open.by_client.insert(client, mine + 1);
        let id = open.next_id;
        open.next_id += 1;
        let evicted = Arc::new(tokio::sync::Notify::new());
        open.idle.insert(id, evicted.clone());
        Some(Admitted {
            connections: self.clone(),
            client,
            id,
            evicted,
        })
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.lock().total
    }

    /// The most live sockets open at once: three quarters of the connection cap, so
    /// plain requests always find room (attack pass 2, A2-12).
    pub fn max_sockets(&self) -> usize {
        (self.max / 4 * 3).max(1)
    }
}

/// The address a per-address limit counts `ip` under: an IPv6 address by its /64 (one
/// client normally holds a whole /64, so counting each address would give it 2^64
/// allowances; attack pass 2, A2-8), an IPv4 address (also written IPv4-mapped) as it is.
pub fn holder(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(std::net::Ipv6Addr::from(
                u128::from(v6) & !((1u128 << 64) - 1),
            )),
        },
    }
}

/// A request's connection's place among the admitted ([`Connections`]), as a request
/// extension: a live socket keeps it for as long as it is open, so upgraded sockets count
/// against the connection caps like any connection (A2-12: they used to leave them when
/// the HTTP connection handed over, and ~235 sockets exhausted the descriptors).
#[derive(Debug, Clone)]
pub struct ConnectionSeat(pub Arc<Admitted>);

impl Admitted {
    /// Marks the connection busy with a request (`true`: never evicted) or idle again.
    pub fn busy(&self, busy: bool) {
        let mut open = self.connections.lock();
        if busy {
            open.idle.remove(&self.id);
        } else {
            open.idle.insert(self.id, self.evicted.clone());
        }
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self.connections.lock();
        open.total -= 1;
        open.idle.remove(&self.id);
        if let Some(n) = open.by_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                open.by_client.remove(&self.client);
            }
        }
    }
}

/// An address block, `10.0.0.0/8` or `::1/128` (a bare address is a block of one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    network: IpAddr,
    bits: u8,
}

impl std::str::FromStr for Cidr {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (addr, bits) = match s.split_once('/') {
            Some((a, b)) => (a, Some(b)),
            None => (s, None),
        };
        let network: IpAddr = addr
            .parse()
            .map_err(|_| format!("'{s}' is not an address block like 10.0.0.0/8 or ::1"))?;
        let max = if network.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            None => max,
            Some(b) => b
                .parse::<u8>()
                .ok()
                .filter(|b| *b <= max)
                .ok_or_else(|| format!("'{s}': the prefix length must be 0 to {max}"))?,
        };
        Ok(Cidr { network, bits })
    }
}

impl Cidr {
    /// Whether `ip` is in this block.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        match (self.network, ip) {
            (IpAddr::V4(n), IpAddr::V4(a)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.bits)).unwrap_or(0);
                u32::from(n) & mask == u32::from(a) & mask
            }
            (IpAddr::V6(n), IpAddr::V6(a)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.bits))
                    .unwrap_or(0);
                u128::from(n) & mask == u128::from(a) & mask
            }
            _ => false,
        }
    }
}

/// The client a request is from ([`client_behind`], as the rate limiter keys it), put on
/// the request for handlers that share things out per client.
#[derive(Debug, Clone, Copy)]
pub struct ClientKey(pub Option<IpAddr>);

/// The client a request is from: the peer, unless the peer is a trusted proxy; then the
/// rightmost `X-Forwarded-For` address that is not itself a trusted proxy (those to its
/// left could be written by the client, so they are never believed).
pub fn client_behind(
    peer: Option<IpAddr>,
    headers: &axum::http::HeaderMap,
    trusted: &[Cidr],
) -> Option<IpAddr> {
    let peer = peer?;
    if !trusted.iter().any(|c| c.contains(peer)) {
        return Some(peer);
    }
    let mut hops: Vec<&str> = Vec::new();
    for value in headers.get_all("x-forwarded-for") {
        let Ok(value) = value.to_str() else {
            return Some(peer);
        };
        hops.extend(value.split(',').map(str::trim));
    }
    for hop in hops.iter().rev() {
        let Ok(ip) = hop.parse::<IpAddr>() else {
            // An address we cannot read: the proxy's own is all we know.
            return Some(peer);
        };
        if !trusted.iter().any(|c| c.contains(ip)) {
            return Some(ip);
        }
    }
    Some(peer)
}

/// `wanted` connections, lowered to leave 64 descriptors (database files, the listener,
/// logs) under this process's open-file limit where the limit can be read (Linux), so
/// that the cap closes surplus connections before `accept` runs out of descriptors.
pub fn fit_open_files(wanted: usize) -> usize {
    let soft = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|limits| {
            limits
                .lines()
                .find(|l| l.starts_with("Max open files"))
                .and_then(|l| l.split_whitespace().nth(3).map(str::to_string))
        })
        .and_then(|n| n.parse::<usize>().ok());
    match soft {
        Some(n) => wanted.min(n.saturating_sub(64).max(16)),
        None => wanted,
    }
}

/// Buckets kept before idle ones are swept.
const SWEEP_AT: usize = 10_000;

/// A client's bucket.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The limiter shared by every request.
#[derive(Debug)]
pub struct RateLimiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<Option<IpAddr>, Bucket>>,
}

impl RateLimiter {
    /// `rate` requests a second per client (`0`: no limit).
    pub fn new(rate: u32) -> Self {
        RateLimiter {
            rate: f64::from(rate),
            burst: 2.0 * f64::from(rate),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// `per_hour` a client may do an hour, all of them at once if it has done none for an
    /// hour (`0`: no limit): creating tables, say.
    pub fn per_hour(per_hour: u32) -> Self {
        RateLimiter {
            rate: f64::from(per_hour) / 3600.0,
            burst: f64::from(per_hour),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// The most a client may do at once.
    pub fn burst(&self) -> u32 {
        // Built from a u32.
        self.burst as u32
    }

    /// The limit, requests a second per client (`0`: none).
    pub fn rate(&self) -> u32 {
        // Built from a u32.
        self.rate as u32
    }

    /// Takes one request from `client`'s bucket at time `now`: `Ok` to serve it, or how
    /// long until it would be served.
    pub fn take(&self, client: Option<IpAddr>, now: Instant) -> Result<(), Duration> {
        if self.rate == 0.0 {
            return Ok(());
        }
        let client = client.map(holder);
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= SWEEP_AT {
            let full_after = Duration::from_secs_f64(self.burst / self.rate);
            buckets.retain(|_, b| now.saturating_duration_since(b.at) < full_after);
        }
        let bucket = buckets.entry(client).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        let refill = now.saturating_duration_since(bucket.at).as_secs_f64() * self.rate;
        bucket.tokens = (bucket.tokens + refill).min(self.burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / self.rate))
        }
    }
}

#[cfg(test)]
mod tests {

    /// A2-8: the addresses of one IPv6 /64 share their limits; IPv4 addresses (mapped
    /// or not) and other /64s do not.
    #[test]
    fn an_ipv6_slash_64_is_one_client() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().expect("ip");
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().expect("ip");
        let c: IpAddr = "2001:db8:1:3::1".parse().expect("ip");
        assert_eq!(holder(a), holder(b));
        assert_ne!(holder(a), holder(c));
        let v4: IpAddr = "192.0.2.7".parse().expect("ip");
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().expect("ip");
        assert_eq!(holder(mapped), v4);
        assert_ne!(holder(v4), holder("192.0.2.8".parse().expect("ip")));
        let c2 = Arc::new(Connections::new(10, 1));
        let _seat = c2.admit(a).expect("first of the /64");
        assert!(c2.admit(b).is_none(), "the same /64 is the same client");
        assert!(c2.admit(c).is_some(), "another /64");
        let limiter = RateLimiter::new(1);
        let now = Instant::now();
        while limiter.take(Some(a), now).is_ok() {}
        assert!(limiter.take(Some(b), now).is_err(), "one bucket per /64");
        assert!(limiter.take(Some(c), now).is_ok());
    }

    use super::*;

    /// A2-4: a client has one reference evaluation at a time (the next waits, told when
    /// it ends), and a budget of its time; another client is not held to it.
    #[test]
    fn each_client_has_one_reference_evaluation_at_a_time_within_its_share() {
        let share = ReferenceShare::default();
        let (a, b): (IpAddr, IpAddr) = (IpAddr::from([127, 0, 0, 1]), IpAddr::from([127, 0, 0, 2]));
        let t0 = Instant::now();
        let first = share.begin(Some(a), t0).expect("first");
        assert_eq!(
            share.begin(Some(a), t0).map(|_| ()),
            Err(NotYet::Running),
            "one at a time"
        );
        let other = share.begin(Some(b), t0).expect("another client");
        drop(other);
        let ended = share.ended.notified();
        tokio::pin!(ended);
        ended.as_mut().enable();
        drop(first);
        // The waiting request hears of it at once.
        assert!(futures_ready(ended), "told the evaluation ended");
        assert!(share.begin(Some(a), t0).is_ok(), "free again");
        // Spend the budget: two evaluations that took 10 s each (charged at most
        // `COST_CAP`: longer is waiting, not evaluating).
        for _ in 0..2 {
            let mut long = share.begin(Some(a), t0).expect("turn");
            long.took = Some(10.0);
        }
        let Err(NotYet::Spent(wait)) = share.begin(Some(a), t0).map(|_| ()) else {
            panic!("budget spent");
        };
        assert!(wait > Duration::from_secs(4), "{wait:?}");
        // Regained over time.
        assert!(
            share
                .begin(Some(a), t0 + wait + Duration::from_secs(1))
                .is_ok()
        );
    }

    /// An evaluation by `client` begun at `at` that took `secs` of engine time.
    fn spend(share: &ReferenceShare, client: IpAddr, at: Instant, secs: f64) -> Result<(), NotYet> {
        let mut e = share.begin(Some(client), at)?;
        e.took = Some(secs);
        Ok(())
    }

    /// A4-2: fresh addresses do not add up to more than all clients' share together
    /// (and its reserve for clients within their fair part, A5-2).
    #[test]
    fn all_clients_together_keep_within_one_share() {
        let share = ReferenceShare::default();
        let t0 = Instant::now() + Duration::from_secs(60);
        // Eight addresses each spend one second of engine time at once: the share of all.
        for i in 0..8u8 {
            spend(&share, IpAddr::from([10, 0, 0, i]), t0, 1.0).expect("within the share");
        }
        // Fresh addresses are within their fair part and go on the reserve; their
        // commands run into the engine's limit, and the reserve is spent.
        spend(&share, IpAddr::from([10, 0, 1, 0]), t0, 2.0).expect("on the reserve");
        spend(&share, IpAddr::from([10, 0, 1, 2]), t0, 2.0).expect("on the reserve");
        // A tenth finds the share of all spent, and is told when it comes back.
        let Err(NotYet::AllSpent(wait)) = share
            .begin(Some(IpAddr::from([10, 0, 1, 1])), t0)
            .map(|_| ())
        else {
            panic!("all clients' share spent");
        };
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(1),
            "{wait:?}"
        );
        assert!(
            share
                .begin(Some(IpAddr::from([10, 0, 1, 1])), t0 + wait)
                .is_ok()
        );
    }

    /// A5-2: past the share of all, admission is fair between clients: six addresses
    /// asking without pause for heavy commands (each as long as a second of engine time)
    /// do not shut out a client asking for a 2 ms `CC1` every 100 ms; over a minute
    /// the heavy ones together get no more than the share of all (and its reserve), each
    /// about the same.
    #[test]
    fn the_share_of_all_is_fair_between_clients() {
        let share = ReferenceShare::default();
        let t0 = Instant::now() + Duration::from_secs(60);
        let heavy: Vec<IpAddr> = (0..6u8).map(|i| IpAddr::from([10, 0, 0, i])).collect();
        let light = IpAddr::from([10, 0, 9, 9]);
        let mut heavy_secs = [0.0f64; 6];
        let mut light_ok = 0;
        // A virtual minute in 10 ms steps: each heavy client asks at every step (its
        // previous command over), the light one every 100 ms.
        for step in 0..6_000u32 {
            let now = t0 + Duration::from_millis(u64::from(step) * 10);
            for (i, &h) in heavy.iter().enumerate() {
                if spend(&share, h, now, 1.0).is_ok() {
                    heavy_secs[i] += 1.0;
                }
            }
            if step % 10 == 0 {
                match spend(&share, light, now, 0.002) {
                    Ok(()) => light_ok += 1,
                    Err(e) => panic!("the light client was refused at step {step}: {e:?}"),
                }
            }
        }
        assert_eq!(light_ok, 600);
        let total: f64 = heavy_secs.iter().sum();
        // The share of all over 60 s, what was there at once and the reserve; the light
        // client's 1.2 s besides.
        let bound = 60.0 * ReferenceShare::PER_SECOND_ALL
            + ReferenceShare::BURST_ALL
            + ReferenceShare::RESERVE_ALL;
        assert!(total <= bound, "{total} > {bound}: {heavy_secs:?}");
        assert!(
            total >= 50.0,
            "the share is used, not left idle: {heavy_secs:?}"
        );
        // None is shut out by the others: each gets at least its fair part.
        for (i, secs) in heavy_secs.iter().enumerate() {
            assert!(
                *secs >= 60.0 * ReferenceShare::FAIR_PER_SECOND,
                "heavy client {i} got {secs} s: {heavy_secs:?}"
            );
        }
    }

    /// bcdice-api load on a simulated engine of two lanes (each a queue, the least-held
    /// chosen, as `taku_systems::reference::pump` does), in 10 ms steps of a virtual
    /// clock: an evaluation's time is measured from its admission to its answer, as the
    /// server measures it (waiting in a lane's queue included).
    struct Engine2<'a> {
        share: &'a ReferenceShare,
        t0: Instant,
        /// Per lane: when its queue is empty, and the commands it holds.
        lanes: [(f64, usize); 2],
        /// Evaluations in flight: client, when answered, lane, the share's turn.
        flights: Vec<(IpAddr, f64, usize, Evaluating<'a>)>,
    }

    impl<'a> Engine2<'a> {
        fn new(share: &'a ReferenceShare) -> Self {
            Engine2 {
                share,
                t0: Instant::now() + Duration::from_secs(60),
                lanes: [(0.0, 0); 2],
                flights: Vec::new(),
            }
        }

        /// Answers what is done by `t` (seconds).
        fn advance(&mut self, t: f64) {
            let (done, running): (Vec<_>, Vec<_>) = self.flights.drain(..).partition(|f| f.1 <= t);
            self.flights = running;
            for (_, end, lane, mut turn) in done {
                turn.took = Some(end - turn.start.duration_since(self.t0).as_secs_f64());
                self.lanes[lane].1 -= 1;
            }
        }

        fn busy(&self, client: IpAddr) -> bool {
            self.flights.iter().any(|f| f.0 == client)
        }

        /// `client` asks at `t` for a command of `secs` engine time (at most the
        /// engine's 2 s limit): when it will be answered, or why not.
        fn ask(&mut self, client: IpAddr, t: f64, secs: f64) -> Result<f64, NotYet> {
            let now = self.t0 + Duration::from_secs_f64(t);
            let turn = self.share.begin(Some(client), now)?;
            let lane = usize::from(self.lanes[1].1 < self.lanes[0].1);
            let end = self.lanes[lane].0.max(t) + secs.min(2.0);
            self.lanes[lane] = (end, self.lanes[lane].1 + 1);
            self.flights.push((client, end, lane, turn));
            Ok(end)
        }

        /// As [`Engine2::ask`], but a client told to wait (`Running`, `Busy`) asks
        /// again when the next evaluation ends, as the server's request does, for at most
        /// 2 s.
        fn wait_for(&mut self, client: IpAddr, t: f64, secs: f64) -> Result<f64, NotYet> {
            let mut now = t;
            loop {
                match self.ask(client, now, secs) {
                    Err(NotYet::Running | NotYet::Busy) => {
                        let next = self.flights.iter().map(|f| f.1).fold(f64::MAX, f64::min);
                        if next > t + 2.0 {
                            return Err(NotYet::Busy);
                        }
                        now = next;
                        self.advance(now);
                    }
                    answer => return answer,
                }
            }
        }
    }

    /// A7-14: eight addresses flood bcdice-api for 10 s with a legal 0.45 s command,
    /// four connections each (each address always has its next request waiting). Once the
    /// flood stops, a client that never asked is answered at once, not ~37 s later; and
    /// during the flood too.
    #[test]
    fn a_flood_leaves_the_share_of_all_no_long_debt() {
        let share = ReferenceShare::default();
        let mut engine = Engine2::new(&share);
        let heavy: Vec<IpAddr> = (1..=8u8).map(|k| IpAddr::from([127, 0, 14, k])).collect();
        let mut fresh = 0u8;
        let mut fresh_refused = Vec::new();
        for step in 0..1_000u32 {
            let t = f64::from(step) / 100.0;
            engine.advance(t);
            for &h in &heavy {
                if !engine.busy(h) {
                    let _ = engine.ask(h, t, 0.45);
                }
            }
            // A fresh address every 2 s during the flood: its first request goes.
            if step % 200 == 100 {
                fresh += 1;
                let client = IpAddr::from([127, 0, 15, fresh]);
                if let Err(e) = engine.wait_for(client, t, 0.003) {
                    fresh_refused.push((t, e));
                }
            }
        }
        assert!(
            fresh_refused.is_empty(),
            "during the flood: {fresh_refused:?}"
        );
        // The flood stops at 10 s: a fresh address every second after it is answered at
        // its first request.
        for (i, t) in [10.0, 11.0, 12.0, 15.0].into_iter().enumerate() {
            engine.advance(t);
            let client = IpAddr::from([127, 0, 16, u8::try_from(i).expect("small")]);
            assert!(
                engine.ask(client, t, 0.003).is_ok(),
                "a fresh client at t = {t} s after the flood"
            );
        }
    }

    /// A7-7 (A6-8): four heavy addresses, four connections each, send commands that run
    /// into the engine's 2 s limit without pause; a light client asking for a few-ms
    /// command every 2 s is admitted every time and answered within 50 ms (a lane is kept
    /// for light clients), and so is a new address's first request; once the heavy
    /// addresses' first commands, light until they have run, are over.
    #[test]
    fn a_light_client_is_answered_while_four_heavy_addresses_hammer() {
        let share = ReferenceShare::default();
        let mut engine = Engine2::new(&share);
        let heavy: Vec<IpAddr> = (1..=4u8).map(|k| IpAddr::from([127, 0, 10, k])).collect();
        let light = IpAddr::from([127, 0, 0, 21]);
        let mut heavy_turns = [0u32; 4];
        let mut answers = Vec::new();
        // A virtual minute.
        for step in 0..6_000u32 {
            let t = f64::from(step) / 100.0;
            engine.advance(t);
            for (i, &h) in heavy.iter().enumerate() {
                if !engine.busy(h) && engine.ask(h, t, 2.0).is_ok() {
                    heavy_turns[i] += 1;
                }
            }
            // From 6 s on: what a command will cost is known only once it has run, so
            // each heavy address's first commands (it never asked before, it is light)
            // may fill both lanes for their 2 s.
            if step % 200 == 50 && step >= 600 {
                let end = engine.wait_for(light, t, 0.005);
                answers.push((t, end.map(|end| end - t)));
                let fresh = IpAddr::from([127, 0, 22, u8::try_from(step / 200).expect("small")]);
                let end = engine.wait_for(fresh, t, 0.005);
                answers.push((t, end.map(|end| end - t)));
            }
        }
        for (t, answer) in &answers {
            match answer {
                Ok(latency) => assert!(*latency < 0.05, "answered after {latency} s at {t}"),
                Err(e) => panic!("refused at {t} s: {e:?} (heavy turns {heavy_turns:?})"),
            }
        }
        // The heavy ones are not shut out either: each has turns.
        assert!(heavy_turns.iter().all(|&n| n >= 3), "{heavy_turns:?}");
    }

    /// Whether `f` is ready when first polled.
    fn futures_ready(f: std::pin::Pin<&mut impl std::future::Future>) -> bool {
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        f.poll(&mut cx).is_ready()
    }

    #[test]
    fn a_client_gets_its_burst_then_its_rate_and_others_are_unaffected() {
        let limiter = RateLimiter::new(10);
        let (a, b) = (Some([10, 0, 0, 1].into()), Some([10, 0, 0, 2].into()));
        let t0 = Instant::now();
        for _ in 0..20 {
            assert!(limiter.take(a, t0).is_ok());
        }
        let wait = limiter.take(a, t0).expect_err("burst spent");
        assert!(wait <= Duration::from_millis(100), "{wait:?}");
        assert!(
            limiter.take(b, t0).is_ok(),
            "another client has its own bucket"
        );
        // A tenth of a second later, one more request.
        let t1 = t0 + Duration::from_millis(100);
        assert!(limiter.take(a, t1).is_ok());
        assert!(limiter.take(a, t1).is_err());
    }

    /// Issue 18 item 3: tables created per address per hour, on an explicit clock.
    #[test]
    fn an_hourly_quota_gives_its_whole_allowance_then_one_per_share_of_the_hour() {
        let quota = RateLimiter::per_hour(3);
        let (a, b) = (Some([10, 0, 0, 1].into()), Some([10, 0, 0, 2].into()));
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(quota.take(a, t0).is_ok());
        }
        let wait = quota.take(a, t0).expect_err("the hour's three are used");
        assert!(
            wait > Duration::from_secs(1190) && wait <= Duration::from_secs(1200),
            "{wait:?}"
        );
        assert!(quota.take(b, t0).is_ok(), "another address has its own");
        // A third of an hour later, one more.
        let t1 = t0 + Duration::from_secs(1200);
        assert!(quota.take(a, t1).is_ok());
        assert!(quota.take(a, t1).is_err());
        assert!(RateLimiter::per_hour(0).take(a, t0).is_ok(), "0: no limit");
    }

    #[test]
    fn connections_are_capped_globally_and_per_address() {
        let c = Arc::new(Connections::new(3, 2));
        let (a, b, d) = (
            IpAddr::from([10, 0, 0, 1]),
            IpAddr::from([10, 0, 0, 2]),
            IpAddr::from([10, 0, 0, 3]),
        );
        let a1 = c.admit(a).expect("first");
        let evicted = a1.evicted.clone();
        let _a2 = c.admit(a).expect("second");
        assert!(c.admit(a).is_none(), "per address");
        let b1 = c.admit(b).expect("another address");
        // Full: the oldest idle connection (a1) is evicted to make room.
        let d1 = c.admit(d).expect("room made");
        // The evicted connection was told (a stored permit: this resolves at once).
        futures_util::FutureExt::now_or_never(evicted.notified()).expect("evicted");
        drop(a1);
        assert_eq!(c.open(), 3);
        // With every connection busy, nothing can be evicted.
        for busy in [&_a2, &b1, &d1] {
            busy.busy(true);
        }
        assert!(c.admit(IpAddr::from([10, 0, 0, 4])).is_none(), "global");
    }

    /// Issue 18 item 3: behind a trusted proxy, each client keeps its own limit; a
    /// forged `X-Forwarded-For` from anyone else is ignored.
    #[test]
    fn a_trusted_proxy_names_the_client_and_no_one_else_can() {
        use axum::http::HeaderMap;
        let trusted: Vec<Cidr> = vec![
            "10.0.0.0/8".parse().expect("cidr"),
            "::1".parse().expect("cidr"),
        ];
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            "6.6.6.6, 203.0.113.7, 10.1.2.3".parse().expect("value"),
        );
        let proxy = Some(IpAddr::from([10, 0, 0, 5]));
        assert_eq!(
            client_behind(proxy, &headers, &trusted),
            Some(IpAddr::from([203, 0, 113, 7]))
        );
        let stranger = Some(IpAddr::from([198, 51, 100, 1]));
        assert_eq!(client_behind(stranger, &headers, &trusted), stranger);
        assert_eq!(client_behind(proxy, &HeaderMap::new(), &trusted), proxy);
        let mut garbage = HeaderMap::new();
        garbage.insert("x-forwarded-for", "not-an-ip".parse().expect("value"));
        assert_eq!(client_behind(proxy, &garbage, &trusted), proxy);
        assert!("10.0.0.0/33".parse::<Cidr>().is_err());
        assert!(
            "0.0.0.0/0"
                .parse::<Cidr>()
                .expect("all")
                .contains(IpAddr::from([1, 2, 3, 4]))
        );
        assert!(
            "127.0.0.1"
                .parse::<Cidr>()
                .expect("one")
                .contains("::ffff:127.0.0.1".parse().expect("mapped"))
        );
    }

    #[test]
    fn zero_means_no_limit() {
        let limiter = RateLimiter::new(0);
        let now = Instant::now();
        assert!((0..100_000).all(|_| limiter.take(None, now).is_ok()));
    }

    #[test]
    fn idle_buckets_are_forgotten() {
        let limiter = RateLimiter::new(1);
        let t0 = Instant::now();
        for i in 0..SWEEP_AT as u32 {
            let ip = IpAddr::from(i.to_be_bytes());
            assert!(limiter.take(Some(ip), t0).is_ok());
        }
        let later = t0 + Duration::from_secs(3);
        assert!(limiter.take(None, later).is_ok());
        let kept = limiter.buckets.lock().expect("lock").len();
        assert_eq!(kept, 1);
    }
}

/// Each member's writes at each table (attack pass 2, A2-16: one spectator filled a
/// table's 64 MiB log in 54 s within the per-address rate limit): at most `lines` lines
/// and `bytes` bytes of them a minute, as two buckets that hold a minute's worth and
/// refill evenly. A write past either is refused before anything is decided, so it
/// changes nothing. Buckets full again are forgotten.
#[derive(Debug)]
pub struct MemberQuota {
    lines: f64,
    bytes: f64,
    buckets: Mutex<HashMap<(String, String), WriteBucket>>,
}

#[derive(Debug, Clone, Copy)]
struct WriteBucket {
    lines: f64,
    bytes: f64,
    at: Instant,
}

/// Why a write was refused: which share ran out, and when there is room again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverQuota {
    /// Seconds until the write would pass.
    pub wait: Duration,
    /// The lines a minute allowed.
    pub lines: u32,
    /// The bytes a minute allowed.
    pub bytes: u32,
}

impl MemberQuota {
    /// `lines` lines and `bytes` bytes a minute per member and table (`0`: that one
    /// unlimited).
    pub fn new(lines: u32, bytes: u32) -> Self {
        MemberQuota {
            lines: f64::from(lines),
            bytes: f64::from(bytes),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one write of `size` bytes by `member` at `table` at time `now`, or says
    /// how long until it would pass (and takes nothing).
    pub fn take(
        &self,
        table: &str,
        member: &str,
        size: usize,
        now: Instant,
    ) -> Result<(), OverQuota> {
        if self.lines == 0.0 && self.bytes == 0.0 {
            return Ok(());
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= SWEEP_AT {
            buckets.retain(|_, b| now.saturating_duration_since(b.at) < Duration::from_secs(60));
        }
        let bucket = buckets
            .entry((table.to_string(), member.to_string()))
            .or_insert(WriteBucket {
                lines: self.lines,
                bytes: self.bytes,
                at: now,
            });
        let minutes = now.saturating_duration_since(bucket.at).as_secs_f64() / 60.0;
        bucket.lines = (bucket.lines + minutes * self.lines).min(self.lines);
        bucket.bytes = (bucket.bytes + minutes * self.bytes).min(self.bytes);
        bucket.at = now;
        // A write larger than a whole minute's bytes needs a full bucket, not more.
        #[allow(clippy::cast_precision_loss)]
        let size = (size as f64).min(self.bytes);
        let short_lines = if self.lines > 0.0 {
            (1.0 - bucket.lines).max(0.0) / self.lines
        } else {
            0.0
        };
        let short_bytes = if self.bytes > 0.0 {
            (size - bucket.bytes).max(0.0) / self.bytes
        } else {
            0.0
        };
        let short = short_lines.max(short_bytes);
        if short > 0.0 {
            return Err(OverQuota {
                wait: Duration::from_secs_f64(short * 60.0).max(Duration::from_millis(1)),
                // Built from u32s.
                lines: self.lines as u32,
                bytes: self.bytes as u32,
            });
        }
        if self.lines > 0.0 {
            bucket.lines -= 1.0;
        }
        if self.bytes > 0.0 {
            bucket.bytes -= size;
        }
        Ok(())
    }

    /// Charges `member` at `table` `extra` bytes more than their write was taken for
    /// (what a line appended beyond what was typed: attack pass 4, A4-4, `x100 choice[…]`
    /// stored 257× its size). The bucket may go below empty: the member's next write
    /// waits until it has refilled past the debt.
    pub fn charge(&self, table: &str, member: &str, extra: usize, now: Instant) {
        if self.bytes == 0.0 || extra == 0 {
            return;
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let bucket = buckets
            .entry((table.to_string(), member.to_string()))
            .or_insert(WriteBucket {
                lines: self.lines,
                bytes: self.bytes,
                at: now,
            });
        let minutes = now.saturating_duration_since(bucket.at).as_secs_f64() / 60.0;
        bucket.lines = (bucket.lines + minutes * self.lines).min(self.lines);
        bucket.bytes = (bucket.bytes + minutes * self.bytes).min(self.bytes);
        bucket.at = now;
        #[allow(clippy::cast_precision_loss)]
        {
            bucket.bytes -= extra as f64;
        }
    }
}

/// Each client's share of the reference engine on bcdice-api (attack pass 2, A2-4: four
/// requests in flight from one client held every worker, and another client's roll
/// went from 2 ms to 0.9–1.5 s). A client has one reference evaluation at a time (the
/// next waits for it, [`ReferenceShare::ended`]) and a budget of its time:
/// [`ReferenceShare::BURST`] at once, regained at [`ReferenceShare::PER_SECOND`]; past
/// it, refused until regained.
///
/// All clients together have a share too ([`ReferenceShare::BURST_ALL`],
/// [`ReferenceShare::PER_SECOND_ALL`]), admitted fairly. Each client has a meter of its
/// recent engine time that drains at [`ReferenceShare::FAIR_PER_SECOND`], an eighth of
/// the share of all. A client whose meter, and whose last evaluation, are at most
/// [`ReferenceShare::FAIR_ROOM`] is *light*: it goes while the share of all is less than
/// [`ReferenceShare::RESERVE_ALL`] overspent, the less the more it used lately (a client
/// that never asked goes deepest) — a reserve heavy clients cannot touch. A *heavy* client goes only while the
/// share of all has room above its meter's excess (so the one that has used least goes
/// first, and heavy clients take turns). No more evaluations run at once than the engine
/// has lanes, and heavy ones one fewer (a lane stays free for light clients, whose few-ms
/// commands so never queue behind a command running into the engine's time limit); past
/// that a client waits ([`NotYet::Busy`]).
///
/// The share of all never goes more than [`ReferenceShare::DEBT_MAX`] into debt, and an
/// evaluation is charged at most [`ReferenceShare::COST_CAP`]: a flood, however many
/// addresses send it, is charged to the flooding clients' own meters and budgets, and
/// once it stops a light client waits at most a second (attack pass 7, A7-14: measured
/// times that included waiting in the engine's queues put the share of all 37 s into
/// debt and shut out every client; A7-7: four heavy addresses shut light ones out).
#[derive(Debug, Default)]
pub struct ReferenceShare {
    clients: Mutex<HashMap<Option<IpAddr>, Spend>>,
    /// All clients together (attack pass 4, A4-2: the share was per address only, and
    /// three addresses held both workers).
    all: Mutex<All>,
    /// Notified whenever an evaluation ends.
    pub ended: tokio::sync::Notify,
}

/// The share of all clients together.
#[derive(Debug, Default)]
struct All {
    /// Seconds of engine time left, and when last brought up to date: `None` until first
    /// used.
    level: Option<(f64, Instant)>,
    /// Heavy clients' evaluations running now.
    heavy: usize,
    /// All evaluations running now.
    running: usize,
}

/// Why a client may not start a reference evaluation now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotYet {
    /// Its previous evaluation is still running: wait for [`ReferenceShare::ended`].
    Running,
    /// As many heavy clients' evaluations run as may at once: wait for
    /// [`ReferenceShare::ended`].
    Busy,
    /// Its budget is spent: refused, with the time until it has room again.
    Spent(Duration),
    /// All clients' budget together is spent: refused, with the time until it has room.
    AllSpent(Duration),
}

#[derive(Debug, Clone, Copy)]
struct Spend {
    running: bool,
    level: f64,
    at: Instant,
    /// Seconds of engine time used lately beyond the fair part
    /// ([`ReferenceShare::FAIR_PER_SECOND`]); 0 for a client that asks for less.
    fair: f64,
    /// Seconds of engine time its last evaluation took.
    last: f64,
}

/// A client's reference evaluation in flight ([`ReferenceShare::begin`]): dropping it
/// (the answer sent, or the client gone) charges its time.
#[derive(Debug)]
pub struct Evaluating<'a> {
    share: &'a ReferenceShare,
    client: Option<IpAddr>,
    start: Instant,
    /// The engine time it took, when told (tests); else measured from `start`.
    took: Option<f64>,
    /// Admitted as a heavy client (counted in [`All::heavy`]).
    heavy: bool,
}

impl Drop for Evaluating<'_> {
    fn drop(&mut self) {
        let cost = self
            .took
            .unwrap_or_else(|| self.start.elapsed().as_secs_f64())
            .clamp(0.0, ReferenceShare::COST_CAP);
        let mut clients = self.share.lock();
        if let Some(spend) = clients.get_mut(&self.client) {
            spend.running = false;
            spend.level -= cost;
            spend.fair += cost;
            spend.last = cost;
        }
        drop(clients);
        {
            let mut all = self.share.all.lock().unwrap_or_else(|p| p.into_inner());
            if let Some((level, _)) = all.level.as_mut() {
                *level = (*level - cost).max(-ReferenceShare::DEBT_MAX);
            }
            if self.heavy {
                all.heavy = all.heavy.saturating_sub(1);
            }
            all.running = all.running.saturating_sub(1);
        }
        self.share.ended.notify_waiters();
    }
}

impl ReferenceShare {
    /// Seconds of evaluation a client may spend at once.
    pub const BURST: f64 = 4.0;
    /// Seconds of evaluation a client regains a second: half a worker.
    pub const PER_SECOND: f64 = 0.5;
    /// Seconds of evaluation all bcdice-api clients together may spend at once.
    pub const BURST_ALL: f64 = 8.0;
    /// Seconds of evaluation all bcdice-api clients together regain a second: one
    /// worker's worth, so anonymous traffic from any number of addresses leaves the
    /// others to the tables' players.
    pub const PER_SECOND_ALL: f64 = 1.0;
    /// A client's fair part of the share of all, a second: an eighth of
    /// [`ReferenceShare::PER_SECOND_ALL`], what each of eight clients asking without
    /// pause would get.
    pub const FAIR_PER_SECOND: f64 = Self::PER_SECOND_ALL / 8.0;
    /// How far past its fair part a client's meter may be and the client still be
    /// light: a few light commands in a row, or one wait for a worker that starts anew.
    pub const FAIR_ROOM: f64 = 1.0;
    /// How far past its share the share of all may be spent for light clients: twice
    /// the engine's time limit (a command's longest).
    pub const RESERVE_ALL: f64 = 4.0;
    /// The most one evaluation is charged: the engine's time limit and the start of a
    /// worker to replace one stopped at it. Longer is time spent waiting, not evaluating.
    pub const COST_CAP: f64 = 3.0;
    /// The deepest the share of all goes into debt: a second past the light clients'
    /// reserve, so a light client never waits more than a second for it.
    pub const DEBT_MAX: f64 = Self::RESERVE_ALL + Self::PER_SECOND_ALL;

    /// How much room the share of all must have for a heavy client whose meter reads
    /// `fair`: its excess over [`ReferenceShare::FAIR_ROOM`], so the heavy client that
    /// has used least lately goes first; at most half of [`ReferenceShare::BURST_ALL`].
    fn need(fair: f64) -> f64 {
        (fair - Self::FAIR_ROOM).clamp(0.0, Self::BURST_ALL / 2.0)
    }

    /// The reference engine's lanes (two when it is not installed: the default).
    fn lanes() -> usize {
        taku_systems::reference::engine().map_or(2, |e| e.config().workers.max(1))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Option<IpAddr>, Spend>> {
        // Every change is whole under the lock.
        self.clients.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `client`'s turn at the reference engine at `now`, or why not yet (its previous
    /// evaluation still running, or its budget spent).
    pub fn begin(&self, client: Option<IpAddr>, now: Instant) -> Result<Evaluating<'_>, NotYet> {
        let client = client.map(holder);
        let mut clients = self.lock();
        if clients.len() >= SWEEP_AT {
            clients.retain(|_, s| {
                let elapsed = now.saturating_duration_since(s.at).as_secs_f64();
                s.running
                    || s.level + elapsed * Self::PER_SECOND < Self::BURST
                    || s.fair - elapsed * Self::FAIR_PER_SECOND > 0.0
            });
        }
        let spend = clients.entry(client).or_insert(Spend {
            running: false,
            level: Self::BURST,
            at: now,
            fair: 0.0,
            last: 0.0,
        });
        let elapsed = now.saturating_duration_since(spend.at).as_secs_f64();
        spend.level = (spend.level + elapsed * Self::PER_SECOND).min(Self::BURST);
        spend.fair = (spend.fair - elapsed * Self::FAIR_PER_SECOND).max(0.0);
        spend.at = now;
        if spend.running {
            return Err(NotYet::Running);
        }
        if spend.level <= 0.0 {
            return Err(NotYet::Spent(Duration::from_secs_f64(
                (-spend.level + 1e-3) / Self::PER_SECOND,
            )));
        }
        // Heavy: it used more than its fair part lately, or its last command alone took
        // more than the room a light client has.
        let heavy = spend.fair.max(spend.last) > Self::FAIR_ROOM;
        {
            let mut all = self.all.lock().unwrap_or_else(|p| p.into_inner());
            let running_heavy = all.heavy;
            let (level, at) = all.level.get_or_insert((Self::BURST_ALL, now));
            *level = (*level
                + now.saturating_duration_since(*at).as_secs_f64() * Self::PER_SECOND_ALL)
                .min(Self::BURST_ALL);
            *at = now;
            // A light client goes on the reserve, the deeper the less it used lately
            // (a client that never asked, deepest); a heavy one needs room above its
            // meter's excess.
            let floor = if heavy {
                Self::need(spend.fair)
            } else {
                -Self::RESERVE_ALL * (1.0 - spend.fair / Self::FAIR_ROOM)
            };
            if *level <= floor {
                // Until the share of all is above this client's floor (sooner if its
                // meter drains meanwhile, which only lowers the floor).
                return Err(NotYet::AllSpent(Duration::from_secs_f64(
                    (floor - *level + 1e-3) / Self::PER_SECOND_ALL,
                )));
            }
            // At most one evaluation a lane, so none waits in a lane's queue (where its
            // time would be charged as the engine's), and heavy clients one lane less
            // (at least one), kept for light clients.
            let lanes = Self::lanes();
            if all.running >= lanes || (heavy && running_heavy >= lanes.saturating_sub(1).max(1)) {
                return Err(NotYet::Busy);
            }
            all.running += 1;
            if heavy {
                all.heavy += 1;
            }
        }
        spend.running = true;
        Ok(Evaluating {
            share: self,
            client,
            start: now,
            took: None,
            heavy,
        })
    }
}
