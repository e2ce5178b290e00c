//! Long answers on their way to clients: exports, log pages, the web log's entries, side
//! panes and the table's state, each held in memory from rendering until sent.
//!
//! A client that asks and never reads would keep such an answer in memory as long as its
//! connection lasts (attack pass 3, A3-5: exports, ~1 GB a minute; its leftover: log
//! pages of about 1 MB). So each is sent in chunks, and a client that reads nothing for
//! [`EXPORT_STALL`], or slower than [`EXPORT_MIN_RATE`] on average after that, is cut off
//! through its connection's seat. Places are bounded per member, per client address and
//! in all; a member cut off for not reading waits [`CUT_OFF_PAUSE`] stalls before asking
//! again,
//! and one address holds at most its share of the server-wide places, so one client
//! re-asking as fast as it can does not keep everyone else's exports refused (attack pass
//! 4, A4-1: two stalled exports re-asked every 0.2 s held both places, 60 of 60 other
//! exports refused). Short answers (which the connection's buffers take whole) need no
//! place.

use crate::api::ApiError;
use axum::body::Bytes;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use taku_dice::{Lang, Text};
use tokio::time::Instant;

/// Long exports being sent at once, all clients together: each may be a whole log
/// rendered (~65 MB for a full one).
pub const EXPORTS_SENDING: usize = 4;

/// Long exports being sent at once to one client address (of [`EXPORTS_SENDING`]).
pub const EXPORTS_PER_ADDRESS: usize = 1;

/// An export this long or shorter takes no server-wide place (it is sent like a page).
pub const SHORT_EXPORT: usize = 1024 * 1024;

/// How long an export's client may read nothing before its connection is closed.
pub const EXPORT_STALL: Duration = Duration::from_secs(30);

/// The slowest an export may be read, on average, after its first [`EXPORT_STALL`].
pub const EXPORT_MIN_RATE: u64 = 64 * 1024;

/// How long a member whose client was cut off for not reading waits before a long
/// answer of the same kind is sent to them again, in stalls ([`EXPORT_STALL`] by
/// default: a minute).
pub const CUT_OFF_PAUSE: u32 = 2;

/// Bytes of long answers (log pages, the web log's entries, side panes, the table's
/// state) rendered and not yet sent, all clients together: past it a long answer is
/// refused (503, Retry-After) until others have gone.
pub const REPLIES_SENDING: usize = 32 * 1024 * 1024;

/// Bytes of long answers one client address may have rendered and not yet sent.
pub const REPLIES_PER_ADDRESS: usize = 8 * 1024 * 1024;

/// Long answers one member at one table may have rendered and not yet sent.
pub const REPLIES_PER_MEMBER: usize = 4;

/// An answer this long or shorter is sent as it is (the connection's buffers take it);
/// a longer one is held by [`Replies`] until sent.
pub const SHORT_REPLY: usize = 64 * 1024;

/// A member at a table.
type Key = (String, String);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Each change is whole under the lock.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn busy(lang: Lang, wait: Duration, ja: &str, en: &str) -> ApiError {
    ApiError::Busy(Text::new(ja, en).get(lang).to_string(), wait)
}

/// Members cut off for not reading, and when.
#[derive(Debug, Default)]
struct CutOff(HashMap<Key, Instant>);

impl CutOff {
    /// How long `key` must still wait, if it must.
    fn wait(&mut self, key: &Key, now: Instant, pause: Duration) -> Option<Duration> {
        if self.0.len() > 4096 {
            self.0
                .retain(|_, at| now.saturating_duration_since(*at) < pause);
        }
        let at = *self.0.get(key)?;
        let left = pause.saturating_sub(now.saturating_duration_since(at));
        if left.is_zero() {
            self.0.remove(key);
            return None;
        }
        Some(left)
    }
}

/// What a chunked answer's guard does when its client is cut off.
pub(crate) trait Held: Send + Sync + 'static {
    /// Called once, when the client is cut off for not reading.
    fn cut_off(&self) {}
}

/// Exports being sent: one per member and table; past [`SHORT_EXPORT`],
/// [`EXPORTS_SENDING`] in all and [`EXPORTS_PER_ADDRESS`] per client address.
#[derive(Debug)]
pub struct Exports {
    bodies: Arc<tokio::sync::Semaphore>,
    state: Arc<Mutex<ExportState>>,
    /// How long a client may read nothing.
    pub stall: Duration,
}

#[derive(Debug, Default)]
struct ExportState {
    sending: HashSet<Key>,
    addresses: HashMap<Option<IpAddr>, usize>,
    cut: CutOff,
}

impl Exports {
    /// Nothing being sent; a client reading nothing for `stall` is cut off
    /// ([`EXPORT_STALL`] by default).
    pub fn new(stall: Duration) -> Exports {
        Exports {
            bodies: Arc::new(tokio::sync::Semaphore::new(EXPORTS_SENDING)),
            state: Arc::default(),
            stall,
        }
    }

    /// A place to render `member`'s export at table `id`, or why not (in `lang`): their
    /// previous export is still being sent, or they were cut off for not reading one a
    /// moment ago.
    pub(crate) fn take(&self, id: &str, member: &str, lang: Lang) -> Result<Sending, ApiError> {
        let key = (id.to_string(), member.to_string());
        let mut state = lock(&self.state);
        if let Some(wait) = state
            .cut
            .wait(&key, Instant::now(), self.stall * CUT_OFF_PAUSE)
        {
            return Err(busy(
                lang,
                wait,
                "前の書き出しを受け取らないままだったため、しばらく書き出せません。少し待ってからもう一度どうぞ",
                "your previous export was not read, so exports wait a while; ask again in a moment",
            ));
        }
        if !state.sending.insert(key.clone()) {
            return Err(busy(
                lang,
                Duration::from_secs(5),
                "前の書き出しをまだ送っています。受け取り終えてからもう一度どうぞ",
                "your previous export is still being sent; ask again once it has arrived",
            ));
        }
        Ok(Sending {
            key,
            state: self.state.clone(),
            place: None,
        })
    }

    /// `sending` with room for a body of about `len` bytes for `client`: nothing more
    /// when it is short; else one of the server-wide places, within the address's share.
    pub(crate) fn room(
        &self,
        mut sending: Sending,
        len: usize,
        client: Option<IpAddr>,
        lang: Lang,
    ) -> Result<Sending, ApiError> {
        if len <= SHORT_EXPORT {
            return Ok(sending);
        }
        let mut state = lock(&self.state);
        let held = state.addresses.get(&client).copied().unwrap_or(0);
        let refused = || {
            busy(
                lang,
                Duration::from_secs(5),
                "ほかの書き出しを送っている最中です。少し待ってからもう一度どうぞ",
                "other exports are being sent just now; ask again in a moment",
            )
        };
        if held >= EXPORTS_PER_ADDRESS {
            return Err(refused());
        }
        let Ok(permit) = self.bodies.clone().try_acquire_owned() else {
            return Err(refused());
        };
        *state.addresses.entry(client).or_default() += 1;
        sending.place = Some((permit, client));
        Ok(sending)
    }
}

/// A member's export from rendering until its body is sent (or its connection gone).
pub(crate) struct Sending {
    key: Key,
    state: Arc<Mutex<ExportState>>,
    place: Option<(tokio::sync::OwnedSemaphorePermit, Option<IpAddr>)>,
}

impl Drop for Sending {
    fn drop(&mut self) {
        let mut state = lock(&self.state);
        state.sending.remove(&self.key);
        if let Some((_, client)) = &self.place
            && let Some(n) = state.addresses.get_mut(client)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                state.addresses.remove(client);
            }
        }
    }
}

impl Held for Sending {
    fn cut_off(&self) {
        lock(&self.state)
            .cut
            .0
            .insert(self.key.clone(), Instant::now());
    }
}

/// Long answers being sent (log pages, entries, side panes, the state): each held from
/// rendering until sent, [`REPLIES_PER_MEMBER`] per member and table,
/// [`REPLIES_PER_ADDRESS`] bytes per client address and [`REPLIES_SENDING`] in all, and
/// sent in chunks with the export's cut-off.
#[derive(Debug)]
pub struct Replies {
    bytes: Arc<tokio::sync::Semaphore>,
    state: Arc<Mutex<ReplyState>>,
    stall: Duration,
}

#[derive(Debug, Default)]
struct ReplyState {
    members: HashMap<Key, usize>,
    /// KiB held per client address.
    addresses: HashMap<Option<IpAddr>, usize>,
    cut: CutOff,
}

/// A long answer's place until it is sent (or its connection gone).
struct Replying {
    _bytes: tokio::sync::OwnedSemaphorePermit,
    kib: usize,
    key: Key,
    client: Option<IpAddr>,
    state: Arc<Mutex<ReplyState>>,
}

impl Drop for Replying {
    fn drop(&mut self) {
        let mut state = lock(&self.state);
        if let Some(n) = state.members.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                state.members.remove(&self.key);
            }
        }
        if let Some(n) = state.addresses.get_mut(&self.client) {
            *n = n.saturating_sub(self.kib);
            if *n == 0 {
                state.addresses.remove(&self.client);
            }
        }
    }
}

impl Held for Replying {
    fn cut_off(&self) {
        lock(&self.state)
            .cut
            .0
            .insert(self.key.clone(), Instant::now());
    }
}

impl Replies {
    /// Nothing being sent; a client reading nothing for `stall` is cut off.
    pub fn new(stall: Duration) -> Replies {
        Replies {
            bytes: Arc::new(tokio::sync::Semaphore::new(REPLIES_SENDING / 1024)),
            state: Arc::default(),
            stall,
        }
    }

    /// How many long answers are being sent now.
    pub fn sending(&self) -> usize {
        lock(&self.state).members.values().sum()
    }

    /// `body` (of type `kind`) as a response to `member` of table `id` from `client`: as
    /// it is when short; else within this server's bounds (a refusal in `lang` past them)
    /// and sent in chunks, cut off through `seat` when its client stops reading.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn send(
        &self,
        id: &str,
        member: &str,
        client: Option<IpAddr>,
        lang: Lang,
        kind: &'static str,
        body: String,
        seat: Option<crate::limits::ConnectionSeat>,
    ) -> Result<Response, ApiError> {
        let content_type = [(header::CONTENT_TYPE, HeaderValue::from_static(kind))];
        if body.len() <= SHORT_REPLY {
            return Ok((content_type, body).into_response());
        }
        let key = (id.to_string(), member.to_string());
        let kib = body.len().div_ceil(1024);
        let replying = {
            let mut state = lock(&self.state);
            if let Some(wait) = state
                .cut
                .wait(&key, Instant::now(), self.stall * CUT_OFF_PAUSE)
            {
                return Err(busy(
                    lang,
                    wait,
                    "前に頼んだページを受け取らないままだったため、しばらく送れません。少し待ってからもう一度どうぞ",
                    "the pages you asked for before were not read, so long pages wait a while; ask again in a moment",
                ));
            }
            if state.members.get(&key).copied().unwrap_or(0) >= REPLIES_PER_MEMBER {
                return Err(busy(
                    lang,
                    Duration::from_secs(5),
                    "前に頼んだページをまだ送っています。受け取り終えてからもう一度どうぞ",
                    "the pages you asked for before are still being sent; ask again once they have arrived",
                ));
            }
            let held = state.addresses.get(&client).copied().unwrap_or(0);
            let permit = u32::try_from(kib)
                .ok()
                .filter(|_| held.saturating_add(kib) <= REPLIES_PER_ADDRESS / 1024)
                .and_then(|n| self.bytes.clone().try_acquire_many_owned(n).ok());
            let Some(permit) = permit else {
                return Err(busy(
                    lang,
                    Duration::from_secs(5),
                    "ほかの長い応答を送っている最中です。少し待ってからもう一度どうぞ",
                    "other long answers are being sent just now; ask again in a moment",
                ));
            };
            *state.members.entry(key.clone()).or_default() += 1;
            *state.addresses.entry(client).or_default() += kib;
            Replying {
                _bytes: permit,
                kib,
                key,
                client,
                state: self.state.clone(),
            }
        };
        let length = body.len();
        let mut response = (
            content_type,
            sent_in_chunks(body, replying, seat, self.stall),
        )
            .into_response();
        response
            .headers_mut()
            .insert(header::CONTENT_LENGTH, HeaderValue::from(length as u64));
        Ok(response)
    }
}

/// `body` sent in chunks, holding `held` until it is all sent or the connection is
/// gone; a client that reads nothing for `stall`, or reads slower than
/// [`EXPORT_MIN_RATE`] on average after that, has its connection closed (through its
/// seat, when served by [`crate::serve`]) and `held` is told ([`Held::cut_off`]).
pub(crate) fn sent_in_chunks<G: Held>(
    body: String,
    held: G,
    seat: Option<crate::limits::ConnectionSeat>,
    stall: Duration,
) -> axum::body::Body {
    use std::sync::atomic::{AtomicU64, Ordering};
    const CHUNK: usize = 64 * 1024;
    let bytes = Bytes::from(body);
    let total = bytes.len() as u64;
    let start = tokio::time::Instant::now();
    // Milliseconds since `start` of the last chunk taken, and bytes taken.
    let progress = Arc::new((AtomicU64::new(0), AtomicU64::new(0)));
    let alive = Arc::new(held);
    if let Some(seat) = seat {
        let (progress, alive) = (progress.clone(), Arc::downgrade(&alive));
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(1));
            loop {
                tick.tick().await;
                if alive.strong_count() == 0 {
                    return;
                }
                let now = start.elapsed();
                let last = Duration::from_millis(progress.0.load(Ordering::Acquire));
                let sent = progress.1.load(Ordering::Acquire);
                let stalled = now.saturating_sub(last) > stall;
                let owed = now.saturating_sub(stall).as_secs() * EXPORT_MIN_RATE;
                if stalled || (sent < total && sent < owed) {
                    tracing::info!(target: "taku::http", sent, total, "a client stopped reading a long answer; connection closed");
                    if let Some(held) = alive.upgrade() {
                        held.cut_off();
                    }
                    seat.0.evicted.notify_one();
                    return;
                }
            }
        });
    }
    let chunks = futures_util::stream::unfold((bytes, alive), move |(mut rest, alive)| {
        let progress = progress.clone();
        async move {
            if rest.is_empty() {
                return None;
            }
            let chunk = rest.split_to(CHUNK.min(rest.len()));
            let ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
            progress.0.store(ms, Ordering::Release);
            progress.1.fetch_add(chunk.len() as u64, Ordering::AcqRel);
            Some((Ok::<_, std::convert::Infallible>(chunk), (rest, alive)))
        }
    });
    axum::body::Body::from_stream(chunks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{ConnectionSeat, Connections};

    fn seat(ip: IpAddr) -> ConnectionSeat {
        let connections = Arc::new(Connections::new(100, 100));
        ConnectionSeat(Arc::new(connections.admit(ip).expect("admitted")))
    }

    fn refused(r: Result<Response, ApiError>) -> String {
        match r {
            Err(ApiError::Busy(reason, wait)) => {
                assert!(wait > Duration::ZERO);
                reason
            }
            Err(e) => panic!("refused otherwise: {:?}", e.status_and_reason()),
            Ok(_) => panic!("not refused"),
        }
    }

    /// Long answers (log pages and the like) are held per member, per address and in
    /// all while unsent; short ones need no place; a client cut off for not reading
    /// frees its places and pauses its member for two stalls.
    #[tokio::test(start_paused = true)]
    async fn long_answers_are_shared_out_and_a_cut_off_member_pauses() {
        let replies = Replies::new(Duration::from_secs(1));
        let (a, b) = (IpAddr::from([10, 0, 0, 1]), IpAddr::from([10, 0, 0, 2]));
        let long = |kb: usize| "x".repeat(kb * 1024);
        let send = |member: &str, ip: IpAddr, body: String, seat: Option<ConnectionSeat>| {
            replies.send(
                "t",
                member,
                Some(ip),
                Lang::Ja,
                "application/json",
                body,
                seat,
            )
        };
        // Four per member.
        let mut held = Vec::new();
        let alice_seat = seat(a);
        for _ in 0..REPLIES_PER_MEMBER {
            held.push(send("alice", a, long(100), Some(alice_seat.clone())).expect("a place"));
        }
        let why = refused(send("alice", a, long(100), None));
        assert!(why.contains("まだ送って"), "{why}");
        // A short answer needs no place.
        assert!(send("alice", a, long(10), None).is_ok());
        assert_eq!(replies.sending(), REPLIES_PER_MEMBER);
        // Per address: bob from alice's address until the address's share is held.
        let mut bobs = Vec::new();
        let mut refusal = None;
        for _ in 0..REPLIES_PER_MEMBER {
            match send("bob", a, long(3 * 1024), None) {
                Ok(r) => bobs.push(r),
                Err(e) => {
                    refusal = Some(e);
                    break;
                }
            }
        }
        assert_eq!(bobs.len(), 2, "8 MiB an address");
        let why = refused(Err(refusal.expect("the address's share")));
        assert!(why.contains("ほかの長い応答"), "{why}");
        // From another address, bob is served.
        assert!(send("bob", b, long(3 * 1024), None).is_ok());
        // Alice's client reads nothing: after a stall it is cut off, its seat told.
        let evicted = alice_seat.0.evicted.clone();
        tokio::time::timeout(Duration::from_secs(5), evicted.notified())
            .await
            .expect("cut off");
        let why = refused(send("alice", a, long(100), None));
        assert!(why.contains("受け取らない"), "{why}");
        // The connection gone, its places are free; after two stalls she is served.
        held.clear();
        drop(bobs);
        assert_eq!(replies.sending(), 0);
        tokio::time::advance(Duration::from_secs(2)).await;
        assert!(send("alice", a, long(100), None).is_ok());
    }

    /// A4-1: a long export takes one of the server's places, one per address; a short
    /// one none; a member cut off pauses, then may export again.
    #[tokio::test(start_paused = true)]
    async fn long_exports_have_one_place_per_address_and_short_ones_none() {
        let exports = Exports::new(Duration::from_secs(1));
        let ip = |n: u8| Some(IpAddr::from([10, 0, 0, n]));
        let big = SHORT_EXPORT + 1;
        let alice = exports.take("t", "alice", Lang::En).expect("alice");
        let alice = exports.room(alice, big, ip(1), Lang::En).expect("a place");
        assert!(
            exports.take("t", "alice", Lang::En).is_err(),
            "one per member"
        );
        let bob = exports.take("t", "bob", Lang::En).expect("bob");
        assert!(
            exports.room(bob, big, ip(1), Lang::En).is_err(),
            "one per address"
        );
        let mut others = Vec::new();
        for (n, member) in ["bob", "carol", "dave"].into_iter().enumerate() {
            let s = exports.take("t", member, Lang::En).expect("member");
            others.push(
                exports
                    .room(s, big, ip(2 + n as u8), Lang::En)
                    .expect("a place"),
            );
        }
        let eve = exports.take("t", "eve", Lang::En).expect("eve");
        let Err(ApiError::Busy(why, _)) = exports.room(eve, big, ip(9), Lang::En) else {
            panic!("every place held");
        };
        assert!(why.contains("other exports"), "{why}");
        // A short export needs no place.
        let small = exports.take("u", "gm", Lang::En).expect("gm");
        let small = exports
            .room(small, 1000, ip(9), Lang::En)
            .expect("no place needed");
        drop(small);
        // Alice is cut off for not reading: paused for two stalls, then served.
        alice.cut_off();
        drop(alice);
        let Err(ApiError::Busy(why, wait)) = exports.take("t", "alice", Lang::Ja) else {
            panic!("paused");
        };
        assert!(why.contains("受け取らない"), "{why}");
        assert!(wait <= Duration::from_secs(2), "{wait:?}");
        tokio::time::advance(Duration::from_secs(2)).await;
        assert!(exports.take("t", "alice", Lang::Ja).is_ok());
    }
}
