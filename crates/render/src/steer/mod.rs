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

pub mod context;
pub mod cookies;
pub mod request;
pub mod storage;

pub mod block;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "snake_case")]
#[non_exhaustive]
pub struct Steer {
    /// Wait until an element matching this CSS selector exists and is visible.
    pub wait_for: Option<String>,
    /// Wait until the page's visible text holds this text.
    pub wait_for_text: Option<String>,
    /// Wait until this JavaScript expression is truthy.
    pub wait_for_js: Option<String>,
    /// Actions run after the page settles and before the snapshot, in order.
    pub actions: Vec<Action>,
    /// The scrolling box whose rows to gather (a virtual list); without it, the box that holds
    /// most of the page's text is found by itself when the scroll phase runs.
    pub scroll_container: Option<String>,
    /// Extra request headers sent to the target's own site only. In JSON: a list of
    /// `{"name", "value"}`, of `"Name: value"` strings, or an object `{"Name": "value"}`.
    #[serde(deserialize_with = "wire::headers")]
    pub headers: Vec<Header>,
    /// Cookies set for the target's own site before it loads.
    /// In JSON: cookie objects (Playwright's shape) or `"name=value"` strings.
    #[serde(deserialize_with = "wire::cookies")]
    pub cookies: Vec<Cookie>,
    /// The User-Agent string (and `navigator.userAgent`).
    pub user_agent: Option<String>,
    /// The locale (`Accept-Language`, `navigator.language`, `Intl`): `de-DE`.
    pub locale: Option<String>,
    /// The time zone (an IANA name: `Europe/Berlin`).
    pub timezone: Option<String>,
    /// Emulate a phone: a 390x844 viewport at 3x, touch, a mobile user agent.
    pub mobile: bool,
    /// Cookies and localStorage to load before the page, in Playwright's `storageState` shape.
    pub storage_state: Option<StorageState>,
    /// Write the page's cookies and localStorage here after the page and its actions, in
    /// Playwright's `storageState` shape.
    pub save_storage_state: Option<PathBuf>,
    /// Resource types not fetched (`images`, `media`, `fonts`).
    pub block: Vec<Blocked>,
    /// Requests refused by an Adblock Plus / uBlock filter list (loaded once, shared).
    #[serde(skip)]
    #[schemars(skip)]
    pub block_list: Option<Arc<dyn BlockList>>,
    /// What to do with a consent dialog before the snapshot.
    pub consent: Consent,
    /// Drop overlays that are not consent (newsletter modals, "ad blocker detected") before
    /// the screenshot.
    pub hide_overlays: bool,
    /// Extract whatever is there when a wall stands in front of the content, instead of a
    /// `blocked` record.
    pub accept_walls: bool,
    /// The longest `Retry-After` honoured before a retry (past it: `blocked`, rate-limited).
    #[serde(with = "secs")]
    #[schemars(with = "f64")]
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

/// `Duration` as seconds (a float) in JSON.
mod secs {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let v = f64::deserialize(d)?;
        Duration::try_from_secs_f64(v).map_err(serde::de::Error::custom)
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
