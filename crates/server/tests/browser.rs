//! The web table in a real browser (issue 17): Debian's headless Chromium driven through
//! chromedriver by thirtyfour. A GM creates a table, two players join in separate
//! browser sessions, a roll appears live in all three, a secret roll is a placeholder for
//! the other player until revealed, a CCFOLIA character imports and its palette line is
//! picked and sent with `{field}` read from the character, `HP-10` moves the bar, an Enter that confirms an IME conversion does not
//! send, every page reconnects after the server restarts, and screenshots at desktop and
//! phone widths are written under the target directory (`web-screenshots/`) for review.
//!
//! Never skipped: without /usr/bin/chromium and /usr/bin/chromedriver the test fails
//! (tools/test-all.sh installs them).

use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use taku_server::{Config, Server};
use taku_table::store::Store;
use thirtyfour::prelude::*;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// chromedriver, stopped (by its own process id) when the test ends.
struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

async fn chromedriver() -> Driver {
    assert!(
        std::path::Path::new(CHROMIUM).exists() && std::path::Path::new(CHROMEDRIVER).exists(),
        "the browser tests need Debian's chromium and chromium-driver: tools/test-all.sh installs them (apt-get install chromium chromium-driver)"
    );
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let url = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(20);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Driver { child, url }
}

/// A browser session of its own (a fresh profile directory), `width` pixels wide.
async fn browser(driver: &Driver, name: &str, width: u32, height: u32) -> WebDriver {
    let profile = std::env::temp_dir().join(format!("taku-chromium-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let mut caps = DesiredCapabilities::chrome();
    caps.set_binary(CHROMIUM).expect("binary");
    for arg in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--lang=ja",
        &format!("--window-size={width},{height}"),
        &format!("--user-data-dir={}", profile.display()),
    ] {
        caps.add_arg(arg).expect("arg");
    }
    let b = WebDriver::new(driver.url.clone(), caps)
        .await
        .expect("a Chromium session");
    b.set_window_rect(0, 0, width, height).await.expect("size");
    b
}

/// Waits until `script` (a JavaScript expression) is truthy in `b`.
async fn until(b: &WebDriver, what: &str, script: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let v = b
            .execute(format!("return ({script});"), Vec::<Value>::new())
            .await
            .expect("script")
            .json()
            .clone();
        let truthy = match &v {
            Value::Null | Value::Bool(false) => false,
            Value::String(s) => !s.is_empty(),
            Value::Number(n) => n.as_f64() != Some(0.0),
            _ => true,
        };
        if truthy {
            return v;
        }
        if Instant::now() > deadline {
            let page = b.source().await.unwrap_or_default();
            panic!("timed out waiting for {what} ({script}); page:\n{page}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Clicks the element `css` finds, finding it again if the page re-rendered it between
/// finding and clicking (a live update can replace the side pane at any moment).
async fn click(b: &WebDriver, css: &str, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let clicked = match b.find(By::Css(css)).await {
            Ok(element) => element.click().await,
            Err(e) => Err(e),
        };
        match clicked {
            Ok(()) => return,
            Err(_) if Instant::now() < deadline => tokio::task::yield_now().await,
            Err(e) => panic!("{what}: {e:?}"),
        }
    }
}

async fn eval(b: &WebDriver, script: &str) -> Value {
    b.execute(script, Vec::<Value>::new())
        .await
        .expect("script")
        .json()
        .clone()
}

/// Types `text` in the command line and presses Enter.
async fn say(b: &WebDriver, text: &str) {
    let line = b.find(By::Id("line")).await.expect("command line");
    line.send_keys(text).await.expect("type");
    line.send_keys(Key::Enter).await.expect("enter");
}

/// The log's last entry of `kind`, as text.
fn last_of(kind: &str) -> String {
    format!("[...document.querySelectorAll('#log li.kind-{kind}')].map(li => li.textContent).pop()")
}

/// Waits until the log's last entry of `kind` contains `needle`; gives its text.
async fn until_last(b: &WebDriver, kind: &str, needle: &str) -> String {
    let script = format!("({}) || ''", last_of(kind));
    let what = format!("the last {kind} to read {needle}");
    let check = format!("({script}).includes({}) && ({script})", json!(needle));
    until(b, &what, &check)
        .await
        .as_str()
        .expect("text")
        .to_string()
}

async fn join(b: &WebDriver, invite: &str, name: &str) {
    b.goto(invite).await.expect("invite link");
    let field = b
        .find(By::Css("#join input[name=name]"))
        .await
        .expect("name");
    field.send_keys(name).await.expect("type");
    click(b, "#join button", "join").await;
    until(
        b,
        "the table page",
        "document.body.dataset.page === 'table'",
    )
    .await;
    until(
        b,
        "the live socket",
        "document.getElementById('status').dataset.state === 'open'",
    )
    .await;
}

fn screenshots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .join("web-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gm_and_two_players_play_in_real_browsers() {
    let dir = std::env::temp_dir().join(format!("taku-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = Store::open(&dir.join("taku.db").display().to_string())
        .await
        .expect("store");
    let server: Arc<Server> = Server::new(
        store,
        &Config {
            rate_limit: 0,
            lines_per_minute: 0,
            line_bytes_per_minute: 0,
            ..Config::default()
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let site = format!("http://{addr}");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let first_server = tokio::spawn(taku_server::serve(listener, server, async {
        let _ = stopped.await;
    }));

    let driver = chromedriver().await;
    let gm = browser(&driver, "gm", 1280, 800).await;
    let alice = browser(&driver, "alice", 1280, 800).await;
    let bob = browser(&driver, "bob", 390, 844).await;

    // The GM creates a table from the front page.
    gm.goto(format!("{site}/")).await.expect("front page");
    assert_eq!(
        eval(&gm, "return document.documentElement.lang").await,
        json!("ja")
    );
    eval(
        &gm,
        "document.querySelector('select[name=system]').value = 'DiceBot'",
    )
    .await;
    gm.find(By::Css("input[name=name]"))
        .await
        .expect("name")
        .send_keys("ブラウザ卓")
        .await
        .expect("type");
    gm.find(By::Css("input[name=gm]"))
        .await
        .expect("gm")
        .send_keys("GM")
        .await
        .expect("type");
    click(&gm, "form.create button", "create").await;
    let invites = until(
        &gm,
        "the GM page",
        "document.body.dataset.page === 'gm' && [...document.querySelectorAll('#invites-player a')].map(a => a.href)",
    )
    .await;
    let invites: Vec<String> = serde_json::from_value(invites).expect("links");
    assert_eq!(invites.len(), 4);
    let spectators = eval(
        &gm,
        "return document.querySelectorAll('#invites-spectator a').length",
    )
    .await;
    assert_eq!(spectators, json!(2));
    click(&gm, "a.button", "enter").await;
    until(
        &gm,
        "the GM's live socket",
        "document.getElementById('status').dataset.state === 'open'",
    )
    .await;
    // The personal link's token has left the address bar for the browser's storage.
    let url = gm.current_url().await.expect("url");
    assert!(url.fragment().is_none(), "{url}");
    assert_eq!(
        until(
            &gm,
            "the table name",
            "document.getElementById('table-name').textContent"
        )
        .await,
        json!("ブラウザ卓")
    );

    // Two players join in their own sessions.
    join(&alice, &invites[0], "alice").await;
    join(&bob, &invites[1], "bob").await;

    // A roll appears live in all three.
    say(&alice, "2D6>=2 命中").await;
    for (who, b) in [("gm", &gm), ("alice", &alice), ("bob", &bob)] {
        let text = until_last(b, "roll", "命中").await;
        assert!(
            text.contains("命中") && text.contains("成功"),
            "{who}: {text}"
        );
        let class = eval(
            b,
            "return document.querySelector('#log li.kind-roll').className",
        )
        .await;
        assert!(class.as_str().expect("class").contains("outcome-success"));
    }

    // W9-1/W9-6/W9-7: a reply for the member alone (/help) is information with its
    // lines kept, not the red alert; a refusal is the alert, its caret on its own line.
    say(&bob, "/help").await;
    let help = until(
        &bob,
        "bob's help reply",
        "!document.getElementById('table-reply').hidden && document.getElementById('reply-text').textContent",
    )
    .await;
    assert!(help.as_str().expect("text").contains('\n'), "{help}");
    let shown = eval(
        &bob,
        "return [document.getElementById('table-error').hidden, getComputedStyle(document.getElementById('reply-text')).whiteSpace]",
    )
    .await;
    assert_eq!(shown, json!([true, "pre-wrap"]), "{shown}");
    say(&bob, "2D6+>=7").await;
    until(
        &bob,
        "the refusal as an alert, the reply gone",
        "!document.getElementById('table-error').hidden && document.getElementById('table-reply').hidden && document.getElementById('table-error').textContent.includes('^')",
    )
    .await;
    // A refused line stays in the input to be corrected; clear it.
    eval(
        &bob,
        "document.getElementById('line').value = ''; return true",
    )
    .await;

    // A secret roll: a placeholder for the other player, the result and the reveal
    // button for its roller.
    say(&alice, "S2D6 こっそり").await;
    let secret = until(
        &alice,
        "alice's secret roll",
        "[...document.querySelectorAll('#log li.kind-roll.secret')].map(li => li.dataset.seq).pop()",
    )
    .await;
    let secret = secret.as_str().expect("seq").to_string();
    let sel = format!("#log li[data-seq='{secret}']");
    until(
        &bob,
        "the placeholder",
        &format!("document.querySelector(\"{sel}\")"),
    )
    .await;
    let bobs = eval(
        &bob,
        &format!("return document.querySelector(\"{sel}\").textContent"),
    )
    .await;
    let bobs = bobs.as_str().expect("text");
    assert!(
        bobs.contains("シークレットダイス") && !bobs.contains("こっそり"),
        "{bobs}"
    );
    assert_eq!(
        eval(
            &bob,
            &format!("return !!document.querySelector(\"{sel} [data-reveal]\")")
        )
        .await,
        json!(false)
    );
    let gms = until(
        &gm,
        "the GM reads the secret",
        &format!(
            "document.querySelector(\"{sel}\") && document.querySelector(\"{sel}\").textContent"
        ),
    )
    .await;
    assert!(gms.as_str().expect("text").contains("こっそり"));
    // Alice reveals it from her page; bob's entry then reads the result.
    click(&alice, &format!("{sel} [data-reveal]"), "reveal button").await;
    until(
        &bob,
        "the revealed result",
        &format!("document.querySelector(\"{sel}\").textContent.includes('こっそり')"),
    )
    .await;

    // CCFOLIA import from the page, then the palette: typing filters, ↑ picks, Enter
    // sends, `{知覚}` read from the character.
    click(&alice, "details.import summary", "import").await;
    let clip = json!({"kind": "character", "data": {
        "name": "ミナ",
        "status": [{"label": "HP", "value": 12, "max": 20}],
        "params": [{"label": "知覚", "value": "3"}],
        "commands": "2D6+{知覚}>=10 知覚判定\n1D6 HP{HP}"
    }});
    alice
        .execute(
            "document.querySelector('#import textarea').value = arguments[0];",
            vec![json!(clip.to_string())],
        )
        .await
        .expect("paste");
    click(&alice, "#import button", "import button").await;
    let odds = until(
        &alice,
        "the palette with odds",
        "document.querySelector('#palette-source .odds') && document.querySelector('#palette-source .odds').textContent",
    )
    .await;
    assert_eq!(odds, json!("58.3%"));
    until(
        &alice,
        "the HP meter",
        "document.querySelector('article[data-character=\"ミナ\"] meter[value=\"12\"]')",
    )
    .await;
    let aline = alice.find(By::Id("line")).await.expect("command line");
    aline.send_keys("知覚").await.expect("type");
    until(
        &alice,
        "the palette list",
        "!document.getElementById('palette').hidden",
    )
    .await;
    alice
        .screenshot(&screenshots().join("table-palette.png"))
        .await
        .expect("palette screenshot");
    aline.send_keys(Key::Up).await.expect("pick");
    aline.send_keys(Key::Enter).await.expect("send");
    for b in [&gm, &alice, &bob] {
        let roll = until_last(b, "roll", "知覚判定").await;
        assert!(
            roll.contains("2D6+3>=10") && roll.contains("知覚判定"),
            "{roll}"
        );
    }

    // A status command moves the bar, for everyone.
    say(&alice, "HP-10").await;
    for b in [&gm, &alice, &bob] {
        until(
            b,
            "HP 2/20",
            "document.querySelector('article[data-character=\"ミナ\"] meter[value=\"2\"][max=\"20\"]')",
        )
        .await;
    }

    // IME: an Enter that confirms a conversion never sends.
    let line = bob.find(By::Id("line")).await.expect("command line");
    line.click().await.expect("focus");
    let entries = |b: &WebDriver| {
        let b = b.clone();
        async move { eval(&b, "return document.querySelectorAll('#log li').length").await }
    };
    let before = entries(&bob).await;
    // A real composition through DevTools, confirmed with Enter.
    let devtools = bob.cdp();
    devtools
        .send_raw(
            "Input.imeSetComposition",
            json!({"text": "にほんご", "selectionStart": 4, "selectionEnd": 4}),
        )
        .await
        .expect("compose");
    assert_eq!(
        eval(&bob, "return document.getElementById('line').value").await,
        json!("にほんご")
    );
    for kind in ["rawKeyDown", "keyUp"] {
        devtools
            .send_raw(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": "Enter", "code": "Enter",
                       "windowsVirtualKeyCode": 229, "nativeVirtualKeyCode": 229}),
            )
            .await
            .expect("enter");
    }
    devtools
        .send_raw("Input.insertText", json!({"text": "にほんご"}))
        .await
        .expect("commit");
    // The browser's own events as an IME sends them: Enter while composing (Chrome,
    // Firefox), and Safari's Enter just after compositionend.
    eval(
        &bob,
        "const l = document.getElementById('line');
         l.dispatchEvent(new CompositionEvent('compositionstart', {bubbles: true}));
         l.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', isComposing: true, bubbles: true, cancelable: true}));
         l.dispatchEvent(new CompositionEvent('compositionend', {bubbles: true, data: 'にほんご'}));
         l.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true, cancelable: true}));",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(entries(&bob).await, before, "an IME Enter sent a line");
    let value = eval(&bob, "return document.getElementById('line').value").await;
    assert!(
        value.as_str().expect("value").contains("にほんご"),
        "{value}"
    );
    // Shift+Enter breaks the line; a plain Enter afterwards sends.
    tokio::time::sleep(Duration::from_millis(100)).await;
    line.send_keys(Key::Shift + Key::Enter)
        .await
        .expect("shift+enter");
    line.send_keys("です").await.expect("type");
    assert!(
        eval(&bob, "return document.getElementById('line').value")
            .await
            .as_str()
            .expect("value")
            .contains('\n')
    );
    line.send_keys(Key::Enter).await.expect("enter");
    for b in [&gm, &alice, &bob] {
        let chat = until_last(b, "chat", "です").await;
        assert!(chat.contains("です"), "{chat}");
    }
    // ↑ brings the last line back.
    line.send_keys(Key::Up).await.expect("up");
    assert!(
        eval(&bob, "return document.getElementById('line').value")
            .await
            .as_str()
            .expect("value")
            .contains("です")
    );

    // Tabs: bob talks in 雑談; there it shows, in メイン it does not; the GM, still on
    // メイン, sees the 雑談 tab count it as unread until opening it, which shows it (the
    // page loads each tab's entries from the whole log when the tab opens).
    click(&bob, "#tabs [data-tab='雑談']", "the 雑談 tab").await;
    line.clear().await.expect("clear the recalled line");
    say(&bob, "おはよう雑談").await;
    let in_chat = "[...document.querySelectorAll('#log li.kind-chat')].find(li => li.textContent.includes('おはよう雑談'))";
    until(&bob, "the 雑談 line", in_chat).await;
    assert_eq!(
        eval(&bob, &format!("return {in_chat}.dataset.tab")).await,
        json!("雑談")
    );
    assert_eq!(
        eval(&bob, &format!("return {in_chat}.hidden")).await,
        json!(false)
    );
    for b in [&gm, &alice] {
        let unread = until(
            b,
            "an unread count on 雑談",
            "document.querySelector(\"#tabs [data-tab='雑談'] .unread\").textContent",
        )
        .await;
        assert_eq!(unread, json!(" (1)"));
        assert_eq!(
            eval(b, &format!("return {in_chat} === undefined")).await,
            json!(true),
            "メイン does not show talk in 雑談"
        );
    }
    click(&gm, "#tabs [data-tab='雑談']", "the GM's 雑談 tab").await;
    until(&gm, "the 雑談 line in the GM's 雑談 tab", in_chat).await;
    assert_eq!(
        eval(
            &gm,
            &format!("return [{in_chat}.hidden, {in_chat}.dataset.tab]")
        )
        .await,
        json!([false, "雑談"])
    );
    // Dice in 雑談 still roll, in メイン: not in the GM's 雑談 tab, there once it opens.
    say(&bob, "1D6 雑談から").await;
    let rolled = "[...document.querySelectorAll('#log li.kind-roll')].find(li => li.textContent.includes('雑談から'))";
    let main_unread = until(
        &gm,
        "an unread count on メイン",
        "document.querySelector(\"#tabs [data-tab='main'] .unread\").textContent",
    )
    .await;
    assert_eq!(main_unread, json!(" (1)"));
    assert_eq!(
        eval(&gm, &format!("return {rolled} === undefined")).await,
        json!(true)
    );
    click(&gm, "#tabs [data-tab='main']", "the GM's メイン tab").await;
    until(&gm, "bob's roll from 雑談", rolled).await;
    assert_eq!(
        eval(&gm, &format!("return {rolled}.dataset.tab")).await,
        json!("main")
    );
    // The GM adds a tab from the GM tools; it appears for the players.
    click(&gm, "details.gm-tools summary", "GM tools").await;
    gm.execute(
        "document.querySelector('#add-tab input[name=tab]').value = '情報';",
        Vec::<Value>::new(),
    )
    .await
    .expect("tab name");
    click(&gm, "#add-tab button", "add the tab").await;
    until(
        &alice,
        "the new tab",
        "document.querySelector(\"#tabs [data-tab='情報']\")",
    )
    .await;
    click(&gm, "#tabs [data-tab='main']", "back to メイン").await;
    click(&bob, "#tabs [data-tab='main']", "back to メイン").await;

    // The server restarts: every page reconnects by itself and follows the table again.
    stop.send(()).expect("stop");
    tokio::time::timeout(Duration::from_secs(20), first_server)
        .await
        .expect("the server stops")
        .expect("join")
        .expect("served");
    for b in [&gm, &alice, &bob] {
        until(
            b,
            "the page to notice",
            "document.getElementById('status').dataset.state === 'closed'",
        )
        .await;
    }
    let store = Store::open(&dir.join("taku.db").display().to_string())
        .await
        .expect("store again");
    let server: Arc<Server> = Server::new(
        store,
        &Config {
            rate_limit: 0,
            lines_per_minute: 0,
            line_bytes_per_minute: 0,
            ..Config::default()
        },
    );
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .expect("the same address");
    tokio::spawn(taku_server::serve(listener, server, std::future::pending()));
    for b in [&gm, &alice, &bob] {
        until(
            b,
            "the page to reconnect",
            "document.getElementById('status').dataset.state === 'open'",
        )
        .await;
    }
    say(&alice, "ただいま").await;
    for b in [&gm, &alice, &bob] {
        let chat = until_last(b, "chat", "ただいま").await;
        assert!(chat.contains("ただいま"), "{chat}");
    }
    // Exactly once each: a reconnect resumes after the last entry shown.
    let counts = eval(
        &gm,
        "const seqs = [...document.querySelectorAll('#log li')].map(li => li.dataset.seq);
         return seqs.length === new Set(seqs).size",
    )
    .await;
    assert_eq!(counts, json!(true));

    // Screenshots for review: the GM's desktop page, bob's phone page.
    let shots = screenshots();
    gm.screenshot(&shots.join("table-desktop.png"))
        .await
        .expect("desktop screenshot");
    bob.screenshot(&shots.join("table-phone.png"))
        .await
        .expect("phone screenshot");
    let phone_columns = eval(
        &bob,
        "return getComputedStyle(document.querySelector('.table')).gridTemplateColumns.split(' ').length",
    )
    .await;
    assert_eq!(phone_columns, json!(1), "one column on a phone");

    // GM tools: a new invite link, then the table's language, which every page follows.
    eval(
        &gm,
        "document.querySelector('details.gm-tools').open = true",
    )
    .await;
    click(&gm, "[data-invite=player]", "invite button").await;
    let link = until(
        &gm,
        "a new invite link",
        "document.querySelector('#new-invites a') && document.querySelector('#new-invites a').href",
    )
    .await;
    assert!(link.as_str().expect("href").contains("/join#invite="));
    click(&gm, "[data-line='/lang en']", "English").await;
    for b in [&gm, &alice, &bob] {
        until(
            b,
            "the page in English",
            "document.documentElement.lang === 'en' && document.getElementById('status').dataset.state === 'open'",
        )
        .await;
    }
    let label = eval(
        &bob,
        "return document.querySelector('.command label').textContent",
    )
    .await;
    assert_eq!(label, json!("Chat or command"));

    for b in [gm, alice, bob] {
        b.quit().await.expect("quit");
    }
}

/// One HTTP/1.1 request with a JSON body over its own connection; the answer's JSON.
async fn http_json(addr: std::net::SocketAddr, path: &str, body: &Value) -> Value {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.expect("read");
    let answer = String::from_utf8(answer).expect("utf-8");
    let (_, body) = answer.split_once("\r\n\r\n").expect("an answer");
    serde_json::from_str(body).expect("json")
}

/// A long log stays windowed (issue 17: 5,000 entries must stay smooth): the page holds
/// at most its window of entries while the member scrolls all the way back and down
/// again, and a live roll still arrives; an Another World table shows its panel (AW-3
/// combat order) from the system's typed view.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_log_stays_windowed_and_another_world_shows_its_table_panel() {
    let dir = std::env::temp_dir().join(format!("taku-browser-long-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = Store::open(&dir.join("taku.db").display().to_string())
        .await
        .expect("store");
    let server: Arc<Server> = Server::new(
        store,
        &Config {
            rate_limit: 0,
            lines_per_minute: 0,
            line_bytes_per_minute: 0,
            ..Config::default()
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(taku_server::serve(
        listener,
        server.clone(),
        std::future::pending(),
    ));
    let made = http_json(
        addr,
        "/api/v1/tables",
        &json!({"system": "AnotherWorld", "name": "長い卓", "gm": "gm", "invites": 1}),
    )
    .await;
    let id = made["id"].as_str().expect("id").to_string();
    let gm_token = made["token"].as_str().expect("token").to_string();
    let tables = server.tables();
    let sheet = |name: &str, action: i64| {
        format!(
            "name = \"{name}\"\nkind = \"PC\"\n\"理知\" = 3\n\"知覚\" = 2\n\"反射\" = 4\n\"体力\" = 2\n\
             \"幸運\" = 1\n\"行動値\" = {action}\nHP = 20\nMP = 15\n"
        )
    };
    for (name, action) in [("ミナ", 9), ("ロイ", 7)] {
        tables
            .exec_sheet(&id, "gm", &sheet(name, action), None)
            .await
            .expect("store")
            .expect("sheet");
    }
    // Talk in 雑談 long before the last page (issue 17: a tab shows its entries from the
    // whole log, not only from the window loaded).
    tables
        .exec(&id, "gm", "/tab 雑談 はじまりの雑談", None)
        .await
        .expect("store")
        .expect("tab chat");
    for i in 0..1200 {
        tables
            .exec(&id, "gm", &format!("長い話 {i}"), None)
            .await
            .expect("store")
            .expect("chat");
    }
    tables
        .exec(&id, "gm", "/combat start ミナ ロイ", None)
        .await
        .expect("store")
        .expect("combat");
    let last = 1 + 2 + 1 + 1200 + 1;

    let driver = chromedriver().await;
    let gm = browser(&driver, "long-gm", 1280, 800).await;
    gm.goto(format!("http://{addr}/t/{id}#token={gm_token}"))
        .await
        .expect("table page");
    until(
        &gm,
        "the live socket",
        "document.getElementById('status').dataset.state === 'open'",
    )
    .await;
    let count = "document.querySelectorAll('#log li').length";
    let first = "Number(document.querySelector('#log li').dataset.seq)";
    let last_shown = "Number(document.querySelector('#log li:last-child').dataset.seq)";
    assert_eq!(eval(&gm, &format!("return {count}")).await, json!(100));
    assert_eq!(
        eval(&gm, &format!("return {last_shown}")).await,
        json!(last)
    );
    // The AW panel: the combat's order by action value.
    let panel = until(
        &gm,
        "the table panel",
        "document.querySelector('article[data-card=panel]') && document.querySelector('article[data-card=panel]').textContent",
    )
    .await;
    let panel = panel.as_str().expect("text");
    assert!(
        panel.contains("戦闘") && panel.contains("ミナ 9") && panel.contains("ロイ 7"),
        "{panel}"
    );
    gm.screenshot(&screenshots().join("table-another-world.png"))
        .await
        .expect("screenshot");
    // 雑談: its one line, 1,200 entries before the window, is there; back in メイン, the
    // last page again.
    click(&gm, "#tabs [data-tab='雑談']", "the 雑談 tab").await;
    until(
        &gm,
        "the early 雑談 talk",
        "document.querySelectorAll('#log li').length === 1 && document.querySelector('#log li').textContent.includes('はじまりの雑談')",
    )
    .await;
    assert_eq!(
        eval(&gm, "return document.getElementById('older').hidden").await,
        json!(true),
        "nothing older in 雑談"
    );
    click(&gm, "#tabs [data-tab='main']", "back to メイン").await;
    until(
        &gm,
        "the main tab's last page",
        &format!("{count} === 100 && {last_shown} === {last}"),
    )
    .await;
    // All the way back, a page at a time: never more than the window on the page. (The
    // buttons do the same as scrolling; a reader scrolls.)
    let mut most = 0;
    for _ in 0..30 {
        if eval(&gm, &format!("return {first}")).await == json!(1) {
            break;
        }
        // Scrolled to the top, as a reader does: the page loads the page before.
        eval(&gm, "document.querySelector('.log-pane').scrollTop = 0").await;
        tokio::time::sleep(Duration::from_millis(150)).await;
        let n = eval(&gm, &format!("return {count}"))
            .await
            .as_u64()
            .expect("n");
        most = most.max(n);
    }
    assert_eq!(eval(&gm, &format!("return {first}")).await, json!(1));
    assert!(most <= 400, "{most} entries on the page");
    assert_eq!(
        eval(&gm, "return document.getElementById('newer').hidden").await,
        json!(false)
    );
    // A live line while scrolled back is not shown yet, and not lost.
    tables
        .exec(&id, "gm", "今の発言", None)
        .await
        .expect("store")
        .expect("chat");
    // (the hub only hears of lines posted through the server: post one that way)
    let posted = {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let body = json!({"line": "2D6 生の発言"}).to_string();
        let request = format!(
            "POST /api/v1/tables/{id}/lines HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
             Authorization: Bearer {gm_token}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        stream.write_all(request.as_bytes()).await.expect("write");
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.expect("read");
        String::from_utf8(answer).expect("utf-8")
    };
    assert!(posted.starts_with("HTTP/1.1 200"), "{posted}");
    // Down again to the newest: the window follows, the new lines are there once each.
    for _ in 0..30 {
        if eval(&gm, "return document.getElementById('newer').hidden").await == json!(true) {
            break;
        }
        eval(
            &gm,
            "const p = document.querySelector('.log-pane'); p.scrollTop = p.scrollHeight",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(150)).await;
        let n = eval(&gm, &format!("return {count}"))
            .await
            .as_u64()
            .expect("n");
        assert!(n <= 400, "{n} entries on the page");
    }
    until(
        &gm,
        "the live roll at the end",
        "document.querySelector('#log li:last-child').textContent.includes('生の発言')",
    )
    .await;
    let unique = eval(
        &gm,
        "const seqs = [...document.querySelectorAll('#log li')].map(li => Number(li.dataset.seq));
         return seqs.every((s, i) => i === 0 || s === seqs[i - 1] + 1)",
    )
    .await;
    assert_eq!(
        unique,
        json!(true),
        "one contiguous run of entries, each once"
    );
    assert!(
        eval(&gm, "return document.body.textContent.includes('今の発言')")
            .await
            .as_bool()
            .expect("bool")
    );
    gm.quit().await.expect("quit");
}

/// Waits until `b` shows a `confirm()` dialog; its text.
async fn until_dialog(b: &WebDriver, what: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if let Ok(text) = b.get_alert_text().await {
            return text;
        }
        assert!(Instant::now() < deadline, "no dialog: {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Attack pass 2, A2-17: a personal link of another member (posted in chat, say) never
/// silently replaces the identity a browser holds at a table. Opening eve's link in
/// alice's browser asks, naming both; cancelling keeps alice (and the page says "you:
/// alice"); accepting switches to eve and keeps alice's token aside. A join from a
/// browser that already takes part asks first too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_never_silently_replaces_the_identity_a_browser_holds() {
    let dir = std::env::temp_dir().join(format!("taku-browser-who-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = Store::open(&dir.join("taku.db").display().to_string())
        .await
        .expect("store");
    let server: Arc<Server> = Server::new(store, &Config::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(taku_server::serve(listener, server, std::future::pending()));
    let made = http_json(
        addr,
        "/api/v1/tables",
        &json!({"system": "DiceBot", "name": "卓", "gm": "gm", "invites": 3}),
    )
    .await;
    let id = made["id"].as_str().expect("id").to_string();
    let invite = |i: usize| {
        made["invites"][i]["token"]
            .as_str()
            .expect("invite")
            .to_string()
    };
    let mut tokens = Vec::new();
    for (i, name) in ["alice", "eve"].iter().enumerate() {
        let joined = http_json(
            addr,
            &format!("/api/v1/tables/{id}/join"),
            &json!({"invite": invite(i), "name": name}),
        )
        .await;
        tokens.push(joined["token"].as_str().expect("token").to_string());
    }
    let (alice, eve) = (&tokens[0], &tokens[1]);
    let stored = format!("localStorage.getItem('taku:token:{id}')");
    let previous = format!("localStorage.getItem('taku:token:{id}:previous')");
    let whoami = "document.getElementById('whoami-name').textContent";

    let driver = chromedriver().await;
    let b = browser(&driver, "who", 1024, 768).await;
    b.goto(format!("http://{addr}/t/{id}#token={alice}"))
        .await
        .expect("alice's link");
    until(
        &b,
        "alice at the table",
        &format!("{whoami}.startsWith('alice')"),
    )
    .await;
    // Eve's link, opened in alice's browser: asked, cancelled, still alice.
    b.goto("about:blank").await.expect("away");
    b.goto(format!("http://{addr}/t/{id}#token={eve}"))
        .await
        .expect("eve's link");
    let asked = until_dialog(&b, "the switch is asked").await;
    assert!(asked.contains("eve") && asked.contains("alice"), "{asked}");
    b.dismiss_alert().await.expect("cancel");
    until(&b, "still alice", &format!("{whoami}.startsWith('alice')")).await;
    assert_eq!(eval(&b, &format!("return {stored};")).await, json!(alice));
    assert_eq!(eval(&b, "return location.hash;").await, json!(""));
    // The same link followed within the page (a hash change): asked again; accepted.
    b.execute(
        format!("location.hash = 'token={eve}';"),
        Vec::<Value>::new(),
    )
    .await
    .expect("hash");
    until_dialog(&b, "the switch is asked again").await;
    b.accept_alert().await.expect("switch");
    until(&b, "now eve", &format!("{whoami}.startsWith('eve')")).await;
    assert_eq!(eval(&b, &format!("return {stored};")).await, json!(eve));
    assert_eq!(eval(&b, &format!("return {previous};")).await, json!(alice));
    // A join from this browser asks before replacing eve; cancelled, nothing joins.
    b.goto(format!("http://{addr}/t/{id}/join#invite={}", invite(2)))
        .await
        .expect("invite");
    let field = b
        .find(By::Css("#join input[name=name]"))
        .await
        .expect("name");
    field.send_keys("mallory").await.expect("type");
    click(&b, "#join button", "join").await;
    let asked = until_dialog(&b, "joining again is asked").await;
    assert!(asked.contains("eve"), "{asked}");
    b.dismiss_alert().await.expect("cancel");
    assert_eq!(eval(&b, &format!("return {stored};")).await, json!(eve));
    assert_eq!(
        eval(&b, "return document.body.dataset.page;").await,
        json!("join")
    );
    // A2-17's residue: the server failing to answer for the stored token (here the first
    // state request with eve's token is answered 429, as a busy server would) does not
    // make it "invalid": alice's link is asked about, never silently put in eve's place.
    b.cdp()
        .send_raw(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": format!(
                "(() => {{ const real = window.fetch; let n = 0; \
                 window.fetch = (url, init) => {{ \
                   const auth = init && init.headers && init.headers.Authorization; \
                   if (String(url) === '/api/v1/tables/{id}' && auth === 'Bearer {eve}' && n++ === 0) \
                     return Promise.resolve(new Response('{{\"ok\":false,\"reason\":\"busy\"}}', \
                       {{ status: 429, headers: {{ 'Retry-After': '1' }} }})); \
                   return real(url, init); }}; }})();"
            )}),
        )
        .await
        .expect("a busy answer for eve's first state request");
    b.goto(format!("http://{addr}/t/{id}#token={alice}"))
        .await
        .expect("alice's link while the server is busy");
    let asked = until_dialog(&b, "the switch is asked though eve was not confirmed").await;
    // Eve is named as a member the server could not confirm (the busy answer was seen).
    assert!(
        asked.contains("alice") && asked.contains("確かめられない"),
        "{asked}"
    );
    b.dismiss_alert().await.expect("cancel");
    assert_eq!(eval(&b, &format!("return {stored};")).await, json!(eve));
    b.quit().await.expect("quit");
}
