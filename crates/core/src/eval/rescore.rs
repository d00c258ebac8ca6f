//! Scoring saved outputs against the benchmark gold: a directory laid out as
//! `DIR/<algorithm>/<dataset>/<id>.txt` (what `sightline eval --rescore DIR` reads), or one
//! dataset's outputs from any set of directories.
//!
//! Every page of the dataset's manifest is scored: a missing `<id>.txt` is a failure (no
//! output) and scores as an empty output, 0. Pages are scored on all available cores.

use std::fs;
use std::path::{Path, PathBuf};

use super::bench::{read_optional_utf8, Dataset};
use super::metrics::{score_tokens, PageScore};
use super::results::{PageResult, Results, Summary};
use crate::extract::text::eval_tokens;
use crate::Error;

/// Scores every `DIR/<algorithm>/<dataset>/<id>.txt` under `outputs` against the gold of
/// `<root>/<dataset>`. Algorithms are the subdirectories of `outputs` (sorted); a dataset
/// directory that the bench root lacks is an error.
pub fn rescore_dir(outputs: &Path, root: &Path) -> Result<Results, Error> {
    let algorithms = subdirs(outputs)?;
    if algorithms.is_empty() {
        return Err(Error::Input {
            input: outputs.display().to_string(),
            message: "no algorithm directories: expected DIR/<algorithm>/<dataset>/<id>.txt"
                .to_string(),
            source: None,
        });
    }
    let mut datasets: Vec<String> = Vec::new();
    for algorithm in &algorithms {
        for d in subdirs(&outputs.join(algorithm))? {
            if !datasets.contains(&d) {
                datasets.push(d);
            }
        }
    }
    datasets.sort_by_key(|d| dataset_rank(d));
    let mut results = Results::default();
    for name in &datasets {
        let dataset = Dataset::open(root, name)?;
        let dirs: Vec<(String, PathBuf)> = algorithms
            .iter()
            .map(|a| (a.clone(), outputs.join(a).join(name)))
            .filter(|(_, dir)| dir.is_dir())
            .collect();
        results.extend(score_dataset(&dataset, &dirs)?);
    }
    Ok(results)
}

pub use super::results::dataset_rank;

/// Sorted names of the subdirectories of `dir`.
fn subdirs(dir: &Path) -> Result<Vec<String>, Error> {
    let read = fs::read_dir(dir).map_err(|e| Error::Input {
        input: dir.display().to_string(),
        message: format!(
            "{e}: expected a directory laid out as DIR/<algorithm>/<dataset>/<id>.txt"
        ),
        source: Some(Box::new(e)),
    })?;
    let mut names: Vec<String> = read
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    Ok(names)
}

/// Scores each `(algorithm, directory)`'s `<directory>/<id>.txt` against the gold of every page
/// of `dataset`. The gold is read and tokenized once per page.
pub fn score_dataset(dataset: &Dataset, outputs: &[(String, PathBuf)]) -> Result<Results, Error> {
    let ids: Vec<&str> = dataset.ids().collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8);
    let chunk = ids.len().div_ceil(threads).max(1);
    // Per page, one result per algorithm (in `outputs` order).
    let scored: Vec<Result<Vec<Vec<PageResult>>, Error>> = std::thread::scope(|scope| {
        let handles: Vec<_> = ids
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|id| score_page(dataset, outputs, id))
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("scoring thread panicked"))
            .collect()
    });
    let mut per_algorithm: Vec<Vec<PageResult>> =
        vec![Vec::with_capacity(ids.len()); outputs.len()];
    for part in scored {
        for page in part? {
            for (slot, result) in per_algorithm.iter_mut().zip(page) {
                slot.push(result);
            }
        }
    }
    let mut results = Results::default();
    for ((algorithm, _), pages) in outputs.iter().zip(per_algorithm) {
        results
            .summaries
            .push(Summary::from_pages(algorithm, &dataset.name, &pages, None));
        results.pages.extend(pages);
    }
    Ok(results)
}

/// One page of `dataset` for every algorithm of `outputs`.
fn score_page(
    dataset: &Dataset,
    outputs: &[(String, PathBuf)],
    id: &str,
) -> Result<Vec<PageResult>, Error> {
    let gold = eval_tokens(&dataset.gold(id)?);
    let mut out = Vec::with_capacity(outputs.len());
    for (algorithm, dir) in outputs {
        let path = dir.join(format!("{id}.txt"));
        let (score, failure) = match read_optional_utf8(&path)? {
            Some(text) => (score_tokens(&eval_tokens(&text), &gold), None),
            None => (
                score_tokens::<String>(&[], &gold),
                Some(format!("no output file {}", path.display())),
            ),
        };
        out.push(PageResult {
            algorithm: algorithm.clone(),
            dataset: dataset.name.clone(),
            id: id.to_string(),
            score,
            failure,
        });
    }
    Ok(out)
}

/// Scores one output text against one gold text (a convenience over
/// [`super::metrics::score`] for callers holding [`PageResult`] fields).
pub fn page_result(
    algorithm: &str,
    dataset: &str,
    id: &str,
    output: Result<&str, String>,
    gold: &str,
) -> PageResult {
    let (score, failure): (PageScore, Option<String>) = match output {
        Ok(text) => (super::metrics::score(text, gold), None),
        Err(e) => (super::metrics::score("", gold), Some(e)),
    };
    PageResult {
        algorithm: algorithm.to_string(),
        dataset: dataset.to_string(),
        id: id.to_string(),
        score,
        failure,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rescores_a_directory_tree() {
        let root = tempfile::tempdir().unwrap();
        let bench = root.path().join("bench");
        let d = bench.join("cleaneval");
        fs::create_dir_all(d.join("gold")).unwrap();
        fs::write(
            d.join("manifest.jsonl"),
            "{\"id\":\"a\"}\n{\"id\":\"b\"}\n{\"id\":\"c\"}\n",
        )
        .unwrap();
        fs::write(d.join("gold/a.txt"), "one two three four").unwrap();
        fs::write(d.join("gold/b.txt"), "five six").unwrap();
        fs::write(d.join("gold/c.txt"), " -- ").unwrap(); // no token: skipped
        let out = root.path().join("out");
        for algo in ["alpha", "beta"] {
            fs::create_dir_all(out.join(algo).join("cleaneval")).unwrap();
        }
        fs::write(out.join("alpha/cleaneval/a.txt"), "one two three four").unwrap();
        fs::write(out.join("alpha/cleaneval/b.txt"), "").unwrap();
        fs::write(out.join("beta/cleaneval/a.txt"), "one two").unwrap();
        fs::write(out.join("beta/cleaneval/b.txt"), "five six").unwrap();

        let r = rescore_dir(&out, &bench).unwrap();
        assert_eq!(r.pages.len(), 6);
        let alpha = r.summary("alpha", "cleaneval").unwrap();
        // a: 1.0 ; b: empty output 0 ; c skipped -> mean 0.5 ; c has no file -> a failure.
        assert_eq!(
            (alpha.scores.pages, alpha.scores.skipped_empty_gold),
            (2, 1)
        );
        assert_eq!((alpha.failures, alpha.empty_outputs), (1, 1));
        assert!((alpha.scores.lcs_f1 - 0.5).abs() < 1e-12);
        let beta = r.summary("beta", "cleaneval").unwrap();
        // a: P = 1, R = 0.5, F1 = 2/3 ; b: 1.0 -> mean 5/6 ; b missing? no: c missing.
        assert!((beta.scores.lcs_f1 - 5.0 / 6.0).abs() < 1e-12);
        assert!((beta.scores.lcs_r - 0.75).abs() < 1e-12);
        assert_eq!(beta.failures, 1);

        // A dataset the bench lacks is an error naming it.
        fs::create_dir_all(out.join("beta/nope")).unwrap();
        let e = rescore_dir(&out, &bench).unwrap_err().to_string();
        assert!(e.contains("nope"), "{e}");
    }

    #[test]
    fn failed_page_scores_zero() {
        let p = page_result("x", "d", "1", Err("timeout".into()), "gold words");
        assert_eq!(
            (p.score.lcs_f1, p.score.gold_tokens, p.failure.as_deref()),
            (0.0, 2, Some("timeout"))
        );
    }
}
