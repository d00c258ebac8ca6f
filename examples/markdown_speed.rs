//! Speed of the markdown writer alone on a large page: a generated article of about 5,000
//! nodes (paragraphs with a link, each followed by a one-item list with emphasis: 46 kB of
//! markdown), every node kept, rendered REPS times (not the snapshot building). Prints the
//! median and the fastest time of one render on stdout.
//!
//! Usage: cargo run --release --example markdown_speed -- [REPS=20]
//! (Measured on the 2-core dev machine in the test profile, unoptimized: 11-20 ms a render.)

#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use sightline::snapshot::{rect, SnapshotBuilder};
use sightline::{Algorithm, Extraction, Snapshot, Tree};

/// The page: an `<article>` of repeated `<p>text <a>link</a></p><ul><li>item <em>emphasis</em></li></ul>`
/// groups, until it holds at least 5,000 nodes.
fn page() -> Snapshot {
    let mut b = SnapshotBuilder::new(1000.0);
    let art = b.el(0, "article", rect(0.0, 0.0, 1000.0, 1000.0));
    let mut n = 2;
    let mut i = 0;
    while n < 5000 {
        let y = i as f64;
        let p = b.el(art, "p", rect(0.0, y, 1000.0, 20.0));
        b.text(p, "Some text with *stars* and a ");
        let a = b.el(p, "a", rect(0.0, y, 50.0, 20.0));
        b.node_mut(a).href = Some(format!("https://example.com/{i}"));
        b.text(a, "link");
        let ul = b.el(art, "ul", rect(0.0, y, 1000.0, 20.0));
        let li = b.el(ul, "li", rect(40.0, y, 960.0, 20.0));
        b.node_mut(li).display = "list-item".into();
        b.text(li, "item");
        let em = b.el(li, "em", rect(0.0, y, 50.0, 20.0));
        b.text(em, " emphasis");
        n += 9;
        i += 1;
    }
    b.build()
}

fn main() -> Result<(), std::num::ParseIntError> {
    let reps: usize = std::env::args().nth(1).map_or(Ok(20), |s| s.parse())?;
    let snap = page();
    let tree = Tree::new(&snap);
    let mut ex = Extraction::empty(Algorithm::Td, snap.nodes.len());
    ex.kept = vec![true; snap.nodes.len()];
    let mut times = Vec::with_capacity(reps.max(1));
    let mut bytes = 0;
    for _ in 0..reps.max(1) {
        let t = Instant::now();
        let out = sightline::output::markdown::render(&tree, &ex);
        times.push(t.elapsed());
        bytes = out.len();
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "markdown writer: {} nodes -> {bytes} bytes: median {:.2} ms, fastest {:.2} ms ({} renders)",
        snap.nodes.len(),
        ms(times[times.len() / 2]),
        ms(times[0]),
        times.len()
    );
    Ok(())
}
