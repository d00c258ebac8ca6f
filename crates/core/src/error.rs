//! The library's error type. Every message names the input it concerns and what to do, in
//! the library's terms; front ends add their own hints (the CLI names its flags, see
//! [`Error::kind`] and the binary's `hint`). The underlying failure (an I/O error, a JSON
//! error, a browser-protocol error) is kept as the [`std::error::Error::source`], and
//! [`Error::detail`] gives the message with its sources, as records carry it.

/// The underlying failure kept by an [`Error`].
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Why a page or a run failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A failure of the browser itself, below the page: not found, not started, not
    /// reached, gone, a crashed renderer, a DevTools command that failed. The renderer's own
    /// error (`sightline_render::BrowserError`, which knows Chromium) is kept whole as the
    /// source and gives the message; `kind` is `browser` or `crashed`. The pure layer knows
    /// only that the layer below failed: [`Error::browser`] reads the renderer's error back.
    #[error("{source}")]
    Browser {
        kind: &'static str,
        source: BoxError,
    },
    /// An input could not be read.
    #[error("cannot read {input}: {message}")]
    Input {
        input: String,
        message: String,
        source: Option<BoxError>,
    },
    /// The page did not load.
    #[error("{input}: navigation failed: {message}")]
    Navigation { input: String, message: String },
    /// The target (or a redirect of it) is refused by the service's network policy.
    #[error("{input}: refused: {message}")]
    Forbidden { input: String, message: String },
    /// The main document answered with an HTTP error status (>= 400).
    #[error("{input}: HTTP status {status} for the main document (accept HTTP errors in the render options to extract such pages anyway)")]
    Http { input: String, status: i64 },
    /// The main document is not HTML (a PDF, an image, a binary body, a download).
    #[error("{input}: not an HTML page: {message} (sightline extracts HTML documents only)")]
    ContentType { input: String, message: String },
    /// The main document is a PDF that cannot be extracted: `reason` is `encrypted` (it needs
    /// a password), `broken` (it cannot be read) or `image-only` (it has no text layer).
    #[error("{input}: {message}")]
    Document {
        input: String,
        reason: String,
        message: String,
    },
    /// The page did not finish in time.
    #[error("{input}: timed out after {seconds:.1}s while {phase} (raise the timeout, or the page's script may loop forever)")]
    Timeout {
        input: String,
        phase: String,
        seconds: f64,
    },
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
        source: Option<BoxError>,
    },
    /// An I/O failure writing output.
    #[error("cannot write {path}: {message}")]
    Output {
        path: String,
        message: String,
        source: Option<BoxError>,
    },
    /// A step of the page's actions (click, write, wait, ...) failed and was not optional.
    #[error("{input}: action {index} ({action}) failed: {message}")]
    Action {
        input: String,
        /// The action's index in the list (from 0).
        index: usize,
        /// The action's type (`click`, `wait`, ...).
        action: String,
        message: String,
    },
    /// A wall stands in front of the content (a challenge, a captcha, a block, a rate limit,
    /// a full login or consent wall): the page holds none of its content.
    #[error("{input}: blocked by {} ({}); sightline names walls but does not pass them (accept walls to extract what is there)", wall.describe(), wall.evidence.join("; "))]
    Blocked {
        input: String,
        wall: Box<crate::walls::Wall>,
    },
    /// A bug: the page's processing panicked. The rest of a batch goes on.
    #[error("{input}: internal error ({message}); please report it with the page")]
    Internal { input: String, message: String },
}

impl Error {
    /// A short machine-readable kind for output records: timeout, navigation, http,
    /// content-type, document, forbidden, crashed, script, charset, too-large, input, browser, snapshot,
    /// output, internal.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Browser { kind, .. } => kind,
            Error::Input { .. } => "input",
            Error::Navigation { .. } => "navigation",
            Error::Forbidden { .. } => "forbidden",
            Error::Http { .. } => "http",
            Error::ContentType { .. } => "content-type",
            Error::Document { .. } => "document",
            Error::Timeout { .. } => "timeout",
            Error::Script { .. } => "script",
            Error::TooLarge { .. } => "too-large",
            Error::Charset { .. } => "charset",
            Error::Snapshot { .. } => "snapshot",
            Error::Output { .. } => "output",
            Error::Internal { .. } => "internal",
            Error::Action { .. } => "action",
            Error::Blocked { .. } => "blocked",
        }
    }

    /// The message with the chain of its sources (`cannot read a.html: no such file: No
    /// such file or directory (os error 2)`), as error records carry it.
    pub fn detail(&self) -> String {
        let mut s = self.to_string();
        let mut cur = std::error::Error::source(self);
        while let Some(e) = cur {
            let m = e.to_string();
            if !s.contains(&m) {
                s.push_str(": ");
                s.push_str(&m);
            }
            cur = e.source();
        }
        s
    }

    /// The renderer's own error behind an [`Error::Browser`], as its type `T`
    /// (`sightline_render::BrowserError`); None for any other error.
    pub fn browser<T: std::error::Error + 'static>(&self) -> Option<&T> {
        match self {
            Error::Browser { source, .. } => source.downcast_ref::<T>(),
            _ => None,
        }
    }

    /// An I/O failure reading `input`, kept as the source.
    pub fn input_io(input: impl Into<String>, what: &str, e: std::io::Error) -> Error {
        Error::Input {
            input: input.into(),
            message: what.to_string(),
            source: Some(Box::new(e)),
        }
    }

    /// An I/O failure writing `path`, kept as the source.
    pub fn output_io(path: impl Into<String>, what: &str, e: std::io::Error) -> Error {
        Error::Output {
            path: path.into(),
            message: what.to_string(),
            source: Some(Box::new(e)),
        }
    }
}
