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
    /// The majority vote over several algorithms.
    pub ensemble: EnsembleParams,
    /// sightline's learned classifier.
    pub learned: LearnedParams,
}

/// Parameters of `learned` (`src/extract/learned/`). Not from a paper: the classifier comes
/// from the model file (`models/learned.json`, `sightline train`), which is not a parameter:
/// a caller with a model of its own passes it to [`crate::extract::extract_tree_with`].
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct LearnedParams {
    /// How the units to keep are chosen from their probabilities (default `expected-f1`).
    /// Setting [`threshold`](Self::threshold) selects `threshold`.
    pub decision: Decision,
    /// With the `threshold` decision: keep a unit when its probability reaches this (default:
    /// none, the model's own threshold). Lower it for recall, raise it for precision. Setting
    /// it selects the `threshold` decision.
    pub threshold: Option<f64>,
    /// With the `threshold` decision, when no unit of a page reaches the threshold: keep the
    /// units whose probability is at least this share of the page's highest (default 0.5; 0
    /// or less: keep nothing, as a plain threshold would). A page always has a most likely
    /// article; an empty output scores 0 however unsure the model was.
    pub empty_fallback: f64,
    /// Compute each kept block's top feature contributions (`details.blocks[].pass1_top` and
    /// `pass2_top`; default true). They cost about a tenth of `learned`'s time; the commands
    /// that write no JSON (`eval`, `train`, `extract` with the text, markdown or html format)
    /// turn them off, which changes no decision.
    pub explain: bool,
    /// Keep reader comments after the article (`--comments`; default false: dropped). A unit
    /// in a comment region ([`crate::extract::learned::comment_candidate`]) that the article
    /// decision left out is kept when the model's comment model gives it a probability of at
    /// least [`comment_threshold`](Self::comment_threshold); it is marked `"comment": true` in
    /// `details.blocks`. A model without a comment model keeps none.
    pub comments: bool,
    /// With [`comments`](Self::comments): the comment model's probability a comment-region
    /// unit needs to be kept (default 0.5, the logistic model's even odds; not from a paper).
    pub comment_threshold: f64,
    /// With the `expected-f1` decision: added to each unit's pass-2 log-odds before the
    /// decision (default -0.5; 0 decides on the model's probabilities as they are). The model
    /// is fit on pages of the sites it trains on; on a site it has never seen its
    /// probabilities are too high, and the decision keeps too much. Not from a paper: chosen
    /// held out by site; picking it for each fold on the other four gives the same mean
    /// (docs/experiments.md, "The decision's log-odds shift"). Headings and lines that are most of
    /// the page's title keep their own probability
    /// ([`crate::extract::learned::headline_units`]). The probabilities reported in
    /// `details.blocks` are the model's own.
    pub log_odds_shift: f64,
    /// Keep a quotation of text the page already keeps (default false: dropped). A unit
    /// inside a `<blockquote>` whose text (case and white space aside, at least
    /// [`crate::extract::learned::QUOTE_MIN_WORDS`] words) is also kept outside a quotation,
    /// or in an earlier one, is a reply quoting a post above it or a pull quote repeating the
    /// body; the reader gets that text once ([`crate::extract::learned::quoted_copies`]). Not
    /// from a paper: held out by site it took forum pages from 0.783 to 0.794 and left every
    /// dataset's mean as it was (docs/experiments.md, "Quoted copies").
    pub keep_quoted_copies: bool,
}

/// How `learned` turns its units' probabilities into the kept text.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// Keep the units that maximise the page's expected F1 (the metric the model is scored
    /// by): with each unit's probability `p` and word-token count `n`, keep the most probable
    /// units while the plug-in estimate `2 Σkept p·n / (Σkept n + Σall p·n)` grows (see
    /// [`crate::extract::learned::decide_expected_f1`]). A page keeps at least its most
    /// probable unit, and keeps unsure units when the page's probable text is short.
    #[default]
    ExpectedF1,
    /// Keep the units whose probability reaches a threshold (the parameters' or the model's),
    /// with [`LearnedParams::empty_fallback`].
    Threshold,
}

impl LearnedParams {
    /// The decision in force: `threshold` when a threshold is set, else [`Self::decision`].
    pub fn rule(&self) -> Decision {
        if self.threshold.is_some() {
            Decision::Threshold
        } else {
            self.decision
        }
    }

    /// The fixed cut in force for a model whose own threshold is `model_threshold`: the
    /// parameters' threshold or the model's under the `threshold` decision; None under
    /// `expected-f1` (each page gets its own cutoff).
    pub fn cut(&self, model_threshold: f64) -> Option<f64> {
        match self.rule() {
            Decision::Threshold => Some(self.threshold.unwrap_or(model_threshold)),
            Decision::ExpectedF1 => None,
        }
    }
}

impl Params {
    /// These parameters for a caller that writes text only (`eval`, `train`, the text,
    /// markdown and html formats): `learned` skips its feature contributions
    /// ([`LearnedParams::explain`]), which changes no decision.
    pub fn text_only(&self) -> Params {
        let mut p = self.clone();
        p.learned.explain = false;
        p
    }
}

impl Default for LearnedParams {
    fn default() -> Self {
        LearnedParams {
            decision: Decision::ExpectedF1,
            threshold: None,
            empty_fallback: 0.5,
            explain: true,
            comments: false,
            comment_threshold: 0.5,
            log_odds_shift: -0.5,
            keep_quoted_copies: false,
        }
    }
}

/// Parameters of `ensemble` (`src/extract/ensemble.rs`): which algorithms vote and how many
/// must keep a text node. Not from a paper; the default voters and quorum were chosen on the
/// benchmark (README, Quality) and are pinned by the quality gate.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct EnsembleParams {
    /// The voters. Default htd, blocks, vsse: three kinds of evidence (text density weighted by
    /// the rendered position; block structure; punctuation and tag paths). On the full
    /// benchmark (README) this scored a mean LCS F1 of 0.885 against 0.883 for htd, ctd, vsse,
    /// crunch and blocks with 3 votes, and 0.879 with 4 — chosen on the benchmark itself.
    pub voters: Vec<super::Algorithm>,
    /// Votes a text node needs to be kept (default 2 of 3: a majority).
    pub min_votes: usize,
}

impl Default for EnsembleParams {
    fn default() -> Self {
        use super::Algorithm::*;
        EnsembleParams {
            voters: vec![Htd, Blocks, Vsse],
            min_votes: 2,
        }
    }
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
    /// Drop `position: fixed` subtrees before counting: cookie banners, sticky bars and chat
    /// widgets are overlays on the viewport, never the page's content. Not in the paper (its
    /// WebKit renderer gave it no computed position); a real-layout extension. Default
    /// `false` (paper-faithful); its measured effect is in the README.
    pub drop_fixed: bool,
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
            drop_fixed: false,
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
    /// Elements [`WangParams::drop_hidden`] never drops: `br`, `wbr`. Chromium gives a line
    /// break no box of its own (zero size, so not `rendered`), yet it is the paragraph break
    /// of the text output.
    pub hidden_exempt_tags: Vec<String>,
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
            kept_tags: v(&[
                "body",
                "div",
                "table",
                "p",
                "blockquote",
                "ul",
                "ol",
                "h1",
                "h2",
                "h3",
            ]),
            unlisted_by_display: true,
            drop_hidden: true,
            hidden_exempt_tags: v(&["br", "wbr"]),
            skip_empty_leaves: true,
            void_tags: v(&[
                "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                "source", "track", "wbr",
            ]),
            keyword_separators: vec![',', ';', '，', '；', '、'],
        }
    }
}

// ---------------------------------------------------------------------------------------------
// VSSE, punctuation and tag paths.
// ---------------------------------------------------------------------------------------------

/// Parameters of `vsse` (§4.2 vvtc, §4.3.1 path aggregation, §4.4 SimHash refinement) and
/// `vsse-records` (§4.3.2 characteristic weights and the HMM descent). Logarithms are natural
/// (the paper writes `log` without a base; the base only scales every weight alike).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct VsseParams {
    /// T1 (§5.2): a leaf is a seed ("effective text node") when vvtc_a / MaxVVTC ≥ T1
    /// (vvtc: eq. 1). The paper finds 0.6-0.8 good and fixes 0.8 for its experiments.
    pub t1: f64,
    /// Fewest seeds: when fewer than this many leaves pass T1, the leaves with the highest
    /// vvtc (> 0) are taken instead, as in the paper's top-k example (§4.2, "node (1)-(3) will
    /// be extracted if top-3 nodes are reserved"). Default 2, a reading: eq. 2 aggregates
    /// *pairs* of tag paths, and with a single seed there is no pair, so the content area
    /// would be that one paragraph; 2 is the smallest number that forms a pair. Set 1 for T1
    /// alone.
    pub min_seeds: usize,
    /// T2 (§5.2): a paragraph of the content area is relevant when the Hamming distance of
    /// its SimHash to the SimHash of title + description is at most T2. Paper: 3 (the value
    /// Manku et al. use for 64-bit near-duplicate fingerprints).
    pub t2: u32,
    /// SimHash fingerprint width in bits (§4.4, SimHash, the paper's ref. 31). The paper does
    /// not give it; 64 is the width of Charikar's and Manku et al.'s fingerprints, the setting
    /// in which a distance of 3 is the usual cut-off. At most 64.
    pub simhash_bits: u32,
    /// L, the empirical constant of eq. 4 (weight(k) = TF_k · [log(N/N_k) + L]). The paper
    /// gives no value. 1 (the usual "+1" smoothing of IDF) keeps a keyword found in every
    /// paragraph, and every keyword of the one-paragraph title text, at weight TF_k instead
    /// of 0.
    pub idf_constant: f64,
    /// Also submit paragraphs that carry punctuation to the SimHash test. §4.4 reads as
    /// testing every paragraph of the area; §4.3.1 says the aggregation exists to recover
    /// text "with no punctuation marks" (headings, highlights) and lets in noise such as
    /// image titles, i.e. punctuation-free text. Default `false`: punctuated paragraphs of the
    /// area are kept on the strength of the punctuation characteristic (§4.2), and only
    /// punctuation-free ones must pass T2; with `true` (the literal reading) a 64-bit
    /// fingerprint within distance 3 of the title is required of every paragraph, which
    /// removes nearly all body text.
    pub refine_punctuated: bool,
    /// Words that are never keywords (§4.4 takes keywords from the NLPIR segmenter, which
    /// drops function words; `text::words` does the segmenting here). Compared lower-cased.
    pub stop_words: Vec<String>,
    /// Attribute-value delimiters, the punctuation characteristic of structured records
    /// (§4.2: "':' is used to separate an attribute and its value"; §4.3.2). The full-width
    /// colon is the same mark on Chinese pages, which the paper's data sets are.
    pub delimiters: Vec<char>,
    /// The attribute dictionary of §4.3.2 ("popular attribute names, such as 'goods name',
    /// 'price'"). A leaf satisfies the characteristic when its label (the text before the
    /// first delimiter, or the whole text), trimmed of punctuation and lower-cased, equals an
    /// entry. The paper does not publish its dictionary; this one holds common product and
    /// book attributes in English and Chinese.
    pub attribute_names: Vec<String>,
    /// Leave out nodes that are not rendered (display:none, visibility:hidden, zero size).
    /// The paper parses source HTML with Jsoup and only pre-prunes `<script>` and similar
    /// tags (§4.1), so it sees hidden text. Default `false`, the paper's behaviour.
    pub drop_hidden: bool,
    /// Emission weight b(O_i) of the HMM (§4.3.2 B): WVC(i) (eq. 3) divided by ln N, i.e.
    /// measured in units of one leaf that satisfies one characteristic (n_k = 1 gives
    /// 1·ln(N/1)). The paper gives b only as "the weight of the node". With raw WVC, the
    /// descent step δ_k = δ_{k-1}·a_ji·b(O_i) grows whenever WVC(i) exceeds the parent's
    /// child count, which for a list of fewer than about 2·ln N records walks into a single
    /// record; in these units it stops at a list of more records than characteristics.
    /// Default `true`.
    pub normalize_emission: bool,
}

impl Default for VsseParams {
    fn default() -> Self {
        let s = |v: &[&str]| v.iter().map(|w| w.to_string()).collect::<Vec<String>>();
        VsseParams {
            t1: 0.8,
            min_seeds: 2,
            t2: 3,
            simhash_bits: 64,
            idf_constant: 1.0,
            refine_punctuated: false,
            stop_words: s(&[
                "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be",
                "been", "but", "by", "can", "could", "did", "do", "does", "for", "from", "had",
                "has", "have", "he", "her", "his", "how", "i", "if", "in", "into", "is", "it",
                "its", "me", "more", "my", "no", "not", "of", "on", "one", "or", "our", "out",
                "she", "so", "than", "that", "the", "their", "them", "then", "there", "these",
                "they", "this", "to", "up", "us", "was", "we", "were", "what", "when", "which",
                "who", "will", "with", "would", "you", "your", "的", "了", "是", "在", "和", "也",
                "有", "就", "不", "与", "及", "等", "这", "那",
            ]),
            delimiters: vec![':', '：'],
            attribute_names: s(&[
                "goods name",
                "product name",
                "name",
                "price",
                "list price",
                "sale price",
                "brand",
                "model",
                "color",
                "colour",
                "size",
                "weight",
                "material",
                "dimensions",
                "sku",
                "item number",
                "isbn",
                "author",
                "publisher",
                "publication date",
                "pages",
                "language",
                "category",
                "origin",
                "manufacturer",
                "warranty",
                "capacity",
                "stock",
                "availability",
                "rating",
                "商品名称",
                "名称",
                "价格",
                "品牌",
                "型号",
                "颜色",
                "尺寸",
                "重量",
                "材质",
                "产地",
                "作者",
                "出版社",
                "出版时间",
                "页数",
                "类别",
            ]),
            drop_hidden: false,
            normalize_emission: true,
        }
    }
}

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
        TagFilter {
            enabled,
            tags: tags.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// Which elements the link-list remover tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
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
    /// Elements the hidden-node filter never removes: `br`, `wbr`. Chromium gives a line
    /// break no box of its own (zero size, so not `rendered`), yet it is the paragraph break
    /// of the text output.
    pub hidden_exempt_tags: Vec<String>,

    // ---- pass 2: algorithmic filters (§3 "second set"), in the paper's order ----
    /// Advertisement remover (§3): an element whose `src` or `href` host is on
    /// [`CrunchParams::ad_hosts`] (the host itself or a subdomain of it) is removed.
    pub remove_ads: bool,
    /// Ad-server host names. The paper used Hanzlik's hosts file (ref. 6); the default is a short
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
            hidden_exempt_tags: v(&["br", "wbr"]),
            remove_ads: true,
            ad_hosts: super::hosts::parse_ad_hosts(super::hosts::DEFAULT_AD_HOSTS),
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
                "img", "picture", "svg", "iframe", "object", "embed", "video", "audio", "canvas",
                "input", "select", "textarea",
            ]),
            retain_removed_links: false,
            retain_ad_links: true,
        }
    }
}

impl CrunchParams {
    /// Replace the ad-server list with the hosts in `text`: one host per line, or hosts-file
    /// lines (`0.0.0.0 ads.example.com`); `#` starts a comment. See
    /// [`super::hosts::parse_ad_hosts`].
    pub fn load_ad_hosts(&mut self, text: &str) {
        self.ad_hosts = super::hosts::parse_ad_hosts(text);
    }
}

// ---------------------------------------------------------------------------------------------
// Griazev & Ramanauskaite, content blocks.
// ---------------------------------------------------------------------------------------------

/// Parameters of `blocks`: Griazev & Ramanauskaitė (2023), "Web Page Content Block
/// Identification with Extended Block Properties", Appl. Sci. 13(9) 5680, Algorithms 1-3.
///
/// The paper segments a page into a tree of blocks, each with a maximum and a minimum
/// boundary (§3.3, Algorithm 2) and variation groups among siblings (§3.4, Algorithm 3). It
/// defines no "main content"; `main_share` and `link_dominated` are this crate's documented
/// rule for `kept` (see their docs).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct BlocksParams {
    /// Normalized Hamming distance between a tag's clean text and its first child's clean
    /// text at or above which the descent stops (§3.3: "The threshold value was set at 0.1
    /// ... As soon as we get a comparison value of 0.1 or above we know that the minimum
    /// boundary was reached during the previous iteration"; Algorithm 2 `until distance >=
    /// 0.1`). Value 0.1. Strings of unequal length are compared position by position over
    /// the longer one, each missing position counting as a mismatch (Bookstein et al., ref. 34,
    /// generalize Hamming distance to unequal lengths; the paper gives no formula): d =
    /// (mismatches + |len_a − len_b|) / max(len_a, len_b), in Unicode scalar values; two
    /// empty strings have d = 0.
    pub hamming_threshold: f64,
    /// Tags counted by `getImageCount` (Algorithm 2; §3.3 "we count the occurrences of image
    /// tags within parent and child blocks"), and which make a text-less block non-empty
    /// (Algorithm 1 `if analyzed block is not empty`). The paper names `<img>`; inline
    /// `<svg>` is added because it is today's form of the paper's icon case (§3.3, social
    /// media icons) and the snapshot keeps it as an opaque leaf. These elements are atomic:
    /// the descent never goes inside them.
    pub image_tags: Vec<String>,
    /// Structural similarity above which two sibling blocks are variants (§3.4: "a sequence
    /// matcher similarity of more than 0.92"; Algorithm 3 `if similarity > 0.92`), strictly
    /// greater. Value 0.92. The similarity is difflib's `SequenceMatcher(None, a, b,
    /// autojunk=False).ratio()` (§3.4, ref. 35: "with the autojunk heuristic disabled") over each
    /// block's structure: the pre-order sequence of opening and closing tag tokens of its
    /// rendered elements (`div`, `img`, `/img`, ..., `/div`), no text and no attributes (§3.4
    /// "we look at the structure, no content is evaluated"; §3.1 compares "the path of
    /// tags"). Closing tokens are included so that nesting is part of the structure.
    pub variation_threshold: f64,
    /// `kept` rule, not from the paper: starting at the root block, descend into the child
    /// block holding more than this share of the current block's visible non-link characters
    /// (a strict majority, so at most one child qualifies) until no child does, or the child
    /// is a text unit (see `own_text_share`); the block reached is the main content, together
    /// with its variation group (its variants share its structure and role, §3.4). Value 0.5.
    /// Chosen over "largest leaf block" because article paragraphs with inline links or
    /// emphasis are neither leaf blocks nor variants of plain paragraphs (their tag
    /// structures differ), so the main content is a block whose text is spread over many
    /// child blocks, which the majority descent finds.
    pub main_share: f64,
    /// `kept` rule, not from the paper: a block is a text unit (a paragraph, possibly with
    /// inline links or emphasis as child blocks) when more than this share of its visible
    /// non-link characters lies outside its child blocks. The majority descent never enters a
    /// text unit, so an article with one long paragraph is kept whole rather than reduced to
    /// that paragraph. Value 0.5.
    pub own_text_share: f64,
    /// `kept` rule, not from the paper: sibling blocks that come before the main block under
    /// the same parent block, hold a rendered element with one of these tags and are not
    /// link-dominated are kept too. Value `["h1"]`. The majority descent often ends in the
    /// article body (`<main><h1/><p class=byline/><article/></main>`: the `<article>` holds
    /// most of the text), which would drop the headline that human gold texts include.
    pub headline_tags: Vec<String>,
    /// `kept` rule, not from the paper: a direct child block of a main-content block whose
    /// visible link characters are more than this share of its visible characters (share
    /// bars, tag lists, "related" link lists inside an article) is dropped. Value 0.5. Only
    /// direct child blocks are tested so that links inside paragraphs (child blocks of the
    /// paragraph blocks) stay. A child block with no text (an image) is kept.
    pub link_dominated: f64,
}

impl Default for BlocksParams {
    fn default() -> Self {
        BlocksParams {
            hamming_threshold: 0.1,
            image_tags: vec!["img".into(), "svg".into()],
            variation_threshold: 0.92,
            main_share: 0.5,
            own_text_share: 0.5,
            headline_tags: vec!["h1".into()],
            link_dominated: 0.5,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Algorithm;

    #[test]
    fn defaults_are_the_papers_constants() {
        let p = Params::default();
        // Song et al.: zero denominators set to 1 (§3.2-3.3), N(0,1) over the widest span
        // (§3.4.1), the (1, 2, 1) sibling kernel, DensitySum over text children too.
        assert_eq!(p.density.zero_denominator, 1.0);
        assert_eq!(p.density.vi_sigmas, 1.0);
        assert_eq!(p.density.smoothing_weights, [1.0, 2.0, 1.0]);
        assert!(p.density.text_children_in_density_sum);
        assert!(!p.density.drop_hidden && !p.density.drop_fixed);
        // VSSE: T1 0.8, two seeds, T2 3, 64-bit SimHash.
        assert_eq!(
            (p.vsse.t1, p.vsse.min_seeds, p.vsse.t2, p.vsse.simhash_bits),
            (0.8, 2, 3, 64)
        );
        // Griazev & Ramanauskaite: Hamming threshold 0.1 (§3.3), variations at 0.92.
        assert_eq!(p.blocks.hamming_threshold, 0.1);
        assert_eq!(p.blocks.variation_threshold, 0.92);
        // The ensemble: htd, blocks, vsse, 2 of 3.
        assert_eq!(
            p.ensemble.voters,
            vec![Algorithm::Htd, Algorithm::Blocks, Algorithm::Vsse]
        );
        assert_eq!(p.ensemble.min_votes, 2);
        // learned: the expected-F1 decision, explanations on, fallback 0.5.
        assert_eq!(p.learned.rule(), Decision::ExpectedF1);
        assert_eq!(p.learned.cut(0.5), None);
        assert_eq!(p.learned.empty_fallback, 0.5);
        assert_eq!(p.learned.log_odds_shift, -0.5);
        assert!(!p.learned.keep_quoted_copies);
        assert!(p.learned.explain);
        assert!(!p.text_only().learned.explain);
    }

    #[test]
    fn a_partial_params_file_overrides_only_what_it_names() {
        let json = r#"{"density": {"vi_sigmas": 2.0}, "learned": {"threshold": 0.4}}"#;
        let p: Params = serde_json::from_str(json).unwrap();
        assert_eq!(p.density.vi_sigmas, 2.0);
        assert_eq!(p.density.zero_denominator, 1.0);
        assert_eq!(p.learned.threshold, Some(0.4));
        // Setting a threshold selects the threshold decision.
        assert_eq!(p.learned.rule(), Decision::Threshold);
        assert_eq!(p.learned.cut(0.7), Some(0.4));
        let d = serde_json::to_value(Params::default()).unwrap();
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(v["vsse"], d["vsse"]);
        assert_eq!(v["crunch"], d["crunch"]);
        // Written and read again, the parameters are the same.
        let back: Params = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(serde_json::to_value(&back).unwrap(), v);
        // An empty object is the defaults.
        let empty: Params = serde_json::from_str("{}").unwrap();
        assert_eq!(serde_json::to_value(&empty).unwrap(), d);
    }

    #[test]
    fn unknown_fields_are_ignored_and_wrong_types_refused() {
        // The current behaviour of `--params`: serde's default, no deny_unknown_fields.
        let p: Params = serde_json::from_str(r#"{"density": {"no_such_field": 1}}"#).unwrap();
        assert_eq!(p.density.vi_sigmas, 1.0);
        assert!(serde_json::from_str::<Params>(r#"{"density": {"vi_sigmas": "two"}}"#).is_err());
        assert!(serde_json::from_str::<Params>(r#"{"learned": {"decision": "best"}}"#).is_err());
        let p: Params = serde_json::from_str(r#"{"learned": {"decision": "threshold"}}"#).unwrap();
        assert_eq!(p.learned.rule(), Decision::Threshold);
        assert_eq!(p.learned.cut(0.6), Some(0.6), "the model's own threshold");
    }
}
