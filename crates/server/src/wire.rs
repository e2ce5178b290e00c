//! A connection's bytes, between the socket and hyper: hyper's own answers to requests it
//! cannot read get a body.
//!
//! hyper's HTTP/1 parser answers a request line or header it cannot read (400), a URI over
//! its limit (414) and a head over its limits (431) by itself, before any of taku's code
//! sees a request, with an empty body, and it offers no hook for that answer
//! (`Server::on_error` in hyper's `proto/h1/role.rs` builds a bare head). [`Refusing`]
//! wraps the socket: it recognises that bare head as hyper writes it (status 400, 414 or
//! 431, `content-length: 0`, no `content-type` — every answer of taku's own carries a
//! JSON body and its type) and writes in its place a JSON refusal saying what was wrong and
//! what would be right, with `connection: close` (hyper closes the connection after it
//! anyway). The refusal is in the client's language as far as the unread request shows it
//! (`?lang=` within the request line's first [`LINE_KEPT`] bytes, an `Accept-Language`
//! header), else Japanese.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::http::{HeaderMap, HeaderValue, header};
use serde_json::json;
use taku_dice::{Lang, Text};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// How much of each line of a request head is kept to find the client's language in.
pub const LINE_KEPT: usize = 1024;

/// The longest URI hyper reads (its `MAX_URI_LEN`), for 414's reason.
const MAX_URI: usize = 65_534;

/// The most headers hyper reads in one request (its default), for 431's reason.
const MAX_HEADERS: usize = 100;

/// A socket whose hyper-written bare 400/414/431 heads are replaced by JSON refusals.
pub struct Refusing<S> {
    inner: S,
    head: HeadWatch,
    /// The refusal still to be written in place of hyper's bare head.
    pending: Vec<u8>,
    written: usize,
    /// After a 101 (a WebSocket): bytes only pass.
    upgraded: bool,
}

/// What the request head read so far says about the client's language.
#[derive(Default)]
struct HeadWatch {
    /// The current line's first [`LINE_KEPT`] bytes.
    line: Vec<u8>,
    /// Lines ended so far in this head (0: in the request line).
    lines: usize,
    /// The request line's query (as far as kept).
    query: Option<String>,
    accept_language: Option<HeaderValue>,
    /// The head has ended (an empty line): the body is not watched.
    ended: bool,
}

impl HeadWatch {
    fn read(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.ended {
                return;
            }
            if b != b'\n' {
                if self.line.len() < LINE_KEPT {
                    self.line.push(b);
                }
                continue;
            }
            let line = std::mem::take(&mut self.line);
            let line = line.strip_suffix(b"\r").unwrap_or(&line);
            if self.lines == 0 {
                self.query = std::str::from_utf8(line)
                    .ok()
                    .and_then(|l| l.split(' ').nth(1))
                    .and_then(|target| target.split_once('?'))
                    .map(|(_, q)| q.to_string());
            } else if line.is_empty() {
                self.ended = true;
            } else if let Some((name, value)) = split_header(line)
                && name.eq_ignore_ascii_case(b"accept-language")
            {
                self.accept_language = HeaderValue::from_bytes(value.trim_ascii()).ok();
            }
            self.lines += 1;
        }
    }

    fn lang(&self) -> Lang {
        let mut headers = HeaderMap::new();
        if let Some(v) = &self.accept_language {
            headers.insert(header::ACCEPT_LANGUAGE, v.clone());
        }
        crate::speak::client_lang(self.query.as_deref(), &headers)
    }
}

fn split_header(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let colon = line.iter().position(|&b| b == b':')?;
    Some((&line[..colon], &line[colon + 1..]))
}

impl<S> Refusing<S> {
    /// Watches `inner`.
    pub fn new(inner: S) -> Self {
        Refusing {
            inner,
            head: HeadWatch::default(),
            pending: Vec::new(),
            written: 0,
            upgraded: false,
        }
    }

    /// `buf` as it goes out: hyper's bare refusal head is swallowed and a JSON refusal
    /// made pending in its place (true); any other answer starts a new request's watch.
    fn replaces(&mut self, buf: &[u8]) -> bool {
        if self.upgraded {
            return false;
        }
        if buf.starts_with(b"HTTP/1.1 101 ") {
            self.upgraded = true;
            return false;
        }
        if let Some(refusal) = bare_refusal(buf).map(|status| refusal(status, self.head.lang())) {
            self.pending = refusal;
            self.written = 0;
            return true;
        }
        if self.head.ended && is_head(buf) {
            self.head = HeadWatch::default();
        }
        false
    }
}

/// Whether `buf` opens a response head.
fn is_head(buf: &[u8]) -> bool {
    buf.starts_with(b"HTTP/1.")
}

/// The status of `buf` when it is a head hyper wrote itself for a request it cannot
/// read: the whole head, status 400, 414 or 431, `content-length: 0` and no body type.
fn bare_refusal(buf: &[u8]) -> Option<u16> {
    if !is_head(buf) || !buf.ends_with(b"\r\n\r\n") || buf.len() > 512 {
        return None;
    }
    let status = match buf.get(9..13)? {
        b"400 " => 400,
        b"414 " => 414,
        b"431 " => 431,
        _ => return None,
    };
    let head = buf.to_ascii_lowercase();
    let has = |needle: &[u8]| head.windows(needle.len()).any(|w| w == needle);
    (has(b"\r\ncontent-length: 0\r\n") && !has(b"\r\ncontent-type:")).then_some(status)
}

/// Why a request with `status` could not be read, and what would be right.
fn reason(status: u16) -> Text {
    match status {
        414 => Text::new(
            format!(
                "URL が長すぎて読めません。パスとクエリは合わせて {MAX_URI} バイトまでです。長い値（コマンドや表など）は POST の本文で送ってください"
            ),
            format!(
                "the URL is too long to read: path and query together may be {MAX_URI} bytes at most; send long values (commands, tables) in a POST body"
            ),
        ),
        431 => Text::new(
            format!(
                "リクエストのヘッダーが多すぎるか大きすぎて読めません。ヘッダーは {MAX_HEADERS} 個まで、合わせて数百 KB 以内にしてください"
            ),
            format!(
                "the request's headers are too many or too large to read: send at most {MAX_HEADERS} headers, a few hundred KB in all"
            ),
        ),
        _ => Text::new(
            "HTTP/1.1 のリクエストとして読めません。1 行目は「メソッド パス HTTP/1.1」（例: GET /healthz HTTP/1.1）、ヘッダーは 1 行に 1 つ「名前: 値」、Content-Length は 1 つだけの数、本文の長さは Content-Length か chunked のどちらか一方で示してください",
            "the request cannot be read as HTTP/1.1: the first line is \"METHOD PATH HTTP/1.1\" (e.g. GET /healthz HTTP/1.1), one \"Name: value\" header per line, one Content-Length holding one number, and the body's length given by Content-Length or chunked, not both",
        ),
    }
}

/// The whole refusal for `status` in `lang`, head and JSON body.
fn refusal(status: u16, lang: Lang) -> Vec<u8> {
    let phrase = match status {
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        _ => "Bad Request",
    };
    let body = json!({"ok": false, "reason": reason(status).get(lang)}).to_string();
    format!(
        "HTTP/1.1 {status} {phrase}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

impl<S: AsyncWrite + Unpin> Refusing<S> {
    /// Writes what is pending; ready once all of it is out.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n = match Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..]) {
                Poll::Ready(Ok(n)) => n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            };
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Refusing<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let read = Pin::new(&mut this.inner).poll_read(cx, buf);
        if !this.upgraded && matches!(read, Poll::Ready(Ok(()))) {
            this.head.read(&buf.filled()[before..]);
        }
        read
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Refusing<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.drain(cx)?.is_pending() {
            return Poll::Pending;
        }
        if this.replaces(buf) {
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.drain(cx)?.is_pending() {
            return Poll::Pending;
        }
        // hyper writes its bare head alone (it has no body); any other answer only
        // starts a new request's watch.
        if let Some(first) = bufs.iter().find(|b| !b.is_empty())
            && this.replaces(first)
        {
            return Poll::Ready(Ok(bufs.iter().map(|b| b.len()).sum()));
        }
        Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.drain(cx)?.is_pending() {
            return Poll::Pending;
        }
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.drain(cx)?.is_pending() {
            return Poll::Pending;
        }
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hypers_bare_refusal_heads_are_recognised() {
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Wed, 25 Nov 2026 02:00:00 GMT\r\n\r\n";
        assert_eq!(bare_refusal(bare), Some(431));
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(bare_refusal(ours), None);
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(bare_refusal(ok), None);
        let with_body = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 10\r\n\r\n";
        assert_eq!(bare_refusal(with_body), None);
    }

    #[test]
    fn the_head_read_so_far_gives_the_language() {
        let mut watch = HeadWatch::default();
        watch.read(b"GET /x?a=1&lang=en HTTP/1.1\r\nHost: x\r\n");
        assert_eq!(watch.lang(), Lang::En);
        let mut watch = HeadWatch::default();
        watch.read(b"GET /x HTTP/1.1\r\nAccept-Language: en-US\r\nX: ");
        assert_eq!(watch.lang(), Lang::En);
        let mut watch = HeadWatch::default();
        watch.read(b"GET /x HTTP/1.1\r\nHost: x\r\n\r\nAccept-Language: en\r\n");
        assert_eq!(watch.lang(), Lang::Ja, "the body is not the head");
    }
}
