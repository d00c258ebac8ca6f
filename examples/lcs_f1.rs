//! Score texts against gold texts with sightline's own metric (Song et al. eq. 6-8, the
//! tokens of `sightline eval`), for scripts such as `scripts/bench-js`.
//!
//! Reads JSON lines `{"output": "...", "gold": "..."}` on stdin and writes one JSON line
//! `{"lcs_p", "lcs_r", "lcs_f1", "gold_tokens"}` per input line on stdout.
//! Usage: cargo run --release --example lcs_f1 < pairs.jsonl

#![forbid(unsafe_code)]

use std::io::{BufRead, Write};

#[derive(serde::Deserialize)]
struct Pair {
    output: String,
    gold: String,
}

fn main() -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let p: Pair = serde_json::from_str(&line)?;
        let s = sightline::eval::score(&p.output, &p.gold);
        writeln!(
            out,
            "{}",
            serde_json::json!({
                "lcs_p": s.lcs_p,
                "lcs_r": s.lcs_r,
                "lcs_f1": s.lcs_f1,
                "gold_tokens": s.gold_tokens,
            })
        )?;
    }
    Ok(())
}
