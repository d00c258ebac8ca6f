//! The render lanes (`--render auto|full|static`): what each asks of a page's render
//! ([`RenderMode`]), which lane a page took and why ([`LaneReport`], the record's `render`), and
//! the pure rules `auto` decides by ([`choose`] from the main document's response,
//! [`after_static`] from what the static render showed), every threshold in [`LaneParams`].
//!
//! - `full`: the page's scripts run, everything loads, the page settles and scrolls (the
//!   default).
//! - `static`: scripts disabled; stylesheets load (and frames' documents), images, media, fonts
//!   and scripts are not fetched (images are with a screenshot); `load` then the settle, which
//!   with no script and nothing else to fetch ends at its first probe; no scroll.
//! - `auto`: the main document's response decides ([`choose`]); the document is fetched once,
//!   by the browser, and a render that follows is handed the same body. A page rendered static
//!   whose render shows too little, a soft error or a wall ([`after_static`]) is rendered again
//!   in full.
//!
//! Pure: no I/O, no browser.

use serde::{Deserialize, Serialize};

/// How pages are rendered (`--render`).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum RenderMode {
    /// Decide per page from the main document's response: `static` unless its HTML shows
    /// signs of content built by scripts; a static render that shows too little, a soft error
    /// or a wall is rendered again in full (the same response reused, never fetched twice).
    Auto,
    /// Run the page's scripts, load everything, settle and scroll (the default).
    #[default]
    Full,
    /// Scripts disabled; only stylesheets (and frames' documents) fetched, no images (but with
    /// a screenshot), media, fonts or scripts; no scroll. Waits, actions and a scroll box need
    /// scripts: `static` refuses them.
    Static,
}

/// The Content-Security-Policy the static lane adds to the main document's response: what the
/// lane does not fetch (scripts, fonts, media, plugins, and images unless a screenshot is
/// taken) is then refused by Chromium itself, before any request leaves the renderer. Each
/// of those would otherwise be a request paused, sent to sightline over CDP and answered
/// there: on 20 WCXB pages served from loopback that round trip was half of the static
/// lane's navigation (docs/speed.md#render-lanes). A page's own policy still applies (a
/// second policy only narrows the first); what slips through (a CSS `url()` the page's
/// policy allows, a frame's own subresources) is still skipped at the request. Images held in
/// the page (`data:` URLs: a lazy loader's placeholder, an inline icon) are allowed: they cost
/// no request, and their own size is the box the full render lays out (a card whose 4:3 SVG
/// placeholder is refused is laid out without its picture's height: `wcxb-dev/dev-4588`).
pub fn static_policy(screenshot: bool) -> &'static str {
    if screenshot {
        "script-src 'none'; font-src 'none'; media-src 'none'; object-src 'none'"
    } else {
        "script-src 'none'; font-src 'none'; media-src 'none'; object-src 'none'; img-src data:"
    }
}

impl RenderMode {
    /// The name the flag and JSON take.
    pub fn as_str(self) -> &'static str {
        match self {
            RenderMode::Auto => "auto",
            RenderMode::Full => "full",
            RenderMode::Static => "static",
        }
    }
}

impl std::str::FromStr for RenderMode {
    type Err = String;

    fn from_str(s: &str) -> Result<RenderMode, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(RenderMode::Auto),
            "full" => Ok(RenderMode::Full),
            "static" => Ok(RenderMode::Static),
            other => Err(format!(
                "`{other}` is not a render mode: auto, full or static"
            )),
        }
    }
}

/// The lane a page's kept render took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Lane {
    /// Scripts ran, everything loaded.
    Full,
    /// Scripts off, only stylesheets fetched.
    Static,
}

impl Lane {
    /// The lane's name in records and summaries.
    pub fn as_str(self) -> &'static str {
        match self {
            Lane::Full => "full",
            Lane::Static => "static",
        }
    }
}

/// Which lane a page's render took and why: the record's `render` (present when `--render`
/// is `auto` or `static`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LaneReport {
    /// `static` or `full`: the lane of the render the record was made from.
    pub mode: Lane,
    /// Why: `asked` (`--render static`), the sign `auto` read in the response, or why a static
    /// render was followed by a full one.
    pub reason: String,
    /// Renders of the page in all: 2 when `auto` rendered it static, then in full.
    pub renders: u32,
}

impl LaneReport {
    /// The lane as summaries count it: `static`, `full`, or `static-then-full` for a page
    /// `auto` rendered twice.
    pub fn summary_key(&self) -> &'static str {
        match (self.mode, self.renders) {
            (Lane::Full, n) if n > 1 => "static-then-full",
            (m, _) => m.as_str(),
        }
    }

    /// A page that took `mode` for `reason`, in one render.
    pub fn new(mode: Lane, reason: impl Into<String>) -> LaneReport {
        LaneReport {
            mode,
            reason: reason.into(),
            renders: 1,
        }
    }
}

/// Every threshold of the lane rules, with what it changes. The values were set on the
/// fixtures (`fixtures/js-*`, `react-streaming`, `noscript-template`, `demo-news`: `full`;
/// `layout-article`, `comments-blog`, `vsse-article`, `wang-wide-column`: `static`).
#[derive(Debug, Clone, PartialEq)]
pub struct LaneParams {
    /// A page whose HTML holds fewer characters of text than this (outside scripts, styles,
    /// templates and `<noscript>`, whitespace not counted) has "little text": an empty app
    /// root, a `<noscript>` asking for JavaScript, a state blob, an iframe or large scripts
    /// then send it to `full`. 1,000: a short news story's lead and chrome.
    pub little_text_chars: usize,
    /// An element an inline script fills (named by id) holding fewer characters than this is
    /// a placeholder ("Loading…", "More of this story loads as you scroll"). 80.
    pub placeholder_chars: usize,
    /// A JSON state blob (`__NEXT_DATA__`, `__NUXT__`, `__INITIAL_STATE__`…) this many times
    /// larger than the HTML's text holds the text: `full`. 4.
    pub state_blob_ratio: f64,
    /// With little text, inline scripts this many times larger than the text: `full`. 4.
    pub script_text_ratio: f64,
    /// With little text, this many external scripts (a bundle and its chunks): `full`. 3.
    pub external_scripts: usize,
    /// A static render that shows fewer characters of text than this is rendered again in
    /// full. 200: less than a paragraph.
    pub min_static_text_chars: usize,
}

impl Default for LaneParams {
    fn default() -> Self {
        LaneParams {
            little_text_chars: 1000,
            placeholder_chars: 80,
            state_blob_ratio: 4.0,
            script_text_ratio: 4.0,
            external_scripts: 3,
            min_static_text_chars: 200,
        }
    }
}

/// The main document as one render fetched it, for a render that follows to be answered with
/// (`auto`'s full render after a static one): the page is fetched once.
#[derive(Debug, Clone)]
pub(crate) struct FetchedDocument {
    /// Its HTTP status.
    pub(crate) status: i64,
    /// Its response headers.
    pub(crate) headers: Vec<(String, String)>,
    /// Its body, as the server sent it (decoded of its Content-Encoding).
    pub(crate) body: Vec<u8>,
}

/// The lane `auto` chose for a response, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub lane: Lane,
    pub reason: String,
}

impl Choice {
    fn full(reason: impl Into<String>) -> Choice {
        Choice {
            lane: Lane::Full,
            reason: reason.into(),
        }
    }
}

/// The ids of app roots that frameworks mount into (React, Vue, Next.js, Nuxt, Gatsby,
/// Angular's default, Svelte's).
const APP_ROOTS: &[&str] = &[
    "root",
    "app",
    "__next",
    "__nuxt",
    "___gatsby",
    "app-root",
    "svelte",
];

/// Globals that hold a page's state as JSON for its scripts to render.
const STATE_BLOBS: &[&str] = &[
    "__next_data__",
    "__nuxt__",
    "__initial_state__",
    "__preloaded_state__",
    "__apollo_state__",
    "__remixcontext",
    "self.__next_f",
];

/// Calls by which a script puts content into the page.
const DOM_WRITES: &[&str] = &[
    ".innerhtml",
    "appendchild(",
    "insertadjacenthtml(",
    ".textcontent",
    ".append(",
    "replacechildren(",
    "document.write(",
];

/// Calls by which a script fetches content.
const FETCHES: &[&str] = &["fetch(", "xmlhttprequest", "$.ajax(", "$.get("];

/// The lane `auto` takes for a main document: `status` its HTTP status, `content_type` its
/// Content-Type, `html` its body decoded. In order, the first that holds:
/// 1. not HTML, or a status walls answer with (403, 429, 503): `full` (a challenge may need
///    its scripts; a PDF has its own path);
/// 2. `template`: a `<template>` or a `<script type="text/template">` (content a script
///    stamps out; React's streamed segments), or custom elements defined by a script
///    (`customElements.define`, `attachShadow`);
/// 3. `app-root`: an empty app root (`#root`, `#app`, `#__next`…) and little text;
/// 4. `state-blob`: a JSON state blob, and little text or a blob
///    [`LaneParams::state_blob_ratio`] times the text;
/// 5. `noscript`: a `<noscript>` asking for JavaScript, and little text;
/// 6. `script-fills`: an inline script that writes into the page and fetches, watches the
///    viewport (`IntersectionObserver`) or names an element holding a placeholder;
/// 7. `frame`: little text and an iframe;
/// 8. `scripts`: little text and inline scripts [`LaneParams::script_text_ratio`] times the
///    text or [`LaneParams::external_scripts`] external scripts;
/// 9. otherwise `static`.
pub fn choose(status: i64, content_type: &str, html: &str, p: &LaneParams) -> Choice {
    if !content_type.is_empty() && !content_type.to_ascii_lowercase().contains("html") {
        return Choice::full(format!("not HTML ({content_type})"));
    }
    if matches!(status, 403 | 429 | 503) {
        return Choice::full(format!(
            "status {status}: a wall may need its scripts to be recognised or passed"
        ));
    }
    let page = Scan::of(html);
    let text = page.text_chars;
    let little = text < p.little_text_chars;
    if page.templates > 0 {
        return Choice::full("template: the page holds templates its scripts fill in");
    }
    if page.defines_elements {
        return Choice::full("template: scripts define custom elements (shadow roots)");
    }
    if little {
        if let Some(id) = page.empty_app_root() {
            return Choice::full(format!(
                "app-root: #{id} is empty and the HTML holds {text} characters of text"
            ));
        }
    }
    if let Some(blob) = page.state_blob() {
        let big = page.inline_script_chars as f64 >= p.state_blob_ratio * text as f64;
        if little || big {
            return Choice::full(format!(
                "state-blob: the page's text is held in {blob} ({} characters of script, {text} of text)",
                page.inline_script_chars
            ));
        }
    }
    if little && page.noscript_asks_js {
        return Choice::full(format!(
            "noscript: <noscript> asks for JavaScript and the HTML holds {text} characters of text"
        ));
    }
    if let Some(why) = page.script_fills(p) {
        return Choice::full(format!("script-fills: {why}"));
    }
    if little && page.iframes > 0 {
        return Choice::full(format!(
            "frame: the HTML holds {text} characters of text and an iframe"
        ));
    }
    if little
        && (page.inline_script_chars as f64 >= p.script_text_ratio * text.max(1) as f64
            || page.external_scripts >= p.external_scripts)
    {
        return Choice::full(format!(
            "scripts: {text} characters of text, {} of inline script, {} external scripts",
            page.inline_script_chars, page.external_scripts
        ));
    }
    Choice {
        lane: Lane::Static,
        reason: format!(
            "server-rendered: {text} characters of text, no sign of script-built content"
        ),
    }
}

/// What [`choose`] reads in a main document, as numbers: the features of a learned decision
/// (`examples/lane_features.rs`, `scripts/lane-classifier`), whose labels say whether a static
/// render keeps the full render's extraction.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LaneFeatures {
    /// Bytes of HTML.
    pub html_bytes: usize,
    /// Non-whitespace characters of text outside scripts, styles, templates and `<noscript>`.
    pub text_chars: usize,
    /// Characters of inline script (JSON blobs included).
    pub inline_script_chars: usize,
    /// `<script src>` elements.
    pub external_scripts: usize,
    /// `<template>`s and `<script type="text/template">`s.
    pub templates: usize,
    /// A script defines custom elements or attaches shadow roots.
    pub defines_elements: bool,
    /// A `<noscript>` mentions JavaScript.
    pub noscript_asks_js: bool,
    /// `<iframe>`s.
    pub iframes: usize,
    /// An app root (`#root`, `#app`, `#__next`…) is empty.
    pub empty_app_root: bool,
    /// A JSON state blob (`__NEXT_DATA__`…) is in an inline script.
    pub state_blob: bool,
    /// An inline script writes into the page and fetches, watches the viewport or fills a
    /// placeholder (rule 6 of [`choose`]).
    pub script_fills: bool,
}

/// The features of a main document (see [`LaneFeatures`]); `p` gives the placeholder bound.
pub fn features(html: &str, p: &LaneParams) -> LaneFeatures {
    let page = Scan::of(html);
    LaneFeatures {
        html_bytes: html.len(),
        text_chars: page.text_chars,
        inline_script_chars: page.inline_script_chars,
        external_scripts: page.external_scripts,
        templates: page.templates,
        defines_elements: page.defines_elements,
        noscript_asks_js: page.noscript_asks_js,
        iframes: page.iframes,
        empty_app_root: page.empty_app_root().is_some(),
        state_blob: page.state_blob().is_some(),
        script_fills: page.script_fills(p).is_some(),
    }
}

/// What a static render showed, for [`after_static`].
#[derive(Debug, Clone, Default)]
pub struct StaticShown<'a> {
    /// Characters of text the render shows (whitespace not counted).
    pub text_chars: usize,
    /// The wall recognised in it, by kind.
    pub wall: Option<&'a str>,
    /// The soft error it shows ("page not found" where the article should be).
    pub soft_error: Option<&'a str>,
}

/// Why a page `auto` rendered static is rendered again in full, or None to keep the static
/// render: it shows fewer than [`LaneParams::min_static_text_chars`] characters, a soft
/// error, or a wall (a challenge page is passed, or recognised, with its scripts).
pub fn after_static(shown: &StaticShown, p: &LaneParams) -> Option<String> {
    if let Some(kind) = shown.wall {
        return Some(format!("the static render showed a wall ({kind})"));
    }
    if let Some(e) = shown.soft_error {
        return Some(format!("the static render showed an error (\"{e}\")"));
    }
    (shown.text_chars < p.min_static_text_chars).then(|| {
        format!(
            "the static render showed {} characters of text, fewer than {}",
            shown.text_chars, p.min_static_text_chars
        )
    })
}

/// What the lane rules read of an HTML document, in one pass over it (lower-cased; no DOM).
#[derive(Debug, Default)]
struct Scan {
    /// Non-whitespace characters of text outside scripts, styles, templates and `<noscript>`.
    text_chars: usize,
    /// The inline JavaScript, lower-cased, scripts joined by newlines.
    scripts: String,
    /// Characters of inline script (JSON blobs included).
    inline_script_chars: usize,
    /// `<script src>` elements.
    external_scripts: usize,
    /// `<template>` elements (but declarative shadow roots, which render without scripts) and
    /// `<script type="text/template">`.
    templates: usize,
    /// A script defines custom elements or attaches shadow roots.
    defines_elements: bool,
    /// A `<noscript>` mentions JavaScript.
    noscript_asks_js: bool,
    /// `<iframe>` elements.
    iframes: usize,
    /// The lower-cased document, for the element lookups.
    lower: String,
}

impl Scan {
    fn of(html: &str) -> Scan {
        let lower = html.to_ascii_lowercase();
        let mut s = Scan::default();
        let mut i = 0;
        while i < lower.len() {
            let Some(lt) = lower[i..].find('<') else {
                s.text_chars += count_text(&lower[i..]);
                break;
            };
            s.text_chars += count_text(&lower[i..i + lt]);
            i += lt;
            if lower[i..].starts_with("<!--") {
                i = lower[i + 4..]
                    .find("-->")
                    .map_or(lower.len(), |p| i + 4 + p + 3);
                continue;
            }
            let name: String = lower[i + 1..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            let Some(end) = lower[i..].find('>') else {
                break;
            };
            let tag = &lower[i..i + end + 1];
            i += end + 1;
            match name.as_str() {
                "script" | "style" | "template" | "noscript" | "textarea" => {
                    let close = format!("</{name}");
                    let stop = lower[i..].find(&close).map_or(lower.len(), |p| i + p);
                    let body = &lower[i..stop];
                    match name.as_str() {
                        "script" => s.script(tag, body),
                        "template" if !tag.contains("shadowroot") => s.templates += 1,
                        "noscript" => {
                            s.noscript_asks_js |=
                                body.contains("javascript") || body.contains("enable js")
                        }
                        "textarea" => s.text_chars += count_text(body),
                        _ => {}
                    }
                    i = stop;
                }
                "iframe" => s.iframes += 1,
                _ => {}
            }
        }
        s.defines_elements =
            s.scripts.contains("customelements.define") || s.scripts.contains("attachshadow");
        s.lower = lower;
        s
    }

    /// One `<script>` tag and its body.
    fn script(&mut self, tag: &str, body: &str) {
        let kind = attr(tag, "type").unwrap_or_default();
        if kind.contains("template") || kind.contains("x-tmpl") || kind.contains("handlebars") {
            self.templates += 1;
            return;
        }
        if attr(tag, "src").is_some() {
            self.external_scripts += 1;
            return;
        }
        self.inline_script_chars += body.trim().len();
        // JSON scripts hold state (`__NEXT_DATA__` is one, by its id).
        if kind.contains("json") {
            if let Some(id) = attr(tag, "id") {
                self.scripts.push_str(&id);
                self.scripts.push('\n');
            }
            return;
        }
        self.scripts.push_str(body);
        self.scripts.push('\n');
    }

    /// The text characters of the element whose id is `id`, if there is one (its content up
    /// to the end tag that closes it, nested elements of its name counted).
    fn element_text(&self, id: &str) -> Option<usize> {
        let l = &self.lower;
        let mut from = 0;
        while let Some(at) = l[from..].find("id=").map(|p| from + p) {
            from = at + 3;
            if !l[..at].ends_with(|c: char| c.is_whitespace()) {
                continue;
            }
            let v = l[at + 3..].trim_start_matches(['"', '\'']);
            if !(v.starts_with(id) && v[id.len()..].starts_with(['"', '\'', ' ', '>', '/'])) {
                continue;
            }
            // The tag this attribute is in.
            let open = l[..at].rfind('<')?;
            let name: String = l[open + 1..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            let start = open + l[open..].find('>')? + 1;
            let (mut depth, mut j) = (1, start);
            while depth > 0 {
                let next_open = l[j..].find(&format!("<{name}")).map(|p| j + p);
                let next_close = l[j..].find(&format!("</{name}")).map(|p| j + p);
                match (next_open, next_close) {
                    (Some(o), Some(c)) if o < c => {
                        depth += 1;
                        j = o + 1;
                    }
                    (_, Some(c)) => {
                        depth -= 1;
                        j = c + 1;
                    }
                    (_, None) => return Some(count_text_html(&l[start..])),
                }
            }
            return Some(count_text_html(&l[start..j - 1]));
        }
        None
    }

    /// The first app root ([`APP_ROOTS`]) that is empty, by id.
    fn empty_app_root(&self) -> Option<&'static str> {
        APP_ROOTS
            .iter()
            .copied()
            .find(|id| self.element_text(id).is_some_and(|n| n == 0))
    }

    /// The first state blob ([`STATE_BLOBS`]) an inline script holds.
    fn state_blob(&self) -> Option<&'static str> {
        STATE_BLOBS
            .iter()
            .copied()
            .find(|b| self.scripts.contains(b))
    }

    /// Why an inline script fills the page with content the HTML lacks, if one does.
    fn script_fills(&self, p: &LaneParams) -> Option<String> {
        let js = &self.scripts;
        if !DOM_WRITES.iter().any(|w| js.contains(w)) {
            return None;
        }
        if let Some(f) = FETCHES.iter().find(|f| js.contains(*f)) {
            return Some(format!(
                "an inline script fetches ({}) and writes into the page",
                f.trim_end_matches('(')
            ));
        }
        if js.contains("intersectionobserver") {
            return Some("an inline script writes into the page as it scrolls".into());
        }
        for id in named_ids(js) {
            if self
                .element_text(&id)
                .is_some_and(|n| n < p.placeholder_chars)
            {
                return Some(format!(
                    "an inline script writes into #{id}, which holds a placeholder"
                ));
            }
        }
        None
    }
}

/// Non-whitespace characters of a run of text.
fn count_text(s: &str) -> usize {
    s.chars().filter(|c| !c.is_whitespace()).count()
}

/// Non-whitespace characters of text in an HTML fragment, tags and scripts left out.
fn count_text_html(s: &str) -> usize {
    crate::checks::html_text_chars(s)
}

/// The value of attribute `name` in a lower-cased start tag.
fn attr(tag: &str, name: &str) -> Option<String> {
    let mut from = 0;
    while let Some(at) = tag[from..].find(name).map(|p| from + p) {
        from = at + name.len();
        let before = tag[..at].chars().last();
        if !before.is_some_and(char::is_whitespace) {
            continue;
        }
        let rest = tag[at + name.len()..].trim_start();
        let Some(rest) = rest.strip_prefix('=') else {
            return Some(String::new());
        };
        let rest = rest.trim_start();
        let v = match rest.chars().next() {
            Some(q @ ('"' | '\'')) => rest[1..].split(q).next().unwrap_or(""),
            _ => rest
                .split(|c: char| c.is_whitespace() || c == '>')
                .next()
                .unwrap_or(""),
        };
        return Some(v.to_string());
    }
    None
}

/// The ids an inline script names: `getElementById("x")` and `querySelector("#x")`.
fn named_ids(js: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for call in ["getelementbyid(", "queryselector("] {
        let mut from = 0;
        while let Some(at) = js[from..].find(call).map(|p| from + p) {
            from = at + call.len();
            let rest = js[from..].trim_start();
            let Some(q) = rest
                .chars()
                .next()
                .filter(|c| matches!(c, '"' | '\'' | '`'))
            else {
                continue;
            };
            let v = rest[1..].split(q).next().unwrap_or("");
            let v = if call == "queryselector(" {
                match v.strip_prefix('#') {
                    Some(id) => id,
                    None => continue,
                }
            } else {
                v
            };
            if !v.is_empty()
                && v.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                && !ids.iter().any(|i| i == v)
            {
                ids.push(v.to_string());
            }
        }
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_what_the_rules_read() {
        let p = LaneParams::default();
        let app = r#"<html><body><div id="root"></div><script>window.__NEXT_DATA__={"a":1}</script>
            <script src="/a.js"></script><script src="/b.js"></script></body></html>"#;
        let f = features(app, &p);
        assert!(f.empty_app_root && f.state_blob, "{f:?}");
        assert_eq!((f.external_scripts, f.templates, f.text_chars), (2, 0, 0));
        assert_eq!(choose(200, "text/html", app, &p).lane, Lane::Full);
        let article =
            "<html><body><article><p>Plain text, served whole.</p></article></body></html>";
        let f = features(article, &p);
        assert!(
            !f.empty_app_root && !f.state_blob && !f.script_fills,
            "{f:?}"
        );
        assert_eq!(f.text_chars, "Plaintext,servedwhole.".len());
        assert_eq!(f.html_bytes, article.len());
    }

    #[test]
    fn the_static_policy_refuses_what_the_lane_does_not_fetch() {
        let p = static_policy(false);
        for d in [
            "script-src 'none'",
            "font-src 'none'",
            "media-src 'none'",
            "img-src data:",
        ] {
            assert!(p.contains(d), "{p}");
        }
        // Only the images held in the page itself.
        let img = p.split(';').find(|d| d.contains("img-src")).unwrap();
        assert_eq!(img.trim(), "img-src data:", "{p}");
        // Stylesheets and frames load; a screenshot needs the images.
        assert!(!p.contains("style-src") && !p.contains("frame-src"), "{p}");
        assert!(!static_policy(true).contains("img-src"));
    }

    fn lane(html: &str) -> Choice {
        choose(
            200,
            "text/html; charset=utf-8",
            html,
            &LaneParams::default(),
        )
    }

    fn article(extra: &str) -> String {
        let p = "<p>The harbour wall was finished in the spring, after eleven years of storms, \
                 strikes and arguments over who would pay for the last hundred metres of it.</p>";
        format!(
            "<html><head><title>A story</title></head><body><header><nav><a href=/>Home</a></nav></header><main><h1>The wall</h1>{}</main>{extra}</body></html>",
            p.repeat(12)
        )
    }

    #[test]
    fn a_server_rendered_article_is_static() {
        let c = lane(&article(
            "<script>window.dataLayer=[];function gtag(){dataLayer.push(arguments)}</script>",
        ));
        assert_eq!(c.lane, Lane::Static, "{c:?}");
        assert!(c.reason.starts_with("server-rendered"), "{c:?}");
    }

    #[test]
    fn an_empty_app_root_is_full() {
        let c = lane(
            r#"<html><body><div id="root"></div><script src="/static/js/main.3f2a.js"></script></body></html>"#,
        );
        assert_eq!(c.lane, Lane::Full);
        assert!(c.reason.starts_with("app-root: #root"), "{c:?}");
        // An app root holding the server's rendering is not empty.
        let ssr = format!(r#"<div id="__next">{}</div>"#, article(""));
        assert_eq!(lane(&ssr).lane, Lane::Static);
    }

    #[test]
    fn a_state_blob_holding_the_text_is_full() {
        let blob = format!(
            r#"<script id="__NEXT_DATA__" type="application/json">{{"props":{{"body":"{}"}}}}</script>"#,
            "words ".repeat(400)
        );
        let c = lane(&format!(
            "<html><body><div id=__next><h1>Title</h1></div>{blob}</body></html>"
        ));
        assert_eq!(c.lane, Lane::Full);
        assert!(
            c.reason
                .starts_with("state-blob: the page's text is held in __next_data__"),
            "{c:?}"
        );
        // A server-rendered article with a small blob stays static.
        let small = r#"<script>window.__INITIAL_STATE__={"user":null}</script>"#;
        assert_eq!(lane(&article(small)).lane, Lane::Static);
    }

    #[test]
    fn noscript_asking_for_javascript_with_little_text_is_full() {
        let c = lane("<html><body><noscript>You need to enable JavaScript to run this app.</noscript><div id=main></div></body></html>");
        assert_eq!(c.lane, Lane::Full);
        assert!(c.reason.starts_with("noscript"), "{c:?}");
        // On a page with its text, the same <noscript> (a comments widget's) is no sign.
        let with_text =
            article("<noscript>Please enable JavaScript to view the comments.</noscript>");
        assert_eq!(lane(&with_text).lane, Lane::Static);
    }

    #[test]
    fn templates_and_custom_elements_are_full() {
        let c = lane(&article(
            r#"<template id="B:0"></template><div hidden id="S:0"><p>x</p></div>"#,
        ));
        assert!(c.reason.starts_with("template"), "{c:?}");
        let c = lane(&article(
            r#"<script type="text/template" id="t"><p>x</p></script>"#,
        ));
        assert!(c.reason.starts_with("template"), "{c:?}");
        let c = lane(&article(
            "<story-card></story-card><script>customElements.define('story-card', class extends HTMLElement {})</script>",
        ));
        assert!(c.reason.starts_with("template: scripts define"), "{c:?}");
        // A declarative shadow root renders without scripts.
        let c = lane(&article(
            r#"<x-y><template shadowrootmode="open"><p>hi</p></template></x-y>"#,
        ));
        assert_eq!(c.lane, Lane::Static, "{c:?}");
    }

    #[test]
    fn an_inline_script_filling_a_placeholder_is_full() {
        let c = lane(&article(
            r#"<section id="rest"><p>More of this story loads as you scroll.</p></section><script>var r = document.getElementById("rest"); r.innerHTML = "<p>more</p>";</script>"#,
        ));
        assert_eq!(c.lane, Lane::Full);
        assert!(c.reason.contains("#rest"), "{c:?}");
        let c = lane(&article(
            r#"<script>fetch("/more").then(r => r.text()).then(t => document.body.insertAdjacentHTML("beforeend", t))</script>"#,
        ));
        assert!(
            c.reason
                .starts_with("script-fills: an inline script fetches"),
            "{c:?}"
        );
        // A script writing into an element that holds its text is no sign.
        let c = lane(&format!(
            r#"{}<script>document.getElementById("story").appendChild(document.createElement("hr"))</script>"#,
            article("").replace("<main>", r#"<main id="story">"#)
        ));
        assert_eq!(c.lane, Lane::Static, "{c:?}");
    }

    #[test]
    fn little_text_with_a_frame_or_big_scripts_is_full() {
        let c =
            lane(r#"<html><body><h1>Gazette</h1><iframe src="story.html"></iframe></body></html>"#);
        assert!(c.reason.starts_with("frame"), "{c:?}");
        let c = lane(
            r#"<html><body><h1>Shop</h1><script src=a.js></script><script src=b.js></script><script src=c.js></script></body></html>"#,
        );
        assert!(c.reason.starts_with("scripts"), "{c:?}");
    }

    #[test]
    fn walls_and_other_types_are_full() {
        let p = LaneParams::default();
        assert_eq!(choose(503, "text/html", &article(""), &p).lane, Lane::Full);
        assert_eq!(choose(200, "application/pdf", "", &p).lane, Lane::Full);
        // No Content-Type (a file): by the body.
        assert_eq!(choose(200, "", &article(""), &p).lane, Lane::Static);
    }

    #[test]
    fn a_static_render_showing_too_little_a_soft_error_or_a_wall_goes_full() {
        let p = LaneParams::default();
        let ok = StaticShown {
            text_chars: 1500,
            ..Default::default()
        };
        assert_eq!(after_static(&ok, &p), None);
        let thin = StaticShown {
            text_chars: 40,
            ..Default::default()
        };
        assert!(after_static(&thin, &p).unwrap().contains("40 characters"));
        let wall = StaticShown {
            wall: Some("challenge"),
            ..ok.clone()
        };
        assert!(after_static(&wall, &p).unwrap().contains("challenge"));
        let soft = StaticShown {
            soft_error: Some("page not found"),
            ..ok
        };
        assert!(after_static(&soft, &p).unwrap().contains("page not found"));
    }

    /// The fixtures whose content scripts build go `full`; the plain articles `static`.
    #[test]
    fn the_fixtures_take_their_lanes() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
        let lane_of = |name: &str| {
            let html = std::fs::read_to_string(root.join(name).join("page.html")).unwrap();
            (name.to_string(), lane(&html))
        };
        let mut full: Vec<String> = std::fs::read_dir(&root)
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.starts_with("js-"))
            .collect();
        full.sort();
        assert!(full.len() >= 7, "{full:?}");
        // demo-news writes its article from a JSON script into `#app` ("Loading article…").
        full.extend(["react-streaming", "noscript-template", "demo-news"].map(String::from));
        for (name, c) in full.iter().map(|n| lane_of(n)) {
            assert_eq!(c.lane, Lane::Full, "{name}: {c:?}");
        }
        for (name, c) in [
            "layout-article",
            "comments-blog",
            "vsse-article",
            "wang-wide-column",
        ]
        .map(lane_of)
        {
            assert_eq!(c.lane, Lane::Static, "{name}: {c:?}");
        }
    }

    #[test]
    fn attributes_and_named_ids() {
        assert_eq!(
            attr(r#"<script type="text/template" id=t>"#, "type").as_deref(),
            Some("text/template")
        );
        assert_eq!(
            attr("<script src=a.js async>", "src").as_deref(),
            Some("a.js")
        );
        assert_eq!(attr("<script data-src=a.js>", "src"), None);
        assert_eq!(
            named_ids(
                r#"document.getelementbyid("more"); document.queryselector('#feed'); document.queryselector('.x')"#
            ),
            vec!["more", "feed"]
        );
    }
}
