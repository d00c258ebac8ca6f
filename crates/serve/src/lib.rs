//! sightline's services, over the front door of the runtime crate (`sightline`): the
//! pipeline as an HTTP service and as Model Context Protocol tools.
//!
//! # Layout
//! - [`serve`]: the HTTP service (axum): `/extract`, `/score`, `/healthz`, `/metrics`, with a
//!   target policy against SSRF, per-request limits, a token, and connection edges (`edges`);
//!   and the playground page at `/` (`playground`).
//! - [`mcp`]: the Model Context Protocol server (`extract`, `screenshot`, `snapshot`, `crawl`,
//!   `map` tools)
//!   over stdio (`sightline mcp`) and streamable HTTP (mounted by `serve` at `/mcp`).
//! - [`steering`]: a caller's steering plan over the operator's, and the operator's grants
//!   (scripts, headers, cookies), shared by both.
#![forbid(unsafe_code)]

pub mod mcp;
pub mod serve;
pub mod steering;
