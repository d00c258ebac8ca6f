//! Per-node scores: every quantity an algorithm computes for each node of a snapshot, as
//! named columns on the node ids (`id` is the index in [`Snapshot::nodes`](crate::Snapshot)).
//! No extraction output holds these; they are what a layout-aware study joins to the nodes.
//! `sightline scores` writes them as CSV or JSON Lines and the Python package as an Arrow
//! table, both from [`node_scores`].
//!
//! Nothing here scores on its own: each column is read from what the algorithm's module
//! computes ([`density::score`], [`weight::leaves`], [`vsse::Leaves`], Crunch's filter
//! pipeline, the `blocks` report, `learned`'s units), and `kept` is the algorithm's own
//! [`Extraction`](crate::Extraction). The columns of each algorithm are listed on
//! [`node_scores`].

use crate::extract::learned::model::Model;
use crate::extract::{
    crunch, density, ensemble, learned, vsse, weight, Algorithm, Details, Params,
};
use crate::snapshot::Tree;

/// The values of one column, one per node. `None` is a node the quantity does not apply to
/// (an element's `vvtc`, a node outside every learned unit); it is empty in CSV, `null` in
/// JSON and null in Arrow.
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    F64(Vec<Option<f64>>),
    I64(Vec<Option<i64>>),
    Bool(Vec<bool>),
    Str(Vec<Option<String>>),
}

impl Values {
    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            Values::F64(v) => v.len(),
            Values::I64(v) => v.len(),
            Values::Bool(v) => v.len(),
            Values::Str(v) => v.len(),
        }
    }
    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Value `i` as JSON (`null` for an absent value).
    pub fn json(&self, i: usize) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Values::F64(v) => v[i]
                .and_then(serde_json::Number::from_f64)
                .map_or(J::Null, J::Number),
            Values::I64(v) => v[i].map_or(J::Null, |x| J::Number(x.into())),
            Values::Bool(v) => J::Bool(v[i]),
            Values::Str(v) => v[i].clone().map_or(J::Null, J::String),
        }
    }
}

/// One named column.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Column name (snake case, stable: scripts select by it).
    pub name: &'static str,
    pub values: Values,
}

/// Every per-node quantity of one algorithm on one snapshot: `id` first, then `kept`, then
/// the algorithm's own columns. Every column has one value per node.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeScores {
    pub algorithm: Algorithm,
    pub columns: Vec<Column>,
}

impl NodeScores {
    /// Number of rows (nodes).
    pub fn len(&self) -> usize {
        self.columns.first().map_or(0, |c| c.values.len())
    }
    /// True for a table without rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The column with this name.
    pub fn column(&self, name: &str) -> Option<&Values> {
        self.columns
            .iter()
            .find(|c| c.name == name)
            .map(|c| &c.values)
    }
    fn push(&mut self, name: &'static str, values: Values) {
        self.columns.push(Column { name, values });
    }
}

fn some<T: Copy>(v: &[T]) -> Vec<Option<T>> {
    v.iter().copied().map(Some).collect()
}

/// Per-node scores of `algorithm` on `tree`, with `params` (those of the extraction).
///
/// Columns, after `id` (node index) and `kept` (the extraction keeps the node):
/// - `td`, `ctd`, `htd`, `ctd-smooth` (Song et al.): `td` (eq. 1), `ctd` (eq. 2), `vi`
///   (eq. 3), `htd` (eq. 4), `density_sum` (eq. 5, of the density the algorithm uses),
///   `density` (that density; smoothed for `ctd-smooth`), the counts `chars`, `tags`,
///   `link_chars`, `link_tags` (C, T, LC, LT), and `active` (counted: not hidden);
/// - `wang` (Wang & Liu): `role` (`tag-node`, `merged`, `dropped`), `leaf`, its `word_num`,
///   `link_num`, `tag_num` and `node_imp` (eq. 1), and on subtree roots `width_attr`,
///   `mean_node_imp`, `weight` (eq. 2) and `chosen` (eq. 3);
/// - `vsse`: `active`, `leaf`, `vvtc` (eq. 1, leaves), `vvtc_ratio` (vvtc / MaxVVTC),
///   `seed` (passes T1) and `area_root` (the aggregated content area, eq. 2);
/// - `vsse-records`: the `vsse` leaf columns plus `n_delimiter`, `n_attribute` (leaves of
///   the subtree with each characteristic) and `wvc` (eq. 3);
/// - `crunch` (Gupta et al.): `removed_by` (the filter that removed the node, empty when
///   kept), `removal_root` (a filter removed this node's subtree), `link_list_cells` and
///   `link_list_blocks` (each link-list scope would remove this subtree);
/// - `blocks` (Griazev & Ramanauskaitė): `block` (the innermost block holding the node),
///   `block_max` / `block_min` (the node is a block's maximum / minimum boundary),
///   `variation_group` (of that block), `main` and `headline` (the block is one of those);
/// - `ensemble`: `votes` (voters keeping the node);
/// - `learned`: on the text nodes of each text unit: `unit`, `probability` (pass 2),
///   `pass1_probability`, and `pass1_top` / `pass2_top`, the largest feature contributions
///   to the log-odds as `feature=value:contribution; ...`; and `unit_block` (the node is a
///   unit's block element).
pub fn node_scores(tree: &Tree, algorithm: Algorithm, params: &Params) -> NodeScores {
    node_scores_with(tree, algorithm, params, None)
}

/// [`node_scores`] with a `learned` model other than the built-in one (`None`: the built-in
/// one), as [`crate::extract::extract_tree_with`] takes it.
pub fn node_scores_with(
    tree: &Tree,
    algorithm: Algorithm,
    params: &Params,
    model: Option<&Model>,
) -> NodeScores {
    let n = tree.len();
    let ex = crate::extract::extract_tree_with(tree, algorithm, params, model);
    let mut s = NodeScores {
        algorithm,
        columns: Vec::new(),
    };
    s.push("id", Values::I64((0..n as i64).map(Some).collect()));
    s.push("kept", Values::Bool(ex.kept.clone()));
    match algorithm {
        Algorithm::Td | Algorithm::Ctd | Algorithm::Htd | Algorithm::CtdSmooth => {
            density_columns(&mut s, tree, algorithm, params)
        }
        Algorithm::Wang => wang_columns(&mut s, tree, params),
        Algorithm::Vsse => vsse_columns(&mut s, tree, params),
        Algorithm::VsseRecords => {
            let w = vsse::record_weights(tree, &params.vsse);
            leaf_columns(&mut s, &w.leaves);
            s.push(
                "n_delimiter",
                Values::I64(w.n.iter().map(|k| Some(k[0] as i64)).collect()),
            );
            s.push(
                "n_attribute",
                Values::I64(w.n.iter().map(|k| Some(k[1] as i64)).collect()),
            );
            s.push("wvc", Values::F64(some(&w.wvc)));
        }
        Algorithm::Crunch => crunch_columns(&mut s, tree, params),
        Algorithm::Blocks => blocks_columns(&mut s, tree, &ex.details),
        Algorithm::Ensemble => {
            let (votes, _) = ensemble::votes(tree, &params.ensemble, params, model);
            s.push(
                "votes",
                Values::I64(votes.iter().map(|&v| Some(v as i64)).collect()),
            );
        }
        Algorithm::Learned => learned_columns(&mut s, tree, params, model),
    }
    s
}

fn density_columns(s: &mut NodeScores, tree: &Tree, algorithm: Algorithm, params: &Params) {
    let sc = density::score(tree, algorithm, &params.density);
    let d = &sc.scores;
    for (name, v) in [
        ("td", &d.td),
        ("ctd", &d.ctd),
        ("vi", &d.vi),
        ("htd", &d.htd),
        ("density_sum", &d.density_sum),
        ("density", &sc.density),
        ("chars", &sc.counts.c),
        ("tags", &sc.counts.t),
        ("link_chars", &sc.counts.lc),
        ("link_tags", &sc.counts.lt),
    ] {
        s.push(name, Values::F64(some(v)));
    }
    s.push("active", Values::Bool(sc.counts.active.clone()));
}

fn wang_columns(s: &mut NodeScores, tree: &Tree, params: &Params) {
    let n = tree.len();
    let p = &params.wang;
    let roles = weight::preprocess(tree, p);
    let leaves = weight::leaves(tree, &roles, p);
    let subtrees = weight::subtrees(tree, &roles, &leaves);
    let chosen = weight::choose(&subtrees).map(|c| subtrees[c].root);
    let role = roles
        .iter()
        .map(|r| {
            Some(
                match r {
                    weight::Role::Dropped => "dropped",
                    weight::Role::TagNode => "tag-node",
                    weight::Role::Merged => "merged",
                }
                .to_string(),
            )
        })
        .collect();
    s.push("role", Values::Str(role));
    let (mut leaf, mut words, mut links, mut tags, mut imp) = (
        vec![false; n],
        vec![None; n],
        vec![None; n],
        vec![None; n],
        vec![None; n],
    );
    for l in &leaves {
        leaf[l.id] = true;
        words[l.id] = Some(l.word_num as i64);
        links[l.id] = Some(l.link_num as i64);
        tags[l.id] = Some(l.tag_num as i64);
        imp[l.id] = Some(l.node_imp);
    }
    let (mut width, mut mean, mut w) = (vec![None; n], vec![None; n], vec![None; n]);
    for st in &subtrees {
        width[st.root] = Some(st.width_attr);
        mean[st.root] = Some(st.mean_node_imp);
        w[st.root] = Some(st.weight);
    }
    s.push("leaf", Values::Bool(leaf));
    s.push("word_num", Values::I64(words));
    s.push("link_num", Values::I64(links));
    s.push("tag_num", Values::I64(tags));
    s.push("node_imp", Values::F64(imp));
    s.push("width_attr", Values::F64(width));
    s.push("mean_node_imp", Values::F64(mean));
    s.push("weight", Values::F64(w));
    s.push(
        "chosen",
        Values::Bool((0..n).map(|i| chosen == Some(i)).collect()),
    );
}

fn leaf_columns(s: &mut NodeScores, leaves: &vsse::Leaves) {
    s.push("active", Values::Bool(leaves.active.clone()));
    s.push("leaf", Values::Bool(leaves.is_leaf.clone()));
    s.push(
        "vvtc",
        Values::F64(
            leaves
                .vvtc
                .iter()
                .zip(&leaves.is_leaf)
                .map(|(&v, &l)| l.then_some(v))
                .collect(),
        ),
    );
}

fn vsse_columns(s: &mut NodeScores, tree: &Tree, params: &Params) {
    let p = &params.vsse;
    let leaves = vsse::Leaves::of(tree, p);
    leaf_columns(s, &leaves);
    let max = leaves.max_vvtc();
    s.push(
        "vvtc_ratio",
        Values::F64(
            leaves
                .vvtc
                .iter()
                .zip(&leaves.is_leaf)
                .map(|(&v, &l)| (l && max > 0.0).then(|| v / max))
                .collect(),
        ),
    );
    let seeds = leaves.seeds(p);
    let mut seed = vec![false; tree.len()];
    for &i in &seeds {
        seed[i] = true;
    }
    s.push("seed", Values::Bool(seed));
    let area = vsse::aggregate(tree, &seeds).and_then(|path| path.last().copied());
    s.push(
        "area_root",
        Values::Bool((0..tree.len()).map(|i| area == Some(i)).collect()),
    );
}

fn crunch_columns(s: &mut NodeScores, tree: &Tree, params: &Params) {
    let n = tree.len();
    let run = crunch::run(tree, &params.crunch);
    s.push(
        "removed_by",
        Values::Str(
            run.pipeline
                .removed_by
                .iter()
                .map(|f| f.map(|f| f.name().to_string()))
                .collect(),
        ),
    );
    let flag = |ids: &[usize]| {
        let mut v = vec![false; n];
        for &i in ids {
            v[i] = true;
        }
        Values::Bool(v)
    };
    let roots: Vec<usize> = run.pipeline.roots.iter().flatten().copied().collect();
    s.push("removal_root", flag(&roots));
    s.push("link_list_cells", flag(&run.cells));
    s.push("link_list_blocks", flag(&run.blocks));
}

fn blocks_columns(s: &mut NodeScores, tree: &Tree, details: &Details) {
    let n = tree.len();
    let Details::Blocks(d) = details else {
        unreachable!("blocks reports BlocksDetails")
    };
    let (mut block, mut bmax, mut bmin) = (vec![None; n], vec![false; n], vec![false; n]);
    // Blocks are in pre-order and a child block lies inside its parent's subtree: the last
    // block to claim a node is the innermost one holding it.
    for b in &d.blocks {
        for i in tree.subtree(b.max_node) {
            block[i] = Some(b.id);
        }
        bmax[b.max_node] = true;
        bmin[b.min_node] = true;
    }
    let group = block
        .iter()
        .map(|b| b.and_then(|b| d.blocks[b].variation_group.map(|g| g as i64)))
        .collect();
    let member = |list: &[usize]| {
        Values::Bool(
            block
                .iter()
                .map(|b| b.is_some_and(|b| list.contains(&b)))
                .collect(),
        )
    };
    let (main, headline) = (member(&d.main_blocks), member(&d.headline_blocks));
    s.push(
        "block",
        Values::I64(block.iter().map(|b| b.map(|b| b as i64)).collect()),
    );
    s.push("block_max", Values::Bool(bmax));
    s.push("block_min", Values::Bool(bmin));
    s.push("variation_group", Values::I64(group));
    s.push("main", main);
    s.push("headline", headline);
}

fn learned_columns(s: &mut NodeScores, tree: &Tree, params: &Params, model: Option<&Model>) {
    let n = tree.len();
    let units = learned::unit_scores(tree, params, model).unwrap_or_default();
    let (mut unit, mut p2, mut p1) = (vec![None; n], vec![None; n], vec![None; n]);
    let (mut top1, mut top2, mut block) = (vec![None; n], vec![None; n], vec![false; n]);
    let fmt = |c: &[learned::Contribution]| {
        c.iter()
            .map(|c| format!("{}={}:{:+}", c.feature, c.value, c.contribution))
            .collect::<Vec<_>>()
            .join("; ")
    };
    for (u, us) in units.iter().enumerate() {
        block[us.block] = true;
        let (t1, t2) = (fmt(&us.pass1_top), fmt(&us.pass2_top));
        for &i in &us.nodes {
            unit[i] = Some(u as i64);
            p2[i] = Some(us.probability);
            p1[i] = Some(us.pass1_probability);
            top1[i] = Some(t1.clone());
            top2[i] = Some(t2.clone());
        }
    }
    s.push("unit", Values::I64(unit));
    s.push("probability", Values::F64(p2));
    s.push("pass1_probability", Values::F64(p1));
    s.push("pass1_top", Values::Str(top1));
    s.push("pass2_top", Values::Str(top2));
    s.push("unit_block", Values::Bool(block));
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::snapshot::fixtures::nav_and_article as page;

    #[test]
    fn every_algorithm_gives_one_value_per_node_and_its_own_kept_flags() {
        let snap = page();
        let tree = Tree::new(&snap);
        let params = Params::default();
        for a in Algorithm::ALL {
            let s = node_scores(&tree, a, &params);
            assert_eq!(s.len(), tree.len(), "{a}");
            assert!(
                s.columns.iter().all(|c| c.values.len() == tree.len()),
                "{a}"
            );
            let ex = crate::extract::extract_tree(&tree, a, &params);
            assert_eq!(s.column("kept"), Some(&Values::Bool(ex.kept)), "{a}");
            assert!(s.columns.len() > 2, "{a} has columns of its own");
        }
    }

    #[test]
    fn density_columns_are_the_extractions_scores() {
        let snap = page();
        let tree = Tree::new(&snap);
        let params = Params::default();
        let s = node_scores(&tree, Algorithm::Htd, &params);
        let ex = crate::extract::extract_tree(&tree, Algorithm::Htd, &params);
        let d = ex.scores.unwrap();
        assert_eq!(s.column("htd"), Some(&Values::F64(some(&d.htd))));
        assert_eq!(
            s.column("density_sum"),
            Some(&Values::F64(some(&d.density_sum)))
        );
    }

    #[test]
    fn learned_probabilities_match_the_kept_blocks_explanations() {
        let snap = page();
        let tree = Tree::new(&snap);
        let params = Params::default();
        let s = node_scores(&tree, Algorithm::Learned, &params);
        let ex = crate::extract::extract_tree(&tree, Algorithm::Learned, &params);
        let Details::Learned(d) = &ex.details else {
            panic!("learned details")
        };
        let Some(Values::F64(p)) = s.column("probability") else {
            panic!("probability column")
        };
        let mut from_nodes: Vec<f64> = p.iter().flatten().copied().collect();
        from_nodes.dedup();
        for b in &d.blocks {
            assert!(from_nodes.contains(&b.probability), "{}", b.path);
        }
    }
}
