//! Recognising a wall from one render: the response (status, headers, cookies), the vendor
//! markers of [`super::markers`] in the DOM and scripts, and the layout (a short page whose
//! visible content is a small centred box holding a widget).

use super::markers::{
    Marker, Where, CONSENT_GLOBALS, CONSENT_ROOTS, LOGIN_PHRASES, MARKERS, PAYWALL_CLASSES,
    PAYWALL_PHRASES, SOFT_ERROR_PHRASES,
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
        }
    }
}

/// A recognised wall, and whether it leaves none of the page's content (the record is then
/// `blocked`, unless walls are accepted).
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub wall: Wall,
    pub blocking: bool,
}

/// What one pass over the snapshot finds.
struct Page<'a> {
    snap: &'a Snapshot,
    /// Visible text, lower case, whitespace collapsed.
    text: String,
    /// Non-blank characters of visible text.
    chars: usize,
    error_status: bool,
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
        Page {
            snap,
            text,
            chars,
            error_status: resp.status.is_some_and(|s| s >= 400),
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
/// a wall decides its kind):
/// 1. the vendor markers ([`MARKERS`]): a certain one anywhere, the others on a short page
///    or an HTTP error;
/// 2. the status: 429, or 503 with `Retry-After`, is a rate limit;
/// 3. the layout: a short page whose visible content is a small centred box holding a
///    widget (a frame, or a form on an HTTP error);
/// 4. a login wall: a visible password field on a short page, or in a dialog over the page;
/// 5. a paywall: a subscription wall's box or structured data, with its words visible;
/// 6. a consent dialog that covers the page;
///
/// then the vendor, from any marker that names one (a `server` header, a vendor's cookie).
pub fn recognise(snap: &Snapshot, resp: &Response, p: &WallParams) -> Option<Verdict> {
    let page = Page::new(snap, resp);
    let small =
        page.chars < p.small_text && resp.html_text_chars.is_none_or(|h| h < p.wall_html_text);
    let mut evidence = Vec::new();
    let mut kind = None;
    let mut vendor: Option<&str> = None;
    let mut blocking = true;
    // 1. markers.
    for m in MARKERS.iter().filter(|m| m.kind.is_some()) {
        if !(m.certain || small || page.error_status) {
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
    // 3. the layout.
    if kind.is_none() {
        if let Some((k, v, e)) = layout(&page, resp, p) {
            kind = Some(k);
            vendor = vendor.or(v);
            evidence.push(e);
        }
    }
    // 4-6. walls that may leave a lead.
    if kind.is_none() {
        if let Some((k, v, e, left)) = login(&page, p)
            .or_else(|| paywall(&page, p))
            .or_else(|| consent(&page, p))
        {
            kind = Some(k);
            vendor = v;
            evidence.push(e);
            blocking = left < p.lead_min;
        }
    }
    let kind = kind?;
    if let Some(s) = resp.status.filter(|s| *s >= 400) {
        evidence.insert(0, format!("status {s}"));
    }
    if vendor.is_none() {
        for m in MARKERS.iter().filter(|m| m.kind.is_none()) {
            if let Some(e) = matches(m, &page, resp) {
                vendor = m.vendor;
                evidence.push(e);
                break;
            }
        }
    }
    Some(Verdict {
        wall: Wall {
            kind,
            vendor: vendor.map(str::to_string),
            evidence,
        },
        blocking,
    })
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

/// A wall found by phases 4-6: kind, vendor, evidence, the page's characters it leaves.
type Partial = (WallKind, Option<&'static str>, String, usize);

/// The nearest ancestor-or-self of node `i` whose position is fixed (a dialog over the page).
fn fixed_root(page: &Page, mut i: usize) -> Option<usize> {
    let nodes = &page.snap.nodes;
    loop {
        if nodes[i].position == "fixed" {
            return Some(i);
        }
        let p = nodes[i].parent;
        if p < 0 {
            return None;
        }
        i = p as usize;
    }
}

/// Phase 4: a visible password field on a short page, or in a dialog covering the page.
fn login(page: &Page, p: &WallParams) -> Option<Partial> {
    if page.snap.signals.password_inputs == 0 {
        return None;
    }
    let title = page.snap.title.to_lowercase();
    let says = LOGIN_PHRASES
        .iter()
        .find(|w| page.text.contains(*w) || title.contains(*w));
    if let (true, Some(says)) = (page.chars < p.login_text, says) {
        return Some((
            WallKind::Login,
            None,
            format!(
                "a password field on a page of {} characters, text \"{says}\"",
                page.chars
            ),
            0,
        ));
    }
    // A dialog over the page holding a visible input: is it a password field? The snapshot
    // does not say an input's type; a fixed box covering the page with a form is taken as
    // the login dialog only when the page has a visible password field.
    for (i, n) in page.snap.nodes.iter().enumerate() {
        if n.tag != "input" || !n.rendered {
            continue;
        }
        if let Some(root) = fixed_root(page, i) {
            let r = &page.snap.nodes[root];
            if page.cover(r) >= p.cover_share {
                let end = page.subtree_end(root);
                let left = page.chars - page.chars_in(root..end).min(page.chars);
                return Some((
                    WallKind::Login,
                    None,
                    "a login dialog over the page".to_string(),
                    left,
                ));
            }
        }
    }
    None
}

/// Phase 5: a subscription wall: its box (a paywall class, or structured data saying the
/// page is not free) and its words, visible.
fn paywall(page: &Page, p: &WallParams) -> Option<Partial> {
    let phrase = PAYWALL_PHRASES.iter().find(|w| page.text.contains(*w))?;
    let not_free = page.snap.head.json_ld.iter().any(|j| {
        let j = j.to_ascii_lowercase().replace(' ', "");
        j.contains("\"isaccessibleforfree\":false")
            || j.contains("\"isaccessibleforfree\":\"false\"")
    });
    let boxed = page.snap.nodes.iter().enumerate().find(|(_, n)| {
        n.rendered
            && PAYWALL_CLASSES.iter().any(|c| {
                n.id.as_deref()
                    .is_some_and(|v| v.to_ascii_lowercase().contains(c))
                    || n.class
                        .as_deref()
                        .is_some_and(|v| v.to_ascii_lowercase().contains(c))
            })
    });
    if boxed.is_none() && !not_free {
        return None;
    }
    let _ = p;
    let (left, why) = match boxed {
        Some((i, _)) => {
            let end = page.subtree_end(i);
            (
                page.chars - page.chars_in(i..end).min(page.chars),
                "a paywall box",
            )
        }
        None => (page.chars, "isAccessibleForFree false"),
    };
    Some((
        WallKind::Paywall,
        None,
        format!("{why}, text \"{phrase}\""),
        left,
    ))
}

/// Phase 6: a consent platform's dialog covering the page (a banner beside the article is
/// not a wall).
fn consent(page: &Page, p: &WallParams) -> Option<Partial> {
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
            return Some((
                WallKind::Consent,
                Some(vendor),
                format!(
                    "a {root} dialog covering {:.0}% of the screen",
                    cover * 100.0
                ),
                left,
            ));
        }
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
