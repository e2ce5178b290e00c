//! The web table's HTML, parsed (issue 17): every entry kind renders, each roll says its
//! outcome in words, and a secret or hidden fact never reaches a page, a fragment or a
//! live message for a member who may not see it. Real-browser tests are in `browser.rs`.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use futures_util::StreamExt;
use http_body_util::BodyExt;
use scraper::{Html, Selector};
use serde_json::{Value, json};
use std::sync::Arc;
use taku_dice::Lang;
use taku_server::web::page;
use taku_server::{Config, Server};
use taku_table::store::Store;
use taku_table::{Entropy, Table};
use tower::ServiceExt;

fn sel(s: &str) -> Selector {
    Selector::parse(s).expect("selector")
}

/// An Another World table with every kind of entry, as the table tests build them.
fn played() -> Table {
    let mut t = Table::create("AnotherWorld", "卓", "gm", [5; 32])
        .expect("table")
        .with_entropy(Entropy::seeded([5; 32]));
    let lines = [
        ("gm", "/join alice"),
        ("gm", "/join bob"),
        ("gm", "/join sam as spectator"),
        ("alice", "/char new ミナ"),
        ("alice", "/char set ミナ HP 20 HP.max 20"),
        ("bob", "/char new ロイ"),
        ("alice", "こんにちは <b>太字</b>"),
        ("alice", "/w bob 内緒の話"),
        ("alice", "2D6>=2 命中"),
        ("alice", "2D6>=13"),
        ("gm", "S2D6"),
        ("alice", "S2D6 こっそり"),
        ("gm", "/key give ミナ 秘密の鍵"),
        ("alice", "/char set ミナ HP 10"),
        ("alice", "/undo"),
        ("bob", "1D6"),
        ("gm", "/scene next"),
        ("gm", "/session end"),
    ];
    for (who, line) in lines {
        t.exec(who, line)
            .unwrap_or_else(|r| panic!("{line}: {}", r.render(Lang::En)));
    }
    let bob_roll = t.events().len() as u64 - 2;
    t.exec("gm", &format!("/void {bob_roll}")).expect("void");
    t
}

fn seq_of(t: &Table, actor: &str, typed: &str) -> u64 {
    t.events()
        .iter()
        .find(|e| {
            e.actor == actor
                && matches!(&e.body, taku_table::EventBody::Roll(r)
                    if r.typed.as_deref().unwrap_or(&r.input).starts_with(typed))
        })
        .map(|e| e.seq)
        .unwrap_or_else(|| panic!("no roll {typed} by {actor}"))
}

fn page_of(t: &Table, viewer: &str) -> Html {
    Html::parse_fragment(&page::entries(t, t.events().iter(), viewer).into_string())
}

fn entry_html(doc: &Html, seq: u64) -> String {
    doc.select(&sel(&format!("li[data-seq=\"{seq}\"]")))
        .next()
        .unwrap_or_else(|| panic!("no entry #{seq}"))
        .html()
}

/// The text a member would read in `seq`'s entry.
fn entry_text(doc: &Html, seq: u64) -> String {
    doc.select(&sel(&format!("li[data-seq=\"{seq}\"]")))
        .next()
        .unwrap_or_else(|| panic!("no entry #{seq}"))
        .text()
        .collect()
}

#[test]
fn every_entry_kind_renders_as_one_list_item_with_its_kind() {
    let mut t = played();
    let secret = seq_of(&t, "gm", "S2D6");
    t.exec("gm", &format!("/reveal {secret}")).expect("reveal");
    t.exec("gm", "/lang ja").expect("lang");
    let doc = page_of(&t, "gm");
    let items: Vec<_> = doc.select(&sel("li.entry")).collect();
    assert_eq!(items.len(), t.events().len());
    let kinds: std::collections::BTreeSet<&str> = items
        .iter()
        .filter_map(|li| li.value().attr("data-kind"))
        .collect();
    for kind in [
        "created",
        "joined",
        "chat",
        "roll",
        "revealed",
        "character",
        "scene",
        "session",
        "undone",
        "voided",
        "language",
        "system",
        "whisper",
    ] {
        assert!(kinds.contains(kind), "no {kind} entry in {kinds:?}");
    }
    // The hidden kind: bob may not see alice's key.
    let bob = page_of(&t, "bob");
    assert!(
        bob.select(&sel("li.kind-hidden")).next().is_some(),
        "bob sees a placeholder"
    );
    // Chat is text, never markup.
    assert!(doc.select(&sel("li.kind-chat b")).next().is_none());
    assert!(doc.html().contains("&lt;b&gt;太字&lt;/b&gt;"));
    // Every item names its seq.
    for li in &items {
        let seq = li.value().attr("data-seq").expect("seq");
        let shown: String = li.select(&sel(".seq")).flat_map(|s| s.text()).collect();
        assert_eq!(shown, format!("#{seq}"));
    }
}

#[test]
fn rolls_say_their_outcome_in_words_and_class_and_keep_their_draws() {
    let t = played();
    let doc = page_of(&t, "alice");
    let hit = entry_html(&doc, seq_of(&t, "alice", "2D6>=2"));
    assert!(hit.contains("outcome-success"), "{hit}");
    assert!(entry_text(&doc, seq_of(&t, "alice", "2D6>=2")).contains("成功"));
    assert!(entry_text(&doc, seq_of(&t, "alice", "2D6>=2")).contains("命中"));
    let miss = seq_of(&t, "alice", "2D6>=13");
    assert!(entry_html(&doc, miss).contains("outcome-failure"));
    assert!(entry_text(&doc, miss).contains("失敗"));
    // Draws are in the entry (shown on hover and focus), and the result is focusable.
    let li = doc
        .select(&sel(&format!(
            "li[data-seq=\"{miss}\"] .result[tabindex=\"0\"] .draws"
        )))
        .next()
        .expect("draws");
    assert!(li.text().collect::<String>().contains("/D6"));
    // The voided roll is marked for everyone.
    let voided = seq_of(&t, "bob", "1D6");
    assert!(entry_html(&doc, voided).contains("voided"));
}

#[test]
fn a_secret_roll_is_a_placeholder_for_others_with_a_reveal_button_for_roller_and_gm() {
    let mut t = played();
    let gm_secret = seq_of(&t, "gm", "S2D6");
    let alice_secret = seq_of(&t, "alice", "S2D6");
    let result = |seq: u64| {
        let e = t.entry(&t.events()[seq as usize - 1], "gm", Lang::Ja);
        e.roll.and_then(|r| r.result).expect("the GM reads it")
    };
    let (gm_result, alice_result) = (result(gm_secret), result(alice_secret));
    // Bob and the spectator see neither result nor draws nor a button.
    for viewer in ["bob", "sam"] {
        let doc = page_of(&t, viewer);
        for (seq, text) in [(gm_secret, &gm_result), (alice_secret, &alice_result)] {
            let html = entry_html(&doc, seq);
            assert!(
                !html.contains(text.as_str()),
                "{viewer} reads #{seq}: {html}"
            );
            assert!(!html.contains("draws"), "{viewer} sees draws of #{seq}");
            assert!(!html.contains("data-reveal"), "{html}");
            assert!(
                !html.contains("こっそり"),
                "{viewer} reads the comment: {html}"
            );
            assert!(html.contains("シークレットダイス"), "{html}");
        }
        assert!(
            !doc.html().contains("秘密の鍵"),
            "{viewer} reads alice's key"
        );
        assert_eq!(
            doc.html().contains("内緒の話"),
            viewer == "bob",
            "{viewer} and alice's whisper to bob"
        );
    }
    // Alice reads her own and may reveal it; the GM's stays sealed to her.
    let doc = page_of(&t, "alice");
    assert!(entry_text(&doc, alice_secret).contains(alice_result.as_str()));
    assert!(entry_html(&doc, alice_secret).contains("結果を公開"));
    assert!(!entry_html(&doc, gm_secret).contains(gm_result.as_str()));
    assert!(!entry_html(&doc, gm_secret).contains("data-reveal"));
    // The GM reads both, may reveal both, and has void and undo buttons.
    let doc = page_of(&t, "gm");
    for seq in [gm_secret, alice_secret] {
        assert!(entry_html(&doc, seq).contains("data-reveal"));
        assert!(entry_html(&doc, seq).contains("/void"));
    }
    assert!(
        doc.select(&sel("button[data-line^=\"/undo #\"]"))
            .next()
            .is_some()
    );
    // No player gets the GM's buttons.
    assert!(!page_of(&t, "alice").html().contains("data-line"));
    // Revealed: everyone reads it, and nobody is offered to reveal it again.
    t.exec("alice", &format!("/reveal {alice_secret}"))
        .expect("reveal");
    for viewer in ["bob", "sam", "alice", "gm"] {
        let doc = page_of(&t, viewer);
        assert!(entry_text(&doc, alice_secret).contains(alice_result.as_str()));
        assert!(!entry_html(&doc, alice_secret).contains("data-reveal"));
    }
}

#[test]
fn character_cards_show_resources_as_meters_and_hide_holder_only_keys() {
    let mut t = played();
    t.exec("alice", "/char set ミナ HP 12").expect("hp");
    let alice = Html::parse_fragment(&page::side(&t, "alice").into_string());
    let meter = alice
        .select(&sel("article[data-character=\"ミナ\"] meter"))
        .next()
        .expect("HP meter");
    assert_eq!(meter.value().attr("value"), Some("12"));
    assert_eq!(meter.value().attr("max"), Some("20"));
    assert!(alice.html().contains("12/20"));
    assert!(alice.html().contains("秘密の鍵"), "alice holds the key");
    let bob = Html::parse_fragment(&page::side(&t, "bob").into_string());
    assert!(!bob.html().contains("秘密の鍵"), "{}", bob.html());
    // GM tools for the GM only.
    assert!(!bob.html().contains("data-invite"));
    let gm = Html::parse_fragment(&page::side(&t, "gm").into_string());
    let invites: Vec<_> = gm
        .select(&sel("details.gm-tools [data-invite]"))
        .filter_map(|b| b.value().attr("data-invite"))
        .collect();
    assert_eq!(invites, ["player", "spectator"]);
    assert!(gm.select(&sel("[data-line=\"/lang en\"]")).next().is_some());
}

#[test]
fn the_html_export_has_ccfolias_shape_and_only_what_the_member_may_see() {
    let t = played();
    let alice_secret = seq_of(&t, "alice", "S2D6");
    let secret_result = t
        .entry(&t.events()[alice_secret as usize - 1], "gm", Lang::Ja)
        .roll
        .and_then(|r| r.result)
        .expect("result");
    let gm = Html::parse_document(&page::export(&t, "gm").into_string());
    let ps: Vec<_> = gm.select(&sel("body > p")).collect();
    assert_eq!(ps.len(), t.events().len());
    for p in &ps {
        assert!(
            p.value()
                .attr("style")
                .is_some_and(|s| s.starts_with("color:#"))
        );
        let spans: Vec<String> = p
            .select(&sel("span"))
            .map(|s| s.text().collect::<String>().trim().to_string())
            .collect();
        assert_eq!(spans.len(), 3, "tab, name, text: {spans:?}");
        assert!(spans[0] == "[main]" || spans[0] == "[info]", "{spans:?}");
    }
    let chat: Vec<String> = ps
        .iter()
        .map(|p| p.text().collect::<String>())
        .filter(|t| t.contains("こんにちは"))
        .collect();
    assert_eq!(chat.len(), 1);
    assert!(chat[0].contains("alice"), "{chat:?}");
    assert!(gm.html().contains(&secret_result) && gm.html().contains("秘密の鍵"));
    for viewer in ["bob", "sam"] {
        let html = page::export(&t, viewer).into_string();
        assert!(!html.contains("こっそり"), "{viewer}");
        assert!(!html.contains("秘密の鍵"), "{viewer}");
        assert_eq!(html.contains("内緒の話"), viewer == "bob", "{viewer}");
        assert!(!html.contains(&secret_result), "{viewer}");
    }
}

// ---- Through the server: pages, fragments, the socket ---------------------------------

async fn app(name: &str) -> Router {
    app_and_server(name).await.0
}

/// A server on a fresh SQLite file with no rate limit and no write quota (the tests
/// here post many lines; tests/bounds.rs tests the quota), and its routes.
async fn app_and_server(name: &str) -> (Router, std::sync::Arc<Server>) {
    let dir = std::env::temp_dir().join(format!("taku-web-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = Store::open(&dir.join("taku.db").display().to_string())
        .await
        .expect("store");
    let server = Server::new(
        store,
        &Config {
            rate_limit: 0,
            lines_per_minute: 0,
            line_bytes_per_minute: 0,
            ..Config::default()
        },
    );
    (taku_server::app(server.clone()), server)
}

async fn call(
    app: &Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: (&str, String),
) -> (StatusCode, String) {
    let mut request = Request::builder().method(method).uri(path);
    if let Some(t) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    if !body.0.is_empty() {
        request = request.header(header::CONTENT_TYPE, body.0);
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::from(body.1)).expect("request"))
        .await
        .expect("response");
    let status = response.status();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (status, String::from_utf8(bytes.to_vec()).expect("utf-8"))
}

fn no_body() -> (&'static str, String) {
    ("", String::new())
}

fn json_body(v: Value) -> (&'static str, String) {
    ("application/json", v.to_string())
}

/// Creates a table through the front page's form; gives its id, the GM's token and the
/// player invites.
async fn create(app: &Router) -> (String, String, Vec<String>, Vec<String>) {
    create_in(app, "DiceBot").await
}

/// [`create`] for a table of `system`.
async fn create_in(app: &Router, system: &str) -> (String, String, Vec<String>, Vec<String>) {
    create_with(
        app,
        &[("system", system), ("name", "テスト卓"), ("gm", "gm")],
    )
    .await
}

/// [`create`] with the front page's form filled in with `fields`.
async fn create_with(
    app: &Router,
    fields: &[(&str, &str)],
) -> (String, String, Vec<String>, Vec<String>) {
    let form = serde_urlencoded::to_string(fields).expect("form");
    let (status, html) = call(
        app,
        "POST",
        "/new",
        None,
        ("application/x-www-form-urlencoded", form),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{html}");
    let doc = Html::parse_document(&html);
    let own = doc
        .select(&sel("#own a"))
        .next()
        .and_then(|a| a.value().attr("href"))
        .expect("own link")
        .to_string();
    let (path, token) = own.split_once("#token=").expect("token in the fragment");
    let id = path.strip_prefix("/t/").expect("table path").to_string();
    let invites = |list: &str| -> Vec<String> {
        doc.select(&sel(&format!("#invites-{list} a")))
            .filter_map(|a| a.value().attr("href"))
            .map(|h| h.split_once("#invite=").expect("invite").1.to_string())
            .collect()
    };
    (
        id,
        token.to_string(),
        invites("player"),
        invites("spectator"),
    )
}

async fn join(app: &Router, id: &str, invite: &str, name: &str) -> String {
    let (status, body) = call(
        app,
        "POST",
        &format!("/api/v1/tables/{id}/join"),
        None,
        json_body(json!({"invite": invite, "name": name})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    serde_json::from_str::<Value>(&body).expect("json")["token"]
        .as_str()
        .expect("token")
        .to_string()
}

#[tokio::test]
async fn the_front_page_creates_a_table_and_the_gm_page_gives_invites_per_role() {
    let app = app("front").await;
    let (status, html) = call(&app, "GET", "/", None, no_body()).await;
    assert_eq!(status, StatusCode::OK);
    let doc = Html::parse_document(&html);
    let root = doc.select(&sel("html")).next().expect("html");
    assert_eq!(root.value().attr("lang"), Some("ja"));
    let systems: Vec<_> = doc
        .select(&sel("select[name=system] option"))
        .filter_map(|o| o.value().attr("value"))
        .collect();
    assert_eq!(systems.len(), taku_systems::systems().len());
    assert!(systems.contains(&"AnotherWorld"));
    assert!(html.contains("卓を作る"));
    let (status, english) = call(&app, "GET", "/?lang=en", None, no_body()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(english.contains("<html lang=\"en\">") && english.contains("Create a table"));
    // The API's description moved to /about.
    let (status, about) = call(&app, "GET", "/about", None, no_body()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(about.contains("/v2/game_system"));

    let (id, _gm, players, spectators) = create(&app).await;
    assert_eq!(players.len(), 4);
    assert_eq!(spectators.len(), 2);
    let sam = join(&app, &id, &spectators[0], "sam").await;
    let (status, body) = call(
        &app,
        "GET",
        &format!("/api/v1/tables/{id}"),
        Some(&sam),
        no_body(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        serde_json::from_str::<Value>(&body).expect("json")["you"]["role"],
        "spectator"
    );
    // A refused form says why, on the form again.
    let bad = serde_urlencoded::to_string([("system", "Nope"), ("name", "卓"), ("gm", "gm")])
        .expect("form");
    let (status, html) = call(
        &app,
        "POST",
        "/new",
        None,
        ("application/x-www-form-urlencoded", bad),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(html.contains("卓を作成できませんでした") && html.contains("Nope"));
}

/// The front page's form chooses the table's language, preselecting the page's: a table
/// made with English chosen speaks English to its members from its first line.
#[tokio::test]
async fn the_front_pages_form_chooses_the_tables_language() {
    let app = app("front-lang").await;
    let selected = |html: &str| {
        Html::parse_document(html)
            .select(&sel("select[name=lang] option[selected]"))
            .filter_map(|o| o.value().attr("value").map(str::to_string))
            .collect::<Vec<_>>()
    };
    let (_, japanese) = call(&app, "GET", "/", None, no_body()).await;
    assert_eq!(selected(&japanese), ["ja"]);
    let (_, english) = call(&app, "GET", "/?lang=en", None, no_body()).await;
    assert_eq!(selected(&english), ["en"]);

    let (id, token, ..) = create_with(
        &app,
        &[
            ("system", "DiceBot"),
            ("name", "table"),
            ("gm", "gm"),
            ("lang", "en"),
        ],
    )
    .await;
    let (_, log) = call(
        &app,
        "GET",
        &format!("/api/v1/tables/{id}/log"),
        Some(&token),
        no_body(),
    )
    .await;
    assert!(log.contains("table language set to en"), "{log}");
}

#[tokio::test]
async fn pages_carry_no_table_data_and_fragments_need_a_member_token() {
    let app = app("tokens").await;
    let (id, gm, players, _) = create(&app).await;
    let alice = join(&app, &id, &players[0], "alice").await;
    let (status, table) = call(&app, "GET", &format!("/t/{id}"), None, no_body()).await;
    assert_eq!(status, StatusCode::OK);
    let doc = Html::parse_document(&table);
    assert!(doc.select(&sel("[role=log]")).next().is_some());
    assert!(
        !table.contains("テスト卓"),
        "the shell reads nothing of the table"
    );
    let (status, join_page) = call(&app, "GET", &format!("/t/{id}/join"), None, no_body()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(join_page.contains("form id=\"join\""));
    for path in ["entries", "side"] {
        let (status, _) = call(&app, "GET", &format!("/t/{id}/{path}"), None, no_body()).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
        let (status, _) = call(
            &app,
            "GET",
            &format!("/t/{id}/{path}"),
            Some(&players[1]),
            no_body(),
        )
        .await;
        assert_eq!(
            status,
            StatusCode::UNAUTHORIZED,
            "an invite is no member token"
        );
    }
    // The GM's secret roll: sealed in alice's fragment, read in the GM's.
    let (status, body) = call(
        &app,
        "POST",
        &format!("/api/v1/tables/{id}/lines"),
        Some(&gm),
        json_body(json!({"line": "S2D6 罠の判定"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, theirs) = call(
        &app,
        "GET",
        &format!("/t/{id}/entries"),
        Some(&alice),
        no_body(),
    )
    .await;
    let (_, ours) = call(
        &app,
        "GET",
        &format!("/t/{id}/entries"),
        Some(&gm),
        no_body(),
    )
    .await;
    assert!(ours.contains("罠の判定") && ours.contains("data-reveal"));
    assert!(!theirs.contains("罠の判定") && !theirs.contains("data-reveal"));
    assert!(!theirs.contains("draws"));
    // Paging: before and after.
    let (_, first) = call(
        &app,
        "GET",
        &format!("/t/{id}/entries?before=2"),
        Some(&alice),
        no_body(),
    )
    .await;
    let doc = Html::parse_fragment(&first);
    let seqs: Vec<_> = doc
        .select(&sel("li.entry"))
        .filter_map(|li| li.value().attr("data-seq"))
        .collect();
    assert_eq!(seqs, ["1"]);
    let (_, after) = call(
        &app,
        "GET",
        &format!("/t/{id}/entries?after=1&limit=1"),
        Some(&alice),
        no_body(),
    )
    .await;
    assert!(after.contains("data-seq=\"2\"") && !after.contains("data-seq=\"3\""));
    let (status, _) = call(
        &app,
        "GET",
        &format!("/t/{id}/entries?before=x"),
        Some(&alice),
        no_body(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A7-12: each refusal says what is right; an out-of-range limit is refused, as the
    // API's log refuses it.
    for (query, reason) in [
        ("after=-1", "after は 0 以上の整数です（'-1' ではなく）"),
        ("before=-5", "before は 0 以上の整数です（'-5' ではなく）"),
        ("limit=99999999999", "limit は 1 から 1000 までです"),
        ("limit=0", "limit は 1 から 1000 までです"),
    ] {
        let (status, body) = call(
            &app,
            "GET",
            &format!("/t/{id}/entries?{query}"),
            Some(&alice),
            no_body(),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert!(body.contains(reason), "{query}: {body}");
    }
    // Exports: the member's own view, as downloads.
    for (ext, kind) in [("html", "text/html"), ("json", "application/json")] {
        let (status, _) = call(
            &app,
            "GET",
            &format!("/t/{id}/export.{ext}"),
            None,
            no_body(),
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (status, theirs) = call(
            &app,
            "GET",
            &format!("/t/{id}/export.{ext}"),
            Some(&alice),
            no_body(),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{kind}");
        assert!(!theirs.contains("罠の判定"), "{ext}: {theirs}");
        let (_, ours) = call(
            &app,
            "GET",
            &format!("/t/{id}/export.{ext}"),
            Some(&gm),
            no_body(),
        )
        .await;
        assert!(ours.contains("罠の判定"), "{ext}");
    }
    let (_, json) = call(
        &app,
        "GET",
        &format!("/t/{id}/export.json"),
        Some(&alice),
        no_body(),
    )
    .await;
    let json: Value = serde_json::from_str(&json).expect("json");
    assert_eq!(json["name"], "テスト卓");
    let entries = json["entries"].as_array().expect("entries");
    assert_eq!(entries.last().expect("entry")["roll"]["secret"], true);
    assert!(
        entries.last().expect("entry")["roll"]
            .get("result")
            .is_none()
    );
    // Assets are embedded.
    let (status, js) = call(&app, "GET", "/assets/taku.js", None, no_body()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(js.contains("compositionstart"));
    let (status, css) = call(&app, "GET", "/assets/taku.css", None, no_body()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(css.contains("prefers-reduced-motion"));
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn take(ws: &mut Socket, n: usize) -> Vec<Value> {
    let mut got = Vec::new();
    while got.len() < n {
        let m = tokio::time::timeout(std::time::Duration::from_secs(10), ws.next())
            .await
            .expect("in time")
            .expect("open")
            .expect("message");
        got.push(serde_json::from_str::<Value>(m.to_text().expect("text")).expect("json"));
    }
    got
}

#[tokio::test]
async fn a_ccfolia_character_imports_with_its_palette_expanded_and_its_odds() {
    let (app, server) = app_and_server("import").await;
    let (id, _gm, players, _) = create(&app).await;
    let alice = join(&app, &id, &players[0], "alice").await;
    let bob = join(&app, &id, &players[1], "bob").await;
    let clip = json!({"kind": "character", "data": {
        "name": "ミナ",
        "status": [{"label": "HP", "value": 12, "max": 20}],
        "params": [{"label": "知覚", "value": "3"}],
        "commands": "2D6+{知覚}>=10 知覚判定\nHPは{HP}/{HP.max}\n1D6"
    }});
    let (status, body) = call(
        &app,
        "POST",
        &format!("/t/{id}/import"),
        Some(&alice),
        ("text/plain", clip.to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // The first pane asks for the odds (A2-7: computed by the server's odds pool, off
    // the request path); once the pool has computed them, the next shows them.
    let path = format!("/t/{id}/side");
    let _ = call(&app, "GET", &path, Some(&alice), no_body()).await;
    let pool = server.clone();
    let settled = tokio::task::spawn_blocking(move || {
        pool.odds().wait_settled(std::time::Duration::from_secs(60))
    })
    .await
    .expect("wait");
    assert!(settled, "the odds pool settles");
    let (_, side) = call(&app, "GET", &path, Some(&alice), no_body()).await;
    let doc = Html::parse_fragment(&side);
    let lines: Vec<(String, String, String)> = doc
        .select(&sel("#palette-source li"))
        .map(|li| {
            let text = |s: &str| {
                li.select(&sel(s))
                    .flat_map(|e| e.text())
                    .collect::<String>()
            };
            (
                li.value().attr("data-palette").expect("line").to_string(),
                text(".palette-line"),
                text(".odds"),
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            (
                "2D6+{ミナ.知覚}>=10 知覚判定".to_string(),
                "2D6+3>=10 知覚判定".to_string(),
                // 2D6 ≥ 7: 21/36.
                "58.3%".to_string()
            ),
            (
                "HPは{ミナ.HP}/{ミナ.HP.max}".to_string(),
                "HPは12/20".to_string(),
                String::new()
            ),
            ("1D6".to_string(), "1D6".to_string(), String::new()),
        ]
    );
    // The card shows HP as a meter, not the palette's fields.
    assert!(
        doc.select(&sel("meter[value=\"12\"][max=\"20\"]"))
            .next()
            .is_some()
    );
    assert!(!doc.select(&sel("dd[data-key^=\"palette.\"]")).any(|_| true));
    // The palette is its owner's: bob's side has none.
    let (_, theirs) = call(&app, "GET", &format!("/t/{id}/side"), Some(&bob), no_body()).await;
    assert!(!theirs.contains("palette-source"), "{theirs}");
    // A palette line sent resolves the same way at the table.
    let (status, body) = call(
        &app,
        "POST",
        &format!("/api/v1/tables/{id}/lines"),
        Some(&alice),
        json_body(json!({"line": "2D6+{ミナ.知覚}>=10"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body.contains("2D6+3>=10"), "{body}");
    // A refused import says why.
    let (status, body) = call(
        &app,
        "POST",
        &format!("/t/{id}/import"),
        Some(&alice),
        (
            "text/plain",
            r#"{"kind":"item","data":{"name":"x"}}"#.to_string(),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body.contains("ココフォリアのキャラクターとして読めません"),
        "{body}"
    );
}

#[tokio::test]
async fn the_live_socket_sends_html_as_each_member_may_see_it() {
    let dir = std::env::temp_dir().join(format!("taku-web-{}-live", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = Store::open(&dir.join("taku.db").display().to_string())
        .await
        .expect("store");
    let server: Arc<Server> = Server::new(
        store,
        &Config {
            rate_limit: 0,
            ..Config::default()
        },
    );
    let app = taku_server::app(server.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(taku_server::serve(listener, server, std::future::pending()));
    let (id, gm, players, _) = create(&app).await;
    let alice = join(&app, &id, &players[0], "alice").await;
    let socket = |token: String| {
        let url = format!("ws://{addr}/api/v1/tables/{id}/live?format=html&after=0&token={token}");
        async move {
            tokio_tungstenite::connect_async(url)
                .await
                .expect("socket")
                .0
        }
    };
    let mut theirs = socket(alice.clone()).await;
    let mut ours = socket(gm.clone()).await;
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/v1/tables/{id}/lines"),
        Some(&gm),
        json_body(json!({"line": "S2D6 罠の判定"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // Created, joined, the roll: the roll is the third message.
    let theirs = take(&mut theirs, 3).await.pop().expect("a message");
    let ours = take(&mut ours, 3).await.pop().expect("a message");
    assert_eq!(theirs["seq"], 3);
    let (theirs, ours) = (
        theirs["html"].as_str().expect("html").to_string(),
        ours["html"].as_str().expect("html").to_string(),
    );
    assert!(theirs.starts_with("<li") && theirs.contains("data-kind=\"roll\""));
    assert!(!theirs.contains("罠の判定") && !theirs.contains("data-reveal"));
    assert!(ours.contains("罠の判定") && ours.contains("data-reveal"));
    let (status, _) = call(
        &app,
        "GET",
        &format!("/api/v1/tables/{id}/live?format=xml&token={alice}"),
        None,
        no_body(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

/// An Another World table with two PCs from sheets (AW-1, AW-3), alice's and bob's.
fn another_world() -> Table {
    let mut t = Table::create("AnotherWorld", "卓", "gm", [7; 32])
        .expect("table")
        .with_entropy(Entropy::seeded([7; 32]));
    for line in ["/join alice", "/join bob", "/join sam as spectator"] {
        t.exec("gm", line).expect(line);
    }
    let sheet = |name: &str, action: i64| {
        format!(
            "name = \"{name}\"\nkind = \"PC\"\n\"理知\" = 3\n\"知覚\" = 2\n\"反射\" = 4\n\"体力\" = 2\n\
             \"幸運\" = 1\n\"行動値\" = {action}\nHP = 20\nMP = 15\n"
        )
    };
    for (who, name, action) in [("alice", "ミナ", 9), ("bob", "ロイ", 7)] {
        let d = t.decide_sheet(who, &sheet(name, action)).expect("sheet");
        t.apply(who, d.events);
    }
    t
}

/// Tabs (issue 17): `/tab 雑談 …` is chat in 雑談, the GM adds tabs, everyone else may
/// not; each entry says its tab, the side pane lists the tabs, the export names the tab.
#[test]
fn tab_chat_lands_in_its_tab_and_the_gm_adds_tabs() {
    let mut t = another_world();
    t.exec("alice", "/tab 雑談 おなかすいた <i>x</i>")
        .expect("tab chat");
    let chat = t.events().len() as u64;
    t.exec("alice", "/tab メイン 本編の発言").expect("main");
    let main = t.events().len() as u64;
    let refused = t
        .exec("alice", "/tab new 情報")
        .expect_err("players add no tabs");
    assert!(
        refused.render(Lang::Ja).contains("GM"),
        "{}",
        refused.render(Lang::Ja)
    );
    let refused = t
        .exec("alice", "/tab 情報 まだない")
        .expect_err("no such tab");
    assert!(
        refused.render(Lang::Ja).contains("雑談"),
        "{}",
        refused.render(Lang::Ja)
    );
    t.exec("gm", "/tab new 情報").expect("GM adds a tab");
    t.exec("sam", "/tab 情報 観戦者も話せる")
        .expect("spectator chat");
    let info = t.events().len() as u64;
    assert!(t.exec("gm", "/tab new 情報").is_err(), "a tab twice");
    assert!(t.exec("gm", "/tab new").is_err());
    assert_eq!(t.tabs(), ["main", "雑談", "情報"]);

    let doc = page_of(&t, "bob");
    let tab_of = |seq: u64| {
        doc.select(&sel(&format!("li[data-seq=\"{seq}\"]")))
            .next()
            .and_then(|li| li.value().attr("data-tab").map(str::to_string))
            .expect("entry")
    };
    assert_eq!(tab_of(chat), "雑談");
    assert_eq!(tab_of(main), "main");
    assert_eq!(tab_of(info), "情報");
    assert_eq!(tab_of(1), "main");
    // The speaker's name and the words, escaped; no tab marker inside the text.
    let text = entry_text(&doc, chat);
    assert!(
        text.contains("alice") && text.contains("おなかすいた <i>x</i>"),
        "{text}"
    );
    assert!(!entry_html(&doc, chat).contains("<i>"));
    assert!(!text.contains("[雑談]"), "{text}");
    // The side pane lists the tabs in the table's language.
    let side = Html::parse_fragment(&page::side(&t, "bob").into_string());
    let tabs: Vec<(String, String)> = side
        .select(&sel("#tab-source li"))
        .map(|li| {
            (
                li.value().attr("data-tab").expect("id").to_string(),
                li.text().collect(),
            )
        })
        .collect();
    assert_eq!(
        tabs,
        [
            ("main".to_string(), "メイン".to_string()),
            ("雑談".to_string(), "雑談".to_string()),
            ("情報".to_string(), "情報".to_string())
        ]
    );
    // The export's tab span names the tab, as CCFOLIA's does.
    let export = page::export(&t, "bob").into_string();
    assert!(export.contains(" [雑談]"), "{export}");
    assert!(export.contains(" [情報]"));
    // The GM may undo a tab; verify accepts the log.
    assert!(t.verify().is_empty(), "{:?}", t.verify());
}

/// Another World's table panel (AW-3 combat, AW-7 AF check) comes from the system's
/// typed view, for every member alike; event keys (AW-6) stay on their holder's card.
#[test]
fn the_table_panel_shows_combat_order_and_the_af_check_with_its_odds() {
    let mut t = another_world();
    assert!(
        page::side(&t, "alice")
            .into_string()
            .find("data-card=\"panel\"")
            .is_none()
    );
    t.exec("gm", "/key give ミナ 秘密の鍵").expect("key");
    // A combat, then (AW-7: an AF check runs rounds of its own, so not during one) an AF
    // check: each shows in the same panel.
    t.exec("gm", "/combat start ミナ ロイ").expect("combat");
    let combat = ["戦闘", "ラウンド", "ミナ 9", "ロイ 7"];
    let af = ["AF判定", "扉を開ける", "成功確率", "%"];
    let panels = |t: &Table, words: &[&str]| {
        for viewer in ["gm", "alice", "bob", "sam"] {
            let side = Html::parse_fragment(&page::side(t, viewer).into_string());
            let panel: String = side
                .select(&sel("article.card[data-card=\"panel\"]"))
                .next()
                .unwrap_or_else(|| panic!("{viewer} has no panel"))
                .text()
                .collect();
            for w in words {
                assert!(panel.contains(w), "{viewer}: no {w} in {panel}");
            }
            assert!(!panel.contains("秘密の鍵"), "{viewer}: {panel}");
            let all: String = side.root_element().text().collect();
            assert_eq!(
                all.contains("秘密の鍵"),
                viewer == "gm" || viewer == "alice",
                "{viewer}: {all}"
            );
        }
    };
    panels(&t, &combat);
    t.exec("gm", "/combat end").expect("end");
    t.exec("gm", "/af start 理知 50 3 扉を開ける").expect("af");
    panels(&t, &af);
}

/// AW-7 in the panel during a round (issue 17): once the first PC has rolled, the chance
/// shown is that of the rolls actually left (the PCs yet to roll this round, then the
/// rounds after), not nothing; after the round it is the whole rounds' chance again.
#[test]
fn the_af_panel_shows_the_chance_of_the_rolls_left_mid_round() {
    use taku_systems::another_world::af_odds::{AfRoller, af_odds, af_odds_mid_round, percent};
    use taku_systems::view::Value;
    let mut t = another_world();
    t.exec("gm", "/af start 理知 50 2 扉を開ける").expect("af");
    // (running total, chance shown) from the panel's typed view.
    let panel = |t: &Table| {
        let sheet = t.table_sheet("bob").expect("a panel");
        let fields: Vec<_> = sheet.sections.iter().flat_map(|s| &s.fields).collect();
        let total = fields.iter().find_map(|f| match f.value {
            Value::Resource { current, .. } if f.label.get(Lang::Ja) == "達成値" => {
                Some(current)
            }
            _ => None,
        });
        let chance = fields.iter().find_map(|f| match &f.value {
            Value::Text(p) if f.label.get(Lang::Ja) == "成功確率" => {
                Some(p.get(Lang::Ja).to_string())
            }
            _ => None,
        });
        (total.expect("a total"), chance)
    };
    let pc = AfRoller::new(3); // both PCs' 【理知】
    let (total, chance) = panel(&t);
    assert_eq!(total, 0);
    let whole = |rounds, total| {
        Some(percent(
            &af_odds(&[pc, pc], 50, rounds, total).expect("odds").success,
        ))
    };
    assert_eq!(chance, whole(2, 0));
    // ミナ (【行動値】 9) rolls first; ロイ has yet to roll this round.
    t.exec("alice", "AW+{理知}").expect("ミナ's roll");
    let (total, chance) = panel(&t);
    let fumbled = t
        .events()
        .iter()
        .rev()
        .take(3)
        .any(|e| t.entry(e, "gm", Lang::Ja).text.contains("ファンブル"));
    // The table's seeded dice give an ordinary first roll (neither a fumble nor the goal).
    assert!(total < 50 && !fumbled, "total {total}");
    let left = af_odds_mid_round(&[pc], &[pc, pc], 50, 1, total).expect("odds");
    assert_eq!(chance, Some(percent(&left.success)), "total {total}");
    assert_ne!(
        chance,
        whole(1, total),
        "the rest of a round is not a whole round"
    );
    // ロイ rolls: round 2 starts, a whole round is left.
    t.exec("bob", "AW+{理知}").expect("ロイ's roll");
    let (total, chance) = panel(&t);
    let last = t.events().last().expect("an event");
    assert!(
        total < 50 && !t.entry(last, "gm", Lang::Ja).text.contains("ファンブル"),
        "total {total}"
    );
    assert_eq!(chance, whole(1, total));
}

/// CCFOLIA's chat-palette variables: `//NAME=VALUE` lines define `{NAME}`, used by other
/// lines (variables within variables too, a cycle stops); `//` lines are never listed.
#[test]
fn palette_variables_expand_and_their_lines_are_not_listed() {
    let mut t = Table::create("DiceBot", "卓", "gm", [3; 32])
        .expect("table")
        .with_entropy(Entropy::seeded([3; 32]));
    t.exec("gm", "/join alice").expect("join");
    t.exec("alice", "/char new ミナ").expect("char");
    let lines = [
        "//-----",
        "//修正=2",
        "//目標={基準}",
        "//基準=10",
        "//a={b}",
        "//b={a}",
        "2D6+{修正}>={目標} 判定",
        "2D6+{知覚} 素の値",
        "{a}",
    ];
    let mut cmd = String::from("/char set ミナ 知覚 4");
    for (n, l) in lines.iter().enumerate() {
        cmd.push_str(&format!(" palette.{} \"{l}\"", n + 1));
    }
    t.exec("alice", &cmd).expect("palette");
    let got: Vec<(String, String, Option<String>)> = page::palette(&t, "alice")
        .into_iter()
        .map(|p| (p.send, p.shown, p.odds))
        .collect();
    assert_eq!(got.len(), 3, "{got:?}");
    // 2D6+2 >= 10: 2D6 >= 8, 15/36.
    assert_eq!(
        got[0],
        (
            "2D6+2>=10 判定".to_string(),
            "2D6+2>=10 判定".to_string(),
            Some("41.7%".to_string())
        )
    );
    assert_eq!(got[1].1, "2D6+4 素の値");
    assert!(got[2].0.len() < 100, "a cycle stops: {:?}", got[2]);
}

/// A CCFOLIA character pasted at an Another World table becomes an Another World
/// character (AW-1 abilities, AW-4 HP/MP as maxima, current HP kept) with its palette.
#[tokio::test]
async fn a_ccfolia_character_imports_into_another_world() {
    let (app, server) = app_and_server("import-aw").await;
    let form =
        serde_urlencoded::to_string([("system", "AnotherWorld"), ("name", "AW卓"), ("gm", "gm")])
            .expect("form");
    let (_, html) = call(
        &app,
        "POST",
        "/new",
        None,
        ("application/x-www-form-urlencoded", form),
    )
    .await;
    let doc = Html::parse_document(&html);
    let own = doc
        .select(&sel("#own a"))
        .next()
        .and_then(|a| a.value().attr("href"))
        .expect("own")
        .to_string();
    let (path, _gm) = own.split_once("#token=").expect("token");
    let id = path.strip_prefix("/t/").expect("id").to_string();
    let invite = doc
        .select(&sel("#invites-player a"))
        .next()
        .and_then(|a| a.value().attr("href"))
        .and_then(|h| h.split_once("#invite="))
        .expect("invite")
        .1
        .to_string();
    let alice = join(&app, &id, &invite, "alice").await;
    let clip = json!({"kind": "character", "data": {
        "name": "ミナ",
        "status": [{"label": "HP", "value": 12, "max": 20}, {"label": "MP", "value": 15, "max": 15}],
        "params": [{"label": "【理知】", "value": "3"}, {"label": "知覚", "value": 2},
            {"label": "反射", "value": 4}, {"label": "体力", "value": 2},
            {"label": "幸運", "value": 1}, {"label": "行動値", "value": 9}],
        "commands": "//ボーナス=1\nAW+{理知}+{ボーナス} 調査"
    }});
    let (status, body) = call(
        &app,
        "POST",
        &format!("/t/{id}/import"),
        Some(&alice),
        ("text/plain", clip.to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // The first pane asks for the odds (A2-7: computed by the server's odds pool, off
    // the request path); once the pool has computed them, the next shows them.
    let path = format!("/t/{id}/side");
    let _ = call(&app, "GET", &path, Some(&alice), no_body()).await;
    let pool = server.clone();
    let settled = tokio::task::spawn_blocking(move || {
        pool.odds().wait_settled(std::time::Duration::from_secs(60))
    })
    .await
    .expect("wait");
    assert!(settled, "the odds pool settles");
    let (_, side) = call(&app, "GET", &path, Some(&alice), no_body()).await;
    let doc = Html::parse_fragment(&side);
    assert!(
        doc.select(&sel("meter[value=\"12\"][max=\"20\"]"))
            .next()
            .is_some(),
        "{side}"
    );
    // AW-3's derived moves: the system read the sheet.
    assert!(side.contains("14m"), "{side}");
    let palette: Vec<String> = doc
        .select(&sel("#palette-source .palette-line"))
        .map(|e| e.text().collect())
        .collect();
    assert_eq!(palette, ["AW+3+1 調査"]);
    // One missing ability: refused, naming it, nothing created.
    let broken = clip.to_string().replace("幸運", "運");
    let (status, body) = call(
        &app,
        "POST",
        &format!("/t/{id}/import"),
        Some(&alice),
        ("text/plain", broken.replace("ミナ", "ユキ")),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body.contains("幸運") && body.contains("ココフォリア"),
        "{body}"
    );
}

/// Everything a member can fetch of a table, concatenated: the entries page, the side
/// pane, both exports, the API's state and log.
async fn everything(app: &Router, id: &str, token: &str) -> String {
    let mut all = String::new();
    for path in [
        format!("/t/{id}/entries?limit=1000"),
        format!("/t/{id}/side"),
        format!("/t/{id}/export.html"),
        format!("/t/{id}/export.json"),
        format!("/api/v1/tables/{id}"),
        format!("/api/v1/tables/{id}/log?limit=1000"),
    ] {
        let (status, body) = call(app, "GET", &path, Some(token), no_body()).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
        all.push_str(&body);
        all.push('\n');
    }
    all
}

/// Secrets stay secret on every web path (issue 17): a secret roll, a whisper, an event
/// key (AW-6, holder-only) and a GM-only fact never reach another member's or a
/// spectator's page, side pane, export, API state, log or live update — and do reach
/// those who may see them; a reveal opens the roll and nothing else.
#[tokio::test]
async fn no_secret_reaches_a_member_or_spectator_who_may_not_see_it_on_any_path() {
    let dir = std::env::temp_dir().join(format!("taku-web-{}-secrets", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = Store::open(&dir.join("taku.db").display().to_string())
        .await
        .expect("store");
    let server: Arc<Server> = Server::new(
        store,
        &Config {
            rate_limit: 0,
            ..Config::default()
        },
    );
    let app = taku_server::app(server.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(taku_server::serve(listener, server, std::future::pending()));
    let (id, gm, players, spectators) = create_in(&app, "AnotherWorld").await;
    let alice = join(&app, &id, &players[0], "alice").await;
    let bob = join(&app, &id, &players[1], "bob").await;
    let sam = join(&app, &id, &spectators[0], "sam").await;
    let socket = |token: String| {
        let url = format!("ws://{addr}/api/v1/tables/{id}/live?format=html&after=0&token={token}");
        async move {
            tokio_tungstenite::connect_async(url)
                .await
                .expect("socket")
                .0
        }
    };
    let mut bob_live = socket(bob.clone()).await;
    let mut sam_live = socket(sam.clone()).await;
    let line = |token: &str, line: &str| {
        let (app, token, line, id) = (app.clone(), token.to_string(), line.to_string(), id.clone());
        async move {
            let (status, body) = call(
                &app,
                "POST",
                &format!("/api/v1/tables/{id}/lines"),
                Some(&token),
                json_body(json!({"line": line})),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{line}: {body}");
            serde_json::from_str::<Value>(&body).expect("json")
        }
    };
    line(&alice, "/char new ミナ").await;
    line(&alice, "S2D6 ひみつの判定").await;
    line(&alice, "/w gm ないしょ話").await;
    line(&gm, "S1D100 GMの秘密").await;
    line(&gm, "/key give ミナ 秘密の鍵").await;
    line(&gm, "/w alice 二人だけの話").await;
    let secrets = [
        "ひみつの判定",
        "ないしょ話",
        "GMの秘密",
        "秘密の鍵",
        "二人だけの話",
    ];
    let (_, state) = call(
        &app,
        "GET",
        &format!("/api/v1/tables/{id}"),
        Some(&gm),
        no_body(),
    )
    .await;
    let last = serde_json::from_str::<Value>(&state).expect("state")["last_seq"]
        .as_u64()
        .unwrap_or(0);
    // The GM sees everything; alice sees her own and what is hers.
    let gm_sees = everything(&app, &id, &gm).await;
    for s in secrets {
        assert!(gm_sees.contains(s), "the GM misses {s}");
    }
    let alice_sees = everything(&app, &id, &alice).await;
    for s in secrets {
        assert_eq!(alice_sees.contains(s), s != "GMの秘密", "alice and {s}");
    }
    for (who, token) in [("bob", &bob), ("sam", &sam)] {
        let seen = everything(&app, &id, token).await;
        for s in secrets {
            assert!(!seen.contains(s), "{who} sees {s}");
        }
        assert!(!seen.contains("data-reveal"), "{who} may reveal nothing");
    }
    // Live updates, from the first entry on.
    for (who, live) in [("bob", &mut bob_live), ("sam", &mut sam_live)] {
        let n = usize::try_from(last).expect("seq");
        let got = take(live, n.max(1)).await;
        let html: String = got
            .iter()
            .map(|m| m["html"].as_str().unwrap_or("").to_string())
            .collect();
        assert!(
            html.contains("（非公開）") || html.contains("(hidden)"),
            "{who}: {html}"
        );
        for s in secrets {
            assert!(!html.contains(s), "{who}'s socket carries {s}");
        }
    }
    // alice reveals her roll: it opens for bob, the whispers stay closed.
    let seq = alice_sees
        .split("ひみつの判定")
        .next()
        .and_then(|before| before.rsplit("data-seq=\"").next())
        .and_then(|s| s.split('"').next())
        .and_then(|s| s.parse::<u64>().ok())
        .expect("the secret roll's seq");
    let (status, body) = call(
        &app,
        "POST",
        &format!("/api/v1/tables/{id}/reveal/{seq}"),
        Some(&alice),
        no_body(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let seen = everything(&app, &id, &bob).await;
    assert!(seen.contains("ひみつの判定"));
    for s in ["ないしょ話", "GMの秘密", "秘密の鍵", "二人だけの話"] {
        assert!(!seen.contains(s), "bob sees {s} after the reveal");
    }
}

/// The GM's member tools (issue 17): a new personal link for a member revokes their old
/// one; removing a member revokes every token they hold; players and spectators may do
/// neither; the GM renews nobody's link by accident (their own, an unknown name).
#[tokio::test]
async fn the_gm_renews_a_members_link_and_removes_members_and_nobody_else_can() {
    let app = app("members").await;
    let (id, gm, players, spectators) = create(&app).await;
    let alice = join(&app, &id, &players[0], "alice").await;
    let bob = join(&app, &id, &players[1], "bob").await;
    let sam = join(&app, &id, &spectators[0], "sam").await;
    let side = |token: String| {
        let (app, id) = (app.clone(), id.clone());
        async move {
            call(
                &app,
                "GET",
                &format!("/t/{id}/side"),
                Some(&token),
                no_body(),
            )
            .await
            .0
        }
    };
    // The GM's tools are in the GM's side pane only.
    let (_, gm_side) = call(&app, "GET", &format!("/t/{id}/side"), Some(&gm), no_body()).await;
    assert!(gm_side.contains("data-remove=\"alice\"") && gm_side.contains("data-relink=\"bob\""));
    assert!(!gm_side.contains("data-remove=\"gm\""));
    let (_, alice_side) = call(
        &app,
        "GET",
        &format!("/t/{id}/side"),
        Some(&alice),
        no_body(),
    )
    .await;
    assert!(!alice_side.contains("data-remove") && !alice_side.contains("data-relink"));
    for token in [&alice, &sam] {
        let (status, body) = call(
            &app,
            "POST",
            &format!("/t/{id}/members/bob/link"),
            Some(token),
            no_body(),
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        // The GM tools' refusals are in the table's language: Japanese by default.
        assert!(body.contains("GM だけです"), "{body}");
        let (status, _) = call(
            &app,
            "DELETE",
            &format!("/api/v1/tables/{id}/members/bob"),
            Some(token),
            no_body(),
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN);
    }
    assert_eq!(side(bob.clone()).await, StatusCode::OK, "bob is still in");
    for (who, status, ja) in [
        ("gm", StatusCode::FORBIDDEN, "自分を退室させられません"),
        (
            "nobody",
            StatusCode::NOT_FOUND,
            "'nobody' というメンバーはいません",
        ),
    ] {
        for path in [
            format!("/t/{id}/members/{who}/link"),
            format!("/api/v1/tables/{id}/members/{who}"),
        ] {
            let method = if path.starts_with("/t/") {
                "POST"
            } else {
                "DELETE"
            };
            // The table's creator may renew their own link (A2-10; tests/bounds.rs).
            if who == "gm" && method == "POST" {
                continue;
            }
            let (got, body) = call(&app, method, &path, Some(&gm), no_body()).await;
            assert_eq!(got, status, "{who}: {body}");
            if method == "POST" || who == "nobody" {
                assert!(body.contains(ja), "{path}: {body}");
            } else {
                assert!(body.contains("自分を退室させられません"), "{path}: {body}");
            }
        }
    }
    // A new link for alice: the old token stops working, the new one works.
    let (status, body) = call(
        &app,
        "POST",
        &format!("/t/{id}/members/alice/link"),
        Some(&gm),
        no_body(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let link = serde_json::from_str::<Value>(&body).expect("json")["link"]
        .as_str()
        .expect("link")
        .to_string();
    let fresh = link.split_once("#token=").expect("token in the fragment").1;
    assert_eq!(side(alice.clone()).await, StatusCode::UNAUTHORIZED);
    assert_eq!(side(fresh.to_string()).await, StatusCode::OK);
    // Everyone sees in the log that the GM issued alice a new link (A2-10: the GM could
    // have used it).
    let (_, log) = call(
        &app,
        "GET",
        &format!("/t/{id}/entries"),
        Some(&bob),
        no_body(),
    )
    .await;
    assert!(
        log.contains("gm が alice の個人リンクを再発行しました"),
        "{log}"
    );
    // Removing bob: his token stops working; his lines stay.
    let (status, body) = call(
        &app,
        "DELETE",
        &format!("/api/v1/tables/{id}/members/bob"),
        Some(&gm),
        no_body(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(side(bob.clone()).await, StatusCode::UNAUTHORIZED);
    // Unused invites revoked: the last player invite no longer joins.
    let (status, _) = call(
        &app,
        "DELETE",
        &format!("/api/v1/tables/{id}/invites"),
        Some(&gm),
        no_body(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/v1/tables/{id}/join"),
        None,
        json_body(json!({"invite": players[2], "name": "carol"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // Removed, bob is no member any more: no new link for him; in English once the GM
    // sets the table's language so.
    let (status, body) = call(
        &app,
        "POST",
        &format!("/api/v1/tables/{id}/lines"),
        Some(&gm),
        json_body(json!({"line": "/lang en"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = call(
        &app,
        "POST",
        &format!("/t/{id}/members/bob/link"),
        Some(&gm),
        no_body(),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(body.contains("no member 'bob' at this table"), "{body}");
}

/// Attack: markup in every place a member can write — their name, a character's name
/// and fields, chat, a whisper, a tab's name, palette lines, the table's name — renders
/// as text on every web path (page fragments, side pane, export), never as elements; the
/// pages forbid inline script and framing outright.
#[tokio::test]
async fn markup_from_members_renders_as_text_and_pages_forbid_inline_script() {
    let app = app("markup").await;
    let evil = "<img/src=x/onerror=alert(1)>";
    let form = serde_urlencoded::to_string([
        ("system", "DiceBot"),
        ("name", "卓<script>alert(1)</script>"),
        ("gm", "gm"),
    ])
    .expect("form");
    let (status, gm_page) = call(
        &app,
        "POST",
        "/new",
        None,
        ("application/x-www-form-urlencoded", form),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(!gm_page.contains("<script>alert"), "{gm_page}");
    let doc = Html::parse_document(&gm_page);
    let own = doc
        .select(&sel("#own a"))
        .next()
        .and_then(|a| a.value().attr("href"))
        .expect("own")
        .to_string();
    let (path, gm) = own.split_once("#token=").expect("token");
    let id = path.strip_prefix("/t/").expect("id").to_string();
    let invite = doc
        .select(&sel("#invites-player a"))
        .next()
        .and_then(|a| a.value().attr("href"))
        .and_then(|h| h.split_once("#invite="))
        .expect("invite")
        .1
        .to_string();
    // A member's name may not hold the log's own punctuation (`>`, A3-7): markup
    // without it.
    let mallory = join(&app, &id, &invite, "<img/src=x/onerror=alert(1)/").await;
    for (token, line) in [
        (&mallory, format!("/char new {evil}")),
        (
            &mallory,
            format!("/char set {evil} HP 5 HP.max 9 note \"{evil}\""),
        ),
        (
            &mallory,
            format!("{evil} </li></ol><script>alert(2)</script>"),
        ),
        (&mallory, format!("/w gm {evil}")),
        (&gm.to_string(), "/tab new \"><b>x</b>".to_string()),
        (
            &mallory,
            format!(
                "/char set {evil} palette.1 \"1D6 {evil}\" palette.2 \"//v={evil}\" palette.3 \"{{v}}\""
            ),
        ),
    ] {
        let (status, body) = call(
            &app,
            "POST",
            &format!("/api/v1/tables/{id}/lines"),
            Some(token),
            json_body(json!({ "line": line })),
        )
        .await;
        // Some of these the table refuses (a tab name is one plain word); none may
        // panic, and whatever stands is shown as text.
        assert!(
            status == StatusCode::OK || status == StatusCode::UNPROCESSABLE_ENTITY,
            "{line}: {status} {body}"
        );
    }
    for token in [gm, mallory.as_str()] {
        for path in [
            format!("/t/{id}/entries"),
            format!("/t/{id}/side"),
            format!("/t/{id}/export.html"),
        ] {
            let (status, body) = call(&app, "GET", &path, Some(token), no_body()).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            let doc = Html::parse_document(&body);
            assert!(
                doc.select(&sel("img, script, b")).next().is_none(),
                "{path}: an element from a member's text:\n{body}"
            );
            assert!(
                !body.contains("<img") && !body.contains("<script"),
                "{body}"
            );
        }
    }
    // The pages' headers: no inline script, no framing; the export runs nothing.
    let response = app
        .clone()
        .oneshot(
            Request::builder()
                .uri(format!("/t/{id}"))
                .body(Body::empty())
                .expect("request"),
        )
        .await
        .expect("response");
    let csp = response
        .headers()
        .get(header::CONTENT_SECURITY_POLICY)
        .and_then(|v| v.to_str().ok())
        .expect("a CSP")
        .to_string();
    assert!(
        csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
        "{csp}"
    );
    assert!(csp.contains("frame-ancestors 'none'"));
    assert_eq!(
        response
            .headers()
            .get(header::X_FRAME_OPTIONS)
            .map(|v| v.as_bytes()),
        Some(&b"DENY"[..])
    );
    let response = app
        .clone()
        .oneshot(
            Request::builder()
                .uri(format!("/t/{id}/export.html"))
                .header(header::AUTHORIZATION, format!("Bearer {gm}"))
                .body(Body::empty())
                .expect("request"),
        )
        .await
        .expect("response");
    let csp = response
        .headers()
        .get(header::CONTENT_SECURITY_POLICY)
        .and_then(|v| v.to_str().ok())
        .expect("the export's CSP");
    assert!(
        csp.starts_with("default-src 'none'") && !csp.contains("script"),
        "{csp}"
    );
}

/// Attack: spectators and players abusing tabs: a spectator's dice in 雑談 are refused
/// like any spectator's dice (nothing drawn), a player cannot add tabs, a tab that does
/// not exist is refused, and a refused tab line changes nothing.
#[test]
fn tabs_give_nobody_a_way_round_the_tables_rules() {
    let mut t = another_world();
    let before = t.events().len();
    let refused = t
        .exec("sam", "/tab 雑談 2D6>=7")
        .expect_err("a spectator's dice");
    assert!(
        refused.render(Lang::Ja).contains("観戦者"),
        "{}",
        refused.render(Lang::Ja)
    );
    assert!(t.exec("sam", "/tab new 裏").is_err());
    assert!(t.exec("bob", "/tab new 裏").is_err());
    assert!(t.exec("bob", "/tab 裏 こっそり").is_err());
    assert!(
        t.exec("bob", "/tab 裏 2D6").is_err(),
        "no tab: nothing rolled"
    );
    assert!(t.exec("gm", "/tab new new").is_err(), "a reserved name");
    assert!(
        t.exec("gm", "/tab new メイン").is_err(),
        "the main tab again"
    );
    assert!(t.exec("gm", "/tab new 雑談").is_err(), "雑談 again");
    assert!(
        t.exec("gm", &format!("/tab new {}", "長".repeat(21)))
            .is_err()
    );
    assert!(
        t.exec("gm", "/tab new a\u{200b}b").is_err(),
        "an invisible character"
    );
    assert_eq!(t.events().len(), before, "refusals changed nothing");
    // Dice typed in a tab are played, in メイン; a status command too.
    t.exec("bob", "/tab 雑談 2D6>=7 雑談で")
        .expect("a roll from 雑談");
    let last = t.events().last().expect("event");
    assert!(
        matches!(last.body, taku_table::EventBody::Roll(_)),
        "{last:?}"
    );
    t.exec("alice", "/tab 雑談 HP-3")
        .expect("a status command from 雑談");
    let sheet = t.sheet("ミナ", "alice").expect("sheet");
    let hp = sheet
        .sections
        .iter()
        .flat_map(|s| &s.fields)
        .find(|f| f.key.as_deref() == Some("HP"))
        .map(|f| f.value.clone());
    assert_eq!(
        hp,
        Some(taku_systems::view::Value::Resource {
            current: 17,
            max: 20
        })
    );
    // Full-width or not, the tab word is the command's, the text is kept as typed.
    t.exec("alice", "/tab chat  二つの  空白")
        .expect("chat tab by its English name");
    let last = t.events().last().expect("event");
    assert_eq!(
        last.body,
        taku_table::EventBody::TabChat {
            tab: "雑談".into(),
            text: "二つの  空白".into()
        }
    );
}

/// Sengensho's hidden types (SG-6) and Four Card's sheet, through the same typed view:
/// an NPC's hidden type reaches the GM's card only, never a player's or a spectator's
/// page, side pane or export; a Four Card character's sections (FC-1..FC-8) render as
/// their card's sections.
#[test]
fn other_systems_cards_come_from_their_typed_views_and_keep_hidden_values_hidden() {
    let mut t = Table::create("Sengensyou", "sg", "gm", [7; 32])
        .expect("table")
        .with_entropy(Entropy::seeded([7; 32]));
    for (who, line) in [
        ("gm", "/join alice"),
        ("gm", "/join sam as spectator"),
        ("alice", "/char new ミナ"),
        ("gm", "/char new 影"),
        ("gm", "/sg types example"),
        ("gm", "/sg choose ミナ 例・芸術家 例・守護者 例・策士"),
        ("gm", "/sg choose 影 例・策士 例・旅人 例・芸術家"),
        ("gm", "/sg bond 影 例・旅人 ミナ"),
    ] {
        t.exec(who, line)
            .unwrap_or_else(|e| panic!("{line}: {}", e.render(Lang::En)));
    }
    let gm_side = page::side(&t, "gm").into_string();
    assert!(gm_side.contains("例・旅人"), "{gm_side}");
    // The type list itself is public (every type's name is in it): what is hidden is
    // which types 影 has. No entry, card or exported line of theirs puts the two together.
    for who in ["alice", "sam"] {
        let pages = [
            page::entries(&t, t.events().iter(), who).into_string(),
            page::side(&t, who).into_string(),
            page::export(&t, who).into_string(),
        ];
        for html in &pages {
            let doc = Html::parse_document(html);
            for unit in doc.select(&sel("li.entry, article.card, p")) {
                let text: String = unit.text().collect();
                assert!(
                    !(text.contains("影") && text.contains("例・旅人")),
                    "{who} learns 影's hidden type: {text}"
                );
            }
        }
        // The card is there all the same, and ミナ's public types on hers.
        let side = Html::parse_fragment(&pages[1]);
        assert!(
            side.select(&sel("article[data-character=\"影\"]"))
                .next()
                .is_some()
        );
        let mina: String = side
            .select(&sel("article[data-character=\"ミナ\"]"))
            .flat_map(|a| a.text())
            .collect();
        assert!(mina.contains("例・守護者"), "{who}: {mina}");
    }
    // The GM's card of 影 has it.
    let gm = Html::parse_fragment(&gm_side);
    let shadow: String = gm
        .select(&sel("article[data-character=\"影\"]"))
        .flat_map(|a| a.text())
        .collect();
    assert!(shadow.contains("例・旅人"), "{shadow}");

    let mut t = Table::create("FourCard", "fc", "gm", [8; 32])
        .expect("table")
        .with_entropy(Entropy::seeded([8; 32]));
    t.exec("gm", "/join alice").expect("join");
    t.exec("alice", "/char new ミナ").expect("char");
    t.exec("alice", "/fc create ミナ female").expect("create");
    let sheet = t.sheet("ミナ", "alice").expect("sheet");
    let side = Html::parse_fragment(&page::side(&t, "alice").into_string());
    let titles: Vec<String> = side
        .select(&sel("article.card[data-character=\"ミナ\"] h4"))
        .map(|h| h.text().collect())
        .collect();
    let expected: Vec<String> = sheet
        .sections
        .iter()
        .map(|s| s.title.get(Lang::Ja).to_string())
        .collect();
    assert!(expected.len() > 1, "{expected:?}");
    assert_eq!(titles, expected);
}

async fn get_with_headers(
    app: &Router,
    path: &str,
    token: &str,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let response = app
        .clone()
        .oneshot(
            Request::get(path)
                .header(header::AUTHORIZATION, format!("Bearer {token}"))
                .body(Body::empty())
                .expect("request"),
        )
        .await
        .expect("response");
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (
        status,
        headers,
        String::from_utf8(bytes.to_vec()).expect("utf-8"),
    )
}

fn header_number(headers: &axum::http::HeaderMap, name: &str) -> u64 {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} header"))
}

fn seqs_in(html: &str) -> Vec<u64> {
    Html::parse_fragment(html)
        .select(&sel("li[data-seq]"))
        .map(|li| {
            li.value()
                .attr("data-seq")
                .expect("seq")
                .parse()
                .expect("number")
        })
        .collect()
}

/// Issue 17 (left over): a tab's entries come from the whole log, not only from the
/// window a page has loaded: talk in 雑談 long before the last page is found, and pages
/// of one tab continue (`X-Taku-Older`/`X-Taku-Newer`) until the log's start with every
/// entry of that tab once and none of another's. Attack pass 2, A2-2: a page of long
/// entries stops early (at about a megabyte) and says where to go on, in the web log and
/// the API's log alike, so one reader cannot make the server render megabytes at a time.
#[tokio::test]
async fn a_tabs_entries_are_found_in_the_whole_log_and_pages_stay_small() {
    let app = app("tab-scan").await;
    let (id, gm, players, _) = create(&app).await;
    let alice = join(&app, &id, &players[0], "alice").await;
    let lines = format!("/api/v1/tables/{id}/lines");
    let say = |token: String, line: String| {
        let (app, lines) = (app.clone(), lines.clone());
        async move {
            let (status, body) = call(
                &app,
                "POST",
                &lines,
                Some(&token),
                json_body(json!({ "line": line })),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
    };
    say(alice.clone(), "/tab 雑談 むかしの雑談".into()).await;
    let chat_seq = 3;
    for i in 0..150 {
        say(gm.clone(), format!("本編 {i}")).await;
    }
    say(alice.clone(), "/tab 雑談 いまの雑談".into()).await;
    let head = 154;
    let chat = "%E9%9B%91%E8%AB%87"; // 雑談
    let (status, headers, html) =
        get_with_headers(&app, &format!("/t/{id}/entries?tab={chat}"), &alice).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert_eq!(seqs_in(&html), [chat_seq, head], "{html}");
    assert!(html.contains("むかしの雑談") && html.contains("いまの雑談"));
    assert_eq!(header_number(&headers, "x-taku-older"), 1, "nothing older");
    assert_eq!(header_number(&headers, "x-taku-newer"), head);
    // The main tab, page by page back to the start: every entry but the 雑談 talk, once.
    let mut seen = Vec::new();
    let mut before = None::<u64>;
    loop {
        let path = match before {
            None => format!("/t/{id}/entries?tab=main&limit=40"),
            Some(b) => format!("/t/{id}/entries?tab=main&limit=40&before={b}"),
        };
        let (_, headers, html) = get_with_headers(&app, &path, &gm).await;
        let page = seqs_in(&html);
        assert!(page.len() <= 40);
        seen.splice(0..0, page);
        let older = header_number(&headers, "x-taku-older");
        if older <= 1 {
            break;
        }
        before = Some(older);
    }
    let main: Vec<u64> = (1..=head)
        .filter(|s| *s != chat_seq && *s != head)
        .collect();
    assert_eq!(seen, main);
    // Forward from the start: the first page of 雑談 ends where it says.
    let (_, headers, html) = get_with_headers(
        &app,
        &format!("/t/{id}/entries?tab={chat}&after=0&limit=1"),
        &gm,
    )
    .await;
    assert_eq!(seqs_in(&html), [chat_seq]);
    assert_eq!(header_number(&headers, "x-taku-newer"), chat_seq);

    // A2-2: 120 lines of 12 KB each.
    let long = "あ".repeat(3_990);
    for _ in 0..120 {
        say(alice.clone(), long.clone()).await;
    }
    let (_, headers, html) = get_with_headers(
        &app,
        &format!("/t/{id}/entries?limit=1000&after={head}"),
        &gm,
    )
    .await;
    let page = seqs_in(&html);
    assert!(
        !page.is_empty() && page.len() < 120,
        "{} entries",
        page.len()
    );
    assert!(html.len() < 3 << 20, "{} bytes", html.len());
    assert_eq!(
        header_number(&headers, "x-taku-newer"),
        *page.last().expect("one")
    );
    let (status, body) = call(
        &app,
        "GET",
        &format!("/api/v1/tables/{id}/log?after={head}&limit=1000"),
        Some(&gm),
        no_body(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let log: Value = serde_json::from_str(&body).expect("json");
    let n = log["events"].as_array().expect("events").len();
    assert!(n > 0 && n < 120, "{n} events");
    assert_eq!(log["more"], true);
    assert!(body.len() < 3 << 20, "{} bytes", body.len());
}

/// Attack pass 6, A6-1: a palette line naming the GM's unidentified NPC (hidden from
/// players) was left as a reference to that character while a name nobody has was read
/// as the player's own key — telling the player the NPC exists. Both now come out alike.
#[tokio::test]
async fn a_palette_reference_to_a_hidden_npc_reads_as_to_nobody() {
    let app = app("palette-hidden").await;
    let (id, gm, players, _) = create_in(&app, "AnotherWorld").await;
    let alice = join(&app, &id, &players[0], "alice").await;
    for (token, line) in [
        (&gm, "/char new 影の王"),
        (&gm, "/char set 影の王 HP 77"),
        (&alice, "/char new ミナ"),
        (
            &alice,
            "/char set ミナ palette.1 \"2D6+{影の王.HP}\" palette.2 \"2D6+{幽霊.HP}\"",
        ),
    ] {
        let (status, body) = call(
            &app,
            "POST",
            &format!("/api/v1/tables/{id}/lines"),
            Some(token),
            json_body(json!({"line": line})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{line}: {body}");
    }
    let (status, side) = call(
        &app,
        "GET",
        &format!("/t/{id}/side"),
        Some(&alice),
        no_body(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let doc = Html::parse_document(&side);
    let sent: Vec<String> = doc
        .select(&sel("#palette-source li"))
        .filter_map(|li| li.value().attr("data-palette").map(str::to_string))
        .collect();
    assert_eq!(
        sent,
        ["2D6+{ミナ.影の王.HP}", "2D6+{ミナ.幽霊.HP}"],
        "{side}"
    );
}
