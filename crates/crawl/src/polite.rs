//! Politeness, per host: at most `per_host` requests in flight, starts at least `delay`
//! apart (the larger of `--delay` and the host's robots.txt `Crawl-delay`), and a backoff
//! after a 429 or 503 (its `Retry-After` when known, else doubling from
//! [`BACKOFF_BASE`] up to [`BACKOFF_MAX`]). Pure: the caller passes the clock, tokio's
//! (so that the crawl's waits run on paused time in tests).

use std::collections::HashMap;
use std::time::Duration;

use tokio::time::Instant;

/// The first wait after a 429 or 503 without `Retry-After`; each further one doubles it.
pub(crate) const BACKOFF_BASE: Duration = Duration::from_secs(1);
/// The longest wait a 429 or 503 imposes on a host (a longer `Retry-After` is cut to it).
pub(crate) const BACKOFF_MAX: Duration = Duration::from_secs(120);

#[derive(Debug)]
struct Host {
    in_flight: usize,
    next_start: Instant,
    delay: Duration,
    backoffs: u32,
}

/// Every host's state.
#[derive(Debug)]
pub(crate) struct Hosts {
    per_host: usize,
    delay: Duration,
    hosts: HashMap<String, Host>,
}

impl Hosts {
    /// `per_host` requests in flight a host (at least 1), starts `delay` apart.
    pub(crate) fn new(per_host: usize, delay: Duration) -> Hosts {
        Hosts {
            per_host: per_host.max(1),
            delay,
            hosts: HashMap::new(),
        }
    }

    fn host(&mut self, host: &str, now: Instant) -> &mut Host {
        let delay = self.delay;
        self.hosts.entry(host.to_string()).or_insert(Host {
            in_flight: 0,
            next_start: now,
            delay,
            backoffs: 0,
        })
    }

    /// The host's robots.txt `Crawl-delay` (the larger of it and `--delay` applies).
    pub(crate) fn set_crawl_delay(&mut self, host: &str, d: Duration, now: Instant) {
        let base = self.delay;
        self.host(host, now).delay = base.max(d);
    }

    /// May a request to `host` start now?
    pub(crate) fn ready(&self, host: &str, now: Instant) -> bool {
        self.hosts
            .get(host)
            .is_none_or(|h| h.in_flight < self.per_host && h.next_start <= now)
    }

    /// Hosts that may not start a request now.
    pub(crate) fn busy(&self, now: Instant) -> Vec<String> {
        self.hosts
            .iter()
            .filter(|(_, h)| h.in_flight >= self.per_host || h.next_start > now)
            .map(|(k, _)| k.clone())
            .collect()
    }

    /// A request to `host` starts.
    pub(crate) fn start(&mut self, host: &str, now: Instant) {
        let h = self.host(host, now);
        h.in_flight += 1;
        h.next_start = h.next_start.max(now) + h.delay;
    }

    /// A request to `host` ended; `ok` (not rate-limited) resets its backoff.
    pub(crate) fn finish(&mut self, host: &str, ok: bool, now: Instant) {
        let h = self.host(host, now);
        h.in_flight = h.in_flight.saturating_sub(1);
        if ok {
            h.backoffs = 0;
        }
    }

    /// `host` answered 429 or 503: no request starts before `retry_after` (when known) or
    /// the doubling backoff; returns the wait.
    pub(crate) fn back_off(
        &mut self,
        host: &str,
        retry_after: Option<Duration>,
        now: Instant,
    ) -> Duration {
        let h = self.host(host, now);
        let doubling = BACKOFF_BASE * 2u32.saturating_pow(h.backoffs.min(16));
        h.backoffs += 1;
        let wait = retry_after.unwrap_or(doubling).min(BACKOFF_MAX);
        h.next_start = h.next_start.max(now + wait);
        wait
    }

    /// When the next host that waits on its clock (not on its requests in flight) becomes
    /// ready, if any does.
    pub(crate) fn next_wake(&self, now: Instant) -> Option<Instant> {
        self.hosts
            .values()
            .filter(|h| h.in_flight < self.per_host && h.next_start > now)
            .map(|h| h.next_start)
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_flight_bound_delay_and_backoff() {
        let t0 = Instant::now();
        let mut h = Hosts::new(2, Duration::ZERO);
        assert!(h.ready("a", t0));
        h.start("a", t0);
        h.start("a", t0);
        assert!(!h.ready("a", t0), "two in flight");
        assert!(h.ready("b", t0), "hosts are apart");
        h.finish("a", true, t0);
        assert!(h.ready("a", t0));
        // A crawl delay spaces the starts.
        h.set_crawl_delay("c", Duration::from_secs(2), t0);
        h.start("c", t0);
        h.finish("c", true, t0);
        assert!(!h.ready("c", t0 + Duration::from_secs(1)));
        assert!(h.ready("c", t0 + Duration::from_secs(2)));
        assert_eq!(h.next_wake(t0), Some(t0 + Duration::from_secs(2)));
        // 429s double the wait unless Retry-After says.
        assert_eq!(h.back_off("d", None, t0), Duration::from_secs(1));
        assert_eq!(h.back_off("d", None, t0), Duration::from_secs(2));
        assert_eq!(
            h.back_off("d", Some(Duration::from_secs(7)), t0),
            Duration::from_secs(7)
        );
        assert!(!h.ready("d", t0 + Duration::from_secs(6)));
        assert!(h.ready("d", t0 + Duration::from_secs(7)));
        assert_eq!(
            h.back_off("d", Some(Duration::from_secs(9999)), t0),
            BACKOFF_MAX
        );
    }
}
