//! Skipping what is not needed: `--block images,media,fonts` (resource types not fetched) and
//! `--block-list FILE` (requests refused by an Adblock Plus / uBlock filter list, matched by
//! Brave's `adblock` engine).
//!
//! Every request of a page is already paused by CDP Fetch (the tab's event task); once the
//! request policy (`tab::events::decide`) allowed one, [`Blocking::skip`] says whether the
//! page's plan skips it, and [`Skip::answer`] how it ends. A page whose plan blocks nothing has
//! no [`Blocking`] at all (`Blocking::of` is None), so its request path does no extra work.
//!
//! Blocked images keep their boxes: they are answered with [`PLACEHOLDER_SVG`], an image
//! without an intrinsic size or ratio, so each keeps the size its attributes and CSS give it
//! (the ratio of its `width`/`height` attributes included, as while it loads) where a failed
//! image would fall back to its alt text or a broken-image icon (see `docs/steering.md`
//! for the measured difference). Media, fonts and what the block list refuses fail as blocked
//! by the client, as an ad blocker's would.

use std::path::Path;
use std::sync::Arc;

use chromiumoxide::cdp::browser_protocol::fetch::{
    FailRequestParams, FulfillRequestParams, HeaderEntry, RequestId,
};
use chromiumoxide::cdp::browser_protocol::network::ErrorReason;
use chromiumoxide::Binary;
use chromiumoxide::Page;

use super::{BlockList, Blocked, Steer};
use crate::Error;

/// The answer to a blocked image: an SVG image with neither a size nor a `viewBox`, so it has
/// no intrinsic dimensions and no intrinsic ratio. An `<img>` showing it keeps the width and
/// height its attributes and CSS give it (and the ratio of its `width`/`height` attributes);
/// one with neither is 300x150 CSS px, the default size of a replaced element, where an image
/// of unknown size usually is much larger than the 16x16 broken-image icon or its alt text.
/// Transparent: nothing is drawn.
pub(crate) const PLACEHOLDER_SVG: &str = r#"<svg xmlns="http://www.w3.org/2000/svg"/>"#;

impl std::str::FromStr for Blocked {
    type Err = String;

    /// `images`, `media` or `fonts` (what `--block` takes, comma-separated).
    fn from_str(s: &str) -> Result<Blocked, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "images" | "image" => Ok(Blocked::Images),
            "media" => Ok(Blocked::Media),
            "fonts" | "font" => Ok(Blocked::Fonts),
            other => Err(format!(
                "`{other}` is not a resource type to block: images, media or fonts"
            )),
        }
    }
}

/// What a page's plan blocks, checked for each request the request policy allowed.
#[derive(Debug, Clone)]
pub(crate) struct Blocking {
    images: bool,
    media: bool,
    fonts: bool,
    list: Option<Arc<dyn BlockList>>,
}

/// Why a request was skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Skip {
    /// An image (`--block images`).
    Image,
    /// Audio or video (`--block media`).
    Media,
    /// A web font (`--block fonts`).
    Font,
    /// A filter of the block list matched it (`--block-list`).
    List,
    /// A script, not fetched by the static lane (`--render static`).
    Script,
}

/// How a skipped request ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Answer {
    /// Fulfilled with [`PLACEHOLDER_SVG`] (an image keeps its box).
    Placeholder,
    /// Failed as blocked by the client.
    Fail,
}

impl Skip {
    /// How a request skipped for this reason ends: an image with the placeholder (also one the
    /// block list refused: its box stays), everything else fails.
    pub(crate) fn answer(self, resource_type: &str) -> Answer {
        match self {
            Skip::Image => Answer::Placeholder,
            Skip::List if resource_type == "Image" => Answer::Placeholder,
            _ => Answer::Fail,
        }
    }
}

/// Answer a paused request the page's plan skips (a CDP command; its error, a tab already
/// gone, is the event task's to notice).
pub(crate) async fn answer(page: &Page, id: RequestId, why: Skip, resource_type: &str) {
    match why.answer(resource_type) {
        Answer::Placeholder => {
            let mut r = FulfillRequestParams::new(id, 200);
            r.response_headers = Some(vec![
                HeaderEntry::new("Content-Type", "image/svg+xml"),
                HeaderEntry::new("Cache-Control", "no-store"),
            ]);
            r.body = Some(placeholder_body());
            let _ = page.execute(r).await;
        }
        Answer::Fail => {
            let _ = page
                .execute(FailRequestParams::new(id, ErrorReason::BlockedByClient))
                .await;
        }
    }
}

/// [`PLACEHOLDER_SVG`] as CDP carries a body (base64).
fn placeholder_body() -> Binary {
    use base64::Engine as _;
    Binary::from(base64::engine::general_purpose::STANDARD.encode(PLACEHOLDER_SVG))
}

/// Requests skipped by a page's plan, by reason (the record's `skipped_requests`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct SkippedRequests {
    /// Images not fetched (`--block images`), each answered with a placeholder that keeps its
    /// box.
    #[serde(skip_serializing_if = "is_zero")]
    pub images: usize,
    /// Audio and video not fetched (`--block media`).
    #[serde(skip_serializing_if = "is_zero")]
    pub media: usize,
    /// Web fonts not fetched (`--block fonts`).
    #[serde(skip_serializing_if = "is_zero")]
    pub fonts: usize,
    /// Requests refused by the block list (`--block-list`).
    #[serde(skip_serializing_if = "is_zero")]
    pub block_list: usize,
    /// Scripts not fetched by the static lane (`--render static`, or `auto` rendering a page
    /// static), whose images, media and fonts count above.
    #[serde(skip_serializing_if = "is_zero")]
    pub scripts: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl SkippedRequests {
    /// Count one skipped request.
    pub(crate) fn count(&mut self, why: Skip) {
        match why {
            Skip::Image => self.images += 1,
            Skip::Media => self.media += 1,
            Skip::Font => self.fonts += 1,
            Skip::List => self.block_list += 1,
            Skip::Script => self.scripts += 1,
        }
    }

    /// Every request skipped.
    pub fn total(&self) -> usize {
        self.images + self.media + self.fonts + self.block_list + self.scripts
    }

    /// Add the counts of another render (a retry of the same page, or another page).
    pub fn add(&mut self, other: &SkippedRequests) {
        self.images += other.images;
        self.media += other.media;
        self.fonts += other.fonts;
        self.block_list += other.block_list;
        self.scripts += other.scripts;
    }
}

impl Blocking {
    /// What `steer` blocks; None when it blocks nothing (no check is made for its requests).
    pub(crate) fn of(steer: &Steer) -> Option<Blocking> {
        if steer.block.is_empty() && steer.block_list.is_none() {
            return None;
        }
        Some(Blocking {
            images: steer.block.contains(&Blocked::Images),
            media: steer.block.contains(&Blocked::Media),
            fonts: steer.block.contains(&Blocked::Fonts),
            list: steer.block_list.clone(),
        })
    }

    /// Whether to skip a request the request policy allowed: `resource_type` is CDP's name
    /// (`Image`, `Media`, `Font`, `Script`, ...), `page_url` the page's. A document of the
    /// main frame (`main_document`: the page's own, a redirect of it) is never skipped;
    /// frames' documents may be, by the list.
    /// Pure: no I/O.
    pub(crate) fn skip(
        &self,
        url: &str,
        page_url: &str,
        resource_type: &str,
        main_document: bool,
    ) -> Option<Skip> {
        if main_document {
            return None;
        }
        // `data:` and `blob:` URLs are already in the page: skipping them saves nothing.
        if url.starts_with("data:") || url.starts_with("blob:") {
            return None;
        }
        let by_type = match resource_type {
            "Image" if self.images => Some(Skip::Image),
            "Media" if self.media => Some(Skip::Media),
            "Font" if self.fonts => Some(Skip::Font),
            _ => None,
        };
        by_type.or_else(|| {
            self.list
                .as_ref()
                .filter(|l| l.blocks(url, page_url, resource_type))
                .map(|_| Skip::List)
        })
    }
}

/// A filter list in Adblock Plus / uBlock Origin syntax (EasyList, EasyPrivacy, a list of
/// one's own; hosts-file lines too), matched by Brave's `adblock` engine. Only its network
/// filters apply (cosmetic `##` filters are not).
pub struct AdblockList {
    engine: adblock::Engine,
    /// Network filters the list holds.
    filters: usize,
}

impl std::fmt::Debug for AdblockList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdblockList")
            .field("filters", &self.filters)
            .finish_non_exhaustive()
    }
}

impl AdblockList {
    /// Compile a filter list's text. `name` names it in the error: a file most of whose lines
    /// are not filters (the wrong file) or without any request filter (a cosmetic-only list)
    /// would block nothing the user meant. A hosts file (`0.0.0.0 ads.example.com`) is read as
    /// one.
    pub fn parse(name: &str, text: &str) -> Result<AdblockList, Error> {
        use adblock::lists::{parse_filter, FilterFormat, ParseOptions, ParsedLine, RuleTypes};
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !is_comment(l))
            .collect();
        let hosts = lines.iter().filter(|l| is_hosts_line(l)).count();
        let format = if hosts * 2 > lines.len() {
            FilterFormat::Hosts
        } else {
            FilterFormat::Standard
        };
        let opts = ParseOptions {
            format,
            rule_types: RuleTypes::All,
            ..Default::default()
        };
        let (mut filters, mut well_formed) = (0, 0);
        for l in &lines {
            let parsed = parse_filter(l, false, opts);
            // Filters hold no spaces (a hosts line's is its own): a line of prose or markup
            // that happens to parse is not one.
            let spaced =
                matches!(format, FilterFormat::Standard) && l.contains(char::is_whitespace);
            match parsed {
                Ok(ParsedLine::Network(_)) if !spaced => {
                    filters += 1;
                    well_formed += 1;
                }
                Ok(ParsedLine::Cosmetic(_)) if !spaced => well_formed += 1,
                _ => {}
            }
        }
        if filters == 0 || well_formed * 2 < lines.len() {
            return Err(Error::Input {
                input: name.to_string(),
                message: format!(
                    "not a block list ({filters} request filters, {} of {} lines not filters): \
                     a block list is a filter list in Adblock Plus / uBlock Origin syntax, one \
                     filter a line (`||ads.example.com^`, `/banner/*.gif`, `@@` for exceptions), \
                     such as EasyList, or a hosts file; cosmetic filters (`##`) are not applied",
                    lines.len() - well_formed,
                    lines.len()
                ),
                source: None,
            });
        }
        let mut set = adblock::FilterSet::new(false);
        set.add_filter_list(
            text.to_string(),
            ParseOptions {
                rule_types: RuleTypes::NetworkOnly,
                ..opts
            },
        );
        Ok(AdblockList {
            engine: adblock::Engine::new_with_filter_set(set),
            filters,
        })
    }

    /// Network filters the list holds.
    pub fn filters(&self) -> usize {
        self.filters
    }
}

/// A comment or header line of a filter list or hosts file (or a blank one).
fn is_comment(l: &str) -> bool {
    l.is_empty()
        || l.starts_with('!')
        || l.starts_with('[')
        || (l.starts_with('#')
            && !l.starts_with("##")
            && !l.starts_with("#@#")
            && !l.starts_with("#?#"))
}

/// `0.0.0.0 ads.example.com`: an address, then one host name.
fn is_hosts_line(l: &str) -> bool {
    let mut f = l.split('#').next().unwrap_or("").split_whitespace();
    matches!(
        (f.next(), f.next(), f.next()),
        (Some(ip), Some(_), None) if ip.parse::<std::net::IpAddr>().is_ok()
    )
}

/// CDP's resource type as the filter engine names it (the `$image`, `$script`, ... options).
fn engine_type(resource_type: &str) -> &'static str {
    match resource_type {
        "Document" => "sub_frame",
        "Stylesheet" => "stylesheet",
        "Image" => "image",
        "Media" => "media",
        "Font" => "font",
        "Script" => "script",
        "XHR" | "Fetch" | "EventSource" => "xhr",
        "WebSocket" => "websocket",
        "Ping" => "ping",
        "CSPViolationReport" => "csp_report",
        _ => "other",
    }
}

impl BlockList for AdblockList {
    fn blocks(&self, url: &str, source_url: &str, resource_type: &str) -> bool {
        match adblock::request::Request::new(url, source_url, engine_type(resource_type), "GET") {
            Ok(req) => self.engine.check_network_request(&req).should_block(),
            // A URL the engine cannot parse (no host) is not the list's to refuse.
            Err(_) => false,
        }
    }
}

/// Read and compile a filter list (`--block-list FILE`), once, to share between pages as
/// [`Steer::block_list`].
pub fn load_block_list(path: &Path) -> Result<Arc<dyn BlockList>, Error> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| Error::Input {
        input: name.clone(),
        message: format!(
            "cannot read the block list ({e}): name a filter list file in Adblock Plus syntax \
             (EasyList's easylist.txt, for one)"
        ),
        source: Some(Box::new(e)),
    })?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(Arc::new(AdblockList::parse(&name, &text)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "http://127.0.0.1:8080/page.html";

    fn plan(block: &[Blocked], list: Option<&str>) -> Option<Blocking> {
        Blocking::of(&Steer {
            block: block.to_vec(),
            block_list: list.map(|t| Arc::new(AdblockList::parse("list", t).unwrap()) as _),
            ..Steer::default()
        })
    }

    #[test]
    fn a_plan_that_blocks_nothing_checks_nothing() {
        assert!(Blocking::of(&Steer::default()).is_none());
    }

    #[test]
    fn types_are_skipped_by_cdps_names_and_documents_never() {
        let b = plan(&[Blocked::Images, Blocked::Fonts], None).unwrap();
        let img = "http://127.0.0.1:8080/a.jpg";
        assert_eq!(b.skip(img, PAGE, "Image", false), Some(Skip::Image));
        assert_eq!(b.skip(img, PAGE, "Font", false), Some(Skip::Font));
        assert_eq!(b.skip(img, PAGE, "Media", false), None);
        assert_eq!(b.skip(img, PAGE, "Script", false), None);
        assert_eq!(b.skip(img, PAGE, "Image", true), None);
        // Already in the page.
        assert_eq!(
            b.skip("data:image/png;base64,AA", PAGE, "Image", false),
            None
        );
        assert_eq!(Skip::Image.answer("Image"), Answer::Placeholder);
        assert_eq!(Skip::Font.answer("Font"), Answer::Fail);
        assert_eq!(Skip::Media.answer("Media"), Answer::Fail);
    }

    #[test]
    fn the_list_refuses_what_its_filters_match() {
        let b = plan(
            &[],
            Some("! a list\n||ads.example.com^\n/tracker.js$script\n@@||ads.example.com/ok.css\nexample.org##.banner\n"),
        )
        .unwrap();
        let s = |u: &str, t: &str| b.skip(u, PAGE, t, false);
        assert_eq!(
            s("https://ads.example.com/x.js", "Script"),
            Some(Skip::List)
        );
        assert_eq!(
            s("https://ads.example.com/x.png", "Image"),
            Some(Skip::List)
        );
        assert_eq!(Skip::List.answer("Image"), Answer::Placeholder);
        assert_eq!(Skip::List.answer("Script"), Answer::Fail);
        // An exception wins.
        assert_eq!(s("https://ads.example.com/ok.css", "Stylesheet"), None);
        // `$script` matches scripts only.
        assert_eq!(
            s("http://127.0.0.1:8080/js/tracker.js", "Script"),
            Some(Skip::List)
        );
        assert_eq!(s("http://127.0.0.1:8080/js/tracker.js", "XHR"), None);
        assert_eq!(s("http://127.0.0.1:8080/app.js", "Script"), None);
        // A frame's document may be refused; the page's own never.
        assert_eq!(
            s("https://ads.example.com/frame.html", "Document"),
            Some(Skip::List)
        );
        assert_eq!(
            b.skip("https://ads.example.com/", PAGE, "Document", true),
            None
        );
    }

    #[test]
    fn a_list_without_request_filters_is_refused_with_the_fix() {
        let e = AdblockList::parse("cosmetic.txt", "! only cosmetic\nexample.org##.banner\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("cosmetic.txt") && e.contains("Adblock Plus"),
            "{e}"
        );
        let e = load_block_list(Path::new("/nonexistent/easylist.txt"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("/nonexistent/easylist.txt") && e.contains("filter list"),
            "{e}"
        );
    }

    #[test]
    fn hosts_lines_are_filters_too() {
        let l = AdblockList::parse("hosts", "0.0.0.0 tracker.example.net\n").unwrap();
        assert_eq!(l.filters(), 1);
        assert!(l.blocks("https://tracker.example.net/p.gif", PAGE, "Image"));
    }

    #[test]
    fn skipped_requests_serialize_only_what_was_skipped() {
        let mut s = SkippedRequests::default();
        assert_eq!(serde_json::to_string(&s).unwrap(), "{}");
        s.count(Skip::Image);
        s.count(Skip::Image);
        s.count(Skip::List);
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            r#"{"images":2,"block_list":1}"#
        );
        assert_eq!(s.total(), 3);
    }
}
