//! The one batch runner behind every front end: `extract` (one input or thousands),
//! `eval` (the benchmark) and `serve` (one page per request).
//!
//! Phases of a page ([`process`]): the input argument becomes an [`Input`] (stdin and
//! `--charset` files read here) → the [`PageRenderer`] renders it (the [`Renderer`] owns
//! retries of crashed tabs and relaunches of a dead browser) → `page::finish` applies the
//! size limits and runs every algorithm into a record. [`run`] drives a list of inputs
//! through that with bounded concurrency and writes each page to a [`sink::Sink`] as it
//! completes, so every input gets exactly one record, in completion order, carrying its
//! `index`. [`Cancel`] stops it taking new inputs (the pages in flight still finish and are
//! recorded); resuming skips inputs already recorded; [`inputs::Shard`] splits a list over
//! machines.
//!
//! The renderer is a trait so the runner is tested without a browser (see the tests below).

pub mod archive;
pub use sightline_core::inputs;
pub(crate) mod page;
mod record;
pub(crate) mod sink;

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use std::panic::AssertUnwindSafe;

use futures::future::BoxFuture;
use futures::{FutureExt, Stream, StreamExt};

pub use archive::ArchiveWriter;
pub use inputs::Shard;
pub use page::{PageConfig, PageOut};
pub use record::{ErrorInfo, Record};
pub use sink::{Dest, PngTarget, Sink, SinkOptions};

use crate::render::{BrowserPool, Input, PageRender, Rendered, Renderer, Timings};
use crate::Error;

/// Something that renders pages: the real [`Renderer`], or a fake in tests.
pub trait PageRenderer: Send + Sync {
    /// Render one input.
    fn render<'a>(&'a self, input: &'a Input) -> BoxFuture<'a, Result<Rendered, Error>>;
    /// Render one input with the page's own asks (a screenshot or not, a steering plan).
    fn render_with<'a>(
        &'a self,
        input: &'a Input,
        page: &'a PageRender,
    ) -> BoxFuture<'a, Result<Rendered, Error>> {
        let _ = page;
        self.render(input)
    }
    /// [`PageRenderer::render_with`], with the phase timings of a failed page too (a
    /// `timeout` record's `timings_ms` shows where the time went). By default, none.
    fn render_timed<'a>(
        &'a self,
        input: &'a Input,
        page: &'a PageRender,
    ) -> BoxFuture<'a, (Result<Rendered, Error>, Timings)> {
        Box::pin(async move { (self.render_with(input, page).await, Timings::default()) })
    }
    /// Pages rendered at once.
    fn concurrency(&self) -> usize;
    /// Milliseconds the browser took to start (reported on the first record).
    fn launch_ms(&self) -> f64 {
        0.0
    }
}

impl PageRenderer for Renderer {
    fn render<'a>(&'a self, input: &'a Input) -> BoxFuture<'a, Result<Rendered, Error>> {
        Box::pin(Renderer::render(self, input))
    }
    fn render_with<'a>(
        &'a self,
        input: &'a Input,
        page: &'a PageRender,
    ) -> BoxFuture<'a, Result<Rendered, Error>> {
        Box::pin(Renderer::render_with(self, input, page))
    }
    fn render_timed<'a>(
        &'a self,
        input: &'a Input,
        page: &'a PageRender,
    ) -> BoxFuture<'a, (Result<Rendered, Error>, Timings)> {
        Box::pin(Renderer::render_timed(self, input, page))
    }
    fn concurrency(&self) -> usize {
        self.options().concurrency.max(1)
    }
    fn launch_ms(&self) -> f64 {
        self.launch_ms
    }
}

impl PageRenderer for BrowserPool {
    fn render<'a>(
        &'a self,
        input: &'a Input,
    ) -> futures::future::BoxFuture<'a, Result<Rendered, Error>> {
        Box::pin(BrowserPool::render(self, input))
    }
    fn render_with<'a>(
        &'a self,
        input: &'a Input,
        page: &'a PageRender,
    ) -> futures::future::BoxFuture<'a, Result<Rendered, Error>> {
        Box::pin(BrowserPool::render_with(self, input, page))
    }
    fn render_timed<'a>(
        &'a self,
        input: &'a Input,
        page: &'a PageRender,
    ) -> futures::future::BoxFuture<'a, (Result<Rendered, Error>, Timings)> {
        Box::pin(BrowserPool::render_timed(self, input, page))
    }
    fn concurrency(&self) -> usize {
        self.capacity()
    }
    fn launch_ms(&self) -> f64 {
        BrowserPool::launch_ms(self)
    }
}

/// Stops a run from taking new inputs; the pages in flight finish and are recorded.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Cancel {
        Cancel::default()
    }
    /// Stop taking new inputs.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// One input of a batch: its position in the full input list and the argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    pub index: usize,
    pub input: String,
}

/// How a run ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Records written.
    pub recorded: usize,
    /// Records that are errors.
    pub failed: usize,
    /// Pages that rendered but produced no content.
    pub empty: usize,
    /// The run was cancelled before every job started.
    pub interrupted: bool,
    /// Records whose page is behind a wall, by the wall's kind (`{"challenge": 3,
    /// "paywall": 1}`): `blocked` errors and successes that name a wall.
    pub walls: std::collections::BTreeMap<String, usize>,
    /// Records by the render lane their snapshot came from (`--render auto` or `static`):
    /// `static`, `full`, and `static-then-full` for pages `auto` rendered twice.
    pub lanes: std::collections::BTreeMap<String, usize>,
}

impl Summary {
    /// Count a record's lane in [`Summary::lanes`].
    pub fn count_lane(&mut self, record: &Record) {
        if let Some(key) = lane_key(record) {
            *self.lanes.entry(key.to_string()).or_default() += 1;
        }
    }
}

/// A record's lane as summaries count it: `static`, `full`, or `static-then-full`; None when
/// no lane was asked for.
pub fn lane_key(record: &Record) -> Option<&'static str> {
    record.render.as_ref().map(|r| r.summary_key())
}

/// The runner's core: `f` applied to each item with at most `concurrency` in flight,
/// results in completion order; no new item starts once `cancel` is set. `eval`, [`run`]
/// and [`crate::Extractor::extract_many`] all use it.
pub fn pipeline<'a, T, O, Fut>(
    items: Vec<T>,
    concurrency: usize,
    cancel: Cancel,
    f: impl FnMut(T) -> Fut + 'a,
) -> impl Stream<Item = O> + 'a
where
    T: 'a,
    Fut: Future<Output = O> + 'a,
{
    futures::stream::iter(items)
        .take_while(move |_| futures::future::ready(!cancel.is_cancelled()))
        .map(f)
        .buffer_unordered(concurrency.max(1))
}

/// One page through the pipeline, never failing: errors become error records (with the
/// front end's hint, [`PageConfig::hint`]), and so does a panic anywhere in the page's
/// render or scoring (kind `internal`): one bad page never loses the rest of a batch.
pub async fn process<R: PageRenderer + ?Sized>(
    renderer: &R,
    job: &Job,
    cfg: Arc<PageConfig>,
) -> PageOut {
    let launch = (job.index == 0).then(|| renderer.launch_ms());
    let mut out = match page::to_input(&job.input, &cfg.charset) {
        Err(e) => PageOut::error_for(&job.input, &e, &cfg),
        Ok(input) => {
            let (r, timings) = render_and_score_with(
                renderer,
                &input,
                &job.input,
                cfg.clone(),
                None,
                launch,
                page::finish_page,
            )
            .await;
            match r {
                Ok(f) => f.out,
                Err(e) => {
                    let mut out = PageOut::error_for(&job.input, &e, &cfg);
                    out.record.timings_ms = Some(timings).filter(|t| t.navigate.is_some());
                    out
                }
            }
        }
    };
    out.record.index = Some(job.index);
    out
}

/// Render `input` (with a screenshot when `screenshot` says so, else as the renderer's
/// options say) and score it with every configured algorithm. The scoring runs on tokio's
/// blocking pool, so that it overlaps the renders of other pages. A panic in either phase is
/// an [`Error::Internal`] naming the phase.
pub(crate) async fn render_and_score<R: PageRenderer + ?Sized>(
    renderer: &R,
    input: &Input,
    name: &str,
    cfg: Arc<PageConfig>,
    screenshot: Option<bool>,
    launch_ms: Option<f64>,
) -> Result<page::Finished, Error> {
    render_and_score_with(
        renderer,
        input,
        name,
        cfg,
        screenshot,
        launch_ms,
        page::finish_page,
    )
    .await
    .0
}

/// The scoring step of [`render_and_score`], as a function (tests inject a panicking one).
type Finish = fn(&str, Rendered, &PageConfig, Option<f64>) -> Result<page::Finished, Error>;

async fn render_and_score_with<R: PageRenderer + ?Sized>(
    renderer: &R,
    input: &Input,
    name: &str,
    cfg: Arc<PageConfig>,
    screenshot: Option<bool>,
    launch_ms: Option<f64>,
    finish: Finish,
) -> (Result<page::Finished, Error>, Timings) {
    let page = PageRender {
        screenshot,
        steer: cfg.steer.clone(),
        capture: cfg.archive.is_some(),
    };
    let rendered = AssertUnwindSafe(renderer.render_timed(input, &page))
        .catch_unwind()
        .await
        .map_err(|p| internal(name, "rendering", p.as_ref()));
    let (rendered, timings) = match rendered {
        Ok((Ok(r), t)) => (r, t),
        Ok((Err(e), t)) => return (Err(e), t),
        Err(e) => return (Err(e), Timings::default()),
    };
    let owned = name.to_string();
    let r = match tokio::task::spawn_blocking(move || finish(&owned, rendered, &cfg, launch_ms))
        .await
    {
        Ok(r) => r,
        Err(e) => Err(match e.try_into_panic() {
            Ok(p) => internal(name, "scoring", p.as_ref()),
            Err(e) => Error::Internal {
                input: name.to_string(),
                message: format!("the scoring task ended: {e}"),
            },
        }),
    };
    (r, timings)
}

/// The error of a page whose processing panicked, with the panic's message.
fn internal(input: &str, phase: &str, panic: &(dyn std::any::Any + Send)) -> Error {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into());
    tracing::error!("{input}: panic while {phase}: {what}");
    Error::Internal {
        input: input.to_string(),
        message: format!("panic while {phase}: {what}"),
    }
}

/// Run every job and write each page to `sink` as it completes. `on_page` sees each page
/// after it is written (progress bars, logging). Only a failure to write output stops the
/// run early; page failures are records.
pub async fn run<R: PageRenderer + ?Sized>(
    renderer: &R,
    jobs: Vec<Job>,
    cfg: &PageConfig,
    cancel: &Cancel,
    sink: &mut Sink,
    mut on_page: impl FnMut(&PageOut, &Summary),
) -> Result<Summary, Error> {
    let total = jobs.len();
    let mut summary = Summary::default();
    let shared = Arc::new(cfg.clone());
    // One page more than there are tabs: while a page is scored (on a blocking thread, off
    // the task that drives the renders), the next one is already rendering in its tab.
    let pages = pipeline(jobs, renderer.concurrency() + 1, cancel.clone(), |job| {
        let cfg = shared.clone();
        async move { process(renderer, &job, cfg).await }
    });
    futures::pin_mut!(pages);
    while let Some(mut out) = pages.next().await {
        if out.failed() {
            summary.failed += 1;
        } else if out.empty {
            summary.empty += 1;
        }
        summary.count_lane(&out.record);
        if let Some(w) = &out.record.wall {
            *summary
                .walls
                .entry(w.kind.as_str().to_string())
                .or_default() += 1;
        }
        sink.write(&mut out)?;
        summary.recorded += 1;
        on_page(&out, &summary);
    }
    summary.interrupted = summary.recorded < total && cancel.is_cancelled();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Format;
    use crate::render::BrowserError;
    use crate::snapshot::{rect, SnapshotBuilder};
    use parking_lot::Mutex;
    use std::io::Write;
    use std::time::Duration;

    /// A renderer without a browser: `ok-N` renders a page with text after N ms, `empty`
    /// a page without text, `crash` fails as a crashed renderer.
    struct Fake {
        conc: usize,
        rendered: Mutex<Vec<String>>,
        cancel_after: Option<(usize, Cancel)>,
    }

    impl Fake {
        fn new(conc: usize) -> Fake {
            Fake {
                conc,
                rendered: Mutex::new(Vec::new()),
                cancel_after: None,
            }
        }
    }

    impl PageRenderer for Fake {
        fn render<'a>(&'a self, input: &'a Input) -> BoxFuture<'a, Result<Rendered, Error>> {
            Box::pin(async move {
                let name = input.name();
                let n = {
                    let mut r = self.rendered.lock();
                    r.push(name.clone());
                    r.len()
                };
                if let Some((k, c)) = &self.cancel_after {
                    if n >= *k {
                        c.cancel();
                    }
                }
                let tail = name.rsplit('/').next().unwrap_or("").to_string();
                if tail == "crash" {
                    return Err(Error::from(BrowserError::Crashed { input: name }));
                }
                if tail == "panic" {
                    panic!("injected panic in the render of {name}");
                }
                let delay: u64 = tail
                    .strip_prefix("ok-")
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(0);
                tokio::time::sleep(Duration::from_millis(delay)).await;
                let mut b = SnapshotBuilder::new(1000.0);
                b.title(&name);
                if tail != "empty" {
                    let p = b.el(0, "p", rect(0.0, 0.0, 800.0, 40.0));
                    b.text(
                        p,
                        &format!("Body text of {name}, a sentence long enough to keep."),
                    );
                }
                let snap = b.build();
                let json = snap.to_json();
                Ok(Rendered::from_snapshot(snap, json))
            })
        }
        fn concurrency(&self) -> usize {
            self.conc
        }
    }

    /// A `Write` the test can read back.
    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);
    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn jobs(names: &[&str]) -> Vec<Job> {
        names
            .iter()
            .enumerate()
            .map(|(index, n)| Job {
                index,
                input: format!("https://t.example/{n}"),
            })
            .collect()
    }

    fn json_cfg() -> PageConfig {
        PageConfig {
            format: Format::Json,
            ..PageConfig::default()
        }
    }

    fn records(buf: &Buf) -> Vec<serde_json::Value> {
        String::from_utf8(buf.0.lock().clone())
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    fn stdout_sink(buf: &Buf) -> Sink {
        let opts = SinkOptions {
            dest: Dest::Stdout,
            format: Format::Json,
            many: true,
            screenshot: None,
            annotate: None,
            resume: false,
        };
        Sink::open(opts, Box::new(buf.clone())).unwrap().0
    }

    #[tokio::test]
    async fn one_record_per_input_in_completion_order_with_its_index() {
        let fake = Fake::new(3);
        let buf = Buf::default();
        let mut sink = stdout_sink(&buf);
        let names = ["ok-120", "ok-10", "crash", "empty", "ok-60", "ok-0"];
        let s = run(
            &fake,
            jobs(&names),
            &json_cfg(),
            &Cancel::new(),
            &mut sink,
            |_, _| {},
        )
        .await
        .unwrap();
        assert_eq!(
            s,
            Summary {
                recorded: 6,
                failed: 1,
                empty: 1,
                interrupted: false,
                walls: Default::default(),
                lanes: Default::default(),
            }
        );
        let recs = records(&buf);
        let mut idx: Vec<u64> = recs.iter().map(|r| r["index"].as_u64().unwrap()).collect();
        // Completion order: the 120 ms page is not first although it is input 0.
        assert_ne!(idx[0], 0);
        idx.sort();
        assert_eq!(idx, vec![0, 1, 2, 3, 4, 5]);
        let crash = recs.iter().find(|r| r["index"] == 2).unwrap();
        assert_eq!(crash["error"]["kind"], "crashed");
        let first = recs.iter().find(|r| r["index"] == 0).unwrap();
        assert!(first["text"].as_str().unwrap().contains("Body text of"));
    }

    #[tokio::test]
    async fn cancel_stops_new_pages_and_records_those_in_flight() {
        let cancel = Cancel::new();
        let mut fake = Fake::new(2);
        fake.cancel_after = Some((3, cancel.clone()));
        let buf = Buf::default();
        let mut sink = stdout_sink(&buf);
        let names: Vec<String> = (0..20).map(|_| "ok-20".to_string()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let s = run(
            &fake,
            jobs(&names),
            &json_cfg(),
            &cancel,
            &mut sink,
            |_, _| {},
        )
        .await
        .unwrap();
        assert!(s.interrupted);
        let started = fake.rendered.lock().len();
        // Every page that started was recorded, and no page started after the cancel
        // beyond the ones already being taken (concurrency 2).
        assert_eq!(s.recorded, started);
        assert!(started <= 4, "{started} pages started");
        assert_eq!(records(&buf).len(), started);
    }

    #[tokio::test]
    async fn resume_skips_recorded_inputs_and_appends() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let opts = |resume| SinkOptions {
            dest: Dest::Dir(out.clone()),
            format: Format::Text,
            many: true,
            screenshot: None,
            annotate: None,
            resume,
        };
        let all = jobs(&["ok-0", "ok-1", "ok-2", "ok-3"]);
        // First run: interrupted after two inputs.
        let fake = Fake::new(1);
        let (mut sink, skip) = Sink::open(opts(false), Box::new(std::io::sink())).unwrap();
        assert!(skip.is_empty());
        let cfg = PageConfig::default();
        run(
            &fake,
            all[..2].to_vec(),
            &cfg,
            &Cancel::new(),
            &mut sink,
            |_, _| {},
        )
        .await
        .unwrap();
        drop(sink);
        // Resume: only the other two render, and the index holds all four once.
        let (mut sink, skip) = Sink::open(opts(true), Box::new(std::io::sink())).unwrap();
        let todo: Vec<Job> = all
            .iter()
            .filter(|j| !skip.contains(&j.input))
            .cloned()
            .collect();
        assert_eq!(todo.len(), 2);
        let fake2 = Fake::new(2);
        run(&fake2, todo, &cfg, &Cancel::new(), &mut sink, |_, _| {})
            .await
            .unwrap();
        assert_eq!(fake2.rendered.lock().len(), 2);
        let index = std::fs::read_to_string(out.join("index.jsonl")).unwrap();
        let mut seen: Vec<u64> = index
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        seen.sort();
        assert_eq!(seen, vec![0, 1, 2, 3]);
        // Each page has its text file; the index holds no bodies.
        let txt = std::fs::read_dir(&out)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "txt")
            })
            .count();
        assert_eq!(txt, 4);
        assert!(!index.contains("Body text"));
    }

    #[tokio::test]
    async fn a_panicking_page_is_an_internal_record_not_a_lost_batch() {
        let fake = Fake::new(2);
        let buf = Buf::default();
        let mut sink = stdout_sink(&buf);
        let names = ["ok-0", "panic", "ok-5", "ok-1"];
        let s = run(
            &fake,
            jobs(&names),
            &json_cfg(),
            &Cancel::new(),
            &mut sink,
            |_, _| {},
        )
        .await
        .unwrap();
        assert_eq!((s.recorded, s.failed), (4, 1));
        let recs = records(&buf);
        let bad = recs.iter().find(|r| r["index"] == 1).unwrap();
        assert_eq!(bad["error"]["kind"], "internal");
        let msg = bad["error"]["message"].as_str().unwrap();
        assert!(
            msg.contains("panic while rendering") && msg.contains("injected panic"),
            "{msg}"
        );
    }

    #[tokio::test]
    async fn a_panic_in_scoring_is_an_internal_error_naming_the_phase() {
        fn panicking(
            _: &str,
            _: Rendered,
            _: &PageConfig,
            _: Option<f64>,
        ) -> Result<page::Finished, Error> {
            panic!("injected panic in scoring")
        }
        let fake = Fake::new(1);
        let input = Input::Url("https://t.example/ok-0".into());
        let r = render_and_score_with(
            &fake,
            &input,
            "https://t.example/ok-0",
            Arc::new(json_cfg()),
            None,
            None,
            panicking,
        )
        .await
        .0;
        let e = r.unwrap_err();
        assert_eq!(e.kind(), "internal");
        assert!(e.to_string().contains("panic while scoring"), "{e}");
        // The same page scored normally is fine: the fake itself is not the cause.
        let ok = render_and_score(&fake, &input, "ok", Arc::new(json_cfg()), None, None).await;
        assert!(ok.is_ok());
    }

    /// A page that panics while it holds the renderer's shared state (the tab pool's owned
    /// targets, through a test-only hook in the real renderer, with real Chromium) is an
    /// `internal` record, and the next page of the same renderer is served: no lock of the
    /// renderer is left poisoned, and the panicking page's slot is free again (one tab).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_panic_holding_the_renderers_state_leaves_the_next_page_served() {
        let dir = tempfile::tempdir().unwrap();
        let page = |name: &str, text: &str| {
            let p = dir.path().join(name);
            let html = format!(
                "<!DOCTYPE html><html><head><meta charset='utf-8'><title>{name}</title></head>\
                 <body><article><h1>{name}</h1><p>{text}</p></article></body></html>"
            );
            std::fs::write(&p, html).unwrap();
            p.display().to_string()
        };
        let bad = page(
            crate::render::PANIC_HOLDING_THE_TAB_POOL,
            "This page panics while holding the renderer's tab pool.",
        );
        let good = page(
            "next.html",
            "The next page is served, with its sentence and a full stop.",
        );
        let renderer = Renderer::new(
            crate::render::RenderOptions::default()
                .offline(true)
                .concurrency(1),
        )
        .await
        .expect("Chromium starts");
        let cfg = Arc::new(json_cfg());
        let job = |index, input: &str| Job {
            index,
            input: input.to_string(),
        };
        let pages = async {
            let first = process(&renderer, &job(0, &bad), cfg.clone()).await;
            let second = process(&renderer, &job(1, &good), cfg.clone()).await;
            (first, second)
        };
        // A hang guard, not a speed bound: a slot lost with the panic would hang here.
        let pages = tokio::time::timeout(Duration::from_secs(120), pages).await;
        renderer.shutdown().await;
        let (first, second) = pages.expect("the page after the panic never finished");
        let first = serde_json::to_value(&first.record).unwrap();
        assert_eq!(first["error"]["kind"], "internal", "{first}");
        let msg = first["error"]["message"].as_str().unwrap();
        assert!(
            msg.contains("panic while rendering") && msg.contains("injected panic"),
            "{msg}"
        );
        let second = serde_json::to_value(&second.record).unwrap();
        assert!(second.get("error").is_none(), "{second}");
        assert!(
            second["text"]
                .as_str()
                .unwrap_or("")
                .contains("The next page is served"),
            "{second}"
        );
    }

    #[tokio::test]
    async fn bad_inputs_are_records_not_failures_of_the_run() {
        let fake = Fake::new(2);
        let buf = Buf::default();
        let mut sink = stdout_sink(&buf);
        let j = vec![
            Job {
                index: 0,
                input: "/no/such/file.html".into(),
            },
            Job {
                index: 1,
                input: "https://t.example/ok-0".into(),
            },
        ];
        let s = run(&fake, j, &json_cfg(), &Cancel::new(), &mut sink, |_, _| {})
            .await
            .unwrap();
        assert_eq!((s.recorded, s.failed), (2, 1));
        let recs = records(&buf);
        let bad = recs.iter().find(|r| r["index"] == 0).unwrap();
        assert_eq!(bad["error"]["kind"], "input");
        // The fake never saw the bad input.
        assert_eq!(fake.rendered.lock().len(), 1);
    }
}
