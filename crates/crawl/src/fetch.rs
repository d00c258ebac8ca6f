//! The plain HTTP client that fetches robots.txt, sitemaps and feeds (pages go through the
//! browser). It sends the crawl's User-Agent, goes through the browser's proxy when one is
//! set ([`Pages::proxy`](crate::Pages::proxy)), and asks the target policy
//! (`NetPolicy::check`) before every request, redirects included.

use std::time::Duration;

use sightline_egress::guard::NetPolicy;

/// One answer: its status and its body (cut at `limit` bytes).
#[derive(Debug, Default)]
pub(crate) struct Answer {
    /// None: no answer (refused, unreachable, timed out).
    pub status: Option<u16>,
    pub body: Vec<u8>,
}

/// A client for robots.txt and sitemaps.
#[derive(Clone)]
pub(crate) struct Fetcher {
    client: reqwest::Client,
    policy: Option<NetPolicy>,
}

/// Redirects followed by one request.
const MAX_REDIRECTS: usize = 5;

impl Fetcher {
    /// A client sending `user_agent`, through `proxy` when given, checking `policy`.
    pub(crate) fn new(
        user_agent: &str,
        proxy: Option<&str>,
        policy: Option<NetPolicy>,
        timeout: Duration,
    ) -> Result<Fetcher, String> {
        let mut b = reqwest::Client::builder()
            .user_agent(user_agent)
            .timeout(timeout)
            .redirect(reqwest::redirect::Policy::none());
        if let Some(p) = proxy {
            b = b.proxy(reqwest::Proxy::all(p).map_err(|e| format!("proxy {p}: {e}"))?);
        }
        Ok(Fetcher {
            client: b.build().map_err(|e| e.to_string())?,
            policy,
        })
    }

    /// GET `url`, following redirects (each checked by the policy), the body cut at `limit`.
    pub(crate) async fn get(&self, url: &str, limit: u64) -> Answer {
        let mut url = url.to_string();
        for _ in 0..=MAX_REDIRECTS {
            if let Some(p) = &self.policy {
                if let Err(e) = p.check(&url).await {
                    tracing::debug!("{url}: refused by the target policy: {e}");
                    return Answer::default();
                }
            }
            let resp = match self.client.get(&url).send().await {
                Ok(r) => r,
                Err(e) => {
                    tracing::debug!("{url}: {e}");
                    return Answer::default();
                }
            };
            let status = resp.status().as_u16();
            if resp.status().is_redirection() {
                let next = resp
                    .headers()
                    .get(reqwest::header::LOCATION)
                    .and_then(|l| l.to_str().ok())
                    .and_then(|l| resp.url().join(l).ok());
                match next {
                    Some(n) => {
                        url = n.to_string();
                        continue;
                    }
                    None => {
                        return Answer {
                            status: Some(status),
                            ..Answer::default()
                        }
                    }
                }
            }
            let mut body = Vec::new();
            let mut resp = resp;
            while let Ok(Some(chunk)) = resp.chunk().await {
                body.extend_from_slice(&chunk);
                if body.len() as u64 >= limit {
                    body.truncate(limit as usize);
                    break;
                }
            }
            return Answer {
                status: Some(status),
                body,
            };
        }
        Answer::default()
    }
}
