//! The crawl (`sightline-crawl`: seeds, robots.txt, sitemaps, scope, politeness, the
//! frontier) over this crate's pipeline: [`Pipeline`] is the seam's implementation
//! ([`Pages`]), rendering and scoring each page as [`crate::batch`] does, and [`PageOut`] the
//! record the crawl places ([`CrawlRecord`]).

use std::sync::Arc;

use futures::future::BoxFuture;
pub use sightline_crawl::*;

use crate::batch::{self, Cancel, PageConfig, PageOut, PageRenderer};
use crate::extract::links::{page_links, PageLink};
use crate::extract::params::VsseParams;
use crate::render::guard::NetPolicy;
use crate::render::{Input, PageRender, RenderOptions};
use crate::{Error, Tree};

/// The batch pipeline as the crawl sees it: `renderer` renders each page, `page` scores it,
/// `render` holds the network settings robots.txt and sitemap requests follow, and `cancel`
/// stops the crawl taking new pages.
pub struct Pipeline<'a, R: PageRenderer + ?Sized> {
    pub renderer: &'a R,
    pub page: Arc<PageConfig>,
    pub render: &'a RenderOptions,
    pub cancel: &'a Cancel,
}

impl<R: PageRenderer + ?Sized> Pages for Pipeline<'_, R> {
    type Out = PageOut;

    fn concurrency(&self) -> usize {
        self.renderer.concurrency()
    }

    fn cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    fn user_agent(&self) -> Option<&str> {
        self.render.user_agent.as_deref()
    }

    fn proxy(&self) -> Option<&str> {
        self.render.proxy.as_deref()
    }

    fn policy(&self) -> Option<&NetPolicy> {
        self.render.policy()
    }

    fn timeout(&self) -> std::time::Duration {
        self.render.timeout
    }

    fn vsse(&self) -> &VsseParams {
        &self.page.params.vsse
    }

    fn score<'a>(
        &'a self,
        url: &'a str,
        first: bool,
    ) -> BoxFuture<'a, Result<Scored<PageOut>, Error>> {
        Box::pin(async move {
            let input = Input::Url(url.to_string());
            let launch = first.then(|| self.renderer.launch_ms());
            let f = batch::render_and_score(
                self.renderer,
                &input,
                url,
                self.page.clone(),
                None,
                launch,
            )
            .await?;
            let tree = Tree::new(&f.snapshot);
            let kept = f.extractions.first().map(|x| x.kept.as_slice());
            let links = page_links(&tree, kept);
            Ok(Scored {
                out: f.out,
                base: f.snapshot.url.clone(),
                links,
            })
        })
    }

    fn links<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<(String, Vec<PageLink>), Error>> {
        Box::pin(async move {
            let page = PageRender {
                screenshot: Some(false),
                steer: self.page.steer.clone(),
                capture: false,
            };
            let r = self
                .renderer
                .render_with(&Input::Url(url.to_string()), &page)
                .await?;
            let links = page_links(&Tree::new(&r.snapshot), None);
            Ok((r.snapshot.url.clone(), links))
        })
    }

    fn error_record(&self, url: &str, error: &Error) -> PageOut {
        PageOut::error_for(url, error, &self.page)
    }
}

impl CrawlRecord for PageOut {
    fn canonical_url(&self) -> Option<&str> {
        let m = self.record.metadata.as_ref()?;
        m.canonical_url.as_ref().map(|c| c.value.as_str())
    }

    fn text(&self) -> Option<&str> {
        self.record.result.as_ref().map(|r| r.text.as_str())
    }

    fn set_place(&mut self, depth: u32, parent: Option<String>, found_in: &str) {
        self.record.depth = Some(depth);
        self.record.parent = parent;
        self.record.found_in = Some(found_in.to_string());
    }

    fn set_links(&mut self, links: Vec<PageLink>) {
        self.record.links = Some(links);
    }

    fn fold_into(&mut self, canonical: String) {
        self.record.duplicate_of = Some(canonical);
        self.record.result = None;
        self.record.algorithms = None;
        self.body.clear();
        self.empty = true;
    }

    fn set_near_duplicate_of(&mut self, url: Option<String>) {
        self.record.near_duplicate_of = url;
    }

    fn failed(&self) -> bool {
        PageOut::failed(self)
    }

    fn empty(&self) -> bool {
        self.empty
    }

    fn folded(&self) -> bool {
        self.record.duplicate_of.is_some()
    }

    fn wall(&self) -> Option<crate::walls::WallKind> {
        self.record.wall.as_ref().map(|w| w.kind)
    }

    fn lane(&self) -> Option<&'static str> {
        crate::batch::lane_key(&self.record)
    }
}
