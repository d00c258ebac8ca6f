//! Archives a caller asks for: one new WARC per request or tool call in the folder the
//! operator named (`--warc-dir`), shared by `serve`'s `warc: true` and the MCP `extract`
//! tool's `warc`. Without the folder, asking is refused: a caller never names a path.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use sightline::batch::ArchiveWriter;
use sightline::Error;

/// The refusal when the operator keeps no archives.
pub const NO_ARCHIVES: &str =
    "warc: this service keeps no archives (its operator starts it with --warc-dir DIR)";

/// A new WARC in `dir` for one request: `sightline-<time>-<n>.warc.gz`; its file name and
/// its writer.
pub fn request_warc(dir: &Path) -> Result<(String, ArchiveWriter), Error> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let name = format!(
        "sightline-{}{:09}-{n}.warc.gz",
        t.as_secs(),
        t.subsec_nanos()
    );
    let w = ArchiveWriter::create(Some(&dir.join(&name)), None)?;
    Ok((name, w))
}
