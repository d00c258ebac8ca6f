//! Command-line arguments (clap derive) and their conversion to library options. Parsing
//! only; `main.rs` calls the library.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use sightline::batch::inputs;
use sightline::render::settings::SettingsError;
use sightline::NetPolicy;
use sightline::{BrowserSource, RenderOptions, Steer};

pub use crate::crawl_args::{CrawlFlags, MapFlags};
pub use crate::scoring_args::ScoringArgs;
pub use crate::shared::{
    body_format, exit, hint, load_model, load_params, parse_algorithms, service_hint, AFTER_HELP,
};

#[derive(Debug, Parser)]
#[command(name = "sightline", version, about, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// More logging on stderr (-v info, -vv debug).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// No progress or log output on stderr (errors are still printed).
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Render pages and extract their main content.
    ///
    /// INPUT is a URL, a path to an HTML file, or - for HTML on stdin. Several inputs share
    /// one browser and its tab pool. Example:
    ///   sightline extract https://example.com/article --format json
    #[command(after_help = AFTER_HELP)]
    Extract(ExtractArgs),
    /// Crawl a site from its seeds: robots.txt, sitemaps and feeds, and the links of each
    /// rendered page, in scope and politely; one record per page, as `extract` writes them,
    /// with depth, parent, found_in and links.
    ///
    /// Example: sightline crawl https://example.com/ -o site/ -j 4
    ///          sightline crawl https://example.com/ -o site/ --resume   (after a stop)
    #[command(after_help = AFTER_HELP)]
    Crawl(CrawlArgs),
    /// List the URLs of a site without extracting: robots.txt, its sitemaps, and the links
    /// of the rendered seed (to --max-depth).
    ///
    /// Example: sightline map https://example.com/ > urls.txt
    #[command(after_help = AFTER_HELP)]
    Map(MapArgs),
    /// Render a page and save its layout snapshot (JSON) for later scoring without a browser.
    ///
    /// Example: sightline snapshot page.html -o page.json
    ///          sightline extract --snapshot page.json --algorithm ctd
    #[command(after_help = AFTER_HELP)]
    Snapshot(SnapshotArgs),
    /// Write every per-node quantity of one algorithm on a saved snapshot (no browser).
    ///
    /// One row per node, `id` being its index in the snapshot: TD, CTD, VI, HTD and
    /// DensitySum for the density algorithms, Wang's weights, VSSE's vvtc, Crunch's filters,
    /// the block of `blocks`, `learned`'s probability and top contributions.
    /// Example: sightline scores page.json --algorithm htd -f csv > htd.csv
    Scores(ScoresArgs),
    /// Measure extraction quality against the benchmark's human gold text.
    ///
    /// Renders each page once (offline), runs every requested algorithm on the one snapshot,
    /// scores it (Song et al. eq. 6-9) and writes OUT/<algorithm>/<dataset>/<id>.txt and a
    /// report. Example: sightline eval --dataset cleaneval --limit 50 --algorithm htd
    Eval(EvalArgs),
    /// Serve extraction over HTTP (axum): GET /extract?url=…, POST /extract, POST /score (a
    /// saved snapshot, no browser), POST /crawl (a site's pages as NDJSON, one line a page
    /// as it is recorded, then a summary line), POST /map (a site's URLs), /healthz,
    /// /metrics, the MCP tools at /mcp (streamable HTTP), and the playground at / (open it in
    /// a browser).
    ///
    /// Example: sightline serve --listen 127.0.0.1:8080 -j 4
    ///          curl 'http://127.0.0.1:8080/extract?url=https://example.com/&format=json'
    ///
    /// Crawl: curl -N http://127.0.0.1:8080/crawl -d '{"seeds": "https://example.com/", "max_pages": 5}'
    ///
    /// A crawl takes one place of the queue and renders in the same -j tabs; it records at
    /// most --max-crawl-pages pages, takes no new page after --crawl-timeout, obeys
    /// robots.txt, and every seed and every URL it finds is checked by the target policy
    /// below before it is fetched.
    ///
    /// Targets that resolve to loopback, private, link-local or unique-local addresses, and
    /// schemes other than http(s), are refused (403) when the request arrives and for every
    /// redirect and subresource the browser requests; --allow-private lifts that. At most
    /// -j pages render at once and --max-queue more wait; beyond that requests get 503 with
    /// Retry-After. On SIGTERM or Ctrl-C the service stops accepting, finishes the pages in
    /// flight (at most --drain-timeout) and exits 0.
    #[command(after_help = AFTER_HELP)]
    Serve(ServeArgs),
    /// Serve the extraction tools to an LLM agent over MCP (the Model Context Protocol) on
    /// stdin and stdout.
    ///
    /// An MCP client starts this command and talks JSON-RPC on its stdin and stdout; logs go
    /// to stderr. Tools: extract (a URL to Markdown or text, with title, metadata and links),
    /// screenshot (a PNG) and snapshot (a layout summary). Client configuration (Claude
    /// Desktop, Cursor, ...):
    ///
    /// {"mcpServers": {"sightline": {"command": "sightline", "args": ["mcp"]}}}
    ///
    /// Targets are checked as `serve` checks them: loopback, private, link-local and
    /// unique-local addresses and file:// URLs are refused, when the tool is called and for
    /// every redirect and subresource the page requests. The agent passes URLs it read on
    /// the web, and a page it was steered to must not reach this machine's own services or
    /// the local network (routers, cloud metadata); --allow-private lifts that for an agent
    /// that should read local pages, --allow-host for one host.
    Mcp(McpArgs),
    /// Train the `learned` model from the benchmark's gold and saved snapshots (no browser).
    ///
    /// Reads only --bench (manifests, gold) and --snapshots (from `eval --save-snapshots`).
    /// Deterministic: the same inputs give a byte-identical model. Example:
    ///   sightline train --snapshots snaps --model models/learned.json --lodo
    Train(crate::train_args::TrainArgs),
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR:PORT")]
    pub listen: String,
    /// Requests admitted beyond the -j rendering ones; more get 503 with Retry-After.
    #[arg(long, default_value_t = 64, value_name = "N")]
    pub max_queue: usize,
    /// Deadline of one request in seconds, waiting in the queue included (504 after it).
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    pub request_timeout: f64,
    /// After SIGTERM, how long the pages in flight may take before the service exits.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    pub drain_timeout: f64,
    /// Require `Authorization: Bearer TOKEN` on /extract, /score, /crawl, /map, /metrics and
    /// /mcp. Without one, /mcp answers only requests addressed to localhost, 127.0.0.1 or ::1
    /// (Host header).
    #[arg(
        long,
        env = "SIGHTLINE_TOKEN",
        hide_env_values = true,
        value_name = "TOKEN"
    )]
    pub token: Option<String>,
    #[command(flatten)]
    pub service: ServiceArgs,
    /// Connections open at once; one over the cap is closed at once.
    #[arg(long, default_value_t = 1024, value_name = "N")]
    pub max_connections: usize,
    /// Time a client has to send a request's line and headers (and that an idle keep-alive
    /// connection is kept); then the connection is closed.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub header_timeout: f64,
    /// Time a client has to send a request's body (then 408).
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    pub body_timeout: f64,
    /// Largest request body in bytes (then 413).
    #[arg(long, default_value_t = 16 * 1024 * 1024, value_name = "BYTES")]
    pub max_body: usize,
    /// The most pages one POST /crawl (or MCP crawl call) records; a request's max_pages
    /// (default 10) is held to it.
    #[arg(long, default_value_t = sightline_serve::crawling::MAX_CRAWL_PAGES, value_name = "N")]
    pub max_crawl_pages: usize,
    /// Deadline of one POST /crawl or /map in seconds: then the crawl takes no new page,
    /// finishes the ones in flight and sends its summary (`deadline_reached`).
    #[arg(long, default_value_t = 300.0, value_name = "SECONDS")]
    pub crawl_timeout: f64,
    #[command(flatten)]
    pub render: RenderArgs,
}

#[derive(Debug, Args)]
pub struct McpArgs {
    #[command(flatten)]
    pub service: ServiceArgs,
    #[command(flatten)]
    pub render: RenderArgs,
}

/// The target policy and scoring settings of the long-running front ends (`serve`, `mcp`).
#[derive(Debug, Args)]
pub struct ServiceArgs {
    /// Allow loopback, private, link-local and unique-local targets and file:// URLs (for
    /// pages on this machine or the local network; a service reachable by others should not).
    #[arg(long)]
    pub allow_private: bool,
    /// Allow one private host (`host` or `host:port`) while refusing the rest (repeatable).
    #[arg(long = "allow-host", value_name = "HOST[:PORT]")]
    pub allow_hosts: Vec<String>,
    /// Let requests and tool calls ask for the page's WARC (serve's `"warc": true`, the MCP
    /// extract tool's `warc`): each such page's records go to a new file in DIR, whose name
    /// the answer gives (`warc`). Off without it.
    #[arg(long, value_name = "DIR")]
    pub warc_dir: Option<PathBuf>,
    #[command(flatten)]
    pub scoring: ScoringArgs,
    /// Take callers' scripts (`executeJavascript` actions, `wait_for_js`): they run in the
    /// pages this service fetches. Off by default.
    #[arg(long)]
    pub allow_scripts: bool,
    /// Take callers' request headers and user agent, sent to the sites this service fetches.
    /// Off by default.
    #[arg(long)]
    pub allow_headers: bool,
    /// Take callers' cookies and storage states, sent to the sites this service fetches. Off
    /// by default.
    #[arg(long)]
    pub allow_cookies: bool,
}

impl ServiceArgs {
    /// Create `--warc-dir` when it is given.
    pub fn make_warc_dir(&self) -> Result<()> {
        if let Some(d) = &self.warc_dir {
            std::fs::create_dir_all(d)
                .with_context(|| format!("cannot create --warc-dir {}", d.display()))?;
        }
        Ok(())
    }

    /// The target policy: private targets refused unless allowed.
    pub fn policy(&self) -> NetPolicy {
        NetPolicy {
            allow_private: self.allow_private,
            allow_hosts: self.allow_hosts.clone(),
        }
    }

    /// What of a caller's steering plan the operator allows.
    pub fn grants(&self) -> Vec<sightline::render::steer::Grant> {
        use sightline::render::steer::Grant;
        [
            (self.allow_scripts, Grant::Scripts),
            (self.allow_headers, Grant::Headers),
            (self.allow_cookies, Grant::Cookies),
        ]
        .into_iter()
        .filter_map(|(on, g)| on.then_some(g))
        .collect()
    }

    /// The scoring settings of each page, with the operator's steering plan (`render`'s
    /// flags): they write text, and their error messages carry the CLI's flag hints.
    pub fn page_steered(
        &self,
        render: &RenderArgs,
        charset: Option<String>,
    ) -> Result<sightline::PageConfig> {
        if render.steer.save_storage_state.is_some() {
            bail!("--save-storage-state is for `extract` and `snapshot`: a service renders many callers' pages");
        }
        let page = self.page(charset)?;
        Ok(match render.plan()? {
            Some(plan) => page.steer(plan),
            None => page,
        })
    }

    /// The scoring settings of each page: they write text, and their error messages carry the
    /// CLI's flag hints.
    pub fn page(&self, charset: Option<String>) -> Result<sightline::PageConfig> {
        Ok(self
            .scoring
            .page()?
            .format(sightline::Format::Text)
            .charset(charset)
            .hint(Some(service_hint)))
    }
}

/// Options of the browser and of page loading, shared by every rendering subcommand.
#[derive(Debug, Args, Clone)]
pub struct RenderArgs {
    /// Chromium executable (default: $CHROME, then chromium-headless-shell or chromium on PATH).
    #[arg(long, value_name = "PATH")]
    pub chrome: Option<PathBuf>,
    /// Use an already running Chromium (its DevTools WebSocket URL) instead of launching one.
    /// Repeat it to spread the tabs over several browsers (-j tabs each); a browser whose
    /// connection is lost is taken out and its pages retried on the others.
    #[arg(long, value_name = "ws://...")]
    pub browser_ws: Vec<String>,
    /// Read more --browser-ws endpoints from FILE, one per line (# comments skipped).
    #[arg(long, value_name = "FILE")]
    pub browser_ws_file: Option<PathBuf>,
    /// The render settings declared once in the library: --viewport, --timeout, --quiet-ms,
    /// the scroll phase's (--no-scroll, --always-scroll, --max-scroll-*), --offline,
    /// --max-nodes, -j, --chrome-arg, --recycle-*, --accept-http-errors, --proxy,
    /// --user-agent, --max-screenshot-height (shown by `extract`).
    #[command(flatten)]
    pub options: RenderOptions,
    /// Charset of file and stdin inputs when the page does not declare one (served with it
    /// in Content-Type).
    #[arg(long, value_name = "LABEL")]
    pub charset: Option<String>,
    /// Relaunch the launched browser the same way when its processes' summed resident memory
    /// passes MIB (checked every 10 pages, Linux; 0: no bound). Default: 1024 + 512 per tab.
    #[arg(long, value_name = "MIB")]
    pub max_browser_memory: Option<u64>,
    /// The steering plan, declared once in the library (`sightline::Steer`); read it with
    /// [`RenderArgs::plan`].
    #[command(flatten)]
    pub steer: Steer,
}

impl RenderArgs {
    /// The steering plan these flags ask for; None when they ask for nothing beyond the
    /// defaults. The command line's one rule over the library's: `--user-agent` is the
    /// browser's ([`RenderOptions::user_agent`]), copied into the plan only with `--mobile`,
    /// so the phone's User-Agent is the one given.
    pub fn plan(&self) -> Result<Option<Steer>> {
        let mut s = self.steer.clone().from_flags().map_err(flag_error)?;
        if s.mobile {
            s.user_agent = self.options.user_agent.clone();
        }
        Ok((s != Steer::default()).then_some(s))
    }
}

/// The writers' settings as given (`--base-url` checked), the error naming the flag.
pub fn writer_options(w: &sightline::WriterOptions) -> Result<sightline::WriterOptions> {
    w.validate()
        .map_err(|e| anyhow::anyhow!("{} {}: {}", e.flag(), e.value, e.message))?;
    Ok(w.clone())
}

/// A settings error as the command line says it: the flag, then what is wrong.
pub fn flag_error(e: SettingsError) -> anyhow::Error {
    anyhow::anyhow!("{} {}", e.flag(), e.message)
}

/// Web archives: capture into WARC or WACZ, replay from one (`extract`, `crawl`).
#[derive(Debug, Args, Clone, Default)]
pub struct ArchiveArgs {
    /// Archive every page into FILE (WARC/1.1, each record gzipped on its own): every request
    /// and response the browser made, with bodies (the document, scripts, styles, fetch/XHR,
    /// images unless --block'ed), then the page's extracted text (urn:text:<url>), its JSON
    /// record (a metadata record) and its screenshot (urn:fullPage:<url>), as Browsertrix
    /// writes them. All pages of the run go to the one file. See docs/archives.md.
    #[arg(long, value_name = "FILE.warc.gz")]
    pub warc: Option<PathBuf>,
    /// Package the archive as WACZ 1.1 (the WARC stored, a CDXJ index, pages.jsonl with
    /// titles and extracted text, datapackage.json with SHA-256 hashes), for ReplayWeb.page.
    #[arg(long, value_name = "FILE.wacz")]
    pub wacz: Option<PathBuf>,
    #[command(flatten)]
    pub replay: ReplayArgs,
}

/// `--replay ARCHIVE` (`extract`, `crawl`, `eval`).
#[derive(Debug, Args, Clone, Default)]
pub struct ReplayArgs {
    /// Answer every request of every page from ARCHIVE (.warc.gz, .warc or .wacz), nothing
    /// from the network: an archived page renders again with what it fetched; a request the
    /// archive lacks fails as offline, and a page it lacks is a `navigation` error.
    #[arg(long, value_name = "ARCHIVE")]
    pub replay: Option<PathBuf>,
}

impl ArchiveArgs {
    /// The library's options with these archives (`replay`: this one, unless the flags name
    /// one).
    pub fn apply(&self, mut o: sightline::Options, replay: Option<&Path>) -> sightline::Options {
        if let Some(w) = &self.warc {
            o = o.warc(w);
        }
        if let Some(z) = &self.wacz {
            o = o.wacz(z);
        }
        if let Some(r) = self.replay.replay.as_deref().or(replay) {
            o = o.replay(r);
        }
        o
    }
}

/// A `--input` file that is a WARC: its HTML responses are the inputs.
pub fn is_warc(p: &Path) -> bool {
    let s = p.to_string_lossy().to_ascii_lowercase();
    s.ends_with(".warc.gz") || s.ends_with(".warc")
}

/// `sightline extract`. `--max-screenshot-height` is declared on [`RenderOptions`], hidden
/// there (the other commands take no screenshot) and shown here.
#[derive(Debug, Args)]
#[command(mut_arg("max_screenshot_height", |a| a.hide(false)))]
pub struct ExtractArgs {
    /// URLs, HTML files, or - for HTML on stdin.
    #[arg(value_name = "INPUT", required_unless_present_any = ["snapshot", "input_list"])]
    pub inputs: Vec<String>,
    /// Read inputs from FILE, one URL or path per line (# comments and blank lines skipped);
    /// - reads the list from stdin.
    ///
    /// A FILE.warc.gz (or .warc): each HTML response in it is an input, rendered from the
    /// WARC as by --replay (Common Crawl's WARCs hold documents without their subresources:
    /// those fail as offline).
    #[arg(
        long = "input",
        short = 'i',
        value_name = "FILE",
        conflicts_with = "snapshot"
    )]
    pub input_list: Option<PathBuf>,
    /// Score a saved snapshot (from `sightline snapshot`) instead of rendering; no browser.
    #[arg(long, value_name = "FILE", conflicts_with = "inputs")]
    pub snapshot: Option<PathBuf>,
    #[command(flatten)]
    pub scoring: ScoringArgs,
    /// text (one paragraph per line), html (cleaned content subtrees), markdown, or json /
    /// jsonl (everything: scores, content nodes, timings; exactly one object per input per
    /// line, errors included).
    #[arg(long, short, default_value = "text", value_name = "FORMAT")]
    pub format: String,
    /// Write to FILE, or into DIR as <slug>.<ext> per page plus DIR/index.jsonl (one record
    /// per input). Several inputs in a non-JSON format always go to a directory.
    #[arg(long, short, value_name = "FILE|DIR")]
    pub output: Option<PathBuf>,
    /// Keep only shard K of N of the inputs (K from 0): the inputs whose stable hash modulo
    /// N is K. N machines given the same list (a Kubernetes Indexed Job with
    /// --shard $JOB_COMPLETION_INDEX/N, a Slurm array) split it with no coordinator; their
    /// outputs together hold exactly one record per input (`index` is the position in the
    /// full list).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<sightline::batch::Shard>,
    /// Skip inputs that already have a record in the output (DIR/index.jsonl or the JSON
    /// Lines FILE), appending the rest: an interrupted run continues where it stopped.
    #[arg(long, requires = "output")]
    pub resume: bool,
    /// Full-page PNG taken after the snapshot: to FILE, into DIR for several inputs, or with
    /// no value next to the outputs in -o DIR.
    #[arg(long, value_name = "FILE|DIR", num_args = 0..=1, default_missing_value = "")]
    pub screenshot: Option<PathBuf>,
    /// The screenshot with the extraction drawn on it (content outlined, removed boxes shaded,
    /// density heat map or block tree): to FILE, into DIR, or with no value into -o DIR.
    #[arg(long, value_name = "FILE|DIR", num_args = 0..=1, default_missing_value = "")]
    pub annotate: Option<PathBuf>,
    /// Start markdown output with the page's metadata (title, authors, dates, site name,
    /// language, description, canonical URL, image, tags, categories) as YAML front matter.
    /// The JSON record always carries it as `metadata`, each field with its source.
    #[arg(long)]
    pub front_matter: bool,
    /// How the markdown (-f markdown, the JSON record's `markdown` and `sections`) writes
    /// images and links, and a saved page's address on its site: --images, --links,
    /// --base-url (the library's `WriterOptions`).
    #[command(flatten)]
    pub writer: sightline::WriterOptions,
    /// Add every text unit to the JSON record as `units`: its box, text, `learned`
    /// probability, top feature contributions and the algorithms that keep it (what the
    /// playground of `serve` draws; runs every main-content algorithm once more). -f json only.
    #[arg(long)]
    pub units: bool,
    /// Also put each page's body in FORMAT (markdown, text or html) in its JSON record as
    /// `body` (with `body_format`): one render gives the record and the body. -f json only.
    #[arg(long, value_name = "FORMAT", value_parser = body_format)]
    pub body: Option<sightline::Format>,
    /// Replace the Crunch advertisement-host list with FILE (one host per line).
    #[arg(long, value_name = "FILE")]
    pub ad_hosts: Option<PathBuf>,
    /// Refuse targets on this machine and its networks, as `serve` does: pages, redirects,
    /// subresources, WebSockets and WebRTC that reach loopback, private, link-local,
    /// unique-local, multicast or metadata addresses fail (`forbidden`). The browser's
    /// connections go through an egress proxy inside sightline that resolves each host itself
    /// and connects only to the address it checked (DNS rebinding cannot get around it).
    /// Local files and HTML on stdin still render.
    #[arg(long)]
    pub deny_private: bool,
    #[command(flatten)]
    pub archive: ArchiveArgs,
    #[command(flatten)]
    pub render: RenderArgs,
}

/// `sightline crawl`: its own flags, then the archive and rendering ones.
#[derive(Debug, Args)]
pub struct CrawlArgs {
    #[command(flatten)]
    pub crawl: CrawlFlags,
    #[command(flatten)]
    pub archive: ArchiveArgs,
    #[command(flatten)]
    pub render: RenderArgs,
}

/// `sightline map`: its own flags, then the rendering ones.
#[derive(Debug, Args)]
pub struct MapArgs {
    #[command(flatten)]
    pub map: MapFlags,
    #[command(flatten)]
    pub render: RenderArgs,
}

#[derive(Debug, Args)]
pub struct SnapshotArgs {
    /// A URL, an HTML file, or - for HTML on stdin.
    #[arg(value_name = "INPUT")]
    pub input: String,
    /// Where to write the snapshot JSON (default: stdout).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub render: RenderArgs,
}

#[derive(Debug, Args)]
pub struct ScoresArgs {
    /// A snapshot JSON file (from `sightline snapshot`).
    #[arg(value_name = "SNAPSHOT")]
    pub snapshot: PathBuf,
    /// The algorithm whose quantities to write.
    #[arg(long, short, default_value = sightline::extract::DEFAULT_ALGORITHM.name(), value_name = "A")]
    pub algorithm: String,
    /// Output format: csv or jsonl.
    #[arg(long, short, default_value = "csv", value_name = "FORMAT")]
    pub format: String,
    /// Algorithm parameters as JSON.
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// Run `learned` with this model file instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
    /// Where to write the table (default: stdout).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Benchmark root holding <dataset>/manifest.jsonl, html/, gold/.
    #[arg(long, default_value = "../shared/bench", value_name = "DIR")]
    pub bench: PathBuf,
    /// Datasets to run (default: every dataset under --bench).
    #[arg(long = "dataset", value_name = "NAME")]
    pub datasets: Vec<String>,
    /// Algorithms to score, from one render per page (default, or all: every main-content
    /// algorithm, all but vsse-records, whose records the benchmark's gold does not describe).
    #[arg(long = "algorithm", short, value_name = "A")]
    pub algorithms: Vec<String>,
    /// At most N pages per dataset (the first N ids in sorted order).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Take every K-th page (with --limit: a spread sample instead of the first pages).
    #[arg(long, default_value_t = 1, value_name = "K")]
    pub every: usize,
    /// A stratified sample of N pages per dataset instead (strata: wcxb-dev's page types),
    /// chosen by a seeded hash of the page ids: the same pages on every machine.
    #[arg(long, value_name = "N", conflicts_with_all = ["limit", "every"])]
    pub sample: Option<usize>,
    /// The seed of --sample.
    #[arg(long, default_value_t = 7, value_name = "SEED", requires = "sample")]
    pub seed: u64,
    /// Output directory for texts and reports.
    #[arg(long, default_value = "out/eval", value_name = "DIR")]
    pub out: PathBuf,
    /// Re-score the texts already in --out without rendering.
    #[arg(long)]
    pub rescore: bool,
    /// Save every page's snapshot as DIR/<dataset>/<id>.json (to re-score later without a
    /// browser).
    #[arg(long, value_name = "DIR")]
    pub save_snapshots: Option<PathBuf>,
    /// Score snapshots saved with --save-snapshots instead of rendering (no browser).
    #[arg(long, value_name = "DIR", conflicts_with = "save_snapshots")]
    pub from_snapshots: Option<PathBuf>,
    /// Run `learned` with --comments (reader comments kept) on these datasets, the others
    /// without (repeatable; `none` for none). Default: the datasets whose gold keeps reader
    /// comments, measured from the gold (cleaneval; docs/training.md).
    #[arg(long = "comments-in", value_name = "NAME")]
    pub comments_in: Vec<String>,
    /// Check the results against a baseline of floors (the CI quality gate): F1 for every
    /// algorithm; F1, precision, recall, failures and empty outputs for the default one.
    #[arg(long, value_name = "FILE")]
    pub gate: Option<PathBuf>,
    /// With --gate: write the measured scores (minus the tolerance) as the new floors.
    #[arg(long, requires = "gate")]
    pub update: bool,
    /// With --update: allow a floor to go down.
    #[arg(long, requires = "update")]
    pub allow_regression: bool,
    /// Algorithm parameters as JSON.
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// Run `learned` with this model file (written by `sightline train --model FILE`) instead of
    /// the built-in one.
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
    /// Print the quality table of docs/quality.md on stdout instead of the report: of this run, or,
    /// given a saved report.json, of that run without rendering anything.
    #[arg(long, value_name = "REPORT.json", num_args = 0..=1, default_missing_value = "")]
    pub table: Option<PathBuf>,
    #[command(flatten)]
    pub replay: ReplayArgs,
    #[command(flatten)]
    pub render: RenderArgs,
}

/// Render options from the shared flags: the library's settings as parsed, with the browser
/// and the memory bound, which the command line writes its own way.
pub fn render_options(r: &RenderArgs) -> Result<RenderOptions> {
    r.options.validate().map_err(flag_error)?;
    let concurrency = r.options.concurrency;
    Ok(r.options
        .clone()
        .browser(match browser_endpoints(r)?.first() {
            Some(ws) => BrowserSource::Connect(ws.clone()),
            None => BrowserSource::Launch(r.chrome.clone()),
        })
        .max_browser_memory(match r.max_browser_memory {
            Some(0) => None,
            Some(mib) => Some(mib << 20),
            None => Some(RenderOptions::default_memory_bound(concurrency)),
        }))
}

/// Every `--browser-ws` endpoint, from the flags and `--browser-ws-file`.
pub fn browser_endpoints(r: &RenderArgs) -> Result<Vec<String>> {
    let mut eps = r.browser_ws.clone();
    if let Some(f) = &r.browser_ws_file {
        let text = std::fs::read_to_string(f)
            .with_context(|| format!("cannot read --browser-ws-file {}", f.display()))?;
        eps.extend(inputs::parse_list(&text));
    }
    for e in &eps {
        if !(e.starts_with("ws://") || e.starts_with("wss://")) {
            bail!("--browser-ws {e}: expected a DevTools WebSocket URL such as ws://host:9222/devtools/browser/<id>");
        }
    }
    Ok(eps)
}

/// Inputs from the arguments and `--input FILE|-`.
pub fn collect_inputs(a: &ExtractArgs) -> Result<Vec<String>> {
    let mut inputs = a.inputs.clone();
    if let Some(list) = a.input_list.as_deref().filter(|l| is_warc(l)) {
        let pages = sightline::archive::html_responses(list)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("cannot read --input {}", list.display()))?;
        inputs.extend(pages.into_iter().map(|p| p.url));
        return Ok(inputs);
    }
    if let Some(list) = &a.input_list {
        let text = if list.as_os_str() == "-" {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .context("cannot read the input list from stdin")?;
            s
        } else {
            std::fs::read_to_string(list)
                .with_context(|| format!("cannot read --input {}", list.display()))?
        };
        inputs.extend(inputs::parse_list(&text));
    }
    if inputs.iter().filter(|i| *i == "-").count() > 1
        || (inputs.iter().any(|i| i == "-") && a.input_list.as_deref() == Some(Path::new("-")))
    {
        bail!("stdin can be read once: use - for one HTML page or --input - for a list, not both");
    }
    Ok(inputs)
}
