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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::{density, Algorithm, Details};
    use crate::snapshot::{rect, SnapshotBuilder};

    #[test]
    fn a_result_holds_the_roots_their_scores_and_both_writers_outputs() {
        let mut b = SnapshotBuilder::new(800.0);
        let art = b.el(0, "article", rect(0.0, 0.0, 800.0, 300.0));
        let p1 = b.el(art, "p", rect(0.0, 0.0, 800.0, 40.0));
        b.text(p1, "First paragraph.");
        let p2 = b.el(art, "p", rect(0.0, 50.0, 800.0, 40.0));
        b.text(p2, "Second one.");
        let nav = b.el(0, "nav", rect(0.0, 400.0, 800.0, 40.0));
        b.text(nav, "Home");
        let snap = b.build();
        let tree = Tree::new(&snap);

        let mut ex = Extraction::empty(Algorithm::Wang, tree.len());
        ex.threshold = Some(0.25);
        for i in p2..nav {
            ex.kept[i] = true;
        }
        let r = AlgorithmResult::new(&tree, &ex, Some(1.5));
        assert_eq!(r.algorithm, "wang");
        assert_eq!(r.threshold, Some(0.25));
        assert_eq!(r.score_ms, Some(1.5));
        assert_eq!(r.details, Details::None);
        assert_eq!(r.text, crate::output::text::render(&tree, &ex));
        assert_eq!(r.html, "<p>Second one.</p>\n");
        assert_eq!(r.content.len(), 1);
        let c = &r.content[0];
        assert_eq!(c.path, "body > article > p:nth-of-type(2)");
        assert_eq!(c.tag, "p");
        assert_eq!(c.rect, rect(0.0, 50.0, 800.0, 40.0));
        assert_eq!(c.chars, 11);
        assert!(c.scores.is_none(), "no density scores");
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(
            v["content"][0]["box"],
            serde_json::json!([0.0, 50.0, 800.0, 40.0])
        );

        // A density algorithm's roots carry their scores; no timing, no score_ms key.
        let ex = density::extract(&tree, Algorithm::Td, &Default::default());
        let r = AlgorithmResult::new(&tree, &ex, None);
        let s = ex.scores.as_ref().unwrap();
        for (c, root) in r.content.iter().zip(ex.roots(&tree)) {
            let ns = c.scores.as_ref().unwrap();
            assert_eq!((ns.td, ns.htd), (s.td[root], s.htd[root]));
            assert_eq!(c.path, tree.css_path(root));
        }
        assert!(serde_json::to_value(&r).unwrap().get("score_ms").is_none());
    }
}
