//! Scoring: pure, synchronous algorithms over a [`Snapshot`]. Nothing here is async or knows
//! about Chromium; every algorithm is `fn(&Tree, &Params) -> Extraction`.
//!
//! One file per paper:
//! - `density`: Song, Sun & Liao — TD, CTD, HTD, DensitySum, threshold, smoothing;
//! - `visual`: Song et al. §3.4.1 — Gaussian visual importance from the rendered boxes;
//! - `weight`: Wang & Liu — leaf NodeImp, WidthAttr-weighted subtree weight;
//! - `vsse`: VSSE — punctuation vvtc, tag paths, SimHash, HMM records;
//! - `crunch`: Gupta et al. — Crunch DOM filters;
//! - `blocks`: Griazev & Ramanauskaite — content blocks and variations;
//! - `learned`: sightline's own classifier over every signal above (gradient-boosted trees);
//! - `page_type`: the page's type (article, product, forum, ...) from its markup and URL;
//! - `params`: every constant, with its source.

pub mod blocks;
pub mod crunch;
pub mod density;
pub mod details;
pub mod ensemble;
pub(crate) mod hosts;
pub mod learned;
pub mod links;
pub mod metadata;
pub mod page_type;
pub mod params;
pub mod text;
pub(crate) mod visual;
pub mod vsse;
pub mod weight;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use details::Details;
pub use params::Params;

use self::learned::model::Model;

use crate::snapshot::{NodeId, Snapshot, Tree};

/// An extraction algorithm.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    PartialOrd,
    Ord,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// CETD-DS: Text Density (eq. 1) with DensitySum.
    Td,
    /// CECTD-DS: Composite Text Density (eq. 2) with DensitySum.
    Ctd,
    /// CEHTD-DS: Hybrid Text Density (eq. 4, visual importance) with DensitySum.
    Htd,
    /// CECTD-S: Composite Text Density with sibling smoothing instead of DensitySum.
    CtdSmooth,
    /// Wang & Liu: maximum-weight subtree.
    Wang,
    /// VSSE: punctuation-based content areas.
    Vsse,
    /// VSSE §4.3.2: attribute-value records of a structured page.
    VsseRecords,
    /// Gupta et al.: Crunch filter pipeline.
    Crunch,
    /// Griazev & Ramanauskaite: content block tree.
    Blocks,
    /// Majority vote of several algorithms per text node.
    Ensemble,
    /// sightline's learned layout classifier (gradient-boosted trees over every signal).
    Learned,
}

/// The algorithm `sightline extract` runs when none is named, and the one the quality gate
/// holds to every bound (F1, precision, recall, failures, empty outputs; see
/// [`crate::eval::gate`]). Changing it needs new floors: `scripts/quality-gate --update`.
pub const DEFAULT_ALGORITHM: Algorithm = Algorithm::Learned;

impl Algorithm {
    /// Every algorithm, in the order they run and are reported. What `all` stands for in
    /// `extract --algorithm` and the services' `--algorithm` (one render, every extraction,
    /// `vsse-records`' records included).
    pub const ALL: [Algorithm; 11] = [
        Algorithm::Td,
        Algorithm::Ctd,
        Algorithm::Htd,
        Algorithm::CtdSmooth,
        Algorithm::Wang,
        Algorithm::Vsse,
        Algorithm::VsseRecords,
        Algorithm::Crunch,
        Algorithm::Blocks,
        Algorithm::Ensemble,
        Algorithm::Learned,
    ];
    /// The algorithms whose kept text is the page's main content ([`Self::is_main_content`]),
    /// in [`Self::ALL`]'s order. What `all` (and no `--algorithm`) stands for in `eval`: the
    /// benchmark's gold is each page's main text, so only these can be scored against it.
    pub fn main_content() -> Vec<Algorithm> {
        Self::ALL
            .into_iter()
            .filter(|a| a.is_main_content())
            .collect()
    }
    /// Does the algorithm extract a page's main content? Every one does but `vsse-records`,
    /// which extracts the attribute-value records of a structured page (VSSE §4.3.2): its kept
    /// nodes are the records (in `details.records`), not the article.
    pub const fn is_main_content(self) -> bool {
        !matches!(self, Algorithm::VsseRecords)
    }
    /// Parse a list of algorithms as the command line writes them: names separated by commas,
    /// over one or more arguments. `all` anywhere in it, or no name at all, stands for `all`,
    /// the command's whole set ([`Self::ALL`] or [`Self::main_content`]).
    pub fn parse_list<'a>(
        args: impl IntoIterator<Item = &'a str>,
        all: &[Algorithm],
    ) -> Result<Vec<Algorithm>, String> {
        let names: Vec<&str> = args
            .into_iter()
            .flat_map(|a| a.split(','))
            .map(str::trim)
            .collect();
        if names.is_empty() || names.contains(&"all") {
            return Ok(all.to_vec());
        }
        names.into_iter().map(str::parse).collect()
    }
    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Td => "td",
            Algorithm::Ctd => "ctd",
            Algorithm::Htd => "htd",
            Algorithm::CtdSmooth => "ctd-smooth",
            Algorithm::Wang => "wang",
            Algorithm::Vsse => "vsse",
            Algorithm::VsseRecords => "vsse-records",
            Algorithm::Crunch => "crunch",
            Algorithm::Blocks => "blocks",
            Algorithm::Ensemble => "ensemble",
            Algorithm::Learned => "learned",
        }
    }
    /// The paper's name for the method.
    pub fn paper_name(self) -> &'static str {
        match self {
            Algorithm::Td => "CETD-DS (Song et al. 2013)",
            Algorithm::Ctd => "CECTD-DS (Song et al. 2013)",
            Algorithm::Htd => "CEHTD-DS (Song et al. 2013)",
            Algorithm::CtdSmooth => "CECTD-S (Song et al. 2013)",
            Algorithm::Wang => "DOM tree and weight value (Wang & Liu)",
            Algorithm::Vsse => "VSSE content areas",
            Algorithm::VsseRecords => "VSSE structured records",
            Algorithm::Crunch => "Crunch (Gupta et al.)",
            Algorithm::Blocks => "Content blocks (Griazev & Ramanauskaite)",
            Algorithm::Ensemble => "Majority vote of htd, blocks, vsse",
            Algorithm::Learned => "Learned layout classifier (sightline)",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::ALL
            .iter()
            .copied()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                format!(
                    "unknown algorithm `{s}`: expected one of {} or all",
                    names.join(", ")
                )
            })
    }
}

/// Per-node scores of the density family, each indexed by node id. Absent values are 0.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct DensityScores {
    /// Text Density, eq. 1.
    pub td: Vec<f64>,
    /// Composite Text Density, eq. 2.
    pub ctd: Vec<f64>,
    /// Visual Importance, eq. 3 (text leaves; elements hold the VI of their own box).
    pub vi: Vec<f64>,
    /// Hybrid Text Density, eq. 4.
    pub htd: Vec<f64>,
    /// DensitySum of the density the algorithm used, eq. 5.
    pub density_sum: Vec<f64>,
}

/// The result of one algorithm on one snapshot.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Extraction {
    pub algorithm: Algorithm,
    /// For each node: is it part of the main content?
    pub kept: Vec<bool>,
    /// The density threshold (density algorithms), or the algorithm's own cut-off.
    pub threshold: Option<f64>,
    /// Per-node density scores (density algorithms only).
    pub scores: Option<DensityScores>,
    /// Algorithm-specific report (weights, records, block tree, filter counts), typed.
    pub details: Details,
}

impl Extraction {
    /// An extraction that keeps nothing.
    pub fn empty(algorithm: Algorithm, n: usize) -> Extraction {
        Extraction {
            algorithm,
            kept: vec![false; n],
            threshold: None,
            scores: None,
            details: Details::None,
        }
    }
    /// The kept nodes whose parent is not kept: the roots of the content subtrees, in
    /// document order.
    pub fn roots(&self, tree: &Tree) -> Vec<NodeId> {
        (0..self.kept.len())
            .filter(|&i| self.kept[i] && tree.parent(i).is_none_or(|p| !self.kept[p]))
            .collect()
    }
    /// Did the algorithm keep any text?
    pub fn has_text(&self, tree: &Tree) -> bool {
        (0..self.kept.len()).any(|i| self.kept[i] && tree.own_chars[i] > 0)
    }
}

/// Run one algorithm on a snapshot.
pub fn extract(snap: &Snapshot, algorithm: Algorithm, params: &Params) -> Extraction {
    let tree = Tree::new(snap);
    extract_tree(&tree, algorithm, params)
}

/// Run one algorithm on an already built tree (lets `--algorithm all` share the counts).
/// `learned` runs the model built into the binary.
pub fn extract_tree(tree: &Tree, algorithm: Algorithm, params: &Params) -> Extraction {
    extract_tree_with(tree, algorithm, params, None)
}

/// [`extract_tree`] with the `learned` model to run instead of the one built into the binary
/// (`--model FILE`, a file written by `sightline train --model FILE`; see
/// [`learned::model::Model::from_file`]). `None`: the built-in model. The other algorithms
/// ignore it.
pub fn extract_tree_with(
    tree: &Tree,
    algorithm: Algorithm,
    params: &Params,
    model: Option<&Model>,
) -> Extraction {
    match algorithm {
        Algorithm::Td | Algorithm::Ctd | Algorithm::Htd | Algorithm::CtdSmooth => {
            density::extract(tree, algorithm, &params.density)
        }
        Algorithm::Wang => weight::extract(tree, &params.wang),
        Algorithm::Vsse => vsse::extract(tree, &params.vsse),
        Algorithm::VsseRecords => vsse::extract_records(tree, &params.vsse),
        Algorithm::Crunch => crunch::extract(tree, &params.crunch),
        Algorithm::Blocks => blocks::extract(tree, &params.blocks),
        Algorithm::Ensemble => ensemble::extract(tree, &params.ensemble, params, model),
        Algorithm::Learned => learned::extract(tree, params, model),
    }
}

#[cfg(test)]
mod tests {
    use super::Algorithm;

    #[test]
    fn main_content_is_every_algorithm_but_the_records() {
        let want: Vec<Algorithm> = Algorithm::ALL
            .into_iter()
            .filter(|a| *a != Algorithm::VsseRecords)
            .collect();
        assert_eq!(Algorithm::main_content(), want);
    }

    #[test]
    fn a_list_names_algorithms_or_all_of_a_set() {
        let main = &Algorithm::main_content()[..];
        assert_eq!(
            Algorithm::parse_list(["all"], &Algorithm::ALL),
            Ok(Algorithm::ALL.to_vec())
        );
        assert_eq!(Algorithm::parse_list([], main), Ok(main.to_vec()));
        assert_eq!(
            Algorithm::parse_list(["htd", "all"], main),
            Ok(main.to_vec())
        );
        assert_eq!(
            Algorithm::parse_list(["htd, wang", "vsse-records"], main),
            Ok(vec![
                Algorithm::Htd,
                Algorithm::Wang,
                Algorithm::VsseRecords
            ])
        );
        let err = Algorithm::parse_list(["htd,nope"], main).unwrap_err();
        assert!(err.starts_with("unknown algorithm `nope`"), "{err}");
        assert!(Algorithm::parse_list([""], main).is_err());
    }
}
