//! Issue 18: what a server holds its tables to. Pages viewed from an excerpt (copied
//! under the table's lock, viewed after) say exactly what the whole table says; idle
//! tables leave memory and come back whole; a log past its limits refuses lines and
//! stores nothing; heavy work runs on a bounded set of workers, each member within a
//! computing budget, refused with a reason when spent. Clocks are tokio's paused time;
//! nothing sleeps.

use std::time::Duration;
use taku_dice::Lang;
use taku_table::store::{Budget, EventStore, Limits, Store, StoreError, Tables};
use taku_table::{Entropy, Table};

fn temp_db(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("taku-limits-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("taku.db").display().to_string()
}

/// An Another World table whose log has every kind of reference an entry's visibility
/// rests on: secret rolls (revealed and not), what follows them (an AF check's
/// achievements), whispers, undone and voided changes.
fn busy_table() -> Table {
    let mut t = Table::create("AnotherWorld", "aw", "gm", [7; 32])
        .expect("table")
        .with_entropy(Entropy::seeded([7; 32]));
    let lines = [
        ("gm", "/join alice"),
        ("gm", "/join bob"),
        ("gm", "/join sam as spectator"),
        ("alice", "/char new ミナ"),
        ("bob", "/char new ロイ"),
        (
            "alice",
            "/char set ミナ 理知 4 知覚 3 反射 3 幸運 2 行動値 10 HP 20 MP 15",
        ),
        (
            "bob",
            "/char set ロイ 理知 2 知覚 2 反射 4 幸運 1 行動値 10 HP 18 MP 12",
        ),
        ("gm", "/af start 理知 80 3 説得"),
        ("alice", "SAW+{理知} 説得"),
        ("bob", "AW+{理知}"),
        ("alice", "AW+{理知}"),
        ("alice", "/w bob 内緒の話"),
        ("bob", "/char set ロイ 幸運 1"),
        ("bob", "/undo"),
        ("gm", "S2D6 GM の秘密"),
        ("bob", "S2D6"),
        ("gm", "/void 12"),
        ("alice", "こんにちは"),
    ];
    for (who, line) in lines {
        // Some lines may be refused by the rules; the log is what matters here.
        let _ = t.exec(who, line);
    }
    // Reveal the first secret roll.
    let secret = t
        .events()
        .iter()
        .find(|e| matches!(&e.body, taku_table::EventBody::Roll(r) if r.secret) && e.actor == "bob")
        .map(|e| e.seq)
        .expect("a secret roll");
    t.exec("bob", &format!("/reveal {secret}")).expect("reveal");
    t
}

/// Item 1: every entry of every window, as every member sees it in both languages, is
/// the same from an excerpt as from the whole table; the excerpt holds the window only.
#[test]
fn an_excerpt_views_every_entry_as_the_whole_table_does() {
    let t = busy_table();
    let n = t.events().len();
    assert!(n > 15, "the log has {n} events");
    assert!(
        t.events().iter().any(|e| matches!(
            &e.body,
            taku_table::EventBody::System {
                follows: Some(_),
                ..
            }
        )),
        "an AF achievement follows a roll"
    );
    for width in [1, 2, 7] {
        for start in 0..n {
            let page = t.excerpt(start..start + width);
            let end = (start + width).min(n);
            assert_eq!(page.events(), &t.events()[start..end]);
            for e in page.events() {
                for viewer in ["gm", "alice", "bob", "sam"] {
                    for lang in [Lang::Ja, Lang::En] {
                        assert_eq!(
                            page.entry(e, viewer, lang),
                            t.entry(e, viewer, lang),
                            "#{} as {viewer}, window {start}..{end}",
                            e.seq
                        );
                    }
                }
            }
            assert_eq!(page.members(), t.members());
            assert_eq!(
                page.sheet("ミナ", "bob").map(|s| s.to_json(Lang::Ja)),
                t.sheet("ミナ", "bob").map(|s| s.to_json(Lang::Ja))
            );
        }
    }
    // Out of range is empty, never a panic.
    assert!(t.excerpt(n + 5..n + 9).events().is_empty());
    let (from, to) = (std::hint::black_box(9), 3);
    assert!(t.excerpt(from..to).events().is_empty(), "a reversed window");
}

/// Item 1: an excerpt is a snapshot: the table goes on (here its language changes) and
/// the excerpt still views the table as it was when taken, so it can be rendered at
/// leisure after the lock is let go.
#[tokio::test]
async fn an_excerpt_outlives_the_lock_and_the_table_goes_on() {
    let store = Store::open(&temp_db("snapshot")).await.expect("store");
    let tables = Tables::new(store);
    let table = Table::create("DiceBot", "卓", "gm", [1; 32]).expect("table");
    let id = tables.create(table).await.expect("create");
    tables
        .exec(&id, "gm", "ひとこと", None)
        .await
        .expect("store")
        .expect("chat");
    let page = tables
        .read(&id, |t| t.excerpt(0..t.events().len()))
        .await
        .expect("read");
    // The lock is free: a line runs while the excerpt is held.
    tables
        .exec(&id, "gm", "/lang en", None)
        .await
        .expect("store")
        .expect("lang");
    assert_eq!(page.lang(), Lang::Ja);
    assert_eq!(page.events().len(), 2);
    let now = tables.read(&id, |t| t.lang()).await.expect("read");
    assert_eq!(now, Lang::En);
}

/// Item 2: a table unused since the last sweep leaves memory; one in use, or one the
/// caller keeps (a watched table), stays; an evicted table comes back whole on its next
/// use and goes on at the right seq.
#[tokio::test]
async fn idle_tables_leave_memory_and_come_back_whole() {
    let store = Store::open(&temp_db("evict")).await.expect("store");
    let tables = Tables::new(store);
    let a = tables
        .create(Table::create("DiceBot", "a", "gm", [1; 32]).expect("table"))
        .await
        .expect("create");
    let b = tables
        .create(Table::create("DiceBot", "b", "gm", [2; 32]).expect("table"))
        .await
        .expect("create");
    tables
        .exec(&a, "gm", "一行目", None)
        .await
        .expect("store")
        .expect("chat");
    // Both were used since the (first) sweep: nothing goes.
    assert_eq!(tables.evict_idle(|_| false), 0);
    assert_eq!(tables.open_ids().len(), 2);
    // Neither used since: both would go, but b is kept by the caller.
    assert_eq!(tables.evict_idle(|id| id == b), 1);
    assert_eq!(tables.open_ids(), vec![b.clone()]);
    // a comes back from the store and goes on.
    let done = tables
        .exec(&a, "gm", "二行目", None)
        .await
        .expect("store")
        .expect("chat");
    assert_eq!(done.events[0].seq, 3);
    let texts = tables
        .read(&a, |t| {
            t.events()
                .iter()
                .map(|e| t.view(e, "gm"))
                .collect::<Vec<_>>()
        })
        .await
        .expect("read");
    assert!(
        texts[1].contains("一行目") && texts[2].contains("二行目"),
        "{texts:?}"
    );
    // Used again: stays for this sweep, goes at the next.
    assert_eq!(tables.evict_idle(|_| false), 1, "b is no longer kept");
    assert_eq!(
        tables.evict_idle(|_| false),
        1,
        "a went a sweep after its use"
    );
    assert!(tables.open_ids().is_empty());
}

/// Item 2: a line that would take the log past its entries or its bytes is refused in
/// both languages, and nothing is stored.
#[tokio::test]
async fn a_full_log_refuses_lines_and_stores_nothing() {
    let store = Store::open(&temp_db("full")).await.expect("store");
    let tables = Tables::new(store).with_limits(Limits {
        max_events: 3,
        ..Limits::default()
    });
    let id = tables
        .create(Table::create("DiceBot", "卓", "gm", [1; 32]).expect("table"))
        .await
        .expect("create");
    for line in ["一", "二"] {
        tables
            .exec(&id, "gm", line, None)
            .await
            .expect("store")
            .expect("fits");
    }
    let refusal = tables
        .exec(&id, "gm", "三", None)
        .await
        .expect("store")
        .expect_err("the log is full");
    assert!(
        refusal.render(Lang::Ja).contains("上限の 3 件"),
        "{}",
        refusal.render(Lang::Ja)
    );
    assert!(
        refusal.render(Lang::En).contains("limit of 3 entries"),
        "{}",
        refusal.render(Lang::En)
    );
    // A reply-only line still works: it stores nothing.
    tables
        .exec(&id, "gm", "/help", None)
        .await
        .expect("store")
        .expect("help");
    assert_eq!(
        tables.store().load_after(&id, 0).await.expect("load").len(),
        3
    );

    // Bytes: long chat lines are taken while the log is more than the headroom below a
    // small byte limit; then every line is refused, however short (attack pass 3, A3-2:
    // whether a line fits must not depend on its size), and the refusal does not say
    // how full the log is.
    let store = Store::open(&temp_db("bytes")).await.expect("store");
    let tables = Tables::new(store).with_limits(Limits {
        max_bytes: 4_000,
        ..Limits::default()
    });
    let id = tables
        .create(Table::create("DiceBot", "卓", "gm", [1; 32]).expect("table"))
        .await
        .expect("create");
    let long = "あ".repeat(400);
    let mut taken = 0;
    let refusal = loop {
        match tables.exec(&id, "gm", &long, None).await.expect("store") {
            Ok(_) => taken += 1,
            Err(refusal) => break refusal,
        }
        assert!(taken < 10, "the limit holds");
    };
    assert!(taken >= 2, "{taken} long lines fit");
    let said = refusal.render(Lang::En);
    assert!(said.contains("limit of about 4000 bytes"), "{said}");
    assert!(!said.contains("now") && !said.contains('+'), "{said}");
    let short = tables
        .exec(&id, "gm", "a", None)
        .await
        .expect("store")
        .expect_err("a short line too");
    assert_eq!(
        short.render(Lang::En),
        said,
        "the same refusal whatever the size"
    );
    let stored = tables.store().load_after(&id, 0).await.expect("load");
    assert_eq!(stored.len(), 1 + taken);
    let size: usize = stored
        .iter()
        .map(|e| serde_json::to_string(&e.body).expect("json").len() + e.actor.len())
        .sum();
    assert!(
        size <= 4_000 + 1_300,
        "{size}: past the limit by one line at most"
    );
    // After a reload (eviction), the size is counted again from the store: still full.
    tables.evict_idle(|_| false);
    tables.evict_idle(|_| false);
    assert!(tables.open_ids().is_empty());
    assert!(
        tables
            .exec(&id, "gm", &long, None)
            .await
            .expect("store")
            .is_err()
    );
}

/// Item 2: a table takes at most `max_members` members, by a GM's `/join` line too.
#[tokio::test]
async fn a_full_table_refuses_a_gms_join_line() {
    let store = Store::open(&temp_db("members")).await.expect("store");
    let tables = Tables::new(store).with_limits(Limits {
        max_members: 2,
        ..Limits::default()
    });
    let id = tables
        .create(Table::create("DiceBot", "卓", "gm", [1; 32]).expect("table"))
        .await
        .expect("create");
    tables
        .exec(&id, "gm", "/join alice", None)
        .await
        .expect("store")
        .expect("second");
    let refusal = tables
        .exec(&id, "gm", "/join bob", None)
        .await
        .expect("store")
        .expect_err("third");
    assert!(
        refusal
            .render(Lang::En)
            .contains("the most members it may have (2)"),
        "{}",
        refusal.render(Lang::En)
    );
    assert!(
        refusal.render(Lang::Ja).contains("上限の 2 人"),
        "{}",
        refusal.render(Lang::Ja)
    );
    // A role change of a member already there is no new member.
    tables
        .exec(&id, "gm", "/join alice as spectator", None)
        .await
        .expect("store")
        .ok();
    assert_eq!(
        tables.read(&id, |t| t.members().len()).await.expect("read"),
        2
    );
}

/// Issue 18 (left over): `/remove NAME` (GM) takes a member off the table, so they no
/// longer count toward the member cap; their name stays theirs (nobody else joins under
/// it or a look-alike) until the GM's own `/join` brings them back; only a GM removes,
/// never themselves, never a non-member; the log with a removal verifies, and one whose
/// removal was forged by a player does not.
#[tokio::test]
async fn a_removed_member_leaves_the_members_and_the_cap() {
    let store = Store::open(&temp_db("removed")).await.expect("store");
    let tables = Tables::new(store).with_limits(Limits {
        max_members: 3,
        ..Limits::default()
    });
    let id = tables
        .create(Table::create("DiceBot", "卓", "gm", [1; 32]).expect("table"))
        .await
        .expect("create");
    let run = |who: &'static str, line: &'static str| {
        let (tables, id) = (&tables, &id);
        async move { tables.exec(id, who, line, None).await.expect("store") }
    };
    run("gm", "/join alice").await.expect("alice");
    run("gm", "/join bob").await.expect("bob");
    run("alice", "/w bob 内緒").await.expect("whisper");
    assert!(run("gm", "/join carol").await.is_err(), "full at 3");
    for (who, line, why) in [
        ("alice", "/remove bob", "GM"),
        ("gm", "/remove gm", "themselves"),
        ("gm", "/remove nobody", "no member"),
    ] {
        let refusal = run(who, line).await.expect_err(line);
        assert!(
            refusal.render(Lang::En).contains(why),
            "{line}: {}",
            refusal.render(Lang::En)
        );
        assert!(!refusal.render(Lang::Ja).is_empty());
    }
    let removed = run("gm", "/remove alice").await.expect("removed");
    assert_eq!(removed.events.len(), 1);
    let (members, gone) = tables
        .read(&id, |t| {
            (
                t.members().keys().cloned().collect::<Vec<_>>(),
                t.removed_members().iter().cloned().collect::<Vec<_>>(),
            )
        })
        .await
        .expect("read");
    assert_eq!(members, ["bob", "gm"]);
    assert_eq!(gone, ["alice"]);
    // A seat is free: carol joins; alice's name and a look-alike of it are hers still.
    run("gm", "/join carol")
        .await
        .expect("carol takes the freed seat");
    let refusal = run("gm", "/join aIice").await.expect_err("a look-alike");
    assert!(
        refusal.render(Lang::En).contains("alice"),
        "{}",
        refusal.render(Lang::En)
    );
    // Full again, so the GM's /join of alice herself is held to the cap ...
    let refusal = run("gm", "/join alice").await.expect_err("full");
    assert!(refusal.render(Lang::En).contains("the most members"));
    // ... and after another removal brings her back, as herself.
    run("gm", "/remove carol").await.expect("carol removed");
    run("gm", "/join alice").await.expect("alice is back");
    let (verified, members, entry) = tables
        .read(&id, |t| {
            let removal = t
                .events()
                .iter()
                .find(|e| matches!(e.body, taku_table::EventBody::Removed { .. }))
                .expect("a removal");
            (
                t.verify(),
                t.members().keys().cloned().collect::<Vec<_>>(),
                (
                    t.entry(removal, "bob", Lang::Ja).text,
                    t.entry(removal, "bob", Lang::En).text,
                ),
            )
        })
        .await
        .expect("read");
    assert!(verified.is_empty(), "{verified:?}");
    assert_eq!(members, ["alice", "bob", "gm"]);
    assert!(entry.0.contains("alice を退室させました"), "{}", entry.0);
    assert!(entry.1.contains("alice was removed"), "{}", entry.1);
    // A removal by a player, forged into a log, does not verify.
    let mut events = tables
        .read(&id, |t| t.events().to_vec())
        .await
        .expect("read");
    let seq = events.len() as u64 + 1;
    events.push(taku_table::Event {
        seq,
        actor: "bob".into(),
        body: taku_table::EventBody::Removed {
            member: "alice".into(),
        },
    });
    let forged = Table::from_events(events).expect("folds");
    assert!(
        forged.verify().iter().any(|m| m.seq == seq),
        "{:?}",
        forged.verify()
    );
}

/// Item 3: with workers, a member who spent their computing budget at a table is told
/// to wait (in both languages, with how long), nothing is decided or stored, and others
/// are unaffected. (That the bucket refills with time is the store module's unit test
/// `a_budget_refills_with_time_and_an_overdraft_is_paid_back_first`, on an explicit
/// clock: the store's own timeouts rule out pausing tokio's clock here.)
#[tokio::test]
async fn a_member_past_their_budget_waits_and_others_do_not() {
    let store = Store::open(&temp_db("budget")).await.expect("store");
    let tables = Tables::new(store).with_limits(Limits {
        workers: 2,
        // Any line empties the bucket; it refills a millisecond a second.
        budget: Budget {
            burst: Duration::from_nanos(1),
            per_second: Duration::from_millis(1),
        },
        ..Limits::default()
    });
    let mut table = Table::create("DiceBot", "卓", "gm", [1; 32]).expect("table");
    table.exec("gm", "/join alice").expect("join");
    table.exec("gm", "/join bob").expect("join");
    let id = tables.create(table).await.expect("create");
    tables
        .exec(&id, "alice", "2D6", None)
        .await
        .expect("store")
        .expect("roll");
    let before = tables.store().load_after(&id, 0).await.expect("load").len();
    let Err(StoreError::Busy {
        reason,
        retry_after,
    }) = tables.exec(&id, "alice", "2D6", None).await
    else {
        panic!("alice's budget is spent");
    };
    assert!(reason.ja().contains("alice さん"), "{}", reason.ja());
    assert!(
        reason.en().contains("send it again in about"),
        "{}",
        reason.en()
    );
    assert!(retry_after > Duration::ZERO);
    assert_eq!(
        tables.store().load_after(&id, 0).await.expect("load").len(),
        before
    );
    // bob's budget is his own.
    tables
        .exec(&id, "bob", "2D6", None)
        .await
        .expect("bob is served")
        .expect("roll");
}

/// Attack pass 5, A5-3: all of a table's members share one budget besides their own, so
/// members minted for free do not multiply a table's share of the workers: once the
/// table's is spent, a member who has used nothing is told to wait (naming the table's
/// share, in both languages), nothing is stored, and another table goes on.
#[tokio::test]
async fn a_tables_members_together_keep_within_the_tables_budget() {
    let store = Store::open(&temp_db("table-budget")).await.expect("store");
    let tables = Tables::new(store).with_limits(Limits {
        workers: 2,
        // Any line empties the table's bucket, which refills a nanosecond a second;
        // each member's own is far from spent.
        budget: Budget {
            burst: Duration::from_secs(100),
            per_second: Duration::from_secs(1),
        },
        table_budget: Budget {
            burst: Duration::from_nanos(1),
            per_second: Duration::from_nanos(1),
        },
        ..Limits::default()
    });
    let mut ids = Vec::new();
    for name in ["卓", "別の卓"] {
        let mut table = Table::create("DiceBot", name, "gm", [1; 32]).expect("table");
        table.exec("gm", "/join alice").expect("join");
        table.exec("gm", "/join bob").expect("join");
        ids.push(tables.create(table).await.expect("create"));
    }
    tables
        .exec(&ids[0], "alice", "2D6", None)
        .await
        .expect("store")
        .expect("roll");
    let before = tables
        .store()
        .load_after(&ids[0], 0)
        .await
        .expect("load")
        .len();
    let Err(StoreError::Busy {
        reason,
        retry_after,
    }) = tables.exec(&ids[0], "bob", "2D6", None).await
    else {
        panic!("the table's budget is spent");
    };
    assert!(reason.ja().contains("テーブル全体"), "{}", reason.ja());
    assert!(
        reason.en().contains("this table's members together"),
        "{}",
        reason.en()
    );
    assert!(retry_after > Duration::ZERO);
    assert_eq!(
        tables
            .store()
            .load_after(&ids[0], 0)
            .await
            .expect("load")
            .len(),
        before
    );
    // Another table's members are not held by it.
    tables
        .exec(&ids[1], "bob", "2D6", None)
        .await
        .expect("another table is served")
        .expect("roll");
}

/// Item 3: when every worker is taken, a line waits at most the queue's wait and is
/// refused as busy, changing nothing; once a worker frees up, lines run again.
#[tokio::test]
async fn a_line_finding_every_worker_taken_is_refused_as_busy() {
    let store = Store::open(&temp_db("workers")).await.expect("store");
    let tables = std::sync::Arc::new(Tables::new(store).with_limits(Limits {
        workers: 1,
        queue_wait: Duration::ZERO,
        ..Limits::default()
    }));
    let id = tables
        .create(Table::create("DiceBot", "卓", "gm", [1; 32]).expect("table"))
        .await
        .expect("create");
    // Heavy work holds the only worker until told to finish.
    let (release, wait) = std::sync::mpsc::channel::<()>();
    let (started, running) = tokio::sync::oneshot::channel::<()>();
    let heavy = {
        let (tables, id) = (tables.clone(), id.clone());
        tokio::spawn(async move {
            tables
                .compute(&id, "gm", move || {
                    let _ = started.send(());
                    let _ = wait.recv();
                    "exported"
                })
                .await
        })
    };
    running.await.expect("the heavy work started");
    // The same member's second heavy work waits for the first: refused, one at a time.
    let Err(StoreError::Busy { reason, .. }) = tables.compute(&id, "gm", || ()).await else {
        panic!("one at a time per member");
    };
    assert!(reason.en().contains("still running"), "{}", reason.en());
    let Err(StoreError::Busy { reason, .. }) = tables.exec(&id, "gm", "2D6", None).await else {
        panic!("the only worker is taken");
    };
    assert!(reason.en().contains("server is busy"), "{}", reason.en());
    assert!(reason.ja().contains("混み合っています"), "{}", reason.ja());
    assert_eq!(
        tables.store().load_after(&id, 0).await.expect("load").len(),
        1
    );
    release.send(()).expect("release");
    assert_eq!(heavy.await.expect("task").expect("computed"), "exported");
    tables
        .exec(&id, "gm", "2D6", None)
        .await
        .expect("store")
        .expect("a worker is free");
}

/// Attack pass 2, A2-3: heavy work that gathers its input first (an export copying the
/// log) reserves the member's turn and a worker before gathering. While one reservation
/// is held, the same member's next is refused at once (before it could copy anything),
/// other members are refused only for want of a worker, and giving a reservation back
/// unused (a refused export) frees both.
#[tokio::test]
async fn a_reservation_comes_before_the_work_gathers_its_input() {
    let store = Store::open(&temp_db("reserve")).await.expect("store");
    let tables = Tables::new(store).with_limits(Limits {
        workers: 1,
        queue_wait: Duration::ZERO,
        ..Limits::default()
    });
    let id = tables
        .create(Table::create("DiceBot", "卓", "gm", [1; 32]).expect("table"))
        .await
        .expect("create");
    let held = tables.reserve(&id, "gm").await.expect("a reservation");
    let Err(StoreError::Busy { reason, .. }) = tables.reserve(&id, "gm").await else {
        panic!("one reservation at a time per member");
    };
    assert!(reason.en().contains("still running"), "{}", reason.en());
    let Err(StoreError::Busy { reason, .. }) = tables.reserve(&id, "alice").await else {
        panic!("the only worker is reserved");
    };
    assert!(reason.ja().contains("混み合っています"), "{}", reason.ja());
    drop(held);
    // Given back unused: the member and the worker are free again.
    let again = tables.reserve(&id, "gm").await.expect("free again");
    assert_eq!(again.run(|| 6 * 7).await, 42);
    assert_eq!(
        tables.compute(&id, "alice", || "done").await.expect("free"),
        "done"
    );
}

/// Attack pass 2, A2-5: heavy work (exports) by members with full budgets — members a
/// GM minted afresh — takes one of all workers but one, so with two workers a second
/// member's export waits (here: refused at once) while a line at another table is still
/// decided.
#[tokio::test]
async fn fresh_members_heavy_work_leaves_a_worker_for_lines() {
    let store = Store::open(&temp_db("fresh-heavy")).await.expect("store");
    let tables = Tables::new(store).with_limits(Limits {
        workers: 2,
        queue_wait: Duration::ZERO,
        ..Limits::default()
    });
    let big = tables
        .create(Table::create("DiceBot", "卓", "gm", [1; 32]).expect("table"))
        .await
        .expect("create");
    let other = tables
        .create(Table::create("DiceBot", "別卓", "gm", [2; 32]).expect("table"))
        .await
        .expect("create");
    let first = tables
        .reserve(&big, "spy1")
        .await
        .expect("a fresh member's export");
    let Err(StoreError::Busy { .. }) = tables.reserve(&big, "spy2").await else {
        panic!("a second fresh member took the last worker");
    };
    tables
        .exec(&other, "gm", "2D6", None)
        .await
        .expect("store")
        .expect("a line at another table is decided");
    drop(first);
}

/// The bytes `events` take as the store counts them (each body's JSON and its actor),
/// of one member's lines when `who` names one.
fn stored(events: &[taku_table::Event], who: Option<&str>) -> u64 {
    events
        .iter()
        .filter(|e| who.is_none_or(|w| e.actor == w))
        .map(|e| (serde_json::to_string(&e.body).expect("json").len() + e.actor.len()) as u64)
        .sum()
}

/// A DiceBot table of `seed` (GM `gm`) whose log may hold `max` bytes, in a fresh store
/// named `db`.
async fn byte_limited(db: &str, max: u64, seed: [u8; 32]) -> (Tables<Store>, String) {
    let store = Store::open(&temp_db(db)).await.expect("store");
    let tables = Tables::new(store).with_limits(Limits {
        max_bytes: max,
        ..Limits::default()
    });
    let id = tables
        .create(Table::create("DiceBot", "卓", "gm", seed).expect("table"))
        .await
        .expect("create");
    (tables, id)
}

/// A3-2's last bit: where a log counts as full is drawn per table from its secret seed,
/// within the last two headrooms below the limit, so a member filling it cannot tell
/// from the first refused line how large the entries hidden from them are. The mark is
/// the same after a reload; lines are taken while the stored log is below it.
#[tokio::test]
async fn a_logs_fill_mark_is_secret_per_table_and_holds_after_a_reload() {
    use taku_table::store::{byte_headroom, fill_mark};
    let max = 40_000u64;
    let h = byte_headroom(max);
    let marks: Vec<u64> = (0u8..16).map(|i| fill_mark(max, &[i; 32])).collect();
    for &m in &marks {
        assert!((max - 2 * h..=max - h).contains(&m), "{m}");
    }
    let distinct: std::collections::BTreeSet<_> = marks.iter().collect();
    assert!(distinct.len() > 8, "{marks:?}");
    for seed in [[2u8; 32], [9u8; 32]] {
        let (tables, id) = byte_limited(&format!("mark-{}", seed[0]), max, seed).await;
        // Eight players take turns, so that none reaches their own share of the log
        // (`member_share_mark`, A6-5) before the table is full.
        let players: Vec<String> = (0..8).map(|i| format!("p{i}")).collect();
        for p in &players {
            tables
                .exec(&id, "gm", &format!("/join {p}"), None)
                .await
                .expect("store")
                .expect("joined");
        }
        let mark = fill_mark(max, &seed);
        let line = "x".repeat(100);
        let mut before = 0;
        for turn in 0.. {
            let now = stored(
                &tables.store().load_after(&id, 0).await.expect("load"),
                None,
            );
            let player = &players[turn % players.len()];
            match tables.exec(&id, player, &line, None).await.expect("store") {
                Ok(_) => assert!(now < mark, "taken at {now} past the mark {mark}"),
                Err(_) => {
                    assert!(now >= mark, "refused at {now} below the mark {mark}");
                    assert!(before < mark);
                    break;
                }
            }
            before = now;
        }
        // Reloaded from the store, the table is as full as before for its players.
        tables.evict_idle(|_| false);
        tables.evict_idle(|_| false);
        assert!(
            tables
                .exec(&id, "p0", "a", None)
                .await
                .expect("store")
                .is_err()
        );
        // Its GM, who sees every entry and so learns nothing from where it fills, keeps
        // the room up to the limit itself (A4-4: a table its players filled can still
        // be run and closed).
        let mut gm_lines = 0;
        while tables
            .exec(&id, "gm", &line, None)
            .await
            .expect("store")
            .is_ok()
        {
            gm_lines += 1;
            assert!(gm_lines < 1000, "the limit holds for the GM too");
        }
        assert!(gm_lines > 0);
        let now = stored(
            &tables.store().load_after(&id, 0).await.expect("load"),
            None,
        );
        assert!((max..max + 300).contains(&now), "{now}");
    }
}

/// Attack pass 6, A6-5: one player with an invite filled the whole log (slowly, but for
/// good) and the table ended for everyone. A member's own lines may take a third of the
/// log's limit, less a secret part drawn from the table's seed; past it their lines are
/// refused, saying why in both languages and changing nothing, while the other players
/// and the GM go on — after a reload too.
#[tokio::test]
async fn one_member_may_fill_only_their_share_of_the_log() {
    use taku_table::store::member_share_mark;
    let max = 60_000u64;
    let seed = [5u8; 32];
    let (tables, id) = byte_limited("member-share", max, seed).await;
    for line in ["/join mallory", "/join alice"] {
        tables
            .exec(&id, "gm", line, None)
            .await
            .expect("store")
            .expect("joined");
    }
    let share = member_share_mark(max, &seed);
    assert!(share <= max / 3 && share > max / 3 - max / 8, "{share}");
    let line = format!("/w gm {}", "あ".repeat(300));
    let refusal = loop {
        let now = stored(
            &tables.store().load_after(&id, 0).await.expect("load"),
            Some("mallory"),
        );
        match tables
            .exec(&id, "mallory", &line, None)
            .await
            .expect("store")
        {
            Ok(_) => assert!(now < share, "taken at {now}, past the share {share}"),
            Err(refusal) => {
                assert!(now >= share, "refused at {now}, below the share {share}");
                break refusal;
            }
        }
    };
    assert!(
        refusal.render(taku_dice::Lang::Ja).contains("3 分の 1"),
        "{}",
        refusal.render(taku_dice::Lang::Ja)
    );
    assert!(
        refusal
            .render(taku_dice::Lang::En)
            .contains("a third of its log's limit")
    );
    let count = tables.store().load_after(&id, 0).await.expect("load").len();
    // A short line is refused as well: whether it fits never depends on its size.
    assert!(
        tables
            .exec(&id, "mallory", "a", None)
            .await
            .expect("store")
            .is_err()
    );
    assert_eq!(
        tables.store().load_after(&id, 0).await.expect("load").len(),
        count
    );
    // The others go on; the share holds after a reload.
    for who in ["alice", "gm"] {
        tables
            .exec(&id, who, "まだ遊べる", None)
            .await
            .expect("store")
            .expect("another member still writes");
    }
    tables.evict_idle(|_| false);
    tables.evict_idle(|_| false);
    assert!(
        tables
            .exec(&id, "mallory", "a", None)
            .await
            .expect("store")
            .is_err()
    );
    tables
        .exec(&id, "alice", "再読み込み後も", None)
        .await
        .expect("store")
        .expect("alice after a reload");
}

/// Attack pass 4, A4-5: one player took all 100 character slots and the GM could make
/// no NPC. A player owns at most `PLAYER_CHARACTERS`, players together leave the last
/// `GM_CHARACTERS` to the GMs, and the GM's own fill the table to `MAX_CHARACTERS`;
/// each refusal says the limit and changes nothing.
#[test]
fn players_have_a_share_of_the_characters_and_the_gm_keeps_room() {
    use taku_table::{GM_CHARACTERS, MAX_CHARACTERS, PLAYER_CHARACTERS};
    let mut t = Table::create("DiceBot", "卓", "gm", [4; 32])
        .expect("table")
        .with_entropy(Entropy::seeded([4; 32]));
    let players: Vec<String> = (0..12).map(|i| format!("p{i}")).collect();
    for p in &players {
        t.exec("gm", &format!("/join {p}")).expect("join");
    }
    for n in 0..PLAYER_CHARACTERS {
        t.exec("p0", &format!("/char new a{n}"))
            .expect("within the share");
    }
    let before = t.events().len();
    let refusal = t
        .exec("p0", "/char new 多すぎ")
        .expect_err("past the share");
    assert!(
        refusal.render(Lang::Ja).contains("1 人 10 人まで")
            && refusal.render(Lang::En).contains("at most 10 characters"),
        "{}",
        refusal.render(Lang::En)
    );
    assert_eq!(t.events().len(), before);
    // Other players fill the table up to the GM's reserve.
    'fill: for p in &players[1..] {
        for n in 0..PLAYER_CHARACTERS {
            if t.characters().len() == MAX_CHARACTERS - GM_CHARACTERS {
                break 'fill;
            }
            t.exec(p, &format!("/char new {p}c{n}")).expect("room");
        }
    }
    assert_eq!(t.characters().len(), MAX_CHARACTERS - GM_CHARACTERS);
    let refusal = t
        .exec("p11", "/char new 最後")
        .expect_err("the GM's reserve");
    assert!(
        refusal.render(Lang::En).contains("kept for the GM"),
        "{}",
        refusal.render(Lang::En)
    );
    for n in 0..GM_CHARACTERS {
        t.exec("gm", &format!("/char new npc{n}"))
            .expect("the GM's room");
    }
    assert_eq!(t.characters().len(), MAX_CHARACTERS);
    assert!(t.exec("gm", "/char new もう一人").is_err());
}
