//! The service's `/metrics` as the serve, crawl and MCP tests read it.

use std::time::Duration;

/// How long [`metric_reaches`] waits before it fails: a hang guard, not a speed bound (each
/// state it waits for comes within seconds, and nothing else would end it sooner).
pub const HANG_GUARD: Duration = Duration::from_secs(120);

/// A value of the service's `/metrics` text: the sample named `name` exactly (labels
/// included), or None when absent; `token` for a service that asks for one.
pub async fn metric(base: &str, name: &str, token: Option<&str>) -> Option<f64> {
    let mut req = reqwest::Client::new().get(format!("{base}/metrics"));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let m = tokio::time::timeout(HANG_GUARD, async {
        req.send().await.unwrap().text().await.unwrap()
    })
    .await
    .expect("/metrics answers");
    m.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

/// Poll the service's `/metrics` until the sample `name` reads `want` (at most
/// [`HANG_GUARD`]); fail with `what` otherwise.
pub async fn metric_reaches(base: &str, name: &str, want: f64, what: &str) {
    let read = super::eventually::eventually(HANG_GUARD, || async {
        super::eventually::holds(metric(base, name, None).await == Some(want))
    });
    read.await
        .unwrap_or_else(|| panic!("{what}: {name} never read {want}"));
}
