//! Pure writers: an [`Extraction`](crate::Extraction) of a [`Snapshot`](crate::Snapshot) to
//! bytes. The caller decides where the bytes go.
//!
//! - `text`: the content in document order, one paragraph per block element, one per line;
//! - `html`: the content subtrees as cleaned HTML (structure kept, presentation dropped);
//! - `json`: everything, including per-node scores and phase timings ([`json::Record`]).

pub mod html;
pub mod json;
pub mod markdown;
pub mod text;

use std::str::FromStr;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Text,
    Html,
    Markdown,
    Json,
}

impl Format {
    /// File extension for `-o DIR` output.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Html => "html",
            Format::Markdown => "md",
            Format::Json => "json",
        }
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "text" | "txt" => Ok(Format::Text),
            "html" => Ok(Format::Html),
            "markdown" | "md" => Ok(Format::Markdown),
            "json" => Ok(Format::Json),
            _ => Err(format!(
                "unknown format `{s}`: expected text, html, markdown or json"
            )),
        }
    }
}
