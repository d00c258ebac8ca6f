//! Launching (or connecting to) Chromium and polling chromiumoxide's `Handler`.
//!
//! Facts this code is built on (chromiumoxide 0.9.1, Debian Chromium 156): flags are passed
//! without leading dashes (the crate adds `--`); each browser needs its own `user_data_dir`
//! (the default is shared, so a second browser fails on SingletonLock); Chromium sends events
//! the crate cannot parse, which are ignored; only a WebSocket error ends the handler, and then
//! every pending call fails at once because the handler is dropped.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::error::CdpError;
use chromiumoxide::handler::viewport::Viewport;
use futures::StreamExt;

use super::reap;
use crate::error::BrowserError;
use crate::Error;

/// After `Browser.close`, Chromium gets this long to exit by itself before its process tree
/// is killed. A clean exit writes the profile (a temporary one, removed right after) and
/// took about 540 ms; nothing of it is kept.
pub(crate) const CLOSE_GRACE: Duration = Duration::from_millis(50);

/// Killed processes must be gone within this long (they normally are within milliseconds).
const REAP_LIMIT: Duration = Duration::from_secs(2);

/// Chromium flags, without leading dashes. chromiumoxide's default flags (Puppeteer's list)
/// are turned off and restated here, because they include `disable-popup-blocking`: with it,
/// every `window.open` of a page's scripts (pop-unders, ad windows) opens a target with its
/// own renderer that stays open for the rest of the run. With Chromium's popup blocker on,
/// such calls return `null`, as in a user's browser. Without the background-networking flags
/// a closed network makes Chromium retry connections constantly.
pub(crate) const CHROME_FLAGS: [&str; 30] = [
    // chromiumoxide 0.9.1's defaults, but for disable-popup-blocking
    "disable-background-networking",
    "enable-features=NetworkService,NetworkServiceInProcess",
    "disable-background-timer-throttling",
    "disable-backgrounding-occluded-windows",
    "disable-breakpad",
    "disable-client-side-phishing-detection",
    "disable-component-extensions-with-background-pages",
    "disable-default-apps",
    "disable-dev-shm-usage",
    "disable-hang-monitor",
    "disable-ipc-flooding-protection",
    "disable-prompt-on-repost",
    "disable-renderer-backgrounding",
    "force-color-profile=srgb",
    "metrics-recording-only",
    "enable-automation",
    "password-store=basic",
    "use-mock-keychain",
    "lang=en_US",
    // sightline's own
    "disable-gpu",
    "disable-quic",
    "no-first-run",
    "disable-component-update",
    "disable-domain-reliability",
    "no-default-browser-check",
    // The one flag of Debian's launcher script that sightline did not pass already (the
    // script is skipped, see `wrapper.rs`): no hyperlink-auditing pings.
    "disable-pings",
    // The profile may be in memory (see `temp_profile`): its HTTP cache is kept small.
    "disk-cache-size=33554432",
    // Cross-site frames (ad and widget iframes, most of them blocked or empty) render in
    // their page's process instead of one process each: on 40 benchmark pages at 4 tabs,
    // 5 renderer processes instead of 21 and about 7% less CPU. The profile is a fresh
    // temporary one that holds no cookies or credentials a compromised page could read;
    // `--chrome-arg site-per-process` restores strict isolation.
    "disable-site-isolation-trials",
    // A reused tab goes straight from one page to the next (see `Tab::park`): with the
    // back-forward cache, Chromium froze and kept each page it left, to evict it later. Off
    // (as Playwright runs Chromium): on 40 benchmark pages, 3 alternating runs each, 1 tab
    // 15.4 s against 16.8 s median (0.58 against 0.64 CPU s a page), 4 tabs 11.2 s against
    // 11.8 s. A page a script sends back in history is loaded again, not restored.
    "disable-back-forward-cache",
    // The headless shell has no popup blocker (it is part of the browser's UI layer): this
    // switch of the shell's refuses every new window instead (`window.open` returns null,
    // as the blocker does for script pop-ups). Chromium ignores it. `--chrome-arg
    // disable-popup-blocking` drops it too (see `base_flags`).
    "block-new-web-contents",
];

/// Features turned off (one `disable-features` flag: Chromium reads only the last one given,
/// so flags from `--chrome-arg disable-features=...` are merged into it).
pub(crate) const DISABLED_FEATURES: &str =
    "Translate,TranslateUI,MediaRouter,OptimizationHints,AutofillServerCommunication";

/// Names tried on `PATH` when neither `--chrome` nor `$CHROME` is given. The headless shells
/// come first: the same Blink without the browser's UI layer (no GPU process, no WebUI
/// renderer, no storage service), which Playwright also launches for headless pages; on 40
/// benchmark pages at 4 tabs Debian's `chromium-headless-shell` took 0.34 CPU s a page
/// against 0.43 for `chromium`, with the same 40 texts.
pub(crate) const CHROME_NAMES: [&str; 7] = [
    "chromium-headless-shell",
    "chrome-headless-shell",
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "chrome",
];

/// Find the Chromium executable: `explicit` (from `--chrome`), then `$CHROME`, then the usual
/// names on `PATH`.
pub fn find_chrome(explicit: Option<&Path>) -> Result<PathBuf, Error> {
    if let Some(p) = explicit {
        return if p.is_file() {
            Ok(p.to_path_buf())
        } else {
            Err(Error::from(BrowserError::ChromeNotFound {
                looked: format!("--chrome {}", p.display()),
            }))
        };
    }
    if let Some(p) = std::env::var_os("CHROME").filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(Error::from(BrowserError::ChromeNotFound {
                looked: format!("$CHROME={}", p.display()),
            }))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in CHROME_NAMES {
        for dir in std::env::split_paths(&path) {
            let cand = dir.join(name);
            if cand.is_file() {
                return Ok(cand);
            }
        }
    }
    Err(Error::from(BrowserError::ChromeNotFound {
        looked: format!("$CHROME and {} on PATH", CHROME_NAMES.join(", ")),
    }))
}

/// How to get a browser.
#[derive(Debug, Clone)]
pub enum BrowserSource {
    /// Launch this executable (None: find it).
    Launch(Option<PathBuf>),
    /// Connect to a running browser's DevTools WebSocket URL.
    Connect(String),
}

/// A live browser: the chromiumoxide handle, the handler task, and the temporary profile.
pub struct BrowserHandle {
    pub browser: Browser,
    /// Set when the handler stopped (WebSocket closed: the browser is gone).
    pub gone: Arc<AtomicBool>,
    handler: tokio::task::JoinHandle<()>,
    profile: Option<tempfile::TempDir>,
    launched: bool,
    /// Process id of a launched browser (its memory is read from `/proc`).
    pid: Option<u32>,
}

impl BrowserHandle {
    /// Launch or connect.
    pub async fn start(
        source: &BrowserSource,
        viewport: (u32, u32),
        timeout: Duration,
        extra_args: &[String],
    ) -> Result<BrowserHandle, Error> {
        let vp = Viewport {
            width: viewport.0,
            height: viewport.1,
            device_scale_factor: Some(1.0),
            emulating_mobile: false,
            is_landscape: true,
            has_touch: false,
        };
        let (mut browser, mut handler, profile, launched) = match source {
            BrowserSource::Launch(path) => {
                let exe = super::wrapper::resolve(&find_chrome(path.as_deref())?);
                // Which binary: the headless shell and the full browser differ in speed and in
                // a few behaviours (see `CHROME_NAMES`).
                tracing::info!("launching {}", exe.display());
                let profile = temp_profile().map_err(|e| {
                    Error::from(BrowserError::Launch {
                        path: exe.clone(),
                        message: format!("cannot create a temporary profile directory: {e}"),
                        source: Some(Box::new(e)),
                    })
                })?;
                // Chromium's own temporary files (the `org.chromium.Chromium.*` directory of
                // its singleton socket, one a launch, removed only by a clean exit) go inside
                // the profile too, so they go with it.
                let tmp = profile.path().join("tmp");
                std::fs::create_dir_all(&tmp).map_err(|e| {
                    Error::from(BrowserError::Launch {
                        path: exe.clone(),
                        message: format!("cannot create {}: {e}", tmp.display()),
                        source: None,
                    })
                })?;
                let config = BrowserConfig::builder()
                    .chrome_executable(&exe)
                    .no_sandbox()
                    .user_data_dir(profile.path().join("profile"))
                    .env(
                        "XDG_CONFIG_HOME",
                        profile.path().join("config").display().to_string(),
                    )
                    .env(
                        "XDG_CACHE_HOME",
                        profile.path().join("cache").display().to_string(),
                    )
                    .env("HOME", profile.path().display().to_string())
                    .env("TMPDIR", tmp.display().to_string())
                    .window_size(viewport.0, viewport.1)
                    .viewport(vp)
                    .launch_timeout(timeout)
                    .request_timeout(timeout)
                    .disable_default_args()
                    .args(base_flags(extra_args))
                    .args(chrome_args(extra_args))
                    .build()
                    .map_err(|m| {
                        Error::from(BrowserError::Launch {
                            path: exe.clone(),
                            message: m,
                            source: None,
                        })
                    })?;
                let (b, h) =
                    tokio::time::timeout(timeout + Duration::from_secs(1), Browser::launch(config))
                        .await
                        .map_err(|_| {
                            Error::from(BrowserError::Launch {
                                path: exe.clone(),
                                message: format!("no DevTools endpoint within {timeout:?}"),
                                source: None,
                            })
                        })?
                        .map_err(|e| {
                            Error::from(BrowserError::Launch {
                                path: exe.clone(),
                                message: e.to_string(),
                                source: Some(Box::new(e)),
                            })
                        })?;
                (b, h, Some(profile), true)
            }
            BrowserSource::Connect(url) => {
                let (b, h) = tokio::time::timeout(timeout, Browser::connect(url.clone()))
                    .await
                    .map_err(|_| {
                        Error::from(BrowserError::Connect {
                            url: url.clone(),
                            message: "timed out".into(),
                            source: None,
                        })
                    })?
                    .map_err(|e| {
                        Error::from(BrowserError::Connect {
                            url: url.clone(),
                            message: e.to_string(),
                            source: Some(Box::new(e)),
                        })
                    })?;
                (b, h, None, false)
            }
        };
        let pid = browser.get_mut_child().and_then(|c| c.as_mut_inner().id());
        let gone = Arc::new(AtomicBool::new(false));
        let g2 = gone.clone();
        let handler = tokio::spawn(async move {
            while let Some(ev) = handler.next().await {
                match ev {
                    Ok(()) | Err(CdpError::InvalidMessage(..)) => {}
                    Err(CdpError::Ws(e)) => {
                        tracing::warn!("browser connection closed: {e}");
                        break;
                    }
                    Err(e) => tracing::debug!("browser handler: {e}"),
                }
            }
            g2.store(true, Ordering::SeqCst);
        });
        if let (Some(pid), Some(p), true) = (pid, profile.as_ref(), launched) {
            reap::register(pid, p.path());
        }
        Ok(BrowserHandle {
            browser,
            gone,
            handler,
            profile,
            launched,
            pid,
        })
    }

    /// Was this browser launched by sightline (not connected with `--browser-ws`)?
    pub fn launched(&self) -> bool {
        self.launched
    }

    /// Resident memory of a launched browser and all its child processes (renderers, GPU,
    /// network, ...): the sum of their `VmRSS` in `/proc`, in bytes. None when connected,
    /// or where `/proc` is not readable (not Linux).
    pub fn memory_bytes(&self) -> Option<u64> {
        reap::tree_rss(self.pid?)
    }

    /// Page targets of this browser (tabs, pop-ups a page opened), as (id, opener id).
    pub async fn page_targets(
        &self,
        limit: Duration,
    ) -> Result<Vec<(String, Option<String>)>, Error> {
        use chromiumoxide::cdp::browser_protocol::target::GetTargetsParams;
        let targets = self.browser.execute(GetTargetsParams::default());
        let r = crate::cdp::timed("browser", "listing targets", limit, targets).await?;
        Ok(r.result
            .target_infos
            .into_iter()
            .filter(|t| t.r#type == "page")
            .map(|t| {
                (
                    t.target_id.inner().clone(),
                    t.opener_id.map(|o| o.inner().clone()),
                )
            })
            .collect())
    }

    /// Close a target from the browser session (works when the page's own session is stuck).
    pub async fn close_target(&self, id: &str, limit: Duration) {
        use chromiumoxide::cdp::browser_protocol::target::CloseTargetParams;
        let _ = tokio::time::timeout(
            limit,
            self.browser.execute(CloseTargetParams::new(id.to_string())),
        )
        .await;
    }

    /// Is the connection gone?
    pub fn is_gone(&self) -> bool {
        self.gone.load(Ordering::SeqCst)
    }

    /// Kill a launched browser at once (it is dead or dying) with its whole process tree,
    /// reap it, remove the profile.
    pub async fn kill(mut self) {
        if self.launched {
            let tree = self.tree();
            self.end_tree(tree).await;
        }
        self.handler.abort();
        if let Some(p) = self.profile.take() {
            let _ = p.close();
        }
    }

    /// Close the browser and remove the profile. A launched browser is sent `Browser.close`
    /// and given [`CLOSE_GRACE`] to exit; then it and every process it started (zygote,
    /// renderers, GPU and utility processes) are killed, and sightline waits until none is
    /// alive, so none outlives the run.
    pub async fn shutdown(mut self) {
        if self.launched {
            let start = std::time::Instant::now();
            let mut tree = self.tree();
            let grace_end = tokio::time::Instant::now() + CLOSE_GRACE;
            let _ = tokio::time::timeout_at(grace_end, self.browser.close()).await;
            // Helpers started since the listing (the browser's children are reparented
            // once it exits, so this is their last chance to be found).
            tree.merge(&self.tree());
            let exited = tokio::time::timeout_at(grace_end, self.browser.wait())
                .await
                .is_ok();
            self.end_tree(tree).await;
            tracing::debug!(
                "browser closed in {:?} (exited within its grace: {exited})",
                start.elapsed()
            );
        }
        self.handler.abort();
        if let Some(p) = self.profile.take() {
            let _ = p.close();
        }
    }

    /// The launched browser's processes: its descendants, and the processes whose command
    /// line names its profile (Chromium's crash handler is started through a double fork, so
    /// it is not a descendant).
    fn tree(&self) -> reap::Tree {
        let marker = self
            .profile
            .as_ref()
            .map(|p| p.path().display().to_string());
        match self.pid {
            Some(pid) => reap::Tree::list(pid, marker.as_deref()),
            None => reap::Tree::default(),
        }
    }

    /// The launched browser's profile directory (None when connected).
    pub fn profile_dir(&self) -> Option<&Path> {
        self.profile.as_ref().map(|p| p.path())
    }

    /// Process id of the launched browser (None when connected).
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Stop polling the connection, kill the browser and the processes of `tree`, reap the
    /// browser, and wait until none of them is alive.
    async fn end_tree(&mut self, tree: reap::Tree) {
        // The connection is dropped first: killed under a live handler, Chromium's reset
        // socket would be logged as an error.
        self.handler.abort();
        let left = tree.kill(REAP_LIMIT).await;
        if !left.is_empty() {
            tracing::warn!("Chromium processes still alive after SIGKILL: {left:?}");
        }
        let _ = self.browser.kill().await;
        let _ = tokio::time::timeout(REAP_LIMIT, self.browser.wait()).await;
        if let Some(pid) = self.pid.take() {
            // Ended: `Drop` has nothing left to do.
            reap::unregister(pid);
        }
    }
}

/// A launched browser dropped without [`BrowserHandle::shutdown`] (the last reference let go
/// by a relaunch, a panic, a cancelled task): its whole process tree is killed here, as the
/// shutdown would, rather than leaving the browser's end to how chromiumoxide and Debian's
/// `chromium-headless-shell` wrapper script (which does not `exec`) handle a dropped child.
impl Drop for BrowserHandle {
    fn drop(&mut self) {
        if let (true, Some(pid)) = (self.launched, self.pid) {
            self.handler.abort();
            self.tree().kill_now();
            reap::unregister(pid);
        }
    }
}

/// Create the temporary profile directory. Without `$TMPDIR`, on Linux, it goes in
/// `/dev/shm` (memory) when that is writable: removing a used profile (about 240 files,
/// 6.5 MB) took 360-460 ms on this machine's ext4 `/tmp` (mounted with `discard`) and about
/// 10 ms on tmpfs, and sightline removes it before it exits. Chromium's HTTP cache in it is
/// capped by `disk-cache-size` (see [`CHROME_FLAGS`]).
fn temp_profile() -> std::io::Result<tempfile::TempDir> {
    let mut b = tempfile::Builder::new();
    b.prefix("sightline-profile-");
    let shm = Path::new("/dev/shm");
    if cfg!(target_os = "linux") && std::env::var_os("TMPDIR").is_none() && shm.is_dir() {
        if let Ok(d) = b.tempdir_in(shm) {
            return Ok(d);
        }
    }
    b.tempdir()
}

/// [`CHROME_FLAGS`], without the headless shell's pop-up refusal when the caller turned the
/// popup blocker off (`--chrome-arg disable-popup-blocking`).
fn base_flags(extra: &[String]) -> Vec<&'static str> {
    let popups = extra
        .iter()
        .any(|a| a.trim_start_matches('-') == "disable-popup-blocking");
    CHROME_FLAGS
        .into_iter()
        .filter(|f| !(popups && *f == "block-new-web-contents"))
        .collect()
}

/// The caller's extra flags, without leading dashes, with the one `disable-features` flag
/// holding [`DISABLED_FEATURES`] and any the caller disabled.
fn chrome_args(extra: &[String]) -> Vec<String> {
    let mut features = DISABLED_FEATURES.to_string();
    let mut out = Vec::new();
    for a in extra {
        let a = a.trim_start_matches('-');
        match a.strip_prefix("disable-features=") {
            Some(f) if !f.is_empty() => {
                features.push(',');
                features.push_str(f);
            }
            Some(_) => {}
            None => out.push(a.to_string()),
        }
    }
    out.push(format!("disable-features={features}"));
    out
}

#[cfg(test)]
mod tests {
    use super::{base_flags, chrome_args, CHROME_FLAGS};

    #[test]
    fn popups_stay_blocked_and_disabled_features_merge() {
        assert!(!CHROME_FLAGS.iter().any(|f| f.contains("popup")));
        assert!(base_flags(&[]).contains(&"block-new-web-contents"));
        let allowed = base_flags(&["--disable-popup-blocking".into()]);
        assert!(!allowed.contains(&"block-new-web-contents"));
        assert_eq!(allowed.len(), CHROME_FLAGS.len() - 1);
        let args = chrome_args(&["--disable-features=Foo".into(), "js-flags=--x".into()]);
        assert_eq!(args[0], "js-flags=--x");
        assert_eq!(
            args[1],
            "disable-features=Translate,TranslateUI,MediaRouter,OptimizationHints,AutofillServerCommunication,Foo"
        );
        assert_eq!(
            args.iter()
                .filter(|a| a.starts_with("disable-features"))
                .count(),
            1
        );
    }
}
