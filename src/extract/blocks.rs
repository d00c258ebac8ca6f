//! Placeholder until the algorithm lands (issue 3).
use super::params::BlocksParams;
use super::{Algorithm, Extraction};
use crate::snapshot::Tree;

/// Not implemented yet: keeps nothing.
pub fn extract(tree: &Tree, _p: &BlocksParams) -> Extraction {
    Extraction::empty(Algorithm::Blocks, tree.len())
}
