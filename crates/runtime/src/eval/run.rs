//! The benchmark runner behind `sightline eval`: each page rendered once, offline, from its
//! original bytes served on loopback with the manifest charset; every requested algorithm run
//! on that one snapshot; each output written to `OUT/<algorithm>/<dataset>/<id>.txt` and scored
//! against the gold.

use crate::render::BrowserError;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use futures::StreamExt;

use super::bench::Dataset;
use super::report::{PageResult, Results};
use super::rescore::page_result;
use super::sample::{sample_ids, Sample};
use crate::batch::PageRenderer;
use crate::extract::learned::model::Model;
use crate::extract::{extract_tree_with, Algorithm, Params};
use crate::output::text;
use crate::render::{Input, Rendered};
use crate::{Error, Tree};

/// What to run.
#[derive(Debug, Clone)]
pub struct EvalConfig {
    /// Benchmark root.
    pub root: PathBuf,
    /// Datasets (empty: all under the root).
    pub datasets: Vec<String>,
    pub algorithms: Vec<Algorithm>,
    /// At most this many pages per dataset.
    pub limit: Option<usize>,
    /// Take every K-th page of a dataset's sorted ids.
    pub every: usize,
    /// A stratified, seeded sample per dataset instead of `every`/`limit` (see
    /// [`super::sample`]).
    pub sample: Option<Sample>,
    /// Where texts go.
    pub out: PathBuf,
    pub params: Params,
    /// The `learned` model to run instead of the built-in one (`--model FILE`).
    pub model: Option<Arc<Model>>,
    /// Save each page's snapshot as `DIR/<dataset>/<id>.json`.
    pub save_snapshots: Option<PathBuf>,
    /// Score snapshots saved earlier in `DIR/<dataset>/<id>.json` instead of rendering (no
    /// browser; a missing snapshot counts as a failed page).
    pub from_snapshots: Option<PathBuf>,
    /// The datasets on which `learned` keeps reader comments (`--comments`), because their
    /// gold does; None: [`super::bench::GOLD_KEEPS_COMMENTS`].
    pub comments_in: Option<Vec<String>>,
    /// The steering plan each page renders with (`eval --block images` measures what
    /// skipping images changes); walls are always accepted and consent dialogs kept.
    pub steer: crate::render::Steer,
}

impl EvalConfig {
    /// Whether `learned` keeps reader comments on dataset `name` (its gold's policy).
    pub fn keeps_comments(&self, name: &str) -> bool {
        match &self.comments_in {
            Some(list) => list.iter().any(|d| d == name),
            None => super::bench::GOLD_KEEPS_COMMENTS.contains(&name),
        }
    }
}

/// Progress of a run, reported after each page.
#[derive(Debug, Clone)]
pub struct Progress<'a> {
    pub dataset: &'a str,
    pub done: usize,
    pub total: usize,
    pub failures: usize,
    pub elapsed_s: f64,
}

/// Counters beyond the scores.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct RunStats {
    /// Pages whose scripts tried to navigate the main frame away (blocked).
    pub pages_with_blocked_navigation: usize,
    /// Pages whose load event did not come before the deadline (captured as they were).
    pub pages_load_timed_out: usize,
    /// Pages whose scripts called `document.write`/`open` after parsing (ignored; it would
    /// have blanked them).
    pub pages_with_blocked_document_writes: usize,
    /// Pages rendered again after a repair of their HTML (an unclosed `<title>`).
    pub pages_repaired: usize,
    /// Pages whose scripted render showed far less text than their HTML holds and whose
    /// render with JavaScript disabled was kept (`Rendered::javascript`).
    pub pages_js_fallback: usize,
    /// Total render time and total scoring time per algorithm, in seconds.
    pub render_s: f64,
    pub score_s: BTreeMap<String, f64>,
    pub pages: usize,
    /// The datasets scored with reader comments kept (their gold keeps them).
    pub comments_kept_in: Vec<String>,
    /// Requests the render options' steering plan skipped (`eval --block`), over all pages;
    /// absent when none was.
    #[serde(skip_serializing_if = "no_skips")]
    pub requests_skipped: crate::render::steer::SkippedRequests,
    /// Pages by the render lane their snapshot came from (`eval --render auto|static`):
    /// `static`, `full`, `static-then-full`; absent without a lane.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub lanes: BTreeMap<String, usize>,
}

fn no_skips(s: &crate::render::steer::SkippedRequests) -> bool {
    s.total() == 0
}

/// The page ids a config selects from a dataset: the stratified sample when one is given,
/// else sorted, every K-th, at most `limit`.
pub fn select_ids(
    ds: &Dataset,
    every: usize,
    limit: Option<usize>,
    sample: Option<Sample>,
) -> Vec<String> {
    if let Some(s) = sample {
        return sample_ids(&ds.entries, s);
    }
    let mut ids: Vec<String> = ds.ids().map(str::to_string).collect();
    ids.sort();
    let ids: Vec<String> = ids.into_iter().step_by(every.max(1)).collect();
    match limit {
        Some(n) => ids.into_iter().take(n).collect(),
        None => ids,
    }
}

/// Score the benchmark from the snapshots [`EvalConfig::from_snapshots`] names, without a
/// browser (the front door's [`crate::Extractor::evaluate`] renders the pages instead).
pub async fn from_snapshots(
    cfg: &EvalConfig,
    progress: impl FnMut(Progress<'_>),
) -> Result<(Results, RunStats), Error> {
    run(None, cfg, progress).await
}

/// Render, extract and score every selected page. Render failures are recorded as failed
/// pages (scored as empty outputs); only a lost browser or unreadable data stops the run.
pub(crate) async fn run(
    renderer: Option<&dyn PageRenderer>,
    cfg: &EvalConfig,
    mut progress: impl FnMut(Progress<'_>),
) -> Result<(Results, RunStats), Error> {
    let names = if cfg.datasets.is_empty() {
        super::bench::list_datasets(&cfg.root)?
    } else {
        cfg.datasets.clone()
    };
    let mut pages: Vec<PageResult> = Vec::new();
    let mut seconds: BTreeMap<(String, String), f64> = BTreeMap::new();
    let mut stats = RunStats::default();
    let conc = renderer.map_or(1, |r| r.concurrency());
    // Scoring reads the text only.
    let text_params = cfg.params.text_only();
    // The bench measures extraction of what a page shows: a wall is extracted (its gold is
    // the page's words), and consent dialogs are kept as the saved page has them, so the
    // figures are those of the render without the walls' steps (docs/walls.md).
    let bench_page = {
        let mut steer = cfg.steer.clone();
        steer.accept_walls = true;
        steer.consent = crate::render::steer::Consent::Keep;
        crate::render::PageRender {
            screenshot: None,
            steer: Some(std::sync::Arc::new(steer)),
            capture: false,
        }
    };
    for name in &names {
        let ds = Dataset::open(&cfg.root, name)?;
        // Each dataset is scored with the comment policy its gold follows.
        let mut dataset_params = text_params.clone();
        if cfg.keeps_comments(name) {
            dataset_params.learned.comments = true;
            stats.comments_kept_in.push(name.clone());
        }
        let params = &dataset_params;
        let ids = select_ids(&ds, cfg.every, cfg.limit, cfg.sample);
        for a in &cfg.algorithms {
            let dir = cfg.out.join(a.name()).join(name);
            std::fs::create_dir_all(&dir).map_err(|e| Error::Output {
                path: dir.display().to_string(),
                message: e.to_string(),
                source: Some(Box::new(e)),
            })?;
        }
        let t0 = Instant::now();
        let ds_ref = &ds;
        let bench_page = &bench_page;
        let never = crate::batch::Cancel::new();
        let stream = crate::batch::pipeline(ids.iter().collect(), conc, never, |id: &String| {
            load_page(renderer, cfg, ds_ref, bench_page, id)
        });
        futures::pin_mut!(stream);
        let mut done = 0;
        let mut failures = 0;
        while let Some((id, (r, render_s))) = stream.next().await {
            done += 1;
            stats.pages += 1;
            stats.render_s += render_s;
            let gold = ds.gold(&id)?;
            match r {
                Ok(rendered) => {
                    stats.count(&rendered);
                    if let Some(dir) = &cfg.save_snapshots {
                        save_snapshot(dir, name, &id, &rendered)?;
                    }
                    let page = BenchPage {
                        dataset: name,
                        id: &id,
                        gold: &gold,
                    };
                    let scored = score_page(cfg, params, &page, &rendered, &mut stats.score_s)?;
                    pages.extend(scored);
                }
                Err(e) if BrowserError::is_gone(&e) => return Err(e),
                Err(e) => {
                    failures += 1;
                    tracing::warn!("{e}");
                    for &a in &cfg.algorithms {
                        pages.push(page_result(a.name(), name, &id, Err(e.to_string()), &gold));
                    }
                }
            }
            progress(Progress {
                dataset: name,
                done,
                total: ids.len(),
                failures,
                elapsed_s: t0.elapsed().as_secs_f64(),
            });
        }
        let wall = t0.elapsed().as_secs_f64();
        for a in &cfg.algorithms {
            seconds.insert((a.name().to_string(), name.clone()), wall);
        }
    }
    Ok((Results::from_pages(pages, &seconds), stats))
}

/// One page of the dataset: its saved snapshot (`from_snapshots`), or its bytes rendered
/// (`bench_page`); with the seconds it took.
async fn load_page(
    renderer: Option<&dyn PageRenderer>,
    cfg: &EvalConfig,
    ds_ref: &Dataset,
    bench_page: &crate::render::PageRender,
    id: &String,
) -> (String, (Result<Rendered, Error>, f64)) {
    if let Some(dir) = &cfg.from_snapshots {
        let path = dir.join(&ds_ref.name).join(format!("{id}.json"));
        let t = Instant::now();
        let r = std::fs::read_to_string(&path)
            .map_err(|e| Error::Input {
                input: path.display().to_string(),
                message: e.to_string(),
                source: Some(Box::new(e)),
            })
            .and_then(|json| {
                let snapshot = crate::Snapshot::from_json(&json, &path.display().to_string())?;
                Ok(Rendered::from_snapshot(snapshot, json))
            });
        return (id.clone(), (r, t.elapsed().as_secs_f64()));
    }
    let Some(renderer) = renderer else {
        let e = Error::Input {
            input: id.clone(),
            message: "no renderer and no saved snapshot".into(),
            source: None,
        };
        return (id.clone(), (Err(e), 0.0));
    };
    let r = match ds_ref.served(id) {
        Ok((bytes, charset)) => {
            let t = Instant::now();
            let r = renderer
                .render_with(
                    &Input::Html {
                        name: format!("{}/{id}", ds_ref.name),
                        bytes,
                        charset,
                    },
                    bench_page,
                )
                .await;
            (r, t.elapsed().as_secs_f64())
        }
        Err(e) => (Err(e), 0.0),
    };
    (id.clone(), r)
}

impl RunStats {
    /// Count what happened to one rendered page.
    fn count(&mut self, rendered: &Rendered) {
        if rendered.blocked_navigations > 0 {
            self.pages_with_blocked_navigation += 1;
        }
        if rendered.load_timed_out {
            self.pages_load_timed_out += 1;
        }
        if rendered.snapshot.document_writes_blocked > 0 {
            self.pages_with_blocked_document_writes += 1;
        }
        if rendered.repaired.is_some() {
            self.pages_repaired += 1;
        }
        if rendered.javascript.is_some() {
            self.pages_js_fallback += 1;
        }
        self.requests_skipped.add(&rendered.skipped_requests);
        if let Some(l) = &rendered.render {
            *self.lanes.entry(l.summary_key().to_string()).or_default() += 1;
        }
    }
}

/// Keep the page's snapshot as `DIR/<dataset>/<id>.json` (`--save-snapshots`).
fn save_snapshot(
    dir: &std::path::Path,
    name: &str,
    id: &str,
    rendered: &Rendered,
) -> Result<(), Error> {
    let d = dir.join(name);
    std::fs::create_dir_all(&d).map_err(|e| Error::Output {
        path: d.display().to_string(),
        message: e.to_string(),
        source: Some(Box::new(e)),
    })?;
    let p = d.join(format!("{id}.json"));
    std::fs::write(&p, &rendered.snapshot_json).map_err(|e| Error::Output {
        path: p.display().to_string(),
        message: e.to_string(),
        source: Some(Box::new(e)),
    })?;
    Ok(())
}

/// A benchmark page: its dataset, its id and its gold text.
struct BenchPage<'a> {
    dataset: &'a str,
    id: &'a str,
    gold: &'a str,
}

/// Every algorithm run on the rendered page, its text written to
/// `OUT/<algorithm>/<dataset>/<id>.txt` and scored against the gold; the scoring time added
/// to `score_s`.
fn score_page(
    cfg: &EvalConfig,
    params: &Params,
    page: &BenchPage<'_>,
    rendered: &Rendered,
    score_s: &mut BTreeMap<String, f64>,
) -> Result<Vec<PageResult>, Error> {
    let mut out = Vec::new();
    let tree = Tree::new(&rendered.snapshot);
    for &a in &cfg.algorithms {
        let t = Instant::now();
        let ex = extract_tree_with(&tree, a, params, cfg.model.as_deref());
        let txt = text::render(&tree, &ex);
        *score_s.entry(a.name().to_string()).or_default() += t.elapsed().as_secs_f64();
        let path = cfg
            .out
            .join(a.name())
            .join(page.dataset)
            .join(format!("{}.txt", page.id));
        std::fs::write(&path, &txt).map_err(|e| Error::Output {
            path: path.display().to_string(),
            message: e.to_string(),
            source: Some(Box::new(e)),
        })?;
        out.push(page_result(
            a.name(),
            page.dataset,
            page.id,
            Ok(&txt),
            page.gold,
        ));
    }
    Ok(out)
}
