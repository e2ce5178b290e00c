//! Issue 18, attack pass 4 (A4-8): a secret reference roll is appended at a pace, not
//! when its evaluation ends, so the time between it and the roller's next line tells
//! other members nothing of how long it took (how many dice it drew). Clocks are tokio's
//! paused time (it does not move while the engine evaluates on a blocking thread), over
//! a store in memory (SQLite's pool has timeouts of its own); nothing sleeps.
//!
//! Needs Node.js and npm `bcdice` 4.9.0 under `tools/bcdice-oracle` (or the directory named
//! by TAKU_TEST_BCDICE_JS); `tools/bcdice-js.sh` installs them. Fails, never skips, without.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Once};
use std::time::Duration;

use taku_systems::reference::{self, Config};
use taku_table::store::{
    Credential, EventStore, Limits, SECRET_LONG, SECRET_PACE, StoreError, TableSummary, Tables,
    secret_pace,
};
use taku_table::{Entropy, Event, EventBody, Table};
use tokio::time::Instant;

/// Logs in memory: what these tests need of a store, and no clock of its own.
#[derive(Default)]
struct Memory(Mutex<HashMap<String, Vec<Event>>>);

impl EventStore for Memory {
    async fn create(&self, table: &Table) -> Result<String, StoreError> {
        let mut logs = self.0.lock().expect("logs");
        let id = format!("t{}", logs.len());
        logs.insert(id.clone(), table.events().to_vec());
        Ok(id)
    }
    async fn append(&self, id: &str, events: &[Event]) -> Result<(), StoreError> {
        let mut logs = self.0.lock().expect("logs");
        let log = logs
            .get_mut(id)
            .ok_or_else(|| StoreError::NoSuchTable(id.to_string()))?;
        for e in events {
            assert_eq!(e.seq, log.len() as u64 + 1, "appended in order");
            log.push(e.clone());
        }
        Ok(())
    }
    async fn load_after(&self, id: &str, after: u64) -> Result<Vec<Event>, StoreError> {
        let logs = self.0.lock().expect("logs");
        let log = logs
            .get(id)
            .ok_or_else(|| StoreError::NoSuchTable(id.to_string()))?;
        Ok(log.iter().filter(|e| e.seq > after).cloned().collect())
    }
    async fn list(&self) -> Result<Vec<TableSummary>, StoreError> {
        Ok(Vec::new())
    }
    async fn put_credential(&self, _: &Credential) -> Result<(), StoreError> {
        Ok(())
    }
    async fn credential(&self, _: &str) -> Result<Option<Credential>, StoreError> {
        Ok(None)
    }
    async fn take_invite(&self, _: &str) -> Result<bool, StoreError> {
        Ok(false)
    }
    async fn revoke(&self, _: &str, _: Option<&str>) -> Result<u64, StoreError> {
        Ok(0)
    }
    async fn unused_invites(&self, _: &str) -> Result<u64, StoreError> {
        Ok(0)
    }
}

fn setup() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let dir = match std::env::var_os("TAKU_TEST_BCDICE_JS") {
            Some(d) if !d.is_empty() => PathBuf::from(d),
            _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/bcdice-oracle"),
        };
        assert!(
            dir.join("node_modules/bcdice/package.json").is_file(),
            "npm bcdice is not installed in {}: run tools/bcdice-js.sh",
            dir.display()
        );
        let mut config = Config::new(dir);
        config.time_limit = Duration::from_secs(20);
        assert!(reference::configure(Some(config)).expect("engine opens"));
    });
}

/// The pace has two steps (A4-8 and its remainder): every evaluation up to
/// [`SECRET_PACE`] is appended at it, every longer one at [`SECRET_LONG`], whatever it
/// took up to there (the worker's wait and the engine's time limit): a secret roll's
/// time in the log tells at most one bit, whether its evaluation took longer than the
/// pace. Only past [`SECRET_LONG`] (no evaluation of a default server gets there) does
/// it double.
#[test]
fn the_pace_has_two_steps() {
    assert_eq!(secret_pace(Duration::ZERO), SECRET_PACE);
    assert_eq!(secret_pace(Duration::from_millis(3)), SECRET_PACE);
    assert_eq!(secret_pace(SECRET_PACE), SECRET_PACE);
    // Every evaluation between the pace and the longest one ends at the same moment.
    let mut took = SECRET_PACE + Duration::from_nanos(1);
    while took <= SECRET_LONG {
        assert_eq!(secret_pace(took), SECRET_LONG, "{took:?}");
        took += Duration::from_millis(7);
    }
    assert_eq!(secret_pace(SECRET_LONG), SECRET_LONG);
    // The engine's time limit and the worker's wait fit under it.
    assert!(
        Duration::from_secs(2) + Limits::default().queue_wait <= SECRET_LONG,
        "the longest evaluation of a default server is within SECRET_LONG"
    );
    assert_eq!(
        secret_pace(SECRET_LONG + Duration::from_nanos(1)),
        SECRET_LONG * 2
    );
    // Bounded, whatever it is given.
    assert!(secret_pace(Duration::MAX) <= Duration::from_secs(1 << 13));
}

/// A secret roll of few draws and one of hundreds (`S1U100[2]` rerolls each die showing
/// 2 or less) both take exactly the pace from their start; a public roll does not wait.
/// alice's chat line, sent while her secret roll waits, is appended before it, whatever
/// the roll drew; the roll keeps its own dice and `verify` replays the log.
#[tokio::test(start_paused = true)]
async fn a_secret_reference_roll_is_appended_at_its_pace_and_the_rollers_next_line_goes_first() {
    setup();
    let tables = Arc::new(
        Tables::new(Memory::default())
            .with_limits(Limits {
                workers: 2,
                ..Limits::default()
            })
            .with_entropy(Entropy::seeded([3; 32])),
    );
    let mut table = Table::create("Cthulhu7th", "卓", "gm", [5; 32]).expect("table");
    table.exec("gm", "/join alice").expect("join");
    table.exec("gm", "/join bob").expect("join");
    let id = tables.create(table).await.expect("create");

    for line in ["SCC<=50 心理学", "S1U100[2]", "S1U100[100]"] {
        let start = Instant::now();
        tables
            .exec(&id, "alice", line, None)
            .await
            .expect("store")
            .unwrap_or_else(|e| panic!("{line}: {}", e.render(taku_dice::Lang::En)));
        assert_eq!(start.elapsed(), SECRET_PACE, "{line}");
    }
    let start = Instant::now();
    tables
        .exec(&id, "alice", "CC1<=50 目星", None)
        .await
        .expect("store")
        .expect("a public roll");
    assert_eq!(
        start.elapsed(),
        Duration::ZERO,
        "a public roll is not paced"
    );

    // alice's secret roll, then her chat line half a pace later.
    let secret = tokio::spawn({
        let (tables, id) = (tables.clone(), id.clone());
        async move {
            tables
                .exec(&id, "alice", "S1U100[2]", None)
                .await
                .expect("store")
                .expect("a secret roll")
        }
    });
    tokio::time::sleep(SECRET_PACE / 2).await;
    tables
        .exec(&id, "alice", "続けて", None)
        .await
        .expect("store")
        .expect("chat");
    secret.await.expect("the secret roll's task");
    let (tail, problems) = tables
        .read(&id, |t| {
            let n = t.events().len();
            let tail: Vec<&'static str> = t.events()[n - 2..]
                .iter()
                .map(|e| match &e.body {
                    EventBody::Roll { .. } => "roll",
                    EventBody::Chat { .. } => "chat",
                    _ => "other",
                })
                .collect();
            (tail, t.verify())
        })
        .await
        .expect("read");
    assert_eq!(tail, ["chat", "roll"]);
    assert!(problems.is_empty(), "{problems:?}");
}
