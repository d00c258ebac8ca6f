//! The flags that choose how each page is scored (algorithm, reader comments, parameters,
//! model, text limit), shared by `extract` and the services (`serve`, `mcp`), where they are
//! the operator's defaults a request or tool call may change. The algorithm and comments are
//! the library's `sightline::Scoring`, flattened here as `serve` and MCP deserialize it.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::shared::{load_model, load_params, parse_algorithms};

/// How each page is scored (shared by `extract`, `serve` and `mcp`).
#[derive(Debug, Args, Clone)]
pub struct ScoringArgs {
    /// The algorithm (`-a`, default `learned`), `--comments` and `--page-type`.
    #[command(flatten)]
    pub scoring: sightline::Scoring,
    /// Fail pages whose visible text is larger than this many bytes.
    #[arg(long, default_value_t = 20_000_000, value_name = "BYTES")]
    pub max_text_bytes: usize,
    /// Algorithm parameters as JSON (any subset of the fields of `Params`; see docs/algorithms.md).
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// Run `learned` with this model file (written by `sightline train --model FILE`) instead of
    /// the built-in one.
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
}

impl ScoringArgs {
    /// The page settings these flags choose: algorithms, parameters (with `--comments`),
    /// model and text limit; the front end sets the rest.
    pub fn page(&self) -> Result<sightline::PageConfig> {
        let mut page = sightline::PageConfig::default()
            .algorithms(parse_algorithms(
                sightline::extract::DEFAULT_ALGORITHM.name(),
            )?)
            .params(load_params(&self.params)?)
            .model(load_model(&self.model)?)
            .max_text_bytes(self.max_text_bytes);
        // `--comments` only turns comments on: without it, a `--params` file's choice stays.
        let scoring = sightline::Scoring {
            comments: self.scoring.comments.filter(|&on| on),
            ..self.scoring.clone()
        };
        scoring.apply(&mut page).map_err(anyhow::Error::msg)?;
        Ok(page)
    }
}
