//! The table API under /api/v1, request by request: creating, inviting, joining, playing,
//! reading as each member, and every refusal. Live sockets are in `live.rs`.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::sync::Arc;
use taku_server::{Config, Server};
use taku_table::store::Store;
use tower::ServiceExt;

struct Api {
    app: Router,
}

async fn api(name: &str, rate_limit: u32) -> Api {
    let dir = std::env::temp_dir().join(format!("taku-api-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = Store::open(&dir.join("taku.db").display().to_string())
        .await
        .expect("store");
    let server: Arc<Server> = Server::new(
        store,
        &Config {
            rate_limit,
            ..Config::default()
        },
    );
    Api {
        app: taku_server::app(server),
    }
}

impl Api {
    async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> (StatusCode, Value) {
        let mut request = Request::builder().method(method).uri(path);
        if let Some(t) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        let response = self
            .app
            .clone()
            .oneshot(request.body(Body::from(body.to_string())).expect("request"))
            .await
            .expect("infallible");
        let status = response.status();
        if status == StatusCode::UNAUTHORIZED {
            assert_eq!(
                response
                    .headers()
                    .get(header::WWW_AUTHENTICATE)
                    .map(|v| v.as_bytes()),
                Some(&b"Bearer"[..])
            );
        }
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        let value: Value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {bytes:?}"));
        if !status.is_success() {
            assert_eq!(value["ok"], false, "{value}");
            assert!(
                value["reason"].as_str().is_some_and(|r| !r.is_empty()),
                "a refusal says why: {value}"
            );
        }
        (status, value)
    }

    async fn ok(&self, method: &str, path: &str, token: Option<&str>, body: &str) -> Value {
        let (status, value) = self.call(method, path, token, body).await;
        assert!(
            status.is_success(),
            "{method} {path} {body}: {status} {value}"
        );
        value
    }
}

/// A table with GM `gm` and players alice and bob; returns (id, gm, alice, bob, spare invite).
async fn table(api: &Api) -> (String, String, String, String, String) {
    let created = api
        .ok(
            "POST",
            "/api/v1/tables",
            None,
            r#"{"system":"DiceBot","name":"卓","gm":"gm","invites":3}"#,
        )
        .await;
    let id = created["id"].as_str().expect("id").to_string();
    let gm = created["token"].as_str().expect("token").to_string();
    let invites: Vec<String> = created["invites"]
        .as_array()
        .expect("invites")
        .iter()
        .map(|i| i["token"].as_str().expect("token").to_string())
        .collect();
    assert_eq!(invites.len(), 3);
    let mut members = Vec::new();
    for (name, invite) in ["alice", "bob"].iter().zip(&invites) {
        let joined = api
            .ok(
                "POST",
                &format!("/api/v1/tables/{id}/join"),
                None,
                &json!({"invite": invite, "name": name}).to_string(),
            )
            .await;
        assert_eq!(
            (joined["member"].as_str(), joined["role"].as_str()),
            (Some(*name), Some("player"))
        );
        members.push(joined["token"].as_str().expect("token").to_string());
    }
    let bob = members.pop().expect("bob");
    let alice = members.pop().expect("alice");
    (id, gm, alice, bob, invites[2].clone())
}

fn texts(log: &Value) -> Vec<String> {
    log["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["text"].as_str().expect("text").to_string())
        .collect()
}

#[tokio::test]
async fn a_table_is_created_joined_and_played_through_the_api() {
    let api = api("play", 0).await;
    let (id, gm, alice, _bob, _) = table(&api).await;
    let rolled = api
        .ok(
            "POST",
            &format!("/api/v1/tables/{id}/lines"),
            Some(&alice),
            r#"{"line":"2D6>=2"}"#,
        )
        .await;
    let text = rolled["events"][0]["text"].as_str().expect("text");
    assert!(text.starts_with("#4 alice: (2D6>=2) ＞ "), "{text}");
    assert!(text.ends_with("＞ 成功"), "{text}");

    let made = api
        .ok(
            "POST",
            &format!("/api/v1/tables/{id}/lines"),
            Some(&alice),
            r#"{"line":"/char new ミナ"}"#,
        )
        .await;
    assert_eq!(
        made["events"][0]["text"],
        "#5 alice がキャラクター ミナ を作成"
    );
    let state = api
        .ok("GET", &format!("/api/v1/tables/{id}"), Some(&alice), "")
        .await;
    assert_eq!(state["you"], json!({"name": "alice", "role": "player"}));
    assert_eq!(state["system"], "DiceBot");
    assert_eq!(state["characters"][0]["owner"], "alice");
    assert_eq!(state["last_seq"], 5);
    assert_eq!(state["members"].as_array().map(Vec::len), Some(3));

    let undone = api
        .ok(
            "POST",
            &format!("/api/v1/tables/{id}/undo"),
            Some(&alice),
            "",
        )
        .await;
    assert_eq!(undone["events"][0]["text"], "#6 alice が #5 を取り消し");
    let state = api
        .ok("GET", &format!("/api/v1/tables/{id}"), Some(&gm), "")
        .await;
    assert_eq!(state["characters"], json!([]));
    // A character from a sheet, through the API.
    let sheet = r#"{"sheet":"name = \"ロイ\"\n\"知覚\" = 3\nHP = 10\n\"HP.max\" = 12\n"}"#;
    let from_sheet = api
        .ok(
            "POST",
            &format!("/api/v1/tables/{id}/characters"),
            Some(&alice),
            sheet,
        )
        .await;
    assert_eq!(from_sheet["events"][0]["kind"], "character");
    let state = api
        .ok("GET", &format!("/api/v1/tables/{id}"), Some(&alice), "")
        .await;
    let roy = &state["characters"][0];
    assert_eq!(roy["name"], "ロイ");
    assert_eq!(roy["fields"]["知覚"], "3");
    assert_eq!(
        roy["sheet"][0]["fields"][0]["value"],
        json!({"current": 10, "max": 12})
    );

    let help = api
        .ok(
            "POST",
            &format!("/api/v1/tables/{id}/lines"),
            Some(&alice),
            r#"{"line":"/help"}"#,
        )
        .await;
    assert!(
        help["reply"]
            .as_str()
            .is_some_and(|r| r.contains("/reveal"))
    );
    assert_eq!(help["events"], json!([]));

    // Paging: two entries at a time, after a seq.
    let page = api
        .ok(
            "GET",
            &format!("/api/v1/tables/{id}/log?after=2&limit=2"),
            Some(&gm),
            "",
        )
        .await;
    assert_eq!(page["events"][0]["seq"], 3);
    assert_eq!(
        (page["last_seq"].as_u64(), page["more"].as_bool()),
        (Some(4), Some(true))
    );
    let rest = api
        .ok(
            "GET",
            &format!("/api/v1/tables/{id}/log?after=4"),
            Some(&gm),
            "",
        )
        .await;
    assert_eq!(
        (rest["last_seq"].as_u64(), rest["more"].as_bool()),
        (Some(7), Some(false))
    );
}

/// A table created with `"lang":"en"` speaks English to its members from the start (its
/// log opens with the GM's `/lang en`); without `lang` it is Japanese; an unknown language
/// is refused in both languages and creates nothing.
#[tokio::test]
async fn a_table_is_created_in_the_language_asked_for() {
    let api = api("table-lang", 0).await;
    let created = api
        .ok(
            "POST",
            "/api/v1/tables",
            None,
            r#"{"system":"DiceBot","name":"table","gm":"gm","invites":0,"lang":"en"}"#,
        )
        .await;
    let id = created["id"].as_str().expect("id");
    let gm = created["token"].as_str().expect("token");
    let log = api
        .ok("GET", &format!("/api/v1/tables/{id}/log"), Some(gm), "")
        .await;
    assert_eq!(texts(&log)[1], "#2 gm: table language set to en", "{log}");
    let rolled = api
        .ok(
            "POST",
            &format!("/api/v1/tables/{id}/lines"),
            Some(gm),
            r#"{"line":"/char new ミナ"}"#,
        )
        .await;
    let text = rolled["events"][0]["text"].as_str().expect("text");
    assert!(text.contains("created character ミナ"), "{text}");
    // A line too long for the table is refused in the table's language, as the table's
    // own refusals are, whatever the client's (attack pass 6, A6-3).
    let (status, refused) = api
        .call(
            "POST",
            &format!("/api/v1/tables/{id}/lines"),
            Some(gm),
            &json!({"line": "あ".repeat(4_001)}).to_string(),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        refused["reason"],
        "a line is at most 4000 characters; nothing changed"
    );

    let (status, refused) = api
        .call(
            "POST",
            "/api/v1/tables",
            None,
            r#"{"system":"DiceBot","name":"t","gm":"gm","lang":"fr"}"#,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        refused["reason"], "lang は卓の言語で、ja か en です",
        "{refused}"
    );
    let (status, _) = api
        .call(
            "POST",
            "/api/v1/tables",
            None,
            r#"{"system":"DiceBot","name":"t","gm":"gm","lang":null}"#,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "null is no language");
    let (_, refused) = api
        .call(
            "POST",
            "/api/v1/tables?lang=en",
            None,
            r#"{"system":"DiceBot","name":"t","gm":"gm","lang":"fr"}"#,
        )
        .await;
    assert_eq!(refused["reason"], "lang is the table's language: ja or en");
}

/// Attack pass 6, A6-4: a path that is not UTF-8 got the web framework's English plain
/// text; it is a JSON refusal like every other, in the client's language.
#[tokio::test]
async fn a_url_that_is_not_utf8_is_refused_as_json() {
    let api = api("not-utf8", 0).await;
    let (status, refused) = api.call("GET", "/api/v1/tables/%ff%fe/log", None, "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        refused["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("URL を読めません") && r.contains("openapi.json")),
        "{refused}"
    );
    let (_, refused) = api
        .call("GET", "/api/v1/tables/%ff%fe/log?lang=en", None, "")
        .await;
    assert!(
        refused["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("the URL cannot be read")),
        "{refused}"
    );
}

#[tokio::test]
async fn a_secret_roll_reaches_only_its_roller_and_the_gm_until_revealed() {
    let api = api("secret", 0).await;
    let (id, gm, alice, bob, _) = table(&api).await;
    let rolled = api
        .ok(
            "POST",
            &format!("/api/v1/tables/{id}/lines"),
            Some(&alice),
            r#"{"line":"S2D6>=2 こっそり"}"#,
        )
        .await;
    let result = rolled["events"][0]["text"]
        .as_str()
        .expect("text")
        .to_string();
    assert!(
        result.starts_with("#4 alice（シークレット）: こっそり (2D6>=2) ＞ "),
        "{result}"
    );

    let log = |token: String| {
        let api = &api;
        let id = id.clone();
        async move {
            texts(
                &api.ok("GET", &format!("/api/v1/tables/{id}/log"), Some(&token), "")
                    .await,
            )
        }
    };
    assert_eq!(log(gm.clone()).await[3], result);
    assert_eq!(log(alice.clone()).await[3], result);
    let hidden = log(bob.clone()).await;
    assert!(
        hidden[3].starts_with("#4 alice のシークレットダイス（コミットメント "),
        "{}",
        hidden[3]
    );
    assert!(
        !hidden
            .iter()
            .any(|t| t.contains("＞") || t.contains("こっそり")),
        "{hidden:?}"
    );

    // Bob may not reveal it; alice may.
    let (status, _) = api
        .call(
            "POST",
            &format!("/api/v1/tables/{id}/reveal/4"),
            Some(&bob),
            "",
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!log(bob.clone()).await.iter().any(|t| t.contains("＞")));
    api.ok(
        "POST",
        &format!("/api/v1/tables/{id}/reveal/4"),
        Some(&alice),
        "",
    )
    .await;
    let shown = log(bob).await;
    assert!(
        shown[3].starts_with("#4 alice（シークレット）: こっそり (2D6>=2) ＞ "),
        "{}",
        shown[3]
    );
    assert!(
        shown[4].starts_with("#5 alice が #4（alice）を公開"),
        "{}",
        shown[4]
    );
}

#[tokio::test]
async fn an_invite_joins_once_and_a_refused_join_leaves_it_usable() {
    let api = api("invite", 0).await;
    let (id, gm, alice, _bob, spare) = table(&api).await;
    let join = |name: &str| json!({"invite": spare, "name": name}).to_string();
    let path = format!("/api/v1/tables/{id}/join");
    let (status, taken) = api.call("POST", &path, None, &join("alice")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{taken}");
    let carol = api.ok("POST", &path, None, &join("carol")).await;
    assert_eq!(carol["member"], "carol");
    let (status, used) = api.call("POST", &path, None, &join("dave")).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(
        used["reason"]
            .as_str()
            .is_some_and(|r| r.contains("使用済み")),
        "{used}"
    );

    // Only the GM makes invites; a spectator invite joins a spectator.
    let invites = format!("/api/v1/tables/{id}/invites");
    let (status, _) = api.call("POST", &invites, Some(&alice), "{}").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let made = api
        .ok(
            "POST",
            &invites,
            Some(&gm),
            r#"{"role":"spectator","count":2}"#,
        )
        .await;
    assert_eq!(made["invites"].as_array().map(Vec::len), Some(2));
    let token = made["invites"][0]["token"].as_str().expect("token");
    let eve = api
        .ok(
            "POST",
            &path,
            None,
            &json!({"invite": token, "name": "eve"}).to_string(),
        )
        .await;
    assert_eq!(eve["role"], "spectator");
    let (status, _) = api
        .call(
            "POST",
            &format!("/api/v1/tables/{id}/lines"),
            eve["token"].as_str(),
            r#"{"line":"2D6"}"#,
        )
        .await;
    assert_eq!(
        status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "spectators do not roll"
    );
}

/// Every route that needs a token, with a body that would be accepted.
fn guarded(id: &str) -> Vec<(&'static str, String, &'static str)> {
    vec![
        ("GET", format!("/api/v1/tables/{id}"), ""),
        ("GET", format!("/api/v1/tables/{id}/log"), ""),
        (
            "POST",
            format!("/api/v1/tables/{id}/lines"),
            r#"{"line":"/char new X"}"#,
        ),
        ("POST", format!("/api/v1/tables/{id}/reveal/1"), ""),
        ("POST", format!("/api/v1/tables/{id}/undo"), ""),
        (
            "POST",
            format!("/api/v1/tables/{id}/characters"),
            r#"{"sheet":"name = \"X\""}"#,
        ),
        ("POST", format!("/api/v1/tables/{id}/invites"), "{}"),
        ("GET", format!("/api/v1/tables/{id}/live"), ""),
    ]
}

#[tokio::test]
async fn every_guarded_route_refuses_missing_bad_foreign_and_invite_tokens_and_changes_nothing() {
    let api = api("guard", 0).await;
    let (id, gm, _alice, _bob, spare) = table(&api).await;
    let (other, other_gm, ..) = table(&api).await;
    let before = api
        .ok("GET", &format!("/api/v1/tables/{id}/log"), Some(&gm), "")
        .await;
    let almost = {
        // The right key id with a wrong secret part.
        let mut t = gm.clone().into_bytes();
        t[40] = if t[40] == b'0' { b'1' } else { b'0' };
        String::from_utf8(t).expect("hex")
    };
    for (method, path, body) in guarded(&id) {
        for (token, want) in [
            (None, StatusCode::UNAUTHORIZED),
            (Some("nonsense"), StatusCode::UNAUTHORIZED),
            (Some(almost.as_str()), StatusCode::UNAUTHORIZED),
            (Some(spare.as_str()), StatusCode::UNAUTHORIZED),
            (Some(other_gm.as_str()), StatusCode::FORBIDDEN),
        ] {
            let (status, value) = api.call(method, &path, token, body).await;
            assert_eq!(status, want, "{method} {path} with {token:?}: {value}");
        }
    }
    let after = api
        .ok("GET", &format!("/api/v1/tables/{id}/log"), Some(&gm), "")
        .await;
    assert_eq!(before, after, "refused requests changed nothing");
    let theirs = api
        .ok(
            "GET",
            &format!("/api/v1/tables/{other}/log"),
            Some(&other_gm),
            "",
        )
        .await;
    assert_eq!(theirs["last_seq"], 3);
}

#[tokio::test]
async fn bad_input_is_a_clear_4xx_and_changes_nothing() {
    let api = api("bad", 0).await;
    let (id, gm, alice, ..) = table(&api).await;
    let lines = format!("/api/v1/tables/{id}/lines");
    let long = json!({"line": "あ".repeat(4_001)}).to_string();
    let huge = json!({"line": "a".repeat(70_000)}).to_string();
    let cases: Vec<(&str, String, Option<&str>, String, StatusCode)> = vec![
        (
            "POST",
            "/api/v1/tables".into(),
            None,
            "{".into(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            "/api/v1/tables".into(),
            None,
            "[]".into(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            "/api/v1/tables".into(),
            None,
            r#"{"system":"NoSuch","name":"x","gm":"g"}"#.into(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            "/api/v1/tables".into(),
            None,
            r#"{"system":"DiceBot","name":"x","gm":"two words"}"#.into(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            "/api/v1/tables".into(),
            None,
            r#"{"system":"DiceBot","name":"","gm":"g"}"#.into(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            "/api/v1/tables".into(),
            None,
            r#"{"system":"DiceBot","name":"x","gm":"g","invites":1000}"#.into(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            "/api/v1/tables".into(),
            None,
            r#"{"system":"DiceBot","name":"x","gm":"g","extra":1}"#.into(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            lines.clone(),
            Some(&alice),
            "not json".into(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            lines.clone(),
            Some(&alice),
            r#"{"line":7}"#.into(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            lines.clone(),
            Some(&alice),
            long,
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            lines.clone(),
            Some(&alice),
            huge,
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (
            "POST",
            lines.clone(),
            Some(&alice),
            r#"{"line":"/scene next"}"#.into(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "POST",
            lines.clone(),
            Some(&alice),
            r#"{"line":"/undo gm"}"#.into(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "POST",
            format!("/api/v1/tables/{id}/reveal/x"),
            Some(&alice),
            String::new(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            format!("/api/v1/tables/{id}/reveal/99"),
            Some(&alice),
            String::new(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "POST",
            format!("/api/v1/tables/{id}/undo"),
            Some(&alice),
            r#"{"member":"a b"}"#.into(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            format!("/api/v1/tables/{id}/invites"),
            Some(&gm),
            r#"{"role":"king"}"#.into(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "GET",
            format!("/api/v1/tables/{id}/log?after=-1"),
            Some(&gm),
            String::new(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "GET",
            format!("/api/v1/tables/{id}/log?limit=0"),
            Some(&gm),
            String::new(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "GET",
            format!("/api/v1/tables/{id}/live"),
            Some(&gm),
            String::new(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            format!("/api/v1/tables/{id}/join"),
            None,
            r#"{"invite":"x"}"#.into(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "DELETE",
            format!("/api/v1/tables/{id}"),
            Some(&gm),
            String::new(),
            // A7-4: a method the table API's path does not take is a 405 (with `Allow`).
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            "GET",
            "/api/v1/tables".into(),
            None,
            String::new(),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
    ];
    let before = api
        .ok("GET", &format!("/api/v1/tables/{id}/log"), Some(&gm), "")
        .await;
    for (method, path, token, body, want) in cases {
        let (status, value) = api.call(method, &path, token, &body).await;
        assert_eq!(
            status,
            want,
            "{method} {path} {}: {value}",
            &body[..body.len().min(80)]
        );
    }
    let after = api
        .ok("GET", &format!("/api/v1/tables/{id}/log"), Some(&gm), "")
        .await;
    assert_eq!(before, after);
}

#[tokio::test]
async fn past_its_rate_a_client_is_answered_429_with_retry_after() {
    let api = api("rate", 5).await;
    // A burst of twice the rate is served; then 429, on every kind of route.
    for _ in 0..10 {
        api.ok("GET", "/v2/version", None, "").await;
    }
    for path in [
        "/v2/version",
        "/api/v1/openapi.json",
        "/v2/game_system/DiceBot/roll?command=2D6",
    ] {
        let response = api
            .app
            .clone()
            .oneshot(Request::get(path).body(Body::empty()).expect("request"))
            .await
            .expect("infallible");
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS, "{path}");
        assert_eq!(
            response
                .headers()
                .get(header::RETRY_AFTER)
                .map(|v| v.as_bytes()),
            Some(&b"1"[..])
        );
    }
    let (status, _) = api.call("GET", "/healthz", None, "").await;
    assert_eq!(status, StatusCode::OK, "health checks are never limited");
}

#[tokio::test]
async fn the_openapi_document_lists_every_route() {
    let api = api("openapi", 0).await;
    let doc = api.ok("GET", "/api/v1/openapi.json", None, "").await;
    assert!(
        doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")),
        "{doc}"
    );
    let paths = doc["paths"].as_object().expect("paths");
    let mut want: Vec<String> = guarded("{id}")
        .into_iter()
        .map(|(_, p, _)| p.replace("reveal/1", "reveal/{seq}"))
        .collect();
    want.extend(["/api/v1/tables".into(), "/api/v1/tables/{id}/join".into()]);
    for path in want {
        assert!(paths.contains_key(&path), "openapi.json lacks {path}");
    }
}

#[tokio::test]
async fn the_openapi_document_offers_exactly_the_registered_game_systems() {
    let api = api("openapi-systems", 0).await;
    let doc = api.ok("GET", "/api/v1/openapi.json", None, "").await;
    let system = &doc["paths"]["/api/v1/tables"]["post"]["requestBody"]["content"]["application/json"]
        ["schema"]["properties"]["system"];
    let documented: Vec<&str> = system["enum"]
        .as_array()
        .expect("system enum")
        .iter()
        .map(|v| v.as_str().expect("a system id"))
        .collect();
    let registered: Vec<&str> = taku_systems::systems().iter().map(|s| s.id()).collect();
    assert_eq!(
        documented, registered,
        "openapi.json's system enum must list GET /v2/game_system's ids, in its order"
    );
}

/// AW-3 (seed 000: 対象識別 tells the enemy's data): an enemy the GM made is not shown to
/// players through the table's state until it is identified; the GM sees its fields.
#[tokio::test]
async fn an_unidentified_enemys_fields_stay_out_of_a_players_table_state() {
    let api = api("aw-hidden", 0).await;
    let created = api
        .ok(
            "POST",
            "/api/v1/tables",
            None,
            r#"{"system":"AnotherWorld","name":"卓","gm":"gm","invites":1}"#,
        )
        .await;
    let id = created["id"].as_str().expect("id").to_string();
    let gm = created["token"].as_str().expect("token").to_string();
    let invite = created["invites"][0]["token"].as_str().expect("invite");
    let joined = api
        .ok(
            "POST",
            &format!("/api/v1/tables/{id}/join"),
            None,
            &json!({"invite": invite, "name": "alice"}).to_string(),
        )
        .await;
    let alice = joined["token"].as_str().expect("token").to_string();
    for line in [
        "/char new 影",
        "/char set 影 HP 30",
        "/char set 影 識別難易度 3",
    ] {
        api.ok(
            "POST",
            &format!("/api/v1/tables/{id}/lines"),
            Some(&gm),
            &json!({ "line": line }).to_string(),
        )
        .await;
    }
    let listed = |state: &Value| {
        state["characters"]
            .as_array()
            .expect("characters")
            .iter()
            .find(|c| c["name"] == "影")
            .cloned()
    };
    let path = format!("/api/v1/tables/{id}");
    let seen_by_gm = api.ok("GET", &path, Some(&gm), "").await;
    assert_eq!(
        listed(&seen_by_gm).expect("the GM's list has 影")["fields"]["HP"],
        "30",
        "{seen_by_gm}"
    );
    // Seed 117–118 (対象識別): until identified, the enemy's data is the GM's — and so is
    // its being there: a player's state lists neither its fields nor its name, as
    // `/char list` and `/who` do not (aw13e).
    let seen_by_alice = api.ok("GET", &path, Some(&alice), "").await;
    assert!(listed(&seen_by_alice).is_none(), "{seen_by_alice}");
    let text = seen_by_alice.to_string();
    assert!(
        !text.contains("識別難易度") && !text.contains("影"),
        "{seen_by_alice}"
    );
    // Shown by the GM (`/npc show`), it is listed with its fields.
    api.ok(
        "POST",
        &format!("/api/v1/tables/{id}/lines"),
        Some(&gm),
        &json!({ "line": "/npc show 影" }).to_string(),
    )
    .await;
    let seen_by_alice = api.ok("GET", &path, Some(&alice), "").await;
    assert_eq!(
        listed(&seen_by_alice).expect("listed once shown")["fields"]["HP"],
        "30",
        "{seen_by_alice}"
    );
}

/// Attack pass 7, A7-12: the table API's GETs refuse a query parameter they do not take
/// (naming it and the ones taken, in the client's language) instead of ignoring it.
#[tokio::test]
async fn table_api_gets_refuse_query_parameters_they_do_not_take() {
    let api = api("unknown-params", 1000).await;
    let (id, gm, ..) = table(&api).await;
    let cases = [
        (
            format!("/api/v1/tables/{id}/log?before=5"),
            "before",
            "after, limit, lang",
        ),
        (
            format!("/api/v1/tables/{id}/log?after=0&tab=%00"),
            "tab",
            "after, limit, lang",
        ),
        (
            format!("/api/v1/tables/{id}?after=x"),
            "after",
            "after_character, lang",
        ),
        (
            format!("/api/v1/tables/{id}/live?since=3"),
            "since",
            "token, after, format, lang",
        ),
    ];
    for (path, name, taken) in &cases {
        let (status, value) = api.call("GET", path, Some(&gm), "").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {value}");
        let reason = value["reason"].as_str().expect("reason");
        assert!(
            reason.contains(&format!("'{name}' はここでは使えません")) && reason.contains(taken),
            "{path}: {reason}"
        );
        let (_, value) = api
            .call("GET", &format!("{path}&lang=en"), Some(&gm), "")
            .await;
        let reason = value["reason"].as_str().expect("reason");
        assert!(
            reason.contains(&format!("'{name}' is not taken here")),
            "{path}: {reason}"
        );
    }
    // The parameters taken, `lang` among them, are still read.
    for path in [
        format!("/api/v1/tables/{id}/log?after=0&limit=5&lang=en"),
        format!("/api/v1/tables/{id}?after_character=a&lang=ja"),
    ] {
        api.ok("GET", &path, Some(&gm), "").await;
    }
}
