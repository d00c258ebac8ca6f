//! `sightline serve`: start the browser, bind, serve until SIGTERM or Ctrl-C, drain.

use std::time::Duration;

use anyhow::{bail, Context, Result};
use sightline::{Extractor, Options};
use sightline_serve::serve::{self, ServeConfig};

use crate::cli::{browser_endpoints, exit, render_options, ServeArgs};

pub async fn run(a: ServeArgs, quiet: bool) -> Result<i32> {
    for (v, name) in [
        (a.request_timeout, "--request-timeout"),
        (a.drain_timeout, "--drain-timeout"),
        (a.header_timeout, "--header-timeout"),
        (a.body_timeout, "--body-timeout"),
        (a.crawl_timeout, "--crawl-timeout"),
    ] {
        if v.is_nan() || v <= 0.0 {
            bail!("{name} {v}: must be a positive number of seconds");
        }
    }
    let policy = a.service.policy();
    let mut opts = render_options(&a.render)?;
    // The policy checked for every request of a page, and every connection of the browser
    // through the egress proxy (none with --allow-private).
    opts.set_target_policy(Some(policy.clone()));
    let page = a.service.page_steered(&a.render, None)?;
    let listener = tokio::net::TcpListener::bind(&a.listen)
        .await
        .with_context(|| format!("cannot listen on {} (--listen)", a.listen))?;
    let addr = listener.local_addr()?;
    let extractor = Extractor::new(
        Options::default()
            .render_options(opts)
            .browser_ws(browser_endpoints(&a.render)?),
    )
    .await?;
    a.service.make_warc_dir()?;
    let cfg = ServeConfig {
        max_queue: a.max_queue,
        request_timeout: Duration::from_secs_f64(a.request_timeout),
        token: a.token.clone().filter(|t| !t.is_empty()),
        policy,
        page,
        grants: a.service.grants(),
        warc_dir: a.service.warc_dir.clone(),
        max_crawl_pages: a.max_crawl_pages.max(1),
        crawl_timeout: Duration::from_secs_f64(a.crawl_timeout),
        limits: serve::Limits {
            max_connections: a.max_connections.max(1),
            header_timeout: Duration::from_secs_f64(a.header_timeout),
            body_timeout: Duration::from_secs_f64(a.body_timeout),
            max_body_bytes: a.max_body,
            ..serve::Limits::default()
        },
    };
    let limits = cfg.limits.clone();
    let app = serve::router(&extractor, cfg);
    if !quiet {
        eprintln!(
            "sightline serve: listening on http://{addr} ({} tabs, queue {}{}{})",
            extractor.tabs(),
            a.max_queue,
            if a.service.allow_private {
                ", private targets allowed"
            } else {
                ""
            },
            if a.token.is_some() {
                ", token required"
            } else {
                ""
            },
        );
    }
    let shutdown = async {
        let term = async {
            #[cfg(unix)]
            {
                match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                    Ok(mut s) => {
                        s.recv().await;
                    }
                    Err(_) => std::future::pending::<()>().await,
                }
            }
            #[cfg(not(unix))]
            std::future::pending::<()>().await
        };
        tokio::select! {
            _ = term => {},
            _ = tokio::signal::ctrl_c() => {},
        }
        eprintln!("sightline serve: shutting down, finishing the pages in flight");
    };
    serve::serve(
        listener,
        app,
        shutdown,
        Duration::from_secs_f64(a.drain_timeout),
        &limits,
    )
    .await
    .context("the HTTP server failed")?;
    // The last holder ends the browser in order; otherwise main's reaper ends it at exit.
    extractor.shutdown().await;
    Ok(exit::OK)
}
