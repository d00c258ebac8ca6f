//! Crunch: Gupta, Kaiser, Neistadt & Grimm, "DOM-based Content Extraction of HTML Documents"
//! (WWW 2003). A pipeline of switchable filters that remove clutter from the DOM; whatever no
//! filter removes is the content (`kept[i] = !removed[i]`).
//!
//! Two passes, as §3 and §4.2 order them:
//! 1. tag filters ("the first set of filters simply ignores tags"): images, scripts, styles,
//!    plug-in objects, frames, form controls, links — plus hidden nodes, which a browser never
//!    showed the proxy's user;
//! 2. the algorithmic filters, in the paper's order: the advertisement remover (ad-server
//!    hosts of `src`/`href`), the link-list remover (links / non-linked words above the
//!    link/text removal ratio), the empty-table remover (tables left without substance), and
//!    the removed-link retainer (removed text links listed at the end of the page).
//!
//! The output writers are driven by `kept`, which can only keep nodes that exist, so the
//! retainer does not add nodes: it reports the removed links in `details.retained_links` as
//! `[{text, href}]`, and the CLI appends them after the content (with
//! `retain_removed_links`). `--ad-hosts FILE` replaces the ad list through
//! [`CrunchParams::load_ad_hosts`].
//!
//! The paper's proxy ran all filters in one top-down walk (`filterNode`); here each filter
//! walks the whole tree in turn and sees it as the filters before it left it (so a cell's link
//! count leaves out ad links already removed). The link-list remover is top-down like
//! `filterNode` (a removed container's inner containers are not tested); the empty-table
//! remover is bottom-up as §4.2 describes (inner tables first). Settings: [`CrunchParams`].

use super::details::{
    CrunchDetails, FilterReport, LinkListReport, RetainedLink, ScopeReport, WouldRemove,
};
pub use super::hosts::{parse_ad_hosts, url_host, AdHosts, DEFAULT_AD_HOSTS};
use super::params::{CrunchParams, LinkListScope, TagFilter};
use super::{Algorithm, Details, Extraction};
use crate::snapshot::{is_link_tag, NodeId, Tree};

/// At most this many removed node paths are listed per filter in `details`.
pub const MAX_REPORTED_PATHS: usize = 50;

/// The filters, in pipeline order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    Images,
    Scripts,
    Styles,
    Embeds,
    Iframes,
    Forms,
    Links,
    Hidden,
    Advertisements,
    LinkLists,
    EmptyTables,
}

impl Filter {
    /// Every filter in the order the pipeline applies them.
    pub const ALL: [Filter; 11] = [
        Filter::Images,
        Filter::Scripts,
        Filter::Styles,
        Filter::Embeds,
        Filter::Iframes,
        Filter::Forms,
        Filter::Links,
        Filter::Hidden,
        Filter::Advertisements,
        Filter::LinkLists,
        Filter::EmptyTables,
    ];
    /// Name in `details`.
    pub fn name(self) -> &'static str {
        match self {
            Filter::Images => "images",
            Filter::Scripts => "scripts",
            Filter::Styles => "styles",
            Filter::Embeds => "embeds",
            Filter::Iframes => "iframes",
            Filter::Forms => "forms",
            Filter::Links => "links",
            Filter::Hidden => "hidden",
            Filter::Advertisements => "advertisements",
            Filter::LinkLists => "link_lists",
            Filter::EmptyTables => "empty_tables",
        }
    }
    /// 1 for the tag filters, 2 for the algorithmic ones (§4.2).
    pub fn pass(self) -> u8 {
        match self {
            Filter::Advertisements | Filter::LinkLists | Filter::EmptyTables => 2,
            _ => 1,
        }
    }
    fn tag_filter(self, p: &CrunchParams) -> Option<&TagFilter> {
        match self {
            Filter::Images => Some(&p.images),
            Filter::Scripts => Some(&p.scripts),
            Filter::Styles => Some(&p.styles),
            Filter::Embeds => Some(&p.embeds),
            Filter::Iframes => Some(&p.iframes),
            Filter::Forms => Some(&p.forms),
            Filter::Links => Some(&p.links),
            _ => None,
        }
    }
    /// Is the filter switched on?
    pub fn enabled(self, p: &CrunchParams) -> bool {
        match self {
            Filter::Hidden => p.remove_hidden,
            Filter::Advertisements => p.remove_ads,
            Filter::LinkLists => p.remove_link_lists,
            Filter::EmptyTables => p.remove_empty_tables,
            f => f.tag_filter(p).is_some_and(|t| t.enabled),
        }
    }
}

/// The filtering state: which nodes are removed, by which filter, and each filter's removal
/// roots in document order.
#[derive(Debug, Clone)]
pub struct Pipeline {
    /// The filter that removed each node (None: kept).
    pub removed_by: Vec<Option<Filter>>,
    /// The nodes each filter removed (the roots of the removed subtrees), per [`Filter::ALL`].
    pub roots: Vec<Vec<NodeId>>,
}

impl Pipeline {
    fn new(n: usize) -> Pipeline {
        Pipeline {
            removed_by: vec![None; n],
            roots: vec![Vec::new(); Filter::ALL.len()],
        }
    }
    /// Is the node removed?
    pub fn removed(&self, id: NodeId) -> bool {
        self.removed_by[id].is_some()
    }
    /// Remove `root` and its subtree, crediting `f`. Nodes already removed keep their filter.
    fn remove(&mut self, tree: &Tree, root: NodeId, f: Filter) {
        for i in tree.subtree(root) {
            self.removed_by[i].get_or_insert(f);
        }
        self.roots[f as usize].push(root);
    }
}

/// The filter pipeline of [`extract`] and what it measured, before the report.
pub(crate) struct Run {
    /// Which filter removed each node.
    pub pipeline: Pipeline,
    /// Link lists found with the table-cell scope.
    pub cells: Vec<NodeId>,
    /// Link lists found with the block scope.
    pub blocks: Vec<NodeId>,
    /// Removed links the retainer keeps: (text, href).
    pub retained: Vec<(String, String)>,
}

/// The phases of [`extract`] up to the kept flags (also read by `scores::node_scores`).
pub(crate) fn run(tree: &Tree, p: &CrunchParams) -> Run {
    let mut pl = Pipeline::new(tree.len());
    tag_filters(tree, p, &mut pl);
    if p.remove_ads {
        remove_ads(tree, &AdHosts::new(&p.ad_hosts), &mut pl);
    }
    let cells = link_lists(tree, p, &pl, &p.table_cell_tags);
    let blocks = link_lists(tree, p, &pl, &p.block_tags);
    if p.remove_link_lists {
        let chosen = match p.link_list_scope {
            LinkListScope::TableCells => &cells,
            LinkListScope::Blocks => &blocks,
        };
        for &c in chosen {
            remove_link_list(tree, p, c, &mut pl);
        }
    }
    if p.remove_empty_tables {
        remove_empty_tables(tree, p, &mut pl);
    }
    let retained = if p.retain_removed_links {
        retained_links(tree, p, &pl)
    } else {
        Vec::new()
    };
    Run {
        pipeline: pl,
        cells,
        blocks,
        retained,
    }
}

/// Run Crunch on a snapshot.
///
/// Phases (§4.2): pass 1 [`tag_filters`] (images, scripts, styles, embeds, iframes, forms,
/// links, hidden) → pass 2 [`remove_ads`] → [`link_lists`] (both scopes measured, the chosen
/// one applied) → [`remove_empty_tables`] → [`retained_links`] → kept = not removed.
pub fn extract(tree: &Tree, p: &CrunchParams) -> Extraction {
    let Run {
        pipeline: pl,
        cells,
        blocks,
        retained,
    } = run(tree, p);

    let kept: Vec<bool> = (0..tree.len()).map(|i| !pl.removed(i)).collect();
    let paths = |ids: &[NodeId]| -> Vec<String> {
        ids.iter()
            .take(MAX_REPORTED_PATHS)
            .map(|&i| tree.css_path(i))
            .collect()
    };
    let filters: Vec<FilterReport> = Filter::ALL
        .iter()
        .map(|&f| {
            let roots = &pl.roots[f as usize];
            FilterReport {
                name: f.name(),
                pass: f.pass(),
                enabled: f.enabled(p),
                removed: roots.len(),
                paths: paths(roots),
            }
        })
        .collect();
    let scope = |ids: &[NodeId]| ScopeReport {
        count: ids.len(),
        paths: paths(ids),
    };
    let details = Details::Crunch(CrunchDetails {
        filters,
        link_lists: LinkListReport {
            scope: p.link_list_scope,
            link_text_ratio: p.link_text_ratio,
            chars_per_word: p.chars_per_word,
            would_remove: WouldRemove {
                table_cells: scope(&cells),
                blocks: scope(&blocks),
            },
        },
        retainer_enabled: p.retain_removed_links,
        retained_links: retained
            .into_iter()
            .map(|(text, href)| RetainedLink { text, href })
            .collect(),
        removed_nodes: kept.iter().filter(|&&k| !k).count(),
        kept_nodes: kept.iter().filter(|&&k| k).count(),
    });
    Extraction {
        algorithm: Algorithm::Crunch,
        kept,
        threshold: None,
        scores: None,
        details,
    }
}

/// Pass 1: every enabled tag filter removes the elements with its tags (with their subtrees);
/// then, with [`CrunchParams::remove_hidden`], every node that is not rendered (line breaks
/// excepted, [`CrunchParams::hidden_exempt_tags`]). `<body>` is never removed.
pub fn tag_filters(tree: &Tree, p: &CrunchParams, pl: &mut Pipeline) {
    for f in Filter::ALL {
        if let Some(tf) = f.tag_filter(p).filter(|t| t.enabled) {
            for i in 1..tree.len() {
                let n = tree.node(i);
                if !pl.removed(i) && n.is_element() && tf.tags.contains(&n.tag) {
                    pl.remove(tree, i, f);
                }
            }
        }
    }
    if p.remove_hidden {
        for i in 1..tree.len() {
            let n = tree.node(i);
            if !pl.removed(i) && !n.rendered && !p.hidden_exempt_tags.contains(&n.tag) {
                pl.remove(tree, i, Filter::Hidden);
            }
        }
    }
}

/// The advertisement remover (§3): an element whose `src` or `href` points to an ad server is
/// removed ("the node of the DOM tree that contained the link").
pub fn remove_ads(tree: &Tree, ads: &AdHosts, pl: &mut Pipeline) {
    for i in 1..tree.len() {
        let n = tree.node(i);
        if pl.removed(i) || !n.is_element() {
            continue;
        }
        if [&n.src, &n.href]
            .into_iter()
            .flatten()
            .any(|u| ads.matches_url(u))
        {
            pl.remove(tree, i, Filter::Advertisements);
        }
    }
}

/// Links and non-link letters (alphanumeric characters) of every node's subtree, counting
/// only nodes not yet removed.
fn link_letter_counts(tree: &Tree, pl: &Pipeline) -> (Vec<usize>, Vec<usize>) {
    let n = tree.len();
    let (mut links, mut letters) = (vec![0usize; n], vec![0usize; n]);
    for i in (0..n).rev() {
        if pl.removed(i) {
            continue;
        }
        let nd = tree.node(i);
        if nd.is_text() {
            if !nd.link {
                letters[i] = nd
                    .text
                    .as_deref()
                    .unwrap_or("")
                    .chars()
                    .filter(|c| c.is_alphanumeric())
                    .count();
            }
        } else if is_link_tag(&nd.tag) {
            links[i] += 1;
        }
        if let Some(q) = tree.parent(i) {
            links[q] += links[i];
            letters[q] += letters[i];
        }
    }
    (links, letters)
}

/// The link/text ratio of §3: links / non-linked words, non-linked words = non-link letters /
/// [`CrunchParams::chars_per_word`]. Infinite when there are links and no words; 0 without
/// links.
pub fn link_text_ratio(links: usize, letters: usize, p: &CrunchParams) -> f64 {
    if links == 0 {
        return 0.0;
    }
    let words = letters as f64 / p.chars_per_word;
    if words == 0.0 {
        f64::INFINITY
    } else {
        links as f64 / words
    }
}

/// The link-list remover's test (§3), top-down: the containers with one of `tags` whose
/// link/text ratio is greater than [`CrunchParams::link_text_ratio`]; the inside of a
/// container found is not searched further (the paper's `filterNode` stops there). Does not
/// remove anything: [`extract`] measures both scopes and applies one.
pub fn link_lists(tree: &Tree, p: &CrunchParams, pl: &Pipeline, tags: &[String]) -> Vec<NodeId> {
    let (links, letters) = link_letter_counts(tree, pl);
    let mut out = Vec::new();
    let mut skip_until = 0;
    for i in 1..tree.len() {
        if i < skip_until || pl.removed(i) || !tags.contains(&tree.node(i).tag) {
            continue;
        }
        if link_text_ratio(links[i], letters[i], p) > p.link_text_ratio {
            out.push(i);
            skip_until = tree.subtree_end(i);
        }
    }
    out
}

/// Remove a link list: its content, and the container itself with
/// [`CrunchParams::link_list_remove_container`]. Reported under the container's path.
fn remove_link_list(tree: &Tree, p: &CrunchParams, c: NodeId, pl: &mut Pipeline) {
    if p.link_list_remove_container {
        pl.remove(tree, c, Filter::LinkLists);
        return;
    }
    for i in tree.subtree(c).skip(1) {
        pl.removed_by[i].get_or_insert(Filter::LinkLists);
    }
    pl.roots[Filter::LinkLists as usize].push(c);
}

/// Does the table `t` still have substance (§3): at least
/// [`CrunchParams::substance_min_chars`] alphanumeric characters of text, or an element
/// with one of [`CrunchParams::substance_tags`], among the nodes not removed?
pub fn has_substance(tree: &Tree, p: &CrunchParams, pl: &Pipeline, t: NodeId) -> bool {
    let mut chars = 0;
    for i in tree.subtree(t).skip(1) {
        if pl.removed(i) {
            continue;
        }
        let n = tree.node(i);
        if n.is_text() {
            chars += n
                .text
                .as_deref()
                .unwrap_or("")
                .chars()
                .filter(|c| c.is_alphanumeric())
                .count();
        } else if p.substance_tags.contains(&n.tag) {
            return true;
        }
        if chars >= p.substance_min_chars {
            return true;
        }
    }
    chars >= p.substance_min_chars
}

/// The empty-table remover (§3), bottom-up (§4.2): tables in reverse document order, so an
/// inner table is judged (and perhaps removed) before the table around it.
pub fn remove_empty_tables(tree: &Tree, p: &CrunchParams, pl: &mut Pipeline) {
    for i in (1..tree.len()).rev() {
        if !pl.removed(i)
            && p.empty_table_tags.contains(&tree.node(i).tag)
            && !has_substance(tree, p, pl, i)
        {
            pl.remove(tree, i, Filter::EmptyTables);
        }
    }
    // Reverse order pushed the roots last-first; report them in document order.
    pl.roots[Filter::EmptyTables as usize].sort_unstable();
}

/// The removed-link retainer (§3): every removed text link — an `a` with an `href` and
/// non-empty text — in document order, as (text, href). Links the hidden-node filter removed
/// were never visible and are not retained; ad links only with
/// [`CrunchParams::retain_ad_links`].
pub fn retained_links(tree: &Tree, p: &CrunchParams, pl: &Pipeline) -> Vec<(String, String)> {
    (1..tree.len())
        .filter(|&i| match pl.removed_by[i] {
            None | Some(Filter::Hidden) => false,
            Some(Filter::Advertisements) => p.retain_ad_links,
            Some(_) => true,
        })
        .filter_map(|i| {
            let n = tree.node(i);
            let href = n.href.as_ref().filter(|_| n.tag == "a")?;
            let text = tree.text(i);
            (!text.is_empty()).then(|| (text, href.clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{rect, Rect, Snapshot, SnapshotBuilder};
    use serde_json::json;

    fn r() -> Rect {
        rect(0.0, 0.0, 100.0, 20.0)
    }

    fn link(b: &mut SnapshotBuilder, parent: NodeId, text: &str, href: &str) -> NodeId {
        let a = b.el(parent, "a", r());
        b.node_mut(a).display = "inline".into();
        b.node_mut(a).href = Some(href.into());
        b.text(a, text);
        a
    }

    fn only(f: Filter) -> CrunchParams {
        let mut p = CrunchParams::default();
        for g in Filter::ALL {
            match g {
                Filter::Hidden => p.remove_hidden = g == f,
                Filter::Advertisements => p.remove_ads = g == f,
                Filter::LinkLists => p.remove_link_lists = g == f,
                Filter::EmptyTables => p.remove_empty_tables = g == f,
                _ => {}
            }
        }
        for t in [
            &mut p.images,
            &mut p.scripts,
            &mut p.styles,
            &mut p.embeds,
            &mut p.iframes,
            &mut p.forms,
            &mut p.links,
        ] {
            t.enabled = false;
        }
        match f {
            Filter::Images => p.images.enabled = true,
            Filter::Scripts => p.scripts.enabled = true,
            Filter::Styles => p.styles.enabled = true,
            Filter::Embeds => p.embeds.enabled = true,
            Filter::Iframes => p.iframes.enabled = true,
            Filter::Forms => p.forms.enabled = true,
            Filter::Links => p.links.enabled = true,
            _ => {}
        }
        p
    }

    fn removed_roots(ex: &Extraction, f: Filter) -> Vec<String> {
        let dj_v = ex.details.to_json();
        let v = &dj_v["filters"][f as usize];
        assert_eq!(v["name"], f.name());
        v["paths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn ad_host_matching() {
        let ads = AdHosts::new(&parse_ad_hosts(DEFAULT_AD_HOSTS));
        assert!(ads.matches_host("doubleclick.net"));
        assert!(ads.matches_host("ad.doubleclick.net"));
        assert!(ads.matches_host("stats.g.doubleclick.net"));
        assert!(
            !ads.matches_host("notdoubleclick.net"),
            "a lookalike suffix is not a subdomain"
        );
        assert!(!ads.matches_host("doubleclick.net.example.com"));
        assert!(ads.matches_url("https://User@AD.DoubleClick.net.:443/x?y#z"));
        assert!(ads.matches_url("//pagead2.googlesyndication.com/pagead/show_ads.js"));
        assert!(!ads.matches_url("/ads/banner.png"), "relative URL: no host");
        assert!(!ads.matches_url("data:image/png;base64,AAAA"));
        assert!(!ads.matches_url("https://example.com/?u=https://doubleclick.net/"));
    }

    #[test]
    fn ad_list_parsing_accepts_hosts_files() {
        let text = "# comment\n127.0.0.1 localhost\n0.0.0.0 Ads.Example.COM tracker.example.org # two\n*.evil.test\n\nads.example.com\n::1 ip6-localhost\n";
        assert_eq!(
            parse_ad_hosts(text),
            vec!["ads.example.com", "tracker.example.org", "evil.test"]
        );
        let mut p = CrunchParams::default();
        p.load_ad_hosts("ads.example.com\n");
        assert_eq!(p.ad_hosts, vec!["ads.example.com"]);
        assert!(CrunchParams::default().ad_hosts.len() >= 40);
    }

    #[test]
    fn advertisement_remover_removes_the_element_with_the_ad_url() {
        let mut b = SnapshotBuilder::new(800.0);
        let d = b.el(0, "div", r());
        let img = b.el(d, "img", r());
        b.node_mut(img).src = Some("https://ad.doubleclick.net/b.gif".into());
        let ok = b.el(d, "img", r());
        b.node_mut(ok).src = Some("https://notdoubleclick.net/b.gif".into());
        let fr = b.el(0, "iframe", r());
        b.node_mut(fr).src = Some("https://tpc.googlesyndication.com/safeframe".into());
        let a = link(&mut b, 0, "Buy", "https://www.criteo.com/click");
        link(&mut b, 0, "Home", "https://example.com/");
        let snap = b.build();
        let tree = Tree::new(&snap);
        let ex = extract(&tree, &only(Filter::Advertisements));
        assert_eq!(
            removed_roots(&ex, Filter::Advertisements),
            vec![
                "body > div > img:nth-of-type(1)",
                "body > iframe",
                "body > a:nth-of-type(1)"
            ]
        );
        assert!(!ex.kept[img] && ex.kept[ok] && !ex.kept[fr] && !ex.kept[a] && !ex.kept[a + 1]);
    }

    /// A 3-cell table: a menu cell (4 links, "Menu" = 4 letters → 0.8 words: ratio 5), a prose
    /// cell with one link (55 letters → 11 words: ratio 1/11 ≈ 0.09) and a div with two links
    /// and "See also these" (12 letters → 2.4 words: ratio 0.83) outside the table.
    fn link_page() -> (Snapshot, [NodeId; 3]) {
        let mut b = SnapshotBuilder::new(800.0);
        let t = b.el(0, "table", r());
        let tr = b.el(t, "tr", r());
        let menu = b.el(tr, "td", r());
        b.text(menu, "Menu");
        for k in 0..4 {
            link(
                &mut b,
                menu,
                &format!("Item {k}"),
                &format!("https://example.com/{k}"),
            );
        }
        let prose = b.el(tr, "td", r());
        b.text(
            prose,
            "The council voted on Tuesday to reopen the old bridge soon. ",
        );
        link(&mut b, prose, "Read more", "https://example.com/more");
        let div = b.el(0, "div", r());
        b.text(div, "See also these");
        link(&mut b, div, "A", "https://example.com/a");
        link(&mut b, div, "B", "https://example.com/b");
        (b.build(), [menu, prose, div])
    }

    #[test]
    fn link_list_remover_scopes() {
        let (snap, [menu, prose, div]) = link_page();
        let tree = Tree::new(&snap);
        let p = only(Filter::LinkLists);
        // "Read more" is link text: 56 letters in the cell, 48 outside the link.
        assert_eq!(
            tree.text(prose)
                .chars()
                .filter(|c| c.is_alphanumeric())
                .count(),
            56
        );
        let ex = extract(&tree, &p);
        let dj_ll = ex.details.to_json();
        let ll = &dj_ll["link_lists"]["would_remove"];
        assert_eq!(
            ll["table-cells"]["paths"],
            json!(["body > table > tr > td:nth-of-type(1)"])
        );
        assert_eq!(
            ll["blocks"]["paths"],
            json!(["body > table > tr > td:nth-of-type(1)", "body > div"])
        );
        // Default scope `blocks`: both removed, content only (the containers stay).
        assert_eq!(removed_roots(&ex, Filter::LinkLists).len(), 2);
        assert!(ex.kept[menu] && !ex.kept[menu + 1] && ex.kept[prose] && ex.kept[prose + 1]);
        assert!(ex.kept[div] && !ex.kept[div + 1]);

        let mut paper = p.clone();
        paper.link_list_scope = LinkListScope::TableCells;
        paper.link_list_remove_container = true;
        let ex = extract(&tree, &paper);
        assert!(
            !ex.kept[menu] && ex.kept[div + 1],
            "paper scope: table cells only"
        );

        // Ratios: 4 links / (4/5 words) = 5; 1 / (48/5) ≈ 0.104; 2 / (12/5) ≈ 0.833.
        assert_eq!(link_text_ratio(4, 4, &p), 5.0);
        assert!((link_text_ratio(1, 48, &p) - 5.0 / 48.0).abs() < 1e-12);
        assert!((link_text_ratio(2, 12, &p) - 2.0 / 2.4).abs() < 1e-12);
        assert_eq!(link_text_ratio(3, 0, &p), f64::INFINITY);
        assert_eq!(link_text_ratio(0, 0, &p), 0.0);
        let mut strict = p.clone();
        strict.link_text_ratio = 1.0;
        let ex = extract(&tree, &strict);
        assert_eq!(
            removed_roots(&ex, Filter::LinkLists),
            vec!["body > table > tr > td:nth-of-type(1)"]
        );
    }

    #[test]
    fn empty_table_remover_is_bottom_up() {
        let mut b = SnapshotBuilder::new(800.0);
        let outer = b.el(0, "table", r());
        let td = b.el(outer, "td", r());
        b.text(td, "| |");
        let inner = b.el(td, "table", r());
        let itd = b.el(inner, "td", r());
        b.text(itd, "abc");
        let full = b.el(0, "table", r());
        let ftd = b.el(full, "td", r());
        b.text(ftd, "Ten chars!!x"); // 9 alphanumerics: not enough alone
        let img = b.el(ftd, "img", r());
        let text_table = b.el(0, "table", r());
        let ttd = b.el(text_table, "td", r());
        b.text(ttd, "abcde fghij");
        let snap = b.build();
        let tree = Tree::new(&snap);
        let ex = extract(&tree, &only(Filter::EmptyTables));
        // The inner table (3 letters) goes first; then the outer one ("| |" and nothing left).
        assert_eq!(
            removed_roots(&ex, Filter::EmptyTables),
            vec![
                "body > table:nth-of-type(1)",
                "body > table:nth-of-type(1) > td > table"
            ]
        );
        assert!(!ex.kept[inner] && ex.kept[full] && ex.kept[text_table]);

        // Without the image (removed by the image filter first), the second table is empty.
        let mut p = only(Filter::EmptyTables);
        p.images.enabled = true;
        let ex = extract(&tree, &p);
        assert_eq!(
            removed_roots(&ex, Filter::Images),
            vec!["body > table:nth-of-type(2) > td > img"]
        );
        assert_eq!(
            removed_roots(&ex, Filter::EmptyTables),
            vec![
                "body > table:nth-of-type(1)",
                "body > table:nth-of-type(1) > td > table",
                "body > table:nth-of-type(2)"
            ]
        );
        assert!(!ex.kept[img] && ex.kept[text_table]);
    }

    #[test]
    fn tag_filters_and_hidden() {
        let mut b = SnapshotBuilder::new(800.0);
        let tags = [
            "img", "script", "style", "object", "iframe", "form", "a", "p",
        ];
        let ids: Vec<NodeId> = tags.iter().map(|t| b.el(0, t, r())).collect();
        let hidden = b.el(0, "div", r());
        b.node_mut(hidden).rendered = false;
        b.text(hidden, "cookie banner");
        let br = b.el(0, "br", rect(0.0, 0.0, 0.0, 0.0)); // zero-size in Chromium: exempt
        b.node_mut(br).rendered = false;
        let snap = b.build();
        let tree = Tree::new(&snap);
        let cases = [
            (Filter::Images, 0),
            (Filter::Scripts, 1),
            (Filter::Styles, 2),
            (Filter::Embeds, 3),
            (Filter::Iframes, 4),
            (Filter::Forms, 5),
            (Filter::Links, 6),
        ];
        for (f, k) in cases {
            let ex = extract(&tree, &only(f));
            let removed: Vec<NodeId> = (0..tree.len()).filter(|&i| !ex.kept[i]).collect();
            assert_eq!(removed, vec![ids[k]], "{}", f.name());
        }
        let ex = extract(&tree, &only(Filter::Hidden));
        assert_eq!(removed_roots(&ex, Filter::Hidden), vec!["body > div"]);
        assert!(!ex.kept[hidden + 1]);
        // Defaults: scripts, styles and hidden nodes.
        let ex = extract(&tree, &CrunchParams::default());
        let removed: Vec<NodeId> = (0..tree.len()).filter(|&i| !ex.kept[i]).collect();
        assert_eq!(removed, vec![ids[1], ids[2], hidden, hidden + 1]);
    }

    #[test]
    fn retainer_lists_removed_text_links() {
        let (snap, _) = link_page();
        let tree = Tree::new(&snap);
        let mut p = only(Filter::LinkLists);
        p.retain_removed_links = true;
        let ex = extract(&tree, &p);
        let dj_hrefs = ex.details.to_json();
        let hrefs: Vec<&str> = dj_hrefs["retained_links"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["href"].as_str().unwrap())
            .collect();
        assert_eq!(
            hrefs,
            vec![
                "https://example.com/0",
                "https://example.com/1",
                "https://example.com/2",
                "https://example.com/3",
                "https://example.com/a",
                "https://example.com/b"
            ]
        );
        assert_eq!(ex.details.to_json()["retained_links"][0]["text"], "Item 0");
        p.retain_removed_links = false;
        assert_eq!(
            extract(&tree, &p).details.to_json()["retained_links"],
            json!([])
        );
    }
}
