//! Pure writers: an [`Extraction`](crate::Extraction) of a [`Snapshot`](crate::Snapshot) to
//! bytes. The caller decides where the bytes go.
//!
//! - `text`: the content in document order, one paragraph per block element, one per line;
//! - `html`: the content subtrees as cleaned HTML (structure kept, presentation dropped);
//! - `options`: the writers' settings ([`WriterOptions`]: images, links, base URL);
//! - `json`: everything, including per-node scores ([`json::AlgorithmResult`], inside a [`crate::batch::Record`]);
//! - `scores`: a per-node score table ([`crate::scores::NodeScores`]) as CSV or JSON Lines;
//! - `annotate`: the full-page screenshot with the extraction drawn over it (PNG).

pub mod annotate;
pub mod front_matter;
pub mod html;
pub mod json;
pub mod markdown;
pub mod options;
pub mod scores;
pub mod text;

use std::str::FromStr;

pub use self::options::{ImagesMode, LinksMode, WriterOptions, WriterOptionsError};
use crate::Extraction;

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
    /// The format's name, as `FromStr` reads it and the record writes it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Html => "html",
            Format::Markdown => "markdown",
            Format::Json => "json",
        }
    }

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
            "json" | "jsonl" => Ok(Format::Json),
            _ => Err(format!(
                "unknown format `{s}`: expected text, html, markdown or json (jsonl)"
            )),
        }
    }
}

/// Crunch's removed-link retainer: the links it removed, listed after the content (empty for
/// JSON, where they are in `details.retained_links`, and when there are none).
pub fn retained_links(ex: &Extraction, format: Format) -> String {
    let crate::extract::Details::Crunch(d) = &ex.details else {
        return String::new();
    };
    let links = &d.retained_links;
    if links.is_empty() || format == Format::Json {
        return String::new();
    }
    let mut out = String::from(match format {
        Format::Html => "<hr>\n<ul class=\"retained-links\">\n",
        Format::Markdown => "\nLinks:\n\n",
        _ => "\nLinks:\n",
    });
    for l in links {
        let (t, h) = (l.text.as_str(), l.href.as_str());
        out.push_str(&match format {
            Format::Html => format!(
                "<li><a href=\"{}\">{}</a></li>\n",
                html::escape(h),
                html::escape(t)
            ),
            Format::Markdown => markdown::link_item(t, h),
            _ => format!("{t} <{h}>\n"),
        });
    }
    if format == Format::Html {
        out.push_str("</ul>\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::{Algorithm, Details};

    #[test]
    fn retained_links_are_escaped_per_format() {
        let mut ex = Extraction::empty(Algorithm::Crunch, 0);
        ex.details = Details::Crunch(crate::extract::details::CrunchDetails {
            filters: Vec::new(),
            link_lists: crate::extract::details::LinkListReport {
                scope: crate::extract::params::LinkListScope::Blocks,
                link_text_ratio: 0.5,
                chars_per_word: 5.0,
                would_remove: crate::extract::details::WouldRemove {
                    table_cells: crate::extract::details::ScopeReport {
                        count: 0,
                        paths: Vec::new(),
                    },
                    blocks: crate::extract::details::ScopeReport {
                        count: 0,
                        paths: Vec::new(),
                    },
                },
            },
            retainer_enabled: true,
            retained_links: vec![crate::extract::details::RetainedLink {
                text: "*Top* [10]".into(),
                href: "https://example.com/a b(c)".into(),
            }],
            removed_nodes: 1,
            kept_nodes: 0,
        });
        assert_eq!(
            retained_links(&ex, Format::Markdown),
            "\nLinks:\n\n- [\\*Top\\* \\[10\\]](https://example.com/a%20b\\(c\\))\n"
        );
        assert_eq!(
            retained_links(&ex, Format::Text),
            "\nLinks:\n*Top* [10] <https://example.com/a b(c)>\n"
        );
        assert!(retained_links(&ex, Format::Html)
            .contains("<a href=\"https://example.com/a b(c)\">*Top* [10]</a>"));
        assert_eq!(retained_links(&ex, Format::Json), "");
    }
}
