//! The frontier on disk: every URL the crawl knows, with its depth, parent, how it was
//! found and whether it was fetched, in an SQLite file beside the output (`rusqlite`, SQLite
//! built in), so a crawl killed at any point resumes where it was. Writes are in WAL mode
//! with `synchronous=NORMAL`: a commit survives the process being killed.
//!
//! States: queued (0), taken (1: dispatched, not yet recorded; queued again on open),
//! done (2: recorded), skipped (3: not fetched: robots.txt, or listed only by `map`).

use std::path::Path;

use rusqlite::{params, Connection, OptionalExtension};

use crate::Error;

/// How a URL was found (the record's `found_in`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FoundIn {
    Seed,
    Sitemap,
    Link,
    Feed,
}

impl FoundIn {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            FoundIn::Seed => "seed",
            FoundIn::Sitemap => "sitemap",
            FoundIn::Link => "link",
            FoundIn::Feed => "feed",
        }
    }
    fn parse(s: &str) -> FoundIn {
        match s {
            "seed" => FoundIn::Seed,
            "sitemap" => FoundIn::Sitemap,
            "feed" => FoundIn::Feed,
            _ => FoundIn::Link,
        }
    }
}

/// A URL to add.
#[derive(Debug, Clone)]
pub(crate) struct NewUrl {
    /// Normalised.
    pub url: String,
    pub host: String,
    /// [`super::urls::path_pattern`].
    pub pattern: String,
    pub depth: u32,
    pub parent: Option<String>,
    pub found_in: FoundIn,
}

/// A URL taken from the frontier.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub id: i64,
    pub url: String,
    pub host: String,
    pub depth: u32,
    pub parent: Option<String>,
    pub found_in: FoundIn,
    pub attempts: u32,
}

const QUEUED: i64 = 0;
const TAKEN: i64 = 1;
const DONE: i64 = 2;
const SKIPPED: i64 = 3;

/// The frontier.
pub(crate) struct Frontier {
    db: Connection,
    /// Pages a path pattern may admit (0: no cap).
    cap: usize,
}

fn db_err(path: &str, e: rusqlite::Error) -> Error {
    Error::Output {
        path: path.to_string(),
        message: format!("the crawl's frontier database: {e}"),
        source: Some(Box::new(e)),
    }
}

impl Frontier {
    /// Open the frontier at `path` (None: in memory). Without `resume` an existing file is
    /// started afresh; with it, URLs taken but never recorded are queued again.
    pub(crate) fn open(path: Option<&Path>, resume: bool, cap: usize) -> Result<Frontier, Error> {
        let name = path.map_or(":memory:".to_string(), |p| p.display().to_string());
        let e = |err| db_err(&name, err);
        if let (Some(p), false) = (path, resume) {
            for suffix in ["", "-wal", "-shm"] {
                let f = format!("{}{suffix}", p.display());
                let _ = std::fs::remove_file(f);
            }
        }
        let db = match path {
            Some(p) => Connection::open(p).map_err(e)?,
            None => Connection::open_in_memory().map_err(e)?,
        };
        db.execute_batch(
            "PRAGMA journal_mode=WAL;
             PRAGMA synchronous=NORMAL;
             CREATE TABLE IF NOT EXISTS urls(
               id INTEGER PRIMARY KEY,
               url TEXT NOT NULL UNIQUE,
               host TEXT NOT NULL,
               depth INTEGER NOT NULL,
               parent TEXT,
               found_in TEXT NOT NULL,
               state INTEGER NOT NULL DEFAULT 0,
               attempts INTEGER NOT NULL DEFAULT 0);
             CREATE INDEX IF NOT EXISTS urls_queue ON urls(state, depth, id);
             CREATE TABLE IF NOT EXISTS patterns(pattern TEXT PRIMARY KEY, n INTEGER NOT NULL);
             CREATE TABLE IF NOT EXISTS prints(id INTEGER PRIMARY KEY, url TEXT NOT NULL, print INTEGER NOT NULL);
             CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
             UPDATE urls SET state = 0 WHERE state = 1;",
        )
        .map_err(e)?;
        Ok(Frontier { db, cap })
    }

    fn e(&self, err: rusqlite::Error) -> Error {
        db_err(self.db.path().unwrap_or(":memory:"), err)
    }

    /// Add URLs not known yet, within the per-pattern cap; returns how many were added.
    pub(crate) fn add(&mut self, urls: &[NewUrl]) -> Result<usize, Error> {
        let cap = self.cap;
        let tx = self.db.transaction().map_err(|e| db_err("frontier", e))?;
        let mut added = 0;
        {
            let mut known = tx
                .prepare_cached("SELECT 1 FROM urls WHERE url = ?1")
                .map_err(|e| db_err("frontier", e))?;
            let mut count = tx
                .prepare_cached("SELECT n FROM patterns WHERE pattern = ?1")
                .map_err(|e| db_err("frontier", e))?;
            let mut bump = tx
                .prepare_cached(
                    "INSERT INTO patterns(pattern, n) VALUES (?1, 1)
                     ON CONFLICT(pattern) DO UPDATE SET n = n + 1",
                )
                .map_err(|e| db_err("frontier", e))?;
            let mut insert = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO urls(url, host, depth, parent, found_in)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(|e| db_err("frontier", e))?;
            for u in urls {
                if known.exists([&u.url]).map_err(|e| db_err("frontier", e))? {
                    continue;
                }
                if cap > 0 && u.found_in != FoundIn::Seed {
                    let n: i64 = count
                        .query_row([&u.pattern], |r| r.get(0))
                        .optional()
                        .map_err(|e| db_err("frontier", e))?
                        .unwrap_or(0);
                    if n as usize >= cap {
                        continue;
                    }
                }
                added += insert
                    .execute(params![
                        u.url,
                        u.host,
                        u.depth,
                        u.parent,
                        u.found_in.as_str()
                    ])
                    .map_err(|e| db_err("frontier", e))?;
                bump.execute([&u.pattern])
                    .map_err(|e| db_err("frontier", e))?;
            }
        }
        tx.commit().map_err(|e| db_err("frontier", e))?;
        Ok(added)
    }

    /// Up to `limit` queued URLs, shallowest first then in the order found, skipping the
    /// hosts in `busy`.
    pub(crate) fn next(&self, limit: usize, busy: &[String]) -> Result<Vec<Entry>, Error> {
        let marks = vec!["?"; busy.len()].join(",");
        self.entries(
            &format!("WHERE state = 0 AND host NOT IN ({marks}) ORDER BY depth, id LIMIT {limit}"),
            rusqlite::params_from_iter(busy.iter()),
        )
    }

    /// The entries `tail` (a `WHERE ... ORDER BY ...` clause) selects, with its `params`:
    /// the one query of [`Frontier::next`] and [`Frontier::listed`].
    fn entries(&self, tail: &str, params: impl rusqlite::Params) -> Result<Vec<Entry>, Error> {
        let sql =
            format!("SELECT id, url, host, depth, parent, found_in, attempts FROM urls {tail}");
        let mut stmt = self.db.prepare_cached(&sql).map_err(|e| self.e(e))?;
        let rows = stmt
            .query_map(params, |r| {
                Ok(Entry {
                    id: r.get(0)?,
                    url: r.get(1)?,
                    host: r.get(2)?,
                    depth: r.get(3)?,
                    parent: r.get(4)?,
                    found_in: FoundIn::parse(&r.get::<_, String>(5)?),
                    attempts: r.get::<_, i64>(6)?.max(0) as u32,
                })
            })
            .map_err(|e| self.e(e))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(|e| self.e(e))
    }

    fn set_state(&self, id: i64, state: i64) -> Result<(), Error> {
        self.db
            .prepare_cached("UPDATE urls SET state = ?2 WHERE id = ?1")
            .and_then(|mut s| s.execute(params![id, state]))
            .map(|_| ())
            .map_err(|e| self.e(e))
    }

    /// The URL was dispatched to the browser.
    pub(crate) fn take(&self, id: i64) -> Result<(), Error> {
        self.set_state(id, TAKEN)
    }
    /// The URL's record was written.
    pub(crate) fn done(&self, id: i64) -> Result<(), Error> {
        self.set_state(id, DONE)
    }
    /// The URL will not be fetched (robots.txt).
    pub(crate) fn skip(&self, id: i64) -> Result<(), Error> {
        self.set_state(id, SKIPPED)
    }
    /// Queue the URL again after a 429 or 503, one attempt more.
    pub(crate) fn retry(&self, id: i64) -> Result<(), Error> {
        self.db
            .prepare_cached("UPDATE urls SET state = ?2, attempts = attempts + 1 WHERE id = ?1")
            .and_then(|mut s| s.execute([id, QUEUED]))
            .map(|_| ())
            .map_err(|e| self.e(e))
    }

    /// Mark done every URL that already has a record (a crawl killed after writing a record
    /// and before marking it: the record is what counts).
    pub(crate) fn mark_recorded<'a>(
        &mut self,
        urls: impl Iterator<Item = &'a String>,
    ) -> Result<(), Error> {
        let tx = self.db.transaction().map_err(|e| db_err("frontier", e))?;
        {
            let mut s = tx
                .prepare_cached("UPDATE urls SET state = 2 WHERE url = ?1")
                .map_err(|e| db_err("frontier", e))?;
            for u in urls {
                s.execute([u]).map_err(|e| db_err("frontier", e))?;
            }
        }
        tx.commit().map_err(|e| db_err("frontier", e))
    }

    /// Is this URL known (in any state)?
    pub(crate) fn known(&self, url: &str) -> Result<bool, Error> {
        self.db
            .prepare_cached("SELECT 1 FROM urls WHERE url = ?1")
            .and_then(|mut s| s.exists([url]))
            .map_err(|e| self.e(e))
    }

    /// URLs recorded (done).
    pub(crate) fn done_count(&self) -> Result<usize, Error> {
        self.db
            .query_row("SELECT COUNT(*) FROM urls WHERE state = 2", [], |r| {
                r.get::<_, i64>(0)
            })
            .map(|n| n as usize)
            .map_err(|e| self.e(e))
    }

    /// Every URL known but those skipped by robots.txt, in the order found (`map`).
    pub(crate) fn listed(&self) -> Result<Vec<Entry>, Error> {
        self.entries("WHERE state != 3 OR attempts = -1 ORDER BY depth, id", [])
    }

    /// Mark a URL listed only (`map`: known, not to be rendered).
    pub(crate) fn list_only(&self, id: i64) -> Result<(), Error> {
        self.db
            .prepare_cached("UPDATE urls SET state = 3, attempts = -1 WHERE id = ?1")
            .and_then(|mut s| s.execute([id]))
            .map(|_| ())
            .map_err(|e| self.e(e))
    }

    /// A page's text fingerprint, for near-duplicates.
    pub(crate) fn add_print(&self, url: &str, print: u64) -> Result<(), Error> {
        self.db
            .prepare_cached("INSERT INTO prints(url, print) VALUES (?1, ?2)")
            .and_then(|mut s| s.execute(params![url, print as i64]))
            .map(|_| ())
            .map_err(|e| self.e(e))
    }

    /// Every fingerprint kept, with its page.
    pub(crate) fn prints(&self) -> Result<Vec<(String, u64)>, Error> {
        let mut stmt = self
            .db
            .prepare("SELECT url, print FROM prints ORDER BY id")
            .map_err(|e| self.e(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64))
            })
            .map_err(|e| self.e(e))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(|e| self.e(e))
    }

    /// A flag kept with the frontier (sitemaps read for a host).
    pub(crate) fn flag(&self, key: &str) -> Result<bool, Error> {
        self.db
            .prepare_cached("SELECT 1 FROM meta WHERE key = ?1")
            .and_then(|mut s| s.exists([key]))
            .map_err(|e| self.e(e))
    }
    /// Set a flag.
    pub(crate) fn set_flag(&self, key: &str) -> Result<(), Error> {
        self.db
            .execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, '1')",
                [key],
            )
            .map(|_| ())
            .map_err(|e| self.e(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new(url: &str, pattern: &str) -> NewUrl {
        NewUrl {
            url: url.into(),
            host: "h".into(),
            pattern: pattern.into(),
            depth: 1,
            parent: Some("p".into()),
            found_in: FoundIn::Link,
        }
    }

    #[test]
    fn survives_a_reopen_and_requeues_what_was_taken() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("f.sqlite");
        {
            let mut f = Frontier::open(Some(&path), false, 0).unwrap();
            let added = f
                .add(&[new("a", "x"), new("b", "x"), new("a", "x")])
                .unwrap();
            assert_eq!(added, 2);
            let next = f.next(10, &[]).unwrap();
            assert_eq!(next.len(), 2);
            f.take(next[0].id).unwrap();
            f.done(next[0].id).unwrap();
            f.take(next[1].id).unwrap();
            // Killed here: b was taken, never recorded.
        }
        let f = Frontier::open(Some(&path), true, 0).unwrap();
        let next = f.next(10, &[]).unwrap();
        assert_eq!(
            next.iter().map(|e| e.url.as_str()).collect::<Vec<_>>(),
            ["b"]
        );
        assert_eq!(f.done_count().unwrap(), 1);
        assert!(f.known("a").unwrap());
        // Without resume, the file starts afresh.
        drop(f);
        let f = Frontier::open(Some(&path), false, 0).unwrap();
        assert!(!f.known("a").unwrap());
    }

    #[test]
    fn the_pattern_cap_and_busy_hosts() {
        let mut f = Frontier::open(None, false, 2).unwrap();
        let added = f
            .add(&[new("c1", "cal"), new("c2", "cal"), new("c3", "cal")])
            .unwrap();
        assert_eq!(added, 2);
        assert!(f.next(10, &["h".into()]).unwrap().is_empty());
    }
}
