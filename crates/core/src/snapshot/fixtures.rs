//! Hand-made pages shared by the core's unit tests.

use super::{rect, Snapshot, SnapshotBuilder};

/// A navigation bar with one link above an article of four paragraphs of prose.
pub(crate) fn nav_and_article() -> Snapshot {
    let mut b = SnapshotBuilder::new(1000.0);
    let nav = b.el(0, "nav", rect(0.0, 0.0, 1000.0, 40.0));
    let a = b.el(nav, "a", rect(0.0, 0.0, 80.0, 20.0));
    b.text(a, "Home");
    let art = b.el(0, "article", rect(100.0, 60.0, 700.0, 600.0));
    for k in 0..4 {
        let p = b.el(art, "p", rect(100.0, 60.0 + 100.0 * k as f64, 700.0, 90.0));
        b.text(
            p,
            "A paragraph of the article, with commas, full stops and enough words to count.",
        );
    }
    b.build()
}
