//! One CDP command with a named timeout, and one `Runtime.evaluate`.
//!
//! Every await on the browser is bounded (STYLE.md habit 10). A command sent through
//! [`execute`] (or any CDP future through [`timed`]) that fails is [`BrowserError::Cdp`] (keeping the protocol's error as its source), and one
//! that does not answer within its limit is [`Error::Timeout`], both naming the input and the
//! phase (what the page was doing: "emulating focus", "scrolling the page"). [`within`] is the
//! same bound for callers that keep the failure to themselves (a command whose failure is
//! only logged, or reported as text), and [`answered`] keeps the browser's refusal apart from
//! a timeout (a refusal that means something of its own). Scripts are evaluated with the parameters of
//! [`by_value`] or [`awaited`], and [`evaluate`] splits a script's exception from its value.

use std::fmt;
use std::future::Future;
use std::time::Duration;

use chromiumoxide::cdp::js_protocol::runtime::{EvaluateParams, RemoteObject};
use chromiumoxide::error::CdpError;
use chromiumoxide::types::{Command, CommandResponse};
use chromiumoxide::Page;

use crate::error::BrowserError;
use crate::Error;

/// Why a bounded CDP command gave no answer.
#[derive(Debug)]
pub(crate) enum Failure {
    /// No answer within the limit.
    TimedOut(Duration),
    /// The browser answered with an error, or the connection failed.
    Cdp(CdpError),
}

impl Failure {
    /// The crate's error for this failure of the command of phase `phase` for `input`.
    pub(crate) fn error(self, input: &str, phase: &str) -> Error {
        match self {
            Failure::TimedOut(limit) => Error::Timeout {
                input: input.into(),
                phase: phase.into(),
                seconds: limit.as_secs_f64(),
            },
            Failure::Cdp(e) => Error::from(BrowserError::Cdp {
                input: input.into(),
                phase: phase.into(),
                message: e.to_string(),
                source: Some(Box::new(e)),
            }),
        }
    }
}

impl fmt::Display for Failure {
    /// The failure as text: the browser's error, or "no answer within 5s".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::TimedOut(limit) => write!(f, "no answer within {limit:?}"),
            Failure::Cdp(e) => write!(f, "{e}"),
        }
    }
}

/// Await `fut`, a CDP command, for at most `limit`.
pub(crate) async fn within<T>(
    limit: Duration,
    fut: impl Future<Output = Result<T, CdpError>>,
) -> Result<T, Failure> {
    match tokio::time::timeout(limit, fut).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(Failure::Cdp(e)),
        Err(_) => Err(Failure::TimedOut(limit)),
    }
}

/// Await `fut`, a CDP command of the phase `phase` for `input`, for at most `limit`: its
/// failure is the crate's error naming them (see [`Failure::error`]).
pub(crate) async fn timed<T>(
    input: &str,
    phase: &str,
    limit: Duration,
    fut: impl Future<Output = Result<T, CdpError>>,
) -> Result<T, Error> {
    within(limit, fut).await.map_err(|f| f.error(input, phase))
}

/// Await `fut`, a CDP command of the phase `phase` for `input`, for at most `limit`: no
/// answer is the crate's [`Error::Timeout`]; an answer, the browser's refusal included, is
/// returned (for a refusal that means something of its own: a locale Chromium does not know).
pub(crate) async fn answered<T>(
    input: &str,
    phase: &str,
    limit: Duration,
    fut: impl Future<Output = Result<T, CdpError>>,
) -> Result<Result<T, CdpError>, Error> {
    match within(limit, fut).await {
        Ok(v) => Ok(Ok(v)),
        Err(Failure::Cdp(e)) => Ok(Err(e)),
        Err(f) => Err(f.error(input, phase)),
    }
}

/// Send `cmd` to `page` and await its answer for at most `limit` (see [`timed`]).
pub(crate) async fn execute<C: Command>(
    page: &Page,
    input: &str,
    phase: &str,
    limit: Duration,
    cmd: C,
) -> Result<CommandResponse<C::Response>, Error> {
    timed(input, phase, limit, page.execute(cmd)).await
}

/// A `Runtime.evaluate` of `js` whose value comes back as JSON (`returnByValue`).
pub(crate) fn by_value(js: impl Into<String>) -> EvaluateParams {
    EvaluateParams {
        return_by_value: Some(true),
        ..EvaluateParams::new(js)
    }
}

/// [`by_value`], a promise the script returns awaited (`awaitPromise`).
pub(crate) fn awaited(js: impl Into<String>) -> EvaluateParams {
    EvaluateParams {
        await_promise: Some(true),
        ..by_value(js)
    }
}

/// Evaluate `params` in `page` for at most `limit`: the script's value, or its exception as
/// `Ok(Err(message))` (the exception's description, else its text); a command that fails
/// or does not answer is an error of the phase `phase` (see [`timed`]).
pub(crate) async fn evaluate(
    page: &Page,
    input: &str,
    phase: &str,
    limit: Duration,
    params: EvaluateParams,
) -> Result<Result<RemoteObject, String>, Error> {
    let r = execute(page, input, phase, limit, params).await?.result;
    Ok(match r.exception_details {
        Some(ex) => Err(ex.exception.and_then(|e| e.description).unwrap_or(ex.text)),
        None => Ok(r.result),
    })
}
