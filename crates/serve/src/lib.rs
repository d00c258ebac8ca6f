//! sightline's services, over the front door of the runtime crate (`sightline`): the
//! pipeline as an HTTP service and as Model Context Protocol tools.
//!
//! # Layout
//! - [`serve`]: the HTTP service (axum): `/extract`, `/score`, `/crawl`, `/map`, `/healthz`,
//!   `/metrics`, with a target policy against SSRF, per-request limits, a token, and
//!   connection edges (`edges`); the crawl and map endpoints (`crawl`); and the playground
//!   page at `/` (`playground`).
//! - [`mcp`]: the Model Context Protocol server (`extract`, `screenshot`, `snapshot`, `crawl`,
//!   `map` tools)
//!   over stdio (`sightline mcp`) and streamable HTTP (mounted by `serve` at `/mcp`).
//! - [`admission`]: the one request shape both take for a page (`/extract`, `/score`, the
//!   `extract`, `screenshot` and `snapshot` tools) and the one admission that turns it into
//!   the page's configuration under the operator's rules, or a typed refusal.
//! - [`steering`]: a caller's steering plan over the operator's, and the operator's grants
//!   (scripts, headers, cookies), shared by both.
//! - [`crawling`]: the bounded crawl and map both offer (`/crawl`, `/map`; the `crawl` and
//!   `map` tools): the caller's scope and bounds, the operator's cap, the target policy on
//!   every URL, the deadline.
//! - [`archiving`]: the WARC a request or tool call asks for, in the operator's `--warc-dir`.
#![forbid(unsafe_code)]
#![warn(unreachable_pub)]

pub mod admission;
pub mod archiving;
pub mod crawling;
pub mod mcp;
pub mod serve;
pub mod steering;
