//! bcdice-api v2 as spec §7 describes it, request by request (with 400 and a reason where
//! the reference answers 500).

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

async fn call(request: Request<Body>) -> (StatusCode, Option<String>, Option<String>, String) {
    let response = taku_server::router()
        .oneshot(request)
        .await
        .expect("infallible");
    let status = response.status();
    let header = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let (cors, ctype) = (
        header(header::ACCESS_CONTROL_ALLOW_ORIGIN),
        header(header::CONTENT_TYPE),
    );
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (
        status,
        cors,
        ctype,
        String::from_utf8(body.to_vec()).expect("utf-8"),
    )
}

async fn get(uri: &str) -> (StatusCode, Value) {
    let (status, cors, ctype, body) =
        call(Request::get(uri).body(Body::empty()).expect("request")).await;
    assert_eq!(cors.as_deref(), Some("*"), "{uri}: CORS on every response");
    assert_eq!(ctype.as_deref(), Some("application/json"), "{uri}");
    (status, serde_json::from_str(&body).expect("JSON"))
}

#[tokio::test]
async fn version_admin_and_systems() {
    assert_eq!(
        get("/v2/version").await,
        (StatusCode::OK, json!({"api": "3.0.0", "bcdice": "3.16.1"}))
    );
    let (status, admin) = get("/v2/admin").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        admin
            .as_object()
            .map(|o| o.keys().cloned().collect::<Vec<_>>()),
        Some(vec![
            "name".to_string(),
            "url".to_string(),
            "email".to_string()
        ])
    );
    let (status, list) = get("/v2/game_system").await;
    assert_eq!(status, StatusCode::OK);
    let systems = list["game_system"].as_array().expect("array");
    assert_eq!(
        systems[0],
        json!({"id": "DiceBot", "name": "DiceBot", "sort_key": "*たいすほつと"})
    );
    let keys: Vec<&str> = systems
        .iter()
        .map(|s| s["sort_key"].as_str().expect("key"))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(keys, sorted, "sorted by sort_key");
    assert!(systems.iter().any(|s| s["id"] == "AnotherWorld"));
}

#[tokio::test]
async fn one_system_exactly_by_id() {
    let (status, srs) = get("/v2/game_system/SRS").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(srs["ok"], true);
    assert_eq!(srs["id"], "SRS");
    assert_eq!(srs["name"], "スタンダードRPGシステム");
    assert!(
        srs["command_pattern"]
            .as_str()
            .expect("pattern")
            .starts_with("^S?(")
    );
    assert!(srs["help_message"].as_str().expect("help").contains("2D6"));
    let field_order: Vec<&str> = srs
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        field_order,
        [
            "ok",
            "id",
            "name",
            "sort_key",
            "command_pattern",
            "help_message"
        ]
    );
    assert_eq!(
        get("/v2/game_system/dicebot").await,
        (
            StatusCode::BAD_REQUEST,
            json!({"ok": false, "reason": "unsupported game system"})
        )
    );
}

#[tokio::test]
async fn rolls_with_every_field() {
    let (status, r) = get("/v2/game_system/DiceBot/roll?command=2D6%2B4%3E%3D10").await;
    assert_eq!(status, StatusCode::OK);
    let fields: Vec<&str> = r
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        fields,
        [
            "ok", "text", "secret", "success", "failure", "critical", "fumble", "rands"
        ]
    );
    assert!(
        r["text"]
            .as_str()
            .expect("text")
            .starts_with("(2D6+4>=10) ＞ "),
        "{r}"
    );
    assert_eq!(r["rands"].as_array().map(Vec::len), Some(2));
    assert_eq!(r["rands"][0]["kind"], "normal");
    // `+` is a space in a query: `2d6+1` is `2d6 1`, a 2D6 with a comment.
    let (_, r) = get("/v2/game_system/DiceBot/roll?command=2d6+1").await;
    assert!(
        r["text"].as_str().expect("text").starts_with("(2D6) ＞ "),
        "{r}"
    );
    // A secret roll is returned whole, with the flag.
    let (_, r) = get("/v2/game_system/DiceBot/roll?command=S1D6").await;
    assert_eq!(r["secret"], true);
    // Percent-encoded ids are accepted.
    let (status, _) = get("/v2/game_system/%41notherWorld/roll?command=AW%2B4").await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn form_bodies_win_over_the_query_and_json_bodies_are_not_read() {
    let request = Request::post("/v2/game_system/DiceBot/roll?command=1D4")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from("command=1D100"))
        .expect("request");
    let (status, _, _, body) = call(request).await;
    assert_eq!(status, StatusCode::OK);
    let r: Value = serde_json::from_str(&body).expect("JSON");
    assert!(
        r["text"].as_str().expect("text").starts_with("(1D100) ＞ "),
        "{r}"
    );
    let request = Request::post("/v2/game_system/DiceBot/roll")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"command":"2D6"}"#))
        .expect("request");
    let (status, _, _, body) = call(request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body, r#"{"ok":false,"reason":"unsupported command"}"#);
}

/// A `multipart/form-data` body with one text field (what browsers' `FormData` sends).
fn multipart(name: &str, value: &str) -> (String, String) {
    let boundary = "----takuFormBoundary7MA4YWxk";
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n--{boundary}--\r\n"
    );
    (format!("multipart/form-data; boundary={boundary}"), body)
}

#[tokio::test]
async fn multipart_form_bodies_are_read_and_win_over_the_query() {
    let (content_type, body) = multipart("command", "1D100 判定");
    let request = Request::post("/v2/game_system/DiceBot/roll?command=1D4")
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body))
        .expect("request");
    let (status, _, _, body) = call(request).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let r: Value = serde_json::from_str(&body).expect("JSON");
    assert!(
        r["text"].as_str().expect("text").starts_with("(1D100) ＞ "),
        "{r}"
    );

    let (content_type, body) = multipart("table", "飲み物表\n1D2\n1:麦茶\n2:緑茶");
    let request = Request::post("/v2/original_table")
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body))
        .expect("request");
    let (status, _, _, body) = call(request).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let r: Value = serde_json::from_str(&body).expect("JSON");
    assert!(
        r["text"]
            .as_str()
            .expect("text")
            .starts_with("飲み物表(1) ＞ ")
            || r["text"]
                .as_str()
                .expect("text")
                .starts_with("飲み物表(2) ＞ "),
        "{r}"
    );
}

#[tokio::test]
async fn refusals_in_the_specs_order() {
    let unsupported_system = (
        StatusCode::BAD_REQUEST,
        json!({"ok": false, "reason": "unsupported game system"}),
    );
    let unsupported_command = (
        StatusCode::BAD_REQUEST,
        json!({"ok": false, "reason": "unsupported command"}),
    );
    assert_eq!(get("/v2/game_system/Nope/roll").await, unsupported_system);
    assert_eq!(
        get("/v2/game_system/DiceBot/roll").await,
        unsupported_command
    );
    assert_eq!(
        get("/v2/game_system/DiceBot/roll?command=").await,
        unsupported_command
    );
    assert_eq!(
        get("/v2/game_system/DiceBot/roll?command=hello").await,
        unsupported_command
    );
    // An engine error is 400 with its reason (the reference: 500 {"ok":false}), in the
    // client's language: Japanese unless it asks for English (attack pass 6, A6-3).
    let (status, r) = get("/v2/game_system/DiceBot/roll?command=20000D6").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        r,
        json!({"ok": false, "reason": "ダイスが多すぎます。1 回のコマンドで振れるのは 10000 個までです"})
    );
    let (status, r) = get("/v2/game_system/DiceBot/roll?command=20000D6&lang=en").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        r,
        json!({"ok": false, "reason": "too many dice: at most 10000 dice may be drawn in one command"})
    );
    // §7.7: a path bcdice-api does not have under /v2 is its own 404, exactly, in any
    // language.
    for path in [
        "/v2",
        "/v2/",
        "/v2/version/",
        "/v2/version/?lang=en",
        "/v2/nope",
    ] {
        let (status, r) = get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(r, json!({"ok": false, "reason": "not found"}), "{path}");
    }
    // A7-4: elsewhere, a path nothing answers is refused in the client's language
    // (Japanese unless English is asked), saying where the APIs are.
    for path in ["/v3/version", "/nope"] {
        let (status, r) = get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        let reason = r["reason"].as_str().expect("reason");
        assert!(
            reason.starts_with("このパスには何もありません")
                && reason.contains("/api/v1/openapi.json"),
            "{path}: {r}"
        );
        let (status, r) = get(&format!("{path}?lang=en")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(
            r["reason"].as_str().expect("reason").starts_with(
                "nothing is at this path: the table API is described at /api/v1/openapi.json"
            ),
            "{path}: {r}"
        );
    }
    // A7-4: a path that is not UTF-8 is a JSON refusal too, not the framework's English
    // plain text.
    let (status, r) = get("/v2/game_system/%ff/roll?command=1D6").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        r["reason"]
            .as_str()
            .expect("reason")
            .starts_with("URL を読めません。"),
        "{r}"
    );
}

#[tokio::test]
async fn the_front_page_says_what_the_server_offers() {
    let (status, cors, ctype, body) =
        call(Request::get("/").body(Body::empty()).expect("request")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(cors.as_deref(), Some("*"));
    assert!(ctype.is_some_and(|c| c.starts_with("text/html")));
    assert!(body.contains("/v2/game_system"));
}

#[tokio::test]
async fn original_tables_and_wrong_methods() {
    let table =
        "飲み物表\n1D6\n1:水\n2:緑茶\n3:麦茶\n4:コーラ\n5:オレンジジュース\n6:選ばれし者の知的飲料";
    let body = serde_urlencoded::to_string([("table", table)]).expect("form");
    let request = Request::post("/v2/original_table")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .expect("request");
    let (status, cors, _, body) = call(request).await;
    assert_eq!((status, cors.as_deref()), (StatusCode::OK, Some("*")));
    let r: Value = serde_json::from_str(&body).expect("JSON");
    let fields: Vec<&str> = r
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(fields, ["ok", "text", "rands"]);
    assert!(
        r["text"].as_str().expect("text").starts_with("飲み物表("),
        "{r}"
    );
    assert_eq!(r["rands"][0]["sides"], 6);

    let request = Request::post("/v2/original_table")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from("table=T%0A1D3%0A1:a"))
        .expect("request");
    let (status, _, _, body) = call(request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        // A7-13: the refusal says what is missing.
        body.starts_with(r#"{"ok":false,"reason":"2, 3 の行がありません。1D3 が出しうる値"#),
        "{body}"
    );
    let request = Request::post("/v2/original_table?lang=en")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from("table=T%0A1D3%0A1:a"))
        .expect("request");
    let (_, _, _, body) = call(request).await;
    assert!(
        body.starts_with(r#"{"ok":false,"reason":"no row for 2, 3: write one row"#),
        "{body}"
    );

    // GET on a POST route and POST on a GET route: 404 as any unknown route.
    for (method, path) in [
        ("GET", "/v2/original_table"),
        ("POST", "/v2/version"),
        ("DELETE", "/v2/game_system/DiceBot/roll"),
    ] {
        let request = Request::builder()
            .method(method)
            .uri(path)
            .body(Body::empty())
            .expect("request");
        let response = taku_server::router()
            .oneshot(request)
            .await
            .expect("infallible");
        // §7.7: bcdice-api's own 404, exactly.
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{method} {path}");
        let body = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        let r: Value = serde_json::from_slice(&body).expect("JSON");
        assert_eq!(
            r,
            json!({"ok": false, "reason": "not found"}),
            "{method} {path}"
        );
    }
    // Outside bcdice-api a wrong method is a 405 in the client's language: table_api.rs.
}

#[tokio::test]
async fn oversized_bodies_are_refused_with_json() {
    let body = format!("command={}", "1".repeat(taku_server::MAX_BODY + 1));
    let request = Request::post("/v2/game_system/DiceBot/roll")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .expect("request");
    let (status, cors, ctype, body) = call(request).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(cors.as_deref(), Some("*"));
    assert_eq!(ctype.as_deref(), Some("application/json"));
    // Said in Japanese, the default when the client names no language (A5-5).
    assert_eq!(
        body,
        format!(
            r#"{{"ok":false,"reason":"リクエストの本文が大きすぎます。{} バイトまでです"}}"#,
            taku_server::MAX_BODY
        )
    );
}
