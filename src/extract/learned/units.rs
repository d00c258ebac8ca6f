//! The units `learned` decides on. A **unit** is a maximal run of consecutive text nodes
//! (document order) that share their nearest block ancestor: exactly the pieces the text
//! writer joins into one paragraph, so keeping or dropping a unit keeps or drops whole output
//! lines.

use crate::snapshot::{NodeId, Tree};

/// One classified unit: a run of text nodes with the same nearest block ancestor.
#[derive(Debug, Clone)]
pub struct Unit {
    /// The nearest block ancestor (the paragraph the writer puts the text in).
    pub block: NodeId,
    /// The text nodes, in document order.
    pub nodes: Vec<NodeId>,
    /// Their text, concatenated as the text writer joins it.
    pub text: String,
    /// The block's parent, grandparent and great-grandparent (the root repeats at the top).
    pub ancestors: [NodeId; 3],
}

/// The units of a page, in document order.
pub fn units(tree: &Tree) -> Vec<Unit> {
    let n = tree.len();
    let mut nearest = vec![0usize; n];
    for i in 0..n {
        nearest[i] = if tree.is_block(i) {
            i
        } else {
            tree.parent(i).map_or(0, |p| nearest[p])
        };
    }
    let mut out: Vec<Unit> = Vec::new();
    let mut last_text: Option<NodeId> = None;
    for i in 0..n {
        let nd = tree.node(i);
        if !nd.is_text() {
            // A block element between two text nodes separates them.
            if tree.is_block(i) {
                last_text = None;
            }
            continue;
        }
        if tree.own_chars[i] == 0 {
            continue;
        }
        let b = tree.parent(i).map_or(0, |p| nearest[p]);
        let t = nd.text.as_deref().unwrap_or("");
        match out.last_mut() {
            Some(u) if u.block == b && last_text.is_some() => {
                u.nodes.push(i);
                u.text.push_str(t);
            }
            _ => {
                let a1 = tree.parent(b).unwrap_or(b);
                let a2 = tree.parent(a1).unwrap_or(a1);
                let a3 = tree.parent(a2).unwrap_or(a2);
                out.push(Unit {
                    block: b,
                    nodes: vec![i],
                    text: t.to_string(),
                    ancestors: [a1, a2, a3],
                })
            }
        }
        last_text = Some(i);
    }
    out
}
