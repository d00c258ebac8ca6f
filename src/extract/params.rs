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
// Gupta, Kaiser & Stolfo, Crunch.
// ---------------------------------------------------------------------------------------------

/// Parameters of `crunch` (filled in with the algorithm).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CrunchParams {}

// ---------------------------------------------------------------------------------------------
// Griazev & Ramanauskaite, content blocks.
// ---------------------------------------------------------------------------------------------

/// Parameters of `blocks` (filled in with the algorithm).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BlocksParams {}
