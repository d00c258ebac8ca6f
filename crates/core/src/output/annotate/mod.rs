//! The annotated screenshot (`--annotate FILE.png`): the full-page screenshot with the
//! extraction drawn over it from the real geometry, so a reader sees at a glance what the
//! extractor chose and why. The page itself is never modified; everything is drawn in Rust
//! over the decoded PNG.
//!
//! The screenshot is captured at scale 1 from document (0, 0), so a node's box (CSS px,
//! document coordinates) is its pixel rectangle. Box edges are rounded to the nearest pixel;
//! shapes outside the image (below a height-capped screenshot, negative, NaN or infinite
//! boxes) are clipped or skipped, never a panic.
//!
//! Layers, bottom to top (see [`annotate`]):
//! 1. heat: for the density algorithms, each text-bearing element (an element with a text
//!    child of its own) filled with a blue → yellow → red ramp of the algorithm's density (TD
//!    for `td`, CTD for `ctd` and `ctd-smooth`, HTD for `htd`), normalized by rank among those
//!    elements (lowest 0, highest 1, ties share their average rank), alpha 0.35. Rank, not a
//!    log scale, because the densities' ranges differ by orders of magnitude between
//!    algorithms and pages, and the ramp should always span the page's full range;
//!    For `learned` the heat is the model's probability that each text unit is content (its
//!    block's box, from `details.heat`), on the same ramp but absolute: 0 blue, 0.5 yellow,
//!    1 red;
//! 2. block tree (`blocks` only, under the same option as the heat): every block's maximum
//!    boundary box outlined, 1 px in a colour by depth, or 2 px in its variation group's
//!    colour with a faint fill of it when the block has variants;
//! 3. removed: the maximal not-kept subtrees that hold text, shaded grey (alpha 0.5): a
//!    rendered element with text, no kept node in its subtree, whose parent is `<body>` or
//!    holds kept content (is kept or an ancestor of a kept node);
//! 4. content: each content root ([`Extraction::roots`]) outlined 3 px in opaque green,
//!    inside its box;
//! 5. legend: a small panel at the top-left with a swatch and a label per drawn layer
//!    (labels in an embedded 5×7 bitmap font, drawn at twice that size).

use std::io::Cursor;

use image::{DynamicImage, ImageFormat};

mod canvas;
mod layers;
mod legend;
#[cfg(test)]
mod tests;

pub use self::canvas::over;
use self::canvas::Canvas;
use self::layers::{draw_blocks, draw_heat, draw_probability, paint_of};
pub use self::layers::{heat_cells, ramp, rank01, removed};
use self::legend::{draw_legend, Entry};
use crate::extract::{Algorithm, Extraction};
use crate::snapshot::Tree;
use crate::Error;

/// Which layers [`annotate`] draws. `Default` draws all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnnotateOptions {
    /// The algorithm's own overlay: the density heat map for `td`, `ctd`, `htd` and
    /// `ctd-smooth`; the block tree for `blocks`. Other algorithms have none.
    pub heat: bool,
    /// Shade the removed subtrees that hold text.
    pub shade_removed: bool,
    /// Outline the content roots.
    pub outline_content: bool,
}

impl Default for AnnotateOptions {
    fn default() -> Self {
        AnnotateOptions {
            heat: true,
            shade_removed: true,
            outline_content: true,
        }
    }
}

/// A colour with the straight (non-premultiplied) alpha it is drawn with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paint {
    pub rgb: [u8; 3],
    /// Opacity in [0, 1].
    pub alpha: f64,
}

const fn paint(r: u8, g: u8, b: u8, alpha: f64) -> Paint {
    Paint {
        rgb: [r, g, b],
        alpha,
    }
}

/// Outline of each content root: opaque green.
pub const CONTENT: Paint = paint(0, 200, 0, 1.0);
/// Width of the content outline in px, drawn inside the box.
pub const CONTENT_WIDTH: i64 = 3;
/// Shade over removed subtrees: half-transparent dark grey.
pub const REMOVED: Paint = paint(60, 60, 60, 0.5);
/// Opacity of the heat fill.
pub const HEAT_ALPHA: f64 = 0.35;
/// The heat ramp's stops at 0, 0.5 and 1: blue, yellow, red.
pub const HEAT_STOPS: [[u8; 3]; 3] = [[0, 0, 255], [255, 255, 0], [255, 0, 0]];
/// Outline colour of a block without variants, by depth in the block tree (cycled).
pub const BLOCK_DEPTH: [[u8; 3]; 4] = [[40, 40, 160], [110, 60, 200], [0, 130, 200], [170, 0, 170]];
/// Colour of each variation group (cycled by group id): outline 2 px and a faint fill.
pub const GROUP_COLOURS: [[u8; 3]; 6] = [
    [230, 120, 0],
    [0, 160, 160],
    [200, 0, 90],
    [120, 90, 0],
    [90, 0, 200],
    [0, 120, 40],
];
/// Opacity of a variation-group block's fill.
pub const GROUP_FILL_ALPHA: f64 = 0.12;

/// Draw the extraction over the screenshot `png` and return the new PNG. `tree` must be the
/// tree the extraction was made from. The image keeps its size; an input with an alpha
/// channel gives RGBA output, any other gives RGB (8 bits per channel).
///
/// Phases: decode → heat or block tree ([`AnnotateOptions::heat`]) → removed shading → content
/// outlines → legend → encode.
pub fn annotate(
    png: &[u8],
    tree: &Tree,
    ex: &Extraction,
    opts: &AnnotateOptions,
) -> Result<Vec<u8>, Error> {
    if ex.kept.len() != tree.len() {
        return Err(Error::Input {
            input: "extraction".into(),
            message: format!(
                "it has {} node flags but the snapshot has {} nodes: annotate an extraction with the snapshot it was made from",
                ex.kept.len(),
                tree.len()
            ),
            source: None,
        });
    }
    let decoded =
        image::load_from_memory_with_format(png, ImageFormat::Png).map_err(|e| Error::Input {
            input: "screenshot".into(),
            message: format!("not a readable PNG image ({e}); capture it again"),
            source: Some(Box::new(e)),
        })?;
    let has_alpha = decoded.color().has_alpha();
    let mut canvas = Canvas {
        img: decoded.to_rgba8(),
    };
    let mut legend = Vec::new();

    if opts.heat {
        if ex.algorithm == Algorithm::Blocks {
            if draw_blocks(&mut canvas, &ex.details) {
                legend.push(Entry::Outline(paint_of(BLOCK_DEPTH[0]), "BLOCK"));
                legend.push(Entry::Groups("VARIANTS"));
            }
        } else if ex.algorithm == Algorithm::Learned {
            if draw_probability(&mut canvas, &ex.details) {
                legend.push(Entry::Ramp("CONTENT PROBABILITY LOW TO HIGH"));
            }
        } else if draw_heat(&mut canvas, tree, ex) {
            legend.push(Entry::Ramp("SCORE LOW TO HIGH"));
        }
    }
    if opts.shade_removed {
        for id in removed(tree, &ex.kept) {
            canvas.fill(tree.node(id).rect, REMOVED);
        }
        legend.push(Entry::Fill(REMOVED, "REMOVED"));
    }
    if opts.outline_content {
        for id in ex.roots(tree) {
            canvas.outline(tree.node(id).rect, CONTENT_WIDTH, CONTENT);
        }
        legend.push(Entry::Outline(CONTENT, "CONTENT"));
    }
    draw_legend(&mut canvas, &legend);

    let out = if has_alpha {
        DynamicImage::ImageRgba8(canvas.img)
    } else {
        DynamicImage::ImageRgb8(DynamicImage::ImageRgba8(canvas.img).to_rgb8())
    };
    let mut bytes = Vec::new();
    out.write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
        .map_err(|e| Error::Output {
            path: "annotated screenshot".into(),
            message: format!("PNG encoding failed: {e}"),
            source: Some(Box::new(e)),
        })?;
    Ok(bytes)
}

// ---------------------------------------------------------------------------------------------
// Which nodes get what.
