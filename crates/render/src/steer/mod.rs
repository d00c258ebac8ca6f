//! Steering a page like a person before it is read: wait for it, act on it (click, write,
//! press, scroll, run a script), scroll the boxes that hold its lists, send its cookies and
//! headers, keep a login, skip what is not needed, answer its consent dialog.
//!
//! [`Steer`] is one page's plan: what every front end builds (the CLI from its flags, `serve`
//! from a request's JSON body, MCP from a tool call, Python from keywords) and the renderer
//! carries out between the settle and the snapshot. Its JSON shape is the one users bring:
//! actions in Firecrawl's shape, a `storageState` in Playwright's. An empty plan (the
//! default) changes nothing: no command is sent, no script injected.
//!
//! Carrying it out:
//! - `driver`: what the steering needs of the tab ([`driver::Driver`]) and the calls into
//!   `js/steer.js`, the in-page helpers.
//! - `wait`: the wait conditions (`wait_for`, `wait_for_text`, `wait_for_js`).
//! - `actions`: the actions, with real input events.
//! - `vlist`: scrolling boxes and virtual lists (`scroll_container`, or the box found).

pub(crate) mod context;
pub(crate) mod cookies;
pub(crate) mod request;
pub(crate) mod storage;

pub(crate) mod block;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::settings::secs;

mod wire;

pub use cookies::{load_cookies, parse_cookie};
pub use request::parse_header;
pub use storage::{load_storage_state, write_storage_state};
pub use wire::Grant;
pub(crate) mod actions;
pub(crate) mod driver;
pub(crate) mod vlist;
pub(crate) mod wait;

pub use crate::scroll::ContainerReport;
pub use block::{load_block_list, AdblockList, SkippedRequests};

/// One page's steering plan. `Steer::default()` does nothing.
///
/// The one declaration of every steering option: its JSON form (what `serve`, MCP and Python
/// deserialize), its schema, and, with the `clap` feature, its command-line flag (the CLI
/// flattens this type; each field's doc is the flag's help). Files the flags name
/// (`--actions FILE`, `--storage-state`, `--block-list`, `--cookies`) are read while the flags
/// are parsed ([`wire`]'s parsers). [`Steer::validate`] checks what one field cannot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[cfg_attr(
    feature = "clap",
    command(next_help_heading = "Steering the page (docs/steering.md)")
)]
#[serde(default, deny_unknown_fields, rename_all = "snake_case")]
#[non_exhaustive]
pub struct Steer {
    /// After the page settles, wait (within --timeout) until an element matching SELECTOR is
    /// visible; if it never is, the page is a `timeout` naming the selector.
    #[cfg_attr(feature = "clap", arg(long, value_name = "SELECTOR"))]
    pub wait_for: Option<String>,
    /// Wait the same way until the page's visible text holds TEXT.
    #[cfg_attr(feature = "clap", arg(long, value_name = "TEXT"))]
    pub wait_for_text: Option<String>,
    /// Wait the same way until the JavaScript expression EXPR is truthy.
    #[cfg_attr(feature = "clap", arg(long, value_name = "EXPR"))]
    pub wait_for_js: Option<String>,
    /// Actions run after the page settles and before the snapshot: a JSON list in Firecrawl's
    /// shape, inline or in FILE: wait {milliseconds|selector}, click {selector, repeat},
    /// write {text, selector}, press {key}, scroll {direction, selector},
    /// executeJavascript {script}; each may say "optional": true. A failing action fails
    /// the page with kind `action`; the JSON record lists each action's outcome.
    // `std::vec::Vec`: clap reads the whole list as one value (`wire::actions_arg`), where a
    // bare `Vec` would be one action a flag.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "FILE|JSON", value_parser = wire::actions_arg, default_value = "[]", hide_default_value = true)
    )]
    pub actions: std::vec::Vec<Action>,
    /// The scrolling box whose rows to gather (a virtual list that keeps only the visible
    /// rows in the page); without it, the box holding most of the text is found by itself.
    #[cfg_attr(feature = "clap", arg(long, value_name = "SELECTOR"))]
    pub scroll_container: Option<String>,
    /// Send this request header to the target's own site (never to third parties); repeatable.
    // In JSON: a list of `{"name", "value"}`, of `"Name: value"` strings, or an object
    // `{"Name": "value"}`.
    #[serde(deserialize_with = "wire::headers")]
    #[cfg_attr(
        feature = "clap",
        arg(long = "header", short = 'H', value_name = "'Name: value'", value_parser = parse_header)
    )]
    pub headers: Vec<Header>,
    /// Set this cookie for the target's own site before it loads; repeatable.
    // In JSON: cookie objects (Playwright's shape) or `"name=value"` strings. The CLI adds the
    // cookies of `--cookies FILE` (`cookies_file`) after these.
    #[serde(deserialize_with = "wire::cookies")]
    #[cfg_attr(
        feature = "clap",
        arg(long = "cookie", value_name = "name=value", value_parser = parse_cookie)
    )]
    pub cookies: Vec<Cookie>,
    /// Load cookies from FILE: Netscape cookies.txt (curl, yt-dlp, browser extensions) or
    /// JSON (a list of cookies, or a Playwright storageState).
    // The command line's only field: the file's cookies, read while the flags are parsed;
    // [`Steer::validate`] refuses a plan that still holds them, and [`Steer::from_flags`] moves
    // them into `cookies` (the one list every other front end fills). No JSON form: JSON gives
    // the cookies themselves.
    #[cfg(feature = "clap")]
    #[serde(skip)]
    #[schemars(skip)]
    #[arg(long = "cookies", value_name = "FILE", value_parser = wire::cookies_file_arg)]
    pub cookies_file: Option<std::vec::Vec<Cookie>>,
    /// The User-Agent string and `navigator.userAgent` of this page, which then renders in a
    /// browser context of its own (a phone's, with `mobile`, is this one). The command line's
    /// `--user-agent` is the browser's ([`crate::RenderOptions::user_agent`]), copied here only
    /// with `--mobile`.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub user_agent: Option<String>,
    /// The locale: Accept-Language, navigator.language and Intl (e.g. de-DE).
    #[cfg_attr(feature = "clap", arg(long, value_name = "LOCALE"))]
    pub locale: Option<String>,
    /// The time zone, an IANA name (e.g. Europe/Berlin).
    #[cfg_attr(feature = "clap", arg(long, value_name = "ZONE"))]
    pub timezone: Option<String>,
    /// Emulate a phone: a 390x844 viewport at 3x, touch, a mobile user agent.
    #[cfg_attr(feature = "clap", arg(long))]
    pub mobile: bool,
    /// Load cookies and localStorage from FILE, a Playwright storageState JSON (a login
    /// saved with Playwright, or with --save-storage-state).
    // In JSON: the storageState itself.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "FILE", value_parser = wire::storage_state_arg)
    )]
    pub storage_state: Option<StorageState>,
    /// After the page and its actions, write its cookies and localStorage to FILE in
    /// Playwright's storageState shape (keep a login for later runs).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub save_storage_state: Option<PathBuf>,
    /// Do not fetch these resource types: images (their boxes keep their size), media,
    /// fonts; comma-separated.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_delimiter = ',', value_name = "images,media,fonts", value_parser = wire::blocked_arg)
    )]
    pub block: Vec<Blocked>,
    /// Refuse requests matched by this filter list (Adblock Plus / uBlock syntax, e.g.
    /// EasyList).
    // Loaded once and shared; no JSON form (Python takes its path).
    #[serde(skip)]
    #[schemars(skip)]
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "FILE", value_parser = wire::block_list_arg)
    )]
    pub block_list: Option<Arc<dyn BlockList>>,
    /// Consent dialogs (OneTrust, Didomi, Sourcepoint, Quantcast, Google's, ...), answered
    /// before the snapshot and the screenshot: reject (decline what is optional), accept,
    /// or keep (leave the page as it is).
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value = "reject", value_name = "reject|accept|keep", value_parser = wire::consent_arg())
    )]
    pub consent: Consent,
    /// Drop overlays that are not consent dialogs (newsletter modals, "ad blocker detected")
    /// before the screenshot.
    #[cfg_attr(feature = "clap", arg(long))]
    pub hide_overlays: bool,
    /// Extract whatever is there when a wall (challenge, captcha, block, rate limit, login,
    /// paywall, consent) stands in front of the content, instead of a `blocked` record; the
    /// record still names the wall.
    #[cfg_attr(feature = "clap", arg(long))]
    pub accept_walls: bool,
    /// Retry a 429 or 503 after its Retry-After when that is at most this many seconds (and
    /// within --timeout); past it the page is `blocked` (rate-limited).
    // Seconds (a number) in JSON too.
    #[serde(with = "secs")]
    #[schemars(with = "f64")]
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value = "30", value_name = "SECONDS", value_parser = crate::settings::seconds)
    )]
    pub max_retry_after: Duration,
}

impl Default for Steer {
    fn default() -> Self {
        Steer {
            wait_for: None,
            wait_for_text: None,
            wait_for_js: None,
            actions: Vec::new(),
            scroll_container: None,
            headers: Vec::new(),
            cookies: Vec::new(),
            user_agent: None,
            locale: None,
            timezone: None,
            mobile: false,
            storage_state: None,
            save_storage_state: None,
            block: Vec::new(),
            block_list: None,
            consent: Consent::default(),
            hide_overlays: false,
            accept_walls: false,
            max_retry_after: Steer::MAX_RETRY_AFTER,
            #[cfg(feature = "clap")]
            cookies_file: None,
        }
    }
}

impl Steer {
    /// The default of [`Steer::max_retry_after`].
    pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);

    /// The page carries a session of its own (headers, cookies, a storage state to load or
    /// save, a user agent, locale, time zone or phone): it renders in its own browser context,
    /// on a tab closed after it ([`context`]), so none of it reaches another page.
    pub fn has_session(&self) -> bool {
        !self.headers.is_empty()
            || !self.cookies.is_empty()
            || self.user_agent.is_some()
            || self.locale.is_some()
            || self.timezone.is_some()
            || self.mobile
            || self.storage_state.is_some()
            || self.save_storage_state.is_some()
    }
}

impl Steer {
    /// The plan waits for a condition or runs actions: the steering phase runs between the
    /// settle and the scroll phase.
    pub fn steers_page(&self) -> bool {
        self.wait_for.is_some()
            || self.wait_for_text.is_some()
            || self.wait_for_js.is_some()
            || !self.actions.is_empty()
    }

    /// The plan needs the page's scripts: it waits, acts or scrolls a named box (what the
    /// static lane cannot do, `--render`).
    pub fn needs_scripts(&self) -> bool {
        self.steers_page() || self.scroll_container.is_some()
    }
}

/// A filter list deciding which requests to refuse (`--block-list`).
pub trait BlockList: std::fmt::Debug + Send + Sync {
    /// Refuse a request for `url`, made by a page at `source_url`, of this resource type
    /// (CDP's names: `Image`, `Script`, `Stylesheet`, ...).
    fn blocks(&self, url: &str, source_url: &str, resource_type: &str) -> bool;
}

impl PartialEq for dyn BlockList {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(
            self as *const dyn BlockList as *const u8,
            other as *const dyn BlockList as *const u8,
        )
    }
}

/// What to do with a consent dialog (`--consent`).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Consent {
    /// Decline what is optional, as a privacy-minded person would (the default).
    #[default]
    Reject,
    /// Accept.
    Accept,
    /// Leave the page as it is.
    Keep,
}

/// A resource type not fetched (`--block`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Blocked {
    /// Images (their boxes keep their size).
    Images,
    /// Audio and video.
    Media,
    /// Web fonts.
    Fonts,
}

/// A request header (`--header 'Name: value'`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Header {
    pub name: String,
    pub value: String,
}

/// A cookie, in Playwright's `storageState` shape (also what `--cookie name=value` makes,
/// for the target's own site).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Cookie {
    pub name: String,
    pub value: String,
    /// The cookie's domain; empty: the target's host.
    #[serde(default)]
    pub domain: String,
    #[serde(default = "root_path")]
    pub path: String,
    /// Seconds since the epoch; -1 (or absent): a session cookie.
    #[serde(default = "session")]
    pub expires: f64,
    #[serde(default)]
    pub http_only: bool,
    #[serde(default)]
    pub secure: bool,
    /// `Strict`, `Lax` or `None`.
    #[serde(default)]
    pub same_site: Option<String>,
}

fn root_path() -> String {
    "/".into()
}

fn session() -> f64 {
    -1.0
}

/// Playwright's `storageState` JSON: cookies, and each origin's localStorage.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct StorageState {
    pub cookies: Vec<Cookie>,
    pub origins: Vec<OriginStorage>,
}

/// One origin's localStorage in a `storageState`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct OriginStorage {
    pub origin: String,
    pub local_storage: Vec<NameValue>,
}

/// A localStorage entry.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct NameValue {
    pub name: String,
    pub value: String,
}

/// One action, in Firecrawl's shape (`{"type":"click","selector":"#more"}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "camelCase", deny_unknown_fields)]
pub enum Action {
    /// Wait a number of milliseconds, or until an element matching `selector` is visible.
    Wait {
        #[serde(default)]
        milliseconds: Option<u64>,
        #[serde(default)]
        selector: Option<String>,
        #[serde(default)]
        optional: bool,
    },
    /// Click the element matching `selector`; with `repeat`, click until it is gone or
    /// `repeat` times, letting the page settle after each click ("Load more").
    Click {
        selector: String,
        #[serde(default)]
        repeat: Option<u32>,
        #[serde(default)]
        optional: bool,
    },
    /// Type `text` into the focused element, or into `selector`.
    Write {
        text: String,
        #[serde(default)]
        selector: Option<String>,
        #[serde(default)]
        optional: bool,
    },
    /// Press a key (`Enter`, `Tab`, `ArrowDown`, `a`).
    Press {
        key: String,
        #[serde(default)]
        optional: bool,
    },
    /// Scroll the window, or the box matching `selector`, by one screen.
    Scroll {
        #[serde(default)]
        direction: ScrollDirection,
        #[serde(default)]
        selector: Option<String>,
        #[serde(default)]
        optional: bool,
    },
    /// Run a script in the page (awaited when it returns a promise).
    ExecuteJavascript {
        script: String,
        #[serde(default)]
        optional: bool,
    },
}

impl Action {
    /// The action's `type` as written in JSON (`executeJavascript`).
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Wait { .. } => "wait",
            Action::Click { .. } => "click",
            Action::Write { .. } => "write",
            Action::Press { .. } => "press",
            Action::Scroll { .. } => "scroll",
            Action::ExecuteJavascript { .. } => "executeJavascript",
        }
    }

    /// A failure of this action leaves the page as it is instead of failing it.
    pub fn optional(&self) -> bool {
        match self {
            Action::Wait { optional, .. }
            | Action::Click { optional, .. }
            | Action::Write { optional, .. }
            | Action::Press { optional, .. }
            | Action::Scroll { optional, .. }
            | Action::ExecuteJavascript { optional, .. } => *optional,
        }
    }

    /// Runs a script of the user's in the page (`executeJavascript`): `serve` takes it only
    /// when its operator allows scripts.
    pub fn runs_script(&self) -> bool {
        matches!(self, Action::ExecuteJavascript { .. })
    }
}

/// Which way a scroll action goes.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum ScrollDirection {
    #[default]
    Down,
    Up,
}

/// What one action did, for the record's `actions`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ActionOutcome {
    /// The action's index in the list.
    pub index: usize,
    /// Its `type`.
    pub action: String,
    /// `ok`, `skipped` (an optional action that failed), or `failed`.
    pub outcome: String,
    /// Clicks made (a `click` with `repeat`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clicks: Option<u32>,
    /// Why it was skipped or failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Milliseconds it took.
    pub ms: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_read_firecrawls_shape() {
        let a: Vec<Action> = serde_json::from_str(
            r##"[{"type":"wait","milliseconds":500},{"type":"wait","selector":"#x"},
                {"type":"click","selector":"button.more","repeat":5},
                {"type":"write","text":"hi","selector":"input"},{"type":"press","key":"Enter"},
                {"type":"scroll","direction":"up","selector":".list"},
                {"type":"executeJavascript","script":"1+1","optional":true}]"##,
        )
        .unwrap();
        assert_eq!(a.len(), 7);
        assert_eq!(a[2].kind(), "click");
        assert!(a[6].optional() && a[6].runs_script());
        let e = serde_json::from_str::<Vec<Action>>(r#"[{"type":"hover","selector":"a"}]"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("hover"), "{e}");
    }

    #[test]
    fn the_default_plan_is_passive_and_rejects_consent() {
        let s = Steer::default();
        assert!(!s.steers_page() && !s.has_session());
        assert_eq!(s.consent, Consent::Reject);
        let s: Steer = serde_json::from_str(r##"{"wait_for":"#main"}"##).unwrap();
        assert!(s.steers_page());
    }

    #[test]
    fn a_playwright_storage_state_reads_as_it_is() {
        let s: StorageState = serde_json::from_str(
            r#"{"cookies":[{"name":"sid","value":"1","domain":"example.com","path":"/","expires":-1,"httpOnly":true,"secure":false,"sameSite":"Lax"}],
                "origins":[{"origin":"https://example.com","localStorage":[{"name":"k","value":"v"}]}]}"#,
        )
        .unwrap();
        assert_eq!(s.cookies[0].same_site.as_deref(), Some("Lax"));
        assert_eq!(s.origins[0].local_storage[0].value, "v");
    }
}
