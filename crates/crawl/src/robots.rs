//! robots.txt (RFC 9309) for one host: which URLs the crawl may fetch, its `Crawl-delay`
//! and the sitemaps it names, parsed by `texting_robots`. What an answer means follows the
//! RFC's §2.3.1: a 2xx body is the rules; a 4xx (no robots.txt) allows everything; a 5xx
//! or an unreachable server disallows everything, for this crawl.

use std::time::Duration;

/// One host's robots.txt, as it applies to sightline.
#[derive(Debug)]
pub(crate) struct Robots {
    rules: Rules,
    /// The sitemaps it names (`Sitemap:` lines), absolute URLs.
    pub sitemaps: Vec<String>,
    /// Its `Crawl-delay` for sightline's group (or `*`).
    pub delay: Option<Duration>,
}

#[derive(Debug)]
enum Rules {
    All,
    None,
    Parsed(Box<texting_robots::Robot>),
}

impl Robots {
    /// Everything allowed (a 4xx answer, or `--ignore-robots`).
    pub(crate) fn allow_all() -> Robots {
        Robots {
            rules: Rules::All,
            sitemaps: Vec::new(),
            delay: None,
        }
    }

    /// Nothing allowed (a 5xx answer or an unreachable server).
    pub(crate) fn disallow_all() -> Robots {
        Robots {
            rules: Rules::None,
            sitemaps: Vec::new(),
            delay: None,
        }
    }

    /// The rules of a robots.txt body for the user-agent token `agent` (`sightline`); a body
    /// that does not parse allows everything (as an empty file does).
    pub(crate) fn parse(agent: &str, body: &[u8]) -> Robots {
        match texting_robots::Robot::new(agent, body) {
            Ok(r) => Robots {
                sitemaps: r.sitemaps.clone(),
                delay: r
                    .delay
                    .filter(|d| d.is_finite() && *d > 0.0)
                    .map(|d| Duration::from_secs_f32(d.min(3600.0))),
                rules: Rules::Parsed(Box::new(r)),
            },
            Err(_) => Robots::allow_all(),
        }
    }

    /// The rules for an answer: its status and body ([`Robots::parse`] for 2xx).
    pub(crate) fn from_answer(agent: &str, status: Option<u16>, body: &[u8]) -> Robots {
        match status {
            Some(s) if (200..300).contains(&s) => Robots::parse(agent, body),
            Some(s) if (400..500).contains(&s) => Robots::allow_all(),
            _ => Robots::disallow_all(),
        }
    }

    /// May the crawl fetch this URL?
    pub(crate) fn allowed(&self, url: &str) -> bool {
        match &self.rules {
            Rules::All => true,
            Rules::None => false,
            Rules::Parsed(r) => r.allowed(url),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TXT: &str = "User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n\n\
                       User-agent: otherbot\nDisallow: /\n\n\
                       Sitemap: https://e.example/sitemap_index.xml\n";

    #[test]
    fn rules_delay_and_sitemaps() {
        let r = Robots::parse("sightline", TXT.as_bytes());
        assert!(r.allowed("https://e.example/a"));
        assert!(!r.allowed("https://e.example/private/x"));
        assert_eq!(r.delay, Some(Duration::from_secs(1)));
        assert_eq!(r.sitemaps, vec!["https://e.example/sitemap_index.xml"]);
        let other = Robots::parse("otherbot", TXT.as_bytes());
        assert!(!other.allowed("https://e.example/a"));
    }

    #[test]
    fn statuses_follow_rfc_9309() {
        assert!(Robots::from_answer("sightline", Some(404), b"").allowed("https://e.example/"));
        assert!(!Robots::from_answer("sightline", Some(503), b"").allowed("https://e.example/"));
        assert!(!Robots::from_answer("sightline", None, b"").allowed("https://e.example/"));
    }
}
