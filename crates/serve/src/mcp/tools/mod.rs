//! The MCP tools: `extract`, `screenshot`, `snapshot`, `crawl` and `map`, their input types (each with the JSON
//! schema clients see, derived with `schemars`), their structured results, and the mapping of
//! a failed page to a tool error. Each tool checks the target against the policy, renders the
//! page through the shared [`Extractor`](sightline::Extractor), and reads its answer from the
//! [`Page`] (its content, the library's metadata): no extraction logic of its own beyond
//! small reads of the snapshot (the links inside the kept nodes, the largest text blocks).
//! `crawl` and `map` check their seed against the policy and run the library's crawl
//! ([`sightline::Extractor::crawl_with`], [`sightline::Extractor::map`]) bounded in pages,
//! characters and time; every page it renders passes the browser's policy.

use std::sync::Arc;

use base64::Engine;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{schemars, tool, tool_router, ErrorData};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::crawl::*;
use super::{McpServer, TextFormat};
use crate::admission::{self, Admitted, Operator, PageRequest, Refusal, SteerFields};
use crate::crawling::{Bounds, Job};
use sightline::extract::metadata::Metadata;
use sightline::snapshot::{NodeId, Tree};
use sightline::{CrawlConfig, CrawlSettings, PageConfig};
use sightline::{Error, Page, Source};

/// Text blocks a `snapshot` lists when `max_nodes` is not given.
pub const DEFAULT_SNAPSHOT_BLOCKS: usize = 20;
/// The most text blocks (and content roots) a `snapshot` lists.
pub const MAX_SNAPSHOT_BLOCKS: usize = 200;
/// Characters of a block's text quoted in a `snapshot`.
const EXCERPT_CHARS: usize = 160;

/// The input of `extract`: the page and the one request shape of `serve`'s `/extract`
/// ([`PageRequest`]: algorithm, format, comments, warc, and the steering fields of
/// `sightline::Steer` at the top level or, as an alias, under `steer`).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ExtractParams {
    /// The page: an http(s) URL. Private, loopback and file:// targets are refused unless the
    /// server allows them.
    pub url: String,
    /// The page's choices (`format`: `markdown`, the default, or `text`) and steering fields.
    #[serde(flatten)]
    pub page: PageRequest,
}

/// The input of `screenshot`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ScreenshotParams {
    /// The page: an http(s) URL (the same policy as `extract`).
    pub url: String,
    /// The whole page (cut at 16,384 CSS px) instead of the first viewport (default false).
    #[serde(default)]
    pub full_page: Option<bool>,
    /// The steering fields, as `extract` takes them.
    #[serde(flatten)]
    pub steer: SteerFields,
}

/// The input of `snapshot`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SnapshotParams {
    /// The page: an http(s) URL (the same policy as `extract`).
    pub url: String,
    /// How many of the largest text blocks to list (default 20, at most 200).
    #[serde(default)]
    pub max_nodes: Option<u32>,
    /// The steering fields, as `extract` takes them.
    #[serde(flatten)]
    pub steer: SteerFields,
}

/// A link inside the extracted content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Link {
    /// The link's kept text (or its image's alt text).
    pub text: String,
    /// The absolute URL it points to.
    pub href: String,
}

/// The structured result of `extract`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ExtractResult {
    /// The page's final URL, after redirects.
    pub url: String,
    /// `document.title`.
    pub title: String,
    /// The format of `content`.
    pub format: TextFormat,
    /// The algorithm that chose the content.
    pub algorithm: String,
    /// The main content, in `format`.
    pub content: String,
    /// What the page says about itself (authors, dates, site, language, description,
    /// canonical URL, image, tags), each field with where it was read; absent fields were
    /// found nowhere.
    pub metadata: Metadata,
    /// The links inside the content, in document order, each (text, href) once.
    pub links: Vec<Link>,
    /// Milliseconds of each phase (navigate, settle, scroll, snapshot, score).
    pub timings_ms: serde_json::Value,
    /// The wall in front of the content that left some of it (a paywall, a login or consent
    /// dialog over a lead): its kind, vendor and evidence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall: Option<sightline::walls::Wall>,
    /// With `warc: true`: the WARC's file name in the server's `--warc-dir`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warc: Option<String>,
}

/// A width and height in CSS px.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub struct Size {
    pub width: f64,
    pub height: f64,
}

/// One block of the page in a `snapshot`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Block {
    /// Lower-case tag name.
    pub tag: String,
    /// CSS selector path from `<body>`, exact in the rendered DOM.
    pub path: String,
    /// The rendered box in CSS px, document coordinates: `[x, y, width, height]`.
    #[serde(rename = "box")]
    pub rect: [f64; 4],
    /// Characters of text inside it.
    pub chars: usize,
    /// The start of its text.
    pub excerpt: String,
}

/// The structured result of `snapshot`: the layout in brief.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SnapshotSummary {
    /// The page's final URL.
    pub url: String,
    /// `document.title`.
    pub title: String,
    /// The layout viewport.
    pub viewport: Size,
    /// The scrollable document.
    pub page: Size,
    /// Elements and text nodes in the snapshot.
    pub node_count: usize,
    /// Characters of visible text on the page.
    pub text_chars: usize,
    /// The algorithm that chose `content_roots`.
    pub algorithm: String,
    /// The roots of the main content's subtrees, in document order.
    pub content_roots: Vec<Block>,
    /// The blocks holding the most text (block elements with no block inside that holds
    /// text), largest first.
    pub text_blocks: Vec<Block>,
}

/// The structured part of `screenshot`'s answer (the PNG is the image content).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ScreenshotInfo {
    /// The page's final URL.
    pub url: String,
    /// `document.title`.
    pub title: String,
    /// The image's size in pixels.
    pub width: u32,
    pub height: u32,
    /// The whole page, or the first viewport.
    pub full_page: bool,
}

/// The tool error for a page that failed: `error (<kind>): <message>`, with the front end's
/// hint when it has one.
/// A wall (`blocked`) also gives the wall as structured content: `{"error": "blocked",
/// "wall": {"kind", "vendor", "evidence"}}`.
pub(crate) fn error_result(e: &Error, cfg: &PageConfig) -> CallToolResult {
    let mut r = CallToolResult::error(vec![ContentBlock::text(format!(
        "error ({}): {}",
        e.kind(),
        cfg.message(e)
    ))]);
    if let Error::Blocked { wall, .. } = e {
        r.structured_content = Some(serde_json::json!({ "error": e.kind(), "wall": wall }));
    }
    r
}

/// The tool error for a call refused before anything was rendered: `error (<kind>):
/// <message>`, as a failed page's.
pub(crate) fn refusal_result(r: &Refusal) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!(
        "error ({}): {}",
        r.kind_name(),
        r.message
    ))])
}

/// A success with `value` as structured content and, after `first` (the content itself, if
/// any), its JSON as text for clients that read text only.
fn structured<T: Serialize>(first: Option<ContentBlock>, value: &T) -> CallToolResult {
    let json = serde_json::to_value(value).unwrap_or(serde_json::Value::Null);
    let mut content: Vec<ContentBlock> = first.into_iter().collect();
    content.push(ContentBlock::text(json.to_string()));
    let mut r = CallToolResult::success(content);
    r.structured_content = Some(json);
    r
}

#[tool_router(router = tool_router, vis = "pub(crate)")]
impl McpServer {
    /// Render a page in headless Chromium and return its main content as Markdown (or plain
    /// text), without navigation, ads or other boilerplate. The structured result adds the
    /// page's title, final URL, metadata (authors, dates, site, language, description,
    /// canonical URL), the links inside the content and the time each phase took.
    #[tool(
        name = "extract",
        annotations(title = "Extract a page's main content", read_only_hint = true, open_world_hint = true),
        output_schema = rmcp::handler::server::common::schema_for_output::<ExtractResult>()
    )]
    async fn extract(
        &self,
        Parameters(p): Parameters<ExtractParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let mut req = p.page;
        let format = match req.format.as_deref().unwrap_or("markdown") {
            "markdown" => TextFormat::Markdown,
            "text" => TextFormat::Text,
            f => {
                return Ok(refusal_result(&Refusal::input(format!(
                    "format={f}: the extract tool writes markdown or text (its structured result carries the rest)"
                ))))
            }
        };
        req.format = Some(format.name().into());
        let Admitted {
            page: cfg, warc, ..
        } = match self.admitted_page(&p.url, &req).await {
            Ok(a) => a,
            Err(r) => return Ok(r),
        };
        let cfg = Arc::new(cfg);
        let page = match self.page(&p.url, &cfg, false).await {
            Ok(page) => page,
            Err(e) => return Ok(error_result(&e, &cfg)),
        };
        let content = match format {
            TextFormat::Markdown => page.markdown(),
            TextFormat::Text => page.text(),
        };
        let mut result = extract_result(&page, format, content);
        if let Some((name, w)) = warc {
            if let Err(e) = w.finish() {
                return Ok(error_result(&e, &cfg));
            }
            result.warc = Some(name);
        }
        let json = serde_json::to_value(&result).unwrap_or(serde_json::Value::Null);
        // The text blocks: the content, then the rest of the structured result as JSON.
        let mut rest = json.clone();
        if let Some(o) = rest.as_object_mut() {
            o.remove("content");
        }
        let mut r = CallToolResult::success(vec![
            ContentBlock::text(result.content),
            ContentBlock::text(rest.to_string()),
        ]);
        r.structured_content = Some(json);
        Ok(r)
    }

    /// Render a page in headless Chromium and return a PNG screenshot of its first viewport
    /// (or the whole page with `full_page`), with its title and final URL.
    #[tool(
        name = "screenshot",
        annotations(
            title = "Screenshot a page",
            read_only_hint = true,
            open_world_hint = true
        )
    )]
    async fn screenshot(
        &self,
        Parameters(p): Parameters<ScreenshotParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let (page, cfg) = match self.steered_page(&p.url, p.steer, true).await {
            Ok(x) => x,
            Err(r) => return Ok(r),
        };
        let full_page = p.full_page.unwrap_or(false);
        let shot = page.screenshot().map(|png| {
            if full_page {
                fit(png, None)
            } else {
                let snap = page.snapshot();
                fit(png, Some((snap.viewport.width, snap.viewport.height)))
            }
        });
        let Some(Ok((png, width, height))) = shot else {
            let message = match shot {
                Some(Err(m)) => m,
                _ => "the browser returned no screenshot".into(),
            };
            let e = Error::Internal {
                input: p.url.clone(),
                message,
            };
            return Ok(error_result(&e, &cfg));
        };
        let info = ScreenshotInfo {
            url: page.url().to_string(),
            title: page.title().to_string(),
            width,
            height,
            full_page,
        };
        let image = ContentBlock::image(
            base64::engine::general_purpose::STANDARD.encode(png),
            "image/png",
        );
        Ok(structured(Some(image), &info))
    }

    /// Render a page in headless Chromium and summarise its layout: viewport, page size, node
    /// count, the roots of the main content and the largest text blocks, each with its tag,
    /// CSS path, box and the start of its text. Not the full node list.
    #[tool(
        name = "snapshot",
        annotations(title = "Summarise a page's layout", read_only_hint = true, open_world_hint = true),
        output_schema = rmcp::handler::server::common::schema_for_output::<SnapshotSummary>()
    )]
    async fn snapshot(
        &self,
        Parameters(p): Parameters<SnapshotParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let (page, _) = match self.steered_page(&p.url, p.steer, false).await {
            Ok(x) => x,
            Err(r) => return Ok(r),
        };
        let limit = p
            .max_nodes
            .map_or(DEFAULT_SNAPSHOT_BLOCKS, |n| n as usize)
            .clamp(1, MAX_SNAPSHOT_BLOCKS);
        Ok(structured(None, &summarise(&page, limit)))
    }

    /// Crawl a site from a URL in headless Chromium: robots.txt obeyed, its sitemaps and
    /// `/sitemap.xml` read, the links of each rendered page (after its scripts ran) followed
    /// within the seed's host (or `scope`), a few requests at a time. Returns each page's
    /// URL, title, depth and main content as Markdown (or text), at most `max_pages` pages
    /// (default 10, at most 100).
    #[tool(
        name = "crawl",
        annotations(title = "Crawl a site's pages", read_only_hint = true, open_world_hint = true),
        output_schema = rmcp::handler::server::common::schema_for_output::<CrawlResult>()
    )]
    async fn crawl(
        &self,
        Parameters(p): Parameters<CrawlParams>,
    ) -> Result<CallToolResult, ErrorData> {
        // The crawl's steering fields, admitted as `extract`'s.
        let req = PageRequest {
            steer: p.steer,
            ..PageRequest::default()
        };
        let cfg = match self.admitted_page(&p.url, &req).await {
            Ok(a) => a.page,
            Err(r) => return Ok(r),
        };
        let format = match p.format {
            TextFormat::Markdown => sightline::Format::Markdown,
            TextFormat::Text => sightline::Format::Text,
        };
        let crawler = self
            .shared()
            .extractor
            .with_config(cfg.clone().format(format));
        let crawl = match self.admit(Job::Crawl, &p.url, p.settings).await {
            Ok(c) => c,
            Err(e) => return Ok(error_result(&e, &cfg)),
        };
        let max_chars = p
            .max_chars
            .map_or(DEFAULT_CRAWL_CHARS, |n| n as usize)
            .clamp(1, MAX_CRAWL_CHARS);
        let mut pages = Vec::new();
        let mut write =
            |out: &mut sightline::PageOut, _: &sightline::CrawlSummary| -> Result<(), Error> {
                pages.push(crawled_page(out, max_chars));
                Ok(())
            };
        let cancel = sightline::Cancel::new();
        let recorded = std::collections::HashSet::new();
        let work = crawler.crawl_with(&crawl, &cancel, &recorded, &mut write);
        let summary = self.within_deadline(work, &cancel).await;
        match summary {
            Ok(s) => {
                let result = CrawlResult {
                    failed: s.failed,
                    disallowed: s.disallowed,
                    refused: s.refused,
                    more: s.interrupted,
                    walls: s.walls,
                    pages,
                };
                Ok(crawl_answer(&result))
            }
            Err(e) => Ok(error_result(&e, &cfg)),
        }
    }

    /// List the URLs of a site without extracting them: those its robots.txt's sitemaps and
    /// `/sitemap.xml` list, and the links of the rendered seed page (after its scripts ran),
    /// within the seed's host (or `scope`). Use it to choose pages before `extract`ing them.
    #[tool(
        name = "map",
        annotations(title = "List a site's URLs", read_only_hint = true, open_world_hint = true),
        output_schema = rmcp::handler::server::common::schema_for_output::<MapResult>()
    )]
    async fn map(&self, Parameters(p): Parameters<MapParams>) -> Result<CallToolResult, ErrorData> {
        let base = self.shared().extractor.page_config().clone();
        let crawl = match self.admit(Job::Map, &p.url, p.settings).await {
            Ok(c) => c,
            Err(e) => return Ok(error_result(&e, &base)),
        };
        let cancel = sightline::Cancel::new();
        let work = self.shared().extractor.map(&crawl, &cancel);
        match self.within_deadline(work, &cancel).await {
            Ok(found) => {
                let (found, more) = crate::crawling::map_listing(found, p.limit);
                let urls = found
                    .into_iter()
                    .map(|m| MappedUrl {
                        url: m.url,
                        depth: m.depth,
                        found_in: m.found_in,
                    })
                    .collect();
                Ok(structured(None, &MapResult { urls, more }))
            }
            Err(e) => Ok(error_result(&e, &base)),
        }
    }
}

impl McpServer {
    /// The operator's rules of this server, for [`admission::admit`].
    fn operator(&self) -> Operator<'_> {
        let shared = self.shared();
        Operator {
            page: shared.extractor.page_config(),
            grants: &shared.grants,
            policy: &shared.policy,
            warc_dir: shared.warc_dir.as_deref(),
        }
    }

    /// The call admitted for the page at `url` ([`admission::admit`]), or its tool error.
    async fn admitted_page(
        &self,
        url: &str,
        req: &PageRequest,
    ) -> Result<Admitted, CallToolResult> {
        admission::admit(&self.operator(), req, Some(url))
            .await
            .map_err(|r| refusal_result(&r))
    }

    /// A page rendered with the call's steering fields only (`screenshot`, `snapshot`), and
    /// its settings; the tool error when the call is refused or the page fails.
    async fn steered_page(
        &self,
        url: &str,
        steer: SteerFields,
        screenshot: bool,
    ) -> Result<(Page, Arc<PageConfig>), CallToolResult> {
        let req = PageRequest {
            steer,
            ..PageRequest::default()
        };
        let cfg = Arc::new(self.admitted_page(url, &req).await?.page);
        match self.page(url, &cfg, screenshot).await {
            Ok(page) => Ok((page, cfg)),
            Err(e) => Err(error_result(&e, &cfg)),
        }
    }

    /// A crawl or map from `url` through the services' one door ([`crate::crawling::admit`]),
    /// its refusal as the library's error.
    async fn admit(
        &self,
        job: Job,
        url: &str,
        settings: CrawlSettings,
    ) -> Result<CrawlConfig, Error> {
        let shared = self.shared();
        let bounds = Bounds {
            policy: &shared.policy,
            max_crawl_pages: shared.max_crawl_pages,
            tabs: shared.extractor.tabs(),
        };
        crate::crawling::admit(job, vec![url.to_string()], settings, &bounds)
            .await
            .map_err(|r| r.into_error(url))
    }

    /// A crawl or map within the call's deadline: at three quarters of it, `cancel` stops
    /// the crawl taking new pages, and what it has is answered when the pages in flight end.
    async fn within_deadline<T>(
        &self,
        work: impl std::future::Future<Output = Result<T, Error>>,
        cancel: &sightline::Cancel,
    ) -> Result<T, Error> {
        let stop = self.shared().call_timeout.map(|t| t.mul_f64(0.75));
        crate::crawling::within_deadline(work, cancel, stop).await
    }

    /// Render and score an admitted page within the call deadline.
    async fn page(
        &self,
        url: &str,
        cfg: &Arc<PageConfig>,
        screenshot: bool,
    ) -> Result<Page, Error> {
        let shared = self.shared();
        let work = shared.extractor.extract_with(
            Source::Url(url.to_string()),
            cfg.clone(),
            Some(screenshot),
        );
        match shared.call_timeout {
            None => work.await,
            Some(t) => tokio::time::timeout(t, work).await.unwrap_or_else(|_| {
                Err(Error::Timeout {
                    input: url.to_string(),
                    phase: "serving the tool call".into(),
                    seconds: t.as_secs_f64(),
                })
            }),
        }
    }
}

/// `extract`'s structured result, with `content` as given.
fn extract_result(page: &Page, format: TextFormat, content: String) -> ExtractResult {
    let snap = page.snapshot();
    ExtractResult {
        url: page.url().to_string(),
        title: page.title().to_string(),
        format,
        algorithm: page
            .extraction()
            .map_or("", |e| e.algorithm.name())
            .to_string(),
        content,
        metadata: page.metadata().cloned().unwrap_or_default(),
        links: page
            .extraction()
            .map_or_else(Vec::new, |ex| content_links(&Tree::new(snap), &ex.kept)),
        timings_ms: page
            .timings()
            .and_then(|t| serde_json::to_value(t).ok())
            .unwrap_or_else(|| serde_json::json!({})),
        wall: page.wall().cloned(),
        warc: None,
    }
}

/// The links inside the content ([`sightline::extract::links::content_links`]).
pub(crate) fn content_links(tree: &Tree, kept: &[bool]) -> Vec<Link> {
    sightline::extract::links::content_links(tree, kept)
        .into_iter()
        .map(|(text, href)| Link { text, href })
        .collect()
}

/// The layout summary of `snapshot`.
pub(crate) fn summarise(page: &Page, limit: usize) -> SnapshotSummary {
    let snap = page.snapshot();
    let tree = Tree::new(snap);
    let block = |id: NodeId| {
        let n = tree.node(id);
        let text = tree.text(id);
        let mut excerpt: String = text.chars().take(EXCERPT_CHARS).collect();
        if excerpt.len() < text.len() {
            excerpt.push('…');
        }
        Block {
            tag: n.tag.clone(),
            path: tree.css_path(id),
            rect: n.rect.into(),
            chars: tree.chars[id],
            excerpt,
        }
    };
    let content_roots = page.extraction().map_or_else(Vec::new, |ex| {
        ex.roots(&tree)
            .into_iter()
            .filter(|&id| tree.chars[id] > 0)
            .take(limit)
            .map(block)
            .collect()
    });
    let mut leaves: Vec<NodeId> = (0..tree.len())
        .filter(|&id| {
            tree.is_block(id)
                && tree.chars[id] > 0
                && !tree
                    .subtree(id)
                    .skip(1)
                    .any(|d| tree.is_block(d) && tree.chars[d] > 0)
        })
        .collect();
    leaves.sort_by(|a, b| tree.chars[*b].cmp(&tree.chars[*a]).then(a.cmp(b)));
    leaves.truncate(limit);
    SnapshotSummary {
        url: snap.url.clone(),
        title: snap.title.clone(),
        viewport: Size {
            width: snap.viewport.width,
            height: snap.viewport.height,
        },
        page: Size {
            width: snap.document.width,
            height: snap.document.height,
        },
        node_count: snap.nodes.len(),
        text_chars: tree.chars.first().copied().unwrap_or(0),
        algorithm: page
            .extraction()
            .map_or("", |e| e.algorithm.name())
            .to_string(),
        content_roots,
        text_blocks: leaves.into_iter().map(block).collect(),
    }
}

/// The screenshot as a PNG of at most `viewport` (CSS px, scaled to the image's pixels), with
/// its size in pixels; the whole image when `viewport` is `None`.
fn fit(png: &[u8], viewport: Option<(f64, f64)>) -> Result<(Vec<u8>, u32, u32), String> {
    let dims = |b: &[u8]| {
        image::load_from_memory_with_format(b, image::ImageFormat::Png)
            .map_err(|e| format!("the screenshot is not a readable PNG: {e}"))
    };
    let img = dims(png)?;
    let (w, h) = (img.width(), img.height());
    let Some((vw, vh)) = viewport else {
        return Ok((png.to_vec(), w, h));
    };
    let scale = if vw > 0.0 { w as f64 / vw } else { 1.0 };
    let keep = ((vh * scale).round() as u32).clamp(1, h.max(1));
    if keep >= h {
        return Ok((png.to_vec(), w, h));
    }
    let cropped = img.crop_imm(0, 0, w, keep);
    let mut out = std::io::Cursor::new(Vec::new());
    cropped
        .write_to(&mut out, image::ImageFormat::Png)
        .map_err(|e| format!("cannot encode the screenshot: {e}"))?;
    Ok((out.into_inner(), w, keep))
}

#[cfg(test)]
mod tests;
