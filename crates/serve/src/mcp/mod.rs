//! The Model Context Protocol (MCP) server: sightline's pipeline as tools an LLM agent can
//! call, built on the official Rust SDK (`rmcp`).
//!
//! Two transports carry the same [`McpServer`]:
//! - stdio ([`McpServer::serve_stdio`], `sightline mcp`): the client starts sightline as a
//!   child process and speaks JSON-RPC over its stdin and stdout; stdout carries the protocol
//!   only, every log line goes to stderr;
//! - streamable HTTP ([`http_service`]), mounted at `/mcp` by `sightline serve` behind the
//!   service's bearer token and target policy.
//!
//! The tools ([`tools`]): `extract` (a URL to Markdown or text, with its title, metadata and
//! the links inside the content), `screenshot` (a PNG of the page) and `snapshot` (a summary of
//! the layout: viewport, page size, the content roots and the largest text blocks), `crawl` (a
//! site's pages from a seed, bounded by `max_pages`: each page's URL, title and Markdown) and
//! `map` (a site's URLs without extracting). Every input
//! has a JSON schema derived with `schemars`. A page that fails, or a target the policy
//! refuses, is a tool error (`isError: true`) whose text is `error (<kind>): <message>`, the
//! library's message naming the input and the fix.
//!
//! Safety: every URL is checked against the [`NetPolicy`] before it is rendered; the browser
//! checks each request the page makes again when the pool was launched with the policy in its
//! [`RenderOptions::policy`](sightline::RenderOptions) (both front ends do).

pub mod crawl;
pub mod tools;

use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{tool_handler, ServerHandler, ServiceExt};

use sightline::Extractor;
use sightline::{NetPolicy, PageConfig};

/// What the MCP server renders and how.
#[derive(Debug, Clone)]
pub struct McpConfig {
    /// Which targets the tools may render (checked before each render).
    pub policy: NetPolicy,
    /// Scoring defaults (algorithm, params, limits); `extract` may name another algorithm.
    pub page: PageConfig,
    /// Deadline of one tool call, when the front end sets one (`serve`'s request timeout).
    pub call_timeout: Option<Duration>,
    /// What of a call's steering plan the operator allows (the operator's own plan is
    /// `page.steer`).
    pub grants: Vec<sightline::render::steer::Grant>,
    /// The most pages one `crawl` records ([`crawling::MAX_CRAWL_PAGES`](crate::crawling::MAX_CRAWL_PAGES)
    /// unless the operator says otherwise: `serve --max-crawl-pages`).
    pub max_crawl_pages: usize,
    /// Where `extract`'s `warc: true` writes the page's WARC (`--warc-dir`; None: refused).
    pub warc_dir: Option<std::path::PathBuf>,
}

/// The MCP tool handler: cheap to clone (one per HTTP session), all clones share one
/// [`Extractor`] over the browsers given to [`McpServer::new`].
#[derive(Clone)]
pub struct McpServer {
    shared: Arc<Shared>,
    tool_router: ToolRouter<McpServer>,
}

/// What every clone of the handler shares.
pub(crate) struct Shared {
    pub(crate) extractor: Extractor,
    pub(crate) policy: NetPolicy,
    pub(crate) call_timeout: Option<Duration>,
    pub(crate) grants: Vec<sightline::render::steer::Grant>,
    pub(crate) max_crawl_pages: usize,
    pub(crate) warc_dir: Option<std::path::PathBuf>,
}

const INSTRUCTIONS: &str = "sightline renders web pages in headless Chromium and extracts their \
main content from the real layout. Use `extract` to read a page as Markdown (or plain text) with \
its title, metadata and the links inside the content; `screenshot` to see it; `snapshot` for a \
summary of its layout (viewport, page size, the content blocks with their boxes and CSS paths); \
`map` to list a site's URLs and `crawl` to read several pages of a site at once.";

impl McpServer {
    /// A handler over running browsers (`extractor`'s, shared with whoever else holds a
    /// clone of it), scoring with `cfg.page`.
    pub fn new(extractor: &Extractor, cfg: McpConfig) -> McpServer {
        // The tools write text, never the JSON record: `learned` need not explain itself.
        let params = cfg.page.params.text_only();
        let page = cfg
            .page
            .params(params)
            .format(sightline::Format::Text)
            .annotate(false);
        McpServer {
            shared: Arc::new(Shared {
                extractor: extractor.with_config(page),
                policy: cfg.policy,
                call_timeout: cfg.call_timeout,
                grants: cfg.grants,
                max_crawl_pages: cfg.max_crawl_pages,
                warc_dir: cfg.warc_dir,
            }),
            tool_router: McpServer::tool_router(),
        }
    }

    pub(crate) fn shared(&self) -> &Shared {
        &self.shared
    }

    /// Serve MCP on this process's stdin and stdout until the client closes stdin (or the
    /// connection fails).
    pub async fn serve_stdio(self) -> std::io::Result<()> {
        let running = self
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| std::io::Error::other(format!("MCP initialization failed: {e}")))?;
        running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| std::io::Error::other(format!("the MCP session failed: {e}")))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("sightline", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }
}

/// The streamable HTTP transport of `server`, a tower service to mount in an axum router
/// (`sightline serve` mounts it at `/mcp`). Stateless: each POST carries one JSON-RPC message
/// and is answered with JSON, so no stream outlives its request and shutdown drains like the
/// other endpoints.
///
/// `token_required` says whether the caller checks a bearer token in front of it. Without a
/// token, only requests whose `Host` is `localhost`, `127.0.0.1` or `::1` are answered (rmcp's
/// protection against DNS rebinding: a web page in the user's browser must not reach a local
/// server through a name it controls); with one, the token is the protection and any `Host`
/// is accepted.
pub fn http_service(
    server: McpServer,
    token_required: bool,
) -> StreamableHttpService<McpServer, LocalSessionManager> {
    let mut cfg = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None);
    if token_required {
        cfg = cfg.disable_allowed_hosts();
    }
    StreamableHttpService::new(move || Ok(server.clone()), Default::default(), cfg)
}

/// How `extract` writes the content.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    serde::Deserialize,
    serde::Serialize,
    rmcp::schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum TextFormat {
    /// Markdown: headings, lists, tables, links, images, code blocks.
    #[default]
    Markdown,
    /// Plain text, one paragraph per line.
    Text,
}

impl TextFormat {
    /// The format's name in a request (`markdown`, `text`).
    pub fn name(self) -> &'static str {
        match self {
            TextFormat::Markdown => "markdown",
            TextFormat::Text => "text",
        }
    }
}
