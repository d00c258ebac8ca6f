//! The screenshot phase: the page, down to its height limit, as one PNG taken beyond the
//! viewport (`Page.captureScreenshot` with a clip of the document's size).

use chromiumoxide::cdp::browser_protocol::page::{
    CaptureScreenshotFormat, CaptureScreenshotParams, Viewport,
};

use super::config::TabConfig;
use super::Tab;
use crate::cdp;
use crate::Error;
use sightline_core::snapshot::Snapshot;

impl Tab {
    /// The screenshot phase: the page down to its height limit, as PNG.
    pub(super) async fn screenshot(
        &mut self,
        input: &str,
        opts: &TabConfig,
        snapshot: &Snapshot,
    ) -> Result<Vec<u8>, Error> {
        let h = snapshot
            .document
            .height
            .min(opts.max_screenshot_height as f64)
            .max(1.0);
        let w = snapshot.document.width.max(1.0);
        let params = CaptureScreenshotParams {
            format: Some(CaptureScreenshotFormat::Png),
            quality: None,
            clip: Some(Viewport {
                x: 0.0,
                y: 0.0,
                width: w,
                height: h,
                scale: 1.0,
            }),
            from_surface: Some(true),
            capture_beyond_viewport: Some(true),
            optimize_for_speed: Some(true),
        };
        let r = cdp::execute(
            &self.page,
            input,
            "taking the screenshot",
            opts.command_timeout * 4,
            params,
        )
        .await?;
        let bytes = {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD
                .decode(AsRef::<str>::as_ref(&r.result.data))
                .map_err(|m| Error::Script {
                    input: input.into(),
                    message: format!("screenshot data: {m}"),
                })?
        };
        Ok(bytes)
    }
}
