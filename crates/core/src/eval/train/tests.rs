//! Tests of `sightline train`: labels, the learner settings, reports and page scores.

use forust_ml::sampler::SampleMethod;

use super::fit::booster;
use super::*;
use crate::eval::metrics::{MacroScores, PageScore};
use crate::extract::learned::features::PageFeatures;
use crate::snapshot::{rect, SnapshotBuilder};
use crate::Tree;

#[test]
fn the_row_subsample_is_applied_not_only_stored() {
    let l = Learner::default();
    assert!(l.subsample < 1.0);
    assert_eq!(booster(&l, 3, 0).sample_method, SampleMethod::Random);
    let all_rows = Learner {
        subsample: 1.0,
        ..Learner::default()
    };
    assert_eq!(booster(&all_rows, 3, 0).sample_method, SampleMethod::None);
}

/// A bag of boosters fit with different seeds scores every row at the mean of their
/// log-odds, as forust's own prediction of the averaged booster and as the flat forest.
#[test]
fn an_averaged_booster_scores_the_mean_of_its_members_log_odds() {
    use crate::extract::learned::model::{column_major, Forest};
    use forust_ml::Matrix;
    // 200 rows of 3 features; the label depends on the first two, noisily.
    let (n, cols) = (200usize, 3usize);
    let mut rows = Vec::with_capacity(n * cols);
    let mut y = Vec::with_capacity(n);
    let mut state = 12345u64;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as f64 / (1u64 << 31) as f64
    };
    for _ in 0..n {
        let (a, b, c) = (next(), next(), next());
        rows.extend([a, b, c]);
        y.push(f64::from(u8::from(a + 0.5 * b + 0.3 * next() > 0.9)));
    }
    let w = vec![1.0; n];
    let l = Learner {
        min_leaf_weight: 1.0,
        ..Learner::default()
    };
    let fit_one = |seed: u64| {
        let mut b = booster(&Learner { seed, ..l.clone() }, 20, 0);
        let data = column_major(&rows, cols);
        b.fit(&Matrix::new(&data, n, cols), &y, &w, None).unwrap();
        b
    };
    let members = vec![fit_one(1), fit_one(2), fit_one(3)];
    let forests: Vec<Forest> = members.iter().map(Forest::of).collect();
    let avg = average(members);
    assert_eq!(avg.trees.len(), 60);
    let flat = Forest::of(&avg);
    let data = column_major(&rows, cols);
    let forust = avg.predict(&Matrix::new(&data, n, cols), false);
    let mut differ = 0;
    for (i, row) in rows.chunks_exact(cols).enumerate() {
        let scores: Vec<f64> = forests.iter().map(|f| f.score(row)).collect();
        let mean = scores.iter().sum::<f64>() / 3.0;
        assert!((flat.score(row) - mean).abs() < 1e-5, "row {i}");
        assert!((forust[i] - flat.score(row)).abs() < 1e-9, "row {i}");
        differ += usize::from((scores[0] - scores[1]).abs() > 1e-6);
    }
    // The seeds drew different rows: the members disagree, so the mean is not one of them.
    assert!(differ > n / 2, "{differ}");
    // A bag of one is that booster.
    let one = fit_one(1);
    let json = serde_json::to_string(&one).unwrap();
    assert_eq!(serde_json::to_string(&average(vec![one])).unwrap(), json);
}

#[test]
fn in_sample_rows_name_the_datasets_the_model_saw() {
    let four: Vec<String> = DATASETS.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        in_sample_kind(&four),
        "in-sample (trained on all four, as the shipped model)"
    );
    let three = &four[..3];
    assert_eq!(
        in_sample_kind(three),
        "in-sample (trained on cleaneval, l3s-gn1, readability)"
    );
}

#[test]
fn cross_validation_folds_deal_each_dataset_evenly_by_sorted_id() {
    let dir = tempfile::tempdir().unwrap();
    for (name, n) in [("a", 7), ("b", 3)] {
        let d = dir.path().join(name);
        std::fs::create_dir_all(&d).unwrap();
        // Manifest order is not id order: folds follow sorted ids.
        let manifest: String = (0..n)
            .rev()
            .map(|i| format!("{{\"id\": \"p{i}\"}}\n"))
            .collect();
        std::fs::write(d.join("manifest.jsonl"), manifest).unwrap();
    }
    let cfg = TrainConfig {
        datasets: vec!["a".into(), "b".into()],
        threads: 1,
        ..TrainConfig::new(dir.path().to_path_buf(), dir.path().to_path_buf())
    };
    let folds = cv_folds(&cfg, 3).unwrap();
    assert_eq!(folds.len(), 10);
    let f = |d: &str, id: &str| folds[&(d.to_string(), id.to_string())];
    assert_eq!(
        (0..7).map(|i| f("a", &format!("p{i}"))).collect::<Vec<_>>(),
        [0, 1, 2, 0, 1, 2, 0]
    );
    assert_eq!(
        (0..3).map(|i| f("b", &format!("p{i}"))).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    // The same inputs, the same folds.
    assert_eq!(cv_folds(&cfg, 3).unwrap(), folds);
}

#[test]
fn the_report_labels_cross_validated_rows_and_their_mean_apart_from_held_out_ones() {
    let ms = |f1: f64| MacroScores {
        lcs_f1: f1,
        ..MacroScores::default()
    };
    let rows = vec![
        Row {
            kind: "held out (trained on b)".into(),
            dataset: "a".into(),
            pages: 3,
            scores: ms(0.5),
        },
        Row {
            kind: format!("{CV_KIND} (5 folds, all datasets)"),
            dataset: "a".into(),
            pages: 3,
            scores: ms(0.8),
        },
        Row {
            kind: format!("{CV_KIND} (5 folds, all datasets)"),
            dataset: "b".into(),
            pages: 2,
            scores: ms(0.6),
        },
    ];
    assert_eq!(markdown(&[], &[]), "", "nothing scored, no table");
    let md = markdown(&rows, &[]);
    assert!(
        md.contains("| held out, mean of 1 datasets | | | 0.500 |"),
        "{md}"
    );
    assert!(
        md.contains("| cross-validated by page, mean of 2 datasets | | | 0.700 |"),
        "{md}"
    );
}

#[test]
fn held_out_page_scores_are_one_json_line_a_page_without_text() {
    let scored = vec![
        Scored {
            dataset: "wcxb-dev".into(),
            id: "dev-1".into(),
            page_type: Some("forum".into()),
            score: PageScore {
                lcs_p: 0.5,
                lcs_r: 1.0,
                lcs_f1: 2.0 / 3.0,
                out_tokens: 8,
                gold_tokens: 4,
                ..PageScore::default()
            },
            fold: Some(3),
        },
        Scored {
            dataset: "cleaneval".into(),
            id: "7".into(),
            page_type: None,
            score: PageScore::default(),
            fold: None,
        },
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pages.jsonl");
    write_page_scores(&scored, &path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["id"], "dev-1");
    assert_eq!(lines[0]["page_type"], "forum");
    assert_eq!(lines[0]["lcs_p"], 0.5);
    assert_eq!(lines[0]["out_tokens"], 8);
    assert_eq!(lines[0]["fold"], 3);
    assert!(lines[1]["page_type"].is_null());
    assert!(lines[1].get("fold").is_none());
    assert_eq!(lines[1]["gold_tokens"], 0);
    let missing = dir.path().join("no-such-dir").join("pages.jsonl");
    let err = write_page_scores(&scored, &missing)
        .unwrap_err()
        .to_string();
    assert!(err.contains("no-such-dir"), "{err}");
}

#[test]
fn the_threshold_maximises_the_estimated_f1_of_the_training_pages() {
    let page = Page {
        dataset: "d".into(),
        id: "1".into(),
        page_type: None,
        site: "d/1".into(),
        candidate: vec![false; 3],
        keeps_comments: false,
        features: PageFeatures {
            units: Vec::new(),
            rows: Vec::new(),
        },
        labels: vec![1.0, 1.0, 0.0],
        weights: vec![1.0; 3],
        share: vec![1.0, 1.0, 0.0],
        lens: vec![10, 10, 10],
        gold_tokens: 20,
    };
    // Keeping all three units: P 2/3, R 1; the first two: P = R = 1; the first: R 1/2.
    // The lowest grid threshold above 0.3 keeps exactly the first two.
    let t = choose_threshold(&[&page], &[vec![0.9, 0.6, 0.3]]);
    assert_eq!(t, 0.325);
}

#[test]
fn labels_mark_units_whose_tokens_align_with_the_gold() {
    let mut b = SnapshotBuilder::new(1000.0);
    let nav = b.el(0, "div", rect(0.0, 0.0, 1000.0, 30.0));
    b.text(nav, "Home News Sport");
    let p1 = b.el(0, "p", rect(0.0, 40.0, 1000.0, 30.0));
    b.text(p1, "The cat sat on the mat.");
    let p2 = b.el(0, "p", rect(0.0, 80.0, 1000.0, 30.0));
    b.text(p2, "It was a sunny day, news said.");
    let foot = b.el(0, "div", rect(0.0, 120.0, 1000.0, 30.0));
    b.text(foot, "Share on Twitter");
    let snap = b.build();
    let tree = Tree::new(&snap);
    let units = crate::extract::learned::units::units(&tree);
    let gold = "The cat sat on the mat. It was a sunny day, said the news.";
    let (share, lens) = align_labels(&units, gold);
    assert_eq!(lens, vec![3, 6, 7, 3]);
    assert_eq!(share[0], 0.0, "navigation shares no aligned token");
    assert_eq!(share[1], 1.0);
    // "it was a sunny day ... said": 6 of 7 tokens ("news" is out of order).
    assert!((share[2] - 6.0 / 7.0).abs() < 1e-12, "{}", share[2]);
    assert_eq!(share[3], 0.0);
}

#[test]
fn a_site_is_the_registrable_domain_or_the_page_itself() {
    let k = |u: Option<&str>| site_key(u, "ds", "p1");
    assert_eq!(k(Some("https://news.bbc.co.uk/a/b")), "bbc.co.uk");
    assert_eq!(k(Some("https://www.bbc.co.uk/")), "bbc.co.uk");
    assert_eq!(k(Some("https://shop.rei.com/x?y")), "rei.com");
    assert_eq!(k(Some("http://WWW.Example.ORG")), "example.org");
    assert_eq!(k(Some("https://www.news.com.au/story")), "news.com.au");
    assert_eq!(k(Some("http://127.0.0.1:8080/x")), "127.0.0.1");
    assert_eq!(k(Some("localhost")), "ds/p1");
    assert_eq!(k(None), "ds/p1");
}

#[test]
fn site_folds_keep_every_page_of_a_site_in_one_fold_across_datasets() {
    let dir = tempfile::tempdir().unwrap();
    let extra = tempfile::tempdir().unwrap();
    let write = |root: &std::path::Path, name: &str, rows: &[(&str, Option<&str>)]| {
        let d = root.join(name);
        std::fs::create_dir_all(&d).unwrap();
        let manifest: String = rows
            .iter()
            .map(|(id, url)| match url {
                Some(u) => format!("{{\"id\": \"{id}\", \"url\": \"{u}\"}}\n"),
                None => format!("{{\"id\": \"{id}\"}}\n"),
            })
            .collect();
        std::fs::write(d.join("manifest.jsonl"), manifest).unwrap();
    };
    let mut a = Vec::new();
    for i in 0..40 {
        a.push((
            format!("a{i}"),
            Some(format!("https://www.s{}.com/{i}", i % 10)),
        ));
    }
    let a_rows: Vec<(&str, Option<&str>)> =
        a.iter().map(|(i, u)| (i.as_str(), u.as_deref())).collect();
    write(dir.path(), "a", &a_rows);
    write(
        extra.path(),
        "b",
        &[
            ("b1", Some("https://shop.s3.com/other")),
            ("b2", None),
            ("b3", None),
        ],
    );
    let cfg = TrainConfig {
        datasets: vec!["a".into(), "b".into()],
        extra_benches: vec![extra.path().to_path_buf()],
        threads: 1,
        ..TrainConfig::new(dir.path().to_path_buf(), dir.path().to_path_buf())
    };
    assert_eq!(cfg.root_of("b"), extra.path());
    let folds = site_folds(&cfg, 5).unwrap();
    assert_eq!(folds.len(), 43);
    let f = |d: &str, id: &str| folds[&(d.to_string(), id.to_string())];
    // Every page of a site is in its site's fold (www.s3.com and shop.s3.com are one site,
    // across the two roots), and the ten sites spread over more than one fold.
    for i in 0..40 {
        assert_eq!(f("a", &format!("a{i}")), f("a", &format!("a{}", i % 10)));
    }
    assert_eq!(f("b", "b1"), f("a", "a3"));
    let used: std::collections::BTreeSet<usize> =
        (0..10).map(|i| f("a", &format!("a{i}"))).collect();
    assert!(used.len() > 1, "{used:?}");
    // Pages without a URL are sites of their own; the same inputs give the same folds.
    assert_eq!(site_folds(&cfg, 5).unwrap(), folds);
    let names = TrainConfig {
        datasets: Vec::new(),
        ..cfg.clone()
    }
    .dataset_names();
    assert_eq!(names.last().map(String::as_str), Some("b"));
}

#[test]
fn typed_pages_weigh_typed_page_weight_times_the_others() {
    let page = |page_type: Option<&str>| Page {
        dataset: "d".into(),
        id: "1".into(),
        page_type: page_type.map(str::to_string),
        site: "d/1".into(),
        candidate: vec![false; 2],
        keeps_comments: false,
        features: PageFeatures {
            units: Vec::new(),
            rows: Vec::new(),
        },
        labels: vec![1.0, 0.0],
        weights: vec![60.0, 40.0],
        share: vec![1.0, 0.0],
        lens: vec![5, 3],
        gold_tokens: 5,
    };
    let l = Learner {
        typed_page_weight: 3.0,
        ..Learner::default()
    };
    let w = |t: Option<&str>| super::fit::unit_weights(&page(t), &l).collect::<Vec<_>>();
    assert_eq!(w(Some("product")), vec![180.0, 120.0]);
    assert_eq!(w(Some("forum")), vec![180.0, 120.0]);
    assert_eq!(w(Some("article")), vec![60.0, 40.0]);
    assert_eq!(w(None), vec![60.0, 40.0]);
}

#[test]
fn the_exported_matrix_has_a_row_per_unit_and_a_line_per_page_without_text() {
    let n = crate::extract::learned::schema::FEATURES.len();
    let page = Page {
        dataset: "wcxb-dev".into(),
        id: "dev-7".into(),
        page_type: Some("product".into()),
        site: "example.co.uk".into(),
        candidate: vec![false; 2],
        keeps_comments: false,
        features: PageFeatures {
            units: vec![
                crate::extract::learned::units::Unit {
                    block: 4,
                    nodes: vec![5, 7],
                    text: "secret words".into(),
                    ancestors: [3, 2, 1],
                },
                crate::extract::learned::units::Unit {
                    block: 9,
                    nodes: vec![10],
                    text: "more".into(),
                    ancestors: [8, 2, 1],
                },
            ],
            rows: (0..2 * n).map(|v| v as f64 / 4.0).collect(),
        },
        labels: vec![1.0, 0.0],
        weights: vec![0.75, 0.25],
        share: vec![1.0, 0.5],
        lens: vec![3, 1],
        gold_tokens: 3,
    };
    let dir = tempfile::tempdir().unwrap();
    export(&[page], dir.path()).unwrap();
    let names = std::fs::read_to_string(dir.path().join("features.txt")).unwrap();
    assert_eq!(names.lines().count(), n);
    let rows = std::fs::read(dir.path().join("rows.f32")).unwrap();
    assert_eq!(rows.len(), 2 * n * 4);
    let last = f32::from_le_bytes(rows[rows.len() - 4..].try_into().unwrap());
    assert_eq!(last, (2 * n - 1) as f32 / 4.0);
    let meta = std::fs::read_to_string(dir.path().join("pages.jsonl")).unwrap();
    let line: serde_json::Value = serde_json::from_str(meta.trim()).unwrap();
    assert_eq!(line["site"], "example.co.uk");
    assert_eq!(line["page_type"], "product");
    assert_eq!(line["units"], 2);
    assert_eq!(line["share"][1], 0.5);
    assert_eq!(line["blocks"], serde_json::json!([4, 9]));
    assert_eq!(line["ancestors"][1], serde_json::json!([8, 2, 1]));
    assert_eq!(line["nodes"], serde_json::json!([[5, 7], [10]]));
    let keys: Vec<&String> = line.as_object().unwrap().keys().collect();
    assert!(!keys.iter().any(|k| k.contains("text")), "{keys:?}");
    assert!(!meta.contains("secret"), "no page text: {meta}");
}

/// `regions.jsonl`'s unit-to-region map: each unit's region is the innermost layout block whose
/// range holds the unit's block element or one of its ancestors, and no child block of it does.
#[test]
fn each_unit_lies_in_its_innermost_layout_block() {
    let snap = crate::snapshot::fixtures::nav_and_article();
    let tree = Tree::new(&snap);
    let units = crate::extract::learned::units::units(&tree);
    let p = crate::extract::params::BlocksParams::default();
    let (blocks, unit_region) = super::data::regions(&tree, &units, &p);
    assert_eq!(unit_region.len(), units.len());
    let seg = crate::extract::blocks::segment(&tree, &p);
    assert_eq!(blocks.len(), seg.blocks.len());
    assert_eq!(blocks[0][2], -1, "block 0 is the body's, with no parent");
    let holds = |b: usize, mut n: Option<usize>| {
        while let Some(i) = n {
            if seg.blocks[b].range.contains(&i) {
                return true;
            }
            n = tree.parent(i);
        }
        false
    };
    let mut distinct = std::collections::HashSet::new();
    for (u, &r) in units.iter().zip(&unit_region) {
        let r = r as usize;
        distinct.insert(r);
        assert!(holds(r, Some(u.block)), "{r} holds the unit");
        for &c in &seg.blocks[r].children {
            assert!(!holds(c, Some(u.block)), "child block {c} holds it too");
        }
    }
    // The navigation link and the article's paragraphs are not one region.
    assert!(distinct.len() > 1, "{unit_region:?}");
}
