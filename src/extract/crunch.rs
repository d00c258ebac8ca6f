//! Placeholder until the algorithm lands (issue 3).
use super::params::CrunchParams;
use super::{Algorithm, Extraction};
use crate::snapshot::Tree;

/// Not implemented yet: keeps nothing.
pub fn extract(tree: &Tree, _p: &CrunchParams) -> Extraction {
    Extraction::empty(Algorithm::Crunch, tree.len())
}
