//! Annotated screenshots (placeholder until the writer lands).
use crate::extract::Extraction;
use crate::snapshot::Tree;

/// Drawing options.
#[derive(Debug, Clone, Default)]
pub struct AnnotateOptions {}

/// Not available yet.
pub fn annotate(_png: &[u8], _tree: &Tree, _ex: &Extraction, _o: &AnnotateOptions) -> Result<Vec<u8>, crate::Error> {
    Err(crate::Error::Output { path: "annotation".into(), message: "annotation is not built yet".into() })
}
