//! Markdown writer (placeholder until the converter lands: the text writer's paragraphs).
use crate::extract::Extraction;
use crate::snapshot::Tree;

/// The extraction as markdown.
pub fn render(tree: &Tree, ex: &Extraction) -> String {
    super::text::paragraphs(tree, ex).join("\n\n") + "\n"
}
