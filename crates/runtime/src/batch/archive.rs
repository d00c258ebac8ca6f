//! The archive a batch writes (`--warc FILE`, `--wacz FILE`): one WARC for every page of the
//! run, a `warcinfo` record first, then each page's records appended whole under one lock
//! (the records of a page are contiguous, pages never interleave, and a page that fails
//! leaves the others as they are); with `--wacz`, the package is made from it when the run
//! finishes ([`ArchiveWriter::finish`]).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use parking_lot::Mutex;

use crate::archive::{self, PageCapture, PageEntry, Wacz};
use crate::Error;

/// The software named in `warcinfo` and `datapackage.json`.
const SOFTWARE: &str = concat!("sightline ", env!("CARGO_PKG_VERSION"));

/// Where a run's pages are archived.
#[derive(Debug)]
pub struct ArchiveWriter {
    inner: Mutex<Inner>,
}

#[derive(Debug)]
struct Inner {
    file: Option<File>,
    warc: PathBuf,
    /// The bytes written so far (the next record's offset).
    offset: u64,
    /// The WACZ to make at the end, and what goes in it besides the WARC.
    wacz: Option<(PathBuf, Wacz)>,
    /// The WARC is a temporary file of the WACZ's (removed once packaged).
    temporary: bool,
    pages: usize,
}

fn output_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Output {
        path: path.display().to_string(),
        message: e.to_string(),
        source: None,
    }
}

impl ArchiveWriter {
    /// Start a WARC at `warc` (created or truncated), a WACZ at `wacz` when the run finishes,
    /// or both; at least one must be given. With only a WACZ, its WARC is written beside it
    /// (`<wacz>.warc.gz.part`) and removed once packaged.
    pub fn create(warc: Option<&Path>, wacz: Option<&Path>) -> Result<ArchiveWriter, Error> {
        let (path, temporary) = match (warc, wacz) {
            (Some(w), _) => (w.to_path_buf(), false),
            (None, Some(z)) => {
                let mut p = z.as_os_str().to_owned();
                p.push(".warc.gz.part");
                (PathBuf::from(p), true)
            }
            (None, None) => {
                return Err(Error::Input {
                    input: "archive".into(),
                    message: "an archive needs a WARC or a WACZ path".into(),
                    source: None,
                })
            }
        };
        let mut file = File::create(&path).map_err(|e| output_error(&path, e))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let info = archive::warcinfo(&name, SOFTWARE, SystemTime::now())
            .map_err(|e| output_error(&path, e))?;
        file.write_all(&info).map_err(|e| output_error(&path, e))?;
        Ok(ArchiveWriter {
            inner: Mutex::new(Inner {
                file: Some(file),
                warc: path,
                offset: info.len() as u64,
                wacz: wacz.map(|z| (z.to_path_buf(), Wacz::default())),
                temporary,
                pages: 0,
            }),
        })
    }

    /// Append one page's records (and its entry in the WACZ's pages and index).
    pub fn write_page(&self, page: &PageCapture, title: &str) -> Result<(), Error> {
        let recs = archive::page_records(page).map_err(|e| Error::Internal {
            input: page.url.clone(),
            message: format!("cannot make the page's WARC records: {e}"),
        })?;
        let mut g = self.inner.lock();
        let inner = &mut *g;
        let Some(file) = inner.file.as_mut() else {
            return Err(output_error(
                &inner.warc,
                "the archive was already finished",
            ));
        };
        file.write_all(&recs.bytes)
            .map_err(|e| output_error(&inner.warc, e))?;
        let base = inner.offset;
        inner.offset += recs.bytes.len() as u64;
        inner.pages += 1;
        if let Some((_, w)) = inner.wacz.as_mut() {
            w.index.extend(recs.index.into_iter().map(|mut e| {
                e.offset += base;
                e
            }));
            w.pages.push(PageEntry {
                id: format!("page-{}", inner.pages),
                url: page.url.clone(),
                title: title.to_string(),
                ts: archive::warc_date(page.time.unwrap_or_else(SystemTime::now)),
                text: page.text.clone(),
            });
        }
        Ok(())
    }

    /// Pages archived so far.
    pub fn pages(&self) -> usize {
        self.inner.lock().pages
    }

    /// Close the WARC and make the WACZ, if one was asked for. Once; later calls do nothing.
    pub fn finish(&self) -> Result<(), Error> {
        let mut g = self.inner.lock();
        let Some(mut file) = g.file.take() else {
            return Ok(());
        };
        file.flush().map_err(|e| output_error(&g.warc, e))?;
        file.sync_all().map_err(|e| output_error(&g.warc, e))?;
        drop(file);
        if let Some((out, w)) = g.wacz.take() {
            w.write(&g.warc, &out, SOFTWARE, SystemTime::now())
                .map_err(|e| output_error(&out, e))?;
            if g.temporary {
                let _ = std::fs::remove_file(&g.warc);
            }
        }
        Ok(())
    }
}

impl Drop for ArchiveWriter {
    fn drop(&mut self) {
        if let Err(e) = self.finish() {
            tracing::error!("{e}");
        }
    }
}
