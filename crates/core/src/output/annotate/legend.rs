//! The legend: a panel at the top-left with a swatch and an upper-case label per drawn layer,
//! in an embedded 5×7 bitmap font drawn at twice that size.

use super::canvas::{Canvas, PixRect};
use super::layers::{paint_of, ramp};
use super::{paint, Paint, GROUP_COLOURS};
use crate::snapshot::Rect;

/// Opacity of the legend panel's white background.
const LEGEND_BACKGROUND: Paint = paint(255, 255, 255, 0.85);
const LEGEND_INK: Paint = paint(0, 0, 0, 1.0);

/// One legend row: a swatch and an upper-case label.
pub(super) enum Entry {
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
pub(super) fn draw_legend(canvas: &mut Canvas, entries: &[Entry]) {
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
pub(super) fn glyph(ch: char) -> Option<&'static [&'static str; 7]> {
    FONT.iter().find(|(c, _)| *c == ch).map(|(_, g)| g)
}

/// A 5×7 bitmap font: A-Z and `-`.
#[rustfmt::skip]
pub(super) const FONT: [(char, [&str; 7]); 27] = [
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
