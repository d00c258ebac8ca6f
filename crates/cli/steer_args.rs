//! The steering flags of every rendering subcommand (`extract`, `snapshot`, and the service
//! defaults of `serve` and `mcp`), and their conversion to one [`Steer`] plan and the proxy.
//! The plan's meaning is the library's (`sightline::render::steer`); this file only reads
//! flags and files.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use sightline::render::steer::{self, Action, Blocked, Consent, Steer};

/// Steering the page (docs/steering.md): waits, actions, cookies, headers, sessions, proxy,
/// blocking, walls.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Steering the page (docs/steering.md)")]
pub struct SteerArgs {
    /// After the page settles, wait (within --timeout) until an element matching SELECTOR is
    /// visible; if it never is, the page is a `timeout` naming the selector.
    #[arg(long, value_name = "SELECTOR")]
    pub wait_for: Option<String>,
    /// Wait the same way until the page's visible text holds TEXT.
    #[arg(long, value_name = "TEXT")]
    pub wait_for_text: Option<String>,
    /// Wait the same way until the JavaScript expression EXPR is truthy.
    #[arg(long, value_name = "EXPR")]
    pub wait_for_js: Option<String>,
    /// Actions run after the page settles and before the snapshot: a JSON list in Firecrawl's
    /// shape, inline or in FILE: wait {milliseconds|selector}, click {selector, repeat},
    /// write {text, selector}, press {key}, scroll {direction, selector},
    /// executeJavascript {script}; each may say "optional": true. A failing action fails
    /// the page with kind `action`; the JSON record lists each action's outcome.
    #[arg(long, value_name = "FILE|JSON")]
    pub actions: Option<String>,
    /// The scrolling box whose rows to gather (a virtual list that keeps only the visible
    /// rows in the page); without it, the box holding most of the text is found by itself.
    #[arg(long, value_name = "SELECTOR")]
    pub scroll_container: Option<String>,
    /// Send this request header to the target's own site (never to third parties); repeatable.
    #[arg(long = "header", short = 'H', value_name = "'Name: value'")]
    pub headers: Vec<String>,
    /// Set this cookie for the target's own site before it loads; repeatable.
    #[arg(long = "cookie", value_name = "name=value")]
    pub cookies: Vec<String>,
    /// Load cookies from FILE: Netscape cookies.txt (curl, yt-dlp, browser extensions) or
    /// JSON (a list of cookies, or a Playwright storageState).
    #[arg(long = "cookies", value_name = "FILE")]
    pub cookies_file: Option<PathBuf>,
    /// The User-Agent string (sent, and seen by the page's scripts).
    #[arg(long, value_name = "UA")]
    pub user_agent: Option<String>,
    /// The locale: Accept-Language, navigator.language and Intl (e.g. de-DE).
    #[arg(long, value_name = "LOCALE")]
    pub locale: Option<String>,
    /// The time zone, an IANA name (e.g. Europe/Berlin).
    #[arg(long, value_name = "ZONE")]
    pub timezone: Option<String>,
    /// Emulate a phone: a 390x844 viewport at 3x, touch, a mobile user agent.
    #[arg(long)]
    pub mobile: bool,
    /// Load cookies and localStorage from FILE, a Playwright storageState JSON (a login
    /// saved with Playwright, or with --save-storage-state).
    #[arg(long, value_name = "FILE")]
    pub storage_state: Option<PathBuf>,
    /// After the page and its actions, write its cookies and localStorage to FILE in
    /// Playwright's storageState shape (keep a login for later runs).
    #[arg(long, value_name = "FILE")]
    pub save_storage_state: Option<PathBuf>,
    /// Connect through this proxy: http://, https:// or socks5:// with user:password@ if
    /// needed. With a target policy (serve, --deny-private), sightline's egress proxy still
    /// checks every connection and connects through this one.
    #[arg(long, value_name = "URL")]
    pub proxy: Option<String>,
    /// Do not fetch these resource types: images (their boxes keep their size), media,
    /// fonts; comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "images,media,fonts")]
    pub block: Vec<String>,
    /// Refuse requests matched by this filter list (Adblock Plus / uBlock syntax, e.g.
    /// EasyList).
    #[arg(long, value_name = "FILE")]
    pub block_list: Option<PathBuf>,
    /// Consent dialogs (OneTrust, Didomi, Sourcepoint, Quantcast, Google's, ...), answered
    /// before the snapshot and the screenshot: reject (decline what is optional), accept,
    /// or keep (leave the page as it is).
    #[arg(long, default_value = "reject", value_name = "reject|accept|keep", value_parser = ["reject", "accept", "keep"])]
    pub consent: String,
    /// Drop overlays that are not consent dialogs (newsletter modals, "ad blocker detected")
    /// before the screenshot.
    #[arg(long)]
    pub hide_overlays: bool,
    /// Extract whatever is there when a wall (challenge, captcha, block, rate limit, login,
    /// paywall, consent) stands in front of the content, instead of a `blocked` record; the
    /// record still names the wall.
    #[arg(long)]
    pub accept_walls: bool,
    /// Retry a 429 or 503 after its Retry-After when that is at most this many seconds (and
    /// within --timeout); past it the page is `blocked` (rate-limited).
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    pub max_retry_after: f64,
}

impl SteerArgs {
    /// The plan these flags ask for; None when they ask for nothing beyond the defaults.
    pub fn plan(&self) -> Result<Option<Steer>> {
        let mut s = Steer::default();
        s.wait_for = self.wait_for.clone();
        s.wait_for_text = self.wait_for_text.clone();
        s.wait_for_js = self.wait_for_js.clone();
        if let Some(a) = &self.actions {
            s.actions = read_actions(a)?;
        }
        s.scroll_container = self.scroll_container.clone();
        for h in &self.headers {
            s.headers
                .push(steer::parse_header(h).map_err(|m| anyhow::anyhow!("--header: {m}"))?);
        }
        for c in &self.cookies {
            s.cookies
                .push(steer::parse_cookie(c).map_err(|m| anyhow::anyhow!("--cookie: {m}"))?);
        }
        if let Some(f) = &self.cookies_file {
            s.cookies
                .extend(steer::load_cookies(f).context("--cookies")?);
        }
        // --user-agent is the browser's, set at launch (`cli::render_options`); a phone's
        // emulation keeps it in the plan, so the phone's User-Agent is the one given.
        if self.mobile {
            s.user_agent = self.user_agent.clone();
        }
        s.locale = self.locale.clone();
        s.timezone = self.timezone.clone();
        s.mobile = self.mobile;
        if let Some(f) = &self.storage_state {
            s.storage_state = Some(steer::load_storage_state(f).context("--storage-state")?);
        }
        s.save_storage_state = self.save_storage_state.clone();
        for b in &self.block {
            let kind = match b.trim() {
                "images" | "image" => Blocked::Images,
                "media" => Blocked::Media,
                "fonts" | "font" => Blocked::Fonts,
                "" => continue,
                other => {
                    bail!("--block {other}: expected images, media or fonts (comma-separated)")
                }
            };
            if !s.block.contains(&kind) {
                s.block.push(kind);
            }
        }
        if let Some(f) = &self.block_list {
            s.block_list = Some(steer::load_block_list(f).context("--block-list")?);
        }
        s.consent = match self.consent.as_str() {
            "accept" => Consent::Accept,
            "keep" => Consent::Keep,
            _ => Consent::Reject,
        };
        s.hide_overlays = self.hide_overlays;
        s.accept_walls = self.accept_walls;
        if self.max_retry_after.is_nan() || self.max_retry_after < 0.0 {
            bail!(
                "--max-retry-after {}: must be a number of seconds, 0 or more",
                self.max_retry_after
            );
        }
        s.max_retry_after = Duration::from_secs_f64(self.max_retry_after);
        Ok((s != Steer::default()).then_some(s))
    }
}

/// `--actions`: inline JSON (it starts with `[`) or a file holding it.
fn read_actions(arg: &str) -> Result<Vec<Action>> {
    let (text, what) = if arg.trim_start().starts_with('[') {
        (arg.to_string(), "--actions".to_string())
    } else {
        let text = std::fs::read_to_string(arg).with_context(|| {
            format!("cannot read --actions {arg} (a JSON file, or inline JSON starting with `[`)")
        })?;
        (text, format!("--actions {arg}"))
    };
    serde_json::from_str(&text).with_context(|| {
        format!("{what}: not a JSON list of actions such as [{{\"type\":\"click\",\"selector\":\"#more\",\"repeat\":5}}] (types: wait, click, write, press, scroll, executeJavascript)")
    })
}
