//! PDF main documents (docs/pdf.md). Chromium's headless shell has no PDF viewer: a PDF main
//! document (by its Content-Type, or by its `%PDF-` signature under a generic binary type)
//! ends the navigation as a download. Then the tab reads its bytes (through the browser,
//! `Network.loadNetworkResource`, with the page's cookies and proxy; a `file:` URL from disk)
//! and navigates again, the event task answering the main document's request with a page of its own
//! (`js/pdf_view.js` with PDF.js, `js/vendor/pdfjs/`) that lays each PDF page's text out as
//! positioned paragraphs and headings, running headers, footers and page numbers dropped.
//! The phases after the navigation (settle, snapshot, screenshot) take that page as any page.
//!
//! HTML pages pay nothing for this: the check is on the main document's response, which the
//! tab reads anyway. An encrypted, broken or text-less PDF is a `document` error.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::emulation::SetScriptExecutionDisabledParams;
use chromiumoxide::cdp::browser_protocol::io::{CloseParams, ReadParams};
use chromiumoxide::cdp::browser_protocol::network::{
    LoadNetworkResourceOptions, LoadNetworkResourceParams,
};
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use serde::{Deserialize, Serialize};

use super::events::origin_of;
use super::{cmd, Tab};
use crate::render::{checks, RenderOptions};
use crate::Error;

/// PDF.js's library (pdfjs-dist's legacy build, Apache-2.0; `scripts/update-pdfjs`).
const PDFJS_LIB: &str = include_str!("../../../../../js/vendor/pdfjs/pdf.min.mjs");
/// PDF.js's worker, run in a module worker of the page.
const PDFJS_WORKER: &str = include_str!("../../../../../js/vendor/pdfjs/pdf.worker.min.mjs");
/// The page's own script: lines, running lines dropped, blocks and headings, the layout.
const PDF_VIEW_JS: &str = include_str!("../../../../../js/pdf_view.js");

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
    /// The navigation ended on a PDF fault: read the document's bytes, navigate again to the
    /// page laid out from them, and wait for PDF.js. `problem` is the content-type error a
    /// document that may be a PDF is when its bytes are not one; `first` the navigation's
    /// error.
    pub(super) async fn open_pdf(
        &mut self,
        input: &str,
        url: &str,
        opts: &RenderOptions,
        deadline: Instant,
        problem: Option<String>,
        first: Error,
    ) -> Result<Document, Error> {
        let pdf_url = {
            let s = self.state.lock();
            s.main_url.clone().unwrap_or_else(|| s.nav_url.clone())
        };
        let bytes = self.pdf_bytes(input, &pdf_url, opts, deadline).await?;
        if !checks::is_pdf(&bytes) {
            return Err(match problem {
                Some(_) => first,
                None => Error::Document {
                    input: input.into(),
                    reason: "broken".into(),
                    message: format!(
                        "the server says it is a PDF (Content-Type application/pdf), but it does not start with %PDF-: the file is damaged or not a PDF"
                    ),
                },
            });
        }
        let view = {
            use base64::Engine;
            Arc::new(base64::engine::general_purpose::STANDARD.encode(view_html(&bytes)))
        };
        drop(bytes);
        let nav = if pdf_url.starts_with("file:") {
            let name = pdf_url.rsplit('/').next().unwrap_or("document.pdf");
            format!("{FILE_VIEW_ORIGIN}{name}")
        } else {
            pdf_url.clone()
        };
        // The record keeps the PDF's own response: its status and headers.
        let kept = {
            let s = self.state.lock();
            (s.status, s.response_headers.clone())
        };
        {
            let mut s = self.state.lock();
            s.abort_body_read();
            s.fault = None;
            s.main_request = None;
            s.main_checked = false;
            s.main_finished = false;
            s.main_url = None;
            s.nav_url = nav.clone();
            s.allow_origin = origin_of(&nav);
            s.pdf_view = Some(view);
        }
        // The PDF's page, with scripts on: PDF.js runs in it whatever the page's own options
        // say. Navigated to by script: chromiumoxide still waits on the download's navigation
        // (it never ends) and would queue a `Page.navigate` behind it; for the same reason the
        // tab is replaced after this page unless that navigation did end.
        self.parked = false;
        self.on_blank = false;
        self.doc_url = Some(url.to_string());
        cmd(
            input,
            "switching JavaScript",
            opts.command_timeout,
            self.page
                .execute(SetScriptExecutionDisabledParams::new(false)),
        )
        .await?;
        self.js_disabled = false;
        let go = format!("location.href = {}", serde_json::Value::String(nav.clone()));
        cmd(
            input,
            "opening the PDF's page",
            opts.command_timeout,
            self.page.execute(EvaluateParams::new(go)),
        )
        .await?;
        let outcome = self.pdf_outcome(input, opts, deadline).await?;
        {
            let mut s = self.state.lock();
            (s.status, s.response_headers) = kept;
        }
        if let Some(reason) = outcome.error {
            let what = outcome.message.unwrap_or_default();
            let fix = match reason.as_str() {
                "encrypted" => "sightline does not decrypt PDFs: save a copy without the password and extract that",
                "image-only" => "its pages are scanned or drawn images; it needs OCR, which sightline does not do (run an OCR tool such as ocrmypdf on it first)",
                _ => "the file is damaged or not a PDF",
            };
            return Err(Error::Document {
                input: input.into(),
                message: format!("{what}: {fix}"),
                reason,
            });
        }
        Ok(Document {
            kind: "pdf".into(),
            pages: outcome.pages.unwrap_or(0),
            dropped_lines: outcome.dropped.unwrap_or(0),
        })
    }

    /// The PDF's bytes: from disk for a `file:` URL, else through the browser
    /// (`Network.loadNetworkResource`: its cookies, its proxy), at most [`MAX_PDF_BYTES`].
    async fn pdf_bytes(
        &mut self,
        input: &str,
        url: &str,
        opts: &RenderOptions,
        deadline: Instant,
    ) -> Result<Vec<u8>, Error> {
        let too_large = || Error::TooLarge {
            input: input.into(),
            message: format!("a PDF of more than {} MiB", MAX_PDF_BYTES >> 20),
        };
        if url.starts_with("file:") {
            let path = url::Url::parse(url)
                .ok()
                .and_then(|u| u.to_file_path().ok())
                .ok_or_else(|| Error::Input {
                    input: input.into(),
                    message: format!("{url} is not a file path"),
                    source: None,
                })?;
            let b = std::fs::read(&path).map_err(|e| Error::Input {
                input: input.into(),
                message: e.to_string(),
                source: Some(Box::new(e)),
            })?;
            if b.len() > MAX_PDF_BYTES {
                return Err(too_large());
            }
            return Ok(b);
        }
        let limit = deadline
            .saturating_duration_since(Instant::now())
            .max(opts.command_timeout);
        let mut p = LoadNetworkResourceParams::new(
            url.to_string(),
            LoadNetworkResourceOptions::new(false, true),
        );
        p.frame_id = Some(self.main_frame.clone().into());
        let r = cmd(input, "reading the PDF", limit, self.page.execute(p)).await?;
        let res = &r.result.resource;
        let Some(stream) = res.stream.clone().filter(|_| res.success) else {
            return Err(Error::Navigation {
                input: input.into(),
                message: format!(
                    "reading the PDF failed ({})",
                    res.net_error_name.clone().unwrap_or_else(|| format!(
                        "HTTP status {}",
                        res.http_status_code.unwrap_or(0.0)
                    ))
                ),
            });
        };
        let mut bytes = Vec::new();
        let read = async {
            loop {
                let mut rp = ReadParams::new(stream.clone());
                rp.size = Some(1 << 20);
                let chunk = self.page.execute(rp).await?.result;
                if chunk.base64_encoded == Some(true) {
                    use base64::Engine;
                    bytes.extend(
                        base64::engine::general_purpose::STANDARD
                            .decode(chunk.data.as_bytes())
                            .unwrap_or_default(),
                    );
                } else {
                    bytes.extend_from_slice(chunk.data.as_bytes());
                }
                if chunk.eof || bytes.len() > MAX_PDF_BYTES {
                    return Ok::<_, chromiumoxide::error::CdpError>(());
                }
            }
        };
        let limit = deadline
            .saturating_duration_since(Instant::now())
            .max(opts.command_timeout);
        let r = cmd(input, "reading the PDF", limit, read).await;
        let _ = tokio::time::timeout(
            opts.command_timeout,
            self.page.execute(CloseParams::new(stream)),
        )
        .await;
        r?;
        if bytes.len() > MAX_PDF_BYTES {
            return Err(too_large());
        }
        Ok(bytes)
    }

    /// Wait for `js/pdf_view.js` to lay the document out (or fail), until the deadline.
    async fn pdf_outcome(
        &mut self,
        input: &str,
        opts: &RenderOptions,
        deadline: Instant,
    ) -> Result<Outcome, Error> {
        const PROBE: &str =
            "JSON.stringify(window.__slPdf && window.__slPdf.done ? window.__slPdf : null)";
        loop {
            if self.crashed() {
                self.healthy = false;
                return Err(Error::Crashed {
                    input: input.into(),
                });
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
                return Err(Error::Timeout {
                    input: input.into(),
                    phase: "laying the PDF out".into(),
                    seconds: opts.timeout.as_secs_f64(),
                });
            }
            tokio::time::sleep(POLL).await;
        }
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
