//! Placeholder until the algorithm lands (issue 3).
use super::params::VsseParams;
use super::{Algorithm, Extraction};
use crate::snapshot::Tree;

/// Not implemented yet: keeps nothing.
pub fn extract(tree: &Tree, _p: &VsseParams) -> Extraction {
    Extraction::empty(Algorithm::Vsse, tree.len())
}

/// Not implemented yet: keeps nothing.
pub fn extract_records(tree: &Tree, _p: &VsseParams) -> Extraction {
    Extraction::empty(Algorithm::VsseRecords, tree.len())
}
