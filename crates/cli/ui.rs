//! Progress on stderr, one style for every long command (indicatif). Hidden when stderr is
//! not a terminal or with `--quiet`: stdout stays data, logs stay readable.

use std::io::IsTerminal;

/// A progress bar: pages done/total, pages/s, a message (failures), ETA.
pub fn progress_bar(len: u64, quiet: bool) -> indicatif::ProgressBar {
    if quiet || !std::io::stderr().is_terminal() || len < 2 {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{prefix} {bar:30} {pos}/{len} pages  {per_sec}  {msg}  ETA {eta}",
        )
        .expect("valid template"),
    );
    bar
}
