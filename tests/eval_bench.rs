//! Every page of the benchmark loads: manifest, gunzip, decode with `suggested_charset`, gold.
//! Two cleaneval pages declare charsets that are no encoding label at all (`iso-1252`, `0`);
//! they must fail with a typed error naming the page and the charset, and nothing else may
//! fail. Needs `../shared/bench` (or `$SIGHTLINE_BENCH`); `SIGHTLINE_SKIP_BENCH=1` skips.

mod common;
use common::bench_root;

use sightline::eval::bench::{list_datasets, Dataset, DATASETS};
use sightline::Error;

#[test]
fn every_page_loads_or_names_its_bad_charset() {
    let Some(root) = bench_root() else { return };
    assert_eq!(list_datasets(&root).unwrap(), DATASETS);
    let mut bad_charsets = Vec::new();
    let mut pages = 0;
    for name in DATASETS {
        let d = Dataset::open(&root, name).unwrap();
        for id in d.ids() {
            pages += 1;
            d.gold(id).unwrap();
            match d.html(id) {
                Ok(html) => assert!(html.len() > 100, "{name}/{id}: {} chars", html.len()),
                Err(e @ Error::Charset { .. }) => {
                    let msg = e.to_string();
                    assert!(msg.contains(id), "{msg}");
                    bad_charsets.push(format!("{name}/{id}"));
                }
                Err(e) => panic!("{name}/{id}: {e}"),
            }
        }
    }
    assert_eq!(pages, 739 + 621 + 130 + 376);
    assert_eq!(
        bad_charsets,
        vec!["cleaneval/final-304", "cleaneval/final-581"]
    );
    // wcxb-dev carries page types.
    let w = Dataset::open(&root, "wcxb-dev").unwrap();
    assert!(w.entries.iter().all(|e| e.page_type.is_some()));
}
