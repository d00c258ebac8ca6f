//! `sightline mcp`: start the browser, serve the MCP tools on stdin and stdout until the
//! client closes stdin (or Ctrl-C / SIGTERM), then shut the browser down. stdout carries the
//! protocol only: every message of this command goes to stderr.

use anyhow::{Context, Result};
use sightline::{Extractor, Options};
use sightline_serve::mcp::{McpConfig, McpServer};

use crate::cli::{browser_endpoints, exit, render_options, McpArgs};

pub async fn run(a: McpArgs, quiet: bool) -> Result<i32> {
    let policy = a.service.policy();
    let mut opts = render_options(&a.render)?;
    opts.set_target_policy(Some(policy.clone()));
    let page = a
        .service
        .page_steered(&a.render, a.render.charset.clone())?;
    let extractor = Extractor::new(
        Options::default()
            .render_options(opts)
            .browser_ws(browser_endpoints(&a.render)?),
    )
    .await?;
    a.service.make_warc_dir()?;
    if !quiet {
        eprintln!(
            "sightline mcp: serving MCP on stdio ({} tabs{})",
            extractor.tabs(),
            if a.service.allow_private {
                ", private targets allowed"
            } else {
                ""
            },
        );
    }
    let server = McpServer::new(
        &extractor,
        McpConfig {
            policy,
            page,
            call_timeout: None,
            grants: a.service.grants(),
            max_crawl_pages: sightline_serve::crawling::MAX_CRAWL_PAGES,
            warc_dir: a.service.warc_dir.clone(),
        },
    );
    let mut term = crate::term_signal();
    let served = tokio::select! {
        r = server.serve_stdio() => r.context("MCP over stdio"),
        _ = crate::stop_signal(&mut term) => {
            if !quiet {
                eprintln!("sightline mcp: interrupted, shutting the browser down");
            }
            Ok(())
        }
    };
    // The last holder ends the browser in order; otherwise main's reaper ends it at exit.
    extractor.shutdown().await;
    served.map(|()| exit::OK)
}
