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
    ContinueRequestParams, EventRequestPaused, GetResponseBodyParams,
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

/// Under `auto`, with no lane chosen yet and no document to answer with: the main document's
/// request (`main_hop`: the navigation's document or a redirect of it) continues with its
/// response paused, for [`answer_response`].
pub(super) fn pauses_response(s: &State, main_hop: bool) -> bool {
    main_hop
        && s.rules.render == RenderMode::Auto
        && s.seen.lane.is_none()
        && s.rules.fetched.is_none()
        && s.rules.replay.is_none()
        && !s.seen.pdf_fetch
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
    let limit = {
        let s = st.lock();
        if s.rules.render != RenderMode::Auto
            || s.seen.lane.is_some()
            || s.seen.pdf_fetch
            || s.rules.main_frame.as_deref() != Some(ev.frame_id.inner().as_str())
        {
            return false;
        }
        s.rules.body_limit
    };
    let id = ev.request_id.clone();
    let status = ev.response_status_code.unwrap_or(0);
    let mut headers: Vec<(String, String)> = ev
        .response_headers
        .iter()
        .flatten()
        .map(|h| (h.name.clone(), h.value.clone()))
        .collect();
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
            // A body CDP gives as text is stored back in its charset (as capture does), so
            // that a render answered with it decodes it the same way.
            read_body(&pg, &id, limit)
                .await
                .map(|(bytes, text)| match text {
                    true => super::capture::stored_text(
                        String::from_utf8(bytes).unwrap_or_default(),
                        &mut headers,
                    ),
                    false => bytes,
                })
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
        let _ = pg.execute(ContinueRequestParams::new(id)).await;
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
