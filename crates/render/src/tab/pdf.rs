//! PDF main documents (docs/pdf.md). Chromium's headless shell has no PDF viewer: a PDF main
//! document (by its Content-Type, or by its `%PDF-` signature under a generic binary type)
//! ends the navigation as a download. Then the tab navigates to it again: the event task
//! pauses the response, reads its body (the PDF: through the browser, with the page's cookies,
//! headers, proxy and target policy; a `file:` URL is read from disk) and answers the request
//! with a page of its own (`js/pdf_view.js` with PDF.js, `js/vendor/pdfjs/`) that lays each
//! PDF page's text out as positioned paragraphs and headings, running headers, footers and
//! page numbers dropped.
//! The phases after the navigation (settle, snapshot, screenshot) take that page as any page.
//!
//! HTML pages pay nothing for this: the check is on the main document's response, which the
//! tab reads anyway. An encrypted, broken or text-less PDF is a `document` error.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::emulation::SetScriptExecutionDisabledParams;
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use serde::{Deserialize, Serialize};

use chromiumoxide::cdp::browser_protocol::fetch::{
    ContinueRequestParams, EventRequestPaused, FailRequestParams, FulfillRequestParams, HeaderEntry,
};
use chromiumoxide::cdp::browser_protocol::network::{ErrorReason, ResourceType};
use chromiumoxide::Page;
use parking_lot::Mutex;

use super::config::TabConfig;
use super::{same_document_url, State, Tab};
use crate::cdp;
use crate::checks;
use crate::error::BrowserError;
use crate::Error;

/// PDF.js's library (pdfjs-dist's legacy build, Apache-2.0; `scripts/update-pdfjs`).
const PDFJS_LIB: &str = include_str!("../../../../js/vendor/pdfjs/pdf.min.mjs");
/// PDF.js's worker, run in a module worker of the page.
const PDFJS_WORKER: &str = include_str!("../../../../js/vendor/pdfjs/pdf.worker.min.mjs");
/// The page's own script: lines, running lines dropped, blocks and headings, the layout.
const PDF_VIEW_JS: &str = include_str!("../../../../js/pdf_view.js");

/// The page's style: PDF pages as white sheets on grey, each block positioned in its sheet.
const PDF_VIEW_CSS: &str = "html,body{margin:0;background:#e8e8e8}\
section.sl-pdf-page{background:#fff;box-shadow:0 1px 4px rgba(0,0,0,.3);overflow:hidden}\
section.sl-pdf-page>*{position:absolute;margin:0;padding:0;font-family:serif;color:#000;white-space:normal}";

/// The largest PDF read (bytes); a larger one is `too-large`.
const MAX_PDF_BYTES: usize = 256 << 20;

/// The URL a PDF read from a `file:` URL is laid out at: Fetch pauses no `file:` request, so
/// the page is answered at an `http:` URL that never reaches the network (`.invalid`, RFC
/// 2606). The record keeps the file's URL.
const FILE_VIEW_ORIGIN: &str = "http://pdf.sightline.invalid/";

/// How often the page is asked whether PDF.js is done.
const POLL: Duration = Duration::from_millis(50);

/// The record's `document`: what the page was laid out from, when it was not HTML.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Document {
    /// `pdf`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The PDF's pages.
    pub pages: u32,
    /// Running headers, footers and page numbers dropped (lines repeated at the same place on
    /// other pages, and bare page numbers at a page's top or bottom).
    pub dropped_lines: u32,
}

/// What `js/pdf_view.js` leaves in `window.__slPdf`.
#[derive(Debug, Deserialize)]
struct Outcome {
    done: bool,
    pages: Option<u32>,
    dropped: Option<u32>,
    error: Option<String>,
    message: Option<String>,
}

/// How waiting for the PDF's page ended, when it did not end with the page.
enum Waited {
    /// The body was no PDF (`not-pdf`) or too large (`too-large`).
    Failed(String),
    Error(Error),
}

/// The page laid out from `bytes`, base64 (as `Fetch.fulfillRequest` takes it), or why there
/// is none: `not-pdf`, `too-large`.
pub(super) fn view_for(bytes: &[u8]) -> Result<String, String> {
    use base64::Engine;
    if bytes.len() > MAX_PDF_BYTES {
        return Err("too-large".into());
    }
    if !checks::is_pdf(bytes) {
        return Err("not-pdf".into());
    }
    Ok(base64::engine::general_purpose::STANDARD.encode(view_html(bytes)))
}

/// A `file:` URL's bytes.
fn read_file(input: &str, url: &str) -> Result<Vec<u8>, Error> {
    let path = url::Url::parse(url)
        .ok()
        .and_then(|u| u.to_file_path().ok())
        .ok_or_else(|| Error::Input {
            input: input.into(),
            message: format!("{url} is not a file path"),
            source: None,
        })?;
    std::fs::read(&path).map_err(|e| Error::Input {
        input: input.into(),
        message: e.to_string(),
        source: Some(Box::new(e)),
    })
}

/// The page laid out from `pdf`: PDF.js, its worker and the bytes, and the script that lays
/// the text out.
fn view_html(pdf: &[u8]) -> String {
    use base64::Engine;
    let src = serde_json::json!({
        "lib": PDFJS_LIB,
        "worker": PDFJS_WORKER,
        "data": base64::engine::general_purpose::STANDARD.encode(pdf),
    });
    // Inside <script>, `</` could end the element: `<\/` is the same JavaScript string.
    let src = src.to_string().replace("</", "<\\/");
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title></title><style>{PDF_VIEW_CSS}</style></head>\
         <body><script>window.__slPdfSrc={src};</script><script type=\"module\">{PDF_VIEW_JS}</script></body></html>"
    )
}

impl Tab {
    /// The navigation ended on a PDF fault: navigate again to the page laid out from the
    /// document's bytes, and wait for PDF.js. `problem` is the content-type error a document
    /// that may be a PDF is when its bytes are not one.
    pub(super) async fn open_pdf(
        &mut self,
        input: &str,
        url: &str,
        opts: &TabConfig,
        deadline: Instant,
        problem: Option<String>,
    ) -> Result<Document, Error> {
        let pdf_url = {
            let s = self.state.lock();
            s.seen
                .main_url
                .clone()
                .unwrap_or_else(|| s.rules.nav_url.clone())
        };
        let not_pdf = || {
            match &problem {
            Some(_) => Error::ContentType {
                input: input.into(),
                message: problem.clone().unwrap_or_default(),
            },
            None => Error::Document {
                input: input.into(),
                reason: "broken".into(),
                message: "the server says it is a PDF (Content-Type application/pdf), but it does not start with %PDF-: the file is damaged or not a PDF".into(),
            },
        }
        };
        let too_large = || Error::TooLarge {
            input: input.into(),
            message: format!("a PDF of more than {} MiB", MAX_PDF_BYTES >> 20),
        };
        let file = pdf_url.starts_with("file:");
        // A file's page is made here; an http(s) PDF is requested again by the page, and the
        // event task makes its page from the response's body (`events::answer_pdf_request`).
        let view = if file {
            let bytes = read_file(input, &pdf_url)?;
            match view_for(&bytes) {
                Ok(v) => Some(Arc::new(v)),
                Err(why) if why == "too-large" => return Err(too_large()),
                Err(_) => return Err(not_pdf()),
            }
        } else {
            None
        };
        let nav = if file {
            let name = pdf_url.rsplit('/').next().unwrap_or("document.pdf");
            format!("{FILE_VIEW_ORIGIN}{name}")
        } else {
            pdf_url.clone()
        };
        // The record keeps the PDF's own response: its status and headers.
        let kept = {
            let s = self.state.lock();
            (s.seen.status, s.seen.response_headers.clone())
        };
        self.state.lock().reopen_for_pdf(&nav, view);
        // The PDF's page, with scripts on: PDF.js runs in it whatever the page's own options
        // say. Navigated to by script: chromiumoxide still waits on the download's navigation
        // (it never ends) and would queue a `Page.navigate` behind it; for the same reason the
        // tab is replaced after this page unless that navigation did end.
        self.parked = false;
        self.on_blank = false;
        self.doc_url = Some(url.to_string());
        self.go_to_pdf_page(input, &nav, opts).await?;
        let outcome = self.pdf_outcome(input, opts, deadline).await;
        {
            let mut s = self.state.lock();
            (s.seen.status, s.seen.response_headers) = kept;
        }
        let outcome = match outcome {
            Err(Waited::Failed(why)) if why == "too-large" => return Err(too_large()),
            Err(Waited::Failed(_)) => return Err(not_pdf()),
            Err(Waited::Error(e)) => return Err(e),
            Ok(o) => o,
        };
        document_of(input, outcome)
    }

    /// Go to the PDF's page `nav`, with scripts on (PDF.js runs in it whatever the page's own
    /// options say), by script (see [`Tab::open_pdf`]).
    async fn go_to_pdf_page(
        &mut self,
        input: &str,
        nav: &str,
        opts: &TabConfig,
    ) -> Result<(), Error> {
        cdp::execute(
            &self.page,
            input,
            "switching JavaScript",
            opts.command_timeout,
            SetScriptExecutionDisabledParams::new(false),
        )
        .await?;
        self.js_disabled = false;
        let go = format!(
            "location.href = {}",
            serde_json::Value::String(nav.to_string())
        );
        cdp::execute(
            &self.page,
            input,
            "opening the PDF's page",
            opts.command_timeout,
            EvaluateParams::new(go),
        )
        .await?;
        Ok(())
    }

    /// Wait for `js/pdf_view.js` to lay the document out (or fail), until the deadline; or
    /// for the event task to find the body no PDF, or for the request to fail.
    async fn pdf_outcome(
        &mut self,
        input: &str,
        opts: &TabConfig,
        deadline: Instant,
    ) -> Result<Outcome, Waited> {
        const PROBE: &str =
            "JSON.stringify(window.__slPdf && window.__slPdf.done ? window.__slPdf : null)";
        loop {
            if self.crashed() {
                self.healthy = false;
                return Err(Waited::Error(Error::from(BrowserError::Crashed {
                    input: input.into(),
                })));
            }
            if let Some(why) = self.state.lock().seen.pdf_failed.clone() {
                return Err(Waited::Failed(why));
            }
            if let Some(f) = self.fault() {
                return Err(Waited::Error(f.error(input)));
            }
            // While the page loads, the probe may find the previous document, or none (an
            // error): asked again.
            let r = tokio::time::timeout(
                opts.command_timeout,
                self.page.execute(EvaluateParams::new(PROBE)),
            )
            .await;
            if let Ok(Ok(r)) = r {
                if let Some(serde_json::Value::String(s)) = r.result.result.value {
                    if let Ok(o) = serde_json::from_str::<Outcome>(&s) {
                        if o.done {
                            return Ok(o);
                        }
                    }
                }
            }
            if Instant::now() + POLL >= deadline {
                return Err(Waited::Error(Error::Timeout {
                    input: input.into(),
                    phase: "laying the PDF out".into(),
                    seconds: opts.timeout.as_secs_f64(),
                }));
            }
            tokio::time::sleep(POLL).await;
        }
    }
}

/// `tab/pdf.rs`, the page laid out from a PDF: a paused request that is its main document
/// is answered here (true). At the request stage, with the page ready (a file's PDF), it is
/// answered with it and never reaches the network. At the response stage (the PDF's request
/// again, its response paused by `events::on_paused`), the body is the PDF: the request is answered
/// with the page laid out from it, or failed when it is no PDF (`State::pdf_failed`).
pub(super) async fn answer_request(
    pg: &Page,
    st: &Arc<Mutex<State>>,
    ev: &EventRequestPaused,
) -> bool {
    let response = ev.response_status_code.is_some() || ev.response_error_reason.is_some();
    let (view, limit) = {
        let mut s = st.lock();
        if (s.seen.pdf_view.is_none() && !s.seen.pdf_fetch)
            || ev.resource_type != ResourceType::Document
            || s.rules.main_frame.as_deref() != Some(ev.frame_id.inner().as_str())
            || (!response && ev.redirected_request_id.is_some())
            || (!response && !same_document_url(&ev.request.url, &s.rules.nav_url))
        {
            return false;
        }
        if !response && s.seen.pdf_view.is_none() {
            // The PDF's request: decided as any main document, its response paused.
            return false;
        }
        if let Some(n) = &ev.network_id {
            s.seen.main_request = Some(n.inner().to_string());
        }
        (s.seen.pdf_view.clone(), s.rules.body_limit)
    };
    let fulfill = |id: chromiumoxide::cdp::browser_protocol::fetch::RequestId, body: &str| {
        let mut p = FulfillRequestParams::new(id, 200);
        p.response_headers = Some(vec![
            HeaderEntry::new("Content-Type", "text/html; charset=utf-8"),
            HeaderEntry::new("Cache-Control", "no-store"),
        ]);
        p.body = Some(body.to_string().into());
        p
    };
    if let Some(view) = view {
        let _ = pg.execute(fulfill(ev.request_id.clone(), &view)).await;
        return true;
    }
    let id = ev.request_id.clone();
    let redirect = ev
        .response_status_code
        .is_some_and(|c| (300..400).contains(&c))
        && ev
            .response_headers
            .as_ref()
            .is_some_and(|h| h.iter().any(|e| e.name.eq_ignore_ascii_case("location")));
    if ev.response_error_reason.is_some() || redirect {
        let _ = pg.execute(ContinueRequestParams::new(id)).await;
        return true;
    }
    // Read and lay out off the event loop: the body may be large.
    let (pg, st) = (pg.clone(), st.clone());
    tokio::spawn(async move {
        use base64::Engine;
        use chromiumoxide::cdp::browser_protocol::fetch::GetResponseBodyParams;
        let body = cdp::within(limit, pg.execute(GetResponseBodyParams::new(id.clone()))).await;
        let bytes = match body {
            Ok(r) if r.result.base64_encoded => base64::engine::general_purpose::STANDARD
                .decode(r.result.body.as_bytes())
                .unwrap_or_default(),
            Ok(r) => r.result.body.clone().into_bytes(),
            Err(_) => Vec::new(),
        };
        match view_for(&bytes) {
            Ok(view) => {
                let _ = pg.execute(fulfill(id, &view)).await;
            }
            Err(why) => {
                st.lock().seen.pdf_failed = Some(why);
                let _ = pg
                    .execute(FailRequestParams::new(id, ErrorReason::Aborted))
                    .await;
            }
        }
    });
    true
}

/// The document PDF.js laid out, or why it could not (`encrypted`, `image-only`, `broken`),
/// with the fix.
fn document_of(input: &str, outcome: Outcome) -> Result<Document, Error> {
    if let Some(reason) = outcome.error {
        let what = outcome.message.unwrap_or_default();
        let fix = match reason.as_str() {
            "encrypted" => "sightline does not decrypt PDFs: save a copy without the password and extract that",
            "image-only" => "its pages are scanned or drawn images; it needs OCR, which sightline does not do (run an OCR tool such as ocrmypdf on it first)",
            _ => "the file is damaged or not a PDF",
        };
        return Err(Error::Document {
            input: input.into(),
            message: format!("{}; {fix}", what.trim_end_matches('.')),
            reason,
        });
    }
    Ok(Document {
        kind: "pdf".into(),
        pages: outcome.pages.unwrap_or(0),
        dropped_lines: outcome.dropped.unwrap_or(0),
    })
}

impl State {
    /// The page laid out from a PDF is a navigation of its own, to `nav`: the main document
    /// is looked for again, and answered with `view` (a file's page, made here) or, for an
    /// http(s) PDF the page requests again, with the page made from its response.
    fn reopen_for_pdf(&mut self, nav: &str, view: Option<Arc<String>>) {
        self.abort_body_read();
        self.seen.fault = None;
        self.seen.main_request = None;
        self.seen.main_checked = false;
        self.seen.main_finished = false;
        self.seen.main_url = None;
        self.rules.nav_url = nav.to_string();
        self.seen.pdf_fetch = view.is_none();
        self.seen.pdf_view = view;
        self.seen.pdf_failed = None;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_view_cannot_end_its_script_early() {
        let html = super::view_html(b"%PDF-1.4 </script>");
        let start = html.find("window.__slPdfSrc").unwrap();
        let end = html[start..].find("</script>").unwrap() + start;
        assert!(html[start..end].ends_with("};"));
    }
}
