//! Algorithm-specific reports, typed: one variant of [`Details`] per algorithm, each a serde
//! struct. They serialise untagged, so a JSON record's `details` object is the variant's
//! fields (schema below each struct); writers read the typed values and never parse JSON.
//! Every box is `[x, y, w, h]` in CSS px, document coordinates, like every other box in the
//! output.

use serde::{Deserialize, Serialize};

use super::params::{Decision, LinkListScope};
use crate::snapshot::Rect;

/// A rendered box: `[x, y, w, h]`, CSS px, document coordinates.
pub type Bbox = [f64; 4];

/// What an algorithm reports beside the kept nodes.
#[derive(Debug, Clone, Default, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Details {
    /// Nothing to report (serialises as `null`).
    #[default]
    None,
    /// `td`, `ctd`, `htd`, `ctd-smooth`.
    Density(DensityDetails),
    /// `wang`.
    Wang(WangDetails),
    /// `vsse`.
    Vsse(VsseDetails),
    /// `vsse-records`.
    VsseRecords(RecordsDetails),
    /// `crunch`.
    Crunch(CrunchDetails),
    /// `blocks`.
    Blocks(BlocksDetails),
    /// `ensemble`.
    Ensemble(EnsembleDetails),
    /// `learned`: each kept block's probability and top feature contributions, every unit's
    /// probability heat.
    Learned(LearnedDetails),
}

impl Details {
    /// The report as a JSON value (what the JSON writer emits under `details`).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// Density family: the node with the largest DensitySum (eq. 5).
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct DensityDetails {
    pub max_density_sum_node: String,
    pub max_density_sum: f64,
}

/// Wang & Liu: page facts, every candidate subtree (eq. 2) and the chosen one (eq. 3).
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct WangDetails {
    pub title: String,
    pub meta_keywords: Vec<String>,
    pub page_width: f64,
    pub subtrees: Vec<WangSubtree>,
    pub chosen: Option<WangChosen>,
}

/// One candidate subtree.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct WangSubtree {
    pub root: String,
    pub width_attr: f64,
    pub mean_node_imp: f64,
    pub weight: f64,
    /// Number of leaves.
    pub leaves: usize,
}

/// The chosen subtree with its leaves (eq. 1 terms).
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct WangChosen {
    pub root: String,
    pub width_attr: f64,
    pub mean_node_imp: f64,
    pub weight: f64,
    pub leaves: Vec<WangLeaf>,
}

/// A leaf and its NodeImp terms.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct WangLeaf {
    pub path: String,
    pub word_num: usize,
    pub link_num: usize,
    pub tag_num: usize,
    pub node_imp: f64,
}

/// VSSE: seeds (eq. 1), the content area (eq. 2) and each paragraph's SimHash decision.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct VsseDetails {
    pub leaves: usize,
    pub max_vvtc: f64,
    pub seeds: Vec<VsseSeed>,
    pub area: Option<VsseArea>,
    /// Hex SimHash of title + description.
    pub title_simhash: Option<String>,
    pub paragraphs: Vec<VsseParagraph>,
}

/// A seed leaf.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct VsseSeed {
    pub path: String,
    pub vvtc: f64,
    /// vvtc / MaxVVTC.
    pub ratio: f64,
}

/// The aggregated content area.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct VsseArea {
    pub path: String,
    pub tag_path: String,
    pub prefix_len: usize,
}

/// One paragraph of the area.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct VsseParagraph {
    pub path: String,
    pub punctuated: bool,
    pub hamming: Option<u32>,
    pub kept: bool,
}

/// VSSE structured records (§4.3.2): the HMM path and the records under its area.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct RecordsDetails {
    pub leaves: usize,
    pub characteristics: [&'static str; 2],
    pub characteristic_leaves: [usize; 2],
    pub area: Option<String>,
    pub path: Vec<HmmStep>,
    pub records: Vec<VsseRecord>,
}

/// One node of the Viterbi descent.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct HmmStep {
    pub path: String,
    pub tag: String,
    pub wvc: f64,
    pub log_delta: f64,
}

/// One attribute-value record.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct VsseRecord {
    pub path: String,
    pub text: String,
    pub attribute: Option<String>,
    pub value: String,
}

/// Crunch: each filter's removals, both link-list scopes, and the retained links.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct CrunchDetails {
    pub filters: Vec<FilterReport>,
    pub link_lists: LinkListReport,
    pub retainer_enabled: bool,
    pub retained_links: Vec<RetainedLink>,
    pub removed_nodes: usize,
    pub kept_nodes: usize,
}

/// One filter of the pipeline.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct FilterReport {
    pub name: &'static str,
    pub pass: u8,
    pub enabled: bool,
    /// Subtree roots removed.
    pub removed: usize,
    /// Their CSS paths (at most `MAX_REPORTED_PATHS`).
    pub paths: Vec<String>,
}

/// The link-list filter's settings and what each scope would remove.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct LinkListReport {
    pub scope: LinkListScope,
    pub link_text_ratio: f64,
    pub chars_per_word: f64,
    pub would_remove: WouldRemove,
}

/// What each link-list scope would remove.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct WouldRemove {
    #[serde(rename = "table-cells")]
    pub table_cells: ScopeReport,
    pub blocks: ScopeReport,
}

/// Removals of one scope.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct ScopeReport {
    pub count: usize,
    pub paths: Vec<String>,
}

/// A link removed by a filter and kept by the retainer.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct RetainedLink {
    pub text: String,
    pub href: String,
}

/// Content blocks: the block tree, variation groups, and the blocks chosen as content.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct BlocksDetails {
    pub blocks: Vec<BlockReport>,
    pub groups: Vec<GroupReport>,
    pub main_blocks: Vec<usize>,
    pub headline_blocks: Vec<usize>,
    pub dropped_blocks: Vec<usize>,
}

/// One block: its maximum and minimum boundaries (Algorithm 2) and facts.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct BlockReport {
    pub id: usize,
    pub max: String,
    pub min: String,
    pub max_node: usize,
    pub min_node: usize,
    pub range: Vec<String>,
    /// Box of the maximum boundary.
    #[serde(rename = "box")]
    pub bbox: Bbox,
    /// Box of the minimum boundary.
    pub min_box: Bbox,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    pub variation_group: Option<usize>,
    pub chars: usize,
    pub link_chars: usize,
    pub images: usize,
}

/// A variation group (Algorithm 3).
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct GroupReport {
    pub id: usize,
    pub parent: Option<usize>,
    pub blocks: Vec<usize>,
}

/// Ensemble: who voted and the quorum.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct EnsembleDetails {
    pub voters: Vec<&'static str>,
    pub min_votes: usize,
}

/// One feature's share in a block's decision.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct Contribution {
    /// Feature name (see `extract::learned::schema::FEATURES` / `PASS2_FEATURES`).
    pub feature: String,
    /// The feature's value for this block.
    pub value: f64,
    /// Its contribution to the log-odds of "content" (Saabas: the change of the node value
    /// at every split on this feature along the block's path, summed over the trees);
    /// positive pushes towards content.
    pub contribution: f64,
}

/// One content block of the `learned` extraction with why it was kept.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct BlockExplanation {
    /// CSS path of the block element holding the text.
    pub path: String,
    /// The block element's box (CSS px).
    #[serde(rename = "box")]
    pub rect: Rect,
    /// Characters of the unit's text.
    pub chars: usize,
    /// Final probability of being content (pass 2).
    pub probability: f64,
    /// The first pass's probability (the unit's own features only).
    pub pass1_probability: f64,
    /// Largest pass-1 contributions by magnitude (the block's own features); empty when
    /// explanations are turned off ([`crate::extract::params::LearnedParams::explain`]).
    pub pass1_top: Vec<Contribution>,
    /// Largest pass-2 contributions by magnitude (the smoothing: neighbours' probabilities);
    /// empty when explanations are turned off.
    pub pass2_top: Vec<Contribution>,
    /// A reader comment kept with `--comments` (its `probability` is then the comment
    /// model's), not part of the article.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub comment: bool,
}

/// The `details` of a `learned` extraction (`--format json`).
///
/// ```text
/// { "model": string, "decision": "expected-f1" | "threshold", "threshold": number, "units": int,
///   "blocks": [ { "path", "box", "chars", "probability", "pass1_probability",
///                 "pass1_top": [ {"feature", "value", "contribution"} ], "pass2_top": [..] } ],
///   "heat": [ [x, y, w, h, probability], .. ]  every unit's block box and probability }
/// ```
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct LearnedDetails {
    /// The model's description (how it was trained).
    pub model: String,
    /// How the kept units were chosen from their probabilities.
    pub decision: Decision,
    /// The probability a unit of this page needed to be kept: the threshold, or with the
    /// expected-F1 decision the page's cutoff (its lowest kept probability).
    pub threshold: f64,
    /// Number of text units classified.
    pub units: usize,
    /// The kept units, in document order, with their explanations.
    pub blocks: Vec<BlockExplanation>,
    /// Every unit's block box and probability (`[x, y, w, h, p]`), for `--annotate`.
    pub heat: Vec<[f64; 5]>,
    /// Why nothing was classified (model failed to load), when that happened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}
