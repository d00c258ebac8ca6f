//! The features the `learned` classifier reads, one row per unit ([`super::units`]).
//!
//! Pass-1 features ([`page_features`]) describe one unit from the snapshot alone (names and
//! order in [`super::schema::FEATURES`]):
//! - paper scores on the unit's block and its ancestors: TD, CTD, HTD, VI (Song et al.),
//!   DensitySum relative to the page maximum, the §3.5.2 threshold test, the maximum-DensitySum
//!   subtree, and whether HTD, Wang & Liu, VSSE and Crunch keep the unit, VSSE's vvtc;
//! - geometry: box relative to viewport and page, overlap with the main column (the
//!   maximum-DensitySum box), above the fold, fixed or sticky ancestors, visible area, font size
//!   and weight relative to the page's body text;
//! - DOM and text: tag, depth, link density, punctuation, stop-word share, sentence length,
//!   class/id/role token groups ([`super::tokens`]: comment, nav, footer, share, related,
//!   cookie, ...) on the block and on any ancestor;
//! - neighbourhood: position in reading order, neighbours' size and link density, the share of
//!   the page's text under the block's parent and grandparent, similarity to the title.
//! - Readability.js's article detection ([`readability`]): inside its top candidate, its
//!   joined article, its output; removed as unlikely or cleaned; the score of the nearest
//!   scored ancestor relative to the top score; class weights along the path;
//! - context ([`context`]): the unit's size, link density, type size, width and left edge
//!   relative to the rest of its page; repeated records (siblings with the same tag and class)
//!   and the share of the page's text in them; price, rating, date, "ago" and forum patterns.
//!
//! Pass-2 features ([`super::pass2::pass2_features`]) read the pass-1 probabilities.

use std::collections::{HashMap, HashSet};

use super::context;
use super::flag;
use super::readability::{self, Readability};
use super::schema::{CONTEXT_FEATURES, FEATURES};
use super::tokens::{group_mask_cached, inside_bit, BLOCK_TAGS, INSIDE_TAGS, TOKEN_GROUPS};
use super::units::{text_stats, units, TextStats, Unit};
use crate::extract::text::{is_punct, words};
use crate::extract::{crunch, density, vsse, weight, Algorithm, DensityScores, Params};
use crate::snapshot::{Node, NodeId, Rect, Tree};

/// Every unit of a page, with its pass-1 feature row (`FEATURES.len()` values each).
#[derive(Debug, Clone)]
pub struct PageFeatures {
    pub units: Vec<Unit>,
    /// Row-major: `rows[u * FEATURES.len() + f]`.
    pub rows: Vec<f64>,
}

impl PageFeatures {
    /// The feature row of unit `u`.
    pub fn row(&self, u: usize) -> &[f64] {
        let n = FEATURES.len();
        &self.rows[u * n..(u + 1) * n]
    }
}

/// Signed log: sign(x)·ln(1 + |x|).
fn slog(x: f64) -> f64 {
    if x.is_finite() {
        x.signum() * x.abs().ln_1p()
    } else {
        0.0
    }
}

/// Compute the units and pass-1 feature rows of one page. Runs the paper algorithms it reads
/// (HTD with its scores, Wang & Liu, VSSE, Crunch) with `params`.
///
/// Phases, each a page-wide pass: the units → the paper algorithms ([`Papers`]) → the flags
/// inherited down the tree ([`Inherited`]) → punctuation per subtree → the body font size →
/// each unit's text statistics ([`PageText`]) → Readability.js's article detection
/// ([`Readable`]) → the context features → one row per unit ([`Page::push_row`]).
pub fn page_features(tree: &Tree, params: &Params) -> PageFeatures {
    let units = units(tree);
    let nf = FEATURES.len();
    let mut rows = Vec::with_capacity(units.len() * nf);
    if units.is_empty() {
        return PageFeatures { units, rows };
    }
    let papers = Papers::new(tree, params);
    let inherited = Inherited::new(tree);
    let punct = subtree_punct(tree);
    let body_fs = body_font_size(tree, &units);
    let text = PageText::new(tree, &units, params);
    let rd = Readable::new(tree);
    let ctx = context_rows(tree, &units, &text.stats);
    let snap = tree.snap;
    let vh = snap.viewport.height.max(1.0);
    let page = Page {
        tree,
        units: &units,
        papers,
        inherited,
        punct,
        body_fs,
        text,
        rd,
        ctx,
        vw: snap.viewport.width.max(1.0),
        vh,
        dh: snap.document.height.max(vh),
    };
    let mut before = 0usize;
    for k in 0..units.len() {
        let row_start = rows.len();
        page.push_row(k, before, &mut rows);
        debug_assert_eq!(rows.len() - row_start, nf, "feature row length");
        before += page.text.stats[k].chars;
    }
    PageFeatures { units, rows }
}

/// The paper algorithms' results the features read.
struct Papers {
    /// HTD's extraction (its kept nodes and threshold).
    htd_kept: Vec<bool>,
    scores: DensityScores,
    threshold: f64,
    wang: Vec<bool>,
    vsse: Vec<bool>,
    crunch: Vec<bool>,
    /// The element with the largest DensitySum (the main column), its DensitySum (at least
    /// 1e-9), its box and the end of its subtree.
    max_node: NodeId,
    ds_max: f64,
    main_box: Rect,
    main_end: NodeId,
}

impl Papers {
    fn new(tree: &Tree, params: &Params) -> Papers {
        let n = tree.len();
        let htd = density::extract(tree, Algorithm::Htd, &params.density);
        let scores = htd.scores.clone().unwrap_or_default();
        let threshold = htd.threshold.unwrap_or(0.0);
        let wang = weight::kept(tree, &params.wang);
        let vsse = vsse::kept(tree, &params.vsse);
        let crunch = crunch::extract(tree, &params.crunch).kept;
        let max_node = (0..n)
            .filter(|&i| tree.node(i).is_element())
            .fold(0, |best, i| {
                if scores.density_sum.get(i) > scores.density_sum.get(best) {
                    i
                } else {
                    best
                }
            });
        let ds_max = scores
            .density_sum
            .get(max_node)
            .copied()
            .unwrap_or(0.0)
            .max(1e-9);
        Papers {
            htd_kept: htd.kept,
            scores,
            threshold,
            wang,
            vsse,
            crunch,
            max_node,
            ds_max,
            main_box: tree.node(max_node).rect,
            main_end: tree.subtree_end(max_node),
        }
    }
}

/// Flags inherited top-down, per node: token groups, inside tags, fixed/sticky/absolute,
/// opacity, and the depth.
struct Inherited {
    /// The node's own token groups (class, id, role).
    own_mask: Vec<u32>,
    /// The token groups of the node and its ancestors.
    anc_mask: Vec<u32>,
    /// The "inside" tags of the node and its ancestors.
    inside: Vec<u32>,
    /// 1 fixed, 2 sticky, 4 absolute, 8 transparent (on the node or an ancestor).
    pos_flags: Vec<u8>,
    depth: Vec<usize>,
    /// The largest depth (at least 1).
    max_depth: f64,
}

impl Inherited {
    fn new(tree: &Tree) -> Inherited {
        let n = tree.len();
        let mut own_mask = vec![0u32; n];
        let mut anc_mask = vec![0u32; n];
        let mut inside = vec![0u32; n];
        let mut pos_flags = vec![0u8; n];
        let mut depth = vec![0usize; n];
        // Keyed by (class, id, role).
        let mut mask_cache: HashMap<[Option<&str>; 3], u32> = HashMap::new();
        let mut word_cache: HashMap<String, u32> = HashMap::new();
        for i in 0..n {
            let nd = tree.node(i);
            let parent = tree.parent(i);
            let (pm, pi, pf, pd) = parent.map_or((0, 0, 0, 0), |p| {
                (anc_mask[p], inside[p], pos_flags[p], depth[p] + 1)
            });
            depth[i] = pd;
            if nd.is_text() {
                anc_mask[i] = pm;
                inside[i] = pi;
                pos_flags[i] = pf;
                continue;
            }
            // Pages repeat the same class/id/role strings: match each distinct triple once.
            let key = [nd.class.as_deref(), nd.id.as_deref(), nd.role.as_deref()];
            own_mask[i] = if key == [None, None, None] {
                0
            } else {
                *mask_cache
                    .entry(key)
                    .or_insert_with(|| group_mask_cached(key[0], key[1], key[2], &mut word_cache))
            };
            anc_mask[i] = pm | own_mask[i];
            inside[i] = pi | inside_bit(&nd.tag).map_or(0, |k| 1 << k);
            let mut f = pf;
            match nd.position.as_str() {
                "fixed" => f |= 1,
                "sticky" => f |= 2,
                "absolute" => f |= 4,
                _ => {}
            }
            if nd.opacity < 0.1 {
                f |= 8;
            }
            pos_flags[i] = f;
        }
        let max_depth = depth.iter().copied().max().unwrap_or(1).max(1) as f64;
        Inherited {
            own_mask,
            anc_mask,
            inside,
            pos_flags,
            depth,
            max_depth,
        }
    }
}

/// Punctuation characters per subtree (for vvtc).
fn subtree_punct(tree: &Tree) -> Vec<usize> {
    let n = tree.len();
    let mut punct = vec![0usize; n];
    for i in (0..n).rev() {
        if let Some(t) = &tree.node(i).text {
            punct[i] += t.chars().filter(|&c| is_punct(c)).count();
        }
        if let Some(p) = tree.parent(i) {
            punct[p] += punct[i];
        }
    }
    punct
}

/// The body font size: the character-weighted median of the units' font sizes (16 when it
/// is not positive).
fn body_font_size(tree: &Tree, units: &[Unit]) -> f64 {
    let mut sizes: Vec<(f64, usize)> = units
        .iter()
        .flat_map(|u| u.nodes.iter())
        .map(|&i| {
            let p = tree.parent(i).unwrap_or(0);
            (tree.node(p).font_size, tree.own_chars[i])
        })
        .collect();
    sizes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total_chars: usize = sizes.iter().map(|s| s.1).sum();
    let mut acc = 0;
    let mut body_fs = 16.0;
    for (fs, c) in &sizes {
        acc += c;
        if acc * 2 >= total_chars {
            body_fs = if *fs > 0.0 { *fs } else { 16.0 };
            break;
        }
    }
    body_fs
}

/// The units' text statistics and the page totals built on them.
struct PageText {
    stats: Vec<TextStats>,
    /// Each unit's lower-cased words that are not stop words (empty without a title).
    unit_words: Vec<HashSet<String>>,
    /// The title's lower-cased words that are not stop words.
    title_words: HashSet<String>,
    /// The units' characters (at least 1) and link characters.
    page_chars: usize,
    page_link: usize,
    /// Units per parent of a unit's block.
    parent_units: HashMap<NodeId, usize>,
    /// The first unit whose block is an `h1`.
    first_h1: Option<usize>,
}

impl PageText {
    fn new(tree: &Tree, units: &[Unit], params: &Params) -> PageText {
        let stop: HashSet<&str> = params.vsse.stop_words.iter().map(String::as_str).collect();
        let title_words: HashSet<String> = words(&tree.snap.title)
            .into_iter()
            .map(|w| w.to_lowercase())
            .filter(|w| !stop.contains(w.as_str()))
            .collect();
        let (stats, unit_words): (Vec<TextStats>, Vec<HashSet<String>>) = units
            .iter()
            .map(|u| text_stats(tree, u, &stop, !title_words.is_empty()))
            .unzip();
        let page_chars: usize = stats.iter().map(|s| s.chars).sum::<usize>().max(1);
        let page_link: usize = stats.iter().map(|s| s.link_chars).sum();
        let mut parent_units: HashMap<NodeId, usize> = Default::default();
        for u in units {
            *parent_units
                .entry(tree.parent(u.block).unwrap_or(0))
                .or_default() += 1;
        }
        let first_h1 = units.iter().position(|u| tree.node(u.block).tag == "h1");
        PageText {
            stats,
            unit_words,
            title_words,
            page_chars,
            page_link,
            parent_units,
            first_h1,
        }
    }
}

/// Readability.js's article detection with the page-wide values the features read.
struct Readable {
    rd: Readability,
    /// The class weights summed along each node's path from the root.
    cw_path: Vec<f64>,
    /// The shares of the page's characters in the top candidate and in the article.
    top_share: f64,
    article_share: f64,
}

impl Readable {
    fn new(tree: &Tree) -> Readable {
        let n = tree.len();
        let rd = readability::grab_article(tree);
        let mut cw_path = vec![0.0f64; n];
        for i in 0..n {
            cw_path[i] = tree.parent(i).map_or(0.0, |p| cw_path[p]) + rd.class_weight[i];
        }
        let top_share = tree.chars[rd.top] as f64 / tree.chars[0].max(1) as f64;
        let article_share = rd.article_chars as f64 / tree.chars[0].max(1) as f64;
        Readable {
            rd,
            cw_path,
            top_share,
            article_share,
        }
    }
}

/// The context features of every unit (row-major, [`CONTEXT_FEATURES`]`.len()` each).
fn context_rows(tree: &Tree, units: &[Unit], stats: &[TextStats]) -> Vec<f64> {
    let unit_fs: Vec<f64> = units
        .iter()
        .map(|u| {
            let tp = tree.node(tree.parent(u.nodes[0]).unwrap_or(u.block));
            if tp.font_size > 0.0 {
                tp.font_size
            } else {
                tree.node(u.block).font_size
            }
        })
        .collect();
    let unit_chars: Vec<usize> = stats.iter().map(|s| s.chars).collect();
    let unit_lr: Vec<f64> = stats
        .iter()
        .map(|s| s.link_chars as f64 / s.chars.max(1) as f64)
        .collect();
    context::context_features(tree, units, &unit_chars, &unit_lr, &unit_fs)
}

/// Everything page-wide a unit's row reads.
struct Page<'a> {
    tree: &'a Tree<'a>,
    units: &'a [Unit],
    papers: Papers,
    inherited: Inherited,
    punct: Vec<usize>,
    body_fs: f64,
    text: PageText,
    rd: Readable,
    ctx: Vec<f64>,
    /// Viewport width and height, document height (CSS px, at least 1 / the viewport).
    vw: f64,
    vh: f64,
    dh: f64,
}

/// One unit and the nodes around it its row reads.
struct At<'a> {
    k: usize,
    u: &'a Unit,
    s: &'a TextStats,
    /// The block, its parent and grandparent.
    bl: NodeId,
    bn: &'a Node,
    par: NodeId,
    grand: NodeId,
    /// The element holding the unit's first text node.
    text_parent: NodeId,
    tp: &'a Node,
    /// The unit's first text node.
    first: NodeId,
    /// The block's box.
    r: Rect,
}

impl Page<'_> {
    /// ln(1 + characters) of unit `k`.
    fn lnc(&self, k: usize) -> f64 {
        (self.text.stats[k].chars as f64).ln_1p()
    }

    /// The link ratio of unit `k`.
    fn lr(&self, k: usize) -> f64 {
        let s = &self.text.stats[k];
        s.link_chars as f64 / s.chars.max(1) as f64
    }

    /// Push unit `k`'s row; `before` is the characters of the units before it. The groups
    /// in [`FEATURES`] order: text, DOM, geometry, paper scores, neighbourhood,
    /// Readability.js, context.
    fn push_row(&self, k: usize, before: usize, rows: &mut Vec<f64>) {
        let tree = self.tree;
        let u = &self.units[k];
        let bl = u.block;
        let bn = tree.node(bl);
        let par = tree.parent(bl).unwrap_or(bl);
        let grand = tree.parent(par).unwrap_or(par);
        let text_parent = tree.parent(u.nodes[0]).unwrap_or(bl);
        let at = At {
            k,
            u,
            s: &self.text.stats[k],
            bl,
            bn,
            par,
            grand,
            text_parent,
            tp: tree.node(text_parent),
            first: u.nodes[0],
            r: bn.rect,
        };
        self.push_text(&at, rows);
        self.push_dom(&at, rows);
        self.push_geometry(&at, rows);
        self.push_paper(&at, rows);
        self.push_neighbourhood(&at, before, rows);
        self.push_readability(&at, rows);
        let nctx = CONTEXT_FEATURES.len();
        rows.extend_from_slice(&self.ctx[k * nctx..(k + 1) * nctx]);
    }

    fn push_text(&self, at: &At, rows: &mut Vec<f64>) {
        let (k, s) = (at.k, at.s);
        rows.push(self.lnc(k));
        rows.push((s.words as f64).ln_1p());
        rows.push(self.lr(k));
        rows.push(s.punct as f64 / s.chars.max(1) as f64);
        rows.push(s.sentence_ends as f64);
        rows.push(s.words as f64 / s.sentence_ends.max(1) as f64);
        rows.push(s.stop as f64 / s.words.max(1) as f64);
        rows.push(flag(s.ends_with_stop));
        rows.push(s.digits as f64 / s.chars.max(1) as f64);
        rows.push(s.upper as f64 / s.letters.max(1) as f64);
        rows.push(flag(s.starts_upper));
        rows.push(s.word_len as f64 / s.words.max(1) as f64);
        rows.push(s.separators as f64 / s.chars.max(1) as f64);
        rows.push(flag(s.copyright));
        rows.push((at.u.nodes.len() as f64).ln_1p());
        let title_words = &self.text.title_words;
        let overlap = if title_words.is_empty() {
            0.0
        } else {
            let ws = &self.text.unit_words[k];
            let inter = ws.intersection(title_words).count();
            inter as f64 / (ws.len().max(title_words.len())).max(1) as f64
        };
        rows.push(overlap);
    }

    fn push_dom(&self, at: &At, rows: &mut Vec<f64>) {
        let (tree, inh, bn) = (self.tree, &self.inherited, at.bn);
        rows.push(inh.depth[at.bl] as f64);
        rows.push(inh.depth[at.bl] as f64 / inh.max_depth);
        for t in BLOCK_TAGS {
            rows.push(flag(bn.tag == t));
        }
        rows.push(flag(bn.tag == "h5" || bn.tag == "h6"));
        let ins = inh.inside[at.first];
        for k2 in 0..INSIDE_TAGS.len() {
            rows.push(flag(ins & (1 << k2) != 0));
        }
        let own = inh.own_mask[at.bl] | inh.own_mask[at.text_parent];
        for g in 0..TOKEN_GROUPS.len() {
            rows.push(flag(own & (1 << g) != 0));
        }
        let anc = inh.anc_mask[at.first];
        for g in 0..TOKEN_GROUPS.len() {
            rows.push(flag(anc & (1 << g) != 0));
        }
        let sibs = &tree.children[at.par];
        let same = sibs.iter().filter(|&&c| tree.node(c).tag == bn.tag).count();
        rows.push(same as f64 / sibs.len().max(1) as f64);
        rows.push((sibs.len() as f64).ln_1p());
    }

    fn push_geometry(&self, at: &At, rows: &mut Vec<f64>) {
        let (vw, vh, dh) = (self.vw, self.vh, self.dh);
        let (r, bn, tp) = (at.r, at.bn, at.tp);
        let p = &self.papers;
        let main_box = p.main_box;
        rows.push(r.x / vw);
        rows.push(r.right() / vw);
        rows.push(r.w / vw);
        rows.push((r.y / vh).min(50.0));
        rows.push(r.y / dh);
        rows.push((r.h / vh).min(50.0));
        rows.push(((r.x + r.w / 2.0) - vw / 2.0).abs() / vw);
        rows.push(flag(r.y < vh));
        rows.push((r.w * r.h / (vw * vh)).min(50.0));
        rows.push(flag(r.w <= 0.0 || r.h <= 0.0));
        rows.push(flag(
            self.tree.node(at.first).rendered && bn.visibility == "visible",
        ));
        let pf = self.inherited.pos_flags[at.first];
        rows.push(flag(pf & 1 != 0));
        rows.push(flag(pf & 2 != 0));
        rows.push(flag(pf & 4 != 0));
        rows.push(flag(pf & 8 != 0));
        let fs = if tp.font_size > 0.0 {
            tp.font_size
        } else {
            bn.font_size
        };
        rows.push(fs / self.body_fs);
        rows.push(flag(tp.font_weight >= 600 || bn.font_weight >= 600));
        let ov = (r.right().min(main_box.right()) - r.x.max(main_box.x)).max(0.0);
        rows.push(if r.w > 0.0 { ov / r.w } else { 0.0 });
        rows.push(flag(at.bl >= p.max_node && at.bl < p.main_end));
        rows.push(flag(
            r.y >= main_box.y - 1.0 && r.bottom() <= main_box.bottom() + 1.0,
        ));
    }

    fn push_paper(&self, at: &At, rows: &mut Vec<f64>) {
        let tree = self.tree;
        let p = &self.papers;
        let scores = &p.scores;
        let (bl, par, grand) = (at.bl, at.par, at.grand);
        let g = |v: &Vec<f64>, i: usize| v.get(i).copied().unwrap_or(0.0);
        rows.push(slog(g(&scores.td, bl)));
        rows.push(slog(g(&scores.ctd, bl)));
        rows.push(slog(g(&scores.htd, bl)));
        rows.push(g(&scores.vi, bl));
        rows.push(slog(g(&scores.td, par)));
        rows.push(slog(g(&scores.ctd, par)));
        rows.push(slog(g(&scores.htd, par)));
        rows.push(slog(g(&scores.ctd, grand)));
        rows.push(slog(g(&scores.htd, grand)));
        rows.push(g(&scores.density_sum, bl) / p.ds_max);
        rows.push(g(&scores.density_sum, par) / p.ds_max);
        rows.push(flag(g(&scores.htd, bl) >= p.threshold));
        rows.push(flag(g(&scores.htd, par) >= p.threshold));
        let u = at.u;
        let frac = |kept: &Vec<bool>| {
            u.nodes.iter().filter(|&&i| kept[i]).count() as f64 / u.nodes.len() as f64
        };
        rows.push(frac(&p.htd_kept));
        rows.push(frac(&p.wang));
        rows.push(frac(&p.vsse));
        rows.push(frac(&p.crunch));
        let vv = |i: usize| vsse::vvtc(tree.chars[i], self.punct[i], tree.tags[i] + 1).ln_1p();
        rows.push(vv(bl));
        rows.push(vv(par));
    }

    fn push_neighbourhood(&self, at: &At, before: usize, rows: &mut Vec<f64>) {
        let tree = self.tree;
        let t = &self.text;
        let (k, par, grand) = (at.k, at.par, at.grand);
        let nu = self.units.len();
        let page_chars = t.page_chars;
        rows.push(k as f64 / nu as f64);
        rows.push(before as f64 / page_chars as f64);
        rows.push(if k > 0 { self.lnc(k - 1) } else { -1.0 });
        rows.push(if k + 1 < nu { self.lnc(k + 1) } else { -1.0 });
        rows.push(if k > 0 { self.lr(k - 1) } else { -1.0 });
        rows.push(if k + 1 < nu { self.lr(k + 1) } else { -1.0 });
        rows.push(if k > 1 { self.lnc(k - 2) } else { -1.0 });
        rows.push(if k + 2 < nu { self.lnc(k + 2) } else { -1.0 });
        rows.push(tree.chars[par] as f64 / page_chars as f64);
        rows.push(tree.chars[grand] as f64 / page_chars as f64);
        rows.push(tree.link_chars[par] as f64 / tree.chars[par].max(1) as f64);
        rows.push(tree.link_chars[grand] as f64 / tree.chars[grand].max(1) as f64);
        rows.push((t.parent_units.get(&par).copied().unwrap_or(1) as f64).ln_1p());
        rows.push(flag(t.first_h1.is_some_and(|h| k >= h)));
        rows.push(
            t.first_h1
                .map_or(0.0, |h| (k as f64 - h as f64) / nu as f64),
        );
        rows.push((nu as f64).ln_1p());
        rows.push(t.page_link as f64 / page_chars as f64);
    }

    fn push_readability(&self, at: &At, rows: &mut Vec<f64>) {
        let r = &self.rd;
        let rd = &r.rd;
        let (first, par) = (at.first, at.par);
        rows.push(flag(rd.in_top[first]));
        rows.push(flag(rd.in_article[first]));
        rows.push(flag(rd.output(first)));
        rows.push(flag(rd.removed[first]));
        rows.push(flag(rd.cleaned[first]));
        rows.push(rd.nearest_rel(self.tree, at.bl).clamp(-3.0, 3.0));
        rows.push(if rd.score[par].is_nan() {
            0.0
        } else {
            (rd.score[par] / rd.top_score).clamp(-3.0, 3.0)
        });
        rows.push((r.cw_path[at.text_parent] / 25.0).clamp(-6.0, 6.0));
        rows.push(r.top_share);
        rows.push(r.article_share);
        rows.push(rd.attempt as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{rect, SnapshotBuilder};

    #[test]
    fn units_follow_blocks_and_feature_rows_are_complete() {
        let mut bld = SnapshotBuilder::new(1000.0);
        bld.title("Storm hits the coast");
        let art = bld.el(0, "article", rect(100.0, 0.0, 700.0, 800.0));
        let h = bld.el(art, "h1", rect(100.0, 0.0, 700.0, 40.0));
        bld.text(h, "Storm hits the coast");
        let p = bld.el(art, "p", rect(100.0, 50.0, 700.0, 100.0));
        bld.text(p, "The storm came in at night, ");
        let a = bld.el(p, "a", rect(100.0, 50.0, 100.0, 20.0));
        bld.node_mut(a).display = "inline".into();
        bld.text(a, "officials said");
        bld.text(p, ". More later.");
        let foot = bld.el(0, "footer", rect(0.0, 900.0, 1000.0, 50.0));
        bld.node_mut(foot).position = "fixed".into();
        bld.text(foot, "© 2024 Example");
        let snap = bld.build();
        let tree = Tree::new(&snap);
        let params = Params::default();
        let pf = page_features(&tree, &params);
        assert_eq!(pf.units.len(), 3);
        // The shared "kept only" paths give the paper algorithms' own decisions.
        assert_eq!(
            vsse::kept(&tree, &params.vsse),
            vsse::extract(&tree, &params.vsse).kept
        );
        assert_eq!(
            weight::kept(&tree, &params.wang),
            weight::extract(&tree, &params.wang).kept
        );
        assert_eq!(
            pf.units[1].nodes.len(),
            3,
            "inline link joins its paragraph"
        );
        assert_eq!(
            pf.units[1].text,
            "The storm came in at night, officials said. More later."
        );
        assert_eq!(pf.rows.len(), 3 * FEATURES.len());
        let f = |u: usize, name: &str| pf.row(u)[FEATURES.iter().position(|x| *x == name).unwrap()];
        assert_eq!(f(0, "tag_h1"), 1.0);
        assert!(f(0, "title_overlap") > 0.9);
        assert!((f(1, "link_ratio") - 14.0 / 54.0).abs() < 1e-9);
        assert_eq!(f(2, "fixed"), 1.0);
        assert_eq!(f(2, "in_footer"), 1.0);
        assert_eq!(f(2, "copyright"), 1.0);
        assert_eq!(f(1, "fixed"), 0.0);
        assert!(f(1, "position") > f(0, "position"));
    }
}
