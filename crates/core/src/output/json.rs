//! The JSON form of one algorithm's result ([`AlgorithmResult`]), the part of a record
//! ([`crate::batch::Record`]) the writers own.
//!
//! The record's JSON schema is derived from these serde types and [`crate::batch::Record`]
//! with schemars and pinned in `schemas/record.schema.json` (`tests/schemas.rs`); its
//! fields are described in `docs/output.md`.

use serde::Serialize;

use crate::extract::Extraction;
use crate::snapshot::{Rect, Tree};

/// Scores of one content node (density algorithms).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct NodeScores {
    pub td: f64,
    pub ctd: f64,
    pub vi: f64,
    pub htd: f64,
    pub density_sum: f64,
}

/// One content subtree root.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct AlgorithmResult {
    pub algorithm: String,
    pub threshold: Option<f64>,
    pub text: String,
    pub html: String,
    /// The content as markdown, written with the run's [`super::WriterOptions`] (without front
    /// matter); `sections` index it.
    pub markdown: String,
    /// The content cut at its headings, for retrieval: each section's heading path, level,
    /// markdown, `span` (`[start, end)` characters of `markdown`) and page boxes.
    pub sections: Vec<super::markdown::Section>,
    pub content: Vec<ContentNode>,
    pub details: crate::extract::Details,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_ms: Option<f64>,
}

impl AlgorithmResult {
    /// Build from an extraction, the markdown and sections written as `writer` asks.
    pub fn new(
        tree: &Tree,
        ex: &Extraction,
        score_ms: Option<f64>,
        writer: &super::WriterOptions,
    ) -> AlgorithmResult {
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
        let md = super::markdown::write(tree, ex, writer);
        AlgorithmResult {
            algorithm: ex.algorithm.name().to_string(),
            threshold: ex.threshold,
            text: super::text::render(tree, ex),
            html: super::html::render(tree, ex),
            markdown: md.markdown,
            sections: md.sections,
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
        let r = AlgorithmResult::new(&tree, &ex, Some(1.5), &Default::default());
        assert_eq!(r.algorithm, "wang");
        assert_eq!(r.threshold, Some(0.25));
        assert_eq!(r.score_ms, Some(1.5));
        assert_eq!(r.details, Details::None);
        assert_eq!(r.text, crate::output::text::render(&tree, &ex));
        assert_eq!(r.html, "<p>Second one.</p>\n");
        assert_eq!(r.markdown, "Second one.\n");
        assert_eq!(r.sections.len(), 1);
        assert_eq!(r.sections[0].span, [0, 11]);
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
        let r = AlgorithmResult::new(&tree, &ex, None, &Default::default());
        let s = ex.scores.as_ref().unwrap();
        for (c, root) in r.content.iter().zip(ex.roots(&tree)) {
            let ns = c.scores.as_ref().unwrap();
            assert_eq!((ns.td, ns.htd), (s.td[root], s.htd[root]));
            assert_eq!(c.path, tree.css_path(root));
        }
        assert!(serde_json::to_value(&r).unwrap().get("score_ms").is_none());
    }
}
