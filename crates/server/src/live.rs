//! Live updates: one WebSocket per member per table, delivering each new event as that
//! member may see it.
//!
//! Notifications carry no event data, only "table X now ends at seq N" ([`Hub`]). Each
//! socket then reads the events it has not sent from the table in memory and views each
//! one as its member ([`taku_table::Table::view`]), so a secret can reach a socket only
//! through the same function that guards the log, and a slow client never makes the
//! server buffer: notifications collapse into the latest seq. Another server's appends
//! (PostgreSQL) arrive by the store's notifications; the table is caught up from the
//! store before the sockets are woken.

use crate::Server;
use crate::api::{self, ApiError, Member};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use taku_table::store::{Listener, Notice};
use tokio::sync::watch;

/// Each socket's read buffer, in bytes. tungstenite's default is 128 KiB, and it
/// zero-fills all of the buffer's free space before every read attempt, including the
/// one each wake-up makes and finds nothing: at 1,000 sockets that memset was half of the
/// server's CPU per delivered event, and the buffers 128 MiB of resident memory. Clients
/// send next to nothing (pings, close); a larger message still gets room for its whole
/// length.
const READ_BUFFER: usize = 4 * 1024;

/// Live sockets one member may hold at one table at once.
pub const MAX_SOCKETS_PER_MEMBER: usize = 8;

/// Live sockets one client address may hold at once, over all tables.
pub const MAX_SOCKETS_PER_ADDRESS: usize = 64;

/// Log entries a socket copies from the table (under its lock), views and holds at once.
pub const LIVE_PAGE: usize = 64;

/// The last seq of every table some socket watches, and the sockets of each member (so
/// that removing a member closes them, and no member holds more than
/// [`MAX_SOCKETS_PER_MEMBER`]).
#[derive(Debug, Default)]
pub struct Hub {
    heads: Mutex<HashMap<String, watch::Sender<u64>>>,
    seats: Mutex<Seats>,
}

#[derive(Debug, Default)]
struct Seats {
    by_member: HashMap<(String, String), Seat>,
    by_address: HashMap<Option<IpAddr>, usize>,
    /// Counts [`Hub::close_member`] calls: a socket notes it before checking its token.
    closings: u64,
    /// When each member's sockets were last closed (their tokens revoked), in
    /// `closings`: a socket whose token was checked before then takes no seat.
    closed: HashMap<(String, String), u64>,
}

/// One member's sockets at one table: how many, and the signal that closes them all.
#[derive(Debug)]
struct Seat {
    /// Tells this seat from a later one of the same member (after a removal).
    id: u64,
    sockets: usize,
    closing: watch::Sender<bool>,
}

/// A socket's place among its member's; leaving (drop) frees it.
#[derive(Debug)]
pub struct SeatGuard {
    server: Arc<Server>,
    key: (String, String),
    client: Option<IpAddr>,
    seat: u64,
    closing: watch::Receiver<bool>,
}

impl Drop for SeatGuard {
    fn drop(&mut self) {
        let mut seats = self.server.live.lock_seats();
        if let Some(seat) = seats.by_member.get_mut(&self.key)
            && seat.id == self.seat
        {
            seat.sockets -= 1;
            if seat.sockets == 0 {
                seats.by_member.remove(&self.key);
            }
        }
        if let Some(n) = seats.by_address.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                seats.by_address.remove(&self.client);
            }
        }
    }
}

impl Hub {
    fn lock_seats(&self) -> std::sync::MutexGuard<'_, Seats> {
        // Counts only change under this lock, each change whole: a poisoned map is whole.
        self.seats.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Where the closings of members' sockets stand now. A socket takes this before it
    /// checks its token and gives it to its seat (`Hub::seat`).
    pub fn closings(&self) -> u64 {
        self.lock_seats().closings
    }

    /// A seat for one more socket of `member` from `client`, whose token was checked
    /// after [`Hub::closings`] said `checked`; why not, when they (or their address) hold
    /// the most already, or their sockets were closed since (attack pass 2, A2-1: a
    /// removal revokes the tokens and then closes the seat, so a socket whose token check
    /// passed just before the revocation would otherwise take a fresh seat after the
    /// closing and go on streaming the table to the removed member).
    fn seat(
        server: &Arc<Server>,
        member: &Member,
        client: Option<IpAddr>,
        checked: u64,
    ) -> Result<SeatGuard, ApiError> {
        let key = (member.table.clone(), member.name.clone());
        let mut seats = server.live.lock_seats();
        if seats.closed.get(&key).is_some_and(|&at| at > checked) {
            return Err(ApiError::Said(
                axum::http::StatusCode::UNAUTHORIZED,
                taku_dice::Text::new(
                    format!(
                        "このソケットを開いている間に、このテーブルでの {} さんのトークンが無効にされました。GM に新しいリンクをもらってください",
                        member.name
                    ),
                    format!(
                        "{}'s tokens at this table were revoked while this socket was opening; ask the GM for a new link",
                        member.name
                    ),
                ),
            ));
        }
        let all: usize = seats.by_address.values().sum();
        let most = server.connections.max_sockets();
        if all >= most {
            return Err(ApiError::Said(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                taku_dice::Text::new(
                    format!(
                        "サーバーのライブ接続が上限の {most} 本に達しています（残りの接続はリクエスト用です）。しばらくしてからもう一度どうぞ"
                    ),
                    format!(
                        "the server has {most} live sockets open, its most (the rest of its connections are kept for requests); try again later"
                    ),
                ),
            ));
        }
        let from_client = seats.by_address.get(&client).copied().unwrap_or(0);
        if from_client >= MAX_SOCKETS_PER_ADDRESS {
            return Err(ApiError::Said(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                taku_dice::Text::new(
                    format!(
                        "この接続元はすでにライブ接続を {MAX_SOCKETS_PER_ADDRESS} 本開いています。どれかを閉じてからどうぞ"
                    ),
                    format!(
                        "this address already has {MAX_SOCKETS_PER_ADDRESS} live sockets open; close one first"
                    ),
                ),
            ));
        }
        static SEATS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let seat = seats.by_member.entry(key.clone()).or_insert_with(|| Seat {
            id: SEATS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            sockets: 0,
            closing: watch::channel(false).0,
        });
        if seat.sockets >= MAX_SOCKETS_PER_MEMBER {
            return Err(ApiError::Said(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                taku_dice::Text::new(
                    format!(
                        "{} さんはこのテーブルでライブ接続を {MAX_SOCKETS_PER_MEMBER} 本開いています。どれかを閉じてからどうぞ",
                        member.name
                    ),
                    format!(
                        "{} already has {MAX_SOCKETS_PER_MEMBER} live sockets at this table; close one first",
                        member.name
                    ),
                ),
            ));
        }
        seat.sockets += 1;
        let guard = SeatGuard {
            server: server.clone(),
            key,
            client,
            seat: seat.id,
            closing: seat.closing.subscribe(),
        };
        *seats.by_address.entry(client).or_insert(0) += 1;
        Ok(guard)
    }

    /// Closes every live socket of `member` at `table` (removed, tokens revoked); how
    /// many. Call it after revoking their tokens: a socket whose token was checked before
    /// the revocation and that has not taken its seat yet is refused one (A2-1).
    pub fn close_member(&self, table: &str, member: &str) -> usize {
        let key = (table.to_string(), member.to_string());
        let mut seats = self.lock_seats();
        seats.closings += 1;
        let at = seats.closings;
        seats.closed.insert(key.clone(), at);
        match seats.by_member.remove(&key) {
            Some(seat) => {
                seat.closing.send_replace(true);
                seat.sockets
            }
            None => 0,
        }
    }
}

impl Hub {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, watch::Sender<u64>>> {
        // Only inserts and removals happen under this lock: a poisoned map is still whole.
        self.heads.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Watches table `id`, which now ends at `head`.
    pub fn subscribe(&self, id: &str, head: u64) -> watch::Receiver<u64> {
        let mut heads = self.lock();
        let sender = heads
            .entry(id.to_string())
            .or_insert_with(|| watch::channel(head).0);
        sender.send_if_modified(|h| advance(h, head));
        sender.subscribe()
    }

    /// Table `id` now ends at `seq`: wakes its sockets. Forgets tables nobody watches.
    pub fn published(&self, id: &str, seq: u64) {
        let mut heads = self.lock();
        if let Some(sender) = heads.get(id) {
            if sender.receiver_count() == 0 {
                heads.remove(id);
            } else {
                sender.send_if_modified(|h| advance(h, seq));
            }
        }
    }

    /// Whether some socket watches table `id`.
    pub fn is_watched(&self, id: &str) -> bool {
        self.lock().get(id).is_some_and(|s| s.receiver_count() > 0)
    }

    /// Tables some socket watches.
    pub fn watched(&self) -> Vec<String> {
        let mut heads = self.lock();
        heads.retain(|_, s| s.receiver_count() > 0);
        heads.keys().cloned().collect()
    }
}

fn advance(head: &mut u64, seq: u64) -> bool {
    let newer = seq > *head;
    if newer {
        *head = seq;
    }
    newer
}

/// `GET /api/v1/tables/{id}/live`: upgrades to a WebSocket for the member the token
/// names (header `Authorization: Bearer`, or `?token=` for browsers, which cannot set
/// headers on a WebSocket). `?after=N` first sends the events after seq N; by default
/// only events from now on. `?format=html` sends the web table's HTML of each entry.
pub async fn socket(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    connect_info: Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>,
    connection: Option<axum::Extension<crate::limits::ConnectionSeat>>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Response {
    if let Err(e) = api::only_parameters(query.as_deref(), &["token", "after", "format"]) {
        return e.into_response();
    }
    let query = api::query_pairs(query.as_deref());
    let token = query.get("token").map(String::as_str);
    // Before the token check: a revocation after this point refuses the seat (A2-1).
    let checked = server.live.closings();
    let member = match api::member(&server, &id, &headers, token).await {
        Ok(m) => m,
        Err(e) => return e.into_response(),
    };
    let after = match query.get("after").map(|a| a.parse::<u64>()) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(_)) => {
            return ApiError::BadRequest(taku_dice::Text::new(
                "after はログの番号（seq）です（0 でログ全体）",
                "after must be a seq number (0 for the whole log)",
            ))
            .into_response();
        }
    };
    let html = match query.get("format").map(String::as_str) {
        None | Some("json") => false,
        Some("html") => true,
        Some(other) => {
            return ApiError::BadRequest(taku_dice::Text::new(
                format!("format は json か html です（'{other}' ではなく）"),
                format!("format must be json or html, not '{other}'"),
            ))
            .into_response();
        }
    };
    let Ok(upgrade) = upgrade else {
        return ApiError::BadRequest(taku_dice::Text::new(
            "ここは WebSocket の接続先です。WebSocket のクライアントで接続してください（Upgrade: websocket）",
            "this is a WebSocket endpoint: connect with a WebSocket client (Upgrade: websocket)",
        ))
        .into_response();
    };
    let head = match server.tables.read(&id, |t| t.next_seq() - 1).await {
        Ok(h) => h,
        Err(e) => return ApiError::from(e).into_response(),
    };
    let after = after.unwrap_or(head).min(head);
    // The client as the rate limiter sees it: behind a trusted proxy, the address the
    // proxy forwards for, not the proxy's own (A2-18: one client took all the sockets).
    let client = crate::limits::client_behind(
        connect_info.map(|c| c.0.0.ip()),
        &headers,
        &server.config.trusted_proxies,
    )
    .map(crate::limits::holder);
    let seat = match Hub::seat(&server, &member, client, checked) {
        Ok(seat) => seat,
        Err(e) => return e.into_response(),
    };
    let connection = connection.map(|c| c.0.0);
    upgrade
        .read_buffer_size(READ_BUFFER)
        // Clients send nothing the server reads: a large message is refused, not buffered.
        .max_message_size(crate::MAX_BODY)
        .max_frame_size(crate::MAX_BODY)
        .on_upgrade(move |socket| async move {
            // The connection's place is held while the socket is open, never idle: an
            // eviction that picked it before this point closes the socket (A2-12).
            if let Some(c) = &connection {
                c.busy(true);
            }
            let evicted = connection.as_ref().map(|c| c.evicted.clone());
            let evicted = async move {
                match evicted {
                    Some(e) => e.notified().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = stream(server, member, head, after, seat, html, socket) => {}
                () = evicted => {}
            }
            drop(connection);
        })
}

/// Sends `member`'s view of every event after `after`, then of each new one, until the
/// client goes or the server stops: as the API's JSON entries, or (`html`) as
/// `{"seq","html"}` with the web table's rendering of the same entry.
async fn stream(
    server: Arc<Server>,
    member: Member,
    head: u64,
    after: u64,
    mut seat: SeatGuard,
    html: bool,
    mut socket: WebSocket,
) {
    let mut heads = server.live.subscribe(&member.table, head);
    let mut stopping = server.stopping.subscribe();
    let mut sent = after;
    loop {
        heads.borrow_and_update();
        // One bounded page at a time, copied under the table's lock ([`Table::excerpt`]:
        // the page's events, the state shared) and viewed after letting go of it: an
        // append waits only for a copy of [`LIVE_PAGE`] events, never for their views or
        // a whole history, and a socket holds at most one page, however long the log and
        // however slowly its client reads (each send waits for the socket to take it).
        let excerpt = server
            .tables
            .peek(&member.table, |t| {
                let from = usize::try_from(sent)
                    .unwrap_or(usize::MAX)
                    .min(t.events().len());
                let to = from.saturating_add(LIVE_PAGE).min(t.events().len());
                (t.excerpt(from..to), to < t.events().len())
            })
            .await;
        let page = excerpt.map(|(t, more)| {
            // The member removed or relinked after this socket opened, by this server or
            // another sharing the store (A2-11): what comes after is not for this socket.
            let gone = t
                .events()
                .iter()
                .position(|e| e.seq > head && revokes(&e.body, &member.name));
            let shown = gone.map_or(t.events(), |i| &t.events()[..=i]);
            let lines: Vec<String> = shown
                .iter()
                .map(|e| {
                    if html {
                        let markup = crate::web::page::entry(&t, e, &member.name);
                        serde_json::json!({"seq": e.seq, "html": markup.into_string()}).to_string()
                    } else {
                        api::seen(&t, e, &member.name).to_string()
                    }
                })
                .collect();
            let last = t.events().last().map_or(sent, |e| e.seq);
            (lines, last, more, gone.is_some())
        });
        let Ok((lines, last, more, gone)) = page else {
            break;
        };
        for line in lines {
            if socket.send(Message::Text(line.into())).await.is_err() {
                return;
            }
        }
        if gone {
            let _ = socket.send(Message::Close(None)).await;
            break;
        }
        sent = last;
        if more {
            if *stopping.borrow() || *seat.closing.borrow() {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
            continue;
        }
        tokio::select! {
            changed = heads.changed() => if changed.is_err() { break },
            _ = stopped(&mut stopping) => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
            _ = stopped(&mut seat.closing) => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
            incoming = socket.recv() => match incoming {
                // Pings are answered by the socket itself; what clients send is ignored.
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
        }
    }
}

/// Whether `body` takes `member`'s links away: their removal or a new link.
fn revokes(body: &taku_table::EventBody, member: &str) -> bool {
    matches!(body, taku_table::EventBody::Removed { member: m } | taku_table::EventBody::Relinked { member: m } if m == member)
}

/// Waits until shutdown begins.
pub(crate) async fn stopped(stopping: &mut watch::Receiver<bool>) {
    // An error means the server is gone: stopped as well.
    let _ = stopping.wait_for(|s| *s).await;
}

/// Follows the store's notices of appends by any server on the database (PostgreSQL):
/// brings each watched table up to date from the store and wakes its sockets. After a
/// lost connection ([`Notice::Resync`]) every watched table is caught up, since notices
/// sent meanwhile are gone. Tables no socket watches are left alone (reading them would
/// load them). Runs until shutdown.
pub async fn follow(server: Arc<Server>, mut listener: Listener) {
    let mut stopping = server.stopping.subscribe();
    loop {
        let notice = tokio::select! {
            n = listener.next() => n,
            _ = stopped(&mut stopping) => return,
        };
        let tables = match notice {
            Ok(Notice::Appended { table, .. }) if server.live.is_watched(&table) => vec![table],
            Ok(Notice::Appended { .. }) => continue,
            Ok(Notice::Resync) => server.live.watched(),
            Err(e) => {
                // The next call listens again; wait a little so a database that is down
                // is not hammered.
                tracing::warn!(error = %e, "lost the store's notifications; listening again");
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                continue;
            }
        };
        for id in tables {
            match server.tables.read(&id, |t| t.next_seq() - 1).await {
                Ok(last) => server.live.published(&id, last),
                Err(e) => {
                    tracing::warn!(table = %id, error = %e, "cannot catch up a watched table")
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Attack pass 2, A2-1: a socket whose token was checked before the GM revoked it
    /// (removal or a renewed link) and that reaches its seat after the member's sockets
    /// were closed gets no seat; one checked after the closing (a new link) does, and
    /// so do other members' sockets.
    #[tokio::test]
    async fn a_socket_checked_before_a_closing_takes_no_seat_after_it() {
        let dir = std::env::temp_dir().join(format!("taku-live-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let store = taku_table::store::Store::open(&dir.join("t.db").display().to_string())
            .await
            .expect("store");
        let server = Server::new(store, &crate::Config::default());
        let member = |name: &str| Member {
            table: "t1".into(),
            name: name.into(),
        };
        let alice = Hub::seat(&server, &member("alice"), None, server.live.closings())
            .expect("a seat before any closing");
        let checked = server.live.closings();
        // The removal: tokens revoked (not modelled here), then the sockets closed.
        assert_eq!(server.live.close_member("t1", "alice"), 1);
        assert!(
            *alice.closing.borrow(),
            "the seated socket is told to close"
        );
        let late = Hub::seat(&server, &member("alice"), None, checked);
        assert!(
            matches!(
                late,
                Err(ApiError::Said(axum::http::StatusCode::UNAUTHORIZED, _))
            ),
            "a socket checked before the closing got a seat after it"
        );
        // Bob's sockets and alice's new link (checked after the closing) are not affected.
        Hub::seat(&server, &member("bob"), None, checked).expect("bob's seat");
        let renewed = Hub::seat(&server, &member("alice"), None, server.live.closings())
            .expect("a socket checked after the closing");
        assert!(!*renewed.closing.borrow());
    }
}
