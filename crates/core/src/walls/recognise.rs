//! Recognising a wall from one render: the response (status, headers, cookies), the vendor
//! markers of [`super::markers`] in the DOM and scripts, and the layout (a short page whose
//! visible content is a small centred box holding a widget).

use super::markers::{
    Marker, Where, CAPTCHA_WIDGETS, CONSENT_GLOBALS, CONSENT_ROOTS, CONSENT_WALL_PHRASES,
    LOGIN_PHRASES, MARKERS, PAYWALL_CLASSES, PAYWALL_PHRASES, PAYWALL_SCRIPTS, REFERENCE_PHRASES,
    SIGNUP_PHRASES, SOFT_ERROR_PHRASES, WALL_WORDS,
};
use super::{Wall, WallKind};
use crate::snapshot::{Node, Snapshot};

/// The response headers the renderer keeps for [`recognise`] (lower case); `set-cookie` is
/// kept for the cookies' names only.
pub const RESPONSE_HEADERS: &[&str] = &[
    "cf-mitigated",
    "x-vercel-mitigated",
    "x-amzn-waf-action",
    "x-sucuri-block",
    "x-sucuri-id",
    "x-datadome",
    "x-iinfo",
    "x-kpsdk-ct",
    "x-cdn",
    "x-akamai-transformed",
    "akamai-grn",
    "x-amz-cf-id",
    "cf-ray",
    "server",
    "retry-after",
    "date",
    "set-cookie",
];

/// The main document's response, as far as walls are concerned.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Response {
    /// The HTTP status (None for file: and data: pages).
    pub status: Option<i64>,
    /// `(lower-case name, value)` of the headers in [`RESPONSE_HEADERS`].
    pub headers: Vec<(String, String)>,
    /// Non-blank characters of text in the HTML the page loaded, when it was seen: a page
    /// whose HTML holds far more text than a wall page ([`WallParams::wall_html_text`]) is
    /// not taken for a short page because its render shows little.
    pub html_text_chars: Option<usize>,
}

impl Response {
    /// A header's value (the first of that name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The names of the cookies the response sets (CDP joins several `Set-Cookie` with a
    /// line break).
    pub fn cookies(&self) -> impl Iterator<Item = &str> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case("set-cookie"))
            .flat_map(|(_, v)| v.lines())
            .filter_map(|c| c.split('=').next())
            .map(str::trim)
            .filter(|n| !n.is_empty())
    }

    /// `Retry-After` in seconds: delta-seconds, or an HTTP date (RFC 9110 §10.2.3) counted
    /// from the response's own `Date` (the server's clock, so a skewed local clock does not
    /// matter), or from now when it has none. A date already past is 0.
    pub fn retry_after(&self) -> Option<f64> {
        let v = self.header("retry-after")?.trim();
        if let Ok(s) = v.parse::<f64>() {
            return (s.is_finite() && s >= 0.0).then_some(s);
        }
        let at = http_date(v)?;
        let from = self
            .header("date")
            .and_then(http_date)
            .unwrap_or_else(|| std::time::SystemTime::now().into());
        Some(((at - from).num_milliseconds().max(0)) as f64 / 1000.0)
    }
}

/// An HTTP date in any of the three forms RFC 9110 §5.6.7 says a recipient must read:
/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`)
/// and asctime (`Sun Nov  6 08:49:37 1994`).
fn http_date(v: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    use chrono::{NaiveDateTime, TimeZone, Utc};
    let v = v.trim();
    if let Ok(d) = chrono::DateTime::parse_from_rfc2822(v) {
        return Some(d.with_timezone(&Utc));
    }
    ["%A, %d-%b-%y %H:%M:%S GMT", "%a %b %e %H:%M:%S %Y"]
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(v, f).ok())
        .map(|n| Utc.from_utc_datetime(&n))
}

/// The bounds recognition uses. Not from a paper: chosen on wall pages of the vendors in
/// [`super::markers`] and checked for false alarms on every bench page (`docs/walls.md`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WallParams {
    /// A page showing fewer non-blank characters than this is short: a marker that is not
    /// certain counts on it. Wall pages show 100-900 (a Cloudflare block page ~700).
    pub small_text: usize,
    /// A page whose HTML holds more characters of text than this is not a wall page, however
    /// little its render shows (wall pages' HTML holds a few hundred).
    pub wall_html_text: usize,
    /// The layout rule's page holds fewer characters than this.
    pub layout_text: usize,
    /// The layout rule's box is at most this share of the viewport's width.
    pub layout_width_share: f64,
    /// Its centre is at most this share of the viewport's width from the viewport's centre.
    pub layout_centre_share: f64,
    /// A frame in the box larger than this (CSS px, either side) is not a widget.
    pub widget_max_side: f64,
    /// A wall that leaves fewer characters of the page than this (a paywall, a login or
    /// consent dialog) leaves no lead: the record is `blocked`.
    pub lead_min: usize,
    /// A consent dialog names a wall only with at least this many characters of its own text.
    pub dialog_text: usize,
    /// A dialog covering at least this share of the viewport hides the page.
    pub cover_share: f64,
    /// A page with a visible password field and fewer characters than this is a login wall.
    pub login_text: usize,
    /// A bare page (a wall page's shape: short, and fewer rendered links than this, where a
    /// site's own error page has its navigation) is one an HTTP error or a bot manager's
    /// header or cookie makes a wall with weaker evidence (a reference number, wall words).
    pub bare_links: usize,
    /// A render showing fewer characters than this is empty: a challenge whose script could
    /// not finish, when the page names a challenge platform or a bot manager.
    pub empty_text: usize,
    /// A subscription box (the part of a paywalled page kept out of its text) holds at most
    /// this many characters; a larger box with a paywall's class is the content itself.
    pub box_text: usize,
    /// A subscription box found by its words alone (no class, structured data or platform)
    /// makes a paywall only when the page outside it holds fewer characters than this: a
    /// lead under a subscription box, not an article that quotes one.
    pub lead_max: usize,
}

impl Default for WallParams {
    fn default() -> Self {
        WallParams {
            small_text: 1500,
            wall_html_text: 6000,
            layout_text: 400,
            layout_width_share: 0.7,
            layout_centre_share: 0.15,
            widget_max_side: 620.0,
            lead_min: 200,
            dialog_text: 20,
            cover_share: 0.5,
            login_text: 800,
            bare_links: 8,
            empty_text: 80,
            box_text: 800,
            lead_max: 2500,
        }
    }
}

/// A recognised wall, and whether it leaves none of the page's content (the record is then
/// `blocked`, unless walls are accepted).
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub wall: Wall,
    pub blocking: bool,
    /// The snapshot's nodes (the indices of an element's subtree) that are the wall itself
    /// on a page it leaves a lead on: a paywall's subscription box, a login or consent
    /// dialog. [`Verdict::strip`] takes them out so the text is the part left free.
    pub wall_nodes: Option<std::ops::Range<usize>>,
}

impl Verdict {
    /// Takes the wall's own nodes ([`Verdict::wall_nodes`]) out of `snap`: they are no longer
    /// rendered and their text is emptied, so no extractor keeps the subscription box or the
    /// dialog as the page's content. The node indices stay as they were.
    pub fn strip(&self, snap: &mut Snapshot) {
        if let Some(r) = &self.wall_nodes {
            for n in snap.nodes.get_mut(r.clone()).into_iter().flatten() {
                n.rendered = false;
                if n.text.is_some() {
                    n.text = Some(String::new());
                }
                n.raw = None;
            }
        }
    }
}

/// What one pass over the snapshot finds.
struct Page<'a> {
    snap: &'a Snapshot,
    /// Visible text, lower case, whitespace collapsed.
    text: String,
    /// Non-blank characters of visible text.
    chars: usize,
    error_status: bool,
    /// Rendered links (`<a href>`).
    links: usize,
}

impl<'a> Page<'a> {
    fn new(snap: &'a Snapshot, resp: &Response) -> Page<'a> {
        let mut text = String::new();
        let mut chars = 0;
        for n in &snap.nodes {
            if let (true, Some(t)) = (n.rendered, n.text.as_deref()) {
                chars += t.chars().filter(|c| !c.is_whitespace()).count();
                if text.len() < 200_000 {
                    text.push_str(&t.to_lowercase());
                    text.push(' ');
                }
            }
        }
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let links = snap
            .nodes
            .iter()
            .filter(|n| n.rendered && n.tag == "a" && n.href.is_some())
            .count();
        Page {
            snap,
            text,
            chars,
            error_status: resp.status.is_some_and(|s| s >= 400),
            links,
        }
    }

    /// The end (exclusive) of node `i`'s subtree: nodes are in pre-order.
    fn subtree_end(&self, i: usize) -> usize {
        let nodes = &self.snap.nodes;
        let mut j = i + 1;
        while j < nodes.len() && nodes[j].parent >= i as i64 {
            j += 1;
        }
        j
    }

    /// Visible characters in nodes `range`.
    fn chars_in(&self, range: std::ops::Range<usize>) -> usize {
        self.snap.nodes[range]
            .iter()
            .filter(|n| n.rendered)
            .filter_map(|n| n.text.as_deref())
            .map(|t| t.chars().filter(|c| !c.is_whitespace()).count())
            .sum()
    }

    /// The share of the viewport node `i`'s box covers (clipped to the viewport's width and
    /// its first screen).
    fn cover(&self, n: &Node) -> f64 {
        let v = &self.snap.viewport;
        if v.width <= 0.0 || v.height <= 0.0 {
            return 0.0;
        }
        let w = (n.rect.x + n.rect.w).min(v.width) - n.rect.x.max(0.0);
        let h = (n.rect.y + n.rect.h).min(v.height) - n.rect.y.max(0.0);
        (w.max(0.0) * h.max(0.0)) / (v.width * v.height)
    }
}

/// Does `marker` match? Returns the evidence phrase.
fn matches(m: &Marker, page: &Page, resp: &Response) -> Option<String> {
    let snap = page.snap;
    let has = |s: &str| s.to_ascii_lowercase().contains(m.pattern);
    match m.at {
        Where::Header(name) => {
            let v = resp.header(name)?;
            v.to_ascii_lowercase()
                .contains(m.pattern)
                .then(|| format!("header {name}: {}", short(v, 40)))
        }
        Where::Cookie => resp
            .cookies()
            .find(|c| c.to_ascii_lowercase().starts_with(m.pattern))
            .map(|c| format!("cookie {}", short(c, 30))),
        Where::Title => has(&snap.title).then(|| format!("title \"{}\"", short(&snap.title, 60))),
        Where::Text => page
            .text
            .contains(m.pattern)
            .then(|| format!("text \"{}\"", m.pattern)),
        Where::Script => snap
            .signals
            .scripts
            .iter()
            .find(|s| has(s))
            .map(|_| format!("script {}", m.pattern)),
        Where::Frame => snap
            .nodes
            .iter()
            .filter(|n| n.tag == "iframe" || n.tag == "frame" || n.tag == "img")
            .filter_map(|n| n.src.as_deref())
            .find(|s| has(s))
            .map(|_| format!("frame {}", m.pattern)),
        Where::Global => snap
            .signals
            .globals
            .iter()
            .any(|g| g == m.pattern)
            .then(|| format!("global {}", m.pattern)),
        Where::IdClass => snap
            .nodes
            .iter()
            .filter(|n| n.rendered)
            .any(|n| n.id.as_deref().is_some_and(has) || n.class.as_deref().is_some_and(has))
            .then(|| format!("element .{}", m.pattern)),
        Where::Url => has(&snap.url).then(|| format!("url {}", m.pattern)),
    }
}

/// `s` cut to `n` characters.
fn short(s: &str, n: usize) -> String {
    let s = s.trim();
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// The wall in front of a page's content, if any. Phases, in order (the first that finds
/// a wall decides it is one):
/// 1. the vendor markers ([`MARKERS`]): a certain one anywhere, the others on a short page
///    or an HTTP error page without a site's navigation;
/// 2. the status: 429, or 503 with `Retry-After`, is a rate limit;
/// 3. a bare page (short, few links) that answered an HTTP error walls answer with, or whose
///    response names a bot manager (a header, a cookie): a WAF's reference number, wall
///    words, a bot manager's name, or (401, 503) a script make it a wall of the kind the
///    status supports;
/// 4. an empty render (a challenge whose script could not finish) on a page naming a
///    challenge platform or a bot manager;
/// 5. the layout: a short page whose visible content is a small centred box holding a
///    widget (a frame, or a form on an HTTP error);
/// 6. a login or sign-up wall: a visible password field on a short page, a dialog over the
///    page;
/// 7. a paywall: a subscription box with its words, and a class, structured data, a
///    platform's script or a short lead saying so;
/// 8. a consent dialog that covers the page.
///
/// Then the kind is settled from the strongest evidence (`docs/walls.md`, "The kind"): a
/// captcha widget on a wall of phases 1-5 makes it a `captcha`; otherwise the phase's kind
/// stands (a vendor's header, then the table's order, then a reference number, then the
/// status). Last, the vendor, from any marker that names one (a `server` header, a
/// vendor's cookie).
pub fn recognise(snap: &Snapshot, resp: &Response, p: &WallParams) -> Option<Verdict> {
    let page = Page::new(snap, resp);
    let html_small = resp.html_text_chars.is_none_or(|h| h < p.wall_html_text);
    let small = page.chars < p.small_text && html_small;
    let bare = small && page.links < p.bare_links;
    let empty = page.chars < p.empty_text && html_small;
    let wall_status = resp
        .status
        .filter(|s| matches!(s, 401 | 403 | 405 | 406 | 429 | 503));
    let mut evidence = Vec::new();
    let mut kind = None;
    let mut vendor: Option<&str> = None;
    let mut blocking = true;
    let mut wall_nodes = None;
    // 1. markers.
    // A site's own page (its navigation: many links) that quotes a wall's words is none.
    let loose = (small || page.error_status) && page.links < p.bare_links;
    for m in MARKERS.iter().filter(|m| m.kind.is_some()) {
        if !(m.certain || loose) {
            continue;
        }
        if let Some(e) = matches(m, &page, resp) {
            if kind.is_none() {
                kind = m.kind;
                vendor = m.vendor;
            } else if vendor.is_none() && m.kind == kind {
                vendor = m.vendor;
            }
            if evidence.len() < 4 && !evidence.contains(&e) {
                evidence.push(e);
            }
        }
    }
    // Who stands in front of the page: the first vendor-only marker, and the first that
    // names a bot manager (not a CDN in front of every page). Looked for only where a phase
    // needs it: most pages are neither bare nor a wall.
    let named = || {
        MARKERS
            .iter()
            .filter(|m| m.kind.is_none())
            .find_map(|m| matches(m, &page, resp).map(|e| (m, e)))
    };
    let find_bot_manager = || {
        MARKERS
            .iter()
            .filter(|m| m.kind.is_none() && !cdn_only(m))
            .find_map(|m| matches(m, &page, resp).map(|e| (m, e)))
    };
    let bot_manager = if bare || kind.is_some() {
        find_bot_manager()
    } else {
        None
    };
    // A bot manager named by the response itself (a header, a cookie), not by a script.
    let by_response = bare
        && MARKERS
            .iter()
            .filter(|m| m.kind.is_none() && !cdn_only(m))
            .filter(|m| matches!(m.at, Where::Header(_) | Where::Cookie))
            .any(|m| matches(m, &page, resp).is_some());
    // 2. the status.
    if kind.is_none() {
        match resp.status {
            Some(429) => kind = Some(WallKind::RateLimited),
            Some(503) if resp.retry_after().is_some() => kind = Some(WallKind::RateLimited),
            _ => {}
        }
    }
    // A rate limit keeps the wait it asked for (`Wall::retry_after`), however it was named.
    if kind == Some(WallKind::RateLimited) {
        if let Some(r) = resp.header("retry-after") {
            let e = format!("{}{}", super::RETRY_AFTER_EVIDENCE, short(r, 20));
            if !evidence.contains(&e) {
                evidence.push(e);
            }
        }
    }
    // 3. a bare page that answered an HTTP error, or whose response names a bot manager.
    if kind.is_none() && bare && (wall_status.is_some() || by_response) {
        let title = snap.title.to_lowercase();
        let reference = reference(&page.text);
        let words = WALL_WORDS
            .iter()
            .find(|(w, _)| has_word(&page.text, w) || has_word(&title, w));
        let scripted = !snap.signals.scripts.is_empty() || !snap.signals.globals.is_empty();
        let decided = match wall_status {
            // An HTTP error: the status's kind, when the page has more to say than the status.
            Some(status) => {
                let status_kind = match status {
                    429 => Some(WallKind::RateLimited),
                    401 | 503 if scripted => Some(WallKind::Challenge),
                    403 | 405 | 406 => Some(WallKind::AccessDenied),
                    _ => None,
                };
                let more = reference.is_some() || words.is_some() || bot_manager.is_some();
                status_kind.filter(|_| more)
            }
            // Status 200 from behind a bot manager: the words' kind, or a reference number's.
            None => match (words, reference.is_some()) {
                (Some((_, k)), _) => Some(*k),
                (None, true) => Some(WallKind::AccessDenied),
                (None, false) => None,
            },
        };
        if let Some(k) = decided {
            kind = Some(k);
            if let Some(r) = reference {
                evidence.push(format!("reference \"{}\"", short(&r, 40)));
            }
            if let Some((w, _)) = words {
                evidence.push(format!("word \"{w}\""));
            }
            if scripted && k == WallKind::Challenge {
                evidence.push("a script on a bare page".to_string());
            }
            evidence.push(format!(
                "a bare page of {} characters and {} links",
                page.chars, page.links
            ));
        }
    }
    // 4. an empty render on a page that names a challenge platform or a bot manager.
    if kind.is_none() && empty {
        // A sensor's global (HUMAN's, Kasada's, AWS WAF's) runs on every page a site
        // protects, whatever it shows, and a captcha widget on a contact form: only a
        // response's header or cookie, or a challenge platform's script or frame, names one.
        let platform = MARKERS
            .iter()
            .filter(|m| m.kind.is_none() && !cdn_only(m) && m.at != Where::Global)
            .find_map(|m| matches(m, &page, resp));
        if let Some(e) = platform {
            kind = Some(match wall_status {
                Some(429) => WallKind::RateLimited,
                Some(403 | 405 | 406) => WallKind::AccessDenied,
                _ => WallKind::Challenge,
            });
            evidence.push(format!("an empty render ({} characters)", page.chars));
            evidence.push(e);
        }
    }
    // 5. the layout.
    if kind.is_none() {
        if let Some((k, v, e)) = layout(&page, resp, p) {
            kind = Some(k);
            vendor = vendor.or(v);
            evidence.push(e);
        }
    }
    // The kind from the strongest evidence: a captcha widget on a wall page.
    if matches!(
        kind,
        Some(WallKind::Challenge | WallKind::AccessDenied | WallKind::RateLimited)
    ) {
        if let Some((v, e)) = captcha_widget(&page) {
            kind = Some(WallKind::Captcha);
            if vendor.is_none() {
                vendor = Some(v);
            }
            evidence.retain(|x| *x != e);
            evidence.insert(0, e);
        }
    }
    // 6-8. walls that may leave a lead.
    if kind.is_none() {
        if let Some(w) = login(&page, p)
            .or_else(|| paywall(&page, p))
            .or_else(|| consent(&page, p))
        {
            kind = Some(w.kind);
            vendor = w.vendor;
            evidence.extend(w.evidence);
            blocking = w.left < p.lead_min;
            if !blocking {
                wall_nodes = w.nodes;
            }
        }
    }
    let kind = kind?;
    if let Some(s) = resp.status.filter(|s| *s >= 400) {
        evidence.insert(0, format!("status {s}"));
    }
    if vendor.is_none() {
        let found = match bot_manager {
            Some(b) => Some(b),
            None => find_bot_manager().or_else(named),
        };
        if let Some((m, e)) = found {
            vendor = m.vendor;
            if !evidence.contains(&e) {
                evidence.push(e);
            }
        }
    }
    evidence.truncate(8);
    Some(Verdict {
        wall: Wall {
            kind,
            vendor: vendor.map(str::to_string),
            evidence,
        },
        blocking,
        wall_nodes,
    })
}

/// A vendor-only marker that names a CDN in front of every page ([`CDN_ONLY`]), not a bot
/// manager.
fn cdn_only(m: &Marker) -> bool {
    let key = match m.at {
        Where::Header(name) if m.pattern.is_empty() => name,
        _ => m.pattern,
    };
    super::markers::CDN_ONLY.contains(&key)
}

/// A captcha widget on the page ([`CAPTCHA_WIDGETS`]): its vendor and the evidence.
fn captcha_widget(page: &Page) -> Option<(&'static str, String)> {
    CAPTCHA_WIDGETS.iter().find_map(|(at, pattern, vendor)| {
        let m = Marker {
            at: *at,
            pattern,
            kind: None,
            vendor: Some(vendor),
            certain: false,
        };
        matches(&m, page, &Response::default()).map(|e| (*vendor, format!("captcha widget: {e}")))
    })
}

/// A WAF's reference number in the text: one of [`REFERENCE_PHRASES`] followed by an
/// identifier holding a digit. Returns the phrase and the identifier.
fn reference(text: &str) -> Option<String> {
    REFERENCE_PHRASES.iter().find_map(|ph| {
        let at = text.find(ph)? + ph.len();
        let rest = text[at..].trim_start_matches([':', ' ', '#', '=']);
        let id: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
            .collect();
        (id.len() >= 4 && id.chars().any(|c| c.is_ascii_digit())).then(|| format!("{ph} {id}"))
    })
}

/// `text` holds `word` as a whole word (or phrase): no letter or digit on either side.
fn has_word(text: &str, word: &str) -> bool {
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let at = from + i;
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        if !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric) {
            return true;
        }
        from = at + word.len();
    }
    false
}

/// The consent platform's dialog root (root, vendor) node `n` is, by its id or class
/// ([`CONSENT_ROOTS`]).
fn consent_root(n: &crate::snapshot::Node) -> Option<(&'static str, &'static str)> {
    let id = n.id.as_deref().unwrap_or("").to_ascii_lowercase();
    let class = n.class.as_deref().unwrap_or("").to_ascii_lowercase();
    CONSENT_ROOTS
        .iter()
        .find(|(r, _)| id.contains(r) || class.contains(r))
        .copied()
}

/// The consent platform whose dialog root holds node `i`.
fn in_consent_root(page: &Page, mut i: usize) -> Option<&'static str> {
    loop {
        let n = &page.snap.nodes[i];
        if let Some((_, vendor)) = consent_root(n) {
            return Some(vendor);
        }
        i = usize::try_from(n.parent).ok()?;
    }
}

/// Phase 3: a short page whose visible content is a small centred box holding a widget; a
/// widget that is a consent platform's frame (Sourcepoint's dialog) makes it a consent wall.
fn layout(
    page: &Page,
    resp: &Response,
    p: &WallParams,
) -> Option<(WallKind, Option<&'static str>, String)> {
    if page.chars >= p.layout_text || page.snap.nodes.is_empty() {
        return None;
    }
    let vw = page.snap.viewport.width;
    if vw <= 0.0 {
        return None;
    }
    // The box around everything that paints: text, frames, form controls, images, canvases.
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    let mut widget = None;
    let mut consent_frame = None;
    let mut form = false;
    for (i, n) in page
        .snap
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.rendered)
    {
        let r = &n.rect;
        if r.w <= 0.0 || r.h <= 0.0 {
            continue;
        }
        let leaf = n.is_text()
            || matches!(
                n.tag.as_str(),
                "iframe" | "input" | "button" | "img" | "canvas" | "select" | "textarea"
            );
        if !leaf {
            continue;
        }
        x0 = x0.min(r.x);
        y0 = y0.min(r.y);
        x1 = x1.max(r.x + r.w);
        y1 = y1.max(r.y + r.h);
        match n.tag.as_str() {
            "iframe" => {
                let src = n.src.as_deref().unwrap_or("").to_ascii_lowercase();
                let media = ["youtube", "vimeo", "player", "video", "maps", "map?"]
                    .iter()
                    .any(|w| src.contains(w));
                if !media && r.w <= p.widget_max_side && r.h <= p.widget_max_side {
                    widget = Some("an iframe");
                    consent_frame = consent_frame.or_else(|| in_consent_root(page, i));
                }
            }
            "canvas" if r.w <= p.widget_max_side && r.h <= p.widget_max_side => {
                widget = widget.or(Some("a canvas"))
            }
            "input" | "button" | "select" | "textarea" => form = true,
            _ => {}
        }
    }
    if x1 <= x0 {
        return None;
    }
    let (w, h) = (x1 - x0, y1 - y0);
    let centred = (((x0 + x1) / 2.0) - vw / 2.0).abs() <= vw * p.layout_centre_share;
    if !(centred && w <= vw * p.layout_width_share) {
        return None;
    }
    let captcha_global = page
        .snap
        .signals
        .globals
        .iter()
        .any(|g| matches!(g.as_str(), "grecaptcha" | "hcaptcha" | "turnstile"));
    let what = match (widget, form && page.error_status, captcha_global) {
        (Some(w), _, _) => w,
        (None, _, true) => "a captcha script",
        (None, true, false) => "a form",
        (None, false, false) => return None,
    };
    let kind = match (what, resp.status) {
        ("an iframe", _) if consent_frame.is_some() => WallKind::Consent,
        ("an iframe" | "a captcha script", _) => WallKind::Captcha,
        (_, Some(403)) => WallKind::AccessDenied,
        (_, Some(429)) => WallKind::RateLimited,
        _ => WallKind::Challenge,
    };
    let what = match consent_frame {
        Some(v) if kind == WallKind::Consent => format!("{v}'s consent frame"),
        _ => what.to_string(),
    };
    Some((
        kind,
        consent_frame.filter(|_| kind == WallKind::Consent),
        format!(
            "a centred box of {}x{} px holding {what}, {} characters of text",
            w.round(),
            h.round(),
            page.chars
        ),
    ))
}

/// A wall found by phases 6-8: kind, vendor, evidence, the page's characters it leaves and
/// the nodes that are the wall itself (the box or the dialog).
struct Lead {
    kind: WallKind,
    vendor: Option<&'static str>,
    evidence: Vec<String>,
    left: usize,
    nodes: Option<std::ops::Range<usize>>,
}

/// The visible text of nodes `range`, lower case, whitespace collapsed.
fn text_in(page: &Page, range: std::ops::Range<usize>) -> String {
    let mut t = String::new();
    for n in &page.snap.nodes[range] {
        if let (true, Some(s)) = (n.rendered, n.text.as_deref()) {
            t.push_str(&s.to_lowercase());
            t.push(' ');
        }
    }
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The fixed boxes covering at least [`WallParams::cover_share`] of the screen, outermost
/// first, with their subtree's end.
fn covering_dialogs<'p>(
    page: &'p Page,
    p: &'p WallParams,
) -> impl Iterator<Item = (usize, usize)> + 'p {
    let nodes = &page.snap.nodes;
    let mut skip_to = 0;
    (0..nodes.len()).filter_map(move |i| {
        if i < skip_to {
            return None;
        }
        let n = &nodes[i];
        if !n.rendered || n.position != "fixed" || page.cover(n) < p.cover_share {
            return None;
        }
        let end = page.subtree_end(i);
        skip_to = end;
        Some((i, end))
    })
}

/// Phase 6: a login or sign-up wall: a visible password field on a short page that says the
/// content needs a login, a short page with a sign-up wall's words and a form or button, or
/// a dialog covering the page that holds a password field or a sign-up wall's words.
fn login(page: &Page, p: &WallParams) -> Option<Lead> {
    let title = page.snap.title.to_lowercase();
    let says = LOGIN_PHRASES
        .iter()
        .chain(SIGNUP_PHRASES)
        .find(|w| page.text.contains(*w) || title.contains(*w));
    let password = page.snap.signals.password_inputs > 0;
    let controls = page
        .snap
        .nodes
        .iter()
        .any(|n| n.rendered && matches!(n.tag.as_str(), "input" | "button"));
    if let (true, Some(says)) = (page.chars < p.login_text, says) {
        let signup = SIGNUP_PHRASES.contains(says);
        if password || (signup && controls) {
            let what = if password {
                "a password field"
            } else {
                "a sign-up form"
            };
            return Some(Lead {
                kind: WallKind::Login,
                vendor: None,
                evidence: vec![
                    format!("{what} on a page of {} characters", page.chars),
                    format!("text \"{says}\""),
                ],
                left: 0,
                nodes: None,
            });
        }
    }
    // A dialog over the page: a login form (a visible input, on a page with a password
    // field), or a sign-up wall's words.
    for (root, end) in covering_dialogs(page, p) {
        let nodes = &page.snap.nodes[root..end];
        let input = nodes.iter().any(|n| n.rendered && n.tag == "input");
        let words = text_in(page, root..end);
        let signup = SIGNUP_PHRASES
            .iter()
            .chain(LOGIN_PHRASES)
            .find(|w| words.contains(*w));
        let why = match (password && input, signup) {
            (true, _) => "a login dialog over the page".to_string(),
            (false, Some(w)) => format!("a sign-up dialog over the page, text \"{w}\""),
            (false, None) => continue,
        };
        let left = page.chars - page.chars_in(root..end).min(page.chars);
        return Some(Lead {
            kind: WallKind::Login,
            vendor: None,
            evidence: vec![why],
            left,
            nodes: Some(root..end),
        });
    }
    None
}

/// Node `i`'s id or class holds one of `words` (lower case): the word found.
fn class_word(n: &Node, words: &[&'static str]) -> Option<&'static str> {
    let id = n.id.as_deref().unwrap_or("").to_ascii_lowercase();
    let class = n.class.as_deref().unwrap_or("").to_ascii_lowercase();
    if id.is_empty() && class.is_empty() {
        return None;
    }
    words
        .iter()
        .find(|w| id.contains(*w) || class.contains(*w))
        .copied()
}

/// The `cssSelector`s of the parts structured data says are not free (`hasPart` with
/// `isAccessibleForFree: false`), and whether the page itself is said not to be free.
fn not_free(page: &Page) -> (bool, Vec<String>) {
    let mut page_not_free = false;
    let mut selectors = Vec::new();
    for j in &page.snap.head.json_ld {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(j) else {
            let flat = j.to_ascii_lowercase().replace(' ', "");
            page_not_free |= flat.contains("\"isaccessibleforfree\":false")
                || flat.contains("\"isaccessibleforfree\":\"false\"");
            continue;
        };
        walk_not_free(&v, &mut page_not_free, &mut selectors, 0);
    }
    (page_not_free, selectors)
}

fn is_false(v: Option<&serde_json::Value>) -> bool {
    match v {
        Some(serde_json::Value::Bool(b)) => !b,
        Some(serde_json::Value::String(s)) => s.eq_ignore_ascii_case("false"),
        _ => false,
    }
}

fn walk_not_free(v: &serde_json::Value, not_free: &mut bool, sel: &mut Vec<String>, depth: usize) {
    if depth > 8 {
        return;
    }
    match v {
        serde_json::Value::Array(a) => a
            .iter()
            .for_each(|x| walk_not_free(x, not_free, sel, depth + 1)),
        serde_json::Value::Object(o) => {
            if is_false(o.get("isAccessibleForFree")) {
                *not_free = true;
                if let Some(serde_json::Value::String(s)) = o.get("cssSelector") {
                    if sel.len() < 4 {
                        sel.push(short(s, 40));
                    }
                }
            }
            o.values()
                .for_each(|x| walk_not_free(x, not_free, sel, depth + 1));
        }
        _ => {}
    }
}

/// Phase 7: a subscription wall: its words in a box of at most [`WallParams::box_text`]
/// characters (the subscription box, kept out of the text), and one of: a paywall's class
/// on the box or around it, structured data saying the page is not free, a subscription
/// platform's script (Piano, Poool, Zephr), or a short lead outside the box.
fn paywall(page: &Page, p: &WallParams) -> Option<Lead> {
    let phrase = PAYWALL_PHRASES.iter().find(|w| page.text.contains(*w))?;
    let nodes = &page.snap.nodes;
    // The box: the outermost element with a paywall's class holding the phrase and at most
    // `box_text` characters; else the largest ancestor of the phrase's text of that size.
    let mut boxed: Option<(usize, usize, Option<&str>)> = None;
    let mut i = 0;
    while i < nodes.len() {
        let n = &nodes[i];
        if n.rendered && !n.is_text() {
            if let Some(w) = class_word(n, PAYWALL_CLASSES) {
                let end = page.subtree_end(i);
                if page.chars_in(i..end) <= p.box_text && text_in(page, i..end).contains(phrase) {
                    boxed = Some((i, end, Some(w)));
                    break;
                }
            }
        }
        i += 1;
    }
    if boxed.is_none() {
        let first = phrase.split(' ').next().unwrap_or(phrase);
        for n in nodes {
            let holds = n
                .text
                .as_deref()
                .is_some_and(|s| s.to_lowercase().contains(first));
            if !(n.rendered && n.is_text() && holds) {
                continue;
            }
            // Climb while the box stays small; keep the largest that holds the phrase.
            let mut best = None;
            let mut at = n.parent;
            while let Ok(a) = usize::try_from(at) {
                let end = page.subtree_end(a);
                if page.chars_in(a..end) > p.box_text
                    || matches!(nodes[a].tag.as_str(), "body" | "html" | "article" | "main")
                {
                    break;
                }
                if text_in(page, a..end).contains(phrase) {
                    best = Some((a, end));
                }
                at = nodes[a].parent;
            }
            if let Some((a, end)) = best {
                boxed = Some((a, end, None));
                break;
            }
        }
    }
    let (start, end, class) = boxed?;
    let left = page.chars - page.chars_in(start..end).min(page.chars);
    let (page_not_free, parts) = not_free(page);
    let platform = PAYWALL_SCRIPTS.iter().find(|(s, _)| {
        page.snap
            .signals
            .scripts
            .iter()
            .any(|x| x.to_ascii_lowercase().contains(s))
    });
    let around = class.is_none()
        && ancestors(page, start).any(|a| class_word(&nodes[a], PAYWALL_CLASSES).is_some());
    let mut evidence = Vec::new();
    match class {
        Some(w) => evidence.push(format!("a subscription box .{w}")),
        None => evidence.push(format!(
            "a subscription box of {} characters",
            page.chars_in(start..end)
        )),
    }
    evidence.push(format!("text \"{phrase}\""));
    if page_not_free {
        evidence.push("json-ld isAccessibleForFree false".to_string());
    }
    for s in &parts {
        evidence.push(format!("json-ld hasPart {s}"));
    }
    if let Some((s, _)) = platform {
        evidence.push(format!("script {s}"));
    }
    // A box found by its words alone offers something: a button, a link or a field.
    let offers = nodes[start..end]
        .iter()
        .any(|n| n.rendered && (n.link || matches!(n.tag.as_str(), "button" | "input")));
    let short_lead = left < p.lead_max && offers;
    if class.is_none() && !around && !page_not_free && platform.is_none() && !short_lead {
        return None;
    }
    if class.is_none() && !page_not_free && platform.is_none() && short_lead {
        evidence.push(format!("a lead of {left} characters"));
    }
    Some(Lead {
        kind: WallKind::Paywall,
        vendor: platform.map(|(_, v)| *v),
        evidence,
        left,
        nodes: Some(start..end),
    })
}

/// The ancestors of node `i`, nearest first.
fn ancestors<'p>(page: &'p Page, i: usize) -> impl Iterator<Item = usize> + 'p {
    std::iter::successors(usize::try_from(page.snap.nodes[i].parent).ok(), move |&a| {
        usize::try_from(page.snap.nodes[a].parent).ok()
    })
}

/// Phase 8: a consent platform's dialog covering the page (a banner beside the article is
/// not a wall), or a box covering the page with a consent wall's words
/// ([`CONSENT_WALL_PHRASES`]: "before you continue" and "accept all").
fn consent(page: &Page, p: &WallParams) -> Option<Lead> {
    for (i, n) in page.snap.nodes.iter().enumerate() {
        if !n.rendered || n.tag == "#text" {
            continue;
        }
        let Some((root, vendor)) = consent_root(n) else {
            continue;
        };
        let end = page.subtree_end(i);
        if end - i > 5000 {
            continue;
        }
        // The largest box of the dialog that holds its words: a root may be a zero-size host
        // of a fixed dialog, and a dimming layer without words (OneTrust's dark filter) hides
        // nothing.
        let cover = (i..end)
            .filter(|&k| page.snap.nodes[k].rendered && !page.snap.nodes[k].is_text())
            .filter(|&k| page.chars_in(k..page.subtree_end(k)) >= p.dialog_text)
            .map(|k| page.cover(&page.snap.nodes[k]))
            .fold(0.0, f64::max);
        // Its words must be in the page: a dialog whose words are in a frame that did not
        // load (a saved copy's Sourcepoint layer) names no wall.
        let words = page.chars_in(i..end);
        if cover >= p.cover_share && words >= p.dialog_text {
            let left = page.chars - words.min(page.chars);
            return Some(Lead {
                kind: WallKind::Consent,
                vendor: Some(vendor),
                evidence: vec![format!(
                    "a {root} dialog covering {:.0}% of the screen",
                    cover * 100.0
                )],
                left,
                nodes: Some(i..end),
            });
        }
    }
    let (lead, answer) = CONSENT_WALL_PHRASES;
    for (root, end) in covering_dialogs(page, p) {
        let words = text_in(page, root..end);
        let (Some(a), Some(b)) = (
            lead.iter().find(|w| words.contains(*w)),
            answer.iter().find(|w| words.contains(*w)),
        ) else {
            continue;
        };
        let left = page.chars - page.chars_in(root..end).min(page.chars);
        return Some(Lead {
            kind: WallKind::Consent,
            vendor: None,
            evidence: vec![format!(
                "a dialog covering {:.0}% of the screen, text \"{a}\" and \"{b}\"",
                page.cover(&page.snap.nodes[root]) * 100.0
            )],
            left,
            nodes: Some(root..end),
        });
    }
    None
}

/// The consent platform a snapshot shows, if any: one of its globals ([`CONSENT_GLOBALS`]:
/// `__tcfapi`, `__cmp`, `OneTrust`, `Didomi`, `_sp_`, `googlefc`) or a visible root of its
/// dialog ([`CONSENT_ROOTS`]). The renderer answers the dialog only on such a page, so a page
/// without one pays nothing. The renderer's settle probe asks the same question of the live
/// page, from the same two lists, before the page is steered and scrolled.
pub fn consent_platform(snap: &Snapshot) -> Option<&'static str> {
    if let Some((_, v)) = CONSENT_GLOBALS
        .iter()
        .find(|(g, _)| snap.signals.globals.iter().any(|x| x == g))
    {
        return Some(v);
    }
    snap.nodes
        .iter()
        .filter(|n| n.rendered && !n.is_text())
        .find_map(|n| {
            let id = n.id.as_deref().unwrap_or("").to_ascii_lowercase();
            let class = n.class.as_deref().unwrap_or("").to_ascii_lowercase();
            if id.is_empty() && class.is_empty() {
                return None;
            }
            CONSENT_ROOTS
                .iter()
                .find(|(r, _)| id.contains(r) || class.contains(r))
                .map(|(_, v)| *v)
        })
}

/// A soft error: the render shows one of [`SOFT_ERROR_PHRASES`] on a short page while the
/// page's HTML held far more text. Returns the phrase.
pub fn soft_error(snap: &Snapshot, html_text_chars: usize, p: &WallParams) -> Option<&'static str> {
    let page = Page::new(snap, &Response::default());
    if page.chars >= p.small_text || html_text_chars < page.chars.saturating_mul(3) {
        return None;
    }
    SOFT_ERROR_PHRASES
        .iter()
        .find(|w| page.text.contains(*w) || snap.title.to_lowercase().contains(*w))
        .copied()
}
