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

use crate::Error;

/// Chromium flags, without leading dashes. Without the background-networking flags a closed
/// network makes Chromium retry connections constantly.
pub const CHROME_FLAGS: [&str; 9] = [
    "disable-gpu",
    "disable-quic",
    "no-first-run",
    "disable-background-networking",
    "disable-component-update",
    "disable-sync",
    "disable-domain-reliability",
    "no-default-browser-check",
    "disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication",
];

/// Names tried on `PATH` when neither `--chrome` nor `$CHROME` is given.
pub const CHROME_NAMES: [&str; 5] = [
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
            Err(Error::ChromeNotFound {
                looked: format!("--chrome {}", p.display()),
            })
        };
    }
    if let Some(p) = std::env::var_os("CHROME").filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(Error::ChromeNotFound {
                looked: format!("$CHROME={}", p.display()),
            })
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
    Err(Error::ChromeNotFound {
        looked: format!("$CHROME and {} on PATH", CHROME_NAMES.join(", ")),
    })
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
        let (browser, mut handler, profile, launched) = match source {
            BrowserSource::Launch(path) => {
                let exe = find_chrome(path.as_deref())?;
                let profile = tempfile::Builder::new()
                    .prefix("sightline-profile-")
                    .tempdir()
                    .map_err(|e| Error::Launch {
                        path: exe.clone(),
                        message: format!("cannot create a temporary profile directory: {e}"),
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
                    .window_size(viewport.0, viewport.1)
                    .viewport(vp)
                    .launch_timeout(timeout)
                    .request_timeout(timeout)
                    .args(CHROME_FLAGS)
                    .args(
                        extra_args
                            .iter()
                            .map(|a| a.trim_start_matches('-').to_string()),
                    )
                    .build()
                    .map_err(|m| Error::Launch {
                        path: exe.clone(),
                        message: m,
                    })?;
                let (b, h) =
                    tokio::time::timeout(timeout + Duration::from_secs(1), Browser::launch(config))
                        .await
                        .map_err(|_| Error::Launch {
                            path: exe.clone(),
                            message: format!("no DevTools endpoint within {timeout:?}"),
                        })?
                        .map_err(|e| Error::Launch {
                            path: exe.clone(),
                            message: e.to_string(),
                        })?;
                (b, h, Some(profile), true)
            }
            BrowserSource::Connect(url) => {
                let (b, h) = tokio::time::timeout(timeout, Browser::connect(url.clone()))
                    .await
                    .map_err(|_| Error::Connect {
                        url: url.clone(),
                        message: "timed out".into(),
                    })?
                    .map_err(|e| Error::Connect {
                        url: url.clone(),
                        message: e.to_string(),
                    })?;
                (b, h, None, false)
            }
        };
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
        Ok(BrowserHandle {
            browser,
            gone,
            handler,
            profile,
            launched,
        })
    }

    /// Is the connection gone?
    pub fn is_gone(&self) -> bool {
        self.gone.load(Ordering::SeqCst)
    }

    /// Kill a launched browser at once (it is dead or dying), reap it, remove the profile.
    pub async fn kill(mut self) {
        if self.launched {
            let _ = self.browser.kill().await;
            let _ = tokio::time::timeout(Duration::from_secs(3), self.browser.wait()).await;
        }
        self.handler.abort();
        if let Some(p) = self.profile.take() {
            let _ = p.close();
        }
    }

    /// Close the browser (launched ones are killed and reaped) and remove the profile.
    pub async fn shutdown(mut self) {
        if self.launched {
            let _ = tokio::time::timeout(Duration::from_secs(3), self.browser.close()).await;
            if tokio::time::timeout(Duration::from_secs(3), self.browser.wait())
                .await
                .is_err()
            {
                let _ = self.browser.kill().await;
                let _ = tokio::time::timeout(Duration::from_secs(3), self.browser.wait()).await;
            }
        }
        self.handler.abort();
        if let Some(p) = self.profile.take() {
            let _ = p.close();
        }
    }
}
