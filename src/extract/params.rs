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

/// Parameters of `wang` (filled in with the algorithm).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct WangParams {}

// ---------------------------------------------------------------------------------------------
// VSSE, punctuation and tag paths.
// ---------------------------------------------------------------------------------------------

/// Parameters of `vsse` and `vsse-records` (filled in with the algorithm).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct VsseParams {}

// ---------------------------------------------------------------------------------------------
// Gupta, Kaiser & Stolfo, Crunch.
// ---------------------------------------------------------------------------------------------

/// Parameters of `crunch` (filled in with the algorithm).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CrunchParams {}

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
    /// the longer one, each missing position counting as a mismatch (Bookstein et al. [34]
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
    /// autojunk=False).ratio()` (§3.4 [35]: "with the autojunk heuristic disabled") over each
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
            link_dominated: 0.5,
        }
    }
}
