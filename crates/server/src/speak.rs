//! The language a refusal is said in when it has no table to take one from.
//!
//! At a table every refusal is in the table's language (Japanese unless its GM chose
//! another), and the web pages are in the language of `?lang=` (Japanese by default). A
//! refusal with no table at hand — a bcdice-api client over its share, a table this
//! server cannot open — is said in the client's language: `?lang=ja|en` when the request
//! has one (as the web pages read it), else the first of Japanese and English in its
//! `Accept-Language` by preference, else Japanese. Never both at once in one string.

use axum::extract::Request;
use axum::http::{HeaderMap, header};
use axum::middleware::Next;
use axum::response::Response;
use serde_json::json;
use taku_dice::{Lang, Text};

/// The language `query` and `headers` ask for: `lang=ja|en` in the query, else
/// `Accept-Language` (the most preferred of `ja` and `en`, by `q`, the first on a tie),
/// else Japanese.
pub fn client_lang(query: Option<&str>, headers: &HeaderMap) -> Lang {
    if let Some(lang) = query.and_then(query_lang) {
        return lang;
    }
    headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(accept_language)
        .unwrap_or(Lang::Ja)
}

/// `lang=ja|en` among a query string's parameters (the last repeat wins).
fn query_lang(query: &str) -> Option<Lang> {
    query
        .split('&')
        .filter_map(|pair| pair.strip_prefix("lang="))
        .rev()
        .find_map(|v| match v {
            "ja" => Some(Lang::Ja),
            "en" => Some(Lang::En),
            _ => None,
        })
}

/// The most preferred of Japanese and English in an `Accept-Language` value (RFC 9110
/// §12.5.4): `en-US;q=0.8, ja;q=0.9` is Japanese; a `q` of 0 is a refusal.
fn accept_language(value: &str) -> Option<Lang> {
    let mut best: Option<(Lang, u32)> = None;
    for item in value.split(',').take(32) {
        let mut parts = item.split(';');
        let tag = parts.next().unwrap_or("").trim();
        let primary = tag.split('-').next().unwrap_or("");
        let lang = if primary.eq_ignore_ascii_case("ja") {
            Lang::Ja
        } else if primary.eq_ignore_ascii_case("en") {
            Lang::En
        } else {
            continue;
        };
        // q in thousandths; absent is 1.
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .map(|q| {
                q.trim()
                    .parse::<f32>()
                    .map_or(0, |q| (q.clamp(0.0, 1.0) * 1000.0) as u32)
            })
            .next_back()
            .unwrap_or(1000);
        if q > 0 && best.is_none_or(|(_, b)| q > b) {
            best = Some((lang, q));
        }
    }
    best.map(|(lang, _)| lang)
}

/// A refusal's reason in both languages, on its response: [`middleware`] says it in the
/// client's language (the body is Japanese until then). A client that names no language
/// reads Japanese, as at a table (the charter: Japanese by default).
#[derive(Debug, Clone)]
pub struct Said(pub Text);

/// Rewrites the reason of a response carrying [`Said`] in the language the request asks
/// for ([`client_lang`]: `?lang=`, `Accept-Language`, else Japanese); other responses pass
/// untouched.
pub async fn middleware(request: Request, next: Next) -> Response {
    let query = request.uri().query().map(str::to_owned);
    let accept = request.headers().get(header::ACCEPT_LANGUAGE).cloned();
    let mut response = next.run(request).await;
    let mut headers = HeaderMap::new();
    if let Some(v) = accept {
        headers.insert(header::ACCEPT_LANGUAGE, v);
    }
    let said = response.extensions_mut().remove::<Said>();
    let Some(Said(text)) = said.or_else(|| unreadable_request(&response)) else {
        return response;
    };
    let reason = text
        .get(client_lang(query.as_deref(), &headers))
        .to_string();
    let body = json!({"ok": false, "reason": reason}).to_string();
    response.headers_mut().remove(header::CONTENT_LENGTH);
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    *response.body_mut() = axum::body::Body::from(body);
    response
}

/// The web framework's own 400 (a path segment that is not UTF-8, `/api/v1/tables/%ff`)
/// is English plain text; it becomes a refusal like every other, saying what is wrong
/// and what is right (attack pass 6, A6-4).
fn unreadable_request(response: &Response) -> Option<Said> {
    let plain = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/plain"));
    (response.status() == axum::http::StatusCode::BAD_REQUEST && plain).then(|| {
        Said(Text::new(
            "URL を読めません。パスに UTF-8 でない文字か、形の合わない値があります。/api/v1/openapi.json にある形（bcdice-api なら /v2/game_system/{id}/roll など、id は英数字）で送ってください",
            "the URL cannot be read: its path holds bytes that are not UTF-8 or a value of the wrong form; send it in the form /api/v1/openapi.json describes (for bcdice-api, /v2/game_system/{id}/roll and the like, the id in ASCII letters and digits)",
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(accept: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_LANGUAGE, accept.parse().expect("header"));
        h
    }

    #[test]
    fn the_query_then_accept_language_then_japanese() {
        assert_eq!(client_lang(None, &HeaderMap::new()), Lang::Ja);
        assert_eq!(client_lang(Some("lang=en"), &HeaderMap::new()), Lang::En);
        assert_eq!(client_lang(Some("x=1&lang=ja"), &with("en")), Lang::Ja);
        assert_eq!(client_lang(Some("lang=fr"), &with("en-US")), Lang::En);
        assert_eq!(client_lang(None, &with("en-GB,en;q=0.9")), Lang::En);
        assert_eq!(client_lang(None, &with("fr, en;q=0.5, ja;q=0.8")), Lang::Ja);
        assert_eq!(client_lang(None, &with("ja;q=0, en;q=0.1")), Lang::En);
        assert_eq!(client_lang(None, &with("de, fr")), Lang::Ja);
        assert_eq!(client_lang(None, &with("JA-jp;q=0.3,EN;q=0.2")), Lang::Ja);
        assert_eq!(client_lang(None, &with(";;;,q=,en;q=abc")), Lang::Ja);
    }
}
