//! Waiting for a condition: poll it until it holds or a hang guard passes. Every poll loop of
//! the integration tests goes through here, so none sleeps a fixed time to synchronise and
//! the guard only turns a condition that never holds into a failure (it is never a speed
//! bound). Test crates without `mod common;` include this file alone with `#[path]`.
#![allow(dead_code)]

use std::future::Future;
use std::time::{Duration, Instant};

/// How often a condition is looked at.
pub const POLL: Duration = Duration::from_millis(20);

/// Poll `check` until it gives `Some`, for at most `guard`: its value, or None once the guard
/// passed (the caller says what never happened).
pub async fn eventually<T, F, Fut>(guard: Duration, mut check: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let end = Instant::now() + guard;
    loop {
        if let Some(v) = check().await {
            return Some(v);
        }
        if Instant::now() >= end {
            return None;
        }
        tokio::time::sleep(POLL).await;
    }
}

/// [`eventually`] for a condition read without async code (a child process, /proc), from a
/// test that runs no runtime.
pub fn eventually_blocking<T>(guard: Duration, mut check: impl FnMut() -> Option<T>) -> Option<T> {
    let end = Instant::now() + guard;
    loop {
        if let Some(v) = check() {
            return Some(v);
        }
        if Instant::now() >= end {
            return None;
        }
        std::thread::sleep(POLL);
    }
}

/// `Some(())` when `cond` holds: a boolean condition for [`eventually`].
pub fn holds(cond: bool) -> Option<()> {
    cond.then_some(())
}
