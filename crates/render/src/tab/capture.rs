//! Capture and replay in the tab.
//!
//! Capture (`RenderOptions::capture`: `--warc`, `--wacz`): every http(s) exchange of the page,
//! from the Network events the tab already listens to: the request at
//! `Network.requestWillBeSent` (a redirect's 3xx answer comes with the next hop's event), the
//! response at `Network.responseReceived`, and its body read with `Network.getResponseBody`
//! once `Network.loadingFinished` says it is all there, in a task of its own, so the page is
//! never held up (the Fetch domain's response stage would pause every response until its
//! body is read). The browser's cache is off while capturing, so every resource is fetched
//! and seen. Nothing here runs unless asked.
//!
//! Replay (`RenderOptions::replay`: `--replay`): every request Fetch pauses is answered from
//! the archive (`Fetch.fulfillRequest` with the archived status, headers and body); one the
//! archive lacks fails as it does offline (`Fetch.failRequest`, InternetDisconnected).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use chromiumoxide::cdp::browser_protocol::fetch::{
    FailRequestParams, FulfillRequestParams, HeaderEntry, RequestId,
};
use chromiumoxide::cdp::browser_protocol::network::{
    ErrorReason, EventRequestWillBeSent, EventResponseReceived, GetResponseBodyParams, Headers,
    Response,
};
use chromiumoxide::Page;
use parking_lot::Mutex;

use super::{Fault, State};
use crate::cdp;
use crate::lane::FetchedDocument;
use sightline_core::archive::{Archive, Exchange};

/// The exchanges of the page being captured. The tab's event streams are read side by side,
/// so the events of one request may come in any order: each event fills its part of the
/// request's entry, whichever comes first.
#[derive(Debug, Default)]
pub(super) struct Capture {
    /// Requests by network id.
    entries: HashMap<String, Entry>,
    /// Network ids in the order first seen.
    order: Vec<String>,
    /// Exchanges complete without a body to read (redirects).
    done: Vec<Exchange>,
}

/// A body being read: its bytes and whether CDP gave them as text.
type BodyRead = tokio::task::JoinHandle<Option<(Vec<u8>, bool)>>;

/// One request being captured.
#[derive(Debug, Default)]
struct Entry {
    x: Exchange,
    /// Its body being read (from its `loadingFinished` on): the bytes, and whether CDP gave
    /// them as text (decoded from the response's charset; see [`stored_text`]).
    body: Option<BodyRead>,
}

/// Is this URL one an archive keeps (http or https)?
fn archived_scheme(url: &str) -> bool {
    url.starts_with("http:") || url.starts_with("https:")
}

/// CDP's headers as name and value pairs.
fn pairs(h: &Headers) -> Vec<(String, String)> {
    h.inner()
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// Fill an exchange's response from CDP's.
fn respond(x: &mut Exchange, r: &Response) {
    x.status = r.status;
    x.status_text = r.status_text.clone();
    x.response_headers = pairs(&r.headers);
    x.time = Some(SystemTime::now());
    if x.url.is_empty() {
        x.url = r.url.clone();
    }
}

impl Capture {
    fn entry(&mut self, id: &str) -> &mut Entry {
        if !self.entries.contains_key(id) {
            self.order.push(id.to_string());
        }
        self.entries.entry(id.to_string()).or_default()
    }

    /// A request was sent (or a redirect followed: the previous hop is complete).
    pub(super) fn sent(&mut self, ev: &EventRequestWillBeSent) {
        let id = ev.request_id.inner().as_str();
        if let Some(r) = &ev.redirect_response {
            if let Some(mut e) = self.entries.remove(id) {
                respond(&mut e.x, r);
                self.done.push(e.x);
            }
        }
        if !archived_scheme(&ev.request.url) {
            return;
        }
        let body = ev.request.post_data_entries.as_ref().map(|entries| {
            use base64::Engine;
            entries
                .iter()
                .filter_map(|e| e.bytes.as_ref())
                .flat_map(|b| {
                    base64::engine::general_purpose::STANDARD
                        .decode(AsRef::<str>::as_ref(b))
                        .unwrap_or_default()
                })
                .collect::<Vec<u8>>()
        });
        let e = self.entry(id);
        e.x.url = ev.request.url.clone();
        e.x.method = ev.request.method.clone();
        e.x.request_headers = pairs(&ev.request.headers);
        e.x.request_body = body.filter(|b| !b.is_empty());
    }

    /// A response's head came.
    pub(super) fn response(&mut self, ev: &EventResponseReceived) {
        if archived_scheme(&ev.response.url) {
            respond(&mut self.entry(ev.request_id.inner()).x, &ev.response);
        }
    }

    /// A response's body is all here: read it in a task of its own.
    pub(super) fn finished(&mut self, page: &Page, id: &str, limit: Duration) {
        let page = page.clone();
        let rid = id.to_string();
        let read = tokio::spawn(async move {
            let r = cdp::within(limit, page.execute(GetResponseBodyParams::new(rid)))
                .await
                .ok()?
                .result;
            if r.base64_encoded {
                use base64::Engine;
                let b = base64::engine::general_purpose::STANDARD
                    .decode(r.body.as_bytes())
                    .ok()?;
                Some((b, false))
            } else {
                Some((r.body.into_bytes(), true))
            }
        });
        if let Some(old) = self.entry(id).body.replace(read) {
            old.abort();
        }
    }

    /// A request failed: nothing to archive.
    pub(super) fn failed(&mut self, id: &str) {
        if let Some(e) = self.entries.remove(id) {
            if let Some(h) = e.body {
                h.abort();
            }
        }
    }

    /// Every exchange complete, once the bodies being read are (each read bounded by its own
    /// limit); requests without a response, or whose body never came whole, are left out
    /// (but a 204 or 304, which have none).
    pub(super) async fn collect(mut self) -> Vec<Exchange> {
        let mut out = std::mem::take(&mut self.done);
        for id in std::mem::take(&mut self.order) {
            let Some(e) = self.entries.remove(&id) else {
                continue;
            };
            let Some(read) = e.body else { continue };
            let mut x = e.x;
            if x.status == 0 || x.url.is_empty() {
                read.abort();
                continue;
            }
            match read.await {
                Ok(Some((body, false))) => x.body = body,
                Ok(Some((text, true))) => {
                    let text = String::from_utf8(text).unwrap_or_default();
                    x.body = stored_text(text, &mut x.response_headers);
                }
                _ if x.status == 204 || x.status == 304 => {}
                _ => {
                    tracing::debug!("capture: no body for {}", x.url);
                    continue;
                }
            }
            out.push(x);
        }
        out
    }
}

/// The bytes to archive of a body CDP gave as text (`Network.getResponseBody` decodes text
/// resources from the charset the browser used): encoded back into the charset of the
/// Content-Type, or of the document's `<meta charset>`, so the archive holds what the server
/// sent; when there is none, or the text does not encode back, UTF-8, and the archived
/// Content-Type then says `charset=utf-8` so that a replay decodes it the same way.
pub(super) fn stored_text(text: String, headers: &mut [(String, String)]) -> Vec<u8> {
    let declared =
        crate::checks::header_charset(headers.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .or_else(|| meta_charset(&text));
    let enc = declared
        .as_deref()
        .and_then(|l| encoding_rs::Encoding::for_label(l.as_bytes()))
        .map(|e| e.output_encoding());
    if let Some(enc) = enc.filter(|e| *e != encoding_rs::UTF_8) {
        let (bytes, _, errors) = enc.encode(&text);
        if !errors {
            return bytes.into_owned();
        }
    }
    if !text.is_ascii() && enc != Some(encoding_rs::UTF_8) {
        if let Some((_, v)) = headers
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        {
            let mime = v.split(';').next().unwrap_or("").trim().to_string();
            *v = format!("{mime}; charset=utf-8");
        }
    }
    text.into_bytes()
}

/// The charset a document's `<meta charset>` or `<meta http-equiv content>` declares in its
/// first 2,048 characters.
fn meta_charset(text: &str) -> Option<String> {
    let head: String = text
        .chars()
        .take(2048)
        .collect::<String>()
        .to_ascii_lowercase();
    let mut rest = head.as_str();
    while let Some(at) = rest.find("<meta") {
        rest = &rest[at + 5..];
        let tag = &rest[..rest.find('>').unwrap_or(rest.len())];
        if let Some(c) = tag.find("charset=") {
            let v = tag[c + 8..].trim_start_matches(['"', '\'', ' ']);
            let end = v
                .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '-' || ch == '_'))
                .unwrap_or(v.len());
            if end > 0 {
                return Some(v[..end].to_string());
            }
        }
    }
    None
}

/// Answer the main document's request with the document an earlier render fetched: its
/// status, its headers (but those of the transfer: the body is already decoded) and its body.
pub(super) async fn fulfil_fetched(pg: &Page, id: RequestId, doc: &FetchedDocument) {
    fulfil_decoded(pg, id, doc, None).await;
}

/// Answer a paused request with a decoded document ([`fulfil_fetched`]) and, after its own
/// headers, `extra` (the static lane's policy); false when Chromium refused the answer.
pub(super) async fn fulfil_decoded(
    pg: &Page,
    id: RequestId,
    doc: &FetchedDocument,
    extra: Option<(&str, &str)>,
) -> bool {
    use base64::Engine;
    let mut p = FulfillRequestParams::new(id, doc.status);
    p.response_headers = Some(
        doc.headers
            .iter()
            .filter(|(n, _)| {
                !["content-encoding", "content-length", "transfer-encoding"]
                    .iter()
                    .any(|h| n.eq_ignore_ascii_case(h))
            })
            .map(|(name, value)| HeaderEntry::new(name.clone(), value.clone()))
            .chain(extra.map(|(n, v)| HeaderEntry::new(n, v)))
            .collect(),
    );
    p.body = Some(chromiumoxide::Binary::from(
        base64::engine::general_purpose::STANDARD.encode(&doc.body),
    ));
    pg.execute(p).await.is_ok()
}

/// Answer a paused request from the archive, off the event loop (the archive is read from
/// disk): the archived response, or a failure as offline when the archive lacks the URL (a
/// main document the archive lacks is a navigation error saying so).
pub(super) fn replay(
    pg: &Page,
    st: &Arc<Mutex<State>>,
    archive: Arc<Archive>,
    id: RequestId,
    url: String,
    main_document: bool,
) {
    let pg = pg.clone();
    let st = st.clone();
    tokio::spawn(async move {
        let lookup = url.clone();
        let found = tokio::task::spawn_blocking(move || archive.get(&lookup))
            .await
            .ok()
            .flatten();
        match found {
            Some(r) => {
                use base64::Engine;
                let mut p = FulfillRequestParams::new(id, r.status);
                p.response_headers = Some(
                    r.headers
                        .into_iter()
                        .map(|(name, value)| HeaderEntry { name, value })
                        .collect(),
                );
                p.body = Some(chromiumoxide::Binary::from(
                    base64::engine::general_purpose::STANDARD.encode(&r.body),
                ));
                if !r.reason.is_empty() {
                    p.response_phrase = Some(r.reason);
                }
                let _ = pg.execute(p).await;
            }
            None => {
                if main_document {
                    let mut s = st.lock();
                    if s.seen.fault.is_none() {
                        s.seen.fault = Some(Fault::Navigation(format!(
                            "{url} is not in the archive replayed (--replay)"
                        )));
                    }
                }
                let _ = pg
                    .execute(FailRequestParams::new(
                        id,
                        ErrorReason::InternetDisconnected,
                    ))
                    .await;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_bodies_are_stored_in_the_charset_they_came_in() {
        let ct = |v: &str| vec![("Content-Type".to_string(), v.to_string())];
        // Declared by the header: encoded back.
        let mut h = ct("text/html; charset=windows-1252");
        assert_eq!(stored_text("caf\u{e9}".into(), &mut h), b"caf\xe9");
        assert_eq!(h[0].1, "text/html; charset=windows-1252");
        // Declared by a meta tag.
        let mut h = ct("text/html");
        let page = "<meta charset=\"iso-8859-1\"><p>caf\u{e9}";
        assert!(stored_text(page.into(), &mut h).ends_with(b"caf\xe9"));
        // Undeclared: UTF-8, and said so for the replay.
        let mut h = ct("text/html");
        assert_eq!(
            stored_text("caf\u{e9}".into(), &mut h),
            "caf\u{e9}".as_bytes()
        );
        assert_eq!(h[0].1, "text/html; charset=utf-8");
        // Does not encode back: UTF-8 too.
        let mut h = ct("text/plain; charset=iso-8859-1");
        assert_eq!(
            stored_text("\u{4e2d}".into(), &mut h),
            "\u{4e2d}".as_bytes()
        );
        assert_eq!(h[0].1, "text/plain; charset=utf-8");
        // ASCII is left alone.
        let mut h = ct("text/css");
        assert_eq!(stored_text("a{}".into(), &mut h), b"a{}");
        assert_eq!(h[0].1, "text/css");
    }
}
