//! The seam between the crawl and the pipeline that renders and scores its pages: the crawl
//! decides which URL to take, when, and what to do with its links and its record; the front
//! door (`sightline`'s batch pipeline) renders and scores it. The crawl sees a page as a
//! record it can place ([`CrawlRecord`]) and the links the page shows, never the browser.

use std::time::Duration;

use futures::future::BoxFuture;
use sightline_core::extract::links::PageLink;
use sightline_core::extract::params::VsseParams;
use sightline_egress::guard::NetPolicy;

use crate::Error;

/// What the crawl needs of the pipeline: render and score a URL into a record, or render it
/// for its links (`map`), and the error record of a page that failed.
pub trait Pages: Sync {
    /// One page's record as the pipeline writes it.
    type Out: CrawlRecord + Send;
    /// Pages rendered at once (the crawl keeps one more in flight, so scoring overlaps).
    fn concurrency(&self) -> usize;
    /// The run was cancelled: take no new page.
    fn cancelled(&self) -> bool;
    /// The browser-wide User-Agent, if the renderer has one (robots.txt and sitemap
    /// requests then send it, unless the crawl names its own).
    fn user_agent(&self) -> Option<&str>;
    /// The proxy the browser connects through: robots.txt and sitemap requests take it too.
    fn proxy(&self) -> Option<&str>;
    /// The renderer's target policy, if it has one.
    fn policy(&self) -> Option<&NetPolicy>;
    /// The deadline of one robots.txt or sitemap request (the renderer's page deadline).
    fn timeout(&self) -> Duration;
    /// The parameters of the SimHash that marks near-duplicates (the pipeline's VSSE ones).
    fn vsse(&self) -> &VsseParams;
    /// Render and score `url` (`first`: the run's first page, whose record reports the
    /// browser's launch).
    fn score<'a>(
        &'a self,
        url: &'a str,
        first: bool,
    ) -> BoxFuture<'a, Result<Scored<Self::Out>, Error>>;
    /// Render `url` for its links only (`map`): the page's final URL and its links.
    fn links<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<(String, Vec<PageLink>), Error>>;
    /// The record of a page that failed.
    fn error_record(&self, url: &str, error: &Error) -> Self::Out;
}

/// A page rendered and scored.
#[derive(Debug)]
pub struct Scored<O> {
    /// Its record.
    pub out: O,
    /// Its final URL (after redirects): the base of its links.
    pub base: String,
    /// Its links, each marked as in the content or not.
    pub links: Vec<PageLink>,
}

/// What the crawl reads of a page's record and writes into it.
pub trait CrawlRecord {
    /// The page's `rel=canonical` URL, if it names one.
    fn canonical_url(&self) -> Option<&str>;
    /// The page's extracted text, if it kept any.
    fn text(&self) -> Option<&str>;
    /// Where the page sits in the crawl: its depth, the page it was found in, and how
    /// (`seed`, `sitemap`, `link`, `feed`).
    fn set_place(&mut self, depth: u32, parent: Option<String>, found_in: &str);
    /// The page's links.
    fn set_links(&mut self, links: Vec<PageLink>);
    /// The page names `canonical` as its canonical URL, crawled in its place: the record
    /// keeps no content.
    fn fold_into(&mut self, canonical: String);
    /// The page's text is a near-duplicate of this earlier page's.
    fn set_near_duplicate_of(&mut self, url: Option<String>);
    /// The record is an error.
    fn failed(&self) -> bool;
    /// The page kept no text.
    fn empty(&self) -> bool;
    /// The record is a `duplicate_of` one.
    fn folded(&self) -> bool;
    /// The kind of the wall in front of the page (a `blocked` error's, or one a success
    /// names), for the summary's `walls`.
    fn wall(&self) -> Option<sightline_core::walls::WallKind>;
    /// The render lane the page's snapshot came from (`static`, `full`, `static-then-full`),
    /// for the summary's `lanes`; None when no lane was asked for.
    fn lane(&self) -> Option<&'static str> {
        None
    }
}
