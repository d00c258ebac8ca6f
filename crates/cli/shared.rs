//! What the subcommands share that is not a flag: the exit codes, the hints a front end adds
//! to the library's errors (the flag that changes the outcome), and the loaders of
//! `--params`, `--model` and `--algorithm`.

use std::path::PathBuf;

use anyhow::{Context, Result};
use sightline::extract::{Algorithm, Params};

/// Exit codes, documented in `--help`.
pub mod exit {
    /// Every input extracted.
    pub const OK: i32 = 0;
    /// Every input rendered, but at least one produced no content.
    pub const NOTHING: i32 = 1;
    /// At least one input failed (bad input, timeout, crash, browser error, bad arguments).
    pub const ERROR: i32 = 2;
    /// Interrupted (Ctrl-C): in-flight pages were recorded, no new page was started.
    pub const INTERRUPTED: i32 = 130;
}

/// The CLI's hint for a library error: the flag that changes the outcome. The library's
/// messages speak of the library; records and stderr of the CLI name its flags.
pub fn hint(e: &sightline::Error) -> Option<String> {
    use sightline::render::BrowserError as B;
    use sightline::Error as E;
    Some(
        match e {
            E::Browser { .. } => match e.browser::<B>() {
                Some(B::ChromeNotFound { .. }) => "pass --chrome PATH or set $CHROME",
                Some(B::Connect { .. }) => "check the --browser-ws endpoint",
                _ => return None,
            },
            E::Timeout { .. } => "raise --timeout",
            E::Http { .. } => "pass --accept-http-errors to extract such pages anyway",
            E::TooLarge { .. } => "raise --max-nodes or --max-text-bytes",
            E::Charset { .. } => "pass --charset with a WHATWG label such as utf-8",
            E::Forbidden { .. } => "drop --deny-private to let this page reach private addresses",
            E::Blocked { .. } => "pass --accept-walls to extract what is there",
            E::Action { .. } => "mark the action \"optional\": true to go on without it",
            _ => return None,
        }
        .to_string(),
    )
}

/// The hint of `serve` and `mcp`: a refused target is the service's policy, which its
/// operator (not the client) lifts; everything else as [`hint`].
pub fn service_hint(e: &sightline::Error) -> Option<String> {
    match e {
        sightline::Error::Forbidden { .. } => Some(
            "run the service with --allow-private, or --allow-host HOST[:PORT] for one host, to allow it"
                .into(),
        ),
        sightline::Error::Blocked { .. } => {
            Some("send accept_walls: true to extract what is there".into())
        }
        _ => hint(e),
    }
}

pub const AFTER_HELP: &str = "\
Exit codes:
  0    every input extracted
  1    every input rendered, but at least one produced no content
  2    at least one input failed (its error is on stderr and in its output record)
  130  interrupted (Ctrl-C)

Chromium is found from --chrome, then $CHROME, then chromium-headless-shell /
chrome-headless-shell / chromium / chromium-browser / google-chrome on PATH (Debian:
apt-get install -y chromium chromium-headless-shell; the headless shell needs about a
quarter less CPU a page). When that is one of Debian's launcher scripts
(/usr/bin/chromium, /usr/bin/chromium-headless-shell), the binary it runs is launched
directly; SIGHTLINE_KEEP_CHROME_WRAPPER=1 launches the script instead.";

/// Render pages in headless Chromium and extract their main content from the real layout.
/// Load `--params FILE` (any subset of `Params` as JSON).
pub fn load_params(p: &Option<PathBuf>) -> Result<Params> {
    match p {
        None => Ok(Params::default()),
        Some(path) => {
            let s = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read --params {}", path.display()))?;
            serde_json::from_str(&s)
                .with_context(|| format!("--params {}: not valid parameters JSON", path.display()))
        }
    }
}

/// Load `--model FILE`: the `learned` model to run instead of the built-in one (None: the
/// built-in one).
pub fn load_model(
    model: &Option<PathBuf>,
) -> Result<Option<std::sync::Arc<sightline::extract::learned::model::Model>>> {
    match model {
        None => Ok(None),
        Some(m) => {
            let m = sightline::extract::learned::model::Model::from_file(m).context("--model")?;
            Ok(Some(std::sync::Arc::new(m)))
        }
    }
}

/// `--algorithm` of `extract`, `serve` and `mcp`: names separated by commas, or `all`
/// ([`Algorithm::ALL`]: one render, every algorithm).
pub fn parse_algorithms(s: &str) -> Result<Vec<Algorithm>> {
    Algorithm::parse_list([s], &Algorithm::ALL).map_err(anyhow::Error::msg)
}

/// `--body` of `extract` and `crawl`: a body format for the JSON record's `body` (markdown,
/// text or html; json is the record itself).
pub fn body_format(s: &str) -> std::result::Result<sightline::Format, String> {
    match s.parse::<sightline::Format>()? {
        sightline::Format::Json => {
            Err("the body is markdown, text or html (json is the record itself)".into())
        }
        f => Ok(f),
    }
}
