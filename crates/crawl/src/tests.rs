//! The crawl's loop over a scripted pipeline, on tokio's paused clock: the politeness delay,
//! the backoff after a 429, a rate-limit wall's `Retry-After` and the crawl's own deadline
//! (`max_pages` with cancellation) are checked in virtual time, so a 30-second wait costs
//! nothing and no wall clock decides the outcome.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use futures::future::BoxFuture;
use sightline_core::extract::links::PageLink;
use sightline_core::extract::params::VsseParams;
use sightline_core::walls::{Wall, WallKind};
use sightline_egress::guard::NetPolicy;
use tokio::time::Instant;

use crate::{crawl, CrawlConfig, CrawlRecord, Error, Pages, Scored};

/// One page's answer, in the order the pipeline gives them (a URL asked again gets the next).
#[derive(Clone)]
enum Answer {
    /// The page, linking to these paths of its host.
    Page(&'static [&'static str]),
    /// HTTP 429 with no `Retry-After`.
    TooMany,
    /// A rate-limit wall whose response said `Retry-After: secs`.
    RetryAfter(u64),
}

/// A record as the crawl leaves it.
#[derive(Debug, Default)]
struct Rec {
    url: String,
    failed: bool,
    depth: Option<u32>,
    wall: Option<WallKind>,
}

impl CrawlRecord for Rec {
    fn canonical_url(&self) -> Option<&str> {
        None
    }
    fn text(&self) -> Option<&str> {
        None
    }
    fn set_place(&mut self, depth: u32, _: Option<String>, _: &str) {
        self.depth = Some(depth);
    }
    fn set_links(&mut self, _: Vec<PageLink>) {}
    fn fold_into(&mut self, _: String) {}
    fn set_near_duplicate_of(&mut self, _: Option<String>) {}
    fn failed(&self) -> bool {
        self.failed
    }
    fn empty(&self) -> bool {
        false
    }
    fn folded(&self) -> bool {
        false
    }
    fn wall(&self) -> Option<WallKind> {
        self.wall
    }
}

/// A scripted site: each URL's answers, and when (on the paused clock) each was asked for.
struct Site {
    answers: Mutex<HashMap<String, VecDeque<Answer>>>,
    asked: Mutex<Vec<(String, Instant)>>,
    /// Each page takes this long to render (virtual time).
    render: Duration,
    cancelled: AtomicBool,
    vsse: VsseParams,
}

const HOST: &str = "https://site.test";

impl Site {
    fn new(script: &[(&str, &[Answer])], render: Duration) -> Site {
        let answers = script
            .iter()
            .map(|(path, a)| (format!("{HOST}{path}"), a.iter().cloned().collect()))
            .collect();
        Site {
            answers: Mutex::new(answers),
            asked: Mutex::new(Vec::new()),
            render,
            cancelled: AtomicBool::new(false),
            vsse: VsseParams::default(),
        }
    }

    /// When each URL was asked for, from the first request.
    fn asked(&self) -> Vec<(String, Duration)> {
        let asked = self.asked.lock().unwrap();
        let t0 = asked.first().map(|x| x.1).unwrap_or_else(Instant::now);
        asked
            .iter()
            .map(|(u, t)| (u.trim_start_matches(HOST).to_string(), *t - t0))
            .collect()
    }
}

fn rate_limit_wall(secs: u64) -> Box<Wall> {
    Box::new(Wall {
        kind: WallKind::RateLimited,
        vendor: None,
        evidence: vec!["status 429".into(), format!("retry-after: {secs}")],
    })
}

impl Pages for Site {
    type Out = Rec;
    fn concurrency(&self) -> usize {
        2
    }
    fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }
    fn user_agent(&self) -> Option<&str> {
        None
    }
    fn proxy(&self) -> Option<&str> {
        None
    }
    fn policy(&self) -> Option<&NetPolicy> {
        None
    }
    fn timeout(&self) -> Duration {
        Duration::from_secs(15)
    }
    fn vsse(&self) -> &VsseParams {
        &self.vsse
    }
    fn score<'a>(
        &'a self,
        url: &'a str,
        _first: bool,
    ) -> BoxFuture<'a, Result<Scored<Rec>, Error>> {
        Box::pin(async move {
            self.asked
                .lock()
                .unwrap()
                .push((url.to_string(), Instant::now()));
            tokio::time::sleep(self.render).await;
            let answer = self
                .answers
                .lock()
                .unwrap()
                .get_mut(url)
                .and_then(VecDeque::pop_front);
            match answer.unwrap_or(Answer::Page(&[])) {
                Answer::Page(links) => Ok(Scored {
                    out: Rec {
                        url: url.to_string(),
                        ..Rec::default()
                    },
                    base: url.to_string(),
                    links: links
                        .iter()
                        .map(|p| PageLink {
                            url: format!("{HOST}{p}"),
                            text: String::new(),
                            content: true,
                            nofollow: false,
                        })
                        .collect(),
                }),
                Answer::TooMany => Err(Error::Http {
                    input: url.to_string(),
                    status: 429,
                }),
                Answer::RetryAfter(secs) => Err(Error::Blocked {
                    input: url.to_string(),
                    wall: rate_limit_wall(secs),
                }),
            }
        })
    }
    fn links<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<(String, Vec<PageLink>), Error>> {
        Box::pin(async move { Ok((url.to_string(), Vec::new())) })
    }
    fn error_record(&self, url: &str, e: &Error) -> Rec {
        Rec {
            url: url.to_string(),
            failed: true,
            depth: None,
            wall: match e {
                Error::Blocked { wall, .. } => Some(wall.kind),
                _ => None,
            },
        }
    }
}

/// A crawl of the scripted site from its root: no robots.txt or sitemaps (nothing leaves
/// the test), one request at a time to the host, `delay` between starts.
fn config(delay: Duration) -> CrawlConfig {
    CrawlConfig::new([format!("{HOST}/")])
        .robots(false)
        .sitemaps(false)
        .per_host(1)
        .delay_ms(delay.as_millis() as u64)
}

/// Run the crawl and return its records in the order written.
async fn run(site: &Site, cfg: &CrawlConfig) -> Vec<Rec> {
    let mut records = Vec::new();
    let mut write = |r: &mut Rec, _: &crate::CrawlSummary| -> Result<(), Error> {
        records.push(std::mem::take(r));
        Ok(())
    };
    crawl(site, cfg, &HashSet::new(), &mut write)
        .await
        .expect("the crawl runs");
    records
}

#[tokio::test(start_paused = true)]
async fn a_hosts_requests_start_the_delay_apart() {
    let site = Site::new(
        &[("/", &[Answer::Page(&["/a", "/b"])])],
        Duration::from_millis(300),
    );
    let records = run(&site, &config(Duration::from_secs(10))).await;
    assert_eq!(records.len(), 3);
    assert!(records.iter().all(|r| !r.failed));
    let asked = site.asked();
    let starts: Vec<Duration> = asked.iter().map(|x| x.1).collect();
    // Each start is 10 s after the previous one (the delay counts from a start, and a page
    // that renders in 0.3 s does not shorten it), and no sooner.
    assert_eq!(
        starts,
        [0, 10, 20].map(Duration::from_secs).to_vec(),
        "{asked:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_429_backs_the_host_off_doubling_and_the_page_is_retried() {
    let site = Site::new(
        &[("/", &[Answer::TooMany, Answer::TooMany, Answer::Page(&[])])],
        Duration::ZERO,
    );
    let records = run(&site, &config(Duration::ZERO)).await;
    // Three attempts at most: the third answers, and one record is written.
    assert_eq!(records.len(), 1);
    assert!(!records[0].failed, "{records:?}");
    let starts: Vec<Duration> = site.asked().iter().map(|x| x.1).collect();
    // The backoff doubles from 1 s: the second attempt 1 s after the first 429, the third
    // 2 s after the second.
    assert_eq!(starts, [0, 1, 3].map(Duration::from_secs).to_vec());
}

#[tokio::test(start_paused = true)]
async fn a_rate_limit_walls_retry_after_is_waited_for_then_the_third_429_is_a_record() {
    let site = Site::new(
        &[(
            "/",
            &[
                Answer::RetryAfter(30),
                Answer::RetryAfter(45),
                Answer::RetryAfter(5),
            ],
        )],
        Duration::ZERO,
    );
    let records = run(&site, &config(Duration::ZERO)).await;
    let starts: Vec<Duration> = site.asked().iter().map(|x| x.1).collect();
    // Retry-After decides the wait (not the doubling backoff), each attempt after the last.
    assert_eq!(starts, [0, 30, 75].map(Duration::from_secs).to_vec());
    // MAX_ATTEMPTS: the third rate limit is the page's record, an error.
    assert_eq!(records.len(), 1);
    assert!(records[0].failed);
    assert_eq!(records[0].url, format!("{HOST}/"));
}

/// The summary counts the records behind a wall by kind: a site that starts blocking shows
/// there (a rate limit retried and answered is not counted; one that stayed is).
#[tokio::test(start_paused = true)]
async fn the_summary_counts_walls_by_kind() {
    let site = Site::new(
        &[
            ("/", &[Answer::Page(&["/a", "/b", "/c"])]),
            ("/a", &[Answer::RetryAfter(1), Answer::Page(&[])]),
            (
                "/b",
                &[
                    Answer::RetryAfter(1),
                    Answer::RetryAfter(1),
                    Answer::RetryAfter(1),
                ],
            ),
        ],
        Duration::ZERO,
    );
    let mut none = |_: &mut Rec, _: &crate::CrawlSummary| -> Result<(), Error> { Ok(()) };
    let summary = crawl(&site, &config(Duration::ZERO), &HashSet::new(), &mut none)
        .await
        .expect("the crawl runs");
    assert_eq!(summary.recorded, 4);
    assert_eq!(summary.failed, 1);
    let walls: Vec<(&str, usize)> = summary
        .walls
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    assert_eq!(walls, [("rate-limited", 1)]);
}

#[tokio::test(start_paused = true)]
async fn a_crawl_stops_at_max_pages_and_when_cancelled_with_pages_left() {
    let links: &'static [&'static str] = &["/1", "/2", "/3", "/4", "/5"];
    let site = Site::new(&[("/", &[Answer::Page(links)])], Duration::from_secs(1));
    let cfg = config(Duration::from_secs(2)).max_pages(Some(3));
    let records = run(&site, &cfg).await;
    assert_eq!(records.len(), 3, "max_pages bounds the records");
    assert!(records.iter().all(|r| r.depth.is_some()));
    // Cancelled before it starts: nothing is taken, and the summary says pages were left.
    let site = Site::new(&[("/", &[Answer::Page(links)])], Duration::from_secs(1));
    site.cancelled.store(true, Ordering::SeqCst);
    let mut none = |_: &mut Rec, _: &crate::CrawlSummary| -> Result<(), Error> { Ok(()) };
    let summary = crawl(&site, &config(Duration::ZERO), &HashSet::new(), &mut none)
        .await
        .unwrap();
    assert_eq!(summary.recorded, 0);
    assert!(summary.interrupted);
    assert!(site.asked().is_empty());
}
