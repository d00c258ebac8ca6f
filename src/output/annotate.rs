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

use image::{DynamicImage, ImageFormat, RgbaImage};

use crate::extract::{Algorithm, Details, Extraction};
use crate::snapshot::{NodeId, Rect, Tree};
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
/// Opacity of the legend panel's white background.
const LEGEND_BACKGROUND: Paint = paint(255, 255, 255, 0.85);
const LEGEND_INK: Paint = paint(0, 0, 0, 1.0);

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
// ---------------------------------------------------------------------------------------------

/// The removed subtrees to shade, in document order: rendered elements with text and no
/// kept node in their subtree, whose parent is `<body>` or holds kept content.
pub fn removed(tree: &Tree, kept: &[bool]) -> Vec<NodeId> {
    let n = tree.len();
    let mut holds_kept: Vec<bool> = (0..n)
        .map(|i| kept.get(i).copied().unwrap_or(false))
        .collect();
    for i in (1..n).rev() {
        if holds_kept[i] {
            if let Some(p) = tree.parent(i) {
                holds_kept[p] = true;
            }
        }
    }
    (1..n)
        .filter(|&i| {
            let node = tree.node(i);
            node.is_element()
                && node.rendered
                && tree.chars[i] > 0
                && !holds_kept[i]
                && tree.parent(i).is_some_and(|p| p == 0 || holds_kept[p])
        })
        .collect()
}

/// The heat cells: rendered elements with a non-blank text child of their own.
pub fn heat_cells(tree: &Tree) -> Vec<NodeId> {
    (0..tree.len())
        .filter(|&i| {
            let node = tree.node(i);
            node.is_element()
                && node.rendered
                && tree.children[i]
                    .iter()
                    .any(|&k| tree.node(k).is_text() && tree.own_chars[k] > 0)
        })
        .collect()
}

/// Rank normalization: for each score its average rank among all, divided by n − 1, so the
/// lowest is 0 and the highest 1; ties share their average rank; a single score is 0.5.
/// NaN scores rank lowest.
pub fn rank01(scores: &[f64]) -> Vec<f64> {
    let n = scores.len();
    if n == 1 {
        return vec![0.5];
    }
    let key = |v: f64| if v.is_nan() { f64::NEG_INFINITY } else { v };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| key(scores[a]).total_cmp(&key(scores[b])));
    let mut out = vec![0.0; n];
    let mut start = 0;
    while start < n {
        let mut end = start + 1;
        while end < n && key(scores[order[end]]) == key(scores[order[start]]) {
            end += 1;
        }
        let avg = (start + end - 1) as f64 / 2.0;
        for &i in &order[start..end] {
            out[i] = avg / (n - 1) as f64;
        }
        start = end;
    }
    out
}

/// The heat ramp at `t` in [0, 1]: blue at 0, yellow at 0.5, red at 1, linear between.
pub fn ramp(t: f64) -> [u8; 3] {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let (a, b, f) = if t < 0.5 {
        (HEAT_STOPS[0], HEAT_STOPS[1], t * 2.0)
    } else {
        (HEAT_STOPS[1], HEAT_STOPS[2], (t - 0.5) * 2.0)
    };
    let mix = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * f).round() as u8;
    [mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2])]
}

/// Fill every heat cell with the ramp colour of its density's rank. False when the
/// extraction has no density scores.
fn draw_heat(canvas: &mut Canvas, tree: &Tree, ex: &Extraction) -> bool {
    let Some(scores) = &ex.scores else {
        return false;
    };
    let density = match ex.algorithm {
        Algorithm::Td => &scores.td,
        Algorithm::Htd => &scores.htd,
        _ => &scores.ctd,
    };
    let cells = heat_cells(tree);
    let values: Vec<f64> = cells
        .iter()
        .map(|&i| density.get(i).copied().unwrap_or(0.0))
        .collect();
    for (&i, t) in cells.iter().zip(rank01(&values)) {
        let rgb = ramp(t);
        canvas.fill(
            tree.node(i).rect,
            Paint {
                rgb,
                alpha: HEAT_ALPHA,
            },
        );
    }
    true
}

/// Fill each text unit's block box with the ramp colour of its content probability (the
/// `learned` algorithm's `heat`, `[x, y, w, h, p]` per unit). False for other algorithms.
fn draw_probability(canvas: &mut Canvas, details: &Details) -> bool {
    let Details::Learned(d) = details else {
        return false;
    };
    for &[x, y, w, h, p] in &d.heat {
        if !p.is_finite() {
            continue;
        }
        canvas.fill(
            Rect { x, y, w, h },
            Paint {
                rgb: ramp(p.clamp(0.0, 1.0)),
                alpha: HEAT_ALPHA,
            },
        );
    }
    true
}

/// Outline the block tree of the `blocks` algorithm from its typed details (each block's
/// box, parent and variation group), parents before children. False for other algorithms.
fn draw_blocks(canvas: &mut Canvas, details: &Details) -> bool {
    let Details::Blocks(d) = details else {
        return false;
    };
    let mut depth = vec![0usize; d.blocks.len()];
    for (i, b) in d.blocks.iter().enumerate() {
        // Blocks are in pre-order, so a parent's depth is known before its children's.
        if let Some(p) = b.parent.filter(|&p| p < i) {
            depth[i] = depth[p] + 1;
        }
        let [x, y, w, h] = b.bbox;
        let r = Rect { x, y, w, h };
        match b.variation_group {
            Some(g) => {
                let rgb = GROUP_COLOURS[g % GROUP_COLOURS.len()];
                canvas.fill(
                    r,
                    Paint {
                        rgb,
                        alpha: GROUP_FILL_ALPHA,
                    },
                );
                canvas.outline(r, 2, paint_of(rgb));
            }
            None => canvas.outline(r, 1, paint_of(BLOCK_DEPTH[depth[i] % BLOCK_DEPTH.len()])),
        }
    }
    true
}

fn paint_of(rgb: [u8; 3]) -> Paint {
    Paint { rgb, alpha: 1.0 }
}

// ---------------------------------------------------------------------------------------------
// Drawing.
// ---------------------------------------------------------------------------------------------

/// Coordinates beyond this many px are clamped before rounding (keeps i64 arithmetic safe).
const FAR: f64 = 1.0e9;

/// A pixel rectangle `[x0, x1) × [y0, y1)`, not yet clipped to the image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PixRect {
    x0: i64,
    y0: i64,
    x1: i64,
    y1: i64,
}

impl PixRect {
    /// The pixels of a CSS box (edges rounded), or None for a NaN, infinite-size, negative
    /// or empty box.
    fn of(r: Rect) -> Option<PixRect> {
        let ok = [r.x, r.y, r.w, r.h].iter().all(|v| v.is_finite()) && r.w >= 0.0 && r.h >= 0.0;
        if !ok {
            return None;
        }
        let px = |v: f64| v.clamp(-FAR, FAR).round() as i64;
        let p = PixRect {
            x0: px(r.x),
            y0: px(r.y),
            x1: px(r.x + r.w),
            y1: px(r.y + r.h),
        };
        (p.x1 > p.x0 && p.y1 > p.y0).then_some(p)
    }
}

/// Straight-alpha "over": `src` with opacity `a` over the RGBA pixel `dst`.
pub fn over(dst: [u8; 4], src: Paint) -> [u8; 4] {
    let a = src.alpha.clamp(0.0, 1.0);
    let da = dst[3] as f64 / 255.0;
    let oa = a + da * (1.0 - a);
    if oa <= 0.0 {
        return [0, 0, 0, 0];
    }
    let c = |s: u8, d: u8| {
        ((s as f64 * a + d as f64 * da * (1.0 - a)) / oa)
            .round()
            .clamp(0.0, 255.0) as u8
    };
    [
        c(src.rgb[0], dst[0]),
        c(src.rgb[1], dst[1]),
        c(src.rgb[2], dst[2]),
        (oa * 255.0).round().clamp(0.0, 255.0) as u8,
    ]
}

/// The RGBA image being drawn on.
struct Canvas {
    img: RgbaImage,
}

impl Canvas {
    /// Blend `paint` over every pixel of `p` inside the image.
    fn fill_px(&mut self, p: PixRect, paint: Paint) {
        let (w, h) = (self.img.width() as i64, self.img.height() as i64);
        let (x0, x1) = (p.x0.max(0), p.x1.min(w));
        let (y0, y1) = (p.y0.max(0), p.y1.min(h));
        for y in y0..y1 {
            for x in x0..x1 {
                let px = self.img.get_pixel_mut(x as u32, y as u32);
                px.0 = over(px.0, paint);
            }
        }
    }
    /// Fill a CSS box.
    fn fill(&mut self, r: Rect, paint: Paint) {
        if let Some(p) = PixRect::of(r) {
            self.fill_px(p, paint);
        }
    }
    /// Outline a CSS box `width` px wide inside its edges; the four sides do not overlap, so
    /// a translucent outline blends once per pixel. Sides outside the image are clipped, so a
    /// box running past the image bottom shows no bottom edge.
    fn outline(&mut self, r: Rect, width: i64, paint: Paint) {
        let Some(p) = PixRect::of(r) else {
            return;
        };
        let t = width
            .min((p.x1 - p.x0 + 1) / 2)
            .min((p.y1 - p.y0 + 1) / 2)
            .max(1);
        let sides = [
            PixRect { y1: p.y0 + t, ..p },
            PixRect {
                y0: (p.y1 - t).max(p.y0 + t),
                ..p
            },
            PixRect {
                x1: p.x0 + t,
                y0: p.y0 + t,
                y1: p.y1 - t,
                ..p
            },
            PixRect {
                x0: (p.x1 - t).max(p.x0 + t),
                y0: p.y0 + t,
                y1: p.y1 - t,
                ..p
            },
        ];
        for s in sides {
            if s.x1 > s.x0 && s.y1 > s.y0 {
                self.fill_px(s, paint);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Legend.
// ---------------------------------------------------------------------------------------------

/// One legend row: a swatch and an upper-case label.
enum Entry {
    Outline(Paint, &'static str),
    Fill(Paint, &'static str),
    Ramp(&'static str),
    Groups(&'static str),
}

/// Glyph scale of the legend's 5×7 font.
const SCALE: i64 = 2;
const PAD: i64 = 4;
const ROW: i64 = 7 * SCALE + 4;
const SWATCH_W: i64 = 40;
const SWATCH_H: i64 = 7 * SCALE;
/// Advance of one character: 5 columns and 1 of spacing.
const ADVANCE: i64 = 6 * SCALE;

/// The legend panel at the top-left: one row per drawn layer, on a white background.
fn draw_legend(canvas: &mut Canvas, entries: &[Entry]) {
    if entries.is_empty() {
        return;
    }
    let label = |e: &Entry| match e {
        Entry::Outline(_, s) | Entry::Fill(_, s) | Entry::Ramp(s) | Entry::Groups(s) => *s,
    };
    let text_w = entries
        .iter()
        .map(|e| label(e).chars().count() as i64 * ADVANCE)
        .max()
        .unwrap_or(0);
    let panel = PixRect {
        x0: 0,
        y0: 0,
        x1: PAD + SWATCH_W + PAD + text_w + PAD,
        y1: PAD + entries.len() as i64 * ROW,
    };
    canvas.fill_px(panel, LEGEND_BACKGROUND);
    for (k, e) in entries.iter().enumerate() {
        let y = PAD + k as i64 * ROW;
        let sw = PixRect {
            x0: PAD,
            y0: y,
            x1: PAD + SWATCH_W,
            y1: y + SWATCH_H,
        };
        let sw_rect = Rect {
            x: sw.x0 as f64,
            y: sw.y0 as f64,
            w: SWATCH_W as f64,
            h: SWATCH_H as f64,
        };
        match e {
            Entry::Outline(p, _) => canvas.outline(sw_rect, 3, *p),
            Entry::Fill(p, _) => canvas.fill_px(sw, *p),
            Entry::Ramp(_) => {
                for x in sw.x0..sw.x1 {
                    let t = (x - sw.x0) as f64 / (SWATCH_W - 1) as f64;
                    let col = PixRect {
                        x0: x,
                        x1: x + 1,
                        ..sw
                    };
                    canvas.fill_px(col, paint_of(ramp(t)));
                }
            }
            Entry::Groups(_) => {
                let n = GROUP_COLOURS.len() as i64;
                for (g, rgb) in GROUP_COLOURS.iter().enumerate() {
                    let g = g as i64;
                    let part = PixRect {
                        x0: sw.x0 + g * SWATCH_W / n,
                        x1: sw.x0 + (g + 1) * SWATCH_W / n,
                        ..sw
                    };
                    canvas.fill_px(part, paint_of(*rgb));
                }
            }
        }
        draw_text(canvas, PAD + SWATCH_W + PAD, y, label(e), LEGEND_INK);
    }
}

/// Draw upper-case ASCII text with the embedded font; characters without a glyph advance.
fn draw_text(canvas: &mut Canvas, x: i64, y: i64, s: &str, ink: Paint) {
    for (k, ch) in s.chars().enumerate() {
        let Some(rows) = glyph(ch) else {
            continue;
        };
        let gx = x + k as i64 * ADVANCE;
        for (r, row) in rows.iter().enumerate() {
            for (c, cell) in row.bytes().enumerate() {
                if cell == b'#' {
                    let px = PixRect {
                        x0: gx + c as i64 * SCALE,
                        y0: y + r as i64 * SCALE,
                        x1: gx + (c as i64 + 1) * SCALE,
                        y1: y + (r as i64 + 1) * SCALE,
                    };
                    canvas.fill_px(px, ink);
                }
            }
        }
    }
}

/// The 5×7 glyph of an upper-case letter or `-`, as rows of `#` (ink) and `.`.
fn glyph(ch: char) -> Option<&'static [&'static str; 7]> {
    FONT.iter().find(|(c, _)| *c == ch).map(|(_, g)| g)
}

/// A 5×7 bitmap font: A-Z and `-`.
#[rustfmt::skip]
const FONT: [(char, [&str; 7]); 27] = [
    ('A', [".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"]),
    ('B', ["####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."]),
    ('C', [".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."]),
    ('D', ["####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."]),
    ('E', ["#####", "#....", "#....", "####.", "#....", "#....", "#####"]),
    ('F', ["#####", "#....", "#....", "####.", "#....", "#....", "#...."]),
    ('G', [".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".###."]),
    ('H', ["#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"]),
    ('I', [".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."]),
    ('J', ["..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."]),
    ('K', ["#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"]),
    ('L', ["#....", "#....", "#....", "#....", "#....", "#....", "#####"]),
    ('M', ["#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"]),
    ('N', ["#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"]),
    ('O', [".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."]),
    ('P', ["####.", "#...#", "#...#", "####.", "#....", "#....", "#...."]),
    ('Q', [".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"]),
    ('R', ["####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"]),
    ('S', [".####", "#....", "#....", ".###.", "....#", "....#", "####."]),
    ('T', ["#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."]),
    ('U', ["#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."]),
    ('V', ["#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."]),
    ('W', ["#...#", "#...#", "#...#", "#.#.#", "#.#.#", "#.#.#", ".#.#."]),
    ('X', ["#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"]),
    ('Y', ["#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."]),
    ('Z', ["#####", "....#", "...#.", "..#..", ".#...", "#....", "#####"]),
    ('-', [".....", ".....", ".....", ".###.", ".....", ".....", "....."]),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::params::BlocksParams;
    use crate::extract::{blocks, density, DensityScores};
    use crate::snapshot::{rect, Snapshot, SnapshotBuilder};
    use image::{ColorType, Rgb, RgbImage, Rgba};

    const BG: [u8; 3] = [200, 220, 240];
    const GREEN: [u8; 3] = [0, 200, 0];
    /// REMOVED (60, 60, 60) at alpha 0.5 over BG: (130, 140, 150).
    const SHADED: [u8; 3] = [130, 140, 150];

    fn png_rgb(w: u32, h: u32, rgb: [u8; 3]) -> Vec<u8> {
        let img = RgbImage::from_pixel(w, h, Rgb(rgb));
        let mut out = Vec::new();
        DynamicImage::ImageRgb8(img)
            .write_to(&mut Cursor::new(&mut out), ImageFormat::Png)
            .unwrap();
        out
    }

    fn decode(png: &[u8]) -> DynamicImage {
        image::load_from_memory_with_format(png, ImageFormat::Png).unwrap()
    }

    fn rgb_at(img: &DynamicImage, x: u32, y: u32) -> [u8; 3] {
        let p = img.to_rgb8().get_pixel(x, y).0;
        [p[0], p[1], p[2]]
    }

    /// Keep the subtree of `root` (all nodes of it).
    fn keep(snap: &Snapshot, algorithm: Algorithm, root: NodeId) -> Extraction {
        let tree = Tree::new(snap);
        let mut ex = Extraction::empty(algorithm, tree.len());
        for i in tree.subtree(root) {
            ex.kept[i] = true;
        }
        ex
    }

    /// A 400×300 page: a kept article at (20,100)-(220,220), a removed aside at
    /// (250,100)-(370,200), a removed footer crossing the image bottom (y 280..380), and
    /// boxes far outside the image.
    fn page() -> (Snapshot, NodeId) {
        let mut b = SnapshotBuilder::new(400.0);
        let main = b.el(0, "div", rect(20.0, 100.0, 200.0, 120.0));
        let p = b.el(main, "p", rect(20.0, 100.0, 200.0, 120.0));
        b.text(p, "The article text that the extractor kept.");
        let aside = b.el(0, "div", rect(250.0, 100.0, 120.0, 100.0));
        b.text(aside, "Related links");
        let footer = b.el(0, "div", rect(0.0, 280.0, 400.0, 100.0));
        b.text(footer, "Copyright");
        for r in [
            rect(0.0, 5000.0, 400.0, 50.0),
            rect(-50.0, -50.0, 30.0, 30.0),
            rect(f64::NAN, 10.0, 10.0, 10.0),
            rect(10.0, 10.0, -5.0, 10.0),
        ] {
            let e = b.el(0, "div", r);
            b.text(e, "elsewhere");
        }
        (b.build(), main)
    }

    #[test]
    fn content_outlined_removed_shaded_rest_unchanged() {
        let (snap, main) = page();
        let tree = Tree::new(&snap);
        let ex = keep(&snap, Algorithm::Wang, main);
        let png = png_rgb(400, 300, BG);
        let out = decode(&annotate(&png, &tree, &ex, &AnnotateOptions::default()).unwrap());
        assert_eq!((out.width(), out.height()), (400, 300));
        assert_eq!(out.color(), ColorType::Rgb8, "RGB in, RGB out");
        // The 3 px outline lies inside the content box: x 20..23, y 100..103, 217..220.
        assert_eq!(rgb_at(&out, 20, 150), GREEN);
        assert_eq!(rgb_at(&out, 22, 150), GREEN);
        assert_eq!(rgb_at(&out, 120, 100), GREEN);
        assert_eq!(rgb_at(&out, 120, 219), GREEN);
        assert_eq!(rgb_at(&out, 219, 150), GREEN);
        // Inside the content: untouched (kept is not shaded); just outside: untouched.
        assert_eq!(rgb_at(&out, 23, 150), BG);
        assert_eq!(rgb_at(&out, 120, 160), BG);
        assert_eq!(rgb_at(&out, 120, 220), BG);
        assert_eq!(rgb_at(&out, 19, 150), BG);
        // The aside and the footer (cut by the image bottom) are shaded.
        assert_eq!(rgb_at(&out, 300, 150), SHADED);
        assert_eq!(rgb_at(&out, 250, 100), SHADED);
        assert_eq!(rgb_at(&out, 369, 199), SHADED);
        assert_eq!(rgb_at(&out, 370, 150), BG);
        assert_eq!(rgb_at(&out, 200, 290), SHADED);
        assert_eq!(rgb_at(&out, 399, 299), SHADED);
        // Outside everything.
        assert_eq!(rgb_at(&out, 380, 250), BG);
        assert_eq!(rgb_at(&out, 230, 240), BG);
        // The legend panel at the top-left: white at 0.85 over BG = (247, 250, 253).
        assert_eq!(rgb_at(&out, 1, 1), [247, 250, 253]);
        // Its first row is the REMOVED swatch at x 4..44, y 4..18: grey at 0.5 over the panel.
        assert_eq!(rgb_at(&out, 10, 10), [154, 155, 157]);
    }

    #[test]
    fn removed_rule_takes_maximal_text_subtrees_beside_content() {
        let mut b = SnapshotBuilder::new(400.0);
        let wrap = b.el(0, "div", rect(0.0, 0.0, 400.0, 300.0));
        let art = b.el(wrap, "article", rect(0.0, 0.0, 300.0, 300.0));
        let p = b.el(art, "p", rect(0.0, 0.0, 300.0, 100.0));
        b.text(p, "kept text");
        let share = b.el(art, "div", rect(0.0, 100.0, 300.0, 50.0));
        let a = b.el(share, "a", rect(0.0, 100.0, 50.0, 50.0));
        b.text(a, "Share");
        let empty = b.el(art, "div", rect(0.0, 150.0, 300.0, 50.0));
        let side = b.el(wrap, "aside", rect(300.0, 0.0, 100.0, 300.0));
        let sp = b.el(side, "p", rect(300.0, 0.0, 100.0, 50.0));
        b.text(sp, "ad");
        let nav = b.el(0, "nav", rect(0.0, 300.0, 400.0, 50.0));
        b.text(nav, "Home");
        let snap = b.build();
        let tree = Tree::new(&snap);
        let mut kept = vec![false; tree.len()];
        for i in [art, p, p + 1] {
            kept[i] = true;
        }
        // share: not kept, parent kept; side: parent wrap holds content; nav: child of body.
        // Not a (inside share), not empty (no text), not sp (inside side).
        assert_eq!(removed(&tree, &kept), vec![share, side, nav]);
        assert!(!removed(&tree, &kept).contains(&empty));
        assert!(!removed(&tree, &kept).contains(&a));
        // Nothing kept: the text-holding children of <body> are shaded.
        assert_eq!(removed(&tree, &vec![false; tree.len()]), vec![wrap, nav]);
    }

    #[test]
    fn boxes_outside_the_image_never_panic_and_clip() {
        let mut b = SnapshotBuilder::new(400.0);
        let mut roots = Vec::new();
        for r in [
            rect(380.0, 280.0, 40.0, 40.0),
            rect(f64::NAN, f64::NAN, f64::NAN, f64::NAN),
            rect(0.0, 0.0, f64::INFINITY, 10.0),
            rect(-1e300, -1e300, 1e300, 1e300),
            rect(1e300, 1e300, 1e300, 1e300),
            rect(-100.0, 50.0, 50.0, 50.0),
            rect(50.0, 50.0, -20.0, -20.0),
            rect(100.0, 5000.0, 10.0, 10.0),
            rect(100.0, 100.0, 0.4, 0.4),
            rect(150.0, 150.0, 1.0, 1.0),
        ] {
            let e = b.el(0, "div", r);
            b.text(e, "x");
            roots.push(e);
        }
        let snap = b.build();
        let tree = Tree::new(&snap);
        let png = png_rgb(400, 300, BG);
        // Every box as a content root (outlines), then every box as removed (fills).
        let mut ex = Extraction::empty(Algorithm::Wang, tree.len());
        for &r in &roots {
            for i in tree.subtree(r) {
                ex.kept[i] = true;
            }
        }
        let out = decode(&annotate(&png, &tree, &ex, &AnnotateOptions::default()).unwrap());
        // The box at (380, 280) runs past the right and bottom edges: its top and left sides
        // show, no side is drawn at the image edge.
        assert_eq!(rgb_at(&out, 381, 290), GREEN);
        assert_eq!(rgb_at(&out, 390, 281), GREEN);
        assert_eq!(rgb_at(&out, 395, 295), BG);
        assert_eq!(rgb_at(&out, 399, 299), BG);
        // A 1×1 box is a 1 px outline; a 0.4 px box rounds to nothing.
        assert_eq!(rgb_at(&out, 150, 150), GREEN);
        assert_eq!(rgb_at(&out, 100, 100), BG);
        let none = Extraction::empty(Algorithm::Wang, tree.len());
        annotate(&png, &tree, &none, &AnnotateOptions::default()).unwrap();
    }

    #[test]
    fn rgba_input_blends_over_transparency_and_stays_rgba() {
        let (snap, main) = page();
        let tree = Tree::new(&snap);
        let ex = keep(&snap, Algorithm::Wang, main);
        let img = RgbaImage::from_pixel(400, 300, Rgba([0, 0, 0, 0]));
        let mut png = Vec::new();
        DynamicImage::ImageRgba8(img)
            .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
            .unwrap();
        let out = decode(&annotate(&png, &tree, &ex, &AnnotateOptions::default()).unwrap());
        assert_eq!(out.color(), ColorType::Rgba8);
        let px = |x, y| out.to_rgba8().get_pixel(x, y).0;
        // Grey at 0.5 over nothing: the grey itself at alpha 0.5 (127.5 rounds to 128).
        assert_eq!(px(300, 150), [60, 60, 60, 128]);
        assert_eq!(px(20, 150), [0, 200, 0, 255]);
        assert_eq!(px(380, 250), [0, 0, 0, 0]);
    }

    #[test]
    fn all_layers_off_returns_the_same_pixels() {
        let (snap, main) = page();
        let tree = Tree::new(&snap);
        let ex = keep(&snap, Algorithm::Wang, main);
        let png = png_rgb(400, 300, BG);
        let off = AnnotateOptions {
            heat: false,
            shade_removed: false,
            outline_content: false,
        };
        let out = decode(&annotate(&png, &tree, &ex, &off).unwrap());
        assert_eq!(out.to_rgb8(), decode(&png).to_rgb8());
    }

    #[test]
    fn bad_inputs_are_errors() {
        let (snap, main) = page();
        let tree = Tree::new(&snap);
        let ex = keep(&snap, Algorithm::Wang, main);
        let err = annotate(b"not a png", &tree, &ex, &AnnotateOptions::default()).unwrap_err();
        assert_eq!(err.kind(), "input");
        let short = Extraction::empty(Algorithm::Wang, 3);
        let png = png_rgb(10, 10, BG);
        let err = annotate(&png, &tree, &short, &AnnotateOptions::default()).unwrap_err();
        assert!(err.to_string().contains("3 node flags"), "{err}");
    }

    #[test]
    fn blending_and_ramp_numbers() {
        // 0.35 of blue over BG: 0.65·(200, 220, 240) + 0.35·(0, 0, 255) = (130, 143, 245.25).
        let heat = |rgb| Paint {
            rgb,
            alpha: HEAT_ALPHA,
        };
        assert_eq!(
            over([200, 220, 240, 255], heat([0, 0, 255])),
            [130, 143, 245, 255]
        );
        assert_eq!(ramp(0.0), [0, 0, 255]);
        assert_eq!(ramp(0.25), [128, 128, 128]);
        assert_eq!(ramp(0.5), [255, 255, 0]);
        assert_eq!(ramp(0.75), [255, 128, 0]);
        assert_eq!(ramp(1.0), [255, 0, 0]);
        assert_eq!(rank01(&[1.0, 5.0, 3.0]), vec![0.0, 1.0, 0.5]);
        assert_eq!(rank01(&[2.0, 2.0, 7.0, f64::NAN]), vec![0.5, 0.5, 1.0, 0.0]);
        assert_eq!(rank01(&[4.0]), vec![0.5]);
        assert!(rank01(&[]).is_empty());
    }

    /// Three text cells with TD 1, 5, 3 and CTD 9, 2, 4.
    fn heat_page() -> (Snapshot, [NodeId; 3], DensityScores) {
        let mut b = SnapshotBuilder::new(400.0);
        let mut ids = [0; 3];
        for (k, r) in [
            rect(20.0, 100.0, 100.0, 50.0),
            rect(20.0, 200.0, 100.0, 50.0),
            rect(200.0, 100.0, 100.0, 50.0),
        ]
        .into_iter()
        .enumerate()
        {
            ids[k] = b.el(0, "p", r);
            b.text(ids[k], "words");
        }
        let snap = b.build();
        let n = snap.nodes.len();
        let mut s = DensityScores {
            td: vec![0.0; n],
            ctd: vec![0.0; n],
            vi: vec![0.0; n],
            htd: vec![0.0; n],
            density_sum: vec![0.0; n],
        };
        for (k, &i) in ids.iter().enumerate() {
            s.td[i] = [1.0, 5.0, 3.0][k];
            s.ctd[i] = [9.0, 2.0, 4.0][k];
        }
        (snap, ids, s)
    }

    #[test]
    fn heat_follows_the_algorithms_density_by_rank() {
        let (snap, ids, scores) = heat_page();
        let tree = Tree::new(&snap);
        assert_eq!(heat_cells(&tree), ids.to_vec());
        let png = png_rgb(400, 300, BG);
        let heat_only = AnnotateOptions {
            heat: true,
            shade_removed: false,
            outline_content: false,
        };
        let probes = [(60, 120), (60, 220), (250, 120)];
        let mut ex = Extraction::empty(Algorithm::Td, tree.len());
        ex.scores = Some(scores.clone());
        let out = decode(&annotate(&png, &tree, &ex, &heat_only).unwrap());
        // TD 1 → rank 0 → blue; TD 5 → rank 1 → red; TD 3 → rank 0.5 → yellow, each at 0.35.
        let blue = [130, 143, 245];
        let red = [219, 143, 156];
        let yellow = [219, 232, 156];
        let got: Vec<[u8; 3]> = probes.iter().map(|&(x, y)| rgb_at(&out, x, y)).collect();
        assert_eq!(got, vec![blue, red, yellow]);
        assert_eq!(rgb_at(&out, 380, 280), BG);
        // CTD drives the heat of `ctd` and `ctd-smooth`: CTD 9, 2, 4 → red, blue, yellow.
        for algorithm in [Algorithm::Ctd, Algorithm::CtdSmooth] {
            ex.algorithm = algorithm;
            let out = decode(&annotate(&png, &tree, &ex, &heat_only).unwrap());
            let got: Vec<[u8; 3]> = probes.iter().map(|&(x, y)| rgb_at(&out, x, y)).collect();
            assert_eq!(got, vec![red, blue, yellow], "{algorithm}");
        }
        // No scores: no heat.
        let plain = Extraction::empty(Algorithm::Wang, tree.len());
        let out = decode(&annotate(&png, &tree, &plain, &heat_only).unwrap());
        assert_eq!(rgb_at(&out, 60, 120), BG);
    }

    #[test]
    fn heat_of_real_td_scores_is_redder_on_the_article() {
        let mut b = SnapshotBuilder::new(800.0);
        let nav = b.el(0, "ul", rect(20.0, 60.0, 760.0, 40.0));
        let mut links = Vec::new();
        for k in 0..4 {
            let li = b.el(nav, "li", rect(20.0 + 150.0 * k as f64, 60.0, 140.0, 40.0));
            let a = b.el(li, "a", rect(20.0 + 150.0 * k as f64, 60.0, 140.0, 40.0));
            b.text(a, "Section");
            links.push(a);
        }
        let art = b.el(0, "article", rect(20.0, 120.0, 760.0, 600.0));
        let mut paras = Vec::new();
        for k in 0..3 {
            let p = b.el(art, "p", rect(20.0, 120.0 + 200.0 * k as f64, 760.0, 180.0));
            b.text(
                p,
                "A long paragraph of article text, with many words and sentences, which the \
                 text density of Song et al. scores far above the short links of the menu.",
            );
            paras.push(p);
        }
        let snap = b.build();
        let tree = Tree::new(&snap);
        let ex = density::extract(&tree, Algorithm::Td, &Default::default());
        let td = &ex.scores.as_ref().unwrap().td;
        assert!(
            td[paras[0]] > td[links[0]],
            "{} vs {}",
            td[paras[0]],
            td[links[0]]
        );
        let png = png_rgb(800, 800, BG);
        let heat_only = AnnotateOptions {
            heat: true,
            shade_removed: false,
            outline_content: false,
        };
        let out = decode(&annotate(&png, &tree, &ex, &heat_only).unwrap());
        let para = rgb_at(&out, 400, 200);
        let link = rgb_at(&out, 240, 80);
        // Redder: more red, less blue.
        assert!(
            para[0] > link[0] && para[2] < link[2],
            "{para:?} vs {link:?}"
        );
    }

    #[test]
    fn blocks_outlined_by_variation_group_and_depth() {
        let mut b = SnapshotBuilder::new(800.0);
        let header = b.el(0, "header", rect(0.0, 50.0, 800.0, 40.0));
        let ul = b.el(header, "ul", rect(0.0, 50.0, 800.0, 40.0));
        for (k, label) in ["Home", "News", "Sport"].into_iter().enumerate() {
            let x = 10.0 + 200.0 * k as f64;
            let li = b.el(ul, "li", rect(x, 55.0, 180.0, 30.0));
            let a = b.el(li, "a", rect(x, 55.0, 180.0, 30.0));
            b.text(a, label);
        }
        let main = b.el(0, "main", rect(0.0, 100.0, 800.0, 400.0));
        for (k, t) in [
            "The first paragraph of the story tells what happened.",
            "A second paragraph adds the details and the quotes.",
            "The third paragraph closes the story with its outlook.",
        ]
        .into_iter()
        .enumerate()
        {
            let p = b.el(
                main,
                "p",
                rect(20.0, 110.0 + 120.0 * k as f64, 760.0, 100.0),
            );
            b.text(p, t);
        }
        let snap = b.build();
        let tree = Tree::new(&snap);
        let ex = blocks::extract(&tree, &BlocksParams::default());
        let png = png_rgb(800, 600, BG);
        let blocks_only = AnnotateOptions {
            heat: true,
            shade_removed: false,
            outline_content: false,
        };
        let out = decode(&annotate(&png, &tree, &ex, &blocks_only).unwrap());
        let Details::Blocks(d) = &ex.details else {
            panic!("blocks details")
        };
        let mut grouped = 0;
        for blk in &d.blocks {
            let [bx, by, _, bh] = blk.bbox;
            let (x, mid) = (bx as u32, (by + bh / 2.0) as u32);
            if let Some(g) = blk.variation_group {
                grouped += 1;
                assert_eq!(rgb_at(&out, x, mid), GROUP_COLOURS[g], "{blk:?}");
                assert_eq!(rgb_at(&out, x + 1, mid), GROUP_COLOURS[g]);
                // Inside: the faint group fill, 0.12 of the colour over BG.
                let c = GROUP_COLOURS[g];
                let fill = over([BG[0], BG[1], BG[2], 255], paint(c[0], c[1], c[2], 0.12));
                assert_eq!(rgb_at(&out, x + 5, mid), [fill[0], fill[1], fill[2]]);
            }
        }
        // The three menu items and the three paragraphs are two variation groups.
        assert_eq!(grouped, 6);
        assert_eq!(d.groups.len(), 2);
        // <main> is an ungrouped block at depth 1: a 1 px top edge in BLOCK_DEPTH[1].
        assert_eq!(rgb_at(&out, 400, 100), BLOCK_DEPTH[1]);
        assert_eq!(rgb_at(&out, 400, 101), BG);
        // <body>, depth 0, spans the page: its left edge below <main> (whose own left edge
        // covers it at y 100..500).
        assert_eq!(rgb_at(&out, 0, 550), BLOCK_DEPTH[0]);
        assert_eq!(rgb_at(&out, 0, 300), BLOCK_DEPTH[1]);
        // The full set of layers runs too.
        annotate(&png, &tree, &ex, &AnnotateOptions::default()).unwrap();
    }

    #[test]
    fn font_glyphs_are_five_by_seven() {
        for (c, rows) in FONT {
            assert!(
                rows.iter()
                    .all(|r| r.len() == 5 && r.bytes().all(|b| b == b'#' || b == b'.')),
                "{c}"
            );
        }
        for label in [
            "CONTENT",
            "REMOVED",
            "SCORE LOW TO HIGH",
            "BLOCK",
            "VARIANTS",
        ] {
            assert!(
                label.chars().all(|c| c == ' ' || glyph(c).is_some()),
                "{label}"
            );
        }
    }
}
