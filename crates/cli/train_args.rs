//! The flags of `sightline train` (the `learned` model from the benchmark's saved snapshots:
//! held-out runs, cross-validation, sweeps) and their conversion to the library's
//! [`sightline::eval::train::TrainRun`].

use std::path::PathBuf;

use clap::Args;

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Benchmark root holding <dataset>/manifest.jsonl and gold/.
    #[arg(long, default_value = "../shared/bench", value_name = "DIR")]
    pub bench: PathBuf,
    /// More benchmark roots whose datasets are trained on and scored beside --bench's
    /// (repeatable), e.g. ../shared/bench-extra (wcxb-dev-more). Their snapshots go in the same
    /// --snapshots DIR, under their dataset names.
    #[arg(long = "extra-bench", value_name = "DIR")]
    pub extra_bench: Vec<PathBuf>,
    /// Saved snapshots, DIR/<dataset>/<id>.json (`sightline eval --save-snapshots DIR`).
    #[arg(long, value_name = "DIR")]
    pub snapshots: PathBuf,
    /// Datasets to train on (default: cleaneval, l3s-gn1, readability, wcxb-dev, and every
    /// dataset of --extra-bench).
    #[arg(long = "dataset", value_name = "NAME")]
    pub datasets: Vec<String>,
    /// Write the model trained on every dataset to FILE (the shipped one is
    /// models/learned.json, built into the binary).
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
    /// Leave-one-dataset-out: fit on all datasets but one, score that one, for each; print
    /// the held-out table (markdown, stdout).
    #[arg(long)]
    pub lodo: bool,
    /// Worker threads for reading snapshots and scoring.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub threads: usize,
    /// With --lodo: also score each held-out set at these decision thresholds (comma list).
    #[arg(long, value_delimiter = ',', value_name = "P,..")]
    pub sweep: Vec<f64>,
    /// With --lodo: hold out only this dataset (repeatable), for quick experiments; the
    /// published held-out table is the full four-fold run.
    #[arg(long = "lodo-only", value_name = "NAME")]
    pub lodo_only: Vec<String>,
    /// Seed of the learner's random row sampling. The default is the shipped model's seed;
    /// other seeds show how much of a difference between two runs is the draw (docs/quality.md,
    /// Quality: about 0.003 on the held-out mean).
    #[arg(long, value_name = "N", default_value_t = sightline::eval::train::Learner::default().seed)]
    pub seed: u64,
    /// Label the reader comments of this dataset (repeatable) as boilerplate for training:
    /// units in a comment container outside the page's article (Readability's), whatever the
    /// gold says. CleanEval's gold keeps such comments and the other datasets' gold does not;
    /// `--relabel-comments cleaneval` trains on one convention (scores are always against the
    /// gold as it is). Off by default: it did not raise the held-out mean (docs/quality.md).
    #[arg(long = "relabel-comments", value_name = "NAME")]
    pub relabel_comments: Vec<String>,
    /// With --lodo: write each fold's model to DIR/without-<dataset>.json (the same bytes as
    /// `train --dataset <the other three> --model FILE`), to score a held-out set again with
    /// other parameters: `sightline eval --from-snapshots S --dataset D --model
    /// DIR/without-D.json --params P`.
    #[arg(long = "lodo-models", value_name = "DIR", requires = "lodo")]
    pub lodo_models: Option<PathBuf>,
    /// With --lodo: write each held-out page's scores to FILE (JSON lines: dataset, id,
    /// page_type, lcs_f1, lcs_p, lcs_r, out_tokens, gold_tokens; no page text).
    #[arg(long = "lodo-pages", value_name = "FILE", requires = "lodo")]
    pub lodo_pages: Option<PathBuf>,
    /// Also run K-fold cross-validation by page: every dataset's pages are dealt into K
    /// folds (sorted ids, position mod K); each fold is scored by a model fit on the other
    /// folds of all datasets. Unlike --lodo, the model has seen other pages of the same
    /// dataset: the estimate for new pages like the benchmark's. Rows are labelled.
    #[arg(long, value_name = "K")]
    pub cv: Option<usize>,
    /// With --cv: deal pages into folds by `page` (sorted ids, position mod K) or by `site`
    /// (a hash of the URL's registrable domain mod K: every page of a site in one fold, so no
    /// scored page's site was seen in training; pages of one site are near-duplicates).
    #[arg(long = "cv-by", value_name = "page|site", default_value = "page", requires = "cv", value_parser = ["page", "site"])]
    pub cv_by: String,
    /// With --cv: write each cross-validated page's scores to FILE (as --lodo-pages).
    #[arg(long = "cv-pages", value_name = "FILE", requires = "cv")]
    pub cv_pages: Option<PathBuf>,
    /// With --cv: write each fold's model to DIR/fold-<f>.json (f from 0), to extract a
    /// fold's pages again and read them: `sightline eval --from-snapshots S --model
    /// DIR/fold-F.json --out O`, keeping the pages whose `fold` in --cv-pages is F.
    #[arg(long = "cv-models", value_name = "DIR", requires = "cv")]
    pub cv_models: Option<PathBuf>,
    /// Loss weight of a page whose manifest names a page type other than article (product,
    /// listing, forum, collection, service, documentation), against 1 for every other page.
    #[arg(long = "typed-page-weight", value_name = "W", default_value_t = sightline::eval::train::Learner::default().typed_page_weight)]
    pub typed_page_weight: f64,
    /// Boosters averaged in each of the model's ensembles, fit with seeds --seed, --seed +
    /// 7919, ...: the model is N times larger, its training N times slower, and its
    /// probabilities vary less with the seed.
    #[arg(long, value_name = "N", default_value_t = sightline::eval::train::Learner::default().bag as u64, value_parser = clap::value_parser!(u64).range(1..=8))]
    pub bag: u64,
    /// Also write the training matrix to DIR for experiments outside sightline:
    /// features.txt, rows.f32 (little-endian f32, row-major) and pages.jsonl (dataset,
    /// id, page type, site, labels, aligned shares, token counts, weights; no page text).
    /// scripts/learning-curve DIR reads it.
    #[arg(long, value_name = "DIR")]
    pub export: Option<PathBuf>,
    /// Fit the page-type model (the record's `page_type`) on the pages whose manifest names a
    /// page type (WCXB's) and write it to FILE (the shipped one is models/page-type.json),
    /// after printing its accuracy held out by site (5 folds) and its confusion matrix. Alone,
    /// it trains nothing else: `sightline train --snapshots S --extra-bench
    /// ../shared/bench-extra --dataset wcxb-dev --dataset wcxb-dev-more --page-type-model
    /// models/page-type.json`.
    #[arg(long = "page-type-model", value_name = "FILE")]
    pub page_type_model: Option<PathBuf>,
}

impl TrainArgs {
    /// The library's description of this run.
    pub fn to_run(&self) -> sightline::eval::train::TrainRun {
        use sightline::eval::train::{Learner, TrainConfig, TrainRun};
        TrainRun {
            cfg: TrainConfig {
                datasets: self.datasets.clone(),
                learner: Learner {
                    seed: self.seed,
                    typed_page_weight: self.typed_page_weight,
                    bag: self.bag as usize,
                    ..Learner::default()
                },
                threads: self.threads,
                sweep: self.sweep.clone(),
                held_out: self.lodo_only.clone(),
                relabel_comments: self.relabel_comments.clone(),
                extra_benches: self.extra_bench.clone(),
                ..TrainConfig::new(self.bench.clone(), self.snapshots.clone())
            },
            model_out: self.model.clone(),
            lodo: self.lodo,
            export: self.export.clone(),
            lodo_pages: self.lodo_pages.clone(),
            cv: self.cv,
            cv_by: if self.cv_by == "site" {
                sightline::eval::train::FoldBy::Site
            } else {
                sightline::eval::train::FoldBy::Page
            },
            cv_pages: self.cv_pages.clone(),
            cv_models: self.cv_models.clone(),
            lodo_models: self.lodo_models.clone(),
            page_type_out: self.page_type_model.clone(),
        }
    }
}
