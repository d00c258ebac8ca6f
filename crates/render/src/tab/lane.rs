//! The render lane in the tab (`src/lane.rs` holds the rules): `auto`'s decision at the main
//! document's response, the requests the static lane does not fetch, and the main document
//! handed to a render that follows.
//!
//! Under `auto` the main document's request continues with its response paused (Fetch's
//! response stage): its body is read once, there ([`lane::choose`] decides), scripts are
//! switched off for `static` before the document commits, and the response goes on to the
//! page. The body is kept ([`FetchedDocument`]): a full render that follows a static one is
//! answered with it, so the page is never fetched twice.

use std::sync::Arc;

use chromiumoxide::cdp::browser_protocol::emulation::SetScriptExecutionDisabledParams;
use chromiumoxide::cdp::browser_protocol::fetch::{
    ContinueRequestParams, EventRequestPaused, GetResponseBodyParams, RequestId,
};
use chromiumoxide::cdp::browser_protocol::network::ResourceType;
use chromiumoxide::Page;
use parking_lot::Mutex;

use super::State;
use crate::cdp;
use crate::checks;
use crate::lane::FetchedDocument;
use crate::lane::{self, Lane, LaneParams, LaneReport, RenderMode};
use crate::steer::block::Skip;

/// What the static lane does not fetch, by CDP's resource type: scripts, media, fonts, and
/// images unless a screenshot is taken (an image skipped keeps its box: it is answered with
/// the placeholder of `--block images`).
pub(super) fn static_skip(resource_type: &ResourceType, screenshot: bool) -> Option<Skip> {
    match resource_type {
        ResourceType::Script => Some(Skip::Script),
        ResourceType::Image if !screenshot => Some(Skip::Image),
        ResourceType::Media => Some(Skip::Media),
        ResourceType::Font => Some(Skip::Font),
        _ => None,
    }
}

/// The page's lane is `static` (asked, or chosen by `auto` at the response).
pub(super) fn is_static(s: &State) -> bool {
    s.seen.lane.as_ref().is_some_and(|l| l.mode == Lane::Static)
}

/// Under `auto`, with no lane chosen yet, or under `static`, with no document to answer with:
/// the main document's request (`main_hop`: the navigation's document or a redirect of it)
/// continues with its response paused, for [`answer_response`].
pub(super) fn pauses_response(s: &State, main_hop: bool) -> bool {
    let lane_open = match s.rules.render {
        RenderMode::Auto => s.seen.lane.is_none(),
        RenderMode::Static => adds_policy(s),
        RenderMode::Full => false,
    };
    main_hop
        && lane_open
        && s.rules.fetched.is_none()
        && s.rules.replay.is_none()
        && !s.seen.pdf_fetch
}

/// Under `static`, the main document is answered with the lane's policy: not when it is
/// answered from an earlier render or an archive, nor while capturing (the archive keeps the
/// response as the server sent it, and the policy header would be in it).
fn adds_policy(s: &State) -> bool {
    s.rules.fetched.is_none() && s.rules.replay.is_none() && s.seen.capture.is_none()
}

/// Answer a paused main document's response with the static lane's policy added
/// ([`lane::static_policy`]) after its own headers ([`super::capture::fulfil_decoded`]).
/// `Fetch.continueResponse` with the header added is not enough: Chromium enforces the
/// policy of the response it received. Without a document (its body could not be read) the
/// response continues as it came, and the static lane skips those requests one by one.
async fn continue_static(
    pg: &Page,
    id: RequestId,
    doc: Option<&FetchedDocument>,
    screenshot: bool,
) {
    let policy = ("Content-Security-Policy", lane::static_policy(screenshot));
    let answered = match doc {
        Some(doc) => super::capture::fulfil_decoded(pg, id.clone(), doc, Some(policy)).await,
        None => false,
    };
    if !answered {
        let _ = pg.execute(ContinueRequestParams::new(id)).await;
    }
}

/// A paused response's headers, as `(name, value)` pairs.
fn response_headers(ev: &EventRequestPaused) -> Vec<(String, String)> {
    ev.response_headers
        .iter()
        .flatten()
        .map(|h| (h.name.clone(), h.value.clone()))
        .collect()
}

/// The body of a paused response as it is stored: a body CDP gives as text is stored back in
/// its charset (as capture does, `headers` adjusted), so that a render answered with it
/// decodes it the same way.
async fn stored_body(
    pg: &Page,
    id: &RequestId,
    limit: std::time::Duration,
    headers: &mut [(String, String)],
) -> Option<Vec<u8>> {
    read_body(pg, id, limit)
        .await
        .map(|(bytes, text)| match text {
            true => {
                super::capture::stored_text(String::from_utf8(bytes).unwrap_or_default(), headers)
            }
            false => bytes,
        })
}

/// A paused response: the main document's under `auto`, before its lane is chosen, is read,
/// decided and continued (off the event loop: the body may be large); returns false for any
/// other. A redirect or a failed response continues at once (the next hop is paused again).
pub(super) async fn answer_response(
    pg: &Page,
    st: &Arc<Mutex<State>>,
    ev: &EventRequestPaused,
) -> bool {
    let response = ev.response_status_code.is_some() || ev.response_error_reason.is_some();
    if !response || ev.resource_type != ResourceType::Document {
        return false;
    }
    // `static` asked: no decision; the policy on the document (not on a redirect or a
    // failure, which continue as they are). `auto`: read, decide, continue.
    enum Step {
        Static(bool),
        Auto(std::time::Duration, bool),
        Other,
    }
    let step = {
        let s = st.lock();
        let main = s.rules.main_frame.as_deref() == Some(ev.frame_id.inner().as_str());
        let open = main && !s.seen.pdf_fetch;
        match s.rules.render {
            RenderMode::Static if open && adds_policy(&s) => Step::Static(s.rules.screenshot),
            RenderMode::Auto if open && s.seen.lane.is_none() => {
                Step::Auto(s.rules.body_limit, s.rules.screenshot)
            }
            _ => Step::Other,
        }
    };
    let (limit, screenshot) = match step {
        Step::Other => return false,
        Step::Static(screenshot) => {
            let status = ev.response_status_code.unwrap_or(0);
            if ev.response_error_reason.is_some() || (300..400).contains(&status) {
                let _ = pg
                    .execute(ContinueRequestParams::new(ev.request_id.clone()))
                    .await;
                return true;
            }
            let limit = st.lock().rules.body_limit;
            let (pg, ev) = (pg.clone(), ev.clone());
            tokio::spawn(async move {
                let mut headers = response_headers(&ev);
                let body = stored_body(&pg, &ev.request_id, limit, &mut headers).await;
                let doc = body.map(|body| FetchedDocument {
                    status,
                    headers,
                    body,
                });
                continue_static(&pg, ev.request_id.clone(), doc.as_ref(), screenshot).await;
            });
            return true;
        }
        Step::Auto(limit, screenshot) => (limit, screenshot),
    };
    let id = ev.request_id.clone();
    let status = ev.response_status_code.unwrap_or(0);
    let mut headers = response_headers(ev);
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let redirect = (300..400).contains(&status) && header("location").is_some();
    if ev.response_error_reason.is_some() || redirect {
        let _ = pg.execute(ContinueRequestParams::new(id)).await;
        return true;
    }
    let content_type = header("content-type").unwrap_or_default();
    let (pg, st) = (pg.clone(), st.clone());
    tokio::spawn(async move {
        let html_like =
            content_type.is_empty() || content_type.to_ascii_lowercase().contains("html");
        let body = if html_like {
            stored_body(&pg, &id, limit, &mut headers).await
        } else {
            None
        };
        let params = LaneParams::default();
        let mut choice = match &body {
            Some(bytes) => {
                let charset =
                    checks::header_charset(headers.iter().map(|(n, v)| (n.as_str(), v.as_str())));
                let html = checks::decode(bytes, charset.as_deref());
                lane::choose(status, &content_type, &html, &params)
            }
            None if !html_like => lane::choose(status, &content_type, "", &params),
            None => lane::Choice {
                lane: Lane::Full,
                reason: "the main document's body could not be read at its response".into(),
            },
        };
        if choice.lane == Lane::Static {
            let off = cdp::within(
                limit,
                pg.execute(SetScriptExecutionDisabledParams::new(true)),
            )
            .await;
            if off.is_err() {
                choice = lane::Choice {
                    lane: Lane::Full,
                    reason: "scripts could not be switched off".into(),
                };
            }
        }
        {
            let mut s = st.lock();
            s.seen.scripts_off_by_lane = choice.lane == Lane::Static;
            s.seen.lane = Some(LaneReport::new(choice.lane, choice.reason));
            s.seen.fetched = body.map(|body| {
                Arc::new(FetchedDocument {
                    status,
                    headers,
                    body,
                })
            });
        }
        // The lane's policy on a static page, but not while capturing (the archive keeps the
        // response as the server sent it).
        let document = {
            let s = st.lock();
            s.seen
                .fetched
                .clone()
                .filter(|_| s.seen.capture.is_none() && s.rules.replay.is_none())
        };
        match document {
            Some(doc) if choice.lane == Lane::Static => {
                continue_static(&pg, id, Some(&doc), screenshot).await
            }
            _ => {
                let _ = pg.execute(ContinueRequestParams::new(id)).await;
            }
        }
    });
    true
}

/// The body of a response paused at Fetch's response stage, bounded by `limit`, and whether
/// CDP gave it as text (decoded from its charset) rather than as its bytes.
async fn read_body(
    pg: &Page,
    id: &chromiumoxide::cdp::browser_protocol::fetch::RequestId,
    limit: std::time::Duration,
) -> Option<(Vec<u8>, bool)> {
    use base64::Engine;
    let r = cdp::within(limit, pg.execute(GetResponseBodyParams::new(id.clone())))
        .await
        .ok()?;
    if r.result.base64_encoded {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(r.result.body.as_bytes())
            .ok()?;
        Some((bytes, false))
    } else {
        Some((r.result.body.clone().into_bytes(), true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_static_lane_skips_scripts_media_fonts_and_images_without_a_screenshot() {
        assert_eq!(
            static_skip(&ResourceType::Script, false),
            Some(Skip::Script)
        );
        assert_eq!(static_skip(&ResourceType::Image, false), Some(Skip::Image));
        assert_eq!(static_skip(&ResourceType::Image, true), None);
        assert_eq!(static_skip(&ResourceType::Font, true), Some(Skip::Font));
        assert_eq!(static_skip(&ResourceType::Stylesheet, false), None);
        assert_eq!(static_skip(&ResourceType::Document, false), None);
    }
}
