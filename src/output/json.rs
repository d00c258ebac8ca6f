//! The JSON form of one algorithm's result ([`AlgorithmResult`]), the part of a record
//! ([`crate::batch::Record`]) the writers own. The record's schema is documented there.
//!
//! # Schema (`sightline extract --format json`, one object per input)
//! ```text
//! {
//!   "input":     string   the input as given (URL, path or "-")
//!   "url":       string   final URL after redirects
//!   "title":     string
//!   "algorithm": string   learned | td | ctd | htd | ctd-smooth | wang | vsse | vsse-records |
//!                         crunch | blocks | ensemble
//!   "threshold": number?  the density threshold (§3.5.2); for learned the probability a unit
//!                         of this page needed (details.threshold); null for other algorithms
//!   "text":      string   the content, one paragraph per line
//!   "html":      string   the content subtrees as cleaned HTML
//!   "content": [          the content subtree roots in document order
//!     { "path": CSS selector from body, "tag": string, "box": [x, y, w, h] (CSS px),
//!       "chars": int, "scores": { "td", "ctd", "vi", "htd", "density_sum" } (density only) }
//!   ],
//!   "details":   object   algorithm-specific report, typed per algorithm ([`crate::extract::Details`]; boxes are [x, y, w, h])
//!   "timings_ms": { "launch", "navigate", "settle", "snapshot", "score", "screenshot" }
//!   "screenshot": string? path of the PNG written
//!   "index": int, "status": int?, "retries": int?, "screenshot_truncated": bool?, "files": [..]?
//!   "dialogs": int?      JavaScript dialogs answered automatically (absent when none)
//!   "streamed_segments": int?  React streaming-rendering segments the snapshot put in place
//!                        because the page's script that does it never ran (absent when none)
//!   "javascript": string? "disabled-fallback" when the snapshot comes from a render with
//!                        JavaScript disabled (the scripted render lost the HTML's text)
//! }
//! ```
//! With `--algorithm all` the record holds `"algorithms": { name: {algorithm, threshold, text,
//! html, content, details, score_ms} }` instead of the per-algorithm fields.
//! Errors are records too: `{ "input", "error": { "kind", "message" } }`. Kinds: input,
//! navigation, http (status >= 400; `--accept-http-errors` extracts such pages), content-type
//! (not HTML), timeout, crashed, script, too-large, charset, browser, snapshot, output.

use serde::Serialize;

use crate::extract::Extraction;
use crate::snapshot::{Rect, Tree};

/// Scores of one content node (density algorithms).
#[derive(Debug, Clone, Serialize)]
pub struct NodeScores {
    pub td: f64,
    pub ctd: f64,
    pub vi: f64,
    pub htd: f64,
    pub density_sum: f64,
}

/// One content subtree root.
#[derive(Debug, Clone, Serialize)]
pub struct ContentNode {
    pub path: String,
    pub tag: String,
    #[serde(rename = "box")]
    pub rect: Rect,
    pub chars: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<NodeScores>,
}

/// The result of one algorithm, as written in JSON.
#[derive(Debug, Clone, Serialize)]
pub struct AlgorithmResult {
    pub algorithm: String,
    pub threshold: Option<f64>,
    pub text: String,
    pub html: String,
    pub content: Vec<ContentNode>,
    pub details: crate::extract::Details,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_ms: Option<f64>,
}

impl AlgorithmResult {
    /// Build from an extraction.
    pub fn new(tree: &Tree, ex: &Extraction, score_ms: Option<f64>) -> AlgorithmResult {
        let content = ex
            .roots(tree)
            .into_iter()
            .map(|r| {
                let n = tree.node(r);
                ContentNode {
                    path: tree.css_path(r),
                    tag: n.tag.clone(),
                    rect: n.rect,
                    chars: tree.chars[r],
                    scores: ex.scores.as_ref().map(|s| NodeScores {
                        td: s.td[r],
                        ctd: s.ctd[r],
                        vi: s.vi[r],
                        htd: s.htd[r],
                        density_sum: s.density_sum[r],
                    }),
                }
            })
            .collect();
        AlgorithmResult {
            algorithm: ex.algorithm.name().to_string(),
            threshold: ex.threshold,
            text: super::text::render(tree, ex),
            html: super::html::render(tree, ex),
            content,
            details: ex.details.clone(),
            score_ms,
        }
    }
}
