//! `blocks` on a hand-made mirror of `fixtures/blocks-cards/page.html` (header with a logo and
//! a nav, a grid of five similar product cards and one promo, an article, a footer): the exact
//! block tree shape (ranges and variation groups), the boxes in `details`, and the kept text
//! against the fixture's `expect.json`.

use serde_json::Value;
use sightline::extract::blocks::{segment, Segmentation};
use sightline::extract::params::BlocksParams;
use sightline::snapshot::{rect, NodeId, SnapshotBuilder};
use sightline::{Algorithm, Snapshot, Tree};

/// Adds `<tag>` with one text child; returns the element.
fn text_el(
    b: &mut SnapshotBuilder,
    parent: NodeId,
    tag: &str,
    r: sightline::snapshot::Rect,
    text: &str,
) -> NodeId {
    let e = b.el(parent, tag, r);
    b.text(e, text);
    e
}

fn inline(b: &mut SnapshotBuilder, id: NodeId) {
    b.node_mut(id).display = "inline".into();
}

/// The fixture page as a hand-made snapshot with realistic boxes for a 1280 px viewport.
fn cards_page() -> Snapshot {
    let mut b = SnapshotBuilder::new(1280.0);
    b.title("Why stoneware lasts for generations | Acme Home Goods");
    b.node_mut(0).rect = rect(0.0, 0.0, 1280.0, 2030.0);

    let header = b.el(0, "header", rect(0.0, 0.0, 1280.0, 80.0));
    b.node_mut(header).display = "flex".into();
    let logo = b.el(header, "div", rect(40.0, 20.0, 120.0, 40.0));
    let home = b.el(logo, "a", rect(40.0, 20.0, 120.0, 40.0));
    inline(&mut b, home);
    b.el(home, "img", rect(40.0, 20.0, 120.0, 40.0));
    let nav = b.el(header, "nav", rect(912.0, 28.0, 328.0, 24.0));
    for (k, (w, label)) in [
        (34.0, "Shop"),
        (58.0, "Journal"),
        (46.0, "About"),
        (60.0, "Contact"),
    ]
    .iter()
    .enumerate()
    {
        let a = text_el(
            &mut b,
            nav,
            "a",
            rect(936.0 + 80.0 * k as f64, 28.0, *w, 24.0),
            label,
        );
        inline(&mut b, a);
    }

    let main = b.el(0, "main", rect(160.0, 80.0, 960.0, 1790.0));
    let container = b.el(main, "div", rect(160.0, 80.0, 960.0, 1790.0));
    let section = b.el(container, "section", rect(160.0, 80.0, 960.0, 830.0));
    text_el(
        &mut b,
        section,
        "h2",
        rect(160.0, 100.0, 960.0, 28.0),
        "Featured products",
    );
    let grid = b.el(section, "div", rect(160.0, 148.0, 960.0, 762.0));
    b.node_mut(grid).display = "grid".into();
    let cards = [
        (
            "Stoneware mug",
            "$18",
            "Hand-glazed, 350 ml, dishwasher safe.",
        ),
        ("Serving bowl", "$42", "Wide rim, oven safe to 250 °C."),
        ("Dinner plate", "$24", "Matte glaze in four colours."),
        ("Tea pot", "$56", "Holds a litre, with a steel infuser."),
        ("Pasta bowl", "$21", "Deep and shallow at once."),
    ];
    for (k, (name, price, desc)) in cards.iter().enumerate() {
        let x = 160.0 + 328.0 * (k % 3) as f64;
        let y = 148.0 + 393.0 * (k / 3) as f64;
        let card = b.el(grid, "div", rect(x, y, 304.0, 369.0));
        b.node_mut(card).class = Some("card".into());
        b.el(card, "img", rect(x + 13.0, y + 13.0, 278.0, 160.0));
        text_el(
            &mut b,
            card,
            "h3",
            rect(x + 13.0, y + 181.0, 278.0, 24.0),
            name,
        );
        text_el(
            &mut b,
            card,
            "p",
            rect(x + 13.0, y + 209.0, 278.0, 21.0),
            price,
        );
        text_el(
            &mut b,
            card,
            "p",
            rect(x + 13.0, y + 234.0, 278.0, 42.0),
            desc,
        );
        let a = text_el(
            &mut b,
            card,
            "a",
            rect(x + 13.0, y + 288.0, 97.0, 29.0),
            "Add to cart",
        );
        b.node_mut(a).display = "inline-block".into();
    }
    let promo = b.el(grid, "aside", rect(816.0, 541.0, 304.0, 369.0));
    let strong = text_el(
        &mut b,
        promo,
        "strong",
        rect(829.0, 554.0, 102.0, 21.0),
        "Free shipping",
    );
    inline(&mut b, strong);
    text_el(
        &mut b,
        promo,
        "p",
        rect(829.0, 589.0, 278.0, 21.0),
        "On orders over $50 this week only.",
    );

    let article = b.el(container, "article", rect(160.0, 958.0, 720.0, 864.0));
    text_el(
        &mut b,
        article,
        "h1",
        rect(160.0, 982.0, 720.0, 86.0),
        "Why stoneware lasts for generations",
    );
    text_el(
        &mut b,
        article,
        "p",
        rect(160.0, 1092.0, 720.0, 24.0),
        "By Maria Lind, 12 March 2024",
    );
    text_el(
        &mut b,
        article,
        "p",
        rect(160.0, 1132.0, 720.0, 96.0),
        "Stoneware is fired at temperatures between 1,200 and 1,300 degrees Celsius, far hotter than \
         earthenware. At that heat the clay body vitrifies: its particles partly melt and fuse, closing \
         the pores that would otherwise soak up water, oil and the smells of last week's dinner.",
    );
    let p2 = b.el(article, "p", rect(160.0, 1244.0, 720.0, 96.0));
    b.text(
        p2,
        "The glaze matters as much as the body. A well-fitted glaze shrinks at the same rate as the clay as \
         the kiln cools, so it neither crazes into a web of hairline cracks nor shivers off the rim. Our \
         potters test every new glaze on ",
    );
    let a2 = text_el(
        &mut b,
        p2,
        "a",
        rect(400.0, 1316.0, 110.0, 24.0),
        "dozens of tiles",
    );
    inline(&mut b, a2);
    b.text(p2, " before it reaches a mug.");
    let p3 = b.el(article, "p", rect(160.0, 1356.0, 720.0, 96.0));
    b.text(
        p3,
        "Chips are the usual end of a plate. Stoneware resists them because the vitrified body is dense and \
         hard all the way through, so a knock that would flake ",
    );
    let em = text_el(
        &mut b,
        p3,
        "em",
        rect(560.0, 1380.0, 90.0, 24.0),
        "earthenware",
    );
    inline(&mut b, em);
    b.text(p3, " leaves only a scuff. Rims are the weak point, which is why ours are rolled rather than cut.");
    text_el(
        &mut b,
        article,
        "p",
        rect(160.0, 1468.0, 720.0, 72.0),
        "Care is simple. Avoid sudden changes of temperature, such as a cold dish straight into a hot oven, \
         and let pieces cool before washing them. Treated like that, a stoneware bowl will outlive the \
         kitchen it was bought for.",
    );
    let figure = b.el(article, "figure", rect(160.0, 1564.0, 720.0, 330.0));
    b.el(figure, "img", rect(160.0, 1564.0, 720.0, 300.0));
    text_el(
        &mut b,
        figure,
        "figcaption",
        rect(160.0, 1864.0, 720.0, 24.0),
        "Our kiln reaches 1,240 °C during a glaze firing.",
    );
    let share = b.el(article, "ul", rect(160.0, 1910.0, 720.0, 21.0));
    b.node_mut(share).display = "flex".into();
    for (k, label) in ["Share on Mastodon", "Share by email", "Print this article"]
        .iter()
        .enumerate()
    {
        let li = b.el(
            share,
            "li",
            rect(160.0 + 160.0 * k as f64, 1910.0, 144.0, 21.0),
        );
        let a = text_el(
            &mut b,
            li,
            "a",
            rect(160.0 + 160.0 * k as f64, 1910.0, 144.0, 21.0),
            label,
        );
        inline(&mut b, a);
    }

    let footer = b.el(0, "footer", rect(0.0, 1870.0, 1280.0, 160.0));
    text_el(
        &mut b,
        footer,
        "p",
        rect(40.0, 1894.0, 1200.0, 21.0),
        "© 2024 Acme Home Goods Ltd. All rights reserved.",
    );
    let ul = b.el(footer, "ul", rect(40.0, 1931.0, 1200.0, 21.0));
    for (k, label) in ["Privacy", "Terms"].iter().enumerate() {
        let li = b.el(ul, "li", rect(40.0 + 80.0 * k as f64, 1931.0, 64.0, 21.0));
        let a = text_el(
            &mut b,
            li,
            "a",
            rect(40.0 + 80.0 * k as f64, 1931.0, 64.0, 21.0),
            label,
        );
        inline(&mut b, a);
    }
    b.build()
}

/// One line per block, indented by depth: the range's tags (`main>div` when the minimum
/// boundary is deeper than the maximum) and `#g` for the variation group.
fn outline(tree: &Tree, seg: &Segmentation) -> String {
    fn walk(tree: &Tree, seg: &Segmentation, b: usize, depth: usize, out: &mut String) {
        let blk = &seg.blocks[b];
        let tags: Vec<&str> = blk
            .range
            .iter()
            .map(|&n| tree.node(n).tag.as_str())
            .collect();
        out.push_str(&"  ".repeat(depth));
        out.push_str(&tags.join(">"));
        if let Some(g) = blk.group {
            out.push_str(&format!(" #{g}"));
        }
        out.push('\n');
        for &k in &blk.children {
            walk(tree, seg, k, depth + 1, out);
        }
    }
    let mut out = String::new();
    walk(tree, seg, 0, 0, &mut out);
    out
}

const CARD: &str = "        div #1
          img
          h3
          p #G
          p #G
          a
";

/// The block tree of the cards page, derived by hand.
fn expected_outline() -> String {
    // Hand-derived (Algorithm 2): the logo's empty <div> and <a> each hold one child, so the
    // range runs down to the <img>; <main> holds only div.container (same text); each share
    // and footer <li> holds only its <a>. Every other block stops at once because its first
    // child's text differs by far more than 0.1. Group ids follow the pre-order of the parent
    // blocks: nav links #0; the five cards #1 (the promo's structure differs); the two <p> of
    // each card #2..#6; the plain article paragraphs #7 (byline, 1st and 4th: the ones with
    // an <a> or <em> have another structure); share items #8; footer items #9.
    format!(
        "body
  header
    div>a>img
    nav
      a #0
      a #0
      a #0
      a #0
  main>div
    section
      h2
      div
{cards}        aside
          strong
          p
    article
      h1
      p #7
      p #7
      p
        a
      p
        em
      p #7
      figure
        img
        figcaption
      ul
        li>a #8
        li>a #8
        li>a #8
  footer
    p
    ul
      li>a #9
      li>a #9
",
        cards = (2..7)
            .map(|g| CARD.replace("#G", &format!("#{g}")))
            .collect::<String>()
    )
}

#[test]
fn block_tree_shape_of_the_cards_page() {
    let snap = cards_page();
    let tree = Tree::new(&snap);
    let seg = segment(&tree, &BlocksParams::default());
    let expected = expected_outline();
    assert_eq!(outline(&tree, &seg), expected);
    assert_eq!(seg.groups.len(), 10);
    // The five cards are one group; the promo (aside) has none.
    let grid_block = seg
        .blocks
        .iter()
        .position(|b| b.children.len() == 6)
        .expect("the grid block");
    let kids = &seg.blocks[grid_block].children;
    assert_eq!(seg.blocks[kids[0]].group, Some(1));
    assert_eq!(seg.groups[1], kids[..5].to_vec());
    assert_eq!(seg.blocks[kids[5]].group, None);
}

#[test]
fn details_hold_css_paths_boxes_and_the_main_block() {
    let snap = cards_page();
    let tree = Tree::new(&snap);
    let ex = sightline::extract(&snap, Algorithm::Blocks, &Default::default());
    let d = &ex.details.to_json();
    let blocks = d["blocks"].as_array().expect("blocks array");
    assert_eq!(blocks.len(), 66);
    let main = blocks
        .iter()
        .find(|b| b["max"] == "body > main")
        .expect("main block");
    assert_eq!(main["min"], "body > main > div");
    assert_eq!(
        main["range"],
        serde_json::json!(["body > main", "body > main > div"])
    );
    assert_eq!(main["box"], serde_json::json!([160.0, 80.0, 960.0, 1790.0]));
    let logo = blocks
        .iter()
        .find(|b| b["max"] == "body > header > div")
        .expect("logo block");
    assert_eq!(logo["min"], "body > header > div > a > img");
    assert_eq!(
        logo["min_box"],
        serde_json::json!([40.0, 20.0, 120.0, 40.0])
    );
    assert_eq!(logo["images"], 1);
    let card3 = blocks
        .iter()
        .find(|b| b["max"] == "body > main > div > section > div > div:nth-of-type(3)")
        .expect("third card");
    assert_eq!(card3["variation_group"], 1);
    assert_eq!(
        card3["box"],
        serde_json::json!([816.0, 148.0, 304.0, 369.0])
    );
    assert_eq!(card3["children"].as_array().map(Vec::len), Some(5));
    // Majority descent: body -> main (the article and cards hold most non-link text) ->
    // article (about 80% of main's); no article child holds half of it.
    let main_blocks = d["main_blocks"].as_array().expect("main_blocks");
    assert_eq!(main_blocks.len(), 1);
    let mb = &blocks[main_blocks[0].as_u64().unwrap() as usize];
    assert_eq!(mb["max"], "body > main > div > article");
    // The <h1> is inside the <article>: no headline block is added.
    assert_eq!(d["headline_blocks"], serde_json::json!([]));
    let dropped: Vec<&Value> = d["dropped_blocks"].as_array().unwrap().iter().collect();
    assert_eq!(dropped.len(), 1);
    assert_eq!(
        blocks[dropped[0].as_u64().unwrap() as usize]["max"],
        "body > main > div > article > ul"
    );
    assert_eq!(ex.threshold, Some(0.5));
    let _ = tree;
}

#[test]
fn kept_text_satisfies_the_fixture_expectations() {
    let snap = cards_page();
    let tree = Tree::new(&snap);
    let ex = sightline::extract(&snap, Algorithm::Blocks, &Default::default());
    let text = sightline::output::text::render(&tree, &ex);
    let expect: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/blocks-cards/expect.json"
        ))
        .expect("expect.json"),
    )
    .expect("valid JSON");
    assert_eq!(expect["algorithm"], "blocks");
    for s in expect["contains"].as_array().unwrap() {
        let s = s.as_str().unwrap();
        assert!(text.contains(s), "missing {s:?} in:\n{text}");
    }
    for s in expect["excludes"].as_array().unwrap() {
        let s = s.as_str().unwrap();
        assert!(!text.contains(s), "unexpected {s:?} in:\n{text}");
    }
    assert_eq!(
        text.lines().count(),
        7,
        "h1, byline, 4 paragraphs, caption:\n{text}"
    );
}

#[test]
fn real_chromium_snapshot_has_the_same_block_tree() {
    // fixtures/blocks-cards/snapshot.json: `sightline snapshot fixtures/blocks-cards/page.html
    // --offline` (Chromium, 1366 px viewport). Same tree as the hand-made mirror.
    let json = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/blocks-cards/snapshot.json"
    ))
    .expect("snapshot.json");
    let snap = Snapshot::from_json(&json, "blocks-cards/snapshot.json").expect("valid snapshot");
    let tree = Tree::new(&snap);
    let seg = segment(&tree, &BlocksParams::default());
    assert_eq!(outline(&tree, &seg), expected_outline());
    let ex = sightline::extract(&snap, Algorithm::Blocks, &Default::default());
    let text = sightline::output::text::render(&tree, &ex);
    assert!(
        text.starts_with("Why stoneware lasts for generations\nBy Maria Lind"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 7, "{text}");
    // Real boxes: the five cards are in a 3-column grid, so cards 1 and 4 share x.
    let cards = &seg.groups[1];
    let x = |b: usize| snap.nodes[seg.blocks[b].max].rect.x;
    assert_eq!(x(cards[0]), x(cards[3]));
    assert!(x(cards[1]) > x(cards[0]) && x(cards[2]) > x(cards[1]));
}
