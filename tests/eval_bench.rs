//! Every page of the benchmark loads: manifest, gunzip, decode with the charset it is served
//! with (`serve_charset`: the manifest's `suggested_charset`, or UTF-8), gold. Two cleaneval
//! pages declare charsets that are no encoding label at all (`iso-1252`, `0`): they are served
//! as UTF-8, and decoding with such a label is a typed error naming the page. Needs `../shared/bench`
//! (or `$SIGHTLINE_BENCH`): skipped without it, unless `SIGHTLINE_REQUIRE_BENCH=1`.

mod common;
use common::bench_root;

use sightline::eval::bench::{list_datasets, Dataset, DATASETS};
use sightline::Error;

#[test]
fn every_page_loads_with_the_charset_it_is_served_with() {
    let Some(root) = bench_root() else { return };
    assert_eq!(list_datasets(&root).unwrap(), DATASETS);
    let mut pages = 0;
    for name in DATASETS {
        let d = Dataset::open(&root, name).unwrap();
        for id in d.ids() {
            pages += 1;
            d.gold(id).unwrap();
            match d.html(id) {
                Ok(html) => assert!(html.len() > 100, "{name}/{id}: {} chars", html.len()),
                Err(e) => panic!("{name}/{id}: {e}"),
            }
        }
    }
    assert_eq!(pages, 739 + 621 + 130 + 376);
    // Two labels that are no encoding (`iso-1252`, `0`) are served as UTF-8, as the bytes of
    // those pages are (`serve_charset`); decoding with such a label names the page.
    let c = Dataset::open(&root, "cleaneval").unwrap();
    for id in ["final-304", "final-581"] {
        let label = c.suggested_charset(id).unwrap();
        let bytes = c.html_bytes(id).unwrap();
        assert_eq!(
            sightline::eval::bench::serve_charset(Some(label), &bytes),
            "utf-8"
        );
        let e = sightline::eval::bench::decode(&bytes, label, id).unwrap_err();
        assert!(
            matches!(e, Error::Charset { .. }) && e.to_string().contains(id),
            "{e}"
        );
    }
    // wcxb-dev carries page types.
    let w = Dataset::open(&root, "wcxb-dev").unwrap();
    assert!(w.entries.iter().all(|e| e.page_type.is_some()));
}
