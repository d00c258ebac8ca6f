//! What a tab reads of one page's render ([`TabConfig`]): the part of [`RenderOptions`] that
//! concerns a page in a tab. The browser's settings (its source, flags, viewport, proxy,
//! user agent) and the renderer's (concurrency, recycling, the egress proxy) stay with the
//! renderer.

use std::sync::Arc;
use std::time::Duration;

use sightline_core::archive::Archive;
use sightline_egress::guard::NetPolicy;

use crate::lane::FetchedDocument;
use crate::lane::RenderMode;
use crate::options::RenderOptions;
use crate::scroll::ScrollOptions;
use crate::steer::Steer;

/// One page's render as the tab runs it; built from the page's [`RenderOptions`] by
/// [`TabConfig::of`]. Each field is the option of the same name (see its docs there).
#[derive(Debug, Clone)]
pub(crate) struct TabConfig {
    /// The page's deadline (`RenderOptions::timeout`).
    pub timeout: Duration,
    /// The bound of one small command (`RenderOptions::command_timeout`).
    pub command_timeout: Duration,
    /// The settle rule's DOM quiet window (`RenderOptions::quiet`).
    pub quiet: Duration,
    /// The scroll phase (`RenderOptions::scroll`).
    pub scroll: ScrollOptions,
    /// Requests other than the page's own are refused (`RenderOptions::offline`).
    pub offline: bool,
    /// A screenshot after the snapshot (`RenderOptions::screenshot`).
    pub screenshot: bool,
    /// The screenshot's height limit (`RenderOptions::max_screenshot_height`).
    pub max_screenshot_height: u32,
    /// Snapshot nodes at most (`RenderOptions::max_nodes`).
    pub max_nodes: usize,
    /// The target policy (`RenderOptions::policy`).
    pub policy: Option<NetPolicy>,
    /// An origin exempt from the target policy (`RenderOptions::exempt_origin`).
    pub exempt_origin: Option<String>,
    /// HTTP error statuses extracted (`RenderOptions::accept_http_errors`).
    pub accept_http_errors: bool,
    /// The page's scripts run (`RenderOptions::javascript`).
    pub javascript: bool,
    /// The page's steering plan (`RenderOptions::steer`).
    pub steer: Arc<Steer>,
    /// The browser connects through the user's proxy (`RenderOptions::proxy` is set).
    pub proxied: bool,
    /// Every exchange kept (`RenderOptions::capture`).
    pub capture: bool,
    /// Every request answered from this archive (`RenderOptions::replay`).
    pub replay: Option<Arc<Archive>>,
    /// The render lane (`RenderOptions::render`); `static` turns `javascript` off.
    pub render: RenderMode,
    /// The main document as an earlier render fetched it (`RenderOptions::fetched`).
    pub fetched: Option<Arc<FetchedDocument>>,
}

impl TabConfig {
    /// What the tab reads of `opts`.
    pub(crate) fn of(opts: &RenderOptions) -> TabConfig {
        TabConfig {
            timeout: opts.timeout,
            command_timeout: opts.command_timeout,
            quiet: opts.quiet,
            scroll: opts.scroll.clone(),
            offline: opts.offline,
            screenshot: opts.screenshot,
            max_screenshot_height: opts.max_screenshot_height,
            max_nodes: opts.max_nodes,
            policy: opts.policy().cloned(),
            exempt_origin: opts.exempt_origin.clone(),
            accept_http_errors: opts.accept_http_errors,
            javascript: opts.javascript && opts.render != RenderMode::Static,
            steer: opts.steer.clone(),
            proxied: opts.proxy.is_some(),
            capture: opts.capture,
            replay: opts.replay.clone(),
            render: opts.render,
            fetched: opts.fetched.clone(),
        }
    }
}
