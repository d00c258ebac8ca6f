//! The crawl's loop: [`crawl`] and [`map`] run discovery, then take pages from the frontier as
//! their hosts allow, hand each to the pipeline ([`Pages`]) and fold what comes back (links,
//! canonical URLs, near-duplicates, rate limits) into the frontier and the summary.

use std::collections::HashSet;
use std::time::Duration;

use futures::future::BoxFuture;
use futures::stream::FuturesUnordered;
use futures::StreamExt;
use sightline_core::extract::links::PageLink;
use sightline_core::extract::vsse::simhash;
use tokio::time::Instant;

use crate::engine::{rate_limited, retry_after, Engine, Mode};
use crate::frontier::{Entry, FoundIn, NewUrl};
use crate::NEAR_DUPLICATE_BITS;
use crate::{urls, CrawlConfig, CrawlRecord, CrawlSummary, Error, Mapped, Pages, Scored};

/// Attempts at one URL answered 429 or 503.
const MAX_ATTEMPTS: u32 = 3;

/// A page back from the pipeline.
enum Fetched<O> {
    Scored(Box<Scored<O>>),
    Linked { base: String, links: Vec<PageLink> },
}

/// Where each record goes as it completes, with the summary so far.
type Write<'w, O> = dyn FnMut(&mut O, &CrawlSummary) -> Result<(), Error> + Send + 'w;

/// Crawl from `cfg`'s seeds with `pages` (which renders and scores each page), and hand each
/// record to `write` as it completes (one per page, in completion order). `recorded` holds
/// the inputs a resumed run's output already has. Only a failure of `write` or of the
/// frontier's file ends the crawl early; page failures are records.
pub async fn crawl<P: Pages + ?Sized>(
    pages: &P,
    cfg: &CrawlConfig,
    recorded: &HashSet<String>,
    write: &mut Write<'_, P::Out>,
) -> Result<CrawlSummary, Error> {
    let mut looped = Loop::open(pages, cfg, Mode::Crawl)?;
    if cfg.resume {
        looped.e.frontier.mark_recorded(recorded.iter())?;
    }
    looped.run(write).await?;
    Ok(looped.e.summary)
}

/// The URLs a crawl from `cfg` would find to its depth ([`crate::CrawlSettings::depth`]) (robots.txt, sitemaps, the
/// rendered pages' links), without scoring or recording: `map`. Pages at the last depth
/// are listed, not rendered.
pub async fn map<P: Pages + ?Sized>(pages: &P, cfg: &CrawlConfig) -> Result<Vec<Mapped>, Error> {
    let mut looped = Loop::open(pages, cfg, Mode::Map)?;
    let mut none = |_: &mut P::Out, _: &CrawlSummary| -> Result<(), Error> { Ok(()) };
    looped.run(&mut none).await?;
    Ok(looped
        .e
        .frontier
        .listed()?
        .into_iter()
        .map(|x| Mapped {
            url: x.url,
            depth: x.depth,
            found_in: x.found_in.as_str().to_string(),
            parent: x.parent,
        })
        .collect())
}

/// One crawl's loop: the engine, the pipeline, and the loop's own counters.
struct Loop<'a, P: Pages + ?Sized> {
    e: Engine<'a>,
    pages: &'a P,
    cfg: &'a CrawlConfig,
    mode: Mode,
    seeds: Vec<String>,
    /// Pages done (recorded, or listed by `map`), counting a resumed run's.
    done: usize,
    /// The next page is the run's first.
    first: bool,
}

/// A page in flight: its frontier entry and what the pipeline made of it.
type Flight<'a, O> = BoxFuture<'a, (Entry, Result<Fetched<O>, Error>)>;
type InFlight<'a, O> = FuturesUnordered<Flight<'a, O>>;

impl<'a, P: Pages + ?Sized> Loop<'a, P> {
    /// Phase 1: the seeds and the frontier.
    fn open(pages: &'a P, cfg: &'a CrawlConfig, mode: Mode) -> Result<Self, Error> {
        let stop = simhash::stop_set(pages.vsse());
        let (e, seeds) = Engine::open(cfg, pages, mode, stop)?;
        Ok(Loop {
            e,
            pages,
            cfg,
            mode,
            seeds,
            done: 0,
            first: true,
        })
    }

    /// Phases 2 and 3: discovery, then the loop until the frontier is empty, the run is
    /// cancelled or `max_pages` is reached.
    async fn run(&mut self, write: &mut Write<'_, P::Out>) -> Result<(), Error> {
        let seeds = std::mem::take(&mut self.seeds);
        let seed_urls: Vec<NewUrl> = seeds
            .iter()
            .map(|s| self.e.new_url(s.clone(), 0, None, FoundIn::Seed))
            .collect();
        self.e.frontier.add(&seed_urls)?;
        // Phase 2: robots.txt, sitemaps, feeds.
        self.e.discover(&seeds).await?;
        // Phase 3: the loop.
        self.done = self.e.frontier.done_count()?;
        let conc = self.pages.concurrency() + 1;
        let mut in_flight: InFlight<'a, P::Out> = FuturesUnordered::new();
        loop {
            let blocked_by_clock = self.start(&mut in_flight, conc).await?;
            let wake = self
                .e
                .hosts
                .next_wake(Instant::now())
                .filter(|_| blocked_by_clock);
            if in_flight.is_empty() {
                match wake {
                    Some(w) if !self.pages.cancelled() => {
                        tokio::time::sleep_until(w).await;
                        continue;
                    }
                    _ => break,
                }
            }
            let wake = wake.unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
            let (entry, result) = tokio::select! {
                Some(x) = in_flight.next() => x,
                _ = tokio::time::sleep_until(wake) => continue,
            };
            self.finish(entry, result, write)?;
        }
        let queued = !self.e.frontier.next(1, &[])?.is_empty();
        self.e.summary.interrupted =
            queued && (self.pages.cancelled() || self.cfg.settings.max_pages.is_some());
        Ok(())
    }

    /// Start what may start: pages whose host is ready, up to `conc` in flight. Whether the
    /// loop then waits for a host's clock (a delay or a backoff) rather than for a page.
    async fn start(
        &mut self,
        in_flight: &mut InFlight<'a, P::Out>,
        conc: usize,
    ) -> Result<bool, Error> {
        while in_flight.len() < conc && !self.pages.cancelled() {
            if self
                .cfg
                .settings
                .max_pages
                .is_some_and(|m| self.done + in_flight.len() >= m)
            {
                break;
            }
            let now = Instant::now();
            let busy = self.e.hosts.busy(now);
            let next = self.e.frontier.next(conc.max(16), &busy)?;
            let Some(entry) = next.into_iter().find(|x| self.e.hosts.ready(&x.host, now)) else {
                return Ok(!busy.is_empty());
            };
            if !self.admit(&entry).await? {
                continue;
            }
            if !self.e.hosts.ready(&entry.host, Instant::now()) {
                // robots.txt just set a crawl delay for this host.
                return Ok(true);
            }
            self.e.frontier.take(entry.id)?;
            self.e.hosts.start(&entry.host, Instant::now());
            let first = std::mem::take(&mut self.first);
            in_flight.push(fetch(self.pages, self.mode, entry, first));
        }
        Ok(false)
    }

    /// May `entry` be fetched: the target policy, robots.txt, and (for `map`) the last depth,
    /// whose pages are listed, not rendered. A URL not admitted is settled in the frontier.
    async fn admit(&mut self, entry: &Entry) -> Result<bool, Error> {
        // A seed the renderer's own policy refuses is rendered, so that its record says
        // why (a `forbidden` error naming the fix); what the crawl found is skipped.
        let checked = match (&self.cfg.policy, &self.e.policy) {
            (Some(p), _) => Some(p),
            (None, Some(p)) if entry.found_in != FoundIn::Seed => Some(p),
            _ => None,
        };
        if let Some(p) = checked {
            if let Err(r) = p.check(&entry.url).await {
                tracing::info!("{}: refused by the target policy: {r}", entry.url);
                self.e.frontier.skip(entry.id)?;
                self.e.summary.refused += 1;
                return Ok(false);
            }
        }
        if !self.e.robots_for(&entry.url).await.allowed(&entry.url) {
            self.e.frontier.skip(entry.id)?;
            self.e.summary.disallowed += 1;
            return Ok(false);
        }
        if self.mode == Mode::Map && entry.depth >= self.e.depth_limit {
            self.e.frontier.list_only(entry.id)?;
            return Ok(false);
        }
        Ok(true)
    }

    /// Fold a page that came back into the frontier, the hosts and the summary, and write its
    /// record.
    fn finish(
        &mut self,
        entry: Entry,
        result: Result<Fetched<P::Out>, Error>,
        write: &mut Write<'_, P::Out>,
    ) -> Result<(), Error> {
        let now = Instant::now();
        match result {
            Err(err) if rate_limited(&err) && entry.attempts + 1 < MAX_ATTEMPTS => {
                self.e.hosts.finish(&entry.host, false, now);
                let wait = self.e.hosts.back_off(&entry.host, retry_after(&err), now);
                tracing::info!("{}: {err}; retrying in {wait:?}", entry.url);
                return self.e.frontier.retry(entry.id);
            }
            Err(err) => {
                self.e.hosts.finish(&entry.host, !rate_limited(&err), now);
                if self.mode == Mode::Crawl {
                    let mut out = self.pages.error_record(&entry.url, &err);
                    set_place(&mut out, &entry);
                    self.e.summary.failed += 1;
                    self.e.summary.count_wall(out.wall());
                    self.e.summary.count_lane(out.lane());
                    self.e.summary.recorded += 1;
                    write(&mut out, &self.e.summary)?;
                }
            }
            Ok(Fetched::Linked { base, links }) => {
                self.e.hosts.finish(&entry.host, true, now);
                let found = self.e.follow(&links, &entry, &base);
                self.e.frontier.add(&found)?;
            }
            Ok(Fetched::Scored(scored)) => {
                self.e.hosts.finish(&entry.host, true, now);
                let mut out = self.record(*scored, &entry)?;
                write(&mut out, &self.e.summary)?;
            }
        }
        self.e.frontier.done(entry.id)?;
        self.done += 1;
        Ok(())
    }

    /// A scored page's record, placed in the crawl: its links join the frontier, a
    /// canonical URL elsewhere folds it, a near-twin is named; the summary counts it.
    fn record(&mut self, scored: Scored<P::Out>, entry: &Entry) -> Result<P::Out, Error> {
        let Scored {
            mut out,
            base,
            links,
        } = scored;
        let mut found = self.e.follow(&links, entry, &base);
        // rel=canonical: a page naming another in-scope URL is folded into it.
        let canonical = out
            .canonical_url()
            .and_then(urls::normalize)
            .filter(|c| *c != entry.url && self.e.scope.contains(c));
        if let Some(c) = &canonical {
            if !self.e.frontier.known(c)? && entry.depth <= self.e.depth_limit {
                let parent = Some(entry.url.clone());
                found.push(
                    self.e
                        .new_url(c.clone(), entry.depth, parent, FoundIn::Link),
                );
            }
        }
        self.e.frontier.add(&found)?;
        set_place(&mut out, entry);
        out.set_links(links);
        if let Some(c) = canonical {
            out.fold_into(c);
            self.e.summary.duplicates += 1;
        } else if let Some(print) = out.text().and_then(|t| self.e.fingerprint(t)) {
            let twin = self
                .e
                .prints
                .iter()
                .find(|(_, p)| simhash::hamming(*p, print) <= NEAR_DUPLICATE_BITS)
                .map(|(u, _)| u.clone());
            if twin.is_some() {
                self.e.summary.near_duplicates += 1;
            }
            out.set_near_duplicate_of(twin);
            self.e.frontier.add_print(&entry.url, print)?;
            self.e.prints.push((entry.url.clone(), print));
        }
        if out.failed() {
            self.e.summary.failed += 1;
        } else if out.empty() && !out.folded() {
            self.e.summary.empty += 1;
        }
        self.e.summary.count_wall(out.wall());
        self.e.summary.count_lane(out.lane());
        self.e.summary.recorded += 1;
        Ok(out)
    }
}

/// Hand one page to the pipeline: scored (crawl) or rendered for its links (map).
fn fetch<P: Pages + ?Sized>(
    pages: &P,
    mode: Mode,
    entry: Entry,
    first: bool,
) -> Flight<'_, P::Out> {
    Box::pin(async move {
        let r = match mode {
            Mode::Crawl => pages
                .score(&entry.url, first)
                .await
                .map(|s| Fetched::Scored(Box::new(s))),
            Mode::Map => pages
                .links(&entry.url)
                .await
                .map(|(base, links)| Fetched::Linked { base, links }),
        };
        (entry, r)
    })
}

/// The crawl's fields of a record: where the page sits in the crawl.
fn set_place<O: CrawlRecord>(out: &mut O, entry: &Entry) {
    out.set_place(entry.depth, entry.parent.clone(), entry.found_in.as_str());
}
