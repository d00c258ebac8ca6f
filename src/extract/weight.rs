//! Placeholder until the algorithm lands (issue 3).
use super::params::WangParams;
use super::{Algorithm, Extraction};
use crate::snapshot::Tree;

/// Not implemented yet: keeps nothing.
pub fn extract(tree: &Tree, _p: &WangParams) -> Extraction {
    Extraction::empty(Algorithm::Wang, tree.len())
}
