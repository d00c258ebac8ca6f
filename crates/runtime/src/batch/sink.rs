//! Where a batch's records and page bodies go: stdout, one file, or a directory holding
//! `<slug>.<ext>` per page (plus screenshots) and `index.jsonl` with one record per input.
//! Records are written and flushed as each page completes, so an interrupted run loses
//! nothing it finished and `--resume` can continue it.

use std::collections::HashSet;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::inputs::slug;
use super::page::PageOut;
use super::record::Record;
use crate::output::json::AlgorithmResult;
use crate::output::Format;
use crate::Error;

/// Inputs that already have a record in a JSON Lines file (for `--resume`). A line cut by a
/// crash is not a record: its input runs again. A missing file means nothing is recorded.
fn recorded_inputs(path: &Path) -> HashSet<String> {
    let mut done = HashSet::new();
    let Ok(text) = std::fs::read_to_string(path) else {
        return done;
    };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
            if let Some(i) = v.get("input").and_then(|i| i.as_str()) {
                done.insert(i.to_string());
            }
        }
    }
    done
}

/// Where page bodies go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dest {
    Stdout,
    File(PathBuf),
    Dir(PathBuf),
}

impl Dest {
    /// The crawl's frontier file beside this output: `DIR/frontier.sqlite` for `-o DIR`,
    /// `FILE.frontier.sqlite` for `-o FILE`, none on stdout.
    pub fn frontier_file(&self) -> Option<PathBuf> {
        match self {
            Dest::Dir(d) => Some(d.join("frontier.sqlite")),
            Dest::File(f) => {
                let mut s = f.clone().into_os_string();
                s.push(".frontier.sqlite");
                Some(PathBuf::from(s))
            }
            Dest::Stdout => None,
        }
    }
}

/// Where a PNG goes: a file, or a directory that gets `<slug><suffix>.png`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PngTarget {
    pub path: PathBuf,
    pub is_dir: bool,
}

/// How to lay out a batch's outputs.
#[derive(Debug, Clone)]
pub struct SinkOptions {
    pub dest: Dest,
    pub format: Format,
    /// Several inputs (bodies on stdout get `==> input <==` headers).
    pub many: bool,
    pub screenshot: Option<PngTarget>,
    pub annotate: Option<PngTarget>,
    /// Append to existing records and report which inputs they hold.
    pub resume: bool,
}

impl SinkOptions {
    /// The JSON Lines file that receives one record per input, if any: `DIR/index.jsonl`,
    /// or the `-o FILE` of a JSON run.
    pub fn records_file(&self) -> Option<PathBuf> {
        match &self.dest {
            Dest::Dir(d) => Some(d.join("index.jsonl")),
            Dest::File(f) if self.format == Format::Json => Some(f.clone()),
            _ => None,
        }
    }
}

/// Writes each finished page.
pub struct Sink {
    opts: SinkOptions,
    stdout: Box<dyn Write + Send>,
    records: Option<File>,
}

fn io_err(path: &Path, e: std::io::Error) -> Error {
    Error::Output {
        path: path.display().to_string(),
        message: e.to_string(),
        source: Some(Box::new(e)),
    }
}

impl Sink {
    /// Create directories, open the records file (appending with `resume`), and return the
    /// inputs already recorded there (empty unless resuming).
    pub fn open(
        opts: SinkOptions,
        stdout: Box<dyn Write + Send>,
    ) -> Result<(Sink, HashSet<String>), Error> {
        if opts.resume && opts.records_file().is_none() {
            return Err(Error::Output {
                path: "-".into(),
                message: "--resume needs -o DIR, or -o FILE with --format jsonl".into(),
                source: None,
            });
        }
        for t in [&opts.screenshot, &opts.annotate].into_iter().flatten() {
            if t.is_dir {
                std::fs::create_dir_all(&t.path).map_err(|e| io_err(&t.path, e))?;
            }
        }
        if let Dest::Dir(d) = &opts.dest {
            std::fs::create_dir_all(d).map_err(|e| io_err(d, e))?;
        }
        let (records, skip) = match opts.records_file() {
            Some(f) => {
                let skip = if opts.resume {
                    recorded_inputs(&f)
                } else {
                    HashSet::new()
                };
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .write(true)
                    .append(opts.resume)
                    .truncate(!opts.resume)
                    .open(&f)
                    .map_err(|e| io_err(&f, e))?;
                (Some(file), skip)
            }
            None => (None, HashSet::new()),
        };
        Ok((
            Sink {
                opts,
                stdout,
                records,
            },
            skip,
        ))
    }

    /// Write one page: its PNGs, its body (file, directory or stdout) and its record.
    pub fn write(&mut self, out: &mut PageOut) -> Result<(), Error> {
        let name = out.record.input.clone();
        let s = slug(&name);
        let write_png = |bytes: &Option<Vec<u8>>,
                         target: &Option<PngTarget>,
                         suffix: &str|
         -> Result<Option<String>, Error> {
            let (Some(png), Some(t)) = (bytes, target) else {
                return Ok(None);
            };
            let p = if t.is_dir {
                t.path.join(format!("{s}{suffix}.png"))
            } else {
                t.path.clone()
            };
            std::fs::write(&p, png).map_err(|e| io_err(&p, e))?;
            Ok(Some(p.display().to_string()))
        };
        if let Some(p) = write_png(&out.screenshot, &self.opts.screenshot, "")? {
            out.record.screenshot = Some(p.clone());
            out.record.files.push(p);
        }
        if let Some(p) = write_png(&out.annotated, &self.opts.annotate, ".annotated")? {
            out.record.files.push(p);
        }
        let format = self.opts.format;
        let w = |e: std::io::Error| io_err(Path::new("-"), e);
        match &self.opts.dest {
            Dest::Dir(d) if !out.failed() => {
                let p = d.join(format!("{s}.{}", format.extension()));
                let body = if format == Format::Json {
                    to_json(&out.record, true)? + "\n"
                } else {
                    out.body.clone()
                };
                std::fs::write(&p, body).map_err(|e| io_err(&p, e))?;
                out.record.files.insert(0, p.display().to_string());
            }
            Dest::File(f) if format != Format::Json => {
                std::fs::write(f, &out.body).map_err(|e| io_err(f, e))?;
            }
            Dest::Stdout => {
                if format == Format::Json {
                    writeln!(self.stdout, "{}", to_json(&out.record, false)?).map_err(w)?;
                } else if !out.failed() {
                    if self.opts.many {
                        writeln!(self.stdout, "==> {name} <==").map_err(w)?;
                    }
                    self.stdout.write_all(out.body.as_bytes()).map_err(w)?;
                }
                self.stdout.flush().map_err(w)?;
            }
            _ => {}
        }
        if let Some(f) = self.records.as_mut() {
            // The index of `-o DIR` holds the record without the bulky content (it is in the
            // page's file).
            let mut rec = out.record.clone();
            if matches!(self.opts.dest, Dest::Dir(_)) {
                strip_bodies(&mut rec);
            }
            let path = self.opts.records_file().unwrap_or_default();
            writeln!(f, "{}", to_json(&rec, false)?).map_err(|e| io_err(&path, e))?;
            f.flush().map_err(|e| io_err(&path, e))?;
        }
        Ok(())
    }
}

fn to_json(r: &Record, pretty: bool) -> Result<String, Error> {
    let s = if pretty {
        serde_json::to_string_pretty(r)
    } else {
        serde_json::to_string(r)
    };
    s.map_err(|e| Error::Output {
        path: r.input.clone(),
        message: format!("cannot serialise the record: {e}"),
        source: Some(Box::new(e)),
    })
}

/// Drop text, html and content from a record (the index of `-o DIR` keeps only metadata).
pub(crate) fn strip_bodies(rec: &mut Record) {
    let strip = |r: &mut AlgorithmResult| {
        r.text.clear();
        r.html.clear();
        r.markdown.clear();
        r.sections.clear();
        r.content.clear();
    };
    if let Some(r) = rec.result.as_mut() {
        strip(r);
    }
    if let Some(m) = rec.algorithms.as_mut() {
        m.values_mut().for_each(strip);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resume_reads_complete_lines_only() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("index.jsonl");
        std::fs::write(&p, "{\"input\":\"a\"}\n{\"input\":\"b\"}\n{\"input\":\"c\"").unwrap();
        let got = recorded_inputs(&p);
        assert!(got.contains("a") && got.contains("b") && !got.contains("c"));
        assert!(recorded_inputs(&d.path().join("none")).is_empty());
    }
}
