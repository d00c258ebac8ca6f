//! `sightline train` end to end on a small bench built here (no browser, no `../shared/bench`):
//! leave-one-dataset-out writes each fold's model, and that file is the one `train --dataset
//! <the others> --model FILE` writes, byte for byte, so a held-out set can be scored again.

use std::fs;
use std::path::Path;

use sightline::eval::train::{load_pages, run, score_pages, TrainConfig, TrainRun};
use sightline::extract::learned::comment_candidate;
use sightline::extract::learned::model::Model;
use sightline::snapshot::{rect, SnapshotBuilder};

const SENTENCES: [&str; 8] = [
    "The harbour bridge reopened to traffic on Monday morning after two years of repairs to its corroded cables.",
    "Commuters who had faced a long detour through the industrial district welcomed the news on the radio.",
    "Engineers said the new galvanised steel strands should last eighty years if they are inspected regularly.",
    "The repairs cost about 140 million euros, more than the estimate, because storms delayed the works.",
    "A ceremony with the mayor and the workers who rebuilt the deck is planned for the coming weekend.",
    "Local shops near the eastern ramp said their trade had fallen by a third while the bridge was shut.",
    "The council will publish the final accounts of the project before the budget debate in the spring.",
    "Cyclists will get a separate lane on the southern side once the last barriers are taken away.",
];

/// A page: a menu, an article of three sentences chosen by `k`, a footer. Returns the
/// snapshot and its gold text (the headline and the article).
fn page(k: usize) -> (sightline::Snapshot, String) {
    page_with_comments(k, &[])
}

/// [`page`] with a reader-comment section after the article (`div#comments`, one
/// `div.comment-body` each) that the gold keeps, as CleanEval's gold does.
fn page_with_comments(k: usize, comments: &[&str]) -> (sightline::Snapshot, String) {
    let mut b = SnapshotBuilder::new(1366.0);
    b.title("Example News");
    let nav = b.el(0, "nav", rect(0.0, 0.0, 1366.0, 40.0));
    b.node_mut(nav).class = Some("main-menu".into());
    for (i, w) in ["Home", "World", "Business", "Sport", "Culture"]
        .iter()
        .enumerate()
    {
        let a = b.el(nav, "a", rect(100.0 * i as f64, 0.0, 100.0, 40.0));
        b.text(a, w);
    }
    let art = b.el(0, "article", rect(283.0, 100.0, 800.0, 700.0));
    let h1 = b.el(art, "h1", rect(283.0, 100.0, 800.0, 90.0));
    b.node_mut(h1).font_size = 36.0;
    let headline = format!("Bridge story number {k}");
    b.text(h1, &headline);
    let mut gold = headline.clone();
    for j in 0..3 {
        let t = SENTENCES[(k + j) % SENTENCES.len()];
        let p = b.el(
            art,
            "p",
            rect(283.0, 210.0 + 140.0 * j as f64, 800.0, 120.0),
        );
        b.node_mut(p).font_size = 18.0;
        b.text(p, t);
        gold.push('\n');
        gold.push_str(t);
    }
    if !comments.is_empty() {
        let section = b.el(0, "div", rect(283.0, 820.0, 800.0, 60.0));
        b.node_mut(section).id = Some("comments".into());
        for (i, t) in comments.iter().enumerate() {
            let y = 820.0 + 30.0 * i as f64;
            let c = b.el(section, "div", rect(283.0, y, 800.0, 28.0));
            b.node_mut(c).class = Some("comment-body".into());
            let p = b.el(c, "p", rect(283.0, y, 800.0, 28.0));
            b.text(p, t);
            gold.push('\n');
            gold.push_str(t);
        }
    }
    let footer = b.el(0, "footer", rect(0.0, 900.0, 1366.0, 60.0));
    b.node_mut(footer).font_size = 12.0;
    b.text(footer, "© Example News. About us · Contact · Terms of use");
    (b.build(), gold)
}

/// Datasets `a` and `b`, four pages each: bench (manifest, gold) and snapshots under `root`.
fn mini_bench(root: &Path) {
    for (d, name) in ["a", "b"].iter().enumerate() {
        let dir = root.join("bench").join(name);
        fs::create_dir_all(dir.join("gold")).unwrap();
        fs::create_dir_all(root.join("snaps").join(name)).unwrap();
        let mut manifest = String::new();
        for i in 0..4 {
            let id = format!("p{i}");
            let (snap, gold) = page(d * 4 + i);
            manifest.push_str(&format!("{{\"id\": \"{id}\"}}\n"));
            fs::write(dir.join("gold").join(format!("{id}.txt")), gold).unwrap();
            fs::write(
                root.join("snaps").join(name).join(format!("{id}.json")),
                snap.to_json(),
            )
            .unwrap();
        }
        fs::write(dir.join("manifest.jsonl"), manifest).unwrap();
    }
}

fn train_run(root: &Path, datasets: &[&str]) -> TrainRun {
    TrainRun {
        cfg: TrainConfig {
            datasets: datasets.iter().map(|s| s.to_string()).collect(),
            threads: 1,
            ..TrainConfig::new(root.join("bench"), root.join("snaps"))
        },
        model_out: None,
        lodo: false,
        export: None,
        lodo_pages: None,
        cv: None,
        cv_by: Default::default(),
        cv_pages: None,
        cv_models: None,
        lodo_models: None,
        page_type_out: None,
    }
}

#[test]
fn lodo_writes_each_folds_model_as_train_on_the_other_datasets_would() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    mini_bench(root);

    let mut r = train_run(root, &["a", "b"]);
    r.lodo = true;
    r.lodo_models = Some(root.join("folds/nested"));
    let report = run(&r, |_| {}).unwrap();
    assert!(report.contains("held out (trained on b)"), "{report}");
    assert!(report.contains("held out (trained on a)"), "{report}");

    for (held, other) in [("a", "b"), ("b", "a")] {
        let fold = root.join(format!("folds/nested/without-{held}.json"));
        let bytes = fs::read_to_string(&fold).unwrap();
        let m = Model::from_json(&bytes, &fold.display().to_string()).unwrap();
        assert!(
            m.description.ends_with(&format!("trained on {other}")),
            "{}",
            m.description
        );

        // The same model as training on the other dataset alone.
        let mut single = train_run(root, &[other]);
        let out = root.join(format!("only-{other}.json"));
        single.model_out = Some(out.clone());
        let report = run(&single, |_| {}).unwrap();
        assert!(
            report.contains(&format!("in-sample (trained on {other})")),
            "{report}"
        );
        assert_eq!(
            fs::read_to_string(&out).unwrap(),
            bytes,
            "fold without {held}"
        );
    }
}

/// CleanEval keeps reader comments in its gold; the other datasets do not. `train` labels the
/// comment units of the datasets in `relabel_comments` as boilerplate, and only those.
#[test]
fn comments_outside_the_article_are_relabelled_only_in_the_named_datasets() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let comments = [
        "I drove across it this morning and the traffic was much lighter than I expected today.",
        "About time too, the detour added half an hour to my commute every single working day.",
    ];
    let dir = root.join("bench/c");
    fs::create_dir_all(dir.join("gold")).unwrap();
    fs::create_dir_all(root.join("snaps/c")).unwrap();
    let (snap, gold) = page_with_comments(2, &comments);
    fs::write(dir.join("manifest.jsonl"), "{\"id\": \"p0\"}\n").unwrap();
    fs::write(dir.join("gold/p0.txt"), &gold).unwrap();
    fs::write(root.join("snaps/c/p0.json"), snap.to_json()).unwrap();

    let labels = |relabel: &[&str]| {
        let mut cfg = train_run(root, &["c"]).cfg;
        cfg.relabel_comments = relabel.iter().map(|s| s.to_string()).collect();
        let (pages, _) = load_pages(&cfg, |_, _, _| {}).unwrap();
        let p = &pages[0];
        let of = |needle: &str| {
            let u = p
                .features
                .units
                .iter()
                .position(|u| u.text.contains(needle))
                .unwrap_or_else(|| panic!("no unit holds {needle:?}"));
            (p.labels[u], comment_candidate(&p.features, u))
        };
        (of("I drove across"), of("About time too"), of(SENTENCES[2]))
    };
    // As aligned: the gold keeps both comments and the article.
    assert_eq!(labels(&[]), ((1.0, true), (1.0, true), (1.0, false)));
    // Relabelled in `c`: the comments are boilerplate, the article is still content.
    assert_eq!(labels(&["c"]), ((0.0, true), (0.0, true), (1.0, false)));
    // Naming another dataset changes nothing here.
    assert_eq!(labels(&["other"]), labels(&[]));
}

/// `--cv-models`: each fold's model is written, every page row names its fold, and scoring a
/// page with its fold's model gives the row's score again.
#[test]
fn cross_validation_writes_each_folds_model_and_each_pages_fold() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    mini_bench(root);

    let mut r = train_run(root, &["a", "b"]);
    r.cv = Some(2);
    r.cv_models = Some(root.join("cv-folds"));
    r.cv_pages = Some(root.join("cv-pages.jsonl"));
    run(&r, |_| {}).unwrap();

    let rows: Vec<serde_json::Value> = fs::read_to_string(root.join("cv-pages.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 8);
    for row in &rows {
        let fold = row["fold"]
            .as_u64()
            .expect("every cross-validated row has a fold");
        assert!(fold < 2, "{row}");
        let path = root.join(format!("cv-folds/fold-{fold}.json"));
        let m = Model::from_json(&fs::read_to_string(&path).unwrap(), "fold").unwrap();
        let (ds, id) = (
            row["dataset"].as_str().unwrap(),
            row["id"].as_str().unwrap(),
        );
        let again = score_pages(&r.cfg, &m, ds, |p| p == id).unwrap();
        assert_eq!(again.len(), 1, "{row}");
        assert_eq!(
            again[0].score.lcs_f1,
            row["lcs_f1"].as_f64().unwrap(),
            "{row}"
        );
    }
}
