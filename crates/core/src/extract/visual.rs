//! Visual importance (Song, Sun & Liao 2013, §3.4.1, eq. 3) from the rendered boxes.
//!
//! The node under `<body>` with the longest horizontal span, Node_L, spans [x_L1, x_L2]; those
//! points map to -1 and +1 of N(0,1), so f ~ N(μ, σ²) with μ = (x_L1 + x_L2)/2 and
//! σ = (x_L2 − x_L1)/2. A box spanning [x1, x2] has VI = Φ((x2−μ)/σ) − Φ((x1−μ)/σ); a node
//! that is not rendered has VI 0.

use statrs::distribution::{ContinuousCDF, Normal};

use super::params::DensityParams;
use crate::snapshot::{NodeId, Tree};

/// The Gaussian of one page: μ and σ in CSS px, and the node that defined them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VisualFrame {
    pub mu: f64,
    pub sigma: f64,
    /// Node_L, or None when no rendered element has a horizontal extent (then the document
    /// width is used).
    pub widest: Option<NodeId>,
}

impl VisualFrame {
    /// Find Node_L and build the page's distribution. Spans are clipped to the document,
    /// `[0, document width]`, so an off-screen strip (a carousel track 10,000 px wide) cannot
    /// define the visually important area.
    pub fn of(tree: &Tree, p: &DensityParams) -> VisualFrame {
        let doc_w = tree
            .snap
            .document
            .width
            .max(tree.snap.viewport.width)
            .max(1.0);
        let mut best: Option<(NodeId, f64, f64)> = None;
        for id in 1..tree.len() {
            let n = tree.node(id);
            if !n.is_element() || !n.rendered {
                continue;
            }
            let x1 = n.rect.x.max(0.0);
            let x2 = n.rect.right().min(doc_w);
            if x2 - x1 > best.map_or(0.0, |b| b.2 - b.1) {
                best = Some((id, x1, x2));
            }
        }
        let (widest, x1, x2) = match best {
            Some((id, a, b)) => (Some(id), a, b),
            None => (None, 0.0, doc_w),
        };
        VisualFrame {
            mu: (x1 + x2) / 2.0,
            sigma: (x2 - x1) / 2.0 / p.vi_sigmas,
            widest,
        }
    }

    /// VI of the horizontal interval [x1, x2] (eq. 3).
    pub fn importance(&self, x1: f64, x2: f64) -> f64 {
        let n = Normal::new(0.0, 1.0).expect("N(0,1) is valid");
        if x2 <= x1 || self.sigma <= 0.0 {
            return 0.0;
        }
        n.cdf((x2 - self.mu) / self.sigma) - n.cdf((x1 - self.mu) / self.sigma)
    }

    /// VI of a node: of its own box for an element, of its parent element's box for a text
    /// node (the paper's leaf is "an innermost tag encompassing text only", so text is weighed
    /// by the box of the tag around it); 0 when the node is not rendered.
    pub fn node_importance(&self, tree: &Tree, id: NodeId) -> f64 {
        let n = tree.node(id);
        if !n.rendered {
            return 0.0;
        }
        let r = if n.is_text() {
            tree.node(tree.parent(id).unwrap_or(0)).rect
        } else {
            n.rect
        };
        self.importance(r.x, r.right())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{rect, SnapshotBuilder};

    fn page() -> (crate::Snapshot, NodeId, NodeId, NodeId) {
        let mut b = SnapshotBuilder::new(1366.0);
        let wrap = b.el(0, "div", rect(183.0, 0.0, 1000.0, 900.0));
        let side = b.el(wrap, "div", rect(183.0, 0.0, 150.0, 900.0));
        let main = b.el(wrap, "div", rect(183.0, 0.0, 1000.0, 900.0));
        let hidden = b.el(wrap, "div", rect(0.0, 0.0, 0.0, 0.0));
        b.node_mut(hidden).rendered = false;
        (b.build(), side, main, hidden)
    }

    #[test]
    fn node_spanning_the_widest_box_gets_phi1_minus_phi_minus1() {
        let (s, _, main, _) = page();
        let t = Tree::new(&s);
        let f = VisualFrame::of(&t, &DensityParams::default());
        assert_eq!(f.widest, Some(1));
        assert!((f.mu - 683.0).abs() < 1e-9 && (f.sigma - 500.0).abs() < 1e-9);
        let vi = f.node_importance(&t, main);
        assert!((vi - 0.682_689_492_137_086).abs() < 1e-9, "VI = {vi}");
    }

    #[test]
    fn hidden_leaf_is_zero_and_left_sidebar_is_small() {
        let (s, side, _, hidden) = page();
        let t = Tree::new(&s);
        let f = VisualFrame::of(&t, &DensityParams::default());
        assert_eq!(f.node_importance(&t, hidden), 0.0);
        let vi = f.node_importance(&t, side);
        // [183, 333] is [-1, -0.7] in σ units: Φ(-0.7) − Φ(-1) ≈ 0.0834.
        assert!((vi - 0.083_315).abs() < 1e-4, "VI = {vi}");
    }
}
