//! Attack pass 2's remaining findings, replayed over loopback TCP as a player would send
//! them, bounded in count and time: palette odds that would pin the server (A2-7), tables
//! held in memory past a budget (A2-9), one member filling a table's log (A2-16), and a
//! co-GM taking the table from its creator (A2-10).

mod support;

use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use support::{DEADLINE, http, join, last_seq, line, no_limits, serve, stalled_get, table};
use taku_server::{Config, Server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Waits (off the async threads) for the server's odds pool to have nothing queued.
async fn settle(server: &Arc<Server>) {
    let s = server.clone();
    let settled = tokio::task::spawn_blocking(move || s.odds().wait_settled(DEADLINE))
        .await
        .expect("wait");
    assert!(settled, "the odds pool settles");
}

/// The chances shown in a side pane, by palette line as shown.
fn odds_shown(side: &str) -> Vec<(String, Option<String>)> {
    let doc = scraper::Html::parse_fragment(side);
    let li = scraper::Selector::parse("#palette-source li").expect("selector");
    let text = |e: scraper::ElementRef, s: &str| {
        let s = scraper::Selector::parse(s).expect("selector");
        e.select(&s).next().map(|x| x.text().collect::<String>())
    };
    doc.select(&li)
        .map(|e| {
            (
                text(e, ".palette-line").unwrap_or_default(),
                text(e, ".odds"),
            )
        })
        .collect()
}

/// A2-7: a player's palette of checks whose exact odds would take minutes and hundreds
/// of MB (`200D1000>=100000` took 44 s and 254 MB; three side panes 650 s and 599 MB).
/// Three panes asked for at once are answered without computing any odds; the costly
/// lines are never computed (nor queued), whatever their spelling (full-width, a long
/// sum of small dice); the cheap ones are computed once each by the server's one odds
/// worker, within the member's share of its queue, and shown by a later pane.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_palettes_never_compute_on_the_request_path() {
    let (addr, server) = serve("palette", no_limits()).await;
    let (id, _gm, players) = table(addr, "gm", &["alice"]).await;
    let alice = &players[0];
    let stamp = std::process::id();
    let hostile = [
        "200D1000>=100000".to_string(),
        "２００Ｄ１００＞＝１００００".to_string(),
        "100D100+100D100>=20000".to_string(),
        format!("{}1D6>=300", "1D6+".repeat(200)),
    ];
    let cheap: Vec<String> = (0..20)
        .map(|i| format!("2D6>={} 判定{stamp}-{i}", 2 + i % 11))
        .collect();
    let answer = line(addr, &id, alice, "/char new ミナ").await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let mut set = String::from("/char set ミナ");
    for (n, l) in hostile.iter().chain(&cheap).enumerate() {
        set.push_str(&format!(" palette.{n} \"{l}\""));
    }
    let answer = line(addr, &id, alice, &set).await;
    assert_eq!(answer.status, 200, "{}", answer.body);

    server.odds().hold(true);
    let before = server.odds().stats();
    let path = format!("/t/{id}/side");
    let panes =
        futures_util::future::join_all((0..3).map(|_| http(addr, "GET", &path, Some(alice), None)))
            .await;
    for pane in &panes {
        assert_eq!(pane.status, 200, "{}", pane.body);
        // Nothing computed yet: every line shows no chance, the cheap ones pending.
        assert!(odds_shown(&pane.body).iter().all(|(_, o)| o.is_none()));
        let pending: usize = pane
            .header("x-taku-odds-pending")
            .and_then(|v| v.parse().ok())
            .expect("pending header");
        assert_eq!(pending, cheap.len(), "the costly lines are not pending");
    }
    let queued = server.odds().stats();
    assert_eq!(
        queued.computed, before.computed,
        "nothing computed in a request"
    );
    assert_eq!(
        queued.queued,
        taku_server::web::odds::PER_MEMBER,
        "alice holds her share of the queue, no more"
    );
    assert_eq!(
        queued.too_costly - before.too_costly,
        3 * hostile.len() as u64,
        "each costly line was refused by the cost bound in each pane"
    );

    // The worker goes on: panes asked for again show the cheap lines' chances, each
    // computed once, a share at a time; the costly ones never.
    server.odds().hold(false);
    let mut shown = Vec::new();
    for _ in 0..(cheap.len() / taku_server::web::odds::PER_MEMBER + 2) {
        settle(&server).await;
        let pane = http(addr, "GET", &path, Some(alice), None).await;
        shown = odds_shown(&pane.body);
        if pane.header("x-taku-odds-pending") == Some("0") {
            break;
        }
    }
    settle(&server).await;
    let after = server.odds().stats();
    assert_eq!(after.computed - before.computed, cheap.len() as u64);
    for (l, odds) in &shown {
        let costly = !l.contains("判定");
        assert_eq!(odds.is_none(), costly, "{l}: {odds:?}");
    }
    // 2D6 >= 7 (i = 5): 21/36.
    let seven = format!("2D6>=7 判定{stamp}-5");
    assert!(
        shown
            .iter()
            .any(|(l, o)| *l == seven && o.as_deref() == Some("58.3%")),
        "{shown:?}"
    );
    eprintln!(
        "A2-7 figures: {} lines computed, longest {:?}, total {:?}",
        after.computed, after.longest, after.busy
    );
}

/// A2-9: with a budget for the tables held in memory, the least recently used leave
/// memory as others are loaded (a watched one too), and each is loaded again, whole,
/// when next used — a live socket watching an evicted table still gets its new lines.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_past_the_memory_budget_leave_memory_and_come_back_whole() {
    use futures_util::StreamExt;
    // Each table: about 3 × 12 KB of chat, and 16 KiB of overhead: three fit in 160 KiB.
    let budget = 160 * 1024;
    let (addr, server) = serve(
        "resident",
        Config {
            resident_log_bytes: budget,
            ..no_limits()
        },
    )
    .await;
    let long = "あ".repeat(4000);
    let mut tables = Vec::new();
    for i in 0..8 {
        let (id, gm, _) = table(addr, &format!("gm{i}"), &[]).await;
        for _ in 0..3 {
            let answer = line(addr, &id, &gm, &long).await;
            assert_eq!(answer.status, 200, "{}", answer.body);
        }
        tables.push((id, gm));
        assert!(
            server.tables().resident_bytes() <= budget,
            "{} bytes held after table {i}",
            server.tables().resident_bytes()
        );
    }
    let open = server.tables().open_ids();
    assert!(open.len() < 8 && open.len() >= 2, "{open:?} held");
    let (first, first_gm) = &tables[0];
    assert!(!open.contains(first), "the least recently used left");

    // A socket on the first table (loading it again), then the other tables used.
    let url = format!("ws://{addr}/api/v1/tables/{first}/live?token={first_gm}");
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.expect("socket");
    for (id, gm) in &tables[1..] {
        assert_eq!(last_seq(addr, id, gm).await, 4);
    }
    assert!(
        !server.tables().open_ids().contains(first),
        "a watched table leaves memory too"
    );
    assert!(server.tables().resident_bytes() <= budget);
    // Its log is whole when it comes back, and its watcher gets the next line.
    let answer = line(addr, first, first_gm, "戻ってきた").await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(last_seq(addr, first, first_gm).await, 5);
    let got = tokio::time::timeout(DEADLINE, async {
        while let Some(m) = socket.next().await {
            let m = m.expect("message");
            if m.to_text().is_ok_and(|t| t.contains("戻ってきた")) {
                return true;
            }
        }
        false
    })
    .await
    .expect("the watcher hears of the line");
    assert!(got);
    let log = http(
        addr,
        "GET",
        &format!("/api/v1/tables/{first}/log"),
        Some(first_gm),
        None,
    )
    .await;
    let events = log.json()["events"].as_array().expect("events").len();
    assert_eq!(events, 5);
}

/// A2-16: each member may send so many lines (and bytes of them) a minute at a table;
/// past it a line is refused 429 with `Retry-After`, in Japanese and English, and
/// nothing changes. Other members are not held to the one member's share.
#[tokio::test]
async fn a_member_past_their_write_quota_is_refused_and_nothing_changes() {
    let (addr, _server) = serve(
        "quota",
        Config {
            lines_per_minute: 5,
            line_bytes_per_minute: 0,
            ..no_limits()
        },
    )
    .await;
    let (id, gm, players) = table(addr, "gm", &["sam", "bob"]).await;
    let (sam, bob) = (&players[0], &players[1]);
    for i in 0..5 {
        let answer = line(addr, &id, sam, &format!("ライン{i}")).await;
        assert_eq!(answer.status, 200, "{}", answer.body);
    }
    let seq = last_seq(addr, &id, &gm).await;
    // Lines, reveals, undos and sheets alike.
    for (method, path, body) in [
        ("POST", "lines", json!({"line": "もう一行"})),
        ("POST", "undo", json!({})),
        ("POST", "characters", json!({"sheet": "name = \"ミナ\""})),
        ("POST", "reveal/1", json!({})),
    ] {
        let answer = http(
            addr,
            method,
            &format!("/api/v1/tables/{id}/{path}"),
            Some(sam),
            Some(&body),
        )
        .await;
        assert_eq!(answer.status, 429, "{path}: {}", answer.body);
        let reason = answer.json()["reason"]
            .as_str()
            .expect("reason")
            .to_string();
        // In the table's language (Japanese by default), saying the limit.
        assert!(
            reason.contains("書き込みすぎ") && !reason.contains("written too much"),
            "{reason}"
        );
        assert!(
            reason.contains("5 行") && !reason.contains("KiB"),
            "{reason}"
        );
        let wait: u64 = answer
            .header("retry-after")
            .and_then(|v| v.parse().ok())
            .expect("Retry-After");
        assert!((1..=60).contains(&wait), "{wait}");
    }
    assert_eq!(last_seq(addr, &id, &gm).await, seq, "nothing changed");
    // Bob has his own share.
    let answer = line(addr, &id, bob, "ぼくの番").await;
    assert_eq!(answer.status, 200, "{}", answer.body);

    // Bytes: two lines of 4,000 bytes fit in 10,000 a minute, a third does not.
    let (addr, _server) = serve(
        "quota-bytes",
        Config {
            lines_per_minute: 0,
            line_bytes_per_minute: 10_000,
            ..no_limits()
        },
    )
    .await;
    let (id, gm, players) = table(addr, "gm", &["spy"]).await;
    let long = "x".repeat(4000);
    for _ in 0..2 {
        assert_eq!(line(addr, &id, &players[0], &long).await.status, 200);
    }
    let seq = last_seq(addr, &id, &gm).await;
    let answer = line(addr, &id, &players[0], &long).await;
    assert_eq!(answer.status, 429, "{}", answer.body);
    assert_eq!(last_seq(addr, &id, &gm).await, seq);
    // A short line still fits in what is left.
    assert_eq!(line(addr, &id, &players[0], "短い").await.status, 200);
}

/// A2-10: a co-GM (anyone holding a GM invite) may not remove the table's creator nor
/// renew their link — by the API, the web table's button or a typed `/remove` — and
/// the creator's seat and token are unchanged; the creator may remove the co-GM and
/// renew their own link.
#[tokio::test]
async fn a_co_gm_cannot_take_the_table_from_its_creator() {
    let (addr, _server) = serve("creator", no_limits()).await;
    let (id, gm, _) = table(addr, "gm", &[]).await;
    let invite = http(
        addr,
        "POST",
        &format!("/api/v1/tables/{id}/invites"),
        Some(&gm),
        Some(&json!({"role": "gm"})),
    )
    .await;
    assert_eq!(invite.status, 201, "{}", invite.body);
    let invite = invite.json()["invites"][0]["token"]
        .as_str()
        .expect("invite")
        .to_string();
    let cogm = join(addr, &id, &invite, "cogm").await;
    let seq = last_seq(addr, &id, &gm).await;

    let removal = http(
        addr,
        "DELETE",
        &format!("/api/v1/tables/{id}/members/gm"),
        Some(&cogm),
        None,
    )
    .await;
    assert_eq!(removal.status, 403, "{}", removal.body);
    assert!(
        removal.body.contains("テーブルを作った GM"),
        "{}",
        removal.body
    );
    let relink = http(
        addr,
        "POST",
        &format!("/t/{id}/members/gm/link"),
        Some(&cogm),
        None,
    )
    .await;
    assert_eq!(relink.status, 403, "{}", relink.body);
    let typed = line(addr, &id, &cogm, "/remove gm").await;
    assert_eq!(typed.status, 422, "{}", typed.body);
    // Nothing changed: the creator's token still works, nothing was logged.
    assert_eq!(last_seq(addr, &id, &gm).await, seq);
    assert_eq!(line(addr, &id, &gm, "まだいます").await.status, 200);
    let side = http(addr, "GET", &format!("/t/{id}/side"), Some(&cogm), None).await;
    assert!(!side.body.contains("data-remove=\"gm\""), "{}", side.body);

    // The creator renews their own (leaked) link: the old token stops working.
    let renewed = http(
        addr,
        "POST",
        &format!("/t/{id}/members/gm/link"),
        Some(&gm),
        None,
    )
    .await;
    assert_eq!(renewed.status, 200, "{}", renewed.body);
    let link = renewed.json()["link"].as_str().expect("link").to_string();
    let new_gm = link.split_once("#token=").expect("token").1.to_string();
    assert_eq!(line(addr, &id, &gm, "古い").await.status, 401);
    // …and removes the co-GM.
    let removal = http(
        addr,
        "DELETE",
        &format!("/api/v1/tables/{id}/members/cogm"),
        Some(&new_gm),
        None,
    )
    .await;
    assert_eq!(removal.status, 200, "{}", removal.body);
    assert_eq!(line(addr, &id, &cogm, "まだ？").await.status, 401);
}

/// A3-5 and A4-1: a long export is held in memory only while it is being sent: one per
/// member, one per client address and four in all, and a client that stops reading is
/// cut off (here after 4 s, time for the four exports to be rendered), its place freed
/// and its member paused a while (2 stalls); the export goes out in chunks (its whole
/// length announced). A short export needs no place, so stalled long ones never keep a
/// small table's GM from theirs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exports_to_clients_that_never_read_are_cut_off_and_bounded() {
    use taku_server::web::EXPORTS_SENDING;
    let (addr, _server) = serve(
        "slow-export",
        Config {
            export_stall: Duration::from_secs(4),
            ..no_limits()
        },
    )
    .await;
    let names = ["alice", "bob", "carol", "dave", "eve"];
    let (id, gm, players) = table(addr, "gm", &names).await;
    // About 5 MB of log: more than the sockets' buffers hold.
    let long = "あ".repeat(4000);
    for _ in 0..400 {
        assert_eq!(line(addr, &id, &gm, &long).await.status, 200);
    }
    let path = format!("/t/{id}/export.json");
    let content_length = |head: &str| -> usize {
        head.lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().parse().expect("length"))
            })
            .expect("content-length")
    };
    let (alice, head) = stalled_get(addr, &path, &players[0]).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let length = content_length(&head);
    assert!(length > 4_000_000, "{length}");
    // Alice's second export waits for her first to be sent.
    let again = http(addr, "GET", &path, Some(&players[0]), None).await;
    assert_eq!(again.status, 503, "{}", again.body);
    assert!(again.header("retry-after").is_some());
    // Bob, from the same address, waits too: one long export per address.
    let bob = http(addr, "GET", &path, Some(&players[1]), None).await;
    assert_eq!(bob.status, 503, "{}", bob.body);
    // From other addresses, the other places, then none.
    let mut held = vec![alice];
    for (i, token) in players[1..EXPORTS_SENDING].iter().enumerate() {
        let from = [127, 0, 0, 2 + i as u8];
        let (stream, head) = support::stalled_get_from(from, addr, &path, token).await;
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        held.push(stream);
    }
    let eve = &players[EXPORTS_SENDING];
    let (_eve, head) = support::stalled_get_from([127, 0, 0, 9], addr, &path, eve).await;
    assert!(head.starts_with("HTTP/1.1 503"), "{head}");
    // A small table's export needs no place.
    let (small, small_gm, _) = table(addr, "gm2", &[]).await;
    let mine = http(
        addr,
        "GET",
        &format!("/t/{small}/export.json"),
        Some(&small_gm),
        None,
    )
    .await;
    assert_eq!(mine.status, 200, "{}", mine.body);
    // The stalled clients are cut off: Alice, cut off for not reading, waits a while,
    // told why (until then she was told her export is still being sent).
    let mut paused = None;
    for _ in 0..200 {
        let answer = http(addr, "GET", &path, Some(&players[0]), None).await;
        assert_eq!(answer.status, 503, "{}", answer.body);
        if answer.body.contains("受け取らない") {
            paused = Some(answer);
            break;
        }
        assert!(answer.body.contains("まだ送って"), "{}", answer.body);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(paused.expect("cut off").header("retry-after").is_some());
    // Then Eve's export goes through, whole.
    let mut got = None;
    for _ in 0..200 {
        let answer = http(addr, "GET", &path, Some(eve), None).await;
        if answer.status == 200 {
            got = Some(answer);
            break;
        }
        assert_eq!(answer.status, 503, "{}", answer.body);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let eve_export = got.expect("an export place freed after the stalled clients were cut off");
    assert_eq!(eve_export.body.len(), length);
    let export: Value = serde_json::from_str(&eve_export.body).expect("JSON");
    assert_eq!(export["entries"].as_array().expect("entries").len(), 406);
    // Alice's connection was closed before her export was all sent.
    let mut rest = Vec::new();
    let _ = tokio::time::timeout(DEADLINE, held[0].read_to_end(&mut rest))
        .await
        .expect("closed");
    assert!(
        rest.len() < length,
        "cut off after {} of {length} bytes",
        rest.len()
    );
    // (That the pause ends is `web::sending`'s unit test, on a paused clock.)
}

/// A3-6: a table holds at most `MAX_CHARACTERS` characters, each at most `MAX_FIELDS`
/// fields and `MAX_FIELD_BYTES` of them, by `/char new`, `/char set` and sheet imports
/// alike; the refusals say the limit and change nothing, so the table's state stays small.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn characters_and_their_fields_are_bounded() {
    use taku_table::{MAX_CHARACTERS, MAX_FIELD_BYTES, MAX_FIELDS};
    let (addr, _server) = serve("characters", no_limits()).await;
    let (id, gm, players) = table(addr, "gm", &["alice"]).await;
    let alice = &players[0];
    // Too many fields in one sheet.
    let mut sheet = String::from("name = \"多すぎ\"\n");
    for i in 0..=MAX_FIELDS {
        sheet.push_str(&format!("k{i} = {i}\n"));
    }
    let seq = last_seq(addr, &id, &gm).await;
    let import = http(
        addr,
        "POST",
        &format!("/api/v1/tables/{id}/characters"),
        Some(alice),
        Some(&json!({"sheet": sheet})),
    )
    .await;
    assert_eq!(import.status, 422, "{}", import.body);
    assert!(import.body.contains("項目が多すぎます"), "{}", import.body);
    // Too many bytes, a field at a time.
    assert_eq!(line(addr, &id, alice, "/char new ミナ").await.status, 200);
    // Fields of up to 1,000 characters, three a line.
    let value = "x".repeat(990);
    let (mut kept, mut accepted, mut refused) = (0usize, 0u64, None);
    for i in 0..20 {
        let keys = [format!("k{i}a"), format!("k{i}b"), format!("k{i}c")];
        let adds: usize = keys.iter().map(|k| k.len() + value.len()).sum();
        let set: Vec<String> = keys.iter().map(|k| format!("{k} {value}")).collect();
        let answer = line(
            addr,
            &id,
            alice,
            &format!("/char set ミナ {}", set.join(" ")),
        )
        .await;
        if answer.status != 200 {
            refused = Some((kept + adds, answer));
            break;
        }
        kept += adds;
        accepted += 1;
    }
    let (would, answer) = refused.expect("refused before 60 fields of 990 bytes");
    assert_eq!(answer.status, 422, "{}", answer.body);
    assert!(answer.body.contains("項目が多すぎます"), "{}", answer.body);
    assert!(
        kept <= MAX_FIELD_BYTES && would > MAX_FIELD_BYTES,
        "{kept} {would}"
    );
    // Too many characters (the GM's: a player has ten of their own, A4-5).
    for n in 1..MAX_CHARACTERS {
        let answer = line(addr, &id, &gm, &format!("/char new c{n}")).await;
        assert_eq!(answer.status, 200, "{n}: {}", answer.body);
    }
    let answer = line(addr, &id, &gm, "/char new もう一人").await;
    assert_eq!(answer.status, 422, "{}", answer.body);
    let state = http(
        addr,
        "GET",
        &format!("/api/v1/tables/{id}"),
        Some(&gm),
        None,
    )
    .await;
    let characters = state.json()["characters"]
        .as_array()
        .expect("characters")
        .len();
    assert_eq!(characters, MAX_CHARACTERS);
    assert_eq!(
        last_seq(addr, &id, &gm).await,
        seq + 1 + accepted + (MAX_CHARACTERS - 1) as u64
    );
}

/// A3-3: a CCFOLIA character marked hidden (`secret`, `hideStatus`, `invisible`) is not
/// imported (taku has no hidden characters; publishing it would show a GM's NPC to every
/// player), and a character's chat palette reaches only its owner and the GMs.
#[tokio::test]
async fn hidden_ccfolia_characters_are_refused_and_palettes_stay_their_owners() {
    let (addr, _server) = serve("ccfolia-hidden", no_limits()).await;
    let (id, gm, players) = table(addr, "gm", &["bob"]).await;
    let bob = &players[0];
    let import = |clip: Value, token: String| {
        let id = id.clone();
        async move {
            let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
            let body = clip.to_string();
            let request = format!(
                "POST /t/{id}/import HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAuthorization: Bearer {token}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            );
            stream.write_all(request.as_bytes()).await.expect("write");
            let mut raw = String::new();
            stream.read_to_string(&mut raw).await.expect("read");
            raw
        }
    };
    let boss = |flag: &str| {
        let mut data = json!({
            "name": "ボス",
            "status": [{"label": "HP", "value": 100, "max": 100}],
            "params": [{"label": "秘密", "value": "99"}],
            "commands": "//秘密=99\nS1D100<=50 隠し判定",
        });
        if !flag.is_empty() {
            data[flag] = json!(true);
        }
        json!({"kind": "character", "data": data})
    };
    let seq = last_seq(addr, &id, &gm).await;
    for flag in ["secret", "hideStatus", "invisible"] {
        let answer = import(boss(flag), gm.clone()).await;
        assert!(answer.starts_with("HTTP/1.1 400"), "{flag}: {answer}");
        // In the client's language only (Japanese here: the request names none).
        assert!(
            answer.contains("非公開") && !answer.contains("marked hidden"),
            "{answer}"
        );
    }
    assert_eq!(last_seq(addr, &id, &gm).await, seq, "nothing imported");
    let answer = import(boss(""), gm.clone()).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let path = format!("/api/v1/tables/{id}");
    let bobs = http(addr, "GET", &path, Some(bob), None).await.body;
    let gms = http(addr, "GET", &path, Some(&gm), None).await.body;
    assert!(
        !bobs.contains("palette.") && !bobs.contains("隠し判定"),
        "{bobs}"
    );
    assert!(bobs.contains("\"HP\""), "the rest is public: {bobs}");
    assert!(
        gms.contains("palette.2") && gms.contains("隠し判定"),
        "{gms}"
    );
}

/// A3-1: a server answering only its own names refuses a request whose `Host` is another
/// name (a DNS-rebinding page's, same-origin with itself) before any route — table
/// creation, the web form, bcdice-api — and takes `localhost` and addresses.
#[tokio::test]
async fn a_loopback_server_refuses_other_host_names() {
    let (addr, _server) = serve(
        "hosts",
        Config {
            allowed_hosts: Some(Vec::new()),
            ..no_limits()
        },
    )
    .await;
    let raw = |host: &str, method: &str, path: &str, body: &str| {
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nSec-Fetch-Site: same-origin\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        async move {
            let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
            stream.write_all(request.as_bytes()).await.expect("write");
            let mut out = String::new();
            stream.read_to_string(&mut out).await.expect("read");
            out.lines().next().unwrap_or_default().to_string()
        }
    };
    let create = r#"{"system":"DiceBot","name":"x","gm":"g"}"#;
    let port = addr.port();
    for host in [format!("attacker.example:{port}"), "evil.test".to_string()] {
        for (method, path, body) in [
            ("POST", "/api/v1/tables", create),
            ("POST", "/new", "system=DiceBot&name=t&gm=gm"),
            ("GET", "/v2/game_system/DiceBot/roll?command=2D6", ""),
        ] {
            let status = raw(&host, method, path, body).await;
            assert!(status.contains(" 421 "), "{host} {path}: {status}");
        }
    }
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        let status = raw(&host, "POST", "/api/v1/tables", create).await;
        assert!(status.contains(" 201 "), "{host}: {status}");
    }
}

/// A3-7: member names cannot carry the log's own punctuation (`gm:`, `gm≫alice（ささやき）:`),
/// which made chat read as the GM's roll or a whisper in text forms of the log.
#[tokio::test]
async fn member_names_cannot_imitate_the_logs_punctuation() {
    let (addr, _server) = serve("punctuation", no_limits()).await;
    let made = http(
        addr,
        "POST",
        "/api/v1/tables",
        None,
        Some(&json!({"system": "DiceBot", "name": "卓", "gm": "gm", "invites": 8})),
    )
    .await
    .json();
    let id = made["id"].as_str().expect("id");
    let invites = made["invites"].as_array().expect("invites");
    for (name, invite) in [
        "gm:",
        "gm：",
        "gm≫alice（ささやき）:",
        "[雑談]gm",
        "#7",
        "gm>",
    ]
    .iter()
    .zip(invites)
    {
        let joined = http(
            addr,
            "POST",
            &format!("/api/v1/tables/{id}/join"),
            None,
            Some(&json!({"invite": invite["token"], "name": name})),
        )
        .await;
        assert!(
            joined.status == 422 || joined.status == 400,
            "{name}: {}",
            joined.body
        );
        assert!(
            joined.body.contains("ログの書式"),
            "{name}: {}",
            joined.body
        );
    }
    let creator = http(
        addr,
        "POST",
        "/api/v1/tables",
        None,
        Some(&json!({"system": "DiceBot", "name": "卓", "gm": "gm:"})),
    )
    .await;
    assert!(
        creator.status == 422 || creator.status == 400,
        "{}",
        creator.body
    );
    // Plain names still join, the invite unused by the refusals above.
    let ok = join(
        addr,
        id,
        invites[0]["token"].as_str().expect("invite"),
        "alice",
    )
    .await;
    assert!(!ok.is_empty());
}
