//! Every constant of every algorithm, in one place, each with its source.
//!
//! `Params::default()` is the paper-faithful configuration. Where a paper is ambiguous the
//! field's doc says which reading was chosen and why. Algorithm code reads these fields and
//! never writes a bare number of its own.

use serde::{Deserialize, Serialize};

/// All algorithm parameters.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Params {
    /// Song, Sun & Liao: TD, CTD, HTD, DensitySum, smoothing.
    pub density: DensityParams,
    /// Wang & Liu: DOM tree and weight value.
    pub wang: WangParams,
    /// VSSE: punctuation, tag paths, SimHash, HMM records.
    pub vsse: VsseParams,
    /// Gupta et al.: Crunch filters.
    pub crunch: CrunchParams,
    /// Griazev & Ramanauskaite: content blocks.
    pub blocks: BlocksParams,
}

// ---------------------------------------------------------------------------------------------
// Song, Sun & Liao (2013), "A hybrid approach for content extraction with text density and
// visual importance of DOM nodes", and its reference code (Sun, ContentExtraction, SIGIR 2011).
// ---------------------------------------------------------------------------------------------

/// Parameters of the text-density family (`td`, `ctd`, `htd`, `ctd-smooth`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct DensityParams {
    /// Pseudo-count for a zero denominator: "when denominators of the formula are 0, set them
    /// to 1" (§3.2 eq. 1 for T_i, §3.3 eq. 2 for T_i, LC_i, ¬LC_i, LT_i, C_b). Value 1.
    pub zero_denominator: f64,
    /// Drop nodes that are not rendered (display:none, visibility:hidden, zero-size) before
    /// counting. The paper text only removes script, style and comments (§3.2) and reports
    /// that hidden BBC disclaimers then leak into CETD's output (§4.2.1); the authors'
    /// reference code (`clean.cpp`, `PreprocessDOM`) removes `display:none` subtrees before
    /// counting. Default `false`: the paper's text, so that `td`/`ctd` show the behaviour the
    /// paper measured and `htd` removes hidden text through VI = 0 as §3.4.1 intends.
    pub drop_hidden: bool,
    /// Count text nodes as children in DensitySum (eq. 5). The paper's DOM has text leaves;
    /// the reference code (`ComputeDensitySum`) adds each run of an element's own text as a
    /// pseudo-child. Default `true`: a text child contributes its own density (C/1 for TD; the
    /// same CTD formula with T = 0 for CTD/HTD), which is the paper's reading of a text leaf.
    pub text_children_in_density_sum: bool,
    /// Clamp HTD at 0. §3.4.2 adapts T_i = HC_i/C_i "to avoid the Hybrid Text Density being
    /// negative", but ln((HC_i/LC_i)(T_i/LT_i)) is still negative when HC_i² < C_i (a leaf
    /// far off-centre). A negative density would subtract from DensitySum and lower the
    /// threshold below 0; clamping keeps the paper's stated intent. Default `true`.
    pub clamp_negative: bool,
    /// CECTD-S smoothing weights (previous sibling, self, next sibling). The paper (§4.1.3)
    /// only says "simply weighted averaging with sibling nodes"; (1, 2, 1)/4 is the usual
    /// binomial kernel. Missing siblings drop out of the average.
    pub smoothing_weights: [f64; 3],
    /// Visual importance: the horizontal span that maps to [-1, +1] of N(0,1) (§3.4.1): the
    /// node under `<body>` with the longest horizontal span, clipped to the document
    /// `[0, document width]` so an off-screen carousel strip cannot win. The number of
    /// standard deviations its half-width spans (paper: 1).
    pub vi_sigmas: f64,
}

impl Default for DensityParams {
    fn default() -> Self {
        DensityParams {
            zero_denominator: 1.0,
            drop_hidden: false,
            text_children_in_density_sum: true,
            clamp_negative: true,
            smoothing_weights: [1.0, 2.0, 1.0],
            vi_sigmas: 1.0,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Wang & Liu, DOM tree and weight value.
// ---------------------------------------------------------------------------------------------

/// Parameters of `wang`: Wang & Liu, "An Approach of Information Extraction Based on Dom Tree
/// and Weight Value" (IJDTA 2015), §3.3 steps (2)-(6), Table 1, eq. 1-3.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct WangParams {
    /// Ignore tags (Table 1): their subtrees are pruned before anything is counted (§3.3
    /// step 3). Value `script, style, form, noscript, object, embed`. `form` is the paper's;
    /// a page wrapped in one `<form>` (ASP.NET) loses everything — remove it here for such
    /// pages.
    pub ignore_tags: Vec<String>,
    /// Row tags (Table 1): merged into their parent (§3.3 step 3, "join the row tag node into
    /// the superior node"): their text, links and tag pairs count for the nearest tag node
    /// above them, whatever their computed display. Value `span, img, strong, b, em, i`.
    pub row_tags: Vec<String>,
    /// Block and Title tags (Table 1): always tag nodes of the extended DOM tree. Value
    /// `body, div, table, p, blockquote, ul, ol` and `h1, h2, h3`.
    pub kept_tags: Vec<String>,
    /// Tags that Table 1 does not list (a, li, td, section, h4, br, ...). The paper's table
    /// is not exhaustive, and a link must merge into the node that contains it or LinkNum
    /// (eq. 1) could never be non-zero. Reading chosen (`true`): an unlisted element is a tag
    /// node when its computed display is block-level (block, list-item, table-cell, flex,
    /// ...), and merges like a Row tag when it is inline-level (inline, inline-block,
    /// inline-flex, contents, ...). `false`: every unlisted element is a tag node.
    pub unlisted_by_display: bool,
    /// Prune nodes that are not rendered (display:none, visibility:hidden, zero-size), as
    /// Ignore tags are pruned. The paper parsed HTML without rendering (Jsoup), but its
    /// WidthAttr is a rendered width (the issue takes it from the real layout box), and a node
    /// with no box has no width to weigh; default `true` keeps the two readings consistent.
    pub drop_hidden: bool,
    /// A leaf with no text at all (no words, no links: a spacer `<div>`, an image-only block)
    /// is not a leaf of S_sj. §3.2 says leaf nodes "really include semantic information which
    /// is either link text or common text"; an empty leaf would only dilute the mean of eq. 2.
    /// Default `true`.
    pub skip_empty_leaves: bool,
    /// Void elements (no closing tag): not "pairs of HTML tags", so they add nothing to
    /// TagNum (eq. 1). Every other element merged into a leaf, the leaf's own pair and every
    /// link's `<a>` pair included, adds 1 — TagNum ≥ 1, so eq. 1 never divides by zero.
    pub void_tags: Vec<String>,
    /// Separators of the `<meta name="keywords">` content when building S_meta-kw (step 2):
    /// ASCII and CJK commas and semicolons, plus the ideographic comma.
    pub keyword_separators: Vec<char>,
}

impl Default for WangParams {
    fn default() -> Self {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<String>>();
        WangParams {
            ignore_tags: v(&["script", "style", "form", "noscript", "object", "embed"]),
            row_tags: v(&["span", "img", "strong", "b", "em", "i"]),
            kept_tags: v(&["body", "div", "table", "p", "blockquote", "ul", "ol", "h1", "h2", "h3"]),
            unlisted_by_display: true,
            drop_hidden: true,
            skip_empty_leaves: true,
            void_tags: v(&[
                "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
            ]),
            keyword_separators: vec![',', ';', '，', '；', '、'],
        }
    }
}

// ---------------------------------------------------------------------------------------------
// VSSE, punctuation and tag paths.
// ---------------------------------------------------------------------------------------------

/// Parameters of `vsse` and `vsse-records` (filled in with the algorithm).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct VsseParams {}

// ---------------------------------------------------------------------------------------------
// Gupta, Kaiser, Neistadt & Grimm (WWW 2003), Crunch.
// ---------------------------------------------------------------------------------------------

/// One tag-removal filter of Crunch's first pass (§3: "the first set of filters simply
/// ignores tags ... images, links, scripts, styles, and many other elements can be quickly
/// removed"): when `enabled`, every element with one of `tags` is removed with its subtree.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TagFilter {
    pub enabled: bool,
    pub tags: Vec<String>,
}

impl TagFilter {
    fn new(enabled: bool, tags: &[&str]) -> Self {
        TagFilter { enabled, tags: tags.iter().map(|s| s.to_string()).collect() }
    }
}

/// Which elements the link-list remover tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LinkListScope {
    /// The paper (§3): table cells only ([`CrunchParams::table_cell_tags`]).
    TableCells,
    /// Every block container ([`CrunchParams::block_tags`]): today's pages build their link
    /// lists from `ul`/`nav`/`div`, not table cells.
    Blocks,
}

/// Parameters of `crunch`: Gupta, Kaiser, Neistadt & Grimm, "DOM-based Content Extraction of
/// HTML Documents" (WWW 2003), §3 (the filters) and §4.2 (the two passes). The paper leaves
/// every threshold to the user ("user-determined"); defaults it does not give are marked.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct CrunchParams {
    // ---- pass 1: tag filters (§3 "first set", §4.2 "filters that delete nodes") ----
    /// Images (`img`, `picture`, `svg`). Default off: the paper presents removing images as
    /// what other tools do to a page's look and feel (abstract, §1); its user turns it on.
    pub images: TagFilter,
    /// Scripts (`script`, `noscript`). Default on: never content.
    pub scripts: TagFilter,
    /// Styles (`style`, `link`). Default on: never content.
    pub styles: TagFilter,
    /// Plug-in objects (`object`, `embed`, `applet`), "many other elements". Default off.
    pub embeds: TagFilter,
    /// Frames (`iframe`, `frame`). Default off: ad frames go through the advertisement
    /// remover.
    pub iframes: TagFilter,
    /// Form controls (`form`, `input`, `select`, `textarea`, `button`). Default off: §4.1
    /// says input fields stay or go with the tables that hold them.
    pub forms: TagFilter,
    /// Every link (`a`), "links ... can be quickly removed". Default off.
    pub links: TagFilter,
    /// Remove nodes that are not rendered (display:none, visibility:hidden, zero-size). Not a
    /// filter of the paper: Crunch returned HTML to a browser, which never showed them, while
    /// sightline's text output would print them. Default `true`. Not retained as links.
    pub remove_hidden: bool,

    // ---- pass 2: algorithmic filters (§3 "second set"), in the paper's order ----
    /// Advertisement remover (§3): an element whose `src` or `href` host is on
    /// [`CrunchParams::ad_hosts`] (the host itself or a subdomain of it) is removed.
    pub remove_ads: bool,
    /// Ad-server host names. The paper used Hanzlik's hosts file [6]; the default is a short
    /// list of well-known ad and tracker hosts shipped as `src/extract/ad_hosts.txt`. Replace
    /// it with [`CrunchParams::load_ad_hosts`] (hosts-file format accepted).
    pub ad_hosts: Vec<String>,
    /// Link-list remover (§3).
    pub remove_link_lists: bool,
    /// Which containers the link-list remover tests. Default [`LinkListScope::Blocks`];
    /// `details` reports what both scopes would remove.
    pub link_list_scope: LinkListScope,
    /// Table cells for [`LinkListScope::TableCells`]: `td`, `th` (the paper says "table
    /// cells").
    pub table_cell_tags: Vec<String>,
    /// Block containers for [`LinkListScope::Blocks`]: `td, th, div, ul, ol, nav, aside,
    /// section`.
    pub block_tags: Vec<String>,
    /// The link/text removal ratio (§3): a container is a link list when links / non-linked
    /// words is greater than this. The paper gives no value ("user-determined"); 0.5 (more
    /// than one link per two non-linked words) removes menus and link lists (ratio ≥ 1)
    /// and keeps link-rich prose (≈ 0.1-0.25). Links are link elements (`a`, `button`,
    /// `select`, the crate's link count); a container with links and no non-linked words has
    /// an infinite ratio.
    pub link_text_ratio: f64,
    /// Average characters per word (§3: "which we preset as 5"): non-linked words = letters
    /// (alphanumeric characters) outside links / this.
    pub chars_per_word: f64,
    /// Remove the link-list container itself too ("the content of the table cell (and,
    /// optionally, the cell itself) is removed"). Default `false`: the content only.
    pub link_list_remove_container: bool,
    /// Empty-table remover (§3).
    pub remove_empty_tables: bool,
    /// Elements the empty-table remover tests: `table`.
    pub empty_table_tags: Vec<String>,
    /// A table has substance when its remaining text holds at least this many alphanumeric
    /// characters (§3: "how many characters within a table are needed to be viewed as
    /// substantive"). The paper gives no value; 10 (two words at 5 characters a word).
    pub substance_min_chars: usize,
    /// A table has substance when it still holds one of these elements (§3: "which HTML tags
    /// should be considered to be substance"): images, frames, media and form controls.
    pub substance_tags: Vec<String>,
    /// Removed-link retainer (§3): report every removed text link (an `a` with an `href` and
    /// text) in `details.retained_links`; the CLI appends them after the content. Default off.
    pub retain_removed_links: bool,
    /// Retain links removed by the advertisement remover too. The paper retains "all the text
    /// links that are removed throughout the filtering process": default `true`.
    pub retain_ad_links: bool,
}

impl Default for CrunchParams {
    fn default() -> Self {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<String>>();
        CrunchParams {
            images: TagFilter::new(false, &["img", "picture", "svg"]),
            scripts: TagFilter::new(true, &["script", "noscript"]),
            styles: TagFilter::new(true, &["style", "link"]),
            embeds: TagFilter::new(false, &["object", "embed", "applet"]),
            iframes: TagFilter::new(false, &["iframe", "frame"]),
            forms: TagFilter::new(false, &["form", "input", "select", "textarea", "button"]),
            links: TagFilter::new(false, &["a"]),
            remove_hidden: true,
            remove_ads: true,
            ad_hosts: super::crunch::parse_ad_hosts(super::crunch::DEFAULT_AD_HOSTS),
            remove_link_lists: true,
            link_list_scope: LinkListScope::Blocks,
            table_cell_tags: v(&["td", "th"]),
            block_tags: v(&["td", "th", "div", "ul", "ol", "nav", "aside", "section"]),
            link_text_ratio: 0.5,
            chars_per_word: 5.0,
            link_list_remove_container: false,
            remove_empty_tables: true,
            empty_table_tags: v(&["table"]),
            substance_min_chars: 10,
            substance_tags: v(&[
                "img", "picture", "svg", "iframe", "object", "embed", "video", "audio", "canvas", "input", "select",
                "textarea",
            ]),
            retain_removed_links: false,
            retain_ad_links: true,
        }
    }
}

impl CrunchParams {
    /// Replace the ad-server list with the hosts in `text`: one host per line, or hosts-file
    /// lines (`0.0.0.0 ads.example.com`); `#` starts a comment. See
    /// [`super::crunch::parse_ad_hosts`].
    pub fn load_ad_hosts(&mut self, text: &str) {
        self.ad_hosts = super::crunch::parse_ad_hosts(text);
    }
}

// ---------------------------------------------------------------------------------------------
// Griazev & Ramanauskaite, content blocks.
// ---------------------------------------------------------------------------------------------

/// Parameters of `blocks` (filled in with the algorithm).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BlocksParams {}
