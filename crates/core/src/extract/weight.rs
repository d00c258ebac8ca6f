//! Wang & Liu, "An Approach of Information Extraction Based on Dom Tree and Weight Value"
//! (IJDTA 2015): the maximum-weight subtree.
//!
//! The paper's steps (§3.3) on a rendered snapshot:
//! 2. the page title and the meta keyword set S_meta-kw;
//! 3. preprocessing by Table 1: Ignore tags are pruned, Row tags are merged into their parent,
//!    Block and Title tags stay — what remains is the *extended DOM tree* of "tag nodes";
//! 4. every leaf (bottom-layer tag node) gets <WordNum, LinkNum, TagNum> and
//!    NodeImp = WordNum / (LinkNum + TagNum) (eq. 1);
//! 5. every parent with its leaf children is a subtree j with
//!    Weight_j = WidthAttr_j × mean NodeImp (eq. 2), WidthAttr_j being the rendered width of
//!    the subtree root over the page width (the paper had to guess it from attributes);
//! 6. the leaves of the maximum-weight subtree are the content (eq. 3).
//!
//! Readings of what the paper leaves open are documented on [`WangParams`].

use std::collections::BTreeMap;

use super::details::{WangChosen, WangDetails, WangLeaf, WangSubtree};
use super::params::WangParams;
use super::text::word_count;
use super::{Algorithm, Details, Extraction};
use crate::snapshot::{is_link_tag, NodeId, Tree};

/// What preprocessing (§3.3 step 3) made of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Pruned: an Ignore tag, a hidden node, or inside one.
    Dropped,
    /// A tag node of the extended DOM tree (Block, Title, or a block-level unlisted tag).
    TagNode,
    /// Merged into the nearest tag node above it (Row tags, inline unlisted tags, text).
    Merged,
}

/// The triple of a leaf (§3.3 step 4) and its NodeImp (eq. 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leaf {
    pub id: NodeId,
    /// Non-link words of the leaf's content.
    pub word_num: usize,
    /// Links in the leaf's content.
    pub link_num: usize,
    /// Tag pairs in the leaf's content, its own included.
    pub tag_num: usize,
    /// Eq. 1.
    pub node_imp: f64,
}

/// A subtree: a parent tag node with its leaf children (§3.3 step 5).
#[derive(Debug, Clone, PartialEq)]
pub struct Subtree {
    pub root: NodeId,
    /// Rendered width of the root over the page width, clipped to the page.
    pub width_attr: f64,
    /// S_sj: the root's leaf children, in document order.
    pub leaves: Vec<Leaf>,
    /// (1/n) Σ NodeImp_i over S_sj.
    pub mean_node_imp: f64,
    /// Eq. 2.
    pub weight: f64,
}

/// Eq. 1: NodeImp_i = WordNum_i / (LinkNum_i + TagNum_i). TagNum counts the leaf's own tag
/// pair, so the denominator of a leaf is at least 1.
pub fn node_imp(word_num: usize, link_num: usize, tag_num: usize) -> f64 {
    word_num as f64 / (link_num + tag_num).max(1) as f64
}

/// Eq. 2: Weight_j = WidthAttr_j × (1/n) Σ_{i ∈ S_sj} NodeImp_i (0 for an empty set).
pub fn subtree_weight(width_attr: f64, node_imps: &[f64]) -> f64 {
    width_attr * mean(node_imps)
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// Run Wang & Liu on a snapshot.
///
/// Phases (§3.3 steps 2-6): [`page_facts`] (title, S_meta-kw) → [`preprocess`] (Table 1) →
/// [`leaves`] (eq. 1) → [`subtrees`] (eq. 2) → [`choose`] (eq. 3) → kept = the chosen
/// subtree's leaves with their merged content.
pub fn extract(tree: &Tree, p: &WangParams) -> Extraction {
    let (title, keywords) = page_facts(tree, p);
    let (subtrees, chosen, kept) = decide(tree, p);
    let summary = |s: &Subtree| WangSubtree {
        root: tree.css_path(s.root),
        width_attr: s.width_attr,
        mean_node_imp: s.mean_node_imp,
        weight: s.weight,
        leaves: s.leaves.len(),
    };
    let chosen = chosen.map(|c| &subtrees[c]).map(|s| WangChosen {
        root: tree.css_path(s.root),
        width_attr: s.width_attr,
        mean_node_imp: s.mean_node_imp,
        weight: s.weight,
        leaves: s
            .leaves
            .iter()
            .map(|l| WangLeaf {
                path: tree.css_path(l.id),
                word_num: l.word_num,
                link_num: l.link_num,
                tag_num: l.tag_num,
                node_imp: l.node_imp,
            })
            .collect(),
    });
    let details = Details::Wang(WangDetails {
        title,
        meta_keywords: keywords,
        page_width: page_width(tree),
        subtrees: subtrees.iter().map(summary).collect(),
        chosen,
    });
    Extraction {
        algorithm: Algorithm::Wang,
        kept,
        threshold: None,
        scores: None,
        details,
    }
}

/// Steps 3-6 of [`extract`]: the subtrees, the chosen one and the kept flags.
fn decide(tree: &Tree, p: &WangParams) -> (Vec<Subtree>, Option<usize>, Vec<bool>) {
    let roles = preprocess(tree, p);
    let leaves = leaves(tree, &roles, p);
    let subtrees = subtrees(tree, &roles, &leaves);
    let chosen = choose(&subtrees);
    let mut kept = vec![false; tree.len()];
    if let Some(s) = chosen.map(|c| &subtrees[c]) {
        for leaf in &s.leaves {
            for i in tree.subtree(leaf.id) {
                kept[i] = roles[i] != Role::Dropped;
            }
        }
    }
    (subtrees, chosen, kept)
}

/// What [`extract`] keeps, without building its details (for algorithms that read Wang &
/// Liu's decision as a signal, such as `learned`).
pub fn kept(tree: &Tree, p: &WangParams) -> Vec<bool> {
    decide(tree, p).2
}

/// Step 2: the page title and S_meta-kw, the `<meta name="keywords">` content split at
/// [`WangParams::keyword_separators`], trimmed, empty and repeated entries dropped.
pub fn page_facts(tree: &Tree, p: &WangParams) -> (String, Vec<String>) {
    let mut set: Vec<String> = Vec::new();
    for k in tree
        .snap
        .keywords
        .split(|c| p.keyword_separators.contains(&c))
    {
        let k = k.trim();
        if !k.is_empty() && !set.iter().any(|s| s == k) {
            set.push(k.to_string());
        }
    }
    (tree.snap.title.trim().to_string(), set)
}

/// Is this computed display inline-level (merged like a Row tag when the tag is unlisted)?
fn inline_level(display: &str) -> bool {
    display.starts_with("inline") || matches!(display, "contents" | "ruby" | "ruby-text")
}

/// Step 3: the role of every node. `<body>` is always a tag node.
pub fn preprocess(tree: &Tree, p: &WangParams) -> Vec<Role> {
    let has = |list: &[String], tag: &str| list.iter().any(|t| t == tag);
    let mut roles = vec![Role::TagNode; tree.len()];
    for i in 1..tree.len() {
        let n = tree.node(i);
        let parent = tree.parent(i).unwrap_or(0);
        roles[i] = if roles[parent] == Role::Dropped
            || has(&p.ignore_tags, &n.tag)
            || (p.drop_hidden && !n.rendered && !has(&p.hidden_exempt_tags, &n.tag))
        {
            Role::Dropped
        } else if n.is_text() || has(&p.row_tags, &n.tag) {
            Role::Merged
        } else if has(&p.kept_tags, &n.tag) || !p.unlisted_by_display || !inline_level(&n.display) {
            Role::TagNode
        } else {
            Role::Merged
        };
    }
    roles
}

/// The tag node each non-dropped node belongs to: itself for a tag node, else its parent's.
fn owners(tree: &Tree, roles: &[Role]) -> Vec<Option<NodeId>> {
    let mut owner: Vec<Option<NodeId>> = vec![None; tree.len()];
    for i in 0..tree.len() {
        owner[i] = match roles[i] {
            Role::Dropped => None,
            Role::TagNode => Some(i),
            Role::Merged => tree.parent(i).and_then(|q| owner[q]),
        };
    }
    owner
}

/// The parent of a tag node in the extended DOM tree (None for `<body>`).
fn tag_parent(tree: &Tree, owner: &[Option<NodeId>], id: NodeId) -> Option<NodeId> {
    tree.parent(id).and_then(|q| owner[q])
}

/// Step 4: every leaf of the extended DOM tree with its triple and NodeImp (eq. 1), in
/// document order. WordNum counts the words ([`word_count`]) of the non-link text merged into
/// the leaf; LinkNum its link elements (`a`, `button`, `select`); TagNum its element pairs,
/// its own included, void elements not counted.
pub fn leaves(tree: &Tree, roles: &[Role], p: &WangParams) -> Vec<Leaf> {
    let n = tree.len();
    let owner = owners(tree, roles);
    let mut has_tag_child = vec![false; n];
    for (i, &role) in roles.iter().enumerate().skip(1) {
        if role == Role::TagNode {
            if let Some(q) = tag_parent(tree, &owner, i) {
                has_tag_child[q] = true;
            }
        }
    }
    let (mut words, mut links, mut tags) = (vec![0usize; n], vec![0usize; n], vec![0usize; n]);
    for (i, &o) in owner.iter().enumerate() {
        let Some(o) = o else { continue };
        let nd = tree.node(i);
        if nd.is_text() {
            if !nd.link {
                words[o] += word_count(nd.text.as_deref().unwrap_or(""));
            }
            continue;
        }
        links[o] += usize::from(is_link_tag(&nd.tag));
        tags[o] += usize::from(!p.void_tags.contains(&nd.tag));
    }
    (0..n)
        .filter(|&i| roles[i] == Role::TagNode && !has_tag_child[i])
        .filter(|&i| !(p.skip_empty_leaves && words[i] == 0 && links[i] == 0))
        .map(|i| Leaf {
            id: i,
            word_num: words[i],
            link_num: links[i],
            tag_num: tags[i],
            node_imp: node_imp(words[i], links[i], tags[i]),
        })
        .collect()
}

/// The page width WidthAttr divides by: the document width, or the viewport width when that
/// is wider (as [`super::visual::VisualFrame`] does), at least 1 px.
pub fn page_width(tree: &Tree) -> f64 {
    tree.snap
        .document
        .width
        .max(tree.snap.viewport.width)
        .max(1.0)
}

/// WidthAttr_j: the root's rendered width clipped to `[0, page width]`, over the page width.
pub fn width_attr(tree: &Tree, root: NodeId) -> f64 {
    let w = page_width(tree);
    let r = tree.node(root).rect;
    (r.right().min(w) - r.x.max(0.0)).max(0.0) / w
}

/// Step 5: group the leaves by their parent in the extended DOM tree; each group with its
/// parent is a subtree with WidthAttr and Weight (eq. 2). In document order of the roots.
pub fn subtrees(tree: &Tree, roles: &[Role], leaves: &[Leaf]) -> Vec<Subtree> {
    let owner = owners(tree, roles);
    let mut groups: BTreeMap<NodeId, Vec<Leaf>> = BTreeMap::new();
    for leaf in leaves {
        if let Some(q) = tag_parent(tree, &owner, leaf.id) {
            groups.entry(q).or_default().push(*leaf);
        }
    }
    groups
        .into_iter()
        .map(|(root, leaves)| {
            let imps: Vec<f64> = leaves.iter().map(|l| l.node_imp).collect();
            let width_attr = width_attr(tree, root);
            Subtree {
                root,
                width_attr,
                mean_node_imp: mean(&imps),
                weight: subtree_weight(width_attr, &imps),
                leaves,
            }
        })
        .collect()
}

/// Step 6, eq. 3: the index of the maximum-weight subtree; the first in document order on a
/// tie; None when the page has no subtree.
pub fn choose(subtrees: &[Subtree]) -> Option<usize> {
    (0..subtrees.len()).fold(None, |best, j| match best {
        Some(b) if subtrees[b].weight >= subtrees[j].weight => Some(b),
        _ => Some(j),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{rect, Snapshot, SnapshotBuilder};

    fn words(n: usize) -> String {
        (0..n)
            .map(|k| format!("w{k}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A `<p>` leaf with `n` plain words, and optionally one inline link with a link word.
    fn para(
        b: &mut SnapshotBuilder,
        parent: NodeId,
        r: crate::snapshot::Rect,
        n: usize,
        link: bool,
    ) -> NodeId {
        let p = b.el(parent, "p", r);
        b.text(p, &words(n));
        if link {
            let a = b.el(p, "a", r);
            b.node_mut(a).display = "inline".into();
            b.node_mut(a).href = Some("https://example.com/more".into());
            b.text(a, "more");
        }
        p
    }

    /// Figure 3: three subtrees of two leaves each. Leaves: 100 and 120 words (NodeImp 100,
    /// 120); 30 words + 1 link (30 / (1 link + 2 pairs) = 10) and 50 words; 3 words + 1 link
    /// (3/3 = 1) and 5 words. Widths 70%, 70%, 30% of a 1000 px page.
    fn figure3() -> Snapshot {
        let mut b = SnapshotBuilder::new(1000.0);
        let s1 = b.el(0, "div", rect(0.0, 0.0, 700.0, 300.0));
        para(&mut b, s1, rect(0.0, 0.0, 700.0, 150.0), 100, false);
        para(&mut b, s1, rect(0.0, 150.0, 700.0, 150.0), 120, false);
        let s2 = b.el(0, "div", rect(0.0, 300.0, 700.0, 100.0));
        para(&mut b, s2, rect(0.0, 300.0, 700.0, 50.0), 30, true);
        para(&mut b, s2, rect(0.0, 350.0, 700.0, 50.0), 50, false);
        let s3 = b.el(0, "div", rect(700.0, 0.0, 300.0, 100.0));
        para(&mut b, s3, rect(700.0, 0.0, 300.0, 50.0), 3, true);
        para(&mut b, s3, rect(700.0, 50.0, 300.0, 50.0), 5, false);
        b.build()
    }

    #[test]
    fn equation_1_and_2_on_figure_3_numbers() {
        assert_eq!(node_imp(30, 1, 2), 10.0);
        assert!((subtree_weight(0.7, &[100.0, 120.0]) - 77.0).abs() < 1e-9);
        assert!((subtree_weight(0.7, &[10.0, 50.0]) - 21.0).abs() < 1e-9);
        // The paper prints 31 for the third subtree; 30% × (1+5)/2 is 0.9 — a typo in the
        // paper (31 would also not change which subtree wins).
        assert!((subtree_weight(0.3, &[1.0, 5.0]) - 0.9).abs() < 1e-9);
    }

    #[test]
    fn figure_3_tree_weights_and_choice() {
        let snap = figure3();
        let tree = Tree::new(&snap);
        let p = WangParams::default();
        let roles = preprocess(&tree, &p);
        let leaves = leaves(&tree, &roles, &p);
        let imps: Vec<f64> = leaves.iter().map(|l| l.node_imp).collect();
        assert_eq!(imps, vec![100.0, 120.0, 10.0, 50.0, 1.0, 5.0]);
        let subs = subtrees(&tree, &roles, &leaves);
        let weights: Vec<f64> = subs
            .iter()
            .map(|s| (s.weight * 1e9).round() / 1e9)
            .collect();
        assert_eq!(
            weights,
            vec![77.0, 21.0, 0.9],
            "the paper's 31 for subtree 3 is a typo for 0.9"
        );
        assert_eq!(choose(&subs), Some(0));

        let ex = extract(&tree, &p);
        let kept_text: Vec<NodeId> = (0..tree.len())
            .filter(|&i| ex.kept[i] && tree.node(i).is_text())
            .collect();
        assert_eq!(kept_text.len(), 2, "the two text leaves of subtree 1");
        assert!(
            !ex.kept[1],
            "the subtree root itself is not content, its leaves are"
        );
        assert_eq!(
            ex.details.to_json()["chosen"]["weight"]
                .as_f64()
                .map(|w| (w * 1e9).round() / 1e9),
            Some(77.0)
        );
        assert_eq!(
            ex.details.to_json()["subtrees"].as_array().map(Vec::len),
            Some(3)
        );
    }

    #[test]
    fn row_tags_merge_ignore_tags_drop() {
        let mut b = SnapshotBuilder::new(800.0);
        let d = b.el(0, "div", rect(0.0, 0.0, 800.0, 100.0));
        let p = b.el(d, "p", rect(0.0, 0.0, 800.0, 50.0));
        b.text(p, "one two");
        let s = b.el(p, "span", rect(0.0, 0.0, 100.0, 20.0)); // Row tag, display block: still merged
        b.text(s, "three");
        let st = b.el(s, "strong", rect(0.0, 0.0, 50.0, 20.0));
        b.text(st, "four");
        let br = b.el(p, "br", rect(0.0, 20.0, 0.0, 0.0)); // zero-size in Chromium: kept, merged
        b.node_mut(br).rendered = false;
        b.node_mut(br).display = "inline".into();
        let f = b.el(d, "form", rect(0.0, 50.0, 800.0, 50.0)); // Ignore tag: pruned with its text
        let fp = b.el(f, "p", rect(0.0, 50.0, 800.0, 50.0));
        b.text(fp, "search the site now please");
        let snap = b.build();
        let tree = Tree::new(&snap);
        let p_ = WangParams::default();
        let roles = preprocess(&tree, &p_);
        assert_eq!(roles[s], Role::Merged);
        assert_eq!(roles[fp], Role::Dropped);
        assert_eq!(
            roles[br],
            Role::Merged,
            "a line break is never dropped as hidden"
        );
        let ls = leaves(&tree, &roles, &p_);
        assert_eq!(ls.len(), 1);
        // <p>, <span>, <strong>: 3 pairs, 4 words, no link.
        assert_eq!((ls[0].word_num, ls[0].link_num, ls[0].tag_num), (4, 0, 3));
        assert!((ls[0].node_imp - 4.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn meta_keywords_and_title() {
        let mut b = SnapshotBuilder::new(800.0);
        b.title(" River news ");
        let mut snap = b.build();
        snap.keywords = "river, bridge；城市, river,".into();
        let tree = Tree::new(&snap);
        let (t, k) = page_facts(&tree, &WangParams::default());
        assert_eq!(t, "River news");
        assert_eq!(k, vec!["river", "bridge", "城市"]);
    }

    /// Mirror of `fixtures/wang-wide-column/page.html` on a 1280 px page: the sidebar's
    /// single paragraph (70 words, NodeImp 70) is denser than the article column (mean
    /// (6 + 50 + 55 + 45)/4 = 39), but the column is 60% wide and the sidebar 20%:
    /// 0.6 × 39 = 23.4 > 0.2 × 70 = 14. (The fixture wraps both in a `div.wrap`; a wrapper of
    /// non-leaves is no subtree, so it changes no weight.)
    #[test]
    fn wide_column_beats_denser_narrow_sidebar() {
        let mut b = SnapshotBuilder::new(1280.0);
        b.title("Bridge reopens");
        let nav = b.el(0, "ul", rect(0.0, 0.0, 1280.0, 40.0));
        for (k, label) in ["Home", "World", "Sport"].iter().enumerate() {
            let li = b.el(nav, "li", rect(100.0 * k as f64, 0.0, 100.0, 40.0));
            let a = b.el(li, "a", rect(100.0 * k as f64, 0.0, 60.0, 20.0));
            b.node_mut(a).display = "inline".into();
            b.text(a, label);
        }
        let main = b.el(0, "div", rect(0.0, 40.0, 768.0, 800.0));
        let h1 = b.el(main, "h1", rect(0.0, 40.0, 768.0, 40.0));
        b.text(h1, &words(6));
        para(&mut b, main, rect(0.0, 80.0, 768.0, 200.0), 50, false);
        para(&mut b, main, rect(0.0, 280.0, 768.0, 200.0), 55, false);
        para(&mut b, main, rect(0.0, 480.0, 768.0, 200.0), 45, false);
        let side = b.el(0, "aside", rect(1024.0, 40.0, 256.0, 600.0));
        let sp = para(&mut b, side, rect(1024.0, 40.0, 256.0, 600.0), 70, false);
        let foot = b.el(0, "div", rect(0.0, 840.0, 1280.0, 30.0));
        para(&mut b, foot, rect(0.0, 840.0, 1280.0, 30.0), 3, false);
        let snap = b.build();
        let tree = Tree::new(&snap);
        let ex = extract(&tree, &WangParams::default());
        let dj_subs = ex.details.to_json();
        let subs = &dj_subs["subtrees"].as_array().unwrap().clone();
        let find = |path: &str| subs.iter().find(|s| s["root"] == path).unwrap().clone();
        let m = find("body > div:nth-of-type(1)");
        let s = find("body > aside");
        assert!((m["width_attr"].as_f64().unwrap() - 0.6).abs() < 1e-9);
        assert!((m["mean_node_imp"].as_f64().unwrap() - 39.0).abs() < 1e-9);
        assert!((m["weight"].as_f64().unwrap() - 23.4).abs() < 1e-9);
        assert!((s["mean_node_imp"].as_f64().unwrap() - 70.0).abs() < 1e-9);
        assert!((s["weight"].as_f64().unwrap() - 14.0).abs() < 1e-9);
        assert_eq!(
            ex.details.to_json()["chosen"]["root"],
            "body > div:nth-of-type(1)"
        );
        assert!(ex.kept[h1] && !ex.kept[sp]);
        // The nav list is a subtree of three link-only leaves: NodeImp 0.
        assert_eq!(find("body > ul")["weight"].as_f64(), Some(0.0));
        // The full-width footer: 1.0 × 3 words.
        assert_eq!(
            find("body > div:nth-of-type(2)")["weight"].as_f64(),
            Some(3.0)
        );
    }
}
