//! The `crawl` and `map` tools' inputs (with the JSON schema clients see) and structured
//! results, and how a crawled page is cut and answered. Their bounds and configuration are
//! the ones `serve`'s `/crawl` and `/map` have ([`crate::crawling`]); the tools themselves
//! are in `tools/` (one router holds every tool).

use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::schemars;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::TextFormat;

use crate::admission::SteerFields;
pub use crate::crawling::{
    DEFAULT_CRAWL_DEPTH, DEFAULT_CRAWL_PAGES, MAP_RENDERS, MAX_CRAWL_PAGES, MAX_MAP_DEPTH,
    MAX_MAP_URLS,
};
use sightline::CrawlSettings;

/// Characters of each page's content a `crawl` returns when `max_chars` is not given.
pub const DEFAULT_CRAWL_CHARS: usize = 4000;
/// The most characters of each page's content a `crawl` returns.
pub const MAX_CRAWL_CHARS: usize = 100_000;

/// The input of `crawl` (any field not named here is a steering field, as on `extract`).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct CrawlParams {
    /// Where to start: an http(s) URL (the same policy as `extract`).
    pub url: String,
    /// The crawl's settings, as `serve`'s `/crawl` takes them: `max_pages` (default 10, at
    /// most 100), `max_depth` (default 2; sitemap pages are at depth 1), `scope`, `include`,
    /// `exclude`, `sitemaps`, `per_host`, `delay_ms` (milliseconds).
    #[serde(flatten)]
    pub settings: CrawlSettings,
    /// `markdown` (default) or `text`.
    #[serde(default)]
    pub format: TextFormat,
    /// Characters of each page's content to return (default 4,000, at most 100,000); longer
    /// content is cut and marked `truncated`.
    #[serde(default)]
    pub max_chars: Option<u32>,
    /// Steer every page before it is read: the steering fields, as `extract` takes them.
    #[serde(flatten)]
    pub steer: SteerFields,
}

/// The input of `map`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapParams {
    /// The site: an http(s) URL (the same policy as `extract`).
    pub url: String,
    /// The crawl's settings, as `serve`'s `/map` takes them: `max_depth` 1 (default): the
    /// seed's links and the URLs of robots.txt's sitemaps and `/sitemap.xml`; 2: the links of
    /// those pages too (at most 20 pages rendered).
    #[serde(flatten)]
    pub settings: CrawlSettings,
    /// URLs to list at most (default and most: 5,000).
    #[serde(default)]
    pub limit: Option<u32>,
}

/// One page of a `crawl`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CrawledPage {
    /// The page's final URL.
    pub url: String,
    /// `document.title`.
    pub title: String,
    /// Links followed from the seed to reach it (0: the seed).
    pub depth: u32,
    /// `seed`, `sitemap`, `link` or `feed`.
    pub found_in: String,
    /// The page it was found in (absent for the seed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// The main content, in the call's format (cut at `max_chars`).
    pub content: String,
    /// The content was longer than `max_chars`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// The canonical URL this page folds into (its content is not repeated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplicate_of: Option<String>,
    /// Why the page failed: `<kind>: <message>`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The structured result of `crawl`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CrawlResult {
    /// The pages in the order they were recorded.
    pub pages: Vec<CrawledPage>,
    /// Pages that failed (in `pages`, with their `error`).
    pub failed: usize,
    /// URLs robots.txt kept the crawl from.
    pub disallowed: usize,
    /// URLs the server's target policy refused (never fetched).
    pub refused: usize,
    /// The crawl stopped at `max_pages` (or the call's deadline) with URLs still queued.
    pub more: bool,
    /// Pages behind a wall, by the wall's kind (`{"challenge": 3, "paywall": 1}`).
    pub walls: std::collections::BTreeMap<String, usize>,
}

/// One URL `map` found.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MappedUrl {
    pub url: String,
    /// 0: the seed; 1: linked from it or listed in a sitemap.
    pub depth: u32,
    /// `seed`, `sitemap`, `link` or `feed`.
    pub found_in: String,
}

/// The structured result of `map`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MapResult {
    /// The URLs found, shallowest first.
    pub urls: Vec<MappedUrl>,
    /// More URLs were found than `limit`.
    pub more: bool,
}

/// A crawled page as `crawl` returns it: its content cut at `max_chars`.
pub(crate) fn crawled_page(out: &sightline::PageOut, max_chars: usize) -> CrawledPage {
    let r = &out.record;
    let mut content: String = out.body.chars().take(max_chars).collect();
    let truncated = content.len() < out.body.len();
    if truncated {
        content.push('…');
    }
    CrawledPage {
        url: r.url.clone().unwrap_or_else(|| r.input.clone()),
        title: r.title.clone().unwrap_or_default(),
        depth: r.depth.unwrap_or(0),
        found_in: r.found_in.clone().unwrap_or_else(|| "seed".into()),
        parent: r.parent.clone(),
        content,
        truncated,
        duplicate_of: r.duplicate_of.clone(),
        error: r
            .error
            .as_ref()
            .map(|e| format!("{}: {}", e.kind, e.message)),
    }
}

/// `crawl`'s answer: the pages as one text (each under its title and URL), then the
/// structured result as JSON without the contents (they are in the first text).
pub(crate) fn crawl_answer(result: &CrawlResult) -> CallToolResult {
    let mut text = String::new();
    for (i, p) in result.pages.iter().enumerate() {
        if i > 0 {
            text.push_str("\n\n---\n\n");
        }
        let title = if p.title.is_empty() { &p.url } else { &p.title };
        text.push_str(&format!("# {title}\n<{}>\n\n", p.url));
        match (&p.error, &p.duplicate_of) {
            (Some(e), _) => text.push_str(&format!("error ({e})")),
            (None, Some(c)) => text.push_str(&format!("(the same page as <{c}>)")),
            (None, None) => text.push_str(&p.content),
        }
    }
    let json = serde_json::to_value(result).unwrap_or(serde_json::Value::Null);
    let mut brief = json.clone();
    if let Some(pages) = brief.get_mut("pages").and_then(|p| p.as_array_mut()) {
        for p in pages {
            if let Some(o) = p.as_object_mut() {
                o.remove("content");
            }
        }
    }
    let mut r = CallToolResult::success(vec![
        ContentBlock::text(text),
        ContentBlock::text(brief.to_string()),
    ]);
    r.structured_content = Some(json);
    r
}
