//! Walls: what stands between a reader and a page's content (an anti-bot challenge, a
//! captcha, a WAF's block, a rate limit, a login or subscription wall, a consent dialog),
//! recognised from the signals a render leaves (status, headers, the DOM and the layout) so a
//! wall is named in the record and never passed off as content.
//!
//! This module holds the vocabulary ([`Wall`], [`WallKind`]) and the recognition
//! ([`recognise`]): pure code over a [`crate::Snapshot`] and the main document's response
//! ([`Response`]), driven by the vendor table in [`markers`]. `docs/walls.md` says what is
//! recognised and what was measured.

use serde::{Deserialize, Serialize};

pub mod markers;
mod recognise;
#[cfg(test)]
mod tests;

pub use recognise::{
    consent_platform, recognise, soft_error, Response, Verdict, WallParams, RESPONSE_HEADERS,
};

/// What kind of wall a page is behind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WallKind {
    /// An anti-bot interstitial ("Just a moment...", "Checking your browser").
    Challenge,
    /// A captcha to solve before the page.
    Captcha,
    /// A firewall's block page ("Access denied", a WAF reference number).
    AccessDenied,
    /// "Too many requests" (HTTP 429, or a rate-limit page).
    RateLimited,
    /// A login form in place of (or in front of) the content.
    Login,
    /// A subscription wall.
    Paywall,
    /// A consent dialog that could not be answered and hides the content.
    Consent,
}

impl WallKind {
    /// Every kind, in the order the docs list them.
    pub const ALL: [WallKind; 7] = [
        WallKind::Challenge,
        WallKind::Captcha,
        WallKind::AccessDenied,
        WallKind::RateLimited,
        WallKind::Login,
        WallKind::Paywall,
        WallKind::Consent,
    ];

    /// The kind's name in records (`access-denied`).
    pub fn as_str(self) -> &'static str {
        match self {
            WallKind::Challenge => "challenge",
            WallKind::Captcha => "captcha",
            WallKind::AccessDenied => "access-denied",
            WallKind::RateLimited => "rate-limited",
            WallKind::Login => "login",
            WallKind::Paywall => "paywall",
            WallKind::Consent => "consent",
        }
    }
}

impl std::fmt::Display for WallKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A wall in front of a page's content, with the evidence it was recognised by.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Wall {
    pub kind: WallKind,
    /// The vendor when a vendor's marker was seen (`cloudflare`, `akamai`, `datadome`, ...).
    pub vendor: Option<String>,
    /// What gave the wall away, one short phrase each (`status 403`, `header cf-mitigated:
    /// challenge`, `iframe challenges.cloudflare.com`, `a centred box of 42 characters`).
    pub evidence: Vec<String>,
}

/// How a rate limit's `Retry-After` header is written in its wall's evidence
/// (`retry-after: 120`): written by [`recognise`], read back by [`Wall::retry_after`].
pub(crate) const RETRY_AFTER_EVIDENCE: &str = "retry-after: ";

impl Wall {
    /// The `Retry-After` the page that raised this rate-limit wall answered with (its
    /// delta-seconds), when it did: the wait the host asked for (a crawl backs off by it).
    pub fn retry_after(&self) -> Option<std::time::Duration> {
        if self.kind != WallKind::RateLimited {
            return None;
        }
        self.evidence
            .iter()
            .find_map(|e| e.strip_prefix(RETRY_AFTER_EVIDENCE))
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e9)
            .map(std::time::Duration::from_secs_f64)
    }

    /// "a cloudflare challenge", "a login wall": the wall in a message.
    pub fn describe(&self) -> String {
        let what = match self.kind {
            WallKind::Challenge => "anti-bot challenge",
            WallKind::Captcha => "captcha",
            WallKind::AccessDenied => "access-denied block page",
            WallKind::RateLimited => "rate limit",
            WallKind::Login => "login wall",
            WallKind::Paywall => "paywall",
            WallKind::Consent => "consent wall",
        };
        match &self.vendor {
            Some(v) => format!("{v} {what}"),
            None => what.to_string(),
        }
    }
}
