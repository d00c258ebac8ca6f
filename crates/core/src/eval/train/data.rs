//! Training data: the pages with a snapshot and a gold text, their units' pass-1 features
//! and labels (the gold aligned with the units), and the exported training matrix.

use std::collections::HashMap;
use std::path::Path;

use super::TrainConfig;
use crate::eval::bench::Dataset;
use crate::eval::lcs::lcs_alignment;
use crate::extract::blocks;
use crate::extract::learned;
use crate::extract::learned::features::{self, PageFeatures};
use crate::extract::learned::schema::FEATURES;
use crate::extract::learned::units::Unit;
use crate::extract::params::BlocksParams;
use crate::extract::text::eval_tokens;
use crate::{Error, Snapshot, Tree};

/// One training page: its units' features and labels.
#[derive(Debug, Clone)]
pub struct Page {
    pub dataset: String,
    pub id: String,
    pub page_type: Option<String>,
    /// The page's site ([`site_key`]): pages of one site are near-duplicates, so folds that
    /// claim to hold sites out group pages by it.
    pub site: String,
    pub features: PageFeatures,
    /// 1 when at least half of the unit's tokens align with the gold.
    pub labels: Vec<f64>,
    /// Loss weight of each unit: its share of the page's tokens (every page weighs the same,
    /// as in the macro-averaged metric).
    pub weights: Vec<f64>,
    /// Share of each unit's tokens aligned with the gold ([`align_labels`]).
    pub share: Vec<f64>,
    /// Tokens of each unit.
    pub lens: Vec<usize>,
    /// Tokens of the gold text.
    pub gold_tokens: usize,
    /// Units in a reader-comment region ([`learned::comment_candidate`]).
    pub candidate: Vec<bool>,
    /// Whether this page's dataset's gold keeps reader comments ([`comment_policy`]); set
    /// by `train` after loading. Such pages' comment units are labelled boilerplate for the
    /// article passes and train the comment model.
    pub keeps_comments: bool,
}

impl Page {
    /// Label this page's comment-region units boilerplate (the article passes then never learn
    /// reader comments), whatever the gold says; `share` keeps what the gold says.
    pub fn relabel_comments(&mut self) {
        for (label, &c) in self.labels.iter_mut().zip(&self.candidate) {
            if c {
                *label = 0.0;
            }
        }
    }
}

/// Each dataset's reader-comment policy, measured from its gold: the share of the tokens of
/// its comment-region units ([`learned::comment_candidate`]) that align with the gold, and
/// those tokens. A share above one half means the gold keeps reader comments.
pub fn comment_policy(pages: &[Page]) -> std::collections::BTreeMap<String, (f64, usize)> {
    let mut acc: std::collections::BTreeMap<String, (f64, usize)> = Default::default();
    for p in pages {
        let e = acc.entry(p.dataset.clone()).or_default();
        for u in 0..p.candidate.len() {
            if p.candidate[u] {
                e.0 += p.share[u] * p.lens[u] as f64;
                e.1 += p.lens[u];
            }
        }
    }
    for v in acc.values_mut() {
        v.0 = if v.1 == 0 { 0.0 } else { v.0 / v.1 as f64 };
    }
    acc
}

/// Align the gold text with the units of a page: each unit's share of tokens that lie on a
/// longest common subsequence of the page's tokens (units in document order, eval
/// tokenisation) and the gold's tokens. Also returns the token count of each unit.
pub fn align_labels(units: &[Unit], gold: &str) -> (Vec<f64>, Vec<usize>) {
    let mut ids: HashMap<String, u32> = HashMap::new();
    let mut intern = |t: String| {
        let next = ids.len() as u32;
        *ids.entry(t).or_insert(next)
    };
    let mut seq = Vec::new();
    let mut lens = Vec::with_capacity(units.len());
    for u in units {
        let toks = eval_tokens(&u.text);
        lens.push(toks.len());
        seq.extend(toks.into_iter().map(&mut intern));
    }
    let gold_ids: Vec<u32> = eval_tokens(gold).into_iter().map(&mut intern).collect();
    let matched = lcs_alignment(&seq, &gold_ids);
    let mut out = Vec::with_capacity(units.len());
    let mut at = 0;
    for &n in &lens {
        let m = matched[at..at + n].iter().filter(|&&x| x).count();
        out.push(if n == 0 { 0.0 } else { m as f64 / n as f64 });
        at += n;
    }
    (out, lens)
}

/// The site a page belongs to: its URL's registrable domain, approximated as the host without
/// `www.` cut to its last two labels, or three when the second-level label is a generic one
/// under a two-letter country code (`news.bbc.co.uk` → `bbc.co.uk`, `shop.rei.com` →
/// `rei.com`). A page without a URL (CleanEval's and Readability's test pages have none) is
/// its own site, `<dataset>/<id>`.
pub fn site_key(url: Option<&str>, dataset: &str, id: &str) -> String {
    let host = url
        .and_then(|u| url::Url::parse(u).ok())
        .and_then(|u| u.host_str().map(str::to_ascii_lowercase));
    let Some(host) = host else {
        return format!("{dataset}/{id}");
    };
    if host.parse::<std::net::IpAddr>().is_ok() || host.starts_with('[') {
        return host;
    }
    let labels: Vec<&str> = host.split('.').filter(|l| !l.is_empty()).collect();
    let n = labels.len();
    let generic = [
        "co", "com", "org", "net", "ac", "gov", "edu", "or", "ne", "go",
    ];
    let keep = if n >= 3 && labels[n - 1].len() == 2 && generic.contains(&labels[n - 2]) {
        3
    } else {
        2
    };
    labels[n.saturating_sub(keep)..].join(".")
}

/// Read one snapshot file.
pub(super) fn read_snapshot(path: &Path) -> Result<Snapshot, Error> {
    let json = std::fs::read_to_string(path).map_err(|e| Error::Input {
        input: path.display().to_string(),
        message: format!("{e} (make snapshots with `sightline eval --save-snapshots DIR`)"),
        source: Some(Box::new(e)),
    })?;
    Snapshot::from_json(&json, &path.display().to_string())
}

/// The pages of the selected datasets that have a snapshot and a non-empty gold, in dataset
/// then sorted-id order. Missing snapshots are counted, not fatal.
pub fn load_pages(
    cfg: &TrainConfig,
    mut progress: impl FnMut(&str, usize, usize),
) -> Result<(Vec<Page>, usize), Error> {
    let names = cfg.dataset_names();
    let mut pages = Vec::new();
    let mut missing = 0;
    for name in &names {
        let ds = cfg.dataset(name)?;
        let mut ids: Vec<String> = ds.ids().map(str::to_string).collect();
        ids.sort();
        let threads = cfg.threads.max(1);
        let chunk = ids.len().div_ceil(threads).max(1);
        let ds_ref = &ds;
        let loaded: Vec<Result<Vec<Option<Page>>, Error>> = std::thread::scope(|scope| {
            let handles: Vec<_> = ids
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|id| load_page(cfg, ds_ref, id))
                            .collect::<Result<Vec<_>, Error>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("loading thread panicked"))
                .collect()
        });
        let before = pages.len();
        for part in loaded {
            for p in part? {
                match p {
                    Some(p) => pages.push(p),
                    None => missing += 1,
                }
            }
        }
        progress(name, pages.len() - before, ids.len());
    }
    Ok((pages, missing))
}

/// One page, or None when its snapshot is missing or its gold has no token.
fn load_page(cfg: &TrainConfig, ds: &Dataset, id: &str) -> Result<Option<Page>, Error> {
    let path = cfg.snapshots.join(&ds.name).join(format!("{id}.json"));
    if !path.is_file() {
        return Ok(None);
    }
    let gold = ds.gold(id)?;
    let gold_tokens = eval_tokens(&gold).len();
    if gold_tokens == 0 {
        return Ok(None);
    }
    let snap = read_snapshot(&path)?;
    let tree = Tree::new(&snap);
    let pf = features::page_features(&tree, &cfg.params);
    let (share, lens) = align_labels(&pf.units, &gold);
    let total: f64 = lens.iter().map(|&n| (n + 1) as f64).sum::<f64>().max(1.0);
    let candidate: Vec<bool> = (0..share.len())
        .map(|u| learned::comment_candidate(&pf, u))
        .collect();
    let labels = share
        .iter()
        .map(|&s| f64::from(u8::from(s >= 0.5)))
        .collect();
    let weights = lens
        .iter()
        .map(|&n| 100.0 * (n + 1) as f64 / total)
        .collect();
    let mut page = Page {
        dataset: ds.name.clone(),
        id: id.to_string(),
        page_type: ds.entry(id).and_then(|e| e.page_type.clone()),
        site: site_key(ds.entry(id).and_then(|e| e.url.as_deref()), &ds.name, id),
        features: pf,
        labels,
        weights,
        share,
        lens,
        gold_tokens,
        candidate,
        keeps_comments: false,
    };
    if cfg.relabel_comments.contains(&ds.name) {
        page.relabel_comments();
    }
    Ok(Some(page))
}

/// Write the training matrix of `pages` to `dir` for experiments outside sightline:
/// `features.txt` (one pass-1 feature name per line), `rows.f32` (every unit's feature row,
/// little-endian f32, row-major, pages in order; numpy:
/// `np.fromfile(p, '<f4').reshape(-1, len(names))`) and `pages.jsonl` (per page, in the same
/// order: dataset, id, page type, site ([`site_key`]), unit count, gold tokens, and per unit
/// its label, aligned share, token count, loss weight, and where it is in the page's snapshot:
/// `blocks`, `ancestors`, `nodes`, node ids). No page text is written.
pub fn export(pages: &[Page], dir: &Path) -> Result<(), Error> {
    let fail = |path: &Path, e: std::io::Error| Error::Output {
        path: path.display().to_string(),
        message: e.to_string(),
        source: Some(Box::new(e)),
    };
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
    let names = dir.join("features.txt");
    std::fs::write(&names, FEATURES.join("\n") + "\n").map_err(|e| fail(&names, e))?;
    let rows_path = dir.join("rows.f32");
    let mut rows = Vec::new();
    let mut meta = String::new();
    for p in pages {
        for &v in &p.features.rows {
            rows.extend_from_slice(&(v as f32).to_le_bytes());
        }
        let line = serde_json::json!({
            "dataset": p.dataset,
            "id": p.id,
            "page_type": p.page_type,
            "site": p.site,
            "units": p.labels.len(),
            "gold_tokens": p.gold_tokens,
            "labels": p.labels,
            "share": p.share,
            "lens": p.lens,
            "weights": p.weights,
            // Where each unit is in the page's snapshot (node ids: its block, the block's
            // three ancestors, its text nodes), for experiments that read the snapshot's
            // markup and text themselves (scripts/token-experiment).
            "blocks": p.features.units.iter().map(|u| u.block).collect::<Vec<_>>(),
            "ancestors": p.features.units.iter().map(|u| u.ancestors).collect::<Vec<_>>(),
            "nodes": p.features.units.iter().map(|u| &u.nodes).collect::<Vec<_>>(),
        });
        meta.push_str(&line.to_string());
        meta.push('\n');
    }
    std::fs::write(&rows_path, rows).map_err(|e| fail(&rows_path, e))?;
    let meta_path = dir.join("pages.jsonl");
    std::fs::write(&meta_path, meta).map_err(|e| fail(&meta_path, e))?;
    Ok(())
}

/// Write `regions.jsonl` beside [`export`]'s files: per page (same order), the layout blocks of
/// Griazev & Ramanauskaitė ([`blocks::segment`]) as candidate regions, `[max, min, parent,
/// group]` each (node ids of the maximum and minimum boundaries; parent block and variation
/// group indices, -1 for none), and `unit_region`, the innermost block holding each unit (the
/// first block, walking up from the unit's block element, whose range holds an ancestor).
/// Re-reads each page's snapshot from `cfg.snapshots`; no page text is written
/// (scripts/region-experiment reads it).
pub fn export_regions(cfg: &TrainConfig, pages: &[Page], dir: &Path) -> Result<(), Error> {
    let mut out = String::new();
    for p in pages {
        let path = cfg
            .snapshots
            .join(&p.dataset)
            .join(format!("{}.json", p.id));
        let snap = read_snapshot(&path)?;
        let tree = Tree::new(&snap);
        let (blocks, unit_region) = regions(&tree, &p.features.units, &cfg.params.blocks);
        let line = serde_json::json!({
            "dataset": p.dataset,
            "id": p.id,
            "blocks": blocks,
            "unit_region": unit_region,
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    super::fit::write_json(&out, &dir.join("regions.jsonl"))?;
    Ok(())
}

/// The page's layout blocks as `[max, min, parent, group]` rows and each unit's innermost
/// block (see [`export_regions`]).
pub(super) fn regions(tree: &Tree, units: &[Unit], p: &BlocksParams) -> (Vec<[i64; 4]>, Vec<i64>) {
    let seg = blocks::segment(tree, p);
    let mut owner: Vec<Option<usize>> = vec![None; tree.len()];
    for (b, block) in seg.blocks.iter().enumerate() {
        for &n in &block.range {
            owner[n] = Some(b);
        }
    }
    let signed = |v: Option<usize>| v.map_or(-1, |x| x as i64);
    let rows = seg
        .blocks
        .iter()
        .map(|b| {
            [
                b.max as i64,
                b.min as i64,
                signed(b.parent),
                signed(b.group),
            ]
        })
        .collect();
    let unit_region = units
        .iter()
        .map(|u| {
            let mut at = Some(u.block);
            while let Some(n) = at {
                if let Some(b) = owner[n] {
                    return b as i64;
                }
                at = tree.parent(n);
            }
            0
        })
        .collect();
    (rows, unit_region)
}
