//! Tests of the annotated screenshot: layers, clipping, blending and the legend.

use std::io::Cursor;

use image::{DynamicImage, ImageFormat, RgbaImage};

use super::legend::{glyph, FONT};
use super::*;
use crate::extract::params::BlocksParams;
use crate::extract::Details;
use crate::extract::{blocks, density, DensityScores};
use crate::snapshot::NodeId;
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
