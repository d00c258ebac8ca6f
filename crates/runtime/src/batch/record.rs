//! One output record per input: a page's result, or its error with a kind.

use serde::Serialize;

use crate::output::json::AlgorithmResult;
use crate::render::Timings;

/// The error part of a record.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ErrorInfo {
    pub kind: String,
    pub message: String,
    /// Why a `document` error's PDF cannot be read: `encrypted`, `broken` or `image-only`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One output record: a page's result or its error.
#[derive(Debug, Clone, Serialize, Default, schemars::JsonSchema)]
pub struct Record {
    pub input: String,
    /// Position of the input in the run's input list (records are written as pages finish).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// `crawl`: links followed from a seed to this page (seeds 0, pages their sitemaps
    /// list 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// `crawl`: the page (or sitemap, or feed) this page was found in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// `crawl`: how this page was found: `seed`, `sitemap`, `link` or `feed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found_in: Option<String>,
    /// `crawl`: the page's `rel=canonical` names another URL, crawled in its place; this
    /// record holds no content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplicate_of: Option<String>,
    /// `crawl`: the page's text is a near-duplicate (SimHash within 3 bits) of this earlier
    /// page's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub near_duplicate_of: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// HTTP status of the main document (absent for file:// pages).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The page's metadata, each field with where it was read
    /// ([`crate::extract::metadata`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<crate::extract::metadata::Metadata>,
    /// The page's type (article, product, listing, forum, collection, service,
    /// documentation): predicted from its markup and URL with the model's probability, or
    /// stated by the caller (`page_type`); [`crate::extract::page_type`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_type: Option<crate::extract::page_type::PageType>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub result: Option<AlgorithmResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub algorithms: Option<std::collections::BTreeMap<String, AlgorithmResult>>,
    /// Each `learned` text unit with its box, text, probability, top feature contributions
    /// and the algorithms that keep it (asked for with `units`: the service's `units: true`);
    /// absent unless asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<Vec<crate::overlay::UnitView>>,
    /// The page's body in `body_format` (markdown, text or html), when a JSON record was
    /// asked to carry it (the CLI's `--body`, the service's `body`); absent otherwise. With
    /// several algorithms, each one's under a `==> name <==` line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// The format of `body`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_format: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timings_ms: Option<Timings>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screenshot: Option<String>,
    /// The screenshot was cut at `--max-screenshot-height`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub screenshot_truncated: bool,
    /// Files written for this page with `-o DIR`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    /// A repair applied to the page's HTML (e.g. "unclosed <title>").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repaired: Option<String>,
    /// JavaScript dialogs (alert, confirm, prompt, beforeunload) answered automatically.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dialogs: Option<usize>,
    /// Requests the page's steering plan skipped, by reason (`images`, `media`, `fonts`:
    /// `--block`; `block_list`: `--block-list`); absent when none was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped_requests: Option<crate::render::steer::SkippedRequests>,
    /// Segments of React's streaming server rendering (`<div hidden id="S:n">`) that the
    /// snapshot put in their place because the page's inline script that does it never ran
    /// (a saved copy without its scripts, or JavaScript disabled).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub streamed_segments: Option<u32>,
    /// "disabled-fallback" when the snapshot was rendered with JavaScript disabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub javascript: Option<String>,
    /// The render lane this record's snapshot came from (`--render auto` or `static`; absent
    /// for the default `full`): `mode` (`static` or `full`), the `reason` (`asked`, the sign
    /// `auto` read in the response, or why a static render was followed by a full one) and
    /// the page's `renders` (2 when `auto` rendered it static, then in full).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub render: Option<crate::render::lane::LaneReport>,
    /// What the scroll phase did before the snapshot: `px` scrolled, `steps`, and why it
    /// `stopped` (`bottom`, a bound: `max-scroll-px` / `max-scroll-steps` / `time-budget`, or
    /// a skip: `fits-viewport` / `no-scroll-hints` / `off` / `static`), with the document height
    /// before and after.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scroll: Option<crate::render::ScrollReport>,
    /// What each of the page's actions did (`index`, `action`, `outcome`: `ok` or `skipped`,
    /// `clicks` of a repeated click, `message`, `ms`); omitted when the page had none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actions: Option<Vec<crate::render::steer::ActionOutcome>>,
    /// The wall in front of the page's content ([`crate::walls`]): on a `blocked` error, the
    /// wall that left nothing of the page; on a success, a paywall or a login or consent
    /// dialog that left a lead, or any wall with `accept_walls`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall: Option<crate::walls::Wall>,
    /// The error message a script put in place of the article (`"页面不存在"`, "page not
    /// found"), shown by the render while the page's HTML holds far more text, and kept
    /// because the render with JavaScript disabled did no better (when it does, `javascript`
    /// says `disabled-fallback` instead).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub soft_error: Option<String>,
    /// What was done with the page's consent dialog before the snapshot (`--consent`): the
    /// platform, the action, whether the dialog was found and answered, the clicks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consent: Option<crate::render::ConsentReport>,
    /// `serve` with `warc: true`: the name of the WARC the page's records went to, in the
    /// service's `--warc-dir`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warc: Option<String>,
    /// The document the page was laid out from when its main document was not HTML
    /// (`{"type": "pdf", "pages": N, "dropped_lines": N}`, docs/pdf.md); omitted for HTML.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document: Option<crate::render::Document>,
    /// 1 when the page was retried after a renderer crash or a lost browser.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retries: Option<u32>,
    /// `crawl`: the page's out-links, each marked as in the content or not, and nofollow.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub links: Option<Vec<crate::extract::links::PageLink>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
}
