//! The canvas: pixel rectangles clipped to the image, straight-alpha blending, fills and
//! outlines of CSS boxes.

use image::RgbaImage;

use super::Paint;
use crate::snapshot::Rect;

/// Coordinates beyond this many px are clamped before rounding (keeps i64 arithmetic safe).
const FAR: f64 = 1.0e9;

/// A pixel rectangle `[x0, x1) × [y0, y1)`, not yet clipped to the image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PixRect {
    pub(super) x0: i64,
    pub(super) y0: i64,
    pub(super) x1: i64,
    pub(super) y1: i64,
}

impl PixRect {
    /// The pixels of a CSS box (edges rounded), or None for a NaN, infinite-size, negative
    /// or empty box.
    pub(super) fn of(r: Rect) -> Option<PixRect> {
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
pub(super) struct Canvas {
    pub(super) img: RgbaImage,
}

impl Canvas {
    /// Blend `paint` over every pixel of `p` inside the image.
    pub(super) fn fill_px(&mut self, p: PixRect, paint: Paint) {
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
    pub(super) fn fill(&mut self, r: Rect, paint: Paint) {
        if let Some(p) = PixRect::of(r) {
            self.fill_px(p, paint);
        }
    }
    /// Outline a CSS box `width` px wide inside its edges; the four sides do not overlap, so
    /// a translucent outline blends once per pixel. Sides outside the image are clipped, so a
    /// box running past the image bottom shows no bottom edge.
    pub(super) fn outline(&mut self, r: Rect, width: i64, paint: Paint) {
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

// Legend.
