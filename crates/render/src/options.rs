//! What to render and how: [`RenderOptions`] (every knob of the render path, with its
//! default) and [`Input`] (a URL, a file or HTML bytes), with the one repair applied to an
//! input's HTML before a second render ([`repair_unclosed_title`]).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;

use super::{checks, egress, guard, BrowserSource, RenderMode, ScrollOptions, Steer};
use crate::settings::{millis, secs, SettingsError};
use crate::Error;

/// How pages are rendered. Build it from [`RenderOptions::default`] with the setters, one
/// a field, each named as its field (`RenderOptions::default().offline(true).concurrency(4)`):
/// the struct is `#[non_exhaustive]`, so a new knob never breaks a caller; the fields stay
/// readable and assignable.
///
/// The one declaration of the user-facing render settings: their JSON form (seconds for
/// `timeout`, milliseconds for `quiet_ms`; what Python's keywords map onto) and, with the
/// `clap` feature, their flags (the CLI flattens this type; a field's doc is its flag's help,
/// its default the field's default). The fields the renderer sets itself (the browser, the
/// target policy, the page's plan, capture and replay) have neither. [`RenderOptions::validate`]
/// checks the values.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct RenderOptions {
    /// Where the browser comes from.
    #[serde(skip)]
    #[cfg_attr(feature = "clap", arg(skip = RenderOptions::default().browser))]
    pub browser: BrowserSource,
    /// Viewport size in CSS px.
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value = "1366x900", value_name = "WxH", value_parser = viewport_arg)
    )]
    pub viewport: (u32, u32),
    /// Deadline for one page in seconds (navigation, settling, snapshot).
    #[serde(with = "secs")]
    #[schemars(with = "f64")]
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value = "15", value_name = "SECONDS", value_parser = positive_seconds)
    )]
    pub timeout: Duration,
    /// DOM quiet window of the settle after load, in ms. The page is settled once, after
    /// `load`: the document is complete; no request is in flight; no fetch/XHR made by a
    /// script (nor the reading of a fetched body) is pending or settled in the last 50 ms;
    /// no one-shot setTimeout is due within
    /// 1.5 s after load (timers set by timers count too); no animation frame requested
    /// outside a frame callback is pending (waited for at most 200 ms after load); and the
    /// DOM has not changed for this long (changes by the parser do not count). A page
    /// without scripts settles right after load. Bounds: at most 5 s after load, and the
    /// page deadline (--timeout); the page is then captured as it is.
    // `settle.rs` holds the rule. In JSON `quiet_ms`, as the flag.
    #[serde(rename = "quiet_ms", with = "millis")]
    #[schemars(rename = "quiet_ms", with = "u64")]
    #[cfg_attr(
        feature = "clap",
        arg(id = "quiet_ms", long = "quiet-ms", default_value = "100", value_name = "MS", value_parser = crate::settings::millis_arg)
    )]
    pub quiet: Duration,
    /// The scroll phase before the snapshot (`scroll.rs`): its flags, and in JSON the
    /// `scroll` object.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub scroll: ScrollOptions,
    /// Limit for one small browser command (default 10 s).
    #[serde(skip)]
    #[cfg_attr(feature = "clap", arg(skip = RenderOptions::default().command_timeout))]
    pub command_timeout: Duration,
    /// Abort every request except the page's own document and same-origin loopback
    /// resources: nothing leaves the machine (tests and benchmarks use this).
    #[cfg_attr(feature = "clap", arg(long))]
    pub offline: bool,
    /// Take a full-page PNG after the snapshot.
    #[serde(skip)]
    #[cfg_attr(feature = "clap", arg(skip))]
    pub screenshot: bool,
    /// Cut screenshots at this height in CSS px (the record says `screenshot_truncated`).
    // The flag is hidden here and shown by the commands that take screenshots (`extract`
    // un-hides it with `mut_arg`).
    #[serde(skip)]
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value_t = RenderOptions::default().max_screenshot_height, value_name = "PX", hide = true)
    )]
    pub max_screenshot_height: u32,
    /// Fail pages whose snapshot has more nodes than this.
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value_t = RenderOptions::default().max_nodes, value_name = "N")
    )]
    pub max_nodes: usize,
    /// Tabs rendering at once (one browser, a pool of reused tabs; default: the number of
    /// cores, at most 8).
    // The library's default is 1 tab (Python: `Browser(tabs)`); the command line's, the
    // machine's cores up to 8 ([`RenderOptions::default_tabs`]).
    #[serde(skip)]
    #[cfg_attr(
        feature = "clap",
        arg(long, short = 'j', value_name = "N", default_value_t = RenderOptions::default_tabs(), hide_default_value = true, value_parser = tabs_arg)
    )]
    pub concurrency: usize,
    /// Extra Chromium flag, without leading dashes (repeatable).
    // `js-flags=--max-old-space-size=128`
    #[cfg_attr(feature = "clap", arg(long = "chrome-arg", value_name = "FLAG"))]
    pub chrome_args: Vec<String>,
    /// Close a tab and open a fresh one after it rendered N pages (0: never), so long runs
    /// do not grow one renderer's memory. Between pages a tab goes to about:blank with its
    /// scripts off; a tab that cannot, or whose page failed to load, is replaced at once.
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value_t = RenderOptions::default().recycle_tab_after, value_name = "N")
    )]
    pub recycle_tab_after: usize,
    /// Relaunch the launched browser after it rendered N pages (0: never). Pages in flight
    /// finish first and new pages wait for the fresh browser: none is lost.
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value_t = RenderOptions::default().recycle_browser_after, value_name = "N")
    )]
    pub recycle_browser_after: usize,
    /// Relaunch a launched browser the same way when the summed resident memory of its
    /// processes passes this many bytes (checked every few pages; None: no bound). The CLI and
    /// `sightline::Extractor` set [`RenderOptions::default_memory_bound`] unless told otherwise.
    // The CLI's `--max-browser-memory MIB` (0: none) sets it.
    #[serde(skip)]
    #[cfg_attr(feature = "clap", arg(skip))]
    pub max_browser_memory: Option<u64>,
    /// Targets the page may reach, and their enforcement, one value
    /// ([`guard::TargetPolicy`]): the browser checks every request (redirects and
    /// subresources included) against its target policy, and a launched browser's every
    /// connection goes through an egress proxy inside sightline ([`egress`]) that resolves
    /// each host itself, refuses forbidden addresses and connects to the address it checked,
    /// so a DNS answer that changes after a check (DNS rebinding) cannot steer a page to this
    /// machine or its network; WebSockets, WebRTC and prefetches included. `None`: nothing is
    /// checked and Chromium connects by itself (the CLI). `sightline serve` and `mcp` set it,
    /// `extract --deny-private` too ([`RenderOptions::set_target_policy`]).
    #[serde(skip)]
    #[cfg_attr(feature = "clap", arg(skip))]
    pub targets: Option<guard::TargetPolicy>,
    /// An origin exempt from `policy`: the renderer's own loopback server, which serves the
    /// HTML a caller sent (set per page by the renderer).
    #[serde(skip)]
    #[cfg_attr(feature = "clap", arg(skip))]
    pub exempt_origin: Option<String>,
    /// Extract pages whose main document has an HTTP error status (>= 400) instead of
    /// failing them with an `http` error.
    #[cfg_attr(feature = "clap", arg(long))]
    pub accept_http_errors: bool,
    /// How pages are rendered: `full` (scripts run, everything loads, the page settles and
    /// scrolls; the default), `static` (scripts off, only stylesheets fetched, no scroll:
    /// fastest, for server-rendered pages; refuses waits, actions and a scroll box) or `auto`
    /// (static unless the page's HTML shows content built by scripts, and in full again when
    /// the static render shows too little, an error or a wall; the page is fetched once).
    // `lane.rs` holds the rules; in JSON `render`, as the flag.
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value = "full", value_name = "auto|full|static", value_parser = render_mode_arg())
    )]
    pub render: RenderMode,
    /// The main document as a render before this one fetched it: answered with it, never
    /// fetched again (`auto`'s full render after a static one).
    #[serde(skip)]
    #[cfg_attr(feature = "clap", arg(skip))]
    pub(crate) fetched: Option<Arc<crate::lane::FetchedDocument>>,
    /// Run the page's scripts (default). The JavaScript-disabled fallback render turns this
    /// off for one page.
    #[serde(skip)]
    #[cfg_attr(feature = "clap", arg(skip = RenderOptions::default().javascript))]
    pub javascript: bool,
    /// How each page is steered before its snapshot (waits, actions, headers, cookies,
    /// blocking, consent); a page's own plan ([`PageRender::steer`]) replaces it.
    #[serde(skip)]
    #[cfg_attr(feature = "clap", arg(skip))]
    pub steer: Arc<Steer>,
    /// Connect through this proxy: http://, https:// or socks5:// with user:password@ if
    /// needed. With a target policy (serve, --deny-private), sightline's egress proxy still
    /// checks every connection and connects through this one.
    // A launched browser connects through it; with the egress proxy on, the egress proxy does.
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "URL",
            help_heading = "Steering the page (docs/steering.md)"
        )
    )]
    pub proxy: Option<String>,
    /// Keep every HTTP exchange of each page, bodies included (`Rendered::exchanges`), for a
    /// WARC (`--warc`, `--wacz`). Off by default: no extra CDP command.
    #[serde(skip)]
    #[cfg_attr(feature = "clap", arg(skip))]
    pub capture: bool,
    /// Answer every request of each page from this archive (`--replay`), nothing from the
    /// network; a request it lacks fails as offline.
    #[serde(skip)]
    #[cfg_attr(feature = "clap", arg(skip))]
    pub replay: Option<Arc<crate::archive::Archive>>,
    /// The User-Agent string (sent, and seen by the page's scripts).
    // Browser-wide: a launched browser starts with it, each tab of a connected one gets it
    // (`Emulation.setUserAgentOverride`). Unlike a plan's [`Steer::user_agent`], it gives no
    // page a browser context of its own (a plan's still wins for its page). None: the
    // browser's own.
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "UA",
            help_heading = "Steering the page (docs/steering.md)"
        )
    )]
    pub user_agent: Option<String>,
}

/// What one page asks of the renderer beyond its [`RenderOptions`].
#[derive(Debug, Clone, Default)]
pub struct PageRender {
    /// Take a screenshot (None: as the options say).
    pub screenshot: Option<bool>,
    /// The page's steering plan (None: the options').
    pub steer: Option<Arc<Steer>>,
    /// Capture this page's exchanges even when the options do not (a page whose
    /// configuration archives it: `serve`'s `warc: true`).
    pub capture: bool,
}

/// The setters of [`RenderOptions`]: one a field, named as the field, taking its type.
macro_rules! setters {
    ($($field:ident: $ty:ty),* $(,)?) => {
        impl RenderOptions {
            $(
                #[doc = concat!("Sets [`RenderOptions::", stringify!($field), "`].")]
                #[must_use]
                pub fn $field(mut self, value: $ty) -> RenderOptions {
                    self.$field = value;
                    self
                }
            )*
        }
    };
}

setters! {
    browser: BrowserSource,
    viewport: (u32, u32),
    timeout: Duration,
    quiet: Duration,
    scroll: ScrollOptions,
    command_timeout: Duration,
    offline: bool,
    screenshot: bool,
    max_screenshot_height: u32,
    max_nodes: usize,
    concurrency: usize,
    chrome_args: Vec<String>,
    recycle_tab_after: usize,
    recycle_browser_after: usize,
    max_browser_memory: Option<u64>,
    targets: Option<guard::TargetPolicy>,
    exempt_origin: Option<String>,
    accept_http_errors: bool,
    render: RenderMode,
    javascript: bool,
    steer: Arc<Steer>,
    proxy: Option<String>,
    capture: bool,
    replay: Option<Arc<crate::archive::Archive>>,
    user_agent: Option<String>,
}

impl RenderOptions {
    /// The command line's default number of tabs: the machine's cores, at most 8.
    pub fn default_tabs() -> usize {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(8)
    }

    /// The default bound on a launched browser's memory with `tabs` tabs: 1 GiB plus 512 MiB
    /// a tab (what [`RenderOptions::max_browser_memory`] is unless the user sets it; the one
    /// place this rule is written).
    pub fn default_memory_bound(tabs: usize) -> u64 {
        (1024 + 512 * tabs as u64) << 20
    }

    /// Refuse targets on this machine and its networks with `policy`: checked for the page
    /// and every request it makes, and enforced by the egress proxy it implies
    /// ([`RenderOptions::targets`]); `None` turns both off.
    pub fn set_target_policy(&mut self, policy: Option<guard::NetPolicy>) {
        self.targets = policy.map(guard::TargetPolicy::new);
    }

    /// The target policy the browser checks requests against, if any.
    pub fn policy(&self) -> Option<&guard::NetPolicy> {
        self.targets.as_ref().and_then(|t| t.policy())
    }

    /// The egress proxy's policy, if a launched browser's connections go through one.
    pub fn egress(&self) -> Option<&egress::EgressPolicy> {
        self.targets.as_ref().and_then(|t| t.egress())
    }
}

impl RenderOptions {
    /// Each field of the JSON form as a keyword table reads it: its JSON name, its default
    /// and its doc (from the JSON schema), in name order. Python's render keywords are made
    /// from it.
    pub fn described() -> Vec<(String, serde_json::Value, String)> {
        sightline_core::described::described(&schemars::schema_for!(RenderOptions), None)
    }

    /// Whether `plan` can be carried out in the lane asked for: `static` runs no script, so a
    /// plan that waits, acts or scrolls a box cannot (`auto` renders such a page in full).
    pub fn check_plan(&self, plan: &Steer) -> Result<(), SettingsError> {
        if self.render == RenderMode::Static && plan.needs_scripts() {
            return Err(SettingsError::new(
                "render",
                "static runs no scripts, so the page's waits, actions or scroll box (--scroll-container) cannot run: use --render full, or auto (which renders a steered page in full)",
            ));
        }
        Ok(())
    }

    /// The checks the values' types do not make (JSON can say `"timeout": 0`).
    pub fn validate(&self) -> Result<(), SettingsError> {
        if self.timeout.is_zero() {
            return Err(SettingsError::new(
                "timeout",
                "must be a positive number of seconds",
            ));
        }
        if self.viewport.0 == 0 || self.viewport.1 == 0 {
            return Err(SettingsError::new(
                "viewport",
                "expected a width and a height above 0, such as 1366x900",
            ));
        }
        Ok(())
    }
}

/// `--render auto|full|static`.
#[cfg(feature = "clap")]
fn render_mode_arg() -> impl clap::builder::TypedValueParser<Value = RenderMode> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["auto", "full", "static"])
        .map(|s| s.parse().unwrap_or_default())
}

/// `--viewport WxH`.
#[cfg(feature = "clap")]
fn viewport_arg(arg: &str) -> Result<(u32, u32), String> {
    arg.split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.trim().parse::<u32>().ok()?, h.trim().parse::<u32>().ok()?)))
        .ok_or_else(|| "expected WIDTHxHEIGHT such as 1366x900".to_string())
}

/// `-j N`: at least one tab.
#[cfg(feature = "clap")]
fn tabs_arg(arg: &str) -> Result<usize, String> {
    arg.trim()
        .parse::<usize>()
        .map(|n| n.max(1))
        .map_err(|_| "expected a number of tabs".to_string())
}

/// `--timeout SECONDS`: more than 0.
#[cfg(feature = "clap")]
fn positive_seconds(arg: &str) -> Result<Duration, String> {
    match crate::settings::seconds(arg) {
        Ok(d) if !d.is_zero() => Ok(d),
        _ => Err("must be a positive number of seconds".to_string()),
    }
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            browser: BrowserSource::Launch(None),
            viewport: (1366, 900),
            timeout: Duration::from_secs(15),
            quiet: Duration::from_millis(100),
            scroll: ScrollOptions::default(),
            command_timeout: Duration::from_secs(10),
            offline: false,
            screenshot: false,
            max_screenshot_height: 16_384,
            max_nodes: 200_000,
            concurrency: 1,
            chrome_args: Vec::new(),
            recycle_tab_after: 100,
            recycle_browser_after: 2_000,
            max_browser_memory: None,
            targets: None,
            exempt_origin: None,
            accept_http_errors: false,
            render: RenderMode::Full,
            fetched: None,
            javascript: true,
            steer: Arc::default(),
            proxy: None,
            capture: false,
            replay: None,
            user_agent: None,
        }
    }
}

/// A page to render.
#[derive(Debug, Clone)]
pub enum Input {
    /// A URL (http, https, file, about, data).
    Url(String),
    /// A local file.
    File(PathBuf),
    /// HTML bytes with a charset (stdin, benchmark pages): served on a loopback server with
    /// the charset in `Content-Type`, so pages without a `<meta charset>` decode right.
    Html {
        name: String,
        bytes: Vec<u8>,
        charset: String,
    },
}

impl Input {
    /// Interpret a command-line argument: `-` is stdin (read by the caller), an existing path
    /// is a file, anything with a scheme is a URL. A URL whose scheme sightline does not
    /// render (ftp:, ws:, ...) is an input error naming the schemes it does
    /// ([`checks::SUPPORTED_SCHEMES`]).
    pub fn parse(arg: &str) -> Result<Input, Error> {
        if arg.contains("://") || arg.starts_with("about:") || arg.starts_with("data:") {
            checks::check_url(arg).map_err(|message| Error::Input {
                input: arg.into(),
                message,
                source: None,
            })?;
            return Ok(Input::Url(arg.to_string()));
        }
        let p = PathBuf::from(arg);
        if p.is_file() {
            return Ok(Input::File(p));
        }
        if p.exists() {
            return Err(Error::Input {
                input: arg.into(),
                message: "is not a file".into(),
                source: None,
            });
        }
        if arg.contains('.')
            && !arg.contains('/')
            && !arg.ends_with(".html")
            && !arg.ends_with(".htm")
        {
            return Ok(Input::Url(format!("https://{arg}")));
        }
        Err(Error::Input {
            input: arg.into(),
            message: "no such file, and not a URL (URLs need a scheme such as https://)".into(),
            source: None,
        })
    }

    /// The name used in messages and records.
    pub fn name(&self) -> String {
        match self {
            Input::Url(u) => u.clone(),
            Input::File(p) => p.display().to_string(),
            Input::Html { name, .. } => name.clone(),
        }
    }
}

/// The HTML of a file or byte input and the charset it was given with (URL inputs get
/// theirs from the main document's response).
pub(super) fn local_html(input: &Input) -> Option<(std::borrow::Cow<'_, [u8]>, Option<&str>)> {
    match input {
        Input::Url(_) => None,
        Input::File(p) => Some((std::fs::read(p).ok()?.into(), None)),
        Input::Html { bytes, charset, .. } => {
            Some((bytes.as_slice().into(), Some(charset.as_str())))
        }
    }
}

/// A page whose `<title>` is never closed is all title to an HTML parser (the body stays
/// empty); lenient parsers end the title at the next tag. For HTML given as bytes whose
/// render came out with no text and a title longer than 1,000 characters, the bytes with
/// `</title>` inserted before the first tag after `<title>`.
pub(super) fn repair_unclosed_title(input: &Input, snap: &crate::Snapshot) -> Option<Input> {
    let Input::Html {
        name,
        bytes,
        charset,
    } = input
    else {
        return None;
    };
    if snap.title.chars().count() <= 1000 || snap.nodes.iter().any(|n| n.text.is_some()) {
        return None;
    }
    let lower: Vec<u8> = bytes.iter().map(|b| b.to_ascii_lowercase()).collect();
    let find = |hay: &[u8], needle: &[u8], from: usize| {
        hay[from..]
            .windows(needle.len())
            .position(|w| w == needle)
            .map(|p| p + from)
    };
    let open = find(&lower, b"<title", 0)?;
    let start = find(&lower, b">", open)? + 1;
    // An end tag is `</title` followed by whitespace, `/` or `>` (`</titlevalue="x">` is not).
    let mut from = start;
    while let Some(at) = find(&lower, b"</title", from) {
        match lower.get(at + 7) {
            None | Some(b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'/' | b'>') => return None,
            Some(_) => from = at + 7,
        }
    }
    let end = find(&lower, b"<", start).unwrap_or(bytes.len());
    let mut fixed = bytes[..end].to_vec();
    fixed.extend_from_slice(b"</title>");
    fixed.extend_from_slice(&bytes[end..]);
    Some(Input::Html {
        name: name.clone(),
        bytes: fixed,
        charset: charset.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::SnapshotBuilder;

    #[test]
    fn every_json_field_is_described_with_its_default() {
        let d = RenderOptions::described();
        let field = |name: &str| d.iter().find(|(n, ..)| n == name).unwrap().clone();
        assert_eq!(field("timeout").1, serde_json::json!(15.0), "seconds");
        assert_eq!(field("viewport").1, serde_json::json!([1366, 900]));
        assert_eq!(field("quiet_ms").1, serde_json::json!(100));
        assert_eq!(field("offline").1, serde_json::json!(false));
        assert_eq!(field("proxy").1, serde_json::Value::Null);
        assert!(field("timeout").2.starts_with("Deadline"), "{d:?}");
        assert!(d.iter().all(|(n, ..)| n != "steer" && n != "browser"));
    }

    #[test]
    fn json_sets_the_user_facing_fields_in_the_flags_units() {
        let o: RenderOptions = serde_json::from_str(
            r#"{"timeout": 2.5, "quiet_ms": 50, "viewport": [800, 600], "user_agent": "bot/1"}"#,
        )
        .unwrap();
        assert_eq!(o.timeout, Duration::from_millis(2500));
        assert_eq!(o.quiet, Duration::from_millis(50));
        assert_eq!(o.viewport, (800, 600));
        // The fields JSON does not set keep their defaults.
        let d = RenderOptions::default();
        assert_eq!((o.command_timeout, o.javascript), (d.command_timeout, true));
        assert_eq!(o.max_nodes, d.max_nodes);
        assert!(serde_json::from_str::<RenderOptions>(r#"{"steer": {}}"#).is_err());
        let zero: RenderOptions = serde_json::from_str(r#"{"timeout": 0}"#).unwrap();
        assert_eq!(zero.validate().unwrap_err().setting, "timeout");
    }

    #[test]
    fn json_sets_the_scroll_phase_in_milliseconds() {
        let o: RenderOptions =
            serde_json::from_str(r#"{"scroll": {"enabled": false, "budget_ms": 500}}"#).unwrap();
        assert!(!o.scroll.enabled);
        assert_eq!(o.scroll.budget, Duration::from_millis(500));
        assert_eq!(o.scroll.max_px, ScrollOptions::default().max_px);
        assert!(serde_json::from_str::<RenderOptions>(r#"{"scroll": {"budget": 1}}"#).is_err());
        let back = serde_json::to_value(&o.scroll).unwrap();
        assert_eq!(back["budget_ms"], 500);
    }

    #[cfg(feature = "clap")]
    #[test]
    fn the_scroll_flags_parse_into_the_options() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            render: RenderOptions,
        }
        let d = Cli::try_parse_from(["x"]).unwrap().render;
        assert_eq!(d.scroll, ScrollOptions::default());
        assert_eq!(d.max_screenshot_height, 16_384);
        let o = Cli::try_parse_from([
            "x",
            "--no-scroll",
            "--max-scroll-ms",
            "700",
            "--max-screenshot-height",
            "99",
        ])
        .unwrap()
        .render;
        assert!(!o.scroll.enabled);
        assert_eq!(o.scroll.budget, Duration::from_millis(700));
        assert_eq!(o.max_screenshot_height, 99);
        assert!(Cli::try_parse_from(["x", "--no-scroll", "--always-scroll"]).is_err());
    }

    #[test]
    fn an_unclosed_title_is_closed_before_the_next_tag() {
        let html = b"<html><head><TITLE>News story(Site)broken script text</head><body><p>Body</p></body></html>".to_vec();
        let input = Input::Html {
            name: "p".into(),
            bytes: html,
            charset: "utf-8".into(),
        };
        let mut b = SnapshotBuilder::new(1000.0);
        b.title(&"x".repeat(1200));
        let snap = b.build();
        let Some(Input::Html { bytes, .. }) = repair_unclosed_title(&input, &snap) else {
            panic!("repaired")
        };
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            "<html><head><TITLE>News story(Site)broken script text</title></head><body><p>Body</p></body></html>"
        );
        // `</titlevalue="true" -->` (a broken template comment) does not end the title.
        let input = Input::Html {
            name: "p".into(),
            bytes: b"<head><title>Story</titlevalue=\"true\" --></head><body><p>Body</p></body>"
                .to_vec(),
            charset: "utf-8".into(),
        };
        let Some(Input::Html { bytes, .. }) = repair_unclosed_title(&input, &snap) else {
            panic!("repaired")
        };
        assert!(String::from_utf8(bytes)
            .unwrap()
            .starts_with("<head><title>Story</title></titlevalue"));
        // A real end tag, even with an attribute-like tail, is left alone.
        let input = Input::Html {
            name: "p".into(),
            bytes: b"<head><title>Story</title ></head><body><p>Body</p></body>".to_vec(),
            charset: "utf-8".into(),
        };
        assert!(repair_unclosed_title(&input, &snap).is_none());
        // A normal page, or a page with text, is left alone.
        let short = SnapshotBuilder::new(1000.0).build();
        assert!(repair_unclosed_title(&input, &short).is_none());
        let mut with_text = SnapshotBuilder::new(1000.0);
        with_text.title(&"x".repeat(1200));
        with_text.text(0, "visible");
        assert!(repair_unclosed_title(&input, &with_text.build()).is_none());
    }
}
