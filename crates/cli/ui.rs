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

/// A spinner for a crawl (its length is not known ahead): pages so far, pages/s, a message.
pub fn crawl_spinner(quiet: bool) -> indicatif::ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {pos} pages  {per_sec}  {msg}")
            .expect("valid template"),
    );
    bar
}

/// The summary's lanes (`--render auto|static`): `, lanes: 30 static, 8 full, 2 static-then-full`,
/// or nothing when no lane was asked for.
pub fn lanes_part(lanes: &std::collections::BTreeMap<String, usize>) -> String {
    if lanes.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = lanes.iter().map(|(k, v)| format!("{v} {k}")).collect();
    format!(", lanes: {}", parts.join(", "))
}

/// The summary line's part about walls: `, 4 behind walls (3 challenge, 1 paywall)`, or
/// nothing when no page was behind one.
pub fn walls_part(walls: &std::collections::BTreeMap<String, usize>) -> String {
    let n: usize = walls.values().sum();
    if n == 0 {
        return String::new();
    }
    let kinds: Vec<String> = walls.iter().map(|(k, v)| format!("{v} {k}")).collect();
    format!(", {n} behind walls ({})", kinds.join(", "))
}
