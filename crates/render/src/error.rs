//! [`BrowserError`]: the failures of the browser itself, below the page (not found, not
//! started, not reached, gone, a crashed renderer, a failed DevTools command). Only this crate
//! knows Chromium, so only it names them; they travel as the library's one error,
//! `sightline_core::Error::Browser`, which keeps this value whole as its source (its message,
//! its kind, and the protocol error under it): `Error::browser::<BrowserError>()` reads it
//! back.

use std::path::PathBuf;

use sightline_core::{BoxError, Error};

/// A failure of the browser itself.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BrowserError {
    /// No Chromium executable was found.
    #[error("Chromium not found (looked at {looked}): install Debian's `chromium` (apt-get install -y chromium), or name the executable (the browser option, or $CHROME)")]
    ChromeNotFound { looked: String },
    /// Chromium could not be started.
    #[error("could not start Chromium at {path}: {message}")]
    Launch {
        path: PathBuf,
        message: String,
        source: Option<BoxError>,
    },
    /// Connecting to an already running browser failed.
    #[error("could not connect to the browser at {url}: {message} (is Chromium running with a DevTools endpoint, --remote-debugging-port?)")]
    Connect {
        url: String,
        message: String,
        source: Option<BoxError>,
    },
    /// The browser connection is gone (the browser was killed or crashed).
    #[error("the browser connection is closed ({message}); the browser was killed or crashed")]
    BrowserGone { message: String },
    /// The renderer of the page's tab crashed.
    #[error("{input}: the page's renderer crashed")]
    Crashed { input: String },
    /// Another browser-protocol failure, with the protocol's error as its source when there
    /// is one.
    #[error("{input}: browser error while {phase}: {message}")]
    Cdp {
        input: String,
        phase: String,
        message: String,
        source: Option<BoxError>,
    },
}

impl BrowserError {
    /// The kind records carry: `crashed` for a crashed renderer, `browser` for the rest.
    pub fn kind(&self) -> &'static str {
        match self {
            BrowserError::Crashed { .. } => "crashed",
            _ => "browser",
        }
    }

    /// Is `e` this crate's [`BrowserError::Crashed`]?
    pub fn is_crashed(e: &Error) -> bool {
        matches!(
            e.browser::<BrowserError>(),
            Some(BrowserError::Crashed { .. })
        )
    }

    /// Is `e` this crate's [`BrowserError::BrowserGone`]?
    pub fn is_gone(e: &Error) -> bool {
        matches!(
            e.browser::<BrowserError>(),
            Some(BrowserError::BrowserGone { .. })
        )
    }
}

impl From<BrowserError> for Error {
    fn from(e: BrowserError) -> Error {
        Error::Browser {
            kind: e.kind(),
            source: Box::new(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_browser_failure_travels_as_the_librarys_error_with_its_kind_and_source() {
        let io = std::io::Error::other("connection reset by peer");
        let e = Error::from(BrowserError::Cdp {
            input: "a.html".into(),
            phase: "taking the snapshot".into(),
            message: "connection reset by peer".into(),
            source: Some(Box::new(io)),
        });
        assert_eq!(e.kind(), "browser");
        assert_eq!(
            e.to_string(),
            "a.html: browser error while taking the snapshot: connection reset by peer"
        );
        // The record's message says it once, though the protocol error is kept as the source.
        assert_eq!(e.detail(), e.to_string());
        let inner = e
            .browser::<BrowserError>()
            .expect("the renderer's error is kept");
        let source = std::error::Error::source(inner).expect("the protocol's error is kept");
        assert_eq!(source.to_string(), "connection reset by peer");
        let crashed = Error::from(BrowserError::Crashed {
            input: "b.html".into(),
        });
        assert_eq!(crashed.kind(), "crashed");
        assert!(BrowserError::is_crashed(&crashed) && !BrowserError::is_gone(&crashed));
        let gone = Error::from(BrowserError::BrowserGone {
            message: "killed".into(),
        });
        assert!(BrowserError::is_gone(&gone));
        // Errors of the pure layer are not the browser's.
        let http = Error::Http {
            input: "c".into(),
            status: 404,
        };
        assert!(http.browser::<BrowserError>().is_none() && !BrowserError::is_gone(&http));
    }
}
