//! Scoring trafilatura's saved outputs (`shared/bench/<dataset>/peers/trafilatura/<id>.txt`)
//! with our metric must reproduce trafilatura's rows of `shared/bench/PEERS.md` to three
//! decimals, for every dataset and every metric. This pins the tokenizer and the metric to the
//! published numbers that every other tool is compared with.
//!
//! The bench lives beside the project (`../shared/bench`, or `$SIGHTLINE_BENCH`). If it is
//! missing the test is skipped with one line naming `SIGHTLINE_BENCH`, or fails with
//! `SIGHTLINE_REQUIRE_BENCH=1` (as in CI).

mod common;
use common::bench_root;
use std::time::Instant;

use sightline::eval::bench::DATASETS;
use sightline::eval::metrics::METRICS;
use sightline::eval::peers::{score_peer, PeerTable};

/// Pages with gold holding at least one token, per dataset.
const SCORED_PAGES: [(&str, usize); 4] = [
    ("cleaneval", 732),
    ("l3s-gn1", 621),
    ("readability", 130),
    ("wcxb-dev", 376),
];

#[test]
fn trafilatura_outputs_reproduce_peers_md() {
    let Some(root) = bench_root() else { return };
    let peers = PeerTable::load(&root.join("PEERS.md")).unwrap();
    let start = Instant::now();
    let results = score_peer(&root, "trafilatura", &DATASETS).unwrap();
    let elapsed = start.elapsed();

    let mut mismatches = Vec::new();
    for dataset in DATASETS {
        let s = results.summary("trafilatura", dataset).unwrap();
        let expected_pages = SCORED_PAGES.iter().find(|(d, _)| *d == dataset).unwrap().1;
        assert_eq!(s.scores.pages, expected_pages, "{dataset}: scored pages");
        assert_eq!(s.failures, 0, "{dataset}: every page has an output file");
        let mut line = format!("{dataset:12}");
        for metric in METRICS {
            let ours = s.scores.metric(metric).unwrap();
            let published = peers.get(metric, "trafilatura", dataset).unwrap();
            line += &format!(" {metric}={ours:.5}/{published:.3}");
            // Rounded to three decimals, ours must print as the published value.
            if ((ours * 1000.0).round() - (published * 1000.0).round()).abs() > 0.5 {
                mismatches.push(format!(
                    "{dataset} {metric}: ours {ours:.6}, PEERS.md {published:.3}"
                ));
            }
        }
        eprintln!("{line}");
    }
    eprintln!("scored {} pages in {:.1?}", results.pages.len(), elapsed);
    assert!(
        mismatches.is_empty(),
        "not reproduced:\n{}",
        mismatches.join("\n")
    );
}
