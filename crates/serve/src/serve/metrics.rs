//! The service's Prometheus metrics (prometheus-client, OpenMetrics text).

use std::sync::atomic::{AtomicI64, Ordering};

use parking_lot::Mutex;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Kind {
    kind: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Reason {
    reason: String,
}

/// Counters, the latency histogram and the gauges of one service.
pub struct Metrics {
    registry: Mutex<Registry>,
    pages: Counter,
    failures: Family<Kind, Counter>,
    refused: Family<Reason, Counter>,
    egress_refused: Counter,
    latency: Histogram,
    busy: Gauge,
    queue: Gauge,
    queued: AtomicI64,
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("sightline");
        let pages = Counter::default();
        let failures = Family::<Kind, Counter>::default();
        let refused = Family::<Reason, Counter>::default();
        let egress_refused = Counter::default();
        // 50 ms … ~100 s.
        let latency = Histogram::new(exponential_buckets(0.05, 2.0, 12));
        let busy = Gauge::default();
        let queue = Gauge::default();
        registry.register(
            "pages",
            "Pages answered (successes and failures)",
            pages.clone(),
        );
        registry.register(
            "failures",
            "Pages that failed, by error kind",
            failures.clone(),
        );
        registry.register(
            "refused",
            "Requests refused before rendering, by reason (forbidden, queue-full, unauthorized)",
            refused.clone(),
        );
        registry.register(
            "egress_refused",
            "Connections of the browser that the egress proxy refused (a forbidden address, after its own lookup)",
            egress_refused.clone(),
        );
        registry.register(
            "request_duration_seconds",
            "Time from request to answer, queueing included",
            latency.clone(),
        );
        registry.register("busy_tabs", "Tabs rendering a page now", busy.clone());
        registry.register(
            "queue",
            "Requests admitted and not yet answered",
            queue.clone(),
        );
        Metrics {
            registry: Mutex::new(registry),
            pages,
            failures,
            refused,
            egress_refused,
            latency,
            busy,
            queue,
            queued: AtomicI64::new(0),
        }
    }

    /// A page was answered after `secs`, failed with `kind` or not.
    pub fn page(&self, kind: Option<&str>, secs: f64) {
        self.pages.inc();
        if let Some(k) = kind {
            self.failures
                .get_or_create(&Kind {
                    kind: k.to_string(),
                })
                .inc();
        }
        self.latency.observe(secs);
    }

    /// A page a crawl recorded (`POST /crawl`): counted with the pages and their failures;
    /// the request's duration is the crawl's, not the page's, so the latency histogram
    /// leaves it out.
    pub fn crawled(&self, kind: Option<&str>) {
        self.pages.inc();
        if let Some(k) = kind {
            self.failures
                .get_or_create(&Kind {
                    kind: k.to_string(),
                })
                .inc();
        }
    }

    /// A request was refused before rendering.
    pub fn refused(&self, reason: &str) {
        self.refused
            .get_or_create(&Reason {
                reason: reason.to_string(),
            })
            .inc();
    }

    /// Requests admitted: +1 on admission, -1 on answer.
    pub fn queued(&self, delta: i64) {
        let v = self.queued.fetch_add(delta, Ordering::SeqCst) + delta;
        self.queue.set(v);
    }

    /// The OpenMetrics text, with the busy-tab gauge and the egress proxies' refusals
    /// (`egress_refused`, a running total) read now.
    pub fn encode(&self, busy_tabs: usize, egress_refused: u64) -> String {
        self.busy.set(busy_tabs as i64);
        let seen = self.egress_refused.get();
        if egress_refused > seen {
            self.egress_refused.inc_by(egress_refused - seen);
        }
        let mut s = String::new();
        let reg = self.registry.lock();
        if prometheus_client::encoding::text::encode(&mut s, &reg).is_err() {
            s.clear();
        }
        s
    }
}
