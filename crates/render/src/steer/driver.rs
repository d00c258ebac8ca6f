//! What carrying out a plan needs of the tab ([`Driver`]: its page, its deadline, settling
//! after an action and following the navigation an action caused), and the one way the
//! steering calls into the page: a function of [`STEER_JS`] with JSON arguments.

use std::time::{Duration, Instant};

use chromiumoxide::Page;
use serde_json::Value;

use crate::cdp;
use crate::Error;

/// The in-page helpers of the steering phase, compiled into the binary.
pub(crate) const STEER_JS: &str = include_str!("../../../../js/steer.js");

/// What the steering needs of the tab it runs in (the tab implements it in
/// `render/tab/steering.rs`).
pub(crate) trait Driver {
    /// The tab's page.
    fn page(&self) -> &Page;
    /// The input, for messages.
    fn input(&self) -> &str;
    /// The bound of one small command.
    fn command_timeout(&self) -> Duration;
    /// The page's deadline: no wait outlives it.
    fn deadline(&self) -> Instant;
    /// The page's `--timeout`, in seconds (what a timeout's message says).
    fn timeout_secs(&self) -> f64;
    /// The tab's network state now (for the settle rule).
    fn net(&self) -> crate::settle::Net;
    /// Main-frame documents the page itself has requested since its own (the navigations it
    /// started: a form submitted, a link followed).
    fn navigations(&self) -> usize;
    /// After an action: when `may_navigate`, give the page a moment to start a navigation
    /// (one started since `navigations_before` counts) and follow it to its new document;
    /// then let the page settle (the settle rule, timers counted from the action). Returns
    /// whether a navigation was followed.
    async fn after_action(
        &mut self,
        may_navigate: bool,
        navigations_before: usize,
    ) -> Result<bool, Error>;
    /// Hold the window's front (the only tab that renders frames, so that scroll events
    /// and frame callbacks run) while the returned guard lives.
    async fn front(&mut self) -> Option<tokio::sync::OwnedMutexGuard<()>>;
}

/// A call of one function of [`STEER_JS`]: `(STEER_JS).name(args...)`.
pub(crate) fn call(name: &str, args: &[Value]) -> String {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    format!("({}).{name}({})", STEER_JS.trim_end(), args.join(", "))
}

/// Evaluate `js` in the page (awaiting a promise) and return its value; a script exception
/// is `Ok(Err(message))`, a command that fails or does not answer within `limit` is an
/// error of the phase `doing` ([`cdp::evaluate`]).
pub(crate) async fn eval(
    page: &Page,
    input: &str,
    doing: &str,
    js: &str,
    limit: Duration,
) -> Result<Result<Value, String>, Error> {
    Ok(cdp::evaluate(page, input, doing, limit, cdp::awaited(js))
        .await?
        .map(|r| r.value.unwrap_or_default()))
}

/// One helper's answer: `{ok: true, ...}`, or why not (`why`, or `bad` for an invalid
/// selector).
#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct Answer {
    #[serde(default)]
    pub ok: bool,
    #[serde(default)]
    pub why: Option<String>,
    #[serde(default)]
    pub bad: Option<String>,
    #[serde(default)]
    pub x: f64,
    #[serde(default)]
    pub y: f64,
}

impl Answer {
    /// Read a helper's value (anything else is no answer).
    pub(crate) fn of(v: Value) -> Answer {
        serde_json::from_value(v).unwrap_or_default()
    }
}

/// Sleep `d`, but not past `deadline`; false when the deadline cut it.
pub(crate) async fn sleep_until_deadline(d: Duration, deadline: Instant) -> bool {
    let now = Instant::now();
    if now + d > deadline {
        tokio::time::sleep(deadline.saturating_duration_since(now)).await;
        return false;
    }
    tokio::time::sleep(d).await;
    true
}
