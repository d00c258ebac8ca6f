//! The library's error type. Every message names the input it concerns and what to do.

use std::path::PathBuf;

/// Why a page or a run failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No Chromium executable was found.
    #[error("Chromium not found (looked at {looked}): install Debian's `chromium` (apt-get install -y chromium) or pass --chrome PATH / set $CHROME")]
    ChromeNotFound { looked: String },
    /// Chromium could not be started or connected to.
    #[error("could not start Chromium at {path}: {message}")]
    Launch { path: PathBuf, message: String },
    /// Connecting to an already running browser failed.
    #[error("could not connect to the browser at {url}: {message} (is Chromium running with --remote-debugging-port?)")]
    Connect { url: String, message: String },
    /// The browser connection is gone (the browser was killed or crashed).
    #[error("the browser connection is closed ({message}); the browser was killed or crashed")]
    BrowserGone { message: String },
    /// An input could not be read.
    #[error("cannot read {input}: {message}")]
    Input { input: String, message: String },
    /// The page did not load.
    #[error("{input}: navigation failed: {message}")]
    Navigation { input: String, message: String },
    /// The target (or a redirect of it) is refused by the service's network policy.
    #[error("{input}: refused: {message}")]
    Forbidden { input: String, message: String },
    /// The main document answered with an HTTP error status (>= 400).
    #[error("{input}: HTTP status {status} for the main document (pass --accept-http-errors to extract such pages anyway)")]
    Http { input: String, status: i64 },
    /// The main document is not HTML (a PDF, an image, a binary body, a download).
    #[error("{input}: not an HTML page: {message} (sightline extracts HTML documents only)")]
    ContentType { input: String, message: String },
    /// The page did not finish in time.
    #[error("{input}: timed out after {seconds:.1}s while {phase} (raise --timeout, or the page's script may loop forever)")]
    Timeout {
        input: String,
        phase: String,
        seconds: f64,
    },
    /// The renderer of the page's tab crashed.
    #[error("{input}: the page's renderer crashed")]
    Crashed { input: String },
    /// The snapshot script failed inside the page.
    #[error("{input}: the snapshot script failed: {message}")]
    Script { input: String, message: String },
    /// The page is larger than the configured limits.
    #[error("{input}: page too large: {message}")]
    TooLarge { input: String, message: String },
    /// The page bytes could not be decoded with the requested charset.
    #[error("{input}: unknown charset `{charset}`: pass a WHATWG encoding label such as utf-8 or windows-1252")]
    Charset { input: String, charset: String },
    /// A snapshot JSON file is invalid.
    #[error("snapshot {source_name} is invalid: {message}")]
    Snapshot {
        source_name: String,
        message: String,
    },
    /// Another browser-protocol failure.
    #[error("{input}: browser error while {phase}: {message}")]
    Cdp {
        input: String,
        phase: String,
        message: String,
    },
    /// An I/O failure writing output.
    #[error("cannot write {path}: {message}")]
    Output { path: String, message: String },
}

impl Error {
    /// A short machine-readable kind for output records: timeout, navigation, http,
    /// content-type, forbidden, crashed, script, charset, too-large, input, browser, snapshot,
    /// output.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::ChromeNotFound { .. }
            | Error::Launch { .. }
            | Error::Connect { .. }
            | Error::BrowserGone { .. } => "browser",
            Error::Input { .. } => "input",
            Error::Navigation { .. } => "navigation",
            Error::Forbidden { .. } => "forbidden",
            Error::Http { .. } => "http",
            Error::ContentType { .. } => "content-type",
            Error::Timeout { .. } => "timeout",
            Error::Crashed { .. } => "crashed",
            Error::Script { .. } => "script",
            Error::TooLarge { .. } => "too-large",
            Error::Charset { .. } => "charset",
            Error::Snapshot { .. } => "snapshot",
            Error::Cdp { .. } => "browser",
            Error::Output { .. } => "output",
        }
    }
}
